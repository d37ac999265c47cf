//! Where the flow manager's cycles go (FLOW_PROFILE, `docs/flowmgr.md`, "Cycle profile").
//!
//! Every handler the flow manager runs for a punted frame, an event or a setup timer is timed
//! with the SoC cycle counter ([`super::Hw::cycles`], the one the FLOW_STATS cycle sums use)
//! and charged to one [`Handler`] kind: cycles and a count. Inside the handlers the steps that
//! are candidates for hardware ([`Step`]: flow-table commands, flow-entry reads and writes,
//! frame building, inject-ring copies, the SipHash ISN, the scheduler pick, ...) are timed
//! too; a step's cycles are also part of the cycles of the handler it ran in (and the punt
//! read and the frame parse are outside every handler).
//!
//! The handler kinds are always counted: they reuse the readings the FLOW_STATS cycle sums
//! take, so they cost only the bookkeeping. Step timing costs two timer reads and the
//! bookkeeping per step (about 200 PicoRV32 cycles: +3.6 % setup and +5.2 % teardown cycles
//! on the simulated card), so it is off until the host turns it on (FLOW_PROFILE word 1);
//! off, a step costs a flag test.
//!
//! FLOW_PROFILE reads the table 5 entries at a time from a snapshot the request for entry 0
//! takes, so the pages of one read belong together; ZERO clears it.

use super::Hw;
use crate::mailbox::{status, Response, MAX_WORDS};

/// What the flow manager was doing: the handler kinds (entries `0..HANDLERS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Handler {
    /// A client SYN that starts a setup: slot, key insert, ISN, entry write, SYN-ACK.
    Syn = 0,
    /// A client SYN answered statelessly (SYN cookie: every setup entry is busy).
    SynCookie,
    /// A retransmitted or duplicate SYN of a connection in setup.
    SynRetx,
    /// The client's handshake-completing ACK (an L4 service also picks the server and sends
    /// it the SYN here).
    HandshakeAck,
    /// A handshake ACK accepted by its cookie (slot, key insert, entry write; as above).
    CookieAck,
    /// A client segment with request data (or FIN) during setup: buffering, the ACK, the
    /// entry write, maybe the buffer match or the server choice.
    RequestData,
    /// An inline L7 result (REQUEST_MATCHED event from the segment matcher).
    L7Inline,
    /// A buffer L7 result (REQUEST_MATCHED event of an L7.CMD buffer match).
    L7Buffer,
    /// The server's SYN-ACK: options, the spliced entry write and the request replay.
    ServerSynAck,
    /// A server SYN-ACK the card absorbed (entry, handshake ACK and replay by the card): the
    /// setup's bookkeeping.
    ServerAbsorbed,
    /// The server SYN retransmission timer (and the move to the next server after the last).
    ServerRetx,
    /// A server RST (or other server segment) of a connection in setup.
    ServerSeg,
    /// A client RST of a connection in setup.
    ClientRst,
    /// A handshake or request deadline that ended a setup.
    SetupTimeout,
    /// A FIN/RST event of a spliced flow.
    FinRst,
    /// An aging step that freed flows (count: flows freed; the step's scan is included).
    AgingFree,
    /// An ARP request.
    Arp,
    /// Any other punted segment (stray, refused SYN, spliced flow with the fast path off).
    Other,
}

/// Steps inside the handlers (entries `HANDLERS..ENTRIES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Step {
    /// Taking a frame from the punt ring (descriptor and frame copied out, word by word).
    PuntRead = 0,
    /// Parsing a punted frame (Ethernet, IPv4, TCP headers).
    Parse,
    /// A flow-table command (insert or delete of a lookup key, through the FLOW registers).
    FlowCmd,
    /// A flow-entry write (13 static + 6 dynamic words and the command).
    EntryWrite,
    /// A flow-entry read (FIN/RST events and aging frees).
    EntryRead,
    /// Building an outgoing frame (headers, options, payload copy into the frame buffer).
    FrameBuild,
    /// Copying a frame into the inject ring and committing it.
    Inject,
    /// SipHash: the card's ISN, or checking the client's ACK against it.
    Isn,
    /// The scheduler's pick of a real server.
    SchedPick,
    /// SYN options: parsing, negotiation and the splice entry's option fields.
    Options,
    /// Submitting a buffer match (the request copied to L7.CMD).
    L7Submit,
    /// A header-only segment staged in the card's frame generator (`DP.TXGEN_*`) instead of
    /// built and copied into the inject ring.
    TxGen,
    /// Request bytes copied into the card's request-head buffer (`DP.HEAD_*`).
    HeadStore,
    /// The head replayed by the card from its buffer (`DP.HEAD_REPLAY`, the handshake ACK
    /// staged in `DP.TXGEN_*`) instead of built and copied into the inject ring.
    Replay,
}

