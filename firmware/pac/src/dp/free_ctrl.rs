#[doc = "Register `FREE_CTRL` writer"]
pub type W = crate::W<FreeCtrlSpec>;
#[doc = "Field `FLUSH` writer - Empty the free list: its slots go back to the firmware"]
pub type FlushW<'a, REG> = crate::BitWriter<'a, REG>;
impl W {
    #[doc = "Bit 0 - Empty the free list: its slots go back to the firmware"]
    #[inline(always)]
    pub fn flush(&mut self) -> FlushW<'_, FreeCtrlSpec> {
        FlushW::new(self, 0)
    }
}
#[doc = "Free-list control\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`free_ctrl::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FreeCtrlSpec;
impl crate::RegisterSpec for FreeCtrlSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`free_ctrl::W`](W) writer structure"]
impl crate::Writable for FreeCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets FREE_CTRL to value 0"]
impl crate::Resettable for FreeCtrlSpec {}
