//! `nicctl sim ...`: run the simulated card in the background and control it.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use splicenic_driver::SocketBar;
use splicenic_sim::server::ServeOptions;
use splicenic_sim::{Cpu, SimConfig};

use crate::CardSpec;

/// How long `sim start` waits for the simulated card to answer.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Example of bridging the card's ports to Linux, shown by `nicctl sim start --help`.
const START_EXAMPLE: &str = "\
Bridging the ports to TAP devices (needs root or CAP_NET_ADMIN; a device that does not exist
is created and disappears when the card stops):

  nicctl sim start --tap-client snic-c --tap-server snic-s
  ip netns add client && ip link set snic-c netns client
  ip -n client addr add 10.0.0.2/24 dev snic-c && ip -n client link set snic-c up
  ip link set snic-s up

Bringing the links up is up to you. The card runs at well under 1 % of real time, so Linux
timers (ARP, TCP retransmission) run fast compared with the card. Frame counters of each TAP
go to the log when the card stops.";

#[derive(Subcommand, Debug)]
pub enum SimCmd {
    /// Start a simulated card in the background (or in the foreground).
    #[command(after_long_help = START_EXAMPLE)]
    Start {
        /// Socket to listen on [default: the `--card sim:<path>` socket, else the default].
        #[arg(long, value_name = "P")]
        socket: Option<PathBuf>,
        /// Write a waveform trace of the simulation to FILE.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        /// Run in this process instead of detaching (stops with Ctrl-C or `sim stop`).
        #[arg(long)]
        foreground: bool,
        /// Soft core of the simulated gateware.
        #[arg(long, value_enum, default_value_t = CpuArg::Picorv32)]
        cpu: CpuArg,
        /// Bridge the client-side port to the TAP device NAME (created if missing; see
        /// `--help` for an example).
        #[arg(long, value_name = "NAME")]
        tap_client: Option<String>,
        /// Bridge the server-side port to the TAP device NAME (created if missing).
        #[arg(long, value_name = "NAME")]
        tap_server: Option<String>,
    },
    /// Serve the simulated card on a socket (what `sim start` runs detached).
    #[command(hide = true)]
    Serve {
        #[arg(long, value_name = "P")]
        socket: PathBuf,
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = CpuArg::Picorv32)]
        cpu: CpuArg,
        #[arg(long, value_name = "NAME")]
        tap_client: Option<String>,
        #[arg(long, value_name = "NAME")]
        tap_server: Option<String>,
    },
    /// Stop the simulated card.
    Stop {
        #[arg(long, value_name = "P")]
        socket: Option<PathBuf>,
    },
    /// Show whether a simulated card runs, and how fast.
    Status {
        #[arg(long, value_name = "P")]
        socket: Option<PathBuf>,
    },
}

/// Soft core choice on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CpuArg {
    Picorv32,
    Vexriscv,
}

impl CpuArg {
    fn cpu(self) -> Cpu {
        match self {
            CpuArg::Picorv32 => Cpu::PicoRv32,
            CpuArg::Vexriscv => Cpu::VexRiscv,
        }
    }

    fn name(self) -> &'static str {
        match self {
            CpuArg::Picorv32 => "picorv32",
            CpuArg::Vexriscv => "vexriscv",
        }
    }
}

/// `--socket` if given, else the `--card sim:<path>` socket, else the default.
fn socket_path(explicit: Option<PathBuf>, spec: &CardSpec) -> Result<PathBuf> {
    match (explicit, spec) {
        (Some(p), _) => Ok(p),
        (None, CardSpec::Sim(p)) => Ok(p.clone()),
        (None, CardSpec::Pci(a)) => {
            bail!("`sim` commands act on a simulated card, but --card names the PCI device {a}")
        }
    }
}

fn log_path(socket: &Path) -> PathBuf {
    socket.with_extension("log")
}

pub fn run(cmd: SimCmd, spec: &CardSpec) -> Result<()> {
    match cmd {
        SimCmd::Start {
            socket,
            trace,
            foreground,
            cpu,
            tap_client,
            tap_server,
        } => start(
            &socket_path(socket, spec)?,
            trace,
            foreground,
            cpu,
            &ServeOptions {
                tap_client,
                tap_server,
            },
        ),
        SimCmd::Serve {
            socket,
            trace,
            cpu,
            tap_client,
            tap_server,
        } => serve(
            &socket,
            trace,
            cpu,
            &ServeOptions {
                tap_client,
                tap_server,
            },
        ),
        SimCmd::Stop { socket } => stop(&socket_path(socket, spec)?),
        SimCmd::Status { socket } => status(&socket_path(socket, spec)?),
    }
}

