//! The performance report: reads the bench programs' results (`target/bench/*.json`, format
//! in `splicenic_hil::bench_out`), prints the summary table, and writes
//! docs/PERFORMANCE.md and its plots (docs/img/perf-*.svg, drawn with plotters).
//!
//! Every figure keeps the kind it was obtained by: `exact` (cycle counts of the simulated
//! RTL), `measured` (wall clock or place-and-route on this machine), `projected` (computed
//! here from exact cycle counts at a clock frequency), `reference` (quoted).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use plotters::prelude::*;
use serde_json::Value;

/// One figure of a bench's results.
#[derive(Debug, Clone)]
pub struct Fig {
    pub key: String,
    pub label: String,
    pub value: f64,
    pub unit: String,
    pub kind: String,
    pub how: String,
}

/// A plot line.
#[derive(Debug, Clone)]
pub struct Series {
    pub key: String,
    pub label: String,
    pub x_label: String,
    pub y_label: String,
    pub points: Vec<(f64, f64)>,
}

/// Everything the bench programs wrote.
#[derive(Debug, Default)]
pub struct Results {
    figs: BTreeMap<String, Fig>,
    /// Each figure's position in the files (their order).
    order: BTreeMap<String, usize>,
    series: BTreeMap<String, Series>,
    /// (bench, command) in file order.
    commands: Vec<(String, String)>,
    /// Steps that did not produce results, with the reason.
    pub missing: Vec<(String, String)>,
}

fn s(v: &Value, k: &str) -> String {
    v.get(k).and_then(Value::as_str).unwrap_or("").to_string()
}

impl Results {
    /// Read every `*.json` in `dir`.
    pub fn load(dir: &Path) -> Result<Results> {
        let mut r = Results::default();
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let text =
                std::fs::read_to_string(&f).with_context(|| format!("reading {}", f.display()))?;
            let v: Value =
                serde_json::from_str(&text).with_context(|| format!("parsing {}", f.display()))?;
            r.commands.push((s(&v, "bench"), s(&v, "command")));
            for fig in v["figures"].as_array().into_iter().flatten() {
                let Some(value) = fig["value"].as_f64() else {
                    continue;
                };
                let key = s(fig, "key");
                let n = r.order.len();
                r.order.entry(key.clone()).or_insert(n);
                r.figs.insert(
                    key.clone(),
                    Fig {
                        key,
                        label: s(fig, "label"),
                        value,
                        unit: s(fig, "unit"),
                        kind: s(fig, "kind"),
                        how: s(fig, "how"),
                    },
                );
            }
            for se in v["series"].as_array().into_iter().flatten() {
                let points = se["points"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| Some((p[0].as_f64()?, p[1].as_f64()?)))
                    .collect();
                let key = s(se, "key");
                r.series.insert(
                    key.clone(),
                    Series {
                        key,
                        label: s(se, "label"),
                        x_label: s(se, "x_label"),
                        y_label: s(se, "y_label"),
                        points,
                    },
                );
            }
        }
        Ok(r)
    }

    pub fn get(&self, key: &str) -> Option<&Fig> {
        self.figs.get(key)
    }

    /// Where `key` came in the files (`usize::MAX` if absent).
    fn position(&self, key: &str) -> usize {
        self.order.get(key).copied().unwrap_or(usize::MAX)
    }

    fn val(&self, key: &str) -> Option<f64> {
        self.get(key).map(|f| f.value)
    }

    /// Figures whose key starts with `prefix`.
    fn with_prefix<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a Fig> + 'a {
        self.figs
            .range(prefix.to_string()..)
            .take_while(move |(k, _)| k.starts_with(prefix))
            .map(|(_, f)| f)
    }
}

/// A row of the summary table.
#[derive(Debug, Clone)]
pub struct Row {
    pub what: String,
    pub value: String,
    pub unit: String,
    pub kind: String,
    pub how: String,
}

