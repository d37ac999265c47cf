//! The listings compared with golden files written by hand from ipvsadm's format strings
//! (tools/nicctl/tests/golden/ipvs/).

use std::time::Duration;

use super::*;
use crate::ipvs::args::{parse, parse_restore, IpvsCommand};
use crate::ipvs::memory::{apply, MemTable};
use crate::ipvs::model::{MacAddr, Persistence, SchedFlags, Scheduler, TcpState};

macro_rules! golden {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/golden/ipvs/",
            $name
        ))
    };
}

fn sa(s: &str) -> SocketAddrV4 {
    s.parse().unwrap()
}

fn counters(v: [u64; 5]) -> Counters {
    Counters {
        conns: v[0],
        inpkts: v[1],
        outpkts: v[2],
        inbytes: v[3],
        outbytes: v[4],
    }
}

fn rates(v: [u64; 5]) -> Rates {
    Rates {
        cps: v[0],
        inpps: v[1],
        outpps: v[2],
        inbps: v[3],
        outbps: v[4],
    }
}

#[allow(clippy::too_many_arguments)]
fn server(
    addr: &str,
    weight: u32,
    active: u32,
    inactive: u32,
    persist: u32,
    upper: u32,
    lower: u32,
    stats: [u64; 5],
    rate: [u64; 5],
) -> ServerEntry {
    ServerEntry {
        addr: sa(addr),
        mac: None,
        weight,
        active,
        inactive,
        persist,
        upper,
        lower,
        stats: counters(stats),
        rates: rates(rate),
    }
}

/// The table the golden files show, deliberately out of order (the listing sorts).
fn fixture() -> Snapshot {
    let z = [0; 5];
    let mut r11 = server(
        "192.168.1.11:8080",
        0,
        0,
        1,
        0,
        0,
        0,
        [345, 1, 1, 1, 1],
        [123_456_789, 0, 0, 0, 0],
    );
    r11.mac = Some("02:00:5e:10:00:01".parse::<MacAddr>().unwrap());
    Snapshot {
        services: vec![
            ServiceEntry {
                vip: sa("10.0.0.2:443"),
                sched: Scheduler::Sh,
                persistent: None,
                sched_flags: SchedFlags::FLAG1.union(SchedFlags::FLAG2),
                stats: counters([
                    0,
                    999_999_999,
                    100_000_000,
                    123_456_789_012_345,
                    100_000_000_000_000,
                ]),
                rates: rates(z),
                servers: vec![
                    server("192.168.1.21:443", 1, 0, 0, 0, 0, 0, z, z),
                    server("192.168.1.20:443", 2, 7, 2, 0, 0, 0, [7, 0, 0, 0, 0], z),
                ],
            },
            ServiceEntry {
                vip: sa("10.0.0.1:80"),
                sched: Scheduler::Wlc,
                persistent: Some(Persistence {
                    timeout: 360,
                    netmask: Ipv4Addr::new(255, 255, 255, 0),
                }),
                sched_flags: SchedFlags::default(),
                stats: counters([
                    12_345,
                    123_456_789,
                    98_765_432,
                    12_345_678_901,
                    98_765_432_109_876,
                ]),
                rates: rates([25, 1234, 2345, 123_456_789, 99_999_999]),
                servers: vec![
                    server(
                        "192.168.1.10:8080",
                        1,
                        12,
                        3,
                        4,
                        100,
                        50,
                        [
                            12_000,
                            100_000_000,
                            99_999_999,
                            1_000_000_000,
                            99_999_999_999,
                        ],
                        [20, 1000, 2000, 100_000_000, 5],
                    ),
                    r11,
                ],
            },
            ServiceEntry {
                vip: sa("10.0.0.1:8080"),
                sched: Scheduler::Rr,
                persistent: Some(Persistence::new(600)),
                sched_flags: SchedFlags::default(),
                stats: counters(z),
                rates: rates(z),
                servers: vec![],
            },
        ],
        conns: vec![
            ConnEntry {
                expire: Duration::from_secs(899),
                state: TcpState::Established,
                client: sa("203.0.113.7:51234"),
                vaddr: sa("10.0.0.1:80"),
                server: sa("192.168.1.10:8080"),
            },
            ConnEntry {
                expire: Duration::from_millis(65_999),
                state: TcpState::FinWait,
                client: sa("198.51.100.23:40000"),
                vaddr: sa("10.0.0.2:443"),
                server: sa("192.168.1.20:443"),
            },
            ConnEntry {
                expire: Duration::from_secs(6001),
                state: TcpState::TimeWait,
                client: sa("192.0.2.1:1025"),
                vaddr: sa("10.0.0.1:80"),
                server: sa("192.168.1.11:8080"),
            },
            ConnEntry {
                expire: Duration::from_millis(400),
                state: TcpState::SynRecv,
                client: sa("192.0.2.2:2000"),
                vaddr: sa("10.0.0.2:443"),
                server: sa("192.168.1.21:443"),
            },
        ],
        timeouts: Timeouts::default(),
        table_size: 4096,
    }
}

