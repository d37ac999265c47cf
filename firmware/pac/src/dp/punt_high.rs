#[doc = "Register `PUNT_HIGH` reader"]
pub type R = crate::R<PuntHighSpec>;
#[doc = "Register `PUNT_HIGH` writer"]
pub type W = crate::W<PuntHighSpec>;
#[doc = "Field `HIGH` reader - Most frames waiting at once (read)"]
pub type HighR = crate::FieldReader<u16>;
#[doc = "Field `HIGH` writer - Most frames waiting at once (read)"]
pub type HighW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bits 0:15 - Most frames waiting at once (read)"]
    #[inline(always)]
    pub fn high(&self) -> HighR {
        HighR::new((self.bits & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:15 - Most frames waiting at once (read)"]
    #[inline(always)]
    pub fn high(&mut self) -> HighW<'_, PuntHighSpec> {
        HighW::new(self, 0)
    }
}
#[doc = "High-water mark of the exception queue: the most frames waiting in the punt ring since reset or the last write here (a write restarts it at the current count)\n\nYou can [`read`](crate::Reg::read) this register and get [`punt_high::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`punt_high::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct PuntHighSpec;
impl crate::RegisterSpec for PuntHighSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`punt_high::R`](R) reader structure"]
impl crate::Readable for PuntHighSpec {}
#[doc = "`write(|w| ..)` method takes [`punt_high::W`](W) writer structure"]
impl crate::Writable for PuntHighSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets PUNT_HIGH to value 0"]
impl crate::Resettable for PuntHighSpec {}
