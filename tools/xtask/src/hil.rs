//! `cargo xtask hil [--rig FILE] [--filter NAME]`: the hardware-in-the-loop scenarios one by
//! one, with a pass/fail table at the end.
//!
//! Each scenario is one test of the `splicenic-hil` and `nicctl` suites that run against a
//! card; it runs in its own process (`--exact`), so a failure leaves its own output and the
//! others still run. The real-peer scenarios (`peers*`) run on the rig `--rig` describes
//! (`$SPLICENIC_RIG`; the simulated rig by default) and keep a pcap of both card ports after
//! a failure, under `target/hil-failures/`; on the simulated rig a failed scenario is run a
//! second time with `SPLICENIC_WAVES=1` to add a waveform of the card. A scenario whose
//! prerequisites (root, a tool) are missing here passes by skipping: it is listed as "skip"
//! with what was missing. The other suites
//! drive the simulated card's model directly and run on the simulated rig only.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::{cargo, firmware, firmware_elf, step};

/// (package, test target, runs on a lab rig) of the suites that run against a card.
const SUITES: &[(&str, &str, bool)] = &[
    ("splicenic-hil", "spine", false),
    ("splicenic-hil", "splice", false),
    ("splicenic-hil", "peers", true),
    ("splicenic-hil", "peers_tcp", true),
    ("splicenic-hil", "peers_load", true),
    ("splicenic-hil", "peers_sched", true),
    ("splicenic-hil", "peers_fail", true),
    ("splicenic-hil", "peers_client", true),
    ("splicenic-hil", "peers_heads", true),
    ("splicenic-hil", "peers_stream", true),
    ("splicenic-hil", "peers_ops", true),
    ("splicenic-hil", "rig", false),
    ("nicctl", "control", false),
];

enum Verdict {
    Pass,
    /// Passed by skipping (or leaving out sub-cases): what was missing.
    Skip(String),
    Fail {
        rerun: Option<bool>,
    },
    SimOnly,
}

struct Outcome {
    name: String,
    result: Verdict,
    secs: f64,
}

fn test_cmd(pkg: &str, target: &str, rig: Option<&Path>) -> Command {
    let mut c = cargo();
    c.args(["test", "-q", "-p", pkg, "--test", target, "--"])
        .env("SPLICENIC_FW_ELF", firmware_elf());
    match rig {
        Some(r) => c.env("SPLICENIC_RIG", r),
        None => c.env_remove("SPLICENIC_RIG"),
    };
    c
}

/// The scenarios of one suite (`--list`); a suite whose test target does not exist yet is
/// skipped with a note.
fn list(pkg: &str, target: &str) -> Result<Vec<String>> {
    let out = test_cmd(pkg, target, None)
        .args(["--list", "--format", "terse"])
        .output()
        .with_context(|| format!("listing the tests of {pkg} --test {target}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("no test target named") {
            eprintln!("note: {pkg} has no test target `{target}`; skipped");
            return Ok(Vec::new());
        }
        bail!("cannot list the tests of {pkg} --test {target}:\n{err}");
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_string)
        .collect())
}

