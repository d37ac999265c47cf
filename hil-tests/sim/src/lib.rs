//! Simulated SpliceNIC card: the Verilated `card_top` run in-process.
//!
//! [`SimCard`] implements [`splicenic_driver::Bar`], so the host driver talks to it exactly
//! as to a real card. Clock, AXI4-Lite handshakes and Ethernet port queues run in C++
//! (many cycles per call). [`server`] puts a card behind the Unix-socket protocol of
//! docs/interfaces.md for `nicctl sim start`, optionally with its Ethernet ports bridged to
//! Linux TAP devices ([`tap`]).
#![deny(clippy::undocumented_unsafe_blocks)]

mod ffi;
pub mod prereq;
pub mod server;
pub mod tap;

use std::ffi::{c_void, CString};
use std::fmt;
use std::path::PathBuf;
use std::ptr::NonNull;
use std::time::Duration;

use splicenic_driver::bar::check_access;
use splicenic_driver::{Bar, BarError};

/// BAR0 size of the card.
pub const BAR_SIZE: u64 = 1 << 20;
/// Core clock of the card (ID.CLK_HZ).
pub const CLK_HZ: u64 = splicenic_layout::CLK_HZ as u64;

/// Soft core of the simulated gateware build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cpu {
    /// PicoRV32 RV32IMC (default build).
    #[default]
    PicoRv32,
    /// VexRiscv RV32IMAC with caches (needs the `vexriscv` feature).
    VexRiscv,
}

impl Cpu {
    fn code(self) -> i32 {
        match self {
            Cpu::PicoRv32 => 0,
            Cpu::VexRiscv => 1,
        }
    }
}

impl fmt::Display for Cpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cpu::PicoRv32 => "PicoRV32",
            Cpu::VexRiscv => "VexRiscv",
        })
    }
}

/// How to build a simulated card.
#[derive(Debug, Clone, Default)]
pub struct SimConfig {
    pub cpu: Cpu,
    /// Write an FST waveform of the whole run to this file.
    pub trace: Option<PathBuf>,
}

/// Ethernet port of the card.
pub use splicenic_layout::Port;

/// The model's port number of a port.
fn port_index(p: Port) -> i32 {
    i32::from(p.raw())
}

