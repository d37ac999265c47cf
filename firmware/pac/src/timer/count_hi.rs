#[doc = "Register `COUNT_HI` reader"]
pub type R = crate::R<CountHiSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Counter bits 63:32 latched by the last COUNT_LO read of the same bus master\n\nYou can [`read`](crate::Reg::read) this register and get [`count_hi::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CountHiSpec;
impl crate::RegisterSpec for CountHiSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`count_hi::R`](R) reader structure"]
impl crate::Readable for CountHiSpec {}
#[doc = "`reset()` method sets COUNT_HI to value 0"]
impl crate::Resettable for CountHiSpec {}
