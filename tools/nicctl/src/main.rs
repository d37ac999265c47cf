//! `nicctl`: inspect and drive a SpliceNIC card (real through VFIO, or simulated).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use serde_json::json;
use splicenic_driver::{
    card::Card, default_sim_socket, firmware::FirmwareImage, log::LogReader, FwState, SocketBar,
    VfioBar,
};

mod adm;
mod apply;
mod cardlock;
mod cmds;
mod exporter;
mod fwwatch;
mod ipvs;
mod monitor;
mod pcap;
mod progress;
#[cfg(feature = "sim")]
mod sim;

/// Default firmware ELF for `nicctl log`, relative to the current directory.
const DEFAULT_ELF: &str = "target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw";

#[derive(Parser, Debug)]
#[command(name = "nicctl", version, about = "Inspect and drive a SpliceNIC card")]
struct Cli {
    /// Card to use: `sim` (the simulated card at the default socket), `sim:<socket path>`,
    /// or a PCI address such as 0000:03:00.0 (VFIO).
    #[arg(long, global = true, default_value = "sim", value_name = "CARD")]
    card: String,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Show the card's identity, status and firmware version.
    #[command(after_help = "Examples:\n  nicctl info\n  nicctl --card 0000:03:00.0 info --json")]
    Info {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Load firmware (and optionally a bitstream), verify it and boot the core.
    #[command(
        after_help = "Examples:\n  nicctl program --firmware target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw\n  nicctl --card 0000:03:00.0 program --bitstream card.bit --board ulx3s --firmware splicenic-fw"
    )]
    Program {
        /// Firmware ELF (RV32, linked for the card's IMEM/DMEM).
        #[arg(long, value_name = "FILE")]
        firmware: PathBuf,
        /// FPGA bitstream to program first with openFPGALoader (real cards only).
        #[arg(long, value_name = "FILE")]
        bitstream: Option<PathBuf>,
        /// Board name passed to openFPGALoader (`--board`).
        #[arg(long, requires = "bitstream")]
        board: Option<String>,
        /// Load an image that carries no seal (its contents cannot be verified). An image
        /// whose seal does not match is refused even so.
        #[arg(long)]
        allow_unverified: bool,
    },
    /// Seal a firmware ELF (digests of what the loader writes) or show what an image holds.
    #[command(after_help = "Examples:
  nicctl firmware show target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw
  nicctl firmware seal my-build/splicenic-fw
  nicctl firmware seal my-build/splicenic-fw -o splicenic-fw.sealed")]
    Firmware {
        #[command(subcommand)]
        cmd: FirmwareCmd,
    },
    /// Print the firmware log (defmt, decoded with the firmware ELF).
    #[command(
        after_help = "Examples:\n  nicctl log\n  nicctl log --follow --elf /path/to/splicenic-fw"
    )]
    Log {
        /// Keep polling for new lines until interrupted (Ctrl-C).
        #[arg(long, short)]
        follow: bool,
        /// Firmware ELF with the defmt table [default: target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw]
        #[arg(long, value_name = "FILE")]
        elf: Option<PathBuf>,
    },
    /// Send PING through the mailbox.
    #[command(after_help = "Example:\n  nicctl ping")]
    Ping,
    /// Send words through the mailbox ECHO command and check they come back.
    #[command(after_help = "Example:\n  nicctl echo 1 0xdeadbeef 42")]
    Echo {
        /// Up to 16 words (decimal or 0x-prefixed hex).
        #[arg(value_parser = parse_word, num_args = 0..=16)]
        words: Vec<u32>,
    },
    /// Run a firmware benchmark routine through the mailbox.
    #[command(after_help = "Example:\n  nicctl bench --routine 1 --iterations 10000")]
    Bench {
        /// Routine number (1 = flow setup).
        #[arg(long, default_value_t = 1)]
        routine: u32,
        #[arg(long, default_value_t = 10_000)]
        iterations: u32,
    },
    /// Run and control the simulated card.
    #[command(
        after_help = "Examples:\n  nicctl sim start\n  nicctl sim start --cpu vexriscv --socket /tmp/card2.sock\n  nicctl sim status\n  nicctl sim stop"
    )]
    #[cfg(feature = "sim")]
    Sim {
        #[command(subcommand)]
        cmd: sim::SimCmd,
    },
    /// Not available: this nicctl was built without the simulated card (`--features sim`).
    #[cfg(not(feature = "sim"))]
    #[command(disable_help_flag = true)]
    Sim {
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "ARGS"
        )]
        args: Vec<String>,
    },
    /// Check, load, show and compare rule sets (keepalived-style configuration files).
    #[command(after_help = RULES_EXAMPLES)]
    Rules {
        #[command(subcommand)]
        cmd: RulesCmd,
    },
    /// ipvsadm's commands and listings on the card: nicctl ipvsadm -L -n, -A, -a, -S, -R ...
    #[command(
        disable_help_flag = true,
        after_help = IPVSADM_EXAMPLES
    )]
    Ipvsadm {
        /// ipvsadm arguments, exactly as for ipvsadm (`nicctl ipvsadm -h` lists them).
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "ARGS"
        )]
        args: Vec<String>,
    },
    /// List the spliced connections: both halves, state, expiry and counters.
    #[command(
        after_help = "Examples:\n  nicctl flows\n  nicctl flows --json | jq '.[] | select(.state == \"ESTABLISHED\")'"
    )]
    Flows {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Show per-service, per-server and per-port statistics, with IPVS-style rates.
    #[command(
        after_help = "Examples:\n  nicctl stats\n  nicctl stats --watch --interval 2\n  nicctl stats --json\n  nicctl stats --restart-marks"
    )]
    Stats {
        /// Refresh every --interval until interrupted (rates are the IPVS 2 s EWMA).
        #[arg(long, short)]
        watch: bool,
        /// Restart the high-water marks (the free list's lowest level, the punt ring's most
        /// waiting frames) at the current values before reading.
        #[arg(long)]
        restart_marks: bool,
        /// Seconds between refreshes with --watch.
        #[arg(long, default_value_t = 2.0, value_name = "SECS")]
        interval: f64,
        /// Print one JSON object per refresh.
        #[arg(long)]
        json: bool,
    },
    /// Show the engine's trace ring: its last decisions (client SYNs, ACK verdicts,
    /// flow-state writes, FINs, server picks), oldest first.
    #[command(
        after_help = "Examples:\n  nicctl trace\n  nicctl trace --last 20\n  nicctl trace --disable --json > trace.json   (stop recording: the ring holds still while it is read)\n  nicctl trace --enable --last 0               (recording on again, header only)"
    )]
    Trace {
        /// Show only the last N entries (the header counts all of them).
        #[arg(long, value_name = "N")]
        last: Option<usize>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Switch recording on before reading (it is on at reset).
        #[arg(long, conflicts_with = "disable")]
        enable: bool,
        /// Switch recording off before reading: the ring then holds still, and stays off.
        #[arg(long)]
        disable: bool,
    },
    /// Serve the card's metrics in Prometheus text format on http://ADDR/metrics.
    #[command(
        after_help = "Examples:\n  nicctl exporter --listen 127.0.0.1:9433\n  curl -s http://127.0.0.1:9433/metrics | grep splicenic_flow"
    )]
    Exporter {
        /// Address and port to listen on.
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:9433")]
        listen: std::net::SocketAddr,
    },
    /// Capture the frames the data path punts to the firmware into a pcap file.
    #[command(
        after_help = "Examples:\n  nicctl capture -w punted.pcap --count 100\n  nicctl capture -w punted.pcap --duration 10 && tshark -r punted.pcap"
    )]
    Capture {
        /// pcap file to write (nanosecond timestamps of the card's clock).
        #[arg(short = 'w', long = "write", value_name = "FILE")]
        file: PathBuf,
        /// Stop after this many frames.
        #[arg(long, short = 'c')]
        count: Option<u64>,
        /// Stop after this many seconds.
        #[arg(long, value_name = "SECS")]
        duration: Option<f64>,
        /// Bytes kept per frame (0 = whole frames).
        #[arg(long, short = 's', default_value_t = 0)]
        snaplen: u32,
    },
    /// Health-check the real servers of a configuration file and adjust their weights
    /// (keepalived's checkers, dynamic-feedback weights).
    #[command(
        after_help = "Examples:\n  nicctl monitor examples/splicenic.conf\n  nicctl monitor --apply /etc/splicenic/lb.conf\n  nicctl monitor --apply /etc/splicenic/lb.conf --watchdog /lib/firmware/splicenic-fw"
    )]
    Monitor {
        /// The configuration file (the one loaded with `rules load`).
        file: PathBuf,
        /// Load the file into the card first (as `rules load`).
        #[arg(long)]
        apply: bool,
        /// Stop after this many seconds (default: until interrupted).
        #[arg(long, value_name = "SECS")]
        duration: Option<f64>,
        /// Firmware watchdog: restart the firmware from this (sealed) ELF when it hangs,
        /// traps or panics, then send the configuration again. Each restart is logged and
        /// counted.
        #[arg(long, value_name = "ELF")]
        watchdog: Option<PathBuf>,
        /// How long the heartbeat may stand still before the firmware counts as hung, in
        /// seconds of card time (the card's timer; on the simulated card a second of card
        /// time is much longer than a wall-clock second).
        #[arg(long, value_name = "SECS", requires = "watchdog", default_value_t = fwwatch::DEFAULT_TIMEOUT.as_secs_f64())]
        watchdog_timeout: f64,
        /// Let the watchdog load an image without a seal (said on stderr).
        #[arg(long, requires = "watchdog")]
        allow_unverified: bool,
    },
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  nicctl completions bash > /etc/bash_completion.d/nicctl\n  nicctl completions zsh > ~/.zfunc/_nicctl"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

