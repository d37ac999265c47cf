//! Connections spliced end to end on the simulated card: the real firmware's flow manager on
//! the real data path, with smoltcp TCP stacks as the client and the real servers.
//! The rig is `splicenic_hil::splice_rig` (topology and rules there).

use anyhow::{Context, Result};
use splicenic_driver::{
    regs, Card, FirmwareImage, FlowStats, Health, RealServer, SetupTimers, TcpTimeoutState,
    Watchdog,
};
use splicenic_fw_logic::mailbox::cmd;
use splicenic_hil::net::{
    body_for, first_isn, get_request, post_request, seed_for_isn, sha256_hex, Direction, FetchId,
    Net, Segment, MIN_FRAME,
};
use splicenic_hil::splice_rig::{
    configure, rig, rig_with, syn_responder_off, Opts, Rig, BUDGET, CARD_MAC_C, CARD_MAC_S,
    CLIENT_IP, LOCAL_IP, SERVERS, SERVICE,
};
use splicenic_hil::{firmware_bytes, hw_syn_acks, SIM_BOOT_TIMEOUT};
use std::net::{Ipv4Addr, SocketAddrV4};
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

fn pcap_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("splice-{name}.pcap"))
}

/// Runs `f`; on failure leaves both ports' capture and names it in the panic.
fn with_pcap<T>(rig: &mut Rig, name: &str, f: impl FnOnce(&mut Rig) -> Result<T>) -> T {
    let started = Instant::now();
    let cycles = rig.net.cycles();
    let res = f(rig);
    let res = rig.net.keep_pcap_on_error(res, pcap_path(name));
    eprintln!(
        "{name}: {:.2} s wall, {} card cycles",
        started.elapsed().as_secs_f64(),
        rig.net.cycles() - cycles
    );
    res.unwrap_or_else(|e| panic!("{e:#}"))
}

fn stats(card: &mut Card) -> FlowStats {
    card.flow_manager().flow_stats().expect("FLOW_STATS")
}

/// FLOW_STATS once no connection is in setup, the card run on meanwhile: when the card
/// absorbed the server's SYN-ACK, the connection may be spliced, served and closed before
/// the firmware has read the SYN-ACK's punt and done the setup's bookkeeping
/// (docs/server-open.md, "The absorber in the data path").
fn settled_stats(rig: &mut Rig) -> FlowStats {
    for _ in 0..100 {
        let s = stats(&mut rig.card);
        if s.pending_in_use == 0 {
            return s;
        }
        rig.net.run_for(20_000).expect("the card runs");
    }
    panic!(
        "setups still pending after 2M card cycles: {:?}",
        stats(&mut rig.card)
    );
}

#[test]
fn url_and_host_route_to_pools_and_transfers_are_byte_exact() {
    let mut rig = rig().expect("rig");
    with_pcap(&mut rig, "routing", |rig| {
        let c = rig.client;
        // Default pool: alpha.
        let path = "/data/20000";
        let r = rig
            .net
            .http_get(c, SERVICE, path, BUDGET)
            .context("GET /data")?;
        anyhow::ensure!(r.status == 200, "status {}", r.status);
        anyhow::ensure!(r.server() == Some("alpha"), "served by {:?}", r.server());
        anyhow::ensure!(r.body == body_for(path, 20000), "body differs");
        // Path prefix rule: beta.
        let path = "/static/data/30000";
        let r = rig
            .net
            .http_get(c, SERVICE, path, BUDGET)
            .context("GET /static")?;
        anyhow::ensure!(r.server() == Some("beta"), "served by {:?}", r.server());
        anyhow::ensure!(r.body == body_for(path, 30000), "body differs");
        // Upload through the splice: the server hashes what it received.
        let body = body_for("/upload", 50_000);
        let r = rig
            .net
            .http_post(c, SERVICE, "/upload", &body, BUDGET)
            .context("POST")?;
        anyhow::ensure!(r.server() == Some("alpha"), "served by {:?}", r.server());
        let got = String::from_utf8_lossy(&r.body).trim().to_string();
        anyhow::ensure!(got == sha256_hex(&body), "server hashed {got}");
        // Half-close from the client: request, then FIN at once; the server's whole answer
        // still arrives through the splice (and the server's FIN after it).
        let path = "/data/100000";
        let id = rig.net.open_fetch(c, SERVICE)?;
        rig.net
            .fetch_send(id, &get_request("www.example.com", path, true));
        rig.net.fetch_close(id);
        rig.net.wait_responses(id, 1, BUDGET)?;
        let r = &rig.net.fetch(id).responses()[0];
        anyhow::ensure!(
            r.body == body_for(path, 100_000),
            "half-closed GET body differs"
        );
        rig.net
            .run_until("both sides closed", BUDGET, |n| n.fetch(id).is_closed())?;
        Ok(())
    });
    let s = stats(&mut rig.card);
    eprintln!("{s:?}");
    assert_eq!(s.spliced_total, 4);
    assert_eq!(s.setup_failed, 0);
    assert_eq!(s.refused_table_full, 0);
    // Every connection was set up by the ACK validator (docs/engine.md): the cookie checked,
    // the slot taken and the key inserted in hardware, handed over to the firmware.
    let av = rig.card.datapath().unwrap().ack_validator().unwrap();
    let tcp = rig.card.flow_manager().tcp_stats().unwrap();
    assert!(av.enabled);
    assert_eq!((av.new, tcp.engine_new), (4, 4), "{av:?}");
    assert_eq!((av.bad_cookie, av.no_slot, av.lost), (0, 0, 0), "{av:?}");
    assert_eq!((tcp.engine_lost, tcp.engine_stale), (0, 0));
    // No slot was used twice while a record of its first use waited: no generation
    // mismatch (a mismatch here would mean a slot whose entry lost its generation).
    assert_eq!(tcp.gen_stale, 0, "{tcp:?}");
    // Every head was copied into one of the card's head buffers and replayed from it by the
    // card (docs/head-buf.md, "In the data path"): none built and injected by the firmware,
    // every buffer back.
    let hb = rig.card.datapath().unwrap().head_bufs().unwrap();
    eprintln!("{hb:?}");
    assert!(hb.present);
    assert_eq!(
        (tcp.head_replays, tcp.head_replays_fw, hb.sent),
        (4, 0, 4),
        "{tcp:?}"
    );
    assert_eq!((hb.long, hb.bad, hb.in_use), (0, 0, 1), "{hb:?}");
    // The servers' SYN-ACKs (a Linux server's options) were absorbed by the card: the entry
    // written, the handshake ACK and the head sent without the firmware (docs/server-open.md,
    // "The absorber in the data path"). The half-closed connection's only when its FIN came
    // after its SYN-ACK: a setup with the client's FIN is not armed, and one whose FIN comes
    // while the server is connected is taken back (the firmware replays the FIN with the
    // head).
    let ab = rig.card.datapath().unwrap().absorber().unwrap();
    eprintln!("{ab:?}");
    assert!(ab.present && ab.enabled, "{ab:?}");
    assert_eq!((ab.done, ab.punted), (tcp.absorbed, 0), "{ab:?} {tcp:?}");
    assert!(
        ab.done >= 3 && ab.done + tcp.absorb_disarmed <= 4,
        "{ab:?} {tcp:?}"
    );
    // Each request reached the inline L7 matcher, on or right behind its handshake ACK
    // (NEW, FOUND or a hit on the HANDSHAKE entry), so the firmware copied none into
    // L7.CMD unless a request came apart (the half-closed one's FIN may follow it in a
    // segment of its own, decided before the key's insert: then the buffer is matched).
    let bar = rig.card.bar_mut();
    let inline = bar.read32(regs::l7::REQUESTS).unwrap();
    let commands = bar.read32(regs::l7::COMMANDS).unwrap();
    eprintln!("L7: {inline} segments matched inline, {commands} buffer matches");
    assert!(
        inline >= 3 && inline + commands >= 4,
        "{inline} segments matched inline, {commands} buffer matches"
    );
    if let Some(c) = s.setup_cycles_per_connection() {
        eprintln!("setup: {c:.0} soft-core cycles per connection");
    }
}

