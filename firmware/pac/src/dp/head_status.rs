#[doc = "Register `HEAD_STATUS` reader"]
pub type R = crate::R<HeadStatusSpec>;
#[doc = "Register `HEAD_STATUS` writer"]
pub type W = crate::W<HeadStatusSpec>;
#[doc = "Field `LEN` reader - The stored length of the last segment's buffer after it"]
pub type LenR = crate::FieldReader<u16>;
#[doc = "Field `APPENDING` reader - A segment's words are still to be written or stored: its result is not yet in LEN"]
pub type AppendingR = crate::BitReader;
#[doc = "Field `IN_USE` reader - Buffers taken from the free list (the one held ready included)"]
pub type InUseR = crate::FieldReader;
#[doc = "Field `IN_USE_MAX` reader - The most buffers taken at once since reset or the last restart"]
pub type InUseMaxR = crate::FieldReader;
#[doc = "Field `REPLAYING` reader - A replay is staged or under way"]
pub type ReplayingR = crate::BitReader;
#[doc = "Field `PRESENT` reader - The card has the request-head buffers"]
pub type PresentR = crate::BitReader;
impl R {
    #[doc = "Bits 0:10 - The stored length of the last segment's buffer after it"]
    #[inline(always)]
    pub fn len(&self) -> LenR {
        LenR::new((self.bits & 0x07ff) as u16)
    }
    #[doc = "Bit 11 - A segment's words are still to be written or stored: its result is not yet in LEN"]
    #[inline(always)]
    pub fn appending(&self) -> AppendingR {
        AppendingR::new(((self.bits >> 11) & 1) != 0)
    }
    #[doc = "Bits 12:19 - Buffers taken from the free list (the one held ready included)"]
    #[inline(always)]
    pub fn in_use(&self) -> InUseR {
        InUseR::new(((self.bits >> 12) & 0xff) as u8)
    }
    #[doc = "Bits 20:27 - The most buffers taken at once since reset or the last restart"]
    #[inline(always)]
    pub fn in_use_max(&self) -> InUseMaxR {
        InUseMaxR::new(((self.bits >> 20) & 0xff) as u8)
    }
    #[doc = "Bit 30 - A replay is staged or under way"]
    #[inline(always)]
    pub fn replaying(&self) -> ReplayingR {
        ReplayingR::new(((self.bits >> 30) & 1) != 0)
    }
    #[doc = "Bit 31 - The card has the request-head buffers"]
    #[inline(always)]
    pub fn present(&self) -> PresentR {
        PresentR::new(((self.bits >> 31) & 1) != 0)
    }
}
impl W {}
#[doc = "Request-head buffers: the last segment's result and the occupancy; a write restarts IN_USE_MAX at the current IN_USE\n\nYou can [`read`](crate::Reg::read) this register and get [`head_status::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_status::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadStatusSpec;
impl crate::RegisterSpec for HeadStatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`head_status::R`](R) reader structure"]
impl crate::Readable for HeadStatusSpec {}
#[doc = "`write(|w| ..)` method takes [`head_status::W`](W) writer structure"]
impl crate::Writable for HeadStatusSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets HEAD_STATUS to value 0"]
impl crate::Resettable for HeadStatusSpec {}
