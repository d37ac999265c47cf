//! Unit tests of the flow manager's logic against a fake data path (a model of the flow
//! table, flow memory, punt ring, inject rings and event queue; the real data path with the
//! real firmware is tested in hil-tests).

use super::frame::{fill_checksums, parse, tcp_flags as tf, Offload, Parsed, TcpOut, TcpSeg};
use super::*;
use std::collections::{HashMap, VecDeque};
use std::vec::Vec;

const CLK: u32 = 156_250_000;
const VIP: u32 = 0x0a00_0064; // 10.0.0.100
const LOCAL: u32 = 0xc0a8_0001; // 192.168.0.1
const CLIENT: u32 = 0x0a00_0002;
const SRV: [u32; 2] = [0xc0a8_000a, 0xc0a8_000b];
const CMAC: [u8; 6] = [2, 0, 0, 0, 0, 0x02];
const CARD_C: [u8; 6] = [2, 0xca, 0, 0, 0, 1];
const CARD_S: [u8; 6] = [2, 0xca, 0, 0, 0, 2];

#[derive(Default)]
struct Fake {
    now: u32,
    table: HashMap<FourTuple, (Slot, bool)>,
    mem: HashMap<Slot, ([u32; STATIC_WORDS], u32)>,
    punts: VecDeque<(Vec<u8>, [u32; 4])>,
    events: VecDeque<[u32; 4]>,
    sent: Vec<(Port, Vec<u8>)>,
    vips: [(u32, u16, bool); 8],
    l7: Vec<(Vec<u8>, u16)>,
}

impl Fake {
    /// Queue a frame arriving on `port` with the punt record the data path would write.
    fn arrive(&mut self, port: Port, frame: Vec<u8>) {
        let Parsed::Tcp(s) = parse(&frame) else {
            panic!("test frames are TCP")
        };
        let key = FourTuple {
            src_ip: s.src_ip,
            dst_ip: s.dst_ip,
            src_port: s.src_port,
            dst_port: s.dst_port,
        };
        let mut w0 = u32::from(port == Port::Server);
        // Request segments of a flow in state REQUEST go to the inline matcher too.
        let to_l7 = |state: u32| u32::from(state == 2 && s.payload_len() > 0) << 22;
        let mut w1 = 0;
        if let Some(&(slot, half)) = self.table.get(&key) {
            w0 |= 1 << 20 | u32::from(half) << 21;
            let state = self.mem.get(&slot).map_or(0, |e| e.0[0] & 0xff);
            w0 |= state << 24 | to_l7(state);
            w1 = u32::from(slot);
        }
        self.punts.push_back((frame, [w0, w1, 0, self.now]));
    }

    fn take_sent(&mut self) -> Vec<(Port, TcpSeg, Vec<u8>)> {
        self.sent
            .drain(..)
            .filter_map(|(p, f)| match parse(&f) {
                Parsed::Tcp(s) => Some((p, s, f)),
                _ => None,
            })
            .collect()
    }

    fn entry(&self, slot: Slot) -> [u32; STATIC_WORDS] {
        self.mem.get(&slot).map_or([0; STATIC_WORDS], |e| e.0)
    }
}

