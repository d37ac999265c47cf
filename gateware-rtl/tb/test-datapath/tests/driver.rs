//! The host driver's typed data-path API (`splicenic_driver::datapath`) against the real
//! RTL: the test bench's CSR bus behind the driver's `Bar` trait (same offsets as BAR0).
//! A spliced flow installed through the API forwards frames exactly as the reference
//! rewrite says; its flow entry encodes to the same words as the test's own layout; punted
//! frames, events, counters, L7 rules and buffer matching, and injected frames all go
//! through the driver.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use splicenic_driver::datapath::{
    ChecksumOffload, Datapath as Api, Event, FlowCounters, FlowEntry, FlowHalf, FlowKey, FlowState,
    FlowStatus, HalfEntry, HostKind, L7Rule, PathKind, Port as ApiPort, StateWriter, TcpKind,
    TraceDetail, TraceKind,
};
use splicenic_driver::{Bar, BarError};
use splicenic_tb_datapath::testkit::*;
use splicenic_tb_datapath::{Datapath, Port};
use splicenic_tb_rewriter::reference;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::time::Duration;

/// The test bench as a BAR: offsets are CSR offsets; waiting runs the clock.
struct TbBar(Datapath);

impl Bar for TbBar {
    fn size(&self) -> u64 {
        1 << 20
    }
    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        Ok(self.0.read(offset as u32))
    }
    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        self.0.write(offset as u32, value);
        Ok(())
    }
    fn pause(&mut self, _d: Duration) -> Result<(), BarError> {
        self.0.tick(16);
        Ok(())
    }
    fn describe(&self) -> String {
        "splice_datapath test bench".into()
    }
}

fn ip(a: [u8; 4]) -> Ipv4Addr {
    Ipv4Addr::from(a)
}

fn entry(f: &Flow) -> FlowEntry {
    FlowEntry {
        generation: f.gen(),
        state: FlowState::Spliced,
        sack: f.flags & 1 != 0,
        timestamps: f.flags & 2 != 0,
        window_rescale: f.flags & 4 != 0,
        wscale_diff: f.wsd,
        real_server: f.rs,
        ts_offset: f.ts_off,
        seq_delta_cs: f.d_cs,
        seq_delta_sc: f.d_sc,
        client: HalfEntry {
            peer_mac: f.client_mac,
            peer_ip: ip(f.client_ip),
            peer_port: f.client_port,
            local_ip: ip(VIP),
            local_port: VIP_PORT,
        },
        server: HalfEntry {
            peer_mac: f.server_mac,
            peer_ip: ip(f.server_ip),
            peer_port: f.server_port,
            local_ip: ip(LOCAL),
            local_port: f.local_port,
        },
    }
}

