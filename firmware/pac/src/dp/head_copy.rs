#[doc = "Register `HEAD_COPY` writer"]
pub type W = crate::W<HeadCopySpec>;
#[doc = "Field `SLOT` writer - The punt-ring slot (PUNT.CONS modulo the slots)"]
pub type SlotW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
#[doc = "Field `FROM` writer - The position in the frame of the segment's first byte"]
pub type FromW<'a, REG> = crate::FieldWriter<'a, REG, 12, u16>;
impl W {
    #[doc = "Bits 0:7 - The punt-ring slot (PUNT.CONS modulo the slots)"]
    #[inline(always)]
    pub fn slot(&mut self) -> SlotW<'_, HeadCopySpec> {
        SlotW::new(self, 0)
    }
    #[doc = "Bits 16:27 - The position in the frame of the segment's first byte"]
    #[inline(always)]
    pub fn from(&mut self) -> FromW<'_, HeadCopySpec> {
        FromW::new(self, 16)
    }
}
#[doc = "Instead of HEAD_DATA words: the segment HEAD_APPEND opened is copied by the card from a frame in the punt ring, its LEN bytes from byte FROM of the frame in SLOT (the firmware keeps the slot, PUNT.CONS not past it, until HEAD_STATUS.APPENDING clears). Refused and counted in HEAD_BAD with no segment open or a copy under way\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_copy::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadCopySpec;
impl crate::RegisterSpec for HeadCopySpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`head_copy::W`](W) writer structure"]
impl crate::Writable for HeadCopySpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets HEAD_COPY to value 0"]
impl crate::Resettable for HeadCopySpec {}
