//! Stream behaviours of spliced connections with real Linux peers (docs/rig.md,
//! docs/tcp-cases.md): loss and reordering on both halves, a zero window with window
//! probes, keepalive probes, an `Upgrade: websocket` byte stream, a SYN on an established
//! 4-tuple and the reuse of a closed connection's 4-tuple. curl, python3 (and scapy) in the
//! client namespace, nginx and python3 servers in the backend namespaces.
//!
//! Needs root, nginx, curl, python3 and the firmware ELF; without them it prints a note and
//! passes. Two topologies: the lossy links rewire the namespaces for a while, the other
//! cases share one topology. They run one at a time (a lock).
//!
//! Loss and reordering come from a user-space forwarder (`IMPAIR_PY`), not `tc netem`: it
//! needs only AF_PACKET, while kernels without `sch_netem` (as on the development container,
//! no modules) are common.

use splicenic_driver::datapath::FlowState;
use splicenic_driver::flowmgr::FlowInfo;
use splicenic_driver::{Card, TcpTimeoutState};
use splicenic_hil::peer::{
    self, first_line, log_errors, peer_tools, sha256_hex, spawn_in, wait_child, SetupOpts, Tally,
    EXEC_TIMEOUT, PY_HTTP,
};
use splicenic_hil::topo::{python, Topology};
use splicenic_hil::wait::{self, CardSpeed};
use std::process::{Child, Command, Stdio};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

/// Port of the python3 upload server (pool api, lossy links).
const UPLOAD_PORT: u16 = 8081;
/// Port of the python3 websocket echo server (pool api).
const WS_PORT: u16 = 8082;
/// The card's CLOSE timeout (the RST-pending time) for the blind-RST case, in ms of card
/// time (`DP.NOW`): seconds of wall time on the simulated card.
const SHORT_CLOSE_MS: u32 = 50;
/// Index of backend `static1` (pool static, `/static/`) in [`Opts::three_pools`].
const STATIC1: usize = 2;
/// Index of backend `api1` (pool api, Host `api.example.com`) in [`Opts::three_pools`].
const API1: usize = 3;
/// The api pool's number in [`Opts::three_pools`].
const POOL_API: u8 = 3;
/// Keepalive probes the idle connection of the keepalive case waits for: one more than its
/// `TCP_KEEPCNT`, so that at least one was answered.
const KEEPALIVE_PROBES: u64 = 4;
/// How long a paused client may take to reach the state it pauses for, at
/// [`wait::REFERENCE_HZ`] (scaled with the card's measured speed).
const PAUSE_LIMIT: Duration = Duration::from_secs(60);

/// The topology for one test, or `None` (with a note) when the rig cannot run here.
fn setup(name: &str) -> Option<(MutexGuard<'static, ()>, Topology, Instant)> {
    peer::setup(name, &peer_tools(), &SetupOpts::default())
}

fn card(t: &mut Topology) -> &mut Card {
    t.card_mut()
}

/// Run `cmd` in `ns`; it must succeed. Its stdout.
fn must(t: &Topology, ns: &str, cmd: &[&str]) -> String {
    let out = t
        .exec(ns, cmd, Duration::from_secs(30))
        .unwrap_or_else(|e| panic!("{cmd:?} in {ns}: {e:#}"));
    assert!(out.ok, "{cmd:?} in {ns} failed: {}", out.stderr.trim());
    out.text()
}

/// Run a command in the root namespace; it must succeed.
fn host(cmd: &[&str]) {
    let out = Command::new(cmd[0])
        .args(&cmd[1..])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    );
}

/// SIGTERM to a background child, then its output.
fn stop_child(child: Child) -> (bool, String, String) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill has no memory preconditions; the pid is our own child's.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    wait_child(child, Duration::from_secs(10))
}

/// The card's flow whose client port is `port`, if any.
fn flow_of(t: &mut Topology, port: u16) -> Option<FlowInfo> {
    t.flows().into_iter().find(|f| f.client.port() == port)
}

/// Run a python3 client that pauses until its release file exists (its last argument,
/// after `args`) in `ns`: wait until `ready` sees the state the client pauses for (`what`
/// names it; `Err` says what `ready` sees instead) within [`PAUSE_LIMIT`], scaled with the
/// card's measured speed; release the client and wait for its end: (success, stdout,
/// stderr). Panics with the client's output when it ends before.
fn run_paused(
    t: &mut Topology,
    ns: &str,
    script: &str,
    args: &[&str],
    what: &str,
    mut ready: impl FnMut(&mut Topology) -> Result<(), String>,
) -> (bool, String, String) {
    let release = t.dir().join(format!("release-{}", what.replace(' ', "-")));
    let _ = std::fs::remove_file(&release);
    let mut cmd = vec![python(), "-c", script];
    cmd.extend_from_slice(args);
    cmd.push(release.to_str().expect("utf-8 path"));
    let mut child = spawn_in(ns, &cmd);
    let limit = CardSpeed::of(card(t)).scale(PAUSE_LIMIT);
    let ended = wait::until_seen(what, limit, || {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return Ok(true);
        }
        ready(t).map(|()| false)
    });
    if ended {
        let (_, so, se) = wait_child(child, Duration::from_secs(10));
        panic!("{what}: the client ended first: {so} {se}");
    }
    std::fs::write(&release, b"").expect("release file");
    wait_child(child, EXEC_TIMEOUT)
}

// ----- lossy links -------------------------------------------------------------------------

/// User-space `netem`: forwards Ethernet frames between two interfaces (AF_PACKET) both
/// ways; IPv4 TCP frames are dropped with probability `loss` or held back `delay_ms` with
/// probability `reorder` (the frames behind overtake them); ARP passes, anything else is
/// dropped (IPv6 chatter). On SIGTERM it prints per direction: frames, TCP frames, dropped,
/// held, reordered (held frames that were overtaken), send errors (e.g. a frame above the
/// MTU: an offload left on).
const IMPAIR_PY: &str = r#"
import socket, sys, random, heapq, time, select, signal
a, b = sys.argv[1], sys.argv[2]
loss, reorder, delay = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]) / 1000
rnd = random.Random(int(sys.argv[6]))
def open_if(name):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind((name, 0))
    return s
sa, sb = open_if(a), open_if(b)
out = {sa: sb, sb: sa}
name = {sa: a + ">" + b, sb: b + ">" + a}
st = {k: dict(frames=0, tcp=0, dropped=0, held=0, reordered=0, send_errors=0)
      for k in name.values()}
sent = {sa: 0, sb: 0}
held = []
n = 0
def report(*_):
    for k, v in st.items():
        print(k, " ".join("%s=%d" % kv for kv in v.items()), flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, report)
def send(o, f, k):
    try:
        o.send(f)
        sent[o] += 1
    except OSError:
        k["send_errors"] += 1
