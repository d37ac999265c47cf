//! Typed access to the splicer data path (docs/datapath.md): port MACs, virtual services,
//! punt policy, the flow table and flow state, the punt and inject rings, the event queue,
//! the statistics snapshot and the L7 rule banks.
//!
//! [`Card::datapath`] checks `ID.CAPS.SPLICER` and returns a [`Datapath`] that borrows the
//! card's BAR. Every command that the hardware completes later is polled with a bounded
//! number of reads ([`Datapath::set_poll_limit`]); running out is a
//! [`DatapathError::Timeout`].
//!
//! The punt ring, the inject rings, the event queue and the L7 request buffer are normally
//! the firmware's; host access to them is meant for bring-up and tests while the firmware
//! does not use them (INJECT.SEL and the read/write pointers are shared state).
//!
//! The encoders and decoders ([`FlowEntry`], [`FlowCounters`], [`PuntMeta`], [`Event`],
//! [`L7Rule`], [`StatsSnapshot`]) are plain functions of the register words, usable
//! without a card.

use std::fmt;
use std::net::Ipv4Addr;
use std::time::Duration;

use crate::bar::Bar;
use crate::card::{field, Card};
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

pub use splicenic_layout::{FlowHalf, FlowState, FrameClass, HttpMethod, Port, PuntWhy, TcpKind};
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

// ----- flow table ----------------------------------------------------------------------

/// Flow table key: the 4-tuple of a frame as it arrives (its own source and destination).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FlowKey {
    pub src: Ipv4Addr,
    pub dst: Ipv4Addr,
    pub sport: u16,
    pub dport: u16,
}

/// Result code of a flow table command (`FLOW.STATUS.RESULT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowStatus {
    /// Done (LOOKUP: found).
    Ok,
    /// INSERT: the key is already in the table (the result holds the stored entry).
    Exists,
    /// INSERT: every way of the key's bucket is used.
    BucketFull,
    /// LOOKUP or DELETE: the key is not in the table.
    NotFound,
}

impl FlowStatus {
    fn from_raw(v: u32) -> FlowStatus {
        use regs::flow::status as s;
        match v {
            s::RESULT_OK => FlowStatus::Ok,
            s::RESULT_EXISTS => FlowStatus::Exists,
            s::RESULT_BUCKET_FULL => FlowStatus::BucketFull,
            _ => FlowStatus::NotFound,
        }
    }
}

/// Outcome of a flow table command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowResult {
    pub status: FlowStatus,
    /// Flow state slot (LOOKUP found, or INSERT EXISTS: the stored entry).
    pub slot: u16,
    /// Flow half of that entry.
    pub dir: FlowHalf,
    /// Bucket (hash) of the key.
    pub bucket: u32,
    /// Way of the bucket that was hit, written or freed.
    pub way: u8,
}

// ----- flow state ----------------------------------------------------------------------

/// One half of a flow entry: the connection between the card and a peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HalfEntry {
    pub peer_mac: [u8; 6],
    pub peer_ip: Ipv4Addr,
    pub peer_port: u16,
    pub local_ip: Ipv4Addr,
    pub local_port: u16,
}

impl Default for HalfEntry {
    fn default() -> Self {
        HalfEntry {
            peer_mac: [0; 6],
            peer_ip: Ipv4Addr::UNSPECIFIED,
            peer_port: 0,
            local_ip: Ipv4Addr::UNSPECIFIED,
            local_port: 0,
        }
    }
}

/// Static part of a flow state slot (13 words, bit layout of `flow_state_mem`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowEntry {
    pub state: FlowState,
    /// Translate SACK edges with the ack delta.
    pub sack: bool,
    /// Translate timestamps with `ts_offset`.
    pub timestamps: bool,
    /// Rescale the window by `wscale_diff`.
    pub window_rescale: bool,
    /// Window-scale shift difference: client shift - server shift.
    pub wscale_diff: i8,
    /// Real-server index (the flow's statistics counters).
    pub real_server: u8,
    /// Timestamp offset: card TSval sent to the client - server TSval (mod 2^32).
    pub ts_offset: u32,
    /// Sequence delta client to server (added to client seq, subtracted from server ack).
    pub seq_delta_cs: u32,
    /// Sequence delta server to client.
    pub seq_delta_sc: u32,
    pub client: HalfEntry,
    pub server: HalfEntry,
}

impl Default for FlowEntry {
    fn default() -> Self {
        FlowEntry {
            state: FlowState::Free,
            sack: false,
            timestamps: false,
            window_rescale: false,
            wscale_diff: 0,
            real_server: 0,
            ts_offset: 0,
            seq_delta_cs: 0,
            seq_delta_sc: 0,
            client: HalfEntry::default(),
            server: HalfEntry::default(),
        }
    }
}

/// Number of static flow entry words.
pub const FLOW_STATIC_WORDS: usize = regs::flow::STATE_STATIC_COUNT;
/// Number of dynamic flow entry words.
pub const FLOW_DYN_WORDS: usize = regs::flow::STATE_DYN_COUNT;
const _: () = assert!(FLOW_STATIC_WORDS == layout::FlowStatic::WORDS);
const _: () = assert!(FLOW_DYN_WORDS == layout::FlowDyn::WORDS);

impl HalfEntry {
    fn to_layout(self) -> layout::FlowHalfEntry {
        layout::FlowHalfEntry {
            peer_mac: layout::mac_to_u64(self.peer_mac),
            peer_ip: self.peer_ip.into(),
            peer_port: self.peer_port,
            local_ip: self.local_ip.into(),
            local_port: self.local_port,
        }
    }

    fn from_layout(h: &layout::FlowHalfEntry) -> HalfEntry {
        HalfEntry {
            peer_mac: layout::mac_from_u64(h.peer_mac),
            peer_ip: Ipv4Addr::from(h.peer_ip),
            peer_port: h.peer_port,
            local_ip: Ipv4Addr::from(h.local_ip),
            local_port: h.local_port,
        }
    }
}

impl FlowEntry {
    /// The 13 `FLOW.STATE_STATIC` words (record `FlowStatic`, docs/records.md).
    pub fn to_words(&self) -> [u32; FLOW_STATIC_WORDS] {
        use layout::entry_flags as ef;
        let flag = |on: bool, f: u8| if on { f } else { 0 };
        layout::FlowStatic {
            state: self.state.raw(),
            flags: flag(self.sack, ef::SACK)
                | flag(self.timestamps, ef::TIMESTAMPS)
                | flag(self.window_rescale, ef::WINDOW_RESCALE),
            wscale_diff: self.wscale_diff as u8,
            real_server: self.real_server,
            ts_offset: self.ts_offset,
            seq_delta_cs: self.seq_delta_cs,
            seq_delta_sc: self.seq_delta_sc,
            client: self.client.to_layout(),
            server: self.server.to_layout(),
        }
        .pack()
    }

    /// Decode the 13 `FLOW.STATE_STATIC` words (flag bits the data path does not use are
    /// ignored); a state code the data path does not define is an error.
    pub fn from_words(w: &[u32; FLOW_STATIC_WORDS]) -> Result<FlowEntry, DatapathError> {
        use layout::entry_flags as ef;
        let f = layout::FlowStatic::unpack(w);
        Ok(FlowEntry {
            state: FlowState::from_raw(f.state).ok_or(DatapathError::UnknownCode {
                what: "flow state",
                value: f.state.into(),
            })?,
            sack: f.flags & ef::SACK != 0,
            timestamps: f.flags & ef::TIMESTAMPS != 0,
            window_rescale: f.flags & ef::WINDOW_RESCALE != 0,
            wscale_diff: f.wscale_diff as i8,
            real_server: f.real_server,
            ts_offset: f.ts_offset,
            seq_delta_cs: f.seq_delta_cs,
            seq_delta_sc: f.seq_delta_sc,
            client: HalfEntry::from_layout(&f.client),
            server: HalfEntry::from_layout(&f.server),
        })
    }
}

/// Dynamic part of a flow state slot (6 words), updated by the data path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FlowCounters {
    /// `DP.NOW` of the last forwarded segment.
    pub last_seen: u32,
    pub packets_cs: u32,
    pub packets_sc: u32,
    /// 48-bit byte counter, client to server.
    pub bytes_cs: u64,
    /// 48-bit byte counter, server to client.
    pub bytes_sc: u64,
}

impl FlowCounters {
    /// The 6 `FLOW.STATE_DYN` words (record `FlowDyn`; byte counters are cut to 48 bits).
    pub fn to_words(&self) -> [u32; FLOW_DYN_WORDS] {
        layout::FlowDyn {
            last_seen: self.last_seen,
            packets_cs: self.packets_cs,
            packets_sc: self.packets_sc,
            bytes_cs: self.bytes_cs,
            bytes_sc: self.bytes_sc,
        }
        .pack()
    }

    /// Decode the 6 `FLOW.STATE_DYN` words.
    pub fn from_words(w: &[u32; FLOW_DYN_WORDS]) -> FlowCounters {
        let d = layout::FlowDyn::unpack(w);
        FlowCounters {
            last_seen: d.last_seen,
            packets_cs: d.packets_cs,
            packets_sc: d.packets_sc,
            bytes_cs: d.bytes_cs,
            bytes_sc: d.bytes_sc,
        }
    }
}

// ----- punt records --------------------------------------------------------------------

/// Punt record (punt ring descriptor words 1-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuntMeta {
    pub port: Port,
    /// Parser reason code (0 OK, 1-2 other, 3 and up malformed; `eth_tcp_parser`).
    pub parser_reason: u8,
    pub class: FrameClass,
    /// `None` for a why code the classifier does not define.
    pub why: Option<PuntWhy>,
    pub tcp_kind: TcpKind,
    /// VIP index (class VIP) or server-side address index (class SERVER).
    pub index: u8,
    /// The flow table had the frame's key.
    pub flow_hit: bool,
    /// Flow half of the hit entry.
    pub flow_half: FlowHalf,
    /// The segment was also fed to the L7 matcher.
    pub to_l7: bool,
    /// State of the hit flow (`None` for a code the data path does not define).
    pub flow_state: Option<FlowState>,
    pub flow_slot: u16,
    pub payload_len: u16,
    pub l3_offset: u8,
    pub l4_offset: u8,
    pub payload_offset: u8,
    /// TCP flags 7:0 (CWR ECE URG ACK PSH RST SYN FIN).
    pub tcp_flags: u8,
    /// `DP.NOW` when the frame was decided.
    pub time: u32,
}