impl Hw for Fake {
    fn now(&mut self) -> u32 {
        self.now
    }
    fn cycles(&mut self) -> u64 {
        u64::from(self.now) << 16
    }
    fn port_mac(&mut self, port: Port) -> [u8; 6] {
        match port {
            Port::Client => CARD_C,
            Port::Server => CARD_S,
        }
    }
    fn local_ip(&mut self, i: usize) -> Option<u32> {
        (i == 0).then_some(LOCAL)
    }
    fn set_vip(&mut self, i: usize, ip: u32, port: u16, enable: bool) {
        self.vips[i] = (ip, port, enable);
    }
    fn punt_next(&mut self, buf: &mut [u8]) -> Option<PuntInfo> {
        let (f, meta) = self.punts.pop_front()?;
        buf[..f.len()].copy_from_slice(&f);
        Some(PuntInfo { len: f.len(), meta })
    }
    fn inject(&mut self, port: Port, frame: &[u8], offload: Option<Offload>) -> bool {
        let mut f = frame.to_vec();
        if let Some(o) = offload {
            fill_checksums(&mut f, &o);
        }
        self.sent.push((port, f));
        true
    }
    fn evq_pop(&mut self) -> Option<[u32; 4]> {
        self.events.pop_front()
    }
    fn flow_insert(&mut self, key: &FourTuple, slot: Slot, server_half: bool) -> FlowStatus {
        if self.table.contains_key(key) {
            return FlowStatus::Exists;
        }
        self.table.insert(*key, (slot, server_half));
        FlowStatus::Ok
    }
    fn flow_delete(&mut self, key: &FourTuple) -> FlowStatus {
        match self.table.remove(key) {
            Some(_) => FlowStatus::Ok,
            None => FlowStatus::NotFound,
        }
    }
    fn state_write(&mut self, slot: Slot, words: &[u32; STATIC_WORDS], last_seen: Option<u32>) {
        let e = self.mem.entry(slot).or_insert(([0; STATIC_WORDS], 0));
        e.0 = *words;
        if let Some(t) = last_seen {
            e.1 = t;
        }
    }
    fn state_read(&mut self, slot: Slot, words: &mut [u32; STATIC_WORDS]) -> u32 {
        let e = self
            .mem
            .get(&slot)
            .copied()
            .unwrap_or(([0; STATIC_WORDS], 0));
        *words = e.0;
        e.1
    }
    fn flow_entries(&mut self) -> u32 {
        self.table.len() as u32
    }
    fn l7_match(&mut self, request: &[u8], tag: u16) -> bool {
        self.l7.push((request.to_vec(), tag));
        true
    }
}

#[allow(clippy::too_many_arguments)]
fn seg(
    src: (u32, u16),
    dst: (u32, u16),
    seq: u32,
    ack: u32,
    flags: u8,
    opts: &[u8],
    payload: &[u8],
    mac: [u8; 6],
) -> Vec<u8> {
    let out = TcpOut {
        src_mac: mac,
        dst_mac: CARD_C,
        src_ip: src.0,
        dst_ip: dst.0,
        src_port: src.1,
        dst_port: dst.1,
        seq,
        ack,
        flags,
        window: 502,
        opts,
        payload,
    };
    let mut buf = vec![0u8; out.frame_len()];
    let (_, off) = out.write(&mut buf).unwrap();
    fill_checksums(&mut buf, &off);
    buf
}

fn configure(sp: &mut Splicer, hw: &mut Fake, mode: u32) {
    let mut rsp = [0u32; MAX_WORDS];
    let mut ok = |sp: &mut Splicer, hw: &mut Fake, c: u32, req: &[u32]| {
        let r = sp.command(hw, c, req, &mut rsp).unwrap();
        assert_eq!(r.status, status::OK, "command {c:#x} {req:?}");
    };
    ok(sp, hw, cmd::POOL_SET, &[1, 0, 0, 0, u32::MAX]);
    for (rs, ip) in SRV.iter().enumerate() {
        ok(
            sp,
            hw,
            cmd::SERVER_SET,
            &[
                1 | (rs as u32) << 8,
                *ip,
                8080,
                0x0200_0000,
                (rs as u32 + 0x10) << 16,
                1,
                0,
                0,
            ],
        );
    }
    ok(sp, hw, cmd::SVC_SET, &[0, VIP, 80, mode, 1]);
}

struct World {
    free: Box<SlotList>,
    bufs: Box<ReqBufs>,
}

fn world() -> World {
    World {
        free: Box::new(SlotList::empty()),
        bufs: Box::new([[0; REQ_BUF]; PENDING]),
    }
}

const TS_SYN: [u8; 20] = [
    2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0, 0, 100, 0, 0, 0, 0, 1, 3, 3, 7,
];

fn ts(tsval: u32, tsecr: u32) -> [u8; 12] {
    let mut o = [0u8; 12];
    ts_option(&mut o, tsval, tsecr);
    o
}

