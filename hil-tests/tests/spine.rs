//! The card spine on the simulated rig: the real firmware on the real gateware.

use splicenic_driver::card::CoreState;
use splicenic_driver::{
    Bar, BarError, Card, DriverError, FirmwareError, FirmwareImage, FwState, LogLine, LogReader,
};
use splicenic_hil::{boot_sim, firmware_bytes, open_sim, test_config};
use splicenic_sim::{SimCard, SimConfig};
use std::time::Duration;

#[test]
fn firmware_boots_and_answers_the_mailbox() {
    // The soft core $SPLICENIC_SIM_CPU asks for is the one that runs (cargo xtask test runs
    // this suite on both builds).
    let sim = SimCard::new(test_config()).expect("the requested soft core is built in");
    assert_eq!(sim.cpu(), splicenic_hil::test_cpu());
    drop(sim);
    let (mut card, report) = boot_sim(test_config()).expect("boot");
    assert!(report.image_bytes > 1024, "{report}");
    assert_eq!(card.fw_state().unwrap(), FwState::Ready);

    let p1 = card.mailbox().ping().expect("ping");
    let p2 = card.mailbox().ping().expect("ping");
    assert!(p2.timer > p1.timer, "the card timer advances between pings");

    let v = card.mailbox().firmware_version().expect("version");
    let crate_version: Vec<u8> = env!("CARGO_PKG_VERSION")
        .split('.')
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(
        [v.major, v.minor, v.patch].as_slice(),
        crate_version.as_slice()
    );
    assert_eq!(v.api_version, splicenic_fw_logic::mailbox::API_VERSION);
    assert!(
        v.build.starts_with("splicenic-fw"),
        "build string {:?}",
        v.build
    );

    let words: Vec<u32> = (0..16u32)
        .map(|i| i.wrapping_mul(0x9E37_79B9) ^ 0xA5A5_0000)
        .collect();
    assert_eq!(card.mailbox().echo(&words).expect("echo"), words);
    assert_eq!(
        card.mailbox().echo(&[]).expect("empty echo"),
        Vec::<u32>::new()
    );

    // Unknown command: the firmware answers with its status code, it does not hang.
    let (status, _) = card
        .mailbox()
        .call(0x7777, &[], Duration::from_secs(5))
        .expect("call");
    assert_eq!(status, splicenic_fw_logic::mailbox::status::UNKNOWN_COMMAND);

    // The firmware's main loop keeps running.
    let h1 = card.status().unwrap().heartbeat;
    card.bar_mut().pause(Duration::from_micros(200)).unwrap();
    let h2 = card.status().unwrap().heartbeat;
    assert!(h2 > h1, "heartbeat {h1} -> {h2}");
}

#[test]
fn decoded_firmware_log_reaches_the_host() {
    let elf = firmware_bytes().unwrap();
    let (mut card, _) = boot_sim(test_config()).expect("boot");
    let mut log = LogReader::new(&elf).expect("defmt table");
    card.mailbox().ping().unwrap();
    card.mailbox().echo(&[1, 2, 3]).unwrap();
    let lines = log.poll(&mut card).expect("log");
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    assert!(
        lines.iter().any(|l| matches!(l, LogLine::Message { level: Some(lv), text, .. } if lv == "INFO" && text.contains("splicenic-fw"))),
        "no INFO startup line in {text:#?}"
    );
    assert!(
        text.iter().any(|l| l.to_lowercase().contains("ping")),
        "no ping line in {text:#?}"
    );
    assert!(
        text.iter()
            .any(|l| l.contains("data path: DATA_WIDTH 64") && l.contains("65536 flow slots")),
        "no data-path line in {text:#?}"
    );
    assert!(
        !lines.iter().any(|l| matches!(l, LogLine::Malformed { .. })),
        "{text:#?}"
    );
    // A second poll returns only new lines.
    assert!(log
        .poll(&mut card)
        .unwrap()
        .iter()
        .all(|l| !l.to_string().contains("serving the mailbox")));
}

/// A BAR whose window starts one block too far: what a wrong BAR or a different device
/// looks like to the driver. Wraps the real simulated card.
struct ShiftedBar(SimCard, u64);

impl Bar for ShiftedBar {
    fn size(&self) -> u64 {
        self.0.size() - self.1
    }
    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        self.0.read32(offset + self.1)
    }
    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        self.0.write32(offset + self.1, value)
    }
    fn describe(&self) -> String {
        "shifted simulated card".into()
    }
}

