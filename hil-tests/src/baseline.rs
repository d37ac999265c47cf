//! A software baseline for the card: HAProxy doing the same URL routing to the same kind of
//! backends as the real-peer topology ([`crate::topo`], [`crate::topo::Opts::three_pools`]),
//! measured with the same client (wrk) on this machine, so the card's figures can be given
//! as a ratio to it (docs/PERFORMANCE.md).
//!
//! ```text
//!  client ns              proxy ns (HAProxy)                  LAN ns (bridge)     backend ns x 4
//!  10.0.0.2 ── veth ── 10.0.0.100:80 │ 192.168.1.1 ── veth ── br ── veth ────── 192.168.1.10+i:8080
//! ```
//!
//! The card's place is taken by a namespace running HAProxy; everything else is as in the
//! card's topology: the client namespace at 10.0.0.2 talks to the virtual service
//! 10.0.0.100:80, the backends `web1`, `web2`, `static1`, `api1` run nginx-light with the
//! same files (`/id`, `/api/x`, the 1 MiB `/static/blob`) and the same `X-Backend` header,
//! and the rules are the same: path prefix `/static/` → pool `static`, Host
//! `api.example.com` → pool `api`, everything else → pool `web` (round robin over web1 and
//! web2). The links are veth pairs with the kernel's default offloads (the card's links
//! are TAP devices carrying 1500-byte frames).
//!
//! HAProxy's configuration, chosen to mirror what the card does:
//! - `mode http`, the rules as `acl`s in the card's priority order (`path_beg /static/`
//!   first, then `hdr(host) -i api.example.com`), `default_backend web`, `balance
//!   roundrobin`.
//! - **One server connection per client connection**, as the card splices a client
//!   connection onto exactly one server connection: the default keep-alive mode (not
//!   `option http-server-close`, which would close the server side after every response),
//!   `http-reuse never` (a server connection is never shared with another client
//!   connection) and `option prefer-last-server` (the following requests of a keep-alive
//!   connection go to the server its first request went to, as on a spliced flow, instead
//!   of round-robin per request). HAProxy still parses and matches every request; the card
//!   only the first one of a connection.
//! - `nbthread 1`: one proxy thread, as the card has one soft core for connection setup.
//!   The machine has 2 cores, shared by wrk, HAProxy and the four nginx processes (and
//!   whatever else runs on it), so a second HAProxy thread would mostly compete with them.
//! - No logging; timeouts long enough never to fire during a run.
//! - `maxconn 4096`: far above the runs' connections, and within the file-descriptor limit
//!   HAProxy may raise itself to here (a higher value fails with "Cannot raise FD limit").
//!
//! nginx closes a keep-alive connection after 1000 requests (its default
//! `keepalive_requests`, as on the card's topology), so a keep-alive run opens about one
//! server connection per 1000 requests besides the first ones; HAProxy then opens a new
//! one for the same client connection, where the card's spliced client connection would
//! end with the server's and the client would reconnect. [`WrkResult::proxy_connections`]
//! counts both sides of every run.
//!
//! Namespaces and links carry the prefix `snicb` and a per-run id; [`HaproxyRig`] removes
//! them and stops its processes when dropped, also on a failed build and while panicking.
//! In the proxy and client namespaces the ephemeral port range is widened and
//! `tcp_tw_reuse` set, so the closed connections' TIME_WAIT states of a `Connection: close`
//! run do not exhaust the ports. Needs root, haproxy, nginx-light, wrk and curl
//! (`cargo xtask setup`).

use crate::netns::{must, Namespaces, NginxSite};
use crate::topo::{blob_content, is_root, ExecOutput, BACKEND_PORT, BLOB_LEN, CLIENT_IP, LOCAL_IP};
use crate::topo::{VIP, VIP_PORT};
use anyhow::{bail, ensure, Context, Result};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The backends, as in [`crate::topo::Opts::three_pools`]: backend i is 192.168.1.(10 + i).
pub const BACKENDS: [&str; 4] = ["web1", "web2", "static1", "api1"];

/// The Host the `api` rule matches.
pub const API_HOST: &str = "api.example.com";

/// HAProxy's thread count (see the module documentation).
pub const NBTHREAD: u32 = 1;

/// Tools the baseline needs: (program, version flag, Debian package).
pub const TOOLS: &[(&str, &str, &str)] = &[
    ("haproxy", "-v", "haproxy"),
    ("nginx", "-v", "nginx-light"),
    ("wrk", "-v", "wrk"),
    ("curl", "--version", "curl"),
    ("ip", "-V", "iproute2"),
];

