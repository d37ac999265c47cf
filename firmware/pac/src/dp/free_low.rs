#[doc = "Register `FREE_LOW` reader"]
pub type R = crate::R<FreeLowSpec>;
#[doc = "Register `FREE_LOW` writer"]
pub type W = crate::W<FreeLowSpec>;
#[doc = "Field `LOW` reader - Lowest level since the mark was restarted (read)"]
pub type LowR = crate::FieldReader<u16>;
#[doc = "Field `LOW` writer - Lowest level since the mark was restarted (read)"]
pub type LowW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `ARMED` reader - The mark has been restarted since reset (read; before that LOW means nothing: the list starts empty)"]
pub type ArmedR = crate::BitReader;
#[doc = "Field `ARMED` writer - The mark has been restarted since reset (read; before that LOW means nothing: the list starts empty)"]
pub type ArmedW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bits 0:15 - Lowest level since the mark was restarted (read)"]
    #[inline(always)]
    pub fn low(&self) -> LowR {
        LowR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bit 31 - The mark has been restarted since reset (read; before that LOW means nothing: the list starts empty)"]
    #[inline(always)]
    pub fn armed(&self) -> ArmedR {
        ArmedR::new(((self.bits >> 31) & 1) != 0)
    }
}
impl W {
    #[doc = "Bits 0:15 - Lowest level since the mark was restarted (read)"]
    #[inline(always)]
    pub fn low(&mut self) -> LowW<'_, FreeLowSpec> {
        LowW::new(self, 0)
    }
    #[doc = "Bit 31 - The mark has been restarted since reset (read; before that LOW means nothing: the list starts empty)"]
    #[inline(always)]
    pub fn armed(&mut self) -> ArmedW<'_, FreeLowSpec> {
        ArmedW::new(self, 31)
    }
}
#[doc = "High-water mark of the slots the ACK validator took: the lowest level of its free list since the last write here (a write restarts the mark at the current level and arms it)\n\nYou can [`read`](crate::Reg::read) this register and get [`free_low::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`free_low::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FreeLowSpec;
impl crate::RegisterSpec for FreeLowSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`free_low::R`](R) reader structure"]
impl crate::Readable for FreeLowSpec {}
#[doc = "`write(|w| ..)` method takes [`free_low::W`](W) writer structure"]
impl crate::Writable for FreeLowSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets FREE_LOW to value 0"]
impl crate::Resettable for FreeLowSpec {}
