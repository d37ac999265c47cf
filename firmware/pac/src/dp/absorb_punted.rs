#[doc = "Register `ABSORB_PUNTED` reader"]
pub type R = crate::R<AbsorbPuntedSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "SYN-ACKs of armed entries left to the firmware since reset: another verdict than SPLICE, a head longer than the replay chunk, options in another layout, the absorber's queue full, or a firmware write of the entry while it was absorbed\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_punted::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AbsorbPuntedSpec;
impl crate::RegisterSpec for AbsorbPuntedSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`absorb_punted::R`](R) reader structure"]
impl crate::Readable for AbsorbPuntedSpec {}
#[doc = "`reset()` method sets ABSORB_PUNTED to value 0"]
impl crate::Resettable for AbsorbPuntedSpec {}
