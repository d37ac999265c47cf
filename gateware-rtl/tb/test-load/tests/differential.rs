//! load_sched against the firmware's IPVS schedulers and connection counts
//! (`splicenic_fw_logic::sched`): all 8 pools, each with a random scheduler (lc, wlc, sed,
//! nq, fo, ovf, and rr/twos whose pools are OFF), random operations one after the other
//! with random back-pressure on the answer port: picks (most of them binding the winner),
//! ESTABLISH, LEAVE, CLOSE of either count (of zero counts too: an underflow on both sides),
//! CONNECT, counts restored up to the counter range, reads, and server changes (added,
//! removed while draining, weights 0..65535, thresholds from none to beyond the range, health)
//! written as the firmware writes them: COUNTS 0 for a reused slot, CONFIG for every slot whose
//! `ServerSet::load_slots` entry changed (with the overload flag cleared when
//! `thresholds_clear_overload` says so), then the descriptor from `Scheduler::hw_load`.
//! Every answer must be the reference's: the same server or none, PUNT for OFF pools, the
//! same counts and overload flag on every read, an underflow exactly where the reference
//! refuses a count below zero; the statistics pulses must add up to the answers.
//!
//! `LOAD_TB_SEED`, `LOAD_TB_OPS` (default 1,000,000).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::sched::{
    hw_threshold, thresholds_clear_overload, Kind, LoadSlot, SchedConfig, SchedError, Scheduler,
    ServerConfig, ServerSet, MAX_WEIGHT,
};
use splicenic_layout::LoadMode;
use splicenic_tb_load::{Answer, Done, LoadSched, Op, Record, COUNT_MAX, POOLS, SLOTS};

const DEFAULT_SEED: u64 = 0x10ad_5c4e;
const DEFAULT_OPS: u64 = 1_000_000;
const KINDS: [Kind; 8] = [
    Kind::Lc,
    Kind::Wlc,
    Kind::Sed,
    Kind::Nq,
    Kind::Fo,
    Kind::Ovf,
    Kind::Rr,
    Kind::Twos,
];

type Sched = Scheduler<4, 4>;

struct Pool {
    id: u8,
    servers: ServerSet,
    sched: Sched,
    written: [LoadSlot; SLOTS],
    mode: LoadMode,
    next_addr: u32,
}

#[derive(Default, Debug)]
struct Tally {
    ops: u64,
    picks: u64,
    pick: u64,
    none: u64,
    punt: u64,
    bound: u64,
    underflows: u64,
    reads: u64,
    configs: u64,
    changes: u64,
    overloaded_seen: u64,
    max_total: u32,
}

fn rand_weight(rng: &mut StdRng) -> u32 {
    match rng.gen_range(0..10) {
        0 => 0,
        1 => rng.gen_range(0..=MAX_WEIGHT),
        _ => rng.gen_range(1..=6),
    }
}

fn rand_threshold(rng: &mut StdRng) -> u32 {
    match rng.gen_range(0..6) {
        0 | 1 => 0,
        2 => rng.gen_range(100_000..3_000_000),
        _ => rng.gen_range(1..40),
    }
}

impl Pool {
    fn new(id: u8, kind: Kind) -> Self {
        Pool {
            id,
            servers: ServerSet::new(),
            sched: Sched::new(SchedConfig::new(kind)),
            written: [LoadSlot::default(); SLOTS],
            mode: LoadMode::Off,
            next_addr: 0x0a00_0001,
        }
    }

    /// Writes what changed, as the firmware does after a change: CONFIG of every slot
    /// whose entry differs (`clear` marks the slot whose thresholds clear its flag), then
    /// the descriptor.
    fn sync(&mut self, hw: &mut LoadSched, clear: Option<usize>, t: &mut Tally) {
        let prog = self.sched.hw_load(&self.servers);
        for (slot, cfg) in prog.slots.iter().enumerate() {
            if *cfg != self.written[slot] || clear == Some(slot) {
                let op = Op::Config {
                    pool: self.id,
                    slot: slot as u8,
                    cfg: *cfg,
                    clear: clear == Some(slot),
                };
                let d = hw.exec(&op).expect("config");
                assert_eq!(d.answer, None);
                self.written[slot] = *cfg;
                t.configs += 1;
            }
        }
        hw.set_pool(self.id, prog.mode, prog.beats)
            .expect("descriptor");
        self.mode = prog.mode;
    }

