//! Random requests x random rule sets (seed-fixed): the RTL at DATA_WIDTH 64 and 512 must
//! give exactly what the software reference (`reference::classify`) gives. Also: bank
//! switches while requests flow, and the latency / throughput figures.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_tb_l7::reference::{classify, Bank, HostKind, PathKind, Rule};
use splicenic_tb_l7::{flags, HwResult, Matcher, RunOpts, PAT_MAX, RULES};

const HOSTS: &[&str] = &[
    "example.com",
    "api.example.com",
    "www.example.com",
    "a.b.example.com",
    "example.org",
    "shop.example.org",
    "localhost",
    "[::1]",
    "10.0.0.1",
    "x.y",
    "averyveryveryveryveryveryverylonglabel.anotherrathermuchlongerlabel.example.com",
];
const SEGS: &[&str] = &[
    "v1",
    "v2",
    "static",
    "img",
    "login",
    "admin",
    "api",
    "a",
    "b.css",
    "index.html",
    ".",
    "..",
    "%2e",
    "%2F",
    "",
    "Admin",
    "x\\y",
    "...",
];

fn pick<'a>(rng: &mut StdRng, v: &[&'a str]) -> &'a str {
    v[rng.gen_range(0..v.len())]
}

fn rand_path(rng: &mut StdRng) -> String {
    let n = rng.gen_range(0..5);
    let mut p = String::new();
    for _ in 0..n {
        p.push('/');
        p.push_str(pick(rng, SEGS));
    }
    if p.is_empty() || rng.gen_bool(0.1) {
        p.push('/');
    }
    if rng.gen_bool(0.05) {
        p.push_str(&"z".repeat(rng.gen_range(40..120)));
    }
    p
}

