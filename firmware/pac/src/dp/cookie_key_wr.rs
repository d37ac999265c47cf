#[doc = "Register `COOKIE_KEY_WR` writer"]
pub type W = crate::W<CookieKeyWrSpec>;
#[doc = "Field `SLOT` writer - Key slot written"]
pub type SlotW<'a, REG> = crate::BitWriter<'a, REG>;
impl W {
    #[doc = "Bit 0 - Key slot written"]
    #[inline(always)]
    pub fn slot(&mut self) -> SlotW<'_, CookieKeyWrSpec> {
        SlotW::new(self, 0)
    }
}
#[doc = "Writing it loads the staged key into a key slot of every cookie unit; keys cannot be read back\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cookie_key_wr::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CookieKeyWrSpec;
impl crate::RegisterSpec for CookieKeyWrSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`cookie_key_wr::W`](W) writer structure"]
impl crate::Writable for CookieKeyWrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets COOKIE_KEY_WR to value 0"]
impl crate::Resettable for CookieKeyWrSpec {}
