#[doc = "Register `AGE_TIMEOUT[%s]` writer"]
pub type W = crate::W<AgeTimeoutSpec>;
impl core::fmt::Debug for crate::generic::Reg<AgeTimeoutSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Timeout of class n (enum TimeoutClass, TIMEOUT_CLASSES entries) in DP.NOW ticks, as the scanner compares it with a slot's idle time\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`age_timeout::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeTimeoutSpec;
impl crate::RegisterSpec for AgeTimeoutSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`age_timeout::W`](W) writer structure"]
impl crate::Writable for AgeTimeoutSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets AGE_TIMEOUT[%s] to value 0"]
impl crate::Resettable for AgeTimeoutSpec {}
