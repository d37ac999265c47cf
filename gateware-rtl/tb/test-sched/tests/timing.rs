//! sched_unit's latency and throughput against the shared constants (SCHED_LATENCY,
//! SCHED_MH_INTERVAL), back-pressure without loss, a stale cycle entry punted, the pointer
//! frozen by an OFF commit, and the status of every mode (docs/sched-unit.md).

use splicenic_layout::{SchedMode, SchedStatus, SCHED_LATENCY, SCHED_MH_INTERVAL};
use splicenic_tb_sched::{Descriptor, Inputs, Request, SchedUnit};

fn desc(mode: SchedMode, base: u16, last: u16, loop_start: u16) -> Descriptor {
    Descriptor {
        mode,
        fallback: true,
        hash_port: false,
        base,
        last,
        loop_start,
        ptr: Some(0),
    }
}

fn req(pool: u8, tag: u16) -> Request {
    Request {
        pool,
        client_ip: 0xc0a8_0000 | u32::from(tag),
        client_port: 1000 + tag,
        dst_ip: 0x0a00_0001,
        tag,
    }
}

/// A unit with pool 0 a cycle 0,1,2 (a prefix 0, then 1,2 repeated), pool 1 an mh table of
/// server 5 everywhere, pool 2 OFF; every server eligible.
fn setup() -> SchedUnit {
    let mut hw = SchedUnit::new().expect("model");
    hw.write_table(100, &[0, 1, 2]).expect("table");
    hw.write_table(4096, &[5; 4093]).expect("table");
    for p in 0..3 {
        hw.write_eligible(p, u64::MAX).expect("mask");
    }
    hw.commit(0, &desc(SchedMode::Cycle, 100, 2, 1))
        .expect("commit");
    hw.commit(1, &desc(SchedMode::Mh, 4096, 0, 0))
        .expect("commit");
    hw
}

/// The cycle a request offered alone on an idle unit is answered, counted from its accept.
fn latency(hw: &mut SchedUnit, r: Request) -> u64 {
    let start = hw.cycle();
    let got = hw.run(&[r], |_| true, |_| true, 100).expect("answer");
    got[0].cycle - start
}

#[test]
fn latency_matches_the_shared_constants() {
    let mut hw = setup();
    assert_eq!(latency(&mut hw, req(0, 1)), u64::from(SCHED_LATENCY));
    assert_eq!(latency(&mut hw, req(2, 2)), u64::from(SCHED_LATENCY));
    assert_eq!(
        latency(&mut hw, req(1, 3)),
        u64::from(SCHED_LATENCY + SCHED_MH_INTERVAL - 1)
    );
}

#[test]
fn one_request_per_cycle_and_mh_every_interval() {
    let mut hw = setup();
    let reqs: Vec<Request> = (0..1000).map(|k| req(0, k)).collect();
    let got = hw.run(&reqs, |_| true, |_| true, 100).expect("answers");
    let span = got.last().expect("one").cycle - got[0].cycle;
    assert_eq!(span, 999, "1000 cycle requests answered back to back");
    let servers: Vec<u8> = got.iter().map(|r| r.server).take(6).collect();
    assert_eq!(servers, [0, 1, 2, 1, 2, 1], "prefix then period");
    let reqs: Vec<Request> = (0..100).map(|k| req(1, k)).collect();
    let got = hw.run(&reqs, |_| true, |_| true, 100).expect("answers");
    let span = got.last().expect("one").cycle - got[0].cycle;
    assert_eq!(span, 99 * u64::from(SCHED_MH_INTERVAL), "mh requests");
    assert!(got
        .iter()
        .all(|r| r.status == SchedStatus::Pick && r.server == 5));
}

#[test]
fn back_pressure_loses_nothing() {
    let mut hw = setup();
    let reqs: Vec<Request> = (0..3000).map(|k| req((k % 3) as u8, k)).collect();
    // the response port takes one answer in seven
    let got = hw
        .run(&reqs, |_| true, |c| c % 7 == 0, 100_000)
        .expect("answers");
    let tags: Vec<u16> = got.iter().map(|r| r.tag).collect();
    assert_eq!(tags, (0..3000).collect::<Vec<u16>>());
    for r in &got {
        let want = match r.pool {
            2 => SchedStatus::Punt,
            _ => SchedStatus::Pick,
        };
        assert_eq!(r.status, want, "{r:?}");
    }
}

#[test]
fn a_stale_cycle_entry_is_punted_and_off_freezes_the_pointer() {
    let mut hw = setup();
    // server 1 no longer eligible: its entries go to the firmware
    hw.write_eligible(0, !0b10).expect("mask");
    let reqs: Vec<Request> = (0..5).map(|k| req(0, k)).collect();
    let got = hw.run(&reqs, |_| true, |_| true, 100).expect("answers");
    let st: Vec<SchedStatus> = got.iter().map(|r| r.status).collect();
    use SchedStatus::{Pick, Punt};
    assert_eq!(st, [Pick, Punt, Pick, Punt, Pick]);
    // without fallback a stale entry is no server
    let mut d = desc(SchedMode::Cycle, 100, 2, 1);
    d.fallback = false;
    d.ptr = None;
    hw.commit(0, &d).expect("commit");
    let got = hw
        .run(&reqs[..1], |_| true, |_| true, 100)
        .expect("answers");
    assert_eq!((got[0].status, got[0].server), (SchedStatus::None, 1));
    // 6 requests so far: the pointer is at entry 2
    let off = Descriptor {
        mode: SchedMode::Off,
        ptr: None,
        ..d
    };
    hw.commit(0, &off).expect("off");
    assert_eq!(hw.read_ptr(0).expect("ptr"), 2);
    let got = hw.run(&reqs, |_| true, |_| true, 100).expect("answers");
    assert!(got.iter().all(|r| r.status == SchedStatus::Punt));
    assert_eq!(
        hw.read_ptr(0).expect("ptr"),
        2,
        "OFF does not move the pointer"
    );
}

#[test]
fn empty_entries_and_reset() {
    let mut hw = setup();
    // an sh pool on a region of no server
    hw.commit(3, &desc(SchedMode::Sh, 2000, 0, 0))
        .expect("commit");
    hw.write_eligible(3, u64::MAX).expect("mask");
    let got = hw
        .run(&[req(3, 9)], |_| true, |_| true, 100)
        .expect("answer");
    assert_eq!(got[0].status, SchedStatus::None);
    // reset: every pool OFF again, ready low while in reset
    let o = hw
        .step(&Inputs {
            rst: 1,
            rsp_ready: 1,
            ..Inputs::default()
        })
        .expect("step");
    assert_eq!(o.req_ready, 1, "ready is decided before the reset edge");
    let o = hw
        .step(&Inputs {
            rsp_ready: 1,
            ..Inputs::default()
        })
        .expect("step");
    assert_eq!(o.req_ready, 0, "not ready in the cycle after reset");
    let got = hw
        .run(&[req(0, 1)], |_| true, |_| true, 100)
        .expect("answer");
    assert_eq!(
        got[0].status,
        SchedStatus::Punt,
        "pools are OFF after reset"
    );
}
