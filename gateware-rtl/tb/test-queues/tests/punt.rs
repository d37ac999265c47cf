//! pkt_punt_buf at DATA_WIDTH 64 and 512: random frames with metadata under random
//! firmware consumption; byte-exact delivery, drops counted exactly when the ring is full
//! or a frame is too long, the input never stalls. With a reserve (RESERVE 2 of 8 slots):
//! low-priority frames are kept out of the last 2 slots and counted in stat_drop_low.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_layout::PuntMeta;
use splicenic_tb_queues::{
    punt_run_model, PuntFrame, PuntModel, PuntSlot, Width, PUNT_RESERVE, PUNT_SLOTS, SLOT_BYTES,
};

fn frames(rng: &mut ChaCha8Rng, n: usize, max_gap: u32) -> Vec<PuntFrame> {
    (0..n)
        .map(|_| {
            let len = match rng.gen_range(0..100) {
                0..=2 => rng.gen_range(SLOT_BYTES + 1..=SLOT_BYTES + 200),
                3..=40 => rng.gen_range(1..=128),
                _ => rng.gen_range(1..=SLOT_BYTES),
            };
            PuntFrame {
                data: (0..len).map(|_| rng.gen()).collect(),
                tuser: rng.gen_bool(0.1),
                meta: rng.gen(),
                gap: if max_gap == 0 {
                    0
                } else {
                    rng.gen_range(0..=max_gap)
                },
                low: rng.gen_bool(0.5),
            }
        })
        .collect()
}

fn check(width: Width, seed: u64, n: usize, max_gap: u32, consume_pct: u32) -> (u64, u64) {
    let (full, _, got) = check_model(width.into(), seed, n, max_gap, consume_pct);
    (full, got)
}

/// Random frames (half of them low priority) into `model`; returns the drops on a full
/// ring, the drops of low-priority frames in the reserve, and the frames delivered.
fn check_model(
    model: PuntModel,
    seed: u64,
    n: usize,
    max_gap: u32,
    consume_pct: u32,
) -> (u64, u64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let fr = frames(&mut rng, n, max_gap);
    let r = punt_run_model(model, &fr, consume_pct, false, seed as u32).expect("run");
    // Reference: a frame is dropped (and counted) when the ring is full at its first beat,
    // a low-priority frame also when only the reserved slots are free, else dropped as too
    // long when it exceeds a slot, else delivered byte-exact with its metadata and error
    // flag, in order.
    let low_limit = PUNT_SLOTS - model.reserve();
    let (mut exp_full, mut exp_low, mut exp_long) = (0u64, 0u64, 0u64);
    let mut expected = Vec::new();
    for (f, &used) in fr.iter().zip(&r.used_at_start) {
        if used == PUNT_SLOTS {
            exp_full += 1;
        } else if f.low && used >= low_limit {
            exp_low += 1;
        } else if f.data.len() > SLOT_BYTES {
            exp_long += 1;
        } else {
            expected.push(PuntSlot {
                data: f.data.clone(),
                flag: f.tuser,
                meta: f.meta,
            });
        }
    }
    assert_eq!(r.run.stall_cycles, 0, "the input must never stall");
    assert_eq!(r.run.drop_full, exp_full, "drops on full ring");
    assert_eq!(
        r.run.drop_low, exp_low,
        "drops of low-priority frames in the reserve"
    );
    assert_eq!(r.run.drop_long, exp_long, "drops of long frames");
    assert_eq!(r.run.bad_cons, 0);
    assert_eq!(r.run.frames, expected.len() as u64, "frames committed");
    assert_eq!(r.slots.len(), expected.len(), "frames read by the firmware");
    for (i, (g, e)) in r.slots.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "frame {i}");
    }
    (exp_full, exp_low, expected.len() as u64)
}

#[test]
fn punt_64_fast_and_slow_firmware() {
    let (_, got) = check(Width::W64, 21, 400, 4, 100);
    assert!(got > 100);
    let (dropped, got) = check(Width::W64, 22, 400, 0, 5);
    assert!(dropped > 0 && got > 0, "dropped {dropped} delivered {got}");
}

