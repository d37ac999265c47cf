//! Rate and latency of `syn_responder` (a benchmark-style test: it prints the measured
//! figures and asserts the design's guarantee).
//!
//! The RTL header states the rate: one SYN per ceil(COOKIE_INTERVAL / UNITS) cycles from
//! the round-robin cookie units, one frame per ceil(frame bytes / KEEP_WIDTH) + 1 cycles
//! from the serializer (a frame is loaded when it is idle: one cycle between frames), so
//! back to back with the output always ready a SYN-ACK takes at most
//! max(ceil(COOKIE_INTERVAL / UNITS), beats + 1) cycles, and no fewer than its beats. Its
//! latency from the SYN's accept to the first beat is the option decoder's
//! TCP_OPT_LATENCY, the job register (1), the cookie unit's COOKIE_LATENCY, then the
//! collect stage, B2..B5 and the serializer load (6), whatever the layout.
//!
//! Wire rate on 10G at 64 bits (8 bytes a cycle): a SYN takes its frame (at least 64
//! bytes with the FCS) + 20 bytes of preamble and gap on the wire; a minimum 64-byte SYN
//! is 84 bytes = 10.5 cycles and carries at most 4 option bytes (a data offset of 6
//! words; no TS: a 60-byte SYN-ACK). SYNs that get the longer SYN-ACKs carry a TS option and are longer on the
//! wire themselves; the test sends each SYN at the wire time of its own length.

use splicenic_fw_logic::cookie::TsOptions;
use splicenic_layout::{COOKIE_INTERVAL, COOKIE_LATENCY, TCP_OPT_LATENCY};
use splicenic_tb_synresp::model::{syn_ack, Config, Syn, FRAME_LENS, OPT_BYTES};
use splicenic_tb_synresp::{FrameSink, Inputs, SynResponder, Variant};
use std::collections::VecDeque;

const KEY: [u32; 2] = [0x0123_4567, 0x89ab_cdef];
const NOW: u32 = 0x1234_5678;
const CFG: Config = Config {
    mac: 0x02aa_bbcc_ddee,
    mss: 1460,
    offer_ws: true,
    offer_sack: true,
    offer_ts: true,
};
/// Stages after the cookie unit: collect, B2, B3, B4, B5, serializer load (RTL header).
const STAGES_AFTER_COOKIE: u64 = 6;
/// Idle cycles of the serializer between frames (RTL header: beats + 1 cycles a frame).
const SERIALIZER_GAP: u64 = 1;
/// Bytes a cycle at 10 Gb/s on a 64-bit bus at 156.25 MHz.
const WIRE_BYTES_PER_CYCLE: f64 = 8.0;
/// Preamble, start delimiter and inter-frame gap.
const WIRE_OVERHEAD: usize = 20;

/// Bytes on the wire of a SYN with `opt_len` option bytes (its data offset a whole number
/// of words), FCS, preamble and gap included.
fn wire_bytes(opt_len: u8) -> usize {
    (54 + usize::from(opt_len).div_ceil(4) * 4 + 4).max(64) + WIRE_OVERHEAD
}

/// A SYN `n` whose SYN-ACK has `len` bytes (60: no TS; 70: TS + SACK_PERM; 74: + WS).
fn syn_of(len: usize, n: u32) -> Syn {
    let mut opt = [0u8; OPT_BYTES];
    let v: Vec<u8> = match len {
        60 => vec![2, 4, 5, 0xb4],
        70 => vec![2, 4, 5, 0xb4, 4, 2, 8, 10, 0, 0, 1, 2, 0, 0, 0, 0],
        _ => vec![
            2, 4, 5, 0xb4, 4, 2, 8, 10, 0, 0, 1, 2, 0, 0, 0, 0, 1, 3, 3, 7,
        ],
    };
    opt[..v.len()].copy_from_slice(&v);
    Syn {
        eth_src: 0x0211_2233_4455,
        ip_src: 0xc0a8_0000 | n & 0xffff,
        ip_dst: 0x0a00_0001,
        sport: 1024 + (n % 60000) as u16,
        dport: 443,
        seq: n.wrapping_mul(0x9e37_79b9),
        opt_len: v.len() as u8,
        opt,
    }
}

