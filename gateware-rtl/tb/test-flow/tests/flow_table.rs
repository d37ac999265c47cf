//! flow_table against the software reference model (`RefTable`: HashMap + the same
//! Toeplitz hash + the same lowest-free-way choice), small build (256 buckets x 4 ways)
//! unless a test says otherwise.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_flow::reference::{bucket_of, RefStatus};
use splicenic_tb_flow::{Command, FlowTable, Key, LookupResult, Op, RefTable, Size, Status};

const WAYS: usize = 4;

fn rand_key(rng: &mut ChaCha8Rng) -> Key {
    Key::new(rng.gen(), rng.gen(), rng.gen(), rng.gen())
}

fn status(s: RefStatus) -> Status {
    match s {
        RefStatus::Ok => Status::Ok,
        RefStatus::Exists => Status::Exists,
        RefStatus::BucketFull => Status::BucketFull,
        RefStatus::NotFound => Status::NotFound,
    }
}

fn small() -> (FlowTable, RefTable) {
    let t = FlowTable::new(Size::Small).expect("model");
    assert_eq!(t.buckets(), 256);
    let r = RefTable::new(256, WAYS);
    (t, r)
}

/// Apply `cmd` to the reference and compare with the hardware response.
fn check_cmd(r: &mut RefTable, cmd: &Command, got: &splicenic_tb_flow::Response) {
    let b = bucket_of(&cmd.key, r.buckets);
    match cmd.op {
        Op::Insert => {
            let before = r.get(&cmd.key);
            let (st, way) = r.insert(cmd.key, cmd.value, cmd.dir);
            assert_eq!(got.status, status(st), "insert {cmd:?}");
            assert_eq!(got.bucket, b, "bucket of {cmd:?}");
            match st {
                RefStatus::Ok => {
                    assert_eq!(Some(got.way as usize), way, "way of {cmd:?}");
                    assert_eq!((got.value, got.dir), (cmd.value, cmd.dir));
                }
                RefStatus::Exists => {
                    assert_eq!(Some(got.way as usize), way);
                    assert_eq!(
                        Some((got.value, got.dir)),
                        before,
                        "stored entry of {cmd:?}"
                    );
                }
                _ => {}
            }
        }
        Op::Delete => {
            let (st, way) = r.delete(&cmd.key);
            assert_eq!(got.status, status(st), "delete {cmd:?}");
            assert_eq!(got.bucket, b);
            if st == RefStatus::Ok {
                assert_eq!(Some(got.way as usize), way);
            }
        }
        Op::Lookup => match r.get(&cmd.key) {
            Some((v, d)) => {
                assert_eq!(got.status, Status::Ok, "lookup {cmd:?}");
                assert_eq!((got.value, got.dir), (v, d));
            }
            None => assert_eq!(got.status, Status::NotFound, "lookup {cmd:?}"),
        },
        Op::Clear => {
            assert_eq!(got.status, Status::Ok);
            r.clear();
        }
    }
}

fn check_lookup(r: &RefTable, key: &Key, got: &LookupResult) {
    assert_eq!(
        got.bucket,
        bucket_of(key, r.buckets),
        "bucket (hash) of {key:?}"
    );
    match r.get(key) {
        Some((v, d)) => {
            assert!(got.hit, "miss for present {key:?}");
            assert_eq!((got.value, got.dir), (v, d), "value of {key:?}");
        }
        None => assert!(!got.hit, "hit for absent {key:?}"),
    }
}

fn check_stats(t: &mut FlowTable, r: &RefTable) {
    let s = t.stats();
    assert_eq!(s.entries as usize, r.len(), "entries");
    assert_eq!(s.inserts, r.stat_inserts, "inserts");
    assert_eq!(s.deletes, r.stat_deletes, "deletes");
    assert_eq!(s.exists, r.stat_exists, "exists");
    assert_eq!(s.bucket_full, r.stat_bucket_full, "bucket_full");
    assert_eq!(s.not_found, r.stat_not_found, "not_found");
}

