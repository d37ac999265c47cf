//! RSTs and SYNs on spliced flows (RFC 5961, RFC 6191; docs/flowmgr.md, "Resets and SYNs
//! on spliced flows").
//!
//! The data path forwards every RST of a spliced flow, translated into the receiver's
//! sequence space, and raises a FIN_RST event. The receiver applies RFC 5961 §3.2 itself
//! (Linux does): a RST exactly at its next expected number resets it, one elsewhere in its
//! window gets a challenge ACK, one outside it is dropped. The card cannot tell which
//! happened from the RST alone (it keeps no per-flow window), so the flow enters
//! *RST-pending* for [`RST_PENDING_MS`] or the CLOSE timeout if shorter (the data path keeps forwarding it, state CLOSING with
//! the RST flag) and the card sends the receiver a *probe*: one byte at a sequence number
//! half the number space away from the RST's, so outside every window. A receiver that is
//! still connected answers it with a duplicate ACK (RFC 793; Linux does not rate-limit
//! that for segments with data); one that accepted the RST has no connection and answers
//! with a RST. Any non-RST segment from the receiver forwarded after the probe restores the
//! flow (SPLICED, or CLOSING with its FIN flags); a RST from the receiver frees it at once;
//! silence frees it when the pending time ends. A blind RST therefore never costs a live
//! connection its flow, idle or not.
//!
//! A SYN on a spliced 4-tuple is never a new connection (RFC 5961 §4): while the server has a
//! connection (no FIN from the client yet) the SYN goes to the server translated, and the
//! server's own challenge ACK reaches the client through the splice, at most one per flow per
//! [`CHALLENGE_MS`] (a per-flow limit in the entry's `fw_word`, no global counter:
//! CVE-2016-5696). After both FINs (TIME_WAIT) a SYN whose ISN lies beyond the client's last
//! sequence number replaces the old flow (RFC 6191) and starts a new connection; other SYNs
//! (RST-pending, client FIN only, TIME_WAIT with an old ISN) are dropped and counted.

use super::*;

/// How long a flow stays RST-pending at most (ms): the CLOSE timeout (IPVS's state after a
/// RST, TIMEOUT_SET) when that is shorter.
pub const RST_PENDING_MS: u32 = 1000;
/// Flows RST-pending at once; beyond, a RST leaves its flow CLOSING until the CLOSE timeout
/// (counted in [`TcpStats::rst_untracked`]).
pub const RST_PENDING_SLOTS: usize = 1024;
/// Shortest time between two SYNs of one flow passed to its server (ms), as Linux's
/// `tcp_invalid_ratelimit`.
pub const CHALLENGE_MS: u32 = 500;

