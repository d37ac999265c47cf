#[doc = "Register `EXISTS` reader"]
pub type R = crate::R<ExistsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "INSERT commands refused with EXISTS\n\nYou can [`read`](crate::Reg::read) this register and get [`exists::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ExistsSpec;
impl crate::RegisterSpec for ExistsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`exists::R`](R) reader structure"]
impl crate::Readable for ExistsSpec {}
#[doc = "`reset()` method sets EXISTS to value 0"]
impl crate::Resettable for ExistsSpec {}
