//! The data-path API: `Datapath`, borrowed from a `Card`.

use super::*;

/// The splicer data path of a card, borrowing its BAR.
pub struct Datapath<'a> {
    /// The card's BAR (the register sequences of the other files of `datapath` use it too).
    pub(super) bar: &'a mut dyn Bar,
    params: DatapathParams,
    poll_limit: u32,
}

impl fmt::Debug for Datapath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Datapath")
            .field("params", &self.params)
            .field("poll_limit", &self.poll_limit)
            .finish_non_exhaustive()
    }
}

/// Check a ring / table size read from a PARAMS register.
fn check_param(
    register: &'static str,
    value: u32,
    max: u32,
    pow2: bool,
    multiple: u32,
) -> Result<u32, DatapathError> {
    let bad = |reason| {
        Err(DatapathError::BadParams {
            register,
            value,
            reason,
        })
    };
    if value == 0 {
        bad("zero")
    } else if value > max {
        bad("larger than its register fields can address")
    } else if pow2 && !value.is_power_of_two() {
        bad("not a power of two")
    } else if value % multiple != 0 {
        bad("not a multiple of 4")
    } else {
        Ok(value)
    }
}

impl<'a> Datapath<'a> {
    /// Access the data path through `bar` (the caller knows the card has one); reads and
    /// checks the build parameters.
    pub fn new(bar: &'a mut dyn Bar) -> Result<Datapath<'a>, DriverError> {
        use regs::{dp, evq, inject, l7, punt, stats};
        let dp_params = bar.read32(dp::PARAMS)?;
        let l7_params = bar.read32(l7::PARAMS)?;
        let punt_params = bar.read32(punt::PARAMS)?;
        let inject_params = bar.read32(inject::PARAMS)?;
        let word_max = (punt::rd_ptr::WORD_MASK + 1) * 4;
        let params = DatapathParams {
            data_width: field(
                dp_params,
                dp::params::DATA_WIDTH_SHIFT,
                dp::params::DATA_WIDTH_MASK,
            ),
            rewriter_latency: field(
                dp_params,
                dp::params::LATENCY_SHIFT,
                dp::params::LATENCY_MASK,
            ),
            max_frame: bar.read32(dp::MAX_FRAME)?,
            flow_capacity: bar.read32(dp::FLOW_CAPACITY)?,
            flow_slots: check_param(
                "DP.FLOW_SLOTS",
                bar.read32(dp::FLOW_SLOTS)?,
                regs::flow::state_slot::SLOT_MASK + 1,
                true,
                1,
            )?,
            l7_rules: check_param(
                "L7.PARAMS.RULES",
                field(l7_params, l7::params::RULES_SHIFT, l7::params::RULES_MASK),
                l7::rule::INDEX_MASK + 1,
                false,
                1,
            )?,
            l7_pat_max: check_param(
                "L7.PARAMS.PAT_MAX",
                field(
                    l7_params,
                    l7::params::PAT_MAX_SHIFT,
                    l7::params::PAT_MAX_MASK,
                ),
                256,
                false,
                4,
            )?,
            punt_slots: check_param(
                "PUNT.PARAMS.SLOTS",
                field(
                    punt_params,
                    punt::params::SLOTS_SHIFT,
                    punt::params::SLOTS_MASK,
                ),
                punt::rd_ptr::SLOT_MASK + 1,
                true,
                1,
            )?,
            punt_slot_bytes: check_param(
                "PUNT.PARAMS.SLOT_BYTES",
                field(
                    punt_params,
                    punt::params::SLOT_BYTES_SHIFT,
                    punt::params::SLOT_BYTES_MASK,
                ),
                word_max,
                false,
                4,
            )?,
            inject_slots: check_param(
                "INJECT.PARAMS.SLOTS",
                field(
                    inject_params,
                    inject::params::SLOTS_SHIFT,
                    inject::params::SLOTS_MASK,
                ),
                u32::MAX,
                true,
                1,
            )?,
            inject_slot_bytes: check_param(
                "INJECT.PARAMS.SLOT_BYTES",
                field(
                    inject_params,
                    inject::params::SLOT_BYTES_SHIFT,
                    inject::params::SLOT_BYTES_MASK,
                ),
                (inject::wr_ptr::WORD_MASK + 1) * 4,
                false,
                4,
            )?,
            evq_depth: field(
                bar.read32(evq::PARAMS)?,
                evq::params::DEPTH_SHIFT,
                evq::params::DEPTH_MASK,
            ),
            stats_counters: check_param(
                "STATS.PARAMS.COUNTERS",
                field(
                    bar.read32(stats::PARAMS)?,
                    stats::params::COUNTERS_SHIFT,
                    stats::params::COUNTERS_MASK,
                ),
                stats::rd_idx::INDEX_MASK + 1,
                false,
                1,
            )?,
        };
        Ok(Datapath {
            bar,
            params,
            poll_limit: DEFAULT_POLL_LIMIT,
        })
    }

    /// Build parameters read at creation.
    pub fn params(&self) -> &DatapathParams {
        &self.params
    }

    /// Status reads allowed per wait (at least 1).
    pub fn set_poll_limit(&mut self, polls: u32) {
        self.poll_limit = polls.max(1);
    }

    /// Read `reg` until `done(value)`; returns the last value read.
    fn poll(
        &mut self,
        what: &'static str,
        register: &'static str,
        state: &'static str,
        reg: u64,
        done: impl Fn(u32) -> bool,
    ) -> Result<u32, DriverError> {
        for i in 0..self.poll_limit {
            if i > 0 {
                self.bar.pause(POLL_PAUSE)?;
            }
            let v = self.bar.read32(reg)?;
            if done(v) {
                return Ok(v);
            }
        }
        Err(DatapathError::Timeout {
            what,
            register,
            state,
            polls: self.poll_limit,
        }
        .into())
    }

    fn check_index(what: &'static str, index: usize, count: usize) -> Result<(), DatapathError> {
        if index < count {
            Ok(())
        } else {
            Err(DatapathError::IndexOutOfRange { what, index, count })
        }
    }

    fn check_slot(&self, slot: u16) -> Result<(), DatapathError> {
        Self::check_index("flow slot", slot.into(), self.params.flow_slots as usize)
    }

    // ----- DP ---------------------------------------------------------------------------

    /// `DP.NOW`: cycle counter >> 16.
    pub fn now(&mut self) -> Result<u32, DriverError> {
        Ok(self.bar.read32(regs::dp::NOW)?)
    }

    /// Set the MAC address of a port (the source MAC of frames it sends).
    pub fn set_port_mac(&mut self, port: Port, mac: [u8; 6]) -> Result<(), DriverError> {
        use regs::dp;
        let v = layout::mac_to_u64(mac);
        let (lo, hi) = match port {
            Port::Client => (dp::MAC_C_LO, dp::MAC_C_HI),
            Port::Server => (dp::MAC_S_LO, dp::MAC_S_HI),
        };
        self.bar.write32(lo, v as u32)?;
        self.bar.write32(hi, (v >> 32) as u32)?;
        Ok(())
    }

    /// Read the MAC address of a port.
    pub fn port_mac(&mut self, port: Port) -> Result<[u8; 6], DriverError> {
        use regs::dp;
        let (lo, hi) = match port {
            Port::Client => (dp::MAC_C_LO, dp::MAC_C_HI),
            Port::Server => (dp::MAC_S_LO, dp::MAC_S_HI),
        };
        let lo = self.bar.read32(lo)?;
        let hi = self.bar.read32(hi)? & 0xffff;
        Ok(layout::mac_from_u64(u64::from(hi) << 32 | u64::from(lo)))
    }

    /// Configure virtual service `i`. An enabled service set again at the same address (its
    /// port changed or not) is rewritten with one register write, so the classifier never
    /// sees it missing; a new address is written with the entry disabled (no frame matches
    /// a half-written address and port).
    pub fn set_vip(
        &mut self,
        i: usize,
        addr: Ipv4Addr,
        port: u16,
        enable: bool,
    ) -> Result<(), DriverError> {
        use regs::dp::{self, vip_port as vp};
        Self::check_index("virtual service", i, dp::VIP_ADDR_COUNT)?;
        let port_reg = dp::VIP_PORT + i as u64 * dp::VIP_PORT_STRIDE;
        let addr_reg = dp::VIP_ADDR + i as u64 * dp::VIP_ADDR_STRIDE;
        let port_val = put(port.into(), vp::PORT_SHIFT, vp::PORT_MASK);
        let en = put(1, vp::ENABLE_SHIFT, vp::ENABLE_MASK);
        if enable
            && field(
                self.bar.read32(port_reg)?,
                vp::ENABLE_SHIFT,
                vp::ENABLE_MASK,
            ) != 0
            && self.bar.read32(addr_reg)? == u32::from(addr)
        {
            return Ok(self.bar.write32(port_reg, port_val | en)?);
        }
        self.bar.write32(port_reg, port_val)?;
        self.bar.write32(addr_reg, addr.into())?;
        if enable {
            self.bar.write32(port_reg, port_val | en)?;
        }
        Ok(())
    }

    /// Configure card-owned server-side address `i`. The address is one register: an entry
    /// that is enabled stays enabled while it is written (the classifier sees the old or the
    /// new address, never none, so the server-side segments of spliced connections are not
    /// missed when a configuration is applied again); disabling clears ENABLE first.
    pub fn set_local(&mut self, i: usize, addr: Ipv4Addr, enable: bool) -> Result<(), DriverError> {
        use regs::dp::{self, local_ctrl as lc};
        Self::check_index("server-side address", i, dp::LOCAL_ADDR_COUNT)?;
        let ctrl = dp::LOCAL_CTRL + i as u64 * dp::LOCAL_CTRL_STRIDE;
        let addr_reg = dp::LOCAL_ADDR + i as u64 * dp::LOCAL_ADDR_STRIDE;
        if enable {
            self.bar.write32(addr_reg, addr.into())?;
            self.bar
                .write32(ctrl, put(1, lc::ENABLE_SHIFT, lc::ENABLE_MASK))?;
        } else {
            self.bar.write32(ctrl, 0)?;
            self.bar.write32(addr_reg, addr.into())?;
        }
        Ok(())
    }

    /// Set `DP.PUNT_POLICY`.
    pub fn set_punt_policy(&mut self, policy: PuntPolicy) -> Result<(), DriverError> {
        Ok(self.bar.write32(regs::dp::PUNT_POLICY, policy.to_raw())?)
    }

    /// Read `DP.PUNT_POLICY`.
    pub fn punt_policy(&mut self) -> Result<PuntPolicy, DriverError> {
        Ok(PuntPolicy::from_raw(
            self.bar.read32(regs::dp::PUNT_POLICY)?,
        ))
    }

    /// Set or clear `DP.CTRL.FASTPATH`.
    pub fn set_fastpath(&mut self, on: bool) -> Result<(), DriverError> {
        use regs::dp::{self, ctrl as c};
        let v = self.bar.read32(dp::CTRL)? & !(c::FASTPATH_MASK << c::FASTPATH_SHIFT);
        Ok(self.bar.write32(
            dp::CTRL,
            v | put(on.into(), c::FASTPATH_SHIFT, c::FASTPATH_MASK),
        )?)
    }

    // ----- FLOW table -------------------------------------------------------------------

    fn flow_command(
        &mut self,
        what: &'static str,
        op: u32,
        key: Option<&FlowKey>,
        value: Option<(u16, FlowHalf)>,
    ) -> Result<FlowResult, DriverError> {
        use regs::flow::{self, cmd, key_ports as kp, result as r, status as st, value as val};
        let busy = |v: u32| field(v, st::BUSY_SHIFT, st::BUSY_MASK) != 0;
        self.poll(what, "FLOW.STATUS.BUSY", "set", flow::STATUS, |v| !busy(v))?;
        if let Some(k) = key {
            self.bar.write32(flow::KEY_SRC_IP, k.src.into())?;
            self.bar.write32(flow::KEY_DST_IP, k.dst.into())?;
            self.bar.write32(
                flow::KEY_PORTS,
                put(k.dport.into(), kp::DST_PORT_SHIFT, kp::DST_PORT_MASK)
                    | put(k.sport.into(), kp::SRC_PORT_SHIFT, kp::SRC_PORT_MASK),
            )?;
        }
        if let Some((slot, dir)) = value {
            self.bar.write32(
                flow::VALUE,
                put(slot.into(), val::SLOT_SHIFT, val::SLOT_MASK)
                    | put(dir.raw().into(), val::DIR_SHIFT, val::DIR_MASK),
            )?;
        }
        self.bar
            .write32(flow::CMD, put(op, cmd::OP_SHIFT, cmd::OP_MASK))?;
        let status = self.poll(what, "FLOW.STATUS.BUSY", "set", flow::STATUS, |v| !busy(v))?;
        let result = self.bar.read32(flow::RESULT)?;
        Ok(FlowResult {
            status: flow_status(field(status, st::RESULT_SHIFT, st::RESULT_MASK)),
            slot: field(result, r::SLOT_SHIFT, r::SLOT_MASK) as u16,
            dir: FlowHalf::from_bit(field(result, r::DIR_SHIFT, r::DIR_MASK) != 0),
            bucket: self.bar.read32(flow::BUCKET)?,
            way: field(status, st::WAY_SHIFT, st::WAY_MASK) as u8,
        })
    }

    /// Insert `key` -> (`slot`, `dir`). A refused insert (EXISTS, BUCKET_FULL) is reported
    /// in the result's status, not as an error.
    pub fn flow_insert(
        &mut self,
        key: &FlowKey,
        slot: u16,
        dir: FlowHalf,
    ) -> Result<FlowResult, DriverError> {
        self.check_slot(slot)?;
        self.flow_command(
            "flow insert",
            regs::flow::cmd::OP_INSERT,
            Some(key),
            Some((slot, dir)),
        )
    }

    /// Delete `key` (status NOT_FOUND when it is absent).
    pub fn flow_delete(&mut self, key: &FlowKey) -> Result<FlowResult, DriverError> {
        self.flow_command("flow delete", regs::flow::cmd::OP_DELETE, Some(key), None)
    }

    /// Look up `key` (status OK with slot and dir, or NOT_FOUND).
    pub fn flow_lookup(&mut self, key: &FlowKey) -> Result<FlowResult, DriverError> {
        self.flow_command("flow lookup", regs::flow::cmd::OP_LOOKUP, Some(key), None)
    }

    /// Remove every flow table entry.
    pub fn flow_clear(&mut self) -> Result<(), DriverError> {
        self.flow_command("flow clear", regs::flow::cmd::OP_CLEAR, None, None)
            .map(|_| ())
    }

    /// `FLOW.ENTRIES`: entries in the table.
    pub fn flow_entries(&mut self) -> Result<u32, DriverError> {
        Ok(self.bar.read32(regs::flow::ENTRIES)?)
    }

    // ----- FLOW state -------------------------------------------------------------------

    fn state_command(&mut self, what: &'static str, slot: u16, op: u32) -> Result<(), DriverError> {
        use regs::flow::{self, state_cmd as c, state_slot as s, state_status as st};
        self.bar.write32(
            flow::STATE_SLOT,
            put(slot.into(), s::SLOT_SHIFT, s::SLOT_MASK),
        )?;
        self.bar
            .write32(flow::STATE_CMD, put(op, c::OP_SHIFT, c::OP_MASK))?;
        self.poll(
            what,
            "FLOW.STATE_STATUS.BUSY",
            "set",
            flow::STATE_STATUS,
            |v| field(v, st::BUSY_SHIFT, st::BUSY_MASK) == 0,
        )?;
        Ok(())
    }

    fn state_idle(&mut self, what: &'static str) -> Result<(), DriverError> {
        use regs::flow::{self, state_status as st};
        self.poll(
            what,
            "FLOW.STATE_STATUS.BUSY",
            "set",
            flow::STATE_STATUS,
            |v| field(v, st::BUSY_SHIFT, st::BUSY_MASK) == 0,
        )?;
        Ok(())
    }

    /// Write a whole flow state slot: entry and counters.
    pub fn state_write(
        &mut self,
        slot: u16,
        entry: &FlowEntry,
        counters: &FlowCounters,
    ) -> Result<(), DriverError> {
        use regs::flow;
        self.check_slot(slot)?;
        self.state_idle("flow state write")?;
        self.bar
            .write_block(flow::STATE_STATIC, &entry.to_words())?;
        self.bar
            .write_block(flow::STATE_DYN, &counters.to_words())?;
        self.state_command("flow state write", slot, flow::state_cmd::OP_WRITE)
    }

    /// Write the static part of a flow state slot; its counters and last-seen are kept.
    pub fn state_write_static(&mut self, slot: u16, entry: &FlowEntry) -> Result<(), DriverError> {
        use regs::flow;
        self.check_slot(slot)?;
        self.state_idle("flow state write")?;
        self.bar
            .write_block(flow::STATE_STATIC, &entry.to_words())?;
        self.state_command("flow state write", slot, flow::state_cmd::OP_WRITE_STATIC)
    }

    /// Read a flow state slot (the counters are a consistent snapshot).
    pub fn state_read(&mut self, slot: u16) -> Result<(FlowEntry, FlowCounters), DriverError> {
        use regs::flow;
        self.check_slot(slot)?;
        self.state_idle("flow state read")?;
        self.state_command("flow state read", slot, flow::state_cmd::OP_READ)?;
        let mut st = [0u32; FLOW_STATIC_WORDS];
        let mut dy = [0u32; FLOW_DYN_WORDS];
        self.bar.read_block(flow::STATE_STATIC, &mut st)?;
        self.bar.read_block(flow::STATE_DYN, &mut dy)?;
        Ok((FlowEntry::from_words(&st)?, FlowCounters::from_words(&dy)))
    }

    // ----- PUNT -------------------------------------------------------------------------

    /// Take the oldest frame from the punt ring, or `None` when it is empty.
    pub fn punt_next(&mut self) -> Result<Option<PuntedFrame>, DriverError> {
        use regs::punt::{self, rd_ptr as rp};
        let slots = self.params.punt_slots;
        let modulus = 2 * slots;
        let prod = self.bar.read32(punt::PROD)?;
        let cons = self.bar.read32(punt::CONS)?;
        if prod == cons {
            return Ok(None);
        }
        if prod.wrapping_sub(cons) % modulus > slots || prod >= modulus || cons >= modulus {
            return Err(DatapathError::PuntRing { prod, cons, slots }.into());
        }
        let slot = cons % slots;
        let ptr = put(slot, rp::SLOT_SHIFT, rp::SLOT_MASK);
        self.bar
            .write32(punt::RD_PTR, ptr | put(1, rp::DESC_SHIFT, rp::DESC_MASK))?;
        let mut desc = [0u32; PUNT_DESC_WORDS];
        for w in desc.iter_mut() {
            *w = self.bar.read32(punt::RD_DATA)?;
        }
        let head = layout::PuntHead::unpack(&[desc[0]]);
        let len = usize::from(head.len);
        let max = self.params.punt_slot_bytes as usize;
        if len > max {
            return Err(DatapathError::PuntDescriptor { slot, len, max }.into());
        }
        self.bar.write32(punt::RD_PTR, ptr)?;
        let mut data = Vec::with_capacity(len.next_multiple_of(4));
        for _ in 0..len.div_ceil(4) {
            data.extend_from_slice(&self.bar.read32(punt::RD_DATA)?.to_le_bytes());
        }
        data.truncate(len);
        self.bar.write32(punt::CONS, (cons + 1) % modulus)?;
        Ok(Some(PuntedFrame {
            slot,
            tuser: head.bad,
            meta: PuntMeta::decode(std::array::from_fn(|i| desc[1 + i])),
            data,
        }))
    }

    // ----- INJECT -----------------------------------------------------------------------

    /// Send `frame` out of `port` through its inject ring, optionally with checksums
    /// filled in. Waits (bounded) for a free slot.
    pub fn inject(
        &mut self,
        port: Port,
        frame: &[u8],
        offload: Option<ChecksumOffload>,
    ) -> Result<(), DriverError> {
        use regs::inject::{self, commit as cm, commit_len as cl, commit_off as co, status as st};
        let max = self.params.inject_slot_bytes as usize;
        if frame.is_empty() || frame.len() > max {
            return Err(DatapathError::BadLength {
                what: "inject frame",
                len: frame.len(),
                min: 1,
                max,
            }
            .into());
        }
        let len = frame.len();
        let off = offload.unwrap_or(ChecksumOffload {
            ip_off: 0,
            l4_off: 0,
            l4_end: 0,
            ip: false,
            tcp: false,
        });
        if off.ip || off.tcp {
            let (ip, l4, end) = (
                usize::from(off.ip_off),
                usize::from(off.l4_off),
                usize::from(off.l4_end),
            );
            if ip + 20 > l4 || l4 + 20 > end || end > len {
                return Err(DatapathError::BadOffload {
                    ip_off: off.ip_off,
                    l4_off: off.l4_off,
                    l4_end: off.l4_end,
                    len,
                }
                .into());
            }
        }
        self.bar.write32(
            inject::SEL,
            put(
                port.raw().into(),
                inject::sel::PORT_SHIFT,
                inject::sel::PORT_MASK,
            ),
        )?;
        self.poll(
            "inject",
            "INJECT.STATUS.READY",
            "clear",
            inject::STATUS,
            |v| field(v, st::READY_SHIFT, st::READY_MASK) != 0,
        )?;
        self.bar.write32(inject::WR_PTR, 0)?;
        for w in layout::words_le(frame) {
            self.bar.write32(inject::WR_DATA, w)?;
        }
        self.bar.write32(
            inject::COMMIT_LEN,
            put(len as u32, cl::LEN_SHIFT, cl::LEN_MASK)
                | put(off.ip.into(), cl::CSUM_IP_SHIFT, cl::CSUM_IP_MASK)
                | put(off.tcp.into(), cl::CSUM_TCP_SHIFT, cl::CSUM_TCP_MASK),
        )?;
        self.bar.write32(
            inject::COMMIT_OFF,
            put(off.ip_off.into(), co::IP_OFF_SHIFT, co::IP_OFF_MASK)
                | put(off.l4_off.into(), co::L4_OFF_SHIFT, co::L4_OFF_MASK),
        )?;
        self.bar.write32(
            inject::COMMIT,
            put(off.l4_end.into(), cm::L4_END_SHIFT, cm::L4_END_MASK),
        )?;
        Ok(())
    }

    // ----- EVQ --------------------------------------------------------------------------

    /// Remove and decode the head of the event queue, or `None` when it is empty.
    pub fn evq_pop(&mut self) -> Result<Option<Event>, DriverError> {
        use regs::evq::{self, head_info as hi};
        let info = self.bar.read32(evq::HEAD_INFO)?;
        if field(info, hi::VALID_SHIFT, hi::VALID_MASK) == 0 {
            return Ok(None);
        }
        let mut w = [0u32; evq::HEAD_COUNT];
        self.bar.read_block(evq::HEAD, &mut w)?;
        self.bar.write32(evq::POP, 1)?;
        Ok(Some(Event::decode(w)))
    }

    // ----- STATS ------------------------------------------------------------------------

    /// Take a snapshot and read every counter of it (index map in docs/datapath.md).
    pub fn stats_snapshot(&mut self) -> Result<Vec<u64>, DriverError> {
        use regs::stats::{self, ctrl as c, status as st};
        self.poll(
            "statistics init",
            "STATS.STATUS.INIT_DONE",
            "clear",
            stats::STATUS,
            |v| field(v, st::INIT_DONE_SHIFT, st::INIT_DONE_MASK) != 0,
        )?;
        let keep = self.bar.read32(stats::CTRL)?
            & (c::CLEAR_ON_SNAPSHOT_MASK << c::CLEAR_ON_SNAPSHOT_SHIFT);
        self.bar.write32(
            stats::CTRL,
            keep | put(1, c::SNAPSHOT_SHIFT, c::SNAPSHOT_MASK),
        )?;
        let mut out = Vec::with_capacity(self.params.stats_counters as usize);
        for i in 0..self.params.stats_counters {
            self.bar.write32(stats::RD_IDX, i)?;
            self.poll(
                "statistics read",
                "STATS.STATUS.RD_BUSY",
                "set",
                stats::STATUS,
                |v| field(v, st::RD_BUSY_SHIFT, st::RD_BUSY_MASK) == 0,
            )?;
            let lo = self.bar.read32(stats::RD_LO)?;
            let hi = self.bar.read32(stats::RD_HI)?;
            out.push(u64::from(hi) << 32 | u64::from(lo));
        }
        Ok(out)
    }

    /// Take a snapshot and decode it ([`StatsSnapshot`]); fails on a card without the
    /// per-direction real-server counters.
    pub fn stats(&mut self) -> Result<StatsSnapshot, DriverError> {
        Ok(StatsSnapshot::from_counters(self.stats_snapshot()?)?)
    }

    /// Set `STATS.CTRL.CLEAR_ON_SNAPSHOT` (snapshots then report deltas).
    pub fn set_stats_clear_on_snapshot(&mut self, on: bool) -> Result<(), DriverError> {
        use regs::stats::{self, ctrl as c};
        Ok(self.bar.write32(
            stats::CTRL,
            put(
                on.into(),
                c::CLEAR_ON_SNAPSHOT_SHIFT,
                c::CLEAR_ON_SNAPSHOT_MASK,
            ),
        )?)
    }

    // ----- drop counters outside STATS --------------------------------------------------

    /// Read the aging scanner's state ([`Aging`]); nothing is written (the queue is the
    /// firmware's: reading `DP.AGE_HEAD` here would race with its pops, so it is not read).
    pub fn aging(&mut self) -> Result<Aging, DriverError> {
        use regs::dp;
        let ctrl = self.bar.read32(dp::AGE_CTRL)?;
        let st = self.bar.read32(dp::AGE_STATUS)?;
        Ok(Aging {
            enabled: field(ctrl, dp::age_ctrl::ENABLE_SHIFT, dp::age_ctrl::ENABLE_MASK) != 0,
            interval: field(
                ctrl,
                dp::age_ctrl::INTERVAL_SHIFT,
                dp::age_ctrl::INTERVAL_MASK,
            ) as u16,
            limit: self.bar.read32(dp::AGE_LIMIT)?,
            pos: self.bar.read32(dp::AGE_POS)?,
            level: field(st, dp::age_status::LEVEL_SHIFT, dp::age_status::LEVEL_MASK) as u8,
            depth: field(st, dp::age_status::DEPTH_SHIFT, dp::age_status::DEPTH_MASK) as u8,
            sweeps: self.bar.read32(dp::AGE_SWEEPS)?,
            expired: self.bar.read32(dp::AGE_EXPIRED)?,
            free: field(ctrl, dp::age_ctrl::FREE_SHIFT, dp::age_ctrl::FREE_MASK) != 0,
            freed: self.bar.read32(dp::AGE_FREED)?,
        })
    }

    /// Read the frame generator's state and counters ([`TxGen`]); nothing is written (the
    /// staged registers are the firmware's).
    pub fn tx_gen(&mut self) -> Result<TxGen, DriverError> {
        use regs::dp;
        let st = self.bar.read32(dp::TXGEN_STATUS)?;
        Ok(TxGen {
            present: field(
                st,
                dp::txgen_status::PRESENT_SHIFT,
                dp::txgen_status::PRESENT_MASK,
            ) != 0,
            busy: field(
                st,
                dp::txgen_status::BUSY_SHIFT,
                dp::txgen_status::BUSY_MASK,
            ) != 0,
            sent_client: self.bar.read32(dp::TXGEN_SENT_C)?,
            sent_server: self.bar.read32(dp::TXGEN_SENT_S)?,
            refused: self.bar.read32(dp::TXGEN_REFUSED)?,
        })
    }

    /// Read the request-head buffers' state and counters ([`HeadBufs`]); nothing is
    /// written (the buffers are the firmware's).
    pub fn head_bufs(&mut self) -> Result<HeadBufs, DriverError> {
        use regs::dp;
        use regs::dp::head_status as hs;
        let st = self.bar.read32(dp::HEAD_STATUS)?;
        Ok(HeadBufs {
            present: field(st, hs::PRESENT_SHIFT, hs::PRESENT_MASK) != 0,
            in_use: field(st, hs::IN_USE_SHIFT, hs::IN_USE_MASK) as u8,
            in_use_max: field(st, hs::IN_USE_MAX_SHIFT, hs::IN_USE_MAX_MASK) as u8,
            sent: self.bar.read32(dp::HEAD_SENT)?,
            long: self.bar.read32(dp::HEAD_LONG)?,
            bad: self.bar.read32(dp::HEAD_BAD)?,
        })
    }

    /// Read the SYN-ACK absorber's state and counters ([`Absorber`]); nothing is written
    /// (the absorber is the firmware's to turn on).
    pub fn absorber(&mut self) -> Result<Absorber, DriverError> {
        use regs::dp;
        use regs::dp::absorb_ctrl as ac;
        let c = self.bar.read32(dp::ABSORB_CTRL)?;
        Ok(Absorber {
            present: field(c, ac::PRESENT_SHIFT, ac::PRESENT_MASK) != 0,
            enabled: field(c, ac::ENABLE_SHIFT, ac::ENABLE_MASK) != 0,
            done: self.bar.read32(dp::ABSORB_DONE)?,
            punted: self.bar.read32(dp::ABSORB_PUNTED)?,
            queued: field(
                self.bar.read32(dp::ABSORB_HEAD)?,
                dp::absorb_head::LEVEL_SHIFT,
                dp::absorb_head::LEVEL_MASK,
            ) as u8,
            spilled: self.bar.read32(dp::ABSORB_SPILLED)?,
        })
    }

    /// Read who follows the spliced flows' FINs ([`FinCtrl`]); nothing is written. The
    /// per-server counts themselves (`DP.FIN_COUNT`) are the firmware's to read: a write of
    /// `DP.FIN_COUNT_IDX` from here would race with its reads; they show in the servers'
    /// active and inactive counts.
    pub fn fin_ctrl(&mut self) -> Result<FinCtrl, DriverError> {
        use regs::dp;
        let c = self.bar.read32(dp::FIN_CTRL)?;
        Ok(FinCtrl {
            present: field(c, dp::fin_ctrl::PRESENT_SHIFT, dp::fin_ctrl::PRESENT_MASK) != 0,
            events: field(c, dp::fin_ctrl::EVENTS_SHIFT, dp::fin_ctrl::EVENTS_MASK) != 0,
        })
    }

    /// Read the engine's high-water marks ([`Marks`]); nothing is written.
    pub fn marks(&mut self) -> Result<Marks, DriverError> {
        use regs::dp;
        let low = self.bar.read32(dp::FREE_LOW)?;
        let armed = field(low, dp::free_low::ARMED_SHIFT, dp::free_low::ARMED_MASK) != 0;
        Ok(Marks {
            free_low: armed
                .then(|| field(low, dp::free_low::LOW_SHIFT, dp::free_low::LOW_MASK) as u16),
            free_depth: field(
                self.bar.read32(dp::FREE_STATUS)?,
                dp::free_status::DEPTH_SHIFT,
                dp::free_status::DEPTH_MASK,
            ) as u16,
            punt_high: field(
                self.bar.read32(dp::PUNT_HIGH)?,
                dp::punt_high::HIGH_SHIFT,
                dp::punt_high::HIGH_MASK,
            ) as u16,
            punt_slots: self.params.punt_slots,
        })
    }

    /// Restart the high-water marks at the current free-list level and punt-ring count
    /// (like `ipvsadm --zero` for the counters).
    pub fn restart_marks(&mut self) -> Result<(), DriverError> {
        self.bar.write32(regs::dp::FREE_LOW, 0)?;
        self.bar.write32(regs::dp::PUNT_HIGH, 0)?;
        Ok(())
    }

    /// Read the ACK validator's state and counters ([`AckValidator`]); nothing is written.
    pub fn ack_validator(&mut self) -> Result<AckValidator, DriverError> {
        use regs::dp;
        let st = self.bar.read32(dp::FREE_STATUS)?;
        Ok(AckValidator {
            enabled: field(
                self.bar.read32(dp::ACK_CTRL)?,
                dp::ack_ctrl::ENABLE_SHIFT,
                dp::ack_ctrl::ENABLE_MASK,
            ) != 0,
            free_level: field(
                st,
                dp::free_status::LEVEL_SHIFT,
                dp::free_status::LEVEL_MASK,
            ) as u16,
            free_depth: field(
                st,
                dp::free_status::DEPTH_SHIFT,
                dp::free_status::DEPTH_MASK,
            ) as u16,
            new: self.bar.read32(dp::ACK_NEW)?,
            found: self.bar.read32(dp::ACK_FOUND)?,
            bad_cookie: self.bar.read32(dp::ACK_BAD_COOKIE)?,
            stale: self.bar.read32(dp::ACK_STALE)?,
            no_slot: self.bar.read32(dp::ACK_NO_SLOT)?,
            table_full: self.bar.read32(dp::ACK_TABLE_FULL)?,
            push_refused: self.bar.read32(dp::FREE_REFUSED)?,
            lost: self.bar.read32(dp::ACK_LOST)?,
        })
    }

    // ----- decision supply (DP.SCHED_*, docs/sched-unit.md) ------------------------------

    fn check_pool(pool: usize) -> Result<(), DatapathError> {
        Self::check_index("decision-supply pool", pool, SCHED_POOLS)
    }

    /// Write `entries` into the decision table from `base` on (`SCHED_TBL_ADDR`, then one
    /// `SCHED_TBL_DATA` per entry). Rewrite a region only while no descriptor names it or its
    /// pool is OFF.
    pub fn sched_write_table(&mut self, base: usize, entries: &[u8]) -> Result<(), DriverError> {
        if base + entries.len() > SCHED_TABLE_ENTRIES {
            return Err(DatapathError::BadLength {
                what: "decision-table region end",
                len: base + entries.len(),
                min: 0,
                max: SCHED_TABLE_ENTRIES,
            }
            .into());
        }
        self.bar.write32(regs::dp::SCHED_TBL_ADDR, base as u32)?;
        for &e in entries {
            self.bar.write32(regs::dp::SCHED_TBL_DATA, e.into())?;
        }
        Ok(())
    }

    /// Set pool `pool`'s eligibility mask (bit = server id).
    pub fn sched_set_mask(&mut self, pool: usize, mask: u64) -> Result<(), DriverError> {
        use regs::dp::sched_mask_wr as m;
        Self::check_pool(pool)?;
        self.bar.write32(regs::dp::SCHED_MASK_LO, mask as u32)?;
        self.bar
            .write32(regs::dp::SCHED_MASK_HI, (mask >> 32) as u32)?;
        self.bar.write32(
            regs::dp::SCHED_MASK_WR,
            put(pool as u32, m::POOL_SHIFT, m::POOL_MASK),
        )?;
        Ok(())
    }

    /// Commit pool `pool`'s descriptor.
    pub fn sched_commit(&mut self, pool: usize, d: &SchedDescriptor) -> Result<(), DriverError> {
        use regs::dp::{sched_commit as c, sched_loop as l, sched_range as r};
        Self::check_pool(pool)?;
        for (what, v) in [
            ("decision-table base", d.base),
            ("decision-table last", d.last),
            ("decision-table loop", d.loop_start),
            ("decision-table pointer", d.ptr.unwrap_or(0)),
        ] {
            Self::check_index(what, v.into(), SCHED_TABLE_ENTRIES)?;
        }
        self.bar.write32(
            regs::dp::SCHED_RANGE,
            put(d.base.into(), r::BASE_SHIFT, r::BASE_MASK)
                | put(d.last.into(), r::LAST_SHIFT, r::LAST_MASK),
        )?;
        self.bar.write32(
            regs::dp::SCHED_LOOP,
            put(d.loop_start.into(), l::LOOP_SHIFT, l::LOOP_MASK)
                | put(d.ptr.unwrap_or(0).into(), l::PTR_SHIFT, l::PTR_MASK),
        )?;
        self.bar.write32(
            regs::dp::SCHED_COMMIT,
            put(pool as u32, c::POOL_SHIFT, c::POOL_MASK)
                | put(d.mode.raw().into(), c::MODE_SHIFT, c::MODE_MASK)
                | put(d.fallback.into(), c::FALLBACK_SHIFT, c::FALLBACK_MASK)
                | put(d.hash_port.into(), c::HASH_PORT_SHIFT, c::HASH_PORT_MASK)
                | put(d.ptr.is_some().into(), c::SET_PTR_SHIFT, c::SET_PTR_MASK),
        )?;
        Ok(())
    }

    /// Load a compiled pool ([`splicenic_fw_logic::sched::Scheduler::hw_program`]) with its
    /// table at `base`: the pool OFF, the table and the mask written, the descriptor committed
    /// with the pointer at 0.
    pub fn sched_load(
        &mut self,
        pool: usize,
        base: usize,
        prog: &splicenic_fw_logic::sched::HwProgram,
        table: &[u8],
    ) -> Result<(), DriverError> {
        Self::check_pool(pool)?;
        Self::check_index("decision-table base", base, SCHED_TABLE_ENTRIES)?;
        let entries = table.get(..prog.len).ok_or(DatapathError::BadLength {
            what: "compiled decision table",
            len: table.len(),
            min: prog.len,
            max: SCHED_TABLE_ENTRIES,
        })?;
        self.sched_commit(pool, &SchedDescriptor::off())?;
        self.sched_write_table(base, entries)?;
        self.sched_set_mask(pool, prog.eligible)?;
        self.sched_commit(pool, &SchedDescriptor::from_program(prog, base as u16))
    }

    /// Pool `pool`'s cycle pointer (commit the pool OFF first for a stable value).
    pub fn sched_pointer(&mut self, pool: usize) -> Result<u16, DriverError> {
        use regs::dp::sched_ptr as p;
        Self::check_pool(pool)?;
        self.bar.write32(
            regs::dp::SCHED_PTR,
            put(pool as u32, p::POOL_SHIFT, p::POOL_MASK),
        )?;
        // the read-back is registered: a second read is certain to see the selected pool
        let _ = self.bar.read32(regs::dp::SCHED_PTR)?;
        Ok(field(
            self.bar.read32(regs::dp::SCHED_PTR)?,
            p::PTR_SHIFT,
            p::PTR_MASK,
        ) as u16)
    }

    /// Ask for pool `pool`'s server for a connection from `client:port` to `dst`.
    pub fn sched_pick(
        &mut self,
        pool: usize,
        client: Ipv4Addr,
        port: u16,
        dst: Ipv4Addr,
    ) -> Result<SchedAnswer, DriverError> {
        use regs::dp::{sched_req as q, sched_rsp as a};
        Self::check_pool(pool)?;
        self.bar
            .write32(regs::dp::SCHED_REQ_CLIENT, u32::from(client))?;
        self.bar.write32(
            regs::dp::SCHED_REQ,
            put(port.into(), q::PORT_SHIFT, q::PORT_MASK)
                | put(u32::from(dst) & 0xff, q::DST_SHIFT, q::DST_MASK)
                | put(pool as u32, q::POOL_SHIFT, q::POOL_MASK),
        )?;
        let v = self.poll(
            "decision-supply request",
            "DP.SCHED_RSP",
            "not DONE",
            regs::dp::SCHED_RSP,
            |v| field(v, a::DONE_SHIFT, a::DONE_MASK) != 0,
        )?;
        let code = field(v, a::STATUS_SHIFT, a::STATUS_MASK);
        let status = SchedStatus::from_raw(code as u8).ok_or(DatapathError::UnknownCode {
            what: "SchedStatus",
            value: code,
        })?;
        Ok(SchedAnswer {
            status,
            server: field(v, a::SERVER_SHIFT, a::SERVER_MASK) as u8,
        })
    }

    /// The decision supply's answer counters.
    pub fn sched_counters(&mut self) -> Result<SchedCounters, DriverError> {
        Ok(SchedCounters {
            picks: self.bar.read32(regs::dp::SCHED_PICKS)?,
            nones: self.bar.read32(regs::dp::SCHED_NONES)?,
            punts: self.bar.read32(regs::dp::SCHED_PUNTS)?,
        })
    }

    // ----- least-load decision supply (DP.LOAD_*, docs/load-sched.md) ---------------------

    fn check_load_slot(pool: usize, slot: usize) -> Result<(), DatapathError> {
        Self::check_pool(pool)?;
        Self::check_index("least-load server slot", slot, LOAD_SLOTS)
    }

    /// Runs one operation with the staged values: waits while one runs, writes `LOAD_OP`,
    /// then waits for it to end (`answered`: for its answer, DONE). Returns `LOAD_RSP`.
    fn load_op(
        &mut self,
        code: LoadOp,
        flag: bool,
        pool: usize,
        slot: usize,
        answered: bool,
    ) -> Result<u32, DriverError> {
        use regs::dp::{load_op as o, load_rsp as r};
        let idle = |v: u32| field(v, r::BUSY_SHIFT, r::BUSY_MASK) == 0;
        self.poll(
            "least-load operation",
            "DP.LOAD_RSP",
            "BUSY",
            regs::dp::LOAD_RSP,
            idle,
        )?;
        self.bar.write32(
            regs::dp::LOAD_OP,
            put(code.raw().into(), o::CODE_SHIFT, o::CODE_MASK)
                | put(flag.into(), o::FLAG_SHIFT, o::FLAG_MASK)
                | put(pool as u32, o::POOL_SHIFT, o::POOL_MASK)
                | put(slot as u32, o::SLOT_SHIFT, o::SLOT_MASK),
        )?;
        if answered {
            self.poll(
                "least-load operation",
                "DP.LOAD_RSP",
                "not DONE",
                regs::dp::LOAD_RSP,
                |v| field(v, r::DONE_SHIFT, r::DONE_MASK) != 0,
            )
        } else {
            self.poll(
                "least-load operation",
                "DP.LOAD_RSP",
                "BUSY",
                regs::dp::LOAD_RSP,
                idle,
            )
        }
    }

    /// Set pool `pool`'s least-load descriptor: its mode and the words a pick reads
    /// (1..=32; slots 0 .. 2 * beats).
    pub fn load_set_pool(
        &mut self,
        pool: usize,
        mode: LoadMode,
        beats: u8,
    ) -> Result<(), DriverError> {
        use regs::dp::load_pool as p;
        Self::check_pool(pool)?;
        if !(1..=LOAD_MAX_BEATS).contains(&beats) {
            return Err(DatapathError::BadLength {
                what: "least-load words per pick",
                len: beats.into(),
                min: 1,
                max: LOAD_MAX_BEATS.into(),
            }
            .into());
        }
        self.bar.write32(
            regs::dp::LOAD_POOL,
            put(pool as u32, p::POOL_SHIFT, p::POOL_MASK)
                | put(mode.raw().into(), p::MODE_SHIFT, p::MODE_MASK)
                | put(u32::from(beats - 1), p::BEATS_M1_SHIFT, p::BEATS_M1_MASK),
        )?;
        Ok(())
    }

    /// Configure a server slot (CONFIG): live, weight, rank, thresholds; `clear_overload`
    /// clears its overload flag (the firmware's `thresholds_clear_overload`). Its counts are
    /// kept.
    pub fn load_config(
        &mut self,
        pool: usize,
        slot: usize,
        cfg: &LoadSlot,
        clear_overload: bool,
    ) -> Result<(), DriverError> {
        use regs::dp::{load_cfg as c, load_lower as l, load_upper as u};
        Self::check_load_slot(pool, slot)?;
        let max = splicenic_layout::LOAD_THRESHOLD_MAX as usize;
        Self::check_index("least-load upper threshold", cfg.upper as usize, max + 1)?;
        Self::check_index("least-load lower threshold", cfg.lower as usize, max + 1)?;
        Self::check_index("least-load rank", cfg.rank.into(), LOAD_SLOTS)?;
        self.bar.write32(
            regs::dp::LOAD_CFG,
            put(cfg.weight.into(), c::WEIGHT_SHIFT, c::WEIGHT_MASK)
                | put(cfg.rank.into(), c::RANK_SHIFT, c::RANK_MASK)
                | put(cfg.live.into(), c::LIVE_SHIFT, c::LIVE_MASK),
        )?;
        self.bar.write32(
            regs::dp::LOAD_UPPER,
            put(cfg.upper, u::THRESHOLD_SHIFT, u::THRESHOLD_MASK),
        )?;
        self.bar.write32(
            regs::dp::LOAD_LOWER,
            put(cfg.lower, l::THRESHOLD_SHIFT, l::THRESHOLD_MASK),
        )?;
        self.load_op(LoadOp::Config, clear_overload, pool, slot, false)?;
        Ok(())
    }

    /// Load a compiled least-load pool: every slot whose configuration differs from
    /// `written` (all of them when `None`), then the descriptor.
    pub fn load_program(
        &mut self,
        pool: usize,
        prog: &LoadProgram,
        written: Option<&[LoadSlot]>,
    ) -> Result<(), DriverError> {
        Self::check_pool(pool)?;
        for (slot, cfg) in prog.slots.iter().enumerate().take(LOAD_SLOTS) {
            if written.and_then(|w| w.get(slot)) != Some(cfg) {
                self.load_config(pool, slot, cfg, false)?;
            }
        }
        self.load_set_pool(pool, prog.mode, prog.beats)
    }

    /// Set a server slot's counts and overload flag (COUNTS): a new server starts at zero.
    pub fn load_set_counts(
        &mut self,
        pool: usize,
        slot: usize,
        counts: LoadCounts,
    ) -> Result<(), DriverError> {
        use regs::dp::load_counts as c;
        Self::check_load_slot(pool, slot)?;
        let n = LOAD_COUNT_MAX as usize + 1;
        Self::check_index("least-load active count", counts.active as usize, n)?;
        Self::check_index("least-load inactive count", counts.inactive as usize, n)?;
        self.bar.write32(
            regs::dp::LOAD_COUNTS,
            put(counts.active, c::ACTIVE_SHIFT, c::ACTIVE_MASK)
                | put(counts.inactive, c::INACTIVE_SHIFT, c::INACTIVE_MASK)
                | put(
                    counts.overloaded.into(),
                    c::OVERLOADED_SHIFT,
                    c::OVERLOADED_MASK,
                ),
        )?;
        self.load_op(LoadOp::Counts, false, pool, slot, false)?;
        Ok(())
    }

    /// Count a connection event of a server slot. Returns true when the count it takes
    /// from was 0 (nothing changed, counted in `LOAD_UNDERFLOWS`).
    pub fn load_event(
        &mut self,
        pool: usize,
        slot: usize,
        event: LoadEvent,
    ) -> Result<bool, DriverError> {
        use regs::dp::load_rsp as r;
        Self::check_load_slot(pool, slot)?;
        let (code, flag) = match event {
            LoadEvent::Connect => (LoadOp::Connect, false),
            LoadEvent::Establish => (LoadOp::Establish, false),
            LoadEvent::Leave => (LoadOp::Leave, false),
            LoadEvent::Close { active } => (LoadOp::Close, active),
        };
        let v = self.load_op(code, flag, pool, slot, false)?;
        Ok(field(v, r::UNDERFLOW_SHIFT, r::UNDERFLOW_MASK) != 0)
    }

    /// Pick pool `pool`'s server for a new connection; `bind` counts the connection on it
    /// at once (CONNECT), as the engine does.
    pub fn load_pick(&mut self, pool: usize, bind: bool) -> Result<LoadAnswer, DriverError> {
        use regs::dp::load_rsp as r;
        Self::check_pool(pool)?;
        let v = self.load_op(LoadOp::Pick, bind, pool, 0, true)?;
        let code = field(v, r::STATUS_SHIFT, r::STATUS_MASK);
        match LoadStatus::from_raw(code as u8) {
            Some(LoadStatus::Pick) => Ok(LoadAnswer::Pick(
                field(v, r::SERVER_SHIFT, r::SERVER_MASK) as u8,
            )),
            Some(LoadStatus::None) => Ok(LoadAnswer::None),
            Some(LoadStatus::Punt) => Ok(LoadAnswer::Punt),
            _ => Err(DatapathError::UnknownCode {
                what: "LoadStatus of a pick",
                value: code,
            }
            .into()),
        }
    }

    /// A server slot's counts (READ).
    pub fn load_read(&mut self, pool: usize, slot: usize) -> Result<LoadCounts, DriverError> {
        use regs::dp::{load_counts as c, load_rsp as r};
        Self::check_load_slot(pool, slot)?;
        let v = self.load_op(LoadOp::Read, false, pool, slot, true)?;
        let code = field(v, r::STATUS_SHIFT, r::STATUS_MASK);
        if LoadStatus::from_raw(code as u8) != Some(LoadStatus::Data) {
            return Err(DatapathError::UnknownCode {
                what: "LoadStatus of a read",
                value: code,
            }
            .into());
        }
        let w = self.bar.read32(regs::dp::LOAD_COUNTS)?;
        Ok(LoadCounts {
            active: field(w, c::ACTIVE_SHIFT, c::ACTIVE_MASK),
            inactive: field(w, c::INACTIVE_SHIFT, c::INACTIVE_MASK),
            overloaded: field(w, c::OVERLOADED_SHIFT, c::OVERLOADED_MASK) != 0,
        })
    }

    /// The least-load counters.
    pub fn load_counters(&mut self) -> Result<LoadCounters, DriverError> {
        Ok(LoadCounters {
            picks: self.bar.read32(regs::dp::LOAD_PICKS)?,
            nones: self.bar.read32(regs::dp::LOAD_NONES)?,
            punts: self.bar.read32(regs::dp::LOAD_PUNTS)?,
            underflows: self.bar.read32(regs::dp::LOAD_UNDERFLOWS)?,
            refused: self.bar.read32(regs::dp::LOAD_REFUSED)?,
        })
    }

    /// Read every loss counter outside the STATS block ([`DropCounters`]) with plain
    /// register reads: nothing is written, so this is safe while the firmware runs. The
    /// registers are read one after the other, not as one snapshot.
    pub fn drop_counters(&mut self) -> Result<DropCounters, DriverError> {
        use regs::{dp, evq, inject, punt};
        let mut d = DropCounters {
            punt_drop_full: self.bar.read32(punt::DROP_FULL)?,
            punt_drop_long: self.bar.read32(punt::DROP_LONG)?,
            evq_overflow: self.bar.read32(evq::OVERFLOW)?,
            oversize_c: self.bar.read32(dp::OVERSIZE_C)?,
            oversize_s: self.bar.read32(dp::OVERSIZE_S)?,
            upd_drops: self.bar.read32(dp::UPD_DROPS)?,
            inject_bad_commit: None,
        };
        let sel = |v: u32| field(v, inject::sel::PORT_SHIFT, inject::sel::PORT_MASK) != 0;
        let before = sel(self.bar.read32(inject::SEL)?);
        let bad = self.bar.read32(inject::BAD_COMMIT)?;
        if sel(self.bar.read32(inject::SEL)?) == before {
            d.inject_bad_commit = Some((Port::from_bit(before), bad));
        }
        Ok(d)
    }

    // ----- L7 ---------------------------------------------------------------------------

    /// Read `L7.STATUS`.
    pub fn l7_status(&mut self) -> Result<L7Status, DriverError> {
        use regs::l7::{self, status as s};
        let v = self.bar.read32(l7::STATUS)?;
        Ok(L7Status {
            active_bank: field(v, s::ACTIVE_BANK_SHIFT, s::ACTIVE_BANK_MASK) as u8,
            inactive_busy: field(v, s::INACTIVE_BUSY_SHIFT, s::INACTIVE_BUSY_MASK) != 0,
            write_pending: field(v, s::WR_PENDING_SHIFT, s::WR_PENDING_MASK) != 0,
            buffer_busy: field(v, s::BUF_BUSY_SHIFT, s::BUF_BUSY_MASK) != 0,
        })
    }

    fn l7_write_word(&mut self, rule: u32, word: u8, data: u32) -> Result<(), DriverError> {
        use regs::l7::{self, rule as r, status as s, word as w};
        self.poll(
            "L7 rule write",
            "L7.STATUS.WR_PENDING",
            "set",
            l7::STATUS,
            |v| field(v, s::WR_PENDING_SHIFT, s::WR_PENDING_MASK) == 0,
        )?;
        self.bar
            .write32(l7::RULE, put(rule, r::INDEX_SHIFT, r::INDEX_MASK))?;
        self.bar
            .write32(l7::WORD, put(word.into(), w::INDEX_SHIFT, w::INDEX_MASK))?;
        self.bar.write32(l7::DATA, data)?;
        Ok(())
    }

    /// Write rule words (see [`L7Rule::encode`]) into rule `index` of the inactive bank.
    pub fn l7_write_rule(&mut self, index: usize, words: &[RuleWord]) -> Result<(), DriverError> {
        Self::check_index("L7 rule", index, self.params.l7_rules as usize)?;
        for w in words {
            self.l7_write_word(index as u32, w.word, w.data)?;
        }
        Ok(())
    }

    /// Encode `rule` and write it into rule `index` of the inactive bank.
    pub fn l7_load_rule(&mut self, index: usize, rule: &L7Rule) -> Result<(), DriverError> {
        let words = rule.encode(self.params.l7_pat_max as usize)?;
        self.l7_write_rule(index, &words)
    }

    /// Invalidate every rule of the inactive bank.
    pub fn l7_clear_inactive(&mut self) -> Result<(), DriverError> {
        self.l7_write_word(0, rule_word::CLEAR_BANK, 0)
    }

    /// Set the inactive bank's default pool (the result when no rule matches).
    pub fn l7_set_default_pool(&mut self, pool: u16) -> Result<(), DriverError> {
        self.l7_write_word(0, rule_word::DEFAULT_POOL, pool.into())
    }

    /// Swap the banks: the inactive bank becomes active. Returns the new active bank.
    pub fn l7_switch_banks(&mut self) -> Result<u8, DriverError> {
        use regs::l7::{self, status as s, switch as sw};
        self.poll(
            "L7 bank switch",
            "L7.STATUS.WR_PENDING",
            "set",
            l7::STATUS,
            |v| field(v, s::WR_PENDING_SHIFT, s::WR_PENDING_MASK) == 0,
        )?;
        self.bar
            .write32(l7::SWITCH, put(1, sw::SWITCH_SHIFT, sw::SWITCH_MASK))?;
        Ok(self.l7_status()?.active_bank)
    }

    /// Match `request` (the first bytes of an HTTP request) against the active bank; the
    /// result arrives as an [`Event::RequestMatched`] with `from_buffer` set and `tag`.
    pub fn l7_match_buffer(&mut self, request: &[u8], tag: u16) -> Result<(), DriverError> {
        use regs::l7::{self, cmd as c, status as s};
        if request.is_empty() || request.len() > L7_BUFFER_BYTES {
            return Err(DatapathError::BadLength {
                what: "L7 request buffer",
                len: request.len(),
                min: 1,
                max: L7_BUFFER_BYTES,
            }
            .into());
        }
        self.poll(
            "L7 buffer match",
            "L7.STATUS.BUF_BUSY",
            "set",
            l7::STATUS,
            |v| field(v, s::BUF_BUSY_SHIFT, s::BUF_BUSY_MASK) == 0,
        )?;
        self.bar.write32(l7::BUF_PTR, 0)?;
        for w in layout::words_le(request) {
            self.bar.write32(l7::BUF_DATA, w)?;
        }
        self.bar.write32(
            l7::CMD,
            put(request.len() as u32, c::LEN_SHIFT, c::LEN_MASK)
                | put(tag.into(), c::TAG_SHIFT, c::TAG_MASK),
        )?;
        Ok(())
    }
}