impl PuntMeta {
    /// Decode descriptor words 1-4 (record `PuntMeta`, docs/records.md).
    pub fn decode(w: [u32; 4]) -> PuntMeta {
        let m = layout::PuntMeta::unpack(&w);
        PuntMeta {
            port: Port::from_bit(m.port != 0),
            parser_reason: m.parser_reason,
            // Every 2-bit class and 3-bit kind code is defined.
            class: FrameClass::from_raw(m.class).unwrap_or(FrameClass::Drop),
            why: PuntWhy::from_raw(m.why),
            tcp_kind: TcpKind::from_raw(m.tcp_kind).unwrap_or(TcpKind::Other),
            index: m.index,
            flow_hit: m.flow_hit,
            flow_half: FlowHalf::from_bit(m.flow_half != 0),
            to_l7: m.to_l7,
            flow_state: FlowState::from_raw(m.flow_state),
            flow_slot: m.flow_slot,
            payload_len: m.payload_len,
            l3_offset: m.l3_offset,
            l4_offset: m.l4_offset,
            payload_offset: m.payload_offset,
            tcp_flags: m.tcp_flags,
            time: m.time,
        }
    }
}

/// A frame taken from the punt ring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuntedFrame {
    /// Ring slot it was read from.
    pub slot: u32,
    /// The frame's tuser flag, kept by the punt ring: the frame was marked bad on its way
    /// in (MAC error, or cut by the length guard).
    pub tuser: bool,
    pub meta: PuntMeta,
    /// The frame bytes.
    pub data: Vec<u8>,
}

impl PuntedFrame {
    /// Port the frame arrived on.
    pub fn port(&self) -> Port {
        self.meta.port
    }
}

// ----- events --------------------------------------------------------------------------

/// L7 matcher result flags (`l7_matcher`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchFlags {
    /// A rule matched.
    pub matched: bool,
    /// The request line or Host line is not complete: assemble more.
    pub incomplete: bool,
    /// Path or host need normalisation: the result is advisory.
    pub needs_norm: bool,
    /// Not an HTTP/1.x request head.
    pub not_http: bool,
    /// Absolute-form request target: check the authority against Host.
    pub absform: bool,
    /// A Host header was found.
    pub host_found: bool,
    /// Bytes past the scan window were ignored.
    pub over_window: bool,
}

impl MatchFlags {
    /// Decode the 7 flag bits (`L7Flag` masks, bit 0 matched .. bit 6 over_window).
    pub fn from_raw(v: u32) -> MatchFlags {
        use layout::l7_flag as f;
        let on = |m: u8| v & u32::from(m) != 0;
        MatchFlags {
            matched: on(f::MATCHED),
            incomplete: on(f::INCOMPLETE),
            needs_norm: on(f::NEEDS_NORM),
            not_http: on(f::NOT_HTTP),
            absform: on(f::ABSFORM),
            host_found: on(f::HOST_FOUND),
            over_window: on(f::OVER_WINDOW),
        }
    }
}

/// Result of an L7 match (event REQUEST_MATCHED).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct L7Match {
    /// The request came from the firmware buffer (`L7.CMD`), not from the data path.
    pub from_buffer: bool,
    /// `None` for a method code the matcher does not define.
    pub method: Option<HttpMethod>,
    /// Rule bank used.
    pub bank: u8,
    pub flags: MatchFlags,
    /// A rule matched (otherwise `pool` is the bank's default pool).
    pub matched: bool,
    /// Flow slot, or the `L7.CMD` tag.
    pub tag: u32,
    pub rule_id: u16,
    pub pool: u16,
    /// `DP.NOW` of the result.
    pub time: u32,
}

/// Event type codes (record word 0 bits 7:0; docs/records.md).
pub use splicenic_layout::event_type;

/// An event queue record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A forwarded segment carried FIN or RST (seq and ack as on the wire).
    FinRst {
        port: Port,
        tcp_flags: u8,
        flow_slot: u32,
        seq: u32,
        ack: u32,
    },
    /// The L7 matcher classified a request.
    RequestMatched(L7Match),
    /// A frame was committed to the punt ring.
    PuntReady { punt_slot: u32 },
    /// Any other record type, undecoded.
    Other { kind: u8, words: [u32; 4] },
}

impl Event {
    /// Decode a 4-word record (records `EvtFinRst`, `EvtRequestMatched`, `EvtPuntReady`).
    pub fn decode(w: [u32; 4]) -> Event {
        let kind = layout::EvtHead::unpack(&[w[0]]).kind;
        match kind {
            event_type::FIN_RST => {
                let e = layout::EvtFinRst::unpack(&w);
                Event::FinRst {
                    port: Port::from_bit(e.port != 0),
                    tcp_flags: e.tcp_flags,
                    flow_slot: e.flow_slot.into(),
                    seq: e.seq,
                    ack: e.ack,
                }
            }
            event_type::REQUEST_MATCHED => {
                let e = layout::EvtRequestMatched::unpack(&w);
                Event::RequestMatched(L7Match {
                    from_buffer: e.from_buffer,
                    method: HttpMethod::from_raw(e.method),
                    bank: u8::from(e.bank),
                    flags: MatchFlags::from_raw(e.flags.into()),
                    matched: e.matched,
                    tag: e.tag.into(),
                    rule_id: e.rule_id,
                    pool: e.pool,
                    time: e.time,
                })
            }
            event_type::PUNT_READY => Event::PuntReady {
                punt_slot: layout::EvtPuntReady::unpack(&w).punt_slot.into(),
            },
            _ => Event::Other { kind, words: w },
        }
    }
}

// ----- L7 rules ------------------------------------------------------------------------

/// One L7 rule. The lowest (priority, rule index) of the matching rules wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L7Rule {
    /// Lower wins.
    pub priority: u16,
    pub path_kind: PathKind,
    pub path: Vec<u8>,
    pub host_kind: HostKind,
    /// Host pattern in natural order; stored lower-cased (the matcher lower-cases hosts).
    pub host: Vec<u8>,
    /// Returned in the match result.
    pub rule_id: u16,
    pub pool: u16,
}

/// One write of a rule: word index within the rule and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleWord {
    pub word: u8,
    pub data: u32,
}

/// Rule word indices (`l7_rule_bank`; enumeration `RuleWordIndex`, docs/records.md).
pub use splicenic_layout::rule_word_index as rule_word;

impl L7Rule {
    /// The rule words to write, ending with the control word that makes the rule valid.
    /// `pat_max` is the card's pattern capacity (`L7.PARAMS.PAT_MAX`).
    pub fn encode(&self, pat_max: usize) -> Result<Vec<RuleWord>, DatapathError> {
        // The word map has 0x40 path words and 0x40 host words at most.
        let cap = pat_max.min(4 * 0x40);
        for (which, len) in [("path", self.path.len()), ("host", self.host.len())] {
            if len > cap {
                return Err(DatapathError::PatternTooLong {
                    which,
                    len,
                    max: cap,
                });
            }
        }
        let mut out = Vec::new();
        let mut pack = |bytes: &[u8], base: u8| {
            for (k, w) in layout::words_le(bytes).enumerate() {
                out.push(RuleWord {
                    word: base + k as u8,
                    data: w,
                });
            }
        };
        pack(&self.path, rule_word::PATH);
        let host_rev: Vec<u8> = self.host.iter().rev().map(u8::to_ascii_lowercase).collect();
        pack(&host_rev, rule_word::HOST);
        out.push(RuleWord {
            word: rule_word::META,
            data: layout::L7RuleMeta {
                priority: self.priority,
                rule_id: self.rule_id,
            }
            .pack()[0],
        });
        out.push(RuleWord {
            word: rule_word::POOL,
            data: self.pool.into(),
        });
        out.push(RuleWord {
            word: rule_word::CTRL,
            data: layout::L7RuleCtrl {
                path_len: self.path.len() as u16,
                host_len: self.host.len() as u16,
                host_kind: self.host_kind.raw(),
                path_kind: self.path_kind.raw(),
                valid: true,
            }
            .pack()[0],
        });
        Ok(out)
    }
}

/// `L7.STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct L7Status {
    pub active_bank: u8,
    pub inactive_busy: bool,
    pub write_pending: bool,
    pub buffer_busy: bool,
}

/// Checksums the inject ring fills in, with the offsets it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChecksumOffload {
    /// IPv4 header offset in the frame.
    pub ip_off: u16,
    /// TCP header offset (ip_off + 4 * IHL).
    pub l4_off: u16,
    /// End of the TCP segment (ip_off + IPv4 total length).
    pub l4_end: u16,
    /// Fill in the IPv4 header checksum.
    pub ip: bool,
    /// Fill in the TCP checksum.
    pub tcp: bool,
}

// ----- statistics ----------------------------------------------------------------------

/// Counters of the STATS block this driver decodes (index map in docs/records.md).
pub const STATS_COUNTERS: usize = layout::stats::COUNTERS;
/// Virtual services with counters.
pub const STATS_SERVICES: usize = layout::STATS_SERVICES as usize;
/// Real servers with counters (a flow's real-server index counts modulo this).
pub const STATS_SERVERS: usize = layout::STATS_SERVERS as usize;

/// Counter indices of the STATS block (index map `STATS`, docs/records.md).
pub use splicenic_layout::stats as stats_index;

/// Names of the classifier why codes 1..=5 of dropped frames (`DROP_` and the `PuntWhy`
/// name), in code order.
const CLASSIFIER_DROPS: [&str; 5] = [
    "DROP_ARP",
    "DROP_ICMP",
    "DROP_OTHER",
    "DROP_MALFORMED",
    "DROP_NOMATCH",
];
const _: () = {
    let mut i = 0;
    while i < CLASSIFIER_DROPS.len() {
        // Each name is DROP_ + the declared name of why code i + 1.
        let name = CLASSIFIER_DROPS[i].as_bytes();
        let why = match PuntWhy::from_raw(i as u8 + 1) {
            Some(w) => w.name().as_bytes(),
            None => panic!("a classifier drop name without a why code"),
        };
        assert!(name.len() == why.len() + 5);
        let mut k = 0;
        while k < why.len() {
            assert!(name[k + 5] == why[k]);
            k += 1;
        }
        i += 1;
    }
};

/// Counters of one Ethernet port.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PortCounters {
    pub rx_frames: u64,
    pub rx_bytes: u64,
    /// Every frame leaving the port: fast path and inject.
    pub tx_frames: u64,
    pub tx_bytes: u64,
    /// Frames received on the port and forwarded, punted or dropped.
    pub forwarded: u64,
    pub punted: u64,
    pub dropped: u64,
}

/// Counters of one real server: frames of its spliced flows forwarded by the fast path,
/// bytes = frame length as received. `in_*` counts client to server (frames that arrived
/// on port C), `out_*` server to client (arrived on port S); `frames` and `bytes` count
/// both (`in + out`, kept by the card as counters of their own).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServerCounters {
    pub frames: u64,
    pub bytes: u64,
    pub in_frames: u64,
    pub in_bytes: u64,
    pub out_frames: u64,
    pub out_bytes: u64,
}

