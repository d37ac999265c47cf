//! The request path's decision (`gateware-rtl/rtl/req_ack.v`), Verilated behind a small safe
//! API, clocked one cycle per call, with a driver that feeds it segments under back-pressure
//! and collects its results with their timing.

use crate::Error;
use splicenic_tbkit::{drive_in_order, Cycle, Timed};
use std::ffi::c_void;
use std::ptr::NonNull;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RqIn {
    rst: u32,
    valid: u32,
    tag: u32,
    client_isn: u32,
    req_len: u32,
    client_fin: u32,
    shift: u32,
    seq: u32,
    plen: u32,
    fin: u32,
    m_ready: u32,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RqOut {
    ready: u32,
    m_valid: u32,
    tag: u32,
    verdict: u32,
    skip: u32,
    take: u32,
    req_len: u32,
    client_fin: u32,
    ack: u32,
    window: u32,
}

extern "C" {
    fn reqack_new() -> *mut c_void;
    fn reqack_free(h: *mut c_void);
    fn reqack_step(h: *mut c_void, i: *const RqIn, o: *mut RqOut) -> i32;
}

/// A client segment of a connection whose head is being buffered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReqSegment {
    pub tag: u16,
    pub client_isn: u32,
    pub req_len: u16,
    pub client_fin: bool,
    pub shift: u8,
    pub seq: u32,
    pub plen: u16,
    pub fin: bool,
}

/// The block's result for a segment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReqResult {
    pub tag: u16,
    /// ReqVerdict.
    pub verdict: u8,
    pub skip: u16,
    pub take: u16,
    pub req_len: u16,
    pub client_fin: bool,
    pub ack: u32,
    pub window: u16,
}

/// A Verilated `req_ack`.
pub struct ReqAck {
    h: NonNull<c_void>,
    cycle: u64,
}

fn step(h: NonNull<c_void>, i: &RqIn) -> Result<RqOut, Error> {
    let mut o = RqOut::default();
    // SAFETY: h is a live model from reqack_new (freed only in Drop of its ReqAck); i and o
    // are valid repr(C) structs matching the shim's for the duration of the call.
    let rc = unsafe { reqack_step(h.as_ptr(), i, &mut o) };
    if rc != 0 {
        return Err(Error::BadArg("req_ack"));
    }
    Ok(o)
}

impl ReqAck {
    /// A block, reset.
    pub fn new() -> Result<Self, Error> {
        // SAFETY: reqack_new has no preconditions.
        let h = NonNull::new(unsafe { reqack_new() }).ok_or(Error::Create("req_ack"))?;
        let mut r = ReqAck { h, cycle: 0 };
        r.cycle += 1;
        step(
            h,
            &RqIn {
                rst: 1,
                ..RqIn::default()
            },
        )?;
        Ok(r)
    }

    /// Runs `segs` through in order: segment k is presented when `present()` says so,
    /// results are taken when `ready()` says so. Returns the results in order with timing.
    pub fn run(
        &mut self,
        segs: &[ReqSegment],
        present: impl FnMut() -> bool,
        ready: impl FnMut() -> bool,
    ) -> Result<Vec<Timed<ReqResult>>, Error> {
        let h = self.h;
        drive_in_order(segs, &mut self.cycle, 200, present, ready, |s, rdy| {
            let mut i = RqIn {
                m_ready: rdy.into(),
                ..RqIn::default()
            };
            if let Some(s) = s {
                i.valid = 1;
                i.tag = s.tag.into();
                i.client_isn = s.client_isn;
                i.req_len = s.req_len.into();
                i.client_fin = s.client_fin.into();
                i.shift = s.shift.into();
                i.seq = s.seq;
                i.plen = s.plen.into();
                i.fin = s.fin.into();
            }
            let o = step(h, &i)?;
            Ok(Cycle {
                accepted: o.ready == 1,
                answer: (o.m_valid == 1).then_some(ReqResult {
                    tag: o.tag as u16,
                    verdict: o.verdict as u8,
                    skip: o.skip as u16,
                    take: o.take as u16,
                    req_len: o.req_len as u16,
                    client_fin: o.client_fin != 0,
                    ack: o.ack,
                    window: o.window as u16,
                }),
            })
        })
    }
}

impl Drop for ReqAck {
    fn drop(&mut self) {
        // SAFETY: self.h came from reqack_new and is freed exactly once, here.
        unsafe { reqack_free(self.h.as_ptr()) }
    }
}
