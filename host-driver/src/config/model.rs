//! The configuration model: what a parsed keepalived-style file describes.
//!
//! [`super::parse`] builds a [`Config`] from text; every item keeps the [`Loc`] it was
//! declared at so that later checks (and the monitor) can point at the file.

use std::net::{Ipv4Addr, SocketAddrV4};
use std::time::Duration;

use crate::flowmgr::Scheduler;

/// Where something was declared: file, 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// A whole configuration file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Config {
    /// `global_defs { lvs_timeouts tcp T tcpfin T udp T linger T }`, seconds; `None` =
    /// unchanged.
    pub timeouts: Timeouts,
    /// `global_defs { router_id NAME }`.
    pub router_id: Option<String>,
    /// The card's own addresses: `global_defs { client_mac M; server_mac M; local_address
    /// IP ... }` (SpliceNIC extensions).
    pub card: CardAddresses,
    /// Pools in declaration order: explicit `pool NAME { ... }` blocks, and the implicit
    /// pool of every `virtual_server` that lists its `real_server`s directly (named
    /// `"VIP:PORT"`, with `implicit` set).
    pub pools: Vec<Pool>,
    /// Virtual services in declaration order.
    pub services: Vec<Service>,
    /// URL rules in declaration order (the card's one rule table, shared by every L7
    /// service).
    pub rules: Vec<UrlRule>,
}

/// The card's Ethernet and IP addresses (`None`/empty: leave the card's current ones).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CardAddresses {
    /// `client_mac`: source MAC of the frames the card sends to clients (port C).
    pub client_mac: Option<[u8; 6]>,
    /// `server_mac`: source MAC of the frames the card sends to real servers (port S).
    pub server_mac: Option<[u8; 6]>,
    /// `local_address IP [IP ...]`: the card's addresses on the server side (at most 4);
    /// its connections to real servers come from the first.
    pub local_addresses: Vec<Ipv4Addr>,
    /// Where `local_address` was given (for capacity errors).
    pub local_loc: Option<Loc>,
}

/// `lvs_timeouts` (seconds; `None` leaves the card's value).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Timeouts {
    /// `tcp`: ESTABLISHED.
    pub tcp: Option<u32>,
    /// `tcpfin`: FIN_WAIT.
    pub tcpfin: Option<u32>,
    /// `udp` (reported only: the card carries TCP).
    pub udp: Option<u32>,
    /// `linger`, the card's extension: how long a flow whose both FINs were acknowledged
    /// keeps its slot after its last segment (the LINGER class; 1..=[`MAX_LINGER_SECS`]).
    pub linger: Option<u32>,
}

/// Longest `lvs_timeouts linger` in seconds: an hour, far beyond any retransmission of a
/// closed connection (a longer hold is what FIN_WAIT and TIME_WAIT are for).
pub const MAX_LINGER_SECS: u32 = 3600;

/// A virtual service: `virtual_server IP PORT { ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Service {
    pub loc: Loc,
    pub vip: Ipv4Addr,
    pub port: u16,
    /// Where its connections go.
    pub mode: ServiceKind,
}

/// How a service picks the pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServiceKind {
    /// Every connection goes to this pool (the implicit pool of a keepalived-style
    /// `virtual_server` with `real_server`s, or `pool NAME` inside it).
    L4 { pool: String },
    /// The URL rules pick the pool; `default_pool NAME` takes requests no rule matches
    /// (and those whose rule points at a pool that is not set up).
    L7 { default_pool: String },
}

