//! Randomised differential test of the connection engine (the SYN responder, the ACK
//! validator and the slot allocator in `splice_datapath`, docs/engine.md) against its
//! reference model (`splicenic_tb_datapath::engine::EngineModel`): at least 1,000,000 random
//! events per DATA_WIDTH, in bursts of up to 12 client frames pushed back to back followed
//! by firmware commands.
//!
//! - Frames: SYNs of new clients (random options; a third of them in one hot flow-table
//!   bucket, changed every few hundred bursts, so buckets fill up), flood SYNs from spoofed sources never
//!   completed, handshake ACKs (some with the request right behind or in them, some in the
//!   same burst as their SYN), retransmitted SYNs and ACKs, data of set-up clients, forged
//!   ACKs (random cookies, a pending client's cookie with one bit flipped), ACKs of cookies
//!   made before a key rotation, RSTs, FINs, SYN-ACKs and 802.1Q-tagged ACKs (none of them
//!   candidates).
//! - Firmware commands: free-list pushes (each with the slot's next generation), letting the
//!   list run dry, releasing connections (their key deleted, the slot pushed again later),
//!   key rotations with and without the previous epoch, flushes, the validator off for a
//!   burst; TX back-pressure in changing profiles.
//! - Checked after every burst: every SYN-ACK (in order, checked with etherparse and the
//!   firmware's cookie check, its cookie equal to the model's), every punt (in order, the
//!   frame unchanged, verdict, slot, generation and MSS class equal to the model's), nothing
//!   on the server port, the free list's level and the table's entries equal to the
//!   model's; a sample of the entries NEW wrote read back (HANDSHAKE, the client half).
//! - The engine's trace ring (`engine_obs`): after every burst the entries written equal the
//!   model's in number (SYN verdicts, validator verdicts, the validator's HANDSHAKE writes),
//!   and every 8th burst (and every burst with an uncertain candidate) they are read back
//!   and compared field by field, in order per source.
//! - At the end: the verdict counters equal the model's, nothing lost or refused, and with
//!   every connection released and the list flushed the table is empty and every slot is
//!   back with the firmware (no stuck slot).
//!
//! The seed is printed; ENGINE_TB_SEED=<n> reruns one, ENGINE_TB_EVENTS=<n> sets the count.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_driver::regs;
use splicenic_layout::stats as idx;
use splicenic_layout::{
    engine_verdict as ev, flow_state, trace_kind, FlowStatic, TraceEntry, TRACE_DEPTH_LOG2,
};
use splicenic_tb_datapath::engine::*;
use splicenic_tb_datapath::params::FLOW_BUCKETS;
use splicenic_tb_datapath::testkit::*;
use splicenic_tb_datapath::{Datapath, Port};
use splicenic_tb_flow::reference::{bucket_of, Key};

/// Events of a run (ENGINE_TB_EVENTS overrides).
const EVENTS: u64 = 1_000_000;
const DEFAULT_SEED: u64 = 0xe9_91e0_0000_0001;
/// Slots the firmware of this run owns (0..SLOTS).
const SLOTS: u16 = 256;
/// The most slots the firmware keeps in the free list.
const LIST_TARGET: usize = 48;
/// Set-up connections kept before the firmware releases some.
const TABLE_MAX: usize = 40;
/// Bursts between changes of the hot bucket.
const HOT_BURSTS: u64 = 300;
/// Clients answered but not yet acknowledged kept for a later ACK.
const PENDING_MAX: usize = 64;
/// Client frames per burst at most (the punt ring holds 16).
const BURST_MAX: usize = 12;
/// The SYN-ACK options the card offers.
const OFFER: (bool, bool, bool) = (true, true, true);
const REQUEST: &[u8] = b"GET /index.html HTTP/1.1\r\nHost: a\r\n\r\n";

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    let parsed = match v.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => v.parse(),
    };
    Some(parsed.unwrap_or_else(|e| panic!("{name}={v}: {e}")))
}

