//! The socket server with both Ethernet ports bridged to TAP devices: a Linux network
//! namespace on the client TAP resolves the card's virtual address by ARP and completes a
//! TCP handshake with it (docs/interfaces.md, "Simulated card on TAP devices").
//!
//! Needs root (TAP devices, network namespaces) and the firmware ELF; without root it
//! prints a note and passes, except under `cargo xtask test` (`splicenic_sim::prereq`).

use std::net::Ipv4Addr;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use splicenic_driver::datapath::Port;
use splicenic_driver::{Card, FirmwareImage, PoolConfig, ServiceMode, SocketBar};
use splicenic_sim::prereq::need_root;
use splicenic_sim::server::{serve_with, ServeOptions};
use splicenic_sim::tap::{Tap, TapError};
use splicenic_sim::SimConfig;

const FIRMWARE_ELF: &str = "target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw";
const VIP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 100);
const CARD_MAC_C: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x01];
const CARD_MAC_C_TEXT: &str = "02:5e:00:00:00:01";

fn firmware_elf() -> PathBuf {
    match std::env::var_os("SPLICENIC_FW_ELF") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(FIRMWARE_ELF),
    }
}

fn run(args: &[&str]) -> Output {
    Command::new(args[0])
        .args(&args[1..])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {args:?}: {e}"))
}

/// Run a command that must succeed.
fn must(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Deletes the test's network namespace and TAP devices and stops its server, also when the
/// test fails.
struct Cleanup {
    ns: String,
    taps: Vec<String>,
    socket: PathBuf,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        if let Ok(bar) = SocketBar::connect(&self.socket) {
            let _ = bar.shutdown();
        }
        for t in &self.taps {
            let _ = run(&["ip", "-n", &self.ns, "link", "del", t]);
        }
        let _ = run(&["ip", "netns", "del", &self.ns]);
        for t in &self.taps {
            let _ = run(&["ip", "link", "del", t]);
        }
        if let Some(dir) = self.socket.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[test]
fn tap_errors_name_the_device() {
    if need_root("the TAP error test").is_none() {
        return;
    }
    // Without multi-queue, a second attach to a TAP device in use is refused.
    let name = format!("snice{}", std::process::id());
    let _guard = Cleanup {
        ns: format!("snicnse{}", std::process::id()),
        taps: vec![name.clone()],
        socket: std::env::temp_dir().join(format!("snic-none-{}/x", std::process::id())),
    };
    let first = Tap::open(&name).expect("creating a TAP device as root");
    match Tap::open(&name) {
        Err(e @ TapError::Busy { .. }) => assert!(e.to_string().contains(&name), "{e}"),
        other => panic!("second attach: {other:?}"),
    }
    drop(first);
}

#[test]
fn namespace_reaches_the_card_through_tap_devices() {
    if need_root("the TAP bridge test").is_none() {
        return;
    }
    let t0 = Instant::now();
    let elf = firmware_elf();
    let fw = std::fs::read(&elf).unwrap_or_else(|e| {
        panic!(
            "firmware ELF {}: {e} (build it, or set SPLICENIC_FW_ELF)",
            elf.display()
        )
    });

    let pid = std::process::id();
    let tap_c = format!("snicc{pid}");
    let tap_s = format!("snics{pid}");
    let ns = format!("snicns{pid}");
    let dir = std::env::temp_dir().join(format!("snic-tap-test-{pid}"));
    std::fs::create_dir_all(&dir).unwrap();
    let socket = dir.join("card.sock");
    let _guard = Cleanup {
        ns: ns.clone(),
        taps: vec![tap_c.clone(), tap_s.clone()],
        socket: socket.clone(),
    };

    // Persistent devices, so the server attaches to existing ones.
    must(&["ip", "tuntap", "add", "dev", &tap_c, "mode", "tap"]);
    must(&["ip", "tuntap", "add", "dev", &tap_s, "mode", "tap"]);

    let opts = ServeOptions {
        tap_client: Some(tap_c.clone()),
        tap_server: Some(tap_s.clone()),
    };
    let server = {
        let socket = socket.clone();
        std::thread::spawn(move || serve_with(&socket, SimConfig::default(), &opts))
    };
    while UnixStream::connect(&socket).is_err() {
        assert!(!server.is_finished(), "server ended: {:?}", server.join());
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "server did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    // Boot the firmware and set up a virtual service (no real servers: the card answers
    // ARP for the VIP and the client's handshake itself).
    let bar = SocketBar::connect(&socket).unwrap();
    let mut card = Card::open(Box::new(bar)).unwrap();
    let img = FirmwareImage::parse(&fw).unwrap();
    card.firmware()
        .load_with_timeout(&img, Duration::from_secs(300), |_, _| {})
        .unwrap();
    card.set_mailbox_timeout(Duration::from_secs(120));
    card.datapath()
        .unwrap()
        .set_port_mac(Port::Client, CARD_MAC_C)
        .unwrap();
    card.flow_manager()
        .pool_set(0, &PoolConfig::default())
        .unwrap();
    card.flow_manager()
        .service_set(0, VIP, 80, ServiceMode::L4 { pool: 0 })
        .unwrap();
    eprintln!("card ready after {:.1?}", t0.elapsed());

    // The client side: a namespace on the client TAP.
    must(&["ip", "netns", "add", &ns]);
    must(&["ip", "link", "set", &tap_c, "netns", &ns]);
    let _ = run(&[
        "ip",
        "netns",
        "exec",
        &ns,
        "sysctl",
        "-qw",
        "net.ipv6.conf.all.disable_ipv6=1",
    ]);
    must(&["ip", "-n", &ns, "addr", "add", "10.0.0.2/24", "dev", &tap_c]);
    must(&["ip", "-n", &ns, "link", "set", &tap_c, "up"]);

    let t1 = Instant::now();
    let connect = run(&[
        "ip",
        "netns",
        "exec",
        &ns,
        "timeout",
        "90",
        "bash",
        "-c",
        "exec 3<>/dev/tcp/10.0.0.100/80",
    ]);
    eprintln!(
        "TCP connect from the namespace took {:.1?}: {}",
        t1.elapsed(),
        connect.status
    );
    let neigh = must(&[
        "ip",
        "-n",
        &ns,
        "neigh",
        "show",
        "10.0.0.100",
        "dev",
        &tap_c,
    ]);
    eprintln!("neighbour entry: {}", neigh.trim());
    assert!(
        neigh.contains(CARD_MAC_C_TEXT),
        "no ARP entry with the card's client MAC {CARD_MAC_C_TEXT} for {VIP}: {neigh:?}"
    );
    assert!(
        connect.status.success(),
        "TCP connect to {VIP}:80 from the namespace failed ({}): {}",
        connect.status,
        String::from_utf8_lossy(&connect.stderr)
    );

    drop(card);
    let bar = SocketBar::connect(&socket).unwrap();
    bar.shutdown().unwrap();
    server.join().unwrap().unwrap();
    eprintln!("whole test: {:.1?}", t0.elapsed());
}
