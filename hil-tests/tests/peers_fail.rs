//! Failures seen from real peers (docs/rig.md, "Failure scenarios"): a backend killed in the
//! middle of a download, a backend that resets the connection, `Expect: 100-continue`, and a
//! connection the card ages out while it is idle.
//!
//! Needs root, nginx, curl, python3 and the firmware ELF; without them it prints a note and
//! passes. Two topologies (`Opts::three_pools()`), two scenarios each. In both, every closing
//! state's timeout is 10 ms on the card, so that a closed flow leaves the table within
//! seconds of wall time (the simulated card runs at well under 1 % of real time) and the
//! scenarios can check that it does.
//!
//! python3 helper servers run in backend namespaces (started by the scenario, each a child
//! of the test that it kills by its own handle when the scenario needs it dead) and the card
//! is pointed at them with `Topology::set_backend_port`.

use splicenic_driver::{FlowInfo, PoolConfig, Scheduler, TcpTimeoutState};
use splicenic_hil::peer::{
    self, header_values, kill_running, log_errors, ns_command, peer_tools, py_command, sha256_hex,
    SetupOpts, Tally, CURL_TIMEOUT, EXEC_TIMEOUT, PY_HTTP,
};
use splicenic_hil::topo::{python, Topology};
use splicenic_hil::wait::{self, CardSpeed};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{mpsc, MutexGuard};
use std::time::{Duration, Instant};

const HOST: &str = "www.example.com";
const API_HOST: &str = "api.example.com";
/// Pools of `Opts::three_pools()`: web (web1 = real server 0, web2 = 1) and api (api1 = 3).
const WEB_POOL: u8 = 1;
const API_POOL: u8 = 3;
const WEB1: usize = 0;
const API1: usize = 3;
/// The python3 HTTP helper's port and the resetting helper's port.
const HELPER_PORT: u16 = 8081;
const RST_PORT: u16 = 8082;
/// How long a peer may take to notice the end of a connection (bounded, not a timing
/// assertion: the simulated card is slow, and this only catches a hang), at
/// [`wait::REFERENCE_HZ`]: scaled with the card's measured speed ([`end_bound`]).
const END_BOUND: Duration = Duration::from_secs(60);

/// [`END_BOUND`] scaled with the speed of the topology's card.
fn end_bound(t: &mut Topology) -> Duration {
    CardSpeed::of(t.card_mut()).scale(END_BOUND)
}

/// The topology with 10 ms closing timeouts, or `None` (with a note) when the rig cannot
/// run here.
fn setup(name: &str) -> Option<(MutexGuard<'static, ()>, Topology, Instant)> {
    let opts = SetupOpts {
        closing_timeouts_ms: Some(10),
        ..SetupOpts::default()
    };
    peer::setup(name, &peer_tools(), &opts)
}

/// HTTP helper: `GET /slow` sends `/static/blob` four times (4 MiB) in 16 KiB writes, 20 ms
/// apart for the first 512 KiB and 500 ms apart after it, so a download is in flight for
/// minutes however long the test takes to look at it before killing the helper; another GET
/// answers its name; POST answers the body's sha256 and length. `http.server` answers
/// `Expect: 100-continue` with `100 Continue` before it reads the body (HTTP/1.1 handlers do).
const HELPER_PY: &str = r#"
import http.server, hashlib, sys, time
ip, port, blob_path, name = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
blob = open(blob_path, "rb").read()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def head(self, n):
        self.send_response(200)
        self.send_header("X-Backend", name)
        self.send_header("Content-Length", str(n))
        self.end_headers()
    def do_GET(self):
        if self.path == "/slow":
            self.head(4 * len(blob))
            sent = 0
            for _ in range(4):
                for i in range(0, len(blob), 16384):
                    self.wfile.write(blob[i:i + 16384])
                    sent += 16384
                    time.sleep(0.02 if sent < 512 * 1024 else 0.5)
        else:
            b = (name + "\n").encode()
            self.head(len(b))
            self.wfile.write(b)
    def do_POST(self):
        n = int(self.headers["Content-Length"])
        d = self.rfile.read(n)
        r = (hashlib.sha256(d).hexdigest() + " %d\n" % len(d)).encode()
        self.head(len(r))
        self.wfile.write(r)
    def log_message(self, fmt, *a):
        print(fmt % a, flush=True)
