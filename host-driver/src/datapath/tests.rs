use super::*;
use crate::bar::{check_access, BarError};
use crate::fakebar::FakeBar;
use std::collections::{HashMap, VecDeque};

fn sample_entry() -> FlowEntry {
    FlowEntry {
        generation: 0x2a,
        state: FlowState::Spliced,
        sack: true,
        timestamps: false,
        window_rescale: true,
        wscale_diff: -3,
        real_server: 0x2a,
        ts_offset: 0x8765_4321,
        seq_delta_cs: 0x1122_3344,
        seq_delta_sc: 0xfedc_ba98,
        client: HalfEntry {
            peer_mac: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55],
            peer_ip: Ipv4Addr::new(10, 0, 0, 1),
            peer_port: 40000,
            local_ip: Ipv4Addr::new(192, 168, 1, 10),
            local_port: 80,
        },
        server: HalfEntry {
            peer_mac: [0x0a, 0xbb, 0xcc, 0xdd, 0xee, 0xff],
            peer_ip: Ipv4Addr::new(172, 16, 0, 5),
            peer_port: 8080,
            local_ip: Ipv4Addr::new(172, 16, 0, 1),
            local_port: 50123,
        },
    }
}

#[test]
fn flow_entry_words_follow_the_flow_state_mem_layout() {
    let w = sample_entry().to_words();
    // word 0: state 4, flags 0b101, diff -3 = 0xfd, real server 0x2a.
    assert_eq!(w[0], 0x2afd_0504);
    assert_eq!(w[1], 0x8765_4321);
    assert_eq!(w[2], 0x1122_3344);
    assert_eq!(w[3], 0xfedc_ba98);
    // Client half at bit 128: MAC 47:0, IP 79:48, port 95:80, local IP 127:96,
    // local port 143:128.
    assert_eq!(w[4], 0x2233_4455); // MAC bits 31:0
    assert_eq!(w[5], 0x0001_0211); // IP 15:0 (0x0001) | MAC 47:32 (0x0211)
    assert_eq!(w[6], 40000 << 16 | 0x0a00); // port | IP 31:16
    assert_eq!(w[7], 0xc0a8_010a); // local IP
    assert_eq!(w[8], 0xeeff_0050); // server MAC 15:0 | client local port 80
    assert_eq!(w[9], 0x0abb_ccdd); // server MAC 47:16
    assert_eq!(w[10], 0xac10_0005); // server peer IP
    assert_eq!(w[11], 0x0001_1f90); // local IP 15:0 | peer port 8080
    assert_eq!(w[12], 0xc3cb_ac10); // local port 50123 | local IP 31:16
}

#[test]
fn flow_entry_round_trips() {
    let e = sample_entry();
    assert_eq!(FlowEntry::from_words(&e.to_words()).unwrap(), e);
    let d = FlowEntry::default();
    assert_eq!(d.to_words(), [0; FLOW_STATIC_WORDS]);
    assert_eq!(FlowEntry::from_words(&d.to_words()).unwrap(), d);
    // A state code the data path does not define is named, not taken.
    let mut w = e.to_words();
    w[0] = w[0] & !0xff | 0x99;
    let err = FlowEntry::from_words(&w).unwrap_err();
    assert!(matches!(
        err,
        DatapathError::UnknownCode {
            what: "flow state",
            value: 0x99
        }
    ));
    assert!(err.to_string().contains("flow state code 0x99"), "{err}");
}

#[test]
fn flow_counters_round_trip_and_layout() {
    let c = FlowCounters {
        last_seen: 0x0102_0304,
        packets_cs: 5,
        packets_sc: 6,
        bytes_cs: 0xaaaa_bbbb_cccc,
        bytes_sc: 0x1234_5678_9abc,
        fin_end_cs: 0xdead_beef,
        fin_end_sc: 0x0bad_f00d,
        teardown: 0x0f,
    };
    let w = c.to_words();
    assert_eq!(
        w,
        [
            0x0102_0304,
            5,
            6,
            0xbbbb_cccc,
            0x9abc_aaaa,
            0x1234_5678,
            0xdead_beef,
            0x0bad_f00d,
            0x0f
        ]
    );
    assert_eq!(FlowCounters::from_words(&w), c);
    // Byte counters are 48 bits wide.
    let big = FlowCounters {
        bytes_cs: u64::MAX,
        ..FlowCounters::default()
    };
    assert_eq!(
        FlowCounters::from_words(&big.to_words()).bytes_cs,
        (1 << 48) - 1
    );
}

#[test]
fn punt_meta_decodes_every_field() {
    let w1 = 1 // port S
        | 9 << 4 // parser reason
        | 1 << 8 // class SERVER
        | 5 << 10 // why NOMATCH
        | 3 << 13 // SYN_ACK
        | 2 << 16 // index
        | 1 << 20 // hit
        | 1 << 21 // server half
        | 1 << 22 // to L7
        | 2 << 24; // state REQUEST
                   // word 5: verdict NEW, MSS class 2, slot generation 0xa7
    let w5 = 1 | 2 << 3 | 0xa7 << 8;
    let m = PuntMeta::decode([w1, 0x05dc_1234, 0x1236_2214, 0xdead_beef, w5]);
    assert_eq!(
        m,
        PuntMeta {
            port: Port::Server,
            parser_reason: 9,
            class: FrameClass::Server,
            why: Some(PuntWhy::NoMatch),
            tcp_kind: TcpKind::SynAck,
            index: 2,
            flow_hit: true,
            flow_half: FlowHalf::Server,
            to_l7: true,
            flow_state: Some(FlowState::Request),
            flow_slot: 0x1234,
            payload_len: 1500,
            l3_offset: 0x14,
            l4_offset: 0x22,
            payload_offset: 0x36,
            tcp_flags: 0x12,
            time: 0xdead_beef,
            engine: Some(EngineVerdict::New),
            mss_class: 2,
            slot_gen: 0xa7,
        }
    );
    // every 3-bit code names a verdict (7: a SYN-ACK the absorber took)
    assert_eq!(
        PuntMeta::decode([0, 0, 0, 0, 7]).engine,
        Some(EngineVerdict::Absorbed),
        "verdict 7"
    );
    let z = PuntMeta::decode([0, 0, 0, 0, 0]);
    assert_eq!(z.engine, Some(EngineVerdict::None));
    assert_eq!(z.port, Port::Client);
    assert_eq!(z.class, FrameClass::Vip);
    assert_eq!(z.why, Some(PuntWhy::None));
    assert_eq!(z.tcp_kind, TcpKind::None);
    assert_eq!(PuntMeta::decode([3 << 8 | 7 << 10, 0, 0, 0, 0]).why, None);
}

#[test]
fn events_decode() {
    assert_eq!(
        Event::decode([
            4 | 1 << 8 | 0x11 << 16 | 0x5c << 24,
            77 | 1460 << 16,
            1000,
            2000
        ]),
        Event::FinRst {
            port: Port::Server,
            tcp_flags: 0x11,
            flow_slot: 77,
            flow_gen: 0x5c,
            plen: 1460,
            seq: 1000,
            ack: 2000
        }
    );
    let w0 = 2 | 1 << 8 | 3 << 9 | 1 << 12 | 0b010_0001 << 13 | 1 << 20;
    assert_eq!(
        Event::decode([w0, 0x55 | 0x3e << 16, 9 << 16 | 0x0102, 1234]),
        Event::RequestMatched(L7Match {
            from_buffer: true,
            method: Some(HttpMethod::Post),
            bank: 1,
            flags: MatchFlags {
                matched: true,
                host_found: true,
                ..MatchFlags::default()
            },
            matched: true,
            tag: 0x55,
            flow_gen: 0x3e,
            rule_id: 0x0102,
            pool: 9,
            time: 1234,
        })
    );
    let e = Event::decode([2 | 7 << 9 | 0b100_0000 << 13, 1, 0, 0]);
    let Event::RequestMatched(m) = e else {
        panic!("{e:?}")
    };
    assert_eq!(m.method, None);
    assert!(m.flags.over_window && !m.matched && !m.from_buffer);
    assert_eq!(
        Event::decode([7, 3, 0, 0]),
        Event::PuntReady { punt_slot: 3 }
    );
    assert_eq!(
        Event::decode([0x0105, 1, 2, 3]),
        Event::Other {
            kind: 5,
            words: [0x0105, 1, 2, 3]
        }
    );
}

