//! The control-plane mailbox commands: reading the configuration back (SVC_GET, POOL_GET,
//! SERVER_GET, CONFIG_MAP, TIMEOUT_GET), ZERO, the flow listing (FLOW_LIST, FLOW_GET), the
//! rule-set record (RULESET_*) and the packet capture (CAPTURE_*). Word layouts are in
//! docs/interfaces.md, "Flow manager commands".

use super::record::{RecordError, RULESET_BYTES};
use super::{
    arg, decode_half, entry_flag_bits, entry_rs, entry_state, field, is_armed, len, Hw, Mode,
    Splicer, CLIENT_HALF, DYN_WORDS, MAX_POOLS, MAX_RS, MAX_SERVICES, SERVER_HALF, STATIC_WORDS,
};
use crate::flowmgr::aging::age;
use crate::flowmgr::timeouts::TICK_SHIFT;
use crate::flowmgr::{FlowState, Slot};
use crate::mailbox::{status, Response, MAX_WORDS};
use crate::sched::Kind;
use splicenic_layout::{mac_to_u64, pool_flags, service_mode, FlowDyn};

/// FLOW_LIST: slots examined per call at most (the scan checks the free list only, a few
/// cycles per slot).
pub const FLOW_LIST_BUDGET: usize = 1024;
/// FLOW_LIST: slots returned per call at most (word 0 is the next cursor).
pub const FLOW_LIST_MAX: usize = MAX_WORDS - 1;
/// FLOW_LIST cursor meaning "the scan is done".
pub const FLOW_LIST_DONE: u32 = u32::MAX;
/// FLOW_GET word 0 / word 15 value for "none" (no real server yet, no service, no timeout
/// class).
pub const NONE8: u32 = 0xff;
/// FLOW_GET response words.
pub const FLOW_GET_WORDS: usize = 16;

impl From<RecordError> for u32 {
    fn from(e: RecordError) -> u32 {
        match e {
            RecordError::BadArgument => status::BAD_ARGUMENT,
            RecordError::NoSpace => status::NO_SPACE,
            RecordError::NotFound => status::NOT_FOUND,
            RecordError::Busy => status::BUSY,
        }
    }
}

/// `ticks` of `DP.NOW` in milliseconds at `clk_hz` (rounded down, saturating).
fn ticks_to_ms(ticks: u32, clk_hz: u32) -> u32 {
    let ms = (u64::from(ticks) << TICK_SHIFT) * 1000 / u64::from(clk_hz.max(1));
    ms.min(u64::from(u32::MAX)) as u32
}

/// The two MAC words: bytes 0-3 big endian, then bytes 4-5 in bits 31:16.
fn mac_words(mac: [u8; 6]) -> [u32; 2] {
    let v = mac_to_u64(mac);
    [(v >> 16) as u32, (v as u32) << 16]
}

