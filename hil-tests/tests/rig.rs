//! Lab rigs without a lab: a lab rig file's code path — host interfaces moved into the
//! topology's namespaces and given back, the card opened from the file — exercised with a
//! simulated card served on TAP devices (`card.socket`), and the errors of a lab rig whose
//! card or interfaces are absent.
//!
//! Needs root (TAP devices, namespaces), nginx and the firmware ELF; without root or nginx
//! it prints a note and passes.

use splicenic_hil::peer::Tally;
use splicenic_hil::rig::Rig;
use splicenic_hil::topo::{scenario, Opts, Topology};
use splicenic_sim::server::{serve_with, ServeOptions};
use splicenic_sim::SimConfig;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Host interfaces standing in for a lab host's ports; deleted on drop.
struct Links(Vec<String>);

impl Drop for Links {
    fn drop(&mut self) {
        for l in &self.0 {
            let _ = Command::new("ip")
                .args(["link", "del", l])
                .stderr(std::process::Stdio::null())
                .status();
        }
    }
}

fn ip(args: &[&str]) -> String {
    let out = Command::new("ip").args(args).output().expect("ip");
    assert!(
        out.status.success(),
        "ip {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Interface `dev` is in this (the root) namespace with no IPv4 address.
fn back_home(dev: &str) {
    let show = ip(&["-4", "-o", "addr", "show", "dev", dev]);
    assert!(
        show.trim().is_empty(),
        "{dev} came back with addresses: {show}"
    );
}

fn rig_file(dir: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join("lab.toml");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn lab_rig_errors_name_the_field() {
    let Some((_g, _t0)) = scenario("lab rig errors", &[]) else {
        return;
    };
    let id = std::process::id() & 0xffff;
    let (a, b) = (format!("snicx{id}a"), format!("snicx{id}b"));
    let _links = Links(vec![a.clone(), b.clone()]);
    ip(&["link", "add", &a, "type", "veth", "peer", "name", &b]);
    let dir = std::env::temp_dir().join(format!("snic-rigtest-{id}"));
    // No such card: refused before anything is moved.
    let f = rig_file(
        &dir,
        &format!("rig = \"lab\"\n[card]\npci = \"0000:7f:1f.7\"\n[ports]\nclient = \"{a}\"\nserver = \"{b}\"\n"),
    );
    let rig = Rig::load(&f).expect("rig file");
    let e = format!(
        "{:#}",
        Topology::build_on(rig, &Opts::three_pools())
            .err()
            .expect("no card")
    );
    eprintln!("absent card: {e}");
    assert!(
        e.contains(&format!("rig file {}: card.pci", f.display())) && e.contains("0000:7f:1f.7"),
        "{e}"
    );
    back_home(&a);
    back_home(&b);
    // No such interface.
    let f = rig_file(
        &dir,
        &format!("rig = \"lab\"\n[card]\npci = \"0000:7f:1f.7\"\n[ports]\nclient = \"{a}\"\nserver = \"snicnone{id}\"\n"),
    );
    let e = format!(
        "{:#}",
        Topology::build_on(Rig::load(&f).unwrap(), &Opts::three_pools())
            .err()
            .expect("no interface")
    );
    eprintln!("absent interface: {e}");
    assert!(e.contains("ports.server: no interface `snicnone"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A real-peer scenario on a lab rig file whose "card" is a simulated card served on two
/// TAP devices that stand for the lab host's cabled interfaces.
#[test]
fn lab_rig_file_runs_the_real_peer_topology() {
    let Some((_g, t0)) = scenario("lab rig file", &[("nginx", "-v"), ("curl", "--version")]) else {
        return;
    };
    let id = std::process::id() & 0xffff;
    let (c, s) = (format!("snicl{id}c"), format!("snicl{id}s"));
    let _links = Links(vec![c.clone(), s.clone()]);
    for l in [&c, &s] {
        ip(&["tuntap", "add", "dev", l, "mode", "tap"]);
    }
    let dir = std::env::temp_dir().join(format!("snic-labsim-{id}"));
    std::fs::create_dir_all(&dir).unwrap();
    let sock = dir.join("card.sock");
    let opts = ServeOptions {
        tap_client: Some(c.clone()),
        tap_server: Some(s.clone()),
    };
    let server = {
        let sock = sock.clone();
        std::thread::spawn(move || serve_with(&sock, SimConfig::default(), &opts))
    };
    let started = Instant::now();
    while std::os::unix::net::UnixStream::connect(&sock).is_err() {
        assert!(
            !server.is_finished(),
            "card server ended: {:?}",
            server.join()
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "card server did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let f = rig_file(
        &dir,
        &format!(
            "rig = \"lab\"\n[card]\nsocket = \"{}\"\n[ports]\nclient = \"{c}\"\nserver = \"{s}\"\n\
             [addresses]\nvip = \"172.31.0.80:8000\"\nclient = \"172.31.0.9\"\nlocal = \"10.77.0.1\"\n\
             backends = \"10.77.0.20:8081\"\n",
            sock.display()
        ),
    );
    let rig = Rig::load(&f).expect("rig file");
    eprintln!("{rig}");
    {
        let t = Topology::build_on(rig, &Opts::three_pools()).expect("building the topology");
        assert_eq!(t.client_if, c);
        assert_eq!(t.server_if, s);
        let mut tally = Tally::default();
        let r = t
            .get("api.example.com", "/api/x", &mut tally)
            .expect("GET /api/x");
        assert_eq!(r.backend, "api1");
        assert_eq!(String::from_utf8_lossy(&r.body), "api api1\n");
        let r = t
            .get("www.example.com", "/static/blob", &mut tally)
            .expect("GET blob");
        assert_eq!(r.backend, "static1");
        assert!(r.body == t.blob, "blob differs");
        // The backends saw the card's local address from the file, on their port from it.
        let log = std::fs::read_to_string(t.dir().join("api1/logs/access.log")).unwrap();
        assert!(log.starts_with("10.77.0.1 "), "api1's access log: {log}");
        t.finish("lab rig file", &tally, t0);
    }
    // The interfaces are back in the host's namespace, without the topology's addresses.
    back_home(&c);
    back_home(&s);
    if let Ok(bar) = splicenic_driver::SocketBar::connect(&sock) {
        let _ = bar.shutdown();
    }
    let _ = server.join();
    let _ = std::fs::remove_dir_all(&dir);
}
