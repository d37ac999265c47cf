//! keepalived-style configuration: parse a file into a [`Config`], check it, [`plan`] it
//! onto the card's tables and compile its URL rules into a [`RuleTable`].
//!
//! ```text
//! text --parse--> Config --plan(Limits)--> Plan { services, pools, rules: RuleTable }
//! ```
//!
//! A [`Config`] prints (`Display`) as a file in the same syntax, which reads back as the
//! same `Config` ([`Config::without_locations`] compares them without where things were
//! written).
//!
//! The grammar, defaults and error policy are described in `docs/config.md`. Every error
//! carries the [`Loc`] it is about; [`ConfigErrors`] prints them as
//! `file:line:col: error: message`, one per line. Parsing collects every error it can find
//! rather than stopping at the first.
//!
//! The reader has explicit limits ([`MAX_FILE_BYTES`], [`MAX_LINE_BYTES`], [`MAX_TOKENS`],
//! [`MAX_STATEMENTS`], [`MAX_DEPTH`], [`MAX_ERRORS`]): exceeding one is an error at the
//! place where it is exceeded, and its work is linear in the size of the file, whatever the
//! file holds (any bytes, not only UTF-8).

mod load;
pub mod model;
mod parser;
mod patterns;
mod plan;
mod print;
mod rules;
mod syntax;

use std::fmt;
use std::io::Read;
use std::path::Path;

pub use load::load_rule_table;
pub use model::{
    CheckCommon, Checker, Config, Feedback, HostMatch, HttpCheck, LoadInput, Loc, MiscCheck,
    PathMatch, Pool, Server, Service, ServiceKind, TcpCheck, Timeouts, UrlCheck, UrlRule,
    MAX_LINGER_SECS,
};
pub use plan::{plan, Limits, Plan, PlannedPool, PlannedServer, PlannedService};
pub use rules::{compile_rules, BlobError, CompiledRule, RuleChange, RuleTable, NO_POOL};

/// The largest file the reader reads, in bytes (1 MiB). A file with every card table full
/// (256 URL rules, 256 real servers with their checkers) and generous comments is about
/// 100 KiB, so a larger one is not a configuration someone wrote; the limit bounds the time
/// and memory a check takes. The bytes after it are not read (the last line that fits
/// whole is the last one read); the error points at the first byte past it.
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// The longest line, in bytes (4 KiB). No setting needs more (a pattern is at most 256
/// bytes, a `misc_path` command is a command line); a longer line is a damaged or binary
/// file. The line is still read, but a word or quoted string keeps only its first
/// `MAX_LINE_BYTES` characters, which bounds the size of every message that quotes one.
pub const MAX_LINE_BYTES: usize = 4096;

/// The most tokens (words, quoted strings, `{`, `}` and `;`) the reader takes from a file
/// (256 Ki). Written files have one token in 4 bytes (one-line `url_rule`s without
/// comments) to 10, so a file under [`MAX_FILE_BYTES`] rarely gets here; a file of
/// one-byte tokens does. It bounds the memory of the token list; the tokens after it are
/// not read.
pub const MAX_TOKENS: usize = 1 << 18;

/// The most statements (`KEYWORD VALUE... [{ ... }]`) in a file (128 Ki). A file with every
/// card table full has a few thousand; a file of one-line `url_rule`s at [`MAX_FILE_BYTES`]
/// has 80 Ki. It bounds the size of the statement tree; the statements after it are not
/// read.
pub const MAX_STATEMENTS: usize = 1 << 17;

/// The deepest nesting of blocks (16). The grammar needs 4 (`virtual_server` >
/// `real_server` > `HTTP_GET` > `url`). A block that would be deeper is reported at its `{`
/// and skipped up to its matching `}` without being built, so the statement tree never
/// gets deeper than this, and nothing that walks or drops it recurses deeper either;
/// reading goes on after it.
pub const MAX_DEPTH: usize = 16;

/// The most errors [`parse`] reports (1000), the first ones in file order. The whole file
/// is still checked; when there are more, the last error says how many were left out
/// (a binary file would otherwise give an error for nearly every line).
pub const MAX_ERRORS: usize = 1000;

/// One problem in a configuration, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// What the problem is about (line 0: the whole file, e.g. it cannot be read).
    pub loc: Loc,
    /// What is wrong, and when it helps, what to write instead.
    pub message: String,
}

impl ConfigError {
    /// An error at `loc`.
    pub fn new(loc: Loc, message: impl Into<String>) -> Self {
        Self {
            loc,
            message: message.into(),
        }
    }
}

