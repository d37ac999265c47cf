//! Printing a [`Config`] in the configuration syntax [`super::parse`] reads: `Config`'s
//! `Display` (what it guarantees is described there).

use std::fmt;
use std::net::SocketAddrV4;
use std::time::Duration;

use super::model::*;
use super::MAX_LINE_BYTES;
use crate::flowmgr::Scheduler;

/// Whether `s` reads back as itself as an unquoted word: not empty, no white space, none of
/// `{ } ; "` (which end a word) and not starting with `#` or `!` (a comment there).
fn plain(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(['#', '!'])
        && !s
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '{' | '}' | ';' | '"'))
}

/// `s` in quotes, as the tokenizer reads it back: `"` is written `\"`; `\` is written `\\`
/// where it would otherwise start an escape (before `"` or `\`, or last), elsewhere it
/// stands for itself. `s` must not hold a line end (a quoted string ends with its line).
fn quoted(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' if matches!(chars.peek(), None | Some('"' | '\\')) => q.push_str("\\\\"),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// A value as written in the configuration: as is when it reads back as one word, quoted
/// otherwise. The shortest text that reads back as `s` (its length is at most that of any
/// way of writing `s` as one value).
pub(crate) fn quote(s: &str) -> String {
    if plain(s) {
        s.to_string()
    } else {
        quoted(s)
    }
}

/// Seconds: whole, or with as many decimals as the nanoseconds need (`0.5`). The reader
/// takes seconds as an `f64` rounded to the nanosecond, so this reads back as `d` for every
/// duration it can produce.
fn secs_text(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        d.as_secs().to_string()
    } else {
        let s = format!("{}.{:09}", d.as_secs(), d.subsec_nanos());
        s.trim_end_matches('0').to_string()
    }
}

/// A number as Rust prints it (`0.05`, `1000`: the shortest digits that read back
/// exactly), or in exponent form (`1e-20`) when that is longer than 16 characters and the
/// exponent form is shorter.
fn float_text(v: f64) -> String {
    // -0 reads back as 0, which is equal.
    let v = if v == 0.0 { 0.0 } else { v };
    let plain = v.to_string();
    let exp = format!("{v:e}");
    if plain.len() > 16 && exp.len() < plain.len() {
        exp
    } else {
        plain
    }
}

/// The shortest text that reads back as `v` (`.5`, `15e9`), found among every place of
/// the decimal point in the shortest digits, with and without an exponent: no way of
/// writing `v` is shorter.
fn float_shortest(v: f64) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    if !v.is_finite() {
        return v.to_string();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    // `{:e}` has the shortest digits that read back exactly: `D.DDDeX`.
    let e_form = format!("{:e}", v.abs());
    let Some((mantissa, exp)) = e_form.split_once('e') else {
        return float_text(v);
    };
    let Ok(exp) = exp.parse::<i64>() else {
        return float_text(v);
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let n = digits.len() as i64;
    // v = DIGITS × 10^e
    let e = exp - (n - 1);
    let mut best = float_text(v);
    let mut consider = |t: String| {
        if t.len() < best.len() {
            best = t;
        }
    };
    for after in 0..=n {
        // `after` digits after the point.
        let split = (n - after) as usize;
        let mut t = format!("{sign}{}", &digits[..split]);
        if after > 0 {
            t.push('.');
            t.push_str(&digits[split..]);
        }
        let x = e + after;
        if x != 0 {
            t.push_str(&format!("e{x}"));
        }
        consider(t);
    }
    if e >= 0 {
        consider(format!("{sign}{digits}{}", "0".repeat(e as usize)));
    } else if -e >= n {
        consider(format!("{sign}.{}{digits}", "0".repeat((-e - n) as usize)));
    }
    best
}

fn mac_text(m: &[u8; 6]) -> String {
    m.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// One value of a statement.
enum Val<'a> {
    /// A name or string: [`quote`].
    Text(&'a str),
    /// A command: always quoted, as the documentation writes it; in the compact form
    /// [`quote`].
    Command(&'a str),
    /// `misc_path`'s command line: as [`Val::Command`]; in the compact form also as its
    /// words when that reads back the same (the reader joins them with a space).
    CommandLine(&'a str),
    /// A word that needs no quoting (numbers, addresses, keywords).
    Word(String),
    Float(f64),
}

impl Val<'_> {
    fn readable(&self) -> String {
        match self {
            Val::Text(s) => quote(s),
            Val::Command(s) | Val::CommandLine(s) => quoted(s),
            Val::Word(w) => w.clone(),
            Val::Float(v) => float_text(*v),
        }
    }

    /// The shortest form.
    fn compact(&self) -> String {
        match self {
            Val::Text(s) | Val::Command(s) => quote(s),
            Val::CommandLine(s) => {
                if s.split(' ').all(plain) {
                    s.to_string()
                } else {
                    quote(s)
                }
            }
            Val::Word(w) => w.clone(),
            Val::Float(v) => float_shortest(*v),
        }
    }
}

fn word(x: impl fmt::Display) -> Val<'static> {
    Val::Word(x.to_string())
}

fn secs(d: Duration) -> Val<'static> {
    Val::Word(secs_text(d))
}

/// Writes statements, indented by block depth.
struct Out<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    depth: usize,
    /// Whether a top-level block was written (the next one gets a blank line before it).
    started: bool,
}

