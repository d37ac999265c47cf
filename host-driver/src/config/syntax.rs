//! Tokens and the statement tree of a keepalived-style file.
//!
//! The lexer splits the text into words, quoted strings, `{`, `}` and statement ends (end
//! of line or `;`); comments (`#` or `!` where a token would start) run to the end of the
//! line. The tree builder groups tokens into statements (`KEYWORD VALUE... [{ ... }]`) and
//! blocks, reporting unbalanced braces. What the keywords mean is decided in
//! [`super::parser`].

use super::model::Loc;
use super::ConfigError;

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

fn lex(file: &str, text: &str, errors: &mut Vec<ConfigError>) -> Vec<Kind> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let line_no = u32::try_from(ln + 1).unwrap_or(u32::MAX);
        let loc = |col: usize| Loc {
            file: file.to_string(),
            line: line_no,
            col: u32::try_from(col + 1).unwrap_or(u32::MAX),
        };
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            match c {
                c if c.is_whitespace() => i += 1,
                '#' | '!' => break,
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
                    let mut closed = false;
                    while i < chars.len() {
                        match chars[i] {
                            '"' => {
                                closed = true;
                                i += 1;
                                break;
                            }
                            '\\' if matches!(chars.get(i + 1), Some('"' | '\\')) => {
                                s.push(chars[i + 1]);
                                i += 2;
                            }
                            ch => {
                                s.push(ch);
                                i += 1;
                            }
                        }
                    }
                    if !closed {
                        errors.push(ConfigError::new(
                            loc(start),
                            "unterminated quoted string: a `\"` must be closed on the same line",
                        ));
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
                        text: chars[start..i].iter().collect(),
                        quoted: false,
                        loc: loc(start),
                    }));
                }
            }
        }
        out.push(Kind::End(true));
    }
    out
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
}

impl Builder<'_> {
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

/// Splits `text` into the statement tree, adding lexical and brace errors to `errors`.
pub(crate) fn parse_tree(file: &str, text: &str, errors: &mut Vec<ConfigError>) -> Vec<Stmt> {
    let toks = lex(file, text, errors);
    let mut b = Builder {
        errors,
        top: Vec::new(),
        stack: Vec::new(),
        last_ended_by_newline: false,
    };
    let mut i = 0;
    // Column of the first token of the current line, for the indentation hint.
    let mut line_start = true;
    while i < toks.len() {
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
                let stmt = match stmt {
                    Some(s) => s,
                    None => {
                        b.errors.push(ConfigError::new(
                            loc.clone(),
                            "`{` without a keyword before it",
                        ));
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
                b.last_ended_by_newline = false;
                line_start = false;
                i += 1;
            }
            Kind::Value(kw) => {
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
                        b.open_block(stmt, open.clone());
                        b.last_ended_by_newline = false;
                        i += 1;
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
    b.unclosed("before the end of the file");
    b.top
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> (Vec<Stmt>, Vec<ConfigError>) {
        let mut e = Vec::new();
        let t = parse_tree("t.conf", text, &mut e);
        (t, e)
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

    #[test]
    fn unterminated_quote_is_reported() {
        let (t, e) = tree("a \"x y\nb\n");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].loc.col, 3);
        assert_eq!(t[0].args[0].text, "x y");
        assert_eq!(t.len(), 2);
    }
}
