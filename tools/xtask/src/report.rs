//! The performance report: reads the bench programs' results (`target/bench/*.json`: a
//! [`BenchFile`] of [`Figure`]s, written by `splicenic_hil::bench_out` and by `synth.rs`),
//! prints the summary table, and writes docs/PERFORMANCE.md and its plots
//! (docs/img/perf-*.svg, drawn with plotters).
//!
//! Every figure keeps the kind it was obtained by: `exact` (cycle counts of the simulated
//! RTL), `measured` (wall clock or place-and-route on this machine), `projected` (computed
//! here from exact cycle counts at a clock frequency), `reference` (quoted); the
//! configuration it was measured on; its note; and whether it is stale. A projection is
//! made only at an fmax synthesised at the same DATA_WIDTH and never at the fmax of a part
//! the design does not fit; a row derived from a stale figure is stale.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

/// One figure, as the bench programs and the synthesis runner (`synth.rs`) write it in the
/// `figures` of a results file, and as the report reads it.
///
/// `value` is null when there is nothing to give (a design that did not place and route
/// has no fmax); `note` is what the producer adds (a critical path, why a design did not
/// place); `config` names what the figure was measured on (part and speed grade,
/// DATA_WIDTH, table sizes); `stale` marks a figure reused from a run on older sources
/// (`--synth-stale`): every row derived from it says so.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub key: String,
    #[serde(default)]
    pub label: String,
    #[serde(default)]
    pub value: Option<f64>,
    #[serde(default)]
    pub unit: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub how: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub config: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub stale: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A plot line as written in a results file (`[x, y]` pairs; null for a missing number).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SeriesRecord {
    pub key: String,
    #[serde(default)]
    pub label: String,
    #[serde(default)]
    pub x_label: String,
    #[serde(default)]
    pub y_label: String,
    #[serde(default)]
    pub points: Vec<[Option<f64>; 2]>,
}

/// One results file, `target/bench/<bench>.json`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BenchFile {
    pub bench: String,
    #[serde(default)]
    pub command: String,
    /// Wall time of the whole step (s), when the producer gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_s: Option<f64>,
    #[serde(default)]
    pub figures: Vec<Figure>,
    #[serde(default)]
    pub series: Vec<SeriesRecord>,
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
    figs: BTreeMap<String, Figure>,
    /// Each figure's position in the files (their order).
    order: BTreeMap<String, usize>,
    series: BTreeMap<String, Series>,
    /// (bench, command) in file order.
    commands: Vec<(String, String)>,
    /// Steps that did not produce results, with the reason.
    pub missing: Vec<(String, String)>,
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
            let file: BenchFile =
                serde_json::from_str(&text).with_context(|| format!("parsing {}", f.display()))?;
            r.add(file);
        }
        Ok(r)
    }

    /// The figures and series of one results file (a later file's figure of the same key
    /// replaces an earlier one).
    pub fn add(&mut self, file: BenchFile) {
        self.commands.push((file.bench, file.command));
        for fig in file.figures {
            let n = self.order.len();
            self.order.entry(fig.key.clone()).or_insert(n);
            self.figs.insert(fig.key.clone(), fig);
        }
        for se in file.series {
            let points = se
                .points
                .iter()
                .filter_map(|[x, y]| Some(((*x)?, (*y)?)))
                .collect();
            self.series.insert(
                se.key.clone(),
                Series {
                    key: se.key,
                    label: se.label,
                    x_label: se.x_label,
                    y_label: se.y_label,
                    points,
                },
            );
        }
    }

    pub fn get(&self, key: &str) -> Option<&Figure> {
        self.figs.get(key)
    }

    /// Where `key` came in the files (`usize::MAX` if absent).
    fn position(&self, key: &str) -> usize {
        self.order.get(key).copied().unwrap_or(usize::MAX)
    }

    fn val(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(|f| f.value)
    }

    /// Figures whose key starts with `prefix`.
    fn with_prefix<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a Figure> + 'a {
        self.figs
            .range(prefix.to_string()..)
            .take_while(move |(k, _)| k.starts_with(prefix))
            .map(|(_, f)| f)
    }

    /// Whether ECP5 job `module` placed and routed (`ecp5.<module>.fits`); None if it did
    /// not run.
    fn fits(&self, module: &str) -> Option<bool> {
        self.val(&format!("ecp5.{module}.fits")).map(|v| v != 0.0)
    }

    /// The fmax of ECP5 job `module`, only if its design placed and routed: a design that
    /// does not fit the part has no fmax to pair other figures with.
    fn placed_fmax(&self, module: &str) -> Result<Fmax, String> {
        let key = format!("ecp5.{module}.fmax_mhz");
        let Some(f) = self.get(&key) else {
            return Err(format!("no `{key}` in this run"));
        };
        let why = |s: &str| {
            if f.note.is_empty() {
                s.to_string()
            } else {
                format!("{s}: {}", f.note)
            }
        };
        if self.fits(module) == Some(false) {
            return Err(why(&format!("{module} did not place and route")));
        }
        match f.value {
            Some(mhz) => Ok(Fmax {
                mhz,
                stale: f.stale,
                config: f.config.clone(),
            }),
            None => Err(why(&format!("no fmax for {module}"))),
        }
    }

    /// The fast-path fmax to project DATA_WIDTH `w` figures at: only one synthesised at
    /// that width (the data-path jobs run at DATA_WIDTH 64; a result without a
    /// configuration is from those jobs), and not when the whole data path
    /// (`ecp5.splice_datapath`) was found not to fit the part.
    fn fastpath_fmax(&self, w: u32) -> Result<Fmax, FmaxMissing> {
        let Some(f) = self.get("ecp5.fastpath.fmax_mhz") else {
            return Err(FmaxMissing::NotInRun);
        };
        if data_width(&f.config).unwrap_or(64) != w {
            return Err(FmaxMissing::OtherWidth);
        }
        if self.fits("splice_datapath") == Some(false) {
            let d = self.get("ecp5.splice_datapath.fmax_mhz");
            let fits = self.get("ecp5.splice_datapath.fits");
            let config = d
                .into_iter()
                .chain(fits)
                .map(|f| f.config.as_str())
                .find(|c| !c.is_empty());
            let why = d
                .into_iter()
                .chain(fits)
                .map(|f| f.note.as_str())
                .find(|n| !n.is_empty())
                .unwrap_or("does not fit");
            return Err(FmaxMissing::DoesNotFit(format!(
                "the whole data path, splice_datapath ({}), {why}; the fast-path fmax ({} MHz, \
                 each module out of context) is not the fmax of a design that places",
                config.unwrap_or("configuration not recorded"),
                f.value.map_or("-".into(), num)
            )));
        }
        match f.value {
            Some(mhz) => Ok(Fmax {
                mhz,
                stale: f.stale,
                config: f.config.clone(),
            }),
            None => Err(FmaxMissing::NotInRun),
        }
    }
}

