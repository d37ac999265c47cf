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
    Info {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Load firmware (and optionally a bitstream), verify it and boot the core.
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
    },
    /// Print the firmware log (defmt, decoded with the firmware ELF).
    Log {
        /// Keep polling for new lines until interrupted (Ctrl-C).
        #[arg(long, short)]
        follow: bool,
        /// Firmware ELF with the defmt table [default: target/firmware/riscv32imc-unknown-none-elf/release/splicenic-fw]
        #[arg(long, value_name = "FILE")]
        elf: Option<PathBuf>,
    },
    /// Send PING through the mailbox.
    Ping,
    /// Send words through the mailbox ECHO command and check they come back.
    Echo {
        /// Up to 16 words (decimal or 0x-prefixed hex).
        #[arg(value_parser = parse_word, num_args = 0..=16)]
        words: Vec<u32>,
    },
    /// Run a firmware benchmark routine through the mailbox.
    Bench {
        /// Routine number (1 = flow setup).
        #[arg(long, default_value_t = 1)]
        routine: u32,
        #[arg(long, default_value_t = 10_000)]
        iterations: u32,
    },
    /// Run and control the simulated card.
    Sim {
        #[command(subcommand)]
        cmd: sim::SimCmd,
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

fn open_card(spec: &CardSpec) -> Result<Card> {
    let bar: Box<dyn splicenic_driver::Bar> = match spec {
        CardSpec::Sim(p) => Box::new(SocketBar::connect(p)?),
        CardSpec::Pci(a) => Box::new(VfioBar::open(a)?),
    };
    Ok(Card::open(bar)?)
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
        } => program(&spec, &firmware, bitstream.as_deref(), board.as_deref()),
        Cmd::Log { follow, elf } => log(&spec, follow, elf),
        Cmd::Ping => {
            let mut card = open_card(&spec)?;
            let t = Instant::now();
            let pong = card.ping()?;
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
            let back = card.echo(&words)?;
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
            let r = card.bench(routine, iterations)?;
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
        Cmd::Sim { cmd } => sim::run(cmd, &spec),
    }
}

fn info(spec: &CardSpec, as_json: bool) -> Result<()> {
    let mut card = open_card(spec)?;
    let info = card.info().clone();
    let status = card.status()?;
    let fw = if status.fw_state == FwState::Ready {
        Some(card.firmware_version().map_err(|e| e.to_string()))
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

fn program(
    spec: &CardSpec,
    firmware: &Path,
    bitstream: Option<&Path>,
    board: Option<&str>,
) -> Result<()> {
    let bytes = std::fs::read(firmware)
        .with_context(|| format!("cannot read firmware file {}", firmware.display()))?;
    let img = FirmwareImage::parse(&bytes)
        .with_context(|| format!("firmware file {} is not loadable", firmware.display()))?;

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
        .load_firmware(&img, |done, total| {
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
        .ping()
        .context("the firmware booted but does not answer PING")?;
    println!(
        "ping: PONG, card timer {} ({} us round trip)",
        pong.timer,
        t.elapsed().as_micros()
    );
    if let Ok(v) = card.firmware_version() {
        println!("firmware: {v}");
    }
    Ok(())
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
