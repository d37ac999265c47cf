//! The canonicaliser's rules, one table per rule (docs/canon.md): request-target forms, Host
//! normalisation, line endings, leading empty lines, spaces, dot segments, merged slashes and
//! every refusal reason.

use splicenic_fw_logic::canon::{
    canonicalize, Canonical, Form, Outcome, Reason, Version, MAX_HEAD_BYTES, MAX_HOST_LEN,
    MAX_LEADING_EMPTY_LINES, MAX_PATH_LEN, OUT_LEN, REASONS,
};

/// What a case expects.
#[derive(Debug, PartialEq)]
enum Want {
    /// Accepted: host, path.
    Ok(&'static str, &'static str),
    Refuse(Reason),
    Incomplete,
}
use Want::{Incomplete, Refuse};

fn ok(host: &'static str, path: &'static str) -> Want {
    Want::Ok(host, path)
}

fn run(head: &[u8]) -> Want {
    let mut out = [0u8; OUT_LEN];
    match canonicalize(head, &mut out) {
        Outcome::Canonical(c) => {
            let host = String::from_utf8(c.host.to_vec()).unwrap();
            let path = String::from_utf8_lossy(c.path).into_owned();
            Want::Ok(host.leak(), path.leak())
        }
        Outcome::Refuse(r) => Want::Refuse(r),
        Outcome::Incomplete => Want::Incomplete,
    }
}

fn canonical(head: &[u8], f: impl FnOnce(&Canonical)) {
    let mut out = [0u8; OUT_LEN];
    match canonicalize(head, &mut out) {
        Outcome::Canonical(c) => f(&c),
        other => panic!("{:?}: {other:?}", String::from_utf8_lossy(head)),
    }
}

fn check(cases: &[(&str, Want)]) {
    for (head, want) in cases {
        assert_eq!(&run(head.as_bytes()), want, "head {head:?}");
    }
}

/// `GET <target> HTTP/1.1` with `Host: a.example`.
fn get(target: &str) -> String {
    format!("GET {target} HTTP/1.1\r\nHost: a.example\r\n\r\n")
}

fn check_paths(cases: &[(&str, Want)]) {
    for (target, want) in cases {
        assert_eq!(&run(get(target).as_bytes()), want, "target {target:?}");
    }
}

#[test]
fn origin_form() {
    check_paths(&[
        ("/", ok("a.example", "/")),
        ("/index.html", ok("a.example", "/index.html")),
        ("/a/b?x=1&y=/../..", ok("a.example", "/a/b")),
        ("/a?", ok("a.example", "/a")),
        ("/a#frag", ok("a.example", "/a")),
        ("/a?q#frag", ok("a.example", "/a")),
        ("/a%3Fb", ok("a.example", "/a?b")),
        ("/a%23b", ok("a.example", "/a#b")),
        ("/a%25b", ok("a.example", "/a%b")),
        ("/%7Euser/", ok("a.example", "/~user/")),
        ("/caf%C3%A9", ok("a.example", "/caf\u{e9}")),
        ("/a+b", ok("a.example", "/a+b")),
        ("/a%20b", ok("a.example", "/a b")),
        ("/\"<>{}|^`", ok("a.example", "/\"<>{}|^`")),
        ("/a?%zz%", ok("a.example", "/a")),
    ]);
}

