#[doc = "Register `PARAMS` reader"]
pub type R = crate::R<ParamsSpec>;
#[doc = "Field `SLOTS` reader - Number of slots"]
pub type SlotsR = crate::FieldReader<u16>;
#[doc = "Field `SLOT_BYTES` reader - Bytes per slot"]
pub type SlotBytesR = crate::FieldReader<u16>;
impl R {
    #[doc = "Bits 0:15 - Number of slots"]
    #[inline(always)]
    pub fn slots(&self) -> SlotsR {
        SlotsR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - Bytes per slot"]
    #[inline(always)]
    pub fn slot_bytes(&self) -> SlotBytesR {
        SlotBytesR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
#[doc = "Punt ring build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ParamsSpec;
impl crate::RegisterSpec for ParamsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`params::R`](R) reader structure"]
impl crate::Readable for ParamsSpec {}
#[doc = "`reset()` method sets PARAMS to value 0"]
impl crate::Resettable for ParamsSpec {}
