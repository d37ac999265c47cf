//! The aging scanner inside the whole data path (docs/aging.md, "The scanner"), at
//! DATA_WIDTH 64 and 512:
//!
//! - a spliced flow closed through the fast path (both FINs acknowledged: the LINGER class)
//!   is queued in DP.AGE_HEAD once idle for the LINGER timeout, and not before; while open
//!   (ESTABLISHED, a long timeout) it is never queued, sweep after sweep; forwarding goes on
//!   meanwhile with no flow update lost (`DP.UPD_DROPS` 0);
//! - random entries written through the firmware's command port (every state, random flags,
//!   teardown views and idle times around each class's timeout) are queued exactly as the
//!   firmware's aging scan decides (`Splicer::timeout_class`, `is_expired`), each once per
//!   sweep, with their class;
//! - with `DP.AGE_CTRL.FREE` the scanner frees a LINGER slot itself (docs/aging.md, "The free
//!   in hardware"): both keys gone from the flow table, the entry FREE, the flow's next
//!   segment punted instead of forwarded, and the slot queued with FREED, its real server,
//!   ACTIVE flag and client address for the firmware's bookkeeping; every other expired
//!   entry of the random set is queued unfreed as before, and a freed one is FREE.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_driver::regs;
use splicenic_driver::regs::dp::{age_ctrl, age_head, age_status};
use splicenic_fw_logic::flowmgr::aging::is_expired;
use splicenic_fw_logic::splicer::{Splicer, DYN_WORDS};
use splicenic_layout::{
    entry_flags, flow_state, teardown, timeout_class, FlowDyn, FlowStatic, AGE_QUEUE_DEPTH,
    TIMEOUT_CLASSES,
};
use splicenic_tb_datapath::params::FLOW_SLOTS;
use splicenic_tb_datapath::testkit::*;
use splicenic_tb_datapath::{Datapath, Port};

/// A long timeout (no flow of these tests reaches it).
const LONG: u32 = 0x7fff_0000;
/// Cycles per DP.NOW tick.
const TICK: u64 = 1 << 16;

fn set_timeouts(dp: &mut Datapath, table: &[u32; TIMEOUT_CLASSES as usize]) {
    for (i, &t) in table.iter().enumerate() {
        dp.write(
            r(regs::dp::AGE_TIMEOUT + regs::dp::AGE_TIMEOUT_STRIDE * i as u64),
            t,
        );
    }
}

fn enable(dp: &mut Datapath, interval: u16, free: bool) {
    dp.write(r(regs::dp::AGE_LIMIT), 0);
    dp.write(
        r(regs::dp::AGE_CTRL),
        1 << age_ctrl::ENABLE_SHIFT
            | u32::from(free) << age_ctrl::FREE_SHIFT
            | u32::from(interval) << age_ctrl::INTERVAL_SHIFT,
    );
}

/// The queue's head: (slot, class).
fn head(dp: &mut Datapath) -> Option<(u16, u8)> {
    head_freed(dp).map(|(slot, class, _)| (slot, class))
}

/// A freed entry's bookkeeping as the queue gives it: real server, ACTIVE, client address.
type Freed = (u8, bool, u32);

/// The queue's head: (slot, class, the bookkeeping when FREED is set).
fn head_freed(dp: &mut Datapath) -> Option<(u16, u8, Option<Freed>)> {
    let h = dp.read(r(regs::dp::AGE_HEAD));
    let client = dp.read(r(regs::dp::AGE_CLIENT));
    let freed = h >> age_head::FREED_SHIFT & 1 == 1;
    if !freed {
        assert_eq!(
            (
                h >> age_head::RS_SHIFT & age_head::RS_MASK,
                h >> age_head::ACTIVE_SHIFT & 1,
                client
            ),
            (0, 0, 0),
            "RS, ACTIVE and AGE_CLIENT of an entry not freed"
        );
    }
    (h >> age_head::VALID_SHIFT & 1 == 1).then_some((
        (h >> age_head::SLOT_SHIFT & age_head::SLOT_MASK) as u16,
        (h >> age_head::CLASS_SHIFT & age_head::CLASS_MASK) as u8,
        freed.then_some((
            (h >> age_head::RS_SHIFT & age_head::RS_MASK) as u8,
            h >> age_head::ACTIVE_SHIFT & 1 == 1,
            client,
        )),
    ))
}

fn sweeps(dp: &mut Datapath) -> u32 {
    dp.read(r(regs::dp::AGE_SWEEPS))
}

