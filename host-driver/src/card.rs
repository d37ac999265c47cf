//! Opening a card: identification, version checks, block discovery and status.

use std::fmt;

use crate::bar::{field, Bar};
use crate::datapath::{Datapath, DatapathError};
use crate::error::DriverError;
use crate::regs;

/// Default time the firmware has to answer one mailbox request (`mailbox::DEFAULT_TIMEOUT`).
pub const DEFAULT_MAILBOX_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Register-map major version this driver implements.
pub const SUPPORTED_MAJOR: u32 = field(
    regs::id::version::RESET,
    regs::id::version::MAJOR_SHIFT,
    regs::id::version::MAJOR_MASK,
);

/// A register block with a BLKID register, as the driver expects it.
#[derive(Debug, Clone, Copy)]
struct BlockSpec {
    name: &'static str,
    blkid: u64,
    reset: u32,
}

/// Blocks every card has.
const BLOCKS: [BlockSpec; 4] = [
    BlockSpec {
        name: "CTRL",
        blkid: regs::ctrl::BLKID,
        reset: regs::ctrl::blkid::RESET,
    },
    BlockSpec {
        name: "TIMER",
        blkid: regs::timer::BLKID,
        reset: regs::timer::blkid::RESET,
    },
    BlockSpec {
        name: "MBOX",
        blkid: regs::mbox::BLKID,
        reset: regs::mbox::blkid::RESET,
    },
    BlockSpec {
        name: "LOG",
        blkid: regs::log::BLKID,
        reset: regs::log::blkid::RESET,
    },
];

/// Splicer data-path blocks, present when `ID.CAPS.SPLICER` is set.
const SPLICER_BLOCKS: [BlockSpec; 7] = [
    BlockSpec {
        name: "DP",
        blkid: regs::dp::BLKID,
        reset: regs::dp::blkid::RESET,
    },
    BlockSpec {
        name: "FLOW",
        blkid: regs::flow::BLKID,
        reset: regs::flow::blkid::RESET,
    },
    BlockSpec {
        name: "L7",
        blkid: regs::l7::BLKID,
        reset: regs::l7::blkid::RESET,
    },
    BlockSpec {
        name: "PUNT",
        blkid: regs::punt::BLKID,
        reset: regs::punt::blkid::RESET,
    },
    BlockSpec {
        name: "INJECT",
        blkid: regs::inject::BLKID,
        reset: regs::inject::blkid::RESET,
    },
    BlockSpec {
        name: "EVQ",
        blkid: regs::evq::BLKID,
        reset: regs::evq::blkid::RESET,
    },
    BlockSpec {
        name: "STATS",
        blkid: regs::stats::BLKID,
        reset: regs::stats::blkid::RESET,
    },
];

/// Type code and major version of a BLKID value (type in 31:16, major in 15:8).
fn blkid_parts(v: u32) -> (u32, u32, u32) {
    use regs::ctrl::blkid as b;
    let ty = field(v, b::TYPE_SHIFT, b::TYPE_MASK);
    let ver = field(v, b::VERSION_SHIFT, b::VERSION_MASK);
    (ty, ver >> 8, ver & 0xff)
}

/// A discovered register block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockInfo {
    pub name: &'static str,
    /// BAR0 offset of the block.
    pub offset: u64,
    pub type_code: u32,
    pub major: u32,
    pub minor: u32,
}

/// Capabilities from `ID.CAPS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    pub raw: u32,
    pub mailbox: bool,
    pub logring: bool,
    pub timer: bool,
    pub splicer: bool,
}

impl Caps {
    /// Decode `ID.CAPS`.
    pub fn from_raw(raw: u32) -> Caps {
        use regs::id::caps as c;
        Caps {
            raw,
            mailbox: field(raw, c::MAILBOX_SHIFT, c::MAILBOX_MASK) != 0,
            logring: field(raw, c::LOGRING_SHIFT, c::LOGRING_MASK) != 0,
            timer: field(raw, c::TIMER_SHIFT, c::TIMER_MASK) != 0,
            splicer: field(raw, c::SPLICER_SHIFT, c::SPLICER_MASK) != 0,
        }
    }