#[test]
fn rule_encoding_follows_the_rule_bank_word_map() {
    let r = L7Rule {
        priority: 5,
        path_kind: PathKind::Exact,
        path: b"/api".to_vec(),
        host_kind: HostKind::Suffix,
        host: b".Example.com".to_vec(),
        rule_id: 7,
        pool: 3,
    };
    let w = r.encode(64).unwrap();
    let pairs: Vec<(u8, u32)> = w.iter().map(|w| (w.word, w.data)).collect();
    assert_eq!(
        pairs,
        vec![
            (0x40, 0x6970_612f), // "/api"
            (0x80, 0x2e63_6f6d), // "moc."
            (0x81, 0x6d70_6c65), // "elpm"
            (0x82, 0x2e65_7861), // "axe."
            (0x01, 7 << 16 | 5), // rule id, priority
            (0x02, 3),           // pool
            (0x00, 0x980c_0004), // valid, exact, suffix, 12, 4
        ]
    );
    // The control word (valid) is written last.
    assert_eq!(w.last().unwrap().word, rule_word::CTRL);
    let any = L7Rule {
        priority: 0,
        path_kind: PathKind::Any,
        path: vec![],
        host_kind: HostKind::Never,
        host: vec![],
        rule_id: 0xffff,
        pool: 0xffff,
    };
    let pairs: Vec<(u8, u32)> = any
        .encode(64)
        .unwrap()
        .iter()
        .map(|w| (w.word, w.data))
        .collect();
    assert_eq!(
        pairs,
        vec![(0x01, 0xffff_0000), (0x02, 0xffff), (0x00, 0x8c00_0000)]
    );
}

#[test]
fn too_long_patterns_are_refused() {
    let r = L7Rule {
        priority: 0,
        path_kind: PathKind::Prefix,
        path: vec![b'a'; 65],
        host_kind: HostKind::Any,
        host: vec![],
        rule_id: 0,
        pool: 0,
    };
    assert!(matches!(
        r.encode(64),
        Err(DatapathError::PatternTooLong {
            which: "path",
            len: 65,
            max: 64
        })
    ));
    assert_eq!(r.encode(128).unwrap().len(), 17 + 3);
}

#[test]
fn punt_policy_matches_the_register() {
    let p = PuntPolicy::default();
    assert!(p.arp && p.icmp && p.nomatch && !p.other && !p.malformed);
    assert_eq!(p.to_raw(), regs::dp::punt_policy::RESET);
}

// ----- register sequences against a small model of the CSR side effects -----

/// Plain memory plus the side effects the API relies on: RD_DATA / WR_DATA pointer
/// increments, flow commands that stay busy for a few reads, the stats read port and
/// the event queue head.
struct Model {
    mem: FakeBar,
    punt: HashMap<(bool, u32, u32), u32>,
    injected: Vec<(u32, u32, u32)>,
    commits: Vec<(u32, u32, u32, u32)>,
    counters: Vec<u64>,
    events: VecDeque<[u32; 4]>,
    flows: HashMap<(u32, u32, u32), u32>,
    busy_reads: u32,
    busy_after_cmd: u32,
    /// INJECT.BAD_COMMIT of the client and the server ring (read through INJECT.SEL).
    bad_commit: [u32; 2],
    /// Plays a firmware that switches INJECT.SEL right after INJECT.BAD_COMMIT is read.
    flip_sel_on_bad_commit: bool,
    /// Every register write, in order.
    writes: Vec<(u64, u32)>,
}

fn params_bar() -> FakeBar {
    FakeBar::with_datapath_params()
}

impl Model {
    fn new() -> Model {
        Model {
            mem: params_bar(),
            punt: HashMap::new(),
            injected: Vec::new(),
            commits: Vec::new(),
            counters: (0..512u64).map(|i| i << 40 | i).collect(),
            events: VecDeque::new(),
            flows: HashMap::new(),
            busy_reads: 0,
            busy_after_cmd: 3,
            bad_commit: [0; 2],
            flip_sel_on_bad_commit: false,
            writes: Vec::new(),
        }
    }
    fn get(&self, off: u64) -> u32 {
        self.mem.mem[off as usize / 4]
    }
    fn show_head(&mut self) {
        let head = self.events.front().copied();
        self.mem.set(
            regs::evq::HEAD_INFO,
            u32::from(head.is_some()) << regs::evq::head_info::VALID_SHIFT,
        );
        self.mem
            .write_block(regs::evq::HEAD, &head.unwrap_or_default())
            .unwrap();
    }
    fn flow_cmd(&mut self, op: u32) {
        use regs::flow;
        let key = (
            self.get(flow::KEY_SRC_IP),
            self.get(flow::KEY_DST_IP),
            self.get(flow::KEY_PORTS),
        );
        let (result, value) = match op {
            0 => match self.flows.get(&key) {
                Some(&v) => (0, v),
                None => (3, 0),
            },
            1 => match self.flows.get(&key) {
                Some(&v) => (1, v),
                None => {
                    self.flows.insert(key, self.get(flow::VALUE));
                    (0, 0)
                }
            },
            2 => match self.flows.remove(&key) {
                Some(_) => (0, 0),
                None => (3, 0),
            },
            _ => {
                self.flows.clear();
                (0, 0)
            }
        };
        self.mem.set(flow::STATUS, result << 8 | 2 << 12 | 2);
        self.mem.set(flow::RESULT, value);
        self.mem.set(flow::BUCKET, key.0 ^ key.1 ^ key.2);
        self.busy_reads = self.busy_after_cmd;
    }
}

impl Bar for Model {
    fn size(&self) -> u64 {
        self.mem.size()
    }
    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        check_access(offset, 4, self.size())?;
        if offset == regs::punt::RD_DATA {
            let p = self.get(regs::punt::RD_PTR);
            let (desc, slot, word) = (p >> 31 != 0, p >> 16 & 0xff, p & 0x3ff);
            self.mem.set(regs::punt::RD_PTR, p & !0x3ff | (word + 1));
            return Ok(*self.punt.get(&(desc, slot, word)).unwrap_or(&0));
        }
        if offset == regs::inject::BAD_COMMIT {
            let sel = self.get(regs::inject::SEL) & 1;
            if self.flip_sel_on_bad_commit {
                self.mem.set(regs::inject::SEL, sel ^ 1);
            }
            return Ok(self.bad_commit[sel as usize]);
        }
        if offset == regs::flow::STATUS && self.busy_reads > 0 {
            self.busy_reads -= 1;
            return Ok(self.get(offset) | 1);
        }
        self.mem.read32(offset)
    }
    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        use regs::{evq, flow, inject, stats};
        check_access(offset, 4, self.size())?;
        self.writes.push((offset, value));
        match offset {
            inject::WR_DATA => {
                let p = self.get(inject::WR_PTR);
                self.injected.push((self.get(inject::SEL), p, value));
                self.mem.set(inject::WR_PTR, p + 1);
            }
            inject::COMMIT => {
                self.commits.push((
                    self.get(inject::SEL),
                    self.get(inject::COMMIT_LEN),
                    self.get(inject::COMMIT_OFF),
                    value,
                ));
                self.mem.set(inject::WR_PTR, 0);
            }
            flow::CMD => self.flow_cmd(value & 3),
            stats::RD_IDX => {
                let v = self.counters[value as usize];
                self.mem.set(stats::RD_LO, v as u32);
                self.mem.set(stats::RD_HI, (v >> 32) as u32);
            }
            stats::CTRL => {
                if value & 1 != 0 {
                    let n = self.get(stats::SNAPSHOTS);
                    self.mem.set(stats::SNAPSHOTS, n + 1);
                }
                self.mem.set(stats::CTRL, value & 2);
            }
            evq::POP => {
                self.events.pop_front();
                self.show_head();
            }
            _ => self.mem.set(offset, value),
        }
        Ok(())
    }
    fn pause(&mut self, _d: Duration) -> Result<(), BarError> {
        Ok(())
    }
    fn describe(&self) -> String {
        "data-path model (unit test)".into()
    }
}

