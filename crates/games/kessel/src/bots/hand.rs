//! Hand evaluation shared by the heuristic bots: card counting from a [`PlayerView`] and the
//! distribution of a hand's rank key at the reveal.
//!
//! A hand is described by the kinds of its two cards (six numbers, Impostor, Sylop). Its rank
//! key at the reveal is random when it holds an Impostor (dice, K4.2); [`Evaluator`] turns a pair
//! of kinds into a distribution over rank keys under the ranking mods in force, assuming the
//! owner picks the best die. Win chances compare such distributions: a tie is a win (K4.10).

use crate::config::ImpostorRule;
use crate::ranking::{HandClass, RankKey, best_choice, classify, rank_key};
use crate::{Card, CardKind, Family, PlayerView, RankingMods, Resolved, RuleConfig, ViewDecision};
use game::Seat;

/// Rank keys are below this bound (16 + 6·32 + 12 < 256).
pub const NKEYS: usize = 256;

/// Dense index of a card kind (0..8): numbers 1–6 → 0..5, Impostor 6, Sylop 7.
pub fn kind_index(k: CardKind) -> usize {
    k.index()
}

/// The kind with a dense index.
pub fn kind_of(i: usize) -> CardKind {
    match i {
        0..=5 => CardKind::Number(i as u8 + 1),
        6 => CardKind::Impostor,
        _ => CardKind::Sylop,
    }
}

/// The distribution of one hand's rank key: sparse `(key, probability)` pairs, plus its expected
/// tax if it loses.
#[derive(Clone, Debug, Default)]
pub struct KeyDist {
    /// (key, probability), probabilities summing to 1.
    pub keys: Vec<(RankKey, f32)>,
    /// Expected tax if the hand loses (1 for a Sabacc, d for a Nulhrek).
    pub tax: f32,
    /// Probability that the hand is a Sabacc.
    pub sabacc: f32,
}

/// All 64 kind pairs under one set of mods.
struct Table {
    mods: RankingMods,
    dists: Vec<KeyDist>,
}

/// The rules with the per-seat loadouts cleared: they decide who holds which token, never what a
/// hand is worth, and token studies give every game its own loadouts. Caches keyed by the rules
/// use this, so they are not rebuilt at every game (or at every decision, when one bot plays
/// many games at once).
pub fn ranking_rules(cfg: &RuleConfig) -> RuleConfig {
    RuleConfig { fixed_loadouts: Default::default(), ..*cfg }
}

/// Whether `a` and `b` give the same [`ranking_rules`]: every field but the fixed loadouts (the
/// destructuring makes a new field a compile error here, to be sorted in or out).
#[inline]
fn ranks_alike(a: &RuleConfig, b: &RuleConfig) -> bool {
    let RuleConfig {
        players,
        starting_chips,
        credits_per_chip,
        round_limit,
        nulhrek_tiebreak,
        impostor,
        cook_the_books,
        markdown_sylops,
        refund_source,
        embezzlement,
        tax_token_chips,
        in_stand,
        early_reveal,
        round_starter,
        first_starter,
        token_assignment,
        tokens_per_player,
        enabled_tokens,
        fixed_loadouts: _,
    } = a;
    *players == b.players
        && *starting_chips == b.starting_chips
        && *credits_per_chip == b.credits_per_chip
        && *round_limit == b.round_limit
        && *nulhrek_tiebreak == b.nulhrek_tiebreak
        && *impostor == b.impostor
        && *cook_the_books == b.cook_the_books
        && *markdown_sylops == b.markdown_sylops
        && *refund_source == b.refund_source
        && *embezzlement == b.embezzlement
        && *tax_token_chips == b.tax_token_chips
        && *in_stand == b.in_stand
        && *early_reveal == b.early_reveal
        && *round_starter == b.round_starter
        && *first_starter == b.first_starter
        && *token_assignment == b.token_assignment
        && *tokens_per_player == b.tokens_per_player
        && *enabled_tokens == b.enabled_tokens
}

/// Memoised hand-key distributions per ranking mods (a handful of tables per game).
pub struct Evaluator {
    cfg: RuleConfig,
    tables: Vec<Table>,
}

impl Evaluator {
    /// An evaluator for these rules.
    pub fn new(cfg: RuleConfig) -> Evaluator {
        Evaluator { cfg: ranking_rules(&cfg), tables: Vec::new() }
    }

