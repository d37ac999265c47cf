//! Tokens and the statement tree of a keepalived-style file.
//!
//! The lexer splits the text into words, quoted strings, `{`, `}` and statement ends (end
//! of line or `;`); comments (`#` or `!` where a token would start) run to the end of the
//! line. The tree builder groups tokens into statements (`KEYWORD VALUE... [{ ... }]`) and
//! blocks, reporting unbalanced braces. What the keywords mean is decided in
//! [`super::parser`].
//!
//! The input is bytes: each line is decoded on its own, an invalid UTF-8 sequence is an
//! error at its place and reads as U+FFFD. The limits of [`super`] (`MAX_FILE_BYTES`,
//! `MAX_LINE_BYTES`, `MAX_TOKENS`, `MAX_STATEMENTS`, `MAX_DEPTH`) are enforced here; every
//! loop is over the bytes or tokens once, and nothing recurses.

use std::borrow::Cow;

use super::model::Loc;
use super::{
    ConfigError, MAX_DEPTH, MAX_ERRORS, MAX_FILE_BYTES, MAX_LINE_BYTES, MAX_STATEMENTS, MAX_TOKENS,
};

/// A word or quoted string with its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tok {
    pub text: String,
    pub quoted: bool,
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Value(Tok),
    Open(Loc),
    Close(Loc),
    /// End of line (`true`) or `;` (`false`).
    End(bool),
}

/// One statement: a keyword, its values and maybe a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stmt {
    pub kw: Tok,
    pub args: Vec<Tok>,
    pub block: Option<Block>,
}

/// A `{ ... }` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    /// Location of the `{`.
    pub open: Loc,
    pub stmts: Vec<Stmt>,
}

/// Keywords that only ever start a top-level block. Seeing one of them with a block inside
/// another block means a `}` is missing before it.
const TOP_LEVEL_BLOCKS: &[&str] = &[
    "global_defs",
    "virtual_server",
    "virtual_server_group",
    "url_rule",
    "pool",
    "vrrp_instance",
    "vrrp_sync_group",
    "vrrp_script",
];

/// Lexical errors that were counted but not made (see [`LexErrors`]).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Unshown {
    pub count: usize,
    /// The first of them.
    pub first: Option<Loc>,
}

/// Where the lexer reports. Once it has made [`MAX_ERRORS`] errors, an error after all of
/// them cannot be among the errors shown (at least that many come before it): such errors
/// are only counted. The lexer finds errors line by line, nearly in file order, so nearly
/// all errors past the first [`MAX_ERRORS`] are only counted (a binary file has an invalid
/// UTF-8 sequence every few bytes, and making each message would be most of the work).
struct LexErrors<'e> {
    file: &'e str,
    errors: &'e mut Vec<ConfigError>,
    made: usize,
    /// The place (line, column) of the last made error in file order.
    last_made: (u32, u32),
    unshown: Unshown,
}

impl LexErrors<'_> {
    /// An error at `line`, `col` (1-based).
    fn push(&mut self, line: u32, col: u32, message: impl FnOnce() -> String) {
        let loc = || Loc {
            file: self.file.to_string(),
            line,
            col,
        };
        if self.made >= MAX_ERRORS && (line, col) > self.last_made {
            self.unshown.count += 1;
            if self.unshown.first.is_none() {
                self.unshown.first = Some(loc());
            }
            return;
        }
        let loc = loc();
        self.made += 1;
        self.last_made = self.last_made.max((line, col));
        self.errors.push(ConfigError::new(loc, message()));
    }
}