#[test]
fn driver_api_on_the_rtl() {
    let mut bar = TbBar(Datapath::new(64).expect("model"));
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let f = Flow::sample(21);
    let e = entry(&f);
    // the host writes 0 into the firmware's word (the sample flow sets it to show the data
    // path ignores it)
    let mut want = f.static_words();
    want[splicenic_layout::FlowStatic::FW_WORD.lsb / 32] = 0;
    assert_eq!(e.to_words(), want, "flow entry layout");
    {
        let mut d = Api::new(&mut bar).expect("data path parameters");
        d.set_port_mac(ApiPort::Client, MAC_C).unwrap();
        d.set_port_mac(ApiPort::Server, MAC_S).unwrap();
        assert_eq!(d.port_mac(ApiPort::Server).unwrap(), MAC_S);
        d.set_vip(0, ip(VIP), VIP_PORT, true).unwrap();
        d.set_local(0, ip(LOCAL), true).unwrap();
        d.state_write(f.slot, &e, &FlowCounters::default()).unwrap();
        let ck = FlowKey {
            src: ip(f.client_ip),
            dst: ip(VIP),
            sport: f.client_port,
            dport: VIP_PORT,
        };
        let sk = FlowKey {
            src: ip(f.server_ip),
            dst: ip(LOCAL),
            sport: f.server_port,
            dport: f.local_port,
        };
        assert_eq!(
            d.flow_insert(&ck, f.slot, FlowHalf::Client).unwrap().status,
            FlowStatus::Ok
        );
        assert_eq!(
            d.flow_insert(&sk, f.slot, FlowHalf::Server).unwrap().status,
            FlowStatus::Ok
        );
        assert_eq!(
            d.flow_insert(&sk, 5, FlowHalf::Server).unwrap().status,
            FlowStatus::Exists
        );
        let r = d.flow_lookup(&sk).unwrap();
        assert_eq!(
            (r.status, r.slot, r.dir),
            (FlowStatus::Ok, f.slot, FlowHalf::Server)
        );
        assert_eq!(d.flow_entries().unwrap(), 2);
    }

    // spliced traffic both ways, a FIN, and a SYN from a new client
    let mut want = [Vec::new(), Vec::new()];
    for (i, port) in [Port::Client, Port::Server, Port::Client, Port::Server]
        .iter()
        .enumerate()
    {
        let flags = Flags {
            fin: i == 2,
            ..Flags::default()
        };
        let (b, l3, ihl, doff) = flow_frame(&mut rng, &f, *port, b"payload", flags, false);
        want[port.other() as usize].push(reference::rewrite(&b, &f.desc(*port, l3, ihl, doff)));
        bar.0.push(*port, &b, false);
    }
    let (syn, ..) = tcp_frame(
        &mut rng,
        [2, 7, 7, 7, 7, 7],
        MAC_C,
        [192, 168, 9, 9],
        VIP,
        1234,
        VIP_PORT,
        &[],
        Flags {
            syn: true,
            ..Flags::default()
        },
        false,
    );
    bar.0.push(Port::Client, &syn, false);
    // a RST of the spliced flow is punted with its flow, never forwarded
    let (rst, ..) = flow_frame(
        &mut rng,
        &f,
        Port::Server,
        b"",
        Flags {
            rst: true,
            ..Flags::default()
        },
        false,
    );
    bar.0.push(Port::Server, &rst, false);
    assert!(bar.0.settle(300, 1_000_000));
    for port in [Port::Client, Port::Server] {
        let got: Vec<Vec<u8>> = bar.0.drain(port).into_iter().map(|t| t.data).collect();
        assert_eq!(got, want[port as usize]);
    }

    let mut d = Api::new(&mut bar).unwrap();
    let (back, counters) = d.state_read(f.slot).unwrap();
    assert_eq!(back, e);
    assert_eq!((counters.packets_cs, counters.packets_sc), (2, 2));
    // both wait in the punt ring: the exception queue's mark is 2; no free-list mark yet
    let k = d.marks().unwrap();
    assert_eq!((k.punt_high, k.free_low), (2, None));
    // the two punted frames, in the order the punt arbiter took them
    let mut punts = [
        d.punt_next().unwrap().expect("SYN punted"),
        d.punt_next().unwrap().expect("RST punted"),
    ];
    punts.sort_by_key(|p| p.port() != ApiPort::Client);
    let [p, r] = punts;
    assert_eq!(p.data, syn);
    assert_eq!(p.port(), ApiPort::Client);
    assert_eq!(p.meta.tcp_kind, TcpKind::Syn);
    assert!(!p.meta.flow_hit);
    let p = r;
    assert_eq!(p.data, rst);
    assert_eq!(p.port(), ApiPort::Server);
    assert!(p.meta.flow_hit);
    assert_eq!(u32::from(p.meta.flow_slot), f.slot as u32);
    assert_eq!(p.meta.slot_gen, f.gen(), "the hit entry's generation");
    assert!(d.punt_next().unwrap().is_none());
    // the trace ring: the host's SPLICED write (untimed: no HANDSHAKE started it), the
    // forwarded FIN, the punted SYN; nothing lost
    let tr = d.trace().unwrap();
    assert_eq!((tr.lost, tr.overwritten_during_read), (0, 0));
    let kinds: Vec<TraceKind> = tr.entries.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [TraceKind::Spliced, TraceKind::Fin, TraceKind::SynPunted],
        "{tr:#?}"
    );
    let [sp, fin_e, syn_e] = [tr.entries[0], tr.entries[1], tr.entries[2]];
    assert_eq!((sp.slot, sp.gen, sp.timed), (f.slot, f.gen(), false));
    assert_eq!(sp.writer(), Some(StateWriter::Firmware));
    assert_eq!(
        sp.client(),
        Some(SocketAddrV4::new(ip(f.client_ip), f.client_port))
    );
    assert_eq!(sp.detail(), TraceDetail::Untimed);
    assert_eq!((fin_e.slot, fin_e.gen), (f.slot, f.gen()));
    assert_eq!(
        fin_e.detail(),
        TraceDetail::Fin {
            from: ApiPort::Client,
            flags: 0x19
        }
    );
    assert_eq!(
        syn_e.client(),
        Some(SocketAddrV4::new(ip([192, 168, 9, 9]), 1234))
    );
    // the mark stays until restarted, then starts from the empty ring
    assert_eq!(d.marks().unwrap().punt_high, 2);
    d.restart_marks().unwrap();
    let k = d.marks().unwrap();
    assert_eq!((k.punt_high, k.free_low), (0, Some(0)));
    let mut fin = None;
    let mut punt_ready = 0;
    while let Some(ev) = d.evq_pop().unwrap() {
        match ev {
            Event::FinRst {
                port,
                flow_slot,
                flow_gen,
                tcp_flags,
                plen,
                ..
            } => fin = Some((port, flow_slot, flow_gen, tcp_flags, plen)),
            Event::PuntReady { .. } => punt_ready += 1,
            other => panic!("unexpected event {other:?}"),
        }
    }
    assert_eq!(
        fin,
        Some((ApiPort::Client, f.slot as u32, f.gen(), 0x19, 7)),
        "FIN+PSH+ACK from the client with its 7 payload bytes"
    );
    assert_eq!(punt_ready, 2, "one PUNT_READY per punted frame");
    let s = d.stats_snapshot().unwrap();
    // rx C 3 (2 spliced + SYN), rx S 3 (2 spliced + RST), forwarded 2 and 2, punted 1 and 1
    assert_eq!((s[0], s[8], s[4], s[12], s[5], s[13]), (3, 3, 2, 2, 1, 1));
    // the same snapshot decoded: the flow's real server per direction agrees with the flow's
    // own counters (same frame-length measure)
    let t = d.stats().unwrap();
    assert_eq!(t.raw().len(), 512);
    let c = t.port(ApiPort::Client);
    assert_eq!(
        (c.rx_frames, c.forwarded, c.punted, c.dropped),
        (3, 2, 1, 0)
    );
    assert_eq!(t.port(ApiPort::Server).forwarded, 2);
    let rs = t.server(usize::from(f.rs));
    assert_eq!((rs.in_frames, rs.out_frames, rs.frames), (2, 2, 4));
    assert_eq!(
        (rs.in_bytes, rs.out_bytes),
        (counters.bytes_cs, counters.bytes_sc)
    );
    assert_eq!(rs.bytes, rs.in_bytes + rs.out_bytes);
    assert!(t.drop_reasons().iter().all(|&(_, n)| n == 0));

    // L7 rules through the driver's encoder, then a buffer match
    d.l7_clear_inactive().unwrap();
    d.l7_set_default_pool(9).unwrap();
    d.l7_load_rule(
        0,
        &L7Rule {
            priority: 5,
            path_kind: PathKind::Prefix,
            path: b"/static/".to_vec(),
            host_kind: HostKind::Suffix,
            host: b".Example.org".to_vec(),
            rule_id: 501,
            pool: 4,
        },
    )
    .unwrap();
    d.l7_switch_banks().unwrap();
    d.l7_match_buffer(
        b"GET /static/a.css HTTP/1.1\r\nHost: cdn.example.org\r\n\r\n",
        0x77,
    )
    .unwrap();
    d.l7_match_buffer(
        b"GET /other HTTP/1.1\r\nHost: cdn.example.org\r\n\r\n",
        0x78,
    )
    .unwrap();
    let mut matches = Vec::new();
    for _ in 0..100 {
        match d.evq_pop().unwrap() {
            Some(Event::RequestMatched(m)) => matches.push(m),
            Some(other) => panic!("unexpected event {other:?}"),
            None => {
                if matches.len() == 2 {
                    break;
                }
                d.now().unwrap();
            }
        }
    }
    assert_eq!(matches.len(), 2);
    assert!(matches[0].from_buffer && matches[0].matched);
    assert_eq!(
        (matches[0].tag, matches[0].rule_id, matches[0].pool),
        (0x77, 501, 4)
    );
    assert!(!matches[1].matched);
    assert_eq!((matches[1].tag, matches[1].pool), (0x78, 9));

    // inject with checksum offload
    let (good, ..) = flow_frame(
        &mut rng,
        &f,
        Port::Client,
        b"from the firmware",
        Flags::default(),
        false,
    );
    let mut blank = good.clone();
    blank[24] = 0;
    blank[25] = 0;
    blank[50] = 0;
    blank[51] = 0;
    let ip_total = u16::from_be_bytes([good[16], good[17]]);
    d.inject(
        ApiPort::Server,
        &blank,
        Some(ChecksumOffload {
            ip_off: 14,
            l4_off: 34,
            l4_end: 14 + ip_total,
            ip: true,
            tcp: true,
        }),
    )
    .unwrap();
    assert!(bar.0.settle(200, 200_000));
    let out = bar.0.drain(Port::Server);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].data, good);

    // the free list's mark: 3 slots pushed, the mark restarted at 3, the list flushed
    use splicenic_driver::regs::dp;
    for slot in 10..13u32 {
        bar.0.write(dp::FREE_PUSH as u32, slot);
    }
    let mut d = Api::new(&mut bar).unwrap();
    assert_eq!(d.ack_validator().unwrap().free_level, 3);
    d.restart_marks().unwrap();
    assert_eq!(d.marks().unwrap().free_low, Some(3));
    bar.0
        .write(dp::FREE_CTRL as u32, 1 << dp::free_ctrl::FLUSH_SHIFT);
    bar.0.tick(10);
    let mut d = Api::new(&mut bar).unwrap();
    let k = d.marks().unwrap();
    assert_eq!((k.free_low, k.free_depth), (Some(0), 512));
}

