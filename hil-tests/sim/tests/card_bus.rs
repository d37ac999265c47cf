//! Host-side behaviour of the Verilated card top over BAR0.

use splicenic_driver::regs::{ctrl, id, log, logbuf, mbox, timer};
use splicenic_driver::{Bar, BarError};
use splicenic_sim::{SimCard, SimConfig};

fn card() -> SimCard {
    SimCard::new(SimConfig::default()).expect("simulated card")
}

#[test]
fn id_block_reads_magic_and_sizes() {
    let mut c = card();
    assert_eq!(c.read32(id::MAGIC).unwrap(), 0x534E_4943);
    assert_eq!(c.read32(id::VERSION).unwrap(), id::version::RESET);
    assert_eq!(c.read32(id::CAPS).unwrap(), id::caps::RESET);
    assert_eq!(c.read32(id::CORE).unwrap() & 0xff, id::core::CPU_PICORV32);
    assert_eq!(u64::from(c.read32(id::CLK_HZ).unwrap()), SimCard::clk_hz());
    assert_eq!(c.read32(id::IMEM_SIZE).unwrap(), 65536);
    assert_eq!(c.read32(id::DMEM_SIZE).unwrap(), 262_144);
    assert_eq!(c.read32(id::IMEM_WINDOW).unwrap(), 0x40000);
    assert_eq!(c.read32(id::DMEM_WINDOW).unwrap(), 0x80000);
    // Writes to the read-only ID block are ignored.
    c.write32(id::MAGIC, 0).unwrap();
    assert_eq!(c.read32(id::MAGIC).unwrap(), id::magic::RESET);
    assert_eq!(c.describe(), "simulated card (in-process, PicoRV32)");
    assert_eq!(c.size(), 1 << 20);
}

#[test]
fn block_ids_are_discoverable() {
    let mut c = card();
    assert_eq!(c.read32(ctrl::BLKID).unwrap(), ctrl::blkid::RESET);
    assert_eq!(c.read32(timer::BLKID).unwrap(), timer::blkid::RESET);
    assert_eq!(c.read32(mbox::BLKID).unwrap(), mbox::blkid::RESET);
    assert_eq!(c.read32(log::BLKID).unwrap(), log::blkid::RESET);
    assert_eq!(c.read32(log::SIZE).unwrap(), 4096);
}

#[test]
fn scratch_reads_back_and_core_starts_in_reset() {
    let mut c = card();
    assert_eq!(c.read32(ctrl::SCRATCH).unwrap(), 0);
    c.write32(ctrl::SCRATCH, 0xA5A5_1234).unwrap();
    assert_eq!(c.read32(ctrl::SCRATCH).unwrap(), 0xA5A5_1234);
    assert_eq!(c.read32(ctrl::CORE_CTRL).unwrap(), 1);
    let status = c.read32(ctrl::CORE_STATUS).unwrap();
    assert_eq!((status >> ctrl::core_status::IN_RESET_SHIFT) & 1, 1);
    assert_eq!((status >> ctrl::core_status::TRAP_SHIFT) & 1, 0);
}

#[test]
fn imem_and_dmem_windows_read_back() {
    let mut c = card();
    let data: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x9E37_79B9) ^ 0x5A5A)
        .collect();
    c.write_block(id::imem_window::RESET.into(), &data).unwrap();
    let mut back = vec![0u32; data.len()];
    c.read_block(id::imem_window::RESET.into(), &mut back)
        .unwrap();
    assert_eq!(back, data);

    // Last word of each memory.
    let imem_last = u64::from(id::imem_window::RESET) + 65536 - 4;
    let dmem_last = u64::from(id::dmem_window::RESET) + 262_144 - 4;
    c.write32(imem_last, 0x1111_2222).unwrap();
    c.write32(dmem_last, 0x3333_4444).unwrap();
    c.write32(dmem_last - 4, 0x5555_6666).unwrap();
    assert_eq!(c.read32(imem_last).unwrap(), 0x1111_2222);
    assert_eq!(c.read32(dmem_last).unwrap(), 0x3333_4444);
    assert_eq!(c.read32(dmem_last - 4).unwrap(), 0x5555_6666);
    // The two memories are distinct.
    assert_eq!(c.read32(id::dmem_window::RESET.into()).unwrap(), 0);
}

