//! The flow manager's cycle profile (FLOW_PROFILE).

use super::*;

/// Entries of the firmware's cycle profile (handler kinds, then steps).
pub const PROFILE_ENTRIES: usize = profile::ENTRIES;
/// Handler kinds in the profile (entries `0..PROFILE_HANDLERS`; the steps follow).
pub const PROFILE_HANDLERS: usize = profile::HANDLERS;
/// Profile entries per FLOW_PROFILE response.
pub const PROFILE_PER_PAGE: usize = profile::PER_PAGE;
/// Entry names in FLOW_PROFILE order (`syn`, `syn_cookie`, ... `other`, then `punt_read`,
/// `parse`, ... `l7_submit`; docs/flowmgr.md, "Cycle profile").
pub const PROFILE_NAMES: [&str; PROFILE_ENTRIES] = profile::NAMES;

/// What a profile entry times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProfileGroup {
    /// A handler kind: every soft-core cycle the flow manager spends on a punted frame, an
    /// event or a setup timer is charged to exactly one.
    Handler,
    /// A step inside the handlers (flow-table command, entry write, ...): its cycles are part
    /// of the handler it ran in (the punt read and the parse are outside every handler).
    Step,
}

/// One entry of the cycle profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileEntry {
    /// The entry's name ([`PROFILE_NAMES`]).
    pub name: &'static str,
    /// Handler kind or step.
    pub group: ProfileGroup,
    /// Soft-core cycles spent (SoC cycle counter).
    pub cycles: u64,
    /// Times it ran (for `aging_free`: flows freed).
    pub count: u32,
}

impl ProfileEntry {
    /// Mean cycles per run (`None` before the first).
    pub fn mean_cycles(&self) -> Option<f64> {
        (self.count != 0).then(|| self.cycles as f64 / f64::from(self.count))
    }
}

/// The flow manager's cycle profile (FLOW_PROFILE): cycles and runs per handler kind and
/// per step, since the firmware started or the last ZERO.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowProfile {
    /// Cycles an empty timed step reports on the card: the measurement's own share of every
    /// step run (subtract `count * empty_step_cycles` from a step for its net cost).
    pub empty_step_cycles: u32,
    /// The firmware times the steps ([`FlowManager::flow_profile_steps`]); when off, the step
    /// entries do not grow.
    pub steps_timed: bool,
    /// All [`PROFILE_ENTRIES`] entries, in FLOW_PROFILE order.
    pub entries: Vec<ProfileEntry>,
}

impl FlowProfile {
    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Option<&ProfileEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The handler kinds.
    pub fn handlers(&self) -> impl Iterator<Item = &ProfileEntry> {
        self.entries
            .iter()
            .filter(|e| e.group == ProfileGroup::Handler)
    }

    /// The steps.
    pub fn steps(&self) -> impl Iterator<Item = &ProfileEntry> {
        self.entries
            .iter()
            .filter(|e| e.group == ProfileGroup::Step)
    }

    /// Cycles of all handler kinds together.
    pub fn handler_cycles(&self) -> u64 {
        self.handlers().map(|e| e.cycles).sum()
    }

    /// What happened between `earlier` and this profile (cycles and counts subtracted,
    /// wrapping like the counters on the card).
    pub fn since(&self, earlier: &FlowProfile) -> FlowProfile {
        FlowProfile {
            empty_step_cycles: self.empty_step_cycles,
            steps_timed: self.steps_timed,
            entries: self
                .entries
                .iter()
                .zip(&earlier.entries)
                .map(|(a, b)| ProfileEntry {
                    cycles: a.cycles.wrapping_sub(b.cycles),
                    count: a.count.wrapping_sub(b.count),
                    ..*a
                })
                .collect(),
        }
    }

