//! Shared parts of the Verilator test benches (`gateware-rtl/tb/test-*`): the error a
//! harness reports, and a driver for a module that takes one item per valid/ready handshake
//! and answers each, in order, on a result port with its own valid/ready.

use std::collections::VecDeque;
use std::fmt;

/// A failure of a simulation harness or of a module's protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TbError {
    /// The Verilated model could not be created.
    Create(&'static str),
    /// The shim refused a call (null argument).
    BadArg(&'static str),
    /// Something did not happen within its cycle budget.
    Stuck(&'static str),
    /// The module broke its protocol: an answer not asked for, a bad stream beat.
    Protocol(String),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Create(m) => write!(f, "cannot create the {m} model"),
            TbError::BadArg(m) => write!(f, "the {m} shim refused an argument"),
            TbError::Stuck(what) => write!(f, "the module did not finish: {what}"),
            TbError::Protocol(what) => write!(f, "protocol broken: {what}"),
        }
    }
}

impl std::error::Error for TbError {}

/// One answer of an in-order module, with its timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timed<O> {
    pub out: O,
    /// Cycle its input was accepted.
    pub accepted: u64,
    /// Cycle the answer was taken.
    pub taken: u64,
}

/// What one clock cycle of the module did, as the rising edge sampled it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle<O> {
    /// The presented input was accepted (valid && ready).
    pub accepted: bool,
    /// An answer was valid (taken when the result port was ready).
    pub answer: Option<O>,
}

/// Runs `inputs` in order through a module clocked by `step`: each cycle `step` gets the
/// input presented (`None` when there is none to present or `present()` says not this cycle)
/// and whether the result port is ready (`ready()`), and reports what the edge sampled.
/// `cycle` counts the cycles. Returns the answers in order with their timing, or `Stuck`
/// when they do not come within `per_item` cycles an input (plus a margin).
pub fn drive_in_order<I, O>(
    inputs: &[I],
    cycle: &mut u64,
    per_item: u64,
    mut present: impl FnMut() -> bool,
    mut ready: impl FnMut() -> bool,
    mut step: impl FnMut(Option<&I>, bool) -> Result<Cycle<O>, TbError>,
) -> Result<Vec<Timed<O>>, TbError> {
    let mut out = Vec::with_capacity(inputs.len());
    let mut accepted = VecDeque::new();
    let mut next = 0usize;
    let budget = *cycle + 64 + inputs.len() as u64 * per_item;
    while out.len() < inputs.len() {
        if *cycle > budget {
            return Err(TbError::Stuck("answers to the inputs"));
        }
        let shown = if next < inputs.len() && present() {
            Some(&inputs[next])
        } else {
            None
        };
        let rdy = ready();
        let now = *cycle;
        let c = step(shown, rdy)?;
        *cycle += 1;
        if shown.is_some() && c.accepted {
            accepted.push_back(now);
            next += 1;
        }
        if let (Some(o), true) = (c.answer, rdy) {
            let acc = accepted
                .pop_front()
                .ok_or_else(|| TbError::Protocol("an answer without an input".into()))?;
            out.push(Timed {
                out: o,
                accepted: acc,
                taken: now,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake module for the driver's own test: a 2-stage pipeline that holds when its
    /// output is not taken.
    #[test]
    fn answers_come_in_order_with_their_timing() {
        let inputs: Vec<u32> = (0..50).collect();
        let mut stages: [Option<u32>; 2] = [None, None];
        let mut cycle = 0;
        let mut k = 0u32;
        let got = drive_in_order(
            &inputs,
            &mut cycle,
            10,
            || true,
            || {
                k += 1;
                k % 3 != 0
            },
            |i, rdy| {
                let en = stages[1].is_none() || rdy;
                let answer = stages[1];
                if en {
                    stages[1] = stages[0];
                    stages[0] = i.copied();
                }
                Ok(Cycle {
                    accepted: en,
                    answer,
                })
            },
        )
        .expect("answers");
        let outs: Vec<u32> = got.iter().map(|t| t.out).collect();
        assert_eq!(outs, inputs);
        assert!(got.iter().all(|t| t.taken >= t.accepted + 2));
    }

    #[test]
    fn a_module_that_never_answers_is_stuck() {
        let mut cycle = 0;
        let r = drive_in_order(
            &[1u8],
            &mut cycle,
            5,
            || true,
            || true,
            |_, _| {
                Ok(Cycle::<u8> {
                    accepted: true,
                    answer: None,
                })
            },
        );
        assert_eq!(r, Err(TbError::Stuck("answers to the inputs")));
    }
}
