use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use splicenic_fw_logic::flowmgr::timeouts::STATES;
use splicenic_fw_logic::mailbox::status;
use splicenic_fw_logic::splicer::Port as FwPort;

use super::*;
use crate::card::Card;
use crate::mailbox::tests::AnsweringFake;
use crate::regs;

/// The requests a fake firmware got: (command, request words).
type RequestLog = Arc<Mutex<Vec<(u32, Vec<u32>)>>>;

/// A card whose firmware answers every request with `(status, data)` and records the
/// requests it got.
fn card_answering(status: u32, data: Vec<u32>) -> (Card, RequestLog) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&log);
    let bar = AnsweringFake::new(move |command, words| {
        seen.lock().unwrap().push((command, words.to_vec()));
        (status, data.clone())
    });
    (Card::open(Box::new(bar)).unwrap(), log)
}

fn ok_card() -> (Card, RequestLog) {
    card_answering(status::OK, vec![])
}

fn only_request(log: &Mutex<Vec<(u32, Vec<u32>)>>) -> (u32, Vec<u32>) {
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 1, "{log:?}");
    log[0].clone()
}

const VIP: Ipv4Addr = Ipv4Addr::new(192, 168, 0, 1);

#[test]
fn constants_agree_with_the_firmware_and_the_register_map() {
    assert_eq!(usize::from(SERVICES), regs::dp::VIP_ADDR_COUNT);
    assert_eq!(usize::from(REAL_SERVERS), sched::MAX_SERVERS);
    assert_eq!(MAX_WEIGHT, 65_535);
    assert_eq!(
        (cmd::SVC_SET, cmd::SERVER_STATS, status::NO_DATAPATH),
        (0x20, 0x28, 7)
    );
}

#[test]
fn service_set_sends_index_vip_port_mode_and_pool() {
    let (mut card, log) = ok_card();
    card.flow_manager()
        .service_set(3, VIP, 80, ServiceMode::L4 { pool: 5 })
        .unwrap();
    assert_eq!(
        only_request(&log),
        (cmd::SVC_SET, vec![3, 0xC0A8_0001, 80, 1, 5])
    );

    let (mut card, log) = ok_card();
    card.flow_manager()
        .service_set(7, VIP, 65535, ServiceMode::L7 { fallback_pool: 2 })
        .unwrap();
    assert_eq!(
        only_request(&log),
        (cmd::SVC_SET, vec![7, 0xC0A8_0001, 65535, 2, 2])
    );

    let (mut card, log) = ok_card();
    card.flow_manager().service_delete(4).unwrap();
    assert_eq!(only_request(&log), (cmd::SVC_SET, vec![4, 0, 0, 0, 0]));
}

#[test]
fn pool_set_encodes_scheduler_flags_and_persistence() {
    let (mut card, log) = ok_card();
    card.flow_manager()
        .pool_set(2, &PoolConfig::new(Scheduler::Rr))
        .unwrap();
    assert_eq!(
        only_request(&log),
        (cmd::POOL_SET, vec![2, 0, 0, 0, 0xFFFF_FFFF])
    );

    let (mut card, log) = ok_card();
    let config = PoolConfig {
        scheduler: Scheduler::Mh,
        fallback: true,
        hash_port: false,
        expire_quiescent: true,
        persistence: Some((360, Ipv4Addr::new(255, 255, 255, 0))),
    };
    card.flow_manager().pool_set(7, &config).unwrap();
    assert_eq!(
        only_request(&log),
        (cmd::POOL_SET, vec![7, 10, 0b101, 360, 0xFFFF_FF00])
    );

    let (mut card, log) = ok_card();
    let config = PoolConfig {
        hash_port: true,
        ..PoolConfig::new(Scheduler::Twos)
    };
    card.flow_manager().pool_set(0, &config).unwrap();
    assert_eq!(
        only_request(&log),
        (cmd::POOL_SET, vec![0, 13, 0b010, 0, 0xFFFF_FFFF])
    );

    let (mut card, log) = ok_card();
    card.flow_manager().pool_delete(6).unwrap();
    assert_eq!(only_request(&log), (cmd::POOL_DEL, vec![6]));
}

#[test]
fn server_set_packs_pool_rs_and_mac() {
    let (mut card, log) = ok_card();
    let server = RealServer {
        pool: 3,
        rs: 63,
        addr: Ipv4Addr::new(10, 0, 0, 2),
        port: 8080,
        mac: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55],
        weight: 65535,
        upper_threshold: 1000,
        lower_threshold: 750,
    };
    card.flow_manager().server_set(&server).unwrap();
    assert_eq!(
        only_request(&log),
        (
            cmd::SERVER_SET,
            vec![
                3 | 63 << 8,
                0x0A00_0002,
                8080,
                0x0211_2233,
                0x4455_0000,
                65535,
                1000,
                750
            ]
        )
    );

    let (mut card, log) = ok_card();
    card.flow_manager().server_delete(17).unwrap();
    assert_eq!(only_request(&log), (cmd::SERVER_DEL, vec![17]));
}

#[test]
fn timeout_and_setup_timers_words() {
    let (mut card, log) = ok_card();
    card.flow_manager()
        .timeout_set(TcpTimeoutState::Established, 900)
        .unwrap();
    assert_eq!(only_request(&log), (cmd::TIMEOUT_SET, vec![1, 900]));

    let (mut card, log) = ok_card();
    card.flow_manager()
        .timeout_set(TcpTimeoutState::Synack, 5)
        .unwrap();
    assert_eq!(only_request(&log), (cmd::TIMEOUT_SET, vec![10, 5]));

    // The card's LINGER class: state 11, in seconds or (word 2 = 1) in milliseconds.
    let (mut card, log) = ok_card();
    card.flow_manager()
        .timeout_set(TcpTimeoutState::Linger, 2)
        .unwrap();
    assert_eq!(only_request(&log), (cmd::TIMEOUT_SET, vec![11, 2]));
    let (mut card, log) = ok_card();
    card.flow_manager()
        .timeout_set_ms(TcpTimeoutState::Linger, 250)
        .unwrap();
    assert_eq!(only_request(&log), (cmd::TIMEOUT_SET, vec![11, 250, 1]));
    let (mut card, log) = ok_card();
    assert!(card
        .flow_manager()
        .timeout_set_ms(TcpTimeoutState::Linger, 0)
        .is_err());
    assert!(
        log.lock().unwrap().is_empty(),
        "0 ms is refused before sending"
    );

    let (mut card, log) = ok_card();
    card.flow_manager()
        .setup_timers_set(&SetupTimers {
            request_timeout_ms: 5000,
            server_rto_ms: 0,
            server_syn_tries: 3,
            flow_limit: 0,
        })
        .unwrap();
    assert_eq!(only_request(&log), (cmd::SETUP_SET, vec![5000, 0, 3, 0]));
}

