#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    magic: Magic,
    version: Version,
    caps: Caps,
    core: Core,
    clk_hz: ClkHz,
    imem_size: ImemSize,
    dmem_size: DmemSize,
    imem_window: ImemWindow,
    dmem_window: DmemWindow,
    build_id: BuildId,
}
impl RegisterBlock {
    #[doc = "0x00 - Card magic, ASCII \"SNIC\""]
    #[inline(always)]
    pub const fn magic(&self) -> &Magic {
        &self.magic
    }
    #[doc = "0x04 - Register-map version; the host refuses a different major version"]
    #[inline(always)]
    pub const fn version(&self) -> &Version {
        &self.version
    }
    #[doc = "0x08 - Capabilities present in this gateware build"]
    #[inline(always)]
    pub const fn caps(&self) -> &Caps {
        &self.caps
    }
    #[doc = "0x0c - Soft core in this build"]
    #[inline(always)]
    pub const fn core(&self) -> &Core {
        &self.core
    }
    #[doc = "0x10 - Core clock frequency in Hz (timer tick rate)"]
    #[inline(always)]
    pub const fn clk_hz(&self) -> &ClkHz {
        &self.clk_hz
    }
    #[doc = "0x14 - Instruction memory size in bytes (core address 0x00000000)"]
    #[inline(always)]
    pub const fn imem_size(&self) -> &ImemSize {
        &self.imem_size
    }
    #[doc = "0x18 - Data memory size in bytes (core address 0x10000000)"]
    #[inline(always)]
    pub const fn dmem_size(&self) -> &DmemSize {
        &self.dmem_size
    }
    #[doc = "0x1c - BAR0 offset of the instruction-memory window (host writable while the core is held in reset)"]
    #[inline(always)]
    pub const fn imem_window(&self) -> &ImemWindow {
        &self.imem_window
    }
    #[doc = "0x20 - BAR0 offset of the data-memory window"]
    #[inline(always)]
    pub const fn dmem_window(&self) -> &DmemWindow {
        &self.dmem_window
    }
    #[doc = "0x24 - Gateware build identifier"]
    #[inline(always)]
    pub const fn build_id(&self) -> &BuildId {
        &self.build_id
    }
}
#[doc = "MAGIC (r) register accessor: Card magic, ASCII \"SNIC\"\n\nYou can [`read`](crate::Reg::read) this register and get [`magic::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@magic`] module"]
#[doc(alias = "MAGIC")]
pub type Magic = crate::Reg<magic::MagicSpec>;
#[doc = "Card magic, ASCII \"SNIC\""]
pub mod magic;
#[doc = "VERSION (r) register accessor: Register-map version; the host refuses a different major version\n\nYou can [`read`](crate::Reg::read) this register and get [`version::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@version`] module"]
#[doc(alias = "VERSION")]
pub type Version = crate::Reg<version::VersionSpec>;
#[doc = "Register-map version; the host refuses a different major version"]
pub mod version;
#[doc = "CAPS (r) register accessor: Capabilities present in this gateware build\n\nYou can [`read`](crate::Reg::read) this register and get [`caps::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@caps`] module"]
#[doc(alias = "CAPS")]
pub type Caps = crate::Reg<caps::CapsSpec>;
#[doc = "Capabilities present in this gateware build"]
pub mod caps;
#[doc = "CORE (r) register accessor: Soft core in this build\n\nYou can [`read`](crate::Reg::read) this register and get [`core::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@core`] module"]
#[doc(alias = "CORE")]
pub type Core = crate::Reg<core::CoreSpec>;
#[doc = "Soft core in this build"]
pub mod core;
#[doc = "CLK_HZ (r) register accessor: Core clock frequency in Hz (timer tick rate)\n\nYou can [`read`](crate::Reg::read) this register and get [`clk_hz::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@clk_hz`] module"]
#[doc(alias = "CLK_HZ")]
pub type ClkHz = crate::Reg<clk_hz::ClkHzSpec>;
#[doc = "Core clock frequency in Hz (timer tick rate)"]
pub mod clk_hz;
#[doc = "IMEM_SIZE (r) register accessor: Instruction memory size in bytes (core address 0x00000000)\n\nYou can [`read`](crate::Reg::read) this register and get [`imem_size::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@imem_size`] module"]
#[doc(alias = "IMEM_SIZE")]
pub type ImemSize = crate::Reg<imem_size::ImemSizeSpec>;
#[doc = "Instruction memory size in bytes (core address 0x00000000)"]
pub mod imem_size;
#[doc = "DMEM_SIZE (r) register accessor: Data memory size in bytes (core address 0x10000000)\n\nYou can [`read`](crate::Reg::read) this register and get [`dmem_size::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@dmem_size`] module"]
#[doc(alias = "DMEM_SIZE")]
pub type DmemSize = crate::Reg<dmem_size::DmemSizeSpec>;
#[doc = "Data memory size in bytes (core address 0x10000000)"]
pub mod dmem_size;
#[doc = "IMEM_WINDOW (r) register accessor: BAR0 offset of the instruction-memory window (host writable while the core is held in reset)\n\nYou can [`read`](crate::Reg::read) this register and get [`imem_window::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@imem_window`] module"]
#[doc(alias = "IMEM_WINDOW")]
pub type ImemWindow = crate::Reg<imem_window::ImemWindowSpec>;
#[doc = "BAR0 offset of the instruction-memory window (host writable while the core is held in reset)"]
pub mod imem_window;
#[doc = "DMEM_WINDOW (r) register accessor: BAR0 offset of the data-memory window\n\nYou can [`read`](crate::Reg::read) this register and get [`dmem_window::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@dmem_window`] module"]
#[doc(alias = "DMEM_WINDOW")]
pub type DmemWindow = crate::Reg<dmem_window::DmemWindowSpec>;
#[doc = "BAR0 offset of the data-memory window"]
pub mod dmem_window;
#[doc = "BUILD_ID (r) register accessor: Gateware build identifier\n\nYou can [`read`](crate::Reg::read) this register and get [`build_id::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@build_id`] module"]
#[doc(alias = "BUILD_ID")]
pub type BuildId = crate::Reg<build_id::BuildIdSpec>;
#[doc = "Gateware build identifier"]
pub mod build_id;
