#[doc = "Register `LOAD_NONES` reader"]
pub type R = crate::R<LoadNonesSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Least-load answers NONE\n\nYou can [`read`](crate::Reg::read) this register and get [`load_nones::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadNonesSpec;
impl crate::RegisterSpec for LoadNonesSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`load_nones::R`](R) reader structure"]
impl crate::Readable for LoadNonesSpec {}
#[doc = "`reset()` method sets LOAD_NONES to value 0"]
impl crate::Resettable for LoadNonesSpec {}
