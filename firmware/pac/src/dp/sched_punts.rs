#[doc = "Register `SCHED_PUNTS` reader"]
pub type R = crate::R<SchedPuntsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Decision-supply answers PUNT\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_punts::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedPuntsSpec;
impl crate::RegisterSpec for SchedPuntsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`sched_punts::R`](R) reader structure"]
impl crate::Readable for SchedPuntsSpec {}
#[doc = "`reset()` method sets SCHED_PUNTS to value 0"]
impl crate::Resettable for SchedPuntsSpec {}
