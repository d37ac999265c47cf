//! Soft-core cycles per spliced connection, measured on the simulated card with the real
//! firmware: connection setup (every punted frame and event of a connection until it is
//! spliced) and teardown (FIN/RST events and the aging scan's free), as the firmware counts
//! them in FLOW_STATS with the SoC timer. Prints the projected new connections per second at
//! the card clock, for each soft core built (`--features vexriscv` adds VexRiscv).
//!
//! Phases per core, each followed by the aging of its flows (timeouts 5 ms):
//! - `seq`: `connections` GETs one at a time (default 8);
//! - `burst8`: 8 GETs opened at once;
//! - `load<N>`: N GETs (default 64) driven closed-loop: `window` connections (default 8) in
//!   setup at any time, a new SYN as soon as one of them is answered, so the soft core always
//!   has work queued. Measured: the card cycles from the first SYN to the last connection
//!   spliced (the card sends the buffered request to the server), the firmware's handler
//!   cycles in that span (busy fraction), main-loop passes (`CTRL.HEARTBEAT`) and the data
//!   path's punt / inject / forward counts (STATS), from which the hardware share is
//!   estimated;
//! - `synburst<N>`: N SYNs back to back (an open-loop burst): how many the card answers and
//!   how many punted frames the 16-slot punt ring drops. The dropped clients would retry
//!   after their TCP RTO (700 ms for smoltcp), far beyond what the simulation runs, so this
//!   phase only counts.
//!
//! Environment: `SPLICENIC_FMAX_MHZ` (default 156.25) is the clock at which cycle counts are
//! projected to connections per second; `SPLICENIC_BENCH_DIR` set: the figures are also
//! written to `$SPLICENIC_BENCH_DIR/splice.json`.
//!
//! Run with `cargo xtask bench`, or
//! `cargo run --release -p splicenic-hil --features vexriscv --bin splice-bench
//! [connections] [load] [window]`.

use anyhow::{bail, ensure, Context, Result};
use serde_json::{json, Value};
use smoltcp::socket::tcp;
use splicenic_driver::datapath::{Port, SetupHistogram};
use splicenic_driver::{regs, FlowStats, TcpTimeoutState};
use splicenic_hil::net::{Direction, FetchId, Net, Segment};
use splicenic_hil::splice_rig::{rig_with, syn_responder_off, Opts, Rig, BUDGET, SERVICE};
use splicenic_sim::{Cpu, SimCard};
use std::time::Instant;

/// Connections opened at once in the concurrent round.
const CONCURRENT: usize = 8;
/// Default connections of the load phase.
const LOAD_DEFAULT: usize = 64;
/// Default connections in setup at once during the load phase: the punt ring has 16 slots
/// and a connection in setup can have two punted frames queued (the client's ACK and its
/// request), so 8 never overflow it (the `burst8` phase is the same case).
const WINDOW_DEFAULT: usize = 8;
/// Bound on the load phase (a run stays a few minutes on PicoRV32).
const LOAD_MAX: usize = 256;
/// The request of every connection.
const PATH: &str = "/data/100";
const COMMAND: &str = "cargo run --release -p splicenic-hil --features vexriscv --bin splice-bench";

/// Per-operation data-path latencies for the hardware estimate (docs/measurements.md,
/// card top at DATA_WIDTH 64 = 8 bytes per beat).
const BEAT_BYTES: f64 = 8.0;
/// Header arbiter, classifier, flow lookup, state read, decision: "about 15 cycles".
const DECISION_CYCLES: f64 = 15.0;
/// One flow-table command (insert / delete / lookup).
const FLOW_CMD_CYCLES: f64 = 5.0;
/// Flow-table commands per connection: client and server key inserted during setup,
/// both deleted by the aging free (docs/flowmgr.md).
const FLOW_CMDS_PER_CONN: f64 = 4.0;
/// The inline L7 match of the request segment (64 rules).
const L7_CYCLES: f64 = 20.0;

/// Data-path counters of both ports (STATS), summed.
#[derive(Clone, Copy, Default)]
struct Dp {
    rx_frames: u64,
    rx_bytes: u64,
    tx_frames: u64,
    tx_bytes: u64,
    forwarded: u64,
    punted: u64,
    /// SYNs the SYN responder answered (its SYN-ACKs are TX frames nobody injected).
    syn_answered: u64,
    drop_full: u32,
}

impl Dp {
    fn read(rig: &mut Rig) -> Result<Dp> {
        let s = rig.card.datapath()?.stats()?;
        let mut d = Dp::default();
        for p in [Port::Client, Port::Server] {
            let c = s.port(p);
            d.rx_frames += c.rx_frames;
            d.rx_bytes += c.rx_bytes;
            d.tx_frames += c.tx_frames;
            d.tx_bytes += c.tx_bytes;
            d.forwarded += c.forwarded;
            d.punted += c.punted;
            d.syn_answered += c.syn_answered;
        }
        d.drop_full = drop_full(rig)?;
        Ok(d)
    }

    fn since(self, before: Dp) -> Dp {
        Dp {
            rx_frames: self.rx_frames - before.rx_frames,
            rx_bytes: self.rx_bytes - before.rx_bytes,
            tx_frames: self.tx_frames - before.tx_frames,
            tx_bytes: self.tx_bytes - before.tx_bytes,
            forwarded: self.forwarded - before.forwarded,
            punted: self.punted - before.punted,
            syn_answered: self.syn_answered - before.syn_answered,
            drop_full: self.drop_full.wrapping_sub(before.drop_full),
        }
    }

    /// Frames the firmware sent through the inject rings (every frame leaving a port that
    /// the fast path did not forward and the SYN responder did not send).
    fn injected(&self) -> u64 {
        self.tx_frames
            .saturating_sub(self.forwarded)
            .saturating_sub(self.syn_answered)
    }
}