/// A pool of real servers with its scheduler: `pool NAME { ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Pool {
    pub loc: Loc,
    pub name: String,
    /// Made from a `virtual_server`'s own `real_server` list.
    pub implicit: bool,
    /// `card_index N`: the pool's number on the card; `None` = the lowest number no other
    /// pool takes, in declaration order.
    pub card_index: Option<u8>,
    /// `lvs_sched` (default wlc).
    pub sched: Scheduler,
    /// `lvs_flags`/`sh-fallback`/`mh-fallback`.
    pub fallback: bool,
    /// `sh-port`/`mh-port`.
    pub hash_port: bool,
    /// `persistence_timeout N` and `persistence_granularity MASK` (default
    /// 255.255.255.255).
    pub persistence: Option<(u32, Ipv4Addr)>,
    /// `delay_loop` (default 60 s as keepalived): interval between health checks.
    pub delay_loop: Duration,
    /// `sorry_server IP PORT`: put in the pool when every real server is down.
    pub sorry_server: Option<(SocketAddrV4, Loc)>,
    /// `quorum N` (default 1), `hysteresis N` (default 0).
    pub quorum: u32,
    pub hysteresis: u32,
    /// `alpha`: servers start as failed until their first check passes.
    pub alpha: bool,
    /// `omega`: run the quorum-down action also when the service is removed.
    pub omega: bool,
    /// `dynamic_feedback { ... }` (seed 004), `None` = weights stay as configured.
    pub feedback: Option<Feedback>,
    pub servers: Vec<Server>,
}

/// Dynamic-feedback weight adjustment of a pool (seed 004).
#[derive(Debug, Clone, PartialEq)]
pub struct Feedback {
    pub loc: Loc,
    /// `interval` (default 5 s): load sampling period.
    pub interval: Duration,
    /// `coefficient` A (default 5): weight step scale.
    pub coefficient: f64,
    /// `threshold` (default 0.05): a new weight is applied only when it differs from the
    /// current one by more than this fraction of the current weight.
    pub threshold: f64,
    /// `scale` (default 10): a weight is kept within [1, configured weight * scale].
    pub scale: u32,
    /// Load inputs and their ratios (they sum to 1): `connections R`, `response_time R`,
    /// `load_command "CMD" R` (the command prints a load 0.0..=1.0+ on stdout).
    pub inputs: Vec<(LoadInput, f64)>,
}

/// One load input of dynamic feedback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadInput {
    /// The server's active connections on the card relative to the pool's mean.
    Connections,
    /// Health-check response time relative to the pool's mean.
    ResponseTime,
    /// An external command's output (a number; 1.0 = fully loaded).
    Command(String),
}

/// `real_server IP PORT { ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Server {
    pub loc: Loc,
    pub addr: SocketAddrV4,
    /// `weight` (default 1, 0..=65535).
    pub weight: u32,
    /// `mac XX:XX:XX:XX:XX:XX` (SpliceNIC extension: the card sends the server's frames to
    /// this MAC). `None`: looked up in the host's neighbour table when applied.
    pub mac: Option<[u8; 6]>,
    /// `inhibit_on_failure`: on failure set the weight to 0 instead of removing it
    /// (inherited from the pool/virtual_server when given there).
    pub inhibit_on_failure: bool,
    /// `uthreshold` / `lthreshold` (0 = none).
    pub uthreshold: u32,
    pub lthreshold: u32,
    pub checkers: Vec<Checker>,
}

/// A health checker.
#[derive(Debug, Clone, PartialEq)]
pub enum Checker {
    Http(HttpCheck),
    Tcp(TcpCheck),
    Misc(MiscCheck),
}

/// Settings every connecting checker has.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckCommon {
    pub loc: Loc,
    /// `connect_ip`/`connect_port` (default: the real server's address and port).
    pub connect_to: Option<SocketAddrV4>,
    /// `connect_timeout` (default 5 s).
    pub connect_timeout: Duration,
    /// `retry` (default 1 for HTTP_GET, 1 for TCP_CHECK): failed attempts after the first
    /// before the server is declared down: N retries = N + 1 failed attempts in a row, as
    /// keepalived.
    pub retry: u32,
    /// `delay_before_retry` (default 1 s).
    pub delay_before_retry: Duration,
    /// `delay_loop` of the checker (default: the pool's).
    pub delay_loop: Option<Duration>,
}

