//! A snapshot of the card's load-balancing table in IPVS terms: what `nicctl ipvsadm -L`,
//! `-S`, `-c` and `--json` print.
//!
//! The card only splices TCP over IPv4 and only forwards by masquerading, so the protocol
//! (`TCP`) and the forwarding method (`Masq`) are not fields: they are [`PROTOCOL`] and
//! [`FORWARD`].

use std::fmt;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::str::FromStr;
use std::time::Duration;

/// The only protocol the card serves, as ipvsadm names it.
pub const PROTOCOL: &str = "TCP";
/// The only forwarding method the card has, as ipvsadm's listing names it.
pub const FORWARD: &str = "Masq";
/// The IPVS version the listing reports (`IP Virtual Server version 1.2.1`).
pub const IPVS_VERSION: &str = "1.2.1";
/// Persistence timeout ipvsadm uses when `-p` has no value (IPVS_SVC_PERSISTENT_TIMEOUT).
pub const DEFAULT_PERSISTENT_TIMEOUT: u32 = 360;
/// Largest timeout ipvsadm accepts, in seconds (31 days).
pub const MAX_TIMEOUT: u32 = 86_400 * 31;

/// Everything `ipvsadm` can print, read from the card at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Snapshot {
    /// Virtual services, in any order (the listing sorts them unless `--nosort`).
    pub services: Vec<ServiceEntry>,
    /// Connection entries (`-c`), printed in this order.
    pub conns: Vec<ConnEntry>,
    /// Connection timeouts (`--timeout`, `--set`).
    pub timeouts: Timeouts,
    /// Connection table size printed in the version line (`size=4096`).
    pub table_size: u32,
}

/// A virtual service: a VIP:port and its pool of real servers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceEntry {
    /// Virtual address and port clients connect to.
    pub vip: SocketAddrV4,
    /// Scheduler choosing a real server for each new connection.
    pub sched: Scheduler,
    /// Client persistence (`-p`, `-M`), if enabled.
    pub persistent: Option<Persistence>,
    /// Scheduler flags (`-b`).
    pub sched_flags: SchedFlags,
    /// Counters since the service was added or zeroed.
    pub stats: Counters,
    /// Estimated rates (see [`crate::ipvs::rate`]).
    pub rates: Rates,
    /// Real servers, in insertion order (the order schedulers scan them).
    pub servers: Vec<ServerEntry>,
}

impl ServiceEntry {
    /// A service with no servers, zero counters and no persistence or flags.
    pub fn new(vip: SocketAddrV4, sched: Scheduler) -> Self {
        ServiceEntry {
            vip,
            sched,
            persistent: None,
            sched_flags: SchedFlags::default(),
            stats: Counters::default(),
            rates: Rates::default(),
            servers: Vec::new(),
        }
    }
}

/// Client persistence of a service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Persistence {
    /// Seconds a client keeps its server after its last connection ends.
    pub timeout: u32,
    /// Clients whose addresses agree under this mask share a server (`-M`); 255.255.255.255
    /// (the default) groups nothing.
    pub netmask: Ipv4Addr,
}

impl Persistence {
    #[cfg(test)]
    /// Persistence with the default /32 granularity.
    pub fn new(timeout: u32) -> Self {
        Persistence {
            timeout,
            netmask: Ipv4Addr::BROADCAST,
        }
    }
}

/// A real server of a service. The card always masquerades ([`FORWARD`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerEntry {
    /// Address and port the card connects to.
    pub addr: SocketAddrV4,
    /// Ethernet address of the server, when configured (`--mac`).
    pub mac: Option<MacAddr>,
    /// Scheduling weight; 0 quiesces the server.
    pub weight: u32,
    /// Established connections.
    pub active: u32,
    /// Connections in any other state.
    pub inactive: u32,
    /// Persistence templates pointing at this server (`--persistent-conn`).
    pub persist: u32,
    /// Upper connection threshold (`-x`); 0 = none.
    pub upper: u32,
    /// Lower connection threshold (`-y`); 0 = none.
    pub lower: u32,
    /// Counters since the server was added or zeroed.
    pub stats: Counters,
    /// Estimated rates.
    pub rates: Rates,
}

impl ServerEntry {
    /// A server with weight `weight`, no thresholds, no MAC and zero counters.
    pub fn new(addr: SocketAddrV4, weight: u32) -> Self {
        ServerEntry {
            addr,
            mac: None,
            weight,
            active: 0,
            inactive: 0,
            persist: 0,
            upper: 0,
            lower: 0,
            stats: Counters::default(),
            rates: Rates::default(),
        }
    }
}

