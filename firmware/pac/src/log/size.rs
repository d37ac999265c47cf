#[doc = "Register `SIZE` reader"]
pub type R = crate::R<SizeSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Ring size in bytes (LOGBUF)\n\nYou can [`read`](crate::Reg::read) this register and get [`size::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SizeSpec;
impl crate::RegisterSpec for SizeSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`size::R`](R) reader structure"]
impl crate::Readable for SizeSpec {}
#[doc = "`reset()` method sets SIZE to value 0x1000"]
impl crate::Resettable for SizeSpec {
    const RESET_VALUE: u32 = 0x1000;
}