/// A statistics snapshot decoded by the card's counter map (docs/datapath.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsSnapshot {
    counters: Vec<u64>,
}

impl StatsSnapshot {
    /// Wrap the counters of a snapshot ([`Datapath::stats_snapshot`]). A card with fewer
    /// than [`STATS_COUNTERS`] counters has no per-direction real-server counters and is
    /// refused; further counters are kept in [`StatsSnapshot::raw`].
    pub fn from_counters(counters: Vec<u64>) -> Result<StatsSnapshot, DatapathError> {
        if counters.len() < STATS_COUNTERS {
            return Err(DatapathError::BadParams {
                register: "STATS.PARAMS.COUNTERS",
                value: u32::try_from(counters.len()).unwrap_or(u32::MAX),
                reason: "fewer than the 512 counters of the per-direction real-server map",
            });
        }
        Ok(StatsSnapshot { counters })
    }

    /// Every counter by index.
    pub fn raw(&self) -> &[u64] {
        &self.counters
    }

    /// Counters of a port.
    pub fn port(&self, p: Port) -> PortCounters {
        use stats_index::port as sp;
        let c = &self.counters[sp::index(usize::from(p.raw()))..];
        PortCounters {
            rx_frames: c[sp::RX_FRAMES],
            rx_bytes: c[sp::RX_BYTES],
            tx_frames: c[sp::TX_FRAMES],
            tx_bytes: c[sp::TX_BYTES],
            forwarded: c[sp::FORWARDED],
            punted: c[sp::PUNTED],
            dropped: c[sp::DROPPED],
        }
    }

    /// Frames and bytes received for virtual service `v`.
    ///
    /// # Panics
    /// If `v >= STATS_SERVICES`.
    pub fn service(&self, v: usize) -> (u64, u64) {
        assert!(v < STATS_SERVICES, "virtual service {v} has no counters");
        use stats_index::service as sv;
        let i = sv::index(v);
        (self.counters[i + sv::FRAMES], self.counters[i + sv::BYTES])
    }

    /// Counters of real server `r`.
    ///
    /// # Panics
    /// If `r >= STATS_SERVERS`.
    pub fn server(&self, r: usize) -> ServerCounters {
        assert!(r < STATS_SERVERS, "real server {r} has no counters");
        use stats_index::{server as sr, server_dir as sd};
        let (i, d) = (sr::index(r), sd::index(r));
        ServerCounters {
            frames: self.counters[i + sr::FRAMES],
            bytes: self.counters[i + sr::BYTES],
            in_frames: self.counters[d + sd::CS_FRAMES],
            in_bytes: self.counters[d + sd::CS_BYTES],
            out_frames: self.counters[d + sd::SC_FRAMES],
            out_bytes: self.counters[d + sd::SC_BYTES],
        }
    }

    /// Frames per parser reason (named as in `eth_tcp_parser`; punted or dropped), then
    /// frames with parser verdict OK that the classifier dropped, per why code (`DROP_*`;
    /// ARP / ICMP / other / malformed frames carry a parser reason and are counted under
    /// it, so of these only `DROP_NOMATCH` counts today). In counter-index order.
    pub fn drop_reasons(&self) -> Vec<(&'static str, u64)> {
        let parser = layout::ParserReason::ALL[1..].iter().map(|r| {
            (
                r.name(),
                self.counters[stats_index::parser_reason::index(usize::from(r.raw()))],
            )
        });
        let classifier = CLASSIFIER_DROPS
            .iter()
            .enumerate()
            .map(|(k, &n)| (n, self.counters[stats_index::classifier_drop::index(k + 1)]));
        parser.chain(classifier).collect()
    }
}

// ----- the API -------------------------------------------------------------------------

/// The splicer data path of a card, borrowing its BAR.
pub struct Datapath<'a> {
    bar: &'a mut dyn Bar,
    params: DatapathParams,
    poll_limit: u32,
}

impl fmt::Debug for Datapath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Datapath")
            .field("params", &self.params)
            .field("poll_limit", &self.poll_limit)
            .finish_non_exhaustive()
    }
}

impl Card {
    /// The card's splicer data path; fails when `ID.CAPS.SPLICER` is not set.
    pub fn datapath(&mut self) -> Result<Datapath<'_>, DriverError> {
        if !self.info.caps.splicer {
            return Err(DatapathError::NotPresent.into());
        }
        Datapath::new(self.bar.as_mut())
    }
}

/// Check a ring / table size read from a PARAMS register.
fn check_param(
    register: &'static str,
    value: u32,
    max: u32,
    pow2: bool,
    multiple: u32,
) -> Result<u32, DatapathError> {
    let bad = |reason| {
        Err(DatapathError::BadParams {
            register,
            value,
            reason,
        })
    };
    if value == 0 {
        bad("zero")
    } else if value > max {
        bad("larger than its register fields can address")
    } else if pow2 && !value.is_power_of_two() {
        bad("not a power of two")
    } else if value % multiple != 0 {
        bad("not a multiple of 4")
    } else {
        Ok(value)
    }
}

