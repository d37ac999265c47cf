//! evt_queue: four producers offering events at random, firmware popping at random;
//! order per producer preserved, overflow counted exactly, producers never held up for
//! more than PRODUCERS - 1 cycles.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_layout::{EventType, EvtHead};
use splicenic_tb_queues::{evt_run, EVT_PRODUCERS};

/// Event record of the test (the queue treats records as opaque): a declared event type in
/// bits 7:0 (record EvtHead), producer in 15:8, sequence number in 47:16, random bits
/// 63:48.
fn events(rng: &mut ChaCha8Rng, n: usize) -> [Vec<u64>; EVT_PRODUCERS] {
    std::array::from_fn(|p| {
        (0..n)
            .map(|s| {
                let kind = EventType::ALL[rng.gen_range(0..EventType::ALL.len())];
                EvtHead { kind: kind.raw() }.pack()[0] as u64
                    | (p as u64) << 8
                    | (s as u64) << 16
                    | rng.gen_range(0u64..0x1_0000) << 48
            })
            .collect()
    })
}

fn check(seed: u64, n: usize, offer_pct: u32, pop_pct: u32) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ev = events(&mut rng, n);
    let r = evt_run(&ev, offer_pct, pop_pct, seed as u32).expect("run");
    // Reference: per producer, the popped records are a subsequence of the offered ones in
    // order, with the right source; the rest were dropped and counted.
    let mut idx = [0usize; EVT_PRODUCERS];
    let mut got = [0u64; EVT_PRODUCERS];
    for e in &r.popped {
        let p = e.src as usize;
        assert!(p < EVT_PRODUCERS);
        assert_eq!(
            (e.data >> 8) & 0xff,
            p as u64,
            "head_src matches the producer"
        );
        assert_eq!(u64::from(e.word0), e.data & 0xffff_ffff, "head_word 0");
        assert_eq!(u64::from(e.word1), e.data >> 32, "head_word 1");
        let pos = ev[p][idx[p]..]
            .iter()
            .position(|&x| x == e.data)
            .unwrap_or_else(|| panic!("producer {p}: record out of order or unknown"));
        idx[p] += pos + 1;
        got[p] += 1;
    }
    let total = (n * EVT_PRODUCERS) as u64;
    assert_eq!(
        r.run.overflow + r.popped.len() as u64,
        total,
        "delivered + dropped"
    );
    assert_eq!(
        r.run.pushed,
        r.popped.len() as u64,
        "everything pushed was popped"
    );
    for (p, (&dropped, &delivered)) in r.run.overflow_prod.iter().zip(&got).enumerate() {
        assert_eq!(dropped, n as u64 - delivered, "producer {p} overflow");
    }
    assert!(
        r.run.max_wait < EVT_PRODUCERS as u64,
        "a producer waited {} cycles",
        r.run.max_wait
    );
    r.run.overflow
}

#[test]
fn fast_firmware_no_overflow() {
    // Firmware pops every cycle: the queue drains one record per cycle, as fast as the
    // arbiter fills it, so nothing overflows.
    assert_eq!(check(11, 2000, 100, 100), 0);
    assert_eq!(check(12, 2000, 60, 100), 0);
}

#[test]
fn slow_firmware_overflow_counted() {
    let dropped = check(13, 2000, 100, 10);
    assert!(dropped > 1000, "expected heavy overflow, got {dropped}");
    let dropped = check(14, 3000, 30, 30);
    assert!(dropped > 0);
}
