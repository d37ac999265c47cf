//! Test bench of the flow lookup table (`flow_table`) and the flow state memory
//! (`flow_state_mem`): safe wrappers around the Verilated models (csrc/shim.cpp) and the
//! software reference models the tests compare them with ([`reference`]).

pub mod reference;

use splicenic_layout::{flow_op, FlowDyn};
use std::ffi::{c_int, c_void};
use std::ptr::NonNull;

pub use reference::{flow_hash, FlowEntry, Half, Key, RefTable};

mod ffi {
    use splicenic_layout::{FlowDyn, FlowStatic};
    use std::ffi::{c_int, c_void};

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FtRsp {
        pub status: u32,
        pub value: u32,
        pub dir: u32,
        pub bucket: u32,
        pub way: u32,
        pub cycles: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FtCmd {
        pub op: u32,
        pub key: [u32; 3],
        pub value: u32,
        pub dir: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FtRes {
        pub hit: u32,
        pub value: u32,
        pub dir: u32,
        pub bucket: u32,
        pub latency: u32,
        pub ver_lo: u32,
        pub ver_hi: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FtRun {
        pub cycles: u64,
        pub accept_span: u64,
        pub accepted: u64,
        pub stall_cycles: u64,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FsUpd {
        pub slot: u32,
        pub dir: u32,
        pub bytes: u32,
        pub time: u32,
        pub fin: u32,
        pub fin_end: u32,
        pub ack: u32,
        pub ack_x: u32,
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FsCmd {
        pub op: u32,
        pub slot: u32,
        pub at_update: u32,
        pub wstatic: [u32; FlowStatic::WORDS],
        pub wdyn: [u32; FlowDyn::WORDS],
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FsCmdRes {
        pub updates_before: u32,
        pub writes_before: u32,
        pub cycles: u32,
        pub rstatic: [u32; FlowStatic::WORDS],
        pub rdyn: [u32; FlowDyn::WORDS],
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FsRd {
        pub slot: u32,
        pub writes_seen: u32,
        pub latency: u32,
        pub data: [u32; FlowStatic::WORDS],
    }

    #[repr(C)]
    #[derive(Debug, Clone, Copy, Default)]
    pub struct FsRun {
        pub cycles: u64,
        pub upd_span: u64,
        pub upd_stalls: u64,
    }

    extern "C" {
        pub fn tb_ft_new(big: c_int) -> *mut c_void;
        pub fn tb_ft_free(h: *mut c_void);
        pub fn tb_ft_buckets(h: *const c_void) -> u32;
        pub fn tb_ft_stats(h: *mut c_void, out7: *mut u32);
        #[allow(clippy::too_many_arguments)]
        pub fn tb_ft_run(
            h: *mut c_void,
            keys: *const u32,
            n: usize,
            cmds: *const FtCmd,
            ncmds: usize,
            res: *mut FtRes,
            rsp: *mut FtRsp,
            bp_seed: u32,
            out: *mut FtRun,
        ) -> c_int;
        pub fn tb_fs_new(big: c_int) -> *mut c_void;
        pub fn tb_fs_free(h: *mut c_void);
        #[allow(clippy::too_many_arguments)]
        pub fn tb_fs_run(
            h: *mut c_void,
            upd: *const FsUpd,
            nupd: usize,
            rd_slots: *const u32,
            nrd: usize,
            cmds: *const FsCmd,
            ncmds: usize,
            rd: *mut FsRd,
            res: *mut FsCmdRes,
            out: *mut FsRun,
        ) -> c_int;
    }
}

/// Errors from a simulation batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimError {
    /// The model did not finish the batch within its cycle limit (a stall).
    Timeout,
    /// The model produced something the protocol forbids (result without request, a
    /// missing fixed-latency response), or the arguments were bad.
    Protocol,
    /// The model could not be created.
    Create,
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Timeout => write!(f, "simulation stalled (cycle limit reached)"),
            SimError::Protocol => write!(f, "protocol violation or bad arguments"),
            SimError::Create => write!(f, "model could not be created"),
        }
    }
}

impl std::error::Error for SimError {}

fn check(rc: c_int) -> Result<(), SimError> {
    match rc {
        0 => Ok(()),
        -1 => Err(SimError::Timeout),
        _ => Err(SimError::Protocol),
    }
}

/// Model size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Test size: flow_table 256 buckets x 4 ways, flow_state_mem 256 slots.
    Small,
    /// Default size: flow_table 16384 x 4 = 64K entries, flow_state_mem 64K slots.
    Default,
}

/// flow_table command opcodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Lookup = 0,
    Insert = 1,
    Delete = 2,
    Clear = 3,
}

/// flow_table command status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    Exists,
    BucketFull,
    NotFound,
}

impl Status {
    fn from_raw(v: u32) -> Status {
        match v & 3 {
            0 => Status::Ok,
            1 => Status::Exists,
            2 => Status::BucketFull,
            _ => Status::NotFound,
        }
    }
}

/// One command for the flow table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Command {
    pub op: Op,
    pub key: Key,
    pub value: u16,
    pub dir: bool,
}

