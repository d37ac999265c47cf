#[doc = "Register `CORE_STATUS` reader"]
pub type R = crate::R<CoreStatusSpec>;
#[doc = "Field `TRAP` reader - The core has trapped (illegal instruction or bus fault); cleared by reset"]
pub type TrapR = crate::BitReader;
#[doc = "Field `IN_RESET` reader - The core is held in reset"]
pub type InResetR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - The core has trapped (illegal instruction or bus fault); cleared by reset"]
    #[inline(always)]
    pub fn trap(&self) -> TrapR {
        TrapR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - The core is held in reset"]
    #[inline(always)]
    pub fn in_reset(&self) -> InResetR {
        InResetR::new(((self.bits >> 1) & 1) != 0)
    }
}
#[doc = "Soft-core status\n\nYou can [`read`](crate::Reg::read) this register and get [`core_status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CoreStatusSpec;
impl crate::RegisterSpec for CoreStatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`core_status::R`](R) reader structure"]
impl crate::Readable for CoreStatusSpec {}
#[doc = "`reset()` method sets CORE_STATUS to value 0x02"]
impl crate::Resettable for CoreStatusSpec {
    const RESET_VALUE: u32 = 0x02;
}
