//! Flow-manager configuration and statistics through the mailbox (docs/interfaces.md,
//! "Flow manager commands").
//!
//! Virtual services, pools (one scheduler each, IPVS semantics), real servers, the IPVS TCP
//! state timeouts and the connection-setup timers are set with typed wrappers on [`Card`];
//! [`Card::flow_stats`] and [`Card::server_stats`] read the counters back. Arguments are
//! checked on the host before anything is sent ([`DriverError::InvalidArgument`]); the
//! firmware's own refusals (`NOT_FOUND`, `BUSY`, `NO_SPACE`, `NO_DATAPATH`, `BAD_ARGUMENT`)
//! arrive as [`DriverError::MailboxStatus`].
//!
//! The control plane reads everything back, like `ipvsadm -L`: [`Card::config_map`] says
//! which services, pools and servers exist, [`Card::service_get`], [`Card::pool_get`] and
//! [`Card::server_get`] describe one each, [`Card::timeouts`] lists the state timeouts,
//! [`Card::flows`] lists the connections (`ipvsadm -Lnc`) and [`Card::zero_counters`] is
//! `ipvsadm -Z`. [`Card::ruleset_record_put`] / [`Card::ruleset_record_get`] keep a record
//! of the loaded rule set on the card, and [`Card::capture_read`] returns the punted frames
//! the firmware copies into its capture ring (read through the DMEM window).
//!
//! On the wire an IPv4 address is one word in host order (`192.168.0.1` is `0xC0A8_0001`)
//! and a MAC address is two words: bytes 0-3 big endian, then bytes 4-5 in bits 31:16.

use std::fmt;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::str::FromStr;
use std::time::Duration;

use splicenic_fw_logic::mailbox::{cmd, status};
use splicenic_fw_logic::sched::{self, Kind};
use splicenic_fw_logic::splicer::{capture, entry_flags, profile, record};
use splicenic_layout::{self as layout, pool_flags, service_mode, FlowState};

use crate::card::Card;
use crate::datapath::Port;
use crate::error::DriverError;

/// IPVS TCP connection state whose timeout [`Card::timeout_set`] changes; the wire code is
/// [`TcpTimeoutState::index`] (NONE 0 .. SYNACK 10, the kernel's order).
pub use splicenic_fw_logic::flowmgr::timeouts::TcpState as TcpTimeoutState;

/// Number of virtual services (`DP.VIP_ADDR`/`VIP_PORT` entries).
pub const SERVICES: u8 = layout::SERVICES as u8;
/// Number of pools.
pub const POOLS: u8 = layout::POOLS as u8;
/// Number of card-wide real-server indices.
pub const REAL_SERVERS: u8 = layout::REAL_SERVERS as u8;
/// Largest real-server weight (ipvsadm's range).
pub const MAX_WEIGHT: u32 = sched::MAX_WEIGHT;
/// Response words of FLOW_STATS.
pub const FLOW_STATS_WORDS: usize = 16;
/// Response words of SERVER_STATS.
pub const SERVER_STATS_WORDS: usize = 6;
/// Response words of SVC_GET.
pub const SVC_GET_WORDS: usize = 5;
/// Response words of POOL_GET.
pub const POOL_GET_WORDS: usize = 6;
/// Response words of SERVER_GET.
pub const SERVER_GET_WORDS: usize = 12;
/// Response words of CONFIG_MAP.
pub const CONFIG_MAP_WORDS: usize = 4;
/// Response words of FLOW_GET.
pub const FLOW_GET_WORDS: usize = splicenic_fw_logic::splicer::FLOW_GET_WORDS;
/// FLOW_LIST cursor of a finished scan.
pub const FLOW_LIST_DONE: u32 = splicenic_fw_logic::splicer::FLOW_LIST_DONE;
/// Response words of RULESET_INFO.
pub const RULESET_INFO_WORDS: usize = 6;
/// Largest rule-set record the firmware keeps, in bytes.
pub const RULESET_RECORD_MAX: usize = record::RULESET_BYTES;
/// Response words of CAPTURE_INFO.
pub const CAPTURE_INFO_WORDS: usize = 10;
/// Largest capture snap length (CAPTURE_SET word 1).
pub const MAX_SNAPLEN: u32 = 0xFFFF;
/// Core address of DMEM (docs/interfaces.md, "Address maps").
const DMEM_BASE: u32 = layout::DMEM_BASE;
/// FLOW_GET "none" value of the real-server, service and timeout-class fields.
const NONE8: u32 = 0xFF;

// SVC_SET mode words and POOL_SET flags: `service_mode` and `pool_flags` (docs/records.md).
use pool_flags::{
    EXPIRE_QUIESCENT as POOL_FLAG_EXPIRE_QUIESCENT, FALLBACK as POOL_FLAG_FALLBACK,
    HASH_PORT as POOL_FLAG_HASH_PORT,
};
use service_mode::{DELETE as MODE_DELETE, L4 as MODE_L4, L7 as MODE_L7};

/// SERVER_STATS flag: the index holds a server.
const SERVER_FLAG_PRESENT: u32 = 1 << 0;
/// SERVER_STATS flag: the server is above its upper connection threshold.
const SERVER_FLAG_OVERLOADED: u32 = 1 << 1;

/// How a virtual service picks the pool of a new connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServiceMode {
    /// Layer 4: every connection goes to `pool`, chosen at the client's SYN.
    L4 {
        /// The service's pool (0..8).
        pool: u8,
    },
    /// Layer 7: the L7 rule bank picks the pool from the request; `fallback_pool` takes the
    /// connection when the rule's pool is not set up.
    L7 {
        /// The pool used when the matched pool does not exist (0..8).
        fallback_pool: u8,
    },
}

impl ServiceMode {
    /// The SVC_SET mode and pool words.
    fn words(self) -> (u32, u32) {
        match self {
            ServiceMode::L4 { pool } => (MODE_L4, u32::from(pool)),
            ServiceMode::L7 { fallback_pool } => (MODE_L7, u32::from(fallback_pool)),
        }
    }
}

/// The IPVS scheduling algorithms, by their ipvsadm `-s` names. The wire code is the
/// position in [`Scheduler::ALL`] (the firmware's `sched::Kind::ALL` order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Scheduler {
    /// `rr`: round robin.
    Rr,
    /// `wrr`: weighted round robin.
    Wrr,
    /// `lc`: least connection.
    Lc,
    /// `wlc`: weighted least connection (ipvsadm's default).
    #[default]
    Wlc,
    /// `sed`: shortest expected delay.
    Sed,
    /// `nq`: never queue.
    Nq,
    /// `lblc`: locality-based least connection.
    Lblc,
    /// `lblcr`: locality-based least connection with replication.
    Lblcr,
    /// `dh`: destination hashing.
    Dh,
    /// `sh`: source hashing.
    Sh,
    /// `mh`: Maglev hashing.
    Mh,
    /// `fo`: weighted failover.
    Fo,
    /// `ovf`: weighted overflow.
    Ovf,
    /// `twos`: power of two choices.
    Twos,
}

impl Scheduler {
    /// Every scheduler, in wire-code order.
    pub const ALL: [Scheduler; 14] = [
        Scheduler::Rr,
        Scheduler::Wrr,
        Scheduler::Lc,
        Scheduler::Wlc,
        Scheduler::Sed,
        Scheduler::Nq,
        Scheduler::Lblc,
        Scheduler::Lblcr,
        Scheduler::Dh,
        Scheduler::Sh,
        Scheduler::Mh,
        Scheduler::Fo,
        Scheduler::Ovf,
        Scheduler::Twos,
    ];

    /// The ipvsadm name (`wlc`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Scheduler::Rr => "rr",
            Scheduler::Wrr => "wrr",
            Scheduler::Lc => "lc",
            Scheduler::Wlc => "wlc",
            Scheduler::Sed => "sed",
            Scheduler::Nq => "nq",
            Scheduler::Lblc => "lblc",
            Scheduler::Lblcr => "lblcr",
            Scheduler::Dh => "dh",
            Scheduler::Sh => "sh",
            Scheduler::Mh => "mh",
            Scheduler::Fo => "fo",
            Scheduler::Ovf => "ovf",
            Scheduler::Twos => "twos",
        }
    }

    /// The POOL_SET scheduler word.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The scheduler with wire code `code`.
    pub fn from_code(code: u32) -> Option<Scheduler> {
        usize::try_from(code)
            .ok()
            .and_then(|i| Scheduler::ALL.get(i).copied())
    }
}

impl fmt::Display for Scheduler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scheduler name that is not one of the ipvsadm names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown scheduler `{name}`: expected one of {}",
    valid_scheduler_names()
)]
pub struct UnknownScheduler {
    /// The name given.
    pub name: String,
}

fn valid_scheduler_names() -> String {
    Scheduler::ALL
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Scheduler {
    type Err = UnknownScheduler;

    /// Parses an ipvsadm scheduler name (exact, lower case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scheduler::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownScheduler { name: s.into() })
    }
}

impl From<Scheduler> for Kind {
    fn from(s: Scheduler) -> Kind {
        Kind::ALL[s as usize]
    }
}

impl From<Kind> for Scheduler {
    fn from(k: Kind) -> Scheduler {
        // `Kind::ALL` and `Scheduler::ALL` list the same algorithms in the same order.
        Scheduler::ALL[Kind::ALL.iter().position(|&x| x == k).unwrap_or(0)]
    }
}

/// Settings of one pool (ipvsadm `-s`, `-b`, `-p`, `-M`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolConfig {
    /// The scheduling algorithm.
    pub scheduler: Scheduler,
    /// `sh-fallback`/`mh-fallback` (dh too): when the hashed server cannot take the
    /// connection, use another one.
    pub fallback: bool,
    /// `sh-port`/`mh-port`: hash the source port along with the address.
    pub hash_port: bool,
    /// `expire_quiescent_template`: drop persistence entries pointing at a server whose
    /// weight is 0.
    pub expire_quiescent: bool,
    /// Persistence (`-p timeout -M netmask`): the timeout in seconds (at least 1) and the
    /// client netmask. `None` turns persistence off.
    pub persistence: Option<(u32, Ipv4Addr)>,
}

impl PoolConfig {
    /// `scheduler` with no flags and no persistence.
    pub const fn new(scheduler: Scheduler) -> Self {
        Self {
            scheduler,
            fallback: false,
            hash_port: false,
            expire_quiescent: false,
            persistence: None,
        }
    }

    /// The POOL_SET flags word.
    fn flags(&self) -> u32 {
        let mut f = 0;
        if self.fallback {
            f |= POOL_FLAG_FALLBACK;
        }
        if self.hash_port {
            f |= POOL_FLAG_HASH_PORT;
        }
        if self.expire_quiescent {
            f |= POOL_FLAG_EXPIRE_QUIESCENT;
        }
        f
    }
}

impl Default for PoolConfig {
    /// `wlc`, no flags, no persistence (ipvsadm's defaults).
    fn default() -> Self {
        Self::new(Scheduler::default())
    }
}

/// One real server of a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RealServer {
    /// The pool it belongs to (0..8).
    pub pool: u8,
    /// Card-wide real-server index (0..64): the index of its statistics counters.
    pub rs: u8,
    /// Its address.
    pub addr: Ipv4Addr,
    /// Its port (1..=65535).
    pub port: u16,
    /// The MAC address the card sends its frames to.
    pub mac: [u8; 6],
    /// Scheduling weight (0..=65535; 0 takes no new connections).
    pub weight: u32,
    /// Upper connection threshold (ipvsadm `-x`; 0 = none).
    pub upper_threshold: u32,
    /// Lower connection threshold (ipvsadm `-y`; 0 = none).
    pub lower_threshold: u32,
}

/// Connection-setup timers for SETUP_SET; 0 keeps the firmware's current value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SetupTimers {
    /// How long the card waits for the client's request after the handshake, in ms.
    pub request_timeout_ms: u32,
    /// Retransmission interval of the card's SYN to a server, in ms.
    pub server_rto_ms: u32,
    /// SYN transmissions per server before the card gives up on it.
    pub server_syn_tries: u32,
    /// Most flows in use at once (at most the flow-slot capacity); new connections beyond
    /// it are refused like on a full table.
    pub flow_limit: u32,
}

/// The flow manager's counters (FLOW_STATS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FlowStats {
    /// Flow slots in use.
    pub slots_in_use: u32,
    /// Flows the card accepts at once: the flow-slot capacity, or the SETUP_SET limit.
    pub slot_capacity: u32,
    /// SYN-ACKs the card sent to clients.
    pub syn_acks_sent: u32,
    /// Connections spliced (server connection established, data path forwarding).
    pub spliced_total: u32,
    /// SYNs refused because the flow table was full.
    pub refused_table_full: u32,
    /// Connection setups that failed (the client was reset).
    pub setup_failed: u32,
    /// SYNs retransmitted to servers.
    pub server_retries: u32,
    /// Flows freed by the aging scan.
    pub aged_out: u32,
    /// Flows where a FIN or RST was seen.
    pub closed: u32,
    /// SYN-ACKs sent in SYN-cookie mode.
    pub cookie_syn_acks: u32,
    /// Soft-core cycles spent setting connections up.
    pub setup_cycles: u64,
    /// Soft-core cycles spent tearing flows down.
    pub teardown_cycles: u64,
    /// Connection setups in progress.
    pub pending_in_use: u32,
    /// Punted frames the flow manager ignored.
    pub punts_ignored: u32,
}