/// Runs a connection through setup; returns (slot, card ISN, server ISN).
fn connect(sp: &mut Splicer, hw: &mut Fake, cport: u16, isn: u32, request: &[u8]) -> (Slot, u32) {
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            isn,
            0,
            tf::SYN,
            &TS_SYN,
            &[],
            CMAC,
        ),
    );
    sp.poll(hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    let (port, synack, f) = &sent[0];
    assert_eq!(*port, Port::Client);
    assert!(synack.has(tf::SYN | tf::ACK));
    assert_eq!(synack.ack, isn.wrapping_add(1));
    assert_eq!(
        (synack.src_ip, synack.src_port, synack.dst_port),
        (VIP, 80, cport)
    );
    let o = parse_syn_options(&f[synack.opts.0..synack.opts.1]).unwrap();
    assert_eq!(o.mss, Some(1460));
    assert_eq!(o.wscale, Some(7));
    assert!(o.sack_permitted);
    assert_eq!(o.timestamps.unwrap().tsecr, 100);
    let card_isn = synack.seq;
    // Retransmitted SYN: identical SYN-ACK.
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            isn,
            0,
            tf::SYN,
            &TS_SYN,
            &[],
            CMAC,
        ),
    );
    sp.poll(hw);
    let again = hw.take_sent();
    assert_eq!(again.len(), 1);
    assert_eq!(&again[0].2, f);
    // ACK, then the request.
    let c_ack = card_isn.wrapping_add(1);
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            isn.wrapping_add(1),
            c_ack,
            tf::ACK,
            &ts(101, 0),
            &[],
            CMAC,
        ),
    );
    sp.poll(hw);
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            isn.wrapping_add(1),
            c_ack,
            tf::ACK | tf::PSH,
            &ts(102, 0),
            request,
            CMAC,
        ),
    );
    sp.poll(hw);
    let slot = hw.table[&FourTuple {
        src_ip: CLIENT,
        dst_ip: VIP,
        src_port: cport,
        dst_port: 80,
    }]
        .0;
    (slot, card_isn)
}