/// The decision supply (DP.SCHED_*, docs/sched-unit.md) through the driver on the integrated
/// data path: wrr, sh, dh and mh pools compiled by the firmware's `Scheduler::hw_program` and
/// loaded with `sched_load` answer every pick as `Scheduler::pick` does (wrr in order across a
/// change made the firmware's way: OFF, pointer read back, `hw_advance`, the change, a new
/// load); the counters count the answers; bad arguments are refused before any write.
#[test]
fn decision_supply_through_the_driver() {
    use rand::Rng;
    use splicenic_driver::datapath::{SchedDescriptor, SchedStatus};
    use splicenic_driver::DriverError;
    use splicenic_fw_logic::sched::{Kind, SchedConfig, Scheduler, ServerConfig, ServerSet};

    for width in [64, 512] {
        let mut bar = TbBar(Datapath::new(width).expect("model"));
        let mut d = Api::new(&mut bar).expect("data path parameters");
        let mut rng = ChaCha8Rng::seed_from_u64(u64::from(width));
        let mut servers = ServerSet::new();
        for (k, w) in [3u32, 1, 0, 2, 5].into_iter().enumerate() {
            servers
                .add(ServerConfig::new(0x0a00_0100 + k as u32, 8080, w))
                .expect("server");
        }
        let kinds = [(0, Kind::Wrr), (1, Kind::Sh), (2, Kind::Dh), (3, Kind::Mh)];
        let mut pools: Vec<(usize, Scheduler<4, 4>, Scheduler<4, 4>, usize)> = Vec::new();
        // one region each: wrr 0.., sh 1024.., dh 2048.., mh 4096..
        for (pool, kind) in kinds {
            let base = if kind == Kind::Mh { 4096 } else { pool * 1024 };
            let mut cfg = SchedConfig::new(kind);
            cfg.hash_port = true;
            let mut fw = Scheduler::new(cfg);
            let mut table = vec![0u8; 4096];
            let prog = fw.hw_program(&servers, &mut table);
            d.sched_load(pool, base, &prog, &table).expect("load");
            pools.push((pool, fw, Scheduler::new(cfg), base));
        }
        let mut counted = (0u32, 0u32);
        let mut round = |d: &mut Api,
                         pools: &mut Vec<(usize, Scheduler<4, 4>, Scheduler<4, 4>, usize)>,
                         servers: &ServerSet| {
            for _ in 0..60 {
                let (pool, _, reference, _) = &mut pools[rng.gen_range(0..4)];
                let (client, port, dst): (u32, u16, u32) = (rng.gen(), rng.gen(), rng.gen());
                let got = d
                    .sched_pick(*pool, Ipv4Addr::from(client), port, Ipv4Addr::from(dst))
                    .expect("pick");
                // no fallback: an ineligible bucket is no server, as pick says
                match reference.pick(servers, client, port, dst) {
                    Some(id) => {
                        assert_eq!(got.status, SchedStatus::Pick, "pool {pool}");
                        assert_eq!(usize::from(got.server), id, "pool {pool}");
                        counted.0 += 1;
                    }
                    None => {
                        assert_eq!(got.status, SchedStatus::None, "pool {pool}");
                        counted.1 += 1;
                    }
                }
            }
        };
        round(&mut d, &mut pools, &servers);
        // a change: server 1 quiesced, server 2 weighted; wrr moved to the card's place first
        d.sched_commit(0, &SchedDescriptor::off()).expect("off");
        let ptr = d.sched_pointer(0).expect("pointer");
        pools[0].1.hw_advance(&servers, ptr.into());
        servers.set_weight(1, 0).expect("weight");
        servers.set_weight(2, 4).expect("weight");
        for (pool, fw, _, at) in pools.iter_mut() {
            let mut table = vec![0u8; 4096];
            let prog = fw.hw_program(&servers, &mut table);
            d.sched_load(*pool, *at, &prog, &table).expect("reload");
        }
        round(&mut d, &mut pools, &servers);
        let c = d.sched_counters().expect("counters");
        assert_eq!((c.picks, c.nones, c.punts), (counted.0, counted.1, 0));
        assert!(counted.0 > 100 && counted.1 > 0, "{counted:?}");
        // an OFF pool is punted
        d.sched_commit(5, &SchedDescriptor::off()).expect("off");
        let a = d
            .sched_pick(5, Ipv4Addr::LOCALHOST, 1, Ipv4Addr::LOCALHOST)
            .expect("pick");
        assert_eq!(a.status, SchedStatus::Punt);
        assert_eq!(d.sched_counters().expect("counters").punts, 1);
        // refusals
        assert!(matches!(
            d.sched_set_mask(8, 1),
            Err(DriverError::Datapath(_))
        ));
        assert!(matches!(
            d.sched_write_table(8190, &[0; 3]),
            Err(DriverError::Datapath(_))
        ));
        // a request written before the previous answer came: the answer shown is the second's
        // (pool 5 is OFF: PUNT; pool 0 picks), whatever the cycle the first answer lands in
        use splicenic_driver::regs::dp;
        for gap in 0..16 {
            let tb = &mut bar.0;
            tb.write(dp::SCHED_REQ as u32, 5 << dp::sched_req::POOL_SHIFT);
            tb.tick(gap);
            tb.write(dp::SCHED_REQ as u32, 0);
            let mut v = 0;
            for _ in 0..100 {
                v = tb.read(dp::SCHED_RSP as u32);
                if v >> dp::sched_rsp::DONE_SHIFT & 1 == 1 {
                    break;
                }
            }
            let status = v >> dp::sched_rsp::STATUS_SHIFT & dp::sched_rsp::STATUS_MASK;
            assert_eq!(
                status,
                u32::from(SchedStatus::Pick.raw()),
                "gap {gap}: {v:#x}"
            );
        }
    }
}

