//! The decision supply's records (DP.SCHED_*, docs/sched-unit.md): a pool's descriptor, an
//! answer, the answer counters. The register sequences are [`super::Datapath`]'s `sched_*`
//! methods.

use splicenic_fw_logic::sched::HwProgram;
pub use splicenic_layout::{SchedMode, SchedStatus};

/// Entries of the decision table (`SCHED_TABLE_ENTRIES`).
pub const SCHED_TABLE_ENTRIES: usize = splicenic_layout::SCHED_TABLE_ENTRIES as usize;
/// Pools of the decision supply (`POOLS`).
pub const SCHED_POOLS: usize = splicenic_layout::POOLS as usize;

/// A pool's descriptor, committed at once (`DP.SCHED_RANGE`, `SCHED_LOOP`, `SCHED_COMMIT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchedDescriptor {
    /// How the pool's requests are answered.
    pub mode: SchedMode,
    /// An ineligible entry is punted instead of answered NONE.
    pub fallback: bool,
    /// sh/mh hash the client port too.
    pub hash_port: bool,
    /// First entry of the pool's table region.
    pub base: u16,
    /// `Cycle`: index of the region's last entry.
    pub last: u16,
    /// `Cycle`: index the pointer goes back to after `last`.
    pub loop_start: u16,
    /// Set the pointer to this; `None` leaves it where it is.
    pub ptr: Option<u16>,
}

impl SchedDescriptor {
    /// Every request punted, the pointer left where it is (the first step of a change).
    pub const fn off() -> Self {
        Self {
            mode: SchedMode::Off,
            fallback: false,
            hash_port: false,
            base: 0,
            last: 0,
            loop_start: 0,
            ptr: None,
        }
    }

    /// The descriptor of a compiled pool whose table is at `base`, pointer at 0.
    pub fn from_program(prog: &HwProgram, base: u16) -> Self {
        Self {
            mode: prog.mode,
            fallback: prog.fallback,
            hash_port: prog.hash_port,
            base,
            last: prog.len.saturating_sub(1) as u16,
            loop_start: prog.loop_start as u16,
            ptr: Some(0),
        }
    }
}

/// One answer of the decision supply (`DP.SCHED_RSP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchedAnswer {
    pub status: SchedStatus,
    /// The server id (status `Pick`).
    pub server: u8,
}

/// The answer counters (`DP.SCHED_PICKS`, `SCHED_NONES`, `SCHED_PUNTS`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchedCounters {
    pub picks: u32,
    pub nones: u32,
    pub punts: u32,
}
