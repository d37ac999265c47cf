//! Latency and throughput of `syn_cookie` against the shared constants, its ready during
//! reset, and key writes while a request is in flight (docs/cookie.md: the key, the epoch
//! and previous-valid are sampled at the edge that accepts a request).

use splicenic_fw_logic::cookie::{cookie_check, cookie_make_class, CookieKeys, CookieTuple};
use splicenic_layout::{CookieOp, CookieStatus, COOKIE_INTERVAL, COOKIE_LATENCY};
use splicenic_tb_cookie::{key_word, op_code, status_code, Inputs, Outputs, Response, SynCookie};

const TUPLE: CookieTuple = CookieTuple {
    client_ip: 0xc0a8_0001,
    vip: 0x0a00_0001,
    client_port: 40000,
    vip_port: 80,
};
const KEY_A: [u32; 2] = [0x0123_4567, 0x89ab_cdef];
const KEY_B: [u32; 2] = [0x1111_2222, 0x3333_4444];
const KEY_C: [u32; 2] = [0xdead_beef, 0x0bad_f00d];

fn idle() -> Inputs {
    Inputs {
        rsp_ready: 1,
        ..Inputs::default()
    }
}

fn with_req(mut i: Inputs, op: CookieOp, isn: u32, cookie: u32, mss: u8, tag: u8) -> Inputs {
    i.req_valid = 1;
    i.op = op_code(op);
    i.client_ip = TUPLE.client_ip;
    i.vip = TUPLE.vip;
    i.client_port = u32::from(TUPLE.client_port);
    i.vip_port = u32::from(TUPLE.vip_port);
    i.client_isn = isn;
    i.cookie = cookie;
    i.mss = u32::from(mss);
    i.tag = u32::from(tag);
    i
}

fn write_key(hw: &mut SynCookie, base: Inputs, slot: u8, key: [u32; 2]) {
    let i = Inputs {
        key_wr_en: 1,
        key_wr_slot: u32::from(slot),
        key_wr_data: key_word(key),
        ..base
    };
    hw.step(&i).expect("step");
}

/// Presents `req` until accepted; gives the cycle of the accept.
fn accept(hw: &mut SynCookie, req: Inputs) -> u64 {
    for _ in 0..1000 {
        let c = hw.cycle();
        if hw.step(&req).expect("step").req_ready == 1 {
            return c;
        }
    }
    panic!("request not accepted in 1000 cycles");
}

/// Steps `base` until a response is taken; gives it and its cycle.
fn response(hw: &mut SynCookie, base: Inputs) -> (Response, u64) {
    for _ in 0..1000 {
        let c = hw.cycle();
        let o: Outputs = hw.step(&base).expect("step");
        if o.rsp_valid == 1 && base.rsp_ready == 1 {
            return (o.response(), c);
        }
    }
    panic!("no response in 1000 cycles");
}

fn make_rsp(key: [u32; 2], slot: u8, isn: u32, mss: u8, tag: u8) -> Response {
    Response {
        op: op_code(CookieOp::Make),
        isn: cookie_make_class(key, slot, &TUPLE, isn, mss),
        status: status_code(CookieStatus::Ok),
        mss: u32::from(mss),
        tag: u32::from(tag),
    }
}

fn check_rsp(keys: &CookieKeys, isn: u32, cookie: u32, tag: u8) -> Response {
    let r = cookie_check(keys, &TUPLE, isn, cookie);
    Response {
        op: op_code(CookieOp::Check),
        isn: cookie,
        status: status_code(r.map_or_else(|e| e.status(), |_| CookieStatus::Ok)),
        mss: u32::from(r.unwrap_or(0)),
        tag: u32::from(tag),
    }
}

/// A model with slot 0 = A, slot 1 = B, slot 0 current, the previous key valid.
fn keyed() -> (SynCookie, Inputs) {
    let mut hw = SynCookie::new().expect("model");
    let base = Inputs {
        prev_valid: 1,
        ..idle()
    };
    write_key(&mut hw, base, 0, KEY_A);
    write_key(&mut hw, base, 1, KEY_B);
    (hw, base)
}

