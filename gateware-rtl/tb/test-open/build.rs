//! Verilates `tcp_tx_gen` at DATA_WIDTH 64 and 512 and `synack_absorb`, and compiles them
//! with the C++ shim that clocks them.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-open");
    let rtl = root.join("gateware-rtl/rtl");
    println!("cargo:rerun-if-changed=build.rs");
    let gen = |width: u32| Model {
        prefix: format!("Vtcp_tx_gen{width}"),
        top: "tcp_tx_gen".into(),
        sources: vec![rtl.join("tcp_tx_gen.v")],
        params: vec![("DATA_WIDTH".into(), width.to_string())],
        flags: Vec::new(),
    };
    Build {
        models: vec![
            gen(64),
            gen(512),
            Model {
                prefix: "Vsynack_absorb".into(),
                top: "synack_absorb".into(),
                sources: vec![rtl.join("synack_absorb.v")],
                params: Vec::new(),
                flags: Vec::new(),
            },
        ],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_open".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
