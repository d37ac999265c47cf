#[doc = "Register `HEAD_DATA` writer"]
pub type W = crate::W<HeadDataSpec>;
impl core::fmt::Debug for crate::generic::Reg<HeadDataSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
impl W {}
#[doc = "The next four bytes of the segment HEAD_APPEND started, the first in bits 7:0 (bytes past LEN in the last word are ignored; a write with no segment open is counted in HEAD_BAD)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_data::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadDataSpec;
impl crate::RegisterSpec for HeadDataSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`head_data::W`](W) writer structure"]
impl crate::Writable for HeadDataSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets HEAD_DATA to value 0"]
impl crate::Resettable for HeadDataSpec {}
