//! The flow manager: connection setup, splicing, teardown and aging (`docs/flowmgr.md`,
//! "Connection life cycle").
//!
//! [`Splicer`] is the firmware's main loop body minus the registers: it takes punted frames
//! and data-path events through [`Hw`], answers the client's handshake, waits for the request
//! and the L7 matcher's verdict, picks a real server with the pool's scheduler, opens the
//! server connection, writes the spliced flow entry and replays the request; FIN/RST events
//! (or the card's FIN counts) and aging (the card's aging scanner, or the firmware's own
//! scan) end flows. It also serves the flow-manager mailbox commands ([`Splicer::command`]).
//!
//! Everything is fixed-size; the large tables (free list, request buffers, and the optional
//! rule-set record and capture ring) are borrowed so the firmware can place them in memory
//! that is not initialised at boot.

pub mod absorb;
pub mod capture;
mod control;
mod engine;
pub mod frame;
pub mod profile;
pub mod record;
pub mod request;
mod resets;
mod synresp;

use crate::canon::{self, Outcome, Reason};
use crate::flowhash::FourTuple;
use crate::flowmgr::aging::{AgingScan, SlotAge};
use crate::flowmgr::freelist::{bitmap_words, FreeList};
use crate::flowmgr::isn::IsnGen;
use crate::flowmgr::splice::seq_after;
use crate::flowmgr::tcpopts::{
    parse_syn_options, Handshake, OptionsPolicy, SynOptions, Timestamps, DEFAULT_PEER_MSS,
};
use crate::flowmgr::timeouts::{TcpState, Timeouts, DEFAULT_SECS, STATES};
use crate::flowmgr::{FlowState, Slot};
use crate::mailbox::{cmd, status, Response, MAX_WORDS};
use crate::sched::{Kind, SchedConfig, Scheduler, ServerConfig, ServerSet, MAX_WEIGHT};
use absorb::{absorb_synack, SynAckContext, SynAckSegment, SynAckVerdict, TS_OPTION_LEN};
use capture::CaptureRing;
pub use control::{FLOW_GET_WORDS, FLOW_LIST_BUDGET, FLOW_LIST_DONE, FLOW_LIST_MAX};
use engine::Engine;
use frame::{tcp_flags as tf, GenFrame, Offload, Parsed, TcpOut, TcpSeg};
use profile::{Handler, Profile, Step};
use record::RulesetStore;
use resets::RstPending;
pub use resets::{TcpStats, CHALLENGE_MS, RST_PENDING_MS, RST_PENDING_SLOTS};
use splicenic_layout::{
    engine_verdict, flow_half, l7_flag, mac_from_u64, mac_to_u64, pool_flags, port, service_mode,
    teardown, DisarmResult, EventType, EvtFinRst, EvtHead, EvtRequestMatched, FlowDyn,
    FlowHalfEntry, FlowStatic, PuntMeta, PuntWhy, SetupCtx,
};
use synresp::SynResp;
pub use synresp::{SynCtrl, ROTATE_MS};

/// Flow slots the firmware manages (the data path may have more; the rest stay unused).
pub const FW_SLOTS: usize = 16384;
/// Free-list type of the firmware.
pub type SlotList = FreeList<FW_SLOTS, { bitmap_words(FW_SLOTS) }>;
/// Virtual services (DP.VIP entries; `splicenic_layout::SERVICES`).
pub const MAX_SERVICES: usize = splicenic_layout::SERVICES as usize;
/// Pools (`splicenic_layout::POOLS`).
pub const MAX_POOLS: usize = splicenic_layout::POOLS as usize;
/// Card-wide real-server indexes (`splicenic_layout::REAL_SERVERS`; their statistics
/// counters are `splicenic_layout::stats::server`).
pub const MAX_RS: usize = splicenic_layout::REAL_SERVERS as usize;
// CONFIG_MAP reports the real servers in two bitmap words, and `Pending::tried` is a bitmap
// of a pool's server slots.
const _: () = assert!(MAX_RS <= 64 && crate::sched::MAX_SERVERS <= 64);
/// Connections in setup at once (client handshake done, not spliced yet).
pub const PENDING: usize = 32;
/// Flowless data segments whose RST waits at once (docs/flowmgr.md, "Early data").
pub const EARLY_HELD: usize = 4;
/// Inline L7 results kept for a slot the firmware has not taken yet (see
/// [`Splicer::early_verdict_take`]): twice the punt ring's 16 slots. A kept result waits for
/// its slot's NEW punt, which is in the ring ahead of every frame whose result came later,
/// so at most 15 newer results can arrive before the punt is read: none of them overwrites
/// it.
pub const EARLY_VERDICTS: usize = 32;
/// How long such a RST waits for the client's handshake ACK.
pub const EARLY_HOLD_MS: u32 = 100;
/// How long a connection whose first request segment went to the inline L7 matcher waits
/// for that segment's result before its buffer is matched instead (the result was lost:
/// overwritten among the kept early results, or the event queue overflowed). Results come
/// within a pass of the firmware's loop; the request deadline starts again with the buffer
/// match.
pub const INLINE_WAIT_MS: u32 = 100;
/// How often the firmware looks at an armed setup's entry while its server SYN is out: the
/// card may have absorbed the SYN-ACK whose punt the firmware never got (a full punt ring
/// drops it); found SPLICED, the setup's bookkeeping is done then (docs/server-open.md).
pub const ABSORB_CHECK_MS: u32 = 5;
/// Request buffer per connection in setup: the request head must fit. A buffer match
/// copies it into the L7 matcher's request buffer, so it is that buffer's size
/// (`splicenic_layout::L7_BUFFER_BYTES`).
pub const REQ_BUF: usize = splicenic_layout::L7_BUFFER_BYTES as usize;
/// Request buffers of all connections in setup.
pub type ReqBufs = [[u8; REQ_BUF]; PENDING];
/// The pools (about 7.5 KiB each: servers and scheduler state). Borrowed like the other
/// large tables so the flow manager itself stays small (it lives on the firmware's stack).
pub type Pools = [Option<Pool>; MAX_POOLS];
/// Largest frame handled.
pub const MAX_FRAME: usize = 2048;
/// First local (server-side) port: the flow slot is added to it. The value comes from
/// `registers/records.toml` (`splicenic_layout::LOCAL_PORT_BASE`), shared with the gateware.
pub const LOCAL_PORT_BASE: u16 = splicenic_layout::LOCAL_PORT_BASE as u16;
// The cast keeps the value, and every slot's port fits 16 bits.
const _: () = assert!(
    LOCAL_PORT_BASE as u32 == splicenic_layout::LOCAL_PORT_BASE
        && LOCAL_PORT_BASE as usize + FW_SLOTS <= 0x1_0000
);
/// Client MSS classes of a cookie SYN-ACK (the class is encoded in the ISN's slot input).
pub const COOKIE_MSS: [u16; 4] = [536, 1220, 1440, 1460];
/// First of the reserved slot numbers of cookie ISNs (never a real slot: at most
/// [`FW_SLOTS`] slots are used).
pub const COOKIE_SLOT: Slot = 0xfffc;
/// Slots the aging scan examines per main-loop pass.
pub const AGING_BUDGET: usize = 64;
/// Expired slots the aging step takes per main-loop pass at most: found by the scan, or
/// popped from the card's aging scanner queue.
pub const AGED_PER_PASS: usize = 8;

/// Bits of the flow entry's flags byte (`FlowStatic.flags`): the data path uses bits 2:0
/// (`SACK`, `TIMESTAMPS`, `WINDOW_RESCALE`), the firmware bits 7:4 (`FIN_CLIENT`,
/// `FIN_SERVER`, `RST`, `ACTIVE`).
pub use splicenic_layout::entry_flags;

/// Ethernet port of the card.
pub use splicenic_layout::Port;

/// A frame taken from the punt ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuntInfo {
    /// Frame length in bytes (copied into the caller's buffer).
    pub len: usize,
    /// Punt record words 1-5 (`splicenic_layout::PuntMeta`; `docs/datapath.md`).
    pub meta: [u32; PuntMeta::WORDS],
}

/// Result of a flow-table command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowStatus {
    Ok,
    Exists,
    NotFound,
    BucketFull,
    /// The command did not finish (a data-path fault).
    Failed,
}

/// Static flow entry words ([`FlowStatic`]).
pub const STATIC_WORDS: usize = FlowStatic::WORDS;
/// Dynamic flow entry words ([`FlowDyn`]): last seen, packets C→S, packets S→C, bytes C→S
/// (48 bits), bytes S→C (48 bits), the FIN ends and the teardown flags, packed as in
/// `flow_state_mem`.
pub const DYN_WORDS: usize = FlowDyn::WORDS;

/// What the flow manager needs from the data path.
pub trait Hw {
    /// `DP.NOW`.
    fn now(&mut self) -> u32;
    /// The free-running cycle counter (for the cycle accounting).
    fn cycles(&mut self) -> u64;
    /// `DP.MAC` of a port.
    fn port_mac(&mut self, port: Port) -> [u8; 6];
    /// Card-owned server-side address `i` when enabled.
    fn local_ip(&mut self, i: usize) -> Option<u32>;
    /// Program `DP.VIP_*[i]`.
    fn set_vip(&mut self, i: usize, ip: u32, port: u16, enable: bool);
    /// Take the next punted frame into `buf` (at least [`MAX_FRAME`] bytes).
    fn punt_next(&mut self, buf: &mut [u8]) -> Option<PuntInfo>;
    /// Send a frame out of `port` with checksum offload; false when the ring stayed full.
    fn inject(&mut self, port: Port, frame: &[u8], offload: Option<Offload>) -> bool;
    /// Send `frame` out of `port` through the card's frame generator (`DP.TXGEN_*`,
    /// `tcp_tx_gen`: the frame and its checksums built from the fields); false when the card
    /// has none (`TXGEN_STATUS.PRESENT` clear) or it is still taking the last request
    /// (`BUSY`): the caller then sends the segment through the inject ring.
    fn tx_gen(&mut self, port: Port, frame: &GenFrame) -> bool;
    /// Take one of the card's request-head buffers (`DP.HEAD_ALLOC`, `head_buf`): its id, or
    /// None when the card has none (`HEAD_STATUS.PRESENT` clear) or none is free.
    fn head_alloc(&mut self) -> Option<u8>;
    /// Store `bytes`, the bytes from position `from` of the frame `punt_next` returned last,
    /// at position `off` of the head in buffer `id`: the card copies them from its punt
    /// ring (`DP.HEAD_APPEND`, then `DP.HEAD_COPY`) and keeps what extends the stored head
    /// contiguously. False when it cannot: the frame's ring slot was taken by a newer frame
    /// before the copy was done (or no frame was punted); the buffer is then incomplete,
    /// and the caller gives it back.
    fn head_append(&mut self, id: u8, off: u16, from: usize, bytes: &[u8]) -> bool;
    /// Give buffer `id` back unused (`DP.HEAD_FREE`).
    fn head_free(&mut self, id: u8);
    /// Send the head in buffer `id` out of the server port behind `ack` (the handshake ACK
    /// in the generator's ACK form, staged in `DP.TXGEN_*`, then `DP.HEAD_REPLAY` with
    /// `max_len`, the replay chunk): the card builds the segment, its checksum from the
    /// buffer's running sum, and gives the buffer back once read. False, and the buffer
    /// still the caller's, when the generator's registers are busy.
    fn head_replay(&mut self, id: u8, max_len: u16, ack: &GenFrame) -> bool;
    /// Turn the card's SYN-ACK absorber on (`DP.ABSORB_CTRL.ENABLE`): true when the card
    /// has one (`PRESENT`). With it, a CONNECTING entry written as a [`SetupCtx`] with
    /// `armed` has its server's SYN-ACK absorbed by the card (docs/server-open.md, "The
    /// absorber in the data path").
    fn absorb_enable(&mut self) -> bool;
    /// Take the armed entry of `slot` (generation `gen`) back before writing it
    /// (`DP.ABSORB_DISARM`, then `DP.ABSORB_STATUS`): [`DisarmResult::Absorbed`] when the card
    /// absorbed its SYN-ACK first (the entry is SPLICED, the head sent, its buffer given
    /// back), else the entry is unarmed and the firmware's.
    fn absorb_disarm(&mut self, slot: Slot, gen: u8) -> DisarmResult;
    /// The oldest setup the card absorbed and queued for the firmware's bookkeeping
    /// (`DP.ABSORB_HEAD` when VALID: its slot and generation), removed from the queue
    /// (`DP.ABSORB_POP`); `None` when the queue is empty. (A SYN-ACK absorbed while the queue
    /// was full is punted with verdict ABSORBED instead.)
    fn absorb_pop(&mut self) -> Option<(Slot, u8)>;
    /// Pop one event record.
    fn evq_pop(&mut self) -> Option<[u32; 4]>;
    /// Insert a lookup key for `slot`, client half (`server_half` false) or server half.
    fn flow_insert(&mut self, key: &FourTuple, slot: Slot, server_half: bool) -> FlowStatus;
    /// Delete a lookup key.
    fn flow_delete(&mut self, key: &FourTuple) -> FlowStatus;
    /// Write the static entry of `slot`; with `Some(last_seen)` also reset the counters and
    /// set the last-seen tick.
    fn state_write(&mut self, slot: Slot, words: &[u32; STATIC_WORDS], last_seen: Option<u32>);
    /// Read the static entry of `slot`; returns the last-seen tick.
    fn state_read(&mut self, slot: Slot, words: &mut [u32; STATIC_WORDS]) -> u32;
    /// Read the static and the dynamic entry of `slot` (one read of the flow memory, so the
    /// counters belong to the entry read). The firmware's aging scan (a card without the
    /// aging scanner) uses it for every slot in use, the re-check before freeing for each
    /// expired one (the teardown flags pick the LINGER class). The default reads the static
    /// entry and reports the last-seen tick with zero counters and no teardown flags (so no
    /// flow lingers).
    fn state_read_dyn(
        &mut self,
        slot: Slot,
        words: &mut [u32; STATIC_WORDS],
        dyn_words: &mut [u32; DYN_WORDS],
    ) {
        *dyn_words = [0; DYN_WORDS];
        dyn_words[0] = self.state_read(slot, words);
    }
    /// `FLOW.ENTRIES`: lookup keys in the flow table.
    fn flow_entries(&mut self) -> u32;
    /// Match an assembled request with the L7 command path (result: REQUEST_MATCHED event
    /// with the buffer bit, `tag` and `gen`, the slot's generation); false when the matcher
    /// stayed busy.
    fn l7_match(&mut self, request: &[u8], tag: u16, gen: u8) -> bool;
    /// `DP.SYN_PARAMS.UNITS`: cookie units of the hardware SYN responder (0: none; a
    /// bitstream without the responder reads 0 there).
    fn syn_units(&mut self) -> u8;
    /// Write `DP.SYN_CTRL`.
    fn syn_ctrl_write(&mut self, ctrl: &SynCtrl);
    /// Write `DP.SYN_MSS`.
    fn syn_mss_write(&mut self, mss: u16);
    /// Load `key` (`[k0, k1]`) into cookie key slot `slot` (0 or 1): `DP.COOKIE_KEY_LO`,
    /// `DP.COOKIE_KEY_HI`, then `DP.COOKIE_KEY_WR`.
    fn cookie_key_write(&mut self, slot: u8, key: [u32; 2]);
    /// `DP.FREE_STATUS.DEPTH`: the ACK validator's free-list size (0: no validator).
    fn free_depth(&mut self) -> usize;
    /// Write `DP.ACK_CTRL.ENABLE`.
    fn ack_ctrl_write(&mut self, enable: bool);
    /// `DP.FREE_PUSH`: hand `slot` of generation `gen` to the ACK validator.
    fn free_push(&mut self, slot: Slot, gen: u8);
    /// `DP.FREE_CTRL.FLUSH`: empty the validator's free list.
    fn free_flush(&mut self);
    /// `DP.AGE_STATUS.DEPTH`: the slots the hardware aging scanner's queue holds (0: the card
    /// has no scanner; the firmware then scans the flow memory itself).
    fn age_depth(&mut self) -> usize;
    /// `DP.AGE_LIMIT` = `limit` (the scanner walks slots `0..limit`; 0 or more than
    /// `DP.FLOW_SLOTS`: all), then `DP.AGE_CTRL` with ENABLE = `enable`, INTERVAL =
    /// `splicenic_layout::AGE_DEFAULT_INTERVAL` and FREE = `enable` when the scanner can free
    /// LINGER slots itself (`DP.AGE_STATUS.FREER`; its pops then carry [`Aged::freed`]).
    fn age_config(&mut self, enable: bool, limit: u32);
    /// `DP.AGE_TIMEOUT[class]` = `ticks`: the timeout of timeout class `class` (the
    /// [`TcpState`] discriminant) in `DP.NOW` ticks, as `self.timeouts.ticks` gives it.
    fn age_timeout_write(&mut self, class: usize, ticks: u32);
    /// The oldest slot the scanner queued as expired (`DP.AGE_HEAD` when VALID, with
    /// `DP.AGE_CLIENT` when FREED), removed from the queue (`DP.AGE_POP`); `None` when the
    /// queue is empty. A slot not freed is only a hint (the flow may have been freed, reused
    /// or seen a segment since): the caller re-checks it.
    fn age_pop(&mut self) -> Option<Aged>;
    /// `DP.FIN_CTRL.PRESENT`: the card counts the first FINs of active flows per real server
    /// (`DP.FIN_COUNT`) and keeps every flow's teardown view (`FlowDyn.teardown`,
    /// `FlowDyn.fin_end_cs`), so the firmware needs no FIN_RST event for a FIN.
    fn fin_hw(&mut self) -> bool;
    /// Write `DP.FIN_CTRL.EVENTS`: `true`, a FIN_RST event for every FIN the fast path
    /// forwards (as at reset); `false`, none for a FIN (the card's teardown view and
    /// `DP.FIN_COUNT` instead; RSTs raise theirs either way).
    fn fin_events(&mut self, enable: bool);
    /// `DP.FIN_COUNT_IDX` = `rs`, then `DP.FIN_COUNT`: the flows of real server `rs` whose
    /// first FIN (from either side) the fast path forwarded while their static entry had
    /// `ACTIVE`, since power-up (a reset does not clear them), modulo 2^32.
    fn fin_count(&mut self, rs: u8) -> u32;
}

