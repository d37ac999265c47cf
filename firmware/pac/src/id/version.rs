#[doc = "Register `VERSION` reader"]
pub type R = crate::R<VersionSpec>;
#[doc = "Field `MINOR` reader - Minor version: compatible additions"]
pub type MinorR = crate::FieldReader<u16>;
#[doc = "Field `MAJOR` reader - Major version: incompatible changes"]
pub type MajorR = crate::FieldReader<u16>;
impl R {
    #[doc = "Bits 0:15 - Minor version: compatible additions"]
    #[inline(always)]
    pub fn minor(&self) -> MinorR {
        MinorR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - Major version: incompatible changes"]
    #[inline(always)]
    pub fn major(&self) -> MajorR {
        MajorR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
#[doc = "Register-map version; the host refuses a different major version\n\nYou can [`read`](crate::Reg::read) this register and get [`version::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct VersionSpec;
impl crate::RegisterSpec for VersionSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`version::R`](R) reader structure"]
impl crate::Readable for VersionSpec {}
#[doc = "`reset()` method sets VERSION to value 0x0001_0000"]
impl crate::Resettable for VersionSpec {
    const RESET_VALUE: u32 = 0x0001_0000;
}
