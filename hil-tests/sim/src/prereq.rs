//! Tests whose prerequisites (root, a tool, a Python module) may be missing on a
//! developer's machine.
//!
//! Run by hand, such a test prints a note and passes. Under `cargo xtask test` and `.ci/run`
//! [`REQUIRE_ENV`] is set and a missing prerequisite fails the test instead, so a CI run
//! cannot pass by skipping. When [`SKIP_LOG_ENV`] names a file, every skip is appended to it
//! as one line (`cargo xtask hil` reports such a scenario as "skip", `cargo xtask test`
//! counts them).

use std::io::Write;

/// Set to `1` to make a missing prerequisite a test failure.
pub const REQUIRE_ENV: &str = "SPLICENIC_REQUIRE_ALL";
/// A file every skip is appended to, one line each.
pub const SKIP_LOG_ENV: &str = "SPLICENIC_SKIP_LOG";

/// Whether [`REQUIRE_ENV`] asks for every prerequisite.
pub fn required() -> bool {
    std::env::var(REQUIRE_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `what` (a test or a sub-case) cannot run here because of `why`. Panics when
/// [`required`]; otherwise prints `note: WHY, skipping WHAT`, records the skip in
/// [`SKIP_LOG_ENV`] and returns (the caller then leaves the test or the sub-case out).
pub fn skip(what: &str, why: &str) {
    if required() {
        panic!(
            "{what} cannot run: {why}. {REQUIRE_ENV}=1 (cargo xtask test, .ci/run) makes a \
             missing prerequisite a failure: run as root after `cargo xtask setup`"
        );
    }
    eprintln!("note: {why}, skipping {what}");
    if let Some(path) = std::env::var_os(SKIP_LOG_ENV) {
        let line = format!("{what}: {why}\n");
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(e) = written {
            panic!("cannot record the skip in {}: {e}", path.to_string_lossy());
        }
    }
}

/// True when running as root (TAP devices and network namespaces need it).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// `Some(())` when root; otherwise [`skip`]s `what` and returns `None`.
pub fn need_root(what: &str) -> Option<()> {
    if is_root() {
        return Some(());
    }
    skip(
        what,
        "not root (TAP devices and network namespaces need it)",
    );
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The environment is process-wide: one test covers both modes.
    #[test]
    fn skip_notes_and_logs_or_fails_when_required() {
        let log = std::env::temp_dir().join(format!("snic-skip-{}.log", std::process::id()));
        let _ = std::fs::remove_file(&log);
        std::env::set_var(SKIP_LOG_ENV, &log);
        std::env::remove_var(REQUIRE_ENV);
        skip("a sub-case", "frobnicate not installed");
        assert_eq!(
            std::fs::read_to_string(&log).unwrap(),
            "a sub-case: frobnicate not installed\n"
        );
        std::env::set_var(REQUIRE_ENV, "1");
        let r = std::panic::catch_unwind(|| skip("another", "no root"));
        std::env::remove_var(REQUIRE_ENV);
        std::env::remove_var(SKIP_LOG_ENV);
        let msg = r.expect_err("required prerequisites must fail");
        let text = msg.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(text.contains("another cannot run: no root"), "{text}");
        let _ = std::fs::remove_file(&log);
    }
}
