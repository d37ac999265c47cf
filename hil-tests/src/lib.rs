//! SpliceNIC rigs and shared helpers for the hardware-in-the-loop tests.
//!
//! The simulated rig (the default) is the real card top under Verilator running the real
//! firmware ELF, driven in-process ([`boot_shared`], [`splice_rig`]) or served on TAP devices
//! for real Linux peers ([`topo`]). A lab rig (a real card through VFIO, host interfaces
//! cabled to its ports) is described by a rig file ([`rig`]); the real-peer scenarios run on
//! either.

use anyhow::{bail, Context, Result};
use splicenic_driver::{Bar, BarError, Card, FirmwareImage, LoadReport};
use splicenic_sim::{Cpu, SimCard, SimConfig};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

pub mod baseline;
pub mod bench_out;
pub mod net;
pub mod netns;
pub mod peer;
pub mod rig;
pub mod splice_rig;
pub mod topo;
pub mod wait;

/// Boot timeout on the simulated card (wall clock). The card top simulates at 0.1-0.3 M
/// cycles/s, slower still when tests run side by side, so the driver's defaults (made for a
/// real card) are raised here.
pub const SIM_BOOT_TIMEOUT: Duration = Duration::from_secs(120);
/// Mailbox answer timeout on the simulated card (wall clock); see [`SIM_BOOT_TIMEOUT`].
pub const SIM_MAILBOX_TIMEOUT: Duration = Duration::from_secs(60);

/// Set to `1` to record a waveform (FST) of the simulated card in a scenario: the real-peer
/// topology keeps it beside the pcaps of a failed scenario (`target/hil-failures/`).
pub const WAVES_ENV: &str = "SPLICENIC_WAVES";

/// Whether `$SPLICENIC_WAVES` asks for a waveform.
pub fn waves_requested() -> bool {
    std::env::var(WAVES_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `cfg` with a waveform file added when `$SPLICENIC_WAVES` asks for one (and `cfg` has
/// none): `target/hil-failures/<test name>/card.fst`, announced on stderr.
pub fn with_waves(mut cfg: SimConfig) -> SimConfig {
    if cfg.trace.is_none() && waves_requested() {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
        let name = std::thread::current()
            .name()
            .unwrap_or("sim")
            .replace("::", "-");
        let dir = target.join("hil-failures").join(name);
        if std::fs::create_dir_all(&dir).is_ok() {
            let path = dir.join("card.fst");
            eprintln!("waveform of the simulated card: {}", path.display());
            cfg.trace = Some(path);
        }
    }
    cfg
}

/// Selects the soft core of the simulated card in the spine and splice suites:
/// `picorv32` (the default) or `vexriscv` (a build with the `vexriscv` feature). `cargo
/// xtask test` runs those suites once on each.
pub const CPU_ENV: &str = "SPLICENIC_SIM_CPU";

/// The soft core `$SPLICENIC_SIM_CPU` names (PicoRV32 when unset). Panics, naming the
/// variable and the choices, on any other value.
pub fn test_cpu() -> Cpu {
    match std::env::var(CPU_ENV).as_deref() {
        Err(_) | Ok("") | Ok("picorv32") => Cpu::PicoRv32,
        Ok("vexriscv") => Cpu::VexRiscv,
        Ok(other) => panic!(
            "${CPU_ENV} = {other:?}: not a soft core of the simulated card (picorv32, vexriscv)"
        ),
    }
}

/// The simulated card of the in-process suites: the default build with [`test_cpu`]'s core.
pub fn test_config() -> SimConfig {
    SimConfig {
        cpu: test_cpu(),
        ..SimConfig::default()
    }
}

/// Parses `text` (a configuration file, the format `nicctl rules load` reads; `name` is used
/// in its error locations), plans it against the card's limits and programs it with the host
/// driver's [`splicenic_driver::apply`], as `nicctl rules load` does. Real servers without
/// a `mac` line are looked up in `neighbours`. Returns the plan and what was done.
pub fn load_config(
    card: &mut Card,
    name: &str,
    text: &str,
    neighbours: &splicenic_driver::apply::Neighbours,
) -> Result<(
    splicenic_driver::config::Plan,
    splicenic_driver::apply::ApplyReport,
)> {
    use splicenic_driver::{apply, config};
    let cfg = config::parse(name, text).map_err(|e| anyhow::anyhow!("{e}\n--- {name}:\n{text}"))?;
    let limits = apply::card_limits(card)?;
    let plan = config::plan(&cfg, &limits).map_err(|e| anyhow::anyhow!("{e}"))?;
    let report = apply::apply(card, &cfg, &plan, neighbours, &mut ())
        .with_context(|| format!("applying {name}"))?;
    Ok((plan, report))
}

/// The `nicctl` binary the tests run: `$SPLICENIC_NICCTL`, else the newer of
/// `target/release/nicctl` (`cargo xtask build`) and `target/debug/nicctl` (`cargo build`,
/// `cargo xtask test`); `None` when neither is built.
pub fn nicctl_binary() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SPLICENIC_NICCTL") {
        return Some(PathBuf::from(p));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    ["release", "debug"]
        .iter()
        .map(|p| target.join(p).join("nicctl"))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max_by_key(|(t, _)| *t)
        .map(|(_, p)| p)
}

/// The examples/ configuration file `name`.
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name)
}

