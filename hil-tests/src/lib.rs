//! SpliceNIC rigs and shared helpers for the hardware-in-the-loop tests.
//!
//! The simulated rig (the default) is the real card top under Verilator running the real
//! firmware ELF, driven in-process. Lab rigs (a real card through VFIO) arrive with the
//! data-path tests.

use anyhow::{bail, Context, Result};
use splicenic_driver::{Bar, Card, FirmwareImage, LoadReport};
use splicenic_sim::{SimCard, SimConfig};
use std::path::{Path, PathBuf};

/// Where `cargo xtask build` puts the firmware ELF, relative to the repository root.
pub const FIRMWARE_ELF: &str = "target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw";

/// The firmware ELF under test: `$SPLICENIC_FW_ELF`, else the default build output.
pub fn firmware_elf() -> Result<PathBuf> {
    let p = match std::env::var_os("SPLICENIC_FW_ELF") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(FIRMWARE_ELF),
    };
    if !p.is_file() {
        bail!(
            "firmware ELF {} not found: build it with `cargo xtask build` (or run the tests with `cargo xtask test`)",
            p.display()
        );
    }
    Ok(p)
}

/// The firmware ELF's bytes.
pub fn firmware_bytes() -> Result<Vec<u8>> {
    let p = firmware_elf()?;
    std::fs::read(&p).with_context(|| format!("reading {}", p.display()))
}

/// Open an in-process simulated card without loading firmware.
pub fn open_sim(cfg: SimConfig) -> Result<Card> {
    let sim = SimCard::new(cfg).context("starting the simulated card")?;
    Ok(Card::open(Box::new(sim) as Box<dyn Bar>)?)
}

/// An in-process simulated card with the firmware loaded, verified and READY.
pub fn boot_sim(cfg: SimConfig) -> Result<(Card, LoadReport)> {
    let img = FirmwareImage::parse(&firmware_bytes()?)?;
    let mut card = open_sim(cfg)?;
    let report = card.load_firmware(&img, |_, _| {})?;
    Ok((card, report))
}
