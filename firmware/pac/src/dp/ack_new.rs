#[doc = "Register `ACK_NEW` reader"]
pub type R = crate::R<AckNewSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Candidate ACKs that checked and got a new slot (verdict NEW)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_new::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AckNewSpec;
impl crate::RegisterSpec for AckNewSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ack_new::R`](R) reader structure"]
impl crate::Readable for AckNewSpec {}
#[doc = "`reset()` method sets ACK_NEW to value 0"]
impl crate::Resettable for AckNewSpec {}
