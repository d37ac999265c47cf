//! The harness shared by SpliceNIC's deterministic fuzz-style tests (the configuration,
//! protocol, rig file, `ipvsadm -R` and MISC_CHECK fuzz tests and the canonicaliser's head
//! generator). What each test checks, its seeds, words and figures stay in the test; this
//! crate holds what they all do the same way:
//!
//! * [`Rng`]: a seeded SplitMix64 (no dependency, the same stream on every platform);
//! * byte mutators: [`mutant`] and [`edits`] (the loop of random edits), the edits the
//!   tests have in common ([`set_random_byte`], [`set_byte_from`], [`insert_word`],
//!   [`delete`], [`copy_piece`], [`copy_piece_or_seed`], [`insert_run`],
//!   [`replace_number`], [`swap_lines`]) and the first seven edits of the text formats'
//!   mutators together ([`TextEdits`]), each drawing from the generator in a fixed order
//!   so that a seed gives the same inputs as before the code was shared;
//! * case accounting: [`Harness::case`] runs one case timed and with panics caught,
//!   counting it in a [`Tally`] (cases, bytes, slowest, timeouts) and writing an input
//!   that fails to the temporary directory ([`Harness::save`]);
//! * [`Progress`]: a progress line every minute of a long run; [`env_u64`]: the case
//!   count and seed of the long form.

#![warn(missing_docs)]

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// SplitMix64: a seeded, deterministic generator of 64-bit values.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next value.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True one time in `one_in` (> 0).
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    /// True with probability `pct` percent (`self.below(100) < pct`).
    pub fn percent(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }

    /// One of `items` (not empty): `items[self.below(items.len())]`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// One to `most` random edits of `b`: for each, a place `at` in `0..=b.len()`, then a kind
/// in `0..kinds`, handed to `edit(rng, b, kind, at)`.
pub fn edits(
    rng: &mut Rng,
    b: &mut Vec<u8>,
    most: usize,
    kinds: usize,
    mut edit: impl FnMut(&mut Rng, &mut Vec<u8>, usize, usize),
) {
    for _ in 0..1 + rng.below(most) {
        let at = rng.below(b.len() + 1);
        let kind = rng.below(kinds);
        edit(rng, b, kind, at);
    }
}

/// A copy of one of `seeds` (not empty) with one to `most` random edits ([`edits`]).
pub fn mutant(
    rng: &mut Rng,
    seeds: &[Vec<u8>],
    most: usize,
    kinds: usize,
    edit: impl FnMut(&mut Rng, &mut Vec<u8>, usize, usize),
) -> Vec<u8> {
    let mut b = seeds[rng.below(seeds.len())].clone();
    edits(rng, &mut b, most, kinds, edit);
    b
}

/// The byte at `at` (the last one if `at` is the end) replaced by a random byte; nothing
/// in an empty input.
pub fn set_random_byte(rng: &mut Rng, b: &mut [u8], at: usize) {
    if !b.is_empty() {
        let i = at.min(b.len() - 1);
        b[i] = rng.next() as u8;
    }
}

/// The byte at `at` (the last one if `at` is the end) replaced by one of `bytes`; nothing
/// in an empty input.
pub fn set_byte_from(rng: &mut Rng, b: &mut [u8], at: usize, bytes: &[u8]) {
    if !b.is_empty() {
        let i = at.min(b.len() - 1);
        b[i] = rng.pick(bytes);
    }
}

/// Whether [`insert_word`] puts a space after the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Always.
    After,
    /// One time in two (drawn after the word).
    Sometimes,
    /// Never: the word alone.
    Never,
}

/// One of `words` inserted at `at`.
pub fn insert_word(rng: &mut Rng, b: &mut Vec<u8>, at: usize, words: &[&str], space: Space) {
    let w = rng.pick(words);
    let spaced = match space {
        Space::After => true,
        Space::Sometimes => rng.chance(2),
        Space::Never => false,
    };
    b.splice(at..at, w.bytes());
    if spaced {
        b.insert(at + w.len(), b' ');
    }
}

/// 1 to `most` bytes from `at` removed (fewer at the end; none at the end).
pub fn delete(rng: &mut Rng, b: &mut Vec<u8>, at: usize, most: usize) {
    let end = (at + 1 + rng.below(most)).min(b.len());
    b.drain(at..end);
}

