//! Verilates `load_sched` (default parameters: 8 pools, 15-bit counts, 16-bit tags) and
//! compiles it with the C++ shim that clocks it.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-load");
    println!("cargo:rerun-if-changed=build.rs");
    Build {
        models: vec![Model {
            prefix: "Vload_sched".into(),
            top: "load_sched".into(),
            sources: vec![
                root.join("gateware-rtl/rtl/load_sched.v"),
                root.join("gateware-rtl/rtl/load_sched_cmp.v"),
            ],
            params: Vec::new(),
            flags: Vec::new(),
        }],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_load".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