/// A slot the card's aging scanner queued (`DP.AGE_HEAD`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aged {
    pub slot: Slot,
    /// The scanner freed the flow itself (`AGE_HEAD.FREED`: a LINGER flow, its keys deleted
    /// and its entry FREE): what the firmware's bookkeeping needs.
    pub freed: Option<Freed>,
}

/// A flow the card's scanner freed: its entry's real server and ACTIVE flag (clear when the
/// card counts the FINs, `DP.FIN_CTRL.EVENTS` 0, and its teardown view has one), its client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Freed {
    pub rs: u8,
    pub active: bool,
    pub client: u32,
}

/// Counters reported by FLOW_STATS (mailbox word order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub syn_acks: u32,
    pub spliced: u32,
    pub refused_full: u32,
    pub setup_failed: u32,
    pub server_retries: u32,
    pub aged_out: u32,
    pub closed: u32,
    pub cookie_syn_acks: u32,
    /// RSTs and SYNs on spliced flows, and the handshake ACKs accepted by the hardware SYN
    /// responder's cookie (TCP_STATS: FLOW_STATS's 16 words are taken).
    pub tcp: TcpStats,
    pub setup_cycles: u64,
    pub teardown_cycles: u64,
    pub ignored: u32,
    /// Request heads (HEAD_STATS): those the data path flagged ...
    pub heads_flagged: u32,
    /// ... routed by their canonical form ...
    pub heads_canonical: u32,
    /// ... not HTTP (the service's default pool) ...
    pub heads_not_http: u32,
    /// ... refused, per [`Reason`] (index `code - 1`) ...
    pub heads_refused: [u32; canon::REASONS],
    /// ... and the cycles spent canonicalising them.
    pub head_cycles: u64,
    /// Expired slots the aging step got that it did not free: the card's scanner queued them
    /// but the flow was freed, reused, in setup or seen again since (its queue is a hint).
    /// Not reported by FLOW_STATS (its 16 words are taken).
    pub aging_stale: u32,
}

/// L7 result flags ([`l7_flag`]) of the heads whose routing can differ after
/// canonicalisation: the firmware's slow path.
const L7_FLAGGED: u8 = l7_flag::NEEDS_NORM | l7_flag::NOT_HTTP | l7_flag::ABSFORM;

/// What the firmware does with a flagged head ([`canon`]).
enum HeadVerdict {
    /// Its canonical form went to the L7 matcher; that verdict routes it.
    Resubmitted,
    /// The request line or the Host line is not complete yet.
    Wait,
    /// Not HTTP: the service's default pool, as for any non-HTTP stream.
    NotHttp,
    /// Refused (counted per reason): the client is reset.
    Refused,
}

/// One half of a flow entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Half {
    pub peer_mac: [u8; 6],
    pub peer_ip: u32,
    pub peer_port: u16,
    pub local_ip: u32,
    pub local_port: u16,
}

impl Half {
    /// A segment from the card to the peer of this half (addresses and ports filled in,
    /// everything else zero or empty).
    pub fn segment(&self, card_mac: [u8; 6]) -> TcpOut<'static> {
        TcpOut {
            src_mac: card_mac,
            dst_mac: self.peer_mac,
            src_ip: self.local_ip,
            dst_ip: self.peer_ip,
            src_port: self.local_port,
            dst_port: self.peer_port,
            seq: 0,
            ack: 0,
            flags: 0,
            window: 0,
            opts: &[],
            payload: &[],
        }
    }

    /// The lookup key of segments arriving from the peer.
    pub const fn key(&self) -> FourTuple {
        FourTuple {
            src_ip: self.peer_ip,
            dst_ip: self.local_ip,
            src_port: self.peer_port,
            dst_port: self.local_port,
        }
    }
}

/// Bit of the client half in the static entry.
const CLIENT_HALF: usize = FlowStatic::CLIENT.lsb;
/// Bit of the server half in the static entry.
const SERVER_HALF: usize = FlowStatic::SERVER.lsb;
// An armed entry (SetupCtx) keeps the client half, the server half's peer fields and the
// generation where FlowStatic has them (`Splicer::arm_entry` writes them as halves).
const _: () = assert!(
    SetupCtx::CLIENT.lsb == CLIENT_HALF
        && SetupCtx::SERVER_MAC.lsb == SERVER_HALF + FlowHalfEntry::PEER_MAC.lsb
        && SetupCtx::SERVER_IP.lsb == SERVER_HALF + FlowHalfEntry::PEER_IP.lsb
        && SetupCtx::SERVER_PORT.lsb == SERVER_HALF + FlowHalfEntry::PEER_PORT.lsb
        && SetupCtx::GEN.lsb == FlowStatic::GEN.lsb
        && SetupCtx::STATE.lsb == FlowStatic::STATE.lsb
);

/// The HTTP/2 connection preface's request line (RFC 9113 §3.4).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n";

/// Whether a refused head is not an HTTP request at all: its first bytes are no method (a
/// TLS record, another protocol) or it is the HTTP/2 preface. Those go to the service's
/// default pool, as before any rule. A malformed request line or version is refused instead:
/// nginx answers `GET /path` without a version as HTTP/0.9, so the default pool's servers
/// would serve a path a rule guards.
fn not_http(r: Reason, head: &[u8]) -> bool {
    r == Reason::Method || head.starts_with(H2_PREFACE)
}

/// Writes the head the L7 matcher is given for a canonical `path` and `host`:
/// `GET <path> HTTP/1.1\r\nHost: <host>\r\n\r\n` (the method does not route). Path bytes a
/// request target cannot carry raw (space, control bytes, `%`, `?`, `#`, bytes above 0x7E)
/// are percent-encoded; the matcher compares the canonical path, which a rule's pattern is
/// (docs/config.md). `None` when it does not fit `out` or the matcher's window.
fn canonical_head(out: &mut [u8], path: &[u8], host: &[u8]) -> Option<usize> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let limit = out.len().min(REQ_BUF);
    let mut n = 0;
    let mut put = |out: &mut [u8], bytes: &[u8]| -> Option<()> {
        let end = n + bytes.len();
        if end > limit {
            return None;
        }
        out.get_mut(n..end)?.copy_from_slice(bytes);
        n = end;
        Some(())
    };
    put(out, b"GET ")?;
    for &b in path {
        if b <= b' ' || b >= 0x7f || matches!(b, b'%' | b'?' | b'#') {
            put(
                out,
                &[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]],
            )?;
        } else {
            put(out, &[b])?;
        }
    }
    put(out, b" HTTP/1.1\r\nHost: ")?;
    put(out, host)?;
    put(out, b"\r\n\r\n")?;
    Some(n)
}

/// Field `f` of a record's words, for a field that lies within one word (the punt record
/// and the events are decoded a field at a time: `unpack` would read every field of a
/// record on the per-frame path).
fn field(w: &[u32], f: splicenic_layout::Field) -> u32 {
    debug_assert!(f.lsb % 32 + f.width <= 32, "field crosses a word");
    splicenic_layout::Field::new(f.lsb % 32, f.width).get32(w[f.lsb / 32])
}

/// The state of a static entry from its word 0 ([`FlowStatic::STATE`]).
fn entry_state(w0: u32) -> Option<FlowState> {
    FlowState::from_raw(FlowStatic::STATE.get32(w0) as u8)
}

/// The flags byte of a static entry from its word 0 ([`FlowStatic::FLAGS`], [`entry_flags`]).
fn entry_flag_bits(w0: u32) -> u8 {
    FlowStatic::FLAGS.get32(w0) as u8
}

/// The real-server index of a static entry from its word 0 ([`FlowStatic::REAL_SERVER`]).
fn entry_rs(w0: u32) -> usize {
    FlowStatic::REAL_SERVER.get32(w0) as usize
}

/// The FIN flags of the card's teardown view (`FlowDyn.teardown`: `FIN_CS`, `FIN_SC`) as
/// the entry's (`entry_flags::FIN_CLIENT`, `FIN_SERVER`).
#[inline(always)]
fn dyn_fins(d: &[u32; DYN_WORDS]) -> u8 {
    (field(d, FlowDyn::TEARDOWN) as u8 & (teardown::FIN_CS | teardown::FIN_SC)) << 4
}
const _: () = assert!(
    teardown::FIN_CS << 4 == entry_flags::FIN_CLIENT
        && teardown::FIN_SC << 4 == entry_flags::FIN_SERVER
);

/// `w0` with field `f` (in bits 31:0) set to `v`.
fn with_field(w0: u32, f: splicenic_layout::Field, v: u32) -> u32 {
    (w0 & !f.place32(u32::MAX)) | f.place32(v)
}

/// Writes a half ([`FlowHalfEntry`]) at bit `base` of the static entry.
pub fn encode_half(w: &mut [u32; STATIC_WORDS], base: usize, h: &Half) {
    FlowHalfEntry {
        peer_mac: mac_to_u64(h.peer_mac),
        peer_ip: h.peer_ip,
        peer_port: h.peer_port,
        local_ip: h.local_ip,
        local_port: h.local_port,
    }
    .pack_at(w, base);
}

/// An entry the firmware armed for the card's absorber: CONNECTING with `SetupCtx.armed`
/// (docs/server-open.md, "The absorber in the data path"). Its server half's peer fields are
/// where [`FlowStatic`] has them; its local end is not kept.
pub(super) fn is_armed(w0: u32) -> bool {
    entry_state(w0) == Some(FlowState::Connecting) && SetupCtx::ARMED.get32(w0) != 0
}

/// Reads a half ([`FlowHalfEntry`]) at bit `base` of the static entry.
pub fn decode_half(w: &[u32; STATIC_WORDS], base: usize) -> Half {
    let e = FlowHalfEntry::unpack_at(w, base);
    Half {
        peer_mac: mac_from_u64(e.peer_mac),
        peer_ip: e.peer_ip,
        peer_port: e.peer_port,
        local_ip: e.local_ip,
        local_port: e.local_port,
    }
}

/// Virtual-service mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Plain L4: every connection goes to one pool.
    L4,
    /// The pool comes from the L7 rule match of the request.
    L7,
}

#[derive(Clone, Copy, Debug)]
struct Service {
    present: bool,
    vip: u32,
    port: u16,
    mode: Mode,
    pool: u8,
}

const NO_SERVICE: Service = Service {
    present: false,
    vip: 0,
    port: 0,
    mode: Mode::L4,
    pool: 0,
};

/// One pool: its real servers and scheduler (opaque; see [`Pools`]).
pub struct Pool {
    present: bool,
    servers: ServerSet,
    sched: Scheduler,
    /// Persistence timeout as POOL_SET gave it, in seconds (0 off).
    persist_secs: u32,
}

#[derive(Clone, Copy, Debug)]
struct RealServer {
    present: bool,
    pool: u8,
    sid: u8,
    mac: [u8; 6],
    connections: u32,
}

const NO_RS: RealServer = RealServer {
    present: false,
    pool: 0,
    sid: 0,
    mac: [0; 6],
    connections: 0,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// SYN-ACK sent, waiting for the client's ACK.
    Handshake,
    /// Client connected, no request byte yet.
    Request,
    /// First request segment buffered, waiting for the inline L7 result.
    Matching,
    /// The request head is incomplete: more segments, then the L7 command path.
    Assembling,
    /// SYN sent to the chosen server.
    Connecting,
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    used: bool,
    slot: Slot,
    /// The slot's generation in this use (`FlowStatic::GEN`).
    gen: u8,
    phase: Phase,
    svc: u8,
    client: Half,
    client_isn: u32,
    card_isn: u32,
    hs: Handshake,
    client_tsval: u32,
    card_tsval: u32,
    client_win: u16,
    /// Phase deadline (DP.NOW tick).
    deadline: u32,
    req_len: u16,
    /// The first inline L7 result, when it arrived before its segment was processed:
    /// (flags, pool).
    stashed: Option<(u8, u16)>,
    /// Punted segments of this flow that the data path fed to the inline matcher.
    l7_fed: u8,
    /// Inline L7 results received for this flow (they come in the order the segments were
    /// fed).
    l7_verdicts: u8,
    /// A buffer match is outstanding.
    buf_match: bool,
    /// Request bytes the last L7 match (inline or buffer) saw.
    matched_len: u16,
    /// The client's FIN came right after the buffered request (acknowledged, replayed).
    client_fin: bool,
    /// The head's canonical form was submitted to the matcher: its verdict is final.
    canon: bool,
    /// The card's request-head buffer holding a copy of the buffered bytes (`Hw::head_alloc`;
    /// taken with the first request byte): the card replays the head from it.
    head: Option<u8>,
    /// The CONNECTING entry is armed for the card's SYN-ACK absorber ([`SetupCtx`]): it is
    /// taken back ([`Splicer::take_back`]) before the firmware writes it or ends the setup.
    armed: bool,
    pool: u8,
    rs: u8,
    tried: u64,
    syn_tx: u8,
    /// With `armed`: the server SYN's retransmission time (`deadline` is then the next look
    /// at the entry, [`ABSORB_CHECK_MS`]).
    rto_at: u32,
    server: Half,
    cycles: u64,
}

const HS_NONE: Handshake = Handshake {
    client_mss: DEFAULT_PEER_MSS,
    mss_to_client: DEFAULT_PEER_MSS,
    mss_to_server: DEFAULT_PEER_MSS,
    client_wscale: None,
    server_wscale: None,
    sack: false,
    timestamps: false,
};

const NO_PENDING: Pending = Pending {
    used: false,
    slot: 0,
    gen: 0,
    phase: Phase::Handshake,
    svc: 0,
    client: Half {
        peer_mac: [0; 6],
        peer_ip: 0,
        peer_port: 0,
        local_ip: 0,
        local_port: 0,
    },
    client_isn: 0,
    card_isn: 0,
    hs: HS_NONE,
    client_tsval: 0,
    card_tsval: 0,
    client_win: 0,
    deadline: 0,
    req_len: 0,
    stashed: None,
    l7_fed: 0,
    l7_verdicts: 0,
    buf_match: false,
    matched_len: 0,
    client_fin: false,
    canon: false,
    head: None,
    armed: false,
    pool: 0,
    rs: 0,
    tried: 0,
    syn_tx: 0,
    rto_at: 0,
    server: Half {
        peer_mac: [0; 6],
        peer_ip: 0,
        peer_port: 0,
        local_ip: 0,
        local_port: 0,
    },
    cycles: 0,
};

/// The large tables the flow manager borrows (the firmware places them in memory that is
/// not initialised at boot, the tests on the heap).
pub struct Tables<'a> {
    /// The free list of flow slots.
    pub free: &'a mut SlotList,
    /// Request buffers of the connections in setup.
    pub bufs: &'a mut ReqBufs,
    /// The pools.
    pub pools: &'a mut Pools,
}

/// Setup timers (SETUP_SET), in milliseconds, and SYN transmissions per server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupTimers {
    pub request_ms: u32,
    pub server_rto_ms: u32,
    pub server_syn_tries: u32,
}

impl SetupTimers {
    /// Request head within 10 s, server SYN retransmitted after 1 s, 3 SYNs per server.
    pub const DEFAULT: SetupTimers = SetupTimers {
        request_ms: 10_000,
        server_rto_ms: 1_000,
        server_syn_tries: 3,
    };
}