/// `HTTP_GET { url { ... } ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpCheck {
    pub common: CheckCommon,
    /// `virtualhost` of the checker (Host header; default the server address).
    pub virtualhost: Option<String>,
    pub urls: Vec<UrlCheck>,
}

/// One `url { path P; status_code N; digest HEX; virtualhost H }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlCheck {
    pub loc: Loc,
    pub path: String,
    /// `status_code` (default: any 2xx).
    pub status_code: Option<u16>,
    /// `digest`: MD5 of the body (32 hex digits).
    pub digest: Option<[u8; 16]>,
    pub virtualhost: Option<String>,
}

/// `TCP_CHECK { connect_timeout N ... }`.
#[derive(Debug, Clone, PartialEq)]
pub struct TcpCheck {
    pub common: CheckCommon,
}

/// `MISC_CHECK { misc_path "CMD"; misc_timeout N; misc_dynamic }`.
#[derive(Debug, Clone, PartialEq)]
pub struct MiscCheck {
    pub loc: Loc,
    /// Command line, run with `/bin/sh -c`.
    pub path: String,
    /// `misc_timeout` (default: the delay loop).
    pub timeout: Option<Duration>,
    /// `misc_dynamic`: exit code 0 ok, 1 failed, 2..=255 ok with weight = code - 2.
    pub dynamic: bool,
    /// `retry` (default 1): failed attempts after the first before the server is declared
    /// down: N retries = N + 1 failed attempts in a row, as keepalived.
    pub retry: u32,
    /// `delay_before_retry` (default 1 s), as for the others.
    pub delay_before_retry: Duration,
}

/// `url_rule [NAME] { host ...; path ... | path_prefix ...; priority N; pool NAME }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRule {
    pub loc: Loc,
    pub name: Option<String>,
    pub host: HostMatch,
    pub path: PathMatch,
    /// Lower wins (default 100); equal priorities: declaration order.
    pub priority: u16,
    /// Target pool name.
    pub pool: String,
    /// Location of the `pool` keyword (for "missing pool" errors).
    pub pool_loc: Loc,
}

/// Host part of a rule. Hosts are lower-cased; a `:port` is not part of the pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostMatch {
    Any,
    /// `host www.example.com`
    Exact(String),
    /// `host *.example.com` (stored as the suffix `.example.com`).
    Suffix(String),
}

/// Path part of a rule (case-sensitive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathMatch {
    Any,
    /// `path /exact`
    Exact(String),
    /// `path_prefix /static/`
    Prefix(String),
}

impl Config {
    /// The same configuration with every [`Loc`] replaced by `Loc::default()` (an optional
    /// location stays present): two configurations with the same settings written in
    /// different places, such as a file and its printed form, compare equal this way.
    pub fn without_locations(&self) -> Config {
        // Every struct is taken apart whole, so a field added to the model has to be
        // handled here.
        let Config {
            timeouts,
            router_id,
            card,
            pools,
            services,
            rules,
        } = self;
        let CardAddresses {
            client_mac,
            server_mac,
            local_addresses,
            local_loc,
        } = card;
        Config {
            timeouts: *timeouts,
            router_id: router_id.clone(),
            card: CardAddresses {
                client_mac: *client_mac,
                server_mac: *server_mac,
                local_addresses: local_addresses.clone(),
                local_loc: local_loc.as_ref().map(|_| Loc::default()),
            },
            pools: pools.iter().map(Pool::without_locations).collect(),
            services: services
                .iter()
                .map(|s| {
                    let Service {
                        loc: _,
                        vip,
                        port,
                        mode,
                    } = s;
                    Service {
                        loc: Loc::default(),
                        vip: *vip,
                        port: *port,
                        mode: mode.clone(),
                    }
                })
                .collect(),
            rules: rules
                .iter()
                .map(|r| {
                    let UrlRule {
                        loc: _,
                        name,
                        host,
                        path,
                        priority,
                        pool,
                        pool_loc: _,
                    } = r;
                    UrlRule {
                        loc: Loc::default(),
                        name: name.clone(),
                        host: host.clone(),
                        path: path.clone(),
                        priority: *priority,
                        pool: pool.clone(),
                        pool_loc: Loc::default(),
                    }
                })
                .collect(),
        }
    }
}

