#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    size: Size,
    wptr: Wptr,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Ring size in bytes (LOGBUF)"]
    #[inline(always)]
    pub const fn size(&self) -> &Size {
        &self.size
    }
    #[doc = "0x08 - Total bytes the firmware has written (wraps at 2^32); byte n is at LOGBUF offset n mod SIZE. Cleared when the core is put in reset"]
    #[inline(always)]
    pub const fn wptr(&self) -> &Wptr {
        &self.wptr
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "SIZE (r) register accessor: Ring size in bytes (LOGBUF)\n\nYou can [`read`](crate::Reg::read) this register and get [`size::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@size`] module"]
#[doc(alias = "SIZE")]
pub type Size = crate::Reg<size::SizeSpec>;
#[doc = "Ring size in bytes (LOGBUF)"]
pub mod size;
#[doc = "WPTR (rw) register accessor: Total bytes the firmware has written (wraps at 2^32); byte n is at LOGBUF offset n mod SIZE. Cleared when the core is put in reset\n\nYou can [`read`](crate::Reg::read) this register and get [`wptr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`wptr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@wptr`] module"]
#[doc(alias = "WPTR")]
pub type Wptr = crate::Reg<wptr::WptrSpec>;
#[doc = "Total bytes the firmware has written (wraps at 2^32); byte n is at LOGBUF offset n mod SIZE. Cleared when the core is put in reset"]
pub mod wptr;
