//! Flow table keys and results, flow-state entries and counters.

use super::*;

/// Flow table key: the 4-tuple of a frame as it arrives (its own source and destination).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FlowKey {
    pub src: Ipv4Addr,
    pub dst: Ipv4Addr,
    pub sport: u16,
    pub dport: u16,
}

/// Result code of a flow table command (`FLOW.STATUS.RESULT`): the firmware's own type.
/// The driver never returns `Failed` (a command that does not finish is
/// [`DatapathError::Timeout`]).
pub use splicenic_fw_logic::splicer::FlowStatus;

/// The status of a `FLOW.STATUS.RESULT` code.
pub(super) fn flow_status(v: u32) -> FlowStatus {
    use regs::flow::status as s;
    match v {
        s::RESULT_OK => FlowStatus::Ok,
        s::RESULT_EXISTS => FlowStatus::Exists,
        s::RESULT_BUCKET_FULL => FlowStatus::BucketFull,
        _ => FlowStatus::NotFound,
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

/// Static part of a flow state slot (record `FlowStatic`: 15 words, bit layout of
/// `flow_state_mem`).
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
    /// Generation of this use of the slot (`FlowStatic.gen`; 0: none, an entry that any
    /// punt or event of the slot matches), carried in the flow's punts and events.
    pub generation: u8,
}

impl Default for FlowEntry {
    fn default() -> Self {
        FlowEntry {
            generation: 0,
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
    /// The `FLOW.STATE_STATIC` words (record `FlowStatic`, docs/records.md).
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
            // firmware-owned (RFC 5961/6191 bookkeeping), never read by the data path
            fw_word: 0,
            gen: self.generation,
        }
        .pack()
    }

    /// Decode the `FLOW.STATE_STATIC` words (flag bits and the word the data path does not
    /// use are ignored); a state code the data path does not define is an error.
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
            generation: f.gen,
        })
    }
}

/// Dynamic part of a flow state slot (record `FlowDyn`), updated by the data path per
/// forwarded segment: counters, last-seen and the teardown view (docs/engine.md,
/// "Teardown").
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
    /// With `teardown::FIN_CS`: the client's sequence number after its FIN.
    pub fin_end_cs: u32,
    /// With `teardown::FIN_SC`: the server's sequence number after its FIN.
    pub fin_end_sc: u32,
    /// Teardown flags (`splicenic_layout::teardown` masks).
    pub teardown: u8,
}

impl FlowCounters {
    /// The `FLOW.STATE_DYN` words (record `FlowDyn`; byte counters are cut to 48 bits).
    pub fn to_words(&self) -> [u32; FLOW_DYN_WORDS] {
        layout::FlowDyn {
            last_seen: self.last_seen,
            packets_cs: self.packets_cs,
            packets_sc: self.packets_sc,
            bytes_cs: self.bytes_cs,
            bytes_sc: self.bytes_sc,
            fin_end_cs: self.fin_end_cs,
            fin_end_sc: self.fin_end_sc,
            teardown: self.teardown,
        }
        .pack()
    }

    /// Decode the `FLOW.STATE_DYN` words.
    pub fn from_words(w: &[u32; FLOW_DYN_WORDS]) -> FlowCounters {
        let d = layout::FlowDyn::unpack(w);
        FlowCounters {
            last_seen: d.last_seen,
            packets_cs: d.packets_cs,
            packets_sc: d.packets_sc,
            bytes_cs: d.bytes_cs,
            bytes_sc: d.bytes_sc,
            fin_end_cs: d.fin_end_cs,
            fin_end_sc: d.fin_end_sc,
            teardown: d.teardown,
        }
    }
}