/// A client the SYN responder answered: its SYN and the cookie of that answer.
#[derive(Clone, Copy, Debug)]
struct Client {
    syn: Syn,
    cookie: u32,
}

impl Client {
    fn key(&self) -> (u32, u16) {
        (u32::from_be_bytes(self.syn.ip), self.syn.port)
    }
}

/// What one burst must produce, in order per output.
#[derive(Default)]
struct Expect {
    /// (the SYN, the cookie the model predicts) per SYN-ACK.
    syn_acks: Vec<(Syn, u32)>,
    /// (the frame, the punt the model predicts) per punt.
    punts: Vec<(Vec<u8>, Punted)>,
    /// The trace ring's entries, in order per source (`Want`).
    trace: Vec<Want>,
}

/// A trace-ring entry the model predicts (the ring keeps each source's order; sources
/// interleave by their latencies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// A client SYN's verdict: answered or not, the client.
    Syn { answered: bool, client: (u32, u16) },
    /// The validator's verdict (with its slot and generation for NEW and FOUND); optional
    /// for a candidate behind its own key's insert (the lookup may hit first: no verdict).
    Ack {
        verdict: u8,
        slot: Option<(u16, u8)>,
        optional: bool,
    },
    /// The engine's HANDSHAKE write of a NEW slot.
    Handshake {
        slot: u16,
        gen: u8,
        client: (u32, u16),
    },
}

impl Want {
    fn source(&self) -> u8 {
        match self {
            Want::Syn { .. } => 0,
            Want::Ack { .. } => 1,
            Want::Handshake { .. } => 2,
        }
    }

    /// Whether the ring's entry `e` is this one.
    fn matches(&self, e: &TraceEntry) -> bool {
        match *self {
            Want::Syn { answered, client } => {
                let kind = if answered {
                    trace_kind::SYN_ANSWERED
                } else {
                    trace_kind::SYN_PUNTED
                };
                e.kind == kind && (e.ip, e.client_port) == client
            }
            Want::Ack { verdict, slot, .. } => {
                e.kind == trace_kind::ACK
                    && (e.detail == u16::from(verdict)
                        || (verdict == ev::NEW && e.detail == u16::from(ev::FOUND)))
                    && slot.is_none_or(|(s, g)| (e.slot, e.gen) == (s, g))
            }
            Want::Handshake { slot, gen, client } => {
                e.kind == trace_kind::HANDSHAKE
                    && e.port
                    && (e.slot, e.gen) == (slot, gen)
                    && (e.ip, e.client_port) == client
            }
        }
    }
}

/// The source of a ring entry (`Want::source`).
fn entry_source(e: &TraceEntry) -> u8 {
    match e.kind {
        trace_kind::SYN_ANSWERED | trace_kind::SYN_PUNTED | trace_kind::SYN_DROPPED => 0,
        trace_kind::ACK => 1,
        _ => 2,
    }
}

/// The trace ring's entries `from..to` (entry counts; at most the ring's depth).
fn trace_entries(dp: &mut Datapath, from: u32, to: u32) -> Vec<TraceEntry> {
    let depth = 1u32 << TRACE_DEPTH_LOG2;
    assert!(
        to.wrapping_sub(from) <= depth,
        "{from}..{to}: more than the ring"
    );
    let mut out = Vec::new();
    let mut n = from;
    while n != to {
        dp.write(r(regs::dp::TRACE_RD_IDX), n % depth);
        let w: Vec<u32> = (0..4)
            .map(|i| dp.read(r(regs::dp::TRACE_RD_DATA + 4 * i)))
            .collect();
        out.push(TraceEntry::unpack_at(&w, 0));
        n = n.wrapping_add(1);
    }
    out
}