/// `PUNT.DROP_FULL`: punted frames dropped because the ring was full.
fn drop_full(rig: &mut Rig) -> Result<u32> {
    Ok(rig.card.bar_mut().read32(regs::punt::DROP_FULL)?)
}

/// `CTRL.HEARTBEAT`: the firmware's main-loop passes.
fn heartbeat(rig: &mut Rig) -> Result<u32> {
    Ok(rig.card.bar_mut().read32(regs::ctrl::HEARTBEAT)?)
}

/// One measured phase.
struct Phase {
    key: String,
    what: String,
    conns: u32,
    /// FLOW_STATS sums over the phase (its aging included).
    setup_cycles: u64,
    teardown_cycles: u64,
    aged: u32,
    /// Card cycles from the first SYN to the last request the card sent to a server.
    window: u64,
    /// Card cycles from just before the first SYN to the last response (the busy span),
    /// the firmware's handler cycles and main-loop passes in it.
    span: u64,
    span_handler: u64,
    span_passes: u64,
    dp: Dp,
    /// The card's setup-latency histogram over the phase (HANDSHAKE write to SPLICED,
    /// `engine_obs`).
    setup: SetupHistogram,
    /// Server SYN-ACKs the card absorbed (`DP.ABSORB_DONE` delta; docs/server-open.md).
    absorbed: u32,
}

impl Phase {
    fn fw_setup(&self) -> f64 {
        self.setup_cycles as f64 / f64::from(self.conns)
    }

    fn fw_teardown(&self) -> f64 {
        self.teardown_cycles as f64 / f64::from(self.aged.max(1))
    }

    fn card_per_conn(&self) -> f64 {
        self.window as f64 / f64::from(self.conns)
    }

    fn busy(&self) -> f64 {
        self.span_handler as f64 / self.span as f64
    }

    fn per_conn(&self, v: u64) -> f64 {
        v as f64 / f64::from(self.conns)
    }

    /// Data-path cycles per connection, estimated: punted frames (decision + beats into the
    /// ring), injected frames (beats out of the ring), flow-table commands, the L7 match.
    fn hw_per_conn(&self) -> f64 {
        let rx_beats =
            (self.dp.rx_bytes as f64 / self.dp.rx_frames.max(1) as f64 / BEAT_BYTES).ceil();
        let tx_beats =
            (self.dp.tx_bytes as f64 / self.dp.tx_frames.max(1) as f64 / BEAT_BYTES).ceil();
        self.per_conn(self.dp.punted) * (DECISION_CYCLES + rx_beats)
            + self.per_conn(self.dp.injected()) * tx_beats
            + FLOW_CMDS_PER_CONN * FLOW_CMD_CYCLES
            + L7_CYCLES
    }
}

/// What the SYN burst probe saw.
struct Burst {
    n: usize,
    answered: usize,
    /// SYN-ACKs the card's SYN responder sent (STATS port SYN_ANSWERED).
    hw_syn_acks: u64,
    syn_acks: u32,
    cookie_syn_acks: u32,
    drops: u32,
}

struct Figures {
    cpu: Cpu,
    seq: Phase,
    burst: Phase,
    load: Option<Phase>,
    /// The load phase with the SYN responder off (the firmware answers every SYN).
    load_fw: Option<Phase>,
    /// The load with the SYN responder on and the ACK validator off (the firmware checks
    /// the cookie, allocates and inserts).
    load_nv: Option<Phase>,
    synburst: Option<Burst>,
    /// Card cycles per idle main-loop pass (no traffic).
    idle_pass: f64,
    /// Flow slots and the CLOSING timeout of the card's default table.
    slot_defaults: SlotDefaults,
    /// Wall time and card cycles of the seq and burst phases (the original figures) and of
    /// the whole run.
    wall: f64,
    cycles: u64,
    total_wall: f64,
    total_cycles: u64,
    /// FLOW_PROFILE over an extra one-at-a-time phase with step timing on, and its
    /// connection count.
    profile: Option<(splicenic_driver::FlowProfile, u32)>,
}

impl Figures {
    /// The existing figure: seq + burst8 together.
    fn connections(&self) -> u32 {
        self.seq.conns + self.burst.conns
    }

    fn setup(&self) -> f64 {
        (self.seq.setup_cycles + self.burst.setup_cycles) as f64 / f64::from(self.connections())
    }

    fn teardown(&self) -> f64 {
        (self.seq.teardown_cycles + self.burst.teardown_cycles) as f64
            / f64::from((self.seq.aged + self.burst.aged).max(1))
    }
}

/// TCP flags and payload length of an IPv4/TCP Ethernet frame.
fn tcp_info(f: &[u8]) -> Option<(u8, usize)> {
    if f.len() < 54 || f[12..14] != [0x08, 0x00] || f[23] != 6 {
        return None;
    }
    let ihl = usize::from(f[14] & 0x0f) * 4;
    let total = usize::from(u16::from_be_bytes([f[16], f[17]]));
    let t = 14 + ihl;
    if f.len() < t + 20 {
        return None;
    }
    let doff = usize::from(f[t + 12] >> 4) * 4;
    Some((f[t + 13], total.saturating_sub(ihl + doff)))
}

/// Card cycles of the first client SYN and of the last request the card sent to a server
/// (the moment a connection is spliced) among the frames captured from `from` on.
fn syn_to_splice(net: &Net, from: usize) -> Result<(u64, u64)> {
    let mut first_syn = None;
    let mut last_splice = None;
    for c in &net.captured()[from..] {
        let Some((flags, payload)) = tcp_info(&c.bytes) else {
            continue;
        };
        match (c.segment, c.direction) {
            (Segment::Client, Direction::ToCard) if flags & 0x12 == 0x02 => {
                first_syn.get_or_insert(c.cycle);
            }
            (Segment::Server, Direction::FromCard) if payload > 0 => last_splice = Some(c.cycle),
            _ => {}
        }
    }
    match (first_syn, last_splice) {
        (Some(a), Some(b)) if b > a => Ok((a, b)),
        _ => bail!("no SYN / spliced request in the capture ({first_syn:?}, {last_splice:?})"),
    }
}

