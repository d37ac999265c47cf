//! Helpers the data-path tests share: card-style configuration of the data path through its
//! CSR blocks, a spliced flow, frames of that flow built with etherparse, and the rewrite the
//! fast path must produce (the rewriter's reference model with the descriptor built from the
//! flow entry as docs/datapath.md defines it).

use crate::{Datapath, Port};
use etherparse::{EtherType, Ethernet2Header, IpNumber, Ipv4Header, SingleVlanHeader, TcpHeader};
use etherparse::{VlanId, VlanPcp};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use splicenic_driver::regs;
use splicenic_fw_logic::splicer::frame::{fill_checksums, GenFrame};
use splicenic_layout::stats as idx;
use splicenic_layout::{
    entry_flags, flow_op, flow_state, teardown, FlowDyn, FlowHalfEntry, FlowStatic, PuntHead,
    PuntMeta,
};
use splicenic_tb_rewriter::Desc;

/// The card's MAC on the client port.
pub const MAC_C: [u8; 6] = [0x02, 0, 0, 0, 0, 0x0c];
/// The card's MAC on the server port.
pub const MAC_S: [u8; 6] = [0x02, 0, 0, 0, 0, 0x05];
/// Address of the virtual service (index 0).
pub const VIP: [u8; 4] = [10, 0, 0, 100];
/// TCP port of the virtual service.
pub const VIP_PORT: u16 = 80;
/// The card's server-side address (index 0).
pub const LOCAL: [u8; 4] = [10, 1, 0, 1];

/// An IPv4 address as the big-endian word the CSRs and flow entries hold.
pub fn a(ip: [u8; 4]) -> u32 {
    u32::from_be_bytes(ip)
}

/// A MAC address as the 48-bit value the CSRs and flow entries hold.
fn mac48(m: [u8; 6]) -> u64 {
    m.iter().fold(0u64, |v, b| (v << 8) | *b as u64)
}

/// A register offset of `splicenic_driver::regs` as a CSR bus address.
pub fn r(off: u64) -> u32 {
    off as u32
}

/// Card MACs, one virtual service (index 0) and one server-side address (index 0).
pub fn configure(dp: &mut Datapath) {
    dp.write(r(regs::dp::MAC_C_LO), mac48(MAC_C) as u32);
    dp.write(r(regs::dp::MAC_C_HI), (mac48(MAC_C) >> 32) as u32);
    dp.write(r(regs::dp::MAC_S_LO), mac48(MAC_S) as u32);
    dp.write(r(regs::dp::MAC_S_HI), (mac48(MAC_S) >> 32) as u32);
    dp.write(r(regs::dp::VIP_ADDR), a(VIP));
    dp.write(r(regs::dp::VIP_PORT), (1 << 31) | VIP_PORT as u32);
    dp.write(r(regs::dp::LOCAL_ADDR), a(LOCAL));
    dp.write(r(regs::dp::LOCAL_CTRL), 1 << 31);
}

/// One spliced connection: client <-> VIP on the client side, LOCAL <-> server on the
/// server side.
#[derive(Clone, Copy, Debug)]
pub struct Flow {
    /// Flow-table slot of the entry.
    pub slot: u16,
    /// Entry state (`flow_state`).
    pub state: u8,
    /// Entry flags (`entry_flags`).
    pub flags: u8,
    /// Window-scale shift difference: client shift - server shift.
    pub wsd: i8,
    /// Real-server index (the flow's statistics counters).
    pub rs: u8,
    /// Timestamp offset: TSval the card sends the client - server TSval (mod 2^32).
    pub ts_off: u32,
    /// Sequence delta client to server.
    pub d_cs: u32,
    /// Sequence delta server to client.
    pub d_sc: u32,
    /// Client MAC.
    pub client_mac: [u8; 6],
    /// Client address.
    pub client_ip: [u8; 4],
    /// Client TCP port.
    pub client_port: u16,
    /// Server MAC.
    pub server_mac: [u8; 6],
    /// Server address.
    pub server_ip: [u8; 4],
    /// Server TCP port.
    pub server_port: u16,
    /// The card's TCP port on the server side.
    pub local_port: u16,
}

