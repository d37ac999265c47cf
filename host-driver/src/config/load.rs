//! Loading a compiled [`RuleTable`] into the card.

use super::rules::{RuleTable, NO_POOL};
use crate::card::Card;
use crate::datapath::DatapathError;
use crate::error::DriverError;
use crate::flowmgr::RULESET_RECORD_MAX;

/// Writes `table` into the inactive bank of the card's L7 rule table, switches banks and
/// stores the table's stored form ([`RuleTable::to_blob`]) as the card's rule-set record,
/// so that what is loaded can be shown later. `progress(done, total)` is called after each
/// rule. Returns the new active bank.
///
/// The table is checked against the card (rule count, record size) before anything is
/// written; the active bank is untouched until the switch. A table without a default pool
/// ([`NO_POOL`]) sends unmatched requests to pool 0 (such a table serves no L7 service).
pub fn load_rule_table(
    card: &mut Card,
    table: &RuleTable,
    mut progress: impl FnMut(usize, usize),
) -> Result<u8, DriverError> {
    let blob = table.to_blob();
    if blob.len() > RULESET_RECORD_MAX {
        return Err(DriverError::InvalidArgument {
            cmd: "RULESET_PUT",
            arg: "record length",
            value: blob.len() as u64,
            range: "0..=16384 bytes",
        });
    }
    let bank = {
        let mut dp = card.datapath()?;
        let count = dp.params().l7_rules as usize;
        if table.rules.len() > count {
            return Err(DatapathError::IndexOutOfRange {
                what: "L7 rule",
                index: table.rules.len() - 1,
                count,
            }
            .into());
        }
        dp.l7_clear_inactive()?;
        let default = if table.default_pool == NO_POOL {
            0
        } else {
            table.default_pool
        };
        dp.l7_set_default_pool(default)?;
        let total = table.rules.len();
        for (i, r) in table.rules.iter().enumerate() {
            dp.l7_load_rule(i, &r.rule)?;
            progress(i + 1, total);
        }
        dp.l7_switch_banks()?
    };
    card.flow_manager().ruleset_record_put(&blob)?;
    Ok(bank)
}
