#[doc = "Register `WR_DATA` writer"]
pub type W = crate::W<WrDataSpec>;
impl core::fmt::Debug for crate::generic::Reg<WrDataSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "Writes a frame word at WR_PTR, then WR_PTR += 1 (bytes little-endian)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`wr_data::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct WrDataSpec;
impl crate::RegisterSpec for WrDataSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`wr_data::W`](W) writer structure"]
impl crate::Writable for WrDataSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets WR_DATA to value 0"]
impl crate::Resettable for WrDataSpec {}
