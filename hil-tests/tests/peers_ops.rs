//! Operations under load with real peers through the simulated card (docs/rig.md,
//! "Operations under load"): the L7 rule set replaced, and the firmware restarted, while a
//! python3 client keeps four keep-alive connections busy. Every configuration is a
//! configuration file loaded through the host driver's `apply` (as `nicctl rules load`);
//! the last replacement is `nicctl rules load examples/rig-three-pools.conf` itself.
//!
//! Needs root, nginx, python3, curl and the firmware ELF; without them a scenario prints a
//! note and passes. Each scenario builds its own topology; they run one at a time (a lock).

use splicenic_driver::FirmwareImage;
use splicenic_hil::peer::{self, peer_tools, SetupOpts, Tally};
use splicenic_hil::rig::Addresses;
use splicenic_hil::topo::{python, Opts, Topology};
use splicenic_hil::wait::{self, CardSpeed};
use splicenic_hil::{example, firmware_bytes, SIM_BOOT_TIMEOUT, SIM_MAILBOX_TIMEOUT};
use std::path::{Path, PathBuf};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

/// How long one curl GET may take.
const GET_LIMIT: Duration = Duration::from_secs(60);
/// How long the keep-alive client may take for two rounds of requests (at
/// [`wait::REFERENCE_HZ`]; scaled with the card's measured speed).
const ROUNDS_LIMIT: Duration = Duration::from_secs(30);

/// Keep-alive client: argv = vip, port, connections, interval s, minimum run s, stop file,
/// ready file, summary file. Opens the connections, GETs /id once on each (then writes the
/// ready file), and then GETs /id on every connection each interval until the minimum time
/// has passed and the stop file exists; after each round the ready file holds "requests
/// errors". Every response must be 200 from the connection's first backend with the
/// backend's name as body; a failure counts an error and reconnects.
const CLIENT_PY: &str = r#"
import os, socket, sys, time
vip, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
interval, mindur = float(sys.argv[4]), float(sys.argv[5])
stop, ready, out = sys.argv[6], sys.argv[7], sys.argv[8]
st = {"requests": 0, "bytes": 0, "errors": 0, "reconnects": 0, "conns": 0}
def connect():
    s = socket.create_connection((vip, port), timeout=30)
    st["conns"] += 1
    return {"s": s, "buf": b"", "backend": None}
def get(c):
    s = c["s"]
    s.sendall(b"GET /id HTTP/1.1\r\nHost: www.example.com\r\n\r\n")
    buf = c["buf"]
    while b"\r\n\r\n" not in buf:
        d = s.recv(65536)
        if not d:
            raise EOFError("closed before headers")
        buf += d
    head, rest = buf.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    hdr = {}
    for l in lines[1:]:
        k, v = l.split(":", 1)
        hdr[k.strip().lower()] = v.strip()
    ln = int(hdr.get("content-length", "0"))
    while len(rest) < ln:
        d = s.recv(65536)
        if not d:
            raise EOFError("closed in body")
        rest += d
    body, c["buf"] = rest[:ln], rest[ln:]
    st["bytes"] += len(head) + 4 + ln
    return lines[0].split()[1], hdr.get("x-backend", ""), body
def check(c):
    try:
        status, be, body = get(c)
        if c["backend"] is None:
            c["backend"] = be
        if status != "200" or be != c["backend"] or body != (be + "\n").encode():
            raise ValueError("status %s backend %r (first %r) body %r" % (status, be, c["backend"], body))
        st["requests"] += 1
        return c
    except Exception as e:
        st["errors"] += 1
        print("error: %s" % e, file=sys.stderr, flush=True)
        try:
            c["s"].close()
        except Exception:
            pass
        st["reconnects"] += 1
        return connect()
conns = [check(connect()) for _ in range(n)]
open(ready, "w").write("ready\n")
t0 = time.time()
while True:
    el = time.time() - t0
    if (el >= mindur and os.path.exists(stop)) or el > 240:
        break
    conns = [check(c) for c in conns]
    with open(ready + ".tmp", "w") as f:
        f.write("%d %d\n" % (st["requests"], st["errors"]))
    os.rename(ready + ".tmp", ready)
    time.sleep(interval)
first = ",".join(c["backend"] or "?" for c in conns)
with open(out + ".tmp", "w") as f:
    f.write("conns=%d requests=%d bytes=%d errors=%d reconnects=%d backends=%s\n" % (
        st["conns"], st["requests"], st["bytes"], st["errors"], st["reconnects"], first))
