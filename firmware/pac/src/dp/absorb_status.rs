#[doc = "Register `ABSORB_STATUS` reader"]
pub type R = crate::R<AbsorbStatusSpec>;
#[doc = "Field `RESULT` reader - DisarmResult: DISARMED, ABSORBED or NOT_ARMED (valid when BUSY is clear)"]
pub type ResultR = crate::FieldReader;
#[doc = "Field `BUSY` reader - A disarm is under way"]
pub type BusyR = crate::BitReader;
impl R {
    #[doc = "Bits 0:1 - DisarmResult: DISARMED, ABSORBED or NOT_ARMED (valid when BUSY is clear)"]
    #[inline(always)]
    pub fn result(&self) -> ResultR {
        ResultR::new((self.bits & 3) as u8)
    }
    #[doc = "Bit 31 - A disarm is under way"]
    #[inline(always)]
    pub fn busy(&self) -> BusyR {
        BusyR::new(((self.bits >> 31) & 1) != 0)
    }
}
#[doc = "The last ABSORB_DISARM's result\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AbsorbStatusSpec;
impl crate::RegisterSpec for AbsorbStatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`absorb_status::R`](R) reader structure"]
impl crate::Readable for AbsorbStatusSpec {}
#[doc = "`reset()` method sets ABSORB_STATUS to value 0"]
impl crate::Resettable for AbsorbStatusSpec {}
