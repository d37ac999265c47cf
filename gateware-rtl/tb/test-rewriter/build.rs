//! Verilates `splice_rewriter` at DATA_WIDTH 64 and 512 and `splice_csum_update` (4 words)
//! into `$OUT_DIR` and compiles them with the C++ shim.

use splicenic_verilate::{repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let rtl = root.join("gateware-rtl/rtl");
    let manifest = root.join("gateware-rtl/tb/test-rewriter");
    println!("cargo:rerun-if-changed=build.rs");
    let rw_sources = vec![
        rtl.join("splice_rewriter.v"),
        rtl.join("splice_csum_update.v"),
    ];
    let rw = |prefix: &str, width: u32| Model {
        prefix: prefix.into(),
        top: "splice_rewriter".into(),
        sources: rw_sources.clone(),
        params: vec![("DATA_WIDTH".into(), width.to_string())],
        flags: Vec::new(),
    };
    Build {
        models: vec![
            rw("Vsplice_rw64", 64),
            rw("Vsplice_rw512", 512),
            Model {
                prefix: "Vsplice_csum".into(),
                top: "splice_csum_update".into(),
                sources: vec![rtl.join("splice_csum_update.v")],
                params: vec![("WORDS".into(), "4".into())],
                flags: Vec::new(),
            },
        ],
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_rewriter".into(),
        ..Build::default()
    }
    .run();
}
