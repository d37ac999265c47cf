//! Test bench of the TCP option decoder (`gateware-rtl/rtl/tcp_opt_decoder.v`,
//! docs/options.md): the Verilated module (TAG_WIDTH 16) behind a small safe API, clocked
//! one cycle per call, and a driver that pushes option windows through it with random
//! valid/ready stalls.
//!
//! [`through_parser`] runs whole frames through eth_tcp_parser (DATA_WIDTH 64 or 512)
//! feeding the decoder, as the data path will.
//!
//! [`testkit`] holds the two references the tests compare the RTL with (etherparse's
//! option iterator for well-formed lists, the test's own walker for the rest) and the
//! random option-list generator.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod testkit;

use splicenic_layout::{TcpOpts, TCP_OPT_BYTES};
use std::collections::VecDeque;
use std::ffi::c_void;
use std::fmt;
use std::ptr::NonNull;

/// Bytes of the option window (`s_opt`).
pub const OPT_BYTES: usize = TCP_OPT_BYTES as usize;

/// The inputs of one clock cycle (`repr(C)` mirror of `OdIn` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inputs {
    pub rst: u32,
    pub s_valid: u32,
    /// `s_opt_len` (6 bits).
    pub opt_len: u32,
    /// `s_tag` (16 bits).
    pub tag: u32,
    pub m_ready: u32,
    /// `s_opt`: option byte k is `opt[k]`.
    pub opt: [u8; OPT_BYTES],
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs {
            rst: 0,
            s_valid: 0,
            opt_len: 0,
            tag: 0,
            m_ready: 0,
            opt: [0; OPT_BYTES],
        }
    }
}

/// The outputs of one cycle, as the rising edge samples them (`OdOut` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_ready: u32,
    pub m_valid: u32,
    /// `m_tag`.
    pub tag: u32,
    /// `m_opts`: the TcpOpts record's words.
    pub opts: [u32; TcpOpts::WORDS],
}

impl Outputs {
    /// The record on `m_opts` (whether or not it is valid).
    pub fn record(&self) -> TcpOpts {
        TcpOpts::unpack(&self.opts)
    }
}

extern "C" {
    fn parser_opts_run(
        width: u32,
        data: *const u8,
        lens: *const u32,
        n: u32,
        ready_pct: u32,
        seed: u64,
        max_cycles: u64,
        opts: *mut u32,
        tags: *mut u32,
    ) -> i64;
    fn optdec_new() -> *mut c_void;
    fn optdec_free(h: *mut c_void);
    fn optdec_step(h: *mut c_void, i: *const Inputs, o: *mut Outputs) -> i32;
}

/// A failure of the simulation harness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The model could not be created.
    Create,
    /// The shim refused a call (null argument).
    BadArg,
    /// A run did not drain within its cycle limit.
    Stuck { cycles: u64, missing: usize },
    /// A result came out that no segment was waiting for.
    Extra,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Create => f.write_str("cannot create the tcp_opt_decoder model"),
            Error::BadArg => f.write_str("the tcp_opt_decoder shim refused an argument"),
            Error::Stuck { cycles, missing } => {
                write!(f, "{missing} results missing after {cycles} cycles")
            }
            Error::Extra => f.write_str("a result came out that no segment was waiting for"),
        }
    }
}

impl std::error::Error for Error {}

/// A Verilated `tcp_opt_decoder` (TAG_WIDTH 16).
pub struct OptDecoder {
    h: NonNull<c_void>,
    cycle: u64,
}

impl OptDecoder {
    /// A new model, held in reset for 4 cycles and released; s_ready is high from its first
    /// cycle (one idle cycle after the release).
    pub fn new() -> Result<Self, Error> {
        // SAFETY: optdec_new takes no arguments and returns an owned handle or null.
        let h = unsafe { optdec_new() };
        let mut m = OptDecoder {
            h: NonNull::new(h).ok_or(Error::Create)?,
            cycle: 0,
        };
        let rst = Inputs {
            rst: 1,
            m_ready: 1,
            ..Inputs::default()
        };
        for _ in 0..4 {
            m.step(&rst)?;
        }
        m.step(&Inputs {
            m_ready: 1,
            ..Inputs::default()
        })?;
        m.cycle = 0;
        Ok(m)
    }

    /// One clock cycle: applies `i`, returns the outputs the rising edge samples, takes the
    /// edge.
    pub fn step(&mut self, i: &Inputs) -> Result<Outputs, Error> {
        let mut o = Outputs::default();
        // SAFETY: the handle is live (owned by self); `i` and `o` are valid repr(C) structs
        // the shim reads and writes only during the call.
        let rc = unsafe { optdec_step(self.h.as_ptr(), i, &mut o) };
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

impl Drop for OptDecoder {
    fn drop(&mut self) {
        // SAFETY: the handle came from optdec_new and is freed exactly once, here.
        unsafe { optdec_free(self.h.as_ptr()) }
    }
}

/// One segment's option window as the decoder takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// `s_opt_len`: the option area length (0..40; 41..63 are taken as 40).
    pub len: u8,
    /// `s_opt`; bytes at and past `len` may hold anything.
    pub bytes: [u8; OPT_BYTES],
}

/// Handshake pattern of a run: per cycle, `s_valid` is offered with probability
/// `valid_pct` % and `m_ready` is high with probability `ready_pct` %.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stalls {
    pub valid_pct: u32,
    pub ready_pct: u32,
}

