//! Prometheus exporter: the card's counters in the text exposition format 0.0.4, served
//! over HTTP at `/metrics`.
//!
//! Metric families (every family is always announced with `# HELP` and `# TYPE`, even
//! when it has no samples):
//!
//! | name | type | labels |
//! |---|---|---|
//! | `splicenic_service_connections_total` | counter | vip, port |
//! | `splicenic_service_in_packets_total`, `_out_packets_total` | counter | vip, port |
//! | `splicenic_service_in_bytes_total`, `_out_bytes_total` | counter | vip, port |
//! | `splicenic_server_connections_total` | counter | pool, server, port |
//! | `splicenic_server_in_packets_total`, `_out_packets_total` | counter | pool, server, port |
//! | `splicenic_server_in_bytes_total`, `_out_bytes_total` | counter | pool, server, port |
//! | `splicenic_server_active_connections` | gauge | pool, server, port |
//! | `splicenic_server_inactive_connections` | gauge | pool, server, port |
//! | `splicenic_server_weight` | gauge | pool, server, port |
//! | `splicenic_port_rx_packets_total`, `_tx_packets_total` | counter | port (client, server) |
//! | `splicenic_port_rx_bytes_total`, `_tx_bytes_total` | counter | port |
//! | `splicenic_drops_total` | counter | reason |
//! | `splicenic_spliced_rsts_total` | counter | outcome (pending, restored, freed_silent, freed_by_receiver, untracked) |
//! | `splicenic_spliced_syns_total` | counter | outcome (challenged, rate_limited, dropped, time_wait_replaced) |
//! | `splicenic_ack_validator_total` | counter | outcome (new, found, bad_cookie, stale, no_slot, table_full, handover_lost) |
//! | `splicenic_setup_latency_seconds` | histogram (`_bucket{le}`, `_sum`, `_count`) | |
//! | `splicenic_setup_overwritten_total` | counter | |
//! | `splicenic_trace_entries_total`, `splicenic_trace_lost_total` | counter | |
//! | `splicenic_free_list_low`, `splicenic_punt_ring_high` | gauge | |
//! | `splicenic_flow_table_entries` | gauge | |
//! | `splicenic_flow_table_capacity` | gauge | |
//! | `splicenic_firmware_up` | gauge (0/1) | |
//! | `splicenic_firmware_heartbeats_total` | counter | |
//! | `splicenic_firmware_restarts_total` | counter | |
//!
//! "in" is traffic from clients, "out" traffic to clients, as in IPVS.
//!
//! `splicenic_setup_latency_seconds` is the card's setup-latency histogram (docs/engine.md,
//! "Setup latency"): a classic Prometheus histogram whose `le` bounds are the upper bounds
//! of the card's buckets (powers of two of `SETUP_UNIT_CYCLES`, 16 card cycles) in seconds
//! of the card's clock, so `histogram_quantile` works on it. The card counts setups per
//! bucket but keeps no sum of latencies, so `_sum` counts each setup at its bucket's lower
//! bound: a lower bound of the true sum (`_sum / _count` underestimates the mean latency by
//! less than half; a setup in bucket 0 counts 0), as its HELP text says. The counts are the
//! card's 32-bit registers: a wrap shows as a counter reset.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use splicenic_driver::datapath::{SetupHistogram, SETUP_UNIT_CYCLES};

use crate::ipvs::model::Counters;

/// `Content-Type` of a scrape.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Everything one scrape reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metrics {
    /// Virtual services.
    pub services: Vec<ServiceMetrics>,
    /// Real servers.
    pub servers: Vec<ServerMetrics>,
    /// The card's two Ethernet ports.
    pub ports: Vec<PortMetrics>,
    /// Dropped packets or connections, by reason.
    pub drops: Vec<DropMetrics>,
    /// RSTs of spliced flows, by outcome (RFC 5961; docs/flowmgr.md).
    pub spliced_rsts: Vec<OutcomeMetrics>,
    /// SYNs on spliced flows, by outcome (RFC 5961, RFC 6191).
    pub spliced_syns: Vec<OutcomeMetrics>,
    /// Handshake ACKs the hardware ACK validator judged, by verdict (docs/engine.md), and
    /// the hand-overs whose punt was lost.
    pub ack_validator: Vec<OutcomeMetrics>,
    /// Flow-table occupancy.
    pub flow_table: FlowTable,
    /// The engine's setup-latency histogram (`None`: not read; the families are announced
    /// without samples).
    pub setup_latency: Option<SetupLatency>,
    /// The engine's trace-ring counters and high-water marks.
    pub engine: EngineMetrics,
    /// Firmware health.
    pub firmware: FirmwareHealth,
}

/// The setup-latency histogram and the clock its cycles count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetupLatency {
    /// The card's histogram (`DP.SETUP_*`).
    pub histogram: SetupHistogram,
    /// The card's clock (`ID.CLK_HZ`).
    pub clk_hz: u32,
}