/// Where `cargo xtask build` puts the firmware ELF, relative to the repository root.
pub const FIRMWARE_ELF: &str = "target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw";

/// SYNs the card's SYN responder answered on both ports (STATS port `SYN_ANSWERED`): the
/// hardware SYN-ACKs, which the firmware's `syn_acks_sent` does not count.
pub fn hw_syn_acks(card: &mut Card) -> Result<u64> {
    use splicenic_driver::datapath::Port;
    let s = card.datapath()?.stats()?;
    Ok(s.port(Port::Client).syn_answered + s.port(Port::Server).syn_answered)
}

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
    let sim = SimCard::new(with_waves(cfg)).context("starting the simulated card")?;
    Ok(Card::open(Box::new(sim) as Box<dyn Bar>)?)
}

/// An in-process simulated card with the firmware loaded, verified and READY.
pub fn boot_sim(cfg: SimConfig) -> Result<(Card, LoadReport)> {
    let img = FirmwareImage::parse(&firmware_bytes()?)?;
    let mut card = open_sim(cfg)?;
    let report = card
        .firmware()
        .load_with_timeout(&img, SIM_BOOT_TIMEOUT, |_, _| {})?;
    card.set_mailbox_timeout(SIM_MAILBOX_TIMEOUT);
    Ok((card, report))
}

/// A simulated card shared between a [`Card`] (register access) and a test network
/// ([`net::Net`], Ethernet ports and the clock).
///
/// Cloning gives another handle to the same card. [`Bar`] requires `Send`, so the card sits
/// behind an `Arc<Mutex<_>>`; every access locks it only for the duration of one call, so
/// handles used from one thread never contend.
#[derive(Clone)]
pub struct SharedSim(Arc<Mutex<SimCard>>);

impl SharedSim {
    /// Wrap a simulated card.
    pub fn new(sim: SimCard) -> SharedSim {
        SharedSim(Arc::new(Mutex::new(sim)))
    }

    /// Exclusive access to the card (ports, clock). Do not hold the guard across a call that
    /// uses another handle of the same card (a [`Card`] method): that would deadlock.
    pub fn lock(&self) -> MutexGuard<'_, SimCard> {
        // The model's state lives in C++ and every call into it runs to completion, so a
        // panic elsewhere while a guard was held cannot leave it half-updated: a poisoned
        // lock is taken over.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Cycles simulated since the end of power-on reset.
    pub fn cycles(&self) -> u64 {
        self.lock().cycles()
    }
}

impl fmt::Debug for SharedSim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SharedSim").field(&*self.lock()).finish()
    }
}

impl Bar for SharedSim {
    fn size(&self) -> u64 {
        self.lock().size()
    }

    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        self.lock().read32(offset)
    }

    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        self.lock().write32(offset, value)
    }

    fn read_block(&mut self, offset: u64, out: &mut [u32]) -> Result<(), BarError> {
        self.lock().read_block(offset, out)
    }

    fn write_block(&mut self, offset: u64, data: &[u32]) -> Result<(), BarError> {
        self.lock().write_block(offset, data)
    }

    fn pause(&mut self, d: Duration) -> Result<(), BarError> {
        self.lock().pause(d)
    }

    fn describe(&self) -> String {
        self.lock().describe()
    }
}

/// Open an in-process simulated card without loading firmware, keeping a second handle for
/// its Ethernet ports and clock.
pub fn open_shared(cfg: SimConfig) -> Result<(Card, SharedSim)> {
    let sim = SharedSim::new(SimCard::new(with_waves(cfg)).context("starting the simulated card")?);
    let card = Card::open(Box::new(sim.clone()) as Box<dyn Bar>)?;
    Ok((card, sim))
}

/// Like [`boot_sim`] (firmware loaded, verified and READY), keeping a second handle for the
/// card's Ethernet ports and clock, e.g. for [`net::Net::new`].
pub fn boot_shared(cfg: SimConfig) -> Result<(Card, SharedSim, LoadReport)> {
    let img = FirmwareImage::parse(&firmware_bytes()?)?;
    let (mut card, sim) = open_shared(cfg)?;
    let report = card
        .firmware()
        .load_with_timeout(&img, SIM_BOOT_TIMEOUT, |_, _| {})?;
    card.set_mailbox_timeout(SIM_MAILBOX_TIMEOUT);
    Ok((card, sim, report))
}
