//! Unit tests of the flow manager's logic against a fake data path (a model of the flow
//! table, flow memory, punt ring, inject rings and event queue; the real data path with the
//! real firmware is tested in hil-tests).

use super::frame::{
    fill_checksums, parse, tcp_flags as tf, GenOpts, Offload, Parsed, TcpOut, TcpSeg,
};
use super::wirecheck::{self, Wire, WireArp, WireTcp};
use super::*;
use crate::cookie;
use splicenic_layout::{event_type, flow_state, get_bits, l7_flag, put_bits};
use std::collections::{HashMap, VecDeque};
use std::vec::Vec;

const CLK: u32 = splicenic_layout::CLK_HZ;
const VIP: u32 = 0x0a00_0064; // 10.0.0.100
const LOCAL: u32 = 0xc0a8_0001; // 192.168.0.1
const CLIENT: u32 = 0x0a00_0002;
const SRV: [u32; 2] = [0xc0a8_000a, 0xc0a8_000b];
const CMAC: [u8; 6] = [2, 0, 0, 0, 0, 0x02];
const CARD_C: [u8; 6] = [2, 0xca, 0, 0, 0, 1];
const CARD_S: [u8; 6] = [2, 0xca, 0, 0, 0, 2];

/// A REQUEST_MATCHED event for `tag` (an inline result unless `from_buffer`).
fn ev_matched(tag: Slot, flags: u8, pool: u16, rule_id: u16, from_buffer: bool) -> [u32; 4] {
    EvtRequestMatched {
        kind: event_type::REQUEST_MATCHED,
        from_buffer,
        flags,
        tag,
        rule_id,
        pool,
        ..EvtRequestMatched::default()
    }
    .pack()
}

/// A FIN_RST event: a FIN (with ACK) of `slot` arrived on `port`.
fn ev_fin(slot: Slot, port: Port) -> [u32; 4] {
    EvtFinRst {
        kind: event_type::FIN_RST,
        port: port.raw(),
        tcp_flags: tf::FIN | tf::ACK,
        flow_slot: slot,
        ..EvtFinRst::default()
    }
    .pack()
}

/// The state field of a static entry's word 0.
fn state_of(w0: u32) -> u32 {
    FlowStatic::STATE.get32(w0)
}

#[derive(Default)]
struct Fake {
    now: u32,
    table: HashMap<FourTuple, (Slot, bool)>,
    mem: HashMap<Slot, ([u32; STATIC_WORDS], u32)>,
    punts: VecDeque<(Vec<u8>, [u32; PuntMeta::WORDS])>,
    events: VecDeque<[u32; 4]>,
    sent: Vec<(Port, Vec<u8>)>,
    /// etherparse's view of every sent frame (`wirecheck`), in sending order.
    wire: Vec<(Port, Wire)>,
    vips: [(u32, u16, bool); 8],
    l7: Vec<(Vec<u8>, u16)>,
    /// The slot generation of each `l7` command (L7.CMD_GEN).
    l7_gen: Vec<u8>,
    /// Dynamic words 1.. (packet and byte counters, FIN ends, teardown flags) per slot; word
    /// 0 is `mem`'s last seen. A WRITE with a last-seen tick clears them, as the data path's.
    counters: HashMap<Slot, [u32; DYN_WORDS]>,
    /// Readings of the cycle counter so far (each one advances it by a cycle).
    cycle_reads: u64,
    /// Cycles the data-path operations take (all 0 unless a test sets them).
    costs: Costs,
    /// Cycles spent in data-path operations so far (`costs` times the calls).
    busy: u64,
    /// Calls of the profiled data-path operations.
    ops: Costs,
    /// The classifier does not see the card's server-side address (its entry is being
    /// rewritten): segments to it are punted as NOMATCH.
    local_hidden: bool,
    /// SYN_PARAMS.UNITS (0: no hardware SYN responder).
    syn_units: u8,
    /// The SYN responder's register writes, in order.
    syn_writes: Vec<SynWrite>,
    /// DP.FREE_STATUS.DEPTH (0: no ACK validator).
    free_depth: usize,
    /// DP.ACK_CTRL.ENABLE as last written.
    ack_enabled: bool,
    /// A fake of `ack_validator` for these unit tests (the RTL is tested against its own
    /// model in `splicenic-tb-datapath`): its free list; a flowless client ACK to a VIP in
    /// the mask has the card's cookie checked with the firmware's model, pops a slot,
    /// inserts the key and writes the entry as the RTL does.
    free_list: VecDeque<(Slot, u8)>,
    /// FREE_CTRL.FLUSH writes.
    free_flushes: u32,
    /// The next NEW punt is lost (the punt ring was full).
    drop_next_new: bool,
    /// Calls of `state_read_dyn` (the software aging scan's reads and the re-checks).
    dyn_reads: u32,
    /// The hardware aging scanner (none by default: the firmware scans itself).
    age: AgeModel,
    /// TXGEN_STATUS.PRESENT: the card has the frame generator (none by default: every frame
    /// through the inject ring).
    txgen: bool,
    /// TXGEN_STATUS.BUSY: the generator refuses the next request.
    txgen_busy: bool,
    /// The frames the generator sent, per port (TXGEN_SENT_C, TXGEN_SENT_S).
    txgen_sent: [u32; 2],
    /// Every frame sent, through the inject rings or the generator, in order (`sent` is
    /// drained by the tests' checks; this is not).
    log: Vec<(Port, Vec<u8>)>,
    /// FIN_CTRL.PRESENT: the card counts the first FINs of active flows (none by default: a
    /// FIN_RST event per FIN, see [`Fake::fin`]).
    fin_hw: bool,
    /// FIN_CTRL.EVENTS clear (set at reset).
    fin_events_off: bool,
    /// FIN_COUNT per real server.
    fin_counts: HashMap<u8, u32>,
    /// FIN_COUNT reads.
    fin_reads: u32,
    /// A fake of the card's request-head buffers (`head_buf` with `head_replay` behind
    /// DP.HEAD_*; the RTL is tested against the firmware's replay in `splicenic-tb-open` and
    /// `splicenic-tb-datapath`): one entry per buffer, the stored head of a taken one; none
    /// (the default) is a card without them (HEAD_STATUS.PRESENT clear). Appends store
    /// what extends the head contiguously, as `head_buf`; a replay builds the firmware's
    /// segment (`TcpOut::write` with the head as its payload, PSH on a non-empty head) and
    /// gives the buffer back.
    head_bufs: Vec<Option<Vec<u8>>>,
    /// The card's head copy finds the punted frame's ring slot taken by a newer frame
    /// (`head_append` false; the bytes may be stored in part).
    head_copy_lost: bool,
    /// The frame `punt_next` returned last (the card's head copy reads it from the ring).
    last_punt: Vec<u8>,
    /// The card has the SYN-ACK absorber (`ABSORB_CTRL.PRESENT`; see [`Fake::absorb`]).
    absorber: bool,
    /// `ABSORB_CTRL.ENABLE`.
    absorb_on: bool,
    /// SYN-ACKs absorbed (`ABSORB_DONE`).
    absorbed: u32,
    /// The absorber's done queue (`ABSORB_HEAD`): the absorbed setups' slots and
    /// generations, their SYN-ACKs not punted.
    absorb_queue: VecDeque<(Slot, u8)>,
    /// The done queue is full: an absorbed SYN-ACK is punted with verdict ABSORBED.
    absorb_spill: bool,
    /// Setups queued in the done queue (their SYN-ACKs not punted).
    absorb_queued: u32,
    /// Disarms and their results, in order.
    disarms: Vec<DisarmResult>,
}

/// DP.FLOW_SLOTS of the fake card (more than the tests' splicers use, so AGE_LIMIT
/// matters).
const FAKE_FLOW_SLOTS: u32 = 128;

/// A write to the aging scanner's registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AgeWrite {
    Limit(u32),
    Ctrl {
        enable: bool,
        interval: u32,
        free: bool,
    },
    Timeout(usize, u32),
}

/// A fake of the gateware's `aging_scan` for these unit tests of the firmware's logic (the
/// RTL is tested against the firmware's functions in `splicenic-tb-aging`): when enabled it
/// walks the fake's flow entries, slots `0..AGE_LIMIT`, classifies each with the firmware's
/// own [`Splicer::timeout_class`] and [`crate::flowmgr::aging::is_expired`] against the
/// fake's `now` and the timeouts written through `age_timeout_write` (0 until written, as
/// at reset), and queues the expired slots, at most `depth`: the walk waits while the
/// queue is full. Time is coarse here: the walk starts one sweep whenever `now` has changed
/// since the last one started, and goes on with a sweep that waited once the queue has
/// room (at every `age_pop`). With `freer` (AGE_STATUS.FREER) and AGE_CTRL.FREE it frees an
/// expired LINGER flow itself, as the RTL does (tested in `splicenic-tb-datapath`'s aging
/// tests): both keys deleted, the entry FREE, queued with its real server, ACTIVE flag and
/// client.
#[derive(Default)]
struct AgeModel {
    /// AGE_STATUS.DEPTH (0: no scanner on this card).
    depth: usize,
    /// AGE_STATUS.FREER.
    freer: bool,
    enabled: bool,
    /// AGE_CTRL.FREE.
    free: bool,
    limit: u32,
    timeouts: [u32; STATES],
    queue: VecDeque<Aged>,
    /// The slot the walk reads next (AGE_POS).
    pos: u32,
    /// Reads left in the current sweep.
    left: u32,
    /// `now` when the last sweep started.
    swept_at: Option<u32>,
    /// Slots queued (AGE_EXPIRED).
    queued: u32,
    /// Flows it freed itself (AGE_FREED).
    freed: u32,
    /// Register writes, in order.
    writes: Vec<AgeWrite>,
}

/// A write to the hardware SYN responder's registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SynWrite {
    Ctrl(SynCtrl),
    Mss(u16),
    Key(u8, [u32; 2]),
}

