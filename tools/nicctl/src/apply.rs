//! `nicctl rules load`: program a checked configuration into the card without dropping
//! established connections.
//!
//! Order of work (nothing is sent before the whole file has been parsed, planned against the
//! card's capacities and every real server's MAC is known):
//! 1. timeouts (`lvs_timeouts`);
//! 2. pools (scheduler settings; existing servers and their counts are kept);
//! 3. real servers: a server already on the card with the same pool, address and port keeps
//!    its card index (and so its counters); the others get free indices;
//! 4. the URL rules into the inactive bank, its default pool, then one bank switch (a request
//!    in flight finishes on the bank it started on), then the rule-set record;
//! 5. virtual services;
//! 6. whatever the card has that the file does not: services, then servers (their
//!    established flows keep flowing until they end), then pools.

use std::collections::{BTreeMap, HashMap};
use std::net::{Ipv4Addr, SocketAddrV4};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use splicenic_driver::config::{self, Limits, Plan};
use splicenic_driver::datapath::Port;
use splicenic_driver::flowmgr::{ServiceInfo, TcpTimeoutState};
use splicenic_driver::Card;

/// Server-side local addresses the data path holds (`DP.LOCAL_ADDR[0..4]`).
const LOCAL_ADDRESSES: usize = 4;

use crate::progress::Progress;

/// The card's configuration as read back through the mailbox.
#[derive(Debug, Default, Clone)]
pub struct CardConfig {
    /// Services by card index.
    pub services: BTreeMap<u8, ServiceInfo>,
    /// Pools by card index.
    pub pools: BTreeMap<u8, splicenic_driver::PoolConfig>,
    /// Real servers by card index, with their state.
    pub servers: BTreeMap<u8, splicenic_driver::flowmgr::ServerInfo>,
}

impl CardConfig {
    /// Reads every service, pool and real server the card has.
    pub fn read(card: &mut Card) -> Result<CardConfig> {
        let map = card
            .config_map()
            .context("reading the card's configuration map")?;
        let mut out = CardConfig::default();
        for i in map.service_indexes() {
            if let Some(s) = card.service_get(i)? {
                out.services.insert(i, s);
            }
        }
        for p in map.pool_indexes() {
            if let Some(c) = card.pool_get(p)? {
                out.pools.insert(p, c.config);
            }
        }
        for rs in map.server_indexes() {
            if let Some(s) = card.server_get(rs)? {
                out.servers.insert(rs, s);
            }
        }
        Ok(out)
    }
}

/// The limits of the card's gateware and firmware.
pub fn card_limits(card: &mut Card) -> Result<Limits> {
    let dp = card
        .datapath()
        .context("the card has no splicer data path")?;
    Ok(Limits::from_params(dp.params()))
}

/// The host's IPv4 neighbour table (`/proc/net/arp`): address -> MAC of complete entries.
pub fn neighbours() -> HashMap<Ipv4Addr, [u8; 6]> {
    let text = std::fs::read_to_string("/proc/net/arp").unwrap_or_default();
    parse_arp(&text)
}

fn parse_arp(text: &str) -> HashMap<Ipv4Addr, [u8; 6]> {
    let mut out = HashMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 {
            continue;
        }
        // Flags 0x2 = ATF_COM (complete).
        let complete = u32::from_str_radix(f[2].trim_start_matches("0x"), 16)
            .map(|v| v & 0x2 != 0)
            .unwrap_or(false);
        if let (Ok(ip), Some(mac), true) = (f[0].parse(), parse_mac(f[3]), complete) {
            out.insert(ip, mac);
        }
    }
    out
}

/// `aa:bb:cc:dd:ee:ff` (or with `-`).
pub fn parse_mac(s: &str) -> Option<[u8; 6]> {
    let parts: Vec<&str> = s.split([':', '-']).collect();
    if parts.len() != 6 {
        return None;
    }
    let mut mac = [0u8; 6];
    for (m, p) in mac.iter_mut().zip(parts) {
        if p.len() != 2 {
            return None;
        }
        *m = u8::from_str_radix(p, 16).ok()?;
    }
    Some(mac)
}

/// The MAC of `addr`: the configured one, else the neighbour table's, else an error saying
/// how to give it.
pub fn resolve_mac(
    addr: SocketAddrV4,
    configured: Option<[u8; 6]>,
    neigh: &HashMap<Ipv4Addr, [u8; 6]>,
    origin: &str,
) -> Result<[u8; 6]> {
    if let Some(m) = configured {
        return Ok(m);
    }
    match neigh.get(addr.ip()) {
        Some(m) => Ok(*m),
        None => bail!(
            "{origin}: real server {addr} has no MAC address: the card sends its frames to \
             the server's MAC; give it with `mac XX:XX:XX:XX:XX:XX` (or --mac), or make the \
             host resolve it first (ping {})",
            addr.ip()
        ),
    }
}

/// What `rules load` did.
#[derive(Debug, Default)]
pub struct ApplyReport {
    pub services: usize,
    pub pools: usize,
    pub servers: usize,
    pub rules: usize,
    pub removed_services: usize,
    pub removed_servers: usize,
    pub removed_pools: usize,
    pub active_bank: u8,
    pub rules_seconds: f64,
}

