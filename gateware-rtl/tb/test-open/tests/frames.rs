//! tcp_tx_gen against the firmware's frame builder (`splicer::frame::TcpOut::write` and
//! `fill_checksums`, what the inject offload completes): random frames of every option
//! form the engine sends (the SYN to the server from a random client handshake, the SYN
//! form with every combination of MSS, SACK, timestamps and window scale, the ACK form with
//! and without timestamps, RSTs), random addresses, ports, numbers, flags and windows, random
//! gaps between requests and random back-pressure, at DATA_WIDTH 64 and 512. Every frame
//! must equal the firmware's byte for byte, padding and both checksums included. Half of the
//! ACK-form frames announce a payload (a replayed request head, 1 to 1,024 random bytes, by
//! its length and ones'-complement sum): the generator's header must then equal the first
//! bytes of the firmware's frame with that payload, lengths and checksums covering it.
//!
//! `OPEN_TB_SEED`, `OPEN_TB_FRAMES` (default 200,000 per width).

mod common;

use common::firmware_frame;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::flowmgr::tcpopts::{Handshake, OptionsPolicy, SynOptions, Timestamps};
use splicenic_fw_logic::splicer::frame::{csum_add, csum_fold};
use splicenic_tb_open::{TxGen, TxRequest, Width};

const DEFAULT_SEED: u64 = 0x0be4_5e4d;
const DEFAULT_FRAMES: u64 = 200_000;
const SYN: u8 = 0x02;
const RST: u8 = 0x04;
const ACK: u8 = 0x10;

fn random_request(rng: &mut StdRng) -> TxRequest {
    let mut r = TxRequest {
        dst_mac: rng.gen(),
        src_mac: rng.gen(),
        src_ip: rng.gen(),
        dst_ip: rng.gen(),
        sport: rng.gen(),
        dport: rng.gen(),
        seq: rng.gen(),
        ack: rng.gen(),
        flags: rng.gen(),
        window: rng.gen(),
        ..TxRequest::default()
    };
    // extreme values now and then (checksum carries)
    if rng.gen_ratio(1, 8) {
        r.src_ip = u32::MAX;
        r.dst_ip = u32::MAX;
        r.seq = u32::MAX;
        r.ack = u32::MAX;
        r.window = u16::MAX;
        r.sport = u16::MAX;
        r.dport = u16::MAX;
    }
    match rng.gen_range(0..4) {
        // the SYN to the server, as the firmware sends it (send_server_syn)
        0 => {
            let policy = OptionsPolicy {
                mss: rng.gen_range(48..=9000),
                wscale: rng.gen(),
                server_wscale: rng.gen_range(0..=14),
                sack: rng.gen(),
                timestamps: rng.gen(),
            };
            let syn = SynOptions {
                mss: rng.gen_bool(0.9).then(|| rng.gen()),
                wscale: rng.gen_bool(0.8).then(|| rng.gen_range(0..=14)),
                sack_permitted: rng.gen(),
                timestamps: rng.gen_bool(0.8).then(|| Timestamps {
                    tsval: rng.gen(),
                    tsecr: 0,
                }),
                ignored: 0,
            };
            let hs = Handshake::from_client_syn(&policy, &syn).expect("valid policy");
            r.syn_opts = true;
            r.flags = SYN;
            r.ack = 0;
            r.window = 0xffff;
            r.mss = hs.mss_to_server;
            r.sack = hs.sack;
            r.ts = hs.timestamps;
            r.tsval = syn.timestamps.map_or(0, |t| t.tsval);
            r.tsecr = 0;
            r.ws = hs.server_wscale;
        }
        // any SYN form
        1 => {
            r.syn_opts = true;
            r.mss = rng.gen();
            r.sack = rng.gen();
            r.ts = rng.gen();
            r.tsval = rng.gen();
            r.tsecr = rng.gen();
            r.ws = rng.gen_bool(0.5).then(|| rng.gen_range(0..=15));
        }
        // the ACK form (handshake ACK, ACKs of a head)
        2 => {
            r.ts = rng.gen();
            r.tsval = rng.gen();
            r.tsecr = rng.gen();
            r.flags = ACK | if rng.gen() { 0x08 } else { 0 };
        }
        // a RST (no options)
        _ => {
            r.flags = RST | if rng.gen() { ACK } else { 0 };
            r.window = 0;
        }
    }
    r
}