#[test]
fn l7_connection_is_answered_matched_connected_spliced_and_aged() {
    let mut w = world();
    let mut hw = Fake {
        now: 1000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 2);
    assert_eq!(hw.vips[0], (VIP, 80, true));
    let isn = 0xffff_fff0; // the request crosses 2^32
    let req = b"GET /img/a.png HTTP/1.1\r\nHost: www.example.com\r\n\r\n";
    let (slot, card_isn) = connect(&mut sp, &mut hw, 40000, isn, req);
    // The request was acknowledged.
    let acks = hw.take_sent();
    let last = acks.last().unwrap().1;
    assert_eq!(last.ack, isn.wrapping_add(1 + req.len() as u32));
    assert_eq!(hw.entry(slot)[0] & 0xff, FlowState::Connecting.raw().into());
    // The inline matcher's verdict: pool 1.
    hw.events.push_back([2, u32::from(slot), 7 | 1 << 16, 0]);
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    let (port, syn, f) = &sent[0];
    assert_eq!(*port, Port::Server);
    assert!(syn.has(tf::SYN) && !syn.has(tf::ACK));
    assert_eq!(syn.seq, isn, "the server SYN reuses the client's ISN");
    assert_eq!(syn.src_ip, LOCAL);
    assert_eq!(syn.dst_port, 8080);
    let server = syn.dst_ip;
    assert!(SRV.contains(&server));
    let o = parse_syn_options(&f[syn.opts.0..syn.opts.1]).unwrap();
    assert_eq!(o.timestamps.unwrap().tsval, 102, "client's latest TSval");
    // Server SYN-ACK with its own options.
    let s_isn = 0x1234_5678;
    let mut sa_opts = [0u8; 20];
    sa_opts[..4].copy_from_slice(&[2, 4, 0x05, 0xb4]);
    sa_opts[4..6].copy_from_slice(&[4, 2]);
    sa_opts[6..16].copy_from_slice(&[8, 10, 0, 0, 0x10, 0, 0, 0, 0, 102]);
    sa_opts[16..20].copy_from_slice(&[1, 3, 3, 7]);
    let mut sa = seg(
        (server, 8080),
        (LOCAL, syn.src_port),
        s_isn,
        isn.wrapping_add(1),
        tf::SYN | tf::ACK,
        &sa_opts,
        &[],
        [2, 0, 0, 0, 0, 0x10],
    );
    sa[0..6].copy_from_slice(&CARD_S);
    hw.arrive(Port::Server, sa);
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1, "the request, acknowledging the SYN-ACK");
    assert_eq!(sent[0].0, Port::Server);
    assert_eq!(sent[0].1.ack, s_isn.wrapping_add(1));
    let data = &sent[0];
    assert_eq!(&data.2[data.1.payload.0..data.1.payload.1], req);
    assert_eq!(data.1.seq, isn.wrapping_add(1));
    let e = hw.entry(slot);
    assert_eq!(e[0] & 0xff, FlowState::Spliced.raw().into());
    assert_eq!(
        e[0] >> 8 & 7,
        3,
        "SACK and timestamps translated; equal shifts need no rescale"
    );
    assert_eq!(
        e[2], 0,
        "delta C->S is 0 when the server SYN reuses the client ISN"
    );
    assert_eq!(e[3], card_isn.wrapping_sub(s_isn));
    assert_eq!(sp.stats.spliced, 1);
    assert_eq!(sp.pending(), 0);
    let rs = (e[0] >> 24) as u8;
    let mut rsp = [0u32; MAX_WORDS];
    sp.command(&mut hw, cmd::SERVER_STATS, &[u32::from(rs)], &mut rsp);
    assert_eq!(&rsp[..2], &[1, 0], "one active connection");
    // FIN from the client, then the aging scan with a short FIN_WAIT timeout.
    hw.events.push_back([4 | 0x11 << 16, u32::from(slot), 0, 0]);
    sp.poll(&mut hw);
    assert_eq!(hw.entry(slot)[0] & 0xff, FlowState::Closing.raw().into());
    sp.command(&mut hw, cmd::SERVER_STATS, &[u32::from(rs)], &mut rsp);
    assert_eq!(&rsp[..2], &[0, 1], "closing counts inactive");
    let r = sp.command(
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::FinWait as u32, 10, 1],
        &mut rsp,
    );
    assert_eq!(r.unwrap().status, status::OK);
    hw.now += 1000;
    for _ in 0..4 {
        sp.poll(&mut hw);
    }
    assert_eq!(hw.entry(slot)[0] & 0xff, 0, "freed");
    assert!(hw.table.is_empty(), "both keys deleted");
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(sp.stats.aged_out, 1);
    sp.command(&mut hw, cmd::SERVER_STATS, &[u32::from(rs)], &mut rsp);
    assert_eq!(&rsp[..2], &[0, 0]);
}

#[test]
fn split_request_goes_through_the_buffer_matcher() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 64, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 2);
    let (slot, card_isn) = connect(&mut sp, &mut hw, 40001, 5000, b"GET /a HTTP/1.1\r\nHo");
    hw.take_sent();
    // Inline verdict: incomplete.
    hw.events.push_back([2 | 1 << 14, u32::from(slot), 0, 0]);
    sp.poll(&mut hw);
    assert!(hw.l7.is_empty());
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 40001),
            (VIP, 80),
            5001 + 19,
            card_isn.wrapping_add(1),
            tf::ACK,
            &ts(103, 0),
            b"st: x\r\n\r\n",
            CMAC,
        ),
    );
    // A duplicate of the first part is absorbed.
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 40001),
            (VIP, 80),
            5001,
            card_isn.wrapping_add(1),
            tf::ACK,
            &ts(103, 0),
            b"GET /a HTTP/1.1\r\nHo",
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(hw.l7.len(), 1);
    assert_eq!(hw.l7[0].0, b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n".to_vec());
    assert_eq!(hw.l7[0].1, slot);
    hw.events
        .push_back([2 | 1 << 8 | 1 << 13, u32::from(slot), 1 << 16, 0]);
    hw.take_sent();
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].1.has(tf::SYN));
}

