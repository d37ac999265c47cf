//! Fast-path throughput and latency of the integrated data path, exact cycle counts of the
//! Verilated RTL (no wall-clock timing): back-to-back frames of one established flow at
//! 64, 128, 256, 512, 1024 and 1518 bytes and a simple IMIX (7 x 64, 4 x 594, 1 x 1518
//! bytes, repeated) into the client port, at DATA_WIDTH 64 and 512. Accepted RX beats per
//! cycle and TX beats per cycle must be 1.00 (line rate; for the IMIX see `check`); the
//! first-byte-in to first-byte-out latency is printed (`cargo xtask bench` shows these
//! lines), with frames per cycle and the Ethernet wire rate those frames make at a clock of
//! `$SPLICENIC_FMAX_MHZ` (default 156.25). Both ports loaded at once are measured too: at
//! DATA_WIDTH 512 with 64-byte frames the shared decision pipeline (one header per cycle)
//! limits each port to 0.5.
//!
//! With `$SPLICENIC_BENCH_DIR` set, the figures also go to `$SPLICENIC_BENCH_DIR/datapath.json`
//! (the format of `splicenic_hil::bench_out`, read by `cargo xtask bench`'s report).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use splicenic_driver::regs;
use splicenic_layout::AGE_MIN_INTERVAL;
use splicenic_tb_datapath::testkit::*;
use splicenic_tb_datapath::{Datapath, Port};

/// Frames per run for the fixed sizes.
const FRAMES: usize = 2000;
/// One IMIX period: 7 x 64, 4 x 594, 1 x 1518 bytes, in this order.
const IMIX: [usize; 12] = [64, 64, 64, 64, 64, 64, 64, 594, 594, 594, 594, 1518];
/// IMIX periods per run (2004 frames, a whole number of periods).
const IMIX_PERIODS: usize = FRAMES.div_ceil(IMIX.len());
/// Frame sizes measured one at a time.
const SIZES: [usize; 6] = [64, 128, 256, 512, 1024, 1518];
/// Ethernet overhead per frame not in the AXI stream: FCS (4; the stream frames are as the
/// MAC hands them over, without FCS), preamble and SFD (8), inter-frame gap (12).
const WIRE_OVERHEAD: usize = 4 + 8 + 12;
/// The command that prints these figures (recorded in the JSON).
const COMMAND: &str =
    "cargo test --release -p splicenic-tb-datapath --test throughput -- --nocapture";

/// The frames of a run: one size, or the IMIX.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mix {
    Size(usize),
    Imix,
}

impl Mix {
    /// Frame lengths (bytes in the AXI stream), in the order sent.
    fn lens(self) -> Vec<usize> {
        match self {
            Mix::Size(n) => vec![n; FRAMES],
            Mix::Imix => IMIX.repeat(IMIX_PERIODS),
        }
    }

    /// Mean frame length (the x of the IMIX point in the series).
    fn mean_len(self) -> f64 {
        let l = self.lens();
        l.iter().sum::<usize>() as f64 / l.len() as f64
    }

    /// Key part: `size64`, `sizeimix`.
    fn key(self) -> String {
        match self {
            Mix::Size(n) => format!("size{n}"),
            Mix::Imix => "sizeimix".into(),
        }
    }

    /// The printed `  64-byte frames x2000` part.
    fn line(self) -> String {
        match self {
            Mix::Size(n) => format!("{n:>4}-byte frames x{FRAMES}"),
            Mix::Imix => format!("     IMIX frames x{}", IMIX.len() * IMIX_PERIODS),
        }
    }

    /// For labels: `64-byte frames`, `IMIX frames (7 x 64, 4 x 594, 1 x 1518 bytes)`.
    fn label(self) -> String {
        match self {
            Mix::Size(n) => format!("{n}-byte frames"),
            Mix::Imix => "IMIX frames (7 x 64, 4 x 594, 1 x 1518 bytes)".into(),
        }
    }

