#[doc = "Register `AGE_CTRL` reader"]
pub type R = crate::R<AgeCtrlSpec>;
#[doc = "Register `AGE_CTRL` writer"]
pub type W = crate::W<AgeCtrlSpec>;
#[doc = "Field `ENABLE` reader - Walk the slots (off at reset; the walk stops where it is and resumes there)"]
pub type EnableR = crate::BitReader;
#[doc = "Field `ENABLE` writer - Walk the slots (off at reset; the walk stops where it is and resumes there)"]
pub type EnableW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `FREE` reader - Free each expired LINGER slot in hardware (both keys deleted, the entry written FREE) and queue it with AGE_HEAD.FREED set (off at reset: every expired slot is queued for the firmware to free; docs/aging.md, \"The free in hardware\")"]
pub type FreeR = crate::BitReader;
#[doc = "Field `FREE` writer - Free each expired LINGER slot in hardware (both keys deleted, the entry written FREE) and queue it with AGE_HEAD.FREED set (off at reset: every expired slot is queued for the firmware to free; docs/aging.md, \"The free in hardware\")"]
pub type FreeW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `INTERVAL` reader - Cycles from one slot's read to the next (values below AGE_MIN_INTERVAL act as AGE_MIN_INTERVAL)"]
pub type IntervalR = crate::FieldReader<u16>;
#[doc = "Field `INTERVAL` writer - Cycles from one slot's read to the next (values below AGE_MIN_INTERVAL act as AGE_MIN_INTERVAL)"]
pub type IntervalW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bit 0 - Walk the slots (off at reset; the walk stops where it is and resumes there)"]
    #[inline(always)]
    pub fn enable(&self) -> EnableR {
        EnableR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - Free each expired LINGER slot in hardware (both keys deleted, the entry written FREE) and queue it with AGE_HEAD.FREED set (off at reset: every expired slot is queued for the firmware to free; docs/aging.md, \"The free in hardware\")"]
    #[inline(always)]
    pub fn free(&self) -> FreeR {
        FreeR::new(((self.bits >> 1) & 1) != 0)
    }
    #[doc = "Bits 16:31 - Cycles from one slot's read to the next (values below AGE_MIN_INTERVAL act as AGE_MIN_INTERVAL)"]
    #[inline(always)]
    pub fn interval(&self) -> IntervalR {
        IntervalR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bit 0 - Walk the slots (off at reset; the walk stops where it is and resumes there)"]
    #[inline(always)]
    pub fn enable(&mut self) -> EnableW<'_, AgeCtrlSpec> {
        EnableW::new(self, 0)
    }
    #[doc = "Bit 1 - Free each expired LINGER slot in hardware (both keys deleted, the entry written FREE) and queue it with AGE_HEAD.FREED set (off at reset: every expired slot is queued for the firmware to free; docs/aging.md, \"The free in hardware\")"]
    #[inline(always)]
    pub fn free(&mut self) -> FreeW<'_, AgeCtrlSpec> {
        FreeW::new(self, 1)
    }
    #[doc = "Bits 16:31 - Cycles from one slot's read to the next (values below AGE_MIN_INTERVAL act as AGE_MIN_INTERVAL)"]
    #[inline(always)]
    pub fn interval(&mut self) -> IntervalW<'_, AgeCtrlSpec> {
        IntervalW::new(self, 16)
    }
}
#[doc = "Aging scanner control (docs/aging.md, \"The scanner\"): it reads one flow slot's entry every INTERVAL cycles, slots 0 to AGE_LIMIT - 1 in turn, and queues each expired slot in AGE_HEAD\n\nYou can [`read`](crate::Reg::read) this register and get [`age_ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`age_ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeCtrlSpec;
impl crate::RegisterSpec for AgeCtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_ctrl::R`](R) reader structure"]
impl crate::Readable for AgeCtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`age_ctrl::W`](W) writer structure"]
impl crate::Writable for AgeCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets AGE_CTRL to value 0x0040_0000"]
impl crate::Resettable for AgeCtrlSpec {
    const RESET_VALUE: u32 = 0x0040_0000;
}