/// 1-based column of 0-based character `i`.
fn col1(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// How many characters `raw` reads as (an invalid UTF-8 sequence is one U+FFFD).
fn chars_in(raw: &[u8]) -> usize {
    raw.utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// 1-based line and column of byte `offset` of `bytes`.
fn line_col(bytes: &[u8], offset: usize) -> (u32, u32) {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = chars_in(&before[line_start..]) + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

/// Decodes line `line`, reporting each run of invalid UTF-8 at its column and reading each
/// invalid sequence as U+FFFD, as [`String::from_utf8_lossy`] does.
fn decode_line<'a>(raw: &'a [u8], line: u32, errors: &mut LexErrors<'_>) -> Cow<'a, str> {
    if let Ok(s) = std::str::from_utf8(raw) {
        return Cow::Borrowed(s);
    }
    /// Bytes of a run shown in the message.
    const SHOWN: usize = 8;
    let mut s = String::with_capacity(raw.len() + 8);
    let mut col = 0usize;
    // The run of invalid sequences being read: its column, its bytes (the first SHOWN) and
    // its length.
    let mut run: Option<(usize, Vec<u8>, usize)> = None;
    let report = |run: (usize, Vec<u8>, usize), errors: &mut LexErrors<'_>| {
        let (col, shown, len) = run;
        errors.push(line, col1(col), || {
            let hex: Vec<String> = shown.iter().map(|b| format!("{b:02x}")).collect();
            let more = if len > shown.len() { " ..." } else { "" };
            format!(
                "invalid UTF-8 ({len} byte{}: {}{more}): the file must be UTF-8 text; read \
                     as U+FFFD",
                if len == 1 { "" } else { "s" },
                hex.join(" ")
            )
        });
    };
    for chunk in raw.utf8_chunks() {
        let valid = chunk.valid();
        if !valid.is_empty() {
            if let Some(r) = run.take() {
                report(r, errors);
            }
            s.push_str(valid);
            col += valid.chars().count();
        }
        let bad = chunk.invalid();
        if !bad.is_empty() {
            let r = run.get_or_insert_with(|| (col, Vec::new(), 0));
            let room = SHOWN.saturating_sub(r.1.len());
            r.1.extend(bad.iter().take(room));
            r.2 += bad.len();
            s.push('\u{FFFD}');
            col += 1;
        }
    }
    if let Some(r) = run.take() {
        report(r, errors);
    }
    Cow::Owned(s)
}

/// The tokens of `bytes`, whether a limit stopped reading before the end, and the errors
/// only counted.
fn lex(file: &str, bytes: &[u8], errors: &mut Vec<ConfigError>) -> (Vec<Kind>, bool, Unshown) {
    let mut out = Vec::new();
    let mut stopped = false;
    let mut text = bytes;
    if bytes.len() > MAX_FILE_BYTES {
        let (line, col) = line_col(bytes, MAX_FILE_BYTES);
        errors.push(ConfigError::new(
            Loc {
                file: file.to_string(),
                line,
                col,
            },
            format!(
                "the file is larger than {MAX_FILE_BYTES} bytes (1 MiB, the limit): the rest \
                 of the file is not read"
            ),
        ));
        // Up to the last line that fits whole.
        let keep = bytes[..MAX_FILE_BYTES]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        text = &bytes[..keep];
        stopped = true;
    }
    // The size error is not counted: it is after everything that is read.
    let mut errors = LexErrors {
        file,
        errors,
        made: 0,
        last_made: (0, 0),
        unshown: Unshown::default(),
    };
    // Lines as `str::lines` makes them: no empty line after a final `\n`.
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    let lines = (!text.is_empty()).then(|| body.split(|&b| b == b'\n'));
    // Tokens taken (line ends are not counted).
    let mut tokens = 0usize;
    'lines: for (ln, raw) in lines.into_iter().flatten().enumerate() {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line_no = u32::try_from(ln + 1).unwrap_or(u32::MAX);
        let loc = |col: usize| Loc {
            file: file.to_string(),
            line: line_no,
            col: col1(col),
        };
        if raw.len() > MAX_LINE_BYTES {
            errors.push(line_no, col1(chars_in(&raw[..MAX_LINE_BYTES])), || {
                format!(
                    "line longer than {MAX_LINE_BYTES} bytes (the limit): words and quoted \
                     strings on it are cut to {MAX_LINE_BYTES} characters"
                )
            });
        }
        let line = decode_line(raw, line_no, &mut errors);
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            if matches!(c, '#' | '!') {
                break;
            }
            if tokens == MAX_TOKENS {
                errors.push(line_no, col1(i), || {
                    format!(
                        "more than {MAX_TOKENS} tokens (the limit): the rest of the file is not \
                         read"
                    )
                });
                stopped = true;
                break 'lines;
            }
            tokens += 1;
            match c {
                '{' => {
                    out.push(Kind::Open(loc(i)));
                    i += 1;
                }
                '}' => {
                    out.push(Kind::Close(loc(i)));
                    i += 1;
                }
                ';' => {
                    out.push(Kind::End(false));
                    i += 1;
                }
                '"' => {
                    let start = i;
                    i += 1;
                    let mut s = String::new();
                    let mut kept = 0usize;
                    let mut closed = false;
                    while i < chars.len() {
                        let ch = match chars[i] {
                            '"' => {
                                closed = true;
                                i += 1;
                                break;
                            }
                            '\\' if matches!(chars.get(i + 1), Some('"' | '\\')) => {
                                i += 2;
                                chars[i - 1]
                            }
                            ch => {
                                i += 1;
                                ch
                            }
                        };
                        if kept < MAX_LINE_BYTES {
                            s.push(ch);
                            kept += 1;
                        }
                    }
                    if !closed {
                        errors.push(line_no, col1(start), || {
                            "unterminated quoted string: a `\"` must be closed on the same line"
                                .into()
                        });
                    }
                    out.push(Kind::Value(Tok {
                        text: s,
                        quoted: true,
                        loc: loc(start),
                    }));
                }
                _ => {
                    let start = i;
                    while i < chars.len()
                        && !chars[i].is_whitespace()
                        && !matches!(chars[i], '{' | '}' | ';' | '"')
                    {
                        i += 1;
                    }
                    out.push(Kind::Value(Tok {
                        text: chars[start..i.min(start + MAX_LINE_BYTES)].iter().collect(),
                        quoted: false,
                        loc: loc(start),
                    }));
                }
            }
        }
        out.push(Kind::End(true));
    }
    (out, stopped, errors.unshown)
}

