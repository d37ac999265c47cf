//! aging_check against the firmware's aging scan (`Splicer::timeout_class` and
//! `flowmgr::aging::is_expired`, the functions the firmware's scan and its re-check before a
//! free call): random slots (SPLICED, CLOSING and every other state byte, random entry flags
//! and teardown views), ages one short of, at and one past their class's timeout, random,
//! negative (a segment after now was sampled) and around 2^31, under random timeout tables
//! (0 and the largest included), one slot per cycle, with gaps and under back-pressure. Every
//! class and expiry must be the firmware's; the timing test checks the latency and the rate.
//!
//! `AGING_TB_SEED`, `AGING_TB_SLOTS` (default 1,000,000).

mod common;

use common::{firmware, random_slot, random_table};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::flowmgr::timeouts::STATES;
use splicenic_layout::{flow_state, AGING_CHECK_LATENCY};
use splicenic_tb_aging::{AgingCheck, SlotView};

const DEFAULT_SEED: u64 = 0xa61_4600;
const DEFAULT_SLOTS: u64 = 1_000_000;

#[test]
fn aging_check_is_the_firmware() {
    let seed = splicenic_fuzzkit::env_u64("AGING_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("AGING_TB_SLOTS").unwrap_or(DEFAULT_SLOTS);
    eprintln!("aging_check against the firmware: seed {seed:#x}, {target} slots");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut t_rng = StdRng::seed_from_u64(seed ^ 0x3c);
    let mut hw = AgingCheck::new().expect("model");
    let mut done = 0u64;
    let mut by_class = [0u64; STATES];
    let mut expired = 0u64;
    let mut none = 0u64;
    while done < target {
        let table = random_table(&mut rng);
        for (i, &t) in table.iter().enumerate() {
            hw.set_timeout(i as u8, t).expect("table write");
        }
        let n = (target - done).min(4096) as usize;
        let slots: Vec<SlotView> = (0..n).map(|_| random_slot(&mut rng, &table)).collect();
        let phase = t_rng.gen_range(0..3);
        let mut p_rng = StdRng::seed_from_u64(t_rng.gen());
        let mut r_rng = StdRng::seed_from_u64(t_rng.gen());
        let got = hw
            .run(
                &slots,
                || phase != 1 || p_rng.gen_bool(0.5),
                || phase != 2 || r_rng.gen_bool(0.5),
            )
            .expect("decisions");
        for (k, (s, g)) in slots.iter().zip(&got).enumerate() {
            let (class, exp) = firmware(s, &table);
            let what = || format!("slot {} ({s:?}, table {table:?})", done + k as u64);
            assert_eq!(g.out.slot, s.slot, "order at {}", what());
            assert_eq!(g.out.class, class, "class of {}", what());
            assert_eq!(g.out.expired, exp, "expiry of {}", what());
            if class == 0 {
                none += 1;
            } else {
                by_class[usize::from(class)] += 1;
            }
            expired += u64::from(exp);
        }
        done += n as u64;
    }
    eprintln!(
        "{done} slots equal the firmware's: {none} without a class, by class {by_class:?}, \
         {expired} expired"
    );
    for c in [1usize, 4, 5, 6, 11] {
        assert!(by_class[c] > 0, "class {c} never occurred");
    }
    assert!(expired > 0 && expired < done);
}

#[test]
fn one_slot_per_cycle_after_the_latency() {
    let mut hw = AgingCheck::new().expect("model");
    let s = SlotView {
        state: flow_state::SPLICED,
        ..SlotView::default()
    };
    let r = hw.run(&[s], || true, || true).expect("decision");
    assert_eq!(r[0].taken - r[0].accepted, u64::from(AGING_CHECK_LATENCY));
    let n = 1000;
    let r = hw.run(&vec![s; n], || true, || true).expect("decisions");
    for w in r.windows(2) {
        assert_eq!(w[1].accepted - w[0].accepted, 1, "one slot per cycle");
        assert_eq!(w[1].taken - w[0].taken, 1, "one decision per cycle");
    }
    eprintln!(
        "aging_check: latency {AGING_CHECK_LATENCY} cycles, {n} slots in {} cycles",
        r[n - 1].accepted - r[0].accepted + 1
    );
}
