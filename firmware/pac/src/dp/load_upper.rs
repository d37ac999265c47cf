#[doc = "Register `LOAD_UPPER` writer"]
pub type W = crate::W<LoadUpperSpec>;
#[doc = "Field `THRESHOLD` writer - Threshold"]
pub type ThresholdW<'a, REG> = crate::FieldWriter<'a, REG, 17, u32>;
impl W {
    #[doc = "Bits 0:16 - Threshold"]
    #[inline(always)]
    pub fn threshold(&mut self) -> ThresholdW<'_, LoadUpperSpec> {
        ThresholdW::new(self, 0)
    }
}
#[doc = "Upper connection threshold staged for CONFIG (0 none; larger than LOAD_THRESHOLD_MAX written as it)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_upper::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadUpperSpec;
impl crate::RegisterSpec for LoadUpperSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`load_upper::W`](W) writer structure"]
impl crate::Writable for LoadUpperSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets LOAD_UPPER to value 0"]
impl crate::Resettable for LoadUpperSpec {}