print("ready", flush=True)
while True:
    now = time.monotonic()
    while held and held[0][0] <= now:
        _, _, f, o, c, k = heapq.heappop(held)
        if sent[o] > c:
            k["reordered"] += 1
        send(o, f, k)
    r, _, _ = select.select([sa, sb], [], [], max(0.0, held[0][0] - now) if held else 1.0)
    for s in r:
        f, addr = s.recvfrom(65536)
        if addr[2] == socket.PACKET_OUTGOING:
            continue
        o, k = out[s], st[name[s]]
        k["frames"] += 1
        et = f[12:14]
        if et == b"\x08\x06":
            send(o, f, k)
            continue
        if et != b"\x08\x00":
            continue
        if len(f) >= 34 and f[23] == 6:
            k["tcp"] += 1
            x = rnd.random()
            if x < loss:
                k["dropped"] += 1
                continue
            if x < loss + reorder:
                k["held"] += 1
                n += 1
                heapq.heappush(held, (time.monotonic() + delay, n, f, o, sent[o], k))
                continue
        send(o, f, k)
"#;

/// Turns TSO, GSO, GRO, scatter-gather and TX checksum offload off on the interfaces named
/// (the ethtool ioctl; no ethtool binary needed), so frames read with AF_PACKET are whole
/// MTU-sized frames with complete checksums.
const OFFLOAD_OFF_PY: &str = r#"
import socket, fcntl, struct, array, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for ifname in sys.argv[1:]:
    for cmd in (0x1f, 0x24, 0x2c, 0x19, 0x17):
        ev = array.array("I", [cmd, 0])
        fcntl.ioctl(s, 0x8946, struct.pack("16sP", ifname.encode(), ev.buffer_info()[0]))
    ev = array.array("I", [0x16, 0])
    fcntl.ioctl(s, 0x8946, struct.pack("16sP", ifname.encode(), ev.buffer_info()[0]))
    assert ev[1] == 0, "%s: TX checksum offload still on" % ifname
"#;

/// Loss 3 %, 10 % held back, 5 ms: `netem loss 3% reorder 10% 50% delay 2ms` in spirit (netem
/// delays 90 % and lets 10 % overtake; here 10 % are held and overtaken).
const LOSS: &str = "0.03";
const REORDER: &str = "0.10";
const HOLD_MS: &str = "5";

/// The impaired wiring: the client's address moves from the card link (`client_if`, in the
/// client namespace) to a veth in a new namespace `cx`, and a forwarder in the client
/// namespace joins the two; each impaired backend's LAN-side veth leaves the bridge and a
/// forwarder joins it to a new veth pair in the bridge. Dropping it puts everything back.
struct Impairment {
    /// The namespace the client programs run in while impaired.
    cx: String,
    client_ns: String,
    client_if: String,
    client_cidr: String,
    lan_ns: String,
    bridge: String,
    /// (LAN-side veth of the backend, the new veth in the LAN namespace).
    backends: Vec<(String, String)>,
    forwarders: Vec<(String, Child)>,
    /// Forwarder reports, collected by [`Impairment::stop_forwarders`].
    reports: Vec<String>,
    restored: bool,
}

