//! Firmware build: the rustup riscv32imc target where it exists, else Debian's rustc with
//! its library sources and `-Zbuild-std` (see docs/toolchain.md).

use anyhow::{bail, Result};
use std::path::Path;
use std::process::Command;

use crate::{cargo, firmware_elf, root, run, step};

pub const TARGET: &str = "riscv32imc-unknown-none-elf";

fn rustup_has_target() -> bool {
    Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == TARGET)
        })
        .unwrap_or(false)
}

/// Build the firmware ELF (release) into target/firmware.
pub fn build_firmware() -> Result<()> {
    step("firmware (riscv32imc)");
    let root = root();
    let app = root.join("firmware/app");
    let target_dir = root.join("target/firmware");
    let mut cmd;
    if rustup_has_target() {
        eprintln!("using the rustup {TARGET} target");
        cmd = cargo();
        cmd.args(["build", "--release", "--target", TARGET]);
    } else if Path::new("/usr/bin/rustc").exists()
        && Path::new("/usr/lib/rustlib/src/rust/library").exists()
    {
        eprintln!("rustup has no {TARGET} target: using Debian's rustc with -Zbuild-std");
        cmd = Command::new("/usr/bin/cargo");
        // The rustup proxies must not pick the toolchain for this build.
        for v in [
            "RUSTUP_TOOLCHAIN",
            "CARGO",
            "RUSTC_WRAPPER",
            "RUSTDOC",
            "CARGO_ENCODED_RUSTFLAGS",
        ] {
            cmd.env_remove(v);
        }
        cmd.env("RUSTC_BOOTSTRAP", "1")
            .env("RUSTC", "/usr/bin/rustc")
            .args(["build", "--release", "--target", TARGET])
            .arg("-Zbuild-std=core");
    } else {
        bail!(
            "no toolchain for {TARGET}: either `rustup target add {TARGET}` or run `cargo xtask setup` \
             (installs Debian's rustc-web, rust-web-src and lld-22)"
        );
    }
    cmd.current_dir(&app).env("CARGO_TARGET_DIR", &target_dir);
    run(&mut cmd)?;
    let elf = firmware_elf();
    let size = std::fs::metadata(&elf).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "firmware ELF: {} ({size} bytes with symbols)",
        elf.display()
    );
    Ok(())
}

/// Firmware plus every host crate (the simulated card crate builds the gateware model).
pub fn build_all() -> Result<()> {
    build_firmware()?;
    step("host crates and simulated card");
    run(cargo().args(["build", "--workspace", "--all-targets"]))
}
