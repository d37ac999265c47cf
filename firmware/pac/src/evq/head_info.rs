#[doc = "Register `HEAD_INFO` reader"]
pub type R = crate::R<HeadInfoSpec>;
#[doc = "Field `SRC` reader - Source of the head record"]
pub type SrcR = crate::FieldReader;
#[doc = "Field `VALID` reader - The queue is not empty; HEAD holds a record"]
pub type ValidR = crate::BitReader;
impl R {
    #[doc = "Bits 0:1 - Source of the head record"]
    #[inline(always)]
    pub fn src(&self) -> SrcR {
        SrcR::new((self.bits & 3) as u8)
    }
    #[doc = "Bit 31 - The queue is not empty; HEAD holds a record"]
    #[inline(always)]
    pub fn valid(&self) -> ValidR {
        ValidR::new(((self.bits >> 31) & 1) != 0)
    }
}
#[doc = "Head record information\n\nYou can [`read`](crate::Reg::read) this register and get [`head_info::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadInfoSpec;
impl crate::RegisterSpec for HeadInfoSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`head_info::R`](R) reader structure"]
impl crate::Readable for HeadInfoSpec {}
#[doc = "`reset()` method sets HEAD_INFO to value 0"]
impl crate::Resettable for HeadInfoSpec {}