/// Per-operation cycle costs of the fake data path (or call counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Costs {
    punt: u64,
    flow_cmd: u64,
    write: u64,
    read: u64,
    inject: u64,
    l7: u64,
    tx_gen: u64,
    head_append: u64,
    head_replay: u64,
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
        let mut m = PuntMeta {
            port: port.raw(),
            time: self.now,
            ..PuntMeta::default()
        };
        // The classifier's why: NONE for a virtual service or the card's address, else
        // NOMATCH.
        let vip = self
            .vips
            .iter()
            .any(|&(ip, p, en)| en && ip == s.dst_ip && p == s.dst_port);
        if !vip && (self.local_hidden || s.dst_ip != LOCAL) {
            m.why = PuntWhy::NoMatch.raw();
        }
        if !self.validate(port, &s, &key, &mut m) {
            return;
        }
        if let Some(&(slot, half)) = self.table.get(&key) {
            let state = self.mem.get(&slot).map_or(0, |e| e.0[0]);
            m.flow_hit = true;
            m.flow_half = u8::from(half);
            m.flow_state = FlowStatic::STATE.get32(state) as u8;
            // Request segments of a flow in state REQUEST or HANDSHAKE go to the inline
            // matcher too (as in the data path).
            m.to_l7 = (m.flow_state == flow_state::REQUEST
                || m.flow_state == flow_state::HANDSHAKE)
                && s.payload_len() > 0;
            m.flow_slot = slot;
            m.slot_gen = field(&self.entry(slot), FlowStatic::GEN) as u8;
            if port == Port::Server && half && self.absorb(slot, &s, &frame) {
                if !self.absorb_spill {
                    self.absorb_queue.push_back((slot, m.slot_gen));
                    self.absorb_queued += 1;
                    return;
                }
                m.engine = engine_verdict::ABSORBED;
            }
        }
        self.punts.push_back((frame, m.pack()));
    }

    /// A fake of the data path's SYN-ACK absorber (`absorb_engine`, whose RTL is tested
    /// against the firmware's `absorb_synack` and replay in `splicenic-tb-datapath`'s
    /// `absorb`): a SYN-ACK on a CONNECTING entry armed as a [`SetupCtx`], with the absorber
    /// on, is absorbed when `absorb_synack` splices it and the head fits one segment: the
    /// SPLICED entry written, the handshake ACK with the head sent from its buffer, the
    /// buffer given back. (Unlike the card it reads any option layout.)
    fn absorb(&mut self, slot: Slot, s: &TcpSeg, frame: &[u8]) -> bool {
        let w = self.entry(slot);
        let ctx = SetupCtx::unpack(&w);
        if !self.absorb_on
            || s.flags & (tf::SYN | tf::ACK) != tf::SYN | tf::ACK
            || entry_state(w[0]) != Some(FlowState::Connecting)
            || !ctx.armed
        {
            return false;
        }
        let opts = parse_syn_options(&frame[s.opts.0..s.opts.1]).unwrap_or_default();
        let hs = Handshake {
            client_mss: ctx.mss,
            mss_to_client: ctx.mss,
            mss_to_server: ctx.mss,
            client_wscale: ctx.ws.then_some(ctx.client_shift),
            server_wscale: ctx.ws.then_some(ctx.server_shift),
            sack: ctx.sack,
            timestamps: ctx.ts,
        };
        let a = absorb_synack(
            &SynAckContext {
                client_isn: ctx.client_isn,
                card_isn: ctx.card_isn,
                card_tsval: ctx.card_tsval,
                client_win: ctx.client_win,
                hs,
                real_server: ctx.real_server,
                client_fin: false,
            },
            &SynAckSegment {
                flags: s.flags,
                seq: s.seq,
                ack: s.ack,
                opts,
            },
        );
        let id = usize::from(ctx.head_id);
        let head_len = self.head_bufs[id].as_ref().map_or(usize::MAX, Vec::len);
        if a.verdict != SynAckVerdict::Splice || head_len > usize::from(a.chunk) {
            return false;
        }
        let mut e = FlowStatic {
            client: ctx.client,
            server: FlowHalfEntry {
                peer_mac: ctx.server_mac,
                peer_ip: ctx.server_ip,
                peer_port: ctx.server_port,
                local_ip: s.dst_ip,
                local_port: s.dst_port,
            },
            gen: ctx.gen,
            ..FlowStatic::default()
        }
        .pack();
        e[..4].copy_from_slice(&a.words);
        self.mem.insert(slot, (e, self.now));
        let ack = GenFrame {
            src_mac: CARD_S,
            dst_mac: mac_from_u64(ctx.server_mac),
            src_ip: s.dst_ip,
            dst_ip: ctx.server_ip,
            src_port: s.dst_port,
            dst_port: ctx.server_port,
            seq: ctx.client_isn.wrapping_add(1),
            ack: a.ack,
            flags: tf::ACK,
            window: a.window,
            opts: GenOpts::Ack {
                ts: ctx.ts.then(|| Timestamps {
                    tsval: ctx.client_tsval,
                    tsecr: opts.timestamps.map_or(0, |t| t.tsval),
                }),
            },
        };
        self.replay_out(ctx.head_id, a.chunk, &ack);
        self.absorbed += 1;
        true
    }

    /// The card's replay of the head in buffer `id` behind `ack`: the frame sent, the buffer
    /// given back.
    fn replay_out(&mut self, id: u8, max_len: u16, ack: &GenFrame) {
        let head = self.head_bufs[usize::from(id)]
            .take()
            .expect("a replay of a buffer in use");
        assert!(
            head.len() <= usize::from(max_len),
            "a replay of {} bytes, longer than its limit {max_len}",
            head.len()
        );
        let mut ob = [0u8; crate::flowmgr::tcpopts::MAX_OPTIONS_LEN];
        let mut out = ack.to_out(&mut ob);
        out.payload = &head;
        if !head.is_empty() {
            out.flags |= tf::PSH;
        }
        let mut f = vec![0u8; out.frame_len()];
        let (n, off) = out.write(&mut f).expect("a replay fits");
        f.truncate(n);
        fill_checksums(&mut f, &off);
        let wire = wirecheck::check(&f);
        self.wire.push((Port::Server, wire));
        self.log.push((Port::Server, f.clone()));
        self.sent.push((Port::Server, f));
    }

    /// The fake ACK validator (see `free_list`): sets the verdict; false when the punt is
    /// lost (`drop_next_new`).
    fn validate(&mut self, port: Port, s: &TcpSeg, key: &FourTuple, m: &mut PuntMeta) -> bool {
        let vip = self
            .vips
            .iter()
            .position(|&(ip, p, en)| en && ip == s.dst_ip && p == s.dst_port);
        let Some(i) = vip.filter(|&i| {
            port == Port::Client
                && self.ack_enabled
                && self.syn_ctrl().vip_mask & 1 << i != 0
                && s.flags & (tf::SYN | tf::RST | tf::FIN | tf::ACK) == tf::ACK
                && !self.table.contains_key(key)
        }) else {
            return true;
        };
        let _ = i;
        let tuple = cookie::CookieTuple {
            client_ip: s.src_ip,
            vip: s.dst_ip,
            client_port: s.src_port,
            vip_port: s.dst_port,
        };
        let check = cookie::cookie_check(
            &self.syn_keys(),
            &tuple,
            s.seq.wrapping_sub(1),
            s.ack.wrapping_sub(1),
        );
        m.engine = match check {
            Err(cookie::CookieError::BadHash) => engine_verdict::BAD_COOKIE,
            Err(_) => engine_verdict::STALE,
            Ok(class) => {
                m.mss_class = class;
                match self.free_list.pop_front() {
                    None => engine_verdict::NO_SLOT,
                    Some((slot, gen)) => {
                        self.table.insert(*key, (slot, false));
                        let mut w = [0u32; STATIC_WORDS];
                        w[0] = FlowStatic::STATE.place32(flow_state::HANDSHAKE.into());
                        let h = Half {
                            peer_mac: [0; 6],
                            peer_ip: s.src_ip,
                            peer_port: s.src_port,
                            local_ip: s.dst_ip,
                            local_port: s.dst_port,
                        };
                        encode_half(&mut w, CLIENT_HALF, &h);
                        FlowStatic::GEN.put(&mut w, gen.into());
                        self.mem.insert(slot, (w, 0));
                        m.slot_gen = gen;
                        if std::mem::take(&mut self.drop_next_new) {
                            return false;
                        }
                        engine_verdict::NEW
                    }
                }
            }
        };
        true
    }

    /// The TCP frames sent since the last `take_sent` or `take_wire`.
    fn take_sent(&mut self) -> Vec<(Port, TcpSeg, Vec<u8>)> {
        self.wire.clear();
        self.sent
            .drain(..)
            .filter_map(|(p, f)| match parse(&f) {
                Parsed::Tcp(s) => Some((p, s, f)),
                _ => None,
            })
            .collect()
    }

    /// Queue a non-TCP frame (ARP) arriving on `port`: no flow, classifier why NONE.
    fn arrive_raw(&mut self, port: Port, frame: Vec<u8>) {
        let m = PuntMeta {
            port: port.raw(),
            time: self.now,
            ..PuntMeta::default()
        };
        self.punts.push_back((frame, m.pack()));
    }

    /// etherparse's view of the frames sent since the last `take_sent` or `take_wire`.
    fn take_wire(&mut self) -> Vec<(Port, Wire)> {
        self.sent.clear();
        self.wire.drain(..).collect()
    }

    /// The one TCP segment sent since the last call, as etherparse decodes it.
    fn one_tcp(&mut self) -> (Port, WireTcp) {
        let mut w = self.take_wire();
        assert_eq!(w.len(), 1, "{w:?}");
        let (port, f) = w.pop().unwrap();
        (port, f.tcp())
    }

    fn entry(&self, slot: Slot) -> [u32; STATIC_WORDS] {
        self.mem.get(&slot).map_or([0; STATIC_WORDS], |e| e.0)
    }

    /// Queue a FIN_RST event as the data path makes it for a forwarded segment: with the
    /// generation of the slot's entry.
    fn forwarded(&mut self, ev: [u32; 4]) {
        let mut e = EvtFinRst::unpack(&ev);
        e.flow_gen = field(&self.entry(e.flow_slot), FlowStatic::GEN) as u8;
        self.events.push_back(e.pack());
    }

    /// The fast path forwards a FIN of the spliced flow in `slot` from `port` at `seq` with
    /// `plen` payload bytes, as the data path handles it: the side's FIN in the teardown view
    /// (`FlowDyn.teardown`; from the client also its end, `FlowDyn.fin_end_cs`), the flow's
    /// first FIN counted on its real server when its entry has ACTIVE (FIN_COUNT, a card
    /// with it), and a FIN_RST event unless FIN_CTRL.EVENTS is clear.
    fn fin(&mut self, slot: Slot, port: Port, seq: u32, plen: u16) {
        let w = self.entry(slot);
        let d = self.counters.entry(slot).or_default();
        let td = FlowDyn::TEARDOWN.get(d) as u8;
        let first = td & (teardown::FIN_CS | teardown::FIN_SC) == 0;
        if port == Port::Client {
            if td & teardown::FIN_CS == 0 {
                FlowDyn::FIN_END_CS.put(d, seq.wrapping_add(u32::from(plen) + 1).into());
            }
            FlowDyn::TEARDOWN.put(d, (td | teardown::FIN_CS).into());
        } else {
            FlowDyn::TEARDOWN.put(d, (td | teardown::FIN_SC).into());
        }
        // A forwarded segment: seen now.
        self.mem.get_mut(&slot).expect("a flow in use").1 = self.now;
        if self.fin_hw && first && entry_flag_bits(w[0]) & entry_flags::ACTIVE != 0 {
            let c = self.fin_counts.entry(entry_rs(w[0]) as u8).or_default();
            *c = c.wrapping_add(1);
        }
        if !self.fin_events_off {
            self.forwarded(ev_seg(slot, port, tf::FIN | tf::ACK, seq, 0, plen));
        }
    }

    /// A fake with an aging scanner (queue depth `AGE_QUEUE_DEPTH`, disabled as at reset).
    fn with_scanner() -> Fake {
        Fake {
            now: 1000,
            age: AgeModel {
                depth: splicenic_layout::AGE_QUEUE_DEPTH as usize,
                ..AgeModel::default()
            },
            ..Fake::default()
        }
    }

    /// The scanner's walk (see [`AgeModel`]).
    fn age_walk(&mut self) {
        let a = &mut self.age;
        if !a.enabled {
            return;
        }
        let limit = match a.limit {
            0 => FAKE_FLOW_SLOTS,
            l => l.min(FAKE_FLOW_SLOTS),
        };
        if a.left == 0 && a.swept_at != Some(self.now) {
            a.left = limit;
            a.swept_at = Some(self.now);
        }
        while a.left > 0 && a.queue.len() < a.depth {
            let slot = (a.pos % limit) as Slot;
            a.pos = (a.pos + 1) % limit;
            a.left -= 1;
            // The scanner's own read of the flow memory (not a CSR read of the firmware's).
            let (w, last_seen) = self.mem.get(&slot).copied().unwrap_or_default();
            let mut d = self.counters.get(&slot).copied().unwrap_or_default();
            d[0] = last_seen;
            if let Some(class) = Splicer::timeout_class(w[0], &d) {
                let timeout = a.timeouts[class.index()];
                if crate::flowmgr::aging::is_expired(self.now, last_seen, timeout) {
                    let mut freed = None;
                    if a.free && class == TcpState::Linger {
                        let client = decode_half(&w, CLIENT_HALF);
                        self.table.remove(&client.key());
                        self.table.remove(&decode_half(&w, SERVER_HALF).key());
                        self.mem.insert(slot, ([0; STATIC_WORDS], last_seen));
                        a.freed += 1;
                        // ACTIVE unless the card saw (and counted) a FIN: with the FIN events
                        // on, those keep ACTIVE (the firmware clears it with the event).
                        let fin_seen = self.fin_events_off && dyn_fins(&d) != 0;
                        freed = Some(Freed {
                            rs: entry_rs(w[0]) as u8,
                            active: entry_flag_bits(w[0]) & entry_flags::ACTIVE != 0 && !fin_seen,
                            client: client.peer_ip,
                        });
                    }
                    a.queue.push_back(Aged { slot, freed });
                    a.queued += 1;
                }
            }
        }
    }

    /// The timeouts the scanner was given.
    fn age_timeouts(&self) -> [u32; STATES] {
        self.age.timeouts
    }

    /// SYN_CTRL as last written.
    fn syn_ctrl(&self) -> SynCtrl {
        self.syn_writes
            .iter()
            .rev()
            .find_map(|w| match w {
                SynWrite::Ctrl(c) => Some(*c),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The card's cookie keys and epoch, as the writes so far left them.
    fn syn_keys(&self) -> cookie::CookieKeys {
        let mut slots = [[0; 2]; 2];
        for w in &self.syn_writes {
            if let SynWrite::Key(slot, k) = w {
                slots[usize::from(*slot)] = *k;
            }
        }
        let c = self.syn_ctrl();
        cookie::CookieKeys {
            slots,
            current: c.cur_epoch,
            previous_valid: c.prev_valid,
        }
    }
}

impl Hw for Fake {
    fn now(&mut self) -> u32 {
        self.now
    }
    fn cycles(&mut self) -> u64 {
        self.cycle_reads += 1;
        (u64::from(self.now) << 16) + self.cycle_reads + self.busy
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
        self.busy += self.costs.punt;
        self.ops.punt += 1;
        buf[..f.len()].copy_from_slice(&f);
        self.last_punt = f.clone();
        Some(PuntInfo { len: f.len(), meta })
    }
    fn inject(&mut self, port: Port, frame: &[u8], offload: Option<Offload>) -> bool {
        self.busy += self.costs.inject;
        self.ops.inject += 1;
        let mut f = frame.to_vec();
        if let Some(o) = offload {
            wirecheck::check_offload(&f, &o);
            fill_checksums(&mut f, &o);
        }
        // Every frame the card sends, as on the wire, through an independent decoder.
        let wire = wirecheck::check(&f);
        self.wire.push((port, wire));
        self.log.push((port, f.clone()));
        self.sent.push((port, f));
        true
    }
    fn tx_gen(&mut self, port: Port, frame: &GenFrame) -> bool {
        if !self.txgen || self.txgen_busy {
            return false;
        }
        self.busy += self.costs.tx_gen;
        self.ops.tx_gen += 1;
        self.txgen_sent[usize::from(port == Port::Server)] += 1;
        // The generator's frame is TcpOut::write's with both checksums (its RTL is tested
        // against exactly that in `splicenic-tb-open` and `splicenic-tb-datapath`).
        let mut ob = [0u8; crate::flowmgr::tcpopts::MAX_OPTIONS_LEN];
        let out = frame.to_out(&mut ob);
        let mut f = vec![0u8; out.frame_len()];
        let (n, off) = out.write(&mut f).expect("a generator frame fits");
        f.truncate(n);
        fill_checksums(&mut f, &off);
        let wire = wirecheck::check(&f);
        self.wire.push((port, wire));
        self.log.push((port, f.clone()));
        self.sent.push((port, f));
        true
    }
    fn head_alloc(&mut self) -> Option<u8> {
        let id = self.head_bufs.iter().position(Option::is_none)?;
        self.head_bufs[id] = Some(Vec::new());
        Some(id as u8)
    }
    fn head_append(&mut self, id: u8, off: u16, from: usize, bytes: &[u8]) -> bool {
        assert_eq!(
            self.last_punt.get(from..from + bytes.len()),
            Some(bytes),
            "bytes of the frame punted last"
        );
        self.busy += self.costs.head_append;
        self.ops.head_append += 1;
        let cap = splicenic_layout::HEAD_BUFFER_BYTES as usize;
        let head = self.head_bufs[usize::from(id)]
            .as_mut()
            .expect("an append to a buffer in use");
        let (off, len) = (usize::from(off), head.len());
        assert!(off <= len, "an append past a hole: {off} > {len}");
        let end = (off + bytes.len()).min(cap);
        if end > len {
            head.extend_from_slice(&bytes[len - off..end - off]);
        }
        !self.head_copy_lost
    }
    fn head_free(&mut self, id: u8) {
        assert!(
            self.head_bufs[usize::from(id)].take().is_some(),
            "a free of buffer {id}, not in use"
        );
    }
    fn head_replay(&mut self, id: u8, max_len: u16, ack: &GenFrame) -> bool {
        if self.head_bufs.is_empty() || self.txgen_busy {
            return false;
        }
        self.busy += self.costs.head_replay;
        self.ops.head_replay += 1;
        self.replay_out(id, max_len, ack);
        true
    }
    fn absorb_enable(&mut self) -> bool {
        self.absorb_on = self.absorber;
        self.absorber
    }
    fn absorb_disarm(&mut self, slot: Slot, gen: u8) -> DisarmResult {
        let mut w = self.entry(slot);
        let ctx = SetupCtx::unpack(&w);
        let state = entry_state(w[0]);
        let r = if state == Some(FlowState::Connecting) && ctx.armed && ctx.gen == gen {
            SetupCtx::ARMED.put(&mut w, 0);
            self.mem.get_mut(&slot).expect("an entry").0 = w;
            DisarmResult::Disarmed
        } else if matches!(state, Some(FlowState::Spliced | FlowState::Closing)) && ctx.gen == gen {
            DisarmResult::Absorbed
        } else {
            DisarmResult::NotArmed
        };
        self.disarms.push(r);
        r
    }
    fn absorb_pop(&mut self) -> Option<(Slot, u8)> {
        self.absorb_queue.pop_front()
    }
    fn evq_pop(&mut self) -> Option<[u32; 4]> {
        self.events.pop_front()
    }
    fn flow_insert(&mut self, key: &FourTuple, slot: Slot, server_half: bool) -> FlowStatus {
        self.busy += self.costs.flow_cmd;
        self.ops.flow_cmd += 1;
        if self.table.contains_key(key) {
            return FlowStatus::Exists;
        }
        self.table.insert(*key, (slot, server_half));
        FlowStatus::Ok
    }
    fn flow_delete(&mut self, key: &FourTuple) -> FlowStatus {
        self.busy += self.costs.flow_cmd;
        self.ops.flow_cmd += 1;
        match self.table.remove(key) {
            Some(_) => FlowStatus::Ok,
            None => FlowStatus::NotFound,
        }
    }
    fn state_write(&mut self, slot: Slot, words: &[u32; STATIC_WORDS], last_seen: Option<u32>) {
        self.busy += self.costs.write;
        self.ops.write += 1;
        let e = self.mem.entry(slot).or_insert(([0; STATIC_WORDS], 0));
        e.0 = *words;
        if let Some(t) = last_seen {
            e.1 = t;
            self.counters.remove(&slot);
        }
    }
    fn state_read(&mut self, slot: Slot, words: &mut [u32; STATIC_WORDS]) -> u32 {
        self.busy += self.costs.read;
        self.ops.read += 1;
        let e = self
            .mem
            .get(&slot)
            .copied()
            .unwrap_or(([0; STATIC_WORDS], 0));
        *words = e.0;
        e.1
    }
    fn state_read_dyn(
        &mut self,
        slot: Slot,
        words: &mut [u32; STATIC_WORDS],
        dyn_words: &mut [u32; DYN_WORDS],
    ) {
        self.dyn_reads += 1;
        *dyn_words = self.counters.get(&slot).copied().unwrap_or_default();
        dyn_words[0] = self.state_read(slot, words);
    }
    fn flow_entries(&mut self) -> u32 {
        self.table.len() as u32
    }
    fn l7_match(&mut self, request: &[u8], tag: u16, gen: u8) -> bool {
        self.busy += self.costs.l7;
        self.ops.l7 += 1;
        self.l7.push((request.to_vec(), tag));
        self.l7_gen.push(gen);
        true
    }
    fn syn_units(&mut self) -> u8 {
        self.syn_units
    }
    fn syn_ctrl_write(&mut self, ctrl: &SynCtrl) {
        self.syn_writes.push(SynWrite::Ctrl(*ctrl));
    }
    fn syn_mss_write(&mut self, mss: u16) {
        self.syn_writes.push(SynWrite::Mss(mss));
    }
    fn cookie_key_write(&mut self, slot: u8, key: [u32; 2]) {
        assert!(slot < 2, "key slot {slot}");
        self.syn_writes.push(SynWrite::Key(slot, key));
    }
    fn free_depth(&mut self) -> usize {
        self.free_depth
    }
    fn ack_ctrl_write(&mut self, enable: bool) {
        self.ack_enabled = enable;
    }
    fn free_push(&mut self, slot: Slot, gen: u8) {
        assert!(
            self.free_list.len() < self.free_depth,
            "push to a full list"
        );
        self.free_list.push_back((slot, gen));
    }
    fn free_flush(&mut self) {
        self.free_list.clear();
        self.free_flushes += 1;
    }
    fn age_depth(&mut self) -> usize {
        self.age.depth
    }
    fn age_config(&mut self, enable: bool, limit: u32) {
        assert!(
            self.age.depth > 0,
            "AGE_CTRL written on a card without a scanner"
        );
        let interval = splicenic_layout::AGE_DEFAULT_INTERVAL;
        self.age.writes.push(AgeWrite::Limit(limit));
        let free = enable && self.age.freer;
        self.age.writes.push(AgeWrite::Ctrl {
            enable,
            interval,
            free,
        });
        self.age.limit = limit;
        self.age.enabled = enable;
        self.age.free = free;
    }
    fn age_timeout_write(&mut self, class: usize, ticks: u32) {
        assert!(
            self.age.depth > 0,
            "AGE_TIMEOUT written on a card without a scanner"
        );
        assert!(class < STATES, "AGE_TIMEOUT[{class}]");
        self.age.writes.push(AgeWrite::Timeout(class, ticks));
        self.age.timeouts[class] = ticks;
    }
    fn age_pop(&mut self) -> Option<Aged> {
        assert!(
            self.age.depth > 0,
            "AGE_HEAD read on a card without a scanner"
        );
        self.age_walk();
        self.age.queue.pop_front()
    }
    fn fin_hw(&mut self) -> bool {
        self.fin_hw
    }
    fn fin_events(&mut self, enable: bool) {
        assert!(self.fin_hw, "FIN_CTRL written on a card without FIN counts");
        self.fin_events_off = !enable;
    }
    fn fin_count(&mut self, rs: u8) -> u32 {
        assert!(self.fin_hw, "FIN_COUNT read on a card without FIN counts");
        self.fin_reads += 1;
        self.fin_counts.get(&rs).copied().unwrap_or(0)
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
    pools: Box<Pools>,
}

impl World {
    fn tables(&mut self) -> Tables<'_> {
        Tables {
            free: &mut self.free,
            bufs: &mut self.bufs,
            pools: &mut self.pools,
        }
    }
}

/// SYNs from spoofed ports (0x0b00_0001:1000..) to VIP:80 until every setup entry is busy.
fn flood_setup_entries(sp: &mut Splicer, hw: &mut Fake) {
    for port in 0..(PENDING - sp.pending()) as u16 {
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
        sp.poll(hw);
    }
}

fn world() -> World {
    World {
        free: Box::new(SlotList::empty()),
        bufs: Box::new([[0; REQ_BUF]; PENDING]),
        pools: Box::new([const { None }; MAX_POOLS]),
    }
}

/// A splicer with the L7 service configured (mode 2) on a plain fake card.
fn l7_world(w: &mut World) -> (Splicer<'_>, Fake) {
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    (sp, hw)
}

/// A client SYN from `cport` with ISN `isn` and options `opts`, answered by the firmware;
/// returns the card's ISN.
fn answered_syn(sp: &mut Splicer, hw: &mut Fake, cport: u16, isn: u32, opts: &[u8]) -> u32 {
    hw.arrive(
        Port::Client,
        seg((CLIENT, cport), (VIP, 80), isn, 0, tf::SYN, opts, &[], CMAC),
    );
    sp.poll(hw);
    hw.take_sent()[0].1.seq
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
fn an_inline_verdict_of_an_earlier_use_of_the_slot_is_dropped() {
    let mut w = world();
    let (mut sp, mut hw) = configured(&mut w, 2);
    let req = b"GET /img/a.png HTTP/1.1\r\nHost: www.example.com\r\n\r\n";
    let (slot, _) = connect(&mut sp, &mut hw, 40010, 5000, req);
    hw.take_sent();
    only_its_own_generations_verdict_connects(&mut sp, &mut hw, slot, false);
}

/// A REQUEST_MATCHED event for `slot` (inline or `from_buffer`) of another generation than
/// the slot's entry is dropped and counted; the one of its own generation sends the server
/// SYN. Returns the generation.
fn only_its_own_generations_verdict_connects(
    sp: &mut Splicer,
    hw: &mut Fake,
    slot: Slot,
    from_buffer: bool,
) -> u8 {
    let gen = field(&hw.entry(slot), FlowStatic::GEN) as u8;
    assert_ne!(gen, 0);
    // A verdict the matcher made for the slot's previous connection: ignored.
    let mut old = EvtRequestMatched::unpack(&ev_matched(slot, l7_flag::MATCHED, 1, 7, from_buffer));
    old.flow_gen = gen.wrapping_add(1).max(1);
    hw.events.push_back(old.pack());
    sp.poll(hw);
    assert!(
        hw.take_sent().is_empty(),
        "no server SYN for another use's verdict"
    );
    assert_eq!(sp.stats.tcp.gen_stale, 1);
    // The connection's own verdict connects it.
    let mut own = old;
    own.flow_gen = gen;
    hw.events.push_back(own.pack());
    sp.poll(hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].1.has(tf::SYN) && sent[0].0 == Port::Server);
    assert_eq!(sp.stats.tcp.gen_stale, 1);
    gen
}

#[test]
fn l7_connection_is_answered_matched_connected_spliced_and_aged() {
    let mut w = world();
    let (mut sp, mut hw) = configured(&mut w, 2);
    assert_eq!(hw.vips[0], (VIP, 80, true));
    let isn = 0xffff_fff0; // the request crosses 2^32
    let req = b"GET /img/a.png HTTP/1.1\r\nHost: www.example.com\r\n\r\n";
    let (slot, card_isn) = connect(&mut sp, &mut hw, 40000, isn, req);
    // The request was acknowledged.
    let acks = hw.take_sent();
    let last = acks.last().unwrap().1;
    assert_eq!(last.ack, isn.wrapping_add(1 + req.len() as u32));
    assert_eq!(
        state_of(hw.entry(slot)[0]),
        FlowState::Connecting.raw().into()
    );
    // The inline matcher's verdict: pool 1.
    hw.events.push_back(ev_matched(slot, 0, 1, 7, false));
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
    assert_eq!(state_of(e[0]), FlowState::Spliced.raw().into());
    assert_eq!(
        FlowStatic::FLAGS.get32(e[0]) & 7,
        u32::from(entry_flags::SACK | entry_flags::TIMESTAMPS),
        "SACK and timestamps translated; equal shifts need no rescale"
    );
    assert_eq!(
        e[2], 0,
        "delta C->S is 0 when the server SYN reuses the client ISN"
    );
    assert_eq!(e[3], card_isn.wrapping_sub(s_isn));
    assert_eq!(sp.stats.spliced, 1);
    assert_eq!(sp.pending(), 0);
    let rs = FlowStatic::REAL_SERVER.get32(e[0]) as u8;
    let mut rsp = [0u32; MAX_WORDS];
    sp.command(&mut hw, cmd::SERVER_STATS, &[u32::from(rs)], &mut rsp);
    assert_eq!(&rsp[..2], &[1, 0], "one active connection");
    // FIN from the client, then the aging scan with a short FIN_WAIT timeout.
    hw.forwarded(ev_fin(slot, Port::Client));
    sp.poll(&mut hw);
    assert_eq!(state_of(hw.entry(slot)[0]), FlowState::Closing.raw().into());
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
    assert_eq!(state_of(hw.entry(slot)[0]), 0, "freed");
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
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    let (slot, card_isn) = connect(&mut sp, &mut hw, 40001, 5000, b"GET /a HTTP/1.1\r\nHo");
    hw.take_sent();
    // Inline verdict: incomplete.
    hw.events
        .push_back(ev_matched(slot, l7_flag::INCOMPLETE, 0, 0, false));
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
        .push_back(ev_matched(slot, l7_flag::MATCHED, 1, 0, true));
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
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
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
    let mut sp = Splicer::new(CLK, 2, w.tables(), 1, 2);
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
    let mut sp = Splicer::new(CLK, 8, w.tables(), 1, 2);
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
    // 11 is LINGER, the last state; 12 is none.
    assert_eq!(st(&mut sp, cmd::TIMEOUT_SET, &[11, 5]), status::OK);
    assert_eq!(
        st(&mut sp, cmd::TIMEOUT_SET, &[STATES as u32, 5]),
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
fn request_behind_an_out_of_order_segment_is_matched_from_the_buffer_with_its_generation() {
    let mut w = world();
    let (mut sp, mut hw) = l7_world(&mut w);
    let card_isn = answered_syn(&mut sp, &mut hw, 5555, 10, &[]);
    // All decided by the data path before the firmware sees the ACK: the segments are fed
    // to the inline matcher (the entry is in HANDSHAKE), but an out-of-order one got there
    // first, so the inline results are not the request's: the buffer is matched.
    let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    for (seq, payload) in [(11, &[][..]), (12, &req[1..]), (11, &req[..])] {
        hw.arrive(
            Port::Client,
            seg(
                (CLIENT, 5555),
                (VIP, 80),
                seq,
                card_isn + 1,
                tf::ACK,
                &[],
                payload,
                CMAC,
            ),
        );
    }
    sp.poll(&mut hw);
    assert_eq!(hw.l7.len(), 1, "buffer match issued");
    assert_eq!(hw.l7[0].0, req.to_vec());
    // The command carries the slot's generation; a buffer verdict of another use of the
    // slot (a command issued before it was freed and set up again) is dropped.
    hw.take_sent();
    let slot = hw.l7[0].1;
    let gen = only_its_own_generations_verdict_connects(&mut sp, &mut hw, slot, true);
    assert_eq!(hw.l7_gen, vec![gen], "L7.CMD_GEN");
}

/// Eight flowless client RSTs: a pass of the main loop reads them and nothing else from the
/// punt ring, then pops the events (a RST of no flow gets no reply).
fn eight_stray_rsts(hw: &mut Fake) {
    for k in 0..8 {
        hw.arrive(
            Port::Client,
            seg(
                (CLIENT, 30000 + k),
                (VIP, 80),
                1,
                0,
                tf::RST,
                &[],
                &[],
                CMAC,
            ),
        );
    }
}

/// TCP_STATS' inline results kept before their NEW punt and those dropped untaken.
fn early_counts(sp: &Splicer) -> (u32, u32) {
    (
        sp.stats.tcp.early_results,
        sp.stats.tcp.early_results_dropped,
    )
}

/// An inline REQUEST_MATCHED of `slot`'s generation `gen`: pool 1 (connects) or, with
/// `incomplete`, no verdict.
fn ev_inline(slot: Slot, gen: u8, incomplete: bool) -> [u32; 4] {
    let flags = if incomplete {
        l7_flag::INCOMPLETE
    } else {
        l7_flag::MATCHED
    };
    let mut e = EvtRequestMatched::unpack(&ev_matched(slot, flags, 1, 7, false));
    e.flow_gen = gen;
    e.pack()
}

#[test]
fn request_right_behind_the_handshake_ack_is_routed_by_its_inline_result() {
    // The firmware answered the SYN: its HANDSHAKE entry sends the request segment right
    // behind the ACK to the inline matcher, whose result may be popped before the ACK's
    // punt (eight frames ahead of it) or after the request's.
    for result_first in [false, true] {
        let mut w = world();
        let (mut sp, mut hw) = l7_world(&mut w);
        let card_isn = answered_syn(&mut sp, &mut hw, 5555, 10, &[]);
        let slot = only_pending(&sp).slot;
        let gen = field(&hw.entry(slot), FlowStatic::GEN) as u8;
        if result_first {
            eight_stray_rsts(&mut hw);
        }
        let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        for payload in [&[][..], &req[..]] {
            hw.arrive(
                Port::Client,
                seg(
                    (CLIENT, 5555),
                    (VIP, 80),
                    11,
                    card_isn + 1,
                    tf::ACK,
                    &[],
                    payload,
                    CMAC,
                ),
            );
        }
        hw.events.push_back(ev_inline(slot, gen, false));
        // A later inline result of the slot (another segment's) is not the request's.
        hw.events.push_back(ev_inline(slot, gen, true));
        while sp.poll(&mut hw) {}
        connected_inline(&mut hw, &format!("result first: {result_first}"));
        // The stray RSTs, and the second result.
        let strays = if result_first { 8 } else { 0 };
        assert_eq!(
            sp.stats.ignored,
            strays + 1,
            "(result first: {result_first})"
        );
    }
}

/// The request of `REQ_GET` on the handshake ACK of client port 41000's cookie SYN-ACK (the
/// card's cookie, timestamps on); returns the slot and generation the validator takes.
fn request_on_cookie_ack(hw: &mut Fake) -> (Slot, u8) {
    let (cport, isn) = (41000, 0x1000);
    let (ck, tsval) = card_cookie(hw, cport, isn, 1460, Some(TS_SYN_OPTS));
    let taken = hw.free_list[0];
    hw.arrive(
        Port::Client,
        cookie_ack(cport, isn, ck, &ts(101, tsval), REQ_GET),
    );
    taken
}

/// Connected by an inline result: no buffer match, the server SYN sent.
fn connected_inline(hw: &mut Fake, what: &str) {
    assert!(hw.l7.is_empty(), "no buffer match ({what})");
    assert!(server_syn(&hw.take_sent()).is_some(), "connected ({what})");
}

/// A request head in one segment.
const REQ_GET: &[u8] = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";

#[test]
fn request_on_the_validators_handshake_ack_is_routed_by_its_inline_result() {
    // The request rides on the handshake ACK (the client's pure ACK was lost): the NEW punt
    // has a payload and went to the inline matcher, whose result routes it, before or
    // after the punt.
    for result_first in [false, true] {
        let mut w = world();
        let (mut sp, mut hw) = validator_world(&mut w);
        if result_first {
            eight_stray_rsts(&mut hw);
        }
        let (slot, gen) = request_on_cookie_ack(&mut hw);
        hw.events.push_back(ev_inline(slot, gen, false));
        while sp.poll(&mut hw) {}
        assert_eq!(sp.stats.tcp.engine_new, 1);
        connected_inline(&mut hw, &format!("result first: {result_first}"));
    }
}

#[test]
fn a_lost_inline_result_falls_back_to_the_buffer_match_after_the_inline_wait() {
    // The request rides on the validator's handshake ACK and went to the inline matcher,
    // but its result never comes (overwritten among the kept early results, or lost to a
    // full event queue): after INLINE_WAIT_MS the buffer is matched and routes it; a result
    // that comes after that is not applied a second time.
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let (slot, gen) = request_on_cookie_ack(&mut hw);
    while sp.poll(&mut hw) {}
    assert_eq!(sp.stats.tcp.engine_new, 1);
    assert!(hw.l7.is_empty(), "waits for the inline result");
    hw.now += ms_to_ticks(INLINE_WAIT_MS, CLK) - 1;
    while sp.poll(&mut hw) {}
    assert!(hw.l7.is_empty(), "still within the wait");
    assert_eq!(sp.stats.tcp.inline_timeouts, 0);
    hw.now += 2;
    while sp.poll(&mut hw) {}
    assert_eq!(sp.stats.tcp.inline_timeouts, 1);
    assert_eq!(hw.l7.len(), 1, "the buffer is matched");
    assert_eq!((hw.l7[0].0.as_slice(), hw.l7[0].1), (REQ_GET, slot));
    assert!(server_syn(&hw.take_sent()).is_none(), "not connected yet");
    // The late inline result is not the buffer's: ignored.
    hw.events.push_back(ev_inline(slot, gen, false));
    while sp.poll(&mut hw) {}
    assert!(
        server_syn(&hw.take_sent()).is_none(),
        "not by the late result"
    );
    hw.events
        .push_back(ev_matched(slot, l7_flag::MATCHED, 1, 0, true));
    while sp.poll(&mut hw) {}
    assert!(
        server_syn(&hw.take_sent()).is_some(),
        "connected by the buffer match"
    );
    assert_eq!(sp.stats.setup_failed, 0);
}

#[test]
fn inline_results_of_a_window_of_new_connections_all_wait_for_their_new_punts() {
    // Eight clients' requests ride on their handshake ACKs behind eight stray frames: all
    // eight inline results are popped in the pass that reads the strays, before any NEW
    // punt; each connection takes its own when its punt is read.
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    eight_stray_rsts(&mut hw);
    let mut results = Vec::new();
    let pushed: Vec<(Slot, u8)> = hw.free_list.iter().take(8).copied().collect();
    for (k, &(slot, gen)) in (0..8u16).zip(&pushed) {
        let (cport, isn) = (42000 + k, 0x2000 + u32::from(k) * 0x100);
        let (ck, tsval) = card_cookie(&hw, cport, isn, 1460, Some(TS_SYN_OPTS));
        hw.arrive(
            Port::Client,
            cookie_ack(cport, isn, ck, &ts(101, tsval), req),
        );
        results.push(ev_inline(slot, gen, false));
    }
    hw.events.extend(results);
    sp.poll(&mut hw);
    assert_eq!(sp.pending(), 0, "the results came before the NEW punts");
    assert_eq!(sp.early_verdict_live, 8);
    while sp.poll(&mut hw) {}
    assert_eq!(sp.stats.tcp.engine_new, 8);
    assert!(hw.l7.is_empty(), "no buffer match");
    let syns = hw
        .take_sent()
        .iter()
        .filter(|(p, s, _)| *p == Port::Server && s.has(tf::SYN))
        .count();
    assert_eq!(syns, 8, "every connection connected");
    assert_eq!(sp.early_verdict_live, 0);
    assert_eq!(early_counts(&sp), (8, 0));
}

#[test]
fn early_results_nothing_takes_are_overwritten_oldest_first_and_counted() {
    // Results for slots whose NEW punt never comes (an earlier use's, a lost punt's): the
    // table keeps the last EARLY_VERDICTS, the older ones are dropped and counted, and a
    // connection whose result is still kept takes it.
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let (slot, gen) = hw.free_list[0];
    let extra = 3;
    // Slot numbers well away from the validator's free list.
    for k in 0..(EARLY_VERDICTS + extra) as u16 {
        hw.events.push_back(ev_inline(1000 + k, 1, true));
    }
    while sp.poll(&mut hw) {}
    assert_eq!(sp.early_verdict_live, EARLY_VERDICTS);
    assert_eq!(
        early_counts(&sp),
        ((EARLY_VERDICTS + extra) as u32, extra as u32)
    );
    assert_eq!(sp.stats.ignored, 0, "kept or dropped, not ignored");
    // The oldest kept ones are the first pushed after the dropped.
    let kept: Vec<Slot> = sp.early_verdicts.iter().flatten().map(|e| e.slot).collect();
    assert!(!kept.contains(&1000) && kept.contains(&(1000 + extra as u16)));
    // A connection's result, behind all of them, is kept (dropping the oldest) and taken.
    eight_stray_rsts(&mut hw);
    assert_eq!(request_on_cookie_ack(&mut hw), (slot, gen));
    hw.events.push_back(ev_inline(slot, gen, false));
    while sp.poll(&mut hw) {}
    assert_eq!(sp.stats.tcp.engine_new, 1);
    assert!(hw.l7.is_empty(), "no buffer match");
    assert!(server_syn(&hw.take_sent()).is_some(), "connected");
    assert_eq!(
        early_counts(&sp),
        ((EARLY_VERDICTS + extra + 1) as u32, extra as u32 + 1)
    );
    assert_eq!(sp.early_verdict_live, EARLY_VERDICTS - 1);
}

#[test]
fn inline_result_popped_before_the_validators_new_punt_routes_its_request() {
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let (slot, gen) = hw.free_list[0];
    let (cport, isn) = (41000, 0x1000);
    let (ck, tsval) = card_cookie(&hw, cport, isn, 1460, Some(TS_SYN_OPTS));
    let o = ts(101, tsval);
    let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    eight_stray_rsts(&mut hw);
    // The validator takes the ACK (NEW, slot in HANDSHAKE); the request right behind it goes
    // to the inline matcher, whose results reach the event queue while the NEW punt waits.
    hw.arrive(Port::Client, cookie_ack(cport, isn, ck, &o, &[]));
    hw.arrive(Port::Client, cookie_ack(cport, isn, ck, &o, req));
    hw.events.push_back(ev_inline(slot, gen, false));
    hw.events.push_back(ev_inline(slot, gen, true));
    // A result of another use of a slot is never taken for this one.
    hw.events.push_back(ev_inline(slot + 1, gen, true));
    sp.poll(&mut hw);
    assert_eq!(sp.pending(), 0, "the events came before the NEW punt");
    while sp.poll(&mut hw) {}
    assert_eq!(sp.stats.tcp.engine_new, 1);
    assert_eq!(only_pending(&sp).slot, slot);
    assert!(hw.l7.is_empty(), "no buffer match");
    assert!(
        server_syn(&hw.take_sent()).is_some(),
        "connected by the kept result"
    );
    assert_eq!(sp.stats.ignored, 8, "the stray RSTs only");
    assert_eq!(
        sp.early_verdicts.iter().flatten().count(),
        1,
        "only the other slot's result is left"
    );
    assert_eq!(early_counts(&sp), (3, 0));
}

#[test]
fn fields_decode_as_the_records_unpack() {
    for w in [
        [
            0x9abc_def0u32,
            0x1234_5678,
            0xfedc_ba98,
            0x0bad_f00d,
            0x0000_a711,
        ],
        [u32::MAX; 5],
        [0x0070_0001, 0xffff, 0xffff_0000, 0, 0],
    ] {
        let m = PuntMeta::unpack(&w);
        assert_eq!(field(&w, PuntMeta::ENGINE), u32::from(m.engine));
        assert_eq!(field(&w, PuntMeta::SLOT_GEN), u32::from(m.slot_gen));
        // The event records are 4 words.
        let w = [w[0], w[1], w[2], w[3]];
        assert_eq!(field(&w, PuntMeta::PORT), u32::from(m.port));
        assert_eq!(field(&w, PuntMeta::FLOW_HIT) != 0, m.flow_hit);
        assert_eq!(field(&w, PuntMeta::FLOW_HALF), u32::from(m.flow_half));
        assert_eq!(field(&w, PuntMeta::TO_L7) != 0, m.to_l7);
        assert_eq!(field(&w, PuntMeta::FLOW_SLOT), u32::from(m.flow_slot));
        assert_eq!(
            field(&w, EvtHead::KIND),
            u32::from(EvtHead::unpack_at(&w, 0).kind)
        );
        let e = EvtRequestMatched::unpack(&w);
        assert_eq!(
            field(&w, EvtRequestMatched::FROM_BUFFER) != 0,
            e.from_buffer
        );
        assert_eq!(field(&w, EvtRequestMatched::FLAGS), u32::from(e.flags));
        assert_eq!(field(&w, EvtRequestMatched::TAG), u32::from(e.tag));
        assert_eq!(field(&w, EvtRequestMatched::POOL), u32::from(e.pool));
        let f = EvtFinRst::unpack(&w);
        assert_eq!(field(&w, EvtFinRst::PORT), u32::from(f.port));
        assert_eq!(field(&w, EvtFinRst::FLOW_SLOT), u32::from(f.flow_slot));
        assert_eq!(field(&w, EvtFinRst::TCP_FLAGS), u32::from(f.tcp_flags));
        let s = FlowStatic::unpack_at(&w, 0);
        assert_eq!(entry_state(w[0]), FlowState::from_raw(s.state));
        assert_eq!(entry_flag_bits(w[0]), s.flags);
        assert_eq!(entry_rs(w[0]), usize::from(s.real_server));
    }
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
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
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
    let mut sp = Splicer::new(CLK, 64, w2.tables(), 3, 4);
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
    let mut sp = Splicer::new(CLK, 256, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    // A flood from spoofed ports fills every setup entry.
    flood_setup_entries(&mut sp, &mut hw);
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
    // The profile charged the stateless SYN-ACKs and the cookie ACK to their kinds.
    let cookie = sp.profile.of_handler(Handler::SynCookie);
    assert_eq!(cookie.count, sp.stats.cookie_syn_acks);
    assert!(cookie.count > 0 && cookie.cycles > 0);
    assert_eq!(sp.profile.of_handler(Handler::CookieAck).count, 1);
    // Step timing is off unless the host turns it on.
    assert!(!sp.profile.steps_timed());
    assert_eq!(
        sp.profile.of_step(Step::L7Submit),
        profile::Entry::default()
    );
}

#[test]
fn request_with_fin_is_acknowledged_and_replayed_with_the_fin() {
    let mut w = world();
    let (mut sp, mut hw) = l7_world(&mut w);
    let card_isn = answered_syn(&mut sp, &mut hw, 5000, 10, &[]);
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
    hw.events.push_back(ev_matched(
        hw.l7.first().map_or(0, |l| l.1),
        l7_flag::MATCHED,
        1,
        0,
        false,
    ));
    if hw.l7.is_empty() {
        // Inline verdict for the slot (the fake fed the segment to the inline matcher).
        let slot = hw.table.values().next().unwrap().0;
        hw.events.clear();
        hw.events
            .push_back(ev_matched(slot, l7_flag::MATCHED, 1, 0, false));
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
        state_of(hw.entry(slot)[0]),
        u32::from(FlowState::Closing.raw())
    );
    assert_eq!(sp.stats.spliced, 1);
    assert_eq!(sp.stats.setup_failed, 0);
}

#[test]
fn silent_server_gets_retransmissions_then_the_next_server_is_tried() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, w.tables(), 1, 2);
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
    let (mut sp, mut hw) = l7_world(&mut w);
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
    hw.events
        .push_back(ev_matched(slot, l7_flag::INCOMPLETE, 0, 0, false));
    sp.poll(&mut hw);
    assert_eq!(
        hw.l7.len(),
        1,
        "the whole head is matched without waiting for more bytes"
    );
    assert_eq!(hw.l7[0].0, b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n".to_vec());
}

/// The buffer fills up to its last byte while an INCOMPLETE verdict on a shorter prefix is
/// on its way: the full buffer (its Host line complete) is matched, not reset as over the
/// limit.
#[test]
fn a_full_buffer_is_matched_before_an_older_incomplete_verdict_can_end_the_setup() {
    let mut w = world();
    let (mut sp, mut hw) = l7_world(&mut w);
    let line = format!("GET /{} HTTP/1.1\r\n", "p".repeat(600));
    let (slot, card_isn) = connect(&mut sp, &mut hw, 40006, 7100, line.as_bytes());
    hw.events
        .push_back(ev_matched(slot, l7_flag::INCOMPLETE, 0, 0, false));
    sp.poll(&mut hw);
    // The rest: the Host line and padding up to exactly REQ_BUF bytes.
    let host = "Host: x\r\n";
    // "X: " + q... + CRLF, then the final CRLF.
    let q = REQ_BUF - 2 - line.len() - host.len() - 5;
    let rest = format!("{host}X: {}\r\n", "q".repeat(q));
    assert_eq!(line.len() + rest.len(), REQ_BUF - 2);
    let rest = format!("{rest}\r\n");
    assert_eq!(line.len() + rest.len(), REQ_BUF);
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 40006),
            (VIP, 80),
            7101 + line.len() as u32,
            card_isn.wrapping_add(1),
            tf::ACK,
            &ts(103, 0),
            rest.as_bytes(),
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(hw.l7.len(), 1, "the buffer is matched");
    assert_eq!(hw.l7[0].0.len(), REQ_BUF);
    hw.take_sent();
    // A stale INCOMPLETE for a shorter buffer match would be: simulate the order where the
    // verdict of a first buffer match (of fewer bytes) arrives after the buffer filled.
    let mut w2 = world();
    let mut hw2 = Fake::default();
    let mut sp2 = Splicer::new(CLK, 8, w2.tables(), 1, 2);
    configure(&mut sp2, &mut hw2, 2);
    let (slot2, isn2) = connect(&mut sp2, &mut hw2, 40007, 7200, line.as_bytes());
    // Inline verdict: incomplete -> assembling; the next bytes (not the end) are matched.
    hw2.events
        .push_back(ev_matched(slot2, l7_flag::INCOMPLETE, 0, 0, false));
    sp2.poll(&mut hw2);
    let part = &rest.as_bytes()[..100];
    hw2.arrive(
        Port::Client,
        seg(
            (CLIENT, 40007),
            (VIP, 80),
            7201 + line.len() as u32,
            isn2.wrapping_add(1),
            tf::ACK,
            &ts(103, 0),
            part,
            CMAC,
        ),
    );
    sp2.poll(&mut hw2);
    assert_eq!(hw2.l7.len(), 1);
    // The rest arrives while that buffer match is outstanding: buffered, not matched yet.
    hw2.arrive(
        Port::Client,
        seg(
            (CLIENT, 40007),
            (VIP, 80),
            7201 + (line.len() + part.len()) as u32,
            isn2.wrapping_add(1),
            tf::ACK,
            &ts(104, 0),
            &rest.as_bytes()[100..],
            CMAC,
        ),
    );
    sp2.poll(&mut hw2);
    assert_eq!(hw2.l7.len(), 1);
    hw2.take_sent();
    // The outstanding match's verdict (incomplete: the Host line was not in it) comes now,
    // with the buffer full: the full buffer is matched, the client is not reset.
    hw2.events
        .push_back(ev_matched(slot2, l7_flag::INCOMPLETE, 0, 0, true));
    sp2.poll(&mut hw2);
    let sent = hw2.take_sent();
    assert!(sent.iter().all(|s| !s.1.has(tf::RST)), "reset: {sent:?}");
    assert_eq!(hw2.l7.len(), 2, "the full buffer is matched again");
    assert_eq!(hw2.l7[1].0.len(), REQ_BUF);
    // Its verdict (complete) routes the connection.
    hw2.events
        .push_back(ev_matched(slot2, l7_flag::MATCHED, 1, 0, true));
    sp2.poll(&mut hw2);
    let sent = hw2.take_sent();
    assert!(sent.iter().any(|s| s.1.has(tf::SYN)), "{sent:?}");
}

// ----- control-plane commands -----------------------------------------------------------

/// Runs a command and returns its status and response words.
fn call(sp: &mut Splicer, hw: &mut Fake, c: u32, req: &[u32]) -> (u32, Vec<u32>) {
    let mut rsp = [0xAAAA_AAAA; MAX_WORDS];
    let r = sp.command(hw, c, req, &mut rsp).unwrap();
    (r.status, rsp[..r.len].to_vec())
}

/// `call` that must succeed.
fn ok_words(sp: &mut Splicer, hw: &mut Fake, c: u32, req: &[u32]) -> Vec<u32> {
    let (st, w) = call(sp, hw, c, req);
    assert_eq!(st, status::OK, "command {c:#x} {req:?}");
    w
}

/// An L4 connection from client port `cport`, spliced; returns its slot.
fn splice_l4(sp: &mut Splicer, hw: &mut Fake, cport: u16) -> Slot {
    let (slot, _) = connect(sp, hw, cport, 100, b"GET / HTTP/1.1\r\n\r\n");
    let syn = hw
        .take_sent()
        .into_iter()
        .find(|(p, s, _)| *p == Port::Server && s.has(tf::SYN))
        .unwrap()
        .1;
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
    sp.poll(hw);
    hw.take_sent();
    assert_eq!(
        state_of(hw.entry(slot)[0]),
        u32::from(FlowState::Spliced.raw())
    );
    slot
}

#[test]
fn configuration_reads_back_as_it_was_set() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::CONFIG_MAP, &[]),
        [0, 0, 0, 0]
    );
    configure(&mut sp, &mut hw, 2);
    // Pool 3: mh with fallback and expire-quiescent, persistence 360 s per /24.
    ok_words(
        &mut sp,
        &mut hw,
        cmd::POOL_SET,
        &[3, 10, 0b101, 360, 0xFFFF_FF00],
    );
    ok_words(
        &mut sp,
        &mut hw,
        cmd::SERVER_SET,
        &[
            3 | 40 << 8,
            0x0a00_0009,
            443,
            0x0211_2233,
            0x4455_0000,
            7,
            100,
            50,
        ],
    );
    ok_words(&mut sp, &mut hw, cmd::SVC_SET, &[5, VIP, 443, 1, 3]);
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::CONFIG_MAP, &[]),
        [1 | 1 << 5, 1 << 1 | 1 << 3, 0b11, 1 << 8]
    );
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::SVC_GET, &[0]),
        [1, VIP, 80, 2, 1]
    );
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::SVC_GET, &[5]),
        [1, VIP, 443, 1, 3]
    );
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::SVC_GET, &[4]), [0; 5]);
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::POOL_GET, &[1]),
        [1, 0, 0, 0, u32::MAX, 2]
    );
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::POOL_GET, &[3]),
        [1, 10, 0b101, 360, 0xFFFF_FF00, 1]
    );
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::POOL_GET, &[0]), [0; 6]);
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::SERVER_GET, &[40]),
        [
            1,
            3,
            0x0a00_0009,
            443,
            0x0211_2233,
            0x4455_0000,
            7,
            100,
            50,
            0,
            0,
            0
        ]
    );
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::SERVER_GET, &[1]),
        [
            1,
            1,
            SRV[1],
            8080,
            0x0200_0000,
            0x0011_0000,
            1,
            0,
            0,
            0,
            0,
            0
        ]
    );
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::SERVER_GET, &[2]), [0; 12]);
    // A deleted pool and server read back as absent.
    ok_words(&mut sp, &mut hw, cmd::SERVER_DEL, &[40]);
    ok_words(&mut sp, &mut hw, cmd::POOL_DEL, &[3]);
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::SERVER_GET, &[40]), [0; 12]);
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::POOL_GET, &[3]), [0; 6]);
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::CONFIG_MAP, &[]),
        [1 | 1 << 5, 1 << 1, 0b11, 0]
    );
    // Validation.
    for (c, bad) in [(cmd::SVC_GET, 8), (cmd::POOL_GET, 8), (cmd::SERVER_GET, 64)] {
        assert_eq!(call(&mut sp, &mut hw, c, &[bad]).0, status::BAD_ARGUMENT);
        assert_eq!(call(&mut sp, &mut hw, c, &[]).0, status::BAD_LENGTH);
        assert_eq!(call(&mut sp, &mut hw, c, &[0, 0]).0, status::BAD_LENGTH);
    }
    assert_eq!(
        call(&mut sp, &mut hw, cmd::CONFIG_MAP, &[0]).0,
        status::BAD_LENGTH
    );
}

