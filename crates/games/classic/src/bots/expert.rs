//! `expert`: counts cards, weighs pot odds, bets its strong hands and bluffs a few weak ones.
//!
//! **Strength.** At each decision (forced ones aside) it deals the cards it cannot place to the
//! opponents still in, [`SAMPLES`] times ([`Field`]). Each opponent's hand is the best of a few
//! random hands of its public size ([`skill`]): one for a fresh deal, [`STEERED`] once it has had
//! a turn, [`SHOWN`] more when it put credits in this betting phase. `p` is the chance that its
//! own hand, as it stands, wins the hand pot at a call (ties count one half). A shift is likely
//! before any call (a die roll of 1–3 swaps a random card of every hand), so when betting it
//! reads the hand's equity as `e = KEEP·p + (1 − KEEP)/m`, `m` the players still in: only part of
//! today's strength survives to the call. A bombed hand has `e = 0`.
//!
//! **Betting.**
//! - Opening: bets the most it may when `p ≥` [`STRONG`], half that (rounded up) when
//!   `p ≥` [`GOOD`]; with a weaker hand it bluffs that half-size bet at rate [`BLUFF_RATE`] and
//!   otherwise checks. It never folds an opening except by the bomb guard.
//! - No bet standing: stays, except by the bomb guard.
//! - Facing a bet of `need` more credits: raises by the most it may when `p ≥` [`STRONG`] and
//!   fewer than [`MAX_RAISES`] raises were made this phase; otherwise matches when the pot odds
//!   pay, `e·(hand pot + need) − need ≥ −1` (a fold costs a credit too), and folds when not.
//! - **Bomb guard**: with a bombed hand, once calls are open and the hand pot is large enough
//!   that a call would cost more than a fold (`hand pot ·` [`CALL_RISK`] `> 1`: the penalty is
//!   the hand pot), it folds at its opening or answer.
//!
//! **Calling**: calls a Pure Sabacc or an Idiot's Array at once, and any hand with
//! `p ≥` [`CALL_AT`] (waiting risks the next shift taking a good hand apart). It never calls a
//! bombed hand (`p = 0`).
//!
//! **Drawing** compares the value of passing, drawing and exchanging, each averaged over every
//! card it cannot place (the next card of the deck is any of them, equally likely), an exchange
//! keeping the best hand after the drop. A hand's value in credits is `p·hand pot`, plus
//! `p·sabacc pot` for a Pure Sabacc or an Idiot's Array. A bombed hand is worth 0 like any hand
//! that cannot win: charging it the penalty as well made the expert too timid to draw (it lost
//! to this rule by 4 to 15 points heads-up, `docs/bots-classic.md`). **Dropping** keeps the hand
//! of highest value (between equal values, greedy's choice).

use super::BotRng;
use super::greedy;
use super::hand::{BOMBED, Field, Knowledge, SHOWN, STEERED, Summary, largest_in_run, skill};
use crate::action::{Action, ActionMask, BET_INDEX, RAISE_INDEX};
use crate::card::Card;
use crate::config::{ExchangeDrop, RuleConfig};
use crate::state::{HandClass, Pending};
use crate::view::PlayerView;
use rand::RngExt;

/// Sampled deals of the opponents' hands per decision.
pub const SAMPLES: usize = 128;
/// Share of weak openings it bets anyway (a bluff).
pub const BLUFF_RATE: f64 = 0.10;
/// Win chance at which it calls the hand.
pub const CALL_AT: f64 = 0.60;
/// Win chance of a strong hand: the largest bet, raises.
pub const STRONG: f64 = 0.75;
/// Win chance of a good hand: a half-size bet.
pub const GOOD: f64 = 0.55;
/// How much of the current win chance counts as equity when betting (the rest is an even share).
pub const KEEP: f64 = 0.6;
/// Raises in a phase after which it only matches.
pub const MAX_RAISES: u8 = 2;
/// The chance it assumes that someone calls before a bombed hand can be mended.
pub const CALL_RISK: f64 = 0.35;

/// The expert's thresholds; the defaults are the constants above.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// [`CALL_AT`].
    pub call_at: f64,
    /// [`STRONG`].
    pub strong: f64,
    /// [`GOOD`].
    pub good: f64,
    /// [`KEEP`].
    pub keep: f64,
    /// [`BLUFF_RATE`].
    pub bluff_rate: f64,
    /// [`MAX_RAISES`].
    pub max_raises: u8,
    /// [`CALL_RISK`].
    pub call_risk: f64,
    /// [`STEERED`].
    pub steered: usize,
    /// [`SHOWN`].
    pub shown: usize,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            call_at: CALL_AT,
            strong: STRONG,
            good: GOOD,
            keep: KEEP,
            bluff_rate: BLUFF_RATE,
            max_raises: MAX_RAISES,
            call_risk: CALL_RISK,
            steered: STEERED,
            shown: SHOWN,
        }
    }
}

/// The expert bot; `samples` sets the deals per decision ([`SAMPLES`] by default, fewer inside
/// search rollouts where speed matters more).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Expert {
    /// Sampled deals per decision.
    pub samples: usize,
    /// Thresholds.
    pub params: Params,
}

impl Default for Expert {
    fn default() -> Self {
        Expert { samples: SAMPLES, params: Params::default() }
    }
}

/// The position as the expert reads it.
struct Read {
    cfg: RuleConfig,
    know: Knowledge,
    field: Field,
    hand_pot: f64,
    sabacc_pot: f64,
}

