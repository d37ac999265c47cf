#[doc = "Register `RSP_ACK` writer"]
pub type W = crate::W<RspAckSpec>;
impl core::fmt::Debug for crate::generic::Reg<RspAckSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Host writes any value to clear RSP_READY\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_ack::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RspAckSpec;
impl crate::RegisterSpec for RspAckSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`rsp_ack::W`](W) writer structure"]
impl crate::Writable for RspAckSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets RSP_ACK to value 0"]
impl crate::Resettable for RspAckSpec {}
