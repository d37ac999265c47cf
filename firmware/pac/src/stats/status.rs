#[doc = "Register `STATUS` reader"]
pub type R = crate::R<StatusSpec>;
#[doc = "Field `INIT_DONE` reader - Counters have been cleared after reset"]
pub type InitDoneR = crate::BitReader;
#[doc = "Field `RD_BUSY` reader - A RD_IDX read is running"]
pub type RdBusyR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - Counters have been cleared after reset"]
    #[inline(always)]
    pub fn init_done(&self) -> InitDoneR {
        InitDoneR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - A RD_IDX read is running"]
    #[inline(always)]
    pub fn rd_busy(&self) -> RdBusyR {
        RdBusyR::new(((self.bits >> 1) & 1) != 0)
    }
}
#[doc = "Statistics status\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StatusSpec;
impl crate::RegisterSpec for StatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`status::R`](R) reader structure"]
impl crate::Readable for StatusSpec {}
#[doc = "`reset()` method sets STATUS to value 0"]
impl crate::Resettable for StatusSpec {}