impl Impairment {
    /// Wire the forwarders in: the client link and the links of backends `backends`.
    fn insert(t: &Topology, backends: &[usize]) -> Impairment {
        let id = &t.id;
        let mut imp = Impairment {
            cx: format!("{}x", t.client_ns),
            client_ns: t.client_ns.clone(),
            client_if: t.client_if.clone(),
            client_cidr: format!("{}/24", t.addrs.client),
            lan_ns: t.lan_ns.clone(),
            bridge: format!("snic{id}br"),
            backends: Vec::new(),
            forwarders: Vec::new(),
            reports: Vec::new(),
            restored: false,
        };
        let (cns, cx) = (imp.client_ns.clone(), imp.cx.clone());
        let (ca, cb) = (format!("snic{id}ca"), format!("snic{id}cb"));
        host(&["ip", "netns", "add", &cx]);
        let _ = t.exec(
            &cx,
            &["sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1"],
            Duration::from_secs(10),
        );
        let _ = t.exec(
            &cx,
            &["sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1"],
            Duration::from_secs(10),
        );
        let _ = t.exec(
            &cns,
            &["sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1"],
            Duration::from_secs(10),
        );
        host(&["ip", "-n", &cx, "link", "set", "lo", "up"]);
        host(&[
            "ip", "-n", &cns, "link", "add", &ca, "type", "veth", "peer", "name", &cb, "netns", &cx,
        ]);
        // The client keeps its MAC address: cb takes the card link's.
        let link = must(
            t,
            &cns,
            &["ip", "-j", "link", "show", "dev", &imp.client_if],
        );
        let mac = link
            .split("\"address\":\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap_or_else(|| panic!("no address in {link}"))
            .to_string();
        host(&["ip", "-n", &cx, "link", "set", &cb, "address", &mac]);
        host(&["ip", "-n", &cns, "addr", "flush", "dev", &imp.client_if]);
        host(&["ip", "-n", &cx, "addr", "add", &imp.client_cidr, "dev", &cb]);
        host(&["ip", "-n", &cx, "link", "set", &cb, "mtu", "1500", "up"]);
        host(&["ip", "-n", &cns, "link", "set", &ca, "mtu", "1500", "up"]);
        must(t, &cx, &[python(), "-c", OFFLOAD_OFF_PY, &cb]);
        must(t, &cns, &[python(), "-c", OFFLOAD_OFF_PY, &ca]);
        let fwd = spawn_in(
            &cns,
            &[
                python(),
                "-c",
                IMPAIR_PY,
                &imp.client_if,
                &ca,
                LOSS,
                REORDER,
                HOLD_MS,
                "1",
            ],
        );
        imp.forwarders.push(("client link".into(), fwd));
        for &i in backends {
            let b = &t.backends[i];
            let (v, p) = (format!("snic{id}v{i}"), format!("snic{id}p{i}"));
            let (xa, xb) = (format!("snic{id}xa{i}"), format!("snic{id}xb{i}"));
            must(t, &b.ns, &[python(), "-c", OFFLOAD_OFF_PY, &p]);
            let lan = imp.lan_ns.clone();
            host(&[
                "ip", "-n", &lan, "link", "add", &xa, "type", "veth", "peer", "name", &xb,
            ]);
            imp.backends.push((v.clone(), xa.clone()));
            host(&["ip", "-n", &lan, "link", "set", &xb, "master", &imp.bridge]);
            host(&["ip", "-n", &lan, "link", "set", &xa, "up"]);
            host(&["ip", "-n", &lan, "link", "set", &xb, "up"]);
            host(&["ip", "-n", &lan, "link", "set", &v, "nomaster"]);
            must(t, &lan, &[python(), "-c", OFFLOAD_OFF_PY, &v, &xa, &xb]);
            let seed = (10 + i).to_string();
            let fwd = spawn_in(
                &lan,
                &[
                    python(),
                    "-c",
                    IMPAIR_PY,
                    &v,
                    &xa,
                    LOSS,
                    REORDER,
                    HOLD_MS,
                    &seed,
                ],
            );
            imp.forwarders.push((format!("{} link", b.name), fwd));
        }
        for (what, f) in &mut imp.forwarders {
            let line = first_line(f);
            assert_eq!(line.trim(), "ready", "forwarder on the {what}: {line:?}");
        }
        imp
    }

    /// Stop the forwarders; their reports, one line per direction, are in `reports`.
    fn stop_forwarders(&mut self) {
        for (what, f) in self.forwarders.drain(..) {
            let (_, so, se) = stop_child(f);
            for l in so.lines() {
                self.reports.push(format!("{what}: {l}"));
            }
            if !se.trim().is_empty() {
                self.reports.push(format!("{what}: stderr: {}", se.trim()));
            }
        }
    }

    /// A forwarder report's counter `key` summed over the directions whose report line
    /// contains `dir` (e.g. `">snic..ca"`, towards the client).
    fn count(&self, dir: &str, key: &str) -> u64 {
        self.reports
            .iter()
            .filter(|l| l.contains(dir))
            .filter_map(|l| {
                l.split_whitespace()
                    .find_map(|w| w.strip_prefix(&format!("{key}=")))
                    .and_then(|v| v.parse::<u64>().ok())
            })
            .sum()
    }

    /// Put the namespaces back as the topology built them.
    fn restore(&mut self) {
        if self.restored {
            return;
        }
        self.restored = true;
        self.stop_forwarders();
        if let Ok(out) = Command::new("ip")
            .args(["netns", "pids", &self.cx])
            .output()
        {
            for pid in String::from_utf8_lossy(&out.stdout).split_whitespace() {
                if let Ok(pid) = pid.parse::<i32>() {
                    // SAFETY: kill has no memory preconditions; the pid is one in our own
                    // namespace.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
        }
        let run = |args: &[&str]| {
            let _ = Command::new(args[0])
                .args(&args[1..])
                .stdin(Stdio::null())
                .output();
        };
        // Deleting cx deletes its veth and the peer in the client namespace.
        run(&["ip", "netns", "del", &self.cx]);
        run(&[
            "ip",
            "-n",
            &self.client_ns,
            "addr",
            "add",
            &self.client_cidr,
            "dev",
            &self.client_if,
        ]);
        for (v, xa) in &self.backends {
            run(&["ip", "-n", &self.lan_ns, "link", "del", xa]);
            run(&[
                "ip",
                "-n",
                &self.lan_ns,
                "link",
                "set",
                v,
                "master",
                &self.bridge,
            ]);
        }
    }
}

impl Drop for Impairment {
    fn drop(&mut self) {
        self.restore();
    }
}

const UPLOAD_SERVER_PY: &str = r#"
import http.server, hashlib, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        n = int(self.headers["Content-Length"])
        d = self.rfile.read(n)
        r = (hashlib.sha256(d).hexdigest() + " %d\n" % len(d)).encode()
        self.send_response(200)
        self.send_header("X-Backend", "upload")
        self.send_header("Content-Length", str(len(r)))
        self.end_headers()
        self.wfile.write(r)
    def log_message(self, *a):
        pass
http.server.HTTPServer((sys.argv[1], int(sys.argv[2])), H).serve_forever()
"#;

/// Start a python3 server `script` (argv: IP, port) in api1's namespace and point pool api
/// (Host `api.example.com`) at it; its log.
fn start_api_server(t: &mut Topology, script: &str, port: u16, log: &str) -> std::path::PathBuf {
    let (ns, ip) = (t.backends[API1].ns.clone(), t.backends[API1].ip.to_string());
    let log = t.dir().join(log);
    t.spawn(&ns, &[python(), "-c", script, &ip, &port.to_string()], &log)
        .expect("starting a python3 server");
    t.wait_listen(&ns, &format!("{ip}:{port}"))
        .expect("the python3 server listens");
    t.set_backend_port(POOL_API, API1, port)
        .expect("SERVER_SET");
    log
}

/// a) Loss and reordering on the client's link (both ways) and on static1's and api1's
///    links (both ways): a 1 MiB download from nginx and a 1 MiB upload to a python3
///    server, byte-exact by sha256; the senders retransmitted, the receivers queued
///    out-of-order segments (so both went through the card), no checksum errors anywhere.
#[test]
fn lossy_reordering_links() {
    let name = "lossy links";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    let mut tally = Tally::default();
    let upload_log = start_api_server(&mut t, UPLOAD_SERVER_PY, UPLOAD_PORT, "upload.log");
    let mut imp = Impairment::insert(&t, &[STATIC1, API1]);
    let cx = imp.cx.clone();
    let (static_ns, api_ns) = (t.backends[STATIC1].ns.clone(), t.backends[API1].ns.clone());
    let url = |p: &str| format!("http://{}:{}{p}", t.addrs.vip, t.addrs.vip_port);

    // 1 MiB download from static1's nginx.
    let (rs0, ofo0) = (
        t.counter(&static_ns, "TcpRetransSegs"),
        t.counter(&cx, "TcpExtTCPOFOQueue"),
    );
    let t1 = Instant::now();
    let out = t
        .exec(
            &cx,
            &[
                "curl",
                "-sS",
                "-f",
                "--max-time",
                "400",
                "-H",
                "Host: www.example.com",
                &url("/static/blob"),
            ],
            Duration::from_secs(420),
        )
        .expect("curl");
    let dt = t1.elapsed();
    let (retrans, ofo) = (
        t.counter(&static_ns, "TcpRetransSegs") - rs0,
        t.counter(&cx, "TcpExtTCPOFOQueue") - ofo0,
    );
    eprintln!(
        "  download: {} bytes in {dt:.1?}, sha256 {}, static1 retransmitted {retrans} segments, client queued {ofo} out of order",
        out.stdout.len(),
        if out.stdout == t.blob { "matches" } else { "DIFFERS" },
    );
    assert!(out.ok, "download failed after {dt:.1?}: {}", out.stderr);
    assert_eq!(out.stdout.len(), t.blob.len(), "download length");
    assert_eq!(
        sha256_hex(&out.stdout),
        sha256_hex(&t.blob),
        "download sha256"
    );
    tally.connections += 1;
    tally.bytes += out.stdout.len();
    assert!(retrans > 0, "static1 retransmitted nothing through loss");
    assert!(ofo > 0, "the client saw no out-of-order segment");

    // 1 MiB upload to the python3 server on api1.
    let data: Vec<u8> = t
        .blob
        .iter()
        .rev()
        .enumerate()
        .map(|(i, b)| b ^ (i as u8).wrapping_mul(29))
        .collect();
    let file = t.dir().join("upload.bin");
    std::fs::write(&file, &data).expect("writing the upload");
    let at = format!("@{}", file.display());
    let (rs0, ofo0) = (
        t.counter(&cx, "TcpRetransSegs"),
        t.counter(&api_ns, "TcpExtTCPOFOQueue"),
    );
    let t1 = Instant::now();
    let out = t
        .exec(
            &cx,
            &[
                "curl",
                "-sS",
                "-f",
                "--max-time",
                "400",
                "-H",
                "Host: api.example.com",
                "-H",
                "Expect:",
                "-H",
                "Content-Type: application/octet-stream",
                "--data-binary",
                &at,
                &url("/upload"),
            ],
            Duration::from_secs(420),
        )
        .expect("curl");
    let dt = t1.elapsed();
    let (retrans, ofo) = (
        t.counter(&cx, "TcpRetransSegs") - rs0,
        t.counter(&api_ns, "TcpExtTCPOFOQueue") - ofo0,
    );
    let text = out.text();
    let want = format!("{} {}", sha256_hex(&data), data.len());
    eprintln!(
        "  upload: {} bytes in {dt:.1?}, server's sha256 {}, client retransmitted {retrans} segments, api1 queued {ofo} out of order",
        data.len(),
        if text.trim() == want { "matches" } else { "DIFFERS" },
    );
    assert!(out.ok, "upload failed after {dt:.1?}: {}", out.stderr);
    assert_eq!(
        text.trim(),
        want,
        "the server's sha256 and length of the body"
    );
    tally.connections += 1;
    tally.bytes += data.len();
    assert!(retrans > 0, "the client retransmitted nothing through loss");
    assert!(ofo > 0, "api1 saw no out-of-order segment");

    // cx goes away with the impairment: its checksum counter now.
    let csum = t.counter(&cx, "TcpInCsumErrors");
    if csum != 0 {
        tally
            .errors
            .push(format!("{cx} (impaired client): TcpInCsumErrors {csum}"));
    }
    imp.stop_forwarders();
    for l in &imp.reports {
        eprintln!("  forwarder {l}");
    }
    let ca = format!("snic{}ca", t.id);
    let to_card = format!("{ca}>{}", t.client_if);
    let from_card = format!("{}>{ca}", t.client_if);
    for (dir, what) in [(&to_card, "client -> card"), (&from_card, "card -> client")] {
        let (dropped, reordered) = (imp.count(dir, "dropped"), imp.count(dir, "reordered"));
        eprintln!("  client link, {what}: {dropped} dropped, {reordered} reordered");
    }
    assert!(
        imp.count(&to_card, "dropped") > 0 && imp.count(&to_card, "reordered") > 0,
        "no loss or reordering client -> card: {:?}",
        imp.reports
    );
    assert_eq!(
        imp.count("", "send_errors"),
        0,
        "the forwarders could not send some frames: {:?}",
        imp.reports
    );
    let backend_to_card: u64 = imp
        .backends
        .iter()
        .map(|(v, _)| imp.count(&format!("{v}>"), "reordered"))
        .sum();
    assert!(backend_to_card > 0, "no reordering backend -> card");
    eprintln!("  backend links, backend -> card: {backend_to_card} reordered");
    imp.restore();
    drop(imp);

    // Back to the plain wiring: the client namespace reaches the card again.
    let r = t
        .get("www.example.com", "/id", &mut tally)
        .unwrap_or_else(|e| panic!("after the impairment: {e:#}"));
    assert!(
        r.backend == "web1" || r.backend == "web2",
        "{:?}",
        r.backend
    );
    let s = card(&mut t)
        .flow_manager()
        .flow_stats()
        .expect("FLOW_STATS");
    eprintln!(
        "  card: {} spliced, {} setups failed, {} punts ignored",
        s.spliced_total, s.setup_failed, s.punts_ignored
    );
    tally.errors.extend(log_errors(&upload_log));
    t.finish(name, &tally, t0);
}

// ----- zero window, keepalive, upgrade, SYN on used 4-tuples --------------------------------

/// GET /static/blob with a 4 KiB receive buffer (argv: VIP, port, release file); reads
/// 16 KiB, stops reading until the release file exists, reads the rest. Prints "port P",
/// then "STATUS BACKEND LEN SHA256".
const ZERO_WINDOW_PY: &str = r#"
import os, socket, hashlib, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.settimeout(120)
s.connect((sys.argv[1], int(sys.argv[2])))
print("port", s.getsockname()[1], flush=True)
s.sendall(b"GET /static/blob HTTP/1.1\r\nHost: www.example.com\r\n\r\n")
buf = b""
while b"\r\n\r\n" not in buf:
    c = s.recv(4096)
    if not c:
        sys.exit("EOF in the response head")
    buf += c
head, body = buf.split(b"\r\n\r\n", 1)
lines = head.decode("latin1").split("\r\n")
h = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
n = int(h["content-length"])
while len(body) < 16384:
    body += s.recv(4096)
print("paused after", len(body), "bytes", flush=True)
t0 = time.time()
while not os.path.exists(sys.argv[3]):
    if time.time() - t0 > 300:
        sys.exit("never released")
    time.sleep(0.05)
while len(body) < n:
    c = s.recv(65536)
    if not c:
        break
    body += c
print(lines[0].split()[1], h.get("x-backend", "-"), len(body), hashlib.sha256(body).hexdigest())
"#;

/// One kept-alive connection with keepalive probes every second after 1 s idle (3 unanswered
/// probes end it, i.e. after about 4 s): GET /id, idle until the release file `argv[3]`
/// exists, GET /id again. Prints "port P", then one "STATUS BACKEND BODY" line per request.
/// Runs after [`PY_HTTP`].
const KEEPALIVE_PY: &str = r#"
import os, socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
s.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 1)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 1)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 3)
print("port", s.getsockname()[1], flush=True)
buf = b""
def get():
    global buf
    s.sendall(b"GET /id HTTP/1.1\r\nHost: www.example.com\r\n\r\n")
    status, h, body, buf = response(s, buf)
    print(status, h.get("x-backend", "-"), body.decode().strip(), flush=True)
