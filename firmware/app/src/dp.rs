//! The flow manager's view of the data path: [`splicenic_fw_logic::splicer::Hw`] on the
//! DP, FLOW, PUNT, INJECT, EVQ and L7 register blocks (docs/datapath.md), and the hardware
//! SYN responder's DP registers (SYN_CTRL, SYN_MSS, COOKIE_KEY_*, SYN_PARAMS), the ACK
//! validator's (ACK_CTRL, FREE_*), the aging scanner's (AGE_*) and the frame generator's
//! (TXGEN_*).

use splicenic_fw_logic::flowhash::FourTuple;
use splicenic_fw_logic::flowmgr::Slot;
use splicenic_fw_logic::splicer::frame::{GenFrame, GenOpts, Offload};
use splicenic_fw_logic::splicer::{
    Aged, FlowStatus, Freed, Hw, Port, PuntInfo, SynCtrl, DYN_WORDS, STATIC_WORDS,
};
use splicenic_layout::{
    fill_from_words_le, for_each_word_le, mac_from_u64, mac_to_u64, DisarmResult, PuntHead,
    PuntMeta, AGE_DEFAULT_INTERVAL, SERVICES,
};
use splicenic_pac::flow::cmd::Op as FlowOp;
use splicenic_pac::flow::state_cmd::Op as StateOp;
use splicenic_pac::flow::status::Result as FlowResult;
use splicenic_pac::{Dp, Evq, Flow, Inject, Punt, L7};

use crate::soc::{now, write_reg};

/// Status reads a disarm waits at most (it takes tens of card cycles).
const DISARM_POLLS: u32 = 1000;

// DP.AGE_CTRL.INTERVAL is 16 bits wide.
const _: () = assert!(AGE_DEFAULT_INTERVAL <= u16::MAX as u32);

/// Polls of a busy bit before a command counts as failed (each poll is a CSR read of a few
/// cycles; every command here finishes in tens of cycles).
const POLLS: u32 = 10_000;

/// The data-path blocks, owned by the flow manager.
pub struct DataPath {
    dp: Dp,
    flow: Flow,
    punt: Punt,
    inject: Inject,
    evq: Evq,
    l7: L7,
    punt_slots: u32,
    punt_slot_bytes: u32,
    /// The punt-ring slot of the frame `punt_next` returned last and its ring index (the
    /// `PUNT.CONS` it was read at): a head copy reads it from the ring (`head_append`).
    punt_last: Option<(u32, u32)>,
}

fn wait(mut busy: impl FnMut() -> bool) -> bool {
    for _ in 0..POLLS {
        if !busy() {
            return true;
        }
    }
    false
}

impl DataPath {
    /// Takes the data-path blocks.
    ///
    /// # Safety
    /// Call once: the returned value must be the only user of DP (writes), FLOW, PUNT,
    /// INJECT, EVQ and L7 on the soft core.
    pub unsafe fn take() -> Self {
        // SAFETY: the caller guarantees exclusive use (see above); reads of DP by the
        // mailbox's DP_INFO are of read-only registers.
        let (dp, flow, punt, inject, evq, l7) = unsafe {
            (
                Dp::steal(),
                Flow::steal(),
                Punt::steal(),
                Inject::steal(),
                Evq::steal(),
                L7::steal(),
            )
        };
        let params = punt.params().read();
        Self {
            punt_slots: u32::from(params.slots().bits()).max(1),
            punt_slot_bytes: u32::from(params.slot_bytes().bits()),
            punt_last: None,
            dp,
            flow,
            punt,
            inject,
            evq,
            l7,
        }
    }

    /// DP.FLOW_SLOTS.
    pub fn flow_slots(&self) -> u32 {
        self.dp.flow_slots().read().bits()
    }

    /// Lets the data path punt ARP to the firmware and forward spliced flows.
    pub fn enable(&mut self) {
        // PUNT_POLICY.ARP is set at reset too; the other classes keep their policy.
        self.dp.punt_policy().modify(|_, w| w.arp().set_bit());
        self.dp.ctrl().modify(|_, w| w.fastpath().set_bit());
    }

