//! Verilates `card_top` (PicoRV32 build, plus VexRiscv with the `vexriscv` feature) into
//! `$OUT_DIR` and compiles the model, the Verilator runtime and the C++ shim.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const VERILATOR_INCLUDE: &str = "/usr/share/verilator/include";

struct Model {
    prefix: &'static str,
    cpu: &'static str,
    core_files: Vec<PathBuf>,
    extra_flags: &'static [&'static str],
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    let gw = root.join("gateware-rtl");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));

    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=csrc/shim.cpp");
    println!("cargo:rerun-if-env-changed=SPLICENIC_PICORV32_DIR");
    println!("cargo:rerun-if-env-changed=SPLICENIC_VEXRISCV_DIR");
    println!("cargo:rerun-if-env-changed=VERILATOR");

    let files_f = gw.join("rtl/files.f");
    println!("cargo:rerun-if-changed={}", files_f.display());
    let list = fs::read_to_string(&files_f)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", files_f.display())));
    let rtl: Vec<PathBuf> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| gw.join(l))
        .collect();
    for f in &rtl {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let include = gw.join("rtl/generated");
    println!(
        "cargo:rerun-if-changed={}",
        include.join("splicenic_regs.vh").display()
    );

    let pico_dir = core_dir(&root, "SPLICENIC_PICORV32_DIR", "pythondata_cpu_picorv32")
        .filter(|d| d.join("picorv32.v").is_file())
        .unwrap_or_else(|| fail("PicoRV32 sources not found: run `cargo xtask setup`"));

    let mut models = vec![Model {
        prefix: "Vcard_pico",
        cpu: "PICORV32",
        core_files: vec![pico_dir.join("picorv32.v")],
        extra_flags: &[],
    }];
    if env::var_os("CARGO_FEATURE_VEXRISCV").is_some() {
        let vex_dir = core_dir(&root, "SPLICENIC_VEXRISCV_DIR", "pythondata_cpu_vexriscv")
            .filter(|d| d.join("VexRiscv_IMAC.v").is_file())
            .unwrap_or_else(|| fail("VexRiscv sources not found: run `cargo xtask setup`"));
        models.push(Model {
            prefix: "Vcard_vex",
            cpu: "VEXRISCV",
            core_files: vec![vex_dir.join("VexRiscv_IMAC.v")],
            extra_flags: &["-Wno-WIDTH"],
        });
    }

    let verilator = env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    let mut fast = Vec::new();
    let mut slow = Vec::new();
    let mut model_dirs = Vec::new();
    for m in &models {
        let mdir = out.join(m.prefix);
        let _ = fs::remove_dir_all(&mdir);
        fs::create_dir_all(&mdir).unwrap_or_else(|e| fail(&format!("{}: {e}", mdir.display())));
        let mut cmd = Command::new(&verilator);
        cmd.args(["--cc", "-O3", "--x-assign", "fast", "--x-initial", "fast"])
            .args([
                "--trace-fst",
                "--no-timing",
                "-Wno-fatal",
                "-Wno-lint",
                "-Wno-style",
            ])
            .args(m.extra_flags)
            .args(["--top-module", "card_top", "--prefix", m.prefix])
            .arg(format!("-GCPU=\"{}\"", m.cpu))
            .arg(format!("-I{}", include.display()))
            .arg("--Mdir")
            .arg(&mdir)
            .args(&rtl)
            .args(&m.core_files);
        let status = cmd
            .status()
            .unwrap_or_else(|e| fail(&format!("cannot run {verilator}: {e} (install verilator)")));
        if !status.success() {
            fail(&format!(
                "verilator failed for the {} model ({status})",
                m.cpu
            ));
        }
        let mut entries: Vec<PathBuf> = fs::read_dir(&mdir)
            .unwrap_or_else(|e| fail(&format!("{}: {e}", mdir.display())))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
            .collect();
        entries.sort();
        for p in entries {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if name.contains("__Slow") || name.contains("__Trace") || name.contains("__Syms") {
                slow.push(p);
            } else {
                fast.push(p);
            }
        }
        model_dirs.push(mdir);
    }

    let base = |opt: u32| {
        let mut b = cc::Build::new();
        b.cpp(true)
            .std("gnu++17")
            .opt_level(opt)
            .debug(false)
            .warnings(false)
            .include(VERILATOR_INCLUDE)
            .include(format!("{VERILATOR_INCLUDE}/vltstd"))
            .define("VM_COVERAGE", "0")
            .define("VM_SC", "0")
            .define("VM_TRACE", "1")
            .define("VM_TRACE_FST", "1")
            .define("VM_TRACE_VCD", "0")
            .flag_if_supported("-faligned-new")
            .flag_if_supported("-fcf-protection=none");
        for d in &model_dirs {
            b.include(d);
        }
        b
    };

    base(2).files(&fast).compile("splicenic_vmodel_fast");
    base(1).files(&slow).compile("splicenic_vmodel_slow");
    base(1)
        .file(format!("{VERILATOR_INCLUDE}/verilated.cpp"))
        .file(format!("{VERILATOR_INCLUDE}/verilated_threads.cpp"))
        .file(format!("{VERILATOR_INCLUDE}/verilated_fst_c.cpp"))
        .compile("splicenic_vruntime");
    let mut shim = base(2);
    shim.file(manifest.join("csrc/shim.cpp"));
    if models.len() > 1 {
        shim.define("SNIC_HAVE_VEXRISCV", "1");
    }
    shim.compile("splicenic_vshim");

    println!("cargo:rustc-link-lib=z");
    println!("cargo:rustc-link-lib=atomic");
}

/// Core source folder: the env override, else the package in the project virtualenv.
fn core_dir(root: &Path, var: &str, package: &str) -> Option<PathBuf> {
    if let Some(d) = env::var_os(var) {
        return Some(PathBuf::from(d));
    }
    let py = root.join(".venv/bin/python");
    let out = Command::new(py)
        .args([
            "-c",
            &format!("import {package} as p; print(p.data_location)"),
        ])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?;
    let s = s.trim();
    (!s.is_empty()).then(|| PathBuf::from(s))
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    println!("cargo:warning={msg}");
    std::process::exit(1);
}