    /// Names of the capabilities present.
    pub fn names(&self) -> Vec<&'static str> {
        [
            (self.mailbox, "mailbox"),
            (self.logring, "logring"),
            (self.timer, "timer"),
            (self.splicer, "splicer"),
        ]
        .into_iter()
        .filter_map(|(on, n)| on.then_some(n))
        .collect()
    }
}

/// Soft-core type from `ID.CORE.CPU`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoreKind {
    PicoRv32,
    VexRiscv,
    Unknown(u32),
}

impl CoreKind {
    fn from_raw(v: u32) -> CoreKind {
        use regs::id::core as c;
        match v {
            c::CPU_PICORV32 => CoreKind::PicoRv32,
            c::CPU_VEXRISCV => CoreKind::VexRiscv,
            n => CoreKind::Unknown(n),
        }
    }
}

impl fmt::Display for CoreKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreKind::PicoRv32 => f.write_str("PicoRV32"),
            CoreKind::VexRiscv => f.write_str("VexRiscv"),
            CoreKind::Unknown(n) => write!(f, "unknown core type {n}"),
        }
    }
}

/// What the ID block and the block headers say about a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardInfo {
    /// Backend description, e.g. "VFIO 0000:03:00.0".
    pub backend: String,
    pub bar_size: u64,
    pub magic: u32,
    pub version_major: u32,
    pub version_minor: u32,
    pub caps: Caps,
    pub core: CoreKind,
    pub clk_hz: u32,
    pub imem_size: u32,
    pub dmem_size: u32,
    /// BAR0 offset of the IMEM window.
    pub imem_window: u64,
    /// BAR0 offset of the DMEM window.
    pub dmem_window: u64,
    pub build_id: u32,
    /// Log ring size in bytes (`LOG.SIZE`).
    pub log_size: u32,
    pub blocks: Vec<BlockInfo>,
}

impl fmt::Display for CardInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let magic: String = self
            .magic
            .to_be_bytes()
            .iter()
            .map(|&b| if b.is_ascii_graphic() { b as char } else { '.' })
            .collect();
        writeln!(f, "card:              {}", self.backend)?;
        writeln!(f, "magic:             {:#010x} (\"{magic}\")", self.magic)?;
        writeln!(
            f,
            "register map:      {}.{}",
            self.version_major, self.version_minor
        )?;
        writeln!(
            f,
            "capabilities:      {} ({:#x})",
            self.caps.names().join(", "),
            self.caps.raw
        )?;
        writeln!(f, "core:              {}", self.core)?;
        writeln!(
            f,
            "clock:             {:.3} MHz",
            f64::from(self.clk_hz) / 1e6
        )?;
        writeln!(
            f,
            "IMEM:              {} KiB (window at BAR0 {:#x})",
            self.imem_size / 1024,
            self.imem_window
        )?;
        writeln!(
            f,
            "DMEM:              {} KiB (window at BAR0 {:#x})",
            self.dmem_size / 1024,
            self.dmem_window
        )?;
        writeln!(f, "log ring:          {} bytes", self.log_size)?;
        writeln!(f, "gateware build id: {:#010x}", self.build_id)?;
        let blocks: Vec<String> = self
            .blocks
            .iter()
            .map(|b| format!("{} {}.{} @{:#x}", b.name, b.major, b.minor, b.offset))
            .collect();
        write!(f, "blocks:            {}", blocks.join(", "))
    }
}

/// Soft-core run state from `CTRL.CORE_STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoreState {
    InReset,
    Running,
    Trapped,
}

impl fmt::Display for CoreState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CoreState::InReset => "in reset",
            CoreState::Running => "running",
            CoreState::Trapped => "trapped",
        })
    }
}

/// Firmware state from `CTRL.FW_STATE.STATE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FwState {
    Off,
    Booting,
    Ready,
    Panic,
    Unknown(u32),
    /// The core trapped, so no firmware runs whatever `CTRL.FW_STATE` still says (the
    /// state it last wrote, kept here). [`Card::status`] reports this instead of that state.
    Stopped(u32),
}

impl FwState {
    /// Decode the STATE field.
    pub fn from_raw(v: u32) -> FwState {
        use regs::ctrl::fw_state as s;
        match v {
            s::STATE_OFF => FwState::Off,
            s::STATE_BOOTING => FwState::Booting,
            s::STATE_READY => FwState::Ready,
            s::STATE_PANIC => FwState::Panic,
            n => FwState::Unknown(n),
        }
    }
}

