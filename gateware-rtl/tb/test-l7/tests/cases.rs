//! Table-driven precedence and normalisation cases (LVS_REFERENCE.md, "Content rules users
//! expect"). Each case states the expected outcome by hand; the software reference
//! (`reference::classify`) must give it, and the RTL at DATA_WIDTH 64 and 512 must give
//! exactly what the reference gives.

use splicenic_tb_l7::flags::*;
use splicenic_tb_l7::reference::{classify, method, Bank, HostKind, Outcome, PathKind, Rule};
use splicenic_tb_l7::{Matcher, RunOpts};

const DEFAULT_POOL: u16 = 99;

fn rules() -> Vec<Rule> {
    let mut too_long = Rule::new(0, "", "", 11, 110);
    too_long.path_kind = PathKind::Prefix;
    too_long.path = vec![b'/'; 65];
    let mut never = Rule::new(0, "", "", 12, 111);
    never.host_kind = HostKind::Never;
    let mut disabled = Rule::new(0, "", "", 13, 112);
    disabled.valid = false;
    vec![
        Rule::new(10, "api.example.com", "/v1/*", 1, 100),
        Rule::new(5, "", "/static/*", 2, 101),
        Rule::new(20, "*.example.com", "", 3, 102),
        Rule::new(20, "example.com", "/login", 4, 103),
        Rule::new(30, "", "/login*", 5, 104),
        Rule::new(30, "", "/logi*", 6, 105),
        Rule::new(1, "", "/admin", 7, 106),
        Rule::new(40, "", "/longer/prefix/*", 8, 107),
        Rule::new(35, "", "/longer/*", 9, 108),
        Rule::new(50, "[::1]", "", 10, 109),
        too_long,
        never,
        disabled,
    ]
}

fn bank() -> Bank {
    Bank {
        rules: rules(),
        default_pool: DEFAULT_POOL,
    }
}

struct Case {
    name: &'static str,
    req: Vec<u8>,
    pool: u16,
    /// flags that must be set; every other flag must be clear
    flags: u32,
    method: u8,
}

fn case(name: &'static str, req: &[u8], pool: u16, flags: u32, method: u8) -> Case {
    Case {
        name,
        req: req.to_vec(),
        pool,
        flags,
        method,
    }
}

