//! `snic-peer`: a small TCP client with precise control over what leaves the socket, run in
//! the client namespace by the real-peer scenarios (`hil-tests/tests/peers_client.rs`,
//! docs/rig.md, "Client scenarios").
//!
//! ```text
//! snic-peer request --to IP:PORT [--host H] [--no-host] [--method M] [--path P]
//!                   [--header 'K: V']... [--pieces N] [--gap-ms M] [--split-at-crlfcrlf]
//!                   [--raw tls|h2|HEXFILE] [--body-size N] [--mss N] [--rcvbuf BYTES]
//!                   [--timeout-s S]
//! snic-peer batch --to IP:PORT --file F [--first-lport P] [--timeout-s S]
//! ```
//!
//! It connects (TCP_NODELAY; `--mss` sets TCP_MAXSEG before the connect, which also caps the
//! MSS it advertises; `--rcvbuf` sets SO_RCVBUF before the connect, which lowers the window
//! scale shift Linux offers, printed as `wscale`), writes the request head in `--pieces` pieces with `--gap-ms` sleeps in
//! between (so each leaves as a segment of its own), or in two pieces split exactly inside
//! the final `\r\n\r\n` (`--split-at-crlfcrlf`); `--raw` sends other first bytes instead of
//! an HTTP head (`tls`: a TLS 1.2 ClientHello record, `h2`: the HTTP/2 connection preface,
//! else a file of hex digits). `--body-size N` adds `Content-Length: N` and N body bytes
//! after the head. It then reads the response (up to its Content-Length, else until the
//! close) within `--timeout-s` (default 60) and prints one line:
//!
//! ```text
//! status=200 backend=static1 body_bytes=1048576 body_sha256=… outcome=ok elapsed_ms=412 lport=39882 sent_bytes=87 data_segs_out=5 retrans=0 wscale=10
//! ```
//!
//! `status` is 0 and `backend` (the `X-Backend` header) is `-` without a response;
//! `outcome` is `ok` (a whole response), `reset` (a RST: connection refused or reset),
//! `closed` (the server closed before a whole response) or `timeout`. `data_segs_out` and
//! `retrans` are the socket's `TCP_INFO` counters (segments carrying data, retransmissions).
//! Exit status 0 whenever that line is printed, 1 on local errors, 2 on bad arguments.
//!
//! `batch` reads `F`, one head a line in hex digits (empty lines skipped), and for each head
//! in turn opens a new connection, sends its bytes in one write and reads the response as
//! `request` does (`--timeout-s` per head); it prints one line per head, `index=N` (from 0)
//! then the fields above. `--first-lport P` binds head N's connection to local port P + N
//! (the card ignores a SYN on the 4-tuple of a closing flow until that flow ages, 120 s by
//! default, so a batch must not reuse the ports the kernel frees). Exit status 0 when every
//! line is printed.

use sha2::{Digest, Sha256};
use std::io::{self, Read, Write};
use std::net::{SocketAddr, SocketAddrV4, TcpStream};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::io::AsRawFd;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: snic-peer request --to IP:PORT [--host H] [--no-host] [--method M] \
[--path P] [--header 'K: V']... [--pieces N] [--gap-ms M] [--split-at-crlfcrlf] \
[--raw tls|h2|HEXFILE] [--body-size N] [--mss N] [--rcvbuf BYTES] [--timeout-s S]
       snic-peer batch --to IP:PORT --file HEXLINES [--first-lport P] [--timeout-s S]";

/// The HTTP/2 connection preface (RFC 9113, section 3.4).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

#[derive(Debug)]
struct Args {
    to: SocketAddrV4,
    host: Option<String>,
    no_host: bool,
    method: Option<String>,
    path: String,
    headers: Vec<String>,
    pieces: usize,
    gap: Duration,
    split_crlfcrlf: bool,
    raw: Option<String>,
    body_size: usize,
    mss: Option<u32>,
    rcvbuf: Option<u32>,
    timeout: Duration,
    /// `batch`: the file of hex heads.
    batch: Option<String>,
    /// `batch`: the local port of the first head's connection.
    first_lport: Option<u16>,
}