fn frames_equal_the_firmware(width: Width) {
    let seed = splicenic_fuzzkit::env_u64("OPEN_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("OPEN_TB_FRAMES").unwrap_or(DEFAULT_FRAMES);
    eprintln!("tcp_tx_gen {width:?} against the firmware: seed {seed:#x}, {target} frames");
    let mut rng = StdRng::seed_from_u64(seed ^ width.bytes() as u64);
    let mut t_rng = StdRng::seed_from_u64(seed ^ 0x77);
    let mut gen = TxGen::new(width).expect("model");
    let mut done = 0u64;
    let mut by_len = std::collections::BTreeMap::<usize, u64>::new();
    let mut cycles = 0u64;
    let mut with_payload = 0u64;
    while done < target {
        let n = (target - done).min(4096) as usize;
        let mut reqs: Vec<TxRequest> = (0..n).map(|_| random_request(&mut rng)).collect();
        // a payload behind half of the ACK-form frames
        let pays: Vec<Vec<u8>> = reqs
            .iter_mut()
            .map(|r| {
                if r.syn_opts || r.flags & (ACK | RST) != ACK || rng.gen() {
                    return Vec::new();
                }
                let len = rng.gen_range(1..=1024);
                let p: Vec<u8> = if rng.gen_ratio(1, 8) {
                    vec![0xff; len]
                } else {
                    (0..len).map(|_| rng.gen()).collect()
                };
                r.pay_len = len as u16;
                r.pay_sum = !csum_fold(csum_add(0, &p));
                p
            })
            .collect();
        // phases: back to back with the port always ready, random gaps, random back-pressure
        let phase = rng.gen_range(0..3);
        let mut g_rng = StdRng::seed_from_u64(t_rng.gen());
        let mut r_rng = StdRng::seed_from_u64(t_rng.gen());
        let sent = gen
            .run(
                &reqs,
                |_| {
                    if phase == 1 {
                        g_rng.gen_range(0..12)
                    } else {
                        0
                    }
                },
                || phase != 2 || r_rng.gen_bool(0.6),
            )
            .expect("frames");
        for (k, ((r, p), s)) in reqs.iter().zip(&pays).zip(&sent).enumerate() {
            let mut want = firmware_frame(r, p);
            if !p.is_empty() {
                // the header alone (the ACK form: 54 bytes, 66 with NOP NOP TS), not the
                // payload nor the padding of a short frame
                want.truncate(if r.ts { 66 } else { 54 });
                with_payload += 1;
            }
            assert_eq!(
                s.bytes,
                want,
                "frame {} ({r:?}) differs from the firmware's",
                done + k as u64
            );
            *by_len.entry(want.len()).or_default() += 1;
        }
        cycles = sent.last().map_or(cycles, |s| s.last);
        done += n as u64;
    }
    let count = gen.sent_count().expect("count");
    assert_eq!(u64::from(count), target, "stat_sent");
    eprintln!(
        "{width:?}: {done} frames equal the firmware's in {cycles} cycles ({with_payload} headers \
         of a payload); by length {by_len:?}"
    );
    assert!(with_payload > 0);
    // every option layout occurred
    for len in [54, 60, 62, 66, 70, 74] {
        assert!(by_len.contains_key(&len), "no frame of {len} bytes");
    }
}

#[test]
fn frames_equal_the_firmware_64() {
    frames_equal_the_firmware(Width::W64);
}

#[test]
fn frames_equal_the_firmware_512() {
    frames_equal_the_firmware(Width::W512);
}
