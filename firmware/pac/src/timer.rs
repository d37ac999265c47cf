#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    count_lo: CountLo,
    count_hi: CountHi,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Counter bits 31:0; reading it latches bits 63:32 into COUNT_HI"]
    #[inline(always)]
    pub const fn count_lo(&self) -> &CountLo {
        &self.count_lo
    }
    #[doc = "0x08 - Counter bits 63:32 latched by the last COUNT_LO read of the same bus master"]
    #[inline(always)]
    pub const fn count_hi(&self) -> &CountHi {
        &self.count_hi
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "COUNT_LO (r) register accessor: Counter bits 31:0; reading it latches bits 63:32 into COUNT_HI\n\nYou can [`read`](crate::Reg::read) this register and get [`count_lo::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@count_lo`] module"]
#[doc(alias = "COUNT_LO")]
pub type CountLo = crate::Reg<count_lo::CountLoSpec>;
#[doc = "Counter bits 31:0; reading it latches bits 63:32 into COUNT_HI"]
pub mod count_lo;
#[doc = "COUNT_HI (r) register accessor: Counter bits 63:32 latched by the last COUNT_LO read of the same bus master\n\nYou can [`read`](crate::Reg::read) this register and get [`count_hi::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@count_hi`] module"]
#[doc(alias = "COUNT_HI")]
pub type CountHi = crate::Reg<count_hi::CountHiSpec>;
#[doc = "Counter bits 63:32 latched by the last COUNT_LO read of the same bus master"]
pub mod count_hi;
