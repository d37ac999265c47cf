#[doc = "Register `SNAPSHOTS` reader"]
pub type R = crate::R<SnapshotsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Snapshots taken\n\nYou can [`read`](crate::Reg::read) this register and get [`snapshots::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SnapshotsSpec;
impl crate::RegisterSpec for SnapshotsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`snapshots::R`](R) reader structure"]
impl crate::Readable for SnapshotsSpec {}
#[doc = "`reset()` method sets SNAPSHOTS to value 0"]
impl crate::Resettable for SnapshotsSpec {}