#[test]
fn server_reset_tries_the_next_server_then_resets_the_client() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 64, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 1);
    let (slot, _) = connect(&mut sp, &mut hw, 40002, 77, b"GET / HTTP/1.1\r\n\r\n");
    let mut tried = Vec::new();
    for round in 0..2 {
        let sent = hw.take_sent();
        let syn = sent
            .iter()
            .find(|(p, s, _)| *p == Port::Server && s.has(tf::SYN))
            .unwrap()
            .1;
        tried.push(syn.dst_ip);
        let rst = seg(
            (syn.dst_ip, 8080),
            (LOCAL, syn.src_port),
            0,
            78,
            tf::RST | tf::ACK,
            &[],
            &[],
            CMAC,
        );
        hw.arrive(Port::Server, rst);
        sp.poll(&mut hw);
        assert_eq!(sp.stats.server_retries, round + 1);
    }
    tried.sort_unstable();
    assert_eq!(tried, SRV.to_vec(), "each server tried once");
    let sent = hw.take_sent();
    assert!(sent
        .iter()
        .any(|(p, s, _)| *p == Port::Client && s.has(tf::RST)));
    assert_eq!(sp.stats.setup_failed, 1);
    assert_eq!(hw.entry(slot)[0], 0);
    assert!(hw.table.is_empty());
    assert_eq!(sp.slots_in_use(), 0);
}

#[test]
fn full_table_refuses_with_reset_and_counts() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 2, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 2);
    for port in 0..3u16 {
        hw.arrive(
            Port::Client,
            seg(
                (CLIENT, 1000 + port),
                (VIP, 80),
                1,
                0,
                tf::SYN,
                &[],
                &[],
                CMAC,
            ),
        );
    }
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(
        sent.iter()
            .filter(|(_, s, _)| s.has(tf::SYN | tf::ACK))
            .count(),
        2
    );
    let rst = sent.iter().find(|(_, s, _)| s.has(tf::RST)).unwrap().1;
    assert_eq!(rst.dst_port, 1002);
    assert_eq!(sp.stats.refused_full, 1);
}

#[test]
fn commands_validate_their_arguments() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, &mut w.free, &mut w.bufs, 1, 2);
    let mut rsp = [0u32; MAX_WORDS];
    let mut st = |sp: &mut Splicer, c: u32, req: &[u32]| {
        sp.command(&mut hw, c, req, &mut rsp).unwrap().status
    };
    assert_eq!(
        st(&mut sp, cmd::SVC_SET, &[8, VIP, 80, 1, 0]),
        status::BAD_ARGUMENT
    );
    assert_eq!(
        st(&mut sp, cmd::SVC_SET, &[0, VIP, 0, 1, 0]),
        status::BAD_ARGUMENT
    );
    assert_eq!(
        st(&mut sp, cmd::SVC_SET, &[0, VIP, 80, 3, 0]),
        status::BAD_ARGUMENT
    );
    assert_eq!(st(&mut sp, cmd::SVC_SET, &[0, VIP, 80]), status::BAD_LENGTH);
    assert_eq!(
        st(&mut sp, cmd::SVC_SET, &[0, 0, 0, 0, 0]),
        status::NOT_FOUND
    );
    assert_eq!(
        st(&mut sp, cmd::POOL_SET, &[0, 14, 0, 0, 0]),
        status::BAD_ARGUMENT
    );
    assert_eq!(
        st(&mut sp, cmd::SERVER_SET, &[0, SRV[0], 80, 0, 0, 1, 0, 0]),
        status::NOT_FOUND
    );
    assert_eq!(st(&mut sp, cmd::POOL_SET, &[0, 1, 0, 0, 0]), status::OK);
    assert_eq!(
        st(
            &mut sp,
            cmd::SERVER_SET,
            &[64 << 8, SRV[0], 80, 0, 0, 1, 0, 0]
        ),
        status::BAD_ARGUMENT
    );
    assert_eq!(
        st(
            &mut sp,
            cmd::SERVER_SET,
            &[0, SRV[0], 80, 0, 0, 70_000, 0, 0]
        ),
        status::BAD_ARGUMENT
    );
    assert_eq!(
        st(&mut sp, cmd::SERVER_SET, &[0, SRV[0], 80, 0, 0, 1, 0, 0]),
        status::OK
    );
    assert_eq!(st(&mut sp, cmd::POOL_DEL, &[0]), status::BUSY);
    assert_eq!(
        st(&mut sp, cmd::TIMEOUT_SET, &[11, 5]),
        status::BAD_ARGUMENT
    );
    assert_eq!(st(&mut sp, cmd::TIMEOUT_SET, &[1, 0]), status::BAD_ARGUMENT);
    assert_eq!(st(&mut sp, cmd::SERVER_DEL, &[0]), status::OK);
    assert_eq!(st(&mut sp, cmd::SERVER_DEL, &[0]), status::NOT_FOUND);
    assert_eq!(st(&mut sp, cmd::POOL_DEL, &[0]), status::OK);
}

