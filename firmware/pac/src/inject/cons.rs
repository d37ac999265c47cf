#[doc = "Register `CONS` reader"]
pub type R = crate::R<ConsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Consumer index (modulo 2*SLOTS)\n\nYou can [`read`](crate::Reg::read) this register and get [`cons::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ConsSpec;
impl crate::RegisterSpec for ConsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`cons::R`](R) reader structure"]
impl crate::Readable for ConsSpec {}
#[doc = "`reset()` method sets CONS to value 0"]
impl crate::Resettable for ConsSpec {}
