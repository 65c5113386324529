//! Text for people: a position, the decision it waits for, its events and a seat's result, one
//! line or sentence each. `sabacc scenario --game classic` prints it.
//!
//! [`position`] shows the whole position, every seat's cards included: it is for people looking at
//! a game (a scenario file is a full position too), never for players. [`view`] shows one seat's
//! [`crate::PlayerView`] and nothing else.

use crate::event::{Event, Pot};
use crate::hand_end::{HandClass, HandEnd};
use crate::state::{Outcome, Pending, State};
use game::{Seat, SeatSet};
use std::fmt::Write as _;

/// How many cards of the deck's top [`position`] names.
const DECK_TOP_SHOWN: usize = 3;

/// What one seat may see, as text: hand and round, whose decision, its own cards, every seat's
/// credits and state, the pots and the amount to match.
pub fn view(v: &crate::PlayerView) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "hand {}, round {}; you are seat {}", v.hand_no, v.round, v.viewer.0);
    match v.actor {
        Some(a) if a == v.viewer => {
            let _ = writeln!(out, "your decision ({:?})", v.pending);
        }
        Some(a) => {
            let _ = writeln!(out, "seat {} to act", a.0);
        }
        None => {
            let _ = writeln!(out, "the game is over");
        }
    }
    let cards: Vec<String> = v.hand.as_slice().iter().map(|c| c.to_string()).collect();
    let _ = writeln!(out, "your cards: {}", if cards.is_empty() { "none".to_string() } else { cards.join(" ") });
    for s in 0..usize::from(v.config.players) {
        let sv = &v.seats[s];
        let state = if !sv.in_game {
            "out of the game"
        } else if sv.folded {
            "folded"
        } else {
            "in the hand"
        };
        let _ = writeln!(out, "  seat {s}: {} credits, {state}, {} cards", sv.credits, sv.hand_len);
    }
    let _ = writeln!(out, "hand pot {}, sabacc pot {}", v.hand_pot, v.sabacc_pot);
    out
}

/// The position: hand and round, dealer and turn, the pending decision, each seat's credits,
/// state and cards (with their total), the pots, the betting phase, the deck and the cards out of
/// play, and the legal actions by name.
pub fn position(s: &State) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "hand {}, round {}; dealer seat {}, turn of seat {}",
        s.hand_number(),
        s.round(),
        s.dealer().0,
        s.turn_seat().0
    );
    let _ = writeln!(out, "decision: {}", decision(s));
    let faces = &s.config().face_values;
    for i in 0..s.num_players() {
        let p = s.player(Seat(i));
        if !p.in_game {
            let _ = writeln!(out, "seat {i}: out of the game");
            continue;
        }
        let state = if p.folded { "folded" } else { "in the hand" };
        let cards = if p.hand.is_empty() {
            "no cards".to_string()
        } else {
            let n = p.hand.len();
            format!(
                "{n} card{}: {} (total {})",
                if n == 1 { "" } else { "s" },
                p.hand.names().join(" "),
                p.hand.total(faces)
            )
        };
        let put_in = if p.contributed > 0 { format!(", put in {} this phase", p.contributed) } else { String::new() };
        let _ = writeln!(out, "seat {i}: {} credits, {state}{put_in}, {cards}", p.credits);
    }
    let _ = writeln!(out, "hand pot {}, sabacc pot {}", s.hand_pot(), s.sabacc_pot());
    if matches!(s.pending(), Pending::Bet | Pending::Answer) {
        let b = s.betting();
        let cap = if b.cap == u32::MAX { "no cap".to_string() } else { format!("cap {}", b.cap) };
        let _ = writeln!(
            out,
            "betting: to match {}, raises {}, {cap}, waiting: {}",
            b.to_match,
            b.raises,
            seats(b.waiting)
        );
    }
    if let Some(d) = s.die() {
        let _ = writeln!(out, "die this turn: {d}");
    }
    let deck = s.deck().as_slice();
    let top: Vec<String> = deck.iter().rev().take(DECK_TOP_SHOWN).map(|c| c.name()).collect();
    let more = if deck.len() > DECK_TOP_SHOWN { " …" } else { "" };
    let _ = writeln!(
        out,
        "deck: {} cards{}",
        deck.len(),
        if top.is_empty() { String::new() } else { format!(", top first: {}{more}", top.join(" ")) }
    );
    let out_of_play = s.out_of_play().names();
    let _ = writeln!(
        out,
        "out of play: {}",
        if out_of_play.is_empty() { "none".to_string() } else { out_of_play.join(" ") }
    );
    if s.is_terminal() {
        let parts: Vec<String> =
            (0..s.num_players()).map(|i| format!("seat {i} {}", outcome(s.outcome(Seat(i))))).collect();
        let _ = writeln!(out, "game over: {}", parts.join(", "));
    } else {
        let legal: Vec<String> = s.legal_actions().iter().map(|a| a.name()).collect();
        let _ = writeln!(out, "legal actions: {}", legal.join(", "));
    }
    out
}

