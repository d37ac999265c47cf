#[doc = "Register `BUILD_ID` reader"]
pub type R = crate::R<BuildIdSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Gateware build identifier\n\nYou can [`read`](crate::Reg::read) this register and get [`build_id::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BuildIdSpec;
impl crate::RegisterSpec for BuildIdSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`build_id::R`](R) reader structure"]
impl crate::Readable for BuildIdSpec {}
#[doc = "`reset()` method sets BUILD_ID to value 0"]
impl crate::Resettable for BuildIdSpec {}
