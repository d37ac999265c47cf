//! From the statement tree to a [`Config`]: keywords, values, defaults and the checks that
//! need the whole file (duplicates, references to pools).

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::str::FromStr;
use std::time::Duration;

use super::model::*;
use super::patterns::{check_name, check_path, parse_host, Suggester};
use super::syntax::{Block, Stmt, Tok};
use super::ConfigError;
use crate::flowmgr::Scheduler;

const TOP: &[&str] = &["global_defs", "virtual_server", "pool", "url_rule"];
const GLOBAL: &[&str] = &[
    "router_id",
    "lvs_timeouts",
    "client_mac",
    "server_mac",
    "local_address",
    "notification_email",
    "notification_email_from",
    "smtp_server",
    "smtp_connect_timeout",
    "smtp_helo_name",
    "enable_script_security",
    "script_user",
];
/// Accepted in `global_defs` and ignored (mail and script settings of keepalived).
const GLOBAL_IGNORED: &[&str] = &[
    "notification_email",
    "notification_email_from",
    "smtp_server",
    "smtp_connect_timeout",
    "smtp_helo_name",
    "enable_script_security",
    "script_user",
];
/// Keywords of a pool, also allowed in a `virtual_server` that lists its own servers.
const POOL_KW: &[&str] = &[
    "card_index",
    "lvs_sched",
    "lb_algo",
    "persistence_timeout",
    "persistence_granularity",
    "delay_loop",
    "sorry_server",
    "quorum",
    "hysteresis",
    "alpha",
    "omega",
    "inhibit_on_failure",
    "lvs_flags",
    "sh-fallback",
    "sh-port",
    "mh-fallback",
    "mh-port",
    "virtualhost",
    "dynamic_feedback",
    "real_server",
];
const SERVICE_KW: &[&str] = &["lvs_method", "lb_kind", "protocol", "pool", "default_pool"];
const SERVER_KW: &[&str] = &[
    "weight",
    "mac",
    "inhibit_on_failure",
    "uthreshold",
    "lthreshold",
    "HTTP_GET",
    "TCP_CHECK",
    "MISC_CHECK",
];
const COMMON_KW: &[&str] = &[
    "connect_timeout",
    "connect_ip",
    "connect_port",
    "retry",
    "nb_get_retry",
    "delay_before_retry",
    "delay_loop",
];
const HTTP_KW: &[&str] = &["url", "virtualhost"];
const URL_KW: &[&str] = &["path", "status_code", "digest", "virtualhost"];
const MISC_KW: &[&str] = &[
    "misc_path",
    "misc_timeout",
    "misc_dynamic",
    "retry",
    "delay_before_retry",
];
const FEEDBACK_KW: &[&str] = &[
    "interval",
    "coefficient",
    "threshold",
    "scale",
    "connections",
    "response_time",
    "load_command",
];
const RULE_KW: &[&str] = &["host", "path", "path_prefix", "priority", "pool"];

/// Keywords given once per block, by canonical name, with where.
#[derive(Default)]
struct Seen(HashMap<&'static str, Loc>);

/// A reference to a pool, checked once the whole file is read.
struct PoolRef {
    name: String,
    loc: Loc,
    what: &'static str,
}

struct P<'e> {
    errors: &'e mut Vec<ConfigError>,
    config: Config,
    pool_refs: Vec<PoolRef>,
    pools_seen: HashMap<String, Loc>,
    services_seen: HashMap<(Ipv4Addr, u16), Loc>,
    rule_names: HashMap<String, Loc>,
    /// `default_pool` of each L7 service with the service's location.
    l7_defaults: Vec<(String, Loc)>,
    /// "did you mean" search, with its work bound.
    suggester: Suggester,
    /// The keyword suggestion for each unknown keyword already seen, by place.
    suggested: HashMap<&'static str, HashMap<String, Option<&'static str>>>,
}

/// Interprets the statement tree of a file of `bytes` bytes. `complete` is `false` when
/// the tree is only the start of the file (a limit stopped reading): references are then
/// not checked, since what they name may be in the part not read.
///
/// Blocks are interpreted by keyword, at most the grammar's 4 levels deep; the work is
/// linear in the size of the tree, and the "did you mean" search is bounded by the size of
/// the file.
pub(crate) fn interpret(
    tree: &[Stmt],
    complete: bool,
    bytes: usize,
    errors: &mut Vec<ConfigError>,
) -> Config {
    run(tree, complete, bytes, errors).config
}

/// [`interpret`], returning the whole state (tests read the suggestion work).
fn run<'e>(tree: &[Stmt], complete: bool, bytes: usize, errors: &'e mut Vec<ConfigError>) -> P<'e> {
    let mut p = P {
        errors,
        config: Config::default(),
        pool_refs: Vec::new(),
        pools_seen: HashMap::new(),
        services_seen: HashMap::new(),
        rule_names: HashMap::new(),
        l7_defaults: Vec::new(),
        suggester: Suggester::for_file(bytes),
        suggested: HashMap::new(),
    };
    let mut globals = Seen::default();
    for s in tree {
        if !p.keyword_ok(s) {
            continue;
        }
        match s.kw.text.as_str() {
            "global_defs" => {
                if p.once(&mut globals, "global_defs", s) {
                    p.global_defs(s);
                }
            }
            "virtual_server" => p.virtual_server(s),
            "pool" => p.pool(s),
            "url_rule" => p.url_rule(s),
            "vrrp_instance" => p.err(
                &s.kw.loc,
                "vrrp_instance is keepalived's failover engine; SpliceNIC does not run VRRP \
                 (run keepalived for VRRP, or remove the block)",
            ),
            kw if kw.starts_with("vrrp_") => p.err(
                &s.kw.loc,
                format!(
                    "{kw} is part of keepalived's failover engine; SpliceNIC does not run VRRP \
                     (run keepalived for VRRP, or remove the block)"
                ),
            ),
            "virtual_server_group" => p.err(
                &s.kw.loc,
                "virtual_server_group is not supported: declare each virtual_server on its own",
            ),
            "include" => p.err(
                &s.kw.loc,
                "include is not supported: put the whole configuration in one file",
            ),
            _ => p.unknown(s, "at the top level", &[TOP]),
        }
    }
    if complete {
        p.check_references();
    }
    p
}

