//! Virtual services, pools, real servers, timeouts and the setup timers: their types and the SVC_SET .. SETUP_SET, FLOW_STATS and SERVER_STATS wrappers.

use super::*;

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

/// The IPVS scheduling algorithms, by their ipvsadm `-s` names: the firmware's own type.
/// The wire code is the position in [`Scheduler::ALL`].
pub use splicenic_fw_logic::sched::{Kind as Scheduler, UnknownScheduler};

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
pub(super) fn check(
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

pub(super) fn check_pool(
    cmd: &'static str,
    arg: &'static str,
    pool: u8,
) -> Result<(), DriverError> {
    check(pool < POOLS, cmd, arg, pool, "0..8")
}

pub(super) fn check_rs(cmd: &'static str, rs: u8) -> Result<(), DriverError> {
    check(rs < REAL_SERVERS, cmd, "rs", rs, "0..64")
}

pub(super) fn check_port(cmd: &'static str, port: u16) -> Result<(), DriverError> {
    check(port != 0, cmd, "port", port, "1..=65535")
}

/// The two MAC words: bytes 0-3 big endian, then bytes 4-5 in bits 31:16.
pub(super) fn mac_words(mac: [u8; 6]) -> [u32; 2] {
    [
        u32::from_be_bytes([mac[0], mac[1], mac[2], mac[3]]),
        u32::from_be_bytes([mac[4], mac[5], 0, 0]),
    ]
}

/// SVC_SET request words.
pub(super) fn service_words(index: u8, vip: Ipv4Addr, port: u16, mode: ServiceMode) -> [u32; 5] {
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
pub(super) fn pool_words(pool: u8, config: &PoolConfig) -> [u32; 5] {
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
pub(super) fn server_words(s: &RealServer) -> [u32; 8] {
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

impl FlowManager<'_> {
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

    /// TIMEOUT_SET: the timeout of TCP state `state` in seconds (at least 1); with
    /// [`TcpTimeoutState::Linger`], the linger of a flow whose both FINs were acknowledged.
    /// The firmware refuses a value longer than half its tick counter's range with
    /// BAD_ARGUMENT.
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
