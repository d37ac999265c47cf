//! Test bench of the stats block (`stats_counters`), the punt and inject buffers
//! (`pkt_punt_buf`, `pkt_inject_buf`, DATA_WIDTH 64 and 512) and the hardware -> firmware
//! event queue (`evt_queue`): safe wrappers around the Verilated models (csrc/shim.cpp).
//! The software reference models live in the tests.

use splicenic_layout::PuntMeta;
use std::ffi::{c_int, c_void};
use std::ptr::NonNull;

mod ffi {
    use splicenic_layout::PuntMeta;
    use std::ffi::{c_int, c_void};

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct StCycle {
        pub inc_valid: u32,
        pub idx: [u32; 4],
        pub amt: [u32; 4],
        pub snapshot: u32,
        pub clear_on_snapshot: u32,
        pub rd_valid: u32,
        pub rd_idx: u32,
        pub clear_all: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct StRead {
        pub cycle: u64,
        pub value: u64,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct EvPop {
        pub src: u32,
        pub word0: u32,
        pub word1: u32,
        pub pad: u32,
        pub data: u64,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct EvRun {
        pub cycles: u64,
        pub max_wait: u64,
        pub overflow: u64,
        pub overflow_prod: [u64; 4],
        pub pushed: u64,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct PuntIn {
        pub len: u32,
        pub tuser: u32,
        pub meta: [u32; PuntMeta::WORDS],
        pub gap: u32,
        pub low: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct PuntOut {
        pub frame: u32,
        pub len: u32,
        pub flag: u32,
        pub meta: [u32; PuntMeta::WORDS],
        pub offset: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct PuntRun {
        pub cycles: u64,
        pub stall_cycles: u64,
        pub frames: u64,
        pub drop_full: u64,
        pub drop_low: u64,
        pub drop_long: u64,
        pub bad_cons: u64,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct InjIn {
        pub len: u32,
        pub csum_ip: u32,
        pub csum_tcp: u32,
        pub ip_off: u32,
        pub l4_off: u32,
        pub l4_end: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct InjRun {
        pub cycles: u64,
        pub beats: u64,
        pub busy_cycles: u64,
        pub bad_commit: u64,
        pub frames: u64,
        pub first_latency: u64,
    }

    extern "C" {
        pub fn tb_stats_new(init: u64) -> *mut c_void;
        pub fn tb_stats_free(h: *mut c_void);
        pub fn tb_stats_run(
            h: *mut c_void,
            cy: *const StCycle,
            n: usize,
            out: *mut StRead,
            cap: usize,
            nout: *mut usize,
        ) -> c_int;
        pub fn tb_stats_cycle(h: *const c_void) -> u64;
        #[allow(clippy::too_many_arguments)]
        pub fn tb_evt_run(
            events: *const u64,
            counts4: *const u32,
            offer_pct: u32,
            pop_pct: u32,
            seed: u32,
            out: *mut EvPop,
            cap: usize,
            nout: *mut usize,
            run: *mut EvRun,
        ) -> c_int;
        #[allow(clippy::too_many_arguments)]
        pub fn tb_punt_run(
            model: c_int,
            bytes: *const u8,
            fr: *const PuntIn,
            n: usize,
            consume_pct: u32,
            hold: u32,
            seed: u32,
            used_at_start: *mut u8,
            out: *mut PuntOut,
            cap: usize,
            obytes: *mut u8,
            ocap: usize,
            nout: *mut usize,
            run: *mut PuntRun,
        ) -> c_int;
        #[allow(clippy::too_many_arguments)]
        pub fn tb_inj_run(
            wide: c_int,
            bytes: *const u8,
            fr: *const InjIn,
            n: usize,
            ready_pct: u32,
            hold: u32,
            seed: u32,
            obytes: *mut u8,
            ocap: usize,
            olens: *mut u32,
            nout: *mut usize,
            run: *mut InjRun,
        ) -> c_int;
    }
}

pub use ffi::{EvPop, EvRun, InjRun, PuntRun, StCycle as StatsCycle, StRead as StatsRead};

/// Errors from a simulation batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimError {
    /// The model did not finish the batch within its cycle limit (a stall).
    Timeout,
    /// The model produced something the protocol forbids (more results than requested, an
    /// unexpected beat, a commit refused) or an output buffer was too small.
    Protocol,
    /// Bad arguments.
    BadArg,
    /// The model could not be created (e.g. its init sweep did not finish).
    Create,
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Timeout => write!(f, "simulation stalled (cycle limit reached)"),
            SimError::Protocol => write!(f, "protocol violation or output buffer too small"),
            SimError::BadArg => write!(f, "bad arguments"),
            SimError::Create => write!(f, "model could not be created"),
        }
    }
}

impl std::error::Error for SimError {}

fn check(rc: c_int) -> Result<(), SimError> {
    match rc {
        0 => Ok(()),
        -1 => Err(SimError::Timeout),
        -3 => Err(SimError::BadArg),
        _ => Err(SimError::Protocol),
    }
}

/// Data path width of a punt / inject model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    W64,
    W512,
}

impl Width {
    /// Bytes per beat.
    pub fn bytes(self) -> usize {
        match self {
            Width::W64 => 8,
            Width::W512 => 64,
        }
    }
    fn wide(self) -> c_int {
        c_int::from(self == Width::W512)
    }
}

// ---------------------------------------------------------------------------------------
// stats_counters

/// Counters of the test model (`COUNTERS` 256, `INPUTS` 4, `INC_WIDTH` 16).
pub const STATS_COUNTERS: usize = 256;
/// Increment inputs of the test model.
pub const STATS_INPUTS: usize = 4;
/// Cycles from a read request to its result.
pub const STATS_RD_LATENCY: u64 = 3;

/// A `stats_counters` model (COUNTERS 256, INPUTS 4), kept across batches.
pub struct Stats {
    h: NonNull<c_void>,
}

impl Stats {
    /// Resets the model with every counter at `init` and waits for the init sweep.
    pub fn new(init: u64) -> Result<Self, SimError> {
        // SAFETY: plain constructor; a null return is handled.
        let h = unsafe { ffi::tb_stats_new(init) };
        NonNull::new(h).map(|h| Stats { h }).ok_or(SimError::Create)
    }

    /// Cycles run so far (cycle numbers of the read results count from here).
    pub fn cycle(&self) -> u64 {
        // SAFETY: `h` is a live model owned by `self`.
        unsafe { ffi::tb_stats_cycle(self.h.as_ptr()) }
    }

    /// Drives one entry of `cycles` per clock cycle (then 4 idle cycles) and returns the
    /// read results in order, each with the cycle it was seen.
    pub fn run(&mut self, cycles: &[StatsCycle]) -> Result<Vec<StatsRead>, SimError> {
        let cap = cycles.len() + 4;
        let mut out = vec![StatsRead::default(); cap];
        let mut n = 0usize;
        // SAFETY: `cycles` and `out` are valid for their lengths; `h` is live.
        let rc = unsafe {
            ffi::tb_stats_run(
                self.h.as_ptr(),
                cycles.as_ptr(),
                cycles.len(),
                out.as_mut_ptr(),
                cap,
                &mut n,
            )
        };
        check(rc)?;
        out.truncate(n.min(cap));
        Ok(out)
    }
}

impl Drop for Stats {
    fn drop(&mut self) {
        // SAFETY: `h` came from `tb_stats_new` and is freed once.
        unsafe { ffi::tb_stats_free(self.h.as_ptr()) }
    }
}

// ---------------------------------------------------------------------------------------
// evt_queue

/// Producers of the test model (`PRODUCERS` 4, `EVT_WIDTH` 64, `DEPTH` 16).
pub const EVT_PRODUCERS: usize = 4;

/// Result of an event queue run.
#[derive(Debug, Clone, Default)]
pub struct EvtResult {
    /// Records popped by the firmware model, in order.
    pub popped: Vec<EvPop>,
    pub run: EvRun,
}

/// Runs a fresh `evt_queue` model: producer `p` offers `events[p]` in order (a new event
/// is offered with probability `offer_pct`% per cycle and held until accepted); the
/// firmware pops with probability `pop_pct`% per cycle.
pub fn evt_run(
    events: &[Vec<u64>; EVT_PRODUCERS],
    offer_pct: u32,
    pop_pct: u32,
    seed: u32,
) -> Result<EvtResult, SimError> {
    let mut counts = [0u32; EVT_PRODUCERS];
    let mut flat = Vec::new();
    for (c, e) in counts.iter_mut().zip(events) {
        *c = u32::try_from(e.len()).map_err(|_| SimError::BadArg)?;
        flat.extend_from_slice(e);
    }
    let cap = flat.len();
    let mut popped = vec![EvPop::default(); cap];
    let mut run = EvRun::default();
    let mut n = 0usize;
    // SAFETY: all buffers are valid for the given lengths (`counts` has 4 entries).
    let rc = unsafe {
        ffi::tb_evt_run(
            flat.as_ptr(),
            counts.as_ptr(),
            offer_pct,
            pop_pct,
            seed,
            popped.as_mut_ptr(),
            cap,
            &mut n,
            &mut run,
        )
    };
    check(rc)?;
    popped.truncate(n.min(cap));
    Ok(EvtResult { popped, run })
}

// ---------------------------------------------------------------------------------------
// pkt_punt_buf

/// Slots of the punt test models (`SLOTS` 8, `SLOT_BYTES` 2048, `META_WIDTH` the default: a punt
/// record, PuntMeta).
pub const PUNT_SLOTS: usize = 8;
/// Bytes per slot.
pub const SLOT_BYTES: usize = 2048;
/// `RESERVE` of [`PuntModel::Reserve64`]: slots low-priority frames may not take.
pub const PUNT_RESERVE: usize = 2;

/// Which Verilated `pkt_punt_buf` a punt run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuntModel {
    /// DATA_WIDTH 64, RESERVE 0 (`Vpunt64`).
    W64,
    /// DATA_WIDTH 512, RESERVE 0 (`Vpunt512`).
    W512,
    /// DATA_WIDTH 64, RESERVE [`PUNT_RESERVE`] (`Vpunt64r`).
    Reserve64,
}

impl PuntModel {
    /// The model's `RESERVE` parameter.
    pub fn reserve(self) -> usize {
        match self {
            PuntModel::W64 | PuntModel::W512 => 0,
            PuntModel::Reserve64 => PUNT_RESERVE,
        }
    }
    fn id(self) -> c_int {
        match self {
            PuntModel::W64 => 0,
            PuntModel::W512 => 1,
            PuntModel::Reserve64 => 2,
        }
    }
}

impl From<Width> for PuntModel {
    fn from(w: Width) -> Self {
        match w {
            Width::W64 => PuntModel::W64,
            Width::W512 => PuntModel::W512,
        }
    }
}

/// One frame offered to the punt buffer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PuntFrame {
    pub data: Vec<u8>,
    pub tuser: bool,
    pub meta: [u32; PuntMeta::WORDS],
    /// Idle cycles on the input before the frame.
    pub gap: u32,
    /// Low priority (`s_axis_tlow`): kept out of the model's last `RESERVE` slots.
    pub low: bool,
}

/// A frame as the firmware model read it from the punt buffer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PuntSlot {
    pub data: Vec<u8>,
    pub flag: bool,
    pub meta: [u32; PuntMeta::WORDS],
}

/// Result of a punt run.
#[derive(Debug, Clone, Default)]
pub struct PuntResult {
    /// Frames read by the firmware, in order.
    pub slots: Vec<PuntSlot>,
    /// Per input frame: the ring was full (prod - cons == SLOTS) at its first beat.
    pub full_at_start: Vec<bool>,
    /// Per input frame: slots in use (prod - cons) at its first beat.
    pub used_at_start: Vec<usize>,
    pub run: PuntRun,
}

/// Streams `frames` into a fresh punt buffer while a firmware model reads and frees the
/// oldest slot (starting a read with probability `consume_pct`% per idle cycle).
pub fn punt_run(
    width: Width,
    frames: &[PuntFrame],
    consume_pct: u32,
    seed: u32,
) -> Result<PuntResult, SimError> {
    punt_run_model(width.into(), frames, consume_pct, false, seed)
}

/// [`punt_run`] on any punt model; with `hold` the firmware model reads nothing until the
/// last frame has gone in (so the ring fills up deterministically), then drains it.
pub fn punt_run_model(
    model: PuntModel,
    frames: &[PuntFrame],
    consume_pct: u32,
    hold: bool,
    seed: u32,
) -> Result<PuntResult, SimError> {
    let mut bytes = Vec::new();
    let mut fr = Vec::with_capacity(frames.len());
    for f in frames {
        if f.data.is_empty() || f.data.len() > 16384 {
            return Err(SimError::BadArg);
        }
        bytes.extend_from_slice(&f.data);
        fr.push(ffi::PuntIn {
            len: u32::try_from(f.data.len()).map_err(|_| SimError::BadArg)?,
            tuser: u32::from(f.tuser),
            meta: f.meta,
            gap: f.gap,
            low: u32::from(f.low),
        });
    }
    let n = frames.len();
    let mut used = vec![0u8; n];
    let mut out = vec![ffi::PuntOut::default(); n];
    let mut obytes = vec![0u8; bytes.len()];
    let mut nout = 0usize;
    let mut run = PuntRun::default();
    // SAFETY: all buffers are valid for the given lengths.
    let rc = unsafe {
        ffi::tb_punt_run(
            model.id(),
            bytes.as_ptr(),
            fr.as_ptr(),
            n,
            consume_pct,
            u32::from(hold),
            seed,
            used.as_mut_ptr(),
            out.as_mut_ptr(),
            n,
            obytes.as_mut_ptr(),
            obytes.len(),
            &mut nout,
            &mut run,
        )
    };
    check(rc)?;
    let slots = out
        .iter()
        .take(nout.min(n))
        .map(|o| {
            let start = o.offset as usize;
            let end = start.saturating_add(o.len as usize).min(obytes.len());
            PuntSlot {
                data: obytes.get(start..end).unwrap_or_default().to_vec(),
                flag: o.flag != 0,
                meta: o.meta,
            }
        })
        .collect();
    Ok(PuntResult {
        slots,
        full_at_start: used.iter().map(|&u| usize::from(u) == PUNT_SLOTS).collect(),
        used_at_start: used.iter().map(|&u| usize::from(u)).collect(),
        run,
    })
}

// ---------------------------------------------------------------------------------------
// pkt_inject_buf

/// Slots of the inject test model (`SLOTS` 4, `SLOT_BYTES` 2048).
pub const INJ_SLOTS: usize = 4;

/// One frame the firmware model writes and commits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InjFrame {
    pub data: Vec<u8>,
    pub csum_ip: bool,
    pub csum_tcp: bool,
    pub ip_off: u16,
    pub l4_off: u16,
    pub l4_end: u16,
}