/// The flow manager.
pub struct Splicer<'a> {
    clk_hz: u32,
    slots: usize,
    /// Slots `fresh..slots` have never been used (free, not on the list).
    fresh: usize,
    /// Most flows in use at once (SETUP_SET word 3; `slots` by default).
    limit: usize,
    free: &'a mut SlotList,
    bufs: &'a mut ReqBufs,
    isn: IsnGen,
    timeouts: Timeouts,
    setup: SetupTimers,
    /// The timeouts as TIMEOUT_SET gave them, in ms (TIMEOUT_GET), `TcpState` order.
    timeout_ms: [u32; STATES],
    policy: OptionsPolicy,
    /// The hardware SYN responder: its keys, SYN_CTRL, the rotation deadline.
    syn: SynResp,
    engine: Engine,
    aging: AgingScan,
    /// The card's aging scanner finds the expired flows (`DP.AGE_STATUS.DEPTH` > 0, see
    /// [`Splicer::age_start`]); else the firmware's own scan (`aging`) does.
    age_hw: bool,
    /// The card absorbs the server's SYN-ACK of an armed CONNECTING entry
    /// (`DP.ABSORB_CTRL.PRESENT`, turned on in [`Splicer::engine_start`]).
    absorb_hw: bool,
    /// The card counts the FINs of active flows and keeps their teardown view
    /// (`DP.FIN_CTRL.PRESENT`, see [`Splicer::fin_start`]); else the FIN_RST events do.
    fin_hw: bool,
    /// `DP.FIN_COUNT` per real server as last applied ([`Splicer::fold`]).
    fin_seen: [u32; MAX_RS],
    /// Per real server, first FINs the card counted that [`Splicer::fold`] could not move
    /// (no active connection) while a setup of that server was armed: FINs of connections
    /// the card spliced and closed before the firmware read their SYN-ACK's punt, applied
    /// by [`Splicer::card_spliced`].
    fin_owed: [u8; MAX_RS],
    /// Flows RST-pending (`resets`).
    rst_pend: RstPending,
    services: [Service; MAX_SERVICES],
    /// Created by the first POOL_SET (so boot does not initialise eight schedulers); never
    /// dropped again, so a deleted pool's draining servers keep their counts.
    pools: &'a mut Pools,
    rs: [RealServer; MAX_RS],
    pend: [Pending; PENDING],
    /// Active and inactive flows per real-server index found by [`Splicer::rebuild`], counted
    /// on the server when SERVER_SET adds it.
    restored: [(u32, u32); MAX_RS],
    /// The punted segment being handled went to the inline L7 matcher too.
    to_l7: bool,
    /// The generation of the punted segment's slot (`PuntMeta::SLOT_GEN`; 0 without one).
    hit_gen: u8,
    /// The card's verdict on the punted segment (`PuntMeta::ENGINE`).
    hit_engine: u8,
    /// Flowless data segments whose RST waits (see [`EARLY_HOLD_MS`]), with the tick it
    /// is sent at.
    early: [Option<(TcpSeg, u32)>; EARLY_HELD],
    /// Inline L7 results (`flags`, `pool`) of slots with no connection in setup yet, with
    /// their slot and generation, the oldest overwritten first (`early_verdict_keep`).
    early_verdicts: [Option<EarlyVerdict>; EARLY_VERDICTS],
    early_verdict_next: usize,
    /// Kept results in `early_verdicts` (a NEW punt scans the table only when there are).
    early_verdict_live: usize,
    /// Counters (FLOW_STATS).
    pub stats: Stats,
    /// Cycles per handler kind and step (FLOW_PROFILE).
    pub profile: Profile,
    /// The handler kind the punted segment being handled is charged to.
    cur: Handler,
    /// The rule-set record (RULESET_*), when the firmware gave it memory.
    record: Option<RulesetStore<'a>>,
    /// The capture ring (CAPTURE_*), when the firmware gave it memory.
    capture: Option<CaptureRing<'a>>,
    /// The punted frame being handled and the frame being built, word-aligned: the card's
    /// punt and inject windows move them a 32-bit word at a time.
    frame: WordAligned<MAX_FRAME>,
    out: WordAligned<MAX_FRAME>,
    /// The canonical host and path of the head being canonicalised.
    canon_out: [u8; canon::OUT_LEN],
}

/// A byte buffer on a 32-bit boundary: the firmware copies it to and from the card's
/// windows a word per access instead of a byte per access.
#[repr(C, align(4))]
struct WordAligned<const N: usize>([u8; N]);

impl<const N: usize> core::ops::Deref for WordAligned<N> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl<const N: usize> core::ops::DerefMut for WordAligned<N> {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

fn ms_to_ticks(ms: u32, clk_hz: u32) -> u32 {
    let t = (u64::from(ms) * u64::from(clk_hz)).div_ceil(1000 << 16);
    t.clamp(1, u64::from(i32::MAX as u32)) as u32
}

fn tick_after(now: u32, deadline: u32) -> bool {
    (now.wrapping_sub(deadline) as i32) >= 0
}

impl<'a> Splicer<'a> {
    /// A flow manager over `slots` flow slots (at most [`FW_SLOTS`]; DP.FLOW_SLOTS) at
    /// `clk_hz`, with the ISN secret `(k0, k1)`. `free` is reset to hold every slot and
    /// every pool in `pools` is cleared.
    pub fn new(clk_hz: u32, slots: usize, tables: Tables<'a>, k0: u64, k1: u64) -> Self {
        let Tables { free, bufs, pools } = tables;
        for p in pools.iter_mut() {
            *p = None;
        }
        let slots = slots.clamp(1, FW_SLOTS);
        // Slots never used are handed out in order from `fresh` first, so the list only ever
        // holds freed slots: no 16K-entry fill at boot, and a freed slot is still reused only
        // after every other free slot.
        free.clear();
        Self {
            clk_hz,
            slots,
            fresh: 0,
            limit: slots,
            free,
            bufs,
            isn: IsnGen::new(k0, k1),
            // ID.CLK_HZ of 0: count in ticks of a 1 MHz clock rather than fail. (No
            // `expect` on these results: formatting their errors would cost IMEM.)
            timeouts: match Timeouts::new(clk_hz).or_else(|_| Timeouts::new(1_000_000)) {
                Ok(t) => t,
                Err(_) => unreachable!("1 MHz is a valid clock"),
            },
            setup: SetupTimers::DEFAULT,
            timeout_ms: {
                let mut ms = [0; STATES];
                for (m, s) in ms.iter_mut().zip(DEFAULT_SECS) {
                    *m = s * 1000;
                }
                ms
            },
            policy: OptionsPolicy::DEFAULT,
            syn: SynResp::default(),
            engine: Engine::new(),
            aging: match AgingScan::new(slots) {
                Ok(a) => a,
                Err(_) => unreachable!("1..=16384 slots"),
            },
            age_hw: false,
            absorb_hw: false,
            fin_hw: false,
            fin_seen: [0; MAX_RS],
            fin_owed: [0; MAX_RS],
            rst_pend: RstPending::default(),
            services: [NO_SERVICE; MAX_SERVICES],
            pools,
            rs: [NO_RS; MAX_RS],
            pend: [NO_PENDING; PENDING],
            restored: [(0, 0); MAX_RS],
            to_l7: false,
            hit_gen: 0,
            hit_engine: 0,
            early: [None; EARLY_HELD],
            early_verdicts: [None; EARLY_VERDICTS],
            early_verdict_next: 0,
            early_verdict_live: 0,
            stats: Stats::default(),
            profile: Profile::new(),
            cur: Handler::Other,
            record: None,
            capture: None,
            frame: WordAligned([0; MAX_FRAME]),
            out: WordAligned([0; MAX_FRAME]),
            canon_out: [0; canon::OUT_LEN],
        }
    }

    /// Flow slots managed.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Gives the flow manager memory for the rule-set record (RULESET_PUT, _COMMIT, _GET,
    /// _INFO; without it they answer NO_SPACE).
    pub fn attach_ruleset(&mut self, buf: &'a mut record::RulesetBuf) {
        self.record = Some(RulesetStore::new(buf));
    }

    /// Gives the flow manager the capture ring, seen by the host at core address `addr`
    /// (CAPTURE_SET, CAPTURE_INFO; without it they answer NO_SPACE). Capture starts off.
    pub fn attach_capture(&mut self, ring: &'a mut capture::CaptureBuf, addr: u32) {
        self.capture = Some(CaptureRing::new(ring, addr));
    }

    /// Rebuilds the flow manager's view from the data path after a firmware restart (the
    /// flow table and flow memory survive a core reset): spliced and closing flows stay and
    /// are counted on their real servers once those are configured again; flows that were
    /// being set up lost their setup state, so their keys are deleted and their slots freed
    /// (their clients retransmit or reset). A flow counts active unless its entry or the
    /// card's teardown view has a FIN (`merge_teardown`) or a RST. The scan stops once every
    /// lookup key in the table is accounted for, so a cold boot (empty table) costs nothing.
    /// Returns the flows kept.
    pub fn rebuild(&mut self, hw: &mut impl Hw) -> usize {
        // The ACK validator hands out no slot of the scan from here (its list may hold the
        // previous firmware's pushes; `engine_start` enables it again).
        hw.free_flush();
        // Before the scan: a FIN the card counts from here is folded, one before is in the
        // entry's teardown view.
        self.fin_start(hw);
        let entries = hw.flow_entries() as usize;
        let mut keys = 0;
        let mut kept = 0;
        let mut slot = 0;
        while keys < entries && slot < self.slots {
            let s = slot as Slot;
            slot += 1;
            let (mut w, mut d) = ([0u32; STATIC_WORDS], [0u32; DYN_WORDS]);
            hw.state_read_dyn(s, &mut w, &mut d);
            if is_armed(w[0]) {
                // A setup the previous firmware armed for the card's absorber: taken back
                // (ended below), or spliced by the card (kept).
                let gen = FlowStatic::GEN.get(&w) as u8;
                if hw.absorb_disarm(s, gen) == DisarmResult::Absorbed {
                    hw.state_read_dyn(s, &mut w, &mut d);
                } else {
                    // Its server half's local end is not in the context: the card's SYN
                    // went from its first server-side address and port base + slot.
                    let mut server = decode_half(&w, SERVER_HALF);
                    server.local_ip = hw.local_ip(0).unwrap_or(0);
                    server.local_port = LOCAL_PORT_BASE + s;
                    encode_half(&mut w, SERVER_HALF, &server);
                }
            }
            self.merge_teardown(&mut w, &d);
            let client = decode_half(&w, CLIENT_HALF);
            let server = decode_half(&w, SERVER_HALF);
            let has_server = server.peer_ip != 0;
            match entry_state(w[0]) {
                // Scanned slots that are not in use go to the free list, in order.
                None | Some(FlowState::Free) => {
                    let _ = self.free.free(s);
                }
                Some(FlowState::Spliced | FlowState::Closing) => {
                    keys += 2;
                    kept += 1;
                    self.rst_pending_resume(hw, s, w[0], &d);
                    let rs = entry_rs(w[0]);
                    if rs < MAX_RS {
                        let active = entry_flag_bits(w[0]) & entry_flags::ACTIVE != 0;
                        let c = &mut self.restored[rs];
                        if active {
                            c.0 += 1;
                        } else {
                            c.1 += 1;
                        }
                    }
                }
                Some(_) => {
                    keys += 1 + usize::from(has_server);
                    hw.flow_delete(&client.key());
                    if has_server {
                        hw.flow_delete(&server.key());
                    }
                    hw.state_write(s, &[0; STATIC_WORDS], Some(0));
                    let _ = self.free.free(s);
                }
            }
        }
        // Slots past the scan were never used since the table was last empty.
        self.fresh = slot;
        // The scanner kept walking across the restart (with the previous firmware's table,
        // its queue a hint like any other): this firmware's timeouts and slots.
        self.age_start(hw);
        fw_log!(
            info,
            "flow table rebuilt: {=usize} flows kept, {=usize} keys",
            kept,
            entries
        );
        kept
    }

    /// Slots in use (by flows: those in the ACK validator's free list are not).
    pub fn slots_in_use(&self) -> usize {
        self.slots_taken() - self.engine.len()
    }

    /// Slots out of the free list: in use, or in the ACK validator's free list.
    fn slots_taken(&self) -> usize {
        self.fresh - self.free.free_count()
    }

    /// A configured pool.
    fn pool_mut(&mut self, pool: usize) -> Option<&mut Pool> {
        self.pools
            .get_mut(pool)
            .and_then(Option::as_mut)
            .filter(|p| p.present)
    }

    /// A pool that exists or existed (its servers may be draining).
    fn pool_any_mut(&mut self, pool: usize) -> Option<&mut Pool> {
        self.pools.get_mut(pool).and_then(Option::as_mut)
    }

    fn alloc_slot(&mut self) -> Option<Slot> {
        if self.slots_taken() >= self.limit {
            return None;
        }
        if self.fresh < self.slots {
            self.fresh += 1;
            return Some((self.fresh - 1) as Slot);
        }
        self.free.alloc().ok()
    }

    fn free_slot(&mut self, slot: Slot) {
        if usize::from(slot) < self.fresh {
            // A double free is refused by the list (the caller checked the slot was in use).
            let _ = self.free.free(slot);
        }
    }

    fn slot_is_free(&self, slot: Slot) -> bool {
        usize::from(slot) >= self.fresh || self.free.is_free(slot)
    }

    /// Connections in setup.
    pub fn pending(&self) -> usize {
        self.pend.iter().filter(|p| p.used).count()
    }

    /// One pass of the main loop: punted frames, events, setup timers and an aging step.
    /// Returns true when it did any work.
    pub fn poll(&mut self, hw: &mut impl Hw) -> bool {
        let mut work = false;
        // The setups the card spliced, before the punts (a segment of such a connection
        // punted meanwhile then finds it spliced; a register read a pass on a card with the
        // absorber).
        while self.absorb_hw {
            let Some((slot, gen)) = hw.absorb_pop() else {
                break;
            };
            work = true;
            self.on_absorbed(hw, slot, gen);
        }
        for _ in 0..8 {
            let t0 = self.profile.start(hw);
            let Some(p) = hw.punt_next(&mut self.frame) else {
                break;
            };
            self.profile.step_since(hw, Step::PuntRead, t0);
            work = true;
            self.on_punt(hw, p);
        }
        for _ in 0..16 {
            let Some(ev) = hw.evq_pop() else { break };
            work = true;
            self.on_event(hw, ev);
        }
        let now = hw.now();
        for i in 0..PENDING {
            if self.pend[i].used && tick_after(now, self.pend[i].deadline) {
                work = true;
                let start = hw.cycles();
                let kind = if self.pend[i].phase == Phase::Connecting {
                    Handler::ServerRetx
                } else {
                    Handler::SetupTimeout
                };
                self.on_deadline(hw, i, now);
                self.profile.handler(kind, hw.cycles().wrapping_sub(start));
            }
        }
        work |= self.syn_rotate_step(hw, now);
        work |= self.engine_refill(hw);
        work |= self.rst_pending_step(hw, now);
        work |= self.early_step(hw, now);
        work |= self.aging_step(hw, now);
        work
    }

    // ----- punted frames --------------------------------------------------------------

    fn on_punt(&mut self, hw: &mut impl Hw, p: PuntInfo) {
        let len = p.len.min(MAX_FRAME);
        let m = &p.meta;
        let port = Port::from_bit(field(m, PuntMeta::PORT) != 0);
        let hit = field(m, PuntMeta::FLOW_HIT) != 0;
        let server_half = field(m, PuntMeta::FLOW_HALF) == u32::from(flow_half::SERVER);
        let slot = field(m, PuntMeta::FLOW_SLOT) as Slot;
        if let Some(c) = self.capture.as_mut().filter(|c| c.enabled()) {
            // The frame as received, before anything looks at it.
            let start = hw.cycles();
            c.push(port, &self.frame[..len], p.len, start);
            c.account(hw.cycles().wrapping_sub(start));
        }
        // The data path fed this segment to the inline L7 matcher (flow in state REQUEST).
        self.to_l7 = field(m, PuntMeta::TO_L7) != 0;
        self.hit_gen = field(m, PuntMeta::SLOT_GEN) as u8;
        self.hit_engine = field(m, PuntMeta::ENGINE) as u8;
        let t0 = self.profile.start(hw);
        let parsed = frame::parse(&self.frame[..len]);
        // The handler's cycles start here (the FLOW_STATS sums never included the parse).
        let start = hw.cycles();
        self.profile.step(Step::Parse, start.wrapping_sub(t0));
        match parsed {
            Parsed::Arp(a) => {
                self.on_arp(hw, port, &a);
                self.profile
                    .handler(Handler::Arp, hw.cycles().wrapping_sub(start));
            }
            Parsed::Tcp(seg) => {
                let hit = hit.then_some((slot, server_half));
                self.cur = Handler::Other;
                let setup = match port {
                    Port::Client => {
                        let v = Verdict {
                            kind: field(m, PuntMeta::ENGINE) as u8,
                            gen: field(m, PuntMeta::SLOT_GEN) as u8,
                            class: field(m, PuntMeta::MSS_CLASS) as u8,
                        };
                        self.on_client_seg(hw, &seg, hit, v)
                    }
                    Port::Server => {
                        // The classifier matched a card-owned address (not NOMATCH).
                        let ours = field(m, PuntMeta::WHY) != u32::from(PuntWhy::NoMatch.raw());
                        self.on_server_seg(hw, &seg, hit, ours)
                    }
                };
                let spent = hw.cycles().wrapping_sub(start);
                match setup {
                    Some(i) => self.pend[i].cycles += spent,
                    None => self.stats.setup_cycles += spent,
                }
                self.profile.handler(self.cur, spent);
            }
            Parsed::Other => self.stats.ignored += 1,
        }
    }

