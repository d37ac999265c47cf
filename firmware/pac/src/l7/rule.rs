#[doc = "Register `RULE` reader"]
pub type R = crate::R<RuleSpec>;
#[doc = "Register `RULE` writer"]
pub type W = crate::W<RuleSpec>;
#[doc = "Field `INDEX` reader - Rule index"]
pub type IndexR = crate::FieldReader;
#[doc = "Field `INDEX` writer - Rule index"]
pub type IndexW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl R {
    #[doc = "Bits 0:7 - Rule index"]
    #[inline(always)]
    pub fn index(&self) -> IndexR {
        IndexR::new((self.bits & 0xff) as u8)
    }
}
impl W {
    #[doc = "Bits 0:7 - Rule index"]
    #[inline(always)]
    pub fn index(&mut self) -> IndexW<'_, RuleSpec> {
        IndexW::new(self, 0)
    }
}
#[doc = "Rule index for DATA\n\nYou can [`read`](crate::Reg::read) this register and get [`rule::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rule::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RuleSpec;
impl crate::RegisterSpec for RuleSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rule::R`](R) reader structure"]
impl crate::Readable for RuleSpec {}
#[doc = "`write(|w| ..)` method takes [`rule::W`](W) writer structure"]
impl crate::Writable for RuleSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets RULE to value 0"]
impl crate::Resettable for RuleSpec {}
