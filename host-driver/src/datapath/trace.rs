//! The engine's trace ring and setup-latency histogram (docs/engine.md, "Trace ring" and
//! "Setup latency"; registers `DP.TRACE_*` and `DP.SETUP_*`): the decoders, and the
//! [`Datapath`] register sequences that read them.
//!
//! The ring keeps the engine's last decisions, one [`layout::TraceEntry`] each; the
//! histogram counts connection setups (the flow-state write that puts a slot in HANDSHAKE,
//! or in REQUEST or CONNECTING when its clock has not started, to the first that puts it in
//! SPLICED) by latency, in powers of two of
//! [`SETUP_UNIT_CYCLES`] card cycles. Reading either writes an index register
//! (`DP.TRACE_RD_IDX`, `DP.SETUP_HIST_IDX`) and nothing else.

use std::net::SocketAddrV4;
use std::ops::Range;

use super::*;
use layout::Field;

pub use splicenic_layout::TraceKind;

/// Words of a trace-ring entry (`TraceEntry`), as `DP.TRACE_RD_DATA[0..4]` shows them.
pub const TRACE_ENTRY_WORDS: usize = layout::TraceEntry::WORDS;
/// Deepest ring the driver reads: `DP.TRACE_CTRL.DEPTH_LOG2` above this (65,536 entries of
/// 128 bits, more block RAM than the card's FPGA has) is refused as a bad register read
/// rather than read entry by entry.
pub const TRACE_MAX_DEPTH_LOG2: u32 = 16;
// `Datapath::trace`'s error names the limit in words.
const _: () = assert!(TRACE_MAX_DEPTH_LOG2 == 16);

/// Buckets of the setup-latency histogram (`SETUP_BUCKETS`).
pub const SETUP_BUCKETS: usize = layout::SETUP_BUCKETS as usize;
/// Card cycles per unit of the setup clock (2^`SETUP_TIME_SHIFT`): a SPLICED entry's latency
/// and the histogram's bucket bounds count these.
pub const SETUP_UNIT_CYCLES: u64 = 1 << layout::SETUP_TIME_SHIFT;
/// A SPLICED entry's detail at its largest: the latency is this many units or more.
pub const SETUP_DETAIL_SATURATED: u16 = ((1u32 << layout::TraceEntry::DETAIL.width) - 1) as u16;

// The ring's entry is read with one block read of the four data registers.
const _: () = assert!(
    regs::dp::TRACE_RD_DATA_COUNT == TRACE_ENTRY_WORDS && regs::dp::TRACE_RD_DATA_STRIDE == 4
);

// ----- the detail of a PICK entry ------------------------------------------------------
//
// TraceEntry.detail is 16 bits whose meaning depends on the kind; for PICK the layout is
// given in TraceKind's declaration (records.toml): bit 15 the unit, bits 13:12 the status,
// bits 10:8 the pool, bits 5:0 the server.

/// PICK detail: the unit that answered (0 `sched_unit`, 1 `load_sched`).
const PICK_UNIT: Field = Field::new(15, 1);
/// PICK detail: the answer's status (`SchedStatus` or `LoadStatus`).
const PICK_STATUS: Field = Field::new(12, 2);
/// PICK detail: the pool asked.
const PICK_POOL: Field = Field::new(8, 3);
/// PICK detail: the server answered.
const PICK_SERVER: Field = Field::new(0, 6);

const _: () = {
    assert!(PICK_STATUS.width == layout::sched_status::WIDTH as usize);
    assert!(PICK_STATUS.width == layout::load_status::WIDTH as usize);
    assert!(1 << PICK_POOL.width == layout::POOLS as usize);
    assert!(1 << PICK_SERVER.width == LOAD_SLOTS);
    assert!(PICK_UNIT.end() <= layout::TraceEntry::DETAIL.width);
};

/// TCP flag names by bit, bit 0 (FIN) first.
const TCP_FLAG_NAMES: [&str; 8] = ["FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR"];

