//! The aging scan: finds flows idle for longer than their state's timeout.
//!
//! Each flow entry holds the `DP.NOW` tick at which it was last seen (the data path writes it
//! for forwarded segments, the firmware for the segments it handles). `DP.NOW` is a 32-bit
//! wrapping counter, so the age is the wrapping difference `now - last_seen`; a negative
//! difference (a segment seen after the caller sampled `now`) counts as age 0. Timeouts are
//! at most half the counter range ([`super::timeouts::MAX_TIMEOUT_TICKS`]) and the scan
//! revisits every slot far more often than that, so an idle flow is always caught before its
//! age could wrap.
//!
//! [`AgingScan`] is incremental and resumable: each [`AgingScan::step`] examines at most a
//! budget of slots and writes the expired ones into the caller's buffer, so the firmware's
//! main loop stays responsive. The caller then frees each reported slot (re-reading the
//! entry first if the data path may have touched it since): delete both lookup keys, mark
//! the entry FREE, append the slot to the free-list tail.

use super::timeouts::{TcpState, Timeouts};
use super::Slot;

/// What the scan needs to know about an occupied slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotAge {
    /// Timeout class of the flow.
    pub state: TcpState,
    /// `DP.NOW` tick of the flow's last segment.
    pub last_seen: u32,
}

/// Age in ticks of something last seen at `last_seen`, at tick `now`, across the counter
/// wrap; 0 when `last_seen` is (by up to half the range) after `now`.
pub const fn age(now: u32, last_seen: u32) -> u32 {
    let d = now.wrapping_sub(last_seen);
    if d > i32::MAX as u32 {
        0
    } else {
        d
    }
}

/// True when a flow idle since `last_seen` has reached its timeout of `timeout_ticks` at
/// `now` (the flow expires once its age is at least the timeout).
pub const fn is_expired(now: u32, last_seen: u32, timeout_ticks: u32) -> bool {
    age(now, last_seen) >= timeout_ticks
}

/// True when the slot described by `slot` has expired at `now` under `timeouts`.
pub fn slot_expired(timeouts: &Timeouts, slot: SlotAge, now: u32) -> bool {
    is_expired(now, slot.last_seen, timeouts.ticks(slot.state))
}

/// Errors of the aging scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgingError {
    /// The slot count is 0 or above 65536.
    BadSlotCount(usize),
}

/// Outcome of one [`AgingScan::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ScanStep {
    /// Slots examined in this step.
    pub examined: usize,
    /// Expired slots written to the front of the output buffer.
    pub expired: usize,
    /// True when this step finished a pass over all slots (the next step starts at slot 0).
    pub pass_done: bool,
}

/// A resumable scan over slots `0..slots`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgingScan {
    slots: u32,
    next: u32,
    passes: u32,
}

impl AgingScan {
    /// A scan over `slots` slots (1..=65536), starting at slot 0.
    pub const fn new(slots: usize) -> Result<Self, AgingError> {
        if slots == 0 || slots > Slot::MAX as usize + 1 {
            return Err(AgingError::BadSlotCount(slots));
        }
        Ok(Self {
            slots: slots as u32,
            next: 0,
            passes: 0,
        })
    }

    /// Number of slots scanned.
    pub const fn slots(&self) -> usize {
        self.slots as usize
    }

    /// The slot the next step examines first.
    pub const fn cursor(&self) -> Slot {
        // next < slots <= 65536.
        self.next as Slot
    }

    /// Number of completed passes (wrapping).
    pub const fn passes(&self) -> u32 {
        self.passes
    }

    /// Starts the next step at slot 0 again.
    pub fn restart(&mut self) {
        self.next = 0;
    }