#[test]
fn tcp_states_are_in_ipvs_order() {
    let names = [
        "NONE",
        "ESTABLISHED",
        "SYN_SENT",
        "SYN_RECV",
        "FIN_WAIT",
        "TIME_WAIT",
        "CLOSE",
        "CLOSE_WAIT",
        "LAST_ACK",
        "LISTEN",
        "SYNACK",
        // The card's own class after the IPVS states.
        "LINGER",
    ];
    assert_eq!(STATES, names.len());
    for (i, name) in names.iter().enumerate() {
        let s = tcp_timeout_state_from_name(name).unwrap();
        assert_eq!((s.index(), s.name()), (i, *name));
    }
    assert_eq!(
        tcp_timeout_state_from_name("time_wait"),
        Some(TcpTimeoutState::TimeWait)
    );
    assert_eq!(tcp_timeout_state_from_name("UDP"), None);
}

#[test]
fn flow_stats_decode_every_word() {
    let words: Vec<u32> = vec![
        10,
        4096,
        20,
        30,
        1,
        2,
        3,
        25,
        24,
        5,
        0x0000_1000,
        0x0000_0002,
        0x8000_0000,
        0x0000_0001,
        4,
        9,
    ];
    let (mut card, log) = card_answering(status::OK, words);
    let s = card.flow_manager().flow_stats().unwrap();
    assert_eq!(only_request(&log), (cmd::FLOW_STATS, vec![]));
    assert_eq!(
        s,
        FlowStats {
            slots_in_use: 10,
            slot_capacity: 4096,
            syn_acks_sent: 20,
            spliced_total: 30,
            refused_table_full: 1,
            setup_failed: 2,
            server_retries: 3,
            aged_out: 25,
            closed: 24,
            cookie_syn_acks: 5,
            setup_cycles: 0x2_0000_1000,
            teardown_cycles: 0x1_8000_0000,
            pending_in_use: 4,
            punts_ignored: 9,
        }
    );
    let per_setup = s.setup_cycles_per_connection().unwrap();
    assert!((per_setup - 0x2_0000_1000_u64 as f64 / 30.0).abs() < 1e-6);
    let per_teardown = s.teardown_cycles_per_connection().unwrap();
    assert!((per_teardown - 0x1_8000_0000_u64 as f64 / 25.0).abs() < 1e-6);
    assert_eq!(FlowStats::default().setup_cycles_per_connection(), None);
    assert_eq!(FlowStats::default().teardown_cycles_per_connection(), None);
    assert_eq!(FlowStats::from_words(&[0; 15]), None);
}

#[test]
fn short_stats_responses_are_errors() {
    let (mut card, _) = card_answering(status::OK, vec![0; 15]);
    let e = card.flow_manager().flow_stats().unwrap_err();
    assert!(matches!(e, DriverError::MailboxResponse { .. }), "{e}");
    assert!(e.to_string().contains("FLOW_STATS"), "{e}");
    let (mut card, _) = card_answering(status::OK, vec![0; 5]);
    let e = card.flow_manager().server_stats(0).unwrap_err();
    assert!(matches!(e, DriverError::MailboxResponse { .. }), "{e}");
}

#[test]
fn server_stats_decode_flags_and_pool() {
    let (mut card, log) = card_answering(status::OK, vec![7, 12, 100, 0b11, 5, 999]);
    let s = card.flow_manager().server_stats(42).unwrap();
    assert_eq!(only_request(&log), (cmd::SERVER_STATS, vec![42]));
    assert_eq!(
        s,
        ServerStats {
            active: 7,
            inactive: 12,
            weight: 100,
            present: true,
            overloaded: true,
            pool: 5,
            connections: 999,
        }
    );
    let s = ServerStats::from_words(&[0, 0, 1, 0b01, 2, 3]).unwrap();
    assert!(s.present && !s.overloaded);
    let s = ServerStats::from_words(&[0, 0, 1, 0b10, 2, 3]).unwrap();
    assert!(!s.present && s.overloaded);
}

#[test]
fn scheduler_names_round_trip_in_firmware_order() {
    assert_eq!(Scheduler::ALL.len(), 14);
    for (i, s) in Scheduler::ALL.into_iter().enumerate() {
        assert_eq!(s.code(), i as u32);
        assert_eq!(Scheduler::from_code(i as u32), Some(s));
        assert_eq!(s.to_string().parse::<Scheduler>(), Ok(s));
        assert_eq!(s, splicenic_fw_logic::sched::Kind::ALL[i]);
    }
    assert_eq!(Scheduler::from_code(14), None);
    assert_eq!(Scheduler::default(), Scheduler::Wlc);
    assert_eq!("lblcr".parse::<Scheduler>(), Ok(Scheduler::Lblcr));
    let e = "WLC".parse::<Scheduler>().unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("`WLC`"), "{msg}");
    assert!(
        msg.contains("rr, wrr, lc, wlc, sed, nq, lblc, lblcr, dh, sh, mh, fo, ovf, twos"),
        "{msg}"
    );
}

/// Asserts an InvalidArgument for `arg` whose message names the range, and that nothing
/// was sent.
fn assert_invalid(
    r: Result<(), DriverError>,
    log: &Mutex<Vec<(u32, Vec<u32>)>>,
    arg: &str,
    range: &str,
) {
    let e = r.unwrap_err();
    match &e {
        DriverError::InvalidArgument { arg: a, .. } => assert_eq!(*a, arg, "{e}"),
        other => panic!("expected InvalidArgument, got {other}"),
    }
    let msg = e.to_string();
    assert!(msg.contains(arg) && msg.contains(range), "{msg}");
    assert!(log.lock().unwrap().is_empty(), "a request was sent");
}

