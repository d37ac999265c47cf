//! Configuration files: the examples parse and plan; every broken file in `config-errors/`
//! reports exactly the errors its `# expect: LINE:COL: fragment` lines name.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use splicenic_driver::config::{
    self, compile_rules, ConfigError, HostMatch, Limits, Loc, PathMatch, RuleChange, RuleTable,
    ServiceKind, UrlRule, NO_POOL,
};
use splicenic_driver::datapath::{HostKind, PathKind};
use splicenic_driver::flowmgr::{Scheduler, ServiceMode};

mod common;
use common::{conf_files, repo};

/// Parse errors, or when the file parses, the planning errors.
fn errors_of(name: &str, text: &str) -> Vec<ConfigError> {
    match config::parse(name, text) {
        Err(e) => e.0,
        Ok(c) => match config::plan(&c, &Limits::card_default()) {
            Err(e) => e.0,
            Ok(_) => Vec::new(),
        },
    }
}

#[test]
fn every_example_parses_and_plans() {
    let files = conf_files(&repo().join("examples"));
    assert!(files.len() >= 2);
    for f in files {
        let c = config::load(&f).unwrap_or_else(|e| panic!("{}:\n{e}", f.display()));
        let p = config::plan(&c, &Limits::card_default())
            .unwrap_or_else(|e| panic!("{}:\n{e}", f.display()));
        assert!(!p.services.is_empty(), "{}", f.display());
        assert!(p.warnings.is_empty(), "{}: {:?}", f.display(), p.warnings);
    }
}

#[test]
fn the_example_describes_what_it_says() {
    let c = config::load(&repo().join("examples/splicenic.conf")).unwrap();
    assert_eq!(c.router_id.as_deref(), Some("splicenic-lb1"));
    assert_eq!(c.timeouts.tcp, Some(900));
    assert_eq!(c.timeouts.tcpfin, Some(120));
    assert_eq!(c.timeouts.udp, Some(300));
    assert_eq!(c.timeouts.linger, Some(2));
    let names: Vec<&str> = c.pools.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["web", "static", "api", "10.0.0.101:80"]);
    assert_eq!(
        c.services[0].mode,
        ServiceKind::L7 {
            default_pool: "web".into()
        }
    );
    let web = &c.pools[0];
    assert_eq!(web.sched, Scheduler::Wlc);
    assert_eq!(web.servers.len(), 2);
    assert!(web.servers[1].inhibit_on_failure);
    assert!(!web.servers[0].inhibit_on_failure);
    let config::Checker::Http(h) = &web.servers[0].checkers[0] else {
        panic!("HTTP_GET expected");
    };
    assert_eq!(h.urls.len(), 2);
    assert_eq!(h.urls[0].status_code, Some(200));
    assert_eq!(h.urls[1].digest.unwrap()[0], 0x9b);
    assert_eq!(h.common.retry, 3);
    let api = &c.pools[2];
    assert_eq!(api.sched, Scheduler::Wrr);
    assert_eq!(
        api.persistence,
        Some((300, "255.255.255.0".parse().unwrap()))
    );
    let fb = api.feedback.as_ref().unwrap();
    assert_eq!(fb.inputs.len(), 2);
    let config::Checker::Misc(m) = &api.servers[0].checkers[0] else {
        panic!("MISC_CHECK expected");
    };
    assert!(m.dynamic);
    assert_eq!(m.path, "/usr/local/bin/check-api 10.0.3.1 8080");
    assert_eq!(c.rules.len(), 5);
    assert_eq!(
        c.rules[2].host,
        HostMatch::Suffix(".static.example.com".into())
    );
    assert_eq!(c.rules[4].priority, 100);
    let l4 = &c.pools[3];
    assert!(l4.implicit);
    assert!(l4.fallback);
    assert!(l4.sorry_server.is_some());

    let p = config::plan(&c, &Limits::card_default()).unwrap();
    assert_eq!(p.services[0].mode, ServiceMode::L7 { fallback_pool: 0 });
    assert_eq!(p.services[1].mode, ServiceMode::L4 { pool: 3 });
    assert_eq!(p.services[1].index, 1);
    // Real-server indices run across pools in declaration order; sorry servers included.
    let rs: Vec<u8> = p
        .pools
        .iter()
        .flat_map(|p| p.servers.iter().chain(&p.sorry))
        .map(|s| s.rs)
        .collect();
    assert_eq!(rs, (0..rs.len() as u8).collect::<Vec<_>>());
    assert_eq!(p.pools[0].sorry.as_ref().unwrap().rs, 2);
    assert_eq!(p.rules.default_pool, 0);
    assert_eq!(p.rules.rules[0].rule.pool, 2);
    assert_eq!(p.rules.rules[0].rule.rule_id, 0);
    assert_eq!(p.rules.rules[0].rule.priority, 10);
    assert_eq!(p.rules.rules[2].rule.host_kind, HostKind::Suffix);
    assert_eq!(p.rules.rules[3].rule.path_kind, PathKind::Prefix);
    // Every compiled rule fits the default card's word map.
    for r in &p.rules.rules {
        r.rule.encode(64).unwrap();
    }
}

