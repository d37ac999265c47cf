//! Tests of the checkers against real peers on loopback (a Python HTTP server, TCP
//! listeners, shell commands) and of the state machine driving a recording card control.

use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use md5::{Digest, Md5};
use splicenic_driver::config::model::{
    CheckCommon, Checker, Feedback, HttpCheck, LoadInput, Loc, MiscCheck, Pool, Server, TcpCheck,
    UrlCheck,
};
use splicenic_driver::flowmgr::Scheduler;

use super::check::{http_get, misc_check, tcp_check};
use super::*;

// ---------------------------------------------------------------------------------------
// Peers

/// A directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("nicctl-monitor-{tag}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A port nothing listens on right now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn local(port: u16) -> SocketAddrV4 {
    SocketAddrV4::new(Ipv4Addr::LOCALHOST, port)
}

/// `python3 -m http.server` serving a directory on loopback; killed on drop.
struct PyHttp {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
}

impl PyHttp {
    fn start(dir: &Path, port: u16) -> Self {
        let mut server = Self {
            child: None,
            port,
            dir: dir.to_path_buf(),
        };
        server.restart();
        server
    }

    /// (Re)starts the server on its port and waits until it accepts connections.
    fn restart(&mut self) {
        let child = Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1"])
            .arg(self.port.to_string())
            .arg("--directory")
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 must be installed for these tests");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(local(self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "python http.server did not start"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn addr(&self) -> SocketAddrV4 {
        local(self.port)
    }
}

impl Drop for PyHttp {
    fn drop(&mut self) {
        self.stop();
    }
}

// ---------------------------------------------------------------------------------------
// Configuration helpers

fn common(timeout_ms: u64, retry: u32, before_retry_ms: u64) -> CheckCommon {
    CheckCommon {
        loc: Loc::default(),
        connect_to: None,
        connect_timeout: Duration::from_millis(timeout_ms),
        retry,
        delay_before_retry: Duration::from_millis(before_retry_ms),
        delay_loop: None,
    }
}

fn url(path: &str, status_code: Option<u16>, digest: Option<[u8; 16]>) -> UrlCheck {
    UrlCheck {
        loc: Loc::default(),
        path: path.into(),
        status_code,
        digest,
        virtualhost: None,
    }
}

fn http(urls: Vec<UrlCheck>, retry: u32) -> HttpCheck {
    HttpCheck {
        common: common(500, retry, 50),
        virtualhost: None,
        urls,
    }
}

fn tcp(retry: u32) -> Checker {
    Checker::Tcp(TcpCheck {
        common: common(300, retry, 50),
    })
}

fn misc(path: &str, timeout_ms: Option<u64>, dynamic: bool, retry: u32) -> MiscCheck {
    MiscCheck {
        loc: Loc::default(),
        path: path.into(),
        timeout: timeout_ms.map(Duration::from_millis),
        dynamic,
        retry,
        delay_before_retry: Duration::from_millis(50),
    }
}

fn server(addr: SocketAddrV4, weight: u32, inhibit: bool, checkers: Vec<Checker>) -> Server {
    Server {
        loc: Loc::default(),
        addr,
        weight,
        mac: None,
        inhibit_on_failure: inhibit,
        uthreshold: 0,
        lthreshold: 0,
        checkers,
    }
}

fn pool(name: &str, servers: Vec<Server>) -> Pool {
    Pool {
        loc: Loc::default(),
        name: name.into(),
        implicit: false,
        card_index: None,
        sched: Scheduler::default(),
        fallback: false,
        hash_port: false,
        persistence: None,
        delay_loop: Duration::from_millis(100),
        sorry_server: None,
        quorum: 1,
        hysteresis: 0,
        alpha: false,
        omega: false,
        feedback: None,
        servers,
    }
}

fn quiet() -> Options {
    Options {
        log_stderr: false,
        ..Options::default()
    }
}

// ---------------------------------------------------------------------------------------
// A recording card control

