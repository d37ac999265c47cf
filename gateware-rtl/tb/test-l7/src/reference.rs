//! SOFTWARE REFERENCE MODEL of the L7 matcher: the request scan (method, path, Host within
//! the window), the normalisation policy and the rule precedence, written from the policy
//! in the `l7_matcher.v` header as plain slice code (request line first, then header lines)
//! rather than as the RTL's byte-serial state machine. The tests hold the RTL to it.
//!
//! Precedence: the valid rule with the lowest priority value whose path AND host match;
//! ties go to the lower rule index (declaration order). Exact does not beat prefix and a
//! longer prefix does not beat a shorter one unless the priorities say so. No match: the
//! bank's default pool, `matched` clear.

use crate::{flags, PAT_MAX, WINDOW};

/// How a rule compares the path and the Host (`Suffix`: `*.example.com`, written as the
/// suffix `.example.com`; the bare domain does not match), the declared enums.
pub use splicenic_layout::{HostKind, PathKind};

/// One rule. Host patterns are lower-case, in natural order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub valid: bool,
    pub priority: u16,
    pub path_kind: PathKind,
    pub path: Vec<u8>,
    pub host_kind: HostKind,
    pub host: Vec<u8>,
    pub pool: u16,
    pub rule_id: u16,
}

impl Rule {
    /// A valid rule; `host` "*.x.y" becomes a suffix rule ".x.y", "" means any host;
    /// `path` "" means any path, a trailing '*' makes it a prefix rule.
    pub fn new(priority: u16, host: &str, path: &str, pool: u16, rule_id: u16) -> Rule {
        let (host_kind, host) = if host.is_empty() {
            (HostKind::Any, Vec::new())
        } else if let Some(s) = host.strip_prefix('*') {
            (HostKind::Suffix, s.as_bytes().to_vec())
        } else {
            (HostKind::Exact, host.as_bytes().to_vec())
        };
        let (path_kind, path) = if path.is_empty() {
            (PathKind::Any, Vec::new())
        } else if let Some(p) = path.strip_suffix('*') {
            (PathKind::Prefix, p.as_bytes().to_vec())
        } else {
            (PathKind::Exact, path.as_bytes().to_vec())
        };
        Rule {
            valid: true,
            priority,
            path_kind,
            path,
            host_kind,
            host,
            pool,
            rule_id,
        }
    }
}

/// One bank: rules by slot, default pool.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bank {
    pub rules: Vec<Rule>,
    pub default_pool: u16,
}

/// Method codes (`m_res_method`): enum HttpMethod.
pub use splicenic_layout::http_method as method;

/// What the scan of one request gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scan {
    NotHttp { method: u8 },
    Incomplete { method: u8 },
    Complete(Request),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: u8,
    pub path: Vec<u8>,
    /// Lower-cased host without port, `None` when there is no Host header.
    pub host: Option<Vec<u8>>,
    pub needs_norm: bool,
    pub absform: bool,
}

/// The reference outcome, in the RTL's result terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub rule_id: u16,
    pub pool: u16,
    pub flags: u32,
    pub method: u8,
}

