#[doc = "Register `RD_LO` reader"]
pub type R = crate::R<RdLoSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Counter bits 31:0 read by RD_IDX\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_lo::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RdLoSpec;
impl crate::RegisterSpec for RdLoSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rd_lo::R`](R) reader structure"]
impl crate::Readable for RdLoSpec {}
#[doc = "`reset()` method sets RD_LO to value 0"]
impl crate::Resettable for RdLoSpec {}