/// One call the monitor made on the card.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Call {
    Add { pool: u8, rs: u8, weight: u32 },
    Remove { pool: u8, rs: u8 },
    Weight { pool: u8, rs: u8, weight: u32 },
}

#[derive(Debug, thiserror::Error)]
#[error("fake card refused: {0}")]
struct FakeError(&'static str);

/// A fake card (the state machine's effects are only observable through the control
/// trait): it records every call, reports the given active connections (counting the
/// reads) and can be told to refuse removals.
#[derive(Debug, Default)]
struct Recorder {
    calls: Vec<Call>,
    connections: Vec<(u8, u32)>,
    connection_reads: usize,
    refuse_remove: bool,
}

impl Control for Recorder {
    type Error = FakeError;

    fn add_server(
        &mut self,
        pool: u8,
        rs: u8,
        _server: &Server,
        weight: u32,
    ) -> Result<(), FakeError> {
        self.calls.push(Call::Add { pool, rs, weight });
        Ok(())
    }

    fn remove_server(&mut self, pool: u8, rs: u8) -> Result<(), FakeError> {
        if self.refuse_remove {
            return Err(FakeError("remove"));
        }
        self.calls.push(Call::Remove { pool, rs });
        Ok(())
    }

    fn set_weight(&mut self, pool: u8, rs: u8, weight: u32) -> Result<(), FakeError> {
        self.calls.push(Call::Weight { pool, rs, weight });
        Ok(())
    }

    fn active_connections(&mut self, _pool: u8, rs: u8) -> Result<u32, FakeError> {
        self.connection_reads += 1;
        self.connections
            .iter()
            .find(|(r, _)| *r == rs)
            .map(|(_, n)| *n)
            .ok_or(FakeError("connections"))
    }
}

/// Runs the monitor until an event matches `want` (true) or `timeout` passes (false).
fn run_until_event(
    monitor: &mut Monitor<Recorder>,
    timeout: Duration,
    want: impl Fn(&Event) -> bool,
) -> bool {
    let stop = AtomicBool::new(false);
    let end = Instant::now() + timeout;
    loop {
        if monitor.events().iter().any(&want) {
            return true;
        }
        if Instant::now() >= end {
            return false;
        }
        monitor.run_until(&stop, Some(Instant::now() + Duration::from_millis(20)));
    }
}

fn run_for(monitor: &mut Monitor<Recorder>, d: Duration) {
    monitor.run_until(&AtomicBool::new(false), Some(Instant::now() + d));
}

/// Runs the monitor until the card saw at least `n` calls or `timeout` passes.
fn run_until_calls(monitor: &mut Monitor<Recorder>, n: usize, timeout: Duration) {
    let end = Instant::now() + timeout;
    while monitor.control().calls.len() < n && Instant::now() < end {
        run_for(monitor, Duration::from_millis(20));
    }
}

fn kinds_of(monitor: &Monitor<Recorder>, rs: u8) -> Vec<EventKind> {
    monitor
        .events()
        .iter()
        .filter(|e| e.rs == Some(rs))
        .map(|e| e.kind.clone())
        .collect()
}

// ---------------------------------------------------------------------------------------
// Checkers

#[test]
fn http_get_status_and_digest_against_python() {
    let dir = TempDir::new("http");
    let body = b"SpliceNIC health page\nsecond line\n";
    std::fs::write(dir.0.join("health.html"), body).unwrap();
    std::fs::write(dir.0.join("other.txt"), b"other").unwrap();
    let py = PyHttp::start(&dir.0, free_port());
    let digest: [u8; 16] = Md5::digest(body).into();
    let mut wrong = digest;
    wrong[0] ^= 0xff;

    let ok = http_get(py.addr(), &http(vec![url("/health.html", None, None)], 1));
    assert!(ok.ok, "{ok:?}");
    assert!(ok.response_time > Duration::ZERO);

    let ok = http_get(
        py.addr(),
        &http(vec![url("/health.html", Some(200), Some(digest))], 1),
    );
    assert!(ok.ok, "{ok:?}");

    let bad = http_get(
        py.addr(),
        &http(vec![url("/health.html", None, Some(wrong))], 1),
    );
    assert!(!bad.ok);
    assert!(bad.detail.contains("MD5SUM"), "{}", bad.detail);

    let missing = http_get(py.addr(), &http(vec![url("/missing", None, None)], 1));
    assert!(!missing.ok);
    assert!(missing.detail.contains("404"), "{}", missing.detail);
    let expected_404 = http_get(py.addr(), &http(vec![url("/missing", Some(404), None)], 1));
    assert!(expected_404.ok, "{expected_404:?}");

    // Every url must pass.
    let both = vec![
        url("/health.html", None, Some(digest)),
        url("/other.txt", None, None),
    ];
    assert!(http_get(py.addr(), &http(both, 1)).ok);
    let one_bad = vec![url("/health.html", None, None), url("/missing", None, None)];
    assert!(!http_get(py.addr(), &http(one_bad, 1)).ok);

    // connect_to sends the check elsewhere than the server's address.
    let mut redirected = http(vec![url("/other.txt", None, None)], 1);
    redirected.common.connect_to = Some(py.addr());
    assert!(http_get(local(free_port()), &redirected).ok);

    // A request line that would be split is refused without sending anything.
    let injected = http_get(
        py.addr(),
        &http(vec![url("/x HTTP/1.0\r\nX: y", None, None)], 1),
    );
    assert!(!injected.ok);
}

#[test]
fn http_get_fails_on_closed_port_and_silent_server() {
    let closed = http_get(local(free_port()), &http(vec![url("/", None, None)], 1));
    assert!(!closed.ok);
    assert!(closed.detail.contains("connect"), "{}", closed.detail);

    // Accepts the connection but never answers: fails after the timeout, not later.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = match silent.local_addr().unwrap() {
        std::net::SocketAddr::V4(a) => a,
        std::net::SocketAddr::V6(_) => unreachable!("bound to an IPv4 address"),
    };
    let mut check = http(vec![url("/", None, None)], 1);
    check.common.connect_timeout = Duration::from_millis(200);
    let start = Instant::now();
    let outcome = http_get(addr, &check);
    assert!(!outcome.ok);
    assert!(start.elapsed() < Duration::from_secs(2));
    assert!(outcome.detail.contains("within"), "{}", outcome.detail);

    let no_urls = http_get(addr, &http(Vec::new(), 1));
    assert!(!no_urls.ok);
}

