//! Fuzz-style test of the command runner behind MISC_CHECK and `load_command`
//! ([`run_shell`]): real `/bin/sh` scripts put together by a seeded generator from pieces
//! that misbehave the ways a health-check script can (print binary or gigabytes, never
//! stop printing, hang, ignore signals, exit at once leaving processes behind, close or
//! hand on their output, leave their process group while holding the pipe, die by a
//! signal), run with and without captured output and short timeouts. The output the
//! runner kept is also fed to `load_command`'s parser.
//!
//! For every case: no panic; the run returns within its timeout plus [`OUTPUT_GRACE`]
//! plus a scheduling slack; at most [`MAX_OUTPUT`] bytes kept (none when not captured); no
//! process of the script's group alive afterwards. A pure part checks that the output kept
//! is the first [`MAX_OUTPUT`] bytes of the stream, on random chunkings.
//!
//! The generator is deterministic (a seeded SplitMix64, `splicenic-fuzzkit`). By default a short
//! run (400 scripts on 8 threads, 2 000 chunkings; a few seconds: most of the time is the
//! scripts' timeouts) is part of `cargo test`. The long form takes its case count and seed
//! from the environment and prints its figures:
//!
//! ```text
//! SPLICENIC_MISC_FUZZ_CASES=100000 [SPLICENIC_MISC_FUZZ_SEED=1] \
//!     cargo test --release -p nicctl --bin nicctl monitor::process::fuzz -- --nocapture
//! ```

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use splicenic_fuzzkit::{env_u64, Progress, Rng};

use super::*;
use crate::monitor::feedback::parse_load;

/// Scripts of the run inside `cargo test`.
const SHORT_CASES: u64 = 400;

/// Scripts run at once (most of them sleep, waiting for their timeout).
const THREADS: u64 = 8;

/// What a run may take beyond its timeout and the output grace: starting the shell,
/// killing the group, eight scripts (some burning CPU) on a loaded 2-core machine.
const SLACK: Duration = Duration::from_millis(250);

/// How long a killed group's processes may take to be gone.
const REAP_WAIT: Duration = Duration::from_secs(2);

/// One piece of a script. `N` is replaced by a size, `S` by a short sleep.
const PIECES: &[&str] = &[
    // Output: text, binary, control characters, a load, a lot of it.
    "echo 0.5",
    "echo 0.25 extra words",
    "printf 'busy'",
    "printf '\\377\\376\\000\\033[2J\\r\\n'",
    "head -c N /dev/zero",
    "head -c N /dev/urandom",
    "yes 0.75 | head -c N",
    "seq 1 N",
    // Output that never stops (until the timeout).
    "yes",
    "cat /dev/zero",
    // Hangs.
    "sleep S",
    "sleep 30",
    "read x; sleep S",
    // Signals.
    "trap '' TERM INT HUP; sleep 30",
    "kill -9 $$",
    "kill -TERM $$",
    // Leftovers in the group.
    "sleep 30 &",
    "(sleep 30; echo late) &",
    "for i in 1 2 3 4; do sleep 30 & done",
    "{ yes > /dev/null; } &",
    "(trap '' TERM; sleep 30) &",
    // Output closed or handed on.
    "exec >&-",
    "exec 1>/dev/null",
    "(sleep S; echo 0.1) &",
    // Leaving the group while holding the output (short, so they do not pile up).
    "setsid sleep 0.3 &",
    "setsid sh -c 'echo escaped; sleep 0.3' &",
    // Exits.
    "exit 0",
    "exit 1",
    "exit 7",
    "exit 255",
    "true",
    "false",
];

/// A script of one to four pieces, its timeout, and whether its output is captured.
fn script(rng: &mut Rng) -> (String, Duration, bool) {
    let mut s = String::new();
    for i in 0..1 + rng.below(4) {
        if i > 0 {
            s.push_str(["; ", " && ", "\n", " || "][rng.below(4)]);
        }
        let size = match rng.below(8) {
            0 => 10 << 20,
            1 | 2 => 70_000,
            _ => 1 + rng.below(4096),
        };
        let sleep = ["0.01", "0.05", "0.2", "1"][rng.below(4)];
        s.push_str(
            &PIECES[rng.below(PIECES.len())]
                .replace('N', &size.to_string())
                .replace('S', sleep),
        );
    }
    let timeout = Duration::from_millis([20, 50, 100, 300][rng.below(4)]);
    (s, timeout, !rng.chance(4))
}

/// Live (not zombie) processes whose process group is `pgid`.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut v = Vec::new();
    let Ok(dir) = fs::read_dir("/proc") else {
        return v;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // "pid (comm) state ppid pgrp ...": the fields after the last ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut f = rest.split_ascii_whitespace();
        let state = f.next().unwrap_or("");
        let pgrp = f.nth(1).and_then(|p| p.parse::<u32>().ok());
        if pgrp == Some(pgid) && state != "Z" && state != "X" {
            v.push(pid);
        }
    }
    v
}

#[derive(Default, Debug)]
struct Figures {
    scripts: u64,
    captured: u64,
    timed_out: u64,
    exited: u64,
    output_bytes: u64,
    truncated: u64,
    loads_parsed: u64,
    crashes: u64,
    too_slow: u64,
    bad_output: u64,
    survivors: u64,
    spawn_failures: u64,
    /// Most time past the timeout, and the script.
    worst_overrun: (Duration, String),
    chunkings: u64,
    chunking_failures: u64,
    failures: Vec<String>,
}

