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