impl P<'_> {
    // ----- helpers ---------------------------------------------------------------------

    fn err(&mut self, loc: &Loc, msg: impl Into<String>) {
        self.errors.push(ConfigError::new(loc.clone(), msg));
    }

    /// A keyword must be a plain word (a `{` without a keyword was already reported).
    fn keyword_ok(&mut self, s: &Stmt) -> bool {
        if s.kw.quoted {
            self.err(
                &s.kw.loc,
                format!(
                    "expected a keyword, found the quoted string \"{}\"",
                    s.kw.text
                ),
            );
            return false;
        }
        s.kw.text != "{"
    }

    /// An unknown keyword, with the closest of the `known` lists' keywords as a suggestion
    /// (`place` stands for the lists: one place, one set of keywords).
    fn unknown(&mut self, s: &Stmt, place: &'static str, known: &[&[&'static str]]) {
        let mut msg = format!("unknown keyword `{}` {place}", s.kw.text);
        let seen = self.suggested.entry(place).or_default();
        let suggestion = match seen.get(s.kw.text.as_str()) {
            Some(k) => *k,
            None => {
                let candidates = known.iter().flat_map(|l| l.iter().copied());
                let k = self.suggester.suggest(&s.kw.text, candidates);
                seen.insert(s.kw.text.clone(), k);
                k
            }
        };
        if let Some(k) = suggestion {
            msg.push_str(&format!("; did you mean `{k}`?"));
        }
        self.err(&s.kw.loc, msg);
    }

    /// Records keyword `canon` of a block; an error when it was given already.
    fn once(&mut self, seen: &mut Seen, canon: &'static str, s: &Stmt) -> bool {
        if let Some(first) = seen.0.get(canon) {
            let msg = if canon == s.kw.text {
                format!("`{canon}` given twice (first at line {})", first.line)
            } else {
                format!(
                    "`{}` given twice (as `{canon}` or an alias, first at line {})",
                    s.kw.text, first.line
                )
            };
            self.err(&s.kw.loc, msg);
            return false;
        }
        seen.0.insert(canon, s.kw.loc.clone());
        true
    }

    /// A statement that must not have a block.
    fn no_block(&mut self, s: &Stmt) -> bool {
        match &s.block {
            Some(b) => {
                self.err(
                    &b.open,
                    format!("`{}` takes a value, not a block", s.kw.text),
                );
                false
            }
            None => true,
        }
    }

    /// A statement with no values and no block.
    fn flag(&mut self, s: &Stmt) -> bool {
        if !self.no_block(s) {
            return false;
        }
        if let Some(v) = s.args.first() {
            self.err(
                &v.loc,
                format!("`{}` takes no value, found `{}`", s.kw.text, v.text),
            );
            return false;
        }
        true
    }

    /// A statement with exactly `n` values and no block.
    fn values<'s>(&mut self, s: &'s Stmt, n: usize, what: &str) -> Option<&'s [Tok]> {
        if !self.no_block(s) {
            return None;
        }
        if s.args.len() < n {
            self.err(&s.kw.loc, format!("`{}` needs {what}", s.kw.text));
            return None;
        }
        if let Some(extra) = s.args.get(n) {
            self.err(
                &extra.loc,
                format!("extra value `{}`: `{}` takes {what}", extra.text, s.kw.text),
            );
            return None;
        }
        Some(&s.args)
    }

    fn one<'s>(&mut self, s: &'s Stmt) -> Option<&'s Tok> {
        self.values(s, 1, "a value").map(|v| &v[0])
    }

    /// A statement that must have a block (and `nargs` values before it).
    fn block<'s>(&mut self, s: &'s Stmt, nargs: usize, what: &str) -> Option<&'s Block> {
        match &s.block {
            None => {
                match s.args.get(nargs) {
                    Some(v) => self.err(
                        &v.loc,
                        format!(
                            "`{}` takes a block `{{ ... }}`, found the value `{}`",
                            s.kw.text, v.text
                        ),
                    ),
                    None => self.err(
                        &s.kw.loc,
                        format!("`{}` needs a block `{{ ... }}`", s.kw.text),
                    ),
                }
                None
            }
            Some(b) => {
                if s.args.len() < nargs {
                    self.err(&s.kw.loc, format!("`{}` needs {what}", s.kw.text));
                } else if let Some(extra) = s.args.get(nargs) {
                    self.err(
                        &extra.loc,
                        format!(
                            "extra value `{}`: `{}` takes {what} before its block",
                            extra.text, s.kw.text
                        ),
                    );
                }
                Some(b)
            }
        }
    }

    fn number(&mut self, kw: &str, t: &Tok, min: u64, max: u64) -> Option<u64> {
        match t.text.parse::<u64>() {
            Ok(v) if (min..=max).contains(&v) => Some(v),
            Ok(v) => {
                self.err(&t.loc, format!("`{kw}` {v} is out of range {min}..={max}"));
                None
            }
            Err(_) => {
                self.err(
                    &t.loc,
                    format!(
                        "`{kw}` expects a whole number in {min}..={max}, found `{}`",
                        t.text
                    ),
                );
                None
            }
        }
    }

    fn u32_in(&mut self, kw: &str, t: &Tok, min: u32, max: u32) -> Option<u32> {
        self.number(kw, t, min.into(), max.into())
            .and_then(|v| u32::try_from(v).ok())
    }

    fn float(&mut self, kw: &str, t: &Tok, min: f64, max: f64) -> Option<f64> {
        match t.text.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= min && v <= max => Some(v),
            Ok(_) => {
                self.err(
                    &t.loc,
                    format!("`{kw}` {} is out of range {min}..={max}", t.text),
                );
                None
            }
            Err(_) => {
                self.err(
                    &t.loc,
                    format!("`{kw}` expects a number, found `{}`", t.text),
                );
                None
            }
        }
    }

    /// Seconds, maybe fractional; at most a day... or a year for timeouts.
    fn secs(&mut self, kw: &str, t: &Tok, zero_ok: bool) -> Option<Duration> {
        const MAX: f64 = 31_536_000.0;
        let v = match t.text.parse::<f64>() {
            Ok(v) if v.is_finite() => v,
            _ => {
                self.err(
                    &t.loc,
                    format!("`{kw}` expects a number of seconds, found `{}`", t.text),
                );
                return None;
            }
        };
        if v < 0.0 || (!zero_ok && v == 0.0) || v > MAX {
            let low = if zero_ok { "0" } else { "above 0" };
            self.err(
                &t.loc,
                format!("`{kw}` {} s is out of range: {low} up to {MAX} s", t.text),
            );
            return None;
        }
        match Duration::try_from_secs_f64(v) {
            Ok(d) if zero_ok || !d.is_zero() => Some(d),
            // Above 0 but less than half a nanosecond: it would be kept as 0.
            _ => {
                self.err(
                    &t.loc,
                    format!(
                        "`{kw}` {} s is out of range: durations are kept to the nanosecond, \
                         give at least 0.000000001 s",
                        t.text
                    ),
                );
                None
            }
        }
    }

    fn ip(&mut self, t: &Tok) -> Option<Ipv4Addr> {
        match Ipv4Addr::from_str(&t.text) {
            Ok(a) => Some(a),
            Err(_) => {
                self.err(
                    &t.loc,
                    format!(
                        "`{}` is not an IPv4 address (write a dotted quad such as 10.0.0.1; \
                         host names are not resolved)",
                        t.text
                    ),
                );
                None
            }
        }
    }

    fn port(&mut self, t: &Tok) -> Option<u16> {
        match t.text.parse::<u64>() {
            Ok(0) => {
                self.err(&t.loc, "port 0 is not valid: ports are 1..=65535");
                None
            }
            Ok(v) => match u16::try_from(v) {
                Ok(p) => Some(p),
                Err(_) => {
                    self.err(&t.loc, format!("port {v} is out of range 1..=65535"));
                    None
                }
            },
            Err(_) => {
                self.err(
                    &t.loc,
                    format!("`{}` is not a port number (1..=65535)", t.text),
                );
                None
            }
        }
    }

    /// `IP PORT` values.
    fn addr(&mut self, ip: &Tok, port: &Tok) -> Option<SocketAddrV4> {
        let ip = self.ip(ip);
        let port = self.port(port);
        Some(SocketAddrV4::new(ip?, port?))
    }

    // ----- global_defs -----------------------------------------------------------------

    fn global_defs(&mut self, s: &Stmt) {
        let Some(b) = self.block(s, 0, "no value") else {
            return;
        };
        let mut seen = Seen::default();
        for s in &b.stmts {
            if !self.keyword_ok(s) {
                continue;
            }
            let kw = s.kw.text.as_str();
            match kw {
                "router_id" => {
                    if self.once(&mut seen, "router_id", s) {
                        if let Some(v) = self.one(s) {
                            self.config.router_id = Some(v.text.clone());
                        }
                    }
                }
                "lvs_timeouts" => {
                    if self.once(&mut seen, "lvs_timeouts", s) && self.no_block(s) {
                        self.lvs_timeouts(s);
                    }
                }
                "client_mac" | "server_mac" => {
                    let canon = if kw == "client_mac" {
                        "client_mac"
                    } else {
                        "server_mac"
                    };
                    if self.once(&mut seen, canon, s) {
                        if let Some(v) = self.one(s) {
                            match parse_mac(&v.text) {
                                Some(m) if kw == "client_mac" => {
                                    self.config.card.client_mac = Some(m)
                                }
                                Some(m) => self.config.card.server_mac = Some(m),
                                None => self.err(
                                    &v.loc,
                                    format!(
                                        "`{}` is not a MAC address (XX:XX:XX:XX:XX:XX)",
                                        v.text
                                    ),
                                ),
                            }
                        }
                    }
                }
                "local_address" => {
                    if self.once(&mut seen, "local_address", s) && self.no_block(s) {
                        if s.args.is_empty() {
                            self.err(
                                &s.kw.loc,
                                "`local_address` needs the card's server-side IPv4 address(es)",
                            );
                        } else if s.args.len() > 4 {
                            self.err(
                                &s.args[4].loc,
                                format!("{} local addresses given; the card has 4", s.args.len()),
                            );
                        } else {
                            let ips: Vec<Ipv4Addr> =
                                s.args.iter().filter_map(|a| self.ip(a)).collect();
                            self.config.card.local_addresses = ips;
                            self.config.card.local_loc = Some(s.kw.loc.clone());
                        }
                    }
                }
                // keepalived's mail, script and VRRP settings: nothing to do here.
                kw if GLOBAL_IGNORED.contains(&kw) || kw.starts_with("vrrp_") => {}
                _ => self.unknown(s, "in `global_defs` block", &[GLOBAL]),
            }
        }
    }

    fn lvs_timeouts(&mut self, s: &Stmt) {
        const FORM: &str =
            "`lvs_timeouts` takes `tcp N`, `tcpfin N`, `udp N` and/or `linger N` (seconds)";
        if s.args.is_empty() {
            self.err(&s.kw.loc, format!("{FORM}; found nothing"));
            return;
        }
        let mut seen: HashMap<&str, u32> = HashMap::new();
        for pair in s.args.chunks(2) {
            let key = &pair[0];
            let Some(val) = pair.get(1) else {
                self.err(&key.loc, format!("{FORM}; `{}` has no value", key.text));
                return;
            };
            let slot = match key.text.as_str() {
                "tcp" => &mut self.config.timeouts.tcp,
                "tcpfin" => &mut self.config.timeouts.tcpfin,
                "udp" => &mut self.config.timeouts.udp,
                "linger" => &mut self.config.timeouts.linger,
                _ => {
                    self.err(&key.loc, format!("{FORM}; found `{}`", key.text));
                    continue;
                }
            };
            if let Some(line) = seen.get(key.text.as_str()) {
                let msg = format!("`{}` given twice in `lvs_timeouts` (line {line})", key.text);
                self.err(&key.loc, msg);
                continue;
            }
            seen.insert(&key.text, key.loc.line);
            match val.text.parse::<u32>() {
                // 0 leaves the card's value, as with `ipvsadm --set`.
                Ok(0) => *slot = None,
                Ok(v) if key.text == "linger" && v > MAX_LINGER_SECS => {
                    let msg = format!(
                        "`linger` {v} s is out of range: 1 up to {MAX_LINGER_SECS} s (0 = unchanged)"
                    );
                    self.err(&val.loc, msg);
                }
                Ok(v) => *slot = Some(v),
                Err(_) => {
                    let msg = format!(
                        "`{}` timeout expects whole seconds (0 = unchanged), found `{}`",
                        key.text, val.text
                    );
                    self.err(&val.loc, msg);
                }
            }
        }
    }

    // ----- virtual_server and pool -----------------------------------------------------

    fn virtual_server(&mut self, s: &Stmt) {
        if let Some(first) = s.args.first() {
            match first.text.as_str() {
                "fwmark" => {
                    self.err(
                        &first.loc,
                        "fwmark services are not supported: a virtual_server is `IP PORT`",
                    );
                    return;
                }
                "group" => {
                    self.err(
                        &first.loc,
                        "virtual_server_group is not supported: declare each virtual_server on \
                         its own",
                    );
                    return;
                }
                _ => {}
            }
        }
        let b = self.block(s, 2, "an IPv4 address and a port");
        let addr = match (s.args.first(), s.args.get(1)) {
            (Some(ip), Some(port)) => self.addr(ip, port),
            _ => None,
        };
        let Some(b) = b else { return };
        let label = match addr {
            Some(a) => format!("virtual_server {a}"),
            None => "virtual_server".to_string(),
        };
        let mut pb = PoolB::default();
        let mut seen = Seen::default();
        let mut l4_pool: Option<(String, Loc)> = None;
        let mut l7_pool: Option<(String, Loc)> = None;
        for st in &b.stmts {
            if !self.keyword_ok(st) {
                continue;
            }
            let kw = st.kw.text.as_str();
            match kw {
                "lvs_method" | "lb_kind" => {
                    if self.once(&mut seen, "lvs_method", st) {
                        if let Some(v) = self.one(st) {
                            match v.text.to_ascii_uppercase().as_str() {
                                "NAT" => {}
                                "DR" | "TUN" => self.err(
                                    &v.loc,
                                    format!(
                                        "`{kw} {}` is not possible: the card splices TCP \
                                         connections, only NAT forwarding",
                                        v.text
                                    ),
                                ),
                                _ => self.err(
                                    &v.loc,
                                    format!(
                                        "unknown forwarding method `{}`: the card does NAT \
                                         (keepalived's NAT, DR, TUN)",
                                        v.text
                                    ),
                                ),
                            }
                        }
                    }
                }
                "protocol" => {
                    if self.once(&mut seen, "protocol", st) {
                        if let Some(v) = self.one(st) {
                            match v.text.to_ascii_uppercase().as_str() {
                                "TCP" => {}
                                "UDP" | "SCTP" => self.err(
                                    &v.loc,
                                    format!(
                                        "`protocol {}` is not supported: the card balances TCP \
                                         only",
                                        v.text
                                    ),
                                ),
                                _ => self.err(
                                    &v.loc,
                                    format!("unknown protocol `{}`: expected TCP", v.text),
                                ),
                            }
                        }
                    }
                }
                "pool" | "default_pool" => {
                    let canon = if kw == "pool" { "pool" } else { "default_pool" };
                    if self.once(&mut seen, canon, st) {
                        if let Some(v) = self.one(st) {
                            let what = if kw == "pool" { "pool" } else { "default_pool" };
                            self.pool_refs.push(PoolRef {
                                name: v.text.clone(),
                                loc: st.kw.loc.clone(),
                                what,
                            });
                            let slot = if kw == "pool" {
                                &mut l4_pool
                            } else {
                                &mut l7_pool
                            };
                            *slot = Some((v.text.clone(), st.kw.loc.clone()));
                        }
                    }
                }
                _ => {
                    if !self.pool_setting(&mut pb, st) {
                        self.unknown(st, "in `virtual_server` block", &[SERVICE_KW, POOL_KW]);
                    }
                }
            }
        }
        let given = usize::from(pb.server_lines > 0)
            + usize::from(l4_pool.is_some())
            + usize::from(l7_pool.is_some());
        if given == 0 {
            self.err(
                &s.kw.loc,
                format!(
                    "{label} has no real_server, `pool` or `default_pool`: give exactly one of \
                     them"
                ),
            );
        } else if given > 1 {
            let mut parts = Vec::new();
            if pb.server_lines > 0 {
                parts.push("real_server entries");
            }
            if l4_pool.is_some() {
                parts.push("`pool`");
            }
            if l7_pool.is_some() {
                parts.push("`default_pool`");
            }
            self.err(
                &s.kw.loc,
                format!(
                    "{label} has {}: give exactly one of a real_server list, `pool` or \
                     `default_pool`",
                    parts.join(" and ")
                ),
            );
        }
        // Pool settings belong to the named pool when the service does not list servers.
        let target = match (&l4_pool, &l7_pool) {
            (Some((name, _)), None) => Some(format!(
                "this virtual_server sends its connections to pool `{name}`, so set it in \
                 `pool {name} {{ ... }}`"
            )),
            (None, Some(_)) => Some(
                "the URL rules of this virtual_server choose the pools, so set it in the \
                 pool blocks"
                    .to_string(),
            ),
            _ => None,
        };
        if let (Some(why), false) = (&target, pb.server_lines > 0) {
            for (kw, loc) in std::mem::take(&mut pb.settings) {
                self.err(&loc, format!("`{kw}` belongs to a pool: {why}"));
            }
        }
        let Some(addr) = addr else {
            return;
        };
        let key = (*addr.ip(), addr.port());
        if let Some(first) = self.services_seen.get(&key) {
            let msg = format!(
                "duplicate virtual_server {addr} (first declared at line {})",
                first.line
            );
            self.err(&s.kw.loc, msg);
            return;
        }
        self.services_seen.insert(key, s.kw.loc.clone());
        let mode = if let Some((name, _)) = l7_pool {
            self.l7_defaults.push((name.clone(), s.kw.loc.clone()));
            ServiceKind::L7 { default_pool: name }
        } else if let Some((name, _)) = l4_pool {
            ServiceKind::L4 { pool: name }
        } else {
            let name = addr.to_string();
            let pool = self.finish_pool(pb, name.clone(), s.kw.loc.clone(), true);
            self.pools_seen.insert(name.clone(), s.kw.loc.clone());
            self.config.pools.push(pool);
            ServiceKind::L4 { pool: name }
        };
        self.config.services.push(Service {
            loc: s.kw.loc.clone(),
            vip: *addr.ip(),
            port: addr.port(),
            mode,
        });
    }

    fn pool(&mut self, s: &Stmt) {
        let b = self.block(s, 1, "a name");
        let name = s
            .args
            .first()
            .and_then(|n| match check_name("pool", &n.text) {
                Ok(()) => Some(n.text.clone()),
                Err(e) => {
                    self.err(&n.loc, e);
                    None
                }
            });
        let Some(b) = b else { return };
        let mut pb = PoolB::default();
        for st in &b.stmts {
            if !self.keyword_ok(st) {
                continue;
            }
            if !self.pool_setting(&mut pb, st) {
                self.unknown(st, "in `pool` block", &[POOL_KW]);
            }
        }
        let Some(name) = name else { return };
        if let Some(first) = self.pools_seen.get(&name) {
            let msg = format!(
                "duplicate pool `{name}` (first declared at line {})",
                first.line
            );
            self.err(&s.kw.loc, msg);
            return;
        }
        self.pools_seen.insert(name.clone(), s.kw.loc.clone());
        let pool = self.finish_pool(pb, name, s.kw.loc.clone(), false);
        self.config.pools.push(pool);
    }

    /// Handles a pool keyword; `false` when `st` is not one.
    fn pool_setting(&mut self, pb: &mut PoolB, st: &Stmt) -> bool {
        let kw = st.kw.text.as_str();
        let canon: &'static str = match POOL_KW.iter().find(|k| **k == kw) {
            Some(&"lb_algo") => "lvs_sched",
            Some(k) => k,
            None => return false,
        };
        if canon == "real_server" {
            self.real_server(pb, st);
            return true;
        }
        pb.settings.push((kw.to_string(), st.kw.loc.clone()));
        if canon != "lvs_flags" && !self.once(&mut pb.seen, canon, st) {
            return true;
        }
        match canon {
            "card_index" => {
                if let Some(v) = self.one(st) {
                    if let Some(n) = self.u32_in(kw, v, 0, 255) {
                        pb.card_index = Some(n as u8);
                    }
                }
            }
            "lvs_sched" => {
                if let Some(v) = self.one(st) {
                    match Scheduler::from_str(&v.text.to_ascii_lowercase()) {
                        Ok(sched) => pb.sched = Some(sched),
                        Err(e) => self.err(&v.loc, e.to_string()),
                    }
                }
            }
            "persistence_timeout" if self.no_block(st) => match st.args.as_slice() {
                // keepalived: no value = 6 minutes, as ipvsadm -p.
                [] => pb.persistence = Some((360, st.kw.loc.clone())),
                [v] => {
                    if let Some(t) = self.u32_in(kw, v, 1, u32::MAX) {
                        pb.persistence = Some((t, st.kw.loc.clone()));
                    }
                }
                [_, extra, ..] => self.err(
                    &extra.loc,
                    format!("extra value `{}`: `{kw}` takes seconds", extra.text),
                ),
            },
            "persistence_granularity" => {
                if let Some(v) = self.one(st) {
                    match Ipv4Addr::from_str(&v.text) {
                        Ok(m)
                            if {
                                let b = u32::from(m);
                                b.leading_ones() + b.trailing_zeros() == 32
                            } =>
                        {
                            pb.granularity = Some((m, st.kw.loc.clone()));
                        }
                        _ => self.err(
                            &v.loc,
                            format!("`{}` is not a netmask (such as 255.255.255.0)", v.text),
                        ),
                    }
                }
            }
            "delay_loop" => {
                if let Some(v) = self.one(st) {
                    pb.delay_loop = self.secs(kw, v, false);
                }
            }
            "sorry_server" => {
                if let Some(v) = self.values(st, 2, "an IPv4 address and a port") {
                    if let Some(a) = self.addr(&v[0], &v[1]) {
                        pb.sorry = Some((a, st.kw.loc.clone()));
                    }
                }
            }
            "quorum" => {
                if let Some(v) = self.one(st) {
                    pb.quorum = self.u32_in(kw, v, 0, u32::MAX);
                }
            }
            "hysteresis" => {
                if let Some(v) = self.one(st) {
                    pb.hysteresis = self.u32_in(kw, v, 0, u32::MAX);
                }
            }
            "alpha" => pb.alpha = self.flag(st),
            "omega" => pb.omega = self.flag(st),
            "inhibit_on_failure" => pb.inhibit = self.flag(st),
            "sh-fallback" | "mh-fallback" => pb.fallback |= self.flag(st),
            "sh-port" | "mh-port" => pb.hash_port |= self.flag(st),
            "lvs_flags" if self.no_block(st) => {
                if st.args.is_empty() {
                    self.err(
                        &st.kw.loc,
                        "`lvs_flags` needs flags: sh-fallback, sh-port, mh-fallback, mh-port, \
                         flag-1 or flag-2",
                    );
                }
                for v in &st.args {
                    for f in v.text.split([',', '|']).filter(|f| !f.is_empty()) {
                        match f {
                            "sh-fallback" | "mh-fallback" | "flag-1" => pb.fallback = true,
                            "sh-port" | "mh-port" | "flag-2" => pb.hash_port = true,
                            _ => self.err(
                                &v.loc,
                                format!(
                                    "unknown lvs_flags flag `{f}`: expected sh-fallback, \
                                     sh-port, mh-fallback, mh-port, flag-1 or flag-2"
                                ),
                            ),
                        }
                    }
                }
            }
            "virtualhost" => {
                if let Some(v) = self.one(st) {
                    pb.virtualhost = Some(v.text.clone());
                }
            }
            "dynamic_feedback" => pb.feedback = self.feedback(st),
            _ => {}
        }
        true
    }

    fn finish_pool(&mut self, pb: PoolB, name: String, loc: Loc, implicit: bool) -> Pool {
        let persistence = match (pb.persistence, pb.granularity) {
            (Some((t, _)), Some((m, _))) => Some((t, m)),
            (Some((t, _)), None) => Some((t, Ipv4Addr::BROADCAST)),
            (None, Some((_, gloc))) => {
                self.err(
                    &gloc,
                    "`persistence_granularity` has no effect without `persistence_timeout`",
                );
                None
            }
            (None, None) => None,
        };
        let mut servers = pb.servers;
        for s in &mut servers {
            s.inhibit_on_failure |= pb.inhibit;
            if let Some(vh) = &pb.virtualhost {
                for c in &mut s.checkers {
                    if let Checker::Http(h) = c {
                        h.virtualhost.get_or_insert_with(|| vh.clone());
                    }
                }
            }
        }
        Pool {
            loc,
            name,
            implicit,
            card_index: pb.card_index,
            sched: pb.sched.unwrap_or_default(),
            fallback: pb.fallback,
            hash_port: pb.hash_port,
            persistence,
            delay_loop: pb.delay_loop.unwrap_or(Duration::from_secs(60)),
            sorry_server: pb.sorry,
            quorum: pb.quorum.unwrap_or(1),
            hysteresis: pb.hysteresis.unwrap_or(0),
            alpha: pb.alpha,
            omega: pb.omega,
            feedback: pb.feedback,
            servers,
        }
    }

    // ----- dynamic_feedback ------------------------------------------------------------

    fn feedback(&mut self, s: &Stmt) -> Option<Feedback> {
        let b = self.block(s, 0, "no value")?;
        let mut fb = Feedback {
            loc: s.kw.loc.clone(),
            interval: Duration::from_secs(5),
            coefficient: 5.0,
            threshold: 0.05,
            scale: 10,
            inputs: Vec::new(),
        };
        let mut seen = Seen::default();
        let mut ok = true;
        for st in &b.stmts {
            if !self.keyword_ok(st) {
                continue;
            }
            let kw = st.kw.text.as_str();
            let Some(&canon) = FEEDBACK_KW.iter().find(|k| **k == kw) else {
                self.unknown(st, "in `dynamic_feedback` block", &[FEEDBACK_KW]);
                continue;
            };
            if canon != "load_command" && !self.once(&mut seen, canon, st) {
                continue;
            }
            let before = self.errors.len();
            match canon {
                "interval" => {
                    if let Some(d) = self.one(st).and_then(|v| self.secs(kw, v, false)) {
                        fb.interval = d;
                    }
                }
                "coefficient" => {
                    if let Some(v) = self.one(st).and_then(|v| self.float(kw, v, 0.0, 1e6)) {
                        if v == 0.0 {
                            self.err(&st.args[0].loc, "`coefficient` must be above 0");
                        } else {
                            fb.coefficient = v;
                        }
                    }
                }
                "threshold" => {
                    if let Some(v) = self.one(st).and_then(|v| self.float(kw, v, 0.0, 1.0)) {
                        fb.threshold = v;
                    }
                }
                "scale" => {
                    if let Some(v) = self.one(st).and_then(|v| self.u32_in(kw, v, 1, 65_535)) {
                        fb.scale = v;
                    }
                }
                "connections" | "response_time" => {
                    if let Some(r) = self.one(st).and_then(|v| self.float(kw, v, 0.0, 1.0)) {
                        let input = if canon == "connections" {
                            LoadInput::Connections
                        } else {
                            LoadInput::ResponseTime
                        };
                        fb.inputs.push((input, r));
                    }
                }
                "load_command" => {
                    if let Some(v) = self.values(st, 2, "a command (quoted) and a ratio") {
                        if let Some(r) = self.float(kw, &v[1], 0.0, 1.0) {
                            if v[0].text.trim().is_empty() {
                                self.err(&v[0].loc, "empty `load_command`");
                            } else {
                                fb.inputs.push((LoadInput::Command(v[0].text.clone()), r));
                            }
                        }
                    }
                }
                _ => {}
            }
            ok &= self.errors.len() == before;
        }
        if ok {
            if fb.inputs.is_empty() {
                self.err(
                    &s.kw.loc,
                    "`dynamic_feedback` has no load input: give `connections R`, \
                     `response_time R` and/or `load_command \"CMD\" R`",
                );
                return None;
            }
            let sum: f64 = fb.inputs.iter().map(|(_, r)| r).sum();
            if (sum - 1.0).abs() > 1e-6 {
                self.err(
                    &s.kw.loc,
                    format!("`dynamic_feedback` ratios sum to {sum}; they must sum to 1"),
                );
                return None;
            }
        }
        Some(fb)
    }

    // ----- real_server and checkers ----------------------------------------------------

    fn real_server(&mut self, pb: &mut PoolB, s: &Stmt) {
        pb.server_lines += 1;
        let addr = if s.args.len() < 2 {
            self.err(&s.kw.loc, "`real_server` needs an IPv4 address and a port");
            None
        } else {
            if let Some(extra) = s.args.get(2) {
                self.err(
                    &extra.loc,
                    format!(
                        "extra value `{}`: `real_server` takes an IPv4 address and a port",
                        extra.text
                    ),
                );
            }
            self.addr(&s.args[0], &s.args[1])
        };
        let mut server = Server {
            loc: s.kw.loc.clone(),
            addr: addr.unwrap_or_else(|| SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0)),
            weight: 1,
            mac: None,
            inhibit_on_failure: false,
            uthreshold: 0,
            lthreshold: 0,
            checkers: Vec::new(),
        };
        let mut seen = Seen::default();
        let mut thresholds_ok = true;
        for st in s.block.iter().flat_map(|b| &b.stmts) {
            if !self.keyword_ok(st) {
                continue;
            }
            let kw = st.kw.text.as_str();
            match kw {
                "weight" | "uthreshold" | "lthreshold" => {
                    let canon = match kw {
                        "weight" => "weight",
                        "uthreshold" => "uthreshold",
                        _ => "lthreshold",
                    };
                    if self.once(&mut seen, canon, st) {
                        let max = if kw == "weight" {
                            crate::flowmgr::MAX_WEIGHT
                        } else {
                            u32::MAX
                        };
                        match self.one(st).and_then(|v| self.u32_in(kw, v, 0, max)) {
                            Some(v) if kw == "weight" => server.weight = v,
                            Some(v) if kw == "uthreshold" => server.uthreshold = v,
                            Some(v) => server.lthreshold = v,
                            None => thresholds_ok &= kw == "weight",
                        }
                    }
                }
                "mac" => {
                    if self.once(&mut seen, "mac", st) {
                        if let Some(v) = self.one(st) {
                            match parse_mac(&v.text) {
                                Some(m) => server.mac = Some(m),
                                None => self.err(
                                    &v.loc,
                                    format!(
                                        "`{}` is not a MAC address (XX:XX:XX:XX:XX:XX)",
                                        v.text
                                    ),
                                ),
                            }
                        }
                    }
                }
                "inhibit_on_failure" => {
                    if self.once(&mut seen, "inhibit_on_failure", st) {
                        server.inhibit_on_failure = self.flag(st);
                    }
                }
                "HTTP_GET" => {
                    if let Some(c) = self.http_get(st, addr) {
                        server.checkers.push(Checker::Http(c));
                    }
                }
                "TCP_CHECK" => {
                    if let Some(c) = self.tcp_check(st, addr) {
                        server.checkers.push(Checker::Tcp(c));
                    }
                }
                "MISC_CHECK" => {
                    if let Some(c) = self.misc_check(st) {
                        server.checkers.push(Checker::Misc(c));
                    }
                }
                "SSL_GET" => self.err(
                    &st.kw.loc,
                    "SSL_GET is not supported (TLS checks are not supported): use HTTP_GET on a \
                     plain-HTTP port, TCP_CHECK or MISC_CHECK",
                ),
                "SMTP_CHECK" | "DNS_CHECK" | "UDP_CHECK" | "BFD_CHECK" | "FILE_CHECK"
                | "PING_CHECK" => self.err(
                    &st.kw.loc,
                    format!("{kw} is not supported: use HTTP_GET, TCP_CHECK or MISC_CHECK"),
                ),
                _ => self.unknown(st, "in `real_server` block", &[SERVER_KW]),
            }
        }
        if thresholds_ok
            && server.uthreshold != 0
            && server.lthreshold != 0
            && server.lthreshold > server.uthreshold
        {
            let loc = seen
                .0
                .get("lthreshold")
                .cloned()
                .unwrap_or(server.loc.clone());
            self.err(
                &loc,
                format!(
                    "`lthreshold` {} is above `uthreshold` {}",
                    server.lthreshold, server.uthreshold
                ),
            );
        }
        let Some(addr) = addr else { return };
        if let Some(first) = pb.server_addrs.get(&addr) {
            let msg = format!(
                "duplicate real_server {addr} in this pool (first declared at line {first})"
            );
            self.err(&s.kw.loc, msg);
            return;
        }
        pb.server_addrs.insert(addr, s.kw.loc.line);
        pb.servers.push(server);
    }

    /// Handles a keyword every connecting checker has; `false` when it is not one.
    fn common_setting(&mut self, cb: &mut CommonB, st: &Stmt) -> bool {
        let kw = st.kw.text.as_str();
        let canon = match kw {
            "nb_get_retry" => "retry",
            _ => match COMMON_KW.iter().find(|k| **k == kw) {
                Some(k) => k,
                None => return false,
            },
        };
        if !self.once(&mut cb.seen, canon, st) {
            return true;
        }
        let Some(v) = self.one(st) else {
            return true;
        };
        match canon {
            "connect_timeout" => cb.connect_timeout = self.secs(kw, v, false),
            "connect_ip" => cb.connect_ip = self.ip(v),
            "connect_port" => cb.connect_port = self.port(v),
            "retry" => cb.retry = self.u32_in(kw, v, 0, u32::MAX),
            "delay_before_retry" => cb.delay_before_retry = self.secs(kw, v, true),
            "delay_loop" => cb.delay_loop = self.secs(kw, v, false),
            _ => {}
        }
        true
    }

    fn http_get(&mut self, s: &Stmt, addr: Option<SocketAddrV4>) -> Option<HttpCheck> {
        let b = self.block(s, 0, "no value")?;
        let mut cb = CommonB::default();
        let mut urls = Vec::new();
        let mut url_lines = 0;
        let mut virtualhost = None;
        for st in &b.stmts {
            if !self.keyword_ok(st) || self.common_setting(&mut cb, st) {
                continue;
            }
            match st.kw.text.as_str() {
                "url" => {
                    url_lines += 1;
                    if let Some(u) = self.url(st) {
                        urls.push(u);
                    }
                }
                "virtualhost" => {
                    if self.once(&mut cb.seen, "virtualhost", st) {
                        virtualhost = self.one(st).map(|v| v.text.clone());
                    }
                }
                _ => self.unknown(st, "in `HTTP_GET` block", &[HTTP_KW, COMMON_KW]),
            }
        }
        if url_lines == 0 {
            self.err(
                &s.kw.loc,
                "`HTTP_GET` needs at least one `url { path ... }` block",
            );
        }
        Some(HttpCheck {
            common: cb.finish(s.kw.loc.clone(), addr),
            virtualhost,
            urls,
        })
    }

    fn url(&mut self, s: &Stmt) -> Option<UrlCheck> {
        let b = self.block(s, 0, "no value")?;
        let mut seen = Seen::default();
        let mut u = UrlCheck {
            loc: s.kw.loc.clone(),
            path: String::new(),
            status_code: None,
            digest: None,
            virtualhost: None,
        };
        let mut path_given = false;
        for st in &b.stmts {
            if !self.keyword_ok(st) {
                continue;
            }
            let kw = st.kw.text.as_str();
            let Some(&canon) = URL_KW.iter().find(|k| **k == kw) else {
                self.unknown(st, "in `url` block", &[URL_KW]);
                continue;
            };
            if !self.once(&mut seen, canon, st) {
                continue;
            }
            let Some(v) = self.one(st) else {
                path_given |= canon == "path";
                continue;
            };
            match canon {
                "path" => {
                    path_given = true;
                    if !v.text.starts_with('/') || v.text.chars().any(|c| !c.is_ascii_graphic()) {
                        self.err(
                            &v.loc,
                            format!(
                                "check path `{}` must start with `/` and have no spaces or \
                                 control characters",
                                v.text.escape_default()
                            ),
                        );
                    } else {
                        u.path = v.text.clone();
                    }
                }
                "status_code" => {
                    u.status_code = self
                        .number(kw, v, 100, 599)
                        .and_then(|c| u16::try_from(c).ok());
                }
                "digest" => match parse_digest(&v.text) {
                    Some(d) => u.digest = Some(d),
                    None => self.err(
                        &v.loc,
                        format!(
                            "`digest` expects an MD5 digest of 32 hex digits, found `{}`",
                            v.text
                        ),
                    ),
                },
                "virtualhost" => u.virtualhost = Some(v.text.clone()),
                _ => {}
            }
        }
        if !path_given {
            self.err(&s.kw.loc, "`url` needs a `path`");
        }
        Some(u)
    }

    fn tcp_check(&mut self, s: &Stmt, addr: Option<SocketAddrV4>) -> Option<TcpCheck> {
        let b = self.block(s, 0, "no value")?;
        let mut cb = CommonB::default();
        for st in &b.stmts {
            if !self.keyword_ok(st) || self.common_setting(&mut cb, st) {
                continue;
            }
            self.unknown(st, "in `TCP_CHECK` block", &[COMMON_KW]);
        }
        Some(TcpCheck {
            common: cb.finish(s.kw.loc.clone(), addr),
        })
    }

    fn misc_check(&mut self, s: &Stmt) -> Option<MiscCheck> {
        let b = self.block(s, 0, "no value")?;
        let mut seen = Seen::default();
        let mut m = MiscCheck {
            loc: s.kw.loc.clone(),
            path: String::new(),
            timeout: None,
            dynamic: false,
            retry: 1,
            delay_before_retry: Duration::from_secs(1),
        };
        let mut path_given = false;
        for st in &b.stmts {
            if !self.keyword_ok(st) {
                continue;
            }
            let kw = st.kw.text.as_str();
            let Some(&canon) = MISC_KW.iter().find(|k| **k == kw) else {
                self.unknown(st, "in `MISC_CHECK` block", &[MISC_KW]);
                continue;
            };
            if !self.once(&mut seen, canon, st) {
                continue;
            }
            match canon {
                "misc_path" => {
                    path_given = true;
                    if self.no_block(st) {
                        // keepalived joins the words of an unquoted command line.
                        let cmd = st
                            .args
                            .iter()
                            .map(|t| t.text.as_str())
                            .collect::<Vec<_>>()
                            .join(" ");
                        if cmd.trim().is_empty() {
                            self.err(&st.kw.loc, "`misc_path` needs a command");
                        } else {
                            m.path = cmd;
                        }
                    }
                }
                "misc_timeout" => {
                    m.timeout = self.one(st).and_then(|v| self.secs(kw, v, false));
                }
                "misc_dynamic" => m.dynamic = self.flag(st),
                "retry" => {
                    if let Some(r) = self.one(st).and_then(|v| self.u32_in(kw, v, 0, u32::MAX)) {
                        m.retry = r;
                    }
                }
                "delay_before_retry" => {
                    if let Some(d) = self.one(st).and_then(|v| self.secs(kw, v, true)) {
                        m.delay_before_retry = d;
                    }
                }
                _ => {}
            }
        }
        if !path_given {
            self.err(&s.kw.loc, "`MISC_CHECK` needs a `misc_path \"COMMAND\"`");
        }
        Some(m)
    }

    // ----- url_rule --------------------------------------------------------------------

    fn url_rule(&mut self, s: &Stmt) {
        let b = match &s.block {
            Some(b) => b,
            None => {
                self.block(s, 1, "an optional name");
                return;
            }
        };
        let mut name = None;
        match s.args.as_slice() {
            [] => {}
            [n, rest @ ..] => {
                if let Some(extra) = rest.first() {
                    self.err(
                        &extra.loc,
                        format!(
                            "extra value `{}`: `url_rule` takes an optional name before its block",
                            extra.text
                        ),
                    );
                }
                match check_name("url_rule", &n.text) {
                    Err(e) => self.err(&n.loc, e),
                    Ok(()) => {
                        if let Some(first) = self.rule_names.get(&n.text) {
                            let msg = format!(
                                "duplicate url_rule name `{}` (first declared at line {})",
                                n.text, first.line
                            );
                            self.err(&n.loc, msg);
                        } else {
                            self.rule_names.insert(n.text.clone(), n.loc.clone());
                            name = Some(n.text.clone());
                        }
                    }
                }
            }
        }
        let mut seen = Seen::default();
        let mut host = HostMatch::Any;
        let mut path = PathMatch::Any;
        let mut host_given = false;
        let mut path_given = false;
        let mut priority = 100u16;
        let mut pool: Option<(String, Loc)> = None;
        for st in &b.stmts {
            if !self.keyword_ok(st) {
                continue;
            }
            let kw = st.kw.text.as_str();
            let Some(&canon) = RULE_KW.iter().find(|k| **k == kw) else {
                self.unknown(st, "in `url_rule` block", &[RULE_KW]);
                continue;
            };
            let canon = if canon == "path_prefix" {
                "path"
            } else {
                canon
            };
            if canon == "path" {
                if let Some(first) = seen.0.get("path") {
                    let msg = format!(
                        "give either `path` or `path_prefix`, not both (one is at line {})",
                        first.line
                    );
                    self.err(&st.kw.loc, msg);
                    continue;
                }
                seen.0.insert("path", st.kw.loc.clone());
            } else if !self.once(&mut seen, canon, st) {
                continue;
            }
            match kw {
                "host" => {
                    host_given = true;
                    if let Some(v) = self.one(st) {
                        match parse_host(&v.text) {
                            Ok(h) => host = h,
                            Err(e) => self.err(&v.loc, e),
                        }
                    }
                }
                "path" | "path_prefix" => {
                    path_given = true;
                    if let Some(v) = self.one(st) {
                        let p = if kw == "path" {
                            PathMatch::Exact(v.text.clone())
                        } else {
                            PathMatch::Prefix(v.text.clone())
                        };
                        match check_path(&p) {
                            Ok(()) => path = p,
                            Err(e) => self.err(&v.loc, e),
                        }
                    }
                }
                "priority" => {
                    if let Some(v) = self.one(st).and_then(|v| self.number(kw, v, 0, 65_535)) {
                        priority = u16::try_from(v).unwrap_or(u16::MAX);
                    }
                }
                "pool" => {
                    if let Some(v) = self.one(st) {
                        pool = Some((v.text.clone(), st.kw.loc.clone()));
                    }
                    // Given but without a usable value: already reported.
                    seen.0.insert("pool", st.kw.loc.clone());
                }
                _ => {}
            }
        }
        if !host_given && !path_given {
            self.err(
                &s.kw.loc,
                "url_rule has no `host` and no `path`: it matches everything, use \
                 `default_pool` in the virtual_server instead",
            );
        }
        let Some((pool, pool_loc)) = pool else {
            if !seen.0.contains_key("pool") {
                self.err(
                    &s.kw.loc,
                    "url_rule has no `pool`: say where its requests go",
                );
            }
            return;
        };
        self.pool_refs.push(PoolRef {
            name: pool.clone(),
            loc: pool_loc.clone(),
            what: "url_rule",
        });
        self.config.rules.push(UrlRule {
            loc: s.kw.loc.clone(),
            name,
            host,
            path,
            priority,
            pool,
            pool_loc,
        });
    }

    // ----- whole-file checks -----------------------------------------------------------

    fn check_references(&mut self) {
        let refs = std::mem::take(&mut self.pool_refs);
        // Declared names in a fixed order (the first of equally close ones is suggested),
        // and the suggestion for each name already looked up.
        let mut known: Vec<&str> = self.pools_seen.keys().map(String::as_str).collect();
        known.sort_unstable();
        let mut suggested: HashMap<&str, Option<&str>> = HashMap::new();
        for r in &refs {
            if !self.pools_seen.contains_key(&r.name) {
                let mut msg = match r.what {
                    "url_rule" => format!(
                        "url_rule points at pool `{}`, which is not declared",
                        r.name
                    ),
                    what => format!("`{what}` names pool `{}`, which is not declared", r.name),
                };
                let suggester = &mut self.suggester;
                let k = *suggested
                    .entry(r.name.as_str())
                    .or_insert_with(|| suggester.suggest(&r.name, known.iter().copied()));
                if let Some(k) = k {
                    msg.push_str(&format!("; did you mean `{k}`?"));
                }
                self.errors.push(ConfigError::new(r.loc.clone(), msg));
            }
        }
        let defaults = std::mem::take(&mut self.l7_defaults);
        if let Some((first, first_loc)) = defaults.first() {
            for (other, loc) in &defaults[1..] {
                if other != first {
                    self.err(
                        loc,
                        format!(
                            "default_pool `{other}` differs from `{first}` of the virtual_server \
                             at line {}: the card has one rule table, so every L7 \
                             virtual_server uses the same default pool",
                            first_loc.line
                        ),
                    );
                }
            }
        }
    }
}

