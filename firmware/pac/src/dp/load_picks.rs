#[doc = "Register `LOAD_PICKS` reader"]
pub type R = crate::R<LoadPicksSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Least-load answers PICK\n\nYou can [`read`](crate::Reg::read) this register and get [`load_picks::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadPicksSpec;
impl crate::RegisterSpec for LoadPicksSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`load_picks::R`](R) reader structure"]
impl crate::Readable for LoadPicksSpec {}
#[doc = "`reset()` method sets LOAD_PICKS to value 0"]
impl crate::Resettable for LoadPicksSpec {}
