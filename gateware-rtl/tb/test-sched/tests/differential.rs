//! sched_unit against the firmware's IPVS schedulers (`splicenic_fw_logic::sched`): random
//! pools (rr, wrr, sh, dh, mh; fallback and port hashing on and off; 1-64 servers with random
//! weights, health and overload), compiled by `Scheduler::hw_program`, two pools at a time
//! with their requests interleaved and random back-pressure on both ports, and random server
//! changes between batches (the firmware's sequence: the pool OFF, its pointer read back,
//! `hw_advance`, the change, a new program). Every answer must be what the reference
//! scheduler, which picks every connection itself, answers: the same server for rr and wrr in
//! the same order across changes, and for the hash schedulers the entry the reference hash
//! functions index, PICK when its server is eligible, else PUNT with fallback, else NONE.
//!
//! `SCHED_TB_SEED`, `SCHED_TB_PICKS` (default 1,000,000).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::sched::{
    dh_hashkey, mh_hashkey, sh_hashkey, HwProgram, Kind, SchedConfig, Scheduler, ServerConfig,
    ServerSet, HASH_TABLE_SIZE, MH_TABLE_SIZE,
};
use splicenic_layout::{SchedMode, SchedStatus, SCHED_ENTRY_NONE, SCHED_MH_KEY};
use splicenic_tb_sched::{Descriptor, Request, Response, SchedUnit, POOLS, TABLE_ENTRIES};

const DEFAULT_SEED: u64 = 0x5c4e_d001;
const DEFAULT_PICKS: u64 = 1_000_000;
/// Each of the two pools of a round owns half of the table.
const REGION: usize = TABLE_ENTRIES / 2;
/// The table schedulers, and two the firmware keeps (their pools are OFF).
const KINDS: [Kind; 7] = [
    Kind::Rr,
    Kind::Wrr,
    Kind::Sh,
    Kind::Dh,
    Kind::Mh,
    Kind::Wlc,
    Kind::Lblc,
];

type Sched = Scheduler<4, 4>;

/// One pool under test: the servers, the reference scheduler (picks every connection), the
/// firmware's scheduler (compiles; moves only by `hw_advance`), the program and its table.
struct Pool {
    id: u8,
    region: usize,
    servers: ServerSet,
    reference: Sched,
    firmware: Sched,
    prog: HwProgram,
    table: Vec<u8>,
    offset: usize,
}

#[derive(Default, Debug)]
struct Tally {
    picks: u64,
    pick: u64,
    none: u64,
    punt: u64,
    programs: u64,
    changes: u64,
    cycle_len_max: usize,
    /// rr/wrr pools whose cycle did not fit their region (left to the firmware)
    cycle_too_long: u64,
    by_mode: [u64; 5],
}

fn random_servers(rng: &mut StdRng) -> ServerSet {
    let mut s = ServerSet::new();
    let n = match rng.gen_range(0..10) {
        0 => rng.gen_range(9..=64),
        _ => rng.gen_range(1..=8),
    };
    // heavy: long wrr cycles; huge: cycles longer than a table region (the pool stays OFF)
    let (heavy, huge) = (rng.gen_bool(0.2), rng.gen_bool(0.03));
    for k in 0..n {
        let w = match rng.gen_range(0..10) {
            0 => 0,
            _ if huge => rng.gen_range(1000..=3000),
            _ if heavy => rng.gen_range(1..=60),
            _ => rng.gen_range(1..=6),
        };
        let mut cfg = ServerConfig::new(
            0x0a00_0000 | (k as u32 + 1) << 8 | rng.gen::<u8>() as u32,
            8000 + k as u16,
            w,
        );
        if rng.gen_bool(0.1) {
            cfg.u_threshold = rng.gen_range(1..=3);
        }
        s.add(cfg).expect("add");
    }
    for id in s.ids().collect::<Vec<_>>() {
        if rng.gen_bool(0.05) {
            s.set_available(id, false).expect("health");
        }
    }
    s
}

/// A random change of the kind the firmware sees: weight, health, a server added or
/// removed, connections that set or clear an overload flag.
fn change(rng: &mut StdRng, s: &mut ServerSet) {
    let ids: Vec<usize> = s.ids().collect();
    let id = ids[rng.gen_range(0..ids.len())];
    match rng.gen_range(0..6) {
        0 => s.set_weight(id, rng.gen_range(0..=8)).expect("weight"),
        1 => {
            let up = !s.get(id).expect("server").is_available();
            s.set_available(id, up).expect("health")
        }
        2 if ids.len() < 64 => {
            let k = rng.gen::<u16>();
            let _ = s.add(ServerConfig::new(
                0x0b00_0000 | u32::from(k),
                9000,
                rng.gen_range(1..=6),
            ));
        }
        3 if ids.len() > 1 => {
            let sv = s.get(id).expect("server");
            if sv.activeconns() + sv.inactconns() == 0 {
                s.remove(id).expect("remove");
            }
        }
        4 => {
            s.set_thresholds(id, rng.gen_range(1..=2), 0)
                .expect("thresholds");
            s.on_connect(id).expect("connect");
        }
        _ => {
            let sv = s.get(id).expect("server");
            if sv.inactconns() > 0 {
                s.on_close(id, false).expect("close");
            } else {
                s.on_connect(id).expect("connect");
            }
        }
    }
}

