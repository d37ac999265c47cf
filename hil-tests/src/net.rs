//! A deterministic in-process test network around the simulated card.
//!
//! Real TCP/IP stacks ([smoltcp] interfaces, one per host) talk to each other through the
//! simulated card's two Ethernet ports. The network has two layer-2 segments:
//! [`Segment::Client`] is wired to the card's client port and [`Segment::Server`] to its
//! server port. Each segment is a hub: a frame a host sends reaches every other host of the
//! segment whose MAC address it is for (or all of them for a broadcast or multicast
//! destination) and, always, the card port of that segment. Frames the card sends out of a
//! port reach the hosts of that segment the same way.
//!
//! There is no wall clock anywhere: the hosts' time is the card's simulated time,
//! `cycles * 1_000_000 / CLK_HZ` microseconds, so a run is a pure function of its inputs.
//! [`Net::step`] advances everything by one quantum of card cycles; [`Net::run_until`] steps
//! until a condition holds or a cycle budget is spent.
//!
//! On top of raw smoltcp sockets ([`Net::host_mut`], [`Host`]) there is a small HTTP/1.1
//! server ([`Net::serve_http`], [`HttpServer`]) and client ([`Net::open_fetch`], [`Fetch`]).
//!
//! ```no_run
//! use splicenic_hil::net::{body_for, Net, Segment};
//! use splicenic_hil::open_shared;
//! use splicenic_sim::SimConfig;
//! use std::net::{Ipv4Addr, SocketAddrV4};
//!
//! let (_card, sim) = open_shared(SimConfig::default())?;
//! let mut net = Net::new(sim);
//! net.capture(true);
//! let srv_ip = Ipv4Addr::new(10, 0, 0, 2);
//! let srv = net.add_host(Segment::Client, [2, 0, 0, 0, 0, 2], srv_ip, 24);
//! let cli = net.add_host(Segment::Client, [2, 0, 0, 0, 0, 3], Ipv4Addr::new(10, 0, 0, 3), 24);
//! let server = net.serve_http(srv, 80, "alpha", 4)?;
//! let resp = net.http_get(cli, SocketAddrV4::new(srv_ip, 80), "/data/4096", 10_000_000);
//! let resp = net.keep_pcap_on_error(resp, "/tmp/get.pcap")?;
//! assert_eq!(resp.body, body_for("/data/4096", 4096));
//! assert_eq!(resp.server(), Some("alpha"));
//! assert_eq!(net.server(server).requests(), 1);
//! # anyhow::Ok(())
//! ```

use crate::SharedSim;
use anyhow::{anyhow, bail, Context, Result};
use sha2::{Digest, Sha256};
use smoltcp::iface::{Config, Interface, PollResult, SocketHandle, SocketSet};
use smoltcp::phy::{self, DeviceCapabilities, Medium};
use smoltcp::socket::{tcp, AnySocket};
use smoltcp::time::Instant;
use smoltcp::wire::{EthernetAddress, HardwareAddress, IpAddress, IpCidr, IpEndpoint};
use splicenic_sim::{Port, CLK_HZ};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::Write as _;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::path::{Path, PathBuf};

/// Default number of card cycles per [`Net::step`] (3.2 µs of card time).
///
/// Running the card dominates the wall time of a step, and frames between hosts of one
/// segment take one step, so the quantum sets the simulated round-trip time and with it the
/// card cycles (and wall time) a transfer needs; a step's own work is small next to it.
pub const DEFAULT_QUANTUM: u64 = 500;
/// Largest Ethernet frame a host sends (header included, no FCS).
pub const HOST_MTU: usize = 1514;
/// Shortest Ethernet frame on the wire (no FCS); see [`Net::set_pad_short_frames`].
pub const MIN_FRAME: usize = 60;
/// Receive and transmit buffer size of the TCP sockets made by [`Host::add_tcp_socket`].
pub const TCP_BUFFER: usize = 64 * 1024;
/// First local port [`Net::open_fetch`] hands out.
pub const FIRST_EPHEMERAL_PORT: u16 = 40_000;
/// Body length served for a path that does not carry one (see [`body_len_for`]).
pub const DEFAULT_BODY_LEN: usize = 1024;
/// Largest body length [`body_len_for`] accepts from a path.
pub const MAX_BODY_LEN: usize = 256 << 20;
/// Largest request or response head (start line and headers) the HTTP helpers accept.
const MAX_HEAD: usize = 64 * 1024;
/// Bound on back-to-back egress rounds of one host in one step (each round sends at most
/// one segment per socket).
const MAX_EGRESS_ROUNDS: usize = 4096;

/// Convert card cycles to the hosts' time.
pub fn cycles_to_instant(cycles: u64) -> Instant {
    let us = u128::from(cycles) * 1_000_000 / u128::from(CLK_HZ);
    Instant::from_micros(i64::try_from(us).unwrap_or(i64::MAX))
}

fn cycles_to_nanos(cycles: u64) -> u128 {
    u128::from(cycles) * 1_000_000_000 / u128::from(CLK_HZ)
}

/// A layer-2 segment of the network, wired to one card port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Segment {
    /// Wired to the card's client port.
    Client,
    /// Wired to the card's server port.
    Server,
}

impl Segment {
    /// Both segments.
    pub const ALL: [Segment; 2] = [Segment::Client, Segment::Server];

    /// The card port this segment is wired to.
    pub fn port(self) -> Port {
        match self {
            Segment::Client => Port::Client,
            Segment::Server => Port::Server,
        }
    }

    fn index(self) -> usize {
        match self {
            Segment::Client => 0,
            Segment::Server => 1,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Segment::Client => "client",
            Segment::Server => "server",
        }
    }
}

/// Which way a captured frame went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Sent by a host: it went into the card port (and to the addressed hosts).
    ToCard,
    /// Sent by the card out of the segment's port.
    FromCard,
    /// Made up by the network itself (a static ARP answer, see [`Net::add_static_arp`]).
    Injected,
}

/// One frame seen on a segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    /// Segment it was seen on.
    pub segment: Segment,
    /// Who sent it.
    pub direction: Direction,
    /// Card cycle at which it was moved (host frames: before the tick that follows; card
    /// frames: after the tick in which the card sent them).
    pub cycle: u64,
    /// The Ethernet frame (no FCS).
    pub bytes: Vec<u8>,
}

/// Frame counters of one segment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SegmentStats {
    /// Frames hosts sent (each also went into the card port).
    pub to_card: u64,
    /// Frames the card sent out of the segment's port.
    pub from_card: u64,
    /// Frames from the card that no host of the segment was addressed by.
    pub from_card_unclaimed: u64,
    /// Deliveries of host frames to other hosts of the segment.
    pub host_to_host: u64,
    /// Static ARP answers made up by the network.
    pub injected: u64,
}

/// Index of a host in its [`Net`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HostId(pub usize);

/// Index of an HTTP server in its [`Net`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ServerId(pub usize);

/// Index of an HTTP client connection in its [`Net`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FetchId(pub usize);

/// The Ethernet "wire" of a host: queues of whole frames.
#[derive(Debug, Default)]
struct QueueDevice {
    rx: VecDeque<Vec<u8>>,
    tx: VecDeque<Vec<u8>>,
}