/// What stops the baseline from running here: not root, or tools of [`TOOLS`] missing.
/// Empty when it can run.
pub fn missing_prerequisites() -> Vec<String> {
    let mut v = Vec::new();
    if !is_root() {
        v.push("not root (network namespaces need it)".to_string());
    }
    for (tool, flag, pkg) in TOOLS {
        let status = Command::new(tool)
            .arg(flag)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        match status {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                v.push(format!("{tool} not installed (Debian package {pkg})"));
            }
            Err(e) => v.push(format!("cannot run {tool} ({e})")),
        }
    }
    v
}

/// `haproxy -v`'s version, e.g. `2.6.12-1+deb12u4`.
pub fn haproxy_version() -> Result<String> {
    let out = Command::new("haproxy")
        .arg("-v")
        .stdin(Stdio::null())
        .output()
        .context("running `haproxy -v` (apt-get install haproxy)")?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("HAProxy version "))
        .and_then(|l| l.split_whitespace().next())
        .map(str::to_string)
        .with_context(|| format!("no version in `haproxy -v` output: {text:?}"))
}

/// One backend namespace running nginx.
pub type BaselineBackend = NginxSite;

/// The running baseline: namespaces, nginx backends and HAProxy. See the module
/// documentation.
pub struct HaproxyRig {
    /// Per-run id in every name (`snicb<id>...`).
    pub id: String,
    pub client_ns: String,
    /// The namespace HAProxy runs in (the card's place).
    pub proxy_ns: String,
    /// The namespace holding the backends' bridge.
    pub lan_ns: String,
    pub backends: Vec<BaselineBackend>,
    /// `haproxy -v`'s version.
    pub haproxy_version: String,
    /// Wall time of [`HaproxyRig::build`].
    pub setup_time: Duration,
    dir: PathBuf,
    namespaces: Namespaces,
    children: Vec<Child>,
}

static RUNS: AtomicU32 = AtomicU32::new(0);

impl HaproxyRig {
    /// Build the namespaces, start nginx in every backend namespace and HAProxy in the
    /// proxy namespace, and wait until all of them listen. On error whatever was made is
    /// torn down. Does not check the routing: [`HaproxyRig::check_routing`].
    pub fn build() -> Result<HaproxyRig> {
        let t0 = Instant::now();
        if !is_root() {
            bail!("the HAProxy baseline needs root (network namespaces)");
        }
        let haproxy_version = haproxy_version()?;
        let id = format!(
            "{:x}{}",
            std::process::id() & 0xfffff,
            RUNS.fetch_add(1, Ordering::Relaxed)
        );
        let dir = std::env::temp_dir().join(format!("snicb-{id}"));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut r = HaproxyRig {
            client_ns: format!("snicb{id}c"),
            proxy_ns: format!("snicb{id}x"),
            lan_ns: format!("snicb{id}l"),
            id,
            backends: Vec::new(),
            haproxy_version,
            setup_time: Duration::ZERO,
            dir,
            namespaces: Namespaces::default(),
            children: Vec::new(),
        };
        r.build_net()
            .context("building the baseline's namespaces")?;
        r.start_nginx()
            .context("starting the baseline's nginx backends")?;
        r.start_haproxy().context("starting HAProxy")?;
        r.setup_time = t0.elapsed();
        Ok(r)
    }

    fn add_ns(&mut self, ns: &str) -> Result<()> {
        self.namespaces.add(ns)
    }

    /// Widen the ephemeral ports and reuse TIME_WAIT ports for new outgoing connections in
    /// `ns` (per-namespace sysctls).
    fn tune_ports(&self, ns: &str) -> Result<()> {
        for kv in [
            "net.ipv4.ip_local_port_range=1024 65535",
            "net.ipv4.tcp_tw_reuse=1",
        ] {
            let out = self.exec(ns, &["sysctl", "-qw", kv], Duration::from_secs(10))?;
            ensure!(out.ok, "sysctl -w {kv} in {ns}: {}", out.stderr.trim());
        }
        Ok(())
    }

