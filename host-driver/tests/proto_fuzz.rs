//! Fuzz-style test of the simulated card's socket protocol as the host reads it
//! (`splicenic_driver::proto`): mutated byte streams of real frames (every request and
//! reply kind as `Request::encode` / `Reply::encode` write them, framed as `write_frame`
//! frames them) read with `recv_frame` from a reader that hands the bytes over in random
//! pieces, and each frame body decoded as a request (`Request::decode`, what the server
//! does) and as the reply to each of a set of requests (`Reply::decode_for`, what
//! `SocketBar` does).
//!
//! For every case: no panic, no case slower than 10 s, every error a `ProtoError` with a
//! short message (no transport error: the reader never fails), and no allocation larger
//! than a small multiple of the bytes the stream actually holds (a length prefix or count
//! announcing more than was sent must not be allocated; a counting global allocator
//! measures this). For every decoded message: it fits what it answers (a READ reply has
//! exactly `count` words, a RECV_FRAMES reply at most `max` frames, an error text no
//! control character) and encodes back to the same bytes.
//!
//! The mutator is deterministic (a seeded SplitMix64, `splicenic-fuzzkit`). By default a short
//! run (5 000 cases) is part of `cargo test`. The long form takes its case count and seed
//! from the environment and prints its figures:
//!
//! ```text
//! SPLICENIC_PROTO_FUZZ_CASES=1000000 [SPLICENIC_PROTO_FUZZ_SEED=1] \
//!     cargo test --release -p splicenic-driver --test proto_fuzz -- --nocapture
//! ```
//!
//! An input that fails is written to the temporary directory (`splicenic-proto-fuzz-*.bin`)
//! and named in the failure message.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use splicenic_driver::proto::{
    recv_frame, FrameError, Reply, Request, MAX_ERROR_TEXT, MAX_FRAME, MAX_READ_WORDS,
};
use splicenic_fuzzkit::{self as fuzz, env_u64, Harness, Progress, Repeats, Rng, Tally};

/// Cases of the run inside `cargo test` (a few seconds in a debug build).
const SHORT_CASES: u64 = 5_000;

/// Where failing inputs go; a case slower than 10 s is counted as a timeout.
const HARNESS: Harness = Harness::new("splicenic-proto-fuzz", "bin", Duration::from_secs(10));

/// The largest allocation a case may make: this many times the bytes of its stream, plus
/// [`ALLOC_SLACK`]. A RECV_FRAMES reply of empty frames is the worst honest case (a 24-byte
/// `Vec` per 4 bytes of length prefix, in a list that grows by doubling).
const ALLOC_FACTOR: usize = 16;
const ALLOC_SLACK: usize = 16 * 1024;

/// The frames of a stream that are decoded (all are read).
const MAX_DECODED: usize = 32;

/// Counts the largest single allocation while `TRACK` is set.
struct Counting;

static TRACK: AtomicBool = AtomicBool::new(false);
static LARGEST: AtomicUsize = AtomicUsize::new(0);

