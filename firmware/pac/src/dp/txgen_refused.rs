#[doc = "Register `TXGEN_REFUSED` reader"]
pub type R = crate::R<TxgenRefusedSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "TXGEN_GO writes refused since reset (TXGEN_STATUS.BUSY)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_refused::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenRefusedSpec;
impl crate::RegisterSpec for TxgenRefusedSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_refused::R`](R) reader structure"]
impl crate::Readable for TxgenRefusedSpec {}
#[doc = "`reset()` method sets TXGEN_REFUSED to value 0"]
impl crate::Resettable for TxgenRefusedSpec {}
