//! Loss counters outside the STATS block: the punt ring, the event queue, the length
//! guard, the flow-update path and the inject rings.

use super::*;

/// One loss counter of a CSR block outside STATS, by its register name.
///
/// Every such register is a 32-bit count that starts at 0 when the card is reset, wraps
/// modulo 2^32 and cannot be cleared by the host (STATS.CTRL, `ipvsadm -Z`, does not touch
/// it): compare two reads with [`u32::wrapping_sub`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DropRegister {
    /// `BLOCK.REGISTER`, as in registers/splicenic.svd (with the port for the two
    /// per-port inject rings: `INJECT.BAD_COMMIT[C]`, `INJECT.BAD_COMMIT[S]`).
    pub name: &'static str,
    /// What the register counts.
    pub meaning: &'static str,
    /// Offset of the register in BAR0 (`regs`).
    pub offset: u64,
    /// The count; `None` when it could not be read without disturbing the firmware (the
    /// inject ring [`DropCounters::inject_bad_commit`] does not name).
    pub count: Option<u32>,
}

/// Width of every register in [`DropCounters`], in bits: they wrap at 2^32.
pub const DROP_REGISTER_BITS: u32 = 32;

/// The loss counters outside the STATS block, read with [`Datapath::drop_counters`].
/// Each is a 32-bit register that wraps (see [`DropRegister`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DropCounters {
    /// `PUNT.DROP_FULL`: frames to be punted that found no room in the punt ring, the
    /// ring really full (any frame) or only its reserved slots free (a new connection
    /// attempt, SYN without ACK); the two `pkt_punt_buf` counts summed. What a SYN flood
    /// loses.
    pub punt_drop_full: u32,
    /// `PUNT.DROP_LONG`: frames to be punted that were longer than a punt slot.
    pub punt_drop_long: u32,
    /// `EVQ.OVERFLOW`: event records lost because the event queue was full (those the
    /// queue refused and those lost on the way to it, summed).
    pub evq_overflow: u32,
    /// `DP.OVERSIZE_C`: frames on the client port longer than `DP.MAX_FRAME`, cut by the
    /// length guard (then dropped or punted as malformed, so also counted under the
    /// STATS parser reason `MAC_ERR`).
    pub oversize_c: u32,
    /// `DP.OVERSIZE_S`: the same on the server port.
    pub oversize_s: u32,
    /// `DP.UPD_DROPS`: flow counter and last-seen updates of forwarded frames lost (the
    /// frames themselves were forwarded).
    pub upd_drops: u32,
    /// `INJECT.BAD_COMMIT` of the inject ring `INJECT.SEL` selected when it was read:
    /// frames the firmware committed that the ring refused (bad length or checksum
    /// offsets). `None` if the firmware switched rings during the read. The other ring's
    /// count is not read: that would mean writing `INJECT.SEL`, which the firmware uses
    /// between its writes of a frame.
    pub inject_bad_commit: Option<(Port, u32)>,
}

impl DropCounters {
    /// Register names in [`DropCounters::registers`] order.
    pub const NAMES: [&'static str; 8] = [
        "PUNT.DROP_FULL",
        "PUNT.DROP_LONG",
        "EVQ.OVERFLOW",
        "DP.OVERSIZE_C",
        "DP.OVERSIZE_S",
        "DP.UPD_DROPS",
        "INJECT.BAD_COMMIT[C]",
        "INJECT.BAD_COMMIT[S]",
    ];

    /// `INJECT.BAD_COMMIT` of port `p`'s ring, if that was the ring read.
    pub fn inject_bad_commit(&self, p: Port) -> Option<u32> {
        match self.inject_bad_commit {
            Some((q, n)) if q == p => Some(n),
            _ => None,
        }
    }

