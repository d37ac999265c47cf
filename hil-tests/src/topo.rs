//! A topology of real Linux peers around the card (docs/rig.md).
//!
//! ```text
//!  client ns            card                 LAN ns (bridge)         backend ns x N
//!  10.0.0.2 ── link ── port 0 │ port 1 ── link ── br ── veth ──────── 192.168.1.10+i
//!              VIP 10.0.0.100:80   local 192.168.1.1
//! ```
//!
//! On the simulated rig (the default) the links are TAP devices and the card (real gateware,
//! real firmware) is served in a thread; on a lab rig ([`crate::rig`], `$SPLICENIC_RIG`) they
//! are the host interfaces cabled to a real card opened through VFIO. [`Topology::build`]
//! brings up the card, builds the namespaces, starts nginx in each backend namespace,
//! captures both card ports to pcap files and programs the card (port MACs, local address,
//! pools, real servers, an L7 service, URL rules). Dropping it, also while a test panics,
//! stops the processes, deletes the namespaces and links (a lab rig's interfaces go back to
//! the host) and stops the card; after a failure it keeps the pcaps, the backends' logs and
//! (simulated card, `SPLICENIC_WAVES=1`) the waveform under `target/hil-failures/` and says
//! where. Needs root.
//!
//! Every name carries the prefix `snic` and a per-run id.

use crate::rig::{Addresses, LabCard, Rig, RigKind};
use crate::{firmware_bytes, SIM_BOOT_TIMEOUT, SIM_MAILBOX_TIMEOUT};
use anyhow::{bail, Context, Result};
use splicenic_driver::apply::{ApplyReport, Neighbours};
use splicenic_driver::{
    Card, FirmwareImage, FlowInfo, FlowStats, RealServer, Scheduler, SocketBar, TcpTimeoutState,
    VfioBar,
};
use splicenic_sim::prereq;
use splicenic_sim::server::{serve_with, ServeOptions};
use splicenic_sim::SimConfig;
use std::net::Ipv4Addr;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

// The default rig's addresses ([`Addresses::default`]); scenarios use `Topology::addrs`,
// which a lab rig file may change.

/// The virtual service's address (client side).
pub const VIP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 100);
/// The virtual service's port.
pub const VIP_PORT: u16 = 80;
/// The client namespace's address.
pub const CLIENT_IP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
/// The card's own address on the server LAN.
pub const LOCAL_IP: Ipv4Addr = Ipv4Addr::new(192, 168, 1, 1);
/// The port every backend's nginx listens on.
pub const BACKEND_PORT: u16 = 8080;
/// The card's client-side port MAC.
pub const CARD_MAC_C: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x01];
/// The card's server-side port MAC.
pub const CARD_MAC_S: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x02];
/// Size of `/static/blob` on every backend.
pub const BLOB_LEN: usize = 1 << 20;

/// A pool of backends.
#[derive(Debug, Clone)]
pub struct PoolSpec {
    /// Card pool number, 0..8 (`card_index` in the configuration file,
    /// [`Opts::config_text`]).
    pub id: u8,
    pub sched: Scheduler,
    /// Indices into [`Opts::backends`].
    pub backends: Vec<usize>,
}

/// How an L7 rule matches (one of path or Host; the other is "any").
#[derive(Debug, Clone)]
pub enum Match {
    PathPrefix(String),
    HostExact(String),
}

/// What [`Topology::build`] sets up, programmed as the configuration file
/// [`Opts::config_text`] through the host driver's `apply` (as `nicctl rules load`).
#[derive(Debug, Clone)]
pub struct Opts {
    /// Backend names; backend i gets [`Addresses::backend`]`(i)` (192.168.1.(10 + i)). The
    /// pools list them in increasing order, each in one pool, so that backend i is real
    /// server i.
    pub backends: Vec<String>,
    pub pools: Vec<PoolSpec>,
    /// The L7 service's default pool.
    pub default_pool: u8,
    /// L7 rules in priority order: (match, pool).
    pub rules: Vec<(Match, u8)>,
}

impl Opts {
    /// Backends `web1`, `web2`, `static1`, `api1`; pool 1 `web` (rr, web1 + web2, default),
    /// pool 2 `static` (`/static/`), pool 3 `api` (Host `api.example.com`).
    pub fn three_pools() -> Opts {
        Opts {
            backends: ["web1", "web2", "static1", "api1"]
                .map(String::from)
                .to_vec(),
            pools: vec![
                PoolSpec {
                    id: 1,
                    sched: Scheduler::Rr,
                    backends: vec![0, 1],
                },
                PoolSpec {
                    id: 2,
                    sched: Scheduler::Rr,
                    backends: vec![2],
                },
                PoolSpec {
                    id: 3,
                    sched: Scheduler::Rr,
                    backends: vec![3],
                },
            ],
            default_pool: 1,
            rules: vec![
                (Match::PathPrefix("/static/".into()), 2),
                (Match::HostExact("api.example.com".into()), 3),
            ],
        }
    }
}