/// Result of an inject run.
#[derive(Debug, Clone, Default)]
pub struct InjResult {
    /// Frames seen on m_axis, in order.
    pub frames: Vec<Vec<u8>>,
    pub run: InjRun,
}

/// Writes and commits `frames` into a fresh inject buffer in batches of [`INJ_SLOTS`]
/// and collects the output (m_axis_tready high with probability `ready_pct`%). With
/// `hold`, m_axis_tready stays low after each batch's commits until the checksum passes
/// are done, so `busy_cycles` measures the output stage alone.
pub fn inj_run(
    width: Width,
    frames: &[InjFrame],
    ready_pct: u32,
    hold: bool,
    seed: u32,
) -> Result<InjResult, SimError> {
    let mut bytes = Vec::new();
    let mut fr = Vec::with_capacity(frames.len());
    for f in frames {
        if f.data.len() > SLOT_BYTES {
            return Err(SimError::BadArg);
        }
        bytes.extend_from_slice(&f.data);
        fr.push(ffi::InjIn {
            len: u32::try_from(f.data.len()).map_err(|_| SimError::BadArg)?,
            csum_ip: u32::from(f.csum_ip),
            csum_tcp: u32::from(f.csum_tcp),
            ip_off: u32::from(f.ip_off),
            l4_off: u32::from(f.l4_off),
            l4_end: u32::from(f.l4_end),
        });
    }
    let n = frames.len();
    let mut obytes = vec![0u8; bytes.len()];
    let mut olens = vec![0u32; n.max(1)];
    let mut nout = 0usize;
    let mut run = InjRun::default();
    // SAFETY: all buffers are valid for the given lengths (olens has >= n entries).
    let rc = unsafe {
        ffi::tb_inj_run(
            width.wide(),
            bytes.as_ptr(),
            fr.as_ptr(),
            n,
            ready_pct,
            u32::from(hold),
            seed,
            obytes.as_mut_ptr(),
            obytes.len(),
            olens.as_mut_ptr(),
            &mut nout,
            &mut run,
        )
    };
    check(rc)?;
    let mut frames_out = Vec::new();
    let mut off = 0usize;
    for &l in olens.iter().take(nout.min(n)) {
        let end = off.saturating_add(l as usize).min(obytes.len());
        frames_out.push(obytes.get(off..end).unwrap_or_default().to_vec());
        off = end;
    }
    Ok(InjResult {
        frames: frames_out,
        run,
    })
}
