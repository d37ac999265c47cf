//! The SYN-ACK absorber in the data path (DP.ABSORB_*; docs/server-open.md, "The absorber
//! in the data path"): a server's SYN-ACK to a CONNECTING entry the firmware armed (record
//! SetupCtx) is absorbed by the card, which writes the SPLICED entry, sends the handshake
//! ACK with the request head from its buffer and queues the setup (slot, generation) for the
//! firmware's bookkeeping in DP.ABSORB_HEAD, the SYN-ACK dropped; with that queue full it
//! punts the SYN-ACK with verdict ABSORBED instead (DP.ABSORB_SPILLED).
//!
//! The reference is the firmware's own code: `absorb_synack` on the same context and segment
//! decides, its words are the entry, and `TcpOut::write` with the checksums the inject
//! offload fills in (`firmware_replay`) is the frame.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_driver::regs;
use splicenic_fw_logic::flowmgr::tcpopts::{Handshake, OptionsPolicy, SynOptions, Timestamps};
use splicenic_fw_logic::splicer::absorb::{
    absorb_synack, SynAckContext, SynAckSegment, SynAckVerdict,
};
use splicenic_fw_logic::splicer::frame::{GenFrame, GenOpts};
use splicenic_layout::{
    engine_verdict, flow_op, flow_state, FlowDyn, FlowHalfEntry, FlowStatic, SetupCtx,
};
use splicenic_tb_datapath::engine::fix_tcp_checksum;
use splicenic_tb_datapath::testkit::*;
use splicenic_tb_datapath::{Datapath, Port, TxFrame};

const SYN: u8 = 0x02;
const RST: u8 = 0x04;
const ACK: u8 = 0x10;
const FIN: u8 = 0x01;

/// How the server's options are laid out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Layout {
    /// Linux's (and the card's own SYNs'): the absorber reads it.
    Linux,
    /// MSS, NOP, WS, SACK-permitted, timestamps (the same options in another order, as
    /// BSD writes them): the firmware's.
    Other,
}

/// One connection in setup and the server's answer to the card's SYN.
struct Case {
    slot: u16,
    gen: u8,
    hs: Handshake,
    client_isn: u32,
    card_isn: u32,
    card_tsval: u32,
    client_tsval: u32,
    client_win: u16,
    rs: u8,
    client: FlowHalfEntry,
    server_mac: [u8; 6],
    server_ip: u32,
    server_port: u16,
    head: Vec<u8>,
    // the server's segment
    flags: u8,
    server_isn: u32,
    ack: u32,
    opts: SynOptions,
    layout: Layout,
}

fn mac(m: [u8; 6]) -> u64 {
    m.iter().fold(0u64, |a, &b| a << 8 | u64::from(b))
}

fn random_case(rng: &mut ChaCha8Rng, slot: u16) -> Case {
    let policy = OptionsPolicy {
        mss: rng.gen_range(536..=1460),
        wscale: rng.gen_bool(0.8),
        server_wscale: rng.gen_range(0..=14),
        sack: rng.gen_bool(0.8),
        timestamps: rng.gen_bool(0.8),
    };
    let syn = SynOptions {
        mss: Some(rng.gen_range(536..=1460)),
        wscale: rng.gen_bool(0.8).then(|| rng.gen_range(0..=14)),
        sack_permitted: rng.gen_bool(0.8),
        timestamps: rng.gen_bool(0.8).then(|| Timestamps {
            tsval: rng.gen(),
            tsecr: 0,
        }),
        ignored: 0,
    };
    let hs = Handshake::from_client_syn(&policy, &syn).expect("valid policy");
    let client_isn: u32 = rng.gen();
    // the server's options: mostly what the client half uses, sometimes declining
    let opts = SynOptions {
        mss: Some(match rng.gen_range(0..8) {
            0 => rng.gen_range(48..536),
            1 => rng.gen(),
            _ => rng.gen_range(536..=1460),
        }),
        wscale: rng.gen_bool(0.8).then(|| rng.gen_range(0..=15)),
        sack_permitted: if hs.sack {
            rng.gen_ratio(9, 10)
        } else {
            rng.gen()
        },
        timestamps: (if hs.timestamps {
            rng.gen_ratio(9, 10)
        } else {
            rng.gen()
        })
        .then(|| Timestamps {
            tsval: rng.gen(),
            tsecr: rng.gen(),
        }),
        ignored: 0,
    };
    let (flags, ack) = match rng.gen_range(0..20) {
        0 => (SYN | ACK, client_isn.wrapping_add(2)),
        1 => (SYN | ACK | RST, client_isn.wrapping_add(1)),
        2 => (SYN | ACK | FIN, client_isn.wrapping_add(1)),
        _ => (SYN | ACK, client_isn.wrapping_add(1)),
    };
    let head_len = match rng.gen_range(0..10) {
        0 => 0,
        1 => rng.gen_range(500..=1024),
        _ => rng.gen_range(1..=300),
    };
    Case {
        slot,
        gen: rng.gen_range(1..=255),
        hs,
        client_isn,
        card_isn: rng.gen(),
        card_tsval: rng.gen(),
        client_tsval: rng.gen(),
        client_win: rng.gen(),
        rs: rng.gen_range(0..64),
        client: FlowHalfEntry {
            peer_mac: mac([0x02, 0xc1, 0, 0, (slot >> 8) as u8, slot as u8]),
            peer_ip: rng.gen(),
            peer_port: rng.gen(),
            local_ip: a(VIP),
            local_port: VIP_PORT,
        },
        server_mac: [0x02, 0x51, 0, 0, 0, rng.gen()],
        server_ip: rng.gen(),
        server_port: rng.gen(),
        head: (0..head_len).map(|_| rng.gen()).collect(),
        flags,
        server_isn: rng.gen(),
        ack,
        opts,
        layout: if rng.gen_ratio(1, 10) {
            Layout::Other
        } else {
            Layout::Linux
        },
    }
}

