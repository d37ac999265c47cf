#[doc = "Register `IMEM_WINDOW` reader"]
pub type R = crate::R<ImemWindowSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "BAR0 offset of the instruction-memory window (host writable while the core is held in reset)\n\nYou can [`read`](crate::Reg::read) this register and get [`imem_window::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ImemWindowSpec;
impl crate::RegisterSpec for ImemWindowSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`imem_window::R`](R) reader structure"]
impl crate::Readable for ImemWindowSpec {}
#[doc = "`reset()` method sets IMEM_WINDOW to value 0x0004_0000"]
impl crate::Resettable for ImemWindowSpec {
    const RESET_VALUE: u32 = 0x0004_0000;
}