    fn table(&mut self, cfg: &RuleConfig, mods: RankingMods) -> &Table {
        // Asked at nearly every decision: compared field by field rather than by building and
        // comparing a whole config (the derived comparison was a twentieth of a bot's time).
        if !ranks_alike(cfg, &self.cfg) {
            self.cfg = ranking_rules(cfg);
            self.tables.clear();
        }
        let cfg = &self.cfg;
        if let Some(i) = self.tables.iter().position(|t| t.mods == mods) {
            return &self.tables[i];
        }
        let mut dists = Vec::with_capacity(64);
        for s in 0..8 {
            for b in 0..8 {
                dists.push(hand_dist(kind_of(s), kind_of(b), mods, cfg));
            }
        }
        if self.tables.len() > 64 {
            self.tables.clear();
        }
        self.tables.push(Table { mods, dists });
        self.tables.last().expect("just pushed")
    }

    /// The key distributions of all 64 kind pairs, `[sand * 8 + blood]` by dense kind index.
    pub fn dists(&mut self, cfg: &RuleConfig, mods: RankingMods) -> &[KeyDist] {
        &self.table(cfg, mods).dists
    }

    /// The key distribution of a hand of these kinds.
    pub fn dist(&mut self, cfg: &RuleConfig, mods: RankingMods, sand: CardKind, blood: CardKind) -> &KeyDist {
        let t = self.table(cfg, mods);
        &t.dists[kind_index(sand) * 8 + kind_index(blood)]
    }

    /// The key distribution of a random hand whose Sand and Blood kinds are drawn independently
    /// from these counts, as a dense histogram (probabilities over keys).
    pub fn pool_hist(&mut self, cfg: &RuleConfig, mods: RankingMods, counts: &[[u8; 8]; 2]) -> Hist {
        let ns: u32 = counts[0].iter().map(|&c| c as u32).sum();
        let nb: u32 = counts[1].iter().map(|&c| c as u32).sum();
        let mut h = Hist::default();
        if ns == 0 || nb == 0 {
            return h;
        }
        let t = self.table(cfg, mods);
        let norm = 1.0 / (ns * nb) as f32;
        for s in 0..8 {
            if counts[0][s] == 0 {
                continue;
            }
            for b in 0..8 {
                if counts[1][b] == 0 {
                    continue;
                }
                let w = (counts[0][s] as u32 * counts[1][b] as u32) as f32 * norm;
                for &(k, p) in &t.dists[s * 8 + b].keys {
                    h.p[k as usize] += w * p;
                }
            }
        }
        h.finish();
        h
    }
}

/// A hand's chance to beat (or tie) a random hand from the full deck under the ranking in force,
/// with the full-deck histograms memoised per rules and mods: the simple bots' one measure of
/// how good two cards are.
pub struct Scorer {
    eval: Evaluator,
    hists: Vec<(RuleConfig, RankingMods, Hist)>,
}

impl Default for Scorer {
    fn default() -> Self {
        Scorer { eval: Evaluator::new(Default::default()), hists: Vec::new() }
    }
}

impl Scorer {
    /// The chance that a hand of kinds `sand` and `blood` beats a random full-deck hand.
    pub fn score(&mut self, view: &PlayerView, sand: CardKind, blood: CardKind) -> f32 {
        let cfg = ranking_rules(&view.config);
        let mods = view.effects.mods;
        let i = match self.hists.iter().position(|(c, m, _)| *m == mods && *c == cfg) {
            Some(i) => i,
            None => {
                if self.hists.len() > 32 {
                    self.hists.clear();
                }
                let h = self.eval.pool_hist(&cfg, mods, &FULL_COUNTS);
                self.hists.push((cfg, mods, h));
                self.hists.len() - 1
            }
        };
        let d = self.eval.dist(&cfg, mods, sand, blood);
        self.hists[i].2.beat(d)
    }

    /// The score of the hand with `drawn` in place of the held card of its family, against the
    /// score of the hand as held: `(held, with drawn)`.
    pub fn keep_scores(&mut self, view: &PlayerView, drawn: Card, family: usize) -> (f32, f32) {
        let mut with = [view.hand[0].kind(), view.hand[1].kind()];
        let held = self.score(view, with[0], with[1]);
        with[family] = drawn.kind();
        (held, self.score(view, with[0], with[1]))
    }
}

/// A dense key histogram with its upper tail `ge[k] = P(key ≥ k)`.
#[derive(Clone, Debug)]
pub struct Hist {
    /// P(key = k).
    pub p: [f32; NKEYS],
    /// P(key ≥ k).
    pub ge: [f32; NKEYS + 1],
}

impl Default for Hist {
    fn default() -> Self {
        Hist { p: [0.0; NKEYS], ge: [0.0; NKEYS + 1] }
    }
}

