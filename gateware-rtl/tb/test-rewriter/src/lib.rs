//! Test bench for the splice rewriter (`splice_rewriter.v`) and the RFC 1624 incremental
//! checksum unit (`splice_csum_update.v`): a safe wrapper over the C++ shim that clocks the
//! Verilated models (DATA_WIDTH 64 and 512), and [`reference`], a software reference model
//! of the rewrite that the tests compare the gateware against; [`testkit`] holds the random
//! frames and descriptors the tests feed it and the checks of every rewritten frame.

use std::ffi::c_void;
use std::fmt;
use std::ptr::NonNull;

/// Descriptor flag: rewrite destination and source MAC.
pub const F_MAC: u8 = 1 << 0;
/// Descriptor flag: rewrite source and destination IPv4 address.
pub const F_IP: u8 = 1 << 1;
/// Descriptor flag: rewrite source and destination TCP port.
pub const F_PORT: u8 = 1 << 2;
/// Descriptor flag: add the seq delta to the sequence number.
pub const F_SEQ: u8 = 1 << 3;
/// Descriptor flag: add the ack delta to the acknowledgment number (ACK flag set).
pub const F_ACK: u8 = 1 << 4;
/// Descriptor flag: add the ack delta to both edges of every SACK block.
pub const F_SACK: u8 = 1 << 5;
/// Descriptor flag: add the TSval delta (and the TSecr delta when ACK is set).
pub const F_TS: u8 = 1 << 6;
/// Descriptor flag: rescale the window by the signed window-scale shift.
pub const F_WSCALE: u8 = 1 << 7;

/// Rewrite descriptor, laid out as the shim's `RwDesc`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Desc {
    pub flags: u8,
    pub l3_offset: u8,
    pub ihl: u8,
    pub doff: u8,
    pub eth_dst: [u8; 6],
    pub eth_src: [u8; 6],
    pub ip_src: u32,
    pub ip_dst: u32,
    pub sport: u16,
    pub dport: u16,
    pub seq_delta: u32,
    pub ack_delta: u32,
    pub tsval_delta: u32,
    pub tsecr_delta: u32,
    /// > 0: window shifted left (saturating at 0xFFFF); < 0: shifted right. Range -16..=15.
    pub wscale_shift: i8,
}

/// Timing of one frame through the rewriter.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameInfo {
    /// Cycle of the first beat's input handshake.
    pub in_cycle: u64,
    /// Cycle of the first beat's output handshake.
    pub out_cycle: u64,
    /// Output beats of the frame.
    pub beats: u64,
}

impl FrameInfo {
    /// First byte in to first byte out, in cycles.
    pub fn latency(&self) -> u64 {
        self.out_cycle.saturating_sub(self.in_cycle)
    }
}

/// Counters of a run.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub cycles: u64,
    pub in_beats: u64,
    pub out_beats: u64,
    pub first_out_cycle: u64,
    pub last_out_cycle: u64,
    pub first_in_cycle: u64,
    pub last_in_cycle: u64,
    /// The module's own status counters.
    pub stat_frames: u32,
    pub stat_bypass: u32,
    pub stat_opt_err: u32,
    /// The module's documented first-byte latency (cfg_latency port).
    pub cfg_latency: u32,
}

impl Stats {
    /// Output beats per cycle from the first to the last output beat.
    pub fn out_beats_per_cycle(&self) -> f64 {
        if self.out_beats == 0 || self.last_out_cycle < self.first_out_cycle {
            return 0.0;
        }
        self.out_beats as f64 / (self.last_out_cycle - self.first_out_cycle + 1) as f64
    }

    /// Accepted input beats per cycle from the first to the last input beat.
    pub fn in_beats_per_cycle(&self) -> f64 {
        if self.in_beats == 0 || self.last_in_cycle < self.first_in_cycle {
            return 0.0;
        }
        self.in_beats as f64 / (self.last_in_cycle - self.first_in_cycle + 1) as f64
    }
}

/// Shim errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Error {
    /// The cycle limit passed before every queued frame came out (a stall).
    Timeout,
    /// Bad argument (empty frame).
    BadArg,
    /// Unknown shim status code.
    Code(i32),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Timeout => write!(f, "cycle limit reached before all frames came out"),
            Error::BadArg => write!(f, "bad argument"),
            Error::Code(c) => write!(f, "shim error {c}"),
        }
    }
}

impl std::error::Error for Error {}

fn check(rc: i32) -> Result<(), Error> {
    match rc {
        0 => Ok(()),
        -1 => Err(Error::Timeout),
        -3 => Err(Error::BadArg),
        c => Err(Error::Code(c)),
    }
}