#[test]
fn timeouts_read_back_in_milliseconds() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, w.tables(), 1, 2);
    let t = ok_words(&mut sp, &mut hw, cmd::TIMEOUT_GET, &[]);
    let defaults: Vec<u32> = DEFAULT_SECS.iter().map(|s| s * 1000).collect();
    assert_eq!(t, defaults);
    ok_words(
        &mut sp,
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::Established as u32, 3600],
    );
    ok_words(
        &mut sp,
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::Close as u32, 1500, 1],
    );
    // A refused value changes nothing.
    assert_eq!(
        call(
            &mut sp,
            &mut hw,
            cmd::TIMEOUT_SET,
            &[TcpState::FinWait as u32, 0]
        )
        .0,
        status::BAD_ARGUMENT
    );
    // LINGER (index 11) in seconds, then in milliseconds.
    ok_words(&mut sp, &mut hw, cmd::TIMEOUT_SET, &[11, 5]);
    assert_eq!(sp.timeouts.ticks(TcpState::Linger), ms_to_ticks(5000, CLK));
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::TIMEOUT_GET, &[])[11], 5000);
    ok_words(&mut sp, &mut hw, cmd::TIMEOUT_SET, &[11, 250, 1]);
    assert_eq!(sp.timeouts.ticks(TcpState::Linger), ms_to_ticks(250, CLK));
    let t = ok_words(&mut sp, &mut hw, cmd::TIMEOUT_GET, &[]);
    assert_eq!(t.len(), 12);
    assert_eq!(t.len(), STATES);
    assert_eq!(t[TcpState::Established as usize], 3_600_000);
    assert_eq!(t[TcpState::Close as usize], 1500);
    assert_eq!(t[TcpState::FinWait as usize], 120_000);
    assert_eq!(t[TcpState::Linger as usize], 250);
    assert_eq!(
        call(&mut sp, &mut hw, cmd::TIMEOUT_GET, &[1]).0,
        status::BAD_LENGTH
    );
}

#[test]
fn zero_clears_totals_and_keeps_gauges() {
    let mut w = world();
    let mut hw = Fake {
        now: 1000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 1);
    let slot = splice_l4(&mut sp, &mut hw, 7100);
    let rs = FlowStatic::REAL_SERVER.get32(hw.entry(slot)[0]);
    // A stray segment (ignored) and a FIN: more totals.
    hw.forwarded(ev_fin(slot, Port::Client));
    sp.poll(&mut hw);
    let before = ok_words(&mut sp, &mut hw, cmd::FLOW_STATS, &[]);
    assert_eq!((before[0], before[3], before[8]), (1, 1, 1));
    assert!(before[2] > 0 && before[10] > 0);
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::SERVER_STATS, &[rs])[5], 1);
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::ZERO, &[]), []);
    let after = ok_words(&mut sp, &mut hw, cmd::FLOW_STATS, &[]);
    assert_eq!(after[0], 1, "slots in use is a gauge");
    assert_eq!(after[1], before[1], "capacity");
    assert_eq!(after[14], before[14], "setups pending");
    for i in (2..14).chain([15]) {
        assert_eq!(after[i], 0, "word {i}");
    }
    let s = ok_words(&mut sp, &mut hw, cmd::SERVER_STATS, &[rs]);
    assert_eq!(
        (s[0], s[1], s[5]),
        (0, 1, 0),
        "inactive count kept, total zeroed"
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::ZERO, &[0]).0,
        status::BAD_LENGTH
    );
    // Counting resumes: the flow ages out.
    ok_words(
        &mut sp,
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::FinWait as u32, 10, 1],
    );
    hw.now += 1000;
    for _ in 0..2 {
        sp.poll(&mut hw);
    }
    let s = ok_words(&mut sp, &mut hw, cmd::FLOW_STATS, &[]);
    assert_eq!((s[0], s[7]), (0, 1));
}

#[test]
fn flow_list_and_get_describe_live_flows() {
    let mut w = world();
    let mut hw = Fake {
        now: 5000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 1);
    let spliced = splice_l4(&mut sp, &mut hw, 7200);
    let closing = splice_l4(&mut sp, &mut hw, 7201);
    hw.forwarded(ev_fin(closing, Port::Server));
    sp.poll(&mut hw);
    // A flow in its handshake.
    hw.arrive(
        Port::Client,
        seg((CLIENT, 7202), (VIP, 80), 1, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    let handshake = hw.table[&FourTuple {
        src_ip: CLIENT,
        dst_ip: VIP,
        src_port: 7202,
        dst_port: 80,
    }]
        .0;
    hw.take_sent();
    let mut listed = ok_words(&mut sp, &mut hw, cmd::FLOW_LIST, &[0]);
    assert_eq!(listed.remove(0), FLOW_LIST_DONE);
    let mut expect = [spliced, closing, handshake];
    expect.sort_unstable();
    assert_eq!(
        listed,
        expect.iter().map(|&s| u32::from(s)).collect::<Vec<_>>()
    );

    // Counters as the data path keeps them: 48-bit byte counts.
    let d = FlowDyn {
        packets_cs: 11,
        packets_sc: 22,
        bytes_cs: 0x1234_5678_9abc,
        bytes_sc: 0xfedc_ba98_7654,
        ..FlowDyn::default()
    }
    .pack();
    hw.counters.insert(spliced, d);
    // 100 ticks idle.
    hw.now += 100;
    let g = ok_words(&mut sp, &mut hw, cmd::FLOW_GET, &[u32::from(spliced)]);
    assert_eq!(g.len(), FLOW_GET_WORDS);
    let e = hw.entry(spliced);
    let rs = FlowStatic::REAL_SERVER.get32(e[0]);
    assert_eq!(g[0] & 0xff, u32::from(FlowState::Spliced.raw()));
    assert_eq!(g[0] >> 8 & 0xff, FlowStatic::FLAGS.get32(e[0]), "flags");
    assert!(g[0] >> 8 & u32::from(entry_flags::ACTIVE) != 0);
    assert_eq!(
        (g[0] >> 16 & 0xff, g[0] >> 24),
        (rs, 0),
        "real server, service"
    );
    assert_eq!(g[1..4], [CLIENT, 7200 << 16 | 80, VIP]);
    let server = SRV[rs as usize];
    assert_eq!(
        g[4..7],
        [
            server,
            8080 << 16 | u32::from(LOCAL_PORT_BASE + spliced),
            LOCAL
        ]
    );
    let tick_ms = |t: u64| (t << 16) * 1000 / u64::from(CLK);
    let idle_ms = tick_ms(100) as u32;
    let est = sp.timeouts.ticks(TcpState::Established);
    assert_eq!(g[7], tick_ms(u64::from(est - 100)) as u32, "expires in");
    assert_eq!(g[8], idle_ms);
    assert_eq!(g[9..11], [11, 22]);
    assert_eq!(g[11..15], [0x5678_9abc, 0x1234, 0xba98_7654, 0xfedc]);
    assert_eq!(g[15], TcpState::Established as u32);

    let g = ok_words(&mut sp, &mut hw, cmd::FLOW_GET, &[u32::from(closing)]);
    assert_eq!(g[0] & 0xff, u32::from(FlowState::Closing.raw()));
    assert_eq!(
        (g[0] >> 8) as u8 & (entry_flags::FIN_SERVER | entry_flags::ACTIVE),
        entry_flags::FIN_SERVER
    );
    assert_eq!(g[15], TcpState::FinWait as u32);

    let g = ok_words(&mut sp, &mut hw, cmd::FLOW_GET, &[u32::from(handshake)]);
    assert_eq!(g[0] & 0xff, u32::from(FlowState::Handshake.raw()));
    assert_eq!(g[0] >> 16 & 0xff, 0xff, "no real server yet");
    assert_eq!(g[1..4], [CLIENT, 7202 << 16 | 80, VIP]);
    assert_eq!(g[4..7], [0, 0, 0], "no server half yet");
    // The handshake deadline (SYN_RECV timeout) counts down from the SYN.
    let syn_recv = sp.timeouts.ticks(TcpState::SynRecv);
    assert_eq!(g[7], tick_ms(u64::from(syn_recv - 100)) as u32);
    assert_eq!(g[15], 0xff);

    // A free slot, a slot never used, one out of range, wrong lengths.
    let free = (0..64u32)
        .find(|s| !expect.contains(&(*s as Slot)))
        .unwrap();
    assert_eq!(
        call(&mut sp, &mut hw, cmd::FLOW_GET, &[free]).0,
        status::NOT_FOUND
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::FLOW_GET, &[63]).0,
        status::NOT_FOUND
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::FLOW_GET, &[64]).0,
        status::BAD_ARGUMENT
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::FLOW_GET, &[]).0,
        status::BAD_LENGTH
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::FLOW_LIST, &[]).0,
        status::BAD_LENGTH
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::FLOW_LIST, &[0x1_0000]).0,
        status::BAD_ARGUMENT
    );
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::FLOW_LIST, &[FLOW_LIST_DONE]),
        [FLOW_LIST_DONE]
    );
}

#[test]
fn flow_list_is_bounded_per_call_and_resumes_at_its_cursor() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 4096, w.tables(), 1, 2);
    // 3000 slots were handed out; 40 are still in use: 0..20, 1500..1510, 2990..3000.
    let used: Vec<u32> = (0..20).chain(1500..1510).chain(2990..3000).collect();
    sp.fresh = 3000;
    for s in 0..3000u32 {
        if !used.contains(&s) {
            sp.free.free(s as Slot).unwrap();
        }
    }
    let mut cursor = 0;
    let mut calls = Vec::new();
    let mut seen = Vec::new();
    while cursor != FLOW_LIST_DONE {
        let mut r = ok_words(&mut sp, &mut hw, cmd::FLOW_LIST, &[cursor]);
        let next = r.remove(0);
        assert!(r.len() <= FLOW_LIST_MAX);
        if next != FLOW_LIST_DONE {
            assert!(next > cursor && next - cursor <= FLOW_LIST_BUDGET as u32);
        }
        calls.push((cursor, r.len()));
        seen.extend(r);
        cursor = next;
    }
    assert_eq!(seen, used);
    assert_eq!(
        calls,
        [(0, 15), (15, 5), (1039, 10), (2063, 10)],
        "15 per call at most, 1024 slots examined at most"
    );
}

#[test]
fn ruleset_record_commands_store_and_return_the_blob() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, w.tables(), 1, 2);
    // No memory given: refused.
    assert_eq!(
        call(&mut sp, &mut hw, cmd::RULESET_INFO, &[]).0,
        status::NO_SPACE
    );
    let mut buf = Box::new([0u32; record::RULESET_WORDS]);
    sp.attach_ruleset(&mut buf);
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::RULESET_INFO, &[]),
        [0, 0, 0, 0, 0, 16384]
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::RULESET_GET, &[0]).0,
        status::NOT_FOUND
    );
    let blob: Vec<u8> = (0..70u8).collect();
    let words: Vec<u32> = blob
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect();
    let hash = record::fnv1a(record::FNV_BASIS, &blob);
    for (i, chunk) in words.chunks(15).enumerate() {
        let mut req = vec![(i * 15) as u32];
        req.extend_from_slice(chunk);
        ok_words(&mut sp, &mut hw, cmd::RULESET_PUT, &req);
    }
    assert_eq!(
        call(&mut sp, &mut hw, cmd::RULESET_GET, &[0]).0,
        status::BUSY
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::RULESET_PUT, &[3, 0]).0,
        status::BAD_ARGUMENT
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::RULESET_COMMIT, &[70]).0,
        status::BAD_LENGTH
    );
    ok_words(&mut sp, &mut hw, cmd::RULESET_COMMIT, &[70, hash, 0xC0FFEE]);
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::RULESET_INFO, &[]),
        [70, 1, hash, 1, 0xC0FFEE, 16384]
    );
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::RULESET_GET, &[0]),
        words[..16]
    );
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::RULESET_GET, &[16]),
        words[16..]
    );
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::RULESET_GET, &[18]), []);
    assert_eq!(
        call(&mut sp, &mut hw, cmd::RULESET_GET, &[19]).0,
        status::BAD_ARGUMENT
    );
    assert_eq!(
        call(&mut sp, &mut hw, cmd::RULESET_PUT, &[]).0,
        status::BAD_LENGTH
    );
    // A wrong hash leaves nothing stored.
    ok_words(&mut sp, &mut hw, cmd::RULESET_PUT, &[0, 1]);
    assert_eq!(
        call(&mut sp, &mut hw, cmd::RULESET_COMMIT, &[4, 0]).0,
        status::BAD_ARGUMENT
    );
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::RULESET_INFO, &[])[..4],
        [0, 1, 0, 0]
    );
}

#[test]
fn capture_copies_punted_frames_as_received() {
    let mut w = world();
    let (mut sp, mut hw) = l7_world(&mut w);
    assert_eq!(
        call(&mut sp, &mut hw, cmd::CAPTURE_SET, &[1]).0,
        status::NO_SPACE
    );
    let mut ring = Box::new([0u32; capture::CAPTURE_WORDS]);
    sp.attach_capture(&mut ring, 0x1001_0000);
    let info = ok_words(&mut sp, &mut hw, cmd::CAPTURE_INFO, &[]);
    assert_eq!(info[..8], [0, 0x1001_0000, 32768, 0, 0, 0, 0, 0]);
    // Off: nothing is copied.
    let syn = seg((CLIENT, 9100), (VIP, 80), 1, 0, tf::SYN, &TS_SYN, &[], CMAC);
    hw.arrive(Port::Client, syn.clone());
    sp.poll(&mut hw);
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::CAPTURE_INFO, &[])[3], 0);
    for bad in [&[2][..], &[1, 0x1_0000]] {
        assert_eq!(
            call(&mut sp, &mut hw, cmd::CAPTURE_SET, bad).0,
            status::BAD_ARGUMENT
        );
    }
    assert_eq!(
        call(&mut sp, &mut hw, cmd::CAPTURE_SET, &[]).0,
        status::BAD_LENGTH
    );
    ok_words(&mut sp, &mut hw, cmd::CAPTURE_SET, &[1]);
    hw.now = 77;
    hw.arrive(Port::Client, syn.clone());
    let card_isn = {
        sp.poll(&mut hw);
        hw.take_sent()[0].1.seq
    };
    let rst = seg(
        (SRV[0], 8080),
        (LOCAL, 0x4444),
        5,
        card_isn,
        tf::RST | tf::ACK,
        &[],
        &[],
        CMAC,
    );
    hw.arrive(Port::Server, rst.clone());
    sp.poll(&mut hw);
    let info = ok_words(&mut sp, &mut hw, cmd::CAPTURE_INFO, &[]);
    let len = |f: &Vec<u8>| capture::record_len(f.len()) as u32;
    assert_eq!(info[0], 1);
    assert_eq!(info[3], len(&syn) + len(&rst), "write position");
    assert_eq!((info[4], info[5], info[6]), (0, 2, 0));
    assert!(
        u64::from(info[9]) << 32 | u64::from(info[8]) > 0,
        "copy cycles"
    );
    // The records: header, cycle stamp, the frame bytes.
    let bytes: Vec<u8> = sp
        .capture
        .as_ref()
        .unwrap()
        .words()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let h0 = u32::from_le_bytes(bytes[0..4].try_into().unwrap());
    assert_eq!(h0, syn.len() as u32 | (syn.len() as u32) << 16);
    let stamp = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    assert_eq!(stamp >> 16, 77, "the fake's cycle counter");
    assert_eq!(&bytes[12..12 + syn.len()], &syn[..]);
    let at = len(&syn) as usize;
    let h1 = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(h1, rst.len() as u32 | (rst.len() as u32) << 16 | 1 << 31);
    assert_eq!(&bytes[at + 12..at + 12 + rst.len()], &rst[..]);
    // Off again: positions stay.
    ok_words(&mut sp, &mut hw, cmd::CAPTURE_SET, &[0, 0]);
    hw.arrive(Port::Client, syn);
    sp.poll(&mut hw);
    let after = ok_words(&mut sp, &mut hw, cmd::CAPTURE_INFO, &[]);
    assert_eq!((after[0], after[3], after[5]), (0, info[3], 2));
}

#[test]
fn no_server_by_the_schedulers_rules_resets_the_client() {
    // ovf with weights 1/1: once each server holds two active connections, IPVS's ovf has
    // no server (active > weight everywhere). The card must refuse, not fall back to a
    // server the scheduler ruled out.
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 1);
    let ovf = Kind::ALL.iter().position(|&k| k == Kind::Ovf).unwrap() as u32;
    ok_words(&mut sp, &mut hw, cmd::POOL_SET, &[1, ovf, 0, 0, u32::MAX]);
    for cport in 41001..41005 {
        splice_l4(&mut sp, &mut hw, cport);
    }
    assert_eq!(sp.stats.setup_failed, 0);
    // The fifth: handshake, then the request (which makes the card schedule).
    let syn = seg(
        (CLIENT, 41005),
        (VIP, 80),
        100,
        0,
        tf::SYN,
        &TS_SYN,
        &[],
        CMAC,
    );
    hw.arrive(Port::Client, syn);
    sp.poll(&mut hw);
    let card_isn = hw.take_sent()[0].1.seq;
    for (flags, tsv, data) in [
        (tf::ACK, 101, &b""[..]),
        (tf::ACK | tf::PSH, 102, &b"GET / HTTP/1.1\r\n\r\n"[..]),
    ] {
        hw.arrive(
            Port::Client,
            seg(
                (CLIENT, 41005),
                (VIP, 80),
                101,
                card_isn.wrapping_add(1),
                flags,
                &ts(tsv, 0),
                data,
                CMAC,
            ),
        );
        sp.poll(&mut hw);
    }
    let sent = hw.take_sent();
    assert!(
        !sent
            .iter()
            .any(|(p, s, _)| *p == Port::Server && s.has(tf::SYN)),
        "a server connection was opened although the scheduler has no server"
    );
    assert!(sent
        .iter()
        .any(|(p, s, _)| *p == Port::Client && s.has(tf::RST)));
    assert_eq!(sp.stats.setup_failed, 1);
    assert_eq!(sp.stats.server_retries, 0);
}

/// The handshake of a connection from client port `cport` (no request yet); returns the
/// card's ISN.
fn handshake(sp: &mut Splicer, hw: &mut Fake, cport: u16, isn: u32) -> u32 {
    let card_isn = answered_syn(sp, hw, cport, isn, &TS_SYN);
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            isn.wrapping_add(1),
            card_isn.wrapping_add(1),
            tf::ACK,
            &ts(101, 0),
            &[],
            CMAC,
        ),
    );
    sp.poll(hw);
    assert!(hw.take_sent().is_empty());
    card_isn
}

fn server_syn(sent: &[(Port, TcpSeg, Vec<u8>)]) -> Option<TcpSeg> {
    sent.iter()
        .find(|(p, s, _)| *p == Port::Server && s.has(tf::SYN))
        .map(|x| x.1)
}

#[test]
fn out_of_order_segments_inline_verdict_is_not_applied_to_the_request_line() {
    // The headers arrive before the request line. Both reach the inline matcher (the flow is
    // in REQUEST when each is decided); the first inline result is the headers' (which are
    // not buffered), whether it comes before the request line is handled (`early`) or after.
    for early in [true, false] {
        let mut w = world();
        let (mut sp, mut hw) = l7_world(&mut w);
        let (cport, isn) = (40100, 9000u32);
        let card_isn = handshake(&mut sp, &mut hw, cport, isn);
        let slot = sp.pend.iter().find(|p| p.used).unwrap().slot;
        let ack = card_isn.wrapping_add(1);
        let line = b"GET /x HTTP/1.1\r\n";
        let headers = b"Host: b\r\n\r\n";
        let at = |off: usize| isn.wrapping_add(1 + off as u32);
        let client_seg = |seq: u32, tsv: u32, data: &[u8]| {
            seg(
                (CLIENT, cport),
                (VIP, 80),
                seq,
                ack,
                tf::ACK | tf::PSH,
                &ts(tsv, 0),
                data,
                CMAC,
            )
        };
        // Inline results: matched (pool 1) and incomplete; the buffer's too.
        let inline = |flags: u32| [2 | flags << 13, u32::from(slot), 1 << 16, 0];
        let buffer = |flags: u32| [2 | 1 << 8 | flags << 13, u32::from(slot), 1 << 16, 0];
        hw.arrive(Port::Client, client_seg(at(line.len()), 102, headers));
        if early {
            sp.poll(&mut hw);
            let sent = hw.take_sent();
            assert_eq!(sent.len(), 1, "early {early}");
            assert_eq!(sent[0].1.ack, at(0), "not buffered, re-acknowledged");
            hw.events.push_back(inline(1));
            sp.poll(&mut hw);
        }
        hw.arrive(Port::Client, client_seg(at(0), 103, line));
        sp.poll(&mut hw);
        if !early {
            hw.events.push_back(inline(1));
            sp.poll(&mut hw);
        }
        let sent = hw.take_sent();
        assert_eq!(
            server_syn(&sent),
            None,
            "early {early}: connected on the out-of-order segment's verdict"
        );
        assert_eq!(sent.last().unwrap().1.ack, at(line.len()));
        assert_eq!(hw.l7, vec![(line.to_vec(), slot)], "early {early}");
        // The request line's own inline result (incomplete) and the buffer's.
        hw.events.push_back(inline(2));
        hw.events.push_back(buffer(2));
        sp.poll(&mut hw);
        assert_eq!(server_syn(&hw.take_sent()), None, "early {early}");
        assert_eq!(hw.l7.len(), 1, "early {early}");
        // The client retransmits the headers: the whole head is matched from the buffer.
        hw.arrive(Port::Client, client_seg(at(line.len()), 104, headers));
        sp.poll(&mut hw);
        let head = [&line[..], &headers[..]].concat();
        assert_eq!(hw.l7.len(), 2, "early {early}");
        assert_eq!(hw.l7[1].0, head);
        assert_eq!(hw.take_sent().last().unwrap().1.ack, at(head.len()));
        hw.events.push_back(buffer(1));
        sp.poll(&mut hw);
        assert!(server_syn(&hw.take_sent()).is_some(), "early {early}");
        assert_eq!(sp.stats.setup_failed, 0);
    }
}

#[test]
fn client_reset_while_the_server_syn_is_out_resets_the_server() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 8, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 1);
    let req = b"GET / HTTP/1.1\r\n\r\n";
    let (cport, isn) = (40200, 300u32);
    let (_, card_isn) = connect(&mut sp, &mut hw, cport, isn, req);
    let syn = server_syn(&hw.take_sent()).expect("the server SYN");
    let end = isn.wrapping_add(1 + req.len() as u32);
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            end,
            card_isn.wrapping_add(1),
            tf::RST | tf::ACK,
            &[],
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1, "{sent:?}");
    let (port, rst, _) = &sent[0];
    assert_eq!(*port, Port::Server);
    assert_eq!(rst.flags, tf::RST);
    assert_eq!(rst.seq, syn.seq.wrapping_add(1), "the SYN's seq + 1");
    assert_eq!(
        (rst.src_ip, rst.src_port, rst.dst_ip, rst.dst_port),
        (syn.src_ip, syn.src_port, syn.dst_ip, syn.dst_port)
    );
    assert_eq!(sp.pending(), 0);
    assert!(hw.table.is_empty());
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(sp.stats.setup_failed, 0, "the client ended the setup");
    // The server's SYN-ACK crossed the RST: it belongs to no connection, RST (seq = its ACK).
    let server = (syn.dst_ip, syn.dst_port);
    let local = (LOCAL, syn.src_port);
    let mss = [2, 4, 0x05, 0xb4];
    let sa = seg(
        server,
        local,
        0x5555,
        syn.seq.wrapping_add(1),
        tf::SYN | tf::ACK,
        &mss,
        &[],
        CMAC,
    );
    hw.arrive(Port::Server, sa.clone());
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1, "{sent:?}");
    let (port, rst, _) = &sent[0];
    assert_eq!(*port, Port::Server);
    assert_eq!((rst.flags, rst.seq), (tf::RST, syn.seq.wrapping_add(1)));
    // The same segment while the card's address entry was being rewritten (the classifier
    // punted it as NOMATCH): it may be a spliced connection's, so it is not answered.
    hw.local_hidden = true;
    let ignored = sp.stats.ignored;
    hw.arrive(Port::Server, sa);
    sp.poll(&mut hw);
    assert!(hw.take_sent().is_empty(), "a NOMATCH punt was answered");
    assert_eq!(sp.stats.ignored, ignored + 1);
    hw.local_hidden = false;
    assert_eq!((rst.dst_ip, rst.dst_port), server);
    // A RST is never answered; nor is a segment to an address that is not the card's.
    let rst = seg(server, local, 0x5556, 0, tf::RST, &[], &[], CMAC);
    hw.arrive(Port::Server, rst);
    let other = seg(
        server,
        (LOCAL + 1, syn.src_port),
        1,
        2,
        tf::ACK,
        &[],
        &[],
        CMAC,
    );
    hw.arrive(Port::Server, other);
    sp.poll(&mut hw);
    assert!(hw.take_sent().is_empty());
}

#[test]
fn client_reset_during_setup_must_hit_the_next_sequence_number() {
    // RFC 5961 §3.2: only a RST at exactly RCV.NXT ends the setup; one elsewhere in the
    // window gets a challenge ACK, one outside the window is dropped.
    let mut w = world();
    let (mut sp, mut hw) = l7_world(&mut w);
    let (cport, isn) = (40300, 500u32);
    let part = b"GET /a HTTP/1.1\r\nHo";
    let (slot, card_isn) = connect(&mut sp, &mut hw, cport, isn, part);
    hw.take_sent();
    let nxt = isn.wrapping_add(1 + part.len() as u32);
    let rst = |seq: u32| seg((CLIENT, cport), (VIP, 80), seq, 0, tf::RST, &[], &[], CMAC);
    let window = (REQ_BUF - part.len()) as u32;
    for (seq, challenged) in [
        (nxt + 1, true),
        (nxt + window - 1, true),
        (nxt + window, false),
        (nxt - 1, false),
        (nxt.wrapping_add(0x8000_0000), false),
    ] {
        hw.arrive(Port::Client, rst(seq));
        sp.poll(&mut hw);
        let sent = hw.take_sent();
        if challenged {
            assert_eq!(sent.len(), 1, "RST at {seq}: {sent:?}");
            let (port, a, _) = &sent[0];
            assert_eq!(*port, Port::Client);
            assert_eq!(
                (a.flags, a.seq, a.ack),
                (tf::ACK, card_isn.wrapping_add(1), nxt),
                "challenge ACK"
            );
        } else {
            assert!(sent.is_empty(), "RST at {seq}: {sent:?}");
        }
        assert_eq!(sp.pending(), 1, "RST at {seq} ended the setup");
    }
    // The setup is still going on.
    assert_eq!(
        state_of(hw.entry(slot)[0]),
        u32::from(FlowState::Connecting.raw())
    );
    // The client's answer to the challenge ACK (seq = its ACK number) ends the setup.
    hw.arrive(Port::Client, rst(nxt));
    sp.poll(&mut hw);
    assert!(hw.take_sent().is_empty(), "no server SYN was out");
    assert_eq!(sp.pending(), 0);
    assert!(hw.table.is_empty());
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(sp.stats.setup_failed, 0);
}