/// The engine's trace-ring counters and high-water marks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineMetrics {
    /// `DP.TRACE_COUNT`: entries written to the trace ring (32-bit, wraps).
    pub trace_entries: u64,
    /// `DP.TRACE_LOST`: decisions the trace ring did not record (32-bit, wraps).
    pub trace_lost: u64,
    /// `DP.FREE_LOW`: the ACK validator's free list at its lowest since the marks were
    /// restarted (`None` before the first restart: no sample).
    pub free_list_low: Option<u64>,
    /// `DP.PUNT_HIGH`: the most frames waiting in the punt ring at once.
    pub punt_ring_high: u64,
}

/// Counters of one virtual service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceMetrics {
    /// Label `vip`: the virtual IP address.
    pub vip: String,
    /// Label `port`.
    pub port: u16,
    /// Connections and traffic.
    pub counters: Counters,
}

/// Counters and state of one real server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerMetrics {
    /// Label `pool`: the pool (or virtual service) the server belongs to.
    pub pool: String,
    /// Label `server`: the server's address.
    pub server: String,
    /// Label `port`.
    pub port: u16,
    /// Connections and traffic.
    pub counters: Counters,
    /// Established connections.
    pub active: u64,
    /// Other connections.
    pub inactive: u64,
    /// Scheduling weight.
    pub weight: u64,
}

/// Which Ethernet port of the card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortSide {
    /// The port facing the clients.
    Client,
    /// The port facing the real servers.
    Server,
}

impl PortSide {
    /// The label value (`client`, `server`).
    pub fn as_str(self) -> &'static str {
        match self {
            PortSide::Client => "client",
            PortSide::Server => "server",
        }
    }
}

/// Traffic counters of one Ethernet port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortMetrics {
    /// Label `port`.
    pub port: PortSide,
    /// Frames received.
    pub rx_packets: u64,
    /// Frames sent.
    pub tx_packets: u64,
    /// Bytes received.
    pub rx_bytes: u64,
    /// Bytes sent.
    pub tx_bytes: u64,
}

/// Drops for one reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DropMetrics {
    /// Label `reason`, such as `flow_table_full` or `bad_checksum`.
    pub reason: String,
    /// How many.
    pub count: u64,
}

/// How many events of a kind ended one way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomeMetrics {
    /// Label `outcome`.
    pub outcome: &'static str,
    /// How many.
    pub count: u64,
}

/// Flow-table occupancy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FlowTable {
    /// Entries in use.
    pub in_use: u64,
    /// Entries the table can hold.
    pub capacity: u64,
}

/// Firmware health.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FirmwareHealth {
    /// The firmware answers.
    pub up: bool,
    /// Heartbeat counter of the firmware's main loop.
    pub heartbeat: u64,
    /// Times the firmware was restarted.
    pub restarts: u64,
}

/// Escape a label value: backslash, double quote and newline.
fn escape_label(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// One metric family being written.
struct Family<'a> {
    out: &'a mut String,
    name: String,
}

impl<'a> Family<'a> {
    fn new(out: &'a mut String, name: &str, kind: &str, help: &str) -> Self {
        // HELP text escapes backslash and newline; ours has neither, but stay correct.
        let help = help.replace('\\', "\\\\").replace('\n', "\\n");
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} {kind}");
        Family {
            out,
            name: name.to_string(),
        }
    }

    fn sample(&mut self, labels: &[(&str, &str)], value: u64) {
        self.line("", labels, &value.to_string());
    }

    /// A sample of series `name` + `suffix` (`_bucket`, `_sum`, `_count` of a histogram).
    fn line(&mut self, suffix: &str, labels: &[(&str, &str)], value: &str) {
        self.out.push_str(&self.name);
        self.out.push_str(suffix);
        if !labels.is_empty() {
            self.out.push('{');
            for (i, (k, v)) in labels.iter().enumerate() {
                if i > 0 {
                    self.out.push(',');
                }
                let _ = write!(self.out, "{k}=\"{}\"", escape_label(v));
            }
            self.out.push('}');
        }
        let _ = writeln!(self.out, " {value}");
    }
}

/// A float as the text format writes it: `+Inf`, or the shortest decimal that reads back
/// as the same value (no exponent).
fn float_text(v: f64) -> String {
    if v == f64::INFINITY {
        "+Inf".to_string()
    } else {
        format!("{v}")
    }
}

