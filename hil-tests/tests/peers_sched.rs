//! The card's IPVS schedulers (docs/schedulers.md) seen from the client side with real Linux
//! peers (docs/rig.md, "Scheduler scenarios").
//!
//! Needs root, nginx, curl, python3 and the firmware ELF; without them it prints a note and
//! passes. Two `#[test]` functions, each with its own topology: backends web1, web2 and web3
//! (real servers 0, 1, 2, in that insertion order) in pool web, the L7 service's default
//! pool, with no L7 rules. Each takes the pool through several schedulers with POOL_SET,
//! after setting the weights with SERVER_GET / SERVER_SET. A POOL_SET with a different
//! setting starts a fresh scheduler (servers and their counts are kept), so re-setting the
//! scheduler the pool already has goes through another one first. Every closing state's
//! timeout is 10 ms, so that closed flows leave the table within seconds of wall time.
//!
//! Two kinds of client:
//! - sequential curls to `/id` (a new connection each): 200, and the body names the server
//!   that `X-Backend` names;
//! - a python3 "holder" that opens connections one after another and keeps each open after
//!   its response, so each counts as active on its server (IPVS `activeconns`) when the next
//!   one is scheduled. Before a holder runs the card must hold no flow and every server's
//!   active and inactive counts must be 0, so the expected order follows from LVS's rules
//!   alone; while the connections are held, the card's active counts (SERVER_STATS) must
//!   match what the client saw.
//!
//! Each scheduler prints its sequence (`1` = web1, ...) and distribution, then the
//! scenario's totals (`Topology::finish`).

use splicenic_driver::{PoolConfig, Scheduler};
use splicenic_hil::peer::{
    self, kill_running, peer_tools, py_command, SetupOpts, Tally, EXEC_TIMEOUT, PY_HTTP,
};
use splicenic_hil::topo::{Opts, PoolSpec, Topology};
use splicenic_hil::wait::{self, CardSpeed};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::Ipv4Addr;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

const HOST: &str = "www.example.com";
/// Pool web: the default pool, web1 web2 web3 = real servers 0, 1, 2.
const WEB_POOL: u8 = 1;
const NAMES: [&str; 3] = ["web1", "web2", "web3"];
/// How long the card may take to free the flows of closed connections (bounded, not a
/// timing assertion: the simulated card runs at well under 1 % of real time), at
/// [`wait::REFERENCE_HZ`]; scaled with the card's measured speed.
const IDLE_BOUND: Duration = Duration::from_secs(120);

/// Backends web1, web2, web3 in pool web (default pool, no rules).
fn opts() -> Opts {
    Opts {
        backends: NAMES.map(String::from).to_vec(),
        pools: vec![PoolSpec {
            id: WEB_POOL,
            sched: Scheduler::Wlc,
            backends: vec![0, 1, 2],
        }],
        default_pool: WEB_POOL,
        rules: vec![],
    }
}

/// The topology with 10 ms closing timeouts, or `None` (with a note) when the rig cannot
/// run here.
fn setup(name: &str) -> Option<(MutexGuard<'static, ()>, Topology, Instant)> {
    let opts = SetupOpts {
        topo: opts(),
        closing_timeouts_ms: Some(10),
        ..SetupOpts::default()
    };
    peer::setup(name, &peer_tools(), &opts)
}

/// Weights of web1, web2, web3 (SERVER_GET, then SERVER_SET with the weight changed), read
/// back.
fn set_weights(t: &mut Topology, weights: [u32; 3]) {
    let card = t.card_mut();
    for (rs, &w) in weights.iter().enumerate() {
        let rs = rs as u8;
        let mut s = card
            .flow_manager()
            .server_get(rs)
            .expect("SERVER_GET")
            .expect("real server present")
            .server;
        s.weight = w;
        card.flow_manager().server_set(&s).expect("SERVER_SET");
        let back = card
            .flow_manager()
            .server_get(rs)
            .expect("SERVER_GET")
            .expect("real server present");
        assert_eq!(back.server.weight, w, "weight of real server {rs}");
    }
}