impl Case {
    fn local_port(&self) -> u16 {
        splicenic_layout::LOCAL_PORT_BASE as u16 + self.slot
    }

    /// The armed CONNECTING entry the firmware writes when it sends the server SYN.
    fn armed(&self, id: u32) -> [u32; FlowStatic::WORDS] {
        SetupCtx {
            state: flow_state::CONNECTING,
            sack: self.hs.sack,
            ts: self.hs.timestamps,
            ws: self.hs.client_wscale.is_some(),
            armed: true,
            client_shift: self.hs.client_wscale.unwrap_or(0),
            server_shift: self.hs.server_wscale.unwrap_or(0),
            real_server: self.rs,
            card_tsval: self.card_tsval,
            client_isn: self.client_isn,
            card_isn: self.card_isn,
            client: self.client,
            server_mac: mac(self.server_mac),
            server_ip: self.server_ip,
            server_port: self.server_port,
            client_win: self.client_win,
            mss: self.hs.client_mss.min(self.hs.mss_to_client),
            head_len: self.head.len() as u16,
            head_id: id as u8,
            client_tsval: self.client_tsval,
            gen: self.gen,
        }
        .pack()
    }

    fn server_half(&self) -> FlowHalfEntry {
        FlowHalfEntry {
            peer_mac: mac(self.server_mac),
            peer_ip: self.server_ip,
            peer_port: self.server_port,
            local_ip: a(LOCAL),
            local_port: self.local_port(),
        }
    }

    /// The server's SYN-ACK on the wire.
    fn synack(&self) -> Vec<u8> {
        let g = GenFrame {
            src_mac: self.server_mac,
            dst_mac: MAC_S,
            src_ip: self.server_ip,
            dst_ip: a(LOCAL),
            src_port: self.server_port,
            dst_port: self.local_port(),
            seq: self.server_isn,
            ack: self.ack,
            flags: self.flags,
            window: 0xfaf0,
            opts: GenOpts::Syn {
                mss: self.opts.mss.unwrap_or(0),
                sack: self.opts.sack_permitted,
                ts: self.opts.timestamps,
                wscale: self.opts.wscale,
            },
        };
        let mut f = firmware_replay(&g, &[]);
        if self.layout == Layout::Other {
            // MSS NOP WS SACK_PERM TS: every option present, 20 bytes, as the Linux layout
            // with all of them
            assert!(self.opts.sack_permitted && self.opts.timestamps.is_some());
            let t = self.opts.timestamps.expect("ts");
            let m = self.opts.mss.unwrap_or(0).to_be_bytes();
            let o = &mut f[54..74];
            o[..8].copy_from_slice(&[2, 4, m[0], m[1], 1, 3, 3, self.opts.wscale.expect("ws")]);
            o[8..10].copy_from_slice(&[4, 2]);
            o[10..12].copy_from_slice(&[8, 10]);
            o[12..16].copy_from_slice(&t.tsval.to_be_bytes());
            o[16..20].copy_from_slice(&t.tsecr.to_be_bytes());
            fix_tcp_checksum(&mut f);
        }
        f
    }

