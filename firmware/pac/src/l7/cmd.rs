#[doc = "Register `CMD` writer"]
pub type W = crate::W<CmdSpec>;
#[doc = "Field `LEN` writer - Number of buffer bytes to match"]
pub type LenW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `TAG` writer - Tag returned in the event"]
pub type TagW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl W {
    #[doc = "Bits 0:15 - Number of buffer bytes to match"]
    #[inline(always)]
    pub fn len(&mut self) -> LenW<'_, CmdSpec> {
        LenW::new(self, 0)
    }
    #[doc = "Bits 16:31 - Tag returned in the event"]
    #[inline(always)]
    pub fn tag(&mut self) -> TagW<'_, CmdSpec> {
        TagW::new(self, 16)
    }
}
#[doc = "Matches the request buffer; the result arrives as an EVQ REQUEST_MATCHED event\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cmd::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CmdSpec;
impl crate::RegisterSpec for CmdSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`cmd::W`](W) writer structure"]
impl crate::Writable for CmdSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets CMD to value 0"]
impl crate::Resettable for CmdSpec {}
