//! keepalived-style configuration: parse a file into a [`Config`], check it, [`plan`] it
//! onto the card's tables and compile its URL rules into a [`RuleTable`].
//!
//! ```text
//! text --parse--> Config --plan(Limits)--> Plan { services, pools, rules: RuleTable }
//! ```
//!
//! The grammar, defaults and error policy are described in `docs/config.md`. Every error
//! carries the [`Loc`] it is about; [`ConfigErrors`] prints them as
//! `file:line:col: error: message`, one per line. Parsing collects every error it can find
//! rather than stopping at the first.

mod load;
pub mod model;
mod parser;
mod patterns;
mod plan;
mod rules;
mod syntax;

use std::fmt;
use std::path::Path;

pub use load::load_rule_table;
pub use model::{
    CheckCommon, Checker, Config, Feedback, HostMatch, HttpCheck, LoadInput, Loc, MiscCheck,
    PathMatch, Pool, Server, Service, ServiceKind, TcpCheck, Timeouts, UrlCheck, UrlRule,
};
pub use plan::{plan, Limits, Plan, PlannedPool, PlannedServer, PlannedService};
pub use rules::{compile_rules, BlobError, CompiledRule, RuleChange, RuleTable, NO_POOL};

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
/// `file:line:col: error: message` per line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl ConfigErrors {
    /// The errors.
    pub fn errors(&self) -> &[ConfigError] {
        &self.0
    }

    /// How many errors there are.
    pub fn len(&self) -> usize {
        self.0.len()
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
        ConfigErrors(vec![e])
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
    let mut errors = Vec::new();
    let tree = syntax::parse_tree(file_name, text, &mut errors);
    let config = parser::interpret(&tree, &mut errors);
    ConfigErrors(errors).into_result(config)
}

/// Reads and parses the file at `path` (see [`parse`]). A file that cannot be read is one
/// error naming the path.
pub fn load(path: &Path) -> Result<Config, ConfigErrors> {
    let name = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&name, &text),
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
