//! RSTs and SYNs on spliced flows (TCP_STATS; docs/flowmgr.md, "Resets and SYNs on spliced
//! flows").

use super::*;

/// How the firmware handled RSTs and SYNs of spliced flows (RFC 5961, RFC 6191).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TcpStats {
    /// RSTs that put a flow in RST-pending.
    pub rst_pending: u32,
    /// RST-pending flows restored by a segment from the RST's receiver.
    pub rst_restored: u32,
    /// RST-pending flows freed after a silent pending time.
    pub rst_freed_silent: u32,
    /// RST-pending flows freed by the receiver's RST.
    pub rst_freed_receiver: u32,
    /// RSTs not tracked (pending table full): the flow waits for the CLOSE timeout.
    pub rst_untracked: u32,
    /// Probes sent to a RST's receiver.
    pub probes: u32,
    /// SYNs passed to the server, whose challenge ACK reaches the client through the splice.
    pub syn_challenged: u32,
    /// SYNs not passed (one per flow per 500 ms).
    pub challenge_limited: u32,
    /// SYNs dropped (RST-pending, client FIN only, TIME_WAIT with an old ISN).
    pub syn_dropped: u32,
    /// TIME_WAIT flows replaced by a SYN with a newer ISN (RFC 6191).
    pub tw_replaced: u32,
    /// Handshake ACKs accepted with the hardware SYN responder's cookie.
    pub hw_cookie_acks: u32,
    /// Flows RST-pending now (a gauge).
    pub rst_pending_now: u32,
}

impl TcpStats {
    /// Words of the TCP_STATS answer.
    pub const WORDS: usize = 12;

    /// Decodes the TCP_STATS answer's words.
    pub fn from_words(d: &[u32; Self::WORDS]) -> TcpStats {
        TcpStats {
            rst_pending: d[0],
            rst_restored: d[1],
            rst_freed_silent: d[2],
            rst_freed_receiver: d[3],
            rst_untracked: d[4],
            probes: d[5],
            syn_challenged: d[6],
            challenge_limited: d[7],
            syn_dropped: d[8],
            tw_replaced: d[9],
            hw_cookie_acks: d[10],
            rst_pending_now: d[11],
        }
    }
}

impl FlowManager<'_> {
    /// TCP_STATS.
    pub fn tcp_stats(&mut self) -> Result<TcpStats, DriverError> {
        let d = self.call_ok(cmd::TCP_STATS, &[], TcpStats::WORDS)?;
        let mut w = [0u32; TcpStats::WORDS];
        w.copy_from_slice(&d[..TcpStats::WORDS]);
        Ok(TcpStats::from_words(&w))
    }
}
