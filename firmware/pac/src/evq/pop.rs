#[doc = "Register `POP` writer"]
pub type W = crate::W<PopSpec>;
impl core::fmt::Debug for crate::generic::Reg<PopSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Any write removes the head record\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`pop::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct PopSpec;
impl crate::RegisterSpec for PopSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`pop::W`](W) writer structure"]
impl crate::Writable for PopSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets POP to value 0"]
impl crate::Resettable for PopSpec {}
