//! Test bench for the SYN responder (`gateware-rtl/rtl/syn_responder.v`): the Verilated
//! module (DATA_WIDTH 64 with UNITS 2, and DATA_WIDTH 512 with UNITS 8) behind a small safe API, clocked one cycle per call, and
//! the reference model of its frames ([`model`]), and random SYNs and configurations
//! ([`gen`]). The tests compare the module with the model.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod gen;
pub mod model;

use model::{Config, Syn, OPT_BYTES};
use std::ffi::c_void;
use std::fmt;
use std::ptr::NonNull;

/// A Verilated build of the module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// DATA_WIDTH 64, UNITS 2.
    W64U2,
    /// DATA_WIDTH 512, UNITS 8.
    W512U8,
}

impl Variant {
    /// Every variant the crate builds.
    pub const ALL: [Variant; 2] = [Variant::W64U2, Variant::W512U8];

    /// DATA_WIDTH in bits.
    pub fn data_width(self) -> u32 {
        match self {
            Variant::W64U2 => 64,
            Variant::W512U8 => 512,
        }
    }

    /// Bytes per beat.
    pub fn data_bytes(self) -> usize {
        self.data_width() as usize / 8
    }

    /// The UNITS parameter (cookie units).
    pub fn units(self) -> u32 {
        match self {
            Variant::W64U2 => 2,
            Variant::W512U8 => 8,
        }
    }

    fn code(self) -> u32 {
        match self {
            Variant::W64U2 => 0,
            Variant::W512U8 => 1,
        }
    }
}

/// The inputs of one clock cycle (`repr(C)` mirror of `SrIn` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inputs {
    /// `s_syn_eth_src` (48 bits).
    pub eth_src: u64,
    /// `cfg_mac` (48 bits).
    pub cfg_mac: u64,
    /// `key_wr_data`: k1 in bits 63:32, k0 in bits 31:0.
    pub key_wr_data: u64,
    /// `s_syn_opt`: option byte k at index k.
    pub opt: [u8; OPT_BYTES],
    pub rst: u32,
    pub syn_valid: u32,
    pub ip_src: u32,
    pub ip_dst: u32,
    pub sport: u32,
    pub dport: u32,
    pub seq: u32,
    pub opt_len: u32,
    /// `m_axis_tready`.
    pub tready: u32,
    pub cfg_mss: u32,
    pub offer_ws: u32,
    pub offer_sack: u32,
    pub offer_ts: u32,
    /// `cfg_now`.
    pub now: u32,
    pub key_wr_en: u32,
    pub key_wr_slot: u32,
    /// `cfg_cur_epoch`.
    pub cur_epoch: u32,
    /// `cfg_prev_valid`.
    pub prev_valid: u32,
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs {
            eth_src: 0,
            cfg_mac: 0,
            key_wr_data: 0,
            opt: [0; OPT_BYTES],
            rst: 0,
            syn_valid: 0,
            ip_src: 0,
            ip_dst: 0,
            sport: 0,
            dport: 0,
            seq: 0,
            opt_len: 0,
            tready: 0,
            cfg_mss: 0,
            offer_ws: 0,
            offer_sack: 0,
            offer_ts: 0,
            now: 0,
            key_wr_en: 0,
            key_wr_slot: 0,
            cur_epoch: 0,
            prev_valid: 0,
        }
    }
}

impl Inputs {
    /// Idle inputs under `cfg`, output ready, no SYN, no key write.
    pub fn idle(cfg: &Config) -> Self {
        let mut i = Inputs {
            tready: 1,
            ..Inputs::default()
        };
        i.set_config(cfg);
        i
    }

    /// Drives the configuration inputs from `cfg`.
    pub fn set_config(&mut self, cfg: &Config) {
        self.cfg_mac = cfg.mac;
        self.cfg_mss = u32::from(cfg.mss);
        self.offer_ws = u32::from(cfg.offer_ws);
        self.offer_sack = u32::from(cfg.offer_sack);
        self.offer_ts = u32::from(cfg.offer_ts);
    }

    /// Presents `syn` (valid high).
    pub fn set_syn(&mut self, syn: &Syn) {
        self.syn_valid = 1;
        self.eth_src = syn.eth_src;
        self.ip_src = syn.ip_src;
        self.ip_dst = syn.ip_dst;
        self.sport = u32::from(syn.sport);
        self.dport = u32::from(syn.dport);
        self.seq = syn.seq;
        self.opt_len = u32::from(syn.opt_len);
        self.opt = syn.opt;
    }

    /// These inputs with `syn` presented.
    pub fn with_syn(mut self, syn: &Syn) -> Self {
        self.set_syn(syn);
        self
    }

    /// Drives a key write of `[k0, k1]` into `slot`.
    pub fn set_key_write(&mut self, slot: u8, key: [u32; 2]) {
        self.key_wr_en = 1;
        self.key_wr_slot = u32::from(slot);
        self.key_wr_data = key_word(key);
    }
}

/// The outputs of one cycle, as the rising edge samples them (`SrOut` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outputs {
    /// `m_axis_tdata`, byte k at index k (bytes past DATA_WIDTH/8 are 0).
    pub tdata: [u8; 64],
    pub tkeep: u64,
    pub syn_ready: u32,
    pub tvalid: u32,
    pub tlast: u32,
    pub tuser: u32,
    /// `stat_answered`.
    pub answered: u32,
}

impl Default for Outputs {
    fn default() -> Self {
        Outputs {
            tdata: [0; 64],
            tkeep: 0,
            syn_ready: 0,
            tvalid: 0,
            tlast: 0,
            tuser: 0,
            answered: 0,
        }
    }
}