impl FlowStats {
    /// Decodes the 16 FLOW_STATS words; `None` if fewer are given.
    pub fn from_words(w: &[u32]) -> Option<Self> {
        let w: &[u32; FLOW_STATS_WORDS] = w.get(..FLOW_STATS_WORDS)?.try_into().ok()?;
        Some(Self {
            slots_in_use: w[0],
            slot_capacity: w[1],
            syn_acks_sent: w[2],
            spliced_total: w[3],
            refused_table_full: w[4],
            setup_failed: w[5],
            server_retries: w[6],
            aged_out: w[7],
            closed: w[8],
            cookie_syn_acks: w[9],
            setup_cycles: u64::from(w[11]) << 32 | u64::from(w[10]),
            teardown_cycles: u64::from(w[13]) << 32 | u64::from(w[12]),
            pending_in_use: w[14],
            punts_ignored: w[15],
        })
    }

    /// Mean soft-core cycles per spliced connection: `setup_cycles / spliced_total`
    /// (`None` before the first splice).
    pub fn setup_cycles_per_connection(&self) -> Option<f64> {
        (self.spliced_total != 0).then(|| self.setup_cycles as f64 / f64::from(self.spliced_total))
    }

    /// Mean soft-core cycles per torn-down flow: `teardown_cycles / aged_out`
    /// (`None` before the first one).
    ///
    /// Every flow is freed by the aging scan, closed ones too (a FIN or RST only moves the
    /// flow to a shorter timeout), so `aged_out` counts the completed teardowns and
    /// `closed` is not added to it.
    pub fn teardown_cycles_per_connection(&self) -> Option<f64> {
        (self.aged_out != 0).then(|| self.teardown_cycles as f64 / f64::from(self.aged_out))
    }
}

/// One real server's state and counters (SERVER_STATS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ServerStats {
    /// Active connections (IPVS `activeconns`).
    pub active: u32,
    /// Inactive connections (IPVS `inactconns`).
    pub inactive: u32,
    /// Current weight.
    pub weight: u32,
    /// The index holds a server.
    pub present: bool,
    /// The server is above its upper threshold and takes no new connections.
    pub overloaded: bool,
    /// The pool it belongs to.
    pub pool: u8,
    /// Connections scheduled to it since it was added.
    pub connections: u32,
}

impl ServerStats {
    /// Decodes the 6 SERVER_STATS words; `None` if fewer are given.
    pub fn from_words(w: &[u32]) -> Option<Self> {
        let w: &[u32; SERVER_STATS_WORDS] = w.get(..SERVER_STATS_WORDS)?.try_into().ok()?;
        Some(Self {
            active: w[0],
            inactive: w[1],
            weight: w[2],
            present: w[3] & SERVER_FLAG_PRESENT != 0,
            overloaded: w[3] & SERVER_FLAG_OVERLOADED != 0,
            pool: w[4] as u8,
            connections: w[5],
        })
    }
}

/// `Err(InvalidArgument)` unless `ok`.
fn check(
    ok: bool,
    cmd: &'static str,
    arg: &'static str,
    value: impl Into<u64>,
    range: &'static str,
) -> Result<(), DriverError> {
    if ok {
        Ok(())
    } else {
        Err(DriverError::InvalidArgument {
            cmd,
            arg,
            value: value.into(),
            range,
        })
    }
}

fn check_pool(cmd: &'static str, arg: &'static str, pool: u8) -> Result<(), DriverError> {
    check(pool < POOLS, cmd, arg, pool, "0..8")
}

fn check_rs(cmd: &'static str, rs: u8) -> Result<(), DriverError> {
    check(rs < REAL_SERVERS, cmd, "rs", rs, "0..64")
}

fn check_port(cmd: &'static str, port: u16) -> Result<(), DriverError> {
    check(port != 0, cmd, "port", port, "1..=65535")
}

/// The two MAC words: bytes 0-3 big endian, then bytes 4-5 in bits 31:16.
fn mac_words(mac: [u8; 6]) -> [u32; 2] {
    [
        u32::from_be_bytes([mac[0], mac[1], mac[2], mac[3]]),
        u32::from_be_bytes([mac[4], mac[5], 0, 0]),
    ]
}

/// SVC_SET request words.
fn service_words(index: u8, vip: Ipv4Addr, port: u16, mode: ServiceMode) -> [u32; 5] {
    let (mode, pool) = mode.words();
    [
        u32::from(index),
        u32::from(vip),
        u32::from(port),
        mode,
        pool,
    ]
}

/// POOL_SET request words.
fn pool_words(pool: u8, config: &PoolConfig) -> [u32; 5] {
    let (timeout, netmask) = config
        .persistence
        .unwrap_or((0, Ipv4Addr::new(255, 255, 255, 255)));
    [
        u32::from(pool),
        config.scheduler.code(),
        config.flags(),
        timeout,
        u32::from(netmask),
    ]
}

/// SERVER_SET request words.
fn server_words(s: &RealServer) -> [u32; 8] {
    let [mac_hi, mac_lo] = mac_words(s.mac);
    [
        u32::from(s.pool) | u32::from(s.rs) << 8,
        u32::from(s.addr),
        u32::from(s.port),
        mac_hi,
        mac_lo,
        s.weight,
        s.upper_threshold,
        s.lower_threshold,
    ]
}

impl Card {
    /// SVC_SET: sets up virtual service `index` (0..8) on `vip:port` (port 1..=65535), or
    /// changes it. The firmware programs `DP.VIP_ADDR`/`VIP_PORT[index]`.
    pub fn service_set(
        &mut self,
        index: u8,
        vip: Ipv4Addr,
        port: u16,
        mode: ServiceMode,
    ) -> Result<(), DriverError> {
        const CMD: &str = "SVC_SET";
        check(index < SERVICES, CMD, "index", index, "0..8")?;
        check_port(CMD, port)?;
        match mode {
            ServiceMode::L4 { pool } => check_pool(CMD, "pool", pool)?,
            ServiceMode::L7 { fallback_pool } => check_pool(CMD, "fallback_pool", fallback_pool)?,
        }
        self.call_ok(cmd::SVC_SET, &service_words(index, vip, port, mode), 0)
            .map(drop)
    }

    /// SVC_SET with mode 0: deletes virtual service `index` (0..8). The VIP, port and pool
    /// words are sent as 0.
    pub fn service_delete(&mut self, index: u8) -> Result<(), DriverError> {
        check(index < SERVICES, "SVC_SET", "index", index, "0..8")?;
        self.call_ok(cmd::SVC_SET, &[u32::from(index), 0, 0, MODE_DELETE, 0], 0)
            .map(drop)
    }

    /// POOL_SET: creates pool `pool` (0..8) or changes its scheduler settings; its servers
    /// and their counts are kept.
    pub fn pool_set(&mut self, pool: u8, config: &PoolConfig) -> Result<(), DriverError> {
        const CMD: &str = "POOL_SET";
        check_pool(CMD, "pool", pool)?;
        if let Some((timeout, _)) = config.persistence {
            check(
                timeout > 0,
                CMD,
                "persistence timeout",
                timeout,
                "1..=4294967295 s",
            )?;
        }
        self.call_ok(cmd::POOL_SET, &pool_words(pool, config), 0)
            .map(drop)
    }

    /// POOL_DEL: deletes pool `pool` (0..8). The firmware answers BUSY while it has servers.
    pub fn pool_delete(&mut self, pool: u8) -> Result<(), DriverError> {
        check_pool("POOL_DEL", "pool", pool)?;
        self.call_ok(cmd::POOL_DEL, &[u32::from(pool)], 0).map(drop)
    }

    /// SERVER_SET: adds real server `server.rs` to `server.pool`, or edits it when it is
    /// already there.
    pub fn server_set(&mut self, server: &RealServer) -> Result<(), DriverError> {
        const CMD: &str = "SERVER_SET";
        check_pool(CMD, "pool", server.pool)?;
        check_rs(CMD, server.rs)?;
        check_port(CMD, server.port)?;
        check(
            server.weight <= MAX_WEIGHT,
            CMD,
            "weight",
            server.weight,
            "0..=65535",
        )?;
        self.call_ok(cmd::SERVER_SET, &server_words(server), 0)
            .map(drop)
    }

    /// SERVER_DEL: removes real server `rs` (0..64); its established flows keep flowing to
    /// it until they end.
    pub fn server_delete(&mut self, rs: u8) -> Result<(), DriverError> {
        check_rs("SERVER_DEL", rs)?;
        self.call_ok(cmd::SERVER_DEL, &[u32::from(rs)], 0).map(drop)
    }

    /// TIMEOUT_SET: the timeout of TCP state `state` in seconds (at least 1). The firmware
    /// refuses a value longer than half its tick counter's range with BAD_ARGUMENT.
    pub fn timeout_set(&mut self, state: TcpTimeoutState, secs: u32) -> Result<(), DriverError> {
        check(secs > 0, "TIMEOUT_SET", "secs", secs, "1..=4294967295")?;
        self.call_ok(cmd::TIMEOUT_SET, &[state.index() as u32, secs], 0)
            .map(drop)
    }

    /// TIMEOUT_SET in milliseconds (request word 2 = 1): for rigs where a simulated second
    /// is long. The firmware rounds the tick count up.
    pub fn timeout_set_ms(&mut self, state: TcpTimeoutState, ms: u32) -> Result<(), DriverError> {
        check(ms > 0, "TIMEOUT_SET", "ms", ms, "1..=4294967295")?;
        self.call_ok(cmd::TIMEOUT_SET, &[state.index() as u32, ms, 1], 0)
            .map(drop)
    }

    /// SETUP_SET: the connection-setup timers (a 0 field keeps the current value).
    pub fn setup_timers_set(&mut self, timers: &SetupTimers) -> Result<(), DriverError> {
        self.call_ok(
            cmd::SETUP_SET,
            &[
                timers.request_timeout_ms,
                timers.server_rto_ms,
                timers.server_syn_tries,
                timers.flow_limit,
            ],
            0,
        )
        .map(drop)
    }

    /// FLOW_STATS: the flow manager's counters.
    pub fn flow_stats(&mut self) -> Result<FlowStats, DriverError> {
        let d = self.call_ok(cmd::FLOW_STATS, &[], FLOW_STATS_WORDS)?;
        FlowStats::from_words(&d).ok_or_else(|| short_response("FLOW_STATS", &d))
    }

    /// SERVER_STATS: state and counters of real server `rs` (0..64).
    pub fn server_stats(&mut self, rs: u8) -> Result<ServerStats, DriverError> {
        check_rs("SERVER_STATS", rs)?;
        let d = self.call_ok(cmd::SERVER_STATS, &[u32::from(rs)], SERVER_STATS_WORDS)?;
        ServerStats::from_words(&d).ok_or_else(|| short_response("SERVER_STATS", &d))
    }
}

// ----- request heads (HEAD_STATS) -------------------------------------------------------

/// Why the firmware refuses a request head (`splicenic_fw_logic::canon`, docs/canon.md).
pub use splicenic_fw_logic::canon::Reason as HeadRefusal;

/// The firmware's slow path for request heads the data path flagged (HEAD_STATS).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeadStats {
    /// Heads flagged (NEEDS_NORM, NOT_HTTP or ABSFORM) and decided by the firmware.
    pub flagged: u32,
    /// Routed by their canonical form (matched again).
    pub canonical: u32,
    /// Not HTTP: the service's default pool.
    pub not_http: u32,
    /// Soft-core cycles spent canonicalising.
    pub cycles: u64,
    /// Refusals (the client was reset) per reason, every reason in code order.
    pub refused: Vec<(HeadRefusal, u32)>,
}

impl HeadStats {
    /// Heads refused, all reasons.
    pub fn refused_total(&self) -> u64 {
        self.refused.iter().map(|&(_, n)| u64::from(n)).sum()
    }

    /// Heads refused for reason `r`.
    pub fn refused_for(&self, r: HeadRefusal) -> u32 {
        self.refused
            .iter()
            .find(|(x, _)| *x == r)
            .map_or(0, |&(_, c)| c)
    }

    /// Mean cycles per flagged head (0 without one).
    pub fn cycles_per_head(&self) -> u64 {
        self.cycles
            .checked_div(u64::from(self.flagged))
            .unwrap_or(0)
    }
}

impl Card {
    /// HEAD_STATS, every page.
    pub fn head_stats(&mut self) -> Result<HeadStats, DriverError> {
        let mut st = HeadStats::default();
        let all = HeadRefusal::ALL;
        while st.refused.len() < all.len() {
            let first = all[st.refused.len()];
            let d = self.call_ok(cmd::HEAD_STATS, &[u32::from(first.code())], 6)?;
            st.flagged = d[0];
            st.canonical = d[1];
            st.not_http = d[2];
            st.cycles = u64::from(d[3]) | u64::from(d[4]) << 32;
            let base = st.refused.len();
            let counts = &d[5..];
            let take = counts.len().min(all.len() - base);
            st.refused.extend(
                all[base..base + take]
                    .iter()
                    .copied()
                    .zip(counts[..take].iter().copied()),
            );
        }
        Ok(st)
    }
}

// ----- cycle profile (FLOW_PROFILE) -----------------------------------------------------

/// Entries of the firmware's cycle profile (handler kinds, then steps).
pub const PROFILE_ENTRIES: usize = profile::ENTRIES;
/// Handler kinds in the profile (entries `0..PROFILE_HANDLERS`; the steps follow).
pub const PROFILE_HANDLERS: usize = profile::HANDLERS;
/// Profile entries per FLOW_PROFILE response.
pub const PROFILE_PER_PAGE: usize = profile::PER_PAGE;
/// Entry names in FLOW_PROFILE order (`syn`, `syn_cookie`, ... `other`, then `punt_read`,
/// `parse`, ... `l7_submit`; docs/flowmgr.md, "Cycle profile").
pub const PROFILE_NAMES: [&str; PROFILE_ENTRIES] = profile::NAMES;

/// What a profile entry times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProfileGroup {
    /// A handler kind: every soft-core cycle the flow manager spends on a punted frame, an
    /// event or a setup timer is charged to exactly one.
    Handler,
    /// A step inside the handlers (flow-table command, entry write, ...): its cycles are part
    /// of the handler it ran in (the punt read and the parse are outside every handler).
    Step,
}