struct QueueRxToken(Vec<u8>);

struct QueueTxToken<'a>(&'a mut VecDeque<Vec<u8>>);

impl phy::RxToken for QueueRxToken {
    fn consume<R, F>(self, f: F) -> R
    where
        F: FnOnce(&[u8]) -> R,
    {
        f(&self.0)
    }
}

impl phy::TxToken for QueueTxToken<'_> {
    fn consume<R, F>(self, len: usize, f: F) -> R
    where
        F: FnOnce(&mut [u8]) -> R,
    {
        let mut frame = vec![0u8; len];
        let r = f(&mut frame);
        self.0.push_back(frame);
        r
    }
}

impl phy::Device for QueueDevice {
    type RxToken<'a>
        = QueueRxToken
    where
        Self: 'a;
    type TxToken<'a>
        = QueueTxToken<'a>
    where
        Self: 'a;

    fn receive(&mut self, _now: Instant) -> Option<(Self::RxToken<'_>, Self::TxToken<'_>)> {
        let frame = self.rx.pop_front()?;
        Some((QueueRxToken(frame), QueueTxToken(&mut self.tx)))
    }

    fn transmit(&mut self, _now: Instant) -> Option<Self::TxToken<'_>> {
        Some(QueueTxToken(&mut self.tx))
    }

    fn capabilities(&self) -> DeviceCapabilities {
        let mut caps = DeviceCapabilities::default();
        caps.medium = Medium::Ethernet;
        caps.max_transmission_unit = HOST_MTU;
        caps
    }
}

/// A host: one smoltcp interface (Ethernet, IPv4) with its sockets, on one segment.
pub struct Host {
    segment: Segment,
    mac: [u8; 6],
    ip: Ipv4Addr,
    prefix: u8,
    iface: Interface,
    device: QueueDevice,
    sockets: SocketSet<'static>,
}

impl Host {
    /// Segment the host is on.
    pub fn segment(&self) -> Segment {
        self.segment
    }

    /// MAC address.
    pub fn mac(&self) -> [u8; 6] {
        self.mac
    }

    /// IPv4 address.
    pub fn ip(&self) -> Ipv4Addr {
        self.ip
    }

    /// Prefix length of the host's subnet.
    pub fn prefix(&self) -> u8 {
        self.prefix
    }

    /// The smoltcp interface (routes, addresses).
    pub fn iface(&self) -> &Interface {
        &self.iface
    }

    /// The smoltcp interface, mutable.
    pub fn iface_mut(&mut self) -> &mut Interface {
        &mut self.iface
    }

    /// The host's sockets.
    pub fn sockets(&self) -> &SocketSet<'static> {
        &self.sockets
    }

    /// The host's sockets, mutable.
    pub fn sockets_mut(&mut self) -> &mut SocketSet<'static> {
        &mut self.sockets
    }

    /// Interface and sockets at once (for smoltcp calls that need both, like `connect`).
    pub fn parts_mut(&mut self) -> (&mut Interface, &mut SocketSet<'static>) {
        (&mut self.iface, &mut self.sockets)
    }

    /// Route everything outside the host's subnet through `gateway`.
    pub fn set_gateway(&mut self, gateway: Ipv4Addr) -> Result<()> {
        self.iface
            .routes_mut()
            .add_default_ipv4_route(gateway)
            .map_err(|_| anyhow!("route table of host {} is full", self.ip))?;
        Ok(())
    }

    /// Add a TCP socket with [`TCP_BUFFER`]-byte receive and transmit buffers.
    pub fn add_tcp_socket(&mut self) -> SocketHandle {
        self.add_tcp_socket_with(TCP_BUFFER, TCP_BUFFER)
    }

    /// Add a TCP socket with the given buffer sizes.
    pub fn add_tcp_socket_with(&mut self, rx_bytes: usize, tx_bytes: usize) -> SocketHandle {
        let socket = tcp::Socket::new(
            tcp::SocketBuffer::new(vec![0; rx_bytes]),
            tcp::SocketBuffer::new(vec![0; tx_bytes]),
        );
        self.sockets.add(socket)
    }

    /// A TCP socket of this host.
    ///
    /// # Panics
    /// If `handle` is not a TCP socket of this host.
    pub fn tcp(&self, handle: SocketHandle) -> &tcp::Socket<'static> {
        self.sockets.get::<tcp::Socket<'static>>(handle)
    }

    /// A TCP socket of this host, mutable.
    ///
    /// # Panics
    /// If `handle` is not a TCP socket of this host.
    pub fn tcp_mut(&mut self, handle: SocketHandle) -> &mut tcp::Socket<'static> {
        self.sockets.get_mut::<tcp::Socket<'static>>(handle)
    }

    /// Open a connection from `local_port` of this host to `remote` on a TCP socket.
    pub fn connect(
        &mut self,
        handle: SocketHandle,
        remote: SocketAddrV4,
        local_port: u16,
    ) -> Result<()> {
        let cx = self.iface.context();
        let remote = IpEndpoint::new(IpAddress::Ipv4(*remote.ip()), remote.port());
        self.sockets
            .get_mut::<tcp::Socket<'static>>(handle)
            .connect(cx, remote, local_port)
            .map_err(|e| anyhow!("connect {} -> {remote}: {e}", self.ip))
    }

    /// Listen on `port` with a TCP socket.
    pub fn listen(&mut self, handle: SocketHandle, port: u16) -> Result<()> {
        self.tcp_mut(handle)
            .listen(port)
            .map_err(|e| anyhow!("listen on {}:{port}: {e}", self.ip))
    }

    /// Remove a socket (no RST is sent).
    pub fn remove_socket(&mut self, handle: SocketHandle) {
        self.sockets.remove(handle);
    }

    /// Process received frames and send everything the sockets have to send now.
    fn poll(&mut self, now: Instant) {
        self.iface.poll(now, &mut self.device, &mut self.sockets);
        self.egress(now);
    }

    /// Send everything the sockets have to send now (smoltcp sends at most one segment per
    /// socket per egress round).
    fn egress(&mut self, now: Instant) {
        for _ in 0..MAX_EGRESS_ROUNDS {
            if self
                .iface
                .poll_egress(now, &mut self.device, &mut self.sockets)
                == PollResult::None
            {
                break;
            }
        }
    }

    fn accepts(&self, dst: &[u8]) -> bool {
        dst == self.mac || dst[0] & 1 == 1
    }

    fn summary(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "  host {}/{} {} on the {} segment:",
            self.ip,
            self.prefix,
            mac_str(&self.mac),
            self.segment.name()
        );
        for (_, s) in self.sockets.iter() {
            if let Some(t) = tcp::Socket::downcast(s) {
                let local = t.local_endpoint().map_or_else(
                    || format!("*:{}", t.listen_endpoint().port),
                    |e| e.to_string(),
                );
                let remote = t
                    .remote_endpoint()
                    .map_or("*".to_string(), |e| e.to_string());
                let _ = writeln!(
                    out,
                    "    tcp {local} -> {remote} {} (send queue {}, receive queue {})",
                    t.state(),
                    t.send_queue(),
                    t.recv_queue()
                );
            }
        }
    }
}