const RULES_EXAMPLES: &str = "Examples:
  nicctl rules check examples/splicenic.conf     (no card needed; exit 1 on any error)
  nicctl rules diff  examples/splicenic.conf     (what a load would change)
  nicctl rules load  examples/splicenic.conf
  nicctl rules show";

const IPVSADM_EXAMPLES: &str = "Examples:
  nicctl ipvsadm -A -t 10.0.0.100:80 -s wlc
  nicctl ipvsadm -a -t 10.0.0.100:80 -r 192.168.1.10:8080 -m -w 3 --mac 02:00:00:00:01:0a
  nicctl ipvsadm -L -n --stats
  nicctl ipvsadm -S -n > lvs.rules && nicctl ipvsadm -R < lvs.rules";

#[derive(Subcommand, Debug)]
enum FirmwareCmd {
    /// Add the seal (SHA-256 of each loadable segment and of the layout) to an ELF, as the
    /// build does. Loadable contents are not changed; sealing twice changes nothing.
    Seal {
        /// The firmware ELF.
        file: PathBuf,
        /// Write the sealed image here instead of replacing FILE.
        #[arg(long, short, value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Show an image's entry point, segments and seal, and check the seal (exit 1 if the
    /// image is not loadable, its seal does not match, or it has none).
    Show {
        /// The firmware ELF.
        file: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum RulesCmd {
    /// Check a configuration file without a card, like `keepalived -t` (exit 1 on errors).
    Check {
        /// The configuration file.
        file: PathBuf,
    },
    /// Load a configuration file: pools, servers, the URL rules (into the inactive bank,
    /// then one atomic bank switch) and services. Nothing is sent if the file has an error.
    Load {
        /// The configuration file.
        file: PathBuf,
        /// No progress output.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Show the rule set loaded on the card.
    Show {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show every change loading a file would make: addresses, timeouts, pools, real
    /// servers (weights, thresholds), URL rules, services, removals.
    Diff {
        /// The configuration file.
        file: PathBuf,
    },
}

fn parse_word(s: &str) -> Result<u32, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(&h.replace('_', ""), 16),
        None => s.replace('_', "").parse::<u32>(),
    };
    r.map_err(|e| format!("`{s}` is not a 32-bit word (decimal or 0x hex): {e}"))
}

/// Which card `--card` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardSpec {
    Sim(PathBuf),
    Pci(String),
}

fn accepted_forms() -> String {
    format!(
        "accepted forms: `sim` (the simulated card at {}), `sim:<socket path>`, \
         or a PCI address DDDD:BB:DD.F / BB:DD.F such as 0000:03:00.0",
        default_sim_socket().display()
    )
}

fn parse_card(s: &str) -> Result<CardSpec> {
    if s == "sim" {
        return Ok(CardSpec::Sim(default_sim_socket()));
    }
    if let Some(p) = s.strip_prefix("sim:") {
        if p.is_empty() {
            bail!("`--card sim:` needs a socket path; {}", accepted_forms());
        }
        return Ok(CardSpec::Sim(PathBuf::from(p)));
    }
    match splicenic_driver::vfio::parse_pci_address(s) {
        Ok(addr) => Ok(CardSpec::Pci(addr)),
        Err(_) => bail!("`{s}` is not a card; {}", accepted_forms()),
    }
}

/// A card opened for this process, held exclusively until dropped (see [`cardlock`]).
pub struct OpenCard {
    card: Card,
    _lock: cardlock::CardLock,
}

impl std::ops::Deref for OpenCard {
    type Target = Card;
    fn deref(&self) -> &Card {
        &self.card
    }
}

impl std::ops::DerefMut for OpenCard {
    fn deref_mut(&mut self) -> &mut Card {
        &mut self.card
    }
}

/// Opens the card, waiting for other `nicctl` processes to release it.
fn open_card(spec: &CardSpec) -> Result<OpenCard> {
    let lock = match spec {
        // An absent simulated card is reported by the connect below, not by the lock.
        CardSpec::Sim(p) if !p.exists() => None,
        _ => Some(cardlock::CardLock::acquire(spec, cardlock::LOCK_WAIT)?),
    };
    let bar: Box<dyn splicenic_driver::Bar> = match spec {
        CardSpec::Sim(p) => Box::new(SocketBar::connect(p)?),
        CardSpec::Pci(a) => Box::new(VfioBar::open(a)?),
    };
    let mut card = Card::open(bar)?;
    if let CardSpec::Sim(_) = spec {
        // A simulated second is long: give the firmware wall-clock time to answer.
        card.set_mailbox_timeout(SIM_MAILBOX_TIMEOUT);
    }
    match lock {
        Some(l) => Ok(OpenCard { card, _lock: l }),
        None => bail!("internal: card opened without its lock"),
    }
}

/// What `nicctl sim ...` says when nicctl was built without the simulated card.
#[cfg(not(feature = "sim"))]
const NO_SIM: &str = "this nicctl was built without the simulated card (cargo feature `sim`): \
                      `nicctl sim` is not available; build nicctl with `--features sim` (the \
                      default, needs Verilator) to run one. `--card sim:<socket>` still \
                      reaches a simulated card started by another nicctl";

/// Mailbox timeout on a simulated card (wall-clock time).
const SIM_MAILBOX_TIMEOUT: Duration = Duration::from_secs(60);

/// A positive number of seconds from the command line.
fn secs(opt: &str, v: f64) -> Result<Duration> {
    if !(v.is_finite() && v > 0.0 && v < 1e9) {
        bail!("{opt} {v}: give a positive number of seconds");
    }
    Ok(Duration::from_secs_f64(v))
}

/// `nicctl ipvsadm ARGS`.
fn ipvsadm(spec: &CardSpec, args: &[String]) -> Result<()> {
    let cmd = ipvs::args::parse(args).map_err(|e| anyhow::anyhow!("{e}"))?;
    if matches!(
        cmd,
        ipvs::args::IpvsCommand::Help | ipvs::args::IpvsCommand::Version
    ) {
        // No card needed.
        let mut out = std::io::stdout().lock();
        match cmd {
            ipvs::args::IpvsCommand::Help => out.write_all(ipvs::args::usage().as_bytes())?,
            _ => writeln!(
                out,
                "ipvsadm v1.31 compatible (nicctl {})",
                env!("CARGO_PKG_VERSION")
            )?,
        }
        return Ok(());
    }
    let mut card = open_card(spec)?;
    let text = adm::execute(&mut card, &cmd)?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`nicctl log | head`) like other command-line tools,
    // instead of panicking in println!.
    // SAFETY: called at the start of main before any other thread exists; SIG_DFL is a
    // valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let top = e.to_string();
            eprintln!("nicctl: error: {top}");
            let mut shown = top;
            for cause in e.chain().skip(1) {
                let c = cause.to_string();
                // Many errors already include their cause's text; don't repeat it.
                if !shown.contains(&c) {
                    eprintln!("  caused by: {c}");
                    shown.push_str(&c);
                }
            }
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let spec = parse_card(&cli.card)?;
    match cli.cmd {
        Cmd::Info { json } => info(&spec, json),
        Cmd::Program {
            firmware,
            bitstream,
            board,
            allow_unverified,
        } => program(
            &spec,
            &firmware,
            bitstream.as_deref(),
            board.as_deref(),
            allow_unverified,
        ),
        Cmd::Firmware { cmd } => match cmd {
            FirmwareCmd::Seal { file, output } => firmware_seal(&file, output.as_deref()),
            FirmwareCmd::Show { file } => firmware_show(&file),
        },
        Cmd::Log { follow, elf } => log(&spec, follow, elf),
        Cmd::Ping => {
            let mut card = open_card(&spec)?;
            let t = Instant::now();
            let pong = card.mailbox().ping()?;
            println!(
                "PONG from {}: card timer {} ({} us round trip)",
                card.info().backend,
                pong.timer,
                t.elapsed().as_micros()
            );
            Ok(())
        }
        Cmd::Echo { words } => {
            let mut card = open_card(&spec)?;
            let back = card.mailbox().echo(&words)?;
            let fmt: Vec<String> = back.iter().map(|w| format!("{w:#010x}")).collect();
            println!("{}", fmt.join(" "));
            if back != words {
                bail!(
                    "ECHO returned {} words that differ from the {} sent",
                    back.len(),
                    words.len()
                );
            }
            Ok(())
        }
        Cmd::Bench {
            routine,
            iterations,
        } => {
            let mut card = open_card(&spec)?;
            let r = card.mailbox().bench(routine, iterations)?;
            let per = r.cycles as f64 / f64::from(iterations.max(1));
            let us = per / f64::from(card.info().clk_hz) * 1e6;
            println!(
                "routine {routine}, {iterations} iterations: {} cycles ({per:.1} cycles = {us:.3} us per iteration at {:.2} MHz), checksum {:#010x}",
                r.cycles,
                f64::from(card.info().clk_hz) / 1e6,
                r.checksum
            );
            Ok(())
        }
        #[cfg(feature = "sim")]
        Cmd::Sim { cmd } => sim::run(cmd, &spec),
        #[cfg(not(feature = "sim"))]
        Cmd::Sim { .. } => bail!("{NO_SIM}"),
        Cmd::Rules { cmd } => match cmd {
            RulesCmd::Check { file } => cmds::rules_check(&file),
            RulesCmd::Load { file, quiet } => cmds::rules_load(&spec, &file, quiet),
            RulesCmd::Show { json } => cmds::rules_show(&spec, json),
            RulesCmd::Diff { file } => cmds::rules_diff(&spec, &file),
        },
        Cmd::Ipvsadm { args } => ipvsadm(&spec, &args),
        Cmd::Flows { json } => cmds::flows(&spec, json),
        Cmd::Stats {
            watch,
            restart_marks,
            interval,
            json,
        } => cmds::stats(
            &spec,
            watch,
            restart_marks,
            secs("--interval", interval)?,
            json,
        ),
        Cmd::Trace {
            last,
            json,
            enable,
            disable,
        } => cmds::trace(
            &spec,
            last,
            json,
            match (enable, disable) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
        ),
        Cmd::Exporter { listen } => cmds::exporter(&spec, listen),
        Cmd::Capture {
            file,
            count,
            duration,
            snaplen,
        } => cmds::capture(
            &spec,
            &file,
            count,
            duration.map(|d| secs("--duration", d)).transpose()?,
            snaplen,
        ),
        Cmd::Monitor {
            file,
            apply,
            duration,
            watchdog,
            watchdog_timeout,
            allow_unverified,
        } => {
            let watch = watchdog
                .map(|elf| {
                    fwwatch::FirmwareWatch::new(
                        &spec,
                        &elf,
                        secs("--watchdog-timeout", watchdog_timeout)?,
                        allow_unverified,
                    )
                })
                .transpose()?;
            cmds::monitor(
                &spec,
                &file,
                apply,
                duration.map(|d| secs("--duration", d)).transpose()?,
                watch,
            )
        }
        Cmd::Completions { shell } => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "nicctl", &mut std::io::stdout());
            Ok(())
        }
    }
}

