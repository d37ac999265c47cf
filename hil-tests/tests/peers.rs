//! Real Linux peers through the simulated card (docs/rig.md): curl in a client namespace,
//! nginx in backend namespaces on a bridged LAN, the card splicing HTTP by URL and Host.
//!
//! Needs root (TAP devices, namespaces), nginx and the firmware ELF; without root or nginx
//! it prints a note and passes. The three scenarios share one topology (booting the card
//! dominates the wall time).

use sha2::{Digest, Sha256};
use splicenic_hil::topo::{is_root, Opts, Topology, BLOB_LEN, VIP};
use std::time::{Duration, Instant};

const CURL_TIMEOUT: &str = "120";
const EXEC_TIMEOUT: Duration = Duration::from_secs(150);

/// Totals printed by every scenario.
#[derive(Default)]
struct Tally {
    connections: usize,
    bytes: usize,
    wall: Duration,
}

/// One HTTP GET through the card from the client namespace: (X-Backend header, body).
fn get(t: &Topology, host: &str, path: &str, tally: &mut Tally) -> (String, Vec<u8>) {
    let url = format!("http://{VIP}{path}");
    let hdr = format!("Host: {host}");
    let t0 = Instant::now();
    let out = t
        .exec(
            &t.client_ns,
            &[
                "curl",
                "-sS",
                "--max-time",
                CURL_TIMEOUT,
                "-H",
                &hdr,
                "-D",
                "/dev/stderr",
                "--fail",
                &url,
            ],
            EXEC_TIMEOUT,
        )
        .expect("running curl");
    let dt = t0.elapsed();
    tally.connections += 1;
    tally.wall += dt;
    assert!(
        out.ok,
        "GET {url} (Host {host}) failed after {dt:.1?}: {}",
        out.stderr
    );
    tally.bytes += out.stdout.len();
    let backend = out
        .stderr
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("x-backend")
                .then(|| v.trim().to_string())
        })
        .unwrap_or_default();
    eprintln!(
        "  GET {host}{path}: {} bytes from {backend:?} in {dt:.1?}",
        out.stdout.len()
    );
    (backend, out.stdout)
}

fn report(name: &str, t: &Topology, tally: &Tally) {
    let errs = t.peer_errors();
    eprintln!(
        "{name}: {} connections, {} bytes moved and verified, {:.1?} wall ({:.3} req/s), peer errors: {}",
        tally.connections,
        tally.bytes,
        tally.wall,
        tally.connections as f64 / tally.wall.as_secs_f64().max(1e-9),
        if errs.is_empty() {
            "none".to_string()
        } else {
            errs.join("; ")
        }
    );
    assert!(errs.is_empty(), "{name}: errors on the peers: {errs:?}");
}

fn url_and_host_routing(t: &Topology) {
    let mut tally = Tally::default();
    // Default pool web: /id answers web1 or web2 with its own name.
    let (b, body) = get(t, "www.example.com", "/id", &mut tally);
    assert!(
        b == "web1" || b == "web2",
        "default pool answered from {b:?}"
    );
    assert_eq!(String::from_utf8_lossy(&body).trim(), b);
    // Host api.example.com -> pool api.
    let (b, body) = get(t, "api.example.com", "/api/x", &mut tally);
    assert_eq!(b, "api1");
    assert_eq!(String::from_utf8_lossy(&body), "api api1\n");
    let (b, _) = get(t, "api.example.com", "/id", &mut tally);
    assert_eq!(b, "api1");
    // /static/ -> pool static (the path rule comes first, whatever the Host).
    let (b, body) = get(t, "www.example.com", "/static/blob", &mut tally);
    assert_eq!(b, "static1");
    assert_eq!(body.len(), BLOB_LEN);
    assert!(body == t.blob, "static blob differs");
    report("URL/Host routing", t, &tally);
}

fn rr_distribution(t: &Topology) {
    let mut tally = Tally::default();
    let seen: Vec<String> = (0..10)
        .map(|_| {
            let (b, body) = get(t, "www.example.com", "/id", &mut tally);
            assert_eq!(String::from_utf8_lossy(&body).trim(), b);
            b
        })
        .collect();
    eprintln!("rr order: {seen:?}");
    for w in seen.windows(2) {
        assert_ne!(w[0], w[1], "rr did not alternate: {seen:?}");
    }
    assert!(seen.iter().all(|b| b == "web1" || b == "web2"), "{seen:?}");
    report("rr distribution", t, &tally);
}

fn mib_download(t: &Topology) {
    let mut tally = Tally::default();
    let (b, body) = get(t, "www.example.com", "/static/blob", &mut tally);
    assert_eq!(b, "static1");
    let got = Sha256::digest(&body);
    let want = Sha256::digest(&t.blob);
    eprintln!(
        "1 MiB download: {} bytes in {:.1?} = {:.4} MB/s, sha256 {}",
        body.len(),
        tally.wall,
        body.len() as f64 / 1e6 / tally.wall.as_secs_f64(),
        if got == want { "matches" } else { "DIFFERS" }
    );
    assert_eq!(got, want, "sha256 of the download differs from the file's");
    let mut nss = vec![t.client_ns.clone()];
    nss.extend(t.backends.iter().map(|b| b.ns.clone()));
    for ns in &nss {
        let csum = t.nstat(ns, "TcpInCsumErrors").expect("nstat");
        let retrans = t.nstat(ns, "TcpRetransSegs").unwrap_or(0);
        eprintln!("  {ns}: TcpInCsumErrors {csum}, TcpRetransSegs {retrans}");
        assert_eq!(csum, 0, "{ns}: TCP checksum errors");
    }
    report("1 MiB download", t, &tally);
}

#[test]
fn real_peers_through_the_card() {
    if !is_root() {
        eprintln!("note: not root, skipping the real-peer test (TAP devices, namespaces)");
        return;
    }
    if std::process::Command::new("nginx")
        .arg("-v")
        .output()
        .is_err()
    {
        eprintln!("note: nginx not installed (cargo xtask setup), skipping the real-peer test");
        return;
    }
    let t0 = Instant::now();
    let mut t = Topology::build(&Opts::three_pools()).expect("building the topology");
    eprintln!(
        "topology {} ready in {:.1?} (client {}, LAN {}, backends {:?})",
        t.id,
        t.setup_time,
        t.client_ns,
        t.lan_ns,
        t.backends
            .iter()
            .map(|b| format!("{} {} {}", b.name, b.ip, b.ns))
            .collect::<Vec<_>>()
    );
    url_and_host_routing(&t);
    rr_distribution(&t);
    mib_download(&t);
    // The card's side: every connection was spliced, none failed.
    let stats = t
        .card
        .as_mut()
        .expect("card")
        .flow_stats()
        .expect("FLOW_STATS");
    eprintln!(
        "card: {} SYN-ACKs to clients, {} connections spliced, {} setups failed, {} server SYN retries, {} flows closed",
        stats.syn_acks_sent, stats.spliced_total, stats.setup_failed, stats.server_retries, stats.closed
    );
    assert_eq!(stats.spliced_total, 15, "connections spliced by the card");
    assert_eq!(
        stats.setup_failed, 0,
        "connection setups failed on the card"
    );
    drop(t);
    eprintln!("whole test: {:.1?}", t0.elapsed());
}
