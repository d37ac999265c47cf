//! The canonical form of an HTTP/1.x request head: the Host and the URL path as nginx (its
//! defaults, `merge_slashes on`) resolves them, so that the card routes a request where the
//! backend would (`docs/canon.md`).
//!
//! [`canonicalize`] reads the bytes of a request head (the request line and the header lines,
//! or only a prefix of them) and answers one of:
//!
//! * [`Outcome::Canonical`]: the lower-case host without port, the explicit port (`:80` and an
//!   empty port are none) and the normalised path, written into the caller's buffer;
//! * [`Outcome::Refuse`]: a [`Reason`] with a stable code, for a head nginx refuses (400) or
//!   one whose meaning differs between common backends;
//! * [`Outcome::Incomplete`]: the request line or the Host line is not complete yet.
//!
//! It allocates nothing, does not recurse and runs in time linear in the bytes it reads: at
//! most [`MAX_HEAD_BYTES`]. Every byte access is checked, so no input makes it panic.
//!
//! A prefix of a head (the bytes received so far) is decided as soon as it can be: refused
//! at the first error no continuation can mend, accepted once the request line and the
//! Host line are complete ([`Canonical::head_len`] is then `None`: a later line may still
//! refuse the head, a second Host line say), else `Incomplete`. A line ending in CR is
//! complete (only its LF may follow). Once [`MAX_HEAD_BYTES`] bytes are given, an undecided
//! head is refused ([`Reason::HeadTooLong`]).
//!
//! The rules, in order of the head:
//!
//! 1. Up to [`MAX_LEADING_EMPTY_LINES`] empty lines (CRLF or bare LF) before the request line
//!    are skipped (RFC 9112 §2.2).
//! 2. Lines end in CRLF or a bare LF (as nginx accepts). A CR not followed by LF refuses the
//!    head ([`Reason::LineEnding`]).
//! 3. Request line: `METHOD SP+ request-target SP+ HTTP/1.x SP* EOL`. Like nginx, any number
//!    of spaces separates the parts and trails the version; a tab is not a separator. The
//!    method is `[A-Z_-]+` (nginx's set); CONNECT and TRACE are refused (nginx answers 405).
//!    The version is `HTTP/1.` and one to three digits: `1.0` is HTTP/1.0, anything above is
//!    treated as HTTP/1.1 (nginx does the same); no version (HTTP/0.9) or another major
//!    version is refused.
//! 4. Request target: origin-form (`/path?query`) or absolute-form
//!    (`http://host[:port]/path?query`, scheme case-insensitive, only `http`), whose authority
//!    overrides the Host header. Authority-form (`host:port`) and asterisk-form (`*`) are
//!    refused (nginx answers 400 to both).
//! 5. Path: the query (from `?`) and a fragment (from `#`) are not part of it. It is
//!    percent-decoded, then dot segments are removed (RFC 3986 §5.2.4, a `..` above the root
//!    refuses the head as nginx does), then slashes are merged — in one pass as nginx does
//!    it. `%2F`, `%00`, a backslash (raw or `%5C`), a `%` without two hex digits, a control
//!    byte and a raw byte above 0x7E refuse the head.
//! 6. Host: from the absolute-form authority if present, else the Host header (name
//!    case-insensitive, spaces around the value). Lower-cased, the port removed (reported
//!    separately), one trailing dot removed. A second Host line, an empty or invalid Host,
//!    or no Host in an HTTP/1.1 request is refused; an HTTP/1.0 request without Host has an
//!    empty host.

/// Bytes of a head that are considered: the card's request buffer per connection
/// (`splicer::REQ_BUF`). A head that needs more to be decided is refused with
/// [`Reason::HeadTooLong`] once the caller holds this many bytes.
pub const MAX_HEAD_BYTES: usize = crate::splicer::REQ_BUF;
/// Longest path: bytes of the request target's path as received, before decoding (the
/// canonical path is never longer, except `/` for an absolute-form target without path).
pub const MAX_PATH_LEN: usize = 512;
/// Longest host: bytes of the host name without port and trailing dot (a DNS name has at
/// most 253).
pub const MAX_HOST_LEN: usize = 255;
/// Empty lines skipped before the request line (RFC 9112 §2.2 asks for at least one; nginx
/// skips any number).
pub const MAX_LEADING_EMPTY_LINES: usize = 8;
/// Output buffer that holds the canonical form of every head accepted.
pub const OUT_LEN: usize = MAX_PATH_LEN + MAX_HOST_LEN;