print("helper listening", flush=True)
http.server.ThreadingHTTPServer((ip, port), H).serve_forever()
"#;

/// Resetting helper: reads a request head, then closes with `SO_LINGER` 0 (a RST).
const RST_PY: &str = r#"
import socket, struct, sys
ip, port = sys.argv[1], int(sys.argv[2])
l = socket.socket()
l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind((ip, port))
l.listen(16)
while True:
    c, a = l.accept()
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = c.recv(4096)
        if not d:
            break
        buf += d
    c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    c.close()
    print("reset %s:%d after %d request bytes" % (a[0], a[1], len(buf)), flush=True)
"#;

/// Client for the aging scenario: one keep-alive GET, prints `PORT BACKEND`; on a line on
/// stdin sends a second GET on the same connection and prints what came back: `data
/// STATUS`, `reset`, `eof` or `timeout`, and the seconds it took. Runs after [`PY_HTTP`].
const IDLE_PY: &str = r#"
import socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
req = b"GET /id HTTP/1.1\r\nHost: www.example.com\r\n\r\n"
s.sendall(req)
status, h, _, _ = response(s)
print(s.getsockname()[1], h.get("x-backend", "-"), flush=True)
sys.stdin.readline()
t0 = time.monotonic()
s.settimeout(30)
try:
    s.sendall(req)
    status, _, _, _ = response(s)
    out = "data %s" % status
except ConnectionResetError:
    out = "reset"
except EOFError:
    out = "eof"
except socket.timeout:
    out = "timeout"
print(out, "%.2f" % (time.monotonic() - t0), flush=True)
"#;

/// A process started in a namespace by a scenario; killed by its own handle.
struct Proc {
    child: Child,
    what: String,
}

impl Proc {
    /// Start `cmd` in `ns` with its stdout and stderr appended to `log`.
    fn spawn(ns: &str, cmd: &[&str], log: &Path, what: &str) -> Proc {
        let out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .expect("opening the log");
        let child = ns_command(ns, cmd)
            .stdout(out.try_clone().expect("log"))
            .stderr(out)
            .spawn()
            .unwrap_or_else(|e| panic!("starting {what}: {e}"));
        Proc {
            child,
            what: what.to_string(),
        }
    }

    /// SIGKILL (`ip netns exec` execs the command, so this is the server process itself).
    fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        let _ = self.child.wait();
    }

    /// Wait up to `bound` for the process to end by itself: its exit status.
    fn wait(mut self, bound: Duration) -> std::process::ExitStatus {
        let t1 = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                return s;
            }
            if t1.elapsed() > bound {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("{} still running after {bound:?}", self.what);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        kill_running(&mut self.child);
    }
}

/// Start the HTTP helper in backend `bi`'s namespace and wait until it listens.
fn start_helper(t: &Topology, bi: usize, log: &Path) -> Proc {
    let b = &t.backends[bi];
    let blob = b.dir.join("www/static/blob");
    let (ip, port) = (b.ip.to_string(), HELPER_PORT.to_string());
    let p = Proc::spawn(
        &b.ns,
        &[
            python(),
            "-c",
            HELPER_PY,
            &ip,
            &port,
            blob.to_str().expect("utf-8 path"),
            "helper",
        ],
        log,
        "the HTTP helper",
    );
    t.wait_listen(&b.ns, &format!("{ip}:{HELPER_PORT}"))
        .expect("helper listening");
    p
}

/// The expected body of `GET /slow`: the blob four times.
fn slow_body(t: &Topology) -> Vec<u8> {
    t.blob.repeat(4)
}