#[test]
fn unmapped_offsets_answer_and_out_of_range_is_an_error() {
    let mut c = card();
    // Inside BAR0 but nothing there (0xC_8000 is past the 256 KiB DMEM window): reads
    // 0xDEADBEEF, writes are ignored, no hang.
    for off in [0x3_F000u64, 0x5_0000, 0xC_8000, 0xF_FFFC, 0xD_000] {
        assert_eq!(c.read32(off).unwrap(), 0xDEAD_BEEF, "offset {off:#x}");
        c.write32(off, 1).unwrap();
    }
    assert!(matches!(
        c.read32(1 << 20),
        Err(BarError::OutOfRange { .. })
    ));
    assert!(matches!(
        c.write32(0xF_FFFC + 4, 0),
        Err(BarError::OutOfRange { .. })
    ));
    let mut two = [0u32; 2];
    assert!(matches!(
        c.read_block(0xF_FFFC, &mut two),
        Err(BarError::OutOfRange { .. })
    ));
    assert!(matches!(c.read32(2), Err(BarError::Unaligned(2))));
}

#[test]
fn timer_advances_with_tick_and_latches_hi() {
    let mut c = card();
    let t0 = c.read32(timer::COUNT_LO).unwrap();
    c.tick(10_000);
    let t1 = c.read32(timer::COUNT_LO).unwrap();
    let delta = t1.wrapping_sub(t0);
    // 10 000 ticked cycles plus the few cycles of the bus access itself.
    assert!((10_000..10_100).contains(&delta), "delta {delta}");
    assert_eq!(c.read32(timer::COUNT_HI).unwrap(), 0);
    let before = c.cycles();
    c.pause(std::time::Duration::from_micros(100)).unwrap();
    assert_eq!(c.cycles() - before, 15_625);
}

fn status(c: &mut SimCard) -> (u32, u32) {
    let s = c.read32(mbox::STATUS).unwrap();
    (
        (s >> mbox::status::REQ_PENDING_SHIFT) & 1,
        (s >> mbox::status::RSP_READY_SHIFT) & 1,
    )
}

#[test]
fn mailbox_doorbells_follow_the_svd() {
    let mut c = card();
    assert_eq!(status(&mut c), (0, 0));
    c.write32(mbox::REQ_CMD, 3).unwrap();
    c.write32(mbox::REQ_LEN, 2).unwrap();
    c.write_block(mbox::REQ_DATA, &[0xAAAA_0001, 0xBBBB_0002])
        .unwrap();
    c.write32(mbox::REQ_DOORBELL, 77).unwrap();
    assert_eq!(status(&mut c), (1, 0));
    assert_eq!(c.read32(mbox::REQ_TAG).unwrap(), 77);
    assert_eq!(c.read32(mbox::REQ_CMD).unwrap(), 3);
    let mut args = [0u32; 2];
    c.read_block(mbox::REQ_DATA, &mut args).unwrap();
    assert_eq!(args, [0xAAAA_0001, 0xBBBB_0002]);

    // The firmware side answers (driven from the host port here).
    c.write32(mbox::RSP_STATUS, 0).unwrap();
    c.write32(mbox::RSP_LEN, 1).unwrap();
    c.write32(mbox::RSP_DATA + 4 * 15, 0x1234_5678).unwrap();
    c.write32(mbox::RSP_DOORBELL, 77).unwrap();
    assert_eq!(status(&mut c), (0, 1));
    assert_eq!(c.read32(mbox::RSP_TAG).unwrap(), 77);
    assert_eq!(c.read32(mbox::RSP_DATA + 4 * 15).unwrap(), 0x1234_5678);

    c.write32(mbox::RSP_ACK, 0).unwrap();
    assert_eq!(status(&mut c), (0, 0));

    // A new request clears a stale response.
    c.write32(mbox::RSP_DOORBELL, 5).unwrap();
    assert_eq!(status(&mut c), (0, 1));
    c.write32(mbox::REQ_DOORBELL, 78).unwrap();
    assert_eq!(status(&mut c), (1, 0));

    // Putting the core into reset clears the doorbells, not the data.
    c.write32(ctrl::CORE_CTRL, 1).unwrap();
    assert_eq!(status(&mut c), (0, 0));
    assert_eq!(c.read32(mbox::REQ_DATA).unwrap(), 0xAAAA_0001);
}

#[test]
fn core_reset_clears_firmware_state_and_log_pointer() {
    let mut c = card();
    c.write32(ctrl::FW_STATE, 2).unwrap();
    c.write32(ctrl::HEARTBEAT, 99).unwrap();
    c.write32(log::WPTR, 1234).unwrap();
    c.write32(logbuf::DATA, 0x0403_0201).unwrap();
    assert_eq!(c.read32(ctrl::FW_STATE).unwrap(), 2);
    assert_eq!(c.read32(log::WPTR).unwrap(), 1234);
    c.write32(ctrl::CORE_CTRL, 1).unwrap();
    assert_eq!(c.read32(ctrl::FW_STATE).unwrap(), 0);
    assert_eq!(c.read32(ctrl::HEARTBEAT).unwrap(), 0);
    assert_eq!(c.read32(log::WPTR).unwrap(), 0);
    // The ring memory itself keeps its bytes.
    assert_eq!(c.read32(logbuf::DATA).unwrap(), 0x0403_0201);
    assert_eq!(c.read32(ctrl::SCRATCH).unwrap(), 0);
}

