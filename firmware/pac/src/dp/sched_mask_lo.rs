#[doc = "Register `SCHED_MASK_LO` writer"]
pub type W = crate::W<SchedMaskLoSpec>;
impl core::fmt::Debug for crate::generic::Reg<SchedMaskLoSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Eligibility mask staged for SCHED_MASK_WR: servers 0-31 (bit = server id)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_mask_lo::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedMaskLoSpec;
impl crate::RegisterSpec for SchedMaskLoSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_mask_lo::W`](W) writer structure"]
impl crate::Writable for SchedMaskLoSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_MASK_LO to value 0"]
impl crate::Resettable for SchedMaskLoSpec {}