impl Out<'_, '_> {
    /// `kw VALUES`, or `kw VALUES {` when `open`. A line longer than [`MAX_LINE_BYTES`] is
    /// written without indentation and with the values' shortest forms.
    fn write(&mut self, kw: &str, vals: &[Val<'_>], open: bool) -> fmt::Result {
        let mut line = " ".repeat(4 * self.depth);
        line.push_str(kw);
        for v in vals {
            line.push(' ');
            line.push_str(&v.readable());
        }
        if open {
            line.push_str(" {");
        }
        if line.len() > MAX_LINE_BYTES {
            line = kw.to_string();
            for v in vals {
                line.push(' ');
                line.push_str(&v.compact());
            }
            if open {
                line.push('{');
            }
        }
        self.f.write_str(&line)?;
        self.f.write_str("\n")
    }

    fn stmt(&mut self, kw: &str, vals: &[Val<'_>]) -> fmt::Result {
        self.write(kw, vals, false)
    }

    fn flag(&mut self, kw: &str, on: bool) -> fmt::Result {
        if on {
            self.write(kw, &[], false)?;
        }
        Ok(())
    }

    /// Opens a block (a top-level one after a blank line).
    fn open(&mut self, kw: &str, vals: &[Val<'_>]) -> fmt::Result {
        if self.depth == 0 {
            if self.started {
                self.f.write_str("\n")?;
            }
            self.started = true;
        }
        self.write(kw, vals, true)?;
        self.depth += 1;
        Ok(())
    }

    fn close(&mut self) -> fmt::Result {
        self.depth = self.depth.saturating_sub(1);
        self.f.write_str(&" ".repeat(4 * self.depth))?;
        self.f.write_str("}\n")
    }

    fn global_defs(&mut self, c: &Config) -> fmt::Result {
        let t = &c.timeouts;
        let card = &c.card;
        let timeouts: Vec<(&str, u32)> = [
            ("tcp", t.tcp),
            ("tcpfin", t.tcpfin),
            ("udp", t.udp),
            ("linger", t.linger),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect();
        if c.router_id.is_none()
            && timeouts.is_empty()
            && card.client_mac.is_none()
            && card.server_mac.is_none()
            && card.local_addresses.is_empty()
        {
            return Ok(());
        }
        self.open("global_defs", &[])?;
        if let Some(id) = &c.router_id {
            self.stmt("router_id", &[Val::Text(id)])?;
        }
        if !timeouts.is_empty() {
            let vals: Vec<Val<'_>> = timeouts
                .iter()
                .flat_map(|(k, v)| [word(k), word(v)])
                .collect();
            self.stmt("lvs_timeouts", &vals)?;
        }
        if let Some(m) = &card.client_mac {
            self.stmt("client_mac", &[Val::Word(mac_text(m))])?;
        }
        if let Some(m) = &card.server_mac {
            self.stmt("server_mac", &[Val::Word(mac_text(m))])?;
        }
        if !card.local_addresses.is_empty() {
            let vals: Vec<Val<'_>> = card.local_addresses.iter().map(word).collect();
            self.stmt("local_address", &vals)?;
        }
        self.close()
    }

    /// A `virtual_server`, with the settings and servers of `own` (its implicit pool).
    fn service(&mut self, s: &Service, own: Option<&Pool>) -> fmt::Result {
        self.open("virtual_server", &[word(s.vip), word(s.port)])?;
        match (&s.mode, own) {
            (_, Some(pool)) => self.pool_body(pool)?,
            (ServiceKind::L4 { pool }, None) => self.stmt("pool", &[Val::Text(pool)])?,
            (ServiceKind::L7 { default_pool }, None) => {
                self.stmt("default_pool", &[Val::Text(default_pool)])?
            }
        }
        self.close()
    }

    fn pool(&mut self, p: &Pool) -> fmt::Result {
        self.open("pool", &[Val::Text(&p.name)])?;
        self.pool_body(p)?;
        self.close()
    }

    fn pool_body(&mut self, p: &Pool) -> fmt::Result {
        if let Some(n) = p.card_index {
            self.stmt("card_index", &[word(n)])?;
        }
        self.stmt("lvs_sched", &[word(p.sched)])?;
        let hash = if p.sched == Scheduler::Mh { "mh" } else { "sh" };
        self.flag(&format!("{hash}-fallback"), p.fallback)?;
        self.flag(&format!("{hash}-port"), p.hash_port)?;
        if let Some((timeout, mask)) = p.persistence {
            self.stmt("persistence_timeout", &[word(timeout)])?;
            self.stmt("persistence_granularity", &[word(mask)])?;
        }
        self.stmt("delay_loop", &[secs(p.delay_loop)])?;
        if let Some((a, _)) = &p.sorry_server {
            self.stmt("sorry_server", &[word(a.ip()), word(a.port())])?;
        }
        self.stmt("quorum", &[word(p.quorum)])?;
        self.stmt("hysteresis", &[word(p.hysteresis)])?;
        self.flag("alpha", p.alpha)?;
        self.flag("omega", p.omega)?;
        if let Some(fb) = &p.feedback {
            self.feedback(fb)?;
        }
        for s in &p.servers {
            self.server(s)?;
        }
        Ok(())
    }

    fn feedback(&mut self, fb: &Feedback) -> fmt::Result {
        self.open("dynamic_feedback", &[])?;
        self.stmt("interval", &[secs(fb.interval)])?;
        self.stmt("coefficient", &[Val::Float(fb.coefficient)])?;
        self.stmt("threshold", &[Val::Float(fb.threshold)])?;
        self.stmt("scale", &[word(fb.scale)])?;
        for (input, ratio) in &fb.inputs {
            let r = Val::Float(*ratio);
            match input {
                LoadInput::Connections => self.stmt("connections", &[r])?,
                LoadInput::ResponseTime => self.stmt("response_time", &[r])?,
                LoadInput::Command(cmd) => self.stmt("load_command", &[Val::Command(cmd), r])?,
            }
        }
        self.close()
    }

    fn server(&mut self, s: &Server) -> fmt::Result {
        self.open("real_server", &[word(s.addr.ip()), word(s.addr.port())])?;
        self.stmt("weight", &[word(s.weight)])?;
        if let Some(m) = &s.mac {
            self.stmt("mac", &[Val::Word(mac_text(m))])?;
        }
        self.flag("inhibit_on_failure", s.inhibit_on_failure)?;
        // 0 = no threshold.
        if s.uthreshold != 0 {
            self.stmt("uthreshold", &[word(s.uthreshold)])?;
        }
        if s.lthreshold != 0 {
            self.stmt("lthreshold", &[word(s.lthreshold)])?;
        }
        for c in &s.checkers {
            match c {
                Checker::Http(h) => {
                    self.open("HTTP_GET", &[])?;
                    for u in &h.urls {
                        self.url(u)?;
                    }
                    self.common(&h.common)?;
                    if let Some(vh) = &h.virtualhost {
                        self.stmt("virtualhost", &[Val::Text(vh)])?;
                    }
                    self.close()?;
                }
                Checker::Tcp(t) => {
                    self.open("TCP_CHECK", &[])?;
                    self.common(&t.common)?;
                    self.close()?;
                }
                Checker::Misc(m) => self.misc(m)?,
            }
        }
        self.close()
    }

    fn common(&mut self, c: &CheckCommon) -> fmt::Result {
        if let Some(to) = &c.connect_to {
            self.connect_to(to)?;
        }
        self.stmt("connect_timeout", &[secs(c.connect_timeout)])?;
        self.stmt("retry", &[word(c.retry)])?;
        self.stmt("delay_before_retry", &[secs(c.delay_before_retry)])?;
        if let Some(d) = c.delay_loop {
            self.stmt("delay_loop", &[secs(d)])?;
        }
        Ok(())
    }

    /// Both `connect_ip` and `connect_port` (the reader fills in the one left out from the
    /// server's address, which gives the same).
    fn connect_to(&mut self, to: &SocketAddrV4) -> fmt::Result {
        self.stmt("connect_ip", &[word(to.ip())])?;
        self.stmt("connect_port", &[word(to.port())])
    }

    fn url(&mut self, u: &UrlCheck) -> fmt::Result {
        self.open("url", &[])?;
        self.stmt("path", &[Val::Text(&u.path)])?;
        if let Some(code) = u.status_code {
            self.stmt("status_code", &[word(code)])?;
        }
        if let Some(d) = &u.digest {
            let hex: String = d.iter().map(|b| format!("{b:02x}")).collect();
            self.stmt("digest", &[Val::Word(hex)])?;
        }
        if let Some(vh) = &u.virtualhost {
            self.stmt("virtualhost", &[Val::Text(vh)])?;
        }
        self.close()
    }

    fn misc(&mut self, m: &MiscCheck) -> fmt::Result {
        self.open("MISC_CHECK", &[])?;
        self.stmt("misc_path", &[Val::CommandLine(&m.path)])?;
        if let Some(t) = m.timeout {
            self.stmt("misc_timeout", &[secs(t)])?;
        }
        self.flag("misc_dynamic", m.dynamic)?;
        self.stmt("retry", &[word(m.retry)])?;
        self.stmt("delay_before_retry", &[secs(m.delay_before_retry)])?;
        self.close()
    }

    fn rule(&mut self, r: &UrlRule) -> fmt::Result {
        match &r.name {
            Some(n) => self.open("url_rule", &[Val::Text(n)])?,
            None => self.open("url_rule", &[])?,
        }
        match &r.host {
            HostMatch::Any => {}
            HostMatch::Exact(h) => self.stmt("host", &[Val::Text(h)])?,
            HostMatch::Suffix(s) => self.stmt("host", &[Val::Text(&format!("*{s}"))])?,
        }
        match &r.path {
            PathMatch::Any => {}
            PathMatch::Exact(p) => self.stmt("path", &[Val::Text(p)])?,
            PathMatch::Prefix(p) => self.stmt("path_prefix", &[Val::Text(p)])?,
        }
        self.stmt("priority", &[word(r.priority)])?;
        self.stmt("pool", &[Val::Text(&r.pool)])?;
        self.close()
    }
}

/// Whether `p` is the implicit pool of `s`: named `"VIP:PORT"` after it, and where `s`
/// sends its connections.
fn owns(s: &Service, p: &Pool) -> bool {
    p.implicit
        && matches!(&s.mode, ServiceKind::L4 { pool } if *pool == p.name)
        && p.name == SocketAddrV4::new(s.vip, s.port).to_string()
}

/// The whole configuration as a file in the syntax [`super::parse`] reads: `global_defs`,
/// then the virtual servers and pools in their declaration order (each `virtual_server` as
/// early as that order allows, an implicit pool inside the `virtual_server` it belongs
/// to), then the URL rules. Every setting is written out, defaults included, so the text
/// shows what the reader understood; a setting that is absent (`None`, an unset flag, a
/// threshold of 0 = none) is left out. The text depends on nothing but the settings (not
/// on locations), one statement per line, indented by 4 spaces a level.
///
/// For a `Config` that [`super::parse`] returned, the text reads back as an equal `Config`
/// (locations aside: [`Config::without_locations`]) and prints the same again, provided
/// it is within the reader's size, token and statement limits ([`super::MAX_FILE_BYTES`],
/// [`super::MAX_TOKENS`], [`super::MAX_STATEMENTS`]; it is larger than a densely written
/// file, since it gives every setting its own line and writes the defaults). Values are
/// quoted only where the tokenizer needs it. Lines stay within [`MAX_LINE_BYTES`]: a
/// statement that would be longer is written without indentation and with the shortest
/// form of each value, which is never longer than the line it was read from.
///
/// A `Config` built by a program that the reader could not have made (a pool name with a
/// space, port 0, a line end in a string, an implicit pool without its `virtual_server`)
/// prints as what it holds, which the reader then refuses or reads differently.
impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Out {
            f,
            depth: 0,
            started: false,
        };
        out.global_defs(self)?;
        // Services and pools in declaration order, each service as early as it can be: an
        // implicit pool is written inside its service, so the pools before it come first.
        // An implicit pool whose service is missing, or whose service comes after that of
        // a later implicit pool, can only be written as a `pool` block, which the reader
        // refuses for its name.
        let mut next = 0;
        for s in &self.services {
            match self.pools[next..].iter().position(|p| owns(s, p)) {
                Some(i) => {
                    for p in &self.pools[next..next + i] {
                        out.pool(p)?;
                    }
                    out.service(s, Some(&self.pools[next + i]))?;
                    next += i + 1;
                }
                None => out.service(s, None)?,
            }
        }
        for p in &self.pools[next..] {
            out.pool(p)?;
        }
        for r in &self.rules {
            out.rule(r)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::config::{parse, ConfigErrors};

    /// Prints `c`, reads it back and prints it again: the same configuration (locations
    /// aside) and the same text. Returns the text.
    fn round_trip(c: &Config) -> String {
        let text = c.to_string();
        let again = parse("printed.conf", &text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(
            again.without_locations(),
            c.without_locations(),
            "read back differently:\n{text}"
        );
        assert_eq!(again.to_string(), text);
        for line in text.lines() {
            assert!(line.len() <= MAX_LINE_BYTES, "{} bytes", line.len());
        }
        text
    }

    fn parsed(text: &str) -> Config {
        parse("t.conf", text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn examples() -> Vec<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "conf"))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn every_example_prints_and_reads_back_the_same() {
        let files = examples();
        assert!(files.len() >= 2, "{files:?}");
        for f in files {
            let c = crate::config::load(&f).unwrap_or_else(|e| panic!("{e}"));
            let text = round_trip(&c);
            // Something of everything was printed.
            assert_eq!(
                text.matches("real_server ").count(),
                c.pools.iter().map(|p| p.servers.len()).sum::<usize>(),
                "{}",
                f.display()
            );
            assert_eq!(text.matches("url_rule").count(), c.rules.len());
        }
    }

    /// Every keyword the reader knows, with aliases, odd spellings and quoting.
    const EVERYTHING: &str = r#"
global_defs {
    router_id "lb one \"q\" \ back\\"
    lvs_timeouts udp 30 linger 3 tcp 900
    client_mac 02:5E:00:00:00:0C
    server_mac 02-5e-00-00-00-05
    local_address 10.0.0.254 10.0.0.253
    notification_email { a@b }
}
pool a-1 {
    lb_algo MH
    lvs_flags mh-fallback,flag-2
    persistence_timeout
    delay_loop 0.25
    sorry_server 10.0.9.1 8080
    quorum 2
    hysteresis 1
    alpha
    omega
    inhibit_on_failure
    virtualhost pool.example.com
    dynamic_feedback {
        interval 2.5
        coefficient 1e-3
        threshold -0
        scale 3
        response_time 0.25
        load_command "/bin/load \"x\"" .25
        load_command /bin/other 5e-1
    }
    real_server 10.0.1.1 80 {
        weight 0
        mac 02:00:0a:00:01:01
        uthreshold 10
        lthreshold 5
        HTTP_GET {
            url { path /a!b#c; status_code 204; digest 9B3A0C85A887A256D6939DA88AABD8CD; virtualhost "v h" }
            url { path "/x;y" }
            connect_port 8080
            nb_get_retry 0
            delay_before_retry 0
            delay_loop 7
        }
        TCP_CHECK { connect_ip 10.0.1.9 }
        MISC_CHECK { misc_path /bin/check  -a   "b c"; misc_timeout 0.5; misc_dynamic; retry 4; delay_before_retry 1.5 }
    }
    real_server 10.0.1.2 81
}
virtual_server 10.0.0.1 80 { default_pool a-1 }
virtual_server 10.0.0.2 80 { lb_algo sh; sh-port; persistence_timeout 60; persistence_granularity 255.255.0.0; real_server 10.0.2.1 80 }
pool b { real_server 10.0.3.1 80 }
virtual_server 10.0.0.3 80 { lvs_method nat; protocol tcp; pool b }
virtual_server 10.0.0.4 80 { pool 10.0.0.2:80 }
url_rule { host WWW.Example.com; pool b }
url_rule r1 { host *.EXAMPLE.org; path_prefix /p/; priority 0; pool "a-1" }
url_rule r2 { path "/q;r"; priority 65535; pool 10.0.0.2:80 }
"#;

    #[test]
    fn every_setting_prints_and_reads_back_the_same() {
        let c = parsed(EVERYTHING);
        let text = round_trip(&c);
        for s in [
            "    router_id \"lb one \\\"q\\\" \\ back\\\\\"\n",
            "    lvs_timeouts tcp 900 udp 30 linger 3\n",
            "    client_mac 02:5e:00:00:00:0c\n",
            "    server_mac 02:5e:00:00:00:05\n",
            "    local_address 10.0.0.254 10.0.0.253\n",
            "    lvs_sched mh\n    mh-fallback\n    mh-port\n    persistence_timeout 360\n",
            "    delay_loop 0.25\n    sorry_server 10.0.9.1 8080\n    quorum 2\n    hysteresis 1\n",
            "    alpha\n    omega\n",
            "        coefficient 0.001\n        threshold 0\n        scale 3\n",
            "        load_command \"/bin/load \\\"x\\\"\" 0.25\n",
            "        load_command \"/bin/other\" 0.5\n",
            "        weight 0\n        mac 02:00:0a:00:01:01\n        inhibit_on_failure\n",
            "                path /a!b#c\n                status_code 204\n",
            "                digest 9b3a0c85a887a256d6939da88aabd8cd\n",
            "                virtualhost \"v h\"\n",
            "                path \"/x;y\"\n",
            "            connect_ip 10.0.1.1\n            connect_port 8080\n",
            "            virtualhost pool.example.com\n",
            "            connect_ip 10.0.1.9\n            connect_port 80\n",
            "            misc_path \"/bin/check -a b c\"\n            misc_timeout 0.5\n",
            "    lvs_sched sh\n    sh-port\n    persistence_timeout 60\n    \
             persistence_granularity 255.255.0.0\n",
            "    host www.example.com\n",
            "url_rule r1 {\n    host *.example.org\n    path_prefix /p/\n    priority 0\n    \
             pool a-1\n}\n",
            "    path \"/q;r\"\n    priority 65535\n    pool 10.0.0.2:80\n",
            "virtual_server 10.0.0.4 80 {\n    pool 10.0.0.2:80\n}\n",
        ] {
            assert!(text.contains(s), "no {s:?} in\n{text}");
        }
    }

    #[test]
    fn the_printed_form() {
        let c = parsed(
            "virtual_server 10.0.0.1 80 { default_pool web }\n\
             pool web { lvs_sched rr; real_server 10.0.1.1 80 { TCP_CHECK { } } }\n\
             url_rule { path /a; pool web }\n",
        );
        assert_eq!(
            c.to_string(),
            "virtual_server 10.0.0.1 80 {\n    default_pool web\n}\n\n\
             pool web {\n    lvs_sched rr\n    delay_loop 60\n    quorum 1\n    hysteresis 0\n    \
             real_server 10.0.1.1 80 {\n        weight 1\n        TCP_CHECK {\n            \
             connect_timeout 5\n            retry 1\n            delay_before_retry 1\n        \
             }\n    }\n}\n\n\
             url_rule {\n    path /a\n    priority 100\n    pool web\n}\n"
        );
        assert_eq!(Config::default().to_string(), "");
        round_trip(&Config::default());
    }

    /// Pools and services each in their order, a service as early as that allows.
    #[test]
    fn pools_and_services_keep_their_order() {
        let c = parsed(
            "pool a { real_server 10.0.1.1 80 }\n\
             virtual_server 10.0.0.1 80 { real_server 10.0.2.1 80 }\n\
             pool b { real_server 10.0.1.2 80 }\n\
             virtual_server 10.0.0.2 80 { pool a }\n\
             virtual_server 10.0.0.3 80 { real_server 10.0.2.2 80 }\n\
             virtual_server 10.0.0.4 80 { pool b }\n\
             pool c { real_server 10.0.1.3 80 }\n",
        );
        let text = round_trip(&c);
        let heads: Vec<&str> = text
            .lines()
            .filter(|l| l.ends_with(" {") && !l.starts_with(' '))
            .collect();
        assert_eq!(
            heads,
            [
                "pool a {",
                "virtual_server 10.0.0.1 80 {",
                "virtual_server 10.0.0.2 80 {",
                "pool b {",
                "virtual_server 10.0.0.3 80 {",
                "virtual_server 10.0.0.4 80 {",
                "pool c {",
            ]
        );
    }

    /// Strings read back as themselves however they are made, and the quoting is the
    /// shortest.
    #[test]
    fn strings_are_quoted_as_the_tokenizer_reads_them() {
        for s in [
            "plain",
            "",
            " ",
            "a b",
            "\t",
            "\"",
            "\\",
            "\\\\",
            "a\\",
            "\\\"",
            "a\\b",
            "#x",
            "!x",
            "a#b!",
            "{",
            "}",
            ";",
            "a;b",
            "é",
            "a\u{2028}b",
            "a\rb",
            "\u{1}",
        ] {
            let q = quote(s);
            assert_eq!(q == s, plain(s), "{s:?} -> {q}");
            let c = parsed(&format!("global_defs {{ router_id {q} }}\n"));
            assert_eq!(c.router_id.as_deref(), Some(s), "{s:?} -> {q}");
            let c = parsed(&format!(
                "pool p {{ real_server 10.0.0.1 80 {{ MISC_CHECK {{ misc_path {} }} }} }}\n",
                quoted(&format!("x{s}"))
            ));
            let Checker::Misc(m) = &c.pools[0].servers[0].checkers[0] else {
                panic!("{c:?}");
            };
            assert_eq!(m.path, format!("x{s}"));
            round_trip(&c);
        }
        // Escapes only where needed: `\` before another character stands for itself.
        assert_eq!(quote("a\\b c"), "\"a\\b c\"");
        assert_eq!(quote("a\\\"b"), "\"a\\\\\\\"b\"");
        assert_eq!(quote("a b\\"), "\"a b\\\\\"");
    }

    /// Lines the limit would refuse are written unindented and with the shortest values,
    /// never longer than the line they were read from.
    #[test]
    fn long_lines_stay_within_the_limit() {
        let fill = |prefix: &str, suffix: &str, c: char| {
            let n = MAX_LINE_BYTES - prefix.len() - suffix.len();
            format!("{prefix}{}{suffix}", c.to_string().repeat(n))
        };
        let lines = [
            fill("router_id ", "", 'r'),
            fill("router_id \"", "\"", ' '),
            fill("router_id \"é", "é\"", 'x'),
            fill("misc_path ", " b", 'a'),
            fill("misc_path \"", " b\"", 'a'),
            fill("load_command ", " .5", 'c'),
            fill("load_command \"x", "\" 5e-1", ' '),
            fill("virtualhost ", "", 'v'),
            fill("url_rule ", "{", 'n'),
            fill("pool ", "{", 'p'),
        ];
        for line in &lines {
            assert_eq!(line.len(), MAX_LINE_BYTES);
            let kw = line.split([' ', '{']).next().unwrap_or_default();
            let text = match kw {
                "router_id" => format!("global_defs {{\n{line}\n}}\n"),
                "misc_path" => format!(
                    "pool p {{ real_server 10.0.0.1 80 {{ MISC_CHECK {{\n{line}\n}} }} }}\n"
                ),
                "load_command" => {
                    format!("pool p {{ dynamic_feedback {{ connections 0.5\n{line}\n}} }}\n")
                }
                "virtualhost" => format!(
                    "pool p {{ real_server 10.0.0.1 80 {{ HTTP_GET {{ url {{ path /\n{line}\n}} \
                     }} }} }}\n"
                ),
                "url_rule" => format!("{line}\npath /; pool p }}\npool p {{ }}\n"),
                _ => format!("{line}\n}}\n"),
            };
            let printed = round_trip(&parsed(&text));
            // Written unindented, as long as the line read.
            assert!(
                printed
                    .lines()
                    .any(|l| l.starts_with(kw) && l.len() > MAX_LINE_BYTES - 8),
                "{kw}"
            );
        }
    }

    #[test]
    fn numbers_read_back_exactly() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut values: Vec<f64> = vec![
            0.0,
            -0.0,
            1.0,
            0.05,
            1.0 / 3.0,
            1e-7,
            5e-324,
            f64::MIN_POSITIVE,
            1.5e10,
            1e6,
            123_456.789,
        ];
        for _ in 0..20_000 {
            let r = next();
            values.push(f64::from_bits(r));
            values.push((r >> 11) as f64 / (1u64 << 53) as f64);
        }
        for v in values.into_iter().filter(|v| v.is_finite()) {
            for t in [float_text(v), float_shortest(v)] {
                assert_eq!(t.parse::<f64>(), Ok(v), "{v:e} -> {t}");
            }
            assert!(float_shortest(v).len() <= float_text(v).len());
        }
        // The shortest form is never longer than what was written.
        for written in [
            ".5", "5e-1", "1e5", "15e9", "0.000001", ".0001", "1e-300", "12.5e-3",
        ] {
            let v: f64 = written.parse().unwrap();
            let t = float_shortest(v);
            assert!(t.len() <= written.len(), "{written} -> {t}");
            assert_eq!(t.parse::<f64>(), Ok(v));
        }
        assert_eq!(float_text(0.05), "0.05");
        assert_eq!(float_text(1e-3), "0.001");
        assert_eq!(float_text(1e3), "1000");
        assert_eq!(float_text(1e-20), "1e-20");
        assert_eq!(float_shortest(0.05), ".05");
        assert_eq!(float_shortest(1.5e10), "15e9");

        // Durations: as the reader makes them, rounded to the nanosecond from seconds.
        for _ in 0..50_000 {
            let v = (next() >> 11) as f64 / (1u64 << 53) as f64 * 31_536_000.0;
            let v = if next() % 2 == 0 { v } else { v / 1e6 };
            let d = Duration::from_secs_f64(v);
            let t = secs_text(d);
            assert_eq!(
                Duration::try_from_secs_f64(t.parse().unwrap()),
                Ok(d),
                "{v} {t}"
            );
        }
        assert_eq!(secs_text(Duration::from_millis(1500)), "1.5");
        assert_eq!(secs_text(Duration::from_secs(60)), "60");
        assert_eq!(secs_text(Duration::from_nanos(1)), "0.000000001");
    }

    /// What the reader cannot have made prints as a file the reader refuses.
    #[test]
    fn configurations_the_reader_cannot_make_are_refused_when_read_back() {
        let refused = |c: &Config| -> ConfigErrors {
            parse("printed.conf", &c.to_string()).expect_err(&c.to_string())
        };
        let base = parsed(
            "virtual_server 10.0.0.1 80 { real_server 10.0.1.1 80 }\n\
             virtual_server 10.0.0.2 80 { real_server 10.0.1.2 80 }\n",
        );
        // An implicit pool without its service.
        let mut c = base.clone();
        c.services.remove(0);
        refused(&c);
        // Implicit pools out of their services' order.
        let mut c = base.clone();
        c.pools.swap(0, 1);
        refused(&c);
        // A port 0, a name with a space, a line end in a string.
        let mut c = base.clone();
        c.pools[0].servers[0].addr.set_port(0);
        refused(&c);
        let mut c = base.clone();
        c.pools[1].name = "a b".into();
        c.pools[1].implicit = false;
        refused(&c);
        let mut c = base;
        c.router_id = Some("a\nb".into());
        refused(&c);
    }
}
