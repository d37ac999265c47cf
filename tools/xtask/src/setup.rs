//! `cargo xtask setup`: idempotent install of everything the project needs.

use anyhow::{bail, Context, Result};
use std::fs;
use std::process::Command;

use crate::regen::{FORM_VERSION, SVD2RUST_VERSION};
use crate::{root, run, step, tool_path};

/// Debian packages: gateware tools, the firmware toolchain (rustc with library sources for
/// `-Zbuild-std`, lld-22, which makes Debian's rust-lld work), zlib for FST waveforms, Python venv support,
/// tshark (reads back `nicctl capture` files in the tests), python3 (the HTTP server
/// the monitor tests check), nginx-light (the real backends of the TAP rig, docs/rig.md), wrk
/// and python3-scapy (load and SYN-flood clients of `hil-tests/tests/peers_load.rs`), haproxy
/// (the software baseline of `hil-tests/src/bin/proxy-bench.rs`, docs/PERFORMANCE.md).
pub const APT_PACKAGES: &[&str] = &[
    "verilator",
    "iverilog",
    "yosys",
    "zlib1g-dev",
    "g++",
    "make",
    "rustc-web",
    "cargo-web",
    "rust-web-src",
    "lld-22",
    "python3-venv",
    "python3",
    "tshark",
    "nginx-light",
    "wrk",
    "python3-scapy",
    "haproxy",
];

pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn dpkg_installed(pkg: &str) -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", pkg])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        .unwrap_or(false)
}

fn apt() -> Result<()> {
    step("Debian packages");
    let missing: Vec<&str> = APT_PACKAGES
        .iter()
        .copied()
        .filter(|p| !dpkg_installed(p))
        .collect();
    if missing.is_empty() {
        eprintln!("all {} Debian packages present", APT_PACKAGES.len());
        return Ok(());
    }
    let list = missing.join(" ");
    if !is_root() {
        bail!(
            "missing Debian packages: {list}\nrun as root:\n  apt-get update && apt-get install -y {list}\nthen run `cargo xtask setup` again"
        );
    }
    run(Command::new("apt-get").args(["update", "-q"]))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-q", "--no-install-recommends"])
        .args(&missing)
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

fn venv() -> Result<()> {
    step("Python virtualenv (.venv)");
    let root = root();
    let req = root.join("tools/requirements.txt");
    let want = fs::read_to_string(&req).context("reading tools/requirements.txt")?;
    let venv = root.join(".venv");
    let stamp = venv.join(".splicenic-requirements");
    if fs::read_to_string(&stamp).ok().as_deref() == Some(want.as_str()) {
        eprintln!(".venv is up to date with tools/requirements.txt");
        return Ok(());
    }
    if !venv.join("bin/python").exists() {
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    }
    run(Command::new(venv.join("bin/pip"))
        .args(["install", "-q", "--disable-pip-version-check", "-r"])
        .arg(&req))?;
    fs::write(&stamp, want)?;
    Ok(())
}

fn cargo_tool(name: &str, version: &str) -> Result<()> {
    let have = Command::new(tool_path(name))
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains(version))
        .unwrap_or(false);
    if have {
        eprintln!("{name} {version} present");
        return Ok(());
    }
    run(crate::cargo().args(["install", "--locked", name, "--version", version]))
}

pub fn setup() -> Result<()> {
    apt()?;
    venv()?;
    step("code generators");
    cargo_tool("svd2rust", SVD2RUST_VERSION)?;
    cargo_tool("form", FORM_VERSION)?;
    eprintln!("\nsetup complete");
    Ok(())
}
