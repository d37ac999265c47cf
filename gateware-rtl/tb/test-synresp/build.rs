//! Verilates `syn_responder` (with the `syn_cookie` units, the `tcp_opt_decoder` and the
//! `dp_fifo`s it instantiates) at DATA_WIDTH 64 / UNITS 2 and compiles it with the C++ shim that clocks
//! it.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-synresp");
    let rtl = root.join("gateware-rtl/rtl");
    println!("cargo:rerun-if-changed=build.rs");
    let model = |width: u32, units: u32| Model {
        prefix: format!("Vsyn_responder{width}"),
        top: "syn_responder".into(),
        sources: vec![
            rtl.join("syn_responder.v"),
            rtl.join("syn_cookie.v"),
            rtl.join("tcp_opt_decoder.v"),
            rtl.join("dp_fifo.v"),
        ],
        params: vec![
            ("DATA_WIDTH".into(), width.to_string()),
            ("UNITS".into(), units.to_string()),
        ],
        flags: Vec::new(),
    };
    Build {
        models: vec![model(64, 2), model(512, 8)],
        shims: vec![manifest.join("csrc/shim.cpp")],
        shim_defines: vec![("SYNRESP_W512".into(), "1".into())],
        trace: false,
        lib_name: "splicenic_tb_synresp".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
