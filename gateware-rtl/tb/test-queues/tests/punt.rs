//! pkt_punt_buf at DATA_WIDTH 64 and 512: random frames with metadata under random
//! firmware consumption; byte-exact delivery, drops counted exactly when the ring is full
//! or a frame is too long, the input never stalls.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_queues::{punt_run, PuntFrame, PuntSlot, Width, SLOT_BYTES};

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
            }
        })
        .collect()
}

fn check(width: Width, seed: u64, n: usize, max_gap: u32, consume_pct: u32) -> (u64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let fr = frames(&mut rng, n, max_gap);
    let r = punt_run(width, &fr, consume_pct, seed as u32).expect("run");
    // Reference: a frame is dropped (and counted) when the ring is full at its first beat,
    // else dropped as too long when it exceeds a slot, else delivered byte-exact with its
    // metadata and error flag, in order.
    let (mut exp_full, mut exp_long) = (0u64, 0u64);
    let mut expected = Vec::new();
    for (f, &full) in fr.iter().zip(&r.full_at_start) {
        if full {
            exp_full += 1;
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
    assert_eq!(r.run.drop_long, exp_long, "drops of long frames");
    assert_eq!(r.run.bad_cons, 0);
    assert_eq!(r.run.frames, expected.len() as u64, "frames committed");
    assert_eq!(r.slots.len(), expected.len(), "frames read by the firmware");
    for (i, (g, e)) in r.slots.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "frame {i}");
    }
    (exp_full, expected.len() as u64)
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