#[test]
fn tcp_check_listener_and_closed_port() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let Checker::Tcp(check) = tcp(1) else {
        unreachable!()
    };
    assert!(tcp_check(local(port), &check).ok);
    drop(listener);
    let outcome = tcp_check(local(port), &check);
    assert!(!outcome.ok);
    assert!(outcome.detail.contains("connect"), "{}", outcome.detail);
}

#[test]
fn misc_check_exit_codes() {
    let loop_ = Duration::from_secs(5);
    let ok = misc_check(&misc("exit 0", None, false, 1), loop_);
    assert!(ok.ok && ok.weight.is_none(), "{ok:?}");
    assert!(!misc_check(&misc("exit 1", None, false, 1), loop_).ok);
    assert!(!misc_check(&misc("exit 1", None, true, 1), loop_).ok);
    let dynamic = misc_check(&misc("exit 7", None, true, 1), loop_);
    assert!(dynamic.ok && dynamic.weight == Some(5), "{dynamic:?}");
    assert!(!misc_check(&misc("exit 7", None, false, 1), loop_).ok);
    assert!(!misc_check(&misc("kill -9 $$", None, false, 1), loop_).ok);
}

#[test]
fn misc_check_timeout_kills_the_process_group() {
    let dir = TempDir::new("misc");
    let pidfile = dir.0.join("pid");
    // The shell's child (`sleep`) is in the same process group and must die with it.
    let script = format!("sleep 5 & echo $! > {}; wait", pidfile.display());
    let start = Instant::now();
    let outcome = misc_check(&misc(&script, Some(200), false, 1), Duration::from_secs(9));
    assert!(!outcome.ok);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert!(outcome.detail.contains("timed out"), "{}", outcome.detail);

    let pid = std::fs::read_to_string(&pidfile).unwrap();
    let stat = format!("/proc/{}/stat", pid.trim());
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        // Gone, or a zombie waiting for a reaper.
        let alive = std::fs::read_to_string(&stat)
            .map(|s| !s.contains(") Z "))
            .unwrap_or(false);
        if !alive {
            break;
        }
        assert!(Instant::now() < deadline, "sleep {} survived", pid.trim());
        thread::sleep(Duration::from_millis(20));
    }
}

