#[doc = "Register `LEVEL` reader"]
pub type R = crate::R<LevelSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Records in the queue\n\nYou can [`read`](crate::Reg::read) this register and get [`level::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LevelSpec;
impl crate::RegisterSpec for LevelSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`level::R`](R) reader structure"]
impl crate::Readable for LevelSpec {}
#[doc = "`reset()` method sets LEVEL to value 0"]
impl crate::Resettable for LevelSpec {}
