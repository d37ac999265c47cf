#[doc = "Register `AGE_SWEEPS` reader"]
pub type R = crate::R<AgeSweepsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Walks of all AGE_LIMIT slots completed since reset\n\nYou can [`read`](crate::Reg::read) this register and get [`age_sweeps::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeSweepsSpec;
impl crate::RegisterSpec for AgeSweepsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_sweeps::R`](R) reader structure"]
impl crate::Readable for AgeSweepsSpec {}
#[doc = "`reset()` method sets AGE_SWEEPS to value 0"]
impl crate::Resettable for AgeSweepsSpec {}
