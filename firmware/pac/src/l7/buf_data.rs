#[doc = "Register `BUF_DATA` writer"]
pub type W = crate::W<BufDataSpec>;
impl core::fmt::Debug for crate::generic::Reg<BufDataSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Writes a request buffer word at BUF_PTR, then BUF_PTR += 1 (bytes little-endian)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`buf_data::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BufDataSpec;
impl crate::RegisterSpec for BufDataSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`buf_data::W`](W) writer structure"]
impl crate::Writable for BufDataSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets BUF_DATA to value 0"]
impl crate::Resettable for BufDataSpec {}
