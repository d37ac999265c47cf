//! `nicctl monitor --watchdog ELF`: the production firmware watchdog.
//!
//! Every poll takes the card (its lock, as every command does), samples the firmware
//! heartbeat against the card's own timer ([`Watchdog`], docs/interfaces.md) and, when the
//! firmware is hung, trapped or panicked, restarts it: core reset, the sealed image loaded
//! and verified, READY awaited. The data path is not reset, so spliced flows keep being
//! forwarded meanwhile. The configuration lives in the firmware, so the watchdog then sends
//! the configuration file again (as `rules load`) and the monitor puts its own view back
//! (servers that are down, dynamic weights, sorry servers). Each restart is logged on stderr
//! and counted; a restart that fails is logged and tried again after the next timeout.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use splicenic_driver::config::{self, Plan};
use splicenic_driver::{FirmwareImage, Health, Watchdog};

use crate::apply;
use crate::progress::Progress;
use crate::{open_card, CardSpec};

/// Default `--watchdog-timeout`: one second of card time.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(1);

/// Shortest and longest wall-clock time between two polls.
const MIN_POLL: Duration = Duration::from_millis(20);
const MAX_POLL: Duration = Duration::from_secs(1);

/// What one poll did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Poll {
    /// The heartbeat moved (or has not been still for the timeout yet).
    Alive,
    /// The firmware was restarted and configured again.
    Restarted { restart: u64 },
    /// A restart was needed and failed (logged); it is tried again later.
    Failed,
}

/// The watchdog of one card.
pub struct FirmwareWatch {
    spec: CardSpec,
    image: FirmwareImage,
    image_name: String,
    timeout: Duration,
    boot_timeout: Duration,
    dog: Option<Watchdog>,
    restarts: u64,
    failures: u64,
    /// No restart is tried before this (after a failed one).
    hold_until: Option<Instant>,
}

impl FirmwareWatch {
    /// Reads and checks the image now, so a bad file is an error before monitoring starts.
    pub fn new(
        spec: &CardSpec,
        image: &std::path::Path,
        timeout: Duration,
        allow_unverified: bool,
    ) -> Result<FirmwareWatch> {
        let mut img = crate::read_image(image)?;
        if !img.is_sealed() {
            anyhow::ensure!(
                allow_unverified,
                "watchdog firmware {} is not loadable: {}",
                image.display(),
                splicenic_driver::FirmwareError::Unsealed
            );
            eprintln!(
                "watchdog: warning: {} carries no seal: restarts will load it UNVERIFIED (--allow-unverified)",
                image.display()
            );
            img.accept_unverified();
        }
        Ok(FirmwareWatch {
            spec: spec.clone(),
            image: img,
            image_name: image.display().to_string(),
            timeout,
            boot_timeout: splicenic_driver::firmware::BOOT_TIMEOUT,
            dog: None,
            restarts: 0,
            failures: 0,
            hold_until: None,
        })
    }

    /// Wall-clock time between polls: a quarter of the timeout, within 20 ms .. 1 s.
    pub fn poll_interval(&self) -> Duration {
        (self.timeout / 4).clamp(MIN_POLL, MAX_POLL)
    }

    /// Restarts so far, and restarts that failed.
    pub fn counts(&self) -> (u64, u64) {
        (self.restarts, self.failures)
    }

    /// One sample; restarts and reconfigures the firmware when it is hung or crashed.
    pub fn poll(&mut self, cfg: &config::Config, plan: &Plan) -> Poll {
        match self.try_poll(cfg, plan) {
            Ok(p) => p,
            Err(e) => {
                self.failures += 1;
                self.hold_until = Some(Instant::now() + self.timeout.max(MAX_POLL));
                self.dog = None;
                eprintln!(
                    "watchdog: restarting the firmware failed ({} failed so far, {} restarts): {e:#}",
                    self.failures, self.restarts
                );
                Poll::Failed
            }
        }
    }

    fn try_poll(&mut self, cfg: &config::Config, plan: &Plan) -> Result<Poll> {
        let mut card = open_card(&self.spec)?;
        let dog = match &mut self.dog {
            Some(d) => d,
            None => self.dog.insert(Watchdog::new(&card, self.timeout)),
        };
        let why = match dog.check(&mut card)? {
            Health::Alive => return Ok(Poll::Alive),
            Health::Hung {
                heartbeat,
                stalled_cycles,
            } => format!(
                "firmware hung: heartbeat {heartbeat} unchanged for {stalled_cycles} card cycles \
                 ({:.3} s of card time)",
                stalled_cycles as f64 / f64::from(card.info().clk_hz.max(1))
            ),
            Health::Crashed { core, fw_state } => {
                format!("firmware crashed: core {core}, firmware state {fw_state}")
            }
        };
        if self.hold_until.is_some_and(|t| Instant::now() < t) {
            return Ok(Poll::Alive);
        }
        let restart = self.restarts + 1;
        eprintln!(
            "watchdog: {why}; restarting it with {} (restart {restart})",
            self.image_name
        );
        let t0 = Instant::now();
        let report = card
            .firmware()
            .restart(&self.image, self.boot_timeout)
            .context("reloading the firmware")?;
        let booted = t0.elapsed();
        let applied = apply::apply(&mut card, cfg, plan, &mut Progress::new(true))
            .context("sending the configuration again")?;
        self.restarts = restart;
        self.hold_until = None;
        dog.reset();
        eprintln!(
            "watchdog: firmware restarted ({}; {:.2} s) and configuration sent again ({} services, \
             {} pools, {} servers) in {:.2} s; {} restart{} so far",
            report
                .seal
                .as_deref()
                .map_or("UNVERIFIED image".to_string(), |fp| format!("seal {fp}")),
            booted.as_secs_f64(),
            applied.services,
            applied.pools,
            applied.servers,
            t0.elapsed().as_secs_f64(),
            restart,
            if restart == 1 { "" } else { "s" }
        );
        Ok(Poll::Restarted { restart })
    }
}
