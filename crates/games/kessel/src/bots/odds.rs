//! A hand's chance to win the round, now and after a draw, as the style bots judge it.
//!
//! The style bots (`tight`, `loose`, `chipaware`) differ in how much risk they take, not in how
//! they read the table, so they share this one estimate: every active opponent's unknown cards
//! are a random pair from the cards the viewer cannot place ([`Counting`]), known cards count
//! exactly, opponents are independent, and a tie is a win (K4.10). It is simpler than the
//! expert's model (no re-weighting of opponents in stand), which keeps the styles fast.

use super::hand::{Counting, Evaluator, Hist, beat_dist, opponents};
use crate::{Action, Card, CardKind, PlayerView, RankingMods, RuleConfig, Source, Token};

/// The shared estimate (see the module documentation). Holds memoised hand distributions.
pub struct Odds {
    eval: Evaluator,
}

impl Default for Odds {
    fn default() -> Self {
        Odds { eval: Evaluator::new(RuleConfig::default()) }
    }
}

/// What the viewer's counting says about the table under one set of ranking mods.
pub struct Table {
    count: Counting,
    mods: RankingMods,
    pool: Hist,
    opponents: usize,
}

impl Table {
    /// Active opponents.
    pub fn opponents(&self) -> usize {
        self.opponents
    }
}

/// The chance to beat one opponent that gives the chance `p` to beat all `k` of them, so that
/// one threshold means the same at every table size.
pub fn per_opponent(p: f32, k: usize) -> f32 {
    if k <= 1 { p } else { p.max(0.0).powf(1.0 / k as f32) }
}

impl Odds {
    /// A fresh estimate.
    pub fn new() -> Odds {
        Odds::default()
    }

    /// The table as the viewer sees it, under the mods in force or `mods` if given.
    pub fn table(&mut self, view: &PlayerView, mods: Option<RankingMods>) -> Table {
        let count = Counting::from_view(view);
        let mods = mods.unwrap_or(view.effects.mods);
        let pool = self.eval.pool_hist(&view.config, mods, &count.hidden);
        Table { count, mods, pool, opponents: opponents(view).count() }
    }

    /// The chance that a hand of these kinds wins the round against every active opponent.
    pub fn win(&mut self, view: &PlayerView, t: &Table, hand: [CardKind; 2]) -> f32 {
        let my = self.eval.dist(&view.config, t.mods, hand[0], hand[1]).clone();
        let plain = t.pool.beat(&my);
        let mut p = 1.0;
        for o in opponents(view) {
            p *= match t.count.known[o.index()] {
                [Some(a), Some(b)] => beat_dist(&my, self.eval.dist(&view.config, t.mods, a.kind(), b.kind())),
                _ => plain,
            };
        }
        p
    }

    /// The tax the viewer's hand would pay if it lost (expected over Impostor dice).
    pub fn loss_tax(&mut self, view: &PlayerView) -> f32 {
        let hand = Self::hand(view);
        self.eval.dist(&view.config, view.effects.mods, hand[0], hand[1]).tax
    }

    /// The viewer's hand kinds.
    pub fn hand(view: &PlayerView) -> [CardKind; 2] {
        [view.hand[0].kind(), view.hand[1].kind()]
    }

    /// The expected chance to win after drawing from `src` and keeping the better card, or
    /// `None` if the source holds nothing the viewer can count. A face-up card is known exactly;
    /// a draw pile is averaged over the hidden cards of its family.
    pub fn after_draw(&mut self, view: &PlayerView, t: &Table, src: Source) -> Option<f32> {
        let hand = Self::hand(view);
        let f = src.family().index();
        let held = self.win(view, t, hand);
        if !src.is_deck() {
            let top = view.discard[f].top()?;
            let mut h = hand;
            h[f] = top.kind();
            return Some(self.win(view, t, h).max(held));
        }
        t.count.expect_draw(f, |kind| {
            let mut h = hand;
            h[f] = kind;
            self.win(view, t, h).max(held)
        })
    }

    /// The legal draw with the best expected chance to win, and that chance.
    pub fn best_draw(&mut self, view: &PlayerView, t: &Table, legal: crate::ActionMask) -> Option<(Source, f32)> {
        let mut best: Option<(Source, f32)> = None;
        for src in Source::ALL {
            if !legal.contains(Action::Draw(src)) {
                continue;
            }
            if let Some(p) = self.after_draw(view, t, src)
                && best.is_none_or(|b| p > b.1 + 1e-6)
            {
                best = Some((src, p));
            }
        }
        best
    }

    /// Keep the drawn card when it gives the better chance to win (`prefer_drawn`: on a tie).
    pub fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source, prefer_drawn: bool) -> Action {
        let t = self.table(view, None);
        let held = Self::hand(view);
        let mut with = held;
        with[source.family().index()] = drawn.kind();
        let (ph, pd) = (self.win(view, &t, held), self.win(view, &t, with));
        if pd > ph + 1e-6 || (prefer_drawn && pd >= ph - 1e-6) { Action::KeepDrawn } else { Action::KeepHeld }
    }

    /// The Prime Sabacc die that gives the better chance to win.
    pub fn prime_die(&mut self, view: &PlayerView, dice: [u8; 2]) -> Action {
        let hand = Self::hand(view);
        let mut p = [0.0; 2];
        for (i, d) in dice.iter().enumerate() {
            let t = self.table(view, Some(RankingMods { prime: Some(*d), ..view.effects.mods }));
            p[i] = self.win(view, &t, hand);
        }
        if p[1] > p[0] { Action::DieSecond } else { Action::DieFirst }
    }

    /// The chance to win now, and once the Fix token `token` is in force: what playing it would
    /// change for the viewer's own hand.
    pub fn fix_change(&mut self, view: &PlayerView, token: Token) -> (f32, f32) {
        let hand = Self::hand(view);
        let now = self.table(view, None);
        let then = self.table(view, Some(fixed_mods(token, view.effects.mods)));
        (self.win(view, &now, hand), self.win(view, &then, hand))
    }
}

/// The ranking mods once the Fix token `token` (Cook the Books, Markdown, Major Fraud) is played
/// over `mods`; other kinds change nothing.
pub fn fixed_mods(token: Token, mods: RankingMods) -> RankingMods {
    match token {
        Token::CookTheBooks => RankingMods { cook_the_books: true, ..mods },
        Token::Markdown => RankingMods { markdown: true, ..mods },
        Token::MajorFraud => RankingMods { major_fraud: true, ..mods },
        _ => mods,
    }
}

/// The Prime value that is best for a hand of these kinds on average over the dice: the chance
/// to win with Prime Sabacc played now (both dice rolled, the better one taken).
pub fn prime_gain(odds: &mut Odds, view: &PlayerView) -> (f32, f32) {
    let hand = Odds::hand(view);
    let now = odds.table(view, None);
    let p0 = odds.win(view, &now, hand);
    let mut pv = [0.0f32; 7];
    for (v, slot) in pv.iter_mut().enumerate().skip(1) {
        let t = odds.table(view, Some(RankingMods { prime: Some(v as u8), ..view.effects.mods }));
        *slot = odds.win(view, &t, hand);
    }
    let mut e = 0.0;
    for a in 1..=6 {
        for b in 1..=6 {
            e += pv[a].max(pv[b]) / 36.0;
        }
    }
    (p0, e)
}