#[test]
fn request_acks_never_advertise_a_zero_window_while_the_buffer_has_room() {
    // The client's window scale is 7 (TS_SYN): 24 bytes of room are 0.19 units. Rounded
    // down the card would advertise a zero window and the client would wait for a window
    // update that never comes (Linux clients use shift 10 with large receive buffers).
    let mut w = world();
    let (mut sp, mut hw) = l7_world(&mut w);
    let (cport, isn) = (40200, 7000u32);
    let card_isn = handshake(&mut sp, &mut hw, cport, isn);
    let head = vec![b'a'; REQ_BUF - 24];
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            isn.wrapping_add(1),
            card_isn.wrapping_add(1),
            tf::ACK | tf::PSH,
            &ts(102, 0),
            &head,
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    let ack = sent.last().expect("an ACK").1;
    assert_eq!(ack.ack, isn.wrapping_add(1 + head.len() as u32));
    assert_eq!(
        ack.window, 1,
        "24 bytes of room at shift 7: one unit, not zero"
    );
}

// ----- cycle profile (FLOW_PROFILE) -------------------------------------------------------

/// Reads the whole profile with FLOW_PROFILE: (header word, entries).
fn read_profile(sp: &mut Splicer, hw: &mut Fake) -> (u32, Vec<profile::Entry>) {
    let mut entries = Vec::new();
    let mut header = 0;
    while entries.len() < profile::ENTRIES {
        let w = ok_words(sp, hw, cmd::FLOW_PROFILE, &[entries.len() as u32]);
        header = w[0];
        assert_eq!(
            w.len(),
            1 + 3 * profile::PER_PAGE.min(profile::ENTRIES - entries.len())
        );
        for e in w[1..].chunks(3) {
            entries.push(profile::Entry {
                cycles: u64::from(e[1]) << 32 | u64::from(e[0]),
                count: e[2],
            });
        }
    }
    (header, entries)
}

/// One connection set up to the splice: SYN, retransmitted SYN, handshake ACK, request
/// ([`connect`]), the inline verdict and the server SYN, its retransmission, the server's
/// SYN-ACK. Returns the slot.
fn splice_one(sp: &mut Splicer, hw: &mut Fake) -> Slot {
    let isn = 5000;
    let req = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    // SYN, retransmitted SYN, handshake ACK, request.
    let (slot, _) = connect(sp, hw, 41000, isn, req);
    // The inline verdict: the server SYN; then its retransmission timer.
    hw.events.push_back(ev_matched(slot, 0, 1, 7, false));
    sp.poll(hw);
    hw.now += ms_to_ticks(1000, CLK) + 1;
    sp.poll(hw);
    let syn = server_syn(&hw.take_sent()).expect("server SYN retransmitted");
    hw.arrive(Port::Server, server_synack(&syn, isn));
    sp.poll(hw);
    assert_eq!(sp.stats.spliced, 1);
    slot
}

/// The server's SYN-ACK (server ISN 9; SACK-permitted, timestamps, NOPs) to the card's SYN
/// `syn` of a connection whose client ISN is `isn`.
fn server_synack(syn: &TcpSeg, isn: u32) -> Vec<u8> {
    let opts = [4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 102, 1, 1, 1, 1];
    let mut sa = seg(
        (syn.dst_ip, 8080),
        (LOCAL, syn.src_port),
        9,
        isn + 1,
        tf::SYN | tf::ACK,
        &opts,
        &[],
        CMAC,
    );
    sa[0..6].copy_from_slice(&CARD_S);
    sa
}

#[test]
fn profile_charges_every_handler_and_step_of_a_connection() {
    use profile::{Handler as H, Step as S};
    let mut w = world();
    let costs = Costs {
        punt: 70,
        flow_cmd: 1000,
        write: 3000,
        read: 500,
        inject: 200,
        l7: 40,
        tx_gen: 0,
        head_append: 0,
        head_replay: 0,
    };
    let mut hw = Fake {
        now: 1000,
        costs,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    // Step timing on (word 1), nothing read (entry ENTRIES: only the header word).
    let w0 = ok_words(
        &mut sp,
        &mut hw,
        cmd::FLOW_PROFILE,
        &[profile::ENTRIES as u32, 1],
    );
    assert_eq!(w0.len(), 1);
    assert_eq!(w0[0] & 0x1ff, profile::ENTRIES as u32 | 1 << 8);
    assert!(sp.profile.steps_timed());
    let slot = splice_one(&mut sp, &mut hw);
    // FIN, then aging with a short FIN_WAIT timeout.
    hw.forwarded(ev_fin(slot, Port::Client));
    sp.poll(&mut hw);
    ok_words(
        &mut sp,
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::FinWait as u32, 10, 1],
    );
    hw.now += 1000;
    for _ in 0..2 {
        sp.poll(&mut hw);
    }
    assert_eq!(sp.stats.aged_out, 1);

    let p = &sp.profile;
    let once = [
        H::Syn,
        H::SynRetx,
        H::HandshakeAck,
        H::RequestData,
        H::L7Inline,
        H::ServerRetx,
        H::ServerSynAck,
        H::FinRst,
        H::AgingFree,
    ];
    for i in 0..profile::HANDLERS {
        let e = p.entry(i);
        let expect = u32::from(once.iter().any(|&h| h as usize == i));
        assert_eq!(e.count, expect, "{}", profile::NAMES[i]);
        assert_eq!(e.cycles > 0, expect > 0, "{}", profile::NAMES[i]);
    }
    // Steps around one data-path operation take its cost plus the fake's one cycle per
    // counter reading, so they add up exactly.
    for (s, cost, calls) in [
        (S::PuntRead, costs.punt, hw.ops.punt),
        (S::FlowCmd, costs.flow_cmd, hw.ops.flow_cmd),
        (S::EntryWrite, costs.write, hw.ops.write),
        (S::Inject, costs.inject, hw.ops.inject),
        (S::EntryRead, costs.read, 2),
        (S::FrameBuild, 0, hw.ops.inject),
        (S::Parse, 0, hw.ops.punt),
        (S::Isn, 0, 2),
        (S::SchedPick, 0, 1),
        (S::L7Submit, costs.l7, 0),
    ] {
        let e = p.of_step(s);
        assert_eq!(u64::from(e.count), calls, "{s:?} count");
        assert_eq!(e.cycles, calls * (cost + 1), "{s:?} cycles");
    }
    // The client SYN's options, and the server SYN-ACK's (its parse and absorb_synack, one
    // timed region): one cycle each.
    let o = p.of_step(S::Options);
    assert_eq!((o.count, o.cycles), (2, 2));
    // SYN, SYN retransmission, handshake ACK, request, splice: 2 key inserts, 2 deletes;
    // 5 entry writes in setup, 1 at the FIN, 1 to free.
    assert_eq!((hw.ops.flow_cmd, hw.ops.write), (4, 7));
    assert!(
        hw.ops.read > 2,
        "the aging scan's reads are not entry reads"
    );
    // A handler's cycles include its steps: the SYN inserts a key, writes the entry and
    // injects the SYN-ACK.
    assert!(p.of_handler(H::Syn).cycles > costs.flow_cmd + costs.write + costs.inject);
    assert!(p.of_handler(H::ServerSynAck).cycles > costs.write + costs.inject);
    assert!(p.of_handler(H::AgingFree).cycles > 2 * costs.flow_cmd + costs.write);
    // The handlers of punted segments and L7 results are what the FLOW_STATS setup sum
    // counts (the timer handlers are not in it), FIN/RST and aging the teardown sum.
    let sum = |hs: &[H]| hs.iter().map(|&h| p.of_handler(h).cycles).sum::<u64>();
    assert_eq!(
        sum(&[
            H::Syn,
            H::SynRetx,
            H::HandshakeAck,
            H::RequestData,
            H::L7Inline,
            H::ServerSynAck
        ]),
        sp.stats.setup_cycles
    );
    assert_eq!(sum(&[H::FinRst, H::AgingFree]), sp.stats.teardown_cycles);

    // FLOW_PROFILE returns the same table, 5 entries per page.
    let live: Vec<_> = (0..profile::ENTRIES).map(|i| sp.profile.entry(i)).collect();
    let (header, read) = read_profile(&mut sp, &mut hw);
    assert_eq!(
        header & 0xffff,
        profile::ENTRIES as u32 | 1 << 8,
        "steps timed"
    );
    assert_eq!(
        header >> 16,
        1,
        "an empty step: the fake counter's 1 per reading"
    );
    assert_eq!(read, live);
    assert_eq!(
        sp.profile.of_step(S::Parse),
        live[profile::HANDLERS + S::Parse as usize],
        "the empty step left no trace"
    );
    // Later pages come from the snapshot the first page took.
    let punt_read = profile::HANDLERS + S::PuntRead as usize;
    let page = punt_read / profile::PER_PAGE * profile::PER_PAGE;
    hw.arrive(
        Port::Client,
        seg((CLIENT, 41001), (VIP, 80), 1, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    assert_eq!(
        sp.profile.of_step(S::PuntRead).count,
        live[punt_read].count + 1
    );
    let w = ok_words(&mut sp, &mut hw, cmd::FLOW_PROFILE, &[page as u32]);
    let k = 1 + 3 * (punt_read - page);
    assert_eq!(w[k + 2], live[punt_read].count, "snapshot");
    // Arguments.
    let n = profile::ENTRIES as u32;
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::FLOW_PROFILE, &[n]).len(), 1);
    for (req, st) in [
        (&[n + 1][..], status::BAD_ARGUMENT),
        (&[u32::MAX][..], status::BAD_ARGUMENT),
        (&[][..], status::BAD_LENGTH),
        (&[0, 2][..], status::BAD_ARGUMENT),
        (&[0, 1, 0][..], status::BAD_LENGTH),
    ] {
        assert_eq!(
            call(&mut sp, &mut hw, cmd::FLOW_PROFILE, req).0,
            st,
            "{req:?}"
        );
    }
    // ZERO clears it (step timing stays on).
    ok_words(&mut sp, &mut hw, cmd::ZERO, &[]);
    let (header, read) = read_profile(&mut sp, &mut hw);
    assert!(read.iter().all(|e| *e == profile::Entry::default()));
    assert_eq!(header >> 8 & 1, 1);
    // Step timing off: handlers are still counted, steps not.
    ok_words(&mut sp, &mut hw, cmd::FLOW_PROFILE, &[0, 0]);
    let reads = hw.cycle_reads;
    hw.arrive(
        Port::Client,
        seg((CLIENT, 41002), (VIP, 80), 1, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    assert_eq!(sp.profile.of_handler(H::Syn).count, 1);
    assert_eq!(
        hw.cycle_reads - reads,
        3,
        "the SYN handler's two readings and the aging step's one, as without the profile"
    );
    let (header, read) = read_profile(&mut sp, &mut hw);
    assert_eq!(header >> 8 & 1, 0);
    assert!(read[profile::HANDLERS..]
        .iter()
        .all(|e| *e == profile::Entry::default()));
}

// ---- Flagged request heads: canonicalised, matched again, refused or not HTTP ----

/// REQUEST_MATCHED event words: inline (`buffer` false) or buffer verdict with L7 `flags`
/// for `slot`, naming `pool`.
fn verdict(slot: Slot, buffer: bool, flags: u32, pool: u32) -> [u32; 4] {
    [
        2 | u32::from(buffer) << 8 | flags << 13,
        u32::from(slot),
        pool << 16,
        0,
    ]
}

/// HEAD_STATS, every page: (flagged, canonical, not HTTP, cycles, refusals per reason).
fn head_stats(sp: &mut Splicer, hw: &mut Fake) -> (u32, u32, u32, u64, Vec<u32>) {
    let mut refused = Vec::new();
    let mut first = [0u32; 5];
    while refused.len() < canon::REASONS {
        let w = ok_words(sp, hw, cmd::HEAD_STATS, &[refused.len() as u32 + 1]);
        first.copy_from_slice(&w[..5]);
        assert!(w.len() > 5);
        refused.extend_from_slice(&w[5..]);
    }
    let cycles = u64::from(first[3]) | u64::from(first[4]) << 32;
    (first[0], first[1], first[2], cycles, refused)
}

const MATCHED: u32 = 1;
const NEEDS_NORM: u32 = 1 << 2;
const NOT_HTTP: u32 = 1 << 3;
const ABSFORM: u32 = 1 << 4;

#[test]
fn a_flagged_head_is_matched_again_in_its_canonical_form() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    let head =
        b"GET http://WWW.Example.COM.:80/a/./b//c%41?x=1 HTTP/1.1\r\nHost: other.example\r\n\r\n";
    let (slot, _) = connect(&mut sp, &mut hw, 40101, 7000, head);
    hw.take_sent();
    hw.events
        .push_back(verdict(slot, false, MATCHED | NEEDS_NORM | ABSFORM, 1));
    sp.poll(&mut hw);
    // The absolute form's authority wins over Host; the path is decoded, its dot segment
    // removed and its slashes merged; the query is not part of it.
    assert_eq!(hw.l7.len(), 1);
    assert_eq!(
        hw.l7[0].0,
        b"GET /a/b/cA HTTP/1.1\r\nHost: www.example.com\r\n\r\n".to_vec()
    );
    assert!(
        hw.take_sent().is_empty(),
        "no server before the second verdict"
    );
    // The canonical form's verdict routes the connection, even if it carries flags.
    hw.events
        .push_back(verdict(slot, true, MATCHED | NEEDS_NORM, 1));
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].1.has(tf::SYN), "{:?}", sent[0].1);
    let (flagged, canonical, not_http, cycles, refused) = head_stats(&mut sp, &mut hw);
    assert_eq!((flagged, canonical, not_http), (1, 1, 0));
    assert!(cycles > 0);
    assert!(refused.iter().all(|&c| c == 0), "{refused:?}");
}

#[test]
fn an_ambiguous_head_is_refused_and_counted_by_reason() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    let cases: [(&[u8], u32, Reason); 4] = [
        (
            b"GET /a%2Fb HTTP/1.1\r\nHost: x\r\n\r\n",
            NEEDS_NORM,
            Reason::EncodedSlash,
        ),
        (
            b"GET /a/../../b HTTP/1.1\r\nHost: x\r\n\r\n",
            NEEDS_NORM,
            Reason::AboveRoot,
        ),
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            NOT_HTTP,
            Reason::DuplicateHost,
        ),
        (
            b"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
            NEEDS_NORM,
            Reason::BadPercent,
        ),
    ];
    for (k, (head, flags, _)) in cases.iter().enumerate() {
        let (slot, _) = connect(&mut sp, &mut hw, 40201 + k as u16, 8000, head);
        hw.take_sent();
        hw.events
            .push_back(verdict(slot, false, MATCHED | flags, 1));
        sp.poll(&mut hw);
        let sent = hw.take_sent();
        assert_eq!(sent.len(), 1, "case {k}");
        assert!(sent[0].1.has(tf::RST), "case {k}: the client is reset");
        assert_eq!(sent[0].0, Port::Client);
    }
    assert!(hw.l7.is_empty(), "nothing refused is matched again");
    let (flagged, canonical, _, _, refused) = head_stats(&mut sp, &mut hw);
    assert_eq!((flagged, canonical), (4, 0));
    for (_, _, r) in &cases {
        assert_eq!(refused[r.index()], 1, "{}", r.name());
    }
    assert_eq!(refused.iter().sum::<u32>(), 4);
    // ZERO clears the head counters; a bad reason code is refused.
    ok_words(&mut sp, &mut hw, cmd::ZERO, &[]);
    assert_eq!(head_stats(&mut sp, &mut hw).0, 0);
    for bad in [0, canon::REASONS as u32 + 1] {
        assert_eq!(
            call(&mut sp, &mut hw, cmd::HEAD_STATS, &[bad]).0,
            status::BAD_ARGUMENT
        );
    }
}

#[test]
fn a_head_that_is_not_http_goes_to_the_default_pool_and_bare_lf_is_http() {
    let mut w = world();
    let mut hw = Fake::default();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    // TLS ClientHello bytes: not HTTP, the service's default pool as before.
    let (slot, _) = connect(
        &mut sp,
        &mut hw,
        40301,
        9000,
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
    );
    hw.take_sent();
    hw.events.push_back(verdict(slot, false, NOT_HTTP, 0));
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].1.has(tf::SYN) && sent[0].0 == Port::Server);
    // Bare LF line endings and an empty line first (the data path says not HTTP): the
    // firmware reads it as nginx does and matches its canonical form.
    let (slot, _) = connect(
        &mut sp,
        &mut hw,
        40302,
        9100,
        b"\nGET  /x HTTP/1.1\nHost: y\n\n",
    );
    hw.take_sent();
    hw.events.push_back(verdict(slot, false, NOT_HTTP, 0));
    sp.poll(&mut hw);
    assert_eq!(hw.l7.len(), 1);
    assert_eq!(hw.l7[0].0, b"GET /x HTTP/1.1\r\nHost: y\r\n\r\n".to_vec());
    // The HTTP/2 preface (an asterisk-form target with version 2.0): not HTTP/1.x either.
    let (slot, _) = connect(
        &mut sp,
        &mut hw,
        40303,
        9200,
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    );
    hw.take_sent();
    hw.events.push_back(verdict(slot, false, NOT_HTTP, 0));
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].1.has(tf::SYN) && sent[0].0 == Port::Server);
    // HTTP/0.9 (no version): nginx would serve the path, so it is refused, not sent to the
    // default pool.
    let (slot, _) = connect(&mut sp, &mut hw, 40304, 9300, b"GET /static/blob\r\n");
    hw.take_sent();
    hw.events.push_back(verdict(slot, false, NOT_HTTP, 0));
    sp.poll(&mut hw);
    let sent = hw.take_sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].1.has(tf::RST) && sent[0].0 == Port::Client);
    let (flagged, canonical, not_http, _, refused) = head_stats(&mut sp, &mut hw);
    assert_eq!((flagged, canonical, not_http), (4, 1, 2));
    assert_eq!(refused[Reason::Version.index()], 1);
}

#[test]
fn canonical_heads_encode_what_a_target_cannot_carry_and_respect_the_window() {
    let mut out = [0u8; MAX_FRAME];
    let n = canonical_head(&mut out, b"/a b%?#\x7f\xc3", b"h").unwrap();
    assert_eq!(
        &out[..n],
        b"GET /a%20b%25%3F%23%7F%C3 HTTP/1.1\r\nHost: h\r\n\r\n"
    );
    let long = [b'a'; REQ_BUF];
    assert_eq!(canonical_head(&mut out, &long, b"h"), None);
}

/// An ARP request from `mac`/`ip` asking for `target` (broadcast, padded to 60 bytes).
fn arp_request(mac: [u8; 6], ip: u32, target: u32) -> Vec<u8> {
    let mut f = vec![0u8; 60];
    f[0..6].fill(0xff);
    f[6..12].copy_from_slice(&mac);
    f[12..14].copy_from_slice(&frame::ETHERTYPE_ARP.to_be_bytes());
    f[14..22].copy_from_slice(&[0, 1, 0x08, 0x00, 6, 4, 0, 1]);
    f[22..28].copy_from_slice(&mac);
    f[28..32].copy_from_slice(&ip.to_be_bytes());
    f[38..42].copy_from_slice(&target.to_be_bytes());
    f
}

/// Inserts an 802.1Q tag (VLAN 5) behind the MAC addresses.
fn vlan_tag(f: &mut Vec<u8>) {
    let tail = f.split_off(12);
    f.extend_from_slice(&[0x81, 0x00, 0x00, 0x05]);
    f.extend_from_slice(&tail);
}

/// A segment from the card to the client `cport` with every field zero or empty.
fn card_to_client(cport: u16) -> WireTcp {
    WireTcp {
        dst_mac: CMAC,
        src_mac: CARD_C,
        src_ip: VIP,
        dst_ip: CLIENT,
        ttl: 64,
        dont_fragment: true,
        src_port: 80,
        dst_port: cport,
        seq: 0,
        ack: 0,
        flags: 0,
        window: 0,
        mss: None,
        wscale: None,
        sack_permitted: false,
        timestamps: None,
        options_len: 0,
        payload: Vec::new(),
    }
}

/// The request ACK's window for `buffered` bytes at the client's shift of 7.
fn request_window(buffered: usize) -> u16 {
    (REQ_BUF - buffered).div_ceil(1 << 7).min(0xffff) as u16
}

/// The rest of a connection after the card's SYN-ACK (the firmware's or the SYN responder's,
/// ISN `card_isn`, TSval `card_ts`) to a client's SYN with MSS 1460, SACK-permitted,
/// timestamps (TSval 100) and shift 7 on service 0 (L7): the handshake ACK, the request and
/// its ACK, the server SYN, the server's SYN-ACK and the replayed request, each as
/// etherparse reads it; the flow ends up spliced with the card's timestamps translated.
fn request_to_splice_reads_back_with_etherparse(
    sp: &mut Splicer,
    hw: &mut Fake,
    cport: u16,
    isn: u32,
    card_isn: u32,
    card_ts: u32,
) {
    let smac = |rs: usize| [2, 0, 0, 0, 0, 0x10 + rs as u8];
    let to_client = card_to_client(cport);
    let t0 = hw.now;
    // The handshake ACK, then the request: acknowledged with the card's timestamps.
    let req = b"GET /x HTTP/1.1\r\nHost: a.example\r\n\r\n";
    for (flags, ts_val, payload) in [(tf::ACK, 101, &[][..]), (tf::ACK | tf::PSH, 102, &req[..])] {
        hw.now += 1;
        hw.arrive(
            Port::Client,
            seg(
                (CLIENT, cport),
                (VIP, 80),
                isn.wrapping_add(1),
                card_isn.wrapping_add(1),
                flags,
                &ts(ts_val, card_ts),
                payload,
                CMAC,
            ),
        );
        sp.poll(hw);
    }
    let (port, ack) = hw.one_tcp();
    assert_eq!(port, Port::Client);
    assert_eq!(
        ack,
        WireTcp {
            seq: card_isn.wrapping_add(1),
            ack: isn.wrapping_add(1 + req.len() as u32),
            flags: tf::ACK,
            window: request_window(req.len()),
            timestamps: Some((t0 + 2, 102)),
            options_len: 12,
            ..to_client.clone()
        }
    );
    // The verdict: the SYN to the real server, with the client's latest TSval.
    let slot = hw.table[&FourTuple {
        src_ip: CLIENT,
        dst_ip: VIP,
        src_port: cport,
        dst_port: 80,
    }]
        .0;
    hw.events.push_back(ev_matched(slot, 0, 1, 7, false));
    sp.poll(hw);
    let (port, ssyn) = hw.one_tcp();
    assert_eq!(port, Port::Server);
    let rs = SRV.iter().position(|&ip| ip == ssyn.dst_ip).unwrap();
    let to_server = WireTcp {
        dst_mac: smac(rs),
        src_mac: CARD_S,
        src_ip: LOCAL,
        dst_ip: SRV[rs],
        src_port: ssyn.src_port,
        dst_port: 8080,
        ..card_to_client(0)
    };
    assert_eq!(
        ssyn,
        WireTcp {
            seq: isn,
            flags: tf::SYN,
            window: 0xffff,
            mss: Some(1460),
            wscale: Some(7),
            sack_permitted: true,
            timestamps: Some((102, 0)),
            options_len: 20,
            ..to_server.clone()
        }
    );
    // The server's SYN-ACK: the handshake ACK carries the request (one segment, PSH).
    let s_isn = 0x8000_0000_u32;
    let mut sa_opts = [0u8; 20];
    sa_opts[..4].copy_from_slice(&[2, 4, 0x05, 0xb4]);
    sa_opts[4..6].copy_from_slice(&[4, 2]);
    sa_opts[6..16].copy_from_slice(&[8, 10, 0, 0, 0x20, 0, 0, 0, 0, 102]);
    sa_opts[16..20].copy_from_slice(&[1, 3, 3, 7]);
    let mut sa = seg(
        (SRV[rs], 8080),
        (LOCAL, ssyn.src_port),
        s_isn,
        isn.wrapping_add(1),
        tf::SYN | tf::ACK,
        &sa_opts,
        &[],
        smac(rs),
    );
    sa[0..6].copy_from_slice(&CARD_S);
    hw.arrive(Port::Server, sa);
    sp.poll(hw);
    let (port, data) = hw.one_tcp();
    assert_eq!(port, Port::Server);
    assert_eq!(
        data,
        WireTcp {
            seq: isn.wrapping_add(1),
            ack: s_isn.wrapping_add(1),
            flags: tf::ACK | tf::PSH,
            window: 502,
            timestamps: Some((102, 0x2000)),
            options_len: 12,
            payload: req.to_vec(),
            ..to_server
        }
    );
    let e = hw.entry(slot);
    assert_eq!(state_of(e[0]), FlowState::Spliced.raw().into());
    assert_eq!(
        field(&e, FlowStatic::TS_OFFSET),
        (t0 + 2).wrapping_sub(0x2000),
        "server TSvals reach the client continuing the card's last TSval"
    );
}

#[test]
fn every_frame_of_a_connection_reads_back_with_etherparse() {
    // ARP replies, the SYN-ACK, the request ACK, the server SYN, the handshake ACK with the
    // replayed request: etherparse's view of each equals what the card means to send.
    let mut w = world();
    let mut hw = Fake {
        now: 1000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    let smac = |rs: usize| [2, 0, 0, 0, 0, 0x10 + rs as u8];
    hw.arrive_raw(Port::Client, arp_request(CMAC, CLIENT, VIP));
    sp.poll(&mut hw);
    hw.arrive_raw(Port::Server, arp_request(smac(1), SRV[1], LOCAL));
    sp.poll(&mut hw);
    assert_eq!(
        hw.take_wire(),
        vec![
            (
                Port::Client,
                Wire::Arp(WireArp {
                    dst_mac: CMAC,
                    src_mac: CARD_C,
                    op: 2,
                    sender_mac: CARD_C,
                    sender_ip: VIP,
                    target_mac: CMAC,
                    target_ip: CLIENT,
                })
            ),
            (
                Port::Server,
                Wire::Arp(WireArp {
                    dst_mac: smac(1),
                    src_mac: CARD_S,
                    op: 2,
                    sender_mac: CARD_S,
                    sender_ip: LOCAL,
                    target_mac: smac(1),
                    target_ip: SRV[1],
                })
            ),
        ]
    );
    // SYN with MSS 1460, SACK-permitted, timestamps (TSval 100), shift 7.
    let (cport, isn) = (41000, 0xffff_ff00_u32);
    let syn = seg(
        (CLIENT, cport),
        (VIP, 80),
        isn,
        0,
        tf::SYN,
        &TS_SYN,
        &[],
        CMAC,
    );
    hw.arrive(Port::Client, syn);
    sp.poll(&mut hw);
    let (port, synack) = hw.one_tcp();
    let card_isn = synack.seq;
    let to_client = card_to_client(cport);
    assert_eq!(port, Port::Client);
    assert_eq!(
        synack,
        WireTcp {
            seq: card_isn,
            ack: isn.wrapping_add(1),
            flags: tf::SYN | tf::ACK,
            window: REQ_BUF as u16,
            mss: Some(1460),
            wscale: Some(7),
            sack_permitted: true,
            timestamps: Some((1000, 100)),
            options_len: 20,
            ..to_client.clone()
        }
    );
    request_to_splice_reads_back_with_etherparse(&mut sp, &mut hw, cport, isn, card_isn, 1000);
    assert_eq!(sp.stats.spliced, 1);
}

#[test]
fn resets_challenge_acks_cookies_and_tagged_syns_read_back_with_etherparse() {
    let mut w = world();
    let mut hw = Fake {
        now: 5000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 256, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    let to_client = card_to_client(42000);
    // A stray ACK to the service: RST, seq = its ACK number, no ACK (RFC 9293 3.10.7.1).
    // (A stray one with data gets it after EARLY_HOLD_MS: it may be a client's first data
    // overtaking its handshake ACK; data_overtaking_its_handshake_ack_is_not_reset_and_a_stray_one_is_after_a_hold.)
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 42000),
            (VIP, 80),
            5,
            0x1234,
            tf::ACK,
            &[],
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(
        hw.one_tcp(),
        (
            Port::Client,
            WireTcp {
                seq: 0x1234,
                flags: tf::RST,
                ..to_client.clone()
            }
        )
    );
    // A SYN to a port with no service: RST|ACK acknowledging the SYN.
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 42000),
            (VIP, 81),
            77,
            0,
            tf::SYN,
            &TS_SYN,
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(
        hw.one_tcp(),
        (
            Port::Client,
            WireTcp {
                src_port: 81,
                ack: 78,
                flags: tf::RST | tf::ACK,
                ..to_client.clone()
            }
        )
    );
    // An in-window RST during setup: a challenge ACK (RFC 5961 3.2).
    let (cport, isn) = (42001, 9000u32);
    let part = b"GET /a HTTP/1.1\r\nHo";
    let (_, card_isn) = connect(&mut sp, &mut hw, cport, isn, part);
    hw.take_wire();
    let nxt = isn.wrapping_add(1 + part.len() as u32);
    hw.now += 3;
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            nxt + 5,
            0,
            tf::RST,
            &[],
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(
        hw.one_tcp(),
        (
            Port::Client,
            WireTcp {
                seq: card_isn.wrapping_add(1),
                ack: nxt,
                flags: tf::ACK,
                window: request_window(part.len()),
                timestamps: Some((5003, 102)),
                options_len: 12,
                ..card_to_client(cport)
            }
        )
    );
    // A second connection with a whole request: the verdict puts the server SYN out, the
    // client's exact RST then resets the server (seq = the SYN's + 1, no ACK).
    let (cport, isn) = (42004, 0xffff_fffe_u32);
    let req = b"GET /b HTTP/1.1\r\nHost: b\r\n\r\n";
    let (slot, card_isn) = connect(&mut sp, &mut hw, cport, isn, req);
    hw.events.push_back(ev_matched(slot, 0, 1, 7, false));
    sp.poll(&mut hw);
    let ssyn = hw
        .take_wire()
        .into_iter()
        .map(|(p, f)| (p, f.tcp()))
        .find(|(p, s)| *p == Port::Server && s.flags == tf::SYN)
        .expect("the server SYN")
        .1;
    let end = isn.wrapping_add(1 + req.len() as u32);
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, cport),
            (VIP, 80),
            end,
            card_isn.wrapping_add(1),
            tf::RST | tf::ACK,
            &[],
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(
        hw.one_tcp(),
        (
            Port::Server,
            WireTcp {
                seq: isn.wrapping_add(1),
                flags: tf::RST,
                window: 0,
                mss: None,
                wscale: None,
                sack_permitted: false,
                timestamps: None,
                options_len: 0,
                ..ssyn
            }
        )
    );
    assert_eq!(sp.pending(), 1, "the first connection is still in setup");
    // A SYN behind an 802.1Q tag: the SYN-ACK goes out untagged (the card sends untagged
    // frames; the checker refuses any tag).
    let mut tagged = seg(
        (CLIENT, 42002),
        (VIP, 80),
        1,
        0,
        tf::SYN,
        &[2, 4, 0x05, 0x78],
        &[],
        CMAC,
    );
    vlan_tag(&mut tagged);
    hw.arrive(Port::Client, tagged);
    sp.poll(&mut hw);
    let (port, synack) = hw.one_tcp();
    assert_eq!(port, Port::Client);
    assert_eq!(
        synack,
        WireTcp {
            seq: synack.seq,
            ack: 2,
            flags: tf::SYN | tf::ACK,
            window: REQ_BUF as u16,
            mss: Some(1460),
            options_len: 4,
            ..card_to_client(42002)
        }
    );
    // Every setup entry busy: the SYN-ACK is a cookie offering only the MSS.
    flood_setup_entries(&mut sp, &mut hw);
    assert_eq!(sp.pending(), PENDING);
    hw.take_wire();
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 42003),
            (VIP, 80),
            0xffff_ffff,
            0,
            tf::SYN,
            &TS_SYN,
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    let (port, cookie) = hw.one_tcp();
    assert_eq!(port, Port::Client);
    assert_eq!(sp.stats.cookie_syn_acks, 1);
    assert_eq!(
        cookie,
        WireTcp {
            seq: cookie.seq,
            ack: 0,
            flags: tf::SYN | tf::ACK,
            window: REQ_BUF as u16,
            mss: Some(1460),
            options_len: 4,
            ..card_to_client(42003)
        }
    );
}

