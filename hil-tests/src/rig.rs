//! Which rig the scenarios run on: the simulated card (the default) or a lab rig described
//! by a rig file (docs/rig.md, "Lab rig").
//!
//! A rig file is TOML:
//!
//! ```toml
//! rig = "lab"                  # or "sim"
//!
//! [card]
//! pci = "0000:03:00.0"         # lab: the card, bound to vfio-pci
//! # socket = "/run/card.sock"  # lab: or a simulated card served with TAP ports
//! #                            # (nicctl sim start --tap-client A --tap-server B)
//! # cpu = "vexriscv"           # sim: the soft core of the simulated card
//!
//! [ports]                      # lab: host interfaces cabled to the card's ports
//! client = "enp4s0f0"          # to the card's client port (port 0)
//! server = "enp4s0f1"          # to the card's server port (port 1)
//!
//! [addresses]                  # optional; these are the defaults
//! vip = "10.0.0.100:80"
//! client = "10.0.0.2"
//! local = "192.168.1.1"
//! backends = "192.168.1.10:8080"
//! card_mac_client = "02:5e:00:00:00:01"
//! card_mac_server = "02:5e:00:00:00:02"
//! ```
//!
//! `$SPLICENIC_RIG` names the rig file the scenarios use (`cargo xtask hil --rig FILE` sets
//! it); without it they run on the simulated card. Every error names the file and the field.

use splicenic_sim::Cpu;
use std::fmt;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

/// The environment variable naming the rig file.
pub const RIG_ENV: &str = "SPLICENIC_RIG";

/// Most backends a topology may have (backend i is `backends` + i).
pub const MAX_BACKENDS: u8 = 16;

/// A broken or incomplete rig file.
#[derive(Debug, thiserror::Error)]
pub enum RigError {
    /// The file cannot be read.
    #[error("rig file {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    /// Not TOML, or a key of the wrong type (the message says where).
    #[error("rig file {path}: {message}")]
    Syntax { path: String, message: String },
    /// A field is missing, unknown or has a bad value.
    #[error("rig file {path}: {field}: {message}")]
    Field {
        path: String,
        field: String,
        message: String,
    },
}

/// The addresses of a topology: the virtual service, the client, the card's own address on
/// the server LAN, the backends and the card's port MACs. Both subnets are /24s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addresses {
    /// The virtual service's address (client side).
    pub vip: Ipv4Addr,
    /// The virtual service's port.
    pub vip_port: u16,
    /// The client namespace's address (on the VIP's /24).
    pub client: Ipv4Addr,
    /// The card's own address on the server LAN.
    pub local: Ipv4Addr,
    /// Backend 0's address; backend i is this + i (on the local address's /24).
    pub backend_first: Ipv4Addr,
    /// The port every backend's server listens on.
    pub backend_port: u16,
    /// The card's client-side port MAC.
    pub card_mac_client: [u8; 6],
    /// The card's server-side port MAC.
    pub card_mac_server: [u8; 6],
}

impl Default for Addresses {
    fn default() -> Addresses {
        Addresses {
            vip: Ipv4Addr::new(10, 0, 0, 100),
            vip_port: 80,
            client: Ipv4Addr::new(10, 0, 0, 2),
            local: Ipv4Addr::new(192, 168, 1, 1),
            backend_first: Ipv4Addr::new(192, 168, 1, 10),
            backend_port: 8080,
            card_mac_client: [0x02, 0x5e, 0, 0, 0, 0x01],
            card_mac_server: [0x02, 0x5e, 0, 0, 0, 0x02],
        }
    }
}

impl Addresses {
    /// Backend `i`'s address.
    pub fn backend(&self, i: usize) -> Ipv4Addr {
        let o = self.backend_first.octets();
        Ipv4Addr::new(o[0], o[1], o[2], o[3].wrapping_add(i as u8))
    }
}

/// How a lab rig reaches its card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabCard {
    /// A real card through VFIO at this PCI address, normalised (`DDDD:BB:DD.F`).
    Pci(String),
    /// A simulated card someone else serves on this socket with its ports on host
    /// interfaces (`nicctl sim start --tap-client A --tap-server B`): rehearses a lab rig
    /// file without a card.
    Socket(PathBuf),
}

impl fmt::Display for LabCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabCard::Pci(a) => write!(f, "card {a}"),
            LabCard::Socket(p) => write!(f, "simulated card at {}", p.display()),
        }
    }
}

