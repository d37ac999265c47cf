#[doc = "Register `ACK_CTRL` reader"]
pub type R = crate::R<AckCtrlSpec>;
#[doc = "Register `ACK_CTRL` writer"]
pub type W = crate::W<AckCtrlSpec>;
#[doc = "Field `ENABLE` reader - Check flowless client ACKs to the VIPs in SYN_CTRL.VIP_MASK against the card's cookie and allocate their slot from the free list in hardware; 0 punts them unchecked (PuntMeta.engine NONE)"]
pub type EnableR = crate::BitReader;
#[doc = "Field `ENABLE` writer - Check flowless client ACKs to the VIPs in SYN_CTRL.VIP_MASK against the card's cookie and allocate their slot from the free list in hardware; 0 punts them unchecked (PuntMeta.engine NONE)"]
pub type EnableW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bit 0 - Check flowless client ACKs to the VIPs in SYN_CTRL.VIP_MASK against the card's cookie and allocate their slot from the free list in hardware; 0 punts them unchecked (PuntMeta.engine NONE)"]
    #[inline(always)]
    pub fn enable(&self) -> EnableR {
        EnableR::new((self.bits & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 0 - Check flowless client ACKs to the VIPs in SYN_CTRL.VIP_MASK against the card's cookie and allocate their slot from the free list in hardware; 0 punts them unchecked (PuntMeta.engine NONE)"]
    #[inline(always)]
    pub fn enable(&mut self) -> EnableW<'_, AckCtrlSpec> {
        EnableW::new(self, 0)
    }
}
#[doc = "Hardware ACK validator (docs/engine.md)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`ack_ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AckCtrlSpec;
impl crate::RegisterSpec for AckCtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ack_ctrl::R`](R) reader structure"]
impl crate::Readable for AckCtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`ack_ctrl::W`](W) writer structure"]
impl crate::Writable for AckCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets ACK_CTRL to value 0"]
impl crate::Resettable for AckCtrlSpec {}