#[test]
fn invalid_arguments_are_refused_before_sending() {
    let (mut card, log) = ok_card();
    let l4 = ServiceMode::L4 { pool: 0 };
    assert_invalid(
        card.flow_manager().service_set(8, VIP, 80, l4),
        &log,
        "index",
        "0..8",
    );
    assert_invalid(
        card.flow_manager().service_set(0, VIP, 0, l4),
        &log,
        "port",
        "1..=65535",
    );
    assert_invalid(
        card.flow_manager()
            .service_set(0, VIP, 80, ServiceMode::L4 { pool: 8 }),
        &log,
        "pool",
        "0..8",
    );
    assert_invalid(
        card.flow_manager()
            .service_set(0, VIP, 80, ServiceMode::L7 { fallback_pool: 9 }),
        &log,
        "fallback_pool",
        "0..8",
    );
    assert_invalid(card.flow_manager().service_delete(8), &log, "index", "0..8");

    let p = PoolConfig::default();
    assert_invalid(card.flow_manager().pool_set(8, &p), &log, "pool", "0..8");
    let persist_zero = PoolConfig {
        persistence: Some((0, Ipv4Addr::new(255, 255, 255, 255))),
        ..p
    };
    assert_invalid(
        card.flow_manager().pool_set(0, &persist_zero),
        &log,
        "persistence timeout",
        "1..=",
    );
    assert_invalid(card.flow_manager().pool_delete(200), &log, "pool", "0..8");

    let server = RealServer {
        pool: 0,
        rs: 0,
        addr: Ipv4Addr::new(10, 0, 0, 1),
        port: 80,
        mac: [0; 6],
        weight: 1,
        upper_threshold: 0,
        lower_threshold: 0,
    };
    let bad = [
        (RealServer { pool: 8, ..server }, "pool", "0..8"),
        (RealServer { rs: 64, ..server }, "rs", "0..64"),
        (RealServer { port: 0, ..server }, "port", "1..=65535"),
        (
            RealServer {
                weight: 65536,
                ..server
            },
            "weight",
            "0..=65535",
        ),
    ];
    for (s, arg, range) in bad {
        assert_invalid(card.flow_manager().server_set(&s), &log, arg, range);
    }
    assert_invalid(card.flow_manager().server_delete(64), &log, "rs", "0..64");
    assert_invalid(
        card.flow_manager().timeout_set(TcpTimeoutState::Close, 0),
        &log,
        "secs",
        "1..=",
    );
    assert_invalid(
        card.flow_manager().server_stats(64).map(drop),
        &log,
        "rs",
        "0..64",
    );

    let e = card
        .flow_manager()
        .server_set(&RealServer { rs: 70, ..server })
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "mailbox command SERVER_SET: rs = 70 is out of range, expected 0..64"
    );
}

// ----- control plane ---------------------------------------------------------------

/// A card whose firmware answers through `respond` (command, words) -> (status, data).
fn card_with(
    respond: impl FnMut(u32, &[u32]) -> (u32, Vec<u32>) + Send + 'static,
) -> (Card, RequestLog) {
    let log: RequestLog = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&log);
    let mut respond = respond;
    let bar = AnsweringFake::new(move |command, words| {
        seen.lock().unwrap().push((command, words.to_vec()));
        respond(command, words)
    });
    (Card::open(Box::new(bar)).unwrap(), log)
}

#[test]
fn control_plane_codes_follow_server_stats() {
    assert_eq!(
        [
            cmd::SVC_GET,
            cmd::POOL_GET,
            cmd::SERVER_GET,
            cmd::CONFIG_MAP,
            cmd::TIMEOUT_GET,
            cmd::ZERO,
            cmd::FLOW_LIST,
            cmd::FLOW_GET,
            cmd::RULESET_PUT,
            cmd::RULESET_COMMIT,
            cmd::RULESET_GET,
            cmd::RULESET_INFO,
            cmd::CAPTURE_SET,
            cmd::CAPTURE_INFO,
        ],
        [0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36]
    );
    assert_eq!(cmd::DEBUG_HANG, 0xF0);
    assert_eq!((FLOW_GET_WORDS, FLOW_LIST_DONE), (16, 0xFFFF_FFFF));
    assert_eq!(RULESET_RECORD_MAX, 16384);
}

// ----- cycle profile ------------------------------------------------------------

/// FLOW_PROFILE words per docs/interfaces.md for a table where entry `i` has
/// `cycles(i)` cycles and `i + 1` runs; `n` entries, steps timed, empty step 7 cycles.
fn profile_page(first: usize, n: usize, cycles: impl Fn(usize) -> u64) -> Vec<u32> {
    let mut w = vec![n as u32 | 1 << 8 | 7 << 16];
    for i in first..n.min(first + 5) {
        let c = cycles(i);
        w.extend([c as u32, (c >> 32) as u32, i as u32 + 1]);
    }
    w
}

fn profile_cycles(i: usize) -> u64 {
    ((i as u64) << 32) | (1000 * i as u64 + 3)
}