/// The TCP flags 7:0 (CWR ECE URG ACK PSH RST SYN FIN) as their names joined by `,`, lowest
/// bit first (`FIN,ACK`); `none` when no flag is set.
pub fn tcp_flag_names(flags: u8) -> String {
    let names: Vec<&str> = TCP_FLAG_NAMES
        .iter()
        .enumerate()
        .filter(|(i, _)| flags & (1 << i) != 0)
        .map(|(_, n)| *n)
        .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(",")
    }
}

// ----- ring entries --------------------------------------------------------------------

/// Who wrote the flow state of a flow-state entry (HANDSHAKE .. FREE).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateWriter {
    /// The engine (the ACK validator's HANDSHAKE, the fast path's own writes).
    Engine,
    /// The firmware, through `FLOW.STATE_CMD`.
    Firmware,
}

impl fmt::Display for StateWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StateWriter::Engine => "engine",
            StateWriter::Firmware => "firmware",
        })
    }
}

/// The unit that answered a decision-supply request (a PICK entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickUnit {
    /// `sched_unit`, the table schedulers (status: `SchedStatus`).
    Sched,
    /// `load_sched`, the least-load schedulers (status: `LoadStatus`).
    Load,
}

impl fmt::Display for PickUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PickUnit::Sched => "sched_unit",
            PickUnit::Load => "load_sched",
        })
    }
}

/// A decision-supply answer (the detail of a PICK entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TracePick {
    /// The unit that answered.
    pub unit: PickUnit,
    /// The status code: a `SchedStatus` for [`PickUnit::Sched`], a `LoadStatus` for
    /// [`PickUnit::Load`].
    pub status: u8,
    /// The pool asked.
    pub pool: u8,
    /// The server answered (meaningful with status PICK).
    pub server: u8,
}

impl TracePick {
    /// Decode a PICK entry's detail.
    pub fn from_detail(detail: u16) -> TracePick {
        let d = u32::from(detail);
        TracePick {
            unit: if PICK_UNIT.get32(d) != 0 {
                PickUnit::Load
            } else {
                PickUnit::Sched
            },
            status: PICK_STATUS.get32(d) as u8,
            pool: PICK_POOL.get32(d) as u8,
            server: PICK_SERVER.get32(d) as u8,
        }
    }

    /// The status's declared name (`PICK`, `NONE`, `PUNT`, ...); `None` for a code the unit
    /// does not define.
    pub fn status_name(&self) -> Option<&'static str> {
        match self.unit {
            PickUnit::Sched => SchedStatus::from_raw(self.status).map(SchedStatus::name),
            PickUnit::Load => LoadStatus::from_raw(self.status).map(LoadStatus::name),
        }
    }

    /// The answer named a server (status PICK of either unit).
    pub fn picked(&self) -> bool {
        match self.unit {
            PickUnit::Sched => SchedStatus::from_raw(self.status) == Some(SchedStatus::Pick),
            PickUnit::Load => LoadStatus::from_raw(self.status) == Some(LoadStatus::Pick),
        }
    }
}

impl fmt::Display for TracePick {
    /// `sched_unit PICK pool 2 server 17`, `load_sched NONE pool 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.unit)?;
        match self.status_name() {
            Some(n) => f.write_str(n)?,
            None => write!(f, "status {}", self.status)?,
        }
        write!(f, " pool {}", self.pool)?;
        if self.picked() {
            write!(f, " server {}", self.server)?;
        }
        Ok(())
    }
}

