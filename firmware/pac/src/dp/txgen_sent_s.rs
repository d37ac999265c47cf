#[doc = "Register `TXGEN_SENT_S` reader"]
pub type R = crate::R<TxgenSentSSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames the generator sent out of the server port since reset (last beat taken)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_sent_s::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenSentSSpec;
impl crate::RegisterSpec for TxgenSentSSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_sent_s::R`](R) reader structure"]
impl crate::Readable for TxgenSentSSpec {}
#[doc = "`reset()` method sets TXGEN_SENT_S to value 0"]
impl crate::Resettable for TxgenSentSSpec {}