/// The setup-latency histogram: cumulative `_bucket{le}` at each card bucket's upper bound,
/// `+Inf`, `_sum` at the buckets' lower bounds, `_count`.
fn setup_histogram(out: &mut String, latency: Option<&SetupLatency>) {
    let mut f = Family::new(
        out,
        "splicenic_setup_latency_seconds",
        "histogram",
        &format!(
            "Connection setup latency, from the flow-state write that puts a slot in HANDSHAKE \
             (or REQUEST or CONNECTING when its clock has not started) to the first that puts \
             it in SPLICED (the card's histogram; buckets end at powers \
             of two of {SETUP_UNIT_CYCLES} card cycles). The card keeps no sum: _sum counts \
             each setup at its bucket's lower bound, a lower bound of the true sum."
        ),
    );
    let Some(l) = latency else {
        return;
    };
    let mut cumulative = 0u64;
    for b in l.histogram.to_seconds(l.clk_hz) {
        cumulative += u64::from(b.count);
        f.line(
            "_bucket",
            &[("le", &float_text(b.upper))],
            &cumulative.to_string(),
        );
    }
    f.line("_bucket", &[("le", "+Inf")], &cumulative.to_string());
    let sum = l.histogram.lower_bound_sum_cycles() as f64 / f64::from(l.clk_hz.max(1));
    f.line("_sum", &[], &float_text(sum));
    f.line("_count", &[], &cumulative.to_string());
}

/// The scrape body for `m`.
pub fn render(m: &Metrics) -> String {
    let mut out = String::new();

    type CounterField = fn(&Counters) -> u64;
    let counter_fields: [(&str, &str, CounterField); 5] = [
        ("connections_total", "Connections scheduled", |c| c.conns),
        ("in_packets_total", "Packets from clients", |c| c.inpkts),
        ("out_packets_total", "Packets to clients", |c| c.outpkts),
        ("in_bytes_total", "Bytes from clients", |c| c.inbytes),
        ("out_bytes_total", "Bytes to clients", |c| c.outbytes),
    ];

    for (suffix, help, get) in counter_fields {
        let mut f = Family::new(
            &mut out,
            &format!("splicenic_service_{suffix}"),
            "counter",
            &format!("{help} by the virtual service."),
        );
        for s in &m.services {
            let port = s.port.to_string();
            f.sample(&[("vip", &s.vip), ("port", &port)], get(&s.counters));
        }
    }

    for (suffix, help, get) in counter_fields {
        let mut f = Family::new(
            &mut out,
            &format!("splicenic_server_{suffix}"),
            "counter",
            &format!("{help} through the real server."),
        );
        for s in &m.servers {
            let port = s.port.to_string();
            f.sample(
                &[("pool", &s.pool), ("server", &s.server), ("port", &port)],
                get(&s.counters),
            );
        }
    }
    type ServerField = fn(&ServerMetrics) -> u64;
    let server_gauges: [(&str, &str, ServerField); 3] = [
        (
            "splicenic_server_active_connections",
            "Established connections to the real server.",
            |s| s.active,
        ),
        (
            "splicenic_server_inactive_connections",
            "Connections to the real server in other states.",
            |s| s.inactive,
        ),
        (
            "splicenic_server_weight",
            "Scheduling weight of the real server (0 = quiesced).",
            |s| s.weight,
        ),
    ];
    for (name, help, get) in server_gauges {
        let mut f = Family::new(&mut out, name, "gauge", help);
        for s in &m.servers {
            let port = s.port.to_string();
            f.sample(
                &[("pool", &s.pool), ("server", &s.server), ("port", &port)],
                get(s),
            );
        }
    }

    type PortField = fn(&PortMetrics) -> u64;
    let port_fields: [(&str, &str, PortField); 4] = [
        (
            "splicenic_port_rx_packets_total",
            "Frames received on the Ethernet port.",
            |p| p.rx_packets,
        ),
        (
            "splicenic_port_tx_packets_total",
            "Frames sent on the Ethernet port.",
            |p| p.tx_packets,
        ),
        (
            "splicenic_port_rx_bytes_total",
            "Bytes received on the Ethernet port.",
            |p| p.rx_bytes,
        ),
        (
            "splicenic_port_tx_bytes_total",
            "Bytes sent on the Ethernet port.",
            |p| p.tx_bytes,
        ),
    ];
    for (name, help, get) in port_fields {
        let mut f = Family::new(&mut out, name, "counter", help);
        for p in &m.ports {
            f.sample(&[("port", p.port.as_str())], get(p));
        }
    }

    let mut f = Family::new(
        &mut out,
        "splicenic_drops_total",
        "counter",
        "Packets or connections dropped, by reason.",
    );
    for d in &m.drops {
        f.sample(&[("reason", &d.reason)], d.count);
    }
    for (name, help, list) in [
        (
            "splicenic_spliced_rsts_total",
            "RSTs of spliced flows, by outcome (RST-pending and how it ended).",
            &m.spliced_rsts,
        ),
        (
            "splicenic_spliced_syns_total",
            "SYNs on spliced flows, by outcome.",
            &m.spliced_syns,
        ),
        (
            "splicenic_ack_validator_total",
            "Handshake ACKs the hardware ACK validator judged, by verdict.",
            &m.ack_validator,
        ),
    ] {
        let mut f = Family::new(&mut out, name, "counter", help);
        for o in list {
            f.sample(&[("outcome", o.outcome)], o.count);
        }
    }

    setup_histogram(&mut out, m.setup_latency.as_ref());
    let mut f = Family::new(
        &mut out,
        "splicenic_setup_overwritten_total",
        "counter",
        "Connection setups the card did not time: another slot's setup replaced the start it kept.",
    );
    if let Some(l) = &m.setup_latency {
        f.sample(&[], u64::from(l.histogram.overwritten));
    }
    Family::new(
        &mut out,
        "splicenic_trace_entries_total",
        "counter",
        "Entries written to the engine's trace ring.",
    )
    .sample(&[], m.engine.trace_entries);
    Family::new(
        &mut out,
        "splicenic_trace_lost_total",
        "counter",
        "Engine decisions the trace ring did not record (its write port was busy).",
    )
    .sample(&[], m.engine.trace_lost);
    let mut f = Family::new(
        &mut out,
        "splicenic_free_list_low",
        "gauge",
        "Lowest level of the ACK validator's free list since the marks were restarted (no sample before the first restart).",
    );
    if let Some(low) = m.engine.free_list_low {
        f.sample(&[], low);
    }
    Family::new(
        &mut out,
        "splicenic_punt_ring_high",
        "gauge",
        "Most frames waiting in the punt ring (exceptions) at once since reset or the last restart of the marks.",
    )
    .sample(&[], m.engine.punt_ring_high);
    Family::new(
        &mut out,
        "splicenic_flow_table_entries",
        "gauge",
        "Flow-table entries in use.",
    )
    .sample(&[], m.flow_table.in_use);
    Family::new(
        &mut out,
        "splicenic_flow_table_capacity",
        "gauge",
        "Flow-table entries the card can hold.",
    )
    .sample(&[], m.flow_table.capacity);
    Family::new(
        &mut out,
        "splicenic_firmware_up",
        "gauge",
        "1 if the card's firmware answers, else 0.",
    )
    .sample(&[], u64::from(m.firmware.up));
    Family::new(
        &mut out,
        "splicenic_firmware_heartbeats_total",
        "counter",
        "Heartbeats of the firmware's main loop.",
    )
    .sample(&[], m.firmware.heartbeat);
    Family::new(
        &mut out,
        "splicenic_firmware_restarts_total",
        "counter",
        "Times the firmware was restarted.",
    )
    .sample(&[], m.firmware.restarts);
    out
}

