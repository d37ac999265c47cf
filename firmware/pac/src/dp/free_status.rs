#[doc = "Register `FREE_STATUS` reader"]
pub type R = crate::R<FreeStatusSpec>;
#[doc = "Field `LEVEL` reader - Slots in the list"]
pub type LevelR = crate::FieldReader<u16>;
#[doc = "Field `DEPTH` reader - Slots the list holds at most (build parameter)"]
pub type DepthR = crate::FieldReader<u16>;
impl R {
    #[doc = "Bits 0:15 - Slots in the list"]
    #[inline(always)]
    pub fn level(&self) -> LevelR {
        LevelR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - Slots the list holds at most (build parameter)"]
    #[inline(always)]
    pub fn depth(&self) -> DepthR {
        DepthR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
#[doc = "Free-list state\n\nYou can [`read`](crate::Reg::read) this register and get [`free_status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FreeStatusSpec;
impl crate::RegisterSpec for FreeStatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`free_status::R`](R) reader structure"]
impl crate::Readable for FreeStatusSpec {}
#[doc = "`reset()` method sets FREE_STATUS to value 0"]
impl crate::Resettable for FreeStatusSpec {}
