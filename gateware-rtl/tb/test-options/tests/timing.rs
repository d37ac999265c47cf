//! Latency, throughput and back-pressure of the decoder: every result is valid exactly
//! TCP_OPT_LATENCY cycles after its segment was accepted when the result port is free,
//! whatever the options are; one segment per cycle with both sides always ready (s_ready
//! never drops); with the result port blocked, s_ready drops after 16 segments and no
//! result is lost or reordered.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_layout::TCP_OPT_LATENCY;
use splicenic_tb_options::testkit::{area, gen_window, walk, CLASSES};
use splicenic_tb_options::{run, Inputs, OptDecoder, Stalls, Window};

fn windows(n: usize, seed: u64) -> Vec<Window> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|i| gen_window(&mut rng, CLASSES[i % CLASSES.len()]))
        .collect()
}

#[test]
fn fixed_latency_and_one_segment_per_cycle() {
    let ws = windows(5_000, 0x7a11);
    let mut m = OptDecoder::new().expect("model");
    let mut rng = StdRng::seed_from_u64(1);
    let (out, st) = run(&mut m, &ws, Stalls::NONE, &mut rng).expect("run");
    assert_eq!(st.input_stalls, 0, "s_ready dropped with m_ready high");
    assert_eq!(st.output_stalls, 0);
    assert_eq!(st.cycles, ws.len() as u64 + u64::from(TCP_OPT_LATENCY));
    for (w, d) in ws.iter().zip(&out) {
        assert_eq!(d.latency, u64::from(TCP_OPT_LATENCY));
        assert_eq!(d.opts, walk(area(w)));
    }
}

#[test]
fn blocked_results_hold_sixteen_segments() {
    let ws = windows(40, 0xb10c);
    let mut m = OptDecoder::new().expect("model");
    let mut rng = StdRng::seed_from_u64(2);
    let mut accepted = 0usize;
    let mut got = Vec::new();
    // result port blocked for 60 cycles with a segment offered every cycle, then taken
    // at random; offers go on until all 40 are in
    for cycle in 0..2_000 {
        let ready = cycle >= 60 && rng.gen_bool(0.5);
        let offer = accepted < ws.len();
        let w = ws[accepted.min(ws.len() - 1)];
        let o = m
            .step(&Inputs {
                s_valid: u32::from(offer),
                opt_len: u32::from(w.len),
                opt: w.bytes,
                tag: accepted as u32,
                m_ready: u32::from(ready),
                ..Inputs::default()
            })
            .expect("step");
        if offer && o.s_ready != 0 {
            accepted += 1;
        }
        if cycle == 59 {
            assert_eq!(
                accepted, 16,
                "segments accepted with the result port blocked"
            );
        }
        if o.m_valid != 0 && ready {
            got.push((o.tag, o.record()));
        }
    }
    assert_eq!(got.len(), ws.len());
    for (i, (tag, opts)) in got.iter().enumerate() {
        assert_eq!(*tag as usize, i, "results in order");
        assert_eq!(*opts, walk(area(&ws[i])));
    }
}