/// An open block while building the tree.
struct Frame {
    /// The statement that opened the block, without its block yet.
    stmt: Stmt,
    open: Loc,
    stmts: Vec<Stmt>,
    /// A `}` that started its line lined up with this block's keyword but closed a block
    /// inside it: the `}` location, and the keyword and `{` of the block it closed (where a
    /// `}` is probably missing).
    hint: Option<(Loc, String, Loc)>,
}

struct Builder<'e> {
    errors: &'e mut Vec<ConfigError>,
    top: Vec<Stmt>,
    stack: Vec<Frame>,
    /// Whether the last finished statement of the current block ended at a line end (so a
    /// `{` on the next line may still belong to it).
    last_ended_by_newline: bool,
    /// Statements started so far.
    statements: usize,
}

impl Builder<'_> {
    /// Counts a new statement starting at `loc`; `false` (and an error) when it is one more
    /// than [`MAX_STATEMENTS`].
    fn count_statement(&mut self, loc: &Loc) -> bool {
        self.statements += 1;
        if self.statements <= MAX_STATEMENTS {
            return true;
        }
        self.errors.push(ConfigError::new(
            loc.clone(),
            format!(
                "more than {MAX_STATEMENTS} statements (the limit): the rest of the file is not \
                 read"
            ),
        ));
        false
    }

    /// Whether a block opened at `open` would be nested deeper than [`MAX_DEPTH`]; reports
    /// it when so (the caller skips the block).
    fn too_deep(&mut self, open: &Loc) -> bool {
        if self.stack.len() < MAX_DEPTH {
            return false;
        }
        self.errors.push(ConfigError::new(
            open.clone(),
            format!(
                "blocks nested deeper than {MAX_DEPTH} levels (the limit): this block is skipped \
                 up to its `}}`"
            ),
        ));
        true
    }

    fn current(&mut self) -> &mut Vec<Stmt> {
        match self.stack.last_mut() {
            Some(f) => &mut f.stmts,
            None => &mut self.top,
        }
    }

    fn push_stmt(&mut self, stmt: Stmt) {
        self.current().push(stmt);
    }

    fn open_block(&mut self, stmt: Stmt, open: Loc) {
        self.stack.push(Frame {
            stmt,
            open,
            stmts: Vec::new(),
            hint: None,
        });
    }

    fn close_block(&mut self) {
        if let Some(f) = self.stack.pop() {
            let mut stmt = f.stmt;
            stmt.block = Some(Block {
                open: f.open,
                stmts: f.stmts,
            });
            self.push_stmt(stmt);
        }
    }

    /// Reports an unclosed block and closes every open block. When a `}` lined up with an
    /// open block's keyword closed an inner block instead, the inner block is the one
    /// reported (the indentation shows where the `}` is missing).
    fn unclosed(&mut self, why: &str) {
        let hint = self.stack.iter().rev().find_map(|f| {
            f.hint
                .clone()
                .map(|(close, inner, open)| (close, inner, open, f.stmt.kw.text.clone()))
        });
        if let Some((close, inner, open, outer)) = hint {
            self.errors.push(ConfigError::new(
                open,
                format!(
                    "unclosed `{{` of `{inner}` block: the `}}` at line {} is indented for the \
                     enclosing `{outer}` block but closes this one",
                    close.line
                ),
            ));
        } else if let Some(f) = self.stack.last() {
            let msg = format!(
                "unclosed `{{` of `{}` block: no matching `}}` {why}",
                f.stmt.kw.text
            );
            self.errors.push(ConfigError::new(f.open.clone(), msg));
        }
        while !self.stack.is_empty() {
            self.close_block();
        }
    }
}

