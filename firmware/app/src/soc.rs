//! SoC glue: register writes, the timer, the delay provider and the critical section.

use embedded_hal::delay::DelayNs;
use splicenic_pac::generic::{Reg, Resettable, Writable};

/// Writes a whole 32-bit register.
#[inline(always)]
pub fn write_reg<S>(reg: &Reg<S>, value: u32)
where
    S: Writable + Resettable + splicenic_pac::generic::RegisterSpec<Ux = u32>,
{
    // SAFETY: the register map (registers/splicenic.svd) has no write constraints: every
    // writable SoC register is a plain 32-bit word and accepts any value.
    reg.write(|w| unsafe { w.bits(value) });
}

/// Current value of the free-running 64-bit timer (TIMER.COUNT) in core clock cycles.
#[inline]
pub fn now() -> u64 {
    // SAFETY: COUNT_LO/COUNT_HI are read-only; reading them cannot race with other users.
    // Reading COUNT_LO latches bits 63:32 into COUNT_HI, so the pair is consistent, and the
    // firmware is single-threaded, so no other read can come in between.
    let timer = unsafe { splicenic_pac::Timer::steal() };
    let lo = timer.count_lo().read().bits();
    let hi = timer.count_hi().read().bits();
    u64::from(hi) << 32 | u64::from(lo)
}

/// `embedded_hal` delay provider on the SoC timer, for drivers that take a `DelayNs`.
pub struct TimerDelay {
    clk_hz: u32,
}

impl TimerDelay {
    /// A delay provider for a timer ticking at `clk_hz` (ID.CLK_HZ).
    pub fn new(clk_hz: u32) -> Self {
        Self { clk_hz }
    }

    /// Busy-waits for at least `cycles` timer ticks.
    pub fn delay_cycles(&mut self, cycles: u64) {
        let start = now();
        while now().wrapping_sub(start) < cycles {
            core::hint::spin_loop();
        }
    }
}

impl DelayNs for TimerDelay {
    fn delay_ns(&mut self, ns: u32) {
        // Rounded up: a delay is never shorter than asked for. Cannot overflow:
        // (2^32 - 1) * (2^32 - 1) < 2^64.
        let cycles = (u64::from(ns) * u64::from(self.clk_hz)).div_ceil(1_000_000_000);
        self.delay_cycles(cycles);
    }

    fn delay_us(&mut self, us: u32) {
        let cycles = (u64::from(us) * u64::from(self.clk_hz)).div_ceil(1_000_000);
        self.delay_cycles(cycles);
    }

    fn delay_ms(&mut self, ms: u32) {
        let cycles = (u64::from(ms) * u64::from(self.clk_hz)).div_ceil(1_000);
        self.delay_cycles(cycles);
    }
}

/// Critical section for this SoC: a no-op.
struct SingleHartNoInterrupts;
critical_section::set_impl!(SingleHartNoInterrupts);

// SAFETY: a critical section must exclude every other execution context that could touch the
// protected data. This SoC has exactly one hart, and nothing can preempt the firmware: the
// PicoRV32 build has no interrupt support at all (and no mstatus/mie CSRs to mask them with),
// a trap halts the core instead of entering a handler, and on cores that do have interrupts the
// firmware never enables them (mstatus.MIE stays at its reset value 0). Code running between
// acquire and release is therefore never interleaved with other code, so doing nothing is a
// correct acquire/release pair; nesting is trivially fine as well.
unsafe impl critical_section::Impl for SingleHartNoInterrupts {
    unsafe fn acquire() -> critical_section::RawRestoreState {}

    unsafe fn release(_restore: critical_section::RawRestoreState) {}
}

/// Core clock frequency (ID.CLK_HZ).
pub fn clk_hz() -> u32 {
    // SAFETY: ID is read-only; reading it cannot race with anything.
    let id = unsafe { splicenic_pac::Id::steal() };
    id.clk_hz().read().bits()
}