    fn on_arp(&mut self, hw: &mut impl Hw, port: Port, a: &frame::Arp) {
        if a.op != 1 {
            self.stats.ignored += 1;
            return;
        }
        let ours = match port {
            Port::Client => self
                .services
                .iter()
                .any(|s| s.present && s.vip == a.target_ip),
            Port::Server => (0..4).any(|i| hw.local_ip(i) == Some(a.target_ip)),
        };
        if !ours {
            self.stats.ignored += 1;
            return;
        }
        let mac = hw.port_mac(port);
        let t0 = self.profile.start(hw);
        let built = frame::arp_reply(&mut self.out, a, mac, a.target_ip);
        let t1 = self.profile.step_since(hw, Step::FrameBuild, t0);
        if let Some(n) = built {
            hw.inject(port, &self.out[..n], None);
            self.profile.step_since(hw, Step::Inject, t1);
        }
    }

    /// Sends the held RSTs whose time came (see [`EARLY_HOLD_MS`]). Returns true when it
    /// sent one.
    fn early_step(&mut self, hw: &mut impl Hw, now: u32) -> bool {
        let mut sent = false;
        for k in 0..EARLY_HELD {
            if let Some((seg, at)) = self.early[k] {
                if tick_after(now, at) {
                    self.early[k] = None;
                    self.send_rst_reply(hw, Port::Client, &seg);
                    sent = true;
                }
            }
        }
        sent
    }

    fn find_pending(&self, slot: Slot) -> Option<usize> {
        self.pend.iter().position(|p| p.used && p.slot == slot)
    }

    /// The connection in setup that a punted segment's hit on `slot` names; `Err` when the
    /// segment belongs to an earlier use of the slot (docs/flowmgr.md, "Slot generations").
    fn hit_pending(&mut self, slot: Slot) -> Result<Option<usize>, StaleGen> {
        let i = self.find_pending(slot);
        match i {
            Some(i) if self.gen_stale(self.pend[i].gen) => Err(StaleGen),
            _ => Ok(i),
        }
    }

    /// An event or punt of generation `self.hit_gen` for a slot whose entry is of
    /// generation `current` was made for an earlier use of the slot: counted, and the
    /// caller drops it. Generation 0 (an entry written without one, e.g. by the host)
    /// matches any.
    fn gen_stale(&mut self, current: u8) -> bool {
        let stale = self.hit_gen != 0 && self.hit_gen != current;
        if stale {
            self.stats.tcp.gen_stale += 1;
        }
        stale
    }

    fn find_service(&self, ip: u32, port: u16) -> Option<usize> {
        self.services
            .iter()
            .position(|s| s.present && s.vip == ip && s.port == port)
    }

    /// A client segment. Returns the pending connection it belonged to (cycle accounting).
    fn on_client_seg(
        &mut self,
        hw: &mut impl Hw,
        seg: &TcpSeg,
        hit: Option<(Slot, bool)>,
        v: Verdict,
    ) -> Option<usize> {
        if let (engine_verdict::NEW, Some((slot, _))) = (v.kind, hit) {
            // A connection the ACK validator set up (docs/engine.md).
            if self.engine_take(hw, slot, Some(v.gen)) {
                self.stats.tcp.engine_new += 1;
                return self.cookie_accept(hw, seg, Given::Slot(slot, v.class, v.gen));
            }
            self.engine_stale(hw, slot, &client_tuple(seg));
            return self.cookie_accept(hw, seg, Given::Nothing);
        }
        let pi = match hit {
            Some((slot, false)) => self.hit_pending(slot).ok()?,
            _ => None,
        };
        // A segment decided before its flow's key was inserted (right behind a cookie ACK).
        let pi = pi.or_else(|| {
            hit.is_none()
                .then(|| self.find_pending_tuple(seg))
                .flatten()
        });
        let Some(i) = pi else {
            // A segment of a connection the ACK validator set up whose NEW punt was lost:
            // the slot is reclaimed and the segment taken as flowless (a handshake ACK
            // still connects).
            let hit = match hit {
                Some((slot, false)) if self.engine_take(hw, slot, None) => None,
                h => h,
            };
            if let (true, Some((slot, false))) = (seg.has(tf::RST), hit) {
                self.on_spliced_rst(hw, seg, slot, false);
                return None;
            }
            if seg.has(tf::SYN) && !seg.has(tf::ACK) {
                return match hit {
                    None => self.on_syn(hw, seg),
                    Some((slot, _)) => self.on_spliced_syn(hw, seg, slot),
                };
            }
            if hit.is_none() && seg.flags & (tf::SYN | tf::RST | tf::ACK) == tf::ACK {
                // The validator's refusal of the card's cookie stands; the firmware's own
                // cookie (every setup entry was busy) is still checked.
                let given = match v.kind {
                    engine_verdict::BAD_COOKIE | engine_verdict::STALE => Given::NotCard,
                    _ => Given::Nothing,
                };
                if let Some(i) = self.cookie_accept(hw, seg, given) {
                    return Some(i);
                }
            }
            // Not ours, or a segment of a spliced flow punted because the fast path is off.
            // A flowless data segment whose cookie did not check may be the client's first
            // data overtaking its handshake ACK (the cookie covers the ISN, seq - 1): its RST
            // waits EARLY_HOLD_MS and is not sent when the ACK connects the tuple meanwhile
            // (the client sends the dropped data again), so the connection survives the
            // reordering; a segment of a connection the card forgot still gets its RST.
            if !seg.has(tf::RST)
                && hit.is_none()
                && self.find_service(seg.dst_ip, seg.dst_port).is_some()
            {
                // A stray segment to a service: RST it, as a host with no such connection;
                // a data segment only if no handshake ACK of its tuple follows soon.
                let early =
                    seg.payload_len() > 0 && seg.flags & (tf::SYN | tf::RST | tf::ACK) == tf::ACK;
                match self.early.iter().position(Option::is_none) {
                    Some(k) if early => {
                        let at = hw
                            .now()
                            .wrapping_add(ms_to_ticks(EARLY_HOLD_MS, self.clk_hz));
                        self.early[k] = Some((*seg, at));
                        self.stats.tcp.early_held += 1;
                    }
                    _ => self.send_rst_reply(hw, Port::Client, seg),
                }
            }
            self.stats.ignored += 1;
            return None;
        };
        if self.to_l7 {
            self.pend[i].l7_fed = self.pend[i].l7_fed.saturating_add(1);
        }
        if seg.has(tf::RST) {
            self.cur = Handler::ClientRst;
            return self.on_client_rst(hw, i, seg);
        }
        let p = self.pend[i];
        if seg.has(tf::SYN) {
            self.cur = Handler::SynRetx;
            if p.phase == Phase::Handshake && seg.seq == p.client_isn {
                // Retransmitted SYN: the identical SYN-ACK.
                self.send_synack(hw, i);
            }
            return Some(i);
        }
        if !seg.has(tf::ACK) {
            return Some(i);
        }
        let opts = self.client_ts(seg);
        if let Some(ts) = opts {
            self.pend[i].client_tsval = ts.tsval;
        }
        if p.phase == Phase::Handshake {
            self.cur = Handler::HandshakeAck;
            let now = hw.now();
            if seg.ack != p.card_isn.wrapping_add(1)
                || self
                    .profile
                    .time(hw, Step::Isn, |_| {
                        self.isn
                            .verify_ack(&client_tuple(seg), p.slot, seg.ack, now)
                    })
                    .is_err()
            {
                self.send_rst_reply(hw, Port::Client, seg);
                return Some(i);
            }
            self.pend[i].client_win = seg.window;
            self.enter_request(hw, i);
        }
        self.pend[i].client_win = seg.window;
        if seg.payload_len() > 0 || seg.has(tf::FIN) {
            if p.phase != Phase::Handshake {
                self.cur = Handler::RequestData;
            }
            self.on_request_data(hw, i, seg);
        }
        Some(i)
    }

    /// A client RST during setup (RFC 793 SYN-RECEIVED and later, with RFC 5961 §3.2):
    /// exactly at the next expected sequence number it ends the setup (and resets the
    /// server when the card's SYN is out); elsewhere in the receive window it gets a
    /// challenge ACK (a client that really reset answers that with a RST at the ACK's
    /// number); outside the window it is dropped. A blind RST must hit the exact number.
    fn on_client_rst(&mut self, hw: &mut impl Hw, i: usize, seg: &TcpSeg) -> Option<usize> {
        let p = self.pend[i];
        let rcv_nxt = p
            .client_isn
            .wrapping_add(1)
            .wrapping_add(u32::from(p.req_len))
            .wrapping_add(u32::from(p.client_fin));
        let off = seg.seq.wrapping_sub(rcv_nxt) as usize;
        if off == 0 {
            if self.take_back(hw, i) {
                // Spliced by the card meanwhile: the client's next RST (at the server's
                // data) ends it as a spliced connection.
                return None;
            }
            if p.phase == Phase::Connecting {
                self.reset_server(hw, i);
            }
            self.abort(hw, i, false);
            return None;
        }
        if off < REQ_BUF - usize::from(p.req_len) {
            fw_log!(debug, "slot {=u16}: RST in window, challenge ACK", p.slot);
            self.ack_client(hw, i);
        } else {
            self.stats.ignored += 1;
        }
        Some(i)
    }

    fn client_ts(&self, seg: &TcpSeg) -> Option<Timestamps> {
        find_timestamps(&self.frame[seg.opts.0..seg.opts.1])
    }

    fn on_syn(&mut self, hw: &mut impl Hw, seg: &TcpSeg) -> Option<usize> {
        let Some(svc) = self.find_service(seg.dst_ip, seg.dst_port) else {
            self.send_rst_reply(hw, Port::Client, seg);
            self.stats.ignored += 1;
            return None;
        };
        let Some(i) = self.pend.iter().position(|p| !p.used) else {
            // Every setup entry is busy (a SYN flood or a burst): answer without state.
            self.send_cookie_synack(hw, seg);
            return None;
        };
        let Some(slot) = self.alloc_slot() else {
            self.stats.refused_full += 1;
            fw_log!(debug, "SYN refused: flow table full");
            self.send_rst_reply(hw, Port::Client, seg);
            return None;
        };
        let t0 = self.profile.start(hw);
        let syn = parse_syn_options(&self.frame[seg.opts.0..seg.opts.1]).unwrap_or_default();
        let hs = Handshake::from_client_syn(&self.policy, &syn).unwrap_or(HS_NONE);
        self.profile.step_since(hw, Step::Options, t0);
        let now = hw.now();
        let client = Half {
            peer_mac: seg.src_mac,
            peer_ip: seg.src_ip,
            peer_port: seg.src_port,
            local_ip: seg.dst_ip,
            local_port: seg.dst_port,
        };
        let st = self.key_insert(hw, &client.key(), slot, false);
        if st != FlowStatus::Ok {
            self.free_slot(slot);
            self.stats.refused_full += 1;
            fw_log!(debug, "SYN refused: flow table bucket full");
            self.send_rst_reply(hw, Port::Client, seg);
            return None;
        }
        self.cur = Handler::Syn;
        let card_isn = self.profile.time(hw, Step::Isn, |_| {
            self.isn.isn(&client_tuple(seg), slot, now)
        });
        self.pend[i] = Pending {
            used: true,
            slot,
            gen: self.engine.next_gen(),
            phase: Phase::Handshake,
            svc: svc as u8,
            client,
            client_isn: seg.seq,
            card_isn,
            hs,
            client_tsval: syn.timestamps.map_or(0, |t| t.tsval),
            card_tsval: now,
            client_win: seg.window,
            deadline: now.wrapping_add(self.timeouts.ticks(TcpState::SynRecv)),
            ..NO_PENDING
        };
        self.write_entry(hw, i, FlowState::Handshake, now);
        self.send_synack(hw, i);
        Some(i)
    }

    fn find_pending_tuple(&self, seg: &TcpSeg) -> Option<usize> {
        self.pend.iter().position(|p| {
            p.used
                && p.client.peer_ip == seg.src_ip
                && p.client.peer_port == seg.src_port
                && p.client.local_ip == seg.dst_ip
                && p.client.local_port == seg.dst_port
        })
    }

    /// Stateless SYN-ACK (SYN-cookie mode, when every setup entry is busy): the ISN is the
    /// keyed hash with a reserved slot number that encodes the client's MSS class; only the
    /// MSS option is offered (no window scaling, SACK or timestamps on such a connection).
    fn send_cookie_synack(&mut self, hw: &mut impl Hw, seg: &TcpSeg) {
        self.cur = Handler::SynCookie;
        let t0 = self.profile.start(hw);
        let syn = parse_syn_options(&self.frame[seg.opts.0..seg.opts.1]).unwrap_or_default();
        self.profile.step_since(hw, Step::Options, t0);
        let class = COOKIE_MSS
            .iter()
            .rposition(|&m| m <= syn.peer_mss())
            .unwrap_or(0);
        let now = hw.now();
        let isn = self.profile.time(hw, Step::Isn, |_| {
            self.isn
                .isn(&client_tuple(seg), COOKIE_SLOT + class as Slot, now)
        });
        let mss = self.policy.mss.to_be_bytes();
        let opts = [2, 4, mss[0], mss[1]];
        let mac = hw.port_mac(Port::Client);
        let out = TcpOut {
            seq: isn,
            ack: seg.seq.wrapping_add(1),
            flags: tf::SYN | tf::ACK,
            window: REQ_BUF as u16,
            opts: &opts,
            payload: &[],
            ..reply_to(seg, mac)
        };
        self.stats.cookie_syn_acks += 1;
        self.send(hw, Port::Client, &out);
    }

    /// A handshake-completing ACK without a flow: accepted when it acknowledges a cookie
    /// SYN-ACK, the hardware SYN responder's ([`synresp::hw_cookie`]) or the firmware's own
    /// ([`Splicer::send_cookie_synack`]); the connection then starts in REQUEST like any
    /// other.
    fn cookie_accept(&mut self, hw: &mut impl Hw, seg: &TcpSeg, given: Given) -> Option<usize> {
        let engine = match given {
            Given::Slot(slot, _, gen) => Some((slot, gen)),
            _ => None,
        };
        let Some(svc) = self.find_service(seg.dst_ip, seg.dst_port) else {
            if let Some((slot, _)) = engine {
                self.engine_refuse(hw, seg, slot);
            }
            return None;
        };
        let now = hw.now();
        let tuple = client_tuple(seg);
        // The hardware SYN responder's cookie first (the card answered the SYN; the ACK
        // validator may have checked it already), then the firmware's own cookie SYN-ACK
        // (every setup entry was busy). Either gives the client SYN's options as far as the
        // SYN-ACK kept them; the firmware's cookie keeps the MSS class only.
        let opts = &self.frame[seg.opts.0..seg.opts.1];
        let syn = match given {
            Given::Slot(_, class, _) => Some(synresp::hw_options(&self.policy, class, opts)),
            Given::NotCard => None,
            Given::Nothing => self.profile.time(hw, Step::Isn, |_| {
                synresp::hw_cookie(&self.syn, &self.policy, seg, opts)
            }),
        };
        let hw_cookie = syn.is_some();
        let syn = match syn {
            Some(syn) => syn,
            None => {
                let class = self.profile.time(hw, Step::Isn, |_| {
                    (0..COOKIE_MSS.len()).find(|&c| {
                        self.isn
                            .verify_ack(&tuple, COOKIE_SLOT + c as Slot, seg.ack, now)
                            .is_ok()
                    })
                })?;
                SynOptions {
                    mss: Some(COOKIE_MSS[class]),
                    ..SynOptions::default()
                }
            }
        };
        self.cur = Handler::CookieAck;
        // A verified ACK proves a real client: if every setup entry is taken, the oldest one
        // still waiting for its handshake ACK (likely a flood SYN) makes room.
        // The flow limit counts flows: a slot from the ACK validator's list (not counted
        // while there) may not take the flows past it.
        let over = engine.is_some() && self.slots_in_use() > self.limit;
        let free = self.pend.iter().position(|p| !p.used && !over).or_else(|| {
            let j = (0..PENDING)
                .filter(|&j| !over && self.pend[j].phase == Phase::Handshake)
                .min_by_key(|&j| self.pend[j].deadline.wrapping_sub(now) as i32)?;
            self.abort(hw, j, false);
            Some(j)
        });
        let Some(i) = free else {
            if let Some((slot, _)) = engine {
                self.engine_refuse(hw, seg, slot);
            }
            self.stats.refused_full += 1;
            self.send_rst_reply(hw, Port::Client, seg);
            return None;
        };
        let client = Half {
            peer_mac: seg.src_mac,
            peer_ip: seg.src_ip,
            peer_port: seg.src_port,
            local_ip: seg.dst_ip,
            local_port: seg.dst_port,
        };
        // The validator took the slot and inserted the key already.
        let (slot, gen) = match engine {
            Some(g) => g,
            None => {
                let Some(slot) = self.alloc_slot() else {
                    self.stats.refused_full += 1;
                    self.send_rst_reply(hw, Port::Client, seg);
                    return None;
                };
                if self.key_insert(hw, &client.key(), slot, false) != FlowStatus::Ok {
                    self.free_slot(slot);
                    self.stats.refused_full += 1;
                    self.send_rst_reply(hw, Port::Client, seg);
                    return None;
                }
                (slot, self.engine.next_gen())
            }
        };
        // The tuple is connected: a data segment of it that overtook this ACK was early.
        for e in self.early.iter_mut() {
            if e.is_some_and(|(s, _)| client_tuple(&s) == tuple) {
                *e = None;
                self.stats.tcp.early_kept += 1;
            }
        }
        // One function negotiates, as for a SYN the firmware answered itself.
        let hs = Handshake::from_client_syn(&self.policy, &syn).unwrap_or(HS_NONE);
        let ts = syn.timestamps.unwrap_or_default();
        self.pend[i] = Pending {
            used: true,
            slot,
            gen,
            phase: Phase::Handshake,
            svc: svc as u8,
            client,
            client_isn: seg.seq.wrapping_sub(1),
            card_isn: seg.ack.wrapping_sub(1),
            hs,
            // The client's TSval, and the card's SYN-ACK TSval it echoes: the card's next
            // TSvals (DP.NOW, never behind a cookie TSval) and the splice's timestamp offset
            // continue from them.
            client_tsval: ts.tsval,
            card_tsval: ts.tsecr,
            client_win: seg.window,
            deadline: now,
            ..NO_PENDING
        };
        if hw_cookie {
            self.stats.tcp.hw_cookie_acks += 1;
        }
        if engine.is_some() {
            // The inline result of a request segment right behind the handshake ACK, popped
            // before this NEW punt: the connection's first. A NEW punt with a payload went to
            // the inline matcher itself.
            self.pend[i].stashed = self.early_verdict_take(i);
            self.pend[i].l7_fed = u8::from(self.to_l7);
        }
        self.enter_request(hw, i);
        if seg.payload_len() > 0 && self.pend[i].used {
            self.on_request_data(hw, i, seg);
        }
        Some(i)
    }

