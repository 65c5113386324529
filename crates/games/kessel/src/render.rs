//! Text for people: a position, its events and a round's settlement, one sentence or line each.
//! `sabacc scenario` prints it and the Python envs render it, so both read the same.
//!
//! [`report`] and [`position`] show the whole position (every hand, the draw piles in order): they
//! are for people looking at a game, never for players. [`view`] shows one seat's
//! [`crate::PlayerView`], and nothing else.

use crate::event::{ChipReason, DiceFor};
use crate::state::TurnAction;
use crate::{Card, Event, Family, HandClass, Outcome, Pending, Settlement, State};
use game::{Seat, SeatSet};
use std::fmt::Write as _;

/// The full text: the position, then `events` (left out when `None`, e.g. with the event log
/// off), then `settlement` if given, then how the game ended or the legal actions.
pub fn report(s: &State, events: Option<&[Event]>, settlement: Option<&Settlement>) -> String {
    let mut out = position(s);
    if let Some(events) = events {
        out.push_str("\nwhat happened:\n");
        if events.is_empty() {
            out.push_str("  nothing yet\n");
        }
        for e in events {
            let _ = writeln!(out, "  {}", event(e));
        }
    }
    if let Some(st) = settlement {
        out.push('\n');
        out.push_str(&self::settlement(st));
    }
    if s.is_terminal() {
        let parts: Vec<String> =
            (0..s.num_players()).map(|i| format!("seat {i} {}", outcome(s.outcome(Seat(i))))).collect();
        let _ = writeln!(out, "\ngame over: {}", parts.join(", "));
    } else {
        let legal: Vec<String> = s.legal_actions().iter().map(|a| a.name()).collect();
        let _ = writeln!(out, "\nlegal actions: {}", legal.join(", "));
    }
    out
}

/// What one seat may see, as text: round and turn, whose decision, its own cards and tokens, every
/// seat's public chips and the cards it knows, the discard tops.
pub fn view(v: &crate::PlayerView) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "round {}, turn {}, you are seat {}", v.round, v.turn, v.viewer.0);
    match v.actor {
        Some(a) if a == v.viewer => {
            let _ = writeln!(out, "your decision");
        }
        Some(a) => {
            let _ = writeln!(out, "seat {} to act", a.0);
        }
        None => {
            let _ = writeln!(out, "the game is over");
        }
    }
    let tokens: Vec<&str> = v.own_tokens.iter().map(|t| t.name()).collect();
    let _ = writeln!(out, "your cards: {} {}; your tokens: {}", v.hand[0], v.hand[1], or_none(&tokens));
    for s in 0..usize::from(v.config.players) {
        let sv = &v.seats[s];
        let known: Vec<String> = sv.known_hand.iter().map(|c| c.map_or("?".to_string(), |c| c.to_string())).collect();
        let out_of_game = if sv.eliminated { ", out" } else { "" };
        let _ = writeln!(
            out,
            "  seat {s}: {} chips, {} in the pot, cards {}, {} tokens unplayed{out_of_game}",
            sv.stock,
            sv.pot,
            known.join(" "),
            sv.unplayed
        );
    }
    let tops: Vec<String> = v.discard.iter().map(|p| p.top().map_or("empty".to_string(), |c| c.to_string())).collect();
    let _ = writeln!(out, "discard tops: sand {}, blood {}", tops[0], tops[1]);
    out
}

fn or_none(xs: &[&str]) -> String {
    if xs.is_empty() { "none".to_string() } else { xs.join(", ") }
}

