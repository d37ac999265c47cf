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
//! it); without it they run on the simulated card. Every error names the file and the field,
//! or the line and column.
//!
//! Before the TOML parser sees it, the file is checked against fixed limits
//! ([`MAX_RIG_FILE_BYTES`], [`MAX_RIG_LINE_BYTES`], [`MAX_RIG_DEPTH`]) and for being text
//! (UTF-8 without control characters); each is an error at its line and column. The TOML
//! parser recurses on nesting, and nested inline tables with dotted keys in them (a 3 KB
//! line) overflow its stack, so the nesting is bounded by a scan that does not recurse.

use splicenic_sim::Cpu;
use std::fmt;
use std::io::Read;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

/// The environment variable naming the rig file.
pub const RIG_ENV: &str = "SPLICENIC_RIG";

/// Most backends a topology may have (backend i is `backends` + i).
pub const MAX_BACKENDS: u8 = 16;

/// The largest rig file, in bytes (64 KiB). The examples are under 1 KB; the limit
/// bounds what is read (at most this and one more byte) and the parser's work.
pub const MAX_RIG_FILE_BYTES: usize = 64 * 1024;

/// The longest line, in bytes (1024). The examples' longest is 91 bytes and a socket path
/// is at most 107; the limit bounds the TOML parser's messages, which quote the line.
pub const MAX_RIG_LINE_BYTES: usize = 1024;

/// The deepest nesting (8): keys and array indices from the top of the file to a value,
/// counting tables (`[a.b]`), dotted keys (`a.b = ...`), arrays and inline tables. A rig
/// file needs 2 (`[card]` > `pci`).
pub const MAX_RIG_DEPTH: usize = 8;

/// The most characters of a value or key an error quotes.
const SHOWN_CHARS: usize = 64;

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
    /// Past one of the limits ([`MAX_RIG_FILE_BYTES`], [`MAX_RIG_LINE_BYTES`],
    /// [`MAX_RIG_DEPTH`]), or not text (invalid UTF-8, a control character), at `line:col`
    /// (from 1; the column in characters).
    #[error("rig file {path}:{line}:{col}: {message}")]
    Input {
        path: String,
        line: usize,
        col: usize,
        message: String,
    },
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

/// The longest Unix socket path (`sun_path` is 108 bytes with its NUL).
const MAX_SOCKET_PATH: usize = 107;

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

