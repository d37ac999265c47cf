//! Differential test: the simulated card's routing decision for a request head against the
//! resource a real nginx resolves for the same head, with no card in between.
//!
//! A rule set like the product's (`path_prefix /static/`, exact `path /admin`, `host
//! api.example.com`, `host *.example.org`, `host api.example.com` with `path_prefix /v1/`, a
//! default pool) is loaded into the Verilated L7 matcher. For each head:
//!
//! * **card**: the firmware's decision (`firmware/logic/src/splicer/mod.rs`, `on_match` and
//!   `canonicalize_head`): the matcher's verdict without NEEDS_NORM, NOT_HTTP or ABSFORM
//!   routes directly (its pool; INCOMPLETE = wait); a flagged head goes through
//!   `canon::canonicalize`: Canonical → `GET <path> HTTP/1.1\r\nHost: <host>\r\n\r\n` (path
//!   percent-encoded as the firmware writes it) matched again by the same RTL, whose pool
//!   routes; Refuse → RST, except `method` or the HTTP/2 preface → the default pool (not
//!   HTTP); Incomplete → wait;
//! * **nginx**: the head sent to nginx (`return 200 "$host|$uri\n"`, see `nginx/mod.rs`);
//!   on 200 the same rules applied to `($host, $uri)` by [`rules_pool`] (lowest priority,
//!   then first declared, docs/config.md "Precedence") give the pool of the resource nginx
//!   serves.
//!
//! A mismatch (the test fails) is a head nginx serves that the card routes to another pool.
//! An RST where nginx serves is "stricter" (counted per reason), routing where nginx refuses
//! is counted (no resource is served), and so are waits. Heads: `canon_gen` (differential
//! mode) mixed with heads aimed at the rules' paths and hosts through encodings (dot
//! segments, `%`-escapes, `//`, trailing-dot hosts, ports, absolute form, bare LF, leading
//! empty lines, several spaces, case).
//!
//! The short form (2 000 heads) runs in `cargo test`; the long form:
//!
//! ```text
//! SPLICENIC_L7_NGINX_CASES=100000 [SPLICENIC_L7_NGINX_SEED=1] \
//!     cargo test --release -p splicenic-tb-l7 --test nginx_diff -- --nocapture
//! ```
//!
//! A missing nginx fails the test.

use std::collections::BTreeMap;
use std::time::Instant;

use splicenic_fw_logic::canon::{canonicalize, Outcome, Reason, OUT_LEN, REASONS};
use splicenic_tb_l7::flags::{ABSFORM, INCOMPLETE, NEEDS_NORM, NOT_HTTP};
use splicenic_tb_l7::reference::{HostKind, PathKind, Rule};
use splicenic_tb_l7::{Matcher, RunOpts};

#[path = "../../../../firmware/logic/tests/canon_gen/mod.rs"]
mod canon_gen;
use canon_gen::{cases_and_seed, encode_path, head, Rng};

#[path = "../../../../firmware/logic/tests/nginx/mod.rs"]
mod nginx;
use nginx::{ask, show, start_nginx, Answer};

const SHORT_CASES: u64 = 2_000;
const DEFAULT_POOL: u16 = 9;
/// The matcher's data width the product builds.
const WIDTH: u32 = 512;
/// The firmware's head buffer (`splicer::REQ_BUF`): the bytes it matches and canonicalises.
const REQ_BUF: usize = 1024;
/// Heads per `Matcher::run`.
const BATCH: usize = 500;
/// The firmware's flags that send a head to the slow path (`l7f::FLAGGED`).
const FLAGGED: u32 = NEEDS_NORM | NOT_HTTP | ABSFORM;
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n";

fn rules() -> Vec<Rule> {
    // Rule::new(priority, host, path, pool, rule_id); slot i has rule id i.
    vec![
        Rule::new(10, "api.example.com", "/v1/*", 5, 0),
        Rule::new(20, "", "/static/*", 1, 1),
        Rule::new(20, "", "/admin", 2, 2),
        Rule::new(50, "api.example.com", "", 3, 3),
        Rule::new(60, "*.example.org", "", 4, 4),
    ]
}

