#[doc = "Register `MAGIC` reader"]
pub type R = crate::R<MagicSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Card magic, ASCII \"SNIC\"\n\nYou can [`read`](crate::Reg::read) this register and get [`magic::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct MagicSpec;
impl crate::RegisterSpec for MagicSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`magic::R`](R) reader structure"]
impl crate::Readable for MagicSpec {}
#[doc = "`reset()` method sets MAGIC to value 0x534e_4943"]
impl crate::Resettable for MagicSpec {
    const RESET_VALUE: u32 = 0x534e_4943;
}