/// Sequence number of the first SYN (`ack == false`) or SYN-ACK (`ack == true`) sent by
/// `src` in the capture.
fn first_syn_seq(net: &Net, segment: Segment, src: Ipv4Addr, ack: bool) -> Option<u32> {
    net.captured()
        .iter()
        .filter(|c| c.segment == segment && c.direction == Direction::ToCard)
        .find_map(|c| {
            let f = &c.bytes;
            if f.len() < 54 || f[12..14] != [0x08, 0x00] || f[23] != 6 || f[26..30] != src.octets()
            {
                return None;
            }
            let t = 14 + usize::from(f[14] & 0x0f) * 4;
            let flags = f[t + 13];
            (flags & 0x02 != 0 && (flags & 0x10 != 0) == ack)
                .then(|| u32::from_be_bytes([f[t + 4], f[t + 5], f[t + 6], f[t + 7]]))
        })
}

#[test]
fn request_and_data_cross_sequence_number_2_32_on_both_halves() {
    // The client's ISN 3000 below 2^32: its 20 000-byte upload wraps on the client half and
    // (the server connection reuses the client's ISN) on the server half. Alpha's ISN 5000
    // below 2^32: its 20 000-byte answer wraps too.
    let client_seed = seed_for_isn(u32::MAX - 3000..u32::MAX - 2000, 1);
    let alpha_seed = seed_for_isn(u32::MAX - 5000..u32::MAX - 4000, 1);
    let mut rig = rig_with(Opts {
        client_seed: Some(client_seed),
        alpha_seed: Some(alpha_seed),
        ..Opts::default()
    })
    .expect("rig");
    with_pcap(&mut rig, "wrap", |rig| {
        let c = rig.client;
        let id = rig.net.open_fetch(c, SERVICE)?;
        let body = body_for("/upload", 20_000);
        rig.net.fetch_send(
            id,
            &post_request("www.example.com", "/upload", &body, false),
        );
        rig.net.wait_responses(id, 1, BUDGET)?;
        let path = "/data/20000";
        rig.net
            .fetch_send(id, &get_request("www.example.com", path, true));
        rig.net.wait_responses(id, 2, BUDGET)?;
        let f = rig.net.fetch(id);
        let (post, get) = (&f.responses()[0], &f.responses()[1]);
        anyhow::ensure!(post.server() == Some("alpha") && get.server() == Some("alpha"));
        let got = String::from_utf8_lossy(&post.body).trim().to_string();
        anyhow::ensure!(got == sha256_hex(&body), "server hashed {got}");
        anyhow::ensure!(get.body == body_for(path, 20000), "GET body differs");
        Ok(())
    });
    // The wrap really happened: the SYNs carried the chosen ISNs.
    let syn = first_syn_seq(&rig.net, Segment::Client, CLIENT_IP, false).expect("client SYN");
    assert_eq!(syn, first_isn(client_seed));
    let synack = first_syn_seq(&rig.net, Segment::Server, SERVERS[0].1, true).expect("SYN-ACK");
    assert_eq!(synack, first_isn(alpha_seed));
    assert!(syn > u32::MAX - 3001 && synack > u32::MAX - 5001);
}

#[test]
fn split_request_resets_both_ways_and_aging() {
    let mut rig = rig().expect("rig");
    // Short timeouts so the aging scan frees the flows within the test.
    for st in [
        TcpTimeoutState::Established,
        TcpTimeoutState::FinWait,
        TcpTimeoutState::TimeWait,
        TcpTimeoutState::Close,
        TcpTimeoutState::Linger,
    ] {
        rig.card
            .flow_manager()
            .timeout_set_ms(st, 5)
            .expect("TIMEOUT_SET");
    }
    with_pcap(&mut rig, "split-reset-aging", |rig| {
        let c = rig.client;
        // A request head split over three segments: the inline match says incomplete, the
        // firmware assembles it and matches the buffer.
        let id = rig.net.open_fetch(c, SERVICE)?;
        rig.net
            .run_until("handshake", BUDGET, |n| n.fetch(id).established())?;
        let req = get_request("a.img.example", "/x/data/5000", true);
        for part in [&req[..10], &req[10..30], &req[30..]] {
            rig.net.fetch_send(id, part);
            rig.net.run_for(200_000)?;
        }
        rig.net.wait_responses(id, 1, BUDGET)?;
        let r = &rig.net.fetch(id).responses()[0];
        // Host rule *.img.example -> pool 2 (beta).
        anyhow::ensure!(r.server() == Some("beta"), "served by {:?}", r.server());
        anyhow::ensure!(r.body == body_for("/x/data/5000", 5000), "body differs");
        // The client resets a spliced connection: the server sees the RST.
        let id = rig.net.open_fetch(c, SERVICE)?;
        rig.net
            .fetch_send(id, &get_request("www.example.com", "/data/100", false));
        rig.net.wait_responses(id, 1, BUDGET)?;
        let alpha = rig.servers[0];
        let before = rig.net.server(alpha).active_connections();
        rig.net.fetch_abort(id);
        rig.net.run_until("alpha sees the RST", BUDGET, |n| {
            n.server(alpha).active_connections() < before
        })?;
        // The server resets a spliced connection: the client sees the RST.
        let id = rig.net.open_fetch(c, SERVICE)?;
        rig.net
            .fetch_send(id, &get_request("www.example.com", "/data/100", false));
        rig.net.wait_responses(id, 1, BUDGET)?;
        rig.net.server_abort_all(alpha);
        rig.net.run_until("the client sees the RST", BUDGET, |n| {
            n.fetch(id).was_reset()
        })?;
        Ok(())
    });
    let s = stats(&mut rig.card);
    assert_eq!(s.spliced_total, 3);
    assert!(s.closed >= 3, "{s:?}");
    // Every flow ages out with the short timeouts.
    with_pcap(&mut rig, "aging", |rig| {
        let card = &mut rig.card;
        let mut left = u32::MAX;
        for _ in 0..40 {
            rig.net.run_for(250_000)?;
            left = card.flow_manager().flow_stats()?.slots_in_use;
            if left == 0 {
                break;
            }
        }
        anyhow::ensure!(left == 0, "{left} flows still in use");
        Ok(())
    });
    let s = stats(&mut rig.card);
    let t = rig.card.flow_manager().tcp_stats().expect("TCP_STATS");
    // The FIN-closed flow aged out; each RST'ed one was RST-pending, and its receiver had
    // reset (it answered the card's probe with a RST, or nothing).
    assert_eq!(s.aged_out, 1, "{s:?}");
    assert_eq!(
        (t.rst_pending, t.probes, t.rst_restored),
        (2, 2, 0),
        "{t:?}"
    );
    assert_eq!(t.rst_freed_receiver + t.rst_freed_silent, 2, "{t:?}");
    // Nothing is left in the data path's flow table either.
    assert_eq!(rig.card.datapath().unwrap().flow_entries().unwrap(), 0);
}