/// a) The backend of a download is killed (SIGKILL) in the middle of it. Pool web runs fo
///    with web1 pointed at the HTTP helper (weight 5) and web2 at nginx (weight 1), so the
///    download goes to the helper. The client must see the connection end (the killed
///    process's kernel sends what it had queued and a FIN: curl reports the transfer cut
///    short) within a bound; what it got is a prefix of the content; the card's flow leaves
///    the table; the next request still succeeds: the card's SYN to web1 is refused (RST),
///    it tries web2 (`server_retries`); once the helper is back, fo sends to it again.
fn backend_killed_mid_transfer(t: &mut Topology) {
    let (name, t0) = ("backend killed mid-transfer", Instant::now());
    let mut tally = Tally::default();
    let log = t.dir().join("helper-web1.log");
    let helper = start_helper(t, WEB1, &log);
    t.set_backend_port(WEB_POOL, WEB1, HELPER_PORT)
        .expect("SERVER_DEL/SERVER_SET");
    {
        let card = t.card_mut();
        let mut s = card
            .flow_manager()
            .server_get(WEB1 as u8)
            .expect("SERVER_GET")
            .expect("web1")
            .server;
        s.weight = 5;
        card.flow_manager().server_set(&s).expect("SERVER_SET");
        card.flow_manager()
            .pool_set(WEB_POOL, &PoolConfig::new(Scheduler::Fo))
            .expect("POOL_SET");
    }
    let want = slow_body(t);
    let file = t.dir().join("slow.out");
    let url = format!("http://{}:{}/slow", t.addrs.vip, t.addrs.vip_port);
    let file_s = file.to_str().expect("utf-8 path").to_string();
    let curl_log = t.dir().join("curl-slow.log");
    let curl = Proc::spawn(
        &t.client_ns,
        &[
            "curl",
            "-sS",
            "--max-time",
            CURL_TIMEOUT,
            "-H",
            &format!("Host: {HOST}"),
            "-D",
            "/dev/stderr",
            "-o",
            &file_s,
            &url,
        ],
        &curl_log,
        "curl /slow",
    );
    // Mid-transfer: at least 256 KiB arrived.
    let bound = end_bound(t);
    let len = |f: &Path| std::fs::metadata(f).map_or(0, |m| m.len());
    wait::until_seen("256 KiB of the download arriving", bound, || {
        match len(&file) {
            n if n >= 256 * 1024 => Ok(()),
            n => Err(format!(
                "{n} bytes; curl: {}",
                std::fs::read_to_string(&curl_log).unwrap_or_default()
            )),
        }
    });
    let helper_addr = t.backends[WEB1].ip;
    let before: Vec<FlowInfo> = t
        .flows()
        .into_iter()
        .filter(|f| *f.server.ip() == helper_addr && f.server.port() == HELPER_PORT)
        .collect();
    assert_eq!(before.len(), 1, "one flow to the helper: {before:?}");
    let flow = before[0];
    eprintln!(
        "  {} bytes received; flow slot {} {:?} client port {}: {} bytes to the client so far",
        len(&file),
        flow.slot,
        flow.flow_state,
        flow.client.port(),
        flow.bytes_to_client
    );
    let killed_at = Instant::now();
    helper.kill();
    let status = curl.wait(bound);
    let ended = killed_at.elapsed();
    let got = std::fs::read(&file).expect("curl's output");
    let curl_msgs = std::fs::read_to_string(&curl_log).unwrap_or_default();
    let msg = curl_msgs
        .lines()
        .filter(|l| l.starts_with("curl:"))
        .collect::<Vec<_>>()
        .join(" ");
    eprintln!(
        "  helper killed: curl ended {ended:.1?} later, exit {:?}, {} of {} bytes: {msg}",
        status.code(),
        got.len(),
        want.len()
    );
    tally.connections += 1;
    assert!(
        !status.success(),
        "curl succeeded although the server died: {curl_msgs}"
    );
    assert!(got.len() < want.len(), "the whole body arrived");
    assert!(
        got == want[..got.len()],
        "the bytes received are not the start of the content"
    );
    tally.bytes += got.len();
    // The flow leaves the card's table.
    let port = flow.client.port();
    let gone = t.wait_flows(name, |f| f.client.port() == port, END_BOUND);
    eprintln!("  card: the flow left the table {gone:.1?} after curl ended");
    // A new request: web1 refuses the card's SYN, web2 answers.
    let retries0 = t.flow_stats().server_retries;
    let r = t
        .get(HOST, "/id", &mut tally)
        .unwrap_or_else(|e| panic!("{e:#}"));
    let retries = t.flow_stats().server_retries;
    eprintln!(
        "  next request: {} from {}; server_retries {retries0} -> {retries}",
        r.status, r.backend
    );
    assert_eq!(r.backend, "web2", "served by the remaining backend");
    assert_eq!(r.body, b"web2\n");
    assert!(retries > retries0, "the card retried another server");
    // The server is back: fo sends to it again (the highest weight).
    let helper = start_helper(t, WEB1, &log);
    let r = t
        .get(HOST, "/id", &mut tally)
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(
        r.backend, "helper",
        "the restarted server takes the pool again"
    );
    assert_eq!(r.body, b"helper\n");
    // Pool web as it was: nginx on web1, rr.
    let port = t.addrs.backend_port;
    t.set_backend_port(WEB_POOL, WEB1, port)
        .expect("SERVER_DEL/SERVER_SET");
    t.card
        .as_mut()
        .expect("card")
        .flow_manager()
        .pool_set(WEB_POOL, &PoolConfig::new(Scheduler::Rr))
        .expect("POOL_SET");
    helper.kill();
    tally.errors.extend(log_errors(&log));
    t.finish(name, &tally, t0);
}

