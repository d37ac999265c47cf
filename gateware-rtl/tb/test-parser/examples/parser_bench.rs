//! Randomized parser benchmark: 100,000 frames per width (half valid, half mutated /
//! truncated / other protocols, each checked against the etherparse-based reference), then
//! line-rate throughput and latency for 64, 128, 512 and 1518-byte frames.
//!
//! Run: `cargo run --release -p splicenic-tb-parser --example parser_bench [FRAMES]`

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_parser::testkit::{bad_frame, check, valid_frame, valid_frame_with};
use splicenic_tb_parser::{Frame, Parser, RunConfig, Width};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let total: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let mut failed = false;
    for w in [Width::W64, Width::W512] {
        let mut p = match Parser::new(w) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{w:?}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let mut rng = ChaCha8Rng::seed_from_u64(0xbe9c_0000 + u64::from(w.bits()));
        let (mut done, mut bad, mut cycles, mut beats) = (0usize, 0usize, 0u64, 0u64);
        let t0 = Instant::now();
        while done < total {
            let n = (total - done).min(5000);
            let frames: Vec<Frame> = (0..n)
                .map(|_| {
                    if rng.gen_bool(0.5) {
                        bad_frame(&mut rng)
                    } else {
                        Frame::new(valid_frame(&mut rng))
                    }
                })
                .collect();
            match p.run(&frames, &RunConfig::line_rate(100_000_000)) {
                Ok((outs, st)) => {
                    for (f, o) in frames.iter().zip(&outs) {
                        if let Err(e) = check(f, o) {
                            eprintln!("{w:?}: MISMATCH: {e}");
                            failed = true;
                        }
                        bad += usize::from(!o.header.ok);
                    }
                    cycles += st.cycles;
                    beats += st.in_beats;
                }
                Err(e) => {
                    eprintln!("{w:?}: {e}");
                    return ExitCode::FAILURE;
                }
            }
            done += n;
        }
        println!(
            "DATA_WIDTH {:>3}: {done} frames ({bad} not OK) checked against the reference, \
             {beats} beats in {cycles} cycles, {:.1} s",
            w.bits(),
            t0.elapsed().as_secs_f64()
        );
        for size in [64usize, 128, 512, 1518] {
            let frames: Vec<Frame> = (0..1000)
                .map(|_| Frame::new(valid_frame_with(&mut rng, false, false, size - 54)))
                .collect();
            match p.run(&frames, &RunConfig::line_rate(10_000_000)) {
                Ok((outs, st)) => {
                    let lat = outs.iter().map(|o| o.latency).max().unwrap_or(0);
                    println!(
                        "DATA_WIDTH {:>3}, {size:>4} B back to back: {:.2} beats/cycle, \
                         first byte in -> out {} cycles, last beat in -> header {lat} cycles",
                        w.bits(),
                        st.beats_per_cycle(),
                        st.first_out_cycle - st.first_in_cycle
                    );
                }
                Err(e) => {
                    eprintln!("{w:?}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
