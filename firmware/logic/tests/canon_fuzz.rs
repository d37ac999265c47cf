//! Property test of the canonicaliser over generated request heads (`canon_gen`: heads
//! built from pieces that hit every rule, a third of them mutated, some long).
//!
//! For every head: no panic; the same outcome for the head cut to `MAX_HEAD_BYTES`; a
//! prefix refused only if the head is; with a smaller output buffer the same outcome or
//! `OutputTooSmall`. For every accepted head: the
//! path starts with `/` and has no `//`, no `.` or `..` segment, no backslash, no NUL; the
//! host is lower-case without trailing dot, within `MAX_HOST_LEN`; the port is not 80; the
//! canonical form sent again as an origin-form request gives the same result (idempotent);
//! a prefix of the head is `Incomplete` or the same result; bytes after the head's end do
//! not change it.
//!
//! Deterministic (SplitMix64). A short run (20 000 heads) is part of `cargo test`; the long
//! form takes its count and seed from the environment and prints its figures:
//!
//! ```text
//! SPLICENIC_CANON_CASES=1000000 [SPLICENIC_CANON_SEED=1] \
//!     cargo test --release -p splicenic-fw-logic --test canon_fuzz -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use splicenic_fw_logic::canon::{
    canonicalize, Canonical, Form, Outcome, Reason, MAX_HEAD_BYTES, MAX_HOST_LEN, MAX_PATH_LEN,
    OUT_LEN, REASONS,
};

mod canon_gen;
use canon_gen::{cases_and_seed, encode_path, head, Rng};

const SHORT_CASES: u64 = 20_000;

/// The parts of an outcome that are compared.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seen {
    Canonical {
        host: Vec<u8>,
        port: Option<u16>,
        path: Vec<u8>,
        form: Form,
        head_len: Option<usize>,
    },
    Refuse(Reason),
    Incomplete,
}

fn seen(o: &Outcome) -> Seen {
    match o {
        Outcome::Canonical(c) => Seen::Canonical {
            host: c.host.to_vec(),
            port: c.port,
            path: c.path.to_vec(),
            form: c.form,
            head_len: c.head_len,
        },
        Outcome::Refuse(r) => Seen::Refuse(*r),
        Outcome::Incomplete => Seen::Incomplete,
    }
}

fn run(head: &[u8]) -> Seen {
    let mut out = [0u8; OUT_LEN];
    seen(&canonicalize(head, &mut out))
}

#[derive(Default)]
struct Figures {
    heads: u64,
    bytes: u64,
    origin: u64,
    absolute: u64,
    prefix_only: u64,
    incomplete: u64,
    refused: [u64; REASONS],
    idempotent: u64,
    failures: Vec<String>,
}

fn show(b: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(b))
}

/// The properties of an accepted head; whether the idempotence check ran (the canonical
/// form as a head fits `MAX_HEAD_BYTES`).
fn accepted(head: &[u8], c: &Canonical, rng: &mut Rng) -> Result<bool, String> {
    let path = c.path;
    if path.first() != Some(&b'/') {
        return Err("path does not start with /".into());
    }
    let has = |needle: &[u8]| path.windows(needle.len()).any(|w| w == needle);
    if has(b"//") || has(b"/./") || has(b"/../") || path.ends_with(b"/.") || path.ends_with(b"/..")
    {
        return Err(format!("path not normalised: {}", show(path)));
    }
    if path.contains(&b'\\') || path.contains(&0) || path.len() > MAX_PATH_LEN.max(1) {
        return Err(format!(
            "path has a refused byte or is too long: {}",
            show(path)
        ));
    }
    let host = c.host;
    if host.iter().any(u8::is_ascii_uppercase)
        || host.ends_with(b".")
        || host.starts_with(b".")
        || host.windows(2).any(|w| w == b"..")
        || host.len() > MAX_HOST_LEN
        || host.iter().any(|&b| b <= b' ' || b >= 0x7f || b == b'/')
    {
        return Err(format!("host not canonical: {}", show(host)));
    }
    if c.port == Some(80) {
        return Err("port 80 reported".into());
    }
    if let Some(n) = c.head_len {
        if n > head.len().min(MAX_HEAD_BYTES) {
            return Err(format!("head_len {n} beyond the input"));
        }
    }
    let want = seen(&Outcome::Canonical(*c));

    // Idempotent: the canonical form as an origin-form request.
    let mut again = b"GET ".to_vec();
    again.extend_from_slice(&encode_path(path));
    if host.is_empty() {
        again.extend_from_slice(b" HTTP/1.0\r\n\r\n");
    } else {
        again.extend_from_slice(b" HTTP/1.1\r\nHost: ");
        again.extend_from_slice(host);
        if let Some(p) = c.port {
            again.extend_from_slice(format!(":{p}").as_bytes());
        }
        again.extend_from_slice(b"\r\n\r\n");
    }
    let expect = Seen::Canonical {
        host: host.to_vec(),
        port: c.port,
        path: path.to_vec(),
        form: Form::Origin,
        head_len: Some(again.len()),
    };
    let fits = again.len() <= MAX_HEAD_BYTES;
    if fits {
        let got = run(&again);
        if got != expect {
            return Err(format!(
                "not idempotent: {} gives {got:?}, want {expect:?}",
                show(&again)
            ));
        }
    }

    // A prefix: incomplete or the same (seen from the Host line on).
    let end = c.head_len.unwrap_or(head.len().min(MAX_HEAD_BYTES));
    if end > 0 {
        let k = rng.below(end);
        match run(&head[..k]) {
            Seen::Incomplete => {}
            Seen::Canonical {
                host: h,
                port,
                path: p,
                form,
                head_len: None,
            } if h == host && port == c.port && p == path && form == c.form => {}
            other => {
                return Err(format!(
                    "prefix of {k} bytes gives {other:?}, want {want:?}"
                ))
            }
        }
    }

    // Bytes after the end of the head are not read.
    if let Some(n) = c.head_len {
        let mut longer = head[..n].to_vec();
        longer.extend_from_slice(b"\r\rX\x00 junk");
        let got = run(&longer);
        if got != want {
            return Err(format!("bytes after the head change it: {got:?}"));
        }
    }
    Ok(fits)
}