#[test]
fn latency_and_throughput_match_the_shared_constants() {
    let (mut hw, base) = keyed();
    // Unstalled single requests into an idle unit.
    for (n, op) in [CookieOp::Make, CookieOp::Check, CookieOp::Make]
        .into_iter()
        .enumerate()
    {
        for _ in 0..5 {
            hw.step(&base).expect("step");
        }
        let t = accept(
            &mut hw,
            with_req(base, op, 7 + n as u32, 0x1234_5678, 3, n as u8),
        );
        let (r, t_rsp) = response(&mut hw, base);
        assert_eq!(r.tag, n as u32);
        let latency = t_rsp - t;
        println!(
            "{op:?}: accepted at cycle {t}, response valid at cycle {t_rsp}: latency {latency}"
        );
        assert_eq!(latency, u64::from(COOKIE_LATENCY), "latency of a {op:?}");
    }

    // Back-to-back requests, response always taken.
    let cycles = 30_000u64;
    let (mut accepted, mut responses) = (0u64, 0u64);
    let mut accepts = Vec::new();
    for k in 0..cycles {
        let op = if k % 2 == 0 {
            CookieOp::Make
        } else {
            CookieOp::Check
        };
        let i = with_req(base, op, k as u32, k as u32 * 7, (k % 4) as u8, k as u8);
        let c = hw.cycle();
        let o = hw.step(&i).expect("step");
        if o.req_ready == 1 {
            accepted += 1;
            accepts.push(c);
        }
        responses += u64::from(o.rsp_valid);
    }
    let per_cycle = accepted as f64 / cycles as f64;
    let gaps: Vec<u64> = accepts.windows(2).map(|w| w[1] - w[0]).collect();
    println!(
        "back to back: {accepted} requests and {responses} responses in {cycles} cycles: \
         {per_cycle:.5} requests per cycle (1 per {:.2} cycles; {:.1} M requests/s at \
         156.25 MHz)",
        cycles as f64 / accepted as f64,
        156.25 * per_cycle
    );
    assert!(
        gaps.iter().all(|&g| g == u64::from(COOKIE_INTERVAL)),
        "{gaps:?}"
    );

    // Responses held 20 cycles: the next result waits for the response register and the
    // request after it is accepted one cycle after the register is freed.
    let (mut hw, base) = keyed();
    let mut accepts = Vec::new();
    let mut since_valid = 0;
    for k in 0..3_000u64 {
        let mut i = with_req(base, CookieOp::Make, k as u32, 0, 0, k as u8);
        i.rsp_ready = u32::from(since_valid >= 20);
        let c = hw.cycle();
        let o = hw.step(&i).expect("step");
        if o.req_ready == 1 {
            accepts.push(c);
        }
        since_valid = if o.rsp_valid == 1 && i.rsp_ready == 0 {
            since_valid + 1
        } else {
            0
        };
    }
    // Steady state: a response every 21 cycles (20 held + the taking cycle); the unit keeps
    // up with the consumer (its next response is valid right after one is taken).
    let gaps: Vec<u64> = accepts[2..].windows(2).map(|w| w[1] - w[0]).collect();
    println!(
        "responses held 20 cycles each: 1 request per {:.2} cycles",
        gaps.iter().sum::<u64>() as f64 / gaps.len() as f64
    );
    assert!(gaps.iter().all(|&g| g == 21), "{gaps:?}");
}

#[test]
fn ready_is_low_during_and_right_after_reset() {
    let mut hw = SynCookie::new().expect("model");
    let req = with_req(idle(), CookieOp::Make, 1, 0, 0, 0);
    for _ in 0..3 {
        let o = hw.step(&Inputs { rst: 1, ..req }).expect("step");
        assert_eq!((o.req_ready, o.rsp_valid), (0, 0));
    }
    // In reset when the request came: the first cycle after reset is not ready.
    assert_eq!(hw.step(&req).expect("step").req_ready, 0);
    assert_eq!(hw.step(&req).expect("step").req_ready, 1);
    // A reset in flight drops the request.
    for _ in 0..5 {
        hw.step(&idle()).expect("step");
    }
    hw.step(&Inputs { rst: 1, ..idle() }).expect("step");
    for _ in 0..40 {
        assert_eq!(hw.step(&idle()).expect("step").rsp_valid, 0);
    }
}

