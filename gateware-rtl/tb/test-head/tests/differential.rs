//! head_buf against its reference model (`splicenic_tb_head::model::HeadModel`): buffers
//! taken and given back in random order (also refused frees of buffers not in use, and
//! takes while all are in use), request heads of random bytes appended to several buffers
//! at once in random segments (in order, retransmitted in part or whole, past a hole, past
//! the end of the buffer, empty, to a buffer not in use) with random gaps between beats,
//! and random replays with random back-pressure. Every segment's result (stored length,
//! bytes added, hole, cut, bad), every replay's length, ones'-complement sum and bytes, and
//! the buffers in use and their high-water mark must be the model's.
//!
//! `HEAD_TB_SEED`, `HEAD_TB_SEGMENTS` (default 1,000,000).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_tb_head::model::{ones_sum, HeadModel};
use splicenic_tb_head::{HeadBuf, BUFFERS, BUFFER_BYTES};

const DEFAULT_SEED: u64 = 0x4ead_b0f0;
const DEFAULT_SEGMENTS: u64 = 1_000_000;

#[derive(Default, Debug)]
struct Tally {
    segments: u64,
    bytes: u64,
    holes: u64,
    cuts: u64,
    bads: u64,
    retransmits: u64,
    replays: u64,
    full_replays: u64,
    allocs_refused: u64,
    frees_refused: u64,
}

#[test]
fn head_buf_is_the_model() {
    let seed = splicenic_fuzzkit::env_u64("HEAD_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("HEAD_TB_SEGMENTS").unwrap_or(DEFAULT_SEGMENTS);
    eprintln!("head_buf differential: seed {seed:#x}, {target} segments");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut gap_rng = StdRng::seed_from_u64(seed ^ 1);
    let mut hw = HeadBuf::new().expect("model");
    let mut m = HeadModel::new(BUFFERS, BUFFER_BYTES);
    // each buffer's whole request (longer than a buffer), the truth its segments come from
    let mut truth: Vec<Vec<u8>> = vec![Vec::new(); BUFFERS];
    let mut used: Vec<usize> = Vec::new();
    let mut t = Tally::default();
    let mut max_seen = 0;
    while t.segments < target {
        match rng.gen_range(0..100) {
            0..=5 => {
                let got = hw.alloc().expect("alloc");
                let want = m.alloc();
                assert_eq!(got, want, "alloc");
                match got {
                    Some(id) => {
                        used.push(id);
                        let n = rng.gen_range(1..1500);
                        truth[id] = (0..n).map(|_| rng.gen()).collect();
                    }
                    None => t.allocs_refused += 1,
                }
            }
            6..=9 if !used.is_empty() => {
                let k = rng.gen_range(0..used.len());
                let id = used.swap_remove(k);
                assert!(hw.free(id).expect("free"));
                assert!(m.free(id));
            }
            10 => {
                let id = rng.gen_range(0..BUFFERS);
                if !used.contains(&id) {
                    assert!(!hw.free(id).expect("free"), "free of {id} not in use");
                    assert!(!m.free(id));
                    t.frees_refused += 1;
                }
            }
            11..=16 if !used.is_empty() => {
                let id = used[rng.gen_range(0..used.len())];
                let busy = rng.gen_bool(0.3);
                let r = hw
                    .replay(id, |_| !busy || gap_rng.gen_bool(0.5))
                    .expect("replay");
                let head = m.head(id);
                assert_eq!(r.len, head.len(), "buffer {id}");
                assert_eq!(r.bytes, head, "buffer {id}");
                assert_eq!(r.sum, ones_sum(head), "buffer {id}");
                t.replays += 1;
                t.full_replays += u64::from(r.len == BUFFER_BYTES);
            }
            _ => {
                // a batch of segments over the buffers in use (and sometimes one not in use)
                let n = rng.gen_range(1..6);
                let mut segs = Vec::new();
                for _ in 0..n {
                    let id = if used.is_empty() || rng.gen_ratio(1, 50) {
                        rng.gen_range(0..BUFFERS)
                    } else {
                        used[rng.gen_range(0..used.len())]
                    };
                    let tr = &truth[id];
                    let stored = m.head(id).len().min(tr.len());
                    let off = match rng.gen_range(0..10) {
                        0 => rng.gen_range(0..=stored),
                        1 => stored + rng.gen_range(1..40),
                        2 => stored.saturating_sub(rng.gen_range(1..20)),
                        _ => stored,
                    };
                    let len = match rng.gen_range(0..10) {
                        0 => 0,
                        1 => rng.gen_range(300..700),
                        _ => rng.gen_range(1..120),
                    };
                    let payload: Vec<u8> = (off..off + len)
                        .map(|p| tr.get(p).copied().unwrap_or(p as u8))
                        .collect();
                    let want = m.append(id, off, &payload);
                    t.retransmits += u64::from(off < stored);
                    t.holes += u64::from(want.hole);
                    t.cuts += u64::from(want.cut);
                    t.bads += u64::from(want.bad);
                    t.bytes += want.added as u64;
                    segs.push((id, off, payload, want));
                }
                let gappy = rng.gen_bool(0.3);
                let input: Vec<(usize, usize, Vec<u8>)> = segs
                    .iter()
                    .map(|(id, off, p, _)| (*id, *off, p.clone()))
                    .collect();
                let got = hw
                    .append(&input, |_| gappy && gap_rng.gen_bool(0.3))
                    .expect("append");
                for ((_, _, _, want), (r, _)) in segs.iter().zip(&got) {
                    assert_eq!(r, want, "segment");
                }
                t.segments += n as u64;
            }
        }
        let (in_use, max) = hw.usage().expect("usage");
        assert_eq!(in_use, m.in_use());
        max_seen = max_seen.max(in_use);
        assert_eq!(max, max_seen, "high-water mark");
        if rng.gen_ratio(1, 2000) {
            hw.clear_max().expect("clear");
            // the mark starts again from the buffers in use now
            max_seen = m.in_use();
        }
    }
    eprintln!("{t:?}, {} cycles", hw.cycle());
    assert!(t.holes > 0 && t.cuts > 0 && t.bads > 0 && t.retransmits > 0);
    assert!(t.full_replays > 0 && t.allocs_refused > 0 && t.frees_refused > 0);
}
