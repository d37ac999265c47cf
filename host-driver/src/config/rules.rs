//! URL rules compiled for the card's L7 rule table, their stored form and their diff.
//!
//! Precedence: the matching rule with the lowest priority number wins; among equal
//! priorities the lower rule index, which is the declaration order (first match wins). The
//! card breaks ties the same way, so rule `i` is loaded at index `i` with rule id `i`.

use std::collections::HashMap;
use std::fmt;

use super::model::{HostMatch, Loc, PathMatch, UrlRule};
use super::patterns::{check_host, check_path};
use super::plan::Limits;
use super::print::quote;
use super::{ConfigError, ConfigErrors};
use crate::datapath::{HostKind, L7Rule, PathKind};

/// `RuleTable::default_pool` when no virtual service uses the rules.
pub const NO_POOL: u16 = u16::MAX;

/// The rule-bank word map holds at most 0x40 words (256 bytes) per pattern.
const WORD_MAP_PAT_MAX: usize = 256;

/// One rule as loaded on the card, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledRule {
    /// The rule words' content. `rule_id` is the rule's index (saturating at 65535 in
    /// tables larger than the 16-bit id space, which no card bank reaches).
    pub rule: L7Rule,
    /// `url_rule NAME` (`None` for an unnamed rule).
    pub name: Option<String>,
    /// Name of the target pool (`rule.pool` is its index).
    pub pool: String,
    /// The `url_rule` it comes from.
    pub loc: Loc,
}

impl CompiledRule {
    /// `rule NAME` or `rule #INDEX`.
    fn label(&self, index: usize) -> String {
        match &self.name {
            Some(n) => format!("rule {n}"),
            None => format!("rule #{index}"),
        }
    }

    /// `host H path_prefix P priority N -> pool NAME`.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if let Some(h) = host_text(&self.rule) {
            parts.push(format!("host {}", quote(&h)));
        }
        if let Some((kw, p)) = path_text(&self.rule) {
            parts.push(format!("{kw} {}", quote(&p)));
        }
        parts.push(format!("priority {}", self.rule.priority));
        format!("{} -> pool {}", parts.join(" "), quote(&self.pool))
    }

    /// Same match and target (ignores the index and the pool index).
    fn same_effect(&self, other: &CompiledRule) -> bool {
        let (a, b) = (&self.rule, &other.rule);
        a.priority == b.priority
            && a.path_kind == b.path_kind
            && a.path == b.path
            && a.host_kind == b.host_kind
            && a.host == b.host
            && self.pool == other.pool
    }
}

/// The card's rule table: rules in index order and the default pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleTable {
    pub rules: Vec<CompiledRule>,
    /// Pool index for requests no rule matches ([`NO_POOL`]: none).
    pub default_pool: u16,
    /// Name of the default pool.
    pub default_pool_name: Option<String>,
}

impl Default for RuleTable {
    /// No rules, no default pool.
    fn default() -> Self {
        Self {
            rules: Vec::new(),
            default_pool: NO_POOL,
            default_pool_name: None,
        }
    }
}

fn host_text(r: &L7Rule) -> Option<String> {
    let h = String::from_utf8_lossy(&r.host);
    match r.host_kind {
        HostKind::Any => None,
        HostKind::Exact => Some(h.into_owned()),
        HostKind::Suffix => Some(format!("*{h}")),
        HostKind::Never => Some("(never)".into()),
    }
}

fn path_text(r: &L7Rule) -> Option<(&'static str, String)> {
    let p = String::from_utf8_lossy(&r.path).into_owned();
    match r.path_kind {
        PathKind::Any => None,
        PathKind::Exact => Some(("path", p)),
        PathKind::Prefix => Some(("path_prefix", p)),
        PathKind::Never => Some(("path", "(never)".into())),
    }
}

