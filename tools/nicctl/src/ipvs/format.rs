//! Print a [`Snapshot`] exactly as ipvsadm 1.31 prints the IPVS table (`print_title`,
//! `print_service_entry`, `print_largenum`, `list_conn`, `list_timeout`, and `-S`).
//!
//! Addresses are always printed numerically: without `-n` ipvsadm would look up host and
//! service names, which a tool administering a card should not do behind the user's back,
//! so `-L` and `-L -n` print the same thing (and `-S` is always `-S -n`).
//!
//! `-S` output follows ipvsadm's, with two additions that `-R` reads back: ` -x U` and
//! ` -y L` after `-w` when a server has thresholds (ipvsadm's `-S` drops them), and
//! ` --mac M` when a server has a configured MAC address.
//!
//! # JSON (`--json`)
//!
//! A single object (keys sorted), then a newline:
//!
//! - `-L --json` and `-L -t VIP:port --json`:
//!   `{"version": "1.2.1", "table_size": 4096, "services": [SERVICE...]}` where SERVICE is
//!   `{"protocol": "TCP", "address": "10.0.0.1", "port": 80, "scheduler": "wlc",
//!   "sched_flags": ["sh-port", ...], "persistent": null | {"timeout": 360, "netmask":
//!   "255.255.255.255"}, "stats": STATS, "rates": RATES, "servers": [SERVER...]}`, SERVER is
//!   `{"address", "port", "mac": null | "02:00:5e:10:00:01", "forward": "Masq", "weight",
//!   "active_conns", "inactive_conns", "persistent_conns", "u_threshold", "l_threshold",
//!   "stats", "rates"}`, STATS is `{"conns", "inpkts", "outpkts", "inbytes", "outbytes"}` and
//!   RATES is `{"cps", "inpps", "outpps", "inbps", "outbps"}` (per second; "bps" are bytes).
//!   Services and servers are sorted as in the text listing unless `--nosort`. Counters and
//!   rates are always included; `--stats`, `--rate`, `--exact`, `--thresholds` and
//!   `--persistent-conn` do not change the JSON.
//! - `-L -c --json`: `{"connections": [{"protocol": "TCP", "expire": 899 (whole seconds),
//!   "state": "ESTABLISHED", "client": ENDPOINT, "virtual": ENDPOINT, "server": ENDPOINT}]}`
//!   with ENDPOINT `{"address": "203.0.113.7", "port": 51234}`.
//! - `-L --timeout --json`: `{"timeouts": {"tcp": 900, "tcpfin": 120, "udp": 300}}`.

use std::net::{Ipv4Addr, SocketAddrV4};

use serde_json::{json, Value};

use super::args::{server_args, service_args, ListOptions, ServerSpec, ServiceSpec};
use super::model::{
    ConnEntry, Counters, Rates, ServerEntry, ServiceEntry, Snapshot, Timeouts, FORWARD,
    IPVS_VERSION, PROTOCOL,
};

/// A listing that cannot be printed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// `-L -t VIP:port` for a service that does not exist (ipvsadm's message).
    #[error("No such service")]
    NoSuchService(SocketAddrV4),
}

/// What `-L` with `opts` prints for `snap` (ipvsadm's `CMD_LIST` dispatch: `-c`, then a
/// single service, then `--timeout`, then the whole table).
pub fn list(snap: &Snapshot, opts: &ListOptions) -> Result<String, FormatError> {
    if opts.json {
        return json(snap, opts);
    }
    if opts.connections {
        return Ok(connections(&snap.conns, opts.persistent_conn));
    }
    let style = Style::from(opts);
    if let Some(vip) = opts.service {
        let svc = snap
            .services
            .iter()
            .find(|s| s.vip == vip)
            .ok_or(FormatError::NoSuchService(vip))?;
        let mut out = title(style);
        service_entry(&mut out, svc, style);
        return Ok(out);
    }
    if opts.timeout {
        return Ok(timeout_line(&snap.timeouts));
    }
    let mut out = version_line(snap.table_size);
    out.push_str(&title(style));
    for svc in sorted_services(&snap.services, style.nosort) {
        service_entry(&mut out, svc, style);
    }
    Ok(out)
}

