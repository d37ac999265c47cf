//! Progress of long operations on stderr: a bar on a terminal, a line per 10 % otherwise
//! (so logs of scripted runs still show that work goes on), nothing with `--quiet`.

use std::io::IsTerminal;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use splicenic_driver::apply::{ApplyProgress, Step};

/// Reports the progress of one operation at a time.
#[derive(Debug)]
pub struct Progress {
    quiet: bool,
    tty: bool,
    bar: Option<ProgressBar>,
    what: String,
    total: u64,
    done: u64,
    last_tenth: u64,
    started: Option<Instant>,
}

impl Progress {
    /// Progress on stderr; `quiet` turns it off.
    pub fn new(quiet: bool) -> Progress {
        Progress {
            quiet,
            tty: std::io::stderr().is_terminal(),
            bar: None,
            what: String::new(),
            total: 0,
            done: 0,
            last_tenth: 0,
            started: None,
        }
    }

    /// Starts an operation of `total` steps.
    pub fn start(&mut self, what: &str, total: u64) {
        self.what = what.to_string();
        self.total = total;
        self.done = 0;
        self.last_tenth = 0;
        self.started = Some(Instant::now());
        if self.quiet {
            return;
        }
        if self.tty {
            let bar = ProgressBar::new(total);
            if let Ok(style) =
                ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({elapsed}, {eta} left)")
            {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_message(what.to_string());
            self.bar = Some(bar);
        } else {
            eprintln!("{what}: 0/{total}");
        }
    }

    /// `n` more steps done.
    pub fn inc(&mut self, n: u64) {
        self.done += n;
        if self.quiet {
            return;
        }
        if let Some(b) = &self.bar {
            b.inc(n);
        } else if let Some(tenth) = (self.done * 10).checked_div(self.total) {
            if tenth > self.last_tenth && tenth < 10 {
                self.last_tenth = tenth;
                eprintln!("{}: {}/{}", self.what, self.done, self.total);
            }
        }
    }

    /// The operation is over.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        if !self.quiet {
            let secs = self
                .started
                .map(|s| s.elapsed().as_secs_f64())
                .unwrap_or(0.0);
            eprintln!(
                "{}: {}/{} done in {secs:.2} s",
                self.what, self.done, self.total
            );
        }
    }
}

/// `rules load`'s progress: a bar while the URL rules are written.
impl ApplyProgress for Progress {
    fn begin(&mut self, step: Step) {
        if let Step::Rules { total } = step {
            self.start("loading rules into the inactive bank", total as u64);
        }
    }

    fn rule_written(&mut self, done: usize, _total: usize) {
        self.inc((done as u64).saturating_sub(self.done));
    }

    fn end(&mut self, step: Step) {
        if let Step::Rules { .. } = step {
            self.finish();
        }
    }
}
