//! The request-head replay (`gateware-rtl/rtl/head_replay.v`) with the `head_buf` it reads
//! (vsrc/head_replay_top.v), Verilated at DATA_WIDTH 64 and 512 behind a small safe API: a
//! driver that fills a buffer through head_buf's append port and asks for the replay frame.

use crate::{mac_word, Error, TxRequest, Width};
use std::ffi::c_void;
use std::ptr::NonNull;

/// The inputs of one cycle (`repr(C)` mirror of `RpIn` in csrc/replay_shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RpIn {
    data: u64,
    dst_mac: u64,
    src_mac: u64,
    rst: u32,
    alloc_req: u32,
    free_en: u32,
    free_id: u32,
    valid: u32,
    buf: u32,
    off: u32,
    len: u32,
    last: u32,
    r_valid: u32,
    r_buf: u32,
    r_max_len: u32,
    src_ip: u32,
    dst_ip: u32,
    sport: u32,
    dport: u32,
    seq: u32,
    ack: u32,
    flags: u32,
    window: u32,
    ts: u32,
    tsval: u32,
    tsecr: u32,
    tready: u32,
}

/// The outputs of one cycle (`RpOut` in csrc/replay_shim.cpp).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RpOut {
    tdata: [u8; 64],
    tkeep: u64,
    alloc_valid: u32,
    alloc_ok: u32,
    alloc_id: u32,
    ready: u32,
    res_valid: u32,
    r_ready: u32,
    tvalid: u32,
    tlast: u32,
    rr_valid: u32,
    rr_long: u32,
    rr_len: u32,
    sent: u32,
    longs: u32,
}

impl Default for RpOut {
    fn default() -> Self {
        RpOut {
            tdata: [0; 64],
            tkeep: 0,
            alloc_valid: 0,
            alloc_ok: 0,
            alloc_id: 0,
            ready: 0,
            res_valid: 0,
            r_ready: 0,
            tvalid: 0,
            tlast: 0,
            rr_valid: 0,
            rr_long: 0,
            rr_len: 0,
            sent: 0,
            longs: 0,
        }
    }
}

extern "C" {
    fn replay_new(variant: u32) -> *mut c_void;
    fn replay_free(h: *mut c_void);
    fn replay_step(h: *mut c_void, i: *const RpIn, o: *mut RpOut) -> i32;
}

/// What a replay request gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    /// The frame (none for a head longer than the request's limit).
    pub frame: Option<Vec<u8>>,
    /// The head's length, as the block reported it.
    pub len: usize,
    /// The block refused the head as too long for one segment.
    pub long: bool,
    /// Cycles from the request's accept to the frame's last beat (or the result).
    pub cycles: u64,
}

const BUDGET: u64 = 20_000;

/// A Verilated head_buf + head_replay.
pub struct ReplayRig {
    h: NonNull<c_void>,
    width: Width,
    /// Cycles clocked since creation.
    pub cycle: u64,
}

impl ReplayRig {
    /// A rig of `width`, reset, head_buf's free list filled.
    pub fn new(width: Width) -> Result<Self, Error> {
        // SAFETY: replay_new has no preconditions; it returns null for an unknown variant.
        let h = NonNull::new(unsafe { replay_new(width.variant()) })
            .ok_or(Error::Create("head_replay"))?;
        let mut r = ReplayRig { h, width, cycle: 0 };
        for _ in 0..4 {
            r.step(&RpIn {
                rst: 1,
                ..RpIn::default()
            })?;
        }
        // head_buf fills its free list, one buffer a cycle
        for _ in 0..64 {
            r.step(&RpIn::default())?;
        }
        Ok(r)
    }

    fn step(&mut self, i: &RpIn) -> Result<RpOut, Error> {
        let mut o = RpOut::default();
        self.cycle += 1;
        // SAFETY: self.h is a live model from replay_new (freed only in Drop); i and o are
        // valid repr(C) structs matching the shim's for the duration of the call.
        let rc = unsafe { replay_step(self.h.as_ptr(), i, &mut o) };
        if rc != 0 {
            return Err(Error::BadArg("head_replay"));
        }
        Ok(o)
    }

    /// Takes a head buffer.
    pub fn alloc(&mut self) -> Result<Option<u32>, Error> {
        self.step(&RpIn {
            alloc_req: 1,
            ..RpIn::default()
        })?;
        let o = self.step(&RpIn::default())?;
        if o.alloc_valid != 1 {
            return Err(Error::Protocol("no alloc answer".into()));
        }
        Ok((o.alloc_ok == 1).then_some(o.alloc_id))
    }

    /// Gives buffer `id` back.
    pub fn free(&mut self, id: u32) -> Result<(), Error> {
        self.step(&RpIn {
            free_en: 1,
            free_id: id,
            ..RpIn::default()
        })
        .map(|_| ())
    }

