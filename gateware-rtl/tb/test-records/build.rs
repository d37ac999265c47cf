//! Verilates the generated round-trip module `records_rt` at DATA_WIDTH 64 (`Vrt64`) and 512
//! (`Vrt512`) with the generated record includes, and compiles them with the C++ shim.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-records");
    println!("cargo:rerun-if-changed=build.rs");
    let model = |prefix: &str, width: &str| Model {
        prefix: prefix.into(),
        top: "records_rt".into(),
        sources: vec![manifest.join("rtl/records_rt.v")],
        params: vec![("DATA_WIDTH".into(), width.into())],
        flags: Vec::new(),
    };
    Build {
        models: vec![model("Vrt64", "64"), model("Vrt512", "512")],
        shims: vec![manifest.join("csrc/shim.cpp")],
        includes: vec![regs_include(&root)],
        trace: false,
        lib_name: "splicenic_tb_records".into(),
        ..Build::default()
    }
    .run();
}