/// Closed loop: keep `window` connections waiting for their first response byte, opening a
/// new one whenever one is answered, until `n` have been opened and all have answered.
fn drive_load(rig: &mut Rig, n: usize, window: usize) -> Result<Vec<FetchId>> {
    let budget = BUDGET + n as u64 * 2_000_000;
    let start = rig.net.cycles();
    let mut ids: Vec<FetchId> = Vec::with_capacity(n);
    loop {
        let net = &rig.net;
        let waiting = ids
            .iter()
            .filter(|&&id| net.fetch(id).bytes_received() == 0 && !net.fetch(id).is_closed())
            .count();
        let open = window.saturating_sub(waiting).min(n - ids.len());
        for _ in 0..open {
            ids.push(rig.net.get(rig.client, SERVICE, PATH)?);
        }
        let net = &rig.net;
        if ids.len() == n
            && ids
                .iter()
                .all(|&id| !net.fetch(id).responses().is_empty() || net.fetch(id).is_closed())
        {
            return Ok(ids);
        }
        if rig.net.cycles() - start >= budget {
            let drops = drop_full(rig).unwrap_or(0);
            bail!(
                "load phase: {} of {n} connections opened, not all answered after {budget} card cycles \
                 (PUNT.DROP_FULL {drops}: a dropped frame waits for the client's RTO)\n{}",
                ids.len(),
                rig.net.summary()
            );
        }
        rig.net.step()?;
    }
}

/// Runs one phase: `drive` opens the connections and returns them once every one has its
/// response; then waits until all their flows aged out.
fn phase(
    rig: &mut Rig,
    key: String,
    what: String,
    n: usize,
    drive: impl FnOnce(&mut Rig) -> Result<Vec<FetchId>>,
) -> Result<Phase> {
    let s0 = rig.card.flow_manager().flow_stats()?;
    let h0 = rig.card.datapath()?.setup_histogram()?;
    let a0 = rig.card.datapath()?.absorber()?.done;
    let dp0 = Dp::read(rig)?;
    let cap0 = rig.net.captured().len();
    let hb0 = heartbeat(rig)?;
    let t0 = rig.net.cycles();
    let ids = drive(rig)?;
    let t1 = rig.net.cycles();
    let hb1 = heartbeat(rig)?;
    let s1 = rig.card.flow_manager().flow_stats()?;
    ensure!(ids.len() == n, "{key}: {} connections", ids.len());
    for (i, &id) in ids.iter().enumerate() {
        let f = rig.net.fetch(id);
        let status = f.response().map(|r| r.status);
        ensure!(
            status == Some(200),
            "{key} connection {i}: status {status:?}, error {:?}",
            f.error()
        );
    }
    let (first_syn, last_splice) = syn_to_splice(&rig.net, cap0).context(key.clone())?;
    // Let every flow age out so teardown is counted too.
    let mut s2 = s1;
    for _ in 0..200 {
        if s2.aged_out - s0.aged_out >= n as u32 {
            break;
        }
        rig.net.run_for(250_000)?;
        s2 = rig.card.flow_manager().flow_stats()?;
    }
    let dp = Dp::read(rig)?.since(dp0);
    let absorbed = rig.card.datapath()?.absorber()?.done.wrapping_sub(a0);
    let h2 = rig.card.datapath()?.setup_histogram()?;
    let mut setup = h2;
    for (b, h) in setup.buckets.iter_mut().zip(h0.buckets) {
        *b = b.wrapping_sub(h);
    }
    setup.timed = h2.timed.wrapping_sub(h0.timed);
    setup.overwritten = h2.overwritten.wrapping_sub(h0.overwritten);
    let conns = s2.spliced_total - s0.spliced_total;
    let aged = s2.aged_out - s0.aged_out;
    ensure!(conns == n as u32, "{key}: {conns} of {n} spliced: {s2:?}");
    ensure!(aged == n as u32, "{key}: not every flow aged out: {s2:?}");
    ensure!(
        s2.setup_failed == s0.setup_failed,
        "{key}: setups failed: {s2:?}"
    );
    ensure!(
        h2.timed.wrapping_sub(h0.timed) == conns && h2.overwritten == h0.overwritten,
        "{key}: the card timed {} setups of {conns} ({} overwritten)",
        h2.timed.wrapping_sub(h0.timed),
        h2.overwritten.wrapping_sub(h0.overwritten)
    );
    let handler = |s: &FlowStats| s.setup_cycles + s.teardown_cycles;
    // Progress: a phase of a slow core takes minutes of wall time.
    eprintln!(
        "splice-bench: phase {key} done: {conns} connections, {} card cycles",
        rig.net.cycles() - t0
    );
    Ok(Phase {
        key,
        what,
        conns,
        setup_cycles: s2.setup_cycles - s0.setup_cycles,
        teardown_cycles: s2.teardown_cycles - s0.teardown_cycles,
        aged,
        window: last_splice - first_syn,
        span: t1 - t0,
        span_handler: handler(&s1) - handler(&s0),
        span_passes: u64::from(hb1.wrapping_sub(hb0)),
        dp,
        setup,
        absorbed,
    })
}

