//! Randomised differential test: every result of the RTL equals the reference for its
//! option list: etherparse's option iterator when it reads the whole list (EOL, NOP and
//! the known kinds of the right lengths), else the test's own Linux-behaviour walker
//! (`testkit::walk`), which is also checked against etherparse wherever etherparse
//! answers. Random kinds, orders, NOP padding, unknown kinds, malformed lengths, areas of
//! 0 to 40 bytes with garbage past them; random valid/ready stalls. The decoder takes the
//! parser's option window, which does not depend on the stream width: one build serves
//! DATA_WIDTH 64 and 512. The seed is printed; OPT_TB_SEED=<n> reruns one.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_tb_options::testkit::{
    area, etherparse_reference, gen_window, walk, Class, Etherparse, CLASSES,
};
use splicenic_tb_options::{run, OptDecoder, Stalls, Window};
use std::collections::BTreeMap;

/// Option lists of the run.
const LISTS: usize = 250_000;
/// Lists per batch (one stall pattern each).
const BATCH: usize = 2_500;
const DEFAULT_SEED: u64 = 0x0b7d_ec0d_e500_0001;

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[derive(Default, Debug)]
struct Coverage {
    by_class: BTreeMap<String, usize>,
    vs_etherparse: usize,
    vs_walker: usize,
    malformed: usize,
    unknown: usize,
    mss: usize,
    ws: usize,
    sack_perm: usize,
    ts: usize,
    sack: usize,
    input_stalls: u64,
    output_stalls: u64,
}

#[test]
fn random_option_lists_match_the_references() {
    let seed = splicenic_fuzzkit::env_u64("OPT_TB_SEED").unwrap_or(DEFAULT_SEED);
    println!("tcp_opt_decoder differential: seed {seed:#x} (OPT_TB_SEED), {LISTS} lists");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut m = OptDecoder::new().expect("model");
    let mut cov = Coverage::default();
    let mut done = 0;
    while done < LISTS {
        let n = BATCH.min(LISTS - done);
        let mut windows: Vec<(Class, Window)> = Vec::with_capacity(n);
        for _ in 0..n {
            let c = CLASSES[rng.gen_range(0..CLASSES.len())];
            windows.push((c, gen_window(&mut rng, c)));
        }
        let stalls = match rng.gen_range(0..4) {
            0 => Stalls::NONE,
            1 => Stalls {
                valid_pct: 100,
                ready_pct: rng.gen_range(5..60),
            },
            2 => Stalls {
                valid_pct: rng.gen_range(5..60),
                ready_pct: 100,
            },
            _ => Stalls {
                valid_pct: rng.gen_range(10..100),
                ready_pct: rng.gen_range(10..100),
            },
        };
        let ws: Vec<Window> = windows.iter().map(|(_, w)| *w).collect();
        let (got, st) = run(&mut m, &ws, stalls, &mut rng).expect("run");
        cov.input_stalls += st.input_stalls;
        cov.output_stalls += st.output_stalls;
        assert_eq!(got.len(), n);
        for (i, ((class, w), d)) in windows.iter().zip(&got).enumerate() {
            let a = area(w);
            let model = walk(a);
            let expected = match etherparse_reference(a) {
                Etherparse::WellFormed(e) => {
                    assert_eq!(model, e, "walker vs etherparse on [{}]", hex(a));
                    cov.vs_etherparse += 1;
                    e
                }
                Etherparse::UnknownKind => {
                    assert!(model.unknown || model.malformed, "[{}]", hex(a));
                    cov.vs_walker += 1;
                    model
                }
                Etherparse::Malformed => {
                    assert!(model.malformed, "walker vs etherparse on [{}]", hex(a));
                    cov.vs_walker += 1;
                    model
                }
            };
            assert_eq!(
                d.opts,
                expected,
                "seed {seed:#x} list {}: class {class:?}, len {}, area [{}], window [{}]",
                done + i,
                w.len,
                hex(a),
                hex(&w.bytes)
            );
            *cov.by_class.entry(format!("{class:?}")).or_default() += 1;
            cov.malformed += usize::from(expected.malformed);
            cov.unknown += usize::from(expected.unknown);
            cov.mss += usize::from(expected.mss);
            cov.ws += usize::from(expected.ws);
            cov.sack_perm += usize::from(expected.sack_perm);
            cov.ts += usize::from(expected.ts);
            cov.sack += usize::from(expected.sack);
        }
        done += n;
    }
    println!("{cov:#?}");
    assert_eq!(cov.vs_etherparse + cov.vs_walker, LISTS);
    // every class and outcome was exercised in quantity
    assert!(cov.vs_etherparse > LISTS / 4 && cov.vs_walker > LISTS / 4);
    for c in [
        cov.malformed,
        cov.unknown,
        cov.mss,
        cov.ws,
        cov.sack_perm,
        cov.ts,
        cov.sack,
    ] {
        assert!(c > LISTS / 50, "{cov:#?}");
    }
    assert!(cov.input_stalls > 0 && cov.output_stalls > 0);
}
