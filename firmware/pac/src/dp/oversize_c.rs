#[doc = "Register `OVERSIZE_C` reader"]
pub type R = crate::R<OversizeCSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames on the client port cut by the length guard\n\nYou can [`read`](crate::Reg::read) this register and get [`oversize_c::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct OversizeCSpec;
impl crate::RegisterSpec for OversizeCSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`oversize_c::R`](R) reader structure"]
impl crate::Readable for OversizeCSpec {}
#[doc = "`reset()` method sets OVERSIZE_C to value 0"]
impl crate::Resettable for OversizeCSpec {}