/// POOL_SET pool web to `cfg`, a fresh scheduler: when the pool already has exactly `cfg`,
/// another scheduler is set first (a POOL_SET that changes nothing keeps the state).
fn use_sched(t: &mut Topology, cfg: PoolConfig) {
    let card = t.card_mut();
    let cur = card
        .flow_manager()
        .pool_get(WEB_POOL)
        .expect("POOL_GET")
        .expect("pool web");
    if cur.config == cfg {
        let other = if cfg.scheduler == Scheduler::Lc {
            Scheduler::Rr
        } else {
            Scheduler::Lc
        };
        card.flow_manager()
            .pool_set(WEB_POOL, &PoolConfig::new(other))
            .expect("POOL_SET");
    }
    card.flow_manager()
        .pool_set(WEB_POOL, &cfg)
        .expect("POOL_SET");
    let back = card
        .flow_manager()
        .pool_get(WEB_POOL)
        .expect("POOL_GET")
        .expect("pool web");
    assert_eq!(back.config, cfg, "pool web's settings read back");
}

/// Set the weights, then the scheduler; prints what the phase runs.
fn phase(t: &mut Topology, name: &str, weights: [u32; 3], cfg: PoolConfig) -> Instant {
    set_weights(t, weights);
    use_sched(t, cfg);
    eprintln!(
        "{name}: pool web {}{}, weights {}/{}/{}",
        cfg.scheduler,
        if cfg.hash_port { " (hash_port)" } else { "" },
        weights[0],
        weights[1],
        weights[2]
    );
    Instant::now()
}

/// `n` sequential curls to `/id`, a new connection each: every one 200 from a server of the
/// pool with its name as body. The servers in order.
fn curls(t: &Topology, n: usize, tally: &mut Tally) -> Vec<String> {
    (0..n)
        .map(|i| {
            let r = t
                .get(HOST, "/id", tally)
                .unwrap_or_else(|e| panic!("request {i}: {e:#}"));
            assert!(
                NAMES.contains(&r.backend.as_str()),
                "request {i}: X-Backend {:?} is not a server of pool web",
                r.backend
            );
            assert_eq!(
                r.body,
                format!("{}\n", r.backend).as_bytes(),
                "request {i}: body"
            );
            r.backend
        })
        .collect()
}

/// `web2` -> `2`; other outcomes as they are.
fn short(s: &str) -> &str {
    s.strip_prefix("web").unwrap_or(s)
}

/// The sequence as `1 2 3 ...`.
fn seq_text(seq: &[String]) -> String {
    seq.iter().map(|s| short(s)).collect::<Vec<_>>().join(" ")
}

/// Connections per outcome.
fn distribution(seq: &[String]) -> BTreeMap<&str, usize> {
    let mut m = BTreeMap::new();
    for s in seq {
        *m.entry(s.as_str()).or_insert(0) += 1;
    }
    m
}

fn report(name: &str, seq: &[String]) {
    eprintln!(
        "  {name}: sequence {}, distribution {:?}",
        seq_text(seq),
        distribution(seq)
    );
}

/// `1 1 2` -> `["web1", "web1", "web2"]`.
fn expect(s: &str) -> Vec<String> {
    s.split_whitespace().map(|n| format!("web{n}")).collect()
}

/// (active, inactive) of web1, web2, web3 (SERVER_STATS).
fn counts(t: &mut Topology) -> Vec<(u32, u32)> {
    let card = t.card_mut();
    (0..NAMES.len() as u8)
        .map(|rs| {
            let s = card.flow_manager().server_stats(rs).expect("SERVER_STATS");
            (s.active, s.inactive)
        })
        .collect()
}

