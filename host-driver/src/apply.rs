//! Programming a checked configuration ([`config::Plan`]) into a card without dropping
//! established connections, and telling what that would change.
//!
//! ```text
//! card --CardConfig::read--> CardConfig ─┐
//! Config + Plan + neighbour table ───────┴─ApplyPlan::new─> ApplyPlan ──apply_plan──> card
//!                                                               └──changes(CardState)──> [Change]
//! ```
//!
//! [`apply`] reads the card's configuration, makes the [`ApplyPlan`] (every real server's
//! MAC resolved, the servers to replace and the things to remove decided) and carries it
//! out; [`diff`] makes the same plan and lists what carrying it out would change
//! ([`Change`]), compared with what the card holds ([`CardState`]).
//!
//! Order of work (nothing is sent before the whole plan is made, so a configuration whose
//! real server has no MAC changes nothing):
//! 0. the card's own addresses (port MACs, server-side local addresses);
//! 1. timeouts (`lvs_timeouts`);
//! 2. pools (scheduler settings; existing servers and their counts are kept);
//! 3. real servers: a server already on the card with the same pool, address and port keeps
//!    its card index (and so its counters); the others get free indices;
//! 4. the URL rules into the inactive bank, its default pool, then one bank switch (a request
//!    in flight finishes on the bank it started on), then the rule-set record;
//! 5. virtual services;
//! 6. whatever the card has that the file does not: services, then servers (their
//!    established flows keep flowing until they end), then pools.
//!
//! Progress is reported through [`ApplyProgress`]; `&mut ()` reports nothing.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::time::{Duration, Instant};

use crate::card::Card;
use crate::config::{self, BlobError, Limits, Plan, RuleChange, RuleTable};
use crate::datapath::Port;
use crate::error::DriverError;
use crate::flowmgr::{PoolConfig, RealServer, ServerInfo, ServiceInfo, ServiceMode};
use crate::regs;
use crate::TcpTimeoutState;

/// Server-side local addresses the data path holds (`DP.LOCAL_ADDR[..]`).
pub const LOCAL_ADDRESSES: usize = regs::dp::LOCAL_ADDR_COUNT;

/// The host's IPv4 neighbour table: address -> MAC (e.g. the complete entries of
/// `/proc/net/arp`). Real servers without a configured `mac` are looked up in it.
pub type Neighbours = HashMap<Ipv4Addr, [u8; 6]>;

/// What can go wrong applying a configuration.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// A real server's MAC is neither configured nor in the neighbour table.
    #[error(
        "{origin}: real server {addr} has no MAC address: the card sends its frames to the \
         server's MAC; give it with `mac XX:XX:XX:XX:XX:XX` (or --mac), or make the host \
         resolve it first (ping {})",
        .addr.ip()
    )]
    NoMac {
        /// Where the server is configured (`file:line:col`).
        origin: String,
        /// The server.
        addr: SocketAddrV4,
    },
    /// More `local_address`es than the data path holds.
    #[error(
        "{count} local addresses configured; the card's data path holds {}",
        LOCAL_ADDRESSES
    )]
    TooManyLocalAddresses {
        /// How many the configuration has.
        count: usize,
    },
    /// The card's rule-set record is not one this driver reads.
    #[error(
        "the card's rule-set record does not decode (written by another version of nicctl?): \
         {0}"
    )]
    RuleRecord(#[source] BlobError),
    /// A card operation failed; `what` says which.
    #[error("{what}: {source}")]
    Card {
        /// What was being done.
        what: String,
        /// The driver's error.
        #[source]
        source: DriverError,
    },
}

/// Context for a driver error: `r.during(|| "what")`.
trait During<T> {
    fn during<S: Into<String>>(self, what: impl FnOnce() -> S) -> Result<T, ApplyError>;
}

impl<T, E: Into<DriverError>> During<T> for Result<T, E> {
    fn during<S: Into<String>>(self, what: impl FnOnce() -> S) -> Result<T, ApplyError> {
        self.map_err(|e| ApplyError::Card {
            what: what().into(),
            source: e.into(),
        })
    }
}

/// The parts of the work [`apply_plan`] reports to [`ApplyProgress`], in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Port MACs and local addresses.
    Addresses,
    /// `lvs_timeouts`.
    Timeouts,
    /// POOL_SET of every pool.
    Pools,
    /// Real servers replaced and set.
    Servers,
    /// The URL rules into the inactive bank (`total` rules), the bank switch, the record.
    Rules {
        /// Rules to write.
        total: usize,
    },
    /// Virtual services.
    Services,
    /// What the configuration does not have, removed.
    Removals,
}

/// Receives the progress of [`apply_plan`]. Every method has an empty default; `()`
/// implements it doing nothing.
pub trait ApplyProgress {
    /// `step` begins.
    fn begin(&mut self, step: Step) {
        let _ = step;
    }
    /// `done` of `total` URL rules are written (during [`Step::Rules`]).
    fn rule_written(&mut self, done: usize, total: usize) {
        let _ = (done, total);
    }
    /// `step` is over.
    fn end(&mut self, step: Step) {
        let _ = step;
    }
}

