#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    core_ctrl: CoreCtrl,
    core_status: CoreStatus,
    scratch: Scratch,
    fw_state: FwState,
    heartbeat: Heartbeat,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Soft-core control (host)"]
    #[inline(always)]
    pub const fn core_ctrl(&self) -> &CoreCtrl {
        &self.core_ctrl
    }
    #[doc = "0x08 - Soft-core status"]
    #[inline(always)]
    pub const fn core_status(&self) -> &CoreStatus {
        &self.core_status
    }
    #[doc = "0x0c - Scratch register for bus tests"]
    #[inline(always)]
    pub const fn scratch(&self) -> &Scratch {
        &self.scratch
    }
    #[doc = "0x10 - Firmware state, written by the firmware; cleared when the core is put in reset"]
    #[inline(always)]
    pub const fn fw_state(&self) -> &FwState {
        &self.fw_state
    }
    #[doc = "0x14 - Incremented by the firmware on every main-loop pass; cleared when the core is put in reset"]
    #[inline(always)]
    pub const fn heartbeat(&self) -> &Heartbeat {
        &self.heartbeat
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "CORE_CTRL (rw) register accessor: Soft-core control (host)\n\nYou can [`read`](crate::Reg::read) this register and get [`core_ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`core_ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@core_ctrl`] module"]
#[doc(alias = "CORE_CTRL")]
pub type CoreCtrl = crate::Reg<core_ctrl::CoreCtrlSpec>;
#[doc = "Soft-core control (host)"]
pub mod core_ctrl;
#[doc = "CORE_STATUS (r) register accessor: Soft-core status\n\nYou can [`read`](crate::Reg::read) this register and get [`core_status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@core_status`] module"]
#[doc(alias = "CORE_STATUS")]
pub type CoreStatus = crate::Reg<core_status::CoreStatusSpec>;
#[doc = "Soft-core status"]
pub mod core_status;
#[doc = "SCRATCH (rw) register accessor: Scratch register for bus tests\n\nYou can [`read`](crate::Reg::read) this register and get [`scratch::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`scratch::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@scratch`] module"]
#[doc(alias = "SCRATCH")]
pub type Scratch = crate::Reg<scratch::ScratchSpec>;
#[doc = "Scratch register for bus tests"]
pub mod scratch;
#[doc = "FW_STATE (rw) register accessor: Firmware state, written by the firmware; cleared when the core is put in reset\n\nYou can [`read`](crate::Reg::read) this register and get [`fw_state::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`fw_state::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@fw_state`] module"]
#[doc(alias = "FW_STATE")]
pub type FwState = crate::Reg<fw_state::FwStateSpec>;
#[doc = "Firmware state, written by the firmware; cleared when the core is put in reset"]
pub mod fw_state;
#[doc = "HEARTBEAT (rw) register accessor: Incremented by the firmware on every main-loop pass; cleared when the core is put in reset\n\nYou can [`read`](crate::Reg::read) this register and get [`heartbeat::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`heartbeat::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@heartbeat`] module"]
#[doc(alias = "HEARTBEAT")]
pub type Heartbeat = crate::Reg<heartbeat::HeartbeatSpec>;
#[doc = "Incremented by the firmware on every main-loop pass; cleared when the core is put in reset"]
pub mod heartbeat;
