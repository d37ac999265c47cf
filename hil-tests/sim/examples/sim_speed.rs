//! Simulation speed of the in-process card: the soft core spins in a store loop while
//! the clock runs for a fixed number of cycles.
//!
//! `cargo run -p splicenic-sim --example sim_speed [cycles] [picorv32|vexriscv]`
//! (VexRiscv needs `--features vexriscv`).

use std::time::Instant;

use splicenic_driver::regs::{ctrl, id};
use splicenic_driver::Bar;
use splicenic_sim::{Cpu, SimCard, SimConfig};

/// lui x1, 0xF0001; loop: addi x3, x3, 1; sw x3, 20(x1) (CTRL.HEARTBEAT); j loop
const SPIN: [u32; 4] = [0xF000_10B7, 0x0011_8193, 0x0030_AA23, 0xFF9F_F06F];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cycles: u64 = match std::env::args().nth(1) {
        Some(a) => a.parse()?,
        None => 20_000_000,
    };
    let cpu = match std::env::args().nth(2).as_deref() {
        None | Some("picorv32") => Cpu::PicoRv32,
        Some("vexriscv") => Cpu::VexRiscv,
        Some(other) => return Err(format!("unknown core {other:?}: picorv32 or vexriscv").into()),
    };
    let mut card = SimCard::new(SimConfig { cpu, trace: None })?;
    card.write_block(id::imem_window::RESET.into(), &SPIN)?;
    card.write32(ctrl::CORE_CTRL, 0)?;
    let t0 = Instant::now();
    card.tick(cycles);
    let secs = t0.elapsed().as_secs_f64();
    let heartbeat = card.read32(ctrl::HEARTBEAT)?;
    if heartbeat == 0 {
        return Err("the core did not run (HEARTBEAT = 0)".into());
    }
    println!(
        "card_top ({}): {cycles} cycles in {secs:.2} s = {:.2} Mcycles/s (heartbeat {heartbeat})",
        card.cpu(),
        cycles as f64 / secs / 1e6
    );
    Ok(())
}