#[test]
fn the_independent_check_refuses_broken_frames() {
    // The checker itself: a good segment passes; each defect is caught (header edits with
    // both checksums filled in again, so only the defect is wrong).
    let good = seg(
        (CLIENT, 1),
        (VIP, 80),
        1,
        2,
        tf::ACK,
        &ts(1, 2),
        b"data",
        CMAC,
    );
    wirecheck::check(&good);
    let mss_on_ack = seg(
        (CLIENT, 1),
        (VIP, 80),
        1,
        2,
        tf::ACK,
        &[2, 4, 0x05, 0xb4],
        &[],
        CMAC,
    );
    let refuse = |what: &str, f: &[u8]| {
        let r = std::panic::catch_unwind(|| wirecheck::check(f));
        assert!(r.is_err(), "{what}: a broken frame passed");
    };
    refuse("MSS on an ACK", &mss_on_ack);
    type Edit = fn(&mut Vec<u8>);
    let broken: [(&str, Edit, bool); 11] = [
        ("IP checksum", |f| f[24] ^= 1, false),
        ("TCP checksum", |f| f[50] ^= 1, false),
        ("payload", |f| *f.last_mut().unwrap() ^= 1, false),
        ("total length", |f| f.push(0), false),
        ("EtherType", |f| f[13] = 0xdd, false),
        ("VLAN tag", vlan_tag, false),
        ("IHL", |f| f[14] = 0x46, true),
        ("TTL", |f| f[22] = 0, true),
        ("data offset", |f| f[46] = 0xf0, true),
        ("option length", |f| f[57] = 9, true),
        ("URG", |f| f[47] |= 0x20, true),
    ];
    for (what, edit, refill) in broken {
        let mut f = good.clone();
        edit(&mut f);
        if refill {
            let total = u16::from_be_bytes([f[16], f[17]]);
            let off = Offload {
                ip_off: 14,
                l4_off: 34,
                l4_end: 14 + total,
            };
            fill_checksums(&mut f, &off);
        }
        refuse(what, &f);
    }
}

// ----- the hardware SYN responder ----------------------------------------------------------

/// SYN_CTRL after bring-up with the default options policy: everything offered, epoch 0,
/// no previous epoch, VIP_MASK as given.
fn ctrl_at_start(vip_mask: u8) -> SynCtrl {
    SynCtrl {
        vip_mask,
        offer_wscale: true,
        offer_sack: true,
        offer_ts: true,
        cur_epoch: 0,
        prev_valid: false,
    }
}

/// DP.NOW ticks of one key rotation period.
fn rotate_ticks() -> u32 {
    ms_to_ticks(ROTATE_MS, CLK)
}

/// The client tuple of port `cport` to service 0 as the cookie hashes it.
fn cookie_tuple(cport: u16) -> cookie::CookieTuple {
    cookie::CookieTuple {
        client_ip: CLIENT,
        vip: VIP,
        client_port: cport,
        vip_port: 80,
    }
}

/// The card's cookie SYN-ACK to a SYN (ISN `isn`, MSS `mss`) from `cport`, by the model
/// (docs/cookie.md) under the keys and the epoch the firmware wrote to the card: the cookie
/// ISN and, for a SYN with timestamps (`opts`: its window scale and SACK-permitted), the
/// card's TSval at `hw.now` carrying them.
fn card_cookie(
    hw: &Fake,
    cport: u16,
    isn: u32,
    mss: u16,
    opts: Option<cookie::TsOptions>,
) -> (u32, u32) {
    let keys = hw.syn_keys();
    let cur = keys.current;
    let c = cookie::cookie_make_class(
        keys.slots[usize::from(cur)],
        cur,
        &cookie_tuple(cport),
        isn,
        cookie::mss_class(mss),
    );
    (c, opts.map_or(0, |o| cookie::ts_encode(hw.now, o)))
}

/// The client's ACK of a cookie SYN-ACK (ISN `cookie`), with `opts` and `payload`.
fn cookie_ack(cport: u16, isn: u32, cookie: u32, opts: &[u8], payload: &[u8]) -> Vec<u8> {
    let flags = if payload.is_empty() {
        tf::ACK
    } else {
        tf::ACK | tf::PSH
    };
    seg(
        (CLIENT, cport),
        (VIP, 80),
        isn.wrapping_add(1),
        cookie.wrapping_add(1),
        flags,
        opts,
        payload,
        CMAC,
    )
}

/// A card with the SYN responder (4 cookie units) at tick `now`.
fn responder_card(now: u32) -> Fake {
    Fake {
        now,
        syn_units: 4,
        ..Fake::default()
    }
}

/// The one connection in setup.
fn only_pending(sp: &Splicer) -> Pending {
    let used: Vec<_> = sp.pend.iter().filter(|p| p.used).copied().collect();
    assert_eq!(used.len(), 1, "connections in setup");
    used[0]
}

/// The SYN with MSS 1460, SACK-permitted, timestamps and shift 7 that `TS_SYN` is.
const TS_SYN_OPTS: cookie::TsOptions = cookie::TsOptions {
    wscale: Some(7),
    sack_ok: true,
};

#[test]
fn syn_responder_bring_up_writes_both_keys_the_control_and_the_mss() {
    let mut w = world();
    let mut hw = responder_card(1000);
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    assert_eq!(sp.syn_start(&mut hw), 4);
    let writes = hw.syn_writes.clone();
    let [SynWrite::Ctrl(c), SynWrite::Key(0, k0), SynWrite::Key(1, k1), SynWrite::Mss(mss)] =
        writes[..]
    else {
        panic!("bring-up writes {writes:?}");
    };
    // SYN_CTRL first (no service answered while the keys change), epoch 0, no previous
    // epoch, every option the policy has offered; the policy's MSS.
    assert_eq!(c, ctrl_at_start(0));
    assert_eq!(mss, OptionsPolicy::DEFAULT.mss);
    // Two different random keys; the firmware keeps exactly what it wrote.
    assert_ne!(k0, k1);
    assert_ne!(k0, [0, 0]);
    assert_eq!(
        sp.syn.keys,
        cookie::CookieKeys {
            slots: [k0, k1],
            current: 0,
            previous_valid: false,
        }
    );
    assert_eq!(sp.syn.keys, hw.syn_keys());
    // Another secret (another card, another boot), other keys.
    let mut w2 = world();
    let mut hw2 = responder_card(1000);
    let mut sp2 = Splicer::new(CLK, 64, w2.tables(), 3, 4);
    sp2.syn_start(&mut hw2);
    let k2 = hw2.syn_keys().slots;
    assert!(k2[0] != k0 && k2[0] != k1 && k2[1] != k0 && k2[1] != k1);
    // Nothing else is written until a service is set or the keys rotate.
    hw.now += rotate_ticks() - 1;
    sp.poll(&mut hw);
    assert_eq!(hw.syn_writes.len(), 4);
}

#[test]
fn a_card_without_the_responder_answers_no_syn_in_hardware() {
    // SYN_PARAMS reads 0 (no cookie units, or an older bitstream: an unknown DP offset
    // reads 0): configured, but no service enabled, no rotation, no cookie of these keys
    // accepted.
    let mut w = world();
    let mut hw = Fake {
        now: 1000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    assert_eq!(sp.syn_start(&mut hw), 0);
    configure(&mut sp, &mut hw, 2);
    assert_eq!(hw.syn_ctrl(), ctrl_at_start(0));
    assert_eq!(hw.syn_writes.len(), 4, "bring-up only");
    hw.now += 3 * rotate_ticks();
    sp.poll(&mut hw);
    assert_eq!(hw.syn_writes.len(), 4, "no rotation");
    let (ck, tsval) = card_cookie(&hw, 41000, 77, 1460, Some(TS_SYN_OPTS));
    hw.arrive(
        Port::Client,
        cookie_ack(41000, 77, ck, &ts(101, tsval), &[]),
    );
    sp.poll(&mut hw);
    let (port, rst) = hw.one_tcp();
    assert_eq!(port, Port::Client);
    assert_eq!((rst.flags, rst.seq), (tf::RST, ck.wrapping_add(1)));
    assert_eq!(sp.pending(), 0);
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 0);
}

#[test]
fn vip_mask_follows_the_services_and_keeps_the_rest_of_syn_ctrl() {
    let mut w = world();
    let mut hw = responder_card(1000);
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 2);
    assert_eq!(hw.syn_ctrl(), ctrl_at_start(0b1));
    let mut rsp = [0u32; MAX_WORDS];
    let mut svc = |sp: &mut Splicer, hw: &mut Fake, req: &[u32]| {
        sp.command(hw, cmd::SVC_SET, req, &mut rsp).unwrap().status
    };
    assert_eq!(svc(&mut sp, &mut hw, &[3, VIP, 443, 1, 1]), status::OK);
    assert_eq!(hw.vips[3], (VIP, 443, true));
    assert_eq!(hw.syn_ctrl(), ctrl_at_start(0b1001));
    // Set again as it is, or refused: SYN_CTRL is not written.
    let n = hw.syn_writes.len();
    assert_eq!(svc(&mut sp, &mut hw, &[3, VIP, 443, 1, 1]), status::OK);
    assert_eq!(
        svc(&mut sp, &mut hw, &[5, VIP, 443, 1, 1]),
        status::BAD_ARGUMENT,
        "the address and port of service 3"
    );
    assert_eq!(hw.syn_writes.len(), n);
    // A rotation keeps the mask; a service change keeps the epoch.
    hw.now += rotate_ticks();
    sp.poll(&mut hw);
    let rotated = SynCtrl {
        cur_epoch: 1,
        prev_valid: true,
        ..ctrl_at_start(0b1001)
    };
    assert_eq!(hw.syn_ctrl(), rotated);
    assert_eq!(
        svc(&mut sp, &mut hw, &[0, 0, 0, service_mode::DELETE, 0]),
        status::OK
    );
    assert_eq!(hw.vips[0], (0, 0, false));
    assert_eq!(
        hw.syn_ctrl(),
        SynCtrl {
            vip_mask: 0b1000,
            ..rotated
        }
    );
    assert_eq!(
        svc(&mut sp, &mut hw, &[3, 0, 0, service_mode::DELETE, 0]),
        status::OK
    );
    assert_eq!(
        hw.syn_ctrl(),
        SynCtrl {
            vip_mask: 0,
            ..rotated
        }
    );
    // The firmware's copy is what the card holds.
    assert_eq!(sp.syn.ctrl, hw.syn_ctrl());
    assert_eq!(sp.syn.keys, hw.syn_keys());
}

#[test]
fn an_ack_of_the_cards_cookie_synack_connects_and_splices() {
    // The etherparse flow of `every_frame_of_a_connection_reads_back_with_etherparse`, with
    // the SYN answered by the card: the firmware sees the handshake ACK first.
    let mut w = world();
    let mut hw = responder_card(5000);
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 2);
    hw.take_wire();
    let (cport, isn) = (41000, 0xffff_ff00_u32);
    let (ck, tsval) = card_cookie(&hw, cport, isn, 1460, Some(TS_SYN_OPTS));
    assert_eq!(
        cookie::ts_decode(tsval),
        TS_SYN_OPTS,
        "the TSval carries the options"
    );
    assert!(tsval <= hw.now);
    request_to_splice_reads_back_with_etherparse(&mut sp, &mut hw, cport, isn, ck, tsval);
    assert_eq!(sp.stats.spliced, 1);
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 1);
    assert_eq!((sp.stats.syn_acks, sp.stats.cookie_syn_acks), (0, 0));
    assert_eq!(sp.profile.of_handler(Handler::CookieAck).count, 1);
}

#[test]
fn the_cookie_acks_handshake_is_the_one_the_clients_syn_would_have_given() {
    let mut w = world();
    let mut hw = responder_card(5000);
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 2);
    let policy = OptionsPolicy::DEFAULT;
    // (client SYN options, MSS, the ACK's TSval or none, the handshake expected)
    struct Case {
        syn: &'static [u8],
        mss: u16,
        ts: Option<cookie::TsOptions>,
        hs: Handshake,
    }
    let cases = [
        // Everything: MSS 1460, SACK, timestamps, shift 7 (TS_SYN).
        Case {
            syn: &TS_SYN,
            mss: 1460,
            ts: Some(TS_SYN_OPTS),
            hs: Handshake {
                client_mss: 1460,
                mss_to_client: 1460,
                mss_to_server: 1460,
                client_wscale: Some(7),
                server_wscale: Some(7),
                sack: true,
                timestamps: true,
            },
        },
        // MSS 1400 (class 1300), timestamps, shift 14 and SACK.
        Case {
            syn: &[
                2, 4, 0x05, 0x78, 4, 2, 8, 10, 0, 0, 0, 100, 0, 0, 0, 0, 1, 3, 3, 14,
            ],
            mss: 1400,
            ts: Some(cookie::TsOptions {
                wscale: Some(14),
                sack_ok: true,
            }),
            hs: Handshake {
                client_mss: 1300,
                mss_to_client: 1460,
                mss_to_server: 1300,
                client_wscale: Some(14),
                server_wscale: Some(7),
                sack: true,
                timestamps: true,
            },
        },
        // Timestamps alone, MSS 1200 (class 536): no window scaling, no SACK.
        Case {
            syn: &[2, 4, 0x04, 0xb0, 1, 1, 8, 10, 0, 0, 0, 100, 0, 0, 0, 0],
            mss: 1200,
            ts: Some(cookie::TsOptions {
                wscale: None,
                sack_ok: false,
            }),
            hs: Handshake {
                client_mss: 536,
                mss_to_client: 1460,
                mss_to_server: 536,
                client_wscale: None,
                server_wscale: None,
                sack: false,
                timestamps: true,
            },
        },
        // No timestamps: the card offered the MSS only, whatever else the SYN had.
        Case {
            syn: &[2, 4, 0x05, 0xb4, 1, 1, 4, 2, 1, 3, 3, 7],
            mss: 1460,
            ts: None,
            hs: Handshake {
                client_mss: 1460,
                mss_to_client: 1460,
                mss_to_server: 1460,
                client_wscale: None,
                server_wscale: None,
                sack: false,
                timestamps: false,
            },
        },
    ];
    for (n, c) in cases.iter().enumerate() {
        let cport = 42000 + n as u16;
        let isn = 0x0123_4567_u32.wrapping_mul(n as u32 + 1);
        let (ck, tsval) = card_cookie(&hw, cport, isn, c.mss, c.ts);
        // The firmware's own negotiation of that SYN, had it seen it, with the MSS its
        // class stands for.
        let syn = parse_syn_options(c.syn).unwrap();
        let class_mss = SynOptions {
            mss: Some(c.hs.client_mss),
            ..syn
        };
        let mut want = Handshake::from_client_syn(&policy, &class_mss).unwrap();
        if c.ts.is_none() {
            want = Handshake::from_client_syn(
                &policy,
                &SynOptions {
                    mss: class_mss.mss,
                    ..SynOptions::default()
                },
            )
            .unwrap();
        }
        assert_eq!(want, c.hs, "case {n}: the expected handshake");
        hw.now += 2;
        let opts = ts(555, tsval);
        let opts: &[u8] = if c.ts.is_some() { &opts } else { &[] };
        hw.arrive(Port::Client, cookie_ack(cport, isn, ck, opts, &[]));
        sp.poll(&mut hw);
        assert!(hw.take_sent().is_empty(), "case {n}: nothing to answer");
        let p = only_pending(&sp);
        assert_eq!(p.phase, Phase::Request, "case {n}");
        assert_eq!(p.hs, c.hs, "case {n}");
        assert_eq!(
            (p.client_isn, p.card_isn),
            (isn, ck),
            "case {n}: sequence numbers"
        );
        let (client_ts, card_ts) = if c.ts.is_some() { (555, tsval) } else { (0, 0) };
        assert_eq!(
            (p.client_tsval, p.card_tsval),
            (client_ts, card_ts),
            "case {n}: timestamps"
        );
        assert_eq!(
            state_of(hw.entry(p.slot)[0]),
            FlowState::Request.raw().into(),
            "case {n}: the flow entry"
        );
        assert_eq!(sp.stats.tcp.hw_cookie_acks, n as u32 + 1);
        // Done with it: the client resets.
        hw.arrive(
            Port::Client,
            seg(
                (CLIENT, cport),
                (VIP, 80),
                isn.wrapping_add(1),
                0,
                tf::RST,
                &[],
                &[],
                CMAC,
            ),
        );
        sp.poll(&mut hw);
        assert_eq!(sp.pending(), 0, "case {n}");
    }
}

#[test]
fn an_l4_cookie_ack_connects_at_once_with_the_clients_options() {
    let mut w = world();
    let mut hw = responder_card(5000);
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 1);
    hw.take_wire();
    // MSS 1400 (class 1300), no timestamps: the server SYN has the MSS only.
    let (cport, isn) = (43000, 99);
    let (ck, _) = card_cookie(&hw, cport, isn, 1400, None);
    hw.arrive(Port::Client, cookie_ack(cport, isn, ck, &[], &[]));
    sp.poll(&mut hw);
    let (port, ssyn) = hw.one_tcp();
    assert_eq!(port, Port::Server);
    assert_eq!(
        (
            ssyn.flags,
            ssyn.seq,
            ssyn.mss,
            ssyn.wscale,
            ssyn.sack_permitted,
            ssyn.timestamps
        ),
        (tf::SYN, isn, Some(1300), None, false, None)
    );
    assert_eq!(only_pending(&sp).phase, Phase::Connecting);
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 1);
}

/// Sends the ACK of a cookie made with key slot `slot` of `keys` (`flip`: ISN bits to
/// invert) and tells whether the firmware took the connection; a refusal must be a RST.
fn try_cookie(
    sp: &mut Splicer,
    hw: &mut Fake,
    keys: &cookie::CookieKeys,
    slot: u8,
    cport: u16,
    flip: u32,
) -> bool {
    let isn = 0x0bad_f00d ^ u32::from(cport);
    let ck = cookie::cookie_make_class(
        keys.slots[usize::from(slot)],
        slot,
        &cookie_tuple(cport),
        isn,
        3,
    ) ^ flip;
    let tsval = cookie::ts_encode(hw.now, TS_SYN_OPTS);
    hw.take_wire();
    let before = sp.stats.tcp.hw_cookie_acks;
    hw.arrive(
        Port::Client,
        cookie_ack(cport, isn, ck, &ts(101, tsval), &[]),
    );
    sp.poll(hw);
    let sent = hw.take_wire();
    let taken = sp.stats.tcp.hw_cookie_acks == before + 1;
    if taken {
        assert!(sent.is_empty(), "{sent:?}");
        assert!(sp.find_pending_tuple_of(cport).is_some());
    } else {
        assert_eq!(sp.stats.tcp.hw_cookie_acks, before);
        assert_eq!(sent.len(), 1, "{sent:?}");
        let rst = sent[0].1.clone().tcp();
        assert_eq!((rst.flags, rst.seq), (tf::RST, ck.wrapping_add(1)));
        assert!(sp.find_pending_tuple_of(cport).is_none());
    }
    taken
}

impl Splicer<'_> {
    /// The connection in setup from the client's port `cport` to service 0.
    fn find_pending_tuple_of(&self, cport: u16) -> Option<usize> {
        self.pend
            .iter()
            .position(|p| p.used && p.client.peer_ip == CLIENT && p.client.peer_port == cport)
    }
}

#[test]
fn forged_stale_and_expired_cookies_are_refused_and_the_previous_epoch_checks() {
    let mut w = world();
    let mut hw = responder_card(5000);
    let mut sp = Splicer::new(CLK, 256, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 2);
    let epoch0 = hw.syn_keys();
    assert!(
        try_cookie(&mut sp, &mut hw, &epoch0, 0, 1000, 0),
        "a good cookie"
    );
    // One flipped bit of the hash (bits 31:3) is refused; bits 2:1 carry the MSS class
    // (not authenticated: another class, same verdict).
    for bit in [3, 17, 31] {
        assert!(
            !try_cookie(&mut sp, &mut hw, &epoch0, 0, 1001 + bit as u16, 1 << bit),
            "hash bit {bit} flipped"
        );
    }
    assert!(try_cookie(&mut sp, &mut hw, &epoch0, 0, 1040, 1 << 1));
    assert_eq!(
        only_pending_of(&sp, 1040).hs.client_mss,
        cookie::MSS_TABLE[2]
    );
    // A cookie of slot 1 while the previous epoch is not valid (PREV_VALID 0 after
    // bring-up), although slot 1 holds a key.
    assert!(!hw.syn_ctrl().prev_valid);
    assert!(!try_cookie(&mut sp, &mut hw, &epoch0, 1, 1050, 0));
    // One rotation: the cookies of epoch 0 still check, the new epoch's too.
    hw.now += rotate_ticks();
    sp.poll(&mut hw);
    let epoch1 = hw.syn_keys();
    assert_eq!((epoch1.current, epoch1.previous_valid), (1, true));
    assert!(
        try_cookie(&mut sp, &mut hw, &epoch1, 0, 1100, 0),
        "previous epoch"
    );
    assert!(
        try_cookie(&mut sp, &mut hw, &epoch1, 1, 1101, 0),
        "current epoch"
    );
    // Slot 1 with its bring-up key (never used for cookies) fails now that it was
    // rewritten.
    assert!(!try_cookie(&mut sp, &mut hw, &epoch0, 1, 1102, 0));
    // Two rotations: epoch 0's cookies are refused (their slot holds epoch 2's key).
    hw.now += rotate_ticks();
    sp.poll(&mut hw);
    let epoch2 = hw.syn_keys();
    assert_eq!((epoch2.current, epoch2.previous_valid), (0, true));
    assert!(
        !try_cookie(&mut sp, &mut hw, &epoch0, 0, 1200, 0),
        "two epochs old"
    );
    assert!(
        try_cookie(&mut sp, &mut hw, &epoch2, 1, 1201, 0),
        "previous epoch"
    );
    assert!(
        try_cookie(&mut sp, &mut hw, &epoch2, 0, 1202, 0),
        "current epoch"
    );
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 6);
}

/// The connection in setup from `cport`.
fn only_pending_of(sp: &Splicer, cport: u16) -> Pending {
    sp.pend[sp.find_pending_tuple_of(cport).unwrap()]
}

#[test]
fn the_firmwares_own_cookies_still_check_beside_the_cards() {
    // Every setup entry busy (SYNs to a service the card does not answer, or before it was
    // enabled): the firmware's cookie SYN-ACK, whose ACK falls through the hardware check.
    let mut w = world();
    let mut hw = responder_card(5000);
    let mut sp = Splicer::new(CLK, 256, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 2);
    flood_setup_entries(&mut sp, &mut hw);
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
    let synack = hw.take_sent().pop().unwrap().1;
    assert_eq!(sp.stats.cookie_syn_acks, 1);
    hw.arrive(Port::Client, cookie_ack(6000, 500, synack.seq, &[], &[]));
    sp.poll(&mut hw);
    let p = only_pending_of(&sp, 6000);
    assert_eq!(p.phase, Phase::Request);
    assert_eq!(
        p.hs,
        Handshake {
            client_mss: 1460,
            mss_to_client: 1460,
            mss_to_server: 1460,
            ..HS_NONE
        }
    );
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 0, "not the card's cookie");
    assert_eq!(sp.profile.of_handler(Handler::CookieAck).count, 1);
}

#[test]
fn keys_rotate_every_60_s_the_idle_slot_first_then_the_epoch() {
    let mut w = world();
    let t0 = 0xffff_0000; // DP.NOW wraps in the second period
    let mut hw = responder_card(t0);
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 2);
    let start = hw.syn_keys();
    let period = rotate_ticks();
    // 60 s at DP.NOW's 2^16-cycle tick.
    assert_eq!(u64::from(period), (60 * u64::from(CLK)).div_ceil(1 << 16));
    // The writes since the last look (the fake keeps them all: its keys are their sum).
    let mut seen = hw.syn_writes.len();
    let mut since = |hw: &Fake| {
        let w = hw.syn_writes[seen..].to_vec();
        seen = hw.syn_writes.len();
        w
    };
    hw.now = t0.wrapping_add(period - 1);
    sp.poll(&mut hw);
    assert!(since(&hw).is_empty(), "not before 60 s");
    hw.now = t0.wrapping_add(period);
    sp.poll(&mut hw);
    let w1 = since(&hw);
    let [SynWrite::Key(1, k), SynWrite::Ctrl(c)] = w1[..] else {
        panic!("rotation writes {w1:?}");
    };
    assert!(k != start.slots[0] && k != start.slots[1], "a fresh key");
    assert_eq!(
        c,
        SynCtrl {
            cur_epoch: 1,
            prev_valid: true,
            ..ctrl_at_start(0b1)
        }
    );
    let mut model = start;
    model.rotate(k);
    assert_eq!(sp.syn.keys, model, "CookieKeys::rotate");
    // The next one 60 s later; when the main loop notices a deadline late, the one after
    // is 60 s after the rotation (not two in a row, which would refuse the cookies of the
    // epoch that just ended).
    let late = 500;
    hw.now = t0.wrapping_add(2 * period - 1);
    sp.poll(&mut hw);
    assert!(since(&hw).is_empty());
    hw.now = t0.wrapping_add(2 * period + late);
    sp.poll(&mut hw);
    let w2 = since(&hw);
    let [SynWrite::Key(0, k2), SynWrite::Ctrl(c2)] = w2[..] else {
        panic!("rotation writes {w2:?}");
    };
    assert_eq!((c2.cur_epoch, c2.prev_valid, c2.vip_mask), (0, true, 0b1));
    assert!(k2 != k && k2 != start.slots[0]);
    hw.now = t0.wrapping_add(3 * period + late - 1);
    sp.poll(&mut hw);
    assert!(since(&hw).is_empty(), "one rotation per period");
    hw.now = t0.wrapping_add(3 * period + late);
    sp.poll(&mut hw);
    assert!(matches!(
        since(&hw)[..],
        [SynWrite::Key(1, _), SynWrite::Ctrl(_)]
    ));
    assert_eq!(sp.syn.keys, hw.syn_keys());
}

// ----- RSTs and SYNs on spliced flows (resets.rs) ------------------------------------------

/// A FIN_RST event for a forwarded segment of `slot` from `port` with these numbers.
fn ev_seg(slot: Slot, port: Port, flags: u8, seq: u32, ack: u32, plen: u16) -> [u32; 4] {
    EvtFinRst {
        kind: event_type::FIN_RST,
        port: port.raw(),
        tcp_flags: flags,
        // stamped by `Fake::forwarded`, as the data path does
        flow_gen: 0,
        flow_slot: slot,
        plen,
        seq,
        ack,
    }
    .pack()
}

/// A spliced L4 flow from client port `cport` (its slot), with the splicer and fake set up.
fn spliced_world(w: &mut World, cport: u16) -> (Splicer<'_>, Fake, Slot) {
    let (mut sp, mut hw) = configured(w, 1);
    let slot = splice_l4(&mut sp, &mut hw, cport);
    (sp, hw, slot)
}

/// A splicer configured by [`configure`] in `mode`, its fake at tick 1000.
fn configured(w: &mut World, mode: u32) -> (Splicer<'_>, Fake) {
    let mut hw = Fake {
        now: 1000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, mode);
    (sp, hw)
}

/// The flow's server counts (active, inactive) from SERVER_STATS.
fn server_counts(sp: &mut Splicer, hw: &mut Fake, slot: Slot) -> (u32, u32) {
    let rs = FlowStatic::REAL_SERVER.get32(hw.entry(slot)[0]);
    let w = ok_words(sp, hw, cmd::SERVER_STATS, &[rs]);
    (w[0], w[1])
}

/// One segment the RST's receiver sent, forwarded by the data path (its FlowDyn counter).
fn receiver_sends(hw: &mut Fake, slot: Slot, dir: splicenic_layout::Field) {
    hw.counters.entry(slot).or_default()[dir.lsb / 32] += 1;
}

/// A RST of the spliced flow from client port `cport` arriving on `port` (punted).
fn rst_from(hw: &mut Fake, port: Port, cport: u16, slot: Slot, seq: u32, ack: u32) {
    let frame = match port {
        Port::Client => seg(
            (CLIENT, cport),
            (VIP, 80),
            seq,
            ack,
            tf::RST | tf::ACK,
            &[],
            &[],
            CMAC,
        ),
        Port::Server => {
            let s = decode_half(&hw.entry(slot), SERVER_HALF);
            let mut f = seg(
                (s.peer_ip, s.peer_port),
                (s.local_ip, s.local_port),
                seq,
                ack,
                tf::RST | tf::ACK,
                &[],
                &[],
                s.peer_mac,
            );
            f[0..6].copy_from_slice(&CARD_S);
            f
        }
    };
    hw.arrive(port, frame);
}

#[test]
fn punts_and_events_of_an_earlier_use_of_a_slot_are_dropped_by_generation() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7260);
    let gen = field(&hw.entry(slot), FlowStatic::GEN) as u8;
    assert_ne!(
        gen, 0,
        "the firmware writes a generation with every entry it sets up"
    );
    let other = splice_l4(&mut sp, &mut hw, 7261);
    assert_ne!(
        field(&hw.entry(other), FlowStatic::GEN) as u8,
        gen,
        "two set-ups, two generations"
    );
    // The slot was freed and set up again after these were made: the entry's generation
    // moved on (done here by hand on the fake's entry).
    let now_gen = gen ^ 0x80;
    let mut e = hw.entry(slot);
    FlowStatic::GEN.put(&mut e, now_gen.into());
    hw.mem.get_mut(&slot).unwrap().0 = e;
    let mut fin = EvtFinRst::unpack(&ev_fin(slot, Port::Client));
    fin.flow_gen = gen;
    hw.events.push_back(fin.pack());
    rst_from(&mut hw, Port::Client, 7260, slot, 1, 0);
    PuntMeta::SLOT_GEN.put(&mut hw.punts.back_mut().unwrap().1, gen.into());
    sp.poll(&mut hw);
    assert_eq!(hw.entry(slot), e, "the flow's entry is untouched");
    assert!(hw.take_wire().is_empty(), "the old RST is not sent on");
    assert_eq!(sp.stats.tcp.gen_stale, 2);
    assert_eq!(sp.stats.tcp.rst_pending, 0);
    // The same, of the slot's generation now, act.
    hw.forwarded(ev_fin(slot, Port::Client));
    sp.poll(&mut hw);
    assert_eq!(
        state_of(hw.entry(slot)[0]),
        u32::from(FlowState::Closing.raw())
    );
    rst_from(&mut hw, Port::Client, 7260, slot, 1, 0);
    sp.poll(&mut hw);
    assert_eq!(sp.stats.tcp.rst_pending, 1);
    assert_eq!(sp.stats.tcp.gen_stale, 2);
    let t = ok_words(&mut sp, &mut hw, cmd::TCP_STATS, &[]);
    assert_eq!(t[15], 2, "TCP_STATS reports them");
}

