//! Load and abuse scenarios with real peers through the simulated card (docs/rig.md): wrk
//! load, a SYN flood while legitimate clients connect, a full flow table, malformed frames.
//!
//! Needs root, nginx, wrk and python3-scapy (`cargo xtask setup`) and the firmware ELF;
//! without them a scenario prints a note and passes. Each scenario builds its own topology;
//! they run one at a time (a lock) so the simulated card gets the machine to itself.

use splicenic_driver::SetupTimers;
use splicenic_hil::hw_syn_acks;
use splicenic_hil::peer::{
    self, curl_exit_code, first_line, spawn_py, wait_child, SetupOpts, Tally,
};
use splicenic_hil::topo::Topology;
use splicenic_hil::wait::{self, CardSpeed};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

/// How long one GET /id may take (it was curl's `--max-time`).
const GET_LIMIT: Duration = Duration::from_secs(60);

/// The topology for one scenario, or `None` (with a note) when the rig cannot run here:
/// nginx and curl, plus `tools` (`(program, version flag)`), and the python3 modules
/// `modules` importable.
fn setup(
    name: &str,
    tools: &[(&str, &str)],
    modules: &[&'static str],
) -> Option<(MutexGuard<'static, ()>, Topology, Instant)> {
    let mut all = vec![("nginx", "-v"), ("curl", "--version")];
    all.extend_from_slice(tools);
    let opts = SetupOpts {
        py_modules: modules.to_vec(),
        ..SetupOpts::default()
    };
    peer::setup(name, &all, &opts)
}

/// A GET /id (Host: the VIP) that must return 200 within [`GET_LIMIT`] from web1 or web2
/// with the backend's name as body; counted in `tally`.
fn get_id(t: &Topology, what: &str, tally: &mut Tally) {
    let r = t
        .get(&t.addrs.vip.to_string(), "/id", tally)
        .unwrap_or_else(|e| panic!("{what}: {e:#}"));
    assert!(r.wall < GET_LIMIT, "{what}: took {:.1?}", r.wall);
    assert!(
        r.backend == "web1" || r.backend == "web2",
        "{what}: answered by {:?}",
        r.backend
    );
    assert_eq!(String::from_utf8_lossy(&r.body).trim(), r.backend, "{what}");
}

/// wrk's "Requests/sec: 3.21" style values.
fn wrk_field<'a>(out: &'a str, key: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.trim().strip_prefix(key))
        .map(str::trim)
}

/// One wrk run from the client namespace: (completed requests, Requests/sec, MB/s, output).
fn run_wrk(t: &Topology, secs: u32, extra: &[&str]) -> (u64, String, f64, String) {
    let dur = format!("-d{secs}s");
    let url = format!("http://{}:{}/id", t.addrs.vip, t.addrs.vip_port);
    let mut cmd = vec!["wrk", "-t1", "-c4", &dur, "--timeout", "30s"];
    cmd.extend_from_slice(extra);
    cmd.push(&url);
    let out = t
        .exec(&t.client_ns, &cmd, Duration::from_secs(60))
        .expect("running wrk");
    let text = out.text();
    eprintln!("{text}");
    assert!(out.ok, "wrk failed: {}", out.stderr);
    let completed: u64 = text
        .lines()
        .find_map(|l| {
            let l = l.trim();
            l.contains(" requests in ")
                .then(|| l.split_whitespace().next()?.parse().ok())?
        })
        .unwrap_or_else(|| panic!("no request count in wrk output: {text} {}", out.stderr));
    let rps = wrk_field(&text, "Requests/sec:").unwrap_or("?").to_string();
    let tps = wrk_field(&text, "Transfer/sec:").unwrap_or("?");
    let (num, unit) = tps.split_at(tps.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(0));
    let mb_s = num.parse::<f64>().unwrap_or(0.0)
        * match unit {
            "B" => 1.0,
            "KB" => 1024.0,
            "MB" => 1024.0 * 1024.0,
            "GB" => 1024.0 * 1024.0 * 1024.0,
            _ => 0.0,
        }
        / 1e6;
    (completed, rps, mb_s, text)
}

