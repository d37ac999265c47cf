#[doc = "Register `SCHED_MASK_HI` writer"]
pub type W = crate::W<SchedMaskHiSpec>;
impl core::fmt::Debug for crate::generic::Reg<SchedMaskHiSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Eligibility mask staged for SCHED_MASK_WR: servers 32-63\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_mask_hi::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedMaskHiSpec;
impl crate::RegisterSpec for SchedMaskHiSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_mask_hi::W`](W) writer structure"]
impl crate::Writable for SchedMaskHiSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_MASK_HI to value 0"]
impl crate::Resettable for SchedMaskHiSpec {}