/// A pool being read.
#[derive(Default)]
struct PoolB {
    seen: Seen,
    /// Pool keywords given (for "belongs to a pool" errors in a virtual_server).
    settings: Vec<(String, Loc)>,
    /// `real_server` lines seen, including wrong ones.
    server_lines: usize,
    /// Line of the `real_server` of each address in `servers`.
    server_addrs: HashMap<SocketAddrV4, u32>,
    card_index: Option<u8>,
    sched: Option<Scheduler>,
    fallback: bool,
    hash_port: bool,
    persistence: Option<(u32, Loc)>,
    granularity: Option<(Ipv4Addr, Loc)>,
    delay_loop: Option<Duration>,
    sorry: Option<(SocketAddrV4, Loc)>,
    quorum: Option<u32>,
    hysteresis: Option<u32>,
    alpha: bool,
    omega: bool,
    inhibit: bool,
    virtualhost: Option<String>,
    feedback: Option<Feedback>,
    servers: Vec<Server>,
}

/// The settings of a connecting checker being read.
#[derive(Default)]
struct CommonB {
    seen: Seen,
    connect_ip: Option<Ipv4Addr>,
    connect_port: Option<u16>,
    connect_timeout: Option<Duration>,
    retry: Option<u32>,
    delay_before_retry: Option<Duration>,
    delay_loop: Option<Duration>,
}

