#[doc = "Register `COUNT_LO` reader"]
pub type R = crate::R<CountLoSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Counter bits 31:0; reading it latches bits 63:32 into COUNT_HI\n\nYou can [`read`](crate::Reg::read) this register and get [`count_lo::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CountLoSpec;
impl crate::RegisterSpec for CountLoSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`count_lo::R`](R) reader structure"]
impl crate::Readable for CountLoSpec {}
#[doc = "`reset()` method sets COUNT_LO to value 0"]
impl crate::Resettable for CountLoSpec {}
