//! Randomised differential test: every response of the RTL equals the firmware's reference
//! model (`splicenic_fw_logic::cookie`) evaluated with the keys and epoch the unit had when
//! it accepted the request. Random keys, tuples, ISNs and MSS classes; checks of fresh,
//! tampered and foreign cookies and of cookies of earlier epochs, across key rotations
//! (with in-flight requests) and revocations of the previous key; random input stalls and
//! response back-pressure. The seed is printed; COOKIE_TB_SEED=<n> reruns one.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::cookie::{cookie_check, cookie_make_class, CookieKeys, CookieTuple};
use splicenic_layout::{CookieOp, CookieStatus, COOKIE_HASH_LSB};
use splicenic_tb_cookie::{key_word, op_code, status_code, Inputs, Response, SynCookie};
use std::collections::VecDeque;

/// Operations (MAKE + CHECK) of the run.
const OPS: u64 = 100_000;
const DEFAULT_SEED: u64 = 0xc00c_1e5e_ed00_0001;

/// A cookie the model made, kept to be checked later.
#[derive(Clone, Copy)]
struct Made {
    tuple: CookieTuple,
    isn: u32,
    cookie: u32,
    /// Rotations (epoch flips) completed when it was made.
    epoch: u64,
}

/// What a CHECK request presents.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Make,
    /// A cookie made earlier, unchanged.
    Genuine,
    /// One made earlier with one hash bit flipped.
    HashBit,
    /// One made earlier with its MSS bits changed (not authenticated: still valid).
    MssBits,
    /// One made earlier with its epoch bit flipped.
    EpochBit,
    /// One made earlier, presented with another tuple or client ISN.
    OtherInput,
    /// A random word.
    Random,
}

#[derive(Clone, Copy)]
struct Req {
    kind: Kind,
    tuple: CookieTuple,
    isn: u32,
    cookie: u32,
    mss: u8,
    tag: u8,
    /// Rotations completed when the checked cookie was made (checks of earlier cookies).
    made_epoch: Option<u64>,
}

/// The firmware's key management, as the test drives it.
enum KeyPlan {
    Steady,
    /// The idle slot was written; the epoch flips at this cycle.
    FlipAt(u64),
}

#[derive(Default, Debug)]
struct Coverage {
    makes: u64,
    ok: u64,
    bad_hash: u64,
    stale: u64,
    /// Genuine cookies of the epoch before the current one, accepted (previous key valid).
    prev_epoch_ok: u64,
    /// Genuine cookies of the previous epoch refused as stale (previous key revoked).
    prev_epoch_stale: u64,
    /// Genuine cookies two or more epochs old (their slot rewritten): refused.
    old_epoch_bad: u64,
    /// Genuine cookies of the current epoch accepted.
    cur_epoch_ok: u64,
    rotations: u64,
    revocations: u64,
    rogue_writes: u64,
    /// Requests accepted while a key write or an epoch change was in flight with another.
    accepted_with_write_in_flight: u64,
    max_outstanding: usize,
    /// Cycles the unit was ready and no request was presented (input stalls).
    idle_ready_cycles: u64,
    /// Cycles a response waited for ready (back-pressure).
    held_cycles: u64,
}

fn random_tuple(rng: &mut StdRng) -> CookieTuple {
    CookieTuple {
        client_ip: rng.gen(),
        vip: rng.gen(),
        client_port: rng.gen(),
        vip_port: rng.gen(),
    }
}

fn new_request(rng: &mut StdRng, history: &[Made], tag: u8) -> Req {
    let base = Req {
        kind: Kind::Make,
        tuple: random_tuple(rng),
        isn: rng.gen(),
        cookie: rng.gen(),
        mss: rng.gen_range(0..4),
        tag,
        made_epoch: None,
    };
    if history.is_empty() || rng.gen_bool(0.4) {
        return base;
    }
    // Mostly recent cookies, some from long ago.
    let m = if rng.gen_bool(0.8) {
        history[history.len() - 1 - rng.gen_range(0..history.len().min(16))]
    } else {
        history[rng.gen_range(0..history.len())]
    };
    let from = |kind, cookie| Req {
        kind,
        tuple: m.tuple,
        isn: m.isn,
        cookie,
        made_epoch: Some(m.epoch),
        ..base
    };
    match rng.gen_range(0..100) {
        0..=44 => from(Kind::Genuine, m.cookie),
        45..=59 => from(
            Kind::HashBit,
            m.cookie ^ 1 << rng.gen_range(COOKIE_HASH_LSB..32),
        ),
        60..=67 => from(Kind::MssBits, m.cookie ^ rng.gen_range(1..4) << 1),
        68..=77 => from(Kind::EpochBit, m.cookie ^ 1),
        78..=89 => {
            let mut r = from(Kind::OtherInput, m.cookie);
            match rng.gen_range(0..5) {
                0 => r.tuple.client_ip ^= 1 << rng.gen_range(0..32),
                1 => r.tuple.vip ^= 1 << rng.gen_range(0..32),
                2 => r.tuple.client_port ^= 1 << rng.gen_range(0..16),
                3 => r.tuple.vip_port ^= 1 << rng.gen_range(0..16),
                _ => r.isn ^= 1 << rng.gen_range(0..32),
            }
            r
        }
        _ => Req {
            kind: Kind::Random,
            made_epoch: None,
            ..base
        },
    }
}