#[test]
fn bad_params_are_refused() {
    let mut bar = params_bar();
    bar.set(regs::punt::PARAMS, 2048 << 16 | 12);
    let e = Datapath::new(&mut bar).unwrap_err();
    assert!(
        matches!(
            e,
            DriverError::Datapath(DatapathError::BadParams {
                register: "PUNT.PARAMS.SLOTS",
                ..
            })
        ),
        "{e}"
    );
}

#[test]
fn configuration_registers() {
    let mut m = Model::new();
    let mut dp = Datapath::new(&mut m).unwrap();
    dp.set_port_mac(Port::Server, [0x02, 0, 0, 0, 0xab, 0xcd])
        .unwrap();
    assert_eq!(
        dp.port_mac(Port::Server).unwrap(),
        [0x02, 0, 0, 0, 0xab, 0xcd]
    );
    dp.set_vip(7, Ipv4Addr::new(192, 0, 2, 1), 443, true)
        .unwrap();
    dp.set_local(3, Ipv4Addr::new(198, 51, 100, 9), true)
        .unwrap();
    dp.set_fastpath(false).unwrap();
    dp.set_punt_policy(PuntPolicy {
        malformed: true,
        ..PuntPolicy::default()
    })
    .unwrap();
    let e = dp.set_vip(8, Ipv4Addr::LOCALHOST, 1, true).unwrap_err();
    assert!(
        matches!(
            e,
            DriverError::Datapath(DatapathError::IndexOutOfRange {
                index: 8,
                count: 8,
                ..
            })
        ),
        "{e}"
    );
    assert_eq!(m.get(regs::dp::MAC_S_LO), 0x0000_abcd);
    assert_eq!(m.get(regs::dp::MAC_S_HI), 0x0200);
    assert_eq!(m.get(regs::dp::VIP_ADDR + 7 * 8), 0xc000_0201);
    assert_eq!(m.get(regs::dp::VIP_PORT + 7 * 8), 1 << 31 | 443);
    assert_eq!(m.get(regs::dp::LOCAL_ADDR + 3 * 8), 0xc633_6409);
    assert_eq!(m.get(regs::dp::LOCAL_CTRL + 3 * 8), 1 << 31);
    assert_eq!(m.get(regs::dp::CTRL), 0);
    assert_eq!(m.get(regs::dp::PUNT_POLICY), 0x36);
}

#[test]
fn flow_commands_poll_busy_and_decode_results() {
    let mut m = Model::new();
    let mut dp = Datapath::new(&mut m).unwrap();
    let key = FlowKey {
        src: Ipv4Addr::new(10, 0, 0, 1),
        dst: Ipv4Addr::new(192, 0, 2, 1),
        sport: 40000,
        dport: 80,
    };
    assert_eq!(dp.flow_lookup(&key).unwrap().status, FlowStatus::NotFound);
    let r = dp.flow_insert(&key, 17, FlowHalf::Server).unwrap();
    assert_eq!((r.status, r.way), (FlowStatus::Ok, 2));
    let r = dp.flow_insert(&key, 18, FlowHalf::Client).unwrap();
    assert_eq!(
        (r.status, r.slot, r.dir),
        (FlowStatus::Exists, 17, FlowHalf::Server)
    );
    let r = dp.flow_lookup(&key).unwrap();
    assert_eq!(
        (r.status, r.slot, r.dir),
        (FlowStatus::Ok, 17, FlowHalf::Server)
    );
    assert_eq!(r.bucket, 0x0a00_0001 ^ 0xc000_0201 ^ (40000 << 16 | 80));
    assert_eq!(dp.flow_delete(&key).unwrap().status, FlowStatus::Ok);
    assert_eq!(dp.flow_delete(&key).unwrap().status, FlowStatus::NotFound);
    dp.flow_clear().unwrap();
    assert!(dp.flow_insert(&key, 1024, FlowHalf::Client).is_err());
}

#[test]
fn a_command_that_stays_busy_times_out() {
    let mut m = Model::new();
    m.busy_after_cmd = 1000;
    let mut dp = Datapath::new(&mut m).unwrap();
    dp.set_poll_limit(50);
    let e = dp.flow_clear().unwrap_err();
    assert!(
        matches!(
            e,
            DriverError::Datapath(DatapathError::Timeout {
                what: "flow clear",
                polls: 50,
                ..
            })
        ),
        "{e}"
    );
    assert!(e.to_string().contains("FLOW.STATUS.BUSY"), "{e}");
}

#[test]
fn state_slots_are_written_and_read_through_the_windows() {
    let mut m = Model::new();
    let mut dp = Datapath::new(&mut m).unwrap();
    let e = sample_entry();
    let c = FlowCounters {
        last_seen: 9,
        packets_cs: 1,
        packets_sc: 2,
        bytes_cs: 3,
        bytes_sc: 4,
        fin_end_cs: 5,
        fin_end_sc: 6,
        teardown: 7,
    };
    dp.state_write(5, &e, &c).unwrap();
    assert_eq!(dp.state_read(5).unwrap(), (e, c));
    dp.state_write_static(6, &e).unwrap();
    assert_eq!(m.get(regs::flow::STATE_SLOT), 6);
    assert_eq!(
        m.get(regs::flow::STATE_CMD),
        regs::flow::state_cmd::OP_WRITE_STATIC
    );
    assert_eq!(m.get(regs::flow::STATE_STATIC), e.to_words()[0]);
}

#[test]
fn punt_next_reads_descriptor_and_data_then_frees_the_slot() {
    let mut m = Model::new();
    let frame: Vec<u8> = (0..61u8).collect();
    let slot = 15;
    m.punt.insert((true, slot, 0), 1 << 16 | frame.len() as u32);
    for (i, w) in [0x0100_0001u32, 0x0000_0007, 0x0036_2214, 99]
        .iter()
        .enumerate()
    {
        m.punt.insert((true, slot, i as u32 + 1), *w);
    }
    for (i, w) in layout::words_le(&frame).enumerate() {
        m.punt.insert((false, slot, i as u32), w);
    }
    m.mem.set(regs::punt::CONS, 31);
    m.mem.set(regs::punt::PROD, 0);
    let mut dp = Datapath::new(&mut m).unwrap();
    let f = dp.punt_next().unwrap().unwrap();
    assert_eq!(f.slot, 15);
    assert!(f.tuser);
    assert_eq!(f.data, frame);
    assert_eq!(f.port(), Port::Server);
    assert_eq!(f.meta.flow_state, Some(FlowState::Handshake));
    assert_eq!(f.meta.flow_slot, 7);
    assert_eq!(f.meta.time, 99);
    // CONS wraps modulo 2 * SLOTS; the ring is empty then.
    assert!(dp.punt_next().unwrap().is_none());
    assert_eq!(m.get(regs::punt::CONS), 0);
}

#[test]
fn punt_ring_inconsistency_is_an_error() {
    let mut m = Model::new();
    m.mem.set(regs::punt::PROD, 20);
    m.mem.set(regs::punt::CONS, 2);
    let mut dp = Datapath::new(&mut m).unwrap();
    let e = dp.punt_next().unwrap_err();
    assert!(
        matches!(e, DriverError::Datapath(DatapathError::PuntRing { .. })),
        "{e}"
    );
}

