//! Request heads the card and the backend must read alike (docs/canon.md): heads spelled so
//! that a naive match and nginx would disagree on the resource, sent by `snic-peer` through
//! the simulated card to real nginx backends. The data path flags them (NEEDS_NORM, NOT_HTTP
//! or ABSFORM); the firmware canonicalises each as nginx resolves it and matches the
//! canonical form again, or refuses an ambiguous head with a RST, counted per reason
//! (HEAD_STATS).
//!
//! Rules of the topology (`Opts::three_pools`): path prefix `/static/` → pool static
//! (static1), Host `api.example.com` → pool api (api1), else pool web (web1, web2). Every
//! backend serves `/id` (its name), `/api/x` and `/static/blob`, so only the `X-Backend`
//! header tells which pool a head reached.
//!
//! A second scenario on the same topology sends generated heads (`SPLICENIC_HEADS_E2E`, 60 by
//! default; seed `SPLICENIC_HEADS_E2E_SEED`) with one `snic-peer batch` run: the three
//! resources spelled in many ways, and refused spellings. The expected outcome of each is
//! `canon::canonicalize` plus the rules; each must be answered by that backend with that
//! body, or reset, and HEAD_STATS must agree.
//!
//! Needs root, nginx and the firmware ELF; without them it prints a note and passes (and
//! fails under `cargo xtask test`, which requires every prerequisite).

use sha2::{Digest, Sha256};
use splicenic_driver::flowmgr::{HeadRefusal, HeadStats};
use splicenic_fuzzkit::Rng;
use splicenic_fw_logic::canon::{self, Outcome};
use splicenic_hil::peer::{setup, SetupOpts, Tally, EXEC_TIMEOUT};
use splicenic_hil::topo::Topology;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The client binary.
const PEER: &str = env!("CARGO_BIN_EXE_snic-peer");

/// What a head must get.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// A 200 from one of these backends.
    From(&'static [&'static str]),
    /// A RST from the card, counted under this reason.
    Refused(HeadRefusal),
}

const STATIC: Want = Want::From(&["static1"]);
const API: Want = Want::From(&["api1"]);
const WEB: Want = Want::From(&["web1", "web2"]);

/// One `snic-peer request` with `args`: (status, backend, outcome, the whole line).
fn peer(t: &Topology, args: &[String]) -> (u16, String, String, String) {
    let to = format!("{}:{}", t.addrs.vip, t.addrs.vip_port);
    let mut cmd = vec![PEER, "request", "--to", &to, "--timeout-s", "20"];
    cmd.extend(args.iter().map(String::as_str));
    let out = t
        .exec(&t.client_ns, &cmd, EXEC_TIMEOUT)
        .expect("running snic-peer");
    assert!(out.ok, "snic-peer failed: {} {}", out.stderr, out.text());
    let line = out.text().trim().to_string();
    let field = |k: &str| {
        line.split_whitespace()
            .find_map(|f| f.strip_prefix(k).and_then(|v| v.strip_prefix('=')))
            .unwrap_or("")
            .to_string()
    };
    let status = field("status").parse().unwrap_or(0);
    (status, field("backend"), field("outcome"), line)
}

/// HEAD_STATS of the topology's card.
fn head_stats(t: &mut Topology) -> HeadStats {
    t.card
        .as_mut()
        .expect("card")
        .flow_manager()
        .head_stats()
        .expect("HEAD_STATS")
}

