//! Hand evaluation and ranking at the reveal (K4), under the Fix tokens in force.
//!
//! A hand is classified into a [`HandClass`], then mapped to a [`RankKey`]: a number where lower is
//! better, so "every hand equal to the best hand wins" (K4.10) is a comparison of integers.

use crate::config::{CookScope, MarkdownSylops, NulhrekTiebreak, RuleConfig};
use serde::{Deserialize, Serialize};

/// The ranking-relevant effects of Fix tokens active this round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RankingMods {
    /// Cook the Books (K4.7).
    pub cook_the_books: bool,
    /// Markdown (K4.8).
    pub markdown: bool,
    /// Major Fraud (K4.9): Impostors are 6; affects resolution, not the order.
    pub major_fraud: bool,
    /// The Prime Sabacc value, if one was chosen this round (K4.6).
    pub prime: Option<u8>,
}

/// A card's value once the reveal has resolved it: Impostors have become numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resolved {
    /// A number 1–6 (a numbered card or a resolved Impostor).
    Number(u8),
    /// A Sylop, which takes the value of the other card (or 0 under Markdown).
    Sylop,
}

/// What a revealed hand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandClass {
    /// Two Sylops (K4.3).
    PureSabacc,
    /// A pair of equal values 1–6, Sylop Sabaccs included.
    Sabacc(u8),
    /// Two Sylops under Markdown with the default `zero-pair` option: the last Sabacc.
    ZeroPair,
    /// Unequal values.
    Nulhrek {
        /// |sand − blood|.
        diff: u8,
        /// sand + blood, used by the lower-cards tiebreak.
        sum: u8,
    },
}

impl HandClass {
    /// Whether the hand is any kind of Sabacc.
    pub fn is_sabacc(self) -> bool {
        !matches!(self, HandClass::Nulhrek { .. })
    }

    /// The tax a loser with this hand pays before the cap at stock (K6.2).
    pub fn tax(self) -> u16 {
        match self {
            HandClass::Nulhrek { diff, .. } => diff as u16,
            _ => 1,
        }
    }
}

/// Position of a hand in the ranking: lower is better; equal keys tie.
pub type RankKey = u16;

/// Classifies a resolved hand (K4.3, K4.4, K4.8).
pub fn classify(sand: Resolved, blood: Resolved, mods: RankingMods, cfg: &RuleConfig) -> HandClass {
    match (sand, blood) {
        (Resolved::Sylop, Resolved::Sylop) => {
            if mods.markdown && cfg.markdown_sylops == MarkdownSylops::ZeroPair {
                HandClass::ZeroPair
            } else {
                HandClass::PureSabacc
            }
        }
        (Resolved::Sylop, Resolved::Number(n)) | (Resolved::Number(n), Resolved::Sylop) => {
            if mods.markdown {
                HandClass::Nulhrek { diff: n, sum: n }
            } else {
                HandClass::Sabacc(n)
            }
        }
        (Resolved::Number(a), Resolved::Number(b)) => {
            if a == b {
                HandClass::Sabacc(a)
            } else {
                HandClass::Nulhrek { diff: a.abs_diff(b), sum: a + b }
            }
        }
    }
}

/// The place of each Sabacc in the order in force, best first: `0` stands for Pure Sabacc and
/// `1..=6` for the numbered pairs. The zero pair is always last and is not listed.
pub fn sabacc_order(mods: RankingMods, cfg: &RuleConfig) -> ([u8; 7], usize) {
    let mut order = [0u8; 7];
    let mut n = 0;
    let pure_first = !mods.cook_the_books || cfg.cook_the_books == CookScope::PureFirst;
    if pure_first {
        order[n] = 0;
        n += 1;
    }
    if let Some(v) = mods.prime {
        order[n] = v;
        n += 1;
    }
    let numbers: [u8; 6] = if mods.cook_the_books { [6, 5, 4, 3, 2, 1] } else { [1, 2, 3, 4, 5, 6] };
    for v in numbers {
        if Some(v) != mods.prime {
            order[n] = v;
            n += 1;
        }
    }
    if !pure_first {
        order[n] = 0;
        n += 1;
    }
    (order, n)
}