#[test]
fn absolute_form() {
    check(&[
        (
            "GET http://b.example/x HTTP/1.1\r\nHost: a.example\r\n\r\n",
            ok("b.example", "/x"),
        ),
        (
            "GET HTTP://B.Example:80/x HTTP/1.1\r\nHost: a.example\r\n\r\n",
            ok("b.example", "/x"),
        ),
        (
            "GET http://b.example HTTP/1.1\r\nHost: a\r\n\r\n",
            ok("b.example", "/"),
        ),
        (
            "GET http://b.example?q=1 HTTP/1.1\r\nHost: a\r\n\r\n",
            ok("b.example", "/"),
        ),
        (
            "GET http://b.example./a/../b HTTP/1.1\r\nHost: a\r\n\r\n",
            ok("b.example", "/b"),
        ),
        (
            "GET http://[::1]:8080/ HTTP/1.1\r\nHost: a\r\n\r\n",
            ok("[::1]", "/"),
        ),
        (
            "GET http://b.example:/ HTTP/1.0\r\n\r\n",
            ok("b.example", "/"),
        ),
        // The Host header is still required for HTTP/1.1 and still validated.
        (
            "GET http://b.example/ HTTP/1.1\r\n\r\n",
            Refuse(Reason::NoHost),
        ),
        (
            "GET http://b.example/ HTTP/1.1\r\nHost: a/b\r\n\r\n",
            Refuse(Reason::HostChar),
        ),
        (
            "GET http://b.example/ HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n",
            Refuse(Reason::DuplicateHost),
        ),
        (
            "GET https://b.example/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::Scheme),
        ),
        (
            "GET ftp://b.example/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::Scheme),
        ),
        (
            "GET http:/b.example/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::Scheme),
        ),
        (
            "GET http:///x HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::EmptyHost),
        ),
        (
            "GET http://u@b.example/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::HostChar),
        ),
        (
            "GET http://b_c.example/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::HostChar),
        ),
        (
            "GET http://b.example#f HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::HostChar),
        ),
        (
            "GET http://b..example/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::HostSyntax),
        ),
        (
            "GET http://b.example:99999/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::BadPort),
        ),
        (
            "GET http://[::1/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::HostChar),
        ),
        (
            "GET http://[]/ HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::HostSyntax),
        ),
    ]);
    canonical(
        b"GET http://b.example:8080/x HTTP/1.1\r\nHost: a.example:9\r\n\r\n",
        |c| {
            assert_eq!(c.form, Form::Absolute);
            assert_eq!(c.port, Some(8080));
        },
    );
}

#[test]
fn authority_and_asterisk_forms_are_refused() {
    check(&[
        (
            "CONNECT b.example:443 HTTP/1.1\r\nHost: b.example:443\r\n\r\n",
            Refuse(Reason::Connect),
        ),
        (
            "CONNECT /x HTTP/1.1\r\nHost: b\r\n\r\n",
            Refuse(Reason::Connect),
        ),
        (
            "GET b.example:443 HTTP/1.1\r\nHost: b\r\n\r\n",
            Refuse(Reason::AuthorityForm),
        ),
        (
            "OPTIONS * HTTP/1.1\r\nHost: b\r\n\r\n",
            Refuse(Reason::AsteriskForm),
        ),
        (
            "GET abc HTTP/1.1\r\nHost: b\r\n\r\n",
            Refuse(Reason::RequestLine),
        ),
        (
            "GET ?x HTTP/1.1\r\nHost: b\r\n\r\n",
            Refuse(Reason::RequestLine),
        ),
        ("TRACE / HTTP/1.1\r\nHost: b\r\n\r\n", Refuse(Reason::Trace)),
    ]);
}

