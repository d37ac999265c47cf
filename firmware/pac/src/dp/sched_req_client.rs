#[doc = "Register `SCHED_REQ_CLIENT` writer"]
pub type W = crate::W<SchedReqClientSpec>;
impl core::fmt::Debug for crate::generic::Reg<SchedReqClientSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Client IPv4 address of the next SCHED_REQ\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_req_client::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedReqClientSpec;
impl crate::RegisterSpec for SchedReqClientSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_req_client::W`](W) writer structure"]
impl crate::Writable for SchedReqClientSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_REQ_CLIENT to value 0"]
impl crate::Resettable for SchedReqClientSpec {}
