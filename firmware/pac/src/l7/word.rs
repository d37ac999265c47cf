#[doc = "Register `WORD` reader"]
pub type R = crate::R<WordSpec>;
#[doc = "Register `WORD` writer"]
pub type W = crate::W<WordSpec>;
#[doc = "Field `INDEX` reader - Word index within the rule"]
pub type IndexR = crate::FieldReader;
#[doc = "Field `INDEX` writer - Word index within the rule"]
pub type IndexW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl R {
    #[doc = "Bits 0:7 - Word index within the rule"]
    #[inline(always)]
    pub fn index(&self) -> IndexR {
        IndexR::new((self.bits & 0xff) as u8)
    }
}
impl W {
    #[doc = "Bits 0:7 - Word index within the rule"]
    #[inline(always)]
    pub fn index(&mut self) -> IndexW<'_, WordSpec> {
        IndexW::new(self, 0)
    }
}
#[doc = "Rule word index for DATA\n\nYou can [`read`](crate::Reg::read) this register and get [`word::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`word::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct WordSpec;
impl crate::RegisterSpec for WordSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`word::R`](R) reader structure"]
impl crate::Readable for WordSpec {}
#[doc = "`write(|w| ..)` method takes [`word::W`](W) writer structure"]
impl crate::Writable for WordSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets WORD to value 0"]
impl crate::Resettable for WordSpec {}