/// Wait until the card holds no flow and every server's active and inactive counts are 0.
fn wait_idle(t: &mut Topology, what: &str) {
    let bound = CardSpeed::of(t.card_mut()).scale(IDLE_BOUND);
    let t1 = Instant::now();
    wait::until_seen(&format!("{what}: the card becoming idle"), bound, || {
        let f = t.flows();
        let c = counts(t);
        if f.is_empty() && c.iter().all(|&(a, i)| a == 0 && i == 0) {
            Ok(())
        } else {
            Err(format!("(active, inactive) {c:?}, flows {f:?}"))
        }
    });
    eprintln!("  card idle after {:.1?}", t1.elapsed());
}

/// The holder: opens `n` connections to the VIP one after another, each a keep-alive
/// `GET /id` whose response it reads (`I ok STATUS BACKEND BODY`, or `I reset`, `I eof`,
/// `I timeout`, `I error NAME` when there was none) and then keeps open; prints `held`,
/// waits for a line on stdin, closes them all and prints `released`. Runs after
/// [`PY_HTTP`].
const HOLDER_PY: &str = r#"
import socket, sys
host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
req = b"GET /id HTTP/1.1\r\nHost: www.example.com\r\n\r\n"
def get(s):
    s.sendall(req)
    status, h, body, _ = response(s)
    return status, h.get("x-backend", "-"), body.decode("latin1").strip() or "-"
held = []
for i in range(n):
    try:
        s = socket.create_connection((host, port), timeout=120)
        held.append(s)
        out = "ok %s %s %s" % get(s)
    except ConnectionResetError:
        out = "reset"
    except EOFError:
        out = "eof"
    except socket.timeout:
        out = "timeout"
    except OSError as e:
        out = "error " + type(e).__name__
    print(i, out, flush=True)
print("held", flush=True)
sys.stdin.readline()
for s in held:
    s.close()
print("released", flush=True)
"#;

/// A running holder: its outcomes in order (a server's name, or `reset`, `eof`, ...).
struct Holder {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seq: Vec<String>,
}

impl Holder {
    /// Start a holder of `n` connections and wait until it holds them all. A response that
    /// is not a 200 with the server's name as body is an error in `tally`.
    fn run(t: &Topology, n: usize, tally: &mut Tally) -> Holder {
        let (vip, vport) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
        let mut child = py_command(
            &t.client_ns,
            &format!("{PY_HTTP}{HOLDER_PY}"),
            &[&vip, &vport, &n.to_string()],
        )
        .stdin(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("starting the holder");
        let stdin = child.stdin.take().expect("piped");
        let out = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut h = Holder {
            child,
            stdin,
            lines,
            seq: Vec::new(),
        };
        for i in 0..n {
            let line = h
                .lines
                .recv_timeout(EXEC_TIMEOUT)
                .unwrap_or_else(|e| panic!("holder connection {i}: no outcome: {e}"));
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.first(), Some(&i.to_string().as_str()), "holder: {line}");
            let outcome = match f[1..] {
                ["ok", status, backend, body] => {
                    tally.connections += 1;
                    tally.bytes += body.len() + 1;
                    if status != "200" || body != backend || !NAMES.contains(&backend) {
                        tally.errors.push(format!("holder connection {i}: {line}"));
                    }
                    backend.to_string()
                }
                _ => {
                    tally.connections += 1;
                    f[1..].join(" ")
                }
            };
            eprintln!("  held connection {i}: {outcome}");
            h.seq.push(outcome);
        }
        let line = h.lines.recv_timeout(EXEC_TIMEOUT).expect("holder: held");
        assert_eq!(line, "held");
        h
    }

