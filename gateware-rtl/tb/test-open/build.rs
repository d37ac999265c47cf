//! Verilates `tcp_tx_gen` at DATA_WIDTH 64 and 512, `synack_absorb`, and `head_replay` with
//! the `head_buf` it reads (vsrc/head_replay_top.v) at both widths, and the request path's
//! `req_ack`, and compiles them with the C++ shims that clock them.

use splicenic_verilate::{regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let manifest = root.join("gateware-rtl/tb/test-open");
    let rtl = root.join("gateware-rtl/rtl");
    println!("cargo:rerun-if-changed=build.rs");
    let gen = |width: u32| Model {
        prefix: format!("Vtcp_tx_gen{width}"),
        top: "tcp_tx_gen".into(),
        sources: vec![rtl.join("tcp_tx_gen.v")],
        params: vec![("DATA_WIDTH".into(), width.to_string())],
        flags: Vec::new(),
    };
    let replay = |width: u32| Model {
        prefix: format!("Vhead_replay{width}"),
        top: "head_replay_top".into(),
        sources: vec![
            manifest.join("vsrc/head_replay_top.v"),
            rtl.join("head_replay.v"),
            rtl.join("tcp_tx_gen.v"),
            rtl.join("head_buf.v"),
            rtl.join("dp_fifo.v"),
        ],
        params: vec![("DATA_WIDTH".into(), width.to_string())],
        flags: Vec::new(),
    };
    println!(
        "cargo:rerun-if-changed={}",
        manifest.join("vsrc/head_replay_top.v").display()
    );
    Build {
        models: vec![
            gen(64),
            gen(512),
            replay(64),
            replay(512),
            Model {
                prefix: "Vreq_ack".into(),
                top: "req_ack".into(),
                sources: vec![rtl.join("req_ack.v")],
                params: Vec::new(),
                flags: Vec::new(),
            },
            Model {
                prefix: "Vsynack_absorb".into(),
                top: "synack_absorb".into(),
                sources: vec![rtl.join("synack_absorb.v")],
                params: Vec::new(),
                flags: Vec::new(),
            },
        ],
        shims: vec![
            manifest.join("csrc/shim.cpp"),
            manifest.join("csrc/replay_shim.cpp"),
            manifest.join("csrc/reqack_shim.cpp"),
        ],
        trace: false,
        lib_name: "splicenic_tb_open".into(),
        includes: vec![regs_include(&root)],
        ..Build::default()
    }
    .run();
}
