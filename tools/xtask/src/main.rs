//! SpliceNIC build automation: `cargo xtask <command>`.
#![deny(clippy::undocumented_unsafe_blocks)]

mod demo;
mod firmware;
mod hil;
mod layout_lint;
mod records;
mod regen;
mod report;
mod setup;
mod synth;
mod test;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "SpliceNIC build, test and demo automation"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Install every system dependency (Debian packages, the project virtualenv, pinned
    /// code generators). Idempotent; as a non-root user it prints the commands to run.
    Setup,
    /// Check that every tool the build and the tests call resolves (the end of `setup`);
    /// names each missing one and the package that provides it.
    Check,
    /// Build the firmware ELF and the host tools (the simulated card builds the gateware),
    /// and the optimised nicctl (target/release/nicctl).
    Build,
    /// Regenerate every register view from registers/splicenic.svd and every shared record
    /// view from registers/records.toml.
    Regen {
        /// Fail if any generated file differs from a fresh generation.
        #[arg(long)]
        check: bool,
    },
    /// Formatting, clippy and gateware lint (Verilator, Icarus, Yosys).
    Lint {
        /// Only the check that shared layout values appear in generated files only.
        #[arg(long)]
        layout_only: bool,
    },
    /// Run every test: register check, lint, firmware build, host and simulated-card tests.
    Test,
    /// Set up, build, start the simulated card, program it, ping it, show info and the log.
    Demo,
    /// Run the hardware-in-the-loop scenarios one by one (simulated rig, or the lab rig a
    /// rig file describes) and print a pass/fail table.
    Hil {
        /// Only the scenarios whose name contains this text.
        #[arg(long, value_name = "NAME")]
        filter: Option<String>,
        /// Rig file (hil-tests/rigs/lab.toml is an example); default: the simulated rig.
        #[arg(long, value_name = "FILE")]
        rig: Option<std::path::PathBuf>,
    },
    /// Measure and write the performance report (docs/PERFORMANCE.md, plots in docs/img/):
    /// fast path, connection setup, ECP5 fmax and resources, the simulated rig, and HAProxy
    /// as a software baseline in the same run.
    Bench {
        /// Skip ECP5 place and route (slow; its results are cached when nothing changed).
        #[arg(long)]
        no_synth: bool,
        /// For a module whose sources changed since its last place and route, use that
        /// cached result (marked in the report) instead of running it again.
        #[arg(long)]
        synth_stale: bool,
        /// Seconds of each wrk run of the HAProxy baseline.
        #[arg(long, default_value_t = 5, value_name = "S")]
        baseline_secs: u32,
        /// Only write the report again from the results of the last run (target/bench).
        #[arg(long)]
        report_only: bool,
        /// Only the ECP5 synthesis and place-and-route jobs whose key contains JOB (or one of
        /// a comma-separated list; e.g. `soc.picorv32`, `splice_datapath`, `l7_matcher`), with
        /// their figures printed and written to target/synth-only/synth.json; no other bench,
        /// no report.
        #[arg(long, value_name = "JOB", conflicts_with_all = ["report_only", "no_synth"])]
        synth_only: Option<String>,
        /// The whole bench and report, but ECP5 place and route only for the jobs whose key
        /// contains JOB (a comma-separated list, e.g. `syn_cookie,tcp_opt_decoder`); the
        /// report names the figures it has not got.
        #[arg(long, value_name = "JOB", conflicts_with_all = ["report_only", "no_synth", "synth_only"])]
        synth_jobs: Option<String>,
    },
}

fn main() {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Setup => setup::setup(),
        Cmd::Check => setup::check(),
        Cmd::Build => firmware::build_all(),
        Cmd::Regen { check } => regen::regen(check),
        Cmd::Lint { layout_only: true } => layout_lint::run(&root()),
        Cmd::Lint { layout_only: false } => test::lint(),
        Cmd::Test => test::test(),
        Cmd::Demo => demo::demo(),
        Cmd::Bench {
            synth_only: Some(job),
            synth_stale,
            ..
        } => synth::synth(&root().join("target/synth-only"), Some(&job), synth_stale),
        Cmd::Bench {
            report_only: true, ..
        } => report::report(
            &root(),
            &root().join("target/bench"),
            &root().join("docs/PERFORMANCE.md"),
        ),
        Cmd::Bench {
            no_synth,
            synth_stale,
            baseline_secs,
            report_only: false,
            synth_only: None,
            synth_jobs,
        } => bench(BenchOpts {
            no_synth,
            synth_stale,
            baseline_secs,
            synth_jobs,
        }),
        Cmd::Hil { filter, rig } => hil::hil(filter.as_deref(), rig.as_deref()),
    };
    if let Err(e) = r {
        eprintln!("xtask: error: {e:#}");
        std::process::exit(1);
    }
}

/// The repository root (tools/xtask/../..).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("xtask lives two levels below the root")
        .to_path_buf()
}

/// A tool installed by `cargo install` (found in PATH or in ~/.cargo/bin).
pub fn tool_path(name: &str) -> PathBuf {
    if let Some(p) = which(name) {
        return p;
    }
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_default();
    home.join("bin").join(name)
}

/// Look a program up in PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// Run a command, echoing it; fail with its exit status.
pub fn run(cmd: &mut Command) -> Result<()> {
    let mut shown = format!("{cmd:?}").replace('"', "");
    if shown.len() > 240 {
        let cut = (0..=240)
            .rev()
            .find(|&i| shown.is_char_boundary(i))
            .unwrap_or(0);
        shown.truncate(cut);
        shown.push_str(" ...");
    }
    eprintln!("+ {shown}");
    let st = cmd
        .status()
        .with_context(|| format!("could not start `{shown}`"))?;
    if !st.success() {
        bail!("`{shown}` failed ({st})");
    }
    Ok(())
}

