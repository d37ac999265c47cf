#[doc = "Register `SCHED_COMMIT` writer"]
pub type W = crate::W<SchedCommitSpec>;
#[doc = "Field `POOL` writer - Pool"]
pub type PoolW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
#[doc = "Field `MODE` writer - How the pool is answered (SchedMode)"]
pub type ModeW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
#[doc = "Field `FALLBACK` writer - An entry whose server is not eligible is punted to the firmware instead of answered NONE"]
pub type FallbackW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `HASH_PORT` writer - sh/mh hash the client port too"]
pub type HashPortW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `SET_PTR` writer - Set the pool's pointer to SCHED_LOOP.PTR (else it stays where it is)"]
pub type SetPtrW<'a, REG> = crate::BitWriter<'a, REG>;
impl W {
    #[doc = "Bits 0:2 - Pool"]
    #[inline(always)]
    pub fn pool(&mut self) -> PoolW<'_, SchedCommitSpec> {
        PoolW::new(self, 0)
    }
    #[doc = "Bits 8:10 - How the pool is answered (SchedMode)"]
    #[inline(always)]
    pub fn mode(&mut self) -> ModeW<'_, SchedCommitSpec> {
        ModeW::new(self, 8)
    }
    #[doc = "Bit 12 - An entry whose server is not eligible is punted to the firmware instead of answered NONE"]
    #[inline(always)]
    pub fn fallback(&mut self) -> FallbackW<'_, SchedCommitSpec> {
        FallbackW::new(self, 12)
    }
    #[doc = "Bit 13 - sh/mh hash the client port too"]
    #[inline(always)]
    pub fn hash_port(&mut self) -> HashPortW<'_, SchedCommitSpec> {
        HashPortW::new(self, 13)
    }
    #[doc = "Bit 14 - Set the pool's pointer to SCHED_LOOP.PTR (else it stays where it is)"]
    #[inline(always)]
    pub fn set_ptr(&mut self) -> SetPtrW<'_, SchedCommitSpec> {
        SetPtrW::new(self, 14)
    }
}
#[doc = "Commit a pool's descriptor (SCHED_RANGE, SCHED_LOOP and these fields) at once\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_commit::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedCommitSpec;
impl crate::RegisterSpec for SchedCommitSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_commit::W`](W) writer structure"]
impl crate::Writable for SchedCommitSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_COMMIT to value 0"]
impl crate::Resettable for SchedCommitSpec {}