fn mac_str(mac: &[u8]) -> String {
    mac.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// The test network: hosts on two segments around a simulated card, HTTP helpers and an
/// optional frame capture. See the [module documentation](self).
pub struct Net {
    sim: SharedSim,
    quantum: u64,
    hosts: Vec<Host>,
    servers: Vec<HttpServer>,
    fetches: Vec<Fetch>,
    static_arp: Vec<(Segment, Ipv4Addr, [u8; 6])>,
    next_port: u16,
    pad: bool,
    capture: bool,
    captured: Vec<Captured>,
    stats: [SegmentStats; 2],
}

impl Net {
    /// A network around the card behind `sim` (which keeps running from its current cycle).
    pub fn new(sim: SharedSim) -> Net {
        Net {
            sim,
            quantum: DEFAULT_QUANTUM,
            hosts: Vec::new(),
            servers: Vec::new(),
            fetches: Vec::new(),
            static_arp: Vec::new(),
            next_port: FIRST_EPHEMERAL_PORT,
            pad: true,
            capture: false,
            captured: Vec::new(),
            stats: [SegmentStats::default(); 2],
        }
    }

    /// The card.
    pub fn sim(&self) -> &SharedSim {
        &self.sim
    }

    /// Card cycles since the end of power-on reset: the network's clock.
    pub fn cycles(&self) -> u64 {
        self.sim.cycles()
    }

    /// The hosts' current time.
    pub fn now(&self) -> Instant {
        cycles_to_instant(self.cycles())
    }

    /// Card cycles per [`step`](Net::step).
    pub fn quantum(&self) -> u64 {
        self.quantum
    }

    /// Set the card cycles per [`step`](Net::step) (at least 1). Smaller quanta shorten the
    /// simulated round-trip time (one step host to host) at the cost of more host polling.
    pub fn set_quantum(&mut self, cycles: u64) {
        self.quantum = cycles.max(1);
    }

    /// Pad frames the hosts send to [`MIN_FRAME`] bytes with zeros, as an Ethernet MAC
    /// does (`true`, the default), or put them on the wire as the stack made them (a TCP
    /// ACK is 54 bytes).
    pub fn set_pad_short_frames(&mut self, on: bool) {
        self.pad = on;
    }

    /// Add a host on `segment` with its MAC address and `ip/prefix`; it answers ARP for `ip`.
    ///
    /// # Panics
    /// If `mac` is not a unicast address or `prefix` exceeds 32.
    pub fn add_host(&mut self, segment: Segment, mac: [u8; 6], ip: Ipv4Addr, prefix: u8) -> HostId {
        // Deterministic per host (initial sequence numbers and the like derive from it).
        let seed = fnv1a64(&[&mac[..], &ip.octets()[..]].concat()) | 1;
        self.add_host_seeded(segment, mac, ip, prefix, seed)
    }

    /// [`Net::add_host`] with the host's random seed chosen: its first TCP connection (opened
    /// or accepted) starts at sequence number [`first_isn`]`(seed)`.
    ///
    /// # Panics
    /// If `mac` is not a unicast address or `prefix` exceeds 32.
    pub fn add_host_seeded(
        &mut self,
        segment: Segment,
        mac: [u8; 6],
        ip: Ipv4Addr,
        prefix: u8,
        seed: u64,
    ) -> HostId {
        assert!(prefix <= 32, "IPv4 prefix /{prefix}");
        let mut device = QueueDevice::default();
        let mut config = Config::new(HardwareAddress::Ethernet(EthernetAddress(mac)));
        config.random_seed = seed;
        let mut iface = Interface::new(config, &mut device, self.now());
        iface.update_ip_addrs(|addrs| {
            addrs
                .push(IpCidr::new(IpAddress::Ipv4(ip), prefix))
                .expect("a new interface has room for one address");
        });
        self.hosts.push(Host {
            segment,
            mac,
            ip,
            prefix,
            iface,
            device,
            sockets: SocketSet::new(Vec::new()),
        });
        HostId(self.hosts.len() - 1)
    }

    /// A host.
    ///
    /// # Panics
    /// If `id` is not a host of this network.
    pub fn host(&self, id: HostId) -> &Host {
        &self.hosts[id.0]
    }

    /// A host, mutable (sockets, routes).
    ///
    /// # Panics
    /// If `id` is not a host of this network.
    pub fn host_mut(&mut self, id: HostId) -> &mut Host {
        &mut self.hosts[id.0]
    }

    /// Answer ARP requests for `ip` from hosts of `segment` with `mac`, on behalf of an
    /// address the card owns (such as a virtual IP) when the firmware does not answer ARP
    /// itself. The request still reaches the card too.
    pub fn add_static_arp(&mut self, segment: Segment, ip: Ipv4Addr, mac: [u8; 6]) {
        self.static_arp.push((segment, ip, mac));
    }

    /// Record every frame from now on (`true`) or stop recording (`false`; what was
    /// recorded stays until [`clear_capture`](Net::clear_capture)).
    pub fn capture(&mut self, on: bool) {
        self.capture = on;
    }

    /// Frames recorded so far, in the order they were moved.
    pub fn captured(&self) -> &[Captured] {
        &self.captured
    }

    /// Forget the recorded frames.
    pub fn clear_capture(&mut self) {
        self.captured.clear();
    }

    /// Frame counters of a segment.
    pub fn stats(&self, segment: Segment) -> SegmentStats {
        self.stats[segment.index()]
    }

    /// Write the frames recorded on `segment` to a classic pcap file (nanosecond
    /// timestamps of card time, link type 1 = Ethernet).
    pub fn write_segment_pcap(&self, segment: Segment, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let mut out = Vec::new();
        // Classic pcap header, nanosecond-resolution magic, version 2.4, snaplen 65535.
        out.extend_from_slice(&0xa1b2_3c4du32.to_le_bytes());
        out.extend_from_slice(&2u16.to_le_bytes());
        out.extend_from_slice(&4u16.to_le_bytes());
        out.extend_from_slice(&0i32.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&65_535u32.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
        for c in self.captured.iter().filter(|c| c.segment == segment) {
            let ns = cycles_to_nanos(c.cycle);
            let secs = u32::try_from(ns / 1_000_000_000).unwrap_or(u32::MAX);
            let frac = (ns % 1_000_000_000) as u32;
            let len = u32::try_from(c.bytes.len()).unwrap_or(u32::MAX);
            let incl = len.min(65_535);
            out.extend_from_slice(&secs.to_le_bytes());
            out.extend_from_slice(&frac.to_le_bytes());
            out.extend_from_slice(&incl.to_le_bytes());
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&c.bytes[..incl as usize]);
        }
        let mut f = std::fs::File::create(path)
            .with_context(|| format!("creating pcap file {}", path.display()))?;
        f.write_all(&out)
            .with_context(|| format!("writing pcap file {}", path.display()))?;
        Ok(())
    }

    /// Write the recorded frames as one pcap file per segment: for `dir/name.pcap`,
    /// `dir/name-client.pcap` and `dir/name-server.pcap` (see
    /// [`write_segment_pcap`](Net::write_segment_pcap)). Returns the files written.
    pub fn write_pcap(&self, path: impl AsRef<Path>) -> Result<Vec<PathBuf>> {
        let path = path.as_ref();
        let stem = path
            .file_stem()
            .map_or_else(|| "capture".into(), |s| s.to_string_lossy().into_owned());
        let mut written = Vec::new();
        for seg in Segment::ALL {
            let p = path.with_file_name(format!("{stem}-{}.pcap", seg.name()));
            self.write_segment_pcap(seg, &p)?;
            written.push(p);
        }
        Ok(written)
    }

    /// Pass `res` through; on an error, write the capture with [`write_pcap`](Net::write_pcap)
    /// to `path` and name the files in the error.
    pub fn keep_pcap_on_error<T>(&self, res: Result<T>, path: impl AsRef<Path>) -> Result<T> {
        res.map_err(|e| match self.write_pcap(path) {
            Ok(files) => {
                let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
                e.context(format!("capture written to {}", names.join(", ")))
            }
            Err(w) => e.context(format!("(writing the capture failed too: {w:#})")),
        })
    }

    /// Advance the network by one quantum: poll every host at the current card time, run the
    /// HTTP helpers, hand the frames the hosts sent to the other hosts and the card, run the
    /// card for [`quantum`](Net::quantum) cycles and hand the frames it sent to the hosts.
    pub fn step(&mut self) -> Result<()> {
        let now_cycles = self.cycles();
        let now = cycles_to_instant(now_cycles);
        for h in &mut self.hosts {
            h.poll(now);
        }
        for s in &mut self.servers {
            s.poll(&mut self.hosts[s.host.0]);
        }
        for f in &mut self.fetches {
            f.poll(&mut self.hosts[f.host.0]);
        }
        for h in &mut self.hosts {
            h.egress(now);
        }
        self.switch_host_frames(now_cycles)?;
        let mut sim = self.sim.lock();
        sim.tick(self.quantum);
        let after = sim.cycles();
        let mut from_card = Vec::new();
        for seg in Segment::ALL {
            while let Some(frame) = sim.pop_frame(seg.port()) {
                from_card.push((seg, frame));
            }
        }
        drop(sim);
        for (seg, frame) in from_card {
            self.deliver_from_card(seg, frame, after);
        }
        Ok(())
    }

    /// Step `cycles` card cycles (rounded up to whole quanta).
    pub fn run_for(&mut self, cycles: u64) -> Result<()> {
        let end = self.cycles().saturating_add(cycles);
        while self.cycles() < end {
            self.step()?;
        }
        Ok(())
    }

    /// Step until `cond` holds (checked before each step). Fails, naming `what`, when it
    /// still does not hold after `max_cycles` card cycles from now; the error carries the
    /// cycle counts and the state of every socket.
    pub fn run_until(
        &mut self,
        what: &str,
        max_cycles: u64,
        mut cond: impl FnMut(&Net) -> bool,
    ) -> Result<()> {
        let start = self.cycles();
        loop {
            if cond(self) {
                return Ok(());
            }
            let now = self.cycles();
            let spent = now - start;
            if spent >= max_cycles {
                bail!(
                    "timed out waiting for {what}: still not true after {spent} card cycles \
                     ({} µs of card time; budget {max_cycles} cycles), now at cycle {now}\n{}",
                    cycles_to_nanos(spent) / 1000,
                    self.summary()
                );
            }
            self.step()?;
        }
    }

    /// Every host's TCP sockets, servers and client connections, for error messages.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for h in &self.hosts {
            h.summary(&mut out);
        }
        for s in &self.servers {
            let _ = writeln!(
                out,
                "  http server {:?} on {}:{}: {} connections, {} requests",
                s.name, self.hosts[s.host.0].ip, s.port, s.connections, s.requests
            );
        }
        for (i, f) in self.fetches.iter().enumerate() {
            let _ = writeln!(
                out,
                "  fetch #{i} {}:{} -> {}: {}, {} bytes sent of {}, {} responses{}",
                self.hosts[f.host.0].ip,
                f.local_port,
                f.remote,
                f.state,
                f.tx_off,
                f.tx.len(),
                f.responses.len(),
                f.error
                    .as_deref()
                    .map_or(String::new(), |e| format!(", error: {e}"))
            );
        }
        for seg in Segment::ALL {
            let _ = writeln!(out, "  {} segment: {:?}", seg.name(), self.stats(seg));
        }
        out
    }

    fn record(&mut self, segment: Segment, direction: Direction, cycle: u64, bytes: &[u8]) {
        if self.capture {
            self.captured.push(Captured {
                segment,
                direction,
                cycle,
                bytes: bytes.to_vec(),
            });
        }
    }

    fn switch_host_frames(&mut self, cycle: u64) -> Result<()> {
        for src in 0..self.hosts.len() {
            while let Some(mut frame) = self.hosts[src].device.tx.pop_front() {
                let seg = self.hosts[src].segment;
                if self.pad && frame.len() < MIN_FRAME {
                    frame.resize(MIN_FRAME, 0);
                }
                self.record(seg, Direction::ToCard, cycle, &frame);
                if frame.len() < 14 {
                    continue;
                }
                for dst in 0..self.hosts.len() {
                    let h = &mut self.hosts[dst];
                    if dst != src && h.segment == seg && h.accepts(&frame[..6]) {
                        h.device.rx.push_back(frame.clone());
                        self.stats[seg.index()].host_to_host += 1;
                    }
                }
                if let Some(reply) = self.static_arp_reply(seg, &frame) {
                    self.record(seg, Direction::Injected, cycle, &reply);
                    self.hosts[src].device.rx.push_back(reply);
                    self.stats[seg.index()].injected += 1;
                }
                self.sim
                    .lock()
                    .push_frame(seg.port(), &frame)
                    .with_context(|| format!("sending a frame into the card's {seg:?} port"))?;
                self.stats[seg.index()].to_card += 1;
            }
        }
        Ok(())
    }

    fn deliver_from_card(&mut self, seg: Segment, frame: Vec<u8>, cycle: u64) {
        self.record(seg, Direction::FromCard, cycle, &frame);
        self.stats[seg.index()].from_card += 1;
        let mut claimed = false;
        if frame.len() >= 14 {
            for h in self.hosts.iter_mut().filter(|h| h.segment == seg) {
                if h.accepts(&frame[..6]) {
                    h.device.rx.push_back(frame.clone());
                    claimed = true;
                }
            }
        }
        if !claimed {
            self.stats[seg.index()].from_card_unclaimed += 1;
        }
    }

    /// The ARP reply for a request `frame` on `seg` that asks for a static address.
    fn static_arp_reply(&self, seg: Segment, frame: &[u8]) -> Option<Vec<u8>> {
        // Ethernet II + ARP for IPv4 over Ethernet, operation 1 (request).
        if frame.len() < 42
            || frame[12..14] != [0x08, 0x06]
            || frame[14..22] != [0, 1, 8, 0, 6, 4, 0, 1]
        {
            return None;
        }
        let sender_mac = &frame[22..28];
        let sender_ip = &frame[28..32];
        let target_ip = Ipv4Addr::new(frame[38], frame[39], frame[40], frame[41]);
        let &(_, _, mac) = self
            .static_arp
            .iter()
            .find(|(s, ip, _)| *s == seg && *ip == target_ip)?;
        let mut r = Vec::with_capacity(60);
        r.extend_from_slice(sender_mac);
        r.extend_from_slice(&mac);
        r.extend_from_slice(&[0x08, 0x06, 0, 1, 8, 0, 6, 4, 0, 2]);
        r.extend_from_slice(&mac);
        r.extend_from_slice(&target_ip.octets());
        r.extend_from_slice(sender_mac);
        r.extend_from_slice(sender_ip);
        r.resize(MIN_FRAME, 0);
        Some(r)
    }

    // ---- HTTP server ----

    /// Serve HTTP/1.1 on `host:port` with `backlog` listening sockets (so up to `backlog`
    /// connections at once; each socket listens again once its connection has closed).
    /// `name` goes into every response's `X-Server` header. See [`HttpServer`].
    pub fn serve_http(
        &mut self,
        host: HostId,
        port: u16,
        name: &str,
        backlog: usize,
    ) -> Result<ServerId> {
        let h = &mut self.hosts[host.0];
        let mut conns = Vec::with_capacity(backlog);
        for _ in 0..backlog.max(1) {
            conns.push(ServerConn::listen(h, port)?);
        }
        self.servers.push(HttpServer {
            name: name.to_string(),
            host,
            port,
            conns,
            connections: 0,
            requests: 0,
            max_active: 0,
            log: Vec::new(),
        });
        Ok(ServerId(self.servers.len() - 1))
    }

    /// An HTTP server.
    ///
    /// # Panics
    /// If `id` is not a server of this network.
    pub fn server(&self, id: ServerId) -> &HttpServer {
        &self.servers[id.0]
    }

    // ---- HTTP client ----

    /// Set the next local port [`open_fetch`](Net::open_fetch) hands out (it counts up,
    /// wrapping to [`FIRST_EPHEMERAL_PORT`] after 65535).
    pub fn set_next_ephemeral_port(&mut self, port: u16) {
        self.next_port = port.max(1);
    }

    fn ephemeral_port(&mut self) -> u16 {
        let p = self.next_port;
        self.next_port = p.checked_add(1).unwrap_or(FIRST_EPHEMERAL_PORT);
        p
    }

    /// Open an HTTP client connection from `host` (next ephemeral port) to `remote`. Nothing
    /// is sent until [`fetch_send`](Net::fetch_send).
    pub fn open_fetch(&mut self, host: HostId, remote: SocketAddrV4) -> Result<FetchId> {
        let port = self.ephemeral_port();
        self.open_fetch_from(host, remote, port)
    }

    /// Open an HTTP client connection from `host:local_port` to `remote`.
    pub fn open_fetch_from(
        &mut self,
        host: HostId,
        remote: SocketAddrV4,
        local_port: u16,
    ) -> Result<FetchId> {
        let h = &mut self.hosts[host.0];
        let handle = h.add_tcp_socket();
        h.tcp_mut(handle).set_nagle_enabled(false);
        if let Err(e) = h.connect(handle, remote, local_port) {
            h.remove_socket(handle);
            return Err(e);
        }
        self.fetches.push(Fetch {
            host,
            local_port,
            remote,
            handle: Some(handle),
            state: tcp::State::SynSent,
            established: false,
            close_requested: false,
            close_called: false,
            reset: false,
            tx: Vec::new(),
            tx_off: 0,
            rx: Vec::new(),
            scan: 0,
            head: None,
            responses: Vec::new(),
            bytes_received: 0,
            error: None,
        });
        Ok(FetchId(self.fetches.len() - 1))
    }

    /// Queue bytes to send on a client connection (any split of a request, or several
    /// requests); they go out as the socket takes them during the next steps.
    pub fn fetch_send(&mut self, id: FetchId, bytes: &[u8]) {
        self.fetches[id.0].tx.extend_from_slice(bytes);
    }

    /// Close the client side of a connection once everything queued has been sent.
    pub fn fetch_close(&mut self, id: FetchId) {
        self.fetches[id.0].close_requested = true;
    }

    /// Reset the connection of a fetch (smoltcp `abort`: the client sends RST).
    pub fn fetch_abort(&mut self, id: FetchId) {
        let f = &self.fetches[id.0];
        if let Some(h) = f.handle {
            self.hosts[f.host.0]
                .sockets
                .get_mut::<tcp::Socket>(h)
                .abort();
        }
    }

    /// Reset every open connection of an HTTP server (smoltcp `abort`: the server sends RST).
    pub fn server_abort_all(&mut self, id: ServerId) {
        let host = self.servers[id.0].host;
        for c in &self.servers[id.0].conns {
            let sock = self.hosts[host.0].sockets.get_mut::<tcp::Socket>(c.handle);
            if sock.is_open() && sock.state() != tcp::State::Listen {
                sock.abort();
            }
        }
    }

    /// A client connection.
    ///
    /// # Panics
    /// If `id` is not a client connection of this network.
    pub fn fetch(&self, id: FetchId) -> &Fetch {
        &self.fetches[id.0]
    }

    /// Start `GET path` from `host` to `remote` with `Connection: close`.
    pub fn get(&mut self, host: HostId, remote: SocketAddrV4, path: &str) -> Result<FetchId> {
        let id = self.open_fetch(host, remote)?;
        self.fetch_send(id, &get_request(&remote.to_string(), path, true));
        Ok(id)
    }

    /// Start `POST path` with `body` from `host` to `remote` with `Connection: close`.
    pub fn post(
        &mut self,
        host: HostId,
        remote: SocketAddrV4,
        path: &str,
        body: &[u8],
    ) -> Result<FetchId> {
        let id = self.open_fetch(host, remote)?;
        self.fetch_send(id, &post_request(&remote.to_string(), path, body, true));
        Ok(id)
    }

    /// Step until the client connection has at least `n` complete responses; fails early if
    /// the connection closes with fewer, and after `max_cycles`.
    pub fn wait_responses(&mut self, id: FetchId, n: usize, max_cycles: u64) -> Result<()> {
        let what = format!("{n} response(s) on fetch #{}", id.0);
        self.run_until(&what, max_cycles, |net| {
            let f = net.fetch(id);
            f.responses.len() >= n || f.is_closed()
        })?;
        let f = self.fetch(id);
        if f.responses.len() < n {
            bail!(
                "fetch #{} {} -> {} closed after {} of {n} responses: {}\n{}",
                id.0,
                f.local_port,
                f.remote,
                f.responses.len(),
                f.error.as_deref().unwrap_or("no error recorded"),
                self.summary()
            );
        }
        Ok(())
    }

    /// `GET path` from `host` to `remote` (`Connection: close`), waiting up to `max_cycles`
    /// for the response.
    pub fn http_get(
        &mut self,
        host: HostId,
        remote: SocketAddrV4,
        path: &str,
        max_cycles: u64,
    ) -> Result<Response> {
        let id = self.get(host, remote, path)?;
        self.wait_responses(id, 1, max_cycles)?;
        Ok(self.fetch(id).responses[0].clone())
    }

    /// `POST path` with `body` from `host` to `remote` (`Connection: close`), waiting up to
    /// `max_cycles` for the response.
    pub fn http_post(
        &mut self,
        host: HostId,
        remote: SocketAddrV4,
        path: &str,
        body: &[u8],
        max_cycles: u64,
    ) -> Result<Response> {
        let id = self.post(host, remote, path, body)?;
        self.wait_responses(id, 1, max_cycles)?;
        Ok(self.fetch(id).responses[0].clone())
    }
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Net")
            .field("cycles", &self.cycles())
            .field("quantum", &self.quantum)
            .field("hosts", &self.hosts.len())
            .field("servers", &self.servers.len())
            .field("fetches", &self.fetches.len())
            .finish()
    }
}