fn serve(socket: &Path, trace: Option<PathBuf>, cpu: CpuArg, opts: &ServeOptions) -> Result<()> {
    let cfg = SimConfig {
        cpu: cpu.cpu(),
        trace,
    };
    splicenic_sim::server::serve_with(socket, cfg, opts)
        .with_context(|| format!("simulated card on {}", socket.display()))?;
    Ok(())
}

/// The last `n` non-empty lines of the server's log, to show why it ended.
fn log_tail(log: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn start(
    socket: &Path,
    trace: Option<PathBuf>,
    foreground: bool,
    cpu: CpuArg,
    opts: &ServeOptions,
) -> Result<()> {
    if SocketBar::connect(socket).is_ok() {
        bail!(
            "a simulated card is already running on {} (stop it with `nicctl sim stop`)",
            socket.display()
        );
    }
    if let Some(dir) = socket.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            bail!(
                "cannot put the socket {}: directory {} does not exist",
                socket.display(),
                dir.display()
            );
        }
    }
    if foreground {
        eprintln!("simulated card serving on {}", socket.display());
        return serve(socket, trace, cpu, opts);
    }

    let log = log_path(socket);
    let out =
        File::create(&log).with_context(|| format!("cannot create log file {}", log.display()))?;
    let err = out
        .try_clone()
        .with_context(|| format!("cannot use log file {}", log.display()))?;
    let exe = std::env::current_exe().context("cannot find the nicctl executable to start")?;
    let mut cmd = Command::new(exe);
    cmd.args(["sim", "serve", "--cpu", cpu.name(), "--socket"])
        .arg(socket);
    if let Some(t) = &trace {
        let t = std::path::absolute(t).unwrap_or_else(|_| t.clone());
        cmd.arg("--trace").arg(t);
    }
    if let Some(t) = &opts.tap_client {
        cmd.arg("--tap-client").arg(t);
    }
    if let Some(t) = &opts.tap_server {
        cmd.arg("--tap-server").arg(t);
    }
    cmd.stdin(Stdio::null()).stdout(out).stderr(err);
    // SAFETY: the closure runs in the forked child before exec and only calls setsid(),
    // which is async-signal-safe; it touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .context("cannot start the simulated card process")?;

    let t0 = Instant::now();
    loop {
        if let Some(st) = child.try_wait().context("waiting for the simulated card")? {
            let tail = log_tail(&log, 5);
            if tail.is_empty() {
                bail!(
                    "the simulated card exited ({st}) before it answered: see {}",
                    log.display()
                );
            }
            bail!(
                "the simulated card exited ({st}) before it answered:\n{tail}\n(log: {})",
                log.display()
            );
        }
        if let Ok(mut bar) = SocketBar::connect(socket) {
            if let Ok(info) = bar.info() {
                println!(
                    "simulated card running on {} (pid {}, {} MHz core clock, log {})",
                    socket.display(),
                    child.id(),
                    info.clk_hz as f64 / 1e6,
                    log.display()
                );
                return Ok(());
            }
        }
        if t0.elapsed() > START_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "the simulated card did not answer on {} within {:?}: see {}",
                socket.display(),
                START_TIMEOUT,
                log.display()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn stop(socket: &Path) -> Result<()> {
    let Ok(bar) = SocketBar::connect(socket) else {
        bail!("no simulated card is running on {}", socket.display());
    };
    bar.shutdown()?;
    let t0 = Instant::now();
    while SocketBar::connect(socket).is_ok() {
        if t0.elapsed() > Duration::from_secs(5) {
            bail!(
                "the simulated card on {} acknowledged SHUTDOWN but still answers",
                socket.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    println!("simulated card on {} stopped", socket.display());
    Ok(())
}

fn status(socket: &Path) -> Result<()> {
    let mut bar = match SocketBar::connect(socket) {
        Ok(b) => b,
        Err(_) => {
            println!("simulated card: not running ({})", socket.display());
            return Ok(());
        }
    };
    let a = bar.info()?;
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_secs(1));
    let b = bar.info()?;
    let dt = t0.elapsed().as_secs_f64();
    let rate = b.cycles.saturating_sub(a.cycles) as f64 / dt;
    println!("simulated card: running ({})", socket.display());
    println!("simulated cycles: {}", b.cycles);
    println!("core clock:       {:.3} MHz", b.clk_hz as f64 / 1e6);
    println!(
        "simulated speed:  {:.2} M cycles/s ({:.2}% of real time)",
        rate / 1e6,
        if b.clk_hz > 0 {
            100.0 * rate / b.clk_hz as f64
        } else {
            0.0
        }
    );
    println!("log:              {}", log_path(socket).display());
    Ok(())
}
