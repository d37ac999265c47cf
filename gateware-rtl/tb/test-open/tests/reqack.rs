//! req_ack against the firmware's request step (`splicer::request::request_step`, the
//! function `on_request_data` acts on): random connections (ISNs across 2^32, heads empty,
//! partly full and full, the FIN in or not, window shifts 0 to 14) and random segments around
//! the head's end (in order, overlapping it, entirely before it, one byte past it, far past
//! it, far before it; empty and FIN-only ones; payloads up to 1,500 bytes and the 16-bit
//! limit), one per cycle, with gaps and under back-pressure. Every verdict, skip, take, length,
//! FIN, ACK number and window must be the firmware's; the timing test checks the latency and
//! the rate.
//!
//! `OPEN_TB_SEED`, `REQACK_TB_SEGMENTS` (default 1,000,000).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::splicer::request::{request_step, HEAD_BYTES};
use splicenic_layout::REQ_ACK_LATENCY;
use splicenic_tb_open::reqack::{ReqAck, ReqResult, ReqSegment};

const DEFAULT_SEED: u64 = 0x4e9_ac4;
const DEFAULT_SEGMENTS: u64 = 1_000_000;

fn firmware(s: &ReqSegment) -> ReqResult {
    let r = request_step(
        s.client_isn,
        s.req_len,
        s.client_fin,
        s.shift,
        s.seq,
        s.plen,
        s.fin,
    );
    ReqResult {
        tag: s.tag,
        verdict: r.verdict as u8,
        skip: r.skip,
        take: r.take,
        req_len: r.req_len,
        client_fin: r.client_fin,
        ack: r.ack,
        window: r.window,
    }
}

fn random_segment(rng: &mut StdRng, tag: u16) -> ReqSegment {
    let client_isn: u32 = match rng.gen_range(0..4) {
        0 => 0u32.wrapping_sub(rng.gen_range(0..2000)),
        _ => rng.gen(),
    };
    let req_len: u16 = match rng.gen_range(0..6) {
        0 => 0,
        1 => HEAD_BYTES,
        2 => HEAD_BYTES - rng.gen_range(1..16),
        _ => rng.gen_range(0..=HEAD_BYTES),
    };
    let plen: u16 = match rng.gen_range(0..8) {
        0 => 0,
        1 => u16::MAX - rng.gen_range(0..4),
        2 => rng.gen_range(1..8),
        _ => rng.gen_range(1..=1500),
    };
    let end = client_isn.wrapping_add(1).wrapping_add(u32::from(req_len));
    // where the segment starts against the head's end
    let seq = match rng.gen_range(0..9) {
        0 => end,
        1 => end.wrapping_add(1),
        2 => end.wrapping_add(rng.gen_range(2..1 << 20)),
        3 => end.wrapping_sub(u32::from(plen)),
        4 => end.wrapping_sub(u32::from(plen)).wrapping_sub(1),
        5 => end.wrapping_sub(rng.gen_range(0..=u32::from(plen))),
        6 => end.wrapping_sub(rng.gen_range(1..=u32::from(req_len) + 1)),
        7 => end.wrapping_add(1 << 31),
        _ => rng.gen(),
    };
    ReqSegment {
        tag,
        client_isn,
        req_len,
        client_fin: rng.gen_ratio(1, 8),
        shift: rng.gen_range(0..=14),
        seq,
        plen,
        fin: rng.gen_ratio(1, 4),
    }
}

#[test]
fn req_ack_is_the_firmware() {
    let seed = splicenic_fuzzkit::env_u64("OPEN_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("REQACK_TB_SEGMENTS").unwrap_or(DEFAULT_SEGMENTS);
    eprintln!("req_ack against the firmware: seed {seed:#x}, {target} segments");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut t_rng = StdRng::seed_from_u64(seed ^ 0x5e9);
    let mut hw = ReqAck::new().expect("model");
    let (mut done, mut by_verdict, mut fins, mut partial) = (0u64, [0u64; 4], 0u64, 0u64);
    while done < target {
        let n = (target - done).min(4096) as usize;
        let segs: Vec<ReqSegment> = (0..n).map(|k| random_segment(&mut rng, k as u16)).collect();
        let phase = t_rng.gen_range(0..3);
        let mut p_rng = StdRng::seed_from_u64(t_rng.gen());
        let mut r_rng = StdRng::seed_from_u64(t_rng.gen());
        let got = hw
            .run(
                &segs,
                || phase != 1 || p_rng.gen_bool(0.5),
                || phase != 2 || r_rng.gen_bool(0.5),
            )
            .expect("results");
        for (k, (s, g)) in segs.iter().zip(&got).enumerate() {
            let want = firmware(s);
            assert_eq!(g.out, want, "segment {} ({s:?})", done + k as u64);
            by_verdict[usize::from(want.verdict)] += 1;
            fins += u64::from(want.client_fin && !s.client_fin);
            partial += u64::from(want.take > 0 && want.skip + want.take < s.plen);
        }
        done += n as u64;
    }
    eprintln!(
        "{done} segments equal the firmware's: STORE {}, DUPLICATE {}, OUT_OF_ORDER {}, ABORT \
         {}; {fins} FINs taken, {partial} segments cut at the head's end",
        by_verdict[0], by_verdict[1], by_verdict[2], by_verdict[3]
    );
    assert!(by_verdict.iter().all(|&c| c > 0) && fins > 0 && partial > 0);
}

#[test]
fn one_segment_per_cycle_after_the_latency() {
    let mut hw = ReqAck::new().expect("model");
    let s = ReqSegment {
        plen: 100,
        seq: 1,
        ..ReqSegment::default()
    };
    let r = hw.run(&[s], || true, || true).expect("result");
    assert_eq!(r[0].taken - r[0].accepted, u64::from(REQ_ACK_LATENCY));
    let n = 1000;
    let r = hw.run(&vec![s; n], || true, || true).expect("results");
    for w in r.windows(2) {
        assert_eq!(w[1].accepted - w[0].accepted, 1, "one segment per cycle");
        assert_eq!(w[1].taken - w[0].taken, 1, "one result per cycle");
    }
    eprintln!(
        "req_ack: latency {REQ_ACK_LATENCY} cycles, {n} segments in {} cycles",
        r[n - 1].accepted - r[0].accepted + 1
    );
}