/// What the detail field of a trace entry says, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceDetail {
    /// The kind carries no detail (the SYN kinds and the flow-state kinds but SPLICED).
    Empty,
    /// ACK: the ACK validator's verdict.
    Verdict {
        /// The code as read.
        code: u16,
        /// The verdict; `None` for a code the data path does not define.
        verdict: Option<EngineVerdict>,
    },
    /// SPLICED of a timed setup: its latency, from the slot's start (HANDSHAKE) to SPLICED.
    SetupLatency {
        /// Units of [`SETUP_UNIT_CYCLES`] cycles: the ticks of the card's cycle counter
        /// (one per [`SETUP_UNIT_CYCLES`]) between the start and SPLICED, so the latency is
        /// within one unit of `units` units, either way.
        units: u16,
        /// The latency was [`SETUP_DETAIL_SATURATED`] units or more.
        saturated: bool,
    },
    /// SPLICED not timed: another slot's start replaced the slot's, no write started it, or
    /// it is not the slot's first SPLICED write since its start.
    Untimed,
    /// FIN: the side the segment came from and its TCP flags.
    Fin {
        /// The port the segment arrived on.
        from: Port,
        /// TCP flags 7:0.
        flags: u8,
    },
    /// PICK: the decision-supply answer.
    Pick(TracePick),
}

impl TraceDetail {
    /// The setup latency in card cycles, `units` x [`SETUP_UNIT_CYCLES`] (within one unit
    /// of the true latency: the setup clock counts ticks of the cycle counter), for
    /// [`TraceDetail::SetupLatency`].
    pub fn setup_cycles(&self) -> Option<u64> {
        match *self {
            TraceDetail::SetupLatency { units, .. } => Some(u64::from(units) * SETUP_UNIT_CYCLES),
            _ => None,
        }
    }
}

impl fmt::Display for TraceDetail {
    /// The detail in words, latencies in card cycles; empty for [`TraceDetail::Empty`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TraceDetail::Empty => Ok(()),
            TraceDetail::Verdict {
                verdict: Some(v), ..
            } => write!(f, "verdict {}", v.name()),
            TraceDetail::Verdict {
                code,
                verdict: None,
            } => write!(f, "verdict {code:#x} (undefined)"),
            TraceDetail::SetupLatency { saturated, .. } => write!(
                f,
                "setup {}{} cycles",
                if saturated { ">= " } else { "" },
                self.setup_cycles().unwrap_or_default()
            ),
            TraceDetail::Untimed => f.write_str("setup not timed"),
            TraceDetail::Fin { from, flags } => {
                write!(f, "from {from}, flags {}", tcp_flag_names(flags))
            }
            TraceDetail::Pick(p) => write!(f, "{p}"),
        }
    }
}

/// One entry of the trace ring, decoded ([`layout::TraceEntry`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceRecord {
    /// Sequence number: the entry was the `seq`-th written since the card was powered up (from
    /// 0, modulo 2^32 like `DP.TRACE_COUNT`); its ring index is `seq` modulo the depth.
    pub seq: u32,
    /// Card clock cycle the entry was written (the low 32 bits of the cycle counter; wraps
    /// every 2^32 cycles): its decision's, or a few cycles later when it waited for the
    /// ring's write port.
    pub time: u32,
    /// What was decided (never [`TraceKind::None`]).
    pub kind: TraceKind,
    /// FIN: the port the segment came from (0 client, 1 server); flow-state kinds: 1 when
    /// the engine wrote the state, 0 the firmware. See [`TraceRecord::detail`] and
    /// [`TraceRecord::writer`].
    pub port: bool,
    /// SPLICED: the setup was timed (`detail` holds its latency).
    pub timed: bool,
    /// Generation of the slot's entry (ACK, flow-state kinds, FIN).
    pub gen: u8,
    /// Flow slot (ACK, flow-state kinds, FIN).
    pub slot: u16,
    /// Per kind, raw; [`TraceRecord::detail`] decodes it.
    pub detail: u16,
    /// The client's address (SYN kinds, flow-state kinds).
    pub ip: Ipv4Addr,
    /// The client's TCP port (SYN kinds, flow-state kinds).
    pub client_port: u16,
}