// ---- HTTP helpers ----

/// 64-bit FNV-1a hash.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The body [`HttpServer`] serves for `GET path`: `len` pseudo-random bytes (xorshift64*
/// seeded with the FNV-1a hash of the whole path), the same on every run.
pub fn body_for(path: &str, len: usize) -> Vec<u8> {
    let mut x = fnv1a64(path.as_bytes()) | 1;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        out.extend_from_slice(&x.wrapping_mul(0x2545_f491_4f6c_dd1d).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// The initial sequence number of the first TCP connection a host seeded with `seed` opens
/// or accepts: smoltcp 0.12 draws it from the interface's generator (sPCG32, `rand.rs`) right
/// after `Interface::new` has drawn the IPv4 identification (redrawn while 0). Tests that need
/// sequence numbers near 2^32 pick a seed with [`seed_for_isn`] and check the SYN they see.
pub fn first_isn(seed: u64) -> u32 {
    const M: u64 = 0xbb2e_fcec_3c39_611d;
    const A: u64 = 0x7590_ef39;
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_mul(M).wrapping_add(A);
        (state >> (29 - (state >> 61))) as u32
    };
    loop {
        let n = next();
        if (n ^ (n >> 16)) as u16 != 0 {
            break;
        }
    }
    next()
}

/// The first seed at or after `from` whose [`first_isn`] lies in `range`.
pub fn seed_for_isn(range: std::ops::Range<u32>, from: u64) -> u64 {
    (from..)
        .find(|&s| range.contains(&first_isn(s)))
        .expect("the generator covers the range")
}

/// Length of the body served for `GET path`: the number after the first `/data/` (up to the
/// next `/` or `?`), e.g. 1048576 for `/data/1048576`, `/data/1048576/x?y` or
/// `/static/data/1048576`, capped at [`MAX_BODY_LEN`]; [`DEFAULT_BODY_LEN`] for any other
/// path.
pub fn body_len_for(path: &str) -> usize {
    path.find("/data/")
        .map(|at| &path[at + "/data/".len()..])
        .and_then(|rest| rest.split(['/', '?']).next())
        .and_then(|n| n.parse::<usize>().ok())
        .map_or(DEFAULT_BODY_LEN, |n| n.min(MAX_BODY_LEN))
}

/// Lower-case hex SHA-256 of `bytes` (what [`HttpServer`] answers to a POST).
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// An HTTP/1.1 `GET` request; `close` adds `Connection: close`.
pub fn get_request(host_header: &str, path: &str, close: bool) -> Vec<u8> {
    let mut r =
        format!("GET {path} HTTP/1.1\r\nHost: {host_header}\r\nUser-Agent: splicenic-hil\r\n");
    if close {
        r.push_str("Connection: close\r\n");
    }
    r.push_str("\r\n");
    r.into_bytes()
}

/// An HTTP/1.1 `POST` request with `body`; `close` adds `Connection: close`.
pub fn post_request(host_header: &str, path: &str, body: &[u8], close: bool) -> Vec<u8> {
    let mut r = format!(
        "POST {path} HTTP/1.1\r\nHost: {host_header}\r\nUser-Agent: splicenic-hil\r\n\
         Content-Type: application/octet-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    if close {
        r.push_str("Connection: close\r\n");
    }
    r.push_str("\r\n");
    let mut r = r.into_bytes();
    r.extend_from_slice(body);
    r
}

/// Start line and headers of an HTTP message.
#[derive(Debug, Clone)]
struct Head {
    start: String,
    headers: Vec<(String, String)>,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        header_in(&self.headers, name)
    }

    fn content_length(&self) -> Result<Option<usize>, String> {
        self.header("content-length")
            .map(|v| {
                v.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("bad Content-Length {v:?}"))
            })
            .transpose()
    }

    /// Whether a `Connection` header lists `token`.
    fn connection_has(&self, token: &str) -> bool {
        self.headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("connection"))
            .flat_map(|(_, v)| v.split(','))
            .any(|t| t.trim().eq_ignore_ascii_case(token))
    }
}

