//! Event queue records.

use super::*;

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
    /// Generation of the flow slot (`PuntMeta::slot_gen` of the segment matched; 0 for a
    /// request from the firmware buffer).
    pub flow_gen: u8,
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
    /// A forwarded segment carried FIN or RST (seq and ack as on the wire; `plen` payload
    /// bytes).
    FinRst {
        port: Port,
        tcp_flags: u8,
        flow_slot: u32,
        /// The slot's generation (`FlowStatic.gen`) when the segment was forwarded.
        flow_gen: u8,
        plen: u16,
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
                    flow_gen: e.flow_gen,
                    plen: e.plen,
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
                    flow_gen: e.flow_gen,
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