/// b) The backend resets the connection after reading the request (`SO_LINGER` 0). Pool api
///    points at the resetting helper. The client sees the RST (curl: connection reset by
///    peer), the card counts the flow closed and frees it, and new connections work, to pool
///    api once it points at nginx again and to pool web.
fn server_rst(t: &mut Topology) {
    let (name, t0) = ("server RST", Instant::now());
    let mut tally = Tally::default();
    let log = t.dir().join("rst-helper.log");
    let b = &t.backends[API1];
    let (ns, ip, port) = (b.ns.clone(), b.ip, RST_PORT.to_string());
    let ip_s = ip.to_string();
    let rst = Proc::spawn(
        &ns,
        &[python(), "-c", RST_PY, &ip_s, &port],
        &log,
        "the resetting helper",
    );
    t.wait_listen(&ns, &format!("{ip}:{RST_PORT}"))
        .expect("resetting helper listening");
    t.set_backend_port(API_POOL, API1, RST_PORT)
        .expect("SERVER_DEL/SERVER_SET");
    let closed0 = t.flow_stats().closed;
    let r = t.curl(API_HOST, "/reset-me", &[]).expect("curl");
    tally.connections += 1;
    eprintln!(
        "  curl: ok {}, status {}, after {:.1?}: {}",
        r.ok, r.status, r.wall, r.stderr
    );
    assert!(!r.ok && r.status == 0, "no response expected: {r:?}");
    assert!(
        r.stderr.contains("reset by peer"),
        "the client did not see the RST: {}",
        r.stderr
    );
    let bound = end_bound(t);
    assert!(r.wall < bound, "curl took {:.1?}", r.wall);
    let helper_log = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        helper_log.contains("reset "),
        "the helper did not get the request: {helper_log}"
    );
    let gone = t.wait_flows(
        name,
        |f| *f.server.ip() == ip && f.server.port() == RST_PORT,
        END_BOUND,
    );
    let closed = t.flow_stats().closed;
    eprintln!(
        "  helper: {}; card: flows closed {closed0} -> {closed}, flow freed within {gone:.1?}",
        helper_log.trim()
    );
    assert!(closed > closed0, "the card did not count the flow closed");
    // New connections work.
    let r = t
        .get(HOST, "/id", &mut tally)
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(r.body, format!("{}\n", r.backend).as_bytes());
    let port = t.addrs.backend_port;
    t.set_backend_port(API_POOL, API1, port)
        .expect("SERVER_DEL/SERVER_SET");
    let r = t
        .get(API_HOST, "/api/x", &mut tally)
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(r.body, b"api api1\n");
    rst.kill();
    t.finish(name, &tally, t0);
}