/// Cumulative counters (ipvsadm `--stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    /// Connections scheduled.
    pub conns: u64,
    /// Packets from clients.
    pub inpkts: u64,
    /// Packets to clients.
    pub outpkts: u64,
    /// Bytes from clients.
    pub inbytes: u64,
    /// Bytes to clients.
    pub outbytes: u64,
}

/// Per-second rates (ipvsadm `--rate`); "bps" are bytes per second, as in IPVS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rates {
    /// Connections per second.
    pub cps: u64,
    /// Packets per second from clients.
    pub inpps: u64,
    /// Packets per second to clients.
    pub outpps: u64,
    /// Bytes per second from clients.
    pub inbps: u64,
    /// Bytes per second to clients.
    pub outbps: u64,
}

/// Connection timeouts in seconds, as `ipvsadm --set tcp tcpfin udp` sets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// ESTABLISHED timeout.
    pub tcp: u32,
    /// FIN_WAIT timeout.
    pub tcpfin: u32,
    /// UDP timeout (kept for the listing; the card has no UDP services).
    pub udp: u32,
}

impl Default for Timeouts {
    /// The IPVS defaults: 900 120 300.
    fn default() -> Self {
        Timeouts {
            tcp: 900,
            tcpfin: 120,
            udp: 300,
        }
    }
}

/// One spliced connection (`ipvsadm -c`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnEntry {
    /// Time until the entry expires; printed as mm:ss (whole seconds, rounded down).
    pub expire: Duration,
    /// TCP state of the connection.
    pub state: TcpState,
    /// Client address and port.
    pub client: SocketAddrV4,
    /// Virtual address and port the client connected to.
    pub vaddr: SocketAddrV4,
    /// Real server address and port.
    pub server: SocketAddrV4,
}

/// IPVS TCP connection states, named as `/proc/net/ip_vs_conn` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum TcpState {
    None,
    Established,
    SynSent,
    SynRecv,
    FinWait,
    TimeWait,
    Close,
    CloseWait,
    LastAck,
    Listen,
    SynAck,
}

impl TcpState {
    /// Every state, in the kernel's order.
    pub const ALL: [TcpState; 11] = [
        TcpState::None,
        TcpState::Established,
        TcpState::SynSent,
        TcpState::SynRecv,
        TcpState::FinWait,
        TcpState::TimeWait,
        TcpState::Close,
        TcpState::CloseWait,
        TcpState::LastAck,
        TcpState::Listen,
        TcpState::SynAck,
    ];

    /// The name ipvsadm prints (`ESTABLISHED`, `FIN_WAIT`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            TcpState::None => "NONE",
            TcpState::Established => "ESTABLISHED",
            TcpState::SynSent => "SYN_SENT",
            TcpState::SynRecv => "SYN_RECV",
            TcpState::FinWait => "FIN_WAIT",
            TcpState::TimeWait => "TIME_WAIT",
            TcpState::Close => "CLOSE",
            TcpState::CloseWait => "CLOSE_WAIT",
            TcpState::LastAck => "LAST_ACK",
            TcpState::Listen => "LISTEN",
            TcpState::SynAck => "SYNACK",
        }
    }
}

impl fmt::Display for TcpState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// IPVS schedulers: the driver's type (names, wire codes, `FromStr`/`Display`).
pub use splicenic_driver::Scheduler;

/// `rr|wrr|lc|...`, for error messages and the usage text.
pub fn scheduler_list() -> String {
    Scheduler::ALL
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join("|")
}

/// The three IPVS scheduler flag bits (IP_VS_SVC_F_SCHED1..3). Their names depend on the
/// scheduler: for `sh` flag 1 is `sh-fallback` and flag 2 `sh-port`, for `mh` they are
/// `mh-fallback` and `mh-port`; other schedulers call them `flag-1`..`flag-3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct SchedFlags(u8);

impl SchedFlags {
    /// IP_VS_SVC_F_SCHED1 (`sh-fallback`, `mh-fallback`).
    pub const FLAG1: SchedFlags = SchedFlags(1);
    /// IP_VS_SVC_F_SCHED2 (`sh-port`, `mh-port`).
    pub const FLAG2: SchedFlags = SchedFlags(2);
    /// IP_VS_SVC_F_SCHED3.
    pub const FLAG3: SchedFlags = SchedFlags(4);

    /// No flag set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every bit of `other` is set.
    pub fn contains(self, other: SchedFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of both sets.
    pub fn union(self, other: SchedFlags) -> SchedFlags {
        SchedFlags(self.0 | other.0)
    }

    /// Names of the set flags as ipvsadm prints them for `sched` (print_sched_flags), except
    /// that flag 3 of `sh` and `mh` prints as `flag-3` where ipvsadm prints nothing (so that
    /// `-S` output always restores).
    pub fn names(self, sched: Scheduler) -> Vec<&'static str> {
        let names: [&'static str; 3] = match sched {
            Scheduler::Sh => ["sh-fallback", "sh-port", "flag-3"],
            Scheduler::Mh => ["mh-fallback", "mh-port", "flag-3"],
            _ => ["flag-1", "flag-2", "flag-3"],
        };
        [Self::FLAG1, Self::FLAG2, Self::FLAG3]
            .iter()
            .zip(names)
            .filter(|(f, _)| self.contains(**f))
            .map(|(_, n)| n)
            .collect()
    }
}