impl Opts {
    /// The name of pool `p` in the configuration file: its first backend's name without
    /// the trailing digits (`web1` -> `web`), else `poolN`.
    pub fn pool_name(&self, p: &PoolSpec) -> String {
        let base = |q: &PoolSpec| {
            q.backends
                .first()
                .and_then(|&b| self.backends.get(b))
                .map(|n| n.trim_end_matches(|c: char| c.is_ascii_digit()).to_string())
                .filter(|n| {
                    !n.is_empty()
                        && n.chars().all(|c| c.is_ascii_alphanumeric())
                        && !n.starts_with("pool")
                })
        };
        match base(p) {
            Some(n)
                if self
                    .pools
                    .iter()
                    .filter(|q| q.id != p.id)
                    .all(|q| base(q).as_deref() != Some(n.as_str())) =>
            {
                n
            }
            _ => format!("pool{}", p.id),
        }
    }

    /// The configuration file (keepalived syntax, as `nicctl rules load` reads it) that
    /// programs this topology on a rig with `addrs`: the card's MACs and local address, the
    /// pools with their card numbers (`card_index`), the
    /// backends as real servers (weight 1; no `mac`: their MACs come from the neighbour
    /// table), the L7 service and the URL rules with priorities 10, 20, ...
    pub fn config_text(&self, addrs: &Addresses) -> String {
        let mac = |m: [u8; 6]| m.map(|b| format!("{b:02x}")).join(":");
        let mut t = format!(
            "# The real-peer topology (splicenic_hil::topo::Opts::config_text).\n\
             global_defs {{\n    client_mac {}\n    server_mac {}\n    local_address {}\n}}\n",
            mac(addrs.card_mac_client),
            mac(addrs.card_mac_server),
            addrs.local
        );
        let name_of = |id: u8| {
            self.pools
                .iter()
                .find(|p| p.id == id)
                .map_or(format!("pool{id}"), |p| self.pool_name(p))
        };
        t += &format!(
            "virtual_server {} {} {{\n    lvs_method NAT\n    protocol TCP\n    default_pool {}\n}}\n",
            addrs.vip,
            addrs.vip_port,
            name_of(self.default_pool)
        );
        for p in &self.pools {
            t += &format!(
                "pool {} {{\n    card_index {}\n    lvs_sched {}\n",
                self.pool_name(p),
                p.id,
                p.sched
            );
            for &b in &p.backends {
                t += &format!(
                    "    real_server {} {} {{\n        weight 1\n    }}\n",
                    addrs.backend(b),
                    addrs.backend_port
                );
            }
            t += "}\n";
        }
        for (i, (m, pool)) in self.rules.iter().enumerate() {
            let what = match m {
                Match::PathPrefix(p) => format!("path_prefix {p}"),
                Match::HostExact(h) => format!("host {h}"),
            };
            t += &format!(
                "url_rule r{} {{\n    {what}\n    priority {}\n    pool {}\n}}\n",
                i + 1,
                10 * (i + 1),
                name_of(*pool)
            );
        }
        t
    }
}

/// One backend namespace running nginx.
#[derive(Debug)]
pub struct Backend {
    pub name: String,
    pub ns: String,
    pub ip: Ipv4Addr,
    pub mac: [u8; 6],
    /// nginx's prefix directory (config, docroot, logs).
    pub dir: PathBuf,
}

impl Backend {
    /// Its nginx site (the backend without its MAC).
    pub fn site(&self) -> NginxSite {
        NginxSite {
            name: self.name.clone(),
            ns: self.ns.clone(),
            ip: self.ip,
            dir: self.dir.clone(),
        }
    }
}

/// The running topology. See the module documentation.
pub struct Topology {
    /// Per-run id in every name (`snic<id>...`).
    pub id: String,
    /// The rig it runs on.
    pub rig: Rig,
    /// The addresses (the rig's).
    pub addrs: Addresses,
    /// The link to the card's client port, in the client namespace (a TAP device on the
    /// simulated rig, the host interface on a lab rig).
    pub client_if: String,
    /// The link to the card's server port, in the LAN namespace's bridge.
    pub server_if: String,
    pub client_ns: String,
    pub lan_ns: String,
    pub backends: Vec<Backend>,
    pub card: Option<Card>,
    /// Wall time from the start of `build` until the card was programmed.
    pub setup_time: Duration,
    /// The known content of `/static/blob`.
    pub blob: Vec<u8>,
    dir: PathBuf,
    socket: PathBuf,
    taps: Vec<String>,
    /// A lab rig's host interfaces moved into namespaces: (interface, namespace).
    moved: Vec<(String, String)>,
    namespaces: Namespaces,
    children: Vec<Child>,
    /// The port captures (dumpcap), stopped with SIGINT so the files are complete.
    captures: Vec<Child>,
    /// The scenario's name (the test thread's), for the failure directory.
    scenario: String,
    server: Option<JoinHandle<std::result::Result<(), splicenic_sim::SimError>>>,
}