/// A piece of `src`: a random start, 1 to `most` bytes (fewer at the end); none of an empty
/// `src` (then nothing is drawn).
fn piece(rng: &mut Rng, src: &[u8], most: usize) -> Option<Vec<u8>> {
    if src.is_empty() {
        return None;
    }
    let from = rng.below(src.len());
    let to = (from + 1 + rng.below(most)).min(src.len());
    Some(src[from..to].to_vec())
}

/// A piece of `b` itself (1 to `most` bytes) copied to `at`; nothing in an empty input.
pub fn copy_piece(rng: &mut Rng, b: &mut Vec<u8>, at: usize, most: usize) {
    if let Some(p) = piece(rng, b, most) {
        b.splice(at..at, p);
    }
}

/// A piece (1 to `most` bytes) of `b` itself or, one time in two, of one of `seeds`, copied
/// to `at`. The seed is drawn first, whichever is copied.
pub fn copy_piece_or_seed(
    rng: &mut Rng,
    b: &mut Vec<u8>,
    at: usize,
    seeds: &[Vec<u8>],
    most: usize,
) {
    let other = &seeds[rng.below(seeds.len())];
    let p = if rng.chance(2) {
        piece(rng, b, most)
    } else {
        piece(rng, other, most)
    };
    if let Some(p) = p {
        b.splice(at..at, p);
    }
}

/// How many times [`insert_run`] repeats its run: usually 1 to `short_most`, one time in
/// `long_one_in` `long_min` to `long_min + long_span - 1` (past a size limit).
#[derive(Clone, Copy, Debug)]
pub struct Repeats {
    /// The most repeats of a short run.
    pub short_most: usize,
    /// A long run comes one time in this many.
    pub long_one_in: usize,
    /// The fewest repeats of a long run.
    pub long_min: usize,
    /// How many counts a long run's repeats spread over.
    pub long_span: usize,
}

impl Repeats {
    /// A count drawn as described on [`Repeats`].
    pub fn draw(&self, rng: &mut Rng) -> usize {
        if rng.chance(self.long_one_in) {
            self.long_min + rng.below(self.long_span)
        } else {
            1 + rng.below(self.short_most)
        }
    }
}

/// One of `runs`, repeated (as many times as `repeats(run)` draws), inserted at `at`: deep
/// nesting, long lines, many tokens, big inputs.
pub fn insert_run(
    rng: &mut Rng,
    b: &mut Vec<u8>,
    at: usize,
    runs: &[&str],
    repeats: impl FnOnce(&str) -> Repeats,
) {
    let run = rng.pick(runs);
    let n = repeats(run).draw(rng);
    b.splice(at..at, run.repeat(n).into_bytes());
}

/// The first number (run of ASCII digits) from `at` replaced by one of `numbers`; nothing
/// (and nothing drawn) if there is none.
pub fn replace_number(rng: &mut Rng, b: &mut Vec<u8>, at: usize, numbers: &[&str]) {
    if let Some(i) = (at..b.len()).find(|&i| b[i].is_ascii_digit()) {
        let end = (i..b.len())
            .find(|&j| !b[j].is_ascii_digit())
            .unwrap_or(b.len());
        let n = rng.pick(numbers);
        b.splice(i..end, n.bytes());
    }
}

/// Two lines swapped (maybe a line with itself); nothing (and nothing drawn) with fewer
/// than three lines.
pub fn swap_lines(rng: &mut Rng, b: &mut Vec<u8>) {
    let lines: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
    if lines.len() > 2 {
        let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
        let mut l: Vec<Vec<u8>> = lines.iter().map(|x| x.to_vec()).collect();
        l.swap(i, j);
        *b = l.join(&b'\n');
    }
}

/// The edits that the mutators of the text formats (configuration files, rig files,
/// `ipvsadm -R` input) number 0 to 6, with each format's words, bytes, runs and sizes; a
/// mutator numbers its own edits from [`TextEdits::KINDS`] on.
#[derive(Clone, Copy, Debug)]
pub struct TextEdits {
    /// The bytes of edit 1 ([`set_byte_from`]).
    pub bytes: &'static [u8],
    /// The words of edit 2 ([`insert_word`]).
    pub words: &'static [&'static str],
    /// The space after a word of edit 2.
    pub space: Space,
    /// The most bytes edit 3 removes ([`delete`]).
    pub delete_most: usize,
    /// The most bytes edit 4 copies ([`copy_piece_or_seed`]).
    pub copy_most: usize,
    /// The runs of edit 5 ([`insert_run`]).
    pub runs: &'static [&'static str],
    /// How many times edit 5 repeats a run.
    pub repeats: fn(&str) -> Repeats,
}

