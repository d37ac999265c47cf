//! The statistics snapshot.

use super::*;

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
    /// SYNs received on the port and answered by the card's SYN responder (a cookie
    /// SYN-ACK; the SYN goes no further).
    pub syn_answered: u64,
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
            syn_answered: c[sp::SYN_ANSWERED],
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
        self.drop_reason_counters()
            .into_iter()
            .map(|d| (d.reason, d.count))
            .collect()
    }

    /// [`StatsSnapshot::drop_reasons`] with the index of each counter in the STATS map
    /// (`PARSER_REASON` 208 + code, `CLASSIFIER_DROP` 224 + why code; docs/records.md).
    /// These are 64-bit counters, cleared by `STATS.CTRL`.
    pub fn drop_reason_counters(&self) -> Vec<StatsDrop> {
        let parser = layout::ParserReason::ALL[1..].iter().map(|r| {
            let index = stats_index::parser_reason::index(usize::from(r.raw()));
            StatsDrop {
                reason: r.name(),
                index,
                count: self.counters[index],
            }
        });
        let classifier = CLASSIFIER_DROPS.iter().enumerate().map(|(k, &reason)| {
            let index = stats_index::classifier_drop::index(k + 1);
            StatsDrop {
                reason,
                index,
                count: self.counters[index],
            }
        });
        parser.chain(classifier).collect()
    }
}

/// One per-reason drop counter of the STATS block ([`StatsSnapshot::drop_reason_counters`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatsDrop {
    /// The parser reason (`ParserReason` name) or the classifier's `DROP_` + why name.
    pub reason: &'static str,
    /// Counter index in the STATS map.
    pub index: usize,
    /// The 64-bit count.
    pub count: u64,
}