impl ApplyProgress for () {}

/// The card's services, pools and real servers as read back through the mailbox.
#[derive(Debug, Default, Clone)]
pub struct CardConfig {
    /// Services by card index.
    pub services: BTreeMap<u8, ServiceInfo>,
    /// Pools by card index.
    pub pools: BTreeMap<u8, PoolConfig>,
    /// Real servers by card index, with their state.
    pub servers: BTreeMap<u8, ServerInfo>,
}

impl CardConfig {
    /// Reads every service, pool and real server the card has.
    pub fn read(card: &mut Card) -> Result<CardConfig, ApplyError> {
        let map = card
            .flow_manager()
            .config_map()
            .during(|| "reading the card's configuration map")?;
        let mut out = CardConfig::default();
        for i in map.service_indexes() {
            if let Some(s) = card
                .flow_manager()
                .service_get(i)
                .during(|| format!("reading virtual service {i}"))?
            {
                out.services.insert(i, s);
            }
        }
        for p in map.pool_indexes() {
            if let Some(c) = card
                .flow_manager()
                .pool_get(p)
                .during(|| format!("reading pool {p}"))?
            {
                out.pools.insert(p, c.config);
            }
        }
        for rs in map.server_indexes() {
            if let Some(s) = card
                .flow_manager()
                .server_get(rs)
                .during(|| format!("reading real server {rs}"))?
            {
                out.servers.insert(rs, s);
            }
        }
        Ok(out)
    }
}

/// Everything [`apply`] may change, as the card has it now: what [`diff`] compares with.
#[derive(Debug, Clone)]
pub struct CardState {
    /// Services, pools and real servers.
    pub config: CardConfig,
    /// The port MACs.
    pub client_mac: [u8; 6],
    pub server_mac: [u8; 6],
    /// `DP.LOCAL_ADDR[i]` when enabled, per index.
    pub local_addresses: [Option<Ipv4Addr>; LOCAL_ADDRESSES],
    /// The timeout of every IPVS TCP state.
    pub timeouts: Vec<(TcpTimeoutState, Duration)>,
    /// The rule set recorded by the last load (empty when none was).
    pub rules: RuleTable,
}

impl CardState {
    /// Reads it from the card.
    pub fn read(card: &mut Card) -> Result<CardState, ApplyError> {
        let config = CardConfig::read(card)?;
        let (client_mac, server_mac) = {
            let mut dp = card.datapath().during(|| "opening the data path")?;
            (
                dp.port_mac(Port::Client)
                    .during(|| "reading the client port's MAC")?,
                dp.port_mac(Port::Server)
                    .during(|| "reading the server port's MAC")?,
            )
        };
        let mut local_addresses = [None; LOCAL_ADDRESSES];
        {
            use regs::dp::{self, local_ctrl as lc};
            let bar = card.bar_mut();
            for (i, slot) in local_addresses.iter_mut().enumerate() {
                let i64 = i as u64;
                let ctrl = bar
                    .read32(dp::LOCAL_CTRL + i64 * dp::LOCAL_CTRL_STRIDE)
                    .during(|| format!("reading DP.LOCAL_CTRL[{i}]"))?;
                if (ctrl >> lc::ENABLE_SHIFT) & lc::ENABLE_MASK != 0 {
                    let a = bar
                        .read32(dp::LOCAL_ADDR + i64 * dp::LOCAL_ADDR_STRIDE)
                        .during(|| format!("reading DP.LOCAL_ADDR[{i}]"))?;
                    *slot = Some(Ipv4Addr::from(a));
                }
            }
        }
        let timeouts = card
            .flow_manager()
            .timeouts()
            .during(|| "reading the timeouts")?;
        let rules = match card
            .flow_manager()
            .ruleset_record_get()
            .during(|| "reading the rule-set record")?
        {
            None => RuleTable::default(),
            Some(blob) => RuleTable::from_blob(&blob).map_err(ApplyError::RuleRecord)?,
        };
        Ok(CardState {
            config,
            client_mac,
            server_mac,
            local_addresses,
            timeouts,
            rules,
        })
    }
}

/// The limits of the card's gateware and firmware (to [`config::plan`] against).
pub fn card_limits(card: &mut Card) -> Result<Limits, ApplyError> {
    let dp = card
        .datapath()
        .during(|| "the card has no splicer data path")?;
    Ok(Limits::from_params(dp.params()))
}

/// The MAC of `addr`: the configured one, else the neighbour table's, else
/// [`ApplyError::NoMac`] naming `origin`.
pub fn resolve_mac(
    addr: SocketAddrV4,
    configured: Option<[u8; 6]>,
    neigh: &Neighbours,
    origin: &str,
) -> Result<[u8; 6], ApplyError> {
    if let Some(m) = configured {
        return Ok(m);
    }
    neigh
        .get(addr.ip())
        .copied()
        .ok_or_else(|| ApplyError::NoMac {
            origin: origin.to_string(),
            addr,
        })
}

