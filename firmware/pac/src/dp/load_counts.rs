#[doc = "Register `LOAD_COUNTS` reader"]
pub type R = crate::R<LoadCountsSpec>;
#[doc = "Register `LOAD_COUNTS` writer"]
pub type W = crate::W<LoadCountsSpec>;
#[doc = "Field `ACTIVE` reader - Active (ESTABLISHED) connections"]
pub type ActiveR = crate::FieldReader<u16>;
#[doc = "Field `ACTIVE` writer - Active (ESTABLISHED) connections"]
pub type ActiveW<'a, REG> = crate::FieldWriter<'a, REG, 15, u16>;
#[doc = "Field `INACTIVE` reader - Inactive connections"]
pub type InactiveR = crate::FieldReader<u16>;
#[doc = "Field `INACTIVE` writer - Inactive connections"]
pub type InactiveW<'a, REG> = crate::FieldWriter<'a, REG, 15, u16>;
#[doc = "Field `OVERLOADED` reader - The overload flag"]
pub type OverloadedR = crate::BitReader;
#[doc = "Field `OVERLOADED` writer - The overload flag"]
pub type OverloadedW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bits 0:14 - Active (ESTABLISHED) connections"]
    #[inline(always)]
    pub fn active(&self) -> ActiveR {
        ActiveR::new((self.bits & 0x7fff) as u16)
    }
    #[doc = "Bits 16:30 - Inactive connections"]
    #[inline(always)]
    pub fn inactive(&self) -> InactiveR {
        InactiveR::new(((self.bits >> 16) & 0x7fff) as u16)
    }
    #[doc = "Bit 31 - The overload flag"]
    #[inline(always)]
    pub fn overloaded(&self) -> OverloadedR {
        OverloadedR::new(((self.bits >> 31) & 1) != 0)
    }
}
impl W {
    #[doc = "Bits 0:14 - Active (ESTABLISHED) connections"]
    #[inline(always)]
    pub fn active(&mut self) -> ActiveW<'_, LoadCountsSpec> {
        ActiveW::new(self, 0)
    }
    #[doc = "Bits 16:30 - Inactive connections"]
    #[inline(always)]
    pub fn inactive(&mut self) -> InactiveW<'_, LoadCountsSpec> {
        InactiveW::new(self, 16)
    }
    #[doc = "Bit 31 - The overload flag"]
    #[inline(always)]
    pub fn overloaded(&mut self) -> OverloadedW<'_, LoadCountsSpec> {
        OverloadedW::new(self, 31)
    }
}
#[doc = "Write: the counts a COUNTS operation sets; read: the counts of the last READ answer\n\nYou can [`read`](crate::Reg::read) this register and get [`load_counts::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_counts::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadCountsSpec;
impl crate::RegisterSpec for LoadCountsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`load_counts::R`](R) reader structure"]
impl crate::Readable for LoadCountsSpec {}
#[doc = "`write(|w| ..)` method takes [`load_counts::W`](W) writer structure"]
impl crate::Writable for LoadCountsSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets LOAD_COUNTS to value 0"]
impl crate::Resettable for LoadCountsSpec {}