extern "C" {
    fn rw_new(width: i32) -> *mut c_void;
    fn rw_free(h: *mut c_void);
    fn rw_push(h: *mut c_void, data: *const u8, len: usize, d: *const Desc) -> i32;
    fn rw_config(h: *mut c_void, gap: u32, stall: u32, seed: u64);
    fn rw_run(h: *mut c_void, max_cycles: u64) -> i32;
    fn rw_out_len(h: *mut c_void) -> usize;
    fn rw_pop(
        h: *mut c_void,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
        info: *mut FrameInfo,
    ) -> i32;
    fn rw_stats(h: *mut c_void, out: *mut Stats);
    fn csum_new() -> *mut c_void;
    fn csum_free(h: *mut c_void);
    fn csum_update4(h: *mut c_void, hc: u16, old: *const u16, new: *const u16) -> u16;
}

/// Data path width of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    W64,
    W512,
}

impl Width {
    /// Bytes per beat.
    pub fn bytes(self) -> usize {
        match self {
            Width::W64 => 8,
            Width::W512 => 64,
        }
    }
}

/// One Verilated `splice_rewriter`.
pub struct Rewriter {
    h: NonNull<c_void>,
    width: Width,
}

impl Rewriter {
    /// A fresh model, out of reset.
    pub fn new(width: Width) -> Option<Self> {
        let w = match width {
            Width::W64 => 64,
            Width::W512 => 512,
        };
        // SAFETY: rw_new has no preconditions; it returns null for an unknown width.
        let h = NonNull::new(unsafe { rw_new(w) })?;
        Some(Self { h, width })
    }

    /// The model's data width.
    pub fn width(&self) -> Width {
        self.width
    }

    /// Input gaps and output stalls, in permille of cycles, from a fixed seed.
    pub fn configure(&mut self, gap_permille: u32, stall_permille: u32, seed: u64) {
        // SAFETY: the handle is live for the lifetime of self.
        unsafe { rw_config(self.h.as_ptr(), gap_permille, stall_permille, seed) }
    }

    /// Queue a frame with its descriptor.
    pub fn push(&mut self, frame: &[u8], desc: &Desc) -> Result<(), Error> {
        if frame.is_empty() {
            return Err(Error::BadArg);
        }
        // SAFETY: the pointers are valid for the given length during the call; the shim
        // copies the bytes and the descriptor.
        check(unsafe { rw_push(self.h.as_ptr(), frame.as_ptr(), frame.len(), desc) })
    }

    /// Clock until every queued frame has come out, at most `max_cycles` cycles.
    pub fn run(&mut self, max_cycles: u64) -> Result<(), Error> {
        // SAFETY: the handle is live for the lifetime of self.
        check(unsafe { rw_run(self.h.as_ptr(), max_cycles) })
    }

    /// The next output frame, if any.
    pub fn pop(&mut self) -> Option<(Vec<u8>, FrameInfo)> {
        // SAFETY: the handle is live for the lifetime of self.
        let n = unsafe { rw_out_len(self.h.as_ptr()) };
        let mut buf = vec![0u8; n.max(1)];
        let mut len = 0usize;
        let mut info = FrameInfo::default();
        // SAFETY: buf holds `buf.len()` writable bytes; len and info are valid out pointers.
        let rc = unsafe {
            rw_pop(
                self.h.as_ptr(),
                buf.as_mut_ptr(),
                buf.len(),
                &mut len,
                &mut info,
            )
        };
        if rc != 0 {
            return None;
        }
        buf.truncate(len);
        Some((buf, info))
    }

    /// Counters since the model was created.
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        // SAFETY: the handle is live; s is a valid out pointer of the shim's layout.
        unsafe { rw_stats(self.h.as_ptr(), &mut s) };
        s
    }
}

impl Drop for Rewriter {
    fn drop(&mut self) {
        // SAFETY: the handle came from rw_new and is freed exactly once.
        unsafe { rw_free(self.h.as_ptr()) }
    }
}

/// The Verilated `splice_csum_update` with WORDS = 4.
pub struct CsumUnit {
    h: NonNull<c_void>,
}

impl CsumUnit {
    /// A fresh model.
    pub fn new() -> Option<Self> {
        // SAFETY: csum_new has no preconditions.
        let h = NonNull::new(unsafe { csum_new() })?;
        Some(Self { h })
    }

    /// HC' = ~(~HC + sum(~m) + sum(m')) over four 16-bit words, by the gateware.
    pub fn update(&mut self, hc: u16, old: [u16; 4], new: [u16; 4]) -> u16 {
        // SAFETY: the handle is live; both arrays hold the four words the shim reads.
        unsafe { csum_update4(self.h.as_ptr(), hc, old.as_ptr(), new.as_ptr()) }
    }
}

impl Drop for CsumUnit {
    fn drop(&mut self) {
        // SAFETY: the handle came from csum_new and is freed exactly once.
        unsafe { csum_free(self.h.as_ptr()) }
    }
}

pub mod reference;
pub mod testkit;
