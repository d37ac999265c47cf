#[doc = "Register `AGE_EXPIRED` reader"]
pub type R = crate::R<AgeExpiredSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Expired slots queued since reset (a slot still expired at the next walk is queued again)\n\nYou can [`read`](crate::Reg::read) this register and get [`age_expired::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeExpiredSpec;
impl crate::RegisterSpec for AgeExpiredSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_expired::R`](R) reader structure"]
impl crate::Readable for AgeExpiredSpec {}
#[doc = "`reset()` method sets AGE_EXPIRED to value 0"]
impl crate::Resettable for AgeExpiredSpec {}
