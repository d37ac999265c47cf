//! stats_counters: random increments from all inputs every cycle, snapshots at random
//! times while increments continue; every snapshot read equals the software reference
//! at the snapshot cycle; the 64-bit wrap; clear on snapshot.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_queues::{Stats, StatsCycle, STATS_COUNTERS, STATS_INPUTS, STATS_RD_LATENCY};

/// Software reference model of the stats block: logical counter values; a snapshot at
/// cycle S holds every increment of cycles < S; with clear the values restart from 0.
struct RefStats {
    live: Vec<u64>,
}

impl RefStats {
    fn step(&mut self, c: &StatsCycle) -> Option<Vec<u64>> {
        let snap = (c.snapshot != 0).then(|| self.live.clone());
        if c.snapshot != 0 && c.clear_on_snapshot != 0 {
            self.live.iter_mut().for_each(|v| *v = 0);
        }
        for k in 0..STATS_INPUTS {
            if c.inc_valid & (1 << k) != 0 {
                let i = c.idx[k] as usize;
                self.live[i] = self.live[i].wrapping_add(u64::from(c.amt[k]));
            }
        }
        snap
    }
}

/// Random schedule: increments on every input nearly every cycle (biased to a few hot
/// counters so back-to-back and same-cycle hits of one counter are frequent); a snapshot,
/// then reads of all counters in random order (the first possibly in the snapshot cycle)
/// while increments continue, then the next snapshot.
fn schedule(rng: &mut ChaCha8Rng, cycles: usize, clear_mix: bool) -> Vec<StatsCycle> {
    let mut v = Vec::with_capacity(cycles);
    let mut reads: Vec<u32> = Vec::new();
    let mut next_snap = rng.gen_range(5..200);
    for c in 0..cycles {
        let mut cy = StatsCycle::default();
        for k in 0..STATS_INPUTS {
            if rng.gen_bool(0.95) {
                cy.inc_valid |= 1 << k;
                cy.idx[k] = if rng.gen_bool(0.5) {
                    rng.gen_range(0..4)
                } else {
                    rng.gen_range(0..STATS_COUNTERS as u32)
                };
                cy.amt[k] = if rng.gen_bool(0.5) {
                    1
                } else {
                    rng.gen_range(0..=0xffff)
                };
            }
        }
        if c == next_snap && reads.is_empty() {
            cy.snapshot = 1;
            cy.clear_on_snapshot = u32::from(clear_mix && rng.gen_bool(0.5));
            reads = (0..STATS_COUNTERS as u32).collect();
            for i in (1..reads.len()).rev() {
                let j = rng.gen_range(0..=i);
                reads.swap(i, j);
            }
        }
        let in_snap_cycle = cy.snapshot != 0;
        if !reads.is_empty()
            && (in_snap_cycle && rng.gen_bool(0.5) || !in_snap_cycle && rng.gen_bool(0.8))
        {
            cy.rd_valid = 1;
            cy.rd_idx = reads.pop().unwrap_or(0);
            if reads.is_empty() {
                next_snap = c + rng.gen_range(1..100);
            }
        }
        v.push(cy);
    }
    v
}

fn check_run(seed: u64, init: u64, clear_mix: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cycles = 20_000;
    let sched = schedule(&mut rng, cycles, clear_mix);
    let mut sim = Stats::new(init).expect("model");
    let start = sim.cycle();
    let reads = sim.run(&sched).expect("run");

    let mut model = RefStats {
        live: vec![init; STATS_COUNTERS],
    };
    let mut current: Option<Vec<u64>> = None;
    let mut expected = Vec::new(); // (cycle the result must appear, value)
    let mut snapshots = 0;
    let mut wrapped = false;
    for (c, cy) in sched.iter().enumerate() {
        let before = model.live.clone();
        if let Some(s) = model.step(cy) {
            current = Some(s);
            snapshots += 1;
        }
        wrapped |= model
            .live
            .iter()
            .zip(&before)
            .any(|(a, b)| a < b && cy.snapshot == 0);
        if cy.rd_valid != 0 {
            let snap = current.as_ref().expect("reads only after a snapshot");
            expected.push((
                start + c as u64 + STATS_RD_LATENCY,
                snap[cy.rd_idx as usize],
            ));
        }
    }
    assert!(snapshots >= 20, "only {snapshots} snapshots");
    assert_eq!(reads.len(), expected.len(), "read result count");
    for (i, (r, (cyc, val))) in reads.iter().zip(&expected).enumerate() {
        assert_eq!(r.cycle, *cyc, "read {i}: latency");
        assert_eq!(r.value, *val, "read {i}: snapshot value");
    }
    if init > u64::MAX - 1_000_000 {
        assert!(wrapped, "the run should have crossed 2^64");
    }
}

#[test]
fn snapshots_match_reference() {
    check_run(1, 0, false);
}

#[test]
fn wraps_at_64_bits() {
    // Every counter starts 50,000 below 2^64: the hot counters wrap within the run.
    check_run(2, u64::MAX - 50_000, false);
}

#[test]
fn clear_on_snapshot_reports_deltas() {
    check_run(3, 12345, true);
}

#[test]
fn clear_all_restarts_from_init_value() {
    // Reference: after clear_all (and the documented COUNTERS-cycle init sweep, left idle
    // here) every counter is back at init_value.
    let init = 77u64;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut sim = Stats::new(init).expect("model");
    let mut model = RefStats {
        live: vec![init; STATS_COUNTERS],
    };
    let busy = schedule(&mut rng, 3000, false);
    for cy in &busy {
        model.step(cy);
    }
    sim.run(&busy).expect("run");
    let mut sched = vec![StatsCycle {
        clear_all: 1,
        ..StatsCycle::default()
    }];
    sched.extend(std::iter::repeat_n(
        StatsCycle::default(),
        STATS_COUNTERS + 8,
    ));
    // A few increments after the sweep, then a snapshot and reads of every counter.
    let mut after = vec![init; STATS_COUNTERS];
    for i in 0..20u32 {
        let mut cy = StatsCycle {
            inc_valid: 0b1001,
            ..StatsCycle::default()
        };
        cy.idx = [i, 0, 0, 3];
        cy.amt = [i + 1, 0, 0, 5];
        after[i as usize] += u64::from(i + 1);
        after[3] += 5;
        sched.push(cy);
    }
    sched.push(StatsCycle {
        snapshot: 1,
        ..StatsCycle::default()
    });
    for i in 0..STATS_COUNTERS as u32 {
        sched.push(StatsCycle {
            rd_valid: 1,
            rd_idx: i,
            ..StatsCycle::default()
        });
    }
    let reads = sim.run(&sched).expect("run");
    assert_eq!(reads.len(), STATS_COUNTERS);
    for (i, r) in reads.iter().enumerate() {
        assert_eq!(r.value, after[i], "counter {i} after clear_all");
    }
    assert_ne!(
        model.live, after,
        "the first phase must have changed the counters"
    );
}