    fn flow_cmd(
        &mut self,
        op: FlowOp,
        key: &FourTuple,
        slot: Slot,
        server_half: bool,
    ) -> FlowStatus {
        let f = &self.flow;
        if !wait(|| f.status().read().busy().bit_is_set()) {
            return FlowStatus::Failed;
        }
        write_reg(f.key_src_ip(), key.src_ip);
        write_reg(f.key_dst_ip(), key.dst_ip);
        f.key_ports().write(|w| {
            // SAFETY: SRC_PORT and DST_PORT are 16 bits wide: every u16 is a valid value.
            unsafe {
                w.src_port()
                    .bits(key.src_port)
                    .dst_port()
                    .bits(key.dst_port)
            }
        });
        f.value().write(|w| {
            // SAFETY: SLOT is 16 bits wide: every u16 is a valid value.
            unsafe { w.slot().bits(slot) }.dir().bit(server_half)
        });
        f.cmd().write(|w| w.op().variant(op));
        if !wait(|| f.status().read().busy().bit_is_set()) {
            return FlowStatus::Failed;
        }
        // FLOW.STATUS.RESULT (registers/splicenic.svd).
        match f.status().read().result().variant() {
            FlowResult::Ok => FlowStatus::Ok,
            FlowResult::Exists => FlowStatus::Exists,
            FlowResult::BucketFull => FlowStatus::BucketFull,
            FlowResult::NotFound => FlowStatus::NotFound,
        }
    }

    fn state_cmd(&mut self, slot: Slot, op: StateOp) -> bool {
        let f = &self.flow;
        write_reg(f.state_slot(), u32::from(slot));
        f.state_cmd().write(|w| w.op().variant(op));
        wait(|| f.state_status().read().busy().bit_is_set())
    }

    /// Stages `f` in the frame generator's registers (`DP.TXGEN_*`); false when the card
    /// has no generator or it still holds the last request (`TXGEN_STATUS.BUSY`, which
    /// covers a head replay waiting too).
    fn txgen_stage(&mut self, f: &GenFrame) -> bool {
        let st = self.dp.txgen_status().read();
        if st.present().bit_is_clear() || st.busy().bit_is_set() {
            return false;
        }
        let dp = &self.dp;
        let dmac = mac_to_u64(f.dst_mac);
        let smac = mac_to_u64(f.src_mac);
        write_reg(dp.txgen_dst_mac_lo(), dmac as u32);
        write_reg(dp.txgen_dst_mac_hi(), (dmac >> 32) as u32);
        write_reg(dp.txgen_src_mac_lo(), smac as u32);
        write_reg(dp.txgen_src_mac_hi(), (smac >> 32) as u32);
        write_reg(dp.txgen_src_ip(), f.src_ip);
        write_reg(dp.txgen_dst_ip(), f.dst_ip);
        dp.txgen_ports().write(|w| {
            // SAFETY: SPORT and DPORT are 16 bits wide: every u16 is a valid value.
            unsafe { w.sport().bits(f.src_port).dport().bits(f.dst_port) }
        });
        write_reg(dp.txgen_seq(), f.seq);
        write_reg(dp.txgen_ack(), f.ack);
        dp.txgen_ctl().write(|w| {
            // SAFETY: FLAGS is 8 bits and WINDOW 16 bits wide: every u8 and u16 is valid.
            unsafe { w.flags().bits(f.flags).window().bits(f.window) }
        });
        let (syn, mss, sack, ts, ws) = match f.opts {
            GenOpts::Ack { ts } => (false, 0, false, ts, None),
            GenOpts::Syn {
                mss,
                sack,
                ts,
                wscale,
            } => (true, mss, sack, ts, wscale),
        };
        let t = ts.unwrap_or_default();
        dp.txgen_opts().write(|w| {
            // SAFETY: SCALE is 4 bits wide and `GenFrame::from_out` takes window shifts of
            // 0 to 14 only (the option parser's range); MSS is 16 bits wide.
            unsafe { w.scale().bits(ws.unwrap_or(0)).mss().bits(mss) }
                .syn_form()
                .bit(syn)
                .sack()
                .bit(sack)
                .ts()
                .bit(ts.is_some())
                .wscale()
                .bit(ws.is_some())
        });
        write_reg(dp.txgen_tsval(), t.tsval);
        write_reg(dp.txgen_tsecr(), t.tsecr);
        true
    }
}