    /// How the figures were obtained.
    fn how(self) -> String {
        match self {
            Mix::Size(_) => format!(
                "{FRAMES} back-to-back frames of one spliced flow, Verilated RTL cycle count"
            ),
            Mix::Imix => format!(
                "{} back-to-back IMIX frames (7 x 64, 4 x 594, 1 x 1518 bytes, repeated) of one \
                 spliced flow, Verilated RTL cycle count; TX rates include the one-time wait \
                 for the first 1518-byte frame (store-and-forward), no queue builds up",
                IMIX.len() * IMIX_PERIODS
            ),
        }
    }
}

/// The figures of one direction of a run.
#[derive(Clone, Copy, Debug)]
struct Dir {
    /// Accepted RX beats per cycle.
    rx: f64,
    /// TX beats per cycle.
    tx: f64,
    /// Frames sent per cycle (TX frames over the TX span, first to last beat).
    frames: f64,
    /// Ethernet wire bits per cycle of the frames sent (see `wire_bits`).
    wire_bits: f64,
    /// Cycles of the TX span (first to last TX beat) without a TX beat.
    tx_idle: u64,
    /// First-byte latency of the first frame, of the last (assuming line-rate input, as in
    /// the one-port cases).
    lat_first: u64,
    lat_last: u64,
    /// Largest first-byte latency over all frames; exact when the input had no gaps (every
    /// frame's first beat then went in at a known cycle), else `None`.
    lat_max: Option<u64>,
}

/// One run: (width, mix, both ports) and its directions (C->S, then S->C with both ports).
struct Case {
    width: u32,
    mix: Mix,
    both: bool,
    dirs: Vec<Dir>,
}

impl Case {
    /// Per-port figure of the case: the lower rate (higher latency) of the directions.
    fn worst(&self) -> Dir {
        let mut w = self.dirs[0];
        for d in &self.dirs[1..] {
            w.rx = w.rx.min(d.rx);
            w.tx = w.tx.min(d.tx);
            w.frames = w.frames.min(d.frames);
            w.wire_bits = w.wire_bits.min(d.wire_bits);
            w.tx_idle = w.tx_idle.max(d.tx_idle);
            w.lat_first = w.lat_first.max(d.lat_first);
            w.lat_last = w.lat_last.max(d.lat_last);
            w.lat_max = w.lat_max.zip(d.lat_max).map(|(a, b)| a.max(b));
        }
        w
    }
}

/// The clock the Gb/s figures are given at (MHz): `$SPLICENIC_FMAX_MHZ`, default the card's
/// clock (`CLK_HZ`, 156.25 MHz).
fn fmax_mhz() -> f64 {
    std::env::var("SPLICENIC_FMAX_MHZ")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|f: &f64| *f > 0.0)
        .unwrap_or(f64::from(splicenic_layout::CLK_HZ) / 1e6)
}

/// Wire rate of the frames a port sent, in bits per cycle (exact, from cycle counts).
///
/// A stream frame of L bytes occupies L + 24 byte times on an Ethernet link (FCS 4,
/// preamble and SFD 8, inter-frame gap 12; `WIRE_OVERHEAD`). Over the TX span (first to
/// last TX beat, `span` cycles) the port sent the frames `lens`, so it carried
/// sum((L_i + 24) * 8) / span wire bits per cycle. At a clock of F MHz that is
/// wire_bits * F / 1000 Gb/s. The port's own rate is DATA_WIDTH * F (one beat per cycle;
/// 64 bits x 156.25 MHz = 10 Gb/s, the 10GbE MAC interface), so
/// wire_bits / DATA_WIDTH is the fraction of that link's line rate the data path keeps
/// up with: 1.0 or more means it forwards these frames as fast as such a link brings
/// them. It can exceed 1 (small frames: preamble and gap cost wire time but no beats) and
/// fall below 1 at one beat per cycle (a partly filled last beat costs a whole cycle).
fn wire_bits(lens: &[usize], span: u64) -> f64 {
    let bits: usize = lens.iter().map(|l| (l + WIRE_OVERHEAD) * 8).sum();
    bits as f64 / span as f64
}