/// Counters of TCP_STATS, in its word order ([`TcpStats::to_words`]; the host driver decodes
/// the answer with [`TcpStats::from_words`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpStats {
    /// RSTs that put a flow in RST-pending.
    pub rst_pending: u32,
    /// RST-pending flows restored by a segment from the receiver.
    pub rst_restored: u32,
    /// RST-pending flows freed when the pending time ended in silence.
    pub rst_freed_silent: u32,
    /// RST-pending flows freed by the receiver's RST.
    pub rst_freed_receiver: u32,
    /// RSTs that found the pending table full (the flow waits for the CLOSE timeout).
    pub rst_untracked: u32,
    /// Probes sent to a RST's receiver.
    pub probes: u32,
    /// SYNs passed to the server as a challenge.
    pub syn_challenged: u32,
    /// SYNs not passed because the flow's last one was passed less than [`CHALLENGE_MS`] ago.
    pub challenge_limited: u32,
    /// SYNs dropped (RST-pending, client FIN only, TIME_WAIT with an old ISN).
    pub syn_dropped: u32,
    /// TIME_WAIT flows replaced by a SYN with a newer ISN (RFC 6191).
    pub tw_replaced: u32,
    /// Handshake ACKs accepted with the hardware SYN responder's cookie.
    pub hw_cookie_acks: u32,
    /// Flows RST-pending now: a gauge, filled in by TCP_STATS.
    pub rst_pending_now: u32,
    /// Connections the hardware ACK validator handed over (verdict NEW, docs/engine.md).
    pub engine_new: u32,
    /// Slots the validator handed over whose NEW punt never arrived (reclaimed).
    pub engine_lost: u32,
    /// NEW verdicts for a slot the firmware had not pushed (its key deleted).
    pub engine_stale: u32,
    /// Punts and events made for an earlier use of their slot (their generation is not the
    /// slot's now), dropped.
    pub gen_stale: u32,
    /// Flowless data segments to a service whose RST waited for a handshake ACK of their
    /// 4-tuple (docs/flowmgr.md, "Early data").
    pub early_held: u32,
    /// Of those, the ones whose 4-tuple connected during the wait (no RST sent).
    pub early_kept: u32,
    /// Inline L7 results kept for a slot no connection held yet: the request segment right
    /// behind the ACK validator's handshake ACK, whose result came before the NEW punt
    /// (docs/flowmgr.md, step 3).
    pub early_results: u32,
    /// Of those, the ones overwritten before a connection took them (the oldest of
    /// [`super::EARLY_VERDICTS`] kept ones): results of a slot's earlier use, or of a slot
    /// whose NEW punt was lost; a connection whose own result is dropped waits for its
    /// request timeout.
    pub early_results_dropped: u32,
    /// Connections whose first request segment's inline L7 result did not come within
    /// [`super::INLINE_WAIT_MS`]: their buffer was matched instead.
    pub inline_timeouts: u32,
    /// Request heads the card replayed from its head buffer (`DP.HEAD_REPLAY`, or its
    /// SYN-ACK absorber's replay: [`TcpStats::absorbed`]).
    pub head_replays: u32,
    /// Request heads the firmware replayed itself (built and injected): no card head buffer
    /// was free when the first byte came (or the card has none), the head needed more than
    /// one segment, or the frame generator's registers were busy.
    pub head_replays_fw: u32,
    /// Connections whose server SYN-ACK the card absorbed (entry, handshake ACK and head
    /// replay by the card; `DP.ABSORB_CTRL`): the firmware only did the bookkeeping.
    pub absorbed: u32,
    /// Of those, the ones the firmware found absorbed when it took the entry back (a client
    /// segment, a timer or a SYN-ACK of its own came first: `DP.ABSORB_DISARM`).
    pub absorbed_found: u32,
    /// Armed setups the firmware took back before their SYN-ACK (client data or FIN, a
    /// RST, a retry with the next server): it handles their SYN-ACK itself.
    pub absorb_disarmed: u32,
}

impl TcpStats {
    /// Words of the TCP_STATS answer.
    pub const WORDS: usize = 26;

    /// The TCP_STATS answer.
    pub fn to_words(&self) -> [u32; Self::WORDS] {
        [
            self.rst_pending,
            self.rst_restored,
            self.rst_freed_silent,
            self.rst_freed_receiver,
            self.rst_untracked,
            self.probes,
            self.syn_challenged,
            self.challenge_limited,
            self.syn_dropped,
            self.tw_replaced,
            self.hw_cookie_acks,
            self.rst_pending_now,
            self.engine_new,
            self.engine_lost,
            self.engine_stale,
            self.gen_stale,
            self.early_held,
            self.early_kept,
            self.early_results,
            self.early_results_dropped,
            self.inline_timeouts,
            self.head_replays,
            self.head_replays_fw,
            self.absorbed,
            self.absorbed_found,
            self.absorb_disarmed,
        ]
    }

    /// Decodes a TCP_STATS answer.
    pub fn from_words(w: &[u32; Self::WORDS]) -> TcpStats {
        let [rst_pending, rst_restored, rst_freed_silent, rst_freed_receiver, rst_untracked, probes, syn_challenged, challenge_limited, syn_dropped, tw_replaced, hw_cookie_acks, rst_pending_now, engine_new, engine_lost, engine_stale, gen_stale, early_held, early_kept, early_results, early_results_dropped, inline_timeouts, head_replays, head_replays_fw, absorbed, absorbed_found, absorb_disarmed] =
            *w;
        TcpStats {
            rst_pending,
            rst_restored,
            rst_freed_silent,
            rst_freed_receiver,
            rst_untracked,
            probes,
            syn_challenged,
            challenge_limited,
            syn_dropped,
            tw_replaced,
            hw_cookie_acks,
            rst_pending_now,
            engine_new,
            engine_lost,
            engine_stale,
            gen_stale,
            early_held,
            early_kept,
            early_results,
            early_results_dropped,
            inline_timeouts,
            head_replays,
            head_replays_fw,
            absorbed,
            absorbed_found,
            absorb_disarmed,
        }
    }
}

