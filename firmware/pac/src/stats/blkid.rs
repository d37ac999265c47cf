#[doc = "Register `BLKID` reader"]
pub type R = crate::R<BlkidSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BlkidSpec;
impl crate::RegisterSpec for BlkidSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`blkid::R`](R) reader structure"]
impl crate::Readable for BlkidSpec {}
#[doc = "`reset()` method sets BLKID to value 0x0016_0101"]
impl crate::Resettable for BlkidSpec {
    const RESET_VALUE: u32 = 0x0016_0101;
}
