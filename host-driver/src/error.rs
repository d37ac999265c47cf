//! The driver's error type.

use std::path::PathBuf;
use std::time::Duration;

use crate::bar::BarError;
use crate::firmware::FirmwareError;
use crate::proto::ProtoError;

/// Everything that can go wrong between opening a card and talking to its firmware.
#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    /// A register access failed.
    #[error("card register access failed: {0}")]
    Bar(#[from] BarError),

    // ----- opening a VFIO card -----
    /// The PCI address does not parse.
    #[error(
        "`{0}` is not a PCI address: expected DDDD:BB:DD.F or BB:DD.F (hex), e.g. 0000:03:00.0"
    )]
    BadPciAddress(String),
    /// No such device in sysfs.
    #[error(
        "no PCI device {addr}: {path} does not exist (see `lspci -D` for the devices present)"
    )]
    NoPciDevice { addr: String, path: PathBuf },
    /// The device is not bound to vfio-pci.
    #[error("{}", not_vfio_message(.addr, .driver.as_deref()))]
    NotVfioBound {
        addr: String,
        driver: Option<String>,
    },
    /// /dev/vfio/vfio is absent.
    #[error("VFIO is not available: /dev/vfio/vfio missing — load vfio-pci and enable the IOMMU")]
    VfioUnavailable,
    /// A VFIO call failed.
    #[error("VFIO setup of {addr} failed: {source}")]
    Vfio {
        addr: String,
        #[source]
        source: vfio_ioctls::VfioError,
    },
    /// BAR0 cannot be used through a mapping.
    #[error("BAR0 of {addr} is unusable: {reason}")]
    BarUnusable { addr: String, reason: String },
    /// Mapping BAR0 failed.
    #[error("mapping BAR0 of {addr} failed: {source}")]
    BarMap {
        addr: String,
        #[source]
        source: std::io::Error,
    },

    // ----- simulated card -----
    /// Nobody listens on the socket.
    #[error("no simulated card is listening on {}: start one with `nicctl sim start`", .path.display())]
    NoSimulator {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The simulated card sent something unexpected.
    #[error("simulated card protocol error: {0}")]
    Protocol(#[from] ProtoError),

    // ----- identification -----
    /// ID.MAGIC is wrong.
    #[error(
        "ID.MAGIC reads {found:#010x}, expected {expected:#010x} (\"SNIC\"): \
         the device is not a SpliceNIC card or its BAR is wrong"
    )]
    WrongMagic { found: u32, expected: u32 },
    /// ID.VERSION has an unsupported major.
    #[error(
        "register map version {major}.{minor}, this driver supports major {supported}: \
         update the driver or the gateware"
    )]
    UnsupportedVersion {
        major: u32,
        minor: u32,
        supported: u32,
    },
    /// A register block's BLKID does not match.
    #[error(
        "register block {block} at BAR offset {offset:#x}: BLKID {found:#010x} means type {found_type} \
         version major {found_major}, expected type {expected_type} major {expected_major}: \
         the gateware and the driver disagree on the register map"
    )]
    BlockMismatch {
        block: &'static str,
        offset: u64,
        found: u32,
        found_type: u32,
        found_major: u32,
        expected_type: u32,
        expected_major: u32,
    },
    /// The ID block describes an impossible layout.
    #[error("the card's ID block is inconsistent: {0}")]
    BadIdentity(String),

    // ----- firmware load -----
    /// The image does not parse or does not fit.
    #[error(transparent)]
    Firmware(#[from] FirmwareError),
    /// The core did not enter reset.
    #[error("the soft core did not enter reset (CTRL.CORE_STATUS = {status:#x} after writing CORE_CTRL.RESET = 1)")]
    ResetNotAsserted { status: u32 },
    /// Read-back differs.
    #[error(
        "verify failed: core address {addr:#010x} reads {found:#010x}, wrote {expected:#010x} \
         (first difference)"
    )]
    VerifyMismatch {
        addr: u32,
        expected: u32,
        found: u32,
    },
    /// The firmware panicked during boot.
    #[error("the firmware panicked during boot (FW_STATE = PANIC): see `nicctl log`")]
    FirmwarePanicked,
    /// The core trapped.
    #[error("the soft core trapped (CORE_STATUS.TRAP) {when}: illegal instruction or bus fault")]
    CoreTrapped { when: &'static str },
    /// The firmware did not become ready in time.
    #[error(
        "the firmware did not become READY within {timeout:?}: FW_STATE = {state}, heartbeat = {heartbeat}"
    )]
    BootTimeout {
        timeout: Duration,
        state: String,
        heartbeat: u32,
    },

    // ----- mailbox -----
    /// Too many request words.
    #[error("mailbox request {cmd} has {len} data words, at most {max} fit")]
    MailboxTooLong { cmd: String, len: usize, max: usize },
    /// No answer in time.
    #[error(
        "mailbox command {cmd} got no answer within {timeout:?} \
         (firmware state {state}, heartbeat {heartbeat}{progress})"
    )]
    MailboxTimeout {
        cmd: String,
        timeout: Duration,
        state: String,
        heartbeat: u32,
        /// Whether the heartbeat moved while waiting, as text.
        progress: String,
    },
    /// The previous request never completed.
    #[error("mailbox busy: a previous request is still pending after {0:?} (firmware state {1})")]
    MailboxBusy(Duration, String),
    /// The response carries another request's tag.
    #[error("mailbox command {cmd}: response tag {found:#x}, expected {expected:#x}")]
    MailboxTag {
        cmd: String,
        expected: u32,
        found: u32,
    },
    /// The firmware answered with a non-OK status.
    #[error("mailbox command {cmd} failed: status {status} ({name})")]
    MailboxStatus {
        cmd: String,
        status: u32,
        name: &'static str,
    },
    /// The response is malformed.
    #[error("mailbox command {cmd}: bad response: {reason}")]
    MailboxResponse { cmd: String, reason: String },
    /// A command argument is outside the range the firmware accepts; found on the host,
    /// before anything is sent.
    #[error("mailbox command {cmd}: {arg} = {value} is out of range, expected {range}")]
    InvalidArgument {
        /// The command the argument is for.
        cmd: &'static str,
        /// The argument's name.
        arg: &'static str,
        /// The value given.
        value: u64,
        /// The accepted values, e.g. `0..8`.
        range: &'static str,
    },

    // ----- data path -----
    /// A data-path operation failed.
    #[error(transparent)]
    Datapath(#[from] crate::datapath::DatapathError),

    // ----- log -----
    /// The log cannot be decoded.
    #[error(transparent)]
    Log(#[from] crate::log::LogError),
}

fn not_vfio_message(addr: &str, driver: Option<&str>) -> String {
    let bind = format!(
        "echo vfio-pci > /sys/bus/pci/devices/{addr}/driver_override; \
         echo {addr} > /sys/bus/pci/drivers_probe"
    );
    match driver {
        Some(d) => format!(
            "PCI device {addr} is bound to {d}, not to vfio-pci: rebind it with \
             `modprobe vfio-pci; echo {addr} > /sys/bus/pci/devices/{addr}/driver/unbind; {bind}`"
        ),
        None => format!(
            "PCI device {addr} is bound to no driver: bind it to vfio-pci with \
             `modprobe vfio-pci; {bind}`"
        ),
    }
}