impl Hist {
    fn finish(&mut self) {
        let mut acc = 0.0;
        for k in (0..NKEYS).rev() {
            acc += self.p[k];
            self.ge[k] = acc;
        }
        self.ge[NKEYS] = 0.0;
    }

    /// Chance that a hand with distribution `d` wins against (or ties) a hand from this histogram.
    pub fn beat(&self, d: &KeyDist) -> f32 {
        if self.ge[0] <= 0.0 {
            return 1.0;
        }
        d.keys.iter().map(|&(k, p)| p * self.ge[k as usize] / self.ge[0]).sum()
    }
}

/// Chance that `a` is at least as good as `b` (both random through dice, independent).
pub fn beat_dist(a: &KeyDist, b: &KeyDist) -> f32 {
    let mut s = 0.0;
    for &(ka, pa) in &a.keys {
        for &(kb, pb) in &b.keys {
            if ka <= kb {
                s += pa * pb;
            }
        }
    }
    s
}

/// The values a card of this kind may take at the reveal, with their probabilities, before the
/// owner's choice: one entry for numbers and Sylops, dice pairs for Impostors.
fn hand_dist(sand: CardKind, blood: CardKind, mods: RankingMods, cfg: &RuleConfig) -> KeyDist {
    // Each card resolves to a list of alternatives per outcome: outcomes are (probability, options).
    fn outcomes(k: CardKind, mods: RankingMods, cfg: &RuleConfig) -> Vec<(f32, Vec<Resolved>)> {
        match k {
            CardKind::Number(v) => vec![(1.0, vec![Resolved::Number(v)])],
            CardKind::Sylop => vec![(1.0, vec![Resolved::Sylop])],
            CardKind::Impostor if mods.major_fraud => vec![(1.0, vec![Resolved::Number(6)])],
            CardKind::Impostor => match cfg.impostor {
                ImpostorRule::OneDie => (1..=6).map(|d| (1.0 / 6.0, vec![Resolved::Number(d)])).collect(),
                _ => {
                    let mut v = Vec::with_capacity(21);
                    for a in 1..=6u8 {
                        for b in a..=6u8 {
                            let p = if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 };
                            v.push((p, vec![Resolved::Number(a), Resolved::Number(b)]));
                        }
                    }
                    v
                }
            },
        }
    }
    let os = outcomes(sand, mods, cfg);
    let ob = outcomes(blood, mods, cfg);
    let mut acc: Vec<(RankKey, f32)> = Vec::new();
    let mut tax = 0.0;
    let mut sabacc = 0.0;
    for (ps, vs) in &os {
        for (pb, vb) in &ob {
            let p = ps * pb;
            let (s, b, k) = best_choice([vs, vb], mods, cfg);
            let class = classify(s, b, mods, cfg);
            tax += p * class.tax() as f32;
            if class.is_sabacc() {
                sabacc += p;
            }
            match acc.iter_mut().find(|(kk, _)| *kk == k) {
                Some(e) => e.1 += p,
                None => acc.push((k, p)),
            }
        }
    }
    acc.sort_by_key(|e| e.0);
    KeyDist { keys: acc, tax, sabacc }
}

/// The rank key of a hand without Impostors (or with its Impostors fixed), for quick checks.
pub fn fixed_key(sand: Resolved, blood: Resolved, mods: RankingMods, cfg: &RuleConfig) -> (HandClass, RankKey) {
    let c = classify(sand, blood, mods, cfg);
    (c, rank_key(c, mods, cfg))
}

/// What the viewer can count: for each family, how many cards of each kind it cannot place
/// (in the draw pile or in unknown opponent hands), plus the opponents' known cards.
#[derive(Clone, Debug)]
pub struct Counting {
    /// Hidden cards per family and kind.
    pub hidden: [[u8; 8]; 2],
    /// Known opponent cards (seat → [sand, blood]).
    pub known: [[Option<Card>; 2]; game::MAX_PLAYERS],
}

impl Counting {
    /// The expectation of `value` over the kind of a card drawn blind from family `f` (0 Sand,
    /// 1 Blood), each kind weighted by how many of it are hidden; `None` when none is.
    pub fn expect_draw(&self, f: usize, mut value: impl FnMut(CardKind) -> f32) -> Option<f32> {
        let total: u32 = self.hidden[f].iter().map(|&n| u32::from(n)).sum();
        if total == 0 {
            return None;
        }
        let mut ev = 0.0;
        for (k, &n) in self.hidden[f].iter().enumerate() {
            if n > 0 {
                ev += f32::from(n) / total as f32 * value(kind_of(k));
            }
        }
        Some(ev)
    }