/// What `nicctl ipvsadm <line>` prints for the fixture.
fn run(line: &str) -> Result<String, FormatError> {
    let args: Vec<&str> = line.split_whitespace().collect();
    let snap = fixture();
    match parse(&args).unwrap() {
        IpvsCommand::List(o) => list(&snap, &o),
        IpvsCommand::Save { .. } => Ok(save(&snap)),
        c => panic!("{c:?}"),
    }
}

/// Compare line by line first, for a readable failure.
fn same(got: &str, want: &str, what: &str) {
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "{what}: line {}", i + 1);
    }
    assert_eq!(got, want, "{what}");
}

#[test]
fn listing_matches_ipvsadm() {
    same(&run("-L -n").unwrap(), golden!("list_numeric.txt"), "-L -n");
    // Names are never resolved: -L is -L -n.
    same(&run("-L").unwrap(), golden!("list_numeric.txt"), "-L");
    same(
        &run("-Ln --sort").unwrap(),
        golden!("list_numeric.txt"),
        "--sort",
    );
    same(
        &run("-Ln --nosort").unwrap(),
        golden!("list_nosort.txt"),
        "--nosort",
    );
}

#[test]
fn one_service_has_no_version_line() {
    same(
        &run("-L -n -t 10.0.0.2:443").unwrap(),
        golden!("list_service.txt"),
        "-L -t",
    );
    assert_eq!(
        run("-L -n -t 10.0.0.9:80"),
        Err(FormatError::NoSuchService(sa("10.0.0.9:80")))
    );
    assert_eq!(
        FormatError::NoSuchService(sa("10.0.0.9:80")).to_string(),
        "No such service"
    );
}

#[test]
fn stats_rate_exact() {
    same(
        &run("-Ln --stats").unwrap(),
        golden!("list_stats.txt"),
        "--stats",
    );
    same(
        &run("-Ln --stats --exact").unwrap(),
        golden!("list_stats_exact.txt"),
        "--stats --exact",
    );
    same(
        &run("-Ln --rate").unwrap(),
        golden!("list_rate.txt"),
        "--rate",
    );
    // --stats wins over --rate and --thresholds, as in print_title.
    same(
        &run("-Ln --rate --stats --thresholds").unwrap(),
        golden!("list_stats.txt"),
        "--stats --rate",
    );
}

#[test]
fn thresholds_and_persistent_conn() {
    same(
        &run("-Ln --thresholds").unwrap(),
        golden!("list_thresholds.txt"),
        "--thresholds",
    );
    same(
        &run("-Ln --persistent-conn").unwrap(),
        golden!("list_persistent_conn.txt"),
        "--persistent-conn",
    );
}

#[test]
fn connections_and_timeout() {
    same(&run("-Lnc").unwrap(), golden!("conns.txt"), "-c");
    same(
        &run("-Lnc --persistent-conn").unwrap(),
        golden!("conns_persistent_conn.txt"),
        "-c --persistent-conn",
    );
    same(
        &run("-L --timeout").unwrap(),
        golden!("timeout.txt"),
        "--timeout",
    );
    assert_eq!(
        connections(&[], false),
        "IPVS connection entries\npro expire state       source             virtual            destination\n"
    );
}

#[test]
fn save_matches_and_round_trips() {
    same(&run("-S -n").unwrap(), golden!("save.txt"), "-S");
    same(&run("-S").unwrap(), golden!("save.txt"), "-S");
    // -S output -> -R -> the same table -> the same -S output.
    let saved = save(&fixture());
    let mut t = MemTable::new();
    for c in parse_restore(&saved).unwrap() {
        apply(&mut t, &c).unwrap();
    }
    let again = save(&t.snapshot(4096));
    same(&again, &saved, "round trip");
    // And the restored settings equal the fixture's.
    for s in fixture().services {
        let r = t.services.iter().find(|x| x.vip == s.vip).unwrap();
        assert_eq!(
            (r.sched, r.persistent, r.sched_flags),
            (s.sched, s.persistent, s.sched_flags)
        );
        for d in &s.servers {
            let rd = r.servers.iter().find(|x| x.addr == d.addr).unwrap();
            assert_eq!(
                (rd.weight, rd.upper, rd.lower, rd.mac),
                (d.weight, d.upper, d.lower, d.mac)
            );
        }
    }
    assert_eq!(save(&Snapshot::default()), "");
}