#[test]
fn inject_writes_words_and_commits() {
    let mut m = Model::new();
    m.mem.set(regs::inject::STATUS, 1);
    let mut dp = Datapath::new(&mut m).unwrap();
    let frame: Vec<u8> = (0..66u8).collect();
    let off = ChecksumOffload {
        ip_off: 14,
        l4_off: 34,
        l4_end: 66,
        ip: true,
        tcp: true,
    };
    dp.inject(Port::Server, &frame, Some(off)).unwrap();
    dp.inject(Port::Client, &frame[..5], None).unwrap();
    let bad = ChecksumOffload { l4_end: 67, ..off };
    let e = dp.inject(Port::Client, &frame, Some(bad)).unwrap_err();
    assert!(
        matches!(e, DriverError::Datapath(DatapathError::BadOffload { .. })),
        "{e}"
    );
    let e = dp.inject(Port::Client, &[], None).unwrap_err();
    assert!(
        matches!(e, DriverError::Datapath(DatapathError::BadLength { .. })),
        "{e}"
    );
    let words: Vec<u32> = layout::words_le(&frame).collect();
    let first: Vec<(u32, u32, u32)> = words
        .iter()
        .enumerate()
        .map(|(i, &w)| (1, i as u32, w))
        .collect();
    assert_eq!(&m.injected[..words.len()], &first[..]);
    assert_eq!(
        &m.injected[words.len()..],
        &[(0, 0, 0x0302_0100), (0, 1, 4)]
    );
    assert_eq!(
        m.commits,
        vec![(1, 3 << 16 | 66, 34 << 16 | 14, 66), (0, 5, 0, 0)]
    );
}

#[test]
fn inject_waits_for_a_free_slot() {
    let mut m = Model::new();
    let mut dp = Datapath::new(&mut m).unwrap();
    dp.set_poll_limit(10);
    let e = dp.inject(Port::Client, &[1, 2, 3], None).unwrap_err();
    assert!(e.to_string().contains("INJECT.STATUS.READY"), "{e}");
    assert!(m.injected.is_empty() && m.commits.is_empty());
}

#[test]
fn events_are_popped_in_order() {
    let mut m = Model::new();
    m.events.push_back([7, 4, 0, 0]);
    m.events.push_back([4, 9, 1, 2]);
    m.show_head();
    let mut dp = Datapath::new(&mut m).unwrap();
    assert_eq!(
        dp.evq_pop().unwrap(),
        Some(Event::PuntReady { punt_slot: 4 })
    );
    assert!(matches!(
        dp.evq_pop().unwrap(),
        Some(Event::FinRst { flow_slot: 9, .. })
    ));
    assert_eq!(dp.evq_pop().unwrap(), None);
}

#[test]
fn stats_snapshot_reads_every_counter() {
    let mut m = Model::new();
    let mut dp = Datapath::new(&mut m).unwrap();
    dp.set_stats_clear_on_snapshot(true).unwrap();
    let v = dp.stats_snapshot().unwrap();
    assert_eq!(v.len(), 512);
    assert_eq!(v[3], 3 << 40 | 3);
    assert_eq!(v[255], 255 << 40 | 255);
    assert_eq!(v[511], 511 << 40 | 511);
    assert_eq!(m.get(regs::stats::SNAPSHOTS), 1);
    // CLEAR_ON_SNAPSHOT was kept when the snapshot was requested.
    assert_eq!(m.get(regs::stats::CTRL), 2);
}

#[test]
fn stats_decodes_a_snapshot_read_from_the_card() {
    let mut m = Model::new();
    let mut dp = Datapath::new(&mut m).unwrap();
    let s = dp.stats().unwrap();
    assert_eq!(s.raw().len(), STATS_COUNTERS);
    assert_eq!(s.server(63).out_bytes, 511 << 40 | 511);
}

#[test]
fn stats_decoder_follows_the_counter_map() {
    // counter i holds i
    let s = StatsSnapshot::from_counters((0..512).collect()).unwrap();
    assert_eq!(
        s.port(Port::Client),
        PortCounters {
            rx_frames: 0,
            rx_bytes: 1,
            tx_frames: 2,
            tx_bytes: 3,
            forwarded: 4,
            punted: 5,
            dropped: 6,
            syn_answered: 7,
        }
    );
    assert_eq!(s.port(Port::Server).rx_frames, 8);
    assert_eq!(s.port(Port::Server).dropped, 14);
    assert_eq!(s.service(0), (16, 17));
    assert_eq!(s.service(31), (78, 79));
    assert_eq!(
        s.server(0),
        ServerCounters {
            frames: 80,
            bytes: 81,
            in_frames: 256,
            in_bytes: 257,
            out_frames: 258,
            out_bytes: 259,
        }
    );
    assert_eq!(
        s.server(9),
        ServerCounters {
            frames: 98,
            bytes: 99,
            in_frames: 292,
            in_bytes: 293,
            out_frames: 294,
            out_bytes: 295,
        }
    );
    assert_eq!(s.server(63).frames, 206);
    assert_eq!(s.server(63).bytes, 207);
    assert_eq!(s.server(63).out_bytes, 511);

    let d = s.drop_reasons();
    assert_eq!(d.len(), 18);
    assert_eq!(d[0], ("OTHER_L3", 209));
    assert_eq!(d[1], ("OTHER_L4", 210));
    assert_eq!(d[2], ("MAC_ERR", 211));
    assert_eq!(d[8], ("IP_CSUM", 217));
    assert_eq!(d[12], ("TCP_DOFF", 221));
    assert_eq!(d[13], ("DROP_ARP", 225));
    assert_eq!(d[17], ("DROP_NOMATCH", 229));
    let mut names: Vec<_> = d.iter().map(|x| x.0).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), d.len(), "reason names are unique");
}

#[test]
fn stats_decoder_refuses_a_map_without_directional_counters() {
    let e = StatsSnapshot::from_counters(vec![0; 256]).unwrap_err();
    assert!(
        matches!(e, DatapathError::BadParams { value: 256, .. }),
        "{e:?}"
    );
    assert!(StatsSnapshot::from_counters(vec![0; 1024]).is_ok());
}

#[test]
#[should_panic(expected = "real server 64")]
fn stats_decoder_server_index_is_bounded() {
    let s = StatsSnapshot::from_counters(vec![0; 512]).unwrap();
    let _ = s.server(STATS_SERVERS);
}

/// A model whose loss registers each hold a different value.
fn model_with_drop_registers() -> Model {
    use regs::{dp, evq, punt};
    let mut m = Model::new();
    m.mem.set(punt::DROP_FULL, 60);
    m.mem.set(punt::DROP_LONG, 2);
    m.mem.set(evq::OVERFLOW, 7);
    m.mem.set(dp::OVERSIZE_C, 3);
    m.mem.set(dp::OVERSIZE_S, 4);
    m.mem.set(dp::UPD_DROPS, 5);
    // Registers next to them that are not loss counters.
    m.mem.set(punt::FRAMES, 1000);
    m.mem.set(punt::BAD_CONS, 99);
    m.mem.set(evq::PUSHED, 500);
    m.bad_commit = [11, 12];
    m
}

#[test]
fn drop_counters_decode_each_register() {
    let mut m = model_with_drop_registers();
    let mut dp = Datapath::new(&mut m).unwrap();
    let d = dp.drop_counters().unwrap();
    assert_eq!(
        d,
        DropCounters {
            punt_drop_full: 60,
            punt_drop_long: 2,
            evq_overflow: 7,
            oversize_c: 3,
            oversize_s: 4,
            upd_drops: 5,
            // INJECT.SEL reads 0 (client ring) at reset.
            inject_bad_commit: Some((Port::Client, 11)),
        }
    );
    assert_eq!(d.inject_bad_commit(Port::Client), Some(11));
    assert_eq!(d.inject_bad_commit(Port::Server), None);
    // Plain reads only: the firmware's INJECT.SEL and ring pointers are left alone.
    assert!(m.writes.is_empty(), "{:?}", m.writes);
}

#[test]
fn drop_counters_read_the_inject_ring_the_firmware_selected() {
    let mut m = model_with_drop_registers();
    m.mem.set(regs::inject::SEL, 1);
    let mut dp = Datapath::new(&mut m).unwrap();
    let d = dp.drop_counters().unwrap();
    assert_eq!(d.inject_bad_commit, Some((Port::Server, 12)));
    assert_eq!(d.inject_bad_commit(Port::Client), None);
    // The firmware switches rings during the read: the count may be either ring's.
    m.flip_sel_on_bad_commit = true;
    let mut dp = Datapath::new(&mut m).unwrap();
    let d = dp.drop_counters().unwrap();
    assert_eq!(d.inject_bad_commit, None);
    assert_eq!(d.punt_drop_full, 60);
    assert!(m.writes.is_empty(), "{:?}", m.writes);
}

