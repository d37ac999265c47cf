#[doc = "Register `SCHED_LOOP` writer"]
pub type W = crate::W<SchedLoopSpec>;
#[doc = "Field `LOOP` writer - CYCLE: index the pointer goes back to after LAST"]
pub type LoopW<'a, REG> = crate::FieldWriter<'a, REG, 13, u16>;
#[doc = "Field `PTR` writer - Pointer value a commit with SET_PTR writes"]
pub type PtrW<'a, REG> = crate::FieldWriter<'a, REG, 13, u16>;
impl W {
    #[doc = "Bits 0:12 - CYCLE: index the pointer goes back to after LAST"]
    #[inline(always)]
    pub fn loop_(&mut self) -> LoopW<'_, SchedLoopSpec> {
        LoopW::new(self, 0)
    }
    #[doc = "Bits 16:28 - Pointer value a commit with SET_PTR writes"]
    #[inline(always)]
    pub fn ptr(&mut self) -> PtrW<'_, SchedLoopSpec> {
        PtrW::new(self, 16)
    }
}
#[doc = "Descriptor staged for SCHED_COMMIT: cycle loop and pointer\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_loop::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedLoopSpec;
impl crate::RegisterSpec for SchedLoopSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_loop::W`](W) writer structure"]
impl crate::Writable for SchedLoopSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_LOOP to value 0"]
impl crate::Resettable for SchedLoopSpec {}