os.rename(out + ".tmp", out)
"#;

/// The topology for one scenario, or `None` (with a note) when the rig cannot run here.
fn setup(name: &str) -> Option<(MutexGuard<'static, ()>, Topology, Instant)> {
    peer::setup(name, &peer_tools(), &SetupOpts::default())
}

/// The keep-alive client's files.
struct Client {
    stop: PathBuf,
    ready: PathBuf,
    out: PathBuf,
    log: PathBuf,
}

/// Start the keep-alive client (4 connections, a request on each every 100 ms, at least
/// `min_secs`) and wait until every connection has had its first response.
fn start_client(t: &mut Topology, min_secs: u32) -> Client {
    let d = t.dir().to_path_buf();
    let c = Client {
        stop: d.join("client.stop"),
        ready: d.join("client.ready"),
        out: d.join("client.out"),
        log: d.join("client.log"),
    };
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let min = min_secs.to_string();
    let ns = t.client_ns.clone();
    let args = [
        python(),
        "-c",
        CLIENT_PY,
        &vip,
        &port,
        "4",
        "0.1",
        &min,
        c.stop.to_str().unwrap(),
        c.ready.to_str().unwrap(),
        c.out.to_str().unwrap(),
    ];
    t.spawn(&ns, &args, &c.log).expect("starting the client");
    let limit = CardSpeed::of(t.card_mut()).scale(Duration::from_secs(60));
    wait_file(&c.ready, limit, &c.log);
    c
}

