#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    ctrl: Ctrl,
    punt_policy: PuntPolicy,
    now: Now,
    mac_c_lo: MacCLo,
    mac_c_hi: MacCHi,
    mac_s_lo: MacSLo,
    mac_s_hi: MacSHi,
    params: Params,
    max_frame: MaxFrame,
    flow_capacity: FlowCapacity,
    flow_slots: FlowSlots,
    oversize_c: OversizeC,
    oversize_s: OversizeS,
    rw_bypass_c: RwBypassC,
    rw_bypass_s: RwBypassS,
    rw_opt_err_c: RwOptErrC,
    rw_opt_err_s: RwOptErrS,
    upd_drops: UpdDrops,
    _reserved19: [u8; 0x04],
    syn_ctrl: SynCtrl,
    syn_mss: SynMss,
    cookie_key_lo: CookieKeyLo,
    cookie_key_hi: CookieKeyHi,
    cookie_key_wr: CookieKeyWr,
    syn_params: SynParams,
    ack_ctrl: AckCtrl,
    free_push: FreePush,
    free_ctrl: FreeCtrl,
    free_status: FreeStatus,
    ack_new: AckNew,
    ack_found: AckFound,
    ack_bad_cookie: AckBadCookie,
    ack_stale: AckStale,
    ack_no_slot: AckNoSlot,
    ack_table_full: AckTableFull,
    free_refused: FreeRefused,
    ack_lost: AckLost,
    sched_tbl_addr: SchedTblAddr,
    sched_tbl_data: SchedTblData,
    sched_mask_lo: SchedMaskLo,
    sched_mask_hi: SchedMaskHi,
    sched_mask_wr: SchedMaskWr,
    sched_range: SchedRange,
    sched_loop: SchedLoop,
    sched_commit: SchedCommit,
    sched_ptr: SchedPtr,
    sched_req_client: SchedReqClient,
    sched_req: SchedReq,
    sched_rsp: SchedRsp,
    sched_picks: SchedPicks,
    sched_nones: SchedNones,
    sched_punts: SchedPunts,
    _reserved52: [u8; 0x2c],
    vip_addr: (),
    _reserved53: [u8; 0x04],
    vip_port: (),
    _reserved54: [u8; 0x7c],
    local_addr: (),
    _reserved55: [u8; 0x04],
    local_ctrl: (),
    _reserved56: [u8; 0x3c],
    load_cfg: LoadCfg,
    load_upper: LoadUpper,
    load_lower: LoadLower,
    load_counts: LoadCounts,
    load_op: LoadOp,
    load_rsp: LoadRsp,
    load_pool: LoadPool,
    load_picks: LoadPicks,
    load_nones: LoadNones,
    load_punts: LoadPunts,
    load_underflows: LoadUnderflows,
    load_refused: LoadRefused,
    free_low: FreeLow,
    punt_high: PuntHigh,
    _reserved70: [u8; 0x08],
    trace_ctrl: TraceCtrl,
    trace_count: TraceCount,
    trace_lost: TraceLost,
    trace_rd_idx: TraceRdIdx,
    trace_rd_data: [TraceRdData; 4],
    setup_hist_idx: SetupHistIdx,
    setup_hist_data: SetupHistData,
    setup_timed: SetupTimed,
    setup_overwritten: SetupOverwritten,
    age_ctrl: AgeCtrl,
    age_limit: AgeLimit,
    age_head: AgeHead,
    age_pop: AgePop,
    age_timeout: [AgeTimeout; 12],
    age_status: AgeStatus,
    age_pos: AgePos,
    age_sweeps: AgeSweeps,
    age_expired: AgeExpired,
    age_client: AgeClient,
    age_freed: AgeFreed,
    _reserved90: [u8; 0x08],
    txgen_dst_mac_lo: TxgenDstMacLo,
    txgen_dst_mac_hi: TxgenDstMacHi,
    txgen_src_mac_lo: TxgenSrcMacLo,
    txgen_src_mac_hi: TxgenSrcMacHi,
    txgen_src_ip: TxgenSrcIp,
    txgen_dst_ip: TxgenDstIp,
    txgen_ports: TxgenPorts,
    txgen_seq: TxgenSeq,
    txgen_ack: TxgenAck,
    txgen_ctl: TxgenCtl,
    txgen_opts: TxgenOpts,
    txgen_tsval: TxgenTsval,
    txgen_tsecr: TxgenTsecr,
    txgen_go: TxgenGo,
    txgen_status: TxgenStatus,
    txgen_sent_c: TxgenSentC,
    txgen_sent_s: TxgenSentS,
    txgen_refused: TxgenRefused,
    fin_ctrl: FinCtrl,
    fin_count_idx: FinCountIdx,
    fin_count: FinCount,
    head_alloc: HeadAlloc,
    head_free: HeadFree,
    head_append: HeadAppend,
    head_data: HeadData,
    head_replay: HeadReplay,
    head_status: HeadStatus,
    head_sent: HeadSent,
    head_long: HeadLong,
    head_bad: HeadBad,
    head_copy: HeadCopy,
    absorb_ctrl: AbsorbCtrl,
    absorb_done: AbsorbDone,
    absorb_punted: AbsorbPunted,
    absorb_disarm: AbsorbDisarm,
    absorb_status: AbsorbStatus,
    absorb_head: AbsorbHead,
    absorb_pop: AbsorbPop,
    absorb_spilled: AbsorbSpilled,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Data-path control"]
    #[inline(always)]
    pub const fn ctrl(&self) -> &Ctrl {
        &self.ctrl
    }
    #[doc = "0x08 - What happens to frames that are not virtual-service or server-side TCP: 1 punts to the firmware, 0 drops"]
    #[inline(always)]
    pub const fn punt_policy(&self) -> &PuntPolicy {
        &self.punt_policy
    }
    #[doc = "0x0c - Data-path time: cycle counter bits 47:16 (the time stamp of flow entries, punt records and events)"]
    #[inline(always)]
    pub const fn now(&self) -> &Now {
        &self.now
    }
    #[doc = "0x10 - Client-port MAC address bits 31:0 (the MAC as a 48-bit number: bits 47:40 are the first byte on the wire)"]
    #[inline(always)]
    pub const fn mac_c_lo(&self) -> &MacCLo {
        &self.mac_c_lo
    }
    #[doc = "0x14 - Client-port MAC address bits 47:32 in 15:0"]
    #[inline(always)]
    pub const fn mac_c_hi(&self) -> &MacCHi {
        &self.mac_c_hi
    }
    #[doc = "0x18 - Server-port MAC address bits 31:0 (the MAC as a 48-bit number: bits 47:40 are the first byte on the wire)"]
    #[inline(always)]
    pub const fn mac_s_lo(&self) -> &MacSLo {
        &self.mac_s_lo
    }
    #[doc = "0x1c - Server-port MAC address bits 47:32 in 15:0"]
    #[inline(always)]
    pub const fn mac_s_hi(&self) -> &MacSHi {
        &self.mac_s_hi
    }
    #[doc = "0x20 - Data-path build parameters"]
    #[inline(always)]
    pub const fn params(&self) -> &Params {
        &self.params
    }
    #[doc = "0x24 - Longest frame in bytes; longer frames are cut by the length guard and dropped as malformed"]
    #[inline(always)]
    pub const fn max_frame(&self) -> &MaxFrame {
        &self.max_frame
    }
    #[doc = "0x28 - Number of flow table entries"]
    #[inline(always)]
    pub const fn flow_capacity(&self) -> &FlowCapacity {
        &self.flow_capacity
    }
    #[doc = "0x2c - Number of flow state slots"]
    #[inline(always)]
    pub const fn flow_slots(&self) -> &FlowSlots {
        &self.flow_slots
    }
    #[doc = "0x30 - Frames on the client port cut by the length guard"]
    #[inline(always)]
    pub const fn oversize_c(&self) -> &OversizeC {
        &self.oversize_c
    }
    #[doc = "0x34 - Frames on the server port cut by the length guard"]
    #[inline(always)]
    pub const fn oversize_s(&self) -> &OversizeS {
        &self.oversize_s
    }
    #[doc = "0x38 - Frames the client-to-server rewriter passed unchanged (unusable header offsets)"]
    #[inline(always)]
    pub const fn rw_bypass_c(&self) -> &RwBypassC {
        &self.rw_bypass_c
    }
    #[doc = "0x3c - Frames the server-to-client rewriter passed unchanged (unusable header offsets)"]
    #[inline(always)]
    pub const fn rw_bypass_s(&self) -> &RwBypassS {
        &self.rw_bypass_s
    }
    #[doc = "0x40 - Frames whose TCP option list the client-to-server rewriter could not walk to the end"]
    #[inline(always)]
    pub const fn rw_opt_err_c(&self) -> &RwOptErrC {
        &self.rw_opt_err_c
    }
    #[doc = "0x44 - Frames whose TCP option list the server-to-client rewriter could not walk to the end"]
    #[inline(always)]
    pub const fn rw_opt_err_s(&self) -> &RwOptErrS {
        &self.rw_opt_err_s
    }
    #[doc = "0x48 - Flow counter and last-seen updates lost"]
    #[inline(always)]
    pub const fn upd_drops(&self) -> &UpdDrops {
        &self.upd_drops
    }
    #[doc = "0x50 - Hardware SYN responder (docs/synresp.md): which virtual services it answers, what it offers, and the cookie key epoch"]
    #[inline(always)]
    pub const fn syn_ctrl(&self) -> &SynCtrl {
        &self.syn_ctrl
    }
    #[doc = "0x54 - MSS the hardware SYN responder announces to clients"]
    #[inline(always)]
    pub const fn syn_mss(&self) -> &SynMss {
        &self.syn_mss
    }
    #[doc = "0x58 - Cookie key bits 31:0 (k0), staged for COOKIE_KEY_WR; reads 0"]
    #[inline(always)]
    pub const fn cookie_key_lo(&self) -> &CookieKeyLo {
        &self.cookie_key_lo
    }
    #[doc = "0x5c - Cookie key bits 63:32 (k1), staged for COOKIE_KEY_WR; reads 0"]
    #[inline(always)]
    pub const fn cookie_key_hi(&self) -> &CookieKeyHi {
        &self.cookie_key_hi
    }
    #[doc = "0x60 - Writing it loads the staged key into a key slot of every cookie unit; keys cannot be read back"]
    #[inline(always)]
    pub const fn cookie_key_wr(&self) -> &CookieKeyWr {
        &self.cookie_key_wr
    }
    #[doc = "0x64 - Hardware SYN responder build parameters"]
    #[inline(always)]
    pub const fn syn_params(&self) -> &SynParams {
        &self.syn_params
    }
    #[doc = "0x68 - Hardware ACK validator (docs/engine.md)"]
    #[inline(always)]
    pub const fn ack_ctrl(&self) -> &AckCtrl {
        &self.ack_ctrl
    }
    #[doc = "0x6c - Push a free slot to the engine's free list (a push to a full list is refused and counted in FREE_REFUSED)"]
    #[inline(always)]
    pub const fn free_push(&self) -> &FreePush {
        &self.free_push
    }
    #[doc = "0x70 - Free-list control"]
    #[inline(always)]
    pub const fn free_ctrl(&self) -> &FreeCtrl {
        &self.free_ctrl
    }
    #[doc = "0x74 - Free-list state"]
    #[inline(always)]
    pub const fn free_status(&self) -> &FreeStatus {
        &self.free_status
    }
    #[doc = "0x78 - Candidate ACKs that checked and got a new slot (verdict NEW)"]
    #[inline(always)]
    pub const fn ack_new(&self) -> &AckNew {
        &self.ack_new
    }
    #[doc = "0x7c - Candidate ACKs that checked and found their key inserted (verdict FOUND)"]
    #[inline(always)]
    pub const fn ack_found(&self) -> &AckFound {
        &self.ack_found
    }
    #[doc = "0x80 - Candidate ACKs whose cookie did not check (verdict BAD_COOKIE)"]
    #[inline(always)]
    pub const fn ack_bad_cookie(&self) -> &AckBadCookie {
        &self.ack_bad_cookie
    }
    #[doc = "0x84 - Candidate ACKs whose cookie named an expired key slot (verdict STALE)"]
    #[inline(always)]
    pub const fn ack_stale(&self) -> &AckStale {
        &self.ack_stale
    }
    #[doc = "0x88 - Candidate ACKs that checked with the free list empty (verdict NO_SLOT)"]
    #[inline(always)]
    pub const fn ack_no_slot(&self) -> &AckNoSlot {
        &self.ack_no_slot
    }
    #[doc = "0x8c - Candidate ACKs that checked with their flow-table bucket full (verdict TABLE_FULL)"]
    #[inline(always)]
    pub const fn ack_table_full(&self) -> &AckTableFull {
        &self.ack_table_full
    }
    #[doc = "0x90 - FREE_PUSH writes refused (the list was full or being flushed)"]
    #[inline(always)]
    pub const fn free_refused(&self) -> &FreeRefused {
        &self.free_refused
    }
    #[doc = "0x94 - Candidates the validator could not take (always 0 by construction; a nonzero value is a design fault)"]
    #[inline(always)]
    pub const fn ack_lost(&self) -> &AckLost {
        &self.ack_lost
    }
    #[doc = "0x98 - Decision supply (sched_unit, docs/sched-unit.md): the table entry SCHED_TBL_DATA writes next"]
    #[inline(always)]
    pub const fn sched_tbl_addr(&self) -> &SchedTblAddr {
        &self.sched_tbl_addr
    }
    #[doc = "0x9c - Write a decision-table entry at SCHED_TBL_ADDR, then advance SCHED_TBL_ADDR by one"]
    #[inline(always)]
    pub const fn sched_tbl_data(&self) -> &SchedTblData {
        &self.sched_tbl_data
    }
    #[doc = "0xa0 - Eligibility mask staged for SCHED_MASK_WR: servers 0-31 (bit = server id)"]
    #[inline(always)]
    pub const fn sched_mask_lo(&self) -> &SchedMaskLo {
        &self.sched_mask_lo
    }
    #[doc = "0xa4 - Eligibility mask staged for SCHED_MASK_WR: servers 32-63"]
    #[inline(always)]
    pub const fn sched_mask_hi(&self) -> &SchedMaskHi {
        &self.sched_mask_hi
    }
    #[doc = "0xa8 - Set a pool's eligibility mask to SCHED_MASK_HI:SCHED_MASK_LO"]
    #[inline(always)]
    pub const fn sched_mask_wr(&self) -> &SchedMaskWr {
        &self.sched_mask_wr
    }
    #[doc = "0xac - Descriptor staged for SCHED_COMMIT: table region"]
    #[inline(always)]
    pub const fn sched_range(&self) -> &SchedRange {
        &self.sched_range
    }
    #[doc = "0xb0 - Descriptor staged for SCHED_COMMIT: cycle loop and pointer"]
    #[inline(always)]
    pub const fn sched_loop(&self) -> &SchedLoop {
        &self.sched_loop
    }
    #[doc = "0xb4 - Commit a pool's descriptor (SCHED_RANGE, SCHED_LOOP and these fields) at once"]
    #[inline(always)]
    pub const fn sched_commit(&self) -> &SchedCommit {
        &self.sched_commit
    }
    #[doc = "0xb8 - Write: the pool whose cycle pointer reads back here; read: that pointer"]
    #[inline(always)]
    pub const fn sched_ptr(&self) -> &SchedPtr {
        &self.sched_ptr
    }
    #[doc = "0xbc - Client IPv4 address of the next SCHED_REQ"]
    #[inline(always)]
    pub const fn sched_req_client(&self) -> &SchedReqClient {
        &self.sched_req_client
    }
    #[doc = "0xc0 - Ask the decision supply for a pool's server; SCHED_RSP shows the answer to the last request written (a sequence bit travels with each request, so a late answer to an earlier one is not shown)"]
    #[inline(always)]
    pub const fn sched_req(&self) -> &SchedReq {
        &self.sched_req
    }
    #[doc = "0xc4 - The answer to the last SCHED_REQ"]
    #[inline(always)]
    pub const fn sched_rsp(&self) -> &SchedRsp {
        &self.sched_rsp
    }
    #[doc = "0xc8 - Decision-supply answers PICK"]
    #[inline(always)]
    pub const fn sched_picks(&self) -> &SchedPicks {
        &self.sched_picks
    }
    #[doc = "0xcc - Decision-supply answers NONE"]
    #[inline(always)]
    pub const fn sched_nones(&self) -> &SchedNones {
        &self.sched_nones
    }
    #[doc = "0xd0 - Decision-supply answers PUNT"]
    #[inline(always)]
    pub const fn sched_punts(&self) -> &SchedPunts {
        &self.sched_punts
    }
    #[doc = "0x100..0x120 - Virtual service IPv4 address (host order)"]
    #[inline(always)]
    pub const fn vip_addr(&self, n: usize) -> &VipAddr {
        #[allow(clippy::no_effect)]
        [(); 8][n];
        unsafe {
            &*core::ptr::from_ref(self)
                .cast::<u8>()
                .add(256)
                .add(8 * n)
                .cast()
        }
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x100..0x120 - Virtual service IPv4 address (host order)"]
    #[inline(always)]
    pub fn vip_addr_iter(&self) -> impl Iterator<Item = &VipAddr> {
        (0..8).map(move |n| unsafe {
            &*core::ptr::from_ref(self)
                .cast::<u8>()
                .add(256)
                .add(8 * n)
                .cast()
        })
    }
    #[doc = "0x104..0x124 - Virtual service TCP port and enable"]
    #[inline(always)]
    pub const fn vip_port(&self, n: usize) -> &VipPort {
        #[allow(clippy::no_effect)]
        [(); 8][n];
        unsafe {
            &*core::ptr::from_ref(self)
                .cast::<u8>()
                .add(260)
                .add(8 * n)
                .cast()
        }
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x104..0x124 - Virtual service TCP port and enable"]
    #[inline(always)]
    pub fn vip_port_iter(&self) -> impl Iterator<Item = &VipPort> {
        (0..8).map(move |n| unsafe {
            &*core::ptr::from_ref(self)
                .cast::<u8>()
                .add(260)
                .add(8 * n)
                .cast()
        })
    }
    #[doc = "0x180..0x190 - Card-owned server-side IPv4 address (host order): the source of server connections"]
    #[inline(always)]
    pub const fn local_addr(&self, n: usize) -> &LocalAddr {
        #[allow(clippy::no_effect)]
        [(); 4][n];
        unsafe {
            &*core::ptr::from_ref(self)
                .cast::<u8>()
                .add(384)
                .add(8 * n)
                .cast()
        }
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x180..0x190 - Card-owned server-side IPv4 address (host order): the source of server connections"]
    #[inline(always)]
    pub fn local_addr_iter(&self) -> impl Iterator<Item = &LocalAddr> {
        (0..4).map(move |n| unsafe {
            &*core::ptr::from_ref(self)
                .cast::<u8>()
                .add(384)
                .add(8 * n)
                .cast()
        })
    }
    #[doc = "0x184..0x194 - Card-owned server-side address enable"]
    #[inline(always)]
    pub const fn local_ctrl(&self, n: usize) -> &LocalCtrl {
        #[allow(clippy::no_effect)]
        [(); 4][n];
        unsafe {
            &*core::ptr::from_ref(self)
                .cast::<u8>()
                .add(388)
                .add(8 * n)
                .cast()
        }
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x184..0x194 - Card-owned server-side address enable"]
    #[inline(always)]
    pub fn local_ctrl_iter(&self) -> impl Iterator<Item = &LocalCtrl> {
        (0..4).map(move |n| unsafe {
            &*core::ptr::from_ref(self)
                .cast::<u8>()
                .add(388)
                .add(8 * n)
                .cast()
        })
    }
    #[doc = "0x1c0 - Least-load decision supply (load_sched, docs/load-sched.md): server configuration staged for a CONFIG operation"]
    #[inline(always)]
    pub const fn load_cfg(&self) -> &LoadCfg {
        &self.load_cfg
    }
    #[doc = "0x1c4 - Upper connection threshold staged for CONFIG (0 none; larger than LOAD_THRESHOLD_MAX written as it)"]
    #[inline(always)]
    pub const fn load_upper(&self) -> &LoadUpper {
        &self.load_upper
    }
    #[doc = "0x1c8 - Lower connection threshold staged for CONFIG (0: three quarters of the upper one)"]
    #[inline(always)]
    pub const fn load_lower(&self) -> &LoadLower {
        &self.load_lower
    }
    #[doc = "0x1cc - Write: the counts a COUNTS operation sets; read: the counts of the last READ answer"]
    #[inline(always)]
    pub const fn load_counts(&self) -> &LoadCounts {
        &self.load_counts
    }
    #[doc = "0x1d0 - Start an operation (LoadOp) with the staged values; refused and counted in LOAD_REFUSED while LOAD_RSP.BUSY"]
    #[inline(always)]
    pub const fn load_op(&self) -> &LoadOp {
        &self.load_op
    }
    #[doc = "0x1d4 - State of the last operation and the answer to the last PICK or READ"]
    #[inline(always)]
    pub const fn load_rsp(&self) -> &LoadRsp {
        &self.load_rsp
    }
    #[doc = "0x1d8 - Set a pool's least-load descriptor"]
    #[inline(always)]
    pub const fn load_pool(&self) -> &LoadPool {
        &self.load_pool
    }
    #[doc = "0x1dc - Least-load answers PICK"]
    #[inline(always)]
    pub const fn load_picks(&self) -> &LoadPicks {
        &self.load_picks
    }
    #[doc = "0x1e0 - Least-load answers NONE"]
    #[inline(always)]
    pub const fn load_nones(&self) -> &LoadNones {
        &self.load_nones
    }
    #[doc = "0x1e4 - Least-load answers PUNT (the pool is OFF)"]
    #[inline(always)]
    pub const fn load_punts(&self) -> &LoadPunts {
        &self.load_punts
    }
    #[doc = "0x1e8 - Least-load operations that found their count at 0"]
    #[inline(always)]
    pub const fn load_underflows(&self) -> &LoadUnderflows {
        &self.load_underflows
    }
    #[doc = "0x1ec - LOAD_OP writes refused while busy"]
    #[inline(always)]
    pub const fn load_refused(&self) -> &LoadRefused {
        &self.load_refused
    }
    #[doc = "0x1f0 - High-water mark of the slots the ACK validator took: the lowest level of its free list since the last write here (a write restarts the mark at the current level and arms it)"]
    #[inline(always)]
    pub const fn free_low(&self) -> &FreeLow {
        &self.free_low
    }
    #[doc = "0x1f4 - High-water mark of the exception queue: the most frames waiting in the punt ring since reset or the last write here (a write restarts it at the current count)"]
    #[inline(always)]
    pub const fn punt_high(&self) -> &PuntHigh {
        &self.punt_high
    }
    #[doc = "0x200 - Engine trace ring control (docs/engine.md, \"Trace ring\")"]
    #[inline(always)]
    pub const fn trace_ctrl(&self) -> &TraceCtrl {
        &self.trace_ctrl
    }
    #[doc = "0x204 - Entries written to the trace ring since reset (wraps at 2^32); the entry written n-th is at ring index n mod depth, and the ring holds the last depth of them"]
    #[inline(always)]
    pub const fn trace_count(&self) -> &TraceCount {
        &self.trace_count
    }
    #[doc = "0x208 - Decisions not recorded while ENABLE was set: another of the same source was still waiting for the ring's write port"]
    #[inline(always)]
    pub const fn trace_lost(&self) -> &TraceLost {
        &self.trace_lost
    }
    #[doc = "0x20c - Ring index of the entry TRACE_RD_DATA shows (write; the words are ready for the next register access)"]
    #[inline(always)]
    pub const fn trace_rd_idx(&self) -> &TraceRdIdx {
        &self.trace_rd_idx
    }
    #[doc = "0x210..0x220 - Word n of the TraceEntry at TRACE_RD_IDX"]
    #[inline(always)]
    pub const fn trace_rd_data(&self, n: usize) -> &TraceRdData {
        &self.trace_rd_data[n]
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x210..0x220 - Word n of the TraceEntry at TRACE_RD_IDX"]
    #[inline(always)]
    pub fn trace_rd_data_iter(&self) -> impl Iterator<Item = &TraceRdData> {
        self.trace_rd_data.iter()
    }
    #[doc = "0x220 - Bucket of the setup-latency histogram SETUP_HIST_DATA shows (write; ready for the next register access)"]
    #[inline(always)]
    pub const fn setup_hist_idx(&self) -> &SetupHistIdx {
        &self.setup_hist_idx
    }
    #[doc = "0x224 - Setups counted in the bucket at SETUP_HIST_IDX since power-up: from the flow-state write that puts a slot in HANDSHAKE (or in REQUEST or CONNECTING when its clock has not started) to the first that puts it in SPLICED (docs/engine.md, \"Setup latency\")"]
    #[inline(always)]
    pub const fn setup_hist_data(&self) -> &SetupHistData {
        &self.setup_hist_data
    }
    #[doc = "0x228 - Setups timed since power-up (the histogram's total)"]
    #[inline(always)]
    pub const fn setup_timed(&self) -> &SetupTimed {
        &self.setup_timed
    }
    #[doc = "0x22c - Setups not timed: the start of another slot with the same low 9 bits replaced the slot's start before it was SPLICED or freed"]
    #[inline(always)]
    pub const fn setup_overwritten(&self) -> &SetupOverwritten {
        &self.setup_overwritten
    }
    #[doc = "0x230 - Aging scanner control (docs/aging.md, \"The scanner\"): it reads one flow slot's entry every INTERVAL cycles, slots 0 to AGE_LIMIT - 1 in turn, and queues each expired slot in AGE_HEAD"]
    #[inline(always)]
    pub const fn age_ctrl(&self) -> &AgeCtrl {
        &self.age_ctrl
    }
    #[doc = "0x234 - Slots the scanner walks: 0 to AGE_LIMIT - 1 (reset and any value of 0 or above FLOW_SLOTS: FLOW_SLOTS)"]
    #[inline(always)]
    pub const fn age_limit(&self) -> &AgeLimit {
        &self.age_limit
    }
    #[doc = "0x238 - The oldest expired slot the scanner queued; AGE_POP removes it"]
    #[inline(always)]
    pub const fn age_head(&self) -> &AgeHead {
        &self.age_head
    }
    #[doc = "0x23c - Any write removes the head of the expired-slot queue (nothing when it is empty)"]
    #[inline(always)]
    pub const fn age_pop(&self) -> &AgePop {
        &self.age_pop
    }
    #[doc = "0x240..0x270 - Timeout of class n (enum TimeoutClass, TIMEOUT_CLASSES entries) in DP.NOW ticks, as the scanner compares it with a slot's idle time"]
    #[inline(always)]
    pub const fn age_timeout(&self, n: usize) -> &AgeTimeout {
        &self.age_timeout[n]
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x240..0x270 - Timeout of class n (enum TimeoutClass, TIMEOUT_CLASSES entries) in DP.NOW ticks, as the scanner compares it with a slot's idle time"]
    #[inline(always)]
    pub fn age_timeout_iter(&self) -> impl Iterator<Item = &AgeTimeout> {
        self.age_timeout.iter()
    }
    #[doc = "0x270 - Aging scanner state"]
    #[inline(always)]
    pub const fn age_status(&self) -> &AgeStatus {
        &self.age_status
    }
    #[doc = "0x274 - The slot the scanner reads next"]
    #[inline(always)]
    pub const fn age_pos(&self) -> &AgePos {
        &self.age_pos
    }
    #[doc = "0x278 - Walks of all AGE_LIMIT slots completed since reset"]
    #[inline(always)]
    pub const fn age_sweeps(&self) -> &AgeSweeps {
        &self.age_sweeps
    }
    #[doc = "0x27c - Expired slots queued since reset (a slot still expired at the next walk is queued again)"]
    #[inline(always)]
    pub const fn age_expired(&self) -> &AgeExpired {
        &self.age_expired
    }
    #[doc = "0x280 - FREED only: the client's IPv4 address (host order) of the freed entry at AGE_HEAD (0 otherwise)"]
    #[inline(always)]
    pub const fn age_client(&self) -> &AgeClient {
        &self.age_client
    }
    #[doc = "0x284 - Slots the scanner freed itself since reset (AGE_CTRL.FREE)"]
    #[inline(always)]
    pub const fn age_freed(&self) -> &AgeFreed {
        &self.age_freed
    }
    #[doc = "0x290 - Frame generator (tcp_tx_gen), staged request: destination MAC bits 31:0"]
    #[inline(always)]
    pub const fn txgen_dst_mac_lo(&self) -> &TxgenDstMacLo {
        &self.txgen_dst_mac_lo
    }
    #[doc = "0x294 - Frame generator: destination MAC bits 47:32"]
    #[inline(always)]
    pub const fn txgen_dst_mac_hi(&self) -> &TxgenDstMacHi {
        &self.txgen_dst_mac_hi
    }
    #[doc = "0x298 - Frame generator: source MAC bits 31:0"]
    #[inline(always)]
    pub const fn txgen_src_mac_lo(&self) -> &TxgenSrcMacLo {
        &self.txgen_src_mac_lo
    }
    #[doc = "0x29c - Frame generator: source MAC bits 47:32"]
    #[inline(always)]
    pub const fn txgen_src_mac_hi(&self) -> &TxgenSrcMacHi {
        &self.txgen_src_mac_hi
    }
    #[doc = "0x2a0 - Frame generator: source IPv4 address (host order)"]
    #[inline(always)]
    pub const fn txgen_src_ip(&self) -> &TxgenSrcIp {
        &self.txgen_src_ip
    }
    #[doc = "0x2a4 - Frame generator: destination IPv4 address (host order)"]
    #[inline(always)]
    pub const fn txgen_dst_ip(&self) -> &TxgenDstIp {
        &self.txgen_dst_ip
    }
    #[doc = "0x2a8 - Frame generator: TCP ports"]
    #[inline(always)]
    pub const fn txgen_ports(&self) -> &TxgenPorts {
        &self.txgen_ports
    }
    #[doc = "0x2ac - Frame generator: sequence number"]
    #[inline(always)]
    pub const fn txgen_seq(&self) -> &TxgenSeq {
        &self.txgen_seq
    }
    #[doc = "0x2b0 - Frame generator: acknowledgment number"]
    #[inline(always)]
    pub const fn txgen_ack(&self) -> &TxgenAck {
        &self.txgen_ack
    }
    #[doc = "0x2b4 - Frame generator: TCP flags and window"]
    #[inline(always)]
    pub const fn txgen_ctl(&self) -> &TxgenCtl {
        &self.txgen_ctl
    }
    #[doc = "0x2b8 - Frame generator: options (docs/server-open.md): the SYN form MSS, SACK_PERM/NOP NOP, TS, NOP WS; the ACK form NOP NOP TS or none"]
    #[inline(always)]
    pub const fn txgen_opts(&self) -> &TxgenOpts {
        &self.txgen_opts
    }
    #[doc = "0x2bc - Frame generator: timestamp value (TS)"]
    #[inline(always)]
    pub const fn txgen_tsval(&self) -> &TxgenTsval {
        &self.txgen_tsval
    }
    #[doc = "0x2c0 - Frame generator: timestamp echo reply (TS)"]
    #[inline(always)]
    pub const fn txgen_tsecr(&self) -> &TxgenTsecr {
        &self.txgen_tsecr
    }
    #[doc = "0x2c4 - Send the staged request's frame out of a port; refused and counted in TXGEN_REFUSED while TXGEN_STATUS.BUSY (the staged registers must not be written then)"]
    #[inline(always)]
    pub const fn txgen_go(&self) -> &TxgenGo {
        &self.txgen_go
    }
    #[doc = "0x2c8 - Frame generator state"]
    #[inline(always)]
    pub const fn txgen_status(&self) -> &TxgenStatus {
        &self.txgen_status
    }
    #[doc = "0x2cc - Frames the generator sent out of the client port since reset (last beat taken)"]
    #[inline(always)]
    pub const fn txgen_sent_c(&self) -> &TxgenSentC {
        &self.txgen_sent_c
    }
    #[doc = "0x2d0 - Frames the generator sent out of the server port since reset (last beat taken)"]
    #[inline(always)]
    pub const fn txgen_sent_s(&self) -> &TxgenSentS {
        &self.txgen_sent_s
    }
    #[doc = "0x2d4 - TXGEN_GO writes refused since reset (TXGEN_STATUS.BUSY)"]
    #[inline(always)]
    pub const fn txgen_refused(&self) -> &TxgenRefused {
        &self.txgen_refused
    }
    #[doc = "0x2d8 - The spliced flows' FINs (docs/engine.md, \"Teardown\"): the FIN_RST events and the per-server counts of first FINs"]
    #[inline(always)]
    pub const fn fin_ctrl(&self) -> &FinCtrl {
        &self.fin_ctrl
    }
    #[doc = "0x2dc - The real server FIN_COUNT reads (an entry's FlowStatic.real_server, below REAL_SERVERS)"]
    #[inline(always)]
    pub const fn fin_count_idx(&self) -> &FinCountIdx {
        &self.fin_count_idx
    }
    #[doc = "0x2e0 - Flows of real server FIN_COUNT_IDX.RS whose first FIN (from either side) the fast path forwarded while the flow's static entry had the ACTIVE flag, since power-up (a reset does not clear them: the firmware takes differences), modulo 2^32: the connections that left ESTABLISHED by a FIN (IPVS's active to inactive), counted by the card (valid two cycles after an FIN_COUNT_IDX write; 0 for an index at or past REAL_SERVERS)"]
    #[inline(always)]
    pub const fn fin_count(&self) -> &FinCount {
        &self.fin_count
    }
    #[doc = "0x2e4 - Request-head buffers (head_buf, docs/head-buf.md, \"In the data path\"): a read takes the buffer the data path holds ready from head_buf's free list (VALID set; the next is fetched at once) or reports none free (VALID clear, nothing taken)"]
    #[inline(always)]
    pub const fn head_alloc(&self) -> &HeadAlloc {
        &self.head_alloc
    }
    #[doc = "0x2e8 - Give a request-head buffer back to the free list (one not in use is refused and counted in HEAD_BAD); a buffer handed to HEAD_REPLAY comes back by itself"]
    #[inline(always)]
    pub const fn head_free(&self) -> &HeadFree {
        &self.head_free
    }
    #[doc = "0x2ec - Start a segment of request bytes for a buffer: its position in the head and its length; the bytes follow in ceil(LEN / 4) HEAD_DATA writes (a HEAD_APPEND before they are all written is refused and counted in HEAD_BAD; the words still go to the open segment). head_buf stores the bytes that extend the stored head contiguously, at most HEAD_BUFFER_BYTES"]
    #[inline(always)]
    pub const fn head_append(&self) -> &HeadAppend {
        &self.head_append
    }
    #[doc = "0x2f0 - The next four bytes of the segment HEAD_APPEND started, the first in bits 7:0 (bytes past LEN in the last word are ignored; a write with no segment open is counted in HEAD_BAD)"]
    #[inline(always)]
    pub const fn head_data(&self) -> &HeadData {
        &self.head_data
    }
    #[doc = "0x2f4 - Send a buffer's head to the server port behind the handshake ACK staged in DP.TXGEN_* (its ACK form: addresses, ports, seq, ack, flags, window, timestamps; the TCP checksum from the buffer's running sum, PSH added when the head is not empty) and give the buffer back once read; a head longer than MAX_LEN sends nothing (HEAD_LONG; the buffer still comes back). Refused and counted in TXGEN_REFUSED while TXGEN_STATUS.BUSY, which covers the replay until it has taken the staged registers"]
    #[inline(always)]
    pub const fn head_replay(&self) -> &HeadReplay {
        &self.head_replay
    }
    #[doc = "0x2f8 - Request-head buffers: the last segment's result and the occupancy; a write restarts IN_USE_MAX at the current IN_USE"]
    #[inline(always)]
    pub const fn head_status(&self) -> &HeadStatus {
        &self.head_status
    }
    #[doc = "0x2fc - Heads sent to the server port by HEAD_REPLAY since reset"]
    #[inline(always)]
    pub const fn head_sent(&self) -> &HeadSent {
        &self.head_sent
    }
    #[doc = "0x300 - HEAD_REPLAY requests whose head was longer than MAX_LEN (nothing sent) since reset"]
    #[inline(always)]
    pub const fn head_long(&self) -> &HeadLong {
        &self.head_long
    }
    #[doc = "0x304 - Refused head-buffer operations since reset: frees of a buffer not in use, segments for a buffer not in use or past a hole in the head, HEAD_DATA writes with no segment open or during a copy, HEAD_COPY writes with no segment open or during a copy, HEAD_APPEND writes while a segment is open, HEAD_FREE of the buffer held ready for HEAD_ALLOC"]
    #[inline(always)]
    pub const fn head_bad(&self) -> &HeadBad {
        &self.head_bad
    }
    #[doc = "0x308 - Instead of HEAD_DATA words: the segment HEAD_APPEND opened is copied by the card from a frame in the punt ring, its LEN bytes from byte FROM of the frame in SLOT (the firmware keeps the slot, PUNT.CONS not past it, until HEAD_STATUS.APPENDING clears). Refused and counted in HEAD_BAD with no segment open or a copy under way"]
    #[inline(always)]
    pub const fn head_copy(&self) -> &HeadCopy {
        &self.head_copy
    }
    #[doc = "0x30c - The SYN-ACK absorber in the data path (docs/server-open.md, \"The absorber in the data path\"): with ENABLE, a server-port SYN-ACK (SYN and ACK, no RST or FIN, options in one of the layouts of the card's own SYNs) that hits a CONNECTING entry armed by the firmware (record SetupCtx) is checked by the card, which writes the SPLICED entry, sends the handshake ACK and the request head from its buffer and queues the setup in ABSORB_HEAD (the SYN-ACK dropped; punted with verdict ABSORBED when that queue is full); any other outcome punts it as before (ABSORB_PUNTED)"]
    #[inline(always)]
    pub const fn absorb_ctrl(&self) -> &AbsorbCtrl {
        &self.absorb_ctrl
    }
    #[doc = "0x310 - SYN-ACKs absorbed since reset (entry SPLICED, handshake ACK and head sent by the card)"]
    #[inline(always)]
    pub const fn absorb_done(&self) -> &AbsorbDone {
        &self.absorb_done
    }
    #[doc = "0x314 - SYN-ACKs of armed entries left to the firmware since reset: another verdict than SPLICE, a head longer than the replay chunk, options in another layout, the absorber's queue full, or a firmware write of the entry while it was absorbed"]
    #[inline(always)]
    pub const fn absorb_punted(&self) -> &AbsorbPunted {
        &self.absorb_punted
    }
    #[doc = "0x318 - Take an armed entry back before writing it (the absorber does this in turn with the SYN-ACKs it absorbs, so exactly one of the two happens): the card reads the slot's entry and, when it is CONNECTING, armed and of generation GEN, writes it back unarmed; ABSORB_STATUS says what it found (DisarmResult). Written while ABSORB_STATUS.BUSY: ignored"]
    #[inline(always)]
    pub const fn absorb_disarm(&self) -> &AbsorbDisarm {
        &self.absorb_disarm
    }
    #[doc = "0x31c - The last ABSORB_DISARM's result"]
    #[inline(always)]
    pub const fn absorb_status(&self) -> &AbsorbStatus {
        &self.absorb_status
    }
    #[doc = "0x320 - The absorber's done queue (ABSORB_QUEUE_DEPTH records): the oldest setup whose SYN-ACK the card absorbed and dropped (no punt); the firmware does its bookkeeping and removes it with ABSORB_POP. When the queue is full the SYN-ACK is punted with verdict ABSORBED instead (ABSORB_SPILLED)"]
    #[inline(always)]
    pub const fn absorb_head(&self) -> &AbsorbHead {
        &self.absorb_head
    }
    #[doc = "0x324 - Any write removes the head of the absorber's done queue (nothing when it is empty)"]
    #[inline(always)]
    pub const fn absorb_pop(&self) -> &AbsorbPop {
        &self.absorb_pop
    }
    #[doc = "0x328 - Absorbed SYN-ACKs punted with verdict ABSORBED since reset because the done queue was full"]
    #[inline(always)]
    pub const fn absorb_spilled(&self) -> &AbsorbSpilled {
        &self.absorb_spilled
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "CTRL (rw) register accessor: Data-path control\n\nYou can [`read`](crate::Reg::read) this register and get [`ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ctrl`] module"]
#[doc(alias = "CTRL")]
pub type Ctrl = crate::Reg<ctrl::CtrlSpec>;
#[doc = "Data-path control"]
pub mod ctrl;
#[doc = "PUNT_POLICY (rw) register accessor: What happens to frames that are not virtual-service or server-side TCP: 1 punts to the firmware, 0 drops\n\nYou can [`read`](crate::Reg::read) this register and get [`punt_policy::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`punt_policy::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@punt_policy`] module"]
#[doc(alias = "PUNT_POLICY")]
pub type PuntPolicy = crate::Reg<punt_policy::PuntPolicySpec>;
#[doc = "What happens to frames that are not virtual-service or server-side TCP: 1 punts to the firmware, 0 drops"]
pub mod punt_policy;
#[doc = "NOW (r) register accessor: Data-path time: cycle counter bits 47:16 (the time stamp of flow entries, punt records and events)\n\nYou can [`read`](crate::Reg::read) this register and get [`now::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@now`] module"]
#[doc(alias = "NOW")]
pub type Now = crate::Reg<now::NowSpec>;
#[doc = "Data-path time: cycle counter bits 47:16 (the time stamp of flow entries, punt records and events)"]
pub mod now;
#[doc = "MAC_C_LO (rw) register accessor: Client-port MAC address bits 31:0 (the MAC as a 48-bit number: bits 47:40 are the first byte on the wire)\n\nYou can [`read`](crate::Reg::read) this register and get [`mac_c_lo::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`mac_c_lo::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@mac_c_lo`] module"]
#[doc(alias = "MAC_C_LO")]
pub type MacCLo = crate::Reg<mac_c_lo::MacCLoSpec>;
#[doc = "Client-port MAC address bits 31:0 (the MAC as a 48-bit number: bits 47:40 are the first byte on the wire)"]
pub mod mac_c_lo;
#[doc = "MAC_C_HI (rw) register accessor: Client-port MAC address bits 47:32 in 15:0\n\nYou can [`read`](crate::Reg::read) this register and get [`mac_c_hi::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`mac_c_hi::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@mac_c_hi`] module"]
#[doc(alias = "MAC_C_HI")]
pub type MacCHi = crate::Reg<mac_c_hi::MacCHiSpec>;
#[doc = "Client-port MAC address bits 47:32 in 15:0"]
pub mod mac_c_hi;
#[doc = "MAC_S_LO (rw) register accessor: Server-port MAC address bits 31:0 (the MAC as a 48-bit number: bits 47:40 are the first byte on the wire)\n\nYou can [`read`](crate::Reg::read) this register and get [`mac_s_lo::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`mac_s_lo::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@mac_s_lo`] module"]
#[doc(alias = "MAC_S_LO")]
pub type MacSLo = crate::Reg<mac_s_lo::MacSLoSpec>;
#[doc = "Server-port MAC address bits 31:0 (the MAC as a 48-bit number: bits 47:40 are the first byte on the wire)"]
pub mod mac_s_lo;
#[doc = "MAC_S_HI (rw) register accessor: Server-port MAC address bits 47:32 in 15:0\n\nYou can [`read`](crate::Reg::read) this register and get [`mac_s_hi::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`mac_s_hi::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@mac_s_hi`] module"]
#[doc(alias = "MAC_S_HI")]
pub type MacSHi = crate::Reg<mac_s_hi::MacSHiSpec>;
#[doc = "Server-port MAC address bits 47:32 in 15:0"]
pub mod mac_s_hi;
#[doc = "PARAMS (r) register accessor: Data-path build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@params`] module"]
#[doc(alias = "PARAMS")]
pub type Params = crate::Reg<params::ParamsSpec>;
#[doc = "Data-path build parameters"]
pub mod params;
#[doc = "MAX_FRAME (r) register accessor: Longest frame in bytes; longer frames are cut by the length guard and dropped as malformed\n\nYou can [`read`](crate::Reg::read) this register and get [`max_frame::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@max_frame`] module"]
#[doc(alias = "MAX_FRAME")]
pub type MaxFrame = crate::Reg<max_frame::MaxFrameSpec>;
#[doc = "Longest frame in bytes; longer frames are cut by the length guard and dropped as malformed"]
pub mod max_frame;
#[doc = "FLOW_CAPACITY (r) register accessor: Number of flow table entries\n\nYou can [`read`](crate::Reg::read) this register and get [`flow_capacity::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@flow_capacity`] module"]
#[doc(alias = "FLOW_CAPACITY")]
pub type FlowCapacity = crate::Reg<flow_capacity::FlowCapacitySpec>;
#[doc = "Number of flow table entries"]
pub mod flow_capacity;
#[doc = "FLOW_SLOTS (r) register accessor: Number of flow state slots\n\nYou can [`read`](crate::Reg::read) this register and get [`flow_slots::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@flow_slots`] module"]
#[doc(alias = "FLOW_SLOTS")]
pub type FlowSlots = crate::Reg<flow_slots::FlowSlotsSpec>;
#[doc = "Number of flow state slots"]
pub mod flow_slots;
#[doc = "OVERSIZE_C (r) register accessor: Frames on the client port cut by the length guard\n\nYou can [`read`](crate::Reg::read) this register and get [`oversize_c::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@oversize_c`] module"]
#[doc(alias = "OVERSIZE_C")]
pub type OversizeC = crate::Reg<oversize_c::OversizeCSpec>;
#[doc = "Frames on the client port cut by the length guard"]
pub mod oversize_c;
#[doc = "OVERSIZE_S (r) register accessor: Frames on the server port cut by the length guard\n\nYou can [`read`](crate::Reg::read) this register and get [`oversize_s::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@oversize_s`] module"]
#[doc(alias = "OVERSIZE_S")]
pub type OversizeS = crate::Reg<oversize_s::OversizeSSpec>;
#[doc = "Frames on the server port cut by the length guard"]
pub mod oversize_s;
#[doc = "RW_BYPASS_C (r) register accessor: Frames the client-to-server rewriter passed unchanged (unusable header offsets)\n\nYou can [`read`](crate::Reg::read) this register and get [`rw_bypass_c::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rw_bypass_c`] module"]
#[doc(alias = "RW_BYPASS_C")]
pub type RwBypassC = crate::Reg<rw_bypass_c::RwBypassCSpec>;
#[doc = "Frames the client-to-server rewriter passed unchanged (unusable header offsets)"]
pub mod rw_bypass_c;
#[doc = "RW_BYPASS_S (r) register accessor: Frames the server-to-client rewriter passed unchanged (unusable header offsets)\n\nYou can [`read`](crate::Reg::read) this register and get [`rw_bypass_s::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rw_bypass_s`] module"]
#[doc(alias = "RW_BYPASS_S")]
pub type RwBypassS = crate::Reg<rw_bypass_s::RwBypassSSpec>;
#[doc = "Frames the server-to-client rewriter passed unchanged (unusable header offsets)"]
pub mod rw_bypass_s;
#[doc = "RW_OPT_ERR_C (r) register accessor: Frames whose TCP option list the client-to-server rewriter could not walk to the end\n\nYou can [`read`](crate::Reg::read) this register and get [`rw_opt_err_c::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rw_opt_err_c`] module"]
#[doc(alias = "RW_OPT_ERR_C")]
pub type RwOptErrC = crate::Reg<rw_opt_err_c::RwOptErrCSpec>;
#[doc = "Frames whose TCP option list the client-to-server rewriter could not walk to the end"]
pub mod rw_opt_err_c;
#[doc = "RW_OPT_ERR_S (r) register accessor: Frames whose TCP option list the server-to-client rewriter could not walk to the end\n\nYou can [`read`](crate::Reg::read) this register and get [`rw_opt_err_s::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rw_opt_err_s`] module"]
#[doc(alias = "RW_OPT_ERR_S")]
pub type RwOptErrS = crate::Reg<rw_opt_err_s::RwOptErrSSpec>;
#[doc = "Frames whose TCP option list the server-to-client rewriter could not walk to the end"]
pub mod rw_opt_err_s;
#[doc = "UPD_DROPS (r) register accessor: Flow counter and last-seen updates lost\n\nYou can [`read`](crate::Reg::read) this register and get [`upd_drops::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@upd_drops`] module"]
#[doc(alias = "UPD_DROPS")]
pub type UpdDrops = crate::Reg<upd_drops::UpdDropsSpec>;
#[doc = "Flow counter and last-seen updates lost"]
pub mod upd_drops;
#[doc = "SYN_CTRL (rw) register accessor: Hardware SYN responder (docs/synresp.md): which virtual services it answers, what it offers, and the cookie key epoch\n\nYou can [`read`](crate::Reg::read) this register and get [`syn_ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`syn_ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@syn_ctrl`] module"]
#[doc(alias = "SYN_CTRL")]
pub type SynCtrl = crate::Reg<syn_ctrl::SynCtrlSpec>;
#[doc = "Hardware SYN responder (docs/synresp.md): which virtual services it answers, what it offers, and the cookie key epoch"]
pub mod syn_ctrl;
#[doc = "SYN_MSS (rw) register accessor: MSS the hardware SYN responder announces to clients\n\nYou can [`read`](crate::Reg::read) this register and get [`syn_mss::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`syn_mss::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@syn_mss`] module"]
#[doc(alias = "SYN_MSS")]
pub type SynMss = crate::Reg<syn_mss::SynMssSpec>;
#[doc = "MSS the hardware SYN responder announces to clients"]
pub mod syn_mss;
#[doc = "COOKIE_KEY_LO (w) register accessor: Cookie key bits 31:0 (k0), staged for COOKIE_KEY_WR; reads 0\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cookie_key_lo::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@cookie_key_lo`] module"]
#[doc(alias = "COOKIE_KEY_LO")]
pub type CookieKeyLo = crate::Reg<cookie_key_lo::CookieKeyLoSpec>;
#[doc = "Cookie key bits 31:0 (k0), staged for COOKIE_KEY_WR; reads 0"]
pub mod cookie_key_lo;
#[doc = "COOKIE_KEY_HI (w) register accessor: Cookie key bits 63:32 (k1), staged for COOKIE_KEY_WR; reads 0\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cookie_key_hi::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@cookie_key_hi`] module"]
#[doc(alias = "COOKIE_KEY_HI")]
pub type CookieKeyHi = crate::Reg<cookie_key_hi::CookieKeyHiSpec>;
#[doc = "Cookie key bits 63:32 (k1), staged for COOKIE_KEY_WR; reads 0"]
pub mod cookie_key_hi;
#[doc = "COOKIE_KEY_WR (w) register accessor: Writing it loads the staged key into a key slot of every cookie unit; keys cannot be read back\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cookie_key_wr::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@cookie_key_wr`] module"]
#[doc(alias = "COOKIE_KEY_WR")]
pub type CookieKeyWr = crate::Reg<cookie_key_wr::CookieKeyWrSpec>;
#[doc = "Writing it loads the staged key into a key slot of every cookie unit; keys cannot be read back"]
pub mod cookie_key_wr;
#[doc = "SYN_PARAMS (r) register accessor: Hardware SYN responder build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`syn_params::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@syn_params`] module"]
#[doc(alias = "SYN_PARAMS")]
pub type SynParams = crate::Reg<syn_params::SynParamsSpec>;
#[doc = "Hardware SYN responder build parameters"]
pub mod syn_params;
#[doc = "ACK_CTRL (rw) register accessor: Hardware ACK validator (docs/engine.md)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`ack_ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ack_ctrl`] module"]
#[doc(alias = "ACK_CTRL")]
pub type AckCtrl = crate::Reg<ack_ctrl::AckCtrlSpec>;
#[doc = "Hardware ACK validator (docs/engine.md)"]
pub mod ack_ctrl;
#[doc = "FREE_PUSH (w) register accessor: Push a free slot to the engine's free list (a push to a full list is refused and counted in FREE_REFUSED)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`free_push::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@free_push`] module"]
#[doc(alias = "FREE_PUSH")]
pub type FreePush = crate::Reg<free_push::FreePushSpec>;
#[doc = "Push a free slot to the engine's free list (a push to a full list is refused and counted in FREE_REFUSED)"]
pub mod free_push;
#[doc = "FREE_CTRL (w) register accessor: Free-list control\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`free_ctrl::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@free_ctrl`] module"]
#[doc(alias = "FREE_CTRL")]
pub type FreeCtrl = crate::Reg<free_ctrl::FreeCtrlSpec>;
#[doc = "Free-list control"]
pub mod free_ctrl;
#[doc = "FREE_STATUS (r) register accessor: Free-list state\n\nYou can [`read`](crate::Reg::read) this register and get [`free_status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@free_status`] module"]
#[doc(alias = "FREE_STATUS")]
pub type FreeStatus = crate::Reg<free_status::FreeStatusSpec>;
#[doc = "Free-list state"]
pub mod free_status;
#[doc = "ACK_NEW (r) register accessor: Candidate ACKs that checked and got a new slot (verdict NEW)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_new::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ack_new`] module"]
#[doc(alias = "ACK_NEW")]
pub type AckNew = crate::Reg<ack_new::AckNewSpec>;
#[doc = "Candidate ACKs that checked and got a new slot (verdict NEW)"]
pub mod ack_new;
#[doc = "ACK_FOUND (r) register accessor: Candidate ACKs that checked and found their key inserted (verdict FOUND)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_found::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ack_found`] module"]
#[doc(alias = "ACK_FOUND")]
pub type AckFound = crate::Reg<ack_found::AckFoundSpec>;
#[doc = "Candidate ACKs that checked and found their key inserted (verdict FOUND)"]
pub mod ack_found;
#[doc = "ACK_BAD_COOKIE (r) register accessor: Candidate ACKs whose cookie did not check (verdict BAD_COOKIE)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_bad_cookie::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ack_bad_cookie`] module"]
#[doc(alias = "ACK_BAD_COOKIE")]
pub type AckBadCookie = crate::Reg<ack_bad_cookie::AckBadCookieSpec>;
#[doc = "Candidate ACKs whose cookie did not check (verdict BAD_COOKIE)"]
pub mod ack_bad_cookie;
#[doc = "ACK_STALE (r) register accessor: Candidate ACKs whose cookie named an expired key slot (verdict STALE)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_stale::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ack_stale`] module"]
#[doc(alias = "ACK_STALE")]
pub type AckStale = crate::Reg<ack_stale::AckStaleSpec>;
#[doc = "Candidate ACKs whose cookie named an expired key slot (verdict STALE)"]
pub mod ack_stale;
#[doc = "ACK_NO_SLOT (r) register accessor: Candidate ACKs that checked with the free list empty (verdict NO_SLOT)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_no_slot::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ack_no_slot`] module"]
#[doc(alias = "ACK_NO_SLOT")]
pub type AckNoSlot = crate::Reg<ack_no_slot::AckNoSlotSpec>;
#[doc = "Candidate ACKs that checked with the free list empty (verdict NO_SLOT)"]
pub mod ack_no_slot;
#[doc = "ACK_TABLE_FULL (r) register accessor: Candidate ACKs that checked with their flow-table bucket full (verdict TABLE_FULL)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_table_full::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ack_table_full`] module"]
#[doc(alias = "ACK_TABLE_FULL")]
pub type AckTableFull = crate::Reg<ack_table_full::AckTableFullSpec>;
#[doc = "Candidate ACKs that checked with their flow-table bucket full (verdict TABLE_FULL)"]
pub mod ack_table_full;
#[doc = "FREE_REFUSED (r) register accessor: FREE_PUSH writes refused (the list was full or being flushed)\n\nYou can [`read`](crate::Reg::read) this register and get [`free_refused::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@free_refused`] module"]
#[doc(alias = "FREE_REFUSED")]
pub type FreeRefused = crate::Reg<free_refused::FreeRefusedSpec>;
#[doc = "FREE_PUSH writes refused (the list was full or being flushed)"]
pub mod free_refused;
#[doc = "ACK_LOST (r) register accessor: Candidates the validator could not take (always 0 by construction; a nonzero value is a design fault)\n\nYou can [`read`](crate::Reg::read) this register and get [`ack_lost::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@ack_lost`] module"]
#[doc(alias = "ACK_LOST")]
pub type AckLost = crate::Reg<ack_lost::AckLostSpec>;
#[doc = "Candidates the validator could not take (always 0 by construction; a nonzero value is a design fault)"]
pub mod ack_lost;
#[doc = "SCHED_TBL_ADDR (rw) register accessor: Decision supply (sched_unit, docs/sched-unit.md): the table entry SCHED_TBL_DATA writes next\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_tbl_addr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_tbl_addr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_tbl_addr`] module"]
#[doc(alias = "SCHED_TBL_ADDR")]
pub type SchedTblAddr = crate::Reg<sched_tbl_addr::SchedTblAddrSpec>;
#[doc = "Decision supply (sched_unit, docs/sched-unit.md): the table entry SCHED_TBL_DATA writes next"]
pub mod sched_tbl_addr;
#[doc = "SCHED_TBL_DATA (w) register accessor: Write a decision-table entry at SCHED_TBL_ADDR, then advance SCHED_TBL_ADDR by one\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_tbl_data::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_tbl_data`] module"]
#[doc(alias = "SCHED_TBL_DATA")]
pub type SchedTblData = crate::Reg<sched_tbl_data::SchedTblDataSpec>;
#[doc = "Write a decision-table entry at SCHED_TBL_ADDR, then advance SCHED_TBL_ADDR by one"]
pub mod sched_tbl_data;
#[doc = "SCHED_MASK_LO (w) register accessor: Eligibility mask staged for SCHED_MASK_WR: servers 0-31 (bit = server id)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_mask_lo::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_mask_lo`] module"]
#[doc(alias = "SCHED_MASK_LO")]
pub type SchedMaskLo = crate::Reg<sched_mask_lo::SchedMaskLoSpec>;
#[doc = "Eligibility mask staged for SCHED_MASK_WR: servers 0-31 (bit = server id)"]
pub mod sched_mask_lo;
#[doc = "SCHED_MASK_HI (w) register accessor: Eligibility mask staged for SCHED_MASK_WR: servers 32-63\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_mask_hi::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_mask_hi`] module"]
#[doc(alias = "SCHED_MASK_HI")]
pub type SchedMaskHi = crate::Reg<sched_mask_hi::SchedMaskHiSpec>;
#[doc = "Eligibility mask staged for SCHED_MASK_WR: servers 32-63"]
pub mod sched_mask_hi;
#[doc = "SCHED_MASK_WR (w) register accessor: Set a pool's eligibility mask to SCHED_MASK_HI:SCHED_MASK_LO\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_mask_wr::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_mask_wr`] module"]
#[doc(alias = "SCHED_MASK_WR")]
pub type SchedMaskWr = crate::Reg<sched_mask_wr::SchedMaskWrSpec>;
#[doc = "Set a pool's eligibility mask to SCHED_MASK_HI:SCHED_MASK_LO"]
pub mod sched_mask_wr;
#[doc = "SCHED_RANGE (w) register accessor: Descriptor staged for SCHED_COMMIT: table region\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_range::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_range`] module"]
#[doc(alias = "SCHED_RANGE")]
pub type SchedRange = crate::Reg<sched_range::SchedRangeSpec>;
#[doc = "Descriptor staged for SCHED_COMMIT: table region"]
pub mod sched_range;
#[doc = "SCHED_LOOP (w) register accessor: Descriptor staged for SCHED_COMMIT: cycle loop and pointer\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_loop::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_loop`] module"]
#[doc(alias = "SCHED_LOOP")]
pub type SchedLoop = crate::Reg<sched_loop::SchedLoopSpec>;
#[doc = "Descriptor staged for SCHED_COMMIT: cycle loop and pointer"]
pub mod sched_loop;
#[doc = "SCHED_COMMIT (w) register accessor: Commit a pool's descriptor (SCHED_RANGE, SCHED_LOOP and these fields) at once\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_commit::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_commit`] module"]
#[doc(alias = "SCHED_COMMIT")]
pub type SchedCommit = crate::Reg<sched_commit::SchedCommitSpec>;
#[doc = "Commit a pool's descriptor (SCHED_RANGE, SCHED_LOOP and these fields) at once"]
pub mod sched_commit;
#[doc = "SCHED_PTR (rw) register accessor: Write: the pool whose cycle pointer reads back here; read: that pointer\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_ptr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_ptr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_ptr`] module"]
#[doc(alias = "SCHED_PTR")]
pub type SchedPtr = crate::Reg<sched_ptr::SchedPtrSpec>;
#[doc = "Write: the pool whose cycle pointer reads back here; read: that pointer"]
pub mod sched_ptr;
#[doc = "SCHED_REQ_CLIENT (w) register accessor: Client IPv4 address of the next SCHED_REQ\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_req_client::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_req_client`] module"]
#[doc(alias = "SCHED_REQ_CLIENT")]
pub type SchedReqClient = crate::Reg<sched_req_client::SchedReqClientSpec>;
#[doc = "Client IPv4 address of the next SCHED_REQ"]
pub mod sched_req_client;
#[doc = "SCHED_REQ (w) register accessor: Ask the decision supply for a pool's server; SCHED_RSP shows the answer to the last request written (a sequence bit travels with each request, so a late answer to an earlier one is not shown)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_req::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_req`] module"]
#[doc(alias = "SCHED_REQ")]
pub type SchedReq = crate::Reg<sched_req::SchedReqSpec>;
#[doc = "Ask the decision supply for a pool's server; SCHED_RSP shows the answer to the last request written (a sequence bit travels with each request, so a late answer to an earlier one is not shown)"]
pub mod sched_req;
#[doc = "SCHED_RSP (r) register accessor: The answer to the last SCHED_REQ\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_rsp::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_rsp`] module"]
#[doc(alias = "SCHED_RSP")]
pub type SchedRsp = crate::Reg<sched_rsp::SchedRspSpec>;
#[doc = "The answer to the last SCHED_REQ"]
pub mod sched_rsp;
#[doc = "SCHED_PICKS (r) register accessor: Decision-supply answers PICK\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_picks::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_picks`] module"]
#[doc(alias = "SCHED_PICKS")]
pub type SchedPicks = crate::Reg<sched_picks::SchedPicksSpec>;
#[doc = "Decision-supply answers PICK"]
pub mod sched_picks;
#[doc = "SCHED_NONES (r) register accessor: Decision-supply answers NONE\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_nones::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_nones`] module"]
#[doc(alias = "SCHED_NONES")]
pub type SchedNones = crate::Reg<sched_nones::SchedNonesSpec>;
#[doc = "Decision-supply answers NONE"]
pub mod sched_nones;
#[doc = "SCHED_PUNTS (r) register accessor: Decision-supply answers PUNT\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_punts::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@sched_punts`] module"]
#[doc(alias = "SCHED_PUNTS")]
pub type SchedPunts = crate::Reg<sched_punts::SchedPuntsSpec>;
#[doc = "Decision-supply answers PUNT"]
pub mod sched_punts;
#[doc = "VIP_ADDR (rw) register accessor: Virtual service IPv4 address (host order)\n\nYou can [`read`](crate::Reg::read) this register and get [`vip_addr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`vip_addr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@vip_addr`] module"]
#[doc(alias = "VIP_ADDR")]
pub type VipAddr = crate::Reg<vip_addr::VipAddrSpec>;
#[doc = "Virtual service IPv4 address (host order)"]
pub mod vip_addr;
#[doc = "VIP_PORT (rw) register accessor: Virtual service TCP port and enable\n\nYou can [`read`](crate::Reg::read) this register and get [`vip_port::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`vip_port::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@vip_port`] module"]
#[doc(alias = "VIP_PORT")]
pub type VipPort = crate::Reg<vip_port::VipPortSpec>;
#[doc = "Virtual service TCP port and enable"]
pub mod vip_port;
#[doc = "LOCAL_ADDR (rw) register accessor: Card-owned server-side IPv4 address (host order): the source of server connections\n\nYou can [`read`](crate::Reg::read) this register and get [`local_addr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`local_addr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@local_addr`] module"]
#[doc(alias = "LOCAL_ADDR")]
pub type LocalAddr = crate::Reg<local_addr::LocalAddrSpec>;
#[doc = "Card-owned server-side IPv4 address (host order): the source of server connections"]
pub mod local_addr;
#[doc = "LOCAL_CTRL (rw) register accessor: Card-owned server-side address enable\n\nYou can [`read`](crate::Reg::read) this register and get [`local_ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`local_ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@local_ctrl`] module"]
#[doc(alias = "LOCAL_CTRL")]
pub type LocalCtrl = crate::Reg<local_ctrl::LocalCtrlSpec>;
#[doc = "Card-owned server-side address enable"]
pub mod local_ctrl;
#[doc = "LOAD_CFG (w) register accessor: Least-load decision supply (load_sched, docs/load-sched.md): server configuration staged for a CONFIG operation\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_cfg::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_cfg`] module"]
#[doc(alias = "LOAD_CFG")]
pub type LoadCfg = crate::Reg<load_cfg::LoadCfgSpec>;
#[doc = "Least-load decision supply (load_sched, docs/load-sched.md): server configuration staged for a CONFIG operation"]
pub mod load_cfg;
#[doc = "LOAD_UPPER (w) register accessor: Upper connection threshold staged for CONFIG (0 none; larger than LOAD_THRESHOLD_MAX written as it)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_upper::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_upper`] module"]
#[doc(alias = "LOAD_UPPER")]
pub type LoadUpper = crate::Reg<load_upper::LoadUpperSpec>;
#[doc = "Upper connection threshold staged for CONFIG (0 none; larger than LOAD_THRESHOLD_MAX written as it)"]
pub mod load_upper;
#[doc = "LOAD_LOWER (w) register accessor: Lower connection threshold staged for CONFIG (0: three quarters of the upper one)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_lower::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_lower`] module"]
#[doc(alias = "LOAD_LOWER")]
pub type LoadLower = crate::Reg<load_lower::LoadLowerSpec>;
#[doc = "Lower connection threshold staged for CONFIG (0: three quarters of the upper one)"]
pub mod load_lower;
#[doc = "LOAD_COUNTS (rw) register accessor: Write: the counts a COUNTS operation sets; read: the counts of the last READ answer\n\nYou can [`read`](crate::Reg::read) this register and get [`load_counts::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_counts::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_counts`] module"]
#[doc(alias = "LOAD_COUNTS")]
pub type LoadCounts = crate::Reg<load_counts::LoadCountsSpec>;
#[doc = "Write: the counts a COUNTS operation sets; read: the counts of the last READ answer"]
pub mod load_counts;
#[doc = "LOAD_OP (w) register accessor: Start an operation (LoadOp) with the staged values; refused and counted in LOAD_REFUSED while LOAD_RSP.BUSY\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_op::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_op`] module"]
#[doc(alias = "LOAD_OP")]
pub type LoadOp = crate::Reg<load_op::LoadOpSpec>;
#[doc = "Start an operation (LoadOp) with the staged values; refused and counted in LOAD_REFUSED while LOAD_RSP.BUSY"]
pub mod load_op;
#[doc = "LOAD_RSP (r) register accessor: State of the last operation and the answer to the last PICK or READ\n\nYou can [`read`](crate::Reg::read) this register and get [`load_rsp::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_rsp`] module"]
#[doc(alias = "LOAD_RSP")]
pub type LoadRsp = crate::Reg<load_rsp::LoadRspSpec>;
#[doc = "State of the last operation and the answer to the last PICK or READ"]
pub mod load_rsp;
#[doc = "LOAD_POOL (w) register accessor: Set a pool's least-load descriptor\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_pool::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_pool`] module"]
#[doc(alias = "LOAD_POOL")]
pub type LoadPool = crate::Reg<load_pool::LoadPoolSpec>;
#[doc = "Set a pool's least-load descriptor"]
pub mod load_pool;
#[doc = "LOAD_PICKS (r) register accessor: Least-load answers PICK\n\nYou can [`read`](crate::Reg::read) this register and get [`load_picks::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_picks`] module"]
#[doc(alias = "LOAD_PICKS")]
pub type LoadPicks = crate::Reg<load_picks::LoadPicksSpec>;
#[doc = "Least-load answers PICK"]
pub mod load_picks;
#[doc = "LOAD_NONES (r) register accessor: Least-load answers NONE\n\nYou can [`read`](crate::Reg::read) this register and get [`load_nones::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_nones`] module"]
#[doc(alias = "LOAD_NONES")]
pub type LoadNones = crate::Reg<load_nones::LoadNonesSpec>;
#[doc = "Least-load answers NONE"]
pub mod load_nones;
#[doc = "LOAD_PUNTS (r) register accessor: Least-load answers PUNT (the pool is OFF)\n\nYou can [`read`](crate::Reg::read) this register and get [`load_punts::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_punts`] module"]
#[doc(alias = "LOAD_PUNTS")]
pub type LoadPunts = crate::Reg<load_punts::LoadPuntsSpec>;
#[doc = "Least-load answers PUNT (the pool is OFF)"]
pub mod load_punts;
#[doc = "LOAD_UNDERFLOWS (r) register accessor: Least-load operations that found their count at 0\n\nYou can [`read`](crate::Reg::read) this register and get [`load_underflows::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_underflows`] module"]
#[doc(alias = "LOAD_UNDERFLOWS")]
pub type LoadUnderflows = crate::Reg<load_underflows::LoadUnderflowsSpec>;
#[doc = "Least-load operations that found their count at 0"]
pub mod load_underflows;
#[doc = "LOAD_REFUSED (r) register accessor: LOAD_OP writes refused while busy\n\nYou can [`read`](crate::Reg::read) this register and get [`load_refused::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@load_refused`] module"]
#[doc(alias = "LOAD_REFUSED")]
pub type LoadRefused = crate::Reg<load_refused::LoadRefusedSpec>;
#[doc = "LOAD_OP writes refused while busy"]
pub mod load_refused;
#[doc = "FREE_LOW (rw) register accessor: High-water mark of the slots the ACK validator took: the lowest level of its free list since the last write here (a write restarts the mark at the current level and arms it)\n\nYou can [`read`](crate::Reg::read) this register and get [`free_low::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`free_low::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@free_low`] module"]
#[doc(alias = "FREE_LOW")]
pub type FreeLow = crate::Reg<free_low::FreeLowSpec>;
#[doc = "High-water mark of the slots the ACK validator took: the lowest level of its free list since the last write here (a write restarts the mark at the current level and arms it)"]
pub mod free_low;
#[doc = "PUNT_HIGH (rw) register accessor: High-water mark of the exception queue: the most frames waiting in the punt ring since reset or the last write here (a write restarts it at the current count)\n\nYou can [`read`](crate::Reg::read) this register and get [`punt_high::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`punt_high::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@punt_high`] module"]
#[doc(alias = "PUNT_HIGH")]
pub type PuntHigh = crate::Reg<punt_high::PuntHighSpec>;
#[doc = "High-water mark of the exception queue: the most frames waiting in the punt ring since reset or the last write here (a write restarts it at the current count)"]
pub mod punt_high;
#[doc = "TRACE_CTRL (rw) register accessor: Engine trace ring control (docs/engine.md, \"Trace ring\")\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`trace_ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@trace_ctrl`] module"]
#[doc(alias = "TRACE_CTRL")]
pub type TraceCtrl = crate::Reg<trace_ctrl::TraceCtrlSpec>;
#[doc = "Engine trace ring control (docs/engine.md, \"Trace ring\")"]
pub mod trace_ctrl;
#[doc = "TRACE_COUNT (r) register accessor: Entries written to the trace ring since reset (wraps at 2^32); the entry written n-th is at ring index n mod depth, and the ring holds the last depth of them\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_count::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@trace_count`] module"]
#[doc(alias = "TRACE_COUNT")]
pub type TraceCount = crate::Reg<trace_count::TraceCountSpec>;
#[doc = "Entries written to the trace ring since reset (wraps at 2^32); the entry written n-th is at ring index n mod depth, and the ring holds the last depth of them"]
pub mod trace_count;
#[doc = "TRACE_LOST (r) register accessor: Decisions not recorded while ENABLE was set: another of the same source was still waiting for the ring's write port\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_lost::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@trace_lost`] module"]
#[doc(alias = "TRACE_LOST")]
pub type TraceLost = crate::Reg<trace_lost::TraceLostSpec>;
#[doc = "Decisions not recorded while ENABLE was set: another of the same source was still waiting for the ring's write port"]
pub mod trace_lost;
#[doc = "TRACE_RD_IDX (rw) register accessor: Ring index of the entry TRACE_RD_DATA shows (write; the words are ready for the next register access)\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_rd_idx::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`trace_rd_idx::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@trace_rd_idx`] module"]
#[doc(alias = "TRACE_RD_IDX")]
pub type TraceRdIdx = crate::Reg<trace_rd_idx::TraceRdIdxSpec>;
#[doc = "Ring index of the entry TRACE_RD_DATA shows (write; the words are ready for the next register access)"]
pub mod trace_rd_idx;
#[doc = "TRACE_RD_DATA (r) register accessor: Word n of the TraceEntry at TRACE_RD_IDX\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_rd_data::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@trace_rd_data`] module"]
#[doc(alias = "TRACE_RD_DATA")]
pub type TraceRdData = crate::Reg<trace_rd_data::TraceRdDataSpec>;
#[doc = "Word n of the TraceEntry at TRACE_RD_IDX"]
pub mod trace_rd_data;
#[doc = "SETUP_HIST_IDX (rw) register accessor: Bucket of the setup-latency histogram SETUP_HIST_DATA shows (write; ready for the next register access)\n\nYou can [`read`](crate::Reg::read) this register and get [`setup_hist_idx::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`setup_hist_idx::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@setup_hist_idx`] module"]
#[doc(alias = "SETUP_HIST_IDX")]
pub type SetupHistIdx = crate::Reg<setup_hist_idx::SetupHistIdxSpec>;
#[doc = "Bucket of the setup-latency histogram SETUP_HIST_DATA shows (write; ready for the next register access)"]
pub mod setup_hist_idx;
#[doc = "SETUP_HIST_DATA (r) register accessor: Setups counted in the bucket at SETUP_HIST_IDX since power-up: from the flow-state write that puts a slot in HANDSHAKE (or in REQUEST or CONNECTING when its clock has not started) to the first that puts it in SPLICED (docs/engine.md, \"Setup latency\")\n\nYou can [`read`](crate::Reg::read) this register and get [`setup_hist_data::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@setup_hist_data`] module"]
#[doc(alias = "SETUP_HIST_DATA")]
pub type SetupHistData = crate::Reg<setup_hist_data::SetupHistDataSpec>;
#[doc = "Setups counted in the bucket at SETUP_HIST_IDX since power-up: from the flow-state write that puts a slot in HANDSHAKE (or in REQUEST or CONNECTING when its clock has not started) to the first that puts it in SPLICED (docs/engine.md, \"Setup latency\")"]
pub mod setup_hist_data;
#[doc = "SETUP_TIMED (r) register accessor: Setups timed since power-up (the histogram's total)\n\nYou can [`read`](crate::Reg::read) this register and get [`setup_timed::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@setup_timed`] module"]
#[doc(alias = "SETUP_TIMED")]
pub type SetupTimed = crate::Reg<setup_timed::SetupTimedSpec>;
#[doc = "Setups timed since power-up (the histogram's total)"]
pub mod setup_timed;
#[doc = "SETUP_OVERWRITTEN (r) register accessor: Setups not timed: the start of another slot with the same low 9 bits replaced the slot's start before it was SPLICED or freed\n\nYou can [`read`](crate::Reg::read) this register and get [`setup_overwritten::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@setup_overwritten`] module"]
#[doc(alias = "SETUP_OVERWRITTEN")]
pub type SetupOverwritten = crate::Reg<setup_overwritten::SetupOverwrittenSpec>;
#[doc = "Setups not timed: the start of another slot with the same low 9 bits replaced the slot's start before it was SPLICED or freed"]
pub mod setup_overwritten;
#[doc = "AGE_CTRL (rw) register accessor: Aging scanner control (docs/aging.md, \"The scanner\"): it reads one flow slot's entry every INTERVAL cycles, slots 0 to AGE_LIMIT - 1 in turn, and queues each expired slot in AGE_HEAD\n\nYou can [`read`](crate::Reg::read) this register and get [`age_ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`age_ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_ctrl`] module"]
#[doc(alias = "AGE_CTRL")]
pub type AgeCtrl = crate::Reg<age_ctrl::AgeCtrlSpec>;
#[doc = "Aging scanner control (docs/aging.md, \"The scanner\"): it reads one flow slot's entry every INTERVAL cycles, slots 0 to AGE_LIMIT - 1 in turn, and queues each expired slot in AGE_HEAD"]
pub mod age_ctrl;
#[doc = "AGE_LIMIT (rw) register accessor: Slots the scanner walks: 0 to AGE_LIMIT - 1 (reset and any value of 0 or above FLOW_SLOTS: FLOW_SLOTS)\n\nYou can [`read`](crate::Reg::read) this register and get [`age_limit::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`age_limit::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_limit`] module"]
#[doc(alias = "AGE_LIMIT")]
pub type AgeLimit = crate::Reg<age_limit::AgeLimitSpec>;
#[doc = "Slots the scanner walks: 0 to AGE_LIMIT - 1 (reset and any value of 0 or above FLOW_SLOTS: FLOW_SLOTS)"]
pub mod age_limit;
#[doc = "AGE_HEAD (r) register accessor: The oldest expired slot the scanner queued; AGE_POP removes it\n\nYou can [`read`](crate::Reg::read) this register and get [`age_head::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_head`] module"]
#[doc(alias = "AGE_HEAD")]
pub type AgeHead = crate::Reg<age_head::AgeHeadSpec>;
#[doc = "The oldest expired slot the scanner queued; AGE_POP removes it"]
pub mod age_head;
#[doc = "AGE_POP (w) register accessor: Any write removes the head of the expired-slot queue (nothing when it is empty)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`age_pop::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_pop`] module"]
#[doc(alias = "AGE_POP")]
pub type AgePop = crate::Reg<age_pop::AgePopSpec>;
#[doc = "Any write removes the head of the expired-slot queue (nothing when it is empty)"]
pub mod age_pop;
#[doc = "AGE_TIMEOUT (w) register accessor: Timeout of class n (enum TimeoutClass, TIMEOUT_CLASSES entries) in DP.NOW ticks, as the scanner compares it with a slot's idle time\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`age_timeout::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_timeout`] module"]
#[doc(alias = "AGE_TIMEOUT")]
pub type AgeTimeout = crate::Reg<age_timeout::AgeTimeoutSpec>;
#[doc = "Timeout of class n (enum TimeoutClass, TIMEOUT_CLASSES entries) in DP.NOW ticks, as the scanner compares it with a slot's idle time"]
pub mod age_timeout;
#[doc = "AGE_STATUS (r) register accessor: Aging scanner state\n\nYou can [`read`](crate::Reg::read) this register and get [`age_status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_status`] module"]
#[doc(alias = "AGE_STATUS")]
pub type AgeStatus = crate::Reg<age_status::AgeStatusSpec>;
#[doc = "Aging scanner state"]
pub mod age_status;
#[doc = "AGE_POS (r) register accessor: The slot the scanner reads next\n\nYou can [`read`](crate::Reg::read) this register and get [`age_pos::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_pos`] module"]
#[doc(alias = "AGE_POS")]
pub type AgePos = crate::Reg<age_pos::AgePosSpec>;
#[doc = "The slot the scanner reads next"]
pub mod age_pos;
#[doc = "AGE_SWEEPS (r) register accessor: Walks of all AGE_LIMIT slots completed since reset\n\nYou can [`read`](crate::Reg::read) this register and get [`age_sweeps::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_sweeps`] module"]
#[doc(alias = "AGE_SWEEPS")]
pub type AgeSweeps = crate::Reg<age_sweeps::AgeSweepsSpec>;
#[doc = "Walks of all AGE_LIMIT slots completed since reset"]
pub mod age_sweeps;
#[doc = "AGE_EXPIRED (r) register accessor: Expired slots queued since reset (a slot still expired at the next walk is queued again)\n\nYou can [`read`](crate::Reg::read) this register and get [`age_expired::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_expired`] module"]
#[doc(alias = "AGE_EXPIRED")]
pub type AgeExpired = crate::Reg<age_expired::AgeExpiredSpec>;
#[doc = "Expired slots queued since reset (a slot still expired at the next walk is queued again)"]
pub mod age_expired;
#[doc = "AGE_CLIENT (r) register accessor: FREED only: the client's IPv4 address (host order) of the freed entry at AGE_HEAD (0 otherwise)\n\nYou can [`read`](crate::Reg::read) this register and get [`age_client::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_client`] module"]
#[doc(alias = "AGE_CLIENT")]
pub type AgeClient = crate::Reg<age_client::AgeClientSpec>;
#[doc = "FREED only: the client's IPv4 address (host order) of the freed entry at AGE_HEAD (0 otherwise)"]
pub mod age_client;
#[doc = "AGE_FREED (r) register accessor: Slots the scanner freed itself since reset (AGE_CTRL.FREE)\n\nYou can [`read`](crate::Reg::read) this register and get [`age_freed::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@age_freed`] module"]
#[doc(alias = "AGE_FREED")]
pub type AgeFreed = crate::Reg<age_freed::AgeFreedSpec>;
#[doc = "Slots the scanner freed itself since reset (AGE_CTRL.FREE)"]
pub mod age_freed;
#[doc = "TXGEN_DST_MAC_LO (rw) register accessor: Frame generator (tcp_tx_gen), staged request: destination MAC bits 31:0\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_dst_mac_lo::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_dst_mac_lo::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_dst_mac_lo`] module"]
#[doc(alias = "TXGEN_DST_MAC_LO")]
pub type TxgenDstMacLo = crate::Reg<txgen_dst_mac_lo::TxgenDstMacLoSpec>;
#[doc = "Frame generator (tcp_tx_gen), staged request: destination MAC bits 31:0"]
pub mod txgen_dst_mac_lo;
#[doc = "TXGEN_DST_MAC_HI (rw) register accessor: Frame generator: destination MAC bits 47:32\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_dst_mac_hi::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_dst_mac_hi::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_dst_mac_hi`] module"]
#[doc(alias = "TXGEN_DST_MAC_HI")]
pub type TxgenDstMacHi = crate::Reg<txgen_dst_mac_hi::TxgenDstMacHiSpec>;
#[doc = "Frame generator: destination MAC bits 47:32"]
pub mod txgen_dst_mac_hi;
#[doc = "TXGEN_SRC_MAC_LO (rw) register accessor: Frame generator: source MAC bits 31:0\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_src_mac_lo::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_src_mac_lo::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_src_mac_lo`] module"]
#[doc(alias = "TXGEN_SRC_MAC_LO")]
pub type TxgenSrcMacLo = crate::Reg<txgen_src_mac_lo::TxgenSrcMacLoSpec>;
#[doc = "Frame generator: source MAC bits 31:0"]
pub mod txgen_src_mac_lo;
#[doc = "TXGEN_SRC_MAC_HI (rw) register accessor: Frame generator: source MAC bits 47:32\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_src_mac_hi::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_src_mac_hi::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_src_mac_hi`] module"]
#[doc(alias = "TXGEN_SRC_MAC_HI")]
pub type TxgenSrcMacHi = crate::Reg<txgen_src_mac_hi::TxgenSrcMacHiSpec>;
#[doc = "Frame generator: source MAC bits 47:32"]
pub mod txgen_src_mac_hi;
#[doc = "TXGEN_SRC_IP (rw) register accessor: Frame generator: source IPv4 address (host order)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_src_ip::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_src_ip::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_src_ip`] module"]
#[doc(alias = "TXGEN_SRC_IP")]
pub type TxgenSrcIp = crate::Reg<txgen_src_ip::TxgenSrcIpSpec>;
#[doc = "Frame generator: source IPv4 address (host order)"]
pub mod txgen_src_ip;
#[doc = "TXGEN_DST_IP (rw) register accessor: Frame generator: destination IPv4 address (host order)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_dst_ip::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_dst_ip::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_dst_ip`] module"]
#[doc(alias = "TXGEN_DST_IP")]
pub type TxgenDstIp = crate::Reg<txgen_dst_ip::TxgenDstIpSpec>;
#[doc = "Frame generator: destination IPv4 address (host order)"]
pub mod txgen_dst_ip;
#[doc = "TXGEN_PORTS (rw) register accessor: Frame generator: TCP ports\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_ports::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_ports::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_ports`] module"]
#[doc(alias = "TXGEN_PORTS")]
pub type TxgenPorts = crate::Reg<txgen_ports::TxgenPortsSpec>;
#[doc = "Frame generator: TCP ports"]
pub mod txgen_ports;
#[doc = "TXGEN_SEQ (rw) register accessor: Frame generator: sequence number\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_seq::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_seq::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_seq`] module"]
#[doc(alias = "TXGEN_SEQ")]
pub type TxgenSeq = crate::Reg<txgen_seq::TxgenSeqSpec>;
#[doc = "Frame generator: sequence number"]
pub mod txgen_seq;
#[doc = "TXGEN_ACK (rw) register accessor: Frame generator: acknowledgment number\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_ack::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_ack::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_ack`] module"]
#[doc(alias = "TXGEN_ACK")]
pub type TxgenAck = crate::Reg<txgen_ack::TxgenAckSpec>;
#[doc = "Frame generator: acknowledgment number"]
pub mod txgen_ack;
#[doc = "TXGEN_CTL (rw) register accessor: Frame generator: TCP flags and window\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_ctl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_ctl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_ctl`] module"]
#[doc(alias = "TXGEN_CTL")]
pub type TxgenCtl = crate::Reg<txgen_ctl::TxgenCtlSpec>;
#[doc = "Frame generator: TCP flags and window"]
pub mod txgen_ctl;
#[doc = "TXGEN_OPTS (rw) register accessor: Frame generator: options (docs/server-open.md): the SYN form MSS, SACK_PERM/NOP NOP, TS, NOP WS; the ACK form NOP NOP TS or none\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_opts::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_opts::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_opts`] module"]
#[doc(alias = "TXGEN_OPTS")]
pub type TxgenOpts = crate::Reg<txgen_opts::TxgenOptsSpec>;
#[doc = "Frame generator: options (docs/server-open.md): the SYN form MSS, SACK_PERM/NOP NOP, TS, NOP WS; the ACK form NOP NOP TS or none"]
pub mod txgen_opts;
#[doc = "TXGEN_TSVAL (rw) register accessor: Frame generator: timestamp value (TS)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_tsval::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_tsval::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_tsval`] module"]
#[doc(alias = "TXGEN_TSVAL")]
pub type TxgenTsval = crate::Reg<txgen_tsval::TxgenTsvalSpec>;
#[doc = "Frame generator: timestamp value (TS)"]
pub mod txgen_tsval;
#[doc = "TXGEN_TSECR (rw) register accessor: Frame generator: timestamp echo reply (TS)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_tsecr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_tsecr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_tsecr`] module"]
#[doc(alias = "TXGEN_TSECR")]
pub type TxgenTsecr = crate::Reg<txgen_tsecr::TxgenTsecrSpec>;
#[doc = "Frame generator: timestamp echo reply (TS)"]
pub mod txgen_tsecr;
#[doc = "TXGEN_GO (w) register accessor: Send the staged request's frame out of a port; refused and counted in TXGEN_REFUSED while TXGEN_STATUS.BUSY (the staged registers must not be written then)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_go::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_go`] module"]
#[doc(alias = "TXGEN_GO")]
pub type TxgenGo = crate::Reg<txgen_go::TxgenGoSpec>;
#[doc = "Send the staged request's frame out of a port; refused and counted in TXGEN_REFUSED while TXGEN_STATUS.BUSY (the staged registers must not be written then)"]
pub mod txgen_go;
#[doc = "TXGEN_STATUS (r) register accessor: Frame generator state\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_status`] module"]
#[doc(alias = "TXGEN_STATUS")]
pub type TxgenStatus = crate::Reg<txgen_status::TxgenStatusSpec>;
#[doc = "Frame generator state"]
pub mod txgen_status;
#[doc = "TXGEN_SENT_C (r) register accessor: Frames the generator sent out of the client port since reset (last beat taken)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_sent_c::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_sent_c`] module"]
#[doc(alias = "TXGEN_SENT_C")]
pub type TxgenSentC = crate::Reg<txgen_sent_c::TxgenSentCSpec>;
#[doc = "Frames the generator sent out of the client port since reset (last beat taken)"]
pub mod txgen_sent_c;
#[doc = "TXGEN_SENT_S (r) register accessor: Frames the generator sent out of the server port since reset (last beat taken)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_sent_s::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_sent_s`] module"]
#[doc(alias = "TXGEN_SENT_S")]
pub type TxgenSentS = crate::Reg<txgen_sent_s::TxgenSentSSpec>;
#[doc = "Frames the generator sent out of the server port since reset (last beat taken)"]
pub mod txgen_sent_s;
#[doc = "TXGEN_REFUSED (r) register accessor: TXGEN_GO writes refused since reset (TXGEN_STATUS.BUSY)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_refused::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@txgen_refused`] module"]
#[doc(alias = "TXGEN_REFUSED")]
pub type TxgenRefused = crate::Reg<txgen_refused::TxgenRefusedSpec>;
#[doc = "TXGEN_GO writes refused since reset (TXGEN_STATUS.BUSY)"]
pub mod txgen_refused;
#[doc = "FIN_CTRL (rw) register accessor: The spliced flows' FINs (docs/engine.md, \"Teardown\"): the FIN_RST events and the per-server counts of first FINs\n\nYou can [`read`](crate::Reg::read) this register and get [`fin_ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`fin_ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@fin_ctrl`] module"]
#[doc(alias = "FIN_CTRL")]
pub type FinCtrl = crate::Reg<fin_ctrl::FinCtrlSpec>;
#[doc = "The spliced flows' FINs (docs/engine.md, \"Teardown\"): the FIN_RST events and the per-server counts of first FINs"]
pub mod fin_ctrl;
#[doc = "FIN_COUNT_IDX (rw) register accessor: The real server FIN_COUNT reads (an entry's FlowStatic.real_server, below REAL_SERVERS)\n\nYou can [`read`](crate::Reg::read) this register and get [`fin_count_idx::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`fin_count_idx::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@fin_count_idx`] module"]
#[doc(alias = "FIN_COUNT_IDX")]
pub type FinCountIdx = crate::Reg<fin_count_idx::FinCountIdxSpec>;
#[doc = "The real server FIN_COUNT reads (an entry's FlowStatic.real_server, below REAL_SERVERS)"]
pub mod fin_count_idx;
#[doc = "FIN_COUNT (r) register accessor: Flows of real server FIN_COUNT_IDX.RS whose first FIN (from either side) the fast path forwarded while the flow's static entry had the ACTIVE flag, since power-up (a reset does not clear them: the firmware takes differences), modulo 2^32: the connections that left ESTABLISHED by a FIN (IPVS's active to inactive), counted by the card (valid two cycles after an FIN_COUNT_IDX write; 0 for an index at or past REAL_SERVERS)\n\nYou can [`read`](crate::Reg::read) this register and get [`fin_count::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@fin_count`] module"]
#[doc(alias = "FIN_COUNT")]
pub type FinCount = crate::Reg<fin_count::FinCountSpec>;
#[doc = "Flows of real server FIN_COUNT_IDX.RS whose first FIN (from either side) the fast path forwarded while the flow's static entry had the ACTIVE flag, since power-up (a reset does not clear them: the firmware takes differences), modulo 2^32: the connections that left ESTABLISHED by a FIN (IPVS's active to inactive), counted by the card (valid two cycles after an FIN_COUNT_IDX write; 0 for an index at or past REAL_SERVERS)"]
pub mod fin_count;
#[doc = "HEAD_ALLOC (r) register accessor: Request-head buffers (head_buf, docs/head-buf.md, \"In the data path\"): a read takes the buffer the data path holds ready from head_buf's free list (VALID set; the next is fetched at once) or reports none free (VALID clear, nothing taken)\n\nYou can [`read`](crate::Reg::read) this register and get [`head_alloc::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_alloc`] module"]
#[doc(alias = "HEAD_ALLOC")]
pub type HeadAlloc = crate::Reg<head_alloc::HeadAllocSpec>;
#[doc = "Request-head buffers (head_buf, docs/head-buf.md, \"In the data path\"): a read takes the buffer the data path holds ready from head_buf's free list (VALID set; the next is fetched at once) or reports none free (VALID clear, nothing taken)"]
pub mod head_alloc;
#[doc = "HEAD_FREE (w) register accessor: Give a request-head buffer back to the free list (one not in use is refused and counted in HEAD_BAD); a buffer handed to HEAD_REPLAY comes back by itself\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_free::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_free`] module"]
#[doc(alias = "HEAD_FREE")]
pub type HeadFree = crate::Reg<head_free::HeadFreeSpec>;
#[doc = "Give a request-head buffer back to the free list (one not in use is refused and counted in HEAD_BAD); a buffer handed to HEAD_REPLAY comes back by itself"]
pub mod head_free;
#[doc = "HEAD_APPEND (w) register accessor: Start a segment of request bytes for a buffer: its position in the head and its length; the bytes follow in ceil(LEN / 4) HEAD_DATA writes (a HEAD_APPEND before they are all written is refused and counted in HEAD_BAD; the words still go to the open segment). head_buf stores the bytes that extend the stored head contiguously, at most HEAD_BUFFER_BYTES\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_append::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_append`] module"]
#[doc(alias = "HEAD_APPEND")]
pub type HeadAppend = crate::Reg<head_append::HeadAppendSpec>;
#[doc = "Start a segment of request bytes for a buffer: its position in the head and its length; the bytes follow in ceil(LEN / 4) HEAD_DATA writes (a HEAD_APPEND before they are all written is refused and counted in HEAD_BAD; the words still go to the open segment). head_buf stores the bytes that extend the stored head contiguously, at most HEAD_BUFFER_BYTES"]
pub mod head_append;
#[doc = "HEAD_DATA (w) register accessor: The next four bytes of the segment HEAD_APPEND started, the first in bits 7:0 (bytes past LEN in the last word are ignored; a write with no segment open is counted in HEAD_BAD)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_data::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_data`] module"]
#[doc(alias = "HEAD_DATA")]
pub type HeadData = crate::Reg<head_data::HeadDataSpec>;
#[doc = "The next four bytes of the segment HEAD_APPEND started, the first in bits 7:0 (bytes past LEN in the last word are ignored; a write with no segment open is counted in HEAD_BAD)"]
pub mod head_data;
#[doc = "HEAD_COPY (w) register accessor: Instead of HEAD_DATA words: the segment HEAD_APPEND opened is copied by the card from a frame in the punt ring, its LEN bytes from byte FROM of the frame in SLOT (the firmware keeps the slot, PUNT.CONS not past it, until HEAD_STATUS.APPENDING clears). Refused and counted in HEAD_BAD with no segment open or a copy under way\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_copy::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_copy`] module"]
#[doc(alias = "HEAD_COPY")]
pub type HeadCopy = crate::Reg<head_copy::HeadCopySpec>;
#[doc = "Instead of HEAD_DATA words: the segment HEAD_APPEND opened is copied by the card from a frame in the punt ring, its LEN bytes from byte FROM of the frame in SLOT (the firmware keeps the slot, PUNT.CONS not past it, until HEAD_STATUS.APPENDING clears). Refused and counted in HEAD_BAD with no segment open or a copy under way"]
pub mod head_copy;
#[doc = "ABSORB_CTRL (rw) register accessor: The SYN-ACK absorber in the data path (docs/server-open.md, \"The absorber in the data path\"): with ENABLE, a server-port SYN-ACK (SYN and ACK, no RST or FIN, options in one of the layouts of the card's own SYNs) that hits a CONNECTING entry armed by the firmware (record SetupCtx) is checked by the card, which writes the SPLICED entry, sends the handshake ACK and the request head from its buffer and queues the setup in ABSORB_HEAD (the SYN-ACK dropped; punted with verdict ABSORBED when that queue is full); any other outcome punts it as before (ABSORB_PUNTED)\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_ctrl::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`absorb_ctrl::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@absorb_ctrl`] module"]
#[doc(alias = "ABSORB_CTRL")]
pub type AbsorbCtrl = crate::Reg<absorb_ctrl::AbsorbCtrlSpec>;
#[doc = "The SYN-ACK absorber in the data path (docs/server-open.md, \"The absorber in the data path\"): with ENABLE, a server-port SYN-ACK (SYN and ACK, no RST or FIN, options in one of the layouts of the card's own SYNs) that hits a CONNECTING entry armed by the firmware (record SetupCtx) is checked by the card, which writes the SPLICED entry, sends the handshake ACK and the request head from its buffer and queues the setup in ABSORB_HEAD (the SYN-ACK dropped; punted with verdict ABSORBED when that queue is full); any other outcome punts it as before (ABSORB_PUNTED)"]
pub mod absorb_ctrl;
#[doc = "ABSORB_DONE (r) register accessor: SYN-ACKs absorbed since reset (entry SPLICED, handshake ACK and head sent by the card)\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_done::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@absorb_done`] module"]
#[doc(alias = "ABSORB_DONE")]
pub type AbsorbDone = crate::Reg<absorb_done::AbsorbDoneSpec>;
#[doc = "SYN-ACKs absorbed since reset (entry SPLICED, handshake ACK and head sent by the card)"]
pub mod absorb_done;
#[doc = "ABSORB_PUNTED (r) register accessor: SYN-ACKs of armed entries left to the firmware since reset: another verdict than SPLICE, a head longer than the replay chunk, options in another layout, the absorber's queue full, or a firmware write of the entry while it was absorbed\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_punted::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@absorb_punted`] module"]
#[doc(alias = "ABSORB_PUNTED")]
pub type AbsorbPunted = crate::Reg<absorb_punted::AbsorbPuntedSpec>;
#[doc = "SYN-ACKs of armed entries left to the firmware since reset: another verdict than SPLICE, a head longer than the replay chunk, options in another layout, the absorber's queue full, or a firmware write of the entry while it was absorbed"]
pub mod absorb_punted;
#[doc = "ABSORB_DISARM (w) register accessor: Take an armed entry back before writing it (the absorber does this in turn with the SYN-ACKs it absorbs, so exactly one of the two happens): the card reads the slot's entry and, when it is CONNECTING, armed and of generation GEN, writes it back unarmed; ABSORB_STATUS says what it found (DisarmResult). Written while ABSORB_STATUS.BUSY: ignored\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`absorb_disarm::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@absorb_disarm`] module"]
#[doc(alias = "ABSORB_DISARM")]
pub type AbsorbDisarm = crate::Reg<absorb_disarm::AbsorbDisarmSpec>;
#[doc = "Take an armed entry back before writing it (the absorber does this in turn with the SYN-ACKs it absorbs, so exactly one of the two happens): the card reads the slot's entry and, when it is CONNECTING, armed and of generation GEN, writes it back unarmed; ABSORB_STATUS says what it found (DisarmResult). Written while ABSORB_STATUS.BUSY: ignored"]
pub mod absorb_disarm;
#[doc = "ABSORB_STATUS (r) register accessor: The last ABSORB_DISARM's result\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@absorb_status`] module"]
#[doc(alias = "ABSORB_STATUS")]
pub type AbsorbStatus = crate::Reg<absorb_status::AbsorbStatusSpec>;
#[doc = "The last ABSORB_DISARM's result"]
pub mod absorb_status;
#[doc = "ABSORB_HEAD (r) register accessor: The absorber's done queue (ABSORB_QUEUE_DEPTH records): the oldest setup whose SYN-ACK the card absorbed and dropped (no punt); the firmware does its bookkeeping and removes it with ABSORB_POP. When the queue is full the SYN-ACK is punted with verdict ABSORBED instead (ABSORB_SPILLED)\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_head::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@absorb_head`] module"]
#[doc(alias = "ABSORB_HEAD")]
pub type AbsorbHead = crate::Reg<absorb_head::AbsorbHeadSpec>;
#[doc = "The absorber's done queue (ABSORB_QUEUE_DEPTH records): the oldest setup whose SYN-ACK the card absorbed and dropped (no punt); the firmware does its bookkeeping and removes it with ABSORB_POP. When the queue is full the SYN-ACK is punted with verdict ABSORBED instead (ABSORB_SPILLED)"]
pub mod absorb_head;
#[doc = "ABSORB_POP (w) register accessor: Any write removes the head of the absorber's done queue (nothing when it is empty)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`absorb_pop::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@absorb_pop`] module"]
#[doc(alias = "ABSORB_POP")]
pub type AbsorbPop = crate::Reg<absorb_pop::AbsorbPopSpec>;
#[doc = "Any write removes the head of the absorber's done queue (nothing when it is empty)"]
pub mod absorb_pop;
#[doc = "ABSORB_SPILLED (r) register accessor: Absorbed SYN-ACKs punted with verdict ABSORBED since reset because the done queue was full\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_spilled::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@absorb_spilled`] module"]
#[doc(alias = "ABSORB_SPILLED")]
pub type AbsorbSpilled = crate::Reg<absorb_spilled::AbsorbSpilledSpec>;
#[doc = "Absorbed SYN-ACKs punted with verdict ABSORBED since reset because the done queue was full"]
pub mod absorb_spilled;
#[doc = "HEAD_REPLAY (w) register accessor: Send a buffer's head to the server port behind the handshake ACK staged in DP.TXGEN_* (its ACK form: addresses, ports, seq, ack, flags, window, timestamps; the TCP checksum from the buffer's running sum, PSH added when the head is not empty) and give the buffer back once read; a head longer than MAX_LEN sends nothing (HEAD_LONG; the buffer still comes back). Refused and counted in TXGEN_REFUSED while TXGEN_STATUS.BUSY, which covers the replay until it has taken the staged registers\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_replay::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_replay`] module"]
#[doc(alias = "HEAD_REPLAY")]
pub type HeadReplay = crate::Reg<head_replay::HeadReplaySpec>;
#[doc = "Send a buffer's head to the server port behind the handshake ACK staged in DP.TXGEN_* (its ACK form: addresses, ports, seq, ack, flags, window, timestamps; the TCP checksum from the buffer's running sum, PSH added when the head is not empty) and give the buffer back once read; a head longer than MAX_LEN sends nothing (HEAD_LONG; the buffer still comes back). Refused and counted in TXGEN_REFUSED while TXGEN_STATUS.BUSY, which covers the replay until it has taken the staged registers"]
pub mod head_replay;
#[doc = "HEAD_STATUS (rw) register accessor: Request-head buffers: the last segment's result and the occupancy; a write restarts IN_USE_MAX at the current IN_USE\n\nYou can [`read`](crate::Reg::read) this register and get [`head_status::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_status::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_status`] module"]
#[doc(alias = "HEAD_STATUS")]
pub type HeadStatus = crate::Reg<head_status::HeadStatusSpec>;
#[doc = "Request-head buffers: the last segment's result and the occupancy; a write restarts IN_USE_MAX at the current IN_USE"]
pub mod head_status;
#[doc = "HEAD_SENT (r) register accessor: Heads sent to the server port by HEAD_REPLAY since reset\n\nYou can [`read`](crate::Reg::read) this register and get [`head_sent::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_sent`] module"]
#[doc(alias = "HEAD_SENT")]
pub type HeadSent = crate::Reg<head_sent::HeadSentSpec>;
#[doc = "Heads sent to the server port by HEAD_REPLAY since reset"]
pub mod head_sent;
#[doc = "HEAD_LONG (r) register accessor: HEAD_REPLAY requests whose head was longer than MAX_LEN (nothing sent) since reset\n\nYou can [`read`](crate::Reg::read) this register and get [`head_long::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_long`] module"]
#[doc(alias = "HEAD_LONG")]
pub type HeadLong = crate::Reg<head_long::HeadLongSpec>;
#[doc = "HEAD_REPLAY requests whose head was longer than MAX_LEN (nothing sent) since reset"]
pub mod head_long;
#[doc = "HEAD_BAD (r) register accessor: Refused head-buffer operations since reset: frees of a buffer not in use, segments for a buffer not in use or past a hole in the head, HEAD_DATA writes with no segment open or during a copy, HEAD_COPY writes with no segment open or during a copy, HEAD_APPEND writes while a segment is open, HEAD_FREE of the buffer held ready for HEAD_ALLOC\n\nYou can [`read`](crate::Reg::read) this register and get [`head_bad::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@head_bad`] module"]
#[doc(alias = "HEAD_BAD")]
pub type HeadBad = crate::Reg<head_bad::HeadBadSpec>;
#[doc = "Refused head-buffer operations since reset: frees of a buffer not in use, segments for a buffer not in use or past a hole in the head, HEAD_DATA writes with no segment open or during a copy, HEAD_COPY writes with no segment open or during a copy, HEAD_APPEND writes while a segment is open, HEAD_FREE of the buffer held ready for HEAD_ALLOC"]
pub mod head_bad;
