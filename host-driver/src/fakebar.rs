//! A fake BAR for the driver's unit tests (test builds only).

use crate::bar::{check_access, Bar, BarError};
use crate::regs;

/// A fake BAR for unit tests of the driver logic: plain memory preset with the
/// registers' reset values. It is not a card model (no core, no side effects).
pub(crate) struct FakeBar {
    pub mem: Vec<u32>,
}

impl FakeBar {
    pub fn with_reset_values() -> FakeBar {
        let mut mem = vec![0u32; (1 << 20) / 4];
        let mut set = |off: u64, v: u32| mem[off as usize / 4] = v;
        set(regs::id::MAGIC, regs::id::magic::RESET);
        set(regs::id::VERSION, regs::id::version::RESET);
        set(regs::id::CAPS, regs::id::caps::RESET);
        set(regs::id::CORE, regs::id::core::RESET);
        set(regs::id::CLK_HZ, regs::id::clk_hz::RESET);
        set(regs::id::IMEM_SIZE, regs::id::imem_size::RESET);
        set(regs::id::DMEM_SIZE, regs::id::dmem_size::RESET);
        set(regs::id::IMEM_WINDOW, regs::id::imem_window::RESET);
        set(regs::id::DMEM_WINDOW, regs::id::dmem_window::RESET);
        set(regs::ctrl::BLKID, regs::ctrl::blkid::RESET);
        set(regs::timer::BLKID, regs::timer::blkid::RESET);
        set(regs::mbox::BLKID, regs::mbox::blkid::RESET);
        set(regs::log::BLKID, regs::log::blkid::RESET);
        set(regs::dp::BLKID, regs::dp::blkid::RESET);
        set(regs::flow::BLKID, regs::flow::blkid::RESET);
        set(regs::l7::BLKID, regs::l7::blkid::RESET);
        set(regs::punt::BLKID, regs::punt::blkid::RESET);
        set(regs::inject::BLKID, regs::inject::blkid::RESET);
        set(regs::evq::BLKID, regs::evq::blkid::RESET);
        set(regs::stats::BLKID, regs::stats::blkid::RESET);
        set(regs::log::SIZE, regs::log::size::RESET);
        set(regs::ctrl::CORE_STATUS, regs::ctrl::core_status::RESET);
        FakeBar { mem }
    }

    /// [`FakeBar::with_reset_values`] with a splicer's PARAMS registers set (64-bit data
    /// path, 1024 flow slots, 16 punt and 8 inject slots, 512 counters).
    pub fn with_datapath_params() -> FakeBar {
        let mut b = FakeBar::with_reset_values();
        b.set(regs::dp::FLOW_SLOTS, 1024);
        b.set(regs::dp::MAX_FRAME, 2048);
        b.set(regs::dp::PARAMS, 34 << 16 | 64);
        b.set(regs::l7::PARAMS, 64 << 16 | 64);
        b.set(regs::punt::PARAMS, 2048 << 16 | 16);
        b.set(regs::inject::PARAMS, 2048 << 16 | 8);
        b.set(regs::evq::PARAMS, 64);
        b.set(regs::stats::PARAMS, 512);
        b.set(regs::stats::STATUS, 1);
        b
    }

    pub fn set(&mut self, off: u64, v: u32) {
        self.mem[off as usize / 4] = v;
    }
}

impl Bar for FakeBar {
    fn size(&self) -> u64 {
        self.mem.len() as u64 * 4
    }
    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        check_access(offset, 4, self.size())?;
        Ok(self.mem[offset as usize / 4])
    }
    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        check_access(offset, 4, self.size())?;
        self.mem[offset as usize / 4] = value;
        Ok(())
    }
    fn describe(&self) -> String {
        "fake BAR (unit test)".into()
    }
}