#[test]
fn wrk_load() {
    let name = "wrk load";
    let Some((_g, mut t, t0)) = setup(name, &[("wrk", "--version")], &[]) else {
        return;
    };
    // Keep-alive: after the first request the card's gateware forwards the spliced flow.
    let (completed, rps, mb_s, text) = run_wrk(&t, 5, &[]);
    eprintln!(
        "simulated rig throughput: {rps} requests/s, {mb_s:.4} MB/s (wrk -c4 keep-alive, {completed} requests of /id)"
    );
    assert!(completed > 0, "wrk completed no request");
    assert!(
        !text.contains("Socket errors"),
        "wrk saw socket errors: {text}"
    );
    assert!(
        !text.contains("Non-2xx"),
        "wrk saw non-2xx responses: {text}"
    );
    let s1 = t.flow_stats();
    // wrk's last keep-alive connections (a request and a FIN each, sent as it stops) are
    // still in setup: the SYN responder accepts connections faster than the firmware sets
    // them up. Let them finish first, so that the next run starts on an idle card.
    t.settled_flow_stats(
        "the keep-alive run's setups to finish",
        Duration::from_secs(60),
    );
    // One connection per request: every request is a setup in the card's firmware, about half
    // a second of wall time each on a 2-core machine (0.7-2.3 requests/s seen), so the run is
    // long enough for several even when the machine is slow.
    let (completed_c, rps_c, mb_s_c, text_c) = run_wrk(&t, 8, &["-H", "Connection: close"]);
    eprintln!(
        "simulated rig throughput: {rps_c} requests/s, {mb_s_c:.4} MB/s (wrk -c4, a new connection per request, {completed_c} requests)"
    );
    assert!(
        completed_c > 0,
        "wrk (Connection: close) completed no request"
    );
    if text_c.contains("Socket errors") || text_c.contains("Non-2xx") {
        eprintln!("note: wrk with Connection: close reported errors (see above)");
    }
    let s = t.flow_stats();
    eprintln!(
        "card: {} spliced ({} in the keep-alive run), {} setups failed ({} in the keep-alive run), {} refused (table full)",
        s.spliced_total, s1.spliced_total, s.setup_failed, s1.setup_failed, s.refused_table_full
    );
    // wrk stops mid-connection: a connection it opened just before the end (nginx closes a
    // keep-alive connection after 1000 requests) may carry no request yet and counts as a
    // failed setup on the card.
    assert!(
        s1.setup_failed <= 1,
        "setups failed in the keep-alive run: {s1:?}"
    );
    // wrk's responses are not checked byte for byte: no bytes verified.
    let tally = Tally {
        connections: s.spliced_total as usize,
        ..Default::default()
    };
    t.finish(name, &tally, t0);
    drop(t);
    eprintln!("{name}: whole test {:.1?}", t0.elapsed());
}

const SYN_FLOOD: &str = r#"
import sys, random, logging
logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
from scapy.all import Ether, IP, TCP, sendp, conf
conf.verb = 0
iface, dmac, vip, port, client, n = sys.argv[1:6] + [int(sys.argv[6])]
net = client.rsplit(".", 1)[0]
rnd = random.Random(7)
frames = [Ether(dst=dmac) / IP(src="%s.%d" % (net, 150 + i % 100), dst=vip) /
          TCP(sport=rnd.randint(1024, 65535), dport=int(port), flags="S",
              seq=rnd.getrandbits(32), options=[("MSS", 1460)]) for i in range(n)]
sendp(frames, iface=iface, inter=0.01)
print("sent", n)
"#;