const CR: u8 = b'\r';
const LF: u8 = b'\n';
const SP: u8 = b' ';
const HTAB: u8 = b'\t';

/// Why a head is refused. The code (`Reason::code`) is stable: counters and logs use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Reason {
    /// A CR not followed by LF.
    LineEnding = 1,
    /// More than [`MAX_LEADING_EMPTY_LINES`] empty lines before the request line.
    LeadingEmptyLines = 2,
    /// The method is empty, has a byte outside `[A-Z_-]` or is not followed by a space.
    Method = 3,
    /// The CONNECT method (a tunnel; nginx answers 405).
    Connect = 4,
    /// The TRACE method (nginx answers 405, other servers echo the request).
    Trace = 5,
    /// The request line is malformed: no target, a target that starts with neither `/`,
    /// `*` nor a scheme, a separator other than spaces, text after the version.
    RequestLine = 6,
    /// No version (HTTP/0.9), another major version than 1 or a malformed version.
    Version = 7,
    /// An authority-form target (`host:port`).
    AuthorityForm = 8,
    /// The asterisk-form target (`*`).
    AsteriskForm = 9,
    /// An absolute-form target with another scheme than `http`, or `scheme:/` not followed
    /// by a second slash.
    Scheme = 10,
    /// A control byte (below 0x20 or 0x7F) in the target or a raw byte above 0x7F in the
    /// path.
    PathChar = 11,
    /// A `%` in the path not followed by two hex digits.
    BadPercent = 12,
    /// `%2F` in the path (a slash to some backends, data to others).
    EncodedSlash = 13,
    /// `%00` in the path.
    EncodedNul = 14,
    /// A backslash in the path, raw or `%5C` (a separator to Windows backends).
    Backslash = 15,
    /// A `..` segment above the root.
    AboveRoot = 16,
    /// The path is longer than [`MAX_PATH_LEN`].
    PathTooLong = 17,
    /// An HTTP/1.1 request without a Host header.
    NoHost = 18,
    /// A second Host header.
    DuplicateHost = 19,
    /// An empty Host value or an empty authority in the absolute-form.
    EmptyHost = 20,
    /// A byte outside the host name's characters.
    HostChar = 21,
    /// A malformed host: `..`, a leading dot, only a dot, an unclosed or empty IP literal.
    HostSyntax = 22,
    /// A port that is not 1 to 5 digits up to 65535.
    BadPort = 23,
    /// The host is longer than [`MAX_HOST_LEN`].
    HostTooLong = 24,
    /// A malformed header line: no colon, an empty name, a space or control byte in the
    /// name, a continuation line (starts with a space or tab), a NUL in the value.
    HeaderSyntax = 25,
    /// The head is not decided within [`MAX_HEAD_BYTES`].
    HeadTooLong = 26,
    /// The caller's output buffer is too small (never with [`OUT_LEN`] bytes).
    OutputTooSmall = 27,
}

/// Number of [`Reason`]s; codes are `1..=REASONS`.
pub const REASONS: usize = 27;

impl Reason {
    /// Every reason, in code order (`ALL[r.index()] == r`).
    pub const ALL: [Reason; REASONS] = [
        Reason::LineEnding,
        Reason::LeadingEmptyLines,
        Reason::Method,
        Reason::Connect,
        Reason::Trace,
        Reason::RequestLine,
        Reason::Version,
        Reason::AuthorityForm,
        Reason::AsteriskForm,
        Reason::Scheme,
        Reason::PathChar,
        Reason::BadPercent,
        Reason::EncodedSlash,
        Reason::EncodedNul,
        Reason::Backslash,
        Reason::AboveRoot,
        Reason::PathTooLong,
        Reason::NoHost,
        Reason::DuplicateHost,
        Reason::EmptyHost,
        Reason::HostChar,
        Reason::HostSyntax,
        Reason::BadPort,
        Reason::HostTooLong,
        Reason::HeaderSyntax,
        Reason::HeadTooLong,
        Reason::OutputTooSmall,
    ];