    fn write_entry(&mut self, hw: &mut impl Hw, i: usize, state: FlowState, now: u32) {
        let p = &self.pend[i];
        let mut w = [0u32; STATIC_WORDS];
        w[0] = FlowStatic::STATE.place32(state.raw().into())
            | FlowStatic::REAL_SERVER.place32(p.rs.into());
        FlowStatic::GEN.put(&mut w, p.gen.into());
        encode_half(&mut w, CLIENT_HALF, &p.client);
        if state == FlowState::Connecting {
            encode_half(&mut w, SERVER_HALF, &p.server);
        }
        let slot = p.slot;
        self.entry_write(hw, slot, &w, Some(now));
    }

    /// `hw.flow_insert`, profiled.
    fn key_insert(
        &mut self,
        hw: &mut impl Hw,
        key: &FourTuple,
        slot: Slot,
        server_half: bool,
    ) -> FlowStatus {
        self.profile.time(hw, Step::FlowCmd, |hw| {
            hw.flow_insert(key, slot, server_half)
        })
    }

    /// `hw.flow_delete`, profiled.
    fn key_delete(&mut self, hw: &mut impl Hw, key: &FourTuple) -> FlowStatus {
        self.profile
            .time(hw, Step::FlowCmd, |hw| hw.flow_delete(key))
    }

    /// `hw.state_write`, profiled.
    fn entry_write(
        &mut self,
        hw: &mut impl Hw,
        slot: Slot,
        w: &[u32; STATIC_WORDS],
        last_seen: Option<u32>,
    ) {
        self.profile.time(hw, Step::EntryWrite, |hw| {
            hw.state_write(slot, w, last_seen)
        })
    }

    /// `hw.state_read`, profiled.
    fn entry_read(&mut self, hw: &mut impl Hw, slot: Slot, w: &mut [u32; STATIC_WORDS]) -> u32 {
        self.profile
            .time(hw, Step::EntryRead, |hw| hw.state_read(slot, w))
    }

    fn send_synack(&mut self, hw: &mut impl Hw, i: usize) {
        let p = self.pend[i];
        let opts = p.hs.synack_to_client(p.card_tsval, p.client_tsval);
        let mac = hw.port_mac(Port::Client);
        let out = TcpOut {
            seq: p.card_isn,
            ack: p.client_isn.wrapping_add(1),
            flags: tf::SYN | tf::ACK,
            window: REQ_BUF as u16,
            opts: opts.as_slice(),
            payload: &[],
            ..p.client.segment(mac)
        };
        self.stats.syn_acks += 1;
        self.send(hw, Port::Client, &out);
    }

    fn send(&mut self, hw: &mut impl Hw, port: Port, seg: &TcpOut) {
        let t0 = self.profile.start(hw);
        // a header-only segment in one of the generator's forms: its fields, not its bytes
        if let Some(g) = GenFrame::from_out(seg) {
            if hw.tx_gen(port, &g) {
                self.profile.step_since(hw, Step::TxGen, t0);
                return;
            }
        }
        let built = seg.write(&mut self.out);
        let t1 = self.profile.step_since(hw, Step::FrameBuild, t0);
        if let Some((n, off)) = built {
            let sent = hw.inject(port, &self.out[..n], Some(off));
            self.profile.step_since(hw, Step::Inject, t1);
            if !sent {
                fw_log!(warn, "inject ring full: segment dropped");
            }
        }
    }

    /// RST answering a segment that belongs to no connection (RFC 793 reset generation).
    fn send_rst_reply(&mut self, hw: &mut impl Hw, port: Port, seg: &TcpSeg) {
        if seg.has(tf::RST) {
            return;
        }
        let (seq, ack, flags) = if seg.has(tf::ACK) {
            (seg.ack, 0, tf::RST)
        } else {
            let mut len = seg.payload_len() as u32;
            if seg.has(tf::SYN) {
                len += 1;
            }
            if seg.has(tf::FIN) {
                len += 1;
            }
            (0, seg.seq.wrapping_add(len), tf::RST | tf::ACK)
        };
        let mac = hw.port_mac(port);
        let out = TcpOut {
            seq,
            ack,
            flags,
            window: 0,
            opts: &[],
            payload: &[],
            ..reply_to(seg, mac)
        };
        self.send(hw, port, &out);
    }

    fn enter_request(&mut self, hw: &mut impl Hw, i: usize) {
        let now = hw.now();
        let svc = self.services[usize::from(self.pend[i].svc)];
        self.pend[i].phase = Phase::Request;
        self.pend[i].deadline = now.wrapping_add(ms_to_ticks(self.setup.request_ms, self.clk_hz));
        if svc.mode == Mode::L4 {
            // No request needed: connect now.
            self.choose_and_connect(hw, i, svc.pool);
        } else {
            self.write_entry(hw, i, FlowState::Request, now);
        }
    }

    /// ACK to the client for the buffered request bytes.
    fn ack_client(&mut self, hw: &mut impl Hw, i: usize) {
        let now = hw.now();
        self.pend[i].card_tsval = now;
        let p = self.pend[i];
        // Rounded up (`request::ack_window`); a client that sends more than the room gets
        // the part that fits acknowledged (`on_request_data`).
        let window = request::ack_window(p.req_len, p.hs.client_wscale.unwrap_or(0));
        let mut opts = [0u8; TS_OPTION_LEN as usize];
        let o: &[u8] = if p.hs.timestamps {
            ts_option(&mut opts, now, p.client_tsval);
            &opts
        } else {
            &[]
        };
        let mac = hw.port_mac(Port::Client);
        let out = TcpOut {
            seq: p.card_isn.wrapping_add(1),
            ack: p
                .client_isn
                .wrapping_add(1)
                .wrapping_add(u32::from(p.req_len))
                .wrapping_add(u32::from(p.client_fin)),
            flags: tf::ACK,
            window,
            opts: o,
            payload: &[],
            ..p.client.segment(mac)
        };
        self.send(hw, Port::Client, &out);
    }

    /// Request bytes (and a FIN: the client may half-close right after its request; the FIN
    /// is acknowledged and replayed to the server after the request).
    fn on_request_data(&mut self, hw: &mut impl Hw, i: usize, seg: &TcpSeg) {
        let p = self.pend[i];
        let payload = (seg.payload.0, seg.payload.1);
        let st = request::request_step(
            p.client_isn,
            p.req_len,
            p.client_fin,
            p.hs.client_wscale.unwrap_or(0),
            seg.seq,
            (payload.1 - payload.0) as u16,
            seg.has(tf::FIN),
        );
        if matches!(
            st.verdict,
            request::ReqVerdict::OutOfOrder | request::ReqVerdict::Duplicate
        ) {
            // After the FIN or out of order (the client sends it again), or a duplicate of
            // bytes already buffered (absorbed): re-acknowledged, nothing buffered.
            self.ack_client(hw, i);
            return;
        }
        if self.take_back(hw, i) {
            // Spliced by the card meanwhile (its head is the server's): the segment is
            // dropped unacknowledged, and the client's retransmission takes the splice.
            return;
        }
        let (at, from, take) = (
            usize::from(p.req_len),
            payload.0 + usize::from(st.skip),
            usize::from(st.take),
        );
        self.bufs[i][at..at + take].copy_from_slice(&self.frame[from..from + take]);
        if take > 0 {
            self.head_store(hw, i, at, from, take);
        }
        self.pend[i].req_len = st.req_len;
        self.pend[i].client_fin = st.client_fin;
        self.ack_client(hw, i);
        if take == 0 {
            if p.phase == Phase::Request {
                // A FIN before any request byte: nothing to route.
                self.abort(hw, i, true);
            }
            return;
        }
        let now = hw.now();
        match p.phase {
            Phase::Request => {
                // Later segments must not reach the inline matcher on their own.
                self.write_entry(hw, i, FlowState::Connecting, now);
                if self.to_l7 && self.pend[i].l7_fed == 1 {
                    // The first segment the inline matcher saw is exactly this one: the first
                    // inline result is its verdict.
                    self.pend[i].phase = Phase::Matching;
                    self.pend[i].matched_len = self.pend[i].req_len;
                    if let Some((flags, pool)) = self.pend[i].stashed.take() {
                        self.on_match(hw, i, flags, pool);
                    } else {
                        self.pend[i].deadline =
                            now.wrapping_add(ms_to_ticks(INLINE_WAIT_MS, self.clk_hz));
                    }
                } else {
                    // The segment was decided before the flow entered REQUEST (it followed
                    // the handshake ACK closely), or an out-of-order or duplicate segment
                    // reached the inline matcher before it (the first inline result is that
                    // segment's, not the buffered bytes'): match the buffer instead.
                    self.pend[i].stashed = None;
                    self.pend[i].phase = Phase::Assembling;
                    self.match_buffer(hw, i);
                }
            }
            Phase::Assembling if !self.pend[i].buf_match => self.match_buffer(hw, i),
            _ => {}
        }
    }

    /// Copies newly buffered request bytes (`take` at `from` in the frame, at position `at` of
    /// the head) into the card's request-head buffer, taken with the first byte. Without one
    /// (none free, or a card without them) the firmware replays the head itself.
    fn head_store(&mut self, hw: &mut impl Hw, i: usize, at: usize, from: usize, take: usize) {
        let t0 = self.profile.start(hw);
        if at == 0 && self.pend[i].head.is_none() {
            self.pend[i].head = hw.head_alloc();
        }
        if let Some(id) = self.pend[i].head {
            if !hw.head_append(id, at as u16, from, &self.frame[from..from + take]) {
                hw.head_free(id);
                self.pend[i].head = None;
            }
        }
        self.profile.step_since(hw, Step::HeadStore, t0);
    }

    /// Keeps an inline L7 result whose slot has no connection in setup: the data path feeds
    /// the inline matcher from the ACK validator's HANDSHAKE entry on, so the result of the
    /// request segment right behind the handshake ACK can be popped from the event queue
    /// before the NEW punt that hands the slot over (the punt ring is read eight frames a
    /// pass). Results that nothing takes are overwritten, oldest first (counted in
    /// `TcpStats::early_results_dropped`).
    fn early_verdict_keep(&mut self, slot: Slot, flags: u8, pool: u16) {
        let k = self.early_verdict_next;
        if self.early_verdicts[k].is_none() {
            self.early_verdict_live += 1;
        } else {
            self.stats.tcp.early_results_dropped += 1;
        }
        self.stats.tcp.early_results += 1;
        self.early_verdicts[k] = Some(EarlyVerdict {
            slot,
            gen: self.hit_gen,
            flags,
            pool,
        });
        self.early_verdict_next = (k + 1) % EARLY_VERDICTS;
    }

    /// The first kept inline result of connection `i`'s slot and generation, when the ACK
    /// validator hands the slot over. Every kept result of the slot is taken (a later use of
    /// the slot never sees them) and counts as one of the connection's inline results, so
    /// only the first is taken for the request's. Generation 0 (an entry written without
    /// one) matches any.
    fn early_verdict_take(&mut self, i: usize) -> Option<(u8, u16)> {
        if self.early_verdict_live == 0 {
            return None;
        }
        let (slot, gen) = (self.pend[i].slot, self.pend[i].gen);
        let mut first = None;
        for j in 0..EARLY_VERDICTS {
            // Oldest first: the kept results of one slot are in the order of its segments.
            let k = (self.early_verdict_next + j) % EARLY_VERDICTS;
            let Some(e) = self.early_verdicts[k] else {
                continue;
            };
            if e.slot == slot && (e.gen == 0 || gen == 0 || e.gen == gen) {
                self.early_verdicts[k] = None;
                self.early_verdict_live -= 1;
                let n = &mut self.pend[i].l7_verdicts;
                *n = n.saturating_add(1);
                first = first.or(Some((e.flags, e.pool)));
            }
        }
        first
    }

    fn match_buffer(&mut self, hw: &mut impl Hw, i: usize) {
        let n = usize::from(self.pend[i].req_len);
        let (bufs, slot, gen) = (&*self.bufs, self.pend[i].slot, self.pend[i].gen);
        if self.profile.time(hw, Step::L7Submit, |hw| {
            hw.l7_match(&bufs[i][..n], slot, gen)
        }) {
            self.pend[i].buf_match = true;
            self.pend[i].matched_len = self.pend[i].req_len;
        }
    }

    // ----- events -----------------------------------------------------------------------

    fn on_event(&mut self, hw: &mut impl Hw, ev: [u32; 4]) {
        match EventType::from_raw(field(&ev, EvtHead::KIND) as u8) {
            Some(EventType::RequestMatched) => {
                let from_buffer = field(&ev, EvtRequestMatched::FROM_BUFFER) != 0;
                let flags = field(&ev, EvtRequestMatched::FLAGS) as u8;
                let slot = field(&ev, EvtRequestMatched::TAG) as Slot;
                let pool = field(&ev, EvtRequestMatched::POOL) as u16;
                // A result (inline or of a buffer match) for an earlier use of the slot is
                // dropped (counted).
                self.hit_gen = field(&ev, EvtRequestMatched::FLOW_GEN) as u8;
                let Ok(pi) = self.hit_pending(slot) else {
                    return;
                };
                let Some(i) = pi else {
                    if from_buffer {
                        self.stats.ignored += 1;
                    } else {
                        self.early_verdict_keep(slot, flags, pool);
                    }
                    return;
                };
                let start = hw.cycles();
                let kind = if from_buffer {
                    Handler::L7Buffer
                } else {
                    Handler::L7Inline
                };
                match (self.pend[i].phase, from_buffer) {
                    (phase, false) => {
                        // Only the first inline result can be the buffered segment's (see
                        // `on_request_data`); later ones are other segments'.
                        let n = self.pend[i].l7_verdicts.saturating_add(1);
                        self.pend[i].l7_verdicts = n;
                        match phase {
                            Phase::Handshake | Phase::Request if n == 1 => {
                                self.pend[i].stashed = Some((flags, pool))
                            }
                            Phase::Matching if n == 1 => self.on_match(hw, i, flags, pool),
                            _ => self.stats.ignored += 1,
                        }
                    }
                    (Phase::Assembling, true) => {
                        self.pend[i].buf_match = false;
                        self.on_match(hw, i, flags, pool)
                    }
                    _ => self.stats.ignored += 1,
                }
                let spent = hw.cycles().wrapping_sub(start);
                if self.pend[i].used && self.pend[i].slot == slot {
                    self.pend[i].cycles += spent;
                }
                self.profile.handler(kind, spent);
            }
            Some(EventType::FinRst) => {
                let start = hw.cycles();
                let from_server = field(&ev, EvtFinRst::PORT) == u32::from(port::SERVER);
                let slot = field(&ev, EvtFinRst::FLOW_SLOT) as Slot;
                self.on_fin_rst(hw, slot, from_server, &ev);
                let spent = hw.cycles().wrapping_sub(start);
                self.stats.teardown_cycles += spent;
                self.profile.handler(Handler::FinRst, spent);
            }
            // PUNT_READY and others: the punt ring is polled directly.
            _ => {}
        }
    }

    fn on_match(&mut self, hw: &mut impl Hw, i: usize, mut flags: u8, mut pool: u16) {
        use l7_flag::{INCOMPLETE, NOT_HTTP};
        if !self.pend[i].canon && flags & L7_FLAGGED != 0 {
            match self.canonicalize_head(hw, i) {
                HeadVerdict::Resubmitted => return,
                HeadVerdict::Refused => {
                    self.abort(hw, i, true);
                    return;
                }
                // More bytes are needed whatever the data path made of the prefix.
                HeadVerdict::Wait => flags = INCOMPLETE,
                HeadVerdict::NotHttp => {
                    flags = NOT_HTTP;
                    pool = u16::MAX;
                }
            }
        }
        if flags & INCOMPLETE != 0 && flags & NOT_HTTP == 0 {
            // The verdict is about the bytes matched then; bytes that came since decide first
            // (the buffer may have filled up meanwhile with the Host line in it).
            if self.pend[i].req_len > self.pend[i].matched_len {
                self.pend[i].phase = Phase::Assembling;
                self.match_buffer(hw, i);
                return;
            }
            if usize::from(self.pend[i].req_len) >= REQ_BUF {
                fw_log!(
                    debug,
                    "slot {=u16}: request head over {=usize} bytes",
                    self.pend[i].slot,
                    REQ_BUF
                );
                self.abort(hw, i, true);
                return;
            }
            self.pend[i].phase = Phase::Assembling;
            return;
        }
        let svc = self.services[usize::from(self.pend[i].svc)];
        let pool = if self.pool_mut(usize::from(pool)).is_some() {
            pool as u8
        } else {
            svc.pool
        };
        self.choose_and_connect(hw, i, pool);
    }