/// Compiles URL rules for the rule table: rule `i` gets index and rule id `i` and its
/// pool's index from `pools`. Checks the patterns, the table size (`limits.rules`) and the
/// pattern length (`limits.pat_max`); pass `usize::MAX` as `limits.rules` to compile
/// tables of any size. The default pool is left unset ([`NO_POOL`]).
pub fn compile_rules(
    rules: &[UrlRule],
    pools: &HashMap<String, u16>,
    limits: &Limits,
) -> Result<RuleTable, ConfigErrors> {
    let mut errors = Vec::new();
    if rules.len() > limits.rules {
        errors.push(ConfigError::new(
            rules[limits.rules].loc.clone(),
            format!(
                "the rule set has {} rules; the card's table holds {} per bank",
                rules.len(),
                limits.rules
            ),
        ));
    }
    let pat_max = limits.pat_max.min(WORD_MAP_PAT_MAX);
    let mut out = Vec::with_capacity(rules.len());
    for (i, r) in rules.iter().enumerate() {
        let before = errors.len();
        for e in [check_host(&r.host), check_path(&r.path)] {
            if let Err(m) = e {
                errors.push(ConfigError::new(r.loc.clone(), m));
            }
        }
        if r.host == HostMatch::Any && r.path == PathMatch::Any {
            errors.push(ConfigError::new(
                r.loc.clone(),
                "url_rule has no `host` and no `path`: it matches everything, use \
                 `default_pool` in the virtual_server instead",
            ));
        }
        let (host_kind, host) = match &r.host {
            HostMatch::Any => (HostKind::Any, Vec::new()),
            HostMatch::Exact(h) => (HostKind::Exact, h.to_ascii_lowercase().into_bytes()),
            HostMatch::Suffix(h) => (HostKind::Suffix, h.to_ascii_lowercase().into_bytes()),
        };
        let (path_kind, path) = match &r.path {
            PathMatch::Any => (PathKind::Any, Vec::new()),
            PathMatch::Exact(p) => (PathKind::Exact, p.clone().into_bytes()),
            PathMatch::Prefix(p) => (PathKind::Prefix, p.clone().into_bytes()),
        };
        for (what, len) in [("host", host.len()), ("path", path.len())] {
            if len > pat_max {
                errors.push(ConfigError::new(
                    r.loc.clone(),
                    format!("{what} pattern of {len} bytes; the card matches at most {pat_max}"),
                ));
            }
        }
        let pool = match pools.get(&r.pool) {
            Some(&p) => p,
            None => {
                errors.push(ConfigError::new(
                    r.pool_loc.clone(),
                    format!(
                        "url_rule points at pool `{}`, which is not declared",
                        r.pool
                    ),
                ));
                NO_POOL
            }
        };
        if errors.len() != before {
            continue;
        }
        out.push(CompiledRule {
            rule: L7Rule {
                priority: r.priority,
                path_kind,
                path,
                host_kind,
                host,
                rule_id: u16::try_from(i).unwrap_or(u16::MAX),
                pool,
            },
            name: r.name.clone(),
            pool: r.pool.clone(),
            loc: r.loc.clone(),
        });
    }
    ConfigErrors(errors, 0).into_result(RuleTable {
        rules: out,
        ..RuleTable::default()
    })
}

impl fmt::Display for RuleTable {
    /// The rules in configuration syntax, one `url_rule` per line, after a comment naming
    /// the default pool.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.default_pool_name {
            Some(n) => writeln!(
                f,
                "# default_pool {} (pool {})",
                quote(n),
                self.default_pool
            )?,
            None if self.default_pool == NO_POOL => writeln!(f, "# no default_pool")?,
            None => writeln!(f, "# default_pool is pool {}", self.default_pool)?,
        }
        if self.rules.is_empty() {
            writeln!(f, "# no url_rules")?;
        }
        for r in &self.rules {
            write!(f, "url_rule ")?;
            if let Some(n) = &r.name {
                write!(f, "{} ", quote(n))?;
            }
            write!(f, "{{ ")?;
            if let Some(h) = host_text(&r.rule) {
                write!(f, "host {}; ", quote(&h))?;
            }
            if let Some((kw, p)) = path_text(&r.rule) {
                write!(f, "{kw} {}; ", quote(&p))?;
            }
            writeln!(
                f,
                "priority {}; pool {} }}",
                r.rule.priority,
                quote(&r.pool)
            )?;
        }
        Ok(())
    }
}

// ----- diff ------------------------------------------------------------------------------