/// Whose decision it is and what it is, as a sentence.
pub fn decision(s: &State) -> String {
    let Some(p) = s.current_player() else {
        return match s.pending() {
            Pending::Truncated => "none: the hand limit ended the game".into(),
            _ => "none: the game is over".into(),
        };
    };
    let b = s.betting();
    match s.pending() {
        Pending::Bet => format!("{p} opens the betting: check, bet or fold"),
        Pending::Answer if b.to_match > 0 => {
            let owed = b.to_match.saturating_sub(s.player(p).contributed);
            format!("{p} answers a bet of {} ({owed} to match): match, raise or fold", b.to_match)
        }
        Pending::Answer => format!("{p} answers with no bet standing: stay or fold"),
        Pending::Call => format!("{p} may call the hand or decline"),
        Pending::Draw => format!("{p} draws, exchanges or passes"),
        Pending::Drop => format!("{p} drops a card after exchanging"),
        Pending::GameOver | Pending::Truncated => "none: the game is over".into(),
    }
}

/// One event as a sentence, private cards included (the full log).
pub fn event(e: &Event) -> String {
    let card_or_hidden = |c: &Option<crate::Card>| c.map(|c| c.name()).unwrap_or_else(|| "a hidden card".into());
    match e {
        Event::HandStarted { hand, dealer } => format!("hand {hand} started, dealt by {dealer}"),
        Event::Left { seat } => format!("{seat} has no credits and left the game"),
        Event::Ante { seat, hand_pot, sabacc_pot } => {
            let mut parts = Vec::new();
            if *hand_pot > 0 {
                parts.push(format!("{hand_pot} to the hand pot"));
            }
            if *sabacc_pot > 0 {
                parts.push(format!("{sabacc_pot} to the sabacc pot"));
            }
            if parts.is_empty() {
                format!("{seat} anted nothing")
            } else {
                format!("{seat} anted {}", parts.join(" and "))
            }
        }
        Event::Dealt { seat, cards } => format!("{seat} was dealt {cards} cards"),
        Event::TurnStarted { seat, round } => format!("round {round}: {seat}'s turn"),
        Event::Checked { seat } => format!("{seat} checked"),
        Event::Bet { seat, amount } => format!("{seat} bet {amount}"),
        Event::Matched { seat, paid } => format!("{seat} matched, paying {paid}"),
        Event::Raised { seat, by, to, paid } => format!("{seat} raised by {by} to {to}, paying {paid}"),
        Event::Stayed { seat } => format!("{seat} stayed"),
        Event::Folded { seat, paid: 0 } => format!("{seat} folded"),
        Event::Folded { seat, paid } => format!("{seat} folded, paying {paid} to the sabacc pot"),
        Event::DieRolled { seat, value } => format!("{seat} rolled {value}"),
        Event::Shifted { seats: s } => format!("shift: seat {} each lost a card and got one", seats(*s)),
        Event::ShiftCards { seat, lost, got } => {
            format!("{seat} lost {} and got {} in the shift", card_or_hidden(lost), card_or_hidden(got))
        }
        Event::Called { seat } => format!("{seat} called the hand"),
        Event::DeclinedCall { seat } => format!("{seat} declined to call"),
        Event::AutoCalled { round } => format!("nobody called by the end of round {round}: the hand is called"),
        Event::Passed { seat } => format!("{seat} passed"),
        Event::Drew { seat, exchange, card } => {
            format!("{seat} drew {}{}", card_or_hidden(card), if *exchange { " to exchange" } else { "" })
        }
        Event::Dropped { seat, card } => format!("{seat} dropped {} out of play", card_or_hidden(card)),
        Event::Revealed { seat, hand, total, class } => {
            format!("{seat} revealed {}: total {total}, {}", hand.names().join(" "), hand_class(*class))
        }
        Event::DemiseCard { seat, card, total } => {
            format!("{seat} was dealt {} face up (sudden demise): total {total}", card.name())
        }
        Event::PotWon { seat, pot, amount } => format!("{seat} won {amount} from the {}", pot_name(*pot)),
        Event::HandPotToSabacc { amount } => {
            format!("every hand bombed: the hand pot's {amount} went to the sabacc pot")
        }
        Event::HandPotCarried { amount } => {
            format!("every hand bombed: the hand pot's {amount} stays for the next hand")
        }
        Event::Penalty { seat, owed, paid } if owed == paid => format!("{seat} paid a penalty of {paid}"),
        Event::Penalty { seat, owed, paid } => format!("{seat} owed a penalty of {owed} and paid {paid}"),
        Event::HandEnded { hand, end } => {
            let how = match end {
                HandEnd::Folds { winner } => format!("everyone else folded to {winner}"),
                HandEnd::Called { caller } => format!("{caller} called"),
                HandEnd::AutoCall => "nobody called".to_string(),
            };
            format!("hand {hand} ended: {how}")
        }
        Event::GameOver { winners } => format!("game over, won by seat {}", seats(*winners)),
        Event::Truncated { hand } => format!("the hand limit ended the game after hand {hand}"),
    }
}

