//! Request heads the firmware canonicalised (HEAD_STATS).

use super::*;

/// Why the firmware refuses a request head (`splicenic_fw_logic::canon`, docs/canon.md).
pub use splicenic_fw_logic::canon::Reason as HeadRefusal;

/// The firmware's slow path for request heads the data path flagged (HEAD_STATS).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeadStats {
    /// Heads flagged (NEEDS_NORM, NOT_HTTP or ABSFORM) and decided by the firmware.
    pub flagged: u32,
    /// Routed by their canonical form (matched again).
    pub canonical: u32,
    /// Not HTTP: the service's default pool.
    pub not_http: u32,
    /// Soft-core cycles spent canonicalising.
    pub cycles: u64,
    /// Refusals (the client was reset) per reason, every reason in code order.
    pub refused: Vec<(HeadRefusal, u32)>,
}

impl HeadStats {
    /// Heads refused, all reasons.
    pub fn refused_total(&self) -> u64 {
        self.refused.iter().map(|&(_, n)| u64::from(n)).sum()
    }

    /// Heads refused for reason `r`.
    pub fn refused_for(&self, r: HeadRefusal) -> u32 {
        self.refused
            .iter()
            .find(|(x, _)| *x == r)
            .map_or(0, |&(_, c)| c)
    }

    /// Mean cycles per flagged head (0 without one).
    pub fn cycles_per_head(&self) -> u64 {
        self.cycles
            .checked_div(u64::from(self.flagged))
            .unwrap_or(0)
    }
}

impl FlowManager<'_> {
    /// HEAD_STATS, every page.
    pub fn head_stats(&mut self) -> Result<HeadStats, DriverError> {
        let mut st = HeadStats::default();
        let all = HeadRefusal::ALL;
        while st.refused.len() < all.len() {
            let first = all[st.refused.len()];
            let d = self.call_ok(cmd::HEAD_STATS, &[u32::from(first.code())], 6)?;
            st.flagged = d[0];
            st.canonical = d[1];
            st.not_http = d[2];
            st.cycles = u64::from(d[3]) | u64::from(d[4]) << 32;
            let base = st.refused.len();
            let counts = &d[5..];
            let take = counts.len().min(all.len() - base);
            st.refused.extend(
                all[base..base + take]
                    .iter()
                    .copied()
                    .zip(counts[..take].iter().copied()),
            );
        }
        Ok(st)
    }
}