fn header_in<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Position just past the `\r\n\r\n` ending a head in `buf`, searching from `from`.
fn head_end(buf: &[u8], from: usize) -> Option<usize> {
    buf.get(from..)?
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| from + p + 4)
}

fn parse_head(bytes: &[u8]) -> Result<Head, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "head is not UTF-8".to_string())?;
    let mut lines = text.split("\r\n");
    let start = lines.next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let (k, v) = line
            .split_once(':')
            .ok_or_else(|| format!("bad header line {line:?}"))?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok(Head { start, headers })
}

/// Read everything the socket has received into `buf`.
fn drain_socket(sock: &mut tcp::Socket<'static>, buf: &mut Vec<u8>) -> usize {
    let mut total = 0;
    while sock.can_recv() {
        match sock.recv(|b| {
            buf.extend_from_slice(b);
            (b.len(), b.len())
        }) {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n,
        }
    }
    total
}

/// Write as much of `buf[*off..]` as the socket takes.
fn fill_socket(sock: &mut tcp::Socket<'static>, buf: &[u8], off: &mut usize) {
    while *off < buf.len() && sock.can_send() {
        match sock.send_slice(&buf[*off..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => *off += n,
        }
    }
}

/// One request an [`HttpServer`] answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedRequest {
    /// Serial number of the connection (1 for the server's first), as in `X-Conn`.
    pub conn: u64,
    /// Index of the request on its connection (1 for the first), as in `X-Request`.
    pub index: u64,
    /// Request method.
    pub method: String,
    /// Request target.
    pub path: String,
    /// Status code answered.
    pub status: u16,
    /// Request body length.
    pub body_len: usize,
}

