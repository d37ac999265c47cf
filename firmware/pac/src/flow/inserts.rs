#[doc = "Register `INSERTS` reader"]
pub type R = crate::R<InsertsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Successful INSERT commands\n\nYou can [`read`](crate::Reg::read) this register and get [`inserts::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct InsertsSpec;
impl crate::RegisterSpec for InsertsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`inserts::R`](R) reader structure"]
impl crate::Readable for InsertsSpec {}
#[doc = "`reset()` method sets INSERTS to value 0"]
impl crate::Resettable for InsertsSpec {}