/// A lab rig: a card and two host interfaces cabled to its ports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabRig {
    /// The card.
    pub card: LabCard,
    /// Host interface cabled to the card's client port (port 0).
    pub client_if: String,
    /// Host interface cabled to the card's server port (port 1).
    pub server_if: String,
}

/// The kind of rig.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RigKind {
    /// The simulated card (real gateware under Verilator, real firmware) on TAP devices.
    Sim { cpu: Cpu },
    /// A real card.
    Lab(LabRig),
}

/// A rig: its kind, its addresses and the file it came from (none for the default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rig {
    pub kind: RigKind,
    pub addrs: Addresses,
    pub file: Option<PathBuf>,
}

impl Default for Rig {
    fn default() -> Rig {
        Rig {
            kind: RigKind::Sim {
                cpu: Cpu::default(),
            },
            addrs: Addresses::default(),
            file: None,
        }
    }
}

impl fmt::Display for Rig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RigKind::Sim { cpu } => write!(f, "simulated rig ({cpu:?})")?,
            RigKind::Lab(l) => write!(
                f,
                "lab rig ({}, client port on {}, server port on {})",
                l.card, l.client_if, l.server_if
            )?,
        }
        if let Some(p) = &self.file {
            write!(f, " from {}", p.display())?;
        }
        Ok(())
    }
}

/// Keys each table may have (anything else is reported as unknown, with a suggestion).
const KEYS: &[(&str, &[&str])] = &[
    ("", &["rig", "card", "ports", "addresses"]),
    ("card", &["pci", "socket", "cpu"]),
    ("ports", &["client", "server"]),
    (
        "addresses",
        &[
            "vip",
            "client",
            "local",
            "backends",
            "card_mac_client",
            "card_mac_server",
        ],
    ),
];

struct Ctx<'a> {
    path: &'a str,
}

impl Ctx<'_> {
    fn err(&self, field: &str, message: impl Into<String>) -> RigError {
        RigError::Field {
            path: self.path.to_string(),
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// The closest of `known` to `word` when it is close enough to be a typo.
fn suggest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    fn dist(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let cur = row[j + 1];
                row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
                prev = cur;
            }
        }
        row[b.len()]
    }
    known
        .iter()
        .map(|k| (dist(word, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| k)
}

type Table = toml::map::Map<String, toml::Value>;

fn check_keys(ctx: &Ctx, prefix: &str, table: &Table) -> Result<(), RigError> {
    let known = KEYS
        .iter()
        .find(|(p, _)| *p == prefix)
        .map_or(&[][..], |(_, k)| k);
    for key in table.keys() {
        if !known.contains(&key.as_str()) {
            let field = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            let hint = match suggest(key, known) {
                Some(s) => format!("; did you mean `{s}`?"),
                None => format!("; known: {}", known.join(", ")),
            };
            return Err(ctx.err(&field, format!("unknown key{hint}")));
        }
    }
    Ok(())
}

fn table<'a>(ctx: &Ctx, root: &'a Table, name: &str) -> Result<Option<&'a Table>, RigError> {
    match root.get(name) {
        None => Ok(None),
        Some(toml::Value::Table(t)) => {
            check_keys(ctx, name, t)?;
            Ok(Some(t))
        }
        Some(v) => Err(ctx.err(
            name,
            format!("must be a table `[{name}]`, not a {}", v.type_str()),
        )),
    }
}

fn string<'a>(
    ctx: &Ctx,
    t: Option<&'a Table>,
    table: &str,
    key: &str,
) -> Result<Option<&'a str>, RigError> {
    match t.and_then(|t| t.get(key)) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s.as_str())),
        Some(v) => Err(ctx.err(
            &format!("{table}.{key}"),
            format!("must be a string, not a {}", v.type_str()),
        )),
    }
}

fn ip(ctx: &Ctx, field: &str, s: &str) -> Result<Ipv4Addr, RigError> {
    s.parse()
        .map_err(|_| ctx.err(field, format!("`{s}` is not an IPv4 address")))
}

