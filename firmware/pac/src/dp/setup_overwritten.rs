#[doc = "Register `SETUP_OVERWRITTEN` reader"]
pub type R = crate::R<SetupOverwrittenSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Setups not timed: the start of another slot with the same low 9 bits replaced the slot's start before it was SPLICED or freed\n\nYou can [`read`](crate::Reg::read) this register and get [`setup_overwritten::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SetupOverwrittenSpec;
impl crate::RegisterSpec for SetupOverwrittenSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`setup_overwritten::R`](R) reader structure"]
impl crate::Readable for SetupOverwrittenSpec {}
#[doc = "`reset()` method sets SETUP_OVERWRITTEN to value 0"]
impl crate::Resettable for SetupOverwrittenSpec {}
