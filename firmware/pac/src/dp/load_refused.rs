#[doc = "Register `LOAD_REFUSED` reader"]
pub type R = crate::R<LoadRefusedSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "LOAD_OP writes refused while busy\n\nYou can [`read`](crate::Reg::read) this register and get [`load_refused::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadRefusedSpec;
impl crate::RegisterSpec for LoadRefusedSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`load_refused::R`](R) reader structure"]
impl crate::Readable for LoadRefusedSpec {}
#[doc = "`reset()` method sets LOAD_REFUSED to value 0"]
impl crate::Resettable for LoadRefusedSpec {}