fn is_ctl(b: u8) -> bool {
    b < 0x20 || b == 0x7f
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn method_code(m: &[u8]) -> u8 {
    match m {
        b"GET" => method::GET,
        b"HEAD" => method::HEAD,
        b"POST" => method::POST,
        b"PUT" => method::PUT,
        b"DELETE" => method::DELETE,
        b"OPTIONS" => method::OPTIONS,
        _ => method::OTHER,
    }
}

/// Needs-normalisation test for a path: '%', '\', '#', an empty segment followed by '/', or
/// a "." / ".." segment after a '/'.
pub fn path_needs_norm(path: &[u8]) -> bool {
    if path.contains(&b'%') || path.contains(&b'\\') || path.contains(&b'#') {
        return true;
    }
    for (i, _) in path.iter().enumerate().filter(|(_, b)| **b == b'/') {
        let rest = &path[i + 1..];
        let seg_end = rest.iter().position(|b| *b == b'/');
        let seg = &rest[..seg_end.unwrap_or(rest.len())];
        if seg == b"." || seg == b".." || (seg.is_empty() && seg_end.is_some()) {
            return true;
        }
    }
    false
}

/// Path from the request-target: up to '?'; absolute form "http(s)://authority/path"
/// gives "/path" ("/" without one). Returns (path, absform).
fn target_path(target: &[u8]) -> (Vec<u8>, bool) {
    let pp = &target[..target
        .iter()
        .position(|b| *b == b'?')
        .unwrap_or(target.len())];
    let lower: Vec<u8> = pp.iter().map(u8::to_ascii_lowercase).collect();
    let rest = if lower.starts_with(b"http://") {
        Some(&pp[7..])
    } else if lower.starts_with(b"https://") {
        Some(&pp[8..])
    } else {
        None
    };
    match rest {
        Some(r) => match r.iter().position(|b| *b == b'/') {
            Some(s) => (r[s..].to_vec(), true),
            None => (b"/".to_vec(), true),
        },
        None => (pp.to_vec(), false),
    }
}

enum Host {
    /// Value ended by CR: (host, needs_norm).
    Done(Vec<u8>, bool),
    /// Data ended inside the value.
    Partial,
    Bad,
}

/// Host value from just after the ':' up to its CR (exclusive). `v` is the rest of data.
fn host_value(v: &[u8]) -> (Host, usize) {
    let mut i = 0;
    while i < v.len() && is_ws(v[i]) {
        i += 1;
    }
    let mut host = Vec::new();
    let mut in_br = false;
    let mut pct = false;
    // 0 host chars, 1 port digits, 2 trailing whitespace
    let mut part = 0;
    while i < v.len() {
        let b = v[i];
        if b == b'\r' {
            let norm = pct || host.last() == Some(&b'.');
            return (Host::Done(host, norm), i);
        }
        match part {
            0 if is_ws(b) => part = 2,
            0 if is_ctl(b) => return (Host::Bad, i),
            0 if b == b':' && !in_br => part = 1,
            0 => {
                if b == b'[' {
                    in_br = true;
                }
                if b == b']' {
                    in_br = false;
                }
                pct |= b == b'%';
                host.push(b.to_ascii_lowercase());
            }
            1 if is_ws(b) => part = 2,
            1 if !b.is_ascii_digit() => return (Host::Bad, i),
            2 if !is_ws(b) => return (Host::Bad, i),
            _ => {}
        }
        i += 1;
    }
    (Host::Partial, i)
}

/// Scan one request segment (only the first WINDOW bytes count).
pub fn scan(req: &[u8]) -> Scan {
    let d = &req[..req.len().min(WINDOW)];
    // method
    let Some(sp) = d.iter().position(|b| !is_tchar(*b)) else {
        return Scan::Incomplete {
            method: method::OTHER,
        };
    };
    if d[sp] != b' ' || sp == 0 {
        return Scan::NotHttp {
            method: method::OTHER,
        };
    }
    let m = method_code(&d[..sp]);
    // target
    let t0 = sp + 1;
    let Some(tl) = d[t0..].iter().position(|b| *b == b' ' || is_ctl(*b)) else {
        return Scan::Incomplete { method: m };
    };
    if d[t0 + tl] != b' ' || tl == 0 {
        return Scan::NotHttp { method: m };
    }
    let (path, absform) = target_path(&d[t0..t0 + tl]);
    let mut needs_norm = path_needs_norm(&path);
    // version
    let v0 = t0 + tl + 1;
    for k in 0..10 {
        let Some(&b) = d.get(v0 + k) else {
            return Scan::Incomplete { method: m };
        };
        let ok = match k {
            0..=6 => b == b"HTTP/1."[k],
            7 => b == b'0' || b == b'1',
            8 => b == b'\r',
            _ => b == b'\n',
        };
        if !ok {
            return Scan::NotHttp { method: m };
        }
    }
    // header lines
    let mut p = v0 + 10;
    let mut host: Option<Vec<u8>> = None;
    let mut host_seen = false;
    let complete = |host: Option<Vec<u8>>, needs_norm: bool| {
        Scan::Complete(Request {
            method: m,
            path: path.clone(),
            host,
            needs_norm,
            absform,
        })
    };
    while let Some(&b) = d.get(p) {
        if b == b'\r' {
            match d.get(p + 1) {
                None => break,
                Some(b'\n') => return complete(host, needs_norm),
                Some(_) => return Scan::NotHttp { method: m },
            }
        }
        // header name up to ':'
        let Some(nl) = d[p..]
            .iter()
            .position(|b| *b == b':' || *b == b' ' || is_ctl(*b))
        else {
            break;
        };
        if d[p + nl] != b':' || nl == 0 {
            return Scan::NotHttp { method: m };
        }
        let name = &d[p..p + nl];
        let v = p + nl + 1;
        let cr = if name.eq_ignore_ascii_case(b"host") {
            if host_seen {
                return Scan::NotHttp { method: m };
            }
            host_seen = true;
            match host_value(&d[v..]) {
                (Host::Done(h, norm), off) => {
                    host = Some(h);
                    needs_norm |= norm;
                    v + off
                }
                (Host::Partial, _) => break,
                (Host::Bad, _) => return Scan::NotHttp { method: m },
            }
        } else {
            match d[v..].iter().position(|b| *b == b'\r' || *b == b'\n') {
                None => break,
                Some(o) if d[v + o] == b'\n' => return Scan::NotHttp { method: m },
                Some(o) => v + o,
            }
        };
        match d.get(cr + 1) {
            None => break,
            Some(b'\n') => p = cr + 2,
            Some(_) => return Scan::NotHttp { method: m },
        }
    }
    // data ended before the end of the headers
    if host.is_some() {
        complete(host, needs_norm)
    } else {
        Scan::Incomplete { method: m }
    }
}

fn path_ok(r: &Rule, path: &[u8]) -> bool {
    match r.path_kind {
        PathKind::Any => true,
        PathKind::Exact => r.path.len() <= PAT_MAX && path == r.path.as_slice(),
        PathKind::Prefix => r.path.len() <= PAT_MAX && path.starts_with(&r.path),
        PathKind::Never => false,
    }
}

fn host_ok(r: &Rule, host: Option<&[u8]>) -> bool {
    match (r.host_kind, host) {
        (HostKind::Any, _) => true,
        (HostKind::Exact, Some(h)) => r.host.len() <= PAT_MAX && h == r.host.as_slice(),
        (HostKind::Suffix, Some(h)) => {
            r.host.len() <= PAT_MAX && h.len() > r.host.len() && h.ends_with(&r.host)
        }
        _ => false,
    }
}

/// The winning rule's slot for a complete request, if any.
pub fn best_rule(bank: &Bank, req: &Request) -> Option<usize> {
    bank.rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.valid && path_ok(r, &req.path) && host_ok(r, req.host.as_deref()))
        .min_by_key(|(i, r)| (r.priority, *i))
        .map(|(i, _)| i)
}

/// Full reference classification of one request segment.
pub fn classify(bank: &Bank, req: &[u8]) -> Outcome {
    let over = if req.len() > WINDOW {
        flags::OVER_WINDOW
    } else {
        0
    };
    let miss = |f: u32, m: u8| Outcome {
        rule_id: 0,
        pool: bank.default_pool,
        flags: f | over,
        method: m,
    };
    match scan(req) {
        Scan::NotHttp { method } => miss(flags::NOT_HTTP, method),
        Scan::Incomplete { method } => miss(flags::INCOMPLETE, method),
        Scan::Complete(r) => {
            let mut f = over;
            if r.needs_norm {
                f |= flags::NEEDS_NORM;
            }
            if r.absform {
                f |= flags::ABSFORM;
            }
            if r.host.is_some() {
                f |= flags::HOST_FOUND;
            }
            match best_rule(bank, &r) {
                Some(i) => Outcome {
                    rule_id: bank.rules[i].rule_id,
                    pool: bank.rules[i].pool,
                    flags: f | flags::MATCHED,
                    method: r.method,
                },
                None => Outcome {
                    rule_id: 0,
                    pool: bank.default_pool,
                    flags: f,
                    method: r.method,
                },
            }
        }
    }
}