/// `bytes` in hex (what `snic-peer --raw` and `batch` read).
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `--raw` with the bytes of `head` (a hex file in the topology's folder).
fn raw(t: &Topology, name: &str, head: &[u8]) -> Vec<String> {
    let p = t.dir().join(format!("head-{name}.hex"));
    std::fs::write(&p, hex(head)).expect("writing the head");
    vec!["--raw".into(), p.display().to_string()]
}

fn pa(host: &str, path: &str) -> Vec<String> {
    ["--host", host, "--path", path]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn heads_route_as_the_backend_resolves_them() {
    let tools = [
        ("nginx", "-v"),
        ("curl", "--version"),
        ("python3", "--version"),
    ];
    let Some((_g, mut t, t0)) = setup("request heads", &tools, &SetupOpts::default()) else {
        return;
    };
    let www = "www.example.com";
    let mut cases: Vec<(&str, Vec<String>, Want)> = vec![
        // Paths nginx normalises reach the pool their resolved path names.
        (
            "dot segment into /static/",
            pa(www, "/x/../static/blob"),
            STATIC,
        ),
        ("encoded letter", pa(www, "/static/%62lob"), STATIC),
        (
            "encoded dot segment",
            pa(www, "/y/%2e%2e/static/blob"),
            STATIC,
        ),
        ("merged slashes", pa(www, "//static//blob"), STATIC),
        // ... and a path that leaves the guarded prefix leaves its pool.
        ("leaving /static/ by ..", pa(www, "/static/../id"), WEB),
        (
            "leaving /static/ by %2e%2e",
            pa(www, "/static/%2e%2e/id"),
            WEB,
        ),
        // Hosts: case, trailing dot, default port; the absolute form's authority wins.
        (
            "Host with a trailing dot",
            pa("API.Example.COM.", "/api/x"),
            API,
        ),
        ("Host with :80", pa("api.example.com:80", "/api/x"), API),
        (
            "absolute form over Host",
            pa(www, "http://api.example.com/api/x"),
            API,
        ),
        (
            "absolute form, Host api",
            pa("api.example.com", "http://www.example.com/static/blob"),
            STATIC,
        ),
        // Ambiguous heads are refused.
        (
            "%2F",
            pa(www, "/static%2Fblob"),
            Want::Refused(HeadRefusal::EncodedSlash),
        ),
        (
            "backslash",
            pa(www, "/static\\blob"),
            Want::Refused(HeadRefusal::Backslash),
        ),
        (
            "above the root",
            pa(www, "/../static/blob"),
            Want::Refused(HeadRefusal::AboveRoot),
        ),
    ];
    let raw_heads: [(&str, &[u8], Want); 6] = [
        (
            "bare LF",
            b"GET /static/blob HTTP/1.1\nHost: www.example.com\n\n",
            STATIC,
        ),
        (
            "bare LF, Host api",
            b"GET /api/x HTTP/1.1\nHost: api.example.com\n\n",
            API,
        ),
        (
            "an empty line first",
            b"\r\nGET /static/blob HTTP/1.1\r\nHost: www.example.com\r\n\r\n",
            STATIC,
        ),
        (
            "two spaces",
            b"GET  /static/blob  HTTP/1.1\r\nHost: www.example.com\r\n\r\n",
            STATIC,
        ),
        (
            "two Host lines",
            b"GET /api/x HTTP/1.1\r\nHost: www.example.com\r\nHost: api.example.com\r\n\r\n",
            Want::Refused(HeadRefusal::DuplicateHost),
        ),
        (
            "no version (HTTP/0.9 to nginx)",
            b"GET /static/blob\r\n",
            Want::Refused(HeadRefusal::Version),
        ),
    ];
    for (k, (label, head, want)) in raw_heads.iter().enumerate() {
        let a = raw(&t, &k.to_string(), head);
        cases.push((label, a, *want));
    }
    // Large heads (docs/flowmgr.md: the request line and the Host line within the 1 KiB
    // buffer route whatever follows): cookies of 2-8 KB behind them, in one write or in
    // small segments; the request line and Host line themselves up to about 1 KiB.
    let cookie = |n: usize| format!("Cookie: c={}", "k".repeat(n));
    let big = |path: &str, host: &str, headers: Vec<String>, shape: &[&str]| {
        let mut a = pa(host, path);
        for h in headers {
            a.push("--header".into());
            a.push(h);
        }
        a.extend(shape.iter().map(|s| s.to_string()));
        a
    };
    let long_path = format!("/static/blob?{}", "u".repeat(900));
    cases.extend([
        (
            "2 KB cookie",
            big("/static/blob", www, vec![cookie(2000)], &[]),
            STATIC,
        ),
        (
            "7 KB cookie",
            big("/api/x", "api.example.com", vec![cookie(7000)], &[]),
            API,
        ),
        (
            "8 KB of cookies in 16 pieces",
            big(
                "/static/blob",
                www,
                (0..4).map(|_| cookie(2000)).collect(),
                &["--pieces", "16", "--gap-ms", "10"],
            ),
            STATIC,
        ),
        (
            "930-byte request line, 4 KB cookie, 536-byte segments",
            big(&long_path, www, vec![cookie(4000)], &["--mss", "536"]),
            STATIC,
        ),
        (
            "930-byte request line, 3 KB cookie in 10 pieces",
            big(
                &long_path,
                www,
                vec![cookie(3000)],
                &["--pieces", "10", "--gap-ms", "10"],
            ),
            STATIC,
        ),
    ]);

    let before = head_stats(&mut t);
    let mut tally = Tally::default();
    let mut wrong = Vec::new();
    let mut refused_want = std::collections::HashMap::new();
    for (label, args, want) in &cases {
        let (status, backend, outcome, line) = peer(&t, args);
        tally.connections += 1;
        let ok = match want {
            Want::From(names) => status == 200 && names.contains(&backend.as_str()),
            Want::Refused(r) => {
                *refused_want.entry(*r).or_insert(0u32) += 1;
                outcome == "reset" && status == 0
            }
        };
        eprintln!("  {label}: {line}{}", if ok { "" } else { "  <-- WRONG" });
        if !ok {
            wrong.push(format!("{label}: expected {want:?}, got `{line}`"));
        }
    }
    let after = head_stats(&mut t);
    let flagged = after.flagged - before.flagged;
    let canonical = after.canonical - before.canonical;
    let refused = after.refused_total() - before.refused_total();
    eprintln!(
        "request heads: {} cases, {flagged} flagged, {canonical} routed by their canonical form, {refused} refused, {} cycles per flagged head",
        cases.len(),
        after.cycles_per_head()
    );
    assert!(
        wrong.is_empty(),
        "{} heads misrouted:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    for (r, n) in &refused_want {
        assert_eq!(
            after.refused_for(*r) - before.refused_for(*r),
            *n,
            "refusals for {}",
            r.name()
        );
    }
    let refusals: u32 = refused_want.values().sum();
    assert_eq!(refused, u64::from(refusals));
    // Each flagged head is decided once: routed by its canonical form, refused, or not HTTP
    // (none here).
    assert_eq!(after.not_http, before.not_http, "{after:?}");
    assert_eq!(
        u64::from(flagged),
        u64::from(canonical) + refused,
        "{after:?}"
    );
    // Every head that is routed is flagged but "Host with :80" (the data path strips a
    // numeric port itself) and the five large heads (plain HTTP).
    let routed = cases.len() - refusals as usize;
    assert_eq!(canonical as usize, routed - 6, "{after:?}");
    tally.connections += real_clients_with_large_heads(&t);
    tally.connections += generated_heads(&mut t);
    t.finish("request heads", &tally, t0);
}

/// python3 client: argv = vip, port, host, path, cookie bytes, chunk bytes. Sends a GET with
/// a Cookie header of that size in chunks of that size (TCP_NODELAY, 5 ms apart, so each is
/// a segment of its own), reads the whole response and prints `status backend`.
const SMALL_SEGMENTS_PY: &str = r#"
import socket, sys, time
vip, port, host, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
cookie, chunk = int(sys.argv[5]), int(sys.argv[6])
head = ("GET %s HTTP/1.1\r\nHost: %s\r\nCookie: c=%s\r\nConnection: close\r\n\r\n"
        % (path, host, "k" * cookie)).encode()
s = socket.create_connection((vip, port), timeout=30)
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
for i in range(0, len(head), chunk):
    s.sendall(head[i:i + chunk])
    time.sleep(0.005)
data = b""
while True:
    d = s.recv(65536)
    if not d:
        break
    data += d
top, _, _ = data.partition(b"\r\n\r\n")
lines = top.decode("latin-1").split("\r\n")
backend = [l.split(":", 1)[1].strip() for l in lines[1:] if l.lower().startswith("x-backend:")]
print(lines[0].split()[1], backend[0] if backend else "-")
"#;

/// Large heads (1-8 KB: long cookies behind the request line and the Host line) from real
/// clients: curl, and python3 writing the head in small segments. Each must be answered by
/// the pool its path or Host names. Returns the connections made.
fn real_clients_with_large_heads(t: &Topology) -> usize {
    let mut wrong = Vec::new();
    let mut n = 0;
    let long_query = format!("/static/blob?{}", "u".repeat(800));
    for (label, host, path, cookie, want) in [
        (
            "curl, 1 KB cookie",
            "www.example.com",
            "/static/blob",
            1000,
            "static1",
        ),
        (
            "curl, 6 KB cookie",
            "api.example.com",
            "/api/x",
            6000,
            "api1",
        ),
        (
            "curl, 830-byte request line, 7 KB cookie",
            "www.example.com",
            long_query.as_str(),
            7000,
            "static1",
        ),
    ] {
        let cookie = format!("Cookie: c={}", "k".repeat(cookie));
        let r = t.curl(host, path, &["-H", &cookie]).expect("curl");
        n += 1;
        eprintln!(
            "  {label}: status {} backend {} ({:.1?})",
            r.status, r.backend, r.wall
        );
        if r.status != 200 || r.backend != want {
            wrong.push(format!(
                "{label}: status {} backend {:?}, expected 200 from {want}",
                r.status, r.backend
            ));
        }
    }
    let (vip, port) = (t.addrs.vip.to_string(), t.addrs.vip_port.to_string());
    for (label, host, path, cookie, chunk, want) in [
        (
            "python3, 4 KB cookie in 100-byte segments",
            "www.example.com",
            "/static/blob",
            "4000",
            "100",
            "static1",
        ),
        (
            "python3, 8 KB cookie in 536-byte segments",
            "api.example.com",
            "/api/x",
            "7800",
            "536",
            "api1",
        ),
        (
            "python3, 830-byte request line in 64-byte segments",
            "www.example.com",
            long_query.as_str(),
            "2000",
            "64",
            "static1",
        ),
    ] {
        let out = t
            .exec(
                &t.client_ns,
                &[
                    "python3",
                    "-c",
                    SMALL_SEGMENTS_PY,
                    &vip,
                    &port,
                    host,
                    path,
                    cookie,
                    chunk,
                ],
                EXEC_TIMEOUT,
            )
            .expect("python3");
        n += 1;
        let text = out.text();
        eprintln!("  {label}: {} {}", text.trim(), out.stderr.trim());
        if !out.ok || text.split_whitespace().collect::<Vec<_>>() != ["200", want] {
            wrong.push(format!(
                "{label}: `{}` {}, expected 200 from {want}",
                text.trim(),
                out.stderr.trim()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "large heads misrouted:\n{}",
        wrong.join("\n")
    );
    n
}

/// Indices of the slashes of `p`.
fn slashes(p: &str) -> Vec<usize> {
    p.match_indices('/').map(|(i, _)| i).collect()
}

/// `p` with `what` inserted before one of its slashes.
fn at_slash(r: &mut Rng, p: &str, what: &str) -> String {
    let i = r.pick(&slashes(p));
    format!("{}{what}{}", &p[..i], &p[i..])
}

/// A spelling of `path` that nginx resolves to it (or, through `/static/..`, next to it).
fn spell_path(r: &mut Rng, path: &str) -> String {
    let mut p = path.to_string();
    for _ in 0..r.below(4) {
        p = match r.below(8) {
            0 => at_slash(r, &p, "/x/.."),
            1 => at_slash(r, &p, "/."),
            2 => {
                let seg = if r.percent(50) {
                    "/y/%2e%2e"
                } else {
                    "/y/%2E."
                };
                at_slash(r, &p, seg)
            }
            3 => at_slash(r, &p, "/"),
            4 => {
                // A letter percent-encoded (either case of hex digits).
                let letters: Vec<usize> = p
                    .bytes()
                    .enumerate()
                    .filter(|(_, b)| b.is_ascii_alphabetic())
                    .map(|(i, _)| i)
                    .collect();
                if letters.is_empty() {
                    p
                } else {
                    let i = r.pick(&letters);
                    let enc = format!("%{:02x}", p.as_bytes()[i]);
                    let enc = if r.percent(50) {
                        enc.to_uppercase()
                    } else {
                        enc
                    };
                    format!("{}{enc}{}", &p[..i], &p[i + 1..])
                }
            }
            5 => format!("/static/{}{p}", if r.percent(50) { ".." } else { "%2e%2e" }),
            6 => at_slash(r, &p, "/static/x/.."),
            _ => p,
        };
    }
    p
}

/// A spelling of `host`: letter case, a trailing dot, `:80`.
fn spell_host(r: &mut Rng, host: &str) -> String {
    let mut h: String = if r.percent(30) {
        host.chars()
            .map(|c| {
                if r.percent(40) {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    } else {
        host.to_string()
    };
    if r.percent(20) {
        h.push('.');
    }
    if r.percent(15) {
        h.push_str(":80");
    }
    h
}

/// One generated head: a resource spelled in several ways, sometimes with a refused
/// spelling.
fn gen_head(r: &mut Rng) -> Vec<u8> {
    const HOSTS: [&str; 2] = ["www.example.com", "api.example.com"];
    let res = r.pick(&[
        "/id",
        "/id",
        "/api/x",
        "/api/x",
        "/static/blob",
        "/static/blob",
        "/static/none",
        "/nope",
    ]);
    let mut path = spell_path(r, res);
    // Refused spellings of the path.
    match r.below(24) {
        0 => {
            let s = slashes(&path);
            if s.len() > 1 {
                let i = s[1 + r.below(s.len() - 1)];
                path = format!("{}%2{}{}", &path[..i], r.pick(&["F", "f"]), &path[i + 1..]);
            }
        }
        1 => {
            let s = slashes(&path);
            let i = r.pick(&s);
            path = format!("{}\\{}", &path[..i], &path[i + 1..]);
        }
        2 => path = format!("/..{path}"),
        _ => {}
    }
    if r.percent(15) {
        let query: &str = r.pick(&["?a=1", "?x=/static/blob", "?q=%2F..%5C", "?"]);
        path.push_str(query);
    }
    if r.percent(10) {
        path.push_str("#x");
    }
    let host = r.pick(&HOSTS);
    let (target, host_line_host) = if r.percent(15) {
        // The absolute form's authority overrides Host.
        let other = r.pick(&HOSTS);
        let scheme = if r.percent(70) { "http" } else { "HTTP" };
        (
            format!("{scheme}://{}{path}", spell_host(r, host)),
            spell_host(r, other),
        )
    } else {
        (path, spell_host(r, host))
    };
    let eol = if r.percent(15) { "\n" } else { "\r\n" };
    let sp = |r: &mut Rng| if r.percent(8) { "  " } else { " " };
    let mut h = String::new();
    if r.percent(8) {
        h.push_str(if r.percent(50) { "\r\n" } else { "\n" });
    }
    let no_version = r.percent(3);
    let version = if r.percent(15) {
        "HTTP/1.0"
    } else {
        "HTTP/1.1"
    };
    if no_version {
        h.push_str(&format!("GET{}{target}{eol}", sp(r)));
        if r.percent(50) {
            return h.into_bytes();
        }
    } else {
        h.push_str(&format!("GET{}{target}{}{version}{eol}", sp(r), sp(r)));
    }
    let extra = [
        "User-Agent: snic-peer",
        "Accept: */*",
        "X-Pad: 0123456789abcdef",
        "Cookie: c=1",
        "Accept-Encoding: identity",
    ];
    let n_extra = r.below(3);
    let before = r.below(n_extra + 1);
    for k in 0..n_extra {
        if k == before {
            break;
        }
        h.push_str(&format!("{}{eol}", r.pick(&extra)));
    }
    let name = r.pick(&["Host", "Host", "host", "HOST"]);
    let colon_sp = if r.percent(85) { " " } else { "" };
    h.push_str(&format!("{name}:{colon_sp}{host_line_host}{eol}"));
    if r.percent(3) {
        h.push_str(&format!("Host: {}{eol}", r.pick(&HOSTS)));
    }
    for _ in before..n_extra {
        h.push_str(&format!("{}{eol}", r.pick(&extra)));
    }
    h.push_str(eol);
    h.into_bytes()
}

/// What a generated head must get.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Expect {
    /// Routed to one of these backends: status and body (`None`: a 404 of that backend);
    /// `path` is the canonical path.
    Routed {
        pool: &'static str,
        names: &'static [&'static str],
        body: Option<Vec<u8>>,
        path: String,
    },
    /// Reset, counted under this reason.
    Refused(HeadRefusal),
}

/// The outcome the canonicaliser and the rules of `Opts::three_pools` give `head`, `None`
/// when the head is not decided (never for a generated one).
fn expect(head: &[u8], blob: &[u8]) -> Option<Expect> {
    let mut out = [0u8; canon::OUT_LEN];
    let web = Expect::Routed {
        pool: "web",
        names: &["web1", "web2"],
        body: None,
        path: String::new(),
    };
    let (host, path) = match canon::canonicalize(head, &mut out) {
        Outcome::Incomplete => return None,
        Outcome::Refuse(r) if r == HeadRefusal::Method || head.starts_with(b"PRI * HTTP/2.0") => {
            return Some(web)
        }
        Outcome::Refuse(r) => return Some(Expect::Refused(r)),
        Outcome::Canonical(c) => (c.host.to_vec(), c.path.to_vec()),
    };
    let (pool, names): (&'static str, &'static [&'static str]) = if path.starts_with(b"/static/") {
        ("static", &["static1"])
    } else if host == b"api.example.com" {
        ("api", &["api1"])
    } else {
        ("web", &["web1", "web2"])
    };
    // Every backend serves the same three files; only the name in them differs, so the body
    // is filled in per backend when the line is checked (`{}` stands for the name).
    let body = match path.as_slice() {
        b"/id" => Some(b"{}\n".to_vec()),
        b"/api/x" => Some(b"api {}\n".to_vec()),
        b"/static/blob" => Some(blob.to_vec()),
        _ => None,
    };
    let path = String::from_utf8_lossy(&path).into_owned();
    Some(Expect::Routed {
        pool,
        names,
        body,
        path,
    })
}

/// A head for messages: printable ASCII, the rest escaped.
fn shown(head: &[u8]) -> String {
    head.escape_ascii().to_string()
}

/// Whether the data path surely flags `head` (a subset of what it flags: NEEDS_NORM for `%`,
/// `\`, `#`, `//`, `.` and `..` segments in the path or a trailing dot of the Host; ABSFORM;
/// NOT_HTTP for a request line other than `METHOD SP target SP HTTP/1.x CRLF`).
fn surely_flagged(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let line_end = text.find('\n').unwrap_or(text.len());
    let line = &text[..line_end];
    if !line.ends_with('\r') || line.contains("  ") || line.starts_with('\r') {
        return true;
    }
    let Some(target) = line.split(' ').nth(1) else {
        return true;
    };
    let lower = target.to_ascii_lowercase();
    if lower.starts_with("http://") {
        return true;
    }
    let path = &target[..target.find('?').unwrap_or(target.len())];
    let segs: Vec<&str> = path.split('/').collect();
    path.contains(['%', '\\', '#'])
        || path.contains("//")
        || segs[1..].iter().any(|s| *s == "." || *s == "..")
}

/// The generated heads, sent with one `snic-peer batch`; the connections made.
fn generated_heads(t: &mut Topology) -> usize {
    let n = splicenic_fuzzkit::env_u64("SPLICENIC_HEADS_E2E").unwrap_or(60) as usize;
    let seed = splicenic_fuzzkit::env_u64("SPLICENIC_HEADS_E2E_SEED").unwrap_or(1);
    let mut rng = Rng(seed);
    // Local ports 20000.. (below the ephemeral range, 32768..).
    assert!(n <= 12_000, "SPLICENIC_HEADS_E2E: at most 12000 heads");
    let mut heads = Vec::with_capacity(n);
    while heads.len() < n {
        let h = gen_head(&mut rng);
        if let Some(e) = expect(&h, &t.blob) {
            heads.push((h, e));
        }
    }
    let file = t.dir().join("heads-e2e.hex");
    let text: String = heads
        .iter()
        .map(|(h, _)| {
            let mut l = hex(h);
            l.push('\n');
            l
        })
        .collect();
    std::fs::write(&file, text).expect("writing the heads");
    let before = head_stats(t);
    let to = format!("{}:{}", t.addrs.vip, t.addrs.vip_port);
    let file_s = file.display().to_string();
    let started = Instant::now();
    let out = t
        .exec(
            &t.client_ns,
            &[
                PEER,
                "batch",
                "--to",
                &to,
                "--file",
                &file_s,
                // Ports of their own, below the kernel's ephemeral range the first scenario
                // used: a reused 4-tuple would meet a closing flow the card still holds.
                "--first-lport",
                "20000",
                "--timeout-s",
                "20",
            ],
            // A head takes well under a second; the blob about half of one.
            Duration::from_secs(60 + 3 * n as u64),
        )
        .expect("running snic-peer batch");
    let wall = started.elapsed();
    assert!(
        out.ok,
        "snic-peer batch failed: {} {}",
        out.stderr,
        out.text()
    );
    let after = head_stats(t);
    let text = out.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), n, "one line per head:\n{text}");

    let mut routed: BTreeMap<&str, usize> = BTreeMap::new();
    let mut refused_want: BTreeMap<&str, (HeadRefusal, u32)> = BTreeMap::new();
    let mut not_found = 0;
    let mut surely = 0u32;
    let mut failures = Vec::new();
    // (backend, canonical path) of each 404.
    let mut missing: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (k, ((head, want), line)) in heads.iter().zip(&lines).enumerate() {
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|f| f.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
                .unwrap_or("")
                .to_string()
        };
        let status: u16 = field("status").parse().unwrap_or(0);
        let backend = field("backend");
        let (outcome, sha) = (field("outcome"), field("body_sha256"));
        let ok = field("index") == k.to_string()
            && match want {
                Expect::Routed {
                    pool,
                    names,
                    body,
                    path,
                } => {
                    *routed.entry(pool).or_default() += 1;
                    surely += u32::from(surely_flagged(head));
                    let from = names.contains(&backend.as_str());
                    from && outcome == "ok"
                        && match body {
                            Some(b) => {
                                let b = if b.len() < 64 {
                                    String::from_utf8_lossy(b)
                                        .replace("{}", &backend)
                                        .into_bytes()
                                } else {
                                    b.clone()
                                };
                                status == 200 && sha == format!("{:x}", Sha256::digest(&b))
                            }
                            None => {
                                not_found += 1;
                                *missing.entry((backend.clone(), path.clone())).or_default() += 1;
                                status == 404
                            }
                        }
                }
                Expect::Refused(r) => {
                    refused_want.entry(r.name()).or_insert((*r, 0)).1 += 1;
                    outcome == "reset" && status == 0
                }
            };
        if !ok {
            failures.push(format!(
                "  head {k} `{}`: expected {}, got `{line}`",
                shown(head),
                match want {
                    Expect::Routed { names, body, .. } => format!(
                        "{} from {names:?}",
                        if body.is_some() { "200" } else { "404" }
                    ),
                    Expect::Refused(r) => format!("reset ({})", r.name()),
                }
            ));
        }
    }
    // Each 404 left one line in its backend's error log naming the file nginx resolved the
    // head to: the canonical path under its docroot. Those lines are taken out of the log
    // (the topology's check of the logs sees the rest); a 404 without its line is a failure.
    for b in &t.backends {
        let log_path = b.dir.join("logs/error.log");
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        let root = format!("open() \"{}/www", b.dir.display());
        let mut kept = String::new();
        for l in log.lines() {
            let resolved = l
                .split_once(&root)
                .and_then(|(_, rest)| rest.split_once("\" failed (2: No such file or directory)"))
                .map(|(p, _)| p.to_string());
            let key = resolved.map(|p| (b.name.clone(), p));
            match key.as_ref().and_then(|k| missing.get_mut(k)) {
                Some(c) if *c > 0 && l.contains("[error]") => *c -= 1,
                _ => {
                    kept.push_str(l);
                    kept.push('\n');
                }
            }
        }
        std::fs::write(&log_path, kept).expect("rewriting the error log");
    }
    for ((backend, path), c) in &missing {
        if *c > 0 {
            failures.push(format!(
                "  {c} 404s of {backend} for {path} without the error log line naming that file"
            ));
        }
    }
    let flagged = after.flagged - before.flagged;
    let canonical = after.canonical - before.canonical;
    let refused: u32 = HeadRefusal::ALL
        .iter()
        .map(|r| after.refused_for(*r) - before.refused_for(*r))
        .sum();
    let n_routed: usize = routed.values().sum();
    let refused_s: Vec<String> = refused_want
        .iter()
        .map(|(name, (_, c))| format!("{name} {c}"))
        .collect();
    let routed_s: Vec<String> = routed.iter().map(|(p, c)| format!("{p} {c}")).collect();
    eprintln!(
        "generated heads: seed {seed}, {n} heads in {:.1} s: routed {n_routed} {{{}}} (404 {not_found}), refused {} {{{}}}; HEAD_STATS flagged {flagged}, canonical {canonical}, refused {refused}; failures {}",
        wall.as_secs_f64(),
        routed_s.join(", "),
        refused_want.values().map(|(_, c)| c).sum::<u32>(),
        refused_s.join(", "),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} generated heads not answered as expected:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Each refusal is counted under its reason, and nothing else is refused.
    for r in HeadRefusal::ALL {
        let want = refused_want.get(r.name()).map_or(0, |(_, c)| *c);
        assert_eq!(
            after.refused_for(r) - before.refused_for(r),
            want,
            "refusals for {}",
            r.name()
        );
    }
    // No head here is not HTTP; every flagged head is routed by its canonical form or
    // refused; the routed heads the data path surely flags are among the canonical ones.
    assert_eq!(after.not_http, before.not_http, "{after:?}");
    assert_eq!(flagged, canonical + refused, "{after:?}");
    assert!(
        (surely..=n_routed as u32).contains(&canonical),
        "canonical {canonical}, expected {surely}..={n_routed}: {after:?}"
    );
    n
}
