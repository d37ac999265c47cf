#[doc = "Register `COOKIE_KEY_HI` writer"]
pub type W = crate::W<CookieKeyHiSpec>;
impl core::fmt::Debug for crate::generic::Reg<CookieKeyHiSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Cookie key bits 63:32 (k1), staged for COOKIE_KEY_WR; reads 0\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cookie_key_hi::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CookieKeyHiSpec;
impl crate::RegisterSpec for CookieKeyHiSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`cookie_key_hi::W`](W) writer structure"]
impl crate::Writable for CookieKeyHiSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets COOKIE_KEY_HI to value 0"]
impl crate::Resettable for CookieKeyHiSpec {}
