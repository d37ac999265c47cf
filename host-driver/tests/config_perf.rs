//! The configuration reader's work is linear in the file whatever it holds: files of errors
//! check as fast per byte as valid ones, and a file at the size limit checks in well under
//! a second in a debug build.
//!
//! Nothing here asserts a time except a bound no healthy run comes near (10 s, where a
//! debug build takes well under one); the step counts are asserted in the unit tests
//! (`config::parser::tests::suggestion_work_is_linear_and_bounded`). The figures are
//! printed:
//!
//! ```text
//! cargo test -p splicenic-driver --test config_perf -- --nocapture --test-threads=1
//! ```

use std::time::{Duration, Instant};

use splicenic_driver::config::{self, MAX_ERRORS, MAX_FILE_BYTES};

/// More than any file may take, even on a loaded machine in a debug build.
const BOUND: Duration = Duration::from_secs(10);

/// `head`, then `line(i)` for i = 0.. up to `size` bytes, then `tail`; padded with a
/// comment to exactly `size` bytes when `exact`.
fn file(
    size: usize,
    head: &str,
    line: impl Fn(usize) -> String,
    tail: &str,
    exact: bool,
) -> String {
    let mut s = String::from(head);
    let mut i = 0;
    loop {
        let l = line(i);
        if s.len() + l.len() + tail.len() + 200 > size {
            break;
        }
        s.push_str(&l);
        i += 1;
    }
    s.push_str(tail);
    if exact {
        let pad = size - s.len();
        s.push('#');
        s.push_str(&" ".repeat(pad - 2));
        s.push('\n');
        assert_eq!(s.len(), size);
    }
    s
}

const HEAD: &str =
    "virtual_server 10.0.0.1 80 { default_pool web }\npool web { real_server 10.0.1.1 80 }\n";

/// Valid: one-line URL rules (the densest a written file gets).
fn rules(size: usize, exact: bool) -> String {
    file(
        size,
        HEAD,
        |i| format!("url_rule r{i} {{ path /p{i}; priority 5; pool web }}\n"),
        "",
        exact,
    )
}

/// Valid: a pool with many real servers (duplicates are looked up, not searched).
fn servers(size: usize) -> String {
    file(
        size,
        "virtual_server 10.0.0.1 80 { pool big }\npool big {\n",
        |i| {
            format!(
                "  real_server 10.{}.{}.{} 80\n",
                i >> 16,
                (i >> 8) & 255,
                i & 255
            )
        },
        "}\n",
        false,
    )
}

/// A block of unknown keywords (each one gets a "did you mean" search).
fn unknown_keywords(size: usize) -> String {
    file(
        size,
        "virtual_server 10.0.0.1 80 {\n  real_server 10.0.1.1 80\n",
        |i| format!("  lvs_schd{} wlc\n", i % 10),
        "}\n",
        false,
    )
}

/// One unknown keyword as long as the line limit allows, again and again.
fn long_words(size: usize) -> String {
    file(
        size,
        "pool web {\n",
        |i| format!("  {}{i}\n", "x".repeat(4000)),
        "}\n",
        false,
    )
}

/// References to undeclared pools, each close to the names of many declared ones.
fn bad_references(size: usize) -> String {
    let half = size / 2;
    let pools = file(
        half,
        "",
        |i| format!("pool pool-{i:05} {{ real_server 10.0.1.1 80 }}\n"),
        "",
        false,
    );
    file(
        size,
        &pools,
        |i| format!("url_rule {{ path /{i}; pool pool-{i:05}x }}\n"),
        "",
        false,
    )
}

/// Not UTF-8 at all (a binary file given by mistake), with some structure.
fn binary(size: usize) -> Vec<u8> {
    let mut seed: u64 = 7;
    (0..size)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match (seed >> 59) as u8 {
                0 => b'\n',
                1 => b'{',
                2 => b'}',
                3 => b' ',
                _ => (seed >> 33) as u8,
            }
        })
        .collect()
}

/// Blocks nested as deep as the file allows, and unmatched `}`.
fn braces(size: usize) -> String {
    let open = "a {\n".repeat(size / 8);
    let close = "}\n".repeat(size / 4);
    format!("{open}{close}")
}