impl<'a> Datapath<'a> {
    /// Access the data path through `bar` (the caller knows the card has one); reads and
    /// checks the build parameters.
    pub fn new(bar: &'a mut dyn Bar) -> Result<Datapath<'a>, DriverError> {
        use regs::{dp, evq, inject, l7, punt, stats};
        let dp_params = bar.read32(dp::PARAMS)?;
        let l7_params = bar.read32(l7::PARAMS)?;
        let punt_params = bar.read32(punt::PARAMS)?;
        let inject_params = bar.read32(inject::PARAMS)?;
        let word_max = (punt::rd_ptr::WORD_MASK + 1) * 4;
        let params = DatapathParams {
            data_width: field(
                dp_params,
                dp::params::DATA_WIDTH_SHIFT,
                dp::params::DATA_WIDTH_MASK,
            ),
            rewriter_latency: field(
                dp_params,
                dp::params::LATENCY_SHIFT,
                dp::params::LATENCY_MASK,
            ),
            max_frame: bar.read32(dp::MAX_FRAME)?,
            flow_capacity: bar.read32(dp::FLOW_CAPACITY)?,
            flow_slots: check_param(
                "DP.FLOW_SLOTS",
                bar.read32(dp::FLOW_SLOTS)?,
                regs::flow::state_slot::SLOT_MASK + 1,
                true,
                1,
            )?,
            l7_rules: check_param(
                "L7.PARAMS.RULES",
                field(l7_params, l7::params::RULES_SHIFT, l7::params::RULES_MASK),
                l7::rule::INDEX_MASK + 1,
                false,
                1,
            )?,
            l7_pat_max: check_param(
                "L7.PARAMS.PAT_MAX",
                field(
                    l7_params,
                    l7::params::PAT_MAX_SHIFT,
                    l7::params::PAT_MAX_MASK,
                ),
                256,
                false,
                4,
            )?,
            punt_slots: check_param(
                "PUNT.PARAMS.SLOTS",
                field(
                    punt_params,
                    punt::params::SLOTS_SHIFT,
                    punt::params::SLOTS_MASK,
                ),
                punt::rd_ptr::SLOT_MASK + 1,
                true,
                1,
            )?,
            punt_slot_bytes: check_param(
                "PUNT.PARAMS.SLOT_BYTES",
                field(
                    punt_params,
                    punt::params::SLOT_BYTES_SHIFT,
                    punt::params::SLOT_BYTES_MASK,
                ),
                word_max,
                false,
                4,
            )?,
            inject_slots: check_param(
                "INJECT.PARAMS.SLOTS",
                field(
                    inject_params,
                    inject::params::SLOTS_SHIFT,
                    inject::params::SLOTS_MASK,
                ),
                u32::MAX,
                true,
                1,
            )?,
            inject_slot_bytes: check_param(
                "INJECT.PARAMS.SLOT_BYTES",
                field(
                    inject_params,
                    inject::params::SLOT_BYTES_SHIFT,
                    inject::params::SLOT_BYTES_MASK,
                ),
                (inject::wr_ptr::WORD_MASK + 1) * 4,
                false,
                4,
            )?,
            evq_depth: field(
                bar.read32(evq::PARAMS)?,
                evq::params::DEPTH_SHIFT,
                evq::params::DEPTH_MASK,
            ),
            stats_counters: check_param(
                "STATS.PARAMS.COUNTERS",
                field(
                    bar.read32(stats::PARAMS)?,
                    stats::params::COUNTERS_SHIFT,
                    stats::params::COUNTERS_MASK,
                ),
                stats::rd_idx::INDEX_MASK + 1,
                false,
                1,
            )?,
        };
        Ok(Datapath {
            bar,
            params,
            poll_limit: DEFAULT_POLL_LIMIT,
        })
    }

    /// Build parameters read at creation.
    pub fn params(&self) -> &DatapathParams {
        &self.params
    }

    /// Status reads allowed per wait (at least 1).
    pub fn set_poll_limit(&mut self, polls: u32) {
        self.poll_limit = polls.max(1);
    }

    /// Read `reg` until `done(value)`; returns the last value read.
    fn poll(
        &mut self,
        what: &'static str,
        register: &'static str,
        state: &'static str,
        reg: u64,
        done: impl Fn(u32) -> bool,
    ) -> Result<u32, DriverError> {
        for i in 0..self.poll_limit {
            if i > 0 {
                self.bar.pause(POLL_PAUSE)?;
            }
            let v = self.bar.read32(reg)?;
            if done(v) {
                return Ok(v);
            }
        }
        Err(DatapathError::Timeout {
            what,
            register,
            state,
            polls: self.poll_limit,
        }
        .into())
    }

    fn check_index(what: &'static str, index: usize, count: usize) -> Result<(), DatapathError> {
        if index < count {
            Ok(())
        } else {
            Err(DatapathError::IndexOutOfRange { what, index, count })
        }
    }

    fn check_slot(&self, slot: u16) -> Result<(), DatapathError> {
        Self::check_index("flow slot", slot.into(), self.params.flow_slots as usize)
    }

    // ----- DP ---------------------------------------------------------------------------

    /// `DP.NOW`: cycle counter >> 16.
    pub fn now(&mut self) -> Result<u32, DriverError> {
        Ok(self.bar.read32(regs::dp::NOW)?)
    }

    /// Set the MAC address of a port (the source MAC of frames it sends).
    pub fn set_port_mac(&mut self, port: Port, mac: [u8; 6]) -> Result<(), DriverError> {
        use regs::dp;
        let v = layout::mac_to_u64(mac);
        let (lo, hi) = match port {
            Port::Client => (dp::MAC_C_LO, dp::MAC_C_HI),
            Port::Server => (dp::MAC_S_LO, dp::MAC_S_HI),
        };
        self.bar.write32(lo, v as u32)?;
        self.bar.write32(hi, (v >> 32) as u32)?;
        Ok(())
    }

    /// Read the MAC address of a port.
    pub fn port_mac(&mut self, port: Port) -> Result<[u8; 6], DriverError> {
        use regs::dp;
        let (lo, hi) = match port {
            Port::Client => (dp::MAC_C_LO, dp::MAC_C_HI),
            Port::Server => (dp::MAC_S_LO, dp::MAC_S_HI),
        };
        let lo = self.bar.read32(lo)?;
        let hi = self.bar.read32(hi)? & 0xffff;
        Ok(layout::mac_from_u64(u64::from(hi) << 32 | u64::from(lo)))
    }

    /// Configure virtual service `i` (disabled while its address and port change).
    pub fn set_vip(
        &mut self,
        i: usize,
        addr: Ipv4Addr,
        port: u16,
        enable: bool,
    ) -> Result<(), DriverError> {
        use regs::dp::{self, vip_port as vp};
        Self::check_index("virtual service", i, dp::VIP_ADDR_COUNT)?;
        let port_reg = dp::VIP_PORT + i as u64 * dp::VIP_PORT_STRIDE;
        let port_val = put(port.into(), vp::PORT_SHIFT, vp::PORT_MASK);
        self.bar.write32(port_reg, port_val)?;
        self.bar
            .write32(dp::VIP_ADDR + i as u64 * dp::VIP_ADDR_STRIDE, addr.into())?;
        if enable {
            self.bar.write32(
                port_reg,
                port_val | put(1, vp::ENABLE_SHIFT, vp::ENABLE_MASK),
            )?;
        }
        Ok(())
    }

    /// Configure card-owned server-side address `i` (disabled while it changes).
    pub fn set_local(&mut self, i: usize, addr: Ipv4Addr, enable: bool) -> Result<(), DriverError> {
        use regs::dp::{self, local_ctrl as lc};
        Self::check_index("server-side address", i, dp::LOCAL_ADDR_COUNT)?;
        let ctrl = dp::LOCAL_CTRL + i as u64 * dp::LOCAL_CTRL_STRIDE;
        self.bar.write32(ctrl, 0)?;
        self.bar.write32(
            dp::LOCAL_ADDR + i as u64 * dp::LOCAL_ADDR_STRIDE,
            addr.into(),
        )?;
        if enable {
            self.bar
                .write32(ctrl, put(1, lc::ENABLE_SHIFT, lc::ENABLE_MASK))?;
        }
        Ok(())
    }

    /// Set `DP.PUNT_POLICY`.
    pub fn set_punt_policy(&mut self, policy: PuntPolicy) -> Result<(), DriverError> {
        Ok(self.bar.write32(regs::dp::PUNT_POLICY, policy.to_raw())?)
    }

    /// Read `DP.PUNT_POLICY`.
    pub fn punt_policy(&mut self) -> Result<PuntPolicy, DriverError> {
        Ok(PuntPolicy::from_raw(
            self.bar.read32(regs::dp::PUNT_POLICY)?,
        ))
    }

    /// Set or clear `DP.CTRL.FASTPATH`.
    pub fn set_fastpath(&mut self, on: bool) -> Result<(), DriverError> {
        use regs::dp::{self, ctrl as c};
        let v = self.bar.read32(dp::CTRL)? & !(c::FASTPATH_MASK << c::FASTPATH_SHIFT);
        Ok(self.bar.write32(
            dp::CTRL,
            v | put(on.into(), c::FASTPATH_SHIFT, c::FASTPATH_MASK),
        )?)
    }

    // ----- FLOW table -------------------------------------------------------------------

    fn flow_command(
        &mut self,
        what: &'static str,
        op: u32,
        key: Option<&FlowKey>,
        value: Option<(u16, FlowHalf)>,
    ) -> Result<FlowResult, DriverError> {
        use regs::flow::{self, cmd, key_ports as kp, result as r, status as st, value as val};
        let busy = |v: u32| field(v, st::BUSY_SHIFT, st::BUSY_MASK) != 0;
        self.poll(what, "FLOW.STATUS.BUSY", "set", flow::STATUS, |v| !busy(v))?;
        if let Some(k) = key {
            self.bar.write32(flow::KEY_SRC_IP, k.src.into())?;
            self.bar.write32(flow::KEY_DST_IP, k.dst.into())?;
            self.bar.write32(
                flow::KEY_PORTS,
                put(k.dport.into(), kp::DST_PORT_SHIFT, kp::DST_PORT_MASK)
                    | put(k.sport.into(), kp::SRC_PORT_SHIFT, kp::SRC_PORT_MASK),
            )?;
        }
        if let Some((slot, dir)) = value {
            self.bar.write32(
                flow::VALUE,
                put(slot.into(), val::SLOT_SHIFT, val::SLOT_MASK)
                    | put(dir.raw().into(), val::DIR_SHIFT, val::DIR_MASK),
            )?;
        }
        self.bar
            .write32(flow::CMD, put(op, cmd::OP_SHIFT, cmd::OP_MASK))?;
        let status = self.poll(what, "FLOW.STATUS.BUSY", "set", flow::STATUS, |v| !busy(v))?;
        let result = self.bar.read32(flow::RESULT)?;
        Ok(FlowResult {
            status: FlowStatus::from_raw(field(status, st::RESULT_SHIFT, st::RESULT_MASK)),
            slot: field(result, r::SLOT_SHIFT, r::SLOT_MASK) as u16,
            dir: FlowHalf::from_bit(field(result, r::DIR_SHIFT, r::DIR_MASK) != 0),
            bucket: self.bar.read32(flow::BUCKET)?,
            way: field(status, st::WAY_SHIFT, st::WAY_MASK) as u8,
        })
    }

    /// Insert `key` -> (`slot`, `dir`). A refused insert (EXISTS, BUCKET_FULL) is reported
    /// in the result's status, not as an error.
    pub fn flow_insert(
        &mut self,
        key: &FlowKey,
        slot: u16,
        dir: FlowHalf,
    ) -> Result<FlowResult, DriverError> {
        self.check_slot(slot)?;
        self.flow_command(
            "flow insert",
            regs::flow::cmd::OP_INSERT,
            Some(key),
            Some((slot, dir)),
        )
    }

    /// Delete `key` (status NOT_FOUND when it is absent).
    pub fn flow_delete(&mut self, key: &FlowKey) -> Result<FlowResult, DriverError> {
        self.flow_command("flow delete", regs::flow::cmd::OP_DELETE, Some(key), None)
    }

    /// Look up `key` (status OK with slot and dir, or NOT_FOUND).
    pub fn flow_lookup(&mut self, key: &FlowKey) -> Result<FlowResult, DriverError> {
        self.flow_command("flow lookup", regs::flow::cmd::OP_LOOKUP, Some(key), None)
    }

    /// Remove every flow table entry.
    pub fn flow_clear(&mut self) -> Result<(), DriverError> {
        self.flow_command("flow clear", regs::flow::cmd::OP_CLEAR, None, None)
            .map(|_| ())
    }

    /// `FLOW.ENTRIES`: entries in the table.
    pub fn flow_entries(&mut self) -> Result<u32, DriverError> {
        Ok(self.bar.read32(regs::flow::ENTRIES)?)
    }

    // ----- FLOW state -------------------------------------------------------------------

    fn state_command(&mut self, what: &'static str, slot: u16, op: u32) -> Result<(), DriverError> {
        use regs::flow::{self, state_cmd as c, state_slot as s, state_status as st};
        self.bar.write32(
            flow::STATE_SLOT,
            put(slot.into(), s::SLOT_SHIFT, s::SLOT_MASK),
        )?;
        self.bar
            .write32(flow::STATE_CMD, put(op, c::OP_SHIFT, c::OP_MASK))?;
        self.poll(
            what,
            "FLOW.STATE_STATUS.BUSY",
            "set",
            flow::STATE_STATUS,
            |v| field(v, st::BUSY_SHIFT, st::BUSY_MASK) == 0,
        )?;
        Ok(())
    }

    fn state_idle(&mut self, what: &'static str) -> Result<(), DriverError> {
        use regs::flow::{self, state_status as st};
        self.poll(
            what,
            "FLOW.STATE_STATUS.BUSY",
            "set",
            flow::STATE_STATUS,
            |v| field(v, st::BUSY_SHIFT, st::BUSY_MASK) == 0,
        )?;
        Ok(())
    }

    /// Write a whole flow state slot: entry and counters.
    pub fn state_write(
        &mut self,
        slot: u16,
        entry: &FlowEntry,
        counters: &FlowCounters,
    ) -> Result<(), DriverError> {
        use regs::flow;
        self.check_slot(slot)?;
        self.state_idle("flow state write")?;
        self.bar
            .write_block(flow::STATE_STATIC, &entry.to_words())?;
        self.bar
            .write_block(flow::STATE_DYN, &counters.to_words())?;
        self.state_command("flow state write", slot, flow::state_cmd::OP_WRITE)
    }

    /// Write the static part of a flow state slot; its counters and last-seen are kept.
    pub fn state_write_static(&mut self, slot: u16, entry: &FlowEntry) -> Result<(), DriverError> {
        use regs::flow;
        self.check_slot(slot)?;
        self.state_idle("flow state write")?;
        self.bar
            .write_block(flow::STATE_STATIC, &entry.to_words())?;
        self.state_command("flow state write", slot, flow::state_cmd::OP_WRITE_STATIC)
    }

    /// Read a flow state slot (the counters are a consistent snapshot).
    pub fn state_read(&mut self, slot: u16) -> Result<(FlowEntry, FlowCounters), DriverError> {
        use regs::flow;
        self.check_slot(slot)?;
        self.state_idle("flow state read")?;
        self.state_command("flow state read", slot, flow::state_cmd::OP_READ)?;
        let mut st = [0u32; FLOW_STATIC_WORDS];
        let mut dy = [0u32; FLOW_DYN_WORDS];
        self.bar.read_block(flow::STATE_STATIC, &mut st)?;
        self.bar.read_block(flow::STATE_DYN, &mut dy)?;
        Ok((FlowEntry::from_words(&st)?, FlowCounters::from_words(&dy)))
    }

    // ----- PUNT -------------------------------------------------------------------------

    /// Take the oldest frame from the punt ring, or `None` when it is empty.
    pub fn punt_next(&mut self) -> Result<Option<PuntedFrame>, DriverError> {
        use regs::punt::{self, rd_ptr as rp};
        let slots = self.params.punt_slots;
        let modulus = 2 * slots;
        let prod = self.bar.read32(punt::PROD)?;
        let cons = self.bar.read32(punt::CONS)?;
        if prod == cons {
            return Ok(None);
        }
        if prod.wrapping_sub(cons) % modulus > slots || prod >= modulus || cons >= modulus {
            return Err(DatapathError::PuntRing { prod, cons, slots }.into());
        }
        let slot = cons % slots;
        let ptr = put(slot, rp::SLOT_SHIFT, rp::SLOT_MASK);
        self.bar
            .write32(punt::RD_PTR, ptr | put(1, rp::DESC_SHIFT, rp::DESC_MASK))?;
        let mut desc = [0u32; PUNT_DESC_WORDS];
        for w in desc.iter_mut() {
            *w = self.bar.read32(punt::RD_DATA)?;
        }
        let head = layout::PuntHead::unpack(&[desc[0]]);
        let len = usize::from(head.len);
        let max = self.params.punt_slot_bytes as usize;
        if len > max {
            return Err(DatapathError::PuntDescriptor { slot, len, max }.into());
        }
        self.bar.write32(punt::RD_PTR, ptr)?;
        let mut data = Vec::with_capacity(len.next_multiple_of(4));
        for _ in 0..len.div_ceil(4) {
            data.extend_from_slice(&self.bar.read32(punt::RD_DATA)?.to_le_bytes());
        }
        data.truncate(len);
        self.bar.write32(punt::CONS, (cons + 1) % modulus)?;
        Ok(Some(PuntedFrame {
            slot,
            tuser: head.bad,
            meta: PuntMeta::decode([desc[1], desc[2], desc[3], desc[4]]),
            data,
        }))
    }

    // ----- INJECT -----------------------------------------------------------------------

    /// Send `frame` out of `port` through its inject ring, optionally with checksums
    /// filled in. Waits (bounded) for a free slot.
    pub fn inject(
        &mut self,
        port: Port,
        frame: &[u8],
        offload: Option<ChecksumOffload>,
    ) -> Result<(), DriverError> {
        use regs::inject::{self, commit as cm, commit_len as cl, commit_off as co, status as st};
        let max = self.params.inject_slot_bytes as usize;
        if frame.is_empty() || frame.len() > max {
            return Err(DatapathError::BadLength {
                what: "inject frame",
                len: frame.len(),
                min: 1,
                max,
            }
            .into());
        }
        let len = frame.len();
        let off = offload.unwrap_or(ChecksumOffload {
            ip_off: 0,
            l4_off: 0,
            l4_end: 0,
            ip: false,
            tcp: false,
        });
        if off.ip || off.tcp {
            let (ip, l4, end) = (
                usize::from(off.ip_off),
                usize::from(off.l4_off),
                usize::from(off.l4_end),
            );
            if ip + 20 > l4 || l4 + 20 > end || end > len {
                return Err(DatapathError::BadOffload {
                    ip_off: off.ip_off,
                    l4_off: off.l4_off,
                    l4_end: off.l4_end,
                    len,
                }
                .into());
            }
        }
        self.bar.write32(
            inject::SEL,
            put(
                port.raw().into(),
                inject::sel::PORT_SHIFT,
                inject::sel::PORT_MASK,
            ),
        )?;
        self.poll(
            "inject",
            "INJECT.STATUS.READY",
            "clear",
            inject::STATUS,
            |v| field(v, st::READY_SHIFT, st::READY_MASK) != 0,
        )?;
        self.bar.write32(inject::WR_PTR, 0)?;
        for w in layout::words_le(frame) {
            self.bar.write32(inject::WR_DATA, w)?;
        }
        self.bar.write32(
            inject::COMMIT_LEN,
            put(len as u32, cl::LEN_SHIFT, cl::LEN_MASK)
                | put(off.ip.into(), cl::CSUM_IP_SHIFT, cl::CSUM_IP_MASK)
                | put(off.tcp.into(), cl::CSUM_TCP_SHIFT, cl::CSUM_TCP_MASK),
        )?;
        self.bar.write32(
            inject::COMMIT_OFF,
            put(off.ip_off.into(), co::IP_OFF_SHIFT, co::IP_OFF_MASK)
                | put(off.l4_off.into(), co::L4_OFF_SHIFT, co::L4_OFF_MASK),
        )?;
        self.bar.write32(
            inject::COMMIT,
            put(off.l4_end.into(), cm::L4_END_SHIFT, cm::L4_END_MASK),
        )?;
        Ok(())
    }

    // ----- EVQ --------------------------------------------------------------------------

    /// Remove and decode the head of the event queue, or `None` when it is empty.
    pub fn evq_pop(&mut self) -> Result<Option<Event>, DriverError> {
        use regs::evq::{self, head_info as hi};
        let info = self.bar.read32(evq::HEAD_INFO)?;
        if field(info, hi::VALID_SHIFT, hi::VALID_MASK) == 0 {
            return Ok(None);
        }
        let mut w = [0u32; evq::HEAD_COUNT];
        self.bar.read_block(evq::HEAD, &mut w)?;
        self.bar.write32(evq::POP, 1)?;
        Ok(Some(Event::decode(w)))
    }

    // ----- STATS ------------------------------------------------------------------------

    /// Take a snapshot and read every counter of it (index map in docs/datapath.md).
    pub fn stats_snapshot(&mut self) -> Result<Vec<u64>, DriverError> {
        use regs::stats::{self, ctrl as c, status as st};
        self.poll(
            "statistics init",
            "STATS.STATUS.INIT_DONE",
            "clear",
            stats::STATUS,
            |v| field(v, st::INIT_DONE_SHIFT, st::INIT_DONE_MASK) != 0,
        )?;
        let keep = self.bar.read32(stats::CTRL)?
            & (c::CLEAR_ON_SNAPSHOT_MASK << c::CLEAR_ON_SNAPSHOT_SHIFT);
        self.bar.write32(
            stats::CTRL,
            keep | put(1, c::SNAPSHOT_SHIFT, c::SNAPSHOT_MASK),
        )?;
        let mut out = Vec::with_capacity(self.params.stats_counters as usize);
        for i in 0..self.params.stats_counters {
            self.bar.write32(stats::RD_IDX, i)?;
            self.poll(
                "statistics read",
                "STATS.STATUS.RD_BUSY",
                "set",
                stats::STATUS,
                |v| field(v, st::RD_BUSY_SHIFT, st::RD_BUSY_MASK) == 0,
            )?;
            let lo = self.bar.read32(stats::RD_LO)?;
            let hi = self.bar.read32(stats::RD_HI)?;
            out.push(u64::from(hi) << 32 | u64::from(lo));
        }
        Ok(out)
    }

    /// Take a snapshot and decode it ([`StatsSnapshot`]); fails on a card without the
    /// per-direction real-server counters.
    pub fn stats(&mut self) -> Result<StatsSnapshot, DriverError> {
        Ok(StatsSnapshot::from_counters(self.stats_snapshot()?)?)
    }

    /// Set `STATS.CTRL.CLEAR_ON_SNAPSHOT` (snapshots then report deltas).
    pub fn set_stats_clear_on_snapshot(&mut self, on: bool) -> Result<(), DriverError> {
        use regs::stats::{self, ctrl as c};
        Ok(self.bar.write32(
            stats::CTRL,
            put(
                on.into(),
                c::CLEAR_ON_SNAPSHOT_SHIFT,
                c::CLEAR_ON_SNAPSHOT_MASK,
            ),
        )?)
    }

    // ----- L7 ---------------------------------------------------------------------------

    /// Read `L7.STATUS`.
    pub fn l7_status(&mut self) -> Result<L7Status, DriverError> {
        use regs::l7::{self, status as s};
        let v = self.bar.read32(l7::STATUS)?;
        Ok(L7Status {
            active_bank: field(v, s::ACTIVE_BANK_SHIFT, s::ACTIVE_BANK_MASK) as u8,
            inactive_busy: field(v, s::INACTIVE_BUSY_SHIFT, s::INACTIVE_BUSY_MASK) != 0,
            write_pending: field(v, s::WR_PENDING_SHIFT, s::WR_PENDING_MASK) != 0,
            buffer_busy: field(v, s::BUF_BUSY_SHIFT, s::BUF_BUSY_MASK) != 0,
        })
    }

    fn l7_write_word(&mut self, rule: u32, word: u8, data: u32) -> Result<(), DriverError> {
        use regs::l7::{self, rule as r, status as s, word as w};
        self.poll(
            "L7 rule write",
            "L7.STATUS.WR_PENDING",
            "set",
            l7::STATUS,
            |v| field(v, s::WR_PENDING_SHIFT, s::WR_PENDING_MASK) == 0,
        )?;
        self.bar
            .write32(l7::RULE, put(rule, r::INDEX_SHIFT, r::INDEX_MASK))?;
        self.bar
            .write32(l7::WORD, put(word.into(), w::INDEX_SHIFT, w::INDEX_MASK))?;
        self.bar.write32(l7::DATA, data)?;
        Ok(())
    }

    /// Write rule words (see [`L7Rule::encode`]) into rule `index` of the inactive bank.
    pub fn l7_write_rule(&mut self, index: usize, words: &[RuleWord]) -> Result<(), DriverError> {
        Self::check_index("L7 rule", index, self.params.l7_rules as usize)?;
        for w in words {
            self.l7_write_word(index as u32, w.word, w.data)?;
        }
        Ok(())
    }

    /// Encode `rule` and write it into rule `index` of the inactive bank.
    pub fn l7_load_rule(&mut self, index: usize, rule: &L7Rule) -> Result<(), DriverError> {
        let words = rule.encode(self.params.l7_pat_max as usize)?;
        self.l7_write_rule(index, &words)
    }

    /// Invalidate every rule of the inactive bank.
    pub fn l7_clear_inactive(&mut self) -> Result<(), DriverError> {
        self.l7_write_word(0, rule_word::CLEAR_BANK, 0)
    }

    /// Set the inactive bank's default pool (the result when no rule matches).
    pub fn l7_set_default_pool(&mut self, pool: u16) -> Result<(), DriverError> {
        self.l7_write_word(0, rule_word::DEFAULT_POOL, pool.into())
    }

    /// Swap the banks: the inactive bank becomes active. Returns the new active bank.
    pub fn l7_switch_banks(&mut self) -> Result<u8, DriverError> {
        use regs::l7::{self, status as s, switch as sw};
        self.poll(
            "L7 bank switch",
            "L7.STATUS.WR_PENDING",
            "set",
            l7::STATUS,
            |v| field(v, s::WR_PENDING_SHIFT, s::WR_PENDING_MASK) == 0,
        )?;
        self.bar
            .write32(l7::SWITCH, put(1, sw::SWITCH_SHIFT, sw::SWITCH_MASK))?;
        Ok(self.l7_status()?.active_bank)
    }

    /// Match `request` (the first bytes of an HTTP request) against the active bank; the
    /// result arrives as an [`Event::RequestMatched`] with `from_buffer` set and `tag`.
    pub fn l7_match_buffer(&mut self, request: &[u8], tag: u16) -> Result<(), DriverError> {
        use regs::l7::{self, cmd as c, status as s};
        if request.is_empty() || request.len() > L7_BUFFER_BYTES {
            return Err(DatapathError::BadLength {
                what: "L7 request buffer",
                len: request.len(),
                min: 1,
                max: L7_BUFFER_BYTES,
            }
            .into());
        }
        self.poll(
            "L7 buffer match",
            "L7.STATUS.BUF_BUSY",
            "set",
            l7::STATUS,
            |v| field(v, s::BUF_BUSY_SHIFT, s::BUF_BUSY_MASK) == 0,
        )?;
        self.bar.write32(l7::BUF_PTR, 0)?;
        for w in layout::words_le(request) {
            self.bar.write32(l7::BUF_DATA, w)?;
        }
        self.bar.write32(
            l7::CMD,
            put(request.len() as u32, c::LEN_SHIFT, c::LEN_MASK)
                | put(tag.into(), c::TAG_SHIFT, c::TAG_MASK),
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bar::{check_access, BarError};
    use crate::card::tests::FakeBar;
    use std::collections::{HashMap, VecDeque};

    fn sample_entry() -> FlowEntry {
        FlowEntry {
            state: FlowState::Spliced,
            sack: true,
            timestamps: false,
            window_rescale: true,
            wscale_diff: -3,
            real_server: 0x2a,
            ts_offset: 0x8765_4321,
            seq_delta_cs: 0x1122_3344,
            seq_delta_sc: 0xfedc_ba98,
            client: HalfEntry {
                peer_mac: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55],
                peer_ip: Ipv4Addr::new(10, 0, 0, 1),
                peer_port: 40000,
                local_ip: Ipv4Addr::new(192, 168, 1, 10),
                local_port: 80,
            },
            server: HalfEntry {
                peer_mac: [0x0a, 0xbb, 0xcc, 0xdd, 0xee, 0xff],
                peer_ip: Ipv4Addr::new(172, 16, 0, 5),
                peer_port: 8080,
                local_ip: Ipv4Addr::new(172, 16, 0, 1),
                local_port: 50123,
            },
        }
    }

    #[test]
    fn flow_entry_words_follow_the_flow_state_mem_layout() {
        let w = sample_entry().to_words();
        // word 0: state 4, flags 0b101, diff -3 = 0xfd, real server 0x2a.
        assert_eq!(w[0], 0x2afd_0504);
        assert_eq!(w[1], 0x8765_4321);
        assert_eq!(w[2], 0x1122_3344);
        assert_eq!(w[3], 0xfedc_ba98);
        // Client half at bit 128: MAC 47:0, IP 79:48, port 95:80, local IP 127:96,
        // local port 143:128.
        assert_eq!(w[4], 0x2233_4455); // MAC bits 31:0
        assert_eq!(w[5], 0x0001_0211); // IP 15:0 (0x0001) | MAC 47:32 (0x0211)
        assert_eq!(w[6], 40000 << 16 | 0x0a00); // port | IP 31:16
        assert_eq!(w[7], 0xc0a8_010a); // local IP
        assert_eq!(w[8], 0xeeff_0050); // server MAC 15:0 | client local port 80
        assert_eq!(w[9], 0x0abb_ccdd); // server MAC 47:16
        assert_eq!(w[10], 0xac10_0005); // server peer IP
        assert_eq!(w[11], 0x0001_1f90); // local IP 15:0 | peer port 8080
        assert_eq!(w[12], 0xc3cb_ac10); // local port 50123 | local IP 31:16
    }

    #[test]
    fn flow_entry_round_trips() {
        let e = sample_entry();
        assert_eq!(FlowEntry::from_words(&e.to_words()).unwrap(), e);
        let d = FlowEntry::default();
        assert_eq!(d.to_words(), [0; FLOW_STATIC_WORDS]);
        assert_eq!(FlowEntry::from_words(&d.to_words()).unwrap(), d);
        // A state code the data path does not define is named, not taken.
        let mut w = e.to_words();
        w[0] = w[0] & !0xff | 0x99;
        let err = FlowEntry::from_words(&w).unwrap_err();
        assert!(matches!(
            err,
            DatapathError::UnknownCode {
                what: "flow state",
                value: 0x99
            }
        ));
        assert!(err.to_string().contains("flow state code 0x99"), "{err}");
    }

    #[test]
    fn flow_counters_round_trip_and_layout() {
        let c = FlowCounters {
            last_seen: 0x0102_0304,
            packets_cs: 5,
            packets_sc: 6,
            bytes_cs: 0xaaaa_bbbb_cccc,
            bytes_sc: 0x1234_5678_9abc,
        };
        let w = c.to_words();
        assert_eq!(
            w,
            [0x0102_0304, 5, 6, 0xbbbb_cccc, 0x9abc_aaaa, 0x1234_5678]
        );
        assert_eq!(FlowCounters::from_words(&w), c);
        // Byte counters are 48 bits wide.
        let big = FlowCounters {
            bytes_cs: u64::MAX,
            ..FlowCounters::default()
        };
        assert_eq!(
            FlowCounters::from_words(&big.to_words()).bytes_cs,
            (1 << 48) - 1
        );
    }

    #[test]
    fn punt_meta_decodes_every_field() {
        let w1 = 1 // port S
            | 9 << 4 // parser reason
            | 1 << 8 // class SERVER
            | 5 << 10 // why NOMATCH
            | 3 << 13 // SYN_ACK
            | 2 << 16 // index
            | 1 << 20 // hit
            | 1 << 21 // server half
            | 1 << 22 // to L7
            | 2 << 24; // state REQUEST
        let m = PuntMeta::decode([w1, 0x05dc_1234, 0x1236_2214, 0xdead_beef]);
        assert_eq!(
            m,
            PuntMeta {
                port: Port::Server,
                parser_reason: 9,
                class: FrameClass::Server,
                why: Some(PuntWhy::NoMatch),
                tcp_kind: TcpKind::SynAck,
                index: 2,
                flow_hit: true,
                flow_half: FlowHalf::Server,
                to_l7: true,
                flow_state: Some(FlowState::Request),
                flow_slot: 0x1234,
                payload_len: 1500,
                l3_offset: 0x14,
                l4_offset: 0x22,
                payload_offset: 0x36,
                tcp_flags: 0x12,
                time: 0xdead_beef,
            }
        );
        let z = PuntMeta::decode([0, 0, 0, 0]);
        assert_eq!(z.port, Port::Client);
        assert_eq!(z.class, FrameClass::Vip);
        assert_eq!(z.why, Some(PuntWhy::None));
        assert_eq!(z.tcp_kind, TcpKind::None);
        assert_eq!(PuntMeta::decode([3 << 8 | 7 << 10, 0, 0, 0]).why, None);
    }

    #[test]
    fn events_decode() {
        assert_eq!(
            Event::decode([4 | 1 << 8 | 0x11 << 16, 77, 1000, 2000]),
            Event::FinRst {
                port: Port::Server,
                tcp_flags: 0x11,
                flow_slot: 77,
                seq: 1000,
                ack: 2000
            }
        );
        let w0 = 2 | 1 << 8 | 3 << 9 | 1 << 12 | 0b010_0001 << 13 | 1 << 20;
        assert_eq!(
            Event::decode([w0, 0x55, 9 << 16 | 0x0102, 1234]),
            Event::RequestMatched(L7Match {
                from_buffer: true,
                method: Some(HttpMethod::Post),
                bank: 1,
                flags: MatchFlags {
                    matched: true,
                    host_found: true,
                    ..MatchFlags::default()
                },
                matched: true,
                tag: 0x55,
                rule_id: 0x0102,
                pool: 9,
                time: 1234,
            })
        );
        let e = Event::decode([2 | 7 << 9 | 0b100_0000 << 13, 1, 0, 0]);
        let Event::RequestMatched(m) = e else {
            panic!("{e:?}")
        };
        assert_eq!(m.method, None);
        assert!(m.flags.over_window && !m.matched && !m.from_buffer);
        assert_eq!(
            Event::decode([7, 3, 0, 0]),
            Event::PuntReady { punt_slot: 3 }
        );
        assert_eq!(
            Event::decode([0x0105, 1, 2, 3]),
            Event::Other {
                kind: 5,
                words: [0x0105, 1, 2, 3]
            }
        );
    }

    #[test]
    fn rule_encoding_follows_the_rule_bank_word_map() {
        let r = L7Rule {
            priority: 5,
            path_kind: PathKind::Exact,
            path: b"/api".to_vec(),
            host_kind: HostKind::Suffix,
            host: b".Example.com".to_vec(),
            rule_id: 7,
            pool: 3,
        };
        let w = r.encode(64).unwrap();
        let pairs: Vec<(u8, u32)> = w.iter().map(|w| (w.word, w.data)).collect();
        assert_eq!(
            pairs,
            vec![
                (0x40, 0x6970_612f), // "/api"
                (0x80, 0x2e63_6f6d), // "moc."
                (0x81, 0x6d70_6c65), // "elpm"
                (0x82, 0x2e65_7861), // "axe."
                (0x01, 7 << 16 | 5), // rule id, priority
                (0x02, 3),           // pool
                (0x00, 0x980c_0004), // valid, exact, suffix, 12, 4
            ]
        );
        // The control word (valid) is written last.
        assert_eq!(w.last().unwrap().word, rule_word::CTRL);
        let any = L7Rule {
            priority: 0,
            path_kind: PathKind::Any,
            path: vec![],
            host_kind: HostKind::Never,
            host: vec![],
            rule_id: 0xffff,
            pool: 0xffff,
        };
        let pairs: Vec<(u8, u32)> = any
            .encode(64)
            .unwrap()
            .iter()
            .map(|w| (w.word, w.data))
            .collect();
        assert_eq!(
            pairs,
            vec![(0x01, 0xffff_0000), (0x02, 0xffff), (0x00, 0x8c00_0000)]
        );
    }

    #[test]
    fn too_long_patterns_are_refused() {
        let r = L7Rule {
            priority: 0,
            path_kind: PathKind::Prefix,
            path: vec![b'a'; 65],
            host_kind: HostKind::Any,
            host: vec![],
            rule_id: 0,
            pool: 0,
        };
        assert!(matches!(
            r.encode(64),
            Err(DatapathError::PatternTooLong {
                which: "path",
                len: 65,
                max: 64
            })
        ));
        assert_eq!(r.encode(128).unwrap().len(), 17 + 3);
    }

    #[test]
    fn punt_policy_matches_the_register() {
        let p = PuntPolicy::default();
        assert!(p.arp && p.icmp && p.nomatch && !p.other && !p.malformed);
        assert_eq!(p.to_raw(), regs::dp::punt_policy::RESET);
    }

    // ----- register sequences against a small model of the CSR side effects -----

    /// Plain memory plus the side effects the API relies on: RD_DATA / WR_DATA pointer
    /// increments, flow commands that stay busy for a few reads, the stats read port and
    /// the event queue head.
    struct Model {
        mem: FakeBar,
        punt: HashMap<(bool, u32, u32), u32>,
        injected: Vec<(u32, u32, u32)>,
        commits: Vec<(u32, u32, u32, u32)>,
        counters: Vec<u64>,
        events: VecDeque<[u32; 4]>,
        flows: HashMap<(u32, u32, u32), u32>,
        busy_reads: u32,
        busy_after_cmd: u32,
    }

    fn params_bar() -> FakeBar {
        let mut b = FakeBar::with_reset_values();
        b.set(regs::dp::FLOW_SLOTS, 1024);
        b.set(regs::dp::MAX_FRAME, 2048);
        b.set(regs::dp::PARAMS, 34 << 16 | 64);
        b.set(regs::l7::PARAMS, 64 << 16 | 64);
        b.set(regs::punt::PARAMS, 2048 << 16 | 16);
        b.set(regs::inject::PARAMS, 2048 << 16 | 8);
        b.set(regs::evq::PARAMS, 64);
        b.set(regs::stats::PARAMS, 512);
        b.set(regs::stats::STATUS, 1);
        b
    }

    impl Model {
        fn new() -> Model {
            Model {
                mem: params_bar(),
                punt: HashMap::new(),
                injected: Vec::new(),
                commits: Vec::new(),
                counters: (0..512u64).map(|i| i << 40 | i).collect(),
                events: VecDeque::new(),
                flows: HashMap::new(),
                busy_reads: 0,
                busy_after_cmd: 3,
            }
        }
        fn get(&self, off: u64) -> u32 {
            self.mem.mem[off as usize / 4]
        }
        fn show_head(&mut self) {
            let head = self.events.front().copied();
            self.mem.set(
                regs::evq::HEAD_INFO,
                u32::from(head.is_some()) << regs::evq::head_info::VALID_SHIFT,
            );
            self.mem
                .write_block(regs::evq::HEAD, &head.unwrap_or_default())
                .unwrap();
        }
        fn flow_cmd(&mut self, op: u32) {
            use regs::flow;
            let key = (
                self.get(flow::KEY_SRC_IP),
                self.get(flow::KEY_DST_IP),
                self.get(flow::KEY_PORTS),
            );
            let (result, value) = match op {
                0 => match self.flows.get(&key) {
                    Some(&v) => (0, v),
                    None => (3, 0),
                },
                1 => match self.flows.get(&key) {
                    Some(&v) => (1, v),
                    None => {
                        self.flows.insert(key, self.get(flow::VALUE));
                        (0, 0)
                    }
                },
                2 => match self.flows.remove(&key) {
                    Some(_) => (0, 0),
                    None => (3, 0),
                },
                _ => {
                    self.flows.clear();
                    (0, 0)
                }
            };
            self.mem.set(flow::STATUS, result << 8 | 2 << 12 | 2);
            self.mem.set(flow::RESULT, value);
            self.mem.set(flow::BUCKET, key.0 ^ key.1 ^ key.2);
            self.busy_reads = self.busy_after_cmd;
        }
    }

    impl Bar for Model {
        fn size(&self) -> u64 {
            self.mem.size()
        }
        fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
            check_access(offset, 4, self.size())?;
            if offset == regs::punt::RD_DATA {
                let p = self.get(regs::punt::RD_PTR);
                let (desc, slot, word) = (p >> 31 != 0, p >> 16 & 0xff, p & 0x3ff);
                self.mem.set(regs::punt::RD_PTR, p & !0x3ff | (word + 1));
                return Ok(*self.punt.get(&(desc, slot, word)).unwrap_or(&0));
            }
            if offset == regs::flow::STATUS && self.busy_reads > 0 {
                self.busy_reads -= 1;
                return Ok(self.get(offset) | 1);
            }
            self.mem.read32(offset)
        }
        fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
            use regs::{evq, flow, inject, stats};
            check_access(offset, 4, self.size())?;
            match offset {
                inject::WR_DATA => {
                    let p = self.get(inject::WR_PTR);
                    self.injected.push((self.get(inject::SEL), p, value));
                    self.mem.set(inject::WR_PTR, p + 1);
                }
                inject::COMMIT => {
                    self.commits.push((
                        self.get(inject::SEL),
                        self.get(inject::COMMIT_LEN),
                        self.get(inject::COMMIT_OFF),
                        value,
                    ));
                    self.mem.set(inject::WR_PTR, 0);
                }
                flow::CMD => self.flow_cmd(value & 3),
                stats::RD_IDX => {
                    let v = self.counters[value as usize];
                    self.mem.set(stats::RD_LO, v as u32);
                    self.mem.set(stats::RD_HI, (v >> 32) as u32);
                }
                stats::CTRL => {
                    if value & 1 != 0 {
                        let n = self.get(stats::SNAPSHOTS);
                        self.mem.set(stats::SNAPSHOTS, n + 1);
                    }
                    self.mem.set(stats::CTRL, value & 2);
                }
                evq::POP => {
                    self.events.pop_front();
                    self.show_head();
                }
                _ => self.mem.set(offset, value),
            }
            Ok(())
        }
        fn pause(&mut self, _d: Duration) -> Result<(), BarError> {
            Ok(())
        }
        fn describe(&self) -> String {
            "data-path model (unit test)".into()
        }
    }

