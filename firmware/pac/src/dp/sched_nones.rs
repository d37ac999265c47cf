#[doc = "Register `SCHED_NONES` reader"]
pub type R = crate::R<SchedNonesSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Decision-supply answers NONE\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_nones::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedNonesSpec;
impl crate::RegisterSpec for SchedNonesSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`sched_nones::R`](R) reader structure"]
impl crate::Readable for SchedNonesSpec {}
#[doc = "`reset()` method sets SCHED_NONES to value 0"]
impl crate::Resettable for SchedNonesSpec {}