/// Handler kinds.
pub const HANDLERS: usize = Handler::Other as usize + 1;
/// Steps.
pub const STEPS: usize = Step::Replay as usize + 1;
/// Profile entries: the handlers, then the steps.
pub const ENTRIES: usize = HANDLERS + STEPS;
/// Entries per FLOW_PROFILE response (3 words each after the header word).
pub const PER_PAGE: usize = (MAX_WORDS - 1) / 3;

// A page (header word and 3 words per entry) fits the response registers.
const _: () = assert!(3 * PER_PAGE < MAX_WORDS);

/// Entry names (the driver's names; FLOW_PROFILE order).
pub const NAMES: [&str; ENTRIES] = [
    "syn",
    "syn_cookie",
    "syn_retx",
    "handshake_ack",
    "cookie_ack",
    "request_data",
    "l7_inline",
    "l7_buffer",
    "server_synack",
    "server_absorbed",
    "server_retx",
    "server_seg",
    "client_rst",
    "setup_timeout",
    "fin_rst",
    "aging_free",
    "arp",
    "other",
    "punt_read",
    "parse",
    "flow_cmd",
    "entry_write",
    "entry_read",
    "frame_build",
    "inject",
    "isn",
    "sched_pick",
    "options",
    "l7_submit",
    "tx_gen",
    "head_store",
    "replay",
];

/// One entry: cycles spent and times run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub cycles: u64,
    pub count: u32,
}

/// The cycle profile.
#[derive(Clone, Debug)]
pub struct Profile {
    live: [Entry; ENTRIES],
    snap: [Entry; ENTRIES],
    /// What an empty timed step reports (the measurement's own share of every step run),
    /// measured with the last snapshot.
    empty_step: u32,
    /// Steps are timed.
    steps: bool,
}

impl Default for Profile {
    fn default() -> Self {
        Self::new()
    }
}

impl Profile {
    /// An empty profile.
    pub const fn new() -> Self {
        Self {
            live: [Entry {
                cycles: 0,
                count: 0,
            }; ENTRIES],
            snap: [Entry {
                cycles: 0,
                count: 0,
            }; ENTRIES],
            empty_step: 0,
            steps: false,
        }
    }

    /// Steps are timed (FLOW_PROFILE word 1).
    pub fn steps_timed(&self) -> bool {
        self.steps
    }

    /// Turns step timing on or off (the entries are kept).
    pub fn time_steps(&mut self, on: bool) {
        self.steps = on;
    }

    // Out of line: one copy of the bookkeeping instead of one per timed region.
    #[inline(never)]
    fn add(&mut self, i: usize, cycles: u64) {
        if let Some(e) = self.live.get_mut(i) {
            e.cycles = e.cycles.wrapping_add(cycles);
            e.count = e.count.wrapping_add(1);
        }
    }

    /// Charges one run of handler `h`.
    #[inline]
    pub fn handler(&mut self, h: Handler, cycles: u64) {
        self.add(h as usize, cycles);
    }

    /// Charges `n` runs of handler `h` (an aging step that freed `n` flows).
    pub fn handler_n(&mut self, h: Handler, cycles: u64, n: u32) {
        if let Some(e) = self.live.get_mut(h as usize) {
            e.cycles = e.cycles.wrapping_add(cycles);
            e.count = e.count.wrapping_add(n);
        }
    }

    /// Charges one run of step `s` when steps are timed.
    #[inline]
    pub fn step(&mut self, s: Step, cycles: u64) {
        if self.steps {
            self.add(HANDLERS + s as usize, cycles);
        }
    }

    /// The start of a step: a [`Hw::cycles`] reading when steps are timed, else 0 (no
    /// reading).
    #[inline(always)]
    pub fn start<H: Hw + ?Sized>(&self, hw: &mut H) -> u64 {
        if self.steps {
            hw.cycles()
        } else {
            0
        }
    }

