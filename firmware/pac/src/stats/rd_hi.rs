#[doc = "Register `RD_HI` reader"]
pub type R = crate::R<RdHiSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Counter bits 63:32 read by RD_IDX\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_hi::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RdHiSpec;
impl crate::RegisterSpec for RdHiSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rd_hi::R`](R) reader structure"]
impl crate::Readable for RdHiSpec {}
#[doc = "`reset()` method sets RD_HI to value 0"]
impl crate::Resettable for RdHiSpec {}