#[test]
fn host_normalisation() {
    let host = |value: &str| format!("GET / HTTP/1.1\r\nHost:{value}\r\n\r\n");
    let cases: &[(&str, Want)] = &[
        (" A.Example", ok("a.example", "/")),
        ("a.example", ok("a.example", "/")),
        ("   a.example   ", ok("a.example", "/")),
        (" a.example:80", ok("a.example", "/")),
        (" a.example:080", ok("a.example", "/")),
        (" a.example:", ok("a.example", "/")),
        (" a.example:8080", ok("a.example", "/")),
        (" a.example.", ok("a.example", "/")),
        (" a.example.:80", ok("a.example", "/")),
        (" [::1]", ok("[::1]", "/")),
        (" [2001:DB8::A]:80", ok("[2001:db8::a]", "/")),
        (" 192.0.2.1:81", ok("192.0.2.1", "/")),
        (" a_b-c~d", ok("a_b-c~d", "/")),
        ("", Refuse(Reason::EmptyHost)),
        ("   ", Refuse(Reason::EmptyHost)),
        (" :80", Refuse(Reason::EmptyHost)),
        (" .", Refuse(Reason::HostSyntax)),
        (" .a.example", Refuse(Reason::HostSyntax)),
        (" a..example", Refuse(Reason::HostSyntax)),
        (" [::1", Refuse(Reason::HostSyntax)),
        (" []", Refuse(Reason::HostSyntax)),
        (" [::1]x", Refuse(Reason::HostSyntax)),
        (" [::%1]", Refuse(Reason::HostChar)),
        (" [::..1]", Refuse(Reason::HostSyntax)),
        (" a/b", Refuse(Reason::HostChar)),
        (" a\\b", Refuse(Reason::HostChar)),
        (" u@a.example", Refuse(Reason::HostChar)),
        (" a%2eb", Refuse(Reason::HostChar)),
        (" a b", Refuse(Reason::HostChar)),
        ("\ta.example", Refuse(Reason::HostChar)),
        (" a.example\t", Refuse(Reason::HostChar)),
        (" a\u{e9}", Refuse(Reason::HostChar)),
        (" a.example:x", Refuse(Reason::BadPort)),
        (" a.example:1:2", Refuse(Reason::BadPort)),
        (" a.example:65536", Refuse(Reason::BadPort)),
        (" a.example:000080", Refuse(Reason::BadPort)),
        (" a.example:-1", Refuse(Reason::BadPort)),
    ];
    for (value, want) in cases {
        assert_eq!(&run(host(value).as_bytes()), want, "Host:{value:?}");
    }
    // The name is case-insensitive; the port is reported, 80 is none.
    canonical(b"GET / HTTP/1.1\r\nhOsT: a:8080\r\n\r\n", |c| {
        assert_eq!(c.host, b"a");
        assert_eq!(c.port, Some(8080));
        assert_eq!(c.form, Form::Origin);
    });
    canonical(b"GET / HTTP/1.1\r\nHOST: a:80\r\n\r\n", |c| {
        assert_eq!(c.port, None)
    });
    canonical(b"GET / HTTP/1.1\r\nHost: a:0\r\n\r\n", |c| {
        assert_eq!(c.port, Some(0))
    });
    // Other headers around it, names that only look like Host.
    check(&[
        (
            "GET / HTTP/1.1\r\nAccept: */*\r\nX-Host: b\r\nHost: a\r\nHosts: c\r\nHo_st: d\r\n\r\n",
            ok("a", "/"),
        ),
        (
            "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n",
            Refuse(Reason::DuplicateHost),
        ),
        (
            "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            Refuse(Reason::DuplicateHost),
        ),
        (
            "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n",
            Refuse(Reason::NoHost),
        ),
        ("GET / HTTP/1.2\r\n\r\n", Refuse(Reason::NoHost)),
    ]);
    let long = "a".repeat(MAX_HOST_LEN);
    assert_eq!(run(host(&long).as_bytes()), ok(long.clone().leak(), "/"));
    assert_eq!(
        run(host(&format!("{long}.")).as_bytes()),
        ok(long.clone().leak(), "/")
    );
    assert_eq!(
        run(host(&format!("{long}a")).as_bytes()),
        Refuse(Reason::HostTooLong)
    );
}

#[test]
fn http10_without_host_has_an_empty_host() {
    check(&[
        ("GET /a HTTP/1.0\r\n\r\n", ok("", "/a")),
        ("GET /a HTTP/1.00\r\n\r\n", ok("", "/a")),
        ("GET /a HTTP/1.0\r\nHost: B\r\n\r\n", ok("b", "/a")),
        (
            "GET /a HTTP/1.0\r\nHost:\r\n\r\n",
            Refuse(Reason::EmptyHost),
        ),
        ("GET /a HTTP/1.1\r\n\r\n", Refuse(Reason::NoHost)),
    ]);
    canonical(b"GET / HTTP/1.0\r\n\r\n", |c| {
        assert_eq!(c.version, Version::Http10)
    });
    canonical(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", |c| {
        assert_eq!(c.version, Version::Http11)
    });
    canonical(b"GET / HTTP/1.999\r\nHost: a\r\n\r\n", |c| {
        assert_eq!(c.version, Version::Http11)
    });
}

