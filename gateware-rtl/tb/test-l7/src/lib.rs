//! Test bench for the L7 matcher (`gateware-rtl/rtl/l7_matcher.v`): the Verilated module at
//! DATA_WIDTH 64 and 512 behind a small safe API, the rule encoding of its write port, and
//! [`reference`], the software reference matcher the tests compare it with.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod reference;

use reference::Rule;
use splicenic_layout::{rule_word_index, L7RuleCtrl, L7RuleMeta, L7_BUFFER_BYTES};
use std::ffi::c_void;
use std::fmt;
use std::ptr::NonNull;

/// Rule pattern capacity of the RTL build (PAT_MAX).
pub const PAT_MAX: usize = 64;
/// Rules per bank of the RTL build (RULES).
pub const RULES: usize = 64;
/// Scan window in bytes of the RTL build (WINDOW, by default the L7 buffer size).
pub const WINDOW: usize = L7_BUFFER_BYTES as usize;

/// Result flag bits (`m_res_flags`): the masks of enum L7Flag.
pub mod flags {
    use splicenic_layout::l7_flag;
    pub const MATCHED: u32 = l7_flag::MATCHED as u32;
    pub const INCOMPLETE: u32 = l7_flag::INCOMPLETE as u32;
    pub const NEEDS_NORM: u32 = l7_flag::NEEDS_NORM as u32;
    pub const NOT_HTTP: u32 = l7_flag::NOT_HTTP as u32;
    pub const ABSFORM: u32 = l7_flag::ABSFORM as u32;
    pub const HOST_FOUND: u32 = l7_flag::HOST_FOUND as u32;
    pub const OVER_WINDOW: u32 = l7_flag::OVER_WINDOW as u32;
}

/// Special write words.
const WORD_CLEAR: u32 = rule_word_index::CLEAR_BANK as u32;
const WORD_DEFAULT_POOL: u32 = rule_word_index::DEFAULT_POOL as u32;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RawResult {
    tag: u32,
    rule_id: u32,
    pool: u32,
    flags: u32,
    method: u32,
    bank: u32,
    start_bank: u32,
    latency: u32,
    start_dflt: u32,
    max_holdoff: u32,
}

#[repr(C)]
struct RawOpts {
    valid_gap_pct: u32,
    ready_gap_pct: u32,
    switch_per_mille: u32,
    seed: u32,
    dflt_after_switch: u32,
    max_cycles: u64,
}

extern "C" {
    fn l7_new(width: u32) -> *mut c_void;
    fn l7_free(h: *mut c_void);
    fn l7_write(h: *mut c_void, rule: u32, word: u32, data: u32) -> i32;
    fn l7_switch(h: *mut c_void) -> i32;
    fn l7_active_bank(h: *mut c_void) -> i32;
    fn l7_run(
        h: *mut c_void,
        buf: *const u8,
        lens: *const u32,
        n: u32,
        o: *const RawOpts,
        out: *mut RawResult,
        cycles: *mut u64,
    ) -> i32;
}

/// A failure of the simulated module or a bad argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// DATA_WIDTH other than 64 or 512.
    BadWidth(u32),
    /// A cycle limit ran out (the module stalled).
    Timeout,
    /// Bad argument (empty request, too many requests, rule index out of range).
    BadArg,
    /// The module produced a result before its request was fed.
    Protocol,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadWidth(w) => write!(f, "no model for DATA_WIDTH {w}"),
            Error::Timeout => write!(f, "cycle limit reached: the matcher stalled"),
            Error::BadArg => write!(f, "bad argument"),
            Error::Protocol => write!(f, "result without a request"),
        }
    }
}

impl std::error::Error for Error {}

fn rc(code: i32) -> Result<i32, Error> {
    match code {
        c if c >= 0 => Ok(c),
        -1 => Err(Error::Timeout),
        -3 => Err(Error::Protocol),
        _ => Err(Error::BadArg),
    }
}

