#[doc = "Register `PARAMS` reader"]
pub type R = crate::R<ParamsSpec>;
#[doc = "Field `DATA_WIDTH` reader - Stream data width in bits"]
pub type DataWidthR = crate::FieldReader<u16>;
#[doc = "Field `LATENCY` reader - Rewriter latency in cycles"]
pub type LatencyR = crate::FieldReader<u16>;
impl R {
    #[doc = "Bits 0:15 - Stream data width in bits"]
    #[inline(always)]
    pub fn data_width(&self) -> DataWidthR {
        DataWidthR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - Rewriter latency in cycles"]
    #[inline(always)]
    pub fn latency(&self) -> LatencyR {
        LatencyR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
#[doc = "Data-path build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ParamsSpec;
impl crate::RegisterSpec for ParamsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`params::R`](R) reader structure"]
impl crate::Readable for ParamsSpec {}
#[doc = "`reset()` method sets PARAMS to value 0"]
impl crate::Resettable for ParamsSpec {}
