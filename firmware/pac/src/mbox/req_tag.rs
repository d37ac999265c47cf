#[doc = "Register `REQ_TAG` reader"]
pub type R = crate::R<ReqTagSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Last value written to REQ_DOORBELL\n\nYou can [`read`](crate::Reg::read) this register and get [`req_tag::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ReqTagSpec;
impl crate::RegisterSpec for ReqTagSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`req_tag::R`](R) reader structure"]
impl crate::Readable for ReqTagSpec {}
#[doc = "`reset()` method sets REQ_TAG to value 0"]
impl crate::Resettable for ReqTagSpec {}
