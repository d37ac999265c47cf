#[doc = "Register `CMD_GEN` writer"]
pub type W = crate::W<CmdGenSpec>;
#[doc = "Field `GEN` writer - Slot generation"]
pub type GenW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl W {
    #[doc = "Bits 0:7 - Slot generation"]
    #[inline(always)]
    pub fn gen_(&mut self) -> GenW<'_, CmdGenSpec> {
        GenW::new(self, 0)
    }
}
#[doc = "Slot generation of the next CMD, returned in its REQUEST_MATCHED event (EvtRequestMatched.flow_gen); the CMD that starts takes it and clears it, so a CMD without a CMD_GEN write carries 0\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cmd_gen::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CmdGenSpec;
impl crate::RegisterSpec for CmdGenSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`cmd_gen::W`](W) writer structure"]
impl crate::Writable for CmdGenSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets CMD_GEN to value 0"]
impl crate::Resettable for CmdGenSpec {}