fn parse_args(argv: &[String]) -> Result<Args, String> {
    let mut it = argv.iter();
    let batch = match it.next().map(String::as_str) {
        Some("request") => false,
        Some("batch") => true,
        Some(other) => return Err(format!("unknown subcommand `{other}`")),
        None => return Err("missing subcommand".into()),
    };
    let mut a = Args {
        to: SocketAddrV4::new([0, 0, 0, 0].into(), 0),
        host: None,
        no_host: false,
        method: None,
        path: "/".into(),
        headers: Vec::new(),
        pieces: 1,
        gap: Duration::from_millis(50),
        split_crlfcrlf: false,
        raw: None,
        body_size: 0,
        mss: None,
        rcvbuf: None,
        timeout: Duration::from_secs(60),
        batch: None,
        first_lport: None,
    };
    let mut to = None;
    while let Some(flag) = it.next() {
        let flag = flag.as_str();
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
            v.parse()
                .map_err(|_| format!("{flag}: `{v}` is not a number"))
        }
        if batch && !matches!(flag, "--to" | "--file" | "--first-lport" | "--timeout-s") {
            return Err(format!("batch: unknown option `{flag}`"));
        }
        match flag {
            "--file" if batch => a.batch = Some(value()?),
            "--first-lport" if batch => a.first_lport = Some(num(flag, &value()?)?),
            "--to" => {
                let v = value()?;
                to = Some(
                    v.parse::<SocketAddrV4>()
                        .map_err(|_| format!("--to: `{v}` is not IPv4-ADDRESS:PORT"))?,
                );
            }
            "--host" => a.host = Some(value()?),
            "--no-host" => a.no_host = true,
            "--method" => a.method = Some(value()?),
            "--path" => a.path = value()?,
            "--header" => {
                let v = value()?;
                if !v.contains(':') {
                    return Err(format!("--header: `{v}` is not `Name: value`"));
                }
                a.headers.push(v);
            }
            "--pieces" => {
                a.pieces = num(flag, &value()?)?;
                if a.pieces == 0 {
                    return Err("--pieces: at least 1".into());
                }
            }
            "--gap-ms" => a.gap = Duration::from_millis(num(flag, &value()?)?),
            "--split-at-crlfcrlf" => a.split_crlfcrlf = true,
            "--raw" => a.raw = Some(value()?),
            "--body-size" => a.body_size = num(flag, &value()?)?,
            "--mss" => a.mss = Some(num(flag, &value()?)?),
            "--rcvbuf" => a.rcvbuf = Some(num(flag, &value()?)?),
            "--timeout-s" => {
                let s: f64 = num(flag, &value()?)?;
                if !(s > 0.0 && s < 1e6) {
                    return Err("--timeout-s: must be positive".into());
                }
                a.timeout = Duration::from_secs_f64(s);
            }
            _ => return Err(format!("unknown option `{flag}`")),
        }
    }
    a.to = to.ok_or("--to IP:PORT is required")?;
    if batch && a.batch.is_none() {
        return Err("batch: --file F is required".into());
    }
    if a.split_crlfcrlf && a.pieces != 1 {
        return Err("--split-at-crlfcrlf and --pieces exclude each other".into());
    }
    if a.split_crlfcrlf && a.raw.is_some() {
        return Err("--split-at-crlfcrlf needs an HTTP head, not --raw".into());
    }
    Ok(a)
}

