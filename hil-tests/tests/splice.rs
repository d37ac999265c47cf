//! Connections spliced end to end on the simulated card: the real firmware's flow manager on
//! the real data path, with smoltcp TCP stacks as the client and the real servers.
//! The rig is `splicenic_hil::splice_rig` (topology and rules there).

use anyhow::{Context, Result};
use splicenic_driver::{
    Card, FirmwareImage, FlowStats, Health, RealServer, SetupTimers, TcpTimeoutState, Watchdog,
};
use splicenic_fw_logic::mailbox::cmd;
use splicenic_hil::net::{
    body_for, first_isn, get_request, post_request, seed_for_isn, sha256_hex, Direction, Net,
    Segment,
};
use splicenic_hil::splice_rig::{
    configure_flow_manager, rig, rig_with, Opts, Rig, BUDGET, CLIENT_IP, SERVERS, SERVICE,
};
use splicenic_hil::{firmware_bytes, SIM_BOOT_TIMEOUT};
use std::net::Ipv4Addr;
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
    card.flow_stats().expect("FLOW_STATS")
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
    ] {
        rig.card.timeout_set_ms(st, 5).expect("TIMEOUT_SET");
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
            left = card.flow_stats()?.slots_in_use;
            if left == 0 {
                break;
            }
        }
        anyhow::ensure!(left == 0, "{left} flows still in use");
        Ok(())
    });
    let s = stats(&mut rig.card);
    assert_eq!(s.aged_out, 3, "{s:?}");
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
        rig.card.server_set(&RealServer {
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
        let in_use = rig.card.flow_stats()?.slots_in_use;
        rig.card.setup_timers_set(&SetupTimers {
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
    assert_eq!(s.refused_table_full, 1, "{s:?}");
    let alpha = rig.card.server_stats(0).unwrap();
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
        rig.card.restart_firmware(&image, SIM_BOOT_TIMEOUT)?;
        configure_flow_manager(&mut rig.card, false)?;
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
    let alpha = rig.card.server_stats(0).unwrap();
    assert!(alpha.active + alpha.inactive >= 1, "{alpha:?}");
}
