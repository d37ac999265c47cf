//! Dynamic-feedback weight adjustment (seed 004, "动态反馈负载均衡算法").
//!
//! Every `interval` the monitor samples each UP server's load inputs, folds them into one
//! aggregate load and moves the server's weight towards the value that would bring that
//! load to the target utilisation 0.95:
//!
//! ```text
//! AGGREGATE_LOAD_i = Σ_k R_k · LOAD_i(k) / Σ_k R_k      (k over the inputs sampled)
//! W_i' = round(W_i + A · ∛(0.95 − AGGREGATE_LOAD_i))
//!        clamped to [1, DEFAULT_WEIGHT_i · SCALE]         (DEFAULT_WEIGHT_i = 0: W_i' = 0)
//! applied when |W_i' − W_i| > THRESHOLD · W_i
//! ```
//!
//! The relative inputs (`connections`, `response_time`) are scaled so that the pool's mean
//! is the target: `LOAD_i = 0.95 · x_i / mean(x)`. A balanced pool keeps its weights, a
//! server busier than the mean loses weight and an idler one gains. `load_command` inputs
//! are absolute utilisations (1.0 = fully loaded) and are used as reported.
//!
//! The arithmetic is in pure functions ([`aggregate_load`], [`new_weight`],
//! [`should_apply`], [`feedback_round`]) so it can be checked by hand.

use std::net::SocketAddrV4;
use std::time::Duration;

use splicenic_driver::config::model::{Feedback, LoadInput};
use splicenic_driver::flowmgr::MAX_WEIGHT;

use super::process::{run_shell, RunError};

/// The utilisation the feedback steers each server to.
pub const TARGET_LOAD: f64 = 0.95;

/// Longest a `load_command` may run (it also never runs longer than the interval).
pub const MAX_COMMAND_TIME: Duration = Duration::from_secs(10);

/// `Σ R_k · LOAD(k) / Σ R_k` over the inputs that were sampled, each given as
/// `(ratio, load)`. Inputs with a negative or non-finite ratio or load are ignored;
/// `None` when nothing usable is left (the weight then stays as it is).
pub fn aggregate_load(samples: &[(f64, f64)]) -> Option<f64> {
    let usable = samples
        .iter()
        .filter(|(r, l)| r.is_finite() && *r > 0.0 && l.is_finite() && *l >= 0.0);
    let (sum, ratios) = usable.fold((0.0, 0.0), |(s, rs), (r, l)| (s + r * l, rs + r));
    (ratios > 0.0).then(|| sum / ratios)
}

/// The new weight `round(W + A · ∛(0.95 − aggregate))`, clamped to
/// `[1, configured · scale]` (and to the card's largest weight); a configured weight of 0
/// stays 0.
pub fn new_weight(
    current: u32,
    configured: u32,
    aggregate: f64,
    coefficient: f64,
    scale: u32,
) -> u32 {
    if configured == 0 {
        return 0;
    }
    let upper = (u64::from(configured) * u64::from(scale)).clamp(1, u64::from(MAX_WEIGHT));
    // `upper` is at most MAX_WEIGHT (65535), so it fits.
    let upper = u32::try_from(upper).unwrap_or(MAX_WEIGHT);
    let w = f64::from(current) + coefficient * (TARGET_LOAD - aggregate).cbrt();
    if !w.is_finite() {
        return current.clamp(1, upper);
    }
    let w = w.round().clamp(1.0, f64::from(upper));
    // In [1, upper] after the clamp, so the conversion is exact.
    w as u32
}

/// The new weight is applied only when it differs from the current one by more than
/// `threshold · current`.
pub fn should_apply(current: u32, new: u32, threshold: f64) -> bool {
    new != current && (f64::from(new) - f64::from(current)).abs() > threshold * f64::from(current)
}

