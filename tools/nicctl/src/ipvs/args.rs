//! ipvsadm's command line, parsed the way ipvsadm 1.31 parses it.
//!
//! ipvsadm's grammar does not fit a declarative argument parser: the first option must be
//! the command (`-A`, `-L`, `--set`, ...), short options combine (`-Ln`, `-Lnc`, `-At VIP`),
//! `-p` takes an *optional* value (`-p`, `-p 600`, `-p600`, `--persistent=600`), `--set`
//! takes three positional values, and whether an option is allowed, required or exclusive
//! depends on the command (ipvsadm's `commands_v_options` table, reproduced here with the
//! same messages). So this is a small popt-style scanner followed by ipvsadm's own checks,
//! in ipvsadm's order, so a bad command line fails with the message ipvsadm would give.
//!
//! Differences from ipvsadm, all deliberate:
//! - The card splices TCP over IPv4 with masquerading: `-u`, `--sctp-service`, `-f`, `-6`,
//!   `-g`, `-i`, `--tun-*`, `--ops` and `--pe` are rejected with the reason, and so are the
//!   sync-daemon commands and options. `-m` is accepted and is the default forwarding method
//!   (ipvsadm's default is `-g`, which the card cannot do).
//! - Host names are not resolved: addresses are IPv4 in any form `inet_aton(3)` accepts
//!   (`10.0.0.1`, also `10.1` or `0x0a000001` as ipvsadm accepts them). Ports are numbers
//!   or one of the service names `http`/`www` (80), `https` (443), `http-alt`/`webcache`
//!   (8080).
//! - A scheduler name is checked here (ipvsadm leaves it to the kernel, which answers
//!   "Scheduler or persistence engine not found"), and so is `-y` > `-x` (the kernel's
//!   ERANGE), so the card is only ever sent valid values.
//! - A real server given without a port takes the service's port wherever `-r` appears
//!   (ipvsadm copies the port only if `-t` came before `-r`).
//! - Extensions: `--mac XX:XX:XX:XX:XX:XX` (Ethernet address of a real server, with `-a`
//!   and `-e`) and `--json` (with `-L`).
//! - In `-R` input, `#` starts a comment (ipvsadm's reader means to allow this too).
//!
//! `-E` and `-e` replace every setting of the service or server, as in ipvsadm: an omitted
//! `-s` means `wlc`, an omitted `-p` turns persistence off, an omitted `-w` means weight 1
//! and omitted thresholds mean 0. An omitted `--mac` keeps the server's current MAC.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddrV4};

use super::model::{
    scheduler_list, MacAddr, Persistence, SchedFlags, Scheduler, Timeouts,
    DEFAULT_PERSISTENT_TIMEOUT, MAX_TIMEOUT,
};

/// One ipvsadm command, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IpvsCommand {
    /// `-A`: add a virtual service.
    AddService(ServiceSpec),
    /// `-E`: replace the settings of a virtual service.
    EditService(ServiceSpec),
    /// `-D`: delete a virtual service and its servers.
    DeleteService(SocketAddrV4),
    /// `-C`: delete every service.
    Clear,
    /// `-a`: add a real server to a service.
    AddServer(ServerSpec),
    /// `-e`: replace the settings of a real server.
    EditServer(ServerSpec),
    /// `-d`: remove a real server from a service.
    DeleteServer {
        /// The virtual service.
        service: SocketAddrV4,
        /// The real server.
        server: SocketAddrV4,
    },
    /// `-L`/`-l` (or no arguments at all): print the table.
    List(ListOptions),
    /// `-Z`: zero the counters of one service, or of all.
    Zero(Option<SocketAddrV4>),
    /// `--set tcp tcpfin udp`: set timeouts in seconds (0 leaves one unchanged).
    Set(Timeouts),
    /// `-S`: print the table as `-A`/`-a` lines that `-R` reads back.
    Save {
        /// `-n` was given (addresses are printed numerically either way).
        numeric: bool,
    },
    /// `-R`: read commands from standard input ([`parse_restore`]).
    Restore,
    /// `-h`/`--help`: print [`usage`].
    Help,
    /// `-v`/`--version`: print the version.
    Version,
}

/// Settings of a virtual service (`-A`, `-E`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceSpec {
    /// Virtual address and port.
    pub vip: SocketAddrV4,
    /// `-s`, default `wlc`.
    pub sched: Scheduler,
    /// `-p [timeout]` with `-M netmask`.
    pub persistent: Option<Persistence>,
    /// `-b`.
    pub sched_flags: SchedFlags,
}

/// Settings of a real server (`-a`, `-e`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSpec {
    /// The virtual service (`-t`).
    pub service: SocketAddrV4,
    /// The real server (`-r`); its port defaults to the service's.
    pub server: SocketAddrV4,
    /// `-w`, default 1.
    pub weight: u32,
    /// `-x`, default 0 (no upper threshold).
    pub upper: u32,
    /// `-y`, default 0.
    pub lower: u32,
    /// `--mac` (extension): the server's Ethernet address.
    pub mac: Option<MacAddr>,
}

/// What `-L` prints.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListOptions {
    /// `-n` (addresses are printed numerically either way).
    pub numeric: bool,
    /// `-c`: the connection entries.
    pub connections: bool,
    /// `--timeout`: the timeouts.
    pub timeout: bool,
    /// `--stats`: counters.
    pub stats: bool,
    /// `--rate`: rates.
    pub rate: bool,
    /// `--exact`: numbers without K/M/G/T.
    pub exact: bool,
    /// `--thresholds`: server thresholds.
    pub thresholds: bool,
    /// `--persistent-conn`: persistence templates.
    pub persistent_conn: bool,
    /// `--nosort`: services and servers in the card's order.
    pub nosort: bool,
    /// `--json` (extension): the data as JSON (see [`crate::ipvs::format::json`]).
    pub json: bool,
    /// `-t VIP:port`: only this service.
    pub service: Option<SocketAddrV4>,
}

