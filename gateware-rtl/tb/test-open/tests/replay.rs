//! head_replay with the head_buf it reads, against the firmware's replay (the segment
//! `on_server_seg` builds: `TcpOut::write` with the head as payload, PSH on a non-empty head,
//! then `fill_checksums`): random heads of 0 to 1,024 bytes (all-0xFF ones for the checksum's
//! carries) written through head_buf's append port in up to four segments, into buffers
//! reused with shorter heads so older bytes lie past the end; random addresses, numbers,
//! windows, timestamps or none, ACK or ACK|FIN; a random segment limit, so some heads are
//! refused as too long (no frame, `res_long`); random back-pressure; DATA_WIDTH 64 and 512.
//! Every frame must equal the firmware's byte for byte, padding and both checksums included.
//!
//! `OPEN_TB_SEED`, `REPLAY_TB_HEADS` (default 20,000 per width).

mod common;

use common::firmware_frame;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_layout::{HEAD_BUFFERS, HEAD_BUFFER_BYTES};
use splicenic_tb_open::replay::ReplayRig;
use splicenic_tb_open::{TxRequest, Width};

const DEFAULT_SEED: u64 = 0x4e9_1a7;
const DEFAULT_HEADS: u64 = 20_000;
const ACK: u8 = 0x10;
const PSH: u8 = 0x08;
const FIN: u8 = 0x01;

/// The firmware's replay segment: the ACK form of `r` with `head` as its payload, PSH on a
/// non-empty head (`on_server_seg`).
fn firmware_replay(r: &TxRequest, head: &[u8]) -> Vec<u8> {
    let flags = r.flags | if head.is_empty() { 0 } else { PSH };
    firmware_frame(
        &TxRequest {
            flags,
            syn_opts: false,
            ..*r
        },
        head,
    )
}

fn replays_equal_the_firmware(width: Width) {
    let seed = splicenic_fuzzkit::env_u64("OPEN_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("REPLAY_TB_HEADS").unwrap_or(DEFAULT_HEADS);
    eprintln!("head_replay {width:?} against the firmware: seed {seed:#x}, {target} heads");
    let mut rng = StdRng::seed_from_u64(seed ^ width.bytes() as u64);
    let mut rig = ReplayRig::new(width).expect("model");
    let (mut sent, mut long, mut bytes) = (0u64, 0u64, 0u64);
    let mut by_len = [0u64; 4];
    for n in 0..target {
        let id = rig.alloc().expect("alloc").expect("a free buffer");
        let len = match rng.gen_range(0..10) {
            0 => 0,
            1 => rng.gen_range(1..8),
            2 => HEAD_BUFFER_BYTES as usize,
            3 => rng.gen_range(40..80),
            _ => rng.gen_range(1..=HEAD_BUFFER_BYTES as usize),
        };
        let head: Vec<u8> = if rng.gen_ratio(1, 10) {
            vec![0xff; len]
        } else {
            (0..len).map(|_| rng.gen()).collect()
        };
        let cuts: Vec<usize> = (0..rng.gen_range(0..4))
            .map(|_| rng.gen_range(0..=len))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        rig.fill(id, &head, &cuts).expect("fill");
        let r = TxRequest {
            dst_mac: rng.gen(),
            src_mac: rng.gen(),
            src_ip: rng.gen(),
            dst_ip: rng.gen(),
            sport: rng.gen(),
            dport: rng.gen(),
            seq: rng.gen(),
            ack: rng.gen(),
            flags: ACK | if rng.gen_ratio(1, 8) { FIN } else { 0 },
            window: rng.gen(),
            ts: rng.gen(),
            tsval: rng.gen(),
            tsecr: rng.gen(),
            ..TxRequest::default()
        };
        let max_len: u16 = match rng.gen_range(0..4) {
            0 => rng.gen_range(0..=HEAD_BUFFER_BYTES as u16),
            _ => 1448,
        };
        let stall = rng.gen_range(0..3);
        let got = rig
            .replay(id, max_len, &r, || stall == 0 || rng.gen_bool(0.6))
            .expect("replay");
        assert_eq!(got.len, len, "head {n}: length");
        if len > usize::from(max_len) {
            assert!(
                got.long && got.frame.is_none(),
                "head {n} of {len} > {max_len}: {got:?}"
            );
            long += 1;
        } else {
            let want = firmware_replay(&r, &head);
            assert!(!got.long, "head {n}: refused");
            assert_eq!(
                got.frame.as_deref(),
                Some(&want[..]),
                "head {n} ({len} bytes, {r:?}) differs from the firmware's replay"
            );
            sent += 1;
            bytes += len as u64;
            by_len[match len {
                0 => 0,
                1..=5 => 1,
                6..=64 => 2,
                _ => 3,
            }] += 1;
        }
        rig.free(id).expect("free");
    }
    let (c_sent, c_long) = rig.counts().expect("counts");
    assert_eq!(
        (u64::from(c_sent), u64::from(c_long)),
        (sent, long),
        "stat_sent, stat_long"
    );
    eprintln!(
        "{width:?}: {sent} replays equal the firmware's ({bytes} head bytes; empty, 1-5, \
         6-64, longer: {by_len:?}), {long} heads refused as longer than the limit, buffers \
         reused {} times each",
        target / u64::from(HEAD_BUFFERS)
    );
    assert!(by_len.iter().all(|&c| c > 0) && long > 0);
}

#[test]
fn replays_equal_the_firmware_64() {
    replays_equal_the_firmware(Width::W64);
}

#[test]
fn replays_equal_the_firmware_512() {
    replays_equal_the_firmware(Width::W512);
}

/// The replay's latency: cycles from the request's accept to the frame's last beat, with
/// the port always ready, by head length and width (printed; a frame is one per request).
#[test]
fn replay_cycles() {
    for width in [Width::W64, Width::W512] {
        let mut rig = ReplayRig::new(width).expect("model");
        let mut line = Vec::new();
        for len in [0usize, 60, 300, 1024] {
            let id = rig.alloc().expect("alloc").expect("buffer");
            let head = vec![0x41u8; len];
            rig.fill(id, &head, &[]).expect("fill");
            let r = TxRequest {
                flags: ACK,
                ts: true,
                ..TxRequest::default()
            };
            let got = rig.replay(id, 1448, &r, || true).expect("replay");
            let frame = got.frame.expect("a frame");
            assert_eq!(frame.len(), (66 + len).max(60));
            // header (9 words at 8 bytes a cycle after the length is read) and payload: a
            // word a cycle at 64; at 512 the collector adds a cycle a beat
            let words = (66 + len).div_ceil(8) as u64;
            assert!(
                got.cycles >= words,
                "{width:?} {len}: {} cycles",
                got.cycles
            );
            assert!(
                got.cycles <= words + 20 + words / 8,
                "{width:?} {len}: {} cycles",
                got.cycles
            );
            line.push(format!("{len} bytes: {} cycles", got.cycles));
            rig.free(id).expect("free");
        }
        eprintln!("head_replay {width:?}: {}", line.join(", "));
    }
}
