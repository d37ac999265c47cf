#[doc = "Register `BLKID` reader"]
pub type R = crate::R<BlkidSpec>;
#[doc = "Field `VERSION` reader - Block version, major in 15:8"]
pub type VersionR = crate::FieldReader<u16>;
#[doc = "Field `TYPE` reader - Block type code"]
pub type TypeR = crate::FieldReader<u16>;
impl R {
    #[doc = "Bits 0:15 - Block version, major in 15:8"]
    #[inline(always)]
    pub fn version(&self) -> VersionR {
        VersionR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - Block type code"]
    #[inline(always)]
    pub fn type_(&self) -> TypeR {
        TypeR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
#[doc = "Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BlkidSpec;
impl crate::RegisterSpec for BlkidSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`blkid::R`](R) reader structure"]
impl crate::Readable for BlkidSpec {}
#[doc = "`reset()` method sets BLKID to value 0x0002_0100"]
impl crate::Resettable for BlkidSpec {
    const RESET_VALUE: u32 = 0x0002_0100;
}