#[test]
fn driver_refuses_a_card_whose_id_block_is_wrong() {
    let sim = SimCard::new(test_config()).unwrap();
    let err = match Card::open(Box::new(ShiftedBar(sim, 0x1000))) {
        Ok(_) => panic!("a card with a wrong ID block must be refused"),
        Err(e) => e,
    };
    let msg = err.to_string();
    assert!(msg.contains("MAGIC") && msg.contains("0x534e4943"), "{msg}");
}

#[test]
fn loader_rejects_bad_images_with_distinct_errors() {
    let good = firmware_bytes().unwrap();
    // Wrong architecture: this test program itself is an x86-64 ELF.
    let host_elf = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    assert!(matches!(
        FirmwareImage::parse(&host_elf),
        Err(FirmwareError::WrongClass { .. } | FirmwareError::WrongArch { .. })
    ));
    // Truncated: the real firmware cut short, at the end (section headers lost) and inside
    // the program headers.
    for cut in [good.len() - 1, good.len() / 2, 60] {
        let r = FirmwareImage::parse(&good[..cut]);
        assert!(
            matches!(r, Err(FirmwareError::Truncated(_))),
            "cut at {cut}: {r:?}"
        );
    }
    // Garbage.
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    assert_eq!(FirmwareImage::parse(&garbage), Err(FirmwareError::NotElf));
    // Oversize for this card: the card reports its own IMEM size; a card with less IMEM
    // than the image refuses before anything is written.
    let img = FirmwareImage::parse(&good).unwrap();
    let card = open_sim(test_config()).unwrap();
    let mut small = card.info().clone();
    small.imem_size = (img.image_bytes() as u32 / 2) & !3;
    assert!(matches!(
        img.check_fits(&small),
        Err(FirmwareError::Oversize { .. })
    ));
    assert!(img.check_fits(card.info()).is_ok());
}

/// File offset of program header `i`'s contents in an ELF32 file.
fn segment_file_offset(elf: &[u8], i: usize) -> usize {
    let u32_at = |o: usize| u32::from_le_bytes([elf[o], elf[o + 1], elf[o + 2], elf[o + 3]]);
    let phoff = u32_at(28) as usize;
    u32_at(phoff + 32 * i + 4) as usize
}

#[test]
fn a_flipped_byte_in_the_real_firmware_is_refused_naming_its_segment_and_nothing_boots() {
    let good = firmware_bytes().unwrap();
    let img = FirmwareImage::parse(&good).unwrap();
    assert!(img.is_sealed(), "the build seals the firmware");
    // Every loadable segment with contents: one flipped bit in the file is refused by the
    // parser, naming the segment (the case that once booted and trapped on the first
    // request).
    for (index, s) in img.segments.iter().enumerate() {
        if s.data.is_empty() {
            continue;
        }
        let mut bad = good.clone();
        bad[segment_file_offset(&good, index) + s.data.len() / 2] ^= 0x04;
        let e = FirmwareImage::parse(&bad).unwrap_err();
        assert_eq!(
            e,
            FirmwareError::SegmentAltered {
                index,
                paddr: s.paddr,
                len: s.data.len()
            }
        );
    }
    // Bytes the loader never writes (the debug sections at the end) are not sealed.
    let mut debug = good.clone();
    let n = debug.len();
    debug[n / 2 + n / 4] ^= 0x04;
    assert_eq!(FirmwareImage::parse(&debug).unwrap(), img);
    // The driver checks again before writing: an image altered in memory after parsing
    // is refused, and the core stays in reset with nothing written.
    let mut card = open_sim(test_config()).unwrap();
    let mut altered = img.clone();
    altered.segments[0].data[100] ^= 0x01;
    let e = card.firmware().load(&altered, |_, _| {}).unwrap_err();
    assert!(e.to_string().contains("segment 0"), "{e}");
    assert_eq!(card.status().unwrap().core, CoreState::InReset);
    assert_eq!(card.fw_state().unwrap(), FwState::Off);
    let r = card.firmware().load(&img, |_, _| {}).unwrap();
    assert_eq!(r.seal, img.seal.as_ref().map(|s| s.fingerprint()));
    assert!(r.to_string().contains("verified"), "{r}");
    card.mailbox().ping().unwrap();
}

#[test]
fn core_stays_in_reset_until_released_and_reset_clears_firmware_state() {
    let mut card = open_sim(test_config()).unwrap();
    let st = card.status().unwrap();
    assert_eq!(st.core, CoreState::InReset);
    assert_eq!(card.fw_state().unwrap(), FwState::Off);

    let img = FirmwareImage::parse(&firmware_bytes().unwrap()).unwrap();
    card.firmware().load(&img, |_, _| {}).unwrap();
    assert_eq!(card.fw_state().unwrap(), FwState::Ready);
    // Loading again resets the core first: the firmware boots a second time.
    let r = card.firmware().load(&img, |_, _| {}).unwrap();
    assert!(r.boot > Duration::ZERO);
    assert_eq!(card.fw_state().unwrap(), FwState::Ready);
    card.mailbox().ping().unwrap();
}