fn cases() -> Vec<Case> {
    let m = MATCHED | HOST_FOUND;
    let mut long_hdr = b"GET /v1/x HTTP/1.1\r\nX-Pad: ".to_vec();
    long_hdr.extend(std::iter::repeat_n(b'a', 1100));
    long_hdr.extend_from_slice(b"\r\nHost: api.example.com\r\n\r\n");
    let mut long_path = b"GET ".to_vec();
    long_path.extend(std::iter::repeat_n(b'/', 200));
    long_path.extend_from_slice(b" HTTP/1.1\r\nHost: x\r\n\r\n");
    vec![
        case(
            "host+path beats wildcard by priority",
            b"GET /v1/users HTTP/1.1\r\nHost: api.example.com\r\n\r\n",
            1,
            m,
            method::GET,
        ),
        case(
            "any-host prefix with the lowest priority wins",
            b"GET /static/x.css HTTP/1.1\r\nHost: api.example.com\r\n\r\n",
            2,
            m,
            method::GET,
        ),
        case(
            "upper-case Host with :port hits the wildcard",
            b"GET /x HTTP/1.1\r\nHost: API.Example.COM:8443\r\n\r\n",
            3,
            m,
            method::GET,
        ),
        case(
            "upper-case header name",
            b"HEAD /x HTTP/1.1\r\nHOST: www.example.com\r\n\r\n",
            3,
            m,
            method::HEAD,
        ),
        case(
            "OWS and tabs around the Host value",
            b"GET /x HTTP/1.0\r\nhost:\t  Deep.Sub.Example.Com \t\r\n\r\n",
            3,
            m,
            method::GET,
        ),
        case(
            "bare domain does not match *.example.com",
            b"GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n",
            DEFAULT_POOL,
            HOST_FOUND,
            method::GET,
        ),
        case(
            "exact beats prefix only by priority (exact prio 20 < prefix 30)",
            b"POST /login HTTP/1.1\r\nHost: example.com\r\n\r\n",
            4,
            m,
            method::POST,
        ),
        case(
            "equal priority: declaration order",
            b"PUT /login HTTP/1.1\r\nHost: other.org\r\n\r\n",
            5,
            m,
            method::PUT,
        ),
        case(
            "longest prefix is not implied",
            b"GET /longer/prefix/a HTTP/1.1\r\nHost: z\r\n\r\n",
            9,
            m,
            method::GET,
        ),
        case(
            "missing Host: host-any rules only",
            b"GET /longer/prefix/a HTTP/1.1\r\nAccept: */*\r\n\r\n",
            9,
            MATCHED,
            method::GET,
        ),
        case(
            "missing Host: host rules do not match",
            b"GET /v1/users HTTP/1.1\r\nAccept: */*\r\n\r\n",
            DEFAULT_POOL,
            0,
            method::GET,
        ),
        case(
            "absolute-form target",
            b"GET http://api.example.com/v1/users?x=1 HTTP/1.1\r\nHost: api.example.com\r\n\r\n",
            1,
            m | ABSFORM,
            method::GET,
        ),
        case(
            "absolute-form target, https, no path",
            b"OPTIONS HTTPS://api.example.com:443 HTTP/1.1\r\nHost: q\r\n\r\n",
            DEFAULT_POOL,
            HOST_FOUND | ABSFORM,
            method::OPTIONS,
        ),
        case(
            "query string ignored",
            b"DELETE /admin?debug=1 HTTP/1.1\r\nHost: a\r\n\r\n",
            7,
            m,
            method::DELETE,
        ),
        case(
            "percent-encoded dot segments flagged",
            b"GET /static/%2e%2e/admin HTTP/1.1\r\nHost: a\r\n\r\n",
            2,
            m | NEEDS_NORM,
            method::GET,
        ),
        case(
            "encoded admin flagged",
            b"GET /%61dmin HTTP/1.1\r\nHost: a\r\n\r\n",
            DEFAULT_POOL,
            HOST_FOUND | NEEDS_NORM,
            method::GET,
        ),
        case(
            "dot-dot segment flagged",
            b"GET /static/../admin HTTP/1.1\r\nHost: a\r\n\r\n",
            2,
            m | NEEDS_NORM,
            method::GET,
        ),
        case(
            "trailing dot segment flagged",
            b"GET /static/.. HTTP/1.1\r\nHost: a\r\n\r\n",
            2,
            m | NEEDS_NORM,
            method::GET,
        ),
        case(
            "duplicate slash flagged",
            b"GET //admin HTTP/1.1\r\nHost: a\r\n\r\n",
            DEFAULT_POOL,
            HOST_FOUND | NEEDS_NORM,
            method::GET,
        ),
        case(
            "backslash flagged",
            b"GET /static\\..\\admin HTTP/1.1\r\nHost: a\r\n\r\n",
            DEFAULT_POOL,
            HOST_FOUND | NEEDS_NORM,
            method::GET,
        ),
        case(
            "host trailing dot flagged",
            b"GET /x HTTP/1.1\r\nHost: api.example.com.\r\n\r\n",
            DEFAULT_POOL,
            HOST_FOUND | NEEDS_NORM,
            method::GET,
        ),
        case(
            "request split inside Host: incomplete",
            b"GET /admin HTTP/1.1\r\nHost: exa",
            DEFAULT_POOL,
            INCOMPLETE,
            method::GET,
        ),
        case(
            "request split inside the request line: incomplete",
            b"GET /adm",
            DEFAULT_POOL,
            INCOMPLETE,
            method::GET,
        ),
        case(
            "request split in the method: incomplete",
            b"GE",
            DEFAULT_POOL,
            INCOMPLETE,
            method::OTHER,
        ),
        case(
            "Host line done, headers not ended: complete",
            b"GET /v1/a HTTP/1.1\r\nHost: api.example.com\r\nX-Long: abc",
            1,
            m,
            method::GET,
        ),
        case(
            "TLS ClientHello",
            &[
                0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x11, 0x22,
            ],
            DEFAULT_POOL,
            NOT_HTTP,
            method::OTHER,
        ),
        case(
            "HTTP/2 preface",
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            DEFAULT_POOL,
            NOT_HTTP,
            method::OTHER,
        ),
        case(
            "duplicate Host header",
            b"GET /v1/a HTTP/1.1\r\nHost: api.example.com\r\nHost: evil.org\r\n\r\n",
            DEFAULT_POOL,
            NOT_HTTP,
            method::GET,
        ),
        case(
            "space before the colon",
            b"GET /v1/a HTTP/1.1\r\nHost : api.example.com\r\n\r\n",
            DEFAULT_POOL,
            NOT_HTTP,
            method::GET,
        ),
        case(
            "bare LF line end",
            b"GET /v1/a HTTP/1.1\nHost: api.example.com\r\n\r\n",
            DEFAULT_POOL,
            NOT_HTTP,
            method::GET,
        ),
        case(
            "obs-fold line",
            b"GET /v1/a HTTP/1.1\r\nX: a\r\n b\r\nHost: a\r\n\r\n",
            DEFAULT_POOL,
            NOT_HTTP,
            method::GET,
        ),
        case(
            "unknown method is other",
            b"PATCH /admin HTTP/1.1\r\nHost: a\r\n\r\n",
            7,
            m,
            method::OTHER,
        ),
        case(
            "lower-case method is other",
            b"get /admin HTTP/1.1\r\nHost: a\r\n\r\n",
            7,
            m,
            method::OTHER,
        ),
        case(
            "IPv6 literal host with port",
            b"GET /q HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n",
            10,
            m,
            method::GET,
        ),
        case(
            "Host beyond the window: incomplete, over_window",
            &long_hdr,
            DEFAULT_POOL,
            INCOMPLETE | OVER_WINDOW,
            method::GET,
        ),
        case(
            "pattern longer than PAT_MAX never matches; long path",
            &long_path,
            DEFAULT_POOL,
            HOST_FOUND | NEEDS_NORM,
            method::GET,
        ),
        case(
            "port must be digits",
            b"GET /x HTTP/1.1\r\nHost: a.example.com:80x\r\n\r\n",
            DEFAULT_POOL,
            NOT_HTTP,
            method::GET,
        ),
    ]
}

