//! `greedy`: plays its own cards towards 23 and never puts a credit at risk by betting.
//!
//! Its rules, all on its own total `t` (the hand's key under the rules in force, so a Pure
//! Sabacc or an Idiot's Array counts above any plain total):
//! - **Opening**: always checks. **No bet standing**: stays.
//! - **Facing a bet**: matches when its hand is decent (`t ≥` [`DECENT`], not bombed) and the
//!   credits it must add are at most [`SMALL_BET`]; otherwise folds. It never raises.
//! - **Calling**: calls when `t ≥` [`CALL_FROM`] and the hand did not bomb; declines otherwise.
//! - **Drawing**: passes on `t ≥` [`PASS_FROM`]; with a total above 23 (or below −23) exchanges
//!   if it can, else passes; with a card worth less than [`EXCHANGE_BELOW`] and three or more
//!   cards, exchanges (the worst card goes); with `t ≤` [`DRAW_UP_TO`] (or 0) draws; otherwise
//!   passes.
//! - **Dropping** after an exchange: the card whose removal leaves the best hand (for a hand that
//!   bombs whatever it drops, the one nearest the allowed range).
//!
//! It uses no randomness and no card counting.

use super::hand::{BOMBED, bombs, key, total};
use crate::action::{Action, ActionMask};
use crate::card::Card;
use crate::config::RuleConfig;
use crate::state::Pending;
use crate::view::PlayerView;

/// Passes on this total or better.
pub const PASS_FROM: i32 = 19;
/// Draws on this total or less.
pub const DRAW_UP_TO: i32 = 14;
/// Calls on this total or better.
pub const CALL_FROM: i32 = 20;
/// A hand worth matching a small bet with.
pub const DECENT: i32 = 16;
/// The most credits it adds to match a bet.
pub const SMALL_BET: u32 = 3;
/// Exchanges a card worth less than this.
pub const EXCHANGE_BELOW: i16 = 0;

/// Greedy's action (see the module documentation); always legal.
///
/// # Panics
/// If no action is legal (the game is over).
pub fn choose(view: &PlayerView, legal: ActionMask) -> Action {
    let wanted = decide(view, legal);
    if legal.contains(wanted) {
        return wanted;
    }
    // A rule above never picks an illegal action; the fallback keeps the contract regardless.
    legal.actions().next().expect("no legal action: the game is over")
}

fn decide(view: &PlayerView, legal: ActionMask) -> Action {
    let cfg = &view.config;
    let cards = view.hand.as_slice();
    let k = key(cfg, cards);
    match view.pending {
        Pending::Bet => Action::Check,
        Pending::Answer if view.betting.to_match == 0 => Action::Stay,
        Pending::Answer => {
            let need = view.betting.to_match - view.seats[view.viewer.index()].contributed;
            if k >= DECENT && need <= SMALL_BET && legal.contains(Action::Match) { Action::Match } else { Action::Fold }
        }
        Pending::Call if k >= CALL_FROM => Action::Call,
        Pending::Call => Action::DeclineCall,
        Pending::Draw => draw(cfg, cards, k, legal),
        Pending::Drop => best_drop(cfg, cards, legal),
        Pending::GameOver | Pending::Truncated => Action::Pass,
    }
}

fn draw(cfg: &RuleConfig, cards: &[Card], k: i32, legal: ActionMask) -> Action {
    let t = total(cfg, cards);
    let can = |a| legal.contains(a);
    if k >= PASS_FROM {
        return Action::Pass;
    }
    if !(-23..=23).contains(&t) {
        return if can(Action::Exchange) { Action::Exchange } else { Action::Pass };
    }
    let worst = cards.iter().map(|c| c.value(&cfg.face_values)).min().unwrap_or(0);
    if cards.len() >= 3 && worst < EXCHANGE_BELOW && can(Action::Exchange) {
        return Action::Exchange;
    }
    if k <= DRAW_UP_TO {
        return if can(Action::Draw) {
            Action::Draw
        } else if can(Action::Exchange) {
            Action::Exchange
        } else {
            Action::Pass
        };
    }
    Action::Pass
}

/// A hand's rank for greedy's drops: its key, or for a bombed hand how far outside the allowed
/// range its total lies (nearer is better).
fn rank(cfg: &RuleConfig, cards: &[Card]) -> i32 {
    let k = key(cfg, cards);
    if k != BOMBED {
        return k;
    }
    let t = total(cfg, cards) as i32;
    let off = if t > 23 {
        t - 23
    } else if t < -23 {
        -23 - t
    } else {
        debug_assert!(bombs(t as i16));
        1
    };
    BOMBED - off
}

/// The legal drop leaving the best hand by `rank`; the lowest index on a tie.
pub(crate) fn best_drop(cfg: &RuleConfig, cards: &[Card], legal: ActionMask) -> Action {
    let mut best: Option<(i32, u8)> = None;
    let mut rest: Vec<Card> = Vec::with_capacity(cards.len());
    for a in legal.actions() {
        let Action::Drop(i) = a else { continue };
        rest.clear();
        rest.extend(cards.iter().enumerate().filter(|&(j, _)| j != i as usize).map(|(_, &c)| c));
        let r = rank(cfg, &rest);
        if best.is_none_or(|(b, _)| r > b) {
            best = Some((r, i));
        }
    }
    best.map_or(Action::Pass, |(_, i)| Action::Drop(i))
}
