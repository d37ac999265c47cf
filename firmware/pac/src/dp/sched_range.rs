#[doc = "Register `SCHED_RANGE` writer"]
pub type W = crate::W<SchedRangeSpec>;
#[doc = "Field `BASE` writer - First entry of the pool's region"]
pub type BaseW<'a, REG> = crate::FieldWriter<'a, REG, 13, u16>;
#[doc = "Field `LAST` writer - CYCLE: index of the last entry in the region"]
pub type LastW<'a, REG> = crate::FieldWriter<'a, REG, 13, u16>;
impl W {
    #[doc = "Bits 0:12 - First entry of the pool's region"]
    #[inline(always)]
    pub fn base(&mut self) -> BaseW<'_, SchedRangeSpec> {
        BaseW::new(self, 0)
    }
    #[doc = "Bits 16:28 - CYCLE: index of the last entry in the region"]
    #[inline(always)]
    pub fn last(&mut self) -> LastW<'_, SchedRangeSpec> {
        LastW::new(self, 16)
    }
}
#[doc = "Descriptor staged for SCHED_COMMIT: table region\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_range::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedRangeSpec;
impl crate::RegisterSpec for SchedRangeSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_range::W`](W) writer structure"]
impl crate::Writable for SchedRangeSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_RANGE to value 0"]
impl crate::Resettable for SchedRangeSpec {}
