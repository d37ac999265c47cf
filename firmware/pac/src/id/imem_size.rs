#[doc = "Register `IMEM_SIZE` reader"]
pub type R = crate::R<ImemSizeSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Instruction memory size in bytes (core address 0x00000000)\n\nYou can [`read`](crate::Reg::read) this register and get [`imem_size::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ImemSizeSpec;
impl crate::RegisterSpec for ImemSizeSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`imem_size::R`](R) reader structure"]
impl crate::Readable for ImemSizeSpec {}
#[doc = "`reset()` method sets IMEM_SIZE to value 0x0001_0000"]
impl crate::Resettable for ImemSizeSpec {
    const RESET_VALUE: u32 = 0x0001_0000;
}