/// An fmax of a design that placed and routed.
#[derive(Debug, Clone)]
struct Fmax {
    mhz: f64,
    stale: bool,
    config: String,
}

/// Why there is no fast-path fmax to project at.
#[derive(Debug, Clone, PartialEq)]
enum FmaxMissing {
    NotInRun,
    /// Synthesised at another DATA_WIDTH only.
    OtherWidth,
    /// The whole data path does not fit the part (the reason).
    DoesNotFit(String),
}

/// The `DATA_WIDTH <n>` a configuration text names.
fn data_width(config: &str) -> Option<u32> {
    let i = config.find("DATA_WIDTH ")?;
    config[i + "DATA_WIDTH ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()
}

/// A row of the summary table.
#[derive(Debug, Clone)]
pub struct Row {
    pub what: String,
    pub value: String,
    pub unit: String,
    pub kind: String,
    pub how: String,
    /// What the figure was measured on (part, speed grade, DATA_WIDTH, table sizes).
    pub config: String,
    /// The producer's note (critical path, why a design did not place).
    pub note: String,
    /// From (or derived from) a place-and-route result of older sources.
    pub stale: bool,
}

impl Row {
    /// This row with its configuration and staleness (those of the figure it derives from).
    fn on(mut self, config: &str, stale: bool) -> Row {
        self.config = config.to_string();
        self.stale |= stale;
        self
    }

    /// The kind column: the kind, and "stale" when it derives from a stale result.
    fn kind_cell(&self) -> String {
        if self.stale {
            format!("{}, stale", self.kind)
        } else {
            self.kind.clone()
        }
    }

    /// The how column: how it was obtained, then the note.
    fn how_cell(&self) -> String {
        if self.note.is_empty() {
            self.how.clone()
        } else {
            format!("{}; note: {}", self.how, self.note)
        }
    }
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
        config: String::new(),
        note: String::new(),
        stale: false,
    }
}

/// A row for a projection that is not made (`why` says why).
fn not_projected(what: &str, unit: &str, why: &str) -> Row {
    Row {
        value: "not projected".into(),
        ..row(what, None, unit, "projected", why)
    }
}

