#[doc = "Register `RD_PTR` reader"]
pub type R = crate::R<RdPtrSpec>;
#[doc = "Register `RD_PTR` writer"]
pub type W = crate::W<RdPtrSpec>;
#[doc = "Field `WORD` reader - Word index within the slot or descriptor"]
pub type WordR = crate::FieldReader<u16>;
#[doc = "Field `WORD` writer - Word index within the slot or descriptor"]
pub type WordW<'a, REG> = crate::FieldWriter<'a, REG, 10, u16>;
#[doc = "Field `SLOT` reader - Slot"]
pub type SlotR = crate::FieldReader;
#[doc = "Field `SLOT` writer - Slot"]
pub type SlotW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
#[doc = "Field `DESC` reader - 1 reads the slot's descriptor (word 0 length and flag, words 1-5 punt record), 0 the frame data"]
pub type DescR = crate::BitReader;
#[doc = "Field `DESC` writer - 1 reads the slot's descriptor (word 0 length and flag, words 1-5 punt record), 0 the frame data"]
pub type DescW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bits 0:9 - Word index within the slot or descriptor"]
    #[inline(always)]
    pub fn word(&self) -> WordR {
        WordR::new((self.bits & 0x03ff) as u16)
    }
    #[doc = "Bits 16:23 - Slot"]
    #[inline(always)]
    pub fn slot(&self) -> SlotR {
        SlotR::new(((self.bits >> 16) & 0xff) as u8)
    }
    #[doc = "Bit 31 - 1 reads the slot's descriptor (word 0 length and flag, words 1-5 punt record), 0 the frame data"]
    #[inline(always)]
    pub fn desc(&self) -> DescR {
        DescR::new(((self.bits >> 31) & 1) != 0)
    }
}
impl W {
    #[doc = "Bits 0:9 - Word index within the slot or descriptor"]
    #[inline(always)]
    pub fn word(&mut self) -> WordW<'_, RdPtrSpec> {
        WordW::new(self, 0)
    }
    #[doc = "Bits 16:23 - Slot"]
    #[inline(always)]
    pub fn slot(&mut self) -> SlotW<'_, RdPtrSpec> {
        SlotW::new(self, 16)
    }
    #[doc = "Bit 31 - 1 reads the slot's descriptor (word 0 length and flag, words 1-5 punt record), 0 the frame data"]
    #[inline(always)]
    pub fn desc(&mut self) -> DescW<'_, RdPtrSpec> {
        DescW::new(self, 31)
    }
}
#[doc = "Read pointer for RD_DATA\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_ptr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rd_ptr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RdPtrSpec;
impl crate::RegisterSpec for RdPtrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rd_ptr::R`](R) reader structure"]
impl crate::Readable for RdPtrSpec {}
#[doc = "`write(|w| ..)` method takes [`rd_ptr::W`](W) writer structure"]
impl crate::Writable for RdPtrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets RD_PTR to value 0"]
impl crate::Resettable for RdPtrSpec {}