/// Check the rig file (`rig-check`); true for a lab rig.
fn check_rig(rig: &Path) -> Result<bool> {
    step(&format!("rig file {}", rig.display()));
    let out = cargo()
        .args([
            "run",
            "-q",
            "-p",
            "splicenic-hil",
            "--bin",
            "rig-check",
            "--",
        ])
        .arg(rig)
        .output()
        .context("running rig-check")?;
    let text = String::from_utf8_lossy(&out.stdout);
    print!("{text}");
    if !out.status.success() {
        bail!("{}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(text.starts_with("lab rig"))
}

/// Runs the scenarios whose name contains `filter` on the rig `rig` describes.
pub fn hil(filter: Option<&str>, rig: Option<&Path>) -> Result<()> {
    let rig = rig
        .map(|r| std::path::absolute(r).with_context(|| format!("rig file {}", r.display())))
        .transpose()?;
    let lab = match &rig {
        Some(r) => check_rig(r)?,
        None => false,
    };
    let rig_name = if lab { "lab rig" } else { "simulated rig" };
    firmware::build_firmware()?;
    let mut results = Vec::new();
    for &(pkg, target, on_lab) in SUITES {
        step(&format!("{pkg} --test {target}"));
        // Build once, quietly, before timing the scenarios.
        let built = test_cmd(pkg, target, None).arg("--list").output()?;
        if !built.status.success()
            && !String::from_utf8_lossy(&built.stderr).contains("no test target named")
        {
            bail!(
                "building {pkg} --test {target} failed:\n{}",
                String::from_utf8_lossy(&built.stderr)
            );
        }
        for name in list(pkg, target)? {
            if filter.is_some_and(|f| !name.contains(f)) {
                continue;
            }
            let full = format!("{target}::{name}");
            if lab && !on_lab {
                results.push(Outcome {
                    name: full,
                    result: Verdict::SimOnly,
                    secs: 0.0,
                });
                continue;
            }
            eprintln!("\n--- {full}");
            let skip_log = std::env::temp_dir()
                .join(format!("splicenic-hil-skips-{}.log", std::process::id()));
            let run = |waves: bool| -> Result<bool> {
                let _ = std::fs::remove_file(&skip_log);
                let mut c = test_cmd(pkg, target, rig.as_deref());
                c.args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
                    .env(crate::test::SKIP_LOG_ENV, &skip_log)
                    .env_remove(crate::test::REQUIRE_ENV);
                if waves {
                    c.env("SPLICENIC_WAVES", "1");
                }
                Ok(c.status()
                    .with_context(|| format!("running {name}"))?
                    .success())
            };
            let t = Instant::now();
            let passed = run(false)?;
            let secs = t.elapsed().as_secs_f64();
            let skipped = std::fs::read_to_string(&skip_log).unwrap_or_default();
            let _ = std::fs::remove_file(&skip_log);
            let result = if passed && !skipped.trim().is_empty() {
                Verdict::Skip(skipped.lines().collect::<Vec<_>>().join("; "))
            } else if passed {
                Verdict::Pass
            } else if !lab && on_lab {
                eprintln!("\n--- {full} again, recording a waveform of the card");
                Verdict::Fail {
                    rerun: Some(run(true)?),
                }
            } else {
                Verdict::Fail { rerun: None }
            };
            results.push(Outcome {
                name: full,
                result,
                secs,
            });
        }
    }
    if results.is_empty() {
        bail!("no scenario matches the filter {:?}", filter.unwrap_or(""));
    }
    let width = results
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(8)
        .max(8);
    println!("\n{:<width$}  {:<8}  {:>8}", "scenario", "result", "wall s");
    for r in &results {
        let (res, note) = match &r.result {
            Verdict::Pass => ("pass", String::new()),
            Verdict::Skip(why) => ("skip", format!("  {why}")),
            Verdict::SimOnly => ("-", "  simulated rig only (drives the card model)".into()),
            Verdict::Fail { rerun: None } => ("FAIL", String::new()),
            Verdict::Fail { rerun: Some(p) } => (
                "FAIL",
                format!(
                    "  rerun with waveform: {}",
                    if *p {
                        "passed (intermittent)"
                    } else {
                        "failed"
                    }
                ),
            ),
        };
        println!("{:<width$}  {:<8}  {:>8.1}{note}", r.name, res, r.secs);
    }
    let ran = results
        .iter()
        .filter(|r| !matches!(r.result, Verdict::SimOnly))
        .count();
    let failed = results
        .iter()
        .filter(|r| matches!(r.result, Verdict::Fail { .. }))
        .count();
    let skipped = results
        .iter()
        .filter(|r| matches!(r.result, Verdict::Skip(_)))
        .count();
    println!(
        "{ran} scenarios run, {} passed, {skipped} skipped, {failed} failed, {} simulated-rig only ({rig_name})",
        ran - failed - skipped,
        results.len() - ran
    );
    if failed > 0 {
        bail!(
            "{failed} scenario(s) failed: their output above says where the pcaps{} are (target/hil-failures/)",
            if lab { "" } else { " and waveforms" }
        );
    }
    Ok(())
}