    /// Decodes FLOW_PROFILE responses: `pages[k]` answers the request for entry
    /// `k * PROFILE_PER_PAGE`.
    pub fn from_pages(pages: &[Vec<u32>]) -> Result<Self, DriverError> {
        const CMD: &str = "FLOW_PROFILE";
        let mut entries = Vec::with_capacity(PROFILE_ENTRIES);
        let mut empty_step_cycles = 0;
        let mut steps_timed = false;
        for (k, w) in pages.iter().enumerate() {
            let first = k * PROFILE_PER_PAGE;
            let header = *w.first().ok_or_else(|| short_response(CMD, w))?;
            let n = (header & 0xff) as usize;
            if n != PROFILE_ENTRIES {
                return Err(bad_response(
                    CMD,
                    format!(
                        "the firmware has {n} profile entries, this driver knows {PROFILE_ENTRIES} \
                         (firmware and driver versions differ)"
                    ),
                ));
            }
            if first == 0 {
                empty_step_cycles = header >> 16;
                steps_timed = header >> 8 & 1 != 0;
            }
            let expect = PROFILE_PER_PAGE.min(n.saturating_sub(first));
            if w.len() != 1 + 3 * expect {
                return Err(bad_response(
                    CMD,
                    format!(
                        "{} data words from entry {first}, expected {}",
                        w.len(),
                        1 + 3 * expect
                    ),
                ));
            }
            for (i, e) in w[1..].chunks_exact(3).enumerate() {
                let index = first + i;
                entries.push(ProfileEntry {
                    name: PROFILE_NAMES[index],
                    group: if index < PROFILE_HANDLERS {
                        ProfileGroup::Handler
                    } else {
                        ProfileGroup::Step
                    },
                    cycles: u64::from(e[1]) << 32 | u64::from(e[0]),
                    count: e[2],
                });
            }
        }
        if entries.len() != PROFILE_ENTRIES {
            return Err(bad_response(
                CMD,
                format!("{} of {PROFILE_ENTRIES} entries read", entries.len()),
            ));
        }
        Ok(Self {
            empty_step_cycles,
            steps_timed,
            entries,
        })
    }
}

impl fmt::Display for FlowProfile {
    /// A table: name, runs, cycles, mean cycles per run.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<16} {:>10} {:>16} {:>10}",
            "entry", "runs", "cycles", "mean"
        )?;
        for e in &self.entries {
            if e.group == ProfileGroup::Step && e.name == PROFILE_NAMES[PROFILE_HANDLERS] {
                writeln!(f, "-- steps (inside the handlers above) --")?;
            }
            let mean = e
                .mean_cycles()
                .map_or("-".to_string(), |m| format!("{m:.0}"));
            writeln!(
                f,
                "{:<16} {:>10} {:>16} {:>10}",
                e.name, e.count, e.cycles, mean
            )?;
        }
        write!(
            f,
            "empty step: {} cycles; steps {}",
            self.empty_step_cycles,
            if self.steps_timed {
                "timed"
            } else {
                "not timed"
            }
        )
    }
}

impl FlowManager<'_> {
    /// FLOW_PROFILE: where the flow manager's soft-core cycles went, per handler kind and
    /// per step (docs/flowmgr.md, "Cycle profile"). Reads every page; the first request
    /// takes the snapshot the others read. [`FlowManager::zero_counters`] clears it.
    pub fn flow_profile(&mut self) -> Result<FlowProfile, DriverError> {
        let pages = PROFILE_ENTRIES.div_ceil(PROFILE_PER_PAGE);
        let mut words = Vec::with_capacity(pages);
        for k in 0..pages {
            words.push(self.call_ok(cmd::FLOW_PROFILE, &[(k * PROFILE_PER_PAGE) as u32], 1)?);
        }
        FlowProfile::from_pages(&words)
    }

    /// FLOW_PROFILE word 1: turns the firmware's step timing on or off (off after boot).
    /// Handler kinds are always counted; timing the steps costs about 200 soft-core cycles
    /// per step (docs/flowmgr.md, "Cycle profile"), so FLOW_STATS cycle sums measured with it
    /// on include that (+3.6 % setup cycles on the simulated card). The entries are kept.
    pub fn flow_profile_steps(&mut self, on: bool) -> Result<(), DriverError> {
        self.call_ok(
            cmd::FLOW_PROFILE,
            &[PROFILE_ENTRIES as u32, u32::from(on)],
            1,
        )
        .map(drop)
    }
}