/// The pool the rules give for a host and path as nginx resolved them (`$host`, `$uri`):
/// the matching rule with the lowest priority number, the first declared among equals; no
/// match: the default pool.
fn rules_pool(rules: &[Rule], host: &[u8], path: &[u8]) -> u16 {
    rules
        .iter()
        .filter(|r| {
            r.valid
                && match r.path_kind {
                    PathKind::Any => true,
                    PathKind::Exact => path == &r.path[..],
                    PathKind::Prefix => path.starts_with(&r.path),
                    PathKind::Never => false,
                }
                && match r.host_kind {
                    HostKind::Any => true,
                    HostKind::Exact => host == &r.host[..],
                    HostKind::Suffix => host.len() > r.host.len() && host.ends_with(&r.host),
                    HostKind::Never => false,
                }
        })
        .min_by_key(|r| r.priority)
        .map_or(DEFAULT_POOL, |r| r.pool)
}

/// The card's decision for one head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Card {
    /// The matcher's first verdict routed (not flagged).
    Direct(u16),
    /// Canonicalised and matched again: that verdict's pool.
    Canonical(u16),
    /// Not HTTP (`method`, HTTP/2 preface): the default pool.
    NotHttp,
    /// RST.
    Rst(Reason),
    /// More bytes needed.
    Wait,
}

impl Card {
    fn pool(self) -> Option<u16> {
        match self {
            Card::Direct(p) | Card::Canonical(p) => Some(p),
            Card::NotHttp => Some(DEFAULT_POOL),
            Card::Rst(_) | Card::Wait => None,
        }
    }
}

/// The firmware's canonical head (`splicer::canonical_head`).
fn canonical_head(path: &[u8], host: &[u8]) -> Option<Vec<u8>> {
    let mut h = b"GET ".to_vec();
    h.extend_from_slice(&encode_path(path));
    h.extend_from_slice(b" HTTP/1.1\r\nHost: ");
    h.extend_from_slice(host);
    h.extend_from_slice(b"\r\n\r\n");
    (h.len() <= REQ_BUF).then_some(h)
}

/// The card's decisions for `heads`: the first match of every head in batches, then the
/// canonical forms of the flagged ones in batches.
fn card_decisions(m: &mut Matcher, heads: &[Vec<u8>], flagged: &mut u64) -> Vec<Card> {
    let bytes: Vec<&[u8]> = heads.iter().map(|h| &h[..h.len().min(REQ_BUF)]).collect();
    let mut first = vec![None; heads.len()];
    let idx: Vec<usize> = (0..heads.len()).filter(|&i| !bytes[i].is_empty()).collect();
    for chunk in idx.chunks(BATCH) {
        let reqs: Vec<Vec<u8>> = chunk.iter().map(|&i| bytes[i].to_vec()).collect();
        let out = m.run(&reqs, &RunOpts::default()).expect("matcher run");
        for (&i, r) in chunk.iter().zip(&out.results) {
            first[i] = Some((r.flags, r.pool));
        }
    }
    let mut cards = vec![Card::Wait; heads.len()];
    let mut again: Vec<(usize, Vec<u8>)> = Vec::new();
    let mut out = [0u8; OUT_LEN];
    for (i, v) in first.iter().enumerate() {
        // No bytes: no verdict, the card waits.
        let Some((flags, pool)) = *v else { continue };
        if flags & FLAGGED == 0 {
            if flags & INCOMPLETE == 0 {
                cards[i] = Card::Direct(pool);
            }
            continue;
        }
        *flagged += 1;
        cards[i] = match canonicalize(bytes[i], &mut out) {
            Outcome::Incomplete => Card::Wait,
            Outcome::Refuse(r) if r == Reason::Method || bytes[i].starts_with(H2_PREFACE) => {
                Card::NotHttp
            }
            Outcome::Refuse(r) => Card::Rst(r),
            Outcome::Canonical(c) => match canonical_head(c.path, c.host) {
                Some(h) => {
                    again.push((i, h));
                    Card::Wait
                }
                None => Card::Rst(Reason::HeadTooLong),
            },
        };
    }
    for chunk in again.chunks(BATCH) {
        let reqs: Vec<Vec<u8>> = chunk.iter().map(|(_, h)| h.clone()).collect();
        let out = m.run(&reqs, &RunOpts::default()).expect("matcher run");
        for ((i, _), r) in chunk.iter().zip(&out.results) {
            // The canonical form's verdict is final; an incomplete one would wait.
            if r.flags & INCOMPLETE == 0 || r.flags & NOT_HTTP != 0 {
                cards[*i] = Card::Canonical(r.pool);
            }
        }
    }
    cards
}