    /// The firmware's model of the segment.
    fn model(&self) -> splicenic_fw_logic::splicer::absorb::Absorbed {
        let ctx = SynAckContext {
            client_isn: self.client_isn,
            card_isn: self.card_isn,
            card_tsval: self.card_tsval,
            client_win: self.client_win,
            hs: self.hs,
            real_server: self.rs,
            client_fin: false,
        };
        let seg = SynAckSegment {
            flags: self.flags,
            seq: self.server_isn,
            ack: self.ack,
            opts: self.opts,
        };
        absorb_synack(&ctx, &seg)
    }

    /// Whether the card absorbs it: the firmware's SPLICE, one segment for the head, the
    /// options in the layout the card reads.
    fn absorbed(&self) -> bool {
        let m = self.model();
        m.verdict == SynAckVerdict::Splice
            && self.head.len() <= usize::from(m.chunk)
            && self.layout == Layout::Linux
    }

    /// The SPLICED entry the firmware would write.
    fn spliced(&self) -> [u32; FlowStatic::WORDS] {
        let m = self.model();
        let mut w = FlowStatic {
            client: self.client,
            server: self.server_half(),
            gen: self.gen,
            ..FlowStatic::default()
        }
        .pack();
        w[..4].copy_from_slice(&m.words);
        w
    }

    /// The firmware's replay: the handshake ACK with the head.
    fn replay(&self) -> Vec<u8> {
        let m = self.model();
        let g = GenFrame {
            src_mac: MAC_S,
            dst_mac: self.server_mac,
            src_ip: a(LOCAL),
            dst_ip: self.server_ip,
            src_port: self.local_port(),
            dst_port: self.server_port,
            seq: self.client_isn.wrapping_add(1),
            ack: m.ack,
            flags: ACK,
            window: m.window,
            opts: GenOpts::Ack {
                ts: self.hs.timestamps.then(|| Timestamps {
                    tsval: self.client_tsval,
                    tsecr: self.opts.timestamps.map_or(0, |t| t.tsval),
                }),
            },
        };
        firmware_replay(&g, &self.head)
    }
}

/// A random setup the card absorbs: a Linux server answering with SYN-ACK, the options the
/// client half uses, MSS 1460, a head of at most `head_max` bytes.
fn absorbable_case(rng: &mut ChaCha8Rng, slot: u16, head_max: usize) -> Case {
    let mut c = random_case(rng, slot);
    c.layout = Layout::Linux;
    c.flags = SYN | ACK;
    c.ack = c.client_isn.wrapping_add(1);
    c.opts.mss = Some(1460);
    c.opts.timestamps = c.hs.timestamps.then_some(Timestamps { tsval: 3, tsecr: 4 });
    c.opts.sack_permitted = c.hs.sack;
    c.head.truncate(head_max);
    assert!(c.absorbed(), "a case the card absorbs");
    c
}

fn setup(width: u32) -> (Datapath, ChaCha8Rng) {
    let mut dp = Datapath::new(width).expect("data path model");
    configure(&mut dp);
    dp.tick(200);
    let ctrl = dp.read(r(regs::dp::ABSORB_CTRL));
    assert_eq!(
        ctrl >> regs::dp::absorb_ctrl::PRESENT_SHIFT & 1,
        1,
        "present"
    );
    assert_eq!(ctrl & 1, 0, "off at reset");
    dp.write(
        r(regs::dp::ABSORB_CTRL),
        1 << regs::dp::absorb_ctrl::ENABLE_SHIFT,
    );
    (
        dp,
        ChaCha8Rng::seed_from_u64(0xab50_0000 + u64::from(width)),
    )
}

/// Arms `c` on the card: a head buffer with its head, the armed entry, the server key.
fn arm(dp: &mut Datapath, c: &Case, armed: bool) -> u32 {
    let id = head_alloc(dp).expect("a free head buffer");
    dp.tick(4);
    for (k, part) in c.head.chunks(400).enumerate() {
        head_append(dp, id, k * 400, part);
        dp.tick(80);
    }
    let mut w = c.armed(id);
    if !armed {
        SetupCtx::ARMED.put(&mut w, 0);
    }
    write_state(dp, c.slot, &w, &FlowDyn::default().pack());
    let key = (c.server_ip, a(LOCAL), c.server_port, c.local_port());
    let (st, _) = flow_cmd(
        dp,
        regs::flow::cmd::OP_INSERT,
        key,
        u32::from(c.slot) | 1 << 16,
    );
    assert_eq!(st, FLOW_OK, "server key of slot {}", c.slot);
    id
}

