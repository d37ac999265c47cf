//! RSTs and SYNs on spliced flows (TCP_STATS; docs/flowmgr.md, "Resets and SYNs on spliced
//! flows").

use super::*;

/// How the firmware handled RSTs and SYNs of spliced flows (RFC 5961, RFC 6191): the
/// firmware's own counters, decoded in its word order.
pub use splicenic_fw_logic::splicer::TcpStats;

impl FlowManager<'_> {
    /// TCP_STATS.
    pub fn tcp_stats(&mut self) -> Result<TcpStats, DriverError> {
        let d = self.call_ok(cmd::TCP_STATS, &[], TcpStats::WORDS)?;
        let mut w = [0u32; TcpStats::WORDS];
        w.copy_from_slice(&d[..TcpStats::WORDS]);
        Ok(TcpStats::from_words(&w))
    }
}