get()
t0 = time.time()
while not os.path.exists(sys.argv[3]):
    if time.time() - t0 > 300:
        sys.exit("never released")
    time.sleep(0.05)
get()
"#;

/// A websocket endpoint as a byte stream (argv: IP, port): answers a request with
/// `Upgrade: websocket` with 101 and a correct `Sec-WebSocket-Accept`, then echoes every
/// byte until the client's FIN; anything else gets 400.
const WS_SERVER_PY: &str = r#"
import socket, sys, threading, hashlib, base64
def serve(c):
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = c.recv(4096)
        if not d:
            return
        buf += d
    head, rest = buf.split(b"\r\n\r\n", 1)
    lines = head.decode("latin1").split("\r\n")
    h = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
    if h.get("upgrade", "").lower() != "websocket":
        c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        c.close()
        return
    key = h["sec-websocket-key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    acc = base64.b64encode(hashlib.sha1(key.encode()).digest()).decode()
    c.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\nX-Backend: ws\r\n\r\n"
               % acc).encode())
    if rest:
        c.sendall(rest)
    while True:
        d = c.recv(65536)
        if not d:
            break
        c.sendall(d)
    c.close()
srv = socket.create_server((sys.argv[1], int(sys.argv[2])))
while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
"#;

/// The websocket client (argv: VIP, port, bytes): upgrade request (Host api.example.com),
/// checks the 101 and the accept value, then sends `bytes` in chunks of 1..8192 bytes from
/// a thread while reading the echo. Prints "101 ACCEPT-OK SENT RECEIVED SHA-SENT SHA-RECEIVED".
const WS_CLIENT_PY: &str = r#"
import socket, sys, threading, hashlib, base64, random
vip, port, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.create_connection((vip, port), timeout=60)
key = base64.b64encode(b"splicenic-ws-key").decode()
s.sendall(("GET /chat HTTP/1.1\r\nHost: api.example.com\r\nUpgrade: websocket\r\n"
           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
           % key).encode())
