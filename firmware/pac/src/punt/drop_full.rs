#[doc = "Register `DROP_FULL` reader"]
pub type R = crate::R<DropFullSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames dropped: ring full\n\nYou can [`read`](crate::Reg::read) this register and get [`drop_full::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct DropFullSpec;
impl crate::RegisterSpec for DropFullSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`drop_full::R`](R) reader structure"]
impl crate::Readable for DropFullSpec {}
#[doc = "`reset()` method sets DROP_FULL to value 0"]
impl crate::Resettable for DropFullSpec {}
