//! What every real-peer scenario does with a [`Topology`]: HTTP requests with curl from the
//! client namespace, waiting for a listener, and the closing report (connections made,
//! bytes moved and verified, errors seen on the peers).

use crate::topo::Topology;
use anyhow::{bail, Result};
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
