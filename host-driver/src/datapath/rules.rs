//! L7 rules and the matcher status.

use super::*;

/// One L7 rule. The lowest (priority, rule index) of the matching rules wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L7Rule {
    /// Lower wins.
    pub priority: u16,
    pub path_kind: PathKind,
    pub path: Vec<u8>,
    pub host_kind: HostKind,
    /// Host pattern in natural order; stored lower-cased (the matcher lower-cases hosts).
    pub host: Vec<u8>,
    /// Returned in the match result.
    pub rule_id: u16,
    pub pool: u16,
}

/// One write of a rule: word index within the rule and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleWord {
    pub word: u8,
    pub data: u32,
}

/// Rule word indices (`l7_rule_bank`; enumeration `RuleWordIndex`, docs/records.md).
pub use splicenic_layout::rule_word_index as rule_word;

impl L7Rule {
    /// The rule words to write, ending with the control word that makes the rule valid.
    /// `pat_max` is the card's pattern capacity (`L7.PARAMS.PAT_MAX`).
    pub fn encode(&self, pat_max: usize) -> Result<Vec<RuleWord>, DatapathError> {
        // The word map has 0x40 path words and 0x40 host words at most.
        let cap = pat_max.min(4 * 0x40);
        for (which, len) in [("path", self.path.len()), ("host", self.host.len())] {
            if len > cap {
                return Err(DatapathError::PatternTooLong {
                    which,
                    len,
                    max: cap,
                });
            }
        }
        let mut out = Vec::new();
        let mut pack = |bytes: &[u8], base: u8| {
            for (k, w) in layout::words_le(bytes).enumerate() {
                out.push(RuleWord {
                    word: base + k as u8,
                    data: w,
                });
            }
        };
        pack(&self.path, rule_word::PATH);
        let host_rev: Vec<u8> = self.host.iter().rev().map(u8::to_ascii_lowercase).collect();
        pack(&host_rev, rule_word::HOST);
        out.push(RuleWord {
            word: rule_word::META,
            data: layout::L7RuleMeta {
                priority: self.priority,
                rule_id: self.rule_id,
            }
            .pack()[0],
        });
        out.push(RuleWord {
            word: rule_word::POOL,
            data: self.pool.into(),
        });
        out.push(RuleWord {
            word: rule_word::CTRL,
            data: layout::L7RuleCtrl {
                path_len: self.path.len() as u16,
                host_len: self.host.len() as u16,
                host_kind: self.host_kind.raw(),
                path_kind: self.path_kind.raw(),
                valid: true,
            }
            .pack()[0],
        });
        Ok(out)
    }
}

/// `L7.STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct L7Status {
    pub active_bank: u8,
    pub inactive_busy: bool,
    pub write_pending: bool,
    pub buffer_busy: bool,
}

/// Checksums the inject ring fills in, with the offsets it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChecksumOffload {
    /// IPv4 header offset in the frame.
    pub ip_off: u16,
    /// TCP header offset (ip_off + 4 * IHL).
    pub l4_off: u16,
    /// End of the TCP segment (ip_off + IPv4 total length).
    pub l4_end: u16,
    /// Fill in the IPv4 header checksum.
    pub ip: bool,
    /// Fill in the TCP checksum.
    pub tcp: bool,
}