impl TraceRecord {
    /// Decode the four words of the entry with sequence number `seq` of a ring of `depth`
    /// entries (`depth` only names the ring index in errors). A kind code the data path
    /// does not define is [`DatapathError::UnknownCode`]; kind NONE (an entry never
    /// written) is [`DatapathError::TraceNeverWritten`].
    pub fn decode(
        words: &[u32; TRACE_ENTRY_WORDS],
        seq: u32,
        depth: u32,
    ) -> Result<TraceRecord, DatapathError> {
        let e = layout::TraceEntry::unpack(words);
        let kind = match TraceKind::from_raw(e.kind) {
            Some(TraceKind::None) => {
                return Err(DatapathError::TraceNeverWritten {
                    seq,
                    index: seq & depth.wrapping_sub(1),
                })
            }
            Some(k) => k,
            None => {
                return Err(DatapathError::UnknownCode {
                    what: "trace entry kind (TraceKind)",
                    value: e.kind.into(),
                })
            }
        };
        Ok(TraceRecord {
            seq,
            time: e.time,
            kind,
            port: e.port,
            timed: e.timed,
            gen: e.gen,
            slot: e.slot,
            detail: e.detail,
            ip: Ipv4Addr::from(e.ip),
            client_port: e.client_port,
        })
    }

    /// The entry is about a flow-state write (HANDSHAKE, REQUEST, CONNECTING, SPLICED,
    /// CLOSING, FREE).
    pub fn is_flow_state(&self) -> bool {
        matches!(
            self.kind,
            TraceKind::Handshake
                | TraceKind::Request
                | TraceKind::Connecting
                | TraceKind::Spliced
                | TraceKind::Closing
                | TraceKind::Free
        )
    }

    /// The entry is about a client SYN (SYN_ANSWERED, SYN_PUNTED, SYN_DROPPED).
    pub fn is_syn(&self) -> bool {
        matches!(
            self.kind,
            TraceKind::SynAnswered | TraceKind::SynPunted | TraceKind::SynDropped
        )
    }

    /// The flow slot and its generation, for the kinds that have one: the flow-state kinds,
    /// FIN, and ACK with a verdict that took or found a slot (NEW, FOUND).
    pub fn slot_gen(&self) -> Option<(u16, u8)> {
        let has = match self.kind {
            TraceKind::Fin => true,
            TraceKind::Ack => matches!(
                self.verdict(),
                Some(EngineVerdict::New | EngineVerdict::Found)
            ),
            _ => self.is_flow_state(),
        };
        has.then_some((self.slot, self.gen))
    }

    /// The client's address and port, for the kinds that carry them (the SYN kinds and the
    /// flow-state kinds: the entry's client half).
    pub fn client(&self) -> Option<SocketAddrV4> {
        (self.is_syn() || self.is_flow_state())
            .then(|| SocketAddrV4::new(self.ip, self.client_port))
    }

    /// Who wrote the flow state, for the flow-state kinds.
    pub fn writer(&self) -> Option<StateWriter> {
        self.is_flow_state().then_some(if self.port {
            StateWriter::Engine
        } else {
            StateWriter::Firmware
        })
    }

    /// The detail as an ACK validator verdict (ACK entries).
    fn verdict(&self) -> Option<EngineVerdict> {
        u8::try_from(self.detail)
            .ok()
            .and_then(EngineVerdict::from_raw)
    }

    /// The detail field decoded by kind.
    pub fn detail(&self) -> TraceDetail {
        match self.kind {
            TraceKind::Ack => TraceDetail::Verdict {
                code: self.detail,
                verdict: self.verdict(),
            },
            TraceKind::Spliced if self.timed => TraceDetail::SetupLatency {
                units: self.detail,
                saturated: self.detail == SETUP_DETAIL_SATURATED,
            },
            TraceKind::Spliced => TraceDetail::Untimed,
            TraceKind::Fin => TraceDetail::Fin {
                from: Port::from_bit(self.port),
                flags: self.detail as u8,
            },
            TraceKind::Pick => TraceDetail::Pick(TracePick::from_detail(self.detail)),
            _ => TraceDetail::Empty,
        }
    }
}

