#[doc = "Register `CORE` reader"]
pub type R = crate::R<CoreSpec>;
#[doc = "Soft-core type\n\nValue on reset: 1"]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Cpu {
    #[doc = "1: PicoRV32 RV32IMC"]
    Picorv32 = 1,
    #[doc = "2: VexRiscv RV32IMAC with caches"]
    Vexriscv = 2,
}
impl From<Cpu> for u8 {
    #[inline(always)]
    fn from(variant: Cpu) -> Self {
        variant as _
    }
}
impl crate::FieldSpec for Cpu {
    type Ux = u8;
}
impl crate::IsEnum for Cpu {}
#[doc = "Field `CPU` reader - Soft-core type"]
pub type CpuR = crate::FieldReader<Cpu>;
impl CpuR {
    #[doc = "Get enumerated values variant"]
    #[inline(always)]
    pub const fn variant(&self) -> Option<Cpu> {
        match self.bits {
            1 => Some(Cpu::Picorv32),
            2 => Some(Cpu::Vexriscv),
            _ => None,
        }
    }
    #[doc = "PicoRV32 RV32IMC"]
    #[inline(always)]
    pub fn is_picorv32(&self) -> bool {
        *self == Cpu::Picorv32
    }
    #[doc = "VexRiscv RV32IMAC with caches"]
    #[inline(always)]
    pub fn is_vexriscv(&self) -> bool {
        *self == Cpu::Vexriscv
    }
}
impl R {
    #[doc = "Bits 0:7 - Soft-core type"]
    #[inline(always)]
    pub fn cpu(&self) -> CpuR {
        CpuR::new((self.bits & 0xff) as u8)
    }
}
#[doc = "Soft core in this build\n\nYou can [`read`](crate::Reg::read) this register and get [`core::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CoreSpec;
impl crate::RegisterSpec for CoreSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`core::R`](R) reader structure"]
impl crate::Readable for CoreSpec {}
#[doc = "`reset()` method sets CORE to value 0x01"]
impl crate::Resettable for CoreSpec {
    const RESET_VALUE: u32 = 0x01;
}
