//! `cargo xtask lint` and `cargo xtask test`.

use anyhow::Result;
use std::process::Command;
use std::time::Instant;

use crate::{cargo, firmware, firmware_elf, regen, root, run, step};

/// Formatting, clippy (host crates), and the gateware checks (Verilator lint, Icarus, Yosys).
pub fn lint() -> Result<()> {
    step("rustfmt");
    run(cargo().args(["fmt", "--all", "--check"]))?;
    run(cargo().args([
        "fmt",
        "--check",
        "--manifest-path",
        "firmware/app/Cargo.toml",
    ]))?;
    step("clippy");
    run(cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    step("gateware: Verilator lint, Icarus compile, Yosys synthesis");
    run(Command::new("bash")
        .arg(root().join("gateware-rtl/syn/check.sh"))
        .current_dir(root()))?;
    Ok(())
}

pub fn test() -> Result<()> {
    let t0 = Instant::now();
    step("register views match the SVD");
    regen::regen(true)?;
    lint()?;
    firmware::build_firmware()?;
    step("host, simulated-card and hardware-in-the-loop tests");
    run(cargo()
        .args(["test", "--workspace"])
        .env("SPLICENIC_FW_ELF", firmware_elf()))?;
    eprintln!("\nall checks passed in {:.0} s", t0.elapsed().as_secs_f64());
    Ok(())
}