/// A small HTTP/1.1 origin server on one host, made by [`Net::serve_http`].
///
/// - `GET <path>` answers 200 with [`body_for`]`(path, `[`body_len_for`]`(path))`.
/// - `POST <path>` with a `Content-Length` body answers 200 with the [`sha256_hex`] of the
///   body (64 bytes, `text/plain`).
/// - Other methods answer 405 with an empty body; a malformed request answers 400 and closes.
///
/// Every response carries `Content-Length`, `X-Server: <name>`, `X-Conn: <connection
/// serial>` and `X-Request: <index on the connection>`. Connections are kept alive
/// (pipelined requests are answered in order) until the client asks `Connection: close`
/// (or speaks HTTP/1.0 without keep-alive) or closes its side. Chunked request bodies are
/// not supported. Sockets have Nagle's algorithm off.
#[derive(Debug)]
pub struct HttpServer {
    name: String,
    host: HostId,
    port: u16,
    conns: Vec<ServerConn>,
    connections: u64,
    requests: u64,
    max_active: usize,
    log: Vec<ServedRequest>,
}

impl HttpServer {
    /// Identity sent in `X-Server`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Host it runs on.
    pub fn host(&self) -> HostId {
        self.host
    }

    /// TCP port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> u64 {
        self.connections
    }

    /// Requests answered so far.
    pub fn requests(&self) -> u64 {
        self.requests
    }

    /// Connections open right now.
    pub fn active_connections(&self) -> usize {
        self.conns.iter().filter(|c| c.serial.is_some()).count()
    }

    /// Most connections that were open at once.
    pub fn max_concurrent(&self) -> usize {
        self.max_active
    }

    /// Every request answered, in order.
    pub fn log(&self) -> &[ServedRequest] {
        &self.log
    }

    fn poll(&mut self, host: &mut Host) {
        for i in 0..self.conns.len() {
            let done = self.conns[i].poll(
                host,
                &self.name,
                &mut self.connections,
                &mut self.requests,
                &mut self.log,
            );
            if done {
                host.remove_socket(self.conns[i].handle);
                // Listening on a port of the host's own address cannot fail here: it
                // succeeded for this port when the server started.
                if let Ok(c) = ServerConn::listen(host, self.port) {
                    self.conns[i] = c;
                }
            }
        }
        self.max_active = self.max_active.max(self.active_connections());
    }
}

