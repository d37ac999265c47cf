//! The connection engine's side of the data path (docs/engine.md): client frames of a
//! handshake built with etherparse, the SYN-ACK check, the SYN responder's and the ACK
//! validator's CSRs, and [`EngineModel`], the engine's reference model: frames in, the
//! SYN-ACKs and punts (with their verdicts, slots and generations) out, and the firmware's
//! commands to it (free-list pushes and flushes, key rotation, releasing a connection).
//!
//! The model is written from the documents, not from the RTL: the cookie is the firmware's
//! (`splicenic_fw_logic::cookie`), the table a map of client keys with the flow table's
//! buckets (the Toeplitz reference of `splicenic-tb-flow`), the free list a queue.

use crate::params::{FLOW_BUCKETS, FLOW_WAYS};
use crate::testkit::*;
use crate::Datapath;
use etherparse::{
    EtherType, Ethernet2Header, IpNumber, Ipv4Header, SingleVlanHeader, TcpHeader,
    TcpOptionElement, VlanId, VlanPcp,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use splicenic_driver::regs;
use splicenic_fw_logic::cookie::{
    cookie_check, cookie_make, mss_class, ts_decode, CookieError, CookieKeys, CookieTuple,
};
use splicenic_layout::{engine_verdict as ev, L7_BUFFER_BYTES};
use splicenic_tb_flow::reference::{bucket_of, Key};
use std::collections::{HashMap, HashSet, VecDeque};

/// The MSS the card announces (DP.SYN_MSS).
pub const CARD_MSS: u16 = 1400;

/// The client's SYN as sent: what its SYN-ACK must answer.
#[derive(Clone, Copy, Debug)]
pub struct Syn {
    pub mac: [u8; 6],
    pub ip: [u8; 4],
    pub port: u16,
    pub isn: u32,
    pub mss: Option<u16>,
    pub ws: Option<u8>,
    pub sack: bool,
    pub ts: Option<u32>,
}

impl Syn {
    pub fn random(rng: &mut ChaCha8Rng) -> Syn {
        let ts = rng.gen_bool(0.8).then(|| rng.gen());
        Syn {
            mac: [0x02, rng.gen(), rng.gen(), rng.gen(), rng.gen(), rng.gen()],
            ip: [
                rng.gen_range(1..224),
                rng.gen(),
                rng.gen(),
                rng.gen_range(1..255),
            ],
            port: rng.gen_range(1024..=65535),
            isn: rng.gen(),
            mss: match rng.gen_range(0..6) {
                0 => None,
                1 => Some(0),
                2 => Some(rng.gen()),
                3 => Some(1460),
                4 => Some(1440),
                _ => Some(rng.gen_range(1200..1500)),
            },
            ws: rng.gen_bool(0.7).then(|| rng.gen_range(0..=16)),
            sack: rng.gen_bool(0.7),
            ts,
        }
    }

    /// The frame, options in Linux's order, optionally 802.1Q tagged.
    pub fn frame(&self, vlan: bool, flags_ack: bool) -> Vec<u8> {
        let mut opts = Vec::new();
        if let Some(m) = self.mss {
            opts.push(TcpOptionElement::MaximumSegmentSize(m));
        }
        if self.sack {
            opts.push(TcpOptionElement::SelectiveAcknowledgementPermitted);
        }
        if let Some(t) = self.ts {
            opts.push(TcpOptionElement::Timestamp(t, 0));
        }
        if let Some(w) = self.ws {
            opts.push(TcpOptionElement::Noop);
            opts.push(TcpOptionElement::WindowScale(w));
        }
        let mut tcp = TcpHeader::new(self.port, VIP_PORT, self.isn, 64240);
        tcp.syn = true;
        tcp.ack = flags_ack;
        tcp.set_options(&opts).expect("options");
        segment(self.mac, self.ip, tcp, &[], vlan)
    }
}

/// A client segment to the VIP, checksums set, padded to 60 bytes.
pub fn segment(
    mac: [u8; 6],
    ip: [u8; 4],
    mut tcp: TcpHeader,
    payload: &[u8],
    vlan: bool,
) -> Vec<u8> {
    let mut b = Vec::new();
    Ethernet2Header {
        source: mac,
        destination: MAC_C,
        ether_type: if vlan {
            EtherType::VLAN_TAGGED_FRAME
        } else {
            EtherType::IPV4
        },
    }
    .write(&mut b)
    .expect("eth");
    if vlan {
        SingleVlanHeader {
            pcp: VlanPcp::try_new(0).expect("pcp"),
            drop_eligible_indicator: false,
            vlan_id: VlanId::try_new(7).expect("vid"),
            ether_type: EtherType::IPV4,
        }
        .write(&mut b)
        .expect("vlan");
    }
    let mut iph = Ipv4Header::new(0, 64, IpNumber::TCP, ip, VIP).expect("ip");
    iph.set_payload_len(tcp.header_len() + payload.len())
        .expect("len");
    tcp.checksum = tcp.calc_checksum_ipv4(&iph, payload).expect("csum");
    iph.header_checksum = iph.calc_header_checksum();
    iph.write(&mut b).expect("ip");
    tcp.write(&mut b).expect("tcp");
    b.extend(payload);
    b.resize(b.len().max(60), 0);
    b
}

/// What the SYN-ACK of a SYN must carry; panics naming the first difference. Returns the
/// cookie.
pub fn check_synack(syn: &Syn, frame: &[u8], keys: &CookieKeys, offer: (bool, bool, bool)) -> u32 {
    let (ip_ok, tcp_ok) = checksums_ok(frame);
    assert!(
        ip_ok && tcp_ok,
        "SYN-ACK checksums (ip {ip_ok}, tcp {tcp_ok}): {frame:02x?}"
    );
    let p = etherparse::SlicedPacket::from_ethernet(frame).expect("SYN-ACK parses");
    let Some(etherparse::LinkSlice::Ethernet2(eth)) = p.link else {
        panic!("not Ethernet II")
    };
    assert_eq!(eth.destination(), syn.mac, "eth dst");
    assert_eq!(eth.source(), MAC_C, "eth src");
    let Some(etherparse::NetSlice::Ipv4(ip)) = p.net else {
        panic!("not IPv4")
    };
    let iph = ip.header();
    assert_eq!(iph.source(), VIP, "ip src");
    assert_eq!(iph.destination(), syn.ip, "ip dst");
    assert_eq!(iph.ttl(), 64, "ttl");
    assert!(iph.dont_fragment(), "DF");
    let Some(etherparse::TransportSlice::Tcp(tcp)) = p.transport else {
        panic!("not TCP")
    };
    assert_eq!(tcp.source_port(), VIP_PORT, "sport");
    assert_eq!(tcp.destination_port(), syn.port, "dport");
    assert!(
        tcp.syn() && tcp.ack() && !tcp.fin() && !tcp.rst() && !tcp.psh(),
        "flags"
    );
    assert_eq!(tcp.acknowledgment_number(), syn.isn.wrapping_add(1), "ack");
    assert_eq!(u32::from(tcp.window_size()), L7_BUFFER_BYTES, "window");
    let cookie = tcp.sequence_number();
    let tuple = CookieTuple {
        client_ip: u32::from_be_bytes(syn.ip),
        vip: u32::from_be_bytes(VIP),
        client_port: syn.port,
        vip_port: VIP_PORT,
    };
    let class = cookie_check(keys, &tuple, syn.isn, cookie).expect("the cookie checks");
    let client_mss = match syn.mss {
        None | Some(0) => 536,
        Some(m) => m,
    };
    assert_eq!(class, mss_class(client_mss), "MSS class");
    let (offer_ws, offer_sack, offer_ts) = offer;
    let mut mss = None;
    let mut sack = false;
    let mut ts = None;
    let mut ws = None;
    for o in tcp.options_iterator() {
        match o.expect("option") {
            TcpOptionElement::MaximumSegmentSize(m) => mss = Some(m),
            TcpOptionElement::SelectiveAcknowledgementPermitted => sack = true,
            TcpOptionElement::Timestamp(v, e) => ts = Some((v, e)),
            TcpOptionElement::WindowScale(w) => ws = Some(w),
            TcpOptionElement::Noop => {}
            other => panic!("unexpected option {other:?}"),
        }
    }
    assert_eq!(mss, Some(CARD_MSS), "MSS announced");
    match (syn.ts, offer_ts) {
        (Some(tsval), true) => {
            let (v, e) = ts.expect("timestamps");
            assert_eq!(e, tsval, "TSecr echoes the client's TSval");
            let want_ws = syn.ws.filter(|_| offer_ws).map(|w| w.min(14));
            let want_sack = syn.sack && offer_sack;
            let d = ts_decode(v);
            assert_eq!(d.wscale, want_ws, "window scale in the TSval");
            assert_eq!(d.sack_ok, want_sack, "SACK in the TSval");
            assert_eq!(ws, want_ws, "window scale option");
            assert_eq!(sack, want_sack, "SACK-permitted option");
        }
        _ => {
            assert!(
                ts.is_none() && ws.is_none() && !sack,
                "MSS only without timestamps"
            );
        }
    }
    cookie
}

/// Keys into both slots, the SYN responder on for VIP entry 0 with `offer`.
pub fn enable(dp: &mut Datapath, rng: &mut ChaCha8Rng, offer: (bool, bool, bool)) -> CookieKeys {
    let mut keys = CookieKeys::default();
    for slot in 0..2u32 {
        let k: [u32; 2] = [rng.gen(), rng.gen()];
        dp.write(r(regs::dp::COOKIE_KEY_LO), k[0]);
        dp.write(r(regs::dp::COOKIE_KEY_HI), k[1]);
        dp.write(r(regs::dp::COOKIE_KEY_WR), slot);
        keys.slots[slot as usize] = k;
    }
    dp.write(r(regs::dp::SYN_MSS), u32::from(CARD_MSS));
    write_ctrl(dp, 1, offer, &keys);
    keys
}

pub fn write_ctrl(dp: &mut Datapath, mask: u32, offer: (bool, bool, bool), keys: &CookieKeys) {
    use regs::dp::syn_ctrl as f;
    let v = (mask << f::VIP_MASK_SHIFT)
        | (u32::from(offer.0) << f::OFFER_WSCALE_SHIFT)
        | (u32::from(offer.1) << f::OFFER_SACK_SHIFT)
        | (u32::from(offer.2) << f::OFFER_TS_SHIFT)
        | (u32::from(keys.current & 1) << f::CUR_EPOCH_SHIFT)
        | (u32::from(keys.previous_valid) << f::PREV_VALID_SHIFT);
    dp.write(r(regs::dp::SYN_CTRL), v);
    assert_eq!(dp.read(r(regs::dp::SYN_CTRL)), v, "SYN_CTRL reads back");
}

/// Push `slot` of generation `gen` to the engine's free list (DP.FREE_PUSH).
pub fn free_push(dp: &mut Datapath, slot: u16, gen: u8) {
    dp.write(
        r(regs::dp::FREE_PUSH),
        u32::from(gen) << 16 | u32::from(slot),
    );
}

pub fn free_level(dp: &mut Datapath) -> u32 {
    dp.read(r(regs::dp::FREE_STATUS)) & 0xffff
}

/// The client's handshake-completing ACK of SYN `s` acknowledging `cookie`, with `payload`.
pub fn hs_ack(s: &Syn, cookie: u32, seq_off: u32, payload: &[u8]) -> Vec<u8> {
    let mut tcp = TcpHeader::new(s.port, VIP_PORT, s.isn.wrapping_add(1 + seq_off), 502);
    tcp.ack = true;
    tcp.psh = !payload.is_empty();
    tcp.acknowledgment_number = cookie.wrapping_add(1);
    segment(s.mac, s.ip, tcp, payload, false)
}

/// Recompute the TCP checksum of a client frame (untagged, IPv4 without options) after an
/// edit of its segment.
pub fn fix_tcp_checksum(b: &mut [u8]) {
    let h = Ipv4Header::from_slice(&b[14..]).expect("ip").0;
    let tl = usize::from(h.total_len) - 20;
    b[50] = 0;
    b[51] = 0;
    let (t, rest) = TcpHeader::from_slice(&b[34..34 + tl]).expect("tcp");
    let c = t.calc_checksum_ipv4(&h, rest).expect("csum");
    b[50..52].copy_from_slice(&c.to_be_bytes());
}

/// Every punted frame waiting in the punt ring: (descriptor words, frame bytes).
pub fn punts(dp: &mut Datapath) -> Vec<(Vec<u32>, Vec<u8>)> {
    std::iter::from_fn(|| punt_pop(dp)).collect()
}

/// What the engine does with one client-port frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// Answered on the client port with a cookie SYN-ACK (no punt).
    SynAck {
        /// The SYN-ACK's sequence number.
        cookie: u32,
        /// The MSS class in it.
        class: u8,
    },
    /// Punted to the firmware.
    Punt(Punted),
}