impl fmt::Display for FwState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FwState::Off => f.write_str("OFF"),
            FwState::Booting => f.write_str("BOOTING"),
            FwState::Ready => f.write_str("READY"),
            FwState::Panic => f.write_str("PANIC"),
            FwState::Unknown(n) => write!(f, "unknown ({n})"),
            FwState::Stopped(last) => write!(
                f,
                "STOPPED (the core trapped; FW_STATE still says {})",
                FwState::from_raw(*last)
            ),
        }
    }
}

/// Live status of the core and firmware.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardStatus {
    pub core: CoreState,
    pub fw_state: FwState,
    pub heartbeat: u32,
}

impl fmt::Display for CardStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "core state:        {}", self.core)?;
        writeln!(f, "firmware state:    {}", self.fw_state)?;
        write!(f, "heartbeat:         {}", self.heartbeat)
    }
}

/// An opened, identified card.
pub struct Card {
    pub(crate) bar: Box<dyn Bar>,
    pub(crate) info: CardInfo,
    /// Last mailbox tag used (`None` until the first request).
    pub(crate) tag: Option<u32>,
    /// Wall-clock time the firmware has to answer a typed mailbox command.
    pub(crate) mailbox_timeout: std::time::Duration,
}

/// The card's mailbox: requests to the firmware and their replies ([`Card::mailbox`];
/// the requests are in [`crate::mailbox`]).
pub struct Mailbox<'a> {
    pub(crate) card: &'a mut Card,
}

/// The card's flow manager: configuration, statistics and control-plane commands through
/// the mailbox ([`Card::flow_manager`]; the commands are in [`crate::flowmgr`]).
pub struct FlowManager<'a> {
    pub(crate) card: &'a mut Card,
}

/// Loading and restarting the card's firmware ([`Card::firmware`]; in [`crate::firmware`]).
pub struct Firmware<'a> {
    pub(crate) card: &'a mut Card,
}