/// A syntactically valid TLS 1.2 ClientHello record (SNI `www.example.com`).
fn tls_client_hello() -> Vec<u8> {
    fn ext(out: &mut Vec<u8>, kind: u16, body: &[u8]) {
        out.extend_from_slice(&kind.to_be_bytes());
        out.extend_from_slice(&(body.len() as u16).to_be_bytes());
        out.extend_from_slice(body);
    }
    let name = b"www.example.com";
    let mut exts = Vec::new();
    // server_name: list length, type host_name, name length, name.
    let mut sni = Vec::new();
    sni.extend_from_slice(&((name.len() + 3) as u16).to_be_bytes());
    sni.push(0);
    sni.extend_from_slice(&(name.len() as u16).to_be_bytes());
    sni.extend_from_slice(name);
    ext(&mut exts, 0x0000, &sni);
    // supported_groups: x25519, secp256r1, secp384r1.
    ext(&mut exts, 0x000a, &[0, 6, 0, 0x1d, 0, 0x17, 0, 0x18]);
    // ec_point_formats: uncompressed.
    ext(&mut exts, 0x000b, &[1, 0]);
    // signature_algorithms: rsa_pss_rsae_sha256, ecdsa_secp256r1_sha256, rsa_pkcs1_sha256.
    ext(
        &mut exts,
        0x000d,
        &[0, 6, 0x08, 0x04, 0x04, 0x03, 0x04, 0x01],
    );
    // renegotiation_info (empty).
    ext(&mut exts, 0xff01, &[0]);

    let mut hello = Vec::new();
    hello.extend_from_slice(&[0x03, 0x03]); // client_version TLS 1.2
    hello.extend((0..32u8).map(|i| i.wrapping_mul(37).wrapping_add(11))); // random
    hello.push(0); // session_id: empty
    let suites: [u16; 6] = [0xc02f, 0xc030, 0xc02b, 0xc02c, 0x009c, 0x002f];
    hello.extend_from_slice(&((suites.len() * 2) as u16).to_be_bytes());
    for s in suites {
        hello.extend_from_slice(&s.to_be_bytes());
    }
    hello.extend_from_slice(&[1, 0]); // compression_methods: null
    hello.extend_from_slice(&(exts.len() as u16).to_be_bytes());
    hello.extend_from_slice(&exts);

    let mut hs = vec![1u8]; // handshake type client_hello
    hs.extend_from_slice(&(hello.len() as u32).to_be_bytes()[1..]);
    hs.extend_from_slice(&hello);
    let mut rec = vec![0x16, 0x03, 0x01]; // handshake record, record version TLS 1.0
    rec.extend_from_slice(&(hs.len() as u16).to_be_bytes());
    rec.extend_from_slice(&hs);
    rec
}

/// The first bytes of `--raw`.
fn raw_bytes(spec: &str) -> Result<Vec<u8>, String> {
    match spec {
        "tls" => Ok(tls_client_hello()),
        "h2" => Ok(H2_PREFACE.to_vec()),
        file => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("--raw: `{file}` is not tls, h2 or a readable file: {e}"))?;
            hex_bytes(&text, &format!("--raw {file}"))
        }
    }
}

/// The bytes spelled by the hex digits of `text` (white space ignored); `what` names the
/// input in errors.
fn hex_bytes(text: &str, what: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if digits.is_empty() || digits.len() % 2 != 0 {
        return Err(format!("{what}: not an even number of hex digits"));
    }
    digits
        .chunks(2)
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
                .ok_or_else(|| format!("{what}: not hex: {:?}", p))
        })
        .collect()
}

/// The request head.
fn http_head(a: &Args) -> Vec<u8> {
    let method = a
        .method
        .clone()
        .unwrap_or_else(|| if a.body_size > 0 { "POST" } else { "GET" }.into());
    let mut h = format!("{method} {} HTTP/1.1\r\n", a.path);
    if !a.no_host {
        let host = a.host.clone().unwrap_or_else(|| a.to.ip().to_string());
        h.push_str(&format!("Host: {host}\r\n"));
    }
    for x in &a.headers {
        h.push_str(x);
        h.push_str("\r\n");
    }
    if a.body_size > 0 {
        h.push_str(&format!("Content-Length: {}\r\n", a.body_size));
    }
    h.push_str("\r\n");
    h.into_bytes()
}

