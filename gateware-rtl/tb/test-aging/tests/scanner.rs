//! aging_scan against the firmware's aging scan: the Verilated scanner (256 slots) walks a
//! flow-state memory kept here, behind a port that grants its READs late and answers them
//! after 2 to 6 cycles, while the entries change under it (random states, flags, teardown
//! views, ages around each class's timeout, negative ones) and DP.NOW moves. Phases change
//! the timeout table, the interval, the limit (1 to 256, 0 and above 256 meaning 256), the
//! port's grants and how fast the firmware pops (sometimes not at all, so the queue fills and
//! the walk must wait).
//!
//! Checked every cycle: READs in slot order from where the walk stood, one at a time, each
//! started at least max(INTERVAL, AGE_MIN_INTERVAL) cycles after the previous one, none
//! started after ENABLE went off; the queue never above AGE_QUEUE_DEPTH. Checked per slot:
//! every read slot the firmware's `timeout_class` and `is_expired` call expired (with DP.NOW
//! as the check sampled it) is queued with its class, in order, and nothing else: no loss
//! with the queue full. At each phase's end the sweep and expiry counters equal the model's.
//!
//! `AGING_TB_SEED`, `AGING_SCAN_TB_READS` (default 300,000).

mod common;

use std::collections::VecDeque;

use common::{firmware, random_entry, random_slot, random_table};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::flowmgr::timeouts::STATES;
use splicenic_layout::{FlowStatic, AGE_MIN_INTERVAL, AGE_QUEUE_DEPTH};
use splicenic_tb_aging::{AgingScan, ScanIn, ScanOut, SlotView, SCAN_SLOTS};

const DEFAULT_SEED: u64 = 0xa6e_5ca7;
const DEFAULT_READS: u64 = 300_000;

/// The test's side of the scanner: the flow-state memory, the port, the firmware's pops, and
/// the model of what the scanner must do.
struct Rig {
    hw: AgingScan,
    rng: StdRng,
    entries: Vec<SlotView>,
    table: [u32; STATES],
    /// DP.NOW = now_base + cycle / now_div.
    now_base: u32,
    now_div: u64,
    enable: bool,
    was_enabled: bool,
    interval: u16,
    limit: u32,
    grant_p: f64,
    pop_p: f64,
    /// The READ in flight: slot and the cycle its answer is due.
    in_flight: Option<(u16, u64)>,
    /// The slot being offered (its first cycle).
    offer: Option<(u16, u64)>,
    last_start: Option<u64>,
    /// The slot the next READ must be.
    next: u16,
    /// Expired slots the scanner must have queued, not yet popped.
    expect: VecDeque<(u16, u8)>,
    reads: u64,
    expired: u64,
    sweeps: u64,
    out: ScanOut,
    full_seen: bool,
    by_class: [u64; STATES],
}

impl Rig {
    fn now_at(&self, cycle: u64) -> u32 {
        self.now_base.wrapping_add((cycle / self.now_div) as u32)
    }

    fn limit_eff(&self) -> u32 {
        if self.limit == 0 || self.limit > SCAN_SLOTS {
            SCAN_SLOTS
        } else {
            self.limit
        }
    }