fn num(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        // Thousands separators.
        let n = v.round() as i64;
        let d = n.abs().to_string();
        let mut out = String::new();
        for (i, c) in d.chars().enumerate() {
            if i > 0 && (d.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        if n < 0 {
            format!("-{out}")
        } else {
            out
        }
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// `num`, but whole numbers for counts of cycles.
fn num_unit(v: f64, unit: &str) -> String {
    if unit.starts_with("cycles") && v.abs() < 100.0 {
        format!("{v:.0}")
    } else {
        num(v)
    }
}

fn row(what: &str, value: Option<f64>, unit: &str, kind: &str, how: &str) -> Row {
    Row {
        what: what.to_string(),
        value: value.map_or("not measured".into(), |v| num_unit(v, unit)),
        unit: unit.to_string(),
        kind: kind.to_string(),
        how: how.to_string(),
    }
}

fn fig_row(r: &Results, key: &str, what: &str) -> Row {
    match r.get(key) {
        Some(f) => Row {
            what: what.to_string(),
            value: num_unit(f.value, &f.unit),
            unit: f.unit.clone(),
            kind: f.kind.clone(),
            how: f.how.clone(),
        },
        None => row(what, None, "", "", &format!("no `{key}` in this run")),
    }
}

/// Build parameters read from the sources (not measured).
#[derive(Debug, Clone, Copy)]
pub struct BuildParams {
    pub flow_buckets: u64,
    pub flow_ways: u64,
    pub flow_slots: u64,
    pub fw_slots: u64,
}

fn param(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let l = l.trim();
        let rest = l
            .strip_prefix("parameter ")
            .or_else(|| l.strip_prefix("pub const "))?;
        let rest = rest.strip_prefix(name)?;
        let rest = rest.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
        let rest = rest.strip_prefix("usize").unwrap_or(rest).trim_start();
        let rest = rest.strip_prefix('=')?.trim();
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '_')
            .filter(|c| *c != '_')
            .collect();
        digits.parse().ok()
    })
}

impl BuildParams {
    /// From gateware-rtl/rtl/card_top.v and the firmware's splicer.
    pub fn read(root: &Path) -> Result<BuildParams> {
        let top = std::fs::read_to_string(root.join("gateware-rtl/rtl/card_top.v"))?;
        let fw = std::fs::read_to_string(root.join("firmware/logic/src/splicer/mod.rs"))?;
        let get = |t: &str, n: &str| param(t, n).with_context(|| format!("no {n} found"));
        Ok(BuildParams {
            flow_buckets: get(&top, "FLOW_BUCKETS")?,
            flow_ways: get(&top, "FLOW_WAYS")?,
            flow_slots: get(&top, "FLOW_SLOTS")?,
            fw_slots: get(&fw, "FW_SLOTS")?,
        })
    }

    /// Concurrent spliced flows of the default build: two flow-table keys per flow.
    pub fn flows(&self) -> u64 {
        (self.flow_buckets * self.flow_ways / 2)
            .min(self.flow_slots)
            .min(self.fw_slots)
    }
}

/// External-memory variant (docs/datapath.md): 128-bit table entries (a 4-way bucket is one
/// 64-byte burst), two per flow, and the flow-state slot padded to 128 bytes, in a DRAM of
/// `bytes`; the firmware's free list then lives in DRAM too.
pub const EXT_DRAM_BYTES: u64 = 128 << 20;
/// Bytes of external memory per flow: 2 x 16-byte keys (at most half the ways in use on
/// average is not assumed: the table is sized at two entries per flow) + 128 bytes state.
pub const EXT_BYTES_PER_FLOW: u64 = 2 * 16 + 128;

/// The seed paper's figures (000_, the FPGA TCP-splicing design), quoted.
pub const SEED: &[(&str, &str, &str)] = &[
    ("new connections/s", "21,000", "connections/s"),
    ("ports", "2 x GbE", ""),
    ("concurrent flows", "288,000", "flows"),
];

