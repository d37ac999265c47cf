#[doc = "Register `DELETES` reader"]
pub type R = crate::R<DeletesSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Successful DELETE commands\n\nYou can [`read`](crate::Reg::read) this register and get [`deletes::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct DeletesSpec;
impl crate::RegisterSpec for DeletesSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`deletes::R`](R) reader structure"]
impl crate::Readable for DeletesSpec {}
#[doc = "`reset()` method sets DELETES to value 0"]
impl crate::Resettable for DeletesSpec {}