/// Writes `file:line:col: KIND: message` (or `file: KIND: message` for line 0).
fn write_diag(f: &mut fmt::Formatter<'_>, loc: &Loc, kind: &str, message: &str) -> fmt::Result {
    if loc.line == 0 {
        write!(f, "{}: {kind}: {message}", loc.file)
    } else {
        write!(f, "{loc}: {kind}: {message}")
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_diag(f, &self.loc, "error", &self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Every error found in a configuration, in file order. Displayed one
/// `file:line:col: error: message` per line. Past [`MAX_ERRORS`] the list ends with a note
/// saying how many were left out (the second field; [`ConfigErrors::total`] counts them).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConfigErrors(pub Vec<ConfigError>, usize);

impl ConfigErrors {
    /// The errors.
    pub fn errors(&self) -> &[ConfigError] {
        &self.0
    }

    /// How many errors are listed (with the note on the left-out ones, if any).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// How many errors were found: the listed ones and those left out past
    /// [`MAX_ERRORS`] (the note on them is not one).
    pub fn total(&self) -> usize {
        self.0.len() + self.1 - usize::from(self.1 > 0)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sorts by file, line and column (stable: errors at one place keep their order).
    fn sort(&mut self) {
        self.0.sort_by(|a, b| {
            (&a.loc.file, a.loc.line, a.loc.col).cmp(&(&b.loc.file, b.loc.line, b.loc.col))
        });
    }

    /// Keeps the first `max` errors (after [`Self::sort`]) and, when some are left out
    /// (including the `unshown` ones, which come after at least `max` of them), adds one at
    /// the first left-out place saying how many.
    fn cap(&mut self, max: usize, unshown: syntax::Unshown) {
        let total = self.0.len() + unshown.count;
        if total > max {
            let left_out = total - max;
            let place = |l: &Loc| (l.line, l.col);
            let loc = match (self.0.get(max), unshown.first) {
                (Some(e), Some(u)) if place(&u) < place(&e.loc) => u,
                (Some(e), _) => e.loc.clone(),
                (None, Some(u)) => u,
                // Not reached: more than `max` means one of them is there.
                (None, None) => return,
            };
            self.0.truncate(max);
            self.1 = left_out;
            self.0.push(ConfigError::new(
                loc,
                format!(
                    "{left_out} more error{} from here on not shown (at most {max} are \
                     reported, the limit)",
                    if left_out == 1 { "" } else { "s" }
                ),
            ));
        }
    }

    /// `Ok(value)` when there are no errors.
    fn into_result<T>(mut self, value: T) -> Result<T, ConfigErrors> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            self.sort();
            Err(self)
        }
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}

impl From<ConfigError> for ConfigErrors {
    fn from(e: ConfigError) -> Self {
        ConfigErrors(vec![e], 0)
    }
}

/// Something legal but probably not meant (an unused pool, say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigWarning {
    /// What it is about.
    pub loc: Loc,
    /// The remark.
    pub message: String,
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_diag(f, &self.loc, "warning", &self.message)
    }
}

/// Parses and checks a configuration. `file_name` is used in the locations of the result
/// and of the errors.
///
/// Besides the syntax this checks everything that can be decided from the file alone
/// (value ranges, duplicates, references to pools); what depends on the card's capacity is
/// checked by [`plan`].
pub fn parse(file_name: &str, text: &str) -> Result<Config, ConfigErrors> {
    parse_bytes(file_name, text.as_bytes())
}

/// [`parse`] for bytes that may not be UTF-8 (a file as read). Each invalid UTF-8 sequence
/// is an error at its line and column; it reads as U+FFFD and the rest of the file is
/// checked as usual.
pub fn parse_bytes(file_name: &str, bytes: &[u8]) -> Result<Config, ConfigErrors> {
    let mut errors = Vec::new();
    let tree = syntax::parse_tree(file_name, bytes, &mut errors);
    let config = parser::interpret(&tree.stmts, tree.complete, bytes.len(), &mut errors);
    let mut errors = ConfigErrors(errors, 0);
    errors.sort();
    errors.cap(MAX_ERRORS, tree.unshown);
    errors.into_result(config)
}

/// Reads and parses the file at `path` (see [`parse_bytes`]); at most [`MAX_FILE_BYTES`]
/// (and one more byte, to tell that there are more) are read. A file that cannot be read is
/// one error naming the path (line 0).
pub fn load(path: &Path) -> Result<Config, ConfigErrors> {
    let name = path.display().to_string();
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| {
        f.take(
            u64::try_from(MAX_FILE_BYTES)
                .unwrap_or(u64::MAX)
                .saturating_add(1),
        )
        .read_to_end(&mut bytes)
    });
    match read {
        Ok(_) => parse_bytes(&name, &bytes),
        Err(e) => Err(ConfigError::new(
            Loc {
                file: name,
                line: 0,
                col: 0,
            },
            format!("cannot read the configuration: {e}"),
        )
        .into()),
    }
}
