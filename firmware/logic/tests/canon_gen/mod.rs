//! Request-head generator shared by `canon_fuzz.rs` and `canon_nginx.rs`: heads built from
//! pieces that hit the canonicaliser's rules (forms, dot segments, escapes, Host values,
//! line endings), then sometimes mutated. Deterministic: a seeded SplitMix64
//! (`splicenic-fuzzkit`, a dev-dependency: the crate itself stays `no_std`).

use splicenic_fuzzkit::{self as fuzz, Space};

/// SplitMix64 (the tests seed it and draw from it too).
pub use splicenic_fuzzkit::Rng;

/// The case count and seed: `<prefix>_CASES` / `<prefix>_SEED` from the environment, else
/// `short` cases and seed 1. Whether the count came from the environment (the long form).
pub fn cases_and_seed(prefix: &str, short: u64) -> (u64, u64, bool) {
    let var = |name: &str| {
        std::env::var(format!("{prefix}_{name}"))
            .ok()
            .map(|v| v.trim().parse::<u64>().expect("a number"))
    };
    let cases = var("CASES");
    (
        cases.unwrap_or(short),
        var("SEED").unwrap_or(1),
        cases.is_some(),
    )
}

/// Each list is (good, bad): a head picks from the bad half with its own odds, so some
/// heads are clean and the others carry one or a few hazards.
type Pieces = (&'static [&'static str], &'static [&'static str]);

const METHODS: Pieces = (
    &[
        "GET", "GET", "GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "M-SEARCH", "FOO_BAR",
    ],
    &["CONNECT", "TRACE", "get", "Get", "G3T", ""],
);

const SEGMENTS: Pieces = (
    &[
        "a",
        "b",
        "index.html",
        "x.y",
        "A",
        "~u",
        "a+b",
        "...",
        "..a",
        "a..",
        ".a",
        "",
        ".",
        "..",
        "%2e",
        "%2E%2e",
        ".%2e",
        "%2e.",
        "%41",
        "%3F",
        "%3f",
        "%23",
        "%25",
        "%20",
        "%C3%A9",
        "%7e",
        "%01",
        "%7F",
        "%FF",
        "\"",
        "<>",
        "{}",
        "|",
        "`",
        "^",
        "[",
        "]",
        "@",
        ":",
        ";",
        "=",
        "&",
        "!",
        "$",
        "'",
        "(",
        ")",
        "*",
        ",",
        "%252F",
        "a",
        "b",
        "c",
        "..",
    ],
    &[
        "%2F", "%2f", "%00", "%5C", "%5c", "\\", "%", "%4", "%zz", "\u{e9}", "\x01", "\x7f", "%2",
        "a%2Fb",
    ],
);

const QUERIES: Pieces = (
    &[
        "?a=1", "?", "?/../..", "?%zz", "?a#f", "#frag", "#", "?\u{e9}", "?a=%2F", "??",
    ],
    &["?x\x01", "#\x7f"],
);

const HOST_NAMES: Pieces = (
    &[
        "a.example",
        "a.example",
        "A.Example",
        "WWW.EXAMPLE.COM.",
        "b",
        "x.example.",
        "[::1]",
        "[2001:DB8::1]",
        "192.0.2.7",
        "a-b.c",
        "a_b",
        "a~b",
    ],
    &[
        "a..b",
        ".a",
        ".",
        "",
        "a/b",
        "u@h",
        "a b",
        "a\\b",
        "a%41",
        "[::1",
        "[]",
        "\u{e9}.example",
        "a,b",
        "a!b",
        "a.example..",
    ],
);

const PORTS: Pieces = (
    &[
        "", "", "", "", "", "", ":80", ":8080", ":", ":0", ":65535", ":080",
    ],
    &[":65536", ":x", "::", ":000080", ":1:2"],
);

const VERSIONS: Pieces = (
    &[
        "HTTP/1.1",
        "HTTP/1.1",
        "HTTP/1.1",
        "HTTP/1.0",
        "HTTP/1.2",
        "HTTP/1.00",
        "HTTP/1.999",
    ],
    &[
        "HTTP/1.1000",
        "HTTP/2.0",
        "HTTP/0.9",
        "HTTP/1.",
        "HTTP/1.1x",
        "http/1.1",
        "HTTP/11",
        "",
    ],
);