/// An Ethernet address, written `02:00:5e:10:00:01`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MacAddr(pub [u8; 6]);

impl fmt::Display for MacAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        write!(
            f,
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            b[0], b[1], b[2], b[3], b[4], b[5]
        )
    }
}

/// Why a string is not a unicast MAC address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MacError {
    /// Not six `:`-separated pairs of hex digits.
    #[error("expected six colon-separated pairs of hex digits such as 02:00:5e:10:00:01")]
    Syntax,
    /// A group (multicast or broadcast) address.
    #[error("a real server needs a unicast address, not a multicast or broadcast one")]
    Group,
    /// 00:00:00:00:00:00.
    #[error("the all-zero address is not a station address")]
    Zero,
}

impl FromStr for MacAddr {
    type Err = MacError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut out = [0u8; 6];
        let mut parts = s.split(':');
        for b in out.iter_mut() {
            let p = parts.next().ok_or(MacError::Syntax)?;
            if p.len() != 2 || !p.bytes().all(|c| c.is_ascii_hexdigit()) {
                return Err(MacError::Syntax);
            }
            *b = u8::from_str_radix(p, 16).map_err(|_| MacError::Syntax)?;
        }
        if parts.next().is_some() {
            return Err(MacError::Syntax);
        }
        if out[0] & 1 == 1 {
            return Err(MacError::Group);
        }
        if out == [0; 6] {
            return Err(MacError::Zero);
        }
        Ok(MacAddr(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheduler_names_round_trip() {
        for s in Scheduler::ALL {
            assert_eq!(s.name().parse::<Scheduler>(), Ok(s));
        }
        let e = "lru".parse::<Scheduler>().unwrap_err().to_string();
        assert!(e.contains("`lru`") && e.contains("rr, wrr, lc, wlc"), "{e}");
        assert!(scheduler_list().starts_with("rr|wrr|lc|wlc|"));
    }

    #[test]
    fn sched_flag_names_depend_on_scheduler() {
        let f = SchedFlags::FLAG1.union(SchedFlags::FLAG2);
        assert_eq!(f.names(Scheduler::Sh), ["sh-fallback", "sh-port"]);
        assert_eq!(f.names(Scheduler::Mh), ["mh-fallback", "mh-port"]);
        assert_eq!(f.names(Scheduler::Wlc), ["flag-1", "flag-2"]);
        assert_eq!(SchedFlags::FLAG3.names(Scheduler::Sh), ["flag-3"]);
        assert!(SchedFlags::default().is_empty());
    }

    #[test]
    fn mac_parse_and_display() {
        let m: MacAddr = "02:00:5E:10:00:01".parse().unwrap();
        assert_eq!(m.to_string(), "02:00:5e:10:00:01");
        assert_eq!("02:00:5e:10:00".parse::<MacAddr>(), Err(MacError::Syntax));
        assert_eq!(
            "02:00:5e:10:00:01:02".parse::<MacAddr>(),
            Err(MacError::Syntax)
        );
        assert_eq!("2:00:5e:10:00:01".parse::<MacAddr>(), Err(MacError::Syntax));
        assert_eq!(
            "02-00-5e-10-00-01".parse::<MacAddr>(),
            Err(MacError::Syntax)
        );
        assert_eq!(
            "0g:00:5e:10:00:01".parse::<MacAddr>(),
            Err(MacError::Syntax)
        );
        assert_eq!("ff:ff:ff:ff:ff:ff".parse::<MacAddr>(), Err(MacError::Group));
        assert_eq!("01:00:5e:00:00:01".parse::<MacAddr>(), Err(MacError::Group));
        assert_eq!("00:00:00:00:00:00".parse::<MacAddr>(), Err(MacError::Zero));
        assert_eq!("".parse::<MacAddr>(), Err(MacError::Syntax));
    }

    #[test]
    fn state_names() {
        let names: Vec<&str> = TcpState::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            names,
            [
                "NONE",
                "ESTABLISHED",
                "SYN_SENT",
                "SYN_RECV",
                "FIN_WAIT",
                "TIME_WAIT",
                "CLOSE",
                "CLOSE_WAIT",
                "LAST_ACK",
                "LISTEN",
                "SYNACK"
            ]
        );
    }
}