impl Flow {
    /// A spliced flow in `slot` with SACK, timestamps and window rescaling, and deltas
    /// near the 2^32 wrap.
    pub fn sample(slot: u16) -> Flow {
        Flow {
            slot,
            state: flow_state::SPLICED,
            flags: entry_flags::SACK | entry_flags::TIMESTAMPS | entry_flags::WINDOW_RESCALE,
            wsd: 2,
            rs: 3,
            ts_off: 0xfff0_0000,
            d_cs: 0xffff_ff00,
            d_sc: 0x8000_0123,
            client_mac: [0x02, 0xc1, 0, 0, 0, 1],
            client_ip: [192, 168, 1, 10],
            client_port: 40000 + slot,
            server_mac: [0x02, 0x51, 0, 0, 0, 1],
            server_ip: [10, 1, 0, 50],
            server_port: 8080,
            local_port: 50000 + slot,
        }
    }

    /// The flow entry's static part (record FlowStatic).
    fn entry(&self) -> FlowStatic {
        FlowStatic {
            state: self.state,
            flags: self.flags,
            wscale_diff: self.wsd as u8,
            real_server: self.rs,
            ts_offset: self.ts_off,
            seq_delta_cs: self.d_cs,
            seq_delta_sc: self.d_sc,
            // client half: peer = client, local = VIP
            client: FlowHalfEntry {
                peer_mac: mac48(self.client_mac),
                peer_ip: a(self.client_ip),
                peer_port: self.client_port,
                local_ip: a(VIP),
                local_port: VIP_PORT,
            },
            // server half: peer = server, local = card's server-side address
            server: FlowHalfEntry {
                peer_mac: mac48(self.server_mac),
                peer_ip: a(self.server_ip),
                peer_port: self.server_port,
                local_ip: a(LOCAL),
                local_port: self.local_port,
            },
            // firmware-owned: never read by the data path, so any value must do
            fw_word: self.d_cs ^ 0x5a5a_5a5a,
            gen: self.gen(),
        }
    }

    /// The slot's generation in its entry (`FlowStatic.gen`), carried in the flow's punt
    /// records and events.
    pub fn gen(&self) -> u8 {
        (self.slot as u8).wrapping_mul(37) | 1
    }

    /// The static words of the flow entry (FLOW.STATE_STATIC).
    pub fn static_words(&self) -> [u32; FlowStatic::WORDS] {
        self.entry().pack()
    }

    /// Source/destination of a frame arriving on `port`.
    fn wire(&self, port: Port) -> Wire {
        match port {
            Port::Client => (
                self.client_mac,
                MAC_C,
                self.client_ip,
                VIP,
                self.client_port,
                VIP_PORT,
            ),
            Port::Server => (
                self.server_mac,
                MAC_S,
                self.server_ip,
                LOCAL,
                self.server_port,
                self.local_port,
            ),
        }
    }

    /// The rewrite descriptor for a frame of this flow arriving on `port`.
    pub fn desc(&self, port: Port, l3_offset: u8, ihl: u8, doff: u8) -> Desc {
        // descriptor flags: bits 4:0 always, then the entry's SACK, TIMESTAMPS and
        // WINDOW_RESCALE flags in bits 5, 6, 7
        let steer = entry_flags::SACK | entry_flags::TIMESTAMPS | entry_flags::WINDOW_RESCALE;
        let f = 0x1f | ((self.flags & steer) << 5);
        match port {
            Port::Client => Desc {
                flags: f,
                l3_offset,
                ihl,
                doff,
                eth_dst: self.server_mac,
                eth_src: MAC_S,
                ip_src: a(LOCAL),
                ip_dst: a(self.server_ip),
                sport: self.local_port,
                dport: self.server_port,
                seq_delta: self.d_cs,
                ack_delta: self.d_sc.wrapping_neg(),
                tsval_delta: 0,
                tsecr_delta: self.ts_off.wrapping_neg(),
                wscale_shift: self.wsd,
            },
            Port::Server => Desc {
                flags: f,
                l3_offset,
                ihl,
                doff,
                eth_dst: self.client_mac,
                eth_src: MAC_C,
                ip_src: a(VIP),
                ip_dst: a(self.client_ip),
                sport: VIP_PORT,
                dport: self.client_port,
                seq_delta: self.d_sc,
                ack_delta: self.d_cs.wrapping_neg(),
                tsval_delta: self.ts_off,
                tsecr_delta: 0,
                wscale_shift: -self.wsd,
            },
        }
    }
}

