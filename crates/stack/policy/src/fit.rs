//! Whether a checkpoint was trained for the table it is about to play at. A policy used at a
//! table size or under rules it never saw still plays legal moves (the observation is padded to
//! the largest table and masks come from the rules), so this is a warning for the caller to
//! show, not an error: comparing a 2-player specialist at a 4-player table is a fair question.

use crate::checkpoint::CheckpointMetadata;
use game::Game;

/// What a checkpoint's metadata says about the rules it was trained under.
enum TrainedRules<R> {
    /// A rule config that parses.
    Read(R),
    /// No rule config at all (`null`).
    Missing,
    /// Something that is not a rule config, with the parser's reason: reported on its own, as
    /// it means the metadata was written by something else or edited, not merely that it is old.
    Unreadable(String),
}

/// The table sizes a checkpoint was trained at: its `table_sizes`, or the `players` of its
/// rule config when those were not recorded.
fn trained_sizes<G: Game>(meta: &CheckpointMetadata, trained: Option<&G::Rules>) -> Vec<u8> {
    if !meta.table_sizes.is_empty() {
        return meta.table_sizes.clone();
    }
    trained.map(|r| vec![G::players(r)]).unwrap_or_default()
}

/// The rule config in a checkpoint's metadata: the trainer stores the env config
/// (`{"rules": {…}, "reward": …}`); a bare rule config is read as well.
fn trained_rules<G: Game>(meta: &CheckpointMetadata) -> TrainedRules<G::Rules> {
    if meta.rule_config.is_null() {
        return TrainedRules::Missing;
    }
    let v = meta.rule_config.get("rules").unwrap_or(&meta.rule_config);
    match serde_json::from_value(v.clone()) {
        Ok(rules) => TrainedRules::Read(rules),
        Err(e) => TrainedRules::Unreadable(e.to_string()),
    }
}

/// Ways in which playing at `rules` (its `players` is the table size) differs from what the
/// checkpoint was trained on, one sentence each; empty when it matches.
pub fn training_mismatch<G: Game>(meta: &CheckpointMetadata, rules: &G::Rules) -> Vec<String> {
    let mut out = Vec::new();
    let trained = trained_rules::<G>(meta);
    let read = match &trained {
        TrainedRules::Read(r) => Some(r),
        _ => None,
    };
    let sizes = trained_sizes::<G>(meta, read);
    let players = G::players(rules);
    if !sizes.is_empty() && !sizes.contains(&players) {
        let list: Vec<String> = sizes.iter().map(|n| n.to_string()).collect();
        out.push(format!("trained at {} seats, now playing at {} seats", list.join(" and "), players));
    }
    match trained {
        TrainedRules::Missing => {
            out.push("its metadata records no rule config, so the rules cannot be compared".into())
        }
        TrainedRules::Unreadable(e) => {
            out.push(format!("its metadata's rule config could not be read ({e}), so the rules cannot be compared"))
        }
        TrainedRules::Read(t) => match (serde_json::to_value(t), serde_json::to_value(rules)) {
            (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) => {
                let differing: Vec<&str> = a
                    .iter()
                    .filter(|(k, v)| *k != "players" && b.get(*k) != Some(*v))
                    .map(|(k, _)| k.as_str())
                    .collect();
                if !differing.is_empty() {
                    out.push(format!("trained under other rules (differing: {})", differing.join(", ")));
                }
            }
            _ => out.push("the trained and the current rule configs could not be compared".into()),
        },
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::PolicyConfig;
    use games::kessel::{Kessel, RuleConfig};

    fn training_mismatch(meta: &CheckpointMetadata, rules: &RuleConfig) -> Vec<String> {
        super::training_mismatch::<Kessel>(meta, rules)
    }

    fn meta(players: u8, sizes: Vec<u8>) -> CheckpointMetadata {
        let rules = RuleConfig::with_players(players);
        let mut m = CheckpointMetadata::new(
            "kessel_sabacc_v1",
            1,
            PolicyConfig::new(4, 2),
            1,
            1,
            serde_json::json!({ "rules": rules, "reward": "win-loss" }),
        );
        m.table_sizes = sizes;
        m
    }

    #[test]
    fn checkpoint_fit_names_table_size_and_rule_differences() {
        assert!(training_mismatch(&meta(4, vec![]), &RuleConfig::with_players(4)).is_empty());
        let w = training_mismatch(&meta(4, vec![]), &RuleConfig::with_players(2));
        assert_eq!(w, vec!["trained at 4 seats, now playing at 2 seats".to_string()]);
        assert!(training_mismatch(&meta(4, vec![2, 4]), &RuleConfig::with_players(2)).is_empty());
        let w = training_mismatch(&meta(4, vec![2, 4]), &RuleConfig::with_players(3));
        assert_eq!(w, vec!["trained at 2 and 4 seats, now playing at 3 seats".to_string()]);
        let mut other = RuleConfig::with_players(4);
        other.starting_chips = 9;
        let w = training_mismatch(&meta(4, vec![]), &other);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("starting_chips"), "{w:?}");
    }

    #[test]
    fn an_unreadable_rule_config_is_a_warning_of_its_own() {
        for garbage in [
            serde_json::json!("garbage"),
            serde_json::json!({ "rules": { "players": "four" }, "reward": "win-loss" }),
            serde_json::json!({ "rules": { "playerz": 4 } }),
        ] {
            let mut m = meta(4, vec![4]);
            m.rule_config = garbage.clone();
            let w = training_mismatch(&m, &RuleConfig::with_players(4));
            assert_eq!(w.len(), 1, "{garbage}: {w:?}");
            assert!(w[0].starts_with("its metadata's rule config could not be read ("), "{garbage}: {w:?}");
        }
        // Absent is not unreadable.
        let mut m = meta(4, vec![4]);
        m.rule_config = serde_json::Value::Null;
        let w = training_mismatch(&m, &RuleConfig::with_players(4));
        assert_eq!(w, vec!["its metadata records no rule config, so the rules cannot be compared".to_string()]);
    }
}
