//! `nicctl ipvsadm ...`: ipvsadm's commands carried out on the card, and the card's table
//! read back as an [`ipvs::model::Snapshot`] for ipvsadm's listings.
//!
//! Mapping: an ipvsadm service is a card virtual service in L4 mode with a pool of its own
//! (`-A` takes the lowest free service and pool indices); its real servers are the pool's.
//! A content-switched (L7) service loaded from a configuration file lists the servers of
//! every pool on the card (its URL rules may pick any of them) under its default pool's
//! scheduler; ipvsadm cannot edit it (`nicctl rules load` does).
//!
//! Counters: `Conns` is the firmware's count of connections scheduled to a server;
//! `InPkts`/`InBytes` (client to server) and `OutPkts`/`OutBytes` (server to client) are
//! the data path's per-server, per-direction counters. A service's `InPkts`/`InBytes` are
//! the data path's counters of frames received for its VIP (handshake and request frames
//! the card answers itself included, as IPVS counts every packet from clients), its
//! `OutPkts`/`OutBytes` the sum over its servers.

use std::collections::BTreeMap;
use std::io::Read;
use std::net::SocketAddrV4;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use splicenic_driver::datapath::StatsSnapshot;
use splicenic_driver::flowmgr::{
    FlowInfo, PoolConfig, RealServer, ServerInfo, ServiceMode, POOLS, REAL_SERVERS, SERVICES,
};
use splicenic_driver::{Card, TcpTimeoutState};

use crate::apply::{neighbours, resolve_mac, CardConfig};
use crate::ipvs::args::{IpvsCommand, ListOptions, ServerSpec, ServiceSpec};
use crate::ipvs::format;
use crate::ipvs::memory::ApplyError;
use crate::ipvs::model::{
    ConnEntry, Counters, MacAddr, Persistence, Rates, SchedFlags, ServerEntry, ServiceEntry,
    Snapshot, TcpState, Timeouts,
};

/// Pool settings from `-s`, `-p`, `-M`, `-b`.
fn pool_config(spec: &ServiceSpec) -> Result<PoolConfig> {
    let mut c = PoolConfig::new(spec.sched);
    // -b flags: flag-1 = sh/mh fallback, flag-2 = sh/mh port.
    c.fallback = spec.sched_flags.contains(SchedFlags::FLAG1);
    c.hash_port = spec.sched_flags.contains(SchedFlags::FLAG2);
    if spec.sched_flags.contains(SchedFlags::FLAG3) {
        bail!("scheduler flag-3 is not supported by the card");
    }
    c.persistence = spec.persistent.map(|p| (p.timeout, p.netmask));
    Ok(c)
}

fn sched_flags(c: &PoolConfig) -> SchedFlags {
    let mut f = SchedFlags::default();
    if c.fallback {
        f = f.union(SchedFlags::FLAG1);
    }
    if c.hash_port {
        f = f.union(SchedFlags::FLAG2);
    }
    f
}

/// The card's table, read once.
pub struct Table {
    pub cfg: CardConfig,
}

impl Table {
    pub fn read(card: &mut Card) -> Result<Table> {
        Ok(Table {
            cfg: CardConfig::read(card)?,
        })
    }

    fn service(&self, vip: SocketAddrV4) -> Option<(u8, ServiceMode)> {
        self.cfg
            .services
            .iter()
            .find(|(_, s)| SocketAddrV4::new(s.vip, s.port) == vip)
            .map(|(&i, s)| (i, s.mode))
    }

    /// The pool of an L4 service; errors for a missing or content-switched one.
    fn l4_pool(&self, vip: SocketAddrV4, missing: ApplyError) -> Result<(u8, u8)> {
        match self.service(vip) {
            None => bail!("{missing}"),
            Some((i, ServiceMode::L4 { pool })) => Ok((i, pool)),
            Some((_, ServiceMode::L7 { .. })) => bail!(
                "service {vip} is content-switched (URL rules choose its pools): change it \
                 with `nicctl rules load FILE`"
            ),
        }
    }

    fn server_in(&self, pool: u8, addr: SocketAddrV4) -> Option<(u8, &ServerInfo)> {
        self.cfg
            .servers
            .iter()
            .find(|(_, s)| {
                s.server.pool == pool && SocketAddrV4::new(s.server.addr, s.server.port) == addr
            })
            .map(|(&rs, s)| (rs, s))
    }

    /// Pools whose servers a service lists.
    fn pools_of(&self, mode: ServiceMode) -> Vec<u8> {
        match mode {
            ServiceMode::L4 { pool } => vec![pool],
            ServiceMode::L7 { fallback_pool } => {
                let mut v = vec![fallback_pool];
                v.extend(self.cfg.pools.keys().filter(|&&p| p != fallback_pool));
                v
            }
        }
    }