    /// Counts from the viewer's perspective.
    pub fn from_view(v: &PlayerView) -> Counting {
        let mut placed = [[0u8; 8]; 2];
        for f in 0..2 {
            for &c in v.discard[f].as_slice() {
                placed[f][kind_index(c.kind())] += 1;
            }
        }
        let me = v.viewer.index();
        let n = v.config.players as usize;
        let mut known = [[None; 2]; game::MAX_PLAYERS];
        if v.round > 0 && !v.seats[me].eliminated {
            for f in 0..2 {
                placed[f][kind_index(v.hand[f].kind())] += 1;
            }
        }
        for (i, sv) in v.seats.iter().enumerate().take(n) {
            if i == me || sv.eliminated {
                continue;
            }
            for f in 0..2 {
                if let Some(c) = sv.known_hand[f] {
                    placed[f][kind_index(c.kind())] += 1;
                    known[i][f] = Some(c);
                }
            }
        }
        if let ViewDecision::Keep { drawn: Some(c), .. } = v.decision {
            placed[c.family().index()][kind_index(c.kind())] += 1;
        }
        let mut hidden = [[0u8; 8]; 2];
        for f in 0..2 {
            for k in 0..8 {
                let total = kind_of(k).copies();
                hidden[f][k] = total.saturating_sub(placed[f][k]);
            }
        }
        Counting { hidden, known }
    }

    /// Hidden cards of a family.
    pub fn total(&self, f: Family) -> u32 {
        self.hidden[f.index()].iter().map(|&c| c as u32).sum()
    }
}

/// Opponents still in the game, clockwise from the viewer.
pub fn opponents(v: &PlayerView) -> impl Iterator<Item = Seat> + '_ {
    v.relative_seats().skip(1).filter(move |s| !v.seats[s.index()].eliminated)
}

/// Whether a hand of these kinds is a Sabacc whatever the dice (Impostors aside).
pub fn is_sabacc(a: CardKind, b: CardKind, markdown: bool) -> bool {
    match (a, b) {
        (CardKind::Sylop, CardKind::Sylop) => true,
        (CardKind::Sylop, CardKind::Number(_)) | (CardKind::Number(_), CardKind::Sylop) => !markdown,
        (CardKind::Number(x), CardKind::Number(y)) => x == y,
        _ => false,
    }
}

/// The full-deck kind counts (no card counting), used by the simple bots.
pub const FULL_COUNTS: [[u8; 8]; 2] = [[3, 3, 3, 3, 3, 3, 3, 1], [3, 3, 3, 3, 3, 3, 3, 1]];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_sum_to_one_and_order_hands() {
        let cfg = RuleConfig::default();
        let mods = RankingMods::default();
        let mut e = Evaluator::new(cfg);
        for s in 0..8 {
            for b in 0..8 {
                let d = e.dist(&cfg, mods, kind_of(s), kind_of(b));
                let total: f32 = d.keys.iter().map(|x| x.1).sum();
                assert!((total - 1.0).abs() < 1e-4, "{s} {b}: {total}");
            }
        }
        let pure = e.dist(&cfg, mods, CardKind::Sylop, CardKind::Sylop).clone();
        let ones = e.dist(&cfg, mods, CardKind::Number(1), CardKind::Number(1)).clone();
        let bad = e.dist(&cfg, mods, CardKind::Number(1), CardKind::Number(6)).clone();
        assert_eq!(beat_dist(&pure, &ones), 1.0);
        assert_eq!(beat_dist(&ones, &pure), 0.0);
        assert_eq!(beat_dist(&ones, &ones), 1.0, "a tie is a win");
        let hist = e.pool_hist(&cfg, mods, &FULL_COUNTS);
        assert!(hist.beat(&pure) > hist.beat(&ones) && hist.beat(&ones) > hist.beat(&bad));
        assert!((bad.tax - 5.0).abs() < 1e-6 && (ones.tax - 1.0).abs() < 1e-6);
        // Cook the Books turns 6/6 into the best numbered pair.
        let cook = RankingMods { cook_the_books: true, ..mods };
        let sixes = e.dist(&cfg, cook, CardKind::Number(6), CardKind::Number(6)).clone();
        let ones_c = e.dist(&cfg, cook, CardKind::Number(1), CardKind::Number(1)).clone();
        assert_eq!(beat_dist(&sixes, &ones_c), 1.0);
        assert_eq!(beat_dist(&ones_c, &sixes), 0.0);
        // An Impostor with a 3 makes 3/3 whenever a die shows 3 (11/36).
        let imp = e.dist(&cfg, mods, CardKind::Impostor, CardKind::Number(3)).clone();
        assert!((imp.sabacc - 11.0 / 36.0).abs() < 1e-5, "{}", imp.sabacc);
    }
}