    fn build_net(&mut self) -> Result<()> {
        let id = self.id.clone();
        let (cns, pns, lns) = (
            self.client_ns.clone(),
            self.proxy_ns.clone(),
            self.lan_ns.clone(),
        );
        self.add_ns(&cns)?;
        self.add_ns(&pns)?;
        self.add_ns(&lns)?;
        self.tune_ports(&cns)?;
        self.tune_ports(&pns)?;
        // Client side: one veth pair, client ns <-> proxy ns.
        let (vc, vx) = (format!("snicb{id}c0"), format!("snicb{id}x0"));
        must(&[
            "ip", "-n", &cns, "link", "add", &vc, "type", "veth", "peer", "name", &vx, "netns",
            &pns,
        ])?;
        let client = format!("{CLIENT_IP}/24");
        let vip = format!("{VIP}/24");
        must(&["ip", "-n", &cns, "addr", "add", &client, "dev", &vc])?;
        must(&["ip", "-n", &cns, "link", "set", &vc, "up"])?;
        must(&["ip", "-n", &pns, "addr", "add", &vip, "dev", &vx])?;
        must(&["ip", "-n", &pns, "link", "set", &vx, "up"])?;
        // Server side: proxy ns <-> the LAN ns's bridge, one veth per backend on it.
        let br = format!("snicb{id}br");
        must(&["ip", "-n", &lns, "link", "add", &br, "type", "bridge"])?;
        must(&["ip", "-n", &lns, "link", "set", &br, "up"])?;
        let (vs, vl) = (format!("snicb{id}x1"), format!("snicb{id}l1"));
        must(&[
            "ip", "-n", &pns, "link", "add", &vs, "type", "veth", "peer", "name", &vl, "netns",
            &lns,
        ])?;
        let local = format!("{LOCAL_IP}/24");
        must(&["ip", "-n", &pns, "addr", "add", &local, "dev", &vs])?;
        must(&["ip", "-n", &pns, "link", "set", &vs, "up"])?;
        must(&["ip", "-n", &lns, "link", "set", &vl, "master", &br])?;
        must(&["ip", "-n", &lns, "link", "set", &vl, "up"])?;
        for (i, name) in BACKENDS.iter().enumerate() {
            let ns = format!("snicb{id}b{i}");
            self.add_ns(&ns)?;
            let (vb, vp) = (format!("snicb{id}v{i}"), format!("snicb{id}p{i}"));
            let ip = backend_ip(i);
            crate::netns::attach_to_bridge(&lns, &br, (&vb, &vp), &ns, ip)?;
            self.backends.push(NginxSite {
                name: name.to_string(),
                ns,
                ip,
                dir: self.dir.join(name),
            });
        }
        Ok(())
    }

    /// nginx in every backend namespace, configured as in the card's topology (the same
    /// files, the same `X-Backend` header: [`crate::netns::start_nginx`]).
    fn start_nginx(&mut self) -> Result<()> {
        crate::netns::start_nginx(
            &self.backends,
            BACKEND_PORT,
            &blob_content(),
            &mut self.children,
        )
    }

    /// HAProxy's configuration ([`haproxy_config`]).
    pub fn config(&self) -> String {
        haproxy_config()
    }

    fn start_haproxy(&mut self) -> Result<()> {
        let conf = haproxy_config();
        let path = self.dir.join("haproxy.cfg");
        std::fs::write(&path, conf).with_context(|| format!("writing {}", path.display()))?;
        let check = Command::new("haproxy")
            .arg("-c")
            .arg("-f")
            .arg(&path)
            .stdin(Stdio::null())
            .output()
            .context("running `haproxy -c` (apt-get install haproxy)")?;
        ensure!(
            check.status.success(),
            "haproxy -c rejects {}: {}{}",
            path.display(),
            String::from_utf8_lossy(&check.stdout).trim(),
            String::from_utf8_lossy(&check.stderr).trim()
        );
        let log = self.dir.join("haproxy.log");
        let err = std::fs::File::create(&log)?;
        // -db: stay in the foreground (the child is HAProxy itself: `ip netns exec` execs).
        let child = Command::new("ip")
            .args(["netns", "exec", &self.proxy_ns, "haproxy", "-db", "-f"])
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(err.try_clone()?)
            .stderr(err)
            .spawn()
            .with_context(|| format!("starting haproxy in {}", self.proxy_ns))?;
        self.children.push(child);
        let ns = self.proxy_ns.clone();
        self.wait_listen(&ns, VIP, VIP_PORT, "haproxy", &log)
    }
}