fn new_pool(rng: &mut StdRng, id: u8, region: usize) -> Pool {
    let kind = KINDS[rng.gen_range(0..KINDS.len())];
    let mut cfg = SchedConfig::new(kind);
    cfg.fallback = rng.gen_bool(0.5);
    cfg.hash_port = rng.gen_bool(0.5);
    if rng.gen_bool(0.05) {
        cfg = cfg.with_persistence(360, 0xffff_ff00);
    }
    let servers = random_servers(rng);
    Pool {
        id,
        region,
        servers,
        reference: Sched::new(cfg),
        firmware: Sched::new(cfg),
        prog: HwProgram {
            mode: SchedMode::Off,
            fallback: false,
            hash_port: false,
            len: 0,
            loop_start: 0,
            eligible: 0,
        },
        table: vec![SCHED_ENTRY_NONE as u8; REGION],
        offset: 0,
    }
}

/// Compiles the pool and loads it into the card (table, mask, descriptor with the pointer at 0).
fn program(hw: &mut SchedUnit, p: &mut Pool, rng: &mut StdRng, t: &mut Tally) {
    let mut table = vec![SCHED_ENTRY_NONE as u8; REGION];
    let prog = p.firmware.hw_program(&p.servers, &mut table);
    assert!(prog.len <= REGION);
    // the region's free part moves the base around (the table must not depend on it)
    p.offset = rng.gen_range(0..=(REGION - prog.len.max(1)).min(512));
    hw.write_table(p.region + p.offset, &table[..prog.len])
        .expect("table");
    hw.write_eligible(p.id, prog.eligible).expect("mask");
    let base = (p.region + p.offset) as u16;
    hw.commit(p.id, &Descriptor::from_program(&prog, base))
        .expect("commit");
    if prog.mode == SchedMode::Cycle {
        t.cycle_len_max = t.cycle_len_max.max(prog.len);
    }
    let kind = p.firmware.config().kind;
    if prog.mode == SchedMode::Off
        && matches!(kind, Kind::Rr | Kind::Wrr)
        && p.firmware.config().persist_timeout == 0
    {
        t.cycle_too_long += 1;
    }
    p.table = table;
    p.prog = prog;
    t.programs += 1;
}

/// The firmware's change sequence: OFF (pointer kept), read the pointer back, bring the
/// firmware's scheduler to it, apply the change, compile and load again.
fn reprogram(hw: &mut SchedUnit, p: &mut Pool, rng: &mut StdRng, t: &mut Tally) {
    hw.commit(p.id, &Descriptor::off()).expect("off");
    let ptr = usize::from(hw.read_ptr(p.id).expect("ptr"));
    if p.prog.mode == SchedMode::Cycle {
        assert!(
            ptr < p.prog.len,
            "pointer {ptr} outside the cycle of {}",
            p.prog.len
        );
        p.firmware.hw_advance(&p.servers, ptr);
    } else {
        assert_eq!(ptr, 0, "a pool that is not a cycle moved its pointer");
    }
    for _ in 0..rng.gen_range(1..=3) {
        change(rng, &mut p.servers);
    }
    t.changes += 1;
    program(hw, p, rng, t);
}

/// The answer the reference gives, as (status, server), for one request.
fn expected(p: &mut Pool, r: &Request) -> (SchedStatus, Option<usize>) {
    let reference = p
        .reference
        .pick(&p.servers, r.client_ip, r.client_port, r.dst_ip);
    let prog = p.prog;
    let port = if prog.hash_port { r.client_port } else { 0 };
    let index = match prog.mode {
        SchedMode::Off => return (SchedStatus::Punt, reference),
        SchedMode::Cycle => {
            return (
                if reference.is_some() {
                    SchedStatus::Pick
                } else {
                    SchedStatus::None
                },
                reference,
            )
        }
        SchedMode::Sh => sh_hashkey(r.client_ip, port, 0),
        SchedMode::Dh => dh_hashkey(r.dst_ip, 0),
        SchedMode::Mh => {
            let key = u64::from_be_bytes(SCHED_MH_KEY);
            (mh_hashkey(r.client_ip, port, key, 0) % MH_TABLE_SIZE as u32) as usize
        }
    };
    let size = if prog.mode == SchedMode::Mh {
        MH_TABLE_SIZE
    } else {
        HASH_TABLE_SIZE
    };
    assert_eq!(prog.len, size);
    let first = p.table[index];
    if first >= 64 {
        assert_eq!(reference, None, "an empty bucket is no server");
        return (SchedStatus::None, None);
    }
    if prog.eligible >> first & 1 == 1 {
        assert_eq!(
            reference,
            Some(usize::from(first)),
            "an eligible bucket's server"
        );
        return (SchedStatus::Pick, reference);
    }
    if prog.fallback {
        (SchedStatus::Punt, reference)
    } else {
        assert_eq!(reference, None, "an ineligible bucket without fallback");
        (SchedStatus::None, None)
    }
}