/// `data` cut into `n` pieces of nearly equal length (fewer when it is shorter than `n`).
fn cut(data: &[u8], n: usize) -> Vec<&[u8]> {
    let n = n.min(data.len()).max(1);
    let (q, r) = (data.len() / n, data.len() % n);
    let mut v = Vec::with_capacity(n);
    let mut at = 0;
    for i in 0..n {
        let len = q + usize::from(i < r);
        v.push(&data[at..at + len]);
        at += len;
    }
    v
}

/// A local error: message for stderr, exit status 1.
struct LocalError(String);

impl<E: std::fmt::Display> From<E> for LocalError {
    fn from(e: E) -> Self {
        LocalError(e.to_string())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Ok,
    Reset,
    Closed,
    Timeout,
}

impl Outcome {
    fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Reset => "reset",
            Outcome::Closed => "closed",
            Outcome::Timeout => "timeout",
        }
    }

    /// The outcome an I/O error stands for, `None` for a local error.
    fn of(e: &io::Error) -> Option<Outcome> {
        match e.kind() {
            io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe => Some(Outcome::Reset),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => Some(Outcome::Timeout),
            io::ErrorKind::UnexpectedEof => Some(Outcome::Closed),
            _ => None,
        }
    }
}

fn setsockopt_u32(fd: i32, level: i32, name: i32, v: u32) -> io::Result<()> {
    let v = v as libc::c_int;
    // SAFETY: `v` outlives the call and the length is its size; fd is a socket we own.
    let r = unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            (&v as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Connect to `to` within `timeout`, with TCP_MAXSEG `mss` and SO_RCVBUF `rcvbuf` set first
/// when given, from local port `lport` when given.
fn connect(
    to: SocketAddrV4,
    mss: Option<u32>,
    rcvbuf: Option<u32>,
    lport: Option<u16>,
    timeout: Duration,
) -> io::Result<TcpStream> {
    if mss.is_none() && rcvbuf.is_none() && lport.is_none() {
        return TcpStream::connect_timeout(&SocketAddr::V4(to), timeout);
    }
    // SAFETY: plain socket(2) call; the descriptor is owned by `OwnedFd` right after.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by socket(2) and nothing else owns it.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    if let Some(mss) = mss {
        setsockopt_u32(fd, libc::IPPROTO_TCP, libc::TCP_MAXSEG, mss)?;
    }
    if let Some(b) = rcvbuf {
        setsockopt_u32(fd, libc::SOL_SOCKET, libc::SO_RCVBUF, b)?;
    }
    if let Some(p) = lport {
        let local = libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: p.to_be(),
            sin_addr: libc::in_addr { s_addr: 0 },
            sin_zero: [0; 8],
        };
        // SAFETY: `local` is a valid sockaddr_in that outlives the call; the length is its size.
        let r = unsafe {
            libc::bind(
                fd,
                (&local as *const libc::sockaddr_in).cast(),
                std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
            )
        };
        if r != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    // A blocking connect that gives up after SO_SNDTIMEO (then EINPROGRESS).
    let tv = libc::timeval {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_usec: timeout.subsec_micros() as libc::suseconds_t,
    };
    // SAFETY: `tv` outlives the call and the length is its size.
    let r = unsafe {
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_SNDTIMEO,
            (&tv as *const libc::timeval).cast(),
            std::mem::size_of::<libc::timeval>() as libc::socklen_t,
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    let sin = libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: to.port().to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from(*to.ip()).to_be(),
        },
        sin_zero: [0; 8],
    };
    // SAFETY: `sin` is a valid sockaddr_in that outlives the call; the length is its size.
    let r = unsafe {
        libc::connect(
            fd,
            (&sin as *const libc::sockaddr_in).cast(),
            std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
        )
    };
    if r != 0 {
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EINPROGRESS) {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "connect timed out"));
        }
        return Err(e);
    }
    let s = TcpStream::from(owned);
    s.set_write_timeout(None)?;
    Ok(s)
}

