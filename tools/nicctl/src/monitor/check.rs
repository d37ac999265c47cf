//! The health checkers: HTTP_GET, TCP_CHECK and MISC_CHECK, as keepalived runs them.
//!
//! Each checker is a plain blocking function returning a [`CheckOutcome`]; an unreachable
//! or misbehaving server is a failed outcome, never an error or a panic.

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::{SocketAddr, SocketAddrV4, TcpStream};
use std::time::{Duration, Instant};

use md5::{Digest, Md5};
use splicenic_driver::config::model::{Checker, HttpCheck, MiscCheck, TcpCheck, UrlCheck};

use super::process::{run_shell, RunError};

/// A response larger than this (headers and body) fails the check.
pub const MAX_RESPONSE: usize = 8 * 1024 * 1024;

/// What one run of a checker found.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOutcome {
    /// The server passed.
    pub ok: bool,
    /// MISC_CHECK with `misc_dynamic`: the weight the command asked for (exit code - 2).
    pub weight: Option<u32>,
    /// How long the check took (connect + request + response, or the command's run time).
    pub response_time: Duration,
    /// What happened, for the log.
    pub detail: String,
}

impl CheckOutcome {
    fn passed(response_time: Duration, detail: String) -> Self {
        Self {
            ok: true,
            weight: None,
            response_time,
            detail,
        }
    }

    fn failed(response_time: Duration, error: &CheckError) -> Self {
        Self {
            ok: false,
            weight: None,
            response_time,
            detail: error.to_string(),
        }
    }
}

/// Why a check failed.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The TCP connection was refused, timed out or failed otherwise.
    #[error("connect to {addr}: {source}")]
    Connect {
        addr: SocketAddrV4,
        #[source]
        source: std::io::Error,
    },
    /// Sending the request or reading the response failed.
    #[error("{what} {addr}: {source}")]
    Io {
        what: &'static str,
        addr: SocketAddrV4,
        #[source]
        source: std::io::Error,
    },
    /// The whole response did not arrive within the timeout.
    #[error("no complete response from {addr} within {timeout:?}")]
    ResponseTimeout {
        addr: SocketAddrV4,
        timeout: Duration,
    },
    /// The response exceeded [`MAX_RESPONSE`].
    #[error("response from {addr} larger than {MAX_RESPONSE} bytes")]
    TooLarge { addr: SocketAddrV4 },
    /// No parsable HTTP status line.
    #[error("no HTTP status line in the response of {addr}")]
    BadResponse { addr: SocketAddrV4 },
    /// The status code is not the expected one.
    #[error("url({path}), status_code [{got}] (expected {expected})")]
    Status {
        path: String,
        got: u16,
        expected: String,
    },
    /// The body's MD5 is not the configured digest.
    #[error("url[{path}], MD5SUM [{got}] (expected {expected})")]
    Digest {
        path: String,
        got: String,
        expected: String,
    },
    /// The path or host would not make a single well-formed request line or header.
    #[error("url({path}): path or virtualhost contains a line break or space")]
    BadRequest { path: String },
    /// An HTTP_GET without any `url`.
    #[error("HTTP_GET has no url to fetch")]
    NoUrl,
    /// The MISC_CHECK command could not run to completion.
    #[error("[{path}]: {source}")]
    Run {
        path: String,
        #[source]
        source: RunError,
    },
    /// The MISC_CHECK command exited with a failure code.
    #[error("[{path}] exited with status {code}")]
    Exit { path: String, code: i32 },
    /// The MISC_CHECK command was killed by a signal.
    #[error("[{path}] was killed by a signal")]
    Signal { path: String },
}

/// Runs one checker of a server at `server` (whose pool checks every `delay_loop`; a
/// MISC_CHECK without `misc_timeout` uses it as its time limit).
pub fn run_checker(checker: &Checker, server: SocketAddrV4, delay_loop: Duration) -> CheckOutcome {
    match checker {
        Checker::Http(http) => http_get(server, http),
        Checker::Tcp(tcp) => tcp_check(server, tcp),
        Checker::Misc(misc) => misc_check(misc, delay_loop),
    }
}

