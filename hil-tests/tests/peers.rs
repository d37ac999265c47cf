//! Real Linux peers through the simulated card (docs/rig.md): curl in a client namespace,
//! nginx in backend namespaces on a bridged LAN, the card splicing HTTP by URL and Host.
//!
//! Needs root (TAP devices, namespaces), nginx, curl and the firmware ELF; without them it
//! prints a note and passes. The three scenarios share one topology (booting the card
//! dominates the wall time).

use sha2::{Digest, Sha256};
use splicenic_driver::TcpTimeoutState;
use splicenic_hil::peer::ns_command;
use splicenic_hil::peer::Tally;
use splicenic_hil::topo::{python, scenario, Opts, Topology, BLOB_LEN, VIP, VIP_PORT};
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A GET that must answer 200: (X-Backend header, body).
fn get(t: &Topology, host: &str, path: &str, tally: &mut Tally) -> (String, Vec<u8>) {
    let r = t.get(host, path, tally).unwrap_or_else(|e| panic!("{e:#}"));
    (r.backend, r.body)
}

fn url_and_host_routing(t: &Topology) {
    let (name, t0) = ("URL/Host routing", Instant::now());
    let mut tally = Tally::default();
    // Default pool web: /id answers web1 or web2 with its own name.
    let (b, body) = get(t, "www.example.com", "/id", &mut tally);
    assert!(
        b == "web1" || b == "web2",
        "default pool answered from {b:?}"
    );
    assert_eq!(String::from_utf8_lossy(&body).trim(), b);
    // Host api.example.com -> pool api.
    let (b, body) = get(t, "api.example.com", "/api/x", &mut tally);
    assert_eq!(b, "api1");
    assert_eq!(String::from_utf8_lossy(&body), "api api1\n");
    let (b, _) = get(t, "api.example.com", "/id", &mut tally);
    assert_eq!(b, "api1");
    // /static/ -> pool static (the path rule comes first, whatever the Host).
    let (b, body) = get(t, "www.example.com", "/static/blob", &mut tally);
    assert_eq!(b, "static1");
    assert_eq!(body.len(), BLOB_LEN);
    assert!(body == t.blob, "static blob differs");
    t.finish(name, &tally, t0);
}

fn rr_distribution(t: &Topology) {
    let (name, t0) = ("rr distribution", Instant::now());
    let mut tally = Tally::default();
    let seen: Vec<String> = (0..10)
        .map(|_| {
            let (b, body) = get(t, "www.example.com", "/id", &mut tally);
            assert_eq!(String::from_utf8_lossy(&body).trim(), b);
            b
        })
        .collect();
    eprintln!("rr order: {seen:?}");
    for w in seen.windows(2) {
        assert_ne!(w[0], w[1], "rr did not alternate: {seen:?}");
    }
    assert!(seen.iter().all(|b| b == "web1" || b == "web2"), "{seen:?}");
    t.finish(name, &tally, t0);
}

fn mib_download(t: &Topology) {
    let (name, t0) = ("1 MiB download", Instant::now());
    let mut tally = Tally::default();
    let r = t
        .get("www.example.com", "/static/blob", &mut tally)
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(r.backend, "static1");
    let got = Sha256::digest(&r.body);
    let want = Sha256::digest(&t.blob);
    eprintln!(
        "1 MiB download: {} bytes in {:.1?} = {:.4} MB/s, sha256 {}",
        r.body.len(),
        r.wall,
        r.body.len() as f64 / 1e6 / r.wall.as_secs_f64(),
        if got == want { "matches" } else { "DIFFERS" }
    );
    assert_eq!(got, want, "sha256 of the download differs from the file's");
    // Retransmissions, for the record (finish checks the checksum errors).
    let mut nss = vec![t.client_ns.clone()];
    nss.extend(t.backends.iter().map(|b| b.ns.clone()));
    for ns in &nss {
        let retrans = t.nstat(ns, "TcpRetransSegs").unwrap_or(0);
        eprintln!("  {ns}: TcpRetransSegs {retrans}");
    }
    t.finish(name, &tally, t0);
}

