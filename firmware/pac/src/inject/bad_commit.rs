#[doc = "Register `BAD_COMMIT` reader"]
pub type R = crate::R<BadCommitSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "COMMIT writes not queued (bad length or checksum offsets)\n\nYou can [`read`](crate::Reg::read) this register and get [`bad_commit::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BadCommitSpec;
impl crate::RegisterSpec for BadCommitSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`bad_commit::R`](R) reader structure"]
impl crate::Readable for BadCommitSpec {}
#[doc = "`reset()` method sets BAD_COMMIT to value 0"]
impl crate::Resettable for BadCommitSpec {}
