//! Firmware build: the rustup riscv32imc target where it exists, else Debian's rustc with
//! its library sources and `-Zbuild-std` (see docs/toolchain.md).

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
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

/// The cargo command that builds the firmware (release) into `target_dir`: the rustup target
/// where it is installed, else Debian's rustc with `-Zbuild-std`. The linker is the one
/// `firmware/app/.cargo/config.toml` names either way.
fn firmware_cmd(target_dir: &Path) -> Result<Command> {
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
            .arg("-Zbuild-std=core")
            // A panic aborts where it happens (`-Cpanic=immediate-abort`, with `core` built
            // the same way): the core traps (PicoRV32 halts, CoreState::Trapped, and the
            // watchdog restarts it) instead of calling the panic handler with formatting
            // arguments, whose formatting code (about 1.7 KB) and argument set-up at every
            // bounds check took 4.3 KB of the 64 KiB IMEM. Locations keep no file, line or
            // column either way (`-Zlocation-detail=none`).
            .arg("--config")
            .arg(format!(
                "target.{TARGET}.rustflags=[\"-Zlocation-detail=none\", \"-Zunstable-options\", \"-Cpanic=immediate-abort\"]"
            ));
    } else {
        bail!(
            "no toolchain for {TARGET}: either `rustup target add {TARGET}` or run `cargo xtask setup` \
             (installs Debian's rustc-web, rust-web-src and lld-22)"
        );
    }
    cmd.current_dir(root().join("firmware/app"))
        .env("CARGO_TARGET_DIR", target_dir)
        .arg("--config")
        .arg(remap_config());
    Ok(cmd)
}

/// `--config` value adding `--remap-path-prefix` to the firmware's rustflags (config arrays
/// are joined, so `.cargo/config.toml`'s linker scripts stay): the source paths panic
/// locations carry into IMEM are then the same wherever the repository and the cargo home
/// are, so the image's size does not depend on the checkout's path (a longer path could
/// otherwise push it past the 64 KiB IMEM).
fn remap_config() -> String {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from("/root/.cargo"));
    // Each prefix is removed (paths become relative): the repository, the crates' sources,
    // and the standard library's sources that -Zbuild-std compiles.
    let prefixes = [
        root(),
        cargo_home.join("registry/src"),
        PathBuf::from("/usr/lib/rustlib/src/rust"),
    ];
    let flags: Vec<String> = prefixes
        .iter()
        .map(|from| format!("\"--remap-path-prefix={}/=\"", from.display()))
        .collect();
    format!("target.{TARGET}.rustflags=[{}]", flags.join(", "))
}

/// Seals a linked firmware ELF in place (docs/interfaces.md, "Firmware image format"):
/// the loader refuses an image without a seal. Sealing is deterministic and a sealed file
/// is left as it is.
pub fn seal(elf: &Path) -> Result<()> {
    let (seal, _) = splicenic_driver::seal::seal_file(elf, elf)?;
    eprintln!(
        "firmware sealed: {} ({} segments, seal {})",
        elf.display(),
        seal.segments.len(),
        seal.fingerprint()
    );
    Ok(())
}

/// Build the firmware ELF (release) into target/firmware, sealed.
pub fn build_firmware() -> Result<()> {
    step("firmware (riscv32imc)");
    run(&mut firmware_cmd(&root().join("target/firmware"))?)?;
    let elf = firmware_elf();
    seal(&elf)?;
    let size = std::fs::metadata(&elf).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "firmware ELF: {} ({size} bytes with symbols)",
        elf.display()
    );
    Ok(())
}

/// The rustc a firmware build runs: `$RUSTC`'s choice in [`firmware_cmd`].
fn firmware_rustc() -> PathBuf {
    if rustup_has_target() {
        PathBuf::from(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
    } else {
        PathBuf::from("/usr/bin/rustc")
    }
}

/// Build the firmware from scratch (into target/firmware-no-rust-lld) where no `rust-lld`
/// can be found: in a private mount namespace an empty folder covers the rustc sysroot's
/// `lib/rustlib/<host>/bin/` (where rustc looks for it), and PATH keeps only folders
/// without one. A fresh machine has no rust-lld for Debian's rustc; this proves the
/// firmware does not need one, and the result must be byte-identical to the ELF
/// [`build_firmware`] made. Needs root (`unshare -m`).
pub fn build_firmware_without_rust_lld() -> Result<()> {
    let rustc = firmware_rustc();
    let out = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .with_context(|| format!("running {} --print sysroot", rustc.display()))?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let out = Command::new(&rustc).arg("-vV").output()?;
    let host = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .context("no host triple in rustc -vV")?;
    let bindir = sysroot.join("lib/rustlib").join(&host).join("bin");
    let empty = root().join("target/empty-rustlib-bin");
    std::fs::create_dir_all(&empty)?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join("rust-lld").exists())
        .collect();
    let target_dir = root().join("target/firmware-no-rust-lld");
    // A from-scratch link every time: an up-to-date build would not run the linker.
    let _ = std::fs::remove_dir_all(&target_dir);
    let inner = firmware_cmd(&target_dir)?;
    let mut cmd = Command::new("unshare");
    cmd.arg("-m").arg("--").arg("sh").arg("-c");
    // The covering mount only when the folder exists (rustup sysroots have one; Debian's
    // has none, which is what this build proves enough for).
    cmd.arg(
        "if [ -d \"$1\" ]; then mount --bind \"$2\" \"$1\" || exit 1; fi; shift 2; \
         if command -v rust-lld >/dev/null; then echo \"rust-lld still resolves: $(command -v rust-lld)\" >&2; exit 1; fi; \
         exec \"$@\"",
    )
    .arg("sh")
    .arg(&bindir)
    .arg(&empty)
    .arg(inner.get_program());
    cmd.args(inner.get_args());
    for (k, v) in inner.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.env("PATH", std::env::join_paths(kept)?);
    if let Some(dir) = inner.get_current_dir() {
        cmd.current_dir(dir);
    }
    eprintln!(
        "hiding rust-lld: {} covered, PATH without rust-lld",
        bindir.display()
    );
    run(&mut cmd)?;
    let elf = target_dir.join(TARGET).join("release/splicenic-fw");
    if !elf.is_file() {
        bail!(
            "the build without rust-lld left no ELF at {}",
            elf.display()
        );
    }
    seal(&elf)?;
    // The same sources and linker give the same bytes: the ELF under test is the one just
    // linked without rust-lld.
    if std::fs::read(&elf)? != std::fs::read(firmware_elf())? {
        bail!(
            "{} differs from {}: the firmware under test was not linked the way a fresh machine links it",
            elf.display(),
            firmware_elf().display()
        );
    }
    eprintln!(
        "firmware links without rust-lld: {} is identical to {}",
        elf.display(),
        firmware_elf().display()
    );
    Ok(())
}

/// Firmware plus every host crate (the simulated card crate builds the gateware model), and
/// the optimised nicctl a user runs (`target/release/nicctl`).
pub fn build_all() -> Result<()> {
    build_firmware()?;
    step("host crates and simulated card");
    run(cargo().args(["build", "--workspace", "--all-targets"]))?;
    step("nicctl, optimised (target/release/nicctl)");
    run(cargo().args(["build", "--release", "-p", "nicctl"]))
}
