//! The driver's error types: [`DriverError`] and the errors of firmware images, the data
//! path and the log it wraps. A leaf module: it names no other module of the driver but the
//! two leaves `bar` and `proto`, so every module can use it.

use std::path::PathBuf;
use std::time::Duration;

use crate::bar::BarError;
use crate::proto::ProtoError;

/// Name of the ELF section that carries a firmware image's seal (`seal`).
pub const SEAL_SECTION: &str = ".splicenic_seal";

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
    Datapath(#[from] DatapathError),

    // ----- log -----
    /// The log cannot be decoded.
    #[error(transparent)]
    Log(#[from] LogError),
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

// ----- firmware images -----

/// Why a file is not a loadable firmware image.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FirmwareError {
    #[error("not an ELF file (no \\x7fELF magic)")]
    NotElf,
    #[error("truncated ELF file: {0}")]
    Truncated(String),
    #[error("ELF is for {machine}, not RISC-V (e_machine {code})")]
    WrongArch { machine: String, code: u16 },
    #[error("ELF is {bits}-bit; the card's core is RV32 and needs a 32-bit ELF")]
    WrongClass { bits: u32 },
    #[error("ELF is big-endian; the card's core is little-endian")]
    WrongEndian,
    #[error("ELF is a {kind}, not an executable (link it into a firmware binary)")]
    NotExecutable { kind: String },
    #[error("ELF has no loadable segments with contents")]
    NoLoadableSegments,
    #[error("entry point {entry:#010x} is outside IMEM ({base:#010x}..{end:#010x})")]
    EntryOutsideImem { entry: u32, base: u32, end: u64 },
    #[error("segment {index} ({what} {start:#010x}..{end:#010x}) lies outside IMEM and DMEM")]
    SegmentOutside {
        index: usize,
        what: &'static str,
        start: u32,
        end: u64,
    },
    #[error("image is too large: it needs {image} bytes of IMEM, the card has {imem}")]
    Oversize { image: u64, imem: u32 },
    #[error(
        "image carries no seal (no {SEAL_SECTION} section), so its contents cannot be verified: \
         `cargo xtask build` seals the firmware it builds, `nicctl firmware seal FILE` seals a file, \
         `nicctl program --allow-unverified` loads it unverified"
    )]
    Unsealed,
    #[error("malformed seal: {0}")]
    BadSeal(String),
    #[error(
        "segment table or entry point does not match the seal ({sealed} segments sealed, {found} in the file): \
         the image was altered after it was sealed"
    )]
    LayoutAltered { sealed: usize, found: usize },
    #[error(
        "segment {index} (load address {paddr:#010x}, {len} bytes) does not match the seal: \
         the image was altered after it was sealed"
    )]
    SegmentAltered {
        index: usize,
        paddr: u32,
        len: usize,
    },
}

// ----- data path -----

/// Errors of the data-path API (besides register access errors).
#[derive(Debug, thiserror::Error)]
pub enum DatapathError {
    /// The card has no splicer data path.
    #[error("the card has no splicer data path (ID.CAPS.SPLICER = 0)")]
    NotPresent,
    /// A build parameter register holds a value the driver cannot use.
    #[error("data path parameter {register} = {value:#x} is unusable: {reason}")]
    BadParams {
        register: &'static str,
        value: u32,
        reason: &'static str,
    },
    /// A command did not complete.
    #[error("data path {what} did not complete: {register} still {state} after {polls} reads")]
    Timeout {
        what: &'static str,
        register: &'static str,
        state: &'static str,
        polls: u32,
    },
    /// An index is outside its table.
    #[error("{what} index {index} is out of range (the card has {count})")]
    IndexOutOfRange {
        what: &'static str,
        index: usize,
        count: usize,
    },
    /// A frame or buffer has a length the hardware does not take.
    #[error("{what} of {len} bytes: the card takes {min}..={max} bytes")]
    BadLength {
        what: &'static str,
        len: usize,
        min: usize,
        max: usize,
    },
    /// Checksum offload offsets that the inject ring would refuse.
    #[error(
        "checksum offload offsets ip_off {ip_off}, l4_off {l4_off}, l4_end {l4_end} do not fit a \
         {len}-byte frame: need ip_off + 20 <= l4_off, l4_off + 20 <= l4_end <= length"
    )]
    BadOffload {
        ip_off: u16,
        l4_off: u16,
        l4_end: u16,
        len: usize,
    },
    /// An L7 rule pattern is longer than the rule bank holds.
    #[error(
        "L7 rule {which} pattern of {len} bytes is longer than the card's {max}-byte patterns"
    )]
    PatternTooLong {
        which: &'static str,
        len: usize,
        max: usize,
    },
    /// The punt ring indices are inconsistent.
    #[error("punt ring: PROD {prod} / CONS {cons} are more than {slots} slots apart")]
    PuntRing { prod: u32, cons: u32, slots: u32 },
    /// A punt descriptor claims more bytes than a slot holds.
    #[error("punt slot {slot}: descriptor length {len} exceeds the {max}-byte slot")]
    PuntDescriptor { slot: u32, len: usize, max: usize },
    /// A code read from the card that docs/records.md does not define.
    #[error("the card holds {what} code {value:#x}, which the data path does not define")]
    UnknownCode { what: &'static str, value: u32 },
    /// An entry of the trace ring that DP.TRACE_COUNT counts as written reads kind NONE
    /// (never written): the ring and its counter disagree.
    #[error(
        "trace ring entry {seq} (ring index {index}) never written: it reads kind NONE, \
         though DP.TRACE_COUNT counts it"
    )]
    TraceNeverWritten {
        /// Its sequence number (the n-th entry written since reset, modulo 2^32).
        seq: u32,
        /// Its ring index (`seq` modulo the ring's depth).
        index: u32,
    },
}

// ----- log -----

/// Problems with the ELF's defmt table or the ring geometry.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("ELF has no defmt table: was it built with defmt?")]
    NoTable,
    #[error("cannot read the defmt table from the ELF: {0}")]
    Table(String),
    #[error("the ELF's defmt encoding is raw; the log ring needs rzcobs")]
    RawEncoding,
    #[error("log ring: {0}")]
    Ring(String),
}
