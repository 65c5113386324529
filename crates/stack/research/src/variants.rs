//! `variants`: how the top findings move under the K9 alternatives that touch tokens. Each
//! variant re-runs the value study (4 seats, `expert` in self-play) and a race among the
//! strongest loadouts of the default race; [`compare`] sets them beside the default rules.
//!
//! - **Values.** Each token's win difference under the variant against the default rules, by
//!   Welch's test (the two tables share deal seeds, so treating them as independent is
//!   conservative when they are positively correlated), Holm-corrected over the tokens; the
//!   Spearman rank correlation of the two tables; whether the top three kinds are the same.
//! - **Loadouts.** The same candidates raced under both rule sets with the same budget and seed:
//!   the leader under each, and whether the default leader survives the variant's race.

use crate::loadouts::LoadoutsReport;
use crate::stats::{ALPHA, holm, p_difference};
use crate::value::FocalTable;
use kessel::config::{EmbezzlementSource, RefundSource, TaxTokenChips};
use kessel::{RuleConfig, Token};
use serde::{Deserialize, Serialize};

/// A K9 alternative that touches tokens.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// The rule's id in docs/rules.md.
    pub rule: &'static str,
    /// The config key.
    pub key: &'static str,
    /// The alternative's value.
    pub value: &'static str,
    /// The rules with the alternative applied.
    pub apply: fn(RuleConfig) -> RuleConfig,
}

impl Variant {
    /// `key = value`.
    pub fn name(&self) -> String {
        format!("{} = {}", self.key, self.value)
    }
}

/// The K9 token alternatives studied (docs/rules.md, K9).
pub const VARIANTS: [Variant; 3] = [
    Variant {
        rule: "K5.5–K5.8",
        key: "tax_token_chips",
        value: "victim-hand-pot",
        apply: |r| RuleConfig { tax_token_chips: TaxTokenChips::VictimHandPot, ..r },
    },
    Variant {
        rule: "K5.2",
        key: "refund_source",
        value: "lost-chips",
        apply: |r| RuleConfig { refund_source: RefundSource::LostChips, ..r },
    },
    Variant {
        rule: "K5.4",
        key: "embezzlement",
        value: "stock",
        apply: |r| RuleConfig { embezzlement: EmbezzlementSource::Stock, ..r },
    },
];

/// Per-deal win differences lie in [−1, 1].
const WIN_DIFF_RANGE: f64 = 2.0;

/// One token's value under the default rules and under a variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueShift {
    /// The kind.
    pub token: Token,
    /// Win difference under the default rules.
    pub default: f64,
    /// Under the variant.
    pub variant: f64,
    /// Welch p-value of the change, Holm-adjusted over the tokens.
    pub p_holm: f64,
}

/// What a variant changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// `key = value`.
    pub variant: String,
    /// The rule's id.
    pub rule: String,
    /// Every token, in the default table's order.
    pub values: Vec<ValueShift>,
    /// Spearman rank correlation of the two value tables.
    pub spearman: Option<f64>,
    /// The three most valuable kinds under the default rules.
    pub top_default: Vec<Token>,
    /// Under the variant.
    pub top_variant: Vec<Token>,
    /// Tokens worth more than not playing them (Holm) under the default rules.
    pub positive_default: usize,
    /// Under the variant.
    pub positive_variant: usize,
    /// The leader of the default rules' race among the candidates.
    pub leader_default: String,
    /// The leader of the variant's race.
    pub leader_variant: String,
    /// Whether the default leader is among the variant race's survivors.
    pub default_leader_survives: bool,
    /// Survivors of the variant's race.
    pub survivors_variant: usize,
}

impl Comparison {
    /// Tokens whose value changed significantly (Holm over the tokens).
    pub fn changed(&self) -> Vec<&ValueShift> {
        self.values.iter().filter(|v| v.p_holm <= ALPHA).collect()
    }

    /// Whether the top three kinds are the same set.
    pub fn same_top(&self) -> bool {
        let mut a = self.top_default.clone();
        let mut b = self.top_variant.clone();
        a.sort();
        b.sort();
        a == b
    }
}

fn top3(t: &FocalTable) -> Vec<Token> {
    let mut rows: Vec<_> = t.rows.iter().collect();
    rows.sort_by(|a, b| b.win.diff.total_cmp(&a.win.diff));
    rows.iter().take(3).map(|r| r.token).collect()
}

/// Sets a variant's value table and race beside the default rules'.
pub fn compare(
    v: &Variant,
    default: &FocalTable,
    default_race: &LoadoutsReport,
    table: &FocalTable,
    race: &LoadoutsReport,
) -> Comparison {
    let pairs: Vec<_> =
        default.rows.iter().filter_map(|a| table.rows.iter().find(|b| b.token == a.token).map(|b| (a, b))).collect();
    let p: Vec<f64> = pairs
        .iter()
        .map(|(a, b)| {
            p_difference(
                (a.win.diff, a.win.half_width(), a.win.n),
                (b.win.diff, b.win.half_width(), b.win.n),
                WIN_DIFF_RANGE,
            )
        })
        .collect();
    let values = pairs
        .iter()
        .zip(holm(&p))
        .map(|((a, b), p_holm)| ValueShift { token: a.token, default: a.win.diff, variant: b.win.diff, p_holm })
        .collect();
    let x: Vec<f64> = pairs.iter().map(|p| p.0.win.diff).collect();
    let y: Vec<f64> = pairs.iter().map(|p| p.1.win.diff).collect();
    let positive = |t: &FocalTable| t.rows.iter().filter(|r| r.win_p_holm <= ALPHA && r.win.diff > 0.0).count();
    let leader = |r: &LoadoutsReport| r.ranking.first().map(|l| l.loadout.clone()).unwrap_or_default();
    let leader_default = leader(default_race);
    Comparison {
        variant: v.name(),
        rule: v.rule.into(),
        values,
        spearman: crate::draft::spearman(&x, &y),
        top_default: top3(default),
        top_variant: top3(table),
        positive_default: positive(default),
        positive_variant: positive(table),
        default_leader_survives: race
            .ranking
            .iter()
            .any(|l| l.loadout == leader_default && l.eliminated_in_round.is_none()),
        leader_default,
        leader_variant: leader(race),
        survivors_variant: race.survivors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_changes_a_token_rule_and_validates() {
        for v in VARIANTS {
            let r = (v.apply)(RuleConfig::default());
            assert_ne!(r, RuleConfig::default(), "{}", v.name());
            r.validate().unwrap();
            let json = serde_json::to_value(r).unwrap();
            assert_eq!(json[v.key], v.value, "{}", v.name());
        }
    }
}
