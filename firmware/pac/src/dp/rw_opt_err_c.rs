#[doc = "Register `RW_OPT_ERR_C` reader"]
pub type R = crate::R<RwOptErrCSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames whose TCP option list the client-to-server rewriter could not walk to the end\n\nYou can [`read`](crate::Reg::read) this register and get [`rw_opt_err_c::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RwOptErrCSpec;
impl crate::RegisterSpec for RwOptErrCSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rw_opt_err_c::R`](R) reader structure"]
impl crate::Readable for RwOptErrCSpec {}
#[doc = "`reset()` method sets RW_OPT_ERR_C to value 0"]
impl crate::Resettable for RwOptErrCSpec {}