#[test]
fn punt_512_fast_and_slow_firmware() {
    // The firmware model reads 4 bytes per cycle, the input brings 64: gaps keep the ring
    // from filling all the time.
    let (_, got) = check(Width::W512, 23, 400, 150, 100);
    assert!(got > 100, "delivered {got}");
    let (dropped, got) = check(Width::W512, 24, 400, 0, 5);
    assert!(dropped > 0 && got > 0, "dropped {dropped} delivered {got}");
}

#[test]
fn punt_reserve_random_frames() {
    let (_, _, got) = check_model(PuntModel::Reserve64, 25, 400, 4, 100);
    assert!(got > 100, "delivered {got}");
    let (full, low, got) = check_model(PuntModel::Reserve64, 26, 400, 0, 5);
    assert!(
        full > 0 && low > 0 && got > 0,
        "full {full} low {low} delivered {got}"
    );
}

fn small_frame(i: u8, low: bool) -> PuntFrame {
    PuntFrame {
        data: (0..60).map(|b: u8| b ^ i).collect(),
        tuser: false,
        meta: {
            let mut m = [0; PuntMeta::WORDS];
            m[0] = u32::from(i);
            m
        },
        gap: 0,
        low,
    }
}

/// Fills the ring with low-priority frames up to SLOTS - RESERVE, then offers one more
/// low-priority frame, normal frames up to SLOTS and one beyond, and a low-priority frame
/// on the full ring; the firmware model reads only after the last frame.
fn fill_sequence() -> Vec<PuntFrame> {
    let lows = PUNT_SLOTS - PUNT_RESERVE;
    let mut fr: Vec<PuntFrame> = (0..lows).map(|i| small_frame(i as u8, true)).collect();
    fr.push(small_frame(100, true));
    fr.extend((0..=PUNT_RESERVE).map(|i| small_frame(200 + i as u8, false)));
    fr.push(small_frame(250, true));
    fr
}

fn ids(slots: &[PuntSlot]) -> Vec<u32> {
    slots.iter().map(|s| s.meta[0]).collect()
}

#[test]
fn punt_reserve_keeps_last_slots_for_normal_frames() {
    let fr = fill_sequence();
    let r = punt_run_model(PuntModel::Reserve64, &fr, 100, true, 1).expect("run");
    let lows = PUNT_SLOTS - PUNT_RESERVE;
    // 6 low-priority frames take slots 0..5, the 7th finds only the reserve: dropped and
    // counted as low; the normal frames take the 2 reserved slots, the 3rd finds the ring
    // full, and so does the last low-priority frame (counted as full, not low).
    let mut want: Vec<u32> = (0..lows as u32).collect();
    want.extend(200..200 + PUNT_RESERVE as u32);
    assert_eq!(ids(&r.slots), want, "frames delivered");
    let mut used: Vec<usize> = (0..=lows).collect();
    used.extend(lows..=PUNT_SLOTS);
    used.push(PUNT_SLOTS);
    assert_eq!(r.used_at_start, used, "ring occupancy at each first beat");
    assert_eq!(
        r.run.drop_low, 1,
        "low-priority frame dropped in the reserve"
    );
    assert_eq!(r.run.drop_full, 2, "frames dropped on the full ring");
    assert_eq!(r.run.frames, PUNT_SLOTS as u64);
    assert_eq!(r.run.drop_long + r.run.bad_cons + r.run.stall_cycles, 0);
    for (s, f) in r
        .slots
        .iter()
        .zip(fr.iter().filter(|f| want.contains(&f.meta[0])))
    {
        assert_eq!(s.data, f.data);
    }
}

#[test]
fn punt_without_reserve_ignores_priority() {
    // RESERVE 0: the same sequence fills all 8 slots in arrival order, whatever the
    // priority; everything after that is dropped as full, nothing as low.
    let fr = fill_sequence();
    let r = punt_run_model(PuntModel::W64, &fr, 100, true, 1).expect("run");
    let want: Vec<u32> = fr.iter().take(PUNT_SLOTS).map(|f| f.meta[0]).collect();
    assert_eq!(ids(&r.slots), want, "frames delivered");
    let used: Vec<usize> = (0..fr.len()).map(|i| i.min(PUNT_SLOTS)).collect();
    assert_eq!(r.used_at_start, used, "ring occupancy at each first beat");
    assert_eq!(r.run.drop_low, 0);
    assert_eq!(r.run.drop_full, (fr.len() - PUNT_SLOTS) as u64);
    assert_eq!(r.run.frames, PUNT_SLOTS as u64);
}
