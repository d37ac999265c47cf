#[doc = "Register `NOW` reader"]
pub type R = crate::R<NowSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Data-path time: cycle counter bits 47:16 (the time stamp of flow entries, punt records and events)\n\nYou can [`read`](crate::Reg::read) this register and get [`now::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct NowSpec;
impl crate::RegisterSpec for NowSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`now::R`](R) reader structure"]
impl crate::Readable for NowSpec {}
#[doc = "`reset()` method sets NOW to value 0"]
impl crate::Resettable for NowSpec {}
