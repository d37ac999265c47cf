#[doc = "Register `ENTRIES` reader"]
pub type R = crate::R<EntriesSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Entries in the table\n\nYou can [`read`](crate::Reg::read) this register and get [`entries::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct EntriesSpec;
impl crate::RegisterSpec for EntriesSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`entries::R`](R) reader structure"]
impl crate::Readable for EntriesSpec {}
#[doc = "`reset()` method sets ENTRIES to value 0"]
impl crate::Resettable for EntriesSpec {}