buf = b""
while b"\r\n\r\n" not in buf:
    c = s.recv(4096)
    if not c:
        sys.exit("EOF before the 101: %r" % buf)
    buf += c
head, got = buf.split(b"\r\n\r\n", 1)
lines = head.decode("latin1").split("\r\n")
h = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
want = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
rnd = random.Random(5)
data = bytes(rnd.getrandbits(8) for _ in range(total))
def send():
    i = 0
    while i < total:
        n = rnd.randint(1, 8192)
        s.sendall(data[i:i + n])
        i += n
threading.Thread(target=send, daemon=True).start()
while len(got) < total:
    c = s.recv(65536)
    if not c:
        break
    got += c
s.shutdown(socket.SHUT_WR)
tail = s.recv(1)
print(lines[0].split()[1], h.get("sec-websocket-accept") == want, total, len(got),
      hashlib.sha256(data).hexdigest(), hashlib.sha256(got).hexdigest(), "eof" if tail == b"" else "more")
"#;

/// One kept-alive connection (argv: VIP, port, release file): GET /id, print "port P
/// BACKEND", wait until the release file exists, GET /id again and print "STATUS BACKEND
/// BODY". Runs after [`PY_HTTP`].
const HOLD_PY: &str = r#"
import socket, sys, time, os
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
buf = b""
def get():
    global buf
    s.sendall(b"GET /id HTTP/1.1\r\nHost: www.example.com\r\n\r\n")
    status, h, body, buf = response(s, buf)
    return status, h.get("x-backend", "-"), body.decode().strip()
st, b, body = get()
print("port", s.getsockname()[1], b, flush=True)
t0 = time.time()
while not os.path.exists(sys.argv[3]):
    if time.time() - t0 > 120:
        sys.exit("never released")
    time.sleep(0.05)
print(*get(), flush=True)
"#;

/// A segment with the 4-tuple of an existing connection, sent with scapy on the card link
/// (argv: iface, card MAC, VIP, port, client IP, client port, flags "S" or "R", release
/// file): a SYN with MSS, SACK-permitted and window scale, or a bare RST, at a random
/// sequence number (blind); prints every TCP frame the card sent to that port from before
/// the segment until the release file exists ("answer FLAGS seq=.. ack=.. len=..") and
/// "answers N". The frames are read from an AF_PACKET socket bound before the segment is
/// sent, so none is missed.
const SPOOF_PY: &str = r#"
import os, socket, sys, time, random, logging
logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
from scapy.all import Ether, IP, TCP, sendp, conf
conf.verb = 0
iface, dmac, vip, vport, client, cport, flags, release = sys.argv[1:9]
vport, cport = int(vport), int(cport)
def ours(p):
    return IP in p and TCP in p and p[IP].src == vip and p[TCP].dport == cport
rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
rx.bind((iface, 0))
seq = random.Random(3).getrandbits(32)
opts = [("MSS", 1460), ("SAckOK", b""), ("WScale", 7)] if flags == "S" else []
sendp(Ether(dst=dmac) / IP(src=client, dst=vip) /
      TCP(sport=cport, dport=vport, flags=flags, seq=seq, window=64240 if flags == "S" else 0,
          options=opts), iface=iface)
print("sent %s seq=%d" % (flags, seq), flush=True)
t0 = time.time()
while not os.path.exists(release):
    if time.time() - t0 > 300:
        sys.exit("never released")
    time.sleep(0.05)
rx.setblocking(False)
got = []
while True:
    try:
        p = Ether(rx.recv(65535))
    except BlockingIOError:
        break
    if ours(p):
        got.append(p)
for p in got:
    t = p[TCP]
    print("answer %s seq=%d ack=%d len=%d" % (t.flags, t.seq, t.ack, len(t.payload)))
print("answers", len(got))
"#;

/// First connection of the 4-tuple reuse case (argv: VIP, port, client IP, local port):
/// GET /id with `Connection: close`, read to the server's FIN, then close, so the server
/// closes first and the client keeps no TIME_WAIT. Prints "STATUS BACKEND BODY".
const CLOSE_FIRST_PY: &str = r#"
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[3], int(sys.argv[4])))
s.settimeout(60)
s.connect((sys.argv[1], int(sys.argv[2])))
s.sendall(b"GET /id HTTP/1.1\r\nHost: www.example.com\r\nConnection: close\r\n\r\n")
buf = b""
while True:
    c = s.recv(4096)
    if not c:
        break
    buf += c
s.close()
head, body = buf.split(b"\r\n\r\n", 1)
lines = head.decode("latin1").split("\r\n")
h = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
print(lines[0].split()[1], h.get("x-backend", "-"), body.decode().strip())
"#;

/// b) Zero window: the client's 4 KiB receive buffer fills while it does not read; it
///    reads again once it has advertised a zero window and nginx (static1) has sent a
///    window probe; then it reads the rest of the 1 MiB, byte-exact.
fn zero_window(t: &mut Topology) {
    let name = "zero window";
    let t0 = Instant::now();
    let mut tally = Tally::default();
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let (sns, cns) = (t.backends[STATIC1].ns.clone(), t.client_ns.clone());
    let names = [
        (&sns, "TcpExtTCPWinProbe"),
        (&sns, "TcpExtTCPRetransFail"),
        (&cns, "TcpExtTCPToZeroWindowAdv"),
        (&cns, "TcpExtTCPFromZeroWindowAdv"),
        (&cns, "TcpExtTCPZeroWindowDrop"),
    ];
    let before: Vec<u64> = names.iter().map(|(ns, n)| t.counter(ns, n)).collect();
    let (ok, text, stderr) = run_paused(
        t,
        &cns,
        ZERO_WINDOW_PY,
        &[&vip, &port],
        "a zero window from the client and a window probe from static1",
        |t| {
            let probes = t.counter(&sns, "TcpExtTCPWinProbe") - before[0];
            let zero = t.counter(&cns, "TcpExtTCPToZeroWindowAdv") - before[2];
            if probes > 0 && zero > 0 {
                Ok(())
            } else {
                Err(format!(
                    "client zero windows +{zero}, static1 window probes +{probes}"
                ))
            }
        },
    );
    eprint!("{text}");
    assert!(ok, "zero-window client failed: {stderr}");
    let delta: Vec<u64> = names
        .iter()
        .zip(&before)
        .map(|((ns, n), b)| t.counter(ns, n) - b)
        .collect();
    for ((ns, n), d) in names.iter().zip(&delta) {
        let who = if *ns == &sns { "static1" } else { "client" };
        eprintln!("  {who} {n} +{d}");
    }
    let last = text.lines().last().unwrap_or("");
    let f: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(f.len(), 4, "{text}");
    assert_eq!(f[0], "200", "{text}");
    assert_eq!(f[1], "static1", "{text}");
    assert_eq!(f[2], t.blob.len().to_string(), "body length");
    assert_eq!(f[3], sha256_hex(&t.blob), "body sha256");
    tally.connections += 1;
    tally.bytes += t.blob.len();
    t.finish(name, &tally, t0);
}

