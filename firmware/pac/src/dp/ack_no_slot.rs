#[doc = "Register `ACK_NO_SLOT` reader"]
pub type R = crate::R<AckNoSlotSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Candidate ACKs that checked with the free list empty (verdict NO_SLOT)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_no_slot::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AckNoSlotSpec;
impl crate::RegisterSpec for AckNoSlotSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ack_no_slot::R`](R) reader structure"]
impl crate::Readable for AckNoSlotSpec {}
#[doc = "`reset()` method sets ACK_NO_SLOT to value 0"]
impl crate::Resettable for AckNoSlotSpec {}