    /// The ipvsadm snapshot; `stats` adds the data path's counters.
    pub fn snapshot(&self, stats: Option<&StatsSnapshot>, table_size: u32) -> Snapshot {
        let mut services = Vec::new();
        for (&i, s) in &self.cfg.services {
            let pools = self.pools_of(s.mode);
            let first = self.cfg.pools.get(&pools[0]).copied().unwrap_or_default();
            let mut e = ServiceEntry::new(SocketAddrV4::new(s.vip, s.port), first.scheduler);
            e.persistent = first
                .persistence
                .map(|(timeout, netmask)| Persistence { timeout, netmask });
            e.sched_flags = sched_flags(&first);
            let mut out = (0u64, 0u64);
            for p in pools {
                for (&rs, sv) in self.cfg.servers.iter().filter(|(_, x)| x.server.pool == p) {
                    let mut se = ServerEntry::new(
                        SocketAddrV4::new(sv.server.addr, sv.server.port),
                        sv.server.weight,
                    );
                    se.mac = Some(MacAddr(sv.server.mac));
                    se.active = sv.stats.active;
                    se.inactive = sv.stats.inactive;
                    se.upper = sv.server.upper_threshold;
                    se.lower = sv.server.lower_threshold;
                    se.stats.conns = u64::from(sv.stats.connections);
                    if let Some(st) = stats {
                        let c = st.server(usize::from(rs));
                        se.stats.inpkts = c.in_frames;
                        se.stats.inbytes = c.in_bytes;
                        se.stats.outpkts = c.out_frames;
                        se.stats.outbytes = c.out_bytes;
                    }
                    e.stats.conns += se.stats.conns;
                    out.0 += se.stats.outpkts;
                    out.1 += se.stats.outbytes;
                    e.servers.push(se);
                }
            }
            if let Some(st) = stats {
                let (frames, bytes) = st.service(usize::from(i));
                e.stats.inpkts = frames;
                e.stats.inbytes = bytes;
                e.stats.outpkts = out.0;
                e.stats.outbytes = out.1;
            }
            services.push(e);
        }
        Snapshot {
            services,
            conns: Vec::new(),
            timeouts: Timeouts::default(),
            table_size,
        }
    }
}

/// IPVS state name of a flow.
fn tcp_state(s: TcpTimeoutState) -> TcpState {
    TcpState::ALL
        .into_iter()
        .find(|t| t.as_str().eq_ignore_ascii_case(s.name()))
        .unwrap_or(TcpState::None)
}

/// ipvsadm's connection entries from the card's flows.
pub fn conn_entries(flows: &[FlowInfo]) -> Vec<ConnEntry> {
    flows
        .iter()
        .map(|f| ConnEntry {
            expire: f.expires_in.unwrap_or_default(),
            state: tcp_state(f.state),
            client: f.client,
            vaddr: f.vip,
            server: f.server,
        })
        .collect()
}

/// The card's timeouts as ipvsadm shows them (udp: the IPVS default; the card has no UDP).
pub fn timeouts(card: &mut Card) -> Result<Timeouts> {
    let mut t = Timeouts::default();
    for (state, d) in card.flow_manager().timeouts()? {
        let secs = u32::try_from(d.as_secs()).unwrap_or(u32::MAX);
        match state {
            TcpTimeoutState::Established => t.tcp = secs,
            TcpTimeoutState::FinWait => t.tcpfin = secs,
            _ => {}
        }
    }
    Ok(t)
}

/// Reads the whole snapshot `opts` needs.
pub fn read_snapshot(card: &mut Card, opts: &ListOptions) -> Result<Snapshot> {
    let table = Table::read(card)?;
    let capacity = card.flow_manager().flow_stats()?.slot_capacity;
    let want_stats = opts.stats || opts.rate || opts.json;
    let stats = if want_stats {
        Some(card.datapath()?.stats()?)
    } else {
        None
    };
    let mut snap = table.snapshot(stats.as_ref(), capacity);
    if opts.rate {
        // One 2 s sample of the counters: the rate over that interval.
        eprintln!("nicctl: sampling the counters for 2 s for --rate");
        std::thread::sleep(Duration::from_secs(2));
        let t2 = Table::read(card)?;
        let s2 = card.datapath()?.stats()?;
        let later = t2.snapshot(Some(&s2), capacity);
        for e in &mut snap.services {
            if let Some(l) = later.services.iter().find(|x| x.vip == e.vip) {
                e.rates = rate(&e.stats, &l.stats, 2.0);
                for s in &mut e.servers {
                    if let Some(ls) = l.servers.iter().find(|x| x.addr == s.addr) {
                        s.rates = rate(&s.stats, &ls.stats, 2.0);
                    }
                }
            }
        }
    }
    if opts.timeout || opts.json {
        snap.timeouts = timeouts(card)?;
    }
    if opts.connections || opts.json {
        snap.conns = conn_entries(&card.flow_manager().flows(|_| {})?);
    }
    Ok(snap)
}

