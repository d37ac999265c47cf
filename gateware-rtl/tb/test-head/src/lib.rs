//! Test bench for the request-head buffer (`gateware-rtl/rtl/head_buf.v`,
//! docs/head-buf.md): the Verilated module behind a small safe API, clocked one cycle per
//! call, a driver for its ports, and the reference model ([`model::HeadModel`]) the tests
//! compare it with.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod model;

use model::SegResult;
use std::ffi::c_void;
use std::fmt;
use std::ptr::NonNull;

/// Buffers of the Verilated build (`HEAD_BUFFERS`).
pub const BUFFERS: usize = splicenic_layout::HEAD_BUFFERS as usize;
/// Bytes per buffer (`HEAD_BUFFER_BYTES`).
pub const BUFFER_BYTES: usize = splicenic_layout::HEAD_BUFFER_BYTES as usize;

/// The inputs of one clock cycle (`repr(C)` mirror of `HbIn` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inputs {
    pub data: u64,
    pub rst: u32,
    pub alloc_req: u32,
    pub free_en: u32,
    pub free_id: u32,
    pub valid: u32,
    pub buf: u32,
    pub off: u32,
    pub len: u32,
    pub last: u32,
    pub rd_start: u32,
    pub rd_buf: u32,
    pub m_ready: u32,
    pub max_clear: u32,
}

/// The outputs of one cycle, as the rising edge samples them (`HbOut` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    pub m_data: u64,
    pub alloc_valid: u32,
    pub alloc_ok: u32,
    pub alloc_id: u32,
    pub free_bad: u32,
    pub ready: u32,
    pub res_valid: u32,
    pub res_buf: u32,
    pub res_len: u32,
    pub res_added: u32,
    pub res_hole: u32,
    pub res_cut: u32,
    pub res_bad: u32,
    pub rd_idle: u32,
    pub rd_len: u32,
    pub rd_sum: u32,
    pub m_valid: u32,
    pub m_keep: u32,
    pub m_last: u32,
    pub in_use: u32,
    pub in_use_max: u32,
}

extern "C" {
    fn head_new() -> *mut c_void;
    fn head_free(h: *mut c_void);
    fn head_step(h: *mut c_void, i: *const Inputs, o: *mut Outputs) -> i32;
}

/// A failure of the simulation harness or of the module's protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The model could not be created.
    Create,
    /// The shim refused a call (null argument).
    BadArg,
    /// Something did not happen within its cycle budget.
    Stuck(&'static str),
    /// An answer came that was not asked for, or two came for one question.
    Unexpected(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Create => f.write_str("cannot create the head_buf model"),
            Error::BadArg => f.write_str("the head_buf shim refused an argument"),
            Error::Stuck(what) => write!(f, "head_buf did not finish: {what}"),
            Error::Unexpected(what) => write!(f, "head_buf answered unexpectedly: {what}"),
        }
    }
}

impl std::error::Error for Error {}

/// A replayed head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    pub len: usize,
    pub sum: u16,
    pub bytes: Vec<u8>,
}

/// What the driver saw of an appended segment's timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SegTiming {
    /// Cycle the first beat was taken.
    pub first: u64,
    /// Cycle the last beat was taken.
    pub last: u64,
    /// Cycle its result was on res_*.
    pub result: u64,
}

/// A Verilated `head_buf` with default parameters.
pub struct HeadBuf {
    h: NonNull<c_void>,
    cycle: u64,
    pending: Vec<(SegResult, u64)>,
}

const BUDGET: u64 = 10_000;

impl HeadBuf {
    /// A new model, held in reset for 4 cycles, then run until its free list is filled.
    pub fn new() -> Result<Self, Error> {
        // SAFETY: head_new takes no arguments and returns an owned handle or null.
        let h = unsafe { head_new() };
        let mut m = HeadBuf {
            h: NonNull::new(h).ok_or(Error::Create)?,
            cycle: 0,
            pending: Vec::new(),
        };
        let rst = Inputs {
            rst: 1,
            ..Inputs::default()
        };
        for _ in 0..4 {
            m.step(&rst)?;
        }
        m.cycle = 0;
        m.until("initialisation", |o| o.rd_idle == 1)?;
        Ok(m)
    }

    /// One clock cycle: applies `i`, returns the outputs the rising edge samples, takes the
    /// edge. Results of segments seen on the way are kept for [`HeadBuf::take_results`].
    pub fn step(&mut self, i: &Inputs) -> Result<Outputs, Error> {
        let mut o = Outputs::default();
        // SAFETY: the handle is live (owned by self); `i` and `o` are valid repr(C) structs
        // the shim reads and writes only during the call.
        let rc = unsafe { head_step(self.h.as_ptr(), i, &mut o) };
        if rc != 0 {
            return Err(Error::BadArg);
        }
        if o.res_valid == 1 {
            self.pending.push((
                SegResult {
                    buf: o.res_buf as usize,
                    len: o.res_len as usize,
                    added: o.res_added as usize,
                    hole: o.res_hole != 0,
                    cut: o.res_cut != 0,
                    bad: o.res_bad != 0,
                },
                self.cycle,
            ));
        }
        self.cycle += 1;
        Ok(o)
    }

