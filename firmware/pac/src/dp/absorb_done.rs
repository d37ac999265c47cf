#[doc = "Register `ABSORB_DONE` reader"]
pub type R = crate::R<AbsorbDoneSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "SYN-ACKs absorbed since reset (entry SPLICED, handshake ACK and head sent by the card)\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_done::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AbsorbDoneSpec;
impl crate::RegisterSpec for AbsorbDoneSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`absorb_done::R`](R) reader structure"]
impl crate::Readable for AbsorbDoneSpec {}
#[doc = "`reset()` method sets ABSORB_DONE to value 0"]
impl crate::Resettable for AbsorbDoneSpec {}
