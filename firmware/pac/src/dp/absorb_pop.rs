#[doc = "Register `ABSORB_POP` writer"]
pub type W = crate::W<AbsorbPopSpec>;
impl core::fmt::Debug for crate::generic::Reg<AbsorbPopSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Any write removes the head of the absorber's done queue (nothing when it is empty)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`absorb_pop::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AbsorbPopSpec;
impl crate::RegisterSpec for AbsorbPopSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`absorb_pop::W`](W) writer structure"]
impl crate::Writable for AbsorbPopSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets ABSORB_POP to value 0"]
impl crate::Resettable for AbsorbPopSpec {}
