#[doc = "Register `DMEM_SIZE` reader"]
pub type R = crate::R<DmemSizeSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Data memory size in bytes (core address 0x10000000)\n\nYou can [`read`](crate::Reg::read) this register and get [`dmem_size::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct DmemSizeSpec;
impl crate::RegisterSpec for DmemSizeSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`dmem_size::R`](R) reader structure"]
impl crate::Readable for DmemSizeSpec {}
#[doc = "`reset()` method sets DMEM_SIZE to value 0x0004_0000"]
impl crate::Resettable for DmemSizeSpec {
    const RESET_VALUE: u32 = 0x0004_0000;
}