struct Run {
    dp: Datapath,
    model: EngineModel,
    rng: ChaCha8Rng,
    /// The next generation of each slot's push (1..=255).
    gens: Vec<u8>,
    /// Slots the firmware holds and does not use.
    fw_free: Vec<u16>,
    /// Answered clients without a completed handshake.
    pending: Vec<Client>,
    /// Clients with a slot (NEW), by the order they were set up.
    est: Vec<Client>,
    events: u64,
    /// Punts the RTL marked FOUND (the rest of the model's found-or-hit punts are hits).
    found: u64,
    bursts: u64,
    entries_read: u64,
    /// Trace-ring entries written before the current burst (DP.TRACE_COUNT).
    trace_count: u32,
    /// Trace-ring entries compared with the model's.
    traced: u64,
    /// The bucket a third of the new clients' keys fall into.
    hot: u32,
    /// Per bucket value b, a (client address, port) XOR delta that moves a key's bucket by
    /// b (the Toeplitz hash is linear: bucket(k ^ d) = bucket(k) ^ bucket(d) for a d with
    /// no VIP bits); address bits 23:8 and port bits 9:0 only, so a key stays a client's.
    deltas: Vec<(u32, u16)>,
}

/// [`Run::deltas`]: a delta for every bucket value, found by a random search.
fn bucket_deltas(rng: &mut ChaCha8Rng) -> Vec<(u32, u16)> {
    let mut deltas = vec![None; FLOW_BUCKETS as usize];
    deltas[0] = Some((0, 0));
    let mut missing = FLOW_BUCKETS - 1;
    for _ in 0..10_000_000 {
        if missing == 0 {
            break;
        }
        let d = (rng.gen::<u32>() & 0x00ff_ff00, rng.gen::<u16>() & 0x3ff);
        let b = bucket_of(&Key::new(d.0, 0, d.1, 0), FLOW_BUCKETS) as usize;
        if deltas[b].is_none() {
            deltas[b] = Some(d);
            missing -= 1;
        }
    }
    deltas
        .into_iter()
        .map(|d| d.expect("a delta for every bucket (the hash's rank over these bits)"))
        .collect()
}

impl Run {
    fn new(width: u32, seed: u64) -> Run {
        let mut dp = Datapath::new(width).expect("model");
        configure(&mut dp);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let keys = enable(&mut dp, &mut rng, OFFER);
        dp.write(r(regs::dp::ACK_CTRL), 1);
        let mut model = EngineModel::new(keys);
        model.validate = true;
        let deltas = bucket_deltas(&mut rng);
        let trace_count = dp.read(r(regs::dp::TRACE_COUNT));
        Run {
            dp,
            model,
            rng,
            gens: vec![1; usize::from(SLOTS)],
            fw_free: (0..SLOTS).collect(),
            pending: Vec::new(),
            est: Vec::new(),
            events: 0,
            found: 0,
            bursts: 0,
            entries_read: 0,
            trace_count,
            traced: 0,
            hot: 0,
            deltas,
        }
    }

    /// A frame into the data path and the model; what it must produce goes to `x`.
    fn send(&mut self, f: Vec<u8>, syn: Option<Syn>, x: &mut Expect) {
        match self.model.frame(&f) {
            Out::SynAck { cookie, .. } => {
                let syn = syn.expect("only SYNs are answered");
                x.syn_acks.push((syn, cookie));
                x.trace.push(Want::Syn {
                    answered: true,
                    client: (u32::from_be_bytes(syn.ip), syn.port),
                });
                if let Some(p) = self
                    .pending
                    .iter_mut()
                    .find(|c| c.syn.port == syn.port && c.syn.ip == syn.ip)
                {
                    p.cookie = cookie;
                } else {
                    self.pending.push(Client { syn, cookie });
                    if self.pending.len() > PENDING_MAX {
                        self.pending.remove(0);
                    }
                }
            }
            Out::Punt(p) => {
                if let Some(syn) = syn {
                    x.trace.push(Want::Syn {
                        answered: false,
                        client: (u32::from_be_bytes(syn.ip), syn.port),
                    });
                }
                if p.verdict != ev::NONE {
                    x.trace.push(Want::Ack {
                        verdict: p.verdict,
                        slot: p.slot.filter(|_| p.verdict == ev::NEW && !p.found_or_hit),
                        optional: p.found_or_hit,
                    });
                }
                if p.verdict == ev::NEW && !p.found_or_hit {
                    let (slot, gen) = p.slot.expect("NEW names its slot");
                    x.trace.push(Want::Handshake {
                        slot,
                        gen,
                        client: frame_client(&f),
                    });
                    // Set up (by its ACK, or by a forged one whose flipped bit only changed
                    // the MSS class): a client with a slot now.
                    let key = frame_client(&f);
                    if let Some(i) = self.pending.iter().position(|c| c.key() == key) {
                        let c = self.pending.swap_remove(i);
                        self.est.push(c);
                    }
                }
                x.punts.push((f.clone(), p));
            }
        }
        self.dp.push(Port::Client, &f, false);
        self.events += 1;
    }

