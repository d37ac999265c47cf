//! Fast-path throughput and latency of the integrated data path, exact cycle counts of the
//! Verilated RTL (no wall-clock timing): back-to-back frames of one established flow at
//! 64, 128, 512 and 1518 bytes into the client port, at DATA_WIDTH 64 and 512. Accepted
//! RX beats per cycle and TX beats per cycle must be 1.00 (line rate); the first-byte-in to
//! first-byte-out latency is printed (`cargo xtask bench` shows these lines). Both ports
//! loaded at once are measured too: at DATA_WIDTH 512 with 64-byte frames the shared
//! decision pipeline (one header per cycle) limits each port to 0.5.

mod common;

use common::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use splicenic_tb_datapath::{Datapath, Port};

const FRAMES: usize = 2000;

/// (rx beats/cycle, tx beats/cycle, first-byte latency of the first frame, of the last)
fn run(width: u32, len: usize, both: bool) -> Vec<(f64, f64, u64, u64)> {
    let mut dp = Datapath::new(width).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(len as u64);
    configure(&mut dp);
    let f = Flow::sample(3);
    install(&mut dp, &f);
    let ports: &[Port] = if both {
        &[Port::Client, Port::Server]
    } else {
        &[Port::Client]
    };
    let frames: Vec<Vec<Vec<u8>>> = ports
        .iter()
        .map(|p| {
            (0..FRAMES)
                .map(|_| sized_frame(&mut rng, &f, *p, len))
                .collect()
        })
        .collect();
    dp.tick(16);
    dp.reset_stats();
    for (p, fr) in ports.iter().zip(&frames) {
        for b in fr {
            dp.push(*p, b, false);
        }
    }
    assert!(dp.settle(400, 50_000_000), "did not drain");
    ports
        .iter()
        .map(|p| {
            let rx = dp.port_stats(*p);
            let out = dp.drain(p.other());
            assert_eq!(out.len(), FRAMES, "all frames forwarded");
            let tx = dp.port_stats(p.other());
            // cycle of the first frame's first accepted beat
            let first_in = rx.rx_first_cycle;
            let lat_first = out[0].first_cycle - first_in;
            // last frame: its first beat went in (FRAMES-1)*beats after the first one at
            // line rate; measured from the shim's accepted-beat clock
            let beats = len.div_ceil(dp.beat_bytes()) as u64;
            let last_in = first_in + (FRAMES as u64 - 1) * beats;
            let lat_last = out[FRAMES - 1].first_cycle.saturating_sub(last_in);
            (
                rx.rx_beats_per_cycle(),
                tx.tx_beats_per_cycle(),
                lat_first,
                lat_last,
            )
        })
        .collect()
}

fn line_rate(width: u32) {
    for len in [64usize, 128, 512, 1518] {
        let r = run(width, len, false);
        let (rx, tx, l0, l1) = r[0];
        println!(
            "data path DATA_WIDTH {width}: {len:>4}-byte frames x{FRAMES}, one port: \
             rx {rx:.4} beats/cycle, tx {tx:.4} beats/cycle, first byte in -> out {l0} cycles \
             (last frame {l1})"
        );
        assert!(
            rx > 0.999 && tx > 0.999,
            "line rate at {len} bytes: rx {rx} tx {tx}"
        );
        let r = run(width, len, true);
        for (p, (rx, tx, _, _)) in ["C->S", "S->C"].iter().zip(&r) {
            println!(
                "data path DATA_WIDTH {width}: {len:>4}-byte frames x{FRAMES}, both ports, {p}: \
                 rx {rx:.4} beats/cycle, tx {tx:.4} beats/cycle"
            );
        }
        if !(width == 512 && len == 64) {
            assert!(r.iter().all(|(rx, tx, _, _)| *rx > 0.999 && *tx > 0.999));
        }
    }
}

#[test]
fn line_rate_64() {
    line_rate(64);
}

#[test]
fn line_rate_512() {
    line_rate(512);
}