#[test]
fn line_endings() {
    check(&[
        ("GET /a HTTP/1.1\nHost: a\n\n", ok("a", "/a")),
        ("GET /a HTTP/1.1\r\nHost: a\n\r\n", ok("a", "/a")),
        ("GET /a HTTP/1.1\nHost: a\r\n\n", ok("a", "/a")),
        (
            "GET /a HTTP/1.1\rHost: a\r\n\r\n",
            Refuse(Reason::LineEnding),
        ),
        (
            "GET /a HTTP/1.1\r\nHost: a\r\r\n\r\n",
            Refuse(Reason::LineEnding),
        ),
        (
            "GET /a HTTP/1.1\r\nHost: a\rb\r\n\r\n",
            Refuse(Reason::LineEnding),
        ),
        (
            "GET /a HTTP/1.1\r\nHost: a\r\n\r\r\n",
            Refuse(Reason::LineEnding),
        ),
        (
            "GET /a\r HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::LineEnding),
        ),
        (
            "\rGET /a HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::LineEnding),
        ),
        (
            "GET /a HTTP/1.1\r\nX: \r\r\nHost: a\r\n\r\n",
            Refuse(Reason::LineEnding),
        ),
    ]);
    // The head ends at the first empty line; what follows (a body) is not read.
    canonical(b"POST /a HTTP/1.1\nHost: a\n\nbody\r\rwith CRs", |c| {
        assert_eq!(c.head_len, Some(26))
    });
    let head = b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n";
    canonical(head, |c| assert_eq!(c.head_len, Some(head.len())));
}

#[test]
fn leading_empty_lines() {
    let head = |lines: &str| format!("{lines}GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    check(&[
        (&head("\r\n"), ok("a", "/a")),
        (&head("\n"), ok("a", "/a")),
        (&head("\r\n\n\r\n"), ok("a", "/a")),
        (
            &head(&"\r\n".repeat(MAX_LEADING_EMPTY_LINES)),
            ok("a", "/a"),
        ),
        (
            &head(&"\n".repeat(MAX_LEADING_EMPTY_LINES + 1)),
            Refuse(Reason::LeadingEmptyLines),
        ),
        (&head("\r\r\n"), Refuse(Reason::LineEnding)),
        (&head(" \r\n"), Refuse(Reason::Method)),
    ]);
    let h = head("\r\n\n");
    canonical(h.as_bytes(), |c| assert_eq!(c.head_len, Some(h.len())));
}