impl Command {
    pub fn insert(key: Key, value: u16, dir: bool) -> Self {
        Command {
            op: Op::Insert,
            key,
            value,
            dir,
        }
    }
    pub fn delete(key: Key) -> Self {
        Command {
            op: Op::Delete,
            key,
            value: 0,
            dir: false,
        }
    }
    pub fn lookup(key: Key) -> Self {
        Command {
            op: Op::Lookup,
            key,
            value: 0,
            dir: false,
        }
    }
    pub fn clear() -> Self {
        Command {
            op: Op::Clear,
            key: Key::default(),
            value: 0,
            dir: false,
        }
    }
}

/// Response to a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Response {
    pub status: Status,
    pub value: u16,
    pub dir: bool,
    pub bucket: u32,
    pub way: u32,
    /// Cycles from command accept to the response pulse.
    pub cycles: u32,
}

/// Result of one data-path lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LookupResult {
    pub hit: bool,
    pub value: u16,
    pub dir: bool,
    pub bucket: u32,
    /// Cycles from key accept to result.
    pub latency: u32,
    /// Commands completed when the key was accepted / when the result came out: the
    /// lookup must see the table as it was after some count in `ver_lo..=ver_hi`.
    pub ver_lo: u32,
    pub ver_hi: u32,
}

/// Figures of one batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunStats {
    pub cycles: u64,
    /// Cycles from first to last lookup accept, inclusive.
    pub accept_span: u64,
    pub accepted: u64,
    pub stall_cycles: u64,
}

/// Counters of the flow table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TableStats {
    pub entries: u32,
    pub inserts: u32,
    pub deletes: u32,
    pub exists: u32,
    pub bucket_full: u32,
    pub not_found: u32,
    pub init_done: bool,
}

/// A Verilated `flow_table`.
pub struct FlowTable {
    h: NonNull<c_void>,
}

impl FlowTable {
    /// Build and reset the model (waits for the init sweep).
    pub fn new(size: Size) -> Result<Self, SimError> {
        // SAFETY: plain constructor; a null return is handled.
        let p = unsafe { ffi::tb_ft_new(c_int::from(size == Size::Default)) };
        NonNull::new(p)
            .map(|h| FlowTable { h })
            .ok_or(SimError::Create)
    }

    /// Number of buckets of this build.
    pub fn buckets(&self) -> u32 {
        // SAFETY: `h` is a live model handle owned by `self`.
        unsafe { ffi::tb_ft_buckets(self.h.as_ptr()) }
    }

    pub fn stats(&mut self) -> TableStats {
        let mut o = [0u32; 7];
        // SAFETY: `h` is live and `o` has the 7 words the shim writes.
        unsafe { ffi::tb_ft_stats(self.h.as_ptr(), o.as_mut_ptr()) };
        TableStats {
            entries: o[0],
            inserts: o[1],
            deletes: o[2],
            exists: o[3],
            bucket_full: o[4],
            not_found: o[5],
            init_done: o[6] != 0,
        }
    }

