//! Verilates `splice_datapath` at DATA_WIDTH 64 and 512 (with a small flow table so the
//! reset sweep is short) into `$OUT_DIR` and compiles them with the C++ shim.

use splicenic_verilate::{regs_include, repo_root, rtl_files, Build, Model};

// FLOW_BUCKETS, FLOW_WAYS, FLOW_SLOTS: the parameters of the models, also the library's.
include!("src/params.rs");

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-datapath");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/params.rs");
    let sources: Vec<_> = rtl_files(&root)
        .into_iter()
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !name.starts_with("soc_") && !name.starts_with("csr_") && name != "card_top.v"
        })
        .collect();
    let dp = |prefix: &str, width: u32| Model {
        prefix: prefix.into(),
        top: "splice_datapath".into(),
        sources: sources.clone(),
        params: vec![
            ("DATA_WIDTH".into(), width.to_string()),
            ("FLOW_BUCKETS".into(), FLOW_BUCKETS.to_string()),
            ("FLOW_WAYS".into(), FLOW_WAYS.to_string()),
            ("FLOW_SLOTS".into(), FLOW_SLOTS.to_string()),
        ],
        flags: Vec::new(),
    };
    Build {
        models: vec![dp("Vsplice_dp64", 64), dp("Vsplice_dp512", 512)],
        shims: vec![manifest.join("csrc/shim.cpp")],
        includes: vec![regs_include(&root)],
        trace: false,
        lib_name: "splicenic_tb_datapath".into(),
        ..Build::default()
    }
    .run();
}
