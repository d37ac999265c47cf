#[doc = "Register `CTRL` reader"]
pub type R = crate::R<CtrlSpec>;
#[doc = "Register `CTRL` writer"]
pub type W = crate::W<CtrlSpec>;
#[doc = "Field `FASTPATH` reader - Forward established (SPLICED or CLOSING) flows in hardware; 0 punts them to the firmware"]
pub type FastpathR = crate::BitReader;
#[doc = "Field `FASTPATH` writer - Forward established (SPLICED or CLOSING) flows in hardware; 0 punts them to the firmware"]
pub type FastpathW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bit 0 - Forward established (SPLICED or CLOSING) flows in hardware; 0 punts them to the firmware"]
    #[inline(always)]
    pub fn fastpath(&self) -> FastpathR {
        FastpathR::new((self.bits & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 0 - Forward established (SPLICED or CLOSING) flows in hardware; 0 punts them to the firmware"]
    #[inline(always)]
    pub fn fastpath(&mut self) -> FastpathW<'_, CtrlSpec> {
        FastpathW::new(self, 0)
    }
}
#[doc = "Data-path control\n\nYou can [`read`](crate::Reg::read) this register and get [`ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CtrlSpec;
impl crate::RegisterSpec for CtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ctrl::R`](R) reader structure"]
impl crate::Readable for CtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`ctrl::W`](W) writer structure"]
impl crate::Writable for CtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets CTRL to value 0x01"]
impl crate::Resettable for CtrlSpec {
    const RESET_VALUE: u32 = 0x01;
}