    /// The stable numeric code (1..=[`REASONS`]).
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The index of a per-reason counter (0..[`REASONS`]).
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The reason with a code.
    pub fn from_code(code: u8) -> Option<Reason> {
        Self::ALL.get(usize::from(code).wrapping_sub(1)).copied()
    }

    /// The name used in logs and docs.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::LineEnding => "line_ending",
            Reason::LeadingEmptyLines => "leading_empty_lines",
            Reason::Method => "method",
            Reason::Connect => "connect",
            Reason::Trace => "trace",
            Reason::RequestLine => "request_line",
            Reason::Version => "version",
            Reason::AuthorityForm => "authority_form",
            Reason::AsteriskForm => "asterisk_form",
            Reason::Scheme => "scheme",
            Reason::PathChar => "path_char",
            Reason::BadPercent => "bad_percent",
            Reason::EncodedSlash => "encoded_slash",
            Reason::EncodedNul => "encoded_nul",
            Reason::Backslash => "backslash",
            Reason::AboveRoot => "above_root",
            Reason::PathTooLong => "path_too_long",
            Reason::NoHost => "no_host",
            Reason::DuplicateHost => "duplicate_host",
            Reason::EmptyHost => "empty_host",
            Reason::HostChar => "host_char",
            Reason::HostSyntax => "host_syntax",
            Reason::BadPort => "bad_port",
            Reason::HostTooLong => "host_too_long",
            Reason::HeaderSyntax => "header_syntax",
            Reason::HeadTooLong => "head_too_long",
            Reason::OutputTooSmall => "output_too_small",
        }
    }
}

/// The request's HTTP version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// `HTTP/1.0`: the Host header is optional.
    Http10,
    /// `HTTP/1.1` or a later 1.x (`HTTP/1.2` .. `HTTP/1.999`): the Host header is required.
    Http11,
}

/// The request target's form (RFC 9112 §3.2); the other two forms are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `/path?query`.
    Origin,
    /// `http://host[:port]/path?query`.
    Absolute,
}

/// The canonical form of an accepted head; `host` and `path` are in the caller's buffer
/// (the path first, then the host).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Canonical<'o> {
    /// Lower-case host without port and trailing dot; empty for HTTP/1.0 without Host.
    pub host: &'o [u8],
    /// The explicit port of the host; `None` for none, an empty port and `80`.
    pub port: Option<u16>,
    /// The normalised path: starts with `/`, no `//`, no `.` or `..` segment, decoded.
    pub path: &'o [u8],
    /// The HTTP version.
    pub version: Version,
    /// Where the host came from: the absolute-form authority or the Host header.
    pub form: Form,
    /// Bytes of the head including its final empty line, when it ended within the bytes
    /// considered. `None`: only a prefix was seen (the Host line included); a later line
    /// could still refuse it (a second Host line, say), so the caller may wait for more.
    pub head_len: Option<usize>,
}

/// What [`canonicalize`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome<'o> {
    /// The head is accepted.
    Canonical(Canonical<'o>),
    /// The head is refused.
    Refuse(Reason),
    /// More bytes are needed: the request line or the Host line is not complete yet (and
    /// fewer than [`MAX_HEAD_BYTES`] were given).
    Incomplete,
}

/// Canonicalises the request head `head` (or its prefix) into `out` ([`OUT_LEN`] bytes are
/// always enough). Only the first [`MAX_HEAD_BYTES`] bytes are read.
pub fn canonicalize<'o>(head: &[u8], out: &'o mut [u8]) -> Outcome<'o> {
    let at_limit = head.len() >= MAX_HEAD_BYTES;
    let considered = head.get(..MAX_HEAD_BYTES).unwrap_or(head);
    let meta = match parse(considered, out) {
        Ok(meta) => meta,
        Err(Stop::Refuse(reason)) => return Outcome::Refuse(reason),
        Err(Stop::Incomplete) if at_limit => return Outcome::Refuse(Reason::HeadTooLong),
        Err(Stop::Incomplete) => return Outcome::Incomplete,
    };
    let out: &'o [u8] = out;
    let Some((path, rest)) = out.split_at_checked(meta.path_len) else {
        return Outcome::Refuse(Reason::OutputTooSmall);
    };
    let Some(host) = rest.get(..meta.host_len) else {
        return Outcome::Refuse(Reason::OutputTooSmall);
    };
    Outcome::Canonical(Canonical {
        host,
        port: meta.port,
        path,
        version: meta.version,
        form: meta.form,
        head_len: meta.head_len,
    })
}

