//! Fuzz-style test of the `ipvsadm -R` reader ([`parse_restore`]): mutated copies of what
//! `-S` writes (the golden `-S` outputs of the format tests, a full card) and of the other
//! commands' lines, as `nicctl ipvsadm -R` reads them.
//!
//! For every case: no panic, no case slower than 10 s, and an error is located: its line is
//! a line of the input, its quoted text is that line (as shown: control characters escaped,
//! at most 120 characters), a limit, encoding or control-character error has a column
//! within the line, and every message is one short line. For every accepted input: at most
//! `MAX_RESTORE_COMMANDS` commands, and the commands printed (`IpvsCommand`'s `Display`, the
//! `-S` style) read back as the same commands.
//!
//! The mutator is deterministic (a seeded SplitMix64, `splicenic-fuzzkit`). By default a short
//! run (5 000 cases) is part of `cargo test`. The long form takes its case count and seed
//! from the environment and prints its figures:
//!
//! ```text
//! SPLICENIC_IPVS_FUZZ_CASES=1000000 [SPLICENIC_IPVS_FUZZ_SEED=1] \
//!     cargo test --release -p nicctl --bin nicctl ipvs::args::fuzz -- --nocapture
//! ```
//!
//! An input that fails is written to the temporary directory
//! (`splicenic-ipvs-fuzz-*.rules`) and named in the failure message.

use std::time::Duration;

use splicenic_fuzzkit::{
    self as fuzz, env_u64, Harness, Progress, Repeats, Rng, Space, Tally, TextEdits,
};

use super::*;

/// Cases of the run inside `cargo test` (a few seconds in a debug build).
const SHORT_CASES: u64 = 5_000;

/// Where failing inputs go; a case slower than 10 s is counted as a timeout.
const HARNESS: Harness = Harness::new("splicenic-ipvs-fuzz", "rules", Duration::from_secs(10));

/// The seeds: `-S` outputs, a full card, the restore test's input, other commands.
fn seeds() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = vec![
        include_bytes!("../../../tests/golden/ipvs/save.txt").to_vec(),
        include_bytes!("../../../tests/golden/card/save.txt").to_vec(),
        b"# saved by nicctl\n-A -t 10.0.0.1:80 -s wlc\n\t-a -t 10.0.0.1:80 -r 192.168.1.10:8080 \
          -m -w 1   # web 1\r\n\nipvsadm -a -t 10.0.0.1:80 -r 192.168.1.11:8080 -m -w 2\n\
          ipvsadm\n--set 900 120 300\n"
            .to_vec(),
        b"-C\n-E -t 10.0.0.1:80 -s rr -p\n-e -t 10.0.0.1:80 -r 192.168.1.10 -w 3 -x 10 -y 2\n\
          -d -t 10.0.0.1:80 -r 192.168.1.10:8080\n-D -t 10.0.0.1:80\n-Z\n-L -n --stats\n\
          -L -t 10.0.0.2:443 --json\n-S -n\n--add-service --tcp-service=10.0.0.3:https \
          --scheduler=mh --sched-flags=mh-port\n-At10.0.0.4:8080 -p600 -M 255.255.0.0\n\
          -h\n-v\n"
            .to_vec(),
    ];
    // A full card: 8 services, 64 real servers.
    let mut full = String::new();
    let scheds = ["wlc", "rr", "wrr", "lc", "sh", "dh", "sed", "nq"];
    for (s, sched) in scheds.iter().enumerate() {
        full.push_str(&format!("-A -t 10.0.{s}.1:80 -s {sched} -p {}\n", 300 + s));
        for r in 0..8 {
            full.push_str(&format!(
                "-a -t 10.0.{s}.1:80 -r 192.168.{s}.{}:8080 -m -w {} --mac 02:00:5e:00:{s:02x}:{r:02x}\n",
                10 + r,
                r + 1
            ));
        }
    }
    v.push(full.into_bytes());
    v
}