const EOLS: Pieces = (&["\r\n", "\r\n", "\n"], &["\r", "\r\r\n"]);

const HOST_HEADER_NAMES: Pieces = (
    &["Host", "Host", "Host", "host", "HOST", "hOsT"],
    &["Host ", "Hosts", "X-Host", " Host"],
);

const OTHER_HEADERS: Pieces = (
    &[
        "Accept: */*",
        "User-Agent: gen/1",
        "X-A: b",
        "Cookie: c=1; d=2",
        "X_Y: z",
        "X(Y): z",
        "X-E: \u{e9}\x01",
        "X-Empty:",
        "Connection: close",
    ],
    &[
        "Ho st: x",
        "NoColon",
        ": novalue",
        " folded",
        "\tfolded",
        "X-N: a\x00b",
    ],
);

const SCHEMES: Pieces = (&["http", "http", "HTTP", "hTtP"], &["https", "ftp"]);

const AUTHORITIES: Pieces = (
    &["b.example", "B.EXAMPLE.", "[::1]", "192.0.2.9"],
    &["b_c", "u@b", "", "b..c"],
);

/// Bytes and tokens the mutator inserts.
const TOKENS: &[&str] = &[
    "/",
    "//",
    "..",
    ".",
    "%",
    "%2",
    "%2F",
    "%2e",
    "\r",
    "\n",
    "\r\n",
    " ",
    "  ",
    ":",
    "?",
    "#",
    "\t",
    "\x00",
    "[",
    "]",
    "@",
    "\\",
    "Host: x\r\n",
    "\r\n\r\n",
    "HTTP/1.1",
    "\u{e9}",
    "A",
];

/// A head being generated: the bad piece of a list comes one time in `bad_one_in` (never
/// for 0).
struct Gen<'r> {
    rng: &'r mut Rng,
    bad_one_in: usize,
    out: Vec<u8>,
}

impl Gen<'_> {
    fn pick(&mut self, (good, bad): Pieces) -> &'static str {
        if self.bad_one_in > 0 && self.rng.chance(self.bad_one_in) {
            self.rng.pick(bad)
        } else {
            self.rng.pick(good)
        }
    }

    fn put(&mut self, pieces: Pieces) {
        let s = self.pick(pieces);
        self.out.extend_from_slice(s.as_bytes());
    }

    fn bad(&mut self) -> bool {
        self.bad_one_in > 0 && self.rng.chance(self.bad_one_in)
    }

    fn target(&mut self) {
        if !self.bad() {
            if self.rng.chance(6) {
                self.absolute();
            } else {
                self.origin();
            }
            return;
        }
        match self.rng.below(3) {
            0 => {
                let t = self.rng.pick(&["b.example:443", "b:80", "[::1]:443"]);
                self.out.extend_from_slice(t.as_bytes());
            }
            1 => self.out.push(b'*'),
            _ => {
                let t = self.rng.pick(&["abc", "?x", "", "%2F", "\\a"]);
                self.out.extend_from_slice(t.as_bytes());
            }
        }
    }

    fn absolute(&mut self) {
        self.put(SCHEMES);
        let sep: &[u8] = if self.bad() { b":/" } else { b"://" };
        self.out.extend_from_slice(sep);
        self.put(AUTHORITIES);
        self.put(PORTS);
        if !self.rng.chance(4) {
            self.origin();
        } else if self.rng.chance(2) {
            self.put(QUERIES);
        }
    }

    fn origin(&mut self) {
        if self.rng.chance(8) {
            self.out.push(b'/');
        }
        let n = self.rng.below(8);
        if n == 0 {
            self.out.push(b'/');
        }
        for _ in 0..n {
            self.out.push(b'/');
            self.put(SEGMENTS);
        }
        if self.rng.chance(6) {
            self.out.push(b'/');
        }
        if self.rng.chance(4) {
            self.put(QUERIES);
        }
    }

    fn spaces(&mut self) {
        if self.bad() && self.rng.chance(2) {
            self.out.push(b'\t');
            return;
        }
        let n = if self.rng.chance(8) {
            2 + self.rng.below(2)
        } else {
            1
        };
        self.out.extend(std::iter::repeat_n(b' ', n));
    }

    fn host_value(&mut self) {
        for _ in 0..self.rng.below(3) {
            let b = if self.bad() { b'\t' } else { b' ' };
            self.out.push(b);
        }
        self.put(HOST_NAMES);
        self.put(PORTS);
        if self.rng.chance(6) {
            self.out.push(b' ');
        }
    }

    fn line_end(&mut self, eol: &'static str) {
        let e = if self.rng.chance(8) {
            self.pick(EOLS)
        } else {
            eol
        };
        self.out.extend_from_slice(e.as_bytes());
    }
}