/// The summary table (also the terminal output).
pub fn summary(r: &Results, p: &BuildParams) -> Vec<Row> {
    let mut rows = Vec::new();
    let fp_fmax = r.val("ecp5.fastpath.fmax_mhz");
    let soc_fmax = r.val("ecp5.soc.picorv32.fmax_mhz");
    let fmax_how = |what: &str, f: Option<f64>| match f {
        Some(m) => format!("at the {what} fmax {m:.1} MHz (ECP5, place and route)"),
        None => format!("no {what} fmax in this run"),
    };
    for w in [64u32, 512] {
        let mins = r
            .with_prefix(&format!("fastpath.w{w}."))
            .filter(|f| f.key.ends_with(".one_port.rx_beats_per_cycle"))
            .map(|f| f.value)
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))));
        rows.push(row(
            &format!("fast path, DATA_WIDTH {w}: lowest accepted beats/cycle, 64-1518 B and IMIX, one port"),
            mins,
            "beats/cycle",
            "exact",
            "back-to-back frames of one spliced flow through splice_datapath (1.0 = line rate)",
        ));
        let gbps = match (mins, fp_fmax) {
            (Some(b), Some(f)) => Some(b * f64::from(w) * f / 1000.0),
            _ => None,
        };
        rows.push(row(
            &format!("fast path, DATA_WIDTH {w}: port throughput"),
            gbps,
            "Gb/s per port",
            "projected",
            &format!(
                "beats/cycle x {w} bits x fmax, {}",
                fmax_how("fast-path", fp_fmax)
            ),
        ));
        let lat = r.val(&format!("fastpath.w{w}.size64.one_port.latency_cycles"));
        rows.push(row(
            &format!("fast path, DATA_WIDTH {w}: latency, 64 B frame, first byte in to out"),
            lat,
            "cycles",
            "exact",
            "splice_datapath, store-and-forward",
        ));
        rows.push(row(
            &format!("fast path, DATA_WIDTH {w}: latency, 64 B frame"),
            lat.zip(fp_fmax).map(|(c, f)| c * 1000.0 / f),
            "ns",
            "projected",
            &fmax_how("fast-path", fp_fmax),
        ));
    }
    // Connection setup.
    let load_key = |core: &str, leaf: &str| {
        r.with_prefix(&format!("setup.{core}.load"))
            .find(|f| f.key.ends_with(leaf))
            .map(|f| f.key.clone())
    };
    for core in ["picorv32", "vexriscv"] {
        for leaf in [
            ".card_cycles_per_conn",
            ".fw_setup_cycles",
            ".fw_teardown_cycles",
        ] {
            if let Some(k) = load_key(core, leaf) {
                let f = r.get(&k).expect("listed");
                rows.push(fig_row(
                    r,
                    &k,
                    &format!("connection setup under load, {core}: {}", f.label),
                ));
            }
        }
    }
    let card_cycles = load_key("picorv32", ".card_cycles_per_conn").and_then(|k| r.val(&k));
    let card_cps_soc = card_cycles.zip(soc_fmax).map(|(c, f)| f * 1e6 / c);
    rows.push(row(
        "new connections/s, PicoRV32 build",
        card_cps_soc,
        "connections/s",
        "projected",
        &format!(
            "SoC fmax / card cycles per connection under load, {}",
            fmax_how("PicoRV32 SoC", soc_fmax)
        ),
    ));
    let card_cps_target = card_cycles.map(|c| 156.25e6 / c);
    rows.push(row(
        "new connections/s, PicoRV32 build, at the 156.25 MHz design clock",
        card_cps_target,
        "connections/s",
        "projected",
        "156.25 MHz / card cycles per connection under load",
    ));
    let vex_cycles = load_key("vexriscv", ".card_cycles_per_conn").and_then(|k| r.val(&k));
    let vex_fmax = r.val("ecp5.soc.vexriscv.fmax_mhz");
    rows.push(row(
        "new connections/s, VexRiscv build",
        vex_cycles.zip(vex_fmax).map(|(c, f)| f * 1e6 / c),
        "connections/s",
        "projected",
        &format!(
            "SoC fmax / card cycles per connection under load, {}",
            fmax_how("VexRiscv SoC", vex_fmax)
        ),
    ));
    // Baseline and ratio.
    let hap = r.val("baseline.haproxy.conn_per_s");
    rows.push(fig_row(
        r,
        "baseline.haproxy.conn_per_s",
        "HAProxy: new connections/s (same routing, same backends)",
    ));
    rows.push(fig_row(
        r,
        "baseline.haproxy.keepalive_req_per_s",
        "HAProxy: keep-alive requests/s",
    ));
    rows.push(row(
        "card (PicoRV32, SoC fmax) / HAProxy, new connections/s",
        card_cps_soc.zip(hap).map(|(c, h)| c / h),
        "x",
        "projected / measured",
        "the card's projected figure over HAProxy's measured one, same run",
    ));
    rows.push(row(
        "card (PicoRV32, 156.25 MHz) / HAProxy, new connections/s",
        card_cps_target.zip(hap).map(|(c, h)| c / h),
        "x",
        "projected / measured",
        "the card's projected figure over HAProxy's measured one, same run",
    ));
    // Flows.
    rows.push(row(
        "concurrent spliced flows, default build",
        Some(p.flows() as f64),
        "flows",
        "exact",
        &format!(
            "min(flow table {} x {} entries / 2 keys, {} flow slots, firmware's {} slots)",
            p.flow_buckets, p.flow_ways, p.flow_slots, p.fw_slots
        ),
    ));
    rows.push(row(
        "concurrent spliced flows, external-memory variant",
        Some((EXT_DRAM_BYTES / EXT_BYTES_PER_FLOW) as f64),
        "flows",
        "projected",
        &format!(
            "{} MiB DRAM / {EXT_BYTES_PER_FLOW} B per flow (two 16 B table entries, 128 B state)",
            EXT_DRAM_BYTES >> 20
        ),
    ));
    // fmax.
    rows.push(fig_row(
        r,
        "ecp5.fastpath.fmax_mhz",
        "fmax, fast path (slowest fast-path module)",
    ));
    rows.push(fig_row(
        r,
        "ecp5.soc.picorv32.fmax_mhz",
        "fmax, SoC (PicoRV32)",
    ));
    rows.push(fig_row(
        r,
        "ecp5.soc.vexriscv.fmax_mhz",
        "fmax, SoC (VexRiscv)",
    ));
    rows.push(fig_row(
        r,
        "sim.card_top.cycles_per_s",
        "simulated rig speed",
    ));
    for (what, v, unit) in SEED {
        rows.push(Row {
            what: format!("seed paper: {what}"),
            value: (*v).to_string(),
            unit: (*unit).to_string(),
            kind: "reference".into(),
            how: "quoted from the seed design (000_)".into(),
        });
    }
    rows
}