/// Flow-table command status (FLOW.STATUS.RESULT): done.
pub const FLOW_OK: u32 = regs::flow::status::RESULT_OK;
/// Flow-table command status: INSERT of a key already in the table.
pub const FLOW_EXISTS: u32 = regs::flow::status::RESULT_EXISTS;
/// Flow-table command status: INSERT into a bucket with every way used.
pub const FLOW_BUCKET_FULL: u32 = regs::flow::status::RESULT_BUCKET_FULL;
/// Flow-table command status: LOOKUP or DELETE of a key not in the table.
pub const FLOW_NOT_FOUND: u32 = regs::flow::status::RESULT_NOT_FOUND;

/// Run one flow-table command; returns (status, RESULT register).
pub fn flow_cmd(dp: &mut Datapath, op: u32, key: (u32, u32, u16, u16), value: u32) -> (u32, u32) {
    dp.write(r(regs::flow::KEY_SRC_IP), key.0);
    dp.write(r(regs::flow::KEY_DST_IP), key.1);
    dp.write(
        r(regs::flow::KEY_PORTS),
        ((key.2 as u32) << 16) | key.3 as u32,
    );
    dp.write(r(regs::flow::VALUE), value);
    dp.write(r(regs::flow::CMD), op);
    for _ in 0..100_000 {
        let st = dp.read(r(regs::flow::STATUS));
        if st & 1 == 0 {
            return ((st >> 8) & 3, dp.read(r(regs::flow::RESULT)));
        }
    }
    panic!("flow command did not finish");
}

/// Write a flow entry and insert both halves' keys.
pub fn install(dp: &mut Datapath, f: &Flow) {
    write_state(dp, f.slot, &f.static_words(), &FlowDyn::default().pack());
    let ck = (a(f.client_ip), a(VIP), f.client_port, VIP_PORT);
    let sk = (a(f.server_ip), a(LOCAL), f.server_port, f.local_port);
    assert_eq!(
        flow_cmd(dp, regs::flow::cmd::OP_INSERT, ck, f.slot as u32).0,
        FLOW_OK
    );
    assert_eq!(
        flow_cmd(dp, regs::flow::cmd::OP_INSERT, sk, f.slot as u32 | 1 << 16).0,
        FLOW_OK
    );
}

/// Writes a whole flow entry (FLOW.STATE_CMD WRITE): static and dynamic words.
pub fn write_state(dp: &mut Datapath, slot: u16, st: &[u32], dy: &[u32]) {
    for (i, w) in st.iter().enumerate() {
        dp.write(r(regs::flow::STATE_STATIC) + 4 * i as u32, *w);
    }
    for (i, w) in dy.iter().enumerate() {
        dp.write(r(regs::flow::STATE_DYN) + 4 * i as u32, *w);
    }
    dp.write(r(regs::flow::STATE_SLOT), slot as u32);
    dp.write(r(regs::flow::STATE_CMD), flow_op::WRITE.into());
    wait_state(dp);
}

/// Wait for the flow-state command in progress to finish.
fn wait_state(dp: &mut Datapath) {
    for _ in 0..10_000 {
        if dp.read(r(regs::flow::STATE_STATUS)) & 1 == 0 {
            return;
        }
    }
    panic!("flow state command did not finish");
}

/// Read a flow entry: (static words, dynamic words).
pub fn read_state(dp: &mut Datapath, slot: u16) -> (Vec<u32>, Vec<u32>) {
    dp.write(r(regs::flow::STATE_SLOT), slot as u32);
    dp.write(r(regs::flow::STATE_CMD), flow_op::READ.into());
    wait_state(dp);
    let s = (0..FlowStatic::WORDS as u32)
        .map(|i| dp.read(r(regs::flow::STATE_STATIC) + 4 * i))
        .collect();
    let d = (0..FlowDyn::WORDS as u32)
        .map(|i| dp.read(r(regs::flow::STATE_DYN) + 4 * i))
        .collect();
    (s, d)
}

/// Read a flow entry's counters (record FlowDyn).
pub fn read_dyn(dp: &mut Datapath, slot: u16) -> FlowDyn {
    let (_, d) = read_state(dp, slot);
    FlowDyn::unpack_at(&d, 0)
}

