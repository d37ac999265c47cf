#[doc = "Register `TRACE_RD_IDX` reader"]
pub type R = crate::R<TraceRdIdxSpec>;
#[doc = "Register `TRACE_RD_IDX` writer"]
pub type W = crate::W<TraceRdIdxSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Ring index of the entry TRACE_RD_DATA shows (write; the words are ready for the next register access)\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_rd_idx::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`trace_rd_idx::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TraceRdIdxSpec;
impl crate::RegisterSpec for TraceRdIdxSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`trace_rd_idx::R`](R) reader structure"]
impl crate::Readable for TraceRdIdxSpec {}
#[doc = "`write(|w| ..)` method takes [`trace_rd_idx::W`](W) writer structure"]
impl crate::Writable for TraceRdIdxSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TRACE_RD_IDX to value 0"]
impl crate::Resettable for TraceRdIdxSpec {}