/// A request whose head has been read.
#[derive(Debug)]
struct PendingRequest {
    method: String,
    path: String,
    close: bool,
    body_len: usize,
}

/// One listening socket of an [`HttpServer`] and the connection it carries.
#[derive(Debug)]
struct ServerConn {
    handle: SocketHandle,
    serial: Option<u64>,
    rx: Vec<u8>,
    scan: usize,
    req: Option<PendingRequest>,
    tx: Vec<u8>,
    tx_off: usize,
    close_after_tx: bool,
    close_called: bool,
    requests: u64,
}

impl ServerConn {
    fn listen(host: &mut Host, port: u16) -> Result<ServerConn> {
        let handle = host.add_tcp_socket();
        host.tcp_mut(handle).set_nagle_enabled(false);
        host.listen(handle, port)?;
        Ok(ServerConn {
            handle,
            serial: None,
            rx: Vec::new(),
            scan: 0,
            req: None,
            tx: Vec::new(),
            tx_off: 0,
            close_after_tx: false,
            close_called: false,
            requests: 0,
        })
    }

    /// Serve what arrived; `true` once the connection is over and the socket must be
    /// replaced by a fresh listening one.
    fn poll(
        &mut self,
        host: &mut Host,
        name: &str,
        connections: &mut u64,
        requests: &mut u64,
        log: &mut Vec<ServedRequest>,
    ) -> bool {
        let sock = host.tcp_mut(self.handle);
        match sock.state() {
            tcp::State::Listen | tcp::State::SynReceived => return false,
            tcp::State::Closed | tcp::State::TimeWait => return true,
            _ => {}
        }
        if self.serial.is_none() {
            *connections += 1;
            self.serial = Some(*connections);
        }
        drain_socket(sock, &mut self.rx);
        if !self.close_after_tx {
            self.serve(name, requests, log);
        }
        fill_socket(sock, &self.tx, &mut self.tx_off);
        if self.tx_off == self.tx.len() {
            self.tx.clear();
            self.tx_off = 0;
            if !self.close_called && (self.close_after_tx || !sock.may_recv()) {
                sock.close();
                self.close_called = true;
            }
        }
        false
    }

    /// Answer every complete request in `rx`.
    fn serve(&mut self, name: &str, requests: &mut u64, log: &mut Vec<ServedRequest>) {
        loop {
            if self.req.is_none() {
                let Some(end) = head_end(&self.rx, self.scan) else {
                    self.scan = self.rx.len().saturating_sub(3);
                    if self.rx.len() > MAX_HEAD {
                        self.bad_request(name, "request head too long");
                    }
                    return;
                };
                let parsed = parse_head(&self.rx[..end]);
                self.rx.drain(..end);
                self.scan = 0;
                let head = match parsed {
                    Ok(h) => h,
                    Err(e) => return self.bad_request(name, &e),
                };
                let mut parts = head.start.split(' ');
                let (method, path, version) = (
                    parts.next().unwrap_or_default().to_string(),
                    parts.next().unwrap_or_default().to_string(),
                    parts.next().unwrap_or_default().to_string(),
                );
                if path.is_empty() || !version.starts_with("HTTP/1.") {
                    return self.bad_request(name, &format!("bad request line {:?}", head.start));
                }
                if head
                    .header("transfer-encoding")
                    .is_some_and(|v| !v.eq_ignore_ascii_case("identity"))
                {
                    return self.bad_request(name, "chunked request bodies are not supported");
                }
                let body_len = match head.content_length() {
                    Ok(n) => n.unwrap_or(0),
                    Err(e) => return self.bad_request(name, &e),
                };
                let close = head.connection_has("close")
                    || (version == "HTTP/1.0" && !head.connection_has("keep-alive"));
                self.req = Some(PendingRequest {
                    method,
                    path,
                    close,
                    body_len,
                });
            }
            let Some(req) = self.req.as_ref() else {
                return;
            };
            if self.rx.len() < req.body_len {
                return;
            }
            let rest = self.rx.split_off(req.body_len);
            let body = std::mem::replace(&mut self.rx, rest);
            let Some(req) = self.req.take() else {
                return;
            };
            let (status, ctype, resp_body) = match req.method.as_str() {
                "GET" => (
                    200,
                    "application/octet-stream",
                    body_for(&req.path, body_len_for(&req.path)),
                ),
                "POST" => (200, "text/plain", sha256_hex(&body).into_bytes()),
                _ => (405, "text/plain", Vec::new()),
            };
            self.requests += 1;
            *requests += 1;
            log.push(ServedRequest {
                conn: self.serial.unwrap_or(0),
                index: self.requests,
                method: req.method,
                path: req.path,
                status,
                body_len: body.len(),
            });
            self.respond(name, status, ctype, &resp_body, req.close);
            if req.close {
                self.close_after_tx = true;
                return;
            }
        }
    }

    fn bad_request(&mut self, name: &str, why: &str) {
        self.respond(name, 400, "text/plain", why.as_bytes(), true);
        self.close_after_tx = true;
        self.rx.clear();
    }