impl TextEdits {
    /// How many edits [`TextEdits::edit`] does.
    pub const KINDS: usize = 7;

    /// Edit `kind` (below [`TextEdits::KINDS`]) of `b` at `at`: 0 a random byte, 1 one of
    /// the bytes, 2 a word inserted, 3 bytes removed, 4 a piece of `b` or of one of `seeds`
    /// copied, 5 a run inserted, 6 the input cut at `at`.
    pub fn edit(&self, rng: &mut Rng, b: &mut Vec<u8>, kind: usize, at: usize, seeds: &[Vec<u8>]) {
        match kind {
            0 => set_random_byte(rng, b, at),
            1 => set_byte_from(rng, b, at, self.bytes),
            2 => insert_word(rng, b, at, self.words, self.space),
            3 => delete(rng, b, at, self.delete_most),
            4 => copy_piece_or_seed(rng, b, at, seeds, self.copy_most),
            5 => insert_run(rng, b, at, self.runs, self.repeats),
            6 => b.truncate(at),
            k => panic!("edit {k} is not one of the {} shared ones", Self::KINDS),
        }
    }
}

/// What every case of a run adds to; a test's own figures hold one.
#[derive(Default, Debug)]
pub struct Tally {
    /// Cases run.
    pub cases: u64,
    /// Their input bytes.
    pub bytes: u64,
    /// Cases that panicked.
    pub crashes: u64,
    /// Cases slower than [`Harness::timeout`].
    pub timeouts: u64,
    /// The slowest case: seconds, its size.
    pub slowest: (f64, usize),
    /// Where failing inputs were saved, with why.
    pub failures: Vec<String>,
}

/// A case run by [`Harness::case`].
pub struct Case<T> {
    /// What the case returned, or the payload of its panic.
    pub outcome: Result<T, Box<dyn Any + Send>>,
    /// How long it took.
    pub took: Duration,
    /// Whether it is the slowest case so far.
    pub slowest: bool,
}

/// Runs `body` with its panic caught; how long it took.
pub fn timed<T>(body: impl FnOnce() -> T) -> (Result<T, Box<dyn Any + Send>>, Duration) {
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(body));
    (outcome, start.elapsed())
}

/// How a test's cases are counted and where its failing inputs go.
#[derive(Clone, Copy, Debug)]
pub struct Harness {
    /// The start of a failing input's file name in the temporary directory
    /// (`<prefix>-<pid>-<case>.<ext>`).
    pub prefix: &'static str,
    /// The extension of a failing input's file.
    pub ext: &'static str,
    /// A case slower than this is counted as a timeout (and its input saved).
    pub timeout: Duration,
}

impl Harness {
    /// Failing inputs saved as `<prefix>-<pid>-<case>.<ext>`; a case slower than `timeout`
    /// counted as a timeout.
    pub const fn new(prefix: &'static str, ext: &'static str, timeout: Duration) -> Self {
        Harness {
            prefix,
            ext,
            timeout,
        }
    }

    /// Case `n` run on `input` ([`timed`]) and counted ([`Harness::record`]). A panic is
    /// not counted here: the caller does, in its place among its own checks
    /// ([`Harness::panicked`]).
    pub fn case<T>(
        &self,
        t: &mut Tally,
        input: &[u8],
        n: u64,
        body: impl FnOnce() -> T,
    ) -> Case<T> {
        let (outcome, took) = timed(body);
        let slowest = self.record(t, input, n, took);
        Case {
            outcome,
            took,
            slowest,
        }
    }

    /// Case `n` on `input`, which took `took`, counted: its size, whether it is the slowest
    /// (returned), whether it took longer than the timeout (then its input is saved).
    pub fn record(&self, t: &mut Tally, input: &[u8], n: u64, took: Duration) -> bool {
        t.cases += 1;
        t.bytes += input.len() as u64;
        let secs = took.as_secs_f64();
        let slowest = secs > t.slowest.0;
        if slowest {
            t.slowest = (secs, input.len());
        }
        if took > self.timeout {
            t.timeouts += 1;
            self.save(t, input, n, &format!("took {took:?}"));
        }
        slowest
    }