/// The card's own record of the connections through `nicctl` (docs/engine.md, "Trace ring"
/// and "Setup latency"): every spliced connection timed from its HANDSHAKE write, nothing
/// lost; in the ring, each timed SPLICED entry's latency equal to the cycles since its
/// slot's HANDSHAKE entry, and the last connection's states in order.
fn engine_trace(t: &Topology, spliced: u64) {
    if t.nicctl_card().is_none() {
        eprintln!("engine trace: a lab rig's VFIO card is held by the topology; not checked");
        return;
    }
    let json = |args: &[&str]| -> serde_json::Value {
        let out = t
            .nicctl(args)
            .unwrap_or_else(|e| panic!("nicctl {args:?}: {e:#}"));
        assert!(out.ok, "nicctl {args:?}: {}", out.stderr);
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("nicctl {args:?}: {e}: {}", out.text()))
    };
    let s = json(&["stats", "--json"]);
    let lat = &s["setup_latency"];
    eprintln!(
        "engine trace: setups timed {}, overwritten {}, p50 <= {} us, p99 <= {} us",
        lat["timed"], lat["overwritten"], lat["p50_us"], lat["p99_us"]
    );
    assert_eq!(lat["timed"].as_u64(), Some(spliced), "setups timed: {lat}");
    assert_eq!(lat["overwritten"].as_u64(), Some(0), "{lat}");
    let text = t.nicctl(&["trace", "--last", "12"]).expect("nicctl trace");
    eprintln!("{}", text.text());
    let tr = json(&["trace", "--json"]);
    assert_eq!(tr["lost"].as_u64(), Some(0), "trace lost");
    let entries = tr["entries"].as_array().expect("entries");
    let slot_gen = |e: &serde_json::Value| (e["slot"].as_u64(), e["gen"].as_u64());
    let mut timed = 0;
    for (i, e) in entries.iter().enumerate() {
        if e["kind"] != "SPLICED" || e["timed"] != true {
            continue;
        }
        timed += 1;
        let Some(h) = entries[..i]
            .iter()
            .rev()
            .find(|h| h["kind"] == "HANDSHAKE" && slot_gen(h) == slot_gen(e))
        else {
            continue;
        };
        // An entry is written 4 cycles after its flow-state write (the setup pipeline; a
        // flow-state entry never waits for the ring), and the clock counts the card's
        // cycle counter in 16-cycle ticks: the latency is the ticks between the two writes.
        let time = |x: &serde_json::Value| x["time"].as_u64().expect("time") as u32;
        let tick = |t: u32| t.wrapping_sub(4) >> 4;
        let units = u64::from(tick(time(e)).wrapping_sub(tick(time(h))) & 0x0fff_ffff);
        let setup = e["decoded"]["setup_cycles"].as_u64().expect("setup_cycles");
        assert_eq!(
            setup,
            units * 16,
            "SPLICED {e} after HANDSHAKE {h}: {} cycles apart",
            time(e).wrapping_sub(time(h))
        );
    }
    assert!(timed > 0, "no timed SPLICED entry in the ring");
    // The last connection (the download): its slot's decisions in order.
    let last = entries
        .iter()
        .rev()
        .find(|e| e["kind"] == "SPLICED")
        .expect("a SPLICED entry");
    // (the firmware writes some states more than once: CONNECTING with the server's
    // numbers, CLOSING per FIN)
    let mut kinds: Vec<&str> = entries
        .iter()
        .filter(|e| slot_gen(e) == slot_gen(last) && e["kind"] != "ACK" && e["kind"] != "FIN")
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    kinds.dedup();
    let at = kinds
        .iter()
        .position(|k| *k == "HANDSHAKE")
        .expect("its HANDSHAKE");
    assert_eq!(
        &kinds[at..at + 4],
        ["HANDSHAKE", "REQUEST", "CONNECTING", "SPLICED"],
        "{kinds:?}"
    );
}

/// The linger of the scenario below, in ms of the card's time.
const LINGER_MS: u32 = 5;