#[test]
fn syn_flood_with_legitimate_clients() {
    let name = "SYN flood";
    let Some((_g, mut t, t0)) = setup(name, &[], &["scapy.all"]) else {
        return;
    };
    let mut tally = Tally::default();
    let before = t.flow_stats();
    let n = 250;
    let mut flood = spawn_py(
        &t.client_ns,
        SYN_FLOOD,
        &[
            &t.client_if,
            &t.card_mac_client(),
            &t.addrs.vip.to_string(),
            &t.addrs.vip_port.to_string(),
            &t.addrs.client.to_string(),
            &n.to_string(),
        ],
    );
    // The flood is under way once the card's SYN responder answers it (scapy's start-up
    // takes seconds): SYN-ACKs the firmware never sees.
    let t1 = Instant::now();
    let card = t.card_mut();
    let hw0 = hw_syn_acks(card).expect("STATS");
    let limit = CardSpeed::of(card).scale(Duration::from_secs(60));
    let answered = wait::until_seen(
        "the card's SYN responder answering the flood",
        limit,
        || {
            let hw = hw_syn_acks(card).expect("STATS") - hw0;
            if hw >= 10 {
                return Ok(hw);
            }
            let flood = match flood.try_wait() {
                Ok(Some(st)) => format!("ended ({st})"),
                _ => "running".to_string(),
            };
            Err(format!("{hw} hardware SYN-ACKs, the flood {flood}"))
        },
    );
    eprintln!(
        "  flood under way after {:.1?}: {answered} hardware SYN-ACKs",
        t1.elapsed()
    );
    for i in 0..3 {
        get_id(&t, &format!("during the flood #{i}"), &mut tally);
    }
    let (ok, so, se) = wait_child(flood, Duration::from_secs(60));
    assert!(ok, "SYN flood script failed: {so} {se}");
    eprintln!("  flood: {}", so.trim());
    for i in 0..2 {
        get_id(&t, &format!("after the flood #{i}"), &mut tally);
    }
    let s = t.settled_flow_stats("the clients' setups to finish", Duration::from_secs(60));
    let hw = hw_syn_acks(t.card_mut()).expect("STATS") - hw0;
    eprintln!(
        "card: {hw} hardware SYN-ACKs, {} firmware SYN-ACKs, {} cookie SYN-ACKs, {} spliced, {} setups failed, {} refused, {} aged out, {} slots in use, {} in setup",
        s.syn_acks_sent - before.syn_acks_sent,
        s.cookie_syn_acks - before.cookie_syn_acks,
        s.spliced_total,
        s.setup_failed,
        s.refused_table_full,
        s.aged_out,
        s.slots_in_use,
        s.pending_in_use
    );
    // Every SYN, the flood's and the legitimate clients', answered in hardware; the
    // firmware answered none and the flood holds no setup entry.
    assert!(
        hw >= (n + tally.connections) as u64,
        "{hw} hardware SYN-ACKs for {n} flood SYNs and {} clients",
        tally.connections
    );
    assert_eq!(s.syn_acks_sent, before.syn_acks_sent, "{s:?}");
    assert_eq!(s.cookie_syn_acks, before.cookie_syn_acks, "{s:?}");
    assert_eq!(s.pending_in_use, 0, "{s:?}");
    assert_eq!(
        s.spliced_total as usize, tally.connections,
        "legitimate connections spliced"
    );
    t.finish(name, &tally, t0);
    drop(t);
    eprintln!("{name}: whole test {:.1?}", t0.elapsed());
}

