#[doc = "Register `PUSHED` reader"]
pub type R = crate::R<PushedSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Records queued\n\nYou can [`read`](crate::Reg::read) this register and get [`pushed::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct PushedSpec;
impl crate::RegisterSpec for PushedSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`pushed::R`](R) reader structure"]
impl crate::Readable for PushedSpec {}
#[doc = "`reset()` method sets PUSHED to value 0"]
impl crate::Resettable for PushedSpec {}