/// TCP_INFO: (data segments sent, retransmissions, our window scale shift), zeros when
/// unavailable.
fn tcp_counters(s: &TcpStream) -> (u32, u32, u8) {
    // SAFETY: tcp_info is plain data; all-zero is a valid value.
    let mut ti: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    // SAFETY: `ti` and `len` outlive the call; `len` is `ti`'s size.
    let r = unsafe {
        libc::getsockopt(
            s.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut ti as *mut libc::tcp_info).cast(),
            &mut len,
        )
    };
    if r != 0 {
        return (0, 0, 0);
    }
    // tcpi_snd_wscale:4, tcpi_rcv_wscale:4 share one byte (the low nibble is snd).
    (
        ti.tcpi_data_segs_out,
        ti.tcpi_total_retrans,
        ti.tcpi_snd_rcv_wscale >> 4,
    )
}

/// What was read of the response.
#[derive(Default)]
struct Response {
    status: u16,
    backend: String,
    body: Vec<u8>,
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Parse a response head: (status, X-Backend, Content-Length).
fn parse_head(head: &[u8]) -> (u16, String, Option<usize>) {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.split("\r\n");
    let status = lines
        .next()
        .filter(|l| l.starts_with("HTTP/"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (mut backend, mut len) = (String::new(), None);
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            if k.trim().eq_ignore_ascii_case("x-backend") {
                backend = v.trim().to_string();
            } else if k.trim().eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().ok();
            }
        }
    }
    (status, backend, len)
}

/// Read one response within `deadline`.
fn read_response(s: &mut TcpStream, deadline: Instant) -> Result<(Response, Outcome), LocalError> {
    let mut buf = Vec::new();
    let mut r = Response::default();
    let mut head_end = None;
    let mut want = None;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        if let Some(h) = head_end {
            if let Some(n) = want {
                if buf.len() - h >= n {
                    r.body = buf[h..h + n].to_vec();
                    return Ok((r, Outcome::Ok));
                }
            }
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok((finish_partial(r, &buf, head_end), Outcome::Timeout));
        }
        s.set_read_timeout(Some(left))?;
        match s.read(&mut chunk) {
            Ok(0) => {
                // The server closed: a whole response when it had no Content-Length.
                let done = head_end.is_some() && want.is_none();
                let r = finish_partial(r, &buf, head_end);
                return Ok((r, if done { Outcome::Ok } else { Outcome::Closed }));
            }
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => match Outcome::of(&e) {
                Some(o) => return Ok((finish_partial(r, &buf, head_end), o)),
                None => return Err(LocalError(format!("reading the response: {e}"))),
            },
        }
        if head_end.is_none() {
            if let Some(p) = find(&buf, b"\r\n\r\n") {
                let (status, backend, len) = parse_head(&buf[..p]);
                r.status = status;
                r.backend = backend;
                want = len;
                head_end = Some(p + 4);
            }
        }
    }
}

fn finish_partial(mut r: Response, buf: &[u8], head_end: Option<usize>) -> Response {
    if let Some(h) = head_end {
        r.body = buf[h..].to_vec();
    }
    r
}

fn run(a: &Args) -> Result<String, LocalError> {
    let t0 = Instant::now();
    let data = match &a.raw {
        Some(spec) => raw_bytes(spec).map_err(LocalError)?,
        None => http_head(a),
    };
    let pieces: Vec<&[u8]> = if a.split_crlfcrlf {
        let at = data.len() - 2;
        vec![&data[..at], &data[at..]]
    } else {
        cut(&data, a.pieces)
    };
    let body: Vec<u8> = (0..a.body_size).map(|i| (i % 251) as u8).collect();
    let mut writes: Vec<&[u8]> = pieces;
    if !body.is_empty() {
        writes.push(&body);
    }
    exchange(a, &writes, None, t0)
}

