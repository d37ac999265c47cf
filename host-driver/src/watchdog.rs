//! Firmware watchdog: detects a hung soft core from the host and restarts it.
//!
//! The firmware increments `CTRL.HEARTBEAT` on every pass of its main loop. The watchdog
//! measures time with the card's own timer (`TIMER.COUNT`, which keeps counting while the
//! firmware hangs), so the same timeout means the same thing on a real card and on the
//! simulated one. A core that trapped or panicked is reported at once.
//!
//! Restarting ([`Firmware::restart`]) holds the core in reset, reloads the image and
//! releases it; the data path is not reset, so spliced flows keep being forwarded throughout.
//! The firmware then takes the flow table over from the data path (`Splicer::rebuild`):
//! spliced and closing flows are kept, connections that were still being set up are dropped.
//! Its configuration (services, pools, servers, timeouts) lives in the firmware and must be
//! sent again by the host after the restart.

use std::time::Duration;

use crate::card::Firmware;
use crate::card::{Card, CoreState, FwState};
use crate::error::DriverError;
use crate::firmware::{FirmwareImage, LoadReport};

/// What [`Watchdog::check`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    /// The heartbeat moved within the timeout.
    Alive,
    /// The heartbeat has not moved for `stalled_cycles` card cycles (at least the timeout).
    Hung { heartbeat: u32, stalled_cycles: u64 },
    /// The core trapped, or the firmware reported a panic.
    Crashed { core: CoreState, fw_state: FwState },
}

/// Heartbeat watchdog state for one card.
#[derive(Debug, Clone)]
pub struct Watchdog {
    timeout_cycles: u64,
    last_beat: Option<u32>,
    last_change: u64,
}

impl Watchdog {
    /// A watchdog that declares the firmware hung after `timeout` without a heartbeat
    /// (converted to card cycles with `ID.CLK_HZ`).
    pub fn new(card: &Card, timeout: Duration) -> Watchdog {
        let clk = u128::from(card.info().clk_hz.max(1));
        let cycles = timeout.as_nanos().saturating_mul(clk) / 1_000_000_000;
        Watchdog {
            timeout_cycles: u64::try_from(cycles).unwrap_or(u64::MAX).max(1),
            last_beat: None,
            last_change: 0,
        }
    }

    /// The timeout in card cycles.
    pub fn timeout_cycles(&self) -> u64 {
        self.timeout_cycles
    }

    /// Samples the heartbeat and the card timer.
    pub fn check(&mut self, card: &mut Card) -> Result<Health, DriverError> {
        let status = card.status()?;
        if status.core == CoreState::Trapped || status.fw_state == FwState::Panic {
            return Ok(Health::Crashed {
                core: status.core,
                fw_state: status.fw_state,
            });
        }
        let now = card.timer()?;
        if self.last_beat != Some(status.heartbeat) {
            self.last_beat = Some(status.heartbeat);
            self.last_change = now;
            return Ok(Health::Alive);
        }
        let stalled = now.wrapping_sub(self.last_change);
        if stalled >= self.timeout_cycles {
            Ok(Health::Hung {
                heartbeat: status.heartbeat,
                stalled_cycles: stalled,
            })
        } else {
            Ok(Health::Alive)
        }
    }

    /// Forgets the last sample (after a restart).
    pub fn reset(&mut self) {
        self.last_beat = None;
    }
}

impl Firmware<'_> {
    /// Restarts the firmware: core reset, image reloaded and verified, core released, READY
    /// awaited for at most `boot_timeout`. The data path keeps forwarding meanwhile (see the
    /// module documentation).
    pub fn restart(
        &mut self,
        image: &FirmwareImage,
        boot_timeout: Duration,
    ) -> Result<LoadReport, DriverError> {
        self.load_with_timeout(image, boot_timeout, |_, _| {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fakebar::FakeBar;
    use crate::regs;

    fn poke(card: &mut Card, off: u64, v: u32) {
        card.bar_mut().write32(off, v).unwrap();
    }

    #[test]
    fn heartbeat_stall_is_measured_on_the_card_timer() {
        // A fake BAR (plain memory): the test sets heartbeat and timer itself.
        let mut card = Card::open(Box::new(FakeBar::with_reset_values())).unwrap();
        poke(&mut card, regs::ctrl::CORE_STATUS, 0);
        let clk = u64::from(card.info().clk_hz);
        let mut wd = Watchdog::new(&card, Duration::from_millis(10));
        assert_eq!(wd.timeout_cycles(), clk / 100);
        poke(&mut card, regs::ctrl::HEARTBEAT, 7);
        poke(&mut card, regs::timer::COUNT_LO, 1000);
        assert_eq!(wd.check(&mut card).unwrap(), Health::Alive);
        poke(&mut card, regs::timer::COUNT_LO, 1000 + clk as u32 / 200);
        assert_eq!(
            wd.check(&mut card).unwrap(),
            Health::Alive,
            "half the timeout"
        );
        poke(&mut card, regs::timer::COUNT_LO, 1000 + clk as u32 / 100);
        assert_eq!(
            wd.check(&mut card).unwrap(),
            Health::Hung {
                heartbeat: 7,
                stalled_cycles: clk / 100
            }
        );
        poke(&mut card, regs::ctrl::HEARTBEAT, 8);
        assert_eq!(wd.check(&mut card).unwrap(), Health::Alive);
        poke(&mut card, regs::ctrl::FW_STATE, 3);
        assert!(matches!(
            wd.check(&mut card).unwrap(),
            Health::Crashed {
                fw_state: FwState::Panic,
                ..
            }
        ));
    }
}
