//! Test bench for the server connection blocks (docs/server-open.md): the TCP frame
//! generator (`gateware-rtl/rtl/tcp_tx_gen.v`) at DATA_WIDTH 64 and 512 and the SYN-ACK
//! absorber (`gateware-rtl/rtl/synack_absorb.v`), Verilated behind a small safe API, clocked
//! one cycle per call, with drivers that feed them requests under back-pressure and collect
//! what they produce with its timing. The tests compare the results with the firmware's own
//! frame builder and SYN-ACK handling.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod replay;
pub mod reqack;

use splicenic_layout::TcpOpts;
use std::collections::VecDeque;
use std::ffi::c_void;
use std::ptr::NonNull;

/// The inputs of one generator cycle (`repr(C)` mirror of `GenIn` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct GenIn {
    dst_mac: u64,
    src_mac: u64,
    rst: u32,
    valid: u32,
    src_ip: u32,
    dst_ip: u32,
    sport: u32,
    dport: u32,
    seq: u32,
    ack: u32,
    flags: u32,
    window: u32,
    syn_opts: u32,
    mss: u32,
    sack: u32,
    ts: u32,
    tsval: u32,
    tsecr: u32,
    ws: u32,
    ws_shift: u32,
    tready: u32,
    pay_len: u32,
    pay_sum: u32,
}

/// The outputs of one generator cycle (`GenOut` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct GenOut {
    tdata: [u8; 64],
    tkeep: u64,
    ready: u32,
    tvalid: u32,
    tlast: u32,
    tuser: u32,
    sent: u32,
}

impl Default for GenOut {
    fn default() -> Self {
        GenOut {
            tdata: [0; 64],
            tkeep: 0,
            ready: 0,
            tvalid: 0,
            tlast: 0,
            tuser: 0,
            sent: 0,
        }
    }
}

/// The inputs of one absorber cycle (`AbIn` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct AbIn {
    opts: [u8; 20],
    rst: u32,
    valid: u32,
    client_isn: u32,
    card_isn: u32,
    card_tsval: u32,
    client_win: u32,
    client_mss: u32,
    mss_to_client: u32,
    sack: u32,
    ts: u32,
    client_ws: u32,
    client_ws_shift: u32,
    server_ws_shift: u32,
    real_server: u32,
    client_fin: u32,
    flags: u32,
    seq: u32,
    ack: u32,
    m_ready: u32,
}

/// The outputs of one absorber cycle (`AbOut` in csrc/shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct AbOut {
    entry: [u32; 4],
    ready: u32,
    m_valid: u32,
    verdict: u32,
    ack: u32,
    window: u32,
    mss: u32,
    chunk: u32,
}

extern "C" {
    fn txgen_new(variant: u32) -> *mut c_void;
    fn txgen_free(h: *mut c_void);
    fn txgen_step(h: *mut c_void, i: *const GenIn, o: *mut GenOut) -> i32;
    fn absorb_new() -> *mut c_void;
    fn absorb_free(h: *mut c_void);
    fn absorb_step(h: *mut c_void, i: *const AbIn, o: *mut AbOut) -> i32;
}

use splicenic_tbkit::{drive_in_order, Cycle};
pub use splicenic_tbkit::{TbError as Error, Timed};

/// The generator's data width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    W64,
    W512,
}

impl Width {
    /// Bytes per beat.
    pub const fn bytes(self) -> usize {
        match self {
            Width::W64 => 8,
            Width::W512 => 64,
        }
    }

    pub(crate) fn variant(self) -> u32 {
        match self {
            Width::W64 => 0,
            Width::W512 => 1,
        }
    }
}

/// One frame request of the generator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TxRequest {
    pub dst_mac: [u8; 6],
    pub src_mac: [u8; 6],
    pub src_ip: u32,
    pub dst_ip: u32,
    pub sport: u16,
    pub dport: u16,
    pub seq: u32,
    pub ack: u32,
    pub flags: u8,
    pub window: u16,
    /// The SYN form of the options (MSS first); else NOP NOP TS or none.
    pub syn_opts: bool,
    pub mss: u16,
    pub sack: bool,
    pub ts: bool,
    pub tsval: u32,
    pub tsecr: u32,
    /// The window shift offered (SYN form only).
    pub ws: Option<u8>,
    /// The length and ones'-complement sum (16-bit big-endian words from its first byte) of
    /// a payload appended behind the header (0, 0: none; the generator then sends the
    /// header alone, unpadded).
    pub pay_len: u16,
    pub pay_sum: u16,
}

pub(crate) fn mac_word(m: [u8; 6]) -> u64 {
    m.iter().fold(0, |a, &b| a << 8 | u64::from(b))
}

