//! `cargo xtask lint` step: the shared layouts, codes and constants of
//! `registers/records.toml` (and the registers of `registers/splicenic.svd`) appear only in
//! the files generated from them. Every other tracked source, test and document is searched
//! for the hand-typed forms they had before they were declared once; a line that really
//! means another value (a test's initial sequence number that happens to equal the DMEM
//! base) says so with `layout-lint: allow` and why.

use anyhow::{bail, Result};
use std::fs;
use std::path::Path;
use std::process::Command;

/// Files the generators write, and the declarations themselves.
const GENERATED: &[&str] = &[
    "registers/records.toml",
    "registers/splicenic.svd",
    "registers/layout/src/",
    "gateware-rtl/rtl/generated/",
    "gateware-rtl/tb/test-records/rtl/records_rt.v",
    "gateware-rtl/tb/generated/",
    "firmware/pac/",
    "firmware/app/memory.x",
    "host-driver/src/regs.rs",
    "docs/records.md",
    "docs/registers.md",
    "tools/xtask/src/layout_lint.rs",
    "CHANGELOG.md",
];

/// Extensions searched.
const EXTENSIONS: &[&str] = &[
    "rs", "v", "vh", "x", "md", "py", "sh", "toml", "cpp", "h", "tcl", "ys",
];