fn disarm(dp: &mut Datapath, c: &Case) {
    let key = (c.server_ip, a(LOCAL), c.server_port, c.local_port());
    flow_cmd(dp, regs::flow::cmd::OP_DELETE, key, 0);
}

fn counters(dp: &mut Datapath) -> (u32, u32) {
    (
        dp.read(r(regs::dp::ABSORB_DONE)),
        dp.read(r(regs::dp::ABSORB_PUNTED)),
    )
}

/// DP.ABSORB_HEAD then DP.ABSORB_POP: the oldest absorbed setup's slot and generation, and
/// the queue's level before the pop; `None` when the queue is empty.
fn absorb_pop(dp: &mut Datapath) -> Option<(u16, u8, u32)> {
    use regs::dp::absorb_head as h;
    let v = dp.read(r(regs::dp::ABSORB_HEAD));
    if v >> h::VALID_SHIFT & 1 == 0 {
        assert_eq!(v, 0, "an empty queue reads 0");
        return None;
    }
    dp.write(r(regs::dp::ABSORB_POP), 1);
    Some((
        (v >> h::SLOT_SHIFT & 0xffff) as u16,
        (v >> h::GEN_SHIFT & 0xff) as u8,
        v >> h::LEVEL_SHIFT & 0x7f,
    ))
}

/// Where `c`'s SYN-ACK went: true when the card absorbed it and queued the setup (nothing
/// punted), false when it punted the SYN-ACK whole without its verdict; a spilled one
/// (punted with verdict ABSORBED) is an error here.
fn outcome(dp: &mut Datapath, c: &Case) -> bool {
    if let Some((slot, gen, _)) = absorb_pop(dp) {
        assert_eq!((slot, gen), (c.slot, c.gen), "the queued setup");
        return true;
    }
    punted_whole(dp, c);
    false
}

/// `c`'s SYN-ACK punted whole without the card's verdict.
fn punted_whole(dp: &mut Datapath, c: &Case) {
    let (desc, frame) = punt_pop(dp).unwrap_or_else(|| panic!("slot {}: punted", c.slot));
    assert_eq!(
        frame,
        c.synack(),
        "slot {}: the SYN-ACK punted whole",
        c.slot
    );
    let m = meta(&desc);
    assert_eq!(m.engine, engine_verdict::NONE, "slot {}: verdict", c.slot);
    assert_eq!(m.flow_slot, c.slot);
    assert_eq!(m.slot_gen, c.gen);
}

/// Checks what the card did with `c`'s SYN-ACK, given whether it absorbed it.
fn check(
    dp: &mut Datapath,
    c: &Case,
    (id, armed): (u32, bool),
    absorbed: bool,
    sent: &mut Vec<TxFrame>,
) {
    if absorbed {
        let q = absorb_pop(dp).map(|(slot, gen, _)| (slot, gen));
        assert_eq!(q, Some((c.slot, c.gen)), "slot {}: queued", c.slot);
    } else {
        punted_whole(dp, c);
    }
    let (st, _) = read_state(dp, c.slot);
    if absorbed {
        assert_eq!(
            st,
            c.spliced().to_vec(),
            "slot {}: the SPLICED entry",
            c.slot
        );
        let f = sent.remove(0);
        assert_eq!(
            f.data,
            c.replay(),
            "slot {}: the handshake ACK with the head",
            c.slot
        );
    } else {
        let mut w = c.armed(id);
        SetupCtx::ARMED.put(&mut w, armed.into());
        assert_eq!(st, w.to_vec(), "slot {}: the entry untouched", c.slot);
        // the firmware gives the buffer back (or replays it itself)
        dp.write(r(regs::dp::HEAD_FREE), id << regs::dp::head_free::ID_SHIFT);
    }
}