/// Why parsing stopped.
enum Stop {
    Refuse(Reason),
    Incomplete,
}

impl From<Reason> for Stop {
    fn from(reason: Reason) -> Stop {
        Stop::Refuse(reason)
    }
}

type Step<T> = Result<T, Stop>;

/// Lengths and facts of an accepted head (the bytes are in the output buffer).
struct Meta {
    path_len: usize,
    host_len: usize,
    port: Option<u16>,
    version: Version,
    form: Form,
    head_len: Option<usize>,
}

/// A validated host in the input: the name as received (with brackets for an IP literal,
/// without trailing dot), the port.
#[derive(Clone, Copy)]
struct HostParts<'h> {
    name: &'h [u8],
    port: Option<u16>,
}

/// The request line's results (the path is in the output buffer).
struct RequestLine<'h> {
    path_len: usize,
    authority: Option<HostParts<'h>>,
    version: Version,
}

fn parse(buf: &[u8], out: &mut [u8]) -> Step<Meta> {
    let mut pos = skip_empty_lines(buf)?;

    // The request line; an unterminated one is parsed as far as it goes.
    let rest = buf.get(pos..).unwrap_or(&[]);
    let (line, ending) = split_line(rest)?;
    let rl = request_line(line, ending != Ending::Open, out)?;
    let Ending::Lf(used) = ending else {
        return Err(Stop::Incomplete);
    };
    pos += used;

    // Header lines. Of an unterminated last line only what more bytes cannot mend is
    // checked.
    let mut host_header: Option<HostParts> = None;
    let mut head_len = None;
    while let Some(rest) = buf.get(pos..) {
        let (line, ending) = split_line(rest)?;
        if line.is_empty() {
            if let Ending::Lf(used) = ending {
                head_len = Some(pos + used);
            }
            break;
        }
        header_line(line, ending != Ending::Open, &mut host_header)?;
        let Ending::Lf(used) = ending else {
            break;
        };
        pos += used;
    }

    if head_len.is_none() && host_header.is_none() {
        return Err(Stop::Incomplete);
    }
    if rl.version == Version::Http11 && host_header.is_none() {
        return Err(Reason::NoHost.into());
    }
    let (form, host) = match rl.authority {
        Some(authority) => (Form::Absolute, Some(authority)),
        None => (Form::Origin, host_header),
    };
    let (host_len, port) = match host {
        Some(h) => {
            let dst = out
                .get_mut(rl.path_len..)
                .and_then(|d| d.get_mut(..h.name.len()))
                .ok_or(Reason::OutputTooSmall)?;
            for (d, s) in dst.iter_mut().zip(h.name) {
                *d = s.to_ascii_lowercase();
            }
            (h.name.len(), h.port)
        }
        None => (0, None),
    };
    Ok(Meta {
        path_len: rl.path_len,
        host_len,
        port,
        version: rl.version,
        form,
        head_len,
    })
}

/// Skips the empty lines before the request line; the offset of its first byte.
fn skip_empty_lines(buf: &[u8]) -> Step<usize> {
    let mut pos = 0;
    let mut lines = 0;
    loop {
        match buf.get(pos) {
            None => return Err(Stop::Incomplete),
            Some(&LF) => pos += 1,
            Some(&CR) => match buf.get(pos + 1) {
                None => return Err(Stop::Incomplete),
                Some(&LF) => pos += 2,
                Some(_) => return Err(Reason::LineEnding.into()),
            },
            Some(_) => return Ok(pos),
        }
        lines += 1;
        if lines > MAX_LEADING_EMPTY_LINES {
            return Err(Reason::LeadingEmptyLines.into());
        }
    }
}

/// How a line ends within the bytes given.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// LF or CRLF: the line uses this many bytes.
    Lf(usize),
    /// A final CR: only its LF is missing (anything else after it refuses the head), so
    /// the line's content is complete.
    Cr,
    /// Not yet: more of the line may follow.
    Open,
}

