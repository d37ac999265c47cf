//! flow_state_mem against a software reference (a Vec of `FlowEntry` with
//! `FlowEntry::apply` as the reference of the counter update), small build (256 slots).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_layout::teardown;
use splicenic_tb_flow::{FlowEntry, FlowStateMem, Half, Size, StateCmd, StateOp, Update};

fn rand_half(rng: &mut ChaCha8Rng) -> Half {
    Half {
        peer_mac: rng.gen::<u64>() & ((1 << 48) - 1),
        peer_ip: rng.gen(),
        peer_port: rng.gen(),
        local_ip: rng.gen(),
        local_port: rng.gen(),
    }
}

fn rand_entry(rng: &mut ChaCha8Rng) -> FlowEntry {
    FlowEntry {
        state: rng.gen(),
        flags: rng.gen::<u8>() & 7,
        ws_shift_diff: rng.gen_range(-14..=14),
        ts_offset: rng.gen(),
        seq_delta_c2s: rng.gen(),
        seq_delta_s2c: rng.gen(),
        fw_word: rng.gen(),
        gen: rng.gen(),
        client: rand_half(rng),
        server: rand_half(rng),
        last_seen: rng.gen(),
        pkts_c2s: rng.gen(),
        pkts_s2c: rng.gen(),
        bytes_c2s: rng.gen::<u64>() & ((1 << 48) - 1),
        bytes_s2c: rng.gen::<u64>() & ((1 << 48) - 1),
        fin_end_c2s: rng.gen(),
        fin_end_s2c: rng.gen(),
        teardown: rng.gen(),
    }
}

/// `new` written with WRITE_STATIC over `cur`: the dynamic part (counters, last-seen,
/// teardown) stays.
fn static_write(new: &FlowEntry, cur: &FlowEntry) -> FlowEntry {
    FlowEntry {
        last_seen: cur.last_seen,
        pkts_c2s: cur.pkts_c2s,
        pkts_s2c: cur.pkts_s2c,
        bytes_c2s: cur.bytes_c2s,
        bytes_s2c: cur.bytes_s2c,
        fin_end_c2s: cur.fin_end_c2s,
        fin_end_s2c: cur.fin_end_s2c,
        teardown: cur.teardown,
        ..*new
    }
}

/// A segment of `slot`: sometimes a FIN, sometimes an ACK near the other side's FIN end (so
/// both sides of the comparison and the 2^32 wrap are taken).
fn rand_update(rng: &mut ChaCha8Rng, slot: u32, time: u32, ends: &mut [u32; 2]) -> Update {
    let dir: bool = rng.gen();
    let fin = rng.gen_bool(0.05);
    let fin_end = if rng.gen_bool(0.7) {
        ends[usize::from(dir)]
    } else {
        rng.gen()
    };
    let other = ends[usize::from(!dir)];
    let ack_x = match rng.gen_range(0..4) {
        0 => other.wrapping_sub(1),
        1 => other,
        2 => other.wrapping_add(rng.gen_range(0..1 << 20)),
        _ => other.wrapping_sub(rng.gen_range(0..1 << 20)),
    };
    if fin {
        ends[usize::from(dir)] = fin_end;
    }
    Update {
        slot,
        dir,
        bytes: rng.gen_range(60..1519),
        time,
        fin,
        fin_end,
        ack: rng.gen_bool(0.9),
        ack_x,
    }
}

#[test]
fn write_and_read_whole_entries() {
    let mut m = FlowStateMem::new(Size::Small).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0xe17);
    let mut refm = vec![FlowEntry::default(); 256];
    for _ in 0..300 {
        let slot = rng.gen_range(0..256u32);
        let e = rand_entry(&mut rng);
        let op = if rng.gen_bool(0.3) {
            StateOp::WriteStatic
        } else {
            StateOp::Write
        };
        let rsp = m.command(op, slot, &e).expect("write");
        // A write returns the entry as it was before.
        assert_eq!(rsp.entry, refm[slot as usize], "old entry of slot {slot}");
        let cur = &mut refm[slot as usize];
        *cur = match op {
            StateOp::Write => e,
            _ => static_write(&e, cur),
        };
        assert!(rsp.cycles <= 3);
    }
    for slot in 0..256u32 {
        let rsp = m
            .command(StateOp::Read, slot, &FlowEntry::default())
            .expect("read");
        assert_eq!(rsp.entry, refm[slot as usize], "slot {slot}");
    }
    // Data-path reads: one per cycle, fixed latency 1, the static part.
    let reads: Vec<u32> = (0..2000).map(|_| rng.gen_range(0..256)).collect();
    let (rd, _, st) = m.run(&[], &reads, &[]).expect("reads");
    for r in &rd {
        assert_eq!(r.latency, 1);
        assert_eq!(
            r.entry,
            refm[r.slot as usize].static_only(),
            "slot {}",
            r.slot
        );
    }
    assert!(
        st.cycles <= reads.len() as u64 + 2,
        "one read per cycle: {st:?}"
    );
}