/// One SYN-ACK at a time: 400 random connections (contexts, server options in both layouts,
/// heads of 0 to 1,024 bytes, other acks, RST and FIN bits, servers declining timestamps or
/// SACK), half of them armed: every armed one absorbed exactly when the firmware's model
/// splices it with a head of one segment in a layout the card reads, the entry equal to the
/// firmware's, the frame equal to the firmware's replay; every other one punted untouched;
/// the counters; every head buffer back at the end.
fn absorb_one_by_one(width: u32) {
    let (mut dp, mut rng) = setup(width);
    let mut want = (0u32, 0u32);
    let mut kinds = [0u32; 3];
    for i in 0..400u16 {
        let mut c = random_case(&mut rng, 1 + i);
        if c.layout == Layout::Other {
            c.opts.sack_permitted = true;
            c.opts.wscale = Some(c.opts.wscale.unwrap_or(7));
            c.opts.timestamps.get_or_insert(Timestamps {
                tsval: rng.gen(),
                tsecr: rng.gen(),
            });
        }
        let armed = rng.gen_bool(0.5) || i < 8;
        let id = arm(&mut dp, &c, armed);
        dp.push(Port::Server, &c.synack(), false);
        assert!(dp.settle(200, 100_000), "settled");
        let absorbed = armed && c.absorbed();
        let mut sent = dp.drain(Port::Server);
        assert_eq!(
            sent.len(),
            usize::from(absorbed),
            "slot {}: frames out",
            c.slot
        );
        check(&mut dp, &c, (id, armed), absorbed, &mut sent);
        if armed {
            if absorbed {
                want.0 += 1;
            } else {
                want.1 += 1;
            }
        }
        kinds[if absorbed {
            0
        } else if armed {
            1
        } else {
            2
        }] += 1;
        disarm(&mut dp, &c);
    }
    assert_eq!(counters(&mut dp), want, "ABSORB_DONE, ABSORB_PUNTED");
    assert!(
        kinds.iter().all(|&k| k > 20),
        "every outcome often: {kinds:?}"
    );
    assert_eq!(dp.read(r(regs::dp::HEAD_BAD)), 0, "no bad head operation");
    let (_, _, in_use, ..) = head_status_of(&mut dp);
    assert_eq!(in_use, 1, "every buffer back (one held ready)");
}

/// HEAD_STATUS: LEN, APPENDING, IN_USE.
fn head_status_of(dp: &mut Datapath) -> (u32, bool, u32) {
    use regs::dp::head_status as hs;
    let v = dp.read(r(regs::dp::HEAD_STATUS));
    (
        v >> hs::LEN_SHIFT & 0x7ff,
        v >> hs::APPENDING_SHIFT & 1 == 1,
        v >> hs::IN_USE_SHIFT & 0xff,
    )
}

#[test]
fn absorb_one_by_one_64() {
    absorb_one_by_one(64);
}

#[test]
fn absorb_one_by_one_512() {
    absorb_one_by_one(512);
}

/// Bursts: 16 armed connections' SYN-ACKs back to back on the server port, under TX
/// back-pressure: the absorber takes what its candidate queue holds and leaves the rest to
/// the firmware; every punt and every done-queue record in wire order; each absorbed one's
/// entry and frame the firmware's (frames in wire order), each other one untouched; DONE +
/// PUNTED the armed SYN-ACKs.
fn absorb_bursts(width: u32) {
    let (mut dp, mut rng) = setup(width);
    dp.set_tx_stall(300);
    let mut total = 0u32;
    let mut absorbed_n = 0u32;
    let mut splicing = 0usize;
    for b in 0..6u16 {
        let cases: Vec<Case> = (0..16u16)
            .map(|k| {
                let mut c = random_case(&mut rng, 1 + b * 16 + k);
                c.layout = Layout::Linux;
                c.flags = SYN | ACK;
                c.ack = c.client_isn.wrapping_add(1);
                c.head.truncate(200);
                c
            })
            .collect();
        splicing += cases.iter().filter(|c| c.absorbed()).count();
        let ids: Vec<u32> = cases.iter().map(|c| arm(&mut dp, c, true)).collect();
        for c in &cases {
            dp.push(Port::Server, &c.synack(), false);
        }
        assert!(dp.settle(400, 400_000), "settled");
        let mut sent = dp.drain(Port::Server);
        for (c, &id) in cases.iter().zip(&ids) {
            let (st, _) = read_state(&mut dp, c.slot);
            let absorbed = st[0] & 0xff == u32::from(flow_state::SPLICED)
                || st[0] & 0xff == u32::from(flow_state::CLOSING);
            if absorbed {
                assert!(
                    c.absorbed(),
                    "slot {}: absorbed only when the model splices",
                    c.slot
                );
                absorbed_n += 1;
            }
            check(&mut dp, c, (id, true), absorbed, &mut sent);
            disarm(&mut dp, c);
            total += 1;
        }
        assert!(sent.is_empty(), "no other frame");
        assert!(punt_pop(&mut dp).is_none(), "no other punt");
        assert_eq!(absorb_pop(&mut dp), None, "no other record");
    }
    let (done, punted) = counters(&mut dp);
    assert_eq!(done, absorbed_n);
    assert_eq!(done + punted, total, "every armed SYN-ACK counted once");
    let able = splicing as u32;
    println!(
        "DATA_WIDTH {width}: {total} armed SYN-ACKs in bursts of 16, {able} the firmware \
         would splice, {absorbed_n} absorbed by the card"
    );
    // the queue (4) and the candidate in hand take the first five of each burst at least
    assert!(
        absorbed_n >= able.min(6 * 5),
        "absorbed: {absorbed_n} of {able}"
    );
}

