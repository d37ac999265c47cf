#[doc = "Register `BUCKET_FULL` reader"]
pub type R = crate::R<BucketFullSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "INSERT commands refused with BUCKET_FULL\n\nYou can [`read`](crate::Reg::read) this register and get [`bucket_full::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BucketFullSpec;
impl crate::RegisterSpec for BucketFullSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`bucket_full::R`](R) reader structure"]
impl crate::Readable for BucketFullSpec {}
#[doc = "`reset()` method sets BUCKET_FULL to value 0"]
impl crate::Resettable for BucketFullSpec {}