/// c) Keepalive probes on an idle spliced connection: probes every second; it idles until
///    the client has sent [`KEEPALIVE_PROBES`]. Three unanswered ones end the connection
///    before a fourth is sent, so the fourth and the second request prove they were
///    answered through the card; same backend.
fn keepalive_probes(t: &mut Topology) {
    let name = "keepalive probes";
    let t0 = Instant::now();
    let mut tally = Tally::default();
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let cns = t.client_ns.clone();
    let ka0 = t.counter(&cns, "TcpExtTCPKeepAlive");
    let keepalive_py = format!("{PY_HTTP}{KEEPALIVE_PY}");
    let idle = Instant::now();
    let (ok, text, stderr) = run_paused(
        t,
        &cns,
        &keepalive_py,
        &[&vip, &port],
        &format!("{KEEPALIVE_PROBES} keepalive probes of the idle client"),
        |t| match t.counter(&cns, "TcpExtTCPKeepAlive") - ka0 {
            n if n >= KEEPALIVE_PROBES => Ok(()),
            n => Err(format!("{n} probes")),
        },
    );
    eprint!("{text}");
    let probes = t.counter(&cns, "TcpExtTCPKeepAlive") - ka0;
    eprintln!(
        "  client TcpExtTCPKeepAlive +{probes} ({:.1?} from the start to the second request)",
        idle.elapsed()
    );
    assert!(ok, "keepalive client failed: {stderr}");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "two responses: {text}");
    for r in &rows {
        assert_eq!(r.len(), 3, "{text}");
        assert_eq!(r[0], "200", "{text}");
        assert!(r[1] == "web1" || r[1] == "web2", "{text}");
        assert_eq!(r[1], r[2], "{text}");
        tally.bytes += r[2].len() + 1;
    }
    assert_eq!(rows[0][1], rows[1][1], "same backend after the idle time");
    tally.connections += 1;
    t.finish(name, &tally, t0);
}

/// d) `Upgrade: websocket`: a python3 backend answers 101 and echoes; 200 000 bytes each
///    way in chunks of 1..8192 bytes, byte-exact.
fn websocket_upgrade(t: &mut Topology) {
    let name = "websocket upgrade";
    let t0 = Instant::now();
    let mut tally = Tally::default();
    let log = start_api_server(t, WS_SERVER_PY, WS_PORT, "ws.log");
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let total = 200_000usize;
    let out = t
        .exec(
            &t.client_ns,
            &[
                python(),
                "-c",
                WS_CLIENT_PY,
                &vip,
                &port,
                &total.to_string(),
            ],
            EXEC_TIMEOUT,
        )
        .expect("python3");
    let text = out.text();
    eprint!("  {text}");
    assert!(out.ok, "websocket client failed: {}", out.stderr);
    let f: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(f.len(), 7, "{text}");
    assert_eq!(f[0], "101", "status: {text}");
    assert_eq!(f[1], "True", "Sec-WebSocket-Accept: {text}");
    assert_eq!(f[3], total.to_string(), "bytes echoed: {text}");
    assert_eq!(f[4], f[5], "sha256 sent and echoed: {text}");
    assert_eq!(
        f[6], "eof",
        "the server closes after the client's FIN: {text}"
    );
    tally.connections += 1;
    tally.bytes += 2 * total;
    let nginx_port = t.addrs.backend_port;
    t.set_backend_port(POOL_API, API1, nginx_port)
        .expect("SERVER_SET");
    tally.errors.extend(log_errors(&log));
    t.finish(name, &tally, t0);
}

/// A keep-alive connection from the client namespace held open after its first request
/// (HOLD_PY), its second request sent when `release` exists.
struct Held {
    child: Child,
    release: std::path::PathBuf,
    cport: u16,
    backend: String,
    /// The backend's network namespace.
    bns: String,
}

fn hold(t: &mut Topology, tag: &str) -> Held {
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let release = t.dir().join(format!("release-hold-{tag}"));
    let cns = t.client_ns.clone();
    let mut child = spawn_in(
        &cns,
        &[
            python(),
            "-c",
            &format!("{PY_HTTP}{HOLD_PY}"),
            &vip,
            &port,
            release.to_str().expect("utf-8"),
        ],
    );
    let line = first_line(&mut child);
    let f: Vec<&str> = line.split_whitespace().collect();
    assert!(f.len() == 3 && f[0] == "port", "holder: {line:?}");
    let cport: u16 = f[1].parse().expect("port");
    let backend = f[2].to_string();
    let bns = t.backend(&backend).expect("backend").ns.clone();
    Held {
        child,
        release,
        cport,
        backend,
        bns,
    }
}

/// Sends a blind segment (`flags` "S" or "R") with the held connection's 4-tuple from the
/// client namespace (SPOOF_PY), waits until `handled` says the card has handled it, and
/// returns the card's answers seen on the client link ("nothing" or their lines) and the
/// script's output.
fn spoof(
    t: &mut Topology,
    h: &Held,
    flags: &str,
    what: &str,
    handled: impl FnMut(&mut Topology) -> Result<(), String>,
) -> (String, String) {
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let (cns, client_if, mac, client) = (
        t.client_ns.clone(),
        t.client_if.clone(),
        t.card_mac_client(),
        t.addrs.client.to_string(),
    );
    let (ok, text, stderr) = run_paused(
        t,
        &cns,
        SPOOF_PY,
        &[
            &client_if,
            &mac,
            &vip,
            &port,
            &client,
            &h.cport.to_string(),
            flags,
        ],
        what,
        handled,
    );
    assert!(ok, "scapy failed: {stderr}");
    let answers: Vec<&str> = text.lines().filter(|l| l.starts_with("answer ")).collect();
    let seen = if answers.is_empty() {
        "nothing".to_string()
    } else {
        answers.join("; ")
    };
    (seen, text)
}