#[test]
fn a_rst_on_a_spliced_flow_probes_its_receiver_and_only_silence_or_its_rst_frees_the_flow() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7200);
    let e = hw.entry(slot);
    let (dcs, dsc) = (e[2], e[3]);
    let server = decode_half(&e, SERVER_HALF);
    assert_eq!(server_counts(&mut sp, &mut hw, slot), (1, 0));
    let pending = ms_to_ticks(RST_PENDING_MS, CLK);

    // A client RST (blind: any number) goes to the server translated; the flow is
    // RST-pending and the server gets a probe half the number space away from the RST.
    let (seq, ack) = (0x1234_5678, 0x9abc_def0);
    rst_from(&mut hw, Port::Client, 7200, slot, seq, ack);
    sp.poll(&mut hw);
    let e = hw.entry(slot);
    assert_eq!(state_of(e[0]), u32::from(FlowState::Closing.raw()));
    assert_eq!(
        entry_flag_bits(e[0]) & (entry_flags::RST | entry_flags::RST_SERVER),
        entry_flags::RST
    );
    let out = hw.take_wire();
    assert_eq!(out.len(), 2, "{out:?}");
    let (rst, probe) = (out[0].1.clone().tcp(), out[1].1.clone().tcp());
    assert!(out.iter().all(|(p, _)| *p == Port::Server));
    for t in [&rst, &probe] {
        assert_eq!(
            (t.src_ip, t.src_port, t.dst_ip, t.dst_port),
            (
                server.local_ip,
                server.local_port,
                server.peer_ip,
                server.peer_port
            )
        );
        assert_eq!((t.dst_mac, t.src_mac), (server.peer_mac, CARD_S));
        assert_eq!(t.ack, ack.wrapping_sub(dsc));
        assert_eq!(t.options_len, 0);
    }
    assert_eq!(rst.flags, tf::RST | tf::ACK);
    assert_eq!(rst.seq, seq.wrapping_add(dcs));
    assert!(rst.payload.is_empty());
    assert_eq!(probe.flags, tf::ACK);
    assert_eq!(probe.seq, seq.wrapping_add(dcs).wrapping_add(1 << 31));
    assert_eq!(probe.payload.len(), 1);
    assert_eq!(server_counts(&mut sp, &mut hw, slot), (0, 1));
    assert_eq!((sp.stats.closed, sp.rst_pending()), (1, 1));
    // More RSTs from the sender are dropped; not yet at the end of the pending time.
    rst_from(&mut hw, Port::Client, 7200, slot, seq + 1, ack);
    hw.now += pending - 1;
    sp.poll(&mut hw);
    assert!(hw.take_wire().is_empty());
    assert_eq!(sp.rst_pending(), 1);
    // The server answered (a challenge or duplicate ACK through the splice): restored.
    receiver_sends(&mut hw, slot, FlowDyn::PACKETS_SC);
    hw.now += 2;
    sp.poll(&mut hw);
    let e = hw.entry(slot);
    assert_eq!(state_of(e[0]), u32::from(FlowState::Spliced.raw()));
    assert_eq!(entry_flag_bits(e[0]) & entry_flags::RST, 0);
    assert_ne!(entry_flag_bits(e[0]) & entry_flags::ACTIVE, 0);
    assert_eq!(server_counts(&mut sp, &mut hw, slot), (1, 0));
    assert_eq!((sp.stats.closed, sp.rst_pending()), (0, 0));
    assert_eq!(sp.stats.tcp.rst_restored, 1);

    // A RST the server accepted: it answers nothing (the client's own segments do not
    // count). Freed when the time is up.
    rst_from(&mut hw, Port::Client, 7200, slot, 77, 0);
    sp.poll(&mut hw);
    assert_eq!(hw.take_wire().len(), 2);
    receiver_sends(&mut hw, slot, FlowDyn::PACKETS_CS);
    hw.now += pending + 1;
    sp.poll(&mut hw);
    assert_eq!(hw.entry(slot), [0; STATIC_WORDS], "freed");
    assert!(hw.table.is_empty(), "both keys deleted");
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(sp.stats.tcp.rst_freed_silent, 1);
    assert_eq!(sp.stats.closed, 1);
    assert_eq!(server_counts_of(&mut sp, &mut hw, e), (0, 0));

    // A server RST: the client gets it and the probe; the client's RST (it had no
    // connection) frees the flow at once and goes on to the server.
    let slot = splice_l4(&mut sp, &mut hw, 7201);
    let e = hw.entry(slot);
    let client = decode_half(&e, CLIENT_HALF);
    rst_from(&mut hw, Port::Server, 7201, slot, 500, 600);
    sp.poll(&mut hw);
    let out = hw.take_wire();
    assert_eq!(out.len(), 2, "{out:?}");
    let (port, probe) = (out[1].0, out[1].1.clone().tcp());
    assert_eq!((out[0].0, port), (Port::Client, Port::Client));
    assert_eq!(out[0].1.clone().tcp().seq, 500u32.wrapping_add(e[3]));
    assert_eq!(
        (probe.src_ip, probe.src_port, probe.dst_ip, probe.dst_port),
        (VIP, 80, client.peer_ip, client.peer_port)
    );
    assert_eq!(probe.seq, 500u32.wrapping_add(e[3]).wrapping_add(1 << 31));
    assert_eq!(probe.ack, 600u32.wrapping_sub(e[2]));
    assert_ne!(
        entry_flag_bits(hw.entry(slot)[0]) & entry_flags::RST_SERVER,
        0
    );
    rst_from(&mut hw, Port::Client, 7201, slot, 1, 0);
    sp.poll(&mut hw);
    assert_eq!(hw.entry(slot), [0; STATIC_WORDS]);
    assert_eq!(sp.stats.tcp.rst_freed_receiver, 1);
    let (port, fwd) = hw.one_tcp();
    assert_eq!((port, fwd.flags & tf::RST), (Port::Server, tf::RST));
    // Its pending entry ends later without touching the slot's next flow.
    let next = splice_l4(&mut sp, &mut hw, 7202);
    hw.now += pending + 1;
    sp.poll(&mut hw);
    assert_eq!(
        state_of(hw.entry(next)[0]),
        u32::from(FlowState::Spliced.raw())
    );
    let t = ok_words(&mut sp, &mut hw, cmd::TCP_STATS, &[]);
    assert_eq!(t, [3, 1, 1, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // The answer is longer than a response: the rest from a word index (the three heads the
    // firmware replayed, on a card without head buffers; nothing absorbed by the card).
    assert_eq!(
        ok_words(&mut sp, &mut hw, cmd::TCP_STATS, &[16]),
        [0, 0, 0, 0, 0, 0, 3, 0, 0, 0]
    );
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::TCP_STATS, &[5]).len(), 16);
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::TCP_STATS, &[0]), t);
    for (req, code) in [
        (&[TcpStats::WORDS as u32][..], status::BAD_ARGUMENT),
        (&[u32::MAX][..], status::BAD_ARGUMENT),
        (&[0, 0][..], status::BAD_LENGTH),
    ] {
        assert_eq!(
            call(&mut sp, &mut hw, cmd::TCP_STATS, req),
            (code, vec![]),
            "{req:?}"
        );
    }
}

/// The server counts (active, inactive) of the real server of entry `e`.
fn server_counts_of(sp: &mut Splicer, hw: &mut Fake, e: [u32; STATIC_WORDS]) -> (u32, u32) {
    let w = ok_words(
        sp,
        hw,
        cmd::SERVER_STATS,
        &[FlowStatic::REAL_SERVER.get32(e[0])],
    );
    (w[0], w[1])
}

#[test]
fn a_full_pending_table_leaves_the_rst_to_the_close_timeout() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7210);
    for _ in 0..RST_PENDING_SLOTS {
        sp.rst_pend_fill(slot, hw.now.wrapping_add(1 << 30));
    }
    rst_from(&mut hw, Port::Client, 7210, slot, 1, 0);
    sp.poll(&mut hw);
    let (port, rst) = hw.one_tcp();
    assert_eq!(
        (port, rst.flags & tf::RST),
        (Port::Server, tf::RST),
        "the RST, no probe"
    );
    assert_eq!(sp.stats.tcp.rst_untracked, 1);
    let e = hw.entry(slot);
    assert_eq!(state_of(e[0]), u32::from(FlowState::Closing.raw()));
    assert_ne!(entry_flag_bits(e[0]) & entry_flags::RST, 0);
}

#[test]
fn a_syn_on_a_spliced_flow_goes_to_the_server_at_most_once_per_interval() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7220);
    let e = hw.entry(slot);
    let server = decode_half(&e, SERVER_HALF);
    let syn_acks = sp.stats.syn_acks;
    let syn = |isn| {
        seg(
            (CLIENT, 7220),
            (VIP, 80),
            isn,
            0,
            tf::SYN,
            &TS_SYN,
            &[],
            CMAC,
        )
    };
    hw.arrive(Port::Client, syn(0x5000_0000));
    sp.poll(&mut hw);
    let (port, s) = hw.one_tcp();
    assert_eq!(port, Port::Server);
    assert_eq!(s.flags, tf::SYN);
    assert_eq!(s.seq, 0x5000_0000u32.wrapping_add(e[2]));
    assert_eq!(
        (s.src_ip, s.src_port, s.dst_ip, s.dst_port),
        (
            server.local_ip,
            server.local_port,
            server.peer_ip,
            server.peer_port
        )
    );
    assert_eq!((s.options_len, s.payload.len()), (0, 0));
    assert_eq!(sp.stats.tcp.syn_challenged, 1);
    // Within the interval: not passed; after it: passed again. No setup, no SYN-ACK.
    hw.now += ms_to_ticks(CHALLENGE_MS, CLK) / 2;
    hw.arrive(Port::Client, syn(0x5000_0001));
    sp.poll(&mut hw);
    assert!(hw.take_wire().is_empty());
    assert_eq!(sp.stats.tcp.challenge_limited, 1);
    hw.now += ms_to_ticks(CHALLENGE_MS, CLK);
    hw.arrive(Port::Client, syn(0x5000_0002));
    sp.poll(&mut hw);
    assert_eq!(hw.one_tcp().0, Port::Server);
    assert_eq!(sp.stats.tcp.syn_challenged, 2);
    assert_eq!((sp.pending(), sp.stats.syn_acks), (0, syn_acks));
    // A flow limited is limited alone: another flow's SYN passes at once.
    let other = splice_l4(&mut sp, &mut hw, 7221);
    hw.arrive(
        Port::Client,
        seg((CLIENT, 7221), (VIP, 80), 9, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    assert_eq!(hw.one_tcp().0, Port::Server);
    assert_eq!(sp.stats.tcp.syn_challenged, 3);
    // RST-pending: dropped.
    rst_from(&mut hw, Port::Server, 7221, other, 1, 0);
    sp.poll(&mut hw);
    hw.take_wire();
    hw.now += ms_to_ticks(CHALLENGE_MS, CLK) * 2;
    hw.arrive(
        Port::Client,
        seg((CLIENT, 7221), (VIP, 80), 10, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    assert!(hw.take_wire().is_empty());
    assert_eq!(sp.stats.tcp.syn_dropped, 1);
}

#[test]
fn the_pending_time_is_the_close_timeout_when_that_is_shorter() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7240);
    ok_words(
        &mut sp,
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::Close as u32, 5, 1],
    );
    rst_from(&mut hw, Port::Client, 7240, slot, 1, 0);
    sp.poll(&mut hw);
    assert_eq!(sp.rst_pending(), 1);
    let wait = ms_to_ticks(5, CLK);
    assert!(wait < ms_to_ticks(RST_PENDING_MS, CLK));
    hw.now += wait - 1;
    sp.poll(&mut hw);
    assert_eq!(sp.rst_pending(), 1, "not yet");
    hw.now += 2;
    sp.poll(&mut hw);
    assert_eq!(sp.rst_pending(), 0);
    assert_eq!(hw.entry(slot), [0; STATIC_WORDS]);
    assert_eq!(sp.stats.tcp.rst_freed_silent, 1);
}

#[test]
fn a_restart_resumes_the_pending_time_of_a_rst_pending_flow() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7250);
    let other = splice_l4(&mut sp, &mut hw, 7251);
    rst_from(&mut hw, Port::Client, 7250, slot, 1, 0);
    rst_from(&mut hw, Port::Server, 7251, other, 1, 0);
    sp.poll(&mut hw);
    assert_eq!(sp.rst_pending(), 2);
    hw.take_wire();
    // The firmware restarts: new state, same data path; both flows are kept, pending again.
    let mut w2 = world();
    let mut sp = Splicer::new(CLK, 64, w2.tables(), 3, 4);
    assert_eq!(sp.rebuild(&mut hw), 2);
    configure(&mut sp, &mut hw, 1);
    assert_eq!(sp.rst_pending(), 2);
    assert!(hw.take_wire().is_empty(), "no second probe");
    // The second flow's receiver (the client) sends a segment; the first one's stays silent.
    receiver_sends(&mut hw, other, FlowDyn::PACKETS_CS);
    hw.now += ms_to_ticks(RST_PENDING_MS, CLK) + 1;
    sp.poll(&mut hw);
    assert_eq!(hw.entry(slot), [0; STATIC_WORDS], "idle: freed");
    assert_eq!(
        state_of(hw.entry(other)[0]),
        u32::from(FlowState::Spliced.raw())
    );
    assert_eq!(
        (sp.stats.tcp.rst_freed_silent, sp.stats.tcp.rst_restored),
        (1, 1)
    );
}

#[test]
fn a_freed_pending_flow_does_not_decide_for_the_next_flow_in_its_slot() {
    // One slot: every flow takes slot 0.
    let mut w = world();
    let mut hw = Fake {
        now: 1000,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 1, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 1);
    let slot = splice_l4(&mut sp, &mut hw, 7260);
    rst_from(&mut hw, Port::Client, 7260, slot, 1, 0);
    sp.poll(&mut hw);
    // The server's RST frees the flow at once; its pending entry is forgotten.
    rst_from(&mut hw, Port::Server, 7260, slot, 2, 0);
    sp.poll(&mut hw);
    assert_eq!(sp.slots_in_use(), 0);
    hw.take_wire();
    // The next flow in the slot gets a RST of its own a little later.
    let again = splice_l4(&mut sp, &mut hw, 7261);
    assert_eq!(again, slot);
    hw.now += 10;
    rst_from(&mut hw, Port::Client, 7261, slot, 3, 0);
    sp.poll(&mut hw);
    hw.take_wire();
    // The first entry's time ends first and must not free the second flow, which its
    // receiver then answers.
    let pending = ms_to_ticks(RST_PENDING_MS, CLK);
    hw.now += pending - 5;
    sp.poll(&mut hw);
    assert_eq!(sp.slots_in_use(), 1, "freed by the first flow's entry");
    receiver_sends(&mut hw, slot, FlowDyn::PACKETS_SC);
    hw.now += 10;
    sp.poll(&mut hw);
    assert_eq!(
        state_of(hw.entry(slot)[0]),
        u32::from(FlowState::Spliced.raw())
    );
    assert_eq!(sp.stats.tcp.rst_restored, 1);
}

#[test]
fn pending_times_end_a_bounded_number_per_pass() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7270);
    for _ in 0..40 {
        sp.rst_pend_fill(slot, hw.now);
    }
    hw.now += 1;
    sp.poll(&mut hw);
    assert_eq!(sp.rst_pending(), 8, "32 of 40 in the first pass");
    sp.poll(&mut hw);
    assert_eq!(sp.rst_pending(), 0);
}

// ----- the hardware ACK validator (engine.rs; docs/engine.md) ---------------------------

/// A card with the SYN responder and the ACK validator (the fake's).
fn validator_card(now: u32) -> Fake {
    Fake {
        free_depth: 512,
        ..responder_card(now)
    }
}

/// A configured splicer on [`validator_card`], its free list filled, nothing sent yet.
fn validator_world(w: &mut World) -> (Splicer<'_>, Fake) {
    let mut hw = validator_card(5000);
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 2);
    while sp.poll(&mut hw) {}
    hw.take_wire();
    (sp, hw)
}

#[test]
fn the_validator_is_enabled_flushed_and_kept_filled() {
    let mut w = world();
    let mut hw = validator_card(5000);
    hw.free_list.push_back((9, 9));
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    assert!(hw.ack_enabled);
    assert_eq!(hw.free_flushes, 1);
    assert!(
        hw.free_list.is_empty(),
        "the previous firmware's pushes are gone"
    );
    configure(&mut sp, &mut hw, 2);
    // 8 a pass, up to 64 but leaving the firmware a quarter of its 64 slots: 48.
    while sp.poll(&mut hw) {}
    assert_eq!(hw.free_list.len(), 48);
    assert_eq!(sp.engine.len(), 48);
    assert_eq!(sp.slots_taken(), 48);
    assert_eq!(sp.slots_in_use(), 0, "the list's slots hold no flow");
    let gens: Vec<u8> = hw.free_list.iter().map(|&(_, g)| g).collect();
    assert_eq!(gens, (1..=48).collect::<Vec<u8>>(), "a generation per push");
    // A restart of the responder takes the list back.
    sp.syn_start(&mut hw);
    assert_eq!(hw.free_flushes, 2);
    assert_eq!(sp.engine.len(), 0);
    assert_eq!(sp.slots_taken(), 0);
    // Without a validator (DEPTH 0) the firmware pushes nothing and leaves it off.
    let mut w2 = world();
    let mut hw2 = responder_card(5000);
    let mut sp2 = Splicer::new(CLK, 64, w2.tables(), 1, 2);
    sp2.syn_start(&mut hw2);
    configure(&mut sp2, &mut hw2, 2);
    sp2.poll(&mut hw2);
    assert!(!hw2.ack_enabled);
    assert!(hw2.free_list.is_empty());
}

#[test]
fn a_connection_the_validator_set_up_splices_without_a_firmware_cookie_check_or_insert() {
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let first = hw.free_list[0].0;
    let (cport, isn) = (41000, 0xffff_ff00_u32);
    let (ck, tsval) = card_cookie(&hw, cport, isn, 1460, Some(TS_SYN_OPTS));
    let inserts = hw.ops.flow_cmd;
    request_to_splice_reads_back_with_etherparse(&mut sp, &mut hw, cport, isn, ck, tsval);
    assert_eq!(sp.stats.spliced, 1);
    assert_eq!(sp.stats.tcp.engine_new, 1);
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 1);
    assert_eq!(
        (sp.stats.tcp.engine_lost, sp.stats.tcp.engine_stale),
        (0, 0)
    );
    // The flow is in the slot the engine handed over; the firmware inserted only the
    // server half's key (one command), never the client's.
    let client = FourTuple {
        src_ip: CLIENT,
        dst_ip: VIP,
        src_port: cport,
        dst_port: 80,
    };
    assert_eq!(hw.table.get(&client), Some(&(first, false)));
    assert_eq!(
        hw.ops.flow_cmd - inserts,
        1,
        "the server half's insert only"
    );
    assert_eq!(sp.engine.len(), 47);
    assert_eq!(sp.slots_in_use(), 1);
}

#[test]
fn a_lost_handover_is_reclaimed_at_the_next_one_and_a_foreign_one_undone() {
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let lost = hw.free_list[0].0;
    let next = hw.free_list[1].0;
    let ack_of = |hw: &Fake, cport: u16| {
        let (ck, tsval) = card_cookie(hw, cport, 7, 1460, Some(TS_SYN_OPTS));
        cookie_ack(cport, 7, ck, &ts(101, tsval), &[])
    };
    // The first client's NEW punt is lost: its slot and key stay the engine's ...
    hw.drop_next_new = true;
    let f = ack_of(&hw, 41001);
    hw.arrive(Port::Client, f);
    sp.poll(&mut hw);
    assert_eq!(sp.pending(), 0);
    let lost_key = FourTuple {
        src_ip: CLIENT,
        dst_ip: VIP,
        src_port: 41001,
        dst_port: 80,
    };
    assert!(hw.table.contains_key(&lost_key));
    // ... until the next NEW names a later push: the lost slot is reclaimed.
    let f = ack_of(&hw, 41002);
    hw.arrive(Port::Client, f);
    sp.poll(&mut hw);
    assert_eq!(sp.stats.tcp.engine_lost, 1);
    assert_eq!(sp.stats.tcp.engine_new, 1);
    assert_eq!(only_pending(&sp).slot, next);
    assert!(
        !hw.table.contains_key(&lost_key),
        "the lost flow's key is deleted"
    );
    assert_eq!(hw.mem[&lost].0, [0; STATIC_WORDS], "and its entry cleared");
    assert!(sp.slot_is_free(lost));
    // A NEW the firmware never pushed (e.g. the list a previous firmware filled): its key
    // goes, and the ACK is taken the firmware's own way, in a slot of its own.
    hw.free_list.push_front((60, 200));
    let f = ack_of(&hw, 41003);
    hw.arrive(Port::Client, f);
    sp.poll(&mut hw);
    assert_eq!(sp.stats.tcp.engine_stale, 1);
    assert_eq!(sp.stats.tcp.engine_new, 1);
    assert_eq!(sp.pending(), 2, "accepted by the firmware's cookie check");
    let k3 = FourTuple {
        src_port: 41003,
        ..lost_key
    };
    let (slot3, _) = hw.table[&k3];
    assert_ne!(
        slot3, 60,
        "the firmware inserted the key for a slot of its own"
    );
    assert!(sp.slot_is_free(60) || slot3 != 60);
}

#[test]
fn a_forged_ack_the_validator_refused_is_reset_without_a_second_check() {
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let (ck, tsval) = card_cookie(&hw, 41000, 7, 1460, Some(TS_SYN_OPTS));
    let held = hw.free_list.len();
    hw.arrive(
        Port::Client,
        cookie_ack(41000, 7, ck ^ 0x100, &ts(101, tsval), &[]),
    );
    sp.poll(&mut hw);
    let (port, rst) = hw.one_tcp();
    assert_eq!(port, Port::Client);
    assert_eq!(rst.flags, tf::RST);
    assert_eq!(sp.pending(), 0);
    assert_eq!(hw.free_list.len(), held, "no slot taken");
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 0);
}

#[test]
fn data_overtaking_its_handshake_ack_is_not_reset_and_a_stray_one_is_after_a_hold() {
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let (cport, isn) = (41020, 7);
    let (ck, tsval) = card_cookie(&hw, cport, isn, 1460, Some(TS_SYN_OPTS));
    // The body's first segment, after a 151-byte head, arrives before the handshake ACK:
    // its seq - 1 is not the ISN the cookie covers.
    let body = cookie_ack(cport, isn + 151, ck, &ts(101, tsval), &[0x55; 512]);
    hw.arrive(Port::Client, body);
    sp.poll(&mut hw);
    assert!(hw.take_wire().is_empty(), "no RST for it");
    assert_eq!(sp.pending(), 0);
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 0);
    // The handshake ACK connects the client.
    hw.arrive(
        Port::Client,
        cookie_ack(cport, isn, ck, &ts(101, tsval), &[]),
    );
    sp.poll(&mut hw);
    assert_eq!(sp.pending(), 1);
    assert_eq!(sp.stats.tcp.engine_new, 1);
    assert_eq!((sp.stats.tcp.early_held, sp.stats.tcp.early_kept), (1, 1));
    // Its RST is never sent.
    hw.now += ms_to_ticks(EARLY_HOLD_MS, CLK) + 1;
    sp.poll(&mut hw);
    assert!(hw
        .take_wire()
        .iter()
        .all(|(_, f)| f.clone().tcp().flags & tf::RST == 0));
    // A data segment no handshake ACK follows (a connection the card forgot) gets its RST
    // when the hold ends, seq = its ACK number.
    let stray = cookie_ack(41021, 9, 0x1234, &[], b"GET / HTTP/1.1\r\n\r\n");
    hw.arrive(Port::Client, stray);
    sp.poll(&mut hw);
    assert!(hw.take_wire().is_empty(), "held");
    hw.now += ms_to_ticks(EARLY_HOLD_MS, CLK) + 1;
    sp.poll(&mut hw);
    let (port, rst) = hw.one_tcp();
    assert_eq!((port, rst.flags, rst.seq), (Port::Client, tf::RST, 0x1235));
    assert_eq!((sp.stats.tcp.early_held, sp.stats.tcp.early_kept), (2, 1));
}

#[test]
fn a_retransmission_into_a_lost_handover_reclaims_it_and_connects() {
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    let (ck, tsval) = card_cookie(&hw, 41001, 7, 1460, Some(TS_SYN_OPTS));
    let ack = cookie_ack(41001, 7, ck, &ts(101, tsval), &[]);
    hw.drop_next_new = true;
    hw.arrive(Port::Client, ack.clone());
    sp.poll(&mut hw);
    assert_eq!(sp.pending(), 0);
    // The client sends its ACK again: it finds the slot (no verdict: the key is in).
    hw.arrive(Port::Client, ack);
    sp.poll(&mut hw);
    assert_eq!(sp.stats.tcp.engine_lost, 1);
    assert_eq!(sp.pending(), 1, "connected by the firmware's cookie check");
    assert_eq!(sp.stats.tcp.hw_cookie_acks, 1);
    let key = FourTuple {
        src_ip: CLIENT,
        dst_ip: VIP,
        src_port: 41001,
        dst_port: 80,
    };
    assert_eq!(hw.table[&key].0, only_pending(&sp).slot);
    assert!(
        hw.take_sent().iter().all(|(_, s, _)| !s.has(tf::RST)),
        "no RST"
    );
}

#[test]
fn a_handover_past_the_flow_limit_is_refused_and_its_slot_freed() {
    let mut w = world();
    let (mut sp, mut hw) = validator_world(&mut w);
    // The limit: no flow (the slots in the validator's list are not flows).
    sp.limit = 0;
    let slot = hw.free_list[0].0;
    let (ck, tsval) = card_cookie(&hw, 41001, 7, 1460, Some(TS_SYN_OPTS));
    hw.arrive(Port::Client, cookie_ack(41001, 7, ck, &ts(101, tsval), &[]));
    sp.poll(&mut hw);
    let (port, rst) = hw.one_tcp();
    assert_eq!((port, rst.flags), (Port::Client, tf::RST));
    assert_eq!(sp.pending(), 0);
    assert_eq!(sp.stats.refused_full, 1);
    assert!(
        sp.slot_is_free(slot),
        "the slot is back in the firmware's list"
    );
    assert!(hw.table.is_empty(), "the engine's key is deleted");
    assert_eq!(hw.mem[&slot].0, [0; STATIC_WORDS], "and its entry cleared");
}

// ----- LINGER: both FINs acknowledged ------------------------------------------------------

/// The data path's teardown flags of `slot` become `flags` with a forwarded segment (the
/// final ACK): `FlowDyn.teardown` and the last-seen tick, as the hardware writes them.
fn teardown_seen(hw: &mut Fake, slot: Slot, flags: u8) {
    let d = hw.counters.entry(slot).or_default();
    put_bits(
        d,
        FlowDyn::TEARDOWN.lsb,
        FlowDyn::TEARDOWN.width,
        flags.into(),
    );
    let now = hw.now;
    hw.mem.get_mut(&slot).expect("a flow in use").1 = now;
}

/// The timeout class FLOW_GET reports for `slot`.
fn flow_class(sp: &mut Splicer, hw: &mut Fake, slot: Slot) -> Option<TcpState> {
    let g = ok_words(sp, hw, cmd::FLOW_GET, &[u32::from(slot)]);
    TcpState::from_index(g[15] as usize)
}

/// Polls enough for the aging scan to visit every slot of a test splicer.
fn age_all(sp: &mut Splicer, hw: &mut Fake) {
    for _ in 0..4 {
        sp.poll(hw);
    }
}

/// Both FINs forwarded (FIN_RST events from each side): the flow is CLOSING, TIME_WAIT class.
fn both_fins(sp: &mut Splicer, hw: &mut Fake, slot: Slot) {
    hw.forwarded(ev_fin(slot, Port::Client));
    hw.forwarded(ev_fin(slot, Port::Server));
    sp.poll(hw);
    assert_eq!(state_of(hw.entry(slot)[0]), FlowState::Closing.raw().into());
    assert_eq!(flow_class(sp, hw, slot), Some(TcpState::TimeWait));
}

const ALL_TEARDOWN: u8 =
    teardown::FIN_CS | teardown::FIN_SC | teardown::ACKED_CS | teardown::ACKED_SC;

#[test]
fn the_linger_class_needs_both_fins_acknowledged_and_no_rst() {
    use entry_flags::{FIN_CLIENT, FIN_SERVER, RST};
    use teardown::{ACKED_CS, ACKED_SC, FIN_CS, FIN_SC};
    let w0 = |st: FlowState, flags: u8| {
        FlowStatic::STATE.place32(st.raw().into()) | FlowStatic::FLAGS.place32(flags.into())
    };
    let d = |td: u8| {
        let mut d = [0u32; DYN_WORDS];
        put_bits(
            &mut d,
            FlowDyn::TEARDOWN.lsb,
            FlowDyn::TEARDOWN.width,
            td.into(),
        );
        d
    };
    let fins = FIN_CLIENT | FIN_SERVER;
    let cases = [
        // The FIN events not handled yet: the data path's flags decide.
        (FlowState::Spliced, 0, ALL_TEARDOWN, Some(TcpState::Linger)),
        (
            FlowState::Closing,
            fins,
            ALL_TEARDOWN,
            Some(TcpState::Linger),
        ),
        (
            FlowState::Closing,
            fins | RST,
            ALL_TEARDOWN,
            Some(TcpState::Close),
        ),
        (
            FlowState::Closing,
            fins,
            FIN_CS | FIN_SC | ACKED_CS,
            Some(TcpState::TimeWait),
        ),
        (
            FlowState::Closing,
            FIN_CLIENT,
            FIN_CS | ACKED_CS,
            Some(TcpState::FinWait),
        ),
        (FlowState::Spliced, 0, ACKED_SC, Some(TcpState::Established)),
        (FlowState::Spliced, 0, 0, Some(TcpState::Established)),
        // Setups keep their own deadlines; a free slot never expires.
        (FlowState::Handshake, 0, ALL_TEARDOWN, None),
        (FlowState::Free, 0, ALL_TEARDOWN, None),
    ];
    for (st, flags, td, want) in cases {
        assert_eq!(
            Splicer::timeout_class(w0(st, flags), &d(td)),
            want,
            "{st:?} flags {flags:#x} teardown {td:#x}"
        );
    }
}

