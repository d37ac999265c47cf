#[doc = "Register `LOAD_PUNTS` reader"]
pub type R = crate::R<LoadPuntsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Least-load answers PUNT (the pool is OFF)\n\nYou can [`read`](crate::Reg::read) this register and get [`load_punts::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadPuntsSpec;
impl crate::RegisterSpec for LoadPuntsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`load_punts::R`](R) reader structure"]
impl crate::Readable for LoadPuntsSpec {}
#[doc = "`reset()` method sets LOAD_PUNTS to value 0"]
impl crate::Resettable for LoadPuntsSpec {}
