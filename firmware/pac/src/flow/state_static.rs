#[doc = "Register `STATE_STATIC[%s]` reader"]
pub type R = crate::R<StateStaticSpec>;
#[doc = "Register `STATE_STATIC[%s]` writer"]
pub type W = crate::W<StateStaticSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Static flow entry words (state, translation, both halves; layout in docs/datapath.md)\n\nYou can [`read`](crate::Reg::read) this register and get [`state_static::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`state_static::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StateStaticSpec;
impl crate::RegisterSpec for StateStaticSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`state_static::R`](R) reader structure"]
impl crate::Readable for StateStaticSpec {}
#[doc = "`write(|w| ..)` method takes [`state_static::W`](W) writer structure"]
impl crate::Writable for StateStaticSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets STATE_STATIC[%s] to value 0"]
impl crate::Resettable for StateStaticSpec {}