/// HAProxy's configuration (see the module documentation).
pub fn haproxy_config() -> String {
    let server = |i: usize| {
        format!(
            "    server {} {}:{BACKEND_PORT}\n",
            BACKENDS[i],
            backend_ip(i)
        )
    };
    let mut c = String::new();
    let _ = write!(
        c,
        "global\n    nbthread {NBTHREAD}\n    maxconn 4096\n\n\
             defaults\n    mode http\n    timeout connect 10s\n    timeout client 60s\n\
             \x20   timeout server 60s\n    timeout http-keep-alive 60s\n    http-reuse never\n\
             \x20   option prefer-last-server\n\n\
             frontend vip\n    bind {VIP}:{VIP_PORT}\n\
             \x20   acl is_static path_beg /static/\n\
             \x20   acl is_api hdr(host) -i {API_HOST}\n\
             \x20   use_backend static if is_static\n\
             \x20   use_backend api if is_api\n\
             \x20   default_backend web\n\n\
             backend web\n    balance roundrobin\n{}{}\n\
             backend static\n    balance roundrobin\n{}\n\
             backend api\n    balance roundrobin\n{}",
        server(0),
        server(1),
        server(2),
        server(3),
    );
    c
}

impl HaproxyRig {
    /// Wait (20 s at most) until something listens on `ip:port` in `ns`; fails at once when
    /// one of the started processes has exited.
    fn wait_listen(
        &mut self,
        ns: &str,
        ip: Ipv4Addr,
        port: u16,
        what: &str,
        log: &Path,
    ) -> Result<()> {
        let t0 = Instant::now();
        loop {
            let ss = self.exec(ns, &["ss", "-ltnH"], Duration::from_secs(10))?;
            if ss.text().contains(&format!("{ip}:{port}")) {
                return Ok(());
            }
            let exited = self
                .children
                .iter_mut()
                .find_map(|c| c.try_wait().ok().flatten());
            if exited.is_some() || t0.elapsed() > Duration::from_secs(20) {
                let log = std::fs::read_to_string(log).unwrap_or_default();
                let why = exited.map_or("does not listen".to_string(), |s| format!("exited ({s})"));
                bail!("{what} in {ns} {why} on {ip}:{port}: {}", log.trim());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Run `cmd` in namespace `ns`, killed after `timeout`.
    pub fn exec(&self, ns: &str, cmd: &[&str], timeout: Duration) -> Result<ExecOutput> {
        crate::netns::exec(ns, cmd, timeout)
    }

    /// One request with curl from the client namespace: (X-Backend value, body).
    pub fn get(&self, path: &str, host: Option<&str>) -> Result<(String, Vec<u8>)> {
        let hdr = self.dir.join("curl-headers");
        let hdr_s = hdr.to_string_lossy().into_owned();
        let url = format!("http://{VIP}:{VIP_PORT}{path}");
        let host_h = host.map(|h| format!("Host: {h}"));
        let mut cmd = vec!["curl", "-sS", "--fail", "--max-time", "10", "-D", &hdr_s];
        if let Some(h) = &host_h {
            cmd.extend(["-H", h.as_str()]);
        }
        cmd.push(&url);
        let out = self.exec(&self.client_ns, &cmd, Duration::from_secs(20))?;
        ensure!(out.ok, "curl {url} (host {host:?}): {}", out.stderr.trim());
        let headers =
            std::fs::read_to_string(&hdr).with_context(|| format!("reading {}", hdr.display()))?;
        let backend = headers
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.trim()
                    .eq_ignore_ascii_case("x-backend")
                    .then(|| v.trim().to_string())
            })
            .with_context(|| format!("no X-Backend header from {url}: {headers}"))?;
        Ok((backend, out.stdout))
    }

    /// Check the routing with curl before measuring: `/id` alternates over web1 and web2
    /// (round robin, new connection per curl), `/static/blob` comes from static1 with the
    /// known content, Host `api.example.com` goes to api1 (also for `/id`), `/static/`
    /// wins over the Host rule (the card's priority order). Returns one line per request.
    pub fn check_routing(&self) -> Result<Vec<String>> {
        let mut lines = Vec::new();
        let mut web = BTreeSet::new();
        for _ in 0..4 {
            let (b, body) = self.get("/id", None)?;
            ensure!(
                body == format!("{b}\n").as_bytes(),
                "GET /id answered by {b} with body {:?}",
                String::from_utf8_lossy(&body)
            );
            lines.push(format!("GET /id -> {b}"));
            web.insert(b);
        }
        ensure!(
            web.iter().map(String::as_str).eq(["web1", "web2"]),
            "GET /id x4 went to {web:?}, expected web1 and web2 (round robin)"
        );
        let (b, body) = self.get("/static/blob", None)?;
        ensure!(
            b == "static1",
            "GET /static/blob went to {b}, expected static1"
        );
        ensure!(
            body.len() == BLOB_LEN && body == blob_content(),
            "GET /static/blob: {} bytes, not the known 1 MiB blob",
            body.len()
        );
        lines.push(format!(
            "GET /static/blob -> {b} ({} bytes, content checked)",
            body.len()
        ));
        for path in ["/api/x", "/id"] {
            let (b, body) = self.get(path, Some(API_HOST))?;
            ensure!(
                b == "api1",
                "GET {path} Host {API_HOST} went to {b}, expected api1"
            );
            lines.push(format!(
                "GET {path} Host {API_HOST} -> {b} ({:?})",
                String::from_utf8_lossy(&body).trim()
            ));
        }
        let (b, _) = self.get("/static/blob", Some(API_HOST))?;
        ensure!(
            b == "static1",
            "GET /static/blob Host {API_HOST} went to {b}, expected static1 (path rule first)"
        );
        lines.push(format!("GET /static/blob Host {API_HOST} -> {b}"));
        Ok(lines)
    }

    /// One wrk run from the client namespace.
    pub fn wrk(&self, run: &WrkRun) -> Result<WrkResult> {
        let script = self.dir.join("summary.lua");
        std::fs::write(&script, WRK_SUMMARY_LUA)
            .with_context(|| format!("writing {}", script.display()))?;
        let args = run.args(&script);
        let mut cmd: Vec<&str> = vec!["wrk"];
        cmd.extend(args.iter().map(String::as_str));
        let before = self.proxy_tcp_opens()?;
        let out = self.exec(
            &self.client_ns,
            &cmd,
            run.duration + Duration::from_secs(60),
        )?;
        let after = self.proxy_tcp_opens()?;
        let text = out.text();
        ensure!(
            out.ok,
            "wrk {} failed: {}{}",
            args.join(" "),
            text,
            out.stderr.trim()
        );
        let mut r = WrkResult::parse(&text, run.describe())
            .with_context(|| format!("parsing the output of wrk {}", args.join(" ")))?;
        r.proxy_connections = Some(ProxyConnections {
            client: after.passive - before.passive,
            server: after.active - before.active,
        });
        Ok(r)
    }

    /// The proxy namespace's TCP open counters (`/proc/net/snmp`, per namespace).
    fn proxy_tcp_opens(&self) -> Result<TcpOpens> {
        let out = self.exec(
            &self.proxy_ns,
            &["cat", "/proc/net/snmp"],
            Duration::from_secs(10),
        )?;
        ensure!(
            out.ok,
            "reading /proc/net/snmp in {}: {}",
            self.proxy_ns,
            out.stderr
        );
        TcpOpens::parse(&out.text())
    }

    /// The three baseline figures: new connections/s (`Connection: close` on `/id`),
    /// keep-alive requests/s on `/id`, and `/static/blob` throughput; each a wrk run of
    /// `opts.duration` with `opts.connections` connections.
    pub fn measure(&self, opts: &BenchOpts) -> Result<Baseline> {
        let run = |path: &str, close: bool| WrkRun {
            path: path.to_string(),
            host: None,
            connection_close: close,
            threads: opts.threads,
            connections: opts.connections,
            duration: opts.duration,
        };
        let load_before = load_average();
        let new_conn = self
            .wrk(&run("/id", true))
            .context("measuring new connections/s")?;
        let keepalive = self
            .wrk(&run("/id", false))
            .context("measuring keep-alive requests/s")?;
        let blob = self
            .wrk(&run("/static/blob", false))
            .context("measuring /static/blob throughput")?;
        Ok(Baseline {
            haproxy_version: self.haproxy_version.clone(),
            opts: opts.clone(),
            new_conn,
            keepalive,
            blob,
            load_before,
            load_after: load_average(),
        })
    }

    /// The temp directory (nginx dirs, HAProxy's configuration and log).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Backend `i`'s address: 192.168.1.(10 + i), as on the card's topology.
pub fn backend_ip(i: usize) -> Ipv4Addr {
    let [a, b, c, _] = LOCAL_IP.octets();
    Ipv4Addr::new(a, b, c, 10 + i as u8)
}

/// TCP connections opened in a namespace (`/proc/net/snmp`'s `Tcp:` counters).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct TcpOpens {
    /// Connections accepted.
    passive: u64,
    /// Connections initiated.
    active: u64,
}

impl TcpOpens {
    fn parse(snmp: &str) -> Result<TcpOpens> {
        let mut tcp = snmp.lines().filter(|l| l.starts_with("Tcp:"));
        let (names, values) = tcp
            .next()
            .zip(tcp.next())
            .context("no Tcp: lines in /proc/net/snmp")?;
        let get = |key: &str| -> Result<u64> {
            let i = names
                .split_whitespace()
                .position(|n| n == key)
                .with_context(|| format!("no {key} in /proc/net/snmp"))?;
            values
                .split_whitespace()
                .nth(i)
                .with_context(|| format!("no value for {key} in /proc/net/snmp"))?
                .parse()
                .with_context(|| format!("{key} in /proc/net/snmp"))
        };
        Ok(TcpOpens {
            passive: get("PassiveOpens")?,
            active: get("ActiveOpens")?,
        })
    }
}

/// The 1-minute load average from `/proc/loadavg` (None if unreadable).
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

impl Drop for HaproxyRig {
    fn drop(&mut self) {
        crate::netns::kill_children(&mut self.children);
        // Anything else still running in our namespaces.
        self.namespaces.kill_all();
        if std::thread::panicking() {
            eprintln!(
                "HAProxy baseline {}: failed; HAProxy's log was:\n{}",
                self.id,
                std::fs::read_to_string(self.dir.join("haproxy.log")).unwrap_or_default()
            );
        }
        // Deleting a namespace deletes the veths in it and their peers.
        self.namespaces.delete_all();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Prints wrk's summary exactly (wrk's own text rounds to 2 decimals with binary units).
const WRK_SUMMARY_LUA: &str = r#"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "SNICB-SUMMARY requests=%d bytes=%d duration_us=%d connect=%d read=%d write=%d status=%d timeout=%d latency_mean_us=%.1f latency_p99_us=%d\n",
    summary.requests, summary.bytes, summary.duration, e.connect, e.read, e.write,
    e.status, e.timeout, latency.mean, latency:percentile(99)))