impl CommonB {
    fn finish(self, loc: Loc, server: Option<SocketAddrV4>) -> CheckCommon {
        let connect_to = match (self.connect_ip, self.connect_port) {
            (None, None) => None,
            (ip, port) => {
                let base = server.unwrap_or_else(|| SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0));
                Some(SocketAddrV4::new(
                    ip.unwrap_or(*base.ip()),
                    port.unwrap_or(base.port()),
                ))
            }
        };
        CheckCommon {
            loc,
            connect_to,
            connect_timeout: self.connect_timeout.unwrap_or(Duration::from_secs(5)),
            retry: self.retry.unwrap_or(1),
            delay_before_retry: self.delay_before_retry.unwrap_or(Duration::from_secs(1)),
            delay_loop: self.delay_loop,
        }
    }
}

/// `XX:XX:XX:XX:XX:XX` (or with `-`).
fn parse_mac(s: &str) -> Option<[u8; 6]> {
    let parts: Vec<&str> = s.split([':', '-']).collect();
    if parts.len() != 6 {
        return None;
    }
    let mut mac = [0u8; 6];
    for (m, p) in mac.iter_mut().zip(parts) {
        if p.len() != 2 || !p.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        *m = u8::from_str_radix(p, 16).ok()?;
    }
    Some(mac)
}