// ---- heads aimed at the rules ----

const PATHS: &[&str] = &[
    "/static/app.css",
    "/static/",
    "/static",
    "/staticx/a",
    "/admin",
    "/admin/",
    "/admin/x",
    "/adminx",
    "/v1/users",
    "/v1",
    "/v2/users",
    "/other",
    "/",
    "/Static/a",
    "/ADMIN",
];

const HOSTS: &[&str] = &[
    "api.example.com",
    "API.Example.COM",
    "api.example.com.",
    "API.EXAMPLE.COM.",
    "api.example.com:80",
    "api.example.com:8080",
    "api.example.com.:443",
    "a.example.org",
    "A.Example.Org.",
    "b.c.example.org",
    "example.org",
    "example.org.",
    "www.example.com",
    "api.example.com.evil",
    "[::1]",
    "[::1]:8080",
    "10.0.0.1",
    "a..example.org",
    "api%2eexample.com",
];

/// Re-spells a path: the same resource for nginx (dot segments, `%`-escapes, `//`), or a
/// different one (case, query, fragment).
fn respell(rng: &mut Rng, path: &str) -> String {
    let mut p = path.to_string();
    for _ in 0..1 + rng.below(3) {
        let slashes: Vec<usize> = p.match_indices('/').map(|(i, _)| i).collect();
        let at = slashes[rng.below(slashes.len())];
        match rng.below(12) {
            0 => p.insert_str(at, "/x/.."),
            1 => p.insert_str(at, "/."),
            2 => p.insert_str(at, "/x/%2e%2e"),
            3 => p.insert_str(at, "/%2E"),
            4 => p.insert(at, '/'),
            5 => p = format!("/static/..{p}"),
            6 => p = format!("/admin/..{p}"),
            7 => p = format!("/..{p}"),
            8 => {
                // One byte percent-encoded, upper or lower case hex.
                let bytes: Vec<(usize, char)> = p.char_indices().skip(1).collect();
                if let Some(&(i, c)) = bytes.get(rng.below(bytes.len().max(1))) {
                    let e = if rng.chance(2) {
                        format!("%{:02X}", c as u32)
                    } else {
                        format!("%{:02x}", c as u32)
                    };
                    p.replace_range(i..i + c.len_utf8(), &e);
                }
            }
            9 => p.push_str(rng.pick(&["?a=1", "?x=/../admin", "#frag", "?", "%3Fq"])),
            10 => p.push_str(rng.pick(&["/.", "/..", "/", "//", "/x/.."])),
            _ => {
                let i = rng.below(p.len());
                if let Some(c) = p[i..].chars().next().filter(char::is_ascii_alphabetic) {
                    let s = if c.is_ascii_lowercase() {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    };
                    p.replace_range(i..i + 1, &s.to_string());
                }
            }
        }
    }
    p
}

