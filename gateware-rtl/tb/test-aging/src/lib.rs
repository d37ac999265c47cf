//! Test bench for the aging check (`gateware-rtl/rtl/aging_check.v`, docs/aging.md): the
//! Verilated module behind a small safe API, clocked one cycle per call, with a driver that
//! feeds it slots under back-pressure and collects its decisions with their timing. The
//! tests compare the decisions with the firmware's aging scan.

#![deny(clippy::undocumented_unsafe_blocks)]

use std::ffi::c_void;
use std::ptr::NonNull;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct AcIn {
    rst: u32,
    valid: u32,
    slot: u32,
    state: u32,
    flags: u32,
    teardown: u32,
    last_seen: u32,
    m_ready: u32,
    now: u32,
    wr_en: u32,
    wr_idx: u32,
    wr_ticks: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct AcOut {
    ready: u32,
    m_valid: u32,
    slot: u32,
    class: u32,
    expired: u32,
}

extern "C" {
    fn aging_new() -> *mut c_void;
    fn aging_free(h: *mut c_void);
    fn aging_step(h: *mut c_void, i: *const AcIn, o: *mut AcOut) -> i32;
}

pub use splicenic_tbkit::TbError as Error;
pub use splicenic_tbkit::Timed;
use splicenic_tbkit::{drive_in_order, Cycle};

/// A slot as the check reads it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SlotView {
    pub slot: u16,
    /// FlowStatic state.
    pub state: u8,
    /// FlowStatic flags.
    pub flags: u8,
    /// FlowDyn teardown.
    pub teardown: u8,
    /// FlowDyn last_seen.
    pub last_seen: u32,
    /// DP.NOW while the slot is presented.
    pub now: u32,
}

/// The check's decision on a slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Decision {
    pub slot: u16,
    /// TimeoutClass.
    pub class: u8,
    pub expired: bool,
}

/// One clock cycle of the model `h`.
fn step(h: NonNull<c_void>, i: &AcIn) -> Result<AcOut, Error> {
    let mut o = AcOut::default();
    // SAFETY: h is a live model from aging_new (freed only in Drop of its AgingCheck); i and
    // o are valid repr(C) structs matching the shim's for the duration of the call.
    let rc = unsafe { aging_step(h.as_ptr(), i, &mut o) };
    if rc != 0 {
        return Err(Error::BadArg("aging_check"));
    }
    Ok(o)
}

/// A Verilated `aging_check`.
pub struct AgingCheck {
    h: NonNull<c_void>,
    cycle: u64,
}

impl AgingCheck {
    /// A check, reset, every timeout 0.
    pub fn new() -> Result<Self, Error> {
        // SAFETY: aging_new has no preconditions.
        let h = NonNull::new(unsafe { aging_new() }).ok_or(Error::Create("aging_check"))?;
        let mut a = AgingCheck { h, cycle: 0 };
        a.step(&AcIn {
            rst: 1,
            ..AcIn::default()
        })?;
        Ok(a)
    }

    fn step(&mut self, i: &AcIn) -> Result<AcOut, Error> {
        self.cycle += 1;
        step(self.h, i)
    }

    /// Writes the timeout of class `idx` (an idle cycle).
    pub fn set_timeout(&mut self, idx: u8, ticks: u32) -> Result<(), Error> {
        self.step(&AcIn {
            wr_en: 1,
            wr_idx: idx.into(),
            wr_ticks: ticks,
            ..AcIn::default()
        })
        .map(|_| ())
    }

    /// Runs `slots` through in order: slot k is presented when `present()` says so, results
    /// are taken when `ready()` says so. Returns the decisions in order with their timing.
    pub fn run(
        &mut self,
        slots: &[SlotView],
        present: impl FnMut() -> bool,
        ready: impl FnMut() -> bool,
    ) -> Result<Vec<Timed<Decision>>, Error> {
        let h = self.h;
        drive_in_order(slots, &mut self.cycle, 200, present, ready, |s, rdy| {
            let mut i = AcIn {
                m_ready: rdy.into(),
                ..AcIn::default()
            };
            if let Some(s) = s {
                i.valid = 1;
                i.slot = s.slot.into();
                i.state = s.state.into();
                i.flags = s.flags.into();
                i.teardown = s.teardown.into();
                i.last_seen = s.last_seen;
                i.now = s.now;
            }
            let o = step(h, &i)?;
            Ok(Cycle {
                accepted: o.ready == 1,
                answer: (o.m_valid == 1).then_some(Decision {
                    slot: o.slot as u16,
                    class: o.class as u8,
                    expired: o.expired != 0,
                }),
            })
        })
    }
}

