#[doc = "Register `RW_BYPASS_S` reader"]
pub type R = crate::R<RwBypassSSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames the server-to-client rewriter passed unchanged (unusable header offsets)\n\nYou can [`read`](crate::Reg::read) this register and get [`rw_bypass_s::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RwBypassSSpec;
impl crate::RegisterSpec for RwBypassSSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rw_bypass_s::R`](R) reader structure"]
impl crate::Readable for RwBypassSSpec {}
#[doc = "`reset()` method sets RW_BYPASS_S to value 0"]
impl crate::Resettable for RwBypassSSpec {}
