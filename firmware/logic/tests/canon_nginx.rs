//! Differential test: the canonicaliser against a real nginx.
//!
//! The test starts `/usr/sbin/nginx` (or `$SPLICENIC_NGINX`) as a child in the foreground
//! (`daemon off; master_process off`) on 127.0.0.1 with a temporary prefix and
//!
//! ```text
//! location / { return 200 "$host|$uri\n"; }
//! ```
//!
//! (`$host`: the host nginx resolved, lower-case, without port; `$uri`: its normalised
//! path; no `server_name`, so `$host` is empty for HTTP/1.0 without Host). It sends the
//! edge cases in `FIXED`, then every generated head (`canon_gen`, differential mode), each
//! on its own connection, and compares nginx's answer with `canonicalize`:
//!
//! * both accept with the same host and path, both refuse: agreement;
//! * the canonicaliser refuses what nginx accepts: counted per reason (the rules are
//!   stricter than nginx on purpose, docs/canon.md);
//! * the canonicaliser accepts a complete head nginx refuses, or both accept with another
//!   host or path: a mismatch, the test fails.
//!
//! A missing nginx fails the test (it does not pass silently). The short form (2 000 heads)
//! is part of `cargo test`; the long form:
//!
//! ```text
//! SPLICENIC_CANON_NGINX_CASES=100000 [SPLICENIC_CANON_NGINX_SEED=1] \
//!     cargo test --release -p splicenic-fw-logic --test canon_nginx -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

use splicenic_fw_logic::canon::{
    canonicalize, Outcome, Reason, MAX_HOST_LEN, MAX_PATH_LEN, OUT_LEN, REASONS,
};

mod canon_gen;
use canon_gen::{cases_and_seed, encode_path, head, Rng};

mod nginx;
use nginx::{ask, show, start_nginx, Answer};

const SHORT_CASES: u64 = 2_000;

/// Heads sent before the generated ones: the rules' edge cases.
const FIXED: &[&str] = &[
    "GET /a/../b HTTP/1.1\r\nHost: A.Example.:8080\r\n\r\n",
    "GET /a HTTP/1.0\r\n\r\n",
    "GET /a HTTP/1.0\r\nHost:\r\n\r\n",
    "GET /a HTTP/1.1\r\n\r\n",
    "\r\n\nGET /a HTTP/1.1\nHost: a\n\n",
    "GET  /a   HTTP/1.1  \r\nHost:   a   \r\n\r\n",
    "GET http://B.example./x HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://b.example HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://b.example?x HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://b.example:/x HTTP/1.0\r\n\r\n",
    "GET http://[::1]:8080/x HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://b.example/ HTTP/1.1\r\n\r\n",
    "GET http:///x HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://b..c/ HTTP/1.1\r\nHost: a\r\n\r\n",
    "CONNECT b.example:443 HTTP/1.1\r\nHost: b.example:443\r\n\r\n",
    "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
    "TRACE / HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: [2001:DB8::A]:80\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: [::..1]\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: a..b\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: .\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: :80\r\n\r\n",
    "GET / HTTP/1.1\r\nHost:\ta\r\n\r\n",
    "GET / HTTP/1.1\r\nHost : a\r\n\r\n",
    "GET / HTTP/1.1\r\n Host: a\r\n\r\n",
    "GET / HTTP/1.1\r\nX_Host: b\r\nHost: a\r\n\r\n",
    "GET /a/./b/../../c HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a/b/.. HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a/. HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET //a///b// HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a//..//b HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a/%2e%2E/b HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a/.%2e HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /.. HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /%2e%2e/a HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a%3Fb%23c%25d HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a?b/../..#c HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a#b/../.. HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /caf%C3%A9/%FF%01 HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a%2Fb HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a%00b HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a%5Cb HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a\\b HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a%4 HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a%zz HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a\x01 HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /\u{e9} HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a HTTP/1.1\r\nHost: a\r\r\n\r\n",
    "GET /a HTTP/1.1\rHost: a\r\n\r\n",
    "\rGET /a HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /a HTTP/1.1\r\nNoColon\r\nHost: a\r\n\r\n",
    "GET /a HTTP/1.2\r\nHost: a\r\n\r\n",
    "GET /a HTTP/2.0\r\nHost: a\r\n\r\n",
    "GET /a\r\n",
    "get /a HTTP/1.1\r\nHost: a\r\n\r\n",
    "FOO_BAR /a HTTP/1.1\r\nHost: a\r\n\r\n",
];

#[derive(Default)]
struct Figures {
    heads: u64,
    agree_accept: u64,
    agree_refuse: u64,
    agree_wait: u64,
    /// Refused by the canonicaliser, accepted by nginx, per reason.
    stricter: [u64; REASONS],
    /// Refused by both, per reason.
    refused_both: [u64; REASONS],
    /// Refused here, accepted by nginx: the first head per reason.
    stricter_example: [Option<String>; REASONS],
    /// Accepted on a prefix (the head's end not seen), by nginx's answer: "200" (the same
    /// host and path), "waits", or its status.
    prefix_only: BTreeMap<String, u64>,
    /// Incomplete for the canonicaliser; nginx answered (status).
    wait_nginx_answered: BTreeMap<String, u64>,
    /// The first few of those.
    wait_examples: Vec<String>,
    nginx_status: BTreeMap<u16, u64>,
    mismatches: Vec<String>,
}

