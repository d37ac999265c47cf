#[doc = "Register `RESULT` reader"]
pub type R = crate::R<ResultSpec>;
#[doc = "Field `SLOT` reader - Flow state slot"]
pub type SlotR = crate::FieldReader<u16>;
#[doc = "Field `DIR` reader - Flow half: 0 client, 1 server"]
pub type DirR = crate::BitReader;
impl R {
    #[doc = "Bits 0:15 - Flow state slot"]
    #[inline(always)]
    pub fn slot(&self) -> SlotR {
        SlotR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bit 16 - Flow half: 0 client, 1 server"]
    #[inline(always)]
    pub fn dir(&self) -> DirR {
        DirR::new(((self.bits >> 16) & 1) != 0)
    }
}
#[doc = "Entry found by the last LOOKUP (on EXISTS: the entry already stored)\n\nYou can [`read`](crate::Reg::read) this register and get [`result::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ResultSpec;
impl crate::RegisterSpec for ResultSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`result::R`](R) reader structure"]
impl crate::Readable for ResultSpec {}
#[doc = "`reset()` method sets RESULT to value 0"]
impl crate::Resettable for ResultSpec {}