impl Hw for DataPath {
    fn now(&mut self) -> u32 {
        self.dp.now().read().bits()
    }

    fn cycles(&mut self) -> u64 {
        now()
    }

    fn port_mac(&mut self, port: Port) -> [u8; 6] {
        let (lo, hi) = match port {
            Port::Client => (
                self.dp.mac_c_lo().read().bits(),
                self.dp.mac_c_hi().read().mac().bits(),
            ),
            Port::Server => (
                self.dp.mac_s_lo().read().bits(),
                self.dp.mac_s_hi().read().mac().bits(),
            ),
        };
        mac_from_u64(u64::from(hi) << 32 | u64::from(lo))
    }

    fn local_ip(&mut self, i: usize) -> Option<u32> {
        let enabled = self
            .dp
            .local_ctrl_iter()
            .nth(i)?
            .read()
            .enable()
            .bit_is_set();
        enabled.then(|| self.dp.local_addr(i).read().bits())
    }

    fn set_vip(&mut self, i: usize, ip: u32, port: u16, enable: bool) {
        if i >= SERVICES as usize {
            return;
        }
        let set_port = |w: &mut splicenic_pac::dp::vip_port::W| {
            // SAFETY: PORT is 16 bits wide: every u16 is a valid value.
            unsafe { w.port().bits(port) };
        };
        // A service set again at its address keeps its entry enabled: one write of the port
        // (the classifier never sees it missing). A new address is written disabled.
        if enable
            && self.dp.vip_port(i).read().enable().bit_is_set()
            && self.dp.vip_addr(i).read().bits() == ip
        {
            self.dp.vip_port(i).write(|w| {
                set_port(w);
                w.enable().set_bit()
            });
            return;
        }
        self.dp.vip_port(i).write(|w| {
            set_port(w);
            w
        });
        write_reg(self.dp.vip_addr(i), ip);
        if enable {
            self.dp.vip_port(i).write(|w| {
                set_port(w);
                w.enable().set_bit()
            });
        }
    }

    fn punt_next(&mut self, buf: &mut [u8]) -> Option<PuntInfo> {
        let modulus = 2 * self.punt_slots;
        let prod = self.punt.prod().read().bits();
        let cons = self.punt.cons().read().bits();
        if prod == cons || prod >= modulus || cons >= modulus {
            return None;
        }
        let slot = cons % self.punt_slots;
        let slot_field = |w: &mut splicenic_pac::punt::rd_ptr::W| {
            // SAFETY: SLOT is 8 bits wide and `slot` < PUNT.PARAMS.SLOTS, which the hardware
            // keeps within it (at most 256 slots).
            unsafe { w.slot().bits(slot as u8) };
        };
        self.punt.rd_ptr().write(|w| {
            slot_field(w);
            w.desc().set_bit()
        });
        // The descriptor: PuntHead, then the punt record (PuntMeta).
        let mut head = [0u32; PuntHead::WORDS];
        let mut meta = [0u32; PuntMeta::WORDS];
        for w in head.iter_mut().chain(meta.iter_mut()) {
            *w = self.punt.rd_data().read().bits();
        }
        let frame_len = u32::from(PuntHead::unpack(&head).len);
        let len = (frame_len.min(self.punt_slot_bytes) as usize).min(buf.len());
        self.punt.rd_ptr().write(|w| {
            slot_field(w);
            w
        });
        // A word store per word into the splicer's aligned frame buffer.
        fill_from_words_le(&mut buf[..len], || self.punt.rd_data().read().bits());
        write_reg(self.punt.cons(), (cons + 1) % modulus);
        self.punt_last = Some((slot, cons));
        Some(PuntInfo { len, meta })
    }

