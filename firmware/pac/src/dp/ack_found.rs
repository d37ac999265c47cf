#[doc = "Register `ACK_FOUND` reader"]
pub type R = crate::R<AckFoundSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Candidate ACKs that checked and found their key inserted (verdict FOUND)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_found::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AckFoundSpec;
impl crate::RegisterSpec for AckFoundSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ack_found::R`](R) reader structure"]
impl crate::Readable for AckFoundSpec {}
#[doc = "`reset()` method sets ACK_FOUND to value 0"]
impl crate::Resettable for AckFoundSpec {}
