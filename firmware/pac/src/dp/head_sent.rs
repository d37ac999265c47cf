#[doc = "Register `HEAD_SENT` reader"]
pub type R = crate::R<HeadSentSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Heads sent to the server port by HEAD_REPLAY since reset\n\nYou can [`read`](crate::Reg::read) this register and get [`head_sent::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadSentSpec;
impl crate::RegisterSpec for HeadSentSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`head_sent::R`](R) reader structure"]
impl crate::Readable for HeadSentSpec {}
#[doc = "`reset()` method sets HEAD_SENT to value 0"]
impl crate::Resettable for HeadSentSpec {}