/// N SYNs back to back (with their requests queued): counts what the card answers before
/// any client could retransmit.
fn syn_burst(rig: &mut Rig, n: usize) -> Result<Burst> {
    let s0 = rig.card.flow_manager().flow_stats()?;
    let d0 = drop_full(rig)?;
    let h0 = Dp::read(rig)?.syn_answered;
    let ids: Vec<FetchId> = (0..n)
        .map(|_| rig.net.get(rig.client, SERVICE, PATH))
        .collect::<Result<_>>()?;
    let answered = |net: &Net| {
        ids.iter()
            .filter(|&&id| net.fetch(id).state() != tcp::State::SynSent)
            .count()
    };
    // Until no further SYN is answered for 1M cycles (6.4 ms; smoltcp's first RTO is 700 ms).
    let mut last = 0;
    for _ in 0..8 {
        rig.net.run_for(1_000_000)?;
        let a = answered(&rig.net);
        if a == last && a > 0 {
            break;
        }
        last = a;
    }
    let s1 = rig.card.flow_manager().flow_stats()?;
    let d1 = drop_full(rig)?;
    let h1 = Dp::read(rig)?.syn_answered;
    Ok(Burst {
        n,
        answered: answered(&rig.net),
        hw_syn_acks: h1 - h0,
        syn_acks: s1.syn_acks_sent - s0.syn_acks_sent,
        cookie_syn_acks: s1.cookie_syn_acks - s0.cookie_syn_acks,
        drops: d1.wrapping_sub(d0),
    })
}

fn measure(cpu: Cpu, sequential: usize, load: usize, window: usize) -> Result<Figures> {
    let started = Instant::now();
    let mut rig = rig_with(Opts {
        cpu,
        ..Opts::default()
    })
    .with_context(|| format!("{cpu} rig"))?;
    let slot_defaults = SlotDefaults::read(&mut rig)?;
    for st in [
        TcpTimeoutState::Established,
        TcpTimeoutState::FinWait,
        TcpTimeoutState::TimeWait,
        TcpTimeoutState::Close,
        TcpTimeoutState::Linger,
    ] {
        rig.card.flow_manager().timeout_set_ms(st, 5)?;
    }
    let c0 = rig.net.cycles();
    // Main-loop pass cost with no traffic.
    let (hb, t) = (heartbeat(&mut rig)?, rig.net.cycles());
    rig.net.run_for(200_000)?;
    let passes = heartbeat(&mut rig)?.wrapping_sub(hb).max(1);
    let idle_pass = (rig.net.cycles() - t) as f64 / f64::from(passes);
    // One at a time.
    let seq = phase(
        &mut rig,
        "seq".into(),
        "one at a time".into(),
        sequential,
        |rig| {
            (0..sequential)
                .map(|_| {
                    let id = rig.net.get(rig.client, SERVICE, PATH)?;
                    rig.net.wait_responses(id, 1, BUDGET)?;
                    Ok(id)
                })
                .collect()
        },
    )?;
    // Several at once: the firmware interleaves their setups.
    let burst = phase(
        &mut rig,
        format!("burst{CONCURRENT}"),
        format!("{CONCURRENT} opened at once"),
        CONCURRENT,
        |rig| {
            let ids: Vec<FetchId> = (0..CONCURRENT)
                .map(|_| rig.net.get(rig.client, SERVICE, PATH))
                .collect::<Result<_>>()?;
            for &id in &ids {
                rig.net.wait_responses(id, 1, BUDGET)?;
            }
            Ok(ids)
        },
    )?;
    let (wall, cycles) = (started.elapsed().as_secs_f64(), rig.net.cycles() - c0);
    // Where the cycles go: the same one-at-a-time connections again with the firmware's
    // step timing on (it costs about 200 cycles per timed step, so the phases above run
    // without it).
    rig.card.flow_manager().flow_profile_steps(true)?;
    let p0 = rig.card.flow_manager().flow_profile()?;
    let prof = phase(
        &mut rig,
        "profile".into(),
        "one at a time, steps timed".into(),
        sequential,
        |rig| {
            (0..sequential)
                .map(|_| {
                    let id = rig.net.get(rig.client, SERVICE, PATH)?;
                    rig.net.wait_responses(id, 1, BUDGET)?;
                    Ok(id)
                })
                .collect()
        },
    )?;
    let profile = Some((
        rig.card.flow_manager().flow_profile()?.since(&p0),
        prof.conns,
    ));
    rig.card.flow_manager().flow_profile_steps(false)?;
    let mut load_phase = None;
    let mut load_fw = None;
    let mut load_nv = None;
    let mut synburst = None;
    if load > 0 {
        load_phase = Some(phase(
            &mut rig,
            format!("load{load}"),
            format!("closed loop, {window} in setup at a time"),
            load,
            |rig| drive_load(rig, load, window),
        )?);
        // The same load with the ACK validator off (DP.ACK_CTRL, which the firmware writes
        // only at bring-up): the card answers the SYNs, the firmware takes the ACKs.
        let ack_ctrl = rig.card.bar_mut().read32(regs::dp::ACK_CTRL)?;
        ensure!(
            ack_ctrl & 1 != 0,
            "the firmware did not enable the ACK validator (DP.ACK_CTRL {ack_ctrl:#x})"
        );
        rig.card.bar_mut().write32(regs::dp::ACK_CTRL, 0)?;
        load_nv = Some(phase(
            &mut rig,
            format!("load{load}nv"),
            format!(
                "closed loop, {window} in setup at a time, handshake ACKs checked by the firmware"
            ),
            load,
            |rig| drive_load(rig, load, window),
        )?);
        rig.card.bar_mut().write32(regs::dp::ACK_CTRL, ack_ctrl)?;
        // The same load with every SYN answered by the firmware: the host clears
        // DP.SYN_CTRL.VIP_MASK for the phase (the firmware writes SYN_CTRL again only on a
        // service change or a key rotation, neither of which happens in it) and restores it.
        let ctrl = syn_responder_off(&mut rig.card)?;
        load_fw = Some(phase(
            &mut rig,
            format!("load{load}fw"),
            format!("closed loop, {window} in setup at a time, SYNs answered by the firmware"),
            load,
            |rig| drive_load(rig, load, window),
        )?);
        rig.card.bar_mut().write32(regs::dp::SYN_CTRL, ctrl)?;
        synburst = Some(syn_burst(&mut rig, load)?);
    }
    Ok(Figures {
        cpu,
        slot_defaults,
        seq,
        burst,
        load: load_phase,
        load_fw,
        load_nv,
        synburst,
        idle_pass,
        wall,
        cycles,
        total_wall: started.elapsed().as_secs_f64(),
        total_cycles: rig.net.cycles() - c0,
        profile,
    })
}

