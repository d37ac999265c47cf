#[doc = "Register `CAPS` reader"]
pub type R = crate::R<CapsSpec>;
#[doc = "Field `MAILBOX` reader - Host/firmware mailbox present"]
pub type MailboxR = crate::BitReader;
#[doc = "Field `LOGRING` reader - Firmware log ring present"]
pub type LogringR = crate::BitReader;
#[doc = "Field `TIMER` reader - Free-running timer present"]
pub type TimerR = crate::BitReader;
#[doc = "Field `SPLICER` reader - Splicer data path present (ports tied off when 0)"]
pub type SplicerR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - Host/firmware mailbox present"]
    #[inline(always)]
    pub fn mailbox(&self) -> MailboxR {
        MailboxR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - Firmware log ring present"]
    #[inline(always)]
    pub fn logring(&self) -> LogringR {
        LogringR::new(((self.bits >> 1) & 1) != 0)
    }
    #[doc = "Bit 2 - Free-running timer present"]
    #[inline(always)]
    pub fn timer(&self) -> TimerR {
        TimerR::new(((self.bits >> 2) & 1) != 0)
    }
    #[doc = "Bit 8 - Splicer data path present (ports tied off when 0)"]
    #[inline(always)]
    pub fn splicer(&self) -> SplicerR {
        SplicerR::new(((self.bits >> 8) & 1) != 0)
    }
}
#[doc = "Capabilities present in this gateware build\n\nYou can [`read`](crate::Reg::read) this register and get [`caps::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CapsSpec;
impl crate::RegisterSpec for CapsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`caps::R`](R) reader structure"]
impl crate::Readable for CapsSpec {}
#[doc = "`reset()` method sets CAPS to value 0x0107"]
impl crate::Resettable for CapsSpec {
    const RESET_VALUE: u32 = 0x0107;
}