/// Waits (wall time, at most `limit`) until `done` holds for the card's flow list.
fn wait_flows(t: &mut Topology, limit: Duration, done: impl Fn(usize) -> bool) -> usize {
    let t0 = Instant::now();
    loop {
        let n = t.flows().len();
        if done(n) || t0.elapsed() > limit {
            return n;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Teardown (docs/engine.md, "Teardown"): with FIN_WAIT and TIME_WAIT at the IPVS defaults
/// (120 s) and LINGER at [`LINGER_MS`], a connection both ends closed leaves the card's
/// table LINGER after its last segment, while one that is still open stays however long it
/// idles. Measured in the card's own clock: the trace ring's FIN and FREE entries.
fn linger_frees_closed_flows(t: &mut Topology) {
    let (name, t0) = ("linger", Instant::now());
    let card = t.card_mut();
    card.flow_manager()
        .timeout_set_ms(TcpTimeoutState::Linger, LINGER_MS)
        .expect("TIMEOUT_SET LINGER");
    let fin_wait = card.flow_manager().timeouts().expect("TIMEOUT_GET");
    assert!(
        fin_wait
            .iter()
            .any(|(s, d)| *s == TcpTimeoutState::FinWait && *d == Duration::from_secs(120)),
        "FIN_WAIT at its default: {fin_wait:?}"
    );
    // The earlier scenarios' connections are closed: their flows go after the linger.
    let left = wait_flows(t, Duration::from_secs(120), |n| n == 0);
    assert_eq!(left, 0, "flows of closed connections still held");
    eprintln!(
        "{name}: the earlier connections' flows gone after {:.1?}",
        t0.elapsed()
    );
    // An open connection idles past several lingers and keeps its flow.
    let script = "import socket, sys\n\
                  s = socket.create_connection((sys.argv[1], int(sys.argv[2])))\n\
                  s.sendall(b'GET /id HTTP/1.1\\r\\nHost: www.example.com\\r\\n\\r\\n')\n\
                  s.recv(65536)\n\
                  print('open', flush=True)\n\
                  sys.stdin.read()\n\
                  s.close()\n";
    let (vip, port) = (VIP.to_string(), VIP_PORT.to_string());
    let mut child = ns_command(&t.client_ns, &[python(), "-c", script, &vip, &port])
        .stdin(Stdio::piped())
        .spawn()
        .expect("python client");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("client output");
    assert_eq!(line.trim(), "open", "the client's connection");
    let ticks =
        |ms: u32| ((u64::from(ms) * u64::from(splicenic_layout::CLK_HZ) / 1000) >> 16) as u32;
    let start = t
        .card_mut()
        .datapath()
        .expect("datapath")
        .now()
        .expect("NOW");
    while t
        .card_mut()
        .datapath()
        .expect("datapath")
        .now()
        .expect("NOW")
        .wrapping_sub(start)
        < 3 * ticks(LINGER_MS)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    let open = t.flows();
    assert_eq!(
        open.len(),
        1,
        "the open connection's flow after 3 lingers: {open:?}"
    );
    let slot = open[0].slot;
    // Closed by the client: both FINs, the last ACK, then the linger.
    drop(child.stdin.take());
    let status = child.wait().expect("client");
    assert!(status.success(), "client: {status}");
    let left = wait_flows(t, Duration::from_secs(120), |n| n == 0);
    assert_eq!(left, 0, "the closed connection's flow still held");
    // In the card's clock: its FREE came at least LINGER after its last FIN and long
    // before FIN_WAIT.
    let out = t.nicctl(&["trace", "--json"]).expect("nicctl trace");
    assert!(out.ok, "nicctl trace: {}", out.stderr);
    let tr: serde_json::Value = serde_json::from_slice(&out.stdout).expect("trace JSON");
    let entries = tr["entries"].as_array().expect("entries");
    let of_slot = |k: &str| {
        entries
            .iter()
            .rev()
            .find(|e| e["kind"] == k && e["slot"].as_u64() == Some(u64::from(slot)))
            .unwrap_or_else(|| panic!("no {k} entry of slot {slot} in the trace"))
    };
    let time = |e: &serde_json::Value| e["time"].as_u64().expect("time");
    let (fin, free) = (time(of_slot("FIN")), time(of_slot("FREE")));
    // The card freed it (docs/aging.md, "The free in hardware"): the FREE entry is the
    // engine's write, not the firmware's.
    assert_eq!(
        of_slot("FREE")["writer"],
        "engine",
        "the FREE of a closed flow written by the card"
    );
    let held = (free as u32).wrapping_sub(fin as u32);
    let cycles_per_ms = splicenic_layout::CLK_HZ / 1000;
    eprintln!(
        "{name}: slot {slot} freed {held} cycles ({:.2} ms) after its last FIN, linger {LINGER_MS} ms; {:.1?}",
        f64::from(held) / f64::from(cycles_per_ms),
        t0.elapsed()
    );
    // The scanner compares DP.NOW ticks (cycle counter bits 47:16): the last segment's
    // time is its tick, so the FREE can come up to one tick less than LINGER after it.
    let tick = 1u32 << 16;
    assert!(
        held + tick > LINGER_MS * cycles_per_ms,
        "freed before the linger (less one DP.NOW tick)"
    );
    // Found by the card's aging scanner (docs/aging.md): within one walk of the firmware's
    // slots after the linger, plus DP.NOW's tick either way and the firmware's pop.
    let ag = t
        .card_mut()
        .datapath()
        .expect("datapath")
        .aging()
        .expect("DP.AGE_*");
    assert!(
        ag.enabled && ag.depth > 0,
        "the aging scanner is off: {ag:?}"
    );
    assert!(
        ag.expired >= 1 && ag.sweeps >= 1,
        "the scanner found nothing: {ag:?}"
    );
    // Every connection of the run closed cleanly (both FINs acknowledged): the card freed
    // each flow itself, the firmware only took the slots back.
    assert!(ag.free, "DP.AGE_CTRL.FREE off: {ag:?}");
    assert_eq!(ag.freed, 16, "flows the card freed: {ag:?}");
    let walk = u64::from(ag.limit) * u64::from(ag.interval);
    let bound =
        u64::from(LINGER_MS * cycles_per_ms) + walk + 2 * 65_536 + 2 * u64::from(cycles_per_ms);
    eprintln!(
        "{name}: aging scanner {ag:?}; a walk is {walk} cycles, the free due within {bound} cycles"
    );
    assert!(
        u64::from(held) <= bound,
        "not freed within a walk of the linger"
    );
    let stats = t.flow_stats();
    assert_eq!(stats.spliced_total, 16, "connections spliced");
    // The firmware's header-only segments were built by the card's frame generator
    // (docs/server-open.md, "In the data path"): at least each connection's server SYN.
    let g = t
        .card_mut()
        .datapath()
        .expect("datapath")
        .tx_gen()
        .expect("DP.TXGEN_*");
    eprintln!("{name}: frame generator {g:?}");
    assert!(g.present, "no frame generator: {g:?}");
    assert!(g.sent_server >= 16, "server SYNs built by the card: {g:?}");
    assert!(
        g.sent_client >= 1,
        "client segments built by the card: {g:?}"
    );
    assert_eq!(g.refused, 0, "the firmware checks BUSY before a GO: {g:?}");
    // The card followed the FINs (docs/engine.md, "FINs without the firmware"): no FIN
    // events, and the firmware's count of closed flows, folded from the card's per-server
    // first-FIN counts, is every connection.
    let fin = t
        .card_mut()
        .datapath()
        .expect("datapath")
        .fin_ctrl()
        .expect("DP.FIN_CTRL");
    assert!(fin.present && !fin.events, "FINs as events: {fin:?}");
    assert_eq!(stats.closed, 16, "closed connections: {stats:?}");
}

#[test]
fn real_peers_through_the_card() {
    let tools = [("nginx", "-v"), ("curl", "--version")];
    let Some((_g, t0)) = scenario("real peers", &tools) else {
        return;
    };
    let mut t = Topology::build(&Opts::three_pools()).expect("building the topology");
    eprintln!(
        "topology {} ready in {:.1?} (client {}, LAN {}, backends {:?})",
        t.id,
        t.setup_time,
        t.client_ns,
        t.lan_ns,
        t.backends
            .iter()
            .map(|b| format!("{} {} {}", b.name, b.ip, b.ns))
            .collect::<Vec<_>>()
    );
    url_and_host_routing(&t);
    rr_distribution(&t);
    mib_download(&t);
    // The card's side: every connection was spliced, none failed.
    let stats = t.flow_stats();
    eprintln!(
        "card: {} SYN-ACKs to clients, {} connections spliced, {} setups failed, {} server SYN retries, {} flows closed",
        stats.syn_acks_sent, stats.spliced_total, stats.setup_failed, stats.server_retries, stats.closed
    );
    assert_eq!(stats.spliced_total, 15, "connections spliced by the card");
    assert_eq!(
        stats.setup_failed, 0,
        "connection setups failed on the card"
    );
    engine_trace(&t, stats.spliced_total.into());
    if t.nicctl_card().is_some() {
        linger_frees_closed_flows(&mut t);
    }
    drop(t);
    eprintln!("whole test: {:.1?}", t0.elapsed());
}