#[test]
fn request_line_spaces_and_tokens() {
    check(&[
        ("GET  /a   HTTP/1.1\r\nHost: a\r\n\r\n", ok("a", "/a")),
        ("GET /a HTTP/1.1   \r\nHost: a\r\n\r\n", ok("a", "/a")),
        (
            "GET\t/a HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::Method),
        ),
        (
            "GET /a\tHTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::PathChar),
        ),
        (
            " GET /a HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::Method),
        ),
        ("get /a HTTP/1.1\r\nHost: a\r\n\r\n", Refuse(Reason::Method)),
        ("GeT /a HTTP/1.1\r\nHost: a\r\n\r\n", Refuse(Reason::Method)),
        ("G3T /a HTTP/1.1\r\nHost: a\r\n\r\n", Refuse(Reason::Method)),
        ("GET\r\nHost: a\r\n\r\n", Refuse(Reason::Method)),
        ("M-SEARCH_X /a HTTP/1.1\r\nHost: a\r\n\r\n", ok("a", "/a")),
        ("PROPFIND /a HTTP/1.1\r\nHost: a\r\n\r\n", ok("a", "/a")),
        ("GET \r\nHost: a\r\n\r\n", Refuse(Reason::RequestLine)),
        ("GET /a\r\nHost: a\r\n\r\n", Refuse(Reason::Version)),
        ("GET /a \r\nHost: a\r\n\r\n", Refuse(Reason::Version)),
        (
            "GET /a HTTP/1.1 x\r\nHost: a\r\n\r\n",
            Refuse(Reason::RequestLine),
        ),
        (
            "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::Version),
        ),
        (
            "GET /a HTTP/2.0\r\nHost: a\r\n\r\n",
            Refuse(Reason::Version),
        ),
        (
            "GET /a HTTP/0.9\r\nHost: a\r\n\r\n",
            Refuse(Reason::Version),
        ),
        ("GET /a HTTP/1.\r\nHost: a\r\n\r\n", Refuse(Reason::Version)),
        (
            "GET /a HTTP/1.1000\r\nHost: a\r\n\r\n",
            Refuse(Reason::Version),
        ),
        (
            "GET /a HTTP/1.1x\r\nHost: a\r\n\r\n",
            Refuse(Reason::Version),
        ),
        (
            "GET /a http/1.1\r\nHost: a\r\n\r\n",
            Refuse(Reason::Version),
        ),
        (
            "GET /a HTTP/1.1\r\n Host: a\r\n\r\n",
            Refuse(Reason::HeaderSyntax),
        ),
    ]);
}

#[test]
fn dot_segments_and_merged_slashes() {
    check_paths(&[
        ("/a/./b", ok("a.example", "/a/b")),
        ("/a/../b", ok("a.example", "/b")),
        ("/a/b/../../c", ok("a.example", "/c")),
        ("/a/b/..", ok("a.example", "/a/")),
        ("/a/b/.", ok("a.example", "/a/b/")),
        ("/.", ok("a.example", "/")),
        ("/./", ok("a.example", "/")),
        ("/a/..", ok("a.example", "/")),
        ("/a/..?x", ok("a.example", "/")),
        ("/a/.#x", ok("a.example", "/a/")),
        ("/a/%2e%2E/b", ok("a.example", "/b")),
        ("/a/.%2e/b", ok("a.example", "/b")),
        ("/a/%2e/b", ok("a.example", "/a/b")),
        ("/a/..b/c", ok("a.example", "/a/..b/c")),
        ("/a/...", ok("a.example", "/a/...")),
        ("/a/b../", ok("a.example", "/a/b../")),
        ("/a/.b", ok("a.example", "/a/.b")),
        ("/a/%2e%3f/", ok("a.example", "/a/.?/")),
        ("//a", ok("a.example", "/a")),
        ("/a//b", ok("a.example", "/a/b")),
        ("/a///b//", ok("a.example", "/a/b/")),
        ("/a/.//b", ok("a.example", "/a/b")),
        ("/a//..//b", ok("a.example", "/b")),
        ("/a/b//../c", ok("a.example", "/a/c")),
        ("/..", Refuse(Reason::AboveRoot)),
        ("/../a", Refuse(Reason::AboveRoot)),
        ("/a/../..", Refuse(Reason::AboveRoot)),
        ("/%2e%2e/a", Refuse(Reason::AboveRoot)),
        ("//..", Refuse(Reason::AboveRoot)),
        ("/./../", Refuse(Reason::AboveRoot)),
    ]);
}

