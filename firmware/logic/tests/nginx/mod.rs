//! The real nginx the differential tests compare with (`canon_nginx.rs` here and
//! `gateware-rtl/tb/test-l7/tests/nginx_diff.rs`, which includes this file by path).
//!
//! [`start_nginx`] runs `/usr/sbin/nginx` (or `$SPLICENIC_NGINX`) as a child in the
//! foreground (`daemon off; master_process off`) on 127.0.0.1 with a temporary prefix and
//!
//! ```text
//! location / { return 200 "$host|$uri\n"; }
//! ```
//!
//! (`$host`: the host nginx resolved, lower-case, without port; `$uri`: its normalised
//! path; no `server_name`, so `$host` is empty for HTTP/1.0 without Host). [`ask`] sends one
//! raw head on its own connection and parses the answer. A missing nginx fails the test.

use std::fs;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The nginx child; killed and its prefix removed on drop.
pub struct Nginx {
    child: Child,
    prefix: PathBuf,
    pub port: u16,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = fs::remove_dir_all(&self.prefix);
    }
}

pub fn nginx_binary() -> PathBuf {
    let path = std::env::var_os("SPLICENIC_NGINX")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/sbin/nginx"));
    assert!(
        path.is_file(),
        "this test needs nginx at {} (install the Debian package nginx, or set \
         SPLICENIC_NGINX to its path); this test does not skip",
        path.display()
    );
    path
}

pub fn start_nginx() -> Nginx {
    let binary = nginx_binary();
    let prefix = std::env::temp_dir().join(format!("splicenic-canon-nginx-{}", std::process::id()));
    let _ = fs::remove_dir_all(&prefix);
    fs::create_dir_all(prefix.join("logs")).unwrap();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let p = prefix.display();
    let conf = format!(
        "daemon off;\n\
         master_process off;\n\
         worker_processes 1;\n\
         error_log {p}/logs/error.log error;\n\
         pid {p}/nginx.pid;\n\
         events {{ worker_connections 64; }}\n\
         http {{\n\
         \x20 access_log off;\n\
         \x20 client_body_temp_path {p}/body;\n\
         \x20 proxy_temp_path {p}/proxy;\n\
         \x20 fastcgi_temp_path {p}/fastcgi;\n\
         \x20 uwsgi_temp_path {p}/uwsgi;\n\
         \x20 scgi_temp_path {p}/scgi;\n\
         \x20 server {{\n\
         \x20   listen 127.0.0.1:{port};\n\
         \x20   location / {{ return 200 \"$host|$uri\\n\"; }}\n\
         \x20 }}\n\
         }}\n"
    );
    let conf_path = prefix.join("nginx.conf");
    fs::write(&conf_path, conf).unwrap();
    let log = |name: &str| fs::File::create(prefix.join("logs").join(name)).unwrap();
    let child = Command::new(&binary)
        .arg("-p")
        .arg(&prefix)
        .arg("-c")
        .arg(&conf_path)
        .arg("-e")
        .arg(prefix.join("logs/error.log"))
        .stdin(Stdio::null())
        .stdout(log("stdout.log"))
        .stderr(log("stderr.log"))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
    let mut nginx = Nginx {
        child,
        prefix,
        port,
    };
    let start = Instant::now();
    loop {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return nginx;
        }
        if let Ok(Some(status)) = nginx.child.try_wait() {
            panic!(
                "nginx exited ({status}): {}",
                read_logs(&nginx.prefix).trim()
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "nginx does not listen on 127.0.0.1:{port}: {}",
            read_logs(&nginx.prefix).trim()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn read_logs(prefix: &Path) -> String {
    ["stderr.log", "error.log"]
        .iter()
        .map(|n| fs::read_to_string(prefix.join("logs").join(n)).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// nginx's answer to one head.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// 200: host and path (`$host`, `$uri`).
    Ok(Vec<u8>, Vec<u8>),
    /// Another status (400, 405, 414, 494, 505), or an HTTP/0.9 error page.
    Refused(u16),
    /// No answer: nginx waited for more of the head and saw the connection close.
    Nothing,
}

pub fn ask(port: u16, head: &[u8]) -> Answer {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(head).unwrap();
    let _ = s.shutdown(Shutdown::Write);
    let mut answer = Vec::new();
    if let Err(e) = s.read_to_end(&mut answer) {
        // A reset after a refusal (nginx closes with unread bytes) still has the status.
        if answer.is_empty() {
            panic!("no answer from nginx for {}: {e}", show(head));
        }
    }
    parse_answer(&answer)
}

pub fn parse_answer(a: &[u8]) -> Answer {
    if a.is_empty() {
        return Answer::Nothing;
    }
    let body = if let Some(rest) = a.strip_prefix(b"HTTP/1.1 ") {
        let status: u16 = std::str::from_utf8(&rest[..3]).unwrap().parse().unwrap();
        if status != 200 {
            return Answer::Refused(status);
        }
        // The first answer only: bytes after the head are a second (pipelined) request.
        let at = a.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        let fields = String::from_utf8_lossy(&a[..at]).to_ascii_lowercase();
        let len: usize = fields
            .split("\r\n")
            .find_map(|l| l.strip_prefix("content-length: "))
            .expect("a Content-Length")
            .parse()
            .unwrap();
        &a[at..at + len]
    } else if a.starts_with(b"<html>") {
        // An HTTP/0.9 request refused: the error page without status line.
        return Answer::Refused(0);
    } else {
        // An HTTP/0.9 answer: the body alone.
        a
    };
    let body = body.strip_suffix(b"\n").expect("body ends with a newline");
    let bar = body.iter().position(|&b| b == b'|').expect("host|uri");
    Answer::Ok(body[..bar].to_vec(), body[bar + 1..].to_vec())
}

pub fn show(b: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(b))
}