    fn respond(&mut self, name: &str, status: u16, ctype: &str, body: &[u8], close: bool) {
        let reason = match status {
            200 => "OK",
            400 => "Bad Request",
            405 => "Method Not Allowed",
            _ => "Unknown",
        };
        let mut head = format!(
            "HTTP/1.1 {status} {reason}\r\nServer: splicenic-hil\r\nX-Server: {name}\r\n\
             X-Conn: {}\r\nX-Request: {}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n",
            self.serial.unwrap_or(0),
            self.requests,
            body.len()
        );
        if close {
            head.push_str("Connection: close\r\n");
        }
        head.push_str("\r\n");
        self.tx.extend_from_slice(head.as_bytes());
        self.tx.extend_from_slice(body);
    }
}

/// A complete HTTP response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Reason phrase.
    pub reason: String,
    /// Headers in order (names as sent).
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Vec<u8>,
}

impl Response {
    /// First header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        header_in(&self.headers, name)
    }

    /// The answering server's identity (`X-Server`).
    pub fn server(&self) -> Option<&str> {
        self.header("x-server")
    }
}

/// A response whose head has been read, waiting for its body.
#[derive(Debug)]
struct PendingResponse {
    status: u16,
    reason: String,
    headers: Vec<(String, String)>,
    /// `None`: the body runs until the server closes.
    body_len: Option<usize>,
}

/// An HTTP client connection, made by [`Net::open_fetch`] (or [`Net::get`],
/// [`Net::post`]).
///
/// It sends the bytes queued with [`Net::fetch_send`] as the socket takes them and parses
/// every response that comes back (status line, headers, `Content-Length` body, or a body
/// up to the server's close when there is no length; no chunked bodies). When the server
/// closes, the client closes too; [`Net::fetch_close`] closes first. The socket (Nagle
/// off) is removed once the connection is over.
#[derive(Debug)]
pub struct Fetch {
    host: HostId,
    local_port: u16,
    remote: SocketAddrV4,
    handle: Option<SocketHandle>,
    state: tcp::State,
    established: bool,
    close_requested: bool,
    close_called: bool,
    reset: bool,
    tx: Vec<u8>,
    tx_off: usize,
    rx: Vec<u8>,
    scan: usize,
    head: Option<PendingResponse>,
    responses: Vec<Response>,
    bytes_received: u64,
    error: Option<String>,
}

impl Fetch {
    /// Host it runs on.
    pub fn host(&self) -> HostId {
        self.host
    }

    /// Local TCP port.
    pub fn local_port(&self) -> u16 {
        self.local_port
    }

    /// Server address.
    pub fn remote(&self) -> SocketAddrV4 {
        self.remote
    }

    /// TCP state when last polled (`Closed` once over).
    pub fn state(&self) -> tcp::State {
        self.state
    }

    /// Whether the connection got established.
    pub fn established(&self) -> bool {
        self.established
    }

    /// Whether the connection is over (closed, reset or refused).
    pub fn is_closed(&self) -> bool {
        self.handle.is_none()
    }

    /// Whether the connection ended without an orderly close on our side (reset, refused,
    /// timed out).
    pub fn was_reset(&self) -> bool {
        self.reset
    }

    /// Whether every queued byte has been handed to the socket.
    pub fn sent_all(&self) -> bool {
        self.tx_off == self.tx.len()
    }

    /// Bytes received (heads and bodies).
    pub fn bytes_received(&self) -> u64 {
        self.bytes_received
    }

    /// Complete responses so far, in order.
    pub fn responses(&self) -> &[Response] {
        &self.responses
    }

    /// The first response, once complete.
    pub fn response(&self) -> Option<&Response> {
        self.responses.first()
    }

    /// What went wrong, if anything (reset, close in the middle of a response, bad
    /// response).
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    fn poll(&mut self, host: &mut Host) {
        let Some(handle) = self.handle else {
            return;
        };
        let sock = host.tcp_mut(handle);
        self.state = sock.state();
        if sock.may_send() || sock.may_recv() {
            self.established = true;
        }
        fill_socket(sock, &self.tx, &mut self.tx_off);
        if self.close_requested && self.sent_all() && !self.close_called {
            sock.close();
            self.close_called = true;
        }
        self.bytes_received += drain_socket(sock, &mut self.rx) as u64;
        self.parse();
        let over = matches!(self.state, tcp::State::Closed | tcp::State::TimeWait);
        if self.established && !sock.may_recv() && !over {
            // The server closed its side: finish a body that runs to the close, close ours.
            self.finish_at_close();
            if !self.close_called {
                sock.close();
                self.close_called = true;
            }
        }
        if over {
            if self.state == tcp::State::Closed && !self.close_called {
                self.reset = true;
                self.error.get_or_insert_with(|| {
                    if self.established {
                        "connection reset".to_string()
                    } else {
                        "connection refused or timed out".to_string()
                    }
                });
            }
            self.finish_at_close();
            host.remove_socket(handle);
            self.handle = None;
            self.state = tcp::State::Closed;
        }
    }

    fn parse(&mut self) {
        loop {
            if self.head.is_none() {
                let Some(end) = head_end(&self.rx, self.scan) else {
                    self.scan = self.rx.len().saturating_sub(3);
                    if self.rx.len() > MAX_HEAD {
                        self.fail("response head too long");
                    }
                    return;
                };
                let parsed = parse_head(&self.rx[..end]);
                self.rx.drain(..end);
                self.scan = 0;
                let head = match parsed {
                    Ok(h) => h,
                    Err(e) => return self.fail(&e),
                };
                let mut parts = head.start.splitn(3, ' ');
                let version = parts.next().unwrap_or_default();
                let status = parts.next().and_then(|s| s.parse::<u16>().ok());
                let reason = parts.next().unwrap_or_default().to_string();
                let Some(status) = status.filter(|_| version.starts_with("HTTP/1.")) else {
                    return self.fail(&format!("bad status line {:?}", head.start));
                };
                if (100..200).contains(&status) {
                    continue;
                }
                let body_len = if status == 204 || status == 304 {
                    Some(0)
                } else {
                    match head.content_length() {
                        Ok(n) => n,
                        Err(e) => return self.fail(&e),
                    }
                };
                self.head = Some(PendingResponse {
                    status,
                    reason,
                    headers: head.headers,
                    body_len,
                });
            }
            let Some(n) = self.head.as_ref().and_then(|h| h.body_len) else {
                return;
            };
            if self.rx.len() < n {
                return;
            }
            let rest = self.rx.split_off(n);
            let body = std::mem::replace(&mut self.rx, rest);
            self.complete(body);
        }
    }

    fn complete(&mut self, body: Vec<u8>) {
        if let Some(h) = self.head.take() {
            self.responses.push(Response {
                status: h.status,
                reason: h.reason,
                headers: h.headers,
                body,
            });
        }
    }

    fn finish_at_close(&mut self) {
        match &self.head {
            Some(h) if h.body_len.is_none() => {
                let body = std::mem::take(&mut self.rx);
                self.complete(body);
            }
            Some(h) => {
                let msg = format!(
                    "connection closed after {} of {} body bytes",
                    self.rx.len(),
                    h.body_len.unwrap_or(0)
                );
                self.fail(&msg);
            }
            None if !self.rx.is_empty() => self.fail("connection closed inside a response head"),
            None => {}
        }
    }

    fn fail(&mut self, why: &str) {
        self.error.get_or_insert_with(|| why.to_string());
        self.head = None;
        self.rx.clear();
    }
}
