#[doc = "Register `FIN_COUNT` reader"]
pub type R = crate::R<FinCountSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Flows of real server FIN_COUNT_IDX.RS whose first FIN (from either side) the fast path forwarded while the flow's static entry had the ACTIVE flag, since power-up (a reset does not clear them: the firmware takes differences), modulo 2^32: the connections that left ESTABLISHED by a FIN (IPVS's active to inactive), counted by the card (valid two cycles after an FIN_COUNT_IDX write; 0 for an index at or past REAL_SERVERS)\n\nYou can [`read`](crate::Reg::read) this register and get [`fin_count::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FinCountSpec;
impl crate::RegisterSpec for FinCountSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`fin_count::R`](R) reader structure"]
impl crate::Readable for FinCountSpec {}
#[doc = "`reset()` method sets FIN_COUNT to value 0"]
impl crate::Resettable for FinCountSpec {}
