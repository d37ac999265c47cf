//! Test bench for the least-load decision supply (`gateware-rtl/rtl/load_sched.v`,
//! docs/load-sched.md): the Verilated module behind a small safe API, clocked one cycle per
//! call, and a driver that issues its operations one at a time. The tests compare it with
//! the firmware's IPVS schedulers and connection counts (`splicenic_fw_logic::sched`).

#![deny(clippy::undocumented_unsafe_blocks)]

pub use splicenic_fw_logic::sched::LoadSlot;
use splicenic_layout::{LoadMode, LoadOp, LoadStatus};
use std::ffi::c_void;
use std::fmt;
use std::ptr::NonNull;

/// Pools of the Verilated build (POOLS, `splicenic_layout::POOLS`).
pub const POOLS: usize = splicenic_layout::POOLS as usize;
/// Server slots of a pool.
pub const SLOTS: usize = 64;
/// The largest count the module holds (2^LOAD_COUNT_BITS - 1).
pub const COUNT_MAX: u32 = (1 << splicenic_layout::LOAD_COUNT_BITS) - 1;

/// The inputs of one clock cycle (`repr(C)` mirror of `LsIn` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inputs {
    pub rst: u32,
    pub op_valid: u32,
    /// `s_op_code` (LoadOp).
    pub op_code: u32,
    pub op_pool: u32,
    pub op_slot: u32,
    pub op_flag: u32,
    pub op_tag: u32,
    pub op_live: u32,
    pub op_weight: u32,
    pub op_rank: u32,
    pub op_upper: u32,
    pub op_lower: u32,
    pub op_active: u32,
    pub op_inactive: u32,
    pub op_overloaded: u32,
    pub rsp_ready: u32,
    pub pool_wr_en: u32,
    pub pool_wr_pool: u32,
    /// `pool_wr_mode` (LoadMode).
    pub pool_wr_mode: u32,
    pub pool_wr_beats_m1: u32,
}

/// The outputs of one cycle, as the rising edge samples them (`LsOut` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    pub op_ready: u32,
    pub rsp_valid: u32,
    pub rsp_tag: u32,
    /// LoadStatus code.
    pub rsp_status: u32,
    pub rsp_server: u32,
    pub rsp_active: u32,
    pub rsp_inactive: u32,
    pub rsp_overloaded: u32,
    pub rsp_live: u32,
    pub rsp_weight: u32,
    pub rsp_rank: u32,
    pub rsp_upper: u32,
    pub rsp_lower: u32,
    pub ev_pick: u32,
    pub ev_none: u32,
    pub ev_punt: u32,
    pub ev_underflow: u32,
}

extern "C" {
    fn load_new() -> *mut c_void;
    fn load_free(h: *mut c_void);
    fn load_step(h: *mut c_void, i: *const Inputs, o: *mut Outputs) -> i32;
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
    /// An answer came for an operation that is not answered, or with another tag.
    Unexpected { op: LoadOp, tag: u32 },
    /// The module did not take or finish an operation within the cycle budget.
    Stuck { op: LoadOp, cycles: u64 },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Create => f.write_str("cannot create the load_sched model"),
            Error::BadArg => f.write_str("the load_sched shim refused an argument"),
            Error::BadStatus(c) => write!(f, "load_sched answered status code {c}"),
            Error::Unexpected { op, tag } => {
                write!(f, "load_sched answered tag {tag} during a {op:?}")
            }
            Error::Stuck { op, cycles } => {
                write!(f, "load_sched did not finish a {op:?} in {cycles} cycles")
            }
        }
    }
}

impl std::error::Error for Error {}

/// One operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// A new connection of `pool`; `bind` counts it on the winner at once.
    Pick {
        pool: u8,
        bind: bool,
    },
    Connect {
        pool: u8,
        slot: u8,
    },
    Establish {
        pool: u8,
        slot: u8,
    },
    Leave {
        pool: u8,
        slot: u8,
    },
    /// `active`: the connection was counted active.
    Close {
        pool: u8,
        slot: u8,
        active: bool,
    },
    /// `clear`: the change clears the overload flag.
    Config {
        pool: u8,
        slot: u8,
        cfg: LoadSlot,
        clear: bool,
    },
    Counts {
        pool: u8,
        slot: u8,
        active: u32,
        inactive: u32,
        overloaded: bool,
    },
    Read {
        pool: u8,
        slot: u8,
    },
}

