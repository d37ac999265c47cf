#[doc = "Register `FIN_CTRL` reader"]
pub type R = crate::R<FinCtrlSpec>;
#[doc = "Register `FIN_CTRL` writer"]
pub type W = crate::W<FinCtrlSpec>;
#[doc = "Field `EVENTS` reader - 1: every FIN the fast path forwards raises a FIN_RST event (the firmware follows the close); 0: no event for a FIN, the card's teardown view (FlowDyn) and FIN_COUNT instead. RSTs the fast path forwards raise theirs either way"]
pub type EventsR = crate::BitReader;
#[doc = "Field `EVENTS` writer - 1: every FIN the fast path forwards raises a FIN_RST event (the firmware follows the close); 0: no event for a FIN, the card's teardown view (FlowDyn) and FIN_COUNT instead. RSTs the fast path forwards raise theirs either way"]
pub type EventsW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `PRESENT` reader - The card counts first FINs per real server (FIN_COUNT)"]
pub type PresentR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - 1: every FIN the fast path forwards raises a FIN_RST event (the firmware follows the close); 0: no event for a FIN, the card's teardown view (FlowDyn) and FIN_COUNT instead. RSTs the fast path forwards raise theirs either way"]
    #[inline(always)]
    pub fn events(&self) -> EventsR {
        EventsR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - The card counts first FINs per real server (FIN_COUNT)"]
    #[inline(always)]
    pub fn present(&self) -> PresentR {
        PresentR::new(((self.bits >> 1) & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 0 - 1: every FIN the fast path forwards raises a FIN_RST event (the firmware follows the close); 0: no event for a FIN, the card's teardown view (FlowDyn) and FIN_COUNT instead. RSTs the fast path forwards raise theirs either way"]
    #[inline(always)]
    pub fn events(&mut self) -> EventsW<'_, FinCtrlSpec> {
        EventsW::new(self, 0)
    }
}
#[doc = "The spliced flows' FINs (docs/engine.md, \"Teardown\"): the FIN_RST events and the per-server counts of first FINs\n\nYou can [`read`](crate::Reg::read) this register and get [`fin_ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`fin_ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FinCtrlSpec;
impl crate::RegisterSpec for FinCtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`fin_ctrl::R`](R) reader structure"]
impl crate::Readable for FinCtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`fin_ctrl::W`](W) writer structure"]
impl crate::Writable for FinCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets FIN_CTRL to value 0x01"]
impl crate::Resettable for FinCtrlSpec {
    const RESET_VALUE: u32 = 0x01;
}
