//! Fuzz-style test of the rig file reader (`splicenic_hil::rig::Rig::parse_bytes`, what
//! `Rig::load`, `rig-check` and `$SPLICENIC_RIG` use): mutated copies of the rig files in
//! `hil-tests/rigs/`, of the example in docs/rig.md and of generated lab and simulated rigs.
//! Needs neither root nor a card: it only parses.
//!
//! For every case: no panic, no case slower than 10 s, and every error located: a limit,
//! encoding or control-character error at a line and column of the file, naming what it is;
//! a TOML syntax error with the parser's `line N, column M` within the file; a field error
//! naming the field; every message short and without control characters (other than the
//! line breaks of the parser's quoted line). For every file that passes the text checks and
//! is valid TOML, its nesting is within `MAX_RIG_DEPTH` (so the scan that bounds it before
//! the parser runs did not under-count). For every accepted file: the rig printed as a rig
//! file reads back as the same rig.
//!
//! A stack overflow aborts the process rather than failing the case, so it shows as the run
//! ending without its figures; the seed and the last progress line say where.
//!
//! The mutator is deterministic (a seeded SplitMix64, `splicenic-fuzzkit`). By default a short
//! run (5 000 cases) is part of `cargo test`. The long form takes its case count and seed
//! from the environment and prints its figures:
//!
//! ```text
//! SPLICENIC_RIG_FUZZ_CASES=1000000 [SPLICENIC_RIG_FUZZ_SEED=1] \
//!     cargo test --release -p splicenic-hil --test rig_fuzz -- --nocapture
//! ```
//!
//! An input that fails is written to the temporary directory (`splicenic-rig-fuzz-*.toml`)
//! and named in the failure message.

use std::fs;
use std::path::Path;
use std::time::Duration;

use splicenic_fuzzkit::{
    self as fuzz, env_u64, Harness, Progress, Repeats, Rng, Space, Tally, TextEdits,
};

use splicenic_hil::rig::{
    check_text, LabCard, Rig, RigError, RigKind, MAX_RIG_DEPTH, MAX_RIG_FILE_BYTES,
    MAX_RIG_LINE_BYTES,
};

/// Cases of the run inside `cargo test` (a few seconds in a debug build).
const SHORT_CASES: u64 = 5_000;

/// Where failing inputs go; a case slower than 10 s is counted as a timeout.
const HARNESS: Harness = Harness::new("splicenic-rig-fuzz", "toml", Duration::from_secs(10));

const NAME: &str = "fuzz.toml";

