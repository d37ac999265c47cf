#[doc = "Register `CONS` reader"]
pub type R = crate::R<ConsSpec>;
#[doc = "Register `CONS` writer"]
pub type W = crate::W<ConsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Consumer index (modulo 2*SLOTS); write the new consumer index to free slots\n\nYou can [`read`](crate::Reg::read) this register and get [`cons::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cons::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ConsSpec;
impl crate::RegisterSpec for ConsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`cons::R`](R) reader structure"]
impl crate::Readable for ConsSpec {}
#[doc = "`write(|w| ..)` method takes [`cons::W`](W) writer structure"]
impl crate::Writable for ConsSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets CONS to value 0"]
impl crate::Resettable for ConsSpec {}