/// One difference between two rule tables (see [`RuleTable::diff`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleChange {
    /// A rule only in the new table, with its index there.
    Added { index: usize, rule: CompiledRule },
    /// A rule only in the old table, with its index there.
    Removed { index: usize, rule: CompiledRule },
    /// A rule in both whose match, priority or pool changed.
    Changed {
        index: usize,
        old: CompiledRule,
        new: CompiledRule,
    },
    /// A rule in both, unchanged, that now comes before a rule of equal priority it used to
    /// follow (which changes which of the two wins).
    Moved {
        old_index: usize,
        index: usize,
        rule: CompiledRule,
    },
    /// The default pool changed.
    DefaultPool {
        old: Option<String>,
        new: Option<String>,
    },
}

impl fmt::Display for RuleChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleChange::Added { index, rule } => {
                write!(f, "+ {}: {}", rule.label(*index), rule.summary())
            }
            RuleChange::Removed { index, rule } => {
                write!(f, "- {}: {}", rule.label(*index), rule.summary())
            }
            RuleChange::Changed { index, old, new } => write!(
                f,
                "~ {}: {} (was: {})",
                new.label(*index),
                new.summary(),
                old.summary()
            ),
            RuleChange::Moved {
                old_index,
                index,
                rule,
            } => write!(
                f,
                "~ {}: {} (moved from #{old_index} to #{index}, ahead of a rule of equal \
                 priority)",
                rule.label(*index),
                rule.summary()
            ),
            RuleChange::DefaultPool { old, new } => {
                let show = |p: &Option<String>| p.clone().unwrap_or_else(|| "(none)".into());
                write!(f, "~ default_pool {} -> {}", show(old), show(new))
            }
        }
    }
}

impl RuleTable {
    /// What changes from `self` to `new`. Named rules are matched by name, unnamed ones by
    /// position among the unnamed rules. Order: the default pool, then added, changed and
    /// moved rules in the new table's order, then removed rules in the old table's order.
    pub fn diff(&self, new: &RuleTable) -> Vec<RuleChange> {
        let mut out = Vec::new();
        if self.default_pool_name != new.default_pool_name {
            out.push(RuleChange::DefaultPool {
                old: self.default_pool_name.clone(),
                new: new.default_pool_name.clone(),
            });
        }
        let key_of = |t: &RuleTable| -> HashMap<Key, usize> {
            let mut unnamed = 0;
            let mut m = HashMap::new();
            for (i, r) in t.rules.iter().enumerate() {
                let k = match &r.name {
                    Some(n) => Key::Named(n.clone()),
                    None => {
                        unnamed += 1;
                        Key::Unnamed(unnamed - 1)
                    }
                };
                m.entry(k).or_insert(i);
            }
            m
        };
        let old_keys = key_of(self);
        let new_keys = key_of(new);
        let mut inv: Vec<(Key, usize)> = new_keys.into_iter().collect();
        inv.sort_by_key(|(_, i)| *i);
        // Unchanged pairs (new index, old index) per priority, to find reorders.
        let mut same: HashMap<u16, Vec<(usize, usize)>> = HashMap::new();
        let mut matched_old = vec![false; self.rules.len()];
        let mut changes = Vec::new();
        for (k, ni) in &inv {
            let nr = &new.rules[*ni];
            match old_keys.get(k) {
                None => changes.push((
                    *ni,
                    RuleChange::Added {
                        index: *ni,
                        rule: nr.clone(),
                    },
                )),
                Some(&oi) => {
                    matched_old[oi] = true;
                    let or = &self.rules[oi];
                    if or.same_effect(nr) {
                        same.entry(nr.rule.priority).or_default().push((*ni, oi));
                    } else {
                        changes.push((
                            *ni,
                            RuleChange::Changed {
                                index: *ni,
                                old: or.clone(),
                                new: nr.clone(),
                            },
                        ));
                    }
                }
            }
        }
        for pairs in same.values_mut() {
            pairs.sort_unstable();
            // Walking from the end of the new order: a rule whose old index is above that of
            // a rule now after it moved ahead of that rule.
            let mut min_old_after = usize::MAX;
            for &(ni, oi) in pairs.iter().rev() {
                if oi > min_old_after {
                    changes.push((
                        ni,
                        RuleChange::Moved {
                            old_index: oi,
                            index: ni,
                            rule: new.rules[ni].clone(),
                        },
                    ));
                }
                min_old_after = min_old_after.min(oi);
            }
        }
        changes.sort_by_key(|(i, _)| *i);
        out.extend(changes.into_iter().map(|(_, c)| c));
        for (oi, r) in self.rules.iter().enumerate() {
            if !matched_old[oi] {
                out.push(RuleChange::Removed {
                    index: oi,
                    rule: r.clone(),
                });
            }
        }
        out
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Named(String),
    Unnamed(usize),
}

// ----- stored form -----------------------------------------------------------------------

/// A stored rule table that cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobError {
    /// It does not start with the rule-table magic.
    #[error("not a stored rule table (bad magic)")]
    BadMagic,
    /// Written by a newer format.
    #[error(
        "stored rule table version {0} is not supported (this driver reads version {VERSION})"
    )]
    Version(u16),
    /// Shorter than it says.
    #[error("stored rule table is truncated: {len} bytes, {needed} needed")]
    Truncated { len: usize, needed: usize },
    /// Longer than it says.
    #[error("stored rule table has {0} bytes after its end")]
    Trailing(usize),
    /// The checksum does not match the content.
    #[error(
        "stored rule table is corrupt: checksum {stored:#010x}, content gives {computed:#010x}"
    )]
    Checksum { stored: u32, computed: u32 },
    /// A field holds an impossible value.
    #[error("stored rule table is corrupt at byte {offset}: {what}")]
    Corrupt { offset: usize, what: &'static str },
}

