#[doc = "Register `FLOW_CAPACITY` reader"]
pub type R = crate::R<FlowCapacitySpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Number of flow table entries\n\nYou can [`read`](crate::Reg::read) this register and get [`flow_capacity::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FlowCapacitySpec;
impl crate::RegisterSpec for FlowCapacitySpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`flow_capacity::R`](R) reader structure"]
impl crate::Readable for FlowCapacitySpec {}
#[doc = "`reset()` method sets FLOW_CAPACITY to value 0"]
impl crate::Resettable for FlowCapacitySpec {}
