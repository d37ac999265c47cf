//! Waiting for a state or a count with a deadline, instead of sleeping.
//!
//! A test that sleeps and then assumes that something has happened is slow where the
//! machine is fast and fails where it is slow. [`until`] polls for the state itself and,
//! when the deadline passes first, fails naming what did not happen.
//!
//! How long a wait may take often depends on the simulated card, which runs at 0.1-0.3 M
//! cycles/s and slower still when another simulation shares the machine. Such deadlines are
//! written for a card at [`REFERENCE_HZ`] and stretched with the card's measured speed:
//! `CardSpeed::of(card).scale(deadline)` ([`CardSpeed`]).

use splicenic_driver::Card;
use std::fmt;
use std::time::{Duration, Instant};

/// The first pause between two polls of [`until`]; each pause doubles up to [`MAX_POLL`].
const FIRST_POLL: Duration = Duration::from_millis(10);
/// The longest pause between two polls (a poll may be a mailbox command the firmware has
/// to answer between the frames it handles).
const MAX_POLL: Duration = Duration::from_millis(200);

/// Poll `f` until it returns `Some`, and return that value. Panics with "`what` did not
/// happen within `deadline`" when the deadline passes first.
pub fn until<T>(what: &str, deadline: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    until_seen(what, deadline, || f().ok_or(""))
}

/// Like [`until`], with `f` saying what it saw instead (`Err`) while the state is not there
/// yet: the panic message ends with the last of those.
pub fn until_seen<T, S: fmt::Display>(
    what: &str,
    deadline: Duration,
    mut f: impl FnMut() -> Result<T, S>,
) -> T {
    let t0 = Instant::now();
    let mut pause = FIRST_POLL;
    loop {
        let seen = match f() {
            Ok(v) => return v,
            Err(seen) => seen,
        };
        if t0.elapsed() >= deadline {
            let seen = seen.to_string();
            if seen.is_empty() {
                panic!("{what} did not happen within {deadline:?}");
            }
            panic!("{what} did not happen within {deadline:?}; last seen: {seen}");
        }
        std::thread::sleep(pause.min(deadline.saturating_sub(t0.elapsed())));
        pause = (pause * 2).min(MAX_POLL);
    }
}

/// The simulated card's speed, in core cycles per wall-clock second, that the card-paced
/// deadlines of the tests are written for.
pub const REFERENCE_HZ: f64 = 200_000.0;

/// How far the card's cycle counter must advance for [`CardSpeed::measure`] (0.1 s of wall
/// time at [`REFERENCE_HZ`]).
const MEASURE_CYCLES: u64 = 20_000;

/// A card's measured speed: its core cycles per wall-clock second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardSpeed {
    pub hz: f64,
}

impl CardSpeed {
    /// Measure the speed with `cycles`, a reading of the card's cycle counter: the wall
    /// time the counter takes to advance [`MEASURE_CYCLES`]. The card must run by itself
    /// (a real card, or a simulated one served on a socket); panics when its counter stops.
    pub fn measure(mut cycles: impl FnMut() -> u64) -> CardSpeed {
        let (c0, t0) = (cycles(), Instant::now());
        let c1 = until_seen(
            &format!("the card's clock advancing {MEASURE_CYCLES} cycles"),
            Duration::from_secs(60),
            || {
                let c = cycles();
                if c.wrapping_sub(c0) >= MEASURE_CYCLES {
                    Ok(c)
                } else {
                    Err(format!("{} cycles", c.wrapping_sub(c0)))
                }
            },
        );
        CardSpeed {
            hz: c1.wrapping_sub(c0) as f64 / t0.elapsed().as_secs_f64(),
        }
    }

    /// The speed of `card`, measured with its free-running timer ([`Card::timer`]).
    pub fn of(card: &mut Card) -> CardSpeed {
        CardSpeed::measure(|| {
            card.timer()
                .unwrap_or_else(|e| panic!("reading the card's timer: {e}"))
        })
    }

    /// `deadline`, written for a card at [`REFERENCE_HZ`], stretched by how much slower
    /// this card runs; never shortened (a real card is far faster, and the deadline still
    /// covers the peers' own work).
    pub fn scale(self, deadline: Duration) -> Duration {
        deadline.mul_f64((REFERENCE_HZ / self.hz).max(1.0))
    }
}

impl fmt::Display for CardSpeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3} M cycles/s", self.hz / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn until_returns_the_value_once_there() {
        let mut n = 0;
        let v = until("three polls", Duration::from_secs(10), || {
            n += 1;
            (n == 3).then_some(n * 10)
        });
        assert_eq!(v, 30);
    }

    #[test]
    fn until_seen_panics_naming_what_and_the_last_state() {
        let e = std::panic::catch_unwind(|| {
            until_seen("the impossible", Duration::from_millis(30), || {
                Err::<(), _>("still nothing")
            })
        })
        .unwrap_err();
        let msg = e.downcast_ref::<String>().expect("a formatted panic");
        assert!(
            msg.starts_with("the impossible did not happen within 30ms")
                && msg.ends_with("last seen: still nothing"),
            "{msg}"
        );
    }

    #[test]
    fn speed_is_measured_and_scales_only_for_a_slower_card() {
        // A counter at 1 M cycles/s of wall time.
        let t0 = Instant::now();
        let s = CardSpeed::measure(|| t0.elapsed().as_micros() as u64);
        assert!(s.hz > 0.5e6 && s.hz < 1.5e6, "{s}");
        assert_eq!(s.scale(Duration::from_secs(10)), Duration::from_secs(10));
        let slow = CardSpeed {
            hz: REFERENCE_HZ / 4.0,
        };
        assert_eq!(slow.scale(Duration::from_secs(10)), Duration::from_secs(40));
    }
}