#[test]
fn absorb_bursts_64() {
    absorb_bursts(64);
}

#[test]
fn absorb_bursts_512() {
    absorb_bursts(512);
}

/// A firmware write of the entry while the card absorbs the SYN-ACK (the firmware ending
/// the setup on a client RST, or disarming it), at every cycle offset from the SYN-ACK's
/// arrival: the firmware's entry always stands, and the SYN-ACK is absorbed (its frame sent,
/// the setup queued) only when the card's write came first; both outcomes seen.
fn absorb_vs_firmware_write(width: u32) {
    let (mut dp, mut rng) = setup(width);
    let mut seen = [false; 2];
    for k in 0..90u16 {
        let c = absorbable_case(&mut rng, 1 + k, 64);
        let id = arm(&mut dp, &c, true);
        // the firmware's write: the entry disarmed, everything staged but the command
        let mut fw = c.armed(id);
        SetupCtx::ARMED.put(&mut fw, 0);
        for (i, w) in fw.iter().enumerate() {
            dp.write(r(regs::flow::STATE_STATIC) + 4 * i as u32, *w);
        }
        for (i, w) in FlowDyn::default().pack().iter().enumerate() {
            dp.write(r(regs::flow::STATE_DYN) + 4 * i as u32, *w);
        }
        dp.write(r(regs::flow::STATE_SLOT), u32::from(c.slot));
        dp.push(Port::Server, &c.synack(), false);
        dp.tick(u64::from(k));
        dp.write(r(regs::flow::STATE_CMD), flow_op::WRITE.into());
        assert!(dp.settle(200, 100_000), "settled");
        let absorbed = outcome(&mut dp, &c);
        seen[usize::from(absorbed)] = true;
        let sent = dp.drain(Port::Server);
        assert_eq!(sent.len(), usize::from(absorbed), "offset {k}: frames");
        if absorbed {
            assert_eq!(sent[0].data, c.replay(), "offset {k}: the replay");
        } else {
            dp.write(r(regs::dp::HEAD_FREE), id << regs::dp::head_free::ID_SHIFT);
        }
        let (st, _) = read_state(&mut dp, c.slot);
        assert_eq!(st, fw.to_vec(), "offset {k}: the firmware's entry stands");
        disarm(&mut dp, &c);
    }
    assert_eq!(seen, [true, true], "both outcomes");
}

#[test]
fn absorb_vs_firmware_write_64() {
    absorb_vs_firmware_write(64);
}

#[test]
fn absorb_vs_firmware_write_512() {
    absorb_vs_firmware_write(512);
}

/// DP.ABSORB_DISARM: the firmware's disarm.
fn disarm_entry(dp: &mut Datapath, slot: u16, gen: u8) -> u8 {
    use regs::dp::{absorb_disarm as d, absorb_status as s};
    dp.write(
        r(regs::dp::ABSORB_DISARM),
        u32::from(slot) << d::SLOT_SHIFT | u32::from(gen) << d::GEN_SHIFT,
    );
    for _ in 0..1000 {
        let v = dp.read(r(regs::dp::ABSORB_STATUS));
        if v >> s::BUSY_SHIFT & 1 == 0 {
            return (v >> s::RESULT_SHIFT & 3) as u8;
        }
    }
    panic!("disarm did not finish");
}

