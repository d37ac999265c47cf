//! Soft-core cycles per spliced connection, measured on the simulated card with the real
//! firmware: connection setup (every punted frame and event of a connection until it is
//! spliced) and teardown (FIN/RST events and the aging scan's free), as the firmware counts
//! them in FLOW_STATS with the SoC timer. Prints the projected new connections per second at
//! the card clock, for each soft core built (`--features vexriscv` adds VexRiscv).
//!
//! Run with `cargo xtask bench`, or
//! `cargo run --release -p splicenic-hil --features vexriscv --bin splice-bench [connections]`.

use anyhow::{ensure, Context, Result};
use splicenic_driver::TcpTimeoutState;
use splicenic_hil::net::FetchId;
use splicenic_hil::splice_rig::{rig_with, Opts, BUDGET, SERVICE};
use splicenic_sim::{Cpu, SimCard};
use std::time::Instant;

/// Connections opened at once in the concurrent round.
const CONCURRENT: usize = 8;

struct Figures {
    cpu: Cpu,
    connections: u32,
    setup: f64,
    teardown: f64,
    wall: f64,
    cycles: u64,
}

fn measure(cpu: Cpu, sequential: usize) -> Result<Figures> {
    let started = Instant::now();
    let mut rig = rig_with(Opts {
        cpu,
        ..Opts::default()
    })
    .with_context(|| format!("{cpu} rig"))?;
    for st in [
        TcpTimeoutState::Established,
        TcpTimeoutState::FinWait,
        TcpTimeoutState::TimeWait,
        TcpTimeoutState::Close,
    ] {
        rig.card.timeout_set_ms(st, 5)?;
    }
    let c0 = rig.net.cycles();
    // One at a time.
    for i in 0..sequential {
        let r = rig.net.http_get(rig.client, SERVICE, "/data/100", BUDGET)?;
        ensure!(r.status == 200, "connection {i}: status {}", r.status);
    }
    // Several at once: the firmware interleaves their setups.
    let ids: Vec<FetchId> = (0..CONCURRENT)
        .map(|_| rig.net.get(rig.client, SERVICE, "/data/100"))
        .collect::<Result<_>>()?;
    for &id in &ids {
        rig.net.wait_responses(id, 1, BUDGET)?;
    }
    let total = (sequential + CONCURRENT) as u32;
    // Let every flow age out so teardown is counted too.
    for _ in 0..80 {
        rig.net.run_for(250_000)?;
        if rig.card.flow_stats()?.aged_out >= total {
            break;
        }
    }
    let s = rig.card.flow_stats()?;
    ensure!(s.spliced_total == total, "{s:?}");
    ensure!(s.aged_out == total, "not every flow aged out: {s:?}");
    Ok(Figures {
        cpu,
        connections: total,
        setup: s.setup_cycles_per_connection().unwrap_or(0.0),
        teardown: s.teardown_cycles_per_connection().unwrap_or(0.0),
        wall: started.elapsed().as_secs_f64(),
        cycles: rig.net.cycles() - c0,
    })
}

fn main() -> Result<()> {
    let sequential: usize = match std::env::args().nth(1) {
        Some(a) => a.parse().context("connections: a number")?,
        None => 8,
    };
    let clk = SimCard::clk_hz() as f64;
    let mut cpus = vec![Cpu::PicoRv32];
    if cfg!(feature = "vexriscv") {
        cpus.push(Cpu::VexRiscv);
    }
    let mut rows = Vec::new();
    for cpu in cpus {
        let f = measure(cpu, sequential)?;
        println!(
            "flow manager   {:<8} {:>3} connections ({sequential} one at a time, {CONCURRENT} at once): setup {:>8.0} cycles/connection, teardown {:>6.0} cycles/connection -> {:>6.0} new connections/s at {:.2} MHz (projected from cycle counts; {} simulated cycles in {:.1} s wall)",
            f.cpu.to_string(),
            f.connections,
            f.setup,
            f.teardown,
            clk / (f.setup + f.teardown),
            clk / 1e6,
            f.cycles,
            f.wall
        );
        rows.push(f);
    }
    if let [a, b] = rows.as_slice() {
        println!(
            "flow manager   {} / {} cycles per connection (setup + teardown): {:.2}x",
            a.cpu,
            b.cpu,
            (a.setup + a.teardown) / (b.setup + b.teardown)
        );
    }
    Ok(())
}