    fn inject(&mut self, port: Port, frame: &[u8], offload: Option<Offload>) -> bool {
        let inj = &self.inject;
        inj.sel().write(|w| w.port().bit(port == Port::Server));
        if !wait(|| inj.status().read().ready().bit_is_clear()) {
            return false;
        }
        write_reg(inj.wr_ptr(), 0);
        for_each_word_le(frame, |w| write_reg(inj.wr_data(), w));
        let (csum, off) = match offload {
            Some(o) => (true, (o.ip_off, o.l4_off, o.l4_end)),
            None => (false, (0, 0, 0)),
        };
        inj.commit_len().write(|w| {
            // SAFETY: LEN is 16 bits wide: every u16 is a valid value (a frame is at most a
            // 2 KiB slot).
            unsafe { w.len().bits(frame.len() as u16) }
                .csum_ip()
                .bit(csum)
                .csum_tcp()
                .bit(csum)
        });
        inj.commit_off().write(|w| {
            // SAFETY: IP_OFF and L4_OFF are 16 bits wide: every u16 is a valid value.
            unsafe { w.ip_off().bits(off.0).l4_off().bits(off.1) }
        });
        write_reg(inj.commit(), u32::from(off.2));
        true
    }

    fn tx_gen(&mut self, port: Port, f: &GenFrame) -> bool {
        if !self.txgen_stage(f) {
            return false;
        }
        self.dp
            .txgen_go()
            .write(|w| w.port().bit(port == Port::Server));
        true
    }

    fn head_alloc(&mut self) -> Option<u8> {
        let v = self.dp.head_alloc().read();
        v.valid().bit_is_set().then(|| v.id().bits())
    }

    fn head_append(&mut self, id: u8, off: u16, from: usize, bytes: &[u8]) -> bool {
        let Some((slot, index)) = self.punt_last else {
            return false;
        };
        // The slot was given back when the frame was read: the card writes a newer frame
        // into it once the ring holds PUNT_SLOTS frames from this one on (PROD - index), so
        // the copy is good if that had not happened when it ended.
        let (modulus, slots) = (2 * self.punt_slots, self.punt_slots);
        let intact = |p: &Punt| (p.prod().read().bits() + modulus - index) % modulus < slots;
        if !intact(&self.punt) {
            return false;
        }
        let dp = &self.dp;
        dp.head_append().write(|w| {
            // SAFETY: the splicer appends at most a request buffer (L7_BUFFER_BYTES, 1,024
            // bytes) at positions inside it, so LEN and OFF fit their 11 bits; ID is 8 bits
            // wide: every u8 is a valid value.
            unsafe {
                w.len()
                    .bits(bytes.len() as u16)
                    .off()
                    .bits(off)
                    .id()
                    .bits(id)
            }
        });
        dp.head_copy().write(|w| {
            // SAFETY: SLOT is 8 bits wide and `slot` < PUNT.PARAMS.SLOTS, which the hardware
            // keeps within it; FROM is 12 bits wide and `from` lies inside a punted frame,
            // at most a 2 KiB slot.
            unsafe { w.slot().bits(slot as u8).from().bits(from as u16) }
        });
        wait(|| dp.head_status().read().appending().bit_is_set()) && intact(&self.punt)
    }

    fn head_free(&mut self, id: u8) {
        // SAFETY: ID is 8 bits wide: every u8 is a valid value.
        self.dp.head_free().write(|w| unsafe { w.id().bits(id) });
    }

    fn head_replay(&mut self, id: u8, max_len: u16, ack: &GenFrame) -> bool {
        // `id` came from HEAD_ALLOC, so the card has the buffers: no PRESENT read here.
        if !self.txgen_stage(ack) {
            return false;
        }
        self.dp.head_replay().write(|w| {
            // SAFETY: MAX_LEN is 16 and ID 8 bits wide: every u16 and u8 is a valid value.
            unsafe { w.max_len().bits(max_len).id().bits(id) }
        });
        true
    }

    fn absorb_enable(&mut self) -> bool {
        let present = self.dp.absorb_ctrl().read().present().bit_is_set();
        if present {
            self.dp.absorb_ctrl().write(|w| w.enable().set_bit());
        }
        present
    }