/// What a hand is at the call, in words.
pub fn hand_class(c: HandClass) -> &'static str {
    match c {
        HandClass::Bombed => "bombed out",
        HandClass::Normal => "a normal hand",
        HandClass::PureSabacc => "Pure Sabacc",
        HandClass::IdiotsArray => "an Idiot's Array",
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

fn pot_name(p: Pot) -> &'static str {
    match p {
        Pot::Hand => "hand pot",
        Pot::Sabacc => "sabacc pot",
    }
}

fn seats(set: SeatSet) -> String {
    let v: Vec<String> = set.iter().map(|s| s.0.to_string()).collect();
    if v.is_empty() { "none".into() } else { v.join(", ") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Action, Scenario};

    /// Seat 0 has exchanged and drops a card; seat 1 waits.
    const DROP: &str = r#"{"config": {"players": 2}, "dealer": 1, "round": 2, "turn": 0, "decision": "drop",
        "die": 5, "hand_pot": 4, "sabacc_pot": 6,
        "players": [{"hand": ["sabres-12", "coins-3", "star", "flasks-15"], "credits": 95},
                    {"hand": ["staves-6", "staves-7"], "credits": 95}]}"#;

    #[test]
    fn the_position_names_credits_cards_pots_the_decision_and_the_legal_actions() {
        let s = Scenario::from_json(DROP).unwrap();
        let text = position(&s);
        assert!(text.starts_with("hand 1, round 2; dealer seat 1, turn of seat 0\n"), "{text}");
        assert!(text.contains("decision: seat 0 drops a card after exchanging\n"), "{text}");
        assert!(
            text.contains("seat 0: 95 credits, in the hand, 4 cards: sabres-12 coins-3 star flasks-15 (total 13)\n"),
            "{text}"
        );
        assert!(text.contains("seat 1: 95 credits, in the hand, 2 cards: staves-6 staves-7 (total 13)\n"), "{text}");
        assert!(text.contains("hand pot 4, sabacc pot 6\n"), "{text}");
        assert!(text.contains("die this turn: 5\n"), "{text}");
        assert!(text.contains("legal actions: drop:0, drop:1, drop:2\n"), "{text}");
    }

    #[test]
    fn events_read_as_sentences_and_folded_seats_say_so() {
        let mut s = Scenario::from_json(DROP).unwrap();
        s.set_event_logging(true);
        let before = s.events().len();
        s.apply(Action::Drop(2)).unwrap();
        let lines: Vec<String> = s.events()[before..].iter().map(event).collect();
        assert_eq!(lines, ["seat 0 dropped star out of play", "round 2: seat 1's turn"]);
        assert!(position(&s).contains("out of play: star\n"), "{}", position(&s));

        // Seat 2 has folded; seat 0 faces a bet of 3.
        let folded = r#"{"config": {"players": 3}, "dealer": 2, "turn": 1, "actor": 0, "decision": "answer",
            "hand_pot": 9, "sabacc_pot": 21, "out": ["flasks-5", "flasks-6"],
            "betting": {"to_match": 3, "waiting": [0]},
            "players": [{"hand": ["sabres-1", "sabres-2"], "credits": 90},
                        {"hand": ["staves-3", "idiot"], "credits": 87, "contributed": 3},
                        {"credits": 93, "folded": true}]}"#;
        let s = Scenario::from_json(folded).unwrap();
        let text = position(&s);
        assert!(text.contains("seat 2: 93 credits, folded, no cards\n"), "{text}");
        assert!(text.contains("seat 1: 87 credits, in the hand, put in 3 this phase, 2 cards"), "{text}");
        assert!(text.contains("decision: seat 0 answers a bet of 3 (3 to match): match, raise or fold\n"), "{text}");
        assert!(text.contains("waiting: 0\n") && text.contains("out of play: flasks-5 flasks-6\n"), "{text}");
        assert!(text.contains("legal actions: fold, match, raise:1"), "{text}");
        assert_eq!(outcome(Outcome::SharedWin { of: 2 }), "shared-win (of 2)");
    }
}