/// One entry of the cycle profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileEntry {
    /// The entry's name ([`PROFILE_NAMES`]).
    pub name: &'static str,
    /// Handler kind or step.
    pub group: ProfileGroup,
    /// Soft-core cycles spent (SoC cycle counter).
    pub cycles: u64,
    /// Times it ran (for `aging_free`: flows freed).
    pub count: u32,
}

impl ProfileEntry {
    /// Mean cycles per run (`None` before the first).
    pub fn mean_cycles(&self) -> Option<f64> {
        (self.count != 0).then(|| self.cycles as f64 / f64::from(self.count))
    }
}

/// The flow manager's cycle profile (FLOW_PROFILE): cycles and runs per handler kind and
/// per step, since the firmware started or the last ZERO.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowProfile {
    /// Cycles an empty timed step reports on the card: the measurement's own share of every
    /// step run (subtract `count * empty_step_cycles` from a step for its net cost).
    pub empty_step_cycles: u32,
    /// The firmware times the steps ([`Card::flow_profile_steps`]); when off, the step
    /// entries do not grow.
    pub steps_timed: bool,
    /// All [`PROFILE_ENTRIES`] entries, in FLOW_PROFILE order.
    pub entries: Vec<ProfileEntry>,
}

impl FlowProfile {
    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Option<&ProfileEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The handler kinds.
    pub fn handlers(&self) -> impl Iterator<Item = &ProfileEntry> {
        self.entries
            .iter()
            .filter(|e| e.group == ProfileGroup::Handler)
    }

    /// The steps.
    pub fn steps(&self) -> impl Iterator<Item = &ProfileEntry> {
        self.entries
            .iter()
            .filter(|e| e.group == ProfileGroup::Step)
    }

    /// Cycles of all handler kinds together.
    pub fn handler_cycles(&self) -> u64 {
        self.handlers().map(|e| e.cycles).sum()
    }

    /// What happened between `earlier` and this profile (cycles and counts subtracted,
    /// wrapping like the counters on the card).
    pub fn since(&self, earlier: &FlowProfile) -> FlowProfile {
        FlowProfile {
            empty_step_cycles: self.empty_step_cycles,
            steps_timed: self.steps_timed,
            entries: self
                .entries
                .iter()
                .zip(&earlier.entries)
                .map(|(a, b)| ProfileEntry {
                    cycles: a.cycles.wrapping_sub(b.cycles),
                    count: a.count.wrapping_sub(b.count),
                    ..*a
                })
                .collect(),
        }
    }

    /// Decodes FLOW_PROFILE responses: `pages[k]` answers the request for entry
    /// `k * PROFILE_PER_PAGE`.
    pub fn from_pages(pages: &[Vec<u32>]) -> Result<Self, DriverError> {
        const CMD: &str = "FLOW_PROFILE";
        let mut entries = Vec::with_capacity(PROFILE_ENTRIES);
        let mut empty_step_cycles = 0;
        let mut steps_timed = false;
        for (k, w) in pages.iter().enumerate() {
            let first = k * PROFILE_PER_PAGE;
            let header = *w.first().ok_or_else(|| short_response(CMD, w))?;
            let n = (header & 0xff) as usize;
            if n != PROFILE_ENTRIES {
                return Err(bad_response(
                    CMD,
                    format!(
                        "the firmware has {n} profile entries, this driver knows {PROFILE_ENTRIES} \
                         (firmware and driver versions differ)"
                    ),
                ));
            }
            if first == 0 {
                empty_step_cycles = header >> 16;
                steps_timed = header >> 8 & 1 != 0;
            }
            let expect = PROFILE_PER_PAGE.min(n.saturating_sub(first));
            if w.len() != 1 + 3 * expect {
                return Err(bad_response(
                    CMD,
                    format!(
                        "{} data words from entry {first}, expected {}",
                        w.len(),
                        1 + 3 * expect
                    ),
                ));
            }
            for (i, e) in w[1..].chunks_exact(3).enumerate() {
                let index = first + i;
                entries.push(ProfileEntry {
                    name: PROFILE_NAMES[index],
                    group: if index < PROFILE_HANDLERS {
                        ProfileGroup::Handler
                    } else {
                        ProfileGroup::Step
                    },
                    cycles: u64::from(e[1]) << 32 | u64::from(e[0]),
                    count: e[2],
                });
            }
        }
        if entries.len() != PROFILE_ENTRIES {
            return Err(bad_response(
                CMD,
                format!("{} of {PROFILE_ENTRIES} entries read", entries.len()),
            ));
        }
        Ok(Self {
            empty_step_cycles,
            steps_timed,
            entries,
        })
    }
}

impl fmt::Display for FlowProfile {
    /// A table: name, runs, cycles, mean cycles per run.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<16} {:>10} {:>16} {:>10}",
            "entry", "runs", "cycles", "mean"
        )?;
        for e in &self.entries {
            if e.group == ProfileGroup::Step && e.name == PROFILE_NAMES[PROFILE_HANDLERS] {
                writeln!(f, "-- steps (inside the handlers above) --")?;
            }
            let mean = e
                .mean_cycles()
                .map_or("-".to_string(), |m| format!("{m:.0}"));
            writeln!(
                f,
                "{:<16} {:>10} {:>16} {:>10}",
                e.name, e.count, e.cycles, mean
            )?;
        }
        write!(
            f,
            "empty step: {} cycles; steps {}",
            self.empty_step_cycles,
            if self.steps_timed {
                "timed"
            } else {
                "not timed"
            }
        )
    }
}

impl Card {
    /// FLOW_PROFILE: where the flow manager's soft-core cycles went, per handler kind and
    /// per step (docs/flowmgr.md, "Cycle profile"). Reads every page; the first request
    /// takes the snapshot the others read. [`Card::zero_counters`] clears it.
    pub fn flow_profile(&mut self) -> Result<FlowProfile, DriverError> {
        let pages = PROFILE_ENTRIES.div_ceil(PROFILE_PER_PAGE);
        let mut words = Vec::with_capacity(pages);
        for k in 0..pages {
            words.push(self.call_ok(cmd::FLOW_PROFILE, &[(k * PROFILE_PER_PAGE) as u32], 1)?);
        }
        FlowProfile::from_pages(&words)
    }

    /// FLOW_PROFILE word 1: turns the firmware's step timing on or off (off after boot).
    /// Handler kinds are always counted; timing the steps costs about 200 soft-core cycles
    /// per step (docs/flowmgr.md, "Cycle profile"), so FLOW_STATS cycle sums measured with it
    /// on include that (+3.6 % setup cycles on the simulated card). The entries are kept.
    pub fn flow_profile_steps(&mut self, on: bool) -> Result<(), DriverError> {
        self.call_ok(
            cmd::FLOW_PROFILE,
            &[PROFILE_ENTRIES as u32, u32::from(on)],
            1,
        )
        .map(drop)
    }
}

// ----- control plane: reading the configuration back ------------------------------------

/// A virtual service as the firmware holds it (SVC_GET).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServiceInfo {
    /// Service index (0..8).
    pub index: u8,
    /// Virtual address.
    pub vip: Ipv4Addr,
    /// Virtual port.
    pub port: u16,
    /// L4 or L7, and the pool.
    pub mode: ServiceMode,
}

/// A pool as the firmware holds it (POOL_GET).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolInfo {
    /// Pool index (0..8).
    pub pool: u8,
    /// Scheduler, flags and persistence.
    pub config: PoolConfig,
    /// Real servers in the pool.
    pub servers: u32,
}

/// A real server's configuration and counters (SERVER_GET).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerInfo {
    /// Its configuration, as SERVER_SET takes it.
    pub server: RealServer,
    /// Its connection counts (`present` is always true here).
    pub stats: ServerStats,
}

/// Which services, pools and real servers are set up (CONFIG_MAP): bit `i` = index `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConfigMap {
    /// Virtual services 0..8.
    pub services: u8,
    /// Pools 0..8.
    pub pools: u8,
    /// Real servers 0..64.
    pub servers: u64,
}

fn bits(mask: u64, n: u8) -> impl Iterator<Item = u8> {
    (0..n).filter(move |&i| mask >> i & 1 != 0)
}

impl ConfigMap {
    /// Decodes the 4 CONFIG_MAP words; `None` if fewer are given.
    pub fn from_words(w: &[u32]) -> Option<Self> {
        let w = w.get(..CONFIG_MAP_WORDS)?;
        Some(Self {
            services: w[0] as u8,
            pools: w[1] as u8,
            servers: u64::from(w[3]) << 32 | u64::from(w[2]),
        })
    }

    /// Indexes of the services set up, ascending.
    pub fn service_indexes(&self) -> impl Iterator<Item = u8> {
        bits(self.services.into(), SERVICES)
    }

    /// Indexes of the pools set up, ascending.
    pub fn pool_indexes(&self) -> impl Iterator<Item = u8> {
        bits(self.pools.into(), POOLS)
    }

    /// Indexes of the real servers set up, ascending.
    pub fn server_indexes(&self) -> impl Iterator<Item = u8> {
        bits(self.servers, REAL_SERVERS)
    }
}

fn bad_response(cmd: &str, reason: impl Into<String>) -> DriverError {
    DriverError::MailboxResponse {
        cmd: cmd.into(),
        reason: reason.into(),
    }
}

fn port_word(cmd: &str, w: u32) -> Result<u16, DriverError> {
    u16::try_from(w).map_err(|_| bad_response(cmd, format!("port {w:#x} does not fit 16 bits")))
}

/// Decodes SVC_GET words of service `index`; `None` for an index without a service.
fn decode_service(index: u8, w: &[u32]) -> Result<Option<ServiceInfo>, DriverError> {
    const CMD: &str = "SVC_GET";
    let w = w
        .get(..SVC_GET_WORDS)
        .ok_or_else(|| short_response(CMD, w))?;
    if w[0] == 0 {
        return Ok(None);
    }
    let pool = u8::try_from(w[4])
        .ok()
        .filter(|&p| p < POOLS)
        .ok_or_else(|| bad_response(CMD, format!("pool {} out of range", w[4])))?;
    let mode = match w[3] {
        MODE_L4 => ServiceMode::L4 { pool },
        MODE_L7 => ServiceMode::L7 {
            fallback_pool: pool,
        },
        m => return Err(bad_response(CMD, format!("unknown mode {m}"))),
    };
    Ok(Some(ServiceInfo {
        index,
        vip: Ipv4Addr::from(w[1]),
        port: port_word(CMD, w[2])?,
        mode,
    }))
}

/// Decodes POOL_GET words of pool `pool`; `None` for a pool that is not set up.
fn decode_pool(pool: u8, w: &[u32]) -> Result<Option<PoolInfo>, DriverError> {
    const CMD: &str = "POOL_GET";
    let w = w
        .get(..POOL_GET_WORDS)
        .ok_or_else(|| short_response(CMD, w))?;
    if w[0] == 0 {
        return Ok(None);
    }
    let scheduler = Scheduler::from_code(w[1])
        .ok_or_else(|| bad_response(CMD, format!("unknown scheduler {}", w[1])))?;
    Ok(Some(PoolInfo {
        pool,
        config: PoolConfig {
            scheduler,
            fallback: w[2] & POOL_FLAG_FALLBACK != 0,
            hash_port: w[2] & POOL_FLAG_HASH_PORT != 0,
            expire_quiescent: w[2] & POOL_FLAG_EXPIRE_QUIESCENT != 0,
            persistence: (w[3] != 0).then(|| (w[3], Ipv4Addr::from(w[4]))),
        },
        servers: w[5],
    }))
}

/// Decodes SERVER_GET words of real server `rs`; `None` for an index without a server.
fn decode_server(rs: u8, w: &[u32]) -> Result<Option<ServerInfo>, DriverError> {
    const CMD: &str = "SERVER_GET";
    let w = w
        .get(..SERVER_GET_WORDS)
        .ok_or_else(|| short_response(CMD, w))?;
    if w[0] & SERVER_FLAG_PRESENT == 0 {
        return Ok(None);
    }
    let [a, b, c, d] = w[4].to_be_bytes();
    let [e, f, _, _] = w[5].to_be_bytes();
    let pool = w[1] as u8;
    Ok(Some(ServerInfo {
        server: RealServer {
            pool,
            rs,
            addr: Ipv4Addr::from(w[2]),
            port: port_word(CMD, w[3])?,
            mac: [a, b, c, d, e, f],
            weight: w[6],
            upper_threshold: w[7],
            lower_threshold: w[8],
        },
        stats: ServerStats {
            active: w[9],
            inactive: w[10],
            weight: w[6],
            present: true,
            overloaded: w[0] & SERVER_FLAG_OVERLOADED != 0,
            pool,
            connections: w[11],
        },
    }))
}

// ----- control plane: connections ---------------------------------------------------------

/// One connection as FLOW_GET reports it (a row of `ipvsadm -Lnc`, with counters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowInfo {
    /// Flow slot.
    pub slot: u16,
    /// The data path's flow state.
    pub flow_state: FlowState,
    /// IPVS-style state name ([`ipvs_state`]).
    pub state: TcpTimeoutState,
    /// The flow entry's flags byte: data-path bits 2:0 (SACK, timestamp, window
    /// translation) and the firmware's bits 7:4 ([`entry_flags`]).
    pub flags: u8,
    /// Real-server index (`None` before a server is chosen).
    pub real_server: Option<u8>,
    /// Virtual-service index (`None` when no service has the flow's address any more).
    pub service: Option<u8>,
    /// The client.
    pub client: SocketAddrV4,
    /// The virtual service address the client connected to.
    pub vip: SocketAddrV4,
    /// The real server (`0.0.0.0:0` before a server is chosen).
    pub server: SocketAddrV4,
    /// The card's address on the server side.
    pub local: SocketAddrV4,
    /// Time until the flow expires under the current timeout of its state, or until the
    /// setup step's deadline of a flow being set up (`None`: the firmware keeps no timer).
    pub expires_in: Option<Duration>,
    /// Time since the last forwarded segment (or since the setup step started).
    pub idle: Duration,
    /// The IPVS state whose timeout applies (`None` for flows being set up).
    pub timeout_class: Option<TcpTimeoutState>,
    /// Packets client → server.
    pub packets_to_server: u32,
    /// Packets server → client.
    pub packets_to_client: u32,
    /// Bytes client → server (48-bit counter).
    pub bytes_to_server: u64,
    /// Bytes server → client (48-bit counter).
    pub bytes_to_client: u64,
}

