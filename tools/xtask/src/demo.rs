//! `cargo xtask demo`: the main job on the simulated card, from a fresh clone.

use anyhow::{Context, Result};
use std::process::Command;

use crate::{cargo, firmware, firmware_elf, root, run, setup, step};

/// The optimised nicctl a user runs (`cargo install --path tools/nicctl` installs the same).
fn nicctl() -> Command {
    let mut c = Command::new(root().join("target/release/nicctl"));
    c.current_dir(root());
    c
}

pub fn demo() -> Result<()> {
    setup::setup()?;
    firmware::build_firmware()?;
    step("nicctl and the simulated card (Verilated gateware)");
    run(cargo().args(["build", "--release", "-p", "nicctl"]))?;
    let sock = root().join("target/demo-sim.sock");
    let card = format!("--card=sim:{}", sock.display());
    // A card left over from an earlier demo would keep old state: stop it quietly.
    let _ = nicctl()
        .args([card.as_str(), "sim", "stop"])
        .output()
        .context("running nicctl")?;
    step("start the simulated card");
    run(nicctl()
        .args([card.as_str(), "sim", "start", "--socket"])
        .arg(&sock))?;
    let result = (|| -> Result<()> {
        step("program the firmware");
        run(nicctl()
            .args([card.as_str(), "program", "--firmware"])
            .arg(firmware_elf()))?;
        step("ping");
        run(nicctl().args([card.as_str(), "ping"]))?;
        step("nicctl info");
        run(nicctl().args([card.as_str(), "info"]))?;
        step("firmware log (decoded defmt)");
        run(nicctl()
            .args([card.as_str(), "log", "--elf"])
            .arg(firmware_elf()))?;
        step("simulated card status");
        run(nicctl().args([card.as_str(), "sim", "status"]))?;
        Ok(())
    })();
    step("stop the simulated card");
    let stop = run(nicctl().args([card.as_str(), "sim", "stop"]));
    result?;
    stop?;
    eprintln!("\ndemo complete");
    Ok(())
}
