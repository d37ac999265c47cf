//! Checks of names and URL rule patterns.
//!
//! The L7 matcher (gateware `l7_matcher.v`) lower-cases the Host header, strips its `:port`
//! and compares paths byte for byte (case-sensitive, query removed). It does not decode or
//! normalise paths: a request that needs it (`%`, `\`, `//`, dot segments) is normalised and
//! re-matched by the firmware. A pattern that is not itself in normal form could therefore
//! never match, and is refused here.

use super::model::{HostMatch, PathMatch};

/// Checks a declared name (pool, rule): letters, digits, `_`, `-`, `.`.
pub(crate) fn check_name(what: &str, name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err(format!("empty {what} name"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(format!(
            "{what} name `{name}` has the character `{}`: names use letters, digits, `_`, `-` and `.`",
            c.escape_default()
        ));
    }
    Ok(())
}

/// Parses the value of `host`: an exact host or a `*.suffix` wildcard, lower-cased.
pub(crate) fn parse_host(text: &str) -> Result<HostMatch, String> {
    let lower = text.to_ascii_lowercase();
    let host = if let Some(rest) = lower.strip_prefix("*.") {
        HostMatch::Suffix(format!(".{rest}"))
    } else {
        HostMatch::Exact(lower)
    };
    check_host(&host)?;
    Ok(host)
}

/// Checks a host pattern (as parsed, or built by a program).
pub(crate) fn check_host(host: &HostMatch) -> Result<(), String> {
    let (name, shown) = match host {
        HostMatch::Any => return Ok(()),
        HostMatch::Exact(h) => (h.as_str(), h.clone()),
        HostMatch::Suffix(s) => match s.strip_prefix('.') {
            Some(rest) => (rest, format!("*{s}")),
            None => {
                return Err(format!(
                    "wildcard host suffix `{s}` must start with `.` (written `*.{s}`)"
                ))
            }
        },
    };
    if name.is_empty() {
        return Err(match host {
            HostMatch::Suffix(_) => "wildcard host `*.` has nothing after the `*.`".into(),
            _ => "empty host: leave `host` out to match any host".into(),
        });
    }
    if name.chars().any(char::is_whitespace) {
        return Err(format!("host `{shown}` contains a space"));
    }
    if name.contains('*') || (matches!(host, HostMatch::Exact(_)) && shown.starts_with('*')) {
        return Err(format!(
            "host `{shown}`: `*` is only allowed as a leading `*.` (a wildcard suffix such as \
             `*.example.com`)"
        ));
    }
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(format!("host pattern `{shown}` must be lower case"));
    }
    if let Some(inner) = name.strip_prefix('[') {
        // IPv6 literal: `[...]`, nothing after it.
        return match inner.split_once(']') {
            Some((addr, "")) if matches!(host, HostMatch::Exact(_)) => {
                if !addr.is_empty()
                    && addr
                        .chars()
                        .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
                {
                    Ok(())
                } else {
                    Err(format!("host `{shown}` is not a valid IPv6 literal"))
                }
            }
            Some((_, rest)) if rest.starts_with(':') => Err(port_message(&shown)),
            _ => Err(format!("host `{shown}` is not a valid IPv6 literal")),
        };
    }
    if name.contains(':') {
        return Err(port_message(&shown));
    }
    if name.contains('%') || name.ends_with('.') {
        return Err(format!(
            "host `{shown}` is not in normal form: the card normalises a Host with `%` or a \
             trailing `.` before a rule decides, so this pattern could never match"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')))
    {
        return Err(format!(
            "host `{shown}` has the character `{}`: hosts use letters, digits, `-`, `_` and `.`",
            c.escape_default()
        ));
    }
    if name.starts_with('.') && matches!(host, HostMatch::Exact(_)) {
        return Err(format!(
            "host `{shown}` starts with `.`: write `*{shown}` for a wildcard suffix"
        ));
    }
    if name.contains("..") || name.starts_with('.') {
        return Err(format!("host `{shown}` has an empty label (`..`)"));
    }
    Ok(())
}

fn port_message(shown: &str) -> String {
    format!(
        "host `{shown}` has a `:port`: the card strips the port from the Host header before \
         matching, so write the host without it"
    )
}

/// Checks a path pattern (as parsed, or built by a program).
pub(crate) fn check_path(path: &PathMatch) -> Result<(), String> {
    let (p, exact, kw) = match path {
        PathMatch::Any => return Ok(()),
        PathMatch::Exact(p) => (p.as_str(), true, "path"),
        PathMatch::Prefix(p) => (p.as_str(), false, "path_prefix"),
    };
    if !p.starts_with('/') {
        return Err(format!("{kw} `{p}` must start with `/`"));
    }
    if let Some(c) = p.chars().find(|c| !c.is_ascii_graphic()) {
        return Err(format!(
            "{kw} `{}` has the character `{}`: requests carry such bytes percent-encoded and \
             the card does not decode them, so the pattern could never match",
            p.escape_default(),
            c.escape_default()
        ));
    }
    if p.contains('?') {
        return Err(format!(
            "{kw} `{p}` has a `?`: the card matches the path without the query string, so \
             the pattern could never match"
        ));
    }
    if p.contains('#') {
        return Err(format!(
            "{kw} `{p}` has a `#`: a fragment is never sent in a request"
        ));
    }
    let what = if p.contains('%') {
        Some("`%`")
    } else if p.contains('\\') {
        Some("`\\`")
    } else if p.contains("//") {
        Some("`//`")
    } else if p.contains("/./") || (exact && p.ends_with("/.")) {
        Some("a `.` segment")
    } else if p.contains("/../") || (exact && p.ends_with("/..")) {
        Some("a `..` segment")
    } else {
        None
    };
    match what {
        Some(what) => Err(format!(
            "{kw} `{p}` is not in normal form ({what}): the card normalises requests \
             (percent-decoding, dot segments, duplicate slashes, backslashes) before a rule \
             decides, so this pattern could never match"
        )),
        None => Ok(()),
    }
}

/// Edit distance (optimal string alignment: insert, delete, substitute, swap neighbours).
/// The reference for [`Suggester`], which computes the same distance when it is small.
#[cfg(test)]
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, v) in d[0].iter_mut().enumerate() {
        *v = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// At most this many edits away for a suggestion.
const SUGGEST_MAX_EDITS: usize = 2;

/// Words longer than this (in characters) get no suggestion: they are not typos of a
/// keyword or of a name someone declared.
const SUGGEST_MAX_CHARS: usize = 64;

/// Longest candidate worth comparing.
const CAND_MAX_CHARS: usize = SUGGEST_MAX_CHARS + SUGGEST_MAX_EDITS;

/// Work (candidates looked at plus distance cells computed) the suggestions of any file may
/// take, and how much more per byte of the file: after that, errors come without a "did
/// you mean". A suggestion takes some hundred units, so a file gets a few hundred of them
/// plus one per 100 bytes or so, more than the errors shown ([`super::MAX_ERRORS`]) in any
/// file that is not mostly errors. The bound keeps the search's work linear in the file
/// whatever it holds (comparing every unknown reference with every declared pool would
/// otherwise be quadratic).
pub(crate) const SUGGEST_BUDGET_BASE: u64 = 1 << 16;
/// See [`SUGGEST_BUDGET_BASE`].
pub(crate) const SUGGEST_BUDGET_PER_BYTE: u64 = 4;

/// Finds "did you mean" suggestions, counting the work against a budget.
#[derive(Debug)]
pub(crate) struct Suggester {
    /// Work done so far.
    pub work: u64,
    /// Work allowed.
    pub budget: u64,
}

impl Suggester {
    /// A suggester for a file of `bytes` bytes.
    pub(crate) fn for_file(bytes: usize) -> Self {
        let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
        Suggester {
            work: 0,
            budget: SUGGEST_BUDGET_BASE
                .saturating_add(bytes.saturating_mul(SUGGEST_BUDGET_PER_BYTE)),
        }
    }

    /// The first of `known` closest to `word`, when it is at most 2 edits away and fewer
    /// edits than either word is long (`ab` is not a typo of `mac`).
    pub(crate) fn suggest<'a>(
        &mut self,
        word: &str,
        known: impl IntoIterator<Item = &'a str>,
    ) -> Option<&'a str> {
        if self.work >= self.budget {
            return None;
        }
        let mut w = ['\0'; SUGGEST_MAX_CHARS];
        let mut wlen = 0;
        for c in word.chars() {
            if wlen == SUGGEST_MAX_CHARS {
                return None;
            }
            w[wlen] = c;
            wlen += 1;
        }
        self.work += wlen as u64;
        let w = &w[..wlen];
        let mut best: Option<(usize, &'a str)> = None;
        let mut k = ['\0'; CAND_MAX_CHARS];
        for cand in known {
            if self.work >= self.budget {
                return None;
            }
            self.work += 1;
            // A char is 1 to 4 bytes: rule out by the byte length before decoding.
            if cand.len() + SUGGEST_MAX_EDITS < wlen || cand.len() > 4 * (wlen + SUGGEST_MAX_EDITS)
            {
                continue;
            }
            // Decoded up to one character more than could be close.
            let cap = wlen + SUGGEST_MAX_EDITS;
            let mut klen = 0;
            for c in cand.chars() {
                if klen == cap {
                    klen += 1;
                    break;
                }
                k[klen] = c;
                klen += 1;
            }
            self.work += klen as u64;
            if klen.abs_diff(wlen) > SUGGEST_MAX_EDITS {
                continue;
            }
            // Fewer edits than either length, and strictly better than the best so far.
            let Some(mut bound) = klen.min(wlen).checked_sub(1) else {
                continue;
            };
            bound = bound.min(SUGGEST_MAX_EDITS);
            if let Some((d, _)) = best {
                match d.checked_sub(1) {
                    Some(b) => bound = bound.min(b),
                    None => break,
                }
            }
            if let Some(d) = distance_within(w, &k[..klen], bound, &mut self.work) {
                best = Some((d, cand));
            }
        }
        best.map(|(_, k)| k)
    }
}

/// The optimal-string-alignment distance of `a` and `b` when it is at most `max` (at most
/// [`SUGGEST_MAX_EDITS`]); adds the cells computed to `work`.
///
/// Only the band of cells within `max` of the diagonal is computed (a cell off it is more
/// than `max`), values are capped at `max + 1`, and the search stops as soon as two rows in
/// a row are above `max` (every later cell depends on them and is at least as large).
fn distance_within(a: &[char], b: &[char], max: usize, work: &mut u64) -> Option<usize> {
    const W: usize = CAND_MAX_CHARS + 2;
    let n = b.len();
    if max > SUGGEST_MAX_EDITS || a.len().abs_diff(n) > max || n + 2 > W {
        return None;
    }
    // `max + 1` stands for "too far"; it fits a u8 and never grows.
    let big = (max + 1) as u8;
    let cap = |v: usize| v.min(max + 1) as u8;
    // Rows i % 3: i, i - 1 and i - 2.
    let mut rows = [[big; W]; 3];
    for (j, v) in rows[0].iter_mut().enumerate().take(n.min(max) + 1) {
        *v = j as u8;
    }
    let mut prev_min = 0u8;
    for i in 1..=a.len() {
        let (c, p1, p2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        let lo = i.saturating_sub(max).max(1);
        let hi = (i + max).min(n);
        // The cells just outside the band are "too far" (or the first column).
        rows[c][lo - 1] = if lo == 1 { cap(i) } else { big };
        rows[c][hi + 1] = big;
        let mut row_min = rows[c][lo - 1];
        for j in lo..=hi {
            let cost = u8::from(a[i - 1] != b[j - 1]);
            let mut v = (rows[p1][j] + 1)
                .min(rows[c][j - 1] + 1)
                .min(rows[p1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(rows[p2][j - 2] + 1);
            }
            let v = v.min(big);
            rows[c][j] = v;
            row_min = row_min.min(v);
        }
        *work += (hi + 1 - lo) as u64 + 1;
        if row_min >= big && prev_min >= big {
            return None;
        }
        prev_min = row_min;
    }
    let d = rows[a.len() % 3][n];
    (d < big).then_some(usize::from(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert_eq!(
            parse_host("WWW.Example.com"),
            Ok(HostMatch::Exact("www.example.com".into()))
        );
        assert_eq!(
            parse_host("*.example.com"),
            Ok(HostMatch::Suffix(".example.com".into()))
        );
        assert_eq!(parse_host("[::1]"), Ok(HostMatch::Exact("[::1]".into())));
        for bad in [
            "",
            "*.",
            "a.*.com",
            "*example.com",
            "www.example.com:80",
            "[::1]:80",
            "a b",
            "a%41",
            "example.com.",
            ".example.com",
            "a..b",
            "a/b",
            "*",
        ] {
            assert!(parse_host(bad).is_err(), "{bad}");
        }
        assert!(parse_host("www.example.com:80")
            .unwrap_err()
            .contains(":port"));
    }

    #[test]
    fn paths() {
        let ok = |p: &str| check_path(&PathMatch::Exact(p.into()));
        let pre = |p: &str| check_path(&PathMatch::Prefix(p.into()));
        assert!(ok("/").is_ok());
        assert!(ok("/a/b.html").is_ok());
        assert!(pre("/a/.well").is_ok());
        assert!(pre("/a/.").is_ok());
        for bad in [
            "a", "/a%20", "/a\\b", "//a", "/a/./b", "/a/../b", "/a/.", "/a/..", "/a?b", "/a b",
            "/a#b", "/é",
        ] {
            assert!(ok(bad).is_err(), "{bad}");
        }
        assert!(pre("/a/../").is_err());
        assert!(ok("/a//b").unwrap_err().contains("normalises"));
    }

    fn suggest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
        Suggester::for_file(0).suggest(word, known.iter().copied())
    }

    #[test]
    fn suggestions() {
        assert_eq!(edit_distance("wieght", "weight"), 1);
        assert_eq!(suggest("wieght", &["weight", "mac"]), Some("weight"));
        assert_eq!(
            suggest("lvs_shed", &["lvs_sched", "lvs_method"]),
            Some("lvs_sched")
        );
        assert_eq!(suggest("zzz", &["weight"]), None);
        assert_eq!(suggest("ab", &["mac"]), None);
        assert_eq!(suggest("", &["a", ""]), None);
        // The first of equally close ones.
        assert_eq!(suggest("wxyz", &["wxy", "wxya", "xwyz"]), Some("wxy"));
        assert_eq!(suggest("weight", &["weihgt", "weight"]), Some("weight"));
        // Too long to be a typo; an exhausted budget gives nothing.
        let long = "w".repeat(SUGGEST_MAX_CHARS + 1);
        assert_eq!(suggest(&long, &[long.as_str()]), None);
        let mut s = Suggester::for_file(0);
        s.work = s.budget;
        assert_eq!(s.suggest("wieght", ["weight"]), None);
    }

    /// The same answer as the plain definition (closest within 2 edits, fewer edits than
    /// either length, first of equals), on words made from a small alphabet so that many
    /// are close.
    #[test]
    fn suggest_agrees_with_the_definition() {
        fn reference<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
            known
                .iter()
                .map(|k| (edit_distance(word, k), *k))
                .filter(|(d, k)| *d <= 2 && *d < k.chars().count().min(word.chars().count()))
                .min_by_key(|(d, _)| *d)
                .map(|(_, k)| k)
        }
        let mut seed: u64 = 0x1234_5678;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let alphabet = ['a', 'b', 'c', '_', 'é'];
        for _ in 0..20_000 {
            let len = next(7);
            let w: String = (0..len).map(|_| alphabet[next(5)]).collect();
            let count = 1 + next(5);
            let mut known = Vec::new();
            for _ in 0..count {
                let len = next(8);
                known.push((0..len).map(|_| alphabet[next(5)]).collect::<String>());
            }
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            assert_eq!(
                suggest(&w, &known),
                reference(&w, &known),
                "{w:?} {known:?}"
            );
        }
    }
}