end
"#;

/// How the figures are measured.
#[derive(Debug, Clone)]
pub struct BenchOpts {
    /// wrk's `-d` for each of the three runs.
    pub duration: Duration,
    /// wrk's `-c`.
    pub connections: u32,
    /// wrk's `-t`.
    pub threads: u32,
}

impl Default for BenchOpts {
    /// 5 s, 16 connections, 1 thread.
    fn default() -> BenchOpts {
        BenchOpts {
            duration: Duration::from_secs(5),
            connections: 16,
            threads: 1,
        }
    }
}

/// One wrk run against the virtual service.
#[derive(Debug, Clone)]
pub struct WrkRun {
    pub path: String,
    /// A `Host` header other than the address.
    pub host: Option<String>,
    /// `-H 'Connection: close'`: one connection per request.
    pub connection_close: bool,
    pub threads: u32,
    pub connections: u32,
    pub duration: Duration,
}

impl WrkRun {
    fn args(&self, script: &Path) -> Vec<String> {
        let mut v = vec![
            format!("-t{}", self.threads),
            format!("-c{}", self.connections),
            format!("-d{}s", self.duration.as_secs().max(1)),
            "--timeout".into(),
            "30s".into(),
            "-s".into(),
            script.to_string_lossy().into_owned(),
        ];
        if self.connection_close {
            v.extend(["-H".into(), "Connection: close".into()]);
        }
        if let Some(h) = &self.host {
            v.extend(["-H".into(), format!("Host: {h}")]);
        }
        v.push(format!("http://{VIP}:{VIP_PORT}{}", self.path));
        v
    }

