#[doc = "Register `TXGEN_SENT_C` reader"]
pub type R = crate::R<TxgenSentCSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames the generator sent out of the client port since reset (last beat taken)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_sent_c::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenSentCSpec;
impl crate::RegisterSpec for TxgenSentCSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_sent_c::R`](R) reader structure"]
impl crate::Readable for TxgenSentCSpec {}
#[doc = "`reset()` method sets TXGEN_SENT_C to value 0"]
impl crate::Resettable for TxgenSentCSpec {}
