#[doc = "Register `BUCKET` reader"]
pub type R = crate::R<BucketSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Bucket (hash) of the last command's key\n\nYou can [`read`](crate::Reg::read) this register and get [`bucket::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BucketSpec;
impl crate::RegisterSpec for BucketSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`bucket::R`](R) reader structure"]
impl crate::Readable for BucketSpec {}
#[doc = "`reset()` method sets BUCKET to value 0"]
impl crate::Resettable for BucketSpec {}
