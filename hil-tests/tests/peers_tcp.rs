//! TCP behaviours of the splice with real Linux peers (docs/rig.md, "Scenarios"): keep-alive,
//! pipelining, a 1 MiB upload, half-close and RST. curl and python3 in the client namespace,
//! nginx (and a python3 upload server) in the backend namespaces.
//!
//! Needs root, nginx, python3 and the firmware ELF; without them it prints a note and
//! passes. Each scenario builds its own topology; they run one at a time (a lock), since
//! the simulated card needs a core of its own.

use splicenic_driver::datapath::FlowState;
use splicenic_hil::peer::{
    self, header_values, log_errors, peer_tools, sha256_hex, SetupOpts, Tally, EXEC_TIMEOUT,
};
use splicenic_hil::topo::{python, Topology};
use splicenic_hil::wait::{self, CardSpeed};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

/// The port of the python3 helper server (scenarios 3 and 4a).
const UPLOAD_PORT: u16 = 8081;

/// The topology for one scenario, or `None` (with a note) when the rig cannot run here.
fn setup(name: &str) -> Option<(MutexGuard<'static, ()>, Topology, Instant)> {
    peer::setup(name, &peer_tools(), &SetupOpts::default())
}

/// The statuses of the HTTP responses in a block of headers (several requests), in order.
fn statuses(headers: &str) -> Vec<&str> {
    headers
        .lines()
        .filter(|l| l.starts_with("HTTP/"))
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect()
}

/// 1. One curl invocation, three URLs on one connection: a single connect, and every
///    response from the same backend although pool web is round-robin.
#[test]
fn keepalive_stays_on_one_server() {
    let name = "keep-alive";
    let Some((_g, t, t0)) = setup(name) else {
        return;
    };
    let mut tally = Tally::default();
    let url = |p: &str| format!("http://{}:{}{p}", t.addrs.vip, t.addrs.vip_port);
    let (id, api) = (url("/id"), url("/api/x"));
    // curl fetches the extra URLs first, then its own: /id, /api/x, /id. The client's
    // active opens count its connections.
    let opens0 = t.counter(&t.client_ns, "TcpActiveOpens");
    let r = t
        .curl("www.example.com", "/id", &[&id, &api])
        .expect("running curl");
    let connects = t.counter(&t.client_ns, "TcpActiveOpens") - opens0;
    assert!(r.ok, "curl failed: {}", r.stderr);
    let backends = header_values(&r.headers, "x-backend");
    eprintln!("  backends {backends:?}, {connects} connect(s)");
    tally.connections += connects as usize;
    assert_eq!(connects, 1, "curl opened more than one connection");
    assert_eq!(backends.len(), 3, "three responses: {}", r.headers);
    assert_eq!(
        statuses(&r.headers),
        ["200"; 3],
        "three 200 responses: {}",
        r.headers
    );
    let b = backends[0];
    assert!(b == "web1" || b == "web2", "pool web answered from {b:?}");
    assert!(backends.iter().all(|x| *x == b), "backends {backends:?}");
    let want = format!("{b}\napi {b}\n{b}\n");
    assert_eq!(String::from_utf8_lossy(&r.body), want, "bodies");
    tally.bytes += r.body.len();
    // A second invocation (a new connection) is balanced to the other server.
    let r2 = t
        .get(&t.addrs.vip.to_string(), "/id", &mut tally)
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_ne!(
        String::from_utf8_lossy(&r2.body).trim(),
        b,
        "rr: the next connection goes elsewhere"
    );
    t.finish(name, &tally, t0);
}

const PIPELINE_PY: &str = r#"
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
paths = ["/id", "/api/x", "/id"]
s.sendall(b"".join(("GET %s HTTP/1.1\r\nHost: www.example.com\r\n\r\n" % p).encode() for p in paths))
buf = b""
out = []
while len(out) < 3:
    i = buf.find(b"\r\n\r\n")
    if i >= 0:
        head = buf[:i].decode("latin1").split("\r\n")
        h = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in head[1:])}
        n = int(h.get("content-length", "0"))
        if len(buf) >= i + 4 + n:
            body = buf[i + 4:i + 4 + n].decode("latin1")
            out.append((head[0], h.get("x-backend", ""), body.strip(), n))
            buf = buf[i + 4 + n:]
            continue
    c = s.recv(65536)
    if not c:
        break
    buf += c