/// A `cargo` command for the host workspace, using the cargo that runs xtask.
pub fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(root());
    c
}

/// Path of the firmware ELF built by `cargo xtask build`.
pub fn firmware_elf() -> PathBuf {
    root().join("target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw")
}

/// Data-path module benches: (package, test target). Their figures are exact cycle counts,
/// printed by the tests themselves.
const DATAPATH_BENCHES: &[(&str, &str)] = &[
    ("splicenic-tb-parser", "throughput"),
    ("splicenic-tb-flow", "flow_table"),
    ("splicenic-tb-rewriter", "throughput"),
    ("splicenic-tb-l7", "random"),
    ("splicenic-tb-datapath", "throughput"),
    ("splicenic-tb-datapath", "synresp"),
];

/// Options of `cargo xtask bench`.
struct BenchOpts {
    /// Skip place and route (cached results are still used when present).
    no_synth: bool,
    /// Use the newest cached place-and-route result of a module whose sources changed
    /// (marked as such in the report) instead of running it again.
    synth_stale: bool,
    /// wrk seconds per baseline run.
    baseline_secs: u32,
    /// Place and route only the jobs whose key contains this.
    synth_jobs: Option<String>,
}

/// Run one bench step; a failure is noted for the report (which says so) and returned as
/// `false`, so the other steps still run.
fn bench_step(dir: &std::path::Path, name: &str, f: impl FnOnce() -> Result<()>) -> bool {
    step(name);
    match f() {
        Ok(()) => true,
        Err(e) => {
            eprintln!("xtask: bench step failed: {name}: {e:#}");
            let _ = report::Results::note_missing(dir, name, &format!("failed: {e:#}"));
            false
        }
    }
}

fn bench(opts: BenchOpts) -> Result<()> {
    firmware::build_firmware()?;
    let root = root();
    let dir = root.join("target/bench");
    // Results of this run only.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let bench_env = |c: &mut std::process::Command| {
        c.env("SPLICENIC_BENCH_DIR", &dir)
            .env("SPLICENIC_FW_ELF", firmware_elf());
    };
    let mut ok = true;
    // ECP5 first: the report projects the card's rates at these fmax figures.
    if opts.no_synth {
        let _ = report::Results::note_missing(&dir, "ECP5 place and route", "skipped (--no-synth)");
    } else {
        ok &= bench_step(
            &dir,
            "ECP5 resources and fmax (place and route, cached)",
            || synth::synth(&dir, opts.synth_jobs.as_deref(), opts.synth_stale),
        );
    }
    // hil-tests benches with both soft cores, on the firmware just built.
    let hil_bench = |bin: &str| {
        let mut c = cargo();
        c.args([
            "run",
            "--release",
            "-p",
            "splicenic-hil",
            "--features",
            "vexriscv",
        ])
        .args(["--bin", bin]);
        bench_env(&mut c);
        run(&mut c)
    };
    ok &= bench_step(
        &dir,
        "spine figures (simulated card, PicoRV32 and VexRiscv builds)",
        || hil_bench("spine-bench"),
    );
    ok &= bench_step(
        &dir,
        "flow manager: connection setup cycles, one at a time and under load",
        || hil_bench("splice-bench"),
    );
    ok &= bench_step(
        &dir,
        "rule sets: compile 1K/10K/100K rules, load a full bank into the simulated card",
        || hil_bench("rules-bench"),
    );
    for (pkg, test) in DATAPATH_BENCHES {
        ok &= bench_step(&dir, &format!("data-path figures: {pkg}"), || {
            let mut c = cargo();
            // The integrated data path in release (its frame-size sweep is long); the module
            // benches as the tests build them.
            c.arg("test");
            if *pkg == "splicenic-tb-datapath" {
                c.arg("--release");
            }
            c.args(["-q", "-p", pkg, "--test", test, "--", "--nocapture"]);
            bench_env(&mut c);
            run(&mut c)
        });
    }
    ok &= bench_step(&dir, "parser: 100,000 checked frames per width", || {
        run(cargo().args([
            "run",
            "--release",
            "-q",
            "-p",
            "splicenic-tb-parser",
            "--example",
            "parser_bench",
        ]))
    });
    if setup::is_root() {
        ok &= bench_step(
            &dir,
            "software baseline: HAProxy with the card's routing, measured with wrk",
            || {
                let mut c = cargo();
                c.args([
                    "run",
                    "--release",
                    "-q",
                    "-p",
                    "splicenic-hil",
                    "--bin",
                    "proxy-bench",
                    "--",
                ])
                .arg(opts.baseline_secs.to_string());
                bench_env(&mut c);
                run(&mut c)
            },
        );
    } else {
        let _ = report::Results::note_missing(
            &dir,
            "software baseline",
            "needs root (network namespaces)",
        );
    }
    step("report: docs/PERFORMANCE.md");
    report::report(&root, &dir, &root.join("docs/PERFORMANCE.md"))?;
    if !ok {
        bail!("some bench steps failed (named above and in docs/PERFORMANCE.md); the report has the rest");
    }
    Ok(())
}

/// Print a section heading.
pub fn step(what: &str) {
    eprintln!("\n==> {what}");
}