/// The line at the start of `rest` without its CRLF or LF, and how it ends. A CR inside
/// the line refuses it.
fn split_line(rest: &[u8]) -> Result<(&[u8], Ending), Reason> {
    let (line, ending) = match rest.iter().position(|&b| b == LF) {
        Some(lf) => (rest.get(..lf).unwrap_or(&[]), Ending::Lf(lf + 1)),
        None => (rest, Ending::Open),
    };
    let (line, ending) = match line.split_last() {
        Some((&CR, body)) if ending == Ending::Open => (body, Ending::Cr),
        Some((&CR, body)) => (body, ending),
        _ => (line, ending),
    };
    if line.contains(&CR) {
        return Err(Reason::LineEnding);
    }
    Ok((line, ending))
}

/// A cursor over one line. Asking for a byte past the end of an unterminated line stops
/// with [`Stop::Incomplete`]; past the end of a terminated line it gives `None`.
struct Cursor<'h> {
    line: &'h [u8],
    pos: usize,
    terminated: bool,
}

impl<'h> Cursor<'h> {
    fn peek(&self) -> Step<Option<u8>> {
        match self.line.get(self.pos) {
            Some(&b) => Ok(Some(b)),
            None if self.terminated => Ok(None),
            None => Err(Stop::Incomplete),
        }
    }

    fn next(&mut self) -> Step<Option<u8>> {
        let b = self.peek()?;
        if b.is_some() {
            self.pos += 1;
        }
        Ok(b)
    }

    /// Takes the bytes while `keep` holds; the bytes taken.
    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> Step<&'h [u8]> {
        let start = self.pos;
        while let Some(b) = self.peek()? {
            if !keep(b) {
                break;
            }
            self.pos += 1;
        }
        Ok(self.line.get(start..self.pos).unwrap_or(&[]))
    }

    /// Takes one or more spaces, else stops with `reason`.
    fn spaces(&mut self, reason: Reason) -> Step<()> {
        if self.take_while(|b| b == SP)?.is_empty() {
            return Err(reason.into());
        }
        Ok(())
    }

    /// Takes `expected`, else stops with `reason`.
    fn literal(&mut self, expected: &[u8], reason: Reason) -> Step<()> {
        for &e in expected {
            if self.next()? != Some(e) {
                return Err(reason.into());
            }
        }
        Ok(())
    }
}

fn is_method_byte(b: u8) -> bool {
    b.is_ascii_uppercase() || b == b'_' || b == b'-'
}

fn is_scheme_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.'
}

/// Bytes of a host name in an absolute-form authority (nginx's set there).
fn is_authority_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-'
}

/// Bytes of a host name in the Host header: RFC 3986 unreserved (nginx accepts more).
fn is_host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_' || b == b'~'
}

/// Bytes inside an IP literal's brackets: IPv6 and IPvFuture addresses.
fn is_literal_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b':' || b == b'.'
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