/// Longest request head accepted.
const MAX_HEAD: usize = 8 * 1024;
/// How long a client may take to send its request or read the answer.
const IO_TIMEOUT: Duration = Duration::from_secs(5);
/// How long to wait for a client to finish sending after the answer.
const LINGER: Duration = Duration::from_millis(250);
/// How often the accept loop looks at `stop`.
const POLL: Duration = Duration::from_millis(50);

/// Serve `/metrics` on `listen` until `stop` is set. Each scrape calls `source`; an error
/// from it is answered with 503 and the error's text.
pub fn serve<F>(listen: SocketAddr, source: F, stop: &AtomicBool) -> io::Result<()>
where
    F: FnMut() -> anyhow::Result<Metrics>,
{
    serve_on(TcpListener::bind(listen)?, source, stop)
}

/// [`serve`] on a listener already bound (to learn the port of `127.0.0.1:0`, say).
///
/// A minimal HTTP/1.1 server: one request per connection (`Connection: close`), one
/// connection at a time, with a 5 s limit for reading the request and writing the answer.
/// `GET /metrics` (any query string) answers 200; HEAD is answered like GET without the
/// body, as HTTP requires; other methods 405; other paths 404; a malformed request 400.
pub fn serve_on<F>(listener: TcpListener, mut source: F, stop: &AtomicBool) -> io::Result<()>
where
    F: FnMut() -> anyhow::Result<Metrics>,
{
    listener.set_nonblocking(true)?;
    while !stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((stream, _)) => {
                // A client that misbehaves only loses its own answer.
                let _ = handle(stream, &mut source);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(POLL),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // Out of file descriptors and the like: wait and try again rather than stop.
            Err(_) => std::thread::sleep(POLL),
        }
    }
    Ok(())
}

/// Answer one connection.
fn handle<F>(mut stream: TcpStream, source: &mut F) -> io::Result<()>
where
    F: FnMut() -> anyhow::Result<Metrics>,
{
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    let (status, body, head_only) = match read_head(&mut stream) {
        Err(HeadError::TooLarge) => (431, "request header too large\n".to_string(), false),
        Err(HeadError::Malformed) => (400, "bad request\n".to_string(), false),
        Err(HeadError::Closed) => return Ok(()),
        Err(HeadError::Io(e)) => return Err(e),
        Ok(head) => route(&head, source),
    };
    // std sends with MSG_NOSIGNAL on Linux, so a client that has gone away is an error
    // here, not a SIGPIPE (nicctl restores SIGPIPE's default action in main).
    respond(&mut stream, status, &body, head_only)?;
    linger(&mut stream);
    Ok(())
}

/// Close gracefully: stop sending, then read what the client still sends (a request body,
/// the rest of an oversized head) for a moment, so that closing with unread data does not
/// reset the connection before the client has read the answer.
fn linger(stream: &mut TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(LINGER));
    let mut chunk = [0u8; 4096];
    let mut left = 64 * 1024usize;
    while left > 0 {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
}

