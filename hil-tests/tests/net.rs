//! The test network itself: HTTP between two hosts of the client segment. The card is
//! present, runs the clock and receives every frame, but plays no part in the exchange (no
//! firmware is loaded).

use anyhow::Result;
use sha2::{Digest, Sha256};
use splicenic_hil::net::{
    body_for, get_request, post_request, sha256_hex, Direction, HostId, Net, Segment, ServerId,
};
use splicenic_hil::open_shared;
use splicenic_sim::SimConfig;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::path::PathBuf;
use std::time::Instant;

const SERVER_IP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
const CLIENT_IP: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 3);
const SERVER: SocketAddrV4 = SocketAddrV4::new(SERVER_IP, 80);
/// Card-cycle budget of one exchange (0.32 s of card time).
const BUDGET: u64 = 50_000_000;

/// A network with an HTTP server ("alpha", `backlog` sockets) and a client host, both on
/// the client segment, capturing frames.
fn setup(backlog: usize) -> (Net, HostId, ServerId) {
    let (_card, sim) = open_shared(SimConfig::default()).expect("simulated card");
    let mut net = Net::new(sim);
    net.capture(true);
    let srv = net.add_host(Segment::Client, [0x02, 0, 0, 0, 0, 0x02], SERVER_IP, 24);
    let cli = net.add_host(Segment::Client, [0x02, 0, 0, 0, 0, 0x03], CLIENT_IP, 24);
    let server = net.serve_http(srv, 80, "alpha", backlog).expect("server");
    (net, cli, server)
}

fn pcap_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("net-{name}.pcap"))
}

/// Run `f`; on failure leave the capture next to the test binaries and name it.
fn with_pcap<T>(net: &mut Net, name: &str, f: impl FnOnce(&mut Net) -> Result<T>) -> T {
    let started = Instant::now();
    let cycles = net.cycles();
    let res = f(net);
    let res = net.keep_pcap_on_error(res, pcap_path(name));
    eprintln!(
        "{name}: {:.2} s wall, {} card cycles",
        started.elapsed().as_secs_f64(),
        net.cycles() - cycles
    );
    res.unwrap_or_else(|e| panic!("{e:#}"))
}

#[test]
fn get_one_mib_byte_exact() {
    let (mut net, cli, server) = setup(2);
    let path = "/data/1048576";
    let resp = with_pcap(&mut net, "get", |net| {
        net.http_get(cli, SERVER, path, BUDGET)
    });
    assert_eq!(resp.status, 200);
    assert_eq!(resp.server(), Some("alpha"));
    assert_eq!(resp.header("content-length"), Some("1048576"));
    assert_eq!(resp.body.len(), 1 << 20);
    assert_eq!(
        Sha256::digest(&resp.body),
        Sha256::digest(body_for(path, 1 << 20))
    );
    assert_eq!(net.server(server).connections(), 1);
    assert_eq!(net.server(server).requests(), 1);
    // Every host frame also went into the card port; the client segment saw the transfer.
    let stats = net.stats(Segment::Client);
    assert!(stats.to_card > 700, "{stats:?}");
    assert!(stats.host_to_host >= stats.to_card - 4, "{stats:?}");
}

#[test]
fn post_300k_answers_its_sha256() {
    let (mut net, cli, server) = setup(2);
    let body = body_for("/upload", 300_000);
    let resp = with_pcap(&mut net, "post", |net| {
        net.http_post(cli, SERVER, "/upload", &body, BUDGET)
    });
    assert_eq!(resp.status, 200);
    assert_eq!(resp.server(), Some("alpha"));
    assert_eq!(String::from_utf8(resp.body).unwrap(), sha256_hex(&body));
    let log = net.server(server).log();
    assert_eq!(log.len(), 1);
    assert_eq!((log[0].method.as_str(), log[0].body_len), ("POST", 300_000));
}

#[test]
fn keep_alive_serves_two_requests_on_one_connection() {
    let (mut net, cli, server) = setup(2);
    let id = net.open_fetch(cli, SERVER).unwrap();
    with_pcap(&mut net, "keepalive", |net| {
        // First request split in three writes with steps in between.
        let first = get_request("10.0.0.2", "/data/3000", false);
        for part in [&first[..5], &first[5..20], &first[20..]] {
            net.fetch_send(id, part);
            for _ in 0..3 {
                net.step()?;
            }
        }
        net.wait_responses(id, 1, BUDGET)?;
        net.fetch_send(id, &post_request("10.0.0.2", "/p", b"hello", true));
        net.wait_responses(id, 2, BUDGET)?;
        net.run_until("the connection to close", BUDGET, |n| {
            n.fetch(id).is_closed()
        })
    });
    let f = net.fetch(id);
    assert_eq!(f.error(), None);
    assert!(!f.was_reset());
    let r = f.responses();
    assert_eq!(r[0].body, body_for("/data/3000", 3000));
    assert_eq!(r[1].body, sha256_hex(b"hello").into_bytes());
    assert_eq!(r[0].header("x-conn"), r[1].header("x-conn"));
    assert_eq!(
        (r[0].header("x-request"), r[1].header("x-request")),
        (Some("1"), Some("2"))
    );
    let s = net.server(server);
    assert_eq!((s.connections(), s.requests()), (1, 2));
    // The server's socket listens again once the connection is over.
    with_pcap(&mut net, "keepalive-rearm", |net| {
        net.run_until("the server to listen again", BUDGET, |n| {
            n.server(server).active_connections() == 0
        })
    });
}