#[test]
fn half_entries_round_trip() {
    let h = Half {
        peer_mac: [1, 2, 3, 4, 5, 6],
        peer_ip: 0xdead_beef,
        peer_port: 0xabcd,
        local_ip: 0x0102_0304,
        local_port: 80,
    };
    let mut w = [0u32; STATIC_WORDS];
    encode_half(&mut w, CLIENT_HALF, &h);
    encode_half(&mut w, SERVER_HALF, &Half { peer_port: 1, ..h });
    assert_eq!(decode_half(&w, CLIENT_HALF), h);
    assert_eq!(decode_half(&w, SERVER_HALF).peer_port, 1);
    assert_eq!(w[0..4], [0; 4]);
}

#[test]
fn request_right_behind_the_handshake_ack_is_matched_from_the_buffer() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 2);
    hw.arrive(
        Port::Client,
        seg((CLIENT, 5555), (VIP, 80), 10, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    let card_isn = hw.take_sent()[0].1.seq;
    // Both segments are decided by the data path before the firmware sees the ACK, so the
    // request is not fed to the inline matcher.
    let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 5555),
            (VIP, 80),
            11,
            card_isn + 1,
            tf::ACK,
            &[],
            &[],
            CMAC,
        ),
    );
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 5555),
            (VIP, 80),
            11,
            card_isn + 1,
            tf::ACK,
            &[],
            req,
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(hw.l7.len(), 1, "buffer match issued");
    assert_eq!(hw.l7[0].0, req.to_vec());
    hw.events
        .push_back([2 | 1 << 8 | 1 << 13, u32::from(hw.l7[0].1), 1 << 16, 0]);
    hw.take_sent();
    sp.poll(&mut hw);
    assert!(hw
        .take_sent()
        .iter()
        .any(|(p, s, _)| *p == Port::Server && s.has(tf::SYN)));
}

#[test]
fn bit_fields_round_trip_at_every_offset() {
    for lsb in 0..100 {
        for width in [1, 7, 16, 31, 32, 33, 48, 64] {
            let mut w = [0xa5a5_a5a5u32; 6];
            let before = w;
            let v = 0x0123_4567_89ab_cdefu64 & (u64::MAX >> (64 - width));
            put_bits(&mut w, lsb, width, v);
            assert_eq!(get_bits(&w, lsb, width), v, "lsb {lsb} width {width}");
            // Bits outside the field are untouched.
            for b in (0..192).filter(|b| *b < lsb || *b >= lsb + width) {
                assert_eq!(w[b / 32] >> (b % 32) & 1, before[b / 32] >> (b % 32) & 1);
            }
        }
    }
}