fn aimed_head(rng: &mut Rng) -> Vec<u8> {
    let base = rng.pick(PATHS);
    let path = if rng.chance(4) {
        base.to_string()
    } else {
        respell(rng, base)
    };
    let host = rng.pick(HOSTS);
    let eol = if rng.chance(4) { "\n" } else { "\r\n" };
    let sp = || " ";
    let mut h = String::new();
    if rng.chance(8) {
        for _ in 0..1 + rng.below(3) {
            h.push_str(eol);
        }
    }
    h.push_str(rng.pick(&["GET", "GET", "GET", "POST", "PUT", "DELETE", "get"]));
    h.push_str(if rng.chance(6) { "  " } else { sp() });
    let absolute = rng.chance(5);
    if absolute {
        h.push_str(rng.pick(&["http://", "HTTP://", "https://"]));
        h.push_str(rng.pick(HOSTS));
    }
    h.push_str(&path);
    h.push_str(if rng.chance(6) { "   " } else { sp() });
    let version = rng.pick(&["HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0"]);
    h.push_str(version);
    h.push_str(eol);
    if rng.chance(3) {
        h.push_str("Accept: */*");
        h.push_str(eol);
    }
    if !(version == "HTTP/1.0" && rng.chance(3)) {
        h.push_str(rng.pick(&["Host", "host", "HOST"]));
        h.push_str(rng.pick(&[": ", ":", ":  ", ":\t"]));
        h.push_str(host);
        if rng.chance(8) {
            h.push_str("  ");
        }
        h.push_str(eol);
    }
    if rng.chance(3) {
        h.push_str("User-Agent: t");
        h.push_str(eol);
    }
    h.push_str(eol);
    h.into_bytes()
}

/// The rows of docs/config.md "Flagged heads: what the backend resolves".
const FIXED: &[&str] = &[
    "GET /x/../static/blob HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /static/%62lob HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /y/%2e%2e/static/blob HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET //static//blob HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /static/../id HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /x HTTP/1.1\r\nHost: API.Example.COM.\r\n\r\n",
    "GET /x HTTP/1.1\r\nHost: api.example.com:80\r\n\r\n",
    "GET http://api.example.com/x HTTP/1.1\r\nHost: www.example.com\r\n\r\n",
    "GET /static/x HTTP/1.1\nHost: y\n\n",
    "\r\nGET /static/x HTTP/1.1\r\nHost: y\r\n\r\n",
    "GET  /static/x  HTTP/1.1\r\nHost: y\r\n\r\n",
    "GET /%61dmin HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /static/../admin HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /v1/../v1/x HTTP/1.1\r\nHost: API.EXAMPLE.COM.\r\n\r\n",
    "GET /x HTTP/1.1\r\nHost: a.example.org.\r\n\r\n",
    "GET http://a.example.org./x HTTP/1.0\r\n\r\n",
    "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "\x16\x03\x01\x02\x00\x01\x00\x01\x7f\x03\x03",
];

#[derive(Default)]
struct Figures {
    heads: u64,
    flagged: u64,
    direct: u64,
    canonical: u64,
    not_http: u64,
    refused: [u64; REASONS],
    stricter: [u64; REASONS],
    stricter_example: [Option<String>; REASONS],
    waits: u64,
    /// The card waits, nginx answered (status).
    wait_nginx_answered: BTreeMap<u16, u64>,
    /// The card routes, nginx refuses (status; 0 for an HTTP/0.9 error page).
    routes_nginx_refuses: BTreeMap<u16, u64>,
    /// The card routes, nginx waits for more of the head.
    routes_nginx_waits: u64,
    /// nginx served, the card routed to the same pool.
    agree: u64,
    /// Those per pool.
    agree_pools: BTreeMap<u16, u64>,
    mismatches: Vec<String>,
}

fn short(h: &[u8]) -> String {
    let mut e = show(h);
    if e.len() > 140 {
        let cut = (0..=137)
            .rev()
            .find(|&i| e.is_char_boundary(i))
            .unwrap_or(0);
        e.truncate(cut);
        e.push_str("...");
    }
    e
}