#[test]
fn logbuf_is_word_addressable_over_its_whole_size() {
    let mut c = card();
    let last = logbuf::DATA + 4 * (logbuf::DATA_COUNT as u64 - 1);
    c.write32(last, 0xCAFE_F00D).unwrap();
    assert_eq!(c.read32(last).unwrap(), 0xCAFE_F00D);
    assert_eq!(c.read32(logbuf::DATA + 4).unwrap(), 0);
}

#[test]
fn fst_trace_is_written_when_asked() {
    let dir = std::env::temp_dir().join(format!("splicenic-sim-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("card.fst");
    let _ = std::fs::remove_file(&path);
    {
        let mut c = SimCard::new(SimConfig {
            trace: Some(path.clone()),
            ..SimConfig::default()
        })
        .unwrap();
        c.write32(ctrl::SCRATCH, 0x55).unwrap();
        c.tick(500);
    }
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 100, "trace has {} bytes", bytes.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_trace_path_is_an_error() {
    let err = SimCard::new(SimConfig {
        trace: Some("/nonexistent-dir/x/card.fst".into()),
        ..SimConfig::default()
    })
    .unwrap_err();
    assert!(
        err.to_string().contains("/nonexistent-dir/x/card.fst"),
        "{err}"
    );
}

#[test]
fn cards_run_in_parallel_threads() {
    let handles: Vec<_> = (0..3u32)
        .map(|i| {
            std::thread::spawn(move || {
                let mut c = card();
                c.write32(ctrl::SCRATCH, i).unwrap();
                c.tick(1000);
                c.read32(ctrl::SCRATCH).unwrap()
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.join().unwrap(), i as u32);
    }
}

#[test]
fn ethernet_frames_reach_the_data_path() {
    use splicenic_driver::regs::{dp, flow, punt, stats};
    use splicenic_sim::Port;
    let mut c = card();
    // wait for the flow table's and the statistics block's reset sweeps
    while c.read32(stats::STATUS).unwrap() & 1 == 0 || c.read32(flow::STATUS).unwrap() & 2 == 0 {
        c.tick(1000);
    }
    // An ARP request is punted to the firmware (default policy); a runt is dropped.
    let mut arp = vec![0xffu8; 6];
    arp.extend([2, 9, 9, 9, 9, 9, 0x08, 0x06, 0, 1, 8, 0, 6, 4, 0, 1]);
    arp.resize(60, 0);
    c.push_frame(Port::Client, &arp).unwrap();
    c.push_frame(Port::Server, &arp[..8]).unwrap();
    assert_eq!(c.rx_pending(Port::Client), 1);
    c.tick(200);
    assert_eq!(c.rx_pending(Port::Client), 0);
    assert_eq!(c.rx_pending(Port::Server), 0);
    assert_eq!(c.pop_frame(Port::Client), None);
    assert_eq!(c.pop_frame(Port::Server), None);
    assert_eq!(c.read32(punt::PROD).unwrap(), 1, "ARP in the punt ring");
    c.write32(punt::RD_PTR, 1 << 31).unwrap();
    assert_eq!(
        c.read32(punt::RD_DATA).unwrap() & 0xffff,
        60,
        "punted length"
    );
    c.write32(punt::RD_PTR, 0).unwrap();
    let mut got = Vec::new();
    for _ in 0..15 {
        got.extend(c.read32(punt::RD_DATA).unwrap().to_le_bytes());
    }
    assert_eq!(got, arp);
    // the runt is counted as a drop on the server port (stats counter 14)
    c.write32(stats::CTRL, 1).unwrap();
    c.write32(stats::RD_IDX, 14).unwrap();
    assert_eq!(c.read32(stats::RD_LO).unwrap(), 1);
    assert_eq!(c.read32(dp::PARAMS).unwrap() & 0xffff, 64, "DATA_WIDTH");
    assert!(c.push_frame(Port::Client, &[]).is_err());
}

#[cfg(not(feature = "vexriscv"))]
#[test]
fn vexriscv_without_the_feature_is_a_clear_error() {
    let err = SimCard::new(SimConfig {
        cpu: splicenic_sim::Cpu::VexRiscv,
        trace: None,
    })
    .unwrap_err();
    assert!(err.to_string().contains("vexriscv"), "{err}");
}