    /// Slots the reference knows (present or draining).
    fn known(&self) -> Vec<usize> {
        (0..SLOTS)
            .filter(|&i| self.servers.get(i).is_some())
            .collect()
    }

    /// A known slot, 4 times in 5 one whose `count` is not zero (when there is one).
    fn slot_with(&self, rng: &mut StdRng, count: impl Fn(&Record) -> u32) -> usize {
        let known = self.known();
        let some: Vec<usize> = known
            .iter()
            .copied()
            .filter(|&i| count(&self.record(i)) > 0)
            .collect();
        if !some.is_empty() && rng.gen_bool(0.8) {
            some[rng.gen_range(0..some.len())]
        } else {
            known[rng.gen_range(0..known.len())]
        }
    }

    fn present(&self) -> Vec<usize> {
        self.servers.ids().collect()
    }

    /// Connections of the pool, and those of its servers below 1,000 (the others hold
    /// restored counts near the range, which a few closes do not move).
    fn totals(&self) -> (u32, u32) {
        self.known().iter().fold((0, 0), |(all, small), &i| {
            let s = self.servers.get(i).unwrap();
            let n = s.activeconns() + s.inactconns();
            (all + n, small + if n < 1000 { n } else { 0 })
        })
    }

    fn record(&self, slot: usize) -> Record {
        let s = self.servers.get(slot).expect("known slot");
        Record {
            active: s.activeconns(),
            inactive: s.inactconns(),
            overloaded: s.is_overloaded(),
            cfg: self.written[slot],
        }
    }
}

fn change(pool: &mut Pool, hw: &mut LoadSched, rng: &mut StdRng, t: &mut Tally) {
    t.changes += 1;
    let present = pool.present();
    let mut clear = None;
    match rng.gen_range(0..11) {
        0..=2 if present.len() < SLOTS => {
            let mut cfg = ServerConfig::new(pool.next_addr, 80, rand_weight(rng));
            pool.next_addr += 1;
            cfg.u_threshold = rand_threshold(rng);
            cfg.l_threshold = if rng.gen_bool(0.5) {
                0
            } else {
                rand_threshold(rng)
            };
            if let Ok(id) = pool.servers.add(cfg) {
                // a reused slot starts from zero, as the reference's new server does
                let op = Op::Counts {
                    pool: pool.id,
                    slot: id as u8,
                    active: 0,
                    inactive: 0,
                    overloaded: false,
                };
                hw.exec(&op).expect("counts");
            }
        }
        3 if !present.is_empty() => {
            let id = present[rng.gen_range(0..present.len())];
            pool.servers.remove(id).unwrap();
        }
        4 | 5 if !present.is_empty() => {
            let id = present[rng.gen_range(0..present.len())];
            pool.servers.set_weight(id, rand_weight(rng)).unwrap();
        }
        6 | 7 if !present.is_empty() => {
            let id = present[rng.gen_range(0..present.len())];
            let s = pool.servers.get(id).unwrap();
            let old = (s.u_threshold(), s.l_threshold());
            let new = (rand_threshold(rng), rand_threshold(rng));
            pool.servers.set_thresholds(id, new.0, new.1).unwrap();
            if thresholds_clear_overload(old, new) {
                clear = Some(id);
            }
        }
        8 if !present.is_empty() => {
            let id = present[rng.gen_range(0..present.len())];
            let up = !pool.servers.get(id).unwrap().is_available();
            pool.servers.set_available(id, up).unwrap();
        }
        10 if rng.gen_bool(0.25) => {
            // quiesce the pool: nothing may take a connection
            for id in present {
                pool.servers.set_weight(id, 0).unwrap();
            }
        }
        9 => {
            let kind = KINDS[rng.gen_range(0..KINDS.len())];
            pool.sched = Sched::new(SchedConfig::new(kind));
        }
        _ => {}
    }
    pool.sync(hw, clear, t);
}