/// The rank key of a hand class under the mods and rules in force (K4.5–K4.8).
pub fn rank_key(class: HandClass, mods: RankingMods, cfg: &RuleConfig) -> RankKey {
    let place = |code: u8| -> RankKey {
        let (order, n) = sabacc_order(mods, cfg);
        order[..n].iter().position(|&c| c == code).unwrap_or(7) as RankKey
    };
    match class {
        HandClass::PureSabacc => place(0),
        HandClass::Sabacc(v) => place(v),
        HandClass::ZeroPair => 7,
        HandClass::Nulhrek { diff, sum } => {
            let tie = match cfg.nulhrek_tiebreak {
                NulhrekTiebreak::LowerCards => sum as RankKey,
                NulhrekTiebreak::None => 0,
            };
            16 + diff as RankKey * 32 + tie
        }
    }
}

/// The best hand class reachable by choosing each Impostor's value among its dice, used by the
/// `auto-best` Impostor rule and by bots. `options[f]` lists the values the family-`f` card may
/// take (a single entry for non-Impostors). Ties go to the earlier option.
pub fn best_choice(options: [&[Resolved]; 2], mods: RankingMods, cfg: &RuleConfig) -> (Resolved, Resolved, RankKey) {
    let mut best = (options[0][0], options[1][0], RankKey::MAX);
    for &s in options[0] {
        for &b in options[1] {
            let k = rank_key(classify(s, b, mods, cfg), mods, cfg);
            if k < best.2 {
                best = (s, b, k);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order_names(mods: RankingMods, cfg: &RuleConfig) -> Vec<String> {
        let (o, n) = sabacc_order(mods, cfg);
        let mut v: Vec<String> =
            o[..n].iter().map(|&c| if c == 0 { "pure".into() } else { format!("{c}/{c}") }).collect();
        if mods.markdown && cfg.markdown_sylops == MarkdownSylops::ZeroPair {
            v.retain(|s| s != "pure");
            v.push("zero".into());
        }
        v
    }

    #[test]
    fn h_tables_orders() {
        let cfg = RuleConfig::default();
        let m = RankingMods::default();
        assert_eq!(order_names(m, &cfg), ["pure", "1/1", "2/2", "3/3", "4/4", "5/5", "6/6"]);
        let prime3 = RankingMods { prime: Some(3), ..m };
        assert_eq!(order_names(prime3, &cfg), ["pure", "3/3", "1/1", "2/2", "4/4", "5/5", "6/6"]);
        let cook = RankingMods { cook_the_books: true, ..m };
        assert_eq!(order_names(cook, &cfg), ["6/6", "5/5", "4/4", "3/3", "2/2", "1/1", "pure"]);
        let cook_prime = RankingMods { cook_the_books: true, prime: Some(3), ..m };
        assert_eq!(order_names(cook_prime, &cfg), ["3/3", "6/6", "5/5", "4/4", "2/2", "1/1", "pure"]);
        let cook_md = RankingMods { cook_the_books: true, markdown: true, ..m };
        assert_eq!(order_names(cook_md, &cfg), ["6/6", "5/5", "4/4", "3/3", "2/2", "1/1", "zero"]);
    }

    #[test]
    fn nulhrek_keys_order_by_difference_then_sum() {
        let cfg = RuleConfig::default();
        let m = RankingMods::default();
        let k = |a, b| rank_key(classify(Resolved::Number(a), Resolved::Number(b), m, &cfg), m, &cfg);
        assert!(k(6, 6) < k(1, 2));
        assert!(k(1, 2) < k(5, 6) && k(5, 6) < k(1, 3));
        assert_eq!(k(2, 3), k(3, 2));
        let none = RuleConfig { nulhrek_tiebreak: NulhrekTiebreak::None, ..cfg };
        let kn = |a, b| rank_key(classify(Resolved::Number(a), Resolved::Number(b), m, &none), m, &none);
        assert_eq!(kn(1, 2), kn(5, 6));
    }
}
