//! `nicctl monitor`: keepalived-style health checking of the card's real servers, with
//! dynamic-feedback weights (seed 004).
//!
//! A [`Monitor`] owns a set of [`MonitoredPool`]s and a [`Control`] (what it may do to
//! the card). It runs each server's checkers (HTTP_GET, TCP_CHECK, MISC_CHECK, see
//! [`check`]) on their own schedule on bounded worker threads, keeps keepalived's state
//! machine per server (retries, alpha, inhibit_on_failure, quorum and sorry server) and,
//! for pools with `dynamic_feedback`, recomputes weights every interval ([`feedback`]).
//! Everything it does is reported as an [`Event`] (kept for the caller and printed to
//! stderr in keepalived's wording). See docs/monitor.md.

pub mod check;
pub mod feedback;
mod process;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddrV4;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use splicenic_driver::config::model::{Checker, LoadInput, Pool, Server};

pub use check::{run_checker, CheckOutcome};
pub use feedback::{feedback_round, Sample};

/// Shortest delay between two checks (a `delay_loop` of 0 would spin).
pub const MIN_DELAY: Duration = Duration::from_millis(10);

/// How often [`Monitor::run_until`] looks at its stop flag while idle.
const STOP_POLL: Duration = Duration::from_millis(50);

/// What the monitor does to the card. The real implementation drives the mailbox
/// (SERVER_SET / SERVER_DEL / SERVER_STATS); tests record the calls.
///
/// Errors are reported as [`EventKind::ControlFailed`] events and the operation is tried
/// again after the server's next check; they never stop the monitor.
pub trait Control {
    /// The error of a card operation.
    type Error: std::error::Error;

    /// Puts real server `rs` (card-wide index) into pool `pool` with `weight`
    /// (`server` gives its address, MAC and thresholds; its `weight` is the configured
    /// one, which may differ from `weight`).
    fn add_server(
        &mut self,
        pool: u8,
        rs: u8,
        server: &Server,
        weight: u32,
    ) -> Result<(), Self::Error>;

    /// Takes real server `rs` out of pool `pool` (established connections finish).
    fn remove_server(&mut self, pool: u8, rs: u8) -> Result<(), Self::Error>;

    /// Changes the weight of real server `rs`, which is in pool `pool`.
    fn set_weight(&mut self, pool: u8, rs: u8, weight: u32) -> Result<(), Self::Error>;

    /// Active connections of real server `rs` (IPVS `activeconns`).
    fn active_connections(&mut self, pool: u8, rs: u8) -> Result<u32, Self::Error>;
}

/// A real server to monitor: its configuration and where it sits on the card.
#[derive(Debug, Clone, PartialEq)]
pub struct MonitoredServer {
    /// Card pool index (the same as its [`MonitoredPool::index`]).
    pub pool: u8,
    /// Card-wide real-server index.
    pub rs: u8,
    /// Address, configured weight, `inhibit_on_failure` and checkers.
    pub server: Server,
}

/// A pool to monitor.
#[derive(Debug, Clone, PartialEq)]
pub struct MonitoredPool {
    /// Card pool index.
    pub index: u8,
    /// Its configuration: name, `delay_loop`, `alpha`, `quorum`, `hysteresis`,
    /// `sorry_server` and `dynamic_feedback`. Its `servers` list is not read: the
    /// monitored servers are [`MonitoredPool::servers`].
    pub pool: Pool,
    /// Its real servers.
    pub servers: Vec<MonitoredServer>,
    /// The card-wide index to put the sorry server at (required when the pool has a
    /// `sorry_server`; must not be used by any real server).
    pub sorry_rs: Option<u8>,
}

impl MonitoredPool {
    /// Builds a monitored pool from a configured one, giving its servers (in the order of
    /// `pool.servers`) the card indices `rs`.
    pub fn new(
        index: u8,
        mut pool: Pool,
        rs: &[u8],
        sorry_rs: Option<u8>,
    ) -> Result<Self, MonitorError> {
        if rs.len() != pool.servers.len() {
            return Err(MonitorError::IndexCount {
                pool: pool.name.clone(),
                servers: pool.servers.len(),
                indices: rs.len(),
            });
        }
        let servers = std::mem::take(&mut pool.servers)
            .into_iter()
            .zip(rs)
            .map(|(server, &rs)| MonitoredServer {
                pool: index,
                rs,
                server,
            })
            .collect();
        Ok(Self {
            index,
            pool,
            servers,
            sorry_rs,
        })
    }
}

