#[doc = "Register `AGE_POS` reader"]
pub type R = crate::R<AgePosSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "The slot the scanner reads next\n\nYou can [`read`](crate::Reg::read) this register and get [`age_pos::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgePosSpec;
impl crate::RegisterSpec for AgePosSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_pos::R`](R) reader structure"]
impl crate::Readable for AgePosSpec {}
#[doc = "`reset()` method sets AGE_POS to value 0"]
impl crate::Resettable for AgePosSpec {}
