//! IPVS's rate estimator (net/netfilter/ipvs/ip_vs_est.c), so `--rate` means what it means
//! with LVS.
//!
//! Every 2 seconds the kernel takes the counter deltas and folds them into exponentially
//! weighted moving averages with weight 1/4, in fixed point: connection and packet rates
//! are kept scaled by 2^10 and byte rates by 2^5 (a delta over 2 s is shifted left by 9 or
//! 4), `avg += (rate - avg) >> 2` with an arithmetic shift, and a rate is read as
//! `(avg + 0x1FF) >> 10` or `(avg + 0xF) >> 5`. This module does the same with the same
//! integer arithmetic (wrapping like the kernel's u64/s64), so a series of samples taken
//! every 2 s gives exactly the kernel's numbers.
//!
//! Samples need not arrive exactly every 2 s: [`RateEstimator::sample`] ignores one that
//! comes less than 2 s after the last estimation tick, and spreads the counts of a sample
//! that comes n * 2 s (n > 1) later evenly over n ticks. A counter going backwards (the
//! card was reset, or the counters zeroed) restarts the estimator from the new totals, as
//! `ip_vs_zero_estimator` does.

use std::time::{Duration, Instant};

use super::model::{Counters, Rates};

/// Estimation period (the kernel's `2 * HZ`).
pub const INTERVAL: Duration = Duration::from_secs(2);

/// At most this many ticks are computed for one late sample; after that many ticks of the
/// same per-tick rate the averages no longer depend on earlier history in practice.
const MAX_TICKS: u64 = 256;

/// The moving averages of one service or server.
#[derive(Debug, Clone, Default)]
pub struct RateEstimator {
    /// Time and totals of the last estimation tick; `None` until the first sample.
    last: Option<(Instant, Counters)>,
    /// cps, inpps, outpps scaled by 2^10; inbps, outbps scaled by 2^5.
    cps: u64,
    inpps: u64,
    outpps: u64,
    inbps: u64,
    outbps: u64,
}

/// One EWMA step: `avg += ((s64)rate - (s64)avg) >> 2` on u64, as the kernel does.
fn ewma(avg: &mut u64, rate: u64) {
    let step = (rate as i64).wrapping_sub(*avg as i64) >> 2;
    *avg = avg.wrapping_add(step as u64);
}

impl RateEstimator {
    #[cfg(test)]
    /// An estimator with no history: rates read 0 until two samples 2 s apart.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed the cumulative totals read at `now`.
    pub fn sample(&mut self, now: Instant, totals: Counters) {
        let Some((tick, last)) = self.last else {
            self.last = Some((now, totals));
            return;
        };
        let backwards = totals.conns < last.conns
            || totals.inpkts < last.inpkts
            || totals.outpkts < last.outpkts
            || totals.inbytes < last.inbytes
            || totals.outbytes < last.outbytes;
        if backwards {
            self.zero(now, totals);
            return;
        }
        let elapsed = now.saturating_duration_since(tick);
        let n = (elapsed.as_nanos() / INTERVAL.as_nanos()) as u64;
        if n == 0 {
            return;
        }
        let delta = [
            totals.conns - last.conns,
            totals.inpkts - last.inpkts,
            totals.outpkts - last.outpkts,
            totals.inbytes - last.inbytes,
            totals.outbytes - last.outbytes,
        ];
        // Tick i (0-based) gets delta / n, plus one of the remainder while i < delta % n.
        for i in n.saturating_sub(MAX_TICKS)..n {
            let share = |d: u64| d / n + u64::from(i < d % n);
            self.tick([
                share(delta[0]),
                share(delta[1]),
                share(delta[2]),
                share(delta[3]),
                share(delta[4]),
            ]);
        }
        // Keep the tick phase: the next tick is due 2 s after the last one computed.
        let advanced = INTERVAL
            .checked_mul(u32::try_from(n).unwrap_or(u32::MAX))
            .and_then(|d| tick.checked_add(d))
            .unwrap_or(now);
        self.last = Some((advanced, totals));
    }