/// What [`apply`] did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ApplyReport {
    pub services: usize,
    pub pools: usize,
    pub servers: usize,
    pub rules: usize,
    pub removed_services: usize,
    pub removed_servers: usize,
    pub removed_pools: usize,
    /// The rule bank active after the switch.
    pub active_bank: u8,
    /// Time the URL rules took (writing, switch, record).
    pub rules_seconds: f64,
}

/// What applying a [`Plan`] to a card holding `current` takes: made by [`ApplyPlan::new`],
/// carried out by [`apply_plan`], described by [`ApplyPlan::changes`].
#[derive(Debug, Clone)]
pub struct ApplyPlan<'a> {
    /// The configuration (the card's addresses and timeouts come from it).
    pub cfg: &'a config::Config,
    /// Its plan (indices, rules).
    pub plan: &'a Plan,
    /// The card's configuration the plan was made against.
    pub current: CardConfig,
    /// The MAC of every planned server (sorry servers included), by card index.
    pub macs: BTreeMap<u8, [u8; 6]>,
    /// Card servers at an index the plan gives another server (pool, address or port
    /// differ): removed before the servers are set.
    pub replaced_servers: Vec<u8>,
    /// Card servers at an index the plan does not use: removed at the end.
    pub stale_servers: Vec<u8>,
    /// Card services the plan does not have.
    pub stale_services: Vec<u8>,
    /// Card pools the plan does not have.
    pub stale_pools: Vec<u8>,
}

impl<'a> ApplyPlan<'a> {
    /// The plan for a card holding `current`; every real server's MAC is resolved (the
    /// configured one, else `neigh`'s), and the configuration's local addresses checked
    /// against the data path.
    pub fn new(
        current: CardConfig,
        cfg: &'a config::Config,
        plan: &'a Plan,
        neigh: &Neighbours,
    ) -> Result<ApplyPlan<'a>, ApplyError> {
        if cfg.card.local_addresses.len() > LOCAL_ADDRESSES {
            return Err(ApplyError::TooManyLocalAddresses {
                count: cfg.card.local_addresses.len(),
            });
        }
        let mut macs = BTreeMap::new();
        let mut planned: HashMap<u8, (u8, SocketAddrV4)> = HashMap::new();
        for pool in &plan.pools {
            for s in pool.servers.iter().chain(pool.sorry.iter()) {
                let m = resolve_mac(s.addr, s.mac, neigh, &s.loc.to_string())?;
                macs.insert(s.rs, m);
                planned.insert(s.rs, (pool.index, s.addr));
            }
        }
        let mut replaced_servers = Vec::new();
        let mut stale_servers = Vec::new();
        for (&rs, c) in &current.servers {
            let here = (
                c.server.pool,
                SocketAddrV4::new(c.server.addr, c.server.port),
            );
            match planned.get(&rs) {
                Some(&p) if p == here => {}
                Some(_) => replaced_servers.push(rs),
                None => stale_servers.push(rs),
            }
        }
        let stale_services = current
            .services
            .keys()
            .copied()
            .filter(|i| !plan.services.iter().any(|s| s.index == *i))
            .collect();
        let stale_pools = current
            .pools
            .keys()
            .copied()
            .filter(|i| !plan.pools.iter().any(|p| p.index == *i))
            .collect();
        Ok(ApplyPlan {
            cfg,
            plan,
            current,
            macs,
            replaced_servers,
            stale_servers,
            stale_services,
            stale_pools,
        })
    }

    /// SERVER_SET's arguments for planned server `s` of pool `pool`.
    fn real_server(&self, pool: u8, s: &config::PlannedServer) -> RealServer {
        s.real_server(pool, self.macs[&s.rs])
    }

    /// The name of pool `index` in the plan, else `#index`.
    fn pool_name(&self, index: u8) -> String {
        match self.plan.pools.iter().find(|p| p.index == index) {
            Some(p) => p.name.clone(),
            None => format!("#{index}"),
        }
    }

    /// What carrying out this plan on a card in `state` would change, in the order of the
    /// work (see the module documentation). `state.config` should be what the plan was made
    /// against. Empty when the card already has the configuration.
    pub fn changes(&self, state: &CardState) -> Vec<Change> {
        let mut out = Vec::new();
        let a = &self.cfg.card;
        // 0. Addresses.
        for (port, have, want) in [
            (Port::Client, state.client_mac, a.client_mac),
            (Port::Server, state.server_mac, a.server_mac),
        ] {
            if let Some(want) = want {
                if want != have {
                    out.push(Change::PortMac {
                        port,
                        old: have,
                        new: want,
                    });
                }
            }
        }
        if !a.local_addresses.is_empty() {
            let want: Vec<Option<Ipv4Addr>> = (0..LOCAL_ADDRESSES)
                .map(|i| a.local_addresses.get(i).copied())
                .collect();
            if want != state.local_addresses {
                out.push(Change::LocalAddresses {
                    old: state.local_addresses.iter().flatten().copied().collect(),
                    new: a.local_addresses.clone(),
                });
            }
        }
        // 1. Timeouts.
        for (st, want) in timeouts_of(&self.cfg.timeouts) {
            let want = Duration::from_secs(want.into());
            let have = state
                .timeouts
                .iter()
                .find(|(s, _)| *s == st)
                .map(|(_, d)| *d);
            if have != Some(want) {
                out.push(Change::Timeout {
                    state: st,
                    old: have,
                    new: want,
                });
            }
        }
        // 2. Pools.
        for p in &self.plan.pools {
            match self.current.pools.get(&p.index) {
                None => out.push(Change::PoolAdded {
                    index: p.index,
                    name: p.name.clone(),
                    config: p.config,
                }),
                Some(have) if *have != p.config => out.push(Change::PoolChanged {
                    index: p.index,
                    name: p.name.clone(),
                    old: *have,
                    new: p.config,
                }),
                Some(_) => {}
            }
        }
        // 3. Servers.
        for rs in &self.replaced_servers {
            if let Some(c) = self.current.servers.get(rs) {
                out.push(Change::ServerRemoved {
                    pool: self.pool_name(c.server.pool),
                    server: c.server,
                });
            }
        }
        for p in &self.plan.pools {
            for s in &p.servers {
                let new = self.real_server(p.index, s);
                let kept = self
                    .current
                    .servers
                    .get(&s.rs)
                    .filter(|_| !self.replaced_servers.contains(&s.rs));
                match kept {
                    None => out.push(Change::ServerAdded {
                        pool: p.name.clone(),
                        server: new,
                    }),
                    Some(c) if c.server != new => out.push(Change::ServerChanged {
                        pool: p.name.clone(),
                        old: c.server,
                        new,
                    }),
                    Some(_) => {}
                }
            }
        }
        // 4. Rules.
        out.extend(
            state
                .rules
                .diff(&self.plan.rules)
                .into_iter()
                .map(Change::Rule),
        );
        // 5. Services.
        for s in &self.plan.services {
            let new = ServiceInfo {
                index: s.index,
                vip: s.vip,
                port: s.port,
                mode: s.mode,
            };
            match self.current.services.get(&s.index) {
                None => out.push(Change::ServiceAdded {
                    service: new,
                    pool: self.pool_name(pool_of(s.mode)),
                }),
                Some(have) if *have != new => out.push(Change::ServiceChanged {
                    old: *have,
                    old_pool: self.pool_name(pool_of(have.mode)),
                    new,
                    pool: self.pool_name(pool_of(s.mode)),
                }),
                Some(_) => {}
            }
        }
        // 6. Removals.
        for i in &self.stale_services {
            if let Some(s) = self.current.services.get(i) {
                out.push(Change::ServiceRemoved { service: *s });
            }
        }
        for rs in &self.stale_servers {
            if let Some(c) = self.current.servers.get(rs) {
                out.push(Change::ServerRemoved {
                    pool: self.pool_name(c.server.pool),
                    server: c.server,
                });
            }
        }
        for &index in &self.stale_pools {
            if let Some(c) = self.current.pools.get(&index) {
                out.push(Change::PoolRemoved { index, config: *c });
            }
        }
        out
    }
}