    /// Every counter with its register name and meaning, in [`DropCounters::NAMES`] order.
    pub fn registers(&self) -> [DropRegister; 8] {
        use regs::{dp, evq, inject, punt};
        const OFFSETS: [u64; 8] = [
            punt::DROP_FULL,
            punt::DROP_LONG,
            evq::OVERFLOW,
            dp::OVERSIZE_C,
            dp::OVERSIZE_S,
            dp::UPD_DROPS,
            inject::BAD_COMMIT,
            inject::BAD_COMMIT,
        ];
        let r = |i: usize, meaning, count| DropRegister {
            name: Self::NAMES[i],
            meaning,
            offset: OFFSETS[i],
            count,
        };
        [
            r(
                0,
                "frames to punt dropped: punt ring full (or only reserved slots free, for a SYN)",
                Some(self.punt_drop_full),
            ),
            r(
                1,
                "frames to punt dropped: longer than a punt slot",
                Some(self.punt_drop_long),
            ),
            r(
                2,
                "event records lost: event queue full",
                Some(self.evq_overflow),
            ),
            r(
                3,
                "client-port frames cut by the length guard (counted as MAC_ERR too)",
                Some(self.oversize_c),
            ),
            r(
                4,
                "server-port frames cut by the length guard (counted as MAC_ERR too)",
                Some(self.oversize_s),
            ),
            r(
                5,
                "flow counter and last-seen updates lost",
                Some(self.upd_drops),
            ),
            r(
                6,
                "inject commits refused on the client-port ring (bad length or offsets)",
                self.inject_bad_commit(Port::Client),
            ),
            r(
                7,
                "inject commits refused on the server-port ring (bad length or offsets)",
                self.inject_bad_commit(Port::Server),
            ),
        ]
    }
}

/// The aging scanner's state (docs/aging.md, "The scanner"), read with
/// [`Datapath::aging`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Aging {
    /// `DP.AGE_CTRL.ENABLE`: the scanner walks the slots.
    pub enabled: bool,
    /// `DP.AGE_CTRL.INTERVAL`: cycles from one slot's read to the next.
    pub interval: u16,
    /// `DP.AGE_LIMIT`: slots walked.
    pub limit: u32,
    /// `DP.AGE_POS`: the slot read next.
    pub pos: u32,
    /// `DP.AGE_STATUS.LEVEL` / `DEPTH`: expired slots waiting for the firmware, and the most
    /// the queue holds (0: the card has no scanner).
    pub level: u8,
    pub depth: u8,
    /// `DP.AGE_SWEEPS`: walks of all slots completed since reset.
    pub sweeps: u32,
    /// `DP.AGE_EXPIRED`: expired slots queued since reset.
    pub expired: u32,
    /// `DP.AGE_CTRL.FREE`: the scanner frees LINGER flows itself (docs/aging.md, "The free
    /// in hardware").
    pub free: bool,
    /// `DP.AGE_FREED`: flows the scanner freed itself since reset.
    pub freed: u32,
}

/// The frame generator's counters (`DP.TXGEN_*`; docs/server-open.md, "In the data path"),
/// read with [`Datapath::tx_gen`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TxGen {
    /// `TXGEN_STATUS.PRESENT`: the card has the generator.
    pub present: bool,
    /// `TXGEN_STATUS.BUSY`: a staged frame waits for the generator.
    pub busy: bool,
    /// `TXGEN_SENT_C` / `TXGEN_SENT_S`: frames sent out of each port since reset.
    pub sent_client: u32,
    pub sent_server: u32,
    /// `TXGEN_REFUSED`: GO writes refused while busy since reset.
    pub refused: u32,
}

/// The request-head buffers' state and counters (`DP.HEAD_*`; docs/head-buf.md, "In the
/// data path"), read with [`Datapath::head_bufs`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeadBufs {
    /// `HEAD_STATUS.PRESENT`: the card has the request-head buffers.
    pub present: bool,
    /// `HEAD_STATUS.IN_USE`: buffers taken (the one held ready for the next request
    /// included).
    pub in_use: u8,
    /// `HEAD_STATUS.IN_USE_MAX`: the most taken at once since reset or the last restart.
    pub in_use_max: u8,
    /// `HEAD_SENT`: heads the card replayed to servers since reset.
    pub sent: u32,
    /// `HEAD_LONG`: replays refused as longer than their segment since reset.
    pub long: u32,
    /// `HEAD_BAD`: refused buffer operations since reset.
    pub bad: u32,
}