fn request_line<'h>(line: &'h [u8], terminated: bool, out: &mut [u8]) -> Step<RequestLine<'h>> {
    let mut c = Cursor {
        line,
        pos: 0,
        terminated,
    };

    let method = c.take_while(is_method_byte)?;
    if method.is_empty() || c.peek()? != Some(SP) {
        return Err(Reason::Method.into());
    }
    match method {
        b"CONNECT" => return Err(Reason::Connect.into()),
        b"TRACE" => return Err(Reason::Trace.into()),
        _ => {}
    }
    c.spaces(Reason::Method)?;

    let mut path = PathWriter {
        out,
        len: 0,
        state: PathState::Usual,
    };
    let authority = match c.peek()? {
        Some(b'/') => None,
        Some(b'*') => return Err(Reason::AsteriskForm.into()),
        Some(b) if b.is_ascii_alphabetic() => {
            let authority = absolute_prefix(&mut c)?;
            if !matches!(c.peek()?, Some(b'/')) {
                // `http://host`, `http://host?query`: the path is "/".
                path.feed(b'/')?;
            }
            Some(authority)
        }
        _ => return Err(Reason::RequestLine.into()),
    };

    // The path, up to the query, the fragment or the end of the target.
    let mut raw_len = 0usize;
    loop {
        let b = match c.peek()? {
            None | Some(SP) | Some(b'?') | Some(b'#') => break,
            Some(b) => b,
        };
        c.pos += 1;
        raw_len += if b == b'%' { 3 } else { 1 };
        if raw_len > MAX_PATH_LEN {
            return Err(Reason::PathTooLong.into());
        }
        match b {
            b'\\' => return Err(Reason::Backslash.into()),
            b'%' => {
                let hi = c.next()?.and_then(hex_value);
                let lo = c.next()?.and_then(hex_value);
                let (Some(hi), Some(lo)) = (hi, lo) else {
                    return Err(Reason::BadPercent.into());
                };
                match (hi << 4) | lo {
                    0 => return Err(Reason::EncodedNul.into()),
                    b'/' => return Err(Reason::EncodedSlash.into()),
                    b'\\' => return Err(Reason::Backslash.into()),
                    d => path.feed(d)?,
                }
            }
            _ if !(0x20..0x7f).contains(&b) => return Err(Reason::PathChar.into()),
            _ => path.feed(b)?,
        }
    }
    path.finish()?;

    // The query and a fragment: only checked for control bytes.
    c.take_while(|b| b != SP && b >= 0x20 && b != 0x7f)?;
    match c.peek()? {
        Some(SP) => {}
        None => return Err(Reason::Version.into()),
        Some(_) => return Err(Reason::PathChar.into()),
    }
    c.take_while(|b| b == SP)?;

    c.literal(b"HTTP/1.", Reason::Version)?;
    let rest = c.line.get(c.pos..).unwrap_or(&[]);
    if rest.iter().take_while(|b| b.is_ascii_digit()).count() > 3 {
        return Err(Reason::Version.into());
    }
    let minor = c.take_while(|b| b.is_ascii_digit())?;
    if minor.is_empty() || minor.len() > 3 {
        return Err(Reason::Version.into());
    }
    let version = if minor.iter().all(|&d| d == b'0') {
        Version::Http10
    } else {
        Version::Http11
    };
    if !matches!(c.peek()?, None | Some(SP)) {
        return Err(Reason::Version.into());
    }
    c.take_while(|b| b == SP)?;
    if c.peek()?.is_some() {
        return Err(Reason::RequestLine.into());
    }
    Ok(RequestLine {
        path_len: path.len,
        authority,
        version,
    })
}

/// Reads `scheme://authority` of an absolute-form target (the cursor is on the scheme's
/// first letter); the cursor is left after the authority.
fn absolute_prefix<'h>(c: &mut Cursor<'h>) -> Step<HostParts<'h>> {
    let scheme = c.take_while(is_scheme_byte)?;
    if c.next()? != Some(b':') {
        return Err(Reason::RequestLine.into());
    }
    if c.peek()? != Some(b'/') {
        return Err(Reason::AuthorityForm.into());
    }
    c.literal(b"//", Reason::Scheme)?;
    if !scheme.eq_ignore_ascii_case(b"http") {
        return Err(Reason::Scheme.into());
    }

    let start = c.pos;
    if c.peek()? == Some(b'[') {
        c.pos += 1;
        c.take_while(is_literal_byte)?;
        match c.next()? {
            Some(b']') => {}
            Some(_) => return Err(Reason::HostChar.into()),
            None => return Err(Reason::HostSyntax.into()),
        }
    } else {
        c.take_while(is_authority_byte)?;
    }
    let name = c.line.get(start..c.pos).unwrap_or(&[]);
    let port_start = c.pos;
    if c.peek()? == Some(b':') {
        c.pos += 1;
        c.take_while(|b| b.is_ascii_digit())?;
    }
    let port = c.line.get(port_start..c.pos).unwrap_or(&[]);
    match c.peek()? {
        Some(b'/') | Some(b'?') | Some(SP) | None => {}
        Some(_) => return Err(Reason::HostChar.into()),
    }
    Ok(HostParts {
        name: host_name(name, is_authority_byte)?,
        port: host_port(port)?,
    })
}

