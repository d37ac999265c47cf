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
//! Needs root, nginx and the firmware ELF; without them it prints a note and passes (and
//! fails under `cargo xtask test`, which requires every prerequisite).

use splicenic_driver::flowmgr::HeadRefusal;
use splicenic_hil::peer::{setup, SetupOpts, Tally, EXEC_TIMEOUT};
use splicenic_hil::topo::Topology;

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

/// `--raw` with the bytes of `head` (a hex file in the topology's folder).
fn raw(t: &Topology, name: &str, head: &[u8]) -> Vec<String> {
    let p = t.dir().join(format!("head-{name}.hex"));
    let hex: String = head.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(&p, hex).expect("writing the head");
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
    let tools = [("nginx", "-v")];
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

    let before = t
        .card
        .as_mut()
        .expect("card")
        .head_stats()
        .expect("HEAD_STATS");
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
    let after = t
        .card
        .as_mut()
        .expect("card")
        .head_stats()
        .expect("HEAD_STATS");
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
        let got = |s: &splicenic_driver::flowmgr::HeadStats| {
            s.refused
                .iter()
                .find(|(x, _)| x == r)
                .map_or(0, |(_, c)| *c)
        };
        assert_eq!(got(&after) - got(&before), *n, "refusals for {}", r.name());
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
    t.finish("request heads", &tally, t0);
}
