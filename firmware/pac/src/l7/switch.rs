#[doc = "Register `SWITCH` writer"]
pub type W = crate::W<SwitchSpec>;
#[doc = "Field `SWITCH` writer - Write 1: the inactive bank becomes active"]
pub type SwitchW<'a, REG> = crate::BitWriter<'a, REG>;
impl W {
    #[doc = "Bit 0 - Write 1: the inactive bank becomes active"]
    #[inline(always)]
    pub fn switch(&mut self) -> SwitchW<'_, SwitchSpec> {
        SwitchW::new(self, 0)
    }
}
#[doc = "Bank switch\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`switch::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SwitchSpec;
impl crate::RegisterSpec for SwitchSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`switch::W`](W) writer structure"]
impl crate::Writable for SwitchSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SWITCH to value 0"]
impl crate::Resettable for SwitchSpec {}