// ---------------------------------------------------------------------------------------
// State machine

/// HTTP_GET server with `retry 2`: killing the Python server removes it after the check
/// and two retries failed, and brings the sorry server in (it was the only server);
/// restarting it on the same port re-adds it with its weight and removes the sorry
/// server. The card is a fake that records the calls.
#[test]
fn http_server_down_removed_then_restored_with_sorry_server() {
    let dir = TempDir::new("sm");
    std::fs::write(dir.0.join("index.html"), b"ok").unwrap();
    let mut py = PyHttp::start(&dir.0, free_port());
    let check = Checker::Http(http(vec![url("/index.html", Some(200), None)], 2));
    let mut web = pool("web", vec![server(py.addr(), 4, false, vec![check])]);
    let sorry_addr = local(9);
    web.sorry_server = Some((sorry_addr, Loc::default()));
    let mp = MonitoredPool::new(2, web, &[3], Some(40)).unwrap();
    let mut m = Monitor::new(vec![mp], Recorder::default(), Options::default()).unwrap();

    run_for(&mut m, Duration::from_millis(300));
    assert!(m.control().calls.is_empty(), "{:?}", m.control().calls);
    assert!(m.servers()[0].up);

    py.stop();
    assert!(run_until_event(&mut m, Duration::from_secs(5), |e| {
        e.kind == EventKind::ServerRemoved
    }));
    assert_eq!(
        kinds_of(&m, 3),
        vec![
            EventKind::CheckFailed { retrying: true },
            EventKind::CheckFailed { retrying: true },
            EventKind::CheckFailed { retrying: false },
            EventKind::ServerRemoved,
        ]
    );
    let removed = m
        .events()
        .iter()
        .find(|e| e.kind == EventKind::ServerRemoved)
        .unwrap();
    assert_eq!(
        removed.message,
        format!(
            "Removing service [127.0.0.1]:tcp:{} from VS [pool web]",
            py.port
        )
    );
    assert!(run_until_event(&mut m, Duration::from_secs(1), |e| {
        e.kind == EventKind::SorryAdded
    }));
    assert_eq!(
        m.control().calls,
        vec![
            Call::Remove { pool: 2, rs: 3 },
            Call::Add {
                pool: 2,
                rs: 40,
                weight: 1
            },
        ]
    );
    assert!(m.pools()[0].sorry_on_card);

    py.restart();
    assert!(run_until_event(&mut m, Duration::from_secs(5), |e| {
        e.kind == EventKind::SorryRemoved
    }));
    assert_eq!(
        m.control().calls[2..],
        [
            Call::Add {
                pool: 2,
                rs: 3,
                weight: 4
            },
            Call::Remove { pool: 2, rs: 40 },
        ]
    );
    let status = &m.servers()[0];
    assert!(status.up && status.on_card && status.card_weight == 4);
    assert!(m.events().iter().any(|e| e.message
        == format!(
            "Remote Web server [127.0.0.1]:tcp:{} succeed on service.",
            py.port
        )));
}