impl Pool {
    fn without_locations(&self) -> Pool {
        let Pool {
            loc: _,
            name,
            implicit,
            card_index,
            sched,
            fallback,
            hash_port,
            persistence,
            delay_loop,
            sorry_server,
            quorum,
            hysteresis,
            alpha,
            omega,
            feedback,
            servers,
        } = self;
        Pool {
            loc: Loc::default(),
            name: name.clone(),
            implicit: *implicit,
            card_index: *card_index,
            sched: *sched,
            fallback: *fallback,
            hash_port: *hash_port,
            persistence: *persistence,
            delay_loop: *delay_loop,
            sorry_server: sorry_server.as_ref().map(|(a, _)| (*a, Loc::default())),
            quorum: *quorum,
            hysteresis: *hysteresis,
            alpha: *alpha,
            omega: *omega,
            feedback: feedback.as_ref().map(|fb| {
                let Feedback {
                    loc: _,
                    interval,
                    coefficient,
                    threshold,
                    scale,
                    inputs,
                } = fb;
                Feedback {
                    loc: Loc::default(),
                    interval: *interval,
                    coefficient: *coefficient,
                    threshold: *threshold,
                    scale: *scale,
                    inputs: inputs.clone(),
                }
            }),
            servers: servers.iter().map(Server::without_locations).collect(),
        }
    }
}

impl Server {
    fn without_locations(&self) -> Server {
        let Server {
            loc: _,
            addr,
            weight,
            mac,
            inhibit_on_failure,
            uthreshold,
            lthreshold,
            checkers,
        } = self;
        Server {
            loc: Loc::default(),
            addr: *addr,
            weight: *weight,
            mac: *mac,
            inhibit_on_failure: *inhibit_on_failure,
            uthreshold: *uthreshold,
            lthreshold: *lthreshold,
            checkers: checkers.iter().map(Checker::without_locations).collect(),
        }
    }
}

impl Checker {
    fn without_locations(&self) -> Checker {
        match self {
            Checker::Http(HttpCheck {
                common,
                virtualhost,
                urls,
            }) => Checker::Http(HttpCheck {
                common: common.without_locations(),
                virtualhost: virtualhost.clone(),
                urls: urls
                    .iter()
                    .map(|u| {
                        let UrlCheck {
                            loc: _,
                            path,
                            status_code,
                            digest,
                            virtualhost,
                        } = u;
                        UrlCheck {
                            loc: Loc::default(),
                            path: path.clone(),
                            status_code: *status_code,
                            digest: *digest,
                            virtualhost: virtualhost.clone(),
                        }
                    })
                    .collect(),
            }),
            Checker::Tcp(TcpCheck { common }) => Checker::Tcp(TcpCheck {
                common: common.without_locations(),
            }),
            Checker::Misc(MiscCheck {
                loc: _,
                path,
                timeout,
                dynamic,
                retry,
                delay_before_retry,
            }) => Checker::Misc(MiscCheck {
                loc: Loc::default(),
                path: path.clone(),
                timeout: *timeout,
                dynamic: *dynamic,
                retry: *retry,
                delay_before_retry: *delay_before_retry,
            }),
        }
    }
}

impl CheckCommon {
    fn without_locations(&self) -> CheckCommon {
        let CheckCommon {
            loc: _,
            connect_to,
            connect_timeout,
            retry,
            delay_before_retry,
            delay_loop,
        } = self;
        CheckCommon {
            loc: Loc::default(),
            connect_to: *connect_to,
            connect_timeout: *connect_timeout,
            retry: *retry,
            delay_before_retry: *delay_before_retry,
            delay_loop: *delay_loop,
        }
    }
}
