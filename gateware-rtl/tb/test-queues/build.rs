//! Verilates `stats_counters` (`Vstats`), `evt_queue` (`Vevtq`, a small FIFO so overflow is
//! easy to provoke), and `pkt_punt_buf` / `pkt_inject_buf` at DATA_WIDTH 64 and 512
//! (`Vpunt64`, `Vpunt512`, `Vinj64`, `Vinj512`; `Vpunt64r` with a 2-slot reserve for
//! low-priority frames), and compiles them with the C++ shim (which reads the punt ring
//! descriptor with the generated C view of the shared records, `splicenic_records.h`).

use splicenic_verilate::{records_c_include, regs_include, repo_root, Build, Model};

fn main() {
    let root = repo_root();
    let rtl = root.join("gateware-rtl/rtl");
    let manifest = root.join("gateware-rtl/tb/test-queues");
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
            model("Vstats", "stats_counters", &[]),
            model(
                "Vevtq",
                "evt_queue",
                &[("PRODUCERS", "4"), ("EVT_WIDTH", "64"), ("DEPTH", "16")],
            ),
            model(
                "Vpunt64",
                "pkt_punt_buf",
                &[("DATA_WIDTH", "64"), ("SLOTS", "8")],
            ),
            model(
                "Vpunt64r",
                "pkt_punt_buf",
                &[("DATA_WIDTH", "64"), ("SLOTS", "8"), ("RESERVE", "2")],
            ),
            model(
                "Vpunt512",
                "pkt_punt_buf",
                &[("DATA_WIDTH", "512"), ("SLOTS", "8")],
            ),
            model(
                "Vinj64",
                "pkt_inject_buf",
                &[("DATA_WIDTH", "64"), ("SLOTS", "4")],
            ),
            model(
                "Vinj512",
                "pkt_inject_buf",
                &[("DATA_WIDTH", "512"), ("SLOTS", "4")],
            ),
        ],
        shims: vec![manifest.join("csrc/shim.cpp")],
        // pkt_punt_buf's META_WIDTH defaults to the punt record's width (splicenic_records.vh)
        includes: vec![regs_include(&root)],
        shim_includes: vec![c_view],
        trace: false,
        lib_name: "splicenic_tb_queues".into(),
        ..Build::default()
    }
    .run();
}
