#[doc = "Register `REQUESTS` reader"]
pub type R = crate::R<RequestsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Request segments fed by the data path\n\nYou can [`read`](crate::Reg::read) this register and get [`requests::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RequestsSpec;
impl crate::RegisterSpec for RequestsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`requests::R`](R) reader structure"]
impl crate::Readable for RequestsSpec {}
#[doc = "`reset()` method sets REQUESTS to value 0"]
impl crate::Resettable for RequestsSpec {}