#[test]
fn quiesced_server_and_full_table() {
    let mut rig = rig_with(Opts {
        one_pool: true,
        ..Opts::default()
    })
    .expect("rig");
    with_pcap(&mut rig, "quiesce-full", |rig| {
        let c = rig.client;
        // A keep-alive connection; rr sends it to alpha (the first server).
        let keep = rig.net.open_fetch(c, SERVICE)?;
        rig.net
            .fetch_send(keep, &get_request("www.example.com", "/data/100", false));
        rig.net.wait_responses(keep, 1, BUDGET)?;
        let first = rig.net.fetch(keep).responses()[0]
            .server()
            .map(str::to_string);
        anyhow::ensure!(first.as_deref() == Some("alpha"), "first went to {first:?}");
        // Quiesce alpha: weight 0.
        let (_, ip, mac) = SERVERS[0];
        rig.card.flow_manager().server_set(&RealServer {
            pool: 1,
            rs: 0,
            addr: ip,
            port: 8080,
            mac,
            weight: 0,
            upper_threshold: 0,
            lower_threshold: 0,
        })?;
        // New connections all go to beta...
        for _ in 0..3 {
            let r = rig.net.http_get(c, SERVICE, "/data/100", BUDGET)?;
            anyhow::ensure!(r.server() == Some("beta"), "served by {:?}", r.server());
        }
        // ...while the established one still reaches alpha.
        rig.net
            .fetch_send(keep, &get_request("www.example.com", "/data/200", false));
        rig.net.wait_responses(keep, 2, BUDGET)?;
        let again = rig.net.fetch(keep).responses()[1]
            .server()
            .map(str::to_string);
        anyhow::ensure!(
            again.as_deref() == Some("alpha"),
            "second went to {again:?}"
        );
        // Table full: allow as many flows as are in use now; the next SYN is refused.
        let in_use = rig.card.flow_manager().flow_stats()?.slots_in_use;
        rig.card.flow_manager().setup_timers_set(&SetupTimers {
            flow_limit: in_use,
            ..SetupTimers::default()
        })?;
        let id = rig.net.open_fetch(c, SERVICE)?;
        rig.net
            .fetch_send(id, &get_request("www.example.com", "/data/100", true));
        rig.net
            .run_until("the refused client sees a RST", BUDGET, |n| {
                n.fetch(id).was_reset()
            })?;
        Ok(())
    });
    let s = stats(&mut rig.card);
    // The card's SYN responder answered the refused client's SYN (no state before the
    // ACK); the firmware refuses each of its cookie ACKs that finds the table full: the
    // handshake ACK, and the request too when the client sent it before the RST arrived.
    assert!((1..=2).contains(&s.refused_table_full), "{s:?}");
    assert_eq!(s.syn_acks_sent, 0, "{s:?}");
    assert_eq!(hw_syn_acks(&mut rig.card).unwrap(), 5);
    let alpha = rig.card.flow_manager().server_stats(0).unwrap();
    assert_eq!(alpha.weight, 0);
    assert_eq!(
        alpha.connections, 1,
        "alpha got no new connection after quiescing"
    );
}

#[test]
fn hung_firmware_is_restarted_while_spliced_flows_keep_flowing() {
    let mut rig = rig().expect("rig");
    let image = FirmwareImage::parse(&firmware_bytes().unwrap()).unwrap();
    let path = "/data/4000000";
    let keep = with_pcap(&mut rig, "watchdog", |rig| {
        let c = rig.client;
        let keep = rig.net.open_fetch(c, SERVICE)?;
        rig.net
            .fetch_send(keep, &get_request("www.example.com", "/data/100", false));
        rig.net.wait_responses(keep, 1, BUDGET)?;
        // A long transfer on the spliced connection, then the firmware hangs.
        rig.net
            .fetch_send(keep, &get_request("www.example.com", path, false));
        rig.net.run_for(20_000)?;
        let hang = rig
            .card
            .mailbox()
            .call(cmd::DEBUG_HANG, &[], Duration::from_millis(1));
        anyhow::ensure!(hang.is_err(), "a hung firmware answered: {hang:?}");
        let mut wd = Watchdog::new(&rig.card, Duration::from_millis(2));
        let received = rig.net.fetch(keep).bytes_received();
        loop {
            rig.net.run_for(50_000)?;
            match wd.check(&mut rig.card)? {
                Health::Alive => {}
                Health::Hung { .. } => break,
                other => anyhow::bail!("watchdog: {other:?}"),
            }
        }
        // The data path forwarded while the firmware was hung.
        anyhow::ensure!(
            rig.net.fetch(keep).bytes_received() > received,
            "no bytes moved during the hang ({received} before it)"
        );
        rig.card.firmware().restart(&image, SIM_BOOT_TIMEOUT)?;
        configure(&mut rig.card, false)?;
        rig.net.wait_responses(keep, 2, BUDGET)?;
        let r = &rig.net.fetch(keep).responses()[1];
        anyhow::ensure!(r.body == body_for(path, 4_000_000), "body differs");
        // A new connection after the restart.
        let r = rig.net.http_get(c, SERVICE, "/data/1000", BUDGET)?;
        anyhow::ensure!(r.server() == Some("alpha"), "served by {:?}", r.server());
        Ok(keep)
    });
    let _ = keep;
    let s = stats(&mut rig.card);
    // The restarted firmware took the spliced flow over (plus the new one).
    assert!(s.slots_in_use >= 1, "{s:?}");
    let alpha = rig.card.flow_manager().server_stats(0).unwrap();
    assert!(alpha.active + alpha.inactive >= 1, "{alpha:?}");
}

// ---- Scripted TCP endpoints: raw frames, every segment chosen by the test ----

const SYN: u8 = 0x02;
const RST: u8 = 0x04;
const PSH: u8 = 0x08;
const ACK: u8 = 0x10;
/// MSS 1460, the only option the scripted endpoints offer (no window scaling, SACK or
/// timestamps: every number on the wire is the test's own).
const MSS_OPT: [u8; 4] = [2, 4, 0x05, 0xb4];
/// Card cycles to let pass when asserting that the card sends nothing (1.3 ms of card time;
/// the firmware answers a punted segment within a few µs).
const QUIET: u64 = 200_000;

/// A TCP/IPv4 segment in an Ethernet frame.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tcp {
    src_mac: [u8; 6],
    dst_mac: [u8; 6],
    src: SocketAddrV4,
    dst: SocketAddrV4,
    seq: u32,
    ack: u32,
    flags: u8,
    window: u16,
    opts: Vec<u8>,
    payload: Vec<u8>,
}

impl Tcp {
    fn has(&self, f: u8) -> bool {
        self.flags & f == f
    }
}

fn csum_add(mut sum: u32, bytes: &[u8]) -> u32 {
    for c in bytes.chunks(2) {
        sum += u32::from(u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]));
    }
    sum
}