/// Settings of the monitor itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The servers are already on the card with their configured weights (the
    /// configuration was applied before the monitor started). When false the monitor
    /// assumes none is and adds those that start UP.
    pub servers_loaded: bool,
    /// At most this many checks (and feedback command rounds) run at once.
    pub max_parallel: usize,
    /// Print every event to stderr.
    pub log_stderr: bool,
    /// Keep at most this many events (the oldest are dropped).
    pub max_events: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            servers_loaded: true,
            max_parallel: 32,
            log_stderr: true,
            max_events: 10_000,
        }
    }
}

/// A monitor input that does not add up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MonitorError {
    /// [`MonitoredPool::new`] got a different number of indices than servers.
    #[error("pool {pool}: {servers} real servers but {indices} card indices")]
    IndexCount {
        pool: String,
        servers: usize,
        indices: usize,
    },
    /// Two pools with the same card index.
    #[error("pool index {index} is used by pools {first} and {second}")]
    DuplicatePool {
        index: u8,
        first: String,
        second: String,
    },
    /// A server whose `pool` is not the index of the pool listing it.
    #[error("real server {addr} (rs {rs}) says pool {says} but is listed in pool {pool} (index {index})")]
    PoolMismatch {
        addr: SocketAddrV4,
        rs: u8,
        says: u8,
        pool: String,
        index: u8,
    },
    /// A card-wide real-server index used twice (also by a sorry server).
    #[error("real-server index {rs} is used twice ({first} and {second})")]
    DuplicateRs {
        rs: u8,
        first: String,
        second: String,
    },
    /// A pool with a `sorry_server` but no index for it.
    #[error("pool {pool} has a sorry_server but no card index was given for it")]
    MissingSorryIndex { pool: String },
}

/// Something the monitor saw or did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Card pool index.
    pub pool: u8,
    /// Card-wide real-server index (`None` for pool events).
    pub rs: Option<u8>,
    /// What happened.
    pub kind: EventKind,
    /// The log line (keepalived's wording).
    pub message: String,
}

/// The kinds of [`Event`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// A checker passed after having been down (or before its first pass under `alpha`).
    CheckPassed,
    /// A checker failed while up: `retrying` while retries are left, else it is now down.
    CheckFailed { retrying: bool },
    /// The server was put on the card.
    ServerAdded { weight: u32 },
    /// The server was taken off the card.
    ServerRemoved,
    /// The server's weight on the card changed.
    WeightChanged { from: u32, to: u32 },
    /// The pool's live weight fell below its quorum.
    QuorumLost,
    /// The pool's live weight reached its quorum again.
    QuorumGained,
    /// The sorry server was put on the card.
    SorryAdded,
    /// The sorry server was taken off the card.
    SorryRemoved,
    /// A card operation failed (tried again later).
    ControlFailed,
    /// Something did not work but the monitor carries on (a load command failed, ...).
    Warning,
}

/// A server's current state, for display and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerStatus {
    pub pool: u8,
    pub rs: u8,
    pub addr: SocketAddrV4,
    /// Every checker passes.
    pub up: bool,
    /// Its current weight (configured, or as set by `misc_dynamic` or the feedback).
    pub weight: u32,
    /// The monitor believes it is on the card ...
    pub on_card: bool,
    /// ... with this weight.
    pub card_weight: u32,
}

/// A pool's current state, for display and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolStatus {
    pub index: u8,
    pub name: String,
    /// Its live weight is at its quorum.
    pub quorum_up: bool,
    /// Its sorry server is on the card.
    pub sorry_on_card: bool,
}

/// One checker of a server and its keepalived state.
#[derive(Debug)]
struct CheckerState {
    checker: Checker,
    delay_loop: Duration,
    retry: u32,
    delay_before_retry: Duration,
    /// Passing (keepalived `is_up`).
    up: bool,
    /// Failed attempts so far in the current retry run.
    retries_done: u32,
    next_at: Instant,
    running: bool,
    last: Option<CheckOutcome>,
    /// The last weight a `misc_dynamic` check asked for.
    dynamic_weight: Option<u32>,
}

#[derive(Debug)]
struct ServerState {
    /// Index into [`Monitor::pools`].
    pool: usize,
    rs: u8,
    server: Server,
    checkers: Vec<CheckerState>,
    up: bool,
    /// Current weight.
    weight: u32,
    /// The feedback's DEFAULT_WEIGHT: the configured weight, or the last `misc_dynamic`
    /// weight.
    base_weight: u32,
    on_card: bool,
    card_weight: u32,
}

