#[doc = "Register `SYN_PARAMS` reader"]
pub type R = crate::R<SynParamsSpec>;
#[doc = "Field `UNITS` reader - Cookie units (SYNs in flight at once)"]
pub type UnitsR = crate::FieldReader;
impl R {
    #[doc = "Bits 0:7 - Cookie units (SYNs in flight at once)"]
    #[inline(always)]
    pub fn units(&self) -> UnitsR {
        UnitsR::new((self.bits & 0xff) as u8)
    }
}
#[doc = "Hardware SYN responder build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`syn_params::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SynParamsSpec;
impl crate::RegisterSpec for SynParamsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`syn_params::R`](R) reader structure"]
impl crate::Readable for SynParamsSpec {}
#[doc = "`reset()` method sets SYN_PARAMS to value 0"]
impl crate::Resettable for SynParamsSpec {}