    /// The slow path of a head the data path flagged: canonicalised as the backend resolves
    /// it (`canon`), then, when accepted, its canonical form (`METHOD path HTTP/1.1`, `Host`)
    /// matched again by the L7 command path, whose verdict routes the connection (the server
    /// still gets the client's own bytes). Ambiguous heads are refused and counted per
    /// reason; heads that are not HTTP at all keep going to the default pool.
    fn canonicalize_head(&mut self, hw: &mut impl Hw, i: usize) -> HeadVerdict {
        // What the slow path costs: canonicalising and writing the canonical head (the
        // resubmission is the `l7_submit` step, as for any buffer match).
        let t0 = hw.cycles();
        let n = usize::from(self.pend[i].req_len);
        let decided = match canon::canonicalize(&self.bufs[i][..n], &mut self.canon_out) {
            Outcome::Incomplete => None,
            Outcome::Refuse(r) => Some(Err(r)),
            Outcome::Canonical(c) => {
                Some(canonical_head(&mut self.out, c.path, c.host).ok_or(Reason::HeadTooLong))
            }
        };
        self.stats.head_cycles += hw.cycles().wrapping_sub(t0);
        let verdict = match decided {
            None => return HeadVerdict::Wait,
            Some(Err(r)) if not_http(r, &self.bufs[i][..n]) => {
                self.stats.heads_not_http += 1;
                HeadVerdict::NotHttp
            }
            Some(Err(r)) => {
                if let Some(c) = self.stats.heads_refused.get_mut(r.index()) {
                    *c = c.saturating_add(1);
                }
                fw_log!(
                    debug,
                    "slot {=u16}: request head refused: {=str}",
                    self.pend[i].slot,
                    r.name()
                );
                HeadVerdict::Refused
            }
            Some(Ok(len)) => {
                let (slot, gen) = (self.pend[i].slot, self.pend[i].gen);
                let out = &self.out[..len];
                if !self
                    .profile
                    .time(hw, Step::L7Submit, |hw| hw.l7_match(out, slot, gen))
                {
                    // The command path is busy: tried again with the next segment or at the
                    // request deadline, like any buffer match.
                    return HeadVerdict::Wait;
                }
                self.stats.heads_canonical += 1;
                let p = &mut self.pend[i];
                p.canon = true;
                p.phase = Phase::Assembling;
                p.buf_match = true;
                p.matched_len = p.req_len;
                HeadVerdict::Resubmitted
            }
        };
        self.stats.heads_flagged += 1;
        verdict
    }

    /// Picks a server of `pool` not tried yet and sends it the SYN; answers the client with
    /// RST when no server is left.
    fn choose_and_connect(&mut self, hw: &mut impl Hw, i: usize, pool: u8) {
        let now = hw.now();
        let p = self.pend[i];
        let pl = usize::from(pool);
        if self.pool_mut(pl).is_none() {
            self.abort(hw, i, true);
            return;
        }
        let t0 = self.profile.start(hw);
        // The counts the scheduler reads include the FINs the card counted.
        self.fold_pool(hw, pl);
        let sid = {
            let pool = self.pool_mut(pl).expect("checked above");
            pool.sched.set_now(now);
            let first = pool.sched.pick(
                &pool.servers,
                p.client.peer_ip,
                p.client.peer_port,
                p.client.local_ip,
            );
            match first {
                Some(s) if p.tried & 1 << s == 0 => Some(s),
                // No server by the scheduler's rules (IPVS answers ICMP unreachable): the
                // client is refused.
                None if p.tried == 0 => None,
                // The scheduler's choice already failed this connection: the next eligible
                // server in order.
                _ => pool.servers.ids().find(|&s| {
                    p.tried & 1 << s == 0
                        && pool.servers.get(s).is_some_and(|sv| {
                            sv.weight() > 0 && sv.is_available() && !sv.is_overloaded()
                        })
                }),
            }
        };
        self.profile.step_since(hw, Step::SchedPick, t0);
        let Some(sid) = sid else {
            fw_log!(
                debug,
                "slot {=u16}: no server left in pool {=u8}",
                p.slot,
                pool
            );
            self.abort(hw, i, true);
            return;
        };
        let Some(rs) = self
            .rs
            .iter()
            .position(|r| r.present && r.pool == pool && usize::from(r.sid) == sid)
        else {
            self.abort(hw, i, true);
            return;
        };
        let Some(local_ip) = hw.local_ip(0) else {
            fw_log!(warn, "no server-side address configured (DP.LOCAL 0)");
            self.abort(hw, i, true);
            return;
        };
        let (addr, port) = {
            let s = self
                .pool_mut(pl)
                .expect("checked above")
                .servers
                .get(sid)
                .expect("picked server exists");
            (s.addr(), s.port())
        };
        let server = Half {
            peer_mac: self.rs[rs].mac,
            peer_ip: addr,
            peer_port: port,
            local_ip,
            local_port: LOCAL_PORT_BASE + p.slot,
        };
        // A previous attempt's key.
        if p.phase == Phase::Connecting {
            self.key_delete(hw, &p.server.key());
        }
        if self.key_insert(hw, &server.key(), p.slot, true) != FlowStatus::Ok {
            self.abort(hw, i, true);
            return;
        }
        if let Some(pool) = self.pool_mut(pl) {
            let _ = pool
                .sched
                .on_connect(&mut pool.servers, sid, p.client.peer_ip);
        }
        self.rs[rs].connections = self.rs[rs].connections.wrapping_add(1);
        let q = &mut self.pend[i];
        q.phase = Phase::Connecting;
        q.pool = pool;
        q.rs = rs as u8;
        q.tried |= 1 << sid;
        q.server = server;
        q.syn_tx = 0;
        if self.can_arm(i) {
            self.arm_entry(hw, i, now);
        } else {
            self.write_entry(hw, i, FlowState::Connecting, now);
        }
        self.send_server_syn(hw, i);
        self.absorb_check_at(i, now, true);
    }

    fn send_server_syn(&mut self, hw: &mut impl Hw, i: usize) {
        let now = hw.now();
        let rto = ms_to_ticks(self.setup.server_rto_ms, self.clk_hz);
        self.pend[i].syn_tx += 1;
        self.pend[i].deadline = now.wrapping_add(rto);
        let p = self.pend[i];
        let opts = p.hs.syn_to_server(p.client_tsval);
        let mac = hw.port_mac(Port::Server);
        let out = TcpOut {
            seq: p.client_isn,
            ack: 0,
            flags: tf::SYN,
            window: 0xffff,
            opts: opts.as_slice(),
            payload: &[],
            ..p.server.segment(mac)
        };
        self.send(hw, Port::Server, &out);
    }

    /// RST to the server whose SYN is out, when the connection's setup ends (the card aborts
    /// its SYN-SENT connection: seq = the SYN's + 1, no ACK, which a server in SYN-RECEIVED
    /// accepts; as IPVS, which forwards the client's RST, the server is not left half-open).
    fn reset_server(&mut self, hw: &mut impl Hw, i: usize) {
        let p = self.pend[i];
        let mac = hw.port_mac(Port::Server);
        let out = TcpOut {
            seq: p.client_isn.wrapping_add(1),
            ack: 0,
            flags: tf::RST,
            window: 0,
            opts: &[],
            payload: &[],
            ..p.server.segment(mac)
        };
        self.send(hw, Port::Server, &out);
    }

    /// The server of a connection in setup failed (RST or no answer): count it and try the
    /// next one.
    fn server_failed(&mut self, hw: &mut impl Hw, i: usize) {
        if self.take_back(hw, i) {
            return;
        }
        let p = self.pend[i];
        self.stats.server_retries += 1;
        self.close_on_server(p.pool, p.rs, p.client.peer_ip, false);
        fw_log!(debug, "slot {=u16}: real server {=u8} failed", p.slot, p.rs);
        self.choose_and_connect(hw, i, p.pool);
    }

    fn close_on_server(&mut self, pool: u8, rs: u8, client: u32, established: bool) {
        let sid = usize::from(self.rs[usize::from(rs)].sid);
        if let Some(pl) = self.pool_any_mut(usize::from(pool)) {
            let _ = pl.sched.on_close(&mut pl.servers, sid, client, established);
        }
    }

    // ----- server side ------------------------------------------------------------------

    /// A server-port segment of no connection in setup (a spliced flow's, or none): a
    /// RST of a spliced flow goes to the client; a segment to a card address of no
    /// connection is answered with a RST; anything else is ignored.
    fn server_seg_spliced(
        &mut self,
        hw: &mut impl Hw,
        seg: &TcpSeg,
        hit: Option<(Slot, bool)>,
        ours: bool,
    ) {
        if self.hit_engine == engine_verdict::ABSORBED {
            // The card absorbed it and the firmware found that already when it took the
            // setup's entry back (`take_back`): nothing left to do.
            return;
        }
        if let (true, Some((slot, true))) = (seg.has(tf::RST), hit) {
            self.on_spliced_rst(hw, seg, slot, true);
            return;
        }
        if hit.is_none()
            && ours
            && !seg.has(tf::RST)
            && (0..4).any(|k| hw.local_ip(k) == Some(seg.dst_ip))
        {
            // A segment to a card address that belongs to no connection (e.g. the
            // SYN-ACK to the SYN of a setup the client ended): RST, as a host with no
            // such connection (seq = its ACK), so the server is not left half-open.
            // Not for a segment the classifier did not see as ours (NOMATCH): the
            // address table was being written when it arrived, and the segment may
            // belong to a spliced connection the data path would have forwarded.
            self.send_rst_reply(hw, Port::Server, seg);
        }
        self.stats.ignored += 1;
    }

    /// A server-port segment. `ours`: the classifier matched its destination as a card-owned
    /// address (the punt's why is not NOMATCH).
    fn on_server_seg(
        &mut self,
        hw: &mut impl Hw,
        seg: &TcpSeg,
        hit: Option<(Slot, bool)>,
        ours: bool,
    ) -> Option<usize> {
        let i = match hit {
            Some((slot, true)) => self.hit_pending(slot).ok()?,
            _ => None,
        };
        let Some(i) = i else {
            self.server_seg_spliced(hw, seg, hit, ours);
            return None;
        };
        let p = self.pend[i];
        self.cur = Handler::ServerSeg;
        if self.hit_engine == engine_verdict::ABSORBED {
            // The card absorbed this SYN-ACK: the entry is SPLICED, the handshake ACK and
            // the head are sent (docs/server-open.md, "The absorber in the data path").
            self.cur = Handler::ServerAbsorbed;
            if p.armed {
                self.pend[i].armed = false;
                return self.card_spliced(hw, i);
            }
            return Some(i);
        }
        if p.phase != Phase::Connecting {
            self.stats.ignored += 1;
            return Some(i);
        }
        if self.take_back(hw, i) {
            // The card spliced the connection before the firmware read its done-queue record
            // (or the punt of a SYN-ACK it spilled): this segment belongs to the spliced flow
            // (a server RST after the head, or a SYN-ACK's retransmission).
            self.server_seg_spliced(hw, seg, hit, ours);
            return None;
        }
        let t0 = self.profile.start(hw);
        let sa = SynAckSegment {
            flags: seg.flags,
            seq: seg.seq,
            ack: seg.ack,
            opts: parse_syn_options(&self.frame[seg.opts.0..seg.opts.1]).unwrap_or_default(),
        };
        let ctx = SynAckContext {
            client_isn: p.client_isn,
            card_isn: p.card_isn,
            card_tsval: p.card_tsval,
            client_win: p.client_win,
            hs: p.hs,
            real_server: p.rs,
            client_fin: p.client_fin,
        };
        let a = absorb_synack(&ctx, &sa);
        match a.verdict {
            SynAckVerdict::Ignore => {
                // A RST that does not acknowledge the SYN is dropped uncounted.
                if !seg.has(tf::RST) {
                    self.stats.ignored += 1;
                }
                return Some(i);
            }
            SynAckVerdict::Refused => {
                self.server_failed(hw, i);
                return Some(i);
            }
            _ => {}
        }
        self.profile.step_since(hw, Step::Options, t0);
        let Some(neg) = a.neg else {
            // Declined: the server refused a feature the client half already uses. Reset it
            // and try another server.
            self.send_rst_reply(hw, Port::Server, seg);
            self.server_failed(hw, i);
            return Some(i);
        };
        self.cur = Handler::ServerSynAck;
        let mut w = [0u32; STATIC_WORDS];
        w[..4].copy_from_slice(&a.words);
        if p.client_fin {
            self.stats.closed += 1;
        }
        encode_half(&mut w, CLIENT_HALF, &p.client);
        encode_half(&mut w, SERVER_HALF, &p.server);
        FlowStatic::GEN.put(&mut w, p.gen.into());
        let now = hw.now();
        self.entry_write(hw, p.slot, &w, Some(now));
        // Handshake ACK, then the buffered request.
        let mut opts = [0u8; TS_OPTION_LEN as usize];
        let o_len = if neg.timestamps {
            ts_option(&mut opts, p.client_tsval, sa.tsval());
            opts.len()
        } else {
            0
        };
        let chunk = usize::from(a.chunk);
        let mac = hw.port_mac(Port::Server);
        let base = TcpOut {
            seq: p.client_isn.wrapping_add(1),
            ack: a.ack,
            flags: tf::ACK,
            window: a.window,
            opts: &opts[..o_len],
            payload: &[],
            ..p.server.segment(mac)
        };
        let req_len = usize::from(p.req_len);
        if let Some(id) = p.head {
            // The card replays the head from its buffer when one segment carries it.
            let mut ack = base;
            if p.client_fin {
                ack.flags |= tf::FIN;
            }
            let t0 = self.profile.start(hw);
            let sent = req_len <= chunk
                && GenFrame::from_out(&ack).is_some_and(|g| hw.head_replay(id, chunk as u16, &g));
            self.profile.step_since(hw, Step::Replay, t0);
            if sent {
                self.stats.tcp.head_replays += 1;
                self.pend[i].head = None;
                return self.spliced(hw, i);
            }
        }
        let bufs = &*self.bufs;
        let mut off = 0;
        // The bare ACK completes the handshake even when there is no request (L4 service).
        loop {
            let n = (req_len - off).min(chunk);
            let mut s = base;
            s.seq = base.seq.wrapping_add(off as u32);
            s.payload = &bufs[i][off..off + n];
            if off + n == req_len {
                if n > 0 {
                    s.flags |= tf::PSH;
                }
                if p.client_fin {
                    s.flags |= tf::FIN;
                }
            }
            let t0 = self.profile.start(hw);
            let built = s.write(&mut self.out);
            let t1 = self.profile.step_since(hw, Step::FrameBuild, t0);
            if let Some((len, ofl)) = built {
                hw.inject(Port::Server, &self.out[..len], Some(ofl));
                self.profile.step_since(hw, Step::Inject, t1);
            }
            off += n;
            if off >= req_len {
                break;
            }
        }
        if req_len > 0 {
            self.stats.tcp.head_replays_fw += 1;
        }
        self.spliced(hw, i)
    }

    /// The server handshake is complete and the head replayed: the connection in setup is
    /// spliced (the card's head buffer, when the firmware replayed it, given back).
    fn spliced(&mut self, hw: &mut impl Hw, i: usize) -> Option<usize> {
        let p = self.pend[i];
        if let Some(id) = p.head {
            hw.head_free(id);
        }
        if !p.client_fin {
            let sid = usize::from(self.rs[usize::from(p.rs)].sid);
            if let Some(pl) = self.pool_any_mut(usize::from(p.pool)) {
                let _ = pl.servers.on_established(sid);
            }
        }
        self.stats.spliced += 1;
        self.stats.setup_cycles += self.pend[i].cycles;
        self.pend[i] = NO_PENDING;
        None
    }

    /// Bookkeeping of a connection whose server SYN-ACK the card absorbed: the card wrote
    /// the SPLICED entry, sent the handshake ACK and the head, and gave the head's buffer
    /// back.
    fn card_spliced(&mut self, hw: &mut impl Hw, i: usize) -> Option<usize> {
        let rs = usize::from(self.pend[i].rs);
        self.pend[i].head = None;
        self.pend[i].armed = false;
        self.stats.tcp.absorbed += 1;
        self.stats.tcp.head_replays += 1;
        let r = self.spliced(hw, i);
        // Its FIN, counted by the card before this bookkeeping, when a fold found nothing
        // to move then (the connection was not yet active on its server).
        if let Some(owed) = self.fin_owed.get_mut(rs) {
            if *owed > 0 {
                *owed -= 1;
                let _ = self.rs_move(rs, false);
            }
            if !self.armed_on(rs) {
                self.fin_owed[rs] = 0;
            }
        }
        r
    }