/// A key or value as an error quotes it: control characters escaped (TOML escapes can put
/// them into strings), at most [`SHOWN_CHARS`] characters.
fn shown(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == SHOWN_CHARS {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A key as an error names it: as written when it is a bare key, else quoted (an empty
/// key, spaces, dots), like TOML writes it, cut and escaped as [`shown`] does.
fn shown_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        shown(k)
    } else {
        let q = k.replace('\\', "\\\\").replace('"', "\\\"");
        format!("\"{}\"", shown(&q))
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
                shown_key(key)
            } else {
                format!("{prefix}.{}", shown_key(key))
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
        .map_err(|_| ctx.err(field, format!("`{}` is not an IPv4 address", shown(s))))
}

fn ip_port(ctx: &Ctx, field: &str, s: &str) -> Result<(Ipv4Addr, u16), RigError> {
    let Some((a, p)) = s.rsplit_once(':') else {
        return Err(ctx.err(field, format!("`{}` is not ADDRESS:PORT", shown(s))));
    };
    let port: u16 = p
        .parse()
        .ok()
        .filter(|p| *p != 0)
        .ok_or_else(|| ctx.err(field, format!("`{}` is not a port (1-65535)", shown(p))))?;
    Ok((ip(ctx, field, a)?, port))
}

fn mac(ctx: &Ctx, field: &str, s: &str) -> Result<[u8; 6], RigError> {
    let bad = || {
        ctx.err(
            field,
            format!("`{}` is not a MAC address (xx:xx:xx:xx:xx:xx)", shown(s)),
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
        return Err(ctx.err(field, format!("`{}` is a multicast address", shown(s))));
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
            format!(
                "`{}` is not an interface name (1-15 characters, no '/', ':' or spaces)",
                shown(s)
            ),
        ));
    }
    Ok(s.to_string())
}

impl Rig {
    /// Parse a rig file's text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Rig, RigError> {
        Rig::parse_bytes(text.as_bytes(), path)
    }

    /// Parse a rig file's bytes (as read: any bytes, checked to be text within the limits
    /// first, see [`check_text`]); `path` names it in errors.
    pub fn parse_bytes(bytes: &[u8], path: &Path) -> Result<Rig, RigError> {
        let name = path.display().to_string();
        let text = check_text(bytes).map_err(|(line, col, message)| RigError::Input {
            path: name.clone(),
            line,
            col,
            message,
        })?;
        let ctx = Ctx { path: &name };
        let root: Table = text
            .parse()
            .map_err(|e: toml::de::Error| RigError::Syntax {
                path: name.clone(),
                // The parser quotes the line: a tab becomes a space (the caret below stays
                // in place), a CR of a CRLF line end goes.
                message: e
                    .to_string()
                    .trim_end()
                    .replace('\t', " ")
                    .replace('\r', "")
                    .replace('\n', "\n  "),
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
                            "`{}` is not a soft core of the simulated card (picorv32, vexriscv)",
                            shown(o)
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
                                format!("`{}` is not a PCI address (DDDD:BB:DD.F, e.g. 0000:03:00.0)", shown(pci)),
                            )
                        })?)
                    }
                    (None, Some(sock)) => {
                        if sock.is_empty() {
                            return Err(ctx.err("card.socket", "empty path"));
                        }
                        if sock.len() > MAX_SOCKET_PATH || sock.contains('\0') {
                            return Err(ctx.err(
                                "card.socket",
                                format!(
                                    "`{}` is not a Unix socket path (at most {MAX_SOCKET_PATH} bytes, no NUL)",
                                    shown(sock)
                                ),
                            ));
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
                        format!("`{}` is also ports.client: the card's two ports need two host interfaces", shown(&server_if)),
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
                    format!("`{}` is not a rig kind (\"lab\" or \"sim\")", shown(other)),
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

    /// Read and parse a rig file: at most [`MAX_RIG_FILE_BYTES`] and one more byte are read
    /// (so a larger file, `/dev/zero` or a pipe that does not end is refused at the limit).
    pub fn load(path: &Path) -> Result<Rig, RigError> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| {
                f.take(MAX_RIG_FILE_BYTES as u64 + 1)
                    .read_to_end(&mut bytes)
            })
            .map_err(|source| RigError::Read {
                path: path.display().to_string(),
                source,
            })?;
        Rig::parse_bytes(&bytes, path)
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

/// How many characters `raw` reads as (an invalid UTF-8 sequence is one U+FFFD).
fn chars_in(raw: &[u8]) -> usize {
    raw.utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// 1-based line and column (in characters) of byte `offset` of `bytes`.
fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    (line, chars_in(&before[line_start..]) + 1)
}

/// Checks a rig file's bytes before they are parsed, in file order: the size
/// ([`MAX_RIG_FILE_BYTES`]), each line's length ([`MAX_RIG_LINE_BYTES`]), UTF-8, control
/// characters (any but tab, and CR before LF: TOML allows none, and the parser's messages
/// quote the line), then the nesting ([`MAX_RIG_DEPTH`]). The text, or `(line, col,
/// message)` of the first problem.
pub fn check_text(bytes: &[u8]) -> Result<&str, (usize, usize, String)> {
    let mut off = 0;
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let at = |byte: usize| chars_in(&raw[..byte.min(raw.len())]) + 1;
        if bytes.len() > MAX_RIG_FILE_BYTES && off + raw.len() >= MAX_RIG_FILE_BYTES {
            return Err((
                line,
                at(MAX_RIG_FILE_BYTES - off),
                format!(
                    "the file is larger than {MAX_RIG_FILE_BYTES} bytes (the limit, \
                     MAX_RIG_FILE_BYTES): not a rig file"
                ),
            ));
        }
        off += raw.len() + 1;
        if raw.len() > MAX_RIG_LINE_BYTES {
            return Err((
                line,
                at(MAX_RIG_LINE_BYTES),
                format!(
                    "line longer than {MAX_RIG_LINE_BYTES} bytes (the limit, MAX_RIG_LINE_BYTES)"
                ),
            ));
        }
        let text = std::str::from_utf8(raw).map_err(|e| {
            let bad = &raw[e.valid_up_to()..];
            let len = e.error_len().unwrap_or(bad.len());
            let hex: Vec<String> = bad[..len].iter().map(|b| format!("{b:02x}")).collect();
            (
                line,
                at(e.valid_up_to()),
                format!(
                    "invalid UTF-8 (bytes {}): a rig file is UTF-8 text",
                    hex.join(" ")
                ),
            )
        })?;
        let body = text.strip_suffix('\r').unwrap_or(text);
        if let Some((j, c)) = body
            .char_indices()
            .find(|&(_, c)| c.is_control() && c != '\t')
        {
            return Err((
                line,
                at(j),
                format!(
                    "control character {} (U+{:04X}): a rig file is text",
                    c.escape_default(),
                    u32::from(c)
                ),
            ));
        }
    }
    // Cannot fail: every line was checked to be UTF-8.
    let text = std::str::from_utf8(bytes).map_err(|_| (1, 1, "invalid UTF-8".to_string()))?;
    if let Some(offset) = too_deep(text) {
        let (line, col) = line_col(bytes, offset);
        return Err((
            line,
            col,
            format!(
                "nested deeper than {MAX_RIG_DEPTH} levels (tables, dotted keys, arrays and \
                 inline tables; the limit, MAX_RIG_DEPTH)"
            ),
        ));
    }
    Ok(text)
}

