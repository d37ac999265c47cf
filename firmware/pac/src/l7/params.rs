#[doc = "Register `PARAMS` reader"]
pub type R = crate::R<ParamsSpec>;
#[doc = "Field `RULES` reader - Rules per bank"]
pub type RulesR = crate::FieldReader<u16>;
#[doc = "Field `PAT_MAX` reader - Longest pattern in bytes"]
pub type PatMaxR = crate::FieldReader<u16>;
impl R {
    #[doc = "Bits 0:15 - Rules per bank"]
    #[inline(always)]
    pub fn rules(&self) -> RulesR {
        RulesR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - Longest pattern in bytes"]
    #[inline(always)]
    pub fn pat_max(&self) -> PatMaxR {
        PatMaxR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
#[doc = "L7 build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ParamsSpec;
impl crate::RegisterSpec for ParamsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`params::R`](R) reader structure"]
impl crate::Readable for ParamsSpec {}
#[doc = "`reset()` method sets PARAMS to value 0"]
impl crate::Resettable for ParamsSpec {}