#[test]
fn a_flow_whose_fins_were_both_acknowledged_is_freed_after_the_linger_and_not_before() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7300);
    both_fins(&mut sp, &mut hw, slot);
    // The final ACK: the server's FIN acknowledged too.
    hw.now += 50;
    teardown_seen(&mut hw, slot, ALL_TEARDOWN);
    assert_eq!(flow_class(&mut sp, &mut hw, slot), Some(TcpState::Linger));
    let linger = sp.timeouts.ticks(TcpState::Linger);
    assert_eq!(linger, ms_to_ticks(2000, CLK), "2 s by default");
    hw.now += linger - 1;
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 1, "not before the linger");
    assert_eq!(sp.stats.aged_out, 0);
    hw.now += 1;
    age_all(&mut sp, &mut hw);
    assert_eq!(state_of(hw.entry(slot)[0]), 0, "freed");
    assert!(hw.table.is_empty(), "both keys deleted");
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(sp.stats.aged_out, 1);
}

#[test]
fn the_linger_is_set_with_timeout_set_state_11() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7302);
    ok_words(&mut sp, &mut hw, cmd::TIMEOUT_SET, &[11, 20, 1]);
    let linger = ms_to_ticks(20, CLK);
    assert_eq!(sp.timeouts.ticks(TcpState::Linger), linger);
    // Both FINs acknowledged before the card handled either FIN event: still LINGER.
    teardown_seen(&mut hw, slot, ALL_TEARDOWN);
    hw.now += linger - 1;
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 1);
    hw.now += 1;
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(sp.stats.aged_out, 1);
}

#[test]
fn a_flow_with_one_fin_acknowledged_waits_for_fin_wait_or_time_wait() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7304);
    let one = splice_l4(&mut sp, &mut hw, 7305);
    // Both FINs, only the client's acknowledged: TIME_WAIT.
    both_fins(&mut sp, &mut hw, slot);
    teardown_seen(
        &mut hw,
        slot,
        teardown::FIN_CS | teardown::FIN_SC | teardown::ACKED_CS,
    );
    assert_eq!(flow_class(&mut sp, &mut hw, slot), Some(TcpState::TimeWait));
    // The client's FIN alone, acknowledged: FIN_WAIT.
    hw.forwarded(ev_fin(one, Port::Client));
    sp.poll(&mut hw);
    teardown_seen(&mut hw, one, teardown::FIN_CS | teardown::ACKED_CS);
    assert_eq!(flow_class(&mut sp, &mut hw, one), Some(TcpState::FinWait));
    hw.now += 10 * sp.timeouts.ticks(TcpState::Linger);
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 2, "no linger for either");
    // Their own timeouts still apply.
    ok_words(
        &mut sp,
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::TimeWait as u32, 10, 1],
    );
    age_all(&mut sp, &mut hw);
    assert_eq!(state_of(hw.entry(slot)[0]), 0, "TIME_WAIT over");
    assert_eq!(sp.slots_in_use(), 1);
    ok_words(
        &mut sp,
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::FinWait as u32, 10, 1],
    );
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 0, "FIN_WAIT over");
    assert_eq!(sp.stats.aged_out, 2);
}

#[test]
fn a_reset_flow_keeps_the_close_class_with_both_fins_acknowledged() {
    let mut w = world();
    let (mut sp, mut hw, slot) = spliced_world(&mut w, 7306);
    // No room to track the RST: the flow is left to the CLOSE timeout.
    for _ in 0..RST_PENDING_SLOTS {
        sp.rst_pend_fill(slot, hw.now.wrapping_add(1 << 30));
    }
    rst_from(&mut hw, Port::Client, 7306, slot, 1, 0);
    sp.poll(&mut hw);
    assert_ne!(entry_flag_bits(hw.entry(slot)[0]) & entry_flags::RST, 0);
    teardown_seen(&mut hw, slot, ALL_TEARDOWN);
    assert_eq!(flow_class(&mut sp, &mut hw, slot), Some(TcpState::Close));
    hw.now += sp.timeouts.ticks(TcpState::Linger);
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 1, "no linger after a RST");
    hw.now += sp.timeouts.ticks(TcpState::Close);
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 0, "CLOSE over");
}

// ----- the hardware aging scanner -------------------------------------------------------

/// A splicer configured by [`configure`] (L4 service) on a fake card with an aging scanner
/// ([`AgeModel`]), brought up (`syn_start`: the scanner's table written, enabled).
fn scanner_world(w: &mut World) -> (Splicer<'_>, Fake) {
    let mut hw = Fake::with_scanner();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 1);
    sp.syn_start(&mut hw);
    (sp, hw)
}

/// The scanner writes of a bring-up: every class's timeout (the firmware's ticks), then
/// the firmware's slots as AGE_LIMIT and AGE_CTRL enabled at the default interval.
fn scanner_bring_up(sp: &Splicer) -> Vec<AgeWrite> {
    let mut w: Vec<_> = TcpState::ALL
        .iter()
        .map(|&st| AgeWrite::Timeout(st.index(), sp.timeouts.ticks(st)))
        .collect();
    w.push(AgeWrite::Limit(sp.slots() as u32));
    w.push(AgeWrite::Ctrl {
        enable: true,
        interval: splicenic_layout::AGE_DEFAULT_INTERVAL,
        free: false,
    });
    w
}

/// The firmware's timeouts in ticks, class order.
fn firmware_ticks(sp: &Splicer) -> [u32; STATES] {
    TcpState::ALL.map(|st| sp.timeouts.ticks(st))
}

#[test]
fn bring_up_with_an_aging_scanner_writes_the_timeouts_then_the_limit_and_enables_it() {
    let mut w = world();
    let mut hw = Fake::with_scanner();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    assert!(hw.age.writes.is_empty(), "nothing before bring-up");
    sp.syn_start(&mut hw);
    // The table first: the scanner's reset table (all 0) would report every flow.
    assert_eq!(hw.age.writes, scanner_bring_up(&sp));
    assert_eq!(hw.age.writes.len(), STATES + 2);
    assert_eq!(hw.age_timeouts(), firmware_ticks(&sp));
    assert_eq!(
        hw.age_timeouts()[TcpState::Linger.index()],
        ms_to_ticks(2000, CLK)
    );
    assert!(hw.age.enabled);
    assert_eq!(hw.age.limit, 64, "the firmware's slots, not DP.FLOW_SLOTS");
    // Flows in setup and free slots are never queued (class NONE): the main loop pops
    // nothing, and does not scan itself.
    configure(&mut sp, &mut hw, 1);
    hw.arrive(
        Port::Client,
        seg((CLIENT, 7400), (VIP, 80), 1, 0, tf::SYN, &[], &[], CMAC),
    );
    hw.now += 1 << 20;
    for _ in 0..4 {
        sp.poll(&mut hw);
    }
    assert_eq!(sp.pending(), 1);
    assert_eq!((hw.age.queued, hw.dyn_reads), (0, 0));

    // A card without a scanner: no scanner register is written (the fake asserts) and the
    // firmware scans itself.
    let mut w2 = world();
    let mut hw2 = Fake {
        now: 1000,
        ..Fake::default()
    };
    let mut sp2 = Splicer::new(CLK, 64, w2.tables(), 1, 2);
    configure(&mut sp2, &mut hw2, 1);
    sp2.syn_start(&mut hw2);
    assert!(hw2.age.writes.is_empty());
    let slot = splice_l4(&mut sp2, &mut hw2, 7401);
    let before = hw2.dyn_reads;
    age_all(&mut sp2, &mut hw2);
    assert!(
        hw2.dyn_reads > before,
        "the software scan reads slot {slot}"
    );
}

#[test]
fn with_the_aging_scanner_a_lingering_flow_is_freed_through_its_queue_after_the_linger() {
    let mut w = world();
    let (mut sp, mut hw) = scanner_world(&mut w);
    let slot = splice_l4(&mut sp, &mut hw, 7410);
    both_fins(&mut sp, &mut hw, slot);
    // The final ACK: the server's FIN acknowledged too.
    hw.now += 50;
    teardown_seen(&mut hw, slot, ALL_TEARDOWN);
    assert_eq!(flow_class(&mut sp, &mut hw, slot), Some(TcpState::Linger));
    let linger = sp.timeouts.ticks(TcpState::Linger);
    let (reads, teardown) = (hw.dyn_reads, sp.stats.teardown_cycles);
    hw.now += linger - 1;
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 1, "not before the linger");
    assert_eq!((sp.stats.aged_out, hw.age.queued), (0, 0));
    assert_eq!(
        hw.dyn_reads, reads,
        "no software scan: no entry read at all"
    );
    assert_eq!(sp.stats.teardown_cycles, teardown);
    hw.now += 1;
    age_all(&mut sp, &mut hw);
    assert_eq!(hw.age.queued, 1);
    assert_eq!(state_of(hw.entry(slot)[0]), 0, "freed");
    assert!(hw.table.is_empty(), "both keys deleted");
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(sp.stats.aged_out, 1);
    assert_eq!(hw.dyn_reads, reads + 1, "only the re-check before freeing");
    assert_eq!(sp.stats.aging_stale, 0);
    // The accounting of the software scan: teardown cycles, one AgingFree run.
    assert!(sp.stats.teardown_cycles > teardown);
    let a = sp.profile.of_handler(Handler::AgingFree);
    assert_eq!(a.count, 1);
    assert_eq!(
        a.cycles + sp.profile.of_handler(Handler::FinRst).cycles,
        sp.stats.teardown_cycles
    );
    // The slot is the firmware's again: a later sweep finds nothing.
    hw.now += linger;
    age_all(&mut sp, &mut hw);
    assert_eq!((hw.age.queued, sp.stats.aged_out), (1, 1));
}

#[test]
fn stale_scanner_queue_entries_free_nothing() {
    let mut w = world();
    let (mut sp, mut hw) = scanner_world(&mut w);
    // A flow that lingered and was freed through the queue; its slot queued once more (a
    // second sweep found it before the firmware freed it).
    let gone = splice_l4(&mut sp, &mut hw, 7420);
    teardown_seen(&mut hw, gone, ALL_TEARDOWN);
    // A flow in use, seen just now (queued when it was idle, a segment since).
    let live = splice_l4(&mut sp, &mut hw, 7421);
    hw.now += sp.timeouts.ticks(TcpState::Linger);
    age_all(&mut sp, &mut hw);
    assert_eq!((sp.stats.aged_out, sp.slots_in_use()), (1, 1));
    assert!(sp.slot_is_free(gone));
    // A connection in setup (its slot may have been a queued flow's before).
    hw.arrive(
        Port::Client,
        seg((CLIENT, 7422), (VIP, 80), 1, 0, tf::SYN, &[], &[], CMAC),
    );
    sp.poll(&mut hw);
    assert_eq!(sp.pending(), 1);
    let setup = sp.pend.iter().find(|p| p.used).unwrap().slot;
    let entries = (hw.entry(live), hw.entry(setup), hw.table.len());
    // Never handed out: past the firmware's slots, and not yet used.
    let (beyond, unused) = (100, 40);
    let (reads, aged) = (hw.dyn_reads, sp.stats.aged_out);
    hw.age
        .queue
        .extend([gone, live, setup, beyond, unused].map(|slot| Aged { slot, freed: None }));
    sp.poll(&mut hw);
    assert!(hw.age.queue.is_empty());
    assert_eq!(sp.stats.aged_out, aged, "nothing freed");
    assert_eq!(sp.stats.aging_stale, 5);
    assert_eq!((sp.slots_in_use(), sp.pending()), (2, 1));
    assert_eq!(
        (hw.entry(live), hw.entry(setup), hw.table.len()),
        entries,
        "entries and keys kept"
    );
    assert_eq!(
        hw.dyn_reads,
        reads + 1,
        "only the flow in use is re-read (not expired)"
    );
    assert_eq!(state_of(hw.entry(live)[0]), FlowState::Spliced.raw().into());
}

#[test]
fn more_expired_flows_than_the_scanner_queue_holds_are_all_freed_a_pass_at_a_time() {
    let mut w = world();
    let (mut sp, mut hw) = scanner_world(&mut w);
    let flows = 20;
    let slots: Vec<Slot> = (0..flows)
        .map(|i| splice_l4(&mut sp, &mut hw, 7430 + i))
        .collect();
    for &s in &slots {
        teardown_seen(&mut hw, s, ALL_TEARDOWN);
    }
    let reads = hw.dyn_reads;
    hw.now += sp.timeouts.ticks(TcpState::Linger);
    let depth = splicenic_layout::AGE_QUEUE_DEPTH as usize;
    assert!(flows as usize > depth);
    let mut freed = Vec::new();
    for _ in 0..3 {
        sp.poll(&mut hw);
        assert!(hw.age.queue.len() <= depth);
        freed.push(sp.stats.aged_out);
    }
    assert_eq!(freed, [8, 16, 20], "AGED_PER_PASS a pass");
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(hw.age.queued, u32::from(flows));
    assert_eq!(hw.dyn_reads, reads + u32::from(flows));
    assert_eq!(sp.stats.aging_stale, 0);
    assert!(hw.table.is_empty());
}

/// A splicer on a fake card whose scanner frees LINGER flows itself (AGE_STATUS.FREER).
fn freeing_scanner_world(w: &mut World) -> (Splicer<'_>, Fake) {
    let mut hw = Fake::with_scanner();
    hw.age.freer = true;
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 1);
    sp.syn_start(&mut hw);
    (sp, hw)
}

#[test]
fn a_scanner_that_frees_leaves_the_firmware_only_the_slot_and_the_server_count() {
    let mut w = world();
    let (mut sp, mut hw) = freeing_scanner_world(&mut w);
    assert_eq!(
        hw.age.writes.last(),
        Some(&AgeWrite::Ctrl {
            enable: true,
            interval: splicenic_layout::AGE_DEFAULT_INTERVAL,
            free: true,
        }),
        "FREE set with ENABLE"
    );
    let slot = splice_l4(&mut sp, &mut hw, 7440);
    let e = hw.entry(slot);
    let (active, inactive) = server_counts_of(&mut sp, &mut hw, e);
    assert_eq!(active + inactive, 1);
    // A flow with one FIN (FIN_WAIT) is not the scanner's to free.
    let half = splice_l4(&mut sp, &mut hw, 7441);
    hw.forwarded(ev_fin(half, Port::Client));
    sp.poll(&mut hw);
    teardown_seen(&mut hw, slot, ALL_TEARDOWN);
    let (ops, reads) = (hw.ops, hw.dyn_reads);
    hw.now += sp.timeouts.ticks(TcpState::Linger);
    age_all(&mut sp, &mut hw);
    assert_eq!((hw.age.queued, hw.age.freed), (1, 1));
    assert_eq!(state_of(hw.entry(slot)[0]), 0, "FREE");
    assert_eq!(hw.table.len(), 2, "its keys gone, the other flow's kept");
    assert!(sp.slot_is_free(slot));
    assert_eq!(sp.slots_in_use(), 1);
    assert_eq!((sp.stats.aged_out, sp.stats.aging_stale), (1, 0));
    assert_eq!(
        server_counts_of(&mut sp, &mut hw, e),
        (active + inactive - 1, 0),
        "the server's count released"
    );
    assert_eq!(hw.dyn_reads, reads, "no re-check");
    assert_eq!(
        (hw.ops.read, hw.ops.write, hw.ops.flow_cmd),
        (ops.read, ops.write, ops.flow_cmd),
        "no entry read or write, no key command"
    );
    assert_eq!(sp.profile.of_handler(Handler::AgingFree).count, 1);
    // The FIN_WAIT flow is the firmware's to free, after its own timeout.
    hw.now += sp.timeouts.ticks(TcpState::FinWait);
    age_all(&mut sp, &mut hw);
    assert_eq!((hw.age.freed, sp.stats.aged_out), (1, 2));
    assert_eq!(hw.dyn_reads, reads + 1, "the firmware's re-check");
    assert!(hw.table.is_empty());
    assert_eq!(sp.slots_in_use(), 0);
}

#[test]
fn slots_the_scanner_freed_across_a_restart_are_taken_back_before_any_is_handed_out() {
    let mut w = world();
    let (mut sp, mut hw) = freeing_scanner_world(&mut w);
    let linger = sp.timeouts.ticks(TcpState::Linger);
    let early = splice_l4(&mut sp, &mut hw, 7470);
    let late = splice_l4(&mut sp, &mut hw, 7471);
    teardown_seen(&mut hw, early, ALL_TEARDOWN);
    hw.now += linger / 2;
    teardown_seen(&mut hw, late, ALL_TEARDOWN);
    // The firmware stops; the card frees `early` meanwhile (queued, not taken back).
    hw.now += linger - linger / 2;
    hw.age_walk();
    assert_eq!((hw.age.freed, hw.age.queue.len()), (1, 1));
    assert_eq!(state_of(hw.entry(early)[0]), 0);
    // A new firmware: its rebuild finds `early` free and `late` in use; the card frees
    // `late` after the rebuild read it and before bring-up hands a slot out.
    let mut w2 = world();
    let mut sp = Splicer::new(CLK, 64, w2.tables(), 3, 4);
    hw.now += linger;
    assert_eq!(sp.rebuild(&mut hw), 1);
    assert_eq!(hw.age.freed, 2);
    assert!(
        hw.age.queue.is_empty(),
        "taken back by the rebuild's bring-up"
    );
    assert!(sp.slot_is_free(early) && sp.slot_is_free(late));
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(
        (sp.stats.aged_out, sp.stats.aging_stale),
        (1, 1),
        "`late` taken back, `early` found free by the rebuild"
    );
    assert!(hw.table.is_empty());
}

#[test]
fn a_timeout_change_rewrites_the_scanner_table() {
    let mut w = world();
    let (mut sp, mut hw) = scanner_world(&mut w);
    hw.age.writes.clear();
    ok_words(&mut sp, &mut hw, cmd::TIMEOUT_SET, &[11, 20, 1]);
    let linger = ms_to_ticks(20, CLK);
    assert_eq!(sp.timeouts.ticks(TcpState::Linger), linger);
    let table: Vec<_> = TcpState::ALL
        .iter()
        .map(|&st| AgeWrite::Timeout(st.index(), sp.timeouts.ticks(st)))
        .collect();
    assert_eq!(hw.age.writes, table, "the table, nothing else");
    assert_eq!(hw.age_timeouts(), firmware_ticks(&sp));
    // In seconds too; a refused value writes nothing.
    hw.age.writes.clear();
    ok_words(
        &mut sp,
        &mut hw,
        cmd::TIMEOUT_SET,
        &[TcpState::Close as u32, 3],
    );
    assert_eq!(hw.age.writes.len(), STATES);
    assert_eq!(
        hw.age_timeouts()[TcpState::Close.index()],
        sp.timeouts.ticks(TcpState::Close)
    );
    hw.age.writes.clear();
    let (st, _) = call(&mut sp, &mut hw, cmd::TIMEOUT_SET, &[11, 0]);
    assert_eq!(st, status::BAD_ARGUMENT);
    assert!(hw.age.writes.is_empty());
    // The scanner frees with the new linger.
    let slot = splice_l4(&mut sp, &mut hw, 7450);
    teardown_seen(&mut hw, slot, ALL_TEARDOWN);
    hw.now += linger - 1;
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 1);
    hw.now += 1;
    age_all(&mut sp, &mut hw);
    assert_eq!((sp.slots_in_use(), sp.stats.aged_out), (0, 1));
}

#[test]
fn a_restart_writes_the_scanner_table_and_enable_again() {
    let mut w = world();
    let (mut sp, mut hw) = scanner_world(&mut w);
    // The old firmware's linger was 20 ms.
    ok_words(&mut sp, &mut hw, cmd::TIMEOUT_SET, &[11, 20, 1]);
    let slot = splice_l4(&mut sp, &mut hw, 7460);
    teardown_seen(&mut hw, slot, ALL_TEARDOWN);
    // The firmware restarts: new state, same data path (the scanner still enabled).
    hw.age.writes.clear();
    let mut w2 = world();
    let mut sp = Splicer::new(CLK, 64, w2.tables(), 3, 4);
    assert_eq!(sp.rebuild(&mut hw), 1);
    assert_eq!(
        hw.age.writes,
        scanner_bring_up(&sp),
        "the new firmware's table"
    );
    assert_eq!(
        hw.age_timeouts()[TcpState::Linger.index()],
        ms_to_ticks(2000, CLK)
    );
    // Bring-up after the rebuild writes it again (harmless).
    hw.age.writes.clear();
    sp.syn_start(&mut hw);
    assert_eq!(hw.age.writes, scanner_bring_up(&sp));
    // The kept flow is freed through the queue after the new linger.
    let reads = hw.dyn_reads;
    hw.now += ms_to_ticks(1000, CLK);
    age_all(&mut sp, &mut hw);
    assert_eq!((sp.slots_in_use(), hw.dyn_reads), (1, reads));
    hw.now += ms_to_ticks(1000, CLK);
    age_all(&mut sp, &mut hw);
    assert_eq!((sp.slots_in_use(), sp.stats.aged_out), (0, 1));
    assert_eq!(hw.dyn_reads, reads + 1);
}

/// One connection's setup (SYN, retransmitted SYN, handshake ACK, request, the inline
/// verdict, the server SYN and its retransmission, the server's SYN-ACK and the splice) and
/// the client's FIN, with or without the card's frame generator: every frame the card sent,
/// and the fake.
fn connection_with_generator(txgen: bool, busy: bool) -> (Vec<(Port, Vec<u8>)>, Fake) {
    let (frames, hw, _) = connection_on(Fake {
        now: 1000,
        txgen,
        txgen_busy: busy,
        ..Fake::default()
    });
    (frames, hw)
}

/// [`connection_with_generator`]'s connection on the fake card `hw`: every frame the card
/// sent, the fake, and TCP_STATS (head_replays, head_replays_fw).
fn connection_on(mut hw: Fake) -> (Frames, Fake, (u32, u32)) {
    let mut w = world();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    let slot = splice_one(&mut sp, &mut hw);
    hw.forwarded(ev_fin(slot, Port::Client));
    sp.poll(&mut hw);
    let t = &sp.stats.tcp;
    let replays = (t.head_replays, t.head_replays_fw);
    (hw.log.clone(), hw, replays)
}

#[test]
fn header_only_segments_go_through_the_frame_generator_byte_for_byte() {
    // The same connection with and without the card's generator: the same frames, in the
    // same order, on the same ports; with it every header-only segment in one of its two
    // forms (the SYN-ACKs, the server SYNs, the handshake ACKs) is staged in TXGEN, and only
    // the replay, which carries the request, goes through the inject ring.
    let (plain, off) = connection_with_generator(false, false);
    let (gen, on) = connection_with_generator(true, false);
    assert_eq!(gen, plain);
    assert_eq!(off.ops.tx_gen, 0);
    assert!(on.ops.tx_gen >= 4, "{} generated", on.ops.tx_gen);
    assert_eq!(on.ops.tx_gen + on.ops.inject, off.ops.inject);
    let payload = |f: &[u8]| match parse(f) {
        Parsed::Tcp(s) => s.payload_len(),
        _ => panic!("TCP"),
    };
    let with_payload = plain.iter().filter(|(_, f)| payload(f) > 0).count() as u64;
    assert_eq!(
        on.ops.inject, with_payload,
        "only segments with a payload are injected"
    );
    assert_eq!(
        u64::from(on.txgen_sent[0] + on.txgen_sent[1]),
        on.ops.tx_gen
    );
    assert!(on.txgen_sent[0] > 0 && on.txgen_sent[1] > 0, "both ports");
}

#[test]
fn a_busy_frame_generator_leaves_the_segment_to_the_inject_ring() {
    let (plain, off) = connection_with_generator(false, false);
    let (busy, b) = connection_with_generator(true, true);
    assert_eq!(busy, plain);
    assert_eq!((b.ops.tx_gen, b.ops.inject), (0, off.ops.inject));
}

// ----- the card's request-head buffers (DP.HEAD_*) ---------------------------------------

/// Frames the card sent, with their ports, in order.
type Frames = Vec<(Port, Vec<u8>)>;

/// [`connection_with_generator`] with the card's frame generator and `bufs` request-head
/// buffers (`taken` of them already in use): every frame the card sent, the fake, and
/// TCP_STATS (head_replays, head_replays_fw).
fn connection_with_heads(
    bufs: usize,
    taken: usize,
    busy: bool,
    copy_lost: bool,
) -> (Frames, Fake, (u32, u32)) {
    let mut head_bufs = vec![None; bufs];
    for b in head_bufs.iter_mut().take(taken) {
        *b = Some(Vec::new());
    }
    connection_on(Fake {
        now: 1000,
        txgen: true,
        txgen_busy: busy,
        head_bufs,
        head_copy_lost: copy_lost,
        ..Fake::default()
    })
}

/// The buffers of `hw` in use.
fn heads_in_use(hw: &Fake) -> usize {
    hw.head_bufs.iter().filter(|b| b.is_some()).count()
}

#[test]
fn the_card_replays_the_request_head_from_its_buffer_byte_for_byte() {
    // The same connection with and without the card's head buffers: the same frames, in the
    // same order; with them the request is copied into a buffer as it is buffered and the
    // card sends the replay (nothing goes through the inject ring), and the buffer is back
    // once replayed.
    let (plain, off, off_replays) = connection_with_heads(0, 0, false, false);
    let (heads, on, on_replays) = connection_with_heads(HEAD_BUFS, 0, false, false);
    assert_eq!(heads, plain);
    assert_eq!((off.ops.head_replay, off.ops.inject), (0, 1));
    assert_eq!((on.ops.head_replay, on.ops.inject), (1, 0));
    assert_eq!(on.ops.head_append, 1, "one request segment");
    assert_eq!((off_replays, on_replays), ((0, 1), (1, 0)));
    assert_eq!(heads_in_use(&on), 0);
}

/// The card's buffer count in these tests (HEAD_BUFFERS).
const HEAD_BUFS: usize = splicenic_layout::HEAD_BUFFERS as usize;

#[test]
fn without_a_free_head_buffer_a_good_copy_or_an_idle_generator_the_firmware_replays_the_head() {
    let (plain, ..) = connection_with_heads(0, 0, false, false);
    // every buffer taken: the firmware keeps the head alone
    let (full, f, replays) = connection_with_heads(HEAD_BUFS, HEAD_BUFS, false, false);
    assert_eq!(full, plain);
    assert_eq!(
        (f.ops.head_append, f.ops.head_replay, replays),
        (0, 0, (0, 1))
    );
    assert_eq!(heads_in_use(&f), HEAD_BUFS);
    // the generator busy at the replay: the firmware's replay, the buffer given back
    let (busy, b, replays) = connection_with_heads(HEAD_BUFS, 0, true, false);
    assert_eq!(busy, plain);
    assert_eq!(
        (b.ops.head_append, b.ops.head_replay, replays),
        (1, 0, (0, 1))
    );
    assert_eq!(heads_in_use(&b), 0);
    // the copy lost its frame's ring slot: the firmware's replay, the buffer given back
    let (lost, l, replays) = connection_with_heads(HEAD_BUFS, 0, false, true);
    assert_eq!(lost, plain);
    assert_eq!(
        (l.ops.head_append, l.ops.head_replay, replays),
        (1, 0, (0, 1))
    );
    assert_eq!(heads_in_use(&l), 0);
}

#[test]
fn a_setup_that_ends_early_gives_its_head_buffer_back() {
    // The client resets its connection while the request waits for its verdict: the setup
    // ends, and with it the buffer its request was copied into.
    let mut w = world();
    let mut hw = Fake {
        now: 1000,
        txgen: true,
        head_bufs: vec![None; 4],
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    let isn = 7000;
    let req = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    let (_, card_isn) = connect(&mut sp, &mut hw, 41001, isn, req);
    assert_eq!(heads_in_use(&hw), 1);
    assert_eq!(hw.head_bufs.iter().flatten().next().unwrap(), req);
    hw.arrive(
        Port::Client,
        seg(
            (CLIENT, 41001),
            (VIP, 80),
            isn + 1 + req.len() as u32,
            card_isn + 1,
            tf::RST | tf::ACK,
            &[],
            &[],
            CMAC,
        ),
    );
    sp.poll(&mut hw);
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(heads_in_use(&hw), 0);
}

// ----- the card's FIN counts (DP.FIN_CTRL, DP.FIN_COUNT) ---------------------------------

/// A splicer on a fake card with (`fin_hw`) or without the FIN counts, brought up
/// (`syn_start`), then configured by [`configure`] (L4 service, rr pool of two servers).
fn fin_world(w: &mut World, fin_hw: bool) -> (Splicer<'_>, Fake) {
    let mut hw = Fake {
        now: 1000,
        fin_hw,
        ..Fake::default()
    };
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 1);
    (sp, hw)
}

/// Every real server's (active, inactive) from SERVER_STATS.
fn all_counts(sp: &mut Splicer, hw: &mut Fake) -> Vec<(u32, u32)> {
    (0..SRV.len() as u32)
        .map(|rs| {
            let w = ok_words(sp, hw, cmd::SERVER_STATS, &[rs]);
            (w[0], w[1])
        })
        .collect()
}

/// The real server of the flow in `slot`.
fn rs_of(hw: &Fake, slot: Slot) -> usize {
    entry_rs(hw.entry(slot)[0])
}

/// What the host sees: every server's counts, FLOW_STATS without the cycle sums, TCP_STATS
/// and FLOW_GET (status and words) of each of `flows`.
fn host_view(sp: &mut Splicer, hw: &mut Fake, flows: &[Slot]) -> Vec<u32> {
    let mut v: Vec<u32> = all_counts(sp, hw)
        .into_iter()
        .flat_map(|(a, i)| [a, i])
        .collect();
    let f = ok_words(sp, hw, cmd::FLOW_STATS, &[]);
    v.extend_from_slice(&f[..10]);
    v.extend_from_slice(&f[14..]);
    v.extend(ok_words(sp, hw, cmd::TCP_STATS, &[]));
    for &slot in flows {
        let (st, words) = call(sp, hw, cmd::FLOW_GET, &[u32::from(slot)]);
        v.push(st);
        v.extend(words);
    }
    v
}