fn ip_port(ctx: &Ctx, field: &str, s: &str) -> Result<(Ipv4Addr, u16), RigError> {
    let Some((a, p)) = s.rsplit_once(':') else {
        return Err(ctx.err(field, format!("`{s}` is not ADDRESS:PORT")));
    };
    let port: u16 = p
        .parse()
        .ok()
        .filter(|p| *p != 0)
        .ok_or_else(|| ctx.err(field, format!("`{p}` is not a port (1-65535)")))?;
    Ok((ip(ctx, field, a)?, port))
}

fn mac(ctx: &Ctx, field: &str, s: &str) -> Result<[u8; 6], RigError> {
    let bad = || {
        ctx.err(
            field,
            format!("`{s}` is not a MAC address (xx:xx:xx:xx:xx:xx)"),
        )
    };
    let v: Vec<u8> = s
        .split(':')
        .map(|b| {
            if b.len() == 2 {
                u8::from_str_radix(b, 16).ok()
            } else {
                None
            }
        })
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let m: [u8; 6] = v.try_into().map_err(|_| bad())?;
    if m[0] & 1 != 0 {
        return Err(ctx.err(field, format!("`{s}` is a multicast address")));
    }
    Ok(m)
}

fn same_24(a: Ipv4Addr, b: Ipv4Addr) -> bool {
    a.octets()[..3] == b.octets()[..3]
}

/// A Linux interface name (what `ip link` accepts).
fn ifname(ctx: &Ctx, field: &str, s: &str) -> Result<String, RigError> {
    if s.is_empty()
        || s.len() > 15
        || s.contains(|c: char| c == '/' || c == ':' || c.is_whitespace())
        || s == "."
        || s == ".."
    {
        return Err(ctx.err(
            field,
            format!("`{s}` is not an interface name (1-15 characters, no '/', ':' or spaces)"),
        ));
    }
    Ok(s.to_string())
}

