#[doc = "Register `ACK_TABLE_FULL` reader"]
pub type R = crate::R<AckTableFullSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Candidate ACKs that checked with their flow-table bucket full (verdict TABLE_FULL)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_table_full::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AckTableFullSpec;
impl crate::RegisterSpec for AckTableFullSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ack_table_full::R`](R) reader structure"]
impl crate::Readable for AckTableFullSpec {}
#[doc = "`reset()` method sets ACK_TABLE_FULL to value 0"]
impl crate::Resettable for AckTableFullSpec {}
