//! Control plane: the rule-set record (RULESET_*).

use super::*;

/// State of the rule-set record on the card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesetState {
    /// Nothing stored since the firmware started (or the last write failed its check).
    Empty,
    /// A committed record.
    Valid,
    /// A host is writing a record (the previous one is gone).
    Writing,
}

/// RULESET_INFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesetInfo {
    /// Length of the committed record in bytes.
    pub len: u32,
    /// Records committed since the firmware started.
    pub generation: u32,
    /// FNV-1a hash of the record.
    pub hash: u32,
    /// Record state.
    pub state: RulesetState,
    /// Tag the committing host gave ([`FlowManager::ruleset_record_put_by`]).
    pub loaded_by: u32,
    /// Capacity in bytes.
    pub capacity: u32,
}

impl RulesetInfo {
    /// Decodes the 6 RULESET_INFO words.
    pub fn from_words(w: &[u32]) -> Result<Self, DriverError> {
        const CMD: &str = "RULESET_INFO";
        let w = w
            .get(..RULESET_INFO_WORDS)
            .ok_or_else(|| short_response(CMD, w))?;
        let state = match w[3] {
            0 => RulesetState::Empty,
            1 => RulesetState::Valid,
            2 => RulesetState::Writing,
            s => return Err(bad_response(CMD, format!("unknown record state {s}"))),
        };
        Ok(Self {
            len: w[0],
            generation: w[1],
            hash: w[2],
            state,
            loaded_by: w[4],
            capacity: w[5],
        })
    }
}

/// Little-endian words of `bytes`, the last one zero padded.
pub(super) fn words_le_vec(bytes: &[u8]) -> Vec<u32> {
    layout::words_le(bytes).collect()
}

/// FNV-1a (32 bit) of `bytes`: the rule-set record's hash.
pub fn record_hash(bytes: &[u8]) -> u32 {
    record::fnv1a(record::FNV_BASIS, bytes)
}

/// RULESET_PUT requests for `bytes`: offset 0 first (an empty record is one request without
/// data), then 15 words per request.
pub(super) fn ruleset_put_requests(bytes: &[u8]) -> Vec<Vec<u32>> {
    let words = words_le_vec(bytes);
    if words.is_empty() {
        return vec![vec![0]];
    }
    words
        .chunks(15)
        .enumerate()
        .map(|(i, chunk)| {
            let mut req = vec![(i * 15) as u32];
            req.extend_from_slice(chunk);
            req
        })
        .collect()
}