enum HeadError {
    TooLarge,
    Malformed,
    /// The client closed the connection without sending anything.
    Closed,
    Io(io::Error),
}

/// Read up to the blank line that ends the request head.
fn read_head(stream: &mut TcpStream) -> Result<String, HeadError> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        if let Some(end) = find_end(&buf) {
            buf.truncate(end);
            return String::from_utf8(buf).map_err(|_| HeadError::Malformed);
        }
        if buf.len() > MAX_HEAD {
            return Err(HeadError::TooLarge);
        }
        match stream.read(&mut chunk) {
            Ok(0) if buf.is_empty() => return Err(HeadError::Closed),
            Ok(0) => return Err(HeadError::Malformed),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(HeadError::Io(e)),
        }
    }
}

/// End of the head: `\r\n\r\n` (or bare `\n\n`, which HTTP tolerates).
fn find_end(buf: &[u8]) -> Option<usize> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n");
    let lf = buf.windows(2).position(|w| w == b"\n\n");
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Status, body and whether to omit the body, for a request head.
fn route<F>(head: &str, source: &mut F) -> (u16, String, bool)
where
    F: FnMut() -> anyhow::Result<Metrics>,
{
    let line = head.lines().next().unwrap_or("");
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return (400, "bad request\n".into(), false);
    };
    if !version.starts_with("HTTP/1.") || method.is_empty() || !target.starts_with('/') {
        return (400, "bad request\n".into(), false);
    }
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        return (405, "only GET is supported\n".into(), false);
    }
    let path = target.split('?').next().unwrap_or(target);
    if path != "/metrics" {
        return (
            404,
            "not found; metrics are at /metrics\n".into(),
            head_only,
        );
    }
    match source() {
        Ok(m) => (200, render(&m), head_only),
        Err(e) => (503, format!("scrape failed: {e:#}\n"), head_only),
    }
}

