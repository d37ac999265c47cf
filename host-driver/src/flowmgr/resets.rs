//! RSTs and SYNs on spliced flows (TCP_STATS; docs/flowmgr.md, "Resets and SYNs on spliced
//! flows").

use super::*;

/// How the firmware handled RSTs and SYNs of spliced flows (RFC 5961, RFC 6191): the
/// firmware's own counters, decoded in its word order.
pub use splicenic_fw_logic::splicer::TcpStats;

impl FlowManager<'_> {
    /// TCP_STATS, in as many calls as a response's 16 data words take (each names the
    /// first word it asks for).
    pub fn tcp_stats(&mut self) -> Result<TcpStats, DriverError> {
        let mut w = [0u32; TcpStats::WORDS];
        for (i, chunk) in w.chunks_mut(crate::regs::mbox::RSP_DATA_COUNT).enumerate() {
            let first = (i * crate::regs::mbox::RSP_DATA_COUNT) as u32;
            let d = self.call_ok(cmd::TCP_STATS, &[first], chunk.len())?;
            chunk.copy_from_slice(&d[..chunk.len()]);
        }
        Ok(TcpStats::from_words(&w))
    }
}