fn one(head: &[u8], rng: &mut Rng, f: &mut Figures) -> Result<(), String> {
    let mut out = [0u8; OUT_LEN];
    let outcome = canonicalize(head, &mut out);
    let first = seen(&outcome);
    if head.len() > MAX_HEAD_BYTES && run(&head[..MAX_HEAD_BYTES]) != first {
        return Err("the bytes after MAX_HEAD_BYTES change the outcome".into());
    }
    // A refusal on a prefix is final: no continuation is accepted.
    let k = rng.below(head.len().min(MAX_HEAD_BYTES) + 1);
    if let Seen::Refuse(r) = run(&head[..k]) {
        if !matches!(first, Seen::Refuse(_)) {
            return Err(format!(
                "the {k}-byte prefix is refused ({r:?}), the head gives {first:?}"
            ));
        }
    }
    let mut small = vec![0u8; rng.below(OUT_LEN)];
    let with_small = seen(&canonicalize(head, &mut small));
    if with_small != first && with_small != Seen::Refuse(Reason::OutputTooSmall) {
        return Err(format!(
            "a {}-byte buffer gives {with_small:?}, {OUT_LEN} give {first:?}",
            small.len()
        ));
    }
    match outcome {
        Outcome::Canonical(c) => {
            match c.form {
                Form::Origin => f.origin += 1,
                Form::Absolute => f.absolute += 1,
            }
            if c.head_len.is_none() {
                f.prefix_only += 1;
            }
            if accepted(head, &c, rng)? {
                f.idempotent += 1;
            }
        }
        Outcome::Refuse(r) => {
            if r == Reason::OutputTooSmall {
                return Err("OutputTooSmall with OUT_LEN bytes".into());
            }
            f.refused[r.index()] += 1;
        }
        Outcome::Incomplete => {
            if head.len() >= MAX_HEAD_BYTES {
                return Err("Incomplete with MAX_HEAD_BYTES bytes".into());
            }
            f.incomplete += 1;
        }
    }
    Ok(())
}

#[test]
fn generated_heads() {
    let (cases, seed, long) = cases_and_seed("SPLICENIC_CANON", SHORT_CASES);
    let mut rng = Rng(seed);
    let mut f = Figures::default();
    for n in 0..cases {
        let h = head(&mut rng, false);
        f.heads += 1;
        f.bytes += h.len() as u64;
        let mut check_rng = Rng(rng.next());
        let r = catch_unwind(AssertUnwindSafe(|| one(&h, &mut check_rng, &mut f)));
        let why = match r {
            Ok(Ok(())) => continue,
            Ok(Err(why)) => why,
            Err(_) => "panic".to_string(),
        };
        if f.failures.len() < 20 {
            f.failures.push(format!("case {n}: {} — {why}", show(&h)));
        }
    }

    let refused: u64 = f.refused.iter().sum();
    let mut by_reason = BTreeMap::new();
    for r in Reason::ALL {
        by_reason.insert(r.code(), (r.name(), f.refused[r.index()]));
    }
    let accepted = f.origin + f.absolute;
    println!(
        "canon_fuzz: seed {seed}, {} heads ({} bytes): accepted {accepted} (origin {}, \
         absolute {}, prefix only {}), idempotent {}, incomplete {}, refused {refused}, \
         failures {}",
        f.heads,
        f.bytes,
        f.origin,
        f.absolute,
        f.prefix_only,
        f.idempotent,
        f.incomplete,
        f.failures.len(),
    );
    if long {
        for (code, (name, n)) in &by_reason {
            println!("  refused {code:2} {name:20} {n}");
        }
    }
    for line in &f.failures {
        eprintln!("{line}");
    }
    assert!(f.failures.is_empty(), "{} failing heads", f.failures.len());
    // The generator reaches every outcome but the output buffer's.
    for r in Reason::ALL {
        if r != Reason::OutputTooSmall {
            assert!(
                f.refused[r.index()] > 0,
                "no head refused with {}",
                r.name()
            );
        }
    }
    assert!(f.absolute > 0 && f.prefix_only > 0 && f.incomplete > 0);
}