/// The firmware's disarm (DP.ABSORB_DISARM) at every cycle offset from the SYN-ACK's
/// arrival: exactly one of the two happens. DISARMED: the entry unarmed and otherwise as
/// written, the SYN-ACK punted without the card's verdict, no frame. ABSORBED: the entry
/// SPLICED, the frame sent, the setup queued. Both outcomes seen; a disarm of an
/// unarmed entry, of another generation or of a free slot is NOT_ARMED, of a spliced one
/// ABSORBED again, and writes nothing.
fn absorb_disarm(width: u32) {
    use splicenic_layout::disarm_result as dr;
    let (mut dp, mut rng) = setup(width);
    let mut seen = [0u32; 2];
    for k in 0..90u16 {
        let c = absorbable_case(&mut rng, 1 + k, 64);
        let id = arm(&mut dp, &c, true);
        dp.push(Port::Server, &c.synack(), false);
        dp.tick(u64::from(k));
        let res = disarm_entry(&mut dp, c.slot, c.gen);
        assert!(dp.settle(200, 100_000), "settled");
        let absorbed = outcome(&mut dp, &c);
        let sent = dp.drain(Port::Server);
        let (st, _) = read_state(&mut dp, c.slot);
        assert_eq!(
            absorbed,
            res == dr::ABSORBED,
            "offset {k}: queued when absorbed"
        );
        match res {
            dr::DISARMED => {
                seen[0] += 1;
                assert!(sent.is_empty(), "offset {k}: no frame");
                let mut w = c.armed(id);
                SetupCtx::ARMED.put(&mut w, 0);
                assert_eq!(st, w.to_vec(), "offset {k}: unarmed");
                dp.write(r(regs::dp::HEAD_FREE), id << regs::dp::head_free::ID_SHIFT);
            }
            dr::ABSORBED => {
                seen[1] += 1;
                assert_eq!(sent.len(), 1, "offset {k}: the replay");
                assert_eq!(sent[0].data, c.replay(), "offset {k}: the replay");
                assert_eq!(st, c.spliced().to_vec(), "offset {k}: spliced");
            }
            other => panic!("offset {k}: disarm result {other}"),
        }
        // nothing armed left: the same answer for a spliced entry, NOT_ARMED for the
        // unarmed one; nothing written
        let again = if res == dr::ABSORBED {
            dr::ABSORBED
        } else {
            dr::NOT_ARMED
        };
        assert_eq!(disarm_entry(&mut dp, c.slot, c.gen), again);
        assert_eq!(
            read_state(&mut dp, c.slot).0,
            st,
            "offset {k}: nothing written"
        );
        disarm(&mut dp, &c);
    }
    // another generation, a free slot
    let c = random_case(&mut rng, 500);
    let id = arm(&mut dp, &c, true);
    assert_eq!(disarm_entry(&mut dp, c.slot, c.gen ^ 0x80), dr::NOT_ARMED);
    assert_eq!(read_state(&mut dp, c.slot).0, c.armed(id).to_vec());
    assert_eq!(disarm_entry(&mut dp, 600, 1), dr::NOT_ARMED);
    assert_eq!(disarm_entry(&mut dp, c.slot, c.gen), dr::DISARMED);
    assert!(seen.iter().all(|&n| n > 0), "both outcomes: {seen:?}");
    assert_eq!(counters(&mut dp).0, seen[1], "ABSORB_DONE");
}

#[test]
fn absorb_disarm_64() {
    absorb_disarm(64);
}

#[test]
fn absorb_disarm_512() {
    absorb_disarm(512);
}

/// Cycles of the absorber (printed for docs/server-open.md): from the SYN-ACK's push on an
/// idle server port to the first beat of the handshake ACK with the head, for heads of 60
/// and 300 bytes; and, four SYN-ACKs pushed back to back (all absorbed: the queue holds
/// four), the cycles between consecutive replays' first beats, the absorber's time per
/// SYN-ACK when it is the bottleneck.
fn absorb_cycles(width: u32) {
    let (mut dp, mut rng) = setup(width);
    let mut slot = 1u16;
    let mut case = |rng: &mut ChaCha8Rng, head: usize| {
        let mut c = absorbable_case(rng, slot, 0);
        slot += 1;
        c.head = (0..head).map(|_| rng.gen()).collect();
        assert!(c.absorbed());
        c
    };
    for head in [60, 300] {
        let c = case(&mut rng, head);
        arm(&mut dp, &c, true);
        dp.tick(50);
        let t0 = dp.cycles();
        dp.push(Port::Server, &c.synack(), false);
        assert!(dp.settle(200, 100_000));
        let out = dp.drain(Port::Server);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].data, c.replay());
        println!(
            "DATA_WIDTH {width}: head {head} bytes: SYN-ACK pushed to the replay's first beat {} cycles",
            out[0].first_cycle - t0
        );
        assert!(outcome(&mut dp, &c), "queued");
        disarm(&mut dp, &c);
    }
    for head in [60, 300] {
        let cs: Vec<Case> = (0..4).map(|_| case(&mut rng, head)).collect();
        for c in &cs {
            arm(&mut dp, c, true);
        }
        dp.tick(50);
        for c in &cs {
            dp.push(Port::Server, &c.synack(), false);
        }
        assert!(dp.settle(400, 100_000));
        let out = dp.drain(Port::Server);
        assert_eq!(out.len(), 4, "all absorbed");
        let gaps: Vec<u64> = out
            .windows(2)
            .map(|w| w[1].first_cycle - w[0].first_cycle)
            .collect();
        println!(
            "DATA_WIDTH {width}: head {head} bytes, 4 SYN-ACKs back to back: replays {gaps:?} cycles apart"
        );
        for c in &cs {
            assert!(outcome(&mut dp, c), "queued");
            disarm(&mut dp, c);
        }
    }
}