fn fig_row(r: &Results, key: &str, what: &str) -> Row {
    match r.get(key) {
        Some(f) => Row {
            what: what.to_string(),
            value: f
                .value
                .map_or("not measured".into(), |v| num_unit(v, &f.unit)),
            unit: f.unit.clone(),
            kind: f.kind.clone(),
            how: f.how.clone(),
            config: f.config.clone(),
            note: f.note.clone(),
            stale: f.stale,
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

/// The clock the design targets (MHz); the ECP5 builds do not reach it.
const DESIGN_MHZ: f64 = 156.25;
const CONN_PICO_SOC: &str = "new connections/s, PicoRV32 build, at its SoC fmax";
const CONN_PICO_DESIGN: &str = "new connections/s, PicoRV32 build, at the 156.25 MHz design clock";
const CONN_VEX_SOC: &str = "new connections/s, VexRiscv build, at its SoC fmax";

/// The summary table (also the terminal output).
pub fn summary(r: &Results, p: &BuildParams) -> Vec<Row> {
    let mut rows = Vec::new();
    let at = |what: &str, f: &Fmax| {
        format!(
            "at the {what} fmax {:.1} MHz (ECP5 place and route, {})",
            f.mhz,
            if f.config.is_empty() {
                "configuration not recorded"
            } else {
                &f.config
            }
        )
    };
    for w in [64u32, 512] {
        let mins = r
            .with_prefix(&format!("fastpath.w{w}."))
            .filter(|f| f.key.ends_with(".one_port.rx_beats_per_cycle"))
            .filter_map(|f| f.value)
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.min(v))));
        let sim = format!("DATA_WIDTH {w}, simulated RTL");
        rows.push(row(
            &format!("fast path, DATA_WIDTH {w}: lowest accepted beats/cycle, 64-1518 B and IMIX, one port"),
            mins,
            "beats/cycle",
            "exact",
            "back-to-back frames of one spliced flow through splice_datapath (1.0 = line rate)",
        ).on(&sim, false));
        let lat = r.val(&format!("fastpath.w{w}.size64.one_port.latency_cycles"));
        rows.push(
            row(
                &format!("fast path, DATA_WIDTH {w}: latency, 64 B frame, first byte in to out"),
                lat,
                "cycles",
                "exact",
                "splice_datapath, store-and-forward",
            )
            .on(&sim, false),
        );
        // Projections only at an fmax synthesised at this width, of a design that places.
        let gbps_what = format!("fast path, DATA_WIDTH {w}: port throughput");
        let ns_what = format!("fast path, DATA_WIDTH {w}: latency, 64 B frame");
        match r.fastpath_fmax(w) {
            Ok(f) => {
                rows.push(
                    row(
                        &gbps_what,
                        mins.map(|b| b * f64::from(w) * f.mhz / 1000.0),
                        "Gb/s per port",
                        "projected",
                        &format!("beats/cycle x {w} bits x fmax, {}", at("fast-path", &f)),
                    )
                    .on(&f.config, f.stale),
                );
                rows.push(
                    row(
                        &ns_what,
                        lat.map(|c| c * 1000.0 / f.mhz),
                        "ns",
                        "projected",
                        &at("fast-path", &f),
                    )
                    .on(&f.config, f.stale),
                );
            }
            // No DATA_WIDTH 512 build has been synthesised: nothing to project at.
            Err(FmaxMissing::OtherWidth) => {}
            Err(FmaxMissing::NotInRun) => {
                rows.push(not_projected(
                    &gbps_what,
                    "Gb/s per port",
                    "no fast-path fmax in this run",
                ));
            }
            Err(FmaxMissing::DoesNotFit(why)) => {
                let stale = r.get("ecp5.splice_datapath.fits").is_some_and(|f| f.stale);
                rows.push(not_projected(&gbps_what, "Gb/s per port", &why).on("", stale));
                rows.push(not_projected(&ns_what, "ns", &why).on("", stale));
            }
        }
    }
    // Connection setup.
    // `load<N>` (the SYN responder on) and `load<N>fw` (off: the firmware answers the SYNs),
    // measured in the same run.
    let load_key_of = |core: &str, leaf: &str, fw: bool| {
        r.with_prefix(&format!("setup.{core}.load"))
            .find(|f| f.key.ends_with(leaf) && f.key.contains("fw.") == fw)
            .map(|f| f.key.clone())
    };
    let load_key = |core: &str, leaf: &str| load_key_of(core, leaf, false);
    for core in ["picorv32", "vexriscv"] {
        for fw in [false, true] {
            for leaf in [
                ".card_cycles_per_conn",
                ".fw_setup_cycles",
                ".fw_teardown_cycles",
            ] {
                if let Some(k) = load_key_of(core, leaf, fw) {
                    let f = r.get(&k).expect("listed");
                    rows.push(fig_row(
                        r,
                        &k,
                        &format!("connection setup under load, {core}: {}", f.label),
                    ));
                }
            }
        }
    }
    let soc = |core: &str| r.placed_fmax(&format!("soc.{core}"));
    let card_cycles = load_key("picorv32", ".card_cycles_per_conn").and_then(|k| r.val(&k));
    let soc_pico = soc("picorv32");
    let per_conn = "SoC fmax / card cycles per connection under load";
    let card_cps_soc = match &soc_pico {
        Ok(f) => {
            let v = card_cycles.map(|c| f.mhz * 1e6 / c);
            rows.push(
                row(
                    CONN_PICO_SOC,
                    v,
                    "connections/s",
                    "projected",
                    &format!("{per_conn}, {}", at("PicoRV32 SoC", f)),
                )
                .on(&f.config, f.stale),
            );
            v.map(|v| (v, f.clone()))
        }
        Err(why) => {
            rows.push(not_projected(CONN_PICO_SOC, "connections/s", why));
            None
        }
    };
    let design_clock = |f: &Result<Fmax, String>| match f {
        Ok(f) if f.mhz < DESIGN_MHZ => format!(
            "the design clock, not achieved on ECP5 (SoC fmax {:.1} MHz{})",
            f.mhz,
            if f.stale { ", stale" } else { "" }
        ),
        Ok(f) => format!("the design clock (SoC fmax {:.1} MHz)", f.mhz),
        Err(_) => "the design clock (no ECP5 fmax of the SoC in this run)".into(),
    };
    let card_cps_target = card_cycles.map(|c| DESIGN_MHZ * 1e6 / c);
    rows.push(row(
        CONN_PICO_DESIGN,
        card_cps_target,
        "connections/s",
        "projected",
        &format!(
            "156.25 MHz / card cycles per connection under load; {}",
            design_clock(&soc_pico)
        ),
    ));
    let vex_cycles = load_key("vexriscv", ".card_cycles_per_conn").and_then(|k| r.val(&k));
    match soc("vexriscv") {
        Ok(f) => rows.push(
            row(
                CONN_VEX_SOC,
                vex_cycles.map(|c| f.mhz * 1e6 / c),
                "connections/s",
                "projected",
                &format!("{per_conn}, {}", at("VexRiscv SoC", &f)),
            )
            .on(&f.config, f.stale),
        ),
        Err(why) => rows.push(not_projected(CONN_VEX_SOC, "connections/s", &why)),
    }
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
    let ratio_how = "the card's projected figure over HAProxy's measured one, same run";
    rows.push(match &card_cps_soc {
        Some((c, f)) => row(
            "card (PicoRV32, SoC fmax) / HAProxy, new connections/s",
            hap.map(|h| c / h),
            "x",
            "projected / measured",
            ratio_how,
        )
        .on(&f.config, f.stale),
        None => not_projected(
            "card (PicoRV32, SoC fmax) / HAProxy, new connections/s",
            "x",
            "no placed PicoRV32 SoC fmax in this run",
        ),
    });
    rows.push(row(
        "card (PicoRV32, 156.25 MHz) / HAProxy, new connections/s",
        card_cps_target.zip(hap).map(|(c, h)| c / h),
        "x",
        "projected / measured",
        &format!("{ratio_how}; 156.25 MHz is {}", design_clock(&soc_pico)),
    ));
    // Flows.
    rows.push(
        row(
            "concurrent spliced flows, default build",
            Some(p.flows() as f64),
            "flows",
            "exact",
            &format!(
                "min(flow table {} x {} entries / 2 keys, {} flow slots, firmware's {} slots)",
                p.flow_buckets, p.flow_ways, p.flow_slots, p.fw_slots
            ),
        )
        .on("card_top.v and the firmware's parameters, as built", false),
    );
    rows.push(
        row(
            "concurrent spliced flows, external-memory variant",
            Some((EXT_DRAM_BYTES / EXT_BYTES_PER_FLOW) as f64),
            "flows",
            "projected",
            &format!(
            "{} MiB DRAM / {EXT_BYTES_PER_FLOW} B per flow (two 16 B table entries, 128 B state)",
            EXT_DRAM_BYTES >> 20
        ),
        )
        .on(
            "external-memory variant (docs/datapath.md), not built",
            false,
        ),
    );
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
            config: String::new(),
            note: String::new(),
            stale: false,
        });
    }
    rows
}