fn check_read(pool: &Pool, hw: &mut LoadSched, slot: usize, ready: &mut impl FnMut(u64) -> bool) {
    let d = hw
        .exec_with(
            &Op::Read {
                pool: pool.id,
                slot: slot as u8,
            },
            ready,
        )
        .expect("read");
    assert_eq!(
        d.answer,
        Some(Answer::Data {
            server: slot as u8,
            record: pool.record(slot)
        }),
        "pool {} slot {slot}",
        pool.id
    );
}

fn underflow_matches(r: Result<(), SchedError>, d: &Done, what: &str) {
    match r {
        Ok(()) => assert!(!d.underflow, "{what}: the card counted an underflow"),
        Err(SchedError::CountUnderflow) => assert!(d.underflow, "{what}: no underflow"),
        Err(e) => panic!("{what}: reference refused with {e:?}"),
    }
}

#[test]
fn load_sched_answers_as_the_firmware_schedulers() {
    let seed = splicenic_fuzzkit::env_u64("LOAD_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("LOAD_TB_OPS").unwrap_or(DEFAULT_OPS);
    eprintln!("load_sched differential: seed {seed:#x}, {target} operations");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut ready_rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    let mut ready = move |_c: u64| ready_rng.gen_bool(0.7);
    let mut hw = LoadSched::new().expect("model");
    let mut t = Tally::default();
    let mut pools: Vec<Pool> = (0..POOLS)
        .map(|p| Pool::new(p as u8, KINDS[p % KINDS.len()]))
        .collect();
    for pool in pools.iter_mut() {
        for _ in 0..rng.gen_range(1..10) {
            let cfg = ServerConfig::new(pool.next_addr, 80, rand_weight(&mut rng));
            pool.next_addr += 1;
            pool.servers.add(cfg).unwrap();
        }
        pool.sync(&mut hw, None, &mut t);
    }
    // Some pools get many servers, so picks read every word.
    for _ in 0..60 {
        let cfg = ServerConfig::new(pools[1].next_addr, 80, rand_weight(&mut rng));
        pools[1].next_addr += 1;
        let _ = pools[1].servers.add(cfg);
    }
    pools[1].sync(&mut hw, None, &mut t);

    while t.ops < target {
        let pool = &mut pools[rng.gen_range(0..POOLS)];
        t.ops += 1;
        let known = pool.known();
        let present = pool.present();
        // close more while the pool holds many connections
        let busy = pool.totals().1 > 100 * (present.len() as u32 + 1);
        let roll = rng.gen_range(0..100);
        let pick_ok = !busy || rng.gen_bool(0.5);
        match roll {
            0..=34 if pick_ok => {
                let bind = rng.gen_bool(0.9);
                let d = hw
                    .exec_with(
                        &Op::Pick {
                            pool: pool.id,
                            bind,
                        },
                        &mut ready,
                    )
                    .expect("pick");
                t.picks += 1;
                let got = d.answer.expect("a pick is answered");
                if pool.mode == LoadMode::Off {
                    assert_eq!(got, Answer::Punt, "pool {} is OFF", pool.id);
                    t.punt += 1;
                    continue;
                }
                match pool.sched.pick(&pool.servers, 0, 0, 0) {
                    Some(id) => {
                        let Answer::Pick { server, record } = got else {
                            panic!(
                                "pool {} ({:?}): card {got:?}, reference {id}",
                                pool.id, pool.mode
                            );
                        };
                        assert_eq!(
                            usize::from(server),
                            id,
                            "pool {} ({:?})",
                            pool.id,
                            pool.mode
                        );
                        t.pick += 1;
                        if bind {
                            pool.servers.on_connect(id).unwrap();
                            assert_eq!(record, pool.record(id), "bound record");
                            t.bound += 1;
                        }
                    }
                    None => {
                        assert_eq!(got, Answer::None, "pool {} ({:?})", pool.id, pool.mode);
                        t.none += 1;
                    }
                }
            }
            35..=49 if !known.is_empty() => {
                let id = pool.slot_with(&mut rng, |r| r.inactive);
                let op = Op::Establish {
                    pool: pool.id,
                    slot: id as u8,
                };
                let d = hw.exec_with(&op, &mut ready).expect("establish");
                underflow_matches(pool.servers.on_established(id), &d, "establish");
                t.underflows += u64::from(d.underflow);
            }
            50..=57 if !known.is_empty() => {
                let id = pool.slot_with(&mut rng, |r| r.active);
                let op = Op::Leave {
                    pool: pool.id,
                    slot: id as u8,
                };
                let d = hw.exec_with(&op, &mut ready).expect("leave");
                underflow_matches(pool.servers.on_leave_established(id), &d, "leave");
                t.underflows += u64::from(d.underflow);
            }
            58..=84 if !known.is_empty() => {
                let active = rng.gen_bool(0.5);
                let id = pool.slot_with(&mut rng, |r| if active { r.active } else { r.inactive });
                let op = Op::Close {
                    pool: pool.id,
                    slot: id as u8,
                    active,
                };
                let d = hw.exec_with(&op, &mut ready).expect("close");
                underflow_matches(pool.servers.on_close(id, active), &d, "close");
                t.underflows += u64::from(d.underflow);
            }
            85..=87 if !present.is_empty() && !busy => {
                let id = present[rng.gen_range(0..present.len())];
                let op = Op::Connect {
                    pool: pool.id,
                    slot: id as u8,
                };
                let d = hw.exec_with(&op, &mut ready).expect("connect");
                assert!(!d.underflow);
                pool.servers.on_connect(id).unwrap();
            }
            88 if !known.is_empty() => {
                // counts up to the range, so the products use every bit
                let id = known[rng.gen_range(0..known.len())];
                let (a, i) = if rng.gen_bool(0.2) {
                    (
                        rng.gen_range(0..=COUNT_MAX / 2),
                        rng.gen_range(0..=COUNT_MAX / 2),
                    )
                } else {
                    (rng.gen_range(0..50), rng.gen_range(0..50))
                };
                let ovl = rng.gen_bool(0.3);
                let op = Op::Counts {
                    pool: pool.id,
                    slot: id as u8,
                    active: a,
                    inactive: i,
                    overloaded: ovl,
                };
                hw.exec_with(&op, &mut ready).expect("counts");
                pool.servers.restore_counts(id, a, i, ovl).unwrap();
            }
            89..=93 if !known.is_empty() => {
                let id = known[rng.gen_range(0..known.len())];
                check_read(pool, &mut hw, id, &mut ready);
                t.reads += 1;
            }
            94..=99 => change(pool, &mut hw, &mut rng, &mut t),
            _ => {}
        }
        let total = pool.totals().0;
        t.max_total = t.max_total.max(total);
        if t.ops % 20_000 == 0 {
            // every known slot of every pool
            for pool in pools.iter() {
                for id in pool.known() {
                    check_read(pool, &mut hw, id, &mut ready);
                    t.reads += 1;
                    t.overloaded_seen += u64::from(pool.servers.get(id).unwrap().is_overloaded());
                }
            }
        }
    }
    let ev = hw.events();
    eprintln!("{t:?}\n{ev:?}, {} cycles", hw.cycle());
    assert_eq!(ev.picks, t.pick);
    assert_eq!(ev.nones, t.none);
    assert_eq!(ev.punts, t.punt);
    assert_eq!(ev.underflows, t.underflows);
    // the run covered what it claims to
    assert!(t.pick > t.ops / 20 && t.none > 0 && t.punt > 0 && t.bound > 0);
    assert!(t.underflows > 0 && t.changes > 0 && t.overloaded_seen > 0);
    assert!(hw_threshold(u32::MAX) < 1 << 18);
}
