#[doc = "Register `AGE_FREED` reader"]
pub type R = crate::R<AgeFreedSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Slots the scanner freed itself since reset (AGE_CTRL.FREE)\n\nYou can [`read`](crate::Reg::read) this register and get [`age_freed::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeFreedSpec;
impl crate::RegisterSpec for AgeFreedSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_freed::R`](R) reader structure"]
impl crate::Readable for AgeFreedSpec {}
#[doc = "`reset()` method sets AGE_FREED to value 0"]
impl crate::Resettable for AgeFreedSpec {}
