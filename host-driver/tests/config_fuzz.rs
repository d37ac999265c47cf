//! Fuzz-style test of the configuration reader: mutated copies of `examples/*.conf`, of the
//! broken files in `config-errors/` and of a few generated files, fed to
//! `config::parse_bytes` and `config::plan` as `nicctl rules check` does.
//!
//! For every case: no panic, no case slower than 10 s, every error located (its file,
//! line ≥ 1, col ≥ 1). For every file the reader accepts: the `Config` printed in
//! configuration syntax (`Config`'s `Display`) reads back as an equal `Config` (locations
//! aside, `Config::without_locations`) and prints the same text again. For every file that
//! also fits the card (`plan` accepts it): the compiled rule table printed (`RuleTable`'s
//! `Display`, what `nicctl rules show` prints) reads back as the same rules and prints the
//! same again.
//!
//! The mutator is deterministic (a seeded SplitMix64, `splicenic-fuzzkit`). By default a short
//! run (10 000 cases) is part of `cargo test`. The long form takes its case count and seed
//! from the environment and prints its figures:
//!
//! ```text
//! SPLICENIC_CONFIG_FUZZ_CASES=1000000 [SPLICENIC_CONFIG_FUZZ_SEED=1] \
//!     cargo test --release -p splicenic-driver --test config_fuzz -- --nocapture
//! ```
//!
//! An input that fails is written to the temporary directory
//! (`splicenic-config-fuzz-*.conf`) and named in the failure message.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::time::Duration;

use splicenic_driver::config::{self, compile_rules, ConfigError, Limits};
use splicenic_fuzzkit::{
    self as fuzz, env_u64, Harness, Progress, Repeats, Rng, Space, Tally, TextEdits,
};

/// Cases of the run inside `cargo test` (a few seconds in a debug build).
const SHORT_CASES: u64 = 10_000;

/// Where failing inputs go; a case slower than 10 s is counted as a timeout (a bound no
/// healthy case comes near: the largest inputs take milliseconds).
const HARNESS: Harness = Harness::new("splicenic-config-fuzz", "conf", Duration::from_secs(10));

mod common;
use common::{conf_files, repo};

/// The seed files: the examples, the broken files, and generated ones with many rules and
/// servers (so that accepted mutants have rule tables to print).
fn seeds() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = conf_files(&repo().join("examples"))
        .into_iter()
        .chain(conf_files(&repo().join("host-driver/tests/config-errors")))
        .map(|p| fs::read(p).unwrap())
        .collect();
    let mut rules = String::from(
        "virtual_server 10.0.0.1 80 { default_pool web }\n\
         pool web { real_server 10.0.1.1 80 }\n\
         pool api { lvs_sched rr; real_server 10.0.2.1 8080 { weight 2 } }\n\
         virtual_server 10.0.0.2 443 { real_server 10.0.3.1 443 }\n",
    );
    for i in 0..40 {
        let pool = ["web", "api", "10.0.0.2:443"][i % 3];
        rules.push_str(&match i % 4 {
            0 => format!("url_rule r{i} {{ host h{i}.example.com; pool {pool} }}\n"),
            1 => format!("url_rule {{ path_prefix /p{i}/; priority {i}; pool {pool} }}\n"),
            2 => format!(
                "url_rule r{i} {{\n  host *.d{i}.example.com\n  path \"/a;{i}\"\n  pool {pool}\n}}\n"
            ),
            _ => format!("url_rule {{ path /x{i}!; priority 7; pool \"{pool}\" }}\n"),
        });
    }
    v.push(rules.into_bytes());
    v
}

/// Words the mutator inserts: the grammar's keywords and some values.
const WORDS: &[&str] = &[
    "global_defs",
    "virtual_server",
    "pool",
    "url_rule",
    "real_server",
    "HTTP_GET",
    "TCP_CHECK",
    "MISC_CHECK",
    "url",
    "path",
    "path_prefix",
    "host",
    "priority",
    "default_pool",
    "lvs_sched",
    "lb_algo",
    "lvs_method",
    "protocol",
    "weight",
    "mac",
    "sorry_server",
    "persistence_timeout",
    "persistence_granularity",
    "delay_loop",
    "dynamic_feedback",
    "connections",
    "response_time",
    "load_command",
    "lvs_timeouts",
    "local_address",
    "client_mac",
    "router_id",
    "status_code",
    "digest",
    "misc_path",
    "connect_timeout",
    "connect_port",
    "retry",
    "inhibit_on_failure",
    "lvs_flags",
    "sh-port",
    "vrrp_instance",
    "include",
    "web",
    "api",
    "10.0.0.1",
    "10.0.1.1",
    "80",
    "65536",
    "0",
    "-1",
    "1e309",
    "NaN",
    "0.5",
    "*.example.com",
    "/",
    "/a/../b",
    "{",
    "}",
    ";",
    "\"",
    "#",
    "!",
    "\\\"",
    "wlc",
    "NAT",
    "TCP",
    "02:00:00:00:00:01",
];