#[test]
fn drop_counters_are_32_bit_and_wrap() {
    let mut m = Model::new();
    m.mem.set(regs::punt::DROP_FULL, u32::MAX);
    let mut dp = Datapath::new(&mut m).unwrap();
    let before = dp.drop_counters().unwrap();
    assert_eq!(before.punt_drop_full, u32::MAX);
    m.mem.set(regs::punt::DROP_FULL, 4);
    let mut dp = Datapath::new(&mut m).unwrap();
    let after = dp.drop_counters().unwrap();
    assert_eq!(after.punt_drop_full.wrapping_sub(before.punt_drop_full), 5);
    assert_eq!(DROP_REGISTER_BITS, 32);
}

#[test]
fn drop_registers_are_named_as_in_the_register_map() {
    let mut m = model_with_drop_registers();
    let d = Datapath::new(&mut m).unwrap().drop_counters().unwrap();
    let r = d.registers();
    let got: Vec<_> = r.iter().map(|x| (x.name, x.count)).collect();
    assert_eq!(
        got,
        [
            ("PUNT.DROP_FULL", Some(60)),
            ("PUNT.DROP_LONG", Some(2)),
            ("EVQ.OVERFLOW", Some(7)),
            ("DP.OVERSIZE_C", Some(3)),
            ("DP.OVERSIZE_S", Some(4)),
            ("DP.UPD_DROPS", Some(5)),
            ("INJECT.BAD_COMMIT[C]", Some(11)),
            ("INJECT.BAD_COMMIT[S]", None),
        ]
    );
    assert_eq!(r.map(|x| x.name), DropCounters::NAMES);
    let offsets: Vec<_> = r.iter().map(|x| x.offset).collect();
    use regs::{dp, evq, inject, punt};
    assert_eq!(
        offsets,
        [
            punt::DROP_FULL,
            punt::DROP_LONG,
            evq::OVERFLOW,
            dp::OVERSIZE_C,
            dp::OVERSIZE_S,
            dp::UPD_DROPS,
            inject::BAD_COMMIT,
            inject::BAD_COMMIT,
        ]
    );
    assert_eq!(punt::DROP_FULL, 0x901c);
    assert!(r.iter().all(|x| !x.meaning.is_empty()));
}

#[test]
fn stats_drop_reason_counters_name_their_index() {
    let s = StatsSnapshot::from_counters((0..512).map(|i| i * 10).collect()).unwrap();
    let d = s.drop_reason_counters();
    assert_eq!(d.len(), 18);
    assert_eq!(
        d[0],
        StatsDrop {
            reason: "OTHER_L3",
            index: 209,
            count: 2090
        }
    );
    assert_eq!(d[2].reason, "MAC_ERR");
    assert_eq!(d[2].index, 211);
    assert_eq!(
        d[17],
        StatsDrop {
            reason: "DROP_NOMATCH",
            index: 229,
            count: 2290
        }
    );
    for x in &d {
        assert_eq!(x.count, x.index as u64 * 10, "{x:?}");
    }
    let pairs: Vec<_> = d.iter().map(|x| (x.reason, x.count)).collect();
    assert_eq!(pairs, s.drop_reasons());
}

#[test]
fn l7_rules_and_buffer_go_through_their_registers() {
    let mut m = Model::new();
    let mut dp = Datapath::new(&mut m).unwrap();
    let rule = L7Rule {
        priority: 1,
        path_kind: PathKind::Prefix,
        path: b"/static/".to_vec(),
        host_kind: HostKind::Any,
        host: vec![],
        rule_id: 2,
        pool: 3,
    };
    dp.l7_load_rule(63, &rule).unwrap();
    assert!(dp.l7_load_rule(64, &rule).is_err());
    dp.l7_match_buffer(b"GET / HTTP/1.1\r\n\r\n", 0x77).unwrap();
    assert!(dp.l7_match_buffer(&[0; 1025], 0).is_err());
    // The last write of a rule is its control word.
    assert_eq!(m.get(regs::l7::RULE), 63);
    assert_eq!(m.get(regs::l7::WORD), 0);
    assert_eq!(m.get(regs::l7::DATA), 0xa000_0008);
    assert_eq!(m.get(regs::l7::CMD), 0x77 << 16 | 18);
}

/// The classifier's view of an address entry after each write of `writes`, starting from
/// `(enabled, addr)`: (ctrl or port register, address register, enable bit shift).
fn entry_states(
    start: (bool, u32),
    writes: &[(u64, u32)],
    regs: (u64, u64, u32),
) -> Vec<(bool, u32)> {
    let (mut en, mut addr) = start;
    let mut seen = Vec::new();
    for &(off, v) in writes {
        if off == regs.0 {
            en = v >> regs.2 & 1 != 0;
        } else if off == regs.1 {
            addr = v;
        } else {
            continue;
        }
        seen.push((en, addr));
    }
    seen
}

/// Applying a configuration again writes the card's addresses again: an enabled server-side
/// address or virtual service set to what it already holds must never look disabled to the
/// classifier in between (its segments would be punted as NOMATCH).
#[test]
fn addresses_set_again_never_disappear() {
    use regs::dp;
    let a = Ipv4Addr::new(198, 51, 100, 9);
    let b = Ipv4Addr::new(198, 51, 100, 10);
    let mut m = Model::new();
    {
        let mut dp = Datapath::new(&mut m).unwrap();
        dp.set_local(2, a, true).unwrap();
        dp.set_vip(5, a, 80, true).unwrap();
        dp.set_local(2, a, true).unwrap();
        dp.set_vip(5, a, 80, true).unwrap();
        dp.set_vip(5, a, 8080, true).unwrap();
        dp.set_local(2, b, true).unwrap();
    }
    let local = (
        dp::LOCAL_CTRL + 2 * dp::LOCAL_CTRL_STRIDE,
        dp::LOCAL_ADDR + 2 * dp::LOCAL_ADDR_STRIDE,
        dp::local_ctrl::ENABLE_SHIFT,
    );
    let vip = (
        dp::VIP_PORT + 5 * dp::VIP_PORT_STRIDE,
        dp::VIP_ADDR + 5 * dp::VIP_ADDR_STRIDE,
        dp::vip_port::ENABLE_SHIFT,
    );
    let ls = entry_states((false, 0), &m.writes, local);
    let first = ls.iter().position(|&s| s == (true, a.into())).unwrap();
    assert!(
        ls[first..].iter().all(|&(en, _)| en),
        "server-side address disabled while set again: {ls:?}"
    );
    assert_eq!(*ls.last().unwrap(), (true, b.into()));
    let vs = entry_states((false, 0), &m.writes, vip);
    let first = vs.iter().position(|&s| s == (true, a.into())).unwrap();
    assert!(
        vs[first..].iter().all(|&s| s == (true, a.into())),
        "virtual service disabled while set again: {vs:?}"
    );
    assert_eq!(
        m.get(vip.0) >> dp::vip_port::PORT_SHIFT & 0xffff,
        8080,
        "the port change was written"
    );
    // A virtual service moved to another address is disabled while both registers change.
    let n = m.writes.len();
    Datapath::new(&mut m)
        .unwrap()
        .set_vip(5, b, 80, true)
        .unwrap();
    let moved = entry_states((true, a.into()), &m.writes[n..], vip);
    assert_eq!(moved.first(), Some(&(false, a.into())), "{moved:?}");
    assert_eq!(moved.last(), Some(&(true, b.into())), "{moved:?}");
}