impl Op {
    fn code(&self) -> LoadOp {
        match self {
            Op::Pick { .. } => LoadOp::Pick,
            Op::Connect { .. } => LoadOp::Connect,
            Op::Establish { .. } => LoadOp::Establish,
            Op::Leave { .. } => LoadOp::Leave,
            Op::Close { .. } => LoadOp::Close,
            Op::Config { .. } => LoadOp::Config,
            Op::Counts { .. } => LoadOp::Counts,
            Op::Read { .. } => LoadOp::Read,
        }
    }

    /// True for the operations the module answers.
    pub fn answered(&self) -> bool {
        matches!(self, Op::Pick { .. } | Op::Read { .. })
    }

    fn inputs(&self, tag: u16) -> Inputs {
        let mut i = Inputs {
            op_valid: 1,
            op_code: u32::from(self.code().raw()),
            op_tag: u32::from(tag),
            rsp_ready: 1,
            ..Inputs::default()
        };
        match *self {
            Op::Pick { pool, bind } => {
                i.op_pool = u32::from(pool);
                i.op_flag = u32::from(bind);
            }
            Op::Connect { pool, slot }
            | Op::Establish { pool, slot }
            | Op::Leave { pool, slot }
            | Op::Read { pool, slot } => {
                i.op_pool = u32::from(pool);
                i.op_slot = u32::from(slot);
            }
            Op::Close { pool, slot, active } => {
                i.op_pool = u32::from(pool);
                i.op_slot = u32::from(slot);
                i.op_flag = u32::from(active);
            }
            Op::Config {
                pool,
                slot,
                cfg,
                clear,
            } => {
                i.op_pool = u32::from(pool);
                i.op_slot = u32::from(slot);
                i.op_flag = u32::from(clear);
                i.op_live = u32::from(cfg.live);
                i.op_weight = u32::from(cfg.weight);
                i.op_rank = u32::from(cfg.rank);
                i.op_upper = cfg.upper;
                i.op_lower = cfg.lower;
            }
            Op::Counts {
                pool,
                slot,
                active,
                inactive,
                overloaded,
            } => {
                i.op_pool = u32::from(pool);
                i.op_slot = u32::from(slot);
                i.op_active = active;
                i.op_inactive = inactive;
                i.op_overloaded = u32::from(overloaded);
            }
        }
        i
    }
}

/// A server's record as the module answers it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    pub active: u32,
    pub inactive: u32,
    pub overloaded: bool,
    pub cfg: LoadSlot,
}

/// An answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The server picked; with its record after the bind when the pick bound it.
    Pick {
        server: u8,
        record: Record,
    },
    None,
    Punt,
    /// READ: the slot's record.
    Data {
        server: u8,
        record: Record,
    },
}

/// What one operation did, with its cycles (counted from reset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Done {
    pub answer: Option<Answer>,
    /// ev_underflow pulsed.
    pub underflow: bool,
    /// The cycle it was accepted (valid and ready at the edge).
    pub accepted: u64,
    /// The cycle its answer was on the port.
    pub answered: Option<u64>,
    /// The first cycle the module was ready for the next operation.
    pub ready_again: u64,
}

/// Pulses of the statistics outputs, summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Events {
    pub picks: u64,
    pub nones: u64,
    pub punts: u64,
    pub underflows: u64,
}

/// A Verilated `load_sched` with default parameters.
pub struct LoadSched {
    h: NonNull<c_void>,
    cycle: u64,
    events: Events,
    tag: u16,
}