const MAGIC: [u8; 4] = *b"SNRT";
const VERSION: u16 = 1;
/// Magic, version, flags, total length.
const HEADER: usize = 4 + 2 + 2 + 4;
/// Fixed bytes of a rule before its variable-length fields.
const RULE_MIN: usize = 2 + 2 + 2 + 1 + 1 + 6;

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Blob writer: little-endian fixed fields, LEB128 lengths and counts.
struct W(Vec<u8>);

impl W {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn var(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return;
            }
            self.0.push(b | 0x80);
        }
    }
    fn bytes(&mut self, b: &[u8]) {
        self.var(b.len() as u64);
        self.0.extend_from_slice(b);
    }
}

/// A table of distinct strings (file names, pool names), referred to by index.
#[derive(Default)]
struct Strings<'a> {
    list: Vec<&'a str>,
    index: HashMap<&'a str, u64>,
}

impl<'a> Strings<'a> {
    fn add(&mut self, s: &'a str) -> u64 {
        let next = self.list.len() as u64;
        *self.index.entry(s).or_insert_with(|| {
            self.list.push(s);
            next
        })
    }
}

/// Blob reader; every read checks the length.
struct R<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> R<'a> {
    fn corrupt(&self, what: &'static str) -> BlobError {
        BlobError::Corrupt {
            offset: self.pos,
            what,
        }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], BlobError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        match end {
            Some(end) => {
                let s = &self.data[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(self.corrupt("a field runs past the end")),
        }
    }
    fn u8(&mut self) -> Result<u8, BlobError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, BlobError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, BlobError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn var(&mut self) -> Result<u64, BlobError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.corrupt("number too long"))
    }
    fn var_u32(&mut self) -> Result<u32, BlobError> {
        let v = self.var()?;
        u32::try_from(v).map_err(|_| self.corrupt("number out of range"))
    }
    fn len(&mut self) -> Result<usize, BlobError> {
        let v = self.var()?;
        usize::try_from(v)
            .ok()
            .filter(|&n| n <= self.data.len() - self.pos)
            .ok_or_else(|| self.corrupt("a length runs past the end"))
    }
    fn bytes(&mut self) -> Result<Vec<u8>, BlobError> {
        let n = self.len()?;
        Ok(self.take(n)?.to_vec())
    }
    fn string(&mut self, what: &'static str) -> Result<String, BlobError> {
        let at = self.pos;
        String::from_utf8(self.bytes()?).map_err(|_| BlobError::Corrupt { offset: at, what })
    }
    fn index<'t>(
        &mut self,
        table: &'t [String],
        what: &'static str,
    ) -> Result<&'t String, BlobError> {
        let at = self.pos;
        let i = self.var()?;
        usize::try_from(i)
            .ok()
            .and_then(|i| table.get(i))
            .ok_or(BlobError::Corrupt { offset: at, what })
    }
}

