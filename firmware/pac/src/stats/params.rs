#[doc = "Register `PARAMS` reader"]
pub type R = crate::R<ParamsSpec>;
#[doc = "Field `COUNTERS` reader - Number of counters"]
pub type CountersR = crate::FieldReader<u16>;
impl R {
    #[doc = "Bits 0:15 - Number of counters"]
    #[inline(always)]
    pub fn counters(&self) -> CountersR {
        CountersR::new((self.bits & 0xffff) as u16)
    }
}
#[doc = "Statistics build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ParamsSpec;
impl crate::RegisterSpec for ParamsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`params::R`](R) reader structure"]
impl crate::Readable for ParamsSpec {}
#[doc = "`reset()` method sets PARAMS to value 0"]
impl crate::Resettable for ParamsSpec {}