/// One result of the RTL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HwResult {
    pub tag: u16,
    pub rule_id: u16,
    pub pool: u16,
    pub flags: u32,
    pub method: u8,
    /// Bank the RTL reports it used.
    pub bank: u8,
    /// Bank that was active when the first beat of the request was accepted.
    pub start_bank: u8,
    /// Cycles from the tlast beat to the result handshake.
    pub latency: u32,
    /// Default pool of the start bank when the first beat was accepted (as written).
    pub start_dflt: u16,
    /// Longest hold-off of a configuration write in the run (cycles).
    pub max_holdoff: u32,
}

/// Stimulus options of a run.
#[derive(Debug, Clone, Copy)]
pub struct RunOpts {
    /// Chance in percent of a cycle without `tvalid`.
    pub valid_gap_pct: u32,
    /// Chance in percent of a cycle without `m_res_ready`.
    pub ready_gap_pct: u32,
    /// Chance per 1000 cycles of a `cmd_bank_switch` pulse.
    pub switch_per_mille: u32,
    pub seed: u32,
    /// After each switch, write a new default pool into the now-inactive bank while
    /// requests flow (through the cfg_wr_valid/ready hold-off).
    pub dflt_after_switch: bool,
    pub max_cycles: u64,
}

impl Default for RunOpts {
    fn default() -> Self {
        RunOpts {
            valid_gap_pct: 0,
            ready_gap_pct: 0,
            switch_per_mille: 0,
            seed: 1,
            dflt_after_switch: false,
            max_cycles: 10_000_000,
        }
    }
}

/// Output of a run: results in request order and the cycles used.
#[derive(Debug, Clone)]
pub struct RunOut {
    pub results: Vec<HwResult>,
    pub cycles: u64,
}

/// The Verilated `l7_matcher`.
pub struct Matcher {
    h: NonNull<c_void>,
    width: u32,
}