#[test]
fn flow_profile_reads_every_page_and_names_the_entries() {
    assert_eq!(cmd::FLOW_PROFILE, 0x37);
    assert_eq!(splicenic_fw_logic::mailbox::API_VERSION, 9);
    assert_eq!(
        (PROFILE_ENTRIES, PROFILE_HANDLERS, PROFILE_PER_PAGE),
        (32, 18, 5)
    );
    let (mut card, log) = card_with(|c, req| {
        assert_eq!(c, cmd::FLOW_PROFILE);
        (
            status::OK,
            profile_page(req[0] as usize, PROFILE_ENTRIES, profile_cycles),
        )
    });
    let p = card.flow_manager().flow_profile().unwrap();
    let firsts: Vec<Vec<u32>> = log.lock().unwrap().iter().map(|r| r.1.clone()).collect();
    assert_eq!(
        firsts,
        [[0], [5], [10], [15], [20], [25], [30]].map(|f| f.to_vec()),
        "entry 0 first (the snapshot), then the other pages"
    );
    assert_eq!((p.empty_step_cycles, p.steps_timed), (7, true));
    assert_eq!(p.entries.len(), PROFILE_ENTRIES);
    for (i, e) in p.entries.iter().enumerate() {
        assert_eq!(e.name, PROFILE_NAMES[i]);
        assert_eq!((e.cycles, e.count), (profile_cycles(i), i as u32 + 1));
    }
    let syn = p.get("syn").unwrap();
    assert_eq!(
        (syn.group, syn.cycles, syn.count),
        (ProfileGroup::Handler, 3, 1)
    );
    let flow_cmd = p.get("flow_cmd").unwrap();
    assert_eq!(flow_cmd.group, ProfileGroup::Step);
    assert_eq!(flow_cmd.count, 21);
    assert_eq!(
        flow_cmd.mean_cycles(),
        Some(profile_cycles(20) as f64 / 21.0)
    );
    assert_eq!(p.get("other").unwrap().group, ProfileGroup::Handler);
    assert_eq!(p.get("punt_read").unwrap().group, ProfileGroup::Step);
    assert_eq!(p.handlers().count(), 18);
    assert_eq!(p.steps().count(), 14);
    assert_eq!(
        p.handler_cycles(),
        (0..PROFILE_HANDLERS).map(profile_cycles).sum::<u64>()
    );
    assert!(p.get("nothing").is_none());
    // Differences between two readings.
    let d = p.since(&p);
    assert!(d.entries.iter().all(|e| e.cycles == 0 && e.count == 0));
    let table = p.to_string();
    assert!(table.contains("server_synack"), "{table}");
    assert!(table.contains("-- steps"), "{table}");
    let zero = ProfileEntry { count: 0, ..*syn };
    assert_eq!(zero.mean_cycles(), None);

    // Step timing on and off: the "past the end" entry, so no snapshot is taken.
    let (mut card, log) = card_with(|_, _| (status::OK, vec![PROFILE_ENTRIES as u32]));
    card.flow_manager().flow_profile_steps(true).unwrap();
    card.flow_manager().flow_profile_steps(false).unwrap();
    let reqs: Vec<(u32, Vec<u32>)> = log.lock().unwrap().clone();
    assert_eq!(
        reqs,
        [
            (cmd::FLOW_PROFILE, vec![32, 1]),
            (cmd::FLOW_PROFILE, vec![32, 0])
        ]
    );
}

#[test]
fn flow_profile_rejects_malformed_answers() {
    let check = |what: &str, respond: fn(u32, &[u32]) -> (u32, Vec<u32>), expect: &str| {
        let (mut card, _) = card_with(respond);
        let e = card.flow_manager().flow_profile().unwrap_err();
        assert!(
            matches!(
                e,
                DriverError::MailboxResponse { .. } | DriverError::MailboxStatus { .. }
            ),
            "{what}: {e}"
        );
        assert!(e.to_string().contains(expect), "{what}: {e}");
    };
    check(
        "another entry count",
        |_, req| {
            (
                status::OK,
                profile_page(req[0] as usize, 27, profile_cycles),
            )
        },
        "27 profile entries",
    );
    check(
        "a short page",
        |_, req| {
            let mut w = profile_page(req[0] as usize, PROFILE_ENTRIES, profile_cycles);
            if req[0] == 10 {
                w.pop();
            }
            (status::OK, w)
        },
        "from entry 10",
    );
    check("no words", |_, _| (status::OK, vec![]), "FLOW_PROFILE");
    check(
        "firmware before API 3",
        |_, _| (status::UNKNOWN_COMMAND, vec![]),
        "UNKNOWN_COMMAND",
    );
    // Decoding pages that miss the end.
    let pages: Vec<Vec<u32>> = (0..2)
        .map(|k| profile_page(5 * k, PROFILE_ENTRIES, profile_cycles))
        .collect();
    let e = FlowProfile::from_pages(&pages).unwrap_err();
    assert!(e.to_string().contains("10 of 32 entries"), "{e}");
}

#[test]
fn service_get_decodes_both_modes_and_absence() {
    let (mut card, log) = card_answering(status::OK, vec![1, 0xC0A8_0001, 443, 2, 5]);
    let s = card.flow_manager().service_get(6).unwrap().unwrap();
    assert_eq!(only_request(&log), (cmd::SVC_GET, vec![6]));
    assert_eq!(
        s,
        ServiceInfo {
            index: 6,
            vip: VIP,
            port: 443,
            mode: ServiceMode::L7 { fallback_pool: 5 }
        }
    );
    let s = decode_service(1, &[1, 0x0A00_0001, 80, 1, 7])
        .unwrap()
        .unwrap();
    assert_eq!(s.mode, ServiceMode::L4 { pool: 7 });
    assert_eq!(s.vip, Ipv4Addr::new(10, 0, 0, 1));
    assert_eq!(decode_service(1, &[0, 0, 0, 0, 0]).unwrap(), None);
    for bad in [[1, 1, 80, 3, 0], [1, 1, 80, 1, 8], [1, 1, 0x1_0000, 1, 0]] {
        let e = decode_service(0, &bad).unwrap_err();
        assert!(e.to_string().contains("SVC_GET"), "{e}");
    }
    assert!(decode_service(0, &[1, 1, 80, 1]).is_err(), "short");
    let (mut card, log) = ok_card();
    assert_invalid(
        card.flow_manager().service_get(8).map(drop),
        &log,
        "index",
        "0..8",
    );
}

#[test]
fn pool_get_decodes_scheduler_flags_and_persistence() {
    let (mut card, log) = card_answering(status::OK, vec![1, 10, 0b101, 360, 0xFFFF_FF00, 3]);
    let p = card.flow_manager().pool_get(7).unwrap().unwrap();
    assert_eq!(only_request(&log), (cmd::POOL_GET, vec![7]));
    assert_eq!(
        p,
        PoolInfo {
            pool: 7,
            config: PoolConfig {
                scheduler: Scheduler::Mh,
                fallback: true,
                hash_port: false,
                expire_quiescent: true,
                persistence: Some((360, Ipv4Addr::new(255, 255, 255, 0))),
            },
            servers: 3,
        }
    );
    // POOL_GET answers with the words POOL_SET takes.
    assert_eq!(pool_words(7, &p.config)[1..], [10, 0b101, 360, 0xFFFF_FF00]);
    let p = decode_pool(0, &[1, 3, 0b010, 0, 0xFFFF_FFFF, 0])
        .unwrap()
        .unwrap();
    assert_eq!(
        p.config,
        PoolConfig {
            hash_port: true,
            ..PoolConfig::new(Scheduler::Wlc)
        }
    );
    assert_eq!(decode_pool(0, &[0; 6]).unwrap(), None);
    assert!(
        decode_pool(0, &[1, 14, 0, 0, 0, 0]).is_err(),
        "scheduler 14"
    );
    let (mut card, log) = ok_card();
    assert_invalid(
        card.flow_manager().pool_get(8).map(drop),
        &log,
        "pool",
        "0..8",
    );
}