#[test]
fn rtl_equals_the_reference_model() {
    let seed = splicenic_fuzzkit::env_u64("COOKIE_TB_SEED").unwrap_or(DEFAULT_SEED);
    println!("syn_cookie differential test: seed {seed:#x} (COOKIE_TB_SEED), {OPS} operations");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut hw = SynCookie::new().expect("model");
    let t0 = std::time::Instant::now();

    // The key registers as the RTL holds them (written at an edge, read at accept).
    let mut slots = [[0u32; 2]; 2];
    let mut cur: u8 = 0;
    let mut prev_valid = false;
    let mut epoch: u64 = 0; // rotations completed
    let mut plan = KeyPlan::Steady;
    // Firmware bring-up: both slots written, slot 0 current, no previous key.
    let mut setup: VecDeque<(u8, [u32; 2])> =
        VecDeque::from([(0, [rng.gen(), rng.gen()]), (1, [rng.gen(), rng.gen()])]);

    let mut history: Vec<Made> = Vec::new();
    let mut expect: VecDeque<(Response, Req)> = VecDeque::new();
    let mut pending: Option<Req> = None;
    let mut presented = false;
    let mut held: Option<Response> = None;
    let mut cov = Coverage::default();
    let (mut issued, mut done) = (0u64, 0u64);
    let mut tag: u8 = 0;
    let mut last_write_cycle: u64 = 0;
    let mut cycle: u64 = 0;
    let limit = OPS * 200;
    let (mut valid_gap, mut ready_gap) = (0u32, 0u32);

    while done < OPS {
        assert!(
            cycle < limit,
            "stalled: {done} of {OPS} responses after {cycle} cycles"
        );
        // Stall profile: changes every few hundred cycles (none, some, long stretches).
        if cycle % 400 == 0 {
            valid_gap = [0, 30, 92][rng.gen_range(0..3)];
            ready_gap = [0, 35, 95][rng.gen_range(0..3)];
        }
        let mut i = Inputs {
            rsp_ready: u32::from(rng.gen_range(0..100) >= ready_gap),
            ..Inputs::default()
        };
        // Key management: one write per cycle at most.
        let mut write: Option<(u8, [u32; 2])> = None;
        if let Some(w) = setup.pop_front() {
            write = Some(w);
        } else {
            match plan {
                KeyPlan::FlipAt(c) if c == cycle => {
                    cur ^= 1;
                    prev_valid = true;
                    epoch += 1;
                    cov.rotations += 1;
                    plan = KeyPlan::Steady;
                }
                KeyPlan::FlipAt(_) => {}
                KeyPlan::Steady => match rng.gen_range(0..1000) {
                    // Rotation: write the idle slot, flip the epoch a little later.
                    0..=3 => {
                        write = Some((cur ^ 1, [rng.gen(), rng.gen()]));
                        plan = KeyPlan::FlipAt(cycle + rng.gen_range(1..40));
                    }
                    // Revoke the previous key.
                    4 if prev_valid => {
                        prev_valid = false;
                        cov.revocations += 1;
                    }
                    // A write of either slot at any time (also the current one).
                    5 if rng.gen_bool(0.3) => {
                        write = Some((rng.gen_range(0..2), [rng.gen(), rng.gen()]));
                        cov.rogue_writes += 1;
                    }
                    _ => {}
                },
            }
        }
        // cfg inputs of this cycle (an epoch flip above applies from this cycle).
        i.cur_epoch = u32::from(cur);
        i.prev_valid = u32::from(prev_valid);
        if let Some((s, k)) = write {
            i.key_wr_en = 1;
            i.key_wr_slot = u32::from(s);
            i.key_wr_data = key_word(k);
            last_write_cycle = cycle;
        }
        // Request: a new one may wait (valid low) before it is presented; once presented it
        // is held until accepted.
        if pending.is_none() && issued < OPS {
            pending = Some(new_request(&mut rng, &history, tag));
            tag = tag.wrapping_add(1);
            issued += 1;
            presented = false;
        }
        if let Some(r) = &pending {
            if !presented && rng.gen_range(0..100) >= valid_gap {
                presented = true;
            }
            if presented {
                i.req_valid = 1;
                i.op = op_code(if r.kind == Kind::Make {
                    CookieOp::Make
                } else {
                    CookieOp::Check
                });
                i.client_ip = r.tuple.client_ip;
                i.vip = r.tuple.vip;
                i.client_port = u32::from(r.tuple.client_port);
                i.vip_port = u32::from(r.tuple.vip_port);
                i.client_isn = r.isn;
                i.cookie = r.cookie;
                i.mss = u32::from(r.mss);
                i.tag = u32::from(r.tag);
            }
        }

        let o = hw.step(&i).expect("step");

        // A response held under back-pressure stays as it was.
        if let Some(h) = held.take() {
            assert_eq!(
                o.rsp_valid, 1,
                "cycle {cycle}: response withdrawn before ready"
            );
            assert_eq!(o.response(), h, "cycle {cycle}: held response changed");
        }
        if o.rsp_valid == 1 {
            if i.rsp_ready == 1 {
                let (want, req) = expect
                    .pop_front()
                    .unwrap_or_else(|| panic!("cycle {cycle}: response without a request"));
                assert_eq!(
                    o.response(),
                    want,
                    "cycle {cycle}, seed {seed:#x}: response {done} ({:?}, made in epoch {:?}, \
                     now epoch {epoch})",
                    req.kind,
                    req.made_epoch
                );
                done += 1;
            } else {
                held = Some(o.response());
            }
        }
        if o.req_ready == 1 && i.req_valid == 0 {
            cov.idle_ready_cycles += 1;
        }
        if o.rsp_valid == 1 && i.rsp_ready == 0 {
            cov.held_cycles += 1;
        }
        if i.req_valid == 1 && o.req_ready == 1 {
            let r = pending.take().expect("presented request");
            // The model with the keys as the RTL samples them at this edge.
            let keys = CookieKeys {
                slots,
                current: cur,
                previous_valid: prev_valid,
            };
            let want = if r.kind == Kind::Make {
                let c = cookie_make_class(slots[usize::from(cur)], cur, &r.tuple, r.isn, r.mss);
                history.push(Made {
                    tuple: r.tuple,
                    isn: r.isn,
                    cookie: c,
                    epoch,
                });
                if history.len() > 4096 {
                    history.drain(..2048);
                }
                cov.makes += 1;
                Response {
                    op: op_code(CookieOp::Make),
                    isn: c,
                    status: status_code(CookieStatus::Ok),
                    mss: u32::from(r.mss),
                    tag: u32::from(r.tag),
                }
            } else {
                let res = cookie_check(&keys, &r.tuple, r.isn, r.cookie);
                match res {
                    Ok(_) => cov.ok += 1,
                    Err(e) if e.status() == CookieStatus::StaleEpoch => cov.stale += 1,
                    Err(_) => cov.bad_hash += 1,
                }
                if let (Kind::Genuine, Some(e)) = (r.kind, r.made_epoch) {
                    match (epoch - e, res) {
                        (0, Ok(_)) => cov.cur_epoch_ok += 1,
                        (1, Ok(_)) => cov.prev_epoch_ok += 1,
                        (1, Err(x)) if x.status() == CookieStatus::StaleEpoch => {
                            cov.prev_epoch_stale += 1
                        }
                        (a, Err(_)) if a >= 2 => cov.old_epoch_bad += 1,
                        _ => {}
                    }
                }
                Response {
                    op: op_code(CookieOp::Check),
                    isn: r.cookie,
                    status: status_code(res.map_or_else(|e| e.status(), |_| CookieStatus::Ok)),
                    mss: u32::from(res.unwrap_or(0)),
                    tag: u32::from(r.tag),
                }
            };
            if cycle.saturating_sub(last_write_cycle) < 20 && cycle > 20 {
                cov.accepted_with_write_in_flight += 1;
            }
            expect.push_back((want, r));
            cov.max_outstanding = cov.max_outstanding.max(expect.len());
        }
        // The write takes effect at this edge.
        if let Some((s, k)) = write {
            slots[usize::from(s)] = k;
        }
        cycle += 1;
    }
    assert!(expect.is_empty() && pending.is_none());
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "{done} responses equal to the model in {cycle} cycles ({:.1} cycles per operation, \
         {secs:.1} s); {cov:?}",
        cycle as f64 / done as f64
    );
    // The mix the run must have covered.
    assert!(cov.makes > OPS / 4 && cov.ok > OPS / 10, "{cov:?}");
    assert!(cov.bad_hash > OPS / 10 && cov.stale > 100, "{cov:?}");
    assert!(
        cov.cur_epoch_ok > 1000 && cov.prev_epoch_ok > 100,
        "{cov:?}"
    );
    assert!(
        cov.prev_epoch_stale > 20 && cov.old_epoch_bad > 20,
        "{cov:?}"
    );
    assert!(
        cov.rotations > 100 && cov.revocations > 20 && cov.rogue_writes > 20,
        "{cov:?}"
    );
    assert!(cov.accepted_with_write_in_flight > 1000, "{cov:?}");
    assert!(
        cov.idle_ready_cycles > 50_000 && cov.held_cycles > 100_000,
        "{cov:?}"
    );
    assert_eq!(cov.max_outstanding, 2, "{cov:?}");
}
