#[doc = "Register `RSP_TAG` reader"]
pub type R = crate::R<RspTagSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Last value written to RSP_DOORBELL\n\nYou can [`read`](crate::Reg::read) this register and get [`rsp_tag::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RspTagSpec;
impl crate::RegisterSpec for RspTagSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rsp_tag::R`](R) reader structure"]
impl crate::Readable for RspTagSpec {}
#[doc = "`reset()` method sets RSP_TAG to value 0"]
impl crate::Resettable for RspTagSpec {}