/// One RST-pending flow: its slot, the receiver's packet count when the probe left, the end
/// of the pending time.
#[derive(Clone, Copy, Debug, Default)]
struct PendingRst {
    slot: Slot,
    packets: u32,
    deadline: u32,
}

/// RST-pending flows in the order they entered (all wait the same time, so the oldest is
/// always the next to end).
#[derive(Debug)]
pub struct RstPending {
    ring: [PendingRst; RST_PENDING_SLOTS],
    head: usize,
    len: usize,
}

impl Default for RstPending {
    fn default() -> Self {
        Self {
            ring: [PendingRst::default(); RST_PENDING_SLOTS],
            head: 0,
            len: 0,
        }
    }
}

impl RstPending {
    fn push(&mut self, e: PendingRst) -> bool {
        if self.len == RST_PENDING_SLOTS {
            return false;
        }
        self.ring[(self.head + self.len) % RST_PENDING_SLOTS] = e;
        self.len += 1;
        true
    }

    /// The oldest entry when its time is up at `now`.
    fn pop_due(&mut self, now: u32) -> Option<PendingRst> {
        let e = self.ring[self.head];
        if self.len == 0 || !tick_after(now, e.deadline) {
            return None;
        }
        self.head = (self.head + 1) % RST_PENDING_SLOTS;
        self.len -= 1;
        Some(e)
    }

    /// Forgets the entries of `slot` (its flow was freed before its time was up), so they
    /// cannot decide for a later flow in the slot.
    fn forget(&mut self, slot: Slot) {
        for k in 0..self.len {
            let e = &mut self.ring[(self.head + k) % RST_PENDING_SLOTS];
            if e.slot == slot {
                e.slot = FORGOTTEN;
            }
        }
    }
}

/// The slot of a forgotten RST-pending entry (no flow slot: FW_SLOTS is below it).
const FORGOTTEN: Slot = Slot::MAX;
const _: () = assert!(FW_SLOTS <= Slot::MAX as usize);
/// RST-pending times ended per main-loop pass at most (the rest wait for the next pass).
const PENDING_STEP: usize = 32;

/// The entry's firmware word ([`FlowStatic::FW_WORD`]).
const FW: usize = FlowStatic::FW_WORD.lsb / 32;
const FIN_BOTH: u8 = entry_flags::FIN_CLIENT | entry_flags::FIN_SERVER;

