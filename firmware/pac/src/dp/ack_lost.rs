#[doc = "Register `ACK_LOST` reader"]
pub type R = crate::R<AckLostSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Candidates the validator could not take (always 0 by construction; a nonzero value is a design fault)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_lost::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AckLostSpec;
impl crate::RegisterSpec for AckLostSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ack_lost::R`](R) reader structure"]
impl crate::Readable for AckLostSpec {}
#[doc = "`reset()` method sets ACK_LOST to value 0"]
impl crate::Resettable for AckLostSpec {}
