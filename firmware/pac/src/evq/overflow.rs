#[doc = "Register `OVERFLOW` reader"]
pub type R = crate::R<OverflowSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Records lost: queue full\n\nYou can [`read`](crate::Reg::read) this register and get [`overflow::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct OverflowSpec;
impl crate::RegisterSpec for OverflowSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`overflow::R`](R) reader structure"]
impl crate::Readable for OverflowSpec {}
#[doc = "`reset()` method sets OVERFLOW to value 0"]
impl crate::Resettable for OverflowSpec {}