/// The IPVS-style state of a flow from its data-path state and flags byte: HANDSHAKE
/// SYN_RECV, REQUEST ESTABLISHED (the client connection is up, the card waits for the
/// request), CONNECTING SYN_SENT, SPLICED ESTABLISHED; CLOSING: CLOSE after a RST,
/// TIME_WAIT after both FINs, CLOSE_WAIT after the server's FIN alone, FIN_WAIT otherwise.
pub fn ipvs_state(state: FlowState, flags: u8) -> TcpTimeoutState {
    let fins = flags & (entry_flags::FIN_CLIENT | entry_flags::FIN_SERVER);
    match state {
        FlowState::Free => TcpTimeoutState::None,
        FlowState::Handshake => TcpTimeoutState::SynRecv,
        FlowState::Request | FlowState::Spliced => TcpTimeoutState::Established,
        FlowState::Connecting => TcpTimeoutState::SynSent,
        FlowState::Closing if flags & entry_flags::RST != 0 => TcpTimeoutState::Close,
        FlowState::Closing if fins == entry_flags::FIN_CLIENT | entry_flags::FIN_SERVER => {
            TcpTimeoutState::TimeWait
        }
        FlowState::Closing if fins == entry_flags::FIN_SERVER => TcpTimeoutState::CloseWait,
        FlowState::Closing => TcpTimeoutState::FinWait,
    }
}

fn opt8(w: u32) -> Option<u8> {
    (w & 0xFF != NONE8).then_some(w as u8)
}

impl FlowInfo {
    /// Decodes the 16 FLOW_GET words of `slot`.
    pub fn from_words(slot: u16, w: &[u32]) -> Result<Self, DriverError> {
        const CMD: &str = "FLOW_GET";
        let w = w
            .get(..FLOW_GET_WORDS)
            .ok_or_else(|| short_response(CMD, w))?;
        let flow_state = FlowState::from_raw(w[0] as u8)
            .ok_or_else(|| bad_response(CMD, format!("unknown flow state {}", w[0] & 0xFF)))?;
        let flags = (w[0] >> 8) as u8;
        let addr = |ip: u32, port: u32| SocketAddrV4::new(Ipv4Addr::from(ip), port as u16);
        let ms = |v: u32| Duration::from_millis(v.into());
        Ok(Self {
            slot,
            flow_state,
            state: ipvs_state(flow_state, flags),
            flags,
            real_server: opt8(w[0] >> 16),
            service: opt8(w[0] >> 24),
            client: addr(w[1], w[2] >> 16),
            vip: addr(w[3], w[2] & 0xFFFF),
            server: addr(w[4], w[5] >> 16),
            local: addr(w[6], w[5] & 0xFFFF),
            expires_in: (w[7] != u32::MAX).then(|| ms(w[7])),
            idle: ms(w[8]),
            timeout_class: opt8(w[15]).and_then(|i| TcpTimeoutState::from_index(i.into())),
            packets_to_server: w[9],
            packets_to_client: w[10],
            bytes_to_server: u64::from(w[12] & 0xFFFF) << 32 | u64::from(w[11]),
            bytes_to_client: u64::from(w[14] & 0xFFFF) << 32 | u64::from(w[13]),
        })
    }

    /// The client sent FIN.
    pub fn fin_from_client(&self) -> bool {
        self.flags & entry_flags::FIN_CLIENT != 0
    }

    /// The server sent FIN.
    pub fn fin_from_server(&self) -> bool {
        self.flags & entry_flags::FIN_SERVER != 0
    }

    /// A RST went through.
    pub fn reset(&self) -> bool {
        self.flags & entry_flags::RST != 0
    }

    /// The flow counts as active on its server (IPVS ESTABLISHED).
    pub fn active(&self) -> bool {
        self.flags & entry_flags::ACTIVE != 0
    }
}

// ----- control plane: rule-set record -----------------------------------------------------

/// State of the rule-set record on the card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesetState {
    /// Nothing stored since the firmware started (or the last write failed its check).
    Empty,
    /// A committed record.
    Valid,
    /// A host is writing a record (the previous one is gone).
    Writing,
}

/// RULESET_INFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesetInfo {
    /// Length of the committed record in bytes.
    pub len: u32,
    /// Records committed since the firmware started.
    pub generation: u32,
    /// FNV-1a hash of the record.
    pub hash: u32,
    /// Record state.
    pub state: RulesetState,
    /// Tag the committing host gave ([`Card::ruleset_record_put_by`]).
    pub loaded_by: u32,
    /// Capacity in bytes.
    pub capacity: u32,
}

impl RulesetInfo {
    /// Decodes the 6 RULESET_INFO words.
    pub fn from_words(w: &[u32]) -> Result<Self, DriverError> {
        const CMD: &str = "RULESET_INFO";
        let w = w
            .get(..RULESET_INFO_WORDS)
            .ok_or_else(|| short_response(CMD, w))?;
        let state = match w[3] {
            0 => RulesetState::Empty,
            1 => RulesetState::Valid,
            2 => RulesetState::Writing,
            s => return Err(bad_response(CMD, format!("unknown record state {s}"))),
        };
        Ok(Self {
            len: w[0],
            generation: w[1],
            hash: w[2],
            state,
            loaded_by: w[4],
            capacity: w[5],
        })
    }
}

/// Little-endian words of `bytes`, the last one zero padded.
fn words_le_vec(bytes: &[u8]) -> Vec<u32> {
    layout::words_le(bytes).collect()
}

/// FNV-1a (32 bit) of `bytes`: the rule-set record's hash.
pub fn record_hash(bytes: &[u8]) -> u32 {
    record::fnv1a(record::FNV_BASIS, bytes)
}

/// RULESET_PUT requests for `bytes`: offset 0 first (an empty record is one request without
/// data), then 15 words per request.
fn ruleset_put_requests(bytes: &[u8]) -> Vec<Vec<u32>> {
    let words = words_le_vec(bytes);
    if words.is_empty() {
        return vec![vec![0]];
    }
    words
        .chunks(15)
        .enumerate()
        .map(|(i, chunk)| {
            let mut req = vec![(i * 15) as u32];
            req.extend_from_slice(chunk);
            req
        })
        .collect()
}

// ----- control plane: packet capture ------------------------------------------------------

/// CAPTURE_INFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CaptureInfo {
    /// Punted frames are being copied into the ring.
    pub enabled: bool,
    /// Core address of the ring (in DMEM).
    pub addr: u32,
    /// Ring size in bytes.
    pub size: u32,
    /// Write position: bytes written since the firmware started (wrapping).
    pub write_pos: u32,
    /// Position of the oldest record still whole in the ring.
    pub tail: u32,
    /// Frames captured since the firmware started (wrapping).
    pub captured: u32,
    /// Frames overwritten in the ring (wrapping): the number of the record at `tail`.
    pub overwritten: u32,
    /// Bytes stored per frame at most (0 = whole frames).
    pub snaplen: u32,
    /// Soft-core cycles spent copying frames (the capture's cost).
    pub copy_cycles: u64,
}

impl CaptureInfo {
    /// Decodes the 10 CAPTURE_INFO words.
    pub fn from_words(w: &[u32]) -> Option<Self> {
        let w = w.get(..CAPTURE_INFO_WORDS)?;
        Some(Self {
            enabled: w[0] & 1 != 0,
            addr: w[1],
            size: w[2],
            write_pos: w[3],
            tail: w[4],
            captured: w[5],
            overwritten: w[6],
            snaplen: w[7],
            copy_cycles: u64::from(w[9]) << 32 | u64::from(w[8]),
        })
    }

    /// Mean soft-core cycles per captured frame (`None` before the first one).
    pub fn cycles_per_frame(&self) -> Option<f64> {
        (self.captured != 0).then(|| self.copy_cycles as f64 / f64::from(self.captured))
    }
}

/// A punted frame the firmware captured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapturedFrame {
    /// The port it arrived on.
    pub port: Port,
    /// The soft core's cycle counter when the firmware took the frame from the punt ring.
    pub timestamp_cycles: u64,
    /// Length of the frame as received.
    pub wire_len: usize,
    /// The frame as received (Ethernet header first), cut at the snap length.
    pub data: Vec<u8>,
}

/// Read position of a capture reader ([`Card::capture_reader`], [`Card::capture_read`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureCursor {
    /// Next byte position to read.
    pub pos: u32,
    /// Number of the next record (counts captured records, wrapping).
    pub record: u32,
    /// Frames the reader lost because the firmware overwrote them before they were read.
    pub lost: u64,
}

/// `a` is before `b` in wrapping position order.
fn before(a: u32, b: u32) -> bool {
    (b.wrapping_sub(a) as i32) > 0
}

/// Parses the records in `bytes` (ring contents from position `from`; the first record
/// starts at `start`, `start - from` bytes in) up to position `end`. Returns the frames and
/// the position after the last whole record, or `None` if a header does not fit (the ring
/// changed under the reader).
fn parse_records(
    bytes: &[u8],
    from: u32,
    start: u32,
    end: u32,
) -> Option<(Vec<CapturedFrame>, u32)> {
    let mut frames = Vec::new();
    let mut pos = start;
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    while pos != end {
        let at = pos.wrapping_sub(from) as usize;
        let h = word(at)?;
        let stored = (h & 0xFFFF) as usize;
        let len = capture::record_len(stored);
        if len > end.wrapping_sub(pos) as usize {
            return None;
        }
        let stamp = u64::from(word(at + 8)?) << 32 | u64::from(word(at + 4)?);
        let data_at = at + capture::RECORD_HEADER;
        frames.push(CapturedFrame {
            port: if h >> 31 != 0 {
                Port::Server
            } else {
                Port::Client
            },
            timestamp_cycles: stamp,
            wire_len: (h >> 16 & 0x7FFF) as usize,
            data: bytes.get(data_at..data_at + stored)?.to_vec(),
        });
        pos = pos.wrapping_add(len as u32);
    }
    Some((frames, pos))
}

impl Card {
    /// SVC_GET: virtual service `index` (0..8), `None` when it is not set up.
    pub fn service_get(&mut self, index: u8) -> Result<Option<ServiceInfo>, DriverError> {
        check(index < SERVICES, "SVC_GET", "index", index, "0..8")?;
        let d = self.call_ok(cmd::SVC_GET, &[u32::from(index)], SVC_GET_WORDS)?;
        decode_service(index, &d)
    }

    /// POOL_GET: pool `pool` (0..8), `None` when it is not set up.
    pub fn pool_get(&mut self, pool: u8) -> Result<Option<PoolInfo>, DriverError> {
        check_pool("POOL_GET", "pool", pool)?;
        let d = self.call_ok(cmd::POOL_GET, &[u32::from(pool)], POOL_GET_WORDS)?;
        decode_pool(pool, &d)
    }

    /// SERVER_GET: real server `rs` (0..64) with its counts, `None` when the index holds no
    /// server.
    pub fn server_get(&mut self, rs: u8) -> Result<Option<ServerInfo>, DriverError> {
        check_rs("SERVER_GET", rs)?;
        let d = self.call_ok(cmd::SERVER_GET, &[u32::from(rs)], SERVER_GET_WORDS)?;
        decode_server(rs, &d)
    }

    /// CONFIG_MAP: which services, pools and real servers are set up (one request).
    pub fn config_map(&mut self) -> Result<ConfigMap, DriverError> {
        let d = self.call_ok(cmd::CONFIG_MAP, &[], CONFIG_MAP_WORDS)?;
        ConfigMap::from_words(&d).ok_or_else(|| short_response("CONFIG_MAP", &d))
    }

    /// Every virtual service set up (CONFIG_MAP, then SVC_GET for each).
    pub fn services(&mut self) -> Result<Vec<ServiceInfo>, DriverError> {
        let map = self.config_map()?;
        let mut out = Vec::new();
        for i in map.service_indexes() {
            out.extend(self.service_get(i)?);
        }
        Ok(out)
    }

    /// Every pool set up (CONFIG_MAP, then POOL_GET for each).
    pub fn pools(&mut self) -> Result<Vec<PoolInfo>, DriverError> {
        let map = self.config_map()?;
        let mut out = Vec::new();
        for p in map.pool_indexes() {
            out.extend(self.pool_get(p)?);
        }
        Ok(out)
    }

    /// Every real server set up (CONFIG_MAP, then SERVER_GET for each).
    pub fn servers(&mut self) -> Result<Vec<ServerInfo>, DriverError> {
        let map = self.config_map()?;
        let mut out = Vec::new();
        for rs in map.server_indexes() {
            out.extend(self.server_get(rs)?);
        }
        Ok(out)
    }

    /// TIMEOUT_GET: the timeout of every IPVS TCP state, in [`TcpTimeoutState::ALL`] order.
    pub fn timeouts(&mut self) -> Result<Vec<(TcpTimeoutState, Duration)>, DriverError> {
        let n = TcpTimeoutState::ALL.len();
        let d = self.call_ok(cmd::TIMEOUT_GET, &[], n)?;
        Ok(TcpTimeoutState::ALL
            .into_iter()
            .zip(d)
            .map(|(s, ms)| (s, Duration::from_millis(ms.into())))
            .collect())
    }