    /// A record of the card's absorber queue: the setup in `slot` (generation `gen`) was
    /// spliced by the card (docs/server-open.md, "The absorber in the data path"). Nothing to
    /// do when the firmware already found that (`take_back`, or the entry check of
    /// `absorbed_now`) or the record is of an earlier use of the slot.
    fn on_absorbed(&mut self, hw: &mut impl Hw, slot: Slot, gen: u8) {
        let start = hw.cycles();
        self.hit_gen = gen;
        let r = match self.hit_pending(slot) {
            Ok(Some(i)) if self.pend[i].armed => self.card_spliced(hw, i),
            _ => None,
        };
        let spent = hw.cycles().wrapping_sub(start);
        match r {
            Some(i) => self.pend[i].cycles += spent,
            None => self.stats.setup_cycles += spent,
        }
        self.profile.handler(Handler::ServerAbsorbed, spent);
    }

    /// Whether a setup of real server `rs` is armed for the card's absorber.
    pub(super) fn armed_on(&self, rs: usize) -> bool {
        self.pend
            .iter()
            .any(|p| p.used && p.armed && usize::from(p.rs) == rs)
    }

    /// Whether armed setup `i`'s entry is spliced (by the card's absorber) with the setup's
    /// generation.
    fn absorbed_now(&mut self, hw: &mut impl Hw, i: usize) -> bool {
        let p = &self.pend[i];
        let mut w = [0u32; STATIC_WORDS];
        hw.state_read(p.slot, &mut w);
        matches!(
            entry_state(w[0]),
            Some(FlowState::Spliced | FlowState::Closing)
        ) && FlowStatic::GEN.get(&w) == u64::from(p.gen)
    }

    /// For an armed setup `i`: the next look at its entry ([`ABSORB_CHECK_MS`]), at the
    /// latest the server SYN's retransmission time (`rto_at`; with `syn_sent`, the one
    /// [`Splicer::send_server_syn`] just set as the deadline).
    fn absorb_check_at(&mut self, i: usize, now: u32, syn_sent: bool) {
        let p = &mut self.pend[i];
        if !p.armed {
            return;
        }
        if syn_sent {
            p.rto_at = p.deadline;
        }
        let check = now.wrapping_add(ms_to_ticks(ABSORB_CHECK_MS, self.clk_hz));
        p.deadline = if tick_after(check, p.rto_at) {
            p.rto_at
        } else {
            check
        };
    }

    /// Whether the setup `i`, about to send its server SYN, can be left to the card's
    /// absorber: the card has one, the whole head (one run, no FIN) is in a card buffer.
    fn can_arm(&self, i: usize) -> bool {
        let p = &self.pend[i];
        self.absorb_hw
            && p.head.is_some()
            && !p.client_fin
            && u32::from(p.req_len) <= splicenic_layout::HEAD_BUFFER_BYTES
    }

    /// Writes setup `i`'s CONNECTING entry armed for the card's absorber: its setup context
    /// ([`SetupCtx`]) laid over the entry's words.
    fn arm_entry(&mut self, hw: &mut impl Hw, i: usize, now: u32) {
        type C = SetupCtx;
        let p = &self.pend[i];
        let hs = &p.hs;
        let mut w = [0u32; STATIC_WORDS];
        w[0] = C::STATE.place32(FlowState::Connecting.raw().into())
            | C::SACK.place32(hs.sack.into())
            | C::TS.place32(hs.timestamps.into())
            | C::WS.place32(hs.client_wscale.is_some().into())
            | C::ARMED.place32(1)
            | C::CLIENT_SHIFT.place32(hs.client_wscale.unwrap_or(0).into())
            | C::SERVER_SHIFT.place32(hs.server_wscale.unwrap_or(0).into())
            | C::REAL_SERVER.place32(p.rs.into());
        C::CARD_TSVAL.put(&mut w, p.card_tsval.into());
        C::CLIENT_ISN.put(&mut w, p.client_isn.into());
        C::CARD_ISN.put(&mut w, p.card_isn.into());
        encode_half(&mut w, CLIENT_HALF, &p.client);
        // The server half's peer fields (C::SERVER_MAC, SERVER_IP, SERVER_PORT lie where
        // FlowStatic has them); its local end's bits hold the rest of the context.
        encode_half(&mut w, SERVER_HALF, &p.server);
        C::CLIENT_WIN.put(&mut w, p.client_win.into());
        C::MSS.put(&mut w, hs.client_mss.min(hs.mss_to_client).into());
        C::HEAD_LEN.put(&mut w, p.req_len.into());
        C::HEAD_ID.put(&mut w, p.head.unwrap_or(0).into());
        C::CLIENT_TSVAL.put(&mut w, p.client_tsval.into());
        C::GEN.put(&mut w, p.gen.into());
        let slot = p.slot;
        self.pend[i].armed = true;
        self.entry_write(hw, slot, &w, Some(now));
    }

    /// Takes setup `i`'s armed entry back from the card's absorber before the firmware
    /// writes it or ends the setup (`Hw::absorb_disarm`). True when the card had absorbed
    /// its SYN-ACK already: the connection is spliced (bookkeeping done here) and the
    /// caller drops what it was doing.
    fn take_back(&mut self, hw: &mut impl Hw, i: usize) -> bool {
        if !self.pend[i].armed {
            return false;
        }
        self.pend[i].armed = false;
        let p = self.pend[i];
        if hw.absorb_disarm(p.slot, p.gen) == DisarmResult::Absorbed {
            self.stats.tcp.absorbed_found += 1;
            let _ = self.card_spliced(hw, i);
            return true;
        }
        self.stats.tcp.absorb_disarmed += 1;
        false
    }

    // ----- failures and timers --------------------------------------------------------

    /// Ends a connection in setup: RST to the client when `reset_client`, keys deleted,
    /// slot freed.
    fn abort(&mut self, hw: &mut impl Hw, i: usize, reset_client: bool) {
        if self.take_back(hw, i) {
            // Spliced by the card meanwhile: the peers end it as a spliced connection.
            return;
        }
        let p = self.pend[i];
        if reset_client && p.phase != Phase::Handshake {
            let mac = hw.port_mac(Port::Client);
            let out = TcpOut {
                seq: p.card_isn.wrapping_add(1),
                ack: p
                    .client_isn
                    .wrapping_add(1)
                    .wrapping_add(u32::from(p.req_len)),
                flags: tf::RST | tf::ACK,
                window: 0,
                opts: &[],
                payload: &[],
                ..p.client.segment(mac)
            };
            self.send(hw, Port::Client, &out);
            self.stats.setup_failed += 1;
        }
        if p.phase == Phase::Connecting {
            self.key_delete(hw, &p.server.key());
            self.close_on_server(p.pool, p.rs, p.client.peer_ip, false);
        }
        self.key_delete(hw, &p.client.key());
        self.entry_write(hw, p.slot, &[0; STATIC_WORDS], Some(0));
        self.free_slot(p.slot);
        if let Some(id) = p.head {
            hw.head_free(id);
        }
        fw_log!(debug, "slot {=u16}: setup ended", p.slot);
        self.pend[i] = NO_PENDING;
    }

    fn on_deadline(&mut self, hw: &mut impl Hw, i: usize, now: u32) {
        let p = self.pend[i];
        match p.phase {
            Phase::Matching => {
                // The first segment's inline result did not come (see [`INLINE_WAIT_MS`]):
                // the buffer is matched, within a new request deadline.
                self.stats.tcp.inline_timeouts += 1;
                self.pend[i].phase = Phase::Assembling;
                self.pend[i].deadline =
                    now.wrapping_add(ms_to_ticks(self.setup.request_ms, self.clk_hz));
                self.match_buffer(hw, i);
            }
            Phase::Connecting => {
                if p.armed {
                    // The card may have absorbed the SYN-ACK whose punt did not come.
                    if self.absorbed_now(hw, i) {
                        self.stats.tcp.absorbed_found += 1;
                        let _ = self.card_spliced(hw, i);
                        return;
                    }
                    if !tick_after(now, p.rto_at) {
                        self.absorb_check_at(i, now, false);
                        return;
                    }
                }
                if u32::from(p.syn_tx) < self.setup.server_syn_tries {
                    self.send_server_syn(hw, i);
                    self.absorb_check_at(i, now, true);
                } else {
                    self.server_failed(hw, i);
                }
            }
            _ => self.abort(hw, i, true),
        }
    }

    // ----- teardown -------------------------------------------------------------------

    /// The timeout class of a flow from its static word 0 and its dynamic words. Inlined:
    /// each caller then keeps only the classes it can see (smaller firmware than one shared
    /// copy). The reference of the gateware's `aging_check` (docs/aging.md), which implements
    /// the same table, first matching row wins:
    ///
    /// | entry: static `state`, `flags`; dynamic `teardown`     | class       |
    /// |--------------------------------------------------------|-------------|
    /// | state neither SPLICED nor CLOSING                      | none        |
    /// | no `RST` flag; `ACKED_CS` and `ACKED_SC`               | LINGER      |
    /// | state CLOSING with the `RST` flag                      | CLOSE       |
    /// | `FIN_CLIENT` or `FIN_CS`, and `FIN_SERVER` or `FIN_SC` | TIME_WAIT   |
    /// | any of `FIN_CLIENT`, `FIN_SERVER`, `FIN_CS`, `FIN_SC`  | FIN_WAIT    |
    /// | state SPLICED                                          | ESTABLISHED |
    /// | state CLOSING                                          | FIN_WAIT    |
    ///
    /// The card's FIN flags (`FlowDyn.teardown`) count as the entry's own: with the card's
    /// FIN counts (`DP.FIN_CTRL.PRESENT`) no FIN event writes the entry's.
    #[inline(always)]
    pub fn timeout_class(w0: u32, d: &[u32; DYN_WORDS]) -> Option<TcpState> {
        const ACKED: u32 = (teardown::ACKED_CS | teardown::ACKED_SC) as u32;
        const FINS: u8 = entry_flags::FIN_CLIENT | entry_flags::FIN_SERVER;
        let flags = entry_flag_bits(w0);
        let state = entry_state(w0)?;
        let closing = state == FlowState::Closing;
        if !closing && state != FlowState::Spliced {
            return None;
        }
        let fins = (flags | dyn_fins(d)) & FINS;
        Some(
            if flags & entry_flags::RST == 0 && field(d, FlowDyn::TEARDOWN) & ACKED == ACKED {
                TcpState::Linger
            } else if closing && flags & entry_flags::RST != 0 {
                TcpState::Close
            } else if fins == FINS {
                TcpState::TimeWait
            } else if fins != 0 || closing {
                TcpState::FinWait
            } else {
                TcpState::Established
            },
        )
    }

    /// Brings up the card's aging scanner when it has one (`DP.AGE_STATUS.DEPTH` > 0): the
    /// timeout table first (the scanner's reset table of zeros would report every flow),
    /// then the slots to walk (the firmware's) and enable. The expired flows then come from
    /// its queue instead of the firmware's own scan ([`Splicer::aging_step`]). Called at
    /// bring-up ([`Splicer::syn_start`]) and by [`Splicer::rebuild`].
    /// The slots the scanner freed meanwhile are taken back here, before any slot is handed
    /// out (a free the rebuild's scan came after finds its slot free: nothing to do).
    /// The card's FIN counting is brought up here too, before the first pop can free a flow
    /// ([`Splicer::fin_start`]).
    pub(super) fn age_start(&mut self, hw: &mut impl Hw) {
        self.fin_start(hw);
        self.age_hw = hw.age_depth() > 0;
        if self.age_hw {
            self.age_timeouts_write(hw);
            hw.age_config(true, self.slots as u32);
            while let Some(a) = hw.age_pop() {
                let _ = self.aged_pop(hw, a);
            }
        }
    }

    /// A slot the card's scanner queued: `Some(slot)` for the firmware to re-check and free;
    /// `None` when there is nothing (more) to do: stale (free, or in setup; counted in
    /// [`Stats::aging_stale`]), or freed by the card, whose bookkeeping (the slot back on
    /// the free list, the server's count) is done here. The card reports the flow active
    /// when its entry had `ACTIVE` and the card saw no FIN of it (a FIN it counted, which
    /// [`Splicer::release_count`] folds first).
    #[inline(never)]
    fn aged_pop(&mut self, hw: &mut impl Hw, a: Aged) -> Option<Slot> {
        if let Some(i) = self.find_pending(a.slot).filter(|&i| self.pend[i].armed) {
            // The card absorbed this setup's SYN-ACK and the flow ended before the firmware
            // read the punt (or the punt was lost): the setup's bookkeeping first. (The card
            // frees only spliced flows; a record of another class is checked on the entry.)
            if a.freed.is_some() || self.absorbed_now(hw, i) {
                self.stats.tcp.absorbed_found += 1;
                let _ = self.card_spliced(hw, i);
            }
        }
        if self.slot_is_free(a.slot) || self.find_pending(a.slot).is_some() {
            self.stats.aging_stale += 1;
            return None;
        }
        let Some(f) = a.freed else {
            return Some(a.slot);
        };
        self.free_slot(a.slot);
        self.release_count(hw, usize::from(f.rs), f.client, f.active);
        self.stats.aged_out += 1;
        None
    }

    /// Writes the timeout table (`DP.AGE_TIMEOUT`, every class in ticks) to the card's aging
    /// scanner, when it has one: at bring-up and whenever a timeout changes.
    fn age_timeouts_write(&mut self, hw: &mut impl Hw) {
        if self.age_hw {
            for st in TcpState::ALL {
                hw.age_timeout_write(st.index(), self.timeouts.ticks(st));
            }
        }
    }

    /// The aging step of a main-loop pass: up to [`AGED_PER_PASS`] expired slots, popped
    /// from the card's aging scanner queue when it has one, else found by the firmware's own
    /// scan of [`AGING_BUDGET`] slots (over the CSR bus, an entry read per slot in use). Each
    /// is re-checked and freed ([`Splicer::free_flow`]), but for a LINGER flow the card
    /// freed itself (`DP.AGE_CTRL.FREE`): its slot and server count are taken back
    /// ([`Splicer::aged_pop`]), no entry read. The scanner knows neither the free
    /// list nor the setups, and its queue may be older than the flow's last segment: a
    /// popped slot that is free (never handed out, past `self.slots`, or freed since) or a
    /// connection in setup is skipped unread. Popped slots not freed count in
    /// [`Stats::aging_stale`]; the cycles of a step that popped or found any count as
    /// teardown (`Handler::AgingFree`, once per flow freed).
    fn aging_step(&mut self, hw: &mut impl Hw, now: u32) -> bool {
        let mut expired = [0 as Slot; AGED_PER_PASS];
        let start = hw.cycles();
        let aged0 = self.stats.aged_out;
        let mut popped = 0;
        let n = if self.age_hw {
            let mut n = 0;
            for _ in 0..AGED_PER_PASS {
                let Some(a) = hw.age_pop() else { break };
                popped += 1;
                if let Some(slot) = self.aged_pop(hw, a) {
                    expired[n] = slot;
                    n += 1;
                }
            }
            n
        } else {
            let pend = &self.pend;
            let free = &*self.free;
            let fresh = self.fresh;
            self.aging
                .step(
                    now,
                    AGING_BUDGET,
                    &self.timeouts,
                    |slot| {
                        if usize::from(slot) >= fresh
                            || free.is_free(slot)
                            || pend.iter().any(|p| p.used && p.slot == slot)
                        {
                            return None;
                        }
                        // The dynamic words too: the teardown flags pick the LINGER class.
                        let (mut w, mut d) = ([0u32; STATIC_WORDS], [0u32; DYN_WORDS]);
                        hw.state_read_dyn(slot, &mut w, &mut d);
                        Some(SlotAge {
                            state: Self::timeout_class(w[0], &d)?,
                            last_seen: field(&d, FlowDyn::LAST_SEEN),
                        })
                    },
                    &mut expired,
                )
                .expired
        };
        let aged = self.stats.aged_out;
        for &slot in &expired[..n] {
            self.free_flow(hw, slot, now);
        }
        if n + popped > 0 {
            let spent = hw.cycles().wrapping_sub(start);
            self.stats.teardown_cycles += spent;
            self.stats.aging_stale += n as u32 - self.stats.aged_out.wrapping_sub(aged);
            let freed = self.stats.aged_out.wrapping_sub(aged0);
            self.profile.handler_n(Handler::AgingFree, spent, freed);
        }
        n + popped > 0
    }

    /// Frees an expired flow: re-checks it (static and dynamic words, so a segment since the
    /// scan, or a FIN acknowledged since, counts), deletes both keys, marks it FREE and
    /// appends the slot to the free list.
    fn free_flow(&mut self, hw: &mut impl Hw, slot: Slot, now: u32) {
        let (mut w, mut d) = ([0u32; STATIC_WORDS], [0u32; DYN_WORDS]);
        self.profile.time(hw, Step::EntryRead, |hw| {
            hw.state_read_dyn(slot, &mut w, &mut d)
        });
        self.merge_teardown(&mut w, &d);
        let Some(class) = Self::timeout_class(w[0], &d) else {
            return;
        };
        let last_seen = field(&d, FlowDyn::LAST_SEEN);
        if !crate::flowmgr::aging::is_expired(now, last_seen, self.timeouts.ticks(class)) {
            return;
        }
        self.release_flow(hw, slot, &w);
        self.stats.aged_out += 1;
    }