macro_rules! facet_debug {
    ($($t:ident),*) => {$(
        impl fmt::Debug for $t<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($t)).field("card", &self.card).finish()
            }
        }
    )*};
}
facet_debug!(Mailbox, FlowManager, Firmware);

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Card")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl Card {
    /// The mailbox: requests to the firmware ([`Mailbox`]).
    pub fn mailbox(&mut self) -> Mailbox<'_> {
        Mailbox { card: self }
    }

    /// The flow manager: services, pools, servers, timeouts, statistics, flows, rule-set
    /// record and capture ring, through the mailbox ([`FlowManager`]).
    pub fn flow_manager(&mut self) -> FlowManager<'_> {
        FlowManager { card: self }
    }

    /// Loading and restarting the firmware ([`Firmware`]).
    pub fn firmware(&mut self) -> Firmware<'_> {
        Firmware { card: self }
    }

    /// The splicer data path ([`Datapath`]); fails when `ID.CAPS.SPLICER` is not set.
    pub fn datapath(&mut self) -> Result<Datapath<'_>, DriverError> {
        if !self.info.caps.splicer {
            return Err(DatapathError::NotPresent.into());
        }
        Datapath::new(self.bar.as_mut())
    }

    /// Identify the card behind `bar`: magic, register-map version, block headers, sizes.
    pub fn open(mut bar: Box<dyn Bar>) -> Result<Card, DriverError> {
        let magic = bar.read32(regs::id::MAGIC)?;
        if magic != regs::id::magic::RESET {
            return Err(DriverError::WrongMagic {
                found: magic,
                expected: regs::id::magic::RESET,
            });
        }
        let version = bar.read32(regs::id::VERSION)?;
        let major = field(
            version,
            regs::id::version::MAJOR_SHIFT,
            regs::id::version::MAJOR_MASK,
        );
        let minor = field(
            version,
            regs::id::version::MINOR_SHIFT,
            regs::id::version::MINOR_MASK,
        );
        if major != SUPPORTED_MAJOR {
            return Err(DriverError::UnsupportedVersion {
                major,
                minor,
                supported: SUPPORTED_MAJOR,
            });
        }
        let caps = Caps::from_raw(bar.read32(regs::id::CAPS)?);
        let splicer: &[BlockSpec] = if caps.splicer { &SPLICER_BLOCKS } else { &[] };
        let mut blocks = Vec::with_capacity(BLOCKS.len() + splicer.len());
        for &spec in BLOCKS.iter().chain(splicer) {
            let found = bar.read32(spec.blkid)?;
            let (ty, maj, min) = blkid_parts(found);
            let (ety, emaj, _) = blkid_parts(spec.reset);
            if ty != ety || maj != emaj {
                return Err(DriverError::BlockMismatch {
                    block: spec.name,
                    offset: spec.blkid,
                    found,
                    found_type: ty,
                    found_major: maj,
                    expected_type: ety,
                    expected_major: emaj,
                });
            }
            blocks.push(BlockInfo {
                name: spec.name,
                offset: spec.blkid,
                type_code: ty,
                major: maj,
                minor: min,
            });
        }
        let core = CoreKind::from_raw(field(
            bar.read32(regs::id::CORE)?,
            regs::id::core::CPU_SHIFT,
            regs::id::core::CPU_MASK,
        ));
        let info = CardInfo {
            backend: bar.describe(),
            bar_size: bar.size(),
            magic,
            version_major: major,
            version_minor: minor,
            caps,
            core,
            clk_hz: bar.read32(regs::id::CLK_HZ)?,
            imem_size: bar.read32(regs::id::IMEM_SIZE)?,
            dmem_size: bar.read32(regs::id::DMEM_SIZE)?,
            imem_window: u64::from(bar.read32(regs::id::IMEM_WINDOW)?),
            dmem_window: u64::from(bar.read32(regs::id::DMEM_WINDOW)?),
            build_id: bar.read32(regs::id::BUILD_ID)?,
            log_size: bar.read32(regs::log::SIZE)?,
            blocks,
        };
        check_layout(&info)?;
        Ok(Card {
            bar,
            info,
            tag: None,
            mailbox_timeout: DEFAULT_MAILBOX_TIMEOUT,
        })
    }

    /// Sets the wall-clock time the firmware has to answer the typed mailbox commands
    /// (default [`DEFAULT_MAILBOX_TIMEOUT`]). A simulated card runs far slower than
    /// a real one, so rigs that drive it raise this.
    pub fn set_mailbox_timeout(&mut self, timeout: std::time::Duration) {
        self.mailbox_timeout = timeout;
    }

    /// What the card reported when it was opened.
    pub fn info(&self) -> &CardInfo {
        &self.info
    }

    /// The underlying BAR (for tests and tools that need raw register access).
    pub fn bar_mut(&mut self) -> &mut dyn Bar {
        self.bar.as_mut()
    }

    /// Give the BAR back.
    pub fn into_bar(self) -> Box<dyn Bar> {
        self.bar
    }

    /// Read the core state, firmware state and heartbeat.
    pub fn status(&mut self) -> Result<CardStatus, DriverError> {
        use regs::ctrl::core_status as cs;
        let st = self.bar.read32(regs::ctrl::CORE_STATUS)?;
        let core = if field(st, cs::TRAP_SHIFT, cs::TRAP_MASK) != 0 {
            CoreState::Trapped
        } else if field(st, cs::IN_RESET_SHIFT, cs::IN_RESET_MASK) != 0 {
            CoreState::InReset
        } else {
            CoreState::Running
        };
        // A trapped core runs no firmware: its last FW_STATE (READY, say) is not the state.
        let raw = self.fw_state_raw()?;
        let fw_state = match (core, FwState::from_raw(raw)) {
            (CoreState::Trapped, FwState::Panic) => FwState::Panic,
            (CoreState::Trapped, _) => FwState::Stopped(raw),
            (_, state) => state,
        };
        Ok(CardStatus {
            core,
            fw_state,
            heartbeat: self.bar.read32(regs::ctrl::HEARTBEAT)?,
        })
    }

    /// Read `CTRL.FW_STATE` (what the firmware last wrote; [`Card::status`] also looks at
    /// the core).
    pub fn fw_state(&mut self) -> Result<FwState, DriverError> {
        Ok(FwState::from_raw(self.fw_state_raw()?))
    }

    /// The STATE field of `CTRL.FW_STATE`.
    fn fw_state_raw(&mut self) -> Result<u32, DriverError> {
        let v = self.bar.read32(regs::ctrl::FW_STATE)?;
        Ok(field(
            v,
            regs::ctrl::fw_state::STATE_SHIFT,
            regs::ctrl::fw_state::STATE_MASK,
        ))
    }

    /// Read the 64-bit timer (COUNT_LO latches COUNT_HI).
    pub fn timer(&mut self) -> Result<u64, DriverError> {
        let lo = self.bar.read32(regs::timer::COUNT_LO)?;
        let hi = self.bar.read32(regs::timer::COUNT_HI)?;
        Ok(u64::from(hi) << 32 | u64::from(lo))
    }
}