/// The summary table as terminal text.
pub fn terminal(rows: &[Row]) -> String {
    let w0 = rows.iter().map(|r| r.what.len()).max().unwrap_or(10);
    let w1 = rows.iter().map(|r| r.value.len()).max().unwrap_or(5);
    let w2 = rows.iter().map(|r| r.unit.len()).max().unwrap_or(4);
    let w3 = rows.iter().map(|r| r.kind.len()).max().unwrap_or(4);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w0$}  {:>w1$}  {:<w2$}  {:<w3$}  how obtained",
        "figure", "value", "unit", "kind"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:<w0$}  {:>w1$}  {:<w2$}  {:<w3$}  {}",
            r.what, r.value, r.unit, r.kind, r.how
        );
    }
    out
}

fn md_table(rows: &[Row]) -> String {
    let mut out =
        String::from("| figure | value | unit | kind | how obtained |\n|---|---:|---|---|---|\n");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            r.what,
            r.value,
            r.unit,
            r.kind,
            r.how.replace('|', "\\|")
        );
    }
    out
}

static FONT: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();

/// Register DejaVu Sans (Debian fonts-dejavu-core) as plotters' "sans-serif".
fn font() -> Result<()> {
    FONT.get_or_init(|| {
        let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
        let bytes = std::fs::read(path)
            .map_err(|e| format!("{path}: {e} (apt-get install fonts-dejavu-core)"))?;
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
            .map_err(|_| format!("{path} is not a usable font"))
    })
    .clone()
    .map_err(|e| anyhow!(e))
}

/// A line plot of `lines` with an optional dashed reference line at `hline`.
pub fn line_plot(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    lines: &[(&str, &[(f64, f64)])],
    hline: Option<(f64, &str)>,
) -> Result<()> {
    font()?;
    let pts = lines.iter().flat_map(|(_, p)| p.iter());
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        return Err(anyhow!("no points for {}", path.display()));
    }
    if let Some((y, _)) = hline {
        y1 = y1.max(y);
    }
    let y1 = y1 * 1.15;
    let e = |e: &dyn std::fmt::Debug| anyhow!("drawing {}: {e:?}", path.display());
    let root = SVGBackend::new(path, (760, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(14)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x0..x1, 0.0..y1)
        .map_err(|x| e(&x))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(|x| e(&x))?;
    for (i, (label, p)) in lines.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(p.iter().copied(), color.stroke_width(2)))
            .map_err(|x| e(&x))?
            .label(*label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart
            .draw_series(p.iter().map(|&q| Circle::new(q, 3, color.filled())))
            .map_err(|x| e(&x))?;
    }
    if let Some((y, label)) = hline {
        let steps = 60;
        let dash: Vec<Vec<(f64, f64)>> = (0..steps)
            .step_by(2)
            .map(|i| {
                let a = x0 + (x1 - x0) * i as f64 / steps as f64;
                let b = x0 + (x1 - x0) * (i + 1) as f64 / steps as f64;
                vec![(a, y), (b, y)]
            })
            .collect();
        chart
            .draw_series(
                dash.into_iter()
                    .map(|d| PathElement::new(d, BLACK.stroke_width(1))),
            )
            .map_err(|x| e(&x))?
            .label(label)
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    Ok(())
}

