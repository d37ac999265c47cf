//! `nicctl rules load`: the host driver's [`splicenic_driver::apply`] with the host's
//! neighbour table (`/proc/net/arp`) for the real servers' MACs and a progress bar.

use std::collections::HashMap;
use std::net::Ipv4Addr;

use anyhow::Result;
use splicenic_driver::apply::{self as lib, ApplyReport, Neighbours};
use splicenic_driver::config::{self, Plan};
use splicenic_driver::Card;

pub use splicenic_driver::apply::{card_limits, resolve_mac, CardConfig};

use crate::progress::Progress;

/// The host's IPv4 neighbour table (`/proc/net/arp`): address -> MAC of complete entries.
pub fn neighbours() -> Neighbours {
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

/// Programs `plan` into `card` ([`splicenic_driver::apply::apply`]), MACs not in the file
/// from the host's neighbour table.
pub fn apply(
    card: &mut Card,
    cfg: &config::Config,
    plan: &Plan,
    progress: &mut Progress,
) -> Result<ApplyReport> {
    Ok(lib::apply(card, cfg, plan, &neighbours(), progress)?)
}

/// What [`apply`] would change on `card` ([`splicenic_driver::apply::diff`]).
pub fn diff(card: &mut Card, cfg: &config::Config, plan: &Plan) -> Result<Vec<lib::Change>> {
    Ok(lib::diff(card, cfg, plan, &neighbours())?)
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