    /// ZERO: restarts the flow manager's event counters from 0 (`ipvsadm -Z`): the
    /// FLOW_STATS totals and cycle sums, the cycle profile (FLOW_PROFILE), and each real
    /// server's connections total. Gauges (slots in use, setups pending, active and inactive
    /// connections) are kept.
    pub fn zero_counters(&mut self) -> Result<(), DriverError> {
        self.call_ok(cmd::ZERO, &[], 0).map(drop)
    }

    /// FLOW_LIST: flow slots in use from `cursor` on (at most 15 per call) and the cursor
    /// to continue from (`None` when the scan is done).
    pub fn flow_list_page(&mut self, cursor: u32) -> Result<(Vec<u16>, Option<u32>), DriverError> {
        let d = self.call_ok(cmd::FLOW_LIST, &[cursor], 1)?;
        let next = (d[0] != FLOW_LIST_DONE).then_some(d[0]);
        if let Some(n) = next {
            if n <= cursor {
                return Err(bad_response(
                    "FLOW_LIST",
                    format!("cursor went from {cursor} to {n}"),
                ));
            }
        }
        Ok((d[1..].iter().map(|&s| s as u16).collect(), next))
    }

    /// FLOW_GET: flow `slot`, `None` when the slot is free (the flow ended).
    pub fn flow_get(&mut self, slot: u16) -> Result<Option<FlowInfo>, DriverError> {
        match self.call_ok(cmd::FLOW_GET, &[u32::from(slot)], FLOW_GET_WORDS) {
            Ok(d) => FlowInfo::from_words(slot, &d).map(Some),
            Err(DriverError::MailboxStatus { status: s, .. }) if s == status::NOT_FOUND => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Every connection on the card (`ipvsadm -Lnc`): FLOW_LIST pages, then FLOW_GET for
    /// each slot. A flow that ends between the two is skipped. `progress` gets the number
    /// of flows read so far after each one.
    pub fn flows(&mut self, mut progress: impl FnMut(usize)) -> Result<Vec<FlowInfo>, DriverError> {
        let mut out = Vec::new();
        let mut cursor = Some(0);
        while let Some(c) = cursor {
            let (slots, next) = self.flow_list_page(c)?;
            for slot in slots {
                if let Some(f) = self.flow_get(slot)? {
                    out.push(f);
                    progress(out.len());
                }
            }
            cursor = next;
        }
        Ok(out)
    }

    /// RULESET_INFO: the rule-set record's length, generation, hash and state.
    pub fn ruleset_record_info(&mut self) -> Result<RulesetInfo, DriverError> {
        let d = self.call_ok(cmd::RULESET_INFO, &[], RULESET_INFO_WORDS)?;
        RulesetInfo::from_words(&d)
    }

    /// Stores `record` (at most [`RULESET_RECORD_MAX`] bytes) as the card's rule-set record:
    /// RULESET_PUT from offset 0, then RULESET_COMMIT with its length and FNV-1a hash. The
    /// previous record is gone from the first PUT on.
    pub fn ruleset_record_put(&mut self, record: &[u8]) -> Result<(), DriverError> {
        self.ruleset_record_put_by(record, 0)
    }

    /// [`Card::ruleset_record_put`] with a tag naming who loaded the rules (RULESET_INFO
    /// reports it).
    pub fn ruleset_record_put_by(
        &mut self,
        record: &[u8],
        loaded_by: u32,
    ) -> Result<(), DriverError> {
        check(
            record.len() <= RULESET_RECORD_MAX,
            "RULESET_PUT",
            "record length",
            record.len() as u64,
            "0..=16384 bytes",
        )?;
        for req in ruleset_put_requests(record) {
            self.call_ok(cmd::RULESET_PUT, &req, 0)?;
        }
        self.call_ok(
            cmd::RULESET_COMMIT,
            &[record.len() as u32, record_hash(record), loaded_by],
            0,
        )
        .map(drop)
    }

    /// The card's rule-set record, its hash checked; `None` when none was stored. A record
    /// replaced while it is read is read again (up to three times); while a host is writing
    /// one the firmware answers BUSY ([`DriverError::MailboxStatus`]).
    pub fn ruleset_record_get(&mut self) -> Result<Option<Vec<u8>>, DriverError> {
        const CMD: &str = "RULESET_GET";
        for _ in 0..3 {
            let info = self.ruleset_record_info()?;
            if info.state == RulesetState::Empty {
                return Ok(None);
            }
            let words = (info.len as usize).div_ceil(4);
            let mut data = Vec::with_capacity(words);
            // At least one RULESET_GET: it answers BUSY while a record is being written.
            loop {
                let d = self.call_ok(cmd::RULESET_GET, &[data.len() as u32], 0)?;
                if d.is_empty() {
                    break;
                }
                data.extend(d);
                if data.len() >= words {
                    break;
                }
            }
            let again = self.ruleset_record_info()?;
            if again != info || data.len() != words {
                continue;
            }
            let mut bytes: Vec<u8> = data.iter().flat_map(|w| w.to_le_bytes()).collect();
            bytes.truncate(info.len as usize);
            if record_hash(&bytes) != info.hash {
                return Err(bad_response(
                    CMD,
                    format!(
                        "record hash {:#010x}, expected {:#010x}",
                        record_hash(&bytes),
                        info.hash
                    ),
                ));
            }
            return Ok(Some(bytes));
        }
        Err(bad_response(
            CMD,
            "the record kept changing while it was read",
        ))
    }

    /// CAPTURE_SET: copy every punted frame (both ports) into the card's capture ring, at
    /// most `snaplen` bytes of each (0 = whole frames, up to 65535), or stop.
    pub fn capture_set(&mut self, enable: bool, snaplen: u32) -> Result<(), DriverError> {
        check(
            snaplen <= MAX_SNAPLEN,
            "CAPTURE_SET",
            "snaplen",
            snaplen,
            "0..=65535",
        )?;
        self.call_ok(cmd::CAPTURE_SET, &[u32::from(enable), snaplen], 0)
            .map(drop)
    }

    /// CAPTURE_INFO: the capture ring's place and positions, checked against the DMEM
    /// window.
    pub fn capture_info(&mut self) -> Result<CaptureInfo, DriverError> {
        const CMD: &str = "CAPTURE_INFO";
        let d = self.call_ok(cmd::CAPTURE_INFO, &[], CAPTURE_INFO_WORDS)?;
        let i = CaptureInfo::from_words(&d).ok_or_else(|| short_response(CMD, &d))?;
        let in_dmem = i.addr >= DMEM_BASE
            && u64::from(i.addr - DMEM_BASE) + u64::from(i.size) <= u64::from(self.info.dmem_size);
        if !in_dmem || !i.size.is_power_of_two() || i.size < 4 || i.addr % 4 != 0 {
            return Err(bad_response(
                CMD,
                format!(
                    "ring at {:#x}, {} bytes, is not a power-of-two word range in DMEM",
                    i.addr, i.size
                ),
            ));
        }
        Ok(i)
    }

    /// A capture cursor at the current write position: [`Card::capture_read`] returns the
    /// frames captured from now on.
    pub fn capture_reader(&mut self) -> Result<CaptureCursor, DriverError> {
        let i = self.capture_info()?;
        Ok(CaptureCursor {
            pos: i.write_pos,
            record: i.captured,
            lost: 0,
        })
    }

    /// Reads `len` bytes of the capture ring from position `pos` through the DMEM window.
    fn capture_bytes(
        &mut self,
        i: &CaptureInfo,
        pos: u32,
        len: u32,
    ) -> Result<Vec<u8>, DriverError> {
        let mut words = vec![0u32; len as usize / 4];
        let start = pos % i.size;
        let first = (i.size - start).min(len) as usize / 4;
        let base = self.info.dmem_window + u64::from(i.addr - DMEM_BASE);
        self.bar
            .read_block(base + u64::from(start), &mut words[..first])?;
        if first < words.len() {
            self.bar.read_block(base, &mut words[first..])?;
        }
        Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
    }

    /// The frames captured since `cursor`, oldest first, read from the ring through the DMEM
    /// window (CAPTURE_INFO before and after the read). Frames the firmware overwrote before
    /// they were read are counted in `cursor.lost` and skipped.
    pub fn capture_read(
        &mut self,
        cursor: &mut CaptureCursor,
    ) -> Result<Vec<CapturedFrame>, DriverError> {
        let first = self.capture_info()?;
        // The writer lapped the reader: skip to the oldest whole record.
        let skip_to = |c: &mut CaptureCursor, i: &CaptureInfo| {
            if before(c.pos, i.tail) {
                c.lost += u64::from(i.overwritten.wrapping_sub(c.record));
                c.pos = i.tail;
                c.record = i.overwritten;
            }
        };
        if before(first.write_pos, cursor.pos) {
            // Ahead of the writer: the firmware restarted (positions start at 0 again).
            cursor.pos = first.tail;
            cursor.record = first.overwritten;
        }
        skip_to(cursor, &first);
        let from = cursor.pos;
        let end = first.write_pos;
        if !before(from, end) {
            return Ok(Vec::new());
        }
        let bytes = self.capture_bytes(&first, from, end.wrapping_sub(from))?;
        // Records the writer overwrote while the host read them are lost too.
        let second = self.capture_info()?;
        skip_to(cursor, &second);
        if !before(cursor.pos, end) {
            return Ok(Vec::new());
        }
        match parse_records(&bytes, from, cursor.pos, end) {
            Some((frames, pos)) => {
                cursor.pos = pos;
                cursor.record = cursor.record.wrapping_add(frames.len() as u32);
                Ok(frames)
            }
            None => {
                // Not expected (the firmware answers only between records): resynchronise.
                cursor.lost += u64::from(second.captured.wrapping_sub(cursor.record));
                cursor.pos = second.write_pos;
                cursor.record = second.captured;
                Ok(Vec::new())
            }
        }
    }
}

/// A response shorter than the decoder needs (`call_ok` already checks the length, so this
/// is a guard only).
fn short_response(cmd: &str, d: &[u32]) -> DriverError {
    DriverError::MailboxResponse {
        cmd: cmd.into(),
        reason: format!("{} data words are too few", d.len()),
    }
}

/// The TCP state with IPVS name `name` (`ESTABLISHED`, `syn_recv`, ...; case-insensitive).
pub fn tcp_timeout_state_from_name(name: &str) -> Option<TcpTimeoutState> {
    TcpTimeoutState::ALL
        .into_iter()
        .find(|s| s.name().eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::sync::{Arc, Mutex};

    use splicenic_fw_logic::flowmgr::timeouts::STATES;
    use splicenic_fw_logic::mailbox::status;
    use splicenic_fw_logic::splicer::Port as FwPort;

    use super::*;
    use crate::mailbox::tests::AnsweringFake;
    use crate::regs;

    /// The requests a fake firmware got: (command, request words).
    type RequestLog = Arc<Mutex<Vec<(u32, Vec<u32>)>>>;

    /// A card whose firmware answers every request with `(status, data)` and records the
    /// requests it got.
    fn card_answering(status: u32, data: Vec<u32>) -> (Card, RequestLog) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&log);
        let bar = AnsweringFake::new(move |command, words| {
            seen.lock().unwrap().push((command, words.to_vec()));
            (status, data.clone())
        });
        (Card::open(Box::new(bar)).unwrap(), log)
    }

    fn ok_card() -> (Card, RequestLog) {
        card_answering(status::OK, vec![])
    }

    fn only_request(log: &Mutex<Vec<(u32, Vec<u32>)>>) -> (u32, Vec<u32>) {
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 1, "{log:?}");
        log[0].clone()
    }

    const VIP: Ipv4Addr = Ipv4Addr::new(192, 168, 0, 1);

    #[test]
    fn constants_agree_with_the_firmware_and_the_register_map() {
        assert_eq!(usize::from(SERVICES), regs::dp::VIP_ADDR_COUNT);
        assert_eq!(usize::from(REAL_SERVERS), sched::MAX_SERVERS);
        assert_eq!(MAX_WEIGHT, 65_535);
        assert_eq!(
            (cmd::SVC_SET, cmd::SERVER_STATS, status::NO_DATAPATH),
            (0x20, 0x28, 7)
        );
    }

    #[test]
    fn service_set_sends_index_vip_port_mode_and_pool() {
        let (mut card, log) = ok_card();
        card.service_set(3, VIP, 80, ServiceMode::L4 { pool: 5 })
            .unwrap();
        assert_eq!(
            only_request(&log),
            (cmd::SVC_SET, vec![3, 0xC0A8_0001, 80, 1, 5])
        );

        let (mut card, log) = ok_card();
        card.service_set(7, VIP, 65535, ServiceMode::L7 { fallback_pool: 2 })
            .unwrap();
        assert_eq!(
            only_request(&log),
            (cmd::SVC_SET, vec![7, 0xC0A8_0001, 65535, 2, 2])
        );

        let (mut card, log) = ok_card();
        card.service_delete(4).unwrap();
        assert_eq!(only_request(&log), (cmd::SVC_SET, vec![4, 0, 0, 0, 0]));
    }