/// A file read into its statement tree.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The top-level statements. No block is nested deeper than [`MAX_DEPTH`].
    pub stmts: Vec<Stmt>,
    /// `false` when a limit stopped reading before the end of the file: the top-level
    /// statement that was cut is left out, and so are the errors that only the end of the
    /// file could show (unclosed blocks, undeclared references).
    pub complete: bool,
    /// Lexical errors counted but not made: each has at least [`MAX_ERRORS`] errors before
    /// it.
    pub unshown: Unshown,
}

/// Splits `bytes` into the statement tree, adding lexical and brace errors to `errors`.
pub(crate) fn parse_tree(file: &str, bytes: &[u8], errors: &mut Vec<ConfigError>) -> Parsed {
    let (toks, mut stopped, unshown) = lex(file, bytes, errors);
    let mut b = Builder {
        errors,
        top: Vec::new(),
        stack: Vec::new(),
        last_ended_by_newline: false,
        statements: 0,
    };
    let mut i = 0;
    // Column of the first token of the current line, for the indentation hint.
    let mut line_start = true;
    // How deep inside a block that is too deep to build the tokens are (0: building). Such
    // a block is reported at its `{` and its tokens are skipped up to the matching `}`.
    let mut skip = 0usize;
    while i < toks.len() {
        if skip > 0 {
            match &toks[i] {
                Kind::Open(_) => skip += 1,
                Kind::Close(_) => skip -= 1,
                Kind::Value(_) | Kind::End(_) => {}
            }
            i += 1;
            if skip == 0 {
                b.last_ended_by_newline = false;
                line_start = false;
            }
            continue;
        }
        match &toks[i] {
            Kind::End(nl) => {
                line_start = *nl;
                i += 1;
            }
            Kind::Close(loc) => {
                if b.stack.is_empty() {
                    b.errors.push(ConfigError::new(
                        loc.clone(),
                        "unmatched `}`: no block is open here",
                    ));
                } else {
                    let first_on_line = line_start;
                    let inner = b
                        .stack
                        .last()
                        .map(|f| (f.stmt.kw.text.clone(), f.stmt.kw.loc.col, f.open.clone()));
                    b.close_block();
                    if let (true, Some((kw, kw_col, open)), Some(parent)) =
                        (first_on_line, inner, b.stack.last_mut())
                    {
                        if kw_col != loc.col
                            && parent.stmt.kw.loc.col == loc.col
                            && parent.hint.is_none()
                        {
                            parent.hint = Some((loc.clone(), kw, open));
                        }
                    }
                }
                b.last_ended_by_newline = false;
                line_start = false;
                i += 1;
            }
            Kind::Open(loc) => {
                // A `{` on its own: belongs to the previous statement when that one ended at
                // a line end and has no block yet (`virtual_server ...` NEWLINE `{`).
                let attach = b.last_ended_by_newline
                    && b.current().last().is_some_and(|s| s.block.is_none());
                let stmt = if attach { b.current().pop() } else { None };
                b.last_ended_by_newline = false;
                line_start = false;
                i += 1;
                if b.too_deep(loc) {
                    // The statement goes with its block, which is not read.
                    skip = 1;
                    continue;
                }
                let stmt = match stmt {
                    Some(s) => s,
                    None => {
                        b.errors.push(ConfigError::new(
                            loc.clone(),
                            "`{` without a keyword before it",
                        ));
                        if !b.count_statement(loc) {
                            stopped = true;
                            break;
                        }
                        Stmt {
                            kw: Tok {
                                text: "{".into(),
                                quoted: false,
                                loc: loc.clone(),
                            },
                            args: Vec::new(),
                            block: None,
                        }
                    }
                };
                b.open_block(stmt, loc.clone());
            }
            Kind::Value(kw) => {
                if !b.count_statement(&kw.loc) {
                    stopped = true;
                    break;
                }
                let kw = kw.clone();
                i += 1;
                let mut args = Vec::new();
                while let Some(Kind::Value(t)) = toks.get(i) {
                    args.push(t.clone());
                    i += 1;
                }
                let stmt = Stmt {
                    kw,
                    args,
                    block: None,
                };
                line_start = false;
                match toks.get(i) {
                    Some(Kind::Open(open)) => {
                        if !b.stack.is_empty() && TOP_LEVEL_BLOCKS.contains(&stmt.kw.text.as_str())
                        {
                            let why =
                                format!("before `{}` at line {}", stmt.kw.text, stmt.kw.loc.line);
                            b.unclosed(&why);
                        }
                        b.last_ended_by_newline = false;
                        i += 1;
                        if b.too_deep(open) {
                            skip = 1;
                            continue;
                        }
                        b.open_block(stmt, open.clone());
                    }
                    Some(Kind::End(nl)) => {
                        b.push_stmt(stmt);
                        b.last_ended_by_newline = *nl;
                    }
                    _ => {
                        // `}` (handled by the loop) or the end of the text.
                        b.push_stmt(stmt);
                        b.last_ended_by_newline = false;
                    }
                }
            }
        }
    }
    if stopped {
        // The top-level statement being read when reading stopped is incomplete.
        b.stack.clear();
    } else {
        b.unclosed("before the end of the file");
    }
    Parsed {
        stmts: b.top,
        complete: !stopped,
        unshown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> (Vec<Stmt>, Vec<ConfigError>) {
        let mut e = Vec::new();
        let p = parse_tree("t.conf", text.as_bytes(), &mut e);
        assert!(p.complete);
        assert_eq!(p.unshown, Unshown::default());
        (p.stmts, e)
    }

    #[test]
    fn statements_blocks_comments_and_semicolons() {
        let (t, e) = tree("a 1 2 # c\nb { c 3; d \"x y\" } ! z\ne\n{\nf\n}\n");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].kw.text, "a");
        assert_eq!(t[0].args.len(), 2);
        let b = t[1].block.as_ref().unwrap();
        assert_eq!(b.stmts.len(), 2);
        assert_eq!(b.stmts[1].args[0].text, "x y");
        assert!(b.stmts[1].args[0].quoted);
        assert_eq!(t[2].kw.text, "e");
        assert_eq!(t[2].block.as_ref().unwrap().stmts[0].kw.text, "f");
    }

    #[test]
    fn columns_count_characters_from_one() {
        let (t, _) = tree("  ab\tcd");
        assert_eq!((t[0].kw.loc.line, t[0].kw.loc.col), (1, 3));
        assert_eq!(t[0].args[0].loc.col, 6);
    }

    #[test]
    fn unclosed_brace_points_at_it() {
        let (_, e) = tree("a {\n b {\n }\n");
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].loc.line, e[0].loc.col), (1, 3));
        let (_, e) = tree("}\n");
        assert_eq!((e[0].loc.line, e[0].loc.col), (1, 1));
    }

    /// Nesting depth of the deepest block (walked with a stack, not recursion).
    fn depth(t: &[Stmt]) -> usize {
        let mut max = 0;
        let mut todo: Vec<(&Stmt, usize)> = t.iter().map(|s| (s, 1)).collect();
        while let Some((s, d)) = todo.pop() {
            if let Some(b) = &s.block {
                max = max.max(d);
                todo.extend(b.stmts.iter().map(|s| (s, d + 1)));
            }
        }
        max
    }

    fn errs(text: &[u8]) -> (Vec<Stmt>, Vec<ConfigError>, bool) {
        let mut e = Vec::new();
        let p = parse_tree("t.conf", text, &mut e);
        (p.stmts, e, p.complete)
    }

    #[test]
    fn nesting_deeper_than_the_limit_is_skipped_not_built() {
        let ok = format!("{}{}", "a {\n".repeat(MAX_DEPTH), "}\n".repeat(MAX_DEPTH));
        let (t, e) = tree(&ok);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(depth(&t), MAX_DEPTH);

        // 50 000 levels, closed, then more statements: one error at the 17th `{`, and
        // what follows the skipped block is read (the `b 1` inside level 16, `c` after).
        let n = 50_000;
        let text = format!(
            "{}{}  b 1\n{}c 2\n",
            "a {\n".repeat(n),
            "}\n".repeat(n - MAX_DEPTH),
            "}\n".repeat(MAX_DEPTH)
        );
        let (t, e) = tree(&text);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].loc.line, e[0].loc.col), (MAX_DEPTH as u32 + 1, 3));
        assert_eq!(
            e[0].message,
            "blocks nested deeper than 16 levels (the limit): this block is skipped up to its `}`"
        );
        assert_eq!(depth(&t), MAX_DEPTH);
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].kw.text, "c");
        let mut inner = &t[0];
        while let Some(s) = inner.block.as_ref().and_then(|b| b.stmts.first()) {
            inner = s;
        }
        assert_eq!(inner.kw.text, "b");

        // Never closed, and `{` without keywords: still bounded, reported once each.
        let (t, e, _) = errs("x {\n".repeat(n).as_bytes());
        assert_eq!(depth(&t), MAX_DEPTH);
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[1].message.starts_with("unclosed `{` of `x` block"));
        let (t, e, _) = errs("{\n".repeat(n).as_bytes());
        assert_eq!(depth(&t), MAX_DEPTH);
        // 16 without a keyword, the depth error, the unclosed block.
        assert_eq!(e.len(), MAX_DEPTH + 2, "{e:?}");
    }

    #[test]
    fn invalid_utf8_is_reported_where_it_is_and_reading_goes_on() {
        let (t, e, complete) = errs(b"a 1\nb x\xff\xfey \xc3 \xe2\x82\nc \"\x80\"\n");
        assert!(complete);
        let at: Vec<(u32, u32)> = e.iter().map(|e| (e.loc.line, e.loc.col)).collect();
        // `ff` and `fe` are two sequences (two U+FFFD, one error), `e2 82` one.
        assert_eq!(at, [(2, 4), (2, 8), (2, 10), (3, 4)], "{e:?}");
        assert!(
            e[0].message.starts_with("invalid UTF-8 (2 bytes: ff fe)"),
            "{e:?}"
        );
        assert!(
            e[2].message.starts_with("invalid UTF-8 (2 bytes: e2 82)"),
            "{e:?}"
        );
        assert_eq!(t.len(), 3);
        assert_eq!(t[1].args[0].text, "x\u{fffd}\u{fffd}y");
        assert_eq!(t[2].kw.text, "c");
        assert_eq!(t[2].args[0].text, "\u{fffd}");
        // CRLF line ends are line ends.
        let (t, e) = tree("a 1\r\nb 2\r\n");
        assert!(e.is_empty());
        assert_eq!(t[1].args[0].loc.line, 2);
    }

    #[test]
    fn long_lines_are_reported_and_words_cut() {
        let word = "é".repeat(MAX_LINE_BYTES);
        let (t, e) = tree(&format!("a 1\nb {word} c {{ d }}\ne\n"));
        assert_eq!(e.len(), 1, "{e:?}");
        // The 4096th byte is the second half of the 2048th `é`: col 3 + 2047.
        assert_eq!((e[0].loc.line, e[0].loc.col), (2, 3 + 2047));
        assert!(e[0]
            .message
            .starts_with("line longer than 4096 bytes (the limit)"));
        assert_eq!(t[1].args[0].text.chars().count(), MAX_LINE_BYTES);
        assert_eq!(t[1].args[1].text, "c");
        assert_eq!(t[1].block.as_ref().unwrap().stmts[0].kw.text, "d");
        assert_eq!(t[2].kw.text, "e");
        let q = format!("q \"{}\"\n", "x".repeat(2 * MAX_LINE_BYTES));
        let (t, e) = tree(&q);
        assert_eq!(e.len(), 1);
        assert_eq!(t[0].args[0].text.len(), MAX_LINE_BYTES);
    }

    #[test]
    fn token_and_statement_limits_stop_reading() {
        // Exactly at both limits: fine.
        let (t, e) = tree(&"a 1\n".repeat(MAX_TOKENS / 2));
        assert!(e.is_empty());
        assert_eq!(t.len(), MAX_STATEMENTS);
        // One token more, in a block: reported at it, the cut block left out.
        let text = format!(
            "{}b {{\n  c d e\n}}\n",
            "a 1 2 3\n".repeat(MAX_TOKENS / 4 - 1)
        );
        let (t, e, complete) = errs(text.as_bytes());
        assert!(!complete);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(
            (e[0].loc.line, e[0].loc.col),
            ((MAX_TOKENS / 4 + 1) as u32, 7)
        );
        assert!(e[0]
            .message
            .starts_with("more than 262144 tokens (the limit)"));
        assert_eq!(t.len(), MAX_TOKENS / 4 - 1);

        let text = format!("{}x 1 2 3 4\n", "s; t\n".repeat(MAX_STATEMENTS / 2));
        let (t, e, complete) = errs(text.as_bytes());
        assert!(!complete);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(
            (e[0].loc.line, e[0].loc.col),
            ((MAX_STATEMENTS / 2 + 1) as u32, 1)
        );
        assert!(e[0]
            .message
            .starts_with("more than 131072 statements (the limit)"));
        assert_eq!(t.len(), MAX_STATEMENTS);
    }

    #[test]
    fn files_over_the_size_limit_are_read_up_to_it() {
        // Lines of 64 bytes; the cut falls inside a block.
        let n = MAX_FILE_BYTES / 64;
        let line = format!("k {}\n", "v".repeat(61));
        let mut text = line.repeat(n - 2);
        text.push_str(&format!("b {{{}\n", " ".repeat(60)));
        text.push_str(&line.repeat(3));
        text.push_str("}\n");
        let (t, e, complete) = errs(text.as_bytes());
        assert!(!complete);
        assert_eq!(e.len(), 1, "{e:?}");
        // Byte MAX_FILE_BYTES is the first of line MAX_FILE_BYTES / 64 + 1.
        assert_eq!((e[0].loc.line, e[0].loc.col), (n as u32 + 1, 1));
        assert!(e[0]
            .message
            .starts_with("the file is larger than 1048576 bytes"));
        // The block `b` is cut, so left out (no "unclosed" error either).
        assert_eq!(t.len(), n - 2);
        // At the limit exactly: read whole.
        let mut text = line.repeat(n - 1);
        text.push_str(&format!("b {{{}}}\n", " ".repeat(59)));
        assert_eq!(text.len(), MAX_FILE_BYTES);
        let (t, e, complete) = errs(text.as_bytes());
        assert!(complete);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(t.len(), n);
    }

    #[test]
    fn unterminated_quote_is_reported() {
        let (t, e) = tree("a \"x y\nb\n");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].loc.col, 3);
        assert_eq!(t[0].args[0].text, "x y");
        assert_eq!(t.len(), 2);
    }
}