    /// The command line as a reader would type it (without the summary script).
    pub fn describe(&self) -> String {
        let mut s = format!(
            "wrk -t{} -c{} -d{}s",
            self.threads,
            self.connections,
            self.duration.as_secs().max(1)
        );
        if self.connection_close {
            s.push_str(" -H 'Connection: close'");
        }
        if let Some(h) = &self.host {
            let _ = write!(s, " -H 'Host: {h}'");
        }
        let _ = write!(s, " http://{VIP}:{VIP_PORT}{}", self.path);
        s
    }
}

/// wrk's socket errors.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WrkErrors {
    pub connect: u64,
    pub read: u64,
    pub write: u64,
    pub timeout: u64,
    /// Responses other than 2xx or 3xx.
    pub status: u64,
}

impl WrkErrors {
    pub fn total(&self) -> u64 {
        self.connect + self.read + self.write + self.timeout + self.status
    }
}

/// What one wrk run measured.
#[derive(Debug, Clone)]
pub struct WrkResult {
    /// The command line ([`WrkRun::describe`]).
    pub command: String,
    /// Completed requests.
    pub requests: u64,
    /// Bytes read (headers and bodies).
    pub bytes: u64,
    /// The run's measured duration.
    pub duration: Duration,
    /// wrk's `Requests/sec:` line.
    pub requests_per_sec: f64,
    /// wrk's `Transfer/sec:` line in bytes/s (wrk's KB/MB/GB are binary).
    pub transfer_per_sec: f64,
    /// Mean latency, microseconds.
    pub latency_mean_us: f64,
    /// 99th percentile latency, microseconds.
    pub latency_p99_us: u64,
    pub errors: WrkErrors,
    /// The connections HAProxy accepted and opened during the run (set by
    /// [`HaproxyRig::wrk`]).
    pub proxy_connections: Option<ProxyConnections>,
    /// wrk's output.
    pub raw: String,
}