impl Rig {
    /// Parse a rig file's text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Rig, RigError> {
        let shown = path.display().to_string();
        let ctx = Ctx { path: &shown };
        let root: Table = text
            .parse()
            .map_err(|e: toml::de::Error| RigError::Syntax {
                path: shown.clone(),
                message: e.to_string().trim_end().replace('\n', "\n  "),
            })?;
        check_keys(&ctx, "", &root)?;
        let kind = match root.get("rig") {
            None => {
                return Err(ctx.err(
                    "rig",
                    "missing: say `rig = \"lab\"` (a real card) or `rig = \"sim\"` (the simulated card)",
                ))
            }
            Some(toml::Value::String(s)) => s.as_str(),
            Some(v) => {
                return Err(ctx.err(
                    "rig",
                    format!("must be the string \"lab\" or \"sim\", not a {}", v.type_str()),
                ))
            }
        };
        let card = table(&ctx, &root, "card")?;
        let ports = table(&ctx, &root, "ports")?;
        let addresses = table(&ctx, &root, "addresses")?;
        let kind = match kind {
            "sim" => {
                if let Some(k) = ["pci", "socket"]
                    .iter()
                    .find(|k| card.is_some_and(|c| c.contains_key(**k)))
                {
                    return Err(ctx.err(&format!("card.{k}"), "only for `rig = \"lab\"`"));
                }
                if ports.is_some() {
                    return Err(ctx.err(
                        "ports",
                        "only for `rig = \"lab\"` (the simulated card makes its own TAP devices)",
                    ));
                }
                let cpu = match string(&ctx, card, "card", "cpu")? {
                    None | Some("picorv32") => Cpu::PicoRv32,
                    Some("vexriscv") => Cpu::VexRiscv,
                    Some(o) => {
                        return Err(ctx.err(
                            "card.cpu",
                            format!(
                            "`{o}` is not a soft core of the simulated card (picorv32, vexriscv)"
                        ),
                        ))
                    }
                };
                RigKind::Sim { cpu }
            }
            "lab" => {
                if card.is_some_and(|c| c.contains_key("cpu")) {
                    return Err(ctx.err(
                        "card.cpu",
                        "only for `rig = \"sim\"` (a lab card's soft core is in its bitstream)",
                    ));
                }
                let lab_card = match (
                    string(&ctx, card, "card", "pci")?,
                    string(&ctx, card, "card", "socket")?,
                ) {
                    (Some(_), Some(_)) => {
                        return Err(ctx.err(
                            "card.socket",
                            "give either card.pci (a real card) or card.socket (a simulated card), not both",
                        ))
                    }
                    (None, None) => {
                        return Err(ctx.err(
                            "card.pci",
                            "missing: the card's PCI address, e.g. `pci = \"0000:03:00.0\"` under `[card]`",
                        ))
                    }
                    (Some(pci), None) => {
                        LabCard::Pci(splicenic_driver::vfio::parse_pci_address(pci).map_err(|_| {
                            ctx.err(
                                "card.pci",
                                format!("`{pci}` is not a PCI address (DDDD:BB:DD.F, e.g. 0000:03:00.0)"),
                            )
                        })?)
                    }
                    (None, Some(sock)) => {
                        if sock.is_empty() {
                            return Err(ctx.err("card.socket", "empty path"));
                        }
                        LabCard::Socket(PathBuf::from(sock))
                    }
                };
                let port = |key: &str, which: &str| -> Result<String, RigError> {
                    let field = format!("ports.{key}");
                    let s = string(&ctx, ports, "ports", key)?.ok_or_else(|| {
                        ctx.err(
                            &field,
                            format!("missing: the host interface cabled to the card's {which} port, e.g. `{key} = \"enp4s0f0\"` under `[ports]`"),
                        )
                    })?;
                    ifname(&ctx, &field, s)
                };
                let client_if = port("client", "client (port 0)")?;
                let server_if = port("server", "server (port 1)")?;
                if client_if == server_if {
                    return Err(ctx.err(
                        "ports.server",
                        format!("`{server_if}` is also ports.client: the card's two ports need two host interfaces"),
                    ));
                }
                RigKind::Lab(LabRig {
                    card: lab_card,
                    client_if,
                    server_if,
                })
            }
            other => {
                return Err(ctx.err(
                    "rig",
                    format!("`{other}` is not a rig kind (\"lab\" or \"sim\")"),
                ))
            }
        };
        let mut a = Addresses::default();
        let get = |key: &str| string(&ctx, addresses, "addresses", key);
        if let Some(s) = get("vip")? {
            (a.vip, a.vip_port) = ip_port(&ctx, "addresses.vip", s)?;
        }
        if let Some(s) = get("client")? {
            a.client = ip(&ctx, "addresses.client", s)?;
        }
        if let Some(s) = get("local")? {
            a.local = ip(&ctx, "addresses.local", s)?;
        }
        if let Some(s) = get("backends")? {
            (a.backend_first, a.backend_port) = ip_port(&ctx, "addresses.backends", s)?;
        }
        if let Some(s) = get("card_mac_client")? {
            a.card_mac_client = mac(&ctx, "addresses.card_mac_client", s)?;
        }
        if let Some(s) = get("card_mac_server")? {
            a.card_mac_server = mac(&ctx, "addresses.card_mac_server", s)?;
        }
        let host = |field: &str, x: Ipv4Addr| -> Result<(), RigError> {
            let last = x.octets()[3];
            if last == 0 || last == 255 || x.is_multicast() || x.is_loopback() || x.is_unspecified()
            {
                return Err(ctx.err(field, format!("{x} is not a host address")));
            }
            Ok(())
        };
        host("addresses.vip", a.vip)?;
        host("addresses.client", a.client)?;
        host("addresses.local", a.local)?;
        host("addresses.backends", a.backend_first)?;
        if !same_24(a.vip, a.client) || a.vip == a.client {
            return Err(ctx.err(
                "addresses.client",
                format!("{} must be another address on the VIP's /24 ({}): the client reaches the VIP on-link", a.client, a.vip),
            ));
        }
        if same_24(a.vip, a.local) {
            return Err(ctx.err(
                "addresses.local",
                format!(
                    "{} is on the VIP's /24: the server LAN must be another subnet",
                    a.local
                ),
            ));
        }
        let last = a.backend_first.octets()[3];
        if !same_24(a.local, a.backend_first) || u16::from(last) + u16::from(MAX_BACKENDS) > 255 {
            return Err(ctx.err(
                "addresses.backends",
                format!(
                    "{} must leave room for {MAX_BACKENDS} backends on the local address's /24 ({}.x, last byte at most {})",
                    a.backend_first,
                    a.local.octets()[..3].iter().map(u8::to_string).collect::<Vec<_>>().join("."),
                    255 - MAX_BACKENDS
                ),
            ));
        }
        if (last..last + MAX_BACKENDS).contains(&a.local.octets()[3]) {
            return Err(ctx.err(
                "addresses.local",
                format!(
                    "{} is among the backends' addresses ({} and the {} after it)",
                    a.local,
                    a.backend_first,
                    MAX_BACKENDS - 1
                ),
            ));
        }
        if a.card_mac_client == a.card_mac_server {
            return Err(ctx.err(
                "addresses.card_mac_server",
                "the same MAC as card_mac_client: the two ports need different MACs",
            ));
        }
        Ok(Rig {
            kind,
            addrs: a,
            file: Some(path.to_path_buf()),
        })
    }

    /// Read and parse a rig file.
    pub fn load(path: &Path) -> Result<Rig, RigError> {
        let text = std::fs::read_to_string(path).map_err(|source| RigError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Rig::parse(&text, path)
    }

    /// The rig named by `$SPLICENIC_RIG`, else the simulated card with the default addresses.
    pub fn from_env() -> Result<Rig, RigError> {
        match std::env::var_os(RIG_ENV) {
            Some(p) if !p.is_empty() => Rig::load(Path::new(&p)),
            _ => Ok(Rig::default()),
        }
    }

    /// "simulated rig" or "lab rig".
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            RigKind::Sim { .. } => "simulated rig",
            RigKind::Lab(_) => "lab rig",
        }
    }

    /// True for the simulated card.
    pub fn is_sim(&self) -> bool {
        matches!(self.kind, RigKind::Sim { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Rig, RigError> {
        Rig::parse(text, Path::new("lab.toml"))
    }

    fn err(text: &str) -> String {
        parse(text).expect_err("must be refused").to_string()
    }

    const LAB: &str = "rig = \"lab\"\n[card]\npci = \"03:00.0\"\n[ports]\nclient = \"enp4s0f0\"\nserver = \"enp4s0f1\"\n";

    #[test]
    fn lab_file_parses_with_defaults() {
        let r = parse(LAB).unwrap();
        assert_eq!(
            r.kind,
            RigKind::Lab(LabRig {
                card: LabCard::Pci("0000:03:00.0".into()),
                client_if: "enp4s0f0".into(),
                server_if: "enp4s0f1".into()
            })
        );
        assert_eq!(r.addrs, Addresses::default());
        assert_eq!(r.addrs.backend(3), Ipv4Addr::new(192, 168, 1, 13));
        assert!(r.to_string().contains("card 0000:03:00.0"));
    }

    #[test]
    fn addresses_override_the_defaults() {
        let r = parse(&format!(
            "{LAB}[addresses]\nvip = \"172.16.5.9:8000\"\nclient = \"172.16.5.20\"\nlocal = \"10.9.0.1\"\nbackends = \"10.9.0.100:81\"\ncard_mac_client = \"02:aa:00:00:00:01\"\n"
        ))
        .unwrap();
        assert_eq!(r.addrs.vip, Ipv4Addr::new(172, 16, 5, 9));
        assert_eq!(r.addrs.vip_port, 8000);
        assert_eq!(r.addrs.backend(1), Ipv4Addr::new(10, 9, 0, 101));
        assert_eq!(r.addrs.backend_port, 81);
        assert_eq!(r.addrs.card_mac_client, [2, 0xaa, 0, 0, 0, 1]);
        assert_eq!(
            r.addrs.card_mac_server,
            Addresses::default().card_mac_server
        );
    }

    #[test]
    fn sim_file_and_default() {
        let r = parse("rig = \"sim\"\n[card]\ncpu = \"vexriscv\"\n").unwrap();
        assert_eq!(r.kind, RigKind::Sim { cpu: Cpu::VexRiscv });
        assert!(r.is_sim());
        assert!(Rig::default().is_sim());
    }

    #[test]
    fn every_error_names_the_file_and_the_field() {
        let cases: &[(&str, &str)] = &[
            ("", "lab.toml: rig: missing"),
            ("rig = 3", "lab.toml: rig: must be the string"),
            ("rig = \"fpga\"", "rig: `fpga` is not a rig kind"),
            ("rig = \"lab\"", "card.pci: missing"),
            ("rig = \"lab\"\n[card]\npci = \"3:0\"", "card.pci: `3:0` is not a PCI address"),
            ("rig = \"lab\"\n[card]\npci = 7", "card.pci: must be a string, not a integer"),
            ("rig = \"lab\"\n[card]\npci = \"03:00.0\"\nsocket = \"/s\"", "card.socket: give either"),
            ("rig = \"sim\"\n[card]\nsocket = \"/s\"", "card.socket: only for `rig = \"lab\"`"),
            ("rig = \"lab\"\ncard = 1", "lab.toml: card: must be a table"),
            ("rig = \"lab\"\n[card]\npci = \"03:00.0\"", "ports.client: missing"),
            ("rig = \"lab\"\n[card]\npci = \"03:00.0\"\n[ports]\nclient = \"a\"", "ports.server: missing"),
            ("rig = \"lab\"\n[card]\npci = \"03:00.0\"\n[ports]\nclient = \"a\"\nserver = \"a\"", "ports.server: `a` is also ports.client"),
            ("rig = \"lab\"\n[card]\npci = \"03:00.0\"\n[ports]\nclient = \"a b\"\nserver = \"c\"", "ports.client: `a b` is not an interface name"),
            ("rig = \"lab\"\n[card]\npcie = \"03:00.0\"", "card.pcie: unknown key; did you mean `pci`?"),
            ("rig = \"lab\"\n[card]\npci = \"03:00.0\"\ncpu = \"vexriscv\"", "card.cpu: only for `rig = \"sim\"`"),
            ("rig = \"sim\"\n[ports]\nclient = \"a\"", "ports: only for `rig = \"lab\"`"),
            ("rig = \"sim\"\n[card]\ncpu = \"z80\"", "card.cpu: `z80` is not a soft core"),
            ("rig = \"sim\"\n[adresses]\nvip = \"1.2.3.4:80\"", "adresses: unknown key; did you mean `addresses`?"),
            ("rig = \"sim\"\n[addresses]\nvip = \"10.0.0.300:80\"", "addresses.vip: `10.0.0.300` is not an IPv4 address"),
            ("rig = \"sim\"\n[addresses]\nvip = \"10.0.0.1\"", "addresses.vip: `10.0.0.1` is not ADDRESS:PORT"),
            ("rig = \"sim\"\n[addresses]\nvip = \"10.0.0.1:0\"", "addresses.vip: `0` is not a port"),
            ("rig = \"sim\"\n[addresses]\nclient = \"10.0.1.2\"", "addresses.client: 10.0.1.2 must be another address on the VIP's /24"),
            ("rig = \"sim\"\n[addresses]\nlocal = \"10.0.0.1\"", "addresses.local: 10.0.0.1 is on the VIP's /24"),
            ("rig = \"sim\"\n[addresses]\nbackends = \"192.168.2.10:80\"", "addresses.backends: 192.168.2.10 must leave room"),
            ("rig = \"sim\"\n[addresses]\nbackends = \"192.168.1.250:80\"", "addresses.backends: 192.168.1.250 must leave room"),
            ("rig = \"sim\"\n[addresses]\nlocal = \"192.168.1.12\"", "addresses.local: 192.168.1.12 is among the backends"),
            ("rig = \"sim\"\n[addresses]\nclient = \"10.0.0.255\"", "addresses.client: 10.0.0.255 is not a host address"),
            ("rig = \"sim\"\n[addresses]\ncard_mac_client = \"02:00:00:00:00\"", "addresses.card_mac_client: `02:00:00:00:00` is not a MAC"),
            ("rig = \"sim\"\n[addresses]\ncard_mac_client = \"01:00:00:00:00:01\"", "addresses.card_mac_client: `01:00:00:00:00:01` is a multicast"),
            ("rig = \"sim\"\n[addresses]\ncard_mac_server = \"02:5e:00:00:00:01\"", "addresses.card_mac_server: the same MAC"),
            ("rig = \"sim\"\nports = [", "lab.toml: TOML parse error at line 2"),
        ];
        for (text, want) in cases {
            let e = err(text);
            assert!(e.contains(want), "{text:?}\n  gave {e:?}\n  want {want:?}");
        }
    }

    #[test]
    fn missing_file_is_named() {
        let e = Rig::load(Path::new("/nonexistent/lab.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("rig file /nonexistent/lab.toml: "), "{e}");
    }

    #[test]
    fn example_rig_files_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rigs");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                Rig::load(&p).unwrap_or_else(|e| panic!("{e}"));
                n += 1;
            }
        }
        assert!(
            n >= 2,
            "expected the lab and sim examples in {}",
            dir.display()
        );
    }
}
