//! Whom a targeted token (Target Tariff, Target Audit, Exhaustion, Direct Transaction) can hit,
//! judged from the viewer's side before the token is played, and the seats the styles aim at.
//!
//! A bot that wants a particular victim must know, when it decides to play the token, that the
//! victim will be a legal target (K5: not Immune, active; Target Audit: in stand; Tariffs and
//! Audits: chips in stock) — all public, so the view suffices.

use super::hand::opponents;
use crate::config::InStand;
use crate::{Action, ActionMask, LastAction, PlayerView, Token};
use game::Seat;

/// Whether `seat` is in stand for Audits (the rule config decides what that means, K9).
pub fn in_stand(view: &PlayerView, seat: Seat) -> bool {
    let s = &view.seats[seat.index()];
    match view.config.in_stand {
        InStand::LastAction => s.last_action == LastAction::Stand,
        InStand::StoodThisTurn => s.last_action == LastAction::Stand && s.stood_turn == view.turn,
    }
}

/// Whether the viewer could aim `token` at `seat` (mirrors the engine's target rule).
pub fn can_target(view: &PlayerView, token: Token, seat: Seat) -> bool {
    let s = &view.seats[seat.index()];
    if seat == view.viewer || s.eliminated || s.immune {
        return false;
    }
    match token {
        Token::TargetTariff => s.stock.0 > 0,
        Token::TargetAudit => s.stock.0 > 0 && in_stand(view, seat),
        Token::Exhaustion | Token::DirectTransaction => true,
        _ => false,
    }
}

/// Whether a Target Tariff (2 chips) or Target Audit (3 chips) at `seat` would knock it out: it
/// cannot pay from its stock and has no hand pot to fall back on.
pub fn knocks_out(view: &PlayerView, token: Token, seat: Seat) -> bool {
    let amount = match token {
        Token::TargetTariff => 2,
        Token::TargetAudit => 3,
        _ => return false,
    };
    let s = &view.seats[seat.index()];
    s.stock.0 <= amount && s.pot.0 == 0
}

/// The active opponent with the most chips in stock (ties: the nearest clockwise).
pub fn chip_leader(view: &PlayerView) -> Option<Seat> {
    let mut best: Option<Seat> = None;
    for o in opponents(view) {
        if best.is_none_or(|b| view.seats[o.index()].stock.0 > view.seats[b.index()].stock.0) {
            best = Some(o);
        }
    }
    best
}

/// The `Target` action that names `seat`, if it is legal.
pub fn target_action(view: &PlayerView, seat: Seat, legal: ActionMask) -> Option<Action> {
    let n = view.config.players;
    (1..n).find(|&o| view.viewer.offset(o, n) == seat).map(Action::Target).filter(|a| legal.contains(*a))
}

/// The opponent (as a seat offset) with the most chips in stock among legal targets.
pub fn richest_target(view: &PlayerView, legal: ActionMask) -> Option<Action> {
    let n = view.config.players;
    (1..n)
        .filter(|&o| legal.contains(Action::Target(o)))
        .max_by_key(|&o| (view.seats[view.viewer.offset(o, n).index()].stock.0, std::cmp::Reverse(o)))
        .map(Action::Target)
}

/// The first legal target, for decisions a style has no opinion on.
pub fn first_target(legal: ActionMask) -> Action {
    legal.actions().next().expect("a target decision has a legal target")
}
