//! Reset: `s_syn_ready` is low while the module is in reset, and a reset at any point of
//! the flight of one or more SYNs (option decode, cookie units, checksum stages, mid-frame,
//! under back-pressure) drops everything in flight: no frame or rest of a frame comes out
//! after it, `stat_answered` starts again from 0, and the next SYN is answered correctly.

use splicenic_tb_synresp::model::{syn_ack, Config, Syn};
use splicenic_tb_synresp::{gen, FrameSink, Inputs, SynResponder, Variant};

use rand::rngs::StdRng;
use rand::SeedableRng;

const KEY: [u32; 2] = [0x1111_2222, 0x3333_4444];
const NOW: u32 = 0x0bad_cafe;
const CFG: Config = Config {
    mac: 0x0200_0000_0001,
    mss: 1448,
    offer_ws: true,
    offer_sack: true,
    offer_ts: true,
};

/// A SYN whose SYN-ACK is 74 bytes (MSS, SACK_PERM, TS, WS).
fn full_syn(n: u32) -> Syn {
    let mut opt = [0xeeu8; 40];
    opt[..20].copy_from_slice(&[
        2, 4, 5, 0xb4, 4, 2, 8, 10, 1, 2, 3, 4, 0, 0, 0, 0, 1, 3, 3, 6,
    ]);
    Syn {
        eth_src: 0x0266_7788_99aa,
        ip_src: 0xc0a8_0100 + n,
        ip_dst: 0x0a00_0002,
        sport: 50000 + n as u16,
        dport: 80,
        seq: 0xfeed_0000 + n,
        opt_len: 20,
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

#[test]
fn ready_is_low_in_reset() {
    for v in Variant::ALL {
        ready_low_in_reset(v);
    }
}

/// Ready low in reset, and the first SYN after it answered.
fn ready_low_in_reset(v: Variant) {
    let (mut hw, base) = keyed(v);
    let syn = full_syn(0);
    for _ in 0..5 {
        hw.step(&base).expect("step");
    }
    let rst = Inputs {
        rst: 1,
        ..base.with_syn(&syn)
    };
    // The first reset cycle still shows the ready registered before it; from the
    // edge that takes the reset on, ready is low, and the cycle after the reset too.
    hw.step(&rst).expect("step");
    for k in 0..6 {
        let o = hw.step(&rst).expect("step");
        assert_eq!(o.syn_ready, 0, "reset cycle {}", k + 2);
        assert_eq!(o.tvalid, 0, "reset cycle {}", k + 2);
        assert_eq!(o.answered, 0);
    }
    let mut sink = FrameSink::new(v);
    let mut accepted = None;
    for k in 0..100u64 {
        let i = if accepted.is_none() {
            base.with_syn(&syn)
        } else {
            base
        };
        let o = hw.step(&i).expect("step");
        if k == 0 {
            assert_eq!(o.syn_ready, 0, "the cycle after the reset");
        }
        if accepted.is_none() && o.syn_ready == 1 {
            accepted = Some(k);
        }
        if let Some(f) = sink.take(k, true, &o) {
            assert_eq!(f.bytes, syn_ack(&syn, &CFG, KEY, 0, NOW).frame);
            assert!(accepted.is_some_and(|a| a <= 2), "{accepted:?}");
            return;
        }
    }
    panic!("no SYN-ACK after the reset");
}

/// `burst` SYNs accepted from cycle 0, reset at cycle `at` for `len` cycles, output ready
/// with probability given by `stall` (every `stall`-th cycle not ready); then the next SYN.
fn reset_in_flight(v: Variant, burst: u32, at: u64, len: u64, stall: u64, next: &Syn) {
    let (mut hw, base) = keyed(v);
    let mut sink = FrameSink::new(v);
    let mut sent = 0;
    let ready = |c: u64| stall == 0 || c % stall != 0;
    let ctx = format!("{v:?}: {burst} SYNs, reset at cycle {at} for {len}, stall {stall}");
    let mut c = 0u64;
    while c < at + len {
        let mut i = base;
        i.tready = u32::from(ready(c));
        if sent < burst {
            i.set_syn(&full_syn(sent));
        }
        if c >= at {
            i.rst = 1;
        }
        let o = hw.step(&i).expect("step");
        if c < at {
            if i.syn_valid == 1 && o.syn_ready == 1 {
                sent += 1;
            }
            // Frames before the reset are the burst's, in order.
            if let Some(f) = sink.take(c, i.tready == 1, &o) {
                let n = u64::from(o.answered);
                assert_eq!(
                    f.bytes,
                    syn_ack(&full_syn(n as u32), &CFG, KEY, 0, NOW).frame,
                    "{ctx}"
                );
            }
        }
        c += 1;
    }
    sink.clear();
    let want = syn_ack(next, &CFG, KEY, 0, NOW).frame;
    let mut accepted = false;
    let mut frames = 0;
    for k in 0..300u64 {
        let mut i = base;
        i.tready = u32::from(ready(c));
        if !accepted {
            i.set_syn(next);
        }
        let o = hw.step(&i).expect("step");
        if k == 0 {
            assert_eq!(o.tvalid, 0, "{ctx}: a beat the cycle after the reset");
        }
        accepted |= o.syn_ready == 1 && i.syn_valid == 1;
        // frames completed at the edges before this cycle
        assert_eq!(o.answered, frames, "{ctx}: stat_answered after the reset");
        if let Some(f) = sink.take(c, i.tready == 1, &o) {
            assert_eq!(f.bytes, want, "{ctx}: the frame after the reset");
            frames += 1;
        }
        c += 1;
    }
    assert!(
        accepted && frames == 1 && !sink.mid_frame(),
        "{ctx}: {frames} frames"
    );
}

#[test]
fn reset_in_flight_drops_it_and_the_next_syn_is_answered() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut cases = 0;
    for v in Variant::ALL {
        for burst in [1, 2, 3, 6, 20] {
            for at in 0..90 {
                let len = 1 + at % 3;
                let stall = [0, 0, 3, 5][(at % 4) as usize];
                let next = gen::syn(&mut rng);
                reset_in_flight(v, burst, at, len, stall, &next);
                cases += 1;
            }
        }
    }
    println!("{cases} resets in flight");
}
