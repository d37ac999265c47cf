//! Verilates `tcp_opt_decoder` (TAG_WIDTH 16) and compiles it with the C++ shim that clocks
//! it.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-options");
    println!("cargo:rerun-if-changed=build.rs");
    Build {
        models: vec![Model {
            prefix: "Vtcp_opt_decoder".into(),
            top: "tcp_opt_decoder".into(),
            sources: vec![root.join("gateware-rtl/rtl/tcp_opt_decoder.v")],
            params: vec![("TAG_WIDTH".into(), "16".into())],
            flags: Vec::new(),
        }],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_options".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
