#[doc = "Register `REQ_DOORBELL` writer"]
pub type W = crate::W<ReqDoorbellSpec>;
impl core::fmt::Debug for crate::generic::Reg<ReqDoorbellSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Host writes a tag here after filling REQ_*: sets REQ_PENDING, clears RSP_READY\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`req_doorbell::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ReqDoorbellSpec;
impl crate::RegisterSpec for ReqDoorbellSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`req_doorbell::W`](W) writer structure"]
impl crate::Writable for ReqDoorbellSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets REQ_DOORBELL to value 0"]
impl crate::Resettable for ReqDoorbellSpec {}
