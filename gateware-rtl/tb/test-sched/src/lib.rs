//! Test bench for the decision supply (`gateware-rtl/rtl/sched_unit.v`, docs/sched-unit.md):
//! the Verilated module behind a small safe API, clocked one cycle per call, and a driver
//! that writes tables, eligibility masks and descriptors and streams requests through it.
//! The tests compare it with the firmware's IPVS schedulers (`splicenic_fw_logic::sched`).

#![deny(clippy::undocumented_unsafe_blocks)]

pub use splicenic_driver::datapath::SchedDescriptor as Descriptor;
use splicenic_layout::SchedStatus;
use std::collections::VecDeque;
use std::ffi::c_void;
use std::fmt;
use std::ptr::NonNull;

/// Pools of the Verilated build (POOLS, `splicenic_layout::POOLS`).
pub const POOLS: usize = splicenic_layout::POOLS as usize;
/// Table entries of the Verilated build (2^TBL_AW).
pub const TABLE_ENTRIES: usize = splicenic_layout::SCHED_TABLE_ENTRIES as usize;

/// The inputs of one clock cycle (`repr(C)` mirror of `SuIn` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inputs {
    /// `elig_wr_mask`.
    pub elig_mask: u64,
    pub rst: u32,
    pub req_valid: u32,
    pub req_pool: u32,
    pub client_ip: u32,
    pub client_port: u32,
    /// `s_req_dst_ip` (its low byte: the module takes only what dh hashes).
    pub dst_ip: u32,
    pub tag: u32,
    pub rsp_ready: u32,
    pub tbl_wr_en: u32,
    pub tbl_wr_addr: u32,
    pub tbl_wr_data: u32,
    pub elig_wr_en: u32,
    pub elig_wr_pool: u32,
    pub pool_wr_en: u32,
    pub pool_wr_pool: u32,
    /// `pool_wr_mode` (SchedMode).
    pub pool_wr_mode: u32,
    pub pool_wr_fallback: u32,
    pub pool_wr_hash_port: u32,
    pub pool_wr_base: u32,
    pub pool_wr_last: u32,
    pub pool_wr_loop: u32,
    pub pool_wr_set_ptr: u32,
    pub pool_wr_ptr: u32,
    pub ptr_rd_pool: u32,
}

/// The outputs of one cycle, as the rising edge samples them (`SuOut` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    pub req_ready: u32,
    pub rsp_valid: u32,
    pub rsp_tag: u32,
    pub rsp_pool: u32,
    /// SchedStatus code.
    pub rsp_status: u32,
    pub rsp_server: u32,
    pub ptr_rd_value: u32,
}

extern "C" {
    fn sched_new() -> *mut c_void;
    fn sched_free(h: *mut c_void);
    fn sched_step(h: *mut c_void, i: *const Inputs, o: *mut Outputs) -> i32;
}

/// A failure of the simulation harness or of the module's protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The model could not be created.
    Create,
    /// The shim refused a call (null argument).
    BadArg,
    /// A response carried a status code the declaration does not have.
    BadStatus(u32),
    /// Requests were not all answered within the cycle budget.
    Stuck { sent: usize, answered: usize },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Create => f.write_str("cannot create the sched_unit model"),
            Error::BadArg => f.write_str("the sched_unit shim refused an argument"),
            Error::BadStatus(c) => write!(f, "sched_unit answered status code {c}"),
            Error::Stuck { sent, answered } => {
                write!(
                    f,
                    "sched_unit answered {answered} of {sent} requests, then stopped"
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// One request: a new connection of `pool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub pool: u8,
    pub client_ip: u32,
    pub client_port: u16,
    pub dst_ip: u32,
    pub tag: u16,
}

/// One answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Response {
    pub tag: u16,
    pub pool: u8,
    pub status: SchedStatus,
    pub server: u8,
    /// The cycle it was on the port (counted from reset).
    pub cycle: u64,
}

/// A Verilated `sched_unit` with default parameters.
pub struct SchedUnit {
    h: NonNull<c_void>,
    cycle: u64,
}

impl SchedUnit {
    /// A new model, held in reset for 4 cycles and released.
    pub fn new() -> Result<Self, Error> {
        // SAFETY: sched_new takes no arguments and returns an owned handle or null.
        let h = unsafe { sched_new() };
        let mut m = SchedUnit {
            h: NonNull::new(h).ok_or(Error::Create)?,
            cycle: 0,
        };
        let rst = Inputs {
            rst: 1,
            rsp_ready: 1,
            ..Inputs::default()
        };
        for _ in 0..4 {
            m.step(&rst)?;
        }
        m.cycle = 0;
        Ok(m)
    }