impl Splicer<'_> {
    pub(super) fn cmd_svc_get(
        &self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 1)?;
        let s = self.services[arg(req[0] as usize, MAX_SERVICES)?];
        rsp[..5].fill(0);
        if s.present {
            let mode = match s.mode {
                Mode::L4 => service_mode::L4,
                Mode::L7 => service_mode::L7,
            };
            rsp[..5].copy_from_slice(&[1, s.vip, s.port.into(), mode, s.pool.into()]);
        }
        Ok(Response::ok(5))
    }

    pub(super) fn cmd_pool_get(
        &self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 1)?;
        let pl = arg(req[0] as usize, MAX_POOLS)?;
        rsp[..6].fill(0);
        if let Some(pool) = self.pools[pl].as_ref().filter(|p| p.present) {
            let cfg = pool.sched.config();
            let kind = Kind::ALL.iter().position(|&k| k == cfg.kind).unwrap_or(0);
            let flag = |on: bool, f: u32| if on { f } else { 0 };
            let flags = flag(cfg.fallback, pool_flags::FALLBACK)
                | flag(cfg.hash_port, pool_flags::HASH_PORT)
                | flag(cfg.expire_quiescent, pool_flags::EXPIRE_QUIESCENT);
            let (secs, mask) = if cfg.persist_timeout != 0 {
                (pool.persist_secs, cfg.persist_netmask)
            } else {
                (0, u32::MAX)
            };
            let servers = self
                .rs
                .iter()
                .filter(|r| r.present && usize::from(r.pool) == pl)
                .count();
            rsp[..6].copy_from_slice(&[1, kind as u32, flags, secs, mask, servers as u32]);
        }
        Ok(Response::ok(6))
    }

    pub(super) fn cmd_server_get(
        &self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 1)?;
        let r = self.rs[arg(req[0] as usize, MAX_RS)?];
        rsp[..12].fill(0);
        let server = r
            .present
            .then(|| self.pools[usize::from(r.pool)].as_ref())
            .flatten()
            .and_then(|p| p.servers.get(usize::from(r.sid)));
        if let Some(s) = server {
            let [mac_hi, mac_lo] = mac_words(r.mac);
            rsp[..12].copy_from_slice(&[
                1 | u32::from(s.is_overloaded()) << 1,
                r.pool.into(),
                s.addr(),
                s.port().into(),
                mac_hi,
                mac_lo,
                s.weight(),
                s.u_threshold(),
                s.l_threshold(),
                s.activeconns(),
                s.inactconns(),
                r.connections,
            ]);
        }
        Ok(Response::ok(12))
    }

    pub(super) fn config_map(&self, rsp: &mut [u32; MAX_WORDS]) -> Response {
        let bits = |it: &mut dyn Iterator<Item = bool>| {
            it.enumerate()
                .fold(0u64, |m, (i, on)| m | u64::from(on) << i)
        };
        let services = bits(&mut self.services.iter().map(|s| s.present));
        let pools = bits(
            &mut self
                .pools
                .iter()
                .map(|p| p.as_ref().is_some_and(|p| p.present)),
        );
        let rs = bits(&mut self.rs.iter().map(|r| r.present));
        rsp[..4].copy_from_slice(&[services as u32, pools as u32, rs as u32, (rs >> 32) as u32]);
        Response::ok(4)
    }

    pub(super) fn timeout_get(&self, rsp: &mut [u32; MAX_WORDS]) -> Response {
        rsp[..self.timeout_ms.len()].copy_from_slice(&self.timeout_ms);
        Response::ok(self.timeout_ms.len())
    }

    /// ZERO: the event counters (FLOW_STATS totals and cycle sums, connections per real
    /// server) restart from 0; gauges (slots in use, setups pending, active and inactive
    /// connections) are state, not counters, and stay.
    pub(super) fn zero(&mut self) -> Response {
        self.stats = super::Stats::default();
        self.profile.clear();
        for r in self.rs.iter_mut() {
            r.connections = 0;
        }
        Response::ok(0)
    }

    /// FLOW_LIST: up to [`FLOW_LIST_MAX`] slots in use from the cursor on, examining at most
    /// [`FLOW_LIST_BUDGET`] slots. Only slots ever handed out are scanned.
    pub(super) fn cmd_flow_list(
        &self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 1)?;
        let cursor = req[0];
        if cursor == FLOW_LIST_DONE {
            rsp[0] = FLOW_LIST_DONE;
            return Ok(Response::ok(1));
        }
        if cursor > u32::from(Slot::MAX) {
            return Err(status::BAD_ARGUMENT);
        }
        let end = self
            .fresh
            .min((cursor as usize).saturating_add(FLOW_LIST_BUDGET));
        let mut slot = cursor as usize;
        let mut n = 0;
        while slot < end && n < FLOW_LIST_MAX {
            if !self.free.is_free(slot as Slot) {
                n += 1;
                rsp[n] = slot as u32;
            }
            slot += 1;
        }
        rsp[0] = if slot >= self.fresh {
            FLOW_LIST_DONE
        } else {
            slot as u32
        };
        Ok(Response::ok(1 + n))
    }

    /// FLOW_GET: one flow as the flow memory holds it, with the card's teardown view merged
    /// into its state and flags ([`Splicer::merge_teardown`]; docs/interfaces.md for the
    /// words).
    pub(super) fn cmd_flow_get(
        &mut self,
        hw: &mut impl Hw,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 1)?;
        let slot = arg(req[0] as usize, self.slots)? as Slot;
        if self.slot_is_free(slot) {
            return Err(status::NOT_FOUND);
        }
        let mut w = [0u32; STATIC_WORDS];
        let mut d = [0u32; DYN_WORDS];
        hw.state_read_dyn(slot, &mut w, &mut d);
        self.merge_teardown(&mut w, &d);
        let state = match entry_state(w[0]) {
            None | Some(FlowState::Free) => return Err(status::NOT_FOUND),
            Some(s) => s,
        };
        let now = hw.now();
        let clk = self.timeouts.clk_hz();
        let client = decode_half(&w, CLIENT_HALF);
        // An armed setup's entry holds its context where the server half's local end is
        // (docs/server-open.md): the setup's own record has the half.
        let server = match (is_armed(w[0]), self.find_pending(slot)) {
            (true, Some(i)) => self.pend[i].server,
            _ => decode_half(&w, SERVER_HALF),
        };
        let idle = age(now, field(&d, FlowDyn::LAST_SEEN));
        let (expires, class) = match self.find_pending(slot) {
            // In setup: the setup step's deadline.
            Some(i) => {
                let left = self.pend[i].deadline.wrapping_sub(now) as i32;
                (ticks_to_ms(left.max(0) as u32, clk), NONE8)
            }
            None => match Self::timeout_class(w[0], &d) {
                Some(c) => (
                    ticks_to_ms(self.timeouts.ticks(c).saturating_sub(idle), clk),
                    c.index() as u32,
                ),
                None => (u32::MAX, NONE8),
            },
        };
        let rs = if state.raw() >= FlowState::Connecting.raw() {
            entry_rs(w[0]) as u32
        } else {
            NONE8
        };
        let svc = self
            .find_service(client.local_ip, client.local_port)
            .map_or(NONE8, |s| s as u32);
        let (bytes_cs, bytes_sc) = (FlowDyn::BYTES_CS.get(&d), FlowDyn::BYTES_SC.get(&d));
        *rsp = [
            u32::from(state.raw()) | u32::from(entry_flag_bits(w[0])) << 8 | rs << 16 | svc << 24,
            client.peer_ip,
            u32::from(client.peer_port) << 16 | u32::from(client.local_port),
            client.local_ip,
            server.peer_ip,
            u32::from(server.peer_port) << 16 | u32::from(server.local_port),
            server.local_ip,
            expires,
            ticks_to_ms(idle, clk),
            field(&d, FlowDyn::PACKETS_CS),
            field(&d, FlowDyn::PACKETS_SC),
            bytes_cs as u32,
            (bytes_cs >> 32) as u32,
            bytes_sc as u32,
            (bytes_sc >> 32) as u32,
            class,
        ];
        Ok(Response::ok(FLOW_GET_WORDS))
    }

    pub(super) fn cmd_ruleset_put(&mut self, req: &[u32]) -> Result<Response, u32> {
        if req.is_empty() {
            return Err(status::BAD_LENGTH);
        }
        let r = self.record.as_mut().ok_or(status::NO_SPACE)?;
        r.put(req[0], &req[1..])?;
        Ok(Response::ok(0))
    }

    pub(super) fn cmd_ruleset_commit(&mut self, req: &[u32]) -> Result<Response, u32> {
        if req.len() != 2 && req.len() != 3 {
            return Err(status::BAD_LENGTH);
        }
        let r = self.record.as_mut().ok_or(status::NO_SPACE)?;
        r.commit(req[0], req[1], req.get(2).copied().unwrap_or(0))?;
        fw_log!(
            info,
            "rule-set record: {=u32} bytes, generation {=u32}",
            req[0],
            r.info().generation
        );
        Ok(Response::ok(0))
    }

    pub(super) fn cmd_ruleset_get(
        &self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 1)?;
        let r = self.record.as_ref().ok_or(status::NO_SPACE)?;
        Ok(Response::ok(r.get(req[0], rsp)?))
    }

    pub(super) fn cmd_ruleset_info(
        &self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 0)?;
        let i = self.record.as_ref().ok_or(status::NO_SPACE)?.info();
        rsp[..6].copy_from_slice(&[
            i.len,
            i.generation,
            i.hash,
            i.state as u32,
            i.loaded_by,
            RULESET_BYTES as u32,
        ]);
        Ok(Response::ok(6))
    }

    pub(super) fn cmd_capture_set(&mut self, req: &[u32]) -> Result<Response, u32> {
        if req.len() != 1 && req.len() != 2 {
            return Err(status::BAD_LENGTH);
        }
        let snaplen = req.get(1).copied().unwrap_or(0);
        if req[0] > 1 || snaplen > 0xffff {
            return Err(status::BAD_ARGUMENT);
        }
        let c = self.capture.as_mut().ok_or(status::NO_SPACE)?;
        c.set(req[0] == 1, snaplen);
        fw_log!(
            info,
            "capture {=str} (snap length {=u32})",
            if req[0] == 1 { "on" } else { "off" },
            snaplen
        );
        Ok(Response::ok(0))
    }

    pub(super) fn cmd_capture_info(
        &self,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        len(req, 0)?;
        let i = self.capture.as_ref().ok_or(status::NO_SPACE)?.info();
        rsp[..10].copy_from_slice(&[
            u32::from(i.enabled),
            i.addr,
            i.size,
            i.wpos,
            i.tail,
            i.captured,
            i.overwritten,
            i.snaplen,
            i.cycles as u32,
            (i.cycles >> 32) as u32,
        ]);
        Ok(Response::ok(10))
    }
}