fn rate(a: &Counters, b: &Counters, secs: f64) -> Rates {
    let r = |x: u64, y: u64| (y.saturating_sub(x) as f64 / secs).round() as u64;
    Rates {
        cps: r(a.conns, b.conns),
        inpps: r(a.inpkts, b.inpkts),
        outpps: r(a.outpkts, b.outpkts),
        inbps: r(a.inbytes, b.inbytes),
        outbps: r(a.outbytes, b.outbytes),
    }
}

/// Carries out one ipvsadm command; listings go to the returned string.
pub fn execute(card: &mut Card, cmd: &IpvsCommand) -> Result<String> {
    match cmd {
        IpvsCommand::Help => Ok(crate::ipvs::args::usage()),
        IpvsCommand::Version => Ok(format!(
            "ipvsadm v1.31 compatible ({} {})\n",
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION")
        )),
        IpvsCommand::List(opts) => {
            let snap = read_snapshot(card, opts)?;
            if opts.json {
                Ok(format::json(&snap, opts)? + "\n")
            } else {
                Ok(format::list(&snap, opts)?)
            }
        }
        IpvsCommand::Save { .. } => {
            let snap = read_snapshot(card, &ListOptions::default())?;
            Ok(format::save(&snap))
        }
        IpvsCommand::Restore => {
            // At most one byte past the limit is read, so an endless input is refused
            // (`MAX_RESTORE_BYTES`) instead of filling memory; invalid UTF-8 is located by
            // the parser.
            let mut bytes = Vec::new();
            std::io::stdin()
                .take(crate::ipvs::args::MAX_RESTORE_BYTES as u64 + 1)
                .read_to_end(&mut bytes)
                .context("reading the -R input from standard input")?;
            let cmds =
                crate::ipvs::args::parse_restore(&bytes).map_err(|e| anyhow::anyhow!("{e}"))?;
            for (n, c) in cmds.iter().enumerate() {
                execute(card, c).with_context(|| format!("restoring command {}: {c}", n + 1))?;
            }
            Ok(String::new())
        }
        other => {
            modify(card, other)?;
            Ok(String::new())
        }
    }
}

fn free_index(used: impl Iterator<Item = u8>, n: u8, what: &str) -> Result<u8> {
    let used: Vec<u8> = used.collect();
    (0..n)
        .find(|i| !used.contains(i))
        .ok_or_else(|| anyhow::anyhow!("no free {what} on the card (it holds {n})"))
}

