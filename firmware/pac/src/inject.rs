#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    sel: Sel,
    prod: Prod,
    cons: Cons,
    params: Params,
    wr_ptr: WrPtr,
    wr_data: WrData,
    commit_len: CommitLen,
    commit_off: CommitOff,
    commit: Commit,
    status: Status,
    frames: Frames,
    bad_commit: BadCommit,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Ring selection: the registers below act on that port's ring"]
    #[inline(always)]
    pub const fn sel(&self) -> &Sel {
        &self.sel
    }
    #[doc = "0x08 - Producer index (modulo 2*SLOTS)"]
    #[inline(always)]
    pub const fn prod(&self) -> &Prod {
        &self.prod
    }
    #[doc = "0x0c - Consumer index (modulo 2*SLOTS)"]
    #[inline(always)]
    pub const fn cons(&self) -> &Cons {
        &self.cons
    }
    #[doc = "0x10 - Inject ring build parameters"]
    #[inline(always)]
    pub const fn params(&self) -> &Params {
        &self.params
    }
    #[doc = "0x14 - Write pointer for WR_DATA in slot PROD mod SLOTS"]
    #[inline(always)]
    pub const fn wr_ptr(&self) -> &WrPtr {
        &self.wr_ptr
    }
    #[doc = "0x18 - Writes a frame word at WR_PTR, then WR_PTR += 1 (bytes little-endian)"]
    #[inline(always)]
    pub const fn wr_data(&self) -> &WrData {
        &self.wr_data
    }
    #[doc = "0x1c - Frame length and checksum offload for COMMIT"]
    #[inline(always)]
    pub const fn commit_len(&self) -> &CommitLen {
        &self.commit_len
    }
    #[doc = "0x20 - Header offsets for checksum offload"]
    #[inline(always)]
    pub const fn commit_off(&self) -> &CommitOff {
        &self.commit_off
    }
    #[doc = "0x24 - Queues the frame with COMMIT_LEN and COMMIT_OFF; WR_PTR returns to 0"]
    #[inline(always)]
    pub const fn commit(&self) -> &Commit {
        &self.commit
    }
    #[doc = "0x28 - Inject ring status"]
    #[inline(always)]
    pub const fn status(&self) -> &Status {
        &self.status
    }
    #[doc = "0x2c - Frames sent"]
    #[inline(always)]
    pub const fn frames(&self) -> &Frames {
        &self.frames
    }
    #[doc = "0x30 - COMMIT writes not queued (bad length or checksum offsets)"]
    #[inline(always)]
    pub const fn bad_commit(&self) -> &BadCommit {
        &self.bad_commit
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "SEL (rw) register accessor: Ring selection: the registers below act on that port's ring\n\nYou can [`read`](crate::Reg::read) this register and get [`sel::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sel::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sel`] module"]
#[doc(alias = "SEL")]
pub type Sel = crate::Reg<sel::SelSpec>;
#[doc = "Ring selection: the registers below act on that port's ring"]
pub mod sel;
#[doc = "PROD (r) register accessor: Producer index (modulo 2*SLOTS)\n\nYou can [`read`](crate::Reg::read) this register and get [`prod::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@prod`] module"]
#[doc(alias = "PROD")]
pub type Prod = crate::Reg<prod::ProdSpec>;
#[doc = "Producer index (modulo 2*SLOTS)"]
pub mod prod;
#[doc = "CONS (r) register accessor: Consumer index (modulo 2*SLOTS)\n\nYou can [`read`](crate::Reg::read) this register and get [`cons::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@cons`] module"]
#[doc(alias = "CONS")]
pub type Cons = crate::Reg<cons::ConsSpec>;
#[doc = "Consumer index (modulo 2*SLOTS)"]
pub mod cons;
#[doc = "PARAMS (r) register accessor: Inject ring build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@params`] module"]
#[doc(alias = "PARAMS")]
pub type Params = crate::Reg<params::ParamsSpec>;
#[doc = "Inject ring build parameters"]
pub mod params;
#[doc = "WR_PTR (rw) register accessor: Write pointer for WR_DATA in slot PROD mod SLOTS\n\nYou can [`read`](crate::Reg::read) this register and get [`wr_ptr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`wr_ptr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@wr_ptr`] module"]
#[doc(alias = "WR_PTR")]
pub type WrPtr = crate::Reg<wr_ptr::WrPtrSpec>;
#[doc = "Write pointer for WR_DATA in slot PROD mod SLOTS"]
pub mod wr_ptr;
#[doc = "WR_DATA (w) register accessor: Writes a frame word at WR_PTR, then WR_PTR += 1 (bytes little-endian)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`wr_data::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@wr_data`] module"]
#[doc(alias = "WR_DATA")]
pub type WrData = crate::Reg<wr_data::WrDataSpec>;
#[doc = "Writes a frame word at WR_PTR, then WR_PTR += 1 (bytes little-endian)"]
pub mod wr_data;
#[doc = "COMMIT_LEN (rw) register accessor: Frame length and checksum offload for COMMIT\n\nYou can [`read`](crate::Reg::read) this register and get [`commit_len::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`commit_len::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@commit_len`] module"]
#[doc(alias = "COMMIT_LEN")]
pub type CommitLen = crate::Reg<commit_len::CommitLenSpec>;
#[doc = "Frame length and checksum offload for COMMIT"]
pub mod commit_len;
#[doc = "COMMIT_OFF (rw) register accessor: Header offsets for checksum offload\n\nYou can [`read`](crate::Reg::read) this register and get [`commit_off::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`commit_off::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@commit_off`] module"]
#[doc(alias = "COMMIT_OFF")]
pub type CommitOff = crate::Reg<commit_off::CommitOffSpec>;
#[doc = "Header offsets for checksum offload"]
pub mod commit_off;
#[doc = "COMMIT (w) register accessor: Queues the frame with COMMIT_LEN and COMMIT_OFF; WR_PTR returns to 0\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`commit::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@commit`] module"]
#[doc(alias = "COMMIT")]
pub type Commit = crate::Reg<commit::CommitSpec>;
#[doc = "Queues the frame with COMMIT_LEN and COMMIT_OFF; WR_PTR returns to 0"]
pub mod commit;
#[doc = "STATUS (r) register accessor: Inject ring status\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@status`] module"]
#[doc(alias = "STATUS")]
pub type Status = crate::Reg<status::StatusSpec>;
#[doc = "Inject ring status"]
pub mod status;
#[doc = "FRAMES (r) register accessor: Frames sent\n\nYou can [`read`](crate::Reg::read) this register and get [`frames::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@frames`] module"]
#[doc(alias = "FRAMES")]
pub type Frames = crate::Reg<frames::FramesSpec>;
#[doc = "Frames sent"]
pub mod frames;
#[doc = "BAD_COMMIT (r) register accessor: COMMIT writes not queued (bad length or checksum offsets)\n\nYou can [`read`](crate::Reg::read) this register and get [`bad_commit::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@bad_commit`] module"]
#[doc(alias = "BAD_COMMIT")]
pub type BadCommit = crate::Reg<bad_commit::BadCommitSpec>;
#[doc = "COMMIT writes not queued (bad length or checksum offsets)"]
pub mod bad_commit;
