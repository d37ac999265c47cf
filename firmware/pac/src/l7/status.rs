#[doc = "Register `STATUS` reader"]
pub type R = crate::R<StatusSpec>;
#[doc = "Field `ACTIVE_BANK` reader - Bank the matcher uses"]
pub type ActiveBankR = crate::BitReader;
#[doc = "Field `INACTIVE_BUSY` reader - The inactive bank is still in use by a running match"]
pub type InactiveBusyR = crate::BitReader;
#[doc = "Field `WR_PENDING` reader - A rule word write is pending"]
pub type WrPendingR = crate::BitReader;
#[doc = "Field `BUF_BUSY` reader - The request buffer is being matched (L7.CMD)"]
pub type BufBusyR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - Bank the matcher uses"]
    #[inline(always)]
    pub fn active_bank(&self) -> ActiveBankR {
        ActiveBankR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - The inactive bank is still in use by a running match"]
    #[inline(always)]
    pub fn inactive_busy(&self) -> InactiveBusyR {
        InactiveBusyR::new(((self.bits >> 1) & 1) != 0)
    }
    #[doc = "Bit 2 - A rule word write is pending"]
    #[inline(always)]
    pub fn wr_pending(&self) -> WrPendingR {
        WrPendingR::new(((self.bits >> 2) & 1) != 0)
    }
    #[doc = "Bit 3 - The request buffer is being matched (L7.CMD)"]
    #[inline(always)]
    pub fn buf_busy(&self) -> BufBusyR {
        BufBusyR::new(((self.bits >> 3) & 1) != 0)
    }
}
#[doc = "Rule bank and request buffer status\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StatusSpec;
impl crate::RegisterSpec for StatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`status::R`](R) reader structure"]
impl crate::Readable for StatusSpec {}
#[doc = "`reset()` method sets STATUS to value 0"]
impl crate::Resettable for StatusSpec {}
