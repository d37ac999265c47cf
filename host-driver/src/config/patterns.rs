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

/// The closest of `known` to `word` when it is at most 2 edits away.
pub(crate) fn suggest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(word, k), *k))
        .filter(|(d, k)| *d <= 2 && *d < k.chars().count().min(word.chars().count()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
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
    }
}