    /// Charges step `s` with the cycles since `t0` ([`Profile::start`]) when steps are timed;
    /// returns the counter reading it took (the start of a following step), else 0.
    #[inline(always)]
    pub fn step_since<H: Hw + ?Sized>(&mut self, hw: &mut H, s: Step, t0: u64) -> u64 {
        if self.steps {
            self.record(hw, s, t0)
        } else {
            0
        }
    }

    // Out of line: the timer read and the bookkeeping once, not at every timed region.
    #[inline(never)]
    fn record<H: Hw + ?Sized>(&mut self, hw: &mut H, s: Step, t0: u64) -> u64 {
        let t = hw.cycles();
        if let Some(e) = self.live.get_mut(HANDLERS + s as usize) {
            e.cycles = e.cycles.wrapping_add(t.wrapping_sub(t0));
            e.count = e.count.wrapping_add(1);
        }
        t
    }

    /// Runs `f` on `hw` as step `s`.
    #[inline(always)]
    pub fn time<H: Hw + ?Sized, R>(
        &mut self,
        hw: &mut H,
        s: Step,
        f: impl FnOnce(&mut H) -> R,
    ) -> R {
        let t0 = self.start(hw);
        let r = f(hw);
        self.step_since(hw, s, t0);
        r
    }

    /// The live entry `i` (handlers first, then steps).
    pub fn entry(&self, i: usize) -> Entry {
        self.live[i]
    }

    /// The live entry of handler `h`.
    pub fn of_handler(&self, h: Handler) -> Entry {
        self.live[h as usize]
    }

    /// The live entry of step `s`.
    pub fn of_step(&self, s: Step) -> Entry {
        self.live[HANDLERS + s as usize]
    }

    /// ZERO: every entry back to 0 (the snapshot too); step timing stays as it is.
    pub fn clear(&mut self) {
        let steps = self.steps;
        *self = Self::new();
        self.steps = steps;
    }

    /// FLOW_PROFILE: [first entry, (optional) step timing 0 off / 1 on] -> [entries | step
    /// timing << 8 | empty step cycles << 16, then per entry from the first: cycles lo, cycles hi,
    /// count] (at most [`PER_PAGE`] entries). Entry 0 takes the snapshot the pages are read
    /// from; word 1 switches step timing before the answer.
    pub fn command(
        &mut self,
        hw: &mut impl Hw,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Result<Response, u32> {
        if req.is_empty() || req.len() > 2 {
            return Err(status::BAD_LENGTH);
        }
        let first = req[0] as usize;
        let steps = match req.get(1) {
            None => self.steps,
            Some(0) => false,
            Some(1) => true,
            Some(_) => return Err(status::BAD_ARGUMENT),
        };
        if first > ENTRIES {
            return Err(status::BAD_ARGUMENT);
        }
        self.steps = steps;
        if first == 0 {
            self.snap = self.live;
            // An empty step, timed as the real ones are (entry restored afterwards).
            let i = HANDLERS + Step::Parse as usize;
            let saved = self.live[i];
            let t0 = hw.cycles();
            self.record(hw, Step::Parse, t0);
            let empty = self.live[i].cycles.wrapping_sub(saved.cycles);
            self.live[i] = saved;
            self.empty_step = empty.min(0xffff) as u32;
        }
        rsp[0] = ENTRIES as u32 | u32::from(self.steps) << 8 | self.empty_step << 16;
        let n = (ENTRIES - first).min(PER_PAGE);
        for (k, e) in self.snap[first..first + n].iter().enumerate() {
            rsp[1 + 3 * k] = e.cycles as u32;
            rsp[2 + 3 * k] = (e.cycles >> 32) as u32;
            rsp[3 + 3 * k] = e.count;
        }
        Ok(Response::ok(1 + 3 * n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cover_every_entry_and_pages_fit() {
        assert_eq!(NAMES.len(), ENTRIES);
        assert_eq!(NAMES[Handler::Other as usize], "other");
        assert_eq!(NAMES[HANDLERS + Step::L7Submit as usize], "l7_submit");
        assert_eq!(PER_PAGE, 5);
        // Names are unique.
        for (i, a) in NAMES.iter().enumerate() {
            assert!(!NAMES[i + 1..].contains(a), "{a}");
        }
    }
}
