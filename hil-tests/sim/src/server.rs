//! Unix-socket server around a [`SimCard`]: docs/interfaces.md, "Simulated card socket
//! protocol".
//!
//! One thread owns the card. While no request is pending it free-runs the clock in
//! batches, so the firmware runs between host accesses. Each client connection has a
//! thread that decodes requests, hands them to the card thread over a channel and writes
//! the reply back.
//!
//! With [`ServeOptions`] either Ethernet port can be bridged to a Linux TAP device
//! (docs/interfaces.md, "Simulated card on TAP devices"): the card thread polls the TAP
//! between clock batches, pushes what Linux sends into the port and writes what the card
//! sends out of the port to the TAP.

use std::io;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use splicenic_driver::bar::check_access;
use splicenic_driver::proto::{read_frame, write_frame, Reply, Request};
use splicenic_driver::Bar;

use std::collections::VecDeque;

use splicenic_driver::socket::SIM_TX_BACKLOG;

use crate::tap::Tap;
use crate::{Port, SimCard, SimConfig, SimError, BAR_SIZE, CLK_HZ};

/// Cycles simulated per batch while no request is pending.
pub const FREE_RUN_BATCH: u64 = 256;

struct Job {
    req: Request,
    reply: Sender<Reply>,
}

fn io_err(context: impl Into<String>) -> impl FnOnce(io::Error) -> SimError {
    let context = context.into();
    move |source| SimError::Io { context, source }
}

/// Largest frame the card's Ethernet ports take (`DP.MAX_FRAME` of the gateware); longer
/// frames read from a TAP device are dropped.
pub const MAX_FRAME: usize = 2048;
/// Frames a bridged port may have queued in the model before the server stops reading its
/// TAP device; Linux then queues (and eventually drops) them, as on a slow link.
pub const TAP_RX_BACKLOG: usize = 64;

/// Options of a served card beyond [`SimConfig`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServeOptions {
    /// Bridge the client-side port (0) to this TAP device.
    pub tap_client: Option<String>,
    /// Bridge the server-side port (1) to this TAP device.
    pub tap_server: Option<String>,
}

/// TAP devices attached to the card's ports (see [`ServeOptions`]).
#[derive(Debug, Default)]
pub struct Bridges {
    ports: [Option<Bridge>; 2],
}

#[derive(Debug)]
struct Bridge {
    tap: Tap,
    /// Frames read from the TAP and pushed into the card.
    to_card: u64,
    /// Frames the card sent and the server wrote to the TAP.
    from_card: u64,
    /// Frames from the TAP longer than [`MAX_FRAME`], dropped.
    oversize: u64,
    /// Frames of the card the TAP did not take (link down, queue full), dropped.
    write_failed: u64,
    /// TAP read errors.
    read_failed: u64,
}

impl Bridges {
    /// Open the TAP devices named in `opts` (creating any that do not exist).
    pub fn open(opts: &ServeOptions) -> Result<Bridges, SimError> {
        if let (Some(c), Some(s)) = (&opts.tap_client, &opts.tap_server) {
            if c == s {
                return Err(SimError::SameTap(c.clone()));
            }
        }
        let open = |name: &Option<String>| -> Result<Option<Bridge>, SimError> {
            Ok(match name {
                Some(n) => Some(Bridge {
                    tap: Tap::open(n)?,
                    to_card: 0,
                    from_card: 0,
                    oversize: 0,
                    write_failed: 0,
                    read_failed: 0,
                }),
                None => None,
            })
        };
        Ok(Bridges {
            ports: [open(&opts.tap_client)?, open(&opts.tap_server)?],
        })
    }

    /// True when the port with this index (0 client side, 1 server side) is bridged.
    pub fn is_bridged(&self, port: usize) -> bool {
        self.ports.get(port).is_some_and(Option::is_some)
    }