#[test]
fn path_refusals() {
    check_paths(&[
        ("/a%2Fb", Refuse(Reason::EncodedSlash)),
        ("/a%2fb", Refuse(Reason::EncodedSlash)),
        ("/a%00b", Refuse(Reason::EncodedNul)),
        ("/a\\b", Refuse(Reason::Backslash)),
        ("/a%5Cb", Refuse(Reason::Backslash)),
        ("/a%5cb", Refuse(Reason::Backslash)),
        ("/a%", Refuse(Reason::BadPercent)),
        ("/a%4", Refuse(Reason::BadPercent)),
        ("/a%4g", Refuse(Reason::BadPercent)),
        ("/a%g4", Refuse(Reason::BadPercent)),
        ("/a%%41", Refuse(Reason::BadPercent)),
        ("/a\x01", Refuse(Reason::PathChar)),
        ("/a\x7f", Refuse(Reason::PathChar)),
        ("/a?b\x01", Refuse(Reason::PathChar)),
        ("/a#b\x7f", Refuse(Reason::PathChar)),
        ("/caf\u{e9}", Refuse(Reason::PathChar)),
    ]);
    // A raw byte above 0x7F in the query is accepted (nginx does, and the query is not
    // part of the path).
    assert_eq!(
        run("GET /a?\u{e9} HTTP/1.1\r\nHost: a\r\n\r\n".as_bytes()),
        ok("a", "/a")
    );
    // The first refusal in the head's order wins.
    check_paths(&[("/..%2F", Refuse(Reason::EncodedSlash))]);
    check_paths(&[("/../%2F", Refuse(Reason::AboveRoot))]);
}

#[test]
fn path_length_limit() {
    let path = |n: usize| format!("/{}", "a".repeat(n - 1));
    let max = path(MAX_PATH_LEN);
    assert_eq!(
        run(get(&max).as_bytes()),
        ok("a.example", max.clone().leak())
    );
    assert_eq!(
        run(get(&path(MAX_PATH_LEN + 1)).as_bytes()),
        Refuse(Reason::PathTooLong)
    );
    // The limit counts bytes as received: "%41" is three.
    let encoded = format!("/{}", "%41".repeat(MAX_PATH_LEN / 3 + 1));
    assert_eq!(run(get(&encoded).as_bytes()), Refuse(Reason::PathTooLong));
    let encoded = format!("/{}", "%41".repeat((MAX_PATH_LEN - 1) / 3));
    assert!(matches!(run(get(&encoded).as_bytes()), Want::Ok(..)));
    // The query does not count.
    let head = format!("GET /a?{} HTTP/1.1\r\nHost: a\r\n\r\n", "q".repeat(800));
    assert_eq!(run(head.as_bytes()), ok("a", "/a"));
}

#[test]
fn header_syntax() {
    let with = |line: &str| format!("GET / HTTP/1.1\r\nHost: a\r\n{line}\r\n\r\n");
    let cases: &[(&str, Want)] = &[
        ("X-A: b", ok("a", "/")),
        ("X-A:", ok("a", "/")),
        ("X_A: b", ok("a", "/")),
        ("X(A): b\x01\x7f\u{e9}", ok("a", "/")),
        ("X-A: b: c", ok("a", "/")),
        ("X-A", Refuse(Reason::HeaderSyntax)),
        (": b", Refuse(Reason::HeaderSyntax)),
        ("X A: b", Refuse(Reason::HeaderSyntax)),
        ("X-A : b", Refuse(Reason::HeaderSyntax)),
        ("X\x01A: b", Refuse(Reason::HeaderSyntax)),
        ("X-A: b\x00", Refuse(Reason::HeaderSyntax)),
        (" folded", Refuse(Reason::HeaderSyntax)),
        ("\tfolded", Refuse(Reason::HeaderSyntax)),
        ("Host a", Refuse(Reason::HeaderSyntax)),
    ];
    for (line, want) in cases {
        assert_eq!(&run(with(line).as_bytes()), want, "line {line:?}");
    }
}