/// a) and b) on one topology.
#[test]
fn backend_killed_and_server_rst() {
    let name = "backend failures";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    backend_killed_mid_transfer(&mut t);
    server_rst(&mut t);
    eprintln!("{name}: {:.1?} wall in all", t0.elapsed());
}

/// c) `Expect: 100-continue` upload of 256 KiB to the HTTP helper (pool api).
///
/// How the card handles it: it reads only the request head before choosing a server (the L7
/// matcher needs the head up to `\r\n\r\n`; docs/flowmgr.md "Request", firmware
/// `splicer::on_request_data`/`on_match`), then connects to the server, replays the buffered
/// head and splices. curl sends the head alone and waits for `100 Continue`
/// (`--expect100-timeout` 60 s, so it does not give up and send the body anyway); the card
/// neither answers nor needs the body: the server's `100 Continue` goes through the splice
/// to the client, which then sends the body, forwarded by the data path like any other
/// bytes. So the response headers hold `100 Continue` before `200`, and the server's sha256
/// of the body equals the client's.
fn expect_100_continue(t: &mut Topology) {
    let (name, t0) = ("Expect: 100-continue", Instant::now());
    let mut tally = Tally::default();
    let log = t.dir().join("helper-api1.log");
    let helper = start_helper(t, API1, &log);
    t.set_backend_port(API_POOL, API1, HELPER_PORT)
        .expect("SERVER_DEL/SERVER_SET");
    let data: Vec<u8> = t.blob[..256 * 1024]
        .iter()
        .rev()
        .enumerate()
        .map(|(i, b)| b ^ (i as u8).wrapping_mul(29))
        .collect();
    let file = t.dir().join("upload.bin");
    std::fs::write(&file, &data).expect("writing the upload");
    let at = format!("@{}", file.display());
    let want = format!("{} {}", sha256_hex(&data), data.len());
    let r = t
        .curl(
            API_HOST,
            "/upload",
            &[
                "-H",
                "Expect: 100-continue",
                "--expect100-timeout",
                "60",
                "-H",
                "Content-Type: application/octet-stream",
                "--data-binary",
                &at,
            ],
        )
        .expect("curl");
    tally.connections += 1;
    let statuses: Vec<&str> = r
        .headers
        .lines()
        .filter(|l| l.starts_with("HTTP/"))
        .collect();
    let body = String::from_utf8_lossy(&r.body).trim().to_string();
    eprintln!(
        "  upload of {} bytes: {statuses:?} from {:?} in {:.1?}, server's sha256 {}",
        data.len(),
        header_values(&r.headers, "x-backend"),
        r.wall,
        if body == want { "matches" } else { "DIFFERS" }
    );
    assert!(r.ok && r.status == 200, "upload failed: {r:?}");
    assert_eq!(statuses.len(), 2, "100 then 200: {}", r.headers);
    assert!(statuses[0].contains(" 100"), "{statuses:?}");
    assert!(statuses[1].contains(" 200"), "{statuses:?}");
    assert!(
        r.wall < Duration::from_secs(60),
        "curl sent the body only after its expect timeout: {:.1?}",
        r.wall
    );
    assert_eq!(r.backend, "helper");
    assert_eq!(body, want, "the server's sha256 and length of the body");
    tally.bytes += data.len();
    let port = t.addrs.backend_port;
    t.set_backend_port(API_POOL, API1, port)
        .expect("SERVER_DEL/SERVER_SET");
    helper.kill();
    tally.errors.extend(log_errors(&log));
    t.finish(name, &tally, t0);
}