    /// Move frames from the TAP devices into the card.
    fn poll_taps(&mut self, card: &mut SimCard) {
        for (b, port) in self.ports.iter_mut().zip([Port::Client, Port::Server]) {
            let Some(b) = b else { continue };
            while card.rx_pending(port) < TAP_RX_BACKLOG {
                match b.tap.recv() {
                    Ok(Some([])) => {}
                    Ok(Some(f)) if f.len() > MAX_FRAME => {
                        let len = f.len();
                        b.oversize += 1;
                        eprintln!(
                            "tap {}: dropped a {len}-byte frame (the card takes at most {MAX_FRAME} bytes; lower the MTU)",
                            b.tap.name(),
                        );
                    }
                    Ok(Some(f)) => {
                        // Cannot fail: the frame is not empty.
                        if card.push_frame(port, f).is_ok() {
                            b.to_card += 1;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        if b.read_failed == 0 {
                            eprintln!("{e}");
                        }
                        b.read_failed += 1;
                        break;
                    }
                }
            }
        }
    }

    /// Write a frame the card sent out of `port` to its TAP device; gives the frame back
    /// when the port is not bridged.
    fn send(&mut self, port: usize, frame: Vec<u8>) -> Option<Vec<u8>> {
        let Some(b) = self.ports.get_mut(port).and_then(Option::as_mut) else {
            return Some(frame);
        };
        match b.tap.send(&frame) {
            Ok(()) => b.from_card += 1,
            Err(e) => {
                if b.write_failed == 0 {
                    eprintln!("{e} (is the link up? further failures are only counted)");
                }
                b.write_failed += 1;
            }
        }
        None
    }

    /// Log the frame counters of each bridged port to stderr.
    fn log_counters(&self) {
        for (b, side) in self.ports.iter().zip(["client", "server"]) {
            if let Some(b) = b {
                eprintln!(
                    "tap {} ({side} port): {} frames to the card, {} frames from the card, {} oversize dropped, {} writes failed, {} reads failed",
                    b.tap.name(),
                    b.to_card,
                    b.from_card,
                    b.oversize,
                    b.write_failed,
                    b.read_failed
                );
            }
        }
    }
}

/// Serve a new card built from `cfg` on the socket `path` until a client sends SHUTDOWN;
/// the socket file is removed then. A stale socket file is replaced; a live server on
/// the same path is an error.
pub fn serve(path: &Path, cfg: SimConfig) -> Result<(), SimError> {
    serve_with(path, cfg, &ServeOptions::default())
}

/// [`serve`] with options: TAP devices are opened before the socket is bound, so a missing
/// or forbidden device fails the call before any client can connect.
pub fn serve_with(path: &Path, cfg: SimConfig, opts: &ServeOptions) -> Result<(), SimError> {
    if path.exists() {
        if UnixStream::connect(path).is_ok() {
            return Err(SimError::AlreadyServing(path.to_path_buf()));
        }
        std::fs::remove_file(path)
            .map_err(io_err(format!("removing stale socket {}", path.display())))?;
    }
    let bridges = Bridges::open(opts)?;
    let card = SimCard::new(cfg)?;
    let listener =
        UnixListener::bind(path).map_err(io_err(format!("binding {}", path.display())))?;
    let result = serve_bridged(listener, card, bridges);
    let _ = std::fs::remove_file(path);
    result
}

/// Serve `card` on an already bound listener until a client sends SHUTDOWN.
pub fn serve_listener(listener: UnixListener, card: SimCard) -> Result<(), SimError> {
    serve_bridged(listener, card, Bridges::default())
}

/// [`serve_listener`] with ports bridged to TAP devices. The frame counters of each bridged
/// port go to stderr when the server ends.
pub fn serve_bridged(
    listener: UnixListener,
    mut card: SimCard,
    mut bridges: Bridges,
) -> Result<(), SimError> {
    listener
        .set_nonblocking(true)
        .map_err(io_err("setting the listener non-blocking"))?;
    let stop = Arc::new(AtomicBool::new(false));
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let (flushed_tx, flushed_rx) = mpsc::channel::<()>();

    let acceptor = {
        let stop = Arc::clone(&stop);
        thread::Builder::new()
            .name("sim-accept".into())
            .spawn(move || accept_loop(listener, stop, job_tx, flushed_tx))
            .map_err(io_err("spawning the accept thread"))?
    };

    let result = card_loop(&mut card, &mut bridges, &job_rx, &flushed_rx);
    stop.store(true, Ordering::SeqCst);
    let _ = acceptor.join();
    bridges.log_counters();
    result
}

fn card_loop(
    card: &mut SimCard,
    bridges: &mut Bridges,
    jobs: &Receiver<Job>,
    flushed: &Receiver<()>,
) -> Result<(), SimError> {
    // Frames the card sent, per TX port, until a client takes them (ports not bridged).
    let mut tx: [VecDeque<Vec<u8>>; 2] = [VecDeque::new(), VecDeque::new()];
    loop {
        bridges.poll_taps(card);
        for (i, (q, port)) in tx.iter_mut().zip([Port::Client, Port::Server]).enumerate() {
            while let Some(f) = card.pop_frame(port) {
                let Some(f) = bridges.send(i, f) else {
                    continue;
                };
                if q.len() == SIM_TX_BACKLOG {
                    q.pop_front();
                }
                q.push_back(f);
            }
        }
        match jobs.try_recv() {
            Ok(job) => {
                let shutdown = job.req == Request::Shutdown;
                let reply = handle(card, &mut tx, job.req);
                let sent = job.reply.send(reply).is_ok();
                if shutdown {
                    if sent {
                        // Let the client thread write the reply before the server returns.
                        let _ = flushed.recv_timeout(Duration::from_secs(2));
                    }
                    return Ok(());
                }
            }
            Err(mpsc::TryRecvError::Empty) => card.tick(FREE_RUN_BATCH),
            Err(mpsc::TryRecvError::Disconnected) => {
                return Err(SimError::Io {
                    context: "accept thread ended".into(),
                    source: io::Error::other("listener failed"),
                })
            }
        }
    }
}

fn port_of(port: u8) -> Result<Port, String> {
    match port {
        0 => Ok(Port::Client),
        1 => Ok(Port::Server),
        n => Err(format!(
            "port {n} does not exist (0 client side, 1 server side)"
        )),
    }
}

fn handle(card: &mut SimCard, tx: &mut [VecDeque<Vec<u8>>; 2], req: Request) -> Reply {
    match req {
        Request::SendFrame { port, data } => match port_of(port) {
            Ok(p) => match card.push_frame(p, &data) {
                Ok(()) => Reply::Done,
                Err(e) => Reply::Error(e.to_string()),
            },
            Err(e) => Reply::Error(e),
        },
        Request::RecvFrames { port, max } => match port_of(port) {
            Ok(_) => {
                let q = &mut tx[usize::from(port)];
                let n = q.len().min(max as usize);
                Reply::Frames(q.drain(..n).collect())
            }
            Err(e) => Reply::Error(e),
        },
        Request::Read { offset, count } => {
            if let Err(e) = check_access(offset, u64::from(count) * 4, BAR_SIZE) {
                return Reply::Error(e.to_string());
            }
            let mut out = vec![0u32; count as usize];
            match card.read_block(offset, &mut out) {
                Ok(()) => Reply::Words(out),
                Err(e) => Reply::Error(e.to_string()),
            }
        }
        Request::Write { offset, data } => match card.write_block(offset, &data) {
            Ok(()) => Reply::Done,
            Err(e) => Reply::Error(e.to_string()),
        },
        Request::Info => Reply::Info {
            bar_size: BAR_SIZE,
            cycles: card.cycles(),
            clk_hz: CLK_HZ,
        },
        Request::Shutdown => Reply::Done,
    }
}

fn accept_loop(
    listener: UnixListener,
    stop: Arc<AtomicBool>,
    jobs: Sender<Job>,
    flushed: Sender<()>,
) {
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                let jobs = jobs.clone();
                let flushed = flushed.clone();
                let _ = thread::Builder::new()
                    .name("sim-client".into())
                    .spawn(move || client(stream, jobs, flushed));
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                thread::sleep(Duration::from_millis(5));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// One client connection. Garbage or a broken frame ends the connection (after an error
/// reply where the stream still allows one); the server keeps serving others.
fn client(mut stream: UnixStream, jobs: Sender<Job>, flushed: Sender<()>) {
    if stream.set_nonblocking(false).is_err() {
        return;
    }
    loop {
        let body = match read_frame(&mut stream) {
            Ok(Some(body)) => body,
            Ok(None) => return,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                let _ = write_frame(&mut stream, &Reply::Error(e.to_string()).encode());
                return;
            }
            Err(_) => return,
        };
        let req = match Request::decode(&body) {
            Ok(req) => req,
            Err(e) => {
                let msg = format!("bad request: {e}");
                let _ = write_frame(&mut stream, &Reply::Error(msg).encode());
                return;
            }
        };
        let shutdown = req == Request::Shutdown;
        let (reply_tx, reply_rx) = mpsc::channel();
        let reply = if jobs
            .send(Job {
                req,
                reply: reply_tx,
            })
            .is_ok()
        {
            reply_rx
                .recv()
                .unwrap_or_else(|_| Reply::Error("simulated card has shut down".into()))
        } else {
            Reply::Error("simulated card has shut down".into())
        };
        let ok = write_frame(&mut stream, &reply.encode()).is_ok();
        if shutdown {
            let _ = flushed.send(());
            return;
        }
        if !ok {
            return;
        }
    }
}

/// Default socket path: `$XDG_RUNTIME_DIR/splicenic-sim.sock`, else
/// `/tmp/splicenic-sim-$UID.sock`.
pub fn default_socket_path() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("splicenic-sim.sock"),
        _ => {
            // SAFETY: getuid has no preconditions and cannot fail.
            let uid = unsafe { getuid() };
            PathBuf::from(format!("/tmp/splicenic-sim-{uid}.sock"))
        }
    }
}

extern "C" {
    fn getuid() -> u32;
}
