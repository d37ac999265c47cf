//! Verilates `sched_unit` (default parameters: 8 pools, 8192-entry table, 16-bit tags) and
//! compiles it with the C++ shim that clocks it.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-sched");
    println!("cargo:rerun-if-changed=build.rs");
    Build {
        models: vec![Model {
            prefix: "Vsched_unit".into(),
            top: "sched_unit".into(),
            sources: vec![
                root.join("gateware-rtl/rtl/sched_unit.v"),
                root.join("gateware-rtl/rtl/dp_fifo.v"),
            ],
            params: Vec::new(),
            flags: Vec::new(),
        }],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_sched".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
