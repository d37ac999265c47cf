#[doc = "Register `PARAMS` reader"]
pub type R = crate::R<ParamsSpec>;
#[doc = "Field `DEPTH` reader - Queue depth in records"]
pub type DepthR = crate::FieldReader<u16>;
impl R {
    #[doc = "Bits 0:15 - Queue depth in records"]
    #[inline(always)]
    pub fn depth(&self) -> DepthR {
        DepthR::new((self.bits & 0xffff) as u16)
    }
}
#[doc = "Event queue build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ParamsSpec;
impl crate::RegisterSpec for ParamsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`params::R`](R) reader structure"]
impl crate::Readable for ParamsSpec {}
#[doc = "`reset()` method sets PARAMS to value 0"]
impl crate::Resettable for ParamsSpec {}
