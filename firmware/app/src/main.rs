//! SpliceNIC soft-core firmware: reports its state in CTRL, serves the host mailbox and logs
//! through defmt into the log ring.

#![no_std]
#![no_main]

mod dp;
mod logger;
mod soc;

use core::mem::MaybeUninit;
use core::panic::PanicInfo;

use splicenic_fw_logic::mailbox::{
    self, handle_request, parse_decimal_u32, parse_version_component, BuildInfo, Env, Response,
    Version, MAX_WORDS,
};
use splicenic_fw_logic::splicer::capture::CaptureBuf;
use splicenic_fw_logic::splicer::record::RulesetBuf;
use splicenic_fw_logic::splicer::{
    Pool, Pools, ReqBufs, SlotList, Splicer, Tables, MAX_POOLS, PENDING,
};
use splicenic_pac::ctrl::fw_state::State;
use splicenic_pac::{Ctrl, Peripherals};

use embedded_hal::delay::DelayNs;
use soc::{now, write_reg, TimerDelay};

const fn unwrap_const<T: Copy>(v: Option<T>, what: &str) -> T {
    match v {
        Some(v) => v,
        None => panic!("{}", what),
    }
}

const VERSION: Version = Version {
    major: unwrap_const(
        parse_version_component(env!("CARGO_PKG_VERSION_MAJOR")),
        "version major does not fit u8",
    ),
    minor: unwrap_const(
        parse_version_component(env!("CARGO_PKG_VERSION_MINOR")),
        "version minor does not fit u8",
    ),
    patch: unwrap_const(
        parse_version_component(env!("CARGO_PKG_VERSION_PATCH")),
        "version patch does not fit u8",
    ),
};

const BUILD_ID: u32 = unwrap_const(
    parse_decimal_u32(env!("SPLICENIC_FW_BUILD_ID")),
    "SPLICENIC_FW_BUILD_ID from build.rs is not a decimal u32",
);

static BUILD_INFO: BuildInfo = BuildInfo::new(VERSION, BUILD_ID, env!("SPLICENIC_FW_BUILD_STRING"));

// Log timestamps in microseconds since the core left reset (the host shows seconds).
defmt::timestamp!(
    "{=u64:us}",
    splicenic_fw_logic::time::cycles_to_us(now(), soc::clk_hz())
);

// The large tables live in `.uninit`, which riscv-rt does not zero at boot: zeroing their
// 174 KiB would take most of the boot time. All of them but POOLS consist of integers only,
// so every bit pattern is a valid value; the host loader zero-fills the whole DMEM before it
// releases the core anyway, and `Splicer::new` resets the free list's bookkeeping (head,
// length, bitmap), so the ring's and the buffers' old contents are never read before they
// are written (the rule-set record and the capture ring keep their lengths and positions in
// the splicer). POOLS holds `Option`s, so main writes `None` into each entry before it
// creates a reference (a few stores, not a 60 KiB fill).
/// The free list of flow slots.
#[link_section = ".uninit.splicenic.free_list"]
static mut FREE_LIST: MaybeUninit<SlotList> = MaybeUninit::uninit();
/// Request buffers of the connections in setup.
#[link_section = ".uninit.splicenic.req_bufs"]
static mut REQ_BUFS: MaybeUninit<ReqBufs> = MaybeUninit::uninit();
/// The pools (servers and scheduler state): outside the splicer, so neither main's stack
/// frame nor `Splicer::new`'s holds them.
#[link_section = ".uninit.splicenic.pools"]
static mut POOLS: MaybeUninit<Pools> = MaybeUninit::uninit();
/// The rule-set record the host stores (RULESET_*).
#[link_section = ".uninit.splicenic.ruleset"]
static mut RULESET: MaybeUninit<RulesetBuf> = MaybeUninit::uninit();
/// The packet-capture ring (CAPTURE_*), read by the host through the DMEM window.
#[link_section = ".uninit.splicenic.capture"]
static mut CAPTURE: MaybeUninit<CaptureBuf> = MaybeUninit::uninit();

/// The dispatcher's view of the SoC.
struct FwEnv<'a, 'b> {
    delay: TimerDelay,
    flows: Option<(&'a mut Splicer<'b>, &'a mut dp::DataPath)>,
}

impl Env for FwEnv<'_, '_> {
    fn now(&mut self) -> u64 {
        now()
    }

    fn build_info(&self) -> &BuildInfo {
        &BUILD_INFO
    }

    fn delay_us(&mut self, us: u32) {
        self.delay.delay_us(us);
    }

