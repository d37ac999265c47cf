#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    prod: Prod,
    cons: Cons,
    params: Params,
    rd_ptr: RdPtr,
    rd_data: RdData,
    frames: Frames,
    drop_full: DropFull,
    drop_long: DropLong,
    bad_cons: BadCons,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Producer index (modulo 2*SLOTS)"]
    #[inline(always)]
    pub const fn prod(&self) -> &Prod {
        &self.prod
    }
    #[doc = "0x08 - Consumer index (modulo 2*SLOTS); write the new consumer index to free slots"]
    #[inline(always)]
    pub const fn cons(&self) -> &Cons {
        &self.cons
    }
    #[doc = "0x0c - Punt ring build parameters"]
    #[inline(always)]
    pub const fn params(&self) -> &Params {
        &self.params
    }
    #[doc = "0x10 - Read pointer for RD_DATA"]
    #[inline(always)]
    pub const fn rd_ptr(&self) -> &RdPtr {
        &self.rd_ptr
    }
    #[doc = "0x14 - Word at RD_PTR; each read advances RD_PTR.WORD"]
    #[inline(always)]
    pub const fn rd_data(&self) -> &RdData {
        &self.rd_data
    }
    #[doc = "0x18 - Frames queued"]
    #[inline(always)]
    pub const fn frames(&self) -> &Frames {
        &self.frames
    }
    #[doc = "0x1c - Frames dropped: ring full"]
    #[inline(always)]
    pub const fn drop_full(&self) -> &DropFull {
        &self.drop_full
    }
    #[doc = "0x20 - Frames dropped: longer than a slot"]
    #[inline(always)]
    pub const fn drop_long(&self) -> &DropLong {
        &self.drop_long
    }
    #[doc = "0x24 - CONS writes ignored (value outside the current CONS..PROD range)"]
    #[inline(always)]
    pub const fn bad_cons(&self) -> &BadCons {
        &self.bad_cons
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "PROD (r) register accessor: Producer index (modulo 2*SLOTS)\n\nYou can [`read`](crate::Reg::read) this register and get [`prod::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@prod`] module"]
#[doc(alias = "PROD")]
pub type Prod = crate::Reg<prod::ProdSpec>;
#[doc = "Producer index (modulo 2*SLOTS)"]
pub mod prod;
#[doc = "CONS (rw) register accessor: Consumer index (modulo 2*SLOTS); write the new consumer index to free slots\n\nYou can [`read`](crate::Reg::read) this register and get [`cons::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cons::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@cons`] module"]
#[doc(alias = "CONS")]
pub type Cons = crate::Reg<cons::ConsSpec>;
#[doc = "Consumer index (modulo 2*SLOTS); write the new consumer index to free slots"]
pub mod cons;
#[doc = "PARAMS (r) register accessor: Punt ring build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@params`] module"]
#[doc(alias = "PARAMS")]
pub type Params = crate::Reg<params::ParamsSpec>;
#[doc = "Punt ring build parameters"]
pub mod params;
#[doc = "RD_PTR (rw) register accessor: Read pointer for RD_DATA\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_ptr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rd_ptr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rd_ptr`] module"]
#[doc(alias = "RD_PTR")]
pub type RdPtr = crate::Reg<rd_ptr::RdPtrSpec>;
#[doc = "Read pointer for RD_DATA"]
pub mod rd_ptr;
#[doc = "RD_DATA (r) register accessor: Word at RD_PTR; each read advances RD_PTR.WORD\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_data::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\n<div class=\"warning\">The register is <b>modified</b> in some way after a read operation.</div>\n\nFor information about available fields see [`mod@rd_data`] module"]
#[doc(alias = "RD_DATA")]
pub type RdData = crate::Reg<rd_data::RdDataSpec>;
#[doc = "Word at RD_PTR; each read advances RD_PTR.WORD"]
pub mod rd_data;
#[doc = "FRAMES (r) register accessor: Frames queued\n\nYou can [`read`](crate::Reg::read) this register and get [`frames::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@frames`] module"]
#[doc(alias = "FRAMES")]
pub type Frames = crate::Reg<frames::FramesSpec>;
#[doc = "Frames queued"]
pub mod frames;
#[doc = "DROP_FULL (r) register accessor: Frames dropped: ring full\n\nYou can [`read`](crate::Reg::read) this register and get [`drop_full::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@drop_full`] module"]
#[doc(alias = "DROP_FULL")]
pub type DropFull = crate::Reg<drop_full::DropFullSpec>;
#[doc = "Frames dropped: ring full"]
pub mod drop_full;
#[doc = "DROP_LONG (r) register accessor: Frames dropped: longer than a slot\n\nYou can [`read`](crate::Reg::read) this register and get [`drop_long::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@drop_long`] module"]
#[doc(alias = "DROP_LONG")]
pub type DropLong = crate::Reg<drop_long::DropLongSpec>;
#[doc = "Frames dropped: longer than a slot"]
pub mod drop_long;
#[doc = "BAD_CONS (r) register accessor: CONS writes ignored (value outside the current CONS..PROD range)\n\nYou can [`read`](crate::Reg::read) this register and get [`bad_cons::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@bad_cons`] module"]
#[doc(alias = "BAD_CONS")]
pub type BadCons = crate::Reg<bad_cons::BadConsSpec>;
#[doc = "CONS writes ignored (value outside the current CONS..PROD range)"]
pub mod bad_cons;
