//! Test bench for the integrated splicer data path (`splice_datapath`): the Verilated
//! module at DATA_WIDTH 64 or 512, driven through its CSR bus and its two Ethernet ports.
//! CSR offsets are the card's (`splicenic_driver::regs`), so the same addresses reach this
//! block in the card top.
//!
//! [`testkit`] holds what the tests share: the card-style configuration, a spliced flow,
//! frames of that flow and the rewrite the fast path must produce.

use std::ffi::c_void;
use std::os::raw::{c_int, c_long};

mod ffi {
    use super::*;

    #[repr(C)]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct PortStats {
        pub rx_beats: u64,
        pub rx_first_cycle: u64,
        pub rx_last_cycle: u64,
        pub rx_frames: u64,
        pub tx_beats: u64,
        pub tx_first_cycle: u64,
        pub tx_last_cycle: u64,
        pub tx_frames: u64,
    }

    extern "C" {
        pub fn snic_dp_new(width: c_int) -> *mut c_void;
        pub fn snic_dp_free(dp: *mut c_void);
        pub fn snic_dp_tick(dp: *mut c_void, n: u64);
        pub fn snic_dp_cycles(dp: *const c_void) -> u64;
        pub fn snic_dp_read(dp: *mut c_void, addr: u32) -> u32;
        pub fn snic_dp_write(dp: *mut c_void, addr: u32, value: u32);
        pub fn snic_dp_push(
            dp: *mut c_void,
            port: c_int,
            data: *const u8,
            len: usize,
            err: c_int,
        ) -> c_long;
        pub fn snic_dp_rx_pending(dp: *const c_void, port: c_int) -> usize;
        pub fn snic_dp_tx_len(dp: *const c_void, port: c_int) -> c_long;
        pub fn snic_dp_tx_pop(
            dp: *mut c_void,
            port: c_int,
            buf: *mut u8,
            cap: usize,
            first_cycle: *mut u64,
        ) -> c_long;
        pub fn snic_dp_port_stats(dp: *const c_void, port: c_int, out: *mut PortStats);
        pub fn snic_dp_reset_stats(dp: *mut c_void);
        pub fn snic_dp_set_tx_stall(dp: *mut c_void, permille: u32);
        pub fn snic_dp_set_wire_pace(dp: *mut c_void, on: c_int);
    }
}

pub use ffi::PortStats;

/// Ethernet port of the data path (client side index 0, server side index 1).
pub use splicenic_layout::Port;

impl PortStats {
    /// Accepted RX beats per cycle from the first to the last accepted beat.
    pub fn rx_beats_per_cycle(&self) -> f64 {
        if self.rx_beats == 0 {
            return 0.0;
        }
        self.rx_beats as f64 / (self.rx_last_cycle - self.rx_first_cycle + 1) as f64
    }
    /// TX beats per cycle from the first to the last TX beat.
    pub fn tx_beats_per_cycle(&self) -> f64 {
        if self.tx_beats == 0 {
            return 0.0;
        }
        self.tx_beats as f64 / (self.tx_last_cycle - self.tx_first_cycle + 1) as f64
    }
}

/// A frame sent by a TX port, with the cycle its first beat left.
#[derive(Clone, Debug)]
pub struct TxFrame {
    pub data: Vec<u8>,
    pub first_cycle: u64,
}

/// The Verilated data path.
pub struct Datapath {
    raw: *mut c_void,
    width: u32,
}

// SAFETY: the model is only reached through `&mut self` (or `&self` for pure reads of
// counters), never shared between threads at once; each model has its own
// VerilatedContext, so moving it to another thread is sound.
unsafe impl Send for Datapath {}

impl Datapath {
    /// A fresh data path at DATA_WIDTH `width` (64 or 512), out of reset, with the flow
    /// table's and statistics' reset sweeps done.
    pub fn new(width: u32) -> Option<Datapath> {
        // SAFETY: plain constructor; returns null for an unsupported width.
        let raw = unsafe { ffi::snic_dp_new(width as c_int) };
        if raw.is_null() {
            return None;
        }
        let mut dp = Datapath { raw, width };
        dp.tick(1100);
        Some(dp)
    }

    /// DATA_WIDTH of the model.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Bytes per beat.
    pub fn beat_bytes(&self) -> usize {
        self.width as usize / 8
    }

    /// Run `n` clock cycles.
    pub fn tick(&mut self, n: u64) {
        // SAFETY: `raw` is a live model owned by self.
        unsafe { ffi::snic_dp_tick(self.raw, n) }
    }

    /// Cycles since reset.
    pub fn cycles(&self) -> u64 {
        // SAFETY: `raw` is a live model owned by self.
        unsafe { ffi::snic_dp_cycles(self.raw) }
    }