/// The summary table as terminal text.
pub fn terminal(rows: &[Row]) -> String {
    let w0 = rows.iter().map(|r| r.what.len()).max().unwrap_or(10);
    let w1 = rows.iter().map(|r| r.value.len()).max().unwrap_or(5);
    let w2 = rows.iter().map(|r| r.unit.len()).max().unwrap_or(4);
    let w3 = rows.iter().map(|r| r.kind_cell().len()).max().unwrap_or(4);
    let w4 = rows.iter().map(|r| r.config.len()).max().unwrap_or(6);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w0$}  {:>w1$}  {:<w2$}  {:<w3$}  {:<w4$}  how obtained",
        "figure", "value", "unit", "kind", "config"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:<w0$}  {:>w1$}  {:<w2$}  {:<w3$}  {:<w4$}  {}",
            r.what,
            r.value,
            r.unit,
            r.kind_cell(),
            r.config,
            r.how_cell()
        );
    }
    out
}

/// A table cell: no line breaks, `|` escaped.
/// A section of `md` titled `title`: `intro`, then a table of `figs` (label, value, unit,
/// kind, how), or "Not measured in this run." when there are none.
fn figure_section<'a>(
    md: &mut String,
    title: &str,
    intro: &str,
    figs: impl Iterator<Item = &'a Figure>,
) {
    let _ = writeln!(md, "## {title}\n");
    let figs: Vec<&Figure> = figs.collect();
    if figs.is_empty() {
        let _ = writeln!(md, "Not measured in this run.\n");
        return;
    }
    let _ = writeln!(
        md,
        "{intro}| figure | value | unit | kind | how |\n|---|---:|---|---|---|"
    );
    for f in figs {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            cell(&f.label),
            f.value.map_or("not measured".into(), num),
            f.unit,
            f.kind,
            cell(&f.how)
        );
    }
    md.push('\n');
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn md_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| figure | value | unit | kind | configuration | how obtained |\n|---|---:|---|---|---|---|\n",
    );
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&r.what),
            r.value,
            r.unit,
            if r.stale {
                format!("{}, **stale**", r.kind)
            } else {
                r.kind.clone()
            },
            cell(&r.config),
            cell(&r.how_cell())
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