    fn absorb_disarm(&mut self, slot: Slot, gen: u8) -> DisarmResult {
        self.dp.absorb_disarm().write(|w| {
            // SAFETY: SLOT is 16 and GEN 8 bits wide: every u16 and u8 is a valid value.
            unsafe { w.slot().bits(slot).gen_().bits(gen) }
        });
        // A READ and at most a WRITE through the flow-state port (tens of cycles, after a
        // SYN-ACK the card is absorbing): a few status reads. Bounded: a card that never
        // answers leaves the entry to the firmware (NOT_ARMED).
        for _ in 0..DISARM_POLLS {
            let st = self.dp.absorb_status().read();
            if st.busy().bit_is_clear() {
                return DisarmResult::from_raw(st.result().bits())
                    .unwrap_or(DisarmResult::NotArmed);
            }
        }
        DisarmResult::NotArmed
    }

    fn absorb_pop(&mut self) -> Option<(Slot, u8)> {
        let head = self.dp.absorb_head().read();
        if head.valid().bit_is_clear() {
            return None;
        }
        write_reg(self.dp.absorb_pop(), 1);
        Some((head.slot().bits(), head.gen_().bits()))
    }

    fn evq_pop(&mut self) -> Option<[u32; 4]> {
        if self.evq.head_info().read().valid().bit_is_clear() {
            return None;
        }
        let mut w = [0u32; 4];
        for (i, v) in w.iter_mut().enumerate() {
            *v = self.evq.head(i).read().bits();
        }
        write_reg(self.evq.pop(), 1);
        Some(w)
    }

    fn flow_insert(&mut self, key: &FourTuple, slot: Slot, server_half: bool) -> FlowStatus {
        self.flow_cmd(FlowOp::Insert, key, slot, server_half)
    }

    fn flow_delete(&mut self, key: &FourTuple) -> FlowStatus {
        self.flow_cmd(FlowOp::Delete, key, 0, false)
    }

    fn state_write(&mut self, slot: Slot, words: &[u32; STATIC_WORDS], last_seen: Option<u32>) {
        let f = &self.flow;
        if !wait(|| f.state_status().read().busy().bit_is_set()) {
            return;
        }
        for (i, &w) in words.iter().enumerate() {
            write_reg(f.state_static(i), w);
        }
        let op = match last_seen {
            Some(t) => {
                write_reg(f.state_dyn(0), t);
                for i in 1..DYN_WORDS {
                    write_reg(f.state_dyn(i), 0);
                }
                StateOp::Write
            }
            None => StateOp::WriteStatic,
        };
        self.state_cmd(slot, op);
    }

    fn state_read(&mut self, slot: Slot, words: &mut [u32; STATIC_WORDS]) -> u32 {
        if !wait(|| self.flow.state_status().read().busy().bit_is_set())
            || !self.state_cmd(slot, StateOp::Read)
        {
            *words = [0; STATIC_WORDS];
            return 0;
        }
        for (i, w) in words.iter_mut().enumerate() {
            *w = self.flow.state_static(i).read().bits();
        }
        self.flow.state_dyn(0).read().bits()
    }

    fn state_read_dyn(
        &mut self,
        slot: Slot,
        words: &mut [u32; STATIC_WORDS],
        dyn_words: &mut [u32; DYN_WORDS],
    ) {
        // One READ command fills STATE_STATIC and STATE_DYN from the same entry.
        dyn_words[0] = self.state_read(slot, words);
        for (i, w) in dyn_words.iter_mut().enumerate().skip(1) {
            *w = self.flow.state_dyn(i).read().bits();
        }
    }

    fn flow_entries(&mut self) -> u32 {
        self.flow.entries().read().bits()
    }

    fn l7_match(&mut self, request: &[u8], tag: u16, gen: u8) -> bool {
        let l7 = &self.l7;
        if request.is_empty() || !wait(|| l7.status().read().buf_busy().bit_is_set()) {
            return false;
        }
        write_reg(l7.buf_ptr(), 0);
        for_each_word_le(request, |w| write_reg(l7.buf_data(), w));
        l7.cmd_gen().write(|w| {
            // SAFETY: GEN is 8 bits wide: every u8 is a valid value.
            unsafe { w.gen_().bits(gen) }
        });
        l7.cmd().write(|w| {
            // SAFETY: LEN and TAG are 16 bits wide: every u16 is a valid value (a request is
            // at most the 1 KiB buffer).
            unsafe { w.len().bits(request.len() as u16).tag().bits(tag) }
        });
        true
    }