    fn cycle(&mut self) {
        let c = self.hw.cycle;
        let now = self.now_at(c);
        // the memory changes under the walk
        if self.rng.gen_bool(0.3) {
            let s = self.rng.gen_range(0..SCAN_SLOTS) as usize;
            // mostly aged against DP.NOW, some with any last-seen at all
            let e = if self.rng.gen_bool(0.1) {
                random_slot(&mut self.rng, &self.table)
            } else {
                random_entry(&mut self.rng, &self.table, now)
            };
            self.entries[s] = SlotView {
                slot: s as u16,
                ..e
            };
        }
        let fs_ready = self.rng.gen_bool(self.grant_p);
        let mut response = None;
        if let Some((slot, due)) = self.in_flight {
            if due <= c {
                let e = self.entries[usize::from(slot)];
                let w0 = FlowStatic::STATE.place32(e.state.into())
                    | FlowStatic::FLAGS.place32(e.flags.into());
                response = Some((w0, e.last_seen, e.teardown));
                // the check samples DP.NOW in the cycle after the response
                let seen = SlotView {
                    now: self.now_at(c + 1),
                    ..e
                };
                let (class, exp) = firmware(&seen, &self.table);
                if exp {
                    self.expect.push_back((slot, class));
                    self.expired += 1;
                    self.by_class[usize::from(class)] += 1;
                }
                if u32::from(slot) + 1 >= self.limit_eff() {
                    self.sweeps += 1;
                }
                self.in_flight = None;
            }
        }
        let pop = self.rng.gen_bool(self.pop_p);
        let out = self
            .hw
            .step(&ScanIn {
                enable: self.enable,
                interval: self.interval,
                limit: self.limit,
                now,
                timeout_write: None,
                fs_ready,
                response,
                pop,
            })
            .expect("scanner cycle");
        assert!(
            usize::from(out.level) <= AGE_QUEUE_DEPTH as usize,
            "queue above its depth at cycle {c}: {out:?}"
        );
        self.full_seen |= usize::from(out.level) == AGE_QUEUE_DEPTH as usize;
        // the firmware's pop takes the head shown this cycle
        if pop {
            if let Some(head) = out.head {
                let want = self.expect.pop_front();
                assert_eq!(Some(head), want, "queued slot at cycle {c}");
            }
        }
        if let Some(slot) = out.read {
            match self.offer {
                Some((s, _)) => assert_eq!(s, slot, "the offered READ changed at cycle {c}"),
                None => {
                    assert!(self.in_flight.is_none(), "a second READ at cycle {c}");
                    assert!(
                        self.was_enabled,
                        "a READ started while disabled at cycle {c}"
                    );
                    assert_eq!(slot, self.next, "READ out of order at cycle {c}");
                    if let Some(t) = self.last_start {
                        let gap = u64::from(self.interval.max(AGE_MIN_INTERVAL as u16));
                        assert!(c - t >= gap, "READs {} cycles apart at cycle {c}", c - t);
                    }
                    self.last_start = Some(c);
                    self.offer = Some((slot, c));
                }
            }
            if fs_ready {
                let lat = self.rng.gen_range(2..=6);
                self.in_flight = Some((slot, c + lat));
                self.offer = None;
                self.reads += 1;
                self.next = if u32::from(slot) + 1 >= self.limit_eff() {
                    0
                } else {
                    slot + 1
                };
            }
        }
        self.was_enabled = self.enable;
        self.out = out;
    }

    /// Stops the walk and lets the READ in flight and its check finish.
    fn drain(&mut self) {
        self.enable = false;
        // an offer waits for its grant (one in ten cycles in some phases), then its READ
        // and the check: bounded, but not by a few cycles
        for _ in 0..40 {
            self.cycle();
        }
        for _ in 0..2_000 {
            if self.in_flight.is_none() && self.offer.is_none() {
                break;
            }
            self.cycle();
        }
        assert!(
            self.in_flight.is_none() && self.offer.is_none(),
            "walk still busy: in flight {:?}, offer {:?}, level {}, cycle {}",
            self.in_flight,
            self.offer,
            self.out.level,
            self.hw.cycle
        );
    }

    fn set_table(&mut self, table: [u32; STATES]) {
        for (i, &t) in table.iter().enumerate() {
            self.hw
                .step(&ScanIn {
                    interval: self.interval,
                    limit: self.limit,
                    now: self.now_at(self.hw.cycle),
                    timeout_write: Some((i as u8, t)),
                    ..ScanIn::default()
                })
                .expect("table write");
        }
        self.table = table;
    }
}