/// The least-load decision supply (load_sched) through the driver's API on the Verilated
/// data path: lc, wlc, nq and ovf pools compiled by the firmware's `Scheduler::hw_load` and
/// loaded with `load_program` answer every binding pick as `Scheduler::pick` does, with the
/// counts moved by the driver's events as the reference's `ServerSet` moves them (an
/// underflow reported where the reference refuses); reads return the reference's counts,
/// the counters count the answers, an operation written while one runs is refused and
/// counted, and bad arguments are refused before any write.
#[test]
fn least_load_supply_through_the_driver() {
    use rand::Rng;
    use splicenic_driver::datapath::{LoadAnswer, LoadCounts, LoadEvent, LoadMode, LoadSlot};
    use splicenic_driver::DriverError;
    use splicenic_fw_logic::sched::{
        Kind, SchedConfig, SchedError, Scheduler, ServerConfig, ServerSet,
    };

    for width in [64, 512] {
        let mut bar = TbBar(Datapath::new(width).expect("model"));
        let mut d = Api::new(&mut bar).expect("data path parameters");
        let mut rng = ChaCha8Rng::seed_from_u64(u64::from(width) + 7);
        let kinds = [Kind::Wlc, Kind::Lc, Kind::Nq, Kind::Ovf];
        let mut pools: Vec<(ServerSet, Scheduler<4, 4>)> = Vec::new();
        for (pool, kind) in kinds.into_iter().enumerate() {
            let mut servers = ServerSet::new();
            for (k, w) in [3u32, 1, 0, 2, 5].into_iter().enumerate() {
                let mut cfg = ServerConfig::new(0x0a00_0100 + k as u32, 8080, w);
                if k == 3 {
                    cfg.u_threshold = 4;
                }
                servers.add(cfg).expect("server");
            }
            let s = Scheduler::new(SchedConfig::new(kind));
            let prog = s.hw_load(&servers);
            assert_ne!(prog.mode, LoadMode::Off);
            d.load_program(pool, &prog, None).expect("program");
            pools.push((servers, s));
        }
        let (mut picks, mut nones, mut unders) = (0u32, 0u32, 0u32);
        for _ in 0..120 {
            let pool = rng.gen_range(0..pools.len());
            let (servers, s) = &mut pools[pool];
            if rng.gen_bool(0.5) {
                let got = d.load_pick(pool, true).expect("pick");
                match s.pick(servers, 0, 0, 0) {
                    Some(id) => {
                        assert_eq!(got, LoadAnswer::Pick(id as u8), "pool {pool}");
                        servers.on_connect(id).expect("connect");
                        picks += 1;
                    }
                    None => {
                        assert_eq!(got, LoadAnswer::None, "pool {pool}");
                        nones += 1;
                    }
                }
            } else {
                let id = rng.gen_range(0..5);
                let (ev, r) = match rng.gen_range(0..3) {
                    0 => (LoadEvent::Establish, servers.on_established(id)),
                    1 => (
                        LoadEvent::Close { active: true },
                        servers.on_close(id, true),
                    ),
                    _ => (
                        LoadEvent::Close { active: false },
                        servers.on_close(id, false),
                    ),
                };
                let under = d.load_event(pool, id, ev).expect("event");
                assert_eq!(under, r == Err(SchedError::CountUnderflow), "{ev:?}");
                unders += u32::from(under);
            }
        }
        for (pool, (servers, _)) in pools.iter().enumerate() {
            for id in 0..5 {
                let s = servers.get(id).expect("server");
                let want = LoadCounts {
                    active: s.activeconns(),
                    inactive: s.inactconns(),
                    overloaded: s.is_overloaded(),
                };
                assert_eq!(
                    d.load_read(pool, id).expect("read"),
                    want,
                    "pool {pool} {id}"
                );
            }
        }
        // counts restored, then read back
        let c = LoadCounts {
            active: 300,
            inactive: 7,
            overloaded: true,
        };
        d.load_set_counts(0, 4, c).expect("counts");
        assert_eq!(d.load_read(0, 4).expect("read"), c);
        // an OFF pool is punted
        d.load_set_pool(6, LoadMode::Off, 1).expect("off");
        assert_eq!(d.load_pick(6, true).expect("pick"), LoadAnswer::Punt);
        let c = d.load_counters().expect("counters");
        assert_eq!(
            (c.picks, c.nones, c.punts, c.underflows, c.refused),
            (picks, nones, 1, unders, 0)
        );
        assert!(picks > 20 && unders > 0, "{picks} {unders}");
        // refusals before any write
        let slot = LoadSlot::default();
        let big = LoadSlot {
            upper: splicenic_layout::LOAD_THRESHOLD_MAX + 1,
            ..slot
        };
        for r in [
            d.load_config(8, 0, &slot, false),
            d.load_config(0, 64, &slot, false),
            d.load_config(0, 0, &big, false),
            d.load_set_pool(0, LoadMode::Lc, 0),
            d.load_set_pool(0, LoadMode::Lc, 33),
            d.load_set_counts(
                0,
                0,
                LoadCounts {
                    active: 1 << 15,
                    ..LoadCounts::default()
                },
            ),
            d.load_event(0, 64, LoadEvent::Connect).map(|_| ()),
        ] {
            assert!(matches!(r, Err(DriverError::Datapath(_))), "{r:?}");
        }
        // an operation written while one runs is refused and counted
        use splicenic_driver::regs::dp;
        let tb = &mut bar.0;
        tb.write(dp::LOAD_OP as u32, 0);
        tb.write(dp::LOAD_OP as u32, 0);
        let mut v = 0;
        for _ in 0..200 {
            v = tb.read(dp::LOAD_RSP as u32);
            if v >> dp::load_rsp::DONE_SHIFT & 1 == 1 {
                break;
            }
        }
        assert_eq!(v >> dp::load_rsp::DONE_SHIFT & 1, 1, "{v:#x}");
        assert_eq!(tb.read(dp::LOAD_REFUSED as u32), 1);
    }
}

