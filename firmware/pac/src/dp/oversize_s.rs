#[doc = "Register `OVERSIZE_S` reader"]
pub type R = crate::R<OversizeSSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames on the server port cut by the length guard\n\nYou can [`read`](crate::Reg::read) this register and get [`oversize_s::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct OversizeSSpec;
impl crate::RegisterSpec for OversizeSSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`oversize_s::R`](R) reader structure"]
impl crate::Readable for OversizeSSpec {}
#[doc = "`reset()` method sets OVERSIZE_S to value 0"]
impl crate::Resettable for OversizeSSpec {}
