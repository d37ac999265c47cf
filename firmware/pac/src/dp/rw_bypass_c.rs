#[doc = "Register `RW_BYPASS_C` reader"]
pub type R = crate::R<RwBypassCSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames the client-to-server rewriter passed unchanged (unusable header offsets)\n\nYou can [`read`](crate::Reg::read) this register and get [`rw_bypass_c::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RwBypassCSpec;
impl crate::RegisterSpec for RwBypassCSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rw_bypass_c::R`](R) reader structure"]
impl crate::Readable for RwBypassCSpec {}
#[doc = "`reset()` method sets RW_BYPASS_C to value 0"]
impl crate::Resettable for RwBypassCSpec {}
