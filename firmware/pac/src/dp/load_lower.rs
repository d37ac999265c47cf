#[doc = "Register `LOAD_LOWER` writer"]
pub type W = crate::W<LoadLowerSpec>;
#[doc = "Field `THRESHOLD` writer - Threshold"]
pub type ThresholdW<'a, REG> = crate::FieldWriter<'a, REG, 17, u32>;
impl W {
    #[doc = "Bits 0:16 - Threshold"]
    #[inline(always)]
    pub fn threshold(&mut self) -> ThresholdW<'_, LoadLowerSpec> {
        ThresholdW::new(self, 0)
    }
}
#[doc = "Lower connection threshold staged for CONFIG (0: three quarters of the upper one)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_lower::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadLowerSpec;
impl crate::RegisterSpec for LoadLowerSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`load_lower::W`](W) writer structure"]
impl crate::Writable for LoadLowerSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets LOAD_LOWER to value 0"]
impl crate::Resettable for LoadLowerSpec {}
