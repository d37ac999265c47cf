#[doc = "Register `ACK_BAD_COOKIE` reader"]
pub type R = crate::R<AckBadCookieSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Candidate ACKs whose cookie did not check (verdict BAD_COOKIE)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_bad_cookie::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AckBadCookieSpec;
impl crate::RegisterSpec for AckBadCookieSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ack_bad_cookie::R`](R) reader structure"]
impl crate::Readable for AckBadCookieSpec {}
#[doc = "`reset()` method sets ACK_BAD_COOKIE to value 0"]
impl crate::Resettable for AckBadCookieSpec {}