/// `n` distinct keys of one bucket, found with the reference hash.
fn colliding_keys(rng: &mut ChaCha8Rng, buckets: u32, bucket: u32, n: usize) -> Vec<Key> {
    let mut v = Vec::new();
    while v.len() < n {
        let k = rand_key(rng);
        if bucket_of(&k, buckets) == bucket && !v.contains(&k) {
            v.push(k);
        }
    }
    v
}

#[test]
fn insert_lookup_delete_both_halves() {
    let (mut t, mut r) = small();
    assert!(t.stats().init_done);
    // A spliced flow: client half and server half, same slot, direction bit.
    let client = Key::new(0x0a00_0001, 0xc0a8_0064, 40000, 80);
    let server = Key::new(0x0a01_0002, 0x0a01_0001, 8080, 50000);
    for cmd in [
        Command::insert(client, 17, false),
        Command::insert(server, 17, true),
    ] {
        let rsp = t.command(cmd).expect("insert");
        check_cmd(&mut r, &cmd, &rsp);
        assert_eq!(rsp.status, Status::Ok);
    }
    // Firmware lookup through the command port.
    let rsp = t.command(Command::lookup(server)).expect("lookup");
    assert_eq!((rsp.status, rsp.value, rsp.dir), (Status::Ok, 17, true));
    // Data-path lookups: both halves, the reverse tuples (absent) and a random key.
    let keys = [
        client,
        server,
        client.reversed(),
        server.reversed(),
        Key::new(1, 2, 3, 4),
    ];
    let (res, _, _) = t.run(&keys, &[], 0).expect("lookups");
    for (k, g) in keys.iter().zip(&res) {
        check_lookup(&r, k, g);
    }
    assert!(res[0].hit && !res[0].dir && res[1].hit && res[1].dir);
    // Delete one half: only that one disappears.
    let cmd = Command::delete(client);
    let rsp = t.command(cmd).expect("delete");
    check_cmd(&mut r, &cmd, &rsp);
    assert_eq!(rsp.status, Status::Ok);
    let rsp = t.command(Command::lookup(client)).expect("lookup");
    assert_eq!(rsp.status, Status::NotFound);
    let (res, _, _) = t.run(&keys, &[], 0).expect("lookups");
    for (k, g) in keys.iter().zip(&res) {
        check_lookup(&r, k, g);
    }
    check_stats(&mut t, &r);
}

#[test]
fn duplicate_insert_reports_exists_and_keeps_entry() {
    let (mut t, mut r) = small();
    let k = Key::new(0x0102_0304, 0x0506_0708, 1111, 2222);
    for cmd in [Command::insert(k, 5, false), Command::insert(k, 9, true)] {
        let rsp = t.command(cmd).expect("insert");
        check_cmd(&mut r, &cmd, &rsp);
    }
    let rsp = t.command(Command::insert(k, 100, false)).expect("insert");
    assert_eq!((rsp.status, rsp.value, rsp.dir), (Status::Exists, 5, false));
    let (res, _, _) = t.run(&[k], &[], 0).expect("lookup");
    assert!(res[0].hit && res[0].value == 5 && !res[0].dir);
    assert_eq!(t.stats().exists, 2);
    assert_eq!(t.stats().entries, 1);
}

#[test]
fn delete_of_missing_key_reports_not_found() {
    let (mut t, mut r) = small();
    let k = Key::new(9, 8, 7, 6);
    let cmd = Command::delete(k);
    let rsp = t.command(cmd).expect("delete");
    check_cmd(&mut r, &cmd, &rsp);
    assert_eq!(rsp.status, Status::NotFound);
    // Insert, delete twice: the second one is NOT_FOUND.
    for cmd in [
        Command::insert(k, 1, false),
        Command::delete(k),
        Command::delete(k),
    ] {
        let rsp = t.command(cmd).expect("cmd");
        check_cmd(&mut r, &cmd, &rsp);
    }
    check_stats(&mut t, &r);
    assert_eq!(t.stats().not_found, 2);
}