/// 32 hex digits.
fn parse_digest(s: &str) -> Option<[u8; 16]> {
    if s.len() != 32 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut d = [0u8; 16];
    for (i, b) in d.iter_mut().enumerate() {
        *b = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::super::patterns::{SUGGEST_BUDGET_BASE, SUGGEST_BUDGET_PER_BYTE};
    use super::super::syntax::parse_tree;
    use super::*;

    /// Suggestion work and errors of `text`.
    fn work(text: &str) -> (u64, Vec<ConfigError>) {
        let mut e = Vec::new();
        let t = parse_tree("w.conf", text.as_bytes(), &mut e);
        let w = run(&t.stmts, t.complete, text.len(), &mut e).suggester.work;
        (w, e)
    }

    /// The most one `suggest` call does past the budget (a word and one candidate).
    const OVERSHOOT: u64 = 70 + 70 * 70;

    /// The budget for `text`: linear in its size.
    fn bound(text: &str) -> u64 {
        SUGGEST_BUDGET_BASE + SUGGEST_BUDGET_PER_BYTE * text.len() as u64 + OVERSHOOT
    }

    /// The "did you mean" search, the one place where the reader looks for something,
    /// counted in steps (candidates and distance cells): a misspelt keyword is looked up
    /// once however often it is repeated, and the work of any file is at most linear in its
    /// size.
    #[test]
    fn suggestion_work_is_linear_and_bounded() {
        let line = "  quorom 1\n  lvs_shed wlc\n  zzzzzz 1\n";
        let file = |n: usize| format!("pool p {{\n{}}}\n", line.repeat(n));
        let (one, e) = work(&file(1));
        assert!(one > 0);
        assert!(e[0].message.ends_with("did you mean `quorum`?"), "{e:?}");
        for n in [10, 1000, 20_000] {
            let (w, e) = work(&file(n));
            assert_eq!(w, one, "{n}");
            assert_eq!(e.len(), 3 * n);
            assert!(e[e.len() - 2]
                .message
                .ends_with("did you mean `lvs_sched`?"));
        }

        // Distinct misspellings, each 2 edits from a keyword (two letters replaced, one word
        // per pair of places): linear, and within the budget, which is linear in the file.
        let typos = |n: usize| {
            let mut words = Vec::new();
            for kw in ["persistence_granularity", "persistence_timeout"] {
                for p in 0..kw.len() {
                    for q in p + 1..kw.len() {
                        let mut w: Vec<u8> = kw.bytes().collect();
                        w[p] = b'Q';
                        w[q] = b'Z';
                        words.push(String::from_utf8(w).unwrap());
                    }
                }
            }
            assert!(n <= words.len());
            let body: String = words[..n].iter().map(|w| format!("  {w} 1\n")).collect();
            format!("pool p {{\n{body}}}\n")
        };
        let (w1, e) = work(&typos(100));
        assert!(
            e.iter().all(|e| e.message.contains("did you mean")),
            "{e:?}"
        );
        let (w2, _) = work(&typos(200));
        assert!(w2 > 2 * w1 - w1 / 10 && w2 < 2 * w1 + w1 / 10, "{w1} {w2}");
        let text = typos(424);
        let (w, e) = work(&text);
        assert!(w <= bound(&text), "{w}");
        assert!(e.iter().all(|e| e.message.contains("did you mean")));

        // n undeclared pool references, each close to the names of n declared pools:
        // comparing each with each is n² steps; the budget bounds it.
        let refs = |n: usize| {
            let mut t = String::new();
            for i in 0..n {
                t.push_str(&format!("pool pool-{i:05} {{ real_server 10.0.1.1 80 }}\n"));
            }
            for i in 0..n {
                t.push_str(&format!("url_rule {{ path /{i}; pool pool-{i:05}x }}\n"));
            }
            t
        };
        let (_, e) = work(&refs(3));
        assert_eq!(e.len(), 3);
        assert!(
            e[0].message.ends_with("did you mean `pool-00000`?"),
            "{e:?}"
        );
        for n in [100, 1000, 10_000] {
            let text = refs(n);
            let (w, e) = work(&text);
            assert_eq!(e.len(), n);
            assert!(w <= bound(&text), "{n}: {w}");
            assert!(e[0].message.ends_with("did you mean `pool-00000`?"));
        }
    }

    /// A duration that would be kept as 0 ns is refused where 0 is (the printed form of
    /// such a `delay_loop`, `0`, would be refused too); where 0 is allowed it is 0.
    #[test]
    fn durations_below_a_nanosecond_are_not_zero_by_accident() {
        let e = crate::config::parse("t.conf", "pool p {\n  delay_loop 1e-10\n}\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.conf:2:14: error: `delay_loop` 1e-10 s is out of range: durations are kept to \
             the nanosecond, give at least 0.000000001 s"
        );
        let c = crate::config::parse("t.conf", "pool p { delay_loop 0.000000001 }\n").unwrap();
        assert_eq!(c.pools[0].delay_loop, Duration::from_nanos(1));
        let text =
            "pool p { real_server 10.0.0.1 80 { TCP_CHECK { delay_before_retry 1e-10 } } }\n";
        let c = crate::config::parse("t.conf", text).unwrap();
        let Checker::Tcp(t) = &c.pools[0].servers[0].checkers[0] else {
            panic!("{c:?}");
        };
        assert_eq!(t.common.delay_before_retry, Duration::ZERO);
    }

    #[test]
    fn macs_and_digests() {
        assert_eq!(
            parse_mac("02:00:0a:00:01:0B"),
            Some([2, 0, 0x0a, 0, 1, 0x0b])
        );
        assert_eq!(parse_mac("02:00:0a:00:01"), None);
        assert_eq!(parse_mac("02:00:0a:00:01:0"), None);
        assert_eq!(parse_mac("02:00:0a:00:01:+1"), None);
        let d = parse_digest("9b3a0c85a887a256d6939da88aabd8cd").unwrap();
        assert_eq!(d[0], 0x9b);
        assert_eq!(d[15], 0xcd);
        assert!(parse_digest("9b3a").is_none());
        assert!(parse_digest("zb3a0c85a887a256d6939da88aabd8cd").is_none());
        assert!(parse_digest("ébcdefabcdefabcdefabcdefabcdefab").is_none());
    }
}
