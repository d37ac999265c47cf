//! Build script: puts `memory.x` on the linker path and derives the build identity.
//!
//! - `SPLICENIC_FW_BUILD_ID` (decimal u32): `$SPLICENIC_BUILD_ID` if set (decimal or `0x` hex),
//!   else the FNV-1a hash of `git describe --always --dirty`, else 0.
//! - `SPLICENIC_FW_BUILD_STRING`: `splicenic-fw <version> <git describe or "unknown">`,
//!   cut to 32 bytes.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const BUILD_STRING_LEN: usize = 32;

fn fnv1a(data: &[u8]) -> u32 {
    data.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

fn parse_id(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!s.is_empty()).then_some(s)
}

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));

    // memory.x next to link.x (riscv-rt) and defmt.x, wherever cargo is run from.
    fs::copy(manifest_dir.join("memory.x"), out_dir.join("memory.x"))
        .expect("copying memory.x to OUT_DIR");
    println!("cargo:rustc-link-search={}", out_dir.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");

    // The build identity follows the source tree: rerun when it or the checkout changes.
    println!("cargo:rerun-if-env-changed=SPLICENIC_BUILD_ID");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=../logic/src");
    if let Some(git_dir) = git(&manifest_dir, &["rev-parse", "--absolute-git-dir"]) {
        for f in ["HEAD", "index", "logs/HEAD"] {
            let p = Path::new(&git_dir).join(f);
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }

    let describe = git(&manifest_dir, &["describe", "--always", "--dirty"]);
    let build_id = match env::var("SPLICENIC_BUILD_ID") {
        Ok(v) => parse_id(&v).unwrap_or_else(|| {
            panic!("SPLICENIC_BUILD_ID={v:?} is not a decimal or 0x-prefixed hex u32")
        }),
        Err(_) => describe.as_deref().map_or(0, |d| fnv1a(d.as_bytes())),
    };
    let version = env::var("CARGO_PKG_VERSION").expect("CARGO_PKG_VERSION");
    let mut build_string = format!(
        "splicenic-fw {version} {}",
        describe.as_deref().unwrap_or("unknown")
    );
    // ASCII only, so truncation cannot split a character.
    build_string.retain(|c| c.is_ascii_graphic() || c == ' ');
    build_string.truncate(BUILD_STRING_LEN);

    println!("cargo:rustc-env=SPLICENIC_FW_BUILD_ID={build_id}");
    println!("cargo:rustc-env=SPLICENIC_FW_BUILD_STRING={build_string}");
}