    /// One clock cycle: applies `i`, returns the outputs the rising edge samples, takes the
    /// edge.
    pub fn step(&mut self, i: &Inputs) -> Result<Outputs, Error> {
        let mut o = Outputs::default();
        // SAFETY: the handle is live (owned by self); `i` and `o` are valid repr(C) structs
        // the shim reads and writes only during the call.
        let rc = unsafe { sched_step(self.h.as_ptr(), i, &mut o) };
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

    fn idle() -> Inputs {
        Inputs {
            rsp_ready: 1,
            ..Inputs::default()
        }
    }

    /// Writes `entries` into the table from `base` on (one entry per cycle, wrapping).
    pub fn write_table(&mut self, base: usize, entries: &[u8]) -> Result<(), Error> {
        for (k, &e) in entries.iter().enumerate() {
            let i = Inputs {
                tbl_wr_en: 1,
                tbl_wr_addr: ((base + k) % TABLE_ENTRIES) as u32,
                tbl_wr_data: u32::from(e),
                ..Self::idle()
            };
            self.step(&i)?;
        }
        Ok(())
    }

    /// Writes pool `pool`'s eligibility mask.
    pub fn write_eligible(&mut self, pool: u8, mask: u64) -> Result<(), Error> {
        let i = Inputs {
            elig_wr_en: 1,
            elig_wr_pool: u32::from(pool),
            elig_mask: mask,
            ..Self::idle()
        };
        self.step(&i).map(|_| ())
    }

    /// Commits pool `pool`'s descriptor.
    pub fn commit(&mut self, pool: u8, d: &Descriptor) -> Result<(), Error> {
        let i = Inputs {
            pool_wr_en: 1,
            pool_wr_pool: u32::from(pool),
            pool_wr_mode: u32::from(d.mode.raw()),
            pool_wr_fallback: u32::from(d.fallback),
            pool_wr_hash_port: u32::from(d.hash_port),
            pool_wr_base: u32::from(d.base),
            pool_wr_last: u32::from(d.last),
            pool_wr_loop: u32::from(d.loop_start),
            pool_wr_set_ptr: u32::from(d.ptr.is_some()),
            pool_wr_ptr: u32::from(d.ptr.unwrap_or(0)),
            ..Self::idle()
        };
        self.step(&i).map(|_| ())
    }

    /// Reads pool `pool`'s cycle pointer (two cycles: the read-back is registered).
    pub fn read_ptr(&mut self, pool: u8) -> Result<u16, Error> {
        let i = Inputs {
            ptr_rd_pool: u32::from(pool),
            ..Self::idle()
        };
        self.step(&i)?;
        Ok(self.step(&i)?.ptr_rd_value as u16)
    }

    /// Streams `reqs` through the module and collects every answer. `offer(cycle)` says
    /// whether a request is offered in that cycle (when one is left) and `ready(cycle)`
    /// whether the response port takes one; at most `budget` cycles after the last request
    /// went in.
    pub fn run(
        &mut self,
        reqs: &[Request],
        mut offer: impl FnMut(u64) -> bool,
        mut ready: impl FnMut(u64) -> bool,
        budget: u64,
    ) -> Result<Vec<Response>, Error> {
        let mut pending: VecDeque<&Request> = reqs.iter().collect();
        let mut out = Vec::with_capacity(reqs.len());
        let mut idle_since = 0u64;
        while out.len() < reqs.len() {
            let cyc = self.cycle;
            let mut i = Self::idle();
            i.rsp_ready = u32::from(ready(cyc));
            let give = !pending.is_empty() && offer(cyc);
            if let (true, Some(r)) = (give, pending.front()) {
                i.req_valid = 1;
                i.req_pool = u32::from(r.pool);
                i.client_ip = r.client_ip;
                i.client_port = u32::from(r.client_port);
                i.dst_ip = r.dst_ip;
                i.tag = u32::from(r.tag);
            }
            let o = self.step(&i)?;
            if i.req_valid == 1 && o.req_ready == 1 {
                pending.pop_front();
            }
            if o.rsp_valid == 1 && i.rsp_ready == 1 {
                let status = u8::try_from(o.rsp_status)
                    .ok()
                    .and_then(SchedStatus::from_raw)
                    .ok_or(Error::BadStatus(o.rsp_status))?;
                out.push(Response {
                    tag: o.rsp_tag as u16,
                    pool: o.rsp_pool as u8,
                    status,
                    server: o.rsp_server as u8,
                    cycle: cyc,
                });
            }
            if pending.is_empty() {
                idle_since += 1;
                if idle_since > budget {
                    return Err(Error::Stuck {
                        sent: reqs.len(),
                        answered: out.len(),
                    });
                }
            }
        }
        Ok(out)
    }
}

impl Drop for SchedUnit {
    fn drop(&mut self) {
        // SAFETY: the handle came from sched_new and is freed exactly once, here.
        unsafe { sched_free(self.h.as_ptr()) }
    }
}