fn repo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The seeds: the rig files of the repository, the example of docs/rig.md, generated rigs.
fn seeds() -> Vec<Vec<u8>> {
    let mut files: Vec<_> = fs::read_dir(repo().join("hil-tests/rigs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut v: Vec<Vec<u8>> = files.iter().map(|p| fs::read(p).unwrap()).collect();
    assert!(v.len() >= 2, "the rig files of hil-tests/rigs");
    let doc = fs::read_to_string(repo().join("docs/rig.md")).unwrap();
    if let Some(start) = doc.find("```toml\n") {
        let body = &doc[start + 8..];
        if let Some(end) = body.find("```") {
            v.push(body.as_bytes()[..end].to_vec());
        }
    }
    v.push(
        b"rig = \"lab\"\n[card]\nsocket = \"/run/splicenic/card.sock\"\n[ports]\n\
          client = \"tap-c\"\nserver = \"tap-s\"\n[addresses]\nvip = \"172.31.0.80:8000\"\n\
          client = \"172.31.0.9\"\nlocal = \"10.77.0.1\"\nbackends = \"10.77.0.20:8081\"\n"
            .to_vec(),
    );
    v.push(
        b"rig = 'sim'\ncard = { cpu = \"vexriscv\" }\naddresses.vip = \"10.9.9.9:81\"\n\
          addresses.client = \"10.9.9.1\"\n\"addresses\".card_mac_server = '02:aa:bb:cc:dd:ee'\n"
            .to_vec(),
    );
    v
}

/// Words the mutator inserts: the keys, values and TOML's syntax.
const WORDS: &[&str] = &[
    "rig",
    "card",
    "ports",
    "addresses",
    "pci",
    "socket",
    "cpu",
    "client",
    "server",
    "vip",
    "local",
    "backends",
    "card_mac_client",
    "card_mac_server",
    "\"lab\"",
    "\"sim\"",
    "\"vexriscv\"",
    "\"picorv32\"",
    "\"0000:03:00.0\"",
    "\"03:00.0\"",
    "\"enp4s0f0\"",
    "\"10.0.0.100:80\"",
    "\"10.0.0.2\"",
    "\"192.168.1.1\"",
    "\"192.168.1.10:8080\"",
    "\"02:5e:00:00:00:01\"",
    "\"01:00:00:00:00:01\"",
    "=",
    ".",
    ",",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    "\"",
    "'",
    "\"\"\"",
    "'''",
    "#",
    "\\",
    "\\u001b",
    "\\\"",
    "true",
    "1",
    "-0",
    "1.5",
    "1e400",
    "inf",
    "nan",
    "0x10",
    "1979-05-27T07:32:00Z",
    "99999999999999999999",
    "\n",
    "\r\n",
];

/// Bytes the mutator writes: syntax characters, control characters, bytes that are not
/// UTF-8.
const BYTES: &[u8] = b"[]{}=.,\"'#\\ \t\n\r\x00\x01\x1b\x7f\xff\xfe\xc3\xa9\xe2\x80";

/// Runs inserted to reach the limits: nesting (one line and over lines), long lines, long
/// files.
const RUNS: &[&str] = &[
    "[",
    "[\n",
    "{a=",
    "a.",
    "{ a.a.a.a.a.a.a = [\n",
    "x",
    "# filler\n",
    "k = 1\n",
    "]",
    "}",
    "\u{e9}",
];

/// Edits 0 to 6: the shared ones.
const TEXT_EDITS: TextEdits = TextEdits {
    bytes: BYTES,
    words: WORDS,
    space: Space::Sometimes,
    delete_most: 32,
    copy_most: 256,
    runs: RUNS,
    // A run: usually short, sometimes past a limit.
    repeats: |run| Repeats {
        short_most: 12,
        long_one_in: 32,
        long_min: 100,
        long_span: MAX_RIG_FILE_BYTES / run.len() + 1024,
    },
};

fn mutate(seeds: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    fuzz::mutant(rng, seeds, 6, 9, |rng, b, kind, at| match kind {
        7 => fuzz::swap_lines(rng, b),
        8 => {
            // Replace a quoted value by another.
            if let Some(i) = (at..b.len()).find(|&i| b[i] == b'"') {
                if let Some(j) = (i + 1..b.len()).find(|&j| b[j] == b'"') {
                    let v = rng.pick(&[
                        "lab",
                        "sim",
                        "vexriscv",
                        "10.0.0.0:80",
                        "10.0.0.1:65536",
                        "255.255.255.255",
                        "192.168.1.250:80",
                        "0000:03:00.0",
                        "ffff:ff:1f.7",
                        "lo",
                        "a/b",
                        "0123456789abcdef",
                        "02:5e:00:00:00:02",
                        "",
                    ]);
                    b.splice(i + 1..j, v.bytes());
                }
            }
        }
        _ => TEXT_EDITS.edit(rng, b, kind, at, seeds),
    })
}

#[derive(Default, Debug)]
struct Figures {
    /// Cases, bytes, crashes, timeouts, the slowest case (seconds, its size), the failures.
    run: Tally,
    accepted: u64,
    rejected_input: u64,
    rejected_syntax: u64,
    rejected_field: u64,
    unlocated: u64,
    depth_misses: u64,
    round_trip_failures: u64,
    /// The deepest nesting of a file the parser accepted.
    deepest: usize,
    /// The input of the slowest case.
    slowest_input: Vec<u8>,
}

/// The lines of the input and, for `line` (from 1), how many characters it reads as.
fn line_chars(input: &[u8], line: usize) -> Option<usize> {
    let raw = input.split(|&c| c == b'\n').nth(line.checked_sub(1)?)?;
    Some(String::from_utf8_lossy(raw).chars().count())
}

/// What is wrong with the error, if anything.
fn unlocated(input: &[u8], e: &RigError) -> Option<String> {
    let m = e.to_string();
    if !m.starts_with(&format!("rig file {NAME}")) {
        return Some(format!("file not named: {m}"));
    }
    if m.len() > 4 * MAX_RIG_LINE_BYTES + 1024 {
        return Some(format!("message of {} bytes", m.len()));
    }
    match e {
        RigError::Input {
            line, col, message, ..
        } => {
            let Some(chars) = line_chars(input, *line) else {
                return Some(format!("line {line} is not in the file: {m}"));
            };
            if *col < 1 || *col > chars + 1 {
                return Some(format!("column {col} is not in line {line}: {m}"));
            }
            let named = [
                "MAX_RIG_FILE_BYTES",
                "MAX_RIG_LINE_BYTES",
                "MAX_RIG_DEPTH",
                "invalid UTF-8",
                "control character",
            ];
            if !named.iter().any(|n| message.contains(n)) || message.contains(char::is_control) {
                return Some(format!("input error not named: {m}"));
            }
        }
        RigError::Syntax { message, .. } => {
            // "TOML parse error at line N, column M".
            let place = message
                .split_once("at line ")
                .and_then(|(_, r)| r.split_once(", column "))
                .and_then(|(l, r)| {
                    let c: String = r.chars().take_while(char::is_ascii_digit).collect();
                    Some((l.parse::<usize>().ok()?, c.parse::<usize>().ok()?))
                });
            match place {
                // The column may be the line's end (its newline) or just past it (the end
                // of the file).
                Some((l, c)) if line_chars(input, l).is_some_and(|n| c >= 1 && c <= n + 2) => {}
                _ => return Some(format!("syntax error without a place in the file: {m}")),
            }
            if message.contains(|c: char| c.is_control() && c != '\n') {
                return Some(format!("control character in the message: {m:?}"));
            }
        }
        RigError::Field { field, message, .. } => {
            if field.is_empty()
                || field.len() > 256
                || message.is_empty()
                || m.contains(char::is_control)
            {
                return Some(format!("field error not named: {m:?}"));
            }
        }
        RigError::Read { .. } => return Some(format!("read error from bytes: {m}")),
    }
    None
}

/// Keys and array indices from the top to the deepest value (iteratively).
fn depth(root: &toml::Table) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&toml::Value, usize)> = root.values().map(|v| (v, 1)).collect();
    while let Some((v, d)) = stack.pop() {
        deepest = deepest.max(d);
        match v {
            toml::Value::Table(t) => stack.extend(t.values().map(|v| (v, d + 1))),
            toml::Value::Array(a) => stack.extend(a.iter().map(|v| (v, d + 1))),
            _ => {}
        }
    }
    deepest
}