    /// Examines up to `budget` slots from the cursor at tick `now` and writes the expired
    /// ones to `out`.
    ///
    /// `view(slot)` describes an occupied slot, or returns `None` for a free one (skipped).
    /// The step stops after `budget` slots, when `out` is full (the cursor then stays on the
    /// first slot not yet examined, so no expired slot is lost), or at the end of a pass (so
    /// one step never reports a slot twice). An empty `out` examines nothing.
    pub fn step<F>(
        &mut self,
        now: u32,
        budget: usize,
        timeouts: &Timeouts,
        mut view: F,
        out: &mut [Slot],
    ) -> ScanStep
    where
        F: FnMut(Slot) -> Option<SlotAge>,
    {
        let mut r = ScanStep::default();
        while r.examined < budget && r.expired < out.len() {
            let slot = self.next as Slot;
            if let Some(s) = view(slot) {
                if slot_expired(timeouts, s, now) {
                    out[r.expired] = slot;
                    r.expired += 1;
                }
            }
            r.examined += 1;
            self.next += 1;
            if self.next == self.slots {
                self.next = 0;
                self.passes = self.passes.wrapping_add(1);
                r.pass_done = true;
                break;
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLK: u32 = splicenic_layout::CLK_HZ;

    fn timeouts() -> Timeouts {
        Timeouts::new(CLK).unwrap()
    }

    #[test]
    fn age_handles_the_counter_wrap_and_future_timestamps() {
        assert_eq!(age(100, 40), 60);
        assert_eq!(age(5, u32::MAX - 4), 10);
        assert_eq!(age(0, 0), 0);
        // last_seen just after now: a segment raced the scan.
        assert_eq!(age(100, 101), 0);
        assert_eq!(age(u32::MAX, 3), 0);
        assert_eq!(age(i32::MAX as u32, 0), i32::MAX as u32);
        assert_eq!(age(1 << 31, 0), 0);
    }

    #[test]
    fn expiry_is_at_the_timeout_exactly() {
        let t = timeouts();
        let ticks = t.ticks(TcpState::SynRecv);
        let s = SlotAge {
            state: TcpState::SynRecv,
            last_seen: u32::MAX - 10,
        };
        let at = s.last_seen.wrapping_add(ticks);
        assert!(!slot_expired(&t, s, at.wrapping_sub(1)));
        assert!(slot_expired(&t, s, at));
        assert!(is_expired(7, 7, 0));
        assert!(!is_expired(7, 8, 1));
    }

    /// A toy flow table: per slot an optional (state, last_seen).
    fn table(n: usize) -> Vec<Option<SlotAge>> {
        vec![None; n]
    }

    #[test]
    fn scan_reports_only_expired_occupied_slots_by_state() {
        let t = timeouts();
        let now = 5_000_000u32;
        let mut tab = table(10);
        let est = t.ticks(TcpState::Established);
        let syn = t.ticks(TcpState::SynRecv);
        tab[1] = Some(SlotAge {
            state: TcpState::SynRecv,
            last_seen: now - syn,
        }); // expired
        tab[2] = Some(SlotAge {
            state: TcpState::Established,
            last_seen: now - syn,
        }); // young for ESTABLISHED
        tab[5] = Some(SlotAge {
            state: TcpState::Established,
            last_seen: now - est - 1,
        }); // expired
        tab[9] = Some(SlotAge {
            state: TcpState::Close,
            last_seen: now.wrapping_add(3),
        }); // future: not expired
        let mut scan = AgingScan::new(10).unwrap();
        let mut out = [0; 16];
        let r = scan.step(now, 100, &t, |s| tab[usize::from(s)], &mut out);
        assert_eq!(
            r,
            ScanStep {
                examined: 10,
                expired: 2,
                pass_done: true
            }
        );
        assert_eq!(&out[..2], &[1, 5]);
        assert_eq!((scan.cursor(), scan.passes()), (0, 1));
    }

    #[test]
    fn scan_resumes_across_calls_and_respects_budget_and_buffer() {
        let t = timeouts();
        let now = 1u32 << 30;
        let mut tab = table(20);
        for (i, e) in tab.iter_mut().enumerate() {
            if i % 2 == 0 {
                *e = Some(SlotAge {
                    state: TcpState::Close,
                    last_seen: 0,
                });
            }
        }
        let mut scan = AgingScan::new(20).unwrap();
        let mut seen = Vec::new();
        let mut out = [0; 3];
        let mut calls = 0;
        loop {
            let r = scan.step(now, 4, &t, |s| tab[usize::from(s)], &mut out);
            calls += 1;
            assert!(r.examined <= 4 && r.expired <= 3);
            seen.extend_from_slice(&out[..r.expired]);
            if r.pass_done {
                break;
            }
        }
        assert_eq!(seen, (0..20).step_by(2).collect::<Vec<Slot>>());
        assert_eq!(calls, 5);
        // Empty output: nothing examined, cursor unchanged.
        let r = scan.step(now, 4, &t, |s| tab[usize::from(s)], &mut []);
        assert_eq!(r, ScanStep::default());
        assert_eq!(scan.cursor(), 0);
    }

    #[test]
    fn full_buffer_stops_before_losing_a_slot() {
        let t = timeouts();
        let mut tab = table(6);
        for e in tab.iter_mut() {
            *e = Some(SlotAge {
                state: TcpState::None,
                last_seen: 0,
            });
        }
        let mut scan = AgingScan::new(6).unwrap();
        let mut out = [0; 2];
        let now = 1_000_000;
        let r = scan.step(now, 100, &t, |s| tab[usize::from(s)], &mut out);
        assert_eq!((r.examined, r.expired, r.pass_done), (2, 2, false));
        assert_eq!(out, [0, 1]);
        assert_eq!(scan.cursor(), 2);
        let r = scan.step(now, 100, &t, |s| tab[usize::from(s)], &mut out);
        assert_eq!(out[..r.expired], [2, 3]);
        let r = scan.step(now, 100, &t, |s| tab[usize::from(s)], &mut out);
        assert_eq!((out[..r.expired].to_vec(), r.pass_done), (vec![4, 5], true));
    }

    #[test]
    fn freeing_the_reported_slots_integrates_with_the_free_list() {
        use crate::flowmgr::freelist::{bitmap_words, FreeList};
        let t = timeouts();
        let mut fl: FreeList<8, { bitmap_words(8) }> = FreeList::full();
        let mut tab = table(8);
        // Allocate 5 flows at tick 0; two see traffic later.
        for _ in 0..5 {
            let s = fl.alloc().unwrap();
            tab[usize::from(s)] = Some(SlotAge {
                state: TcpState::Established,
                last_seen: 0,
            });
        }
        let est = t.ticks(TcpState::Established);
        tab[1].as_mut().unwrap().last_seen = est / 2;
        tab[3].as_mut().unwrap().last_seen = est / 2;
        let mut scan = AgingScan::new(8).unwrap();
        let mut out = [0; 8];
        let r = scan.step(est, 8, &t, |s| tab[usize::from(s)], &mut out);
        for &s in &out[..r.expired] {
            tab[usize::from(s)] = None;
            fl.free(s).unwrap();
        }
        assert_eq!(&out[..r.expired], &[0, 2, 4]);
        // The freed slots went to the tail, after 5, 6, 7.
        assert_eq!(fl.iter().collect::<Vec<_>>(), [5, 6, 7, 0, 2, 4]);
    }

    #[test]
    fn wrapped_counter_scan_finds_flows_seen_before_the_wrap() {
        let t = timeouts();
        let mut tab = table(3);
        let close = t.ticks(TcpState::Close);
        tab[0] = Some(SlotAge {
            state: TcpState::Close,
            last_seen: u32::MAX - close / 2,
        });
        tab[2] = Some(SlotAge {
            state: TcpState::Close,
            last_seen: u32::MAX - 5,
        });
        let mut scan = AgingScan::new(3).unwrap();
        let mut out = [0; 3];
        let now = close / 2 + 1; // past the wrap
        let r = scan.step(now, 3, &t, |s| tab[usize::from(s)], &mut out);
        assert_eq!(&out[..r.expired], &[0]);
    }

    #[test]
    fn slot_count_is_validated() {
        assert_eq!(AgingScan::new(0), Err(AgingError::BadSlotCount(0)));
        assert_eq!(
            AgingScan::new(65_537),
            Err(AgingError::BadSlotCount(65_537))
        );
        let s = AgingScan::new(65_536).unwrap();
        assert_eq!(s.slots(), 65_536);
        let mut s = AgingScan::new(4).unwrap();
        let t = timeouts();
        s.step(0, 2, &t, |_| None, &mut [0; 1]);
        assert_eq!(s.cursor(), 2);
        s.restart();
        assert_eq!(s.cursor(), 0);
    }
}