/// Words the mutator inserts: options, commands, values.
const WORDS: &[&str] = &[
    "-A",
    "-E",
    "-D",
    "-C",
    "-R",
    "-S",
    "-a",
    "-e",
    "-d",
    "-L",
    "-l",
    "-Z",
    "--set",
    "-h",
    "-t",
    "-u",
    "-f",
    "-s",
    "-p",
    "-M",
    "-r",
    "-m",
    "-g",
    "-i",
    "-w",
    "-x",
    "-y",
    "-n",
    "-c",
    "-b",
    "-6",
    "--mac",
    "--json",
    "--stats",
    "--rate",
    "--timeout",
    "--exact",
    "--thresholds",
    "--nosort",
    "--sort",
    "--persistent-conn",
    "--pe",
    "--ops",
    "--tun-type",
    "--syncid",
    "--start-daemon",
    "--",
    "-",
    "=",
    "ipvsadm",
    "#",
    "10.0.0.1:80",
    "10.0.0.1",
    "10.1",
    "0x0a000001",
    "1.2.3.4.5",
    "[::1]:80",
    "::1",
    "192.168.1.10:8080",
    ":80",
    "10.0.0.1:",
    "10.0.0.1:http",
    "10.0.0.1:65536",
    "wlc",
    "rr",
    "sh",
    "mh",
    "nope",
    "sh-port",
    "sh-fallback,sh-port",
    ",,",
    "255.255.255.0",
    "02:00:5e:00:00:01",
    "02:00:5e:00:00",
    "0",
    "1",
    "-1",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "99999999999999999999",
    "2678400",
    "2678401",
];

/// Bytes the mutator writes: separators, and bytes that are not text.
const BYTES: &[u8] = b" \t\r\n#-=:.,\x00\x01\x1b\x7f\xff\xfe\xc3\xa9\xe2\x80";

/// Runs inserted to reach the limits: many commands, long lines, many tokens, big input.
const RUNS: &[&str] = &[
    "-C\n",
    "\n",
    "# comment\n",
    "-w ",
    "x",
    "-L\n",
    "-",
    "\u{e9}",
];

/// Edits 0 to 6: the shared ones.
const TEXT_EDITS: TextEdits = TextEdits {
    bytes: BYTES,
    words: WORDS,
    space: Space::After,
    delete_most: 32,
    copy_most: 256,
    runs: RUNS,
    // A run: usually short, sometimes past the limits (commands, line, input).
    repeats: |run| Repeats {
        short_most: 40,
        long_one_in: 64,
        long_min: 1000,
        long_span: MAX_RESTORE_BYTES / run.len() + 4096,
    },
};

fn mutate(seeds: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    fuzz::mutant(rng, seeds, 6, 9, |rng, b, kind, at| match kind {
        // Replace a number by another (the last ten words).
        7 => fuzz::replace_number(rng, b, at, &WORDS[WORDS.len() - 10..]),
        8 => fuzz::swap_lines(rng, b),
        _ => TEXT_EDITS.edit(rng, b, kind, at, seeds),
    })
}

#[derive(Default, Debug)]
struct Figures {
    /// Cases, bytes, crashes, timeouts, the slowest case, the failures.
    run: Tally,
    accepted: u64,
    commands: u64,
    rejected: u64,
    /// Rejections past a limit or for not being text.
    limits: u64,
    unlocated: u64,
    round_trip_failures: u64,
}

/// What is wrong with the error's location, if anything.
fn unlocated(input: &[u8], e: &RestoreError) -> Option<String> {
    let mut lines: Vec<&[u8]> = input.split(|&c| c == b'\n').collect();
    if input.ends_with(b"\n") {
        lines.pop();
    }
    let Some(raw) = e.line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return Some(format!("line {} of {}: {e}", e.line, lines.len()));
    };
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let want = shown(&String::from_utf8_lossy(raw));
    if e.text != want {
        return Some(format!("quoted text is not line {}: {e}", e.line));
    }
    let placed = matches!(
        e.error,
        ArgsError::InputTooLarge
            | ArgsError::LineTooLong
            | ArgsError::InvalidUtf8(_)
            | ArgsError::ControlCharacter(_)
    );
    if placed && (e.col < 1 || e.col > chars_in(raw) + 1) {
        return Some(format!("column {} outside the line: {e}", e.col));
    }
    let m = e.to_string();
    let limit = match e.error {
        ArgsError::InputTooLarge => Some("MAX_RESTORE_BYTES"),
        ArgsError::LineTooLong => Some("MAX_RESTORE_LINE_BYTES"),
        ArgsError::TooManyCommands => Some("MAX_RESTORE_COMMANDS"),
        _ => None,
    };
    if limit.is_some_and(|l| !m.contains(l)) {
        return Some(format!("limit not named: {m}"));
    }
    // The message quotes at most the shown line and one of its words.
    if m.contains(|c: char| c.is_control() && c != '\t')
        || m.len() > 2 * MAX_RESTORE_LINE_BYTES + 1024
    {
        return Some(format!("message not one short line: {m:?}"));
    }
    None
}