/// Segment options a splice sees: none, TS, TS + SACK blocks, NOP padding.
fn gen_options(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut o = Vec::new();
    match rng.gen_range(0..4) {
        0 => {}
        1 => {
            o.extend([1, 1, 8, 10]);
            o.extend(rng.gen::<u32>().to_be_bytes());
            o.extend(rng.gen::<u32>().to_be_bytes());
        }
        2 => {
            o.extend([1, 1, 8, 10]);
            o.extend(rng.gen::<u32>().to_be_bytes());
            o.extend(rng.gen::<u32>().to_be_bytes());
            let n = rng.gen_range(1..=2usize);
            o.extend([1, 1, 5, (2 + 8 * n) as u8]);
            for _ in 0..n {
                let l: u32 = rng.gen();
                o.extend(l.to_be_bytes());
                o.extend(l.wrapping_add(rng.gen_range(1..3000)).to_be_bytes());
            }
        }
        _ => {
            let n = rng.gen_range(1..=4usize);
            o.extend([1, 1, 5, (2 + 8 * n) as u8]);
            for _ in 0..n {
                let l: u32 = rng.gen();
                o.extend(l.to_be_bytes());
                o.extend(l.wrapping_add(rng.gen_range(1..3000)).to_be_bytes());
            }
        }
    }
    o
}

/// TCP flags of a generated segment.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flags {
    /// SYN (and no ACK).
    pub syn: bool,
    /// FIN.
    pub fin: bool,
    /// RST.
    pub rst: bool,
}

/// A frame of `f` arriving on `port`: (bytes, l3 offset, ihl, doff).
pub fn flow_frame(
    rng: &mut ChaCha8Rng,
    f: &Flow,
    port: Port,
    payload: &[u8],
    flags: Flags,
    vlan: bool,
) -> (Vec<u8>, u8, u8, u8) {
    let (smac, dmac, sip, dip, sport, dport) = f.wire(port);
    tcp_frame(
        rng, smac, dmac, sip, dip, sport, dport, payload, flags, vlan,
    )
}

/// A frame of `f` arriving on `port` with sequence number `seq` and ACK `ack`, no VLAN:
/// (bytes, l3 offset, ihl, doff).
pub fn flow_frame_at(
    rng: &mut ChaCha8Rng,
    f: &Flow,
    port: Port,
    payload: &[u8],
    flags: Flags,
    seq: u32,
    ack: u32,
) -> (Vec<u8>, u8, u8, u8) {
    tcp_frame_numbered(rng, f.wire(port), payload, flags, false, Some((seq, ack)))
}

/// Addresses of a frame: (source MAC, destination MAC, source IP, destination IP, source
/// port, destination port).
type Wire = ([u8; 6], [u8; 6], [u8; 4], [u8; 4], u16, u16);

/// A frame from `smac`/`sip`:`sport` to `dmac`/`dip`:`dport`: (bytes, l3 offset, ihl, doff).
#[allow(clippy::too_many_arguments)]
pub fn tcp_frame(
    rng: &mut ChaCha8Rng,
    smac: [u8; 6],
    dmac: [u8; 6],
    sip: [u8; 4],
    dip: [u8; 4],
    sport: u16,
    dport: u16,
    payload: &[u8],
    flags: Flags,
    vlan: bool,
) -> (Vec<u8>, u8, u8, u8) {
    let w = (smac, dmac, sip, dip, sport, dport);
    tcp_frame_numbered(rng, w, payload, flags, vlan, None)
}