fn mac(m: &[u8; 6]) -> String {
    m.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// The rig as a rig file, every field given.
fn print(rig: &Rig) -> String {
    // A TOML basic string.
    let q = |s: &str| {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    };
    let mut t = String::new();
    match &rig.kind {
        RigKind::Sim { cpu } => {
            let cpu = match cpu {
                splicenic_sim::Cpu::PicoRv32 => "picorv32",
                splicenic_sim::Cpu::VexRiscv => "vexriscv",
            };
            t.push_str(&format!("rig = \"sim\"\n[card]\ncpu = \"{cpu}\"\n"));
        }
        RigKind::Lab(l) => {
            t.push_str("rig = \"lab\"\n[card]\n");
            match &l.card {
                LabCard::Pci(p) => t.push_str(&format!("pci = {}\n", q(p))),
                LabCard::Socket(p) => {
                    t.push_str(&format!("socket = {}\n", q(&p.to_string_lossy())))
                }
            }
            t.push_str(&format!(
                "[ports]\nclient = {}\nserver = {}\n",
                q(&l.client_if),
                q(&l.server_if)
            ));
        }
    }
    let a = &rig.addrs;
    t.push_str(&format!(
        "[addresses]\nvip = \"{}:{}\"\nclient = \"{}\"\nlocal = \"{}\"\nbackends = \"{}:{}\"\n\
         card_mac_client = \"{}\"\ncard_mac_server = \"{}\"\n",
        a.vip,
        a.vip_port,
        a.client,
        a.local,
        a.backend_first,
        a.backend_port,
        mac(&a.card_mac_client),
        mac(&a.card_mac_server)
    ));
    t
}

/// Outcome of one case: 0 accepted, 1 input, 2 syntax, 3 field error; the nesting of a
/// file the parser took.
type Outcome = Result<(u8, Option<usize>), String>;

fn one_case(input: &[u8], n: u64, f: &mut Figures) {
    let case = HARNESS.case(&mut f.run, input, n, || -> Outcome {
        // The nesting of whatever the scan lets through to the parser.
        let nesting = check_text(input)
            .ok()
            .and_then(|text| text.parse::<toml::Table>().ok())
            .map(|t| depth(&t));
        if nesting.is_some_and(|d| d > MAX_RIG_DEPTH) {
            return Err(format!("depth: {nesting:?} passed the scan"));
        }
        match Rig::parse_bytes(input, Path::new(NAME)) {
            Ok(rig) => {
                let again = Rig::parse(&print(&rig), Path::new(NAME))
                    .map_err(|e| format!("printed rig refused: {e}\n{}", print(&rig)))?;
                if again != rig {
                    return Err(format!("printed rig reads back as {again:?}, not {rig:?}"));
                }
                Ok((0, nesting))
            }
            Err(e) => match unlocated(input, &e) {
                Some(why) => Err(format!("error without a location: {why}")),
                None => Ok((
                    match e {
                        RigError::Input { .. } => 1,
                        RigError::Syntax { .. } => 2,
                        _ => 3,
                    },
                    nesting,
                )),
            },
        }
    });
    if case.slowest {
        f.slowest_input = input.to_vec();
    }
    match case.outcome {
        Err(_) => HARNESS.panicked(&mut f.run, input, n),
        Ok(Err(why)) => {
            if why.starts_with("error without") {
                f.unlocated += 1;
            } else if why.starts_with("depth") {
                f.depth_misses += 1;
            } else {
                f.round_trip_failures += 1;
            }
            HARNESS.save(&mut f.run, input, n, &why);
        }
        Ok(Ok((kind, nesting))) => {
            f.deepest = f.deepest.max(nesting.unwrap_or(0));
            match kind {
                0 => f.accepted += 1,
                1 => f.rejected_input += 1,
                2 => f.rejected_syntax += 1,
                _ => f.rejected_field += 1,
            }
        }
    }
}

#[test]
fn mutated_rig_files_are_checked_without_panics_and_with_locations() {
    let cases = env_u64("SPLICENIC_RIG_FUZZ_CASES").unwrap_or(SHORT_CASES);
    let seed = env_u64("SPLICENIC_RIG_FUZZ_SEED").unwrap_or(1);
    let seeds = seeds();
    let mut f = Figures::default();
    for (i, s) in seeds.iter().enumerate() {
        one_case(s, i as u64, &mut f);
    }
    // The seeds are rig files.
    assert_eq!(f.accepted, seeds.len() as u64, "{f:#?}");

    let mut rng = Rng(seed);
    let mut progress = Progress::new(format!("rig_fuzz: seed {seed}"), "cases");
    for n in 0..cases {
        let input = mutate(&seeds, &mut rng);
        one_case(&input, n, &mut f);
        progress.tick(f.run.cases);
    }
    let secs = progress.secs();
    println!(
        "rig_fuzz: seed {seed}, {} cases ({} accepted; rejected: {} at a limit or not text, \
         {} TOML syntax, {} field), {:.1} MB in {secs:.1} s ({:.0} cases/s); crashes {}, \
         timeouts {}, errors without location {}, nesting past the scan {}, round-trip \
         failures {}; deepest valid TOML {} levels; slowest case {:.1} ms ({} bytes)",
        f.run.cases,
        f.accepted,
        f.rejected_input,
        f.rejected_syntax,
        f.rejected_field,
        f.run.bytes as f64 / 1e6,
        f.run.cases as f64 / secs,
        f.run.crashes,
        f.run.timeouts,
        f.unlocated,
        f.depth_misses,
        f.round_trip_failures,
        f.deepest,
        f.run.slowest.0 * 1e3,
        f.run.slowest.1,
    );
    if f.run.slowest.0 > 0.05 {
        let path = std::env::temp_dir().join(format!("splicenic-rig-fuzz-slowest-{seed}.toml"));
        let _ = fs::write(&path, &f.slowest_input);
        eprintln!("rig_fuzz: the slowest case is in {}", path.display());
    }
    f.slowest_input.clear();
    assert!(
        f.run.crashes + f.run.timeouts + f.unlocated + f.depth_misses + f.round_trip_failures == 0,
        "{f:#?}"
    );
    assert!(
        f.accepted > 0 && f.rejected_input > 0 && f.rejected_syntax > 0 && f.rejected_field > 0,
        "{f:?}"
    );
}