for r in out:
    print("%s\t%s\t%s\t%d" % r)
print("leftover\t%d" % len(buf))
"#;

/// 2. Three GETs in one write on one connection: all answered, in order, by one backend.
#[test]
fn pipelined_requests() {
    let name = "pipelined requests";
    let Some((_g, t, t0)) = setup(name) else {
        return;
    };
    let mut tally = Tally::default();
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let out = t
        .exec(
            &t.client_ns,
            &[python(), "-c", PIPELINE_PY, &vip, &port],
            EXEC_TIMEOUT,
        )
        .expect("python3");
    assert!(out.ok, "pipelining client failed: {}", out.stderr);
    tally.connections += 1;
    let text = out.text();
    eprint!("{text}");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with("leftover"))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 3, "three responses: {text}");
    let b = rows[0][1];
    assert!(b == "web1" || b == "web2", "pool web answered from {b:?}");
    let want = [b.to_string(), format!("api {b}"), b.to_string()];
    for (r, w) in rows.iter().zip(&want) {
        assert!(r[0].starts_with("HTTP/1.1 200"), "status {:?}", r[0]);
        assert_eq!(r[1], b, "all from one backend: {text}");
        assert_eq!(r[2], w, "responses in order: {text}");
        tally.bytes += r[3].parse::<usize>().unwrap_or(0);
    }
    assert!(text.contains("leftover\t0"), "extra bytes: {text}");
    t.finish(name, &tally, t0);
}

const HELPER_PY: &str = r#"
import http.server, hashlib, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def reply(self, r):
        self.send_response(200)
        self.send_header("X-Backend", "helper")
        self.send_header("Content-Length", str(len(r)))
        self.end_headers()
        self.wfile.write(r)
    def do_POST(self):
        n = int(self.headers["Content-Length"])
        d = self.rfile.read(n)
        self.reply((hashlib.sha256(d).hexdigest() + " %d\n" % len(d)).encode())
    def do_GET(self):
        self.reply(open(sys.argv[3], "rb").read())
    def log_message(self, *a):
        pass
http.server.HTTPServer((sys.argv[1], int(sys.argv[2])), H).serve_forever()
"#;

/// 3. POST 1 MiB through the card to a python3 server that answers the body's sha256.
#[test]
fn mib_upload() {
    let name = "1 MiB upload";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    let mut tally = Tally::default();
    // Pool api (Host api.example.com) has api1 only; point it at the helper server.
    let (bi, log) = start_helper(&mut t);
    // Data: the blob, bytes reversed and mixed, so it is not what the backends serve.
    let data: Vec<u8> = t
        .blob
        .iter()
        .rev()
        .enumerate()
        .map(|(i, b)| b ^ (i as u8).wrapping_mul(31))
        .collect();
    let file = t.dir().join("upload.bin");
    std::fs::write(&file, &data).expect("writing the upload");
    let want = sha256_hex(&data);
    let at = format!("@{}", file.display());
    let r = t
        .curl(
            "api.example.com",
            "/upload",
            &[
                "-H",
                "Expect:",
                "-H",
                "Content-Type: application/octet-stream",
                "--data-binary",
                &at,
            ],
        )
        .expect("running curl");
    let dt = r.wall;
    assert!(
        r.ok && r.status == 200,
        "upload failed after {dt:.1?}: status {}, {}",
        r.status,
        r.stderr
    );
    tally.connections += 1;
    let text = String::from_utf8_lossy(&r.body);
    let got = text.split_whitespace().next().unwrap_or("");
    let backends = header_values(&r.headers, "x-backend");
    eprintln!(
        "  upload: {} bytes in {dt:.1?} = {:.2} MB/s, backend {backends:?}, sha256 {}",
        data.len(),
        data.len() as f64 / 1e6 / dt.as_secs_f64(),
        if got == want { "matches" } else { "DIFFERS" }
    );
    assert_eq!(backends, ["helper"]);
    assert_eq!(got, want, "server's sha256 of the body: {text}");
    assert!(text.contains(&format!(" {}", data.len())), "length: {text}");
    tally.bytes += data.len();
    // Put nginx back and check the pool still answers from it.
    let port = t.addrs.backend_port;
    t.set_backend_port(3, bi, port).expect("SERVER_SET");
    let r = t
        .get("api.example.com", "/api/x", &mut tally)
        .unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(r.body, b"api api1\n");
    tally.errors.extend(log_errors(&log));
    t.finish(name, &tally, t0);
}