/// `DP.TRACE_CTRL`, `DP.TRACE_COUNT` and `DP.TRACE_LOST`, read with
/// [`Datapath::trace_status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceStatus {
    /// `TRACE_CTRL.ENABLE`: the engine's decisions are recorded.
    pub enabled: bool,
    /// Entries the ring holds (2^`TRACE_CTRL.DEPTH_LOG2`).
    pub depth: u32,
    /// `TRACE_COUNT`: entries written since power-up (a reset does not clear it), modulo 2^32.
    pub count: u32,
    /// `TRACE_LOST`: decisions not recorded while recording was on (another of the same
    /// source was still waiting for the ring's write port), modulo 2^32.
    pub lost: u32,
}

/// The trace ring as read by [`Datapath::trace`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// `TRACE_CTRL.ENABLE` when the read began.
    pub enabled: bool,
    /// Entries the ring holds.
    pub depth: u32,
    /// `TRACE_COUNT` when the read began: the entries read are the last
    /// `min(count, depth)` written before it.
    pub count: u32,
    /// `TRACE_COUNT` when the read ended.
    pub count_after: u32,
    /// `TRACE_LOST` when the read began.
    pub lost: u32,
    /// Entries left out because newer ones took their place while the ring was read (the
    /// oldest, whose sequence number is below `count_after - depth`).
    pub overwritten_during_read: u32,
    /// The entries, oldest first, with consecutive sequence numbers.
    pub entries: Vec<TraceRecord>,
}

impl Trace {
    /// Assemble a trace from the ring's words, read oldest first: `raw` holds the entries
    /// with sequence numbers `status.count - raw.len() ..` and their words. Entries
    /// overwritten by the time `TRACE_COUNT` read `count_after` are counted and left out
    /// (without being decoded: they may be torn); every other entry must decode.
    pub fn from_ring(
        status: TraceStatus,
        count_after: u32,
        raw: &[(u32, [u32; TRACE_ENTRY_WORDS])],
    ) -> Result<Trace, DatapathError> {
        let depth = status.depth;
        // The entry `seq` is overwritten once entry `seq + depth` is written.
        let overwritten = |seq: u32| count_after.wrapping_sub(seq) > depth;
        let mut entries = Vec::with_capacity(raw.len());
        let mut dropped = 0u32;
        for (seq, words) in raw {
            if overwritten(*seq) {
                dropped += 1;
            } else {
                entries.push(TraceRecord::decode(words, *seq, depth)?);
            }
        }
        Ok(Trace {
            enabled: status.enabled,
            depth,
            count: status.count,
            count_after,
            lost: status.lost,
            overwritten_during_read: dropped,
            entries,
        })
    }

    /// Card cycles from the first entry to each entry, in entry order. An entry's time is
    /// the cycle it was written, so the times never go back from one entry to the next:
    /// the 32-bit times are unwrapped step by step, each step taken forward modulo 2^32
    /// (right while neighbours are less than 2^32 cycles apart, 27 s at 156.25 MHz).
    pub fn relative_cycles(&self) -> Vec<u64> {
        let mut at = 0u64;
        let mut prev: Option<u32> = None;
        self.entries
            .iter()
            .map(|e| {
                if let Some(p) = prev {
                    at += u64::from(e.time.wrapping_sub(p));
                }
                prev = Some(e.time);
                at
            })
            .collect()
    }
}

// ----- the setup-latency histogram -----------------------------------------------------

/// The setup-latency histogram (`DP.SETUP_*`), read with [`Datapath::setup_histogram`]:
/// setups counted since power-up by latency, from the flow-state write that puts a slot in
/// HANDSHAKE (or in REQUEST or CONNECTING when its clock has not started) to the first that
/// puts it in SPLICED. Bucket 0 counts latencies below one unit
/// of [`SETUP_UNIT_CYCLES`] cycles, bucket `b >= 1` latencies in `[2^(b-1), 2^b)` units. The
/// counters are 32-bit and wrap; they are read one after the other, so setups finished
/// during the read can make [`SetupHistogram::total`] and `timed` differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetupHistogram {
    /// `SETUP_HIST_DATA` of each bucket.
    pub buckets: [u32; SETUP_BUCKETS],
    /// `SETUP_TIMED`: setups timed (the histogram's total when it was read).
    pub timed: u32,
    /// `SETUP_OVERWRITTEN`: setups not timed (the start of another slot with the same low
    /// bits replaced the slot's start before it was SPLICED or freed).
    pub overwritten: u32,
    /// Card cycles per unit ([`SETUP_UNIT_CYCLES`]).
    pub unit_cycles: u64,
}