    /// Cycles since initialisation.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    fn until(
        &mut self,
        what: &'static str,
        f: impl Fn(&Outputs) -> bool,
    ) -> Result<Outputs, Error> {
        for _ in 0..BUDGET {
            let o = self.step(&Inputs::default())?;
            if f(&o) {
                return Ok(o);
            }
        }
        Err(Error::Stuck(what))
    }

    /// Idle cycles.
    pub fn idle(&mut self, n: u64) -> Result<Outputs, Error> {
        let mut o = Outputs::default();
        for _ in 0..n {
            o = self.step(&Inputs::default())?;
        }
        Ok(o)
    }

    /// Takes a buffer: its id, or none when all are in use.
    pub fn alloc(&mut self) -> Result<Option<usize>, Error> {
        self.step(&Inputs {
            alloc_req: 1,
            ..Inputs::default()
        })?;
        let o = self.step(&Inputs::default())?;
        if o.alloc_valid != 1 {
            return Err(Error::Unexpected("no alloc answer"));
        }
        Ok((o.alloc_ok == 1).then_some(o.alloc_id as usize))
    }

    /// Gives a buffer back; false when the module refused it (not in use).
    pub fn free(&mut self, id: usize) -> Result<bool, Error> {
        self.step(&Inputs {
            free_en: 1,
            free_id: id as u32,
            ..Inputs::default()
        })?;
        let o = self.step(&Inputs::default())?;
        Ok(o.free_bad == 0)
    }

    /// Offers the segments' beats back to back (`gap(cycle)` true: no beat offered in that
    /// cycle), then waits for every result. Returns the results in order with each
    /// segment's timing.
    pub fn append(
        &mut self,
        segs: &[(usize, usize, Vec<u8>)],
        mut gap: impl FnMut(u64) -> bool,
    ) -> Result<Vec<(SegResult, SegTiming)>, Error> {
        let mut timing = Vec::new();
        for (buf, off, payload) in segs {
            let beats: Vec<u64> = if payload.is_empty() {
                vec![0]
            } else {
                payload
                    .chunks(8)
                    .map(|c| {
                        let mut w = [0u8; 8];
                        w[..c.len()].copy_from_slice(c);
                        u64::from_le_bytes(w)
                    })
                    .collect()
            };
            let (mut first, mut k, mut spent) = (0, 0, 0u64);
            while k < beats.len() {
                spent += 1;
                if spent > BUDGET {
                    return Err(Error::Stuck("a segment's beats"));
                }
                let cyc = self.cycle;
                let offer = !gap(cyc);
                let i = Inputs {
                    valid: u32::from(offer),
                    buf: *buf as u32,
                    off: *off as u32,
                    len: payload.len() as u32,
                    data: beats[k],
                    last: u32::from(k + 1 == beats.len()),
                    ..Inputs::default()
                };
                let o = self.step(&i)?;
                if offer && o.ready == 1 {
                    if k == 0 {
                        first = cyc;
                    }
                    k += 1;
                }
            }
            timing.push((first, self.cycle - 1));
        }
        let want = segs.len();
        for _ in 0..BUDGET {
            if self.pending.len() >= want {
                break;
            }
            self.step(&Inputs::default())?;
        }
        if self.pending.len() != want {
            return Err(Error::Stuck("segment results"));
        }
        Ok(self
            .pending
            .drain(..)
            .zip(timing)
            .map(|((r, at), (first, last))| {
                (
                    r,
                    SegTiming {
                        first,
                        last,
                        result: at,
                    },
                )
            })
            .collect())
    }

    /// Replays buffer `id`: its length, sum and bytes; `ready(cycle)` is the output port's
    /// ready.
    pub fn replay(
        &mut self,
        id: usize,
        mut ready: impl FnMut(u64) -> bool,
    ) -> Result<Replay, Error> {
        self.until("replay idle", |o| o.rd_idle == 1)?;
        self.step(&Inputs {
            rd_start: 1,
            rd_buf: id as u32,
            ..Inputs::default()
        })?;
        // the length and sum show two cycles after the start
        self.step(&Inputs::default())?;
        let o = self.step(&Inputs::default())?;
        let (len, sum) = (o.rd_len as usize, o.rd_sum as u16);
        let mut bytes = Vec::with_capacity(len);
        if len == 0 {
            return Ok(Replay { len, sum, bytes });
        }
        for _ in 0..BUDGET {
            let r = ready(self.cycle);
            let o = self.step(&Inputs {
                m_ready: u32::from(r),
                ..Inputs::default()
            })?;
            if o.m_valid == 1 && r {
                let b = o.m_data.to_le_bytes();
                for (i, &x) in b.iter().enumerate() {
                    if o.m_keep >> i & 1 == 1 {
                        bytes.push(x);
                    }
                }
                if o.m_last == 1 {
                    return Ok(Replay { len, sum, bytes });
                }
                if bytes.len() > len {
                    return Err(Error::Unexpected("more words than the length"));
                }
            }
        }
        Err(Error::Stuck("replay"))
    }

    /// (buffers in use, their high-water mark).
    pub fn usage(&mut self) -> Result<(usize, usize), Error> {
        let o = self.idle(2)?;
        Ok((o.in_use as usize, o.in_use_max as usize))
    }

    /// Clears the high-water mark.
    pub fn clear_max(&mut self) -> Result<(), Error> {
        self.step(&Inputs {
            max_clear: 1,
            ..Inputs::default()
        })
        .map(|_| ())
    }
}

impl Drop for HeadBuf {
    fn drop(&mut self) {
        // SAFETY: the handle came from head_new and is freed exactly once, here.
        unsafe { head_free(self.h.as_ptr()) }
    }
}