    /// Appends `head` to buffer `id` in the segments `cuts` splits it into (positions in
    /// the head), in order, and waits for every segment's result.
    pub fn fill(&mut self, id: u32, head: &[u8], cuts: &[usize]) -> Result<(), Error> {
        let mut bounds = vec![0];
        bounds.extend(cuts.iter().copied().filter(|&c| c > 0 && c < head.len()));
        bounds.push(head.len());
        bounds.dedup();
        let mut results = 0;
        let mut want = 0;
        for w in bounds.windows(2) {
            let seg = &head[w[0]..w[1]];
            let beats: Vec<u64> = seg
                .chunks(8)
                .map(|c| {
                    let mut b = [0u8; 8];
                    b[..c.len()].copy_from_slice(c);
                    u64::from_le_bytes(b)
                })
                .collect();
            want += 1;
            let (mut k, mut spent) = (0, 0);
            while k < beats.len() {
                spent += 1;
                if spent > BUDGET {
                    return Err(Error::Stuck("a segment's beats"));
                }
                let o = self.step(&RpIn {
                    valid: 1,
                    buf: id,
                    off: w[0] as u32,
                    len: seg.len() as u32,
                    data: beats[k],
                    last: u32::from(k + 1 == beats.len()),
                    ..RpIn::default()
                })?;
                results += o.res_valid;
                if o.ready == 1 {
                    k += 1;
                }
            }
        }
        for _ in 0..BUDGET {
            if results >= want {
                return Ok(());
            }
            results += self.step(&RpIn::default())?.res_valid;
        }
        Err(Error::Stuck("segment results"))
    }

    /// Asks for the replay of buffer `id` with the frame fields of `r` (the ACK form) and
    /// at most `max_len` payload bytes; `ready()` is the output port's ready per cycle.
    pub fn replay(
        &mut self,
        id: u32,
        max_len: u16,
        r: &TxRequest,
        mut ready: impl FnMut() -> bool,
    ) -> Result<Replayed, Error> {
        let mut i = RpIn {
            r_valid: 1,
            r_buf: id,
            r_max_len: max_len.into(),
            dst_mac: mac_word(r.dst_mac),
            src_mac: mac_word(r.src_mac),
            src_ip: r.src_ip,
            dst_ip: r.dst_ip,
            sport: r.sport.into(),
            dport: r.dport.into(),
            seq: r.seq,
            ack: r.ack,
            flags: r.flags.into(),
            window: r.window.into(),
            ts: r.ts.into(),
            tsval: r.tsval,
            tsecr: r.tsecr,
            ..RpIn::default()
        };
        let mut accepted = None;
        let mut frame = Vec::new();
        let mut result: Option<(bool, usize)> = None;
        let mut done_at = 0;
        let bytes = self.width.bytes();
        for _ in 0..BUDGET {
            let rdy = ready();
            i.tready = rdy.into();
            let cyc = self.cycle;
            let o = self.step(&i)?;
            if accepted.is_none() && o.r_ready == 1 {
                accepted = Some(cyc);
                i.r_valid = 0;
            }
            if o.tvalid == 1 && rdy {
                // (at DATA_WIDTH 512 the result may come before the last beat leaves)
                if done_at != 0 {
                    return Err(Error::Protocol("a beat after the frame's last".into()));
                }
                for b in 0..bytes {
                    if o.tkeep >> b & 1 == 1 {
                        frame.push(o.tdata[b]);
                    }
                }
                if o.tlast == 1 {
                    done_at = cyc;
                }
            }
            if o.rr_valid == 1 {
                if result.is_some() {
                    return Err(Error::Protocol("two results for one request".into()));
                }
                result = Some((o.rr_long == 1, o.rr_len as usize));
                if o.rr_long == 1 {
                    done_at = cyc;
                }
            }
            if let Some((long, len)) = result {
                if long || done_at != 0 {
                    // idle again (a long head's words drained) before the next request
                    self.until_ready()?;
                    let start = accepted
                        .ok_or_else(|| Error::Protocol("a result before the accept".into()))?;
                    return Ok(Replayed {
                        frame: (!long).then_some(frame),
                        len,
                        long,
                        cycles: done_at - start,
                    });
                }
            }
        }
        Err(Error::Stuck("replay"))
    }

    fn until_ready(&mut self) -> Result<(), Error> {
        for _ in 0..BUDGET {
            let o = self.step(&RpIn::default())?;
            if o.r_ready == 1 {
                return Ok(());
            }
        }
        Err(Error::Stuck("replay idle"))
    }

    /// (frames sent, long heads refused): the block's counters.
    pub fn counts(&mut self) -> Result<(u32, u32), Error> {
        let o = self.step(&RpIn::default())?;
        Ok((o.sent, o.longs))
    }
}

impl Drop for ReplayRig {
    fn drop(&mut self) {
        // SAFETY: self.h came from replay_new and is freed exactly once, here.
        unsafe { replay_free(self.h.as_ptr()) }
    }
}