impl Default for SetupHistogram {
    /// Empty, in units of [`SETUP_UNIT_CYCLES`].
    fn default() -> Self {
        SetupHistogram {
            buckets: [0; SETUP_BUCKETS],
            timed: 0,
            overwritten: 0,
            unit_cycles: SETUP_UNIT_CYCLES,
        }
    }
}

/// One bucket of a [`SetupHistogram`] in seconds ([`SetupHistogram::to_seconds`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SetupBucket {
    /// Lower bound of its latencies in seconds (included).
    pub lower: f64,
    /// Upper bound in seconds (excluded).
    pub upper: f64,
    /// Setups counted.
    pub count: u32,
}

impl SetupHistogram {
    /// The latencies bucket `b` counts, in card cycles: `0 .. unit` for bucket 0,
    /// `unit * 2^(b-1) .. unit * 2^b` for the others.
    ///
    /// # Panics
    /// If `b >= SETUP_BUCKETS`.
    pub fn bucket_cycles(&self, b: usize) -> Range<u64> {
        assert!(b < SETUP_BUCKETS, "the setup histogram has no bucket {b}");
        let upper = self.unit_cycles << b;
        if b == 0 {
            0..upper
        } else {
            upper / 2..upper
        }
    }

    /// Setups in the buckets.
    pub fn total(&self) -> u64 {
        self.buckets.iter().map(|&c| u64::from(c)).sum()
    }

    /// The `p`-th percentile (`p` in 0..=100, clamped) of the latencies, approximately: the
    /// upper bound in cycles of the bucket holding the setup of rank `ceil(p / 100 * total)`
    /// (at least the first). `None` for an empty histogram.
    pub fn percentile(&self, p: f64) -> Option<u64> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 100.0) };
        let rank = ((p / 100.0 * total as f64).ceil() as u64).clamp(1, total);
        let mut seen = 0u64;
        for (b, &c) in self.buckets.iter().enumerate() {
            seen += u64::from(c);
            if seen >= rank {
                return Some(self.bucket_cycles(b).end);
            }
        }
        // The ranks stop at the total, which the buckets reach.
        None
    }

    /// Sum of the setups' latencies, each taken at its bucket's lower bound, in cycles
    /// (saturating): a lower bound of the true sum, which the card does not keep.
    pub fn lower_bound_sum_cycles(&self) -> u64 {
        (0..SETUP_BUCKETS).fold(0u64, |sum, b| {
            sum.saturating_add(
                self.bucket_cycles(b)
                    .start
                    .saturating_mul(self.buckets[b].into()),
            )
        })
    }

    /// Every bucket with its bounds in seconds of a card clocked at `clk_hz` (`ID.CLK_HZ`).
    pub fn to_seconds(&self, clk_hz: u32) -> Vec<SetupBucket> {
        let hz = f64::from(clk_hz.max(1));
        (0..SETUP_BUCKETS)
            .map(|b| {
                let r = self.bucket_cycles(b);
                SetupBucket {
                    lower: r.start as f64 / hz,
                    upper: r.end as f64 / hz,
                    count: self.buckets[b],
                }
            })
            .collect()
    }
}

// ----- register sequences --------------------------------------------------------------