impl LoadSched {
    /// A new model, held in reset for 4 cycles and released.
    pub fn new() -> Result<Self, Error> {
        // SAFETY: load_new takes no arguments and returns an owned handle or null.
        let h = unsafe { load_new() };
        let mut m = LoadSched {
            h: NonNull::new(h).ok_or(Error::Create)?,
            cycle: 0,
            events: Events::default(),
            tag: 0,
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
        m.events = Events::default();
        Ok(m)
    }

    /// One clock cycle: applies `i`, returns the outputs the rising edge samples, takes the
    /// edge.
    pub fn step(&mut self, i: &Inputs) -> Result<Outputs, Error> {
        let mut o = Outputs::default();
        // SAFETY: the handle is live (owned by self); `i` and `o` are valid repr(C) structs
        // the shim reads and writes only during the call.
        let rc = unsafe { load_step(self.h.as_ptr(), i, &mut o) };
        if rc != 0 {
            return Err(Error::BadArg);
        }
        self.cycle += 1;
        self.events.picks += u64::from(o.ev_pick);
        self.events.nones += u64::from(o.ev_none);
        self.events.punts += u64::from(o.ev_punt);
        self.events.underflows += u64::from(o.ev_underflow);
        Ok(o)
    }

    /// Cycles stepped since reset was released.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The statistics pulses seen so far.
    pub fn events(&self) -> Events {
        self.events
    }

    fn idle() -> Inputs {
        Inputs {
            rsp_ready: 1,
            ..Inputs::default()
        }
    }

    /// Writes pool `pool`'s descriptor: its mode and the words a pick reads (1..=32).
    pub fn set_pool(&mut self, pool: u8, mode: LoadMode, beats: u8) -> Result<(), Error> {
        let i = Inputs {
            pool_wr_en: 1,
            pool_wr_pool: u32::from(pool),
            pool_wr_mode: u32::from(mode.raw()),
            pool_wr_beats_m1: u32::from(beats.clamp(1, 32) - 1),
            ..Self::idle()
        };
        self.step(&i).map(|_| ())
    }

    /// Issues `op` as soon as the module takes it and runs until it is ready for the next
    /// one; `ready(cycle)` says whether the answer port takes an answer in that cycle.
    pub fn exec_with(
        &mut self,
        op: &Op,
        mut ready: impl FnMut(u64) -> bool,
    ) -> Result<Done, Error> {
        const BUDGET: u64 = 1000;
        self.tag = self.tag.wrapping_add(1);
        let tag = self.tag;
        let code = op.code();
        let start = self.cycle;
        let accepted = loop {
            let mut i = op.inputs(tag);
            i.rsp_ready = u32::from(ready(self.cycle));
            let cyc = self.cycle;
            let o = self.step(&i)?;
            if o.rsp_valid == 1 {
                return Err(Error::Unexpected {
                    op: code,
                    tag: o.rsp_tag,
                });
            }
            if o.op_ready == 1 {
                break cyc;
            }
            if self.cycle - start > BUDGET {
                return Err(Error::Stuck {
                    op: code,
                    cycles: BUDGET,
                });
            }
        };
        let before = self.events.underflows;
        let mut answer = None;
        let mut answered = None;
        loop {
            let mut i = Self::idle();
            i.rsp_ready = u32::from(ready(self.cycle));
            let cyc = self.cycle;
            let o = self.step(&i)?;
            if o.rsp_valid == 1 && i.rsp_ready == 1 {
                if !op.answered() || answer.is_some() || o.rsp_tag != u32::from(tag) {
                    return Err(Error::Unexpected {
                        op: code,
                        tag: o.rsp_tag,
                    });
                }
                answer = Some(decode(&o)?);
                answered = Some(cyc);
            }
            if o.op_ready == 1 && (answer.is_some() || !op.answered()) {
                return Ok(Done {
                    answer,
                    underflow: self.events.underflows != before,
                    accepted,
                    answered,
                    ready_again: cyc,
                });
            }
            if self.cycle - accepted > BUDGET {
                return Err(Error::Stuck {
                    op: code,
                    cycles: BUDGET,
                });
            }
        }
    }

    /// [`LoadSched::exec_with`] with the answer port always ready.
    pub fn exec(&mut self, op: &Op) -> Result<Done, Error> {
        self.exec_with(op, |_| true)
    }
}

fn decode(o: &Outputs) -> Result<Answer, Error> {
    let status = u8::try_from(o.rsp_status)
        .ok()
        .and_then(LoadStatus::from_raw)
        .ok_or(Error::BadStatus(o.rsp_status))?;
    let record = Record {
        active: o.rsp_active,
        inactive: o.rsp_inactive,
        overloaded: o.rsp_overloaded != 0,
        cfg: LoadSlot {
            live: o.rsp_live != 0,
            weight: o.rsp_weight as u16,
            rank: o.rsp_rank as u8,
            upper: o.rsp_upper,
            lower: o.rsp_lower,
        },
    };
    let server = o.rsp_server as u8;
    Ok(match status {
        LoadStatus::Pick => Answer::Pick { server, record },
        LoadStatus::None => Answer::None,
        LoadStatus::Punt => Answer::Punt,
        LoadStatus::Data => Answer::Data { server, record },
    })
}

impl Drop for LoadSched {
    fn drop(&mut self) {
        // SAFETY: the handle came from load_new and is freed exactly once, here.
        unsafe { load_free(self.h.as_ptr()) }
    }
}