/// inhibit_on_failure: a failed TCP_CHECK sets weight 0 instead of removing the server,
/// success sets it back. Fake card recording the calls.
#[test]
fn inhibit_on_failure_sets_weight_zero_and_back() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let web = pool("web", vec![server(local(port), 3, true, vec![tcp(1)])]);
    let mp = MonitoredPool::new(0, web, &[5], None).unwrap();
    let mut m = Monitor::new(vec![mp], Recorder::default(), quiet()).unwrap();
    run_for(&mut m, Duration::from_millis(200));

    drop(listener);
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::WeightChanged { from: 3, to: 0 }
    }));
    let change = m
        .events()
        .iter()
        .find(|e| e.kind == EventKind::WeightChanged { from: 3, to: 0 });
    assert_eq!(
        change.unwrap().message,
        format!(
            "Changing weight from 3 to 0 for real server [127.0.0.1]:tcp:{port} of VS [pool web]"
        )
    );
    let failed = m
        .events()
        .iter()
        .find(|e| e.kind == EventKind::CheckFailed { retrying: false })
        .unwrap();
    assert!(
        failed.message.starts_with(&format!(
            "TCP_CHECK on service [127.0.0.1]:tcp:{port} failed after 1 retries"
        )),
        "{}",
        failed.message
    );

    let _again = TcpListener::bind(("127.0.0.1", port)).unwrap();
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::WeightChanged { from: 0, to: 3 }
    }));
    assert!(m
        .events()
        .iter()
        .any(|e| e.message == format!("TCP connection to [127.0.0.1]:tcp:{port} success.")));
    assert_eq!(
        m.control().calls,
        vec![
            Call::Weight {
                pool: 0,
                rs: 5,
                weight: 0
            },
            Call::Weight {
                pool: 0,
                rs: 5,
                weight: 3
            },
        ]
    );
}

/// Pool 1 "web": two TCP_CHECK servers (rs 0 and 1, listening on the returned listeners,
/// the second's port returned too) with `weights`, and a sorry server (rs 63). Fake card.
fn two_tcp_servers_and_a_sorry_server(
    weights: [u32; 2],
) -> (TcpListener, TcpListener, u16, Monitor<Recorder>) {
    let a = TcpListener::bind("127.0.0.1:0").unwrap();
    let b = TcpListener::bind("127.0.0.1:0").unwrap();
    let (pa, pb) = (
        a.local_addr().unwrap().port(),
        b.local_addr().unwrap().port(),
    );
    let mut web = pool(
        "web",
        vec![
            server(local(pa), weights[0], false, vec![tcp(0)]),
            server(local(pb), weights[1], false, vec![tcp(0)]),
        ],
    );
    web.sorry_server = Some((local(9), Loc::default()));
    let mp = MonitoredPool::new(1, web, &[0, 1], Some(63)).unwrap();
    let m = Monitor::new(vec![mp], Recorder::default(), quiet()).unwrap();
    (a, b, pb, m)
}

/// Quorum with two servers: one down keeps quorum 1; both down lose it and add the
/// sorry server; one back removes it. Fake card recording the calls.
#[test]
fn sorry_server_when_every_server_is_down() {
    let (a, b, pb, mut m) = two_tcp_servers_and_a_sorry_server([1, 1]);
    run_for(&mut m, Duration::from_millis(200));

    drop(a);
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::ServerRemoved
    }));
    run_for(&mut m, Duration::from_millis(300));
    assert!(!m.events().iter().any(|e| e.kind == EventKind::SorryAdded));

    drop(b);
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::SorryAdded
    }));
    assert!(m.events().iter().any(|e| e.kind == EventKind::QuorumLost));
    assert_eq!(
        m.control().calls,
        vec![
            Call::Remove { pool: 1, rs: 0 },
            Call::Remove { pool: 1, rs: 1 },
            Call::Add {
                pool: 1,
                rs: 63,
                weight: 1
            },
        ]
    );

    let _b = TcpListener::bind(("127.0.0.1", pb)).unwrap();
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::SorryRemoved
    }));
    assert!(m.events().iter().any(|e| e.kind == EventKind::QuorumGained));
    assert_eq!(
        m.control().calls[3..],
        [
            Call::Add {
                pool: 1,
                rs: 1,
                weight: 1
            },
            Call::Remove { pool: 1, rs: 63 },
        ]
    );
}

