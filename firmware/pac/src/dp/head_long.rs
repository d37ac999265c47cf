#[doc = "Register `HEAD_LONG` reader"]
pub type R = crate::R<HeadLongSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "HEAD_REPLAY requests whose head was longer than MAX_LEN (nothing sent) since reset\n\nYou can [`read`](crate::Reg::read) this register and get [`head_long::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadLongSpec;
impl crate::RegisterSpec for HeadLongSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`head_long::R`](R) reader structure"]
impl crate::Readable for HeadLongSpec {}
#[doc = "`reset()` method sets HEAD_LONG to value 0"]
impl crate::Resettable for HeadLongSpec {}