    #[test]
    fn card_without_splicer_has_no_datapath() {
        let mut bar = params_bar();
        bar.set(regs::id::CAPS, 0x7);
        let mut card = Card::open(Box::new(bar)).unwrap();
        let e = card.datapath().unwrap_err();
        assert!(
            matches!(e, DriverError::Datapath(DatapathError::NotPresent)),
            "{e}"
        );
        let mut card = Card::open(Box::new(params_bar())).unwrap();
        let dp = card.datapath().unwrap();
        assert_eq!(dp.params().punt_slots, 16);
        assert_eq!(dp.params().rewriter_latency, 34);
    }

    #[test]
    fn bad_params_are_refused() {
        let mut bar = params_bar();
        bar.set(regs::punt::PARAMS, 2048 << 16 | 12);
        let e = Datapath::new(&mut bar).unwrap_err();
        assert!(
            matches!(
                e,
                DriverError::Datapath(DatapathError::BadParams {
                    register: "PUNT.PARAMS.SLOTS",
                    ..
                })
            ),
            "{e}"
        );
    }

    #[test]
    fn configuration_registers() {
        let mut m = Model::new();
        let mut dp = Datapath::new(&mut m).unwrap();
        dp.set_port_mac(Port::Server, [0x02, 0, 0, 0, 0xab, 0xcd])
            .unwrap();
        assert_eq!(
            dp.port_mac(Port::Server).unwrap(),
            [0x02, 0, 0, 0, 0xab, 0xcd]
        );
        dp.set_vip(7, Ipv4Addr::new(192, 0, 2, 1), 443, true)
            .unwrap();
        dp.set_local(3, Ipv4Addr::new(198, 51, 100, 9), true)
            .unwrap();
        dp.set_fastpath(false).unwrap();
        dp.set_punt_policy(PuntPolicy {
            malformed: true,
            ..PuntPolicy::default()
        })
        .unwrap();
        let e = dp.set_vip(8, Ipv4Addr::LOCALHOST, 1, true).unwrap_err();
        assert!(
            matches!(
                e,
                DriverError::Datapath(DatapathError::IndexOutOfRange {
                    index: 8,
                    count: 8,
                    ..
                })
            ),
            "{e}"
        );
        assert_eq!(m.get(regs::dp::MAC_S_LO), 0x0000_abcd);
        assert_eq!(m.get(regs::dp::MAC_S_HI), 0x0200);
        assert_eq!(m.get(regs::dp::VIP_ADDR + 7 * 8), 0xc000_0201);
        assert_eq!(m.get(regs::dp::VIP_PORT + 7 * 8), 1 << 31 | 443);
        assert_eq!(m.get(regs::dp::LOCAL_ADDR + 3 * 8), 0xc633_6409);
        assert_eq!(m.get(regs::dp::LOCAL_CTRL + 3 * 8), 1 << 31);
        assert_eq!(m.get(regs::dp::CTRL), 0);
        assert_eq!(m.get(regs::dp::PUNT_POLICY), 0x36);
    }