    /// One estimation tick with the counts of the last 2 s (`estimation_timer`).
    fn tick(&mut self, d: [u64; 5]) {
        // Connections and packets: scaled by 2^10, divided by 2 s.
        ewma(&mut self.cps, d[0].wrapping_shl(9));
        ewma(&mut self.inpps, d[1].wrapping_shl(9));
        ewma(&mut self.outpps, d[2].wrapping_shl(9));
        // Bytes: scaled by 2^5, divided by 2 s.
        ewma(&mut self.inbps, d[3].wrapping_shl(4));
        ewma(&mut self.outbps, d[4].wrapping_shl(4));
    }

    /// Restart from `totals` with all rates 0 (`ip_vs_zero_estimator`; what `-Z` does).
    pub fn zero(&mut self, now: Instant, totals: Counters) {
        *self = RateEstimator {
            last: Some((now, totals)),
            ..Self::default()
        };
    }

    /// The current rates, rounded as `ip_vs_read_estimator` rounds them.
    pub fn rates(&self) -> Rates {
        Rates {
            cps: self.cps.wrapping_add(0x1FF) >> 10,
            inpps: self.inpps.wrapping_add(0x1FF) >> 10,
            outpps: self.outpps.wrapping_add(0x1FF) >> 10,
            inbps: self.inbps.wrapping_add(0xF) >> 5,
            outbps: self.outbps.wrapping_add(0xF) >> 5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(conns: u64, pkts: u64, bytes: u64) -> Counters {
        Counters {
            conns,
            inpkts: pkts,
            outpkts: pkts / 2,
            inbytes: bytes,
            outbytes: bytes * 3,
        }
    }

    /// Feed `per_tick` counts every 2 s for `ticks` ticks; returns the rates after each.
    fn run(per_tick: (u64, u64, u64), ticks: usize) -> Vec<Rates> {
        let t0 = Instant::now();
        let mut e = RateEstimator::new();
        e.sample(t0, Counters::default());
        (1..=ticks)
            .map(|i| {
                let i64 = i as u64;
                e.sample(
                    t0 + INTERVAL * i as u32,
                    c(per_tick.0 * i64, per_tick.1 * i64, per_tick.2 * i64),
                );
                e.rates()
            })
            .collect()
    }

    #[test]
    fn first_sample_only_sets_the_baseline() {
        let mut e = RateEstimator::new();
        e.sample(Instant::now(), c(1000, 1000, 1000));
        assert_eq!(e.rates(), Rates::default());
    }

    #[test]
    fn step_response_matches_hand_computed_fixed_point() {
        // 100 connections per 2 s = 50 cps: rate = 100 << 9 = 51200 (50 * 2^10).
        // avg: 12800, 22400, 29600, 35000, 39050 (each + (51200 - avg) >> 2).
        // read: (avg + 511) >> 10 = 12, 22, 29, 34, 38.
        let r = run((100, 0, 0), 5);
        let cps: Vec<u64> = r.iter().map(|r| r.cps).collect();
        assert_eq!(cps, [12, 22, 29, 34, 38]);
        // 1_000_000 bytes per 2 s: rate = 1e6 << 4 = 16_000_000 (500_000 B/s * 2^5).
        // avg: 4_000_000, 7_000_000, 9_250_000; read (avg + 15) >> 5 = 125000, 218750,
        // 289062 (9_250_015 / 32 = 289062.97).
        let r = run((0, 0, 1_000_000), 3);
        let inbps: Vec<u64> = r.iter().map(|r| r.inbps).collect();
        assert_eq!(inbps, [125_000, 218_750, 289_062]);
        // outbytes are 3x: rate 48_000_000; avg 12_000_000, 21_000_000, 27_750_000;
        // read 375000, 656250, 867187 (27_750_015 / 32 = 867187.97).
        let outbps: Vec<u64> = r.iter().map(|r| r.outbps).collect();
        assert_eq!(outbps, [375_000, 656_250, 867_187]);
    }

    #[test]
    fn constant_rate_converges_to_the_rate() {
        // The fixed point stops 3 below 51200 ((51200 - avg) >> 2 == 0 once the gap is
        // under 4), and (51197 + 511) >> 10 = 50.
        let r = run((100, 2000, 123_456), 200);
        let last = r.last().unwrap();
        assert_eq!(last.cps, 50);
        assert_eq!(last.inpps, 1000);
        assert_eq!(last.outpps, 500);
        assert_eq!(last.inbps, 61_728);
        assert_eq!(last.outbps, 185_184);
        // And it got there within about 40 ticks (an 8 s window: 3/4 per tick).
        assert_eq!(r[40].cps, 50);
    }

    #[test]
    fn decays_to_zero_when_traffic_stops() {
        let t0 = Instant::now();
        let mut e = RateEstimator::new();
        e.sample(t0, Counters::default());
        e.sample(t0 + INTERVAL, c(100, 0, 0));
        assert_eq!(e.rates().cps, 12);
        for i in 2..100u32 {
            e.sample(t0 + INTERVAL * i, c(100, 0, 0));
        }
        assert_eq!(e.rates(), Rates::default());
    }

    #[test]
    fn early_samples_are_ignored_and_late_ones_spread() {
        let t0 = Instant::now();
        let mut a = RateEstimator::new();
        a.sample(t0, Counters::default());
        // 1.5 s later: not yet a tick.
        a.sample(t0 + Duration::from_millis(1500), c(75, 0, 0));
        assert_eq!(a.rates(), Rates::default());
        // 6 s after the start: three ticks of 100, 100, 100 (300 in total).
        a.sample(t0 + Duration::from_secs(6), c(300, 0, 0));
        let mut b = RateEstimator::new();
        b.sample(t0, Counters::default());
        for i in 1..=3u32 {
            b.sample(t0 + INTERVAL * i, c(100 * u64::from(i), 0, 0));
        }
        assert_eq!(a.rates(), b.rates());
        assert_eq!(a.rates().cps, 29);
        // Ticks keep their phase: 7 s is not a tick (the last was at 6 s), 8 s is.
        a.sample(t0 + Duration::from_secs(7), c(400, 0, 0));
        assert_eq!(a.rates().cps, 29);
        a.sample(t0 + Duration::from_secs(8), c(400, 0, 0));
        b.sample(t0 + INTERVAL * 4, c(400, 0, 0));
        assert_eq!(a.rates(), b.rates());
    }

    #[test]
    fn counters_going_backwards_restart_the_estimator() {
        let t0 = Instant::now();
        let mut e = RateEstimator::new();
        e.sample(t0, Counters::default());
        e.sample(t0 + INTERVAL, c(100, 100, 100));
        assert_ne!(e.rates(), Rates::default());
        e.sample(t0 + INTERVAL * 2, c(10, 10, 10));
        assert_eq!(e.rates(), Rates::default());
        // The new baseline is the reset totals.
        e.sample(t0 + INTERVAL * 3, c(110, 10, 10));
        assert_eq!(e.rates().cps, 12);
    }

    #[test]
    fn huge_gaps_and_values_do_not_panic() {
        let t0 = Instant::now();
        let mut e = RateEstimator::new();
        e.sample(t0, Counters::default());
        let max = Counters {
            conns: u64::MAX,
            inpkts: u64::MAX,
            outpkts: u64::MAX,
            inbytes: u64::MAX,
            outbytes: u64::MAX,
        };
        e.sample(t0 + Duration::from_secs(86_400 * 365), max);
        let _ = e.rates();
        e.sample(t0 + Duration::from_secs(86_400 * 366), max);
        let _ = e.rates();
    }
}