    /// One client frame of a random kind.
    fn frame(&mut self, x: &mut Expect) {
        let rng = &mut self.rng;
        let kind = rng.gen_range(0..100);
        match kind {
            // a new client's SYN, a third of them in the hot bucket
            0..=19 => {
                let mut s = Syn::random(rng);
                if kind % 3 == 0 {
                    let c = (u32::from_be_bytes(s.ip), s.port);
                    let (dip, dport) = self.deltas[(bucket(c) ^ self.hot) as usize];
                    s.ip = (c.0 ^ dip).to_be_bytes();
                    s.port = c.1 ^ dport;
                    debug_assert_eq!(bucket((c.0 ^ dip, c.1 ^ dport)), self.hot);
                }
                self.send(s.frame(false, false), Some(s), x);
            }
            // a flood SYN (never completed)
            20..=34 => {
                let s = Syn::random(rng);
                let f = s.frame(false, false);
                if let Out::SynAck { cookie, .. } = self.model.frame(&f) {
                    x.syn_acks.push((s, cookie));
                    x.trace.push(Want::Syn {
                        answered: true,
                        client: (u32::from_be_bytes(s.ip), s.port),
                    });
                    self.dp.push(Port::Client, &f, false);
                    self.events += 1;
                } else {
                    unreachable!("a flood SYN from a fresh source is answered");
                }
            }
            // a pending client's handshake ACK, the request in it or right behind it
            35..=54 if !self.pending.is_empty() => {
                let i = rng.gen_range(0..self.pending.len());
                let c = self.pending.swap_remove(i);
                match self.rng.gen_range(0..4) {
                    0 => self.send(hs_ack(&c.syn, c.cookie, 0, REQUEST), None, x),
                    1 => {
                        self.send(hs_ack(&c.syn, c.cookie, 0, &[]), None, x);
                        self.send(hs_ack(&c.syn, c.cookie, 0, REQUEST), None, x);
                    }
                    _ => self.send(hs_ack(&c.syn, c.cookie, 0, &[]), None, x),
                }
            }
            // data or a retransmitted ACK of a set-up client
            55..=64 if !self.est.is_empty() => {
                let c = *self.est.choose(rng).expect("non-empty");
                let off = rng.gen_range(0..3) * REQUEST.len() as u32;
                let pay = if rng.gen_bool(0.5) { REQUEST } else { &[][..] };
                self.send(hs_ack(&c.syn, c.cookie, off, pay), None, x);
            }
            // a retransmitted SYN of a pending or a set-up client
            65..=69 => {
                let c = if rng.gen_bool(0.5) {
                    self.pending.choose(rng).copied()
                } else {
                    self.est.choose(rng).copied()
                };
                // Not one whose handshake ACK this burst inserted (see EngineModel: either
                // answer is right).
                if let Some(c) = c.filter(|c| !self.model.recent.contains(&c.key())) {
                    self.send(c.syn.frame(false, false), Some(c.syn), x);
                }
            }
            // a forged ACK: a random client and cookie
            70..=77 => {
                let s = Syn::random(rng);
                let cookie = rng.gen();
                self.send(hs_ack(&s, cookie, 0, &[]), None, x);
            }
            // a pending client's cookie with one bit flipped (bit 0 names the key slot)
            78..=83 if !self.pending.is_empty() => {
                let c = *self.pending.choose(rng).expect("non-empty");
                let forged = c.cookie ^ (1 << rng.gen_range(0..32));
                self.send(hs_ack(&c.syn, forged, 0, &[]), None, x);
            }
            // RST, FIN or SYN-ACK from a client, known or not: never candidates
            84..=93 => {
                let c = match rng.gen_range(0..3) {
                    0 => self.est.choose(rng).copied(),
                    1 => self.pending.choose(rng).copied(),
                    _ => None,
                };
                let (syn, cookie) = match c {
                    Some(c) => (c.syn, c.cookie),
                    None => (Syn::random(rng), rng.gen()),
                };
                let mut f = hs_ack(&syn, cookie, 0, &[]);
                let flags = [0x04u8, 0x14, 0x11, 0x01, 0x12][rng.gen_range(0..5)];
                f[14 + 20 + 13] = flags;
                fix_tcp_checksum(&mut f);
                self.send(f, None, x);
            }
            // an 802.1Q-tagged handshake ACK: not a candidate (punted, the client stays
            // pending)
            94..=96 if !self.pending.is_empty() => {
                let c = *self.pending.choose(rng).expect("non-empty");
                let mut tcp = etherparse::TcpHeader::new(
                    c.syn.port,
                    VIP_PORT,
                    c.syn.isn.wrapping_add(1),
                    502,
                );
                tcp.ack = true;
                tcp.acknowledgment_number = c.cookie.wrapping_add(1);
                self.send(segment(c.syn.mac, c.syn.ip, tcp, &[], true), None, x);
            }
            _ => {
                let s = Syn::random(rng);
                self.send(s.frame(false, false), Some(s), x);
            }
        }
    }