#[test]
fn marks_decode_and_restart() {
    use regs::dp;
    let mut m = Model::new();
    m.mem.set(dp::FREE_STATUS, 512 << 16 | 40);
    m.mem.set(dp::FREE_LOW, 17);
    m.mem.set(dp::PUNT_HIGH, 9);
    {
        let mut d = Datapath::new(&mut m).unwrap();
        let slots = d.params().punt_slots;
        // not armed: no free-list mark yet
        let k = d.marks().unwrap();
        assert_eq!(
            k,
            Marks {
                free_low: None,
                free_depth: 512,
                punt_high: 9,
                punt_slots: slots,
            }
        );
        d.restart_marks().unwrap();
    }
    assert_eq!(m.writes, [(dp::FREE_LOW, 0), (dp::PUNT_HIGH, 0)]);
    m.mem.set(dp::FREE_LOW, 1 << 31 | 17);
    let mut d = Datapath::new(&mut m).unwrap();
    assert_eq!(d.marks().unwrap().free_low, Some(17));
}

#[test]
fn ack_validator_reads_each_register() {
    use regs::dp;
    let mut m = Model::new();
    m.mem.set(dp::ACK_CTRL, 1);
    m.mem.set(dp::FREE_STATUS, 512 << 16 | 40);
    for (i, r) in [
        dp::ACK_NEW,
        dp::ACK_FOUND,
        dp::ACK_BAD_COOKIE,
        dp::ACK_STALE,
        dp::ACK_NO_SLOT,
        dp::ACK_TABLE_FULL,
        dp::FREE_REFUSED,
        dp::ACK_LOST,
    ]
    .into_iter()
    .enumerate()
    {
        m.mem.set(r, 100 + i as u32);
    }
    let mut d = Datapath::new(&mut m).unwrap();
    let a = d.ack_validator().unwrap();
    assert_eq!(
        a,
        AckValidator {
            enabled: true,
            free_level: 40,
            free_depth: 512,
            new: 100,
            found: 101,
            bad_cookie: 102,
            stale: 103,
            no_slot: 104,
            table_full: 105,
            push_refused: 106,
            lost: 107,
        }
    );
    assert!(m.writes.is_empty(), "{:?}", m.writes);
}

// ----- trace ring and setup-latency histogram -----

/// The words of a trace entry, laid out by hand from docs/records.md (TraceEntry): time
/// 31:0; kind 35:32, port 36, timed 37, gen 47:40, slot 63:48; detail 79:64, ip 111:80,
/// client_port 127:112.
#[allow(clippy::too_many_arguments)]
fn trace_words(
    time: u32,
    kind: u8,
    port: bool,
    timed: bool,
    gen: u8,
    slot: u16,
    detail: u16,
    ip: Ipv4Addr,
    client_port: u16,
) -> [u32; TRACE_ENTRY_WORDS] {
    let ip = u32::from(ip);
    [
        time,
        u32::from(kind)
            | u32::from(port) << 4
            | u32::from(timed) << 5
            | u32::from(gen) << 8
            | u32::from(slot) << 16,
        u32::from(detail) | (ip & 0xffff) << 16,
        ip >> 16 | u32::from(client_port) << 16,
    ]
}

fn trace_record(kind: TraceKind, port: bool, timed: bool, detail: u16) -> TraceRecord {
    let w = trace_words(
        0,
        kind.raw(),
        port,
        timed,
        5,
        77,
        detail,
        Ipv4Addr::new(10, 0, 0, 2),
        40000,
    );
    TraceRecord::decode(&w, 0, 512).unwrap()
}

#[test]
fn trace_entry_decodes_every_field() {
    let w = trace_words(
        0xdead_beef,
        layout::trace_kind::SPLICED,
        true,
        true,
        0xa7,
        0x1234,
        0x0102,
        Ipv4Addr::new(192, 168, 1, 10),
        40000,
    );
    // The hand layout is the generated one.
    let e = layout::TraceEntry {
        time: 0xdead_beef,
        kind: layout::trace_kind::SPLICED,
        port: true,
        timed: true,
        gen: 0xa7,
        slot: 0x1234,
        detail: 0x0102,
        ip: u32::from(Ipv4Addr::new(192, 168, 1, 10)),
        client_port: 40000,
    };
    assert_eq!(e.pack(), w);
    assert_eq!(
        TraceRecord::decode(&w, 9, 512).unwrap(),
        TraceRecord {
            seq: 9,
            time: 0xdead_beef,
            kind: TraceKind::Spliced,
            port: true,
            timed: true,
            gen: 0xa7,
            slot: 0x1234,
            detail: 0x0102,
            ip: Ipv4Addr::new(192, 168, 1, 10),
            client_port: 40000,
        }
    );
}

