//! eth_tcp_parser against the etherparse-based software reference (`testkit`), at
//! DATA_WIDTH 64 and 512, seed-fixed.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_parser::testkit::{bad_frame, check, reference, valid_frame};
use splicenic_tb_parser::{reason, Error, Frame, Parser, RunConfig, Width};

const WIDTHS: [Width; 2] = [Width::W64, Width::W512];

fn run_checked(p: &mut Parser, frames: &[Frame], cfg: &RunConfig) -> [u64; 16] {
    let (outs, stats) = p
        .run(frames, cfg)
        .unwrap_or_else(|e| panic!("{:?}: run failed: {e}", p.width()));
    assert_eq!(outs.len(), frames.len());
    let mut hist = [0u64; 16];
    for (i, (f, o)) in frames.iter().zip(&outs).enumerate() {
        if let Err(e) = check(f, o) {
            panic!("{:?} frame #{i}: {e}", p.width());
        }
        hist[usize::from(o.header.reason)] += 1;
    }
    // one stat_event pulse per frame, on the right reason bit
    assert_eq!(
        stats.events,
        hist,
        "{:?}: stat_event pulses per reason",
        p.width()
    );
    hist
}

#[test]
fn valid_frames_match_etherparse() {
    for w in WIDTHS {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0001);
        let mut p = Parser::new(w).expect("model");
        let frames: Vec<Frame> = (0..2500)
            .map(|_| Frame::new(valid_frame(&mut rng)))
            .collect();
        for f in &frames {
            assert_eq!(
                reference(f).reason,
                reason::OK,
                "generator made a bad frame"
            );
        }
        let hist = run_checked(&mut p, &frames, &RunConfig::line_rate(10_000_000));
        assert_eq!(hist[0], 2500);
    }
}

/// Mutated, truncated and other-protocol frames alternate with valid ones: every verdict
/// matches the reference, and the valid frame after each bad one parses correctly.
#[test]
fn bad_frames_verdicts_and_draining() {
    for w in WIDTHS {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0002);
        let mut p = Parser::new(w).expect("model");
        let mut total = [0u64; 16];
        // 6 batches x 1000 frames = 6000 frames per width (3000 bad, 3000 good)
        for _ in 0..6 {
            let mut frames = Vec::new();
            for _ in 0..500 {
                frames.push(bad_frame(&mut rng));
                frames.push(Frame::new(valid_frame(&mut rng)));
            }
            let hist = run_checked(&mut p, &frames, &RunConfig::line_rate(10_000_000));
            for (t, h) in total.iter_mut().zip(hist) {
                *t += h;
            }
        }
        println!("{w:?}: frames per reason code {total:?}");
        // every reason of the enum was exercised
        for r in 0..=reason::TCP_DOFF {
            assert!(
                total[usize::from(r)] > 0,
                "{w:?}: reason {r} never produced"
            );
        }
        assert!(total[0] >= 3000);
    }
}

/// Random gaps on the input and random back-pressure on both outputs: same results.
#[test]
fn backpressure_keeps_order_and_results() {
    for w in WIDTHS {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0003);
        let mut p = Parser::new(w).expect("model");
        let frames: Vec<Frame> = (0..1500)
            .map(|_| {
                if rng.gen_bool(0.5) {
                    bad_frame(&mut rng)
                } else {
                    Frame::new(valid_frame(&mut rng))
                }
            })
            .collect();
        let cfg = RunConfig {
            max_cycles: 20_000_000,
            in_valid_pct: 70,
            out_ready_pct: 60,
            hdr_ready_pct: 50,
            seed: 7,
        };
        run_checked(&mut p, &frames, &cfg);
    }
}

/// A consumer that never takes headers stalls the pipeline: the harness reports it as an
/// error within the cycle limit (no hang), and after a reset the model works again.
#[test]
fn stall_is_reported_and_reset_recovers() {
    for w in WIDTHS {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0004);
        let mut p = Parser::new(w).expect("model");
        let frames: Vec<Frame> = (0..10).map(|_| Frame::new(valid_frame(&mut rng))).collect();
        let cfg = RunConfig {
            hdr_ready_pct: 0,
            ..RunConfig::line_rate(5_000)
        };
        match p.run(&frames, &cfg) {
            Err(Error::Stall { hdrs: 0, .. }) => {}
            other => panic!("{w:?}: expected a stall, got {other:?}"),
        }
        p.reset();
        run_checked(&mut p, &frames, &RunConfig::line_rate(100_000));
    }
}