impl Matcher {
    /// A model at DATA_WIDTH `width` (64 or 512), out of reset; both banks empty, default
    /// pools 0, bank 0 active.
    pub fn new(width: u32) -> Result<Self, Error> {
        // SAFETY: l7_new takes a plain integer and returns an owned handle or null.
        let h = unsafe { l7_new(width) };
        NonNull::new(h)
            .map(|h| Matcher { h, width })
            .ok_or(Error::BadWidth(width))
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    /// One 32-bit write into the inactive bank.
    pub fn write(&mut self, rule: u32, word: u32, data: u32) -> Result<(), Error> {
        if rule as usize >= RULES || word > 0xff {
            return Err(Error::BadArg);
        }
        // SAFETY: the handle is live (owned by self) and the call takes plain integers.
        rc(unsafe { l7_write(self.h.as_ptr(), rule, word, data) }).map(|_| ())
    }

    /// Pulse `cmd_bank_switch` for one cycle.
    pub fn switch_bank(&mut self) -> Result<(), Error> {
        // SAFETY: the handle is live (owned by self).
        rc(unsafe { l7_switch(self.h.as_ptr()) }).map(|_| ())
    }

    /// `status_active_bank`.
    pub fn active_bank(&mut self) -> Result<u8, Error> {
        // SAFETY: the handle is live (owned by self).
        rc(unsafe { l7_active_bank(self.h.as_ptr()) }).map(|b| b as u8)
    }

    /// Clear every rule of the inactive bank.
    pub fn clear_inactive(&mut self) -> Result<(), Error> {
        self.write(0, WORD_CLEAR, 0)
    }

    /// Set the inactive bank's default pool.
    pub fn set_default_pool(&mut self, pool: u16) -> Result<(), Error> {
        self.write(0, WORD_DEFAULT_POOL, u32::from(pool))
    }

    /// Write one rule into slot `index` of the inactive bank.
    pub fn write_rule(&mut self, index: usize, rule: &Rule) -> Result<(), Error> {
        if index >= RULES {
            return Err(Error::BadArg);
        }
        let idx = index as u32;
        for (word, data) in encode_rule(rule) {
            self.write(idx, word, data)?;
        }
        Ok(())
    }

    /// Clear the inactive bank, load `rules` (slot = position) and its default pool.
    pub fn load_inactive(&mut self, rules: &[Rule], default_pool: u16) -> Result<(), Error> {
        if rules.len() > RULES {
            return Err(Error::BadArg);
        }
        self.clear_inactive()?;
        for (i, r) in rules.iter().enumerate() {
            self.write_rule(i, r)?;
        }
        self.set_default_pool(default_pool)
    }

    /// Feed `reqs` back to back (request i gets tag i) and collect one result each.
    pub fn run(&mut self, reqs: &[Vec<u8>], opts: &RunOpts) -> Result<RunOut, Error> {
        if reqs.iter().any(Vec::is_empty) || u32::try_from(reqs.len()).is_err() {
            return Err(Error::BadArg);
        }
        let buf: Vec<u8> = reqs.concat();
        let lens: Vec<u32> = reqs
            .iter()
            .map(|r| u32::try_from(r.len()).map_err(|_| Error::BadArg))
            .collect::<Result<_, _>>()?;
        let mut out = vec![RawResult::default(); reqs.len()];
        let raw = RawOpts {
            valid_gap_pct: opts.valid_gap_pct,
            ready_gap_pct: opts.ready_gap_pct,
            switch_per_mille: opts.switch_per_mille,
            seed: opts.seed,
            dflt_after_switch: u32::from(opts.dflt_after_switch),
            max_cycles: opts.max_cycles,
        };
        let mut cycles = 0u64;
        // SAFETY: buf holds the sum of lens bytes, lens and out hold reqs.len() entries,
        // raw and cycles are live locals; the shim reads/writes only within those bounds.
        let n = rc(unsafe {
            l7_run(
                self.h.as_ptr(),
                buf.as_ptr(),
                lens.as_ptr(),
                lens.len() as u32,
                &raw,
                out.as_mut_ptr(),
                &mut cycles,
            )
        })?;
        if n as usize != reqs.len() {
            return Err(Error::Protocol);
        }
        let results = out
            .iter()
            .map(|r| HwResult {
                tag: r.tag as u16,
                rule_id: r.rule_id as u16,
                pool: r.pool as u16,
                flags: r.flags,
                method: r.method as u8,
                bank: r.bank as u8,
                start_bank: r.start_bank as u8,
                latency: r.latency,
                start_dflt: r.start_dflt as u16,
                max_holdoff: r.max_holdoff,
            })
            .collect();
        Ok(RunOut { results, cycles })
    }
}

impl Drop for Matcher {
    fn drop(&mut self) {
        // SAFETY: the handle came from l7_new and is freed exactly once, here.
        unsafe { l7_free(self.h.as_ptr()) }
    }
}

/// The (word, data) writes that store `rule` (see l7_rule_bank's word map). Patterns
/// longer than PAT_MAX keep their full length in the ctrl word (so the RTL treats the rule
/// as never matching) and only PAT_MAX bytes are written.
pub fn encode_rule(rule: &Rule) -> Vec<(u32, u32)> {
    // lengths saturate at the field's largest value
    let plen = rule.path.len().min((1 << L7RuleCtrl::PATH_LEN.width) - 1) as u16;
    let hlen = rule.host.len().min((1 << L7RuleCtrl::HOST_LEN.width) - 1) as u16;
    let mut w = Vec::new();
    let pack = |bytes: &[u8], base: u32, w: &mut Vec<(u32, u32)>| {
        for (k, chunk) in bytes.chunks(4).take(PAT_MAX / 4).enumerate() {
            let mut v = 0u32;
            for (i, b) in chunk.iter().enumerate() {
                v |= u32::from(*b) << (8 * i);
            }
            w.push((base + k as u32, v));
        }
    };
    pack(&rule.path, rule_word_index::PATH.into(), &mut w);
    let host_rev: Vec<u8> = rule.host.iter().rev().copied().collect();
    pack(&host_rev, rule_word_index::HOST.into(), &mut w);
    let meta = L7RuleMeta {
        priority: rule.priority,
        rule_id: rule.rule_id,
    };
    w.push((rule_word_index::META.into(), meta.pack()[0]));
    w.push((rule_word_index::POOL.into(), u32::from(rule.pool)));
    let ctrl = L7RuleCtrl {
        path_len: plen,
        host_len: hlen,
        host_kind: rule.host_kind.raw(),
        path_kind: rule.path_kind.raw(),
        valid: rule.valid,
    };
    w.push((rule_word_index::CTRL.into(), ctrl.pack()[0]));
    w
}
