//! The socket server: docs/interfaces.md, "Simulated card socket protocol".

use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use splicenic_driver::proto::{read_frame, write_frame, Reply, Request};
use splicenic_driver::regs::{ctrl, id};
use splicenic_sim::server::{serve, serve_listener};
use splicenic_sim::{SimCard, SimConfig, SimError};

fn sock_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("splicenic-sim-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.sock"));
    let _ = std::fs::remove_file(&p);
    p
}

fn start(path: &Path) -> JoinHandle<Result<(), SimError>> {
    let p = path.to_path_buf();
    let h = std::thread::spawn(move || serve(&p, SimConfig::default()));
    let t0 = Instant::now();
    while UnixStream::connect(path).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "server did not start"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    h
}

fn call(s: &mut UnixStream, req: &Request) -> Reply {
    write_frame(s, &req.encode()).unwrap();
    let body = read_frame(s).unwrap().expect("reply frame");
    Reply::decode_for(req, &body).unwrap()
}

fn shutdown(path: &Path, h: JoinHandle<Result<(), SimError>>) {
    let mut s = UnixStream::connect(path).unwrap();
    assert_eq!(call(&mut s, &Request::Shutdown), Reply::Done);
    h.join().unwrap().unwrap();
    assert!(!path.exists(), "socket file removed");
}

#[test]
fn reads_writes_info_and_shutdown() {
    let path = sock_path("basic");
    let h = start(&path);
    let mut s = UnixStream::connect(&path).unwrap();
    assert_eq!(
        call(
            &mut s,
            &Request::Read {
                offset: id::MAGIC,
                count: 2
            }
        ),
        Reply::Words(vec![0x534E_4943, id::version::RESET])
    );
    assert_eq!(
        call(
            &mut s,
            &Request::Write {
                offset: ctrl::SCRATCH,
                data: vec![0xFEED_0001]
            }
        ),
        Reply::Done
    );
    assert_eq!(
        call(
            &mut s,
            &Request::Read {
                offset: ctrl::SCRATCH,
                count: 1
            }
        ),
        Reply::Words(vec![0xFEED_0001])
    );
    let Reply::Info {
        bar_size,
        cycles: c1,
        clk_hz,
    } = call(&mut s, &Request::Info)
    else {
        panic!("INFO reply")
    };
    assert_eq!((bar_size, clk_hz), (1 << 20, splicenic_sim::CLK_HZ));
    // The clock free-runs between requests: it moves on without one.
    let t0 = Instant::now();
    loop {
        let Reply::Info { cycles: c2, .. } = call(&mut s, &Request::Info) else {
            panic!("INFO reply")
        };
        if c2 > c1 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the clock did not run on between requests within 30 s ({c1} -> {c2})"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // Out of range is an error reply, not a dropped connection.
    assert!(matches!(
        call(
            &mut s,
            &Request::Read {
                offset: 0xFFFFC,
                count: 2
            }
        ),
        Reply::Error(_)
    ));
    assert!(matches!(
        call(
            &mut s,
            &Request::Read {
                offset: 0,
                count: 1
            }
        ),
        Reply::Words(_)
    ));
    shutdown(&path, h);
}

#[test]
fn broken_client_does_not_disturb_others() {
    let path = sock_path("broken");
    let h = start(&path);
    let mut good = UnixStream::connect(&path).unwrap();
    assert_eq!(
        call(
            &mut good,
            &Request::Write {
                offset: ctrl::SCRATCH,
                data: vec![42]
            }
        ),
        Reply::Done
    );
    {
        // Length prefix for 13 bytes, then half a READ body, then close.
        let mut bad = UnixStream::connect(&path).unwrap();
        let body = Request::Read {
            offset: 0,
            count: 1,
        }
        .encode();
        bad.write_all(&(body.len() as u32).to_le_bytes()).unwrap();
        bad.write_all(&body[..body.len() / 2]).unwrap();
        // The frame ends early: the server drops the connection (at most an error reply).
        bad.shutdown(std::net::Shutdown::Write).unwrap();
        bad.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut rest = Vec::new();
        bad.read_to_end(&mut rest)
            .expect("the server closing the broken connection within 30 s");
    }
    for _ in 0..3 {
        assert_eq!(
            call(
                &mut good,
                &Request::Read {
                    offset: ctrl::SCRATCH,
                    count: 1
                }
            ),
            Reply::Words(vec![42])
        );
    }
    shutdown(&path, h);
}

#[test]
fn garbage_gets_an_error_reply() {
    let path = sock_path("garbage");
    let h = start(&path);
    let mut s = UnixStream::connect(&path).unwrap();
    write_frame(&mut s, &[0x77, 1, 2, 3]).unwrap();
    let body = read_frame(&mut s).unwrap().expect("error reply");
    assert_eq!(body[0], 1, "error status");
    assert!(String::from_utf8_lossy(&body[1..]).contains("opcode"));

    let mut s = UnixStream::connect(&path).unwrap();
    write_frame(&mut s, &[]).unwrap();
    let body = read_frame(&mut s).unwrap().expect("error reply");
    assert_eq!(body[0], 1);

    // Oversized frame header.
    let mut s = UnixStream::connect(&path).unwrap();
    s.write_all(&(2u32 << 20).to_le_bytes()).unwrap();
    let body = read_frame(&mut s).unwrap().expect("error reply");
    assert_eq!(body[0], 1);

    let mut ok = UnixStream::connect(&path).unwrap();
    assert_eq!(
        call(
            &mut ok,
            &Request::Read {
                offset: id::MAGIC,
                count: 1
            }
        ),
        Reply::Words(vec![0x534E_4943])
    );
    shutdown(&path, h);
}

#[test]
fn second_server_on_a_live_socket_is_refused_and_stale_file_replaced() {
    let path = sock_path("twice");
    // A stale socket file (bound, listener gone) is replaced.
    drop(UnixListener::bind(&path).unwrap());
    assert!(path.exists());
    let h = start(&path);
    let err = serve(&path, SimConfig::default()).unwrap_err();
    assert!(matches!(err, SimError::AlreadyServing(_)), "{err}");
    shutdown(&path, h);
}

#[test]
fn serve_listener_with_a_prepared_card() {
    let path = sock_path("listener");
    let mut card = SimCard::new(SimConfig::default()).unwrap();
    splicenic_driver::Bar::write32(&mut card, ctrl::SCRATCH, 0x0600_0D00).unwrap();
    let listener = UnixListener::bind(&path).unwrap();
    let h = std::thread::spawn(move || serve_listener(listener, card));
    let mut s = UnixStream::connect(&path).unwrap();
    assert_eq!(
        call(
            &mut s,
            &Request::Read {
                offset: ctrl::SCRATCH,
                count: 1
            }
        ),
        Reply::Words(vec![0x0600_0D00])
    );
    assert_eq!(call(&mut s, &Request::Shutdown), Reply::Done);
    h.join().unwrap().unwrap();
    let _ = std::fs::remove_file(&path);
}
