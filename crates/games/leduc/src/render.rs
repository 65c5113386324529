//! Short human-readable text of a view or a whole state, for logs and terminal play.
//!
//! Actions are shown in poker words (`check`, `bet`, `call`, `raise`, `fold`), which depend on
//! whether a bet was standing; the flat names stay `call` and `raise` everywhere else.

use crate::action::Action;
use crate::card::Card;
use crate::config::PLAYERS;
use crate::config::ROUNDS;
use crate::state::State;
use crate::view::PlayerView;
use game::Seat;
use std::fmt::Write;

/// One round's actions in poker words, e.g. `check, bet, raise, call`; `-` when empty.
pub fn betting_words(actions: &[Action]) -> String {
    if actions.is_empty() {
        return "-".into();
    }
    let mut facing = false;
    let words: Vec<&str> = actions
        .iter()
        .map(|&a| {
            let w = match (a, facing) {
                (Action::Fold, _) => "fold",
                (Action::Call, false) => "check",
                (Action::Call, true) => "call",
                (Action::Raise, false) => "bet",
                (Action::Raise, true) => "raise",
            };
            facing = a == Action::Raise;
            w
        })
        .collect();
    words.join(", ")
}

fn card_or(c: Option<Card>, hidden: &str) -> String {
    c.map_or_else(|| hidden.to_string(), |c| c.to_string())
}

fn common(out: &mut String, round: u8, to_act: Option<Seat>, board: &str, history: &[Vec<Action>; ROUNDS], pot: u32) {
    let turn = to_act.map_or_else(|| "hand over".to_string(), |s| format!("{s} to act"));
    // Writing to a String cannot fail.
    let _ = writeln!(out, "Leduc hold'em, round {round}, {turn}");
    let _ = writeln!(out, "board: {board}");
    let _ = writeln!(out, "pot: {pot}");
    for (r, actions) in history.iter().enumerate() {
        let _ = writeln!(out, "round {}: {}", r + 1, betting_words(actions));
    }
}

fn result_line(out: &mut String, returns: Option<[f64; PLAYERS]>) {
    if let Some(r) = returns {
        let _ = writeln!(out, "result: seat 0 {:+}, seat 1 {:+}", r[0], r[1]);
    }
}

/// The view as its seat sees it; the opponent's card is `??` unless it was shown.
pub fn render_view(view: &PlayerView) -> String {
    let mut out = String::new();
    let board = card_or(view.public_card, "(hidden)");
    common(&mut out, view.round, view.to_act, &board, &view.history, view.pot);
    for i in 0..PLAYERS {
        let seat = Seat(i as u8);
        let (card, who) = if seat == view.seat {
            (view.own_card.to_string(), " (you)")
        } else {
            (card_or(view.opponent_card, "??"), "")
        };
        let _ = writeln!(out, "{seat}{who}: {card}, put in {}", view.contributions[i]);
    }
    result_line(&mut out, view.returns);
    out
}

/// The whole state, every card shown (for logs and debugging, not for players).
pub fn render_state(state: &State) -> String {
    let mut out = String::new();
    let deal = state.deal();
    let board = match state.public_card() {
        Some(c) => c.to_string(),
        None => format!("{} (not yet revealed)", deal.public),
    };
    common(&mut out, state.round(), state.current_player(), &board, state.public_history(), state.pot());
    for (i, (card, put_in)) in deal.private.iter().zip(state.contributions()).enumerate() {
        let _ = writeln!(out, "{}: {card}, put in {put_in}", Seat(i as u8));
    }
    result_line(&mut out, state.is_terminal().then(|| state.returns()));
    out
}
