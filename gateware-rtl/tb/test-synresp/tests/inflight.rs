//! Inputs that change while SYNs are in flight.
//!
//! - `cfg_now` changing every cycle: the module samples the TS clock at some point of a
//!   SYN's flight, so each SYN-ACK's TSval must be `ts_encode(n, options)` for a value `n`
//!   the clock had between the SYN's accept and the frame's first beat, and the whole frame
//!   equal to the model at that `n`.
//! - Key writes and epoch flips at any cycle: each cookie must verify (`cookie_check`)
//!   under a key its slot (bit 0) held between the SYN's accept and the first beat, bit 0
//!   must be an epoch driven in that span, and the frame equal the model with that key.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::cookie::{cookie_check, CookieKeys, CookieTuple};
use splicenic_tb_synresp::model::{client_options, syn_ack, syn_ack_options, Config, Syn};
use splicenic_tb_synresp::{gen, FrameSink, Inputs, SynResponder, Variant};
use std::collections::VecDeque;

const SYNS: u32 = 20_000;
const CFG: Config = Config {
    mac: 0x02de_adbe_ef01,
    mss: 1400,
    offer_ws: true,
    offer_sack: true,
    offer_ts: true,
};

/// Values an input held, by cycle.
struct History<T: Copy> {
    /// (first cycle, value), in cycle order.
    changes: Vec<(u64, T)>,
}

impl<T: Copy + PartialEq> History<T> {
    fn new(v: T) -> Self {
        History {
            changes: vec![(0, v)],
        }
    }

    /// `v` from cycle `c` on.
    fn set(&mut self, c: u64, v: T) {
        if self.changes.last().is_some_and(|&(_, w)| w != v) {
            self.changes.push((c, v));
        }
    }

    /// Every value held at some cycle of `from..=to`.
    fn span(&self, from: u64, to: u64) -> Vec<T> {
        let start = self
            .changes
            .iter()
            .rposition(|&(c, _)| c <= from)
            .unwrap_or(0);
        self.changes[start..]
            .iter()
            .take_while(|&&(c, _)| c <= to)
            .map(|&(_, v)| v)
            .collect()
    }
}

/// A SYN with a TS option most of the time (the TSval is what this test is about).
fn ts_syn(rng: &mut StdRng) -> Syn {
    let mut s = gen::syn(rng);
    if rng.gen_bool(0.7) {
        let (l, o) = gen::syn_options(rng);
        s.opt_len = l;
        s.opt = o;
        if rng.gen_bool(0.7) {
            // MSS, SACK_PERM, TS, NOP, WS
            s.opt[..20].copy_from_slice(&[
                2,
                4,
                5,
                0xb4,
                4,
                2,
                8,
                10,
                rng.gen(),
                rng.gen(),
                rng.gen(),
                rng.gen(),
                0,
                0,
                0,
                0,
                1,
                3,
                3,
                rng.gen_range(0..16),
            ]);
            s.opt_len = if rng.gen_bool(0.5) { 20 } else { 16 };
        }
    }
    s
}

/// Drives `n` random SYNs with random stalls; `drive` sets the changing inputs of each
/// cycle; `check` judges each frame from its SYN, the accept cycle and the frame.
fn drive(
    v: Variant,
    seed: u64,
    n: u32,
    mut drive: impl FnMut(&mut StdRng, u64, &mut Inputs),
    mut check: impl FnMut(&Syn, u64, &splicenic_tb_synresp::Frame),
) {
    let mut hw = SynResponder::new(v).expect("model");
    let mut sink = FrameSink::new(v);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut cycle = 0u64;
    let cfg = CFG;
    let mut expect: VecDeque<(Syn, u64)> = VecDeque::new();
    let mut pending: Option<Syn> = None;
    let (mut sent, mut done) = (0u32, 0u32);
    while done < n {
        assert!(cycle < u64::from(n) * 200, "stalled");
        let c = cycle;
        let mut i = Inputs::idle(&cfg);
        i.tready = u32::from(rng.gen_range(0..100) >= 20);
        drive(&mut rng, c, &mut i);
        if pending.is_none() && sent < n && rng.gen_range(0..100) < 40 {
            pending = Some(ts_syn(&mut rng));
            sent += 1;
        }
        if let Some(s) = &pending {
            i.set_syn(s);
        }
        let o = hw.step(&i).expect("step");
        if i.syn_valid == 1 && o.syn_ready == 1 {
            expect.push_back((pending.take().expect("SYN"), c));
        }
        if let Some(f) = sink.take(c, i.tready == 1, &o) {
            let (s, at) = expect.pop_front().expect("a frame without a SYN");
            check(&s, at, &f);
            done += 1;
        }
        cycle += 1;
    }
}

