//! The control-plane commands: rule sets, flows, statistics, exporter, capture, monitor.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use serde_json::json;
use splicenic_driver::config::{self, Limits, RuleTable};
use splicenic_driver::datapath::{
    DropCounters, Port, SetupHistogram, StatsSnapshot, Trace, TraceDetail, TraceRecord,
    DROP_REGISTER_BITS,
};
use splicenic_driver::flowmgr::{FlowInfo, FlowStats, TcpStats, TcpTimeoutState};
use splicenic_driver::{Card, DriverError, RealServer};

use crate::adm::{self, Table};
use crate::apply::{self, neighbours, resolve_mac};
use crate::exporter::{
    self, DropMetrics, EngineMetrics, FirmwareHealth, FlowTable, Metrics, OutcomeMetrics,
    PortMetrics, PortSide, ServerMetrics, ServiceMetrics, SetupLatency,
};
use crate::ipvs::args::ListOptions;
use crate::ipvs::model::Counters;
use crate::monitor::{self, Control, MonitoredPool};
use crate::pcap::{PcapWriter, TsResolution};
use crate::progress::Progress;
use crate::{open_card, CardSpec};

/// Set by SIGINT/SIGTERM: long-running commands stop at the next round.
pub static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// Makes Ctrl-C and SIGTERM end long-running commands cleanly (pcap files complete, capture
/// switched off).
pub fn install_stop_handler() {
    let handler: extern "C" fn(libc::c_int) = on_signal;
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(sig, handler as libc::sighandler_t);
        }
    }
}

/// Sleeps `d` in small steps, returning early when a stop was asked for.
fn nap(d: Duration) {
    let end = Instant::now() + d;
    while !STOP.load(Ordering::SeqCst) && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20).min(end - Instant::now()));
    }
}

fn print_diagnostics(e: &config::ConfigErrors) {
    for err in e.errors() {
        eprintln!("{err}");
    }
}

/// Parses and plans `file` against `limits`, printing every error located; `Err` if any.
fn checked(file: &Path, limits: &Limits, applying: bool) -> Result<(config::Config, config::Plan)> {
    let tail = if applying {
        "; nothing was applied"
    } else {
        ""
    };
    let cfg = match config::load(file) {
        Ok(c) => c,
        Err(e) => {
            print_diagnostics(&e);
            bail!(
                "{}: {} error{}{tail}",
                file.display(),
                e.total(),
                if e.total() == 1 { "" } else { "s" }
            );
        }
    };
    match config::plan(&cfg, limits) {
        Ok(p) => {
            for w in &p.warnings {
                eprintln!("{w}");
            }
            Ok((cfg, p))
        }
        Err(e) => {
            print_diagnostics(&e);
            bail!(
                "{}: {} error{}{tail}",
                file.display(),
                e.len(),
                if e.len() == 1 { "" } else { "s" }
            );
        }
    }
}

fn summary(plan: &config::Plan) -> String {
    let servers: usize = plan.pools.iter().map(|p| p.servers.len()).sum();
    format!(
        "{} virtual service{}, {} pool{}, {} real server{}, {} URL rule{}",
        plan.services.len(),
        if plan.services.len() == 1 { "" } else { "s" },
        plan.pools.len(),
        if plan.pools.len() == 1 { "" } else { "s" },
        servers,
        if servers == 1 { "" } else { "s" },
        plan.rules.rules.len(),
        if plan.rules.rules.len() == 1 { "" } else { "s" },
    )
}

/// `rules check FILE`: no card needed; the default gateware's limits.
pub fn rules_check(file: &Path) -> Result<()> {
    let (_, plan) = checked(file, &Limits::card_default(), false)?;
    println!(
        "configuration file {} syntax is OK: {}",
        file.display(),
        summary(&plan)
    );
    Ok(())
}

/// `rules load FILE`.
pub fn rules_load(spec: &CardSpec, file: &Path, quiet: bool) -> Result<()> {
    let mut card = open_card(spec)?;
    let limits = apply::card_limits(&mut card)?;
    let (cfg, plan) = checked(file, &limits, true)?;
    let mut progress = Progress::new(quiet);
    let r = apply::apply(&mut card, &cfg, &plan, &mut progress)?;
    println!(
        "loaded {}: {} services, {} pools, {} real servers, {} rules into bank {} ({:.2} s); removed {} services, {} servers, {} pools",
        file.display(),
        r.services,
        r.pools,
        r.servers,
        r.rules,
        r.active_bank,
        r.rules_seconds,
        r.removed_services,
        r.removed_servers,
        r.removed_pools
    );
    Ok(())
}

/// The rule table recorded on the card, if any.
fn card_rules(card: &mut Card) -> Result<Option<RuleTable>> {
    match card.flow_manager().ruleset_record_get()? {
        None => Ok(None),
        Some(blob) => Ok(Some(RuleTable::from_blob(&blob).context(
            "the card's rule-set record does not decode (written by another version of nicctl?)",
        )?)),
    }
}

