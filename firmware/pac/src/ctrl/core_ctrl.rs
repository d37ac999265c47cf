#[doc = "Register `CORE_CTRL` reader"]
pub type R = crate::R<CoreCtrlSpec>;
#[doc = "Register `CORE_CTRL` writer"]
pub type W = crate::W<CoreCtrlSpec>;
#[doc = "Field `RESET` reader - 1 holds the soft core in reset; the memories are host writable then"]
pub type ResetR = crate::BitReader;
#[doc = "Field `RESET` writer - 1 holds the soft core in reset; the memories are host writable then"]
pub type ResetW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bit 0 - 1 holds the soft core in reset; the memories are host writable then"]
    #[inline(always)]
    pub fn reset(&self) -> ResetR {
        ResetR::new((self.bits & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 0 - 1 holds the soft core in reset; the memories are host writable then"]
    #[inline(always)]
    pub fn reset(&mut self) -> ResetW<'_, CoreCtrlSpec> {
        ResetW::new(self, 0)
    }
}
#[doc = "Soft-core control (host)\n\nYou can [`read`](crate::Reg::read) this register and get [`core_ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`core_ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CoreCtrlSpec;
impl crate::RegisterSpec for CoreCtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`core_ctrl::R`](R) reader structure"]
impl crate::Readable for CoreCtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`core_ctrl::W`](W) writer structure"]
impl crate::Writable for CoreCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets CORE_CTRL to value 0x01"]
impl crate::Resettable for CoreCtrlSpec {
    const RESET_VALUE: u32 = 0x01;
}
