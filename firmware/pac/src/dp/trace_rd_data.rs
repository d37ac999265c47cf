#[doc = "Register `TRACE_RD_DATA[%s]` reader"]
pub type R = crate::R<TraceRdDataSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Word n of the TraceEntry at TRACE_RD_IDX\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_rd_data::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TraceRdDataSpec;
impl crate::RegisterSpec for TraceRdDataSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`trace_rd_data::R`](R) reader structure"]
impl crate::Readable for TraceRdDataSpec {}
#[doc = "`reset()` method sets TRACE_RD_DATA[%s] to value 0"]
impl crate::Resettable for TraceRdDataSpec {}