    /// Run one burst and check what came out.
    fn burst(&mut self) {
        if self.bursts % HOT_BURSTS == 0 {
            self.hot = self.rng.gen_range(0..FLOW_BUCKETS);
        }
        let mut x = Expect::default();
        let n = self.rng.gen_range(1..=BURST_MAX);
        while x.punts.len() + 2 <= BURST_MAX && x.syn_acks.len() + x.punts.len() < n {
            self.frame(&mut x);
        }
        let ctx = format!(
            "DATA_WIDTH {} burst {} (events {})",
            self.dp.width(),
            self.bursts,
            self.events
        );
        // Outputs: the SYN-ACKs on the client port and the punts, until both are complete.
        let mut tx = Vec::new();
        let start = self.dp.cycles();
        loop {
            tx.extend(self.dp.drain(Port::Client));
            let punted = self
                .dp
                .read(r(regs::punt::PROD))
                .wrapping_sub(self.dp.read(r(regs::punt::CONS)))
                % 32;
            if tx.len() >= x.syn_acks.len()
                && punted as usize >= x.punts.len()
                && self.dp.rx_pending(Port::Client) == 0
            {
                break;
            }
            assert!(
                self.dp.cycles() - start < 400_000,
                "{ctx}: {} of {} SYN-ACKs and {punted} of {} punts after 400,000 cycles",
                tx.len(),
                x.syn_acks.len(),
                x.punts.len()
            );
            self.dp.tick(16);
        }
        // An extra output shows here or in a later burst's comparison (or the final check).
        self.dp.tick(16);
        tx.extend(self.dp.drain(Port::Client));
        assert_eq!(tx.len(), x.syn_acks.len(), "{ctx}: SYN-ACKs");
        for (i, ((syn, cookie), f)) in x.syn_acks.iter().zip(&tx).enumerate() {
            let got = check_synack(syn, &f.data, &self.model.keys, OFFER);
            assert_eq!(got, *cookie, "{ctx}: SYN-ACK {i}'s cookie");
        }
        let out = self.dp.drain(Port::Server);
        assert!(
            out.is_empty(),
            "{ctx}: {} frames on the server port",
            out.len()
        );
        let got = punts(&mut self.dp);
        assert_eq!(got.len(), x.punts.len(), "{ctx}: punts");
        for (i, ((d, b), (f, want))) in got.iter().zip(&x.punts).enumerate() {
            assert_eq!(b, f, "{ctx}: punt {i}'s frame");
            check_punt(want, d).unwrap_or_else(|e| panic!("{ctx}: punt {i}: {e}"));
            if want.found_or_hit && meta(d).engine == ev::FOUND {
                self.found += 1;
            }
            if want.verdict == ev::NEW && !want.found_or_hit && self.rng.gen_range(0..16) == 0 {
                self.check_entry(want.slot.expect("NEW names its slot").0, f, &ctx);
            }
        }
        self.check_trace(&x.trace, &ctx);
        self.model.settled();
        self.bursts += 1;
    }