/// Releases the held connection: its second request is served by the same backend and
/// neither end counted a reset of an established connection since `resets` (client,
/// backend `TcpEstabResets`).
fn finish_held(t: &mut Topology, h: Held, resets: (u64, u64), tally: &mut Tally) {
    let cns = t.client_ns.clone();
    std::fs::write(&h.release, b"").expect("release file");
    let (ok, so, se) = wait_child(h.child, EXEC_TIMEOUT);
    eprint!("  second request: {so}");
    assert!(ok, "the held connection's second request failed: {so} {se}");
    let f: Vec<&str> = so.split_whitespace().collect();
    assert_eq!(f, ["200", &h.backend, &h.backend], "second request");
    assert_eq!(
        (
            t.counter(&cns, "TcpEstabResets"),
            t.counter(&h.bns, "TcpEstabResets")
        ),
        resets,
        "the client or the backend saw a reset"
    );
    tally.connections += 1;
    tally.bytes += 2 * (h.backend.len() + 1);
}

/// `TcpEstabResets` of the client and the held connection's backend.
fn estab_resets(t: &mut Topology, h: &Held) -> (u64, u64) {
    let cns = t.client_ns.clone();
    (
        t.counter(&cns, "TcpEstabResets"),
        t.counter(&h.bns, "TcpEstabResets"),
    )
}

/// f) A SYN with an established connection's 4-tuple (scapy, from the client namespace)
///    (RFC 5961 §4): the card passes it to the server translated, the backend's kernel
///    counts a SYN challenge and its challenge ACK reaches the client through the splice;
///    nothing is reset, no new connection starts, and the connection's next request still
///    works. What the card sent back is printed.
fn syn_on_established(t: &mut Topology) -> String {
    let name = "SYN on an established 4-tuple";
    let t0 = Instant::now();
    let mut tally = Tally::default();
    let h = hold(t, "syn");
    let (cport, backend) = (h.cport, h.backend.clone());
    let chal0 = t.counter(&h.bns, "TcpExtTCPSYNChallenge");
    let resets = estab_resets(t, &h);
    let s0 = card(t).flow_manager().flow_stats().expect("FLOW_STATS");
    let tcp0 = card(t).flow_manager().tcp_stats().expect("TCP_STATS");
    let flow0 = flow_of(t, cport).expect("the held connection's flow");
    assert_eq!(flow0.flow_state, FlowState::Spliced, "{flow0:?}");
    // The card has handled the SYN once it counts it as passed to the server
    // (docs/flowmgr.md, "Resets and SYNs on spliced flows"); the backend's challenge ACK
    // comes back through the splice.
    let bns = h.bns.clone();
    let (seen, text) = spoof(
        t,
        &h,
        "S",
        "the backend's challenge ACK to the spoofed SYN",
        |t| {
            let s = card(t).flow_manager().tcp_stats().expect("TCP_STATS");
            let chal = t.counter(&bns, "TcpExtTCPSYNChallenge") - chal0;
            if s.syn_challenged > tcp0.syn_challenged && chal > 0 {
                Ok(())
            } else {
                Err(format!(
                    "SYNs passed +{}, dropped +{}, {backend} SYN challenges +{chal}",
                    s.syn_challenged - tcp0.syn_challenged,
                    s.syn_dropped - tcp0.syn_dropped
                ))
            }
        },
    );
    let s1 = card(t).flow_manager().flow_stats().expect("FLOW_STATS");
    let tcp1 = card(t).flow_manager().tcp_stats().expect("TCP_STATS");
    let flow1 = flow_of(t, cport);
    let chal = t.counter(&h.bns, "TcpExtTCPSYNChallenge") - chal0;
    eprintln!(
        "  client port {cport} ({backend}): the client link saw {seen}; SYNs passed +{}, SYN-ACKs +{}, {backend} SYN challenges +{chal}, flow {:?}",
        tcp1.syn_challenged - tcp0.syn_challenged,
        s1.syn_acks_sent - s0.syn_acks_sent,
        flow1.as_ref().map(|f| f.flow_state),
    );
    let answers: Vec<&str> = text.lines().filter(|l| l.starts_with("answer ")).collect();
    assert!(
        answers.iter().all(|a| !a.contains('R') && !a.contains('S')),
        "the card reset the connection or answered the SYN: {text}"
    );
    assert!(
        answers.iter().any(|a| a.starts_with("answer A ")),
        "no challenge ACK reached the client: {text}"
    );
    assert_eq!(chal, 1, "SYN challenges at {backend}");
    assert_eq!(
        s1.syn_acks_sent, s0.syn_acks_sent,
        "the card answered the SYN as a new connection"
    );
    assert_eq!(
        flow1.map(|f| f.flow_state),
        Some(FlowState::Spliced),
        "the flow left SPLICED"
    );
    finish_held(t, h, resets, &mut tally);
    t.finish(name, &tally, t0);
    seen
}

/// g) A blind RST (scapy, from the client namespace, a random sequence number) on an idle
///    keep-alive connection (RFC 5961 §3; before RST-pending it cut the connection once the
///    flow's CLOSE time ran out). The card sends it on translated and probes the backend,
///    which drops the RST (outside its window) and answers the probe with a duplicate ACK;
///    when the pending time ends the flow is SPLICED again, nobody saw a reset, and the
///    connection's next request is served. The card's CLOSE timeout (the pending time) is
///    [`SHORT_CLOSE_MS`] of card time here and restored after.
fn blind_rst_on_idle(t: &mut Topology) -> String {
    let name = "blind RST on an idle connection";
    let t0 = Instant::now();
    let mut tally = Tally::default();
    card(t)
        .flow_manager()
        .timeout_set_ms(TcpTimeoutState::Close, SHORT_CLOSE_MS)
        .expect("TIMEOUT_SET");
    let h = hold(t, "rst");
    let (cport, backend) = (h.cport, h.backend.clone());
    let resets = estab_resets(t, &h);
    let tcp0 = card(t).flow_manager().tcp_stats().expect("TCP_STATS");
    let (seen, _) = spoof(
        t,
        &h,
        "R",
        "the card ending the blind RST's pending time",
        |t| {
            let s = card(t).flow_manager().tcp_stats().expect("TCP_STATS");
            let ended = (s.rst_restored + s.rst_freed_silent + s.rst_freed_receiver)
                - (tcp0.rst_restored + tcp0.rst_freed_silent + tcp0.rst_freed_receiver);
            if ended > 0 {
                Ok(())
            } else {
                Err(format!(
                    "RSTs pending +{}",
                    s.rst_pending - tcp0.rst_pending
                ))
            }
        },
    );
    let tcp1 = card(t).flow_manager().tcp_stats().expect("TCP_STATS");
    let flow1 = flow_of(t, cport);
    let text = format!(
        "client port {cport} ({backend}): RST-pending +{}, probes +{}, restored +{}, freed +{}; the client link saw {seen}; flow {:?}",
        tcp1.rst_pending - tcp0.rst_pending,
        tcp1.probes - tcp0.probes,
        tcp1.rst_restored - tcp0.rst_restored,
        (tcp1.rst_freed_silent + tcp1.rst_freed_receiver)
            - (tcp0.rst_freed_silent + tcp0.rst_freed_receiver),
        flow1.as_ref().map(|f| f.flow_state),
    );
    eprintln!("  {text}");
    card(t)
        .flow_manager()
        .timeout_set(TcpTimeoutState::Close, 10)
        .expect("TIMEOUT_SET");
    assert_eq!(
        (
            tcp1.rst_pending - tcp0.rst_pending,
            tcp1.probes - tcp0.probes,
            tcp1.rst_restored - tcp0.rst_restored
        ),
        (1, 1, 1),
        "{text}"
    );
    assert_eq!(
        flow1.map(|f| f.flow_state),
        Some(FlowState::Spliced),
        "{text}"
    );
    finish_held(t, h, resets, &mut tally);
    t.finish(name, &tally, t0);
    text
}