fn rand_case(rng: &mut StdRng, s: &str) -> String {
    s.chars()
        .map(|c| {
            if rng.gen_bool(0.3) {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

fn rand_request(rng: &mut StdRng) -> Vec<u8> {
    if rng.gen_bool(0.03) {
        return if rng.gen_bool(0.5) {
            let mut v = vec![0x16, 0x03, 0x01];
            v.extend((0..rng.gen_range(1..300)).map(|_| rng.gen::<u8>()));
            v
        } else {
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec()
        };
    }
    let method = *[
        "GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get", "BREW",
    ]
    .get(rng.gen_range(0..11))
    .unwrap_or(&"GET");
    let host = pick(rng, HOSTS);
    let path = rand_path(rng);
    let mut target = match rng.gen_range(0..100) {
        0..=84 => path.clone(),
        85..=92 => format!(
            "{}://{}{}",
            if rng.gen_bool(0.5) { "http" } else { "HTTPS" },
            host,
            if rng.gen_bool(0.2) { "" } else { &path }
        ),
        93..=95 => "*".into(),
        _ => format!("{host}:443"),
    };
    if rng.gen_bool(0.2) {
        target.push_str("?q=%41&r=/../x");
    }
    let version = match rng.gen_range(0..20) {
        0 => "HTTP/1.0",
        1 => "HTTP/2.0",
        2 => "HTTP/1.2",
        _ => "HTTP/1.1",
    };
    let mut r = format!("{method} {target} {version}\r\n");
    let mut headers: Vec<String> = Vec::new();
    for _ in 0..rng.gen_range(0..4) {
        let pad = "p".repeat(rng.gen_range(0..200));
        headers.push(format!("X-Pad-{}: {pad}", rng.gen_range(0..9)));
    }
    let mut hv = rand_case(rng, host);
    if rng.gen_bool(0.3) {
        hv.push_str(&format!(":{}", rng.gen_range(1..65535)));
    }
    if rng.gen_bool(0.03) {
        hv.push('.');
    }
    let lead = ["", " ", "  ", "\t", " \t"][rng.gen_range(0..5)];
    let trail = ["", "", " ", "\t "][rng.gen_range(0..4)];
    let name = ["Host", "host", "HOST", "hOsT"][rng.gen_range(0..4)];
    let host_line = format!("{name}:{lead}{hv}{trail}");
    if rng.gen_bool(0.9) {
        let at = rng.gen_range(0..=headers.len());
        headers.insert(at, host_line.clone());
    }
    if rng.gen_bool(0.03) {
        headers.push(host_line);
    }
    match rng.gen_range(0..100) {
        0 => headers.push("Host : a".into()),
        1 => headers.push(" folded".into()),
        2 => headers.push("Bad\nLine: x".into()),
        _ => {}
    }
    for h in headers {
        r.push_str(&h);
        r.push_str("\r\n");
    }
    r.push_str("\r\n");
    if rng.gen_bool(0.2) {
        r.push_str("body=1");
    }
    let mut v = r.into_bytes();
    if rng.gen_bool(0.15) {
        let cut = rng.gen_range(1..=v.len());
        v.truncate(cut);
    }
    if rng.gen_bool(0.03) {
        let at = rng.gen_range(0..v.len());
        v[at] = rng.gen();
    }
    v
}

fn rand_rule(rng: &mut StdRng, id: u16) -> Rule {
    let (path_kind, path) = match rng.gen_range(0..10) {
        0..=2 => (PathKind::Any, Vec::new()),
        3..=5 => (PathKind::Exact, rand_path(rng).into_bytes()),
        6..=8 => {
            let p = rand_path(rng);
            let cut = rng.gen_range(0..=p.len());
            (PathKind::Prefix, p.as_bytes()[..cut].to_vec())
        }
        _ => (PathKind::Never, b"/".to_vec()),
    };
    let host = pick(rng, HOSTS);
    let (host_kind, host) = match rng.gen_range(0..10) {
        0..=3 => (HostKind::Any, Vec::new()),
        4..=6 => (HostKind::Exact, host.as_bytes().to_vec()),
        7..=8 => {
            let dot = host.find('.').unwrap_or(0);
            (HostKind::Suffix, host.as_bytes()[dot..].to_vec())
        }
        _ => (HostKind::Never, Vec::new()),
    };
    Rule {
        valid: rng.gen_bool(0.95),
        priority: rng.gen_range(0..8),
        path_kind,
        path,
        host_kind,
        host,
        pool: rng.gen(),
        rule_id: id,
    }
}

fn rand_bank(rng: &mut StdRng) -> Bank {
    let n = rng.gen_range(1..=RULES);
    Bank {
        rules: (0..n).map(|i| rand_rule(rng, 1000 + i as u16)).collect(),
        default_pool: rng.gen(),
    }
}

fn assert_same(b: &Bank, req: &[u8], r: &HwResult, what: &str) {
    let e = classify(b, req);
    let got = (r.pool, r.rule_id, r.flags, r.method);
    let want = (e.pool, e.rule_id, e.flags, e.method);
    assert_eq!(
        got,
        want,
        "{what}: (pool, rule id, flags, method) differ for {:?}",
        String::from_utf8_lossy(req)
    );
}

fn random_vs_reference(width: u32) {
    let mut rng = StdRng::seed_from_u64(0x17_5eed);
    let mut m = Matcher::new(width).expect("model");
    let (mut total, mut matched, mut norm, mut inc, mut nh) = (0, 0, 0, 0, 0);
    for set in 0..25u32 {
        let bank = rand_bank(&mut rng);
        m.load_inactive(&bank.rules, bank.default_pool)
            .expect("load");
        m.switch_bank().expect("switch");
        let reqs: Vec<Vec<u8>> = (0..100).map(|_| rand_request(&mut rng)).collect();
        let opts = RunOpts {
            valid_gap_pct: if set % 2 == 0 { 0 } else { 20 },
            ready_gap_pct: if set % 3 == 0 { 25 } else { 0 },
            seed: set,
            ..RunOpts::default()
        };
        let out = m.run(&reqs, &opts).expect("run");
        for (i, (req, r)) in reqs.iter().zip(&out.results).enumerate() {
            assert_eq!(r.tag as usize, i, "in order");
            assert_same(&bank, req, r, &format!("w{width} set {set} req {i}"));
            total += 1;
            matched += usize::from(r.flags & flags::MATCHED != 0);
            norm += usize::from(r.flags & flags::NEEDS_NORM != 0);
            inc += usize::from(r.flags & flags::INCOMPLETE != 0);
            nh += usize::from(r.flags & flags::NOT_HTTP != 0);
        }
    }
    println!(
        "w{width}: {total} cases, {matched} matched, {norm} needs_norm, {inc} incomplete, {nh} not_http"
    );
    assert!(total >= 2000);
    // the generator must exercise every outcome, else the comparison proves little
    assert!(matched > 300 && norm > 50 && inc > 100 && nh > 50);
}

#[test]
fn random_requests_match_reference_w64() {
    random_vs_reference(64);
}

#[test]
fn random_requests_match_reference_w512() {
    random_vs_reference(512);
}

fn bank_switch_under_traffic(width: u32) {
    let mut rng = StdRng::seed_from_u64(0xba_4c);
    let banks = [rand_bank(&mut rng), rand_bank(&mut rng)];
    let mut m = Matcher::new(width).expect("model");
    // bank 0 is active after reset: fill bank 1, switch, fill bank 0, switch back
    m.load_inactive(&banks[1].rules, banks[1].default_pool)
        .expect("load 1");
    m.switch_bank().expect("switch");
    m.load_inactive(&banks[0].rules, banks[0].default_pool)
        .expect("load 0");
    m.switch_bank().expect("switch");
    assert_eq!(m.active_bank().expect("bank"), 0);
    let reqs: Vec<Vec<u8>> = (0..1500).map(|_| rand_request(&mut rng)).collect();
    let opts = RunOpts {
        valid_gap_pct: 10,
        ready_gap_pct: 10,
        switch_per_mille: 30,
        seed: 7,
        dflt_after_switch: true,
        ..RunOpts::default()
    };
    let out = m.run(&reqs, &opts).expect("run");
    let mut used = [0usize; 2];
    let (mut differ, mut dflt_seen) = (0, 0);
    for (i, (req, r)) in reqs.iter().zip(&out.results).enumerate() {
        assert_eq!(
            r.bank, r.start_bank,
            "req {i}: bank used = bank active at its start"
        );
        let b = usize::from(r.start_bank & 1);
        used[b] += 1;
        // the bank as it was when the request started: its rules and the default pool
        // written last before that (writes to a bank in use are held off by the RTL)
        let at_start = Bank {
            rules: banks[b].rules.clone(),
            default_pool: r.start_dflt,
        };
        assert_same(&at_start, req, r, &format!("w{width} switch req {i}"));
        differ +=
            usize::from(classify(&banks[b ^ 1], req).rule_id != classify(&at_start, req).rule_id);
        dflt_seen += usize::from(r.flags & flags::MATCHED == 0 && r.pool >= 0x8000);
    }
    let hold = out.results.last().map_or(0, |r| r.max_holdoff);
    println!(
        "w{width}: bank switch: {used:?} requests per bank, {differ} with another rule in the \
         other bank, {dflt_seen} on a rewritten default pool, max write hold-off {hold} cycles"
    );
    assert!(used[0] > 100 && used[1] > 100 && differ > 100 && dflt_seen > 50);
    assert!(hold > 0, "some write had to wait for an in-flight request");
}

#[test]
fn bank_switch_while_requests_flow_w64() {
    bank_switch_under_traffic(64);
}

#[test]
fn bank_switch_while_requests_flow_w512() {
    bank_switch_under_traffic(512);
}

/// Figures: request-to-result latency (tlast beat to result) and back-to-back throughput.
#[test]
fn latency_and_throughput_figures() {
    let mut rng = StdRng::seed_from_u64(3);
    let bank = Bank {
        rules: (0..RULES).map(|i| rand_rule(&mut rng, i as u16)).collect(),
        default_pool: 1,
    };
    let small = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n".to_vec();
    let mut typical =
        b"GET /static/img/logo.png?v=3 HTTP/1.1\r\nHost: www.example.com\r\n".to_vec();
    typical.extend_from_slice(b"User-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\nAccept: */*\r\n");
    typical.extend_from_slice(b"Accept-Encoding: gzip, deflate, br\r\nConnection: keep-alive\r\n");
    typical.extend_from_slice(b"Cookie: session=0123456789abcdef0123456789abcdef\r\n\r\n");
    let big = {
        let mut v = typical.clone();
        v.truncate(v.len() - 2);
        v.extend_from_slice(format!("X-Pad: {}\r\n\r\n", "q".repeat(1300)).as_bytes());
        v
    };
    for width in [64u32, 512] {
        let mut m = Matcher::new(width).expect("model");
        m.load_inactive(&bank.rules, bank.default_pool)
            .expect("load");
        m.switch_bank().expect("switch");
        let tls = vec![0x16u8, 0x03, 0x01, 0x00, 0x20, 0x01];
        for (name, req) in [
            ("small", &small),
            ("typical", &typical),
            ("1.4 KB", &big),
            ("TLS (no scan)", &tls),
        ] {
            let n = 500;
            let reqs = vec![req.clone(); n];
            let out = m.run(&reqs, &RunOpts::default()).expect("run");
            let lat = out.results[0].latency;
            let beats = req.len().div_ceil(width as usize / 8);
            for r in &out.results {
                assert_same(&bank, req, r, "figures");
            }
            println!(
                "FIGURE w{width} {name} ({} B, {beats} beats): latency {lat} cycles tlast->result, \
                 {:.4} requests/cycle back-to-back ({:.1} cycles/request), {:.3} beats/cycle",
                req.len(),
                n as f64 / out.cycles as f64,
                out.cycles as f64 / n as f64,
                (beats * n) as f64 / out.cycles as f64
            );
            // the scan stage (RULES/LANES rows) bounds the rate; never worse than that + 4
            assert!(out.cycles as usize <= n * (beats.max(RULES / 4 + 4)) + 64);
        }
    }
    let _ = PAT_MAX;
}
