#[doc = "Register `AGE_LIMIT` reader"]
pub type R = crate::R<AgeLimitSpec>;
#[doc = "Register `AGE_LIMIT` writer"]
pub type W = crate::W<AgeLimitSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Slots the scanner walks: 0 to AGE_LIMIT - 1 (reset and any value of 0 or above FLOW_SLOTS: FLOW_SLOTS)\n\nYou can [`read`](crate::Reg::read) this register and get [`age_limit::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`age_limit::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeLimitSpec;
impl crate::RegisterSpec for AgeLimitSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_limit::R`](R) reader structure"]
impl crate::Readable for AgeLimitSpec {}
#[doc = "`write(|w| ..)` method takes [`age_limit::W`](W) writer structure"]
impl crate::Writable for AgeLimitSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets AGE_LIMIT to value 0"]
impl crate::Resettable for AgeLimitSpec {}