/// The position: round and turn, the pending decision, the token effects in force, each seat's
/// cards, chips, tokens and Stand/Draw this round, the piles top first and the chips removed.
pub fn position(s: &State) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "round {}, turn {}, started by seat {}", s.round(), s.turn(), s.starter().0);
    let _ = writeln!(out, "decision: {}", decision(s));
    let e = s.effects();
    let mut fx = Vec::new();
    if e.mods.cook_the_books {
        fx.push("Cook the Books".to_string());
    }
    if e.mods.markdown {
        fx.push("Markdown".to_string());
    }
    if e.mods.major_fraud {
        fx.push("Major Fraud".to_string());
    }
    if let Some(v) = e.mods.prime {
        fx.push(format!("Prime Sabacc {v}"));
    }
    if !e.immune.is_empty() {
        fx.push(format!("Immunity: seat {}", seats(e.immune)));
    }
    if !e.embargoed.is_empty() {
        fx.push(format!("under Embargo: seat {}", seats(e.embargoed)));
    }
    if e.free_draw {
        fx.push("Free Draw this action".to_string());
    }
    let _ = writeln!(out, "in force: {}", if fx.is_empty() { "nothing".to_string() } else { fx.join("; ") });
    for i in 0..s.num_players() {
        let seat = Seat(i);
        let p = s.player(seat);
        if p.eliminated {
            let _ = writeln!(out, "seat {i}: eliminated in round {}", p.eliminated_in_round);
            continue;
        }
        let list = |names: Vec<&str>| if names.is_empty() { "none".to_string() } else { names.join(", ") };
        let history: Vec<String> = s
            .turn_actions(seat)
            .iter()
            .enumerate()
            .filter_map(|(t, a)| match a {
                TurnAction::None => None,
                TurnAction::Stand { forced: false } => Some(format!("turn {}: stand", t + 1)),
                TurnAction::Stand { forced: true } => Some(format!("turn {}: forced stand", t + 1)),
                TurnAction::Draw(src) => Some(format!("turn {}: draw {}", t + 1, src.name())),
            })
            .collect();
        let _ = writeln!(
            out,
            "seat {i}: {} {}, stock {}, hand pot {}, tokens: {}, spent: {}{}",
            p.hand[0],
            p.hand[1],
            p.stock,
            p.pot,
            list(p.tokens.iter().map(|t| t.name()).collect()),
            list(p.spent.iter().map(|t| t.name()).collect()),
            if history.is_empty() { String::new() } else { format!("; this round: {}", history.join(", ")) }
        );
    }
    for f in Family::ALL {
        let top_first = |cards: &[Card]| {
            let v: Vec<String> = cards.iter().rev().map(|c| c.name()).collect();
            if v.is_empty() { "empty".to_string() } else { v.join(" ") }
        };
        let _ = writeln!(out, "{} draw pile (top first): {}", family_name(f), top_first(s.draw_pile(f).as_slice()));
        let _ =
            writeln!(out, "{} discard pile (top first): {}", family_name(f), top_first(s.discard_pile(f).as_slice()));
    }
    let _ = writeln!(out, "chips out of the game: {}", s.chips_removed());
    out
}

/// Whose decision it is and what it is, as a sentence.
pub fn decision(s: &State) -> String {
    let who = |p: Seat| format!("seat {}", p.0);
    match (s.current_player(), s.pending()) {
        (Some(p), Pending::ChooseToken) => format!("{} chooses a token kind", who(p)),
        (Some(p), Pending::Act) if s.token_played_this_action() => {
            format!("{} played a token and now stands or draws", who(p))
        }
        (Some(p), Pending::Act) => format!("{} starts its action: play a token, stand or draw", who(p)),
        (Some(p), Pending::Target { token }) => format!("{} chooses the target of {token}", who(p)),
        (Some(p), Pending::PrimeDie { dice }) => {
            format!("{} picks the Prime Sabacc value: {} or {}", who(p), dice[0], dice[1])
        }
        (Some(p), Pending::Keep { drawn, source }) => {
            format!("{} drew {drawn} from the {} and keeps it or the held card", who(p), source.name())
        }
        (Some(p), Pending::ImpostorDie { family, dice }) => {
            format!("{} picks the value of its {} Impostor: {} or {}", who(p), family_name(family), dice[0], dice[1])
        }
        (_, Pending::GameOver) => "none: the game is over".into(),
        (_, Pending::Truncated) => "none: the round limit ended the game".into(),
        (None, p) => format!("none ({p:?})"),
    }
}

