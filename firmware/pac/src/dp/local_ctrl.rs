#[doc = "Register `LOCAL_CTRL[%s]` reader"]
pub type R = crate::R<LocalCtrlSpec>;
#[doc = "Register `LOCAL_CTRL[%s]` writer"]
pub type W = crate::W<LocalCtrlSpec>;
#[doc = "Field `ENABLE` reader - Address in use"]
pub type EnableR = crate::BitReader;
#[doc = "Field `ENABLE` writer - Address in use"]
pub type EnableW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bit 31 - Address in use"]
    #[inline(always)]
    pub fn enable(&self) -> EnableR {
        EnableR::new(((self.bits >> 31) & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 31 - Address in use"]
    #[inline(always)]
    pub fn enable(&mut self) -> EnableW<'_, LocalCtrlSpec> {
        EnableW::new(self, 31)
    }
}
#[doc = "Card-owned server-side address enable\n\nYou can [`read`](crate::Reg::read) this register and get [`local_ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`local_ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LocalCtrlSpec;
impl crate::RegisterSpec for LocalCtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`local_ctrl::R`](R) reader structure"]
impl crate::Readable for LocalCtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`local_ctrl::W`](W) writer structure"]
impl crate::Writable for LocalCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets LOCAL_CTRL[%s] to value 0"]
impl crate::Resettable for LocalCtrlSpec {}