#[test]
fn four_concurrent_fetches_then_sequential_reuse() {
    let (mut net, cli, server) = setup(4);
    let paths: Vec<String> = (0..4)
        .map(|i| format!("/data/{}", 100_000 + 37_001 * i))
        .collect();
    let ids: Vec<_> = paths
        .iter()
        .map(|p| net.get(cli, SERVER, p).unwrap())
        .collect();
    with_pcap(&mut net, "concurrent", |net| {
        net.run_until("4 responses", BUDGET, |n| {
            ids.iter().all(|&id| n.fetch(id).response().is_some())
        })
    });
    let mut conns = Vec::new();
    for (p, &id) in paths.iter().zip(&ids) {
        let r = net.fetch(id).response().unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.body, body_for(p, r.body.len()));
        assert_eq!(r.body.len(), p[6..].parse::<usize>().unwrap());
        conns.push(r.header("x-conn").unwrap().to_string());
    }
    conns.sort();
    conns.dedup();
    assert_eq!(conns.len(), 4, "four distinct server connections");
    assert_eq!(net.server(server).max_concurrent(), 4);
    // More connections than listening sockets, one after another.
    for i in 0..6 {
        let path = format!("/seq/{i}");
        let r = with_pcap(&mut net, "sequential", |net| {
            net.http_get(cli, SERVER, &path, BUDGET)
        });
        assert_eq!(r.body, body_for(&path, 1024));
    }
    assert_eq!(net.server(server).connections(), 10);
    assert_eq!(net.server(server).requests(), 10);
}

#[test]
fn runs_are_deterministic_and_pcap_is_well_formed() {
    let run = || {
        let (mut net, cli, _) = setup(1);
        let r = net.http_get(cli, SERVER, "/data/20000", BUDGET).unwrap();
        assert_eq!(r.body, body_for("/data/20000", 20_000));
        net
    };
    let (a, b) = (run(), run());
    assert!(!a.captured().is_empty());
    let key = |n: &Net| -> Vec<(u64, Vec<u8>)> {
        let start = n.captured()[0].cycle;
        n.captured()
            .iter()
            .map(|c| (c.cycle - start, c.bytes.clone()))
            .collect()
    };
    assert_eq!(
        key(&a),
        key(&b),
        "two identical runs moved identical frames"
    );
    assert!(a
        .captured()
        .iter()
        .all(|c| c.direction != Direction::Injected));

    let files = a.write_pcap(pcap_path("determinism")).unwrap();
    assert_eq!(files.len(), 2);
    let pcap = std::fs::read(&files[0]).unwrap();
    assert!(files[0].to_string_lossy().ends_with("-client.pcap"));
    assert_eq!(&pcap[..4], &0xa1b2_3c4du32.to_le_bytes());
    assert_eq!(u32::from_le_bytes(pcap[20..24].try_into().unwrap()), 1);
    let (mut off, mut records) = (24, 0);
    while off < pcap.len() {
        let incl = u32::from_le_bytes(pcap[off + 8..off + 12].try_into().unwrap()) as usize;
        off += 16 + incl;
        records += 1;
    }
    assert_eq!(off, pcap.len());
    let client_frames = a
        .captured()
        .iter()
        .filter(|c| c.segment == Segment::Client)
        .count();
    assert_eq!(records, client_frames);
    let server_pcap = std::fs::read(&files[1]).unwrap();
    assert_eq!(
        server_pcap.len(),
        24 + a
            .captured()
            .iter()
            .filter(|c| c.segment == Segment::Server)
            .map(|c| 16 + c.bytes.len())
            .sum::<usize>()
    );
}

#[test]
fn waiting_for_a_silent_address_times_out_with_a_description() {
    let (mut net, cli, _) = setup(1);
    // Nobody owns 10.0.0.9: the ARP request goes unanswered.
    let id = net
        .get(cli, SocketAddrV4::new(Ipv4Addr::new(10, 0, 0, 9), 80), "/")
        .unwrap();
    let err = net
        .wait_responses(id, 1, 50_000)
        .expect_err("nobody answers");
    let msg = format!("{err:#}");
    assert!(
        msg.contains("timed out waiting for 1 response(s) on fetch #0"),
        "{msg}"
    );
    assert!(msg.contains("card cycles"), "{msg}");
    assert!(msg.contains("SYN-SENT") || msg.contains("SynSent"), "{msg}");

    // A static ARP entry makes the address reachable at layer 2 (nobody listens, though:
    // the frames go to the card only). A fresh host: smoltcp holds back further ARP
    // requests of the first one for a second.
    net.add_static_arp(
        Segment::Client,
        Ipv4Addr::new(10, 0, 0, 9),
        [0x02, 0, 0, 0, 0, 9],
    );
    let other = net.add_host(
        Segment::Client,
        [0x02, 0, 0, 0, 0, 0x04],
        Ipv4Addr::new(10, 0, 0, 4),
        24,
    );
    let id = net
        .get(
            other,
            SocketAddrV4::new(Ipv4Addr::new(10, 0, 0, 9), 80),
            "/",
        )
        .unwrap();
    let err = net.wait_responses(id, 1, 50_000).unwrap_err();
    assert!(format!("{err:#}").contains("timed out"), "{err:#}");
    assert_eq!(net.stats(Segment::Client).injected, 1);
    // The SYN went out (to the card) once the static answer came back.
    let syns = net
        .captured()
        .iter()
        .filter(|c| c.bytes.len() >= 54 && c.bytes[..6] == [0x02, 0, 0, 0, 0, 9])
        .filter(|c| c.bytes[23] == 6 && c.bytes[47] & 0x12 == 0x02)
        .count();
    assert!(syns >= 1, "{err:#}");
}
