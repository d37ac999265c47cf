#[doc = "Register `DROP_LONG` reader"]
pub type R = crate::R<DropLongSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames dropped: longer than a slot\n\nYou can [`read`](crate::Reg::read) this register and get [`drop_long::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct DropLongSpec;
impl crate::RegisterSpec for DropLongSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`drop_long::R`](R) reader structure"]
impl crate::Readable for DropLongSpec {}
#[doc = "`reset()` method sets DROP_LONG to value 0"]
impl crate::Resettable for DropLongSpec {}