/// TCP_CHECK: the connection to `connect_to` (default: the server) is established within
/// `connect_timeout`.
pub fn tcp_check(server: SocketAddrV4, check: &TcpCheck) -> CheckOutcome {
    let target = check.common.connect_to.unwrap_or(server);
    let start = Instant::now();
    match connect(target, check.common.connect_timeout) {
        Ok(_) => CheckOutcome::passed(start.elapsed(), format!("connected to {target}")),
        Err(e) => CheckOutcome::failed(start.elapsed(), &e),
    }
}

/// HTTP_GET: every url is fetched with an HTTP/1.0 GET and must answer with its
/// `status_code` (default: any 2xx) and, when `digest` is given, a body whose MD5 is that
/// digest (keepalived's `genhash`: the MD5 of the entity body as sent, after the header).
///
/// The connection and the response each get `connect_timeout`. `Host` is the url's
/// `virtualhost`, else the checker's, else the server's IP (with `:port` unless 80).
pub fn http_get(server: SocketAddrV4, check: &HttpCheck) -> CheckOutcome {
    let start = Instant::now();
    if check.urls.is_empty() {
        return CheckOutcome::failed(start.elapsed(), &CheckError::NoUrl);
    }
    for url in &check.urls {
        if let Err(e) = fetch_url(server, check, url) {
            return CheckOutcome::failed(start.elapsed(), &e);
        }
    }
    let detail = match check.urls.as_slice() {
        [one] => format!("url({}) passed", one.path),
        urls => format!("{} urls passed", urls.len()),
    };
    CheckOutcome::passed(start.elapsed(), detail)
}

/// The `Host` header value of a url.
fn host_header(server: SocketAddrV4, check: &HttpCheck, url: &UrlCheck) -> String {
    match url.virtualhost.as_ref().or(check.virtualhost.as_ref()) {
        Some(host) => host.clone(),
        None if server.port() == 80 => server.ip().to_string(),
        None => server.to_string(),
    }
}

/// Fetches one url and checks its status and digest.
fn fetch_url(server: SocketAddrV4, check: &HttpCheck, url: &UrlCheck) -> Result<(), CheckError> {
    let host = host_header(server, check, url);
    let unsafe_char = |c: char| c == '\r' || c == '\n' || c == ' ' || c == '\t';
    if url.path.is_empty() || url.path.contains(unsafe_char) || host.contains(unsafe_char) {
        return Err(CheckError::BadRequest {
            path: url.path.clone(),
        });
    }
    let target = check.common.connect_to.unwrap_or(server);
    let timeout = check.common.connect_timeout;
    let mut stream = connect(target, timeout)?;
    let request = format!(
        "GET {} HTTP/1.0\r\nUser-Agent: KeepAliveClient\r\nHost: {host}\r\nConnection: close\r\n\r\n",
        url.path
    );
    let io = |what| {
        move |source| CheckError::Io {
            what,
            addr: target,
            source,
        }
    };
    stream
        .set_write_timeout(Some(timeout))
        .map_err(io("send request to"))?;
    stream
        .write_all(request.as_bytes())
        .map_err(io("send request to"))?;
    let response = read_all(&mut stream, target, timeout)?;
    let (status, body) =
        parse_response(&response).ok_or(CheckError::BadResponse { addr: target })?;

    let status_ok = match url.status_code {
        Some(code) => status == code,
        None => (200..300).contains(&status),
    };
    if !status_ok {
        return Err(CheckError::Status {
            path: url.path.clone(),
            got: status,
            expected: url
                .status_code
                .map_or_else(|| "2xx".to_string(), |c| c.to_string()),
        });
    }
    if let Some(want) = url.digest {
        let got: [u8; 16] = Md5::digest(body).into();
        if got != want {
            return Err(CheckError::Digest {
                path: url.path.clone(),
                got: hex(&got),
                expected: hex(&want),
            });
        }
    }
    Ok(())
}

/// Reads until the peer closes, within `timeout` in all.
fn read_all(
    stream: &mut TcpStream,
    addr: SocketAddrV4,
    timeout: Duration,
) -> Result<Vec<u8>, CheckError> {
    let deadline = Instant::now() + timeout;
    let mut response = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(CheckError::ResponseTimeout { addr, timeout });
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|source| CheckError::Io {
                what: "read response of",
                addr,
                source,
            })?;
        match stream.read(&mut buf) {
            Ok(0) => return Ok(response),
            Ok(n) => {
                if response.len() + n > MAX_RESPONSE {
                    return Err(CheckError::TooLarge { addr });
                }
                response.extend_from_slice(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(CheckError::ResponseTimeout { addr, timeout });
            }
            Err(source) => {
                return Err(CheckError::Io {
                    what: "read response of",
                    addr,
                    source,
                })
            }
        }
    }
}