#[derive(Debug)]
struct PoolState {
    index: u8,
    pool: Pool,
    /// Indices into [`Monitor::servers`].
    servers: Vec<usize>,
    /// Sorry server and its card index.
    sorry: Option<(u8, Server)>,
    sorry_on_card: bool,
    quorum_up: bool,
    feedback_next: Instant,
    feedback_running: bool,
}

/// A finished job of a worker thread.
enum JobResult {
    Check {
        server: usize,
        checker: usize,
        outcome: CheckOutcome,
    },
    /// The `load_command` values of a feedback round: per server, one per command input.
    Loads {
        pool: usize,
        loads: Vec<(usize, Vec<Result<f64, String>>)>,
    },
}

/// The health-check and feedback engine. See the module documentation.
pub struct Monitor<C: Control> {
    control: C,
    options: Options,
    pools: Vec<PoolState>,
    servers: Vec<ServerState>,
    events: Vec<Event>,
    started: bool,
    /// Jobs running on worker threads.
    running: usize,
    tx: Sender<JobResult>,
    rx: Receiver<JobResult>,
    /// Results received while waiting, applied at the next step.
    stash: VecDeque<JobResult>,
}

impl<C: Control> Monitor<C> {
    /// Checks the inputs and builds the monitor. Nothing is done to the card and no check
    /// runs before the first [`Monitor::step`] / [`Monitor::run_until`].
    pub fn new(
        pools: Vec<MonitoredPool>,
        control: C,
        options: Options,
    ) -> Result<Self, MonitorError> {
        let now = Instant::now();
        let mut pool_names: HashMap<u8, String> = HashMap::new();
        let mut rs_users: HashMap<u8, String> = HashMap::new();
        let mut claim = |rs: u8, who: String| match rs_users.get(&rs) {
            Some(first) => Err(MonitorError::DuplicateRs {
                rs,
                first: first.clone(),
                second: who,
            }),
            None => {
                rs_users.insert(rs, who);
                Ok(())
            }
        };
        let mut states = Vec::new();
        let mut servers = Vec::new();
        for mp in pools {
            if let Some(first) = pool_names.insert(mp.index, mp.pool.name.clone()) {
                return Err(MonitorError::DuplicatePool {
                    index: mp.index,
                    first,
                    second: mp.pool.name,
                });
            }
            let pool_idx = states.len();
            let alpha = mp.pool.alpha;
            let mut members = Vec::new();
            for ms in mp.servers {
                if ms.pool != mp.index {
                    return Err(MonitorError::PoolMismatch {
                        addr: ms.server.addr,
                        rs: ms.rs,
                        says: ms.pool,
                        pool: mp.pool.name.clone(),
                        index: mp.index,
                    });
                }
                claim(ms.rs, format!("real server {}", ms.server.addr))?;
                let checkers: Vec<CheckerState> = ms
                    .server
                    .checkers
                    .iter()
                    .map(|c| checker_state(c, mp.pool.delay_loop, alpha, now))
                    .collect();
                members.push(servers.len());
                servers.push(ServerState {
                    pool: pool_idx,
                    rs: ms.rs,
                    up: checkers.iter().all(|c| c.up),
                    checkers,
                    weight: ms.server.weight,
                    base_weight: ms.server.weight,
                    on_card: options.servers_loaded,
                    card_weight: ms.server.weight,
                    server: ms.server,
                });
            }
            let sorry = match (&mp.pool.sorry_server, mp.sorry_rs) {
                (None, _) => None,
                (Some(_), None) => {
                    return Err(MonitorError::MissingSorryIndex {
                        pool: mp.pool.name.clone(),
                    })
                }
                (Some((addr, loc)), Some(rs)) => {
                    claim(rs, format!("sorry server {addr} of pool {}", mp.pool.name))?;
                    Some((
                        rs,
                        Server {
                            loc: loc.clone(),
                            addr: *addr,
                            weight: 1,
                            mac: None,
                            inhibit_on_failure: false,
                            uthreshold: 0,
                            lthreshold: 0,
                            checkers: Vec::new(),
                        },
                    ))
                }
            };
            let feedback_next = now
                + mp.pool
                    .feedback
                    .as_ref()
                    .map_or(Duration::ZERO, |f| f.interval.max(MIN_DELAY));
            states.push(PoolState {
                index: mp.index,
                pool: mp.pool,
                servers: members,
                sorry,
                sorry_on_card: false,
                quorum_up: true,
                feedback_next,
                feedback_running: false,
            });
        }
        let (tx, rx) = mpsc::channel();
        Ok(Self {
            control,
            options,
            pools: states,
            servers,
            events: Vec::new(),
            started: false,
            running: 0,
            tx,
            rx,
            stash: VecDeque::new(),
        })
    }

