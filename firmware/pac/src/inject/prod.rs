#[doc = "Register `PROD` reader"]
pub type R = crate::R<ProdSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Producer index (modulo 2*SLOTS)\n\nYou can [`read`](crate::Reg::read) this register and get [`prod::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ProdSpec;
impl crate::RegisterSpec for ProdSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`prod::R`](R) reader structure"]
impl crate::Readable for ProdSpec {}
#[doc = "`reset()` method sets PROD to value 0"]
impl crate::Resettable for ProdSpec {}