/// Ticks until `n` more sweeps have completed, popping every queued slot on the way.
fn sweep(dp: &mut Datapath, n: u32) -> Vec<(u16, u8)> {
    let start = sweeps(dp);
    let mut got = Vec::new();
    let bound = u64::from(n + 1) * u64::from(FLOW_SLOTS) * 64;
    let t0 = dp.cycles();
    while sweeps(dp).wrapping_sub(start) < n {
        while let Some(h) = head(dp) {
            got.push(h);
            dp.write(r(regs::dp::AGE_POP), 1);
        }
        dp.tick(256);
        assert!(
            dp.cycles() - t0 < bound,
            "the scanner did not finish {n} sweeps"
        );
    }
    while let Some(h) = head(dp) {
        got.push(h);
        dp.write(r(regs::dp::AGE_POP), 1);
    }
    got
}

/// Stops the walk, empties the queue, then runs one whole walk from where it stood, popping
/// its slots. Returns DP.NOW at the start, the slots popped and the slot the walk started at.
fn one_walk(dp: &mut Datapath) -> (u32, Vec<(u16, u8)>, u16) {
    let ctrl = dp.read(r(regs::dp::AGE_CTRL));
    dp.write(r(regs::dp::AGE_CTRL), ctrl & !(1 << age_ctrl::ENABLE_SHIFT));
    dp.tick(64);
    while head(dp).is_some() {
        dp.write(r(regs::dp::AGE_POP), 1);
    }
    let p = dp.read(r(regs::dp::AGE_POS)) as u16;
    let s0 = sweeps(dp);
    let now = dp.read(r(regs::dp::NOW));
    dp.write(r(regs::dp::AGE_CTRL), ctrl);
    let mut got = Vec::new();
    let t0 = dp.cycles();
    loop {
        while let Some(h) = head(dp) {
            got.push(h);
            dp.write(r(regs::dp::AGE_POP), 1);
        }
        dp.tick(4);
        let pos = dp.read(r(regs::dp::AGE_POS)) as u16;
        if sweeps(dp) != s0 && pos >= p {
            break;
        }
        assert!(
            dp.cycles() - t0 < u64::from(FLOW_SLOTS) * 64,
            "the walk did not come round"
        );
    }
    dp.write(r(regs::dp::AGE_CTRL), ctrl & !(1 << age_ctrl::ENABLE_SHIFT));
    dp.tick(64);
    while let Some(h) = head(dp) {
        got.push(h);
        dp.write(r(regs::dp::AGE_POP), 1);
    }
    (now, got, p)
}

