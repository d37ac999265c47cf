//! Line rate and latency: back-to-back frames of 60..1518 bytes, input always valid and
//! output always ready. Every frame must still be rewritten exactly (reference model).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use splicenic_tb_rewriter::{testkit, Desc, Rewriter, Width};

fn frames_of(rng: &mut ChaCha8Rng, sizes: &[usize], n: usize) -> Vec<(Vec<u8>, Desc)> {
    (0..n)
        .map(|i| {
            let size = sizes[i % sizes.len()];
            // headers of random shape; keep the first whose frame has exactly this size
            let f = loop {
                let f = testkit::gen_frame_with(rng, |hdr| size.saturating_sub(hdr));
                if f.bytes.len() == size {
                    break f;
                }
            };
            let mut d = testkit::gen_desc(rng, &f);
            d.flags = 0xff;
            d.l3_offset = f.l3_offset;
            d.ihl = f.ihl;
            d.doff = f.doff;
            (f.bytes, d)
        })
        .collect()
}

fn line_rate(width: Width, sizes: &[usize], n: usize, seed: u64) -> (f64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let frames = frames_of(&mut rng, sizes, n);
    let mut rw = Rewriter::new(width).expect("model");
    let infos = testkit::run_and_check(&mut rw, &frames, 10_000_000);
    let st = rw.stats();
    let beats: u64 = frames
        .iter()
        .map(|(f, _)| f.len().div_ceil(width.bytes()) as u64)
        .sum();
    assert_eq!(st.out_beats, beats);
    let out_rate = st.out_beats_per_cycle();
    let in_rate = st.in_beats_per_cycle();
    let lat = infos[0].latency();
    println!(
        "{width:?} sizes {sizes:?}: {n} frames, {beats} beats, in {in_rate:.4} beats/cycle, \
         out {out_rate:.4} beats/cycle, first-byte latency {lat} cycles (cfg_latency {})",
        st.cfg_latency
    );
    // steady state: no idle cycle between the first and the last output beat
    assert_eq!(st.out_beats, st.last_out_cycle - st.first_out_cycle + 1);
    assert_eq!(st.in_beats, st.last_in_cycle - st.first_in_cycle + 1);
    // constant latency, as documented by the module
    for (i, inf) in infos.iter().enumerate() {
        assert_eq!(
            inf.latency(),
            u64::from(st.cfg_latency),
            "frame {i} latency differs"
        );
    }
    (out_rate, lat)
}

fn all_sizes(width: Width, seed: u64) {
    for sizes in [
        &[64usize][..],
        &[128],
        &[512],
        &[1518],
        &[60, 64, 128, 512, 1518, 100, 1000],
    ] {
        let (rate, _) = line_rate(width, sizes, 400, seed);
        assert_eq!(rate, 1.0);
    }
}

#[test]
fn back_to_back_line_rate_and_constant_latency_w64() {
    all_sizes(Width::W64, 0x7417_0064);
}

#[test]
fn back_to_back_line_rate_and_constant_latency_w512() {
    all_sizes(Width::W512, 0x7417_0512);
}