/// Checks `bytes` as `nicctl rules check` does (parse, then plan when it parses): the time
/// and the number of errors.
fn check(name: &str, bytes: &[u8]) -> (Duration, usize) {
    let start = Instant::now();
    let errors = match config::parse_bytes(name, bytes) {
        Err(e) => {
            for x in e.errors() {
                assert!(x.loc.line >= 1 && x.loc.col >= 1, "{x}");
            }
            e.len()
        }
        Ok(c) => {
            let _ = config::plan(&c, &config::Limits::card_default());
            0
        }
    };
    let took = start.elapsed();
    assert!(took < BOUND, "{name}: {} bytes took {took:?}", bytes.len());
    (took, errors)
}

#[test]
fn a_256_kib_block_of_unknown_keywords_is_checked() {
    let text = unknown_keywords(256 << 10);
    let (took, errors) = check("unknown.conf", text.as_bytes());
    // Every line is an error; the first MAX_ERRORS are shown, and the count of the rest.
    assert_eq!(errors, MAX_ERRORS + 1);
    let e = config::parse("unknown.conf", &text).unwrap_err();
    assert!(e.errors()[0].message.ends_with("did you mean `lvs_sched`?"));
    println!(
        "256 KiB of unknown keywords: {took:?} ({:.3} us/byte)",
        took.as_secs_f64() * 1e6 / text.len() as f64
    );
}

#[test]
fn files_at_the_size_limit_are_checked() {
    let valid = rules(MAX_FILE_BYTES, true);
    assert_eq!(valid.len(), MAX_FILE_BYTES);
    let start = Instant::now();
    let c = config::parse("limit.conf", &valid).unwrap();
    let took = start.elapsed();
    assert!(c.rules.len() > 19_000, "{}", c.rules.len());
    assert!(took < BOUND);
    println!("valid file at the size limit: {took:?}");
    for (name, text) in [
        ("unknown", unknown_keywords(MAX_FILE_BYTES)),
        ("references", bad_references(MAX_FILE_BYTES)),
        ("braces", braces(MAX_FILE_BYTES)),
    ] {
        let (took, errors) = check(name, text.as_bytes());
        assert!(errors > 0, "{name}");
        println!("{name} at the size limit: {took:?}, {errors} errors");
    }
    let (took, errors) = check("binary", &binary(MAX_FILE_BYTES));
    assert!(errors > 0);
    println!("binary at the size limit: {took:?}, {errors} errors");
    // Over the limit: read up to it, not further.
    let mut big = rules(MAX_FILE_BYTES, true).into_bytes();
    big.extend(binary(4 * MAX_FILE_BYTES));
    let (took, errors) = check("over.conf", &big);
    assert_eq!(errors, 1);
    println!("5 MiB file: {took:?}");
}

/// Time per byte of each kind of file at three sizes, valid and not (the figures are
/// printed; only the generous bound is asserted).
#[test]
fn per_byte_figures() {
    type Gen = fn(usize) -> Vec<u8>;
    let shapes: [(&str, Gen); 8] = [
        ("valid: url rules", |n| rules(n, false).into_bytes()),
        ("valid: real servers", |n| servers(n).into_bytes()),
        ("error: unknown keywords", |n| {
            unknown_keywords(n).into_bytes()
        }),
        ("error: long unknown words", |n| long_words(n).into_bytes()),
        ("error: undeclared pools", |n| {
            bad_references(n).into_bytes()
        }),
        ("error: nesting and braces", |n| braces(n).into_bytes()),
        ("error: binary", binary),
        ("error: every rule misspelt", |n| {
            rules(n, false).replace("path", "pth").into_bytes()
        }),
    ];
    println!(
        "{:<28} {:>10} {:>10} {:>10}  (us/byte)",
        "file", "64 KiB", "256 KiB", "1 MiB"
    );
    for (name, make) in shapes {
        let mut row = format!("{name:<28}");
        for size in [64 << 10, 256 << 10, MAX_FILE_BYTES] {
            let bytes = make(size);
            // Best of 3, to see past a busy machine.
            let best = (0..3)
                .map(|_| check(name, &bytes).0)
                .min()
                .unwrap_or_default();
            row.push_str(&format!(
                " {:>10.3}",
                best.as_secs_f64() * 1e6 / bytes.len() as f64
            ));
        }
        println!("{row}");
    }
}