/// The card timeouts `lvs_timeouts` sets (`udp` has no card state: TCP only; `linger` is
/// the card's LINGER class, TIMEOUT_SET state 11).
fn timeouts_of(t: &config::Timeouts) -> Vec<(TcpTimeoutState, u32)> {
    [
        (TcpTimeoutState::Established, t.tcp),
        (TcpTimeoutState::FinWait, t.tcpfin),
        (TcpTimeoutState::Linger, t.linger),
    ]
    .into_iter()
    .filter_map(|(st, s)| s.map(|s| (st, s)))
    .collect()
}

fn pool_of(mode: ServiceMode) -> u8 {
    match mode {
        ServiceMode::L4 { pool } => pool,
        ServiceMode::L7 { fallback_pool } => fallback_pool,
    }
}

/// One thing [`apply`] would change on the card. Displayed as one line: `+` added, `-`
/// removed, `~` changed.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// A port's MAC.
    PortMac {
        port: Port,
        old: [u8; 6],
        new: [u8; 6],
    },
    /// The enabled server-side local addresses.
    LocalAddresses {
        old: Vec<Ipv4Addr>,
        new: Vec<Ipv4Addr>,
    },
    /// A TCP state's timeout (`old`: `None` when the card did not report it).
    Timeout {
        state: TcpTimeoutState,
        old: Option<Duration>,
        new: Duration,
    },
    /// A pool to create.
    PoolAdded {
        index: u8,
        name: String,
        config: PoolConfig,
    },
    /// A pool's scheduler settings.
    PoolChanged {
        index: u8,
        name: String,
        old: PoolConfig,
        new: PoolConfig,
    },
    /// A pool to remove.
    PoolRemoved { index: u8, config: PoolConfig },
    /// A real server to add (to pool `pool`, by name).
    ServerAdded { pool: String, server: RealServer },
    /// A real server kept at its index whose weight, thresholds or MAC change.
    ServerChanged {
        pool: String,
        old: RealServer,
        new: RealServer,
    },
    /// A real server to remove (replaced by another at its index, or not in the file).
    ServerRemoved { pool: String, server: RealServer },
    /// A virtual service to add (`pool`: its pool's or default pool's name).
    ServiceAdded { service: ServiceInfo, pool: String },
    /// A virtual service whose address, mode or pool changes.
    ServiceChanged {
        old: ServiceInfo,
        old_pool: String,
        new: ServiceInfo,
        pool: String,
    },
    /// A virtual service to remove.
    ServiceRemoved { service: ServiceInfo },
    /// A change of the URL rule set.
    Rule(RuleChange),
}