    /// CSR read (two cycles, like the card's bus).
    pub fn read(&mut self, addr: u32) -> u32 {
        // SAFETY: `raw` is a live model owned by self.
        unsafe { ffi::snic_dp_read(self.raw, addr) }
    }

    /// CSR write (two cycles).
    pub fn write(&mut self, addr: u32, value: u32) {
        // SAFETY: `raw` is a live model owned by self.
        unsafe { ffi::snic_dp_write(self.raw, addr, value) }
    }

    /// Queue a frame on an RX port (`err`: MAC error flag on its beats).
    pub fn push(&mut self, port: Port, frame: &[u8], err: bool) {
        assert!(!frame.is_empty(), "empty frame");
        // SAFETY: the pointer/length pair is a live slice; the shim copies it.
        let r = unsafe {
            ffi::snic_dp_push(
                self.raw,
                port as c_int,
                frame.as_ptr(),
                frame.len(),
                err as c_int,
            )
        };
        assert_eq!(r, 0);
    }

    /// Frames not yet fully accepted by an RX port.
    pub fn rx_pending(&self, port: Port) -> usize {
        // SAFETY: `raw` is a live model owned by self.
        unsafe { ffi::snic_dp_rx_pending(self.raw, port as c_int) }
    }

    /// Oldest frame a TX port sent.
    pub fn pop(&mut self, port: Port) -> Option<TxFrame> {
        // SAFETY: `raw` is a live model owned by self.
        let len = unsafe { ffi::snic_dp_tx_len(self.raw, port as c_int) };
        if len < 0 {
            return None;
        }
        let mut buf = vec![0u8; len as usize];
        let mut first = 0u64;
        // SAFETY: `buf` has room for `len` bytes, `first` is a valid out pointer.
        let n = unsafe {
            ffi::snic_dp_tx_pop(
                self.raw,
                port as c_int,
                buf.as_mut_ptr(),
                buf.len(),
                &mut first,
            )
        };
        assert_eq!(n, len);
        Some(TxFrame {
            data: buf,
            first_cycle: first,
        })
    }

    /// All frames a TX port sent so far.
    pub fn drain(&mut self, port: Port) -> Vec<TxFrame> {
        std::iter::from_fn(|| self.pop(port)).collect()
    }

    /// Beat and cycle counts of a port since the last `reset_stats`.
    pub fn port_stats(&self, port: Port) -> PortStats {
        let mut s = PortStats::default();
        // SAFETY: `s` is a valid out pointer of the shim's layout.
        unsafe { ffi::snic_dp_port_stats(self.raw, port as c_int, &mut s) };
        s
    }

    /// Zero the beat and cycle counts.
    pub fn reset_stats(&mut self) {
        // SAFETY: `raw` is a live model owned by self.
        unsafe { ffi::snic_dp_reset_stats(self.raw) }
    }

    /// Randomly deassert TX tready (per mille of cycles, both ports).
    pub fn set_tx_stall(&mut self, permille: u32) {
        // SAFETY: `raw` is a live model owned by self.
        unsafe { ffi::snic_dp_set_tx_stall(self.raw, permille) }
    }

    /// Pace both RX ports at wire rate (on) or push frames back to back (off, the default):
    /// a frame then starts no earlier than the wire time of the one before it (its bytes
    /// padded to 60, FCS 4, preamble 8, inter-frame gap 12) at one beat of
    /// [`Datapath::beat_bytes`] bytes per cycle.
    pub fn set_wire_pace(&mut self, on: bool) {
        // SAFETY: `raw` is a live model owned by self.
        unsafe { ffi::snic_dp_set_wire_pace(self.raw, on as c_int) }
    }

    /// Run until both RX queues are empty and the TX ports have been quiet for `quiet`
    /// cycles, at most `max` cycles. Returns false on the limit.
    pub fn settle(&mut self, quiet: u64, max: u64) -> bool {
        let start = self.cycles();
        let mut last_tx = (
            self.port_stats(Port::Client).tx_beats,
            self.port_stats(Port::Server).tx_beats,
        );
        let mut still = 0;
        while self.cycles() - start < max {
            self.tick(16);
            let tx = (
                self.port_stats(Port::Client).tx_beats,
                self.port_stats(Port::Server).tx_beats,
            );
            let idle = self.rx_pending(Port::Client) == 0 && self.rx_pending(Port::Server) == 0;
            if tx == last_tx && idle {
                still += 16;
                if still >= quiet {
                    return true;
                }
            } else {
                still = 0;
            }
            last_tx = tx;
        }
        false
    }
}

impl Drop for Datapath {
    fn drop(&mut self) {
        // SAFETY: `raw` came from snic_dp_new and is freed once.
        unsafe { ffi::snic_dp_free(self.raw) }
    }
}

pub mod engine;
pub mod params;
pub mod testkit;