/// A generated head. `nginx`: for the differential test: ended by a good empty line unless
/// mutated (one in six), never long.
pub fn head(rng: &mut Rng, nginx: bool) -> Vec<u8> {
    let bad_one_in = match rng.below(8) {
        0..=2 => 0,
        3..=5 => 24,
        _ => 6,
    };
    let mut g = Gen {
        rng,
        bad_one_in,
        out: Vec::new(),
    };
    if g.rng.chance(8) {
        let most = if g.bad() { 12 } else { 3 };
        for _ in 0..1 + g.rng.below(most) {
            let e = if g.bad() { "\r" } else { g.pick(EOLS) };
            g.out.extend_from_slice(e.as_bytes());
        }
    }
    g.put(METHODS);
    g.spaces();
    g.target();
    g.spaces();
    g.put(VERSIONS);
    if g.rng.chance(16) {
        g.out.extend_from_slice(b"  ");
    }
    let eol = g.pick(EOLS);
    g.out.extend_from_slice(eol.as_bytes());

    let hosts = if g.bad() { [0, 2][g.rng.below(2)] } else { 1 };
    let others = g.rng.below(4);
    let mut host_at: Vec<usize> = (0..hosts).map(|_| g.rng.below(others + 1)).collect();
    host_at.sort_unstable();
    let mut hi = 0;
    for i in 0..=others {
        while hi < host_at.len() && host_at[hi] == i {
            hi += 1;
            g.put(HOST_HEADER_NAMES);
            g.out.push(b':');
            g.host_value();
            g.line_end(eol);
        }
        if i < others {
            g.put(OTHER_HEADERS);
            g.line_end(eol);
        }
    }
    if nginx {
        let e = g.rng.pick(EOLS.0);
        g.out.extend_from_slice(e.as_bytes());
    } else if !g.rng.chance(8) {
        g.line_end(eol);
    }
    let mut h = g.out;
    if rng.chance(if nginx { 6 } else { 4 }) {
        mutate(rng, &mut h);
    }
    if !nginx && rng.chance(32) {
        // Long heads: over the path, host and head limits.
        let at = rng.below(h.len() + 1);
        let run = rng.pick(&["a", "/a", "%41", "X: y\r\n", "\r\n", "h"]);
        h.splice(at..at, run.repeat(1 + rng.below(1200)).into_bytes());
    }
    h
}

/// One to four random edits.
pub fn mutate(rng: &mut Rng, b: &mut Vec<u8>) {
    fuzz::edits(rng, b, 4, 6, |rng, b, kind, at| match kind {
        0 => fuzz::set_random_byte(rng, b, at),
        1 | 2 => fuzz::insert_word(rng, b, at, TOKENS, Space::Never),
        3 => fuzz::delete(rng, b, at, 8),
        4 => fuzz::copy_piece(rng, b, at, 32),
        _ => b.truncate(at),
    });
}

/// The canonical path written as an origin-form target: the bytes a raw path cannot carry
/// percent-encoded.
pub fn encode_path(path: &[u8]) -> Vec<u8> {
    let mut t = Vec::with_capacity(path.len());
    for &b in path {
        if b <= b' ' || b >= 0x7f || matches!(b, b'%' | b'?' | b'#') {
            t.extend_from_slice(format!("%{b:02X}").as_bytes());
        } else {
            t.push(b);
        }
    }
    t
}