/// `rules show`.
pub fn rules_show(spec: &CardSpec, as_json: bool) -> Result<()> {
    let mut card = open_card(spec)?;
    let status = card.datapath()?.l7_status()?;
    let table = card_rules(&mut card)?;
    if as_json {
        let rules: Vec<_> = table
            .iter()
            .flat_map(|t| t.rules.iter())
            .map(|r| {
                json!({
                    "name": r.name,
                    "rule": r.summary(),
                    "priority": r.rule.priority,
                    "pool": r.pool,
                    "pool_index": r.rule.pool,
                })
            })
            .collect();
        let v = json!({
            "active_bank": status.active_bank,
            "recorded": table.is_some(),
            "default_pool": table.as_ref().map(|t| t.default_pool),
            "rules": rules,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("# active bank {}", status.active_bank);
    match table {
        None => println!(
            "# no rule set has been loaded with `nicctl rules load` since the firmware started"
        ),
        Some(t) => print!("{t}"),
    }
    Ok(())
}

/// `rules diff FILE`: every change `rules load FILE` would make (card addresses,
/// timeouts, pools, real servers, URL rules, services, removals), from the plan the load
/// carries out.
pub fn rules_diff(spec: &CardSpec, file: &Path) -> Result<()> {
    let mut card = open_card(spec)?;
    let limits = apply::card_limits(&mut card)?;
    let (cfg, plan) = checked(file, &limits, false)?;
    let changes = apply::diff(&mut card, &cfg, &plan)?;
    if changes.is_empty() {
        println!(
            "no change: the card's configuration equals {}",
            file.display()
        );
    }
    for c in changes {
        println!("{c}");
    }
    Ok(())
}

/// `flows`.
pub fn flows(spec: &CardSpec, as_json: bool) -> Result<()> {
    let mut card = open_card(spec)?;
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let list = card.flow_manager().flows(|n| {
        if tty {
            eprint!("\rreading flows: {n}");
        }
    })?;
    if tty {
        eprintln!();
    }
    print!("{}", render_flows(&list, as_json)?);
    Ok(())
}

fn fmt_expiry(d: Option<Duration>) -> String {
    match d {
        None => "-".into(),
        Some(d) => {
            let s = d.as_secs();
            format!("{:02}:{:02}", s / 60, s % 60)
        }
    }
}

/// The state the `flows` table shows: the IPVS state, or `LINGER` for a flow in the card's
/// linger class (both FINs acknowledged; it leaves when its linger ends).
fn flow_state_text(f: &FlowInfo) -> &'static str {
    match f.timeout_class {
        Some(TcpTimeoutState::Linger) => TcpTimeoutState::Linger.name(),
        _ => f.state.name(),
    }
}

/// The `flows` listing.
pub fn render_flows(list: &[FlowInfo], as_json: bool) -> Result<String> {
    if as_json {
        let v: Vec<_> = list
            .iter()
            .map(|f| {
                json!({
                    "slot": f.slot,
                    "state": f.state.name(),
                    "timeout_class": f.timeout_class.map(|c| c.name()),
                    "flow_state": format!("{:?}", f.flow_state),
                    "client": f.client.to_string(),
                    "virtual": f.vip.to_string(),
                    "local": f.local.to_string(),
                    "server": f.server.to_string(),
                    "real_server": f.real_server,
                    "service": f.service,
                    "expires_in_ms": f.expires_in.map(|d| d.as_millis() as u64),
                    "idle_ms": f.idle.as_millis() as u64,
                    "packets_to_server": f.packets_to_server,
                    "packets_to_client": f.packets_to_client,
                    "bytes_to_server": f.bytes_to_server,
                    "bytes_to_client": f.bytes_to_client,
                })
            })
            .collect();
        return Ok(serde_json::to_string_pretty(&v)? + "\n");
    }
    let mut out = format!(
        "{:<5} {:<11} {:>6} {:<21} {:<21} {:<21} {:<21} {:>9} {:>9} {:>12} {:>12}\n",
        "slot",
        "state",
        "expire",
        "client",
        "virtual",
        "local",
        "server",
        "pkts c>s",
        "pkts s>c",
        "bytes c>s",
        "bytes s>c"
    );
    for f in list {
        out += &format!(
            "{:<5} {:<11} {:>6} {:<21} {:<21} {:<21} {:<21} {:>9} {:>9} {:>12} {:>12}\n",
            f.slot,
            flow_state_text(f),
            fmt_expiry(f.expires_in),
            f.client.to_string(),
            f.vip.to_string(),
            f.local.to_string(),
            f.server.to_string(),
            f.packets_to_server,
            f.packets_to_client,
            f.bytes_to_server,
            f.bytes_to_client
        );
    }
    out += &format!(
        "{} flow{}\n",
        list.len(),
        if list.len() == 1 { "" } else { "s" }
    );
    Ok(out)
}

/// Everything the exporter and `stats` show, read under one lock.
pub fn metrics(spec: &CardSpec, restarts: u64) -> Result<Metrics> {
    let mut card = open_card(spec)?;
    metrics_of(&mut card, restarts)
}

fn metrics_of(card: &mut Card, restarts: u64) -> Result<Metrics> {
    let status = card.status()?;
    let clk_hz = card.info().clk_hz;
    let up = card.mailbox().ping().is_ok();
    let table = Table::read(card)?;
    let fs = card.flow_manager().flow_stats()?;
    let (st, dc, av, marks, trace, setup) = {
        let mut dp = card.datapath()?;
        (
            dp.stats()?,
            dp.drop_counters()?,
            dp.ack_validator()?,
            dp.marks()?,
            dp.trace_status()?,
            dp.setup_histogram()?,
        )
    };
    let snap = table.snapshot(Some(&st), fs.slot_capacity);
    let ctr = |c: &Counters| Counters {
        conns: c.conns,
        inpkts: c.inpkts,
        outpkts: c.outpkts,
        inbytes: c.inbytes,
        outbytes: c.outbytes,
    };
    let services = snap
        .services
        .iter()
        .map(|s| ServiceMetrics {
            vip: s.vip.ip().to_string(),
            port: s.vip.port(),
            counters: ctr(&s.stats),
        })
        .collect();
    let servers = table
        .cfg
        .servers
        .iter()
        .map(|(&rs, s)| {
            let c = st.server(usize::from(rs));
            ServerMetrics {
                pool: format!("{}", s.server.pool),
                server: s.server.addr.to_string(),
                port: s.server.port,
                counters: Counters {
                    conns: u64::from(s.stats.connections),
                    inpkts: c.in_frames,
                    outpkts: c.out_frames,
                    inbytes: c.in_bytes,
                    outbytes: c.out_bytes,
                },
                active: u64::from(s.stats.active),
                inactive: u64::from(s.stats.inactive),
                weight: u64::from(s.server.weight),
            }
        })
        .collect();
    let ports = [
        (Port::Client, PortSide::Client),
        (Port::Server, PortSide::Server),
    ]
    .into_iter()
    .map(|(p, side)| {
        let c = st.port(p);
        PortMetrics {
            port: side,
            rx_packets: c.rx_frames,
            tx_packets: c.tx_frames,
            rx_bytes: c.rx_bytes,
            tx_bytes: c.tx_bytes,
        }
    })
    .collect();
    let mut drops: Vec<DropMetrics> = st
        .drop_reasons()
        .into_iter()
        .map(|(reason, count)| DropMetrics {
            reason: reason.to_string(),
            count,
        })
        .collect();
    drops.push(DropMetrics {
        reason: "flow_table_full".into(),
        count: u64::from(fs.refused_table_full),
    });
    drops.push(DropMetrics {
        reason: "setup_failed".into(),
        count: u64::from(fs.setup_failed),
    });
    // The registers outside STATS (32-bit, wrapping: a wrap reads as a counter reset); the
    // inject ring INJECT.SEL did not select is left out rather than guessed.
    drops.extend(dc.registers().iter().filter_map(|r| {
        r.count.map(|c| DropMetrics {
            reason: r.name.to_string(),
            count: u64::from(c),
        })
    }));
    drops.push(DropMetrics {
        reason: "punts_ignored".into(),
        count: u64::from(fs.punts_ignored),
    });
    let tcp = card.flow_manager().tcp_stats()?;
    drops.push(DropMetrics {
        reason: "gen_stale".into(),
        count: u64::from(tcp.gen_stale),
    });
    drops.push(DropMetrics {
        reason: "early_results_dropped".into(),
        count: u64::from(tcp.early_results_dropped),
    });
    let outcomes = |list: &[(&'static str, u32)]| {
        list.iter()
            .map(|&(outcome, n)| OutcomeMetrics {
                outcome,
                count: u64::from(n),
            })
            .collect()
    };
    Ok(Metrics {
        services,
        servers,
        ports,
        drops,
        spliced_rsts: outcomes(&[
            ("pending", tcp.rst_pending),
            ("restored", tcp.rst_restored),
            ("freed_silent", tcp.rst_freed_silent),
            ("freed_by_receiver", tcp.rst_freed_receiver),
            ("untracked", tcp.rst_untracked),
        ]),
        spliced_syns: outcomes(&[
            ("challenged", tcp.syn_challenged),
            ("rate_limited", tcp.challenge_limited),
            ("dropped", tcp.syn_dropped),
            ("time_wait_replaced", tcp.tw_replaced),
        ]),
        ack_validator: outcomes(&[
            ("new", av.new),
            ("found", av.found),
            ("bad_cookie", av.bad_cookie),
            ("stale", av.stale),
            ("no_slot", av.no_slot),
            ("table_full", av.table_full),
            ("handover_lost", tcp.engine_lost),
        ]),
        flow_table: FlowTable {
            in_use: u64::from(fs.slots_in_use),
            capacity: u64::from(fs.slot_capacity),
        },
        setup_latency: Some(SetupLatency {
            histogram: setup,
            clk_hz,
        }),
        engine: EngineMetrics {
            trace_entries: u64::from(trace.count),
            trace_lost: u64::from(trace.lost),
            free_list_low: marks.free_low.map(u64::from),
            punt_ring_high: u64::from(marks.punt_high),
        },
        firmware: FirmwareHealth {
            up,
            heartbeat: u64::from(status.heartbeat),
            restarts,
        },
    })
}

/// `exporter --listen ADDR`.
pub fn exporter(spec: &CardSpec, listen: std::net::SocketAddr) -> Result<()> {
    install_stop_handler();
    eprintln!("serving Prometheus metrics on http://{listen}/metrics (Ctrl-C stops)");
    let spec = spec.clone();
    // Firmware restarts this exporter saw: the heartbeat counter starts again from 0.
    let mut last_heartbeat = 0u64;
    let mut restarts = 0u64;
    exporter::serve(
        listen,
        move || {
            let mut m = metrics(&spec, restarts)?;
            if m.firmware.heartbeat < last_heartbeat {
                restarts += 1;
                m.firmware.restarts = restarts;
            }
            last_heartbeat = m.firmware.heartbeat;
            Ok(m)
        },
        &STOP,
    )
    .with_context(|| format!("serving metrics on {listen}"))?;
    Ok(())
}

/// One counter of the drops section of `stats`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DropRow {
    /// The reason: a parser reason or `DROP_*` classifier name (STATS), a register name
    /// (`PUNT.DROP_FULL`, ...), or a firmware counter (`FLOW_STATS.punts_ignored`,
    /// `TCP_STATS.gen_stale`).
    pub reason: &'static str,
    /// The count; `None` when it was not read (the inject ring INJECT.SEL did not select).
    pub count: Option<u64>,
    /// Where it is kept: `STATS[i]`, `BAR 0x....`, `FLOW_STATS` or `TCP_STATS`.
    pub counter: String,
    /// Width in bits: 64 (STATS) or 32 (the BAR registers, FLOW_STATS and TCP_STATS, wrapping
    /// modulo 2^32). `ipvsadm -Z` clears STATS, FLOW_STATS and TCP_STATS; the BAR registers
    /// only a card reset.
    pub bits: u32,
}

/// Every frame and record loss the card counts, per reason: the STATS parser and
/// classifier reasons, the loss registers outside STATS ([`DropCounters`]) and the
/// punted frames the firmware dropped.
pub fn drop_rows(
    st: &StatsSnapshot,
    dc: &DropCounters,
    fs: &FlowStats,
    tcp: &TcpStats,
) -> Vec<DropRow> {
    let stats = st.drop_reason_counters().into_iter().map(|d| DropRow {
        reason: d.reason,
        count: Some(d.count),
        counter: format!("STATS[{}]", d.index),
        bits: 64,
    });
    let regs = dc.registers().into_iter().map(|r| DropRow {
        reason: r.name,
        count: r.count.map(u64::from),
        counter: format!("BAR {:#06x}", r.offset),
        bits: DROP_REGISTER_BITS,
    });
    let fw = [
        DropRow {
            reason: "FLOW_STATS.punts_ignored",
            count: Some(u64::from(fs.punts_ignored)),
            counter: "FLOW_STATS".into(),
            bits: 32,
        },
        // punts and events of an earlier use of their slot (docs/flowmgr.md)
        DropRow {
            reason: "TCP_STATS.gen_stale",
            count: Some(u64::from(tcp.gen_stale)),
            counter: "TCP_STATS".into(),
            bits: 32,
        },
        // inline L7 results kept for a slot not handed over yet, overwritten untaken
        DropRow {
            reason: "TCP_STATS.early_results_dropped",
            count: Some(u64::from(tcp.early_results_dropped)),
            counter: "TCP_STATS".into(),
            bits: 32,
        },
    ];
    stats.chain(regs).chain(fw).collect()
}

/// The drops section of `stats`' text output: one line per counter, every counter
/// shown (zero or not).
pub fn format_drops(rows: &[DropRow]) -> String {
    let mut out = String::from("Drops\n");
    // The reason column fits the longest name.
    let w = rows
        .iter()
        .map(|r| r.reason.len())
        .max()
        .unwrap_or(0)
        .max(24);
    out += &format!(
        "{:<w$} {:>12}  {:<12} {:>4}\n",
        "Reason", "Count", "Counter", "Bits"
    );
    for r in rows {
        let count = r.count.map_or_else(|| "-".to_string(), |c| c.to_string());
        out += &format!(
            "{:<w$} {:>12}  {:<12} {:>4}\n",
            r.reason, count, r.counter, r.bits
        );
    }
    out += "32-bit counters wrap at 2^32; ipvsadm -Z clears STATS, FLOW_STATS and TCP_STATS, only a card reset the BAR registers\n";
    if rows.iter().any(|r| r.count.is_none()) {
        out += "-: not read (INJECT.SEL, which the firmware owns, selects the other inject ring)\n";
    }
    out
}

/// The drops section of `stats --json`: `[{"reason", "count", "counter", "bits",
/// "wraps"}]`, `count` null when not read.
pub fn drops_json(rows: &[DropRow]) -> serde_json::Value {
    rows.iter()
        .map(|r| {
            json!({
                "reason": r.reason,
                "count": r.count,
                "counter": r.counter,
                "bits": r.bits,
                "wraps": r.bits == 32,
            })
        })
        .collect()
}

/// The high-water marks as `nicctl stats` prints them.
fn marks_line(m: &splicenic_driver::datapath::Marks) -> String {
    format!(
        "High-water marks: free list lowest {} of {}; punt ring (exceptions) most waiting {} of {}\n",
        m.free_low
            .map_or("- (restart with --restart-marks)".to_string(), |l| l.to_string()),
        m.free_depth,
        m.punt_high,
        m.punt_slots
    )
}

/// The aging scanner as `nicctl stats` prints it (docs/aging.md, "The scanner").
fn aging_line(a: &splicenic_driver::datapath::Aging, clk_hz: u32) -> String {
    if a.depth == 0 {
        return "Aging scanner: none on this card (the firmware scans)\n".to_string();
    }
    let walk = u64::from(a.limit) * u64::from(a.interval);
    let freed = if a.free {
        format!(", {} freed by the card", a.freed)
    } else {
        ", the firmware frees them".to_string()
    };
    format!(
        "Aging scanner: {}, {} slots, one read every {} cycles: a walk {:.2} ms; {} walks, {} expired flows found{freed}; queue {} of {}\n",
        if a.enabled { "on" } else { "off" },
        a.limit,
        a.interval,
        micros(walk as f64, clk_hz) / 1000.0,
        a.sweeps,
        a.expired,
        a.level,
        a.depth
    )
}

/// The frame generator as `nicctl stats` prints it (docs/server-open.md, "In the data
/// path").
fn tx_gen_line(g: &splicenic_driver::datapath::TxGen) -> String {
    if !g.present {
        return "Frame generator: none on this card (the firmware injects every frame)\n"
            .to_string();
    }
    format!(
        "Frame generator: {} frames to clients, {} to servers built by the card; {} requests refused while busy\n",
        g.sent_client, g.sent_server, g.refused
    )
}

/// The card's request-head buffers and who replayed the heads, as `nicctl stats` prints it
/// (docs/head-buf.md, "In the data path").
fn head_bufs_line(h: &splicenic_driver::datapath::HeadBufs, tcp: &TcpStats) -> String {
    if !h.present {
        return format!(
            "Head buffers: none on this card ({} heads replayed by the firmware)\n",
            tcp.head_replays_fw
        );
    }
    format!(
        "Head buffers: {} in use (at most {}); heads replayed by the card {}, by the firmware {}; {} replays too long, {} operations refused\n",
        h.in_use, h.in_use_max, tcp.head_replays, tcp.head_replays_fw, h.long, h.bad
    )
}

/// The card's SYN-ACK absorber, as `nicctl stats` prints it (docs/server-open.md, "The
/// absorber in the data path").
fn absorber_line(a: &splicenic_driver::datapath::Absorber, tcp: &TcpStats) -> String {
    if !a.present {
        return "SYN-ACK absorber: none on this card (the firmware completes every server handshake)\n"
            .to_string();
    }
    if !a.enabled {
        return "SYN-ACK absorber: off\n".to_string();
    }
    format!(
        "SYN-ACK absorber: {} server handshakes completed by the card ({} found so by a take-back; {} waiting for the firmware's bookkeeping, {} punted with the done queue full), {} left to the firmware; {} armed setups taken back\n",
        a.done, tcp.absorbed_found, a.queued, a.spilled, a.punted, tcp.absorb_disarmed
    )
}

/// Who follows the spliced flows' FINs, as `nicctl stats` prints it (docs/engine.md,
/// "Teardown").
fn fin_line(f: &splicenic_driver::datapath::FinCtrl) -> &'static str {
    match (f.present, f.events) {
        (true, false) => {
            "FINs: followed by the card (teardown view, per-server counts; no FIN events)\n"
        }
        (_, true) => "FINs: each one an event for the firmware\n",
        (false, false) => {
            "FINs: no FIN events and no card counts (the firmware does not follow closes)\n"
        }
    }
}

/// Microseconds of `cycles` card cycles at `clk_hz`.
fn micros(cycles: f64, clk_hz: u32) -> f64 {
    cycles / f64::from(clk_hz.max(1)) * 1e6
}

/// The percentiles `stats` shows of the setup latency.
const SETUP_PERCENTILES: [(&str, f64); 3] = [("p50", 50.0), ("p90", 90.0), ("p99", 99.0)];

/// The setup-latency section of `stats`: the counts, p50/p90/p99 as the upper bounds of
/// their buckets in microseconds, and one line per non-empty bucket.
pub fn setup_latency_text(h: &SetupHistogram, clk_hz: u32) -> String {
    let pct = SETUP_PERCENTILES
        .iter()
        .map(|&(name, p)| match h.percentile(p) {
            Some(c) => format!("{name} <= {:.3} us", micros(c as f64, clk_hz)),
            None => format!("{name} -"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = format!(
        "Setup latency (HANDSHAKE to SPLICED): {} timed, {} not timed (start overwritten); {pct}\n",
        h.timed, h.overwritten
    );
    if h.total() > 0 {
        out += &format!(
            "  {:>6} {:>14} {:>14} {:>10}\n",
            "Bucket", "From (us)", "To (us)", "Setups"
        );
        for (b, &count) in h.buckets.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let r = h.bucket_cycles(b);
            out += &format!(
                "  {b:>6} {:>14.3} {:>14.3} {count:>10}\n",
                micros(r.start as f64, clk_hz),
                micros(r.end as f64, clk_hz)
            );
        }
    }
    out
}

/// The setup-latency section of `stats --json`: `{"timed", "overwritten", "total",
/// "unit_cycles", "p50_us", "p90_us", "p99_us", "buckets": [{"bucket", "from_us", "to_us",
/// "count"}]}`, the non-empty buckets only, the percentiles null when none was timed.
pub fn setup_latency_json(h: &SetupHistogram, clk_hz: u32) -> serde_json::Value {
    let mut v = json!({
        "timed": h.timed,
        "overwritten": h.overwritten,
        "total": h.total(),
        "unit_cycles": h.unit_cycles,
        "buckets": h.buckets.iter().enumerate().filter(|(_, &c)| c != 0).map(|(b, &count)| {
            let r = h.bucket_cycles(b);
            json!({"bucket": b, "from_us": micros(r.start as f64, clk_hz),
                   "to_us": micros(r.end as f64, clk_hz), "count": count})
        }).collect::<Vec<_>>(),
    });
    for (name, p) in SETUP_PERCENTILES {
        v[format!("{name}_us")] = json!(h.percentile(p).map(|c| micros(c as f64, clk_hz)));
    }
    v
}

/// `stats [--watch]`.
pub fn stats(
    spec: &CardSpec,
    watch: bool,
    restart_marks: bool,
    interval: Duration,
    as_json: bool,
) -> Result<()> {
    install_stop_handler();
    if restart_marks {
        open_card(spec)?.datapath()?.restart_marks()?;
    }
    let mut rates = adm::Rates2::default();
    let opts = ListOptions {
        numeric: true,
        stats: true,
        ..ListOptions::default()
    };
    loop {
        let (
            mut snap,
            fs,
            ports,
            drops,
            heads,
            tcp,
            av,
            marks,
            aging,
            (txgen, fin, hb, absorber),
            setup,
            clk_hz,
        ) = {
            let mut card = open_card(spec)?;
            let clk_hz = card.info().clk_hz;
            let table = Table::read(&mut card)?;
            let fs = card.flow_manager().flow_stats()?;
            let heads = card.flow_manager().head_stats()?;
            let tcp = card.flow_manager().tcp_stats()?;
            let (st, dc, av, marks, aging, txgen, setup) = {
                let mut dp = card.datapath()?;
                (
                    dp.stats()?,
                    dp.drop_counters()?,
                    dp.ack_validator()?,
                    dp.marks()?,
                    dp.aging()?,
                    (
                        dp.tx_gen()?,
                        dp.fin_ctrl()?,
                        dp.head_bufs()?,
                        dp.absorber()?,
                    ),
                    dp.setup_histogram()?,
                )
            };
            let snap = table.snapshot(Some(&st), fs.slot_capacity);
            (
                snap,
                fs,
                [st.port(Port::Client), st.port(Port::Server)],
                drop_rows(&st, &dc, &fs, &tcp),
                heads,
                tcp,
                av,
                marks,
                aging,
                txgen,
                setup,
                clk_hz,
            )
        };
        let refusals = heads
            .refused
            .iter()
            .filter(|(_, c)| *c != 0)
            .map(|(r, c)| (r.name(), *c))
            .collect::<Vec<_>>();
        rates.update(Instant::now(), &mut snap);
        if as_json {
            let v = json!({
                "services": serde_json::from_str::<serde_json::Value>(&crate::ipvs::format::json(&snap, &ListOptions { rate: true, ..opts.clone() })?)?,
                "ports": ports.iter().zip(["client", "server"]).map(|(p, n)| json!({
                    "port": n, "rx_frames": p.rx_frames, "rx_bytes": p.rx_bytes,
                    "tx_frames": p.tx_frames, "tx_bytes": p.tx_bytes, "forwarded": p.forwarded,
                    "punted": p.punted, "dropped": p.dropped,
                    "syn_answered": p.syn_answered})).collect::<Vec<_>>(),
                "drops": drops_json(&drops),
                "flows": {"in_use": fs.slots_in_use, "capacity": fs.slot_capacity,
                          "spliced_total": fs.spliced_total, "refused_table_full": fs.refused_table_full,
                          "setup_failed": fs.setup_failed, "syn_cookies": fs.cookie_syn_acks},
                "request_heads": {"flagged": heads.flagged, "canonical": heads.canonical,
                          "not_http": heads.not_http, "refused": heads.refused_total(),
                          "cycles_per_head": heads.cycles_per_head(),
                          "refused_by_reason": refusals.iter().map(|(r, c)| json!({"reason": r, "count": c})).collect::<Vec<_>>()},
                "resets": {"rst_pending": tcp.rst_pending, "restored": tcp.rst_restored,
                          "freed_silent": tcp.rst_freed_silent, "freed_by_receiver": tcp.rst_freed_receiver,
                          "untracked": tcp.rst_untracked, "probes": tcp.probes,
                          "pending_now": tcp.rst_pending_now},
                "spliced_syns": {"challenged": tcp.syn_challenged, "rate_limited": tcp.challenge_limited,
                          "dropped": tcp.syn_dropped, "time_wait_replaced": tcp.tw_replaced},
                "hw_cookie_acks": tcp.hw_cookie_acks,
                "ack_validator": {"enabled": av.enabled, "free_level": av.free_level,
                          "free_depth": av.free_depth, "new": av.new, "found": av.found,
                          "bad_cookie": av.bad_cookie, "stale": av.stale, "no_slot": av.no_slot,
                          "table_full": av.table_full, "push_refused": av.push_refused,
                          "lost": av.lost, "handed_over": tcp.engine_new,
                          "handover_lost": tcp.engine_lost, "not_ours": tcp.engine_stale},
                "stale_generation": tcp.gen_stale,
                "early_data": {"held": tcp.early_held, "kept": tcp.early_kept},
                "early_results": {"kept": tcp.early_results,
                          "dropped": tcp.early_results_dropped,
                          "inline_timeouts": tcp.inline_timeouts},
                "marks": {"free_low": marks.free_low, "free_depth": marks.free_depth,
                          "punt_high": marks.punt_high, "punt_slots": marks.punt_slots},
                "aging": {"enabled": aging.enabled, "interval": aging.interval,
                          "limit": aging.limit, "pos": aging.pos, "level": aging.level,
                          "depth": aging.depth, "sweeps": aging.sweeps, "expired": aging.expired,
                          "free": aging.free, "freed": aging.freed},
                "tx_gen": {"present": txgen.present, "sent_client": txgen.sent_client,
                          "sent_server": txgen.sent_server, "refused": txgen.refused},
                "fin": {"present": fin.present, "events": fin.events},
                "head_buffers": {"present": hb.present, "in_use": hb.in_use,
                          "in_use_max": hb.in_use_max, "replayed_by_card": hb.sent,
                          "replays_too_long": hb.long, "refused_operations": hb.bad,
                          "heads_replayed_by_card": tcp.head_replays,
                          "heads_replayed_by_firmware": tcp.head_replays_fw},
                "absorber": {"present": absorber.present, "enabled": absorber.enabled,
                          "done": absorber.done, "punted": absorber.punted,
                          "queued": absorber.queued, "spilled": absorber.spilled,
                          "found_by_take_back": tcp.absorbed_found,
                          "taken_back": tcp.absorb_disarmed},
                "setup_latency": setup_latency_json(&setup, clk_hz),
            });
            println!("{}", serde_json::to_string(&v)?);
        } else {
            let mut out = String::new();
            if watch {
                out += "\x1b[H\x1b[2J";
            }
            out += &crate::ipvs::format::list(&snap, &opts)?;
            if watch {
                // The estimator needs samples 2 s apart: rates read 0 in the first rounds.
                out += &crate::ipvs::format::list(
                    &snap,
                    &ListOptions {
                        rate: true,
                        stats: false,
                        ..opts.clone()
                    },
                )?;
            }
            out +=
                "Port    RxFrames    RxBytes  TxFrames    TxBytes  Forwarded   Punted  Dropped  SynAnswered\n";
            for (p, n) in ports.iter().zip(["client", "server"]) {
                out += &format!(
                    "{n:<6} {:>9} {:>10} {:>9} {:>10} {:>10} {:>8} {:>8} {:>12}\n",
                    p.rx_frames,
                    p.rx_bytes,
                    p.tx_frames,
                    p.tx_bytes,
                    p.forwarded,
                    p.punted,
                    p.dropped,
                    p.syn_answered
                );
            }
            out += &format!(
                "Flows: {} in use of {}; {} spliced, {} refused (table full), {} setups failed, {} SYN cookies\n",
                fs.slots_in_use,
                fs.slot_capacity,
                fs.spliced_total,
                fs.refused_table_full,
                fs.setup_failed,
                fs.cookie_syn_acks
            );
            out += &format!(
                "Request heads: {} flagged, {} routed by their canonical form, {} not HTTP, {} refused{}; {} cycles per flagged head\n",
                heads.flagged,
                heads.canonical,
                heads.not_http,
                heads.refused_total(),
                if refusals.is_empty() {
                    String::new()
                } else {
                    format!(
                        " ({})",
                        refusals
                            .iter()
                            .map(|(r, c)| format!("{r} {c}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                },
                heads.cycles_per_head()
            );
            out += &format!(
                "Spliced RSTs: {} pending ({} now), {} restored, {} freed after silence, {} freed by the receiver's RST, {} untracked; {} probes\n",
                tcp.rst_pending,
                tcp.rst_pending_now,
                tcp.rst_restored,
                tcp.rst_freed_silent,
                tcp.rst_freed_receiver,
                tcp.rst_untracked,
                tcp.probes
            );
            out += &format!(
                "Spliced SYNs: {} challenged through the server, {} rate-limited, {} dropped, {} TIME_WAIT replaced; {} handshake ACKs with the hardware cookie\n",
                tcp.syn_challenged,
                tcp.challenge_limited,
                tcp.syn_dropped,
                tcp.tw_replaced,
                tcp.hw_cookie_acks
            );
            out += &format!(
                "ACK validator: {}; {} set up, {} found, {} bad cookies, {} stale, {} without a slot, {} bucket full; free list {} of {}; firmware took {} ({} lost, {} not its own)\n",
                if av.enabled { "on" } else { "off" },
                av.new,
                av.found,
                av.bad_cookie,
                av.stale,
                av.no_slot,
                av.table_full,
                av.free_level,
                av.free_depth,
                tcp.engine_new,
                tcp.engine_lost,
                tcp.engine_stale
            );
            out += &format!(
                "Slot generations: {} punts and events of an earlier use of their slot dropped\n",
                tcp.gen_stale
            );
            out += &marks_line(&marks);
            out += &aging_line(&aging, clk_hz);
            out += &tx_gen_line(&txgen);
            out += &head_bufs_line(&hb, &tcp);
            out += &absorber_line(&absorber, &tcp);
            out += fin_line(&fin);
            out += &setup_latency_text(&setup, clk_hz);
            out += &format!(
                "Early data: {} flowless data segments held before their RST, {} kept (their handshake ACK followed)\n",
                tcp.early_held, tcp.early_kept
            );
            out += &format!(
                "Early results: {} inline L7 results kept before their connection's NEW punt, {} dropped untaken; {} connections matched from the buffer after their inline result did not come\n",
                tcp.early_results, tcp.early_results_dropped, tcp.inline_timeouts
            );
            out += &format_drops(&drops);
            let mut o = std::io::stdout().lock();
            o.write_all(out.as_bytes())?;
            o.flush()?;
        }
        if !watch || STOP.load(Ordering::SeqCst) {
            return Ok(());
        }
        nap(interval);
        if STOP.load(Ordering::SeqCst) {
            return Ok(());
        }
    }
}

/// `trace [--last N] [--json] [--enable|--disable]`: `recording` switches the ring's
/// recording on or off first.
pub fn trace(
    spec: &CardSpec,
    last: Option<usize>,
    as_json: bool,
    recording: Option<bool>,
) -> Result<()> {
    let (t, clk_hz) = {
        let mut card = open_card(spec)?;
        let clk_hz = card.info().clk_hz;
        let mut dp = card.datapath()?;
        if let Some(on) = recording {
            dp.trace_enable(on)?;
        }
        (dp.trace()?, clk_hz)
    };
    let out = if as_json {
        serde_json::to_string_pretty(&trace_json(&t, clk_hz, last))? + "\n"
    } else {
        format_trace(&t, clk_hz, last)
    };
    let mut o = std::io::stdout().lock();
    o.write_all(out.as_bytes())?;
    o.flush()?;
    Ok(())
}

/// The entries `--last N` keeps (all without it), with each one's time in microseconds
/// after the first of them.
fn shown_entries(t: &Trace, clk_hz: u32, last: Option<usize>) -> Vec<(&TraceRecord, f64)> {
    let rel = t.relative_cycles();
    let start = t.entries.len() - last.unwrap_or(usize::MAX).min(t.entries.len());
    let base = rel.get(start).copied().unwrap_or_default();
    t.entries[start..]
        .iter()
        .zip(&rel[start..])
        .map(|(e, &c)| (e, micros((c - base) as f64, clk_hz)))
        .collect()
}

/// What `trace` says about an entry besides its kind, slot and client: the writer of a
/// flow-state entry, then the detail (a setup latency in cycles and microseconds).
pub fn trace_detail_text(e: &TraceRecord, clk_hz: u32) -> String {
    let d = e.detail();
    let detail = match (d, d.setup_cycles()) {
        (TraceDetail::SetupLatency { saturated, .. }, Some(c)) => format!(
            "setup {}{c} cycles ({:.3} us)",
            if saturated { ">= " } else { "" },
            micros(c as f64, clk_hz)
        ),
        _ => d.to_string(),
    };
    match e.writer() {
        Some(w) if detail.is_empty() => format!("by {w}"),
        Some(w) => format!("by {w}; {detail}"),
        None => detail,
    }
}

/// The header line of `trace`.
fn trace_header(t: &Trace, shown: usize) -> String {
    format!(
        "Trace ring: depth {}, {} written since power-up, {} lost, {} overwritten during the read; recording {}{}\n",
        t.depth,
        t.count,
        t.lost,
        t.overwritten_during_read,
        if t.enabled { "on" } else { "off" },
        if shown < t.entries.len() {
            format!("; the last {shown} of {} entries", t.entries.len())
        } else {
            String::new()
        }
    )
}

/// `trace`'s table: the header line, then one line per entry, oldest first, with its time
/// in microseconds after the first entry shown.
pub fn format_trace(t: &Trace, clk_hz: u32, last: Option<usize>) -> String {
    let shown = shown_entries(t, clk_hz, last);
    let mut out = trace_header(t, shown.len());
    if t.entries.is_empty() {
        out += "(no entries)\n";
    }
    if shown.is_empty() {
        return out;
    }
    out += &format!(
        "{:>10} {:>12}  {:<12} {:>9}  {:<21}  {}\n",
        "Seq", "Time (us)", "Kind", "Slot/gen", "Client", "Detail"
    );
    for (e, us) in shown {
        let slot = e
            .slot_gen()
            .map_or_else(|| "-".to_string(), |(s, g)| format!("{s}/{g}"));
        let client = e
            .client()
            .map_or_else(|| "-".to_string(), |c| c.to_string());
        let line = format!(
            "{:>10} {us:>12.3}  {:<12} {slot:>9}  {client:<21}  {}",
            e.seq,
            e.kind.name(),
            trace_detail_text(e, clk_hz)
        );
        out += line.trim_end();
        out.push('\n');
    }
    out
}

/// The decoded detail of an entry for `trace --json` (null when its kind has none).
fn trace_detail_json(e: &TraceRecord, clk_hz: u32) -> serde_json::Value {
    let d = e.detail();
    match d {
        TraceDetail::Empty => serde_json::Value::Null,
        TraceDetail::Verdict { code, verdict } => {
            json!({"verdict": verdict.map(|v| v.name()), "code": code})
        }
        TraceDetail::SetupLatency { saturated, .. } => {
            let c = d.setup_cycles().unwrap_or_default();
            json!({"setup_cycles": c, "setup_us": micros(c as f64, clk_hz), "saturated": saturated})
        }
        TraceDetail::Untimed => json!({"setup_cycles": null}),
        TraceDetail::Fin { from, flags } => json!({
            "from": from.to_string(),
            "tcp_flags": flags,
            "flags": splicenic_driver::datapath::tcp_flag_names(flags),
        }),
        TraceDetail::Pick(p) => json!({
            "unit": p.unit.to_string(),
            "status": p.status_name(),
            "status_code": p.status,
            "pool": p.pool,
            "server": p.picked().then_some(p.server),
        }),
    }
}

/// `trace --json`: the header's counts and `entries`, oldest first, each with its raw
/// fields, its time in microseconds after the first shown, the slot, client and writer
/// where its kind has them (null otherwise), the detail as text and decoded.
pub fn trace_json(t: &Trace, clk_hz: u32, last: Option<usize>) -> serde_json::Value {
    let entries: Vec<_> = shown_entries(t, clk_hz, last)
        .into_iter()
        .map(|(e, us)| {
            json!({
                "seq": e.seq,
                "time": e.time,
                "time_us": us,
                "kind": e.kind.name(),
                "slot": e.slot_gen().map(|(s, _)| s),
                "gen": e.slot_gen().map(|(_, g)| g),
                "client": e.client().map(|c| c.to_string()),
                "writer": e.writer().map(|w| w.to_string()),
                "port": e.port,
                "timed": e.timed,
                "detail": e.detail,
                "text": trace_detail_text(e, clk_hz),
                "decoded": trace_detail_json(e, clk_hz),
            })
        })
        .collect();
    json!({
        "enabled": t.enabled,
        "depth": t.depth,
        "count": t.count,
        "count_after": t.count_after,
        "lost": t.lost,
        "overwritten_during_read": t.overwritten_during_read,
        "clk_hz": clk_hz,
        "entries": entries,
    })
}

/// `capture -w FILE`.
pub fn capture(
    spec: &CardSpec,
    file: &Path,
    count: Option<u64>,
    duration: Option<Duration>,
    snaplen: u32,
) -> Result<()> {
    install_stop_handler();
    let out = std::fs::File::create(file)
        .with_context(|| format!("cannot create capture file {}", file.display()))?;
    let mut w = PcapWriter::with_snaplen(
        std::io::BufWriter::new(out),
        TsResolution::Nano,
        if snaplen == 0 { 65535 } else { snaplen },
    )?;
    let (mut cursor, clk) = {
        let mut card = open_card(spec)?;
        card.flow_manager().capture_set(true, snaplen)?;
        let clk = f64::from(card.info().clk_hz);
        (card.flow_manager().capture_reader()?, clk)
    };
    eprintln!(
        "capturing punted frames of both ports into {} (Ctrl-C stops)",
        file.display()
    );
    let start = Instant::now();
    let mut n = 0u64;
    let result = (|| -> Result<()> {
        loop {
            let frames = {
                let mut card = open_card(spec)?;
                card.flow_manager().capture_read(&mut cursor)?
            };
            for f in frames {
                let ts = Duration::from_secs_f64(f.timestamp_cycles as f64 / clk);
                w.write_frame(ts, &f.data)?;
                n += 1;
                if count.is_some_and(|c| n >= c) {
                    return Ok(());
                }
            }
            if STOP.load(Ordering::SeqCst) || duration.is_some_and(|d| start.elapsed() >= d) {
                return Ok(());
            }
            nap(Duration::from_millis(100));
        }
    })();
    // Switch the capture off whatever happened.
    let off = open_card(spec).and_then(|mut c| Ok(c.flow_manager().capture_set(false, 0)?));
    eprintln!(
        "{n} frame{} written to {}{}",
        if n == 1 { "" } else { "s" },
        file.display(),
        if cursor.lost > 0 {
            format!("; {} lost (the card's ring overran)", cursor.lost)
        } else {
            String::new()
        }
    );
    result?;
    off
}

/// The monitor's hold on the card: opens it (under the lock) for each action.
struct CardControl {
    spec: CardSpec,
    servers: std::collections::HashMap<u8, RealServer>,
}

impl CardControl {
    fn with<T>(
        &self,
        f: impl FnOnce(&mut Card) -> Result<T, DriverError>,
    ) -> Result<T, DriverError> {
        let mut c = open_card(&self.spec).map_err(|e| DriverError::MailboxResponse {
            cmd: "open".into(),
            reason: e.to_string(),
        })?;
        f(&mut c)
    }
}

impl Control for CardControl {
    type Error = DriverError;

    fn add_server(
        &mut self,
        _pool: u8,
        rs: u8,
        _server: &config::Server,
        weight: u32,
    ) -> Result<(), DriverError> {
        let mut s = self.servers[&rs];
        s.weight = weight;
        self.servers.insert(rs, s);
        self.with(|c| c.flow_manager().server_set(&s))
    }

    fn remove_server(&mut self, _pool: u8, rs: u8) -> Result<(), DriverError> {
        self.with(|c| c.flow_manager().server_delete(rs))
    }

    fn set_weight(&mut self, _pool: u8, rs: u8, weight: u32) -> Result<(), DriverError> {
        let mut s = self.servers[&rs];
        s.weight = weight;
        self.servers.insert(rs, s);
        self.with(|c| c.flow_manager().server_set(&s))
    }

    fn active_connections(&mut self, _pool: u8, rs: u8) -> Result<u32, DriverError> {
        self.with(|c| c.flow_manager().server_stats(rs).map(|s| s.active))
    }
}

/// `monitor FILE`: health checks and dynamic weights for the file's pools. With `apply`, the
/// file is loaded first (as `rules load`).
pub fn monitor(
    spec: &CardSpec,
    file: &Path,
    apply_first: bool,
    duration: Option<Duration>,
    mut watch: Option<crate::fwwatch::FirmwareWatch>,
) -> Result<()> {
    install_stop_handler();
    let (cfg, plan) = {
        let mut card = open_card(spec)?;
        let limits = apply::card_limits(&mut card)?;
        let (cfg, plan) = checked(file, &limits, apply_first)?;
        if apply_first {
            apply::apply(&mut card, &cfg, &plan, &mut Progress::new(false))?;
        }
        (cfg, plan)
    };
    let neigh = neighbours();
    let mut servers = std::collections::HashMap::new();
    let mut pools = Vec::new();
    for p in &plan.pools {
        let Some(cp) = cfg.pools.iter().find(|c| c.name == p.name) else {
            continue;
        };
        for s in p.servers.iter().chain(p.sorry.iter()) {
            let mac = resolve_mac(s.addr, s.mac, &neigh, &s.loc.to_string())?;
            servers.insert(s.rs, s.real_server(p.index, mac));
        }
        let rs: Vec<u8> = p.servers.iter().map(|s| s.rs).collect();
        pools.push(
            MonitoredPool::new(p.index, cp.clone(), &rs, p.sorry.as_ref().map(|s| s.rs))
                .map_err(|e| anyhow::anyhow!("{e}"))?,
        );
    }
    let control = CardControl {
        spec: spec.clone(),
        servers,
    };
    let mut m = monitor::Monitor::new(pools, control, monitor::Options::default())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    eprintln!(
        "monitoring {} from {}{} (Ctrl-C stops)",
        summary(&plan),
        file.display(),
        match &watch {
            Some(w) => format!(
                ", firmware watchdog every {:.0} ms",
                w.poll_interval().as_secs_f64() * 1e3
            ),
            None => String::new(),
        }
    );
    let deadline = duration.map(|d| Instant::now() + d);
    loop {
        let now = Instant::now();
        if STOP.load(Ordering::Relaxed) || deadline.is_some_and(|d| now >= d) {
            break;
        }
        // The monitor runs between two watchdog polls; without a watchdog, until the end.
        let until = match &watch {
            Some(w) => {
                Some(deadline.map_or(now + w.poll_interval(), |d| d.min(now + w.poll_interval())))
            }
            None => deadline,
        };
        m.run_until(&STOP, until);
        // Events were printed as they happened; the daemon keeps none.
        m.take_events();
        if let Some(w) = &mut watch {
            if let crate::fwwatch::Poll::Restarted { .. } = w.poll(&cfg, &plan) {
                // The file's configuration is back on the card: put the monitor's view
                // (down servers, dynamic weights, sorry servers) back too.
                m.card_reloaded();
                m.step(Instant::now());
            }
        }
    }
    for s in m.servers() {
        eprintln!(
            "monitor: real server {} (pool {}): {}, weight {}",
            s.addr,
            s.pool,
            if s.up { "UP" } else { "DOWN" },
            s.card_weight
        );
    }
    for p in m.pools().iter().filter(|p| !p.quorum_up) {
        eprintln!("monitor: pool {} has no quorum", p.name);
    }
    if let Some(w) = &watch {
        let (restarts, failed) = w.counts();
        eprintln!("watchdog: {restarts} firmware restarts, {failed} failed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A snapshot with MAC_ERR (STATS 211) 3 and DROP_NOMATCH (229) 5, and the registers
    /// outside STATS each at a different value, as a card's BAR would hold them.
    fn sample() -> Vec<DropRow> {
        let mut c = vec![0u64; 512];
        c[211] = 3;
        c[229] = 5;
        let st = StatsSnapshot::from_counters(c).unwrap();
        let dc = DropCounters {
            punt_drop_full: 60,
            punt_drop_long: 1,
            evq_overflow: 2,
            oversize_c: 3,
            oversize_s: 4,
            upd_drops: u32::MAX,
            inject_bad_commit: Some((Port::Server, 6)),
        };
        let fs = FlowStats {
            punts_ignored: 7,
            ..FlowStats::default()
        };
        let tcp = TcpStats {
            gen_stale: 9,
            early_results_dropped: 10,
            ..TcpStats::default()
        };
        drop_rows(&st, &dc, &fs, &tcp)
    }

    #[test]
    fn drops_rows_cover_every_counter_in_order() {
        let rows = sample();
        // 13 parser reasons, 5 classifier reasons, 8 registers, 3 firmware counters.
        assert_eq!(rows.len(), 29);
        let find = |n: &str| rows.iter().find(|r| r.reason == n).unwrap();
        assert_eq!(find("MAC_ERR").count, Some(3));
        assert_eq!(find("MAC_ERR").counter, "STATS[211]");
        assert_eq!(find("MAC_ERR").bits, 64);
        assert_eq!(find("DROP_NOMATCH").count, Some(5));
        let full = find("PUNT.DROP_FULL");
        assert_eq!(
            (full.count, full.counter.as_str(), full.bits),
            (Some(60), "BAR 0x901c", 32)
        );
        assert_eq!(find("PUNT.DROP_LONG").count, Some(1));
        assert_eq!(find("EVQ.OVERFLOW").count, Some(2));
        assert_eq!(find("EVQ.OVERFLOW").counter, "BAR 0xb028");
        assert_eq!(find("DP.OVERSIZE_C").count, Some(3));
        assert_eq!(find("DP.OVERSIZE_S").count, Some(4));
        // 32-bit registers are shown as read, not widened.
        assert_eq!(find("DP.UPD_DROPS").count, Some(u64::from(u32::MAX)));
        assert_eq!(find("INJECT.BAD_COMMIT[C]").count, None);
        assert_eq!(find("INJECT.BAD_COMMIT[S]").count, Some(6));
        assert_eq!(find("FLOW_STATS.punts_ignored").count, Some(7));
        assert_eq!(find("TCP_STATS.gen_stale").count, Some(9));
        assert_eq!(find("TCP_STATS.early_results_dropped").count, Some(10));
        let mut names: Vec<_> = rows.iter().map(|r| r.reason).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), rows.len(), "reasons are unique");
    }

    #[test]
    fn marks_line_names_both_marks_and_an_unarmed_free_list() {
        use splicenic_driver::datapath::Marks;
        let mut m = Marks {
            free_low: None,
            free_depth: 512,
            punt_high: 7,
            punt_slots: 64,
        };
        assert_eq!(
            marks_line(&m),
            "High-water marks: free list lowest - (restart with --restart-marks) of 512; punt ring (exceptions) most waiting 7 of 64\n"
        );
        m.free_low = Some(300);
        assert!(marks_line(&m).contains("free list lowest 300 of 512;"));
    }

    #[test]
    fn aging_line_gives_the_walk_and_a_card_without_a_scanner() {
        use splicenic_driver::datapath::Aging;
        let mut a = Aging {
            enabled: true,
            interval: 64,
            limit: 16_384,
            pos: 100,
            level: 1,
            depth: 16,
            sweeps: 13,
            expired: 16,
            free: false,
            freed: 0,
        };
        assert_eq!(
            aging_line(&a, 100_000_000),
            "Aging scanner: on, 16384 slots, one read every 64 cycles: a walk 10.49 ms; 13 walks, 16 expired flows found, the firmware frees them; queue 1 of 16\n"
        );
        (a.free, a.freed) = (true, 12);
        assert!(aging_line(&a, 100_000_000)
            .contains("16 expired flows found, 12 freed by the card; queue 1 of 16"));
        a.depth = 0;
        assert!(aging_line(&a, 100_000_000).contains("none on this card"));
    }

    #[test]
    fn fin_line_says_who_follows_the_fins() {
        use splicenic_driver::datapath::FinCtrl;
        let f = |present, events| fin_line(&FinCtrl { present, events });
        assert!(f(true, false).contains("by the card"));
        assert!(f(true, true).contains("event for the firmware"));
        assert!(f(false, true).contains("event for the firmware"));
        assert!(f(false, false).contains("does not follow"));
    }

    #[test]
    fn absorber_line_gives_who_completed_the_server_handshakes() {
        use splicenic_driver::datapath::Absorber;
        let tcp = TcpStats {
            absorbed_found: 2,
            absorb_disarmed: 5,
            ..TcpStats::default()
        };
        let a = Absorber {
            present: true,
            enabled: true,
            done: 90,
            punted: 3,
            queued: 4,
            spilled: 6,
        };
        assert_eq!(
            absorber_line(&a, &tcp),
            "SYN-ACK absorber: 90 server handshakes completed by the card (2 found so by a take-back; 4 waiting for the firmware's bookkeeping, 6 punted with the done queue full), 3 left to the firmware; 5 armed setups taken back\n"
        );
        let off = Absorber {
            enabled: false,
            ..a
        };
        assert_eq!(absorber_line(&off, &tcp), "SYN-ACK absorber: off\n");
        let none = Absorber::default();
        assert!(absorber_line(&none, &tcp).contains("none on this card"));
    }

    #[test]
    fn head_bufs_line_gives_the_buffers_and_who_replayed_the_heads() {
        use splicenic_driver::datapath::HeadBufs;
        let mut h = HeadBufs {
            present: true,
            in_use: 3,
            in_use_max: 9,
            sent: 40,
            long: 0,
            bad: 2,
        };
        let tcp = TcpStats {
            head_replays: 40,
            head_replays_fw: 1,
            ..TcpStats::default()
        };
        assert_eq!(
            head_bufs_line(&h, &tcp),
            "Head buffers: 3 in use (at most 9); heads replayed by the card 40, by the firmware 1; 0 replays too long, 2 operations refused\n"
        );
        h.present = false;
        assert_eq!(
            head_bufs_line(&h, &tcp),
            "Head buffers: none on this card (1 heads replayed by the firmware)\n"
        );
    }

    #[test]
    fn tx_gen_line_gives_the_frames_per_port_and_a_card_without_one() {
        use splicenic_driver::datapath::TxGen;
        let mut g = TxGen {
            present: true,
            busy: false,
            sent_client: 32,
            sent_server: 17,
            refused: 1,
        };
        assert_eq!(
            tx_gen_line(&g),
            "Frame generator: 32 frames to clients, 17 to servers built by the card; 1 requests refused while busy\n"
        );
        g.present = false;
        assert!(tx_gen_line(&g).contains("none on this card"));
    }

    #[test]
    fn drops_text_is_one_aligned_line_per_counter() {
        let text = format_drops(&sample());
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines[0], "Drops");
        assert_eq!(
            lines[1],
            "Reason                                 Count  Counter      Bits"
        );
        assert!(lines.contains(&"MAC_ERR                                    3  STATS[211]     64"));
        assert!(lines.contains(&"PUNT.DROP_FULL                            60  BAR 0x901c     32"));
        assert!(lines.contains(&"INJECT.BAD_COMMIT[C]                       -  BAR 0xa030     32"));
        assert!(lines.contains(&"FLOW_STATS.punts_ignored                   7  FLOW_STATS     32"));
        assert!(lines.contains(&"TCP_STATS.gen_stale                        9  TCP_STATS      32"));
        assert!(lines.contains(&"TCP_STATS.early_results_dropped           10  TCP_STATS      32"));
        // Header, column header, 29 counters, the width note and the `-` note.
        assert_eq!(lines.len(), 33, "{text}");
        assert!(lines[31].starts_with("32-bit counters wrap at 2^32"));
        assert!(lines[32].starts_with("-: not read"));
        // Every counter line has its count ending in the same column.
        for l in &lines[2..31] {
            assert_eq!(l.len(), 63, "{l:?}");
        }
    }

    /// A ring of 8 after 1,000 entries, 2 overwritten during the read, at 100 MHz (10 ns a
    /// cycle): a connection's SYN, ACK, HANDSHAKE, a pick, SPLICED (timed), a FIN.
    fn sample_trace() -> Trace {
        use splicenic_driver::datapath::TraceKind as K;
        let client = std::net::Ipv4Addr::new(10, 0, 0, 2);
        let rec = |seq: u32, time: u32, kind, port, timed, detail| TraceRecord {
            seq,
            time,
            kind,
            port,
            timed,
            gen: 3,
            slot: 17,
            detail,
            ip: client,
            client_port: 40000,
        };
        Trace {
            enabled: true,
            depth: 8,
            count: 1000,
            count_after: 1002,
            lost: 1,
            overwritten_during_read: 2,
            entries: vec![
                // The time wraps between the first two entries.
                rec(994, u32::MAX - 99, K::SynAnswered, false, false, 0),
                rec(995, 900, K::Ack, false, false, 1),
                rec(996, 905, K::Handshake, true, false, 0),
                rec(997, 1_500, K::Pick, false, false, 1 << 8 | 5),
                rec(998, 10_900, K::Spliced, false, true, 625),
                rec(999, 100_900, K::Fin, false, false, 0x11),
            ],
        }
    }

    #[test]
    fn trace_table_is_oldest_first_with_times_from_the_first_shown() {
        let text = format_trace(&sample_trace(), 100_000_000, None);
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Trace ring: depth 8, 1000 written since power-up, 1 lost, 2 overwritten during the read; recording on"
        );
        assert_eq!(
            lines[1],
            "       Seq    Time (us)  Kind          Slot/gen  Client                 Detail"
        );
        assert_eq!(
            lines[2],
            "       994        0.000  SYN_ANSWERED         -  10.0.0.2:40000"
        );
        assert_eq!(
            lines[3],
            "       995       10.000  ACK               17/3  -                      verdict NEW"
        );
        assert_eq!(
            lines[4],
            "       996       10.050  HANDSHAKE         17/3  10.0.0.2:40000         by engine"
        );
        assert_eq!(
            lines[5],
            "       997       16.000  PICK                 -  -                      sched_unit PICK pool 1 server 5"
        );
        // 625 units of 16 cycles: 10,000 cycles, 100 us.
        assert_eq!(
            lines[6],
            "       998      110.000  SPLICED           17/3  10.0.0.2:40000         by firmware; setup 10000 cycles (100.000 us)"
        );
        assert_eq!(
            lines[7],
            "       999     1010.000  FIN               17/3  -                      from client, flags FIN,ACK"
        );
        assert_eq!(lines.len(), 8);

        // --last 2: times from the first of those.
        let text = format_trace(&sample_trace(), 100_000_000, Some(2));
        let lines: Vec<_> = text.lines().collect();
        assert!(
            lines[0].ends_with("recording on; the last 2 of 6 entries"),
            "{}",
            lines[0]
        );
        assert_eq!(lines.len(), 4);
        assert!(lines[2].starts_with("       998        0.000  SPLICED"));
        assert!(lines[3].starts_with("       999      900.000  FIN"));
        // --last 0: the header line only.
        assert_eq!(
            format_trace(&sample_trace(), 100_000_000, Some(0))
                .lines()
                .count(),
            1
        );

        let empty = Trace {
            entries: Vec::new(),
            enabled: false,
            ..sample_trace()
        };
        assert!(format_trace(&empty, 100_000_000, None).ends_with("recording off\n(no entries)\n"));
    }

    #[test]
    fn trace_json_has_raw_and_decoded_fields() {
        let v = trace_json(&sample_trace(), 100_000_000, Some(5));
        assert_eq!(
            (
                v["depth"].clone(),
                v["count"].clone(),
                v["count_after"].clone()
            ),
            (json!(8), json!(1000), json!(1002))
        );
        assert_eq!(v["overwritten_during_read"], 2);
        assert_eq!(v["clk_hz"], 100_000_000);
        let e = v["entries"].as_array().unwrap();
        assert_eq!(e.len(), 5);
        assert_eq!(
            e[0],
            json!({"seq": 995, "time": 900, "time_us": 0.0, "kind": "ACK", "slot": 17, "gen": 3,
                   "client": null, "writer": null, "port": false, "timed": false, "detail": 1,
                   "text": "verdict NEW", "decoded": {"verdict": "NEW", "code": 1}})
        );
        assert_eq!(e[1]["writer"], "engine");
        assert_eq!(e[1]["client"], "10.0.0.2:40000");
        assert!(e[1]["decoded"].is_null());
        assert_eq!(
            e[2]["decoded"],
            json!({"unit": "sched_unit", "status": "PICK", "status_code": 0, "pool": 1, "server": 5})
        );
        assert_eq!(
            e[3]["decoded"],
            json!({"setup_cycles": 10000, "setup_us": 100.0, "saturated": false})
        );
        assert_eq!(
            e[4]["decoded"],
            json!({"from": "client", "tcp_flags": 17, "flags": "FIN,ACK"})
        );
        assert_eq!(e[4]["time_us"], 1000.0);
    }

    #[test]
    fn setup_latency_section_shows_percentiles_and_non_empty_buckets() {
        let mut h = SetupHistogram {
            timed: 100,
            overwritten: 3,
            ..SetupHistogram::default()
        };
        assert_eq!(
            setup_latency_text(&h, 16_000_000),
            "Setup latency (HANDSHAKE to SPLICED): 100 timed, 3 not timed (start overwritten); p50 -, p90 -, p99 -\n"
        );
        // At 16 MHz a unit of 16 cycles is 1 us.
        h.buckets[3] = 50; // [4, 8) us
        h.buckets[5] = 45; // [16, 32) us
        h.buckets[10] = 5; // [512, 1024) us
        let text = setup_latency_text(&h, 16_000_000);
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Setup latency (HANDSHAKE to SPLICED): 100 timed, 3 not timed (start overwritten); p50 <= 8.000 us, p90 <= 32.000 us, p99 <= 1024.000 us"
        );
        assert_eq!(
            lines[1..],
            [
                "  Bucket      From (us)        To (us)     Setups",
                "       3          4.000          8.000         50",
                "       5         16.000         32.000         45",
                "      10        512.000       1024.000          5",
            ]
        );
        let v = setup_latency_json(&h, 16_000_000);
        assert_eq!(
            (
                v["timed"].clone(),
                v["overwritten"].clone(),
                v["total"].clone()
            ),
            (json!(100), json!(3), json!(100))
        );
        assert_eq!(
            (
                v["p50_us"].clone(),
                v["p90_us"].clone(),
                v["p99_us"].clone()
            ),
            (json!(8.0), json!(32.0), json!(1024.0))
        );
        assert_eq!(
            v["buckets"][1],
            json!({"bucket": 5, "from_us": 16.0, "to_us": 32.0, "count": 45})
        );
        assert_eq!(v["buckets"].as_array().unwrap().len(), 3);
        assert!(setup_latency_json(&SetupHistogram::default(), 16_000_000)["p99_us"].is_null());
    }

    /// FLOW_GET words of a closed flow (CLOSING, both FINs) in timeout class `class`.
    fn closed_flow(class: TcpTimeoutState, expires_ms: u32) -> FlowInfo {
        use splicenic_fw_logic::splicer::entry_flags::{FIN_CLIENT, FIN_SERVER};
        let w = [
            5 | u32::from(FIN_CLIENT | FIN_SERVER) << 8 | 1 << 16,
            0x0A00_0002,
            40000 << 16 | 80,
            0x0A00_0064,
            0xC0A8_0114,
            8080 << 16 | 16384,
            0xC0A8_0101,
            expires_ms,
            100,
            3,
            2,
            214,
            0,
            120,
            0,
            class.index() as u32,
        ];
        FlowInfo::from_words(0, &w).unwrap()
    }

    #[test]
    fn lingering_flows_show_their_class() {
        let lingering = closed_flow(TcpTimeoutState::Linger, 1900);
        let waiting = closed_flow(TcpTimeoutState::TimeWait, 119_000);
        let table = render_flows(&[lingering, waiting], false).unwrap();
        let rows: Vec<&str> = table.lines().collect();
        assert!(
            rows[1].starts_with("0     LINGER       00:01 10.0.0.2:40000"),
            "{table}"
        );
        assert!(rows[2].starts_with("0     TIME_WAIT    01:59 "), "{table}");
        let v: serde_json::Value =
            serde_json::from_str(&render_flows(&[lingering, waiting], true).unwrap()).unwrap();
        assert_eq!(
            (&v[0]["state"], &v[0]["timeout_class"]),
            (&json!("TIME_WAIT"), &json!("LINGER"))
        );
        assert_eq!(v[1]["timeout_class"], "TIME_WAIT");
    }

    #[test]
    fn drops_json_names_counter_width_and_wrap() {
        let v = drops_json(&sample());
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 29);
        let full = a.iter().find(|d| d["reason"] == "PUNT.DROP_FULL").unwrap();
        assert_eq!(
            *full,
            json!({"reason": "PUNT.DROP_FULL", "count": 60, "counter": "BAR 0x901c",
                   "bits": 32, "wraps": true})
        );
        let mac = a.iter().find(|d| d["reason"] == "MAC_ERR").unwrap();
        assert_eq!(mac["count"], 3);
        assert_eq!(mac["wraps"], false);
        let c = a
            .iter()
            .find(|d| d["reason"] == "INJECT.BAD_COMMIT[C]")
            .unwrap();
        assert!(c["count"].is_null());
    }
}