/// When the results files in `dir` were written (UTC; oldest to newest).
fn results_written(dir: &Path) -> Option<String> {
    let times: Vec<u64> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .filter_map(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs())
        .collect();
    let date = |t: u64| {
        std::process::Command::new("date")
            .args(["-u", "-d", &format!("@{t}"), "+%Y-%m-%d %H:%M UTC"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let (a, b) = (*times.iter().min()?, *times.iter().max()?);
    if b - a < 60 {
        date(b)
    } else {
        Some(format!("{} to {}", date(a)?, date(b)?))
    }
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
    let card = summary_value(&rows, CONN_PICO_SOC);
    let card_t = summary_value(&rows, CONN_PICO_DESIGN);
    let vex = summary_value(&rows, CONN_VEX_SOC);
    if let Some(v) = card {
        bars.push(("PicoRV32, SoC fmax", v));
    }
    if let Some(v) = vex {
        bars.push(("VexRiscv, SoC fmax", v));
    }
    if let Some(v) = card_t {
        bars.push(("PicoRV32, 156 MHz (not reached)", v));
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
        "Generated by `cargo xtask bench`, rendered at commit `{}` on {} ({}) from the results \
         in target/bench{} (`--report-only` renders again from an earlier run's results). \
         Regenerate it with the same command; the sections below give each figure with its \
         unit, the configuration it was measured on and how it was obtained.\n",
        git(root, &["rev-parse", "--short", "HEAD"]),
        git(root, &["log", "-1", "--format=%cd", "--date=short"]),
        machine(),
        results_written(results_dir).map_or(String::new(), |w| format!(", written {w}"))
    );
    let _ = writeln!(
        md,
        "Kinds: **exact** = a cycle count of the simulated RTL (repeatable); **measured** = wall \
         clock or place-and-route on this machine (varies with load; the machine is shared); \
         **projected** = computed from exact cycle counts at a clock frequency; **reference** = \
         quoted. The card's connection rate is projected, the HAProxy baseline measured, both in \
         the same run. A projection is made only at an fmax synthesised at the same DATA_WIDTH, \
         and not for a design that place and route found not to fit the part; **stale** marks a figure reused from a place-and-route run on \
         older sources (`--synth-stale`) and every row derived from it.\n"
    );
    let _ = writeln!(md, "## Summary\n\n{}", md_table(&rows));
    for (f, cap) in &plots_drawn {
        let _ = writeln!(md, "![{cap}](img/{f})\n");
    }
    let _ = writeln!(md, "## Fast path by frame size\n");
    md.push_str(&fastpath_table(&r));
    let _ = writeln!(md, "## Connection setup\n");
    let setup: Vec<&Figure> = r.with_prefix("setup.").collect();
    if setup.is_empty() {
        let _ = writeln!(md, "Not measured in this run.\n");
    } else {
        let _ = writeln!(
            md,
            "| figure | value | unit | kind | how |\n|---|---:|---|---|---|"
        );
        for f in setup {
            let core = f.key.split('.').nth(1).unwrap_or("");
            let soc = r.placed_fmax(&format!("soc.{core}")).ok();
            let how = if f.note.is_empty() {
                f.how.clone()
            } else {
                format!("{}; note: {}", f.how, f.note)
            };
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} |",
                cell(&setup_label(f, soc.as_ref())),
                f.value.map_or("not measured".into(), num),
                f.unit,
                if f.stale {
                    format!("{}, **stale**", f.kind)
                } else {
                    f.kind.clone()
                },
                cell(&how)
            );
        }
        md.push('\n');
    }
    figure_section(
        &mut md,
        "Slot lifetime and the sustained connection rate",
        "Little's law: the flow slots in use are the connection rate times the time a \
         connection holds its slot, its own duration plus the timeout of the state it is left \
         in (docs/engine.md, \"Slot lifetime\").\n\n",
        r.with_prefix("slots."),
    );
    figure_section(
        &mut md,
        "SYN flood at wire rate (hardware SYN responder)",
        "",
        r.with_prefix("synflood."),
    );
    let _ = writeln!(md, "## Where the cycles go per new connection\n");
    md.push_str(&profile_table(&r));
    let _ = writeln!(md, "## ECP5 resources and fmax (out of context)\n");
    md.push_str(&ecp5_table(&r));
    let _ = writeln!(md, "## Software baseline: HAProxy\n");
    let base: Vec<&Figure> = r.with_prefix("baseline.").collect();
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
                cell(&f.label),
                f.value.map_or("not measured".into(), num),
                f.unit,
                cell(&f.how)
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

/// The label of a connection-setup figure. A connection rate the bench projected at the
/// 156.25 MHz design clock (its `how` says so) is named for that clock, with the fmax the
/// SoC actually reached, instead of "card-measured (fmax / ...)": nothing in it was
/// measured on a card, and the ECP5 builds do not reach 156.25 MHz.
fn setup_label(f: &Figure, soc: Option<&Fmax>) -> String {
    if f.unit != "connections/s" || !f.how.contains("at 156.25 MHz") {
        return f.label.clone();
    }
    let label = f
        .label
        .replace(", card-measured (fmax / ", " (156.25 MHz / ")
        .replace("card-measured (fmax / ", "(156.25 MHz / ")
        .replace("(fmax / ", "(156.25 MHz / ");
    let reached = match soc {
        Some(s) if s.mhz < DESIGN_MHZ => format!(
            "not achieved on ECP5: SoC fmax {:.1} MHz{}",
            s.mhz,
            if s.stale { ", stale" } else { "" }
        ),
        Some(s) => format!("SoC fmax {:.1} MHz", s.mhz),
        None => "no placed SoC fmax in this run".into(),
    };
    format!("{label}, at the 156.25 MHz design clock ({reached})")
}

/// The ECP5 jobs, one row each: resources, and the fmax only of a design that placed and
/// routed (a design that does not fit the part has no fmax to go with its cell counts);
/// every row of a stale result says so.
fn ecp5_table(r: &Results) -> String {
    let mut mods: BTreeMap<String, BTreeMap<String, &Figure>> = BTreeMap::new();
    for f in r.with_prefix("ecp5.") {
        let rest = &f.key["ecp5.".len()..];
        if let Some((m, what)) = rest.rsplit_once('.') {
            if m != "fastpath" {
                mods.entry(m.to_string())
                    .or_default()
                    .insert(what.to_string(), f);
            }
        }
    }
    if mods.is_empty() {
        return "Not measured in this run.\n\n".to_string();
    }
    let mut out = String::from(
        "| module | configuration | LUT4 | FF | DP16KD | DPR16X4 | MULT18 | fmax MHz | status | note |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---|---|\n",
    );
    for (m, vals) in &mods {
        let cells: Vec<String> = ["lut4", "ff", "dp16kd", "dpr16x4", "mult18"]
            .iter()
            .map(|c| {
                vals.get(*c)
                    .and_then(|f| f.value)
                    .map_or(String::new(), num)
            })
            .collect();
        let fmax = vals.get("fmax_mhz");
        let fits = r.fits(m);
        let fmax_cell = match (fits, r.placed_fmax(m)) {
            (Some(false), _) => "does not fit".to_string(),
            (_, Ok(f)) => num(f.mhz),
            (_, Err(_)) => "-".to_string(),
        };
        let stale = vals.values().any(|f| f.stale);
        let mut status = vals.get("fits").map_or(String::new(), |f| f.note.clone());
        if stale {
            status.push_str(", **stale**");
        }
        let _ = writeln!(
            out,
            "| {m} | {} | {} | {fmax_cell} | {} | {} |",
            cell(
                fmax.into_iter()
                    .chain(vals.values())
                    .map(|f| f.config.as_str())
                    .find(|c| !c.is_empty())
                    .unwrap_or("")
            ),
            cells.join(" | "),
            cell(&status),
            cell(fmax.map_or("", |f| f.note.as_str()))
        );
    }
    if let Some(f) = r.get("ecp5.fastpath.fmax_mhz") {
        let _ = writeln!(
            out,
            "\nFast path fmax: {} MHz{} ({}; {}){}.",
            f.value.map_or("-".into(), num),
            if f.stale { ", **stale**" } else { "" },
            f.config,
            f.how,
            if f.note.is_empty() {
                String::new()
            } else {
                format!("; note: {}", f.note)
            }
        );
    }
    out.push('\n');
    out
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
        assert_eq!(summary_value(&rows, CONN_PICO_SOC), Some(10000.0));
        let ratio = rows
            .iter()
            .find(|r| r.what.starts_with("card (PicoRV32, SoC fmax) / HAProxy"))
            .unwrap();
        assert_eq!(ratio.value, "5.00");
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn fig(key: &str, value: Option<f64>, unit: &str) -> Figure {
        Figure {
            key: key.into(),
            label: key.into(),
            value,
            unit: unit.into(),
            kind: "measured".into(),
            how: "h".into(),
            note: String::new(),
            config: String::new(),
            stale: false,
        }
    }

    fn results(figures: Vec<Figure>) -> Results {
        let mut r = Results::default();
        r.add(BenchFile {
            bench: "t".into(),
            command: "c".into(),
            wall_s: None,
            figures,
            series: Vec::new(),
        });
        r
    }

    const PARAMS: BuildParams = BuildParams {
        flow_buckets: 8,
        flow_ways: 4,
        flow_slots: 100,
        fw_slots: 100,
    };

    fn find<'a>(rows: &'a [Row], what: &str) -> Option<&'a Row> {
        rows.iter().find(|r| r.what == what)
    }

    #[test]
    fn a_figure_round_trips_through_serde() {
        let f = Figure {
            key: "ecp5.flow_table.fmax_mhz".into(),
            label: "flow_table \"fmax\" \\ (LFE5U-85F)\n".into(),
            value: Some(55.62),
            unit: "MHz".into(),
            kind: "measured".into(),
            how: "nextpnr-ecp5 --85k --speed 6".into(),
            note: "critical path: a -> b [flow_table.v:10]".into(),
            config: "LFE5U-85F, speed grade -6, CABGA381; flow_table BUCKETS 1024".into(),
            stale: true,
        };
        let text = serde_json::to_string(&f).unwrap();
        assert_eq!(serde_json::from_str::<Figure>(&text).unwrap(), f);
        // No value (a design that did not place): null, and back.
        let g = Figure {
            value: None,
            note: String::new(),
            config: String::new(),
            stale: false,
            ..f.clone()
        };
        let text = serde_json::to_string(&g).unwrap();
        assert!(text.contains("\"value\":null"), "{text}");
        assert!(!text.contains("stale") && !text.contains("note"), "{text}");
        assert_eq!(serde_json::from_str::<Figure>(&text).unwrap(), g);
        // The bench programs' records (no note, config or stale) read too.
        let old: BenchFile = serde_json::from_str(
            r#"{"bench":"spine","command":"x","figures":[{"key":"k","label":"l","value":1.5,"unit":"u","kind":"exact","how":"h"}],
                "series":[{"key":"s","label":"l","x_label":"x","y_label":"y","points":[[64,1.0],[128,null]]}]}"#,
        )
        .unwrap();
        assert_eq!(old.figures[0].value, Some(1.5));
        assert!(!old.figures[0].stale && old.figures[0].config.is_empty());
        let r = results(old.figures.clone());
        assert_eq!(r.val("k"), Some(1.5));
        let mut r = Results::default();
        r.add(old);
        assert_eq!(r.series["s"].points, vec![(64.0, 1.0)]);
    }

    #[test]
    fn a_design_that_does_not_fit_is_not_paired_with_an_fmax() {
        let mut dp_fits = fig("ecp5.splice_datapath.fits", Some(0.0), "bool");
        dp_fits.note = "does not fit".into();
        dp_fits.config = "LFE5U-85F, speed grade -6; splice_datapath DATA_WIDTH 64".into();
        let mut fp = fig("ecp5.fastpath.fmax_mhz", Some(40.9), "MHz");
        fp.config = "LFE5U-85F, speed grade -6; DATA_WIDTH 64".into();
        // A module whose P&R said it does not fit, with an fmax figure anyway.
        let mut m_fmax = fig("ecp5.big.fmax_mhz", Some(99.0), "MHz");
        m_fmax.note = "does not fit the LFE5U-85F: DP16KD 318/208 (152 %)".into();
        let r = results(vec![
            fig(
                "fastpath.w64.size64.one_port.rx_beats_per_cycle",
                Some(1.0),
                "beats/cycle",
            ),
            fig(
                "fastpath.w64.size64.one_port.latency_cycles",
                Some(57.0),
                "cycles",
            ),
            fig(
                "fastpath.w512.size64.one_port.rx_beats_per_cycle",
                Some(1.0),
                "beats/cycle",
            ),
            fp.clone(),
            dp_fits,
            fig("ecp5.splice_datapath.lut4", Some(84001.0), "LUT4"),
            fig("ecp5.splice_datapath.fmax_mhz", None, "MHz"),
            fig("ecp5.big.lut4", Some(5000.0), "LUT4"),
            m_fmax,
            fig("ecp5.big.fits", Some(0.0), "bool"),
        ]);
        let rows = summary(&r, &PARAMS);
        let t = find(&rows, "fast path, DATA_WIDTH 64: port throughput").unwrap();
        assert_eq!(t.value, "not projected");
        assert!(t.how.contains("splice_datapath"), "{}", t.how);
        assert_eq!(
            find(&rows, "fast path, DATA_WIDTH 64: latency, 64 B frame")
                .unwrap()
                .value,
            "not projected"
        );
        // No 512-bit build was synthesised: no 512-bit projection at all.
        assert!(find(&rows, "fast path, DATA_WIDTH 512: port throughput").is_none());
        assert!(find(&rows, "fast path, DATA_WIDTH 512: latency, 64 B frame").is_none());
        // The ECP5 table gives the non-fitting module's cells but no fmax.
        let table = ecp5_table(&r);
        let big = table.lines().find(|l| l.starts_with("| big |")).unwrap();
        assert!(
            big.contains("| does not fit |") && !big.contains("99"),
            "{big}"
        );
        assert!(big.contains("DP16KD 318/208"), "note printed: {big}");
        let dp = table
            .lines()
            .find(|l| l.starts_with("| splice_datapath |"))
            .unwrap();
        assert!(
            dp.contains("84,001") && dp.contains("| does not fit |"),
            "{dp}"
        );
        assert!(
            dp.contains("splice_datapath DATA_WIDTH 64"),
            "config shown: {dp}"
        );
        // Once the whole data path is not known not to fit, the 64-bit projection is made.
        let r = results(vec![
            fig(
                "fastpath.w64.size64.one_port.rx_beats_per_cycle",
                Some(1.0),
                "beats/cycle",
            ),
            fp,
        ]);
        let rows = summary(&r, &PARAMS);
        let t = find(&rows, "fast path, DATA_WIDTH 64: port throughput").unwrap();
        assert_eq!(t.value, "2.62");
        assert_eq!(t.config, "LFE5U-85F, speed grade -6; DATA_WIDTH 64");
    }

    #[test]
    fn a_stale_result_marks_every_row_derived_from_it() {
        let mut fp = fig("ecp5.fastpath.fmax_mhz", Some(40.0), "MHz");
        fp.stale = true;
        fp.config = "DATA_WIDTH 64".into();
        fp.note = "set by splice_rewriter".into();
        let mut soc = fig("ecp5.soc.picorv32.fmax_mhz", Some(50.0), "MHz");
        soc.stale = true;
        let r = results(vec![
            fig(
                "fastpath.w64.size64.one_port.rx_beats_per_cycle",
                Some(1.0),
                "beats/cycle",
            ),
            fig(
                "fastpath.w64.size64.one_port.latency_cycles",
                Some(40.0),
                "cycles",
            ),
            fp,
            soc,
            fig("ecp5.soc.picorv32.fits", Some(1.0), "bool"),
            fig(
                "setup.picorv32.load64.card_cycles_per_conn",
                Some(5000.0),
                "cycles/connection",
            ),
            fig("baseline.haproxy.conn_per_s", Some(2000.0), "connections/s"),
        ]);
        let rows = summary(&r, &PARAMS);
        for what in [
            "fast path, DATA_WIDTH 64: port throughput",
            "fast path, DATA_WIDTH 64: latency, 64 B frame",
            CONN_PICO_SOC,
            "card (PicoRV32, SoC fmax) / HAProxy, new connections/s",
            "fmax, fast path (slowest fast-path module)",
            "fmax, SoC (PicoRV32)",
        ] {
            let row = find(&rows, what).unwrap();
            assert!(row.stale, "{what} not marked stale");
            assert!(row.kind_cell().ends_with("stale"), "{what}");
        }
        // Rows not derived from a place-and-route result are not.
        for what in [
            "fast path, DATA_WIDTH 64: latency, 64 B frame, first byte in to out",
            "HAProxy: new connections/s (same routing, same backends)",
        ] {
            assert!(!find(&rows, what).unwrap().stale, "{what}");
        }
        let md = md_table(&rows);
        let line = md
            .lines()
            .find(|l| l.starts_with("| fast path, DATA_WIDTH 64: port throughput |"))
            .unwrap();
        assert!(line.contains("projected, **stale**"), "{line}");
        // The note is printed.
        let line = md
            .lines()
            .find(|l| l.starts_with("| fmax, fast path"))
            .unwrap();
        assert!(line.contains("note: set by splice_rewriter"), "{line}");
        assert!(ecp5_table(&r).contains("Fast path fmax: 40.0 MHz, **stale**"));
    }

    #[test]
    fn design_clock_rates_are_named_for_that_clock() {
        let mut f = fig(
            "setup.picorv32.load64.conn_per_s",
            Some(831.0),
            "connections/s",
        );
        f.label =
            "PicoRV32 load64: new connections/s, card-measured (fmax / card cycles per connection)"
                .into();
        f.how = "projected from cycle counts at 156.25 MHz".into();
        let soc = Fmax {
            mhz: 43.2,
            stale: false,
            config: String::new(),
        };
        assert_eq!(
            setup_label(&f, Some(&soc)),
            "PicoRV32 load64: new connections/s (156.25 MHz / card cycles per connection), at \
             the 156.25 MHz design clock (not achieved on ECP5: SoC fmax 43.2 MHz)"
        );
        assert!(!setup_label(&f, None).contains("card-measured"));
    }
}