    /// The trace ring's entries of the burst against the model's, source by source; every
    /// 8th burst reads them all, the others compare the count (DP.TRACE_COUNT) only when no
    /// optional entry makes it uncertain.
    fn check_trace(&mut self, want: &[Want], ctx: &str) {
        let count = self.dp.read(r(regs::dp::TRACE_COUNT));
        let n = count.wrapping_sub(self.trace_count) as usize;
        let optional = want
            .iter()
            .filter(|w| matches!(w, Want::Ack { optional: true, .. }))
            .count();
        let sure = want.len() - optional;
        assert!(
            (sure..=want.len()).contains(&n),
            "{ctx}: {n} trace entries, the model {sure}..={}",
            want.len()
        );
        if self.bursts % 8 == 0 || optional > 0 {
            let got = trace_entries(&mut self.dp, self.trace_count, count);
            for src in 0..3u8 {
                let mut g = got.iter().filter(|e| entry_source(e) == src).peekable();
                for w in want.iter().filter(|w| w.source() == src) {
                    match g.peek() {
                        Some(e) if w.matches(e) => {
                            g.next();
                        }
                        _ if matches!(w, Want::Ack { optional: true, .. }) => {}
                        e => panic!("{ctx}: trace source {src}: want {w:?}, got {e:?}"),
                    }
                }
                if let Some(e) = g.next() {
                    panic!("{ctx}: trace source {src}: an extra entry {e:?}");
                }
            }
            self.traced += got.len() as u64;
        }
        self.trace_count = count;
    }

    /// The entry NEW wrote for the client of `f`: HANDSHAKE with the client half.
    fn check_entry(&mut self, slot: u16, f: &[u8], ctx: &str) {
        let (st, _) = read_state(&mut self.dp, slot);
        let e = FlowStatic::unpack_at(&st, 0);
        assert_eq!(e.state, flow_state::HANDSHAKE, "{ctx}: slot {slot} state");
        assert_eq!(
            (e.client.peer_ip, e.client.peer_port),
            frame_client(f),
            "{ctx}: slot {slot} client"
        );
        assert_eq!((e.client.local_ip, e.client.local_port), (a(VIP), VIP_PORT));
        self.entries_read += 1;
    }

    /// Push `n` of the firmware's slots, each with its next generation.
    fn push(&mut self, n: usize) {
        for _ in 0..n {
            let Some(i) =
                (!self.fw_free.is_empty()).then(|| self.rng.gen_range(0..self.fw_free.len()))
            else {
                return;
            };
            let slot = self.fw_free.swap_remove(i);
            let g = &mut self.gens[usize::from(slot)];
            let gen = *g;
            *g = g.wrapping_add(1).max(1);
            free_push(&mut self.dp, slot, gen);
            self.model.push(slot, gen);
            self.events += 1;
        }
    }

