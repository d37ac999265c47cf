//! `cargo xtask lint` and `cargo xtask test`.

use anyhow::{bail, Result};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::{cargo, firmware, firmware_elf, regen, root, run, setup, step};

/// The environment of `cargo xtask test`'s test runs: a missing prerequisite (root, a tool,
/// a Python module) fails the test instead of skipping it (`splicenic_sim::prereq`).
pub(crate) const REQUIRE_ENV: &str = "SPLICENIC_REQUIRE_ALL";
/// Where the test helpers append every skip (`splicenic_sim::prereq`).
pub(crate) const SKIP_LOG_ENV: &str = "SPLICENIC_SKIP_LOG";

/// The `splicenic-hil` suites run a second time on the VexRiscv build of the simulated card.
const VEXRISCV_SUITES: &[&str] = &["spine", "splice"];

/// Formatting, clippy (host crates), and the gateware checks (Verilator lint, Icarus, Yosys).
pub fn lint() -> Result<()> {
    Suites::new().lint()
}

/// Named steps with their wall times, printed as a table at the end.
struct Suites {
    t0: Instant,
    done: Vec<(String, f64)>,
}

impl Suites {
    fn new() -> Suites {
        Suites {
            t0: Instant::now(),
            done: Vec::new(),
        }
    }

    /// Run one suite; a failure prints the table so far and is returned.
    fn suite(&mut self, name: &str, f: impl FnOnce() -> Result<()>) -> Result<()> {
        step(name);
        let t = Instant::now();
        let r = f();
        self.done
            .push((name.to_string(), t.elapsed().as_secs_f64()));
        if r.is_err() {
            self.table(Some(name));
        }
        r
    }

    fn lint(&mut self) -> Result<()> {
        self.suite("shared layout values only in generated files", || {
            crate::layout_lint::run(&root())
        })?;
        self.suite("rustfmt", || {
            run(cargo().args(["fmt", "--all", "--check"]))?;
            run(cargo().args([
                "fmt",
                "--check",
                "--manifest-path",
                "firmware/app/Cargo.toml",
            ]))
        })?;
        self.suite("clippy", || {
            run(cargo().args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]))
        })?;
        self.suite(
            "nicctl builds without the simulated card (no Verilator)",
            || {
                // A Verilator that cannot run: the build fails if the simulated card's build
                // script (or anything else Verilated) becomes part of nicctl without `sim`. Its
                // own target directory keeps target/debug/nicctl the default build.
                run(cargo()
                    .args([
                        "build",
                        "-p",
                        "nicctl",
                        "--no-default-features",
                        "--target-dir",
                        "target/nicctl-without-sim",
                    ])
                    .env("VERILATOR", "/nonexistent/verilator"))
            },
        )?;
        self.suite(
            "gateware: Verilator lint, Icarus compile, Yosys synthesis",
            || {
                run(Command::new("bash")
                    .arg(root().join("gateware-rtl/syn/check.sh"))
                    .current_dir(root()))
            },
        )
    }

    fn table(&self, failed: Option<&str>) {
        let width = self.done.iter().map(|(n, _)| n.len()).max().unwrap_or(5);
        eprintln!("\n{:<width$}  {:>8}", "suite", "wall s");
        for (name, secs) in &self.done {
            let mark = if Some(name.as_str()) == failed {
                "  FAILED"
            } else {
                ""
            };
            eprintln!("{name:<width$}  {secs:>8.1}{mark}");
        }
        eprintln!(
            "{:<width$}  {:>8.1}",
            "total",
            self.t0.elapsed().as_secs_f64()
        );
    }
}

/// The environment of every test run of `cargo xtask test`: the firmware under test, every
/// prerequisite required, skips logged to `skip_log`, the default core and rig.
fn test_env<'c>(c: &'c mut Command, skip_log: &std::path::Path) -> &'c mut Command {
    c.env("SPLICENIC_FW_ELF", firmware_elf())
        .env(REQUIRE_ENV, "1")
        .env(SKIP_LOG_ENV, skip_log)
        .env_remove("SPLICENIC_SIM_CPU")
        .env_remove("SPLICENIC_RIG")
}