/// e) Reuse of a closed connection's 4-tuple (RFC 6191). The server closes first (the client
///    keeps no TIME_WAIT); the card keeps the flow in CLOSING (TIME_WAIT class, 120 s of card
///    time by default) with the client's last sequence number. curl from the same port at
///    once gets through: Linux's ISN for the same 4-tuple lies beyond the old connection's
///    numbers, so the card replaces the old flow (TCP_STATS `tw_replaced`) and sets up a new
///    one. Also printed: the card clock's rate against the wall clock.
fn tuple_reuse(t: &mut Topology) -> String {
    let name = "4-tuple reuse";
    let t0 = Instant::now();
    let mut tally = Tally::default();
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let cns = t.client_ns.clone();
    let lport: u16 = 45_678;
    let lp = lport.to_string();
    let out = t
        .exec(
            &cns,
            &[
                python(),
                "-c",
                CLOSE_FIRST_PY,
                &vip,
                &port,
                &t.addrs.client.to_string(),
                &lp,
            ],
            EXEC_TIMEOUT,
        )
        .expect("python3");
    assert!(out.ok, "first connection failed: {}", out.stderr);
    let first = out.text();
    let f: Vec<&str> = first.split_whitespace().collect();
    assert!(
        f.len() == 3 && f[0] == "200" && f[1] == f[2],
        "first: {first}"
    );
    tally.connections += 1;
    tally.bytes += f[2].len() + 1;
    let tw = must(
        t,
        &cns,
        &[
            "ss",
            "-tanH",
            "state",
            "time-wait",
            &format!("( sport = :{lport} )"),
        ],
    );
    assert!(tw.trim().is_empty(), "the client is in TIME_WAIT: {tw}");
    // The card's flow: both FINs seen.
    let speed = CardSpeed::of(card(t));
    let closing = wait::until_seen(
        "both sides closing the flow",
        speed.scale(Duration::from_secs(30)),
        || match flow_of(t, lport) {
            Some(f) if f.fin_from_client() && f.fin_from_server() => Ok(f),
            f => Err(format!("{f:?}")),
        },
    );
    eprintln!(
        "  first connection from port {lport} ({}) closed: flow {:?}, class {:?}, expires in {:?}",
        f[1], closing.flow_state, closing.state, closing.expires_in
    );
    assert_eq!(closing.flow_state, FlowState::Closing);
    assert_eq!(closing.state, TcpTimeoutState::TimeWait);

    // The card's clock (its timer, which DP.NOW counts) against the wall clock.
    let clk_hz = f64::from(card(t).info().clk_hz);
    let card_per_wall = speed.hz / clk_hz;
    let i1 = flow_of(t, lport).expect("flow").idle;
    eprintln!(
        "  card clock: {speed} at {:.2} MHz ({card_per_wall:.4} card s per wall s); flow idle {i1:.3?}",
        clk_hz / 1e6
    );

    // Same 4-tuple at once: the newer ISN replaces the TIME_WAIT flow.
    let (syn0, s0, tcp0) = (
        t.counter(&cns, "TcpExtTCPSynRetrans"),
        card(t).flow_manager().flow_stats().expect("FLOW_STATS"),
        card(t).flow_manager().tcp_stats().expect("TCP_STATS"),
    );
    let r = t.curl(&vip, "/id", &["--local-port", &lp]).expect("curl");
    let (syn1, s1, tcp1) = (
        t.counter(&cns, "TcpExtTCPSynRetrans"),
        card(t).flow_manager().flow_stats().expect("FLOW_STATS"),
        card(t).flow_manager().tcp_stats().expect("TCP_STATS"),
    );
    let seen = format!(
        "a SYN on the TIME_WAIT flow's 4-tuple with a newer ISN replaces it (RFC 6191): curl from port {lport} at once got status {} after {:.1?} and {} SYN retransmissions (TIME_WAIT replaced +{}, SYNs dropped +{}, spliced +{}, aged out +{})",
        r.status,
        r.wall,
        syn1 - syn0,
        tcp1.tw_replaced - tcp0.tw_replaced,
        tcp1.syn_dropped - tcp0.syn_dropped,
        s1.spliced_total - s0.spliced_total,
        s1.aged_out - s0.aged_out,
    );
    eprintln!("  {seen}");
    assert!(
        r.ok && r.status == 200,
        "reconnect from port {lport} failed after {:.1?}: {}",
        r.wall,
        r.stderr
    );
    let body = String::from_utf8_lossy(&r.body);
    assert_eq!(body.trim(), r.backend, "body");
    assert_eq!(
        tcp1.tw_replaced,
        tcp0.tw_replaced + 1,
        "the old flow was not replaced"
    );
    assert_eq!(tcp1.syn_dropped, tcp0.syn_dropped, "a SYN was dropped");
    assert_eq!(s1.aged_out, s0.aged_out, "the old flow aged out instead");
    assert_eq!(s1.spliced_total, s0.spliced_total + 1, "one new splice");
    tally.connections += 1;
    tally.bytes += r.body.len();
    t.finish(name, &tally, t0);
    seen
}

/// b) to g) on one topology: zero window, keepalive probes, websocket upgrade, a SYN on an
/// established 4-tuple, a blind RST on an idle connection, reuse of a closed 4-tuple.
#[test]
fn window_keepalive_upgrade_and_tuple_reuse() {
    let name = "stream cases";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    zero_window(&mut t);
    keepalive_probes(&mut t);
    websocket_upgrade(&mut t);
    let scapy = Command::new(python())
        .args(["-c", "import scapy.all"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if scapy {
        let seen = syn_on_established(&mut t);
        eprintln!("{name}: SYN on an established 4-tuple: the client link saw {seen}");
        let seen = blind_rst_on_idle(&mut t);
        eprintln!("{name}: blind RST on an idle connection: {seen}");
    } else {
        splicenic_sim::prereq::skip(
            "the SYN on an established 4-tuple and the blind RST",
            &format!("{} cannot import scapy (cargo xtask setup)", python()),
        );
    }
    let seen = tuple_reuse(&mut t);
    eprintln!("{name}: 4-tuple reuse: {seen}");
    drop(t);
    eprintln!("{name}: whole test {:.1?}", t0.elapsed());
}