    /// The firmware ends `n` set-up connections: each key deleted, the slot its own again.
    fn release(&mut self, n: usize) {
        let mut keys: Vec<(u32, u16)> = self.model.table.keys().copied().collect();
        keys.sort_unstable();
        keys.shuffle(&mut self.rng);
        for client in keys.into_iter().take(n) {
            self.est.retain(|c| c.key() != client);
            let key = (client.0, a(VIP), client.1, VIP_PORT);
            let (st, _) = flow_cmd(&mut self.dp, regs::flow::cmd::OP_DELETE, key, 0);
            assert_eq!(st, FLOW_OK, "delete of {key:?}");
            let slot = self
                .model
                .release(client)
                .expect("a key in the table has a slot");
            self.fw_free.push(slot);
            self.events += 1;
        }
    }

    /// A new key into the slot not in use, made current; the previous one valid or not.
    fn rotate(&mut self) {
        let keys = &mut self.model.keys;
        let next = keys.current ^ 1;
        let k: [u32; 2] = [self.rng.gen(), self.rng.gen()];
        self.dp.write(r(regs::dp::COOKIE_KEY_LO), k[0]);
        self.dp.write(r(regs::dp::COOKIE_KEY_HI), k[1]);
        self.dp.write(r(regs::dp::COOKIE_KEY_WR), u32::from(next));
        keys.slots[usize::from(next)] = k;
        keys.current = next;
        keys.previous_valid = self.rng.gen_bool(0.7);
        let keys = *keys;
        write_ctrl(&mut self.dp, 1, OFFER, &keys);
        self.events += 1;
    }

    fn flush(&mut self) {
        self.dp.write(r(regs::dp::FREE_CTRL), 1);
        self.dp.tick(8);
        for (slot, _) in self.model.flush() {
            self.fw_free.push(slot);
        }
        self.events += 1;
    }

    fn set_validate(&mut self, on: bool) {
        self.dp.write(r(regs::dp::ACK_CTRL), u32::from(on));
        self.model.validate = on;
        self.events += 1;
    }

    /// The firmware's commands between bursts, then the list's level and the table's size
    /// against the model's.
    fn firmware(&mut self) {
        if !self.model.validate {
            self.set_validate(true);
        }
        if self.model.free.len() < LIST_TARGET / 2 && self.rng.gen_bool(0.6) {
            let n = LIST_TARGET - self.model.free.len();
            self.push(n);
        }
        if self.model.table.len() > TABLE_MAX || self.rng.gen_bool(0.15) {
            let n = self.rng.gen_range(1..=8);
            self.release(n);
        }
        match self.rng.gen_range(0..1000) {
            0..=9 => self.rotate(),
            10..=12 => self.flush(),
            13..=17 => self.set_validate(false),
            18..=21 => {
                let p = [0, 0, 100, 300, 700][self.rng.gen_range(0..5)];
                self.dp.set_tx_stall(p);
            }
            _ => {}
        }
        let level = free_level(&mut self.dp) as usize;
        assert_eq!(
            level,
            self.model.free.len(),
            "free list level after burst {}",
            self.bursts
        );
        let entries = self.dp.read(r(regs::flow::ENTRIES)) as usize;
        assert_eq!(
            entries,
            self.model.table.len(),
            "flow entries after burst {}",
            self.bursts
        );
    }
}