/// Programs `plan` into `card` (see the module documentation for the order).
pub fn apply(
    card: &mut Card,
    cfg: &config::Config,
    plan: &Plan,
    progress: &mut Progress,
) -> Result<ApplyReport> {
    let neigh = neighbours();
    // Resolve every MAC before touching the card.
    let mut macs = HashMap::new();
    for pool in &plan.pools {
        for s in pool.servers.iter().chain(pool.sorry.iter()) {
            let m = resolve_mac(s.addr, s.mac, &neigh, &s.loc.to_string())?;
            macs.insert((pool.index, s.addr), m);
        }
    }
    let current = CardConfig::read(card)?;
    let mut report = ApplyReport::default();

    // 0. The card's own addresses.
    {
        let a = &cfg.card;
        let mut dp = card.datapath()?;
        if let Some(m) = a.client_mac {
            dp.set_port_mac(Port::Client, m)?;
        }
        if let Some(m) = a.server_mac {
            dp.set_port_mac(Port::Server, m)?;
        }
        if !a.local_addresses.is_empty() {
            for i in 0..LOCAL_ADDRESSES {
                match a.local_addresses.get(i) {
                    Some(ip) => dp.set_local(i, *ip, true)?,
                    None => dp.set_local(i, Ipv4Addr::UNSPECIFIED, false)?,
                }
            }
        }
    }

    // 1. Timeouts.
    let t = cfg.timeouts;
    if let Some(v) = t.tcp {
        card.timeout_set(TcpTimeoutState::Established, v)
            .context("setting the tcp (ESTABLISHED) timeout")?;
    }
    if let Some(v) = t.tcpfin {
        card.timeout_set(TcpTimeoutState::FinWait, v)
            .context("setting the tcpfin (FIN_WAIT) timeout")?;
    }

    // 2. Pools.
    for pool in &plan.pools {
        card.pool_set(pool.index, &pool.config)
            .with_context(|| format!("creating pool {} ({})", pool.name, pool.index))?;
        report.pools += 1;
    }

    // 3. Servers at the plan's indices (declaration order). A server already at its index
    //    with the same pool, address and port is edited in place (its counts stay); another
    //    server at that index is removed first.
    let mut planned: HashMap<u8, (u8, SocketAddrV4)> = HashMap::new();
    for pool in &plan.pools {
        for s in pool.servers.iter().chain(pool.sorry.iter()) {
            planned.insert(s.rs, (pool.index, s.addr));
        }
    }
    let same = |rs: u8| {
        current.servers.get(&rs).map(|c| {
            (
                c.server.pool,
                SocketAddrV4::new(c.server.addr, c.server.port),
            )
        }) == planned.get(&rs).copied()
    };
    let mut stale: Vec<u8> = Vec::new();
    for &rs in current.servers.keys() {
        if !same(rs) {
            if planned.contains_key(&rs) {
                card.server_delete(rs)
                    .with_context(|| format!("removing real server index {rs} to reuse it"))?;
                report.removed_servers += 1;
            } else {
                stale.push(rs);
            }
        }
    }
    for pool in &plan.pools {
        for s in &pool.servers {
            let rsv = s.real_server(pool.index, macs[&(pool.index, s.addr)]);
            card.server_set(&rsv)
                .with_context(|| format!("{}: adding real server {}", s.loc, s.addr))?;
            report.servers += 1;
        }
    }

    // 4. Rules.
    let t0 = Instant::now();
    report.active_bank = load_rules(card, &plan.rules, progress)?;
    report.rules = plan.rules.rules.len();
    report.rules_seconds = t0.elapsed().as_secs_f64();

    // 5. Services.
    for s in &plan.services {
        card.service_set(s.index, s.vip, s.port, s.mode)
            .with_context(|| format!("{}: setting virtual service {}:{}", s.loc, s.vip, s.port))?;
        report.services += 1;
    }

    // 6. Remove what the file does not have.
    let planned_services: Vec<u8> = plan.services.iter().map(|s| s.index).collect();
    for &i in current.services.keys() {
        if !planned_services.contains(&i) {
            card.service_delete(i)?;
            report.removed_services += 1;
        }
    }
    for rs in stale {
        card.server_delete(rs)?;
        report.removed_servers += 1;
    }
    let planned_pools: Vec<u8> = plan.pools.iter().map(|p| p.index).collect();
    for &p in current.pools.keys() {
        if !planned_pools.contains(&p) {
            card.pool_delete(p)?;
            report.removed_pools += 1;
        }
    }
    Ok(report)
}

/// Writes `table` into the inactive bank, switches banks and stores the rule-set record
/// (with a progress bar). Returns the new active bank.
pub fn load_rules(
    card: &mut Card,
    table: &config::RuleTable,
    progress: &mut Progress,
) -> Result<u8> {
    progress.start(
        "loading rules into the inactive bank",
        table.rules.len() as u64,
    );
    let mut last = 0;
    let bank = config::load_rule_table(card, table, |done, _| {
        progress.inc((done - last) as u64);
        last = done;
    });
    progress.finish();
    Ok(bank?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arp_table_parses_complete_entries_only() {
        let t = "IP address       HW type     Flags       HW address            Mask     Device\n\
                 192.168.1.10     0x1         0x2         02:00:00:00:01:0a     *        eth0\n\
                 192.168.1.11     0x1         0x0         00:00:00:00:00:00     *        eth0\n";
        let m = parse_arp(t);
        assert_eq!(m.len(), 1);
        assert_eq!(m[&Ipv4Addr::new(192, 168, 1, 10)], [2, 0, 0, 0, 1, 10]);
    }

    #[test]
    fn macs() {
        assert_eq!(parse_mac("02:00:00:00:01:0A"), Some([2, 0, 0, 0, 1, 10]));
        assert_eq!(parse_mac("02-00-00-00-01-0a"), Some([2, 0, 0, 0, 1, 10]));
        assert_eq!(parse_mac("02:00:00:00:01"), None);
        assert_eq!(parse_mac("02:00:00:00:01:0g"), None);
        let e = resolve_mac(
            "192.168.9.9:80".parse().unwrap(),
            None,
            &HashMap::new(),
            "f.conf:3:5",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("f.conf:3:5") && e.contains("mac"), "{e}");
    }
}