/// The byte offset where `text` nests deeper than [`MAX_RIG_DEPTH`], if it does: a scan of
/// TOML's structure (strings and comments skipped, keys told from values) that counts, for
/// every key and array element, the keys and indices from the top of the file. It follows
/// TOML's grammar for what is valid; on invalid TOML it may count wrongly, but the parser
/// then stops at the first invalid place, before it nests deeper.
fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    // Open arrays (true) and inline tables (false), with the level of their elements.
    let mut stack: Vec<(bool, usize)> = Vec::new();
    // The level of the keys of the current `[table]`.
    let mut base = 1;
    // Expecting a key (else a value), and the dots of the key being read.
    let mut key = true;
    let mut dots = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        // The level of what is read here: a key's value, or an array's element.
        let cur = stack.last().map_or(base, |&(_, level)| level);
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                i = skip_string(b, i);
                continue;
            }
            b'\n' if stack.is_empty() => {
                key = true;
                dots = 0;
            }
            b'[' if key && stack.is_empty() => {
                // A table header `[a.b]` or `[[a.b]]` (an array's element: one more level).
                let mut level = 1;
                i += 1;
                if b.get(i) == Some(&b'[') {
                    level += 1;
                    i += 1;
                }
                while i < b.len() && b[i] != b']' && b[i] != b'\n' {
                    match b[i] {
                        b'"' | b'\'' => {
                            i = skip_string(b, i);
                            continue;
                        }
                        b'.' => level += 1,
                        _ => {}
                    }
                    if level > MAX_RIG_DEPTH {
                        return Some(i);
                    }
                    i += 1;
                }
                base = level + 1;
                if base > MAX_RIG_DEPTH {
                    return Some(i.min(b.len()));
                }
                continue;
            }
            b'.' if key => {
                dots += 1;
                if cur + dots > MAX_RIG_DEPTH {
                    return Some(i);
                }
            }
            b'=' if key => key = false,
            b'{' | b'[' if !key => {
                // The container is the value of a key (`cur + dots`) or an array's element
                // (`cur`); its elements are one level deeper.
                let level = cur + dots + 1;
                if level > MAX_RIG_DEPTH {
                    return Some(i);
                }
                let array = c == b'[';
                stack.push((array, level));
                key = !array;
                dots = 0;
            }
            b',' => {
                key = matches!(stack.last(), Some((false, _)));
                dots = 0;
            }
            b'}' | b']' if !stack.is_empty() => {
                stack.pop();
                key = false;
                dots = 0;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset just after the string starting at `i` (basic or literal, one-line or
/// multi-line), or the end of the text when it does not end.
fn skip_string(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let multi = b.len() >= i + 3 && b[i + 1] == q && b[i + 2] == q;
    let mut j = if multi { i + 3 } else { i + 1 };
    while j < b.len() {
        match b[j] {
            b'\\' if q == b'"' => j += 1,
            b'\n' if !multi => return j,
            x if x == q => {
                if !multi {
                    return j + 1;
                }
                let run = b[j..].iter().take_while(|&&x| x == q).count();
                if run >= 3 {
                    return j + run;
                }
                j += run;
                continue;
            }
            _ => {}
        }
        j += 1;
    }
    b.len()
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

    /// A file that does not end is read up to the limit (it was read whole before).
    #[test]
    fn endless_file_is_refused_at_the_limit() {
        let e = Rig::load(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(
            e.starts_with("rig file /dev/zero:1:65537: the file is larger than 65536 bytes"),
            "{e}"
        );
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
    #[test]
    fn hostile_files_are_refused_at_their_line_and_column() {
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (
                format!("rig = \"sim\"\n# {}\n", "x".repeat(2000)).into_bytes(),
                "lab.toml:2:1025: line longer than 1024 bytes (the limit, MAX_RIG_LINE_BYTES)",
            ),
            (
                format!("rig = \"sim\"\n{}", "# filler line\n".repeat(5000)).into_bytes(),
                "lab.toml:4682:5: the file is larger than 65536 bytes (the limit, MAX_RIG_FILE_BYTES)",
            ),
            (
                b"rig = \"sim\"\n[card]\ncpu = \"vex\xe9riscv\"\n".to_vec(),
                "lab.toml:3:11: invalid UTF-8 (bytes e9): a rig file is UTF-8 text",
            ),
            (
                b"rig = \"sim\"\n[card]\ncpu = \"a\0b\"\n".to_vec(),
                "lab.toml:3:9: control character \\u{0} (U+0000): a rig file is text",
            ),
            (
                b"rig = \"sim\" # \x1b[2J\n".to_vec(),
                "lab.toml:1:15: control character \\u{1b} (U+001B): a rig file is text",
            ),
            (
                b"rig = \"sim\"\rcard = 1\n".to_vec(),
                "lab.toml:1:12: control character \\r (U+000D)",
            ),
            (
                b"[a.b.c.d.e.f.g.h]\n".to_vec(),
                "lab.toml:1:17: nested deeper than 8 levels",
            ),
            (
                b"[a.b.c.d.e.f.g]\nh.i = 1\n".to_vec(),
                "lab.toml:2:2: nested deeper than 8 levels",
            ),
            (
                b"x = [[[[[[[[[[1]]]]]]]]]]\n".to_vec(),
                "lab.toml:1:12: nested deeper than 8 levels",
            ),
        ];
        for (bytes, want) in cases {
            let e = Rig::parse_bytes(&bytes, Path::new("lab.toml"))
                .expect_err("must be refused")
                .to_string();
            assert!(
                e.starts_with("rig file ") && e.contains(want),
                "{e}\n  want {want}"
            );
        }
        // CRLF line ends are fine.
        parse("rig = \"sim\"\r\n[card]\r\ncpu = \"vexriscv\"\r\n").unwrap();
        // Eight levels are allowed (here refused for the unknown key, not the nesting).
        let e = err("[a.b.c.d.e.f.g]\nh = 1\n");
        assert!(e.contains("a: unknown key"), "{e}");
    }

    /// Five lines of 146 bytes, each an inline table with a 70-part dotted key holding an
    /// array: 350 levels in 760 bytes. The TOML parser overflowed a test thread's stack on
    /// it (2 MiB, debug build; 20 such lines in a release build): an abort, not a panic.
    #[test]
    fn nesting_that_overflowed_the_parser_is_refused() {
        let one = format!("{{ {} = [\n", vec!["a"; 70].join("."));
        let text = format!("x = [\n{}1\n{}]\n", one.repeat(5), "] }\n".repeat(5));
        let e = Rig::parse_bytes(text.as_bytes(), Path::new("deep.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("rig file deep.toml:2:14: nested deeper than 8 levels"),
            "{e}"
        );
        // Arrays over many lines.
        let text = format!("x = {}1{}\n", "[\n".repeat(500), "]\n".repeat(500));
        let e = Rig::parse_bytes(text.as_bytes(), Path::new("deep.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("rig file deep.toml:8:1: nested deeper"),
            "{e}"
        );
    }

    #[test]
    fn odd_keys_are_named_quoted() {
        let e = err("\"\" = 1\n");
        assert!(e.starts_with("rig file lab.toml: \"\": unknown key"), "{e}");
        let e = err("rig = \"sim\"\n[card]\n\"c p\\\"u\" = 1\n");
        assert!(e.contains("card.\"c p\\\"u\": unknown key"), "{e}");
    }

    #[test]
    fn quoted_values_are_escaped_and_short() {
        let e = err("rig = \"sim\"\n[card]\ncpu = \"\\u001b[2Jz80\"\n");
        assert!(e.contains("`\\u{1b}[2Jz80` is not a soft core"), "{e}");
        let e = err(&format!(
            "rig = \"sim\"\n[card]\ncpu = \"\"\"{}\"\"\"\n",
            "z\n".repeat(10_000)
        ));
        assert!(e.len() < 300, "{e}");
        let e = err(&format!(
            "rig = \"lab\"\n[card]\nsocket = \"/{}\"\n",
            "s".repeat(200)
        ));
        assert!(
            e.contains("card.socket: `/sss") && e.contains("at most 107 bytes"),
            "{e}"
        );
    }
}
