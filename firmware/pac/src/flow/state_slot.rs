#[doc = "Register `STATE_SLOT` reader"]
pub type R = crate::R<StateSlotSpec>;
#[doc = "Register `STATE_SLOT` writer"]
pub type W = crate::W<StateSlotSpec>;
#[doc = "Field `SLOT` reader - Flow state slot"]
pub type SlotR = crate::FieldReader<u16>;
#[doc = "Field `SLOT` writer - Flow state slot"]
pub type SlotW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bits 0:15 - Flow state slot"]
    #[inline(always)]
    pub fn slot(&self) -> SlotR {
        SlotR::new((self.bits & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:15 - Flow state slot"]
    #[inline(always)]
    pub fn slot(&mut self) -> SlotW<'_, StateSlotSpec> {
        SlotW::new(self, 0)
    }
}
#[doc = "Flow state slot for STATE_CMD\n\nYou can [`read`](crate::Reg::read) this register and get [`state_slot::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`state_slot::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StateSlotSpec;
impl crate::RegisterSpec for StateSlotSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`state_slot::R`](R) reader structure"]
impl crate::Readable for StateSlotSpec {}
#[doc = "`write(|w| ..)` method takes [`state_slot::W`](W) writer structure"]
impl crate::Writable for StateSlotSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets STATE_SLOT to value 0"]
impl crate::Resettable for StateSlotSpec {}