/// d) An idle keep-alive connection whose flow the card ages out (ESTABLISHED timeout
///    10 ms for the test), then the client sends on it. The card has forgotten the
///    connection, so it answers the client's segment as a host without such a connection: a
///    RST (firmware: a stray segment to a service). Asserts that the client sees the RST
///    (bounded), that the card holds no flow for it (it does not make one for the stray
///    segment), and that new connections work. Like IPVS, the card tells neither peer when
///    it ages a flow: the backend keeps its side until its own keep-alive timeout (printed).
fn idle_flow_aged_out(t: &mut Topology) {
    let (name, t0) = ("idle flow aged out", Instant::now());
    let mut tally = Tally::default();
    let (vip, vport) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let mut child = py_command(
        &t.client_ns,
        &format!("{PY_HTTP}{IDLE_PY}"),
        &[&vip, &vport],
    )
    .stdin(Stdio::piped())
    .stderr(Stdio::inherit())
    .spawn()
    .expect("starting the idle client");
    let mut stdin = child.stdin.take().expect("piped");
    let out = child.stdout.take().expect("piped");
    let client = Proc {
        child,
        what: "the idle client".into(),
    };
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let first = rx.recv_timeout(EXEC_TIMEOUT).expect("first response");
    let (port, backend) = first.split_once(' ').expect("PORT BACKEND");
    let port: u16 = port.parse().expect("port");
    let backend = backend.to_string();
    tally.connections += 1;
    let flow = t
        .flows()
        .into_iter()
        .find(|f| f.client.port() == port)
        .expect("the idle connection's flow");
    eprintln!(
        "  idle connection from port {port} to {backend}: flow slot {} {:?}, timeout class {:?}",
        flow.slot, flow.flow_state, flow.timeout_class
    );
    assert_eq!(flow.timeout_class, Some(TcpTimeoutState::Established));
    let card = t.card_mut();
    let aged0 = card
        .flow_manager()
        .flow_stats()
        .expect("FLOW_STATS")
        .aged_out;
    card.flow_manager()
        .timeout_set_ms(TcpTimeoutState::Established, 10)
        .expect("TIMEOUT_SET");
    let gone = t.wait_flows(name, |f| f.client.port() == port, END_BOUND);
    let card = t.card_mut();
    // Back to the default before anything else runs.
    card.flow_manager()
        .timeout_set(TcpTimeoutState::Established, 900)
        .expect("TIMEOUT_SET");
    let aged = card
        .flow_manager()
        .flow_stats()
        .expect("FLOW_STATS")
        .aged_out;
    eprintln!(
        "  card: flow aged out {gone:.1?} after the timeout was set; aged_out {aged0} -> {aged}"
    );
    assert!(aged > aged0, "aged_out did not rise");
    // The client sends on the connection the card forgot.
    let bound = end_bound(t);
    writeln!(stdin, "go").expect("stdin");
    let outcome = rx.recv_timeout(EXEC_TIMEOUT).expect("outcome");
    let _ = client.wait(bound);
    eprintln!("  client sends a GET on it: {outcome} (outcome, seconds)");
    let (what, secs) = outcome.split_once(' ').expect("OUTCOME SECONDS");
    assert_eq!(what, "reset", "the client should get a RST from the card");
    let secs: f64 = secs.parse().expect("seconds");
    assert!(secs < bound.as_secs_f64(), "{secs} s");
    let left: Vec<FlowInfo> = t
        .flows()
        .into_iter()
        .filter(|f| f.client.port() == port)
        .collect();
    assert!(left.is_empty(), "a flow for the stray segment: {left:?}");
    let b = t.backend(&backend).expect("backend");
    let ss = t
        .exec(
            &b.ns,
            &["ss", "-tnH", "state", "established"],
            Duration::from_secs(10),
        )
        .expect("ss");
    eprintln!(
        "  {backend}: {} established connection(s) left (its keep-alive timeout ends them)",
        ss.text().lines().count()
    );
    // New connections work.
    let r = t
        .get(HOST, "/id", &mut tally)
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(r.body, format!("{}\n", r.backend).as_bytes());
    t.finish(name, &tally, t0);
}

/// c) and d) on one topology.
#[test]
fn expect_continue_and_idle_aging() {
    let name = "100-continue and aging";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    expect_100_continue(&mut t);
    idle_flow_aged_out(&mut t);
    eprintln!("{name}: {:.1?} wall in all", t0.elapsed());
}