/// Bytes the mutator writes: the syntax characters and bytes that are not UTF-8.
const BYTES: &[u8] = b"{};\"#!\n\r\t \\0*:/.\xff\xfe\xc3\xa9\xe2\x82\x80";

/// Runs inserted to reach the limits: nesting, unbalanced braces, long lines, many tokens.
const RUNS: &[&str] = &[
    "{", "a {\n", "x {", "}", "}\n", "\"", "a ", "a;", "\u{e9}", "\n",
];

/// Edits 0 to 6: the shared ones.
const TEXT_EDITS: TextEdits = TextEdits {
    bytes: BYTES,
    words: WORDS,
    space: Space::After,
    delete_most: 64,
    // A piece of this file or of another seed.
    copy_most: 512,
    runs: RUNS,
    // A run: usually short, sometimes tens of thousands (deep nesting, long lines, many
    // tokens).
    repeats: |_| Repeats {
        short_most: 40,
        long_one_in: 64,
        long_min: 1000,
        long_span: 60_000,
    },
};

fn mutate(seeds: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    fuzz::mutant(rng, seeds, 8, 10, |rng, b, kind, at| match kind {
        // Replace a number by another.
        7 => fuzz::replace_number(
            rng,
            b,
            at,
            &[
                "0",
                "1",
                "255",
                "256",
                "65535",
                "65536",
                "4294967296",
                "99999999999999999999",
                "-0",
            ],
        ),
        8 => fuzz::swap_lines(rng, b),
        9 => {
            // Remove or double a brace.
            if let Some(i) = (at..b.len()).find(|&i| matches!(b[i], b'{' | b'}')) {
                if rng.chance(2) {
                    b.remove(i);
                } else {
                    b.insert(i, b[i]);
                }
            }
        }
        _ => TEXT_EDITS.edit(rng, b, kind, at, seeds),
    })
}

#[derive(Default, Debug)]
struct Figures {
    /// Cases, bytes, crashes, timeouts, the slowest case, the failures.
    run: Tally,
    accepted: u64,
    rejected: u64,
    errors: u64,
    unlocated: u64,
    round_trip_failures: u64,
    /// Accepted by the reader, and the printed `Config` read back the same.
    configs_round_tripped: u64,
    /// The most time per byte in a case of at least 64 KiB: µs/byte, size.
    worst_per_byte: (f64, usize),
}

/// What is wrong with the errors, if anything.
fn unlocated(errors: &[ConfigError], file: &str) -> Option<String> {
    errors
        .iter()
        .find(|e| e.loc.line < 1 || e.loc.col < 1 || e.loc.file != file || e.message.is_empty())
        .map(|e| format!("error without a location: {e:?}"))
}

/// A configuration the reader accepted, printed and read back: the same configuration
/// (locations aside), printed the same.
fn config_round_trip(cfg: &config::Config) -> Result<(), String> {
    let text = cfg.to_string();
    let again = config::parse("printed.conf", &text)
        .map_err(|e| format!("printed configuration does not parse:\n{text}\n{e}"))?;
    if again.without_locations() != cfg.without_locations() {
        return Err(format!(
            "printed configuration reads back differently:\n{text}\n{:?}\n{:?}",
            cfg.without_locations(),
            again.without_locations()
        ));
    }
    let twice = again.to_string();
    if twice != text {
        return Err(format!(
            "printed configuration prints differently when read back:\n{text}\n{twice}"
        ));
    }
    Ok(())
}

/// The URL rules of an accepted file, printed, read back in a file that declares their
/// pools: the same rules, printed the same.
fn round_trip(cfg: &config::Config, plan: &config::Plan) -> Result<(), String> {
    let shown = plan.rules.to_string();
    let pools: BTreeSet<&str> = plan.rules.rules.iter().map(|r| r.pool.as_str()).collect();
    let mut text = String::new();
    for p in &pools {
        // An implicit pool is a virtual_server's own list, named `VIP:PORT`.
        match p.split_once(':') {
            Some((ip, port)) => text.push_str(&format!(
                "virtual_server {ip} {port} {{ real_server 10.0.1.1 80 }}\n"
            )),
            None => text.push_str(&format!("pool {p} {{ }}\n")),
        }
    }
    text.push_str(&shown);
    let again = config::parse("again.conf", &text)
        .map_err(|e| format!("printed rules do not parse:\n{text}\n{e}"))?;
    let key = |r: &config::UrlRule| {
        (
            r.name.clone(),
            r.host.clone(),
            r.path.clone(),
            r.priority,
            r.pool.clone(),
        )
    };
    let a: Vec<_> = cfg.rules.iter().map(key).collect();
    let b: Vec<_> = again.rules.iter().map(key).collect();
    if a != b {
        return Err(format!(
            "printed rules read back differently:\n{shown}\n{a:?}\n{b:?}"
        ));
    }
    let index: HashMap<String, u16> = plan
        .pools
        .iter()
        .map(|p| (p.name.clone(), u16::from(p.index)))
        .collect();
    let unlimited = Limits {
        rules: usize::MAX,
        ..Limits::card_default()
    };
    let mut t = compile_rules(&again.rules, &index, &unlimited)
        .map_err(|e| format!("printed rules do not compile: {e}"))?;
    t.default_pool = plan.rules.default_pool;
    t.default_pool_name = plan.rules.default_pool_name.clone();
    let same = t.rules.len() == plan.rules.rules.len()
        && t.rules
            .iter()
            .zip(&plan.rules.rules)
            .all(|(x, y)| x.rule == y.rule && x.name == y.name && x.pool == y.pool);
    if !same || t.to_string() != shown {
        return Err(format!("printed rules compile differently:\n{shown}\n{t}"));
    }
    Ok(())
}

