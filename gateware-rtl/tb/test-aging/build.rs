//! Verilates `aging_check` (default parameters) and compiles it with the C++ shim that
//! clocks it.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-aging");
    println!("cargo:rerun-if-changed=build.rs");
    Build {
        models: vec![Model {
            prefix: "Vaging_check".into(),
            top: "aging_check".into(),
            sources: vec![root.join("gateware-rtl/rtl/aging_check.v")],
            params: Vec::new(),
            flags: Vec::new(),
        }],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_aging".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
