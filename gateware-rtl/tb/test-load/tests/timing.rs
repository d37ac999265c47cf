//! load_sched's cycle behaviour against its declarations in registers/records.toml: a PICK
//! is answered exactly LOAD_PICK_CYCLES + max(beats, 4) cycles after its acceptance for every
//! beats 1..32 (LOAD_BIND_CYCLES later when it binds) and in every mode, an OFF pool's PUNT
//! the next cycle, every other operation occupies LOAD_OP_CYCLES cycles (a READ is answered
//! after them), and a held answer holds the next operation until it is taken. Also prints
//! the module's busy cycles per connection (pick and bind, ESTABLISH, LEAVE, CLOSE) by pool
//! size (the next operation may be accepted in the cycle an operation's busy time ends), the
//! figure docs/load-sched.md records.

use splicenic_fw_logic::sched::LoadSlot;
use splicenic_layout::{LoadMode, LOAD_BIND_CYCLES, LOAD_OP_CYCLES, LOAD_PICK_CYCLES};
use splicenic_tb_load::{Answer, LoadSched, Op};

fn live(rank: u8, weight: u16) -> LoadSlot {
    LoadSlot {
        live: true,
        weight,
        rank,
        upper: 0,
        lower: 0,
    }
}

/// A pool of `n` live servers of weight 1.
fn fill(hw: &mut LoadSched, pool: u8, n: usize) {
    for slot in 0..n {
        let op = Op::Config {
            pool,
            slot: slot as u8,
            cfg: live(slot as u8, 1),
            clear: false,
        };
        hw.exec(&op).unwrap();
    }
}

#[test]
fn pick_latency_is_declared_for_every_size_and_mode() {
    let mut hw = LoadSched::new().unwrap();
    fill(&mut hw, 0, 64);
    for mode in [
        LoadMode::Lc,
        LoadMode::Wlc,
        LoadMode::Sed,
        LoadMode::Nq,
        LoadMode::Fo,
        LoadMode::Ovf,
    ] {
        for beats in 1..=32u8 {
            hw.set_pool(0, mode, beats).unwrap();
            for bind in [false, true] {
                let d = hw.exec(&Op::Pick { pool: 0, bind }).unwrap();
                let want = u64::from(LOAD_PICK_CYCLES)
                    + u64::from(beats.max(4))
                    + if bind { u64::from(LOAD_BIND_CYCLES) } else { 0 };
                assert!(matches!(d.answer, Some(Answer::Pick { .. })), "{mode:?}");
                assert_eq!(
                    d.answered,
                    Some(d.accepted + want),
                    "{mode:?} beats {beats} bind {bind}"
                );
                assert_eq!(d.ready_again, d.accepted + want + 1);
            }
        }
    }
    // OFF: PUNT at once
    hw.set_pool(0, LoadMode::Off, 32).unwrap();
    let d = hw
        .exec(&Op::Pick {
            pool: 0,
            bind: true,
        })
        .unwrap();
    assert_eq!(d.answer, Some(Answer::Punt));
    assert_eq!(d.answered, Some(d.accepted + 1));
}

#[test]
fn operations_occupy_the_declared_cycles() {
    let mut hw = LoadSched::new().unwrap();
    fill(&mut hw, 3, 2);
    let ops = [
        Op::Connect { pool: 3, slot: 1 },
        Op::Establish { pool: 3, slot: 1 },
        Op::Leave { pool: 3, slot: 1 },
        Op::Close {
            pool: 3,
            slot: 1,
            active: false,
        },
        Op::Close {
            pool: 3,
            slot: 1,
            active: false,
        },
        Op::Counts {
            pool: 3,
            slot: 0,
            active: 5,
            inactive: 6,
            overloaded: true,
        },
        Op::Config {
            pool: 3,
            slot: 0,
            cfg: live(0, 9),
            clear: true,
        },
    ];
    for op in ops {
        let d = hw.exec(&op).unwrap();
        assert_eq!(
            d.ready_again - d.accepted,
            u64::from(LOAD_OP_CYCLES),
            "{op:?}"
        );
    }
    let d = hw.exec(&Op::Read { pool: 3, slot: 0 }).unwrap();
    assert_eq!(d.answered, Some(d.accepted + u64::from(LOAD_OP_CYCLES)));
    let Some(Answer::Data { server: 0, record }) = d.answer else {
        panic!("{:?}", d.answer);
    };
    assert_eq!(
        (record.active, record.inactive, record.overloaded),
        (5, 6, false)
    );
    assert_eq!(record.cfg, live(0, 9));
    // a held answer holds the next operation
    let d = hw
        .exec_with(&Op::Read { pool: 3, slot: 1 }, |c| c % 10 == 0)
        .unwrap();
    let answered = d.answered.unwrap();
    assert_eq!(answered % 10, 0);
    assert!(answered >= d.accepted + u64::from(LOAD_OP_CYCLES));
    assert_eq!(d.ready_again, answered + 1);
}

#[test]
fn busy_cycles_per_connection_by_pool_size() {
    let mut hw = LoadSched::new().unwrap();
    fill(&mut hw, 2, 64);
    println!("load_sched busy cycles per connection (pick + bind, ESTABLISH, LEAVE, CLOSE):");
    for servers in [1usize, 2, 4, 8, 16, 32, 64] {
        let beats = servers.div_ceil(2) as u8;
        hw.set_pool(2, LoadMode::Wlc, beats).unwrap();
        // busy: from an operation's acceptance to the first cycle the next could be taken
        let d = hw
            .exec(&Op::Pick {
                pool: 2,
                bind: true,
            })
            .unwrap();
        let mut cycles = d.ready_again - d.accepted;
        let Some(Answer::Pick { server, .. }) = d.answer else {
            panic!("{:?}", d.answer);
        };
        for op in [
            Op::Establish {
                pool: 2,
                slot: server,
            },
            Op::Leave {
                pool: 2,
                slot: server,
            },
            Op::Close {
                pool: 2,
                slot: server,
                active: false,
            },
        ] {
            let d = hw.exec(&op).unwrap();
            assert!(!d.underflow);
            cycles += d.ready_again - d.accepted;
        }
        let want = u64::from(LOAD_PICK_CYCLES)
            + u64::from(beats.max(4))
            + u64::from(LOAD_BIND_CYCLES)
            + 1
            + 3 * u64::from(LOAD_OP_CYCLES);
        println!("  {servers:>2} servers ({beats:>2} words): {cycles} cycles");
        assert_eq!(cycles, want, "{servers} servers");
    }
}
