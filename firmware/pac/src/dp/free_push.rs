#[doc = "Register `FREE_PUSH` writer"]
pub type W = crate::W<FreePushSpec>;
#[doc = "Field `SLOT` writer - Flow slot"]
pub type SlotW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `GEN` writer - The slot's generation, handed back with it in PuntMeta.slot_gen"]
pub type GenW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl W {
    #[doc = "Bits 0:15 - Flow slot"]
    #[inline(always)]
    pub fn slot(&mut self) -> SlotW<'_, FreePushSpec> {
        SlotW::new(self, 0)
    }
    #[doc = "Bits 16:23 - The slot's generation, handed back with it in PuntMeta.slot_gen"]
    #[inline(always)]
    pub fn gen_(&mut self) -> GenW<'_, FreePushSpec> {
        GenW::new(self, 16)
    }
}
#[doc = "Push a free slot to the engine's free list (a push to a full list is refused and counted in FREE_REFUSED)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`free_push::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FreePushSpec;
impl crate::RegisterSpec for FreePushSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`free_push::W`](W) writer structure"]
impl crate::Writable for FreePushSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets FREE_PUSH to value 0"]
impl crate::Resettable for FreePushSpec {}
