//! From a [`Config`] to what is programmed on the card: services, pools and real servers
//! get card indices in declaration order, and the URL rules are compiled into a
//! [`RuleTable`]. Capacity is checked against [`Limits`].

use std::collections::{HashMap, HashSet};
use std::net::{Ipv4Addr, SocketAddrV4};

use super::model::{Config, Loc, ServiceKind, Timeouts};
use super::rules::{compile_rules, RuleTable};
use super::{ConfigError, ConfigErrors, ConfigWarning};
use crate::datapath::DatapathParams;
use crate::flowmgr::{self, PoolConfig, RealServer, Scheduler, ServiceMode};

/// What the card can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Virtual services.
    pub services: usize,
    /// Pools.
    pub pools: usize,
    /// Real servers, all pools together (sorry servers included).
    pub real_servers: usize,
    /// URL rules per bank of the L7 rule table.
    pub rules: usize,
    /// Longest host or path pattern in bytes.
    pub pat_max: usize,
}

impl Limits {
    /// The default gateware: 8 services, 8 pools, 64 real servers, 64 rules of at most 64
    /// bytes per pattern.
    pub const fn card_default() -> Self {
        Self {
            services: flowmgr::SERVICES as usize,
            pools: flowmgr::POOLS as usize,
            real_servers: flowmgr::REAL_SERVERS as usize,
            rules: 64,
            pat_max: 64,
        }
    }

    /// The limits of a card whose data path reports `params` (`L7.PARAMS`).
    pub fn from_params(params: &DatapathParams) -> Self {
        Self {
            rules: params.l7_rules as usize,
            pat_max: params.l7_pat_max as usize,
            ..Self::card_default()
        }
    }
}

impl Default for Limits {
    /// [`Limits::card_default`].
    fn default() -> Self {
        Self::card_default()
    }
}

/// A virtual service with its card index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedService {
    /// Service index on the card (declaration order).
    pub index: u8,
    pub vip: Ipv4Addr,
    pub port: u16,
    /// L4 with its pool index, or L7 with the default pool index.
    pub mode: ServiceMode,
    /// The `virtual_server` it comes from.
    pub loc: Loc,
}

/// A real server with its card index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedServer {
    /// Real-server index on the card (0..64, unique across pools).
    pub rs: u8,
    pub addr: SocketAddrV4,
    pub weight: u32,
    /// `None`: to be looked up in the host's neighbour table.
    pub mac: Option<[u8; 6]>,
    /// `uthreshold` (0 = none).
    pub upper_threshold: u32,
    /// `lthreshold` (0 = none).
    pub lower_threshold: u32,
    /// The `real_server` (or `sorry_server`) it comes from.
    pub loc: Loc,
}

impl PlannedServer {
    /// The SERVER_SET arguments for this server in pool `pool`, sending to `mac`.
    pub fn real_server(&self, pool: u8, mac: [u8; 6]) -> RealServer {
        RealServer {
            pool,
            rs: self.rs,
            addr: *self.addr.ip(),
            port: self.addr.port(),
            mac,
            weight: self.weight,
            upper_threshold: self.upper_threshold,
            lower_threshold: self.lower_threshold,
        }
    }
}

/// A pool with its card index and its servers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedPool {
    /// Pool index on the card (declaration order).
    pub index: u8,
    pub name: String,
    /// Made from a `virtual_server`'s own `real_server` list.
    pub implicit: bool,
    /// Scheduler, flags and persistence (POOL_SET).
    pub config: PoolConfig,
    /// Real servers in declaration order.
    pub servers: Vec<PlannedServer>,
    /// The `sorry_server`, with an index reserved for it (added when every server is down).
    pub sorry: Option<PlannedServer>,
    /// The `pool` (or `virtual_server`) it comes from.
    pub loc: Loc,
}

/// Everything to program, with card indices assigned.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub services: Vec<PlannedService>,
    pub pools: Vec<PlannedPool>,
    pub rules: RuleTable,
    /// `lvs_timeouts` (unchanged from the configuration).
    pub timeouts: Timeouts,
    /// Legal but probably unintended things (unused pools, ...).
    pub warnings: Vec<ConfigWarning>,
}