#[test]
fn aging_scan_walks_like_the_firmware() {
    let seed = splicenic_fuzzkit::env_u64("AGING_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("AGING_SCAN_TB_READS").unwrap_or(DEFAULT_READS);
    eprintln!("aging_scan against the firmware: seed {seed:#x}, {target} slot reads");
    let mut rng = StdRng::seed_from_u64(seed);
    let table = random_table(&mut rng);
    let mut rig = Rig {
        hw: AgingScan::new().expect("model"),
        rng: StdRng::seed_from_u64(seed ^ 0x5ca7),
        entries: Vec::new(),
        table,
        now_base: rng.gen(),
        now_div: 8,
        enable: false,
        was_enabled: false,
        interval: 0,
        limit: 0,
        grant_p: 1.0,
        pop_p: 1.0,
        in_flight: None,
        offer: None,
        last_start: None,
        next: 0,
        expect: VecDeque::new(),
        reads: 0,
        expired: 0,
        sweeps: 0,
        out: ScanOut::default(),
        full_seen: false,
        by_class: [0; STATES],
    };
    let now = rig.now_at(0);
    rig.entries = (0..SCAN_SLOTS)
        .map(|s| SlotView {
            slot: s as u16,
            ..random_entry(&mut rng, &table, now)
        })
        .collect();
    rig.set_table(table);
    let mut phases = 0u64;
    while rig.reads < target {
        phases += 1;
        // a new phase: table, interval, limit, grants, pops, how DP.NOW moves
        if rng.gen_bool(0.5) {
            let t = random_table(&mut rng);
            rig.set_table(t);
        }
        rig.interval = match rng.gen_range(0..5) {
            0 => 0,
            1 => AGE_MIN_INTERVAL as u16,
            2 => AGE_MIN_INTERVAL as u16 + 1,
            3 => rng.gen_range(1..64),
            _ => 64,
        };
        let old_limit = rig.limit_eff();
        rig.limit = match rng.gen_range(0..6) {
            0 => 0,
            1 => SCAN_SLOTS + rng.gen_range(1..1000),
            2 => rng.gen_range(1..=8),
            _ => rng.gen_range(1..=SCAN_SLOTS),
        };
        if rig.limit_eff() != old_limit && u32::from(rig.next) >= rig.limit_eff() {
            // the walk restarts at slot 0 (a sweep)
            rig.next = 0;
            rig.sweeps += 1;
        }
        rig.grant_p = [1.0, 0.5, 0.1][rng.gen_range(0..3)];
        rig.pop_p = [1.0, 0.3, 0.02, 0.0][rng.gen_range(0..4)];
        rig.now_div = [1, 8, 1 << 40][rng.gen_range(0..3)];
        rig.now_base = rng.gen();
        // the scanner registers its configuration: one cycle before the walk resumes
        rig.cycle();
        rig.enable = true;
        let span = rng.gen_range(2_000..40_000);
        for _ in 0..span {
            rig.cycle();
        }
        rig.drain();
        // the firmware pops whatever is left
        rig.pop_p = 1.0;
        for _ in 0..(AGE_QUEUE_DEPTH as usize + 8) {
            rig.cycle();
        }
        assert!(
            rig.expect.is_empty(),
            "queued slots missing: {:?}",
            rig.expect
        );
        assert_eq!(rig.out.head, None, "queue not empty after the pops");
        assert_eq!(u64::from(rig.out.expired), rig.expired, "AGE_EXPIRED");
        assert_eq!(u64::from(rig.out.sweeps), rig.sweeps, "AGE_SWEEPS");
        assert_eq!(rig.out.pos, rig.next, "AGE_POS");
    }
    eprintln!(
        "{} slot reads in {phases} phases, {} cycles: {} expired (by class {:?}), {} sweeps; \
         the queue filled up and the walk waited: {}",
        rig.reads, rig.hw.cycle, rig.expired, rig.by_class, rig.sweeps, rig.full_seen
    );
    assert!(rig.full_seen, "the queue never filled");
    for c in [1usize, 4, 5, 6, 11] {
        assert!(rig.by_class[c] > 0, "class {c} never expired");
    }
}
