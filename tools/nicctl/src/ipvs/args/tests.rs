use super::*;

fn p(line: &str) -> Result<IpvsCommand, ArgsError> {
    let args: Vec<&str> = line.split_whitespace().collect();
    parse(&args)
}

fn ok(line: &str) -> IpvsCommand {
    p(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn err(line: &str) -> ArgsError {
    match p(line) {
        Ok(c) => panic!("{line}: accepted as {c:?}"),
        Err(e) => e,
    }
}

fn msg(line: &str) -> String {
    err(line).to_string()
}

fn sa(s: &str) -> SocketAddrV4 {
    s.parse().unwrap()
}

fn list(f: impl FnOnce(&mut ListOptions)) -> IpvsCommand {
    let mut o = ListOptions::default();
    f(&mut o);
    IpvsCommand::List(o)
}

fn service(vip: &str, sched: Scheduler, persistent: Option<Persistence>) -> ServiceSpec {
    ServiceSpec {
        vip: sa(vip),
        sched,
        persistent,
        sched_flags: SchedFlags::default(),
    }
}

#[test]
fn no_arguments_lists_the_table() {
    assert_eq!(parse::<&str>(&[]), Ok(list(|_| {})));
}

#[test]
fn list_spellings_and_combined_short_options() {
    let numeric = list(|o| o.numeric = true);
    for line in ["-Ln", "-L -n", "-l -n", "-ln", "--list --numeric"] {
        assert_eq!(ok(line), numeric, "{line}");
    }
    assert_eq!(
        ok("-Lnc"),
        list(|o| {
            o.numeric = true;
            o.connections = true
        })
    );
    assert_eq!(
        ok("-Lc --persistent-conn"),
        list(|o| {
            o.connections = true;
            o.persistent_conn = true
        })
    );
    assert_eq!(
        ok("-L --stats --exact --nosort --sort --json"),
        list(|o| {
            o.stats = true;
            o.exact = true;
            o.nosort = true;
            o.json = true
        })
    );
    assert_eq!(
        ok("-L --rate --thresholds"),
        list(|o| {
            o.rate = true;
            o.thresholds = true
        })
    );
    assert_eq!(ok("-L --timeout"), list(|o| o.timeout = true));
    assert_eq!(ok("-LX"), list(|o| o.exact = true));
    let one = list(|o| {
        o.numeric = true;
        o.service = Some(sa("10.0.0.1:80"))
    });
    for line in [
        "-Lnt 10.0.0.1:80",
        "-Ln -t10.0.0.1:80",
        "-L -n -t=10.0.0.1:80",
        "-L -n --tcp-service=10.0.0.1:80",
        "-L -n --tcp-service 10.0.0.1:80",
    ] {
        assert_eq!(ok(line), one, "{line}");
    }
}

#[test]
fn add_service_forms() {
    assert_eq!(
        ok("-A -t 10.0.0.1:80"),
        IpvsCommand::AddService(service("10.0.0.1:80", Scheduler::Wlc, None))
    );
    assert_eq!(
        ok("-At 10.0.0.1:80 -s rr"),
        IpvsCommand::AddService(service("10.0.0.1:80", Scheduler::Rr, None))
    );
    let p360 = Some(Persistence::new(360));
    for line in [
        "-A -t 10.0.0.1:80 -p",
        "-A -t 10.0.0.1:80 -p -s wlc",
        "-A -p -t 10.0.0.1:80",
        "--add-service --tcp-service 10.0.0.1:80 --persistent",
    ] {
        assert_eq!(
            ok(line),
            IpvsCommand::AddService(service("10.0.0.1:80", Scheduler::Wlc, p360)),
            "{line}"
        );
    }
    let p600 = Some(Persistence::new(600));
    for line in [
        "-A -t 10.0.0.1:80 -p 600",
        "-A -t 10.0.0.1:80 -p600",
        "-A -t 10.0.0.1:80 --persistent=600",
        "-A -t 10.0.0.1:80 --persistent 600",
        "-A -t 10.0.0.1:80 -p=600",
    ] {
        assert_eq!(
            ok(line),
            IpvsCommand::AddService(service("10.0.0.1:80", Scheduler::Wlc, p600)),
            "{line}"
        );
    }
    let masked = Some(Persistence {
        timeout: 360,
        netmask: Ipv4Addr::new(255, 255, 255, 0),
    });
    assert_eq!(
        ok("-A -t 10.0.0.1:0 -s sh -p -M 255.255.255.0"),
        IpvsCommand::AddService(service("10.0.0.1:0", Scheduler::Sh, masked))
    );
    // -M without -p is accepted and has no effect, as in IPVS.
    assert_eq!(
        ok("-A -t 10.0.0.1:80 -M 255.255.0.0"),
        IpvsCommand::AddService(service("10.0.0.1:80", Scheduler::Wlc, None))
    );
    assert_eq!(
        ok("-E -t 10.0.0.1:80 -s lblcr"),
        IpvsCommand::EditService(service("10.0.0.1:80", Scheduler::Lblcr, None))
    );
    for s in Scheduler::ALL {
        let c = ok(&format!("-A -t 10.0.0.1:80 -s {s}"));
        assert_eq!(c, IpvsCommand::AddService(service("10.0.0.1:80", s, None)));
    }
}

#[test]
fn scheduler_flags() {
    let flags = |line: &str| match ok(line) {
        IpvsCommand::AddService(s) | IpvsCommand::EditService(s) => s.sched_flags,
        c => panic!("{c:?}"),
    };
    let both = SchedFlags::FLAG1.union(SchedFlags::FLAG2);
    assert_eq!(
        flags("-A -t 10.0.0.1:80 -s sh -b sh-fallback,sh-port"),
        both
    );
    assert_eq!(
        flags("-A -t 10.0.0.1:80 -b sh-port,sh-fallback -s sh"),
        both
    );
    assert_eq!(
        flags("-E -t 10.0.0.1:80 -s mh --sched-flags mh-port"),
        SchedFlags::FLAG2
    );
    assert_eq!(flags("-A -t 10.0.0.1:80 -b flag-3"), SchedFlags::FLAG3);
    assert_eq!(
        msg("-A -t 10.0.0.1:80 -b sh-port"),
        "incompatible scheduler flag: `sh-port' is for the sh scheduler, not wlc"
    );
    assert_eq!(
        msg("-A -t 10.0.0.1:80 -s sh -b mh-port"),
        "incompatible scheduler flag: `mh-port' is for the mh scheduler, not sh"
    );
    assert!(
        msg("-A -t 10.0.0.1:80 -s sh -b sh-frob").starts_with("invalid scheduler flag: `sh-frob'")
    );
    assert!(msg("-A -t 10.0.0.1:80 -s sh -b ,")
        .starts_with("invalid scheduler flag: `,' names no flag"));
    assert_eq!(
        msg("-L -b sh-port -s sh"),
        "Illegal 'scheduler' option with the 'list' command"
    );
}

#[test]
fn servers() {
    let spec = |server: &str, weight, upper, lower, mac: Option<&str>| ServerSpec {
        service: sa("10.0.0.1:80"),
        server: sa(server),
        weight,
        upper,
        lower,
        mac: mac.map(|m| m.parse().unwrap()),
    };
    // No port: the service's; default weight 1; -m is the default and allowed.
    for line in [
        "-a -t 10.0.0.1:80 -r 192.168.1.10",
        "-a -t 10.0.0.1:80 -r 192.168.1.10 -m",
        "-a -r 192.168.1.10 -t 10.0.0.1:80",
        "--add-server --tcp-service=10.0.0.1:80 --real-server=192.168.1.10:80 --masquerading",
        "-a -t 10.0.0.1:80 -r 192.168.1.10 -w 1",
        "-a -t 10.0.0.1:80 -r 192.168.1.10 -w +1",
    ] {
        assert_eq!(
            ok(line),
            IpvsCommand::AddServer(spec("192.168.1.10:80", 1, 0, 0, None)),
            "{line}"
        );
    }
    assert_eq!(
        ok("-a -t 10.0.0.1:80 -r 192.168.1.10:8080 -m -w 0 -x 100 -y 50 --mac 02:00:5e:10:00:01"),
        IpvsCommand::AddServer(spec(
            "192.168.1.10:8080",
            0,
            100,
            50,
            Some("02:00:5e:10:00:01")
        ))
    );
    assert_eq!(
        ok("-e -t 10.0.0.1:80 -r 192.168.1.10:8080 -w 65535 --u-threshold 7 --l-threshold 7"),
        IpvsCommand::EditServer(spec("192.168.1.10:8080", 65535, 7, 7, None))
    );
    assert_eq!(
        ok("-d -t 10.0.0.1:80 -r 192.168.1.10"),
        IpvsCommand::DeleteServer {
            service: sa("10.0.0.1:80"),
            server: sa("192.168.1.10:80")
        }
    );
    assert_eq!(
        msg("-a -t 10.0.0.1:80 -r 192.168.1.10 -x 10 -y 20"),
        "illegal l_threshold specified: the lower threshold 20 is higher than the upper \
         threshold 10 (Numerical result out of range)"
    );
    assert_eq!(
        err("-a -t 10.0.0.1:80 -r 192.168.1.10 -y 5"),
        ArgsError::ThresholdOrder { lower: 5, upper: 0 }
    );
}

#[test]
fn other_commands() {
    assert_eq!(
        ok("-D -t 10.0.0.1:80"),
        IpvsCommand::DeleteService(sa("10.0.0.1:80"))
    );
    assert_eq!(ok("-C"), IpvsCommand::Clear);
    assert_eq!(ok("--clear"), IpvsCommand::Clear);
    assert_eq!(ok("-Z"), IpvsCommand::Zero(None));
    assert_eq!(
        ok("--zero -t 10.0.0.1:80"),
        IpvsCommand::Zero(Some(sa("10.0.0.1:80")))
    );
    let t = |tcp, tcpfin, udp| IpvsCommand::Set(Timeouts { tcp, tcpfin, udp });
    assert_eq!(ok("--set 900 120 300"), t(900, 120, 300));
    assert_eq!(ok("--set 0 0 0"), t(0, 0, 0));
    assert_eq!(ok("--set -- 1 2 3"), t(1, 2, 3));
    assert_eq!(ok("-S"), IpvsCommand::Save { numeric: false });
    assert_eq!(ok("--save -n"), IpvsCommand::Save { numeric: true });
    assert_eq!(ok("-Sn"), IpvsCommand::Save { numeric: true });
    assert_eq!(ok("-R"), IpvsCommand::Restore);
    assert_eq!(ok("-h"), IpvsCommand::Help);
    // Like ipvsadm, -h acts at once: later arguments are not looked at.
    assert_eq!(ok("--help -Q junk"), IpvsCommand::Help);
    assert_eq!(ok("-v"), IpvsCommand::Version);
    assert!(usage().contains("--mac"));
}

#[test]
fn set_errors() {
    assert_eq!(err("--set 1 2"), ArgsError::SetNeedsThree);
    assert_eq!(err("--set"), ArgsError::SetNeedsThree);
    assert_eq!(msg("--set 1 2 3 4"), "unexpected argument 4");
    assert_eq!(
        msg("--set 1 2 x"),
        "invalid timeout value specified: `x' is not a number of seconds in 0..2678400"
    );
    assert!(msg("--set 1 2 2678401").starts_with("invalid timeout value specified: `2678401'"));
    assert_eq!(msg("--set 1 2 -3"), "invalid option `-3'");
    assert_eq!(
        msg("--set 1 2 3 -n"),
        "Illegal 'numeric' option with the 'set' command"
    );
}

#[test]
fn command_errors() {
    assert_eq!(err("foo"), ArgsError::NoCommand);
    assert_eq!(err("-nL"), ArgsError::NotACommand("-n".into()));
    assert_eq!(
        err("-t 10.0.0.1:80 -A"),
        ArgsError::NotACommand("-t".into())
    );
    assert_eq!(msg("-A -L"), "multiple commands specified: `-L' after `-A'");
    assert_eq!(msg("-AL"), "multiple commands specified: `-L' after `-A'");
    assert_eq!(msg("-L -h"), "multiple commands specified: `-h' after `-L'");
    assert_eq!(msg("-L -Q"), "invalid option `-Q'");
    assert_eq!(msg("-L --frobnicate"), "invalid option `--frobnicate'");
    assert_eq!(msg("-L --list-all"), "invalid option `--list-all'");
    assert_eq!(msg("--list=x"), "option `--list' does not take an argument");
    assert_eq!(msg("-A -t"), "option `-t' requires an argument");
    assert_eq!(
        msg("-A --scheduler"),
        "option `--scheduler' requires an argument"
    );
    assert_eq!(msg("-L -n foo"), "unexpected argument foo");
    assert_eq!(
        msg("-A -t 10.0.0.1:80 -t 10.0.0.2:80"),
        "multiple 'service-address' options specified"
    );
    assert_eq!(
        msg("-a -t 10.0.0.1:80 -r 192.168.1.1 -m -m"),
        "multiple 'forwarding-method' options specified"
    );
    assert_eq!(msg("-Lnn"), "multiple 'numeric' options specified");
}

#[test]
fn option_table_messages() {
    let cases = [
        ("-A", "You need to supply the 'service-address' option for the 'add-service' command"),
        ("-E -s rr", "You need to supply the 'service-address' option for the 'edit-service' command"),
        ("-a -t 10.0.0.1:80", "You need to supply the 'real-server' option for the 'add-server' command"),
        ("-d -t 10.0.0.1:80", "You need to supply the 'real-server' option for the 'delete-server' command"),
        ("-A -t 10.0.0.1:80 -w 1", "Illegal 'weight' option with the 'add-service' command"),
        ("-A -t 10.0.0.1:80 -n", "Illegal 'numeric' option with the 'add-service' command"),
        ("-A -t 10.0.0.1:80 --json", "Illegal 'json' option with the 'add-service' command"),
        ("-D -t 10.0.0.1:80 -s rr", "Illegal 'scheduler' option with the 'delete-service' command"),
        ("-d -t 10.0.0.1:80 -r 10.1.1.1 -w 2", "Illegal 'weight' option with the 'delete-server' command"),
        ("-d -t 10.0.0.1:80 -r 10.1.1.1 -m", "Illegal 'forwarding-method' option with the 'delete-server' command"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 -s rr", "Illegal 'scheduler' option with the 'add-server' command"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 --stats", "Illegal 'stats' option with the 'add-server' command"),
        ("-C -n", "Illegal 'numeric' option with the 'flush' command"),
        ("-R -n", "Illegal 'numeric' option with the 'restore' command"),
        ("-S -c", "Illegal 'connection' option with the 'save' command"),
        ("-S -t 10.0.0.1:80", "Illegal 'service-address' option with the 'save' command"),
        ("-Z -n", "Illegal 'numeric' option with the 'zero' command"),
        ("-L -w 1", "Illegal 'weight' option with the 'list' command"),
        ("-L --mac 02:00:00:00:00:01", "Illegal 'mac' option with the 'list' command"),
        ("-L -c -t 10.0.0.1:80", "The option 'service-address' conflicts with the 'connection' option in the 'list' command"),
        ("-L --timeout -c", "The option 'timeout' conflicts with the 'connection' option in the 'list' command"),
        ("-L --timeout -t 10.0.0.1:80", "The option 'timeout' conflicts with the 'service-address' option in the 'list' command"),
        ("-L -c --stats", "options conflicts in the list command"),
        ("-L --timeout --rate", "options conflicts in the list command"),
        ("-L -c --thresholds", "options conflicts in the list command"),
        ("-L --timeout --persistent-conn", "options conflicts in the list command"),
        ("-A -t 10.0.0.1:80 -s rr", ""),
        ("-A -t 10.0.0.1", "Zero port specified for non-persistent service"),
        ("-E -t 10.0.0.1:0 -s rr", "Zero port specified for non-persistent service"),
    ];
    for (line, want) in cases {
        match p(line) {
            Ok(_) if want.is_empty() => {}
            Ok(c) => panic!("{line}: accepted as {c:?}"),
            Err(e) => assert_eq!(e.to_string(), want, "{line}"),
        }
    }
    // The persistent form of a port-0 service is fine, and so is --sort anywhere.
    ok("-A -t 10.0.0.1 -p");
    ok("-A -t 10.0.0.1:80 --sort");
    ok("-L -c --persistent-conn");
}

#[test]
fn card_limits_are_explained() {
    let cases = [
        ("-A -u 10.0.0.1:53", "`-u': the card serves TCP only"),
        (
            "-A --udp-service 10.0.0.1:53",
            "`--udp-service': the card serves TCP only",
        ),
        ("-A --sctp-service 10.0.0.1:53", "TCP only"),
        ("-A -f 1", "`-f': the card serves TCP only"),
        (
            "-a -t 10.0.0.1:80 -r 10.1.1.1 -g",
            "`-g': the card splices connections, so it only forwards by masquerading",
        ),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 -i", "`-i': the card splices"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 --gatewaying", "masquerading"),
        (
            "-a -t 10.0.0.1:80 -r 10.1.1.1 --tun-type gue",
            "`--tun-type': the card splices",
        ),
        ("-L --tun-info", "masquerading"),
        ("-A -f 1 -6", "`-f'"),
        ("-A -t 10.0.0.1:80 -6", "`-6': the card serves IPv4 only"),
        (
            "-A -t 10.0.0.1:80 -o",
            "`-o': one-packet scheduling is for UDP services",
        ),
        ("-A -t 10.0.0.1:80 --ops", "one-packet"),
        (
            "-A -t 10.0.0.1:80 --pe sip",
            "`--pe': the card has no persistence engines",
        ),
        (
            "--start-daemon master",
            "`--start-daemon': SpliceNIC has no sync daemon",
        ),
        (
            "--stop-daemon backup",
            "`--stop-daemon': SpliceNIC has no sync daemon",
        ),
        ("-L --daemon", "`--daemon': SpliceNIC has no sync daemon"),
        ("-L --mcast-interface eth0", "SpliceNIC has no sync daemon"),
        ("-L --syncid 3", "SpliceNIC has no sync daemon"),
    ];
    for (line, want) in cases {
        let m = msg(line);
        assert!(m.contains(want), "{line}: {m}");
    }
}

#[test]
fn value_errors_name_the_value_and_why() {
    let cases = [
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 -w 65536", "illegal weight specified: `65536' is out of range 0..65535"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 -w -1", "illegal weight specified: `-1' is out of range 0..65535"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 -w heavy", "illegal weight specified: `heavy' is not an integer (expected 0..65535)"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 -w 1.5", "illegal weight specified: `1.5' is not an integer"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 -x 2147483648", "illegal u_threshold specified: `2147483648' is out of range 0..2147483647"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 -y x", "illegal l_threshold specified: `x' is not an integer"),
        ("-A -t 10.0.0.1:80 -p 0", "invalid timeout value specified: `0' is not a number of seconds in 1..2678400"),
        ("-A -t 10.0.0.1:80 -p 2678401", "invalid timeout value specified: `2678401'"),
        ("-A -t 10.0.0.1:80 -s lru", "Scheduler not found: `lru' is not one of rr|wrr|lc|wlc|sed|nq|lblc|lblcr|dh|sh|mh|fo|ovf|twos"),
        ("-A -t 10.0.0.1:80 -p -M 255.255.255.256", "illegal virtual server persistent mask specified: `255.255.255.256'"),
        ("-A -t 80", "illegal virtual server address[:port] specified: `80' has no address"),
        ("-A -t ::1", "illegal virtual server address[:port] specified: `::1' is IPv6; the card serves IPv4 only"),
        ("-A -t [2001:db8::1]:80", "is IPv6"),
        ("-A -t web1:80", "illegal virtual server address[:port] specified: `web1:80' has no IPv4 address: `web1' is not one (host names are not resolved)"),
        ("-A -t 10.0.0.1:99999", "illegal virtual server address[:port] specified: `10.0.0.1:99999' has a bad port: `99999' is neither 0..65535 nor one of http"),
        ("-A -t 10.0.0.1:", "has a bad port: `'"),
        ("-A -t 10.0.0.1:gopher", "has a bad port: `gopher'"),
        ("-A -t 256.0.0.1:80", "has no IPv4 address"),
        ("-A -t 1.2.3.4.5:80", "has no IPv4 address"),
        ("-A -t 08.0.0.1:80", "has no IPv4 address"),
        ("-A -t 1.2.3.:80", "has no IPv4 address"),
        ("-a -t 10.0.0.1:80 -r 192.168.1.300", "illegal real server address[:port] specified: `192.168.1.300'"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 --mac 02:00:00:00:00", "illegal MAC address specified: `02:00:00:00:00' expected six colon-separated pairs"),
        ("-a -t 10.0.0.1:80 -r 10.1.1.1 --mac ff:ff:ff:ff:ff:ff", "unicast"),
    ];
    for (line, want) in cases {
        let m = msg(line);
        assert!(m.starts_with(want) || m.contains(want), "{line}: {m}");
    }
}

#[test]
fn addresses_as_inet_aton_reads_them() {
    let vip = |line: &str| match ok(line) {
        IpvsCommand::DeleteService(v) => v,
        c => panic!("{c:?}"),
    };
    assert_eq!(vip("-D -t 10.0.0.1:80"), sa("10.0.0.1:80"));
    assert_eq!(vip("-D -t 10.1:80"), sa("10.0.0.1:80"));
    assert_eq!(vip("-D -t 10.1.2:80"), sa("10.1.0.2:80"));
    assert_eq!(vip("-D -t 0x0a000001:80"), sa("10.0.0.1:80"));
    assert_eq!(vip("-D -t 167772161:80"), sa("10.0.0.1:80"));
    assert_eq!(vip("-D -t 010.0.0.1:80"), sa("8.0.0.1:80"));
    assert_eq!(vip("-D -t 10.0.0.1:http"), sa("10.0.0.1:80"));
    assert_eq!(vip("-D -t 10.0.0.1:https"), sa("10.0.0.1:443"));
    assert_eq!(vip("-D -t 10.0.0.1:http-alt"), sa("10.0.0.1:8080"));
    assert_eq!(vip("-D -t 10.0.0.1"), sa("10.0.0.1:0"));
    assert_eq!(inet_aton("255.255.255.255"), Some(Ipv4Addr::BROADCAST));
    assert_eq!(inet_aton("1.0x10.0.1"), Some(Ipv4Addr::new(1, 16, 0, 1)));
    assert_eq!(inet_aton("1.65536"), Some(Ipv4Addr::new(1, 1, 0, 0)));
    assert_eq!(inet_aton("1.16777216"), None);
    assert_eq!(inet_aton("1.2.65535"), Some(Ipv4Addr::new(1, 2, 255, 255)));
    assert_eq!(inet_aton("4294967296"), None);
    assert_eq!(inet_aton(""), None);
    assert_eq!(inet_aton("0x"), None);
    assert_eq!(inet_aton("a.b.c.d"), None);
    assert_eq!(inet_aton("1..2"), None);
    assert_eq!(inet_aton("99999999999999999999999"), None);
}

#[test]
fn display_reparses_to_the_same_command() {
    for line in [
        "-A -t 10.0.0.1:80 -s sh -p 600 -M 255.255.0.0 -b sh-port",
        "-E -t 10.0.0.1:80 -s wlc",
        "-D -t 10.0.0.1:80",
        "-C",
        "-a -t 10.0.0.1:80 -r 192.168.1.10:8080 -w 0 -x 10 -y 5 --mac 02:00:00:00:00:01",
        "-e -t 10.0.0.1:80 -r 192.168.1.10:8080 -w 3",
        "-d -t 10.0.0.1:80 -r 192.168.1.10:8080",
        "-L -t 10.0.0.1:80 -n --stats --exact --nosort --json",
        "-L -c --persistent-conn",
        "-L --rate --thresholds",
        "-L --timeout",
        "-Z",
        "-Z -t 10.0.0.1:80",
        "--set 1 2 3",
        "-S -n",
        "-S",
        "-R",
        "-h",
        "-v",
    ] {
        let c = ok(line);
        let again = ok(&c.to_string());
        assert_eq!(again, c, "{line} -> {c}");
    }
    assert_eq!(
        ok("-a -t 10.0.0.1:80 -r 192.168.1.10").to_string(),
        "-a -t 10.0.0.1:80 -r 192.168.1.10:80 -m -w 1"
    );
}

#[test]
fn restore_input() {
    let text = "\
# saved by nicctl
-A -t 10.0.0.1:80 -s wlc
\t-a -t 10.0.0.1:80 -r 192.168.1.10:8080 -m -w 1   # web 1\r

ipvsadm -a -t 10.0.0.1:80 -r 192.168.1.11:8080 -m -w 2
ipvsadm
--set 900 120 300
";
    let cmds = parse_restore(text).unwrap();
    assert_eq!(cmds.len(), 4);
    assert!(matches!(cmds[0], IpvsCommand::AddService(_)));
    match &cmds[2] {
        IpvsCommand::AddServer(s) => {
            assert_eq!(s.server, sa("192.168.1.11:8080"));
            assert_eq!(s.weight, 2);
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(parse_restore(""), Ok(vec![]));

    let e = parse_restore("-A -t 10.0.0.1:80\n\n-a -t 10.0.0.1:80 -r x.y -m\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert_eq!(e.text, "-a -t 10.0.0.1:80 -r x.y -m");
    assert!(matches!(e.error, ArgsError::Invalid { .. }));
    assert!(e
        .to_string()
        .starts_with("line 3: `-a -t 10.0.0.1:80 -r x.y -m': illegal real server address"));
    let e = parse_restore("-C\n-R\n").unwrap_err();
    assert_eq!((e.line, e.error), (2, ArgsError::NestedRestore));
    let e = parse_restore("10.0.0.1\n").unwrap_err();
    assert_eq!(e.error, ArgsError::NoCommand);
}

#[test]
fn odd_input_never_panics() {
    let weird = [
        "-",
        "--",
        "---",
        "-\u{e9}",
        "--=",
        "--=x",
        "-A -t \u{e9}:80",
        "-A -t :",
        "-A -t 1:2:3",
        "-A -t []:80",
        "-A -t [",
        "-L -\u{1F600}",
        "-p",
        "-A -p",
        "-A -b",
        "-A -t 10.0.0.1:80 -b",
        "-A -t 10.0.0.1:80 -b ,,,",
        "-a -t 1.1.1.1:1 -r 2.2.2.2 --mac",
        "--set \u{e9} 1 1",
        "-A -t 10.0.0.1:80 -s \u{e9}",
        "-Z -t 0:0",
    ];
    for line in weird {
        let _ = p(line);
    }
    let _ = parse(&["-A", "-t", ""]);
    let _ = parse(&["-A", "-t", "10.0.0.1:80", "-s", ""]);
    let _ = parse(&["", "", ""]);
    let _ = parse_restore("\u{0}\n\u{feff}-L\n-A -t\t\t\n");
}

#[test]
fn restore_limits_are_located_errors_naming_the_limit() {
    // Input: the lines before the limit are checked; the error is at the first byte past it.
    let line = "-Z # padding to make the input big\n";
    let n = MAX_RESTORE_BYTES / line.len() + 1;
    let big = line.repeat(n);
    let e = parse_restore(&big).unwrap_err();
    assert_eq!(e.error, ArgsError::TooManyCommands);
    let big = "# only comments\n".repeat(MAX_RESTORE_BYTES / 16 + 1);
    let e = parse_restore(&big).unwrap_err();
    assert_eq!(e.error, ArgsError::InputTooLarge);
    assert_eq!((e.line, e.col), (MAX_RESTORE_BYTES / 16 + 1, 1));
    assert!(e.to_string().contains("MAX_RESTORE_BYTES"), "{e}");

    // A long line: the error is at its first byte past the limit, the line is not copied.
    let long = format!("-C\n-A -t 10.0.0.1:80 -s {}\n", "x".repeat(10_000));
    let e = parse_restore(&long).unwrap_err();
    assert_eq!((e.line, e.col), (2, MAX_RESTORE_LINE_BYTES + 1));
    assert_eq!(e.error, ArgsError::LineTooLong);
    assert!(e.to_string().len() < 400, "{e}");
    assert!(e.text.ends_with("..."));
    // A 10 MB line is past the input limit first; the message stays short.
    let huge = format!("-C\n-A -t 10.0.0.1:80 -s {}\n", "x".repeat(10 << 20));
    let e = parse_restore(&huge).unwrap_err();
    assert_eq!((e.line, e.col), (2, MAX_RESTORE_BYTES - 3 + 1));
    assert_eq!(e.error, ArgsError::InputTooLarge);
    assert!(e.to_string().len() < 400, "{e}");

    // Commands: the 4097th is refused, and with it the whole input.
    let many = "-C\n".repeat(MAX_RESTORE_COMMANDS);
    assert_eq!(parse_restore(&many).unwrap().len(), MAX_RESTORE_COMMANDS);
    let e = parse_restore(&format!("{many}-Z\n")).unwrap_err();
    assert_eq!(
        (e.line, &e.error),
        (MAX_RESTORE_COMMANDS + 1, &ArgsError::TooManyCommands)
    );
    assert!(e.to_string().contains("MAX_RESTORE_COMMANDS"), "{e}");
}

#[test]
fn restore_input_must_be_text() {
    let e = parse_restore(b"-C\n-A -t 10.0.0.\xe9:80\n".as_slice()).unwrap_err();
    assert_eq!((e.line, e.col), (2, 14));
    assert_eq!(e.error, ArgsError::InvalidUtf8("e9".into()));
    assert_eq!(
        e.to_string(),
        "line 2, column 14: `-A -t 10.0.0.\u{fffd}:80': invalid UTF-8 (bytes e9): -R input must \
         be UTF-8 text"
    );
    let e = parse_restore("-A -t 10.0.0.1:80 -s \u{1b}[2Jwlc\n").unwrap_err();
    assert_eq!((e.line, e.col), (1, 22));
    assert_eq!(e.error, ArgsError::ControlCharacter('\u{1b}'));
    assert!(e.text.contains("\\u{1b}[2J"), "{}", e.text);
    assert!(!e.to_string().contains('\u{1b}'));
    let e = parse_restore("-C\0\n").unwrap_err();
    assert_eq!(
        (e.line, e.col, e.error),
        (1, 3, ArgsError::ControlCharacter('\0'))
    );
    // CRLF lines are lines; an error quotes them without the CR.
    let e = parse_restore("-C\r\n-A -t x\r\n").unwrap_err();
    assert_eq!((e.line, e.col, e.text.as_str()), (2, 0, "-A -t x"));
}