impl Drop for AgingCheck {
    fn drop(&mut self) {
        // SAFETY: self.h came from aging_new and is freed exactly once, here.
        unsafe { aging_free(self.h.as_ptr()) }
    }
}

// ---- the scanner ---------------------------------------------------------------------------

/// Slots of the Verilated `aging_scan` (build.rs).
pub const SCAN_SLOTS: u32 = 256;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct ScIn {
    rst: u32,
    enable: u32,
    interval: u32,
    limit: u32,
    now: u32,
    wr_en: u32,
    wr_idx: u32,
    wr_ticks: u32,
    fs_ready: u32,
    rsp_valid: u32,
    rsp_w0: u32,
    rsp_last_seen: u32,
    rsp_teardown: u32,
    pop: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct ScOut {
    fs_valid: u32,
    fs_slot: u32,
    q_valid: u32,
    q_slot: u32,
    q_class: u32,
    q_level: u32,
    pos: u32,
    sweeps: u32,
    expired: u32,
}

extern "C" {
    fn scan_new() -> *mut c_void;
    fn scan_free(h: *mut c_void);
    fn scan_step(h: *mut c_void, i: *const ScIn, o: *mut ScOut) -> i32;
}

/// What the test drives into the scanner in one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScanIn {
    pub enable: bool,
    /// DP.AGE_CTRL.INTERVAL.
    pub interval: u16,
    /// DP.AGE_LIMIT.
    pub limit: u32,
    /// DP.NOW.
    pub now: u32,
    /// A timeout-table write (class, ticks).
    pub timeout_write: Option<(u8, u32)>,
    /// The flow-state port takes a READ this cycle (the arbiter's grant).
    pub fs_ready: bool,
    /// The response to the scanner's READ: FlowStatic word 0, FlowDyn last_seen, teardown.
    pub response: Option<(u32, u32, u8)>,
    /// DP.AGE_POP.
    pub pop: bool,
}

/// What the scanner shows in one cycle (before the clock edge).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScanOut {
    /// A READ of this slot is offered.
    pub read: Option<u16>,
    /// The queue's head: slot and class.
    pub head: Option<(u16, u8)>,
    pub level: u8,
    pub pos: u16,
    pub sweeps: u32,
    pub expired: u32,
}

/// A Verilated `aging_scan` with `SCAN_SLOTS` slots.
pub struct AgingScan {
    h: NonNull<c_void>,
    /// Cycles clocked since creation.
    pub cycle: u64,
}

impl AgingScan {
    /// A scanner, reset: disabled, every timeout 0.
    pub fn new() -> Result<Self, Error> {
        // SAFETY: scan_new has no preconditions.
        let h = NonNull::new(unsafe { scan_new() }).ok_or(Error::Create("aging_scan"))?;
        let mut a = AgingScan { h, cycle: 0 };
        let i = ScIn {
            rst: 1,
            ..ScIn::default()
        };
        a.raw(&i)?;
        Ok(a)
    }

    fn raw(&mut self, i: &ScIn) -> Result<ScOut, Error> {
        let mut o = ScOut::default();
        self.cycle += 1;
        // SAFETY: self.h is a live model from scan_new (freed only in Drop); i and o are
        // valid repr(C) structs matching the shim's for the duration of the call.
        let rc = unsafe { scan_step(self.h.as_ptr(), i, &mut o) };
        if rc != 0 {
            return Err(Error::BadArg("aging_scan"));
        }
        Ok(o)
    }

    /// One clock cycle.
    pub fn step(&mut self, i: &ScanIn) -> Result<ScanOut, Error> {
        let (w0, last_seen, td) = i.response.unwrap_or_default();
        let (wr_idx, wr_ticks) = i.timeout_write.unwrap_or_default();
        let o = self.raw(&ScIn {
            rst: 0,
            enable: i.enable.into(),
            interval: i.interval.into(),
            limit: i.limit,
            now: i.now,
            wr_en: i.timeout_write.is_some().into(),
            wr_idx: wr_idx.into(),
            wr_ticks,
            fs_ready: i.fs_ready.into(),
            rsp_valid: i.response.is_some().into(),
            rsp_w0: w0,
            rsp_last_seen: last_seen,
            rsp_teardown: td.into(),
            pop: i.pop.into(),
        })?;
        Ok(ScanOut {
            read: (o.fs_valid == 1).then_some(o.fs_slot as u16),
            head: (o.q_valid == 1).then_some((o.q_slot as u16, o.q_class as u8)),
            level: o.q_level as u8,
            pos: o.pos as u16,
            sweeps: o.sweeps,
            expired: o.expired,
        })
    }
}

impl Drop for AgingScan {
    fn drop(&mut self) {
        // SAFETY: self.h came from scan_new and is freed exactly once, here.
        unsafe { scan_free(self.h.as_ptr()) }
    }
}
