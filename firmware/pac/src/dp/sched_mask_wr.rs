#[doc = "Register `SCHED_MASK_WR` writer"]
pub type W = crate::W<SchedMaskWrSpec>;
#[doc = "Field `POOL` writer - Pool"]
pub type PoolW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
impl W {
    #[doc = "Bits 0:2 - Pool"]
    #[inline(always)]
    pub fn pool(&mut self) -> PoolW<'_, SchedMaskWrSpec> {
        PoolW::new(self, 0)
    }
}
#[doc = "Set a pool's eligibility mask to SCHED_MASK_HI:SCHED_MASK_LO\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_mask_wr::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedMaskWrSpec;
impl crate::RegisterSpec for SchedMaskWrSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_mask_wr::W`](W) writer structure"]
impl crate::Writable for SchedMaskWrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_MASK_WR to value 0"]
impl crate::Resettable for SchedMaskWrSpec {}