/// A command line ipvsadm would refuse (or that the card cannot carry out).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgsError {
    /// Arguments but no option at all.
    #[error(
        "no command given: the first option must be one of -A -E -D -C -R -S -a -e -d -L -l -Z \
         --set -h (try `nicctl ipvsadm -h')"
    )]
    NoCommand,
    /// The first option is not a command.
    #[error(
        "`{0}' is not a command: the first option must be one of -A -E -D -C -R -S -a -e -d -L \
         -l -Z --set -h (try `nicctl ipvsadm -h')"
    )]
    NotACommand(String),
    /// A second command.
    #[error("multiple commands specified: `{second}' after `{first}'")]
    MultipleCommands {
        /// The command given first.
        first: String,
        /// The one given after it.
        second: String,
    },
    /// An option ipvsadm does not know.
    #[error("invalid option `{0}'")]
    UnknownOption(String),
    /// An option that needs a value at the end of the line.
    #[error("option `{0}' requires an argument")]
    MissingArgument(String),
    /// `--flag=value` for an option without value.
    #[error("option `{0}' does not take an argument")]
    UnwantedArgument(String),
    /// The same option twice.
    #[error("multiple '{0}' options specified")]
    MultipleOptions(&'static str),
    /// A value that does not parse or is out of range.
    #[error("{what}: `{value}' {reason}")]
    Invalid {
        /// ipvsadm's message, such as "illegal weight specified".
        what: &'static str,
        /// The value as given.
        value: String,
        /// Why it is refused.
        reason: String,
    },
    /// An ipvsadm feature the card does not have.
    #[error("`{option}': {reason}")]
    Unsupported {
        /// The option as given.
        option: String,
        /// Why the card cannot do it.
        reason: &'static str,
    },
    /// A required option is missing.
    #[error("You need to supply the '{option}' option for the '{command}' command")]
    NeedOption {
        /// ipvsadm's name of the option.
        option: &'static str,
        /// ipvsadm's name of the command.
        command: &'static str,
    },
    /// An option the command does not take.
    #[error("Illegal '{option}' option with the '{command}' command")]
    IllegalOption {
        /// ipvsadm's name of the option.
        option: &'static str,
        /// ipvsadm's name of the command.
        command: &'static str,
    },
    /// Two mutually exclusive options.
    #[error(
        "The option '{option}' conflicts with the '{other}' option in the '{command}' command"
    )]
    Conflict {
        /// The later option.
        option: &'static str,
        /// The earlier one.
        other: &'static str,
        /// ipvsadm's name of the command.
        command: &'static str,
    },
    /// `-c`/`--timeout` with `--stats`/`--rate`/`--thresholds`, or `--timeout` with
    /// `--persistent-conn`.
    #[error("options conflicts in the list command")]
    ListConflict,
    /// A positional argument no command takes.
    #[error("unexpected argument {0}")]
    UnexpectedArgument(String),
    /// `--set` with fewer than three values.
    #[error("--set option requires 3 timeout values")]
    SetNeedsThree,
    /// `-A`/`-E` with port 0 and no `-p`.
    #[error("Zero port specified for non-persistent service")]
    ZeroPort,
    /// `-y` above `-x` (the kernel refuses it with ERANGE).
    #[error(
        "illegal l_threshold specified: the lower threshold {lower} is higher than the upper \
         threshold {upper} (Numerical result out of range)"
    )]
    ThresholdOrder {
        /// `-y`.
        lower: u32,
        /// `-x`.
        upper: u32,
    },
    /// `-R` inside `-R` input.
    #[error("-R cannot be used in restore input")]
    NestedRestore,
    /// `-R` input over [`MAX_RESTORE_BYTES`].
    #[error(
        "the input is larger than {MAX_RESTORE_BYTES} bytes (the limit, MAX_RESTORE_BYTES); \
         nothing was restored"
    )]
    InputTooLarge,
    /// A `-R` line over [`MAX_RESTORE_LINE_BYTES`].
    #[error("line longer than {MAX_RESTORE_LINE_BYTES} bytes (the limit, MAX_RESTORE_LINE_BYTES)")]
    LineTooLong,
    /// `-R` input with more than [`MAX_RESTORE_COMMANDS`] commands.
    #[error(
        "more than {MAX_RESTORE_COMMANDS} commands (the limit, MAX_RESTORE_COMMANDS); nothing \
         was restored"
    )]
    TooManyCommands,
    /// Bytes of `-R` input that are not UTF-8 (in hex).
    #[error("invalid UTF-8 (bytes {0}): -R input must be UTF-8 text")]
    InvalidUtf8(String),
    /// A control character (other than tab and carriage return) in `-R` input.
    #[error("control character {} (U+{:04X}): -R input must be text", .0.escape_default(), u32::from(*.0))]
    ControlCharacter(char),
}

/// The largest `-R` input, in bytes (1 MiB). `-S` of a full card (8 services, 64 real
/// servers) is about 5 KB; the limit bounds the time and memory of reading and checking
/// the input. [`parse_restore`] refuses a larger input at the line and column of its first
/// byte past the limit, after checking the lines before it.
pub const MAX_RESTORE_BYTES: usize = 1 << 20;

/// The longest `-R` line, in bytes (4096). The longest line `-S` writes is under 120
/// bytes; the limit bounds every message that quotes the line or one of its words.
pub const MAX_RESTORE_LINE_BYTES: usize = 4096;

/// The most commands one `-R` input may hold (4096). A full card is restored by 73
/// (8 `-A`, 64 `-a`, `--set`); every command is carried out against the card, so the limit
/// also bounds how long a restore takes.
pub const MAX_RESTORE_COMMANDS: usize = 4096;

/// The most characters of a line a [`RestoreError`] quotes.
const SHOWN_CHARS: usize = 120;

/// A line of `-R` input that does not parse, or input past one of the limits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RestoreError {
    /// Line number, from 1.
    pub line: usize,
    /// Column, from 1, in characters, where the problem is a place in the line (a limit,
    /// invalid UTF-8, a control character); 0 when it is the line's arguments.
    pub col: usize,
    /// The line as read (without its newline; invalid UTF-8 as U+FFFD, control characters
    /// escaped, at most 120 characters and `...`).
    pub text: String,
    /// What is wrong with it.
    pub error: ArgsError,
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col == 0 {
            write!(f, "line {}: `{}': {}", self.line, self.text, self.error)
        } else {
            write!(
                f,
                "line {}, column {}: `{}': {}",
                self.line, self.col, self.text, self.error
            )
        }
    }
}