fn cpu_key(cpu: Cpu) -> &'static str {
    match cpu {
        Cpu::PicoRv32 => "picorv32",
        Cpu::VexRiscv => "vexriscv",
    }
}

/// The card's flow-slot capacity and the timeout a cleanly closed connection's slot is held
/// for (LINGER: both FINs acknowledged, docs/engine.md "Teardown") as the firmware holds
/// them at bring-up (the default table), read before the bench shortens the timeouts.
struct SlotDefaults {
    slots: u32,
    closing: &'static str,
    closing_s: f64,
}

impl SlotDefaults {
    fn read(rig: &mut Rig) -> Result<SlotDefaults> {
        use splicenic_fw_logic::flowmgr::timeouts::TcpState;
        let class = TcpState::Linger;
        let mut fm = rig.card.flow_manager();
        let slots = fm.flow_stats()?.slot_capacity;
        let closing_s = fm
            .timeouts()?
            .into_iter()
            .find(|(st, _)| st.name() == class.name())
            .with_context(|| format!("no {} timeout in the card's table", class.name()))?
            .1
            .as_secs_f64();
        Ok(SlotDefaults {
            slots,
            closing: class.name(),
            closing_s,
        })
    }
}

/// Slot lifetime and the sustained connection rate (Little's law: slots in use = rate x
/// lifetime) with the firmware's default timeout table: a connection holds its flow slot
/// for its own duration (measured: the one-at-a-time phase's card cycles per connection,
/// first SYN to last response) and then, once the data path has seen both FINs
/// acknowledged, until the aging scan frees it at the LINGER timeout.
fn slot_lifetime(f: &Figures, clk: f64, at: &str, figs: &mut Vec<Value>) {
    let d = &f.slot_defaults;
    let duration = f.seq.span as f64 / f64::from(f.seq.conns) / clk;
    let lifetime = duration + d.closing_s;
    let sustained = f64::from(d.slots) / lifetime;
    let card_rate = f
        .load
        .as_ref()
        .map_or(clk / f.seq.card_per_conn(), |p| clk / p.card_per_conn());
    println!(
        "slot lifetime  default timeouts: a connection holds its slot {duration:.6} s (measured, one at a time) + {:.0} s after both FINs are acknowledged ({} timeout, the card's default table) = {lifetime:.3} s; {} slots sustain {sustained:.1} new connections/s; at the card's {card_rate:.0} connections/s (load phase, {at}) {:.0} slots would be in use",
        d.closing_s,
        d.closing,
        d.slots,
        card_rate * lifetime,
    );
    let how = format!(
        "Little's law with the card's default timeout table (a closed connection held for the {} timeout, {:.0} s) and its {} flow slots (FLOW_STATS slot_capacity), both read at bring-up; duration = the {} one-at-a-time phase's card cycles per connection, first SYN to last response",
        d.closing, d.closing_s, d.slots, f.cpu
    );
    figs.push(figure(
        "slots.lifetime_s".into(),
        "slot lifetime per connection with the default timeouts (duration + LINGER)".into(),
        lifetime,
        "s",
        "projected",
        how.clone(),
    ));
    figs.push(figure(
        "slots.sustained_conn_per_s".into(),
        format!(
            "new connections/s the {} flow slots sustain with the default timeouts",
            d.slots
        ),
        sustained,
        "connections/s",
        "projected",
        how.clone(),
    ));
    figs.push(figure(
        "slots.in_use_at_card_rate".into(),
        "slots in use at the card's projected connection rate (rate x lifetime)".into(),
        card_rate * lifetime,
        "slots",
        "projected",
        format!(
            "{how}; rate = the load phase's card cycles per connection at the projection clock"
        ),
    ));
}

fn figure(key: String, label: String, value: f64, unit: &str, kind: &str, how: String) -> Value {
    json!({"key": key, "label": label, "value": value, "unit": unit, "kind": kind, "how": how})
}

fn arg(n: usize, name: &str, default: usize) -> Result<usize> {
    match std::env::args().nth(n) {
        Some(a) => a.parse().with_context(|| format!("{name}: a number")),
        None => Ok(default),
    }
}