#[test]
fn absorb_cycles_64() {
    absorb_cycles(64);
}

#[test]
fn absorb_cycles_512() {
    absorb_cycles(512);
}

/// The done queue full: absorbable SYN-ACKs one at a time with no pop. The queue holds at
/// least ABSORB_QUEUE_DEPTH setups (LEVEL); past that each absorbed SYN-ACK is punted whole
/// with verdict ABSORBED (counted in ABSORB_SPILLED), its entry and frame the same; the
/// records then pop in order, and a record popped makes room for the next absorbed setup.
fn absorb_queue_spill(width: u32) {
    let (mut dp, mut rng) = setup(width);
    let depth = splicenic_layout::ABSORB_QUEUE_DEPTH;
    let n = depth as u16 + 8;
    let mut queued = Vec::new();
    let mut spilled = 0u32;
    for k in 0..n {
        let c = absorbable_case(&mut rng, 1 + k, 64);
        arm(&mut dp, &c, true);
        dp.push(Port::Server, &c.synack(), false);
        assert!(dp.settle(200, 100_000), "settled");
        let sent = dp.drain(Port::Server);
        assert_eq!(sent.len(), 1, "setup {k}: absorbed");
        assert_eq!(sent[0].data, c.replay(), "setup {k}: the replay");
        assert_eq!(read_state(&mut dp, c.slot).0, c.spliced().to_vec());
        match punt_pop(&mut dp) {
            None => queued.push((c.slot, c.gen)),
            Some((desc, frame)) => {
                assert_eq!(frame, c.synack(), "setup {k}: the SYN-ACK punted whole");
                let m = meta(&desc);
                assert_eq!(
                    (m.engine, m.flow_slot, m.slot_gen),
                    (engine_verdict::ABSORBED, c.slot, c.gen),
                    "setup {k}: spilled"
                );
                spilled += 1;
            }
        }
        disarm(&mut dp, &c);
    }
    assert!(queued.len() as u32 >= depth, "held {}", queued.len());
    assert_eq!(spilled, u32::from(n) - queued.len() as u32);
    assert!(spilled > 0, "some spilled");
    assert_eq!(dp.read(r(regs::dp::ABSORB_SPILLED)), spilled);
    assert_eq!(counters(&mut dp), (u32::from(n), 0), "all absorbed");
    let level = queued.len() as u32;
    for (i, &q) in queued.iter().enumerate() {
        let (slot, gen, lv) = absorb_pop(&mut dp).expect("a record");
        assert_eq!((slot, gen), q, "record {i} in order");
        assert_eq!(lv, level - i as u32, "LEVEL before pop {i}");
    }
    assert_eq!(absorb_pop(&mut dp), None, "empty");
    // room again: the next one is queued
    let c = absorbable_case(&mut rng, 1 + n, 64);
    arm(&mut dp, &c, true);
    dp.push(Port::Server, &c.synack(), false);
    assert!(dp.settle(200, 100_000), "settled");
    assert_eq!(dp.drain(Port::Server).len(), 1);
    assert!(outcome(&mut dp, &c), "queued after the pops");
    assert_eq!(dp.read(r(regs::dp::ABSORB_SPILLED)), spilled);
}

#[test]
fn absorb_queue_spill_64() {
    absorb_queue_spill(64);
}

#[test]
fn absorb_queue_spill_512() {
    absorb_queue_spill(512);
}