impl Read {
    /// A hand's value in credits (see the module documentation).
    fn value(&self, h: Summary) -> f64 {
        let class = h.class(&self.cfg);
        let p = self.field.win(h.key(&self.cfg));
        let mut v = p * self.hand_pot;
        if matches!(class, HandClass::PureSabacc | HandClass::IdiotsArray) {
            v += p * self.sabacc_pot;
        }
        v
    }

    /// Mean value after drawing each unseen card, kept (`exchange` false) or exchanged for the
    /// best drop.
    fn after_draw(&self, cards: &[Card], exchange: bool) -> f64 {
        let cfg = &self.cfg;
        let held = Summary::of(cfg, cards);
        let unseen = &self.know.unseen;
        if unseen.is_empty() {
            return self.value(held);
        }
        let mut sum = 0.0;
        for &c in unseen {
            let drawn = held.with(cfg, c);
            if !exchange {
                sum += self.value(drawn);
                continue;
            }
            let mut best = if cfg.exchange == ExchangeDrop::AnyCard { self.value(held) } else { f64::NEG_INFINITY };
            for &x in cards {
                best = best.max(self.value(drawn.without(cfg, x)));
            }
            sum += best;
        }
        sum / unseen.len() as f64
    }
}

impl Expert {
    /// The expert's action (see the module documentation); always legal.
    ///
    /// # Panics
    /// If no action is legal (the game is over).
    pub fn choose(&self, view: &PlayerView, legal: ActionMask, rng: &mut BotRng) -> Action {
        assert!(!legal.is_empty(), "no legal action: the game is over");
        if legal.count() == 1 {
            return legal.actions().next().expect("one legal action");
        }
        let wanted = self.decide(view, legal, rng);
        if legal.contains(wanted) { wanted } else { legal.actions().next().expect("a legal action") }
    }

    fn decide(&self, view: &PlayerView, legal: ActionMask, rng: &mut BotRng) -> Action {
        let cfg = view.config;
        let know = Knowledge::of(view);
        let q = &self.params;
        let skills: Vec<usize> = know.opponents.iter().map(|&(s, _)| skill(view, s, q.steered, q.shown)).collect();
        let field = Field::sample(&cfg, &know, self.samples, &skills, rng);
        let r = Read { cfg, field, hand_pot: view.hand_pot.max(1) as f64, sabacc_pot: view.sabacc_pot as f64, know };
        let cards = view.hand.as_slice();
        let mine = Summary::of(&cfg, cards);
        let k = mine.key(&cfg);
        let p = r.field.win(k);
        let players_in = r.know.opponents.len() as f64 + 1.0;
        // A bombed hand wins nothing as it stands and pays the hand pot at a call: no equity.
        let e = if k == BOMBED { 0.0 } else { q.keep * p + (1.0 - q.keep) / players_in };
        let bomb_guard = k == BOMBED
            && mine.class(&cfg) == HandClass::Bombed
            && view.calls_open
            && r.hand_pot * q.call_risk > 1.0
            && legal.contains(Action::Fold);
        match view.pending {
            Pending::Bet => {
                if bomb_guard {
                    return Action::Fold;
                }
                let Some(max) = largest_in_run(legal, BET_INDEX, cfg.bet_limit as usize) else {
                    return Action::Check;
                };
                let half = max.div_ceil(2);
                if p >= q.strong {
                    Action::Bet(max)
                } else if p >= q.good || rng.random::<f64>() < q.bluff_rate {
                    Action::Bet(half)
                } else {
                    Action::Check
                }
            }
            Pending::Answer if view.betting.to_match == 0 => {
                if bomb_guard {
                    Action::Fold
                } else {
                    Action::Stay
                }
            }
            Pending::Answer => {
                if !legal.contains(Action::Match) {
                    return Action::Fold;
                }
                if p >= q.strong
                    && view.betting.raises < q.max_raises
                    && let Some(max) = largest_in_run(legal, RAISE_INDEX, cfg.bet_limit as usize)
                {
                    return Action::Raise(max);
                }
                let need = (view.betting.to_match - view.seats[view.viewer.index()].contributed) as f64;
                let fold_cost = view.seats[view.viewer.index()].credits.min(1) as f64;
                if e * (r.hand_pot + need) - need >= -fold_cost { Action::Match } else { Action::Fold }
            }
            Pending::Call => {
                if mine.special(&cfg) || p >= q.call_at {
                    Action::Call
                } else {
                    Action::DeclineCall
                }
            }
            Pending::Draw => {
                let mut best = (Action::Pass, r.value(Summary::of(&cfg, cards)));
                for (a, exchange) in [(Action::Draw, false), (Action::Exchange, true)] {
                    if legal.contains(a) {
                        let v = r.after_draw(cards, exchange);
                        if v > best.1 {
                            best = (a, v);
                        }
                    }
                }
                best.0
            }
            Pending::Drop => {
                // The highest value; between equal values (a hand bombed whatever goes) greedy's
                // choice, the hand nearest the allowed range.
                let held = Summary::of(&cfg, cards);
                let mut best: Option<f64> = None;
                let mut tied = ActionMask::default();
                for a in legal.actions() {
                    let Action::Drop(i) = a else { continue };
                    let v = r.value(held.without(&cfg, cards[i as usize]));
                    if best.is_none_or(|b| v > b) {
                        best = Some(v);
                        tied = ActionMask::default();
                    }
                    if best == Some(v) {
                        tied.set(a);
                    }
                }
                greedy::best_drop(&cfg, cards, tied)
            }
            Pending::GameOver | Pending::Truncated => Action::Pass,
        }
    }
}
