//! Verilates `eth_tcp_parser` at DATA_WIDTH 64 (`Vparser64`) and 512 (`Vparser512`) and
//! compiles both models, and `tcp_classifier` (`Vclassifier`, default parameters), with the
//! C++ driver shim.

use splicenic_verilate::{records_c_include, regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let rtl = root.join("gateware-rtl/rtl/eth_tcp_parser.v");
    let manifest = root.join("gateware-rtl/tb/test-parser");
    println!("cargo:rerun-if-changed=build.rs");
    let c_view = records_c_include(&root);
    println!(
        "cargo:rerun-if-changed={}",
        c_view.join("splicenic_records.h").display()
    );
    let model = |prefix: &str, width: u32| Model {
        prefix: prefix.into(),
        top: "eth_tcp_parser".into(),
        sources: vec![rtl.clone()],
        params: vec![("DATA_WIDTH".into(), width.to_string())],
        flags: Vec::new(),
    };
    Build {
        models: vec![
            model("Vparser64", 64),
            model("Vparser512", 512),
            Model {
                prefix: "Vclassifier".into(),
                top: "tcp_classifier".into(),
                sources: vec![root.join("gateware-rtl/rtl/tcp_classifier.v")],
                params: Vec::new(),
                flags: Vec::new(),
            },
        ],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_parser".into(),
        includes: vec![regs_include(&root)],
        shim_includes: vec![c_view],
        ..Build::default()
    }
    .run();
}
