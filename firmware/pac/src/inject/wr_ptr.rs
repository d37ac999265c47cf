#[doc = "Register `WR_PTR` reader"]
pub type R = crate::R<WrPtrSpec>;
#[doc = "Register `WR_PTR` writer"]
pub type W = crate::W<WrPtrSpec>;
#[doc = "Field `WORD` reader - Word index within the slot"]
pub type WordR = crate::FieldReader<u16>;
#[doc = "Field `WORD` writer - Word index within the slot"]
pub type WordW<'a, REG> = crate::FieldWriter<'a, REG, 10, u16>;
impl R {
    #[doc = "Bits 0:9 - Word index within the slot"]
    #[inline(always)]
    pub fn word(&self) -> WordR {
        WordR::new((self.bits & 0x03ff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:9 - Word index within the slot"]
    #[inline(always)]
    pub fn word(&mut self) -> WordW<'_, WrPtrSpec> {
        WordW::new(self, 0)
    }
}
#[doc = "Write pointer for WR_DATA in slot PROD mod SLOTS\n\nYou can [`read`](crate::Reg::read) this register and get [`wr_ptr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`wr_ptr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct WrPtrSpec;
impl crate::RegisterSpec for WrPtrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`wr_ptr::R`](R) reader structure"]
impl crate::Readable for WrPtrSpec {}
#[doc = "`write(|w| ..)` method takes [`wr_ptr::W`](W) writer structure"]
impl crate::Writable for WrPtrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets WR_PTR to value 0"]
impl crate::Resettable for WrPtrSpec {}