fn check(pools: &mut [Pool; 2], reqs: &[Request], got: &[Response], t: &mut Tally) {
    assert_eq!(got.len(), reqs.len());
    for (r, g) in reqs.iter().zip(got) {
        assert_eq!(
            (g.tag, g.pool),
            (r.tag, r.pool),
            "responses in request order"
        );
        let p = pools.iter_mut().find(|p| p.id == r.pool).expect("pool");
        let (status, server) = expected(p, r);
        assert_eq!(
            g.status, status,
            "{:?} pool {} request {r:?}: status (reference {server:?})",
            p.prog.mode, p.id
        );
        if status == SchedStatus::Pick {
            assert_eq!(
                Some(usize::from(g.server)),
                server,
                "{:?} pool {}: server",
                p.prog.mode,
                p.id
            );
        }
        t.picks += 1;
        t.by_mode[usize::from(p.prog.mode.raw())] += 1;
        match g.status {
            SchedStatus::Pick => t.pick += 1,
            SchedStatus::None => t.none += 1,
            SchedStatus::Punt => t.punt += 1,
        }
    }
}

#[test]
fn rtl_equals_the_ipvs_schedulers() {
    let seed = splicenic_fuzzkit::env_u64("SCHED_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("SCHED_TB_PICKS").unwrap_or(DEFAULT_PICKS);
    println!("sched_unit differential test: seed {seed:#x} (SCHED_TB_SEED), {target} picks (SCHED_TB_PICKS)");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut hw = SchedUnit::new().expect("model");
    let mut t = Tally::default();
    let t0 = std::time::Instant::now();
    let mut tag: u16 = 0;
    let mut rounds = 0u64;
    while t.picks < target {
        rounds += 1;
        // two distinct pool ids, one table half each
        let a = rng.gen_range(0..POOLS) as u8;
        let b = (a + rng.gen_range(1..POOLS) as u8) % POOLS as u8;
        let mut pools = [new_pool(&mut rng, a, 0), new_pool(&mut rng, b, REGION)];
        for p in pools.iter_mut() {
            program(&mut hw, p, &mut rng, &mut t);
        }
        for _batch in 0..rng.gen_range(2..=8) {
            let n = rng.gen_range(1..=600);
            // clients: a few repeat (same hash bucket), most are new
            let reqs: Vec<Request> = (0..n)
                .map(|_| {
                    tag = tag.wrapping_add(1);
                    let p = &pools[rng.gen_range(0..2)];
                    Request {
                        pool: p.id,
                        client_ip: if rng.gen_bool(0.1) {
                            0xc0a8_0001
                        } else {
                            rng.gen()
                        },
                        client_port: rng.gen(),
                        dst_ip: rng.gen(),
                        tag,
                    }
                })
                .collect();
            let (po, pr) = match rng.gen_range(0..4) {
                0 => (1.0, 1.0),
                1 => (rng.gen_range(0.1..1.0), 1.0),
                2 => (1.0, rng.gen_range(0.05..1.0)),
                _ => (rng.gen_range(0.1..1.0), rng.gen_range(0.05..1.0)),
            };
            let mut r2 = StdRng::seed_from_u64(rng.gen());
            let mut r3 = StdRng::seed_from_u64(rng.gen());
            let got = hw
                .run(&reqs, |_| r2.gen_bool(po), |_| r3.gen_bool(pr), 20_000)
                .expect("answers");
            check(&mut pools, &reqs, &got, &mut t);
            // a change to one pool, loaded the firmware's way
            let k = rng.gen_range(0..2);
            reprogram(&mut hw, &mut pools[k], &mut rng, &mut t);
        }
    }
    println!(
        "  {} picks in {rounds} rounds ({:.1} s, {} cycles): PICK {}, NONE {}, PUNT {}; by mode OFF/CYCLE/SH/DH/MH {:?}; {} programs, {} changes, longest cycle {}, {} cycles too long for a region",
        t.picks,
        t0.elapsed().as_secs_f64(),
        hw.cycle(),
        t.pick,
        t.none,
        t.punt,
        t.by_mode,
        t.programs,
        t.changes,
        t.cycle_len_max,
        t.cycle_too_long
    );
    assert!(
        t.cycle_too_long > 0,
        "a cycle too long for its region was tried"
    );
    for (m, n) in t.by_mode.iter().enumerate() {
        assert!(*n > 0, "mode {m} never ran");
    }
    assert!(
        t.pick > 0 && t.none > 0 && t.punt > 0,
        "every status occurred: {t:?}"
    );
}