fn one_script(n: u64, seed: u64, dir: &Path, f: &Mutex<Figures>) {
    let mut rng = Rng(seed ^ n.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let (body, timeout, capture) = script(&mut rng);
    let pidfile = dir.join(format!("{n}.pgid"));
    let script = format!("echo $$ > {}\n{body}", pidfile.display());
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        run_shell(&script, &[], timeout, capture)
    }));
    let took = start.elapsed();
    let pgid = fs::read_to_string(&pidfile)
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok());
    let _ = fs::remove_file(&pidfile);
    // Killed processes take a moment to be gone.
    let mut survivors = Vec::new();
    if let Some(g) = pgid {
        let until = Instant::now() + REAP_WAIT;
        loop {
            survivors = group_members(g);
            if survivors.is_empty() || Instant::now() >= until {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
    let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
    f.scripts += 1;
    f.captured += u64::from(capture);
    let overrun = took.saturating_sub(timeout);
    if overrun > f.worst_overrun.0 {
        f.worst_overrun = (overrun, body.clone());
    }
    if overrun > OUTPUT_GRACE + SLACK {
        f.too_slow += 1;
        f.failures
            .push(format!("took {took:?} (timeout {timeout:?}): {body:?}"));
    }
    if !survivors.is_empty() {
        f.survivors += 1;
        f.failures.push(format!(
            "group members {survivors:?} alive after the run: {body:?}"
        ));
    }
    match outcome {
        Err(_) => {
            f.crashes += 1;
            f.failures.push(format!("panicked: {body:?}"));
        }
        Ok(Err(RunError::Timeout(_))) => f.timed_out += 1,
        Ok(Err(RunError::Spawn(e))) => {
            f.spawn_failures += 1;
            f.failures.push(format!("spawn failed: {e}: {body:?}"));
        }
        Ok(Err(RunError::Wait(e))) => {
            f.bad_output += 1;
            f.failures.push(format!("wait failed: {e}: {body:?}"));
        }
        Ok(Ok(done)) => {
            f.exited += 1;
            f.output_bytes += done.stdout.len() as u64;
            f.truncated += u64::from(done.stdout.len() == MAX_OUTPUT);
            if !capture && !done.stdout.is_empty() || done.stdout.len() > MAX_OUTPUT {
                f.bad_output += 1;
                f.failures.push(format!(
                    "{} bytes kept (capture {capture}): {body:?}",
                    done.stdout.len()
                ));
            }
            f.loads_parsed += u64::from(parse_load(&done.stdout).is_some());
        }
    }
}

/// The keeping of output: random chunks of a known stream keep exactly its first
/// [`MAX_OUTPUT`] bytes.
fn one_chunking(rng: &mut Rng) -> bool {
    let total = match rng.below(4) {
        0 => rng.below(64),
        1 => MAX_OUTPUT - 8 + rng.below(16),
        _ => rng.below(2 * MAX_OUTPUT),
    };
    let stream: Vec<u8> = (0..total).map(|i| (i * 7 + total) as u8).collect();
    let mut kept = Kept::default();
    let mut at = 0;
    while at < stream.len() {
        let n = match rng.below(3) {
            0 => 1,
            1 => 1 + rng.below(100),
            _ => 1 + rng.below(40_000),
        }
        .min(stream.len() - at);
        kept.keep(&stream[at..at + n]);
        at += n;
    }
    kept.bytes == stream[..total.min(MAX_OUTPUT)]
}

/// A directory of its own for the scripts' pid files; removed on drop.
struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn hostile_scripts_are_bounded_in_time_and_output_and_leave_no_group_behind() {
    let cases = env_u64("SPLICENIC_MISC_FUZZ_CASES").unwrap_or(SHORT_CASES);
    let seed = env_u64("SPLICENIC_MISC_FUZZ_SEED").unwrap_or(1);
    let dir = Dir(std::env::temp_dir().join(format!("nicctl-misc-fuzz-{}", std::process::id())));
    fs::create_dir_all(&dir.0).unwrap();
    let figures = Mutex::new(Figures::default());

    let mut rng = Rng(seed);
    let chunkings = cases * 5;
    for _ in 0..chunkings {
        let ok = one_chunking(&mut rng);
        let mut f = figures.lock().unwrap();
        f.chunkings += 1;
        f.chunking_failures += u64::from(!ok);
    }

    let next = AtomicU64::new(0);
    let progress = Mutex::new(Progress::new("misc_fuzz", "scripts"));
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= cases {
                    return;
                }
                one_script(n, seed, &dir.0, &figures);
                progress.lock().unwrap().tick(n);
            });
        }
    });
    let secs = progress.into_inner().unwrap().secs();
    let f = figures.into_inner().unwrap();
    println!(
        "misc_fuzz: seed {seed}, {} scripts ({} with output captured) in {secs:.1} s ({:.0} \
         scripts/s, {THREADS} at once): {} timed out, {} exited ({:.1} MB kept, {} at the \
         {MAX_OUTPUT}-byte limit, {} parsed as a load); crashes {}, over time {}, bad output \
         {}, group members left alive {}, spawn failures {}; most time past the timeout \
         {:.1} ms ({:?}); {} chunkings, {} wrong",
        f.scripts,
        f.captured,
        f.scripts as f64 / secs,
        f.timed_out,
        f.exited,
        f.output_bytes as f64 / 1e6,
        f.truncated,
        f.loads_parsed,
        f.crashes,
        f.too_slow,
        f.bad_output,
        f.survivors,
        f.spawn_failures,
        f.worst_overrun.0.as_secs_f64() * 1e3,
        f.worst_overrun.1,
        f.chunkings,
        f.chunking_failures,
    );
    assert!(
        f.crashes
            + f.too_slow
            + f.bad_output
            + f.survivors
            + f.spawn_failures
            + f.chunking_failures
            == 0,
        "{f:#?}"
    );
    assert!(f.timed_out > 0 && f.exited > 0 && f.truncated > 0, "{f:?}");
}
