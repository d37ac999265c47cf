//! SpliceNIC build automation: `cargo xtask <command>`.
#![deny(clippy::undocumented_unsafe_blocks)]

mod demo;
mod firmware;
mod hil;
mod regen;
mod setup;
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
    /// Build the firmware ELF and the host tools (the simulated card builds the gateware).
    Build,
    /// Regenerate every register view from registers/splicenic.svd.
    Regen {
        /// Fail if any generated file differs from a fresh generation.
        #[arg(long)]
        check: bool,
    },
    /// Formatting, clippy and gateware lint (Verilator, Icarus, Yosys).
    Lint,
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
    /// Print measured figures: simulated cycles/s, firmware load time, soft-core comparison,
    /// flow-manager cycles per connection,
    /// and the data-path modules' throughput and latency.
    Bench,
}

fn main() {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Setup => setup::setup(),
        Cmd::Build => firmware::build_all(),
        Cmd::Regen { check } => regen::regen(check),
        Cmd::Lint => test::lint(),
        Cmd::Test => test::test(),
        Cmd::Demo => demo::demo(),
        Cmd::Bench => bench(),
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
];

fn bench() -> Result<()> {
    firmware::build_firmware()?;
    // hil-tests benches with both soft cores, on the firmware just built.
    let hil_bench = |bin: &str| {
        run(cargo()
            .args([
                "run",
                "--release",
                "-p",
                "splicenic-hil",
                "--features",
                "vexriscv",
            ])
            .args(["--bin", bin])
            .env("SPLICENIC_FW_ELF", firmware_elf()))
    };
    step("spine figures (simulated card, PicoRV32 and VexRiscv builds)");
    hil_bench("spine-bench")?;
    step("flow manager: soft-core cycles per spliced connection (PicoRV32 and VexRiscv)");
    hil_bench("splice-bench")?;
    step("rule sets: compile 1K/10K/100K rules, load a full bank into the simulated card");
    hil_bench("rules-bench")?;
    for (pkg, test) in DATAPATH_BENCHES {
        step(&format!("data-path figures: {pkg}"));
        run(cargo().args(["test", "-q", "-p", pkg, "--test", test, "--", "--nocapture"]))?;
    }
    step("parser: 100,000 checked frames per width");
    run(cargo().args([
        "run",
        "--release",
        "-q",
        "-p",
        "splicenic-tb-parser",
        "--example",
        "parser_bench",
    ]))
}

/// Print a section heading.
pub fn step(what: &str) {
    eprintln!("\n==> {what}");
}
