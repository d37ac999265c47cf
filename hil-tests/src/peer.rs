//! What every real-peer scenario does with a [`Topology`]: the start ([`setup`]), HTTP
//! requests with curl from the client namespace, waiting for a listener, background
//! processes in a namespace, and the closing report (connections made, bytes moved and
//! verified, errors seen on the peers).

use crate::topo::{python, scenario, Opts, Topology};
use anyhow::{bail, Result};
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

/// curl's `--max-time` for one request through the simulated card.
pub const CURL_TIMEOUT: &str = "120";
/// How long a peer command may run before it is killed.
pub const EXEC_TIMEOUT: Duration = Duration::from_secs(150);

/// A scenario's totals, printed by [`Topology::finish`].
#[derive(Debug, Default)]
pub struct Tally {
    /// TCP connections the clients made through the card.
    pub connections: usize,
    /// Payload bytes moved through the card whose content the scenario checked.
    pub bytes: usize,
    /// Errors the scenario saw on the peers (besides the backends' logs and checksum
    /// counters, which `finish` reads itself).
    pub errors: Vec<String>,
}

impl Tally {
    /// Count one response (one connection) of `bytes` checked bytes.
    pub fn add(&mut self, r: &Response) {
        self.connections += 1;
        self.bytes += r.body.len();
    }
}

/// One curl request's outcome.
#[derive(Debug)]
pub struct Response {
    /// HTTP status of the last response (0 when there was none).
    pub status: u16,
    /// The `X-Backend` header of the last response ("" when absent).
    pub backend: String,
    /// The response headers, as curl printed them (`-D`).
    pub headers: String,
    pub body: Vec<u8>,
    /// curl's exit status was 0.
    pub ok: bool,
    /// curl's own messages (after the headers).
    pub stderr: String,
    pub wall: Duration,
}

/// The values of header `name` (case-insensitive) in a block of HTTP headers, in order.
pub fn header_values<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
        .collect()
}

/// Python for the scenarios' own HTTP clients, put in front of a script
/// (`format!("{PY_HTTP}{SCRIPT}")`): `response(s, buf=b"")` reads one HTTP response from
/// socket `s` (`buf`: bytes already read) and returns `(status, headers, body, rest)` —
/// status as text, headers a dict with lower-case names, body the `Content-Length` bytes,
/// rest what was read beyond them; it raises `EOFError` when the peer closes first.
pub const PY_HTTP: &str = r#"
def response(s, buf=b""):
    while b"\r\n\r\n" not in buf:
        c = s.recv(4096)
        if not c:
            raise EOFError("EOF in the response head")
        buf += c
    head, _, buf = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    h = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
    n = int(h.get("content-length", "0"))
    while len(buf) < n:
        c = s.recv(4096)
        if not c:
            raise EOFError("EOF in the response body")
        buf += c
    return lines[0].split()[1], h, buf[:n], buf[n:]
"#;

/// How a scenario's topology is built by [`setup`].
#[derive(Debug, Clone)]
pub struct SetupOpts {
    /// The topology (default: [`Opts::three_pools`]).
    pub topo: Opts,
    /// The card's timeouts of the closing TCP states, in ms of card time
    /// ([`Topology::set_closing_timeouts_ms`]); `None` keeps the card's defaults.
    pub closing_timeouts_ms: Option<u32>,
    /// python3 modules the scenario imports (checked before the topology is built).
    pub py_modules: Vec<&'static str>,
}

impl Default for SetupOpts {
    fn default() -> SetupOpts {
        SetupOpts {
            topo: Opts::three_pools(),
            closing_timeouts_ms: None,
            py_modules: Vec::new(),
        }
    }
}

/// The tools of most scenarios: nginx (the backends), curl and python3 (the clients).
pub fn peer_tools() -> Vec<(&'static str, &'static str)> {
    vec![
        ("nginx", "-v"),
        ("curl", "--version"),
        (python(), "--version"),
    ]
}