fn keyed(v: Variant) -> (SynResponder, Inputs) {
    let mut hw = SynResponder::new(v).expect("model");
    let mut base = Inputs::idle(&CFG);
    base.now = NOW;
    for s in 0..2 {
        let mut i = base;
        i.set_key_write(s, KEY);
        hw.step(&i).expect("step");
    }
    (hw, base)
}

fn model(syn: &Syn) -> Vec<u8> {
    syn_ack(syn, &CFG, KEY, 0, NOW).frame
}

/// Beats of a frame of `len` bytes.
fn beats(v: Variant, len: usize) -> u64 {
    len.div_ceil(v.data_bytes()) as u64
}

/// Latency (accept to first beat) of one SYN into the idle module.
fn latency(v: Variant, len: usize) -> u64 {
    let (mut hw, base) = keyed(v);
    let mut sink = FrameSink::new(v);
    let syn = syn_of(len, 1);
    let mut accept = None;
    for _ in 0..200 {
        let c = hw.cycle();
        let i = if accept.is_none() {
            base.with_syn(&syn)
        } else {
            base
        };
        let o = hw.step(&i).expect("step");
        if accept.is_none() && o.syn_ready == 1 {
            accept = Some(c);
        }
        if let Some(f) = sink.take(c, true, &o) {
            assert_eq!(f.bytes, model(&syn), "{len}-byte SYN-ACK");
            return f.first_cycle - accept.expect("accepted");
        }
    }
    panic!("no SYN-ACK in 200 cycles");
}

/// Back-to-back SYNs with SYN-ACKs of `lens` (cycled), output always ready: cycles per
/// SYN-ACK in the steady state (first beats of frames 100.. to the end).
fn back_to_back(v: Variant, lens: &[usize], n: u32) -> f64 {
    let (mut hw, base) = keyed(v);
    let mut sink = FrameSink::new(v);
    let mut want = VecDeque::new();
    let mut firsts = Vec::new();
    let mut k = 0u32;
    while firsts.len() < n as usize {
        assert!(hw.cycle() < u64::from(n) * 40, "stalled");
        let syn = syn_of(lens[k as usize % lens.len()], k);
        let c = hw.cycle();
        let o = hw.step(&base.with_syn(&syn)).expect("step");
        if o.syn_ready == 1 {
            want.push_back(model(&syn));
            k += 1;
        }
        if let Some(f) = sink.take(c, true, &o) {
            assert_eq!(Some(f.bytes), want.pop_front());
            firsts.push(f.first_cycle);
        }
    }
    let s = &firsts[100..];
    (s[s.len() - 1] - s[0]) as f64 / (s.len() - 1) as f64
}

#[test]
fn rate_and_latency() {
    for v in Variant::ALL {
        let (w, u) = (v.data_width(), v.units());
        let unit_bound = u64::from(COOKIE_INTERVAL.div_ceil(u));
        let want_latency =
            u64::from(TCP_OPT_LATENCY) + 1 + u64::from(COOKIE_LATENCY) + STAGES_AFTER_COOKIE;
        for len in FRAME_LENS {
            let lat = latency(v, len);
            let per = back_to_back(v, &[len], 2000);
            let bound = unit_bound.max(beats(v, len) + SERIALIZER_GAP);
            println!(
                "syn_responder: {per:.2} cycles per SYN (UNITS={u}, DATA_WIDTH={w}), latency \
                 {lat} ({len}-byte SYN-ACKs of {} beat(s); guaranteed at most {bound} cycles)",
                beats(v, len)
            );
            assert_eq!(lat, want_latency, "latency of a {len}-byte SYN-ACK");
            assert!(
                per <= bound as f64 && per >= beats(v, len) as f64,
                "{per} cycles per {len}-byte SYN-ACK, bound {bound}"
            );
        }
        let per = back_to_back(v, &[60, 70, 74, 74, 60], 2000);
        println!(
            "syn_responder: {per:.2} cycles per SYN (UNITS={u}, DATA_WIDTH={w}), mixed layouts"
        );
        assert!(
            per <= unit_bound.max(beats(v, 74) + SERIALIZER_GAP) as f64,
            "{per}"
        );
    }
}