/// A frame with random options; sequence and ACK numbers `numbers`, random without.
fn tcp_frame_numbered(
    rng: &mut ChaCha8Rng,
    w: Wire,
    payload: &[u8],
    flags: Flags,
    vlan: bool,
    numbers: Option<(u32, u32)>,
) -> (Vec<u8>, u8, u8, u8) {
    let (smac, dmac, sip, dip, sport, dport) = w;
    let mut bytes = Vec::new();
    Ethernet2Header {
        source: smac,
        destination: dmac,
        ether_type: if vlan {
            EtherType::VLAN_TAGGED_FRAME
        } else {
            EtherType::IPV4
        },
    }
    .write(&mut bytes)
    .expect("ethernet");
    if vlan {
        SingleVlanHeader {
            pcp: VlanPcp::try_new(0).expect("pcp"),
            drop_eligible_indicator: false,
            vlan_id: VlanId::try_new(rng.gen_range(1..4095)).expect("vid"),
            ether_type: EtherType::IPV4,
        }
        .write(&mut bytes)
        .expect("vlan");
    }
    let l3 = bytes.len() as u8;
    let opts = gen_options(rng);
    let mut tcp = TcpHeader::new(sport, dport, rng.gen(), rng.gen());
    tcp.acknowledgment_number = rng.gen();
    if let Some((seq, ack)) = numbers {
        tcp.sequence_number = seq;
        tcp.acknowledgment_number = ack;
    }
    tcp.ack = !flags.syn;
    tcp.syn = flags.syn;
    tcp.fin = flags.fin;
    tcp.rst = flags.rst;
    tcp.psh = !payload.is_empty();
    tcp.set_options_raw(&opts).expect("tcp options");
    let mut ip = Ipv4Header::new(0, 64, IpNumber::TCP, sip, dip).expect("ip");
    ip.identification = rng.gen();
    ip.set_payload_len(tcp.header_len() + payload.len())
        .expect("ip len");
    tcp.checksum = tcp.calc_checksum_ipv4(&ip, payload).expect("csum");
    let ihl = ip.ihl();
    ip.header_checksum = ip.calc_header_checksum();
    ip.write(&mut bytes).expect("ip write");
    let doff = tcp.data_offset();
    tcp.write(&mut bytes).expect("tcp write");
    bytes.extend(payload);
    while bytes.len() < 60 {
        bytes.push(0);
    }
    (bytes, l3, ihl, doff)
}

/// A frame of exactly `len` bytes of flow `f` (payload sized to fit, no VLAN).
pub fn sized_frame(rng: &mut ChaCha8Rng, f: &Flow, port: Port, len: usize) -> Vec<u8> {
    loop {
        let (probe, ..) = flow_frame(rng, f, port, &[], Flags::default(), false);
        // header length without padding
        let hlen = 14 + u16::from_be_bytes([probe[16], probe[17]]) as usize;
        if hlen <= len {
            let payload: Vec<u8> = (0..len - hlen).map(|_| rng.gen()).collect();
            let (b, ..) = flow_frame(rng, f, port, &payload, Flags::default(), false);
            if b.len() == len {
                return b;
            }
        }
    }
}

/// IPv4 header and TCP checksums of a frame recomputed in full: (ip ok, tcp ok).
pub fn checksums_ok(frame: &[u8]) -> (bool, bool) {
    let p = etherparse::SlicedPacket::from_ethernet(frame).expect("parse");
    let Some(etherparse::NetSlice::Ipv4(ip)) = p.net else {
        panic!("not IPv4")
    };
    let iph = ip.header().to_header();
    let ip_ok = iph.calc_header_checksum() == iph.header_checksum;
    let Some(etherparse::TransportSlice::Tcp(tcp)) = p.transport else {
        panic!("not TCP")
    };
    let th = tcp.to_header();
    let want = th
        .calc_checksum_ipv4(&iph, tcp.payload())
        .expect("tcp checksum");
    (ip_ok, want == th.checksum)
}

/// A punted frame: (descriptor words, frame bytes).
pub fn punt_pop(dp: &mut Datapath) -> Option<(Vec<u32>, Vec<u8>)> {
    let prod = dp.read(r(regs::punt::PROD));
    let cons = dp.read(r(regs::punt::CONS));
    if prod == cons {
        return None;
    }
    let slot = cons % 16;
    dp.write(r(regs::punt::RD_PTR), (1 << 31) | (slot << 16));
    let desc: Vec<u32> = (0..PuntHead::WORDS + PuntMeta::WORDS)
        .map(|_| dp.read(r(regs::punt::RD_DATA)))
        .collect();
    let len = usize::from(head(&desc).len);
    dp.write(r(regs::punt::RD_PTR), slot << 16);
    let mut bytes = Vec::new();
    for _ in 0..len.div_ceil(4) {
        bytes.extend(dp.read(r(regs::punt::RD_DATA)).to_le_bytes());
    }
    bytes.truncate(len);
    dp.write(r(regs::punt::CONS), (cons + 1) % 32);
    Some((desc, bytes))
}

/// A punt descriptor's word 0 (record PuntHead).
pub fn head(desc: &[u32]) -> PuntHead {
    PuntHead::unpack_at(desc, 0)
}

/// A punt descriptor's punt record (record PuntMeta, after PuntHead).
pub fn meta(desc: &[u32]) -> PuntMeta {
    PuntMeta::unpack_at(&desc[PuntHead::WORDS..], 0)
}