/// Errors of the simulated card.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The model for this soft core was not compiled in.
    #[error("no {0} model in this build: enable the `vexriscv` feature of splicenic-sim")]
    CpuNotBuilt(Cpu),
    /// The trace file cannot be created.
    #[error("cannot create trace file {path}: {source}")]
    Trace {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The model could not be constructed.
    #[error("could not create the {0} card model")]
    Create(Cpu),
    /// An Ethernet frame that cannot be sent.
    #[error("cannot send an empty Ethernet frame")]
    EmptyFrame,
    /// A register access failed.
    #[error(transparent)]
    Bar(#[from] BarError),
    /// Socket or file failure in the server.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    /// Another simulated card already serves this socket path.
    #[error("a simulated card is already serving {0}")]
    AlreadyServing(PathBuf),
    /// A TAP device for a bridged port cannot be used.
    #[error(transparent)]
    Tap(#[from] tap::TapError),
    /// Both ports were asked to bridge to the same TAP device.
    #[error("the client and server ports cannot share the TAP device {0}")]
    SameTap(String),
}

/// The Verilated card top with its host port and Ethernet queues.
pub struct SimCard {
    raw: NonNull<c_void>,
    cpu: Cpu,
}

// SAFETY: the model is owned exclusively by this value (no aliasing handle exists outside
// it) and every access goes through `&mut self` or `&self` on the owning thread, so moving
// it to another thread is sound. Each card has its own VerilatedContext and no thread
// pool (no --threads), so the C++ side keeps no thread-affine state between calls.
unsafe impl Send for SimCard {}

impl SimCard {
    /// Build and reset a card. The soft core stays held in reset (CTRL.CORE_CTRL.RESET = 1).
    pub fn new(cfg: SimConfig) -> Result<SimCard, SimError> {
        // SAFETY: plain query without pointers.
        if unsafe { ffi::snic_sim_has_cpu(cfg.cpu.code()) } == 0 {
            return Err(SimError::CpuNotBuilt(cfg.cpu));
        }
        let trace = match &cfg.trace {
            Some(path) => {
                // Create the file here so a bad path is an error, not an abort in C++.
                std::fs::File::create(path).map_err(|source| SimError::Trace {
                    path: path.clone(),
                    source,
                })?;
                let s = path
                    .to_str()
                    .and_then(|s| CString::new(s).ok())
                    .ok_or_else(|| SimError::Trace {
                        path: path.clone(),
                        source: std::io::Error::new(
                            std::io::ErrorKind::InvalidInput,
                            "path is not valid UTF-8 or contains NUL",
                        ),
                    })?;
                Some(s)
            }
            None => None,
        };
        let tp = trace.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        // SAFETY: `tp` is null or a NUL-terminated string that outlives the call; the
        // shim copies what it needs.
        let raw = unsafe { ffi::snic_sim_new(cfg.cpu.code(), tp) };
        let raw = NonNull::new(raw).ok_or(SimError::Create(cfg.cpu))?;
        Ok(SimCard { raw, cpu: cfg.cpu })
    }

    /// Soft core of this card.
    pub fn cpu(&self) -> Cpu {
        self.cpu
    }

    /// Run the clock for `cycles` cycles.
    pub fn tick(&mut self, cycles: u64) {
        // SAFETY: `raw` is a live model owned by `self`.
        unsafe { ffi::snic_sim_tick(self.raw.as_ptr(), cycles) }
    }

    /// Cycles simulated since the end of power-on reset.
    pub fn cycles(&self) -> u64 {
        // SAFETY: `raw` is a live model owned by `self`.
        unsafe { ffi::snic_sim_cycles(self.raw.as_ptr()) }
    }

    /// Core clock frequency in Hz.
    pub fn clk_hz() -> u64 {
        CLK_HZ
    }

    /// Queue a frame for an RX port; the card takes it beat by beat as the clock runs.
    pub fn push_frame(&mut self, port: Port, frame: &[u8]) -> Result<(), SimError> {
        if frame.is_empty() {
            return Err(SimError::EmptyFrame);
        }
        // SAFETY: `frame` is a valid slice for the call; the shim copies it.
        let rc = unsafe {
            ffi::snic_sim_push_frame(
                self.raw.as_ptr(),
                port_index(port),
                frame.as_ptr(),
                frame.len(),
            )
        };
        debug_assert_eq!(rc, ffi::SNIC_OK);
        Ok(())
    }

    /// Frames pushed to an RX port that the card has not taken in full yet.
    pub fn rx_pending(&self, port: Port) -> usize {
        // SAFETY: `raw` is a live model owned by `self`.
        unsafe { ffi::snic_sim_rx_pending(self.raw.as_ptr(), port_index(port)) }
    }

    /// Take the oldest frame the card sent on a TX port.
    pub fn pop_frame(&mut self, port: Port) -> Option<Vec<u8>> {
        // SAFETY: `raw` is a live model owned by `self`.
        let len = unsafe { ffi::snic_sim_tx_len(self.raw.as_ptr(), port_index(port)) };
        if len == ffi::SNIC_EMPTY || len < 0 {
            return None;
        }
        let mut buf = vec![0u8; len as usize];
        // SAFETY: `buf` has room for `len` bytes, the length of the frame being popped.
        let n = unsafe {
            ffi::snic_sim_pop_frame(
                self.raw.as_ptr(),
                port_index(port),
                buf.as_mut_ptr(),
                buf.len(),
            )
        };
        (n == len).then_some(buf)
    }

    fn bus_timeout(&self, what: &str, offset: u64) -> BarError {
        BarError::Backend(format!(
            "simulated {what} at BAR offset {offset:#x} got no AXI4-Lite response (cycle {})",
            self.cycles()
        ))
    }
}

impl Drop for SimCard {
    fn drop(&mut self) {
        // SAFETY: `raw` came from snic_sim_new and is freed exactly once, here; this also
        // closes the trace file.
        unsafe { ffi::snic_sim_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for SimCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SimCard")
            .field("cpu", &self.cpu)
            .field("cycles", &self.cycles())
            .finish()
    }
}

impl Bar for SimCard {
    fn size(&self) -> u64 {
        BAR_SIZE
    }

    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        check_access(offset, 4, BAR_SIZE)?;
        let mut v = 0u32;
        // SAFETY: `v` is a valid u32 to write; `raw` is live.
        let rc = unsafe { ffi::snic_sim_read32(self.raw.as_ptr(), offset as u32, &mut v) };
        if rc != ffi::SNIC_OK {
            return Err(self.bus_timeout("read", offset));
        }
        Ok(v)
    }

    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        check_access(offset, 4, BAR_SIZE)?;
        // SAFETY: `raw` is live.
        let rc = unsafe { ffi::snic_sim_write32(self.raw.as_ptr(), offset as u32, value) };
        if rc != ffi::SNIC_OK {
            return Err(self.bus_timeout("write", offset));
        }
        Ok(())
    }

    fn read_block(&mut self, offset: u64, out: &mut [u32]) -> Result<(), BarError> {
        check_access(offset, 4 * out.len() as u64, BAR_SIZE)?;
        // SAFETY: `out` is valid for `out.len()` u32 writes; `raw` is live.
        let done = unsafe {
            ffi::snic_sim_read_block(
                self.raw.as_ptr(),
                offset as u32,
                out.as_mut_ptr(),
                out.len(),
            )
        };
        if done != out.len() {
            return Err(self.bus_timeout("read", offset + 4 * done as u64));
        }
        Ok(())
    }

    fn write_block(&mut self, offset: u64, data: &[u32]) -> Result<(), BarError> {
        check_access(offset, 4 * data.len() as u64, BAR_SIZE)?;
        // SAFETY: `data` is valid for `data.len()` u32 reads; `raw` is live.
        let done = unsafe {
            ffi::snic_sim_write_block(self.raw.as_ptr(), offset as u32, data.as_ptr(), data.len())
        };
        if done != data.len() {
            return Err(self.bus_timeout("write", offset + 4 * done as u64));
        }
        Ok(())
    }

    fn pause(&mut self, d: Duration) -> Result<(), BarError> {
        let cycles = d.as_nanos().saturating_mul(u128::from(CLK_HZ)) / 1_000_000_000;
        self.tick(u64::try_from(cycles).unwrap_or(u64::MAX));
        Ok(())
    }

    fn describe(&self) -> String {
        format!("simulated card (in-process, {})", self.cpu)
    }
}