impl TxRequest {
    fn drive(&self, i: &mut GenIn) {
        i.valid = 1;
        i.dst_mac = mac_word(self.dst_mac);
        i.src_mac = mac_word(self.src_mac);
        i.src_ip = self.src_ip;
        i.dst_ip = self.dst_ip;
        i.sport = self.sport.into();
        i.dport = self.dport.into();
        i.seq = self.seq;
        i.ack = self.ack;
        i.flags = self.flags.into();
        i.window = self.window.into();
        i.syn_opts = self.syn_opts.into();
        i.mss = self.mss.into();
        i.sack = self.sack.into();
        i.ts = self.ts.into();
        i.tsval = self.tsval;
        i.tsecr = self.tsecr;
        i.ws = self.ws.is_some().into();
        i.ws_shift = self.ws.unwrap_or(0).into();
        i.pay_len = self.pay_len.into();
        i.pay_sum = self.pay_sum.into();
    }
}

/// A frame the generator sent, with its timing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub bytes: Vec<u8>,
    /// Cycle its request was accepted.
    pub accepted: u64,
    /// Cycle its first beat was valid on the port.
    pub first_valid: u64,
    /// Cycle its last beat was taken.
    pub last: u64,
}

/// A Verilated `tcp_tx_gen`.
pub struct TxGen {
    h: NonNull<c_void>,
    width: Width,
    cycle: u64,
}

impl TxGen {
    /// A generator of `width`, reset.
    pub fn new(width: Width) -> Result<Self, Error> {
        // SAFETY: txgen_new has no preconditions; it returns null for an unknown variant.
        let h = NonNull::new(unsafe { txgen_new(width.variant()) })
            .ok_or(Error::Create("tcp_tx_gen"))?;
        let mut g = TxGen { h, width, cycle: 0 };
        g.step(&GenIn {
            rst: 1,
            ..GenIn::default()
        })?;
        Ok(g)
    }

    fn step(&mut self, i: &GenIn) -> Result<GenOut, Error> {
        let mut o = GenOut::default();
        // SAFETY: self.h is a live model from txgen_new (freed only in Drop); i and o are
        // valid repr(C) structs matching the shim's for the duration of the call.
        let rc = unsafe { txgen_step(self.h.as_ptr(), i, &mut o) };
        if rc != 0 {
            return Err(Error::BadArg("tcp_tx_gen"));
        }
        self.cycle += 1;
        Ok(o)
    }

    /// Frames sent since reset (`stat_sent`), read in an idle cycle.
    pub fn sent_count(&mut self) -> Result<u32, Error> {
        Ok(self.step(&GenIn::default())?.sent)
    }

    /// Sends `reqs` in order: request k is presented from cycle `gap(k)` after the previous
    /// one's accept (0: back to back); the port is ready in a cycle when `ready()` says so.
    /// Returns the frames in order with their timing; checks the stream protocol (contiguous
    /// low tkeep lanes on the last beat, all lanes before, tuser 0).
    pub fn run(
        &mut self,
        reqs: &[TxRequest],
        mut gap: impl FnMut(usize) -> u64,
        mut ready: impl FnMut() -> bool,
    ) -> Result<Vec<Sent>, Error> {
        let bpb = self.width.bytes();
        let mut out = Vec::with_capacity(reqs.len());
        let mut accepted: VecDeque<u64> = VecDeque::new();
        let mut next = 0usize;
        let mut present_at = self.cycle + gap(0);
        let mut cur: Vec<u8> = Vec::new();
        let mut first_valid = None;
        let budget = self.cycle + 64 + reqs.len() as u64 * 400;
        while out.len() < reqs.len() {
            if self.cycle > budget {
                return Err(Error::Stuck("frames of the requests"));
            }
            let mut i = GenIn::default();
            if next < reqs.len() && self.cycle >= present_at {
                reqs[next].drive(&mut i);
            }
            let rdy = ready();
            i.tready = rdy.into();
            let now = self.cycle;
            let o = self.step(&i)?;
            if i.valid == 1 && o.ready == 1 {
                accepted.push_back(now);
                next += 1;
                if next < reqs.len() {
                    present_at = now + 1 + gap(next);
                }
            }
            if o.tvalid == 1 && first_valid.is_none() {
                first_valid = Some(now);
            }
            if o.tvalid == 1 && rdy {
                if o.tuser != 0 {
                    return Err(Error::Protocol("tuser set".into()));
                }
                let lanes = o.tkeep.trailing_ones() as usize;
                let full = if bpb == 64 {
                    u64::MAX
                } else {
                    (1u64 << bpb) - 1
                };
                if o.tkeep.checked_shr(lanes as u32).unwrap_or(0) != 0
                    || lanes == 0
                    || (o.tlast == 0 && o.tkeep != full)
                {
                    return Err(Error::Protocol(format!("tkeep {:#x}", o.tkeep)));
                }
                cur.extend_from_slice(&o.tdata[..lanes]);
                if o.tlast == 1 {
                    let acc = accepted
                        .pop_front()
                        .ok_or_else(|| Error::Protocol("a frame without a request".into()))?;
                    out.push(Sent {
                        bytes: std::mem::take(&mut cur),
                        accepted: acc,
                        first_valid: first_valid.take().unwrap_or(now),
                        last: now,
                    });
                }
            }
        }
        Ok(out)
    }
}

