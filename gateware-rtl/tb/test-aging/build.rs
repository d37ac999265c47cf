//! Verilates `aging_check` (default parameters) and `aging_scan` (256 slots, so a test
//! walks them many times) and compiles them with the C++ shims that clock them.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

/// Slots of the Verilated scanner (`splicenic_tb_aging::SCAN_SLOTS` says the same).
const SCAN_SLOTS: u32 = 256;

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-aging");
    println!("cargo:rerun-if-changed=build.rs");
    Build {
        models: vec![
            Model {
                prefix: "Vaging_check".into(),
                top: "aging_check".into(),
                sources: vec![root.join("gateware-rtl/rtl/aging_check.v")],
                params: Vec::new(),
                flags: Vec::new(),
            },
            Model {
                prefix: "Vaging_scan".into(),
                top: "aging_scan".into(),
                sources: vec![
                    root.join("gateware-rtl/rtl/aging_scan.v"),
                    root.join("gateware-rtl/rtl/aging_check.v"),
                    root.join("gateware-rtl/rtl/dp_fifo.v"),
                ],
                params: vec![("SLOTS".into(), SCAN_SLOTS.to_string())],
                flags: Vec::new(),
            },
        ],
        shims: vec![
            manifest.join("csrc/shim.cpp"),
            manifest.join("csrc/scan_shim.cpp"),
        ],
        trace: false,
        lib_name: "splicenic_tb_aging".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