/// After a firmware restart the file's configuration is loaded again (every server at its
/// configured weight, no sorry server): `card_reloaded` makes the next step take the down
/// servers out again and put the sorry server back, without a new check. Fake card.
#[test]
fn card_reloaded_puts_the_monitor_view_back_after_a_restart() {
    let (a, b, _, mut m) = two_tcp_servers_and_a_sorry_server([2, 5]);
    run_for(&mut m, Duration::from_millis(200));
    drop(a);
    drop(b);
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::SorryAdded
    }));
    let before = m.control().calls.len();
    m.card_reloaded();
    m.step(Instant::now());
    assert_eq!(
        m.control().calls[before..],
        [
            Call::Remove { pool: 1, rs: 0 },
            Call::Remove { pool: 1, rs: 1 },
            Call::Add {
                pool: 1,
                rs: 63,
                weight: 1
            },
        ]
    );
    // Nothing more to do: a second step changes nothing.
    m.step(Instant::now());
    assert_eq!(m.control().calls.len(), before + 3);
}

/// alpha: servers start DOWN; with nothing on the card yet (servers_loaded false) the
/// sorry server goes in at once, the reachable server is added after its first passed
/// check and the unreachable one never is (and fails quietly). Fake card.
#[test]
fn alpha_servers_start_down() {
    let up = TcpListener::bind("127.0.0.1:0").unwrap();
    let up_port = up.local_addr().unwrap().port();
    let mut web = pool(
        "web",
        vec![
            server(local(up_port), 2, false, vec![tcp(1)]),
            server(local(free_port()), 2, false, vec![tcp(1)]),
        ],
    );
    web.alpha = true;
    web.sorry_server = Some((local(9), Loc::default()));
    let mp = MonitoredPool::new(0, web, &[10, 11], Some(12)).unwrap();
    let options = Options {
        servers_loaded: false,
        ..quiet()
    };
    let mut m = Monitor::new(vec![mp], Recorder::default(), options).unwrap();
    m.step(Instant::now());
    assert_eq!(
        m.control().calls,
        vec![Call::Add {
            pool: 0,
            rs: 12,
            weight: 1
        }]
    );
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::SorryRemoved
    }));
    run_for(&mut m, Duration::from_millis(300));
    assert_eq!(
        m.control().calls,
        vec![
            Call::Add {
                pool: 0,
                rs: 12,
                weight: 1
            },
            Call::Add {
                pool: 0,
                rs: 10,
                weight: 2
            },
            Call::Remove { pool: 0, rs: 12 },
        ]
    );
    assert!(kinds_of(&m, 11).is_empty(), "{:?}", kinds_of(&m, 11));
    let status = m.servers();
    assert!(status[0].up && status[0].on_card);
    assert!(!status[1].up && !status[1].on_card);
}

/// Several checkers: the server is UP only when all pass (TCP passes, MISC fails).
/// misc_dynamic: exit 7 sets weight 5 on the card. Fake card.
#[test]
fn all_checkers_must_pass_and_misc_dynamic_sets_weight() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let web = pool(
        "web",
        vec![
            server(
                local(port),
                1,
                false,
                vec![tcp(0), Checker::Misc(misc("exit 1", None, false, 0))],
            ),
            server(
                local(port),
                1,
                false,
                vec![tcp(0), Checker::Misc(misc("exit 7", None, true, 0))],
            ),
        ],
    );
    let mp = MonitoredPool::new(0, web, &[0, 1], None).unwrap();
    let mut m = Monitor::new(vec![mp], Recorder::default(), quiet()).unwrap();
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.rs == Some(1) && e.kind == EventKind::WeightChanged { from: 1, to: 5 }
    }));
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.rs == Some(0) && e.kind == EventKind::ServerRemoved
    }));
    run_for(&mut m, Duration::from_millis(300));
    let mut calls = m.control().calls.clone();
    calls.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(
        calls,
        vec![
            Call::Remove { pool: 0, rs: 0 },
            Call::Weight {
                pool: 0,
                rs: 1,
                weight: 5
            },
        ]
    );
    let status = m.servers();
    assert!(!status[0].up);
    assert!(status[1].up && status[1].weight == 5);
    drop(listener);
}