#[test]
fn bucket_overflow_is_reported_with_the_bucket_index() {
    let (mut t, mut r) = small();
    let mut rng = ChaCha8Rng::seed_from_u64(0xb0c4);
    let bucket = 0x5a;
    let keys = colliding_keys(&mut rng, 256, bucket, WAYS + 2);
    for (i, k) in keys.iter().enumerate() {
        let cmd = Command::insert(*k, i as u16, i % 2 == 1);
        let rsp = t.command(cmd).expect("insert");
        check_cmd(&mut r, &cmd, &rsp);
        if i < WAYS {
            assert_eq!((rsp.status, rsp.way), (Status::Ok, i as u32));
        } else {
            assert_eq!((rsp.status, rsp.bucket), (Status::BucketFull, bucket));
        }
    }
    // The full bucket still answers for its keys; the overflowed ones miss.
    let (res, _, _) = t.run(&keys, &[], 0).expect("lookups");
    for (k, g) in keys.iter().zip(&res) {
        check_lookup(&r, k, g);
        assert_eq!(g.bucket, bucket);
    }
    // Free way 2: the overflowed key now goes there.
    for cmd in [
        Command::delete(keys[2]),
        Command::insert(keys[WAYS], 44, true),
    ] {
        let rsp = t.command(cmd).expect("cmd");
        check_cmd(&mut r, &cmd, &rsp);
        assert_eq!((rsp.status, rsp.way), (Status::Ok, 2));
    }
    check_stats(&mut t, &r);
}

#[test]
fn fill_until_bucket_full_statistics_match_reference() {
    let (mut t, mut r) = small();
    let mut rng = ChaCha8Rng::seed_from_u64(0xf111);
    let keys: Vec<Key> = (0..3000).map(|_| rand_key(&mut rng)).collect();
    let cmds: Vec<Command> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| Command::insert(*k, i as u16, i % 3 == 0))
        .collect();
    let (_, rsp, _) = t.run(&[], &cmds, 0).expect("fill");
    for (c, g) in cmds.iter().zip(&rsp) {
        check_cmd(&mut r, c, g);
    }
    check_stats(&mut t, &r);
    let s = t.stats();
    println!(
        "fill: {} of {} inserts stored ({} entries of 1024), {} BUCKET_FULL",
        s.inserts,
        cmds.len(),
        s.entries,
        s.bucket_full
    );
    assert!(
        s.bucket_full > 0 && s.entries > 900,
        "the table should be nearly full"
    );
    // Every key looked up back to back.
    let (res, _, st) = t.run(&keys, &[], 0).expect("lookups");
    for (k, g) in keys.iter().zip(&res) {
        check_lookup(&r, k, g);
    }
    assert_eq!(st.accept_span, keys.len() as u64);
    // CLEAR empties it.
    let rsp = t.command(Command::clear()).expect("clear");
    check_cmd(&mut r, &Command::clear(), &rsp);
    assert_eq!(t.stats().entries, 0);
    let (res, _, _) = t.run(&keys[..500], &[], 0).expect("lookups");
    assert!(res.iter().all(|g| !g.hit));
}