fn info(spec: &CardSpec, as_json: bool) -> Result<()> {
    let mut card = open_card(spec)?;
    let info = card.info().clone();
    let status = card.status()?;
    let fw = if status.fw_state == FwState::Ready {
        Some(card.mailbox().firmware_version().map_err(|e| e.to_string()))
    } else {
        None
    };
    if as_json {
        let blocks: Vec<_> = info
            .blocks
            .iter()
            .map(|b| json!({"name": b.name, "offset": b.offset, "type": b.type_code, "major": b.major, "minor": b.minor}))
            .collect();
        let firmware = match &fw {
            Some(Ok(v)) => json!({
                "version": format!("{}.{}.{}", v.major, v.minor, v.patch),
                "api_version": v.api_version,
                "build_id": v.build_id,
                "build": v.build,
            }),
            Some(Err(e)) => json!({"error": e}),
            None => serde_json::Value::Null,
        };
        let v = json!({
            "card": info.backend,
            "bar_size": info.bar_size,
            "magic": format!("{:#010x}", info.magic),
            "register_map": {"major": info.version_major, "minor": info.version_minor},
            "capabilities": info.caps.names(),
            "core": info.core.to_string(),
            "clk_hz": info.clk_hz,
            "imem": {"size": info.imem_size, "window": info.imem_window},
            "dmem": {"size": info.dmem_size, "window": info.dmem_window},
            "log_size": info.log_size,
            "gateware_build_id": info.build_id,
            "blocks": blocks,
            "core_state": status.core.to_string(),
            "firmware_state": status.fw_state.to_string(),
            "heartbeat": status.heartbeat,
            "firmware": firmware,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("{info}");
        println!("{status}");
        match fw {
            Some(Ok(v)) => println!("firmware:          {v}"),
            Some(Err(e)) => println!("firmware:          version unavailable: {e}"),
            None => println!("firmware:          not running (state {})", status.fw_state),
        }
    }
    Ok(())
}

/// Reads and parses a firmware file (its seal checked when it has one).
fn read_image(firmware: &Path) -> Result<FirmwareImage> {
    let bytes = std::fs::read(firmware)
        .with_context(|| format!("cannot read firmware file {}", firmware.display()))?;
    FirmwareImage::parse(&bytes)
        .with_context(|| format!("firmware file {} is not loadable", firmware.display()))
}

fn program(
    spec: &CardSpec,
    firmware: &Path,
    bitstream: Option<&Path>,
    board: Option<&str>,
    allow_unverified: bool,
) -> Result<()> {
    let mut img = read_image(firmware)?;
    if !img.is_sealed() {
        if !allow_unverified {
            bail!(
                "firmware file {} is not loadable: {}",
                firmware.display(),
                splicenic_driver::FirmwareError::Unsealed
            );
        }
        eprintln!(
            "nicctl: warning: firmware file {} carries no seal: loading it UNVERIFIED (--allow-unverified)",
            firmware.display()
        );
        img.accept_unverified();
    }

    if let Some(bit) = bitstream {
        program_bitstream(spec, bit, board)?;
    }

    let mut card = open_card(spec)?;
    img.check_fits(card.info()).with_context(|| {
        format!(
            "firmware file {} does not fit {}",
            firmware.display(),
            card.info().backend
        )
    })?;
    let total_kib = img.image_bytes() as f64 / 1024.0;
    let tty = std::io::stderr().is_terminal();
    let mut last_pct = None;
    let report = card
        .firmware()
        .load(&img, |done, total| {
            let pct = (done * 100).checked_div(total).unwrap_or(100);
            if last_pct != Some(pct) && (tty || pct == 100) {
                last_pct = Some(pct);
                let mut e = std::io::stderr();
                let _ = write!(
                    e,
                    "\rloading {total_kib:.1} KiB ({} KiB with zero fill): {pct:3}%",
                    total / 1024
                );
                if pct == 100 {
                    let _ = writeln!(e);
                }
                let _ = e.flush();
            }
        })
        .with_context(|| format!("loading {} into {}", firmware.display(), card_label(spec)))?;
    println!("{report}");
    let t = Instant::now();
    let pong = card
        .mailbox()
        .ping()
        .context("the firmware booted but does not answer PING")?;
    println!(
        "ping: PONG, card timer {} ({} us round trip)",
        pong.timer,
        t.elapsed().as_micros()
    );
    if let Ok(v) = card.mailbox().firmware_version() {
        println!("firmware: {v}");
    }
    Ok(())
}

/// `firmware seal FILE [-o OUT]`.
fn firmware_seal(file: &Path, output: Option<&Path>) -> Result<()> {
    let out = output.unwrap_or(file);
    let (seal, changed) = splicenic_driver::seal::seal_file(file, out)?;
    println!(
        "{}: sealed, {} segments, seal {}{}",
        out.display(),
        seal.segments.len(),
        seal.fingerprint(),
        if changed { "" } else { " (was sealed already)" }
    );
    Ok(())
}

/// `firmware show FILE`.
fn firmware_show(file: &Path) -> Result<()> {
    let img = read_image(file)?;
    println!(
        "{}: RV32 executable, entry {:#010x}",
        file.display(),
        img.entry
    );
    for (i, s) in img.segments.iter().enumerate() {
        println!(
            "  segment {i}: load {:#010x} run {:#010x} file {:6} bytes memory {:6} bytes",
            s.paddr,
            s.vaddr,
            s.data.len(),
            s.memsz
        );
    }
    match &img.seal {
        Some(seal) => {
            println!(
                "  seal {}: SHA-256 of the layout and of {} segments, all match",
                seal.fingerprint(),
                seal.segments.len()
            );
            Ok(())
        }
        None => bail!(
            "firmware file {} carries no seal; `nicctl firmware seal {}` seals it",
            file.display(),
            file.display()
        ),
    }
}

fn card_label(spec: &CardSpec) -> String {
    match spec {
        CardSpec::Sim(p) => format!("the simulated card at {}", p.display()),
        CardSpec::Pci(a) => format!("card {a}"),
    }
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn program_bitstream(spec: &CardSpec, bit: &Path, board: Option<&str>) -> Result<()> {
    if let CardSpec::Sim(_) = spec {
        bail!("the simulated card's gateware is built in; --bitstream applies to real cards only");
    }
    if !bit.is_file() {
        bail!("bitstream file {} does not exist", bit.display());
    }
    let Some(loader) = find_in_path("openFPGALoader") else {
        bail!("openFPGALoader not found: install it (apt-get install openfpgaloader) to program a bitstream");
    };
    let mut cmd = std::process::Command::new(&loader);
    if let Some(b) = board {
        cmd.args(["--board", b]);
    }
    cmd.arg(bit);
    eprintln!("programming {} with {}", bit.display(), loader.display());
    let status = cmd
        .status()
        .with_context(|| format!("cannot run {}", loader.display()))?;
    if !status.success() {
        bail!(
            "openFPGALoader failed ({status}) programming {}",
            bit.display()
        );
    }
    Ok(())
}

fn log(spec: &CardSpec, follow: bool, elf: Option<PathBuf>) -> Result<()> {
    let elf = match elf {
        Some(p) => p,
        None => {
            let p = PathBuf::from(DEFAULT_ELF);
            if !p.is_file() {
                bail!(
                    "no firmware ELF to decode the log with: {DEFAULT_ELF} does not exist here; \
                     pass --elf FILE (the unstripped ELF of the firmware running on the card)"
                );
            }
            p
        }
    };
    let bytes =
        std::fs::read(&elf).with_context(|| format!("cannot read ELF file {}", elf.display()))?;
    let mut reader = LogReader::new(&bytes)
        .with_context(|| format!("cannot decode the log with {}", elf.display()))?;
    let mut card = open_card(spec)?;
    let stdout = std::io::stdout();
    loop {
        let lines = reader.poll(&mut card)?;
        {
            let mut out = stdout.lock();
            for l in &lines {
                writeln!(out, "{l}")?;
            }
            out.flush()?;
        }
        if !follow {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_specs_parse() {
        assert_eq!(
            parse_card("sim").unwrap(),
            CardSpec::Sim(default_sim_socket())
        );
        assert_eq!(
            parse_card("sim:/x/y.sock").unwrap(),
            CardSpec::Sim("/x/y.sock".into())
        );
        assert_eq!(
            parse_card("03:00.0").unwrap(),
            CardSpec::Pci("0000:03:00.0".into())
        );
        let e = parse_card("bogus").unwrap_err().to_string();
        assert!(
            e.contains("sim:<socket path>") && e.contains("0000:03:00.0"),
            "{e}"
        );
        assert!(parse_card("sim:").is_err());
    }

    #[test]
    fn words_parse() {
        assert_eq!(parse_word("0x10").unwrap(), 16);
        assert_eq!(parse_word("1_000").unwrap(), 1000);
        assert!(parse_word("0x1_0000_0000").is_err());
        assert!(parse_word("x").is_err());
    }

    #[test]
    fn cli_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