#[test]
fn ts_clock_changing_every_cycle() {
    for v in Variant::ALL {
        let cfg = CFG;
        let key = [0xaaaa_5555, 0x1234_4321];
        let mut now = 0u32;
        let (mut with_ts, mut later_than_accept) = (0u64, 0u64);
        // cfg_now of every cycle, by cycle
        let log = std::cell::RefCell::new(Vec::<u32>::new());
        drive(
            v,
            11,
            SYNS,
            |rng, c, i| {
                now = if c % 5000 == 0 {
                    gen::now(rng)
                } else {
                    now.wrapping_add(rng.gen_range(1..=7))
                };
                i.now = now;
                if c < 2 {
                    i.set_key_write(c as u8, key);
                }
                log.borrow_mut().push(now);
            },
            |s, at, f| {
                // the clock values of accept..=first beat (the log is complete up to the
                // cycle being judged)
                let span: Vec<u32> = log.borrow()[at as usize..=f.first_cycle as usize].to_vec();
                // the clock values whose options (TSval) are the frame's, then the whole frame
                let c = client_options(s);
                let opts = &f.bytes[54..];
                let hit = span.iter().position(|&n| {
                    opts.starts_with(&syn_ack_options(&c, &cfg, n).0)
                        && syn_ack(s, &cfg, key, 0, n).frame == f.bytes
                });
                let Some(k) = hit else {
                    panic!(
                        "no TS clock value of cycles {at}..={} gives this frame:\n {:02x?}\n \
                         model at the accept {:02x?}\n {s:?}",
                        f.first_cycle,
                        f.bytes,
                        syn_ack(s, &cfg, key, 0, span[0]).frame
                    );
                };
                let m = syn_ack(s, &cfg, key, 0, span[k]);
                if m.ts.is_some() {
                    with_ts += 1;
                    // a TSval the clock at the accept would not give: sampled later
                    later_than_accept += u64::from(m.ts != syn_ack(s, &cfg, key, 0, span[0]).ts);
                }
            },
        );
        println!(
            "{v:?}: {SYNS} SYN-ACKs with cfg_now changing every cycle: {with_ts} with a TSval, \
             {later_than_accept} of them from a clock value after the accept's"
        );
        assert!(with_ts > u64::from(SYNS) / 2, "{with_ts}");
        assert!(
            later_than_accept > u64::from(SYNS) / 4,
            "{later_than_accept}"
        );
    }
}

#[test]
fn key_writes_and_epoch_flips_in_flight() {
    for v in Variant::ALL {
        let cfg = CFG;
        let now = 0x7777_0000;
        // the slot histories and the epoch, shared by the drive and the check
        let hist = std::cell::RefCell::new((
            History::new([0u32; 2]),
            History::new([0u32; 2]),
            History::new(0u8),
        ));
        let mut cur = 0u8;
        let (mut writes, mut flips) = (0u64, 0u64);
        let (mut checked, mut with_write_in_flight) = (0u64, 0u64);
        drive(
            v,
            12,
            SYNS,
            |rng, c, i| {
                let mut h = hist.borrow_mut();
                // the epoch as driven this cycle
                if c > 2 && rng.gen_range(0..40) == 0 {
                    cur ^= 1;
                    flips += 1;
                }
                h.2.set(c, cur);
                i.now = now;
                i.cur_epoch = u32::from(cur);
                i.prev_valid = 1;
                // a write lands at this cycle's edge: held from the next cycle on
                if c < 2 || rng.gen_range(0..25) == 0 {
                    let s = if c < 2 { c as u8 } else { rng.gen_range(0..2) };
                    let k = [rng.gen(), rng.gen()];
                    i.set_key_write(s, k);
                    if s == 0 {
                        h.0.set(c + 1, k);
                    } else {
                        h.1.set(c + 1, k);
                    }
                    writes += 1;
                }
            },
            |s, at, f| {
                let h = hist.borrow();
                let cookie =
                    u32::from_be_bytes([f.bytes[38], f.bytes[39], f.bytes[40], f.bytes[41]]);
                let slot = (cookie & 1) as u8;
                let epochs = h.2.span(at, f.first_cycle);
                assert!(
                    epochs.contains(&slot),
                    "cookie {cookie:#x} names slot {slot}; epochs {epochs:?} in cycles \
                     {at}..={}",
                    f.first_cycle
                );
                let keys = if slot == 0 { &h.0 } else { &h.1 }.span(at, f.first_cycle);
                with_write_in_flight += u64::from(keys.len() > 1);
                let tuple = CookieTuple {
                    client_ip: s.ip_src,
                    vip: s.ip_dst,
                    client_port: s.sport,
                    vip_port: s.dport,
                };
                let ok = keys.iter().find(|&&k| {
                    let ck = CookieKeys {
                        slots: [k, k],
                        current: slot,
                        previous_valid: true,
                    };
                    let m = syn_ack(s, &cfg, k, slot, now);
                    cookie_check(&ck, &tuple, s.seq, cookie) == Ok(m.class) && m.frame == f.bytes
                });
                assert!(
                    ok.is_some(),
                    "cookie {cookie:#x} (slot {slot}) verifies under none of the slot's keys \
                     {keys:x?} of cycles {at}..={}, or the frame differs: {:02x?}",
                    f.first_cycle,
                    f.bytes
                );
                checked += 1;
            },
        );
        println!(
            "{v:?}: {checked} cookies checked; {writes} key writes and {flips} epoch flips at \
             random cycles; {with_write_in_flight} SYNs had their slot written in flight"
        );
        assert!(
            with_write_in_flight > u64::from(SYNS) / 10 && flips > 1000,
            "{with_write_in_flight} {flips}"
        );
    }
}
