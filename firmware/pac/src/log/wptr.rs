#[doc = "Register `WPTR` reader"]
pub type R = crate::R<WptrSpec>;
#[doc = "Register `WPTR` writer"]
pub type W = crate::W<WptrSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Total bytes the firmware has written (wraps at 2^32); byte n is at LOGBUF offset n mod SIZE. Cleared when the core is put in reset\n\nYou can [`read`](crate::Reg::read) this register and get [`wptr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`wptr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct WptrSpec;
impl crate::RegisterSpec for WptrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`wptr::R`](R) reader structure"]
impl crate::Readable for WptrSpec {}
#[doc = "`write(|w| ..)` method takes [`wptr::W`](W) writer structure"]
impl crate::Writable for WptrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets WPTR to value 0"]
impl crate::Resettable for WptrSpec {}
