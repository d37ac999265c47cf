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
//! The mutator is deterministic (a seeded SplitMix64, no dependency). By default a short
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
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

use splicenic_hil::rig::{
    check_text, LabCard, Rig, RigError, RigKind, MAX_RIG_DEPTH, MAX_RIG_FILE_BYTES,
    MAX_RIG_LINE_BYTES,
};

/// Cases of the run inside `cargo test` (a few seconds in a debug build).
const SHORT_CASES: u64 = 5_000;

/// A case slower than this is counted as a timeout.
const TIMEOUT: Duration = Duration::from_secs(10);

const NAME: &str = "fuzz.toml";

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

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

fn mutate(seeds: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut b = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(b.len() + 1);
        match rng.below(9) {
            0 if !b.is_empty() => {
                let i = at.min(b.len() - 1);
                b[i] = rng.next() as u8;
            }
            1 if !b.is_empty() => {
                let i = at.min(b.len() - 1);
                b[i] = BYTES[rng.below(BYTES.len())];
            }
            2 => {
                let w = WORDS[rng.below(WORDS.len())];
                let w = if rng.chance(2) {
                    format!("{w} ")
                } else {
                    w.to_string()
                };
                b.splice(at..at, w.bytes());
            }
            3 => {
                let end = (at + 1 + rng.below(32)).min(b.len());
                b.drain(at..end);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let src = if rng.chance(2) {
                    b.clone()
                } else {
                    other.clone()
                };
                if !src.is_empty() {
                    let from = rng.below(src.len());
                    let to = (from + 1 + rng.below(256)).min(src.len());
                    b.splice(at..at, src[from..to].iter().copied());
                }
            }
            5 => {
                // A run: usually short, sometimes past a limit.
                let run = RUNS[rng.below(RUNS.len())];
                let n = if rng.chance(32) {
                    100 + rng.below(MAX_RIG_FILE_BYTES / run.len() + 1024)
                } else {
                    1 + rng.below(12)
                };
                b.splice(at..at, run.repeat(n).into_bytes());
            }
            6 => b.truncate(at),
            7 => {
                // Swap two lines.
                let lines: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
                if lines.len() > 2 {
                    let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                    let mut l: Vec<Vec<u8>> = lines.iter().map(|x| x.to_vec()).collect();
                    l.swap(i, j);
                    b = l.join(&b'\n');
                }
            }
            _ => {
                // Replace a quoted value by another.
                if let Some(i) = (at..b.len()).find(|&i| b[i] == b'"') {
                    if let Some(j) = (i + 1..b.len()).find(|&j| b[j] == b'"') {
                        let v = [
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
                        ][rng.below(14)];
                        b.splice(i + 1..j, v.bytes());
                    }
                }
            }
        }
    }
    b
}

#[derive(Default, Debug)]
struct Figures {
    cases: u64,
    accepted: u64,
    rejected_input: u64,
    rejected_syntax: u64,
    rejected_field: u64,
    bytes: u64,
    crashes: u64,
    timeouts: u64,
    unlocated: u64,
    depth_misses: u64,
    round_trip_failures: u64,
    /// The deepest nesting of a file the parser accepted.
    deepest: usize,
    /// The slowest case: seconds, its size, the input.
    slowest: (f64, usize),
    slowest_input: Vec<u8>,
    failures: Vec<String>,
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

fn save(input: &[u8], n: u64, why: &str, f: &mut Figures) {
    let path = std::env::temp_dir().join(format!(
        "splicenic-rig-fuzz-{}-{n}.toml",
        std::process::id()
    ));
    let _ = fs::write(&path, input);
    f.failures.push(format!("{}: {why}", path.display()));
}

/// Outcome of one case: 0 accepted, 1 input, 2 syntax, 3 field error; the nesting of a
/// file the parser took.
type Outcome = Result<(u8, Option<usize>), String>;

fn one_case(input: &[u8], n: u64, f: &mut Figures) {
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| -> Outcome {
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
    }));
    let took = start.elapsed();
    f.cases += 1;
    f.bytes += input.len() as u64;
    if took.as_secs_f64() > f.slowest.0 {
        f.slowest = (took.as_secs_f64(), input.len());
        f.slowest_input = input.to_vec();
    }
    if took > TIMEOUT {
        f.timeouts += 1;
        save(input, n, &format!("took {took:?}"), f);
    }
    match outcome {
        Err(_) => {
            f.crashes += 1;
            save(input, n, "panicked", f);
        }
        Ok(Err(why)) => {
            if why.starts_with("error without") {
                f.unlocated += 1;
            } else if why.starts_with("depth") {
                f.depth_misses += 1;
            } else {
                f.round_trip_failures += 1;
            }
            save(input, n, &why, f);
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

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number"))
    })
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
    let start = Instant::now();
    let mut last_report = Instant::now();
    for n in 0..cases {
        let input = mutate(&seeds, &mut rng);
        one_case(&input, n, &mut f);
        if last_report.elapsed() > Duration::from_secs(60) {
            last_report = Instant::now();
            eprintln!(
                "rig_fuzz: seed {seed}, {} cases, {:.0} cases/s",
                f.cases,
                f.cases as f64 / start.elapsed().as_secs_f64()
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "rig_fuzz: seed {seed}, {} cases ({} accepted; rejected: {} at a limit or not text, \
         {} TOML syntax, {} field), {:.1} MB in {secs:.1} s ({:.0} cases/s); crashes {}, \
         timeouts {}, errors without location {}, nesting past the scan {}, round-trip \
         failures {}; deepest valid TOML {} levels; slowest case {:.1} ms ({} bytes)",
        f.cases,
        f.accepted,
        f.rejected_input,
        f.rejected_syntax,
        f.rejected_field,
        f.bytes as f64 / 1e6,
        f.cases as f64 / secs,
        f.crashes,
        f.timeouts,
        f.unlocated,
        f.depth_misses,
        f.round_trip_failures,
        f.deepest,
        f.slowest.0 * 1e3,
        f.slowest.1,
    );
    if f.slowest.0 > 0.05 {
        let path = std::env::temp_dir().join(format!("splicenic-rig-fuzz-slowest-{seed}.toml"));
        let _ = fs::write(&path, &f.slowest_input);
        eprintln!("rig_fuzz: the slowest case is in {}", path.display());
    }
    f.slowest_input.clear();
    assert!(
        f.crashes + f.timeouts + f.unlocated + f.depth_misses + f.round_trip_failures == 0,
        "{f:#?}"
    );
    assert!(
        f.accepted > 0 && f.rejected_input > 0 && f.rejected_syntax > 0 && f.rejected_field > 0,
        "{f:?}"
    );
}
