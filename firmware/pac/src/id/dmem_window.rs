#[doc = "Register `DMEM_WINDOW` reader"]
pub type R = crate::R<DmemWindowSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "BAR0 offset of the data-memory window\n\nYou can [`read`](crate::Reg::read) this register and get [`dmem_window::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct DmemWindowSpec;
impl crate::RegisterSpec for DmemWindowSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`dmem_window::R`](R) reader structure"]
impl crate::Readable for DmemWindowSpec {}
#[doc = "`reset()` method sets DMEM_WINDOW to value 0x0008_0000"]
impl crate::Resettable for DmemWindowSpec {
    const RESET_VALUE: u32 = 0x0008_0000;
}
