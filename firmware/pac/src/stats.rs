#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    ctrl: Ctrl,
    status: Status,
    rd_idx: RdIdx,
    rd_lo: RdLo,
    rd_hi: RdHi,
    snapshots: Snapshots,
    params: Params,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Snapshot control"]
    #[inline(always)]
    pub const fn ctrl(&self) -> &Ctrl {
        &self.ctrl
    }
    #[doc = "0x08 - Statistics status"]
    #[inline(always)]
    pub const fn status(&self) -> &Status {
        &self.status
    }
    #[doc = "0x0c - Snapshot read: a write reads that counter from the snapshot into RD_LO and RD_HI"]
    #[inline(always)]
    pub const fn rd_idx(&self) -> &RdIdx {
        &self.rd_idx
    }
    #[doc = "0x10 - Counter bits 31:0 read by RD_IDX"]
    #[inline(always)]
    pub const fn rd_lo(&self) -> &RdLo {
        &self.rd_lo
    }
    #[doc = "0x14 - Counter bits 63:32 read by RD_IDX"]
    #[inline(always)]
    pub const fn rd_hi(&self) -> &RdHi {
        &self.rd_hi
    }
    #[doc = "0x18 - Snapshots taken"]
    #[inline(always)]
    pub const fn snapshots(&self) -> &Snapshots {
        &self.snapshots
    }
    #[doc = "0x1c - Statistics build parameters"]
    #[inline(always)]
    pub const fn params(&self) -> &Params {
        &self.params
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "CTRL (rw) register accessor: Snapshot control\n\nYou can [`read`](crate::Reg::read) this register and get [`ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ctrl`] module"]
#[doc(alias = "CTRL")]
pub type Ctrl = crate::Reg<ctrl::CtrlSpec>;
#[doc = "Snapshot control"]
pub mod ctrl;
#[doc = "STATUS (r) register accessor: Statistics status\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@status`] module"]
#[doc(alias = "STATUS")]
pub type Status = crate::Reg<status::StatusSpec>;
#[doc = "Statistics status"]
pub mod status;
#[doc = "RD_IDX (rw) register accessor: Snapshot read: a write reads that counter from the snapshot into RD_LO and RD_HI\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_idx::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rd_idx::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rd_idx`] module"]
#[doc(alias = "RD_IDX")]
pub type RdIdx = crate::Reg<rd_idx::RdIdxSpec>;
#[doc = "Snapshot read: a write reads that counter from the snapshot into RD_LO and RD_HI"]
pub mod rd_idx;
#[doc = "RD_LO (r) register accessor: Counter bits 31:0 read by RD_IDX\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_lo::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rd_lo`] module"]
#[doc(alias = "RD_LO")]
pub type RdLo = crate::Reg<rd_lo::RdLoSpec>;
#[doc = "Counter bits 31:0 read by RD_IDX"]
pub mod rd_lo;
#[doc = "RD_HI (r) register accessor: Counter bits 63:32 read by RD_IDX\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_hi::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rd_hi`] module"]
#[doc(alias = "RD_HI")]
pub type RdHi = crate::Reg<rd_hi::RdHiSpec>;
#[doc = "Counter bits 63:32 read by RD_IDX"]
pub mod rd_hi;
#[doc = "SNAPSHOTS (r) register accessor: Snapshots taken\n\nYou can [`read`](crate::Reg::read) this register and get [`snapshots::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@snapshots`] module"]
#[doc(alias = "SNAPSHOTS")]
pub type Snapshots = crate::Reg<snapshots::SnapshotsSpec>;
#[doc = "Snapshots taken"]
pub mod snapshots;
#[doc = "PARAMS (r) register accessor: Statistics build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@params`] module"]
#[doc(alias = "PARAMS")]
pub type Params = crate::Reg<params::ParamsSpec>;
#[doc = "Statistics build parameters"]
pub mod params;