/// A hand-typed form and the declared name it repeats.
const FORMS: &[(&str, &str)] = &[
    // clock and memory map
    ("156_250_000", "CLK_HZ"),
    ("156250000", "CLK_HZ"),
    ("0x1000_0000", "DMEM_BASE"),
    ("0x10000000", "DMEM_BASE"),
    ("32'h10000000", "DMEM_BASE"),
    ("IMEM_SIZE = 65536", "IMEM_SIZE"),
    ("DMEM_SIZE = 262144", "DMEM_SIZE"),
    // counts the registers or records declare
    ("VIP_N = 8", "DP.VIP_ADDR count"),
    ("LOCAL_N = 4", "DP.LOCAL_ADDR count"),
    ("LOCAL_ADDRESSES: usize = 4", "DP.LOCAL_ADDR count"),
    ("SERVICES: u8 = 8", "SERVICES"),
    ("POOLS: u8 = 8", "POOLS"),
    ("STAT_COUNTERS = 512", "STATS counters"),
    ("STATS_COUNTERS: usize = 512", "STATS counters"),
    ("L7_BUFFER_BYTES: usize = 1024", "L7_BUFFER_BYTES"),
    // event records
    ("EV_REQUEST_MATCHED = 8'd", "EventType"),
    ("EV_FIN_RST = 8'd", "EventType"),
    ("EV_PUNT_READY = 8'd", "EventType"),
    ("FIN_RST: u8 = 4", "EventType"),
    ("REQUEST_MATCHED: u8 = 2", "EventType"),
    ("EVT_WIDTH(128)", "EvtFinRst width"),
    // punt record
    ("META_WIDTH(128)", "PuntMeta width"),
    ("meta[0] >> 20", "PuntMeta fields"),
    ("PUNT_DESC_WORDS: usize = 5", "PuntHead + PuntMeta words"),
    // flow-state entry and its halves
    ("[271:128]", "FlowStatic.client"),
    ("[415:272]", "FlowStatic.server"),
    ("CLIENT_HALF: usize = 128", "FlowStatic.client"),
    ("SERVER_HALF: usize = 272", "FlowStatic.server"),
    ("base + 128", "FlowHalfEntry.local_port"),
    ("base + 96", "FlowHalfEntry.local_ip"),
    ("base + 80", "FlowHalfEntry.peer_port"),
    ("base + 48", "FlowHalfEntry.peer_ip"),
    ("STATIC_WIDTH = 416", "FlowStatic width"),
    ("DYN_WIDTH = 264", "FlowDyn width"),
    ("416'd0", "FlowStatic width"),
    ("STATIC_WORDS: usize = 13", "FlowStatic words"),
    ("DYN_WORDS: usize = 9", "FlowDyn words"),
    // the flow table's Toeplitz key (its first words, as Verilog hex and as Rust bytes)
    ("6d5a56da255b0ec2", "FLOW_HASH_KEY"),
    ("0x6d, 0x5a, 0x56, 0xda", "FLOW_HASH_KEY"),
    // stats index map
    ("9'd80", "STATS.SERVER"),
    ("80 + 2 * r", "STATS.SERVER"),
    ("256 + 4 * r", "STATS.SERVER_DIR"),
    ("16 + 2 * v", "STATS.SERVICE"),
    ("208 + c", "STATS.PARSER_REASON"),
    ("224 + w", "STATS.CLASSIFIER_DROP"),
    // L7 rule words and codes
    ("kind_path << 28", "L7RuleCtrl"),
    ("kind_host << 26", "L7RuleCtrl"),
    ("PathKind::Prefix => 2", "PathKind"),
    ("HostKind::Suffix => 2", "HostKind"),
    // mailbox and flow-manager codes
    ("PING: u32 = 0x0001", "MailboxCmd"),
    ("UNKNOWN_COMMAND: u32 = 1", "MailboxStatus"),
    ("MODE_L4: u32 = 1", "ServiceMode"),
    ("MODE_L7: u32 = 2", "ServiceMode"),
    ("POOL_FLAG_FALLBACK: u32 = 1", "PoolFlags"),
    ("ACTIVE: u8 = 1 << 7", "EntryFlags"),
    // types and helpers that exist once
    ("enum Port {", "Port"),
    ("enum FlowState {", "FlowState"),
    ("enum FlowHalf {", "FlowHalf"),
    ("enum PathKind {", "PathKind"),
    ("enum HostKind {", "HostKind"),
    ("enum HttpMethod {", "HttpMethod"),
    ("enum PuntWhy {", "PuntWhy"),
    ("enum TcpKind {", "TcpKind"),
    ("enum FrameClass {", "FrameClass"),
    ("fn bytes_to_words(", "words_le"),
    ("fn le_words(", "words_le"),
    ("fn mac_to_u64(", "mac_to_u64"),
    ("fn mac_u64(", "mac_to_u64"),
    ("fn put_bits(", "put_bits"),
    ("fn get_bits(", "get_bits"),
];

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `needle` in `line` with no identifier character glued to either end of a hit whose end
/// is an identifier character.
fn contains_form(line: &str, needle: &str) -> bool {
    let (l, n) = (line.as_bytes(), needle.as_bytes());
    let mut from = 0;
    while let Some(pos) = line[from..].find(needle) {
        let at = from + pos;
        let end = at + n.len();
        let before_ok = at == 0 || !is_ident(n[0]) || !is_ident(l[at - 1]);
        let after_ok = end == l.len() || !is_ident(n[n.len() - 1]) || !is_ident(l[end]);
        if before_ok && after_ok {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Every hit in one file's text: (line number, form, declared name).
pub fn scan(text: &str) -> Vec<(usize, &'static str, &'static str)> {
    let mut hits = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.contains("layout-lint: allow") {
            continue;
        }
        for &(form, name) in FORMS {
            if contains_form(line, form) {
                hits.push((i + 1, form, name));
            }
        }
    }
    hits
}

pub fn run(root: &Path) -> Result<()> {
    let out = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root)
        .output()?;
    if !out.status.success() {
        bail!("git ls-files failed in {}", root.display());
    }
    let mut found = Vec::new();
    let mut files = 0;
    for rel in String::from_utf8_lossy(&out.stdout).split('\0') {
        if rel.is_empty() || GENERATED.iter().any(|g| rel.starts_with(g)) {
            continue;
        }
        let ext = Path::new(rel)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        if !EXTENSIONS.contains(&ext) {
            continue;
        }
        let Ok(text) = fs::read_to_string(root.join(rel)) else {
            continue;
        };
        files += 1;
        for (line, form, name) in scan(&text) {
            found.push(format!("{rel}:{line}: `{form}` repeats {name}"));
        }
    }
    if !found.is_empty() {
        bail!(
            "{} hand-typed shared layout values (declare them in registers/records.toml and use the generated views):\n  {}",
            found.len(),
            found.join("\n  ")
        );
    }
    println!("layout lint: {files} files, no shared layout value outside the generated files");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_found_on_their_own_only() {
        assert_eq!(scan("const CLK: u32 = 156_250_000;").len(), 1);
        assert!(scan("let x = 1_156_250_0001;").is_empty());
        assert_eq!(
            scan("    fe_h = port ? fe[271:128] : fe[415:272];").len(),
            2
        );
        assert!(
            scan("const RAW_ISN: u32 = 0x1000_0000; // layout-lint: allow (an ISN)").is_empty()
        );
        assert!(scan("let a = 0x10000000f;").is_empty());
        assert_eq!(scan("pub enum Port {")[0].2, "Port");
        assert!(scan("pub enum PortSide {").is_empty());
    }
}
