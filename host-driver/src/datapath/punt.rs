//! Punt records.

use super::*;

/// Punt record (punt ring descriptor words 1-5).
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
    /// The ACK validator's verdict (`None` for a code the data path does not define).
    pub engine: Option<EngineVerdict>,
    /// MSS class the cookie carried (verdicts other than NONE, BAD_COOKIE and STALE).
    pub mss_class: u8,
    /// Generation of `flow_slot` (of the hit entry, or of the slot handed over or found by
    /// the ACK validator; 0 without a slot).
    pub slot_gen: u8,
}

impl PuntMeta {
    /// Decode descriptor words 1-5 (record `PuntMeta`, docs/records.md).
    pub fn decode(w: [u32; layout::PuntMeta::WORDS]) -> PuntMeta {
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
            engine: EngineVerdict::from_raw(m.engine),
            mss_class: m.mss_class,
            slot_gen: m.slot_gen,
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