#[test]
fn restart_keeps_spliced_flows_and_drops_half_open_ones() {
    let mut w = world();
    let mut hw = Fake {
        now: 1000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 1);
    // Two spliced connections (L4 service: the server is chosen at the handshake ACK).
    for port in [7000u16, 7001] {
        connect(&mut sp, &mut hw, port, 100, b"GET / HTTP/1.1\r\n\r\n");
        let syn = hw
            .take_sent()
            .into_iter()
            .find(|(p, s, _)| *p == Port::Server && s.has(tf::SYN))
            .unwrap()
            .1;
        // SACK-permitted and timestamps, as the client half has them.
        let opts = [4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 102, 1, 1, 1, 1];
        let mut sa = seg(
            (syn.dst_ip, 8080),
            (LOCAL, syn.src_port),
            9,
            101,
            tf::SYN | tf::ACK,
            &opts,
            &[],
            CMAC,
        );
        sa[0..6].copy_from_slice(&CARD_S);
        hw.arrive(Port::Server, sa);
        sp.poll(&mut hw);
        hw.take_sent();
    }
    // One connection still in its handshake.
    hw.arrive(
        Port::Client,
        seg((CLIENT, 7002), (VIP, 80), 1, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    assert_eq!(sp.stats.spliced, 2, "{:?}", sp.stats);
    assert_eq!(hw.table.len(), 5);
    // The firmware restarts: new state, same data path.
    let mut w2 = world();
    let mut sp = Splicer::new(CLK, 64, &mut w2.free, &mut w2.bufs, 3, 4);
    assert_eq!(sp.rebuild(&mut hw), 2);
    assert_eq!(hw.table.len(), 4, "the half-open flow's key is gone");
    assert_eq!(sp.slots_in_use(), 2);
    configure(&mut sp, &mut hw, 1);
    let mut rsp = [0u32; MAX_WORDS];
    let mut active = 0;
    for rs in 0..2 {
        sp.command(&mut hw, cmd::SERVER_STATS, &[rs], &mut rsp);
        active += rsp[0];
    }
    assert_eq!(active, 2, "the kept flows count on their servers again");
    // New connections get slots that are not in use.
    hw.arrive(
        Port::Client,
        seg((CLIENT, 7003), (VIP, 80), 1, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    assert_eq!(sp.slots_in_use(), 3);
    assert_eq!(hw.table.len(), 5);
}

#[test]
fn syn_flood_falls_back_to_cookies_and_real_clients_still_connect() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 256, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 2);
    // A flood from spoofed ports fills every setup entry.
    for port in 0..PENDING as u16 {
        hw.arrive(
            Port::Client,
            seg(
                (0x0b00_0001, 1000 + port),
                (VIP, 80),
                1,
                0,
                tf::SYN,
                &[],
                &[],
                CMAC,
            ),
        );
        sp.poll(&mut hw);
    }
    hw.take_sent();
    assert_eq!(sp.pending(), PENDING);
    assert_eq!(sp.slots_in_use(), PENDING);
    // The next SYN gets a stateless SYN-ACK offering only the MSS.
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 6000),
            (VIP, 80),
            500,
            0,
            tf::SYN,
            &TS_SYN,
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    let (_, synack, f) = &sent[0];
    assert!(synack.has(tf::SYN | tf::ACK));
    assert_eq!(&f[synack.opts.0..synack.opts.1], &[2, 4, 0x05, 0xb4]);
    assert_eq!(sp.stats.cookie_syn_acks, 1);
    assert_eq!(sp.slots_in_use(), PENDING, "no state for the cookie");
    // A forged ACK is not accepted.
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 6000),
            (VIP, 80),
            501,
            synack.seq.wrapping_add(2),
            tf::ACK,
            &[],
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(sp.slots_in_use(), PENDING);
    // The real client's ACK with its request: accepted (a flood entry makes room).
    let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    hw.take_sent();
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 6000),
            (VIP, 80),
            501,
            synack.seq.wrapping_add(1),
            tf::ACK,
            &[],
            req,
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(hw.l7.len(), 1, "request matched from the buffer");
    assert_eq!(hw.l7[0].0, req.to_vec());
    let ack = hw
        .take_sent()
        .into_iter()
        .find(|(p, s, _)| *p == Port::Client && s.dst_port == 6000)
        .unwrap()
        .1;
    assert_eq!(ack.ack, 501 + req.len() as u32);
    assert_eq!(sp.pending(), PENDING);
}