/// TCP connections the proxy namespace accepted (from the client) and opened (to the
/// backends) during one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProxyConnections {
    pub client: u64,
    pub server: u64,
}

/// `key` with `=` in the summary line.
fn summary_field(line: &str, key: &str) -> Result<f64> {
    line.split_whitespace()
        .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
        .with_context(|| format!("no {key} in {line:?}"))?
        .parse()
        .with_context(|| format!("{key} in {line:?}"))
}

/// `1.23MB`-style sizes in wrk's output (binary units), in bytes.
fn parse_wrk_size(s: &str) -> Result<f64> {
    let s = s.trim();
    let split = s
        .find(|c: char| c.is_ascii_alphabetic())
        .with_context(|| format!("no unit in {s:?}"))?;
    let (num, unit) = s.split_at(split);
    let n: f64 = num.parse().with_context(|| format!("number in {s:?}"))?;
    let mult = match unit {
        "B" => 1.0,
        "KB" => 1024.0,
        "MB" => 1024.0 * 1024.0,
        "GB" => 1024.0 * 1024.0 * 1024.0,
        "TB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => bail!("unit {unit:?} in {s:?}"),
    };
    Ok(n * mult)
}

impl WrkResult {
    /// Parse wrk's output (with the summary line of the script [`HaproxyRig::wrk`] passes).
    pub fn parse(text: &str, command: String) -> Result<WrkResult> {
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(key))
                .map(str::trim)
                .with_context(|| format!("no {key:?} line"))
        };
        let requests_per_sec: f64 = field("Requests/sec:")?.parse().context("Requests/sec")?;
        let transfer_per_sec = parse_wrk_size(field("Transfer/sec:")?).context("Transfer/sec")?;
        let line = text
            .lines()
            .find(|l| l.starts_with("SNICB-SUMMARY "))
            .context("no summary line from the script")?;
        let f = |k: &str| summary_field(line, k);
        // The script's counts are exact; the text's socket-error line says the same.
        let errors = WrkErrors {
            connect: f("connect")? as u64,
            read: f("read")? as u64,
            write: f("write")? as u64,
            timeout: f("timeout")? as u64,
            status: f("status")? as u64,
        };
        Ok(WrkResult {
            command,
            requests: f("requests")? as u64,
            bytes: f("bytes")? as u64,
            duration: Duration::from_micros(f("duration_us")? as u64),
            requests_per_sec,
            transfer_per_sec,
            latency_mean_us: f("latency_mean_us")?,
            latency_p99_us: f("latency_p99_us")? as u64,
            errors,
            proxy_connections: None,
            raw: text.to_string(),
        })
    }

    /// Completed requests per second of measured duration (exact; wrk's `Requests/sec`
    /// is the same rounded).
    pub fn rate(&self) -> f64 {
        self.requests as f64 / self.duration.as_secs_f64().max(1e-9)
    }

    /// Bytes read per second (headers and bodies), in MB/s (10^6 bytes).
    pub fn mb_per_sec(&self) -> f64 {
        self.bytes as f64 / self.duration.as_secs_f64().max(1e-9) / 1e6
    }
}

/// One figure of the baseline.
#[derive(Debug, Clone)]
pub struct Figure {
    /// Key in the bench results (`bench_out`).
    pub key: &'static str,
    pub name: &'static str,
    pub value: f64,
    pub unit: &'static str,
    /// How it was obtained.
    pub how: String,
}