/// Checks a non-empty header line; a Host line is validated and kept. Of an unterminated
/// line (the end of a prefix) only what more bytes cannot mend is checked: a continuation,
/// a bad byte in the name, an empty name, a NUL in the value, a second Host.
fn header_line<'h>(line: &'h [u8], terminated: bool, host: &mut Option<HostParts<'h>>) -> Step<()> {
    if matches!(line.first(), Some(&SP) | Some(&HTAB)) {
        return Err(Reason::HeaderSyntax.into());
    }
    let (name, value) = match line.iter().position(|&b| b == b':') {
        Some(colon) => {
            let (name, value) = line.split_at_checked(colon).unwrap_or((line, &[]));
            (name, Some(value.get(1..).unwrap_or(&[])))
        }
        None if terminated => return Err(Reason::HeaderSyntax.into()),
        None => (line, None),
    };
    if name.iter().any(|&b| b <= SP || b == 0x7f) {
        return Err(Reason::HeaderSyntax.into());
    }
    let Some(value) = value else {
        return Ok(());
    };
    if name.is_empty() || value.contains(&0) {
        return Err(Reason::HeaderSyntax.into());
    }
    if name.eq_ignore_ascii_case(b"host") {
        if host.is_some() {
            return Err(Reason::DuplicateHost.into());
        }
        if terminated {
            *host = Some(host_header(value)?);
        }
    }
    Ok(())
}

/// Validates a Host header value.
fn host_header(value: &[u8]) -> Result<HostParts<'_>, Reason> {
    let value = trim_spaces(value);
    if value.is_empty() {
        return Err(Reason::EmptyHost);
    }
    let split = if value.first() == Some(&b'[') {
        let close = value
            .iter()
            .position(|&b| b == b']')
            .ok_or(Reason::HostSyntax)?;
        let after = close + 1;
        if !matches!(value.get(after), None | Some(&b':')) {
            return Err(Reason::HostSyntax);
        }
        after
    } else {
        value.iter().position(|&b| b == b':').unwrap_or(value.len())
    };
    let (name, port) = value.split_at_checked(split).unwrap_or((value, &[]));
    Ok(HostParts {
        name: host_name(name, is_host_byte)?,
        port: host_port(port)?,
    })
}

fn trim_spaces(mut s: &[u8]) -> &[u8] {
    while let Some((&SP, rest)) = s.split_first() {
        s = rest;
    }
    while let Some((&SP, rest)) = s.split_last() {
        s = rest;
    }
    s
}

/// Validates a host name (an IP literal in brackets, or a name of `allowed` bytes); the
/// name without its trailing dot.
fn host_name(name: &[u8], allowed: fn(u8) -> bool) -> Result<&[u8], Reason> {
    if name.is_empty() {
        return Err(Reason::EmptyHost);
    }
    if let Some(inner) = name.strip_prefix(b"[") {
        let inner = inner.strip_suffix(b"]").ok_or(Reason::HostSyntax)?;
        if inner.is_empty() {
            return Err(Reason::HostSyntax);
        }
        if !inner.iter().all(|&b| is_literal_byte(b)) {
            return Err(Reason::HostChar);
        }
        if inner.windows(2).any(|w| w == b"..") {
            return Err(Reason::HostSyntax);
        }
        if name.len() > MAX_HOST_LEN {
            return Err(Reason::HostTooLong);
        }
        return Ok(name);
    }
    if !name.iter().all(|&b| allowed(b)) {
        return Err(Reason::HostChar);
    }
    if name.first() == Some(&b'.') || name.windows(2).any(|w| w == b"..") {
        return Err(Reason::HostSyntax);
    }
    let name = name.strip_suffix(b".").unwrap_or(name);
    if name.len() > MAX_HOST_LEN {
        return Err(Reason::HostTooLong);
    }
    Ok(name)
}

/// The port from `:digits` (or nothing); `None` for none, an empty port and 80.
fn host_port(port: &[u8]) -> Result<Option<u16>, Reason> {
    let Some(digits) = port.strip_prefix(b":") else {
        return if port.is_empty() {
            Ok(None)
        } else {
            Err(Reason::BadPort)
        };
    };
    if digits.len() > 5 {
        return Err(Reason::BadPort);
    }
    let mut value: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return Err(Reason::BadPort);
        }
        value = value * 10 + u32::from(d - b'0');
    }
    if digits.is_empty() || value == 80 {
        return Ok(None);
    }
    u16::try_from(value).map(Some).map_err(|_| Reason::BadPort)
}

