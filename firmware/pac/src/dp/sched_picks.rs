#[doc = "Register `SCHED_PICKS` reader"]
pub type R = crate::R<SchedPicksSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Decision-supply answers PICK\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_picks::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedPicksSpec;
impl crate::RegisterSpec for SchedPicksSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`sched_picks::R`](R) reader structure"]
impl crate::Readable for SchedPicksSpec {}
#[doc = "`reset()` method sets SCHED_PICKS to value 0"]
impl crate::Resettable for SchedPicksSpec {}
