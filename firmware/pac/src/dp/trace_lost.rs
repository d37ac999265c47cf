#[doc = "Register `TRACE_LOST` reader"]
pub type R = crate::R<TraceLostSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Decisions not recorded while ENABLE was set: another of the same source was still waiting for the ring's write port\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_lost::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TraceLostSpec;
impl crate::RegisterSpec for TraceLostSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`trace_lost::R`](R) reader structure"]
impl crate::Readable for TraceLostSpec {}
#[doc = "`reset()` method sets TRACE_LOST to value 0"]
impl crate::Resettable for TraceLostSpec {}
