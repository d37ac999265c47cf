#[doc = "Register `NOT_FOUND` reader"]
pub type R = crate::R<NotFoundSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "LOOKUP and DELETE commands that ended with NOT_FOUND\n\nYou can [`read`](crate::Reg::read) this register and get [`not_found::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct NotFoundSpec;
impl crate::RegisterSpec for NotFoundSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`not_found::R`](R) reader structure"]
impl crate::Readable for NotFoundSpec {}
#[doc = "`reset()` method sets NOT_FOUND to value 0"]
impl crate::Resettable for NotFoundSpec {}