impl RuleTable {
    /// The stored form (what `nicctl` keeps on the card to show the loaded rules): magic
    /// `SNRT`, version, flags, total length, the default pool, a table of the file and pool
    /// names, the rules (priority, rule id, pool index, kinds, patterns, pool name, rule
    /// name, source line and column) and a CRC-32 of everything before it. Fixed fields
    /// are little-endian; lengths, counts and table indices are LEB128.
    pub fn to_blob(&self) -> Vec<u8> {
        let mut strings = Strings::default();
        let refs: Vec<(u64, u64)> = self
            .rules
            .iter()
            .map(|r| (strings.add(&r.loc.file), strings.add(&r.pool)))
            .collect();
        let mut w = W(Vec::new());
        w.0.extend_from_slice(&MAGIC);
        w.u16(VERSION);
        w.u16(u16::from(self.default_pool_name.is_some()));
        w.u32(0); // total length, filled in below
        w.u16(self.default_pool);
        w.bytes(self.default_pool_name.as_deref().unwrap_or("").as_bytes());
        w.var(strings.list.len() as u64);
        for s in &strings.list {
            w.bytes(s.as_bytes());
        }
        w.var(self.rules.len() as u64);
        for (r, (file, pool)) in self.rules.iter().zip(refs) {
            w.u16(r.rule.priority);
            w.u16(r.rule.rule_id);
            w.u16(r.rule.pool);
            w.u8(r.rule.path_kind.raw() | r.rule.host_kind.raw() << 4);
            w.u8(u8::from(r.name.is_some()));
            w.bytes(&r.rule.path);
            w.bytes(&r.rule.host);
            w.var(pool);
            if let Some(n) = &r.name {
                w.bytes(n.as_bytes());
            }
            w.var(file);
            w.var(r.loc.line.into());
            w.var(r.loc.col.into());
        }
        let total = u32::try_from(w.0.len() + 4).unwrap_or(u32::MAX);
        w.0[8..12].copy_from_slice(&total.to_le_bytes());
        let crc = crc32(&w.0);
        w.u32(crc);
        w.0
    }