impl Datapath<'_> {
    /// Switch the trace ring's recording on or off (`DP.TRACE_CTRL.ENABLE`; on at reset).
    /// The ring and its counters are kept.
    pub fn trace_enable(&mut self, on: bool) -> Result<(), DriverError> {
        use regs::dp::trace_ctrl as c;
        self.bar.write32(
            regs::dp::TRACE_CTRL,
            put(on.into(), c::ENABLE_SHIFT, c::ENABLE_MASK),
        )?;
        Ok(())
    }

    /// Read the trace ring's control and counters (`TRACE_CTRL`, `TRACE_COUNT`,
    /// `TRACE_LOST`); nothing is written. The depth is not checked here
    /// ([`Datapath::trace`] does).
    pub fn trace_status(&mut self) -> Result<TraceStatus, DriverError> {
        use regs::dp::{self, trace_ctrl as c};
        let ctrl = self.bar.read32(dp::TRACE_CTRL)?;
        Ok(TraceStatus {
            enabled: field(ctrl, c::ENABLE_SHIFT, c::ENABLE_MASK) != 0,
            // DEPTH_LOG2 is 5 bits: at most 2^31.
            depth: 1 << field(ctrl, c::DEPTH_LOG2_SHIFT, c::DEPTH_LOG2_MASK),
            count: self.bar.read32(dp::TRACE_COUNT)?,
            lost: self.bar.read32(dp::TRACE_LOST)?,
        })
    }

    /// Read the trace ring, oldest entry first ([`Trace`]): the depth and `TRACE_COUNT`,
    /// each of the `min(count, depth)` entries written (`TRACE_RD_IDX`, then the four
    /// `TRACE_RD_DATA` words), then `TRACE_COUNT` again. Recording goes on meanwhile unless
    /// it was switched off ([`Datapath::trace_enable`]); entries overwritten during the read
    /// are left out and counted. An entry that does not decode is an error
    /// ([`TraceRecord::decode`]), and so is a depth of 1 (`TRACE_CTRL.DEPTH_LOG2` 0: a card
    /// without the ring) or above 2^[`TRACE_MAX_DEPTH_LOG2`] ([`DatapathError::BadParams`]).
    /// Writes `DP.TRACE_RD_IDX` only.
    pub fn trace(&mut self) -> Result<Trace, DriverError> {
        use regs::dp;
        let status = self.trace_status()?;
        if status.depth < 2 || status.depth > 1 << TRACE_MAX_DEPTH_LOG2 {
            return Err(DatapathError::BadParams {
                register: "DP.TRACE_CTRL.DEPTH_LOG2",
                value: status.depth.trailing_zeros(),
                reason: "0 (no trace ring) or a ring deeper than 2^16 entries",
            }
            .into());
        }
        let n = status.count.min(status.depth);
        let first = status.count.wrapping_sub(n);
        let mut raw = Vec::with_capacity(n as usize);
        for k in 0..n {
            let seq = first.wrapping_add(k);
            self.bar
                .write32(dp::TRACE_RD_IDX, seq & (status.depth - 1))?;
            let mut w = [0u32; TRACE_ENTRY_WORDS];
            self.bar.read_block(dp::TRACE_RD_DATA, &mut w)?;
            raw.push((seq, w));
        }
        let after = self.bar.read32(dp::TRACE_COUNT)?;
        Ok(Trace::from_ring(status, after, &raw)?)
    }

    /// Read the setup-latency histogram ([`SetupHistogram`]): `SETUP_TIMED`, each bucket
    /// (`SETUP_HIST_IDX`, then `SETUP_HIST_DATA`), `SETUP_OVERWRITTEN`. Writes
    /// `DP.SETUP_HIST_IDX` only.
    pub fn setup_histogram(&mut self) -> Result<SetupHistogram, DriverError> {
        use regs::dp;
        let mut h = SetupHistogram {
            timed: self.bar.read32(dp::SETUP_TIMED)?,
            ..SetupHistogram::default()
        };
        for (b, count) in h.buckets.iter_mut().enumerate() {
            self.bar.write32(dp::SETUP_HIST_IDX, b as u32)?;
            *count = self.bar.read32(dp::SETUP_HIST_DATA)?;
        }
        h.overwritten = self.bar.read32(dp::SETUP_OVERWRITTEN)?;
        Ok(h)
    }
}
