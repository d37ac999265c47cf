//! Connections spliced end to end on the simulated card: the real firmware's flow manager on
//! the real data path, with smoltcp TCP stacks as the client and the real servers.
//!
//! Topology: client 10.0.0.2 on the client segment talks to the virtual service
//! 10.0.0.100:80; real servers "alpha" 192.168.1.10 and "beta" 192.168.1.11 (port 8080) sit
//! on the server segment, where the card's own address is 192.168.1.1. The card answers ARP
//! for both of its addresses itself.

use anyhow::{Context, Result};
use splicenic_driver::datapath::{HostKind, L7Rule, PathKind, Port};
use splicenic_driver::{Card, FlowStats, PoolConfig, RealServer, Scheduler, ServiceMode};
use splicenic_hil::boot_shared;
use splicenic_hil::net::{body_for, sha256_hex, HostId, Net, Segment};
use splicenic_sim::SimConfig;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::path::PathBuf;
use std::time::Instant;

const VIP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 100);
const SERVICE: SocketAddrV4 = SocketAddrV4::new(VIP, 80);
const CLIENT_IP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
const LOCAL_IP: Ipv4Addr = Ipv4Addr::new(192, 168, 1, 1);
const SERVERS: [(&str, Ipv4Addr, [u8; 6]); 2] = [
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
const CARD_MAC_C: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x01];
const CARD_MAC_S: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x02];
/// Card cycles one exchange may take (0.13 s of card time).
const BUDGET: u64 = 20_000_000;

struct Rig {
    card: Card,
    net: Net,
    client: HostId,
}

/// Boots the card with the firmware, programs the data path (MACs, server-side address,
/// L7 rules: `/static/` and Host `*.img.example` go to pool 2, everything else to pool 1)
/// and the flow manager (pool 1 = alpha, pool 2 = beta, service 0 = VIP:80 in L7 mode).
fn rig() -> Result<Rig> {
    let (mut card, sim, _) = boot_shared(SimConfig::default())?;
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
    for pool in [1, 2] {
        card.pool_set(pool, &PoolConfig::new(Scheduler::Wrr))?;
    }
    for (rs, (_, ip, mac)) in SERVERS.iter().enumerate() {
        card.server_set(&RealServer {
            pool: rs as u8 + 1,
            rs: rs as u8,
            addr: *ip,
            port: 8080,
            mac: *mac,
            weight: 1,
            upper_threshold: 0,
            lower_threshold: 0,
        })?;
    }
    card.service_set(0, VIP, 80, ServiceMode::L7 { fallback_pool: 1 })?;
    let mut net = Net::new(sim);
    net.capture(true);
    let client = net.add_host(Segment::Client, [0x02, 0, 0, 0, 0, 0x02], CLIENT_IP, 24);
    for (name, ip, mac) in SERVERS {
        let h = net.add_host(Segment::Server, mac, ip, 24);
        net.serve_http(h, 8080, name, 4)?;
    }
    Ok(Rig { card, net, client })
}

fn pcap_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("splice-{name}.pcap"))
}

/// Runs `f`; on failure leaves both ports' capture and names it in the panic.
fn with_pcap<T>(rig: &mut Rig, name: &str, f: impl FnOnce(&mut Rig) -> Result<T>) -> T {
    let started = Instant::now();
    let cycles = rig.net.cycles();
    let res = f(rig);
    let res = rig.net.keep_pcap_on_error(res, pcap_path(name));
    eprintln!(
        "{name}: {:.2} s wall, {} card cycles",
        started.elapsed().as_secs_f64(),
        rig.net.cycles() - cycles
    );
    res.unwrap_or_else(|e| panic!("{e:#}"))
}

fn stats(card: &mut Card) -> FlowStats {
    card.flow_stats().expect("FLOW_STATS")
}

#[test]
fn url_and_host_route_to_pools_and_transfers_are_byte_exact() {
    let mut rig = rig().expect("rig");
    with_pcap(&mut rig, "routing", |rig| {
        let c = rig.client;
        // Default pool: alpha.
        let path = "/data/20000";
        let r = rig
            .net
            .http_get(c, SERVICE, path, BUDGET)
            .context("GET /data")?;
        anyhow::ensure!(r.status == 200, "status {}", r.status);
        anyhow::ensure!(r.server() == Some("alpha"), "served by {:?}", r.server());
        anyhow::ensure!(r.body == body_for(path, 20000), "body differs");
        // Path prefix rule: beta.
        let path = "/static/data/30000";
        let r = rig
            .net
            .http_get(c, SERVICE, path, BUDGET)
            .context("GET /static")?;
        anyhow::ensure!(r.server() == Some("beta"), "served by {:?}", r.server());
        anyhow::ensure!(r.body == body_for(path, 30000), "body differs");
        // Upload through the splice: the server hashes what it received.
        let body = body_for("/upload", 50_000);
        let r = rig
            .net
            .http_post(c, SERVICE, "/upload", &body, BUDGET)
            .context("POST")?;
        anyhow::ensure!(r.server() == Some("alpha"), "served by {:?}", r.server());
        let got = String::from_utf8_lossy(&r.body).trim().to_string();
        anyhow::ensure!(got == sha256_hex(&body), "server hashed {got}");
        Ok(())
    });
    let s = stats(&mut rig.card);
    eprintln!("{s:?}");
    assert_eq!(s.spliced_total, 3);
    assert_eq!(s.setup_failed, 0);
    assert_eq!(s.refused_table_full, 0);
    if let Some(c) = s.setup_cycles_per_connection() {
        eprintln!("setup: {c:.0} soft-core cycles per connection");
    }
}
