//! aging_check against the firmware's aging scan (`Splicer::timeout_class` and
//! `flowmgr::aging::is_expired`, the functions the firmware's scan and its re-check before a
//! free call): random slots (SPLICED, CLOSING and every other state byte, random entry flags
//! and teardown views), ages one short of, at and one past their class's timeout, random,
//! negative (a segment after now was sampled) and around 2^31, under random timeout tables
//! (0 and the largest included), one slot per cycle, with gaps and under back-pressure. Every
//! class and expiry must be the firmware's; the timing test checks the latency and the rate.
//!
//! `AGING_TB_SEED`, `AGING_TB_SLOTS` (default 1,000,000).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::flowmgr::aging::is_expired;
use splicenic_fw_logic::flowmgr::timeouts::STATES;
use splicenic_fw_logic::splicer::{Splicer, DYN_WORDS};
use splicenic_layout::{
    entry_flags, flow_state, teardown, FlowDyn, FlowStatic, AGING_CHECK_LATENCY,
};
use splicenic_tb_aging::{AgingCheck, SlotView};

const DEFAULT_SEED: u64 = 0xa61_4600;
const DEFAULT_SLOTS: u64 = 1_000_000;

/// The firmware's decision on `s` under `table`: (class, expired).
fn firmware(s: &SlotView, table: &[u32; STATES]) -> (u8, bool) {
    let w0 = FlowStatic::STATE.place32(s.state.into()) | FlowStatic::FLAGS.place32(s.flags.into());
    let mut d = [0u32; DYN_WORDS];
    FlowDyn::TEARDOWN.put(&mut d, s.teardown.into());
    FlowDyn::LAST_SEEN.put(&mut d, s.last_seen.into());
    match Splicer::timeout_class(w0, &d) {
        None => (0, false),
        Some(c) => (c as u8, is_expired(s.now, s.last_seen, table[c as usize])),
    }
}

fn random_table(rng: &mut StdRng) -> [u32; STATES] {
    let mut t = [0u32; STATES];
    for v in &mut t {
        *v = match rng.gen_range(0..8) {
            0 => 0,
            1 => i32::MAX as u32,
            2 => rng.gen(),
            _ => rng.gen_range(1..1 << 20),
        };
    }
    t
}

fn random_slot(rng: &mut StdRng, table: &[u32; STATES]) -> SlotView {
    let state = match rng.gen_range(0..10) {
        0..=3 => flow_state::SPLICED,
        4..=7 => flow_state::CLOSING,
        8 => rng.gen_range(0..=5),
        _ => rng.gen(),
    };
    let mut flags: u8 = rng.gen();
    if rng.gen_bool(0.5) {
        flags &= !entry_flags::RST;
    }
    let mut td: u8 = rng.gen();
    if rng.gen_bool(0.4) {
        td |= teardown::ACKED_CS | teardown::ACKED_SC;
    }
    // an age around the timeout of a random class (the class itself follows the fields)
    let t = table[rng.gen_range(0..STATES)];
    let age: u32 = match rng.gen_range(0..8) {
        0 => t.wrapping_sub(1),
        1 => t,
        2 => t.wrapping_add(1),
        3 => 0u32.wrapping_sub(rng.gen_range(1..1000)),
        4 => (1u32 << 31)
            .wrapping_add(rng.gen_range(0..3))
            .wrapping_sub(1),
        _ => rng.gen(),
    };
    let now: u32 = rng.gen();
    SlotView {
        slot: rng.gen(),
        state,
        flags,
        teardown: td,
        last_seen: now.wrapping_sub(age),
        now,
    }
}

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