/// A punt as the model predicts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Punted {
    /// The engine's verdict (`EngineVerdict`).
    pub verdict: u8,
    /// The flow slot the punt names and its generation (the one it was pushed with, which
    /// the validator wrote into its entry; NEW, FOUND and hits alike); `None` when the punt
    /// has no flow.
    pub slot: Option<(u16, u8)>,
    /// The MSS class the cookie carried (NEW, NO_SLOT and TABLE_FULL; 0 otherwise).
    pub class: u8,
    /// A candidate behind the insert of its key: the validator may decide it (FOUND) or
    /// the pipeline's lookup may already hit the new entry (NONE); either is right.
    pub found_or_hit: bool,
    /// A frame that is not a candidate, of a client whose key an earlier frame of the same
    /// burst inserted: its lookup may have run before the insert (no flow) or after it (the
    /// slot); either is right (the firmware finds the connection by its tuple then,
    /// docs/engine.md).
    pub maybe_hit: bool,
}

/// Counters of the model, one per verdict the RTL counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineCounts {
    pub syn_acks: u64,
    pub new: u64,
    pub bad_cookie: u64,
    pub stale: u64,
    pub no_slot: u64,
    pub table_full: u64,
    /// Candidates behind an inserted key (FOUND or a plain hit, see
    /// [`Punted::found_or_hit`]).
    pub found_or_hit: u64,
    /// Other punts (not candidates).
    pub other: u64,
}