/// python3 with the distribution's packages (scapy): `/usr/bin/python3` when present.
pub fn python() -> &'static str {
    if Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
}

/// Serialises the scenarios of one test binary: each builds its own topology.
static SCENARIO: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Whether a scenario can run here: root (TAP devices, namespaces) and every tool of
/// `tools` (`(program, version flag)`) installed; otherwise skips it
/// ([`splicenic_sim::prereq::skip`]: a note by hand, a failure under `cargo xtask test`).
pub fn rig_available(name: &str, tools: &[(&str, &str)]) -> bool {
    if prereq::need_root(name).is_none() {
        return false;
    }
    // dumpcap records both card ports of every topology.
    for (tool, arg) in tools.iter().chain(&[("dumpcap", "-v")]) {
        if Command::new(tool).arg(arg).output().is_err() {
            prereq::skip(name, &format!("{tool} not installed (cargo xtask setup)"));
            return false;
        }
    }
    true
}

/// The start of a scenario: `None` (with a note) when the rig cannot run here, else the
/// lock that keeps the binary's scenarios one at a time and the start time. Build the
/// topology after taking it.
pub fn scenario(
    name: &str,
    tools: &[(&str, &str)],
) -> Option<(std::sync::MutexGuard<'static, ()>, Instant)> {
    if !rig_available(name, tools) {
        return None;
    }
    let guard = SCENARIO.lock().unwrap_or_else(|e| e.into_inner());
    Some((guard, Instant::now()))
}

pub use splicenic_sim::prereq::is_root;

pub use crate::netns::ExecOutput;
use crate::netns::{must, run, Namespaces, NginxSite};

fn parse_mac(s: &str) -> Result<[u8; 6]> {
    let v: Vec<u8> = s
        .split(':')
        .map(|b| u8::from_str_radix(b, 16))
        .collect::<std::result::Result<_, _>>()
        .with_context(|| format!("MAC {s:?}"))?;
    v.try_into()
        .map_err(|_| anyhow::anyhow!("MAC {s:?} is not 6 bytes"))
}

/// The deterministic content of `/static/blob`.
pub fn blob_content() -> Vec<u8> {
    // xorshift32: not compressible, not periodic within 1 MiB.
    let mut x: u32 = 0x9e37_79b9;
    let mut v = Vec::with_capacity(BLOB_LEN);
    while v.len() < BLOB_LEN {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v.extend_from_slice(&x.to_le_bytes());
    }
    v.truncate(BLOB_LEN);
    v
}

static RUNS: AtomicU32 = AtomicU32::new(0);

impl Topology {
    /// Build and program everything on the rig `$SPLICENIC_RIG` names (the simulated card
    /// without it); on error, whatever was made is torn down.
    pub fn build(opts: &Opts) -> Result<Topology> {
        let rig = Rig::from_env()?;
        Topology::build_on(rig, opts)
    }

    /// Like [`Topology::build`] on a given rig.
    pub fn build_on(rig: Rig, opts: &Opts) -> Result<Topology> {
        let t0 = Instant::now();
        let id = format!(
            "{:x}{}",
            std::process::id() & 0xfffff,
            RUNS.fetch_add(1, Ordering::Relaxed)
        );
        let dir = std::env::temp_dir().join(format!("snic-topo-{id}"));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let scenario = std::thread::current()
            .name()
            .unwrap_or("scenario")
            .replace("::", "-");
        let mut t = Topology {
            client_ns: format!("snic{id}c"),
            lan_ns: format!("snic{id}l"),
            socket: dir.join("card.sock"),
            addrs: rig.addrs.clone(),
            rig,
            client_if: String::new(),
            server_if: String::new(),
            dir,
            id,
            backends: Vec::new(),
            card: None,
            setup_time: Duration::ZERO,
            blob: blob_content(),
            taps: Vec::new(),
            moved: Vec::new(),
            namespaces: Namespaces::default(),
            children: Vec::new(),
            captures: Vec::new(),
            scenario,
            server: None,
        };
        if opts.backends.len() > usize::from(crate::rig::MAX_BACKENDS) {
            bail!(
                "{} backends; a topology has at most {}",
                opts.backends.len(),
                crate::rig::MAX_BACKENDS
            );
        }
        t.start_card()?;
        t.build_net(opts)?;
        t.start_captures()?;
        t.start_nginx()?;
        t.program(opts)?;
        t.setup_time = t0.elapsed();
        Ok(t)
    }

