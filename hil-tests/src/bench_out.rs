//! Machine-readable bench results: each bench program prints its figures for people and,
//! when `$SPLICENIC_BENCH_DIR` is set (`cargo xtask bench` sets it to `target/bench`),
//! writes them to `<dir>/<bench>.json` for the performance report (docs/PERFORMANCE.md).
//!
//! ```json
//! {"bench": "spine", "command": "cargo run ...",
//!  "figures": [{"key": "sim.cycles_per_s", "label": "...", "value": 4.5e6,
//!               "unit": "cycles/s", "kind": "measured", "how": "..."}],
//!  "series": [{"key": "...", "label": "...", "x_label": "...", "y_label": "...",
//!              "points": [[64, 1.0], [128, 1.0]]}]}
//! ```
//!
//! `kind` says how a figure was obtained: `exact` (a cycle count of the simulated RTL),
//! `measured` (wall clock on this machine), `projected` (derived from cycle counts at a
//! clock frequency) or `reference` (quoted, e.g. from the seed paper).

use anyhow::{Context, Result};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The environment variable naming the results directory.
pub const BENCH_DIR_ENV: &str = "SPLICENIC_BENCH_DIR";

/// How a figure was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Exact,
    Measured,
    Projected,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::Measured => "measured",
            Kind::Projected => "projected",
        }
    }
}

/// One bench program's results.
#[derive(Debug)]
pub struct BenchOut {
    bench: String,
    command: String,
    figures: Vec<Value>,
    series: Vec<Value>,
}

impl BenchOut {
    /// Results of bench `bench` (the file name), produced by `command`.
    pub fn new(bench: &str, command: &str) -> BenchOut {
        BenchOut {
            bench: bench.to_string(),
            command: command.to_string(),
            figures: Vec::new(),
            series: Vec::new(),
        }
    }

    /// Add a figure.
    pub fn figure(
        &mut self,
        key: &str,
        label: &str,
        value: f64,
        unit: &str,
        kind: Kind,
        how: &str,
    ) {
        self.figures.push(json!({
            "key": key, "label": label, "value": value, "unit": unit,
            "kind": kind.name(), "how": how,
        }));
    }

    /// Add a series of (x, y) points (a plot line).
    pub fn series(
        &mut self,
        key: &str,
        label: &str,
        x_label: &str,
        y_label: &str,
        points: &[(f64, f64)],
    ) {
        let pts: Vec<[f64; 2]> = points.iter().map(|&(x, y)| [x, y]).collect();
        self.series.push(json!({
            "key": key, "label": label, "x_label": x_label, "y_label": y_label, "points": pts,
        }));
    }

    /// Write `<$SPLICENIC_BENCH_DIR>/<bench>.json` when the variable is set; the path
    /// written, if any.
    pub fn write(&self) -> Result<Option<PathBuf>> {
        let Some(dir) = std::env::var_os(BENCH_DIR_ENV).filter(|d| !d.is_empty()) else {
            return Ok(None);
        };
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join(format!("{}.json", self.bench));
        let v = json!({
            "bench": self.bench, "command": self.command,
            "figures": self.figures, "series": self.series,
        });
        std::fs::write(&path, serde_json::to_string_pretty(&v)?)
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(Some(path))
    }
}