/// The SYN-ACK absorber's state and counters (`DP.ABSORB_*`; docs/server-open.md, "The
/// absorber in the data path"), read with [`Datapath::absorber`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Absorber {
    /// `ABSORB_CTRL.PRESENT`: the card has the absorber.
    pub present: bool,
    /// `ABSORB_CTRL.ENABLE`: the firmware turned it on.
    pub enabled: bool,
    /// `ABSORB_DONE`: SYN-ACKs absorbed since reset.
    pub done: u32,
    /// `ABSORB_PUNTED`: SYN-ACKs of armed setups left to the firmware since reset.
    pub punted: u32,
    /// `ABSORB_HEAD.LEVEL`: absorbed setups waiting in the done queue for the firmware's
    /// bookkeeping.
    pub queued: u8,
    /// `ABSORB_SPILLED`: absorbed SYN-ACKs punted (verdict ABSORBED) since reset because
    /// the done queue was full.
    pub spilled: u32,
}

/// Who follows the spliced flows' FINs (`DP.FIN_CTRL`; docs/engine.md, "Teardown"), read
/// with [`Datapath::fin_ctrl`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FinCtrl {
    /// `FIN_CTRL.PRESENT`: the card counts first FINs per real server (`DP.FIN_COUNT`).
    pub present: bool,
    /// `FIN_CTRL.EVENTS`: every forwarded FIN raises a FIN_RST event for the firmware (the
    /// firmware turns them off when the card counts).
    pub events: bool,
}

/// The engine's high-water marks (docs/engine.md, "High-water marks"), read with
/// [`Datapath::marks`] and restarted with [`Datapath::restart_marks`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    /// `DP.FREE_LOW`: the lowest level of the ACK validator's free list since the marks were
    /// restarted (`None` before the first restart since reset: the list starts empty).
    pub free_low: Option<u16>,
    /// `DP.FREE_STATUS.DEPTH`: slots the list holds at most.
    pub free_depth: u16,
    /// `DP.PUNT_HIGH`: the most frames waiting for the firmware in the punt ring (the
    /// exception queue) at once since reset or the last restart.
    pub punt_high: u16,
    /// `PUNT.PARAMS.SLOTS`: frames the ring holds.
    pub punt_slots: u32,
}

/// The hardware ACK validator's state and counters (docs/engine.md), read with
/// [`Datapath::ack_validator`]: plain register reads, one after the other. The counters are
/// 32-bit, start at 0 when the card is reset and wrap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AckValidator {
    /// `DP.ACK_CTRL.ENABLE`.
    pub enabled: bool,
    /// `DP.FREE_STATUS`: slots in the free list, and its size (0: no validator).
    pub free_level: u16,
    pub free_depth: u16,
    /// `DP.ACK_NEW`: connections set up (slot taken, key inserted).
    pub new: u32,
    /// `DP.ACK_FOUND`: candidates whose key was already inserted.
    pub found: u32,
    /// `DP.ACK_BAD_COOKIE`: ACKs of no cookie of the card's.
    pub bad_cookie: u32,
    /// `DP.ACK_STALE`: cookies of an expired key slot.
    pub stale: u32,
    /// `DP.ACK_NO_SLOT`: good cookies with the free list empty.
    pub no_slot: u32,
    /// `DP.ACK_TABLE_FULL`: good cookies whose flow-table bucket was full.
    pub table_full: u32,
    /// `DP.FREE_REFUSED`: pushes to a full list.
    pub push_refused: u32,
    /// `DP.ACK_LOST`: candidates the validator could not take (0 by construction).
    pub lost: u32,
}