impl Stalls {
    /// No stalls: a segment offered every cycle, results always taken.
    pub const NONE: Stalls = Stalls {
        valid_pct: 100,
        ready_pct: 100,
    };
}

/// The result of one segment, in input order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoded {
    pub tag: u16,
    pub opts: TcpOpts,
    /// Cycles from the segment's accept to its result being taken.
    pub latency: u64,
}

/// Counters of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunStats {
    pub cycles: u64,
    /// Cycles with `s_valid` offered and `s_ready` low.
    pub input_stalls: u64,
    /// Cycles with `m_valid` high and `m_ready` low.
    pub output_stalls: u64,
}

/// Pushes `windows` through `m` (tags = their index, modulo 2^16) with the stall pattern
/// `stalls` drawn from `rng`, until every result is taken; returns them in order.
pub fn run<R: rand::Rng>(
    m: &mut OptDecoder,
    windows: &[Window],
    stalls: Stalls,
    rng: &mut R,
) -> Result<(Vec<Decoded>, RunStats), Error> {
    let mut out = Vec::with_capacity(windows.len());
    let mut inflight: VecDeque<(u16, u64)> = VecDeque::new();
    let mut next = 0usize;
    let mut st = RunStats::default();
    let limit = 64 + windows.len() as u64 * 200;
    let start = m.cycle();
    while out.len() < windows.len() {
        let cyc = m.cycle() - start;
        if cyc > limit {
            return Err(Error::Stuck {
                cycles: cyc,
                missing: windows.len() - out.len(),
            });
        }
        let offer = next < windows.len() && rng.gen_range(0..100) < stalls.valid_pct;
        let ready = rng.gen_range(0..100) < stalls.ready_pct;
        let mut i = Inputs {
            m_ready: u32::from(ready),
            ..Inputs::default()
        };
        if offer {
            let w = &windows[next];
            i.s_valid = 1;
            i.opt_len = u32::from(w.len);
            i.opt = w.bytes;
            i.tag = (next & 0xffff) as u32;
        } else {
            // idle inputs carry junk: the decoder must not look at them
            i.opt_len = rng.gen_range(0..64);
            rng.fill(&mut i.opt[..]);
            i.tag = rng.gen_range(0..0x10000);
        }
        let now = m.cycle();
        let o = m.step(&i)?;
        if offer {
            if o.s_ready != 0 {
                inflight.push_back(((next & 0xffff) as u16, now));
                next += 1;
            } else {
                st.input_stalls += 1;
            }
        }
        if o.m_valid != 0 {
            if ready {
                let (tag, t0) = inflight.pop_front().ok_or(Error::Extra)?;
                if o.tag != u32::from(tag) {
                    return Err(Error::Extra);
                }
                out.push(Decoded {
                    tag,
                    opts: o.record(),
                    latency: now - t0,
                });
            } else {
                st.output_stalls += 1;
            }
        }
    }
    st.cycles = m.cycle() - start;
    Ok((out, st))
}

/// Stream widths of the parser + decoder test top (`rtl/tb_parser_opts.v`).
pub const PARSER_WIDTHS: [u32; 2] = [64, 512];

/// One result of the parser + decoder test top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParsedOpts {
    /// The parser's verdict (ParserReason code).
    pub reason: u8,
    /// The TCP data offset the parser found.
    pub data_offset: u8,
    pub opts: TcpOpts,
}

/// Runs `frames` back to back as AXI-Stream beats through eth_tcp_parser (DATA_WIDTH
/// `width`, one of [`PARSER_WIDTHS`]) feeding tcp_opt_decoder, with the result port ready
/// with probability `ready_pct` % (drawn from `seed`); one result per frame, in order.
pub fn through_parser(
    width: u32,
    frames: &[Vec<u8>],
    ready_pct: u32,
    seed: u64,
) -> Result<Vec<ParsedOpts>, Error> {
    let data: Vec<u8> = frames.iter().flatten().copied().collect();
    let lens: Vec<u32> = frames.iter().map(|f| f.len() as u32).collect();
    let n = frames.len();
    let mut opts = vec![0u32; n * TcpOpts::WORDS];
    let mut tags = vec![0u32; n];
    let max_cycles = 1_000 + 200 * n as u64 + data.len() as u64;
    // SAFETY: every pointer is valid for the lengths the shim uses (`n` lengths, their sum of
    // data bytes, `n` results of TcpOpts::WORDS words and `n` tags) during the call.
    let rc = unsafe {
        parser_opts_run(
            width,
            data.as_ptr(),
            lens.as_ptr(),
            n as u32,
            ready_pct,
            seed,
            max_cycles,
            opts.as_mut_ptr(),
            tags.as_mut_ptr(),
        )
    };
    if rc == -2 {
        return Err(Error::BadArg);
    }
    if rc != n as i64 {
        return Err(Error::Stuck {
            cycles: max_cycles,
            missing: n,
        });
    }
    Ok(tags
        .iter()
        .zip(opts.chunks(TcpOpts::WORDS))
        .map(|(&t, w)| {
            let mut words = [0u32; TcpOpts::WORDS];
            words.copy_from_slice(w);
            ParsedOpts {
                reason: (t & 0xf) as u8,
                data_offset: ((t >> 4) & 0xf) as u8,
                opts: TcpOpts::unpack(&words),
            }
        })
        .collect())
}