/// A bar chart of named values (horizontal bars would need more room; vertical is fine for
/// a handful).
pub fn bar_plot(path: &Path, title: &str, y_label: &str, bars: &[(&str, f64)]) -> Result<()> {
    font()?;
    let e = |e: &dyn std::fmt::Debug| anyhow!("drawing {}: {e:?}", path.display());
    let ymax = bars.iter().map(|b| b.1).fold(0.0, f64::max) * 1.2;
    let root = SVGBackend::new(path, (760, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let n = bars.len();
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(14)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d((0..n).into_segmented(), 0.0..ymax.max(1.0))
        .map_err(|x| e(&x))?;
    let names: Vec<String> = bars.iter().map(|b| b.0.to_string()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc(y_label)
        .y_label_formatter(&|v| format!("{v:.0}"))
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(|x| e(&x))?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, v))| {
            let color = Palette99::pick(i).to_rgba();
            let mut r = Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), *v),
                ],
                color.filled(),
            );
            r.set_margin(0, 0, 30, 30);
            r
        }))
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    Ok(())
}

fn git(root: &Path, args: &[&str]) -> String {
    std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".into())
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{cores} cores, {cpu}")
}

/// Plots of this run into `img_dir`; returns (file name, caption) of each drawn.
fn plots(r: &Results, img_dir: &Path) -> Result<Vec<(String, String)>> {
    std::fs::create_dir_all(img_dir)?;
    let mut drawn = Vec::new();
    // Throughput vs frame size.
    let thr: Vec<&Series> = [
        "fastpath.w64.one_port.rx",
        "fastpath.w512.one_port.rx",
        "fastpath.w64.both_ports.rx",
        "fastpath.w512.both_ports.rx",
    ]
    .iter()
    .filter_map(|k| r.series.get(*k))
    .collect();
    if !thr.is_empty() {
        let lines: Vec<(&str, &[(f64, f64)])> = thr
            .iter()
            .map(|s| (s.label.as_str(), s.points.as_slice()))
            .collect();
        let name = "perf-fastpath-throughput.svg";
        line_plot(
            &img_dir.join(name),
            "Fast path: accepted beats per cycle vs frame size",
            &thr[0].x_label,
            &thr[0].y_label,
            &lines,
            Some((1.0, "line rate (1 beat/cycle)")),
        )?;
        drawn.push((name.to_string(), "Fast path: accepted beats per cycle by frame size, both widths; the dashed line is line rate".to_string()));
    }
    let lat: Vec<&Series> = r
        .series
        .values()
        .filter(|s| s.key.starts_with("fastpath.") && s.key.contains("latency"))
        .collect();
    if !lat.is_empty() {
        let lines: Vec<(&str, &[(f64, f64)])> = lat
            .iter()
            .map(|s| (s.label.as_str(), s.points.as_slice()))
            .collect();
        let name = "perf-fastpath-latency.svg";
        line_plot(
            &img_dir.join(name),
            "Fast path: first byte in to first byte out",
            &lat[0].x_label,
            &lat[0].y_label,
            &lines,
            None,
        )?;
        drawn.push((
            name.to_string(),
            "Fast-path latency in cycles by frame size".to_string(),
        ));
    }
    Ok(drawn)
}

