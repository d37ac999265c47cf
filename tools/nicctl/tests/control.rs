//! The control plane end to end: `nicctl` processes driving a simulated card (the real
//! gateware and the real firmware) through its socket, with TCP frames put on the card's
//! wire by the test. Needs the firmware ELF (`cargo xtask build`; `SPLICENIC_FW_ELF`
//! overrides the path), tshark and python3 (`cargo xtask setup` installs them).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use etherparse::{PacketBuilder, SlicedPacket, TransportSlice};
use splicenic_driver::SocketBar;

const CLIENT_MAC: [u8; 6] = [0x02, 0, 0, 0, 0, 0x02];
const CARD_MAC_C: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x0c];
const CARD_MAC_S: [u8; 6] = [0x02, 0x5e, 0, 0, 0, 0x05];
const CLIENT: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
const VIP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 100);
const LOCAL: Ipv4Addr = Ipv4Addr::new(192, 168, 1, 1);

/// The simulated card's speed, in core cycles per wall-clock second, that the card-paced
/// deadlines here are written for (as `splicenic_hil::wait::REFERENCE_HZ`; nicctl's tests
/// do not depend on splicenic-hil).
const REFERENCE_HZ: f64 = 200_000.0;

/// `deadline`, written for a card at [`REFERENCE_HZ`], stretched by how much slower the card
/// behind `bar` runs: its cycle counter (INFO) is timed over 20 000 cycles. Never shortened.
fn scaled(bar: &mut SocketBar, deadline: Duration) -> Duration {
    let cycles = |bar: &mut SocketBar| bar.info().expect("INFO").cycles;
    let (c0, t0) = (cycles(bar), Instant::now());
    let end = t0 + Duration::from_secs(60);
    let c1 = loop {
        let c = cycles(bar);
        if c >= c0 + 20_000 {
            break c;
        }
        assert!(
            Instant::now() < end,
            "the card's clock did not advance 20000 cycles within 60 s ({c0} -> {c})"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let hz = (c1 - c0) as f64 / t0.elapsed().as_secs_f64();
    deadline.mul_f64((REFERENCE_HZ / hz).max(1.0))
}

/// The lines of a child's output, read by a thread, as they come.
fn lines_of(out: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn firmware_elf() -> PathBuf {
    match std::env::var_os("SPLICENIC_FW_ELF") {
        Some(p) => PathBuf::from(p),
        None => {
            workspace().join("target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw")
        }
    }
}

/// A simulated card run by `nicctl sim start`, stopped on drop.
struct Sim {
    dir: PathBuf,
    sock: PathBuf,
}

impl Sim {
    fn start(name: &str) -> Sim {
        let dir = std::env::temp_dir().join(format!("nicctl-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let sock = dir.join("card.sock");
        let sim = Sim { dir, sock };
        let elf = firmware_elf();
        assert!(
            elf.is_file(),
            "firmware ELF {} missing: run `cargo xtask build` first",
            elf.display()
        );
        let mut start = vec!["sim", "start", "--socket", sim.sock.to_str().unwrap()];
        // SPLICENIC_WAVES=1 (cargo xtask hil's rerun of a failed scenario): a waveform.
        let waves = workspace()
            .join("target/hil-failures")
            .join(format!("control-{name}"))
            .join("card.fst");
        let waves_on = std::env::var("SPLICENIC_WAVES").is_ok_and(|v| !v.is_empty() && v != "0");
        if waves_on {
            std::fs::create_dir_all(waves.parent().unwrap()).unwrap();
            eprintln!("waveform of the simulated card: {}", waves.display());
            start.extend(["--trace", waves.to_str().unwrap()]);
        }
        sim.ok(&start);
        sim.ok(&["program", "--firmware", elf.to_str().unwrap()]);
        sim
    }

    fn card(&self) -> String {
        format!("sim:{}", self.sock.display())
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_nicctl"));
        c.arg("--card").arg(self.card()).args(args);
        c
    }

    fn run(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut c = self.cmd(args);
        c.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().expect("run nicctl");
        if let Some(text) = stdin {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
        } else {
            drop(child.stdin.take());
        }
        child.wait_with_output().unwrap()
    }

    /// Runs `nicctl args`, asserts success, returns stdout.
    fn ok(&self, args: &[&str]) -> String {
        self.ok_in(args, None)
    }

    fn ok_in(&self, args: &[&str], stdin: Option<&str>) -> String {
        let out = self.run(args, stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "nicctl {args:?} failed ({}): {stderr}",
            out.status
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs `nicctl args`, asserts exit code 1 and that stderr names `needle`.
    fn fails(&self, args: &[&str], needle: &str) -> String {
        let out = self.run(args, None);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: missing {needle:?} in {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        stderr
    }

    fn bar(&self) -> SocketBar {
        SocketBar::connect(&self.sock).unwrap()
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self
            .cmd(&["sim", "stop", "--socket", self.sock.to_str().unwrap()])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A TCP segment on the wire.
#[derive(Debug)]
struct Seg {
    src: SocketAddrV4,
    dst: SocketAddrV4,
    dst_mac: [u8; 6],
    seq: u32,
    ack: u32,
    syn: bool,
    fin: bool,
    payload: Vec<u8>,
}

fn frame(src_mac: [u8; 6], dst_mac: [u8; 6], s: &Seg) -> Vec<u8> {
    let b = PacketBuilder::ethernet2(src_mac, dst_mac)
        .ipv4(s.src.ip().octets(), s.dst.ip().octets(), 64)
        .tcp(s.src.port(), s.dst.port(), s.seq, 64240);
    let b = if s.syn {
        b.syn()
            .options(&[etherparse::TcpOptionElement::MaximumSegmentSize(1460)])
            .unwrap()
    } else {
        b
    };
    let b = if s.ack != 0 || !s.syn {
        b.ack(s.ack)
    } else {
        b
    };
    let b = if s.fin { b.fin() } else { b };
    let b = if s.payload.is_empty() { b } else { b.psh() };
    let mut out = Vec::new();
    b.write(&mut out, &s.payload).unwrap();
    out
}

/// Decodes a TCP frame: (src, dst, dst MAC, seq, ack, syn, payload).
fn parse(f: &[u8]) -> Option<Seg> {
    let p = SlicedPacket::from_ethernet(f).ok()?;
    let eth = match p.link? {
        etherparse::LinkSlice::Ethernet2(e) => e,
        _ => return None,
    };
    let ip = match p.net? {
        etherparse::NetSlice::Ipv4(ip) => ip,
        _ => return None,
    };
    let TransportSlice::Tcp(t) = p.transport? else {
        return None;
    };
    Some(Seg {
        src: SocketAddrV4::new(ip.header().source_addr(), t.source_port()),
        dst: SocketAddrV4::new(ip.header().destination_addr(), t.destination_port()),
        dst_mac: eth.destination(),
        seq: t.sequence_number(),
        ack: t.acknowledgment_number(),
        syn: t.syn(),
        fin: t.fin(),
        payload: t.payload().to_vec(),
    })
}

/// Waits for a TCP frame out of `port` that `want` accepts (the card runs meanwhile), at
/// most 120 s at [`REFERENCE_HZ`] ([`scaled`]).
fn wait_for(bar: &mut SocketBar, port: u8, what: &str, want: impl Fn(&Seg) -> bool) -> Seg {
    let limit = scaled(bar, Duration::from_secs(120));
    let end = Instant::now() + limit;
    while Instant::now() < end {
        for f in bar.recv_frames(port, 64).unwrap() {
            if let Some(s) = parse(&f) {
                if want(&s) {
                    return s;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no {what} from the card on port {port} within {limit:?}");
}

fn test_config(sim: &Sim, extra: &str) -> PathBuf {
    sim.write(
        "lb.conf",
        &format!(
            "global_defs {{
    lvs_timeouts tcp 900 tcpfin 120 udp 300
    client_mac 02:5e:00:00:00:0c
    server_mac 02:5e:00:00:00:05
    local_address 192.168.1.1
}}
virtual_server 10.0.0.100 80 {{
    lvs_method NAT
    protocol TCP
    default_pool web
}}
pool web {{
    lvs_sched wlc
    real_server 192.168.1.10 8080 {{
        weight 2
        mac 02:00:00:00:01:0a
    }}
}}
pool static {{
    lvs_sched rr
    real_server 192.168.1.20 8080 {{
        mac 02:00:00:00:01:14
    }}
}}
url_rule static_files {{
    path_prefix /static/
    priority 10
    pool static
}}
url_rule www {{
    host www.example.com
    priority 20
    pool web
}}
{extra}"
        ),
    )
}

/// One spliced connection made by hand: handshake with the card, a request the URL rules
/// send to pool `static`, the card's connection to 192.168.1.20, and the request replayed.
fn splice_one(sim: &Sim, client_port: u16) -> (SocketAddrV4, Vec<u8>) {
    let mut bar = sim.bar();
    let client = SocketAddrV4::new(CLIENT, client_port);
    let vip = SocketAddrV4::new(VIP, 80);
    let isn = 1_000_000u32;
    let syn = Seg {
        src: client,
        dst: vip,
        dst_mac: CARD_MAC_C,
        seq: isn,
        ack: 0,
        syn: true,
        fin: false,
        payload: vec![],
    };
    bar.send_frame(0, &frame(CLIENT_MAC, CARD_MAC_C, &syn))
        .unwrap();
    let synack = wait_for(&mut bar, 0, "SYN-ACK", |s| s.syn && s.dst == client);
    assert_eq!(synack.ack, isn.wrapping_add(1));
    assert_eq!(synack.dst_mac, CLIENT_MAC);
    let request = b"GET /static/app.js HTTP/1.1\r\nHost: www.example.com\r\n\r\n".to_vec();
    let req = Seg {
        src: client,
        dst: vip,
        dst_mac: CARD_MAC_C,
        seq: isn.wrapping_add(1),
        ack: synack.seq.wrapping_add(1),
        syn: false,
        fin: false,
        payload: request.clone(),
    };
    bar.send_frame(0, &frame(CLIENT_MAC, CARD_MAC_C, &req))
        .unwrap();
    // Rule static_files (priority 10) beats www (20): pool static, server .20.
    let server_syn = wait_for(&mut bar, 1, "SYN to a real server", |s| s.syn);
    let server = SocketAddrV4::new(Ipv4Addr::new(192, 168, 1, 20), 8080);
    assert_eq!(
        server_syn.dst, server,
        "the URL rules chose the wrong server"
    );
    assert_eq!(server_syn.dst_mac, [0x02, 0, 0, 0, 0x01, 0x14]);
    assert_eq!(*server_syn.src.ip(), LOCAL);
    let synack_s = Seg {
        src: server,
        dst: server_syn.src,
        dst_mac: CARD_MAC_S,
        seq: 7_000_000,
        ack: server_syn.seq.wrapping_add(1),
        syn: true,
        fin: false,
        payload: vec![],
    };
    bar.send_frame(
        1,
        &frame([0x02, 0, 0, 0, 0x01, 0x14], CARD_MAC_S, &synack_s),
    )
    .unwrap();
    let replayed = wait_for(&mut bar, 1, "replayed request", |s| !s.payload.is_empty());
    assert_eq!(replayed.payload, request);
    (server_syn.src, request)
}

/// Fetches http://addr/metrics.
fn scrape(addr: SocketAddrV4) -> String {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(mut s) = TcpStream::connect(addr) {
            s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
            s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut r = String::new();
            s.read_to_string(&mut r).unwrap();
            return r;
        }
        assert!(Instant::now() < end, "exporter does not listen on {addr}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn golden(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden/card")
            .join(name),
    )
    .unwrap()
}

fn stop(mut child: Child) -> Output {
    // SAFETY: kill(2) on the child's pid; SIGTERM asks it to end cleanly.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let end = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < end, "nicctl did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn ipvsadm_commands_and_listings_on_the_card() {
    let sim = Sim::start("ipvsadm");
    sim.ok(&["ipvsadm", "-A", "-t", "10.0.0.100:80", "-s", "wlc"]);
    sim.ok(&[
        "ipvsadm",
        "-a",
        "-t",
        "10.0.0.100:80",
        "-r",
        "192.168.1.10:8080",
        "-m",
        "-w",
        "3",
        "--mac",
        "02:00:00:00:01:0a",
    ]);
    sim.ok(&[
        "ipvsadm",
        "-a",
        "-t",
        "10.0.0.100:80",
        "-r",
        "192.168.1.11:8080",
        "-w",
        "1",
        "-x",
        "100",
        "-y",
        "50",
        "--mac",
        "02:00:00:00:01:0b",
    ]);
    sim.ok(&[
        "ipvsadm",
        "-A",
        "-t",
        "10.0.0.101:443",
        "-s",
        "rr",
        "-p",
        "600",
    ]);
    sim.ok(&[
        "ipvsadm",
        "-a",
        "-t",
        "10.0.0.101:443",
        "-r",
        "192.168.1.12",
        "--mac",
        "02:00:00:00:01:0c",
    ]);
    sim.ok(&["ipvsadm", "--set", "3600", "60", "0"]);

    assert_eq!(sim.ok(&["ipvsadm", "-L", "-n"]), golden("list.txt"));
    assert_eq!(
        sim.ok(&["ipvsadm", "-Ln", "--thresholds"]),
        golden("thresholds.txt")
    );
    assert_eq!(
        sim.ok(&["ipvsadm", "-L", "--timeout"]),
        "Timeout (tcp tcpfin udp): 3600 60 300\n"
    );
    let saved = sim.ok(&["ipvsadm", "-S", "-n"]);
    assert_eq!(saved, golden("save.txt"));
    let stats = sim.ok(&["ipvsadm", "-L", "-n", "--stats"]);
    assert!(stats.starts_with(&golden("stats-head.txt")), "{stats}");

    // Errors ipvsadm users know.
    sim.fails(
        &["ipvsadm", "-A", "-t", "10.0.0.100:80"],
        "Service already exists",
    );
    sim.fails(
        &[
            "ipvsadm",
            "-a",
            "-t",
            "10.0.0.1:80",
            "-r",
            "192.168.1.10:80",
            "--mac",
            "02:00:00:00:00:01",
        ],
        "Service not defined",
    );
    sim.fails(
        &[
            "ipvsadm",
            "-d",
            "-t",
            "10.0.0.100:80",
            "-r",
            "192.168.1.99:80",
        ],
        "No such destination",
    );
    sim.fails(&["ipvsadm", "-A", "-u", "10.0.0.100:53"], "TCP");
    sim.fails(
        &[
            "ipvsadm",
            "-a",
            "-t",
            "10.0.0.100:80",
            "-r",
            "192.168.1.77:80",
            "-g",
        ],
        "masquerad",
    );

    // Edit and delete.
    sim.ok(&[
        "ipvsadm",
        "-e",
        "-t",
        "10.0.0.100:80",
        "-r",
        "192.168.1.11:8080",
        "-w",
        "0",
    ]);
    assert!(sim
        .ok(&["ipvsadm", "-L", "-n"])
        .contains("  -> 192.168.1.11:8080            Masq    0      0          0"));
    sim.ok(&[
        "ipvsadm",
        "-e",
        "-t",
        "10.0.0.100:80",
        "-r",
        "192.168.1.11:8080",
        "-w",
        "1",
        "-x",
        "100",
        "-y",
        "50",
    ]);

    // Save, clear, restore: the same table.
    sim.ok(&["ipvsadm", "-C"]);
    assert_eq!(
        sim.ok(&["ipvsadm", "-L", "-n"]),
        "IP Virtual Server version 1.2.1 (size=16384)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n"
    );
    sim.ok_in(&["ipvsadm", "-R"], Some(&saved));
    assert_eq!(sim.ok(&["ipvsadm", "-S", "-n"]), saved);
    // Hostile -R input: invalid UTF-8 at its place, an endless input refused at the limit;
    // nothing is restored from either.
    for (input, needle) in [
        (
            b"-A -t 10.0.0.\xe9:80 -s rr\n".to_vec(),
            "line 1, column 14",
        ),
        (vec![b'\n'; 3 << 20], "larger than 1048576 bytes"),
    ] {
        let mut child = sim
            .cmd(&["ipvsadm", "-R"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // The reader stops at the limit: the rest of the write may meet a closed pipe.
        let _ = stdin.write_all(&input);
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
    assert_eq!(sim.ok(&["ipvsadm", "-S", "-n"]), saved);

    // JSON listing.
    let v: serde_json::Value =
        serde_json::from_str(&sim.ok(&["ipvsadm", "-L", "-n", "--json"])).unwrap();
    assert_eq!(v["services"].as_array().unwrap().len(), 2, "{v}");
    sim.ok(&["ipvsadm", "-D", "-t", "10.0.0.101:443"]);
    assert!(!sim.ok(&["ipvsadm", "-L", "-n"]).contains("10.0.0.101"));
}

#[test]
fn rule_sets_traffic_flows_stats_exporter_and_capture() {
    let sim = Sim::start("rules");
    let conf = test_config(&sim, "");
    sim.ok(&["rules", "check", conf.to_str().unwrap()]);
    let bank0 = sim.ok(&["rules", "show"]);
    assert!(bank0.contains("no rule set"), "{bank0}");
    let load = sim.ok(&["rules", "load", "-q", conf.to_str().unwrap()]);
    assert!(load.contains("2 rules into bank 1"), "{load}");
    let shown = sim.ok(&["rules", "show"]);
    assert!(shown.starts_with("# active bank 1\n"), "{shown}");
    assert!(
        shown.contains("url_rule static_files") && shown.contains("path_prefix /static/"),
        "{shown}"
    );
    assert!(sim
        .ok(&["rules", "diff", conf.to_str().unwrap()])
        .starts_with("no change"));

    // Not only the URL rules: a weight and a timeout change are changes, and nothing else.
    let tuned = sim.write(
        "lb-tuned.conf",
        &std::fs::read_to_string(&conf)
            .unwrap()
            .replace("weight 2", "weight 7")
            .replace("lvs_timeouts tcp 900", "lvs_timeouts tcp 600"),
    );
    let diff = sim.ok(&["rules", "diff", tuned.to_str().unwrap()]);
    assert_eq!(
        diff,
        "~ lvs_timeouts tcp (ESTABLISHED): 600 s (was: 900 s)\n\
         ~ real_server 192.168.1.10:8080 #0 in pool web: weight 7 (was: 2)\n",
        "{diff}"
    );

    // A changed file: diff names the changes; loading switches to the other bank.
    let changed = sim.write(
        "lb2.conf",
        &std::fs::read_to_string(&conf)
            .unwrap()
            .replace("priority 20", "priority 5")
            .replace("url_rule static_files", "url_rule assets"),
    );
    let diff = sim.ok(&["rules", "diff", changed.to_str().unwrap()]);
    assert!(
        diff.contains("static_files") && diff.contains("assets") && diff.contains("www"),
        "{diff}"
    );
    sim.ok(&["rules", "load", "-q", changed.to_str().unwrap()]);
    assert!(sim.ok(&["rules", "show"]).starts_with("# active bank 0\n"));
    // Back to the first file (static_files must win for /static/ again).
    sim.ok(&["rules", "load", "-q", conf.to_str().unwrap()]);

    // A broken file changes nothing.
    let broken = sim.write(
        "broken.conf",
        "pool x {\n    lvs_sched nope\n}\nurl_rule r {\n    path /a\n    pool missing\n}\n",
    );
    let e = sim.fails(
        &["rules", "load", broken.to_str().unwrap()],
        "nothing was applied",
    );
    assert!(
        e.contains("broken.conf:2:") && e.contains("broken.conf:6:"),
        "{e}"
    );
    assert!(sim.ok(&["rules", "show"]).contains("url_rule static_files"));

    // Capture the punted frames while a connection is spliced by hand.
    let pcap = sim.dir.join("punted.pcap");
    let mut capture = sim
        .cmd(&["capture", "-w", pcap.to_str().unwrap(), "--count", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let capture_log = lines_of(capture.stderr.take().unwrap());
    let limit = scaled(&mut sim.bar(), Duration::from_secs(60));
    // The capture is on once nicctl says so (it has sent CAPTURE_SET by then).
    let mut said: Vec<String> = Vec::new();
    while !said
        .last()
        .is_some_and(|l| l.starts_with("capturing punted frames"))
    {
        match capture_log.recv_timeout(limit) {
            Ok(l) => said.push(l),
            Err(e) => panic!("nicctl capture did not switch on within {limit:?} ({e}): {said:?}"),
        }
    }
    let (local, _) = splice_one(&sim, 40_000);
    // The request was punted (the card answered the SYN, and its absorber took the server's
    // SYN-ACK without a punt): the capture ends by itself at its count.
    let end = Instant::now() + limit;
    while capture.try_wait().unwrap().is_none() {
        if Instant::now() >= end {
            let _ = stop(capture);
            let rest: Vec<String> = capture_log.try_iter().collect();
            panic!("nicctl capture did not write its frame within {limit:?}: {said:?} {rest:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    said.extend(capture_log.iter());
    let stderr = said.join("\n");
    assert!(capture.wait().unwrap().success(), "{stderr}");
    assert!(stderr.contains("1 frame written"), "{stderr}");
    let tshark = Command::new("tshark")
        .args([
            "-r",
            pcap.to_str().unwrap(),
            "-T",
            "fields",
            "-e",
            "ip.src",
            "-e",
            "tcp.dstport",
            "-e",
            "tcp.flags.syn",
        ])
        .output()
        .expect("tshark (installed by cargo xtask setup)");
    let fields = String::from_utf8_lossy(&tshark.stdout);
    assert!(
        tshark.status.success(),
        "{}",
        String::from_utf8_lossy(&tshark.stderr)
    );
    assert!(
        fields.lines().count() == 1 && fields.starts_with("10.0.0.2\t80\t"),
        "the client's request: {fields}"
    );

    // The spliced flow, as flows and as ipvsadm -Lnc.
    let flows = sim.ok(&["flows"]);
    assert!(
        flows.contains("10.0.0.2:40000")
            && flows.contains("192.168.1.20:8080")
            && flows.contains(&local.to_string()),
        "{flows}"
    );
    let conns = sim.ok(&["ipvsadm", "-L", "-n", "-c"]);
    assert!(
        conns.contains("ESTABLISHED") && conns.contains("10.0.0.2:40000"),
        "{conns}"
    );
    let stats = sim.ok(&["ipvsadm", "-L", "-n", "--stats", "--exact"]);
    let svc = stats
        .lines()
        .find(|l| l.starts_with("TCP  10.0.0.100:80"))
        .unwrap();
    let cols: Vec<u64> = svc
        .split_whitespace()
        .skip(2)
        .map(|c| c.parse().unwrap())
        .collect();
    assert!(
        cols[0] >= 1 && cols[1] >= 2,
        "Conns and InPkts of the service: {svc}"
    );

    // Exporter: parsed as Prometheus text.
    let port = free_port();
    let exp = sim
        .cmd(&["exporter", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let resp = scrape(SocketAddrV4::new(Ipv4Addr::LOCALHOST, port));
    stop(exp);
    let body = resp.split("\r\n\r\n").nth(1).unwrap_or_default();
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    let lines: Vec<_> = body.lines().map(|l| Ok(l.to_string())).collect();
    let scrape = prometheus_parse::Scrape::parse(lines.into_iter()).unwrap();
    let get = |name: &str| {
        scrape
            .samples
            .iter()
            .find(|s| s.metric == name)
            .unwrap_or_else(|| panic!("no {name} in {body}"))
    };
    match get("splicenic_flow_table_capacity").value {
        prometheus_parse::Value::Gauge(v) => assert_eq!(v, 16384.0),
        ref v => panic!("{v:?}"),
    }
    match get("splicenic_firmware_up").value {
        prometheus_parse::Value::Gauge(v) => assert_eq!(v, 1.0),
        ref v => panic!("{v:?}"),
    }
    assert!(scrape
        .samples
        .iter()
        .any(|s| s.metric.starts_with("splicenic_server")
            && s.labels.get("server") == Some("192.168.1.20")));
    let stats = sim.ok(&["stats"]);
    assert!(stats.contains("Flows: 1 in use"), "{stats}");
    assert!(
        stats.contains("Spliced RSTs: 0 pending (0 now)")
            && stats.contains("Spliced SYNs: 0 challenged through the server"),
        "{stats}"
    );
    // The firmware enabled the ACK validator and keeps its free list filled.
    assert!(stats.contains("ACK validator: on;"), "{stats}");
    assert!(stats.contains(" of 512; firmware took "), "{stats}");

    // A RST from the client (no ACK, any number): the card sends it to the server and puts
    // the flow in RST-pending; `nicctl stats` shows it, as text and as JSON.
    let rst = PacketBuilder::ethernet2(CLIENT_MAC, CARD_MAC_C)
        .ipv4(CLIENT.octets(), VIP.octets(), 64)
        .tcp(40_000, 80, 0x0bad_5eed, 0)
        .rst();
    let mut f = Vec::with_capacity(rst.size(0));
    rst.write(&mut f, &[]).unwrap();
    let mut bar = sim.bar();
    bar.send_frame(0, &f).unwrap();
    // The server SYN reused the client's ISN: the client's sequence numbers pass unchanged.
    let to_server = wait_for(&mut bar, 1, "the RST to the server", |s| {
        s.src == local && s.seq == 0x0bad_5eed
    });
    assert_eq!(
        (to_server.dst, to_server.ack, to_server.payload.len()),
        (
            SocketAddrV4::new(Ipv4Addr::new(192, 168, 1, 20), 8080),
            0,
            0
        ),
        "{to_server:?}"
    );
    let end = Instant::now() + scaled(&mut bar, Duration::from_secs(60));
    let v = loop {
        let v: serde_json::Value = serde_json::from_str(&sim.ok(&["stats", "--json"])).unwrap();
        if v["resets"]["rst_pending"].as_u64() == Some(1) || Instant::now() > end {
            break v;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(v["resets"]["rst_pending"], 1, "{v}");
    assert_eq!(v["resets"]["probes"], 1, "{v}");
    assert_eq!(v["spliced_syns"]["challenged"], 0, "{v}");
    let av = &v["ack_validator"];
    assert_eq!(av["enabled"], true, "{v}");
    assert_eq!(av["free_depth"], 512, "{v}");
    assert_eq!(av["new"], av["handed_over"], "{v}");
    assert_eq!(
        (av["lost"].as_u64(), av["handover_lost"].as_u64()),
        (Some(0), Some(0)),
        "{v}"
    );
    let stats = sim.ok(&["stats"]);
    assert!(stats.contains("Spliced RSTs: 1 pending"), "{stats}");
}

/// The `PUNT.DROP_FULL` count of `nicctl stats`' drops section.
fn punt_drop_full(stats: &str) -> u64 {
    let line = stats
        .lines()
        .find(|l| l.starts_with("PUNT.DROP_FULL "))
        .unwrap_or_else(|| panic!("no PUNT.DROP_FULL line in {stats}"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The client port's `SynAnswered` count of `nicctl stats --json`.
fn syn_answered(sim: &Sim) -> u64 {
    let v: serde_json::Value = serde_json::from_str(&sim.ok(&["stats", "--json"])).unwrap();
    v["ports"][0]["syn_answered"]
        .as_u64()
        .unwrap_or_else(|| panic!("no client-port syn_answered in {v}"))
}

/// A SYN flood in miniature, then an ACK flood: 48 SYNs from as many spoofed clients put on
/// the wire back to back are answered by the card's SYN responder (`SynAnswered`, nothing
/// punted, nothing dropped); 48 ACKs of no connection, three times the punt ring's 16 slots
/// and far faster than the firmware takes frames off the ring, overflow it. The ring drops
/// the ones it has no room for (`PUNT.DROP_FULL`), and `nicctl stats` shows that count in
/// its drops section, as text and as JSON.
#[test]
fn stats_shows_the_punt_ring_drops_of_a_syn_burst() {
    let sim = Sim::start("drops");
    let conf = test_config(&sim, "");
    sim.ok(&["rules", "load", "-q", conf.to_str().unwrap()]);
    let before = sim.ok(&["stats"]);
    assert!(before.contains("\nDrops\n"), "{before}");
    assert!(before.contains("SynAnswered"), "{before}");
    for reason in [
        "MAC_ERR ",
        "DROP_NOMATCH ",
        "PUNT.DROP_LONG ",
        "EVQ.OVERFLOW ",
        "DP.OVERSIZE_C ",
        "DP.UPD_DROPS ",
        "FLOW_STATS.punts_ignored ",
    ] {
        assert!(
            before.lines().any(|l| l.starts_with(reason)),
            "no {reason} line in {before}"
        );
    }
    let d0 = punt_drop_full(&before);
    let a0 = syn_answered(&sim);
    let bad_cookies = |sim: &Sim| {
        let v: serde_json::Value = serde_json::from_str(&sim.ok(&["stats", "--json"])).unwrap();
        let av = &v["ack_validator"];
        av["bad_cookie"].as_u64().unwrap() + av["stale"].as_u64().unwrap()
    };
    let b0 = bad_cookies(&sim);

    let mut bar = sim.bar();
    let vip = SocketAddrV4::new(VIP, 80);
    let burst = |bar: &mut SocketBar, syn: bool| {
        for i in 0..48u16 {
            let s = Seg {
                src: SocketAddrV4::new(Ipv4Addr::new(10, 1, 0, 1 + i as u8), 30_000 + i),
                dst: vip,
                dst_mac: CARD_MAC_C,
                seq: u32::from(i) * 0x0101_0101,
                ack: if syn { 0 } else { 0x5eed_0001 + u32::from(i) },
                syn,
                fin: false,
                payload: vec![],
            };
            bar.send_frame(0, &frame(CLIENT_MAC, CARD_MAC_C, &s))
                .unwrap();
        }
    };
    burst(&mut bar, true);
    let end = Instant::now() + scaled(&mut bar, Duration::from_secs(60));
    while syn_answered(&sim) < a0 + 48 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(200));
    }
    let text = sim.ok(&["stats"]);
    assert_eq!(syn_answered(&sim), a0 + 48, "{text}");
    assert_eq!(
        punt_drop_full(&text),
        d0,
        "SYNs reached the punt ring: {text}"
    );

    burst(&mut bar, false);
    // The card takes the frames as its clock runs: wait until the drops show.
    let end = Instant::now() + scaled(&mut bar, Duration::from_secs(60));
    let text = loop {
        let text = sim.ok(&["stats"]);
        if punt_drop_full(&text) > d0 || Instant::now() > end {
            break text;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let d1 = punt_drop_full(&text);
    assert!(d1 > d0, "no punt-ring drops after 48 ACKs: {text}");
    // The ACK validator judged every one before the punt ring (none acknowledges a cookie
    // of the card's: a bad hash, or, with the cookie's bit 0 set, the key slot of no valid
    // epoch), and took no slot for them.
    assert_eq!(bad_cookies(&sim) - b0, 48, "{text}");
    assert!(
        d1 - d0 <= 48,
        "more drops than ACKs sent: {d0} -> {d1}: {text}"
    );

    let v: serde_json::Value = serde_json::from_str(&sim.ok(&["stats", "--json"])).unwrap();
    let drops = v["drops"].as_array().unwrap();
    let full = drops
        .iter()
        .find(|d| d["reason"] == "PUNT.DROP_FULL")
        .unwrap_or_else(|| panic!("no PUNT.DROP_FULL in {v}"));
    assert!(full["count"].as_u64().unwrap() >= d1, "{full}");
    assert_eq!(full["bits"], 32);
    assert_eq!(full["wraps"], true);
    assert_eq!(full["counter"], "BAR 0x901c");
    assert!(
        drops
            .iter()
            .any(|d| d["reason"] == "MAC_ERR" && d["bits"] == 64),
        "{v}"
    );
}

/// A python3 HTTP server on loopback (a real HTTP server for HTTP_GET checks).
struct Http {
    child: Child,
}

impl Http {
    fn start(port: u16, dir: &Path) -> Http {
        let child = Command::new("python3")
            .args([
                "-m",
                "http.server",
                "--bind",
                "127.0.0.1",
                &port.to_string(),
                "--directory",
            ])
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3");
        let end = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < end, "python3 http.server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Http { child }
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `ipvsadm -L -n` until `line` is (or is not) in it, at most 90 s at
/// [`REFERENCE_HZ`] ([`scaled`]).
fn wait_listing(sim: &Sim, line: &str, present: bool, what: &str) {
    let end = Instant::now() + scaled(&mut sim.bar(), Duration::from_secs(90));
    loop {
        let l = sim.ok(&["ipvsadm", "-L", "-n"]);
        if l.contains(line) == present {
            return;
        }
        assert!(
            Instant::now() < end,
            "{what}: `{line}` present={present} never true in:\n{l}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
fn monitor_follows_a_real_backend_and_misc_dynamic_weights() {
    let sim = Sim::start("monitor");
    let www = sim.dir.join("www");
    std::fs::create_dir_all(&www).unwrap();
    std::fs::write(www.join("healthz"), "ok\n").unwrap();
    let port = free_port();
    let conf = sim.write(
        "mon.conf",
        &format!(
            "global_defs {{
    client_mac 02:5e:00:00:00:0c
    server_mac 02:5e:00:00:00:05
    local_address 192.168.1.1
}}
virtual_server 10.0.0.100 80 {{
    lvs_sched wlc
    delay_loop 0.3
    real_server 127.0.0.1 {port} {{
        weight 4
        inhibit_on_failure
        mac 02:00:00:00:01:01
        HTTP_GET {{
            url {{
                path /healthz
                status_code 200
            }}
            connect_timeout 1
            retry 1
            delay_before_retry 0.2
        }}
    }}
    real_server 127.0.0.2 8080 {{
        weight 1
        mac 02:00:00:00:01:02
        MISC_CHECK {{
            misc_path \"exit 9\"
            misc_dynamic
        }}
    }}
}}
"
        ),
    );
    let http = Http::start(port, &www);
    let mon = sim
        .cmd(&["monitor", "--apply", conf.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let up = format!("  -> 127.0.0.1:{port:<18} Masq    4 ");
    let down = format!("  -> 127.0.0.1:{port:<18} Masq    0 ");
    wait_listing(&sim, &up, true, "backend up");
    // MISC_CHECK exit 9 with misc_dynamic: weight 9 - 2 = 7.
    let misc = format!("  -> {:<28} Masq    7 ", "127.0.0.2:8080");
    wait_listing(&sim, &misc, true, "misc_dynamic weight");
    drop(http);
    wait_listing(
        &sim,
        &down,
        true,
        "backend down: inhibit_on_failure sets weight 0",
    );
    let _http = Http::start(port, &www);
    wait_listing(&sim, &up, true, "backend back: weight restored");
    let out = stop(mon);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("127.0.0.1") && log.contains("weight"), "{log}");
}

/// Holds the card's lock file (`<socket>.lock`, as every nicctl command does) while the test
/// uses the card itself.
struct Held {
    _file: std::fs::File,
}

fn hold_card(sim: &Sim) -> Held {
    use std::os::fd::AsRawFd;
    let mut p = sim.sock.clone().into_os_string();
    p.push(".lock");
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(PathBuf::from(p))
        .unwrap();
    // SAFETY: flock(2) on a file descriptor this function owns.
    let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) };
    assert_eq!(r, 0, "flock");
    Held { _file: f }
}

/// Waits for a line of `lines` containing every one of `needles`, collecting all lines into
/// `log`; at most `limit`.
fn wait_line(lines: &Receiver<String>, log: &mut Vec<String>, needles: &[&str], limit: Duration) {
    let end = Instant::now() + limit;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        assert!(
            !left.is_zero(),
            "no line with {needles:?} within {limit:?} in:\n{}",
            log.join("\n")
        );
        match lines.recv_timeout(left.min(Duration::from_millis(500))) {
            Ok(l) => {
                let hit = needles.iter().all(|n| l.contains(n));
                log.push(l);
                if hit {
                    return;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("the monitor ended; its output:\n{}", log.join("\n"))
            }
        }
    }
}

#[test]
fn monitor_watchdog_restarts_hung_and_trapped_firmware_and_sends_the_configuration_again() {
    use splicenic_driver::Card;
    use splicenic_fw_logic::mailbox::cmd;
    let sim = Sim::start("watchdog");
    let conf = sim.write(
        "wd.conf",
        "global_defs {
    client_mac 02:5e:00:00:00:0c
    server_mac 02:5e:00:00:00:05
    local_address 192.168.1.1
}
virtual_server 10.0.0.100 80 {
    lvs_sched wrr
    delay_loop 0.3
    real_server 127.0.0.3 8080 {
        weight 3
        mac 02:00:00:00:01:03
    }
    real_server 127.0.0.2 8080 {
        weight 1
        mac 02:00:00:00:01:02
        MISC_CHECK {
            misc_path \"exit 9\"
            misc_dynamic
        }
    }
}
",
    );
    let elf = firmware_elf();
    let mut mon = sim
        .cmd(&[
            "monitor",
            "--apply",
            conf.to_str().unwrap(),
            "--watchdog",
            elf.to_str().unwrap(),
            "--watchdog-timeout",
            "0.005",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = lines_of(mon.stderr.take().unwrap());
    let mut log = Vec::new();
    let limit = scaled(&mut sim.bar(), Duration::from_secs(120));
    // The monitor's own weight (MISC_CHECK exit 9, misc_dynamic: 9 - 2 = 7) is on the card.
    let misc = format!("  -> {:<28} Masq    7 ", "127.0.0.2:8080");
    let plain = format!("  -> {:<28} Masq    3 ", "127.0.0.3:8080");
    wait_listing(&sim, &misc, true, "misc_dynamic weight");
    wait_listing(&sim, &plain, true, "configured weight");

    // 1. The firmware hangs (it stops answering the mailbox and its heartbeat stops).
    {
        let _held = hold_card(&sim);
        let mut card = Card::open(Box::new(sim.bar())).unwrap();
        let r = card
            .mailbox()
            .call(cmd::DEBUG_HANG, &[], Duration::from_millis(1));
        assert!(r.is_err(), "a hung firmware answered: {r:?}");
    }
    wait_line(&lines, &mut log, &["watchdog: firmware hung"], limit);
    wait_line(
        &lines,
        &mut log,
        &["configuration sent again", "1 restart so far", "seal"],
        limit,
    );
    // The configuration is back, and the monitor's weight over it.
    wait_listing(&sim, &plain, true, "configured weight after the restart");
    wait_listing(&sim, &misc, true, "misc_dynamic weight after the restart");

    // 2. The core traps: its code is overwritten with zeros (an illegal instruction).
    {
        let _held = hold_card(&sim);
        let mut card = Card::open(Box::new(sim.bar())).unwrap();
        let (window, size) = (card.info().imem_window, u64::from(card.info().imem_size));
        let zeros = vec![0u32; (size / 4) as usize];
        card.bar_mut().write_block(window, &zeros).unwrap();
    }
    wait_line(
        &lines,
        &mut log,
        &["watchdog: firmware crashed", "trapped"],
        limit,
    );
    wait_line(&lines, &mut log, &["2 restarts so far"], limit);
    wait_listing(
        &sim,
        &misc,
        true,
        "misc_dynamic weight after the second restart",
    );
    let info = sim.ok(&["info"]);
    assert!(info.contains("READY"), "{info}");

    let out = stop(mon);
    assert!(out.status.success(), "{:?}", out.status);
    for l in lines.iter() {
        log.push(l);
    }
    let all = log.join("\n");
    assert!(
        all.contains("watchdog: 2 firmware restarts, 0 failed"),
        "{all}"
    );
    assert!(!all.contains("restarting the firmware failed"), "{all}");
    for l in all.lines().filter(|l| l.starts_with("watchdog:")) {
        eprintln!("{l}");
    }
}
