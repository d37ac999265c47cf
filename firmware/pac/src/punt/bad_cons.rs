#[doc = "Register `BAD_CONS` reader"]
pub type R = crate::R<BadConsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "CONS writes ignored (value outside the current CONS..PROD range)\n\nYou can [`read`](crate::Reg::read) this register and get [`bad_cons::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BadConsSpec;
impl crate::RegisterSpec for BadConsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`bad_cons::R`](R) reader structure"]
impl crate::Readable for BadConsSpec {}
#[doc = "`reset()` method sets BAD_CONS to value 0"]
impl crate::Resettable for BadConsSpec {}