/// Lookups every cycle while inserts and deletes run: each result must match the
/// reference state after some command count within the lookup's window, and the window
/// holds at most the one command that overlapped it (before or after it, nothing else).
fn concurrent_run(bp_seed: u32) {
    let (mut t, mut r) = small();
    let mut rng = ChaCha8Rng::seed_from_u64(0xc0c0 + u64::from(bp_seed));
    // A small pool: a few buckets, colliding keys, so commands and lookups meet.
    let mut pool = Vec::new();
    for b in [3u32, 77, 200] {
        pool.extend(colliding_keys(&mut rng, 256, b, 7));
    }
    let n_cmds = 3000;
    let cmds: Vec<Command> = (0..n_cmds)
        .map(|i| {
            let k = pool[rng.gen_range(0..pool.len())];
            if rng.gen_bool(0.55) {
                Command::insert(k, i as u16, rng.gen())
            } else {
                Command::delete(k)
            }
        })
        .collect();
    // Reference versions: the pool's state after 0..=n commands.
    let mut versions = vec![pool.iter().map(|k| r.get(k)).collect::<Vec<_>>()];
    let mut sim = r.clone();
    for c in &cmds {
        match c.op {
            Op::Insert => {
                sim.insert(c.key, c.value, c.dir);
            }
            _ => {
                sim.delete(&c.key);
            }
        }
        versions.push(pool.iter().map(|k| sim.get(k)).collect());
    }
    let lookups: Vec<usize> = (0..25_000).map(|_| rng.gen_range(0..pool.len())).collect();
    let keys: Vec<Key> = lookups.iter().map(|&i| pool[i]).collect();
    let (res, rsp, st) = t.run(&keys, &cmds, bp_seed).expect("run");
    for (c, g) in cmds.iter().zip(&rsp) {
        check_cmd(&mut r, c, g);
    }
    let (mut overlapped, mut saw_new_in_window) = (0, 0);
    for ((&pi, k), g) in lookups.iter().zip(&keys).zip(&res) {
        assert!(g.ver_hi >= g.ver_lo, "window {g:?}");
        // Without backpressure a lookup (4 cycles) overlaps at most one command (5 cycles).
        assert!(bp_seed != 0 || g.ver_hi - g.ver_lo <= 1, "window {g:?}");
        let got = g.hit.then_some((g.value, g.dir));
        let ok: Vec<u32> = (g.ver_lo..=g.ver_hi)
            .filter(|&v| versions[v as usize][pi] == got)
            .collect();
        assert!(
            !ok.is_empty(),
            "lookup of {k:?} gave {got:?}, not the state at any of versions {}..={}: {:?}",
            g.ver_lo,
            g.ver_hi,
            &versions[g.ver_lo as usize..=g.ver_hi as usize]
                .iter()
                .map(|v| v[pi])
                .collect::<Vec<_>>()
        );
        if g.ver_hi > g.ver_lo && versions[g.ver_lo as usize][pi] != versions[g.ver_hi as usize][pi]
        {
            overlapped += 1;
            if ok == [g.ver_hi] {
                saw_new_in_window += 1;
            }
        }
        if (g.ver_lo as usize) < cmds.len() && g.ver_lo == g.ver_hi {
            // No command completed during the lookup: exact state.
            assert_eq!(versions[g.ver_lo as usize][pi], got);
        }
    }
    println!(
        "concurrent (bp {bp_seed}): {} lookups during {} commands, {} overlapped a change of \
         their own key ({} saw the new state), {} stall cycles",
        keys.len(),
        cmds.len(),
        overlapped,
        saw_new_in_window,
        st.stall_cycles
    );
    assert!(
        overlapped > 50,
        "the run should exercise overlapping lookups"
    );
    check_stats(&mut t, &r);
}

#[test]
fn lookups_every_cycle_during_inserts_and_deletes_see_before_or_after() {
    concurrent_run(0);
}

#[test]
fn lookups_with_result_backpressure_during_commands() {
    concurrent_run(0x1234_5678);
}