/// The shortest SYNs that get each layout: 60 bytes: a minimum 64-byte SYN (MSS, 4 option
/// bytes); 70: TS only (10 bytes, data offset 8); 74: TS and WS (13
/// bytes, data offset 9).
fn shortest_syn(len: usize, n: u32) -> Syn {
    let v: &[u8] = match len {
        60 => &[2, 4, 5, 0xb4],
        70 => &[8, 10, 0, 0, 0, 9, 0, 0, 0, 0],
        _ => &[8, 10, 0, 0, 0, 9, 0, 0, 0, 0, 3, 3, 7],
    };
    let mut s = syn_of(60, n);
    s.opt = [0; OPT_BYTES];
    s.opt[..v.len()].copy_from_slice(v);
    s.opt_len = v.len() as u8;
    s
}

/// SYNs arriving back to back at 10G wire rate on the 64-bit build, each at the wire time of
/// its own length:
/// every SYN is taken in the cycle it arrives (no backlog builds up) and every frame comes
/// out, equal to the model.
#[test]
fn wire_rate_is_sustained() {
    // 10G on the 64-bit bus.
    {
        let v = Variant::W64U2;
        for lens in [&[60usize][..], &[70], &[74], &[60, 74, 70, 60, 74]] {
            let (mut hw, base) = keyed(v);
            let mut sink = FrameSink::new(v);
            let mut want = VecDeque::new();
            let n = 5000u32;
            let (mut sent, mut got, mut refused) = (0u32, 0u32, 0u64);
            let mut waiting: Option<Syn> = None;
            // wire time (in bytes) at which the next SYN has arrived
            let mut arrival = 0usize;
            let mut c = 0u64;
            while got < n {
                assert!(c < u64::from(n) * 20, "stalled");
                if sent < n && c as f64 >= arrival as f64 / WIRE_BYTES_PER_CYCLE {
                    assert!(
                        waiting.is_none(),
                        "{lens:?}: SYN {sent} arrived before the last was taken"
                    );
                    let s = shortest_syn(lens[sent as usize % lens.len()], sent);
                    arrival += wire_bytes(s.opt_len);
                    waiting = Some(s);
                    sent += 1;
                }
                let i = match &waiting {
                    Some(s) => base.with_syn(s),
                    None => base,
                };
                let o = hw.step(&i).expect("step");
                if let Some(s) = waiting.take() {
                    if o.syn_ready == 1 {
                        want.push_back(syn_ack(&s, &CFG, KEY, 0, NOW).frame);
                    } else {
                        refused += 1;
                        waiting = Some(s);
                    }
                }
                if let Some(f) = sink.take(c, true, &o) {
                    assert_eq!(Some(f.bytes), want.pop_front());
                    got += 1;
                }
                c += 1;
            }
            let per_syn = arrival as f64 / WIRE_BYTES_PER_CYCLE / f64::from(n);
            println!(
                "syn_responder ({v:?}): {n} SYNs at 10G wire rate ({per_syn:.3} cycles each), \
                 SYN-ACKs of {lens:?} bytes: {refused} cycles refused, {c} cycles"
            );
            assert_eq!(refused, 0, "{lens:?}");
            if lens == [60] {
                assert_eq!(wire_bytes(4), 84, "a minimum SYN is 84 bytes on the wire");
                assert_eq!(per_syn, 10.5);
            }
        }
    }
    // The 70- and 74-byte SYN-ACKs above carry the TS, SACK and WS they should.
    for (len, ws) in [(70, None), (74, Some(7))] {
        let s = shortest_syn(len, 0);
        let f = syn_ack(&s, &CFG, KEY, 0, NOW).frame;
        assert_eq!(f.len(), len);
        let tsval = u32::from_be_bytes([f[62], f[63], f[64], f[65]]);
        assert_eq!(
            splicenic_fw_logic::cookie::ts_decode(tsval),
            TsOptions {
                wscale: ws,
                sack_ok: false
            }
        );
    }
}
