#[doc = "Register `RW_OPT_ERR_S` reader"]
pub type R = crate::R<RwOptErrSSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames whose TCP option list the server-to-client rewriter could not walk to the end\n\nYou can [`read`](crate::Reg::read) this register and get [`rw_opt_err_s::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RwOptErrSSpec;
impl crate::RegisterSpec for RwOptErrSSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rw_opt_err_s::R`](R) reader structure"]
impl crate::Readable for RwOptErrSSpec {}
#[doc = "`reset()` method sets RW_OPT_ERR_S to value 0"]
impl crate::Resettable for RwOptErrSSpec {}
