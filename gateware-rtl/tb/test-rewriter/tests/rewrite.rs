//! Property tests of the splice rewriter against the software reference model and
//! etherparse's full checksum recompute, at DATA_WIDTH 64 and 512.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_rewriter::{testkit, Desc, Rewriter, Width};

const FRAMES: usize = 2500;

fn random_frames(seed: u64, n: usize) -> Vec<(Vec<u8>, Desc)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let len = match rng.gen_range(0..4) {
                0 => 0,
                1 => rng.gen_range(1..64),
                _ => rng.gen_range(0..1400),
            };
            let f = testkit::gen_frame(&mut rng, len);
            let d = testkit::gen_desc(&mut rng, &f);
            (f.bytes, d)
        })
        .collect()
}

fn property(width: Width, seed: u64) {
    let frames = random_frames(seed, FRAMES);
    let mut rw = Rewriter::new(width).expect("model");
    testkit::run_and_check(&mut rw, &frames, 10_000_000);
    let st = rw.stats();
    let bypass = frames
        .iter()
        .filter(|(f, d)| !splicenic_tb_rewriter::reference::usable(f, d))
        .count();
    assert_eq!(st.stat_frames as usize, FRAMES);
    assert_eq!(st.stat_bypass as usize, bypass);
    let malformed = frames
        .iter()
        .filter(|(f, d)| {
            splicenic_tb_rewriter::reference::usable(f, d) && {
                let l4 = usize::from(d.l3_offset) + 4 * usize::from(d.ihl);
                let end = l4 + 4 * usize::from(d.doff);
                splicenic_tb_rewriter::reference::scan_options(&f[l4 + 20..end]).malformed
            }
        })
        .count();
    assert_eq!(st.stat_opt_err as usize, malformed);
    assert!(
        bypass > 0 && malformed > 0,
        "the run covers refused and malformed cases"
    );
}

#[test]
fn rewrite_matches_reference_and_full_checksum_w64() {
    property(Width::W64, 0x5eed_0064);
}

#[test]
fn rewrite_matches_reference_and_full_checksum_w512() {
    property(Width::W512, 0x5eed_0512);
}

fn backpressure(width: Width, seed: u64) {
    let frames = random_frames(seed, 800);
    let mut rw = Rewriter::new(width).expect("model");
    rw.configure(350, 450, seed);
    testkit::run_and_check(&mut rw, &frames, 20_000_000);
}

#[test]
fn byte_exact_under_input_gaps_and_output_backpressure_w64() {
    backpressure(Width::W64, 0xbac4_0064);
}

#[test]
fn byte_exact_under_input_gaps_and_output_backpressure_w512() {
    backpressure(Width::W512, 0xbac4_0512);
}