fn csum_fold(mut sum: u32) -> u16 {
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// The Ethernet frame of `t` with correct IPv4 and TCP checksums, padded to 60 bytes.
fn tcp_frame(t: &Tcp) -> Vec<u8> {
    let mut opts = t.opts.clone();
    opts.resize(opts.len().div_ceil(4) * 4, 0);
    let tcp_len = 20 + opts.len() + t.payload.len();
    let mut f = Vec::with_capacity(34 + tcp_len);
    f.extend_from_slice(&t.dst_mac);
    f.extend_from_slice(&t.src_mac);
    f.extend_from_slice(&[0x08, 0x00]);
    let total = ((20 + tcp_len) as u16).to_be_bytes();
    f.extend_from_slice(&[0x45, 0, total[0], total[1]]);
    f.extend_from_slice(&[0, 0, 0x40, 0, 64, 6, 0, 0]);
    f.extend_from_slice(&t.src.ip().octets());
    f.extend_from_slice(&t.dst.ip().octets());
    let ip_csum = csum_fold(csum_add(0, &f[14..34]));
    f[24..26].copy_from_slice(&ip_csum.to_be_bytes());
    f.extend_from_slice(&t.src.port().to_be_bytes());
    f.extend_from_slice(&t.dst.port().to_be_bytes());
    f.extend_from_slice(&t.seq.to_be_bytes());
    f.extend_from_slice(&t.ack.to_be_bytes());
    f.push(((20 + opts.len()) / 4) as u8 * 16);
    f.push(t.flags);
    f.extend_from_slice(&t.window.to_be_bytes());
    f.extend_from_slice(&[0, 0, 0, 0]);
    f.extend_from_slice(&opts);
    f.extend_from_slice(&t.payload);
    // Pseudo header: addresses, protocol, TCP length.
    let sum = csum_add(0, &f[26..34]) + 6 + tcp_len as u32;
    let tcp_csum = csum_fold(csum_add(sum, &f[34..]));
    f[50..52].copy_from_slice(&tcp_csum.to_be_bytes());
    f.resize(f.len().max(MIN_FRAME), 0);
    f
}

/// The TCP segment in an Ethernet frame (IPv4; checksums not checked).
fn parse_tcp(f: &[u8]) -> Option<Tcp> {
    if f.len() < 54 || f[12..14] != [0x08, 0x00] || f[14] >> 4 != 4 || f[23] != 6 {
        return None;
    }
    let ihl = usize::from(f[14] & 0x0f) * 4;
    let total = usize::from(u16::from_be_bytes([f[16], f[17]]));
    let ip = f.get(14..14 + total)?;
    let t = ip.get(ihl..)?;
    let doff = usize::from(t.get(12)? >> 4) * 4;
    if doff < 20 || t.len() < doff {
        return None;
    }
    let addr = |o: usize| Ipv4Addr::new(ip[o], ip[o + 1], ip[o + 2], ip[o + 3]);
    let be16 = |o: usize| u16::from_be_bytes([t[o], t[o + 1]]);
    let be32 = |o: usize| u32::from_be_bytes([t[o], t[o + 1], t[o + 2], t[o + 3]]);
    Some(Tcp {
        dst_mac: f[0..6].try_into().ok()?,
        src_mac: f[6..12].try_into().ok()?,
        src: SocketAddrV4::new(addr(12), be16(0)),
        dst: SocketAddrV4::new(addr(16), be16(2)),
        seq: be32(4),
        ack: be32(8),
        flags: t[13],
        window: be16(14),
        opts: t[20..doff].to_vec(),
        payload: t[doff..].to_vec(),
    })
}

/// Every TCP segment the card sent out of `segment`'s port in `net.captured()[from..]`.
fn from_card(net: &Net, segment: Segment, from: usize) -> Vec<Tcp> {
    net.captured()[from..]
        .iter()
        .filter(|c| c.segment == segment && c.direction == Direction::FromCard)
        .filter_map(|c| parse_tcp(&c.bytes))
        .collect()
}

/// The bytes the card sent to `to` on `segment` in `net.captured()[from..]`, in the order
/// of the segments, and how many segments carried them. Fails if the segments are not
/// contiguous (a gap, an overlap or a repeat).
fn stream_from_card(
    net: &Net,
    segment: Segment,
    to: SocketAddrV4,
    from: usize,
) -> Result<(Vec<u8>, usize)> {
    let mut bytes = Vec::new();
    let mut next = None;
    let mut n = 0;
    for t in from_card(net, segment, from)
        .into_iter()
        .filter(|t| t.dst == to && !t.payload.is_empty())
    {
        if let Some(next) = next {
            anyhow::ensure!(
                t.seq == next,
                "segment at seq {:#x} after {} bytes, expected {next:#x}",
                t.seq,
                bytes.len()
            );
        }
        next = Some(t.seq.wrapping_add(t.payload.len() as u32));
        bytes.extend_from_slice(&t.payload);
        n += 1;
    }
    Ok((bytes, n))
}

/// A TCP endpoint scripted frame by frame: it sends what the test says (straight into the
/// card's port: these frames are not in the capture, the test's output lists them) and
/// reads what the card sent to it from the capture.
struct RawPeer {
    segment: Segment,
    mac: [u8; 6],
    addr: SocketAddrV4,
    peer_mac: [u8; 6],
    peer: SocketAddrV4,
    /// Captured frames already looked at.
    seen: usize,
}

impl RawPeer {
    /// A client at `addr` (on the client segment) talking to the service; its MAC address
    /// ends in the last byte of `addr`.
    fn client(net: &Net, addr: SocketAddrV4) -> RawPeer {
        RawPeer {
            segment: Segment::Client,
            mac: [0x02, 0, 0, 0, 0, addr.ip().octets()[3]],
            addr,
            peer_mac: CARD_MAC_C,
            peer: SERVICE,
            seen: net.captured().len(),
        }
    }

    /// A real server at `addr` (on the server segment) with MAC `mac`; its peer (the card's
    /// local address and port) is set from the card's SYN.
    fn server(net: &Net, addr: SocketAddrV4, mac: [u8; 6]) -> RawPeer {
        RawPeer {
            segment: Segment::Server,
            mac,
            addr,
            peer_mac: CARD_MAC_S,
            peer: SocketAddrV4::new(LOCAL_IP, 0),
            seen: net.captured().len(),
        }
    }

    fn send(&self, net: &Net, seq: u32, ack: u32, flags: u8, opts: &[u8], payload: &[u8]) {
        let t = Tcp {
            src_mac: self.mac,
            dst_mac: self.peer_mac,
            src: self.addr,
            dst: self.peer,
            seq,
            ack,
            flags,
            window: 0xffff,
            opts: opts.to_vec(),
            payload: payload.to_vec(),
        };
        eprintln!(
            "  {} -> card at cycle {}: seq {seq:#x} ack {ack:#x} flags {flags:#04x}, {} bytes",
            self.addr,
            net.cycles(),
            payload.len()
        );
        net.sim()
            .lock()
            .push_frame(self.segment.port(), &tcp_frame(&t))
            .expect("push_frame");
    }

    /// The next segment the card sent to this endpoint, if one arrived.
    fn poll(&mut self, net: &Net) -> Option<Tcp> {
        let cap = net.captured();
        while self.seen < cap.len() {
            let c = &cap[self.seen];
            self.seen += 1;
            if c.segment != self.segment || c.direction != Direction::FromCard {
                continue;
            }
            if let Some(t) = parse_tcp(&c.bytes) {
                if t.dst_mac == self.mac && t.dst == self.addr {
                    return Some(t);
                }
            }
        }
        None
    }

    /// Steps until the card sends this endpoint a segment; fails after `cycles`.
    fn next_within(&mut self, net: &mut Net, what: &str, cycles: u64) -> Result<Tcp> {
        let start = net.cycles();
        loop {
            if let Some(t) = self.poll(net) {
                return Ok(t);
            }
            anyhow::ensure!(
                net.cycles() - start < cycles,
                "{}: no segment from the card for {what} within {cycles} cycles",
                self.addr
            );
            net.step()?;
        }
    }

    /// Steps until the card sends this endpoint a segment; fails after [`BUDGET`] cycles.
    fn next(&mut self, net: &mut Net, what: &str) -> Result<Tcp> {
        self.next_within(net, what, BUDGET)
    }

    /// Steps `cycles` and fails if the card sent this endpoint anything meanwhile.
    fn expect_nothing(&mut self, net: &mut Net, cycles: u64, when: &str) -> Result<()> {
        net.run_for(cycles)?;
        match self.poll(net) {
            Some(t) => anyhow::bail!("{}: {when}, the card sent {t:?}", self.addr),
            None => Ok(()),
        }
    }

    /// SYN with `isn`, the card's SYN-ACK checked; returns the card's ISN. The final ACK is
    /// the caller's.
    fn syn(&mut self, net: &mut Net, isn: u32) -> Result<u32> {
        self.send(net, isn, 0, SYN, &MSS_OPT, &[]);
        let sa = self.next(net, "the SYN-ACK")?;
        anyhow::ensure!(
            sa.flags == SYN | ACK && sa.ack == isn.wrapping_add(1) && sa.src == SERVICE,
            "answer to the SYN: {sa:?}"
        );
        Ok(sa.seq)
    }

    /// Reads an HTTP response that starts at `*rcv_nxt`, acknowledging every in-order
    /// segment (with sequence number `snd_nxt`); returns the response's head and body (by
    /// `Content-Length`).
    fn read_response(
        &mut self,
        net: &mut Net,
        snd_nxt: u32,
        rcv_nxt: &mut u32,
    ) -> Result<(String, Vec<u8>)> {
        let mut buf = Vec::new();
        loop {
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end]).to_string();
                let len: usize = head_header(&head, "content-length")
                    .and_then(|v| v.parse().ok())
                    .context("no Content-Length")?;
                if buf.len() >= end + 4 + len {
                    anyhow::ensure!(buf.len() == end + 4 + len, "bytes after the response");
                    return Ok((head, buf[end + 4..].to_vec()));
                }
            }
            let t = self.next(net, "the response")?;
            anyhow::ensure!(!t.has(RST), "reset while reading the response: {t:?}");
            if t.seq == *rcv_nxt && !t.payload.is_empty() {
                buf.extend_from_slice(&t.payload);
                *rcv_nxt = rcv_nxt.wrapping_add(t.payload.len() as u32);
                self.send(net, snd_nxt, *rcv_nxt, ACK, &[], &[]);
            }
        }
    }
}

