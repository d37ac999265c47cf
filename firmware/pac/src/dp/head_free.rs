#[doc = "Register `HEAD_FREE` writer"]
pub type W = crate::W<HeadFreeSpec>;
#[doc = "Field `ID` writer - The buffer"]
pub type IdW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl W {
    #[doc = "Bits 0:7 - The buffer"]
    #[inline(always)]
    pub fn id(&mut self) -> IdW<'_, HeadFreeSpec> {
        IdW::new(self, 0)
    }
}
#[doc = "Give a request-head buffer back to the free list (one not in use is refused and counted in HEAD_BAD); a buffer handed to HEAD_REPLAY comes back by itself\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_free::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadFreeSpec;
impl crate::RegisterSpec for HeadFreeSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`head_free::W`](W) writer structure"]
impl crate::Writable for HeadFreeSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets HEAD_FREE to value 0"]
impl crate::Resettable for HeadFreeSpec {}
