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
use anyhow::{ensure, Result};
use splicenic_driver::{regs, Card};
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

/// Boots the card with the firmware and loads the rig's configuration ([`config_text`]:
/// `/static/` and Host `*.img.example` go to pool 2 = beta, everything else to pool 1 =
/// alpha; service 0 = VIP:80 in L7 mode). The default rig.
pub fn rig() -> Result<Rig> {
    rig_with(Opts::default())
}

/// A rig with `opts`.
pub fn rig_with(opts: Opts) -> Result<Rig> {
    let (mut card, sim, _) = boot_shared(SimConfig {
        cpu: opts.cpu,
        ..SimConfig::default()
    })?;
    configure(&mut card, opts.one_pool)?;
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

/// Switches the card's SYN responder off: clears `DP.SYN_CTRL.VIP_MASK`, so that every SYN
/// is punted and the firmware answers it with its own, stateful handshake (a setup entry
/// and a flow slot from the SYN on; the path of the responder's exceptions). The firmware
/// writes `SYN_CTRL` again only on a service change or a key rotation (every 60 s of card
/// time), so the rig's tests call this after loading their configuration. Returns the
/// register as it was, to write back for switching the responder on again.
pub fn syn_responder_off(card: &mut Card) -> Result<u32> {
    let ctrl = card.bar_mut().read32(regs::dp::SYN_CTRL)?;
    let mask = regs::dp::syn_ctrl::VIP_MASK_MASK << regs::dp::syn_ctrl::VIP_MASK_SHIFT;
    ensure!(
        ctrl & mask != 0,
        "the firmware did not enable the SYN responder (DP.SYN_CTRL {ctrl:#010x})"
    );
    card.bar_mut().write32(regs::dp::SYN_CTRL, ctrl & !mask)?;
    Ok(ctrl)
}

/// The rig's configuration file (keepalived syntax, as `nicctl rules load` reads it): the
/// card's MACs and server-side address, pools 1 and 2 (wrr; with `one_pool` rr and both
/// servers in pool 1), alpha and beta as real servers 0 and 1 (weight 1, MACs given), the
/// L7 service VIP:80 with pool 1 as its default, and the two URL rules to pool 2.
pub fn config_text(one_pool: bool) -> String {
    let mac = |m: [u8; 6]| m.map(|b| format!("{b:02x}")).join(":");
    let sched = if one_pool { "rr" } else { "wrr" };
    let mut t = format!(
        "# The splice rig (splicenic_hil::splice_rig::config_text).\n\
         global_defs {{\n    client_mac {}\n    server_mac {}\n    local_address {LOCAL_IP}\n}}\n\
         virtual_server {VIP} {} {{\n    lvs_method NAT\n    protocol TCP\n    default_pool p1\n}}\n",
        mac(CARD_MAC_C),
        mac(CARD_MAC_S),
        SERVICE.port(),
    );
    for pool in [1, 2] {
        t += &format!("pool p{pool} {{\n    card_index {pool}\n    lvs_sched {sched}\n");
        for (rs, (name, ip, m)) in SERVERS.iter().enumerate() {
            if (if one_pool { 1 } else { rs + 1 }) == pool {
                t += &format!(
                    "    real_server {ip} 8080 {{   # {name}\n        weight 1\n        mac {}\n    }}\n",
                    mac(*m)
                );
            }
        }
        t += "}\n";
    }
    t += "url_rule static {\n    path_prefix /static/\n    priority 10\n    pool p2\n}\n\
          url_rule images {\n    host *.img.example\n    priority 20\n    pool p2\n}\n";
    t
}

/// Programs the rig's configuration ([`config_text`]) through the host driver's `apply`, as
/// `nicctl rules load` does: what the host sends after boot, and again after a firmware
/// restart.
pub fn configure(card: &mut Card, one_pool: bool) -> Result<()> {
    crate::load_config(
        card,
        "splice-rig.conf",
        &config_text(one_pool),
        &Default::default(),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use splicenic_driver::config::{self, Limits};
    use splicenic_driver::datapath::{HostKind, PathKind};
    use splicenic_driver::{Scheduler, ServiceMode};

    /// A planned pool: index, scheduler, real servers (index, address, MAC).
    type PoolNumbers = (u8, Scheduler, Vec<(u8, Ipv4Addr, Option<[u8; 6]>)>);
    /// A compiled rule: priority, path kind and pattern, host kind and pattern, pool.
    type RuleWords<'a> = (u16, PathKind, &'a [u8], HostKind, &'a [u8], u16);

    /// The configuration plans to the numbers the splice tests use: alpha real server 0,
    /// beta 1, pools 1 and 2, the L7 service with pool 1 as default, the two rules to pool 2.
    #[test]
    fn config_plans_to_the_rigs_numbers() {
        for one_pool in [false, true] {
            let text = config_text(one_pool);
            let cfg = config::parse("splice-rig.conf", &text).unwrap();
            let plan = config::plan(&cfg, &Limits::card_default()).unwrap();
            let pools: Vec<PoolNumbers> = plan
                .pools
                .iter()
                .map(|p| {
                    (
                        p.index,
                        p.config.scheduler,
                        p.servers
                            .iter()
                            .map(|s| (s.rs, *s.addr.ip(), s.mac))
                            .collect(),
                    )
                })
                .collect();
            let alpha = (0, SERVERS[0].1, Some(SERVERS[0].2));
            let beta = (1, SERVERS[1].1, Some(SERVERS[1].2));
            let want = if one_pool {
                vec![
                    (1, Scheduler::Rr, vec![alpha, beta]),
                    (2, Scheduler::Rr, vec![]),
                ]
            } else {
                vec![
                    (1, Scheduler::Wrr, vec![alpha]),
                    (2, Scheduler::Wrr, vec![beta]),
                ]
            };
            assert_eq!(pools, want, "{text}");
            assert_eq!(plan.services.len(), 1);
            assert_eq!((plan.services[0].vip, plan.services[0].port), (VIP, 80));
            assert_eq!(plan.services[0].mode, ServiceMode::L7 { fallback_pool: 1 });
            let rules: Vec<RuleWords> = plan
                .rules
                .rules
                .iter()
                .map(|r| {
                    let l = &r.rule;
                    (
                        l.priority,
                        l.path_kind,
                        &l.path[..],
                        l.host_kind,
                        &l.host[..],
                        l.pool,
                    )
                })
                .collect();
            assert_eq!(
                rules,
                [
                    (
                        10,
                        PathKind::Prefix,
                        &b"/static/"[..],
                        HostKind::Any,
                        &b""[..],
                        2
                    ),
                    (
                        20,
                        PathKind::Any,
                        &b""[..],
                        HostKind::Suffix,
                        &b".img.example"[..],
                        2
                    ),
                ]
            );
            assert_eq!(plan.rules.default_pool, 1);
            assert_eq!(
                (cfg.card.client_mac, cfg.card.server_mac),
                (Some(CARD_MAC_C), Some(CARD_MAC_S))
            );
            assert_eq!(cfg.card.local_addresses, [LOCAL_IP]);
        }
    }
}
