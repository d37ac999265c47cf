//! The soft core runs a hand-assembled RV32I program from IMEM after the host releases
//! its reset, and its stores reach the CSR space.

use splicenic_driver::regs::{ctrl, id};
use splicenic_driver::Bar;
use splicenic_sim::{SimCard, SimConfig};

/// lui x1, 0xF0001        x1 = CTRL block (core address 0xF000_1000)
/// lui x2, 0x12345
/// addi x2, x2, 0x678     x2 = 0x1234_5678
/// sw x2, 12(x1)          CTRL.SCRATCH = x2
/// loop: addi x3, x3, 1
/// sw x3, 20(x1)          CTRL.HEARTBEAT = x3
/// j loop
const PROGRAM: [u32; 7] = [
    0xF000_10B7,
    0x1234_5137,
    0x6781_0113,
    0x0020_A623,
    0x0011_8193,
    0x0030_AA23,
    0xFF9F_F06F,
];

fn load(c: &mut SimCard, words: &[u32]) {
    c.write_block(id::imem_window::RESET.into(), words).unwrap();
}

fn status(c: &mut SimCard) -> (u32, u32) {
    let s = c.read32(ctrl::CORE_STATUS).unwrap();
    (
        (s >> ctrl::core_status::IN_RESET_SHIFT) & 1,
        (s >> ctrl::core_status::TRAP_SHIFT) & 1,
    )
}

#[test]
fn core_runs_program_after_reset_release() {
    let mut c = SimCard::new(SimConfig::default()).unwrap();
    load(&mut c, &PROGRAM);
    c.tick(2000);
    // Still held in reset: nothing happened.
    assert_eq!(c.read32(ctrl::SCRATCH).unwrap(), 0);
    assert_eq!(c.read32(ctrl::HEARTBEAT).unwrap(), 0);

    c.write32(ctrl::CORE_CTRL, 0).unwrap();
    assert_eq!(status(&mut c), (0, 0));
    c.tick(2000);
    assert_eq!(c.read32(ctrl::SCRATCH).unwrap(), 0x1234_5678);
    let hb1 = c.read32(ctrl::HEARTBEAT).unwrap();
    assert!(hb1 > 10, "heartbeat {hb1}");
    c.tick(2000);
    let hb2 = c.read32(ctrl::HEARTBEAT).unwrap();
    assert!(hb2 > hb1, "heartbeat {hb1} -> {hb2}");
    assert_eq!(status(&mut c), (0, 0));

    // Back into reset: the core stops and the heartbeat is cleared.
    c.write32(ctrl::CORE_CTRL, 1).unwrap();
    assert_eq!(status(&mut c), (1, 0));
    assert_eq!(c.read32(ctrl::HEARTBEAT).unwrap(), 0);
    c.tick(2000);
    assert_eq!(c.read32(ctrl::HEARTBEAT).unwrap(), 0);
}

#[test]
fn illegal_instruction_sets_trap_until_reset() {
    let mut c = SimCard::new(SimConfig::default()).unwrap();
    // All-zero word: illegal instruction at the reset vector.
    load(&mut c, &[0, 0, 0, 0]);
    c.write32(ctrl::CORE_CTRL, 0).unwrap();
    c.tick(500);
    assert_eq!(status(&mut c), (0, 1));
    c.write32(ctrl::CORE_CTRL, 1).unwrap();
    assert_eq!(status(&mut c), (1, 0));
}

#[test]
fn core_reads_dmem_and_unmapped_addresses() {
    // lui x1, 0x10000      x1 = DMEM base
    // lw x2, 0(x1)         x2 = DMEM[0] (written by the host)
    // lui x4, 0xF0001
    // sw x2, 12(x4)        CTRL.SCRATCH = DMEM[0]
    // lui x5, 0x20000      unmapped
    // lw x6, 0(x5)         reads 0xDEADBEEF, does not hang
    // sw x6, 16(x4)        CTRL.FW_STATE = x6
    // j .
    let program = [
        0x1000_00B7,
        0x0000_A103,
        0xF000_1237,
        0x0022_2623,
        0x2000_02B7,
        0x0002_A303,
        0x0062_2823,
        0x0000_006F,
    ];
    let mut c = SimCard::new(SimConfig::default()).unwrap();
    load(&mut c, &program);
    c.write32(id::dmem_window::RESET.into(), 0x0BAD_F00D)
        .unwrap();
    c.write32(ctrl::CORE_CTRL, 0).unwrap();
    c.tick(1000);
    assert_eq!(c.read32(ctrl::SCRATCH).unwrap(), 0x0BAD_F00D);
    assert_eq!(c.read32(ctrl::FW_STATE).unwrap(), 0xDEAD_BEEF);
    assert_eq!(status(&mut c), (0, 0));
}

#[cfg(feature = "vexriscv")]
#[test]
fn vexriscv_core_runs_program_after_reset_release() {
    let mut c = SimCard::new(SimConfig {
        cpu: splicenic_sim::Cpu::VexRiscv,
        trace: None,
    })
    .unwrap();
    assert_eq!(c.read32(id::CORE).unwrap() & 0xff, id::core::CPU_VEXRISCV);
    assert_eq!(c.describe(), "simulated card (in-process, VexRiscv)");
    load(&mut c, &PROGRAM);
    c.write32(ctrl::CORE_CTRL, 0).unwrap();
    c.tick(5000);
    assert_eq!(c.read32(ctrl::SCRATCH).unwrap(), 0x1234_5678);
    let hb1 = c.read32(ctrl::HEARTBEAT).unwrap();
    c.tick(2000);
    let hb2 = c.read32(ctrl::HEARTBEAT).unwrap();
    assert!(hb2 > hb1 && hb1 > 0, "heartbeat {hb1} -> {hb2}");
}