impl Splicer<'_> {
    /// A forwarded FIN of slot `slot` (event FIN_RST): CLOSING with the side's FIN flag; a
    /// client FIN also records the client's last sequence number (RFC 6191). With the card's
    /// FIN counts ([`Splicer::fin_start`]) an event is one queued before they were turned on:
    /// the card counted its FIN too, so it is dropped.
    pub(super) fn on_fin_rst(
        &mut self,
        hw: &mut impl Hw,
        slot: Slot,
        from_server: bool,
        ev: &[u32; 4],
    ) {
        if self.fin_hw {
            return;
        }
        if usize::from(slot) >= self.slots || self.slot_is_free(slot) {
            self.stats.ignored += 1;
            return;
        }
        let mut w = [0u32; STATIC_WORDS];
        self.entry_read(hw, slot, &mut w);
        self.hit_gen = field(ev, EvtFinRst::FLOW_GEN) as u8;
        if self.gen_stale(field(&w, FlowStatic::GEN) as u8) {
            return;
        }
        let state = entry_state(w[0]);
        if !matches!(state, Some(FlowState::Spliced | FlowState::Closing))
            || field(ev, EvtFinRst::TCP_FLAGS) as u8 & tf::FIN == 0
        {
            return;
        }
        let mut flags = entry_flag_bits(w[0]);
        let before = flags;
        if from_server {
            flags |= entry_flags::FIN_SERVER;
        } else {
            flags |= entry_flags::FIN_CLIENT;
            let plen = field(ev, EvtFinRst::PLEN);
            w[FW] = field(ev, EvtFinRst::SEQ).wrapping_add(plen + 1);
        }
        if flags == before && state == Some(FlowState::Closing) {
            return;
        }
        self.leave_spliced(hw, &mut w, flags);
        self.entry_write(hw, slot, &w, None);
    }

    /// Word 0 of `w` in CLOSING with `flags`, the flow no longer active on its server.
    fn leave_spliced(&mut self, hw: &mut impl Hw, w: &mut [u32; STATIC_WORDS], mut flags: u8) {
        if flags & entry_flags::ACTIVE != 0 {
            // IPVS counts a connection active only while ESTABLISHED.
            self.server_count(hw, w, false);
            flags &= !entry_flags::ACTIVE;
        }
        if entry_state(w[0]) == Some(FlowState::Spliced) {
            self.stats.closed += 1;
        }
        w[0] = with_field(w[0], FlowStatic::FLAGS, flags.into());
        w[0] = with_field(w[0], FlowStatic::STATE, FlowState::Closing.raw().into());
    }

    /// A RST of the spliced flow in `slot` (the data path punts them): the first one puts
    /// the flow in RST-pending, goes to its receiver translated and is followed by a probe;
    /// while pending, the receiver's RST ends the flow and more RSTs from the sender are
    /// dropped.
    // an exception path: one copy, not one per caller
    #[inline(never)]
    pub(super) fn on_spliced_rst(
        &mut self,
        hw: &mut impl Hw,
        seg: &TcpSeg,
        slot: Slot,
        from_server: bool,
    ) {
        let Some((mut w, d)) = self.spliced_entry(hw, slot) else {
            return;
        };
        let flags = entry_flag_bits(w[0]);
        let ack = if seg.has(tf::ACK) { seg.ack } else { 0 };
        if flags & entry_flags::RST != 0 {
            if from_server == (flags & entry_flags::RST_SERVER != 0) {
                self.stats.ignored += 1;
                return;
            }
            self.stats.tcp.rst_freed_receiver += 1;
            self.rst_pend.forget(slot);
            self.release_flow(hw, slot, &w);
            self.send_translated(hw, &w, from_server, seg.seq, ack, seg.flags, &[]);
            return;
        }
        // The receiver's count before the RST reaches it.
        let tracked = self.rst_pend_push(hw, slot, from_server, &d);
        let mut flags = flags | entry_flags::RST;
        if from_server {
            flags |= entry_flags::RST_SERVER;
        }
        self.leave_spliced(hw, &mut w, flags);
        self.entry_write(hw, slot, &w, None);
        self.send_translated(
            hw,
            &w,
            from_server,
            seg.seq,
            ack,
            seg.flags & (tf::RST | tf::ACK),
            &[],
        );
        if !tracked {
            return;
        }
        self.stats.tcp.rst_pending += 1;
        self.stats.tcp.probes += 1;
        // Half the number space away from the RST: outside any window.
        self.send_translated(
            hw,
            &w,
            from_server,
            seg.seq.wrapping_add(1 << 31),
            ack,
            tf::ACK,
            &[0],
        );
    }

    /// Queues `slot` RST-pending from now with its receiver's packet count from the
    /// dynamic entry `d` (the RST came from the server: `from_server`); false, counted in
    /// `rst_untracked`, when the table is full.
    fn rst_pend_push(
        &mut self,
        hw: &mut impl Hw,
        slot: Slot,
        from_server: bool,
        d: &[u32; DYN_WORDS],
    ) -> bool {
        let packets = field(d, Self::receiver_packets(from_server));
        let wait =
            ms_to_ticks(RST_PENDING_MS, self.clk_hz).min(self.timeouts.ticks(TcpState::Close));
        let deadline = hw.now().wrapping_add(wait);
        let pushed = self.rst_pend.push(PendingRst {
            slot,
            packets,
            deadline,
        });
        if !pushed {
            self.stats.tcp.rst_untracked += 1;
        }
        pushed
    }

    /// A flow [`Splicer::rebuild`] found RST-pending (entry `w0`, dynamic words `d`) when
    /// the firmware stopped: pending again from now, without a second probe (the RST's
    /// numbers are gone, and a probe at a guessed number could land in the window): a
    /// receiver that sends anything in the new pending time keeps the flow; an idle one
    /// loses it.
    pub(super) fn rst_pending_resume(
        &mut self,
        hw: &mut impl Hw,
        slot: Slot,
        w0: u32,
        d: &[u32; DYN_WORDS],
    ) {
        if entry_flag_bits(w0) & entry_flags::RST != 0 {
            let from_server = entry_flag_bits(w0) & entry_flags::RST_SERVER != 0;
            self.rst_pend_push(hw, slot, from_server, d);
        }
    }

    /// The static and dynamic entry of `slot` (one read of the flow memory) when the flow is
    /// SPLICED or CLOSING; otherwise the punted segment is counted as ignored.
    fn spliced_entry(
        &mut self,
        hw: &mut impl Hw,
        slot: Slot,
    ) -> Option<([u32; STATIC_WORDS], [u32; DYN_WORDS])> {
        let mut w = [0u32; STATIC_WORDS];
        let mut d = [0u32; DYN_WORDS];
        hw.state_read_dyn(slot, &mut w, &mut d);
        if self.gen_stale(field(&w, FlowStatic::GEN) as u8) {
            return None;
        }
        self.merge_teardown(&mut w, &d);
        if matches!(
            entry_state(w[0]),
            Some(FlowState::Spliced | FlowState::Closing)
        ) {
            Some((w, d))
        } else {
            self.stats.ignored += 1;
            None
        }
    }

    /// Sends a segment with the sender's numbers `seq`/`ack` translated into the receiver's
    /// space (the data path's deltas), to the client (`to_client`) or the server.
    #[allow(clippy::too_many_arguments)]
    // an exception path: one copy, not one per caller
    #[inline(never)]
    fn send_translated(
        &mut self,
        hw: &mut impl Hw,
        w: &[u32; STATIC_WORDS],
        to_client: bool,
        seq: u32,
        ack: u32,
        flags: u8,
        payload: &[u8],
    ) {
        let (dcs, dsc) = (
            field(w, FlowStatic::SEQ_DELTA_CS),
            field(w, FlowStatic::SEQ_DELTA_SC),
        );
        let (port, half, seq, ack) = if to_client {
            (
                Port::Client,
                CLIENT_HALF,
                seq.wrapping_add(dsc),
                ack.wrapping_sub(dcs),
            )
        } else {
            (
                Port::Server,
                SERVER_HALF,
                seq.wrapping_add(dcs),
                ack.wrapping_sub(dsc),
            )
        };
        let mac = hw.port_mac(port);
        let out = TcpOut {
            seq,
            ack: if flags & tf::ACK != 0 { ack } else { 0 },
            flags,
            window: 0,
            opts: &[],
            payload,
            ..decode_half(w, half).segment(mac)
        };
        self.send(hw, port, &out);
    }

    /// Moves the flow's count on its server between active and inactive (IPVS), after the
    /// card's FIN counts ([`Splicer::fold`]).
    fn server_count(&mut self, hw: &mut impl Hw, w: &[u32; STATIC_WORDS], established: bool) {
        let rs = entry_rs(w[0]);
        if rs < MAX_RS {
            self.fold(hw, rs);
            self.rs_move(rs, established);
        }
    }

    /// Moves a connection of real server `rs` (below [`MAX_RS`]) from inactive to active
    /// (`established`) or back; false when the server has none to move.
    pub(super) fn rs_move(&mut self, rs: usize, established: bool) -> bool {
        let r = self.rs[rs];
        let sid = usize::from(r.sid);
        self.pool_any_mut(usize::from(r.pool)).is_some_and(|pool| {
            if established {
                pool.servers.on_established(sid)
            } else {
                pool.servers.on_leave_established(sid)
            }
            .is_ok()
        })
    }

    // ----- the card's FIN counts (DP.FIN_CTRL, DP.FIN_COUNT) ----------------------------

    /// Brings up the card's FIN counting when it has it (`DP.FIN_CTRL.PRESENT`): no FIN_RST
    /// event for a FIN from here, and the counts so far taken as applied: the flows' entries
    /// and teardown view hold those FINs. Once ([`Splicer::rebuild`] before its scan, or the
    /// bring-up): taking the counts again would lose the FINs counted in between.
    #[inline(never)]
    pub(super) fn fin_start(&mut self, hw: &mut impl Hw) {
        if self.fin_hw || !hw.fin_hw() {
            return;
        }
        self.fin_hw = true;
        hw.fin_events(false);
        for (rs, seen) in self.fin_seen.iter_mut().enumerate() {
            *seen = hw.fin_count(rs as u8);
        }
    }

    /// Applies the FINs the card counted for real server `rs` since the last time
    /// (`DP.FIN_COUNT`): each is a connection that left ESTABLISHED (IPVS: active to
    /// inactive) and closed ([`Stats::closed`]), what [`Splicer::on_fin_rst`] does per event.
    /// A server not configured again since [`Splicer::rebuild`] has its restored counts
    /// moved. Called before the server's counts change or are read, and before its pool's
    /// scheduler picks. Nothing without the card's counts.
    #[inline(never)]
    pub(super) fn fold(&mut self, hw: &mut impl Hw, rs: usize) {
        if !self.fin_hw || rs >= MAX_RS {
            return;
        }
        let n = hw.fin_count(rs as u8).wrapping_sub(self.fin_seen[rs]);
        self.fin_seen[rs] = self.fin_seen[rs].wrapping_add(n);
        self.stats.closed = self.stats.closed.wrapping_add(n);
        for k in 0..n {
            let c = &mut self.restored[rs];
            if c.0 > 0 {
                c.0 -= 1;
                c.1 += 1;
            } else if !self.rs_move(rs, false) {
                // None left to move (errors are ignored, as for the events), unless a
                // setup of this server is armed: the card may have spliced and closed it
                // before the firmware read its SYN-ACK's punt; the move waits for that
                // bookkeeping (`Splicer::card_spliced`).
                if self.armed_on(rs) {
                    let owed = &mut self.fin_owed[rs];
                    *owed = owed.saturating_add((n - k).min(255) as u8);
                }
                break;
            }
        }
    }

    /// [`Splicer::fold`] for the real servers of pool `pool`, when its scheduler reads their
    /// active counts (lc, wlc, sed, nq, lblc, lblcr, ovf, twos; the others read weights and
    /// the overload flag, which a move from active to inactive leaves as it is); for every
    /// real server index when `pool` is [`MAX_POOLS`] or more.
    #[inline(never)]
    pub(super) fn fold_pool(&mut self, hw: &mut impl Hw, pool: usize) {
        use crate::sched::Kind::*;
        if !self.fin_hw {
            return;
        }
        if let Some(p) = self.pools.get(pool).and_then(Option::as_ref) {
            if !matches!(
                p.sched.config().kind,
                Lc | Wlc | Sed | Nq | Lblc | Lblcr | Ovf | Twos
            ) {
                return;
            }
        }
        for rs in 0..MAX_RS {
            let r = self.rs[rs];
            if pool >= MAX_POOLS || r.present && usize::from(r.pool) == pool {
                self.fold(hw, rs);
            }
        }
    }

    /// Merges the card's teardown view of a flow (its dynamic words `d`) into its static
    /// entry `w`, with the card's FIN counts: for a SPLICED or CLOSING entry a FIN from the
    /// client (`teardown::FIN_CS`) or the server (`FIN_SC`) is its `FIN_CLIENT` /
    /// `FIN_SERVER`, and any FIN makes it CLOSING without `ACTIVE` (the card counted that
    /// move, [`Splicer::fold`] applies it); a client FIN new to the entry also puts its end
    /// (`FlowDyn::FIN_END_CS`) in the firmware word (RFC 6191), as [`Splicer::on_fin_rst`]
    /// does. Without the card's counts the events keep the entries: nothing to do (merging
    /// would clear `ACTIVE` of a flow whose FIN event is still queued, without moving its
    /// count).
    #[inline(never)]
    pub(super) fn merge_teardown(&self, w: &mut [u32; STATIC_WORDS], d: &[u32; DYN_WORDS]) {
        let flags = entry_flag_bits(w[0]);
        let fins = dyn_fins(d);
        if !self.fin_hw
            || fins == 0
            || !matches!(
                entry_state(w[0]),
                Some(FlowState::Spliced | FlowState::Closing)
            )
        {
            return;
        }
        if fins & !flags & entry_flags::FIN_CLIENT != 0 {
            w[FW] = field(d, FlowDyn::FIN_END_CS);
        }
        let flags = (flags | fins) & !entry_flags::ACTIVE;
        w[0] = with_field(w[0], FlowStatic::FLAGS, flags.into());
        w[0] = with_field(w[0], FlowStatic::STATE, FlowState::Closing.raw().into());
    }

    /// The FlowDyn counter of the segments a RST's receiver sends.
    fn receiver_packets(rst_from_server: bool) -> splicenic_layout::Field {
        if rst_from_server {
            FlowDyn::PACKETS_CS
        } else {
            FlowDyn::PACKETS_SC
        }
    }

    /// Ends the RST-pending times that are up, at most [`PENDING_STEP`] per pass: restored
    /// when the receiver sent anything since the probe, freed otherwise. Returns true when it
    /// did any work.
    // an exception path: one copy, not one per caller
    #[inline(never)]
    pub(super) fn rst_pending_step(&mut self, hw: &mut impl Hw, now: u32) -> bool {
        let mut work = false;
        for _ in 0..PENDING_STEP {
            let Some(e) = self.rst_pend.pop_due(now) else {
                break;
            };
            work = true;
            if e.slot == FORGOTTEN || self.slot_is_free(e.slot) {
                continue;
            }
            let mut w = [0u32; STATIC_WORDS];
            let mut d = [0u32; DYN_WORDS];
            hw.state_read_dyn(e.slot, &mut w, &mut d);
            self.merge_teardown(&mut w, &d);
            let flags = entry_flag_bits(w[0]);
            if entry_state(w[0]) != Some(FlowState::Closing) || flags & entry_flags::RST == 0 {
                continue;
            }
            let from_server = flags & entry_flags::RST_SERVER != 0;
            if field(&d, Self::receiver_packets(from_server)) == e.packets {
                self.stats.tcp.rst_freed_silent += 1;
                self.release_flow(hw, e.slot, &w);
                continue;
            }
            let mut flags = flags & !(entry_flags::RST | entry_flags::RST_SERVER);
            let state = if flags & (entry_flags::FIN_CLIENT | entry_flags::FIN_SERVER) == 0 {
                flags |= entry_flags::ACTIVE;
                self.server_count(hw, &w, true);
                // it had left SPLICED with the RST
                self.stats.closed = self.stats.closed.saturating_sub(1);
                FlowState::Spliced
            } else {
                FlowState::Closing
            };
            w[0] = with_field(w[0], FlowStatic::FLAGS, flags.into());
            w[0] = with_field(w[0], FlowStatic::STATE, state.raw().into());
            self.entry_write(hw, e.slot, &w, None);
            self.stats.tcp.rst_restored += 1;
        }
        work
    }

    /// A client SYN on the spliced flow in `slot` (never a new connection while the flow
    /// lives). Returns the setup a replaced TIME_WAIT flow's SYN started.
    // an exception path: one copy, not one per caller
    #[inline(never)]
    pub(super) fn on_spliced_syn(
        &mut self,
        hw: &mut impl Hw,
        seg: &TcpSeg,
        slot: Slot,
    ) -> Option<usize> {
        let (mut w, _) = self.spliced_entry(hw, slot)?;
        let flags = entry_flag_bits(w[0]);
        if flags & FIN_BOTH == FIN_BOTH && flags & entry_flags::RST == 0 {
            if seq_after(seg.seq, w[FW]) {
                // RFC 6191: a new incarnation of the 4-tuple.
                self.stats.tcp.tw_replaced += 1;
                self.release_flow(hw, slot, &w);
                return self.on_syn(hw, seg);
            }
            self.stats.tcp.syn_dropped += 1;
            return None;
        }
        if flags & (entry_flags::RST | entry_flags::FIN_CLIENT) != 0 {
            self.stats.tcp.syn_dropped += 1;
            return None;
        }
        // Without the client's FIN, fw_word is the tick of the last SYN passed (0: none).
        let now = hw.now();
        let last = w[FW];
        if last != 0
            && !tick_after(
                now,
                last.wrapping_add(ms_to_ticks(CHALLENGE_MS, self.clk_hz)),
            )
        {
            self.stats.tcp.challenge_limited += 1;
            return None;
        }
        w[FW] = now.max(1);
        self.entry_write(hw, slot, &w, None);
        let mac = hw.port_mac(Port::Server);
        let out = TcpOut {
            seq: seg.seq.wrapping_add(field(&w, FlowStatic::SEQ_DELTA_CS)),
            ack: 0,
            flags: tf::SYN,
            window: seg.window,
            opts: &[],
            payload: &[],
            ..decode_half(&w, SERVER_HALF).segment(mac)
        };
        self.stats.tcp.syn_challenged += 1;
        self.send(hw, Port::Server, &out);
        None
    }

    /// Deletes the flow's keys, frees its slot and ends its count on its server.
    // an exception path: one copy, not one per caller
    #[inline(never)]
    pub(super) fn release_flow(&mut self, hw: &mut impl Hw, slot: Slot, w: &[u32; STATIC_WORDS]) {
        let client = decode_half(w, CLIENT_HALF);
        let server = decode_half(w, SERVER_HALF);
        self.key_delete(hw, &client.key());
        self.key_delete(hw, &server.key());
        self.entry_write(hw, slot, &[0; STATIC_WORDS], Some(0));
        self.free_slot(slot);
        let active = entry_flag_bits(w[0]) & entry_flags::ACTIVE != 0;
        self.release_count(hw, entry_rs(w[0]), client.peer_ip, active);
    }

    /// A flow of real server `rs` (an entry's index; none past [`MAX_RS`]) from `client`
    /// ended: the server's count goes down (active or inactive), after the card's FIN counts
    /// ([`Splicer::fold`]).
    #[inline(never)]
    pub(super) fn release_count(&mut self, hw: &mut impl Hw, rs: usize, client: u32, active: bool) {
        self.fold(hw, rs);
        if rs < MAX_RS {
            let r = self.rs[rs];
            self.close_on_server(r.pool, rs as u8, client, active);
        }
    }

    /// Flows RST-pending now.
    pub fn rst_pending(&self) -> usize {
        self.rst_pend.len
    }

    /// Test support: one more RST-pending entry (fills the table).
    #[cfg(test)]
    pub(super) fn rst_pend_fill(&mut self, slot: Slot, deadline: u32) {
        assert!(self.rst_pend.push(PendingRst {
            slot,
            packets: 0,
            deadline,
        }));
    }

    /// TCP_STATS: the words from the request's word index (0 without one), at most a
    /// response's [`MAX_WORDS`] (the answer has more).
    pub(super) fn tcp_stats(
        &self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        let first = match req {
            [] => 0,
            [w] => *w as usize,
            _ => return Err(status::BAD_LENGTH),
        };
        let t = TcpStats {
            rst_pending_now: self.rst_pend.len as u32,
            ..self.stats.tcp
        };
        let w = t.to_words();
        let rest = w
            .get(first..)
            .filter(|r| !r.is_empty())
            .ok_or(status::BAD_ARGUMENT)?;
        let n = rest.len().min(MAX_WORDS);
        rsp[..n].copy_from_slice(&rest[..n]);
        Ok(Response::ok(n))
    }
}
