#[doc = "Register `FLOW_SLOTS` reader"]
pub type R = crate::R<FlowSlotsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Number of flow state slots\n\nYou can [`read`](crate::Reg::read) this register and get [`flow_slots::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FlowSlotsSpec;
impl crate::RegisterSpec for FlowSlotsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`flow_slots::R`](R) reader structure"]
impl crate::Readable for FlowSlotsSpec {}
#[doc = "`reset()` method sets FLOW_SLOTS to value 0"]
impl crate::Resettable for FlowSlotsSpec {}