/// A refused card operation is reported and tried again after the next check. Fake card.
#[test]
fn control_errors_are_retried() {
    let web = pool(
        "web",
        vec![server(local(free_port()), 1, false, vec![tcp(0)])],
    );
    let mp = MonitoredPool::new(0, web, &[0], None).unwrap();
    let control = Recorder {
        refuse_remove: true,
        ..Recorder::default()
    };
    let mut m = Monitor::new(vec![mp], control, quiet()).unwrap();
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::ControlFailed
    }));
    assert!(m.servers()[0].on_card);
    m.control_mut().refuse_remove = false;
    run_until_calls(&mut m, 1, Duration::from_secs(3));
    assert_eq!(m.control().calls, vec![Call::Remove { pool: 0, rs: 0 }]);
    assert!(!m.servers()[0].on_card);
}

fn feedback(inputs: Vec<(LoadInput, f64)>) -> Feedback {
    Feedback {
        loc: Loc::default(),
        interval: Duration::from_millis(100),
        coefficient: 5.0,
        threshold: 0.05,
        scale: 10,
        inputs,
    }
}

/// Dynamic feedback on the card's active connections (10 and 30: mean 20, loads
/// 0.95·10/20 = 0.475 and 0.95·30/20 = 1.425): the first round sets
/// 10 + 5·∛0.475 = 13.90 → 14 and 10 + 5·∛(−0.475) = 6.10 → 6. Fake card.
#[test]
fn feedback_round_on_connections_sets_weights() {
    let mut web = pool(
        "web",
        vec![
            server(local(free_port()), 10, false, Vec::new()),
            server(local(free_port()), 10, false, Vec::new()),
        ],
    );
    web.feedback = Some(feedback(vec![(LoadInput::Connections, 1.0)]));
    let mp = MonitoredPool::new(0, web, &[0, 1], None).unwrap();
    let control = Recorder {
        connections: vec![(0, 10), (1, 30)],
        ..Recorder::default()
    };
    let mut m = Monitor::new(vec![mp], control, quiet()).unwrap();
    run_until_calls(&mut m, 2, Duration::from_secs(3));
    assert_eq!(
        m.control().calls[..2],
        [
            Call::Weight {
                pool: 0,
                rs: 0,
                weight: 14
            },
            Call::Weight {
                pool: 0,
                rs: 1,
                weight: 6
            },
        ]
    );
}

/// Dynamic feedback on a balanced pool (weights 20 and 10 with 40 and 20 connections:
/// 2 per unit of weight each, so both loads are 0.95): round after round the weights
/// stay, nothing is set on the card. Fake card.
#[test]
fn feedback_keeps_the_weights_of_a_balanced_pool() {
    let mut web = pool(
        "web",
        vec![
            server(local(free_port()), 20, false, Vec::new()),
            server(local(free_port()), 10, false, Vec::new()),
        ],
    );
    web.feedback = Some(Feedback {
        threshold: 0.0,
        ..feedback(vec![(LoadInput::Connections, 1.0)])
    });
    let mp = MonitoredPool::new(0, web, &[0, 1], None).unwrap();
    let control = Recorder {
        connections: vec![(0, 40), (1, 20)],
        ..Recorder::default()
    };
    let mut m = Monitor::new(vec![mp], control, quiet()).unwrap();
    // Rounds every 100 ms; each reads both servers' connections.
    let end = Instant::now() + Duration::from_secs(5);
    while m.control().connection_reads < 2 * 5 && Instant::now() < end {
        run_for(&mut m, Duration::from_millis(20));
    }
    assert!(
        m.control().connection_reads >= 2 * 5,
        "{} reads",
        m.control().connection_reads
    );
    assert_eq!(m.control().calls, Vec::new());
    let weights: Vec<u32> = m.servers().iter().map(|s| s.weight).collect();
    assert_eq!(weights, vec![20, 10]);
    assert!(m.events().is_empty(), "{:?}", m.events());
}

