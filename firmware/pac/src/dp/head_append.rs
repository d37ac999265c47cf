#[doc = "Register `HEAD_APPEND` writer"]
pub type W = crate::W<HeadAppendSpec>;
#[doc = "Field `LEN` writer - Bytes in the segment (1 or more)"]
pub type LenW<'a, REG> = crate::FieldWriter<'a, REG, 11, u16>;
#[doc = "Field `OFF` writer - The segment's first byte's position in the head"]
pub type OffW<'a, REG> = crate::FieldWriter<'a, REG, 11, u16>;
#[doc = "Field `ID` writer - The buffer"]
pub type IdW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl W {
    #[doc = "Bits 0:10 - Bytes in the segment (1 or more)"]
    #[inline(always)]
    pub fn len(&mut self) -> LenW<'_, HeadAppendSpec> {
        LenW::new(self, 0)
    }
    #[doc = "Bits 11:21 - The segment's first byte's position in the head"]
    #[inline(always)]
    pub fn off(&mut self) -> OffW<'_, HeadAppendSpec> {
        OffW::new(self, 11)
    }
    #[doc = "Bits 24:31 - The buffer"]
    #[inline(always)]
    pub fn id(&mut self) -> IdW<'_, HeadAppendSpec> {
        IdW::new(self, 24)
    }
}
#[doc = "Start a segment of request bytes for a buffer: its position in the head and its length; the bytes follow in ceil(LEN / 4) HEAD_DATA writes (a HEAD_APPEND before they are all written is refused and counted in HEAD_BAD; the words still go to the open segment). head_buf stores the bytes that extend the stored head contiguously, at most HEAD_BUFFER_BYTES\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_append::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadAppendSpec;
impl crate::RegisterSpec for HeadAppendSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`head_append::W`](W) writer structure"]
impl crate::Writable for HeadAppendSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets HEAD_APPEND to value 0"]
impl crate::Resettable for HeadAppendSpec {}