/// Value of header `name` in a response head.
fn head_header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// The scripted client's address (no host of the rig uses it).
const RAW_CLIENT: SocketAddrV4 = SocketAddrV4::new(Ipv4Addr::new(10, 0, 0, 3), 50_000);
/// The scripted client's ISN.
const RAW_ISN: u32 = 0x1000_0000; // layout-lint: allow (an ISN, not the DMEM base)
/// "gamma", a scripted real server in pool 1 (see [`default_pool_to_gamma`]).
const GAMMA: SocketAddrV4 = SocketAddrV4::new(Ipv4Addr::new(192, 168, 1, 12), 8080);
const GAMMA_MAC: [u8; 6] = [0x02, 0, 0, 0, 1, 0x12];
const GAMMA_RS: u8 = 2;
/// Gamma's ISN.
const GAMMA_ISN: u32 = 0x7000_0000;

/// Pool 1 (the default pool) sends new connections to gamma: alpha's weight 0, gamma
/// weight 1.
fn default_pool_to_gamma(card: &mut Card) -> Result<()> {
    let (_, ip, mac) = SERVERS[0];
    for (rs, addr, mac, weight) in [(0, ip, mac, 0), (GAMMA_RS, *GAMMA.ip(), GAMMA_MAC, 1)] {
        card.flow_manager().server_set(&RealServer {
            pool: 1,
            rs,
            addr,
            port: GAMMA.port(),
            mac,
            weight,
            upper_threshold: 0,
            lower_threshold: 0,
        })?;
    }
    Ok(())
}

/// The SYNs the card sent on the server segment in `net.captured()[from..]`.
fn server_syns(net: &Net, from: usize) -> Vec<Tcp> {
    from_card(net, Segment::Server, from)
        .into_iter()
        .filter(|t| t.flags & (SYN | ACK) == SYN)
        .collect()
}

#[test]
fn lost_handshake_ack_first_request_segment_completes_the_handshake() {
    let mut rig = rig().expect("rig");
    let alpha = SocketAddrV4::new(SERVERS[0].1, 8080);
    with_pcap(&mut rig, "lost-ack", |rig| {
        let net = &mut rig.net;
        let mut c = RawPeer::client(net, RAW_CLIENT);
        let isn = RAW_ISN;
        let card_isn = c.syn(net, isn)?;
        let mark = net.captured().len();
        // The bare handshake ACK is lost: the request (which acknowledges the SYN-ACK too)
        // is the next segment the card sees.
        let path = "/data/3000";
        let req = get_request("www.example.com", path, true);
        let end = isn.wrapping_add(1 + req.len() as u32);
        let snd = card_isn.wrapping_add(1);
        c.send(net, isn.wrapping_add(1), snd, PSH | ACK, &[], &req);
        let a = c.next(net, "the request's ACK")?;
        anyhow::ensure!(
            a.flags == ACK && a.seq == snd && a.ack == end,
            "answer to the request: {a:?}"
        );
        let mut rcv = snd;
        let (head, body) = c.read_response(net, end, &mut rcv)?;
        anyhow::ensure!(head.starts_with("HTTP/1.1 200"), "response {head}");
        anyhow::ensure!(head_header(&head, "x-server") == Some("alpha"), "{head}");
        anyhow::ensure!(body == body_for(path, 3000), "body differs");
        // Alpha got the request once, intact, on one connection.
        let (got, _) = stream_from_card(net, Segment::Server, alpha, mark)?;
        anyhow::ensure!(got == req, "alpha got {:?}", String::from_utf8_lossy(&got));
        anyhow::ensure!(server_syns(net, mark).len() == 1, "server SYNs");
        Ok(())
    });
    // The card's SYN responder answered the SYN; the request's cookie ACK set the
    // connection up.
    let s = settled_stats(&mut rig);
    assert_eq!(hw_syn_acks(&mut rig.card).unwrap(), 1);
    assert_eq!(s.syn_acks_sent, 0, "{s:?}");
    assert_eq!(s.cookie_syn_acks, 0, "{s:?}");
    assert_eq!(s.spliced_total, 1, "{s:?}");
    assert_eq!(s.setup_failed, 0, "{s:?}");
}

#[test]
fn out_of_order_request_segments_are_not_spliced_until_the_head_is_whole() {
    let mut rig = rig().expect("rig");
    let beta = SocketAddrV4::new(SERVERS[1].1, 8080);
    with_pcap(&mut rig, "ooo-request", |rig| {
        let net = &mut rig.net;
        let mut c = RawPeer::client(net, RAW_CLIENT);
        let isn = RAW_ISN;
        let card_isn = c.syn(net, isn)?;
        let snd = card_isn.wrapping_add(1);
        c.send(net, isn.wrapping_add(1), snd, ACK, &[], &[]);
        c.expect_nothing(net, QUIET, "after the handshake ACK")?;
        // The request line, then the headers: only the Host header routes it (to beta).
        let path = "/x/data/500";
        let req = get_request("a.img.example", path, true);
        let split = req.windows(2).position(|w| w == b"\r\n").unwrap() + 2;
        let (line, headers) = req.split_at(split);
        let seq_line = isn.wrapping_add(1);
        let seq_headers = seq_line.wrapping_add(line.len() as u32);
        let end = seq_headers.wrapping_add(headers.len() as u32);
        let mark = net.captured().len();
        // The headers arrive first: not buffered, the card re-ACKs what it has.
        c.send(net, seq_headers, snd, PSH | ACK, &[], headers);
        let a = c.next(net, "the ACK of the out-of-order segment")?;
        anyhow::ensure!(
            a.flags == ACK && a.seq == snd && a.ack == seq_line,
            "answer to the out-of-order headers: {a:?}"
        );
        c.expect_nothing(net, QUIET, "after the out-of-order headers")?;
        anyhow::ensure!(
            from_card(net, Segment::Server, mark).is_empty(),
            "the card connected to a server with no request byte in order"
        );
        // The request line: acknowledged; the head is not complete yet.
        c.send(net, seq_line, snd, ACK, &[], line);
        let a = c.next(net, "the ACK of the request line")?;
        anyhow::ensure!(
            a.flags == ACK && a.seq == snd && a.ack == seq_headers,
            "answer to the request line: {a:?}"
        );
        c.expect_nothing(net, QUIET, "after the request line")?;
        anyhow::ensure!(
            from_card(net, Segment::Server, mark).is_empty(),
            "the card connected to a server on the request line alone: {:?}",
            server_syns(net, mark)
        );
        // The client retransmits the unacknowledged headers.
        c.send(net, seq_headers, snd, PSH | ACK, &[], headers);
        let a = c.next(net, "the ACK of the whole head")?;
        anyhow::ensure!(
            a.flags == ACK && a.seq == snd && a.ack == end,
            "answer to the retransmitted headers: {a:?}"
        );
        let mut rcv = snd;
        let (head, body) = c.read_response(net, end, &mut rcv)?;
        anyhow::ensure!(head.starts_with("HTTP/1.1 200"), "response {head}");
        anyhow::ensure!(
            head_header(&head, "x-server") == Some("beta"),
            "routed by a partial head: {head}"
        );
        anyhow::ensure!(body == body_for(path, 500), "body differs");
        let (got, _) = stream_from_card(net, Segment::Server, beta, mark)?;
        anyhow::ensure!(got == req, "beta got {:?}", String::from_utf8_lossy(&got));
        let syns = server_syns(net, mark);
        anyhow::ensure!(
            syns.len() == 1 && syns[0].dst == beta,
            "server SYNs {syns:?}"
        );
        Ok(())
    });
    let s = settled_stats(&mut rig);
    assert_eq!(s.spliced_total, 1, "{s:?}");
    assert_eq!(s.setup_failed, 0, "{s:?}");
}