/// Parse the arguments that follow `nicctl ipvsadm`. No arguments lists the table, as with
/// ipvsadm.
pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<IpvsCommand, ArgsError> {
    let args: Vec<&str> = args.iter().map(|s| s.as_ref()).collect();
    if args.is_empty() {
        return Ok(IpvsCommand::List(ListOptions::default()));
    }
    let mut lx = Lexer::new(&args);
    let first = lx.next()?.ok_or(ArgsError::NoCommand)?;
    let cmd = match first.tag {
        Tag::Help => return Ok(IpvsCommand::Help),
        Tag::Version => return Ok(IpvsCommand::Version),
        Tag::Cmd(c) => c,
        Tag::StartDaemon | Tag::StopDaemon => {
            return Err(unsupported(&first.spelled, NO_DAEMON));
        }
        _ => return Err(ArgsError::NotACommand(first.spelled)),
    };
    let mut st = State::default();
    while let Some(ev) = lx.next()? {
        st.option(ev, &first.spelled)?;
    }

    // ipvsadm's order from here on: --set values, stray arguments, -b, the option table,
    // then the per-command checks.
    let mut leftovers = lx.leftovers.into_iter();
    let mut timeouts = None;
    if cmd == Cmd::Set {
        let mut vals = [0u32; 3];
        for v in vals.iter_mut() {
            let a = leftovers.next().ok_or(ArgsError::SetNeedsThree)?;
            *v = parse_timeout(a, 0)?;
        }
        timeouts = Some(Timeouts {
            tcp: vals[0],
            tcpfin: vals[1],
            udp: vals[2],
        });
    }
    if let Some(a) = leftovers.next() {
        return Err(ArgsError::UnexpectedArgument(a.to_string()));
    }
    let sched_flags = match &st.sched_flags {
        Some(arg) => parse_sched_flags(st.sched.unwrap_or(Scheduler::Wlc), arg)?,
        None => SchedFlags::default(),
    };
    check_table(cmd, st.cols)?;

    let service = st
        .service
        .unwrap_or(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0));
    let has = |c: Col| st.cols & c.bit() != 0;
    Ok(match cmd {
        Cmd::Add | Cmd::Edit => {
            if service.port() == 0 && st.persistent.is_none() {
                return Err(ArgsError::ZeroPort);
            }
            let spec = ServiceSpec {
                vip: service,
                sched: st.sched.unwrap_or(Scheduler::Wlc),
                persistent: st.persistent.map(|timeout| Persistence {
                    timeout,
                    netmask: st.netmask,
                }),
                sched_flags,
            };
            if cmd == Cmd::Add {
                IpvsCommand::AddService(spec)
            } else {
                IpvsCommand::EditService(spec)
            }
        }
        Cmd::Del => IpvsCommand::DeleteService(service),
        Cmd::Flush => IpvsCommand::Clear,
        Cmd::AddDest | Cmd::EditDest => {
            if st.lower > st.upper {
                return Err(ArgsError::ThresholdOrder {
                    lower: st.lower,
                    upper: st.upper,
                });
            }
            let spec = ServerSpec {
                service,
                server: st.server_addr(service),
                weight: st.weight,
                upper: st.upper,
                lower: st.lower,
                mac: st.mac,
            };
            if cmd == Cmd::AddDest {
                IpvsCommand::AddServer(spec)
            } else {
                IpvsCommand::EditServer(spec)
            }
        }
        Cmd::DelDest => IpvsCommand::DeleteServer {
            service,
            server: st.server_addr(service),
        },
        Cmd::List => {
            if (has(Col::Connection) || has(Col::Timeout))
                && (has(Col::Stats) || has(Col::Rate) || has(Col::Thresholds))
                || has(Col::Timeout) && has(Col::PersistConn)
            {
                return Err(ArgsError::ListConflict);
            }
            IpvsCommand::List(ListOptions {
                numeric: has(Col::Numeric),
                connections: has(Col::Connection),
                timeout: has(Col::Timeout),
                stats: has(Col::Stats),
                rate: has(Col::Rate),
                exact: has(Col::Exact),
                thresholds: has(Col::Thresholds),
                persistent_conn: has(Col::PersistConn),
                nosort: has(Col::NoSort),
                json: has(Col::Json),
                service: st.service,
            })
        }
        Cmd::Zero => IpvsCommand::Zero(st.service),
        Cmd::Set => IpvsCommand::Set(timeouts.unwrap_or_default()),
        Cmd::Save => IpvsCommand::Save {
            numeric: has(Col::Numeric),
        },
        Cmd::Restore => IpvsCommand::Restore,
    })
}

/// Parse `-R` input: one ipvsadm argument list per line, as `-S` writes them (for example
/// `-A -t 10.0.0.1:80 -s wlc`). Tokens are separated by spaces, tabs or carriage returns; a
/// token `ipvsadm` is skipped (so `ipvsadm -A ...` lines work, as with ipvsadm); blank
/// lines are skipped and `#` starts a comment. Stops at the first bad line.
///
/// The input is bytes (standard input as read, at most [`MAX_RESTORE_BYTES`] and one more
/// byte). It must be UTF-8 text without control characters other than tab and carriage
/// return; each limit ([`MAX_RESTORE_BYTES`], [`MAX_RESTORE_LINE_BYTES`],
/// [`MAX_RESTORE_COMMANDS`]) and each of those is an error at its line and column. The
/// work is linear in the input, and the whole input is checked before anything is
/// returned, so a refused input restores nothing.
pub fn parse_restore<T: AsRef<[u8]> + ?Sized>(input: &T) -> Result<Vec<IpvsCommand>, RestoreError> {
    let bytes = input.as_ref();
    let mut out = Vec::new();
    let mut off = 0;
    let mut pieces = bytes.split(|&b| b == b'\n').peekable();
    let mut line = 0;
    while let Some(raw) = pieces.next() {
        if raw.is_empty() && pieces.peek().is_none() {
            // After the last newline.
            break;
        }
        line += 1;
        // The line's end as `str::lines` takes it: `\n` or `\r\n`.
        let full = raw.len();
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let at = |col_byte: usize, error| RestoreError {
            line,
            col: chars_in(&raw[..col_byte.min(raw.len())]) + 1,
            text: shown(&String::from_utf8_lossy(raw)),
            error,
        };
        // This line holds the first byte past the size limit (its newline counts).
        if bytes.len() > MAX_RESTORE_BYTES && off + full >= MAX_RESTORE_BYTES {
            return Err(at(MAX_RESTORE_BYTES - off, ArgsError::InputTooLarge));
        }
        off += full + 1;
        if raw.len() > MAX_RESTORE_LINE_BYTES {
            return Err(at(MAX_RESTORE_LINE_BYTES, ArgsError::LineTooLong));
        }
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            Err(e) => {
                let bad = &raw[e.valid_up_to()..];
                let len = e.error_len().unwrap_or(bad.len());
                let hex: Vec<String> = bad[..len].iter().map(|b| format!("{b:02x}")).collect();
                return Err(at(e.valid_up_to(), ArgsError::InvalidUtf8(hex.join(" "))));
            }
        };
        if let Some((i, c)) = text
            .char_indices()
            .find(|&(_, c)| c.is_control() && c != '\t' && c != '\r')
        {
            return Err(at(i, ArgsError::ControlCharacter(c)));
        }
        let tokens = restore_tokens(text);
        if tokens.is_empty() {
            continue;
        }
        let err = |error| RestoreError {
            line,
            col: 0,
            text: shown(text),
            error,
        };
        match parse(&tokens).map_err(err)? {
            IpvsCommand::Restore => return Err(err(ArgsError::NestedRestore)),
            _ if out.len() == MAX_RESTORE_COMMANDS => return Err(err(ArgsError::TooManyCommands)),
            c => out.push(c),
        }
    }
    Ok(out)
}