#[test]
fn server_get_decodes_configuration_and_counts() {
    let words = vec![
        0b11,
        3,
        0x0A00_0002,
        8080,
        0x0211_2233,
        0x4455_0000,
        100,
        1000,
        750,
        7,
        12,
        999,
    ];
    let (mut card, log) = card_answering(status::OK, words);
    let s = card.flow_manager().server_get(63).unwrap().unwrap();
    assert_eq!(only_request(&log), (cmd::SERVER_GET, vec![63]));
    let server = RealServer {
        pool: 3,
        rs: 63,
        addr: Ipv4Addr::new(10, 0, 0, 2),
        port: 8080,
        mac: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55],
        weight: 100,
        upper_threshold: 1000,
        lower_threshold: 750,
    };
    assert_eq!(s.server, server);
    // The configuration words are those SERVER_SET takes.
    assert_eq!(
        server_words(&server)[1..],
        [0x0A00_0002, 8080, 0x0211_2233, 0x4455_0000, 100, 1000, 750]
    );
    assert_eq!(
        s.stats,
        ServerStats {
            active: 7,
            inactive: 12,
            weight: 100,
            present: true,
            overloaded: true,
            pool: 3,
            connections: 999,
        }
    );
    assert_eq!(decode_server(1, &[0; 12]).unwrap(), None);
    let (mut card, log) = ok_card();
    assert_invalid(
        card.flow_manager().server_get(64).map(drop),
        &log,
        "rs",
        "0..64",
    );
}

#[test]
fn config_map_lists_indexes_and_drives_the_listings() {
    let m = ConfigMap::from_words(&[0b1000_0001, 0b10, 1 << 31, 1 << 31]).unwrap();
    assert_eq!(m.service_indexes().collect::<Vec<_>>(), [0, 7]);
    assert_eq!(m.pool_indexes().collect::<Vec<_>>(), [1]);
    assert_eq!(m.server_indexes().collect::<Vec<_>>(), [31, 63]);
    assert_eq!(ConfigMap::from_words(&[0; 3]), None);
    let (mut card, log) = card_with(|c, w| match c {
        cmd::CONFIG_MAP => (status::OK, vec![0b101, 0b1, 0b11, 0]),
        cmd::SVC_GET => (status::OK, vec![1, 0x0A00_0001 + w[0], 80, 1, 0]),
        cmd::POOL_GET => (status::OK, vec![1, 0, 0, 0, u32::MAX, 2]),
        cmd::SERVER_GET => (
            status::OK,
            vec![1, 0, 0x0A00_0100 + w[0], 80, 0, 0, 1, 0, 0, 0, 0, 0],
        ),
        _ => (status::UNKNOWN_COMMAND, vec![]),
    });
    let services = card.flow_manager().services().unwrap();
    assert_eq!(services.iter().map(|s| s.index).collect::<Vec<_>>(), [0, 2]);
    assert_eq!(services[1].vip, Ipv4Addr::new(10, 0, 0, 3));
    assert_eq!(card.flow_manager().pools().unwrap().len(), 1);
    let servers = card.flow_manager().servers().unwrap();
    assert_eq!(servers[1].server.addr, Ipv4Addr::new(10, 0, 1, 1));
    let requests: Vec<u32> = log.lock().unwrap().iter().map(|r| r.0).collect();
    assert_eq!(
        requests,
        [
            cmd::CONFIG_MAP,
            cmd::SVC_GET,
            cmd::SVC_GET,
            cmd::CONFIG_MAP,
            cmd::POOL_GET,
            cmd::CONFIG_MAP,
            cmd::SERVER_GET,
            cmd::SERVER_GET
        ]
    );
}

#[test]
fn timeouts_and_zero() {
    let ms: Vec<u32> = (0..12).map(|i| 1000 * (i + 1)).collect();
    let (mut card, log) = card_answering(status::OK, ms);
    let t = card.flow_manager().timeouts().unwrap();
    assert_eq!(only_request(&log), (cmd::TIMEOUT_GET, vec![]));
    assert_eq!(t.len(), 12);
    assert_eq!(t[1], (TcpTimeoutState::Established, Duration::from_secs(2)));
    assert_eq!(t[10], (TcpTimeoutState::Synack, Duration::from_secs(11)));
    assert_eq!(t[11], (TcpTimeoutState::Linger, Duration::from_secs(12)));
    // 11 words (the IPVS states without LINGER) are too few.
    let (mut card, _) = card_answering(status::OK, vec![0; 11]);
    assert!(card.flow_manager().timeouts().is_err(), "short answer");
    let (mut card, log) = ok_card();
    card.flow_manager().zero_counters().unwrap();
    assert_eq!(only_request(&log), (cmd::ZERO, vec![]));
}

/// FLOW_GET words of a spliced flow in slot `slot`.
fn flow_words(slot: u16) -> Vec<u32> {
    vec![
        4 | u32::from(entry_flags::ACTIVE | 0b011) << 8 | 1 << 16 | 2 << 24,
        0x0A00_0002,
        40000 << 16 | 80,
        0xC0A8_0001,
        0x0A01_0005,
        8080 << 16 | (0x4000 + u32::from(slot)),
        0x0A01_0001,
        899_500,
        500,
        10,
        20,
        0x5678_9ABC,
        0x1234,
        0xBA98_7654,
        0xFEDC,
        1,
    ]
}