    #[test]
    fn flow_commands_poll_busy_and_decode_results() {
        let mut m = Model::new();
        let mut dp = Datapath::new(&mut m).unwrap();
        let key = FlowKey {
            src: Ipv4Addr::new(10, 0, 0, 1),
            dst: Ipv4Addr::new(192, 0, 2, 1),
            sport: 40000,
            dport: 80,
        };
        assert_eq!(dp.flow_lookup(&key).unwrap().status, FlowStatus::NotFound);
        let r = dp.flow_insert(&key, 17, FlowHalf::Server).unwrap();
        assert_eq!((r.status, r.way), (FlowStatus::Ok, 2));
        let r = dp.flow_insert(&key, 18, FlowHalf::Client).unwrap();
        assert_eq!(
            (r.status, r.slot, r.dir),
            (FlowStatus::Exists, 17, FlowHalf::Server)
        );
        let r = dp.flow_lookup(&key).unwrap();
        assert_eq!(
            (r.status, r.slot, r.dir),
            (FlowStatus::Ok, 17, FlowHalf::Server)
        );
        assert_eq!(r.bucket, 0x0a00_0001 ^ 0xc000_0201 ^ (40000 << 16 | 80));
        assert_eq!(dp.flow_delete(&key).unwrap().status, FlowStatus::Ok);
        assert_eq!(dp.flow_delete(&key).unwrap().status, FlowStatus::NotFound);
        dp.flow_clear().unwrap();
        assert!(dp.flow_insert(&key, 1024, FlowHalf::Client).is_err());
    }