/// How many characters `raw` reads as (an invalid UTF-8 sequence is one U+FFFD).
fn chars_in(raw: &[u8]) -> usize {
    raw.utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// A line as a [`RestoreError`] quotes it: control characters escaped, at most
/// [`SHOWN_CHARS`] characters.
fn shown(line: &str) -> String {
    let mut s = String::new();
    for (i, c) in line.chars().enumerate() {
        if i == SHOWN_CHARS {
            s.push_str("...");
            break;
        }
        if c.is_control() && c != '\t' {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// The arguments of one `-R` line (see [`parse_restore`]).
fn restore_tokens(line: &str) -> Vec<&str> {
    line.split([' ', '\t', '\r'])
        .filter(|t| !t.is_empty())
        .take_while(|t| !t.starts_with('#'))
        .filter(|t| *t != "ipvsadm")
        .collect()
}

/// Help text for `nicctl ipvsadm -h`.
pub fn usage() -> String {
    format!(
        "\
nicctl ipvsadm: administer a SpliceNIC card the way ipvsadm administers IPVS

Usage:
  nicctl ipvsadm -A|E virtual-service [-s scheduler] [-p [timeout]] [-M netmask] [-b sched-flags]
  nicctl ipvsadm -D virtual-service
  nicctl ipvsadm -C
  nicctl ipvsadm -R
  nicctl ipvsadm -S [-n]
  nicctl ipvsadm -a|e virtual-service -r server-address [options]
  nicctl ipvsadm -d virtual-service -r server-address
  nicctl ipvsadm -L|l [virtual-service] [options]
  nicctl ipvsadm -Z [virtual-service]
  nicctl ipvsadm --set tcp tcpfin udp
  nicctl ipvsadm -h

Commands:
Either long or short options are allowed.
  --add-service     -A        add virtual service with options
  --edit-service    -E        edit virtual service with options
  --delete-service  -D        delete virtual service
  --clear           -C        clear the whole table
  --restore         -R        restore rules from stdin
  --save            -S        save rules to stdout
  --add-server      -a        add real server with options
  --edit-server     -e        edit real server with options
  --delete-server   -d        delete real server
  --list            -L|-l     list the table
  --zero            -Z        zero counters in a service or all services
  --set tcp tcpfin udp        set connection timeout values
  --help            -h        display this help message

virtual-service:
  --tcp-service|-t  service-address   service-address is IPv4-address[:port]

Options:
  --scheduler    -s scheduler         one of {scheds},
                                      the default scheduler is wlc.
  --persistent   -p [timeout]         persistent service (default timeout {ptime} s)
  --netmask      -M netmask           persistent granularity mask
  --real-server  -r server-address    server-address is IPv4-address[:port]
  --masquerading -m                   masquerading (the card's only method; the default)
  --weight       -w weight            capacity of real server
  --u-threshold  -x uthreshold        upper threshold of connections
  --l-threshold  -y lthreshold        lower threshold of connections
  --mac          XX:XX:XX:XX:XX:XX    Ethernet address of the real server
  --connection   -c                   output of current connections
  --timeout                           output of timeout (tcp tcpfin udp)
  --stats                             output of statistics information
  --rate                              output of rate information
  --exact                             expand numbers (display exact values)
  --thresholds                        output of thresholds information
  --persistent-conn                   output of persistent connection info
  --nosort                            disable sorting output of service/server entries
  --sort                              does nothing, for backwards compatibility
  --numeric      -n                   numeric output (addresses are always numeric)
  --json                              output as JSON
  --sched-flags  -b flags             scheduler flags (comma-separated):
                                      sh-fallback, sh-port, mh-fallback, mh-port

The card splices TCP over IPv4 and forwards by masquerading: UDP, SCTP and fwmark
services, IPv6, direct routing (-g), tunnelling (-i), one-packet scheduling, persistence
engines and the sync daemon are not available.
",
        scheds = scheduler_list(),
        ptime = DEFAULT_PERSISTENT_TIMEOUT,
    )
}

// ---------------------------------------------------------------------------------------
// The option table.

/// ipvsadm's commands, in the order of its `cmdnames` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    Add,
    Edit,
    Del,
    Flush,
    List,
    AddDest,
    DelDest,
    EditDest,
    Set,
    Restore,
    Save,
    Zero,
}

impl Cmd {
    /// ipvsadm's name of the command in messages.
    fn name(self) -> &'static str {
        match self {
            Cmd::Add => "add-service",
            Cmd::Edit => "edit-service",
            Cmd::Del => "delete-service",
            Cmd::Flush => "flush",
            Cmd::List => "list",
            Cmd::AddDest => "add-server",
            Cmd::DelDest => "delete-server",
            Cmd::EditDest => "edit-server",
            Cmd::Set => "set",
            Cmd::Restore => "restore",
            Cmd::Save => "save",
            Cmd::Zero => "zero",
        }
    }

    /// The command's row of ipvsadm's `commands_v_options` table over [`Col::ALL`]:
    /// `+` compulsory, `x` illegal, `1` exclusive (only one `1` option), ` ` optional.
    /// The last two columns (`--mac`, `--json`) are ours.
    fn row(self) -> &'static [u8; NCOLS] {
        //                    n c svc s p M r fwd w x y tot st rt thr pc srt ex b mac json
        match self {
            Cmd::Add | Cmd::Edit => b"xx+   xxxxxxxxxxxx xx",
            Cmd::Del => b"xx+xxxxxxxxxxxxxxxxxx",
            Cmd::List => b" 11xxxxxxxx1      xx ",
            Cmd::AddDest | Cmd::EditDest => b"xx+xxx+    xxxxxxxx x",
            Cmd::DelDest => b"xx+xxx+xxxxxxxxxxxxxx",
            Cmd::Save => b" xxxxxxxxxxxxxxxxxxxx",
            Cmd::Zero => b"xx xxxxxxxxxxxxxxxxxx",
            Cmd::Flush | Cmd::Set | Cmd::Restore => b"xxxxxxxxxxxxxxxxxxxxx",
        }
    }
}

const NCOLS: usize = 21;

/// Options that ipvsadm's table checks, in its column order (plus ours at the end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Numeric,
    Connection,
    Service,
    Scheduler,
    Persistent,
    Netmask,
    Server,
    Forward,
    Weight,
    UThreshold,
    LThreshold,
    Timeout,
    Stats,
    Rate,
    Thresholds,
    PersistConn,
    NoSort,
    Exact,
    SchedFlags,
    Mac,
    Json,
}

impl Col {
    const ALL: [Col; NCOLS] = [
        Col::Numeric,
        Col::Connection,
        Col::Service,
        Col::Scheduler,
        Col::Persistent,
        Col::Netmask,
        Col::Server,
        Col::Forward,
        Col::Weight,
        Col::UThreshold,
        Col::LThreshold,
        Col::Timeout,
        Col::Stats,
        Col::Rate,
        Col::Thresholds,
        Col::PersistConn,
        Col::NoSort,
        Col::Exact,
        Col::SchedFlags,
        Col::Mac,
        Col::Json,
    ];

    fn bit(self) -> u32 {
        1 << self as u32
    }

    /// ipvsadm's name of the option in messages (`optnames`).
    fn name(self) -> &'static str {
        match self {
            Col::Numeric => "numeric",
            Col::Connection => "connection",
            Col::Service => "service-address",
            Col::Scheduler => "scheduler",
            Col::Persistent => "persistent",
            Col::Netmask => "netmask",
            Col::Server => "real-server",
            Col::Forward => "forwarding-method",
            Col::Weight => "weight",
            Col::UThreshold => "u-threshold",
            Col::LThreshold => "l-threshold",
            Col::Timeout => "timeout",
            Col::Stats => "stats",
            Col::Rate => "rate",
            Col::Thresholds => "thresholds",
            Col::PersistConn => "persistent-conn",
            Col::NoSort => "nosort",
            Col::Exact => "exact",
            Col::SchedFlags => "sched-flags",
            Col::Mac => "mac",
            Col::Json => "json",
        }
    }
}