    // ----- configuration ----------------------------------------------------------------

    /// Serves a flow-manager mailbox command; `None` when `cmd` is not one.
    pub fn command(
        &mut self,
        hw: &mut impl Hw,
        code: u32,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Option<Response> {
        if matches!(
            code,
            cmd::FLOW_STATS
                | cmd::SERVER_STATS
                | cmd::SERVER_GET
                | cmd::SERVER_SET
                | cmd::SERVER_DEL
                | cmd::POOL_SET
                | cmd::POOL_DEL
                | cmd::ZERO
        ) {
            // The counts these report or change include the FINs the card counted.
            self.fold_pool(hw, MAX_POOLS);
        }
        let r = match code {
            cmd::SVC_SET => self.cmd_svc(hw, req),
            cmd::POOL_SET => self.cmd_pool(req),
            cmd::POOL_DEL => self.cmd_pool_del(req),
            cmd::SERVER_SET => self.cmd_server(req),
            cmd::SERVER_DEL => self.cmd_server_del(req),
            cmd::TIMEOUT_SET => self.cmd_timeout(hw, req),
            cmd::SETUP_SET => self.cmd_setup(req),
            cmd::FLOW_STATS => len(req, 0).map(|()| self.flow_stats(rsp)),
            cmd::SERVER_STATS => self.cmd_server_stats(req, rsp),
            cmd::SVC_GET => self.cmd_svc_get(req, rsp),
            cmd::POOL_GET => self.cmd_pool_get(req, rsp),
            cmd::SERVER_GET => self.cmd_server_get(req, rsp),
            cmd::CONFIG_MAP => len(req, 0).map(|()| self.config_map(rsp)),
            cmd::TIMEOUT_GET => len(req, 0).map(|()| self.timeout_get(rsp)),
            cmd::ZERO => len(req, 0).map(|()| self.zero()),
            cmd::FLOW_LIST => self.cmd_flow_list(req, rsp),
            cmd::FLOW_GET => self.cmd_flow_get(hw, req, rsp),
            cmd::RULESET_PUT => self.cmd_ruleset_put(req),
            cmd::RULESET_COMMIT => self.cmd_ruleset_commit(req),
            cmd::RULESET_GET => self.cmd_ruleset_get(req, rsp),
            cmd::RULESET_INFO => self.cmd_ruleset_info(req, rsp),
            cmd::CAPTURE_SET => self.cmd_capture_set(req),
            cmd::CAPTURE_INFO => self.cmd_capture_info(req, rsp),
            cmd::FLOW_PROFILE => self.profile.command(hw, req, rsp),
            cmd::HEAD_STATS => self.cmd_head_stats(req, rsp),
            cmd::TCP_STATS => self.tcp_stats(req, rsp),
            _ => return None,
        };
        Some(r.unwrap_or_else(Response::error))
    }

    fn cmd_svc(&mut self, hw: &mut impl Hw, req: &[u32]) -> Result<Response, u32> {
        len(req, 5)?;
        let idx = arg(req[0] as usize, MAX_SERVICES)?;
        let (vip, port, mode, pool) = (req[1], req[2], req[3], req[4]);
        if mode == service_mode::DELETE {
            if !self.services[idx].present {
                return Err(status::NOT_FOUND);
            }
            self.services[idx] = NO_SERVICE;
            // The card stops answering the service's SYNs before its entry goes.
            self.syn_mask_update(hw);
            hw.set_vip(idx, 0, 0, false);
            return Ok(Response::ok(0));
        }
        let mode = match mode {
            service_mode::L4 => Mode::L4,
            service_mode::L7 => Mode::L7,
            _ => return Err(status::BAD_ARGUMENT),
        };
        if port == 0 || port > 0xffff || pool as usize >= MAX_POOLS || vip == 0 {
            return Err(status::BAD_ARGUMENT);
        }
        if self
            .services
            .iter()
            .enumerate()
            .any(|(j, s)| j != idx && s.present && s.vip == vip && u32::from(s.port) == port)
        {
            return Err(status::BAD_ARGUMENT);
        }
        self.services[idx] = Service {
            present: true,
            vip,
            port: port as u16,
            mode,
            pool: pool as u8,
        };
        hw.set_vip(idx, vip, port as u16, true);
        self.syn_mask_update(hw);
        fw_log!(
            info,
            "service {=usize}: {=u32:#x}:{=u32} configured",
            idx,
            vip,
            port
        );
        Ok(Response::ok(0))
    }

    fn cmd_pool(&mut self, req: &[u32]) -> Result<Response, u32> {
        len(req, 5)?;
        let pl = arg(req[0] as usize, MAX_POOLS)?;
        let kind = *Kind::ALL.get(req[1] as usize).ok_or(status::BAD_ARGUMENT)?;
        let flags = req[2];
        if flags & !pool_flags::ALL != 0 {
            return Err(status::BAD_ARGUMENT);
        }
        let mut cfg = SchedConfig::new(kind);
        cfg.fallback = flags & pool_flags::FALLBACK != 0;
        cfg.hash_port = flags & pool_flags::HASH_PORT != 0;
        cfg.expire_quiescent = flags & pool_flags::EXPIRE_QUIESCENT != 0;
        let secs = req[3];
        if secs != 0 {
            let ticks = crate::flowmgr::timeouts::secs_to_ticks(secs, self.clk_hz)
                .map_err(|_| status::BAD_ARGUMENT)?;
            cfg = cfg.with_persistence(ticks, req[4]);
        }
        match &mut self.pools[pl] {
            Some(pool) => {
                if !pool.present || *pool.sched.config() != cfg {
                    pool.sched = Scheduler::new(cfg);
                }
                pool.present = true;
                pool.persist_secs = secs;
            }
            slot @ None => {
                *slot = Some(Pool {
                    present: true,
                    servers: ServerSet::new(),
                    sched: Scheduler::new(cfg),
                    persist_secs: secs,
                })
            }
        }
        Ok(Response::ok(0))
    }

    fn cmd_pool_del(&mut self, req: &[u32]) -> Result<Response, u32> {
        len(req, 1)?;
        let pl = arg(req[0] as usize, MAX_POOLS)?;
        if self.pool_mut(pl).is_none() {
            return Err(status::NOT_FOUND);
        }
        if self
            .rs
            .iter()
            .any(|r| r.present && usize::from(r.pool) == pl)
        {
            return Err(status::BUSY);
        }
        if let Some(pool) = self.pool_mut(pl) {
            pool.present = false;
        }
        Ok(Response::ok(0))
    }

    fn cmd_server(&mut self, req: &[u32]) -> Result<Response, u32> {
        len(req, 8)?;
        let pl = arg((req[0] & 0xff) as usize, MAX_POOLS)?;
        let rs = arg((req[0] >> 8 & 0xff) as usize, MAX_RS)?;
        if req[0] >> 16 != 0 {
            return Err(status::BAD_ARGUMENT);
        }
        if self.pool_mut(pl).is_none() {
            return Err(status::NOT_FOUND);
        }
        let (addr, port, weight) = (req[1], req[2], req[5]);
        if addr == 0 || port == 0 || port > 0xffff || weight > MAX_WEIGHT {
            return Err(status::BAD_ARGUMENT);
        }
        let mac = mac_from_u64(u64::from(req[3]) << 16 | u64::from(req[4] >> 16));
        let (upper, lower) = (req[6], req[7]);
        let r = self.rs[rs];
        // The field itself (not `pool_mut`), so `self.restored` stays borrowable.
        let pool = self.pools[pl].as_mut().expect("checked above");
        if r.present {
            if usize::from(r.pool) != pl {
                return Err(status::BAD_ARGUMENT);
            }
            let sid = usize::from(r.sid);
            let s = pool.servers.get(sid).ok_or(status::NOT_FOUND)?;
            if s.addr() != addr || u32::from(s.port()) != port {
                return Err(status::BAD_ARGUMENT);
            }
            pool.servers
                .set_weight(sid, weight)
                .map_err(|_| status::BAD_ARGUMENT)?;
            pool.servers
                .set_thresholds(sid, upper, lower)
                .map_err(|_| status::BAD_ARGUMENT)?;
            self.rs[rs].mac = mac;
            return Ok(Response::ok(0));
        }
        let mut cfg = ServerConfig::new(addr, port as u16, weight);
        cfg.u_threshold = upper;
        cfg.l_threshold = lower;
        let sid = pool.servers.add(cfg).map_err(|e| match e {
            crate::sched::SchedError::Full => status::NO_SPACE,
            _ => status::BAD_ARGUMENT,
        })?;
        // Flows of this server that survived a firmware restart (`rebuild`).
        let (active, inactive) = core::mem::take(&mut self.restored[rs]);
        for n in 0..active + inactive {
            let _ = pool.servers.on_connect(sid);
            if n < active {
                let _ = pool.servers.on_established(sid);
            }
        }
        self.rs[rs] = RealServer {
            present: true,
            pool: pl as u8,
            sid: sid as u8,
            mac,
            connections: 0,
        };
        fw_log!(
            info,
            "real server {=usize}: {=u32:#x}:{=u32} weight {=u32} in pool {=usize}",
            rs,
            addr,
            port,
            weight,
            pl
        );
        Ok(Response::ok(0))
    }

    fn cmd_server_del(&mut self, req: &[u32]) -> Result<Response, u32> {
        len(req, 1)?;
        let rs = arg(req[0] as usize, MAX_RS)?;
        let r = self.rs[rs];
        if !r.present {
            return Err(status::NOT_FOUND);
        }
        // Established flows keep flowing; their closes are still counted on the server's
        // draining entry.
        if let Some(pool) = self.pool_any_mut(usize::from(r.pool)) {
            let _ = pool.servers.remove(usize::from(r.sid));
        }
        self.rs[rs].present = false;
        Ok(Response::ok(0))
    }

    fn cmd_timeout(&mut self, hw: &mut impl Hw, req: &[u32]) -> Result<Response, u32> {
        if req.len() != 2 && req.len() != 3 {
            return Err(status::BAD_LENGTH);
        }
        let st = TcpState::from_index(req[0] as usize).ok_or(status::BAD_ARGUMENT)?;
        let ms = req.get(2).copied().unwrap_or(0) == 1;
        if ms {
            self.timeouts
                .set_ms(st, req[1])
                .map_err(|_| status::BAD_ARGUMENT)?;
            self.timeout_ms[st.index()] = req[1];
        } else {
            self.timeouts
                .set(st, req[1])
                .map_err(|_| status::BAD_ARGUMENT)?;
            self.timeout_ms[st.index()] = req[1].saturating_mul(1000);
        }
        self.age_timeouts_write(hw);
        Ok(Response::ok(0))
    }

    fn cmd_setup(&mut self, req: &[u32]) -> Result<Response, u32> {
        if req.len() != 3 && req.len() != 4 {
            return Err(status::BAD_LENGTH);
        }
        let limit = req.get(3).copied().unwrap_or(0) as usize;
        if req[2] > 16 || req[0] > 3_600_000 || req[1] > 60_000 || limit > self.slots {
            return Err(status::BAD_ARGUMENT);
        }
        if limit != 0 {
            self.limit = limit;
        }
        if req[0] != 0 {
            self.setup.request_ms = req[0];
        }
        if req[1] != 0 {
            self.setup.server_rto_ms = req[1];
        }
        if req[2] != 0 {
            self.setup.server_syn_tries = req[2];
        }
        Ok(Response::ok(0))
    }

    /// HEAD_STATS: [first reason code] -> [flagged, canonical, not HTTP, cycles lo, hi,
    /// refusals from that reason on (up to 11)].
    fn cmd_head_stats(&self, req: &[u32], rsp: &mut [u32; MAX_WORDS]) -> Result<Response, u32> {
        len(req, 1)?;
        let first = req[0] as usize;
        if first == 0 || first > canon::REASONS {
            return Err(status::BAD_ARGUMENT);
        }
        let s = &self.stats;
        rsp[..5].copy_from_slice(&[
            s.heads_flagged,
            s.heads_canonical,
            s.heads_not_http,
            s.head_cycles as u32,
            (s.head_cycles >> 32) as u32,
        ]);
        let counts = &s.heads_refused[first - 1..];
        let n = counts.len().min(MAX_WORDS - 5);
        rsp[5..5 + n].copy_from_slice(&counts[..n]);
        Ok(Response::ok(5 + n))
    }

    fn flow_stats(&self, rsp: &mut [u32; MAX_WORDS]) -> Response {
        let s = &self.stats;
        *rsp = [
            self.slots_in_use() as u32,
            self.limit as u32,
            s.syn_acks,
            s.spliced,
            s.refused_full,
            s.setup_failed,
            s.server_retries,
            s.aged_out,
            s.closed,
            s.cookie_syn_acks,
            s.setup_cycles as u32,
            (s.setup_cycles >> 32) as u32,
            s.teardown_cycles as u32,
            (s.teardown_cycles >> 32) as u32,
            self.pending() as u32,
            s.ignored,
        ];
        Response::ok(16)
    }

    fn cmd_server_stats(
        &mut self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 1)?;
        let rs = arg(req[0] as usize, MAX_RS)?;
        let r = self.rs[rs];
        if !r.present {
            // An unused index: all zero, "present" clear (lets the host list every index).
            rsp[..6].fill(0);
            return Ok(Response::ok(6));
        }
        let s = self
            .pool_any_mut(usize::from(r.pool))
            .and_then(|p| p.servers.get(usize::from(r.sid)))
            .ok_or(status::NOT_FOUND)?;
        rsp[0] = s.activeconns();
        rsp[1] = s.inactconns();
        rsp[2] = s.weight();
        rsp[3] = 1 | u32::from(s.is_overloaded()) << 1;
        rsp[4] = u32::from(r.pool);
        rsp[5] = r.connections;
        Ok(Response::ok(6))
    }
}

/// An inline L7 result for a slot of no connection in setup (yet): the ACK validator's
/// slot whose NEW punt is still in the punt ring behind the events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct EarlyVerdict {
    slot: Slot,
    gen: u8,
    flags: u8,
    pool: u16,
}

/// A punt or event made for an earlier use of its slot (counted in `TcpStats::gen_stale`;
/// the caller drops it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct StaleGen;

fn len(req: &[u32], n: usize) -> Result<(), u32> {
    if req.len() == n {
        Ok(())
    } else {
        Err(status::BAD_LENGTH)
    }
}

fn arg(v: usize, limit: usize) -> Result<usize, u32> {
    if v < limit {
        Ok(v)
    } else {
        Err(status::BAD_ARGUMENT)
    }
}

/// A segment answering `seg` (addresses and ports swapped, everything else zero or empty).
fn reply_to(seg: &TcpSeg, card_mac: [u8; 6]) -> TcpOut<'static> {
    Half {
        peer_mac: seg.src_mac,
        peer_ip: seg.src_ip,
        peer_port: seg.src_port,
        local_ip: seg.dst_ip,
        local_port: seg.dst_port,
    }
    .segment(card_mac)
}

/// The ACK validator's verdict on a client segment (`PuntMeta` word 5).
#[derive(Clone, Copy, Debug)]
struct Verdict {
    /// `EngineVerdict` code.
    kind: u8,
    /// Slot generation (NEW).
    gen: u8,
    /// MSS class of the cookie.
    class: u8,
}

/// What [`Splicer::cookie_accept`] is told about a flowless ACK.
#[derive(Clone, Copy, Debug)]
enum Given {
    /// Nothing: check the card's cookie, then the firmware's.
    Nothing,
    /// The ACK validator refused the card's cookie: check the firmware's only.
    NotCard,
    /// The ACK validator checked the cookie (MSS class) and set up the slot (generation).
    Slot(Slot, u8, u8),
}

fn client_tuple(seg: &TcpSeg) -> FourTuple {
    FourTuple {
        src_ip: seg.src_ip,
        dst_ip: seg.dst_ip,
        src_port: seg.src_port,
        dst_port: seg.dst_port,
    }
}

/// `NOP NOP TS(tsval, tsecr)`.
fn ts_option(out: &mut [u8; TS_OPTION_LEN as usize], tsval: u32, tsecr: u32) {
    out[0] = 1;
    out[1] = 1;
    out[2] = 8;
    out[3] = 10;
    out[4..8].copy_from_slice(&tsval.to_be_bytes());
    out[8..12].copy_from_slice(&tsecr.to_be_bytes());
}

/// The timestamps option of any segment's options, if present and well formed.
pub fn find_timestamps(opts: &[u8]) -> Option<Timestamps> {
    let mut i = 0;
    while i < opts.len() {
        match opts[i] {
            0 => return None,
            1 => i += 1,
            kind => {
                let l = usize::from(*opts.get(i + 1)?);
                if l < 2 || i + l > opts.len() {
                    return None;
                }
                if kind == 8 && l == 10 {
                    let v = &opts[i + 2..i + 10];
                    return Some(Timestamps {
                        tsval: u32::from_be_bytes([v[0], v[1], v[2], v[3]]),
                        tsecr: u32::from_be_bytes([v[4], v[5], v[6], v[7]]),
                    });
                }
                i += l;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod wirecheck;
