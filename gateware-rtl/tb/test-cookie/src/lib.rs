//! Test bench for the SYN-cookie unit (`gateware-rtl/rtl/syn_cookie.v`, docs/cookie.md): the
//! Verilated module behind a small safe API, clocked one cycle per call. The tests compare
//! it with the firmware's reference model (`splicenic_fw_logic::cookie`).

#![deny(clippy::undocumented_unsafe_blocks)]

use splicenic_layout::{CookieOp, CookieStatus};
use std::ffi::c_void;
use std::fmt;
use std::ptr::NonNull;

/// Tag width of the Verilated build (TAG_WIDTH).
pub const TAG_BITS: u32 = 8;

/// The inputs of one clock cycle (`repr(C)` mirror of `CkIn` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inputs {
    /// `key_wr_data`: k1 in bits 63:32, k0 in bits 31:0.
    pub key_wr_data: u64,
    pub rst: u32,
    pub req_valid: u32,
    /// `s_req_op` (CookieOp).
    pub op: u32,
    pub client_ip: u32,
    pub vip: u32,
    pub client_port: u32,
    pub vip_port: u32,
    pub client_isn: u32,
    pub cookie: u32,
    /// `s_req_mss`: the MSS class of a MAKE.
    pub mss: u32,
    pub tag: u32,
    pub rsp_ready: u32,
    pub key_wr_en: u32,
    pub key_wr_slot: u32,
    /// `cfg_cur_epoch`.
    pub cur_epoch: u32,
    /// `cfg_prev_valid`.
    pub prev_valid: u32,
}

/// The outputs of one cycle, as the rising edge samples them (`CkOut` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outputs {
    pub req_ready: u32,
    pub rsp_valid: u32,
    pub rsp_op: u32,
    pub rsp_isn: u32,
    pub rsp_status: u32,
    pub rsp_mss: u32,
    pub rsp_tag: u32,
}

impl Outputs {
    /// The response on the port (whether or not it is valid).
    pub fn response(&self) -> Response {
        Response {
            op: self.rsp_op,
            isn: self.rsp_isn,
            status: self.rsp_status,
            mss: self.rsp_mss,
            tag: self.rsp_tag,
        }
    }
}

/// One response of the unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Response {
    /// CookieOp of the request.
    pub op: u32,
    /// MAKE: the cookie; CHECK: the cookie checked.
    pub isn: u32,
    /// CookieStatus code.
    pub status: u32,
    /// MAKE: the class requested; CHECK: the class the cookie carries (0 on a refusal).
    pub mss: u32,
    pub tag: u32,
}

/// The CookieOp code of `op`.
pub fn op_code(op: CookieOp) -> u32 {
    u32::from(op.raw())
}

/// The CookieStatus code of `status`.
pub fn status_code(status: CookieStatus) -> u32 {
    u32::from(status.raw())
}

extern "C" {
    fn cookie_new() -> *mut c_void;
    fn cookie_free(h: *mut c_void);
    fn cookie_step(h: *mut c_void, i: *const Inputs, o: *mut Outputs) -> i32;
}

/// A failure of the simulation harness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The model could not be created.
    Create,
    /// The shim refused a call (null argument).
    BadArg,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Create => f.write_str("cannot create the syn_cookie model"),
            Error::BadArg => f.write_str("the syn_cookie shim refused an argument"),
        }
    }
}

impl std::error::Error for Error {}

/// A Verilated `syn_cookie` (TAG_WIDTH 8).
pub struct SynCookie {
    h: NonNull<c_void>,
    cycle: u64,
}

impl SynCookie {
    /// A new model, held in reset for 4 cycles and released.
    pub fn new() -> Result<Self, Error> {
        // SAFETY: cookie_new takes no arguments and returns an owned handle or null.
        let h = unsafe { cookie_new() };
        let mut m = SynCookie {
            h: NonNull::new(h).ok_or(Error::Create)?,
            cycle: 0,
        };
        let rst = Inputs {
            rst: 1,
            rsp_ready: 1,
            ..Inputs::default()
        };
        for _ in 0..4 {
            m.step(&rst)?;
        }
        m.cycle = 0;
        Ok(m)
    }

    /// One clock cycle: applies `i`, returns the outputs the rising edge samples, takes the
    /// edge.
    pub fn step(&mut self, i: &Inputs) -> Result<Outputs, Error> {
        let mut o = Outputs::default();
        // SAFETY: the handle is live (owned by self); `i` and `o` are valid repr(C) structs
        // the shim reads and writes only during the call.
        let rc = unsafe { cookie_step(self.h.as_ptr(), i, &mut o) };
        if rc != 0 {
            return Err(Error::BadArg);
        }
        self.cycle += 1;
        Ok(o)
    }

    /// Cycles stepped since reset was released.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }
}

impl Drop for SynCookie {
    fn drop(&mut self) {
        // SAFETY: the handle came from cookie_new and is freed exactly once, here.
        unsafe { cookie_free(self.h.as_ptr()) }
    }
}

/// The 64-bit key write of `[k0, k1]`.
pub fn key_word(key: [u32; 2]) -> u64 {
    u64::from(key[1]) << 32 | u64::from(key[0])
}
