//! Verilates `syn_cookie` (TAG_WIDTH 8) and compiles it with the C++ shim that clocks it.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-cookie");
    println!("cargo:rerun-if-changed=build.rs");
    Build {
        models: vec![Model {
            prefix: "Vsyn_cookie".into(),
            top: "syn_cookie".into(),
            sources: vec![root.join("gateware-rtl/rtl/syn_cookie.v")],
            params: vec![("TAG_WIDTH".into(), "8".into())],
            flags: Vec::new(),
        }],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_cookie".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
