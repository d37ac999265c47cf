#[doc = "Register `HEAD_ALLOC` reader"]
pub type R = crate::R<HeadAllocSpec>;
#[doc = "Field `ID` reader - The buffer taken (with VALID)"]
pub type IdR = crate::FieldReader;
#[doc = "Field `VALID` reader - A buffer was taken; it is empty (length 0, sum 0)"]
pub type ValidR = crate::BitReader;
impl R {
    #[doc = "Bits 0:7 - The buffer taken (with VALID)"]
    #[inline(always)]
    pub fn id(&self) -> IdR {
        IdR::new((self.bits & 0xff) as u8)
    }
    #[doc = "Bit 31 - A buffer was taken; it is empty (length 0, sum 0)"]
    #[inline(always)]
    pub fn valid(&self) -> ValidR {
        ValidR::new(((self.bits >> 31) & 1) != 0)
    }
}
#[doc = "Request-head buffers (head_buf, docs/head-buf.md, \"In the data path\"): a read takes the buffer the data path holds ready from head_buf's free list (VALID set; the next is fetched at once) or reports none free (VALID clear, nothing taken)\n\nYou can [`read`](crate::Reg::read) this register and get [`head_alloc::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadAllocSpec;
impl crate::RegisterSpec for HeadAllocSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`head_alloc::R`](R) reader structure"]
impl crate::Readable for HeadAllocSpec {}
#[doc = "`reset()` method sets HEAD_ALLOC to value 0"]
impl crate::Resettable for HeadAllocSpec {}