/// A keep-alive connection with one answered request, idle (its delayed ACKs out, so the
/// card has nothing left to forward): its fetch, the client's ISN, and a raw peer with the
/// client's address, port and MAC to send segments on its 4-tuple.
fn idle_spliced_fetch(rig: &mut Rig) -> Result<(FetchId, u32, RawPeer)> {
    let c = rig.client;
    let id = rig.net.open_fetch(c, SERVICE)?;
    rig.net
        .fetch_send(id, &get_request("www.example.com", "/data/100", false));
    rig.net.wait_responses(id, 1, BUDGET)?;
    rig.net.run_for(4_000_000)?;
    let port = rig.net.fetch(id).local_port();
    let isn =
        first_syn_seq(&rig.net, Segment::Client, CLIENT_IP, false).context("the client's SYN")?;
    let mut raw = RawPeer::client(&rig.net, SocketAddrV4::new(CLIENT_IP, port));
    raw.mac = rig.net.host(c).mac();
    Ok((id, isn, raw))
}

/// RFC 5961 §4: a SYN on a spliced 4-tuple goes to the server translated, one per flow per
/// 500 ms (the server's challenge ACK is the answer; smoltcp's servers drop such a SYN, the
/// Linux peers of `peers_stream` answer it); no SYN-ACK, no setup, the flow keeps working.
#[test]
fn new_syn_on_a_spliced_four_tuple_goes_to_the_server_and_the_flow_keeps_working() {
    let mut rig = rig().expect("rig");
    with_pcap(&mut rig, "syn-on-spliced", |rig| {
        let (id, old_isn, raw) = idle_spliced_fetch(rig)?;
        let before = rig.card.flow_manager().flow_stats()?;
        let tcp_before = rig.card.flow_manager().tcp_stats()?;
        let hw_before = hw_syn_acks(&mut rig.card)?;
        let alpha_before = rig.card.flow_manager().server_stats(0)?;
        let accepted = rig.net.server(rig.servers[0]).connections();
        let mark = rig.net.captured().len();
        // SYNs on the spliced 4-tuple, from the client's own MAC: a new connection attempt
        // (a fresh ISN) and a late duplicate of the first SYN.
        for isn in [old_isn.wrapping_add(0x4000_0000), old_isn] {
            raw.send(&rig.net, isn, 0, SYN, &MSS_OPT, &[]);
            rig.net.run_for(QUIET)?;
        }
        let client_side = from_card(&rig.net, Segment::Client, mark);
        let server_side = from_card(&rig.net, Segment::Server, mark);
        // The first SYN reaches alpha with the client's delta (0: the server SYN reused the
        // client's ISN), from the card's server-side address; the second one, 200K cycles
        // later, is within the flow's 500 ms.
        let alpha = SocketAddrV4::new(SERVERS[0].1, 8080);
        anyhow::ensure!(
            client_side.is_empty()
                && server_side.len() == 1
                && server_side[0].flags == SYN
                && server_side[0].seq == old_isn.wrapping_add(0x4000_0000)
                && server_side[0].dst == alpha
                && server_side[0].opts.is_empty(),
            "the card answered the SYNs with {client_side:?} and sent {server_side:?} to \
             the server side"
        );
        let after = rig.card.flow_manager().flow_stats()?;
        let tcp_after = rig.card.flow_manager().tcp_stats()?;
        anyhow::ensure!(
            (
                tcp_after.syn_challenged - tcp_before.syn_challenged,
                tcp_after.challenge_limited - tcp_before.challenge_limited,
                after.punts_ignored
            ) == (1, 1, before.punts_ignored),
            "{tcp_before:?} -> {tcp_after:?}, ignored punts {} -> {}",
            before.punts_ignored,
            after.punts_ignored
        );
        anyhow::ensure!(
            (
                after.syn_acks_sent,
                after.slots_in_use,
                after.pending_in_use
            ) == (before.syn_acks_sent, before.slots_in_use, 0),
            "{before:?} -> {after:?}"
        );
        // The flow table holds the 4-tuple: the SYN responder left both SYNs to the
        // firmware.
        let hw_after = hw_syn_acks(&mut rig.card)?;
        anyhow::ensure!(
            hw_after == hw_before,
            "hardware SYN-ACKs {hw_before} -> {hw_after}"
        );
        // The spliced connection still works, on the same server connection.
        rig.net
            .fetch_send(id, &get_request("www.example.com", "/data/200", true));
        rig.net.wait_responses(id, 2, BUDGET)?;
        let f = rig.net.fetch(id);
        let (r1, r2) = (&f.responses()[0], &f.responses()[1]);
        anyhow::ensure!(r2.server() == Some("alpha"), "served by {:?}", r2.server());
        anyhow::ensure!(r2.body == body_for("/data/200", 200), "body differs");
        anyhow::ensure!(
            r2.header("x-conn") == r1.header("x-conn") && r2.header("x-request") == Some("2"),
            "second request on {:?} #{:?}, first on {:?}",
            r2.header("x-conn"),
            r2.header("x-request"),
            r1.header("x-conn")
        );
        anyhow::ensure!(rig.net.server(rig.servers[0]).connections() == accepted);
        let alpha_after = rig.card.flow_manager().server_stats(0)?;
        anyhow::ensure!(
            alpha_after.connections == alpha_before.connections,
            "{alpha_before:?} -> {alpha_after:?}"
        );
        Ok(())
    });
    let s = stats(&mut rig.card);
    assert_eq!(s.spliced_total, 1, "{s:?}");
    // The first SYN was the SYN responder's.
    assert_eq!(s.syn_acks_sent, 0, "{s:?}");
    assert_eq!(hw_syn_acks(&mut rig.card).unwrap(), 1);
}