#[test]
fn flow_words_decode_into_socket_addresses_and_counters() {
    let f = FlowInfo::from_words(7, &flow_words(7)).unwrap();
    assert_eq!(
        f,
        FlowInfo {
            slot: 7,
            flow_state: FlowState::Spliced,
            state: TcpTimeoutState::Established,
            flags: 0x83,
            real_server: Some(1),
            service: Some(2),
            client: "10.0.0.2:40000".parse().unwrap(),
            vip: "192.168.0.1:80".parse().unwrap(),
            server: "10.1.0.5:8080".parse().unwrap(),
            local: "10.1.0.1:16391".parse().unwrap(),
            expires_in: Some(Duration::from_millis(899_500)),
            idle: Duration::from_millis(500),
            timeout_class: Some(TcpTimeoutState::Established),
            packets_to_server: 10,
            packets_to_client: 20,
            bytes_to_server: 0x1234_5678_9ABC,
            bytes_to_client: 0xFEDC_BA98_7654,
        }
    );
    assert!(f.active() && !f.reset() && !f.fin_from_client() && !f.fin_from_server());
    // A flow in its handshake: no server, no real server, no timeout class.
    let mut w = flow_words(3);
    w[0] = 1 | 0xFF << 16 | 0xFF << 24;
    w[4] = 0;
    w[5] = 0;
    w[6] = 0;
    w[7] = u32::MAX;
    w[15] = 0xFF;
    let f = FlowInfo::from_words(3, &w).unwrap();
    assert_eq!(f.state, TcpTimeoutState::SynRecv);
    assert_eq!(
        (f.real_server, f.service, f.timeout_class),
        (None, None, None)
    );
    assert_eq!(f.server, SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0));
    assert_eq!(f.expires_in, None);
    // A closed flow whose both FINs were acknowledged: TIME_WAIT as IPVS names it, in the
    // card's LINGER class (index 11).
    let mut l = flow_words(4);
    l[0] = 5 | u32::from(entry_flags::FIN_CLIENT | entry_flags::FIN_SERVER) << 8 | 1 << 16;
    l[7] = 1500;
    l[15] = 11;
    let f = FlowInfo::from_words(4, &l).unwrap();
    assert_eq!(
        (f.state, f.timeout_class, f.expires_in),
        (
            TcpTimeoutState::TimeWait,
            Some(TcpTimeoutState::Linger),
            Some(Duration::from_millis(1500))
        )
    );
    w[0] = 9;
    assert!(FlowInfo::from_words(3, &w).is_err(), "unknown state");
    assert!(FlowInfo::from_words(3, &w[..15]).is_err(), "short");
}

#[test]
fn ipvs_states_follow_the_close_flags() {
    use entry_flags::{ACTIVE, FIN_CLIENT, FIN_SERVER, RST};
    use TcpTimeoutState as T;
    let cases = [
        (FlowState::Handshake, 0, T::SynRecv),
        (FlowState::Request, 0, T::Established),
        (FlowState::Connecting, 0, T::SynSent),
        (FlowState::Spliced, ACTIVE | 3, T::Established),
        (FlowState::Closing, FIN_CLIENT, T::FinWait),
        (FlowState::Closing, FIN_SERVER, T::CloseWait),
        (FlowState::Closing, FIN_CLIENT | FIN_SERVER, T::TimeWait),
        (FlowState::Closing, FIN_CLIENT | RST, T::Close),
        (FlowState::Closing, 0, T::FinWait),
        (FlowState::Free, 0, T::None),
    ];
    for (state, flags, want) in cases {
        assert_eq!(ipvs_state(state, flags), want, "{state:?} {flags:#x}");
    }
}

#[test]
fn flows_pages_through_the_list_and_skips_ended_flows() {
    // Slots 1..=20 in use; 5 ends between FLOW_LIST and FLOW_GET.
    let (mut card, log) = card_with(|c, w| match c {
        cmd::FLOW_LIST => match w[0] {
            0 => (status::OK, [16].into_iter().chain(1..=15).collect()),
            16 => (
                status::OK,
                [FLOW_LIST_DONE].into_iter().chain(16..=20).collect(),
            ),
            _ => (status::BAD_ARGUMENT, vec![]),
        },
        cmd::FLOW_GET if w[0] == 5 => (status::NOT_FOUND, vec![]),
        cmd::FLOW_GET => (status::OK, flow_words(w[0] as u16)),
        _ => (status::UNKNOWN_COMMAND, vec![]),
    });
    let mut progress = Vec::new();
    let flows = card.flow_manager().flows(|n| progress.push(n)).unwrap();
    assert_eq!(
        flows.iter().map(|f| f.slot).collect::<Vec<_>>(),
        (1..=20).filter(|&s| s != 5).collect::<Vec<u16>>()
    );
    assert_eq!(progress, (1..=19).collect::<Vec<_>>());
    assert_eq!(flows[0].local.port(), 0x4001);
    let log = log.lock().unwrap();
    assert_eq!(log[0], (cmd::FLOW_LIST, vec![0]));
    assert_eq!(log[16], (cmd::FLOW_LIST, vec![16]));
    assert_eq!(log.len(), 2 + 20);
    drop(log);
    // A cursor that does not advance is an error, not an endless loop.
    let (mut card, _) = card_answering(status::OK, vec![0]);
    assert!(card.flow_manager().flow_list_page(0).is_err());
    // Other FLOW_GET errors are reported.
    let (mut card, _) = card_answering(status::BAD_ARGUMENT, vec![]);
    assert!(card.flow_manager().flow_get(1).is_err());
}

/// A card whose firmware keeps the rule-set record with the firmware's own store.
fn ruleset_card() -> (Card, RequestLog) {
    use splicenic_fw_logic::splicer::record::{RecordError, RulesetStore};
    let buf = Box::leak(Box::new([0u32; record::RULESET_WORDS]));
    let mut store = RulesetStore::new(buf);
    let code = |e: RecordError| match e {
        RecordError::BadArgument => status::BAD_ARGUMENT,
        RecordError::NoSpace => status::NO_SPACE,
        RecordError::NotFound => status::NOT_FOUND,
        RecordError::Busy => status::BUSY,
    };
    card_with(move |c, w| match c {
        cmd::RULESET_PUT => match store.put(w[0], &w[1..]) {
            Ok(()) => (status::OK, vec![]),
            Err(e) => (code(e), vec![]),
        },
        cmd::RULESET_COMMIT => match store.commit(w[0], w[1], w[2]) {
            Ok(()) => (status::OK, vec![]),
            Err(e) => (code(e), vec![]),
        },
        cmd::RULESET_GET => {
            let mut out = [0u32; 16];
            match store.get(w[0], &mut out) {
                Ok(n) => (status::OK, out[..n].to_vec()),
                Err(e) => (code(e), vec![]),
            }
        }
        cmd::RULESET_INFO => {
            let i = store.info();
            let words = vec![
                i.len,
                i.generation,
                i.hash,
                i.state as u32,
                i.loaded_by,
                16384,
            ];
            (status::OK, words)
        }
        _ => (status::UNKNOWN_COMMAND, vec![]),
    })
}