#[test]
fn keepalived_file_reads_unchanged() {
    let c = config::load(&repo().join("examples/keepalived-l4.conf")).unwrap();
    assert_eq!(c.router_id.as_deref(), Some("LVS_DEVEL"));
    let p = &c.pools[0];
    assert_eq!(p.name, "192.168.200.100:443");
    assert_eq!(p.sched, Scheduler::Rr);
    assert_eq!(
        p.persistence,
        Some((50, "255.255.255.255".parse().unwrap()))
    );
    assert_eq!(p.delay_loop.as_secs(), 6);
    assert_eq!(p.servers.len(), 2);
    let config::Checker::Tcp(t) = &p.servers[0].checkers[0] else {
        panic!("TCP_CHECK expected");
    };
    assert_eq!(t.common.retry, 3);
    assert_eq!(t.common.connect_timeout.as_secs(), 3);
}

struct Expect {
    line: u32,
    col: u32,
    fragment: String,
}

fn expectations(path: &Path, text: &str) -> Vec<Expect> {
    let ex: Vec<Expect> = text
        .lines()
        .map_while(|l| l.strip_prefix("# expect: "))
        .map(|rest| {
            let mut it = rest.splitn(3, ':');
            let line = it.next().unwrap().trim().parse().unwrap();
            let col = it.next().unwrap().trim().parse().unwrap();
            let fragment = it.next().unwrap().trim().to_string();
            Expect {
                line,
                col,
                fragment,
            }
        })
        .collect();
    assert!(
        !ex.is_empty(),
        "{}: the first line must be `# expect: LINE:COL: fragment`",
        path.display()
    );
    ex
}