/// Opens N keep-alive connections, completes one request on each, prints "held", keeps
/// them open until the file argv[2] exists, then closes them.
const HOLDER: &str = r#"
import sys, socket, time, os
n, release, vip, port = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
socks = []
for i in range(n):
    s = socket.create_connection((vip, port), timeout=60)
    s.sendall(b"GET /id HTTP/1.1\r\nHost: www.example.com\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data or not data.rstrip().endswith((b"web1", b"web2")):
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    assert b" 200 " in data.split(b"\r\n")[0], data
    socks.append(s)
print("held", n, flush=True)
t0 = time.time()
while not os.path.exists(release) and time.time() - t0 < 60:
    time.sleep(0.05)
for s in socks:
    s.close()
print("closed", flush=True)
"#;

#[test]
fn flow_table_full_refuses_then_recovers() {
    let name = "flow table full";
    let Some((_g, mut t, t0)) = setup(name, &[], &[]) else {
        return;
    };
    {
        let card = t.card_mut();
        card.flow_manager()
            .setup_timers_set(&SetupTimers {
                flow_limit: 2,
                ..Default::default()
            })
            .expect("SETUP_SET");
    }
    t.set_closing_timeouts_ms(10).expect("TIMEOUT_SET");
    let release = t.dir().join("release-holders");
    let mut holder = spawn_py(
        &t.client_ns,
        HOLDER,
        &[
            "2",
            release.to_str().expect("utf-8"),
            &t.addrs.vip.to_string(),
            &t.addrs.vip_port.to_string(),
        ],
    );
    let line = first_line(&mut holder);
    assert!(
        line.starts_with("held"),
        "holders did not connect: {line:?}"
    );
    // Each holder's response body is "web1" or "web2" (5 bytes with the newline).
    let mut tally = Tally {
        connections: 2,
        bytes: 2 * 5,
        ..Default::default()
    };
    let before = t.flow_stats();
    eprintln!(
        "  2 connections held open, {} slots in use",
        before.slots_in_use
    );
    let c = t
        .curl(&t.addrs.vip.to_string(), "/id", &["--max-time", "30"])
        .expect("running curl");
    let code = curl_exit_code(&c.stderr);
    eprintln!(
        "  third connection: curl rc {code} ({})",
        c.stderr.lines().next().unwrap_or("")
    );
    assert!(
        !c.ok && (code == 7 || code == 56),
        "the third connection was not refused with a RST: rc {code} {}",
        c.stderr
    );
    let after = t.flow_stats();
    assert!(
        after.refused_table_full > before.refused_table_full,
        "refused_table_full did not increase: {before:?} -> {after:?}"
    );
    std::fs::write(&release, b"").expect("release file");
    let (ok, so, se) = wait_child(holder, Duration::from_secs(60));
    assert!(ok, "holder failed: {so} {se}");
    // Wait for the closed flows to age out of the card (10 ms of card time).
    let card = t.card_mut();
    let limit = CardSpeed::of(card).scale(Duration::from_secs(30));
    let t1 = Instant::now();
    loop {
        let s = card.flow_manager().flow_stats().expect("stats");
        if s.slots_in_use == 0 {
            eprintln!("  flows aged out after {:.1?}", t1.elapsed());
            break;
        }
        if t1.elapsed() > limit {
            let flows = card.flow_manager().flows(|_| {});
            panic!("flows still in use {limit:?} after closing: {s:?}\n{flows:#?}");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    for i in 0..2 {
        get_id(&t, &format!("after release #{i}"), &mut tally);
    }
    let s = t.flow_stats();
    eprintln!(
        "card: {} spliced, {} refused (table full), {} closed, {} aged out",
        s.spliced_total, s.refused_table_full, s.closed, s.aged_out
    );
    t.finish(name, &tally, t0);
    drop(t);
    eprintln!("{name}: whole test {:.1?}", t0.elapsed());
}

/// Sends malformed frames to the card's client port with a raw AF_PACKET socket.
const MALFORMED: &str = r#"
import sys, socket, struct
iface, dmac = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", ""))
src, dst, dport = socket.inet_aton(sys.argv[3]), socket.inet_aton(sys.argv[4]), int(sys.argv[5])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((iface, 0))
smac = s.getsockname()[4]
def csum(b):
    if len(b) % 2: b += b"\0"
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while t >> 16: t = (t & 0xffff) + (t >> 16)
    return (~t) & 0xffff
def ip(proto, payload, ver=4, bad=False, tot=None):
    h = struct.pack("!BBHHHBBH4s4s", (ver << 4) | 5, 0, tot or 20 + len(payload), 1, 0, 64,
                    proto, 0, src, dst)
    c = csum(h) ^ (0x1234 if bad else 0)
    return h[:10] + struct.pack("!H", c) + h[12:] + payload
eth = lambda et, p: dmac + smac + struct.pack("!H", et) + p
tcp = struct.pack("!HHIIBBHHH", 40000, dport, 1, 0, 5 << 4, 0x02, 1024, 0xdead, 0)
frames = {
    "garbage ethertype": eth(0x88b5, bytes(range(50))),
    "truncated IPv4": eth(0x0800, ip(6, tcp)[:12]),
    "IP version 6": eth(0x0800, ip(6, tcp, ver=6)),
    "bad IP checksum": eth(0x0800, ip(6, tcp, bad=True)),
    "IP length too big": eth(0x0800, ip(6, tcp, tot=1400)),
    "truncated TCP": eth(0x0800, ip(6, tcp[:8])),
}
n = 0
for _ in range(5):
    for name, f in frames.items():
        s.send(f + b"\0" * max(0, 60 - len(f)))
        n += 1
print("sent", n)
"#;

#[test]
fn malformed_frames_are_dropped_and_counted() {
    let name = "malformed frames";
    let Some((_g, mut t, t0)) = setup(name, &[], &[]) else {
        return;
    };
    let mut drops = || {
        let card = t.card_mut();
        let mut dp = card.datapath().expect("datapath");
        dp.stats().expect("stats").drop_reasons()
    };
    let before = drops();
    let py = spawn_py(
        &t.client_ns,
        MALFORMED,
        &[
            &t.client_if,
            &t.card_mac_client(),
            &t.addrs.client.to_string(),
            &t.addrs.vip.to_string(),
            &t.addrs.vip_port.to_string(),
        ],
    );
    let (ok, so, se) = wait_child(py, Duration::from_secs(30));
    assert!(ok, "malformed-frame script failed: {so} {se}");
    eprintln!("  {}", so.trim());
    let mut tally = Tally::default();
    get_id(&t, "after the malformed frames", &mut tally);
    get_id(&t, "again", &mut tally);
    let mut drops = || {
        let card = t.card_mut();
        let mut dp = card.datapath().expect("datapath");
        dp.stats().expect("stats").drop_reasons()
    };
    let after = drops();
    let mut total = 0;
    for ((name, b), (_, a)) in before.iter().zip(&after) {
        if a != b {
            eprintln!("  drop reason {name}: +{}", a - b);
        }
        total += a - b;
    }
    assert!(
        total >= 25,
        "parser drop counters rose by only {total}: {before:?} -> {after:?}"
    );
    let s = t.flow_stats();
    assert_eq!(s.spliced_total, 2);
    t.finish(name, &tally, t0);
    drop(t);
    eprintln!("{name}: whole test {:.1?}", t0.elapsed());
}
