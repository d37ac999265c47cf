//! Verilates `flow_table` and `flow_state_mem`, each at two sizes: a small test size and
//! the default (64K-entry) size, and compiles them with the C++ shim.

use splicenic_verilate::{records_c_include, regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-flow");
    let rtl = root.join("gateware-rtl/rtl");
    println!("cargo:rerun-if-changed=build.rs");
    let c_view = records_c_include(&root);
    println!(
        "cargo:rerun-if-changed={}",
        c_view.join("splicenic_records.h").display()
    );
    let model = |prefix: &str, top: &str, params: &[(&str, &str)]| Model {
        prefix: prefix.into(),
        top: top.into(),
        sources: vec![rtl.join(format!("{top}.v"))],
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        flags: Vec::new(),
    };
    Build {
        models: vec![
            // Test size: 256 buckets x 4 ways.
            model("Vft_small", "flow_table", &[("BUCKETS", "256")]),
            // Default size: 16384 buckets x 4 ways = 64K entries.
            model("Vft_big", "flow_table", &[]),
            model("Vfs_small", "flow_state_mem", &[("SLOTS", "256")]),
            // Default size: 64K slots.
            model("Vfs_big", "flow_state_mem", &[]),
        ],
        shims: vec![manifest.join("csrc/shim.cpp")],
        shim_includes: vec![c_view],
        trace: false,
        lib_name: "splicenic_tb_flow".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