    /// The card's configuration was loaded again from the file (after a firmware restart):
    /// every real server is on the card with its configured weight and no sorry server is.
    /// The next [`Monitor::step`] brings the card back to the monitor's view: servers that
    /// are down out (or at weight 0), dynamic weights, sorry servers of pools without quorum.
    pub fn card_reloaded(&mut self) {
        for s in &mut self.servers {
            s.on_card = true;
            s.card_weight = s.server.weight;
        }
        for p in &mut self.pools {
            p.sorry_on_card = false;
        }
        self.started = false;
    }

    /// The events so far (oldest first; at most [`Options::max_events`]).
    #[cfg(test)]
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the events so far.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The card control.
    #[cfg(test)]
    pub fn control(&self) -> &C {
        &self.control
    }

    /// The card control, mutable.
    #[cfg(test)]
    pub fn control_mut(&mut self) -> &mut C {
        &mut self.control
    }

    /// Every server's state, in input order.
    pub fn servers(&self) -> Vec<ServerStatus> {
        self.servers
            .iter()
            .map(|s| ServerStatus {
                pool: self.pools[s.pool].index,
                rs: s.rs,
                addr: s.server.addr,
                up: s.up,
                weight: s.weight,
                on_card: s.on_card,
                card_weight: s.card_weight,
            })
            .collect()
    }

    /// Every pool's state, in input order.
    pub fn pools(&self) -> Vec<PoolStatus> {
        self.pools
            .iter()
            .map(|p| PoolStatus {
                index: p.index,
                name: p.pool.name.clone(),
                quorum_up: p.quorum_up,
                sorry_on_card: p.sorry_on_card,
            })
            .collect()
    }