/// `IP Virtual Server version 1.2.1 (size=4096)` and a newline.
pub fn version_line(table_size: u32) -> String {
    format!("IP Virtual Server version {IPVS_VERSION} (size={table_size})\n")
}

/// `--timeout`: `Timeout (tcp tcpfin udp): 900 120 300` and a newline.
pub fn timeout_line(t: &Timeouts) -> String {
    format!(
        "Timeout (tcp tcpfin udp): {} {} {}\n",
        t.tcp, t.tcpfin, t.udp
    )
}

/// `-S`: the table as `-A`/`-a` lines, sorted as the listing is.
pub fn save(snap: &Snapshot) -> String {
    let mut out = String::new();
    for svc in sorted_services(&snap.services, false) {
        let spec = ServiceSpec {
            vip: svc.vip,
            sched: svc.sched,
            persistent: svc.persistent,
            sched_flags: svc.sched_flags,
        };
        out.push_str(&format!("-A {}\n", service_args(&spec)));
        for srv in sorted_servers(&svc.servers, false) {
            let spec = ServerSpec {
                service: svc.vip,
                server: srv.addr,
                weight: srv.weight,
                upper: srv.upper,
                lower: srv.lower,
                mac: srv.mac,
            };
            out.push_str(&format!("-a {}\n", server_args(&spec)));
        }
    }
    out
}

/// `-c`: the connection entries (`/proc/net/ip_vs_conn` as ipvsadm prints it). With
/// `--persistent-conn` the header has the persistence-engine columns; the card has no
/// persistence engine, so the rows never do (as with ipvsadm for entries without one).
pub fn connections(conns: &[ConnEntry], persistent_conn: bool) -> String {
    let mut out = String::from("IPVS connection entries\n");
    if persistent_conn {
        out.push_str(&format!(
            "pro expire {:<11} {:<18} {:<18} {:<18} {:<16} {}\n",
            "state", "source", "virtual", "destination", "pe name", "pe_data"
        ));
    } else {
        out.push_str(&format!(
            "pro expire {:<11} {:<18} {:<18} {}\n",
            "state", "source", "virtual", "destination"
        ));
    }
    for c in conns {
        let secs = c.expire.as_secs();
        let expire = format!("{:02}:{:02}", secs / 60, secs % 60);
        out.push_str(&format!(
            "{:<3} {:<6} {:<11} {:<18} {:<18} {}\n",
            PROTOCOL,
            expire,
            c.state.as_str(),
            c.client.to_string(),
            c.vaddr.to_string(),
            c.server
        ));
    }
    out
}

/// ipvsadm's `print_largenum`: `%9llu` below 10^8, else scaled to K/M/G/T in 8 columns;
/// with `--exact` the whole number, at least 9 columns and always one leading space.
pub fn largenum(n: u64, exact: bool) -> String {
    if exact {
        let len = n.to_string().len();
        let width = if len <= 8 { 9 } else { len + 1 };
        return format!("{n:>width$}");
    }
    if n < 100_000_000 {
        format!("{n:>9}")
    } else if n < 1_000_000_000 {
        format!("{:>8}K", n / 1_000)
    } else if n < 100_000_000_000 {
        format!("{:>8}M", n / 1_000_000)
    } else if n < 100_000_000_000_000 {
        format!("{:>8}G", n / 1_000_000_000)
    } else {
        format!("{:>8}T", n / 1_000_000_000_000)
    }
}

/// `--json`: see the module documentation for the schema.
pub fn json(snap: &Snapshot, opts: &ListOptions) -> Result<String, FormatError> {
    let v = if opts.connections {
        json!({ "connections": snap.conns.iter().map(conn_json).collect::<Vec<_>>() })
    } else if let Some(vip) = opts.service {
        let svc = snap
            .services
            .iter()
            .find(|s| s.vip == vip)
            .ok_or(FormatError::NoSuchService(vip))?;
        json!({
            "version": IPVS_VERSION,
            "table_size": snap.table_size,
            "services": [service_json(svc, opts.nosort)],
        })
    } else if opts.timeout {
        let t = snap.timeouts;
        json!({ "timeouts": { "tcp": t.tcp, "tcpfin": t.tcpfin, "udp": t.udp } })
    } else {
        json!({
            "version": IPVS_VERSION,
            "table_size": snap.table_size,
            "services": sorted_services(&snap.services, opts.nosort)
                .into_iter()
                .map(|s| service_json(s, opts.nosort))
                .collect::<Vec<_>>(),
        })
    };
    // Serialising a Value built from strings and integers cannot fail.
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    Ok(s)
}