    /// Case `n` on `input` panicked: counted, its input saved.
    pub fn panicked(&self, t: &mut Tally, input: &[u8], n: u64) {
        t.crashes += 1;
        self.save(t, input, n, "panicked");
    }

    /// The input of case `n` written to the temporary directory, its path and `why` added
    /// to the failures.
    pub fn save(&self, t: &mut Tally, input: &[u8], n: u64, why: &str) {
        let path = std::env::temp_dir().join(format!(
            "{}-{}-{n}.{}",
            self.prefix,
            std::process::id(),
            self.ext
        ));
        let _ = std::fs::write(&path, input);
        t.failures.push(format!("{}: {why}", path.display()));
    }
}

/// A progress line on stderr at most once a minute: `<label>: <done> <unit>, <rate>
/// <unit>/s`.
#[derive(Debug)]
pub struct Progress {
    label: String,
    unit: &'static str,
    start: Instant,
    last: Instant,
}

impl Progress {
    /// Starts the clock.
    pub fn new(label: impl Into<String>, unit: &'static str) -> Self {
        let start = Instant::now();
        Progress {
            label: label.into(),
            unit,
            start,
            last: start,
        }
    }

    /// `done` so far: the line, if a minute has passed since the last one.
    pub fn tick(&mut self, done: u64) {
        if self.last.elapsed() > Duration::from_secs(60) {
            self.last = Instant::now();
            eprintln!(
                "{}: {done} {unit}, {:.0} {unit}/s",
                self.label,
                done as f64 / self.start.elapsed().as_secs_f64(),
                unit = self.unit,
            );
        }
    }

    /// Seconds since the start.
    pub fn secs(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// A number from the environment (decimal or `0x` hexadecimal, `_` allowed between digits),
/// if set; panics naming the variable if it is not one.
pub fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        let t = v.trim().replace('_', "");
        match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => t.parse(),
        }
        .unwrap_or_else(|_| panic!("{name}={v}: not a number"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_numbers_in_decimal_and_hex() {
        // A variable no other test uses (the environment is shared by the test threads).
        let var = "SPLICENIC_FUZZKIT_ENV_U64_TEST";
        assert_eq!(env_u64(var), None);
        for (text, want) in [
            ("1_000", 1000),
            ("0x0b7d_ec0d", 0x0b7d_ec0d),
            (" 0XFF ", 255),
        ] {
            std::env::set_var(var, text);
            assert_eq!(env_u64(var), Some(want), "{text}");
        }
        std::env::set_var(var, "0xzz");
        let e = catch_unwind(|| env_u64(var)).unwrap_err();
        std::env::remove_var(var);
        let text = e
            .downcast_ref::<String>()
            .expect("a formatted panic message");
        assert_eq!(*text, format!("{var}=0xzz: not a number"));
    }

    #[test]
    fn splitmix64_stream() {
        // The first outputs of SplitMix64 seeded with 0 (the reference implementation).
        let mut r = Rng(0);
        assert_eq!(r.next(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn edits_keep_to_the_input() {
        let mut rng = Rng(1);
        let seeds = vec![b"a 1\nb 22\nc\n".to_vec(), Vec::new()];
        let text = TextEdits {
            bytes: b"{}",
            words: &["w"],
            space: Space::After,
            delete_most: 4,
            copy_most: 4,
            runs: &["r"],
            repeats: |_| Repeats {
                short_most: 2,
                long_one_in: 9,
                long_min: 10,
                long_span: 5,
            },
        };
        for _ in 0..1000 {
            let b = mutant(&mut rng, &seeds, 6, 16, |rng, b, kind, at| match kind {
                0 => set_random_byte(rng, b, at),
                1 => set_byte_from(rng, b, at, b"{}"),
                2 => insert_word(rng, b, at, &["x", "yy"], Space::Sometimes),
                3 => delete(rng, b, at, 8),
                4 => copy_piece(rng, b, at, 8),
                5 => copy_piece_or_seed(rng, b, at, &seeds, 8),
                6 => insert_run(rng, b, at, &["ab"], |_| Repeats {
                    short_most: 4,
                    long_one_in: 50,
                    long_min: 100,
                    long_span: 10,
                }),
                7 => replace_number(rng, b, at, &["0", "65536"]),
                8 => swap_lines(rng, b),
                k => text.edit(rng, b, k - 9, at, &seeds),
            });
            assert!(b.len() < 4096);
        }
    }
}
