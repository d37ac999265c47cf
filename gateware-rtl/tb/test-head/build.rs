//! Verilates `head_buf` (default parameters: HEAD_BUFFERS x HEAD_BUFFER_BYTES) and compiles
//! it with the C++ shim that clocks it.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-head");
    println!("cargo:rerun-if-changed=build.rs");
    Build {
        models: vec![Model {
            prefix: "Vhead_buf".into(),
            top: "head_buf".into(),
            sources: vec![
                root.join("gateware-rtl/rtl/head_buf.v"),
                root.join("gateware-rtl/rtl/dp_fifo.v"),
            ],
            params: Vec::new(),
            flags: Vec::new(),
        }],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_head".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