fn mac(m: &[u8; 6]) -> String {
    m.map(|b| format!("{b:02x}")).join(":")
}

fn pool_settings(c: &PoolConfig) -> String {
    let mut s = format!("lvs_sched {}", c.scheduler);
    if c.fallback {
        s += " fallback";
    }
    if c.hash_port {
        s += " hash-port";
    }
    if c.expire_quiescent {
        s += " expire-quiescent";
    }
    if let Some((t, m)) = c.persistence {
        s += &format!(" persistence_timeout {t} persistence_granularity {m}");
    }
    s
}

fn server_settings(s: &RealServer) -> String {
    format!(
        "weight {} uthreshold {} lthreshold {} mac {}",
        s.weight,
        s.upper_threshold,
        s.lower_threshold,
        mac(&s.mac)
    )
}

fn service_mode(s: &ServiceInfo, pool: &str) -> String {
    match s.mode {
        ServiceMode::L4 { .. } => format!("pool {pool}"),
        ServiceMode::L7 { .. } => format!("default_pool {pool}"),
    }
}

fn secs(d: &Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.3} s", d.as_secs_f64())
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::PortMac { port, old, new } => {
                let which = match port {
                    Port::Client => "client_mac",
                    Port::Server => "server_mac",
                };
                write!(f, "~ {which} {} (was: {})", mac(new), mac(old))
            }
            Change::LocalAddresses { old, new } => {
                let list = |v: &[Ipv4Addr]| {
                    if v.is_empty() {
                        "(none)".to_string()
                    } else {
                        v.iter()
                            .map(Ipv4Addr::to_string)
                            .collect::<Vec<_>>()
                            .join(" ")
                    }
                };
                write!(f, "~ local_address {} (was: {})", list(new), list(old))
            }
            Change::Timeout { state, old, new } => {
                let key = match state {
                    TcpTimeoutState::Established => "tcp",
                    TcpTimeoutState::FinWait => "tcpfin",
                    TcpTimeoutState::Linger => "linger",
                    _ => state.name(),
                };
                write!(
                    f,
                    "~ lvs_timeouts {key} ({}): {} (was: {})",
                    state.name(),
                    secs(new),
                    old.as_ref().map_or("unknown".into(), secs)
                )
            }
            Change::PoolAdded {
                index,
                name,
                config,
            } => write!(f, "+ pool {name} (#{index}): {}", pool_settings(config)),
            Change::PoolChanged {
                index,
                name,
                old,
                new,
            } => write!(
                f,
                "~ pool {name} (#{index}): {} (was: {})",
                pool_settings(new),
                pool_settings(old)
            ),
            Change::PoolRemoved { index, config } => {
                write!(f, "- pool #{index}: {}", pool_settings(config))
            }
            Change::ServerAdded { pool, server } => write!(
                f,
                "+ real_server {}:{} #{} in pool {pool}: {}",
                server.addr,
                server.port,
                server.rs,
                server_settings(server)
            ),
            Change::ServerChanged { pool, old, new } => {
                let mut what = Vec::new();
                if old.weight != new.weight {
                    what.push(format!("weight {} (was: {})", new.weight, old.weight));
                }
                if old.upper_threshold != new.upper_threshold {
                    what.push(format!(
                        "uthreshold {} (was: {})",
                        new.upper_threshold, old.upper_threshold
                    ));
                }
                if old.lower_threshold != new.lower_threshold {
                    what.push(format!(
                        "lthreshold {} (was: {})",
                        new.lower_threshold, old.lower_threshold
                    ));
                }
                if old.mac != new.mac {
                    what.push(format!("mac {} (was: {})", mac(&new.mac), mac(&old.mac)));
                }
                write!(
                    f,
                    "~ real_server {}:{} #{} in pool {pool}: {}",
                    new.addr,
                    new.port,
                    new.rs,
                    what.join(", ")
                )
            }
            Change::ServerRemoved { pool, server } => write!(
                f,
                "- real_server {}:{} #{} in pool {pool}: {}",
                server.addr,
                server.port,
                server.rs,
                server_settings(server)
            ),
            Change::ServiceAdded { service, pool } => write!(
                f,
                "+ virtual_server {}:{} (#{}): {}",
                service.vip,
                service.port,
                service.index,
                service_mode(service, pool)
            ),
            Change::ServiceChanged {
                old,
                old_pool,
                new,
                pool,
            } => write!(
                f,
                "~ virtual_server {}:{} (#{}): {} (was: {}:{} {})",
                new.vip,
                new.port,
                new.index,
                service_mode(new, pool),
                old.vip,
                old.port,
                service_mode(old, old_pool)
            ),
            Change::ServiceRemoved { service } => write!(
                f,
                "- virtual_server {}:{} (#{})",
                service.vip, service.port, service.index
            ),
            Change::Rule(c) => write!(f, "{c}"),
        }
    }
}

