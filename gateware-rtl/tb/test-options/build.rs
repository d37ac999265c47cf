//! Verilates `tcp_opt_decoder` (TAG_WIDTH 16), and the test top `rtl/tb_parser_opts.v`
//! (eth_tcp_parser feeding the decoder) at DATA_WIDTH 64 and 512, and compiles them with
//! the C++ shim that clocks them.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-options");
    println!("cargo:rerun-if-changed=build.rs");
    Build {
        models: vec![Model {
            prefix: "Vtcp_opt_decoder".into(),
            top: "tcp_opt_decoder".into(),
            sources: vec![root.join("gateware-rtl/rtl/tcp_opt_decoder.v")],
            params: vec![("TAG_WIDTH".into(), "16".into())],
            flags: Vec::new(),
        }]
        .into_iter()
        .chain([64u32, 512].map(|w| Model {
            prefix: format!("Vparser_opts{w}"),
            top: "tb_parser_opts".into(),
            sources: vec![
                manifest.join("rtl/tb_parser_opts.v"),
                root.join("gateware-rtl/rtl/eth_tcp_parser.v"),
                root.join("gateware-rtl/rtl/tcp_opt_decoder.v"),
            ],
            params: vec![("DATA_WIDTH".into(), w.to_string())],
            flags: Vec::new(),
        }))
        .collect(),
        shims: vec![manifest.join("csrc/shim.cpp")],
        trace: false,
        lib_name: "splicenic_tb_options".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