/// RFC 5961 §3 on an idle spliced connection: a blind RST from the client's address (out of
/// the server's window) goes to the server translated and the flow becomes RST-pending; the
/// card probes the server, whose answer (smoltcp sends a challenge ACK for the RST or for
/// the probe) restores the flow when the pending time (the CLOSE timeout, shortened here)
/// ends. The connection's next request is served on the same server connection, and more
/// than a CLOSE timeout later the flow is still spliced.
#[test]
fn blind_rst_on_an_idle_spliced_connection_leaves_it_working() {
    let mut rig = rig().expect("rig");
    // 20 ms of card time: 3.1M cycles of the simulated card.
    rig.card
        .flow_manager()
        .timeout_set_ms(TcpTimeoutState::Close, 20)
        .expect("TIMEOUT_SET");
    with_pcap(&mut rig, "blind-rst", |rig| {
        let (id, isn, raw) = idle_spliced_fetch(rig)?;
        let t0 = rig.card.flow_manager().tcp_stats()?;
        let mark = rig.net.captured().len();
        // Half the number space away from anything the client sent.
        let blind = isn.wrapping_add(0x8000_0000);
        raw.send(&rig.net, blind, 0, RST, &[], &[]);
        rig.net.run_for(8_000_000)?;
        let server_side = from_card(&rig.net, Segment::Server, mark);
        let alpha = SocketAddrV4::new(SERVERS[0].1, 8080);
        anyhow::ensure!(
            server_side.len() == 2
                && server_side[0].flags == RST
                && server_side[0].seq == blind
                && server_side[1].flags == ACK
                && server_side[1].seq == blind.wrapping_add(1 << 31)
                && server_side[1].payload.len() == 1
                && server_side.iter().all(|t| t.dst == alpha),
            "to the server: {server_side:?}"
        );
        let t1 = rig.card.flow_manager().tcp_stats()?;
        anyhow::ensure!(
            (
                t1.rst_pending - t0.rst_pending,
                t1.rst_restored - t0.rst_restored,
                t1.rst_pending_now
            ) == (1, 1, 0),
            "{t0:?} -> {t1:?}"
        );
        let f = rig.card.flow_manager().flow_stats()?;
        anyhow::ensure!(f.slots_in_use == 1, "{f:?}");
        rig.net
            .fetch_send(id, &get_request("www.example.com", "/data/200", true));
        rig.net.wait_responses(id, 2, BUDGET)?;
        let f = rig.net.fetch(id);
        let (r1, r2) = (&f.responses()[0], &f.responses()[1]);
        anyhow::ensure!(r2.body == body_for("/data/200", 200), "body differs");
        anyhow::ensure!(
            r2.header("x-conn") == r1.header("x-conn"),
            "second request on {:?}, first on {:?}",
            r2.header("x-conn"),
            r1.header("x-conn")
        );
        Ok(())
    });
}

/// The firmware's stateful handshake (the SYN responder off): the SYN takes a setup entry
/// and a slot, which the client's RST gives back.
#[test]
fn client_rst_during_the_handshake_frees_the_flow() {
    let mut rig = rig().expect("rig");
    syn_responder_off(&mut rig.card).expect("responder off");
    with_pcap(&mut rig, "rst-handshake", |rig| {
        let net = &mut rig.net;
        let mut c = RawPeer::client(net, RAW_CLIENT);
        let isn = RAW_ISN;
        let card_isn = c.syn(net, isn)?;
        let s = rig.card.flow_manager().flow_stats()?;
        anyhow::ensure!(s.slots_in_use == 1 && s.pending_in_use == 1, "{s:?}");
        let net = &mut rig.net;
        let mark = net.captured().len();
        c.send(net, isn.wrapping_add(1), 0, RST, &[], &[]);
        c.expect_nothing(net, QUIET, "after the client's RST")?;
        anyhow::ensure!(from_card(net, Segment::Server, mark).is_empty());
        let s = rig.card.flow_manager().flow_stats()?;
        anyhow::ensure!(s.slots_in_use == 0 && s.pending_in_use == 0, "{s:?}");
        anyhow::ensure!(
            rig.card.datapath()?.flow_entries()? == 0,
            "flow-table entries"
        );
        // The handshake ACK the client would have sent finds no connection: RST.
        let net = &mut rig.net;
        c.send(
            net,
            isn.wrapping_add(1),
            card_isn.wrapping_add(1),
            ACK,
            &[],
            &[],
        );
        let r = c.next(net, "the answer to a late handshake ACK")?;
        anyhow::ensure!(
            r.flags == RST && r.seq == card_isn.wrapping_add(1),
            "answer to the late ACK: {r:?}"
        );
        Ok(())
    });
    let s = stats(&mut rig.card);
    assert_eq!(s.syn_acks_sent, 1, "{s:?}");
    assert_eq!(s.spliced_total, 0, "{s:?}");
    // The client ended the setup: not a failure of the card's.
    assert_eq!(s.setup_failed, 0, "{s:?}");
    assert_eq!(s.slots_in_use, 0, "{s:?}");
    assert_eq!(hw_syn_acks(&mut rig.card).unwrap(), 0);
}

/// The SYN responder's handshake: the SYN-ACK leaves no state, so the client's RST finds
/// nothing (no answer, nothing to the server), and a later ACK that carries the cookie
/// still starts the connection, as with any SYN cookie: the card keeps no record of the
/// RST. The request on it is served.
#[test]
fn client_rst_after_a_hardware_syn_ack_leaves_nothing_and_the_cookie_still_counts() {
    let mut rig = rig().expect("rig");
    let alpha = SocketAddrV4::new(SERVERS[0].1, 8080);
    with_pcap(&mut rig, "rst-hw-synack", |rig| {
        let net = &mut rig.net;
        let mut c = RawPeer::client(net, RAW_CLIENT);
        let isn = RAW_ISN;
        let card_isn = c.syn(net, isn)?;
        let s = rig.card.flow_manager().flow_stats()?;
        anyhow::ensure!(s.slots_in_use == 0 && s.pending_in_use == 0, "{s:?}");
        anyhow::ensure!(hw_syn_acks(&mut rig.card)? == 1, "hardware SYN-ACKs");
        anyhow::ensure!(
            rig.card.datapath()?.flow_entries()? == 0,
            "flow-table entries"
        );
        let net = &mut rig.net;
        let mark = net.captured().len();
        c.send(net, isn.wrapping_add(1), 0, RST, &[], &[]);
        c.expect_nothing(net, QUIET, "after the client's RST")?;
        anyhow::ensure!(from_card(net, Segment::Server, mark).is_empty());
        let s = rig.card.flow_manager().flow_stats()?;
        anyhow::ensure!(s.slots_in_use == 0 && s.pending_in_use == 0, "{s:?}");
        // The handshake ACK with the cookie: a connection waiting for its request.
        let net = &mut rig.net;
        let snd = card_isn.wrapping_add(1);
        c.send(net, isn.wrapping_add(1), snd, ACK, &[], &[]);
        c.expect_nothing(net, QUIET, "after the handshake ACK")?;
        let s = rig.card.flow_manager().flow_stats()?;
        anyhow::ensure!(s.slots_in_use == 1 && s.pending_in_use == 1, "{s:?}");
        let path = "/data/700";
        let req = get_request("www.example.com", path, true);
        let end = isn.wrapping_add(1 + req.len() as u32);
        let net = &mut rig.net;
        c.send(net, isn.wrapping_add(1), snd, PSH | ACK, &[], &req);
        let mut rcv = snd;
        let (head, body) = c.read_response(net, end, &mut rcv)?;
        anyhow::ensure!(head.starts_with("HTTP/1.1 200"), "response {head}");
        anyhow::ensure!(body == body_for(path, 700), "body differs");
        let (got, _) = stream_from_card(net, Segment::Server, alpha, mark)?;
        anyhow::ensure!(got == req, "alpha got {:?}", String::from_utf8_lossy(&got));
        Ok(())
    });
    let s = settled_stats(&mut rig);
    assert_eq!(s.syn_acks_sent, 0, "{s:?}");
    assert_eq!(s.spliced_total, 1, "{s:?}");
    assert_eq!(s.setup_failed, 0, "{s:?}");
}