/// Print the summary and write `out_md` (and its plots beside it in `img/`).
pub fn report(root: &Path, results_dir: &Path, out_md: &Path) -> Result<()> {
    let r = load_all(results_dir)?;
    let p = BuildParams::read(root)?;
    let rows = summary(&r, &p);
    println!("\n{}", terminal(&rows));
    for (step, why) in &r.missing {
        println!("note: {step}: {why}");
    }
    let img_dir = out_md.parent().unwrap_or(Path::new(".")).join("img");
    let mut plots_drawn = plots(&r, &img_dir)?;
    let mut bars: Vec<(&str, f64)> = Vec::new();
    let card = summary_value(&rows, "new connections/s, PicoRV32 build");
    let card_t = summary_value(
        &rows,
        "new connections/s, PicoRV32 build, at the 156.25 MHz design clock",
    );
    let vex = summary_value(&rows, "new connections/s, VexRiscv build");
    if let Some(v) = card {
        bars.push(("PicoRV32, SoC fmax", v));
    }
    if let Some(v) = vex {
        bars.push(("VexRiscv, SoC fmax", v));
    }
    if let Some(v) = card_t {
        bars.push(("PicoRV32, 156 MHz", v));
    }
    if let Some(v) = r.val("baseline.haproxy.conn_per_s") {
        bars.push(("HAProxy", v));
    }
    bars.push(("seed paper", 21_000.0));
    if bars.len() > 1 {
        let name = "perf-new-connections.svg";
        bar_plot(
            &img_dir.join(name),
            "New connections per second",
            "connections/s",
            &bars,
        )?;
        plots_drawn.push((
            name.to_string(),
            "New connections/s: the card's projections, HAProxy measured, the seed paper"
                .to_string(),
        ));
    }

    let mut md = String::new();
    let _ = writeln!(md, "# Performance report\n");
    let _ = writeln!(
        md,
        "Generated by `cargo xtask bench` at commit `{}` on {} ({}). Regenerate it with the same \
         command; the sections below give each figure with its unit and how it was obtained.\n",
        git(root, &["rev-parse", "--short", "HEAD"]),
        git(root, &["log", "-1", "--format=%cd", "--date=short"]),
        machine()
    );
    let _ = writeln!(
        md,
        "Kinds: **exact** = a cycle count of the simulated RTL (repeatable); **measured** = wall \
         clock or place-and-route on this machine (varies with load; the machine is shared); \
         **projected** = computed from exact cycle counts at a clock frequency; **reference** = \
         quoted. The card's connection rate is projected, the HAProxy baseline measured, both in \
         the same run.\n"
    );
    let _ = writeln!(md, "## Summary\n\n{}", md_table(&rows));
    for (f, cap) in &plots_drawn {
        let _ = writeln!(md, "![{cap}](img/{f})\n");
    }
    let _ = writeln!(md, "## Fast path by frame size\n");
    md.push_str(&fastpath_table(&r));
    let _ = writeln!(md, "## Connection setup\n");
    let setup: Vec<&Fig> = r.with_prefix("setup.").collect();
    if setup.is_empty() {
        let _ = writeln!(md, "Not measured in this run.\n");
    } else {
        let _ = writeln!(
            md,
            "| figure | value | unit | kind | how |\n|---|---:|---|---|---|"
        );
        for f in setup {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} |",
                f.label,
                num(f.value),
                f.unit,
                f.kind,
                f.how
            );
        }
        md.push('\n');
    }
    let _ = writeln!(md, "## Where the cycles go per new connection\n");
    md.push_str(&profile_table(&r));
    let _ = writeln!(
        md,
        "## ECP5 resources and fmax (LFE5U-85F, out of context)\n"
    );
    let mut mods: BTreeMap<String, BTreeMap<String, &Fig>> = BTreeMap::new();
    for f in r.with_prefix("ecp5.") {
        let rest = &f.key["ecp5.".len()..];
        if let Some((m, what)) = rest.rsplit_once('.') {
            mods.entry(m.to_string())
                .or_default()
                .insert(what.to_string(), f);
        }
    }
    if mods.is_empty() {
        let _ = writeln!(md, "Not measured in this run.\n");
    } else {
        let cols = ["lut4", "ff", "dp16kd", "dpr16x4", "mult18", "fmax_mhz"];
        let _ = writeln!(md, "| module | LUT4 | FF | DP16KD | DPR16X4 | MULT18 | fmax MHz |\n|---|---:|---:|---:|---:|---:|---:|");
        for (m, vals) in &mods {
            let cells: Vec<String> = cols
                .iter()
                .map(|c| vals.get(*c).map_or("".into(), |f| num(f.value)))
                .collect();
            let _ = writeln!(md, "| {m} | {} |", cells.join(" | "));
        }
        if let Some(f) = r.get("ecp5.fastpath.fmax_mhz") {
            let _ = writeln!(md, "\nFast path fmax: {} MHz ({}).", num(f.value), f.how);
        }
        md.push('\n');
    }
    let _ = writeln!(md, "## Software baseline: HAProxy\n");
    let base: Vec<&Fig> = r.with_prefix("baseline.").collect();
    if base.is_empty() {
        let _ = writeln!(
            md,
            "Not measured in this run (needs root, haproxy, nginx-light and wrk).\n"
        );
    } else {
        let _ = writeln!(md, "| figure | value | unit | how |\n|---|---:|---|---|");
        for f in base {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                f.label,
                num(f.value),
                f.unit,
                f.how
            );
        }
        md.push('\n');
    }
    let _ = writeln!(
        md,
        "## Seed paper (reference)\n\n| figure | value |\n|---|---|"
    );
    for (w, v, u) in SEED {
        let _ = writeln!(md, "| {w} | {v} {u} |");
    }
    md.push('\n');
    let analysis = root.join("docs/performance-analysis.md");
    if let Ok(text) = std::fs::read_to_string(&analysis) {
        let _ = writeln!(md, "{}\n", text.trim());
    }
    let _ = writeln!(md, "## Commands of this run\n");
    for (b, c) in &r.commands {
        let _ = writeln!(md, "- {b}: `{c}`");
    }
    if !r.missing.is_empty() {
        let _ = writeln!(md, "\nSteps without results in this run:\n");
        for (step, why) in &r.missing {
            let _ = writeln!(md, "- {step}: {why}");
        }
    }
    std::fs::write(out_md, md).with_context(|| format!("writing {}", out_md.display()))?;
    println!(
        "wrote {} and {} plot(s) in {}",
        out_md.display(),
        plots_drawn.len(),
        img_dir.display()
    );
    Ok(())
}

