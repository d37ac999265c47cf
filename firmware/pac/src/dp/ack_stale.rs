#[doc = "Register `ACK_STALE` reader"]
pub type R = crate::R<AckStaleSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Candidate ACKs whose cookie named an expired key slot (verdict STALE)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_stale::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AckStaleSpec;
impl crate::RegisterSpec for AckStaleSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ack_stale::R`](R) reader structure"]
impl crate::Readable for AckStaleSpec {}
#[doc = "`reset()` method sets ACK_STALE to value 0"]
impl crate::Resettable for AckStaleSpec {}