#[test]
fn request_with_fin_is_acknowledged_and_replayed_with_the_fin() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 2);
    hw.arrive(
        Port::Client,
        seg((CLIENT, 5000), (VIP, 80), 10, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    let card_isn = hw.take_sent()[0].1.seq;
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 5000),
            (VIP, 80),
            11,
            card_isn + 1,
            tf::ACK,
            &[],
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 5000),
            (VIP, 80),
            11,
            card_isn + 1,
            tf::ACK | tf::FIN,
            &[],
            req,
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    let ack = hw.take_sent().pop().unwrap().1;
    assert_eq!(
        ack.ack,
        11 + req.len() as u32 + 1,
        "request and FIN acknowledged"
    );
    hw.events.push_back([
        2 | 1 << 13,
        u32::from(hw.l7.first().map_or(0, |l| l.1)),
        1 << 16,
        0,
    ]);
    if hw.l7.is_empty() {
        // Inline verdict for the slot (the fake fed the segment to the inline matcher).
        let slot = hw.table.values().next().unwrap().0;
        hw.events.clear();
        hw.events
            .push_back([2 | 1 << 13, u32::from(slot), 1 << 16, 0]);
    }
    sp.poll(&mut hw);
    let syn = hw.take_sent().pop().unwrap().1;
    assert!(syn.has(tf::SYN));
    let mut sa = seg(
        (syn.dst_ip, 8080),
        (LOCAL, syn.src_port),
        77,
        11,
        tf::SYN | tf::ACK,
        &[],
        &[],
        CMAC,
    );
    sa[0..6].copy_from_slice(&CARD_S);
    hw.arrive(Port::Server, sa);
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    let last = &sent.last().unwrap().1;
    assert!(last.has(tf::FIN | tf::ACK), "the FIN follows the request");
    assert_eq!(last.seq + last.payload_len() as u32, 11 + req.len() as u32);
    let slot = hw.table.values().next().unwrap().0;
    assert_eq!(
        hw.entry(slot)[0] & 0xff,
        u32::from(FlowState::Closing.raw())
    );
    assert_eq!(sp.stats.spliced, 1);
    assert_eq!(sp.stats.setup_failed, 0);
}

#[test]
fn silent_server_gets_retransmissions_then_the_next_server_is_tried() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 1);
    let mut rsp = [0u32; MAX_WORDS];
    // 2 ms between SYNs, 2 SYNs per server.
    let r = sp
        .command(&mut hw, cmd::SETUP_SET, &[0, 2, 2], &mut rsp)
        .unwrap();
    assert_eq!(r.status, status::OK);
    connect(&mut sp, &mut hw, 9000, 300, b"GET / HTTP/1.1\r\n\r\n");
    let syns = |hw: &mut Fake| -> Vec<u32> {
        hw.take_sent()
            .into_iter()
            .filter(|(p, s, _)| *p == Port::Server && s.has(tf::SYN))
            .map(|(_, s, _)| s.dst_ip)
            .collect()
    };
    let first = syns(&mut hw);
    assert_eq!(first.len(), 1);
    // 2 ms = 4.8 DP.NOW ticks at 156.25 MHz.
    let mut seen = first.clone();
    for _ in 0..3 {
        hw.now += 5;
        sp.poll(&mut hw);
        seen.extend(syns(&mut hw));
    }
    assert_eq!(seen.len(), 4, "two SYNs to each server: {seen:?}");
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[2], seen[3]);
    assert_ne!(seen[0], seen[2]);
    assert_eq!(sp.stats.server_retries, 1);
    // The second server stays silent too: the client is reset, everything is freed.
    hw.now += 5;
    sp.poll(&mut hw);
    assert_eq!(sp.stats.server_retries, 2);
    assert_eq!(sp.stats.setup_failed, 1);
    assert_eq!(sp.slots_in_use(), 0);
    assert!(hw.table.is_empty());
}

#[test]
fn rest_of_the_head_buffered_before_the_incomplete_verdict_is_matched_at_once() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, &mut w.free, &mut w.bufs, 1, 2);
    configure(&mut sp, &mut hw, 2);
    let (slot, card_isn) = connect(&mut sp, &mut hw, 40005, 7000, b"GET /a HTTP/1.1\r\nHo");
    // The rest of the head arrives before the inline verdict on the first part.
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 40005),
            (VIP, 80),
            7001 + 19,
            card_isn.wrapping_add(1),
            tf::ACK,
            &ts(103, 0),
            b"st: x\r\n\r\n",
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert!(hw.l7.is_empty());
    hw.events.push_back([2 | 1 << 14, u32::from(slot), 0, 0]);
    sp.poll(&mut hw);
    assert_eq!(
        hw.l7.len(),
        1,
        "the whole head is matched without waiting for more bytes"
    );
    assert_eq!(hw.l7[0].0, b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n".to_vec());
}