/// The measured baseline.
#[derive(Debug, Clone)]
pub struct Baseline {
    /// `haproxy -v`'s version.
    pub haproxy_version: String,
    pub opts: BenchOpts,
    /// `Connection: close` on `/id`: one new client connection (and one new server
    /// connection) per request.
    pub new_conn: WrkResult,
    /// Keep-alive requests on `/id`.
    pub keepalive: WrkResult,
    /// Keep-alive requests of the 1 MiB `/static/blob`.
    pub blob: WrkResult,
    /// The machine's 1-minute load average before and after the runs.
    pub load_before: Option<f64>,
    pub load_after: Option<f64>,
}

impl Baseline {
    /// The figures with units and how each was obtained.
    pub fn figures(&self) -> Vec<Figure> {
        let how = |r: &WrkResult| {
            format!(
                "measured wall-clock, {}, HAProxy {} nbthread {NBTHREAD}, this machine",
                r.command, self.haproxy_version
            )
        };
        vec![
            Figure {
                key: "baseline.haproxy.conn_per_s",
                name: "new connections/s (GET /id, Connection: close)",
                value: self.new_conn.rate(),
                unit: "connections/s",
                how: how(&self.new_conn),
            },
            Figure {
                key: "baseline.haproxy.keepalive_req_per_s",
                name: "keep-alive requests/s (GET /id)",
                value: self.keepalive.rate(),
                unit: "requests/s",
                how: how(&self.keepalive),
            },
            Figure {
                key: "baseline.haproxy.blob_mb_per_s",
                name: "1 MiB GET /static/blob throughput",
                value: self.blob.mb_per_sec(),
                unit: "MB/s",
                how: format!("{} (bytes read incl. headers / 10^6 / s)", how(&self.blob)),
            },
            Figure {
                key: "baseline.haproxy.blob_req_per_s",
                name: "1 MiB GET /static/blob requests/s",
                value: self.blob.rate(),
                unit: "requests/s",
                how: how(&self.blob),
            },
        ]
    }

    /// The runs, in the order measured.
    pub fn runs(&self) -> [&WrkResult; 3] {
        [&self.new_conn, &self.keepalive, &self.blob]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUT: &str = "Running 5s test @ http://10.0.0.100:80/id
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.52ms  310.20us   9.01ms   88.00%
    Req/Sec    10.52k   400.00    11.00k    70.00%
  52345 requests in 5.00s, 12.34MB read
  Socket errors: connect 0, read 3, write 0, timeout 0
Requests/sec:  10469.00
Transfer/sec:      2.47MB
SNICB-SUMMARY requests=52345 bytes=12939427 duration_us=5000123 connect=0 read=3 write=0 status=0 timeout=0 latency_mean_us=1520.4 latency_p99_us=3100
";

    #[test]
    fn parses_wrk_output() {
        let r = WrkResult::parse(OUT, "wrk".into()).expect("parse");
        assert_eq!(r.requests, 52345);
        assert_eq!(r.bytes, 12939427);
        assert_eq!(r.duration, Duration::from_micros(5000123));
        assert!((r.requests_per_sec - 10469.0).abs() < 1e-9);
        assert!((r.transfer_per_sec - 2.47 * 1024.0 * 1024.0).abs() < 1.0);
        assert_eq!(r.errors.read, 3);
        assert_eq!(r.errors.total(), 3);
        assert_eq!(r.latency_p99_us, 3100);
        assert!((r.rate() - 10468.7).abs() < 0.1);
    }

    #[test]
    fn parses_snmp() {
        let snmp = "Ip: Forwarding DefaultTTL\nIp: 1 64\n\
                    Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails\n\
                    Tcp: 1 200 120000 -1 42 17 0\nUdp: InDatagrams\nUdp: 0\n";
        assert_eq!(
            TcpOpens::parse(snmp).expect("parse"),
            TcpOpens {
                passive: 17,
                active: 42
            }
        );
    }

    #[test]
    fn rejects_output_without_summary() {
        assert!(WrkResult::parse("Requests/sec: 1\nTransfer/sec: 1KB\n", "wrk".into()).is_err());
    }

    #[test]
    fn haproxy_config_has_the_rules() {
        let c = haproxy_config();
        assert!(c.contains("bind 10.0.0.100:80"));
        assert!(c.contains("server web2 192.168.1.11:8080"));
        assert!(c.contains("server api1 192.168.1.13:8080"));
        assert!(c.contains("http-reuse never"));
        assert!(c.find("use_backend static").unwrap() < c.find("use_backend api").unwrap());
    }
}
