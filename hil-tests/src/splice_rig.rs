//! The splice rig: the simulated card booted with the firmware and configured as a content
//! switch, with smoltcp peers on both ports (`net`). Used by the end-to-end tests and the
//! flow-manager bench.
//!
//! Topology: client 10.0.0.2 on the client segment talks to the virtual service
//! 10.0.0.100:80; real servers "alpha" 192.168.1.10 and "beta" 192.168.1.11 (port 8080) sit
//! on the server segment, where the card's own address is 192.168.1.1. The card answers ARP
//! for both of its addresses itself. L7 rules: path prefix `/static/` and Host
//! `*.img.example` go to pool 2, everything else to pool 1 (the bank's default pool).

use crate::boot_shared;
use crate::net::{HostId, Net, Segment, ServerId};
use anyhow::Result;
use splicenic_driver::datapath::{HostKind, L7Rule, PathKind, Port};
use splicenic_driver::{Card, PoolConfig, RealServer, Scheduler, ServiceMode};
use splicenic_sim::{Cpu, SimConfig};
use std::net::{Ipv4Addr, SocketAddrV4};

pub const VIP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 100);
pub const SERVICE: SocketAddrV4 = SocketAddrV4::new(VIP, 80);
pub const CLIENT_IP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
pub const LOCAL_IP: Ipv4Addr = Ipv4Addr::new(192, 168, 1, 1);
pub const SERVERS: [(&str, Ipv4Addr, [u8; 6]); 2] = [
    (
        "alpha",
        Ipv4Addr::new(192, 168, 1, 10),
        [0x02, 0, 0, 0, 1, 0x10],
    ),
    (
        "beta",
        Ipv4Addr::new(192, 168, 1, 11),
        [0x02, 0, 0, 0, 1, 0x11],
    ),
];
pub const CARD_MAC_C: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x01];
pub const CARD_MAC_S: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x02];
/// Listening sockets per real server (connections it accepts at once).
pub const BACKLOG: usize = 16;
/// Card cycles one exchange may take (0.13 s of card time).
pub const BUDGET: u64 = 20_000_000;

pub struct Rig {
    pub card: Card,
    pub net: Net,
    /// The client host.
    pub client: HostId,
    /// "alpha" and "beta".
    pub servers: Vec<ServerId>,
}

/// Variations of the rig.
pub struct Opts {
    /// Random seed of the client host (its first ISN, `net::first_isn`).
    pub client_seed: Option<u64>,
    /// Random seed of alpha.
    pub alpha_seed: Option<u64>,
    /// Both servers in pool 1 (rr) instead of one pool each.
    pub one_pool: bool,
    /// Soft core of the card ([`crate::test_cpu`] by default).
    pub cpu: Cpu,
}

impl Default for Opts {
    fn default() -> Opts {
        Opts {
            client_seed: None,
            alpha_seed: None,
            one_pool: false,
            cpu: crate::test_cpu(),
        }
    }
}

/// Boots the card with the firmware, programs the data path (MACs, server-side address,
/// L7 rules: `/static/` and Host `*.img.example` go to pool 2, everything else to pool 1)
/// and the flow manager (pool 1 = alpha, pool 2 = beta, service 0 = VIP:80 in L7 mode).
/// The default rig.
pub fn rig() -> Result<Rig> {
    rig_with(Opts::default())
}

/// A rig with `opts`.
pub fn rig_with(opts: Opts) -> Result<Rig> {
    let (mut card, sim, _) = boot_shared(SimConfig {
        cpu: opts.cpu,
        ..SimConfig::default()
    })?;
    {
        let mut dp = card.datapath()?;
        dp.set_port_mac(Port::Client, CARD_MAC_C)?;
        dp.set_port_mac(Port::Server, CARD_MAC_S)?;
        dp.set_local(0, LOCAL_IP, true)?;
        dp.l7_set_default_pool(1)?;
        dp.l7_load_rule(
            0,
            &L7Rule {
                priority: 10,
                path_kind: PathKind::Prefix,
                path: b"/static/".to_vec(),
                host_kind: HostKind::Any,
                host: vec![],
                rule_id: 1,
                pool: 2,
            },
        )?;
        dp.l7_load_rule(
            1,
            &L7Rule {
                priority: 20,
                path_kind: PathKind::Any,
                path: vec![],
                host_kind: HostKind::Suffix,
                host: b".img.example".to_vec(),
                rule_id: 2,
                pool: 2,
            },
        )?;
        dp.l7_switch_banks()?;
    }
    configure_flow_manager(&mut card, opts.one_pool)?;
    let mut net = Net::new(sim);
    net.capture(true);
    let cmac = [0x02, 0, 0, 0, 0, 0x02];
    let client = match opts.client_seed {
        Some(seed) => net.add_host_seeded(Segment::Client, cmac, CLIENT_IP, 24, seed),
        None => net.add_host(Segment::Client, cmac, CLIENT_IP, 24),
    };
    let mut servers = Vec::new();
    for (i, (name, ip, mac)) in SERVERS.into_iter().enumerate() {
        let h = match (i, opts.alpha_seed) {
            (0, Some(seed)) => net.add_host_seeded(Segment::Server, mac, ip, 24, seed),
            _ => net.add_host(Segment::Server, mac, ip, 24),
        };
        servers.push(net.serve_http(h, 8080, name, BACKLOG)?);
    }
    Ok(Rig {
        card,
        net,
        client,
        servers,
    })
}

/// The flow manager's configuration of the rig (pools, real servers, the L7 service): what
/// the host sends after boot, and again after a firmware restart.
pub fn configure_flow_manager(card: &mut Card, one_pool: bool) -> Result<()> {
    for pool in [1, 2] {
        let sched = if one_pool {
            Scheduler::Rr
        } else {
            Scheduler::Wrr
        };
        card.flow_manager()
            .pool_set(pool, &PoolConfig::new(sched))?;
    }
    for (rs, (_, ip, mac)) in SERVERS.iter().enumerate() {
        card.flow_manager().server_set(&RealServer {
            pool: if one_pool { 1 } else { rs as u8 + 1 },
            rs: rs as u8,
            addr: *ip,
            port: 8080,
            mac: *mac,
            weight: 1,
            upper_threshold: 0,
            lower_threshold: 0,
        })?;
    }
    card.flow_manager()
        .service_set(0, VIP, 80, ServiceMode::L7 { fallback_pool: 1 })?;
    Ok(())
}
