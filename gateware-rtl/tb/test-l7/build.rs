//! Verilates `l7_matcher` at DATA_WIDTH 64 and 512 (two models, two prefixes) and compiles
//! them with the C++ shim that drives them.

use splicenic_verilate::{records_c_include, regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let rtl = root.join("gateware-rtl/rtl");
    let manifest = root.join("gateware-rtl/tb/test-l7");
    println!("cargo:rerun-if-changed=build.rs");
    let c_view = records_c_include(&root);
    println!(
        "cargo:rerun-if-changed={}",
        c_view.join("splicenic_records.h").display()
    );
    let sources: Vec<_> = ["l7_matcher.v", "l7_req_scan.v", "l7_rule_bank.v"]
        .iter()
        .map(|f| rtl.join(f))
        .collect();
    let model = |prefix: &str, width: u32| Model {
        prefix: prefix.into(),
        top: "l7_matcher".into(),
        sources: sources.clone(),
        params: vec![("DATA_WIDTH".into(), width.to_string())],
        flags: Vec::new(),
    };
    Build {
        models: vec![model("Vl7_w64", 64), model("Vl7_w512", 512)],
        shims: vec![manifest.join("csrc/shim.cpp")],
        shim_includes: vec![c_view],
        trace: false,
        lib_name: "splicenic_tb_l7".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