    fn syn_units(&mut self) -> u8 {
        self.dp.syn_params().read().units().bits()
    }

    fn syn_ctrl_write(&mut self, ctrl: &SynCtrl) {
        self.dp.syn_ctrl().write(|w| {
            // SAFETY: VIP_MASK is 8 bits wide: every u8 is a valid value.
            unsafe { w.vip_mask().bits(ctrl.vip_mask) }
                .offer_wscale()
                .bit(ctrl.offer_wscale)
                .offer_sack()
                .bit(ctrl.offer_sack)
                .offer_ts()
                .bit(ctrl.offer_ts)
                .cur_epoch()
                .bit(ctrl.cur_epoch & 1 != 0)
                .prev_valid()
                .bit(ctrl.prev_valid)
        });
    }

    fn syn_mss_write(&mut self, mss: u16) {
        self.dp.syn_mss().write(|w| {
            // SAFETY: MSS is 16 bits wide: every u16 is a valid value.
            unsafe { w.mss().bits(mss) }
        });
    }

    fn cookie_key_write(&mut self, slot: u8, key: [u32; 2]) {
        write_reg(self.dp.cookie_key_lo(), key[0]);
        write_reg(self.dp.cookie_key_hi(), key[1]);
        self.dp
            .cookie_key_wr()
            .write(|w| w.slot().bit(slot & 1 != 0));
    }

    fn free_depth(&mut self) -> usize {
        usize::from(self.dp.free_status().read().depth().bits())
    }

    fn ack_ctrl_write(&mut self, enable: bool) {
        self.dp.ack_ctrl().write(|w| w.enable().bit(enable));
    }

    fn free_push(&mut self, slot: Slot, gen: u8) {
        // SAFETY: SLOT is 16 bits and GEN 8 bits wide: every u16 and u8 is a valid value.
        self.dp
            .free_push()
            .write(|w| unsafe { w.slot().bits(slot).gen_().bits(gen) });
    }

    fn free_flush(&mut self) {
        self.dp.free_ctrl().write(|w| w.flush().set_bit());
    }

    fn age_depth(&mut self) -> usize {
        usize::from(self.dp.age_status().read().depth().bits())
    }

    fn age_config(&mut self, enable: bool, limit: u32) {
        write_reg(self.dp.age_limit(), limit);
        let free = enable && self.dp.age_status().read().freer().bit_is_set();
        self.dp.age_ctrl().write(|w| {
            // SAFETY: INTERVAL is 16 bits wide: every u16 is a valid value (below
            // AGE_MIN_INTERVAL it acts as that), and AGE_DEFAULT_INTERVAL fits (checked above).
            unsafe { w.interval().bits(AGE_DEFAULT_INTERVAL as u16) }
                .enable()
                .bit(enable)
                .free()
                .bit(free)
        });
    }

    fn age_timeout_write(&mut self, class: usize, ticks: u32) {
        if let Some(r) = self.dp.age_timeout_iter().nth(class) {
            write_reg(r, ticks);
        }
    }

    fn age_pop(&mut self) -> Option<Aged> {
        let head = self.dp.age_head().read();
        if head.valid().bit_is_clear() {
            return None;
        }
        let freed = head.freed().bit_is_set().then(|| Freed {
            rs: head.rs().bits(),
            active: head.active().bit_is_set(),
            client: self.dp.age_client().read().bits(),
        });
        write_reg(self.dp.age_pop(), 1);
        Some(Aged {
            slot: head.slot().bits(),
            freed,
        })
    }

    fn fin_hw(&mut self) -> bool {
        self.dp.fin_ctrl().read().present().bit_is_set()
    }

    fn fin_events(&mut self, enable: bool) {
        self.dp.fin_ctrl().write(|w| w.events().bit(enable));
    }

    fn fin_count(&mut self, rs: u8) -> u32 {
        write_reg(self.dp.fin_count_idx(), u32::from(rs));
        self.dp.fin_count().read().bits()
    }
}