/// Updates every cycle (many back to back on one slot), firmware reads and writes
/// interleaved: every read returns the counters after exactly the updates accepted before
/// it (a consistent snapshot), and the counts at the end are exact.
#[test]
fn counter_updates_with_concurrent_command_reads_are_consistent() {
    let mut m = FlowStateMem::new(Size::Small).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0xc0ff);
    let slots: Vec<u32> = (0..8).map(|i| i * 31 + 5).collect();
    let mut refm = vec![FlowEntry::default(); 256];
    for &s in &slots {
        let e = FlowEntry {
            last_seen: 0,
            pkts_c2s: 0,
            pkts_s2c: 0,
            bytes_c2s: if s == slots[0] { (1 << 48) - 100 } else { 0 }, // wraps
            bytes_s2c: 0,
            teardown: 0,
            ..rand_entry(&mut rng)
        };
        m.command(StateOp::Write, s, &e).expect("init");
        refm[s as usize] = e;
    }
    // Updates: runs of the same slot to exercise the read-modify-write forwarding.
    // FIN ends per slot and side: the FINs a slot's segments repeat and the acks aim at.
    let mut ends: Vec<[u32; 2]> = (0..256).map(|_| [rng.gen(), rng.gen()]).collect();
    let mut upds = Vec::new();
    while upds.len() < 20_000 {
        let slot = slots[rng.gen_range(0..slots.len())];
        let run = rng.gen_range(1..6);
        for _ in 0..run {
            let t = upds.len() as u32 * 3 + 1;
            upds.push(rand_update(&mut rng, slot, t, &mut ends[slot as usize]));
        }
    }
    // Commands spread over the stream: mostly reads, some whole writes (counter reset)
    // and static-only writes.
    let mut cmds = Vec::new();
    let mut at = 0u32;
    while at < upds.len() as u32 {
        let op = match rng.gen_range(0..10) {
            0 => StateOp::Write,
            1 => StateOp::WriteStatic,
            _ => StateOp::Read,
        };
        cmds.push(StateCmd {
            op,
            slot: slots[rng.gen_range(0..slots.len())],
            at_update: at,
            entry: rand_entry(&mut rng),
        });
        at += rng.gen_range(0..40);
    }
    let (_, rsp, st) = m.run(&upds, &[], &cmds).expect("run");
    // Replay in the hardware's order: updates before each command, then the command.
    let mut applied = 0usize;
    for (c, r) in cmds.iter().zip(&rsp) {
        let k = r.updates_before as usize;
        assert!(k >= applied && k <= upds.len());
        for u in &upds[applied..k] {
            refm[u.slot as usize].apply(u);
        }
        applied = k;
        let cur = refm[c.slot as usize];
        assert_eq!(r.entry, cur, "command {c:?} after {k} updates");
        match c.op {
            StateOp::Write => refm[c.slot as usize] = c.entry,
            StateOp::WriteStatic => refm[c.slot as usize] = static_write(&c.entry, &cur),
            StateOp::Read => {}
        }
    }
    for u in &upds[applied..] {
        refm[u.slot as usize].apply(u);
    }
    let mut closed = 0;
    for &s in &slots {
        let r = m
            .command(StateOp::Read, s, &FlowEntry::default())
            .expect("read");
        assert_eq!(r.entry, refm[s as usize], "final slot {s}");
        closed += usize::from(r.entry.teardown & 0x0c == 0x0c);
    }
    let acks = upds.iter().filter(|u| u.ack).count();
    println!(
        "{closed} of {} slots saw both FINs acknowledged ({acks} ACKs)",
        slots.len()
    );
    let rate = upds.len() as f64 / st.upd_span as f64;
    println!(
        "flow_state_mem: {} updates in {} cycles = {:.3} updates/cycle with {} firmware \
         commands ({} stall cycles)",
        upds.len(),
        st.upd_span,
        rate,
        cmds.len(),
        st.upd_stalls
    );
    // Each command takes exactly one update slot, nothing else stalls.
    assert_eq!(st.upd_stalls, cmds.len() as u64);
}