    /// Where a failed scenario's files are kept: `target/hil-failures/<scenario>-<id>`.
    fn failure_dir(&self) -> PathBuf {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
        target
            .join("hil-failures")
            .join(format!("{}-{}", self.scenario, self.id))
    }

    /// The simulated card's waveform file, when `$SPLICENIC_WAVES` asks for one.
    fn waves_path(&self) -> Option<PathBuf> {
        crate::waves_requested().then(|| self.dir.join("card.fst"))
    }

    fn start_card(&mut self) -> Result<()> {
        let fw = firmware_bytes()?;
        let (mut card, boot, mailbox) = match self.rig.kind.clone() {
            RigKind::Sim { cpu } => {
                let tap_c = format!("snic{}tc", self.id);
                let tap_s = format!("snic{}ts", self.id);
                for tap in [&tap_c, &tap_s] {
                    must(&["ip", "tuntap", "add", "dev", tap, "mode", "tap"])?;
                    self.taps.push(tap.clone());
                }
                self.client_if = tap_c.clone();
                self.server_if = tap_s.clone();
                let opts = ServeOptions {
                    tap_client: Some(tap_c),
                    tap_server: Some(tap_s),
                };
                let cfg = SimConfig {
                    cpu,
                    trace: self.waves_path(),
                };
                let socket = self.socket.clone();
                let server = std::thread::spawn(move || serve_with(&socket, cfg, &opts));
                let t0 = Instant::now();
                while UnixStream::connect(&self.socket).is_err() {
                    if server.is_finished() {
                        bail!("card server ended: {:?}", server.join());
                    }
                    if t0.elapsed() > Duration::from_secs(60) {
                        bail!("card server did not start within 60 s");
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                self.server = Some(server);
                let bar = SocketBar::connect(&self.socket)?;
                (
                    Card::open(Box::new(bar))?,
                    SIM_BOOT_TIMEOUT * 2,
                    SIM_MAILBOX_TIMEOUT * 2,
                )
            }
            RigKind::Lab(lab) => {
                let file = self
                    .rig
                    .file
                    .as_ref()
                    .map_or(String::new(), |f| format!("rig file {}: ", f.display()));
                for (field, ifname) in [
                    ("ports.client", &lab.client_if),
                    ("ports.server", &lab.server_if),
                ] {
                    if !Path::new("/sys/class/net").join(ifname).exists() {
                        bail!("{file}{field}: no interface `{ifname}` on this host (ip link)");
                    }
                }
                self.client_if = lab.client_if.clone();
                self.server_if = lab.server_if.clone();
                match &lab.card {
                    LabCard::Pci(pci) => {
                        let bar = VfioBar::open(pci).with_context(|| {
                            format!("{file}card.pci: cannot open the card {pci}")
                        })?;
                        // A real card boots and answers in milliseconds; the bounds only
                        // catch a card that does not.
                        (
                            Card::open(Box::new(bar))?,
                            Duration::from_secs(10),
                            Duration::from_secs(5),
                        )
                    }
                    LabCard::Socket(p) => {
                        let bar = SocketBar::connect(p).with_context(|| {
                            format!("{file}card.socket: no simulated card on {}", p.display())
                        })?;
                        (
                            Card::open(Box::new(bar))?,
                            SIM_BOOT_TIMEOUT * 2,
                            SIM_MAILBOX_TIMEOUT * 2,
                        )
                    }
                }
            }
        };
        let img = FirmwareImage::parse(&fw)?;
        card.firmware().load_with_timeout(&img, boot, |_, _| {})?;
        card.set_mailbox_timeout(mailbox);
        self.card = Some(card);
        Ok(())
    }

    /// Move link `dev` into namespace `ns` (a lab rig's interface is moved back on drop).
    fn move_link(&mut self, dev: &str, ns: &str) -> Result<()> {
        must(&["ip", "link", "set", dev, "netns", ns])?;
        if !self.taps.iter().any(|t| t == dev) {
            self.moved.push((dev.to_string(), ns.to_string()));
        }
        Ok(())
    }

    /// dumpcap on both card ports (client link in the client namespace, server link in the
    /// LAN namespace), 256 bytes of each frame, into the run's directory.
    fn start_captures(&mut self) -> Result<()> {
        for (ns, dev, file) in [
            (
                self.client_ns.clone(),
                self.client_if.clone(),
                "client-port.pcap",
            ),
            (
                self.lan_ns.clone(),
                self.server_if.clone(),
                "server-port.pcap",
            ),
        ] {
            let path = self.dir.join(file);
            let log = std::fs::File::create(self.dir.join(format!("{file}.log")))?;
            let child = Command::new("ip")
                .args([
                    "netns", "exec", &ns, "dumpcap", "-q", "-P", "-s", "256", "-i", &dev, "-w",
                ])
                .arg(&path)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .context("starting dumpcap (apt-get install tshark)")?;
            self.captures.push(child);
            // Capturing once the file has its header.
            let t0 = Instant::now();
            while std::fs::metadata(&path).map_or(true, |m| m.len() == 0) {
                if t0.elapsed() > Duration::from_secs(20) {
                    let log = std::fs::read_to_string(self.dir.join(format!("{file}.log")))
                        .unwrap_or_default();
                    bail!("dumpcap on {dev} in {ns} did not start: {}", log.trim());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        Ok(())
    }

    fn add_ns(&mut self, ns: &str) -> Result<()> {
        self.namespaces.add(ns)
    }

    fn build_net(&mut self, opts: &Opts) -> Result<()> {
        let (tap_c, tap_s) = (self.client_if.clone(), self.server_if.clone());
        let (cns, lns) = (self.client_ns.clone(), self.lan_ns.clone());
        // Client side: the link in the client namespace, the VIP on-link.
        self.add_ns(&cns)?;
        self.move_link(&tap_c, &cns)?;
        must(&["ip", "-n", &cns, "addr", "flush", "dev", &tap_c])?;
        must(&[
            "ip",
            "-n",
            &cns,
            "addr",
            "add",
            &format!("{}/24", self.addrs.client),
            "dev",
            &tap_c,
        ])?;
        must(&["ip", "-n", &cns, "link", "set", &tap_c, "mtu", "1500", "up"])?;
        // Server side: a bridge holding the link and one veth per backend.
        self.add_ns(&lns)?;
        self.move_link(&tap_s, &lns)?;
        must(&["ip", "-n", &lns, "addr", "flush", "dev", &tap_s])?;
        let br = format!("snic{}br", self.id);
        must(&["ip", "-n", &lns, "link", "add", &br, "type", "bridge"])?;
        must(&["ip", "-n", &lns, "link", "set", &tap_s, "master", &br])?;
        must(&["ip", "-n", &lns, "link", "set", &tap_s, "up"])?;
        must(&["ip", "-n", &lns, "link", "set", &br, "up"])?;
        for (i, name) in opts.backends.iter().enumerate() {
            let ns = format!("snic{}b{i}", self.id);
            self.add_ns(&ns)?;
            let (vb, vp) = (
                format!("snic{}v{i}", self.id),
                format!("snic{}p{i}", self.id),
            );
            let ip = self.addrs.backend(i);
            crate::netns::attach_to_bridge(&lns, &br, (&vb, &vp), &ns, ip)?;
            let link = must(&["ip", "-n", &ns, "-j", "link", "show", "dev", &vp])?;
            let mac = link
                .split("\"address\":\"")
                .nth(1)
                .and_then(|s| s.split('"').next())
                .with_context(|| format!("no address in {link}"))?;
            self.backends.push(Backend {
                name: name.clone(),
                ns,
                ip,
                mac: parse_mac(mac)?,
                dir: self.dir.join(name),
            });
        }
        Ok(())
    }

    fn start_nginx(&mut self) -> Result<()> {
        let sites: Vec<NginxSite> = self.backends.iter().map(Backend::site).collect();
        crate::netns::start_nginx(
            &sites,
            self.addrs.backend_port,
            &self.blob,
            &mut self.children,
        )
    }

    /// Programs `opts` as its configuration file ([`Opts::config_text`]) through the host
    /// driver's `apply`, and checks that backend i is real server i.
    fn program(&mut self, opts: &Opts) -> Result<()> {
        let text = opts.config_text(&self.addrs);
        let neigh = self.neighbours();
        let card = self.card.as_mut().context("no card")?;
        let (plan, _) = crate::load_config(card, "topology.conf", &text, &neigh)?;
        for p in &opts.pools {
            let name = opts.pool_name(p);
            let planned = plan
                .pool(&name)
                .with_context(|| format!("topology: pool {name} not planned"))?;
            let rs: Vec<usize> = planned.servers.iter().map(|s| s.rs.into()).collect();
            if planned.index != p.id || rs != p.backends {
                bail!(
                    "topology: pool {} (backends {:?}) became pool {} with real servers {rs:?}: \
                     list the pools by increasing number and their backends in increasing \
                     order, each backend in one pool",
                    p.id,
                    p.backends,
                    planned.index
                );
            }
        }
        Ok(())
    }

    /// The backends' addresses and MACs: the neighbour table [`Topology::load_config`]
    /// resolves real servers with.
    pub fn neighbours(&self) -> Neighbours {
        self.backends.iter().map(|b| (b.ip, b.mac)).collect()
    }

    /// Loads the configuration file `text` into the card through the host driver's `apply`
    /// (what `nicctl rules load` does), real servers without a `mac` resolved from the
    /// backends ([`Topology::neighbours`]).
    pub fn load_config(&mut self, name: &str, text: &str) -> Result<ApplyReport> {
        let neigh = self.neighbours();
        let card = self.card.as_mut().context("no card")?;
        Ok(crate::load_config(card, name, text, &neigh)?.1)
    }

    /// `--card` for a nicctl run against this topology's card: the simulated card's socket
    /// (`sim:<path>`); `None` on a lab rig's VFIO card, which this process holds open.
    pub fn nicctl_card(&self) -> Option<String> {
        match &self.rig.kind {
            RigKind::Sim { .. } => Some(format!("sim:{}", self.socket.display())),
            RigKind::Lab(lab) => match &lab.card {
                LabCard::Socket(p) => Some(format!("sim:{}", p.display())),
                LabCard::Pci(_) => None,
            },
        }
    }

    /// Runs `nicctl --card <this card> args` (`nicctl` from [`crate::nicctl_binary`]) in the
    /// LAN namespace, whose neighbour table holds the backends (permanent entries on the
    /// bridge), so real servers without a `mac` line resolve as on a load balancer host.
    /// Returns its output; an error when it cannot run or exits unsuccessfully.
    pub fn nicctl(&self, args: &[&str]) -> Result<ExecOutput> {
        let bin = crate::nicctl_binary()
            .context("no nicctl binary: build it with `cargo build -p nicctl`")?;
        let card = self
            .nicctl_card()
            .context("nicctl cannot open a lab rig's VFIO card the topology holds open")?;
        let br = format!("snic{}br", self.id);
        for b in &self.backends {
            let mac = b.mac.map(|x| format!("{x:02x}")).join(":");
            must(&[
                "ip",
                "-n",
                &self.lan_ns,
                "neigh",
                "replace",
                &b.ip.to_string(),
                "lladdr",
                &mac,
                "dev",
                &br,
                "nud",
                "permanent",
            ])?;
        }
        let bin = bin.to_string_lossy().into_owned();
        let mut cmd = vec![bin.as_str(), "--card", card.as_str()];
        cmd.extend_from_slice(args);
        let out = self.exec(&self.lan_ns, &cmd, Duration::from_secs(600))?;
        if !out.ok {
            bail!("nicctl {args:?} failed: {}{}", out.text(), out.stderr);
        }
        Ok(out)
    }

    /// Run `cmd` in namespace `ns`, killed after `timeout`.
    pub fn exec(&self, ns: &str, cmd: &[&str], timeout: Duration) -> Result<ExecOutput> {
        crate::netns::exec(ns, cmd, timeout)
    }

    /// `nstat -az NAME` in `ns`: the counter's absolute value.
    pub fn nstat(&self, ns: &str, name: &str) -> Result<u64> {
        let out = self.exec(ns, &["nstat", "-az", name], Duration::from_secs(10))?;
        for line in out.text().lines() {
            let mut f = line.split_whitespace();
            if f.next() == Some(name) {
                return Ok(f.next().unwrap_or("0").parse()?);
            }
        }
        bail!("no {name} in nstat output: {}", out.text())
    }

    /// Lines of the backends' nginx error logs at level error or worse ("[error]", "[crit]",
    /// "[alert]", "[emerg]").
    pub fn peer_errors(&self) -> Vec<String> {
        let mut v = Vec::new();
        for b in &self.backends {
            let log = std::fs::read_to_string(b.dir.join("logs/error.log")).unwrap_or_default();
            for l in log.lines() {
                if ["[error]", "[crit]", "[alert]", "[emerg]"]
                    .iter()
                    .any(|lv| l.contains(lv))
                {
                    v.push(format!("{}: {l}", b.name));
                }
            }
        }
        v
    }

    /// Point real server `backend` (an index into [`Topology::backends`]) of pool `pool` at
    /// `port` on that backend instead of nginx's port (`addrs.backend_port`), e.g. a helper
    /// server a scenario starts with [`Topology::spawn`].
    /// The server is deleted and added again; only
    /// new connections see the change.
    pub fn set_backend_port(&mut self, pool: u8, backend: usize, port: u16) -> Result<()> {
        let b = self
            .backends
            .get(backend)
            .with_context(|| format!("no backend {backend}"))?;
        let rs = RealServer {
            pool,
            rs: backend as u8,
            addr: b.ip,
            port,
            mac: b.mac,
            weight: 1,
            upper_threshold: 0,
            lower_threshold: 0,
        };
        // SERVER_SET edits only the weight and thresholds of a server it knows: delete it
        // and add it again with the new port.
        let card = self.card.as_mut().context("no card")?;
        card.flow_manager().server_delete(rs.rs)?;
        card.flow_manager().server_set(&rs)?;
        Ok(())
    }

    /// Start `cmd` in namespace `ns` in the background, its stdout and stderr appended to
    /// `log`; it is killed when the topology is dropped.
    pub fn spawn(&mut self, ns: &str, cmd: &[&str], log: &Path) -> Result<()> {
        let out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .with_context(|| format!("opening {}", log.display()))?;
        let child = Command::new("ip")
            .args(["netns", "exec", ns])
            .args(cmd)
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .spawn()
            .with_context(|| format!("starting {cmd:?} in {ns}"))?;
        self.children.push(child);
        Ok(())
    }

    /// Set the card's timeouts of the closing TCP states (FIN_WAIT, TIME_WAIT, CLOSE,
    /// CLOSE_WAIT, LAST_ACK) to `ms` milliseconds of card time, so that the flows of closed
    /// connections leave the table quickly.
    pub fn set_closing_timeouts_ms(&mut self, ms: u32) -> Result<()> {
        let card = self.card.as_mut().context("no card")?;
        for st in [
            TcpTimeoutState::FinWait,
            TcpTimeoutState::TimeWait,
            TcpTimeoutState::Close,
            TcpTimeoutState::CloseWait,
            TcpTimeoutState::LastAck,
            TcpTimeoutState::Linger,
        ] {
            card.flow_manager().timeout_set_ms(st, ms)?;
        }
        Ok(())
    }

    /// The topology's card. Panics when it has none (a topology built without a card).
    pub fn card_mut(&mut self) -> &mut Card {
        self.card.as_mut().expect("this topology has no card")
    }

    /// The card's flow table (FLOW_LIST, then FLOW_GET of each flow). Panics when there is no
    /// card or it does not answer.
    pub fn flows(&mut self) -> Vec<FlowInfo> {
        self.card_mut()
            .flow_manager()
            .flows(|_| {})
            .expect("FLOW_LIST/FLOW_GET")
    }

    /// The card's flow-manager counters (FLOW_STATS). Panics when there is no card or it
    /// does not answer.
    pub fn flow_stats(&mut self) -> FlowStats {
        self.card_mut()
            .flow_manager()
            .flow_stats()
            .expect("FLOW_STATS")
    }

    /// FLOW_STATS once no connection is in setup (`pending_in_use` 0), waiting at most
    /// `bound` (for a card at [`crate::wait::REFERENCE_HZ`], stretched by its measured
    /// speed; panics naming `what` when it passes). The card completes a server handshake
    /// itself when it absorbs the SYN-ACK (docs/server-open.md): a connection may be served
    /// before the firmware has read the SYN-ACK's punt and done its setup's bookkeeping.
    pub fn settled_flow_stats(&mut self, what: &str, bound: Duration) -> FlowStats {
        let card = self.card_mut();
        let limit = crate::wait::CardSpeed::of(card).scale(bound);
        crate::wait::until_seen(what, limit, || {
            let s = card.flow_manager().flow_stats().expect("FLOW_STATS");
            if s.pending_in_use == 0 {
                Ok(s)
            } else {
                Err(format!("{} connections in setup", s.pending_in_use))
            }
        })
    }

    /// Wait until no flow on the card matches `pred`; the time it took. `bound` is for a card
    /// at [`crate::wait::REFERENCE_HZ`], stretched by the card's measured speed
    /// ([`crate::wait::CardSpeed`]); after it, panics naming `what` and the flows left.
    pub fn wait_flows(
        &mut self,
        what: &str,
        pred: impl Fn(&FlowInfo) -> bool,
        bound: Duration,
    ) -> Duration {
        let bound = crate::wait::CardSpeed::of(self.card_mut()).scale(bound);
        let t1 = Instant::now();
        crate::wait::until_seen(
            &format!("{what}: the flow leaving the card's table"),
            bound,
            || {
                let left: Vec<FlowInfo> = self.flows().into_iter().filter(|f| pred(f)).collect();
                if left.is_empty() {
                    Ok(())
                } else {
                    Err(format!("{left:?}"))
                }
            },
        );
        t1.elapsed()
    }

    /// The card's client-side MAC as `aa:bb:cc:dd:ee:ff`.
    pub fn card_mac_client(&self) -> String {
        self.addrs
            .card_mac_client
            .map(|b| format!("{b:02x}"))
            .join(":")
    }

    /// The backend of that name.
    pub fn backend(&self, name: &str) -> Option<&Backend> {
        self.backends.iter().find(|b| b.name == name)
    }

    /// The temp directory (per-backend nginx dirs, the card socket).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Topology {
    /// Stop the port captures: SIGINT, so dumpcap writes out what it has.
    fn stop_captures(&mut self) {
        for c in &mut self.captures {
            if let Ok(pid) = i32::try_from(c.id()) {
                // SAFETY: kill has no memory preconditions; the pid is our own child's.
                unsafe { libc::kill(pid, libc::SIGINT) };
            }
        }
        let t0 = Instant::now();
        for c in &mut self.captures {
            while matches!(c.try_wait(), Ok(None)) && t0.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
        self.captures.clear();
    }

    /// After a failure: copy the port captures, the backends' logs, the card's waveform and
    /// the card server's files into [`Topology::failure_dir`] and say where.
    fn keep_failure_files(&self) {
        let dest = self.failure_dir();
        if std::fs::create_dir_all(&dest).is_err() {
            eprintln!(
                "note: cannot create {} for the failure files",
                dest.display()
            );
            return;
        }
        let mut kept = Vec::new();
        let mut copy = |from: PathBuf, to: &str| {
            if from.exists() && std::fs::copy(&from, dest.join(to)).is_ok() {
                kept.push(to.to_string());
            }
        };
        copy(self.dir.join("client-port.pcap"), "client-port.pcap");
        copy(self.dir.join("server-port.pcap"), "server-port.pcap");
        copy(self.dir.join("card.fst"), "card.fst");
        for b in &self.backends {
            for log in ["error.log", "access.log"] {
                copy(b.dir.join("logs").join(log), &format!("{}-{log}", b.name));
            }
        }
        eprintln!(
            "{} failed on the {}: kept {} in {}",
            self.scenario,
            self.rig.kind_name(),
            kept.join(", "),
            dest.display()
        );
        if self.rig.is_sim() && !crate::waves_requested() {
            eprintln!(
                "  for a waveform of the card, run it again with {}=1 (cargo xtask hil does)",
                crate::WAVES_ENV
            );
        }
    }
}

impl Drop for Topology {
    fn drop(&mut self) {
        crate::netns::kill_children(&mut self.children);
        self.stop_captures();
        // Anything else still running in our namespaces.
        self.namespaces.kill_all();
        drop(self.card.take());
        if let Some(server) = self.server.take() {
            if let Ok(bar) = SocketBar::connect(&self.socket) {
                let _ = bar.shutdown();
            }
            // The simulated card closes its waveform file as the server ends.
            let _ = server.join();
        }
        if std::thread::panicking() {
            self.keep_failure_files();
        }
        // A lab rig's interfaces go back to the host.
        for (dev, ns) in &self.moved {
            let _ = run(&["ip", "-n", ns, "addr", "flush", "dev", dev]);
            let _ = run(&["ip", "-n", ns, "link", "set", dev, "nomaster"]);
            let _ = run(&["ip", "-n", ns, "link", "set", dev, "netns", "1"]);
        }
        for ns in self.namespaces.names() {
            for t in &self.taps {
                let _ = run(&["ip", "-n", ns, "link", "del", t]);
            }
        }
        self.namespaces.delete_all();
        for t in &self.taps {
            let _ = run(&["ip", "link", "del", t]);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splicenic_driver::config::{self, Limits};
    use splicenic_driver::ServiceMode;

    #[test]
    fn three_pools_is_the_example_file_and_plans_to_the_tests_numbers() {
        let text = Opts::three_pools().config_text(&Addresses::default());
        let ours = config::parse("topology.conf", &text).unwrap();
        let example = config::load(&crate::example("rig-three-pools.conf")).unwrap();
        assert_eq!(
            ours.without_locations(),
            example.without_locations(),
            "examples/rig-three-pools.conf differs from Opts::three_pools:\n{text}"
        );
        let plan = config::plan(&ours, &Limits::card_default()).unwrap();
        let numbers: Vec<(&str, u8, Vec<u8>)> = plan
            .pools
            .iter()
            .map(|p| {
                (
                    p.name.as_str(),
                    p.index,
                    p.servers.iter().map(|s| s.rs).collect(),
                )
            })
            .collect();
        assert_eq!(
            numbers,
            [
                ("web", 1, vec![0, 1]),
                ("static", 2, vec![2]),
                ("api", 3, vec![3]),
            ]
        );
        assert_eq!(plan.services[0].mode, ServiceMode::L7 { fallback_pool: 1 });
        let rules: Vec<(u16, u16)> = plan
            .rules
            .rules
            .iter()
            .map(|r| (r.rule.priority, r.rule.pool))
            .collect();
        assert_eq!(rules, [(10, 2), (20, 3)]);
        assert_eq!(plan.rules.default_pool, 1);
    }
}