#[test]
fn random_operations_against_reference_20000() {
    let (mut t, mut r) = small();
    let mut rng = ChaCha8Rng::seed_from_u64(20_000);
    // Key universe a bit larger than the capacity, so every status occurs.
    let universe: Vec<Key> = (0..1500).map(|_| rand_key(&mut rng)).collect();
    let total = 20_000;
    let mut done = 0;
    while done < total {
        let chunk = 1000.min(total - done);
        let cmds: Vec<Command> = (0..chunk)
            .map(|i| {
                let k = universe[rng.gen_range(0..universe.len())];
                match rng.gen_range(0..10) {
                    0..=4 => Command::insert(k, (done + i) as u16, rng.gen()),
                    5..=7 => Command::delete(k),
                    _ => Command::lookup(k),
                }
            })
            .collect();
        let (_, rsp, _) = t.run(&[], &cmds, 0).expect("commands");
        assert_eq!(rsp.len(), cmds.len());
        for (c, g) in cmds.iter().zip(&rsp) {
            check_cmd(&mut r, c, g);
        }
        // Data-path view of a sample of the universe after the chunk.
        let sample: Vec<Key> = (0..300)
            .map(|_| universe[rng.gen_range(0..universe.len())])
            .collect();
        let (res, _, _) = t.run(&sample, &[], 0).expect("lookups");
        for (k, g) in sample.iter().zip(&res) {
            check_lookup(&r, k, g);
        }
        check_stats(&mut t, &r);
        done += chunk;
    }
    let s = t.stats();
    println!("20000 ops: {s:?}");
    assert!(s.exists > 0 && s.bucket_full > 0 && s.not_found > 0 && s.deletes > 0);
}

fn throughput(t: &mut FlowTable, r: &mut RefTable, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let present: Vec<Key> = (0..400).map(|_| rand_key(&mut rng)).collect();
    let cmds: Vec<Command> = present
        .iter()
        .enumerate()
        .map(|(i, k)| Command::insert(*k, i as u16, i % 2 == 0))
        .collect();
    let (_, rsp, _) = t.run(&[], &cmds, 0).expect("inserts");
    for (c, g) in cmds.iter().zip(&rsp) {
        check_cmd(r, c, g);
    }
    // 10,000 back-to-back lookups, half hits, half misses.
    let keys: Vec<Key> = (0..10_000)
        .map(|i| {
            if i % 2 == 0 {
                present[rng.gen_range(0..present.len())]
            } else {
                rand_key(&mut rng)
            }
        })
        .collect();
    let (res, _, st) = t.run(&keys, &[], 0).expect("lookups");
    for (k, g) in keys.iter().zip(&res) {
        check_lookup(r, k, g);
    }
    let rate = keys.len() as f64 / st.accept_span as f64;
    let lat = res[0].latency;
    println!(
        "flow_table {} buckets: {} lookups accepted in {} cycles = {:.2} lookups/cycle, \
         latency {} cycles (accept to result)",
        r.buckets,
        keys.len(),
        st.accept_span,
        rate,
        lat
    );
    assert_eq!(st.accept_span, keys.len() as u64);
    assert_eq!(format!("{rate:.2}"), "1.00");
    assert_eq!(st.stall_cycles, 0);
    assert!(
        res.iter().all(|g| g.latency == lat),
        "latency must be fixed"
    );
    assert_eq!(lat, 4);
}

#[test]
fn lookup_throughput_one_per_cycle_and_fixed_latency() {
    let (mut t, mut r) = small();
    throughput(&mut t, &mut r, 0x7470);
}

#[test]
fn default_size_64k_build_smoke() {
    let mut t = FlowTable::new(Size::Default).expect("model");
    assert_eq!(t.buckets(), 16384);
    assert!(t.stats().init_done);
    let mut r = RefTable::new(16384, WAYS);
    throughput(&mut t, &mut r, 0x64);
    let mut rng = ChaCha8Rng::seed_from_u64(0x64b);
    let keys = colliding_keys(&mut rng, 16384, 12345, WAYS + 1);
    for (i, k) in keys.iter().enumerate() {
        let cmd = Command::insert(*k, 60_000 + i as u16, true);
        let rsp = t.command(cmd).expect("insert");
        check_cmd(&mut r, &cmd, &rsp);
    }
    assert_eq!(t.stats().bucket_full, 1);
    check_stats(&mut t, &r);
}