fn run(width: u32, mix: Mix, both: bool) -> Vec<Dir> {
    let mut dp = Datapath::new(width).expect("model");
    let seed = match mix {
        Mix::Size(n) => n as u64,
        Mix::Imix => 0x1313,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    configure(&mut dp);
    let f = Flow::sample(3);
    install(&mut dp, &f);
    // the aging scanner walking at its fastest, as on a card (its READs share the flow
    // state's update pipeline with the packets' counter updates); nothing expires
    for i in 0..regs::dp::AGE_TIMEOUT_COUNT as u64 {
        dp.write(
            r(regs::dp::AGE_TIMEOUT + regs::dp::AGE_TIMEOUT_STRIDE * i),
            0x7fff_0000,
        );
    }
    dp.write(
        r(regs::dp::AGE_CTRL),
        1 << regs::dp::age_ctrl::ENABLE_SHIFT
            | AGE_MIN_INTERVAL << regs::dp::age_ctrl::INTERVAL_SHIFT,
    );
    let ports: &[Port] = if both {
        &[Port::Client, Port::Server]
    } else {
        &[Port::Client]
    };
    let lens = mix.lens();
    let n = lens.len();
    let frames: Vec<Vec<Vec<u8>>> = ports
        .iter()
        .map(|p| {
            lens.iter()
                .map(|len| sized_frame(&mut rng, &f, *p, *len))
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
    // every frame counted in the flow's entry: no update lost to the scanner's READs
    assert_eq!(dp.read(r(regs::dp::UPD_DROPS)), 0, "flow updates dropped");
    let d = read_dyn(&mut dp, f.slot);
    assert_eq!(
        (d.packets_cs, d.packets_sc),
        (n as u32, if both { n as u32 } else { 0 }),
        "the flow's packet counters"
    );
    assert!(
        dp.read(r(regs::dp::AGE_POS)) > 0 || dp.read(r(regs::dp::AGE_SWEEPS)) > 0,
        "the scanner walked"
    );
    let bb = dp.beat_bytes();
    // cycle offset of each frame's first beat from the first frame's, at line rate
    let starts: Vec<u64> = lens
        .iter()
        .scan(0u64, |at, l| {
            let s = *at;
            *at += l.div_ceil(bb) as u64;
            Some(s)
        })
        .collect();
    ports
        .iter()
        .map(|p| {
            let rx = dp.port_stats(*p);
            let out = dp.drain(p.other());
            assert_eq!(out.len(), n, "all frames forwarded");
            let tx = dp.port_stats(p.other());
            assert_eq!(tx.tx_frames, n as u64);
            // cycle of the first frame's first accepted beat
            let first_in = rx.rx_first_cycle;
            let lat_first = out[0].first_cycle - first_in;
            // last frame: its first beat went in the beats of all frames before it after
            // the first one at line rate; measured from the shim's accepted-beat clock
            let last_in = first_in + starts[n - 1];
            let lat_last = out[n - 1].first_cycle.saturating_sub(last_in);
            // no gaps in the input: every frame went in at first_in + starts[i]
            let gapless = rx.rx_beats == rx.rx_last_cycle - rx.rx_first_cycle + 1;
            let lat_max = gapless.then(|| {
                out.iter()
                    .zip(&starts)
                    .map(|(o, s)| o.first_cycle - (first_in + s))
                    .max()
                    .expect("frames")
            });
            let span = tx.tx_last_cycle - tx.tx_first_cycle + 1;
            Dir {
                rx: rx.rx_beats_per_cycle(),
                tx: tx.tx_beats_per_cycle(),
                frames: tx.tx_frames as f64 / span as f64,
                wire_bits: wire_bits(&lens, span),
                tx_idle: span - tx.tx_beats,
                lat_first,
                lat_last,
                lat_max,
            }
        })
        .collect()
}

/// Every case of one width, in print order: each mix one port, then both ports.
fn cases(width: u32) -> Vec<Case> {
    let mixes = SIZES.iter().map(|n| Mix::Size(*n)).chain([Mix::Imix]);
    let mut v = Vec::new();
    for mix in mixes {
        for both in [false, true] {
            v.push(Case {
                width,
                mix,
                both,
                dirs: run(width, mix, both),
            });
        }
    }
    v
}

/// The printed lines of a case.
fn print(c: &Case, fmax: f64) {
    let (w, m) = (c.width, c.mix.line());
    let port_gbps = f64::from(w) * fmax / 1000.0;
    let wire = |d: &Dir| {
        let gbps = d.wire_bits * fmax / 1000.0;
        format!(
            "{:.4} frames/cycle, wire {gbps:.2} Gb/s at {fmax} MHz = {:.3} of the port's \
             {port_gbps:.2} Gb/s, tx idle {} cycles",
            d.frames,
            d.wire_bits / f64::from(w),
            d.tx_idle
        )
    };
    if !c.both {
        let d = &c.dirs[0];
        println!(
            "data path DATA_WIDTH {w}: {m}, one port: rx {:.4} beats/cycle, tx {:.4} \
             beats/cycle, first byte in -> out {} cycles (last frame {})",
            d.rx, d.tx, d.lat_first, d.lat_last
        );
        let max = d.lat_max.map_or(String::new(), |l| {
            format!(", first byte in -> out at most {l} cycles")
        });
        println!("data path DATA_WIDTH {w}: {m}, one port: {}{max}", wire(d));
    } else {
        for (p, d) in ["C->S", "S->C"].iter().zip(&c.dirs) {
            println!(
                "data path DATA_WIDTH {w}: {m}, both ports, {p}: rx {:.4} beats/cycle, tx {:.4} \
                 beats/cycle",
                d.rx, d.tx
            );
            println!(
                "data path DATA_WIDTH {w}: {m}, both ports, {p}: {}, first byte in -> out {} \
                 cycles",
                wire(d),
                d.lat_first
            );
        }
    }
}

/// Line rate where the design gives it: everywhere but 64-byte frames on both ports at
/// DATA_WIDTH 512, where the shared decision pipeline (one decision per cycle) gives each
/// port half.
///
/// With the IMIX, TX beats per cycle come out just under 1 (0.998) although no queue builds
/// up: the path is store-and-forward, so the first 1518-byte frame, behind 64-byte ones,
/// leaves its beats' worth of cycles later than a 64-byte frame would, and the TX port
/// idles that once (182 cycles at DATA_WIDTH 64). The check there: RX at line rate, and TX
/// idle no longer than that difference (plus 2 cycles of arbitration with both ports), i.e.
/// the last frame is not delayed by a queue.
fn check(c: &Case) {
    let (w, m) = (c.width, c.mix);
    let bb = w as usize / 8;
    for d in &c.dirs {
        let (rx, tx) = (d.rx, d.tx);
        if m == Mix::Imix {
            let sf = (1518usize.div_ceil(bb) - 64usize.div_ceil(bb)) as u64;
            assert!(
                rx > 0.999 && d.tx_idle <= sf + 2,
                "line rate, DATA_WIDTH {w}, IMIX, both ports {}: rx {rx}, tx idle {} cycles \
                 (store-and-forward {sf})",
                c.both,
                d.tx_idle
            );
        } else if c.both && w == 512 && m == Mix::Size(64) {
            assert!(
                rx > 0.49 && tx > 0.49,
                "half line rate, DATA_WIDTH {w}, {m:?}, both ports: rx {rx} tx {tx}"
            );
        } else {
            assert!(
                rx > 0.999 && tx > 0.999,
                "line rate, DATA_WIDTH {w}, {m:?}, both ports {}: rx {rx} tx {tx}",
                c.both
            );
        }
    }
}

fn figure(key: String, label: String, value: f64, unit: &str, kind: &str, how: &str) -> Value {
    json!({"key": key, "label": label, "value": value, "unit": unit, "kind": kind, "how": how})
}

/// The JSON of all cases (`splicenic_hil::bench_out` format).
fn bench_json(cases: &[Case], fmax: f64) -> Value {
    let mut figures = Vec::new();
    let mode = |both: bool| if both { "both_ports" } else { "one_port" };
    let mode_label = |both: bool| {
        if both {
            "both ports loaded (per port, the lower of C->S and S->C)"
        } else {
            "one port"
        }
    };
    for c in cases {
        let d = c.worst();
        let k = format!("fastpath.w{}.{}.{}", c.width, c.mix.key(), mode(c.both));
        let l = format!(
            "DATA_WIDTH {}, {}, {}",
            c.width,
            c.mix.label(),
            mode_label(c.both)
        );
        let how = c.mix.how();
        figures.push(figure(
            format!("{k}.rx_beats_per_cycle"),
            format!("fast path rx, {l}"),
            d.rx,
            "beats/cycle",
            "exact",
            &how,
        ));
        figures.push(figure(
            format!("{k}.tx_beats_per_cycle"),
            format!("fast path tx, {l}"),
            d.tx,
            "beats/cycle",
            "exact",
            &how,
        ));
        figures.push(figure(
            format!("{k}.frames_per_cycle"),
            format!("fast path frames, {l}"),
            d.frames,
            "frames/cycle",
            "exact",
            &how,
        ));
        figures.push(figure(
            format!("{k}.latency_cycles"),
            format!("fast path latency, first byte in to out, first frame, {l}"),
            d.lat_first as f64,
            "cycles",
            "exact",
            &how,
        ));
        // the largest latency differs from the first frame's only with the mix (it is the
        // 1518-byte frames'); for one size the printed lines show it equal
        if let (Mix::Imix, Some(m)) = (c.mix, d.lat_max) {
            figures.push(figure(
                format!("{k}.latency_max_cycles"),
                format!("fast path latency, first byte in to out, largest over all frames, {l}"),
                m as f64,
                "cycles",
                "exact",
                &how,
            ));
        }
        figures.push(figure(
            format!("{k}.wire_rate_fraction"),
            format!("fast path wire rate as a fraction of DATA_WIDTH x clock, {l}"),
            d.wire_bits / f64::from(c.width),
            "of line rate",
            "exact",
            &format!(
                "{how}; Ethernet wire bits (frame + 4 FCS + 8 preamble + 12 gap bytes) per TX \
                 cycle / DATA_WIDTH"
            ),
        ));
        figures.push(figure(
            format!("{k}.wire_gbps"),
            format!("fast path wire rate at {fmax} MHz, {l}"),
            d.wire_bits * fmax / 1000.0,
            "Gb/s",
            "projected",
            &format!(
                "{how}; Ethernet wire bits (frame + 4 FCS + 8 preamble + 12 gap bytes) per TX \
                 cycle x {fmax} MHz"
            ),
        ));
    }
    let mut series = Vec::new();
    for w in [64u32, 512] {
        for both in [false, true] {
            let mut pts: Vec<[f64; 2]> = cases
                .iter()
                .filter(|c| c.width == w && c.both == both)
                .map(|c| [c.mix.mean_len(), c.worst().rx])
                .collect();
            pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
            let m = if both { "both ports" } else { "one port" };
            series.push(json!({
                "key": format!("fastpath.w{w}.{}.rx", mode(both)),
                "label": format!("DATA_WIDTH {w}, {m}"),
                "x_label": "frame size (bytes; IMIX at its mean)",
                "y_label": "accepted beats per cycle",
                "points": pts,
            }));
        }
        let pts: Vec<[f64; 2]> = cases
            .iter()
            .filter(|c| c.width == w && !c.both)
            .filter_map(|c| match c.mix {
                Mix::Size(n) => Some([n as f64, c.dirs[0].lat_first as f64]),
                Mix::Imix => None,
            })
            .collect();
        series.push(json!({
            "key": format!("fastpath.w{w}.one_port.latency"),
            "label": format!("DATA_WIDTH {w}, one port"),
            "x_label": "frame size (bytes)",
            "y_label": "first byte in to out (cycles)",
            "points": pts,
        }));
    }
    json!({"bench": "datapath", "command": COMMAND, "figures": figures, "series": series})
}

/// Both widths (one thread each), printed in order; then the line-rate checks and the JSON.
#[test]
fn line_rate() {
    let fmax = fmax_mhz();
    let threads: Vec<_> = [64u32, 512]
        .into_iter()
        .map(|w| std::thread::spawn(move || cases(w)))
        .collect();
    let mut all = Vec::new();
    for t in threads {
        let cs = t.join().expect("bench thread");
        for c in &cs {
            print(c, fmax);
        }
        all.extend(cs);
    }
    for c in &all {
        check(c);
    }
    if let Some(dir) = std::env::var_os("SPLICENIC_BENCH_DIR").filter(|d| !d.is_empty()) {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("bench dir");
        let path = dir.join("datapath.json");
        let text = serde_json::to_string_pretty(&bench_json(&all, fmax)).expect("json");
        std::fs::write(&path, text).expect("write bench json");
        println!("data path figures written to {}", path.display());
    }
}
