#[doc = "Register `AGE_CLIENT` reader"]
pub type R = crate::R<AgeClientSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "FREED only: the client's IPv4 address (host order) of the freed entry at AGE_HEAD (0 otherwise)\n\nYou can [`read`](crate::Reg::read) this register and get [`age_client::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeClientSpec;
impl crate::RegisterSpec for AgeClientSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_client::R`](R) reader structure"]
impl crate::Readable for AgeClientSpec {}
#[doc = "`reset()` method sets AGE_CLIENT to value 0"]
impl crate::Resettable for AgeClientSpec {}
