#[doc = "Register `CLK_HZ` reader"]
pub type R = crate::R<ClkHzSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Core clock frequency in Hz (timer tick rate)\n\nYou can [`read`](crate::Reg::read) this register and get [`clk_hz::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ClkHzSpec;
impl crate::RegisterSpec for ClkHzSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`clk_hz::R`](R) reader structure"]
impl crate::Readable for ClkHzSpec {}
#[doc = "`reset()` method sets CLK_HZ to value 0x0950_2f90"]
impl crate::Resettable for ClkHzSpec {
    const RESET_VALUE: u32 = 0x0950_2f90;
}
