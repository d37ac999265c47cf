#[doc = "Register `AGE_POP` writer"]
pub type W = crate::W<AgePopSpec>;
impl core::fmt::Debug for crate::generic::Reg<AgePopSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Any write removes the head of the expired-slot queue (nothing when it is empty)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`age_pop::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgePopSpec;
impl crate::RegisterSpec for AgePopSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`age_pop::W`](W) writer structure"]
impl crate::Writable for AgePopSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets AGE_POP to value 0"]
impl crate::Resettable for AgePopSpec {}