#[test]
fn trace_entry_of_an_unknown_kind_or_never_written_is_an_error() {
    let mut w = trace_words(1, 0xd, false, false, 0, 0, 0, Ipv4Addr::UNSPECIFIED, 0);
    let err = TraceRecord::decode(&w, 3, 512).unwrap_err();
    assert!(
        matches!(err, DatapathError::UnknownCode { value: 0xd, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("code 0xd"), "{err}");
    w[1] &= !0xf; // kind NONE
    let err = TraceRecord::decode(&w, 515, 512).unwrap_err();
    assert!(
        matches!(err, DatapathError::TraceNeverWritten { seq: 515, index: 3 }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("trace ring entry 515 (ring index 3) never written"),
        "{err}"
    );
}

#[test]
fn trace_detail_is_rendered_per_kind() {
    let syn = trace_record(TraceKind::SynAnswered, false, false, 0);
    assert_eq!(syn.client(), Some("10.0.0.2:40000".parse().unwrap()));
    assert_eq!((syn.slot_gen(), syn.writer()), (None, None));
    assert_eq!(syn.detail(), TraceDetail::Empty);
    assert_eq!(syn.detail().to_string(), "");

    // ACK: the verdict; a slot only when one was taken or found.
    let new = trace_record(
        TraceKind::Ack,
        false,
        false,
        EngineVerdict::New.raw().into(),
    );
    assert_eq!(new.detail().to_string(), "verdict NEW");
    assert_eq!((new.slot_gen(), new.client()), (Some((77, 5)), None));
    let bad = trace_record(
        TraceKind::Ack,
        false,
        false,
        EngineVerdict::BadCookie.raw().into(),
    );
    assert_eq!(bad.slot_gen(), None);
    assert_eq!(
        bad.detail(),
        TraceDetail::Verdict {
            code: 3,
            verdict: Some(EngineVerdict::BadCookie)
        }
    );
    let odd = trace_record(TraceKind::Ack, false, false, 7);
    assert_eq!(odd.detail().to_string(), "verdict ABSORBED");
    assert_eq!(odd.slot_gen(), None);

    // Flow-state kinds: the writer, the client half, SPLICED's latency.
    let hs = trace_record(TraceKind::Handshake, true, false, 0);
    assert_eq!(hs.writer(), Some(StateWriter::Engine));
    assert_eq!(hs.slot_gen(), Some((77, 5)));
    assert_eq!(hs.client(), Some("10.0.0.2:40000".parse().unwrap()));
    let sp = trace_record(TraceKind::Spliced, false, true, 100);
    assert_eq!(sp.writer(), Some(StateWriter::Firmware));
    assert_eq!(sp.detail().setup_cycles(), Some(100 * SETUP_UNIT_CYCLES));
    assert_eq!(sp.detail().to_string(), "setup 1600 cycles");
    let sat = trace_record(TraceKind::Spliced, false, true, 0xffff);
    assert_eq!(
        sat.detail(),
        TraceDetail::SetupLatency {
            units: 0xffff,
            saturated: true
        }
    );
    assert_eq!(sat.detail().to_string(), "setup >= 1048560 cycles");
    let untimed = trace_record(TraceKind::Spliced, false, false, 0);
    assert_eq!(untimed.detail(), TraceDetail::Untimed);
    assert_eq!(untimed.detail().setup_cycles(), None);

    // FIN: the side and the flags.
    let fin = trace_record(TraceKind::Fin, true, false, 0x11);
    assert_eq!(fin.detail().to_string(), "from server, flags FIN,ACK");
    assert_eq!((fin.slot_gen(), fin.client()), (Some((77, 5)), None));
    assert_eq!(tcp_flag_names(0), "none");
    assert_eq!(tcp_flag_names(0xff), "FIN,SYN,RST,PSH,ACK,URG,ECE,CWR");

    // PICK: unit, status, pool, server.
    let pick = trace_record(TraceKind::Pick, false, false, 1 << 15 | 3 << 8 | 17);
    assert_eq!(
        pick.detail(),
        TraceDetail::Pick(TracePick {
            unit: PickUnit::Load,
            status: 0,
            pool: 3,
            server: 17
        })
    );
    assert_eq!(
        pick.detail().to_string(),
        "load_sched PICK pool 3 server 17"
    );
    assert_eq!((pick.slot_gen(), pick.client()), (None, None));
    let none = trace_record(TraceKind::Pick, false, false, 1 << 12 | 2 << 8);
    assert_eq!(none.detail().to_string(), "sched_unit NONE pool 2");
    let sched3 = trace_record(TraceKind::Pick, false, false, 3 << 12);
    assert_eq!(sched3.detail().to_string(), "sched_unit status 3 pool 0");
    let data = trace_record(TraceKind::Pick, false, false, 1 << 15 | 3 << 12);
    assert_eq!(data.detail().to_string(), "load_sched DATA pool 0");
}

/// A fake of the trace ring's and the histogram's registers for the driver's unit tests:
/// plain memory plus the index registers' side effects, and a ring the "engine" can go on
/// filling while it is read. It checks the driver's register sequences and its
/// overwritten-during-read logic, not the RTL (the gateware benches do that).
struct TraceModel {
    mem: FakeBar,
    ring: Vec<[u32; TRACE_ENTRY_WORDS]>,
    count: u32,
    /// One entry written at every this many-th TRACE_RD_IDX write, before the entry is
    /// latched (0: none).
    write_every: u32,
    /// Entries written at the first TRACE_RD_IDX write, before the entry is latched: they
    /// overwrite the oldest entries before the host reads them.
    burst: u32,
    idx_writes: u32,
    hist: [u32; SETUP_BUCKETS],
    writes: Vec<(u64, u32)>,
}

impl TraceModel {
    fn new(depth_log2: u32, count: u32) -> TraceModel {
        let mut m = TraceModel {
            mem: FakeBar::with_datapath_params(),
            ring: vec![[0; TRACE_ENTRY_WORDS]; 1 << depth_log2],
            count: count.wrapping_sub(count.min(1 << depth_log2)),
            write_every: 0,
            burst: 0,
            idx_writes: 0,
            hist: [0; SETUP_BUCKETS],
            writes: Vec::new(),
        };
        m.mem.set(regs::dp::TRACE_CTRL, depth_log2 << 8 | 1);
        m.mem.set(regs::dp::TRACE_LOST, 4);
        // Only the entries the ring still holds are written; the others would be
        // overwritten anyway.
        while m.count != count {
            m.push();
        }
        m
    }

    /// Entry `n`: its slot and gen name it (slot = n bits 15:0, gen = bits 23:16), its
    /// time steps by 7 cycles, its kind cycles through the defined kinds but NONE.
    fn entry(n: u32) -> [u32; TRACE_ENTRY_WORDS] {
        layout::TraceEntry {
            time: 1000u32.wrapping_add(n.wrapping_mul(7)),
            kind: (n % 12 + 1) as u8,
            port: n % 2 == 1,
            timed: true,
            gen: (n >> 16) as u8,
            slot: n as u16,
            detail: 0,
            ip: 0x0a00_0002,
            client_port: 40000,
        }
        .pack()
    }

    fn push(&mut self) {
        let depth = self.ring.len() as u32;
        self.ring[(self.count % depth) as usize] = Self::entry(self.count);
        self.count = self.count.wrapping_add(1);
        self.mem.set(regs::dp::TRACE_COUNT, self.count);
    }
}

impl Bar for TraceModel {
    fn size(&self) -> u64 {
        self.mem.size()
    }
    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        self.mem.read32(offset)
    }
    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        use regs::dp;
        check_access(offset, 4, self.size())?;
        self.writes.push((offset, value));
        match offset {
            dp::TRACE_RD_IDX => {
                if self.idx_writes == 0 {
                    for _ in 0..self.burst {
                        self.push();
                    }
                }
                self.idx_writes += 1;
                if self.write_every != 0 && self.idx_writes % self.write_every == 0 {
                    self.push();
                }
                let w = self.ring[value as usize % self.ring.len()];
                self.mem.write_block(dp::TRACE_RD_DATA, &w)?;
            }
            dp::SETUP_HIST_IDX => {
                let v = self.hist.get(value as usize).copied().unwrap_or(0);
                self.mem.set(dp::SETUP_HIST_DATA, v);
            }
            _ => self.mem.write32(offset, value)?,
        }
        Ok(())
    }
    fn describe(&self) -> String {
        "trace ring model (unit test)".into()
    }
}

/// Every entry of `t` is the one its sequence number names, and the sequence numbers are
/// consecutive.
fn assert_intact(t: &Trace) {
    for (i, e) in t.entries.iter().enumerate() {
        assert_eq!(
            (e.slot, e.gen),
            (e.seq as u16, (e.seq >> 16) as u8),
            "entry {i} holds another entry's data: {e:?}"
        );
        if i > 0 {
            assert_eq!(e.seq, t.entries[i - 1].seq.wrapping_add(1));
        }
    }
}

#[test]
fn trace_reads_the_entries_written_oldest_first() {
    // Fewer entries than the ring holds: only those, from index 0.
    let mut m = TraceModel::new(4, 5);
    let t = Datapath::new(&mut m).unwrap().trace().unwrap();
    assert_eq!(
        (t.enabled, t.depth, t.count, t.count_after, t.lost),
        (true, 16, 5, 5, 4)
    );
    assert_eq!(t.overwritten_during_read, 0);
    assert_eq!(
        t.entries.iter().map(|e| e.seq).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4]
    );
    assert_intact(&t);
    let idx: Vec<u32> = m
        .writes
        .iter()
        .filter(|(o, _)| *o == regs::dp::TRACE_RD_IDX)
        .map(|(_, v)| *v)
        .collect();
    assert_eq!(idx, [0, 1, 2, 3, 4]);
    assert!(m.writes.iter().all(|(o, _)| *o == regs::dp::TRACE_RD_IDX));

    // A ring that wrapped: the last 16, from the oldest's index on.
    let mut m = TraceModel::new(4, 16 * 3 + 7);
    let t = Datapath::new(&mut m).unwrap().trace().unwrap();
    assert_eq!(t.entries.len(), 16);
    assert_eq!(t.entries[0].seq, 16 * 2 + 7);
    assert_eq!(t.entries[15].seq, 16 * 3 + 6);
    assert_intact(&t);
    let idx: Vec<u32> = m.writes.iter().map(|(_, v)| *v).collect();
    assert_eq!(idx[..10], [7, 8, 9, 10, 11, 12, 13, 14, 15, 0]);

    // Nothing written yet.
    let mut m = TraceModel::new(9, 0);
    let t = Datapath::new(&mut m).unwrap().trace().unwrap();
    assert_eq!((t.depth, t.entries.len()), (512, 0));
}