/// The loads of a relative input: `TARGET_LOAD · x_i / mean(x)` for each present value
/// (the mean taken over the present ones), so that a server at the pool's mean is at the
/// target utilisation and keeps its weight; all 0 when the mean is 0.
pub fn relative_loads(values: &[Option<f64>]) -> Vec<Option<f64>> {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    if present.is_empty() {
        return values.to_vec();
    }
    let mean = present.iter().sum::<f64>() / present.len() as f64;
    values
        .iter()
        // `x / mean` first: a server exactly at the mean gets exactly TARGET_LOAD.
        .map(|v| {
            v.map(|x| {
                if mean > 0.0 {
                    TARGET_LOAD * (x / mean)
                } else {
                    0.0
                }
            })
        })
        .collect()
}

/// What the monitor sampled of one UP server in a feedback round.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sample {
    /// Its current weight `W`.
    pub current: u32,
    /// Its configured weight `DEFAULT_WEIGHT` (or the weight a `misc_dynamic` check set).
    pub configured: u32,
    /// Active connections on the card (`None`: could not be read).
    pub connections: Option<u32>,
    /// Its last health check's response time (`None`: no check has run).
    pub response_time: Option<Duration>,
    /// One value per `load_command` input, in the order of [`Feedback::inputs`]
    /// (`None`: the command failed this round).
    pub commands: Vec<Option<f64>>,
}

/// One feedback round over a pool's UP servers: the weight to set for each server, or
/// `None` to leave it (no usable input, or the change is within the threshold).
///
/// The loads of the inputs (see [`relative_loads`] for the first two):
/// - `connections`: 0.95 · active connections per unit of configured weight / the pool's
///   mean of the same (a pool with equal weights: 0.95 · connections / mean connections);
/// - `response_time`: 0.95 · last check's response time / the pool's mean;
/// - `load_command`: the number the command printed (absolute, 1.0 = fully loaded).
pub fn feedback_round(feedback: &Feedback, samples: &[Sample]) -> Vec<Option<u32>> {
    let per_weight: Vec<Option<f64>> = samples
        .iter()
        .map(|s| {
            s.connections
                .map(|c| f64::from(c) / f64::from(s.configured.max(1)))
        })
        .collect();
    let conn_loads = relative_loads(&per_weight);
    let rts: Vec<Option<f64>> = samples
        .iter()
        .map(|s| s.response_time.map(|d| d.as_secs_f64()))
        .collect();
    let rt_loads = relative_loads(&rts);

    samples
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut command = 0;
            let mut inputs = Vec::with_capacity(feedback.inputs.len());
            for (input, ratio) in &feedback.inputs {
                let load = match input {
                    LoadInput::Connections => conn_loads[i],
                    LoadInput::ResponseTime => rt_loads[i],
                    LoadInput::Command(_) => {
                        command += 1;
                        s.commands.get(command - 1).copied().flatten()
                    }
                };
                if let Some(load) = load {
                    inputs.push((*ratio, load));
                }
            }
            let aggregate = aggregate_load(&inputs)?;
            let new = new_weight(
                s.current,
                s.configured,
                aggregate,
                feedback.coefficient,
                feedback.scale,
            );
            should_apply(s.current, new, feedback.threshold).then_some(new)
        })
        .collect()
}

/// Why a `load_command` gave no load.
#[derive(Debug, thiserror::Error)]
pub enum LoadCommandError {
    /// It could not run to completion.
    #[error("load command [{command}]: {source}")]
    Run {
        command: String,
        #[source]
        source: RunError,
    },
    /// It exited with a failure.
    #[error("load command [{command}] failed ({status})")]
    Failed { command: String, status: String },
    /// Its output is not a non-negative number.
    #[error("load command [{command}] printed \"{output}\", not a load")]
    Parse { command: String, output: String },
}

/// Parses a load: the first word of the output as a finite, non-negative number.
pub fn parse_load(output: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(output).ok()?;
    let load: f64 = text.split_ascii_whitespace().next()?.parse().ok()?;
    (load.is_finite() && load >= 0.0).then_some(load)
}