/// The firmware's profile (splice-bench, FLOW_PROFILE) for both cores side by side.
fn profile_table(r: &Results) -> String {
    let mut names: Vec<(String, String)> = Vec::new();
    for f in r.with_prefix("profile.picorv32.") {
        let rest = &f.key["profile.picorv32.".len()..];
        if rest.ends_with(".count") {
            continue;
        }
        if let Some((group, name)) = rest.split_once('.') {
            names.push((group.to_string(), name.to_string()));
        }
    }
    if names.is_empty() {
        return "Not measured in this run.\n\n".to_string();
    }
    // Handlers first, then steps, each in the order the firmware lists them (the order of
    // the bench's figures).
    names.sort_by_key(|(g, n)| {
        (
            g != "handler",
            r.position(&format!("profile.picorv32.{g}.{n}")),
        )
    });
    let mut out = String::from(
        "| | PicoRV32 cycles/connection | times/connection | VexRiscv cycles/connection |\n|---|---:|---:|---:|\n",
    );
    let mut total = [0.0f64; 2];
    for (g, n) in &names {
        let v = |core: &str| r.val(&format!("profile.{core}.{g}.{n}"));
        let c = r.val(&format!("profile.picorv32.{g}.{n}.count"));
        if g == "handler" {
            total[0] += v("picorv32").unwrap_or(0.0);
            total[1] += v("vexriscv").unwrap_or(0.0);
        }
        let _ = writeln!(
            out,
            "| {} `{n}` | {} | {} | {} |",
            if g == "handler" { "handler" } else { "step" },
            v("picorv32").map_or(String::new(), num),
            c.map_or(String::new(), |c| format!("{c:.2}")),
            v("vexriscv").map_or(String::new(), num),
        );
    }
    let _ = writeln!(
        out,
        "| **all handlers** | **{}** | | **{}** |",
        num(total[0]),
        num(total[1])
    );
    let how = r
        .with_prefix("profile.picorv32.")
        .next()
        .map(|f| f.how.clone())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "\nExact cycle counts of the soft core ({how}). Handlers are the firmware's event \
         handlers; steps are parts of them (and `punt_read`/`parse`, which run before a \
         handler), so steps are not added to the total. The step timing itself costs about \
         200 cycles per step and is off in the other phases.\n"
    );
    out
}

/// The fast-path figures as one row per width, size and port mode.
fn fastpath_table(r: &Results) -> String {
    let mut out = String::new();
    let sizes = ["64", "128", "256", "512", "1024", "1518", "imix"];
    let cols = [
        ("rx_beats_per_cycle", "rx beats/cycle"),
        ("tx_beats_per_cycle", "tx beats/cycle"),
        ("frames_per_cycle", "frames/cycle"),
        ("wire_rate_fraction", "of wire rate"),
        ("latency_cycles", "latency, cycles"),
    ];
    let mut any = false;
    let _ = writeln!(
        out,
        "| width | frame | ports | {} |\n|---|---|---|{}",
        cols.map(|c| c.1).join(" | "),
        "---:|".repeat(cols.len())
    );
    for w in ["64", "512"] {
        for size in sizes {
            for ports in ["one_port", "both_ports"] {
                let base = format!("fastpath.w{w}.size{size}.{ports}.");
                let cells: Vec<String> = cols
                    .iter()
                    .map(|(k, _)| {
                        r.val(&format!("{base}{k}")).map_or(String::new(), |v| {
                            num_unit(
                                v,
                                if k.starts_with("latency") {
                                    "cycles"
                                } else {
                                    ""
                                },
                            )
                        })
                    })
                    .collect();
                if cells.iter().all(String::is_empty) {
                    continue;
                }
                any = true;
                let frame = if size == "imix" {
                    "IMIX".to_string()
                } else {
                    format!("{size} B")
                };
                let _ = writeln!(
                    out,
                    "| {w} | {frame} | {} | {} |",
                    ports.replace('_', " "),
                    cells.join(" | ")
                );
            }
        }
    }
    if !any {
        return "Not measured in this run.\n\n".to_string();
    }
    let how = r
        .with_prefix("fastpath.")
        .find(|f| f.key.ends_with("rx_beats_per_cycle"))
        .map(|f| f.how.clone())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "\nExact cycle counts ({how}). \"of wire rate\": the wire time of the frames sent \
         (each frame plus FCS, preamble and inter-frame gap) over the cycles taken, against a \
         port of DATA_WIDTH bits per cycle; at or above 1 the path keeps up with such a link. \
         Both ports: the lower rate and the higher latency of the two directions.\n"
    );
    out
}