#[test]
fn trace_drops_the_entries_overwritten_during_the_read() {
    // The engine writes `burst` entries just after TRACE_COUNT was read, then one per
    // `every` entries read: the oldest entries are overwritten, some before they are read
    // (those would hold a newer entry's words and fail `assert_intact`), and every one that
    // could have been is left out. The last case crosses the 2^32 wrap of TRACE_COUNT.
    for (count, every, burst) in [
        (40u32, 2u32, 0u32),
        (40, 2, 5),
        (40, 1, 0),
        (16 * 5, 3, 15),
        (40, 0, 30),
        (u32::MAX - 3, 2, 3),
    ] {
        let case = format!("count {count}, every {every}, burst {burst}");
        let mut m = TraceModel::new(4, count);
        m.write_every = every;
        m.burst = burst;
        let t = Datapath::new(&mut m).unwrap().trace().unwrap();
        let written = t.count_after.wrapping_sub(t.count);
        let during = 16u32.checked_div(every).unwrap_or(0);
        assert_eq!(written, burst + during, "{case}");
        assert_eq!(t.count_after, m.count, "{case}");
        // Entry seq is kept when count_after - seq <= depth.
        assert_eq!(t.overwritten_during_read, written.min(16), "{case}");
        assert_eq!(t.entries.len() as u32, 16 - written.min(16), "{case}");
        if let (Some(first), Some(last)) = (t.entries.first(), t.entries.last()) {
            assert_eq!(first.seq, t.count_after.wrapping_sub(16), "{case}");
            assert_eq!(last.seq, count.wrapping_sub(1), "{case}");
        }
        assert_intact(&t);
    }
    // Recording while a short ring is read: nothing written is old enough to go.
    let mut m = TraceModel::new(4, 3);
    m.write_every = 1;
    let t = Datapath::new(&mut m).unwrap().trace().unwrap();
    assert_eq!((t.entries.len(), t.overwritten_during_read), (3, 0));
    assert_eq!(t.count_after, 6);
    assert_intact(&t);
}

#[test]
fn trace_overwritten_logic_on_its_own() {
    let status = TraceStatus {
        enabled: false,
        depth: 4,
        count: 10,
        lost: 0,
    };
    let raw: Vec<(u32, [u32; TRACE_ENTRY_WORDS])> =
        (6..10).map(|s| (s, TraceModel::entry(s))).collect();
    // 2 written during the read: entries 6 and 7 are gone (10 + 2 - 4 = 8 is the oldest).
    let t = Trace::from_ring(status, 12, &raw).unwrap();
    assert_eq!(t.overwritten_during_read, 2);
    assert_eq!(t.entries.iter().map(|e| e.seq).collect::<Vec<_>>(), [8, 9]);
    // The dropped entries are not decoded: garbage there is no error.
    let mut torn = raw.clone();
    torn[0].1 = [0; TRACE_ENTRY_WORDS];
    assert!(Trace::from_ring(status, 12, &torn).is_ok());
    // A kept entry that never was written is.
    let err = Trace::from_ring(status, 10, &torn).unwrap_err();
    assert!(
        matches!(err, DatapathError::TraceNeverWritten { seq: 6, index: 2 }),
        "{err:?}"
    );
    // Everything overwritten.
    let t = Trace::from_ring(status, 100, &raw).unwrap();
    assert_eq!((t.overwritten_during_read, t.entries.len()), (4, 0));
}

#[test]
fn trace_depth_and_enable_registers() {
    for log2 in [0, 17, 31] {
        let mut m = TraceModel::new(4, 0);
        m.mem.set(regs::dp::TRACE_CTRL, log2 << 8 | 1);
        let mut d = Datapath::new(&mut m).unwrap();
        // The counters read whatever the depth (the exporter reads only them).
        assert_eq!(d.trace_status().unwrap().depth, 1 << log2);
        let err = d.trace().unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("DP.TRACE_CTRL.DEPTH_LOG2 = {log2:#x}")),
            "{err}"
        );
    }
    let mut m = TraceModel::new(4, 0);
    m.mem.set(regs::dp::TRACE_CTRL, 4 << 8);
    {
        let mut d = Datapath::new(&mut m).unwrap();
        assert!(!d.trace_status().unwrap().enabled);
        d.trace_enable(true).unwrap();
        d.trace_enable(false).unwrap();
    }
    assert_eq!(
        m.writes,
        [(regs::dp::TRACE_CTRL, 1), (regs::dp::TRACE_CTRL, 0)]
    );
}

#[test]
fn trace_relative_times_unwrap_the_32_bit_clock() {
    let mut t = Trace {
        enabled: true,
        depth: 16,
        count: 4,
        count_after: 4,
        lost: 0,
        overwritten_during_read: 0,
        entries: Vec::new(),
    };
    for (seq, time) in [u32::MAX - 10, 5, 5, 1000, 1000 + (1 << 31), 999]
        .into_iter()
        .enumerate()
    {
        let mut e = trace_record(TraceKind::Fin, false, false, 1);
        e.seq = seq as u32;
        e.time = time;
        t.entries.push(e);
    }
    // Across the wrap, two entries written in one cycle's distance, long gaps (the last
    // one just short of 2^32 cycles).
    assert_eq!(
        t.relative_cycles(),
        [0, 16, 16, 1011, 1011 + (1 << 31), 1011 + (1 << 32) - 1]
    );
}

#[test]
fn setup_histogram_reads_every_bucket() {
    use regs::dp;
    let mut m = TraceModel::new(4, 0);
    for (b, c) in m.hist.iter_mut().enumerate() {
        *c = 100 + b as u32;
    }
    m.mem.set(dp::SETUP_TIMED, 12345);
    m.mem.set(dp::SETUP_OVERWRITTEN, 6);
    let h = Datapath::new(&mut m).unwrap().setup_histogram().unwrap();
    assert_eq!(h.buckets[0], 100);
    assert_eq!(h.buckets[SETUP_BUCKETS - 1], 100 + SETUP_BUCKETS as u32 - 1);
    assert_eq!((h.timed, h.overwritten), (12345, 6));
    assert_eq!(h.unit_cycles, 16);
    let expected: Vec<_> = (0..SETUP_BUCKETS as u32)
        .map(|b| (dp::SETUP_HIST_IDX, b))
        .collect();
    assert_eq!(m.writes, expected);
}

#[test]
fn setup_histogram_bucket_ranges() {
    let h = SetupHistogram::default();
    assert_eq!(SETUP_BUCKETS, 29);
    assert_eq!(h.bucket_cycles(0), 0..16);
    assert_eq!(h.bucket_cycles(1), 16..32);
    assert_eq!(h.bucket_cycles(2), 32..64);
    // The last bucket ends at 2^28 units of the 28-bit setup clock: 2^32 cycles.
    assert_eq!(h.bucket_cycles(28), 1 << 31..1 << 32);
    // Consecutive buckets meet.
    for b in 1..SETUP_BUCKETS {
        assert_eq!(h.bucket_cycles(b - 1).end, h.bucket_cycles(b).start);
    }
    let s = SetupHistogram {
        buckets: std::array::from_fn(|b| b as u32),
        ..h
    }
    .to_seconds(16);
    assert_eq!(s.len(), SETUP_BUCKETS);
    assert_eq!((s[0].lower, s[0].upper, s[0].count), (0.0, 1.0, 0));
    assert_eq!((s[3].lower, s[3].upper, s[3].count), (4.0, 8.0, 3));
}

#[test]
#[should_panic(expected = "no bucket 29")]
fn setup_histogram_has_no_bucket_past_the_last() {
    let _ = SetupHistogram::default().bucket_cycles(SETUP_BUCKETS);
}

#[test]
fn setup_histogram_percentiles_are_bucket_upper_bounds() {
    let mut h = SetupHistogram::default();
    assert_eq!(h.percentile(50.0), None);
    h.buckets[3] = 50; // [64, 128) cycles
    h.buckets[5] = 40; // [256, 512)
    h.buckets[10] = 10; // [8192, 16384)
    assert_eq!(h.total(), 100);
    assert_eq!(h.percentile(0.0), Some(128));
    assert_eq!(h.percentile(50.0), Some(128));
    assert_eq!(h.percentile(50.5), Some(512));
    assert_eq!(h.percentile(90.0), Some(512));
    assert_eq!(h.percentile(90.1), Some(16384));
    assert_eq!(h.percentile(99.0), Some(16384));
    assert_eq!(h.percentile(100.0), Some(16384));
    assert_eq!(h.percentile(250.0), Some(16384));
    assert_eq!(h.percentile(f64::NAN), Some(128));
    // One setup below a unit.
    let one = SetupHistogram {
        buckets: std::array::from_fn(|b| u32::from(b == 0)),
        ..SetupHistogram::default()
    };
    assert_eq!(one.percentile(99.0), Some(16));
    assert_eq!(h.lower_bound_sum_cycles(), 50 * 64 + 40 * 256 + 10 * 8192);
    assert_eq!(one.lower_bound_sum_cycles(), 0);
}