/// A scripted client's request to gamma, up to the card's SYN to gamma. Returns the
/// client's and gamma's endpoints, the card's ISN towards the client, the request and the
/// card's SYN.
fn request_until_the_server_syn(rig: &mut Rig) -> Result<(RawPeer, RawPeer, u32, Vec<u8>, Tcp)> {
    default_pool_to_gamma(&mut rig.card)?;
    let net = &mut rig.net;
    let mut c = RawPeer::client(net, RAW_CLIENT);
    let mut g = RawPeer::server(net, GAMMA, GAMMA_MAC);
    let isn = RAW_ISN;
    let card_isn = c.syn(net, isn)?;
    let snd = card_isn.wrapping_add(1);
    c.send(net, isn.wrapping_add(1), snd, ACK, &[], &[]);
    let req = get_request("www.example.com", "/data/100", true);
    let end = isn.wrapping_add(1 + req.len() as u32);
    c.send(net, isn.wrapping_add(1), snd, PSH | ACK, &[], &req);
    let a = c.next(net, "the request's ACK")?;
    anyhow::ensure!(
        a.flags == ACK && a.seq == snd && a.ack == end,
        "answer to the request: {a:?}"
    );
    let syn = g.next(net, "the card's SYN")?;
    anyhow::ensure!(
        syn.flags == SYN && syn.seq == isn && syn.src.ip() == &LOCAL_IP,
        "the card's SYN to gamma: {syn:?}"
    );
    g.peer = syn.src;
    Ok((c, g, card_isn, req, syn))
}

/// The client resets its connection while the card's SYN to the server is out; checks that
/// the flow is gone. Returns gamma's endpoint and the card's SYN.
fn client_rst_during_server_setup(rig: &mut Rig) -> Result<(RawPeer, Tcp)> {
    let (mut c, g, card_isn, req, syn) = request_until_the_server_syn(rig)?;
    let s = rig.card.flow_manager().flow_stats()?;
    anyhow::ensure!(s.slots_in_use == 1 && s.pending_in_use == 1, "{s:?}");
    let gs = rig.card.flow_manager().server_stats(GAMMA_RS)?;
    anyhow::ensure!(gs.connections == 1, "{gs:?}");
    let net = &mut rig.net;
    let end = RAW_ISN.wrapping_add(1 + req.len() as u32);
    c.send(net, end, card_isn.wrapping_add(1), RST | ACK, &[], &[]);
    c.expect_nothing(net, QUIET, "after the client's RST")?;
    let s = rig.card.flow_manager().flow_stats()?;
    anyhow::ensure!(s.slots_in_use == 0 && s.pending_in_use == 0, "{s:?}");
    anyhow::ensure!(
        (s.spliced_total, s.setup_failed) == (0, 0),
        "the client ended the setup: {s:?}"
    );
    anyhow::ensure!(
        rig.card.datapath()?.flow_entries()? == 0,
        "flow-table entries"
    );
    let gs = rig.card.flow_manager().server_stats(GAMMA_RS)?;
    anyhow::ensure!(gs.active == 0 && gs.inactive == 0, "{gs:?}");
    Ok((g, syn))
}

#[test]
fn client_rst_during_server_setup_frees_the_flow() {
    let mut rig = rig().expect("rig");
    with_pcap(&mut rig, "rst-connecting", |rig| {
        client_rst_during_server_setup(rig).map(drop)
    });
}

#[test]
fn client_rst_during_server_setup_resets_the_server() {
    let mut rig = rig().expect("rig");
    with_pcap(&mut rig, "rst-connecting-server", |rig| {
        let (mut g, syn) = client_rst_during_server_setup(rig)?;
        let net = &mut rig.net;
        let rst_ok = |t: &Tcp| t.has(RST) && t.seq == syn.seq.wrapping_add(1);
        // The card reset gamma's half-open connection when the client went away...
        if let Some(t) = g.poll(net) {
            anyhow::ensure!(rst_ok(&t), "the card sent gamma {t:?}");
            return Ok(());
        }
        // ...or does so when gamma's SYN-ACK comes.
        g.send(
            net,
            GAMMA_ISN,
            syn.seq.wrapping_add(1),
            SYN | ACK,
            &MSS_OPT,
            &[],
        );
        let t = g.next_within(net, "a RST to the SYN-ACK", 5 * QUIET)?;
        anyhow::ensure!(rst_ok(&t), "answer to gamma's SYN-ACK: {t:?}");
        Ok(())
    });
}

#[test]
fn request_retransmitted_while_the_server_syn_is_out_reaches_the_server_once() {
    let mut rig = rig().expect("rig");
    with_pcap(&mut rig, "retransmit-connecting", |rig| {
        let mark = rig.net.captured().len();
        let (mut c, mut g, card_isn, req, syn) = request_until_the_server_syn(rig)?;
        let net = &mut rig.net;
        let isn = RAW_ISN;
        let snd = card_isn.wrapping_add(1);
        let end = isn.wrapping_add(1 + req.len() as u32);
        // The client retransmits the whole request, then its second half.
        let half = req.len() / 2;
        for (off, what) in [(0, "the whole request"), (half, "its second half")] {
            let seq = isn.wrapping_add(1 + off as u32);
            c.send(net, seq, snd, PSH | ACK, &[], &req[off..]);
            let a = c.next(net, "the ACK of the retransmission")?;
            anyhow::ensure!(
                a.flags == ACK && a.seq == snd && a.ack == end,
                "answer to {what} again: {a:?}"
            );
        }
        g.expect_nothing(net, QUIET, "while its SYN-ACK is outstanding")?;
        // Gamma answers: the card replays the request once, acknowledging the SYN-ACK.
        g.send(
            net,
            GAMMA_ISN,
            syn.seq.wrapping_add(1),
            SYN | ACK,
            &MSS_OPT,
            &[],
        );
        let first = g.next(net, "the request")?;
        anyhow::ensure!(
            first.ack == GAMMA_ISN.wrapping_add(1) && first.seq == syn.seq.wrapping_add(1),
            "the card's first segment after the SYN-ACK: {first:?}"
        );
        net.run_for(QUIET)?;
        let (got, n) = stream_from_card(net, Segment::Server, GAMMA, mark)?;
        anyhow::ensure!(
            got == req,
            "gamma got {:?} in {n} segments",
            String::from_utf8_lossy(&got)
        );
        // Gamma's answer reaches the client through the splice.
        let body = b"hello from gamma";
        let mut resp = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nX-Server: gamma\r\n\r\n",
            body.len()
        )
        .into_bytes();
        resp.extend_from_slice(body);
        let srv_end = syn.seq.wrapping_add(1 + req.len() as u32);
        g.send(
            net,
            GAMMA_ISN.wrapping_add(1),
            srv_end,
            PSH | ACK,
            &[],
            &resp,
        );
        let mut rcv = snd;
        let (head, got_body) = c.read_response(net, end, &mut rcv)?;
        anyhow::ensure!(head_header(&head, "x-server") == Some("gamma"), "{head}");
        anyhow::ensure!(got_body == body, "body differs");
        anyhow::ensure!(server_syns(net, mark).len() == 1, "server SYNs");
        Ok(())
    });
    let s = stats(&mut rig.card);
    assert_eq!(s.spliced_total, 1, "{s:?}");
    assert_eq!(s.setup_failed, 0, "{s:?}");
    assert_eq!(s.server_retries, 0, "{s:?}");
}
