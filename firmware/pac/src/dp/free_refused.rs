#[doc = "Register `FREE_REFUSED` reader"]
pub type R = crate::R<FreeRefusedSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "FREE_PUSH writes refused (the list was full or being flushed)\n\nYou can [`read`](crate::Reg::read) this register and get [`free_refused::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FreeRefusedSpec;
impl crate::RegisterSpec for FreeRefusedSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`free_refused::R`](R) reader structure"]
impl crate::Readable for FreeRefusedSpec {}
#[doc = "`reset()` method sets FREE_REFUSED to value 0"]
impl crate::Resettable for FreeRefusedSpec {}