const HALF_CLOSE_PY: &str = r#"
import socket, hashlib, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (sys.argv[4], sys.argv[3])).encode())
s.shutdown(socket.SHUT_WR)
buf = b""
while True:
    c = s.recv(65536)
    if not c:
        break
    buf += c
i = buf.find(b"\r\n\r\n")
head = buf[:i].decode("latin1").split("\r\n")
body = buf[i + 4:]
print(head[0])
for l in head[1:]:
    if l.lower().startswith("x-backend:"):
        print(l.split(":", 1)[1].strip())
print(len(body))
print(hashlib.sha256(body).hexdigest())
"#;

const RST_PY: &str = r#"
import socket, struct, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=60)
print(s.getsockname()[1], flush=True)
s.sendall(b"GET /static/blob HTTP/1.1\r\nHost: www.example.com\r\n\r\n")
got = 0
while got < 65536:
    c = s.recv(65536)
    if not c:
        break
    got += len(c)
s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
s.close()
print(got)
"#;

/// Start the python3 helper server in api1's namespace and point pool api (Host
/// `api.example.com`) at it. It answers POST with the body's sha256 and GET with
/// `/static/blob` (1 MiB); unlike nginx it keeps sending after the client's FIN.
fn start_helper(t: &mut Topology) -> (usize, std::path::PathBuf) {
    let bi = t
        .backends
        .iter()
        .position(|b| b.name == "api1")
        .expect("api1");
    let (ns, ip) = (t.backends[bi].ns.clone(), t.backends[bi].ip.to_string());
    let log = t.dir().join("helper.log");
    let blob = t.backends[bi].dir.join("www/static/blob");
    let blob = blob.to_str().expect("utf-8 path").to_string();
    let port = UPLOAD_PORT.to_string();
    t.spawn(&ns, &[python(), "-c", HELPER_PY, &ip, &port, &blob], &log)
        .expect("starting the helper server");
    t.wait_listen(&ns, &format!("{ip}:{UPLOAD_PORT}"))
        .expect("the helper server listens");
    t.set_backend_port(3, bi, UPLOAD_PORT).expect("SERVER_SET");
    (bi, log)
}

/// One half-closing GET through the card: (status line, X-Backend, body length, sha256).
fn half_close_get(t: &Topology, host: &str, path: &str) -> (String, String, usize, String) {
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let out = t
        .exec(
            &t.client_ns,
            &[python(), "-c", HALF_CLOSE_PY, &vip, &port, host, path],
            EXEC_TIMEOUT,
        )
        .expect("python3");
    assert!(out.ok, "half-close client failed: {}", out.stderr);
    let text = out.text();
    let l: Vec<&str> = text.lines().collect();
    assert_eq!(l.len(), 4, "{text}");
    (
        l[0].to_string(),
        l[1].to_string(),
        l[2].parse().expect("length"),
        l[3].to_string(),
    )
}