/// One connection to `a.to` (`--mss`, `--rcvbuf`, from `lport` when given): `writes` in turn,
/// `a.gap` apart, then the response, all within `a.timeout` from `t0`; the printed line.
fn exchange(
    a: &Args,
    writes: &[&[u8]],
    lport: Option<u16>,
    t0: Instant,
) -> Result<String, LocalError> {
    let deadline = t0 + a.timeout;
    let line = |r: &Response, o: Outcome, lport: u16, sent: usize, segs: (u32, u32, u8)| {
        format!(
            "status={} backend={} body_bytes={} body_sha256={:x} outcome={} elapsed_ms={} lport={lport} sent_bytes={sent} data_segs_out={} retrans={} wscale={}",
            r.status,
            if r.backend.is_empty() { "-" } else { &r.backend },
            r.body.len(),
            Sha256::digest(&r.body),
            o.name(),
            t0.elapsed().as_millis(),
            segs.0,
            segs.1,
            segs.2,
        )
    };
    let mut s = match connect(a.to, a.mss, a.rcvbuf, lport, a.timeout) {
        Ok(s) => s,
        Err(e) => match Outcome::of(&e) {
            Some(o) => return Ok(line(&Response::default(), o, 0, 0, (0, 0, 0))),
            None => return Err(LocalError(format!("connecting to {}: {e}", a.to))),
        },
    };
    s.set_nodelay(true)?;
    let lport = s.local_addr()?.port();
    let mut sent = 0;
    let mut failed = None;
    for (i, p) in writes.iter().enumerate() {
        if i > 0 && !a.gap.is_zero() {
            std::thread::sleep(a.gap);
        }
        if let Err(e) = s.write_all(p) {
            match Outcome::of(&e) {
                Some(o) => {
                    failed = Some(o);
                    break;
                }
                None => return Err(LocalError(format!("writing the request: {e}"))),
            }
        }
        sent += p.len();
    }
    let (r, o) = match failed {
        Some(o) => (Response::default(), o),
        None => read_response(&mut s, deadline)?,
    };
    let segs = tcp_counters(&s);
    drop(s);
    Ok(line(&r, o, lport, sent, segs))
}

/// `batch`: every head of `file`, each on a connection of its own, one line each (printed
/// as it is done).
fn run_batch(a: &Args, file: &str) -> Result<(), LocalError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| LocalError(format!("--file: `{file}` is not readable: {e}")))?;
    let mut heads = Vec::new();
    for (n, l) in text.lines().enumerate() {
        if !l.trim().is_empty() {
            heads.push(hex_bytes(l, &format!("--file {file}:{}", n + 1)).map_err(LocalError)?);
        }
    }
    if let Some(p) = a.first_lport {
        if usize::from(p) + heads.len() > 65536 {
            return Err(LocalError(format!(
                "--first-lport {p}: {} heads do not fit below port 65536",
                heads.len()
            )));
        }
    }
    let mut out = io::stdout().lock();
    for (index, head) in heads.iter().enumerate() {
        let lport = a.first_lport.map(|p| p + index as u16);
        let line = exchange(a, &[head], lport, Instant::now())?;
        writeln!(out, "index={index} {line}")?;
        out.flush()?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("snic-peer: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(file) = &args.batch {
        return match run_batch(&args, file) {
            Ok(()) => ExitCode::SUCCESS,
            Err(LocalError(e)) => {
                eprintln!("snic-peer: {e}");
                ExitCode::FAILURE
            }
        };
    }
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(LocalError(e)) => {
            eprintln!("snic-peer: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_hello_lengths_agree() {
        let r = tls_client_hello();
        assert_eq!(r[0], 0x16);
        assert_eq!(usize::from(u16::from_be_bytes([r[3], r[4]])), r.len() - 5);
        assert_eq!(r[5], 1);
        let hs = u32::from_be_bytes([0, r[6], r[7], r[8]]) as usize;
        assert_eq!(hs, r.len() - 9);
    }

    #[test]
    fn cut_covers_everything() {
        let d: Vec<u8> = (0..23).collect();
        let p = cut(&d, 5);
        assert_eq!(p.len(), 5);
        assert_eq!(p.concat(), d);
        assert_eq!(cut(&d[..2], 5).len(), 2);
    }
}