    fn datapath_info(&mut self) -> Option<[u32; 4]> {
        // SAFETY: ID.CAPS and the DP registers read here are read-only; reading them
        // cannot disturb the data path or any other user of the blocks.
        let (id, dp) = unsafe { (splicenic_pac::Id::steal(), splicenic_pac::Dp::steal()) };
        if id.caps().read().splicer().bit_is_clear() {
            return None;
        }
        Some([
            dp.params().read().bits(),
            dp.flow_capacity().read().bits(),
            dp.flow_slots().read().bits(),
            dp.now().read().bits(),
        ])
    }

    fn other_command(
        &mut self,
        cmd: u32,
        req: &[u32],
        rsp: &mut [u32; MAX_WORDS],
    ) -> Option<Response> {
        if cmd == mailbox::cmd::DEBUG_HANG {
            defmt::warn!("DEBUG_HANG: stopping (heartbeat frozen) until the core is reset");
            loop {
                core::hint::spin_loop();
            }
        }
        match &mut self.flows {
            Some((splicer, dp)) => splicer.command(*dp, cmd, req, rsp),
            None if mailbox::cmd::name(cmd).is_some() => {
                Some(Response::error(mailbox::status::NO_DATAPATH))
            }
            None => None,
        }
    }
}

/// The ISN secret: there is no entropy source on the card, so it mixes the cycle counter
/// at boot (which depends on how long the host took to release the core) with the data
/// path's clock and the build id. A card with a TRNG would use it here. The hardware SYN
/// responder's cookie keys are derived from it and the cycle counter at each draw
/// (`Splicer::syn_start`, the 60 s rotation).
fn isn_secret() -> (u64, u64) {
    let t = now();
    // SAFETY: DP.NOW is read-only.
    let dp_now = unsafe { splicenic_pac::Dp::steal() }.now().read().bits();
    let k0 = t ^ u64::from(dp_now).rotate_left(32) ^ 0x736f_6d65_7073_6575;
    // Opaque to the optimiser: folded in as a constant, some build ids made the boot code
    // half a kilobyte larger than others (the image's size must not depend on the commit).
    let id = core::hint::black_box(BUILD_ID);
    let k1 = t.rotate_left(17) ^ u64::from(id) ^ 0x646f_7261_6e64_6f83;
    (k0, k1)
}

fn set_state(ctrl: &Ctrl, state: State) {
    ctrl.fw_state().write(|w| w.state().variant(state));
}

#[riscv_rt::entry]
fn main() -> ! {
    // SAFETY: taken once, here. LOG and LOGBUF belong to the logger module, which steals them
    // for its own use; main never touches them. TIMER is read-only and shared (see soc::now).
    let p = unsafe { Peripherals::steal() };
    set_state(&p.ctrl, State::Booting);

    let clk_hz = p.id.clk_hz().read().bits();
    // Read at run time (see `isn_secret`).
    let info = core::hint::black_box(&BUILD_INFO);
    let v = info.version;
    defmt::info!(
        "splicenic-fw {=u8}.{=u8}.{=u8} build {=u32:#010x} ({=str}), clk {=u32} Hz",
        v.major,
        v.minor,
        v.patch,
        info.build_id,
        info.build_str(),
        clk_hz
    );

    let mut env = FwEnv {
        delay: TimerDelay::new(clk_hz),
        flows: None,
    };
    match env.datapath_info() {
        Some([params, capacity, slots, _]) => defmt::info!(
            "data path: DATA_WIDTH {=u32}, rewriter latency {=u32} cycles, {=u32} flow-table entries, {=u32} flow slots",
            params & 0xffff,
            params >> 16,
            capacity,
            slots
        ),
        None => defmt::warn!("no splicer data path on this card"),
    }

    let splicer_present = p.id.caps().read().splicer().bit_is_set();
    // SAFETY: the only place that takes the data-path blocks; the mailbox's DP_INFO only
    // reads read-only DP registers.
    let mut datapath = unsafe { dp::DataPath::take() };
    // SAFETY: FREE_LIST, REQ_BUFS, RULESET and CAPTURE are used only through these
    // references, created once here; main never returns, so they live as long as the
    // program. Their memory is initialised: integer-only types (any bit pattern is valid) in
    // DMEM that the loader zero-filled (see their declaration). The host reads the capture
    // ring through the DMEM window, which does not alias a Rust reference on the core.
    let (free, bufs, ruleset, capture) = unsafe {
        (
            (*core::ptr::addr_of_mut!(FREE_LIST)).assume_init_mut(),
            (*core::ptr::addr_of_mut!(REQ_BUFS)).assume_init_mut(),
            (*core::ptr::addr_of_mut!(RULESET)).assume_init_mut(),
            (*core::ptr::addr_of_mut!(CAPTURE)).assume_init_mut(),
        )
    };
    // SAFETY: POOLS is used only through this reference, created once here (main never
    // returns). Every entry is initialised with `None` through a raw pointer into the static
    // before the reference is created, so it refers to a valid `[Option<Pool>; MAX_POOLS]`.
    let pools = unsafe {
        let first = core::ptr::addr_of_mut!(POOLS).cast::<Option<Pool>>();
        for i in 0..MAX_POOLS {
            first.add(i).write(None);
        }
        (*core::ptr::addr_of_mut!(POOLS)).assume_init_mut()
    };
    // The core address the host finds the ring at (CAPTURE_INFO); DMEM addresses fit 32 bits.
    let capture_addr = capture.as_ptr() as usize as u32;
    let (k0, k1) = isn_secret();
    let slots = if splicer_present {
        datapath.flow_slots() as usize
    } else {
        1
    };
    let tables = Tables { free, bufs, pools };
    let mut splicer = Splicer::new(clk_hz, slots, tables, k0, k1);
    splicer.attach_ruleset(ruleset);
    splicer.attach_capture(capture, capture_addr);
    if splicer_present {
        // After a watchdog restart the data path still holds the flows: take them over.
        splicer.rebuild(&mut datapath);
        // Fresh cookie keys, no service answered in hardware until the host sets services.
        match splicer.syn_start(&mut datapath) {
            0 => defmt::info!("no hardware SYN responder on this card"),
            units => defmt::info!("hardware SYN responder: {=u8} cookie units", units),
        }
        datapath.enable();
        defmt::info!(
            "flow manager: {=usize} flow slots, {=usize} connections in setup at once",
            splicer.slots(),
            PENDING
        );
    }

    set_state(&p.ctrl, State::Ready);
    defmt::info!("ready, serving the mailbox");

    let mbox = &p.mbox;
    let mut heartbeat: u32 = 0;
    loop {
        heartbeat = heartbeat.wrapping_add(1);
        write_reg(p.ctrl.heartbeat(), heartbeat);

        if splicer_present {
            splicer.poll(&mut datapath);
        }
        if mbox.status().read().req_pending().bit_is_clear() {
            continue;
        }
        let mut env = FwEnv {
            delay: TimerDelay::new(clk_hz),
            flows: splicer_present.then_some((&mut splicer, &mut datapath)),
        };
        let tag = mbox.req_tag().read().bits();
        let cmd = mbox.req_cmd().read().bits();
        let req_len = mbox.req_len().read().bits();
        let mut rsp = [0u32; MAX_WORDS];
        // handle_request validates REQ_LEN (0..=16) before reading any REQ_DATA word.
        let r = handle_request(
            cmd,
            req_len,
            |i| mbox.req_data(i).read().bits(),
            &mut rsp,
            &mut env,
        );
        write_reg(mbox.rsp_status(), r.status);
        // r.len <= MAX_WORDS = 16.
        write_reg(mbox.rsp_len(), r.len as u32);
        for (i, &w) in rsp.iter().enumerate().take(r.len) {
            write_reg(mbox.rsp_data(i), w);
        }
        write_reg(mbox.rsp_doorbell(), tag);

        // codes only: the host's log reader adds the names (host-driver log.rs), whose
        // table would cost instruction memory here
        defmt::debug!(
            "mbox tag {=u32} cmd {=u32:#x} len {=u32} -> status {=u32} len {=usize}",
            tag,
            cmd,
            req_len,
            r.status,
            r.len
        );
    }
}

/// Runs before `main` instead of riscv-rt's default, which would write `mtvec`: PicoRV32 has
/// no trap-vector CSR and this firmware uses no interrupts.
#[riscv_rt::setup_interrupts]
fn setup_interrupts(_hart_id: usize) {}

/// Reached only in builds with the rustup target: `cargo xtask build` on Debian's toolchain
/// builds with `-Cpanic=immediate-abort`, where a panic traps the core at once
/// (tools/xtask/src/firmware.rs).
#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    // SAFETY: the program ends here; CTRL is only written, and FW_STATE/HEARTBEAT writes by
    // the interrupted code are finished (single hart, no interrupts).
    let ctrl = unsafe { Ctrl::steal() };
    set_state(&ctrl, State::Panic);
    match info.location() {
        Some(l) => defmt::error!("panic at {=str}:{=u32}", l.file(), l.line()),
        None => defmt::error!("panic"),
    }
    loop {
        core::hint::spin_loop();
    }
}