#[test]
fn prefixes_are_incomplete_until_the_host_line() {
    let head = b"GET /a/b HTTP/1.1\r\nAccept: */*\r\nHost: a.example\r\nX: y\r\n\r\n";
    // Complete from the Host line's CR on: only its LF may follow.
    let host_end = head.windows(2).position(|w| w == b"e\r").unwrap() + 2;
    for n in 0..head.len() {
        let got = run(&head[..n]);
        if n < host_end {
            assert_eq!(got, Incomplete, "prefix {n}");
        } else {
            assert_eq!(got, ok("a.example", "/a/b"), "prefix {n}");
            canonical(&head[..n], |c| assert_eq!(c.head_len, None));
        }
    }
    canonical(head, |c| assert_eq!(c.head_len, Some(head.len())));
    // HTTP/1.0: the Host line may still come until the head ends.
    let head = b"GET /a HTTP/1.0\r\nX: y\r\n";
    assert_eq!(run(head), Incomplete);
    // A definite error in an unterminated request line is refused at once.
    check(&[
        ("GET /a%2F", Refuse(Reason::EncodedSlash)),
        ("GET /..", Incomplete),
        ("GET /../", Refuse(Reason::AboveRoot)),
        ("get", Refuse(Reason::Method)),
        ("GET /a\rX", Refuse(Reason::LineEnding)),
        // A final CR ends the line: only its LF may follow.
        ("GET /a\r", Refuse(Reason::Version)),
        ("GET /a HTTP/1.", Incomplete),
        ("GET /a HTTP/2", Refuse(Reason::Version)),
        ("GET /a%4", Incomplete),
        ("GET /a HTTP/1.1000", Refuse(Reason::Version)),
        ("POST\r", Refuse(Reason::Method)),
        ("GET /a HTTP/1.1\r", Incomplete),
        ("GET /a HTTP/1.1 \r", Incomplete),
        ("\r\n\r", Incomplete),
        ("", Incomplete),
    ]);
    // So is one in an unterminated header line, when more bytes cannot mend it.
    let base = "GET / HTTP/1.1\r\nHost: a\r\n";
    for (tail, want) in [
        (" folded", Refuse(Reason::HeaderSyntax)),
        ("X A", Refuse(Reason::HeaderSyntax)),
        (":", Refuse(Reason::HeaderSyntax)),
        ("X: a\x00", Refuse(Reason::HeaderSyntax)),
        ("X: b\rc", Refuse(Reason::LineEnding)),
        ("host:", Refuse(Reason::DuplicateHost)),
        ("Host", ok("a", "/")),
        ("X: b\r", ok("a", "/")),
        ("X-A\r", Refuse(Reason::HeaderSyntax)),
        ("\r", ok("a", "/")),
        ("X-A", ok("a", "/")),
    ] {
        assert_eq!(run(format!("{base}{tail}").as_bytes()), want, "{tail:?}");
    }
    assert_eq!(run(b"GET / HTTP/1.1\r\nX A"), Refuse(Reason::HeaderSyntax));
    assert_eq!(run(b"GET / HTTP/1.1\r\nHost: a/"), Incomplete);
    assert_eq!(
        run(b"GET / HTTP/1.1\r\nHost: a/\r"),
        Refuse(Reason::HostChar)
    );
}

#[test]
fn head_limit() {
    // Undecided at MAX_HEAD_BYTES: refused; decided within: the rest is not read.
    let filler = format!("X: {}\r\n", "y".repeat(MAX_HEAD_BYTES));
    let late_host = format!("GET / HTTP/1.1\r\n{filler}Host: a\r\n\r\n");
    assert_eq!(run(late_host.as_bytes()), Refuse(Reason::HeadTooLong));
    assert_eq!(run(&late_host.as_bytes()[..MAX_HEAD_BYTES - 1]), Incomplete);
    assert_eq!(
        run(&late_host.as_bytes()[..MAX_HEAD_BYTES]),
        Refuse(Reason::HeadTooLong)
    );
    let early_host = format!("GET / HTTP/1.1\r\nHost: a\r\n{filler}\r\n");
    assert_eq!(run(early_host.as_bytes()), ok("a", "/"));
    canonical(early_host.as_bytes(), |c| assert_eq!(c.head_len, None));
    let long_line = format!("GET /?{} HTTP/1.1\r\nHost: a\r\n\r\n", "q".repeat(2000));
    assert_eq!(run(long_line.as_bytes()), Refuse(Reason::HeadTooLong));
    // The limit is the card's request buffer.
    assert_eq!(MAX_HEAD_BYTES, splicenic_fw_logic::splicer::REQ_BUF);
}