/// Dynamic feedback with `load_command`s: a failing command is skipped with a warning,
/// the other one (0.2) gives 10 + 5·∛0.75 = 14.54 → 15. Fake card.
#[test]
fn feedback_skips_a_failing_command() {
    let mut web = pool("web", vec![server(local(8080), 10, false, Vec::new())]);
    web.feedback = Some(Feedback {
        // The commands get the interval as their time limit: leave room for a busy box.
        interval: Duration::from_millis(500),
        ..feedback(Vec::new())
    });
    web.feedback.as_mut().unwrap().inputs = vec![
        (LoadInput::Command("exit 3".into()), 0.5),
        (
            LoadInput::Command(r#"test "$1" = 127.0.0.1 && echo 0.2"#.into()),
            0.5,
        ),
    ];
    let mp = MonitoredPool::new(0, web, &[0], None).unwrap();
    let mut m = Monitor::new(vec![mp], Recorder::default(), quiet()).unwrap();
    assert!(run_until_event(&mut m, Duration::from_secs(3), |e| {
        e.kind == EventKind::WeightChanged { from: 10, to: 15 }
    }));
    let warning = m
        .events()
        .iter()
        .find(|e| e.kind == EventKind::Warning)
        .unwrap();
    assert!(warning.message.contains("exit 3"), "{}", warning.message);
    assert_eq!(
        m.control().calls[0],
        Call::Weight {
            pool: 0,
            rs: 0,
            weight: 15
        }
    );
}

#[test]
fn inputs_that_do_not_add_up_are_refused() {
    let s = |port| server(local(port), 1, false, Vec::new());
    let control = || Recorder::default();

    let p = pool("a", vec![s(1), s(2)]);
    assert!(matches!(
        MonitoredPool::new(0, p, &[0], None),
        Err(MonitorError::IndexCount { .. })
    ));

    let a = MonitoredPool::new(0, pool("a", vec![s(1)]), &[4], None).unwrap();
    let b = MonitoredPool::new(1, pool("b", vec![s(2)]), &[4], None).unwrap();
    assert!(matches!(
        Monitor::new(vec![a, b], control(), quiet()),
        Err(MonitorError::DuplicateRs { rs: 4, .. })
    ));

    let mut with_sorry = pool("c", vec![s(1)]);
    with_sorry.sorry_server = Some((local(9), Loc::default()));
    let c = MonitoredPool::new(0, with_sorry.clone(), &[0], None).unwrap();
    assert!(matches!(
        Monitor::new(vec![c], control(), quiet()),
        Err(MonitorError::MissingSorryIndex { .. })
    ));
    let c = MonitoredPool::new(0, with_sorry, &[0], Some(0)).unwrap();
    assert!(matches!(
        Monitor::new(vec![c], control(), quiet()),
        Err(MonitorError::DuplicateRs { rs: 0, .. })
    ));

    let mut d = MonitoredPool::new(3, pool("d", vec![s(1)]), &[0], None).unwrap();
    d.servers[0].pool = 4;
    assert!(matches!(
        Monitor::new(vec![d], control(), quiet()),
        Err(MonitorError::PoolMismatch { says: 4, .. })
    ));

    let e = MonitoredPool::new(3, pool("e", vec![s(1)]), &[0], None).unwrap();
    let f = MonitoredPool::new(3, pool("f", vec![s(2)]), &[1], None).unwrap();
    assert!(matches!(
        Monitor::new(vec![e, f], control(), quiet()),
        Err(MonitorError::DuplicatePool { index: 3, .. })
    ));
}
