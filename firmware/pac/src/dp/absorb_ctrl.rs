#[doc = "Register `ABSORB_CTRL` reader"]
pub type R = crate::R<AbsorbCtrlSpec>;
#[doc = "Register `ABSORB_CTRL` writer"]
pub type W = crate::W<AbsorbCtrlSpec>;
#[doc = "Field `ENABLE` reader - Absorb armed connections' SYN-ACKs"]
pub type EnableR = crate::BitReader;
#[doc = "Field `ENABLE` writer - Absorb armed connections' SYN-ACKs"]
pub type EnableW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `PRESENT` reader - The card has the absorber"]
pub type PresentR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - Absorb armed connections' SYN-ACKs"]
    #[inline(always)]
    pub fn enable(&self) -> EnableR {
        EnableR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 31 - The card has the absorber"]
    #[inline(always)]
    pub fn present(&self) -> PresentR {
        PresentR::new(((self.bits >> 31) & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 0 - Absorb armed connections' SYN-ACKs"]
    #[inline(always)]
    pub fn enable(&mut self) -> EnableW<'_, AbsorbCtrlSpec> {
        EnableW::new(self, 0)
    }
}
#[doc = "The SYN-ACK absorber in the data path (docs/server-open.md, \"The absorber in the data path\"): with ENABLE, a server-port SYN-ACK (SYN and ACK, no RST or FIN, options in one of the layouts of the card's own SYNs) that hits a CONNECTING entry armed by the firmware (record SetupCtx) is checked by the card, which writes the SPLICED entry, sends the handshake ACK and the request head from its buffer and queues the setup in ABSORB_HEAD (the SYN-ACK dropped; punted with verdict ABSORBED when that queue is full); any other outcome punts it as before (ABSORB_PUNTED)\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`absorb_ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AbsorbCtrlSpec;
impl crate::RegisterSpec for AbsorbCtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`absorb_ctrl::R`](R) reader structure"]
impl crate::Readable for AbsorbCtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`absorb_ctrl::W`](W) writer structure"]
impl crate::Writable for AbsorbCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets ABSORB_CTRL to value 0"]
impl crate::Resettable for AbsorbCtrlSpec {}