    /// One command, no lookups.
    pub fn command(&mut self, cmd: Command) -> Result<Response, SimError> {
        let (_, rsp, _) = self.run(&[], &[cmd], 0)?;
        rsp.into_iter().next().ok_or(SimError::Protocol)
    }

    /// Lookups back to back (a key offered every cycle) while the commands run one after
    /// the other; `bp_seed` != 0 adds random backpressure on the result port.
    pub fn run(
        &mut self,
        keys: &[Key],
        cmds: &[Command],
        bp_seed: u32,
    ) -> Result<(Vec<LookupResult>, Vec<Response>, RunStats), SimError> {
        let words: Vec<u32> = keys.iter().flat_map(|k| k.words()).collect();
        let fcmds: Vec<ffi::FtCmd> = cmds
            .iter()
            .map(|c| ffi::FtCmd {
                op: c.op as u32,
                key: c.key.words(),
                value: u32::from(c.value),
                dir: u32::from(c.dir),
            })
            .collect();
        let mut res = vec![ffi::FtRes::default(); keys.len()];
        let mut rsp = vec![ffi::FtRsp::default(); cmds.len()];
        let mut out = ffi::FtRun::default();
        // SAFETY: `h` is live; every pointer covers the element count passed with it, and
        // the output vectors are sized for one entry per key / command.
        let rc = unsafe {
            ffi::tb_ft_run(
                self.h.as_ptr(),
                words.as_ptr(),
                keys.len(),
                fcmds.as_ptr(),
                fcmds.len(),
                res.as_mut_ptr(),
                rsp.as_mut_ptr(),
                bp_seed,
                &mut out,
            )
        };
        check(rc)?;
        let res = res
            .iter()
            .map(|r| LookupResult {
                hit: r.hit != 0,
                value: r.value as u16,
                dir: r.dir != 0,
                bucket: r.bucket,
                latency: r.latency,
                ver_lo: r.ver_lo,
                ver_hi: r.ver_hi,
            })
            .collect();
        let rsp = rsp
            .iter()
            .map(|r| Response {
                status: Status::from_raw(r.status),
                value: r.value as u16,
                dir: r.dir != 0,
                bucket: r.bucket,
                way: r.way,
                cycles: r.cycles,
            })
            .collect();
        let stats = RunStats {
            cycles: out.cycles,
            accept_span: out.accept_span,
            accepted: out.accepted,
            stall_cycles: out.stall_cycles,
        };
        Ok((res, rsp, stats))
    }
}

impl Drop for FlowTable {
    fn drop(&mut self) {
        // SAFETY: `h` came from tb_ft_new and is freed once, here.
        unsafe { ffi::tb_ft_free(self.h.as_ptr()) };
    }
}

/// flow_state_mem command opcodes (enum FlowOp).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateOp {
    Read = flow_op::READ as isize,
    Write = flow_op::WRITE as isize,
    WriteStatic = flow_op::WRITE_STATIC as isize,
}

/// One data-path update (a packet of the flow).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Update {
    pub slot: u32,
    /// false: client->server, true: server->client.
    pub dir: bool,
    pub bytes: u16,
    pub time: u32,
    /// The segment carries FIN; `fin_end` is its sequence number after the FIN.
    pub fin: bool,
    pub fin_end: u32,
    /// The segment carries ACK; `ack_x` is its ack in the other side's numbers.
    pub ack: bool,
    pub ack_x: u32,
}

/// One firmware command, offered once `at_update` updates have been accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateCmd {
    pub op: StateOp,
    pub slot: u32,
    pub at_update: u32,
    pub entry: FlowEntry,
}

/// Response to a firmware command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateRsp {
    /// Updates accepted before the command was accepted.
    pub updates_before: u32,
    /// Static writes accepted before this command.
    pub writes_before: u32,
    pub cycles: u32,
    pub entry: FlowEntry,
}

/// One data-path read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateRead {
    pub slot: u32,
    /// Static writes accepted up to and including the read cycle.
    pub writes_seen: u32,
    pub latency: u32,
    /// Static part only (counters zero).
    pub entry: FlowEntry,
}