/// One event as a sentence.
pub fn event(e: &Event) -> String {
    let seat = |s: &Seat| format!("seat {}", s.0);
    let card = |c: &Card| c.name();
    match e {
        Event::TokenPicked { seat: s } => format!("{} picked a token", seat(s)),
        Event::RoundStarted { round, starter } => format!("round {round} started by {}", seat(starter)),
        Event::Dealt { seat: s } => format!("{} was dealt a Sand and a Blood card", seat(s)),
        Event::DiscardStarted { card: c } => format!("{} turned face up to start its discard pile", card(c)),
        Event::DrawPileRebuilt { family, cards } => {
            format!("the {} draw pile was rebuilt from {cards} discarded cards", family_name(*family))
        }
        Event::TokenPlayed { seat: s, token } => format!("{} played {token}", seat(s)),
        Event::TokenTargeted { seat: s, token, target } => format!("{} aimed {token} at {}", seat(s), seat(target)),
        Event::DiceRolled { seat: s, dice, purpose } => {
            let what = match purpose {
                DiceFor::PrimeSabacc => "for Prime Sabacc".to_string(),
                DiceFor::Impostor(f) => format!("for its {} Impostor", family_name(*f)),
            };
            if dice[1] == 0 {
                format!("{} rolled {} {what}", seat(s), dice[0])
            } else {
                format!("{} rolled {} and {} {what}", seat(s), dice[0], dice[1])
            }
        }
        Event::PrimeSet { seat: s, value } => format!("{} set Prime Sabacc to {value}", seat(s)),
        Event::Embargoed { seat: s, target } => format!("{} put {} under Embargo", seat(s), seat(target)),
        Event::Stood { seat: s, forced: true } => format!("{} stood (forced by Embargo)", seat(s)),
        Event::Stood { seat: s, forced: false } => format!("{} stood", seat(s)),
        Event::Drew { seat: s, source, card: Some(c) } => {
            format!("{} drew {} from the {}", seat(s), card(c), source.name())
        }
        Event::Drew { seat: s, source, card: None } => {
            format!("{} drew a hidden card from the {}", seat(s), source.name())
        }
        Event::Discarded { seat: s, card: c } => format!("{} discarded {}", seat(s), card(c)),
        Event::Exhausted { seat: s, target } => format!("{} exhausted {}: a new hand was dealt", seat(s), seat(target)),
        Event::HandsSwapped { seat: s, target } => format!("{} swapped hands with {}", seat(s), seat(target)),
        Event::Revealed { seat: s, sand, blood } => format!("{} revealed {} {}", seat(s), card(sand), card(blood)),
        Event::ImpostorValue { seat: s, family, value } => {
            format!("{}'s {} Impostor is worth {value}", seat(s), family_name(*family))
        }
        Event::Chips { seat: s, stock, pot, reason } => {
            let why = match reason {
                ChipReason::Draw => "to draw",
                ChipReason::Refund => "by Refund",
                ChipReason::Embezzlement => "by Embezzlement",
                ChipReason::Tariff => "by Tariff",
                ChipReason::Audit => "by Audit",
                ChipReason::PotReturned => "won back from the hand pot",
                ChipReason::PotLost => "lost with the hand pot",
                ChipReason::Tax => "paid as tax",
            };
            let mut parts = Vec::new();
            if *stock != 0 {
                parts.push(format!("stock {stock:+}"));
            }
            if *pot != 0 {
                parts.push(format!("hand pot {pot:+}"));
            }
            format!("{}: {} ({why})", seat(s), parts.join(", "))
        }
        Event::RoundWon { round, winners } => format!("round {round} won by seat {}", seats(*winners)),
        Event::Eliminated { seat: s } => format!("{} is out of chips and eliminated", seat(s)),
        Event::GameOver { winners } => format!("game over, won by seat {}", seats(*winners)),
        Event::Truncated { round } => format!("the round limit ended the game after round {round}"),
    }
}

/// A round's settlement: per seat its revealed hand, what it is, and what it won or paid.
pub fn settlement(s: &Settlement) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "settlement of round {}:", s.round);
    for (i, r) in s.seats.iter().enumerate() {
        let Some(r) = r else { continue };
        let result = if r.winner {
            format!("wins, takes back {} from the hand pot", r.pot_returned)
        } else {
            format!("loses {} in the hand pot and pays {} tax", r.pot_lost, r.tax)
        };
        let _ = writeln!(
            out,
            "  seat {i}: {} {} ({}): {result}; stock now {}{}",
            r.hand[0].name(),
            r.hand[1].name(),
            hand_class(r.class),
            r.stock_after,
            if r.eliminated { "; eliminated" } else { "" }
        );
    }
    out
}

