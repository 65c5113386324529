//! `search` / `search:N`: determinised rollouts.
//!
//! At a decision with more than one legal action it:
//! 1. samples `N` worlds consistent with its view ([`determinize_biased`]: the cards it cannot
//!    place dealt at random to the opponents' hands, the out-of-play pile and the deck, each
//!    opponent's hand the best of [`skill`] random hands as in `expert`'s model; fresh dice and
//!    shift picks). It never reads the real hidden cards;
//! 2. in each world, applies every legal action and plays the rest of the **hand** with
//!    [`Expert`] for every seat ([`ROLLOUT_SAMPLES`] deals per rollout decision), every action
//!    of a world under the same dice, shift picks and rollout randomness (common random numbers);
//! 3. scores each rollout by its own credit change from now to the end of the hand, plus an
//!    even share (one over the players in the game) of the change in the sabacc pot: every
//!    penalty and fold fee goes there and any player may win it later, so counting it as lost
//!    would overstate what a penalty costs (the same over-caution that cost the expert when it
//!    charged bombed hands their penalty);
//! 4. plays the action with the best mean score, but keeps `expert`'s own choice unless the
//!    best action beats it by more than [`MARGIN`] standard errors of their paired difference
//!    over the worlds. Scores are heavy-tailed (a bombed hand pays the whole hand pot), and the
//!    largest of several noisy means is biased upwards: without the margin a small `N` picks
//!    lucky actions and plays worse than the expert it rolls out with.
//!
//! Its cost is `N ×` (legal actions) hand rollouts per decision.

use super::BotRng;
use super::expert::Expert;
use super::hand::{SHOWN, STEERED, key, skill};
use crate::action::{Action, ActionMask};
use crate::config::AllBombed;
use crate::sample::determinize_biased;
use crate::state::{HandResult, State};
use crate::view::PlayerView;
use game::seat::{MAX_PLAYERS, Seat};
use rand::{RngExt, SeedableRng};

/// Worlds per decision for a bare `search` spec.
pub const DEFAULT_WORLDS: usize = 32;
/// Sampled deals per decision of the expert that plays the rollouts.
pub const ROLLOUT_SAMPLES: usize = 32;
/// Standard errors by which an action must beat `expert`'s choice to replace it.
pub const MARGIN: f64 = 1.0;

/// Plays `s` with `policy` for every seat until the hand numbered `hand` is over.
fn finish_hand(s: &mut State, hand: u32, policy: &Expert, rng: &mut BotRng) {
    while let Some(seat) = s.current_player() {
        if s.hand_number() != hand {
            break;
        }
        let m = s.legal_mask();
        let a = if m.count() == 1 {
            m.actions().next().expect("one legal action")
        } else {
            policy.choose(&s.view(seat), m, rng)
        };
        s.apply(a).expect("the rollout policy plays legal actions");
    }
}

/// The sabacc pot as the hand described by `result` left it, before the next hand's antes: what
/// the credits after the hand and any carried hand pot leave of the table's credits.
fn sabacc_pot_at_end(s: &State, result: &HandResult) -> f64 {
    let cfg = s.config();
    let held: u64 = result.seats.iter().flatten().map(|sr| sr.credits_after as u64).sum();
    let carried = if result.all_bombed && cfg.all_bombed == AllBombed::CarryOver { result.hand_pot as u64 } else { 0 };
    cfg.total_credits().saturating_sub(held + carried) as f64
}

/// What the search found at one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Each legal action, in action order, with its mean score (credit change to the end of the
    /// hand plus a share of the sabacc pot's change).
    pub values: Vec<(Action, f64)>,
    /// `expert`'s choice at the decision.
    pub expert: Action,
    /// The action played: the best mean, unless it fails the margin over `expert`'s choice.
    pub chosen: Action,
    /// Worlds sampled.
    pub worlds: usize,
}

/// Searches a decision with `worlds` sampled worlds (see the module documentation).
///
/// # Panics
/// If no action is legal (the game is over).
pub fn search(view: &PlayerView, legal: ActionMask, rng: &mut BotRng, worlds: usize) -> SearchResult {
    let actions: Vec<Action> = legal.actions().collect();
    let expert = Expert::default().choose(view, legal, rng);
    if actions.len() == 1 {
        return SearchResult { values: vec![(actions[0], 0.0)], expert, chosen: expert, worlds: 0 };
    }
    let me = view.viewer.index();
    let now = view.seats[me].credits as f64;
    let in_game = view.seats.iter().filter(|x| x.in_game).count().max(1) as f64;
    let policy = Expert { samples: ROLLOUT_SAMPLES, ..Expert::default() };
    let mut candidates = [1usize; MAX_PLAYERS];
    for (i, c) in candidates.iter_mut().enumerate().take(view.config.players as usize) {
        *c = skill(view, Seat(i as u8), STEERED, SHOWN);
    }
    // scores[w * actions + j]: world w, action j.
    let mut scores: Vec<f64> = Vec::with_capacity(worlds * actions.len());
    let mut sampled = 0usize;
    for _ in 0..worlds.max(1) {
        let Ok(world) = determinize_biased(view, rng, &candidates, |cards| key(&view.config, cards)) else {
            continue;
        };
        let rollout_seed: u64 = rng.random();
        sampled += 1;
        for &a in &actions {
            let mut s = world.clone();
            s.apply(a).expect("an action legal in the view is legal in every world");
            let mut r = BotRng::seed_from_u64(rollout_seed);
            finish_hand(&mut s, view.hand_no, &policy, &mut r);
            let Some(result) = s.last_result().filter(|r| r.hand == view.hand_no) else {
                unreachable!("the rollout ends with the hand's result");
            };
            let after = result.seats[me].map_or(now, |sr| sr.credits_after as f64);
            let pot = sabacc_pot_at_end(&s, result) - view.sabacc_pot as f64;
            scores.push(after - now + pot / in_game);
        }
    }
    let k = actions.len();
    let w = sampled.max(1) as f64;
    let mean = |j: usize| (0..sampled).map(|x| scores[x * k + j]).sum::<f64>() / w;
    let values: Vec<(Action, f64)> = actions.iter().enumerate().map(|(j, &a)| (a, mean(j))).collect();
    let mut best = 0;
    for j in 1..k {
        if values[j].1 > values[best].1 {
            best = j;
        }
    }
    let e = actions.iter().position(|&a| a == expert).expect("expert plays a legal action");
    let chosen = if best == e || sampled < 2 {
        actions[e]
    } else {
        let d: Vec<f64> = (0..sampled).map(|x| scores[x * k + best] - scores[x * k + e]).collect();
        let m = d.iter().sum::<f64>() / w;
        let var = d.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (w - 1.0);
        if m > MARGIN * (var / w).sqrt() { actions[best] } else { actions[e] }
    };
    SearchResult { values, expert, chosen, worlds: sampled }
}

/// Search's action (see the module documentation); always legal.
///
/// # Panics
/// If no action is legal (the game is over).
pub fn choose(view: &PlayerView, legal: ActionMask, rng: &mut BotRng, worlds: usize) -> Action {
    assert!(!legal.is_empty(), "no legal action: the game is over");
    if legal.count() == 1 {
        return legal.actions().next().expect("one legal action");
    }
    search(view, legal, rng, worlds).chosen
}