fn wait_file(p: &Path, limit: Duration, log: &Path) {
    let t0 = Instant::now();
    while !p.exists() {
        assert!(
            t0.elapsed() < limit,
            "{} did not appear within {limit:?}; client log: {}",
            p.display(),
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The client's summary as (key, value) pairs, after telling it to stop.
fn stop_client(t: &mut Topology, c: &Client) -> (String, Vec<(String, String)>) {
    std::fs::write(&c.stop, "stop\n").expect("stop file");
    let limit = CardSpeed::of(t.card_mut()).scale(Duration::from_secs(120));
    wait_file(&c.out, limit, &c.log);
    let line = std::fs::read_to_string(&c.out).expect("summary");
    let kv = line
        .split_whitespace()
        .filter_map(|f| f.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    (line.trim().to_string(), kv)
}

/// (requests, errors) the client has counted so far, or what its ready file holds before
/// its first full round.
fn read_progress(c: &Client) -> Result<(u64, u64), String> {
    let s = std::fs::read_to_string(&c.ready).unwrap_or_default();
    let v: Vec<u64> = s
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    match v[..] {
        [requests, errors] => Ok((requests, errors)),
        _ => Err(format!("ready file {s:?}")),
    }
}

/// (requests, errors) the client has counted so far (after a full round).
fn progress(t: &mut Topology, c: &Client) -> (u64, u64) {
    wait_requests(t, c, 0, "a full round of the keep-alive client")
}

/// Wait until the client has counted `requests` successful requests (`what` names them in
/// the failure); (requests, errors) then. The deadline ([`ROUNDS_LIMIT`]) is scaled with
/// the card's measured speed.
fn wait_requests(t: &mut Topology, c: &Client, requests: u64, what: &str) -> (u64, u64) {
    let limit = CardSpeed::of(t.card_mut()).scale(ROUNDS_LIMIT);
    wait::until_seen(what, limit, || match read_progress(c)? {
        p if p.0 >= requests => Ok(p),
        (r, e) => Err(format!("{r} requests, {e} errors")),
    })
}

fn num(kv: &[(String, String)], key: &str) -> u64 {
    kv.iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in the client summary {kv:?}"))
}

/// One curl GET (a new connection) of `path` with `host` that must answer 200 within
/// [`GET_LIMIT`]: (X-Backend, body); counted in `tally`.
fn get(t: &Topology, host: &str, path: &str, tally: &mut Tally) -> (String, Vec<u8>) {
    let r = t.get(host, path, tally).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(
        r.wall < GET_LIMIT,
        "curl {host} {path}: took {:.1?}",
        r.wall
    );
    (r.backend, r.body)
}

/// GET /static/blob with `host`: must come from one of `from`, body compared.
fn blob_from(t: &Topology, host: &str, from: &[&str], tally: &mut Tally) {
    let (be, body) = get(t, host, "/static/blob", tally);
    assert!(
        from.contains(&be.as_str()),
        "/static/blob with Host {host} from {be:?}, want one of {from:?}"
    );
    assert!(body == t.blob, "/static/blob body from {be} differs");
}

/// The topology's configuration file ([`Opts::three_pools`]) with its URL rules replaced
/// by `rules` (`url_rule` blocks).
fn with_rules(t: &Topology, rules: &str) -> String {
    let base = Opts::three_pools().config_text(&t.addrs);
    let cut = base.find("url_rule").unwrap_or(base.len());
    format!("{}{rules}", &base[..cut])
}

/// Load the topology's configuration with `rules` through the host driver's `apply` (the
/// rules into the inactive L7 bank, then the switch); the new active bank.
fn replace_rules(t: &mut Topology, name: &str, rules: &str) -> u8 {
    let text = with_rules(t, rules);
    let r = t
        .load_config(name, &text)
        .unwrap_or_else(|e| panic!("loading {name}: {e:#}"));
    assert_eq!(
        (r.removed_services, r.removed_servers, r.removed_pools),
        (0, 0, 0),
        "{name}: {r:?}"
    );
    r.active_bank
}

/// The end of a scenario: the keep-alive client's summary (its connections and the bytes
/// it checked counted in `tally`) and the card's counters, then [`Topology::finish`].
fn finish(
    name: &str,
    t: &mut Topology,
    summary: &str,
    kv: &[(String, String)],
    mut tally: Tally,
    t0: Instant,
) {
    tally.connections += num(kv, "conns") as usize;
    tally.bytes += num(kv, "bytes") as usize;
    let fs = t.flow_stats();
    eprintln!(
        "{name}: client: {summary}; card spliced {} setup_failed {}",
        fs.spliced_total, fs.setup_failed,
    );
    t.finish(name, &tally, t0);
}

/// 1. The L7 rule set is replaced twice (inactive bank written, banks switched) while four
///    keep-alive connections send a request every 100 ms: none of them sees an error or has
///    to reconnect, and new connections follow the new rules.
#[test]
fn rule_set_replaced_under_load() {
    let name = "rule_set_replaced_under_load";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    let client = start_client(&mut t, 6);
    let before = progress(&mut t, &client);
    let mut tally = Tally::default();
    // Before: /static/ (priority 10) wins over Host api.example.com (priority 20).
    blob_from(&t, "api.example.com", &["static1"], &mut tally);
    // Swap the priorities: the Host rule wins now.
    let b1 = replace_rules(
        &mut t,
        "swapped.conf",
        "url_rule api { host api.example.com; priority 10; pool api }\n\
         url_rule static { path_prefix /static/; priority 20; pool static }\n",
    );
    let at_b1 = progress(&mut t, &client).0;
    blob_from(&t, "api.example.com", &["api1"], &mut tally);
    blob_from(&t, "www.example.com", &["static1"], &mut tally);
    // Two full rounds on the kept-alive connections under the first new rule set before
    // the second replacement.
    let between = wait_requests(
        &mut t,
        &client,
        at_b1 + 8,
        "two rounds of the keep-alive client between the replacements",
    );
    // /static/ to pool web.
    let b2 = replace_rules(
        &mut t,
        "static-to-web.conf",
        "url_rule api { host api.example.com; priority 10; pool api }\n\
         url_rule static { path_prefix /static/; priority 20; pool web }\n",
    );
    assert_ne!(b1, b2, "the active bank did not change");
    blob_from(&t, "www.example.com", &["web1", "web2"], &mut tally);
    blob_from(&t, "api.example.com", &["api1"], &mut tally);
    // Back to the topology's own rules with `nicctl rules load` of the example file that
    // describes it (the rig's default addresses).
    let file = example("rig-three-pools.conf");
    let via_nicctl = t.addrs == Addresses::default() && t.nicctl_card().is_some();
    if via_nicctl {
        let f = file.to_str().unwrap();
        let diff = t
            .nicctl(&["rules", "diff", f])
            .expect("nicctl rules diff")
            .text();
        assert!(
            diff.contains("+ rule r1:") && diff.contains("- rule static:"),
            "nicctl rules diff {f}:\n{diff}"
        );
        assert!(
            diff.lines().all(|l| l[1..].starts_with(" rule ")),
            "only the URL rules differ:\n{diff}"
        );
        let load = t
            .nicctl(&["rules", "load", "-q", f])
            .expect("nicctl rules load")
            .text();
        assert!(
            load.contains("removed 0 services, 0 servers, 0 pools"),
            "{load}"
        );
        let again = t
            .nicctl(&["rules", "diff", f])
            .expect("nicctl rules diff")
            .text();
        assert!(again.starts_with("no change"), "after the load:\n{again}");
        eprintln!("{name}: nicctl: {}", load.trim());
    } else {
        eprintln!(
            "note: {name}: a lab rig with its own addresses or a VFIO card: the last \
             replacement through the library instead of nicctl"
        );
        let text = Opts::three_pools().config_text(&t.addrs);
        t.load_config("topology.conf", &text)
            .expect("loading the topology's rules");
    }
    blob_from(&t, "api.example.com", &["static1"], &mut tally);
    let after = progress(&mut t, &client);
    eprintln!(
        "{name}: banks {b1} then {b2}, then the example file{}; requests during the \
         replacements: {} ({} between the first two), errors {}",
        if via_nicctl { " with nicctl" } else { "" },
        after.0 - before.0,
        between.0 - at_b1,
        after.1
    );
    let (summary, kv) = stop_client(&mut t, &client);
    assert_eq!(num(&kv, "errors"), 0, "client: {summary}");
    assert_eq!(num(&kv, "reconnects"), 0, "client: {summary}");
    assert_eq!(num(&kv, "conns"), 4, "client: {summary}");
    assert!(num(&kv, "requests") >= 4 * 20, "client: {summary}");
    finish(name, &mut t, &summary, &kv, tally, t0);
}

/// 2. The firmware is restarted (core reset, image reloaded) and its configuration sent
///    again while four keep-alive connections send a request every 100 ms: the spliced
///    connections keep working throughout, and new connections work after the restart.
#[test]
fn firmware_restart_under_load() {
    let name = "firmware_restart_under_load";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    let image = FirmwareImage::parse(&firmware_bytes().expect("firmware")).expect("image");
    let client = start_client(&mut t, 6);
    // The client is in its rounds: a first full round on every connection.
    let before = progress(&mut t, &client);
    let text = Opts::three_pools().config_text(&t.addrs);
    let card = t.card_mut();
    let r0 = Instant::now();
    card.firmware()
        .restart(&image, SIM_BOOT_TIMEOUT * 2)
        .expect("restarting the firmware");
    card.set_mailbox_timeout(SIM_MAILBOX_TIMEOUT * 2);
    let booted = r0.elapsed();
    // The configuration sent again, as the watchdog of `nicctl monitor` does.
    let r = t
        .load_config("topology.conf", &text)
        .expect("configuring the card again");
    assert_eq!((r.services, r.pools, r.servers), (1, 3, 4), "{r:?}");
    eprintln!(
        "{name}: firmware restarted in {booted:.1?}, configured again after {:.1?}",
        r0.elapsed()
    );
    // Two more full rounds (so at least one begun after the reconfiguration): the
    // established connections answer after the restart.
    let restarted = progress(&mut t, &client).0;
    let after = wait_requests(
        &mut t,
        &client,
        restarted + 8,
        "two rounds of the keep-alive client after the restart",
    );
    eprintln!(
        "{name}: requests during the restart and reconfiguration: {}, errors {}",
        after.0 - before.0,
        after.1
    );
    assert_eq!(after.1, 0, "client errors during the restart");
    // New connections after the restart, every pool.
    let mut tally = Tally::default();
    let (be, body) = get(&t, "www.example.com", "/id", &mut tally);
    assert!(be == "web1" || be == "web2", "/id from {be:?}");
    assert_eq!(body, format!("{be}\n").into_bytes());
    let (be, body) = get(&t, "api.example.com", "/api/x", &mut tally);
    assert_eq!(be, "api1");
    assert_eq!(body, b"api api1\n");
    blob_from(&t, "www.example.com", &["static1"], &mut tally);
    let (summary, kv) = stop_client(&mut t, &client);
    assert_eq!(num(&kv, "errors"), 0, "client: {summary}");
    assert_eq!(num(&kv, "reconnects"), 0, "client: {summary}");
    assert_eq!(num(&kv, "conns"), 4, "client: {summary}");
    assert!(num(&kv, "requests") >= 4 * 20, "client: {summary}");
    finish(name, &mut t, &summary, &kv, tally, t0);
}