/// Data-path reads every cycle while the firmware rewrites entries: each read returns the
/// entry after exactly the writes accepted up to its read cycle (whole, never torn).
#[test]
fn data_path_reads_during_firmware_writes_see_whole_entries() {
    let mut m = FlowStateMem::new(Size::Small).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0x4ead);
    let slots = [7u32, 8, 9];
    let reads: Vec<u32> = (0..5000).map(|_| slots[rng.gen_range(0..3)]).collect();
    let cmds: Vec<StateCmd> = (0..1500)
        .map(|_| StateCmd {
            op: StateOp::WriteStatic,
            slot: slots[rng.gen_range(0..3)],
            at_update: 0,
            entry: rand_entry(&mut rng),
        })
        .collect();
    let (rd, rsp, _) = m.run(&[], &reads, &cmds).expect("run");
    // versions[v][slot index]: static state after v writes.
    let mut versions = vec![[FlowEntry::default(); 3]];
    for c in &cmds {
        let mut v = *versions.last().unwrap_or(&[FlowEntry::default(); 3]);
        v[slots.iter().position(|&s| s == c.slot).unwrap_or(0)] = c.entry.static_only();
        versions.push(v);
    }
    for (i, r) in rsp.iter().enumerate() {
        assert_eq!(r.writes_before as usize, i);
    }
    let mut same_cycle = 0;
    for r in &rd {
        let si = slots.iter().position(|&s| s == r.slot).unwrap_or(0);
        assert_eq!(r.entry, versions[r.writes_seen as usize][si], "read {r:?}");
        if r.writes_seen > 0 && versions[r.writes_seen as usize - 1][si] != r.entry {
            same_cycle += 1;
        }
    }
    println!("{} reads, {} writes; {} reads saw a write of their slot from the same or the previous cycle", rd.len(), cmds.len(), same_cycle);
}

#[test]
fn default_size_64k_slots_smoke() {
    let mut m = FlowStateMem::new(Size::Default).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0x64);
    let mut e = rand_entry(&mut rng);
    for slot in [0u32, 1, 40_000, 65_535] {
        m.command(StateOp::Write, slot, &e).expect("write");
        let upds: Vec<Update> = (0..100)
            .map(|i| Update {
                slot,
                dir: i % 2 == 1,
                bytes: 100,
                time: 1000 + i,
                ..Update::default()
            })
            .collect();
        m.run(&upds, &[], &[]).expect("updates");
        let mut want = e;
        for u in &upds {
            want.apply(u);
        }
        let r = m.command(StateOp::Read, slot, &e).expect("read");
        assert_eq!(r.entry, want, "slot {slot}");
        e = rand_entry(&mut rng);
    }
}

/// A close as Linux does it, through the memory: the client's FIN, the server's ACK one
/// short of it and then at it, the server's FIN with the sequence numbers wrapping past
/// 2^32, its retransmission (the first end stays), the client's final ACK.
#[test]
fn teardown_flags_follow_a_close() {
    let mut m = FlowStateMem::new(Size::Small).expect("model");
    let slot = 17;
    let e = FlowEntry {
        teardown: 0,
        ..rand_entry(&mut ChaCha8Rng::seed_from_u64(0xf1))
    };
    m.command(StateOp::Write, slot, &e).expect("write");
    let seg = |dir: bool, fin: bool, fin_end: u32, ack_x: u32| Update {
        slot,
        dir,
        bytes: 66,
        time: 5,
        fin,
        fin_end,
        ack: true,
        ack_x,
    };
    let client_end = 0x1000_0000u32;
    let server_end = 2u32; // the server's FIN at 0xffff_ffff..
    let steps = [
        // (segment, teardown flags after it)
        (seg(false, true, client_end, 0xffff_fff0), teardown::FIN_CS),
        (seg(true, false, 0, client_end - 1), teardown::FIN_CS),
        (
            seg(true, false, 0, client_end),
            teardown::FIN_CS | teardown::ACKED_CS,
        ),
        (
            seg(true, true, server_end, client_end),
            teardown::FIN_CS | teardown::ACKED_CS | teardown::FIN_SC,
        ),
        (
            seg(true, true, server_end + 7, client_end),
            teardown::FIN_CS | teardown::ACKED_CS | teardown::FIN_SC,
        ),
        // an ack from before the wrap is behind the FIN
        (
            seg(false, false, 0, 0xffff_fffe),
            teardown::FIN_CS | teardown::ACKED_CS | teardown::FIN_SC,
        ),
        (
            seg(false, false, 0, server_end),
            teardown::FIN_CS | teardown::ACKED_CS | teardown::FIN_SC | teardown::ACKED_SC,
        ),
    ];
    let mut want = e;
    for (u, flags) in steps {
        m.run(&[u], &[], &[]).expect("update");
        want.apply(&u);
        let r = m.command(StateOp::Read, slot, &e).expect("read");
        assert_eq!(r.entry, want, "after {u:?}");
        assert_eq!(r.entry.teardown, flags, "after {u:?}");
    }
    assert_eq!(want.fin_end_c2s, client_end);
    assert_eq!(want.fin_end_s2c, server_end);
    // A WRITE of the whole entry (a new use of the slot) clears them.
    m.command(StateOp::Write, slot, &e).expect("write");
    let r = m.command(StateOp::Read, slot, &e).expect("read");
    assert_eq!(r.entry.teardown, 0);
}