/// A key write, an epoch flip and a revocation `at` cycles after the accept (0 = the
/// accept edge itself) do not change the request in flight; the next request sees them.
#[test]
fn key_writes_in_flight_do_not_change_the_request() {
    let lat = u64::from(COOKIE_LATENCY);
    for at in 0..=lat + 1 {
        // MAKE with slot 0 (A); slot 0 rewritten with C and the epoch flipped in flight.
        let (mut hw, base) = keyed();
        let mut after = base;
        let mut got = None;
        for k in 0..lat + 4 {
            let mut i = if k == 0 {
                with_req(base, CookieOp::Make, 99, 0, 2, 1)
            } else {
                after
            };
            if k == at {
                i.key_wr_en = 1;
                i.key_wr_slot = 0;
                i.key_wr_data = key_word(KEY_C);
            }
            // The epoch flip and the revocation from the cycle after the accept on (the
            // request takes the epoch driven in its accept cycle).
            if k == at.max(1) {
                after.cur_epoch = 1;
                after.prev_valid = 0;
                i.cur_epoch = 1;
                i.prev_valid = 0;
            }
            let o = hw.step(&i).expect("step");
            if k == 0 {
                assert_eq!(o.req_ready, 1, "the idle unit takes the request");
            }
            if o.rsp_valid == 1 && got.is_none() {
                got = Some(o.response());
            }
        }
        assert_eq!(
            got,
            Some(make_rsp(KEY_A, 0, 99, 2, 1)),
            "make, key write {at} cycles after the accept"
        );
        // The next request sees the new state: slot 1 (B) current; a cookie of slot 0 now
        // checks against C with no previous key: stale.
        accept(&mut hw, with_req(after, CookieOp::Make, 99, 0, 2, 2));
        let (r, _) = response(&mut hw, after);
        assert_eq!(r, make_rsp(KEY_B, 1, 99, 2, 2));
        let old = make_rsp(KEY_A, 0, 99, 2, 1).isn;
        accept(&mut hw, with_req(after, CookieOp::Check, 99, old, 0, 3));
        let (r, _) = response(&mut hw, after);
        let now = CookieKeys {
            slots: [KEY_C, KEY_B],
            current: 1,
            previous_valid: false,
        };
        assert_eq!(r, check_rsp(&now, 99, old, 3));
        assert_eq!(r.status, status_code(CookieStatus::StaleEpoch));

        // CHECK of a previous-epoch cookie (slot 1, B) accepted while the previous key is
        // valid; slot 1 overwritten and the previous key revoked in flight: still valid.
        let (mut hw, base) = keyed();
        let prev = cookie_make_class(KEY_B, 1, &TUPLE, 5, 3);
        let mut got = None;
        for k in 0..lat + 4 {
            let mut i = if k == 0 {
                with_req(base, CookieOp::Check, 5, prev, 0, 4)
            } else {
                base
            };
            if k >= at {
                // The request (k = 0) was accepted with the previous key valid only when
                // the revocation comes later.
                i.prev_valid = u32::from(k == 0 && at > 0);
            }
            if k == at {
                i.key_wr_en = 1;
                i.key_wr_slot = 1;
                i.key_wr_data = key_word(KEY_C);
            }
            let o = hw.step(&i).expect("step");
            if k == 0 {
                assert_eq!(o.req_ready, 1, "the idle unit takes the request");
            }
            if o.rsp_valid == 1 && got.is_none() {
                got = Some(o.response());
            }
        }
        // At the accept edge: the old key B (the write lands at that edge, after the read),
        // and previous-valid as driven in the accept cycle.
        let then = CookieKeys {
            slots: [KEY_A, KEY_B],
            current: 0,
            previous_valid: at > 0,
        };
        let want = check_rsp(&then, 5, prev, 4);
        if at > 0 {
            assert_eq!(want.status, status_code(CookieStatus::Ok));
            assert_eq!(want.mss, 3);
        } else {
            assert_eq!(want.status, status_code(CookieStatus::StaleEpoch));
        }
        assert_eq!(
            got,
            Some(want),
            "check, key write {at} cycles after the accept"
        );
    }

    // A write one cycle before the accept is seen by it.
    let (mut hw, base) = keyed();
    write_key(&mut hw, base, 0, KEY_C);
    accept(&mut hw, with_req(base, CookieOp::Make, 1, 0, 1, 9));
    let (r, _) = response(&mut hw, base);
    assert_eq!(r, make_rsp(KEY_C, 0, 1, 1, 9));
}