/// The accepted commands printed one a line read back the same.
fn round_trip(cmds: &[IpvsCommand]) -> Result<(), String> {
    if cmds.len() > MAX_RESTORE_COMMANDS {
        return Err(format!("{} commands accepted", cmds.len()));
    }
    let text: String = cmds.iter().map(|c| format!("{c}\n")).collect();
    let again = parse_restore(&text).map_err(|e| format!("printed commands refused: {e}"))?;
    if again != cmds {
        let first = cmds
            .iter()
            .zip(&again)
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("{a:?} read back as {b:?}"));
        return Err(format!("printed commands read back differently: {first:?}"));
    }
    Ok(())
}

fn one_case(input: &[u8], n: u64, f: &mut Figures) {
    let case = HARNESS.case(&mut f.run, input, n, || match parse_restore(input) {
        Ok(cmds) => round_trip(&cmds).map(|()| (true, cmds.len(), false)),
        Err(e) => match unlocated(input, &e) {
            Some(why) => Err(format!("error without a location: {why}")),
            None => Ok((
                false,
                0,
                matches!(
                    e.error,
                    ArgsError::InputTooLarge
                        | ArgsError::LineTooLong
                        | ArgsError::TooManyCommands
                        | ArgsError::InvalidUtf8(_)
                        | ArgsError::ControlCharacter(_)
                ),
            )),
        },
    });
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
        Ok(Ok((true, cmds, _))) => {
            f.accepted += 1;
            f.commands += cmds as u64;
        }
        Ok(Ok((false, _, limit))) => {
            f.rejected += 1;
            f.limits += u64::from(limit);
        }
    }
}

#[test]
fn mutated_restore_input_is_checked_without_panics_and_with_locations() {
    let cases = env_u64("SPLICENIC_IPVS_FUZZ_CASES").unwrap_or(SHORT_CASES);
    let seed = env_u64("SPLICENIC_IPVS_FUZZ_SEED").unwrap_or(1);
    let seeds = seeds();
    let mut f = Figures::default();
    for (i, s) in seeds.iter().enumerate() {
        one_case(s, i as u64, &mut f);
    }
    // The seeds are accepted.
    assert_eq!(f.accepted, seeds.len() as u64, "{f:#?}");

    let mut rng = Rng(seed);
    let mut progress = Progress::new("ipvs_restore_fuzz", "cases");
    for n in 0..cases {
        let input = mutate(&seeds, &mut rng);
        one_case(&input, n, &mut f);
        progress.tick(f.run.cases);
    }
    let secs = progress.secs();
    println!(
        "ipvs_restore_fuzz: seed {seed}, {} cases ({} accepted with {} commands, {} rejected, \
         {} of them at a limit or as not text), {:.1} MB in {secs:.1} s ({:.0} cases/s); \
         crashes {}, timeouts {}, errors without location {}, round-trip failures {}; \
         slowest case {:.1} ms ({} bytes)",
        f.run.cases,
        f.accepted,
        f.commands,
        f.rejected,
        f.limits,
        f.run.bytes as f64 / 1e6,
        f.run.cases as f64 / secs,
        f.run.crashes,
        f.run.timeouts,
        f.unlocated,
        f.round_trip_failures,
        f.run.slowest.0 * 1e3,
        f.run.slowest.1,
    );
    assert!(
        f.run.crashes + f.run.timeouts + f.unlocated + f.round_trip_failures == 0,
        "{f:#?}"
    );
    assert!(f.accepted > 0 && f.rejected > 0 && f.limits > 0, "{f:?}");
}
