//! Helpers shared by the scenario tests: load a JSON scenario, apply actions by name, read
//! hands and piles back as card names.
#![allow(dead_code)]

use game::Seat;
use kessel::ranking::{RankKey, classify, rank_key};
use kessel::{Action, Card, Event, Family, HandClass, RankingMods, Resolved, RuleConfig, Scenario, State};
use serde_json::Value;

/// Loads a scenario given as a `serde_json::Value`, panicking with the loader's message.
pub fn load(v: Value) -> State {
    let text = v.to_string();
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("scenario failed to load: {e}\n{text}"))
}

/// The loader's error message for a scenario that must fail.
pub fn load_err(v: Value) -> String {
    let text = v.to_string();
    match Scenario::from_json(&text) {
        Ok(_) => panic!("scenario loaded but should have failed:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// Applies actions given by name (`stand`, `draw:sand-deck`, `token:embargo`, `target:+1`, ...).
pub fn play(s: &mut State, names: &[&str]) {
    for name in names {
        let a = Action::parse(name).unwrap_or_else(|| panic!("`{name}` is not an action name"));
        if let Err(e) = s.apply(a) {
            panic!("applying `{name}` failed: {e}; legal: {}", legal_names(s).join(" "));
        }
        s.check_invariants().unwrap_or_else(|e| panic!("invariant broken after `{name}`: {e}"));
    }
}

/// Applies one action that must be refused, and checks the state is unchanged.
pub fn refuse(s: &mut State, name: &str) {
    let a = Action::parse(name).unwrap_or_else(|| panic!("`{name}` is not an action name"));
    let before = s.clone();
    assert!(s.apply(a).is_err(), "`{name}` was accepted but must be illegal");
    assert_eq!(*s, before, "a refused action changed the state");
}

/// Names of the legal actions.
pub fn legal_names(s: &State) -> Vec<String> {
    s.legal_actions().iter().map(|a| a.name()).collect()
}

/// Whether the named action is legal now.
pub fn is_legal(s: &State, name: &str) -> bool {
    s.legal_actions().contains(&Action::parse(name).expect("action name"))
}

/// Names of a seat's cards, Sand then Blood.
pub fn hand(s: &State, seat: u8) -> [String; 2] {
    let h = s.player(Seat(seat)).hand;
    [h[0].name(), h[1].name()]
}

/// (stock, hand pot) of a seat.
pub fn chips(s: &State, seat: u8) -> (u16, u16) {
    let p = s.player(Seat(seat));
    (p.stock.0, p.pot.0)
}

/// Stocks of all seats.
pub fn stocks(s: &State) -> Vec<u16> {
    (0..s.num_players()).map(|i| s.player(Seat(i)).stock.0).collect()
}

/// A discard pile's card names, top first.
pub fn discard(s: &State, f: Family) -> Vec<String> {
    s.discard_pile(f).as_slice().iter().rev().map(|c| c.name()).collect()
}

/// A draw pile's card names, top first.
pub fn draw(s: &State, f: Family) -> Vec<String> {
    s.draw_pile(f).as_slice().iter().rev().map(|c| c.name()).collect()
}

/// Events logged since index `from`.
pub fn events_since(s: &State, from: usize) -> Vec<Event> {
    s.events()[from..].to_vec()
}

/// The round winners of the last settlement.
pub fn round_winners(s: &State) -> Vec<u8> {
    s.last_settlement().expect("a settled round").winners.iter().map(|x| x.0).collect()
}

/// The settled class of a seat.
pub fn settled_class(s: &State, seat: u8) -> HandClass {
    s.last_settlement().expect("a settled round").seats[seat as usize].expect("seat played").class
}

/// The settled tax of a seat.
pub fn settled_tax(s: &State, seat: u8) -> u16 {
    s.last_settlement().expect("a settled round").seats[seat as usize].expect("seat played").tax
}

/// Card of a name (first copy), for comparisons.
pub fn card(name: &str) -> (Family, kessel::CardKind) {
    Card::parse_kind(name).expect("card name")
}

/// `Resolved` value of a card symbol in ranking tables: `0` for a Sylop, 1–6 for numbers.
pub fn rv(v: u8) -> Resolved {
    if v == 0 { Resolved::Sylop } else { Resolved::Number(v) }
}

/// Rank key of a hand given as two resolved values (0 = Sylop).
pub fn key(a: u8, b: u8, mods: RankingMods, cfg: &RuleConfig) -> RankKey {
    rank_key(classify(rv(a), rv(b), mods, cfg), mods, cfg)
}

/// A two-player table where seat 1 is the last to act in turn 3 (starter 0), so that one `stand`
/// by seat 1 goes to the reveal, with the given hands, stocks and hand pots.
pub fn showdown(hands: &[[&str; 2]], stock: &[u16], pot: &[u16], effects: Value, config: Value) -> State {
    let n = hands.len();
    let players: Vec<Value> = (0..n)
        .map(|i| {
            // Everyone before the actor stood in turn 3; the actor last stood in turn 2.
            let stood = if i + 1 == n { 2 } else { 3 };
            serde_json::json!({"hand": hands[i], "stock": stock[i], "pot": pot[i], "last_action": "stand", "stood_turn": stood})
        })
        .collect();
    let mut cfg = config;
    cfg["players"] = serde_json::json!(n);
    if cfg.get("token_assignment").is_none() {
        cfg["token_assignment"] = serde_json::json!("none");
    }
    if cfg.get("starting_chips").is_none() {
        cfg["starting_chips"] = serde_json::json!(10);
    }
    load(serde_json::json!({
        "config": cfg,
        "turn": 3,
        "actor": n - 1,
        "players": players,
        "effects": effects,
        "sand_discard": [first_free(hands, 'S')],
        "blood_discard": [first_free(hands, 'B')],
    }))
}

/// A numbered card name of family `f` (S or B) whose kind no hand in `hands` uses, to start a
/// discard pile without exhausting a kind's copies.
fn first_free(hands: &[[&str; 2]], f: char) -> String {
    for v in 1..=6 {
        let name = format!("{f}{v}");
        let used = hands.iter().flatten().filter(|h| h.eq_ignore_ascii_case(&name)).count();
        if used < 3 {
            return name;
        }
    }
    unreachable!("there is always a free numbered card")
}

/// The 22 card names of a family (`'S'` or `'B'`), one entry per physical card.
pub fn family_names(f: char) -> Vec<String> {
    let mut v = Vec::new();
    for n in 1..=6 {
        for _ in 0..3 {
            v.push(format!("{f}{n}"));
        }
    }
    for _ in 0..3 {
        v.push(format!("{f}I"));
    }
    v.push(format!("{f}Y"));
    v
}

/// `all` minus one copy of each name in `used` (case-sensitive card names).
pub fn without(all: &[String], used: &[&str]) -> Vec<String> {
    let mut v = all.to_vec();
    for u in used {
        let i = v.iter().position(|x| x == u).unwrap_or_else(|| panic!("{u} not available"));
        v.remove(i);
    }
    v
}

/// A scenario at a table of `players.len()` seats (10 starting chips, tokens from the seat lists,
/// actor 0, turn 1, discard piles topped by S6/B6) with `extra` top-level fields merged in
/// (`config` is merged field by field). Seats without a `hand` get S(i+1)/B(i+1).
pub fn table(players: Vec<Value>, extra: Value) -> State {
    let n = players.len();
    let players: Vec<Value> = players
        .into_iter()
        .enumerate()
        .map(|(i, mut p)| {
            if p.get("hand").is_none() && p.get("eliminated") != Some(&Value::Bool(true)) {
                p["hand"] = serde_json::json!([format!("S{}", i + 1), format!("B{}", i + 1)]);
            }
            p
        })
        .collect();
    let mut base = serde_json::json!({
        "config": {"players": n, "starting_chips": 10, "token_assignment": "none"},
        "actor": 0,
        "players": players,
        "sand_discard": ["S6"],
        "blood_discard": ["B6"],
    });
    if let Value::Object(m) = extra {
        for (k, v) in m {
            if k == "config" {
                if let Value::Object(c) = v {
                    for (ck, cv) in c {
                        base["config"][ck] = cv;
                    }
                }
            } else {
                base[k] = v;
            }
        }
    }
    load(base)
}

/// A seat with a stock, a hand pot and unplayed tokens.
pub fn seat(stock: u16, pot: u16, tokens: &[&str]) -> Value {
    serde_json::json!({"stock": stock, "pot": pot, "tokens": tokens})
}

/// Stands, or takes the first die when an Impostor is being resolved at the reveal.
pub fn stand_or_die(s: &mut State) {
    if matches!(s.pending(), kessel::Pending::ImpostorDie { .. }) {
        play(s, &["die:1"]);
    } else {
        play(s, &["stand"]);
    }
}
