//! The flow manager's view of the data path: [`splicenic_fw_logic::splicer::Hw`] on the
//! DP, FLOW, PUNT, INJECT, EVQ and L7 register blocks (docs/datapath.md).

use splicenic_fw_logic::flowhash::FourTuple;
use splicenic_fw_logic::flowmgr::Slot;
use splicenic_fw_logic::splicer::frame::Offload;
use splicenic_fw_logic::splicer::{FlowStatus, Hw, Port, PuntInfo, DYN_WORDS, STATIC_WORDS};
use splicenic_layout::{mac_from_u64, words_le, PuntHead, PuntMeta, SERVICES};
use splicenic_pac::flow::cmd::Op as FlowOp;
use splicenic_pac::flow::state_cmd::Op as StateOp;
use splicenic_pac::flow::status::Result as FlowResult;
use splicenic_pac::{Dp, Evq, Flow, Inject, Punt, L7};

use crate::soc::{now, write_reg};

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
        let params = punt.params().read().bits();
        Self {
            punt_slots: (params & 0xffff).max(1),
            punt_slot_bytes: params >> 16,
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
        // PUNT_POLICY bit 1 = ARP (set at reset too); the other classes keep their policy.
        let policy = self.dp.punt_policy().read().bits() | 1 << 1;
        write_reg(self.dp.punt_policy(), policy);
        let ctrl = self.dp.ctrl().read().bits() | 1;
        write_reg(self.dp.ctrl(), ctrl);
    }

    fn flow_cmd(&mut self, op: FlowOp, key: &FourTuple, value: u32) -> FlowStatus {
        let f = &self.flow;
        if !wait(|| f.status().read().busy().bit_is_set()) {
            return FlowStatus::Failed;
        }
        write_reg(f.key_src_ip(), key.src_ip);
        write_reg(f.key_dst_ip(), key.dst_ip);
        write_reg(
            f.key_ports(),
            u32::from(key.src_port) << 16 | u32::from(key.dst_port),
        );
        write_reg(f.value(), value);
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
                self.dp.mac_c_hi().read().bits(),
            ),
            Port::Server => (
                self.dp.mac_s_lo().read().bits(),
                self.dp.mac_s_hi().read().bits(),
            ),
        };
        mac_from_u64(u64::from(hi & 0xffff) << 32 | u64::from(lo))
    }

    fn local_ip(&mut self, i: usize) -> Option<u32> {
        if i >= 4 || self.dp.local_ctrl(i).read().bits() >> 31 == 0 {
            return None;
        }
        Some(self.dp.local_addr(i).read().bits())
    }

    fn set_vip(&mut self, i: usize, ip: u32, port: u16, enable: bool) {
        if i >= SERVICES as usize {
            return;
        }
        write_reg(self.dp.vip_port(i), u32::from(port));
        write_reg(self.dp.vip_addr(i), ip);
        if enable {
            write_reg(self.dp.vip_port(i), u32::from(port) | 1 << 31);
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
        write_reg(self.punt.rd_ptr(), slot << 16 | 1 << 31);
        // The descriptor: PuntHead, then the punt record (PuntMeta).
        let mut head = [0u32; PuntHead::WORDS];
        let mut meta = [0u32; PuntMeta::WORDS];
        for w in head.iter_mut().chain(meta.iter_mut()) {
            *w = self.punt.rd_data().read().bits();
        }
        let frame_len = u32::from(PuntHead::unpack(&head).len);
        let len = (frame_len.min(self.punt_slot_bytes) as usize).min(buf.len());
        write_reg(self.punt.rd_ptr(), slot << 16);
        for chunk in buf[..len].chunks_mut(4) {
            let w = self.punt.rd_data().read().bits().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
        write_reg(self.punt.cons(), (cons + 1) % modulus);
        Some(PuntInfo { len, meta })
    }

    fn inject(&mut self, port: Port, frame: &[u8], offload: Option<Offload>) -> bool {
        let inj = &self.inject;
        write_reg(inj.sel(), u32::from(port == Port::Server));
        if !wait(|| inj.status().read().bits() & 1 == 0) {
            return false;
        }
        write_reg(inj.wr_ptr(), 0);
        for w in words_le(frame) {
            write_reg(inj.wr_data(), w);
        }
        let (csum, off) = match offload {
            Some(o) => (3 << 16, (o.ip_off, o.l4_off, o.l4_end)),
            None => (0, (0, 0, 0)),
        };
        write_reg(inj.commit_len(), frame.len() as u32 | csum);
        write_reg(inj.commit_off(), u32::from(off.0) | u32::from(off.1) << 16);
        write_reg(inj.commit(), u32::from(off.2));
        true
    }

    fn evq_pop(&mut self) -> Option<[u32; 4]> {
        if self.evq.head_info().read().bits() >> 31 == 0 {
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
        self.flow_cmd(
            FlowOp::Insert,
            key,
            u32::from(slot) | u32::from(server_half) << 16,
        )
    }

    fn flow_delete(&mut self, key: &FourTuple) -> FlowStatus {
        self.flow_cmd(FlowOp::Delete, key, 0)
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

    fn l7_match(&mut self, request: &[u8], tag: u16) -> bool {
        let l7 = &self.l7;
        if request.is_empty() || !wait(|| l7.status().read().bits() >> 3 & 1 != 0) {
            return false;
        }
        write_reg(l7.buf_ptr(), 0);
        for w in words_le(request) {
            write_reg(l7.buf_data(), w);
        }
        write_reg(l7.cmd(), request.len() as u32 | u32::from(tag) << 16);
        true
    }
}