/// The reference model of the connection engine (docs/engine.md, docs/synresp.md) for one
/// virtual service ([`VIP`]:[`VIP_PORT`], VIP entry 0) on the client port.
///
/// - A pure SYN (no ACK, FIN or RST), untagged, on a 4-tuple without a flow: a SYN-ACK with
///   the cookie of the current key over the tuple, the client's ISN and the class of its MSS
///   option (536 without one or with 0).
/// - A pure ACK (no SYN, FIN or RST), untagged, without a flow, while the validator is on:
///   the cookie (the ACK number minus one) is checked against the client's ISN (the sequence
///   number minus one) under both key slots: a bad hash is BAD_COOKIE, a slot without a
///   valid key STALE; a good one takes the free list's oldest slot (NEW, with the
///   generation it was pushed with, the client key inserted) or, with the list empty,
///   NO_SLOT, or, with every way of the key's bucket in use ([`bucket`]), TABLE_FULL (the
///   slot stays in the list).
/// - Every other frame is punted without a verdict (NONE), naming the flow of its key if
///   there is one; a candidate with a flow is FOUND (or a plain hit).
/// - Only candidates are ordered with the validator's inserts: a frame that is not one
///   (RST, FIN, SYN, a tagged frame) looks its key up in the pipeline, possibly before the
///   insert of an ACK just ahead of it completes ([`Punted::maybe_hit`]; a SYN there is
///   not predicted). [`EngineModel::settled`] marks the point after which none can.
#[derive(Clone, Debug)]
pub struct EngineModel {
    /// The SYN responder's keys.
    pub keys: CookieKeys,
    /// DP.ACK_CTRL.ENABLE.
    pub validate: bool,
    /// The free list: {slot, generation} in push order.
    pub free: VecDeque<(u16, u8)>,
    /// Entries inserted by NEW: client (address, port) -> {slot, generation} (the entry
    /// the validator wrote carries the generation the slot was pushed with).
    pub table: HashMap<(u32, u16), (u16, u8)>,
    /// Keys inserted since the last [`EngineModel::settled`].
    pub recent: HashSet<(u32, u16)>,
    pub counts: EngineCounts,
}