#[test]
fn mailbox_times_out_cleanly_when_the_core_is_held_in_reset() {
    let mut card = open_sim(test_config()).unwrap();
    let err = card
        .mailbox()
        .call(
            splicenic_fw_logic::mailbox::cmd::PING,
            &[],
            Duration::from_millis(50),
        )
        .unwrap_err();
    assert!(matches!(err, DriverError::MailboxTimeout { .. }), "{err}");
    assert!(
        err.to_string().to_lowercase().contains("ping") || err.to_string().contains("0x1"),
        "{err}"
    );
}

#[test]
fn firmware_reads_the_data_path_registers() {
    use splicenic_driver::regs::dp;
    let (mut card, _) = boot_sim(test_config()).expect("boot");
    let info = card
        .mailbox()
        .dp_info()
        .expect("DP_INFO")
        .expect("the card has the splicer");
    let bar = card.bar_mut();
    let params = bar.read32(dp::PARAMS).unwrap();
    assert_eq!(info.data_width, params & 0xffff);
    assert_eq!(info.rewriter_latency, params >> 16);
    assert_eq!(info.flow_capacity, bar.read32(dp::FLOW_CAPACITY).unwrap());
    assert_eq!(info.flow_slots, bar.read32(dp::FLOW_SLOTS).unwrap());
    assert_eq!((info.data_width, info.flow_capacity), (64, 131_072));
    // DP.NOW counts 2^16-cycle ticks: the firmware's reading is not ahead of the host's.
    let now = bar.read32(dp::NOW).unwrap();
    assert!(
        now.wrapping_sub(info.now) < 1 << 31,
        "DP.NOW {} then {now}",
        info.now
    );
}

#[test]
fn firmware_delay_uses_the_soc_timer() {
    let (mut card, _) = boot_sim(test_config()).expect("boot");
    let clk = card.info().clk_hz as u64;
    for us in [10u32, 100, 400] {
        let cycles = card.mailbox().delay(us).expect("delay");
        let want = u64::from(us) * clk / 1_000_000;
        // Never shorter than asked; at most a few timer polls longer.
        assert!(
            cycles >= want,
            "{us} us took {cycles} cycles, expected >= {want}"
        );
        assert!(
            cycles < want + 2_000,
            "{us} us took {cycles} cycles, expected about {want}"
        );
    }
    let (status, _) = card
        .mailbox()
        .call(
            splicenic_fw_logic::mailbox::cmd::DELAY,
            &[0],
            Duration::from_secs(5),
        )
        .unwrap();
    assert_eq!(status, splicenic_fw_logic::mailbox::status::BAD_ARGUMENT);
}

#[test]
fn a_core_that_traps_is_never_reported_ready() {
    use splicenic_driver::card::CoreState;
    // PicoRV32, whatever $SPLICENIC_SIM_CPU says: it stops with CORE_STATUS.TRAP on an
    // illegal instruction fetched from IMEM (VexRiscv runs from its instruction cache and
    // takes exceptions through mtvec).
    let pico = SimConfig {
        cpu: splicenic_sim::Cpu::PicoRv32,
        ..SimConfig::default()
    };
    let (mut card, _) = boot_sim(pico).expect("boot");
    assert_eq!(card.status().unwrap().fw_state, FwState::Ready);
    // An all-zero word is an illegal instruction: overwrite the running firmware's code.
    let (window, size) = (card.info().imem_window, u64::from(card.info().imem_size));
    for off in (0..size).step_by(4) {
        card.bar_mut().write32(window + off, 0).unwrap();
    }
    let st = splicenic_hil::wait::until("the core trapping", Duration::from_secs(60), || {
        card.bar_mut().pause(Duration::from_micros(50)).unwrap();
        let st = card.status().unwrap();
        (st.core == CoreState::Trapped).then_some(st)
    });
    // FW_STATE still holds the READY the firmware wrote; the status says otherwise.
    assert_eq!(card.fw_state().unwrap(), FwState::Ready);
    assert_eq!(
        st.fw_state,
        FwState::Stopped(splicenic_driver::regs::ctrl::fw_state::STATE_READY)
    );
    card.set_mailbox_timeout(Duration::from_secs(2));
    assert!(
        card.mailbox().ping().is_err(),
        "a trapped core answered a ping"
    );
}