    /// Reads [`RuleTable::to_blob`]'s form back; truncated or corrupt input is an error.
    pub fn from_blob(data: &[u8]) -> Result<RuleTable, BlobError> {
        if data.len() < HEADER {
            if !MAGIC.starts_with(&data[..data.len().min(4)]) {
                return Err(BlobError::BadMagic);
            }
            return Err(BlobError::Truncated {
                len: data.len(),
                needed: HEADER,
            });
        }
        if data[..4] != MAGIC {
            return Err(BlobError::BadMagic);
        }
        let mut r = R { data, pos: 4 };
        let version = r.u16()?;
        if version != VERSION {
            return Err(BlobError::Version(version));
        }
        let flags = r.u16()?;
        if flags > 1 {
            return Err(BlobError::Corrupt {
                offset: 6,
                what: "unknown flags",
            });
        }
        let total = r.u32()? as usize;
        if total < HEADER + 4 {
            return Err(BlobError::Corrupt {
                offset: 8,
                what: "total length is below the header size",
            });
        }
        if data.len() < total {
            return Err(BlobError::Truncated {
                len: data.len(),
                needed: total,
            });
        }
        if data.len() > total {
            return Err(BlobError::Trailing(data.len() - total));
        }
        let (body, tail) = data.split_at(total - 4);
        let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        let computed = crc32(body);
        if stored != computed {
            return Err(BlobError::Checksum { stored, computed });
        }
        let mut r = R {
            data: body,
            pos: HEADER,
        };
        let default_pool = r.u16()?;
        let dname = r.string("default pool name is not UTF-8")?;
        let default_pool_name = (flags & 1 != 0).then_some(dname);
        let nstrings = r.len()?;
        let mut strings = Vec::with_capacity(nstrings);
        for _ in 0..nstrings {
            strings.push(r.string("a name is not UTF-8")?);
        }
        let nrules = r.var()?;
        let left = (body.len() - r.pos) / RULE_MIN;
        let nrules = usize::try_from(nrules)
            .ok()
            .filter(|&n| n <= left)
            .ok_or_else(|| r.corrupt("more rules than bytes"))?;
        let mut rules = Vec::with_capacity(nrules);
        for _ in 0..nrules {
            let priority = r.u16()?;
            let rule_id = r.u16()?;
            let pool = r.u16()?;
            let at = r.pos;
            let kinds = r.u8()?;
            let path_kind = match kinds & 0x0f {
                0 => PathKind::Any,
                1 => PathKind::Exact,
                2 => PathKind::Prefix,
                3 => PathKind::Never,
                _ => {
                    return Err(BlobError::Corrupt {
                        offset: at,
                        what: "unknown path kind",
                    })
                }
            };
            let host_kind = match kinds >> 4 {
                0 => HostKind::Any,
                1 => HostKind::Exact,
                2 => HostKind::Suffix,
                3 => HostKind::Never,
                _ => {
                    return Err(BlobError::Corrupt {
                        offset: at,
                        what: "unknown host kind",
                    })
                }
            };
            let named = match r.u8()? {
                0 => false,
                1 => true,
                _ => {
                    return Err(BlobError::Corrupt {
                        offset: at + 1,
                        what: "bad rule flags",
                    })
                }
            };
            let path = r.bytes()?;
            let host = r.bytes()?;
            let pool_name = r.index(&strings, "pool name index out of range")?.clone();
            let name = if named {
                Some(r.string("rule name is not UTF-8")?)
            } else {
                None
            };
            let file = r.index(&strings, "file name index out of range")?.clone();
            let line = r.var_u32()?;
            let col = r.var_u32()?;
            rules.push(CompiledRule {
                rule: L7Rule {
                    priority,
                    path_kind,
                    path,
                    host_kind,
                    host,
                    rule_id,
                    pool,
                },
                name,
                pool: pool_name,
                loc: Loc { file, line, col },
            });
        }
        if r.pos != body.len() {
            return Err(r.corrupt("bytes left after the last rule"));
        }
        Ok(RuleTable {
            rules,
            default_pool,
            default_pool_name,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(
        name: Option<&str>,
        host: HostMatch,
        path: PathMatch,
        prio: u16,
        pool: &str,
    ) -> UrlRule {
        UrlRule {
            loc: Loc {
                file: "t.conf".into(),
                line: 3,
                col: 1,
            },
            name: name.map(Into::into),
            host,
            path,
            priority: prio,
            pool: pool.into(),
            pool_loc: Loc::default(),
        }
    }

    fn pools() -> HashMap<String, u16> {
        [("web", 0), ("api", 1), ("static", 2)]
            .into_iter()
            .map(|(n, i)| (n.to_string(), i))
            .collect()
    }

    fn table() -> RuleTable {
        let rules = vec![
            rule(
                Some("api"),
                HostMatch::Exact("api.example.com".into()),
                PathMatch::Prefix("/v1/".into()),
                10,
                "api",
            ),
            rule(
                None,
                HostMatch::Suffix(".example.com".into()),
                PathMatch::Any,
                100,
                "static",
            ),
            rule(
                Some("odd \"name"),
                HostMatch::Any,
                PathMatch::Exact("/a;b".into()),
                5,
                "web",
            ),
        ];
        let mut t = compile_rules(&rules, &pools(), &Limits::card_default()).unwrap();
        t.default_pool = 0;
        t.default_pool_name = Some("web".into());
        t
    }

    #[test]
    fn compiles_in_declaration_order() {
        let t = table();
        assert_eq!(t.rules.len(), 3);
        assert_eq!(t.rules[0].rule.rule_id, 0);
        assert_eq!(t.rules[1].rule.rule_id, 1);
        assert_eq!(t.rules[1].rule.host_kind, HostKind::Suffix);
        assert_eq!(t.rules[1].rule.host, b".example.com");
        assert_eq!(t.rules[1].rule.pool, 2);
        assert_eq!(t.rules[0].rule.path_kind, PathKind::Prefix);
    }

    #[test]
    fn blob_round_trips() {
        let t = table();
        let b = t.to_blob();
        assert_eq!(RuleTable::from_blob(&b).unwrap(), t);
        let empty = RuleTable::default();
        assert_eq!(RuleTable::from_blob(&empty.to_blob()).unwrap(), empty);
    }

    #[test]
    fn truncated_blob_is_refused_at_every_length() {
        let b = table().to_blob();
        for n in 0..b.len() {
            let e = RuleTable::from_blob(&b[..n]);
            assert!(e.is_err(), "length {n} accepted");
        }
        let mut long = b.clone();
        long.push(0);
        assert_eq!(RuleTable::from_blob(&long), Err(BlobError::Trailing(1)));
    }

    #[test]
    fn corrupt_blob_is_refused() {
        let b = table().to_blob();
        for i in 0..b.len() {
            for bit in [0x01u8, 0x80] {
                let mut c = b.clone();
                c[i] ^= bit;
                assert!(RuleTable::from_blob(&c).is_err(), "flip at {i} accepted");
            }
        }
        assert_eq!(
            RuleTable::from_blob(b"XXXXXXXXXXXXXXXXXX"),
            Err(BlobError::BadMagic)
        );
        let mut v = b.clone();
        v[4] = 9;
        assert_eq!(RuleTable::from_blob(&v), Err(BlobError::Version(9)));
    }

    #[test]
    fn forged_counts_do_not_allocate_or_panic() {
        // Well-formed frames (right length and checksum) around absurd counts.
        let frame = |body: &dyn Fn(&mut W)| {
            let mut w = W(Vec::new());
            w.0.extend_from_slice(&MAGIC);
            w.u16(VERSION);
            w.u16(0);
            w.u32(0);
            w.u16(0);
            w.bytes(b"");
            body(&mut w);
            let total = (w.0.len() + 4) as u32;
            w.0[8..12].copy_from_slice(&total.to_le_bytes());
            let crc = crc32(&w.0);
            w.u32(crc);
            w.0
        };
        let many_rules = frame(&|w| {
            w.var(0);
            w.var(u64::MAX);
            w.u16(1);
        });
        let many_strings = frame(&|w| w.var(1 << 40));
        let long_varint = frame(&|w| w.0.extend_from_slice(&[0xff; 11]));
        let bad_index = frame(&|w| {
            w.var(0);
            w.var(1);
            w.0.extend_from_slice(&[0; 8]);
            w.bytes(b"/");
            w.bytes(b"");
            w.var(3);
            w.var(0);
            w.var(1);
            w.var(1);
        });
        for b in [many_rules, many_strings, long_varint, bad_index] {
            assert!(
                matches!(RuleTable::from_blob(&b), Err(BlobError::Corrupt { .. })),
                "{:?}",
                RuleTable::from_blob(&b)
            );
        }
    }

    #[test]
    fn a_full_bank_fits_the_card_record() {
        let rules: Vec<UrlRule> = (0..64)
            .map(|i| {
                rule(
                    Some(&format!("rule-number-{i}")),
                    HostMatch::Exact(format!("{}.example.com", "h".repeat(40))),
                    PathMatch::Prefix(format!("/{}", "p".repeat(63))),
                    i,
                    "static",
                )
            })
            .collect();
        let t = compile_rules(&rules, &pools(), &Limits::card_default()).unwrap();
        assert!(t.to_blob().len() <= crate::flowmgr::RULESET_RECORD_MAX);
    }

    #[test]
    fn display_prints_config_syntax() {
        let s = table().to_string();
        assert_eq!(
            s,
            "# default_pool web (pool 0)\n\
             url_rule api { host api.example.com; path_prefix /v1/; priority 10; pool api }\n\
             url_rule { host *.example.com; priority 100; pool static }\n\
             url_rule \"odd \\\"name\" { path \"/a;b\"; priority 5; pool web }\n"
        );
    }
}