/// A `cargo test` of the workspace with the VexRiscv model built in too (one build serves
/// both soft cores), in [`test_env`].
fn workspace_tests(skip_log: &std::path::Path) -> Command {
    let mut c = cargo();
    c.args([
        "test",
        "--workspace",
        "--features",
        "splicenic-hil/vexriscv",
    ]);
    test_env(&mut c, skip_log);
    c
}

/// Builds every test of the workspace run ([`workspace_tests`]) and returns the binaries of
/// [`VEXRISCV_SUITES`] (from cargo's JSON messages).
fn build_tests(skip_log: &std::path::Path) -> Result<Vec<std::path::PathBuf>> {
    let mut c = workspace_tests(skip_log);
    c.args(["--no-run", "--message-format=json-render-diagnostics"])
        .stdout(Stdio::piped());
    eprintln!("+ cargo test --workspace --features splicenic-hil/vexriscv --no-run");
    let out = c.spawn()?.wait_with_output()?;
    if !out.status.success() {
        bail!("building the tests failed ({})", out.status);
    }
    let mut bins = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let target = &msg["target"];
        let is_suite = msg["reason"] == "compiler-artifact"
            && msg["manifest_path"]
                .as_str()
                .is_some_and(|p| std::path::Path::new(p) == root().join("hil-tests/Cargo.toml"))
            && target["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "test"))
            && target["name"]
                .as_str()
                .is_some_and(|n| VEXRISCV_SUITES.contains(&n));
        if let (true, Some(exe)) = (is_suite, msg["executable"].as_str()) {
            bins.push(std::path::PathBuf::from(exe));
        }
    }
    if bins.len() != VEXRISCV_SUITES.len() {
        bail!(
            "found {} of the {} VexRiscv suites' test binaries in cargo's output: {bins:?}",
            bins.len(),
            VEXRISCV_SUITES.len()
        );
    }
    Ok(bins)
}

pub fn test() -> Result<()> {
    if !setup::is_root() {
        bail!(
            "`cargo xtask test` runs every test, and the hardware-in-the-loop tests need root \
             (TAP devices, network namespaces): run it as root. As this user, \
             `cargo test --workspace` runs the tests that can run here; the others print a \
             note and skip."
        );
    }
    let mut s = Suites::new();
    s.suite(
        "tool check (every tool the build and the tests call)",
        setup::check,
    )?;
    s.suite(
        "register and record views match the SVD and records.toml",
        || regen::regen(true),
    )?;
    s.lint()?;
    s.suite("firmware build", firmware::build_firmware)?;
    s.suite(
        "firmware links without rust-lld (fresh build, rust-lld hidden)",
        firmware::build_firmware_without_rust_lld,
    )?;
    let skip_log = root().join("target/test-skips.log");
    let _ = std::fs::remove_file(&skip_log);
    let mut vex_bins = Vec::new();
    s.suite("build the host crates and their tests", || {
        vex_bins = build_tests(&skip_log)?;
        Ok(())
    })?;
    s.suite(
        "host, simulated-card (PicoRV32) and hardware-in-the-loop tests",
        || run(&mut workspace_tests(&skip_log)),
    )?;
    s.suite(
        &format!(
            "simulated card on VexRiscv: splicenic-hil --test {}",
            VEXRISCV_SUITES.join(", --test ")
        ),
        || {
            // The test binaries the workspace run used (built with the VexRiscv model too),
            // run again with the other core: nothing is rebuilt.
            for bin in &vex_bins {
                let mut c = Command::new(bin);
                c.current_dir(root().join("hil-tests"));
                run(test_env(&mut c, &skip_log).env("SPLICENIC_SIM_CPU", "vexriscv"))?;
            }
            Ok(())
        },
    )?;
    let skipped = std::fs::read_to_string(&skip_log).unwrap_or_default();
    let count = skipped.lines().count();
    s.table(None);
    eprintln!("skipped tests: {count}");
    if count > 0 {
        bail!("{count} tests or sub-cases skipped:\n{skipped}");
    }
    eprintln!("\nall checks passed");
    Ok(())
}
