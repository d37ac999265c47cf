//! Figures for the card spine, measured on the simulated card:
//! simulated cycles per second of the card top, firmware load time, and cycles of the
//! firmware's flow-setup routine on each soft core (same ELF, same SoC).
//!
//! Run with `cargo xtask bench` (builds the VexRiscv variant too).

use anyhow::{Context, Result};
use splicenic_driver::FirmwareImage;
use splicenic_hil::bench_out::{BenchOut, Kind};
use splicenic_hil::{boot_sim, firmware_bytes, open_sim};
use splicenic_sim::{Cpu, SimCard, SimConfig};
use std::time::Instant;

const BENCH_ITERATIONS: u32 = 2000;
const SPEED_CYCLES: u64 = 5_000_000;
const LOADS: u32 = 3;

fn cfg(cpu: Cpu) -> SimConfig {
    SimConfig {
        cpu,
        ..SimConfig::default()
    }
}

fn sim_speed(out: &mut BenchOut) -> Result<()> {
    // The firmware runs its main loop (polling the mailbox) while the clock advances.
    let (card, _) = boot_sim(SimConfig::default())?;
    let mut bar = card.into_bar();
    let t0 = Instant::now();
    bar.pause(std::time::Duration::from_nanos(
        SPEED_CYCLES * 1_000_000_000 / SimCard::clk_hz(),
    ))?;
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "sim speed      card_top (PicoRV32, firmware running): {SPEED_CYCLES} cycles in {dt:.2} s = {:.2} M simulated cycles/s ({:.1}x slower than the {:.2} MHz card clock)",
        SPEED_CYCLES as f64 / dt / 1e6,
        SimCard::clk_hz() as f64 / (SPEED_CYCLES as f64 / dt),
        SimCard::clk_hz() as f64 / 1e6
    );
    out.figure(
        "sim.card_top.cycles_per_s",
        "simulated rig speed: card top (PicoRV32, firmware running, idle data path)",
        SPEED_CYCLES as f64 / dt,
        "cycles/s",
        Kind::Measured,
        &format!("{SPEED_CYCLES} cycles in-process, wall clock on this machine"),
    );
    Ok(())
}

fn load_time(out: &mut BenchOut) -> Result<()> {
    let img = FirmwareImage::parse(&firmware_bytes()?)?;
    let mut card = open_sim(SimConfig::default())?;
    let mut best = None::<splicenic_driver::LoadReport>;
    for _ in 0..LOADS {
        let r = card.firmware().load(&img, |_, _| {})?;
        let total = r.write + r.verify + r.boot;
        if best
            .as_ref()
            .is_none_or(|b| total < b.write + b.verify + b.boot)
        {
            best = Some(r);
        }
    }
    let r = best.context("no load")?;
    println!(
        "firmware load  in-process simulated card, best of {LOADS}: {} image bytes, {} bytes written+verified; write {:.1} ms, verify {:.1} ms, boot to READY {:.1} ms, total {:.1} ms",
        r.image_bytes,
        r.written_bytes,
        r.write.as_secs_f64() * 1e3,
        r.verify.as_secs_f64() * 1e3,
        r.boot.as_secs_f64() * 1e3,
        (r.write + r.verify + r.boot).as_secs_f64() * 1e3
    );
    out.figure(
        "sim.firmware_load_ms",
        "firmware load (write, verify, boot) on the in-process simulated card",
        (r.write + r.verify + r.boot).as_secs_f64() * 1e3,
        "ms",
        Kind::Measured,
        &format!("best of {LOADS}, wall clock"),
    );
    Ok(())
}

fn core_cycles(cpu: Cpu) -> Result<(u64, u32)> {
    let (mut card, _) = boot_sim(cfg(cpu)).with_context(|| format!("booting {cpu:?}"))?;
    // Warm up (caches on VexRiscv), then measure.
    card.mailbox().bench(1, 64)?;
    let r = card.mailbox().bench(1, BENCH_ITERATIONS)?;
    Ok((r.cycles, r.checksum))
}

fn main() -> Result<()> {
    let mut out = BenchOut::new(
        "spine",
        "cargo run --release -p splicenic-hil --features vexriscv --bin spine-bench",
    );
    sim_speed(&mut out)?;
    load_time(&mut out)?;
    let (pico, pico_sum) = core_cycles(Cpu::PicoRv32)?;
    println!(
        "core compare   BENCH flow-setup x{BENCH_ITERATIONS}: PicoRV32 {pico} cycles ({:.1} cycles/connection)",
        pico as f64 / BENCH_ITERATIONS as f64
    );
    out.figure(
        "core.picorv32.bench1_cycles",
        "BENCH 1 (hash + insert) per connection, PicoRV32",
        pico as f64 / BENCH_ITERATIONS as f64,
        "cycles/connection",
        Kind::Exact,
        &format!("{BENCH_ITERATIONS} iterations on the simulated SoC"),
    );
    match core_cycles(Cpu::VexRiscv) {
        Ok((vex, vex_sum)) => {
            anyhow::ensure!(
                vex_sum == pico_sum,
                "the two cores computed different checksums ({pico_sum:#x} vs {vex_sum:#x})"
            );
            println!(
                "core compare   BENCH flow-setup x{BENCH_ITERATIONS}: VexRiscv {vex} cycles ({:.1} cycles/connection); PicoRV32/VexRiscv = {:.2}",
                vex as f64 / BENCH_ITERATIONS as f64,
                pico as f64 / vex as f64
            );
            out.figure(
                "core.vexriscv.bench1_cycles",
                "BENCH 1 (hash + insert) per connection, VexRiscv",
                vex as f64 / BENCH_ITERATIONS as f64,
                "cycles/connection",
                Kind::Exact,
                &format!("{BENCH_ITERATIONS} iterations on the simulated SoC"),
            );
        }
        Err(e) => println!("core compare   VexRiscv not measured: {e:#}"),
    }
    out.write()?;
    Ok(())
}