/// `counted`: the card follows the FINs (`DP.FIN_CTRL.EVENTS` 0, docs/engine.md, "FINs
/// without the firmware").
fn closed_flow_lingers(width: u32, free: bool, counted: bool) {
    let mut dp = Datapath::new(width).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0xa6e + u64::from(width));
    configure(&mut dp);
    let st = dp.read(r(regs::dp::AGE_STATUS));
    assert_eq!(
        st >> age_status::DEPTH_SHIFT & age_status::DEPTH_MASK,
        AGE_QUEUE_DEPTH,
        "AGE_STATUS.DEPTH"
    );
    assert_eq!(st >> age_status::FREER_SHIFT & 1, 1, "AGE_STATUS.FREER");
    let linger = 2u32;
    let mut table = [LONG; TIMEOUT_CLASSES as usize];
    table[usize::from(timeout_class::LINGER)] = linger;
    set_timeouts(&mut dp, &table);
    enable(&mut dp, 16, free);
    if counted {
        dp.write(r(regs::dp::FIN_CTRL), 0);
    }
    let mut f = Flow::sample(7);
    f.flags |= entry_flags::ACTIVE;
    install(&mut dp, &f);
    let (steps, ..) = close_steps(&f, 0x0102_0304, 0xa0b0_c0d0);
    let last = steps.len() - 1;
    for (k, (port, flags, plen, seq, ack, want)) in steps.into_iter().enumerate() {
        if k == last {
            // open until now: two whole sweeps past the LINGER timeout queue nothing
            let until = dp.cycles() + u64::from(linger + 1) * TICK;
            let mut got = Vec::new();
            while dp.cycles() < until {
                got.extend(sweep(&mut dp, 1));
            }
            assert!(got.is_empty(), "an open flow was queued: {got:?}");
        }
        let payload: Vec<u8> = (0..plen).map(|_| rng.gen()).collect();
        let (bytes, ..) = flow_frame_at(&mut rng, &f, port, &payload, flags, seq, ack);
        dp.push(port, &bytes, false);
        assert!(dp.settle(400, 1_000_000), "data path did not drain");
        assert_eq!(dp.drain(port.other()).len(), 1, "step {k} forwarded");
        assert_eq!(read_dyn(&mut dp, f.slot).teardown, want, "step {k}");
    }
    let last_seen = read_dyn(&mut dp, f.slot).last_seen;
    // closed: queued once idle for the LINGER timeout, within a sweep (4,096 slots x 16
    // cycles: one tick) and the tick's rounding
    let t0 = dp.cycles();
    let (slot, class, freed) = loop {
        if let Some(h) = head_freed(&mut dp) {
            break h;
        }
        dp.tick(256);
        assert!(
            dp.cycles() - t0 < 8 * TICK,
            "the closed flow was never queued"
        );
    };
    let now = dp.read(r(regs::dp::NOW));
    assert_eq!(
        (slot, class),
        (f.slot, timeout_class::LINGER),
        "queued slot and class"
    );
    if free {
        // ACTIVE in the entry; when the card counted its FINs (DP.FIN_COUNT) they took it
        // off the active count already and the record says inactive
        assert_eq!(
            freed,
            Some((f.rs, !counted, a(f.client_ip))),
            "FREED with the entry's real server, ACTIVE unless counted, and client"
        );
        assert_eq!(dp.read(r(regs::dp::AGE_FREED)), 1, "AGE_FREED");
        let (st, _) = read_state(&mut dp, f.slot);
        assert!(st.iter().all(|&w| w == 0), "the entry is FREE: {st:x?}");
        let ck = (a(f.client_ip), a(VIP), f.client_port, VIP_PORT);
        let sk = (a(f.server_ip), a(LOCAL), f.server_port, f.local_port);
        assert_eq!(
            flow_cmd(&mut dp, regs::flow::cmd::OP_LOOKUP, ck, 0).0,
            FLOW_NOT_FOUND,
            "client key"
        );
        assert_eq!(
            flow_cmd(&mut dp, regs::flow::cmd::OP_LOOKUP, sk, 0).0,
            FLOW_NOT_FOUND,
            "server key"
        );
        // a late segment of the freed flow is the firmware's now
        let (bytes, ..) = flow_frame_at(&mut rng, &f, Port::Client, &[], Flags::default(), 1, 1);
        dp.push(Port::Client, &bytes, false);
        assert!(dp.settle(400, 1_000_000), "data path did not drain");
        assert!(
            dp.drain(Port::Server).is_empty(),
            "forwarded after the free"
        );
        let (desc, _) = punt_pop(&mut dp).expect("the late segment punted");
        assert!(!meta(&desc).flow_hit, "punted without a flow");
    } else {
        assert_eq!(freed, None, "not freed with AGE_CTRL.FREE clear");
        assert_eq!(dp.read(r(regs::dp::AGE_FREED)), 0, "AGE_FREED");
        let (st, _) = read_state(&mut dp, f.slot);
        assert_eq!(
            st,
            f.static_words().to_vec(),
            "the entry is left to the firmware"
        );
    }
    let idle = now.wrapping_sub(last_seen);
    assert!(
        (linger..=linger + 2).contains(&idle),
        "queued after {idle} ticks idle (LINGER {linger})"
    );
    dp.write(r(regs::dp::AGE_POP), 1);
    assert_eq!(head(&mut dp), None, "AGE_POP removed it");
    assert!(dp.read(r(regs::dp::AGE_EXPIRED)) >= 1);
    assert_eq!(dp.read(r(regs::dp::UPD_DROPS)), 0, "no flow update lost");
    eprintln!(
        "DATA_WIDTH {width}: the closed flow queued {idle} ticks after its last segment \
         (LINGER {linger} ticks), freed by the scanner: {free}"
    );
}

#[test]
fn closed_flow_lingers_64() {
    closed_flow_lingers(64, false, false);
}

#[test]
fn closed_flow_lingers_512() {
    closed_flow_lingers(512, false, false);
}

#[test]
fn closed_flow_freed_64() {
    closed_flow_lingers(64, true, false);
}

#[test]
fn closed_flow_freed_512() {
    closed_flow_lingers(512, true, false);
}

#[test]
fn closed_flow_freed_fins_counted_64() {
    closed_flow_lingers(64, true, true);
}

#[test]
fn closed_flow_freed_fins_counted_512() {
    closed_flow_lingers(512, true, true);
}

/// The firmware's decision on an entry at `now`: the class, expired.
fn firmware(w0: u32, d: &[u32; DYN_WORDS], now: u32, table: &[u32]) -> (u8, bool) {
    match Splicer::timeout_class(w0, d) {
        None => (timeout_class::NONE, false),
        Some(c) => (
            c as u8,
            is_expired(now, FlowDyn::LAST_SEEN.get(d) as u32, table[c as usize]),
        ),
    }
}