    #[test]
    fn a_command_that_stays_busy_times_out() {
        let mut m = Model::new();
        m.busy_after_cmd = 1000;
        let mut dp = Datapath::new(&mut m).unwrap();
        dp.set_poll_limit(50);
        let e = dp.flow_clear().unwrap_err();
        assert!(
            matches!(
                e,
                DriverError::Datapath(DatapathError::Timeout {
                    what: "flow clear",
                    polls: 50,
                    ..
                })
            ),
            "{e}"
        );
        assert!(e.to_string().contains("FLOW.STATUS.BUSY"), "{e}");
    }

    #[test]
    fn state_slots_are_written_and_read_through_the_windows() {
        let mut m = Model::new();
        let mut dp = Datapath::new(&mut m).unwrap();
        let e = sample_entry();
        let c = FlowCounters {
            last_seen: 9,
            packets_cs: 1,
            packets_sc: 2,
            bytes_cs: 3,
            bytes_sc: 4,
        };
        dp.state_write(5, &e, &c).unwrap();
        assert_eq!(dp.state_read(5).unwrap(), (e, c));
        dp.state_write_static(6, &e).unwrap();
        assert_eq!(m.get(regs::flow::STATE_SLOT), 6);
        assert_eq!(
            m.get(regs::flow::STATE_CMD),
            regs::flow::state_cmd::OP_WRITE_STATIC
        );
        assert_eq!(m.get(regs::flow::STATE_STATIC), e.to_words()[0]);
    }

