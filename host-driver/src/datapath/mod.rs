//! Typed access to the splicer data path (docs/datapath.md): port MACs, virtual services,
//! punt policy, the flow table and flow state, the punt and inject rings, the event queue,
//! the statistics snapshot, the loss counters outside it, the L7 rule banks, and the
//! engine's trace ring and setup-latency histogram.
//!
//! [`crate::Card::datapath`] checks `ID.CAPS.SPLICER` and returns a [`Datapath`] that borrows the
//! card's BAR. Every command that the hardware completes later is polled with a bounded
//! number of reads ([`Datapath::set_poll_limit`]); running out is a
//! [`DatapathError::Timeout`].
//!
//! The punt ring, the inject rings, the event queue and the L7 request buffer are normally
//! the firmware's; host access to them is meant for bring-up and tests while the firmware
//! does not use them (INJECT.SEL and the read/write pointers are shared state). Their loss
//! counters are plain reads ([`Datapath::drop_counters`]), safe while the firmware runs.
//!
//! The encoders and decoders ([`FlowEntry`], [`FlowCounters`], [`PuntMeta`], [`Event`],
//! [`L7Rule`], [`StatsSnapshot`], [`DropCounters`], [`TraceRecord`], [`SetupHistogram`]) are
//! plain functions of the register words, usable without a card.
//!
//! Files: `flow` (flow-table keys, flow-state entries and counters), `punt` (punt records),
//! `events` (event records), `rules` (L7 rules), `stats` (the statistics snapshot), `drops`
//! (the loss counters of the punt ring, event queue, length guard, flow updates and inject
//! rings), `sched` (the decision supply's descriptors and answers), `load` (the least-load
//! decision supply's counts and answers), `trace` (the trace ring's entries and the
//! setup-latency histogram, with the [`Datapath`] register sequences that read them), `api`
//! (the other [`Datapath`] register sequences).

use std::fmt;
use std::net::Ipv4Addr;
use std::time::Duration;

use crate::bar::field;
use crate::bar::Bar;
pub use crate::error::DatapathError;
use crate::error::DriverError;
use crate::regs;
use splicenic_layout as layout;

/// Default number of status reads before a command counts as timed out.
pub const DEFAULT_POLL_LIMIT: u32 = 10_000;
/// Card time allowed between two status reads.
const POLL_PAUSE: Duration = Duration::from_micros(1);
/// Size of the L7 request buffer in bytes.
pub const L7_BUFFER_BYTES: usize = layout::L7_BUFFER_BYTES as usize;
/// Words in a punt descriptor: word 0 (length, flag) and the four punt-record words.
const PUNT_DESC_WORDS: usize = layout::PuntHead::WORDS + layout::PuntMeta::WORDS;

// ----- small helpers -------------------------------------------------------------------

/// Place `value` into a field.
const fn put(value: u32, shift: u32, mask: u32) -> u32 {
    (value & mask) << shift
}

// ----- basic types ---------------------------------------------------------------------

pub use splicenic_layout::{
    EngineVerdict, FlowHalf, FlowState, FrameClass, HttpMethod, Port, PuntWhy, TcpKind,
};
pub use splicenic_layout::{HostKind, PathKind};

/// `DP.PUNT_POLICY`: which non-service frames go to the firmware (`true`) or are dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuntPolicy {
    pub arp: bool,
    pub icmp: bool,
    pub other: bool,
    pub malformed: bool,
    pub nomatch: bool,
}

impl PuntPolicy {
    /// Register value.
    pub fn to_raw(self) -> u32 {
        use regs::dp::punt_policy as p;
        put(self.arp.into(), p::ARP_SHIFT, p::ARP_MASK)
            | put(self.icmp.into(), p::ICMP_SHIFT, p::ICMP_MASK)
            | put(self.other.into(), p::OTHER_SHIFT, p::OTHER_MASK)
            | put(self.malformed.into(), p::MALFORMED_SHIFT, p::MALFORMED_MASK)
            | put(self.nomatch.into(), p::NOMATCH_SHIFT, p::NOMATCH_MASK)
    }

    /// Decode a register value.
    pub fn from_raw(v: u32) -> PuntPolicy {
        use regs::dp::punt_policy as p;
        PuntPolicy {
            arp: field(v, p::ARP_SHIFT, p::ARP_MASK) != 0,
            icmp: field(v, p::ICMP_SHIFT, p::ICMP_MASK) != 0,
            other: field(v, p::OTHER_SHIFT, p::OTHER_MASK) != 0,
            malformed: field(v, p::MALFORMED_SHIFT, p::MALFORMED_MASK) != 0,
            nomatch: field(v, p::NOMATCH_SHIFT, p::NOMATCH_MASK) != 0,
        }
    }
}

impl Default for PuntPolicy {
    /// The reset policy (`DP.PUNT_POLICY` reset value).
    fn default() -> Self {
        PuntPolicy::from_raw(regs::dp::punt_policy::RESET)
    }
}

/// Build parameters of the data path, read when the [`Datapath`] is created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatapathParams {
    /// Stream data width in bits.
    pub data_width: u32,
    /// Rewriter latency in cycles.
    pub rewriter_latency: u32,
    /// Longest frame in bytes.
    pub max_frame: u32,
    /// Flow table entries.
    pub flow_capacity: u32,
    /// Flow state slots.
    pub flow_slots: u32,
    /// L7 rules per bank.
    pub l7_rules: u32,
    /// Longest L7 pattern in bytes.
    pub l7_pat_max: u32,
    /// Punt ring slots and bytes per slot.
    pub punt_slots: u32,
    pub punt_slot_bytes: u32,
    /// Inject ring slots and bytes per slot (each port).
    pub inject_slots: u32,
    pub inject_slot_bytes: u32,
    /// Event queue depth in records.
    pub evq_depth: u32,
    /// Statistics counters.
    pub stats_counters: u32,
}

mod api;
mod drops;
mod events;
mod flow;
mod load;
mod punt;
mod rules;
mod sched;
mod stats;
#[cfg(test)]
mod tests;
mod trace;

pub use api::*;
pub use drops::*;
pub use events::*;
pub use flow::*;
pub use load::*;
pub use punt::*;
pub use rules::*;
pub use sched::*;
pub use stats::*;
pub use trace::*;