impl Plan {
    /// The pool called `name`.
    pub fn pool(&self, name: &str) -> Option<&PlannedPool> {
        self.pools.iter().find(|p| p.name == name)
    }
}

fn capacity(what: &str, count: usize, limit: usize, loc: &Loc) -> ConfigError {
    ConfigError::new(
        loc.clone(),
        format!("{count} {what} declared; the card has {limit}"),
    )
}

/// Assigns card indices to everything in `config` and compiles its URL rules, checking
/// that it fits `limits`.
pub fn plan(config: &Config, limits: &Limits) -> Result<Plan, ConfigErrors> {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    // Indices are u8 on the card's command interface.
    let max_services = limits.services.min(256);
    let max_pools = limits.pools.min(256);
    let max_rs = limits.real_servers.min(256);

    if config.services.len() > max_services {
        errors.push(capacity(
            "virtual_servers",
            config.services.len(),
            max_services,
            &config.services[max_services].loc,
        ));
    }
    if config.pools.len() > max_pools {
        let implicit = config.pools.iter().filter(|p| p.implicit).count();
        let what = if implicit > 0 {
            format!("pools ({implicit} of them a virtual_server's own real_server list)")
        } else {
            "pools".to_string()
        };
        errors.push(capacity(
            &what,
            config.pools.len(),
            max_pools,
            &config.pools[max_pools].loc,
        ));
    }

    // Pool numbers: `card_index` where given, then the lowest free number in declaration
    // order.
    let mut taken: HashMap<u8, &str> = HashMap::new();
    for p in &config.pools {
        let Some(n) = p.card_index else { continue };
        if usize::from(n) >= max_pools {
            errors.push(ConfigError::new(
                p.loc.clone(),
                format!(
                    "pool `{}`: card_index {n} is past the card's {max_pools} pools (0..{max_pools})",
                    p.name
                ),
            ));
        } else if let Some(other) = taken.insert(n, &p.name) {
            errors.push(ConfigError::new(
                p.loc.clone(),
                format!(
                    "pool `{}`: card_index {n} is pool `{other}`'s already",
                    p.name
                ),
            ));
        }
    }
    let mut next_free = 0u8;
    let numbers: Vec<u8> = config
        .pools
        .iter()
        .map(|p| {
            p.card_index.unwrap_or_else(|| {
                while taken.contains_key(&next_free) && next_free < u8::MAX {
                    next_free += 1;
                }
                let n = next_free;
                next_free = next_free.saturating_add(1);
                n
            })
        })
        .collect();

    // Pools and real servers.
    let mut pools = Vec::new();
    let mut pool_index: HashMap<String, u16> = HashMap::new();
    let mut server_locs: Vec<Loc> = Vec::new();
    for (i, p) in config.pools.iter().enumerate() {
        let index = numbers[i];
        if pool_index
            .insert(p.name.clone(), u16::from(index))
            .is_some()
        {
            errors.push(ConfigError::new(
                p.loc.clone(),
                format!("duplicate pool `{}`", p.name),
            ));
        }
        let mut next = |addr, weight, mac, upper, lower, loc: &Loc| {
            let rs = u8::try_from(server_locs.len()).unwrap_or(u8::MAX);
            server_locs.push(loc.clone());
            PlannedServer {
                rs,
                addr,
                weight,
                mac,
                upper_threshold: upper,
                lower_threshold: lower,
                loc: loc.clone(),
            }
        };
        let servers: Vec<PlannedServer> = p
            .servers
            .iter()
            .map(|s| next(s.addr, s.weight, s.mac, s.uthreshold, s.lthreshold, &s.loc))
            .collect();
        let sorry = p
            .sorry_server
            .as_ref()
            .map(|(addr, loc)| next(*addr, 1, None, 0, 0, loc));
        if servers.is_empty() && sorry.is_none() {
            warnings.push(ConfigWarning {
                loc: p.loc.clone(),
                message: format!("pool `{}` has no real servers", p.name),
            });
        }
        let hashing = matches!(p.sched, Scheduler::Dh | Scheduler::Sh | Scheduler::Mh);
        if (p.fallback || p.hash_port) && !hashing {
            warnings.push(ConfigWarning {
                loc: p.loc.clone(),
                message: format!(
                    "pool `{}`: the hashing flags have no effect with the {} scheduler",
                    p.name, p.sched
                ),
            });
        }
        pools.push(PlannedPool {
            index,
            name: p.name.clone(),
            implicit: p.implicit,
            config: PoolConfig {
                scheduler: p.sched,
                fallback: p.fallback,
                hash_port: p.hash_port,
                expire_quiescent: false,
                persistence: p.persistence,
            },
            servers,
            sorry,
            loc: p.loc.clone(),
        });
    }
    if server_locs.len() > max_rs {
        let sorry = config
            .pools
            .iter()
            .filter(|p| p.sorry_server.is_some())
            .count();
        let what = if sorry > 0 {
            format!("real servers ({sorry} of them sorry_servers)")
        } else {
            "real servers".to_string()
        };
        errors.push(capacity(
            &what,
            server_locs.len(),
            max_rs,
            &server_locs[max_rs],
        ));
    }

    // Services.
    let mut used: HashSet<&str> = HashSet::new();
    let mut services = Vec::new();
    let mut default_pool: Option<(&str, &Loc)> = None;
    for (i, s) in config.services.iter().enumerate() {
        let (name, l7) = match &s.mode {
            ServiceKind::L4 { pool } => (pool.as_str(), false),
            ServiceKind::L7 { default_pool } => (default_pool.as_str(), true),
        };
        used.insert(name);
        let Some(&pool) = pool_index.get(name) else {
            errors.push(ConfigError::new(
                s.loc.clone(),
                format!(
                    "virtual_server {}:{} names pool `{name}`, which is not declared",
                    s.vip, s.port
                ),
            ));
            continue;
        };
        let pool = u8::try_from(pool).unwrap_or(u8::MAX);
        let mode = if l7 {
            match default_pool {
                Some((first, loc)) if first != name => errors.push(ConfigError::new(
                    s.loc.clone(),
                    format!(
                        "default_pool `{name}` differs from `{first}` of the virtual_server at \
                         line {}: the card has one rule table, so every L7 virtual_server uses \
                         the same default pool",
                        loc.line
                    ),
                )),
                Some(_) => {}
                None => default_pool = Some((name, &s.loc)),
            }
            ServiceMode::L7 {
                fallback_pool: pool,
            }
        } else {
            ServiceMode::L4 { pool }
        };
        services.push(PlannedService {
            index: u8::try_from(i).unwrap_or(u8::MAX),
            vip: s.vip,
            port: s.port,
            mode,
            loc: s.loc.clone(),
        });
    }

    // Rules.
    let mut rules = match compile_rules(&config.rules, &pool_index, limits) {
        Ok(t) => t,
        Err(e) => {
            errors.extend(e.0);
            RuleTable::default()
        }
    };
    if let Some((name, _)) = default_pool {
        rules.default_pool = pool_index.get(name).copied().unwrap_or(super::NO_POOL);
        rules.default_pool_name = Some(name.to_string());
    } else if let Some(r) = config.rules.first() {
        warnings.push(ConfigWarning {
            loc: r.loc.clone(),
            message: "url_rules are declared but no virtual_server has a default_pool: the \
                      rules are not used"
                .into(),
        });
    }
    for r in &config.rules {
        used.insert(r.pool.as_str());
    }
    for p in &config.pools {
        if !used.contains(p.name.as_str()) {
            warnings.push(ConfigWarning {
                loc: p.loc.clone(),
                message: format!(
                    "pool `{}` is not used by any virtual_server or url_rule",
                    p.name
                ),
            });
        }
    }

    ConfigErrors(errors, 0).into_result(Plan {
        services,
        pools,
        rules,
        timeouts: config.timeouts,
        warnings,
    })
}
