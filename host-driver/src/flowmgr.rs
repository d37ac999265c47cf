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
//! On the wire an IPv4 address is one word in host order (`192.168.0.1` is `0xC0A8_0001`)
//! and a MAC address is two words: bytes 0-3 big endian, then bytes 4-5 in bits 31:16.

use std::fmt;
use std::net::Ipv4Addr;
use std::str::FromStr;

use splicenic_fw_logic::mailbox::cmd;
use splicenic_fw_logic::sched::{self, Kind};

use crate::card::Card;
use crate::error::DriverError;

/// IPVS TCP connection state whose timeout [`Card::timeout_set`] changes; the wire code is
/// [`TcpTimeoutState::index`] (NONE 0 .. SYNACK 10, the kernel's order).
pub use splicenic_fw_logic::flowmgr::timeouts::TcpState as TcpTimeoutState;

/// Number of virtual services (`DP.VIP_ADDR`/`VIP_PORT` entries).
pub const SERVICES: u8 = 8;
/// Number of pools.
pub const POOLS: u8 = 8;
/// Number of card-wide real-server indices.
pub const REAL_SERVERS: u8 = sched::MAX_SERVERS as u8;
/// Largest real-server weight (ipvsadm's range).
pub const MAX_WEIGHT: u32 = sched::MAX_WEIGHT;
/// Response words of FLOW_STATS.
pub const FLOW_STATS_WORDS: usize = 16;
/// Response words of SERVER_STATS.
pub const SERVER_STATS_WORDS: usize = 6;

/// SVC_SET mode word of a deleted service.
const MODE_DELETE: u32 = 0;
/// SVC_SET mode word of an L4 service.
const MODE_L4: u32 = 1;
/// SVC_SET mode word of an L7 service.
const MODE_L7: u32 = 2;

/// POOL_SET flag: sh/mh/dh fallback to another server when the hashed one cannot take
/// the connection.
const POOL_FLAG_FALLBACK: u32 = 1 << 0;
/// POOL_SET flag: sh hashes the source port too.
const POOL_FLAG_HASH_PORT: u32 = 1 << 1;
/// POOL_SET flag: expire persistence entries of quiescent (weight 0) servers.
const POOL_FLAG_EXPIRE_QUIESCENT: u32 = 1 << 2;

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
    use std::sync::{Arc, Mutex};

    use splicenic_fw_logic::flowmgr::timeouts::STATES;
    use splicenic_fw_logic::mailbox::status;

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