#[test]
fn ruleset_record_round_trips_through_the_firmware_store() {
    let (mut card, log) = ruleset_card();
    assert_eq!(card.flow_manager().ruleset_record_get().unwrap(), None);
    for len in [0usize, 1, 3, 4, 5, 60, 61, 1000, RULESET_RECORD_MAX] {
        let blob: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        card.flow_manager()
            .ruleset_record_put_by(&blob, 42)
            .unwrap();
        assert_eq!(
            card.flow_manager().ruleset_record_get().unwrap(),
            Some(blob.clone()),
            "{len}"
        );
        let info = card.flow_manager().ruleset_record_info().unwrap();
        assert_eq!(
            (info.len as usize, info.hash, info.loaded_by),
            (len, record_hash(&blob), 42)
        );
        assert_eq!(info.state, RulesetState::Valid);
    }
    assert_eq!(
        card.flow_manager()
            .ruleset_record_info()
            .unwrap()
            .generation,
        9
    );
    // The request words: offset, then up to 15 data words; the commit's length and hash.
    log.lock().unwrap().clear();
    card.flow_manager().ruleset_record_put(b"abcdefg").unwrap();
    assert_eq!(
        *log.lock().unwrap(),
        [
            (cmd::RULESET_PUT, vec![0, 0x6463_6261, 0x0067_6665]),
            (cmd::RULESET_COMMIT, vec![7, record_hash(b"abcdefg"), 0]),
        ]
    );
    assert_eq!(ruleset_put_requests(&[]), [vec![0]]);
    assert_eq!(ruleset_put_requests(&[0; 64])[1][0], 15);
    let e = card
        .flow_manager()
        .ruleset_record_put(&vec![0; RULESET_RECORD_MAX + 1])
        .unwrap_err();
    assert!(matches!(e, DriverError::InvalidArgument { .. }), "{e}");
    // FNV-1a test vector.
    assert_eq!(record_hash(b"foobar"), 0xBF9C_F968);
}

#[test]
fn ruleset_record_get_checks_the_hash_and_reports_busy() {
    let (mut card, _) = card_with(|c, w| match c {
        cmd::RULESET_INFO => (status::OK, vec![4, 1, 0x1234_5678, 1, 0, 16384]),
        cmd::RULESET_GET if w[0] == 0 => (status::OK, vec![0x6463_6261]),
        _ => (status::OK, vec![]),
    });
    let e = card.flow_manager().ruleset_record_get().unwrap_err();
    assert!(e.to_string().contains("hash"), "{e}");
    let (mut card, _) = card_with(|c, _| match c {
        cmd::RULESET_INFO => (status::OK, vec![0, 1, 0, 2, 0, 16384]),
        _ => (status::BUSY, vec![]),
    });
    let e = card.flow_manager().ruleset_record_get().unwrap_err();
    assert!(
        matches!(e, DriverError::MailboxStatus { status: s, .. } if s == status::BUSY),
        "{e}"
    );
}

/// The firmware's capture ring, its CAPTURE_INFO words shared with the fake firmware.
struct RingModel {
    ring: capture::CaptureRing<'static>,
    info: Arc<Mutex<VecDeque<Vec<u32>>>>,
}

const RING_ADDR: u32 = DMEM_BASE + 0x1000;

fn info_words(i: &capture::CaptureInfo) -> Vec<u32> {
    vec![
        u32::from(i.enabled),
        i.addr,
        i.size,
        i.wpos,
        i.tail,
        i.captured,
        i.overwritten,
        i.snaplen,
        i.cycles as u32,
        (i.cycles >> 32) as u32,
    ]
}

impl RingModel {
    /// Pushes `n` frames of `len` bytes (the byte pattern is the frame number).
    fn push(&mut self, first: u32, n: u32, len: usize) {
        for i in first..first + n {
            let port = if i % 2 == 0 {
                FwPort::Client
            } else {
                FwPort::Server
            };
            let f = vec![i as u8; len];
            self.ring.push(port, &f, len + 4, u64::from(i) << 32 | 7);
        }
    }

    /// Copies the ring into the card's DMEM and queues `repeat` CAPTURE_INFO answers.
    fn publish(&self, card: &mut Card, repeat: usize) {
        let base = card.info().dmem_window + u64::from(RING_ADDR - DMEM_BASE);
        card.bar_mut().write_block(base, self.ring.words()).unwrap();
        let w = info_words(&self.ring.info());
        let mut q = self.info.lock().unwrap();
        for _ in 0..repeat {
            q.push_back(w.clone());
        }
    }
}

fn capture_card() -> (Card, RingModel) {
    let buf = Box::leak(Box::new([0u32; capture::CAPTURE_WORDS]));
    let mut ring = capture::CaptureRing::new(buf, RING_ADDR);
    ring.set(true, 0);
    let info: Arc<Mutex<VecDeque<Vec<u32>>>> = Arc::default();
    let answers = Arc::clone(&info);
    let (card, _) = card_with(move |c, _| match c {
        cmd::CAPTURE_INFO => match answers.lock().unwrap().pop_front() {
            Some(w) => (status::OK, w),
            None => (status::BUSY, vec![]),
        },
        _ => (status::OK, vec![]),
    });
    (card, RingModel { ring, info })
}

fn check_frames(frames: &[CapturedFrame], numbers: std::ops::Range<u32>, len: usize) {
    assert_eq!(frames.len(), numbers.len());
    for (f, i) in frames.iter().zip(numbers) {
        assert_eq!(f.data, vec![i as u8; len], "frame {i}");
        assert_eq!(f.wire_len, len + 4);
        assert_eq!(f.timestamp_cycles, u64::from(i) << 32 | 7);
        assert_eq!(
            f.port,
            if i % 2 == 0 {
                Port::Client
            } else {
                Port::Server
            }
        );
    }
}