fn differential(width: u32) {
    let seed = env_u64("ENGINE_TB_SEED").unwrap_or(DEFAULT_SEED + u64::from(width));
    let events = env_u64("ENGINE_TB_EVENTS").unwrap_or(EVENTS);
    eprintln!(
        "engine differential, DATA_WIDTH {width}: seed {seed:#x} (ENGINE_TB_SEED), {events} events"
    );
    let mut run = Run::new(width, seed);
    while run.events < events {
        run.burst();
        run.firmware();
    }
    // Counters equal the model's.
    let c = run.model.counts;
    let dp = &mut run.dp;
    for (name, reg, want) in [
        ("ACK_NEW", regs::dp::ACK_NEW, c.new),
        ("ACK_FOUND", regs::dp::ACK_FOUND, run.found),
        ("ACK_BAD_COOKIE", regs::dp::ACK_BAD_COOKIE, c.bad_cookie),
        ("ACK_STALE", regs::dp::ACK_STALE, c.stale),
        ("ACK_NO_SLOT", regs::dp::ACK_NO_SLOT, c.no_slot),
        ("ACK_TABLE_FULL", regs::dp::ACK_TABLE_FULL, c.table_full),
        ("ACK_LOST", regs::dp::ACK_LOST, 0),
        ("FREE_REFUSED", regs::dp::FREE_REFUSED, 0),
        ("TRACE_LOST", regs::dp::TRACE_LOST, 0),
    ] {
        assert_eq!(u64::from(dp.read(r(reg))), want, "DP.{name}");
    }
    assert_eq!(
        stat(dp, port_idx(Port::Client, idx::port::SYN_ANSWERED)),
        c.syn_acks,
        "SYN_ANSWERED"
    );
    // Every verdict happened.
    for (name, n) in [
        ("NEW", c.new),
        ("FOUND", run.found),
        ("a plain hit behind an insert", c.found_or_hit - run.found),
        ("BAD_COOKIE", c.bad_cookie),
        ("STALE", c.stale),
        ("NO_SLOT", c.no_slot),
        ("TABLE_FULL", c.table_full),
    ] {
        assert!(n > 0, "no {name} in {} events", run.events);
    }
    // Nothing comes out after the last burst.
    assert!(run.dp.settle(1000, 100_000), "the data path goes quiet");
    assert!(
        run.dp.drain(Port::Client).is_empty(),
        "a SYN-ACK after the last burst"
    );
    assert!(punts(&mut run.dp).is_empty(), "a punt after the last burst");
    // No stuck slot: release everything, flush, and every slot is the firmware's again.
    let n = run.model.table.len();
    run.release(n);
    run.flush();
    assert_eq!(
        run.dp.read(r(regs::flow::ENTRIES)),
        0,
        "flow entries at the end"
    );
    assert_eq!(free_level(&mut run.dp), 0, "free list at the end");
    assert_eq!(
        run.fw_free.len(),
        usize::from(SLOTS),
        "every slot back with the firmware"
    );
    eprintln!(
        "engine differential, DATA_WIDTH {width}: {} events in {} bursts, {} cycles: {} SYN-ACKs, \
         NEW {}, FOUND {}, hits behind an insert {}, BAD_COOKIE {}, STALE {}, NO_SLOT {}, \
         TABLE_FULL {}, other punts {}; {} entries read back, {} trace entries compared; RTL \
         equal to the model",
        run.events,
        run.bursts,
        run.dp.cycles(),
        c.syn_acks,
        c.new,
        run.found,
        c.found_or_hit - run.found,
        c.bad_cookie,
        c.stale,
        c.no_slot,
        c.table_full,
        c.other,
        run.entries_read,
        run.traced
    );
}

/// The client (address, port) of a client frame.
fn frame_client(f: &[u8]) -> (u32, u16) {
    let p = etherparse::SlicedPacket::from_ethernet(f).expect("parses");
    let Some(etherparse::NetSlice::Ipv4(ip)) = &p.net else {
        unreachable!("a client frame is IPv4")
    };
    let Some(etherparse::TransportSlice::Tcp(tcp)) = &p.transport else {
        unreachable!("a client frame is TCP")
    };
    (u32::from_be_bytes(ip.header().source()), tcp.source_port())
}

#[test]
fn engine_differential_64() {
    differential(64);
}

#[test]
fn engine_differential_512() {
    differential(512);
}