    #[test]
    fn pool_set_encodes_scheduler_flags_and_persistence() {
        let (mut card, log) = ok_card();
        card.pool_set(2, &PoolConfig::new(Scheduler::Rr)).unwrap();
        assert_eq!(
            only_request(&log),
            (cmd::POOL_SET, vec![2, 0, 0, 0, 0xFFFF_FFFF])
        );

        let (mut card, log) = ok_card();
        let config = PoolConfig {
            scheduler: Scheduler::Mh,
            fallback: true,
            hash_port: false,
            expire_quiescent: true,
            persistence: Some((360, Ipv4Addr::new(255, 255, 255, 0))),
        };
        card.pool_set(7, &config).unwrap();
        assert_eq!(
            only_request(&log),
            (cmd::POOL_SET, vec![7, 10, 0b101, 360, 0xFFFF_FF00])
        );

        let (mut card, log) = ok_card();
        let config = PoolConfig {
            hash_port: true,
            ..PoolConfig::new(Scheduler::Twos)
        };
        card.pool_set(0, &config).unwrap();
        assert_eq!(
            only_request(&log),
            (cmd::POOL_SET, vec![0, 13, 0b010, 0, 0xFFFF_FFFF])
        );

        let (mut card, log) = ok_card();
        card.pool_delete(6).unwrap();
        assert_eq!(only_request(&log), (cmd::POOL_DEL, vec![6]));
    }

    #[test]
    fn server_set_packs_pool_rs_and_mac() {
        let (mut card, log) = ok_card();
        let server = RealServer {
            pool: 3,
            rs: 63,
            addr: Ipv4Addr::new(10, 0, 0, 2),
            port: 8080,
            mac: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55],
            weight: 65535,
            upper_threshold: 1000,
            lower_threshold: 750,
        };
        card.server_set(&server).unwrap();
        assert_eq!(
            only_request(&log),
            (
                cmd::SERVER_SET,
                vec![
                    3 | 63 << 8,
                    0x0A00_0002,
                    8080,
                    0x0211_2233,
                    0x4455_0000,
                    65535,
                    1000,
                    750
                ]
            )
        );