fn modify(card: &mut Card, cmd: &IpvsCommand) -> Result<()> {
    let table = Table::read(card)?;
    match cmd {
        IpvsCommand::AddService(spec) => {
            if table.service(spec.vip).is_some() {
                bail!("{}", ApplyError::ServiceExists);
            }
            let cfg = pool_config(spec)?;
            let svc = free_index(
                table.cfg.services.keys().copied(),
                SERVICES,
                "virtual service",
            )?;
            let used_pools =
                table
                    .cfg
                    .pools
                    .keys()
                    .copied()
                    .chain(table.cfg.services.values().flat_map(|s| match s.mode {
                        ServiceMode::L4 { pool } => Some(pool),
                        ServiceMode::L7 { fallback_pool } => Some(fallback_pool),
                    }));
            let pool = free_index(used_pools, POOLS, "pool")?;
            card.flow_manager().pool_set(pool, &cfg)?;
            card.flow_manager().service_set(
                svc,
                *spec.vip.ip(),
                spec.vip.port(),
                ServiceMode::L4 { pool },
            )?;
        }
        IpvsCommand::EditService(spec) => {
            let (_, pool) = table.l4_pool(spec.vip, ApplyError::NoSuchService)?;
            card.flow_manager().pool_set(pool, &pool_config(spec)?)?;
        }
        IpvsCommand::DeleteService(vip) => {
            let Some((i, mode)) = table.service(*vip) else {
                bail!("{}", ApplyError::NoSuchService);
            };
            card.flow_manager().service_delete(i)?;
            if let ServiceMode::L4 { pool } = mode {
                let shared = table.cfg.services.iter().any(|(&j, s)| {
                    j != i
                        && matches!(s.mode, ServiceMode::L4 { pool: p } | ServiceMode::L7 { fallback_pool: p } if p == pool)
                });
                if !shared {
                    for (&rs, _) in table
                        .cfg
                        .servers
                        .iter()
                        .filter(|(_, s)| s.server.pool == pool)
                    {
                        card.flow_manager().server_delete(rs)?;
                    }
                    card.flow_manager().pool_delete(pool)?;
                }
            }
        }
        IpvsCommand::Clear => {
            for &i in table.cfg.services.keys() {
                card.flow_manager().service_delete(i)?;
            }
            for &rs in table.cfg.servers.keys() {
                card.flow_manager().server_delete(rs)?;
            }
            for &p in table.cfg.pools.keys() {
                card.flow_manager().pool_delete(p)?;
            }
        }
        IpvsCommand::AddServer(spec) => {
            let (_, pool) = table.l4_pool(spec.service, ApplyError::ServiceNotDefined)?;
            if table.server_in(pool, spec.server).is_some() {
                bail!("{}", ApplyError::DestinationExists);
            }
            let rs = free_index(
                table.cfg.servers.keys().copied(),
                REAL_SERVERS,
                "real-server index",
            )?;
            card.flow_manager()
                .server_set(&real_server(spec, pool, rs, None)?)?;
        }
        IpvsCommand::EditServer(spec) => {
            let (_, pool) = table.l4_pool(spec.service, ApplyError::ServiceNotDefined)?;
            let Some((rs, cur)) = table.server_in(pool, spec.server) else {
                bail!("{}", ApplyError::NoSuchDestination);
            };
            card.flow_manager()
                .server_set(&real_server(spec, pool, rs, Some(cur.server.mac))?)?;
        }
        IpvsCommand::DeleteServer { service, server } => {
            let (_, pool) = table.l4_pool(*service, ApplyError::ServiceNotDefined)?;
            let Some((rs, _)) = table.server_in(pool, *server) else {
                bail!("{}", ApplyError::NoSuchDestination);
            };
            card.flow_manager().server_delete(rs)?;
        }
        IpvsCommand::Zero(svc) => {
            if let Some(v) = svc {
                if table.service(*v).is_none() {
                    bail!("{}", ApplyError::NoSuchService);
                }
                bail!(
                    "the card zeroes its counters all together: run `-Z` without a service \
                     to zero every service's counters"
                );
            }
            zero(card)?;
        }
        IpvsCommand::Set(t) => {
            if t.udp != 0 {
                bail!("the card serves TCP only: give the udp timeout as 0 (unchanged)");
            }
            if t.tcp != 0 {
                card.flow_manager()
                    .timeout_set(TcpTimeoutState::Established, t.tcp)?;
            }
            if t.tcpfin != 0 {
                card.flow_manager()
                    .timeout_set(TcpTimeoutState::FinWait, t.tcpfin)?;
            }
        }
        IpvsCommand::List(_)
        | IpvsCommand::Save { .. }
        | IpvsCommand::Restore
        | IpvsCommand::Help
        | IpvsCommand::Version => unreachable!("handled by execute"),
    }
    Ok(())
}

/// `-Z`: the firmware's connection counters and the data path's statistics.
pub fn zero(card: &mut Card) -> Result<()> {
    card.flow_manager().zero_counters()?;
    let mut dp = card.datapath()?;
    dp.set_stats_clear_on_snapshot(true)?;
    let r = dp.stats_snapshot().map(drop);
    dp.set_stats_clear_on_snapshot(false)?;
    r?;
    Ok(())
}

fn real_server(
    spec: &ServerSpec,
    pool: u8,
    rs: u8,
    keep_mac: Option<[u8; 6]>,
) -> Result<RealServer> {
    let mac = match (spec.mac, keep_mac) {
        (Some(m), _) => m.0,
        (None, Some(m)) => m,
        (None, None) => resolve_mac(spec.server, None, &neighbours(), "ipvsadm -a")?,
    };
    Ok(RealServer {
        pool,
        rs,
        addr: *spec.server.ip(),
        port: spec.server.port(),
        mac,
        weight: spec.weight,
        upper_threshold: spec.upper,
        lower_threshold: spec.lower,
    })
}

/// Keeps an IPVS rate estimator per service and server across samples.
#[derive(Default)]
pub struct Rates2 {
    est: BTreeMap<String, crate::ipvs::rate::RateEstimator>,
}

impl Rates2 {
    /// Feeds `snap`'s totals and writes the estimated rates into it.
    pub fn update(&mut self, now: Instant, snap: &mut Snapshot) {
        for s in &mut snap.services {
            let k = format!("{}", s.vip);
            let e = self.est.entry(k).or_default();
            e.sample(now, s.stats);
            s.rates = e.rates();
            for r in &mut s.servers {
                let k = format!("{}/{}", s.vip, r.addr);
                let e = self.est.entry(k).or_default();
                e.sample(now, r.stats);
                r.rates = e.rates();
            }
        }
    }
}