/// Runs a `load_command` for one server (`/bin/sh -c CMD sh IP PORT`: the server's
/// address is `$1` and its port `$2`) and parses what it prints.
pub fn run_load_command(
    command: &str,
    server: SocketAddrV4,
    timeout: Duration,
) -> Result<f64, LoadCommandError> {
    let args = [server.ip().to_string(), server.port().to_string()];
    let finished =
        run_shell(command, &args, timeout, true).map_err(|source| LoadCommandError::Run {
            command: command.to_string(),
            source,
        })?;
    if !finished.status.success() {
        return Err(LoadCommandError::Failed {
            command: command.to_string(),
            status: finished.status.to_string(),
        });
    }
    parse_load(&finished.stdout).ok_or_else(|| LoadCommandError::Parse {
        command: command.to_string(),
        output: output_excerpt(&finished.stdout),
    })
}

/// Bytes of a command's output quoted in an error.
pub const OUTPUT_EXCERPT: usize = 64;

/// The start of a command's output for a message: at most [`OUTPUT_EXCERPT`] characters,
/// control characters escaped, and how much more there was.
fn output_excerpt(out: &[u8]) -> String {
    let text = String::from_utf8_lossy(out);
    let text = text.trim();
    let mut s: String = text
        .chars()
        .take(OUTPUT_EXCERPT)
        .flat_map(char::escape_debug)
        .collect();
    let more = text.chars().count().saturating_sub(OUTPUT_EXCERPT);
    if more > 0 {
        s.push_str(&format!("... ({more} more characters)"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_of_output_is_quoted_short_and_escaped() {
        let mut out = b"\x1b[31mnot a number\n".to_vec();
        out.extend(std::iter::repeat_n(b'x', 65_000));
        let e = output_excerpt(&out);
        assert!(e.starts_with("\\u{1b}[31mnot a number\\n"), "{e}");
        assert!(e.ends_with("(64954 more characters)"), "{e}");
        assert!(e.len() < 200, "{}", e.len());
        assert_eq!(output_excerpt(b" 12x \n"), "12x");
    }
    use splicenic_driver::config::model::Loc;

    fn fb(inputs: Vec<(LoadInput, f64)>) -> Feedback {
        Feedback {
            loc: Loc::default(),
            interval: Duration::from_secs(5),
            coefficient: 5.0,
            threshold: 0.05,
            scale: 10,
            inputs,
        }
    }

    /// W' = round(W + A·∛(0.95 − L)), numbers worked out by hand.
    #[test]
    fn weight_formula_by_hand() {
        // L = 0.95: ∛0 = 0, the weight stays.
        assert_eq!(new_weight(10, 10, 0.95, 5.0, 10), 10);
        // L = 0.825: ∛0.125 = 0.5; A = 4 → 10 + 2 = 12.
        assert_eq!(new_weight(10, 10, 0.825, 4.0, 10), 12);
        // L = 0.942: ∛0.008 = 0.2; A = 5 → 10 + 1 = 11.
        assert_eq!(new_weight(10, 10, 0.942, 5.0, 10), 11);
        // L = 1.95: ∛(−1) = −1 → 10 − 5 = 5.
        assert_eq!(new_weight(10, 10, 1.95, 5.0, 10), 5);
        // Idle, L = 0: ∛0.95 = 0.98305 → 10 + 4.915 = 14.915 → 15.
        assert_eq!(new_weight(10, 10, 0.0, 5.0, 10), 15);
        // L = 0.5: ∛0.45 = 0.76631 → 10 + 3.832 = 13.832 → 14.
        assert_eq!(new_weight(10, 10, 0.5, 5.0, 10), 14);
        // L = 1.5: ∛(−0.55) = −0.81932 → 10 − 4.097 = 5.903 → 6.
        assert_eq!(new_weight(10, 10, 1.5, 5.0, 10), 6);
    }

    #[test]
    fn weight_bounds() {
        // ∛(0.95 − 9.95) = ∛(−9) = −2.0801 → 1 − 10.4 → clamped to 1.
        assert_eq!(new_weight(1, 10, 9.95, 5.0, 10), 1);
        // 98 + 4.915 = 102.9 → clamped to DEFAULT_WEIGHT · SCALE = 100.
        assert_eq!(new_weight(98, 10, 0.0, 5.0, 10), 100);
        // A configured weight of 0 stays 0 whatever the load.
        assert_eq!(new_weight(7, 0, 0.0, 5.0, 10), 0);
        // The card's largest weight caps configured · scale.
        assert_eq!(new_weight(60_000, 60_000, 0.0, 5.0, 10), 60_005);
        assert_eq!(new_weight(65_535, 60_000, 0.0, 5.0, 10), MAX_WEIGHT);
        // SCALE 0 leaves only weight 1.
        assert_eq!(new_weight(10, 10, 0.0, 5.0, 0), 1);
        // A load that is not a number changes nothing.
        assert_eq!(new_weight(10, 10, f64::NAN, 5.0, 10), 10);
    }

    #[test]
    fn threshold() {
        // |11 − 10| = 1 > 0.05 · 10 = 0.5: applied.
        assert!(should_apply(10, 11, 0.05));
        // |104 − 100| = 4 ≤ 5: not applied; |106 − 100| = 6 > 5: applied.
        assert!(!should_apply(100, 104, 0.05));
        assert!(should_apply(100, 106, 0.05));
        // Unchanged is never applied, even with threshold 0.
        assert!(!should_apply(10, 10, 0.0));
    }

    #[test]
    fn aggregate() {
        // 0.5·1.2 + 0.3·0.5 + 0.2·0.9 = 0.6 + 0.15 + 0.18 = 0.93.
        let all = aggregate_load(&[(0.5, 1.2), (0.3, 0.5), (0.2, 0.9)]).unwrap();
        assert!((all - 0.93).abs() < 1e-12, "{all}");
        // Third input skipped: (0.6 + 0.15) / 0.8 = 0.9375.
        let two = aggregate_load(&[(0.5, 1.2), (0.3, 0.5)]).unwrap();
        assert!((two - 0.9375).abs() < 1e-12, "{two}");
        assert_eq!(aggregate_load(&[]), None);
        assert_eq!(aggregate_load(&[(0.0, 1.0)]), None);
        assert_eq!(aggregate_load(&[(0.5, f64::NAN), (0.5, 0.4)]), Some(0.4));
    }

    /// `got` and `want` have the same values present, equal to within 1e-12.
    fn assert_loads(got: &[Option<f64>], want: &[Option<f64>]) {
        assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
        for (g, w) in got.iter().zip(want) {
            match (g, w) {
                (Some(g), Some(w)) => assert!((g - w).abs() < 1e-12, "{got:?} vs {want:?}"),
                (None, None) => {}
                _ => panic!("{got:?} vs {want:?}"),
            }
        }
    }

    #[test]
    fn relative_loads_by_hand() {
        // Mean (2 + 4 + 6) / 3 = 4: 0.95·2/4 = 0.475, 0.95·4/4 = 0.95, 0.95·6/4 = 1.425.
        let r = relative_loads(&[Some(2.0), Some(4.0), Some(6.0)]);
        assert_loads(&r, &[Some(0.475), Some(0.95), Some(1.425)]);
        // A value at the mean is exactly the target, so its weight stays.
        assert_eq!(r[1], Some(TARGET_LOAD));
        // Mean 0: all 0.
        assert_eq!(
            relative_loads(&[Some(0.0), Some(0.0)]),
            vec![Some(0.0), Some(0.0)]
        );
        // The mean is over the values present: (3 + 1) / 2 = 2, so 0.95·3/2 = 1.425 and
        // 0.95·1/2 = 0.475.
        assert_loads(
            &relative_loads(&[Some(3.0), None, Some(1.0)]),
            &[Some(1.425), None, Some(0.475)],
        );
        // Equal values, whatever they are: all at the target.
        assert_eq!(
            relative_loads(&[Some(0.3), Some(0.3), Some(0.3)]),
            vec![Some(TARGET_LOAD); 3]
        );
        assert_eq!(relative_loads(&[None, None]), vec![None, None]);
    }

    fn sample(current: u32, configured: u32, connections: u32) -> Sample {
        Sample {
            current,
            configured,
            connections: Some(connections),
            ..Sample::default()
        }
    }

    #[test]
    fn round_on_connections() {
        // Connections 10, 20, 30: mean 20, loads 0.95·10/20 = 0.475, 0.95, 0.95·30/20 = 1.425.
        // 10 + 5·∛(0.95 − 0.475) = 10 + 5·∛0.475 = 10 + 5·0.78025 = 13.90 → 14;
        // 10 + 5·∛0 = 10: unchanged, nothing to apply;
        // 10 + 5·∛(−0.475) = 10 − 3.901 = 6.10 → 6.
        let f = fb(vec![(LoadInput::Connections, 1.0)]);
        let samples = [sample(10, 10, 10), sample(10, 10, 20), sample(10, 10, 30)];
        assert_eq!(feedback_round(&f, &samples), vec![Some(14), None, Some(6)]);

        // Connections per configured weight: 40/20 = 20/10 = 2 = the mean, so both loads
        // are 0.95 and both weights stay (20 and 10).
        let samples = [sample(20, 20, 40), sample(10, 10, 20)];
        assert_eq!(feedback_round(&f, &samples), vec![None, None]);

        // Per weight 30/20 = 1.5 and 50/20 = 2.5, mean 2: loads 0.95·0.75 = 0.7125 and
        // 0.95·1.25 = 1.1875. 100 + 5·∛0.2375 = 100 + 5·0.61928 = 103.10 → 103 and
        // 100 + 5·∛(−0.2375) = 96.90 → 97: |±3| ≤ 0.05 · 100 = 5, both left as they are.
        let samples = [sample(100, 20, 30), sample(100, 20, 50)];
        assert_eq!(feedback_round(&f, &samples), vec![None, None]);
        // With threshold 0.02 (|±3| > 2) both are applied.
        let tight = Feedback {
            threshold: 0.02,
            ..f.clone()
        };
        assert_eq!(feedback_round(&tight, &samples), vec![Some(103), Some(97)]);

        // No connections anywhere: loads 0 → 10 + 5·∛0.95 → 15.
        let samples = [sample(10, 10, 0), sample(10, 10, 0)];
        assert_eq!(feedback_round(&f, &samples), vec![Some(15), Some(15)]);
    }

    /// Plays `rounds` feedback rounds, setting the weights each round asks for, and
    /// returns the weights after each round.
    fn play(f: &Feedback, samples: &mut [Sample], rounds: usize) -> Vec<Vec<u32>> {
        (0..rounds)
            .map(|_| {
                let new = feedback_round(f, samples);
                for (s, w) in samples.iter_mut().zip(new) {
                    if let Some(w) = w {
                        s.current = w;
                    }
                }
                samples.iter().map(|s| s.current).collect()
            })
            .collect()
    }

    /// A balanced pool keeps its weights round after round (every load is 0.95, so
    /// W' = W + A·∛0 = W), whatever the inputs, even with threshold 0.
    #[test]
    fn balanced_pool_keeps_its_weights() {
        let f = Feedback {
            threshold: 0.0,
            ..fb(vec![
                (LoadInput::Connections, 0.5),
                (LoadInput::ResponseTime, 0.5),
            ])
        };
        let balanced = |current, configured, connections| Sample {
            response_time: Some(Duration::from_millis(7)),
            ..sample(current, configured, connections)
        };
        // Equal weights and connections; unequal weights with connections in proportion
        // (per weight 60/30 = 20/10 = 2); weights moved away from the configured ones.
        for mut samples in [
            vec![
                balanced(10, 10, 20),
                balanced(10, 10, 20),
                balanced(10, 10, 20),
            ],
            vec![balanced(30, 30, 60), balanced(10, 10, 20)],
            vec![balanced(4, 10, 33), balanced(57, 10, 33)],
        ] {
            let before: Vec<u32> = samples.iter().map(|s| s.current).collect();
            assert_eq!(play(&f, &mut samples, 10), vec![before; 10]);
        }
        // A busier server is still pulled down round after round: connections 10 and 30
        // (loads 0.475 and 1.425) give 10 → 14 → 18 → ... and 10 → 6 → 2 → 1.
        let f = fb(vec![(LoadInput::Connections, 1.0)]);
        let mut samples = [sample(10, 10, 10), sample(10, 10, 30)];
        let rounds = play(&f, &mut samples, 3);
        assert_eq!(rounds, vec![vec![14, 6], vec![18, 2], vec![22, 1]]);
    }

    #[test]
    fn round_mixed_inputs_with_a_failed_command() {
        let f = fb(vec![
            (LoadInput::Connections, 0.5),
            (LoadInput::ResponseTime, 0.3),
            (LoadInput::Command("load".into()), 0.2),
        ]);
        let samples = [
            Sample {
                response_time: Some(Duration::from_millis(100)),
                commands: vec![Some(0.2)],
                ..sample(10, 10, 10)
            },
            Sample {
                response_time: Some(Duration::from_millis(300)),
                commands: vec![None],
                ..sample(10, 10, 30)
            },
        ];
        // Means: connections (10 + 30) / 2 = 20, response time (100 + 300) / 2 = 200 ms.
        // Server 0: connections 0.95·10/20 = 0.475, response time 0.95·100/200 = 0.475,
        //   command 0.2 (absolute, as reported):
        //   L = 0.5·0.475 + 0.3·0.475 + 0.2·0.2 = 0.2375 + 0.1425 + 0.04 = 0.42;
        //   10 + 5·∛(0.95 − 0.42) = 10 + 5·∛0.53 = 10 + 5·0.80927 = 14.05 → 14.
        // Server 1: 0.95·30/20 = 1.425, 0.95·300/200 = 1.425, command failed (skipped):
        //   L = (0.5·1.425 + 0.3·1.425) / 0.8 = 1.425;
        //   10 + 5·∛(−0.475) = 10 − 3.901 = 6.10 → 6.
        assert_eq!(feedback_round(&f, &samples), vec![Some(14), Some(6)]);
        // Nothing usable at all: no change.
        let blind = [Sample {
            commands: vec![None],
            ..Sample::default()
        }];
        assert_eq!(feedback_round(&f, &blind), vec![None]);
    }

    #[test]
    fn parses_loads() {
        assert_eq!(parse_load(b"0.75\n"), Some(0.75));
        assert_eq!(parse_load(b"  1 extra words"), Some(1.0));
        assert_eq!(parse_load(b""), None);
        assert_eq!(parse_load(b"busy"), None);
        assert_eq!(parse_load(b"-1"), None);
        assert_eq!(parse_load(b"inf"), None);
    }

    #[test]
    fn load_command_gets_the_server_address() {
        let addr: SocketAddrV4 = "127.0.0.1:8080".parse().unwrap();
        let t = Duration::from_secs(5);
        let load = run_load_command(r#"test "$1:$2" = 127.0.0.1:8080 && echo 0.25"#, addr, t);
        assert_eq!(load.unwrap(), 0.25);
        assert!(matches!(
            run_load_command("exit 3", addr, t),
            Err(LoadCommandError::Failed { .. })
        ));
        assert!(matches!(
            run_load_command("echo busy", addr, t),
            Err(LoadCommandError::Parse { .. })
        ));
        assert!(matches!(
            run_load_command("sleep 5", addr, Duration::from_millis(100)),
            Err(LoadCommandError::Run {
                source: RunError::Timeout(_),
                ..
            })
        ));
    }
}