impl EngineModel {
    pub fn new(keys: CookieKeys) -> EngineModel {
        EngineModel {
            keys,
            validate: false,
            free: VecDeque::new(),
            table: HashMap::new(),
            recent: HashSet::new(),
            counts: EngineCounts::default(),
        }
    }

    /// The output for one client-port frame (to [`VIP`]:[`VIP_PORT`], as the tests send
    /// them). Panics on a frame that is not TCP over IPv4 over Ethernet II.
    pub fn frame(&mut self, f: &[u8]) -> Out {
        let p = etherparse::SlicedPacket::from_ethernet(f).expect("a test frame parses");
        let tagged = p.vlan.is_some();
        let Some(etherparse::NetSlice::Ipv4(ip)) = &p.net else {
            panic!("not IPv4")
        };
        let Some(etherparse::TransportSlice::Tcp(tcp)) = &p.transport else {
            panic!("not TCP")
        };
        let client = (u32::from_be_bytes(ip.header().source()), tcp.source_port());
        let hit = self.table.get(&client).copied();
        let (syn, ack, fin, rst) = (tcp.syn(), tcp.ack(), tcp.fin(), tcp.rst());
        let recent = self.recent.contains(&client);
        let punt = |verdict, slot, class, found_or_hit| {
            Out::Punt(Punted {
                verdict,
                slot,
                class,
                found_or_hit,
                maybe_hit: recent && !found_or_hit && slot.is_some(),
            })
        };
        let tuple = CookieTuple {
            client_ip: client.0,
            vip: a(VIP),
            client_port: client.1,
            vip_port: VIP_PORT,
        };
        let pure_syn = syn && !ack && !fin && !rst && !tagged;
        assert!(
            !(pure_syn && recent),
            "a SYN right behind its client's insert: a SYN-ACK (its lookup ran before the \
             insert) and a punt with the slot (after it) are both right; the model does not \
             pick one, so its tests do not send one"
        );
        if pure_syn && hit.is_none() {
            let mss = tcp
                .options_iterator()
                .find_map(|o| match o {
                    Ok(TcpOptionElement::MaximumSegmentSize(m)) if m != 0 => Some(m),
                    _ => None,
                })
                .unwrap_or(536);
            self.counts.syn_acks += 1;
            return Out::SynAck {
                cookie: cookie_make(&self.keys, &tuple, tcp.sequence_number(), mss),
                class: mss_class(mss),
            };
        }
        let candidate = ack && !syn && !fin && !rst && !tagged && self.validate;
        if let Some(slot) = hit {
            if candidate {
                self.counts.found_or_hit += 1;
                return punt(ev::FOUND, Some(slot), 0, true);
            }
            self.counts.other += 1;
            return punt(ev::NONE, Some(slot), 0, false);
        }
        if !candidate {
            self.counts.other += 1;
            return punt(ev::NONE, None, 0, false);
        }
        let isn = tcp.sequence_number().wrapping_sub(1);
        let cookie = tcp.acknowledgment_number().wrapping_sub(1);
        match cookie_check(&self.keys, &tuple, isn, cookie) {
            Err(CookieError::BadHash) => {
                self.counts.bad_cookie += 1;
                punt(ev::BAD_COOKIE, None, 0, false)
            }
            Err(CookieError::StaleEpoch) => {
                self.counts.stale += 1;
                punt(ev::STALE, None, 0, false)
            }
            Ok(class) => match self.free.front().copied() {
                None => {
                    self.counts.no_slot += 1;
                    punt(ev::NO_SLOT, None, class, false)
                }
                Some(_) if self.bucket_use(bucket(client)) >= FLOW_WAYS as usize => {
                    self.counts.table_full += 1;
                    punt(ev::TABLE_FULL, None, class, false)
                }
                Some((slot, gen)) => {
                    self.free.pop_front();
                    self.counts.new += 1;
                    self.table.insert(client, (slot, gen));
                    self.recent.insert(client);
                    punt(ev::NEW, Some((slot, gen)), class, false)
                }
            },
        }
    }