    /// Close the connections and wait for the holder to end.
    fn release(mut self) {
        writeln!(self.stdin, "go").expect("holder stdin");
        let line = self
            .lines
            .recv_timeout(EXEC_TIMEOUT)
            .expect("holder: released");
        assert_eq!(line, "released");
        let t1 = Instant::now();
        while matches!(self.child.try_wait(), Ok(None)) {
            assert!(t1.elapsed() < EXEC_TIMEOUT, "the holder did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        kill_running(&mut self.child);
    }
}

/// The card's active counts while `seq` is held: each server's SERVER_STATS active count is
/// the number of held connections it got.
fn check_active(t: &mut Topology, name: &str, seq: &[String]) {
    // The card completes a server handshake itself (docs/server-open.md, "The absorber in
    // the data path"): the firmware counts the connection active when it reads the
    // SYN-ACK's punt, which may come after the holder got its response.
    t.settled_flow_stats(&format!("{name}: no setup pending"), IDLE_BOUND);
    let c = counts(t);
    eprintln!("  card while held: (active, inactive) per server {c:?}");
    for (i, n) in NAMES.iter().enumerate() {
        let want = seq.iter().filter(|s| s == n).count() as u32;
        assert_eq!(c[i].0, want, "{name}: active count of {n} (held {seq:?})");
    }
}

/// A holder phase: wait until the card is idle, hold `n` connections, check the active
/// counts, print, release. The outcomes in order.
fn hold(t: &mut Topology, name: &str, n: usize, tally: &mut Tally) -> Vec<String> {
    wait_idle(t, name);
    let h = Holder::run(t, n, tally);
    check_active(t, name, &h.seq);
    let seq = h.seq.clone();
    report(name, &seq);
    h.release();
    seq
}

/// A curl phase: `n` curls, printed.
fn curl_phase(t: &Topology, name: &str, n: usize, tally: &mut Tally) -> Vec<String> {
    let seq = curls(t, n, tally);
    report(name, &seq);
    seq
}

/// rr, wrr (twice), fo and twos with sequential curls; lc, wlc, sed, nq and ovf with the
/// holder. ovf is checked last: with weights 1/3/2 the tenth connection finds every server
/// with more active connections than its weight and must be reset.
#[test]
fn weighted_and_least_connection() {
    let test = "weighted and least-connection schedulers";
    let Some((_g, mut t, t_all)) = setup(test) else {
        return;
    };

    // rr: the cursor walks web1 web2 web3.
    let name = "rr 1/1/1";
    let t0 = phase(&mut t, name, [1, 1, 1], PoolConfig::new(Scheduler::Rr));
    let mut tally = Tally::default();
    let seq = curl_phase(&t, name, 6, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 2 3 1 2 3"), "{name}");

    // wrr 4/3/2: gcd 1, mw 4; cw 4: A; 3: A B; 2: A B C; 1: A B C.
    let name = "wrr 4/3/2";
    let t0 = phase(&mut t, name, [4, 3, 2], PoolConfig::new(Scheduler::Wrr));
    let mut tally = Tally::default();
    let seq = curl_phase(&t, name, 9, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 1 2 1 2 3 1 2 3"), "{name}");

    // wrr 2/1/0: gcd 1 (of the weights > 0), mw 2; cw 2: A; 1: A B; weight 0 gets nothing.
    let name = "wrr 2/1/0";
    let t0 = phase(&mut t, name, [2, 1, 0], PoolConfig::new(Scheduler::Wrr));
    let mut tally = Tally::default();
    let seq = curl_phase(&t, name, 6, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 1 2 1 1 2"), "{name}");

    // fo 1/5/3: the highest weight, although web1 comes first.
    let name = "fo 1/5/3";
    let t0 = phase(&mut t, name, [1, 5, 3], PoolConfig::new(Scheduler::Fo));
    let mut tally = Tally::default();
    let seq = curl_phase(&t, name, 4, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("2 2 2 2"), "{name}");

    // lc: lowest overhead (active * 256 + inactive), the first on ties.
    let name = "lc 1/1/1";
    let t0 = phase(&mut t, name, [1, 1, 1], PoolConfig::new(Scheduler::Lc));
    let mut tally = Tally::default();
    let seq = hold(&mut t, name, 6, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 2 3 1 2 3"), "{name}");

    // wlc 3/1/1: lowest overhead / weight (`loh * w > doh * w_least` replaces, so the
    // earlier server wins ties): 0 0 0 -> web1; web2 and web3 at 0 next; then web1 at
    // 256/3, 512/3, 768/3 (a tie with 256/1: web1) against 256/1; web1 at 1024/3 loses.
    let name = "wlc 3/1/1";
    let t0 = phase(&mut t, name, [3, 1, 1], PoolConfig::new(Scheduler::Wlc));
    let mut tally = Tally::default();
    let seq = hold(&mut t, name, 7, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 2 3 1 1 1 2"), "{name}");

    // sed 3/1/1: lowest (active + 1) / weight: web1 1/3, 2/3, 3/3 (a tie with 1/1: web1);
    // then web1 4/3 loses to web2 1/1, then web3 1/1 (web2 is at 2/1); web1 4/3 and 5/3
    // beat 2/1.
    let name = "sed 3/1/1";
    let t0 = phase(&mut t, name, [3, 1, 1], PoolConfig::new(Scheduler::Sed));
    let mut tally = Tally::default();
    let seq = hold(&mut t, name, 7, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 1 1 2 3 1 1"), "{name}");

    // nq 3/1/1: the first server with no active connection, then as sed: web1 2/3, 3/3,
    // 4/3, 5/3 against 2/1.
    let name = "nq 3/1/1";
    let t0 = phase(&mut t, name, [3, 1, 1], PoolConfig::new(Scheduler::Nq));
    let mut tally = Tally::default();
    let seq = hold(&mut t, name, 7, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 2 3 1 1 1 1"), "{name}");

    // twos: two random weighted draws; only the distribution is printed.
    let name = "twos 3/2/1";
    let t0 = phase(&mut t, name, [3, 2, 1], PoolConfig::new(Scheduler::Twos));
    let mut tally = Tally::default();
    curl_phase(&t, name, 9, &mut tally);
    t.finish(name, &tally, t0);

    // ovf 1/3/2: the highest-weight server with active <= weight: web2 with 0..=3 active
    // (4 connections), web3 with 0..=2 (3), web1 with 0..=1 (2); the tenth finds every
    // server with active > weight: no server, so the card resets the client's connection
    // and counts a failed setup.
    let name = "ovf 1/3/2";
    let t0 = phase(&mut t, name, [1, 3, 2], PoolConfig::new(Scheduler::Ovf));
    let mut tally = Tally::default();
    let failed0 = t.flow_stats().setup_failed;
    wait_idle(&mut t, name);
    let h = Holder::run(&t, 10, &mut tally);
    check_active(&mut t, name, &h.seq);
    let seq = h.seq.clone();
    report(name, &seq);
    h.release();
    let failed = t.flow_stats().setup_failed;
    eprintln!("  setup_failed {failed0} -> {failed}");
    t.finish(name, &tally, t0);
    eprintln!("{test}: {:.1?} wall in all", t_all.elapsed());
    let mut want = expect("2 2 2 2 3 3 3 1 1");
    want.push("reset".into());
    assert_eq!(
        seq, want,
        "{name}: the tenth connection must find no server (every server has active > weight)"
    );
    assert_eq!(failed, failed0 + 1, "{name}: setup_failed");
}

/// The kernel's `hash_32(val, bits)`: `val * 0x61C88647 >> (32 - bits)`.
fn hash_32(val: u32, bits: u32) -> u32 {
    val.wrapping_mul(0x61C8_8647) >> (32 - bits)
}

/// The server of bucket `b` of a 256-bucket table filled round-robin over web1 web2 web3,
/// each once per turn (dh; sh with weights 1).
fn bucket_server(b: u32) -> String {
    NAMES[b as usize % NAMES.len()].to_string()
}

/// Every connection to one server.
fn one_server(name: &str, seq: &[String]) -> String {
    assert!(
        seq.iter().all(|s| *s == seq[0]),
        "{name}: one client reached several servers: {}",
        seq_text(seq)
    );
    seq[0].clone()
}

/// sh, sh-port, dh, mh and mh-port with sequential curls; lblc and lblcr with the holder.
/// Weights 1/1/1 throughout.
#[test]
fn hashing_and_locality() {
    let test = "hashing and locality schedulers";
    let Some((_g, mut t, t_all)) = setup(test) else {
        return;
    };
    let client = u32::from(t.addrs.client);
    let vip = u32::from(t.addrs.vip);

    // sh: bucket hash_32(client + 0, 8) (no port); the table holds web1 web2 web3 in turn.
    let name = "sh";
    let t0 = phase(&mut t, name, [1, 1, 1], PoolConfig::new(Scheduler::Sh));
    let bucket = hash_32(client, 8);
    let want = bucket_server(bucket);
    eprintln!(
        "  client {}: bucket {bucket}, expected {want}",
        Ipv4Addr::from(client)
    );
    let mut tally = Tally::default();
    let seq = curl_phase(&t, name, 5, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(one_server(name, &seq), want, "{name}: the hashed server");

    // sh-port: the source port is hashed too; the distribution is printed.
    let name = "sh-port";
    let cfg = PoolConfig {
        hash_port: true,
        ..PoolConfig::new(Scheduler::Sh)
    };
    let t0 = phase(&mut t, name, [1, 1, 1], cfg);
    let mut tally = Tally::default();
    curl_phase(&t, name, 9, &mut tally);
    t.finish(name, &tally, t0);

    // dh: bucket (vip * 2654435761) mod 256 of the destination, the VIP.
    let name = "dh";
    let t0 = phase(&mut t, name, [1, 1, 1], PoolConfig::new(Scheduler::Dh));
    let bucket = vip.wrapping_mul(2_654_435_761) & 255;
    let want = bucket_server(bucket);
    eprintln!(
        "  VIP {}: bucket {bucket}, expected {want}",
        Ipv4Addr::from(vip)
    );
    let mut tally = Tally::default();
    let seq = curl_phase(&t, name, 5, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(one_server(name, &seq), want, "{name}: the hashed server");

    // mh: one client, one server.
    let name = "mh";
    let t0 = phase(&mut t, name, [1, 1, 1], PoolConfig::new(Scheduler::Mh));
    let mut tally = Tally::default();
    let seq = curl_phase(&t, name, 5, &mut tally);
    t.finish(name, &tally, t0);
    let s = one_server(name, &seq);
    eprintln!("  mh: client {} -> {s}", Ipv4Addr::from(client));

    // mh-port: the distribution is printed.
    let name = "mh-port";
    let cfg = PoolConfig {
        hash_port: true,
        ..PoolConfig::new(Scheduler::Mh)
    };
    let t0 = phase(&mut t, name, [1, 1, 1], cfg);
    let mut tally = Tally::default();
    curl_phase(&t, name, 9, &mut tally);
    t.finish(name, &tally, t0);

    // lblc, all for the VIP: the first pick is wlc (web1); the VIP's server is kept unless
    // it is "overloaded": active > weight while some server has active * 2 < weight. web1
    // with 2 active (web2 idle) -> wlc: web2; web2 with 2 (web3 idle) -> web3; web3 with 2
    // and no idle server left: kept.
    let name = "lblc";
    let t0 = phase(&mut t, name, [1, 1, 1], PoolConfig::new(Scheduler::Lblc));
    let mut tally = Tally::default();
    let seq = hold(&mut t, name, 8, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 1 2 2 3 3 3 3"), "{name}");

    // lblcr: the VIP's set starts {web1}; its least-loaded member is used unless
    // overloaded, then a wlc pick joins the set (newest first): web1 web1, {web2 web1}:
    // web2 web2, {web3 web2 web1}: web3 web3 (no idle server left: not overloaded), then
    // the least loaded member: web2 (2 active) before web3 (3) and web1 (2, later).
    let name = "lblcr";
    let t0 = phase(&mut t, name, [1, 1, 1], PoolConfig::new(Scheduler::Lblcr));
    let mut tally = Tally::default();
    let seq = hold(&mut t, name, 8, &mut tally);
    t.finish(name, &tally, t0);
    assert_eq!(seq, expect("1 1 2 2 3 3 3 2"), "{name}");
    eprintln!("{test}: {:.1?} wall in all", t_all.elapsed());
}