/// STATS index of member `member` of `port`.
pub fn port_idx(port: Port, member: usize) -> u32 {
    (idx::port::index(port.raw().into()) + member) as u32
}

/// A STATS counter: snapshot, then read counter `idx`.
pub fn stat(dp: &mut Datapath, idx: u32) -> u64 {
    dp.write(r(regs::stats::CTRL), 1);
    dp.write(r(regs::stats::RD_IDX), idx);
    while dp.read(r(regs::stats::STATUS)) & 2 != 0 {}
    dp.read(r(regs::stats::RD_LO)) as u64 | (dp.read(r(regs::stats::RD_HI)) as u64) << 32
}

/// One segment of a scripted close: the port it enters, its flags, payload bytes, seq, ack,
/// and the flow's teardown view (record FlowDyn, enum Teardown) after it.
pub type CloseStep = (Port, Flags, usize, u32, u32, u8);

/// A clean close of `f` from the client's sequence `c_seq` and the server's `s_seq`: the
/// client's FIN with 10 bytes, the server's ACK one short of its end, the server's FIN with
/// the ACK at the end, the client's ACK one short of the server's end, then at it. Returns the
/// steps and both FINs' ends (client, server) in their senders' numbers.
pub fn close_steps(f: &Flow, c_seq: u32, s_seq: u32) -> ([CloseStep; 5], u32, u32) {
    let fin = Flags {
        syn: false,
        fin: true,
        rst: false,
    };
    let plain = Flags { fin: false, ..fin };
    let client_end = c_seq.wrapping_add(10 + 1); // 10 bytes and the FIN
    let server_end = s_seq.wrapping_add(1);
    let acked_cs = teardown::FIN_CS | teardown::ACKED_CS | teardown::FIN_SC;
    let steps = [
        (Port::Client, fin, 10, c_seq, 0, teardown::FIN_CS),
        (
            Port::Server,
            plain,
            0,
            s_seq,
            client_end.wrapping_add(f.d_cs).wrapping_sub(1),
            teardown::FIN_CS,
        ),
        (
            Port::Server,
            fin,
            0,
            s_seq,
            client_end.wrapping_add(f.d_cs),
            acked_cs,
        ),
        (
            Port::Client,
            plain,
            0,
            client_end,
            server_end.wrapping_add(f.d_sc).wrapping_sub(1),
            acked_cs,
        ),
        (
            Port::Client,
            plain,
            0,
            client_end,
            server_end.wrapping_add(f.d_sc),
            acked_cs | teardown::ACKED_SC,
        ),
    ];
    (steps, client_end, server_end)
}

/// Takes a head buffer through DP.HEAD_ALLOC: its id, or None when none is free.
pub fn head_alloc(dp: &mut Datapath) -> Option<u32> {
    use regs::dp::head_alloc as ha;
    let v = dp.read(r(regs::dp::HEAD_ALLOC));
    (v >> ha::VALID_SHIFT & 1 == 1).then_some(v >> ha::ID_SHIFT & 0xff)
}

/// Appends `bytes` at position `off` of buffer `id` (what the firmware's `head_append`
/// writes): HEAD_APPEND, then the bytes four to a HEAD_DATA word, the first in bits 7:0.
pub fn head_append(dp: &mut Datapath, id: u32, off: usize, bytes: &[u8]) {
    use regs::dp::head_append as ha;
    dp.write(
        r(regs::dp::HEAD_APPEND),
        (bytes.len() as u32) << ha::LEN_SHIFT | (off as u32) << ha::OFF_SHIFT | id << ha::ID_SHIFT,
    );
    for w in bytes.chunks(4) {
        let mut b = [0u8; 4];
        b[..w.len()].copy_from_slice(w);
        dp.write(r(regs::dp::HEAD_DATA), u32::from_le_bytes(b));
    }
}

/// The firmware's replay segment for the handshake ACK `g` and `head`: `TcpOut::write` with
/// the head as its payload, PSH on a non-empty head, the checksums filled in.
pub fn firmware_replay(g: &GenFrame, head: &[u8]) -> Vec<u8> {
    let mut ob = [0u8; 40];
    let mut out = g.to_out(&mut ob);
    out.payload = head;
    if !head.is_empty() {
        out.flags |= 0x08;
    }
    let mut f = vec![0u8; out.frame_len()];
    let (n, off) = out.write(&mut f).expect("fits");
    f.truncate(n);
    fill_checksums(&mut f, &off);
    f
}
