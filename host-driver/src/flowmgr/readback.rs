//! Control plane: reading the configuration back (SVC_GET, POOL_GET, SERVER_GET, CONFIG_MAP, TIMEOUT_GET).

use super::*;

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

pub(super) fn bits(mask: u64, n: u8) -> impl Iterator<Item = u8> {
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

pub(super) fn bad_response(cmd: &str, reason: impl Into<String>) -> DriverError {
    DriverError::MailboxResponse {
        cmd: cmd.into(),
        reason: reason.into(),
    }
}

pub(super) fn port_word(cmd: &str, w: u32) -> Result<u16, DriverError> {
    u16::try_from(w).map_err(|_| bad_response(cmd, format!("port {w:#x} does not fit 16 bits")))
}

/// Decodes SVC_GET words of service `index`; `None` for an index without a service.
pub(super) fn decode_service(index: u8, w: &[u32]) -> Result<Option<ServiceInfo>, DriverError> {
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
pub(super) fn decode_pool(pool: u8, w: &[u32]) -> Result<Option<PoolInfo>, DriverError> {
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
pub(super) fn decode_server(rs: u8, w: &[u32]) -> Result<Option<ServerInfo>, DriverError> {
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