fn endpoint_json(a: SocketAddrV4) -> Value {
    json!({ "address": a.ip().to_string(), "port": a.port() })
}

fn stats_json(c: &Counters) -> Value {
    json!({
        "conns": c.conns, "inpkts": c.inpkts, "outpkts": c.outpkts,
        "inbytes": c.inbytes, "outbytes": c.outbytes,
    })
}

fn rates_json(r: &Rates) -> Value {
    json!({
        "cps": r.cps, "inpps": r.inpps, "outpps": r.outpps,
        "inbps": r.inbps, "outbps": r.outbps,
    })
}

fn conn_json(c: &ConnEntry) -> Value {
    json!({
        "protocol": PROTOCOL,
        "expire": c.expire.as_secs(),
        "state": c.state.as_str(),
        "client": endpoint_json(c.client),
        "virtual": endpoint_json(c.vaddr),
        "server": endpoint_json(c.server),
    })
}

fn service_json(s: &ServiceEntry, nosort: bool) -> Value {
    json!({
        "protocol": PROTOCOL,
        "address": s.vip.ip().to_string(),
        "port": s.vip.port(),
        "scheduler": s.sched.name(),
        "sched_flags": s.sched_flags.names(s.sched),
        "persistent": s.persistent.map(|p| json!({
            "timeout": p.timeout,
            "netmask": p.netmask.to_string(),
        })),
        "stats": stats_json(&s.stats),
        "rates": rates_json(&s.rates),
        "servers": sorted_servers(&s.servers, nosort)
            .into_iter()
            .map(server_json)
            .collect::<Vec<_>>(),
    })
}

fn server_json(d: &ServerEntry) -> Value {
    json!({
        "address": d.addr.ip().to_string(),
        "port": d.addr.port(),
        "mac": d.mac.map(|m| m.to_string()),
        "forward": FORWARD,
        "weight": d.weight,
        "active_conns": d.active,
        "inactive_conns": d.inactive,
        "persistent_conns": d.persist,
        "u_threshold": d.upper,
        "l_threshold": d.lower,
        "stats": stats_json(&d.stats),
        "rates": rates_json(&d.rates),
    })
}

/// Which of ipvsadm's listing formats applies (its FMT_* flags, in its precedence).
#[derive(Debug, Clone, Copy, Default)]
struct Style {
    stats: bool,
    rate: bool,
    thresholds: bool,
    persistent_conn: bool,
    exact: bool,
    nosort: bool,
}

impl From<&ListOptions> for Style {
    fn from(o: &ListOptions) -> Self {
        Style {
            stats: o.stats,
            rate: o.rate,
            thresholds: o.thresholds,
            persistent_conn: o.persistent_conn,
            exact: o.exact,
            nosort: o.nosort,
        }
    }
}

/// ipvsadm's `print_title`.
fn title(f: Style) -> String {
    const NAME: &str = "Prot LocalAddress:Port";
    const SUB: &str = "  -> RemoteAddress:Port\n";
    if f.stats {
        format!(
            "{NAME:<33} {:>8} {:>8} {:>8} {:>8} {:>8}\n{SUB}",
            "Conns", "InPkts", "OutPkts", "InBytes", "OutBytes"
        )
    } else if f.rate {
        format!(
            "{NAME:<33} {:>8} {:>8} {:>8} {:>8} {:>8}\n{SUB}",
            "CPS", "InPPS", "OutPPS", "InBPS", "OutBPS"
        )
    } else if f.thresholds {
        format!(
            "{NAME:<33} {:<10} {:<10} {:<10} {:<10}\n{SUB}",
            "Uthreshold", "Lthreshold", "ActiveConn", "InActConn"
        )
    } else if f.persistent_conn {
        format!(
            "{NAME:<33} {:<9} {:<11} {:<10} {:<10}\n{SUB}",
            "Weight", "PersistConn", "ActiveConn", "InActConn"
        )
    } else {
        "Prot LocalAddress:Port Scheduler Flags\n  \
         -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n"
            .to_string()
    }
}

