//! Used from `build.rs` of crates that drive Verilated gateware from Rust: the simulated
//! card (`hil-tests/sim`) and the module test benches under `gateware-rtl/tb/`.
//!
//! Each [`Model`] is run through `verilator --cc` into its own folder of `$OUT_DIR` (with
//! its own `--prefix`, so several models link into one binary); the generated C++, the
//! Verilator runtime and the crate's `extern "C"` shim are compiled with the `cc` crate.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const VERILATOR_INCLUDE: &str = "/usr/share/verilator/include";

/// One Verilated model.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// C++ class prefix, e.g. `Vcard_pico`.
    pub prefix: String,
    /// Top module name.
    pub top: String,
    /// Verilog sources.
    pub sources: Vec<PathBuf>,
    /// Top-level parameter overrides, `(name, value)`; strings need their quotes.
    pub params: Vec<(String, String)>,
    /// Extra Verilator flags.
    pub flags: Vec<String>,
}

/// What to build.
#[derive(Debug, Clone, Default)]
pub struct Build {
    pub models: Vec<Model>,
    /// `extern "C"` shims (C++ files) compiled against the models.
    pub shims: Vec<PathBuf>,
    /// Preprocessor defines for the shims.
    pub shim_defines: Vec<(String, String)>,
    /// Include folders for Verilog (`-I`).
    pub includes: Vec<PathBuf>,
    /// Include folders for the shims (e.g. [`records_c_include`]).
    pub shim_includes: Vec<PathBuf>,
    /// Build FST waveform support into the models.
    pub trace: bool,
    /// Name stem of the static libraries.
    pub lib_name: String,
}

/// The repository root, from a crate's manifest folder.
pub fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(
        env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| fail("CARGO_MANIFEST_DIR unset")),
    );
    manifest
        .ancestors()
        .find(|d| d.join("registers/splicenic.svd").is_file())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| {
            fail("cannot find the repository root (registers/splicenic.svd) above the crate")
        })
}

/// Our RTL files, as listed in `gateware-rtl/rtl/files.f`.
pub fn rtl_files(root: &Path) -> Vec<PathBuf> {
    let gw = root.join("gateware-rtl");
    let files_f = gw.join("rtl/files.f");
    println!("cargo:rerun-if-changed={}", files_f.display());
    let list = fs::read_to_string(&files_f)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", files_f.display())));
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| gw.join(l))
        .collect()
}

/// The generated register include folder.
pub fn regs_include(root: &Path) -> PathBuf {
    root.join("gateware-rtl/rtl/generated")
}

/// The folder of the generated C view of the shared records (`splicenic_records.h`,
/// from `registers/records.toml` by `cargo xtask regen`).
pub fn records_c_include(root: &Path) -> PathBuf {
    root.join("gateware-rtl/tb/generated")
}

/// Soft-core source folder: the env override `var`, else the PyPI package in the project
/// virtualenv.
pub fn core_dir(root: &Path, var: &str, package: &str) -> Option<PathBuf> {
    println!("cargo:rerun-if-env-changed={var}");
    if let Some(d) = env::var_os(var) {
        return Some(PathBuf::from(d));
    }
    let out = Command::new(root.join(".venv/bin/python"))
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

/// Report a build failure clearly and stop the build script.
pub fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    println!("cargo:warning={msg}");
    std::process::exit(1);
}

impl Build {
    /// Verilate every model and compile models, runtime and shims.
    pub fn run(&self) {
        let out = PathBuf::from(env::var("OUT_DIR").unwrap_or_else(|_| fail("OUT_DIR unset")));
        println!("cargo:rerun-if-env-changed=VERILATOR");
        for m in &self.models {
            for f in &m.sources {
                println!("cargo:rerun-if-changed={}", f.display());
            }
        }
        for i in &self.includes {
            println!("cargo:rerun-if-changed={}", i.display());
        }
        for s in &self.shims {
            println!("cargo:rerun-if-changed={}", s.display());
        }
        for i in &self.shim_includes {
            println!("cargo:rerun-if-changed={}", i.display());
        }
        println!(
            "cargo:rerun-if-changed={}",
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("include/splicenic_tb.h")
                .display()
        );
        let verilator = env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
        let (mut fast, mut slow, mut dirs) = (Vec::new(), Vec::new(), Vec::new());
        for m in &self.models {
            let mdir = out.join(&m.prefix);
            let _ = fs::remove_dir_all(&mdir);
            fs::create_dir_all(&mdir).unwrap_or_else(|e| fail(&format!("{}: {e}", mdir.display())));
            let mut cmd = Command::new(&verilator);
            cmd.args([
                "--cc",
                "-O3",
                "--x-assign",
                "fast",
                "--x-initial",
                "fast",
                "--no-timing",
                // Keep the temporaries of functions inlined into clocked blocks as model
                // members: localised, every one of them is zeroed at the top of the generated
                // evaluation function on every clock edge, even when the branch that uses it
                // (a pipeline stage's enable) is not taken. The RTL evaluates its data path
                // through such functions, so this halves the idle cost of the card model.
                "-fno-localize",
            ])
            .args(["-Wno-fatal", "-Wno-lint", "-Wno-style"]);
            if self.trace {
                cmd.arg("--trace-fst");
            }
            cmd.args(&m.flags)
                .args(["--top-module", &m.top, "--prefix", &m.prefix])
                .args(m.params.iter().map(|(k, v)| format!("-G{k}={v}")))
                .args(self.includes.iter().map(|i| format!("-I{}", i.display())))
                .arg("--Mdir")
                .arg(&mdir)
                .args(&m.sources);
            let st = cmd.status().unwrap_or_else(|e| {
                fail(&format!(
                    "cannot run {verilator}: {e} (run `cargo xtask setup`)"
                ))
            });
            if !st.success() {
                fail(&format!("verilator failed for model {} ({st})", m.prefix));
            }
            let mut cpps: Vec<PathBuf> = fs::read_dir(&mdir)
                .unwrap_or_else(|e| fail(&format!("{}: {e}", mdir.display())))
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
                .collect();
            cpps.sort();
            for p in cpps {
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
            dirs.push(mdir);
        }
        let trace = if self.trace { "1" } else { "0" };
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
                .define("VM_TRACE", trace)
                .define("VM_TRACE_FST", trace)
                .define("VM_TRACE_VCD", "0")
                .flag_if_supported("-faligned-new")
                .flag_if_supported("-fcf-protection=none");
            for d in &dirs {
                b.include(d);
            }
            // splicenic_tb.h: the model holder and clock cycle the shims share.
            b.include(Path::new(env!("CARGO_MANIFEST_DIR")).join("include"));
            b
        };
        let name = &self.lib_name;
        base(2).files(&fast).compile(&format!("{name}_vmodel_fast"));
        base(1).files(&slow).compile(&format!("{name}_vmodel_slow"));
        let mut rt = base(1);
        rt.file(format!("{VERILATOR_INCLUDE}/verilated.cpp"))
            .file(format!("{VERILATOR_INCLUDE}/verilated_threads.cpp"));
        if self.trace {
            rt.file(format!("{VERILATOR_INCLUDE}/verilated_fst_c.cpp"));
        }
        rt.compile(&format!("{name}_vruntime"));
        let mut shim = base(2);
        shim.files(&self.shims);
        for i in &self.shim_includes {
            shim.include(i);
        }
        for (k, v) in &self.shim_defines {
            shim.define(k, v.as_str());
        }
        shim.compile(&format!("{name}_vshim"));
        if self.trace {
            println!("cargo:rustc-link-lib=z");
        }
        println!("cargo:rustc-link-lib=atomic");
    }
}