/// The 64-bit key write of `[k0, k1]`.
pub fn key_word(key: [u32; 2]) -> u64 {
    u64::from(key[1]) << 32 | u64::from(key[0])
}

extern "C" {
    fn synresp_new(variant: u32) -> *mut c_void;
    fn synresp_free(h: *mut c_void);
    fn synresp_step(h: *mut c_void, i: *const Inputs, o: *mut Outputs) -> i32;
}

/// A failure of the simulation harness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The model could not be created.
    Create,
    /// The shim refused a call (null argument).
    BadArg,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Create => f.write_str("cannot create the syn_responder model"),
            Error::BadArg => f.write_str("the syn_responder shim refused an argument"),
        }
    }
}

impl std::error::Error for Error {}

/// A Verilated `syn_responder`.
pub struct SynResponder {
    h: NonNull<c_void>,
    variant: Variant,
    cycle: u64,
}

impl SynResponder {
    /// A new model of `variant`, held in reset for 4 cycles and released.
    pub fn new(variant: Variant) -> Result<Self, Error> {
        // SAFETY: synresp_new takes a plain integer and returns an owned handle or null.
        let h = unsafe { synresp_new(variant.code()) };
        let mut m = SynResponder {
            h: NonNull::new(h).ok_or(Error::Create)?,
            variant,
            cycle: 0,
        };
        let rst = Inputs {
            rst: 1,
            tready: 1,
            ..Inputs::default()
        };
        for _ in 0..4 {
            m.step(&rst)?;
        }
        m.cycle = 0;
        Ok(m)
    }

    /// The build.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// One clock cycle: applies `i`, returns the outputs the rising edge samples, takes the
    /// edge.
    pub fn step(&mut self, i: &Inputs) -> Result<Outputs, Error> {
        let mut o = Outputs::default();
        // SAFETY: the handle is live (owned by self); `i` and `o` are valid repr(C) structs
        // the shim reads and writes only during the call.
        let rc = unsafe { synresp_step(self.h.as_ptr(), i, &mut o) };
        if rc != 0 {
            return Err(Error::BadArg);
        }
        self.cycle += 1;
        Ok(o)
    }

    /// Cycles stepped since reset was released.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }
}

impl Drop for SynResponder {
    fn drop(&mut self) {
        // SAFETY: the handle came from synresp_new and is freed exactly once, here.
        unsafe { synresp_free(self.h.as_ptr()) }
    }
}

/// A frame taken from the output stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub bytes: Vec<u8>,
    /// Cycle of the first beat's handshake.
    pub first_cycle: u64,
    /// Cycle of the tlast beat's handshake.
    pub last_cycle: u64,
}

/// Collects frames from `m_axis_*` and checks the stream rules on every cycle: a beat
/// under back-pressure stays unchanged until taken, tuser is 0, tkeep is all ones on every
/// beat but the last and contiguous from lane 0 on the last.
pub struct FrameSink {
    bytes_per_beat: usize,
    cur: Vec<u8>,
    first: u64,
    held: Option<Outputs>,
    /// Beats taken.
    pub beats: u64,
    /// Cycles with tvalid high and tready low.
    pub held_cycles: u64,
}

impl FrameSink {
    pub fn new(variant: Variant) -> Self {
        FrameSink {
            bytes_per_beat: variant.data_bytes(),
            cur: Vec::new(),
            first: 0,
            held: None,
            beats: 0,
            held_cycles: 0,
        }
    }

    /// A frame is partly taken.
    pub fn mid_frame(&self) -> bool {
        !self.cur.is_empty()
    }

    /// Forgets a partly taken frame (after a reset).
    pub fn clear(&mut self) {
        self.cur.clear();
        self.held = None;
    }

    /// The outputs `o` of cycle `cycle` with `m_axis_tready` = `tready`: the frame its beat
    /// completes, if any. Panics on a broken stream rule.
    pub fn take(&mut self, cycle: u64, tready: bool, o: &Outputs) -> Option<Frame> {
        if let Some(h) = self.held.take() {
            assert_eq!(o.tvalid, 1, "cycle {cycle}: tvalid withdrawn before tready");
            assert!(
                o.tdata == h.tdata && o.tkeep == h.tkeep && o.tlast == h.tlast,
                "cycle {cycle}: beat changed under back-pressure: {h:?} -> {o:?}"
            );
        }
        if o.tvalid == 0 {
            return None;
        }
        assert_eq!(o.tuser, 0, "cycle {cycle}: tuser set");
        if !tready {
            self.held = Some(*o);
            self.held_cycles += 1;
            return None;
        }
        let n = self.bytes_per_beat;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let lanes = o.tkeep.count_ones() as usize;
        if o.tlast == 0 {
            assert_eq!(
                o.tkeep, full,
                "cycle {cycle}: tkeep {:#x} of a beat before the last",
                o.tkeep
            );
        } else {
            assert!(
                lanes >= 1 && o.tkeep == (full >> (n - lanes)),
                "cycle {cycle}: last beat's tkeep {:#x} is not contiguous from lane 0",
                o.tkeep
            );
        }
        if self.cur.is_empty() {
            self.first = cycle;
        }
        self.cur.extend_from_slice(&o.tdata[..lanes]);
        self.beats += 1;
        if o.tlast == 1 {
            Some(Frame {
                bytes: std::mem::take(&mut self.cur),
                first_cycle: self.first,
                last_cycle: cycle,
            })
        } else {
            None
        }
    }
}