/// The setup clock and the trace ring through the driver: a HANDSHAKE write starts a slot's
/// clock and its first SPLICED write stops it, the latency equal to the two entries' times;
/// a FREE drops a start; a HANDSHAKE of a slot 512 further replaces one (SETUP_OVERWRITTEN);
/// REQUEST starts a clock that has not started;
/// the histogram's bucket of each timed setup; recording off and on; the decision supply's
/// answers as PICK entries.
#[test]
fn trace_and_setup_latency_through_the_driver() {
    use splicenic_driver::datapath::{LoadAnswer, PickUnit, SETUP_UNIT_CYCLES};

    for width in [64, 512] {
        let mut bar = TbBar(Datapath::new(width).expect("model"));
        let f = Flow::sample(5);
        let mut e = entry(&f);
        let mut d = Api::new(&mut bar).expect("data path parameters");
        let h0 = d.setup_histogram().unwrap();
        let write = |d: &mut Api<'_>, slot: u16, state: FlowState, e: &mut FlowEntry| {
            e.state = state;
            d.state_write(slot, e, &FlowCounters::default()).unwrap();
        };
        let a = f.slot;
        let b = a ^ 512; // same timing entry as a
        let c = a ^ 1;
        // a: HANDSHAKE .. SPLICED, timed; c: HANDSHAKE, FREE, SPLICED: not timed
        write(&mut d, a, FlowState::Handshake, &mut e);
        write(&mut d, c, FlowState::Handshake, &mut e);
        write(&mut d, a, FlowState::Request, &mut e);
        write(&mut d, a, FlowState::Connecting, &mut e);
        write(&mut d, c, FlowState::Free, &mut e);
        write(&mut d, a, FlowState::Spliced, &mut e);
        write(&mut d, c, FlowState::Spliced, &mut e);
        // a again (a new connection in the slot), then b replaces its start: a's SPLICED
        // is not timed, b's is
        write(&mut d, a, FlowState::Handshake, &mut e);
        write(&mut d, b, FlowState::Handshake, &mut e);
        write(&mut d, a, FlowState::Spliced, &mut e);
        write(&mut d, b, FlowState::Spliced, &mut e);
        // a second SPLICED write of b (an update) is not a second setup
        write(&mut d, b, FlowState::Spliced, &mut e);
        // recording off: the clock still runs, nothing is recorded
        d.trace_enable(false).unwrap();
        write(&mut d, c, FlowState::Handshake, &mut e);
        write(&mut d, c, FlowState::Spliced, &mut e);
        d.trace_enable(true).unwrap();
        write(&mut d, c, FlowState::Closing, &mut e);
        write(&mut d, c, FlowState::Free, &mut e);
        // a handshake the firmware completed without HANDSHAKE: REQUEST starts the clock,
        // CONNECTING does not restart it
        write(&mut d, c, FlowState::Request, &mut e);
        write(&mut d, c, FlowState::Connecting, &mut e);
        write(&mut d, c, FlowState::Spliced, &mut e);

        let tr = d.trace().unwrap();
        assert_eq!((tr.lost, tr.overwritten_during_read), (0, 0));
        let got: Vec<(TraceKind, u16, bool)> = tr
            .entries
            .iter()
            .map(|e| (e.kind, e.slot, e.timed))
            .collect();
        let (a16, b16, c16) = (a, b, c);
        let want = {
            use TraceKind::*;
            [
                (Handshake, a16, false),
                (Handshake, c16, false),
                (Request, a16, false),
                (Connecting, a16, false),
                (Free, c16, false),
                (Spliced, a16, true),
                (Spliced, c16, false),
                (Handshake, a16, false),
                (Handshake, b16, false),
                (Spliced, a16, false),
                (Spliced, b16, true),
                (Spliced, b16, false),
                (Closing, c16, false),
                (Free, c16, false),
                (Request, c16, false),
                (Connecting, c16, false),
                (Spliced, c16, true),
            ]
        };
        assert_eq!(got, want, "DATA_WIDTH {width}");
        for x in &tr.entries {
            assert_eq!(x.writer(), Some(StateWriter::Firmware));
            assert_eq!(x.gen, f.gen());
            assert_eq!(
                x.client(),
                Some(SocketAddrV4::new(ip(f.client_ip), f.client_port))
            );
        }
        // Each timed latency from its own HANDSHAKE entry: an entry's time is its write's
        // cycle + 4 (the setup pipeline), the clock counts cycles / 16.
        let unit = |t: u32| (t.wrapping_sub(4) / SETUP_UNIT_CYCLES as u32) as u16;
        let mut lat = Vec::new();
        for (hs, sp) in [(0, 5), (8, 10), (14, 16)] {
            let (h, s) = (tr.entries[hs], tr.entries[sp]);
            let want = unit(s.time).wrapping_sub(unit(h.time));
            assert!(want > 0, "some cycles between the writes");
            assert_eq!(
                s.detail(),
                TraceDetail::SetupLatency {
                    units: want,
                    saturated: false
                },
                "DATA_WIDTH {width}: {h:?} -> {s:?}"
            );
            lat.push(u64::from(want));
        }
        let h = d.setup_histogram().unwrap();
        assert_eq!(
            h.timed - h0.timed,
            4,
            "a, b, c while not recording, c from REQUEST"
        );
        assert_eq!(h.overwritten - h0.overwritten, 1, "b replaced a's start");
        assert_eq!(h.total(), u64::from(h.timed), "the histogram's total");
        for l in &lat {
            let b = (0..h.buckets.len())
                .find(|&b| h.bucket_cycles(b).contains(&(l * SETUP_UNIT_CYCLES)))
                .expect("a bucket");
            assert!(h.buckets[b] > h0.buckets[b], "bucket {b} counted {l} units");
        }

        // the decision supply's answers: a load pick and a table pick
        use splicenic_fw_logic::sched::{Kind, SchedConfig, Scheduler, ServerConfig, ServerSet};
        let mut servers = ServerSet::new();
        for (k, w) in [2u32, 1].into_iter().enumerate() {
            servers
                .add(ServerConfig::new(0x0a00_0100 + k as u32, 8080, w))
                .expect("server");
        }
        let s: Scheduler<4, 4> = Scheduler::new(SchedConfig::new(Kind::Wlc));
        d.load_program(3, &s.hw_load(&servers), None)
            .expect("program");
        let answer = d.load_pick(3, false).expect("pick");
        let tr = d.trace().unwrap();
        let last = tr.entries.last().expect("an entry");
        assert_eq!(last.kind, TraceKind::Pick, "{answer:?}");
        let TraceDetail::Pick(p) = last.detail() else {
            panic!("{last:?}")
        };
        assert_eq!(
            (p.unit, p.pool, p.picked()),
            (PickUnit::Load, 3, true),
            "{p:?}"
        );
        assert_eq!(answer, LoadAnswer::Pick(p.server), "{p:?}");
        assert_eq!(d.trace_status().unwrap().lost, 0);
    }
}
