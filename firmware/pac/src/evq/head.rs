#[doc = "Register `HEAD[%s]` reader"]
pub type R = crate::R<HeadSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Head record words (word 0 bits 7:0 = type, docs/datapath.md)\n\nYou can [`read`](crate::Reg::read) this register and get [`head::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadSpec;
impl crate::RegisterSpec for HeadSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`head::R`](R) reader structure"]
impl crate::Readable for HeadSpec {}
#[doc = "`reset()` method sets HEAD[%s] to value 0"]
impl crate::Resettable for HeadSpec {}