/// The start of a scenario: `None` (with a note) when the rig cannot run here (not root, a
/// tool of `tools` (`(program, version flag)`) missing, a python3 module of the options not
/// importable); else the lock that keeps the binary's scenarios one at a time, the topology
/// (built, closing timeouts set) and the start time. Prints `NAME: topology ID ready in ...`.
pub fn setup(
    name: &str,
    tools: &[(&str, &str)],
    opts: &SetupOpts,
) -> Option<(MutexGuard<'static, ()>, Topology, Instant)> {
    let (guard, t0) = scenario(name, tools)?;
    for m in &opts.py_modules {
        let ok = Command::new(python())
            .args(["-c", &format!("import {m}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            splicenic_sim::prereq::skip(
                name,
                &format!("{} cannot import {m} (cargo xtask setup)", python()),
            );
            return None;
        }
    }
    let mut t = Topology::build(&opts.topo).expect("building the topology");
    if let Some(ms) = opts.closing_timeouts_ms {
        t.set_closing_timeouts_ms(ms).expect("TIMEOUT_SET");
    }
    eprintln!(
        "{name}: topology {} ready in {:.1?} (client {})",
        t.id, t.setup_time, t.client_ns
    );
    Some((guard, t, t0))
}

/// `cmd` in namespace `ns` (`ip netns exec`), not started: stdin null, stdout and stderr
/// piped (change them before spawning).
pub fn ns_command(ns: &str, cmd: &[&str]) -> Command {
    let mut c = Command::new("ip");
    c.args(["netns", "exec", ns])
        .args(cmd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// A python3 script (`python3 -c script args...`) in namespace `ns`, as [`ns_command`].
pub fn py_command(ns: &str, script: &str, args: &[&str]) -> Command {
    let mut c = ns_command(ns, &[python(), "-c", script]);
    c.args(args);
    c
}

/// Start `cmd` in `ns` in the background, stdout and stderr piped.
pub fn spawn_in(ns: &str, cmd: &[&str]) -> Child {
    ns_command(ns, cmd)
        .spawn()
        .unwrap_or_else(|e| panic!("starting {cmd:?} in {ns}: {e}"))
}

/// Start a python3 script in `ns` in the background, stdout and stderr piped.
pub fn spawn_py(ns: &str, script: &str, args: &[&str]) -> Child {
    py_command(ns, script, args)
        .spawn()
        .unwrap_or_else(|e| panic!("starting python3 in {ns}: {e}"))
}

/// Kill `child` (SIGKILL) and reap it if it is still running; for `Drop` of a scenario's
/// process handles.
pub fn kill_running(child: &mut Child) {
    if matches!(child.try_wait(), Ok(None)) {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// The first line a background child prints (its stdout must be piped).
pub fn first_line(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().expect("piped"))
        .read_line(&mut line)
        .expect("reading a child's output");
    line
}

/// Wait for a background child (killed after `timeout`): (success, stdout, stderr).
pub fn wait_child(mut child: Child, timeout: Duration) -> (bool, String, String) {
    let t0 = Instant::now();
    let ok = loop {
        if let Some(s) = child.try_wait().expect("waiting") {
            break s.success();
        }
        if t0.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().expect("collecting output");
    (
        ok,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Lines of a helper process's log (python3: tracebacks, `...Error`) that report an error,
/// each prefixed with the log's path.
pub fn log_errors(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("Error") || l.contains("Traceback"))
        .map(|l| format!("{}: {l}", log.display()))
        .collect()
}

/// The sha256 of `data` in lower-case hex.
pub fn sha256_hex(data: impl AsRef<[u8]>) -> String {
    format!("{:x}", Sha256::digest(data))
}

/// curl's exit code from its message (`curl: (28) Operation timed out ...`), -1 if none.
pub fn curl_exit_code(stderr: &str) -> i32 {
    stderr
        .split("curl: (")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .and_then(|c| c.parse().ok())
        .unwrap_or(-1)
}

const STATUS_MARK: &str = "\n@@status=";

impl Topology {
    /// curl from the client namespace: `GET http://VIP:PORT{path}` with `Host: host` plus
    /// `extra` arguments, on a new connection. Errors only when curl cannot run; a failed
    /// request is `ok == false` with curl's message in `stderr`.
    pub fn curl(&self, host: &str, path: &str, extra: &[&str]) -> Result<Response> {
        let url = format!("http://{}:{}{path}", self.addrs.vip, self.addrs.vip_port);
        let hdr = format!("Host: {host}");
        let fmt = format!("%{{stderr}}{STATUS_MARK}%{{http_code}}\n");
        let mut cmd = vec![
            "curl",
            "-sS",
            "--max-time",
            CURL_TIMEOUT,
            "-H",
            &hdr,
            "-D",
            "/dev/stderr",
            "-w",
            &fmt,
        ];
        cmd.extend_from_slice(extra);
        cmd.push(&url);
        let t0 = Instant::now();
        let out = self.exec(&self.client_ns, &cmd, EXEC_TIMEOUT)?;
        let wall = t0.elapsed();
        let (head, status) = match out.stderr.rsplit_once(STATUS_MARK) {
            Some((h, s)) => (h.to_string(), s.trim().parse().unwrap_or(0)),
            None => (out.stderr.clone(), 0),
        };
        // curl's own messages follow the headers' blank line.
        let (headers, msgs) = match head.rsplit_once("\r\n\r\n") {
            Some((h, m)) => (h.to_string(), m.trim().to_string()),
            None => (String::new(), head.trim().to_string()),
        };
        let backend = header_values(&headers, "x-backend")
            .last()
            .map_or(String::new(), |s| s.to_string());
        Ok(Response {
            status,
            backend,
            headers,
            body: out.stdout,
            ok: out.ok,
            stderr: msgs,
            wall,
        })
    }

    /// A GET that must succeed with status 200 (the error names the URL and curl's
    /// message); counted in `tally` and printed.
    pub fn get(&self, host: &str, path: &str, tally: &mut Tally) -> Result<Response> {
        let r = self.curl(host, path, &[])?;
        if !r.ok || r.status != 200 {
            bail!(
                "GET {path} (Host {host}) failed after {:.1?}: status {}, {}",
                r.wall,
                r.status,
                r.stderr
            );
        }
        tally.add(&r);
        eprintln!(
            "  GET {host}{path}: {} bytes from {:?} in {:.1?}",
            r.body.len(),
            r.backend,
            r.wall
        );
        Ok(r)
    }

    /// `nstat -az NAME` in `ns` ([`Topology::nstat`]); panics naming the counter when it
    /// cannot be read.
    pub fn counter(&self, ns: &str, name: &str) -> u64 {
        self.nstat(ns, name)
            .unwrap_or_else(|e| panic!("nstat {name} in {ns}: {e:#}"))
    }

    /// Wait until something listens on `addr` (`IP:PORT` as `ss -ltn` prints it) in `ns`.
    pub fn wait_listen(&self, ns: &str, addr: &str) -> Result<()> {
        let t0 = Instant::now();
        loop {
            let ss = self.exec(ns, &["ss", "-ltnH"], Duration::from_secs(10))?;
            if ss.text().contains(addr) {
                return Ok(());
            }
            if t0.elapsed() > Duration::from_secs(30) {
                bail!("nothing listens on {addr} in {ns} after 30 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The end of a scenario: reads `TcpInCsumErrors` in the client and every backend
    /// namespace (must be 0) and the backends' error logs (must be empty), prints the
    /// scenario's line — connections made, bytes moved and verified, errors seen on the
    /// peers, wall time since `t0` — and panics naming the errors if there were any.
    pub fn finish(&self, name: &str, tally: &Tally, t0: Instant) {
        let mut nss = vec![self.client_ns.clone()];
        nss.extend(self.backends.iter().map(|b| b.ns.clone()));
        let mut errs = Vec::new();
        let mut csum_total = 0;
        for ns in &nss {
            match self.nstat(ns, "TcpInCsumErrors") {
                Ok(0) => {}
                Ok(n) => {
                    csum_total += n;
                    errs.push(format!("{ns}: TcpInCsumErrors {n}"));
                }
                Err(e) => errs.push(format!("{ns}: nstat: {e:#}")),
            }
        }
        errs.extend(self.peer_errors());
        errs.extend(tally.errors.iter().cloned());
        eprintln!(
            "{name}: {} connections, {} bytes moved and verified, TcpInCsumErrors {csum_total} in {} namespaces, peer errors: {}, {:.1?} wall ({})",
            tally.connections,
            tally.bytes,
            nss.len(),
            if errs.is_empty() { "none".to_string() } else { errs.join("; ") },
            t0.elapsed(),
            self.rig.kind_name(),
        );
        assert!(errs.is_empty(), "{name}: errors on the peers: {errs:?}");
    }
}