/// Reject ID values that would make the driver access outside BAR0.
fn check_layout(i: &CardInfo) -> Result<(), DriverError> {
    let bad = |m: String| Err(DriverError::BadIdentity(m));
    for (name, win, size) in [
        ("IMEM", i.imem_window, i.imem_size),
        ("DMEM", i.dmem_window, i.dmem_size),
    ] {
        if size == 0 || size % 4 != 0 || win % 4 != 0 {
            return bad(format!(
                "{name} size {size:#x} / window {win:#x} are not non-zero multiples of 4"
            ));
        }
        if win + u64::from(size) > i.bar_size {
            return bad(format!(
                "{name} window {win:#x} + size {size:#x} exceeds the {:#x}-byte BAR",
                i.bar_size
            ));
        }
    }
    let ring_max = (regs::logbuf::DATA_COUNT * 4) as u32;
    if i.log_size == 0 || !i.log_size.is_power_of_two() || i.log_size > ring_max {
        return bad(format!(
            "LOG.SIZE {} is not a power of two of at most {ring_max} bytes",
            i.log_size
        ));
    }
    if i.clk_hz == 0 {
        return bad("ID.CLK_HZ is 0".into());
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::fakebar::FakeBar;

    #[test]
    fn card_without_splicer_has_no_datapath() {
        let mut bar = FakeBar::with_datapath_params();
        bar.set(regs::id::CAPS, 0x7);
        let mut card = Card::open(Box::new(bar)).unwrap();
        let e = card.datapath().unwrap_err();
        assert!(
            matches!(e, DriverError::Datapath(DatapathError::NotPresent)),
            "{e}"
        );
        let mut card = Card::open(Box::new(FakeBar::with_datapath_params())).unwrap();
        let dp = card.datapath().unwrap();
        assert_eq!(dp.params().punt_slots, 16);
        assert_eq!(dp.params().rewriter_latency, 34);
    }

    #[test]
    fn open_reads_identity() {
        let card = Card::open(Box::new(FakeBar::with_reset_values())).unwrap();
        let i = card.info();
        assert_eq!(i.version_major, SUPPORTED_MAJOR);
        assert_eq!(i.imem_size, regs::id::imem_size::RESET);
        assert_eq!(i.blocks.len(), BLOCKS.len() + SPLICER_BLOCKS.len());
        assert!(i.caps.mailbox);
        assert!(i.caps.splicer);
        assert!(i.blocks.iter().any(|b| b.name == "STATS"));
        let text = i.to_string();
        assert!(text.contains("\"SNIC\""), "{text}");
    }

    #[test]
    fn wrong_magic_is_refused() {
        let mut bar = FakeBar::with_reset_values();
        bar.set(regs::id::MAGIC, 0xffff_ffff);
        let e = Card::open(Box::new(bar)).unwrap_err();
        assert!(
            matches!(e, DriverError::WrongMagic { found: 0xffff_ffff, expected } if expected == regs::id::magic::RESET),
            "{e}"
        );
        let msg = e.to_string();
        assert!(msg.contains("0xffffffff"), "{msg}");
        assert!(msg.contains("not a SpliceNIC card"), "{msg}");
    }

    #[test]
    fn wrong_major_is_refused() {
        let mut bar = FakeBar::with_reset_values();
        let v = (SUPPORTED_MAJOR + 1) << regs::id::version::MAJOR_SHIFT
            | 3 << regs::id::version::MINOR_SHIFT;
        bar.set(regs::id::VERSION, v);
        let e = Card::open(Box::new(bar)).unwrap_err();
        assert!(matches!(e, DriverError::UnsupportedVersion { .. }), "{e}");
        let msg = e.to_string();
        let want = format!(
            "register map version {}.3, this driver supports major {SUPPORTED_MAJOR}",
            SUPPORTED_MAJOR + 1
        );
        assert!(msg.contains(&want), "{msg}");
    }

    #[test]
    fn newer_minor_is_accepted() {
        let mut bar = FakeBar::with_reset_values();
        bar.set(
            regs::id::VERSION,
            SUPPORTED_MAJOR << regs::id::version::MAJOR_SHIFT | 0x7f,
        );
        assert_eq!(
            Card::open(Box::new(bar)).unwrap().info().version_minor,
            0x7f
        );
    }

    #[test]
    fn wrong_block_is_named() {
        let mut bar = FakeBar::with_reset_values();
        bar.set(regs::mbox::BLKID, 0);
        let e = Card::open(Box::new(bar)).unwrap_err();
        assert!(
            matches!(e, DriverError::BlockMismatch { block: "MBOX", .. }),
            "{e}"
        );
    }

    #[test]
    fn splicer_blocks_are_checked_when_present() {
        let mut bar = FakeBar::with_reset_values();
        bar.set(regs::flow::BLKID, regs::dp::blkid::RESET);
        let e = Card::open(Box::new(bar)).unwrap_err();
        assert!(
            matches!(e, DriverError::BlockMismatch { block: "FLOW", .. }),
            "{e}"
        );
    }

    #[test]
    fn splicer_blocks_are_skipped_without_the_capability() {
        let mut bar = FakeBar::with_reset_values();
        let caps = regs::id::caps::RESET
            & !(regs::id::caps::SPLICER_MASK << regs::id::caps::SPLICER_SHIFT);
        bar.set(regs::id::CAPS, caps);
        for spec in SPLICER_BLOCKS {
            bar.set(spec.blkid, 0);
        }
        let card = Card::open(Box::new(bar)).unwrap();
        assert!(!card.info().caps.splicer);
        assert_eq!(card.info().blocks.len(), BLOCKS.len());
    }

    #[test]
    fn window_outside_bar_is_refused() {
        let mut bar = FakeBar::with_reset_values();
        bar.set(regs::id::DMEM_WINDOW, 0xfff0_0000);
        let e = Card::open(Box::new(bar)).unwrap_err();
        assert!(matches!(e, DriverError::BadIdentity(_)), "{e}");
    }

    #[test]
    fn status_decodes_core_and_firmware_state() {
        let mut card = Card::open(Box::new(FakeBar::with_reset_values())).unwrap();
        let st = card.status().unwrap();
        assert_eq!(st.core, CoreState::InReset);
        assert_eq!(st.fw_state, FwState::Off);
    }

    /// A core that trapped after the firmware wrote READY is never reported READY.
    #[test]
    fn a_trapped_core_is_not_reported_ready() {
        use regs::ctrl::core_status as cs;
        let mut bar = FakeBar::with_reset_values();
        bar.set(regs::ctrl::FW_STATE, regs::ctrl::fw_state::STATE_READY);
        bar.set(regs::ctrl::CORE_STATUS, 1 << cs::TRAP_SHIFT);
        let mut card = Card::open(Box::new(bar)).unwrap();
        let st = card.status().unwrap();
        assert_eq!(st.core, CoreState::Trapped);
        assert_eq!(
            st.fw_state,
            FwState::Stopped(regs::ctrl::fw_state::STATE_READY)
        );
        assert_eq!(
            st.fw_state.to_string(),
            "STOPPED (the core trapped; FW_STATE still says READY)"
        );
        // The register itself is still readable as it is.
        assert_eq!(card.fw_state().unwrap(), FwState::Ready);
        // A panic the firmware reported stays a panic.
        card.bar_mut()
            .write32(regs::ctrl::FW_STATE, regs::ctrl::fw_state::STATE_PANIC)
            .unwrap();
        assert_eq!(card.status().unwrap().fw_state, FwState::Panic);
    }
}