fn respond(stream: &mut TcpStream, status: u16, body: &str, head_only: bool) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Service Unavailable",
    };
    let ctype = if status == 200 {
        CONTENT_TYPE
    } else {
        "text/plain; charset=utf-8"
    };
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\
         Connection: close\r\n",
        body.len()
    );
    if status == 405 {
        head.push_str("Allow: GET, HEAD\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(body.as_bytes())?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};
    use std::sync::Arc;
    use std::thread;

    fn counters(base: u64) -> Counters {
        Counters {
            conns: base,
            inpkts: base * 10,
            outpkts: base * 9,
            inbytes: base * 1000,
            outbytes: base * 9000,
        }
    }

    /// 3 setups below a unit (1 us at 16 MHz), 5 in [16, 32) us, 2 in [1024, 2048) us.
    fn sample_histogram() -> SetupHistogram {
        let mut h = SetupHistogram {
            timed: 10,
            overwritten: 4,
            ..SetupHistogram::default()
        };
        h.buckets[0] = 3;
        h.buckets[5] = 5;
        h.buckets[11] = 2;
        h
    }

    fn sample_metrics() -> Metrics {
        Metrics {
            services: vec![
                ServiceMetrics {
                    vip: "10.0.0.1".into(),
                    port: 80,
                    counters: counters(7),
                },
                ServiceMetrics {
                    vip: "10.0.0.2".into(),
                    port: 443,
                    counters: counters(3),
                },
            ],
            servers: vec![ServerMetrics {
                pool: "web".into(),
                server: "192.168.1.10".into(),
                port: 8080,
                counters: counters(5),
                active: 4,
                inactive: 1,
                weight: 2,
            }],
            ports: vec![
                PortMetrics {
                    port: PortSide::Client,
                    rx_packets: 100,
                    tx_packets: 90,
                    rx_bytes: 64_000,
                    tx_bytes: 1_500_000,
                },
                PortMetrics {
                    port: PortSide::Server,
                    rx_packets: 95,
                    tx_packets: 99,
                    rx_bytes: 1_400_000,
                    tx_bytes: 60_000,
                },
            ],
            drops: vec![
                DropMetrics {
                    reason: "flow_table_full".into(),
                    count: 12,
                },
                DropMetrics {
                    reason: "bad_checksum".into(),
                    count: 0,
                },
            ],
            spliced_rsts: vec![OutcomeMetrics {
                outcome: "restored",
                count: 3,
            }],
            spliced_syns: vec![OutcomeMetrics {
                outcome: "time_wait_replaced",
                count: 5,
            }],
            ack_validator: vec![OutcomeMetrics {
                outcome: "bad_cookie",
                count: 7,
            }],
            flow_table: FlowTable {
                in_use: 1234,
                capacity: 65_536,
            },
            setup_latency: Some(SetupLatency {
                histogram: sample_histogram(),
                clk_hz: 16_000_000,
            }),
            engine: EngineMetrics {
                trace_entries: 4321,
                trace_lost: 2,
                free_list_low: Some(300),
                punt_ring_high: 9,
            },
            firmware: FirmwareHealth {
                up: true,
                heartbeat: 987_654,
                restarts: 2,
            },
        }
    }

    /// A strict check of the 0.0.4 grammar for what we emit: HELP then TYPE once per
    /// family, before its samples; sample lines `name{k="v",...} value` with escaped values;
    /// a histogram's samples are `_bucket` (with `le`, ascending, ending at `+Inf`,
    /// cumulative), `_sum` and `_count` (equal to the `+Inf` bucket).
    fn check_grammar(text: &str) {
        let mut typed: HashMap<String, String> = HashMap::new();
        let mut helped: HashSet<String> = HashSet::new();
        // Per histogram: the last `le` and count seen, the +Inf count, the _count.
        let mut hist: HashMap<String, (f64, u64, Option<u64>, Option<u64>)> = HashMap::new();
        let is_name = |n: &str| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
                && !n.starts_with(|c: char| c.is_ascii_digit())
        };
        assert!(text.ends_with('\n'));
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# HELP ") {
                let name = rest.split(' ').next().unwrap();
                assert!(is_name(name) && helped.insert(name.to_string()), "{line}");
            } else if let Some(rest) = line.strip_prefix("# TYPE ") {
                let (name, kind) = rest.split_once(' ').unwrap();
                assert!(helped.contains(name), "TYPE before HELP: {line}");
                assert!(["counter", "gauge", "histogram"].contains(&kind), "{line}");
                assert!(
                    typed.insert(name.to_string(), kind.to_string()).is_none(),
                    "{line}"
                );
                if kind == "counter" {
                    assert!(name.ends_with("_total"), "{line}");
                } else {
                    assert!(!name.ends_with("_total"), "{line}");
                }
                if kind == "histogram" {
                    hist.insert(name.to_string(), (f64::NEG_INFINITY, 0, None, None));
                }
            } else {
                let (series, value) = line.rsplit_once(' ').unwrap();
                let name = series.split('{').next().unwrap();
                let family = ["_bucket", "_sum", "_count"].iter().find_map(|s| {
                    name.strip_suffix(s)
                        .filter(|f| typed.get(*f).is_some_and(|k| k == "histogram"))
                        .map(|f| (f, *s))
                });
                match family {
                    Some((_, "_sum")) => {
                        let v: f64 = value.parse().unwrap();
                        assert!(v.is_finite() && v >= 0.0, "{line}");
                    }
                    Some((f, suffix)) => {
                        let n: u64 = value.parse().unwrap();
                        let h = hist.get_mut(f).unwrap();
                        if suffix == "_count" {
                            h.3 = Some(n);
                        } else {
                            let le = series
                                .split("le=\"")
                                .nth(1)
                                .and_then(|r| r.split('"').next())
                                .unwrap_or_else(|| panic!("bucket without le: {line}"));
                            let le = if le == "+Inf" {
                                h.2 = Some(n);
                                f64::INFINITY
                            } else {
                                le.parse::<f64>().unwrap()
                            };
                            assert!(le > h.0 && n >= h.1, "not ascending/cumulative: {line}");
                            (h.0, h.1) = (le, n);
                        }
                    }
                    None => {
                        value.parse::<u64>().unwrap();
                        assert!(typed.contains_key(name), "sample before TYPE: {line}");
                    }
                }
                if let Some(labels) = series.strip_prefix(name).filter(|l| !l.is_empty()) {
                    let inner = labels.strip_prefix('{').unwrap().strip_suffix('}').unwrap();
                    // k="v" pairs; inside quotes only \\, \" and \n escapes.
                    let mut chars = inner.chars().peekable();
                    loop {
                        let key: String = chars.by_ref().take_while(|c| *c != '=').collect();
                        assert!(is_name(&key), "{line}");
                        assert_eq!(chars.next(), Some('"'), "{line}");
                        loop {
                            match chars.next() {
                                Some('\\') => {
                                    assert!(matches!(chars.next(), Some('\\' | '"' | 'n')))
                                }
                                Some('"') => break,
                                Some('\n') | None => panic!("unterminated: {line}"),
                                Some(_) => {}
                            }
                        }
                        match chars.next() {
                            None => break,
                            Some(',') => {}
                            other => panic!("{other:?} in {line}"),
                        }
                    }
                }
            }
        }
        for (name, (_, _, inf, count)) in hist {
            assert_eq!(inf, count, "{name}: the +Inf bucket is the _count");
        }
    }

    fn value(s: &prometheus_parse::Sample) -> f64 {
        match s.value {
            prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Gauge(v) => v,
            ref other => panic!("{other:?}"),
        }
    }

    fn find<'a>(
        scrape: &'a prometheus_parse::Scrape,
        name: &str,
        labels: &[(&str, &str)],
    ) -> &'a prometheus_parse::Sample {
        scrape
            .samples
            .iter()
            .find(|s| s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
            .unwrap_or_else(|| panic!("no {name} {labels:?}"))
    }

    #[test]
    fn render_parses_with_prometheus_parse() {
        let text = render(&sample_metrics());
        check_grammar(&text);
        let scrape =
            prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap();
        let s = find(
            &scrape,
            "splicenic_service_connections_total",
            &[("vip", "10.0.0.1"), ("port", "80")],
        );
        assert!(matches!(s.value, prometheus_parse::Value::Counter(_)));
        assert_eq!(value(s), 7.0);
        let s = find(
            &scrape,
            "splicenic_service_out_bytes_total",
            &[("vip", "10.0.0.2"), ("port", "443")],
        );
        assert_eq!(value(s), 27_000.0);
        let srv = [
            ("pool", "web"),
            ("server", "192.168.1.10"),
            ("port", "8080"),
        ];
        assert_eq!(
            value(find(&scrape, "splicenic_server_in_packets_total", &srv)),
            50.0
        );
        let s = find(&scrape, "splicenic_server_active_connections", &srv);
        assert!(matches!(s.value, prometheus_parse::Value::Gauge(_)));
        assert_eq!(value(s), 4.0);
        assert_eq!(value(find(&scrape, "splicenic_server_weight", &srv)), 2.0);
        assert_eq!(
            value(find(
                &scrape,
                "splicenic_port_tx_bytes_total",
                &[("port", "client")]
            )),
            1_500_000.0
        );
        assert_eq!(
            value(find(
                &scrape,
                "splicenic_port_rx_packets_total",
                &[("port", "server")]
            )),
            95.0
        );
        assert_eq!(
            value(find(
                &scrape,
                "splicenic_drops_total",
                &[("reason", "flow_table_full")]
            )),
            12.0
        );
        assert_eq!(
            value(find(
                &scrape,
                "splicenic_spliced_rsts_total",
                &[("outcome", "restored")]
            )),
            3.0
        );
        assert_eq!(
            value(find(
                &scrape,
                "splicenic_spliced_syns_total",
                &[("outcome", "time_wait_replaced")]
            )),
            5.0
        );
        assert_eq!(
            value(find(
                &scrape,
                "splicenic_ack_validator_total",
                &[("outcome", "bad_cookie")]
            )),
            7.0
        );
        assert_eq!(
            value(find(&scrape, "splicenic_flow_table_entries", &[])),
            1234.0
        );
        assert_eq!(
            value(find(&scrape, "splicenic_flow_table_capacity", &[])),
            65_536.0
        );
        assert_eq!(value(find(&scrape, "splicenic_firmware_up", &[])), 1.0);
        assert_eq!(
            value(find(&scrape, "splicenic_firmware_heartbeats_total", &[])),
            987_654.0
        );
        assert_eq!(
            value(find(&scrape, "splicenic_firmware_restarts_total", &[])),
            2.0
        );
        assert_eq!(
            value(find(&scrape, "splicenic_setup_overwritten_total", &[])),
            4.0
        );
        assert_eq!(
            value(find(&scrape, "splicenic_trace_entries_total", &[])),
            4321.0
        );
        assert_eq!(value(find(&scrape, "splicenic_trace_lost_total", &[])), 2.0);
        let s = find(&scrape, "splicenic_free_list_low", &[]);
        assert!(matches!(s.value, prometheus_parse::Value::Gauge(_)));
        assert_eq!(value(s), 300.0);
        assert_eq!(value(find(&scrape, "splicenic_punt_ring_high", &[])), 9.0);
        assert!(scrape.docs.contains_key("splicenic_drops_total"));
        // 2 services * 5 + 1 server * 8 + 2 ports * 4 + 2 drops + 1 spliced RST, 1 spliced
        // SYN and 1 ACK validator outcome + 10 single samples + the histogram (its buckets
        // one sample, _sum and _count two more).
        assert_eq!(scrape.samples.len(), 10 + 8 + 8 + 2 + 3 + 10 + 3);
    }

    #[test]
    fn setup_latency_is_a_prometheus_histogram_in_seconds() {
        let text = render(&sample_metrics());
        check_grammar(&text);
        let scrape =
            prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap();
        let h = find(&scrape, "splicenic_setup_latency_seconds", &[]);
        let prometheus_parse::Value::Histogram(buckets) = &h.value else {
            panic!("{h:?}")
        };
        // Every card bucket and +Inf; le in seconds at 16 MHz (a unit of 16 cycles is 1 us).
        assert_eq!(buckets.len(), splicenic_driver::datapath::SETUP_BUCKETS + 1);
        let at = |le: f64| {
            buckets
                .iter()
                .find(|b| b.less_than == le)
                .unwrap_or_else(|| panic!("no le {le}: {buckets:?}"))
                .count
        };
        assert_eq!(at(1e-6), 3.0);
        assert_eq!(at(16e-6), 3.0);
        assert_eq!(at(32e-6), 8.0);
        assert_eq!(at(2048e-6), 10.0);
        assert_eq!(at(f64::INFINITY), 10.0);
        assert!(text.contains("splicenic_setup_latency_seconds_bucket{le=\"0.000001\"} 3\n"));
        assert!(text.contains("splicenic_setup_latency_seconds_bucket{le=\"+Inf\"} 10\n"));
        // The largest bucket ends at 2^28 units: 2^28 us at 16 MHz.
        assert!(text.contains(&format!(
            "splicenic_setup_latency_seconds_bucket{{le=\"{}\"}} 10\n",
            (1u64 << 28) as f64 / 1e6
        )));
        // _sum: each setup at its bucket's lower bound (0, 16 us, 1024 us); _count.
        let sum = find(&scrape, "splicenic_setup_latency_seconds_sum", &[]);
        let prometheus_parse::Value::Untyped(sum) = sum.value else {
            panic!("{sum:?}")
        };
        assert!((sum - (5.0 * 16e-6 + 2.0 * 1024e-6)).abs() < 1e-12, "{sum}");
        assert!(text.contains("splicenic_setup_latency_seconds_count 10\n"));
        assert!(scrape.docs["splicenic_setup_latency_seconds"].contains("lower bound"));
    }

    #[test]
    fn empty_metrics_still_announce_every_family() {
        let text = render(&Metrics::default());
        check_grammar(&text);
        assert_eq!(
            text.matches("# TYPE ").count(),
            5 + 5 + 3 + 4 + 1 + 3 + 6 + 5
        );
        assert!(text.contains("splicenic_firmware_up 0\n"));
        // Not read: announced, no samples.
        assert!(text.contains("# TYPE splicenic_setup_latency_seconds histogram\n"));
        assert!(!text.contains("splicenic_setup_latency_seconds_count"));
        assert!(!text.contains("\nsplicenic_free_list_low "));
        assert!(!text.contains("\nsplicenic_setup_overwritten_total "));
    }

    #[test]
    fn label_values_are_escaped() {
        let mut m = Metrics::default();
        m.servers.push(ServerMetrics {
            pool: "a\"b\\c\nd".into(),
            server: "s".into(),
            port: 1,
            counters: Counters::default(),
            active: 0,
            inactive: 0,
            weight: 1,
        });
        m.drops.push(DropMetrics {
            reason: "x,y=z}".into(),
            count: 1,
        });
        let text = render(&m);
        check_grammar(&text);
        assert!(
            text.contains(r#"splicenic_server_weight{pool="a\"b\\c\nd",server="s",port="1"} 1"#),
            "{text}"
        );
        assert!(text.contains(r#"splicenic_drops_total{reason="x,y=z}"} 1"#));
    }

    /// Send `request`, return the whole answer.
    fn fetch(addr: SocketAddr, request: &[u8]) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(request).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn serves_metrics_over_http() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let mut calls = 0u32;
        let server = thread::spawn(move || {
            serve_on(
                listener,
                move || {
                    calls += 1;
                    if calls == 2 {
                        anyhow::bail!("card did not answer");
                    }
                    Ok(sample_metrics())
                },
                &stop2,
            )
        });

        let ok = fetch(addr, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        let (head, body) = ok.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert!(
            head.contains("Content-Type: text/plain; version=0.0.4"),
            "{head}"
        );
        assert!(head.contains(&format!("Content-Length: {}\r\n", body.len())));
        assert_eq!(body, render(&sample_metrics()));

        let err = fetch(addr, b"GET /metrics?x=1 HTTP/1.0\r\n\r\n");
        assert!(err.starts_with("HTTP/1.1 503 "), "{err}");
        assert!(err.ends_with("card did not answer\n"), "{err}");

        let head = fetch(addr, b"HEAD /metrics HTTP/1.1\r\n\r\n");
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n") && head.ends_with("\r\n\r\n"));

        let nf = fetch(addr, b"GET / HTTP/1.1\r\n\r\n");
        assert!(nf.starts_with("HTTP/1.1 404 "), "{nf}");
        let post = fetch(addr, b"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
        assert!(
            post.starts_with("HTTP/1.1 405 ") && post.contains("Allow: GET"),
            "{post}"
        );
        for bad in [
            &b"garbage\r\n\r\n"[..],
            b"GET /metrics\r\n\r\n",
            b"GET metrics HTTP/1.1\r\n\r\n",
            b"GET /metrics SPDY/3\r\n\r\n",
            b"\xff\xfe /metrics HTTP/1.1\r\n\r\n",
        ] {
            let r = fetch(addr, bad);
            assert!(r.starts_with("HTTP/1.1 400 "), "{r}");
        }
        let mut huge = b"GET /metrics HTTP/1.1\r\nX: ".to_vec();
        huge.extend(std::iter::repeat_n(b'a', 20_000));
        let r = fetch(addr, &huge);
        assert!(r.starts_with("HTTP/1.1 431 "), "{r}");
        // A client that connects and leaves without a request does not stop the server.
        drop(TcpStream::connect(addr).unwrap());
        let ok = fetch(addr, b"GET /metrics HTTP/1.1\r\n\r\n");
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"));

        stop.store(true, Ordering::Relaxed);
        server.join().unwrap().unwrap();
    }
}