    #[test]
    fn punt_next_reads_descriptor_and_data_then_frees_the_slot() {
        let mut m = Model::new();
        let frame: Vec<u8> = (0..61u8).collect();
        let slot = 15;
        m.punt.insert((true, slot, 0), 1 << 16 | frame.len() as u32);
        for (i, w) in [0x0100_0001u32, 0x0000_0007, 0x0036_2214, 99]
            .iter()
            .enumerate()
        {
            m.punt.insert((true, slot, i as u32 + 1), *w);
        }
        for (i, w) in layout::words_le(&frame).enumerate() {
            m.punt.insert((false, slot, i as u32), w);
        }
        m.mem.set(regs::punt::CONS, 31);
        m.mem.set(regs::punt::PROD, 0);
        let mut dp = Datapath::new(&mut m).unwrap();
        let f = dp.punt_next().unwrap().unwrap();
        assert_eq!(f.slot, 15);
        assert!(f.tuser);
        assert_eq!(f.data, frame);
        assert_eq!(f.port(), Port::Server);
        assert_eq!(f.meta.flow_state, Some(FlowState::Handshake));
        assert_eq!(f.meta.flow_slot, 7);
        assert_eq!(f.meta.time, 99);
        // CONS wraps modulo 2 * SLOTS; the ring is empty then.
        assert!(dp.punt_next().unwrap().is_none());
        assert_eq!(m.get(regs::punt::CONS), 0);
    }

    #[test]
    fn punt_ring_inconsistency_is_an_error() {
        let mut m = Model::new();
        m.mem.set(regs::punt::PROD, 20);
        m.mem.set(regs::punt::CONS, 2);
        let mut dp = Datapath::new(&mut m).unwrap();
        let e = dp.punt_next().unwrap_err();
        assert!(
            matches!(e, DriverError::Datapath(DatapathError::PuntRing { .. })),
            "{e}"
        );
    }

    #[test]
    fn inject_writes_words_and_commits() {
        let mut m = Model::new();
        m.mem.set(regs::inject::STATUS, 1);
        let mut dp = Datapath::new(&mut m).unwrap();
        let frame: Vec<u8> = (0..66u8).collect();
        let off = ChecksumOffload {
            ip_off: 14,
            l4_off: 34,
            l4_end: 66,
            ip: true,
            tcp: true,
        };
        dp.inject(Port::Server, &frame, Some(off)).unwrap();
        dp.inject(Port::Client, &frame[..5], None).unwrap();
        let bad = ChecksumOffload { l4_end: 67, ..off };
        let e = dp.inject(Port::Client, &frame, Some(bad)).unwrap_err();
        assert!(
            matches!(e, DriverError::Datapath(DatapathError::BadOffload { .. })),
            "{e}"
        );
        let e = dp.inject(Port::Client, &[], None).unwrap_err();
        assert!(
            matches!(e, DriverError::Datapath(DatapathError::BadLength { .. })),
            "{e}"
        );
        let words: Vec<u32> = layout::words_le(&frame).collect();
        let first: Vec<(u32, u32, u32)> = words
            .iter()
            .enumerate()
            .map(|(i, &w)| (1, i as u32, w))
            .collect();
        assert_eq!(&m.injected[..words.len()], &first[..]);
        assert_eq!(
            &m.injected[words.len()..],
            &[(0, 0, 0x0302_0100), (0, 1, 4)]
        );
        assert_eq!(
            m.commits,
            vec![(1, 3 << 16 | 66, 34 << 16 | 14, 66), (0, 5, 0, 0)]
        );
    }

    #[test]
    fn inject_waits_for_a_free_slot() {
        let mut m = Model::new();
        let mut dp = Datapath::new(&mut m).unwrap();
        dp.set_poll_limit(10);
        let e = dp.inject(Port::Client, &[1, 2, 3], None).unwrap_err();
        assert!(e.to_string().contains("INJECT.STATUS.READY"), "{e}");
        assert!(m.injected.is_empty() && m.commits.is_empty());
    }

    #[test]
    fn events_are_popped_in_order() {
        let mut m = Model::new();
        m.events.push_back([7, 4, 0, 0]);
        m.events.push_back([4, 9, 1, 2]);
        m.show_head();
        let mut dp = Datapath::new(&mut m).unwrap();
        assert_eq!(
            dp.evq_pop().unwrap(),
            Some(Event::PuntReady { punt_slot: 4 })
        );
        assert!(matches!(
            dp.evq_pop().unwrap(),
            Some(Event::FinRst { flow_slot: 9, .. })
        ));
        assert_eq!(dp.evq_pop().unwrap(), None);
    }

    #[test]
    fn stats_snapshot_reads_every_counter() {
        let mut m = Model::new();
        let mut dp = Datapath::new(&mut m).unwrap();
        dp.set_stats_clear_on_snapshot(true).unwrap();
        let v = dp.stats_snapshot().unwrap();
        assert_eq!(v.len(), 512);
        assert_eq!(v[3], 3 << 40 | 3);
        assert_eq!(v[255], 255 << 40 | 255);
        assert_eq!(v[511], 511 << 40 | 511);
        assert_eq!(m.get(regs::stats::SNAPSHOTS), 1);
        // CLEAR_ON_SNAPSHOT was kept when the snapshot was requested.
        assert_eq!(m.get(regs::stats::CTRL), 2);
    }

    #[test]
    fn stats_decodes_a_snapshot_read_from_the_card() {
        let mut m = Model::new();
        let mut dp = Datapath::new(&mut m).unwrap();
        let s = dp.stats().unwrap();
        assert_eq!(s.raw().len(), STATS_COUNTERS);
        assert_eq!(s.server(63).out_bytes, 511 << 40 | 511);
    }

    #[test]
    fn stats_decoder_follows_the_counter_map() {
        // counter i holds i
        let s = StatsSnapshot::from_counters((0..512).collect()).unwrap();
        assert_eq!(
            s.port(Port::Client),
            PortCounters {
                rx_frames: 0,
                rx_bytes: 1,
                tx_frames: 2,
                tx_bytes: 3,
                forwarded: 4,
                punted: 5,
                dropped: 6,
            }
        );
        assert_eq!(s.port(Port::Server).rx_frames, 8);
        assert_eq!(s.port(Port::Server).dropped, 14);
        assert_eq!(s.service(0), (16, 17));
        assert_eq!(s.service(31), (78, 79));
        assert_eq!(
            s.server(0),
            ServerCounters {
                frames: 80,
                bytes: 81,
                in_frames: 256,
                in_bytes: 257,
                out_frames: 258,
                out_bytes: 259,
            }
        );
        assert_eq!(
            s.server(9),
            ServerCounters {
                frames: 98,
                bytes: 99,
                in_frames: 292,
                in_bytes: 293,
                out_frames: 294,
                out_bytes: 295,
            }
        );
        assert_eq!(s.server(63).frames, 206);
        assert_eq!(s.server(63).bytes, 207);
        assert_eq!(s.server(63).out_bytes, 511);

        let d = s.drop_reasons();
        assert_eq!(d.len(), 18);
        assert_eq!(d[0], ("OTHER_L3", 209));
        assert_eq!(d[1], ("OTHER_L4", 210));
        assert_eq!(d[2], ("MAC_ERR", 211));
        assert_eq!(d[8], ("IP_CSUM", 217));
        assert_eq!(d[12], ("TCP_DOFF", 221));
        assert_eq!(d[13], ("DROP_ARP", 225));
        assert_eq!(d[17], ("DROP_NOMATCH", 229));
        let mut names: Vec<_> = d.iter().map(|x| x.0).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), d.len(), "reason names are unique");
    }

    #[test]
    fn stats_decoder_refuses_a_map_without_directional_counters() {
        let e = StatsSnapshot::from_counters(vec![0; 256]).unwrap_err();
        assert!(
            matches!(e, DatapathError::BadParams { value: 256, .. }),
            "{e:?}"
        );
        assert!(StatsSnapshot::from_counters(vec![0; 1024]).is_ok());
    }

    #[test]
    #[should_panic(expected = "real server 64")]
    fn stats_decoder_server_index_is_bounded() {
        let s = StatsSnapshot::from_counters(vec![0; 512]).unwrap();
        let _ = s.server(STATS_SERVERS);
    }

    #[test]
    fn l7_rules_and_buffer_go_through_their_registers() {
        let mut m = Model::new();
        let mut dp = Datapath::new(&mut m).unwrap();
        let rule = L7Rule {
            priority: 1,
            path_kind: PathKind::Prefix,
            path: b"/static/".to_vec(),
            host_kind: HostKind::Any,
            host: vec![],
            rule_id: 2,
            pool: 3,
        };
        dp.l7_load_rule(63, &rule).unwrap();
        assert!(dp.l7_load_rule(64, &rule).is_err());
        dp.l7_match_buffer(b"GET / HTTP/1.1\r\n\r\n", 0x77).unwrap();
        assert!(dp.l7_match_buffer(&[0; 1025], 0).is_err());
        // The last write of a rule is its control word.
        assert_eq!(m.get(regs::l7::RULE), 63);
        assert_eq!(m.get(regs::l7::WORD), 0);
        assert_eq!(m.get(regs::l7::DATA), 0xa000_0008);
        assert_eq!(m.get(regs::l7::CMD), 0x77 << 16 | 18);
    }
}