        let (mut card, log) = ok_card();
        card.server_delete(17).unwrap();
        assert_eq!(only_request(&log), (cmd::SERVER_DEL, vec![17]));
    }

    #[test]
    fn timeout_and_setup_timers_words() {
        let (mut card, log) = ok_card();
        card.timeout_set(TcpTimeoutState::Established, 900).unwrap();
        assert_eq!(only_request(&log), (cmd::TIMEOUT_SET, vec![1, 900]));

        let (mut card, log) = ok_card();
        card.timeout_set(TcpTimeoutState::Synack, 5).unwrap();
        assert_eq!(only_request(&log), (cmd::TIMEOUT_SET, vec![10, 5]));

        let (mut card, log) = ok_card();
        card.setup_timers_set(&SetupTimers {
            request_timeout_ms: 5000,
            server_rto_ms: 0,
            server_syn_tries: 3,
            flow_limit: 0,
        })
        .unwrap();
        assert_eq!(only_request(&log), (cmd::SETUP_SET, vec![5000, 0, 3, 0]));
    }

    #[test]
    fn tcp_states_are_in_ipvs_order() {
        let names = [
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
            "SYNACK",
        ];
        assert_eq!(STATES, names.len());
        for (i, name) in names.iter().enumerate() {
            let s = tcp_timeout_state_from_name(name).unwrap();
            assert_eq!((s.index(), s.name()), (i, *name));
        }
        assert_eq!(
            tcp_timeout_state_from_name("time_wait"),
            Some(TcpTimeoutState::TimeWait)
        );
        assert_eq!(tcp_timeout_state_from_name("UDP"), None);
    }

    #[test]
    fn flow_stats_decode_every_word() {
        let words: Vec<u32> = vec![
            10,
            4096,
            20,
            30,
            1,
            2,
            3,
            25,
            24,
            5,
            0x0000_1000,
            0x0000_0002,
            0x8000_0000,
            0x0000_0001,
            4,
            9,
        ];
        let (mut card, log) = card_answering(status::OK, words);
        let s = card.flow_stats().unwrap();
        assert_eq!(only_request(&log), (cmd::FLOW_STATS, vec![]));
        assert_eq!(
            s,
            FlowStats {
                slots_in_use: 10,
                slot_capacity: 4096,
                syn_acks_sent: 20,
                spliced_total: 30,
                refused_table_full: 1,
                setup_failed: 2,
                server_retries: 3,
                aged_out: 25,
                closed: 24,
                cookie_syn_acks: 5,
                setup_cycles: 0x2_0000_1000,
                teardown_cycles: 0x1_8000_0000,
                pending_in_use: 4,
                punts_ignored: 9,
            }
        );
        let per_setup = s.setup_cycles_per_connection().unwrap();
        assert!((per_setup - 0x2_0000_1000_u64 as f64 / 30.0).abs() < 1e-6);
        let per_teardown = s.teardown_cycles_per_connection().unwrap();
        assert!((per_teardown - 0x1_8000_0000_u64 as f64 / 25.0).abs() < 1e-6);
        assert_eq!(FlowStats::default().setup_cycles_per_connection(), None);
        assert_eq!(FlowStats::default().teardown_cycles_per_connection(), None);
        assert_eq!(FlowStats::from_words(&[0; 15]), None);
    }

    #[test]
    fn short_stats_responses_are_errors() {
        let (mut card, _) = card_answering(status::OK, vec![0; 15]);
        let e = card.flow_stats().unwrap_err();
        assert!(matches!(e, DriverError::MailboxResponse { .. }), "{e}");
        assert!(e.to_string().contains("FLOW_STATS"), "{e}");
        let (mut card, _) = card_answering(status::OK, vec![0; 5]);
        let e = card.server_stats(0).unwrap_err();
        assert!(matches!(e, DriverError::MailboxResponse { .. }), "{e}");
    }

    #[test]
    fn server_stats_decode_flags_and_pool() {
        let (mut card, log) = card_answering(status::OK, vec![7, 12, 100, 0b11, 5, 999]);
        let s = card.server_stats(42).unwrap();
        assert_eq!(only_request(&log), (cmd::SERVER_STATS, vec![42]));
        assert_eq!(
            s,
            ServerStats {
                active: 7,
                inactive: 12,
                weight: 100,
                present: true,
                overloaded: true,
                pool: 5,
                connections: 999,
            }
        );
        let s = ServerStats::from_words(&[0, 0, 1, 0b01, 2, 3]).unwrap();
        assert!(s.present && !s.overloaded);
        let s = ServerStats::from_words(&[0, 0, 1, 0b10, 2, 3]).unwrap();
        assert!(!s.present && s.overloaded);
    }

    #[test]
    fn scheduler_names_round_trip_in_firmware_order() {
        assert_eq!(Scheduler::ALL.len(), Kind::ALL.len());
        for (i, s) in Scheduler::ALL.into_iter().enumerate() {
            assert_eq!(s.code(), i as u32);
            assert_eq!(Scheduler::from_code(i as u32), Some(s));
            assert_eq!(s.to_string().parse::<Scheduler>(), Ok(s));
            let k = Kind::from(s);
            assert_eq!(k, Kind::ALL[i]);
            assert_eq!(k.name(), s.name());
            assert_eq!(Scheduler::from(k), s);
        }
        assert_eq!(Scheduler::from_code(14), None);
        assert_eq!(Scheduler::default(), Scheduler::Wlc);
        assert_eq!("lblcr".parse::<Scheduler>(), Ok(Scheduler::Lblcr));
        let e = "WLC".parse::<Scheduler>().unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("`WLC`"), "{msg}");
        assert!(
            msg.contains("rr, wrr, lc, wlc, sed, nq, lblc, lblcr, dh, sh, mh, fo, ovf, twos"),
            "{msg}"
        );
    }

    /// Asserts an InvalidArgument for `arg` whose message names the range, and that nothing
    /// was sent.
    fn assert_invalid(
        r: Result<(), DriverError>,
        log: &Mutex<Vec<(u32, Vec<u32>)>>,
        arg: &str,
        range: &str,
    ) {
        let e = r.unwrap_err();
        match &e {
            DriverError::InvalidArgument { arg: a, .. } => assert_eq!(*a, arg, "{e}"),
            other => panic!("expected InvalidArgument, got {other}"),
        }
        let msg = e.to_string();
        assert!(msg.contains(arg) && msg.contains(range), "{msg}");
        assert!(log.lock().unwrap().is_empty(), "a request was sent");
    }

    #[test]
    fn invalid_arguments_are_refused_before_sending() {
        let (mut card, log) = ok_card();
        let l4 = ServiceMode::L4 { pool: 0 };
        assert_invalid(card.service_set(8, VIP, 80, l4), &log, "index", "0..8");
        assert_invalid(card.service_set(0, VIP, 0, l4), &log, "port", "1..=65535");
        assert_invalid(
            card.service_set(0, VIP, 80, ServiceMode::L4 { pool: 8 }),
            &log,
            "pool",
            "0..8",
        );
        assert_invalid(
            card.service_set(0, VIP, 80, ServiceMode::L7 { fallback_pool: 9 }),
            &log,
            "fallback_pool",
            "0..8",
        );
        assert_invalid(card.service_delete(8), &log, "index", "0..8");

        let p = PoolConfig::default();
        assert_invalid(card.pool_set(8, &p), &log, "pool", "0..8");
        let persist_zero = PoolConfig {
            persistence: Some((0, Ipv4Addr::new(255, 255, 255, 255))),
            ..p
        };
        assert_invalid(
            card.pool_set(0, &persist_zero),
            &log,
            "persistence timeout",
            "1..=",
        );
        assert_invalid(card.pool_delete(200), &log, "pool", "0..8");

        let server = RealServer {
            pool: 0,
            rs: 0,
            addr: Ipv4Addr::new(10, 0, 0, 1),
            port: 80,
            mac: [0; 6],
            weight: 1,
            upper_threshold: 0,
            lower_threshold: 0,
        };
        let bad = [
            (RealServer { pool: 8, ..server }, "pool", "0..8"),
            (RealServer { rs: 64, ..server }, "rs", "0..64"),
            (RealServer { port: 0, ..server }, "port", "1..=65535"),
            (
                RealServer {
                    weight: 65536,
                    ..server
                },
                "weight",
                "0..=65535",
            ),
        ];
        for (s, arg, range) in bad {
            assert_invalid(card.server_set(&s), &log, arg, range);
        }
        assert_invalid(card.server_delete(64), &log, "rs", "0..64");
        assert_invalid(
            card.timeout_set(TcpTimeoutState::Close, 0),
            &log,
            "secs",
            "1..=",
        );
        assert_invalid(card.server_stats(64).map(drop), &log, "rs", "0..64");

        let e = card
            .server_set(&RealServer { rs: 70, ..server })
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "mailbox command SERVER_SET: rs = 70 is out of range, expected 0..64"
        );
    }

    // ----- control plane ---------------------------------------------------------------

    /// A card whose firmware answers through `respond` (command, words) -> (status, data).
    fn card_with(
        respond: impl FnMut(u32, &[u32]) -> (u32, Vec<u32>) + Send + 'static,
    ) -> (Card, RequestLog) {
        let log: RequestLog = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&log);
        let mut respond = respond;
        let bar = AnsweringFake::new(move |command, words| {
            seen.lock().unwrap().push((command, words.to_vec()));
            respond(command, words)
        });
        (Card::open(Box::new(bar)).unwrap(), log)
    }

    #[test]
    fn control_plane_codes_follow_server_stats() {
        assert_eq!(
            [
                cmd::SVC_GET,
                cmd::POOL_GET,
                cmd::SERVER_GET,
                cmd::CONFIG_MAP,
                cmd::TIMEOUT_GET,
                cmd::ZERO,
                cmd::FLOW_LIST,
                cmd::FLOW_GET,
                cmd::RULESET_PUT,
                cmd::RULESET_COMMIT,
                cmd::RULESET_GET,
                cmd::RULESET_INFO,
                cmd::CAPTURE_SET,
                cmd::CAPTURE_INFO,
            ],
            [0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36]
        );
        assert_eq!(cmd::DEBUG_HANG, 0xF0);
        assert_eq!((FLOW_GET_WORDS, FLOW_LIST_DONE), (16, 0xFFFF_FFFF));
        assert_eq!(RULESET_RECORD_MAX, 16384);
    }

    // ----- cycle profile ------------------------------------------------------------

    /// FLOW_PROFILE words per docs/interfaces.md for a table where entry `i` has
    /// `cycles(i)` cycles and `i + 1` runs; `n` entries, steps timed, empty step 7 cycles.
    fn profile_page(first: usize, n: usize, cycles: impl Fn(usize) -> u64) -> Vec<u32> {
        let mut w = vec![n as u32 | 1 << 8 | 7 << 16];
        for i in first..n.min(first + 5) {
            let c = cycles(i);
            w.extend([c as u32, (c >> 32) as u32, i as u32 + 1]);
        }
        w
    }

    fn profile_cycles(i: usize) -> u64 {
        ((i as u64) << 32) | (1000 * i as u64 + 3)
    }

    #[test]
    fn flow_profile_reads_every_page_and_names_the_entries() {
        assert_eq!(cmd::FLOW_PROFILE, 0x37);
        assert_eq!(splicenic_fw_logic::mailbox::API_VERSION, 4);
        assert_eq!(
            (PROFILE_ENTRIES, PROFILE_HANDLERS, PROFILE_PER_PAGE),
            (28, 17, 5)
        );
        let (mut card, log) = card_with(|c, req| {
            assert_eq!(c, cmd::FLOW_PROFILE);
            (
                status::OK,
                profile_page(req[0] as usize, PROFILE_ENTRIES, profile_cycles),
            )
        });
        let p = card.flow_profile().unwrap();
        let firsts: Vec<Vec<u32>> = log.lock().unwrap().iter().map(|r| r.1.clone()).collect();
        assert_eq!(
            firsts,
            [[0], [5], [10], [15], [20], [25]].map(|f| f.to_vec()),
            "entry 0 first (the snapshot), then the other pages"
        );
        assert_eq!((p.empty_step_cycles, p.steps_timed), (7, true));
        assert_eq!(p.entries.len(), PROFILE_ENTRIES);
        for (i, e) in p.entries.iter().enumerate() {
            assert_eq!(e.name, PROFILE_NAMES[i]);
            assert_eq!((e.cycles, e.count), (profile_cycles(i), i as u32 + 1));
        }
        let syn = p.get("syn").unwrap();
        assert_eq!(
            (syn.group, syn.cycles, syn.count),
            (ProfileGroup::Handler, 3, 1)
        );
        let flow_cmd = p.get("flow_cmd").unwrap();
        assert_eq!(flow_cmd.group, ProfileGroup::Step);
        assert_eq!(flow_cmd.count, 20);
        assert_eq!(
            flow_cmd.mean_cycles(),
            Some(profile_cycles(19) as f64 / 20.0)
        );
        assert_eq!(p.get("other").unwrap().group, ProfileGroup::Handler);
        assert_eq!(p.get("punt_read").unwrap().group, ProfileGroup::Step);
        assert_eq!(p.handlers().count(), 17);
        assert_eq!(p.steps().count(), 11);
        assert_eq!(
            p.handler_cycles(),
            (0..PROFILE_HANDLERS).map(profile_cycles).sum::<u64>()
        );
        assert!(p.get("nothing").is_none());
        // Differences between two readings.
        let d = p.since(&p);
        assert!(d.entries.iter().all(|e| e.cycles == 0 && e.count == 0));
        let table = p.to_string();
        assert!(table.contains("server_synack"), "{table}");
        assert!(table.contains("-- steps"), "{table}");
        let zero = ProfileEntry { count: 0, ..*syn };
        assert_eq!(zero.mean_cycles(), None);

        // Step timing on and off: the "past the end" entry, so no snapshot is taken.
        let (mut card, log) = card_with(|_, _| (status::OK, vec![PROFILE_ENTRIES as u32]));
        card.flow_profile_steps(true).unwrap();
        card.flow_profile_steps(false).unwrap();
        let reqs: Vec<(u32, Vec<u32>)> = log.lock().unwrap().clone();
        assert_eq!(
            reqs,
            [
                (cmd::FLOW_PROFILE, vec![28, 1]),
                (cmd::FLOW_PROFILE, vec![28, 0])
            ]
        );
    }

    #[test]
    fn flow_profile_rejects_malformed_answers() {
        let check = |what: &str, respond: fn(u32, &[u32]) -> (u32, Vec<u32>), expect: &str| {
            let (mut card, _) = card_with(respond);
            let e = card.flow_profile().unwrap_err();
            assert!(
                matches!(
                    e,
                    DriverError::MailboxResponse { .. } | DriverError::MailboxStatus { .. }
                ),
                "{what}: {e}"
            );
            assert!(e.to_string().contains(expect), "{what}: {e}");
        };
        check(
            "another entry count",
            |_, req| {
                (
                    status::OK,
                    profile_page(req[0] as usize, 27, profile_cycles),
                )
            },
            "27 profile entries",
        );
        check(
            "a short page",
            |_, req| {
                let mut w = profile_page(req[0] as usize, PROFILE_ENTRIES, profile_cycles);
                if req[0] == 10 {
                    w.pop();
                }
                (status::OK, w)
            },
            "from entry 10",
        );
        check("no words", |_, _| (status::OK, vec![]), "FLOW_PROFILE");
        check(
            "firmware before API 3",
            |_, _| (status::UNKNOWN_COMMAND, vec![]),
            "UNKNOWN_COMMAND",
        );
        // Decoding pages that miss the end.
        let pages: Vec<Vec<u32>> = (0..2)
            .map(|k| profile_page(5 * k, PROFILE_ENTRIES, profile_cycles))
            .collect();
        let e = FlowProfile::from_pages(&pages).unwrap_err();
        assert!(e.to_string().contains("10 of 28 entries"), "{e}");
    }

    #[test]
    fn service_get_decodes_both_modes_and_absence() {
        let (mut card, log) = card_answering(status::OK, vec![1, 0xC0A8_0001, 443, 2, 5]);
        let s = card.service_get(6).unwrap().unwrap();
        assert_eq!(only_request(&log), (cmd::SVC_GET, vec![6]));
        assert_eq!(
            s,
            ServiceInfo {
                index: 6,
                vip: VIP,
                port: 443,
                mode: ServiceMode::L7 { fallback_pool: 5 }
            }
        );
        let s = decode_service(1, &[1, 0x0A00_0001, 80, 1, 7])
            .unwrap()
            .unwrap();
        assert_eq!(s.mode, ServiceMode::L4 { pool: 7 });
        assert_eq!(s.vip, Ipv4Addr::new(10, 0, 0, 1));
        assert_eq!(decode_service(1, &[0, 0, 0, 0, 0]).unwrap(), None);
        for bad in [[1, 1, 80, 3, 0], [1, 1, 80, 1, 8], [1, 1, 0x1_0000, 1, 0]] {
            let e = decode_service(0, &bad).unwrap_err();
            assert!(e.to_string().contains("SVC_GET"), "{e}");
        }
        assert!(decode_service(0, &[1, 1, 80, 1]).is_err(), "short");
        let (mut card, log) = ok_card();
        assert_invalid(card.service_get(8).map(drop), &log, "index", "0..8");
    }

    #[test]
    fn pool_get_decodes_scheduler_flags_and_persistence() {
        let (mut card, log) = card_answering(status::OK, vec![1, 10, 0b101, 360, 0xFFFF_FF00, 3]);
        let p = card.pool_get(7).unwrap().unwrap();
        assert_eq!(only_request(&log), (cmd::POOL_GET, vec![7]));
        assert_eq!(
            p,
            PoolInfo {
                pool: 7,
                config: PoolConfig {
                    scheduler: Scheduler::Mh,
                    fallback: true,
                    hash_port: false,
                    expire_quiescent: true,
                    persistence: Some((360, Ipv4Addr::new(255, 255, 255, 0))),
                },
                servers: 3,
            }
        );
        // POOL_GET answers with the words POOL_SET takes.
        assert_eq!(pool_words(7, &p.config)[1..], [10, 0b101, 360, 0xFFFF_FF00]);
        let p = decode_pool(0, &[1, 3, 0b010, 0, 0xFFFF_FFFF, 0])
            .unwrap()
            .unwrap();
        assert_eq!(
            p.config,
            PoolConfig {
                hash_port: true,
                ..PoolConfig::new(Scheduler::Wlc)
            }
        );
        assert_eq!(decode_pool(0, &[0; 6]).unwrap(), None);
        assert!(
            decode_pool(0, &[1, 14, 0, 0, 0, 0]).is_err(),
            "scheduler 14"
        );
        let (mut card, log) = ok_card();
        assert_invalid(card.pool_get(8).map(drop), &log, "pool", "0..8");
    }

    #[test]
    fn server_get_decodes_configuration_and_counts() {
        let words = vec![
            0b11,
            3,
            0x0A00_0002,
            8080,
            0x0211_2233,
            0x4455_0000,
            100,
            1000,
            750,
            7,
            12,
            999,
        ];
        let (mut card, log) = card_answering(status::OK, words);
        let s = card.server_get(63).unwrap().unwrap();
        assert_eq!(only_request(&log), (cmd::SERVER_GET, vec![63]));
        let server = RealServer {
            pool: 3,
            rs: 63,
            addr: Ipv4Addr::new(10, 0, 0, 2),
            port: 8080,
            mac: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55],
            weight: 100,
            upper_threshold: 1000,
            lower_threshold: 750,
        };
        assert_eq!(s.server, server);
        // The configuration words are those SERVER_SET takes.
        assert_eq!(
            server_words(&server)[1..],
            [0x0A00_0002, 8080, 0x0211_2233, 0x4455_0000, 100, 1000, 750]
        );
        assert_eq!(
            s.stats,
            ServerStats {
                active: 7,
                inactive: 12,
                weight: 100,
                present: true,
                overloaded: true,
                pool: 3,
                connections: 999,
            }
        );
        assert_eq!(decode_server(1, &[0; 12]).unwrap(), None);
        let (mut card, log) = ok_card();
        assert_invalid(card.server_get(64).map(drop), &log, "rs", "0..64");
    }

    #[test]
    fn config_map_lists_indexes_and_drives_the_listings() {
        let m = ConfigMap::from_words(&[0b1000_0001, 0b10, 1 << 31, 1 << 31]).unwrap();
        assert_eq!(m.service_indexes().collect::<Vec<_>>(), [0, 7]);
        assert_eq!(m.pool_indexes().collect::<Vec<_>>(), [1]);
        assert_eq!(m.server_indexes().collect::<Vec<_>>(), [31, 63]);
        assert_eq!(ConfigMap::from_words(&[0; 3]), None);
        let (mut card, log) = card_with(|c, w| match c {
            cmd::CONFIG_MAP => (status::OK, vec![0b101, 0b1, 0b11, 0]),
            cmd::SVC_GET => (status::OK, vec![1, 0x0A00_0001 + w[0], 80, 1, 0]),
            cmd::POOL_GET => (status::OK, vec![1, 0, 0, 0, u32::MAX, 2]),
            cmd::SERVER_GET => (
                status::OK,
                vec![1, 0, 0x0A00_0100 + w[0], 80, 0, 0, 1, 0, 0, 0, 0, 0],
            ),
            _ => (status::UNKNOWN_COMMAND, vec![]),
        });
        let services = card.services().unwrap();
        assert_eq!(services.iter().map(|s| s.index).collect::<Vec<_>>(), [0, 2]);
        assert_eq!(services[1].vip, Ipv4Addr::new(10, 0, 0, 3));
        assert_eq!(card.pools().unwrap().len(), 1);
        let servers = card.servers().unwrap();
        assert_eq!(servers[1].server.addr, Ipv4Addr::new(10, 0, 1, 1));
        let requests: Vec<u32> = log.lock().unwrap().iter().map(|r| r.0).collect();
        assert_eq!(
            requests,
            [
                cmd::CONFIG_MAP,
                cmd::SVC_GET,
                cmd::SVC_GET,
                cmd::CONFIG_MAP,
                cmd::POOL_GET,
                cmd::CONFIG_MAP,
                cmd::SERVER_GET,
                cmd::SERVER_GET
            ]
        );
    }

    #[test]
    fn timeouts_and_zero() {
        let ms: Vec<u32> = (0..11).map(|i| 1000 * (i + 1)).collect();
        let (mut card, log) = card_answering(status::OK, ms);
        let t = card.timeouts().unwrap();
        assert_eq!(only_request(&log), (cmd::TIMEOUT_GET, vec![]));
        assert_eq!(t.len(), 11);
        assert_eq!(t[1], (TcpTimeoutState::Established, Duration::from_secs(2)));
        assert_eq!(t[10], (TcpTimeoutState::Synack, Duration::from_secs(11)));
        let (mut card, _) = card_answering(status::OK, vec![0; 10]);
        assert!(card.timeouts().is_err(), "short answer");
        let (mut card, log) = ok_card();
        card.zero_counters().unwrap();
        assert_eq!(only_request(&log), (cmd::ZERO, vec![]));
    }

    /// FLOW_GET words of a spliced flow in slot `slot`.
    fn flow_words(slot: u16) -> Vec<u32> {
        vec![
            4 | u32::from(entry_flags::ACTIVE | 0b011) << 8 | 1 << 16 | 2 << 24,
            0x0A00_0002,
            40000 << 16 | 80,
            0xC0A8_0001,
            0x0A01_0005,
            8080 << 16 | (0x4000 + u32::from(slot)),
            0x0A01_0001,
            899_500,
            500,
            10,
            20,
            0x5678_9ABC,
            0x1234,
            0xBA98_7654,
            0xFEDC,
            1,
        ]
    }

    #[test]
    fn flow_words_decode_into_socket_addresses_and_counters() {
        let f = FlowInfo::from_words(7, &flow_words(7)).unwrap();
        assert_eq!(
            f,
            FlowInfo {
                slot: 7,
                flow_state: FlowState::Spliced,
                state: TcpTimeoutState::Established,
                flags: 0x83,
                real_server: Some(1),
                service: Some(2),
                client: "10.0.0.2:40000".parse().unwrap(),
                vip: "192.168.0.1:80".parse().unwrap(),
                server: "10.1.0.5:8080".parse().unwrap(),
                local: "10.1.0.1:16391".parse().unwrap(),
                expires_in: Some(Duration::from_millis(899_500)),
                idle: Duration::from_millis(500),
                timeout_class: Some(TcpTimeoutState::Established),
                packets_to_server: 10,
                packets_to_client: 20,
                bytes_to_server: 0x1234_5678_9ABC,
                bytes_to_client: 0xFEDC_BA98_7654,
            }
        );
        assert!(f.active() && !f.reset() && !f.fin_from_client() && !f.fin_from_server());
        // A flow in its handshake: no server, no real server, no timeout class.
        let mut w = flow_words(3);
        w[0] = 1 | 0xFF << 16 | 0xFF << 24;
        w[4] = 0;
        w[5] = 0;
        w[6] = 0;
        w[7] = u32::MAX;
        w[15] = 0xFF;
        let f = FlowInfo::from_words(3, &w).unwrap();
        assert_eq!(f.state, TcpTimeoutState::SynRecv);
        assert_eq!(
            (f.real_server, f.service, f.timeout_class),
            (None, None, None)
        );
        assert_eq!(f.server, SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0));
        assert_eq!(f.expires_in, None);
        w[0] = 9;
        assert!(FlowInfo::from_words(3, &w).is_err(), "unknown state");
        assert!(FlowInfo::from_words(3, &w[..15]).is_err(), "short");
    }

    #[test]
    fn ipvs_states_follow_the_close_flags() {
        use entry_flags::{ACTIVE, FIN_CLIENT, FIN_SERVER, RST};
        use TcpTimeoutState as T;
        let cases = [
            (FlowState::Handshake, 0, T::SynRecv),
            (FlowState::Request, 0, T::Established),
            (FlowState::Connecting, 0, T::SynSent),
            (FlowState::Spliced, ACTIVE | 3, T::Established),
            (FlowState::Closing, FIN_CLIENT, T::FinWait),
            (FlowState::Closing, FIN_SERVER, T::CloseWait),
            (FlowState::Closing, FIN_CLIENT | FIN_SERVER, T::TimeWait),
            (FlowState::Closing, FIN_CLIENT | RST, T::Close),
            (FlowState::Closing, 0, T::FinWait),
            (FlowState::Free, 0, T::None),
        ];
        for (state, flags, want) in cases {
            assert_eq!(ipvs_state(state, flags), want, "{state:?} {flags:#x}");
        }
    }

    #[test]
    fn flows_pages_through_the_list_and_skips_ended_flows() {
        // Slots 1..=20 in use; 5 ends between FLOW_LIST and FLOW_GET.
        let (mut card, log) = card_with(|c, w| match c {
            cmd::FLOW_LIST => match w[0] {
                0 => (status::OK, [16].into_iter().chain(1..=15).collect()),
                16 => (
                    status::OK,
                    [FLOW_LIST_DONE].into_iter().chain(16..=20).collect(),
                ),
                _ => (status::BAD_ARGUMENT, vec![]),
            },
            cmd::FLOW_GET if w[0] == 5 => (status::NOT_FOUND, vec![]),
            cmd::FLOW_GET => (status::OK, flow_words(w[0] as u16)),
            _ => (status::UNKNOWN_COMMAND, vec![]),
        });
        let mut progress = Vec::new();
        let flows = card.flows(|n| progress.push(n)).unwrap();
        assert_eq!(
            flows.iter().map(|f| f.slot).collect::<Vec<_>>(),
            (1..=20).filter(|&s| s != 5).collect::<Vec<u16>>()
        );
        assert_eq!(progress, (1..=19).collect::<Vec<_>>());
        assert_eq!(flows[0].local.port(), 0x4001);
        let log = log.lock().unwrap();
        assert_eq!(log[0], (cmd::FLOW_LIST, vec![0]));
        assert_eq!(log[16], (cmd::FLOW_LIST, vec![16]));
        assert_eq!(log.len(), 2 + 20);
        drop(log);
        // A cursor that does not advance is an error, not an endless loop.
        let (mut card, _) = card_answering(status::OK, vec![0]);
        assert!(card.flow_list_page(0).is_err());
        // Other FLOW_GET errors are reported.
        let (mut card, _) = card_answering(status::BAD_ARGUMENT, vec![]);
        assert!(card.flow_get(1).is_err());
    }

    /// A card whose firmware keeps the rule-set record with the firmware's own store.
    fn ruleset_card() -> (Card, RequestLog) {
        use splicenic_fw_logic::splicer::record::{RecordError, RulesetStore};
        let buf = Box::leak(Box::new([0u32; record::RULESET_WORDS]));
        let mut store = RulesetStore::new(buf);
        let code = |e: RecordError| match e {
            RecordError::BadArgument => status::BAD_ARGUMENT,
            RecordError::NoSpace => status::NO_SPACE,
            RecordError::NotFound => status::NOT_FOUND,
            RecordError::Busy => status::BUSY,
        };
        card_with(move |c, w| match c {
            cmd::RULESET_PUT => match store.put(w[0], &w[1..]) {
                Ok(()) => (status::OK, vec![]),
                Err(e) => (code(e), vec![]),
            },
            cmd::RULESET_COMMIT => match store.commit(w[0], w[1], w[2]) {
                Ok(()) => (status::OK, vec![]),
                Err(e) => (code(e), vec![]),
            },
            cmd::RULESET_GET => {
                let mut out = [0u32; 16];
                match store.get(w[0], &mut out) {
                    Ok(n) => (status::OK, out[..n].to_vec()),
                    Err(e) => (code(e), vec![]),
                }
            }
            cmd::RULESET_INFO => {
                let i = store.info();
                let words = vec![
                    i.len,
                    i.generation,
                    i.hash,
                    i.state as u32,
                    i.loaded_by,
                    16384,
                ];
                (status::OK, words)
            }
            _ => (status::UNKNOWN_COMMAND, vec![]),
        })
    }

    #[test]
    fn ruleset_record_round_trips_through_the_firmware_store() {
        let (mut card, log) = ruleset_card();
        assert_eq!(card.ruleset_record_get().unwrap(), None);
        for len in [0usize, 1, 3, 4, 5, 60, 61, 1000, RULESET_RECORD_MAX] {
            let blob: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            card.ruleset_record_put_by(&blob, 42).unwrap();
            assert_eq!(
                card.ruleset_record_get().unwrap(),
                Some(blob.clone()),
                "{len}"
            );
            let info = card.ruleset_record_info().unwrap();
            assert_eq!(
                (info.len as usize, info.hash, info.loaded_by),
                (len, record_hash(&blob), 42)
            );
            assert_eq!(info.state, RulesetState::Valid);
        }
        assert_eq!(card.ruleset_record_info().unwrap().generation, 9);
        // The request words: offset, then up to 15 data words; the commit's length and hash.
        log.lock().unwrap().clear();
        card.ruleset_record_put(b"abcdefg").unwrap();
        assert_eq!(
            *log.lock().unwrap(),
            [
                (cmd::RULESET_PUT, vec![0, 0x6463_6261, 0x0067_6665]),
                (cmd::RULESET_COMMIT, vec![7, record_hash(b"abcdefg"), 0]),
            ]
        );
        assert_eq!(ruleset_put_requests(&[]), [vec![0]]);
        assert_eq!(ruleset_put_requests(&[0; 64])[1][0], 15);
        let e = card
            .ruleset_record_put(&vec![0; RULESET_RECORD_MAX + 1])
            .unwrap_err();
        assert!(matches!(e, DriverError::InvalidArgument { .. }), "{e}");
        // FNV-1a test vector.
        assert_eq!(record_hash(b"foobar"), 0xBF9C_F968);
    }

    #[test]
    fn ruleset_record_get_checks_the_hash_and_reports_busy() {
        let (mut card, _) = card_with(|c, w| match c {
            cmd::RULESET_INFO => (status::OK, vec![4, 1, 0x1234_5678, 1, 0, 16384]),
            cmd::RULESET_GET if w[0] == 0 => (status::OK, vec![0x6463_6261]),
            _ => (status::OK, vec![]),
        });
        let e = card.ruleset_record_get().unwrap_err();
        assert!(e.to_string().contains("hash"), "{e}");
        let (mut card, _) = card_with(|c, _| match c {
            cmd::RULESET_INFO => (status::OK, vec![0, 1, 0, 2, 0, 16384]),
            _ => (status::BUSY, vec![]),
        });
        let e = card.ruleset_record_get().unwrap_err();
        assert!(
            matches!(e, DriverError::MailboxStatus { status: s, .. } if s == status::BUSY),
            "{e}"
        );
    }

    /// The firmware's capture ring, its CAPTURE_INFO words shared with the fake firmware.
    struct RingModel {
        ring: capture::CaptureRing<'static>,
        info: Arc<Mutex<VecDeque<Vec<u32>>>>,
    }

    const RING_ADDR: u32 = DMEM_BASE + 0x1000;

    fn info_words(i: &capture::CaptureInfo) -> Vec<u32> {
        vec![
            u32::from(i.enabled),
            i.addr,
            i.size,
            i.wpos,
            i.tail,
            i.captured,
            i.overwritten,
            i.snaplen,
            i.cycles as u32,
            (i.cycles >> 32) as u32,
        ]
    }

    impl RingModel {
        /// Pushes `n` frames of `len` bytes (the byte pattern is the frame number).
        fn push(&mut self, first: u32, n: u32, len: usize) {
            for i in first..first + n {
                let port = if i % 2 == 0 {
                    FwPort::Client
                } else {
                    FwPort::Server
                };
                let f = vec![i as u8; len];
                self.ring.push(port, &f, len + 4, u64::from(i) << 32 | 7);
            }
        }

        /// Copies the ring into the card's DMEM and queues `repeat` CAPTURE_INFO answers.
        fn publish(&self, card: &mut Card, repeat: usize) {
            let base = card.info().dmem_window + u64::from(RING_ADDR - DMEM_BASE);
            card.bar_mut().write_block(base, self.ring.words()).unwrap();
            let w = info_words(&self.ring.info());
            let mut q = self.info.lock().unwrap();
            for _ in 0..repeat {
                q.push_back(w.clone());
            }
        }
    }

    fn capture_card() -> (Card, RingModel) {
        let buf = Box::leak(Box::new([0u32; capture::CAPTURE_WORDS]));
        let mut ring = capture::CaptureRing::new(buf, RING_ADDR);
        ring.set(true, 0);
        let info: Arc<Mutex<VecDeque<Vec<u32>>>> = Arc::default();
        let answers = Arc::clone(&info);
        let (card, _) = card_with(move |c, _| match c {
            cmd::CAPTURE_INFO => match answers.lock().unwrap().pop_front() {
                Some(w) => (status::OK, w),
                None => (status::BUSY, vec![]),
            },
            _ => (status::OK, vec![]),
        });
        (card, RingModel { ring, info })
    }

    fn check_frames(frames: &[CapturedFrame], numbers: std::ops::Range<u32>, len: usize) {
        assert_eq!(frames.len(), numbers.len());
        for (f, i) in frames.iter().zip(numbers) {
            assert_eq!(f.data, vec![i as u8; len], "frame {i}");
            assert_eq!(f.wire_len, len + 4);
            assert_eq!(f.timestamp_cycles, u64::from(i) << 32 | 7);
            assert_eq!(
                f.port,
                if i % 2 == 0 {
                    Port::Client
                } else {
                    Port::Server
                }
            );
        }
    }

    #[test]
    fn capture_reader_returns_new_frames_across_the_ring_end() {
        let (mut card, mut m) = capture_card();
        m.push(0, 3, 100);
        m.publish(&mut card, 1);
        let mut cursor = card.capture_reader().unwrap();
        assert_eq!(
            (cursor.pos, cursor.record),
            (3 * 112, 3),
            "starts at the write position"
        );
        // Enough frames to wrap the 32 KiB ring once, read in two batches.
        m.push(3, 200, 100);
        m.publish(&mut card, 2);
        check_frames(&card.capture_read(&mut cursor).unwrap(), 3..203, 100);
        m.push(203, 150, 100);
        m.publish(&mut card, 2);
        check_frames(&card.capture_read(&mut cursor).unwrap(), 203..353, 100);
        assert_eq!(cursor.lost, 0);
        assert_eq!(cursor.record, 353);
        // Nothing new: one CAPTURE_INFO, no frames.
        m.publish(&mut card, 1);
        assert!(card.capture_read(&mut cursor).unwrap().is_empty());
    }

    #[test]
    fn capture_reader_counts_frames_the_writer_overwrote() {
        let (mut card, mut m) = capture_card();
        m.publish(&mut card, 1);
        let mut cursor = card.capture_reader().unwrap();
        // 500 frames of 1012 bytes: the ring keeps the last 32.
        m.push(0, 500, 1000);
        m.publish(&mut card, 2);
        let frames = card.capture_read(&mut cursor).unwrap();
        let kept = m.ring.info().captured - m.ring.info().overwritten;
        assert_eq!(kept, 32);
        check_frames(&frames, 500 - kept..500, 1000);
        assert_eq!(cursor.lost, u64::from(500 - kept));
        // The writer laps the reader while it reads: the ring holds frames 498..530 when
        // the first CAPTURE_INFO answers, five more frames overwrite 498..503 before the
        // second, so the reader drops 500..503 (their bytes may be torn) and keeps the rest.
        m.push(500, 30, 1000);
        m.publish(&mut card, 1);
        m.push(530, 5, 1000);
        m.publish(&mut card, 1);
        let frames = card.capture_read(&mut cursor).unwrap();
        check_frames(&frames, 503..530, 1000);
        assert_eq!(cursor.lost, u64::from(500 - kept) + 3);
        m.publish(&mut card, 2);
        check_frames(&card.capture_read(&mut cursor).unwrap(), 530..535, 1000);
    }

    #[test]
    fn capture_info_is_checked_against_the_dmem_window() {
        let mut w = info_words(&capture::CaptureInfo {
            enabled: true,
            addr: DMEM_BASE + 0x3_F000,
            size: 0x2000,
            ..Default::default()
        });
        let (mut card, _) = card_answering(status::OK, w.clone());
        let e = card.capture_info().unwrap_err();
        assert!(e.to_string().contains("DMEM"), "{e}");
        w[1] = DMEM_BASE;
        w[8] = 3000;
        w[5] = 10;
        let (mut card, log) = card_answering(status::OK, w);
        let i = card.capture_info().unwrap();
        assert_eq!(i.cycles_per_frame(), Some(300.0));
        card.capture_set(true, 128).unwrap();
        assert_eq!(log.lock().unwrap()[1], (cmd::CAPTURE_SET, vec![1, 128]));
        let (mut card, log) = ok_card();
        assert_invalid(
            card.capture_set(true, 0x1_0000),
            &log,
            "snaplen",
            "0..=65535",
        );
    }

    #[test]
    fn firmware_refusals_name_the_status() {
        for (code, name) in [
            (status::NOT_FOUND, "NOT_FOUND"),
            (status::BUSY, "BUSY"),
            (status::NO_SPACE, "NO_SPACE"),
            (status::NO_DATAPATH, "NO_DATAPATH"),
        ] {
            let (mut card, _) = card_answering(code, vec![]);
            let e = card.pool_delete(1).unwrap_err();
            assert!(
                matches!(e, DriverError::MailboxStatus { status, .. } if status == code),
                "{e}"
            );
            assert_eq!(
                e.to_string(),
                format!("mailbox command POOL_DEL failed: status {code} ({name})")
            );
        }
    }
}