#[test]
fn output_buffer() {
    let head = b"GET /abc/def HTTP/1.1\r\nHost: Host.Example\r\n\r\n";
    for size in 0..40 {
        let mut out = vec![0u8; size];
        match canonicalize(head, &mut out) {
            Outcome::Canonical(c) => {
                assert!(size >= 8 + 12);
                assert_eq!((c.host, c.path), (&b"host.example"[..], &b"/abc/def"[..]));
            }
            Outcome::Refuse(Reason::OutputTooSmall) => assert!(size < 20, "{size}"),
            other => panic!("{size}: {other:?}"),
        }
    }
}

#[test]
fn every_reason_has_a_case() {
    // Each reason is produced by at least one head above; this lists one per code so a new
    // reason without a case fails here.
    let one: [(&str, Reason); REASONS] = [
        ("GET / HTTP/1.1\rX", Reason::LineEnding),
        ("\n\n\n\n\n\n\n\n\nGET", Reason::LeadingEmptyLines),
        ("get / HTTP/1.1\r\n", Reason::Method),
        ("CONNECT a:1 HTTP/1.1\r\n", Reason::Connect),
        ("TRACE / HTTP/1.1\r\n", Reason::Trace),
        ("GET \r\n", Reason::RequestLine),
        ("GET / HTTP/2.0\r\n", Reason::Version),
        ("GET a:1 HTTP/1.1\r\n", Reason::AuthorityForm),
        ("OPTIONS * HTTP/1.1\r\n", Reason::AsteriskForm),
        ("GET https://a/ HTTP/1.1\r\n", Reason::Scheme),
        ("GET /\x01 HTTP/1.1\r\n", Reason::PathChar),
        ("GET /% HTTP/1.1\r\n", Reason::BadPercent),
        ("GET /%2f HTTP/1.1\r\n", Reason::EncodedSlash),
        ("GET /%00 HTTP/1.1\r\n", Reason::EncodedNul),
        ("GET /\\ HTTP/1.1\r\n", Reason::Backslash),
        ("GET /.. HTTP/1.1\r\n", Reason::AboveRoot),
        ("", Reason::PathTooLong),
        ("GET / HTTP/1.1\r\n\r\n", Reason::NoHost),
        (
            "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n",
            Reason::DuplicateHost,
        ),
        ("GET / HTTP/1.1\r\nHost:\r\n\r\n", Reason::EmptyHost),
        ("GET / HTTP/1.1\r\nHost: a@b\r\n\r\n", Reason::HostChar),
        ("GET / HTTP/1.1\r\nHost: a..b\r\n\r\n", Reason::HostSyntax),
        ("GET / HTTP/1.1\r\nHost: a:b\r\n\r\n", Reason::BadPort),
        ("", Reason::HostTooLong),
        ("GET / HTTP/1.1\r\nX\r\n\r\n", Reason::HeaderSyntax),
        ("", Reason::HeadTooLong),
        ("", Reason::OutputTooSmall),
    ];
    for (i, (head, reason)) in one.iter().enumerate() {
        assert_eq!(reason.index(), i);
        let head = match reason {
            Reason::PathTooLong => get(&"/".repeat(MAX_PATH_LEN + 1)),
            Reason::HostTooLong => {
                format!(
                    "GET / HTTP/1.1\r\nHost: {}\r\n\r\n",
                    "h".repeat(MAX_HOST_LEN + 1)
                )
            }
            Reason::HeadTooLong => "\r\n".repeat(4) + &"A".repeat(MAX_HEAD_BYTES),
            _ => head.to_string(),
        };
        let mut small = [0u8; 3];
        let got = if *reason == Reason::OutputTooSmall {
            match canonicalize(get("/abc").as_bytes(), &mut small) {
                Outcome::Refuse(r) => Refuse(r),
                other => panic!("{other:?}"),
            }
        } else {
            run(head.as_bytes())
        };
        assert_eq!(got, Refuse(*reason), "{head:?}");
        assert!(!reason.name().is_empty());
    }
}