#[test]
fn capture_reader_returns_new_frames_across_the_ring_end() {
    let (mut card, mut m) = capture_card();
    m.push(0, 3, 100);
    m.publish(&mut card, 1);
    let mut cursor = card.flow_manager().capture_reader().unwrap();
    assert_eq!(
        (cursor.pos, cursor.record),
        (3 * 112, 3),
        "starts at the write position"
    );
    // Enough frames to wrap the 32 KiB ring once, read in two batches.
    m.push(3, 200, 100);
    m.publish(&mut card, 2);
    check_frames(
        &card.flow_manager().capture_read(&mut cursor).unwrap(),
        3..203,
        100,
    );
    m.push(203, 150, 100);
    m.publish(&mut card, 2);
    check_frames(
        &card.flow_manager().capture_read(&mut cursor).unwrap(),
        203..353,
        100,
    );
    assert_eq!(cursor.lost, 0);
    assert_eq!(cursor.record, 353);
    // Nothing new: one CAPTURE_INFO, no frames.
    m.publish(&mut card, 1);
    assert!(card
        .flow_manager()
        .capture_read(&mut cursor)
        .unwrap()
        .is_empty());
}

#[test]
fn capture_reader_counts_frames_the_writer_overwrote() {
    let (mut card, mut m) = capture_card();
    m.publish(&mut card, 1);
    let mut cursor = card.flow_manager().capture_reader().unwrap();
    // 500 frames of 1012 bytes: the ring keeps the last 32.
    m.push(0, 500, 1000);
    m.publish(&mut card, 2);
    let frames = card.flow_manager().capture_read(&mut cursor).unwrap();
    let kept = m.ring.info().captured - m.ring.info().overwritten;
    assert_eq!(kept, 32);
    check_frames(&frames, 500 - kept..500, 1000);
    assert_eq!(cursor.lost, u64::from(500 - kept));
    // The writer laps the reader while it reads: the ring holds frames 498..530 when
    // the first CAPTURE_INFO answers, five more frames overwrite 498..503 before the
    // second, so the reader drops 500..503 (their bytes may be torn) and keeps the rest.
    m.push(500, 30, 1000);
    m.publish(&mut card, 1);
    m.push(530, 5, 1000);
    m.publish(&mut card, 1);
    let frames = card.flow_manager().capture_read(&mut cursor).unwrap();
    check_frames(&frames, 503..530, 1000);
    assert_eq!(cursor.lost, u64::from(500 - kept) + 3);
    m.publish(&mut card, 2);
    check_frames(
        &card.flow_manager().capture_read(&mut cursor).unwrap(),
        530..535,
        1000,
    );
}

#[test]
fn capture_info_is_checked_against_the_dmem_window() {
    let mut w = info_words(&capture::CaptureInfo {
        enabled: true,
        addr: DMEM_BASE + 0x3_F000,
        size: 0x2000,
        ..Default::default()
    });
    let (mut card, _) = card_answering(status::OK, w.clone());
    let e = card.flow_manager().capture_info().unwrap_err();
    assert!(e.to_string().contains("DMEM"), "{e}");
    w[1] = DMEM_BASE;
    w[8] = 3000;
    w[5] = 10;
    let (mut card, log) = card_answering(status::OK, w);
    let i = card.flow_manager().capture_info().unwrap();
    assert_eq!(i.cycles_per_frame(), Some(300.0));
    card.flow_manager().capture_set(true, 128).unwrap();
    assert_eq!(log.lock().unwrap()[1], (cmd::CAPTURE_SET, vec![1, 128]));
    let (mut card, log) = ok_card();
    assert_invalid(
        card.flow_manager().capture_set(true, 0x1_0000),
        &log,
        "snaplen",
        "0..=65535",
    );
}

#[test]
fn firmware_refusals_name_the_status() {
    for (code, name) in [
        (status::NOT_FOUND, "NOT_FOUND"),
        (status::BUSY, "BUSY"),
        (status::NO_SPACE, "NO_SPACE"),
        (status::NO_DATAPATH, "NO_DATAPATH"),
    ] {
        let (mut card, _) = card_answering(code, vec![]);
        let e = card.flow_manager().pool_delete(1).unwrap_err();
        assert!(
            matches!(e, DriverError::MailboxStatus { status, .. } if status == code),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            format!("mailbox command POOL_DEL failed: status {code} ({name})")
        );
    }
}

#[test]
fn tcp_stats_decodes_every_word_in_order_and_refuses_a_short_answer() {
    let (mut card, log) = card_with(|c, req| {
        assert_eq!(c, cmd::TCP_STATS);
        match req {
            [0] => (status::OK, (1..=16).collect()),
            [16] => (status::OK, (17..=26).collect()),
            _ => panic!("TCP_STATS from {req:?}"),
        }
    });
    let t = card.flow_manager().tcp_stats().unwrap();
    assert_eq!(
        t,
        TcpStats {
            rst_pending: 1,
            rst_restored: 2,
            rst_freed_silent: 3,
            rst_freed_receiver: 4,
            rst_untracked: 5,
            probes: 6,
            syn_challenged: 7,
            challenge_limited: 8,
            syn_dropped: 9,
            tw_replaced: 10,
            hw_cookie_acks: 11,
            rst_pending_now: 12,
            engine_new: 13,
            engine_lost: 14,
            engine_stale: 15,
            gen_stale: 16,
            early_held: 17,
            early_kept: 18,
            early_results: 19,
            early_results_dropped: 20,
            inline_timeouts: 21,
            head_replays: 22,
            head_replays_fw: 23,
            absorbed: 24,
            absorbed_found: 25,
            absorb_disarmed: 26,
        }
    );
    assert_eq!(log.lock().unwrap().len(), 2, "two pages of 16 and 10 words");
    let (mut card, _) = card_with(|_, _| (status::OK, vec![0; 15]));
    let e = card.flow_manager().tcp_stats().unwrap_err();
    assert!(e.to_string().contains("TCP_STATS"), "{e}");
}
