//! Verilates `card_top` (PicoRV32 build, plus VexRiscv with the `vexriscv` feature) into
//! `$OUT_DIR` and compiles the model, the Verilator runtime and the C++ shim.

use splicenic_verilate::{core_dir, fail, regs_include, repo_root, rtl_files, Build, Model};
use std::env;

fn main() {
    let root = repo_root();
    let manifest = root.join("hil-tests/sim");
    println!("cargo:rerun-if-changed=build.rs");
    let rtl = rtl_files(&root);

    let pico_dir = core_dir(&root, "SPLICENIC_PICORV32_DIR", "pythondata_cpu_picorv32")
        .filter(|d| d.join("picorv32.v").is_file())
        .unwrap_or_else(|| fail("PicoRV32 sources not found: run `cargo xtask setup`"));
    let card = |prefix: &str, cpu: &str, core: std::path::PathBuf, flags: &[&str]| Model {
        prefix: prefix.into(),
        top: "card_top".into(),
        sources: rtl.iter().cloned().chain([core]).collect(),
        params: vec![("CPU".into(), format!("\"{cpu}\""))],
        flags: flags.iter().map(|s| s.to_string()).collect(),
    };
    let mut build = Build {
        models: vec![card(
            "Vcard_pico",
            "PICORV32",
            pico_dir.join("picorv32.v"),
            &[],
        )],
        shims: vec![manifest.join("csrc/shim.cpp")],
        includes: vec![regs_include(&root)],
        trace: true,
        lib_name: "splicenic_sim".into(),
        ..Build::default()
    };
    if env::var_os("CARGO_FEATURE_VEXRISCV").is_some() {
        let vex_dir = core_dir(&root, "SPLICENIC_VEXRISCV_DIR", "pythondata_cpu_vexriscv")
            .filter(|d| d.join("VexRiscv_IMAC.v").is_file())
            .unwrap_or_else(|| fail("VexRiscv sources not found: run `cargo xtask setup`"));
        build.models.push(card(
            "Vcard_vex",
            "VEXRISCV",
            vex_dir.join("VexRiscv_IMAC.v"),
            &["-Wno-WIDTH"],
        ));
        build
            .shim_defines
            .push(("SNIC_HAVE_VEXRISCV".into(), "1".into()));
    }
    build.run();
}