/// ipvsadm's `generic_opt_check`.
fn check_table(cmd: Cmd, cols: u32) -> Result<(), ArgsError> {
    let row = cmd.row();
    let mut first_exclusive: Option<Col> = None;
    for (col, rule) in Col::ALL.iter().zip(row.iter()) {
        let set = cols & col.bit() != 0;
        match (set, rule) {
            (false, b'+') => {
                return Err(ArgsError::NeedOption {
                    option: col.name(),
                    command: cmd.name(),
                })
            }
            (true, b'x') => {
                return Err(ArgsError::IllegalOption {
                    option: col.name(),
                    command: cmd.name(),
                })
            }
            (true, b'1') => match first_exclusive {
                None => first_exclusive = Some(*col),
                Some(other) => {
                    return Err(ArgsError::Conflict {
                        option: col.name(),
                        other: other.name(),
                        command: cmd.name(),
                    })
                }
            },
            _ => {}
        }
    }
    Ok(())
}

/// What an option is, once recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Cmd(Cmd),
    Help,
    Version,
    StartDaemon,
    StopDaemon,
    Tcp,
    Udp,
    Sctp,
    Fwmark,
    Sched,
    Persistent,
    Netmask,
    Real,
    Masq,
    Ipip,
    Gate,
    Weight,
    UThreshold,
    LThreshold,
    Numeric,
    Connection,
    Timeout,
    Stats,
    Rate,
    Thresholds,
    PersistConn,
    NoSort,
    Sort,
    Exact,
    SchedFlags,
    Mac,
    Json,
    /// Sync daemon options and listing.
    Daemon,
    /// `--tun-*`.
    Tunnel,
    Ipv6,
    Ops,
    Pe,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArgKind {
    None,
    Required,
    Optional,
}

struct OptSpec {
    long: &'static str,
    short: Option<char>,
    tag: Tag,
    arg: ArgKind,
}

const fn opt(long: &'static str, short: Option<char>, tag: Tag, arg: ArgKind) -> OptSpec {
    OptSpec {
        long,
        short,
        tag,
        arg,
    }
}

/// ipvsadm 1.31's option table (popt), plus `--mac` and `--json`.
const OPTIONS: &[OptSpec] = &[
    opt("add-service", Some('A'), Tag::Cmd(Cmd::Add), ArgKind::None),
    opt(
        "edit-service",
        Some('E'),
        Tag::Cmd(Cmd::Edit),
        ArgKind::None,
    ),
    opt(
        "delete-service",
        Some('D'),
        Tag::Cmd(Cmd::Del),
        ArgKind::None,
    ),
    opt("clear", Some('C'), Tag::Cmd(Cmd::Flush), ArgKind::None),
    opt("list", Some('L'), Tag::Cmd(Cmd::List), ArgKind::None),
    opt("list", Some('l'), Tag::Cmd(Cmd::List), ArgKind::None),
    opt("zero", Some('Z'), Tag::Cmd(Cmd::Zero), ArgKind::None),
    opt(
        "add-server",
        Some('a'),
        Tag::Cmd(Cmd::AddDest),
        ArgKind::None,
    ),
    opt(
        "edit-server",
        Some('e'),
        Tag::Cmd(Cmd::EditDest),
        ArgKind::None,
    ),
    opt(
        "delete-server",
        Some('d'),
        Tag::Cmd(Cmd::DelDest),
        ArgKind::None,
    ),
    opt("set", None, Tag::Cmd(Cmd::Set), ArgKind::None),
    opt("help", Some('h'), Tag::Help, ArgKind::None),
    opt("version", Some('v'), Tag::Version, ArgKind::None),
    opt("restore", Some('R'), Tag::Cmd(Cmd::Restore), ArgKind::None),
    opt("save", Some('S'), Tag::Cmd(Cmd::Save), ArgKind::None),
    opt("start-daemon", None, Tag::StartDaemon, ArgKind::Required),
    opt("stop-daemon", None, Tag::StopDaemon, ArgKind::Required),
    opt("tcp-service", Some('t'), Tag::Tcp, ArgKind::Required),
    opt("udp-service", Some('u'), Tag::Udp, ArgKind::Required),
    opt("sctp-service", None, Tag::Sctp, ArgKind::Required),
    opt("fwmark-service", Some('f'), Tag::Fwmark, ArgKind::Required),
    opt("scheduler", Some('s'), Tag::Sched, ArgKind::Required),
    opt("persistent", Some('p'), Tag::Persistent, ArgKind::Optional),
    opt("netmask", Some('M'), Tag::Netmask, ArgKind::Required),
    opt("real-server", Some('r'), Tag::Real, ArgKind::Required),
    opt("masquerading", Some('m'), Tag::Masq, ArgKind::None),
    opt("ipip", Some('i'), Tag::Ipip, ArgKind::None),
    opt("gatewaying", Some('g'), Tag::Gate, ArgKind::None),
    opt("weight", Some('w'), Tag::Weight, ArgKind::Required),
    opt("u-threshold", Some('x'), Tag::UThreshold, ArgKind::Required),
    opt("l-threshold", Some('y'), Tag::LThreshold, ArgKind::Required),
    opt("numeric", Some('n'), Tag::Numeric, ArgKind::None),
    opt("connection", Some('c'), Tag::Connection, ArgKind::None),
    opt("mcast-interface", None, Tag::Daemon, ArgKind::Required),
    opt("syncid", None, Tag::Daemon, ArgKind::Required),
    opt("timeout", None, Tag::Timeout, ArgKind::None),
    opt("daemon", None, Tag::Daemon, ArgKind::None),
    opt("stats", None, Tag::Stats, ArgKind::None),
    opt("rate", None, Tag::Rate, ArgKind::None),
    opt("thresholds", None, Tag::Thresholds, ArgKind::None),
    opt("persistent-conn", None, Tag::PersistConn, ArgKind::None),
    opt("nosort", None, Tag::NoSort, ArgKind::None),
    opt("sort", None, Tag::Sort, ArgKind::None),
    opt("exact", Some('X'), Tag::Exact, ArgKind::None),
    opt("ipv6", Some('6'), Tag::Ipv6, ArgKind::None),
    opt("ops", Some('o'), Tag::Ops, ArgKind::None),
    opt("pe", None, Tag::Pe, ArgKind::Required),
    opt("sched-flags", Some('b'), Tag::SchedFlags, ArgKind::Required),
    opt("mcast-group", None, Tag::Daemon, ArgKind::Required),
    opt("mcast-port", None, Tag::Daemon, ArgKind::Required),
    opt("mcast-ttl", None, Tag::Daemon, ArgKind::Required),
    opt("sync-maxlen", None, Tag::Daemon, ArgKind::Required),
    opt("tun-info", None, Tag::Tunnel, ArgKind::None),
    opt("tun-type", None, Tag::Tunnel, ArgKind::Required),
    opt("tun-port", None, Tag::Tunnel, ArgKind::Required),
    opt("tun-nocsum", None, Tag::Tunnel, ArgKind::None),
    opt("tun-csum", None, Tag::Tunnel, ArgKind::None),
    opt("tun-remcsum", None, Tag::Tunnel, ArgKind::None),
    opt("mac", None, Tag::Mac, ArgKind::Required),
    opt("json", None, Tag::Json, ArgKind::None),
];