/// 4a. The client sends its request and shuts down its sending half at once (FIN right
///     after the request, like `nc -N`); it still reads the whole response and then the
///     server's FIN. 1 MiB from the python3 helper (nginx treats a FIN that arrives while
///     its write blocks as an abort, also without the card), and a short answer from nginx.
#[test]
fn half_close() {
    let name = "half-close";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    let mut tally = Tally::default();
    let (_, log) = start_helper(&mut t);
    let want = sha256_hex(&t.blob);
    let (status, backend, len, sha) = half_close_get(&t, "api.example.com", "/big");
    eprintln!(
        "  {status} from {backend}: {len} bytes, sha256 {}",
        if sha == want { "matches" } else { "DIFFERS" }
    );
    tally.connections += 1;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    assert_eq!(backend, "helper");
    assert_eq!(len, t.blob.len());
    assert_eq!(sha, want, "sha256 of the body");
    tally.bytes += len;
    // nginx, a response that fits its socket buffer.
    let (status, backend, len, sha) = half_close_get(&t, "www.example.com", "/id");
    eprintln!("  {status} from {backend}: {len} bytes");
    tally.connections += 1;
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    assert!(backend == "web1" || backend == "web2", "{backend}");
    assert_eq!(sha, sha256_hex(format!("{backend}\n")));
    tally.bytes += len;
    tally.errors.extend(log_errors(&log));
    t.finish(name, &tally, t0);
}

/// 4b. The client resets its connection (SO_LINGER 0) in the middle of a 1 MiB response:
///     the card counts the flow closed, the flow leaves the spliced state, the backend's
///     connection goes away, and a new connection works.
#[test]
fn client_rst() {
    let name = "client RST";
    let Some((_g, mut t, t0)) = setup(name) else {
        return;
    };
    let mut tally = Tally::default();
    let closed0 = t.flow_stats().closed;
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    let out = t
        .exec(
            &t.client_ns,
            &[python(), "-c", RST_PY, &vip, &port],
            EXEC_TIMEOUT,
        )
        .expect("python3");
    assert!(out.ok, "RST client failed: {}", out.stderr);
    tally.connections += 1;
    let text = out.text();
    let mut l = text.lines();
    let port: u16 = l.next().and_then(|p| p.trim().parse().ok()).expect("port");
    let got: usize = l.next().and_then(|p| p.trim().parse().ok()).expect("bytes");
    eprintln!("  client port {port}: read {got} bytes, then RST");
    assert!(got >= 65536, "{text}");
    tally.bytes += got;
    // The card sees the RST and the flow leaves the spliced state (or is freed).
    let limit = CardSpeed::of(t.card_mut()).scale(Duration::from_secs(20));
    let t1 = Instant::now();
    let (closed, state) =
        wait::until_seen("the card closing the flow after the RST", limit, || {
            let card = t.card_mut();
            let closed = card.flow_manager().flow_stats().expect("FLOW_STATS").closed;
            let flow = t.flows().into_iter().find(|f| f.client.port() == port);
            let state = flow.as_ref().map(|f| f.flow_state);
            if closed > closed0 && state != Some(FlowState::Spliced) {
                Ok((closed, state))
            } else {
                Err(format!("closed {closed0} -> {closed}, flow {flow:?}"))
            }
        });
    eprintln!(
        "  card: flows closed {closed0} -> {closed}, client's flow {} after {:.1?}",
        match state {
            None => "freed".to_string(),
            Some(s) => format!("in state {s:?}"),
        },
        t1.elapsed()
    );
    // The backend's side of the connection is gone too (the RST reached nginx).
    let b = t.backend("static1").expect("static1");
    let t2 = Instant::now();
    wait::until_seen("static1's connection ending after the RST", limit, || {
        let ss = t
            .exec(
                &b.ns,
                &["ss", "-tnH", "state", "established"],
                Duration::from_secs(10),
            )
            .expect("ss");
        match ss.text().trim() {
            "" => Ok(()),
            left => Err(format!("established: {left}")),
        }
    });
    eprintln!(
        "  static1: no established connection after {:.1?}",
        t2.elapsed()
    );
    // A new connection works.
    let r = t
        .get(&t.addrs.vip.to_string(), "/id", &mut tally)
        .unwrap_or_else(|e| panic!("new connection after the RST: {e:#}"));
    let body = String::from_utf8_lossy(&r.body);
    assert!(body == "web1\n" || body == "web2\n", "{body:?}");
    t.finish(name, &tally, t0);
}
