//! Error paths of the `nicctl` binary that need no card: each must fail with exit code 1 and
//! a message that names the problem.

use std::process::{Command, Output};

fn nicctl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nicctl"))
        .args(args)
        .output()
        .expect("run nicctl")
}

fn fails_with(args: &[&str], needles: &[&str]) -> String {
    let out = nicctl(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: stderr: {stderr}");
    assert!(stderr.starts_with("nicctl: error: "), "{args:?}: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{args:?}: missing {n:?} in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn missing_pci_device_is_named() {
    fails_with(
        &["--card", "0000:99:00.0", "info"],
        &["no PCI device 0000:99:00.0"],
    );
}

#[test]
fn bogus_card_lists_the_accepted_forms() {
    fails_with(
        &["--card", "bogus", "info"],
        &[
            "`bogus` is not a card",
            "`sim`",
            "sim:<socket path>",
            "0000:03:00.0",
        ],
    );
}

#[test]
fn absent_simulated_card_says_how_to_start_one() {
    fails_with(
        &["--card", "sim:/nonexistent.sock", "info"],
        &[
            "no simulated card is listening on /nonexistent.sock",
            "nicctl sim start",
        ],
    );
}

#[test]
fn missing_firmware_file_is_named() {
    fails_with(
        &["program", "--firmware", "/nonexistent"],
        &["cannot read firmware file /nonexistent"],
    );
}

#[test]
fn garbage_firmware_file_names_file_and_problem() {
    let dir = std::env::temp_dir().join(format!("nicctl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("garbage.elf");
    std::fs::write(&f, b"definitely not an ELF file").unwrap();
    let f = f.to_str().unwrap();
    fails_with(
        &["program", "--firmware", f],
        &[
            &format!("firmware file {f} is not loadable"),
            "not an ELF file",
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bitstream_on_a_simulated_card_is_refused() {
    let dir = std::env::temp_dir().join(format!("nicctl-bit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A valid-looking firmware is needed to get past the firmware check: hand-built RV32 ELF
    // header with one segment.
    let f = dir.join("fw.elf");
    std::fs::write(&f, tiny_rv32_elf()).unwrap();
    let out = nicctl(&["firmware", "seal", f.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    fails_with(
        &[
            "--card",
            "sim:/nonexistent.sock",
            "program",
            "--firmware",
            f.to_str().unwrap(),
            "--bitstream",
            "/nonexistent.bit",
        ],
        &["--bitstream applies to real cards only"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn log_without_elf_asks_for_one() {
    let dir = std::env::temp_dir().join(format!("nicctl-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nicctl"))
        .args(["--card", "sim:/nonexistent.sock", "log"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--elf FILE"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sim_status_and_stop_without_a_card() {
    let out = nicctl(&["sim", "status", "--socket", "/nonexistent.sock"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("not running"));
    fails_with(
        &["sim", "stop", "--socket", "/nonexistent.sock"],
        &["no simulated card is running on /nonexistent.sock"],
    );
}

/// ELF32 little-endian RISC-V executable with one 8-byte segment at address 0.
fn tiny_rv32_elf() -> Vec<u8> {
    let mut e = Vec::new();
    e.extend_from_slice(b"\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0");
    e.extend_from_slice(&2u16.to_le_bytes()); // ET_EXEC
    e.extend_from_slice(&243u16.to_le_bytes()); // EM_RISCV
    e.extend_from_slice(&1u32.to_le_bytes());
    e.extend_from_slice(&0u32.to_le_bytes()); // entry
    e.extend_from_slice(&52u32.to_le_bytes()); // phoff
    e.extend_from_slice(&0u32.to_le_bytes());
    e.extend_from_slice(&0u32.to_le_bytes());
    for v in [52u16, 32, 1, 40, 0, 0] {
        e.extend_from_slice(&v.to_le_bytes());
    }
    for v in [1u32, 84, 0, 0, 8, 8, 5, 4] {
        e.extend_from_slice(&v.to_le_bytes());
    }
    e.extend_from_slice(&[0x13, 0, 0, 0, 0x6f, 0, 0, 0]);
    e
}

#[test]
fn unsealed_images_are_refused_sealing_is_stable_and_a_flipped_byte_names_its_segment() {
    let dir = std::env::temp_dir().join(format!("nicctl-seal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("fw.elf");
    let raw = tiny_rv32_elf();
    std::fs::write(&f, &raw).unwrap();
    let fs = f.to_str().unwrap();
    // No seal: refused before any card is opened, with the ways out named.
    fails_with(
        &[
            "--card",
            "sim:/nonexistent.sock",
            "program",
            "--firmware",
            fs,
        ],
        &[
            "carries no seal",
            "nicctl firmware seal",
            "--allow-unverified",
        ],
    );
    fails_with(&["firmware", "show", fs], &["carries no seal"]);
    // Accepted unverified, it gets as far as the (absent) card, with a warning.
    let out = nicctl(&[
        "--card",
        "sim:/nonexistent.sock",
        "program",
        "--firmware",
        fs,
        "--allow-unverified",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("loading it UNVERIFIED"), "{stderr}");
    assert!(
        stderr.contains("no simulated card is listening"),
        "{stderr}"
    );
    // Sealed: the loadable bytes are the same, sealing again changes nothing.
    let sealed = dir.join("fw.sealed");
    let out = nicctl(&["firmware", "seal", fs, "-o", sealed.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let once = std::fs::read(&sealed).unwrap();
    assert_eq!(
        &once[52..92],
        &raw[52..92],
        "program header and code unchanged"
    );
    let out = nicctl(&["firmware", "seal", sealed.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("was sealed already"));
    assert_eq!(std::fs::read(&sealed).unwrap(), once);
    let out = nicctl(&["firmware", "show", sealed.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("segment 0: load 0x00000000") && text.contains("all match"),
        "{text}"
    );
    // One flipped bit in the code (file offset 84): refused, the segment named.
    let mut bad = once.clone();
    bad[86] ^= 0x10;
    let b = dir.join("fw.bad");
    std::fs::write(&b, &bad).unwrap();
    for args in [
        vec!["firmware", "show", b.to_str().unwrap()],
        vec![
            "program",
            "--firmware",
            b.to_str().unwrap(),
            "--allow-unverified",
        ],
    ] {
        fails_with(
            &args,
            &["segment 0 (load address 0x00000000, 8 bytes) does not match the seal"],
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Stops the simulated card on drop, so a failing assertion does not leave it running.
struct SimGuard(String);

impl Drop for SimGuard {
    fn drop(&mut self) {
        let _ = nicctl(&["sim", "stop", "--socket", &self.0]);
    }
}

#[test]
fn simulated_card_starts_answers_and_stops() {
    let sock = std::env::temp_dir()
        .join(format!("nicctl-cli-sim-{}.sock", std::process::id()))
        .to_str()
        .unwrap()
        .to_string();
    let out = nicctl(&["sim", "start", "--socket", &sock]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "sim start: {stderr}");
    let _guard = SimGuard(sock.clone());
    assert!(String::from_utf8_lossy(&out.stdout).contains("simulated card running on"));

    fails_with(
        &["sim", "start", "--socket", &sock],
        &["already running", "nicctl sim stop"],
    );

    let card = format!("sim:{sock}");
    let out = nicctl(&["--card", &card, "info", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"magic\": \"0x534e4943\""), "{text}");
    assert!(text.contains("\"core_state\": \"in reset\""), "{text}");

    // No firmware runs: a mailbox command times out and says so.
    fails_with(&["--card", &card, "ping"], &["PING", "no answer", "OFF"]);

    let out = nicctl(&["sim", "stop", "--socket", &sock]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    fails_with(
        &["--card", &card, "info"],
        &["no simulated card is listening"],
    );
}

#[test]
fn every_command_has_help_with_examples_and_completions_exist() {
    for cmd in [
        "info",
        "program",
        "firmware",
        "log",
        "ping",
        "echo",
        "bench",
        "sim",
        "rules",
        "flows",
        "stats",
        "trace",
        "exporter",
        "capture",
        "monitor",
        "completions",
    ] {
        let out = nicctl(&[cmd, "--help"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{cmd} --help");
        assert!(
            text.contains("Example"),
            "{cmd} --help has no example:\n{text}"
        );
    }
    let out = nicctl(&["ipvsadm", "-h"]);
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("-L|l [virtual-service] [options]")
            || String::from_utf8_lossy(&out.stdout).contains("-L")
    );
    for shell in ["bash", "zsh", "fish"] {
        let out = nicctl(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("ipvsadm"),
            "{shell}"
        );
    }
}

#[test]
fn rules_check_locates_every_error_without_a_card() {
    let dir = std::env::temp_dir().join(format!("nicctl-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.conf");
    std::fs::write(
        &f,
        "virtual_server 10.0.0.300 80 {\n    default_pool web\n}\npool web {\n    lvs_shed wlc\n}\n",
    )
    .unwrap();
    let out = nicctl(&["rules", "check", f.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.ends_with("bad.conf: 2 errors\n"), "{stderr}");
    assert!(stderr.contains("bad.conf:1:16:"), "{stderr}");
    assert!(
        stderr.contains("bad.conf:5:5:") && stderr.contains("lvs_sched"),
        "{stderr}"
    );
    let ok = nicctl(&["rules", "check", "../../examples/splicenic.conf"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