fn check_reference(b: &Bank, c: &Case) -> Outcome {
    let o = classify(b, &c.req);
    assert_eq!(o.pool, c.pool, "{}: pool ({o:?})", c.name);
    assert_eq!(o.flags, c.flags, "{}: flags ({o:?})", c.name);
    assert_eq!(o.method, c.method, "{}: method ({o:?})", c.name);
    o
}

fn run_cases(width: u32) {
    let b = bank();
    let cs = cases();
    let expect: Vec<Outcome> = cs.iter().map(|c| check_reference(&b, c)).collect();
    let mut m = Matcher::new(width).expect("model");
    m.load_inactive(&b.rules, b.default_pool).expect("load");
    m.switch_bank().expect("switch");
    let reqs: Vec<Vec<u8>> = cs.iter().map(|c| c.req.clone()).collect();
    for (seed, gaps) in [(1u32, 0u32), (2, 30)] {
        let opts = RunOpts {
            valid_gap_pct: gaps,
            ready_gap_pct: gaps,
            seed,
            ..RunOpts::default()
        };
        let out = m.run(&reqs, &opts).expect("run");
        for (i, (r, e)) in out.results.iter().zip(&expect).enumerate() {
            let name = cs[i].name;
            assert_eq!(r.tag as usize, i, "{name}: order");
            assert_eq!(r.pool, e.pool, "{name}: pool (w{width}) {r:?}");
            assert_eq!(r.rule_id, e.rule_id, "{name}: rule id (w{width}) {r:?}");
            assert_eq!(r.flags, e.flags, "{name}: flags (w{width}) {r:?}");
            assert_eq!(r.method, e.method, "{name}: method (w{width}) {r:?}");
            assert_eq!(r.bank, 1, "{name}: bank");
        }
    }
}

#[test]
fn precedence_and_normalisation_w64() {
    run_cases(64);
}

#[test]
fn precedence_and_normalisation_w512() {
    run_cases(512);
}

#[test]
fn empty_table_gives_default_pool() {
    for width in [64, 512] {
        let mut m = Matcher::new(width).expect("model");
        m.set_default_pool(7).expect("default");
        m.switch_bank().expect("switch");
        let reqs = vec![b"GET / HTTP/1.1\r\nHost: a\r\n\r\n".to_vec()];
        let out = m.run(&reqs, &RunOpts::default()).expect("run");
        assert_eq!(out.results[0].pool, 7);
        assert_eq!(out.results[0].flags, HOST_FOUND);
    }
}
