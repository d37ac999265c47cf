#[doc = "Register `SETUP_TIMED` reader"]
pub type R = crate::R<SetupTimedSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Setups timed since power-up (the histogram's total)\n\nYou can [`read`](crate::Reg::read) this register and get [`setup_timed::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SetupTimedSpec;
impl crate::RegisterSpec for SetupTimedSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`setup_timed::R`](R) reader structure"]
impl crate::Readable for SetupTimedSpec {}
#[doc = "`reset()` method sets SETUP_TIMED to value 0"]
impl crate::Resettable for SetupTimedSpec {}