/// Figures of one flow_state_mem batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StateRunStats {
    pub cycles: u64,
    pub upd_span: u64,
    pub upd_stalls: u64,
}

/// A Verilated `flow_state_mem`.
pub struct FlowStateMem {
    h: NonNull<c_void>,
}

/// Everything a flow_state_mem batch returns.
pub type StateRunOutput = (Vec<StateRead>, Vec<StateRsp>, StateRunStats);

impl FlowStateMem {
    pub fn new(size: Size) -> Result<Self, SimError> {
        // SAFETY: plain constructor; a null return is handled.
        let p = unsafe { ffi::tb_fs_new(c_int::from(size == Size::Default)) };
        NonNull::new(p)
            .map(|h| FlowStateMem { h })
            .ok_or(SimError::Create)
    }

    /// One firmware command with nothing else running.
    pub fn command(
        &mut self,
        op: StateOp,
        slot: u32,
        entry: &FlowEntry,
    ) -> Result<StateRsp, SimError> {
        let cmd = StateCmd {
            op,
            slot,
            at_update: 0,
            entry: *entry,
        };
        let (_, rsp, _) = self.run(&[], &[], &[cmd])?;
        rsp.into_iter().next().ok_or(SimError::Protocol)
    }

    /// Updates offered every cycle, data-path reads every cycle, firmware commands as
    /// scheduled, all at once.
    pub fn run(
        &mut self,
        upds: &[Update],
        reads: &[u32],
        cmds: &[StateCmd],
    ) -> Result<StateRunOutput, SimError> {
        let fu: Vec<ffi::FsUpd> = upds
            .iter()
            .map(|u| ffi::FsUpd {
                slot: u.slot,
                dir: u32::from(u.dir),
                bytes: u32::from(u.bytes),
                time: u.time,
                fin: u32::from(u.fin),
                fin_end: u.fin_end,
                ack: u32::from(u.ack),
                ack_x: u.ack_x,
            })
            .collect();
        let fc: Vec<ffi::FsCmd> = cmds
            .iter()
            .map(|c| ffi::FsCmd {
                op: c.op as u32,
                slot: c.slot,
                at_update: c.at_update,
                wstatic: c.entry.static_words(),
                wdyn: c.entry.dyn_words(),
            })
            .collect();
        let mut rd = vec![ffi::FsRd::default(); reads.len()];
        let mut res = vec![ffi::FsCmdRes::default(); cmds.len()];
        let mut out = ffi::FsRun::default();
        // SAFETY: `h` is live; every pointer covers the element count passed with it, and
        // the output vectors are sized for one entry per read / command.
        let rc = unsafe {
            ffi::tb_fs_run(
                self.h.as_ptr(),
                fu.as_ptr(),
                fu.len(),
                reads.as_ptr(),
                reads.len(),
                fc.as_ptr(),
                fc.len(),
                rd.as_mut_ptr(),
                res.as_mut_ptr(),
                &mut out,
            )
        };
        check(rc)?;
        let rd = rd
            .iter()
            .map(|r| StateRead {
                slot: r.slot,
                writes_seen: r.writes_seen,
                latency: r.latency,
                entry: FlowEntry::from_words(&r.data, &[0; FlowDyn::WORDS]),
            })
            .collect();
        let res = res
            .iter()
            .map(|r| StateRsp {
                updates_before: r.updates_before,
                writes_before: r.writes_before,
                cycles: r.cycles,
                entry: FlowEntry::from_words(&r.rstatic, &r.rdyn),
            })
            .collect();
        let stats = StateRunStats {
            cycles: out.cycles,
            upd_span: out.upd_span,
            upd_stalls: out.upd_stalls,
        };
        Ok((rd, res, stats))
    }
}

impl Drop for FlowStateMem {
    fn drop(&mut self) {
        // SAFETY: `h` came from tb_fs_new and is freed once, here.
        unsafe { ffi::tb_fs_free(self.h.as_ptr()) };
    }
}