/// Where the path writer is relative to the last segment (nginx's states).
#[derive(Clone, Copy, PartialEq, Eq)]
enum PathState {
    /// Inside a segment.
    Usual,
    /// Right after a `/`.
    Slash,
    /// After `/.`.
    Dot,
    /// After `/..`.
    DotDot,
}

/// Writes the decoded path into the output buffer, removing dot segments and merging
/// slashes as the bytes come (the output so far is a stack of segments).
struct PathWriter<'b> {
    out: &'b mut [u8],
    len: usize,
    state: PathState,
}

impl PathWriter<'_> {
    fn push(&mut self, b: u8) -> Result<(), Reason> {
        let slot = self.out.get_mut(self.len).ok_or(Reason::OutputTooSmall)?;
        *slot = b;
        self.len += 1;
        Ok(())
    }

    /// Takes one decoded byte (a decoded `/` never comes: it is refused).
    fn feed(&mut self, b: u8) -> Result<(), Reason> {
        use PathState::*;
        match (self.state, b) {
            (Slash, b'/') => {}
            (Dot, b'/') => {
                // "/./": drop the dot.
                self.len = self.len.saturating_sub(1);
                self.state = Slash;
            }
            (DotDot, b'/') => {
                self.back_up()?;
                self.state = Slash;
            }
            (_, b'/') => {
                self.push(b)?;
                self.state = Slash;
            }
            (Slash, b'.') => {
                self.push(b)?;
                self.state = Dot;
            }
            (Dot, b'.') => {
                self.push(b)?;
                self.state = DotDot;
            }
            _ => {
                self.push(b)?;
                self.state = Usual;
            }
        }
        Ok(())
    }

    /// The output ends in `/..`: removes it and the segment before, keeping that segment's
    /// leading slash.
    fn back_up(&mut self) -> Result<(), Reason> {
        let slash = self.len.checked_sub(3).ok_or(Reason::AboveRoot)?;
        let before = self.out.get(..slash).unwrap_or(&[]);
        let prev = before
            .iter()
            .rposition(|&b| b == b'/')
            .ok_or(Reason::AboveRoot)?;
        self.len = prev + 1;
        Ok(())
    }

    /// Ends the path: a final `.` or `..` segment is removed like one followed by `/`.
    fn finish(&mut self) -> Result<(), Reason> {
        match self.state {
            PathState::Dot => self.len = self.len.saturating_sub(1),
            PathState::DotDot => self.back_up()?,
            _ => {}
        }
        self.state = PathState::Slash;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_codes_are_dense_and_round_trip() {
        for (i, r) in Reason::ALL.iter().enumerate() {
            assert_eq!(r.index(), i);
            assert_eq!(usize::from(r.code()), i + 1);
            assert_eq!(Reason::from_code(r.code()), Some(*r));
        }
        assert_eq!(Reason::from_code(0), None);
        assert_eq!(Reason::from_code(REASONS as u8 + 1), None);
    }

    #[test]
    fn path_writer_follows_nginx() {
        type Case = (&'static [u8], Result<&'static [u8], Reason>);
        let cases: &[Case] = &[
            (b"/", Ok(b"/")),
            (b"/a/b/../c", Ok(b"/a/c")),
            (b"/a/./b", Ok(b"/a/b")),
            (b"/a//b///c", Ok(b"/a/b/c")),
            (b"/a/..", Ok(b"/")),
            (b"/a/b/..", Ok(b"/a/")),
            (b"/a/.", Ok(b"/a/")),
            (b"/..", Err(Reason::AboveRoot)),
            (b"/a/../..", Err(Reason::AboveRoot)),
            (b"/a/...", Ok(b"/a/...")),
            (b"/a..b/.x", Ok(b"/a..b/.x")),
            (b"//..", Err(Reason::AboveRoot)),
        ];
        for (input, want) in cases {
            let mut buf = [0u8; 64];
            let mut w = PathWriter {
                out: &mut buf,
                len: 0,
                state: PathState::Usual,
            };
            let got = input
                .iter()
                .try_for_each(|&b| w.feed(b))
                .and_then(|()| w.finish())
                .map(|()| w.len);
            let got = got.map(|n| &buf[..n]);
            assert_eq!(&got, want, "{:?}", core::str::from_utf8(input));
        }
    }
}