/// Programs `plan` (of `cfg`) into `card`: reads the card's configuration, makes the
/// [`ApplyPlan`] (MACs from the configuration, else `neigh`) and carries it out. Nothing is
/// sent when a MAC is missing.
pub fn apply(
    card: &mut Card,
    cfg: &config::Config,
    plan: &Plan,
    neigh: &Neighbours,
    progress: &mut dyn ApplyProgress,
) -> Result<ApplyReport, ApplyError> {
    let current = CardConfig::read(card)?;
    let p = ApplyPlan::new(current, cfg, plan, neigh)?;
    apply_plan(card, &p, progress)
}

/// What [`apply`] would change on `card` (nothing is sent).
pub fn diff(
    card: &mut Card,
    cfg: &config::Config,
    plan: &Plan,
    neigh: &Neighbours,
) -> Result<Vec<Change>, ApplyError> {
    let state = CardState::read(card)?;
    let p = ApplyPlan::new(state.config.clone(), cfg, plan, neigh)?;
    Ok(p.changes(&state))
}

/// Carries out `p` on `card` (see the module documentation for the order).
pub fn apply_plan(
    card: &mut Card,
    p: &ApplyPlan<'_>,
    progress: &mut dyn ApplyProgress,
) -> Result<ApplyReport, ApplyError> {
    let (cfg, plan) = (p.cfg, p.plan);
    let mut report = ApplyReport::default();

    // 0. The card's own addresses.
    progress.begin(Step::Addresses);
    {
        let a = &cfg.card;
        let mut dp = card.datapath().during(|| "opening the data path")?;
        if let Some(m) = a.client_mac {
            dp.set_port_mac(Port::Client, m)
                .during(|| "setting client_mac")?;
        }
        if let Some(m) = a.server_mac {
            dp.set_port_mac(Port::Server, m)
                .during(|| "setting server_mac")?;
        }
        if !a.local_addresses.is_empty() {
            for i in 0..LOCAL_ADDRESSES {
                match a.local_addresses.get(i) {
                    Some(ip) => dp.set_local(i, *ip, true),
                    None => dp.set_local(i, Ipv4Addr::UNSPECIFIED, false),
                }
                .during(|| format!("setting local address {i}"))?;
            }
        }
    }
    progress.end(Step::Addresses);

    // 1. Timeouts.
    progress.begin(Step::Timeouts);
    for (st, v) in timeouts_of(&cfg.timeouts) {
        card.flow_manager()
            .timeout_set(st, v)
            .during(|| format!("setting the {} timeout", st.name()))?;
    }
    progress.end(Step::Timeouts);

    // 2. Pools.
    progress.begin(Step::Pools);
    for pool in &plan.pools {
        card.flow_manager()
            .pool_set(pool.index, &pool.config)
            .during(|| format!("creating pool {} ({})", pool.name, pool.index))?;
        report.pools += 1;
    }
    progress.end(Step::Pools);

    // 3. Servers at the plan's indices (declaration order). A server already at its index
    //    with the same pool, address and port is edited in place (its counts stay); another
    //    server at that index is removed first.
    progress.begin(Step::Servers);
    for &rs in &p.replaced_servers {
        card.flow_manager()
            .server_delete(rs)
            .during(|| format!("removing real server index {rs} to reuse it"))?;
        report.removed_servers += 1;
    }
    for pool in &plan.pools {
        for s in &pool.servers {
            card.flow_manager()
                .server_set(&p.real_server(pool.index, s))
                .during(|| format!("{}: adding real server {}", s.loc, s.addr))?;
            report.servers += 1;
        }
    }
    progress.end(Step::Servers);

    // 4. Rules.
    let t0 = Instant::now();
    report.active_bank = load_rules(card, &plan.rules, progress)?;
    report.rules = plan.rules.rules.len();
    report.rules_seconds = t0.elapsed().as_secs_f64();

    // 5. Services.
    progress.begin(Step::Services);
    for s in &plan.services {
        card.flow_manager()
            .service_set(s.index, s.vip, s.port, s.mode)
            .during(|| format!("{}: setting virtual service {}:{}", s.loc, s.vip, s.port))?;
        report.services += 1;
    }
    progress.end(Step::Services);

    // 6. Remove what the file does not have.
    progress.begin(Step::Removals);
    for &i in &p.stale_services {
        card.flow_manager()
            .service_delete(i)
            .during(|| format!("removing virtual service {i}"))?;
        report.removed_services += 1;
    }
    for &rs in &p.stale_servers {
        card.flow_manager()
            .server_delete(rs)
            .during(|| format!("removing real server {rs}"))?;
        report.removed_servers += 1;
    }
    for &i in &p.stale_pools {
        card.flow_manager()
            .pool_delete(i)
            .during(|| format!("removing pool {i}"))?;
        report.removed_pools += 1;
    }
    progress.end(Step::Removals);
    Ok(report)
}