    /// Runs until `stop` is set or `deadline` passes. Checks still running then finish
    /// on their own; their results are applied by the next call.
    pub fn run_until(&mut self, stop: &AtomicBool, deadline: Option<Instant>) {
        loop {
            let now = Instant::now();
            if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| now >= d) {
                return;
            }
            let next = self.step(now);
            let now = Instant::now();
            let mut wait = next.saturating_duration_since(now).min(STOP_POLL);
            if let Some(d) = deadline {
                wait = wait.min(d.saturating_duration_since(now));
            }
            if wait.is_zero() && self.running >= self.max_parallel() {
                // Due checks wait for a free worker: sleep until a result comes.
                wait = STOP_POLL;
            }
            if wait.is_zero() {
                continue;
            }
            match self.rx.recv_timeout(wait) {
                Ok(result) => self.stash.push_back(result),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {}
            }
        }
    }

    /// One round of the scheduler at time `now`: the first call syncs the card with the
    /// initial states; then finished checks are applied, due feedback rounds and checks
    /// are started. Returns when something is due next (results of running checks may
    /// arrive earlier).
    pub fn step(&mut self, now: Instant) -> Instant {
        if !self.started {
            self.started = true;
            for s in 0..self.servers.len() {
                self.reconcile(s);
            }
            for p in 0..self.pools.len() {
                self.update_quorum(p);
            }
        }
        while let Ok(result) = self.rx.try_recv() {
            self.stash.push_back(result);
        }
        while let Some(result) = self.stash.pop_front() {
            self.running = self.running.saturating_sub(1);
            match result {
                JobResult::Check {
                    server,
                    checker,
                    outcome,
                } => self.apply_check(server, checker, outcome, now),
                JobResult::Loads { pool, loads } => {
                    self.pools[pool].feedback_running = false;
                    self.apply_feedback(pool, &loads);
                }
            }
        }
        self.start_feedback(now);
        self.start_checks(now);
        self.next_due(now)
    }

    fn max_parallel(&self) -> usize {
        self.options.max_parallel.max(1)
    }

    /// The earliest time a check or feedback round is due.
    fn next_due(&self, now: Instant) -> Instant {
        let checks = self
            .servers
            .iter()
            .flat_map(|s| &s.checkers)
            .filter(|c| !c.running)
            .map(|c| c.next_at);
        let feedback = self
            .pools
            .iter()
            .filter(|p| p.pool.feedback.is_some() && !p.feedback_running)
            .map(|p| p.feedback_next);
        checks
            .chain(feedback)
            .min()
            .unwrap_or(now + Duration::from_secs(1))
    }

    /// Starts the due checks (earliest first) while workers are free.
    fn start_checks(&mut self, now: Instant) {
        let mut due: Vec<(Instant, usize, usize)> = self
            .servers
            .iter()
            .enumerate()
            .flat_map(|(s, server)| {
                server
                    .checkers
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| !c.running && c.next_at <= now)
                    .map(move |(c, ck)| (ck.next_at, s, c))
            })
            .collect();
        due.sort();
        for (_, s, c) in due {
            if self.running >= self.max_parallel() {
                break;
            }
            let server = &self.servers[s];
            let ck = &server.checkers[c];
            let checker = ck.checker.clone();
            let addr = server.server.addr;
            let delay_loop = ck.delay_loop;
            let tx = self.tx.clone();
            let spawned = thread::Builder::new()
                .name(format!("check-rs{}", server.rs))
                .spawn(move || {
                    let outcome =
                        catch_unwind(AssertUnwindSafe(|| run_checker(&checker, addr, delay_loop)))
                            .unwrap_or_else(|_| CheckOutcome {
                                ok: false,
                                weight: None,
                                response_time: Duration::ZERO,
                                detail: "checker panicked".into(),
                            });
                    let _ = tx.send(JobResult::Check {
                        server: s,
                        checker: c,
                        outcome,
                    });
                });
            match spawned {
                Ok(_) => {
                    self.running += 1;
                    self.servers[s].checkers[c].running = true;
                }
                Err(e) => {
                    let retry_at = now + self.servers[s].checkers[c].delay_before_retry;
                    self.servers[s].checkers[c].next_at = retry_at;
                    let pool = self.pools[self.servers[s].pool].index;
                    let rs = self.servers[s].rs;
                    self.emit(
                        pool,
                        Some(rs),
                        EventKind::Warning,
                        format!("Cannot start a check thread: {e}"),
                    );
                }
            }
        }
    }

    /// Applies one check result to the checker's and the server's state.
    fn apply_check(&mut self, s: usize, c: usize, outcome: CheckOutcome, now: Instant) {
        let pool_idx = self.servers[s].pool;
        let pool = self.pools[pool_idx].index;
        let vs = vs_name(&self.pools[pool_idx].pool);
        let rs = self.servers[s].rs;
        let addr = self.servers[s].server.addr;
        let ck = &mut self.servers[s].checkers[c];
        ck.running = false;
        let svc = svc(checker_target(&ck.checker, addr));
        let mut event = None;
        let mut new_dynamic = None;
        if outcome.ok {
            ck.retries_done = 0;
            ck.next_at = now + ck.delay_loop;
            if !ck.up {
                ck.up = true;
                let message = match &ck.checker {
                    Checker::Tcp(_) => format!("TCP connection to {svc} success."),
                    Checker::Http(_) => format!("Remote Web server {svc} succeed on service."),
                    Checker::Misc(m) => {
                        format!("Misc check for [{svc} VS {vs}] by [{}] succeeded.", m.path)
                    }
                };
                event = Some((EventKind::CheckPassed, message));
            }
            if let Some(w) = outcome.weight {
                if ck.dynamic_weight != Some(w) {
                    ck.dynamic_weight = Some(w);
                    new_dynamic = Some(w);
                }
            }
        } else if ck.up && ck.retries_done < ck.retry {
            ck.retries_done += 1;
            ck.next_at = now + ck.delay_before_retry;
            let message = format!(
                "{} on service {svc} failed: {}; retry {} of {}.",
                checker_tag(&ck.checker),
                outcome.detail,
                ck.retries_done,
                ck.retry
            );
            event = Some((EventKind::CheckFailed { retrying: true }, message));
        } else {
            ck.next_at = now + ck.delay_loop;
            if ck.up {
                ck.up = false;
                let message = format!(
                    "{} on service {svc} failed after {} retries: {}.",
                    checker_tag(&ck.checker),
                    ck.retries_done,
                    outcome.detail
                );
                ck.retries_done = 0;
                event = Some((EventKind::CheckFailed { retrying: false }, message));
            }
        }
        ck.last = Some(outcome);
        if let Some((kind, message)) = event {
            self.emit(pool, Some(rs), kind, message);
        }
        let server = &mut self.servers[s];
        if let Some(w) = new_dynamic {
            server.base_weight = w;
            server.weight = w;
        }
        server.up = server.checkers.iter().all(|c| c.up);
        self.reconcile(s);
        self.update_quorum(pool_idx);
    }

    /// Brings the card in line with the server's state: UP = on the card with its
    /// weight; DOWN = off the card, or weight 0 with `inhibit_on_failure`.
    fn reconcile(&mut self, s: usize) {
        let server = &self.servers[s];
        let pool = &self.pools[server.pool];
        let (index, vs) = (pool.index, vs_name(&pool.pool));
        let (rs, svc) = (server.rs, svc(server.server.addr));
        let present = server.up || server.server.inhibit_on_failure;
        let weight = if server.up { server.weight } else { 0 };
        if !server.on_card && present {
            let message = format!("Adding service {svc} to VS {vs}");
            self.emit(index, Some(rs), EventKind::ServerAdded { weight }, message);
            let server = &self.servers[s];
            match self.control.add_server(index, rs, &server.server, weight) {
                Ok(()) => {
                    let server = &mut self.servers[s];
                    server.on_card = true;
                    server.card_weight = weight;
                }
                Err(e) => self.control_failed(index, Some(rs), "add", &svc, &e),
            }
        } else if server.on_card && !present {
            let message = format!("Removing service {svc} from VS {vs}");
            self.emit(index, Some(rs), EventKind::ServerRemoved, message);
            match self.control.remove_server(index, rs) {
                Ok(()) => self.servers[s].on_card = false,
                Err(e) => self.control_failed(index, Some(rs), "remove", &svc, &e),
            }
        } else if server.on_card && server.card_weight != weight {
            let from = server.card_weight;
            let message =
                format!("Changing weight from {from} to {weight} for real server {svc} of VS {vs}");
            self.emit(
                index,
                Some(rs),
                EventKind::WeightChanged { from, to: weight },
                message,
            );
            match self.control.set_weight(index, rs, weight) {
                Ok(()) => self.servers[s].card_weight = weight,
                Err(e) => self.control_failed(index, Some(rs), "set the weight of", &svc, &e),
            }
        }
    }

    /// keepalived's quorum: the summed weight of the UP servers must reach
    /// `quorum + hysteresis` to gain it and falls below `quorum - hysteresis` (or to 0) to
    /// lose it; without quorum the sorry server is on the card.
    fn update_quorum(&mut self, p: usize) {
        let pool = &self.pools[p];
        let live: u64 = pool
            .servers
            .iter()
            .map(|&s| &self.servers[s])
            .filter(|s| s.up)
            .map(|s| u64::from(s.weight))
            .sum();
        let quorum = i64::from(pool.pool.quorum);
        let hysteresis = i64::from(pool.pool.hysteresis);
        let live_i = i64::try_from(live).unwrap_or(i64::MAX);
        let (index, vs) = (pool.index, vs_name(&pool.pool));
        if pool.quorum_up && (live == 0 || live_i < quorum - hysteresis) {
            self.pools[p].quorum_up = false;
            let message = format!(
                "Lost quorum {quorum}-{hysteresis}={} > {live} for VS {vs}",
                quorum - hysteresis
            );
            self.emit(index, None, EventKind::QuorumLost, message);
        } else if !pool.quorum_up && live > 0 && live_i >= quorum + hysteresis {
            self.pools[p].quorum_up = true;
            let message = format!(
                "Gained quorum {quorum}+{hysteresis}={} <= {live} for VS {vs}",
                quorum + hysteresis
            );
            self.emit(index, None, EventKind::QuorumGained, message);
        }
        let pool = &self.pools[p];
        let Some((rs, sorry)) = pool.sorry.clone() else {
            return;
        };
        let svc = svc(sorry.addr);
        if !pool.quorum_up && !pool.sorry_on_card {
            let message = format!("Adding sorry server {svc} to VS {vs}");
            self.emit(index, Some(rs), EventKind::SorryAdded, message);
            match self.control.add_server(index, rs, &sorry, sorry.weight) {
                Ok(()) => self.pools[p].sorry_on_card = true,
                Err(e) => self.control_failed(index, Some(rs), "add sorry server", &svc, &e),
            }
        } else if pool.quorum_up && pool.sorry_on_card {
            let message = format!("Removing sorry server {svc} from VS {vs}");
            self.emit(index, Some(rs), EventKind::SorryRemoved, message);
            match self.control.remove_server(index, rs) {
                Ok(()) => self.pools[p].sorry_on_card = false,
                Err(e) => self.control_failed(index, Some(rs), "remove sorry server", &svc, &e),
            }
        }
    }

    /// Starts the due feedback rounds: pools with `load_command` inputs run their
    /// commands on a worker thread; the others are computed at once.
    fn start_feedback(&mut self, now: Instant) {
        for p in 0..self.pools.len() {
            let pool = &self.pools[p];
            let Some(fb) = &pool.pool.feedback else {
                continue;
            };
            if pool.feedback_running || pool.feedback_next > now {
                continue;
            }
            let interval = fb.interval.max(MIN_DELAY);
            let commands: Vec<String> = fb
                .inputs
                .iter()
                .filter_map(|(input, _)| match input {
                    LoadInput::Command(cmd) => Some(cmd.clone()),
                    _ => None,
                })
                .collect();
            if commands.is_empty() {
                self.pools[p].feedback_next = now + interval;
                self.apply_feedback(p, &[]);
                continue;
            }
            if self.running >= self.max_parallel() {
                return;
            }
            let targets: Vec<(usize, SocketAddrV4)> = pool
                .servers
                .iter()
                .filter(|&&s| self.servers[s].up)
                .map(|&s| (s, self.servers[s].server.addr))
                .collect();
            let timeout = interval.min(feedback::MAX_COMMAND_TIME);
            let tx = self.tx.clone();
            let spawned = thread::Builder::new()
                .name(format!("feedback-pool{}", pool.index))
                .spawn(move || {
                    let loads = catch_unwind(AssertUnwindSafe(|| {
                        run_load_commands(&targets, &commands, timeout)
                    }))
                    .unwrap_or_default();
                    let _ = tx.send(JobResult::Loads { pool: p, loads });
                });
            self.pools[p].feedback_next = now + interval;
            match spawned {
                Ok(_) => {
                    self.running += 1;
                    self.pools[p].feedback_running = true;
                }
                Err(e) => {
                    let index = self.pools[p].index;
                    let message = format!("Cannot start the dynamic feedback thread: {e}");
                    self.emit(index, None, EventKind::Warning, message);
                }
            }
        }
    }

    /// Computes a feedback round of pool `p` with the `load_command` values `loads` and
    /// applies the weights that changed enough.
    fn apply_feedback(&mut self, p: usize, loads: &[(usize, Vec<Result<f64, String>>)]) {
        let Some(fb) = self.pools[p].pool.feedback.clone() else {
            return;
        };
        let (index, vs) = (self.pools[p].index, vs_name(&self.pools[p].pool));
        let uses_connections = fb
            .inputs
            .iter()
            .any(|(i, _)| matches!(i, LoadInput::Connections));
        let command_loads: HashMap<usize, &Vec<Result<f64, String>>> =
            loads.iter().map(|(s, l)| (*s, l)).collect();
        let members: Vec<usize> = self.pools[p]
            .servers
            .iter()
            .copied()
            .filter(|&s| self.servers[s].up && self.servers[s].on_card)
            .collect();
        let mut samples = Vec::with_capacity(members.len());
        for &s in &members {
            let (rs, addr) = (self.servers[s].rs, self.servers[s].server.addr);
            let connections = if uses_connections {
                match self.control.active_connections(index, rs) {
                    Ok(n) => Some(n),
                    Err(e) => {
                        let message = format!(
                            "Dynamic feedback: cannot read the connections of {} of VS {vs}: {e}; input skipped",
                            svc(addr)
                        );
                        self.emit(index, Some(rs), EventKind::Warning, message);
                        None
                    }
                }
            } else {
                None
            };
            let server = &self.servers[s];
            let timed: Vec<Duration> = server
                .checkers
                .iter()
                .filter_map(|c| c.last.as_ref().map(|o| o.response_time))
                .collect();
            let response_time = (!timed.is_empty()).then(|| timed.iter().sum());
            let (current, configured) = (server.weight, server.base_weight);
            let mut commands = Vec::new();
            let mut warnings = Vec::new();
            if let Some(values) = command_loads.get(&s) {
                for value in values.iter() {
                    match value {
                        Ok(v) => commands.push(Some(*v)),
                        Err(e) => {
                            warnings.push(format!(
                                "Dynamic feedback: {e} for {} of VS {vs}; input skipped",
                                svc(addr)
                            ));
                            commands.push(None);
                        }
                    }
                }
            }
            for message in warnings {
                self.emit(index, Some(rs), EventKind::Warning, message);
            }
            samples.push(Sample {
                current,
                configured,
                connections,
                response_time,
                commands,
            });
        }
        let weights = feedback_round(&fb, &samples);
        for (&s, new) in members.iter().zip(weights) {
            if let Some(w) = new {
                self.servers[s].weight = w;
                self.reconcile(s);
            }
        }
        self.update_quorum(p);
    }

    fn control_failed(
        &mut self,
        pool: u8,
        rs: Option<u8>,
        what: &str,
        svc: &str,
        error: &dyn std::error::Error,
    ) {
        let message = format!("Cannot {what} {svc} on the card: {error}");
        self.emit(pool, rs, EventKind::ControlFailed, message);
    }

    fn emit(&mut self, pool: u8, rs: Option<u8>, kind: EventKind, message: String) {
        if self.options.log_stderr {
            eprintln!("{message}");
        }
        let max = self.options.max_events.max(1);
        if self.events.len() >= max {
            let excess = self.events.len() + 1 - max;
            self.events.drain(..excess);
        }
        self.events.push(Event {
            pool,
            rs,
            kind,
            message,
        });
    }
}