/// What a hand is, in words.
pub fn hand_class(c: HandClass) -> String {
    match c {
        HandClass::PureSabacc => "Pure Sabacc".into(),
        HandClass::Sabacc(v) => format!("Sabacc {v}/{v}"),
        HandClass::ZeroPair => "zero pair (Markdown)".into(),
        HandClass::Nulhrek { diff, .. } => format!("Nulhrek, difference {diff}"),
    }
}

/// A seat's result: `in-progress`, `won`, `shared-win (of k)`, `lost` or `truncated`.
pub fn outcome(o: Outcome) -> String {
    match o {
        Outcome::InProgress => "in-progress".into(),
        Outcome::Won => "won".into(),
        Outcome::SharedWin { of } => format!("shared-win (of {of})"),
        Outcome::Lost => "lost".into(),
        Outcome::Truncated => "truncated".into(),
    }
}

fn seats(set: SeatSet) -> String {
    let v: Vec<String> = set.iter().map(|s| s.0.to_string()).collect();
    if v.is_empty() { "none".into() } else { v.join(", ") }
}

fn family_name(f: Family) -> &'static str {
    if f == Family::Sand { "Sand" } else { "Blood" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Action, Scenario};

    /// Heads-up, seat 0 to act holding a Markdown token; both stand after it, so the round is
    /// revealed and settled.
    const SCENARIO: &str = r#"{"config": {"players": 2, "token_assignment": "none"}, "actor": 0, "turn": 3,
        "players": [{"hand": ["S1", "B1"], "stock": 5, "pot": 2, "tokens": ["markdown"]},
                    {"hand": ["S2", "B5"], "stock": 1, "pot": 1}],
        "sand_discard": ["S6"], "blood_discard": ["B6"]}"#;

    #[test]
    fn a_position_shows_every_hand_the_chips_the_pot_and_the_legal_actions() {
        let s = Scenario::from_json(SCENARIO).unwrap();
        let text = report(&s, Some(s.events()), None);
        assert!(text.contains("seat 0: S1 B1, stock 5, hand pot 2, tokens: markdown"), "{text}");
        assert!(text.contains("seat 1: S2 B5, stock 1, hand pot 1, tokens: none"), "{text}");
        assert!(text.contains("decision: seat 0 starts its action"), "{text}");
        assert!(text.contains("Sand discard pile (top first): S6"), "{text}");
        assert!(text.contains("what happened:\n  nothing yet"), "{text}");
        assert!(text.contains("legal actions: ") && text.contains("token:markdown"), "{text}");
        // Without an event log the section is left out rather than claiming nothing happened.
        assert!(!report(&s, None, None).contains("what happened"));
    }

    #[test]
    fn events_and_the_settlement_read_as_sentences_without_debug_formatting() {
        let mut s = Scenario::from_json(SCENARIO).unwrap();
        for a in ["token:markdown", "stand", "stand"] {
            s.apply(Action::parse(a).unwrap()).unwrap();
        }
        let lines: Vec<String> = s.events().iter().map(event).collect();
        assert!(lines.contains(&"seat 0 played markdown".to_string()), "{lines:?}");
        assert!(lines.contains(&"seat 1 revealed S2 B5".to_string()), "{lines:?}");
        assert!(lines.contains(&"round 1 won by seat 0".to_string()), "{lines:?}");
        for l in &lines {
            assert!(!l.contains('{') && !l.contains("Seat(") && !l.contains("Card("), "{l}");
        }
        let text = report(&s, Some(s.events()), s.last_settlement());
        assert!(text.contains("what happened:\n  seat 0 played markdown\n"), "{text}");
        assert!(text.contains("settlement of round 1:"), "{text}");
        assert!(text.contains("  seat 0: S1 B1 (") && text.contains("wins, takes back 2 from the hand pot"), "{text}");
        assert!(text.contains("  seat 1: S2 B5 (Nulhrek, difference 3): loses 1 in the hand pot"), "{text}");
        assert!(!text.contains("Seat(") && !text.contains("Card("), "{text}");
    }

    #[test]
    fn outcomes_and_hand_classes_have_names() {
        assert_eq!(outcome(Outcome::SharedWin { of: 2 }), "shared-win (of 2)");
        assert_eq!(hand_class(HandClass::Sabacc(3)), "Sabacc 3/3");
        assert_eq!(hand_class(HandClass::PureSabacc), "Pure Sabacc");
    }
}
