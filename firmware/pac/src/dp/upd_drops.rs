#[doc = "Register `UPD_DROPS` reader"]
pub type R = crate::R<UpdDropsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Flow counter and last-seen updates lost\n\nYou can [`read`](crate::Reg::read) this register and get [`upd_drops::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct UpdDropsSpec;
impl crate::RegisterSpec for UpdDropsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`upd_drops::R`](R) reader structure"]
impl crate::Readable for UpdDropsSpec {}
#[doc = "`reset()` method sets UPD_DROPS to value 0"]
impl crate::Resettable for UpdDropsSpec {}
