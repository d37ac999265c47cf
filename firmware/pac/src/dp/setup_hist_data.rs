#[doc = "Register `SETUP_HIST_DATA` reader"]
pub type R = crate::R<SetupHistDataSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Setups counted in the bucket at SETUP_HIST_IDX since power-up: from the flow-state write that puts a slot in HANDSHAKE (or in REQUEST or CONNECTING when its clock has not started) to the first that puts it in SPLICED (docs/engine.md, \"Setup latency\")\n\nYou can [`read`](crate::Reg::read) this register and get [`setup_hist_data::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SetupHistDataSpec;
impl crate::RegisterSpec for SetupHistDataSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`setup_hist_data::R`](R) reader structure"]
impl crate::Readable for SetupHistDataSpec {}
#[doc = "`reset()` method sets SETUP_HIST_DATA to value 0"]
impl crate::Resettable for SetupHistDataSpec {}