impl Drop for TxGen {
    fn drop(&mut self) {
        // SAFETY: self.h came from txgen_new and is freed exactly once, here.
        unsafe { txgen_free(self.h.as_ptr()) }
    }
}

/// What the absorber knows of a connection whose SYN went to the server, and the server's
/// segment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AbsorbInput {
    pub client_isn: u32,
    pub card_isn: u32,
    pub card_tsval: u32,
    pub client_win: u16,
    pub client_mss: u16,
    pub mss_to_client: u16,
    pub sack: bool,
    pub ts: bool,
    /// The client's window shift (`None`: the client half does not scale).
    pub client_ws: Option<u8>,
    /// The card's window shift offered to the server.
    pub server_ws: u8,
    pub real_server: u8,
    pub client_fin: bool,
    pub flags: u8,
    pub seq: u32,
    pub ack: u32,
    /// The server's options as tcp_opt_decoder reports them.
    pub opts: TcpOpts,
}

/// The absorber's result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Absorbed {
    pub verdict: u8,
    /// FlowStatic words 0-3.
    pub entry: [u32; 4],
    pub ack: u32,
    pub window: u16,
    pub mss: u16,
    pub chunk: u16,
}

/// One clock cycle of the absorber model `h`.
fn absorb_cycle(h: NonNull<c_void>, i: &AbIn) -> Result<AbOut, Error> {
    let mut o = AbOut::default();
    // SAFETY: h is a live model from absorb_new (freed only in Drop of its Absorber); i and
    // o are valid repr(C) structs matching the shim's for the duration of the call.
    let rc = unsafe { absorb_step(h.as_ptr(), i, &mut o) };
    if rc != 0 {
        return Err(Error::BadArg("synack_absorb"));
    }
    Ok(o)
}

/// A Verilated `synack_absorb`.
pub struct Absorber {
    h: NonNull<c_void>,
    cycle: u64,
}

impl Absorber {
    /// An absorber, reset.
    pub fn new() -> Result<Self, Error> {
        // SAFETY: absorb_new has no preconditions.
        let h = NonNull::new(unsafe { absorb_new() }).ok_or(Error::Create("synack_absorb"))?;
        let mut a = Absorber { h, cycle: 0 };
        a.step(&AbIn {
            rst: 1,
            ..AbIn::default()
        })?;
        Ok(a)
    }

    fn step(&mut self, i: &AbIn) -> Result<AbOut, Error> {
        self.cycle += 1;
        absorb_cycle(self.h, i)
    }

    /// Runs `ins` through in order: input k is presented when `present()` says so (else a
    /// cycle passes without one), results are taken when `ready()` says so. Returns the
    /// results in order with their timing.
    pub fn run(
        &mut self,
        ins: &[AbsorbInput],
        present: impl FnMut() -> bool,
        ready: impl FnMut() -> bool,
    ) -> Result<Vec<Timed<Absorbed>>, Error> {
        let h = self.h;
        drive_in_order(ins, &mut self.cycle, 200, present, ready, |x, rdy| {
            let mut i = AbIn {
                m_ready: rdy.into(),
                ..AbIn::default()
            };
            if let Some(x) = x {
                i.valid = 1;
                i.client_isn = x.client_isn;
                i.card_isn = x.card_isn;
                i.card_tsval = x.card_tsval;
                i.client_win = x.client_win.into();
                i.client_mss = x.client_mss.into();
                i.mss_to_client = x.mss_to_client.into();
                i.sack = x.sack.into();
                i.ts = x.ts.into();
                i.client_ws = x.client_ws.is_some().into();
                i.client_ws_shift = x.client_ws.unwrap_or(0).into();
                i.server_ws_shift = x.server_ws.into();
                i.real_server = x.real_server.into();
                i.client_fin = x.client_fin.into();
                i.flags = x.flags.into();
                i.seq = x.seq;
                i.ack = x.ack;
                for (k, w) in x.opts.pack().iter().enumerate() {
                    i.opts[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
            let o = absorb_cycle(h, &i)?;
            Ok(Cycle {
                accepted: o.ready == 1,
                answer: (o.m_valid == 1).then_some(Absorbed {
                    verdict: o.verdict as u8,
                    entry: o.entry,
                    ack: o.ack,
                    window: o.window as u16,
                    mss: o.mss as u16,
                    chunk: o.chunk as u16,
                }),
            })
        })
    }
}

impl Drop for Absorber {
    fn drop(&mut self) {
        // SAFETY: self.h came from absorb_new and is freed exactly once, here.
        unsafe { absorb_free(self.h.as_ptr()) }
    }
}