    /// Keys of the table in `bucket`.
    pub fn bucket_use(&self, bucket: u32) -> usize {
        self.table
            .keys()
            .filter(|&&k| self::bucket(k) == bucket)
            .count()
    }

    /// Every frame sent so far has been through the data path (its lookup and insert
    /// done): no lookup can race an insert before the next frame.
    pub fn settled(&mut self) {
        self.recent.clear();
    }

    /// The firmware pushes `slot` of generation `gen` (DP.FREE_PUSH).
    pub fn push(&mut self, slot: u16, gen: u8) {
        self.free.push_back((slot, gen));
    }

    /// DP.FREE_CTRL.FLUSH: the list's slots go back to the firmware.
    pub fn flush(&mut self) -> Vec<(u16, u8)> {
        self.free.drain(..).collect()
    }

    /// The firmware ends the connection of `client` (deletes its key); its slot.
    pub fn release(&mut self, client: (u32, u16)) -> Option<u16> {
        self.table.remove(&client).map(|(slot, _)| slot)
    }
}

/// The flow-table bucket of a client's key (client to [`VIP`]:[`VIP_PORT`]) in the test
/// bench's table of [`FLOW_BUCKETS`].
pub fn bucket(client: (u32, u16)) -> u32 {
    bucket_of(
        &Key::new(client.0, a(VIP), client.1, VIP_PORT),
        FLOW_BUCKETS,
    )
}

