//! Line rate: back-to-back frames with tvalid always high and both consumers always ready
//! must be accepted at exactly one beat per cycle, for 64, 128, 512 and 1518-byte frames at
//! DATA_WIDTH 64 and 512. Also reports the header latency.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use splicenic_tb_parser::testkit::{check, valid_frame_with};
use splicenic_tb_parser::{Frame, Parser, RunConfig, Width};

const FRAMES: usize = 300;

#[test]
fn back_to_back_frames_at_one_beat_per_cycle() {
    for w in [Width::W64, Width::W512] {
        let mut p = Parser::new(w).expect("model");
        for size in [64usize, 128, 512, 1518] {
            let mut rng = ChaCha8Rng::seed_from_u64(size as u64);
            // Ethernet 14 + IPv4 20 + TCP 20 = 54 header bytes, the rest payload
            let frames: Vec<Frame> = (0..FRAMES)
                .map(|_| Frame::new(valid_frame_with(&mut rng, false, false, size - 54)))
                .collect();
            assert!(frames.iter().all(|f| f.bytes.len() == size));
            let (outs, st) = p
                .run(&frames, &RunConfig::line_rate(10_000_000))
                .expect("run");
            for (f, o) in frames.iter().zip(&outs) {
                check(f, o).unwrap_or_else(|e| panic!("{w:?} {size} B: {e}"));
            }
            let beats_per_frame = size.div_ceil(w.bytes()) as u64;
            assert_eq!(st.in_beats, beats_per_frame * FRAMES as u64);
            let bpc = st.beats_per_cycle();
            let lat_min = outs.iter().map(|o| o.latency).min().unwrap_or(0);
            let lat_max = outs.iter().map(|o| o.latency).max().unwrap_or(0);
            println!(
                "DATA_WIDTH {:>3}, {size:>4} B frames: {} beats in {} cycles = {bpc:.2} beats/cycle; \
                 header latency {lat_min}..{lat_max} cycles after the last beat",
                w.bits(),
                st.in_beats,
                st.last_in_cycle - st.first_in_cycle + 1,
            );
            assert!(bpc == 1.0, "{w:?} {size} B: {bpc} beats/cycle");
            assert_eq!((lat_min, lat_max), (3, 3), "header latency is fixed");
            let first = st.first_out_cycle - st.first_in_cycle;
            println!("    first byte in to first byte out: {first} cycles");
            assert_eq!(first, 3);
        }
    }
}