/// Splits a raw HTTP response into its status code and entity body.
fn parse_response(response: &[u8]) -> Option<(u16, &[u8])> {
    let (head_len, body_start) = find_header_end(response)?;
    let head = std::str::from_utf8(&response[..head_len]).ok()?;
    let status_line = head.lines().next()?;
    let mut parts = status_line.split_ascii_whitespace();
    if !parts.next()?.starts_with("HTTP/") {
        return None;
    }
    let code = parts.next()?;
    if code.len() != 3 {
        return None;
    }
    Some((code.parse().ok()?, &response[body_start..]))
}

/// The length of the header block and where the body starts (after CRLFCRLF, or LFLF
/// from a sloppy server).
fn find_header_end(response: &[u8]) -> Option<(usize, usize)> {
    let crlf = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| (i, i + 4));
    let lf = response
        .windows(2)
        .position(|w| w == b"\n\n")
        .map(|i| (i, i + 2));
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// Lower-case hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// MISC_CHECK: runs `/bin/sh -c misc_path`, killing its process group when it outlives
/// `misc_timeout` (default `delay_loop`).
///
/// Exit code 0 passes; 1 fails; with `misc_dynamic`, 2..=255 pass with weight code - 2,
/// without it any non-zero code fails. A timeout or a signal fails.
///
/// The script's output goes to /dev/null (as with keepalived), so however much it prints
/// costs nothing; what it leaves running in its process group when it exits is killed, and
/// the check takes at most `misc_timeout` (and the runner's output grace). See
/// [`run_shell`].
pub fn misc_check(check: &MiscCheck, delay_loop: Duration) -> CheckOutcome {
    let timeout = check.timeout.unwrap_or(delay_loop);
    let start = Instant::now();
    let path = check.path.clone();
    let finished = match run_shell(&check.path, &[], timeout, false) {
        Ok(finished) => finished,
        Err(source) => {
            return CheckOutcome::failed(start.elapsed(), &CheckError::Run { path, source });
        }
    };
    let elapsed = finished.elapsed;
    match finished.status.code() {
        Some(0) => CheckOutcome::passed(elapsed, format!("[{path}] exited with status 0")),
        Some(code @ 2..=255) if check.dynamic => {
            let weight = u32::try_from(code - 2).unwrap_or(0);
            CheckOutcome {
                ok: true,
                weight: Some(weight),
                response_time: elapsed,
                detail: format!("[{path}] exited with status {code}: weight {weight}"),
            }
        }
        Some(code) => CheckOutcome::failed(elapsed, &CheckError::Exit { path, code }),
        None => CheckOutcome::failed(elapsed, &CheckError::Signal { path }),
    }
}

/// `TcpStream::connect_timeout` with the error typed.
fn connect(addr: SocketAddrV4, timeout: Duration) -> Result<TcpStream, CheckError> {
    // A zero timeout is refused by the standard library; treat it as "almost none".
    let timeout = timeout.max(Duration::from_millis(1));
    TcpStream::connect_timeout(&SocketAddr::V4(addr), timeout)
        .map_err(|source| CheckError::Connect { addr, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_status_and_body() {
        let r = b"HTTP/1.0 200 OK\r\nServer: x\r\n\r\nhello\r\n\r\nworld";
        assert_eq!(parse_response(r), Some((200, &b"hello\r\n\r\nworld"[..])));
        let r = b"HTTP/1.1 404 Not Found\n\nnope";
        assert_eq!(parse_response(r), Some((404, &b"nope"[..])));
        assert_eq!(parse_response(b"HTTP/1.0 200 OK\r\n"), None);
        assert_eq!(parse_response(b"SSH-2.0-OpenSSH\r\n\r\n"), None);
        assert_eq!(parse_response(b"HTTP/1.0 2000 OK\r\n\r\n"), None);
        assert_eq!(parse_response(b""), None);
    }

    #[test]
    fn hex_is_lower_case() {
        assert_eq!(hex(&[0x00, 0xab, 0x7f]), "00ab7f");
    }
}