fn compare(rules: &[Rule], h: &[u8], card: Card, answer: &Answer, f: &mut Figures) {
    f.heads += 1;
    match card {
        Card::Direct(_) => f.direct += 1,
        Card::Canonical(_) => f.canonical += 1,
        Card::NotHttp => f.not_http += 1,
        Card::Rst(r) => f.refused[r.index()] += 1,
        Card::Wait => f.waits += 1,
    }
    match (answer, card.pool()) {
        (Answer::Ok(host, uri), Some(pool)) => {
            let want = rules_pool(rules, host, uri);
            if pool == want {
                f.agree += 1;
                *f.agree_pools.entry(pool).or_default() += 1;
            } else {
                f.mismatches.push(format!(
                    "{} — card {card:?} (pool {pool}); nginx $host|$uri {}|{} -> pool {want}",
                    show(h),
                    show(host),
                    show(uri)
                ));
            }
        }
        (Answer::Ok(..), None) => match card {
            Card::Rst(r) => {
                f.stricter[r.index()] += 1;
                f.stricter_example[r.index()].get_or_insert_with(|| short(h));
            }
            _ => *f.wait_nginx_answered.entry(200).or_default() += 1,
        },
        (Answer::Refused(s), Some(_)) => *f.routes_nginx_refuses.entry(*s).or_default() += 1,
        (Answer::Refused(s), None) => {
            if card == Card::Wait {
                *f.wait_nginx_answered.entry(*s).or_default() += 1;
            }
        }
        (Answer::Nothing, Some(_)) => f.routes_nginx_waits += 1,
        (Answer::Nothing, None) => {}
    }
}

fn per_reason(counts: &[u64; REASONS]) -> String {
    let parts: Vec<String> = Reason::ALL
        .iter()
        .filter(|r| counts[r.index()] != 0)
        .map(|r| format!("{} {}", r.name(), counts[r.index()]))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

#[test]
fn card_routes_heads_as_nginx_resolves_them() {
    let (cases, seed, long) = cases_and_seed("SPLICENIC_L7_NGINX", SHORT_CASES);
    let nginx = start_nginx();
    let started = Instant::now();
    let rules = rules();
    let mut m = Matcher::new(WIDTH).expect("matcher model");
    m.load_inactive(&rules, DEFAULT_POOL).expect("load rules");
    m.switch_bank().expect("switch bank");

    let mut rng = Rng(seed);
    let mut f = Figures::default();
    let mut pending: Vec<Vec<u8>> = FIXED.iter().map(|h| h.as_bytes().to_vec()).collect();
    let mut left = cases;
    loop {
        while left > 0 && pending.len() < BATCH * 4 {
            pending.push(if rng.chance(2) {
                head(&mut rng, true)
            } else {
                aimed_head(&mut rng)
            });
            left -= 1;
        }
        if pending.is_empty() {
            break;
        }
        let cards = card_decisions(&mut m, &pending, &mut f.flagged);
        for (h, card) in pending.iter().zip(cards) {
            let answer = ask(nginx.port, h);
            compare(&rules, h, card, &answer, &mut f);
        }
        pending.clear();
    }
    let secs = started.elapsed().as_secs_f64();

    let stricter: u64 = f.stricter.iter().sum();
    println!(
        "nginx_diff: seed {seed}, {} heads in {secs:.1} s: flagged {}, routed directly {}, \
         routed via canonical form {}, not HTTP (default pool) {}, refused {} {}, \
         stricter than nginx {stricter} {}, waits {}, agree with nginx {}, \
         card routes/nginx refuses {:?}, card routes/nginx waits {}, card waits/nginx answered \
         {:?}, mismatches {}",
        f.heads,
        f.flagged,
        f.direct,
        f.canonical,
        f.not_http,
        f.refused.iter().sum::<u64>(),
        per_reason(&f.refused),
        per_reason(&f.stricter),
        f.waits,
        f.agree,
        f.routes_nginx_refuses,
        f.routes_nginx_waits,
        f.wait_nginx_answered,
        f.mismatches.len(),
    );
    println!("  agreed, per pool: {:?}", f.agree_pools);
    if long {
        for r in Reason::ALL {
            if let Some(e) = &f.stricter_example[r.index()] {
                println!("  stricter, {}: {e}", r.name());
            }
        }
    }
    for m in f.mismatches.iter().take(30) {
        eprintln!("mismatch: {m}");
    }
    assert!(
        f.mismatches.is_empty(),
        "{} heads nginx serves that the card routes to another pool",
        f.mismatches.len()
    );
    drop(nginx);
}