/// `s` cut to at most `n` characters (ipvsadm truncates its name buffers).
fn truncated(mut s: String, n: usize) -> String {
    s.truncate(n);
    s
}

/// ipvsadm's `print_service_entry` for listings.
fn service_entry(out: &mut String, svc: &ServiceEntry, f: Style) {
    let name = truncated(format!("{PROTOCOL:<4} {}", svc.vip), 33);
    if f.stats {
        let c = &svc.stats;
        out.push_str(&format!("{name:<33}"));
        for n in [c.conns, c.inpkts, c.outpkts, c.inbytes, c.outbytes] {
            out.push_str(&largenum(n, f.exact));
        }
    } else if f.rate {
        let r = &svc.rates;
        out.push_str(&format!("{name:<33}"));
        for n in [r.cps, r.inpps, r.outpps, r.inbps, r.outbps] {
            out.push_str(&largenum(n, f.exact));
        }
    } else {
        out.push_str(&format!("{name} {}", svc.sched));
        if !svc.sched_flags.is_empty() {
            out.push_str(&format!(
                " ({})",
                svc.sched_flags.names(svc.sched).join(",")
            ));
        }
        if let Some(p) = svc.persistent {
            out.push_str(&format!(" persistent {}", p.timeout));
            if p.netmask != Ipv4Addr::BROADCAST {
                out.push_str(&format!(" mask {}", p.netmask));
            }
        }
    }
    out.push('\n');
    for d in sorted_servers(&svc.servers, f.nosort) {
        server_entry(out, d, f);
    }
}

/// The destination lines of `print_service_entry`.
fn server_entry(out: &mut String, d: &ServerEntry, f: Style) {
    let name = truncated(d.addr.to_string(), 28);
    if f.stats {
        let c = &d.stats;
        out.push_str(&format!("  -> {name:<28}"));
        for n in [c.conns, c.inpkts, c.outpkts, c.inbytes, c.outbytes] {
            out.push_str(&largenum(n, f.exact));
        }
        out.push('\n');
    } else if f.rate {
        let r = &d.rates;
        out.push_str(&format!(
            "  -> {name:<28} {:>8} {:>8} {:>8}",
            r.cps, r.inpps, r.outpps
        ));
        out.push_str(&largenum(r.inbps, f.exact));
        out.push_str(&largenum(r.outbps, f.exact));
        out.push('\n');
    } else if f.thresholds {
        out.push_str(&format!(
            "  -> {name:<28} {:<10} {:<10} {:<10} {:<10}\n",
            d.upper, d.lower, d.active, d.inactive
        ));
    } else if f.persistent_conn {
        out.push_str(&format!(
            "  -> {name:<28} {:<9} {:<11} {:<10} {:<10}\n",
            d.weight, d.persist, d.active, d.inactive
        ));
    } else {
        out.push_str(&format!(
            "  -> {name:<28} {FORWARD:<7} {:<6} {:<10} {:<10}\n",
            d.weight, d.active, d.inactive
        ));
    }
}

/// Services by address then port (libipvs `ipvs_cmp_services`, compared as unsigned
/// numbers), unless `nosort`.
fn sorted_services(s: &[ServiceEntry], nosort: bool) -> Vec<&ServiceEntry> {
    let mut v: Vec<&ServiceEntry> = s.iter().collect();
    if !nosort {
        v.sort_by_key(|s| (u32::from(*s.vip.ip()), s.vip.port()));
    }
    v
}

/// Servers by address then port (libipvs `ipvs_cmp_dests`), unless `nosort`.
fn sorted_servers(s: &[ServerEntry], nosort: bool) -> Vec<&ServerEntry> {
    let mut v: Vec<&ServerEntry> = s.iter().collect();
    if !nosort {
        v.sort_by_key(|d| (u32::from(*d.addr.ip()), d.addr.port()));
    }
    v
}

#[cfg(test)]
mod tests;