fn one(port: u16, h: &[u8], f: &mut Figures) {
    let answer = ask(port, h);
    match &answer {
        Answer::Ok(..) => *f.nginx_status.entry(200).or_default() += 1,
        Answer::Refused(s) => *f.nginx_status.entry(*s).or_default() += 1,
        Answer::Nothing => {}
    }
    let mut out = [0u8; OUT_LEN];
    let mine = canonicalize(h, &mut out);
    let mismatch = |f: &mut Figures, why: String| {
        f.mismatches
            .push(format!("{} — {why}; nginx {answer:?}", show(h)))
    };
    match (&mine, &answer) {
        (Outcome::Canonical(c), Answer::Ok(host, path)) => {
            if c.host == &host[..] && c.path == &path[..] {
                if c.head_len.is_none() {
                    *f.prefix_only.entry("200".into()).or_default() += 1;
                }
                f.agree_accept += 1;
            } else {
                mismatch(
                    f,
                    format!("canonical {}|{}", show(c.host), show(&encode_path(c.path))),
                );
            }
        }
        (Outcome::Canonical(c), a) if c.head_len.is_none() => {
            let key = match a {
                Answer::Refused(s) => s.to_string(),
                _ => "waits".to_string(),
            };
            *f.prefix_only.entry(key).or_default() += 1;
        }
        (Outcome::Canonical(c), _) => mismatch(
            f,
            format!("canonical {}|{}", show(c.host), show(&encode_path(c.path))),
        ),
        (Outcome::Refuse(r), Answer::Ok(..)) => {
            f.stricter[r.index()] += 1;
            f.stricter_example[r.index()].get_or_insert_with(|| {
                let mut e = show(h);
                if e.len() > 120 {
                    let cut = (0..=117)
                        .rev()
                        .find(|&i| e.is_char_boundary(i))
                        .unwrap_or(0);
                    e.truncate(cut);
                    e.push_str("...");
                }
                e
            });
        }
        (Outcome::Refuse(r), _) => {
            f.agree_refuse += 1;
            f.refused_both[r.index()] += 1;
        }
        (Outcome::Incomplete, Answer::Nothing) => f.agree_wait += 1,
        (Outcome::Incomplete, a) => {
            let key = match a {
                Answer::Ok(..) => "200".to_string(),
                Answer::Refused(s) => s.to_string(),
                Answer::Nothing => unreachable!(),
            };
            *f.wait_nginx_answered.entry(key).or_default() += 1;
            if f.wait_examples.len() < 5 {
                f.wait_examples
                    .push(format!("{} — nginx {answer:?}", show(h)));
            }
        }
    }
}

#[test]
fn canonical_form_agrees_with_nginx() {
    let (cases, seed, long) = cases_and_seed("SPLICENIC_CANON_NGINX", SHORT_CASES);
    let nginx = start_nginx();
    let started = Instant::now();
    let mut rng = Rng(seed);
    let mut f = Figures::default();
    // The limits: a path and a host one byte over (nginx takes both).
    let long_path = format!(
        "GET /{} HTTP/1.1\r\nHost: a\r\n\r\n",
        "p".repeat(MAX_PATH_LEN)
    );
    let long_host = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\n\r\n",
        "h".repeat(MAX_HOST_LEN + 1)
    );
    for h in FIXED
        .iter()
        .copied()
        .chain([long_path.as_str(), long_host.as_str()])
    {
        f.heads += 1;
        one(nginx.port, h.as_bytes(), &mut f);
    }
    for _ in 0..cases {
        let h = head(&mut rng, true);
        f.heads += 1;
        one(nginx.port, &h, &mut f);
    }
    let secs = started.elapsed().as_secs_f64();

    let stricter: u64 = f.stricter.iter().sum();
    println!(
        "canon_nginx: seed {seed}, {} heads in {secs:.1} s: agree {} (accepted {}, refused {}, \
         both wait {}), stricter than nginx {stricter}, accepted on a prefix {:?}, \
         incomplete but nginx answered {:?}, mismatches {}",
        f.heads,
        f.agree_accept + f.agree_refuse + f.agree_wait,
        f.agree_accept,
        f.agree_refuse,
        f.agree_wait,
        f.prefix_only,
        f.wait_nginx_answered,
        f.mismatches.len(),
    );
    println!("  nginx status: {:?}", f.nginx_status);
    if long {
        println!("  reason (code)          refused by both   refused here, nginx 200");
        for r in Reason::ALL {
            println!(
                "  {:20} {:3}  {:>15}   {:>22}",
                r.name(),
                r.code(),
                f.refused_both[r.index()],
                f.stricter[r.index()]
            );
        }
    }
    if long {
        for r in Reason::ALL {
            if let Some(e) = &f.stricter_example[r.index()] {
                println!("  stricter, {}: {e}", r.name());
            }
        }
    }
    for w in &f.wait_examples {
        println!("  incomplete here, nginx answered: {w}");
    }
    for m in f.mismatches.iter().take(30) {
        eprintln!("mismatch: {m}");
    }
    assert!(
        f.mismatches.is_empty(),
        "{} heads where the canonical form and nginx disagree",
        f.mismatches.len()
    );
    drop(nginx);
}
