#[doc = "Register `RSP_DOORBELL` writer"]
pub type W = crate::W<RspDoorbellSpec>;
impl core::fmt::Debug for crate::generic::Reg<RspDoorbellSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Firmware writes the request tag here after filling RSP_*: clears REQ_PENDING, sets RSP_READY\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_doorbell::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RspDoorbellSpec;
impl crate::RegisterSpec for RspDoorbellSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`rsp_doorbell::W`](W) writer structure"]
impl crate::Writable for RspDoorbellSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets RSP_DOORBELL to value 0"]
impl crate::Resettable for RspDoorbellSpec {}