/// Writes `table` into the inactive bank, switches banks and stores the rule-set record
/// ([`config::load_rule_table`]), reporting [`Step::Rules`]. Returns the new active bank.
pub fn load_rules(
    card: &mut Card,
    table: &RuleTable,
    progress: &mut dyn ApplyProgress,
) -> Result<u8, ApplyError> {
    let step = Step::Rules {
        total: table.rules.len(),
    };
    progress.begin(step);
    let bank = config::load_rule_table(card, table, |done, total| {
        progress.rule_written(done, total)
    })
    .during(|| "loading the URL rules")?;
    progress.end(step);
    Ok(bank)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flowmgr::{Scheduler, ServerStats};

    const CONF: &str = "
global_defs {
    lvs_timeouts tcp 900 tcpfin 120
    local_address 192.168.1.1
}
virtual_server 10.0.0.100 80 {
    default_pool web
}
pool web {
    lvs_sched wlc
    real_server 192.168.1.10 8080 {
        weight 2
        mac 02:00:00:00:01:0a
    }
    real_server 192.168.1.11 8080 {
    }
}
url_rule static_files {
    path_prefix /static/
    pool web
}
";

    fn planned(text: &str) -> (config::Config, Plan) {
        let cfg = config::parse("t.conf", text).unwrap();
        let plan = config::plan(&cfg, &Limits::card_default()).unwrap();
        (cfg, plan)
    }

    fn neigh() -> Neighbours {
        [(Ipv4Addr::new(192, 168, 1, 11), [2, 0, 0, 0, 1, 0x0b])].into()
    }

    /// The card state after applying `cfg`/`plan` (as the card reads it back).
    fn state_of(p: &ApplyPlan<'_>) -> CardState {
        let mut config = CardConfig::default();
        for pool in &p.plan.pools {
            config.pools.insert(pool.index, pool.config);
            for s in &pool.servers {
                config.servers.insert(
                    s.rs,
                    ServerInfo {
                        server: p.real_server(pool.index, s),
                        stats: ServerStats::default(),
                    },
                );
            }
        }
        for s in &p.plan.services {
            config.services.insert(
                s.index,
                ServiceInfo {
                    index: s.index,
                    vip: s.vip,
                    port: s.port,
                    mode: s.mode,
                },
            );
        }
        let mut local_addresses = [None; LOCAL_ADDRESSES];
        for (slot, a) in local_addresses.iter_mut().zip(&p.cfg.card.local_addresses) {
            *slot = Some(*a);
        }
        CardState {
            config,
            client_mac: [0; 6],
            server_mac: [0; 6],
            local_addresses,
            timeouts: vec![
                (TcpTimeoutState::Established, Duration::from_secs(900)),
                (TcpTimeoutState::FinWait, Duration::from_secs(120)),
            ],
            rules: p.plan.rules.clone(),
        }
    }

    #[test]
    fn the_local_address_count_is_the_register_maps() {
        assert_eq!(LOCAL_ADDRESSES, regs::dp::LOCAL_ADDR_COUNT);
    }

    #[test]
    fn macs_come_from_the_file_then_the_neighbour_table() {
        let (cfg, plan) = planned(CONF);
        let p = ApplyPlan::new(CardConfig::default(), &cfg, &plan, &neigh()).unwrap();
        assert_eq!(p.macs[&0], [2, 0, 0, 0, 1, 0x0a]);
        assert_eq!(p.macs[&1], [2, 0, 0, 0, 1, 0x0b]);
        let e = ApplyPlan::new(CardConfig::default(), &cfg, &plan, &Neighbours::new()).unwrap_err();
        assert!(matches!(e, ApplyError::NoMac { .. }), "{e:?}");
        let e = e.to_string();
        assert!(
            e.contains("t.conf:") && e.contains("192.168.1.11:8080"),
            "{e}"
        );
    }

    #[test]
    fn an_applied_configuration_has_no_changes() {
        let (cfg, plan) = planned(CONF);
        let p = ApplyPlan::new(CardConfig::default(), &cfg, &plan, &neigh()).unwrap();
        let state = state_of(&p);
        let again = ApplyPlan::new(state.config.clone(), &cfg, &plan, &neigh()).unwrap();
        assert_eq!(again.changes(&state), vec![]);
        assert!(again.replaced_servers.is_empty() && again.stale_servers.is_empty());
    }

    #[test]
    fn weights_thresholds_timeouts_pools_and_services_are_changes() {
        let (cfg, plan) = planned(CONF);
        let p = ApplyPlan::new(CardConfig::default(), &cfg, &plan, &neigh()).unwrap();
        let state = state_of(&p);
        let text = CONF
            .replace("weight 2", "weight 5\n        uthreshold 100")
            .replace("tcp 900", "tcp 600")
            .replace("lvs_sched wlc", "lvs_sched rr")
            .replace("10.0.0.100 80", "10.0.0.100 8080");
        let (cfg2, plan2) = planned(&text);
        let p2 = ApplyPlan::new(state.config.clone(), &cfg2, &plan2, &neigh()).unwrap();
        let lines: Vec<String> = p2.changes(&state).iter().map(|c| c.to_string()).collect();
        assert_eq!(
            lines,
            [
                "~ lvs_timeouts tcp (ESTABLISHED): 600 s (was: 900 s)",
                "~ pool web (#0): lvs_sched rr (was: lvs_sched wlc)",
                "~ real_server 192.168.1.10:8080 #0 in pool web: weight 5 (was: 2), \
                 uthreshold 100 (was: 0)",
                "~ virtual_server 10.0.0.100:8080 (#0): default_pool web (was: 10.0.0.100:80 \
                 default_pool web)",
            ],
            "{lines:#?}"
        );
    }

    #[test]
    fn the_linger_is_the_cards_linger_timeout() {
        let t = config::Timeouts {
            tcp: Some(900),
            udp: Some(300),
            linger: Some(2),
            ..config::Timeouts::default()
        };
        assert_eq!(
            timeouts_of(&t),
            [
                (TcpTimeoutState::Established, 900),
                (TcpTimeoutState::Linger, 2)
            ]
        );
        assert_eq!(TcpTimeoutState::Linger.index(), 11, "TIMEOUT_SET state 11");
        // A changed linger is a change, named by its keyword.
        let (cfg, plan) = planned(CONF);
        let p = ApplyPlan::new(CardConfig::default(), &cfg, &plan, &neigh()).unwrap();
        let mut state = state_of(&p);
        state
            .timeouts
            .push((TcpTimeoutState::Linger, Duration::from_secs(2)));
        let (cfg2, plan2) = planned(&CONF.replace("tcpfin 120", "tcpfin 120 linger 5"));
        let p2 = ApplyPlan::new(state.config.clone(), &cfg2, &plan2, &neigh()).unwrap();
        let lines: Vec<String> = p2.changes(&state).iter().map(|c| c.to_string()).collect();
        assert_eq!(lines, ["~ lvs_timeouts linger (LINGER): 5 s (was: 2 s)"]);
        // The card's value already: no change.
        let (cfg3, plan3) = planned(&CONF.replace("tcpfin 120", "tcpfin 120 linger 2"));
        let p3 = ApplyPlan::new(state.config.clone(), &cfg3, &plan3, &neigh()).unwrap();
        assert_eq!(p3.changes(&state), vec![]);
    }

    #[test]
    fn servers_at_a_reused_index_are_replaced_and_the_rest_removed() {
        let (cfg, plan) = planned(CONF);
        let mut current = CardConfig::default();
        let other = |rs: u8, pool: u8, last: u8| ServerInfo {
            server: RealServer {
                pool,
                rs,
                addr: Ipv4Addr::new(192, 168, 1, last),
                port: 8080,
                mac: [2, 0, 0, 0, 1, last],
                weight: 1,
                upper_threshold: 0,
                lower_threshold: 0,
            },
            stats: ServerStats::default(),
        };
        current.servers.insert(1, other(1, 0, 99));
        current.servers.insert(7, other(7, 3, 98));
        current.pools.insert(3, PoolConfig::new(Scheduler::Rr));
        let p = ApplyPlan::new(current, &cfg, &plan, &neigh()).unwrap();
        assert_eq!(p.replaced_servers, [1]);
        assert_eq!(p.stale_servers, [7]);
        assert_eq!(p.stale_pools, [3]);
        let mut state = state_of(&p);
        state.config = p.current.clone();
        let lines: Vec<String> = p.changes(&state).iter().map(|c| c.to_string()).collect();
        assert!(
            lines.contains(
                &"- real_server 192.168.1.99:8080 #1 in pool web: weight 1 \
                             uthreshold 0 lthreshold 0 mac 02:00:00:00:01:63"
                    .to_string()
            ) && lines.contains(&"- pool #3: lvs_sched rr".to_string())
                && lines
                    .iter()
                    .any(|l| l.starts_with("+ real_server 192.168.1.11:8080")),
            "{lines:#?}"
        );
    }

    #[test]
    fn too_many_local_addresses_are_refused_before_anything_is_sent() {
        let (mut cfg, plan) = planned(CONF);
        cfg.card.local_addresses = vec![Ipv4Addr::LOCALHOST; LOCAL_ADDRESSES + 1];
        let e = ApplyPlan::new(CardConfig::default(), &cfg, &plan, &neigh()).unwrap_err();
        assert!(
            matches!(e, ApplyError::TooManyLocalAddresses { count: 5 }),
            "{e}"
        );
    }
}