fn main() -> Result<()> {
    let sequential = arg(1, "connections", 8)?;
    let load = arg(2, "load", LOAD_DEFAULT)?;
    let window = arg(3, "window", WINDOW_DEFAULT)?;
    ensure!(sequential > 0, "connections: at least 1");
    ensure!(load <= LOAD_MAX, "load: at most {LOAD_MAX} connections");
    ensure!(window > 0, "window: at least 1");
    let fmax_mhz: f64 = match std::env::var("SPLICENIC_FMAX_MHZ") {
        Ok(v) => v
            .trim()
            .parse()
            .context("SPLICENIC_FMAX_MHZ: MHz, e.g. 156.25")?,
        Err(_) => SimCard::clk_hz() as f64 / 1e6,
    };
    ensure!(fmax_mhz > 0.0, "SPLICENIC_FMAX_MHZ must be positive");
    let clk = fmax_mhz * 1e6;
    let at = format!("projected from cycle counts at {fmax_mhz:.2} MHz");
    println!(
        "flow manager   projections at fmax {fmax_mhz:.2} MHz (SPLICENIC_FMAX_MHZ; the simulated card runs at {:.2} MHz)",
        SimCard::clk_hz() as f64 / 1e6
    );
    let mut cpus = vec![Cpu::PicoRv32];
    if cfg!(feature = "vexriscv") {
        cpus.push(Cpu::VexRiscv);
    }
    let mut rows = Vec::new();
    let mut figs = Vec::new();
    for cpu in cpus {
        let f = measure(cpu, sequential, load, window)?;
        let ck = cpu_key(cpu);
        println!(
            "flow manager   {:<8} {:>3} connections ({sequential} one at a time, {CONCURRENT} at once): setup {:>8.0} cycles/connection, teardown {:>6.0} cycles/connection -> {:>6.0} new connections/s at {:.2} MHz (projected from cycle counts; {} simulated cycles in {:.1} s wall)",
            f.cpu.to_string(),
            f.connections(),
            f.setup(),
            f.teardown(),
            clk / (f.setup() + f.teardown()),
            fmax_mhz,
            f.cycles,
            f.wall
        );
        let how_fw = "FLOW_STATS setup/teardown cycle sums (the firmware times its handlers with the SoC timer) / connections";
        figs.push(figure(
            format!("setup.{ck}.fw_setup_cycles"),
            format!("{cpu} firmware setup cycles per connection ({sequential} one at a time + {CONCURRENT} at once)"),
            f.setup(),
            "cycles/connection",
            "exact",
            how_fw.into(),
        ));
        figs.push(figure(
            format!("setup.{ck}.fw_teardown_cycles"),
            format!("{cpu} firmware teardown cycles per connection ({sequential} one at a time + {CONCURRENT} at once)"),
            f.teardown(),
            "cycles/connection",
            "exact",
            how_fw.into(),
        ));
        figs.push(figure(
            format!("setup.{ck}.fw_cycles_per_conn"),
            format!("{cpu} firmware cycles per connection, setup + teardown ({sequential} one at a time + {CONCURRENT} at once)"),
            f.setup() + f.teardown(),
            "cycles/connection",
            "exact",
            how_fw.into(),
        ));
        figs.push(figure(
            format!("setup.{ck}.conn_per_s"),
            format!("{cpu} new connections/s, firmware-bound (clock / (setup + teardown cycles))"),
            clk / (f.setup() + f.teardown()),
            "connections/s",
            "projected",
            at.clone(),
        ));
        figs.push(figure(
            format!("setup.{ck}.wall_s"),
            format!(
                "{cpu} bench wall time (all phases, simulated card, {} card cycles)",
                f.total_cycles
            ),
            f.total_wall,
            "s",
            "measured",
            "wall clock of the simulation on the bench machine".into(),
        ));
        let phases: Vec<&Phase> = [
            Some(&f.seq),
            Some(&f.burst),
            f.load.as_ref(),
            f.load_nv.as_ref(),
            f.load_fw.as_ref(),
        ]
        .into_iter()
        .flatten()
        .collect();
        for p in phases {
            let pk = format!("setup.{ck}.{}", p.key);
            let fw = p.fw_setup() + p.fw_teardown();
            let outside = p.span.saturating_sub(p.span_handler) as f64 / f64::from(p.conns);
            let loop_est = (p.span_passes as f64 * f.idle_pass)
                .min(p.span as f64 - p.span_handler as f64)
                / f64::from(p.conns);
            println!(
                "flow manager   {:<8} {:<8} {:>3} connections ({}): fw setup {:>7.0} + teardown {:>6.0} cycles/connection; card {:>7.0} cycles/connection first SYN -> last spliced; soft core in handlers {:>5.1}% -> {:>6.0} new connections/s at {fmax_mhz:.2} MHz (firmware alone: {:>6.0})",
                f.cpu.to_string(),
                p.key,
                p.conns,
                p.what,
                p.fw_setup(),
                p.fw_teardown(),
                p.card_per_conn(),
                100.0 * p.busy(),
                clk / p.card_per_conn(),
                clk / fw,
            );
            println!(
                "flow manager   {:<8} {:<8} per connection: in firmware handlers {:>7.0} cycles, outside handlers {:>6.0} ({:.2} main-loop passes x {:.0} cycles/idle pass = ~{:.0} polling, ~{:.0} untimed firmware work; est.); data path ~{:.0} cycles est. ({:.2} punted, {:.2} injected, {:.2} forwarded frames; {} punt-ring drops)",
                f.cpu.to_string(),
                p.key,
                p.span_handler as f64 / f64::from(p.conns),
                outside,
                p.per_conn(p.span_passes),
                f.idle_pass,
                loop_est,
                outside - loop_est,
                p.hw_per_conn(),
                p.per_conn(p.dp.punted),
                p.per_conn(p.dp.injected()),
                p.per_conn(p.dp.forwarded),
                p.dp.drop_full,
            );
            println!(
                "flow manager   {:<8} {:<8} server handshakes completed by the card (SYN-ACK absorbed, DP.ABSORB_DONE): {} of {}",
                f.cpu.to_string(),
                p.key,
                p.absorbed,
                p.conns,
            );
            let pct = |q: f64| p.setup.percentile(q).unwrap_or(0) as f64;
            println!(
                "flow manager   {:<8} {:<8} setup latency on the card (HANDSHAKE write -> SPLICED, DP.SETUP_HIST): {} timed, p50 <= {:.0} cycles, p90 <= {:.0}, p99 <= {:.0} (log2 buckets of 16-cycle units)",
                f.cpu.to_string(),
                p.key,
                p.setup.timed,
                pct(50.0),
                pct(90.0),
                pct(99.0),
            );
            let label = |what: &str| {
                format!(
                    "{cpu} {} ({} connections, {}): {what}",
                    p.key, p.conns, p.what
                )
            };
            let exact = |k: &str, l: &str, v: f64, unit: &str, how: &str| {
                figure(
                    format!("{pk}.{k}"),
                    label(l),
                    v,
                    unit,
                    "exact",
                    how.to_string(),
                )
            };
            figs.push(exact(
                "fw_setup_cycles",
                "firmware setup cycles per connection",
                p.fw_setup(),
                "cycles/connection",
                how_fw,
            ));
            figs.push(exact(
                "fw_teardown_cycles",
                "firmware teardown cycles per connection",
                p.fw_teardown(),
                "cycles/connection",
                how_fw,
            ));
            figs.push(exact(
                "card_cycles_per_conn",
                "card cycles per connection, first SYN to last connection spliced",
                p.card_per_conn(),
                "cycles/connection",
                "card cycles between the first client SYN into the card and the last buffered request the card sent to a server (captured frames), / connections",
            ));
            figs.push(exact(
                "absorbed_share",
                "share of the server handshakes the card completed itself (SYN-ACK absorbed)",
                f64::from(p.absorbed) / f64::from(p.conns),
                "fraction",
                "DP.ABSORB_DONE delta over the phase / connections spliced",
            ));
            figs.push(exact(
                "busy_fraction",
                "fraction of card cycles the soft core spends in connection handlers",
                p.busy(),
                "fraction",
                "FLOW_STATS (setup + teardown) cycle delta / card cycles from the first SYN to the last response",
            ));
            figs.push(exact(
                "handler_cycles_per_conn",
                "soft-core cycles in connection handlers per connection during the phase",
                p.span_handler as f64 / f64::from(p.conns),
                "cycles/connection",
                "FLOW_STATS (setup + teardown) cycle delta over the first SYN .. last response span / connections",
            ));
            figs.push(exact(
                "outside_handler_cycles_per_conn",
                "card cycles per connection the soft core is not in a connection handler",
                outside,
                "cycles/connection",
                "(span - handler cycles) / connections; span = first SYN .. last response",
            ));
            figs.push(figure(
                format!("{pk}.loop_cycles_per_conn"),
                label("main-loop polling cycles per connection (estimate)"),
                loop_est,
                "cycles/connection",
                "estimated",
                format!("CTRL.HEARTBEAT passes in the span x {:.0} cycles per idle pass (measured with no traffic), / connections", f.idle_pass),
            ));
            for (q, k) in [(50.0, "p50"), (99.0, "p99")] {
                figs.push(exact(
                    &format!("setup_latency_{k}_cycles"),
                    &format!("{k} setup latency on the card, HANDSHAKE write to SPLICED (upper bound of its log2 bucket)"),
                    pct(q),
                    "cycles",
                    "DP.SETUP_HIST_* delta over the phase (engine_obs: every setup timed from the write that puts its slot in HANDSHAKE to its first SPLICED write): the upper end of the bucket holding the quantile",
                ));
            }
            figs.push(exact(
                "loop_passes_per_conn",
                "firmware main-loop passes per connection during the phase",
                p.per_conn(p.span_passes),
                "passes/connection",
                "CTRL.HEARTBEAT delta over the first SYN .. last response span / connections",
            ));
            figs.push(figure(
                format!("{pk}.other_fw_cycles_per_conn"),
                label("untimed firmware work per connection outside handlers (estimate)"),
                outside - loop_est,
                "cycles/connection",
                "estimated",
                "outside_handler_cycles_per_conn - loop_cycles_per_conn: punt-ring reads, frame parsing, event pops, setup-timer and aging scans".into(),
            ));
            figs.push(exact(
                "punts_per_conn",
                "frames punted to the firmware per connection",
                p.per_conn(p.dp.punted),
                "frames/connection",
                "STATS punted frames (both ports) over the phase incl. teardown / connections",
            ));
            figs.push(exact(
                "injects_per_conn",
                "frames the firmware injected per connection",
                p.per_conn(p.dp.injected()),
                "frames/connection",
                "STATS tx frames - forwarded frames (both ports) / connections",
            ));
            figs.push(exact(
                "forwarded_per_conn",
                "frames the fast path forwarded per connection",
                p.per_conn(p.dp.forwarded),
                "frames/connection",
                "STATS forwarded frames (both ports) / connections",
            ));
            figs.push(exact(
                "punt_drops",
                "punted frames dropped, punt ring full",
                f64::from(p.dp.drop_full),
                "frames",
                "PUNT.DROP_FULL delta over the phase",
            ));
            figs.push(figure(
                format!("{pk}.hw_cycles_per_conn"),
                label("data-path hardware cycles per connection (estimate)"),
                p.hw_per_conn(),
                "cycles/connection",
                "estimated",
                format!(
                    "measured counts x documented latencies: punted frames x ({DECISION_CYCLES} decision + beats), injected frames x beats (beats = mean frame bytes / {BEAT_BYTES}), {FLOW_CMDS_PER_CONN} flow-table commands x {FLOW_CMD_CYCLES}, L7 match {L7_CYCLES}; runs alongside the soft core"
                ),
            ));
            figs.push(figure(
                format!("{pk}.conn_per_s"),
                label("new connections/s, projected (clock / card cycles per connection)"),
                clk / p.card_per_conn(),
                "connections/s",
                "projected",
                at.clone(),
            ));
            figs.push(figure(
                format!("{pk}.fw_conn_per_s"),
                label("new connections/s, firmware-bound (clock / (setup + teardown cycles))"),
                clk / fw,
                "connections/s",
                "projected",
                at.clone(),
            ));
        }
        if let Some(b) = &f.synburst {
            println!(
                "flow manager   {:<8} synburst{:<3} {} SYNs back to back: {} answered ({} SYN-ACKs by the card's SYN responder, {} by the firmware, {} of them cookies), {} punted frames dropped (punt ring full, 16 slots){}",
                f.cpu.to_string(),
                b.n,
                b.n,
                b.answered,
                b.hw_syn_acks,
                b.syn_acks,
                b.cookie_syn_acks,
                b.drops,
                if b.drops > 0 {
                    "; those clients wait for their TCP RTO (700 ms in smoltcp) to retry"
                } else {
                    ""
                }
            );
            let bk = format!("setup.{ck}.synburst{}", b.n);
            let how = "clients that left SYN-SENT once no further SYN was answered for 1M card cycles (6.4 ms; no client retransmits before its 700 ms RTO)";
            figs.push(figure(
                format!("{bk}.answered"),
                format!("{cpu} SYNs answered of {} back to back", b.n),
                b.answered as f64,
                "connections",
                "exact",
                how.into(),
            ));
            figs.push(figure(
                format!("{bk}.hw_syn_acks"),
                format!(
                    "{cpu} SYN-ACKs of the card's SYN responder for a burst of {} SYNs",
                    b.n
                ),
                b.hw_syn_acks as f64,
                "frames",
                "exact",
                "STATS port SYN_ANSWERED delta".into(),
            ));
            figs.push(figure(
                format!("{bk}.syn_acks"),
                format!(
                    "{cpu} SYN-ACKs the firmware sent for a burst of {} SYNs",
                    b.n
                ),
                f64::from(b.syn_acks),
                "frames",
                "exact",
                "FLOW_STATS syn_acks_sent delta".into(),
            ));
            figs.push(figure(
                format!("{bk}.cookie_syn_acks"),
                format!("{cpu} cookie SYN-ACKs for a burst of {} SYNs", b.n),
                f64::from(b.cookie_syn_acks),
                "frames",
                "exact",
                "FLOW_STATS cookie_syn_acks delta".into(),
            ));
            figs.push(figure(
                format!("{bk}.punt_drops"),
                format!(
                    "{cpu} punted frames dropped (ring full) during a burst of {} SYNs",
                    b.n
                ),
                f64::from(b.drops),
                "frames",
                "exact",
                "PUNT.DROP_FULL delta".into(),
            ));
        }
        if let Some((p, conns)) = &f.profile {
            let n = f64::from((*conns).max(1));
            println!(
                "flow manager   {:<8} where the cycles go, per connection ({conns} connections one at a time, firmware step timing on; a step's cycles are also in its handler, net of the {}-cycle timing cost):",
                f.cpu.to_string(),
                p.empty_step_cycles
            );
            for e in &p.entries {
                if e.count == 0 {
                    continue;
                }
                let net = match e.group {
                    splicenic_driver::ProfileGroup::Step => e
                        .cycles
                        .saturating_sub(u64::from(e.count) * u64::from(p.empty_step_cycles)),
                    splicenic_driver::ProfileGroup::Handler => e.cycles,
                };
                let group = match e.group {
                    splicenic_driver::ProfileGroup::Step => "step",
                    splicenic_driver::ProfileGroup::Handler => "handler",
                };
                println!(
                    "flow manager   {:<8}   {group:<7} {:<14} {:>8.0} cycles/connection ({:>5.2} per connection, {:>7.0} cycles each)",
                    f.cpu.to_string(),
                    e.name,
                    net as f64 / n,
                    f64::from(e.count) / n,
                    net as f64 / f64::from(e.count)
                );
                figs.push(figure(
                    format!("profile.{ck}.{group}.{}", e.name),
                    format!("{} ({group}), {}", e.name, f.cpu),
                    net as f64 / n,
                    "cycles/connection",
                    "exact",
                    format!(
                        "FLOW_PROFILE over {conns} connections one at a time, step timing on{}",
                        if group == "step" {
                            format!(", minus {} cycles of timing per step", p.empty_step_cycles)
                        } else {
                            String::new()
                        }
                    ),
                ));
                figs.push(figure(
                    format!("profile.{ck}.{group}.{}.count", e.name),
                    format!("{} ({group}) per connection, {}", e.name, f.cpu),
                    f64::from(e.count) / n,
                    "times/connection",
                    "exact",
                    format!("FLOW_PROFILE over {conns} connections"),
                ));
            }
        }
        println!(
            "flow manager   {:<8} all phases: {} simulated cycles in {:.1} s wall",
            f.cpu.to_string(),
            f.total_cycles,
            f.total_wall
        );
        rows.push(f);
    }
    if let [a, b] = rows.as_slice() {
        let ratio = (a.setup() + a.teardown()) / (b.setup() + b.teardown());
        println!(
            "flow manager   {} / {} cycles per connection (setup + teardown): {:.2}x",
            a.cpu, b.cpu, ratio
        );
        figs.push(figure(
            "setup.picorv32_over_vexriscv".into(),
            "PicoRV32 / VexRiscv firmware cycles per connection (setup + teardown)".into(),
            ratio,
            "ratio",
            "exact",
            "ratio of the two cores' fw_cycles_per_conn".into(),
        ));
    }
    if let Some(f) = rows.first() {
        slot_lifetime(f, clk, &at, &mut figs);
    }
    if let Some(dir) = std::env::var_os("SPLICENIC_BENCH_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("splice.json");
        let doc = json!({
            "bench": "splice",
            "command": COMMAND,
            "fmax_mhz": fmax_mhz,
            "figures": figs,
        });
        std::fs::write(&path, serde_json::to_string_pretty(&doc)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
        println!("flow manager   figures written to {}", path.display());
    }
    Ok(())
}
