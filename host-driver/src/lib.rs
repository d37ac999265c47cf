//! SpliceNIC host driver.
//!
//! A [`Bar`] backend ([`vfio::VfioBar`] for a real card, [`socket::SocketBar`] for a
//! simulated one) is opened into a [`Card`], which identifies the card and hands out its
//! facets, each borrowing it: [`Card::firmware`] (loading and restarting, [`firmware`]),
//! [`Card::mailbox`] (requests to the firmware, [`mailbox`]), [`Card::flow_manager`] (the
//! flow manager's commands, [`flowmgr`]) and, on a card with the splicer, [`Card::datapath`]
//! ([`datapath`]); the firmware log is read with [`log`]. [`config`] reads keepalived-style configuration files with URL rules and
//! pools, plans them onto the card's indices and compiles the rules for the L7 matcher;
//! [`apply`] programs such a plan into a card (and tells what that would change).
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod apply;
pub mod bar;
pub mod card;
pub mod config;
pub mod datapath;
pub mod error;
#[cfg(test)]
mod fakebar;
pub mod firmware;
pub mod flowmgr;
pub mod log;
pub mod mailbox;
pub mod proto;
pub mod regs;
/// Firmware image seals (`firmware::seal`).
pub use firmware::seal;
pub mod socket;
pub mod vfio;
pub mod watchdog;

pub use bar::{Bar, BarError};
pub use card::{Card, CardInfo, CardStatus, CoreState, FwState};
pub use datapath::{Datapath, DatapathError};
pub use error::DriverError;
pub use firmware::{Firmware, FirmwareError, FirmwareImage, LoadReport};
pub use flowmgr::{
    CaptureCursor, CaptureInfo, CapturedFrame, ConfigMap, FlowInfo, FlowManager, FlowProfile,
    FlowStats, PoolConfig, PoolInfo, ProfileEntry, ProfileGroup, RealServer, RulesetInfo,
    RulesetState, Scheduler, ServerInfo, ServerStats, ServiceInfo, ServiceMode, SetupTimers,
    TcpTimeoutState,
};
pub use log::{LogLine, LogReader};
pub use mailbox::Mailbox;
pub use seal::{seal_elf, Seal};
pub use socket::{default_sim_socket, SimInfo, SocketBar};
pub use vfio::VfioBar;
pub use watchdog::{Health, Watchdog};
