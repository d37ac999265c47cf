#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    level: Level,
    head_info: HeadInfo,
    params: Params,
    head: [Head; 4],
    pop: Pop,
    pushed: Pushed,
    overflow: Overflow,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Records in the queue"]
    #[inline(always)]
    pub const fn level(&self) -> &Level {
        &self.level
    }
    #[doc = "0x08 - Head record information"]
    #[inline(always)]
    pub const fn head_info(&self) -> &HeadInfo {
        &self.head_info
    }
    #[doc = "0x0c - Event queue build parameters"]
    #[inline(always)]
    pub const fn params(&self) -> &Params {
        &self.params
    }
    #[doc = "0x10..0x20 - Head record words (word 0 bits 7:0 = type, docs/datapath.md)"]
    #[inline(always)]
    pub const fn head(&self, n: usize) -> &Head {
        &self.head[n]
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x10..0x20 - Head record words (word 0 bits 7:0 = type, docs/datapath.md)"]
    #[inline(always)]
    pub fn head_iter(&self) -> impl Iterator<Item = &Head> {
        self.head.iter()
    }
    #[doc = "0x20 - Any write removes the head record"]
    #[inline(always)]
    pub const fn pop(&self) -> &Pop {
        &self.pop
    }
    #[doc = "0x24 - Records queued"]
    #[inline(always)]
    pub const fn pushed(&self) -> &Pushed {
        &self.pushed
    }
    #[doc = "0x28 - Records lost: queue full"]
    #[inline(always)]
    pub const fn overflow(&self) -> &Overflow {
        &self.overflow
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "LEVEL (r) register accessor: Records in the queue\n\nYou can [`read`](crate::Reg::read) this register and get [`level::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@level`] module"]
#[doc(alias = "LEVEL")]
pub type Level = crate::Reg<level::LevelSpec>;
#[doc = "Records in the queue"]
pub mod level;
#[doc = "HEAD_INFO (r) register accessor: Head record information\n\nYou can [`read`](crate::Reg::read) this register and get [`head_info::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_info`] module"]
#[doc(alias = "HEAD_INFO")]
pub type HeadInfo = crate::Reg<head_info::HeadInfoSpec>;
#[doc = "Head record information"]
pub mod head_info;
#[doc = "PARAMS (r) register accessor: Event queue build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@params`] module"]
#[doc(alias = "PARAMS")]
pub type Params = crate::Reg<params::ParamsSpec>;
#[doc = "Event queue build parameters"]
pub mod params;
#[doc = "HEAD (r) register accessor: Head record words (word 0 bits 7:0 = type, docs/datapath.md)\n\nYou can [`read`](crate::Reg::read) this register and get [`head::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head`] module"]
#[doc(alias = "HEAD")]
pub type Head = crate::Reg<head::HeadSpec>;
#[doc = "Head record words (word 0 bits 7:0 = type, docs/datapath.md)"]
pub mod head;
#[doc = "POP (w) register accessor: Any write removes the head record\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`pop::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@pop`] module"]
#[doc(alias = "POP")]
pub type Pop = crate::Reg<pop::PopSpec>;
#[doc = "Any write removes the head record"]
pub mod pop;
#[doc = "PUSHED (r) register accessor: Records queued\n\nYou can [`read`](crate::Reg::read) this register and get [`pushed::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@pushed`] module"]
#[doc(alias = "PUSHED")]
pub type Pushed = crate::Reg<pushed::PushedSpec>;
#[doc = "Records queued"]
pub mod pushed;
#[doc = "OVERFLOW (r) register accessor: Records lost: queue full\n\nYou can [`read`](crate::Reg::read) this register and get [`overflow::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@overflow`] module"]
#[doc(alias = "OVERFLOW")]
pub type Overflow = crate::Reg<overflow::OverflowSpec>;
#[doc = "Records lost: queue full"]
pub mod overflow;
