#[doc = "Register `LOAD_UNDERFLOWS` reader"]
pub type R = crate::R<LoadUnderflowsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Least-load operations that found their count at 0\n\nYou can [`read`](crate::Reg::read) this register and get [`load_underflows::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadUnderflowsSpec;
impl crate::RegisterSpec for LoadUnderflowsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`load_underflows::R`](R) reader structure"]
impl crate::Readable for LoadUnderflowsSpec {}
#[doc = "`reset()` method sets LOAD_UNDERFLOWS to value 0"]
impl crate::Resettable for LoadUnderflowsSpec {}