fn one_case(input: &[u8], n: u64, f: &mut Figures) {
    const NAME: &str = "fuzz.conf";
    // Ok((accepted by the reader, accepted by `plan` too, errors)).
    let case = HARNESS.case(
        &mut f.run,
        input,
        n,
        || -> Result<(bool, bool, usize), String> {
            match config::parse_bytes(NAME, input) {
                Err(e) => {
                    if let Some(why) = unlocated(e.errors(), NAME) {
                        return Err(why);
                    }
                    Ok((false, false, e.len()))
                }
                Ok(cfg) => {
                    config_round_trip(&cfg)?;
                    match config::plan(&cfg, &Limits::card_default()) {
                        Err(e) => {
                            if let Some(why) = unlocated(e.errors(), NAME) {
                                return Err(why);
                            }
                            Ok((true, false, e.len()))
                        }
                        Ok(plan) => round_trip(&cfg, &plan).map(|()| (true, true, 0)),
                    }
                }
            }
        },
    );
    let secs = case.took.as_secs_f64();
    if input.len() >= 64 << 10 {
        let per_byte = secs * 1e6 / input.len() as f64;
        if per_byte > f.worst_per_byte.0 {
            f.worst_per_byte = (per_byte, input.len());
        }
    }
    match case.outcome {
        Err(_) => HARNESS.panicked(&mut f.run, input, n),
        Ok(Err(why)) => {
            if why.starts_with("error without") {
                f.unlocated += 1;
            } else {
                f.round_trip_failures += 1;
            }
            HARNESS.save(&mut f.run, input, n, &why);
        }
        Ok(Ok((parsed, accepted, errors))) => {
            f.configs_round_tripped += u64::from(parsed);
            if accepted {
                f.accepted += 1;
            } else {
                f.rejected += 1;
                f.errors += errors as u64;
            }
        }
    }
}

#[test]
fn mutated_files_are_checked_without_panics_and_with_locations() {
    let cases = env_u64("SPLICENIC_CONFIG_FUZZ_CASES").unwrap_or(SHORT_CASES);
    let seed = env_u64("SPLICENIC_CONFIG_FUZZ_SEED").unwrap_or(1);
    let seeds = seeds();
    // The seeds themselves first: the examples and the generated file are accepted.
    let mut f = Figures::default();
    for (i, s) in seeds.iter().enumerate() {
        one_case(s, i as u64, &mut f);
    }
    assert!(
        f.accepted >= 3 && f.configs_round_tripped >= f.accepted,
        "{f:?}"
    );
    assert_eq!(
        f.run.crashes + f.unlocated + f.round_trip_failures,
        0,
        "{f:?}"
    );

    let mut rng = Rng(seed);
    let mut progress = Progress::new("config_fuzz", "cases");
    for n in 0..cases {
        let input = mutate(&seeds, &mut rng);
        one_case(&input, n, &mut f);
        progress.tick(f.run.cases);
    }
    let secs = progress.secs();
    println!(
        "config_fuzz: seed {seed}, {} cases ({} accepted, {} rejected with {} errors), {:.1} MB in \
         {secs:.1} s ({:.0} cases/s); crashes {}, timeouts {}, errors without location {}, \
         round-trip failures {}; configurations round-tripped {}, rule tables round-tripped {}; \
         slowest case {:.1} ms ({} bytes), worst per byte at >= 64 KiB {:.3} us/byte ({} \
         bytes)",
        f.run.cases,
        f.accepted,
        f.rejected,
        f.errors,
        f.run.bytes as f64 / 1e6,
        f.run.cases as f64 / secs,
        f.run.crashes,
        f.run.timeouts,
        f.unlocated,
        f.round_trip_failures,
        f.configs_round_tripped,
        f.accepted,
        f.run.slowest.0 * 1e3,
        f.run.slowest.1,
        f.worst_per_byte.0,
        f.worst_per_byte.1,
    );
    assert!(
        f.run.crashes + f.run.timeouts + f.unlocated + f.round_trip_failures == 0,
        "{f:#?}"
    );
    // The mutants reach both outcomes, and the printer is exercised beyond the seeds.
    assert!(f.accepted > 0 && f.rejected > 0, "{f:?}");
    assert!(f.configs_round_tripped > seeds.len() as u64, "{f:?}");
}