/// The initial state of a checker.
fn checker_state(
    checker: &Checker,
    pool_delay: Duration,
    alpha: bool,
    now: Instant,
) -> CheckerState {
    let (delay_loop, retry, delay_before_retry) = match checker {
        Checker::Http(h) => (
            h.common.delay_loop.unwrap_or(pool_delay),
            h.common.retry,
            h.common.delay_before_retry,
        ),
        Checker::Tcp(t) => (
            t.common.delay_loop.unwrap_or(pool_delay),
            t.common.retry,
            t.common.delay_before_retry,
        ),
        Checker::Misc(m) => (pool_delay, m.retry, m.delay_before_retry),
    };
    CheckerState {
        checker: checker.clone(),
        delay_loop: delay_loop.max(MIN_DELAY),
        retry,
        delay_before_retry: delay_before_retry.max(MIN_DELAY),
        up: !alpha,
        retries_done: 0,
        next_at: now,
        running: false,
        last: None,
        dynamic_weight: None,
    }
}

/// Runs every `load_command` for every target server, the servers in parallel.
fn run_load_commands(
    targets: &[(usize, SocketAddrV4)],
    commands: &[String],
    timeout: Duration,
) -> Vec<(usize, Vec<Result<f64, String>>)> {
    thread::scope(|scope| {
        let handles: Vec<_> = targets
            .iter()
            .map(|&(s, addr)| {
                let run = move || {
                    commands
                        .iter()
                        .map(|cmd| {
                            feedback::run_load_command(cmd, addr, timeout)
                                .map_err(|e| e.to_string())
                        })
                        .collect::<Vec<_>>()
                };
                (s, thread::Builder::new().spawn_scoped(scope, run))
            })
            .collect();
        handles
            .into_iter()
            .map(|(s, handle)| {
                let values = match handle {
                    Ok(h) => h.join().unwrap_or_else(|_| {
                        vec![Err("load command panicked".into()); commands.len()]
                    }),
                    Err(e) => vec![Err(format!("cannot start a thread: {e}")); commands.len()],
                };
                (s, values)
            })
            .collect()
    })
}

/// Where a checker connects (MISC_CHECK: the server).
fn checker_target(checker: &Checker, server: SocketAddrV4) -> SocketAddrV4 {
    match checker {
        Checker::Http(h) => h.common.connect_to.unwrap_or(server),
        Checker::Tcp(t) => t.common.connect_to.unwrap_or(server),
        Checker::Misc(_) => server,
    }
}

/// keepalived's name of a checker in failure messages.
fn checker_tag(checker: &Checker) -> &'static str {
    match checker {
        Checker::Http(_) => "HTTP_CHECK",
        Checker::Tcp(_) => "TCP_CHECK",
        Checker::Misc(_) => "MISC_CHECK",
    }
}

/// keepalived's service notation `[IP]:tcp:PORT`.
fn svc(addr: SocketAddrV4) -> String {
    format!("[{}]:tcp:{}", addr.ip(), addr.port())
}

/// The virtual-service name in messages: `[pool NAME]`.
fn vs_name(pool: &Pool) -> String {
    format!("[pool {}]", pool.name)
}
