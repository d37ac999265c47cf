//! The decoder behind the parser, as the data path will use it: etherparse-built
//! Ethernet/IPv4/TCP frames (random option lists of whole words, random payloads) go as
//! AXI-Stream beats through eth_tcp_parser at DATA_WIDTH 64 and 512, whose option window
//! feeds tcp_opt_decoder (100,000 frames per width); every frame is a well-formed TCP
//! segment for the parser, and its decoded options equal the reference of its option
//! bytes. Random result-port stalls per run of 10,000 frames. The seed is printed;
//! OPT_TB_SEED=<n> reruns one.

use etherparse::PacketBuilder;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_layout::parser_reason;
use splicenic_tb_options::testkit::CLASSES;
use splicenic_tb_options::testkit::{area, etherparse_reference, gen_window, walk, Etherparse};
use splicenic_tb_options::{through_parser, PARSER_WIDTHS};

/// Frames per width.
const FRAMES: usize = 100_000;
/// Frames per run (one result-port stall pattern each).
const RUN: usize = 10_000;
const DEFAULT_SEED: u64 = 0x0b7d_ec0d_e500_0002;

#[test]
fn frames_through_the_parser_at_both_widths() {
    let seed = splicenic_fuzzkit::env_u64("OPT_TB_SEED").unwrap_or(DEFAULT_SEED);
    for width in PARSER_WIDTHS {
        println!("parser + decoder, DATA_WIDTH {width}: seed {seed:#x}, {FRAMES} frames");
        let mut rng = StdRng::seed_from_u64(seed ^ u64::from(width));
        let mut frames = Vec::with_capacity(FRAMES);
        let mut areas = Vec::with_capacity(FRAMES);
        while frames.len() < FRAMES {
            let class = CLASSES[rng.gen_range(0..CLASSES.len())];
            let mut w = gen_window(&mut rng, class);
            w.len &= !3; // a data offset gives whole words
            let a = area(&w).to_vec();
            let payload: Vec<u8> = (0..rng.gen_range(0..120)).map(|_| rng.gen()).collect();
            let b = PacketBuilder::ethernet2(rng.gen(), rng.gen())
                .ipv4(rng.gen(), rng.gen(), 64)
                .tcp(rng.gen(), rng.gen(), rng.gen(), rng.gen())
                .options_raw(&a)
                .expect("whole words");
            let mut f = Vec::with_capacity(b.size(payload.len()));
            b.write(&mut f, &payload).expect("frame");
            frames.push(f);
            areas.push(a);
        }
        let mut got = Vec::with_capacity(FRAMES);
        for chunk in frames.chunks(RUN) {
            let ready = [100, rng.gen_range(5..50), rng.gen_range(50..100)][rng.gen_range(0..3)];
            got.extend(through_parser(width, chunk, ready, rng.gen()).expect("run"));
        }
        assert_eq!(got.len(), FRAMES);
        let mut vs_etherparse = 0;
        for (i, (a, g)) in areas.iter().zip(&got).enumerate() {
            assert_eq!(g.reason, parser_reason::OK, "frame {i}");
            assert_eq!(usize::from(g.data_offset), 5 + a.len() / 4, "frame {i}");
            let want = match etherparse_reference(a) {
                Etherparse::WellFormed(e) => {
                    vs_etherparse += 1;
                    e
                }
                _ => walk(a),
            };
            assert_eq!(
                g.opts, want,
                "DATA_WIDTH {width}, seed {seed:#x}, frame {i}, options {a:02x?}"
            );
        }
        println!("  {vs_etherparse} checked against etherparse, the rest against the walker");
    }
}