fn summary_value(rows: &[Row], what: &str) -> Option<f64> {
    rows.iter()
        .find(|r| r.what == what)
        .and_then(|r| r.value.replace(',', "").parse().ok())
}

impl Results {
    /// Note a step that produced no results.
    pub fn note_missing(dir: &Path, step: &str, why: &str) -> Result<()> {
        let p = dir.join("missing.txt");
        let mut text = std::fs::read_to_string(&p).unwrap_or_default();
        let _ = writeln!(text, "{step}\t{why}");
        std::fs::write(&p, text).with_context(|| format!("writing {}", p.display()))
    }

    fn read_missing(&mut self, dir: &Path) {
        if let Ok(text) = std::fs::read_to_string(dir.join("missing.txt")) {
            for l in text.lines() {
                if let Some((a, b)) = l.split_once('\t') {
                    self.missing.push((a.to_string(), b.to_string()));
                }
            }
        }
    }
}

/// [`Results::load`] plus the steps noted as missing.
pub fn load_all(dir: &Path) -> Result<Results> {
    let mut r = Results::load(dir)?;
    r.read_missing(dir);
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(num(1234567.0), "1,234,567");
        assert_eq!(num(926.4), "926");
        assert_eq!(num(36.6), "36.6");
        assert_eq!(num(1.0), "1.00");
        assert_eq!(num(0.5016), "0.502");
    }

    #[test]
    fn parameters_are_read_from_verilog_and_rust() {
        let v = "    parameter FLOW_BUCKETS = 32768,\n    parameter FLOW_WAYS = 4,\n";
        assert_eq!(param(v, "FLOW_BUCKETS"), Some(32768));
        assert_eq!(param(v, "FLOW_WAYS"), Some(4));
        assert_eq!(
            param("pub const FW_SLOTS: usize = 16_384;", "FW_SLOTS"),
            Some(16384)
        );
        assert_eq!(param(v, "FLOW_SLOTS"), None);
    }

    #[test]
    fn flows_are_the_smallest_limit() {
        let p = BuildParams {
            flow_buckets: 32768,
            flow_ways: 4,
            flow_slots: 65536,
            fw_slots: 16384,
        };
        assert_eq!(p.flows(), 16384);
    }

    #[test]
    fn results_and_summary_from_files() {
        let dir = std::env::temp_dir().join(format!("xtask-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("a.json"),
            r#"{"bench":"a","command":"x","figures":[
                {"key":"ecp5.soc.picorv32.fmax_mhz","label":"l","value":50.0,"unit":"MHz","kind":"measured","how":"h"},
                {"key":"setup.picorv32.load64.card_cycles_per_conn","label":"card cycles","value":5000.0,"unit":"cycles/connection","kind":"exact","how":"h"},
                {"key":"baseline.haproxy.conn_per_s","label":"hap","value":2000.0,"unit":"connections/s","kind":"measured","how":"h"}],
               "series":[]}"#,
        )
        .unwrap();
        let r = Results::load(&dir).unwrap();
        let p = BuildParams {
            flow_buckets: 8,
            flow_ways: 4,
            flow_slots: 100,
            fw_slots: 100,
        };
        let rows = summary(&r, &p);
        // 50 MHz / 5000 cycles = 10,000 connections/s; over HAProxy's 2000 = 5x.
        assert_eq!(
            summary_value(&rows, "new connections/s, PicoRV32 build"),
            Some(10000.0)
        );
        let ratio = rows
            .iter()
            .find(|r| r.what.starts_with("card (PicoRV32, SoC fmax) / HAProxy"))
            .unwrap();
        assert_eq!(ratio.value, "5.00");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
