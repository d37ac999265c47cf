#[doc = "Register `COOKIE_KEY_LO` writer"]
pub type W = crate::W<CookieKeyLoSpec>;
impl core::fmt::Debug for crate::generic::Reg<CookieKeyLoSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Cookie key bits 31:0 (k0), staged for COOKIE_KEY_WR; reads 0\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cookie_key_lo::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CookieKeyLoSpec;
impl crate::RegisterSpec for CookieKeyLoSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`cookie_key_lo::W`](W) writer structure"]
impl crate::Writable for CookieKeyLoSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets COOKIE_KEY_LO to value 0"]
impl crate::Resettable for CookieKeyLoSpec {}