#[test]
fn empty_table() {
    let snap = Snapshot {
        table_size: 1 << 20,
        ..Snapshot::default()
    };
    assert_eq!(
        list(&snap, &ListOptions::default()).unwrap(),
        "IP Virtual Server version 1.2.1 (size=1048576)\n\
         Prot LocalAddress:Port Scheduler Flags\n  \
         -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n"
    );
}

#[test]
fn largenum_thresholds() {
    let cases: [(u64, &str, &str); 12] = [
        (0, "        0", "        0"),
        (99_999_999, " 99999999", " 99999999"),
        (100_000_000, "  100000K", " 100000000"),
        (999_999_999, "  999999K", " 999999999"),
        (1_000_000_000, "    1000M", " 1000000000"),
        (99_999_999_999, "   99999M", " 99999999999"),
        (100_000_000_000, "     100G", " 100000000000"),
        (99_999_999_999_999, "   99999G", " 99999999999999"),
        (100_000_000_000_000, "     100T", " 100000000000000"),
        (99_999_999_999_999_999, "   99999T", " 99999999999999999"),
        (100_000_000_000_000_000, "  100000T", " 100000000000000000"),
        (u64::MAX, "18446744T", " 18446744073709551615"),
    ];
    for (n, plain, exact) in cases {
        assert_eq!(largenum(n, false), plain, "{n}");
        assert_eq!(largenum(n, true), exact, "{n} exact");
    }
}

#[test]
fn json_carries_the_same_data() {
    let snap = fixture();
    let v: serde_json::Value = serde_json::from_str(&run("-L --json").unwrap()).unwrap();
    assert_eq!(v["version"], "1.2.1");
    assert_eq!(v["table_size"], 4096);
    let svcs = v["services"].as_array().unwrap();
    assert_eq!(svcs.len(), 3);
    // Sorted as the listing.
    let names: Vec<String> = svcs
        .iter()
        .map(|s| format!("{}:{}", s["address"].as_str().unwrap(), s["port"]))
        .collect();
    assert_eq!(names, ["10.0.0.1:80", "10.0.0.1:8080", "10.0.0.2:443"]);
    let s = &svcs[0];
    assert_eq!(s["protocol"], "TCP");
    assert_eq!(s["scheduler"], "wlc");
    assert_eq!(s["persistent"]["timeout"], 360);
    assert_eq!(s["persistent"]["netmask"], "255.255.255.0");
    assert_eq!(s["stats"]["outbytes"], 98_765_432_109_876u64);
    assert_eq!(s["rates"]["inbps"], 123_456_789);
    let d = &s["servers"][1];
    assert_eq!(d["address"], "192.168.1.11");
    assert_eq!(d["port"], 8080);
    assert_eq!(d["mac"], "02:00:5e:10:00:01");
    assert_eq!(d["forward"], "Masq");
    assert_eq!(d["weight"], 0);
    assert_eq!(d["inactive_conns"], 1);
    assert_eq!(s["servers"][0]["u_threshold"], 100);
    assert_eq!(s["servers"][0]["persistent_conns"], 4);
    assert_eq!(s["servers"][0]["mac"], serde_json::Value::Null);
    assert_eq!(svcs[1]["persistent"]["netmask"], "255.255.255.255");
    assert_eq!(svcs[2]["persistent"], serde_json::Value::Null);
    assert_eq!(
        svcs[2]["sched_flags"],
        serde_json::json!(["sh-fallback", "sh-port"])
    );

    let one: serde_json::Value =
        serde_json::from_str(&run("-L --json -t 10.0.0.2:443 --nosort").unwrap()).unwrap();
    assert_eq!(one["services"].as_array().unwrap().len(), 1);
    assert_eq!(one["services"][0]["servers"][0]["address"], "192.168.1.21");
    assert!(run("-L --json -t 10.0.0.3:1").is_err());

    let c: serde_json::Value = serde_json::from_str(&run("-L -c --json").unwrap()).unwrap();
    let conns = c["connections"].as_array().unwrap();
    assert_eq!(conns.len(), snap.conns.len());
    assert_eq!(conns[1]["expire"], 65);
    assert_eq!(conns[1]["state"], "FIN_WAIT");
    assert_eq!(conns[1]["client"]["address"], "198.51.100.23");
    assert_eq!(conns[1]["client"]["port"], 40000);
    assert_eq!(conns[1]["virtual"]["port"], 443);
    assert_eq!(conns[1]["server"]["address"], "192.168.1.20");

    let t: serde_json::Value = serde_json::from_str(&run("-L --timeout --json").unwrap()).unwrap();
    assert_eq!(
        t,
        serde_json::json!({"timeouts": {"tcp": 900, "tcpfin": 120, "udp": 300}})
    );
}
