//! The least-load decision supply's records (DP.LOAD_*, docs/load-sched.md): a server's
//! counts, an answer, the counters. The register sequences are [`super::Datapath`]'s `load_*`
//! methods; what a pool's slots hold comes from the firmware's compiler
//! ([`splicenic_fw_logic::sched::Scheduler::hw_load`]).

pub use splicenic_fw_logic::sched::{LoadProgram, LoadSlot};
pub use splicenic_layout::{LoadMode, LoadOp, LoadStatus};

/// Server slots of a least-load pool.
pub const LOAD_SLOTS: usize = 64;
/// Words a pick may read (`LOAD_POOL.BEATS_M1` + 1).
pub const LOAD_MAX_BEATS: u8 = 32;
/// The largest count the card holds (2^`LOAD_COUNT_BITS` - 1).
pub const LOAD_COUNT_MAX: u32 = (1 << splicenic_layout::LOAD_COUNT_BITS) - 1;

/// A server's IPVS connection counts as the card holds them (`DP.LOAD_COUNTS`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadCounts {
    /// Connections in ESTABLISHED.
    pub active: u32,
    /// Connections in any other state.
    pub inactive: u32,
    /// The upper threshold was reached and not yet cleared.
    pub overloaded: bool,
}

/// A connection event of a server (a LoadOp without an answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadEvent {
    /// A connection was bound to the server.
    Connect,
    /// One of its connections reached ESTABLISHED.
    Establish,
    /// One of its connections left ESTABLISHED.
    Leave,
    /// One of its connections ended; `active`: it was counted active.
    Close { active: bool },
}

/// The answer to a pick (`DP.LOAD_RSP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadAnswer {
    /// This server slot takes the connection.
    Pick(u8),
    /// No server of the pool may take it.
    None,
    /// The pool is OFF: the firmware decides.
    Punt,
}

/// The least-load counters (`DP.LOAD_PICKS` .. `LOAD_REFUSED`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadCounters {
    pub picks: u32,
    pub nones: u32,
    pub punts: u32,
    /// Operations that found their count at 0 (and changed nothing).
    pub underflows: u32,
    /// `LOAD_OP` writes refused while an operation ran.
    pub refused: u32,
}
