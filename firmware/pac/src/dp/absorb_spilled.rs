#[doc = "Register `ABSORB_SPILLED` reader"]
pub type R = crate::R<AbsorbSpilledSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Absorbed SYN-ACKs punted with verdict ABSORBED since reset because the done queue was full\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_spilled::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AbsorbSpilledSpec;
impl crate::RegisterSpec for AbsorbSpilledSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`absorb_spilled::R`](R) reader structure"]
impl crate::Readable for AbsorbSpilledSpec {}
#[doc = "`reset()` method sets ABSORB_SPILLED to value 0"]
impl crate::Resettable for AbsorbSpilledSpec {}
