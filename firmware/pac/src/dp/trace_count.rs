#[doc = "Register `TRACE_COUNT` reader"]
pub type R = crate::R<TraceCountSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Entries written to the trace ring since reset (wraps at 2^32); the entry written n-th is at ring index n mod depth, and the ring holds the last depth of them\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_count::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TraceCountSpec;
impl crate::RegisterSpec for TraceCountSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`trace_count::R`](R) reader structure"]
impl crate::Readable for TraceCountSpec {}
#[doc = "`reset()` method sets TRACE_COUNT to value 0"]
impl crate::Resettable for TraceCountSpec {}