/// Check one punt against the model's prediction; `Err` names the difference.
pub fn check_punt(want: &Punted, desc: &[u32]) -> Result<(), String> {
    let m = meta(desc);
    let got_slot = m.flow_hit.then_some((m.flow_slot, m.slot_gen));
    // NEW and FOUND with a payload go to the inline L7 matcher (the request on or right
    // behind the handshake ACK); no punt without a flow does. (A hit's depends on whether
    // the validator's entry write was in before the lookup.)
    let fed = matches!(m.engine, ev::NEW | ev::FOUND) && m.payload_len > 0;
    if (m.engine != ev::NONE || !m.flow_hit) && m.to_l7 != fed {
        return Err(format!(
            "verdict {} payload {}: to_l7 {}, want {fed}",
            m.engine, m.payload_len, m.to_l7
        ));
    }
    if want.found_or_hit {
        let ok = (m.engine == ev::FOUND || m.engine == ev::NONE)
            && m.flow_hit
            && m.flow_half == 0
            && got_slot == want.slot;
        return ok.then_some(()).ok_or_else(|| {
            format!(
                "want FOUND or a hit of slot {:?}, got verdict {} slot {got_slot:?}",
                want.slot, m.engine
            )
        });
    }
    if want.maybe_hit {
        let ok =
            m.engine == ev::NONE && (!m.flow_hit || (m.flow_half == 0 && got_slot == want.slot));
        return ok.then_some(()).ok_or_else(|| {
            format!(
                "want NONE with no flow or slot {:?}, got verdict {} slot {got_slot:?}",
                want.slot, m.engine
            )
        });
    }
    let class = if matches!(want.verdict, ev::NEW | ev::NO_SLOT | ev::TABLE_FULL) {
        m.mss_class
    } else {
        0
    };
    if m.engine != want.verdict || got_slot != want.slot || class != want.class {
        return Err(format!(
            "want verdict {} slot {:?} class {}, got verdict {} slot {got_slot:?} class {}",
            want.verdict, want.slot, want.class, m.engine, m.mss_class
        ));
    }
    Ok(())
}