const NO_DAEMON: &str = "SpliceNIC has no sync daemon";
const TCP_ONLY: &str = "the card serves TCP only (it splices TCP connections); use -t";
const MASQ_ONLY: &str =
    "the card splices connections, so it only forwards by masquerading (-m, the default)";

fn unsupported(option: &str, reason: &'static str) -> ArgsError {
    ArgsError::Unsupported {
        option: option.to_string(),
        reason,
    }
}

// ---------------------------------------------------------------------------------------
// Scanning (popt's rules: clusters of short options, `--long[=value]`, `--`, optional
// values taken from the next argument unless it starts with `-`, positional arguments
// anywhere).

struct Event {
    tag: Tag,
    /// The option as written (`-t`, `--weight`), for messages.
    spelled: String,
    value: Option<String>,
}

struct Lexer<'a> {
    args: &'a [&'a str],
    pos: usize,
    /// Inside a cluster of short options: the argument and the byte offset of the next one.
    cluster: Option<(&'a str, usize)>,
    only_positional: bool,
    leftovers: Vec<&'a str>,
}

impl<'a> Lexer<'a> {
    fn new(args: &'a [&'a str]) -> Self {
        Lexer {
            args,
            pos: 0,
            cluster: None,
            only_positional: false,
            leftovers: Vec::new(),
        }
    }

    fn next(&mut self) -> Result<Option<Event>, ArgsError> {
        loop {
            if let Some((arg, off)) = self.cluster {
                return self.short(arg, off).map(Some);
            }
            let Some(&arg) = self.args.get(self.pos) else {
                return Ok(None);
            };
            self.pos += 1;
            if self.only_positional {
                self.leftovers.push(arg);
            } else if arg == "--" {
                self.only_positional = true;
            } else if let Some(long) = arg.strip_prefix("--") {
                return self.long(long).map(Some);
            } else if arg.len() > 1 && arg.starts_with('-') {
                self.cluster = Some((arg, 1));
            } else {
                self.leftovers.push(arg);
            }
        }
    }

    fn long(&mut self, body: &str) -> Result<Event, ArgsError> {
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let spelled = format!("--{name}");
        let spec = OPTIONS
            .iter()
            .find(|o| o.long == name)
            .ok_or_else(|| ArgsError::UnknownOption(spelled.clone()))?;
        let value = match (spec.arg, inline) {
            (ArgKind::None, Some(_)) => return Err(ArgsError::UnwantedArgument(spelled)),
            (ArgKind::None, None) => None,
            (_, Some(v)) => Some(v.to_string()),
            (ArgKind::Required, None) => Some(self.take_next(&spelled)?),
            (ArgKind::Optional, None) => self.take_optional(),
        };
        Ok(Event {
            tag: spec.tag,
            spelled,
            value,
        })
    }

    fn short(&mut self, arg: &'a str, off: usize) -> Result<Event, ArgsError> {
        let rest = &arg[off..];
        let c = rest.chars().next().unwrap_or('-');
        let after = &rest[c.len_utf8()..];
        self.cluster = if after.is_empty() {
            None
        } else {
            Some((arg, off + c.len_utf8()))
        };
        let spelled = format!("-{c}");
        let spec = OPTIONS
            .iter()
            .find(|o| o.short == Some(c))
            .ok_or_else(|| ArgsError::UnknownOption(spelled.clone()))?;
        let value = match spec.arg {
            ArgKind::None => None,
            _ if !after.is_empty() => {
                // The rest of the cluster is the value (`-t10.0.0.1:80`, `-p600`, `-t=...`).
                self.cluster = None;
                Some(after.strip_prefix('=').unwrap_or(after).to_string())
            }
            ArgKind::Required => Some(self.take_next(&spelled)?),
            ArgKind::Optional => self.take_optional(),
        };
        Ok(Event {
            tag: spec.tag,
            spelled,
            value,
        })
    }

    fn take_next(&mut self, spelled: &str) -> Result<String, ArgsError> {
        let v = self
            .args
            .get(self.pos)
            .ok_or_else(|| ArgsError::MissingArgument(spelled.to_string()))?;
        self.pos += 1;
        Ok(v.to_string())
    }

    fn take_optional(&mut self) -> Option<String> {
        match self.args.get(self.pos) {
            Some(v) if !v.starts_with('-') && !self.only_positional => {
                self.pos += 1;
                Some(v.to_string())
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Options after the command.

struct State {
    cols: u32,
    service: Option<SocketAddrV4>,
    sched: Option<Scheduler>,
    persistent: Option<u32>,
    netmask: Ipv4Addr,
    server: Option<(Ipv4Addr, Option<u16>)>,
    weight: u32,
    upper: u32,
    lower: u32,
    sched_flags: Option<String>,
    mac: Option<MacAddr>,
}

impl Default for State {
    fn default() -> Self {
        State {
            cols: 0,
            service: None,
            sched: None,
            persistent: None,
            netmask: Ipv4Addr::BROADCAST,
            server: None,
            weight: 1,
            upper: 0,
            lower: 0,
            sched_flags: None,
            mac: None,
        }
    }
}

impl State {
    fn set(&mut self, col: Col) -> Result<(), ArgsError> {
        if self.cols & col.bit() != 0 {
            return Err(ArgsError::MultipleOptions(col.name()));
        }
        self.cols |= col.bit();
        Ok(())
    }

    fn server_addr(&self, service: SocketAddrV4) -> SocketAddrV4 {
        let (ip, port) = self
            .server
            .unwrap_or((Ipv4Addr::UNSPECIFIED, Some(service.port())));
        SocketAddrV4::new(ip, port.unwrap_or(service.port()))
    }

    fn option(&mut self, ev: Event, command: &str) -> Result<(), ArgsError> {
        let value = ev.value.clone().unwrap_or_default();
        match ev.tag {
            Tag::Cmd(_) | Tag::Help | Tag::Version => {
                return Err(ArgsError::MultipleCommands {
                    first: command.to_string(),
                    second: ev.spelled,
                })
            }
            Tag::StartDaemon | Tag::StopDaemon | Tag::Daemon => {
                return Err(unsupported(&ev.spelled, NO_DAEMON))
            }
            Tag::Udp | Tag::Sctp | Tag::Fwmark => return Err(unsupported(&ev.spelled, TCP_ONLY)),
            Tag::Gate | Tag::Ipip | Tag::Tunnel => return Err(unsupported(&ev.spelled, MASQ_ONLY)),
            Tag::Ipv6 => return Err(unsupported(&ev.spelled, "the card serves IPv4 only")),
            Tag::Ops => {
                return Err(unsupported(
                    &ev.spelled,
                    "one-packet scheduling is for UDP services and the card serves TCP only",
                ))
            }
            Tag::Pe => {
                return Err(unsupported(
                    &ev.spelled,
                    "the card has no persistence engines",
                ))
            }
            Tag::Tcp => {
                self.set(Col::Service)?;
                let (ip, port) =
                    parse_addr_port(&value, "illegal virtual server address[:port] specified")?;
                self.service = Some(SocketAddrV4::new(ip, port.unwrap_or(0)));
            }
            Tag::Sched => {
                self.set(Col::Scheduler)?;
                self.sched = Some(value.parse().map_err(|_| ArgsError::Invalid {
                    what: "Scheduler not found",
                    value: value.clone(),
                    reason: format!("is not one of {}", scheduler_list()),
                })?);
            }
            Tag::Persistent => {
                self.set(Col::Persistent)?;
                self.persistent = Some(match &ev.value {
                    None => DEFAULT_PERSISTENT_TIMEOUT,
                    Some(v) => parse_timeout(v, 1)?,
                });
            }
            Tag::Netmask => {
                self.set(Col::Netmask)?;
                self.netmask = inet_aton(&value).ok_or_else(|| ArgsError::Invalid {
                    what: "illegal virtual server persistent mask specified",
                    value: value.clone(),
                    reason: "is not an IPv4 netmask such as 255.255.255.0".into(),
                })?;
            }
            Tag::Real => {
                self.set(Col::Server)?;
                self.server = Some(parse_addr_port(
                    &value,
                    "illegal real server address[:port] specified",
                )?);
            }
            Tag::Masq => self.set(Col::Forward)?,
            Tag::Weight => {
                self.set(Col::Weight)?;
                self.weight = parse_number(&value, 0, 65_535, "illegal weight specified")?;
            }
            Tag::UThreshold => {
                self.set(Col::UThreshold)?;
                self.upper =
                    parse_number(&value, 0, i32::MAX as u32, "illegal u_threshold specified")?;
            }
            Tag::LThreshold => {
                self.set(Col::LThreshold)?;
                self.lower =
                    parse_number(&value, 0, i32::MAX as u32, "illegal l_threshold specified")?;
            }
            Tag::Numeric => self.set(Col::Numeric)?,
            Tag::Connection => self.set(Col::Connection)?,
            Tag::Timeout => self.set(Col::Timeout)?,
            Tag::Stats => self.set(Col::Stats)?,
            Tag::Rate => self.set(Col::Rate)?,
            Tag::Thresholds => self.set(Col::Thresholds)?,
            Tag::PersistConn => self.set(Col::PersistConn)?,
            Tag::NoSort => self.set(Col::NoSort)?,
            // Sorting is the default; ipvsadm accepts --sort anywhere and ignores it.
            Tag::Sort => {}
            Tag::Exact => self.set(Col::Exact)?,
            Tag::SchedFlags => {
                self.set(Col::SchedFlags)?;
                self.sched_flags = Some(value);
            }
            Tag::Mac => {
                self.set(Col::Mac)?;
                self.mac = Some(value.parse().map_err(|e: super::model::MacError| {
                    ArgsError::Invalid {
                        what: "illegal MAC address specified",
                        value: value.clone(),
                        reason: e.to_string(),
                    }
                })?);
            }
            Tag::Json => self.set(Col::Json)?,
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Values.

/// ipvsadm's `string_to_number`: `strtol(s, 10)` that must use the whole string and land in
/// `min..=max` (so leading blanks and a sign are accepted, as there).
fn c_strtol(s: &str) -> Option<i64> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: i64 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

fn parse_number(s: &str, min: u32, max: u32, what: &'static str) -> Result<u32, ArgsError> {
    match c_strtol(s) {
        Some(v) if v >= i64::from(min) && v <= i64::from(max) => Ok(v as u32),
        Some(_) => Err(ArgsError::Invalid {
            what,
            value: s.to_string(),
            reason: format!("is out of range {min}..{max}"),
        }),
        None => Err(ArgsError::Invalid {
            what,
            value: s.to_string(),
            reason: format!("is not an integer (expected {min}..{max})"),
        }),
    }
}

/// ipvsadm's `parse_timeout` (`-p` from 1, `--set` from 0, up to 31 days).
fn parse_timeout(s: &str, min: u32) -> Result<u32, ArgsError> {
    match c_strtol(s) {
        Some(v) if v >= i64::from(min) && v <= i64::from(MAX_TIMEOUT) => Ok(v as u32),
        _ => Err(ArgsError::Invalid {
            what: "invalid timeout value specified",
            value: s.to_string(),
            reason: format!("is not a number of seconds in {min}..{MAX_TIMEOUT}"),
        }),
    }
}

/// ipvsadm's `parse_sched_flags` for scheduler `sched`.
fn parse_sched_flags(sched: Scheduler, arg: &str) -> Result<SchedFlags, ArgsError> {
    let mut flags = SchedFlags::default();
    let invalid = |flag: &str, reason: String| ArgsError::Invalid {
        what: "invalid scheduler flag",
        value: flag.to_string(),
        reason,
    };
    let mut any = false;
    for flag in arg.split(',').filter(|f| !f.is_empty()) {
        any = true;
        let (bit, needs) = match flag {
            "flag-1" => (SchedFlags::FLAG1, None),
            "flag-2" => (SchedFlags::FLAG2, None),
            "flag-3" => (SchedFlags::FLAG3, None),
            "sh-fallback" => (SchedFlags::FLAG1, Some(Scheduler::Sh)),
            "sh-port" => (SchedFlags::FLAG2, Some(Scheduler::Sh)),
            "mh-fallback" => (SchedFlags::FLAG1, Some(Scheduler::Mh)),
            "mh-port" => (SchedFlags::FLAG2, Some(Scheduler::Mh)),
            _ => {
                return Err(invalid(
                    flag,
                    "is not one of sh-fallback, sh-port, mh-fallback, mh-port, flag-1, \
                     flag-2, flag-3"
                        .into(),
                ))
            }
        };
        if let Some(s) = needs {
            if s != sched {
                return Err(ArgsError::Invalid {
                    what: "incompatible scheduler flag",
                    value: flag.to_string(),
                    reason: format!("is for the {s} scheduler, not {sched}"),
                });
            }
        }
        flags = flags.union(bit);
    }
    if !any {
        return Err(invalid(arg, "names no flag".into()));
    }
    Ok(flags)
}

/// TCP service names accepted for ports (ipvsadm asks `getservbyname`).
const SERVICE_NAMES: &[(&str, u16)] = &[
    ("http", 80),
    ("www", 80),
    ("https", 443),
    ("http-alt", 8080),
    ("webcache", 8080),
];

/// ipvsadm's `parse_service` for IPv4: `address[:port]`, the port `None` when absent.
fn parse_addr_port(s: &str, what: &'static str) -> Result<(Ipv4Addr, Option<u16>), ArgsError> {
    let bad = |reason: String| ArgsError::Invalid {
        what,
        value: s.to_string(),
        reason,
    };
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("has no address (expected address[:port])".into()));
    }
    if s.starts_with('[') || s.parse::<Ipv6Addr>().is_ok() {
        return Err(bad("is IPv6; the card serves IPv4 only".into()));
    }
    let (host, port) = match s.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (s, None),
    };
    let ip = inet_aton(host).ok_or_else(|| {
        bad(format!(
            "has no IPv4 address: `{host}' is not one (host names are not resolved)"
        ))
    })?;
    let port = match port {
        None => None,
        Some(p) => Some(match c_strtol(p) {
            Some(n) if (0..=65_535).contains(&n) => n as u16,
            _ => SERVICE_NAMES
                .iter()
                .find(|(name, _)| *name == p)
                .map(|(_, n)| *n)
                .ok_or_else(|| {
                    bad(format!(
                        "has a bad port: `{p}' is neither 0..65535 nor one of http, www, \
                         https, http-alt, webcache"
                    ))
                })?,
        }),
    };
    Ok((ip, port))
}

/// `inet_aton(3)` as glibc implements it: one to four parts separated by dots, each decimal,
/// octal (leading 0) or hex (leading 0x); the last part fills the remaining bytes.
pub fn inet_aton(s: &str) -> Option<Ipv4Addr> {
    let mut parts: Vec<u64> = Vec::with_capacity(4);
    for part in s.split('.') {
        if parts.len() == 4 {
            return None;
        }
        parts.push(c_number_part(part)?);
    }
    let (last, head) = parts.split_last()?;
    if head.iter().any(|&p| p > 0xff) {
        return None;
    }
    let max: u64 = match head.len() {
        0 => 0xffff_ffff,
        1 => 0xff_ffff,
        2 => 0xffff,
        _ => 0xff,
    };
    if *last > max {
        return None;
    }
    let mut v: u64 = 0;
    for (i, p) in head.iter().enumerate() {
        v |= p << (24 - 8 * i);
    }
    Some(Ipv4Addr::from((v | last) as u32))
}

/// One part of an inet_aton address: `0x1f`, `017`, `31`.
fn c_number_part(p: &str) -> Option<u64> {
    if !p.bytes().next()?.is_ascii_digit() {
        return None;
    }
    let (digits, radix) = if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
        (h, 16)
    } else if p.len() > 1 && p.starts_with('0') {
        (&p[1..], 8)
    } else {
        (p, 10)
    };
    if digits.is_empty() || digits.len() > 12 {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

impl fmt::Display for IpvsCommand {
    /// The command as an ipvsadm argument list (what `-S` would print for it, for the
    /// commands `-S` prints; the others in the same style).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IpvsCommand::AddService(s) => write!(f, "-A {}", service_args(s)),
            IpvsCommand::EditService(s) => write!(f, "-E {}", service_args(s)),
            IpvsCommand::DeleteService(v) => write!(f, "-D -t {v}"),
            IpvsCommand::Clear => f.write_str("-C"),
            IpvsCommand::AddServer(s) => write!(f, "-a {}", server_args(s)),
            IpvsCommand::EditServer(s) => write!(f, "-e {}", server_args(s)),
            IpvsCommand::DeleteServer { service, server } => {
                write!(f, "-d -t {service} -r {server}")
            }
            IpvsCommand::List(o) => {
                f.write_str("-L")?;
                if let Some(s) = o.service {
                    write!(f, " -t {s}")?;
                }
                let flags = [
                    (o.numeric, " -n"),
                    (o.connections, " -c"),
                    (o.timeout, " --timeout"),
                    (o.stats, " --stats"),
                    (o.rate, " --rate"),
                    (o.exact, " --exact"),
                    (o.thresholds, " --thresholds"),
                    (o.persistent_conn, " --persistent-conn"),
                    (o.nosort, " --nosort"),
                    (o.json, " --json"),
                ];
                for (on, s) in flags {
                    if on {
                        f.write_str(s)?;
                    }
                }
                Ok(())
            }
            IpvsCommand::Zero(None) => f.write_str("-Z"),
            IpvsCommand::Zero(Some(s)) => write!(f, "-Z -t {s}"),
            IpvsCommand::Set(t) => write!(f, "--set {} {} {}", t.tcp, t.tcpfin, t.udp),
            IpvsCommand::Save { numeric } => f.write_str(if *numeric { "-S -n" } else { "-S" }),
            IpvsCommand::Restore => f.write_str("-R"),
            IpvsCommand::Help => f.write_str("-h"),
            IpvsCommand::Version => f.write_str("-v"),
        }
    }
}

/// `-t VIP -s sched [-p T [-M mask]] [-b flags]`, as ipvsadm's save format orders them.
pub(crate) fn service_args(s: &ServiceSpec) -> String {
    let mut out = format!("-t {} -s {}", s.vip, s.sched);
    if let Some(p) = s.persistent {
        out.push_str(&format!(" -p {}", p.timeout));
        if p.netmask != Ipv4Addr::BROADCAST {
            out.push_str(&format!(" -M {}", p.netmask));
        }
    }
    if !s.sched_flags.is_empty() {
        out.push_str(&format!(" -b {}", s.sched_flags.names(s.sched).join(",")));
    }
    out
}

/// `-t VIP -r RIP -m -w W [-x U] [-y L] [--mac M]`.
pub(crate) fn server_args(s: &ServerSpec) -> String {
    let mut out = format!("-t {} -r {} -m -w {}", s.service, s.server, s.weight);
    if s.upper != 0 {
        out.push_str(&format!(" -x {}", s.upper));
    }
    if s.lower != 0 {
        out.push_str(&format!(" -y {}", s.lower));
    }
    if let Some(m) = s.mac {
        out.push_str(&format!(" --mac {m}"));
    }
    out
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fuzz;
