//! Rule-set compile and load times: 1K, 10K and 100K URL rules compiled from configuration
//! text (parse, check, plan, encode into the matcher's words; a set whose file is over the
//! reader's `config::MAX_FILE_BYTES` is reported as refused), and loaded into the simulated
//! card (the real gateware's L7 rule bank through the host BAR, then a bank switch and the
//! rule-set record through the firmware). Prints how many rules fit the default table.
//!
//! Run with `cargo xtask bench`, or `cargo run --release -p splicenic-hil --bin rules-bench`.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{Context, Result};
use splicenic_driver::config::{self, Limits};
use splicenic_hil::boot_sim;
use splicenic_sim::SimConfig;

/// Synthetic configuration with `n` URL rules over 8 pools.
fn config_text(n: usize) -> String {
    let mut s = String::from(
        "virtual_server 10.0.0.100 80 {\n    lvs_method NAT\n    protocol TCP\n    default_pool p0\n}\n",
    );
    for p in 0..8 {
        let _ = writeln!(
            s,
            "pool p{p} {{\n    lvs_sched wlc\n    real_server 192.168.1.{} 8080 {{\n        weight 1\n        mac 02:00:00:00:01:{:02x}\n    }}\n}}",
            10 + p,
            10 + p
        );
    }
    for i in 0..n {
        // A mix of the four rule shapes users write.
        let (host, path) = match i % 4 {
            0 => (format!("host h{i}.example.com"), String::new()),
            1 => (String::new(), format!("path_prefix /svc{i}/")),
            2 => (
                format!("host *.t{i}.example.org"),
                format!("path /v1/item{i}"),
            ),
            _ => (
                format!("host api{i}.example.net"),
                format!("path_prefix /api/{i}/"),
            ),
        };
        let _ = writeln!(
            s,
            "url_rule r{i} {{\n    {host}\n    {path}\n    priority {}\n    pool p{}\n}}",
            i % 1000,
            i % 8
        );
    }
    s
}

struct Compiled {
    n: usize,
    text_kib: f64,
    parse_ms: f64,
    compile_ms: f64,
    words: usize,
}

fn compile(n: usize) -> Result<Compiled> {
    let text = config_text(n);
    let t = Instant::now();
    let cfg = config::parse("bench.conf", &text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let parse_ms = t.elapsed().as_secs_f64() * 1e3;
    let limits = Limits {
        rules: usize::MAX,
        ..Limits::card_default()
    };
    let t = Instant::now();
    let plan = config::plan(&cfg, &limits).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut words = 0;
    for r in &plan.rules.rules {
        words += r.rule.encode(limits.pat_max)?.len();
    }
    let compile_ms = t.elapsed().as_secs_f64() * 1e3;
    anyhow::ensure!(
        plan.rules.rules.len() == n,
        "compiled {} rules",
        plan.rules.rules.len()
    );
    Ok(Compiled {
        n,
        text_kib: text.len() as f64 / 1024.0,
        parse_ms,
        compile_ms,
        words,
    })
}

fn main() -> Result<()> {
    println!("Rule sets: compile (parse + check + plan + encode) on the host");
    println!(
        "{:>8}  {:>10}  {:>10}  {:>12}  {:>12}  {:>14}",
        "rules", "text KiB", "parse ms", "compile ms", "total ms", "rule words"
    );
    let mut compiled = Vec::new();
    for n in [1_000, 10_000, 100_000] {
        let len = config_text(n).len();
        if len > config::MAX_FILE_BYTES {
            println!(
                "{n:>8}  {:>10.0}  refused: over the configuration reader's file limit of {} KiB (config::MAX_FILE_BYTES)",
                len as f64 / 1024.0,
                config::MAX_FILE_BYTES / 1024
            );
            continue;
        }
        let c = compile(n).with_context(|| format!("{n} rules"))?;
        println!(
            "{:>8}  {:>10.0}  {:>10.1}  {:>12.1}  {:>12.1}  {:>14}",
            c.n,
            c.text_kib,
            c.parse_ms,
            c.compile_ms,
            c.parse_ms + c.compile_ms,
            c.words
        );
        compiled.push(c);
    }

    eprintln!("booting the simulated card ...");
    let (mut card, _) = boot_sim(SimConfig::default())?;
    let limits = {
        let dp = card.datapath()?;
        Limits {
            rules: dp.params().l7_rules as usize,
            pat_max: dp.params().l7_pat_max as usize,
            ..Limits::card_default()
        }
    };
    println!();
    println!(
        "Default table: {} rules per bank (two banks), patterns up to {} bytes",
        limits.rules, limits.pat_max
    );
    println!("Load into the simulated card (host BAR writes into the inactive bank, bank switch, rule-set record):");
    for c in &compiled {
        let cfg =
            config::parse("bench.conf", &config_text(c.n)).map_err(|e| anyhow::anyhow!("{e}"))?;
        match config::plan(&cfg, &limits) {
            Ok(_) => println!("{:>8} rules: unexpectedly fit", c.n),
            Err(e) => println!(
                "{:>8} rules: refused before loading: {}",
                c.n,
                e.to_string().lines().next().unwrap_or_default()
            ),
        }
    }
    // The largest set that fits: a full bank.
    let cfg = config::parse("bench.conf", &config_text(limits.rules))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let plan = config::plan(&cfg, &limits).map_err(|e| anyhow::anyhow!("{e}"))?;
    let c0 = card.timer()?;
    let t = Instant::now();
    let bank = config::load_rule_table(&mut card, &plan.rules, |_, _| {})?;
    let wall = t.elapsed().as_secs_f64();
    let cycles = card.timer()?.saturating_sub(c0);
    let clk = f64::from(card.info().clk_hz);
    println!(
        "{:>8} rules (full bank): {:.2} s wall on the simulated card, {} card cycles = {:.3} ms at {:.2} MHz; active bank now {bank}",
        limits.rules,
        wall,
        cycles,
        cycles as f64 / clk * 1e3,
        clk / 1e6
    );
    Ok(())
}
