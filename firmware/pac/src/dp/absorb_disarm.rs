#[doc = "Register `ABSORB_DISARM` writer"]
pub type W = crate::W<AbsorbDisarmSpec>;
#[doc = "Field `SLOT` writer - The flow slot"]
pub type SlotW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `GEN` writer - The generation of the slot's use (SetupCtx.gen)"]
pub type GenW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl W {
    #[doc = "Bits 0:15 - The flow slot"]
    #[inline(always)]
    pub fn slot(&mut self) -> SlotW<'_, AbsorbDisarmSpec> {
        SlotW::new(self, 0)
    }
    #[doc = "Bits 16:23 - The generation of the slot's use (SetupCtx.gen)"]
    #[inline(always)]
    pub fn gen_(&mut self) -> GenW<'_, AbsorbDisarmSpec> {
        GenW::new(self, 16)
    }
}
#[doc = "Take an armed entry back before writing it (the absorber does this in turn with the SYN-ACKs it absorbs, so exactly one of the two happens): the card reads the slot's entry and, when it is CONNECTING, armed and of generation GEN, writes it back unarmed; ABSORB_STATUS says what it found (DisarmResult). Written while ABSORB_STATUS.BUSY: ignored\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`absorb_disarm::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AbsorbDisarmSpec;
impl crate::RegisterSpec for AbsorbDisarmSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`absorb_disarm::W`](W) writer structure"]
impl crate::Writable for AbsorbDisarmSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets ABSORB_DISARM to value 0"]
impl crate::Resettable for AbsorbDisarmSpec {}