fn random_entries(width: u32, free: bool) {
    let mut dp = Datapath::new(width).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0xa6e5 + u64::from(width));
    configure(&mut dp);
    let mut table = [0u32; TIMEOUT_CLASSES as usize];
    for t in &mut table {
        *t = rng.gen_range(0..40);
    }
    set_timeouts(&mut dp, &table);
    let now = dp.read(r(regs::dp::NOW));
    let mut want: BTreeMap<u16, (u32, [u32; DYN_WORDS])> = BTreeMap::new();
    for _ in 0..400 {
        let slot = rng.gen_range(0..FLOW_SLOTS) as u16;
        let state = match rng.gen_range(0..8) {
            0..=2 => flow_state::SPLICED,
            3..=5 => flow_state::CLOSING,
            _ => rng.gen_range(0..=5),
        };
        let mut flags: u8 = rng.gen();
        if rng.gen_bool(0.5) {
            flags &= !entry_flags::RST;
        }
        let mut td: u8 = rng.gen();
        if rng.gen_bool(0.4) {
            td |= teardown::ACKED_CS | teardown::ACKED_SC;
        }
        let age: u32 = match rng.gen_range(0..4) {
            0 => 0u32.wrapping_sub(rng.gen_range(1..10)),
            _ => rng.gen_range(0..60),
        };
        let mut st = [0u32; FlowStatic::WORDS];
        st[0] = FlowStatic::STATE.place32(state.into()) | FlowStatic::FLAGS.place32(flags.into());
        let mut dy = [0u32; DYN_WORDS];
        FlowDyn::TEARDOWN.put(&mut dy, td.into());
        FlowDyn::LAST_SEEN.put(&mut dy, now.wrapping_sub(age).into());
        write_state(&mut dp, slot, &st, &dy);
        want.insert(slot, (st[0], dy));
    }
    enable(&mut dp, 16, free);
    sweep(&mut dp, 1);
    let mut freed = 0;
    if free {
        // the first sweep freed the LINGER entries expired by then: FREE from here on
        let now = dp.read(r(regs::dp::NOW));
        for (&s, e) in want.iter_mut() {
            let (st, _) = read_state(&mut dp, s);
            if st[0] == 0 && e.0 != 0 {
                assert_eq!(
                    firmware(e.0, &e.1, now, &table),
                    (timeout_class::LINGER, true),
                    "slot {s} freed: {:#x} {:x?}",
                    e.0,
                    e.1
                );
                assert!(st.iter().all(|&w| w == 0), "slot {s} freed: {st:x?}");
                *e = (0, [0; DYN_WORDS]);
                freed += 1;
            }
        }
    }
    // one whole sweep from where the walk stands: stopped, its queue emptied, then run until
    // it is back at the same slot (it may read a slot or two past it before it stops)
    let (before, got, p) = one_walk(&mut dp);
    let after = dp.read(r(regs::dp::NOW));
    let mut by_slot = BTreeMap::new();
    for &(slot, class) in &got {
        let twice = by_slot.insert(slot, class).is_some();
        assert!(
            !twice || (slot.wrapping_sub(p) as u32 % FLOW_SLOTS) < 3,
            "slot {slot} queued twice in one walk from {p}"
        );
    }
    let (mut expired, mut either) = (0, 0);
    for s in 0..FLOW_SLOTS as u16 {
        let (w0, d) = want.get(&s).copied().unwrap_or((0, [0; DYN_WORDS]));
        let (c0, e0) = firmware(w0, &d, before, &table);
        let (_, e1) = firmware(w0, &d, after, &table);
        let g = by_slot.get(&s).copied();
        if e0 == e1 {
            assert_eq!(
                g,
                e0.then_some(c0),
                "slot {s}: {w0:#x} {d:x?}, now {before}"
            );
            expired += usize::from(e0);
        } else {
            // DP.NOW moved on during the sweep: the slot's expiry depends on when it was read
            either += 1;
            assert!(
                g.is_none() || g == Some(c0),
                "slot {s}: class {g:?}, want {c0}"
            );
        }
    }
    if free {
        // every LINGER entry expired when the walk began was freed in it
        for (&s, &(w0, d)) in &want {
            if firmware(w0, &d, before, &table) == (timeout_class::LINGER, true) {
                let (st, _) = read_state(&mut dp, s);
                assert!(st.iter().all(|&w| w == 0), "slot {s} not freed: {st:x?}");
                freed += 1;
            }
        }
        assert!(freed > 5, "too few LINGER entries freed ({freed})");
        assert!(
            dp.read(r(regs::dp::AGE_FREED)) as usize >= freed,
            "AGE_FREED"
        );
    }
    assert!(
        expired > 20,
        "too few expired entries ({expired}) to mean anything"
    );
    assert_eq!(dp.read(r(regs::dp::UPD_DROPS)), 0);
    eprintln!(
        "DATA_WIDTH {width}: {} entries, one sweep of {FLOW_SLOTS} slots: {expired} expired \
         as the firmware decides ({either} at DP.NOW's step during the sweep)",
        want.len()
    );
}

#[test]
fn random_entries_64() {
    random_entries(64, false);
}

#[test]
fn random_entries_512() {
    random_entries(512, false);
}

#[test]
fn random_entries_freed_64() {
    random_entries(64, true);
}

#[test]
fn random_entries_freed_512() {
    random_entries(512, true);
}
