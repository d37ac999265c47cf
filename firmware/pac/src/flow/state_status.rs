#[doc = "Register `STATE_STATUS` reader"]
pub type R = crate::R<StateStatusSpec>;
#[doc = "Field `BUSY` reader - A command is running"]
pub type BusyR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - A command is running"]
    #[inline(always)]
    pub fn busy(&self) -> BusyR {
        BusyR::new((self.bits & 1) != 0)
    }
}
#[doc = "Flow state command status\n\nYou can [`read`](crate::Reg::read) this register and get [`state_status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StateStatusSpec;
impl crate::RegisterSpec for StateStatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`state_status::R`](R) reader structure"]
impl crate::Readable for StateStatusSpec {}
#[doc = "`reset()` method sets STATE_STATUS to value 0"]
impl crate::Resettable for StateStatusSpec {}
