//! The software baseline for the card's figures: HAProxy doing the card's URL routing to
//! the same nginx backends, measured with wrk from a client namespace on this machine
//! ([`splicenic_hil::baseline`]). Prints the HAProxy version, the routing check and a table
//! of figures with units and how each was obtained.
//!
//! Run as root: `cargo run --release -p splicenic-hil --bin proxy-bench [-- SECONDS
//! [CONNECTIONS]]` (default 5 s per run, 16 connections). Needs haproxy, nginx-light, wrk
//! and curl (`cargo xtask setup` installs them).

use anyhow::{bail, Context, Result};
use splicenic_hil::baseline::{
    haproxy_version, missing_prerequisites, BenchOpts, HaproxyRig, NBTHREAD,
};
use splicenic_hil::bench_out::{BenchOut, Kind};
use std::process::ExitCode;
use std::time::Duration;

fn opts_from_args() -> Result<BenchOpts> {
    let mut opts = BenchOpts::default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() > 2 || args.iter().any(|a| a == "-h" || a == "--help") {
        bail!("usage: proxy-bench [SECONDS [CONNECTIONS]] (defaults 5 and 16)");
    }
    if let Some(s) = args.first() {
        let secs: u64 = s
            .parse()
            .with_context(|| format!("SECONDS {s:?} is not a whole number"))?;
        if secs == 0 {
            bail!("SECONDS must be at least 1");
        }
        opts.duration = Duration::from_secs(secs);
    }
    if let Some(c) = args.get(1) {
        opts.connections = c
            .parse()
            .with_context(|| format!("CONNECTIONS {c:?} is not a whole number"))?;
        if opts.connections == 0 {
            bail!("CONNECTIONS must be at least 1");
        }
    }
    Ok(opts)
}

fn bench() -> Result<()> {
    let opts = opts_from_args()?;
    let missing = missing_prerequisites();
    if !missing.is_empty() {
        bail!(
            "cannot run the HAProxy baseline here:\n  {}\n(`cargo xtask setup` installs the tools; run as root, e.g. sudo)",
            missing.join("\n  ")
        );
    }
    let version = haproxy_version()?;
    let rig = HaproxyRig::build().context("building the HAProxy baseline")?;
    println!(
        "HAProxy {version} (nbthread {NBTHREAD}) in namespace {}, 4 nginx backends, set up in {:.2?}; {} cores on this machine",
        rig.proxy_ns,
        rig.setup_time,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("routing check (curl from the client namespace, X-Backend):");
    for l in rig
        .check_routing()
        .context("checking HAProxy's routing before measuring")?
    {
        println!("  {l}");
    }
    let b = rig.measure(&opts)?;
    drop(rig);
    println!();
    let figures = b.figures();
    let w = figures.iter().map(|f| f.name.len()).max().unwrap_or(0);
    println!(
        "{:<w$}  {:>12}  {:<14}  how obtained",
        "figure", "value", "unit"
    );
    let mut out = BenchOut::new(
        "baseline",
        "cargo run --release -p splicenic-hil --bin proxy-bench",
    );
    for f in &figures {
        println!(
            "{:<w$}  {:>12.1}  {:<14}  {}",
            f.name, f.value, f.unit, f.how
        );
        out.figure(f.key, f.name, f.value, f.unit, Kind::Measured, &f.how);
    }
    out.figure(
        "baseline.haproxy.version_nbthread",
        &format!("HAProxy {version}"),
        f64::from(NBTHREAD),
        "threads",
        Kind::Measured,
        "nbthread in the generated configuration",
    );
    out.write()?;
    println!();
    for r in b.runs() {
        println!(
            "{}: {} requests in {:.2} s, {} bytes read, latency mean {:.0} us p99 {} us, errors: connect {} read {} write {} timeout {} non-2xx/3xx {}",
            r.command,
            r.requests,
            r.duration.as_secs_f64(),
            r.bytes,
            r.latency_mean_us,
            r.latency_p99_us,
            r.errors.connect,
            r.errors.read,
            r.errors.write,
            r.errors.timeout,
            r.errors.status
        );
        if let Some(c) = r.proxy_connections {
            println!(
                "  HAProxy accepted {} client connections and opened {} server connections ({:.3} per client connection)",
                c.client,
                c.server,
                c.server as f64 / (c.client.max(1)) as f64
            );
        }
    }
    let load = |l: Option<f64>| l.map_or("?".to_string(), |l| format!("{l:.2}"));
    println!(
        "load average (1 min) before {}, after {} (the machine is shared: wrk, HAProxy and nginx run on the same cores)",
        load(b.load_before),
        load(b.load_after)
    );
    let errors: u64 = b.runs().iter().map(|r| r.errors.total()).sum();
    if errors > 0 {
        println!("note: wrk reported {errors} errors in total (see above)");
    }
    Ok(())
}

fn main() -> ExitCode {
    match bench() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxy-bench: {e:#}");
            ExitCode::FAILURE
        }
    }
}
