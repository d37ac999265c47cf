#[doc = "Register `HEAD_BAD` reader"]
pub type R = crate::R<HeadBadSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Refused head-buffer operations since reset: frees of a buffer not in use, segments for a buffer not in use or past a hole in the head, HEAD_DATA writes with no segment open or during a copy, HEAD_COPY writes with no segment open or during a copy, HEAD_APPEND writes while a segment is open, HEAD_FREE of the buffer held ready for HEAD_ALLOC\n\nYou can [`read`](crate::Reg::read) this register and get [`head_bad::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadBadSpec;
impl crate::RegisterSpec for HeadBadSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`head_bad::R`](R) reader structure"]
impl crate::Readable for HeadBadSpec {}
#[doc = "`reset()` method sets HEAD_BAD to value 0"]
impl crate::Resettable for HeadBadSpec {}
