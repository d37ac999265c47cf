//! `cargo xtask hil [--filter NAME]`: the hardware-in-the-loop scenarios one by one on the
//! simulated rig, with a pass/fail table at the end.
//!
//! Each scenario is one test of the `splicenic-hil` and `nicctl` suites that run against a
//! card; it runs in its own process (`--exact`), so a failure leaves its own output (the
//! rigs keep a pcap of both ports on failure and say where) and the others still run.

use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::{cargo, firmware, firmware_elf, step};

/// (package, test target) of the suites that run against a card.
const SUITES: &[(&str, &str)] = &[
    ("splicenic-hil", "spine"),
    ("splicenic-hil", "splice"),
    ("splicenic-hil", "peers"),
    ("splicenic-hil", "peers_tcp"),
    ("splicenic-hil", "peers_load"),
    ("splicenic-hil", "peers_sched"),
    ("splicenic-hil", "peers_ops"),
    ("nicctl", "control"),
];

struct Outcome {
    name: String,
    passed: bool,
    secs: f64,
}

fn test_cmd(pkg: &str, target: &str) -> Command {
    let mut c = cargo();
    c.args(["test", "-q", "-p", pkg, "--test", target, "--"])
        .env("SPLICENIC_FW_ELF", firmware_elf());
    c
}

/// The scenarios of one suite (`--list`); a suite whose test target does not exist yet is
/// skipped with a note.
fn list(pkg: &str, target: &str) -> Result<Vec<String>> {
    let out = test_cmd(pkg, target)
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

/// Runs the scenarios whose name contains `filter`.
pub fn hil(filter: Option<&str>) -> Result<()> {
    firmware::build_firmware()?;
    let mut results = Vec::new();
    for &(pkg, target) in SUITES {
        step(&format!("{pkg} --test {target}"));
        // Build once, quietly, before timing the scenarios.
        let built = test_cmd(pkg, target).arg("--list").output()?;
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
            eprintln!("\n--- {target}::{name}");
            let t = Instant::now();
            let st = test_cmd(pkg, target)
                .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
                .status()
                .with_context(|| format!("running {name}"))?;
            results.push(Outcome {
                name: format!("{target}::{name}"),
                passed: st.success(),
                secs: t.elapsed().as_secs_f64(),
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
    println!("\n{:<width$}  {:<6}  {:>8}", "scenario", "result", "wall s");
    for r in &results {
        println!(
            "{:<width$}  {:<6}  {:>8.1}",
            r.name,
            if r.passed { "pass" } else { "FAIL" },
            r.secs
        );
    }
    let failed = results.iter().filter(|r| !r.passed).count();
    println!(
        "{} scenarios, {} passed, {failed} failed (simulated rig)",
        results.len(),
        results.len() - failed
    );
    if failed > 0 {
        bail!("{failed} scenario(s) failed: their output above says where");
    }
    Ok(())
}