#[test]
fn every_broken_file_reports_exactly_its_errors() {
    let dir = repo().join("host-driver/tests/config-errors");
    let files = conf_files(&dir);
    assert!(files.len() >= 20, "only {} broken files", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let text = fs::read_to_string(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let expected = expectations(f, &text);
        let mut got = errors_of(&name, &text);
        for e in &got {
            assert_eq!(e.loc.file, name);
        }
        for x in &expected {
            let pos = got.iter().position(|e| {
                e.loc.line == x.line && e.loc.col == x.col && e.message.contains(&x.fragment)
            });
            match pos {
                Some(i) => {
                    got.remove(i);
                }
                None => failures.push(format!(
                    "{name}: expected {}:{}: {}",
                    x.line, x.col, x.fragment
                )),
            }
        }
        for e in got {
            failures.push(format!("{name}: unexpected {e}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn several_errors_are_all_reported_in_file_order() {
    let text =
        fs::read_to_string(repo().join("host-driver/tests/config-errors/several-errors.conf"))
            .unwrap();
    let e = config::parse("several.conf", &text).unwrap_err();
    assert_eq!(e.len(), 7);
    let lines: Vec<u32> = e.errors().iter().map(|e| e.loc.line).collect();
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    // One `file:line:col: error: message` per line.
    let shown = e.to_string();
    assert_eq!(shown.lines().count(), 7);
    assert!(shown
        .lines()
        .next()
        .unwrap()
        .starts_with("several.conf:10:5: error: unknown keyword `lvs_timeout`"));
}

#[test]
fn lvs_timeouts_take_the_cards_linger() {
    let timeouts = |text: &str| {
        let cfg = format!(
            "global_defs {{ {text} }}\nvirtual_server 10.0.0.1 80 {{ real_server 10.0.1.1 80 }}\n"
        );
        config::parse("t.conf", &cfg).map(|c| c.timeouts)
    };
    let t = timeouts("lvs_timeouts tcp 900 tcpfin 120 udp 300 linger 2").unwrap();
    assert_eq!(
        (t.tcp, t.tcpfin, t.udp, t.linger),
        (Some(900), Some(120), Some(300), Some(2))
    );
    // Alone, in any order; 0 leaves the card's value as for the others.
    assert_eq!(timeouts("lvs_timeouts linger 5").unwrap().linger, Some(5));
    assert_eq!(
        timeouts("lvs_timeouts linger 0 tcp 60").unwrap(),
        config::Timeouts {
            tcp: Some(60),
            ..config::Timeouts::default()
        }
    );
    let max = config::MAX_LINGER_SECS;
    assert_eq!(
        timeouts(&format!("lvs_timeouts linger {max}"))
            .unwrap()
            .linger,
        Some(max)
    );
    let err = |text: &str| timeouts(text).unwrap_err().to_string();
    let e = err(&format!("lvs_timeouts linger {}", max + 1));
    assert!(
        e.contains(&format!(
            "1:35: error: `linger` {} s is out of range: 1 up to {max} s (0 = unchanged)",
            max + 1
        )),
        "{e}"
    );
    let e = err("lvs_timeouts linger 1.5");
    assert!(
        e.contains("`linger` timeout expects whole seconds (0 = unchanged), found `1.5`"),
        "{e}"
    );
    let e = err("lvs_timeouts linger 2 linger 3");
    assert!(e.contains("`linger` given twice in `lvs_timeouts`"), "{e}");
    let e = err("lvs_timeouts linger");
    assert!(e.contains("`linger` has no value"), "{e}");
    let e = err("lvs_timeouts lingr 2");
    assert!(
        e.contains("takes `tcp N`, `tcpfin N`, `udp N` and/or `linger N` (seconds); found `lingr`"),
        "{e}"
    );
}

#[test]
fn an_unreadable_file_is_an_error_naming_it() {
    let e = config::load(Path::new("/nonexistent/splicenic.conf")).unwrap_err();
    assert_eq!(e.len(), 1);
    assert!(e
        .to_string()
        .starts_with("/nonexistent/splicenic.conf: error: cannot read"));
}

#[test]
fn defaults_follow_keepalived() {
    let c = config::parse(
        "d.conf",
        "virtual_server 10.0.0.1 80 { real_server 10.0.1.1 80 { HTTP_GET { url { path / } } } }",
    )
    .unwrap();
    let p = &c.pools[0];
    assert_eq!(p.sched, Scheduler::Wlc);
    assert_eq!(p.delay_loop.as_secs(), 60);
    assert_eq!((p.quorum, p.hysteresis), (1, 0));
    assert_eq!(p.persistence, None);
    let s = &p.servers[0];
    assert_eq!(s.weight, 1);
    let config::Checker::Http(h) = &s.checkers[0] else {
        panic!()
    };
    assert_eq!(h.common.connect_timeout.as_secs(), 5);
    assert_eq!(h.common.retry, 1);
    assert_eq!(h.common.delay_before_retry.as_secs(), 1);
    assert_eq!(h.common.connect_to, None);
    assert_eq!(h.urls[0].status_code, None);
}

#[test]
fn syntax_variants_are_accepted() {
    // `{` on the next line, `;` separators, `!` comments, fractional delay_loop, the
    // keepalived aliases, connect_port alone, pool-level inhibit_on_failure and virtualhost.
    let text = "\
virtual_server 10.0.0.1 80\n\
{\n\
    lb_algo sh; sh-port ; lvs_flags sh-fallback\n\
    delay_loop 0.5 ! half a second\n\
    persistence_timeout\n\
    inhibit_on_failure\n\
    virtualhost www.example.com\n\
    real_server 10.0.1.1 80 { HTTP_GET { url { path /x } connect_port 8080 } }\n\
}\n";
    let c = config::parse("v.conf", text).unwrap();
    let p = &c.pools[0];
    assert_eq!(p.sched, Scheduler::Sh);
    assert!(p.fallback && p.hash_port);
    assert_eq!(p.delay_loop.as_millis(), 500);
    assert_eq!(p.persistence.map(|x| x.0), Some(360));
    let s = &p.servers[0];
    assert!(s.inhibit_on_failure);
    let config::Checker::Http(h) = &s.checkers[0] else {
        panic!()
    };
    assert_eq!(h.virtualhost.as_deref(), Some("www.example.com"));
    assert_eq!(h.common.connect_to, Some("10.0.1.1:8080".parse().unwrap()));
}

fn services_text(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "virtual_server 10.0.0.{} 80 {{ real_server 10.0.1.1 80 }}\n",
                i + 1
            )
        })
        .collect()
}

#[test]
fn capacity_errors_say_what_fits() {
    let c = config::parse("s.conf", &services_text(9)).unwrap();
    let e = config::plan(&c, &Limits::card_default()).unwrap_err();
    let msgs: Vec<String> = e.errors().iter().map(|e| e.message.clone()).collect();
    assert!(
        msgs.iter()
            .any(|m| m == "9 virtual_servers declared; the card has 8"),
        "{msgs:?}"
    );
    assert_eq!(e.errors()[0].loc.line, 9);

    // 65 real servers in one pool.
    let mut text = String::from("virtual_server 10.0.0.1 80 {\n");
    for i in 0..65 {
        text.push_str(&format!(
            "  real_server 10.0.{}.{} 80\n",
            i / 200,
            i % 200 + 1
        ));
    }
    text.push_str("}\n");
    let c = config::parse("r.conf", &text).unwrap();
    let e = config::plan(&c, &Limits::card_default()).unwrap_err();
    assert_eq!(
        e.errors()[0].message,
        "65 real servers declared; the card has 64"
    );
    assert_eq!(e.errors()[0].loc.line, 66);

    // 1000 rules.
    let mut text = String::from(
        "virtual_server 10.0.0.1 80 { default_pool web }\npool web { real_server 10.0.1.1 80 }\n",
    );
    for i in 0..1000 {
        text.push_str(&format!("url_rule {{ path /p{i} ; pool web }}\n"));
    }
    let c = config::parse("u.conf", &text).unwrap();
    let e = config::plan(&c, &Limits::card_default()).unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(
        e.errors()[0].message,
        "the rule set has 1000 rules; the card's table holds 64 per bank"
    );
    assert_eq!(e.errors()[0].loc.line, 3 + 64);

    // A card built with a bigger table takes them.
    let big = Limits {
        rules: 1024,
        ..Limits::card_default()
    };
    assert_eq!(config::plan(&c, &big).unwrap().rules.rules.len(), 1000);
}

fn synthetic(n: usize) -> Vec<UrlRule> {
    (0..n)
        .map(|i| UrlRule {
            loc: Loc {
                file: "gen".into(),
                line: i as u32 + 1,
                col: 1,
            },
            name: Some(format!("r{i}")),
            host: if i % 2 == 0 {
                HostMatch::Exact(format!("h{i}.example.com"))
            } else {
                HostMatch::Suffix(format!(".d{i}.example.com"))
            },
            path: PathMatch::Prefix(format!("/p{i}/")),
            priority: (i % 7) as u16,
            pool: if i % 3 == 0 { "a" } else { "b" }.into(),
            pool_loc: Loc::default(),
        })
        .collect()
}

#[test]
fn large_rule_sets_compile_without_the_card_limit() {
    let pools: HashMap<String, u16> = [("a".to_string(), 0), ("b".to_string(), 1)].into();
    let limits = Limits {
        rules: usize::MAX,
        ..Limits::card_default()
    };
    let t = compile_rules(&synthetic(10_000), &pools, &limits).unwrap();
    assert_eq!(t.rules.len(), 10_000);
    assert_eq!(t.rules[9_999].rule.rule_id, 9_999);
    assert_eq!(t.default_pool, NO_POOL);
    let back = RuleTable::from_blob(&t.to_blob()).unwrap();
    assert_eq!(back, t);
    assert!(compile_rules(&synthetic(65), &pools, &Limits::card_default()).is_err());
}

fn table(text: &str) -> RuleTable {
    let c = config::parse("t.conf", text).unwrap();
    config::plan(&c, &Limits::card_default()).unwrap().rules
}

const BASE: &str = "\
virtual_server 10.0.0.1 80 { default_pool web }
pool web { real_server 10.0.1.1 80 }
pool api { real_server 10.0.2.1 80 }
";

#[test]
fn blob_round_trip_of_a_planned_table() {
    let t = table(&format!(
        "{BASE}url_rule api {{ host api.example.com; path_prefix /v1/; priority 10; pool api }}\n\
         url_rule {{ host *.example.com; pool web }}\n"
    ));
    let blob = t.to_blob();
    assert_eq!(RuleTable::from_blob(&blob).unwrap(), t);
    for n in 0..blob.len() {
        assert!(RuleTable::from_blob(&blob[..n]).is_err());
    }
}

#[test]
fn display_reads_back_as_the_same_rules() {
    let t = table(&format!(
        "{BASE}url_rule api {{ host api.example.com; path_prefix /v1/; priority 10; pool api }}\n\
         url_rule {{ host *.example.com; path \"/a;b\"; pool web }}\n"
    ));
    let shown = t.to_string();
    assert!(
        shown.starts_with("# default_pool web (pool 0)\n"),
        "{shown}"
    );
    assert!(shown.contains(
        "url_rule api { host api.example.com; path_prefix /v1/; priority 10; pool api }"
    ));
    // Printed back into a file, the rules compile to the same table.
    let again = table(&format!("{BASE}{shown}"));
    assert_eq!(again.to_string(), shown);
    assert_eq!(again.rules.len(), t.rules.len());
    for (a, b) in again.rules.iter().zip(&t.rules) {
        assert_eq!(a.rule, b.rule);
        assert_eq!(a.name, b.name);
    }
}

#[test]
fn a_configuration_prints_as_a_file_that_reads_back_the_same() {
    for f in conf_files(&repo().join("examples")) {
        let c = config::load(&f).unwrap_or_else(|e| panic!("{}:\n{e}", f.display()));
        let text = c.to_string();
        let again = config::parse("printed.conf", &text)
            .unwrap_or_else(|e| panic!("{}:\n{text}\n{e}", f.display()));
        assert_eq!(again.without_locations(), c.without_locations(), "{text}");
        assert_ne!(again, c, "the locations differ");
        assert_eq!(again.to_string(), text);
        // The same card tables: the same rule table (the rules' places aside) and pools.
        let (p, q) = (
            config::plan(&c, &Limits::card_default()).unwrap(),
            config::plan(&again, &Limits::card_default()).unwrap(),
        );
        assert_eq!(q.rules.to_string(), p.rules.to_string());
        let rules = |p: &config::Plan| -> Vec<_> {
            p.rules
                .rules
                .iter()
                .map(|r| (r.rule.clone(), r.name.clone(), r.pool.clone()))
                .collect()
        };
        assert_eq!(rules(&q), rules(&p));
        let names =
            |p: &config::Plan| -> Vec<String> { p.pools.iter().map(|p| p.name.clone()).collect() };
        assert_eq!(names(&q), names(&p));
    }
}

#[test]
fn diff_names_added_removed_changed_and_moved_rules() {
    let old = table(&format!(
        "{BASE}url_rule api {{ host api.example.com; path_prefix /v1/; priority 10; pool api }}\n\
         url_rule old {{ path /old; pool web }}\n\
         url_rule a {{ path /a; priority 5; pool web }}\n\
         url_rule b {{ path_prefix /a; priority 5; pool api }}\n\
         url_rule {{ host www.example.com; pool web }}\n"
    ));
    let new = table(&format!(
        "{BASE}url_rule b {{ path_prefix /a; priority 5; pool api }}\n\
         url_rule a {{ path /a; priority 5; pool web }}\n\
         url_rule api {{ host api.example.com; path_prefix /v2/; priority 10; pool api }}\n\
         url_rule {{ host www.example.org; pool web }}\n\
         url_rule new {{ path /new; priority 1; pool api }}\n"
    ));
    let d: Vec<String> = old.diff(&new).iter().map(ToString::to_string).collect();
    assert_eq!(
        d,
        [
            "~ rule b: path_prefix /a priority 5 -> pool api (moved from #3 to #0, ahead of a \
             rule of equal priority)",
            "~ rule api: host api.example.com path_prefix /v2/ priority 10 -> pool api (was: \
             host api.example.com path_prefix /v1/ priority 10 -> pool api)",
            "~ rule #3: host www.example.org priority 100 -> pool web (was: host \
             www.example.com priority 100 -> pool web)",
            "+ rule new: path /new priority 1 -> pool api",
            "- rule old: path /old priority 100 -> pool web",
        ]
    );
    assert!(old.diff(&old).is_empty());
    let none = RuleTable::default();
    let d = none.diff(&old);
    assert_eq!(d.len(), 6);
    assert_eq!(d[0].to_string(), "~ default_pool (none) -> web");
    assert!(matches!(d[1], RuleChange::Added { index: 0, .. }));
}

#[test]
fn damaged_files_give_errors_not_panics() {
    let text = fs::read_to_string(repo().join("examples/splicenic.conf")).unwrap();
    let chars: Vec<char> = text.chars().collect();
    // Every prefix: unclosed blocks, cut words and quotes.
    for n in (0..chars.len()).step_by(7) {
        let cut: String = chars[..n].iter().collect();
        let _ = config::parse("cut.conf", &cut).map(|c| config::plan(&c, &Limits::card_default()));
    }
    // Random damage: characters replaced by syntax characters and odd bytes.
    let junk = [
        '{', '}', '"', ';', '#', '\n', ' ', '0', '*', '%', 'é', '\u{0}', ':', '/',
    ];
    let mut seed: u64 = 0x5eed;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for _ in 0..300 {
        let mut c = chars.clone();
        for _ in 0..1 + next() % 4 {
            let i = next() % c.len();
            c[i] = junk[next() % junk.len()];
        }
        let damaged: String = c.into_iter().collect();
        if let Ok(cfg) = config::parse("damaged.conf", &damaged) {
            let _ = config::plan(&cfg, &Limits::card_default());
        }
    }
}

/// A file in a fresh temporary directory, removed on drop.
struct TempConf(PathBuf);

impl TempConf {
    fn new(name: &str, bytes: &[u8]) -> Self {
        let dir =
            std::env::temp_dir().join(format!("splicenic-config-{}-{name}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        TempConf(path)
    }
}

impl Drop for TempConf {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = fs::remove_dir_all(dir);
        }
    }
}

#[test]
fn invalid_utf8_is_reported_at_its_place_and_the_rest_is_checked() {
    let f = TempConf::new(
        "latin1.conf",
        b"global_defs {\n  router_id caf\xe9\n}\nvirtual_server 10.0.0.1 80 {\n  wieght 1\n  real_server 10.0.1.1 80\n}\n",
    );
    let e = config::load(&f.0).unwrap_err();
    let shown: Vec<String> = e.errors().iter().map(ToString::to_string).collect();
    let name = f.0.display().to_string();
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert_eq!(
        shown[0],
        format!(
            "{name}:2:16: error: invalid UTF-8 (1 byte: e9): the file must be UTF-8 text; read \
             as U+FFFD"
        )
    );
    // Checking went on after it.
    assert!(
        shown[1].starts_with(&format!("{name}:5:3: error: unknown keyword `wieght`")),
        "{shown:?}"
    );
    // The same through parse_bytes; parse (a str) never has them.
    let bytes = fs::read(&f.0).unwrap();
    assert_eq!(
        config::parse_bytes(&name, &bytes).unwrap_err().errors(),
        e.errors()
    );
}

#[test]
fn limits_are_errors_at_their_place() {
    // Nesting, as a fuzzed copy of the example had it: tens of thousands of `{`.
    let text = format!(
        "virtual_server 10.0.0.1 80 {{\n  real_server 10.0.1.1 80 {{\n{}",
        "   x {".repeat(40_000)
    );
    let e = config::parse("deep.conf", &text).unwrap_err();
    let shown: Vec<String> = e.errors().iter().map(ToString::to_string).collect();
    assert!(
        shown.contains(
            &"deep.conf:3:4097: error: line longer than 4096 bytes (the limit): words and quoted \
              strings on it are cut to 4096 characters"
                .to_string()
        ),
        "{shown:?}"
    );
    // Blocks 1 and 2 above, 14 more on line 3 (6 characters each), the 15th is too deep.
    let col = 6 * 15;
    assert!(
        shown.contains(&format!(
            "deep.conf:3:{col}: error: blocks nested deeper than {} levels (the limit): this \
             block is skipped up to its `}}`",
            config::MAX_DEPTH
        )),
        "{shown:?}"
    );

    // Too many errors: the first MAX_ERRORS, then how many more.
    let text = format!(
        "pool p {{\n{}}}\n",
        "  bad 1\n".repeat(config::MAX_ERRORS + 5)
    );
    let e = config::parse("many.conf", &text).unwrap_err();
    assert_eq!(e.len(), config::MAX_ERRORS + 1);
    assert_eq!(e.total(), config::MAX_ERRORS + 5, "every error is counted");
    let last = e.errors().last().unwrap();
    assert_eq!(
        last.to_string(),
        format!(
            "many.conf:{}:3: error: 5 more errors from here on not shown (at most {} are \
             reported, the limit)",
            config::MAX_ERRORS + 2,
            config::MAX_ERRORS
        )
    );
}

#[test]
fn past_the_error_limit_the_count_is_exact() {
    // Invalid UTF-8 on every line (the lexer's errors), with unknown keywords between
    // (the interpreter's): the first MAX_ERRORS in file order, then the exact rest.
    let n = 3 * config::MAX_ERRORS;
    let mut bytes = Vec::new();
    for i in 0..n {
        if i % 2 == 0 {
            bytes.extend_from_slice(b"x\xff\n");
        } else {
            bytes.extend_from_slice(b"pool p\xe9 { }\n");
        }
    }
    let e = config::parse_bytes("bin.conf", &bytes).unwrap_err();
    assert_eq!(e.len(), config::MAX_ERRORS + 1);
    // Each line has two errors: `x\xff` the bad byte (col 2) and the unknown keyword (col
    // 1), `pool p\xe9` the bad byte and the bad pool name (both col 7). Shown: lines 1 to
    // 500, then the count of the rest at line 501.
    let shown = e.errors();
    let lines: Vec<u32> = shown[..config::MAX_ERRORS]
        .iter()
        .map(|e| e.loc.line)
        .collect();
    let expected: Vec<u32> = (1..=(config::MAX_ERRORS / 2) as u32)
        .flat_map(|l| [l, l])
        .collect();
    assert_eq!(lines, expected);
    let last = shown.last().unwrap();
    assert_eq!(
        last.to_string(),
        format!(
            "bin.conf:{}:1: error: {} more errors from here on not shown (at most {} are \
             reported, the limit)",
            config::MAX_ERRORS / 2 + 1,
            2 * n - config::MAX_ERRORS,
            config::MAX_ERRORS
        )
    );
}

#[test]
fn the_error_limit_keeps_file_order_within_a_line() {
    // 999 errors, then a long line: its length error (col 4097) is found before its
    // invalid byte (col 9), which is the 1000th error in file order.
    let mut bytes = b"#\xff\n".repeat(config::MAX_ERRORS - 1);
    bytes.extend_from_slice(b"# 345678\xff");
    bytes.extend_from_slice(&[b'x'; 5000]);
    bytes.extend_from_slice(b"\n#\xff\n");
    let e = config::parse_bytes("order.conf", &bytes).unwrap_err();
    let at: Vec<(u32, u32)> = e.errors().iter().map(|e| (e.loc.line, e.loc.col)).collect();
    let line = config::MAX_ERRORS as u32;
    assert_eq!(at.len(), config::MAX_ERRORS + 1);
    assert_eq!(at[config::MAX_ERRORS - 1], (line, 9));
    assert!(e.errors()[config::MAX_ERRORS - 1]
        .message
        .starts_with("invalid UTF-8"));
    assert_eq!(at[config::MAX_ERRORS], (line, 4097));
    assert!(e.errors()[config::MAX_ERRORS]
        .message
        .starts_with("2 more errors from here on not shown"));
}

#[test]
fn a_file_over_the_size_limit_is_read_up_to_it() {
    // A valid head, then megabytes (an accidental binary, say): one error where the limit
    // is crossed, the head checked, at most the limit read.
    let mut bytes =
        b"virtual_server 10.0.0.1 80 {\n  lvs_shed wlc\n  real_server 10.0.1.1 80\n}\n".to_vec();
    let head = bytes.len();
    bytes.resize(3 * config::MAX_FILE_BYTES, b'#');
    let f = TempConf::new("big.conf", &bytes);
    let e = config::load(&f.0).unwrap_err();
    let name = f.0.display().to_string();
    let shown: Vec<String> = e.errors().iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(shown[0].starts_with(&format!("{name}:2:3: error: unknown keyword `lvs_shed`")));
    // Line 5 (one long comment) is cut by the limit, so not read at all.
    let col = config::MAX_FILE_BYTES - head + 1;
    assert_eq!(
        shown[1],
        format!(
            "{name}:5:{col}: error: the file is larger than 1048576 bytes (1 MiB, the limit): \
             the rest of the file is not read"
        )
    );
}

#[test]
fn card_index_numbers_pools_and_the_others_take_the_free_numbers() {
    let text = "virtual_server 10.0.0.1 80 { pool b }\n\
                pool a { real_server 10.0.1.1 80 }\n\
                pool b { card_index 0; real_server 10.0.1.2 80 }\n\
                pool c { card_index 3; real_server 10.0.1.3 80 }\n\
                pool d { real_server 10.0.1.4 80 }\n";
    let c = config::parse("t.conf", text).unwrap();
    let p = config::plan(&c, &Limits::card_default()).unwrap();
    let numbers: Vec<(&str, u8)> = p.pools.iter().map(|p| (p.name.as_str(), p.index)).collect();
    assert_eq!(numbers, [("a", 1), ("b", 0), ("c", 3), ("d", 2)]);
    assert_eq!(p.services[0].mode, ServiceMode::L4 { pool: 0 });
    // The printer keeps it.
    let again = config::parse("again.conf", &c.to_string()).unwrap();
    assert_eq!(again.without_locations(), c.without_locations());
}

#[test]
fn card_index_out_of_range_or_taken_twice_is_an_error_naming_the_pool() {
    let errs = errors_of(
        "t.conf",
        "virtual_server 10.0.0.1 80 { pool a }\n\
         pool a { card_index 8; real_server 10.0.1.1 80 }\n",
    );
    assert!(
        errs.iter().any(|e| e
            .message
            .contains("pool `a`: card_index 8 is past the card's 8 pools")),
        "{errs:?}"
    );
    let errs = errors_of(
        "t.conf",
        "virtual_server 10.0.0.1 80 { pool a }\n\
         pool a { card_index 2; real_server 10.0.1.1 80 }\n\
         pool b { card_index 2; real_server 10.0.1.2 80 }\n",
    );
    assert!(
        errs.iter().any(|e| e
            .message
            .contains("pool `b`: card_index 2 is pool `a`'s already")),
        "{errs:?}"
    );
    let errs = errors_of("t.conf", "pool a { card_index 300 }\n");
    assert!(!errs.is_empty());
}