fn note(size: usize) {
    if TRACK.load(Ordering::Relaxed) {
        LARGEST.fetch_max(size, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// allocator's contract is `System`'s; the counting touches only atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: the caller's guarantees for `alloc` are passed on as they are.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation goes
        // through this allocator, which forwards to `System`).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: as for `dealloc`; `new_size` is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A frame as `write_frame` writes it.
fn framed(body: &[u8]) -> Vec<u8> {
    let mut v = (body.len() as u32).to_le_bytes().to_vec();
    v.extend_from_slice(body);
    v
}

/// The requests each body is decoded as the reply to.
fn requests() -> Vec<Request> {
    let mut v: Vec<Request> = [0, 1, 2, 3, 64, 255, MAX_READ_WORDS]
        .into_iter()
        .map(|count| Request::Read { offset: 0, count })
        .collect();
    v.extend([0, 1, 2, 8, 256, u32::MAX].map(|max| Request::RecvFrames { port: 0, max }));
    v.extend([
        Request::Write {
            offset: 0,
            data: vec![1],
        },
        Request::Info,
        Request::Shutdown,
        Request::SendFrame {
            port: 1,
            data: vec![0xaa; 60],
        },
    ]);
    v
}

/// Seed streams: every request and reply kind, alone and in sequences.
fn seeds() -> Vec<Vec<u8>> {
    let reqs = [
        Request::Read {
            offset: 0x40,
            count: 3,
        },
        Request::Read {
            offset: 0,
            count: MAX_READ_WORDS,
        },
        Request::Write {
            offset: 0x1000,
            data: vec![1, 2, 0xffff_ffff],
        },
        Request::Write {
            offset: 0x2_0000,
            data: (0..1024).collect(),
        },
        Request::Info,
        Request::Shutdown,
        Request::SendFrame {
            port: 1,
            data: (0..1514u32).map(|i| i as u8).collect(),
        },
        Request::SendFrame {
            port: 0,
            data: vec![0xaa; 60],
        },
        Request::RecvFrames { port: 0, max: 8 },
        Request::RecvFrames { port: 1, max: 256 },
    ];
    let replies = [
        Reply::Words(vec![7, 8, 9]),
        Reply::Words((0..2048).collect()),
        Reply::Done,
        Reply::Info {
            bar_size: 1 << 20,
            cycles: 123_456_789,
            clk_hz: splicenic_layout::CLK_HZ.into(),
        },
        Reply::Frames(vec![vec![1, 2, 3], vec![], vec![9; 60]]),
        Reply::Frames((0..8).map(|i| vec![i as u8; 64 + 100 * i]).collect()),
        Reply::Error(
            "BAR access at offset 0x100000 (+4 bytes) is outside the 0x100000-byte BAR".into(),
        ),
        Reply::Error("port 7 does not exist (0 client side, 1 server side)".into()),
    ];
    let mut v: Vec<Vec<u8>> = reqs.iter().map(|r| framed(&r.encode())).collect();
    v.extend(replies.iter().map(|r| framed(&r.encode())));
    // Bodies without their frame (a frame's content mutated in place).
    v.extend(replies.iter().map(|r| r.encode()));
    let all: Vec<u8> = reqs
        .iter()
        .map(|r| framed(&r.encode()))
        .chain(replies.iter().map(|r| framed(&r.encode())))
        .flatten()
        .collect();
    v.push(all);
    v
}

/// Values the mutator writes into length prefixes and counts.
fn interesting(rng: &mut Rng, near: usize) -> u32 {
    let v = [
        0u64,
        1,
        3,
        4,
        5,
        255,
        256,
        4096,
        MAX_ERROR_TEXT as u64 + 1,
        u64::from(MAX_READ_WORDS),
        u64::from(MAX_READ_WORDS) + 1,
        MAX_FRAME as u64 - 1,
        MAX_FRAME as u64,
        MAX_FRAME as u64 + 1,
        1 << 30,
        u64::from(u32::MAX),
        near as u64,
        near.saturating_sub(1) as u64,
        near as u64 + 1,
    ];
    v[rng.below(v.len())] as u32
}

fn mutate(seeds: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    fuzz::mutant(rng, seeds, 6, 10, |rng, b, kind, at| match kind {
        0 => fuzz::set_random_byte(rng, b, at),
        1 => {
            // A length prefix or count: at a frame start, or anywhere.
            let i = if rng.chance(2) { 0 } else { at.min(b.len()) };
            let near = b.len().saturating_sub(i + 4);
            let v = interesting(rng, near).to_le_bytes();
            for (k, byte) in v.iter().enumerate() {
                if i + k < b.len() {
                    b[i + k] = *byte;
                } else {
                    b.push(*byte);
                }
            }
        }
        2 => {
            let n = 1 + rng.below(16);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            b.splice(at..at, bytes);
        }
        3 => fuzz::delete(rng, b, at, 64),
        4 => b.truncate(at),
        5 => fuzz::copy_piece_or_seed(rng, b, at, seeds, 4096),
        6 => {
            // An opcode or status byte.
            let i = if rng.chance(2) { 4.min(b.len()) } else { at };
            let v = rng.pick(&[0u8, 1, 2, 3, 4, 5, 6, 7, 0xff]);
            if i < b.len() {
                b[i] = v;
            } else {
                b.push(v);
            }
        }
        7 => {
            // Many tiny RECV_FRAMES entries, or a long run of one byte (a big body).
            let n = Repeats {
                short_most: 2048,
                long_one_in: 1000,
                long_min: 1000,
                long_span: MAX_FRAME + 4096,
            }
            .draw(rng);
            let run: Vec<u8> = if rng.chance(2) {
                [0u8, 0, 0, 0].repeat(n / 4 + 1)
            } else {
                vec![rng.next() as u8; n]
            };
            b.splice(at..at, run);
        }
        8 => {
            // Control characters and invalid UTF-8 (error texts).
            let bytes: &[u8] =
                rng.pick(&[&b"\x1b[2J"[..], b"\n", b"\0", b"\xff\xfe", b"\xe2\x80\xae"]);
            b.splice(at..at, bytes.iter().copied());
        }
        _ => {
            // Re-frame: fix the first length prefix to the bytes that follow it, so that the
            // mutated body is read and decoded.
            if b.len() >= 4 {
                let n = ((b.len() - 4) as u32).to_le_bytes();
                b[..4].copy_from_slice(&n);
            }
        }
    })
}

/// A reader handing the stream over in pieces of random size, with an occasional
/// `Interrupted` (which the reader must retry).
struct Chunky<'a> {
    data: &'a [u8],
    pos: usize,
    rng: Rng,
}

impl Read for Chunky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.rng.chance(50) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let left = self.data.len() - self.pos;
        let n = match self.rng.below(4) {
            0 => 1,
            1 => 1 + self.rng.below(16),
            2 => 1 + self.rng.below(4096),
            _ => usize::MAX,
        }
        .min(left)
        .min(buf.len());
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[derive(Default, Debug)]
struct Figures {
    /// Cases, bytes, crashes, timeouts, the slowest case, the failures.
    run: Tally,
    frames: u64,
    frame_errors: u64,
    requests_ok: u64,
    requests_err: u64,
    replies_ok: u64,
    replies_err: u64,
    bad_errors: u64,
    misfits: u64,
    /// Largest allocation over the stream's size, and the case's size.
    worst_alloc: (f64, usize, usize),
}

/// What is wrong with a protocol error's message, if anything.
fn bad_error(e: &dyn std::fmt::Display) -> Option<String> {
    let m = e.to_string();
    if m.is_empty() || m.len() > 200 || m.chars().any(char::is_control) {
        Some(format!("error message not a short line: {m:?}"))
    } else {
        None
    }
}

/// Checks one decoded reply against its request; `Err` says what does not fit.
fn check_reply(req: &Request, body: &[u8], reply: &Reply) -> Result<(), String> {
    match (req, reply) {
        (Request::Read { count, .. }, Reply::Words(w)) if w.len() != *count as usize => {
            return Err(format!("{} words for a READ of {count}", w.len()))
        }
        (Request::RecvFrames { max, .. }, Reply::Frames(f)) if f.len() as u64 > u64::from(*max) => {
            return Err(format!("{} frames for a RECV_FRAMES of {max}", f.len()))
        }
        (_, Reply::Error(text)) => {
            if text.chars().any(char::is_control) {
                return Err(format!("control character in error text {text:?}"));
            }
            // Escaping may make the text longer than fits again; what fits reads the same.
            let again = Reply::decode_for(req, &reply.encode())
                .map_err(|e| format!("re-encoded error reply refused: {e}"))?;
            match again {
                Reply::Error(t) if text.starts_with(t.as_str()) => {}
                other => return Err(format!("re-encoded error reply reads as {other:?}")),
            }
            return Ok(());
        }
        _ => {}
    }
    if reply.encode() != body {
        return Err("reply does not encode back to its bytes".into());
    }
    Ok(())
}

fn one_case(input: &[u8], n: u64, reqs: &[Request], f: &mut Figures) {
    LARGEST.store(0, Ordering::Relaxed);
    TRACK.store(true, Ordering::Relaxed);
    let (outcome, took) = fuzz::timed(|| -> Result<[u64; 7], String> {
        // [frames, frame errors, requests ok, requests err, replies ok, replies err, 0]
        let mut c = [0u64; 7];
        let mut reader = Chunky {
            data: input,
            pos: 0,
            rng: Rng(n),
        };
        let mut bodies = Vec::new();
        loop {
            match recv_frame(&mut reader) {
                Ok(Some(body)) => {
                    c[0] += 1;
                    bodies.push(body);
                }
                Ok(None) => break,
                Err(FrameError::Io(e)) => return Err(format!("transport error: {e}")),
                Err(FrameError::Proto(e)) => {
                    c[1] += 1;
                    if let Some(why) = bad_error(&e) {
                        return Err(why);
                    }
                    // A stream is not usable after a broken frame.
                    break;
                }
            }
        }
        // The raw input is also decoded as one body (mutations of a body in place). Past
        // the first few frames of a stream, more of them decoded add time, not cases.
        bodies.truncate(MAX_DECODED);
        bodies.push(input.to_vec());
        for body in &bodies {
            match Request::decode(body) {
                Ok(req) => {
                    c[2] += 1;
                    if req.encode() != *body {
                        return Err(format!("request {req:?} does not encode back"));
                    }
                }
                Err(e) => {
                    c[3] += 1;
                    if let Some(why) = bad_error(&e) {
                        return Err(why);
                    }
                }
            }
            for req in reqs {
                match Reply::decode_for(req, body) {
                    Ok(reply) => {
                        c[4] += 1;
                        check_reply(req, body, &reply)
                            .map_err(|why| format!("reply to {}: {why}", req.name()))?;
                    }
                    Err(e) => {
                        c[5] += 1;
                        if let Some(why) = bad_error(&e) {
                            return Err(why);
                        }
                    }
                }
            }
        }
        Ok(c)
    });
    TRACK.store(false, Ordering::Relaxed);
    let largest = LARGEST.load(Ordering::Relaxed);
    HARNESS.record(&mut f.run, input, n, took);
    let ratio = largest as f64 / input.len().max(1) as f64;
    if largest > ALLOC_SLACK && ratio > f.worst_alloc.0 {
        f.worst_alloc = (ratio, largest, input.len());
    }
    if largest > ALLOC_FACTOR * input.len() + ALLOC_SLACK {
        f.misfits += 1;
        HARNESS.save(
            &mut f.run,
            input,
            n,
            &format!(
                "allocated {largest} bytes for a {}-byte stream",
                input.len()
            ),
        );
    }
    match outcome {
        Err(_) => HARNESS.panicked(&mut f.run, input, n),
        Ok(Err(why)) => {
            if why.starts_with("error message") || why.starts_with("transport") {
                f.bad_errors += 1;
            } else {
                f.misfits += 1;
            }
            HARNESS.save(&mut f.run, input, n, &why);
        }
        Ok(Ok(c)) => {
            f.frames += c[0];
            f.frame_errors += c[1];
            f.requests_ok += c[2];
            f.requests_err += c[3];
            f.replies_ok += c[4];
            f.replies_err += c[5];
        }
    }
}

#[test]
fn mutated_frames_decode_to_typed_errors_without_panics_or_large_allocations() {
    let cases = env_u64("SPLICENIC_PROTO_FUZZ_CASES").unwrap_or(SHORT_CASES);
    let seed = env_u64("SPLICENIC_PROTO_FUZZ_SEED").unwrap_or(1);
    let seeds = seeds();
    let reqs = requests();
    let mut f = Figures::default();
    for (i, s) in seeds.iter().enumerate() {
        one_case(s, i as u64, &reqs, &mut f);
    }
    assert_eq!(f.run.crashes + f.bad_errors + f.misfits, 0, "{f:#?}");
    assert!(f.requests_ok > 0 && f.replies_ok > 0, "{f:?}");

    let mut rng = Rng(seed);
    let mut progress = Progress::new("proto_fuzz", "cases");
    for n in 0..cases {
        let input = mutate(&seeds, &mut rng);
        one_case(&input, n, &reqs, &mut f);
        progress.tick(f.run.cases);
    }
    let secs = progress.secs();
    println!(
        "proto_fuzz: seed {seed}, {} cases, {:.1} MB in {secs:.1} s ({:.0} cases/s); {} frames \
         read, {} frame errors; requests {} decoded / {} refused; replies {} decoded / {} \
         refused; crashes {}, timeouts {}, errors not a typed short message {}, misfits \
         (shape, round trip, allocation) {}; largest allocation over 16 KiB {:.2} x the stream \
         ({} bytes for {}); slowest case {:.1} ms ({} bytes)",
        f.run.cases,
        f.run.bytes as f64 / 1e6,
        f.run.cases as f64 / secs,
        f.frames,
        f.frame_errors,
        f.requests_ok,
        f.requests_err,
        f.replies_ok,
        f.replies_err,
        f.run.crashes,
        f.run.timeouts,
        f.bad_errors,
        f.misfits,
        f.worst_alloc.0,
        f.worst_alloc.1,
        f.worst_alloc.2,
        f.run.slowest.0 * 1e3,
        f.run.slowest.1,
    );
    assert!(
        f.run.crashes + f.run.timeouts + f.bad_errors + f.misfits == 0,
        "{f:#?}"
    );
    assert!(
        f.frame_errors > 0 && f.replies_err > 0 && f.requests_err > 0,
        "{f:?}"
    );
}