/// A script of four connections closed by FINs, RSTs and aging on a card with or without
/// the FIN counts, with what must hold at each step; returns the host's view after each.
fn fin_script(fin_hw: bool) -> Vec<Vec<u32>> {
    let mut w = world();
    let (mut sp, mut hw) = fin_world(&mut w, fin_hw);
    let flows = [7500, 7501, 7502, 7503].map(|p| splice_l4(&mut sp, &mut hw, p));
    let [a, b, c, d] = flows;
    let (r0, r1) = (rs_of(&hw, a), rs_of(&hw, b));
    assert_ne!(r0, r1);
    assert_eq!((rs_of(&hw, c), rs_of(&hw, d)), (r0, r1));
    let mut views = vec![host_view(&mut sp, &mut hw, &flows)];
    let counts = |sp: &mut Splicer, hw: &mut Fake| {
        let c = all_counts(sp, hw);
        (c[r0], c[r1])
    };
    assert_eq!(counts(&mut sp, &mut hw), ((2, 0), (2, 0)));

    // a: the client's FIN, then the server's.
    hw.fin(a, Port::Client, 5000, 10);
    sp.poll(&mut hw);
    assert_eq!(hw.events.len(), 0);
    assert_eq!(counts(&mut sp, &mut hw), ((1, 1), (2, 0)));
    assert_eq!(flow_class(&mut sp, &mut hw, a), Some(TcpState::FinWait));
    assert_eq!(sp.stats.closed, 1);
    views.push(host_view(&mut sp, &mut hw, &flows));
    hw.fin(a, Port::Server, 9000, 0);
    sp.poll(&mut hw);
    assert_eq!(
        counts(&mut sp, &mut hw),
        ((1, 1), (2, 0)),
        "one move a flow"
    );
    assert_eq!(flow_class(&mut sp, &mut hw, a), Some(TcpState::TimeWait));
    views.push(host_view(&mut sp, &mut hw, &flows));
    // b: the server's FIN first, the client's (twice: retransmitted) after it.
    hw.fin(b, Port::Server, 9000, 0);
    hw.fin(b, Port::Client, 6000, 0);
    hw.fin(b, Port::Client, 6000, 0);
    sp.poll(&mut hw);
    assert_eq!(counts(&mut sp, &mut hw), ((1, 1), (1, 1)));
    assert_eq!(flow_class(&mut sp, &mut hw, b), Some(TcpState::TimeWait));
    assert_eq!(sp.stats.closed, 2);
    views.push(host_view(&mut sp, &mut hw, &flows));
    // c: a FIN, then a RST: counted once.
    hw.fin(c, Port::Client, 7000, 0);
    sp.poll(&mut hw);
    rst_from(&mut hw, Port::Server, 7502, c, 1, 0);
    sp.poll(&mut hw);
    assert_eq!(counts(&mut sp, &mut hw), ((0, 2), (1, 1)));
    assert_eq!(flow_class(&mut sp, &mut hw, c), Some(TcpState::Close));
    assert_eq!((sp.stats.closed, sp.rst_pending()), (3, 1));
    views.push(host_view(&mut sp, &mut hw, &flows));
    // d: a RST, then a FIN (the flow no longer active: not counted by the card).
    rst_from(&mut hw, Port::Client, 7503, d, 1, 0);
    sp.poll(&mut hw);
    hw.fin(d, Port::Client, 8000, 0);
    sp.poll(&mut hw);
    assert_eq!(counts(&mut sp, &mut hw), ((0, 2), (0, 2)));
    assert_eq!((sp.stats.closed, sp.rst_pending()), (4, 2));
    views.push(host_view(&mut sp, &mut hw, &flows));
    // d's receiver answers: restored, CLOSING with its FIN; c's stays silent: freed.
    receiver_sends(&mut hw, d, FlowDyn::PACKETS_SC);
    hw.now += ms_to_ticks(RST_PENDING_MS, CLK) + 1;
    sp.poll(&mut hw);
    assert_eq!(
        (sp.stats.tcp.rst_restored, sp.stats.tcp.rst_freed_silent),
        (1, 1)
    );
    assert!(sp.slot_is_free(c));
    assert_eq!(flow_class(&mut sp, &mut hw, d), Some(TcpState::FinWait));
    assert_eq!(counts(&mut sp, &mut hw), ((0, 1), (0, 2)));
    assert_eq!(sp.stats.closed, 4);
    views.push(host_view(&mut sp, &mut hw, &flows));
    // Aging: a lingers (both FINs acknowledged), b waits TIME_WAIT, d FIN_WAIT.
    teardown_seen(&mut hw, a, ALL_TEARDOWN);
    assert_eq!(flow_class(&mut sp, &mut hw, a), Some(TcpState::Linger));
    hw.now += sp.timeouts.ticks(TcpState::Linger);
    age_all(&mut sp, &mut hw);
    assert!(sp.slot_is_free(a));
    assert_eq!(counts(&mut sp, &mut hw), ((0, 0), (0, 2)));
    views.push(host_view(&mut sp, &mut hw, &flows));
    assert_eq!(sp.slots_in_use(), 2);
    hw.now += sp.timeouts.ticks(TcpState::TimeWait) + sp.timeouts.ticks(TcpState::FinWait);
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 0);
    assert_eq!(counts(&mut sp, &mut hw), ((0, 0), (0, 0)));
    assert_eq!((sp.stats.closed, sp.stats.aged_out), (4, 3));
    views.push(host_view(&mut sp, &mut hw, &flows));
    assert!(hw.events.is_empty());
    if fin_hw {
        assert!(hw.fin_events_off, "no FIN event on a card that counts");
        assert_eq!(hw.fin_counts[&(r0 as u8)] + hw.fin_counts[&(r1 as u8)], 3);
    }
    views
}

#[test]
fn the_cards_fin_counts_close_connections_exactly_as_the_fin_events_do() {
    let events = fin_script(false);
    let counted = fin_script(true);
    assert_eq!(events.len(), counted.len());
    for (step, (e, c)) in events.iter().zip(&counted).enumerate() {
        assert_eq!(e, c, "step {step}");
    }
}

#[test]
fn the_cards_fins_are_folded_when_the_counts_are_read_and_stale_fin_events_are_dropped() {
    let mut w = world();
    let mut hw = Fake {
        now: 1000,
        fin_hw: true,
        ..Fake::default()
    };
    // The card's counts so far (another firmware's flows): taken as applied at bring-up,
    // and a count about to wrap.
    hw.fin_counts.insert(0, u32::MAX);
    hw.fin_counts.insert(1, 17);
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    sp.syn_start(&mut hw);
    assert!(sp.fin_hw && hw.fin_events_off, "FIN events off at bring-up");
    assert_eq!(sp.fin_seen[..2], [u32::MAX, 17]);
    // Bring-up again (after a rebuild): the counts are not taken again.
    hw.fin_counts.insert(1, 18);
    sp.syn_start(&mut hw);
    assert_eq!(sp.fin_seen[1], 17);
    hw.fin_counts.insert(1, 17);
    configure(&mut sp, &mut hw, 1);
    let slot = splice_l4(&mut sp, &mut hw, 7510);
    let rs = rs_of(&hw, slot);
    let e = hw.entry(slot);
    hw.fin(slot, Port::Client, 100, 0);
    assert!(hw.events.is_empty(), "no event");
    // A FIN_RST event queued before the events were turned off: the card counted its FIN.
    hw.forwarded(ev_fin(slot, Port::Client));
    sp.poll(&mut hw);
    assert_eq!(hw.entry(slot), e, "the entry is not written for a FIN");
    let sid = usize::from(sp.rs[rs].sid);
    let raw = |sp: &Splicer| {
        let s = sp.pools[1].as_ref().unwrap().servers.get(sid).unwrap();
        (s.activeconns(), s.inactconns())
    };
    assert_eq!(raw(&sp), (1, 0), "not folded yet");
    assert_eq!(sp.stats.closed, 0);
    assert_eq!(
        server_counts(&mut sp, &mut hw, slot),
        (0, 1),
        "SERVER_STATS folds"
    );
    assert_eq!(sp.stats.closed, 1);
    // SERVER_GET too; a second read moves nothing more.
    let g = ok_words(&mut sp, &mut hw, cmd::SERVER_GET, &[rs as u32]);
    assert_eq!((g[9], g[10]), (0, 1));
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::FLOW_STATS, &[])[8], 1);
    // FLOW_GET shows the card's view: CLOSING, FIN_CLIENT, not ACTIVE.
    let g = ok_words(&mut sp, &mut hw, cmd::FLOW_GET, &[u32::from(slot)]);
    assert_eq!(g[0] & 0xff, u32::from(FlowState::Closing.raw()));
    assert_eq!(
        (g[0] >> 8) as u8 & (entry_flags::FIN_CLIENT | entry_flags::ACTIVE),
        entry_flags::FIN_CLIENT
    );
    // ZERO folds first: a FIN counted before it is not a close after it.
    let other = splice_l4(&mut sp, &mut hw, 7511);
    hw.fin(other, Port::Server, 100, 0);
    ok_words(&mut sp, &mut hw, cmd::ZERO, &[]);
    assert_eq!(ok_words(&mut sp, &mut hw, cmd::FLOW_STATS, &[])[8], 0);
    let rs2 = rs_of(&hw, other);
    let g = ok_words(&mut sp, &mut hw, cmd::SERVER_STATS, &[rs2 as u32]);
    assert_eq!((g[0], g[1]), (0, 1));
    // A count that runs away (more FINs than active flows): no underflow, nothing moved.
    *hw.fin_counts.get_mut(&(rs as u8)).unwrap() += 5;
    assert_eq!(server_counts(&mut sp, &mut hw, slot), (0, 1));
}

#[test]
fn a_lingering_flow_the_card_frees_after_its_fins_leaves_its_server_at_zero() {
    let run = |fin_hw: bool| {
        let mut w = world();
        let mut hw = Fake::with_scanner();
        hw.age.freer = true;
        hw.fin_hw = fin_hw;
        let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
        configure(&mut sp, &mut hw, 1);
        sp.syn_start(&mut hw);
        let slot = splice_l4(&mut sp, &mut hw, 7520);
        let e = hw.entry(slot);
        // Both FINs and both acknowledged, no count read in between.
        hw.fin(slot, Port::Client, 100, 0);
        hw.fin(slot, Port::Server, 200, 0);
        sp.poll(&mut hw);
        teardown_seen(&mut hw, slot, ALL_TEARDOWN);
        hw.now += sp.timeouts.ticks(TcpState::Linger);
        age_all(&mut sp, &mut hw);
        assert_eq!(
            (hw.age.freed, sp.stats.aged_out),
            (1, 1),
            "the card freed it"
        );
        assert!(sp.slot_is_free(slot));
        let counts = server_counts_of(&mut sp, &mut hw, e);
        assert_eq!(counts, (0, 0), "fin_hw {fin_hw}");
        let f = ok_words(&mut sp, &mut hw, cmd::FLOW_STATS, &[]);
        (counts, f[7], f[8])
    };
    assert_eq!(run(true), run(false));
    assert_eq!(run(true), ((0, 0), 1, 1));
}

#[test]
fn a_time_wait_flow_is_replaced_by_a_syn_beyond_the_cards_fin_end() {
    let run = |fin_hw: bool| {
        let mut w = world();
        let (mut sp, mut hw) = fin_world(&mut w, fin_hw);
        let slot = splice_l4(&mut sp, &mut hw, 7530);
        let e = hw.entry(slot);
        let fin_seq = 0xffff_fff0;
        hw.fin(slot, Port::Client, fin_seq, 20);
        sp.poll(&mut hw);
        let end = fin_seq.wrapping_add(21);
        assert_eq!(field(&hw.counters[&slot], FlowDyn::FIN_END_CS), end);
        let fw = hw.entry(slot)[FlowStatic::FW_WORD.lsb / 32];
        // With the card's counts the entry is not written: the card's end decides.
        assert_eq!(fw, if fin_hw { 0 } else { end });
        let syn = |isn| seg((CLIENT, 7530), (VIP, 80), isn, 0, tf::SYN, &[], &[], CMAC);
        // Client FIN only: the server may have gone; the SYN is dropped.
        hw.arrive(Port::Client, syn(end.wrapping_add(1000)));
        sp.poll(&mut hw);
        assert!(hw.take_wire().is_empty());
        assert_eq!(sp.stats.tcp.syn_dropped, 1);
        hw.fin(slot, Port::Server, 7, 0);
        sp.poll(&mut hw);
        // TIME_WAIT: an ISN at or before the client's end is an old duplicate (beyond 0,
        // the entry's firmware word with the card's counts); beyond it (across 2^32) the
        // old flow goes and the SYN starts a new connection.
        hw.arrive(Port::Client, syn(end));
        sp.poll(&mut hw);
        assert!(hw.take_wire().is_empty());
        assert_eq!(sp.stats.tcp.syn_dropped, 2);
        assert_eq!(sp.slots_in_use(), 1);
        let isn = end.wrapping_add(0x10_0000);
        hw.arrive(Port::Client, syn(isn));
        sp.poll(&mut hw);
        let (port, sa) = hw.one_tcp();
        assert_eq!((port, sa.flags), (Port::Client, tf::SYN | tf::ACK));
        assert_eq!(sa.ack, isn.wrapping_add(1));
        assert_eq!(sp.stats.tcp.tw_replaced, 1);
        assert_eq!((sp.pending(), sp.slots_in_use()), (1, 1));
        assert_eq!(sp.stats.aged_out, 0);
        let counts = server_counts_of(&mut sp, &mut hw, e);
        assert_eq!(counts, (0, 0), "the old flow released, inactive");
        (counts, sp.stats.closed, sp.stats.tcp)
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn a_rebuild_restores_the_counts_from_the_entries_and_the_cards_teardown_view() {
    let mut w = world();
    let (mut sp, mut hw) = fin_world(&mut w, true);
    let flows = [7540, 7541, 7542].map(|p| splice_l4(&mut sp, &mut hw, p));
    let [a, b, c] = flows;
    let (r0, r1) = (rs_of(&hw, a), rs_of(&hw, b));
    assert_eq!(rs_of(&hw, c), r0);
    // FINs on a and b the old firmware never folded.
    hw.fin(a, Port::Client, 100, 0);
    hw.fin(b, Port::Server, 100, 0);
    // The firmware restarts: new state, same data path and counts.
    let mut w2 = world();
    let mut sp = Splicer::new(CLK, 64, w2.tables(), 3, 4);
    assert_eq!(sp.rebuild(&mut hw), 3);
    assert_eq!(sp.restored[r0], (1, 1));
    assert_eq!(sp.restored[r1], (0, 1));
    // A FIN on c after the rebuild, before its server is configured again.
    hw.fin(c, Port::Client, 100, 0);
    sp.syn_start(&mut hw);
    configure(&mut sp, &mut hw, 1);
    let counts = all_counts(&mut sp, &mut hw);
    assert_eq!((counts[r0], counts[r1]), ((0, 2), (0, 1)));
    assert_eq!(sp.stats.closed, 1, "only the FIN since the restart");
    // The flows free with the right counts (TIME_WAIT, FIN_WAIT).
    hw.now += sp.timeouts.ticks(TcpState::TimeWait);
    age_all(&mut sp, &mut hw);
    assert_eq!(sp.slots_in_use(), 0);
    let counts = all_counts(&mut sp, &mut hw);
    assert_eq!((counts[r0], counts[r1]), ((0, 0), (0, 0)));
}

#[test]
fn a_scheduler_that_reads_the_active_counts_sees_the_cards_fins_before_it_picks() {
    let mut w = world();
    let (mut sp, mut hw) = fin_world(&mut w, true);
    // rr reads no counts: a pick reads no FIN count.
    let reads = hw.fin_reads;
    let a = splice_l4(&mut sp, &mut hw, 7550);
    assert_eq!(hw.fin_reads, reads);
    let b = splice_l4(&mut sp, &mut hw, 7551);
    let (r0, r1) = (rs_of(&hw, a), rs_of(&hw, b));
    assert_ne!(r0, r1);
    // wlc (code 3): both servers have one active connection; b's ends with a FIN, so its
    // server has the least load once the FIN is folded.
    ok_words(&mut sp, &mut hw, cmd::POOL_SET, &[1, 3, 0, 0, u32::MAX]);
    hw.fin(b, Port::Server, 100, 0);
    let reads = hw.fin_reads;
    let c = splice_l4(&mut sp, &mut hw, 7552);
    assert!(hw.fin_reads > reads);
    assert_eq!(rs_of(&hw, c), r1, "the server whose connection closed");
    let counts = all_counts(&mut sp, &mut hw);
    assert_eq!((counts[r0], counts[r1]), ((1, 0), (1, 1)));
}

#[test]
fn the_cards_fin_flags_count_as_the_entrys_in_the_timeout_class() {
    use entry_flags::{ACTIVE, FIN_CLIENT, FIN_SERVER, RST};
    use teardown::{ACKED_CS, ACKED_SC, FIN_CS, FIN_SC};
    let w0 = |st: FlowState, flags: u8| {
        FlowStatic::STATE.place32(st.raw().into()) | FlowStatic::FLAGS.place32(flags.into())
    };
    let d = |td: u8| {
        let mut d = [0u32; DYN_WORDS];
        FlowDyn::TEARDOWN.put(&mut d, td.into());
        d
    };
    let cases = [
        (FlowState::Spliced, ACTIVE, FIN_CS, TcpState::FinWait),
        (
            FlowState::Spliced,
            ACTIVE,
            FIN_SC | ACKED_SC,
            TcpState::FinWait,
        ),
        (
            FlowState::Spliced,
            ACTIVE,
            FIN_CS | FIN_SC,
            TcpState::TimeWait,
        ),
        (
            FlowState::Spliced,
            ACTIVE,
            FIN_CS | FIN_SC | ACKED_CS,
            TcpState::TimeWait,
        ),
        (FlowState::Spliced, ACTIVE, ALL_TEARDOWN, TcpState::Linger),
        (FlowState::Closing, FIN_CLIENT, FIN_SC, TcpState::TimeWait),
        (FlowState::Closing, FIN_SERVER, FIN_SC, TcpState::FinWait),
        (FlowState::Closing, RST, FIN_CS | FIN_SC, TcpState::Close),
        (
            FlowState::Closing,
            RST | FIN_CLIENT,
            ALL_TEARDOWN,
            TcpState::Close,
        ),
        (FlowState::Closing, 0, 0, TcpState::FinWait),
        (FlowState::Spliced, ACTIVE, ACKED_CS, TcpState::Established),
    ];
    for (st, flags, td, want) in cases {
        assert_eq!(
            Splicer::timeout_class(w0(st, flags), &d(td)),
            Some(want),
            "{st:?} flags {flags:#x} teardown {td:#x}"
        );
    }
}

// ----- the card's SYN-ACK absorber (DP.ABSORB_*) ------------------------------------------

/// What happens between the server SYN and its SYN-ACK in [`absorber_connection`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum BeforeSynAck {
    Nothing,
    /// The client sends more bytes (right after the head) while the server is connected.
    ClientData,
    /// The same, but the card absorbs the SYN-ACK before the firmware reads the client's
    /// segment (its punt comes first), the done queue full (a record in the queue is read
    /// before the punts, so the firmware would know the connection spliced).
    ClientDataAbsorbedFirst,
    /// (After the SYN-ACK.) The card counts the connection's first FIN (it was served and
    /// closed) and the firmware folds the counts before it reads the SYN-ACK's punt.
    ClosedBeforeBookkeeping,
    /// The card absorbs the SYN-ACK while its done queue is full: the SYN-ACK is punted
    /// with verdict ABSORBED instead of queued.
    Spilled,
    /// (After the SYN-ACK.) As `Spilled`, and the punt is lost (a full punt ring).
    PuntLost,
    /// (After the SYN-ACK.) As `PuntLost`, and the server resets the connection after the
    /// head: its RST is punted before the firmware knows the card spliced the connection.
    ServerRstBeforeBookkeeping,
    /// (After the SYN-ACK.) As `PuntLost`, and the connection is served, closed and freed
    /// by the card's aging scanner (a short LINGER) before the firmware's next look.
    FreedBeforeBookkeeping,
}

/// One connection through the server's SYN-ACK on a card with frame generator and head
/// buffers, with or without the SYN-ACK absorber: every frame the card sent, the fake, the
/// splicer's TCP_STATS, the slot and its server's (active, inactive) counts at the end.
fn absorber_connection(
    absorber: bool,
    before: BeforeSynAck,
) -> (Frames, Fake, TcpStats, Slot, (u32, u32)) {
    let mut hw = Fake {
        now: 1000,
        txgen: true,
        head_bufs: vec![None; HEAD_BUFS],
        absorber,
        absorb_spill: matches!(
            before,
            BeforeSynAck::Spilled
                | BeforeSynAck::ClientDataAbsorbedFirst
                | BeforeSynAck::PuntLost
                | BeforeSynAck::FreedBeforeBookkeeping
                | BeforeSynAck::ServerRstBeforeBookkeeping
        ),
        fin_hw: before == BeforeSynAck::ClosedBeforeBookkeeping,
        age: AgeModel {
            depth: splicenic_layout::AGE_QUEUE_DEPTH as usize,
            ..AgeModel::default()
        },
        ..Fake::default()
    };
    let mut w = world();
    let mut sp = Splicer::new(CLK, 64, w.tables(), 1, 2);
    configure(&mut sp, &mut hw, 2);
    // bring-up (the card's blocks turned on; this fake has no SYN responder)
    sp.syn_start(&mut hw);
    let isn = 5000;
    let req = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    let (slot, card_isn) = connect(&mut sp, &mut hw, 41000, isn, req);
    hw.events.push_back(ev_matched(slot, 0, 1, 7, false));
    sp.poll(&mut hw);
    let syn = server_syn(&hw.take_sent()).expect("server SYN");
    let armed = SetupCtx::unpack(&hw.entry(slot));
    assert_eq!(armed.armed, absorber, "armed with the absorber only");
    let more = seg(
        (CLIENT, 41000),
        (VIP, 80),
        isn + 1 + req.len() as u32,
        card_isn.wrapping_add(1),
        tf::ACK | tf::PSH,
        &ts(103, 0),
        b"GET /b HTTP/1.1\r\n",
        CMAC,
    );
    let sa = server_synack(&syn, isn);
    match before {
        BeforeSynAck::Nothing => {}
        BeforeSynAck::ClientData => {
            hw.arrive(Port::Client, more);
            sp.poll(&mut hw);
        }
        BeforeSynAck::ClientDataAbsorbedFirst => hw.arrive(Port::Client, more),
        BeforeSynAck::ClosedBeforeBookkeeping
        | BeforeSynAck::Spilled
        | BeforeSynAck::ServerRstBeforeBookkeeping
        | BeforeSynAck::PuntLost
        | BeforeSynAck::FreedBeforeBookkeeping => {}
    }
    hw.arrive(Port::Server, sa);
    if before == BeforeSynAck::PuntLost {
        let (_, meta) = hw.punts.pop_back().expect("the SYN-ACK's punt");
        assert_eq!(
            field(&meta, PuntMeta::ENGINE) as u8,
            engine_verdict::ABSORBED
        );
        sp.poll(&mut hw);
        assert_eq!((sp.stats.spliced, sp.pending()), (0, 1), "not known yet");
        hw.now += ms_to_ticks(ABSORB_CHECK_MS, CLK) + 1;
    }
    if before == BeforeSynAck::ServerRstBeforeBookkeeping {
        let (_, meta) = hw.punts.pop_back().expect("the SYN-ACK's punt");
        assert_eq!(
            field(&meta, PuntMeta::ENGINE) as u8,
            engine_verdict::ABSORBED
        );
        let mut rst = seg(
            (syn.dst_ip, 8080),
            (LOCAL, syn.src_port),
            10,
            isn + 1 + req.len() as u32,
            tf::RST | tf::ACK,
            &[],
            &[],
            CMAC,
        );
        rst[0..6].copy_from_slice(&CARD_S);
        hw.arrive(Port::Server, rst);
    }
    if before == BeforeSynAck::FreedBeforeBookkeeping {
        let (_, meta) = hw.punts.pop_back().expect("the SYN-ACK's punt");
        assert_eq!(
            field(&meta, PuntMeta::ENGINE) as u8,
            engine_verdict::ABSORBED
        );
        // the scanner's free: both keys deleted, the entry FREE, the slot queued
        let w = hw.entry(slot);
        hw.table.remove(&decode_half(&w, CLIENT_HALF).key());
        hw.table.remove(&decode_half(&w, SERVER_HALF).key());
        hw.mem.insert(slot, ([0; STATIC_WORDS], hw.now));
        hw.age.queue.push_back(Aged {
            slot,
            freed: Some(Freed {
                rs: armed.real_server,
                active: true,
                client: CLIENT,
            }),
        });
    }
    if before == BeforeSynAck::ClosedBeforeBookkeeping {
        let rs = FlowStatic::REAL_SERVER.get32(hw.entry(slot)[0]);
        *hw.fin_counts.entry(rs as u8).or_default() += 1;
        let w = ok_words(&mut sp, &mut hw, cmd::SERVER_STATS, &[rs]);
        assert_eq!(
            (w[0], w[1]),
            (0, 1),
            "counted inactive: nothing active to move yet"
        );
    }
    sp.poll(&mut hw);
    sp.poll(&mut hw);
    assert_eq!(sp.stats.spliced, 1);
    assert_eq!(sp.pending(), 0);
    let w = ok_words(
        &mut sp,
        &mut hw,
        cmd::SERVER_STATS,
        &[armed.real_server.into()],
    );
    if before == BeforeSynAck::FreedBeforeBookkeeping {
        assert_eq!(
            (sp.stats.aged_out, sp.slots_in_use()),
            (1, 0),
            "{:?}",
            sp.stats
        );
    }
    (hw.log.clone(), hw, sp.stats.tcp, slot, (w[0], w[1]))
}

#[test]
fn the_card_absorbs_the_servers_synack_byte_for_byte() {
    // The same connection with and without the card's absorber: the same frames, the same
    // SPLICED entry; with it the firmware armed the CONNECTING entry with the setup's
    // context, the card wrote the entry and sent the handshake ACK with the head, and the
    // firmware only did the bookkeeping.
    let (plain, off, t_off, slot, c_off) = absorber_connection(false, BeforeSynAck::Nothing);
    let (card, on, t_on, _, c_on) = absorber_connection(true, BeforeSynAck::Nothing);
    assert_eq!((c_off, c_on), ((1, 0), (1, 0)), "active on its server");
    assert_eq!(card, plain);
    assert_eq!(on.entry(slot), off.entry(slot), "the SPLICED entry");
    assert_eq!((off.absorbed, on.absorbed), (0, 1));
    assert_eq!((off.ops.head_replay, on.ops.head_replay), (1, 0));
    assert_eq!((t_off.absorbed, t_on.absorbed), (0, 1));
    assert_eq!((t_on.head_replays, t_on.head_replays_fw), (1, 0));
    assert_eq!((t_on.absorbed_found, t_on.absorb_disarmed), (0, 0));
    assert!(on.disarms.is_empty(), "nothing taken back");
    assert_eq!(heads_in_use(&on), 0);
    // The SYN-ACK was not punted: the bookkeeping came from the absorber's done queue.
    assert_eq!((on.absorb_queued, on.absorb_queue.len()), (1, 0));
}

#[test]
fn a_synack_absorbed_while_the_done_queue_is_full_is_bookkept_from_its_punt() {
    // The card's done queue is full: the absorbed SYN-ACK comes as a punt with verdict
    // ABSORBED and the firmware does the same bookkeeping from it.
    let (plain, ..) = absorber_connection(true, BeforeSynAck::Nothing);
    let (spilled, on, t, _, counts) = absorber_connection(true, BeforeSynAck::Spilled);
    assert_eq!(spilled, plain);
    assert_eq!(on.absorb_queued, 0);
    assert_eq!((t.absorbed, t.absorbed_found, t.head_replays), (1, 0, 1));
    assert_eq!(counts, (1, 0));
    assert_eq!(heads_in_use(&on), 0);
}

#[test]
fn client_data_before_the_synack_takes_the_entry_back_from_the_card() {
    // The client sends more while the server is being connected: the firmware takes the
    // armed entry back before it buffers the bytes (DISARMED), and handles the SYN-ACK as
    // without the absorber: the same frames.
    let (plain, off, _, slot, _) = absorber_connection(false, BeforeSynAck::ClientData);
    let (card, on, t, _, _) = absorber_connection(true, BeforeSynAck::ClientData);
    assert_eq!(card, plain);
    assert_eq!(on.entry(slot), off.entry(slot));
    assert_eq!(on.disarms, [DisarmResult::Disarmed]);
    assert_eq!((on.absorbed, t.absorbed, t.absorb_disarmed), (0, 0, 1));
    assert_eq!(heads_in_use(&on), 0);
}

#[test]
fn a_synack_the_card_absorbed_first_wins_over_the_firmwares_take_back() {
    // The card absorbs the SYN-ACK before the firmware reads the client's segment punted
    // ahead of it: the take-back finds the entry spliced (ABSORBED), the firmware does the
    // bookkeeping and drops the segment unacknowledged (the client sends it again, through
    // the splice); the SYN-ACK's punt then has nothing left to do.
    let (plain, off, _, slot, _) = absorber_connection(false, BeforeSynAck::Nothing);
    let (card, on, t, _, _) = absorber_connection(true, BeforeSynAck::ClientDataAbsorbedFirst);
    assert_eq!(card, plain, "no frame for the dropped segment");
    assert_eq!(on.entry(slot), off.entry(slot));
    assert_eq!(on.disarms, [DisarmResult::Absorbed]);
    assert_eq!((t.absorbed, t.absorbed_found, t.absorb_disarmed), (1, 1, 0));
    assert_eq!(heads_in_use(&on), 0);
}

#[test]
fn a_fin_the_card_counted_before_the_bookkeeping_still_leaves_the_server_inactive() {
    // The card spliced, served and closed the connection (its first FIN counted for the
    // server) before the firmware read the SYN-ACK's punt, and a fold came between: the move
    // it could not make then is made at the bookkeeping, so the server ends with the
    // connection inactive, not active for ever.
    let (_, _, t, _, counts) = absorber_connection(true, BeforeSynAck::ClosedBeforeBookkeeping);
    assert_eq!(t.absorbed, 1);
    assert_eq!(counts, (0, 1));
}

#[test]
fn an_absorbed_synack_whose_punt_was_lost_is_found_at_the_next_look() {
    // The card absorbed the SYN-ACK but its punt was dropped (a full punt ring): within
    // ABSORB_CHECK_MS the firmware reads the armed setup's entry, finds it spliced and does
    // the bookkeeping; the frames are those of the connection whose punt came, no server SYN
    // sent again.
    let (plain, ..) = absorber_connection(true, BeforeSynAck::Nothing);
    let (lost, on, t, _, counts) = absorber_connection(true, BeforeSynAck::PuntLost);
    assert_eq!(lost, plain);
    assert_eq!((t.absorbed, t.absorbed_found), (1, 1));
    assert_eq!(counts, (1, 0));
    assert!(on.disarms.is_empty());
}

#[test]
fn an_absorbed_connection_the_card_freed_before_the_bookkeeping_is_counted_and_freed() {
    // The card absorbed the SYN-ACK (its punt lost), and the connection was served, closed
    // and freed by the card's aging scanner before the firmware's next look: the popped
    // record does the setup's bookkeeping first, then the free (slot back, counts to 0).
    let (_, _, t, _, counts) = absorber_connection(true, BeforeSynAck::FreedBeforeBookkeeping);
    assert_eq!((t.absorbed, t.absorbed_found), (1, 1));
    assert_eq!(counts, (0, 0));
}

#[test]
fn a_server_rst_read_before_the_bookkeeping_of_an_absorbed_setup_reaches_the_client() {
    // The card spliced the connection (its record not read yet: here the spilled SYN-ACK's
    // punt was lost) and the server resets it after reading the head: the RST's punt takes
    // the armed entry back, finds it spliced, does the bookkeeping and forwards the RST to
    // the client as for any spliced flow.
    let (frames, on, t, ..) = absorber_connection(true, BeforeSynAck::ServerRstBeforeBookkeeping);
    assert_eq!((t.absorbed, t.absorbed_found), (1, 1));
    assert_eq!(on.disarms, [DisarmResult::Absorbed]);
    let to_client: Vec<TcpSeg> = frames
        .iter()
        .filter_map(|(p, f)| match parse(f) {
            Parsed::Tcp(s) if *p == Port::Client && s.has(tf::RST) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(to_client.len(), 1, "the server's RST to the client");
    assert_eq!(to_client[0].dst_port, 41000);
}
