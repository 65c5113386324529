//! Helpers shared by the rule tests: build positions from JSON scenarios, apply actions by
//! name, read hands and credits back.
#![allow(dead_code)]

use classic::{Action, Event, Scenario, State};
use game::Seat;
use rand::RngExt;
use rand::seq::SliceRandom;
use serde_json::{Value, json};

/// Loads a scenario, panicking with the loader's message. When `sabacc_pot` is absent it is set
/// to whatever balances the credits (players × starting credits).
pub fn load(mut v: Value) -> State {
    balance(&mut v);
    let text = v.to_string();
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("scenario failed to load: {e}\n{text}"))
}

/// The loader's message for a scenario that must fail (no balancing).
pub fn load_err(v: Value) -> String {
    let text = v.to_string();
    match Scenario::from_json(&text) {
        Ok(_) => panic!("scenario loaded but should have failed:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// Fills in `sabacc_pot` so that credits balance.
pub fn balance(v: &mut Value) {
    if v.get("sabacc_pot").is_some() {
        return;
    }
    let players = v["players"].as_array().expect("players").len() as u64;
    let start = v["config"]["starting_credits"].as_u64().unwrap_or(100);
    let held: u64 = v["players"].as_array().unwrap().iter().map(|p| p["credits"].as_u64().unwrap()).sum();
    let hand_pot = v["hand_pot"].as_u64().unwrap_or(0);
    let total = players * start;
    assert!(held + hand_pot <= total, "credits exceed the table's {total}");
    v["sabacc_pot"] = json!(total - held - hand_pot);
}

/// A seat holding `hand` and `credits`.
pub fn seat(hand: &[&str], credits: u32) -> Value {
    json!({"hand": hand, "credits": credits})
}

/// Applies actions by name, checking the invariants after each.
pub fn play(s: &mut State, names: &[&str]) {
    for name in names {
        let a = Action::parse(name).unwrap_or_else(|| panic!("`{name}` is not an action name"));
        if let Err(e) = s.apply(a) {
            panic!("applying `{name}` failed: {e}; legal: {}", legal(s).join(" "));
        }
        s.check_invariants().unwrap_or_else(|e| panic!("invariant broken after `{name}`: {e}"));
    }
}

/// Applies an action that must be refused, and checks the state is unchanged.
pub fn refuse(s: &mut State, name: &str) {
    let a = Action::parse(name).unwrap_or_else(|| panic!("`{name}` is not an action name"));
    let before = s.clone();
    assert!(s.apply(a).is_err(), "`{name}` was accepted but must be illegal");
    assert_eq!(*s, before, "a refused action changed the state");
}

/// Names of the legal actions.
pub fn legal(s: &State) -> Vec<String> {
    s.legal_actions().iter().map(|a| a.name()).collect()
}

/// Whether the named action is legal now.
pub fn is_legal(s: &State, name: &str) -> bool {
    s.legal_mask().contains(Action::parse(name).expect("action name"))
}

/// Credits of every seat.
pub fn credits(s: &State) -> Vec<u32> {
    (0..s.num_players()).map(|i| s.player(Seat(i)).credits).collect()
}

/// Names of a seat's cards in hand order.
pub fn hand(s: &State, seat: u8) -> Vec<String> {
    s.player(Seat(seat)).hand.names()
}

/// The seat whose decision it is.
pub fn actor(s: &State) -> u8 {
    s.current_player().expect("a decision is pending").0
}

/// Events logged since index `from`.
pub fn events_since(s: &State, from: usize) -> Vec<Event> {
    s.events()[from..].to_vec()
}

/// Total credits on the table: stacks and both pots.
pub fn table_credits(s: &State) -> u64 {
    credits(s).iter().map(|&c| c as u64).sum::<u64>() + s.hand_pot() as u64 + s.sabacc_pot() as u64
}

/// Plays the quietest legal action until `stop` holds: check, stay, decline a call, pass.
pub fn quiet_until(s: &mut State, stop: impl Fn(&State) -> bool) {
    let mut guard = 0;
    while !stop(s) && !s.is_terminal() {
        let a = ["check", "stay", "decline-call", "pass", "match"]
            .into_iter()
            .find(|n| is_legal(s, n))
            .unwrap_or_else(|| panic!("no quiet action among {:?}", legal(s)));
        play(s, &[a]);
        guard += 1;
        assert!(guard < 10_000, "quiet play did not reach the stop condition");
    }
}

/// A result seat of the last hand.
pub fn result_seat(s: &State, seat: u8) -> classic::SeatResult {
    s.last_result().expect("a finished hand").seats[seat as usize].expect("seat dealt in")
}

/// The same position with every card hidden from `viewer` (other players' hands and the deck
/// order) shuffled among the hidden places, hand sizes kept.
pub fn rearranged(sc: &Scenario, viewer: Seat, r: &mut impl rand::Rng) -> Scenario {
    let mut sc = sc.clone();
    let mut pool: Vec<String> = sc.deck.clone();
    for (i, p) in sc.players.iter().enumerate() {
        if i != viewer.index() {
            pool.extend(p.hand.iter().cloned());
        }
    }
    pool.shuffle(r);
    let mut it = pool.into_iter();
    for (i, p) in sc.players.iter_mut().enumerate() {
        if i != viewer.index() {
            for c in p.hand.iter_mut() {
                *c = it.next().unwrap();
            }
        }
    }
    for c in sc.deck.iter_mut() {
        *c = it.next().unwrap();
    }
    sc
}

pub fn pick<T: Copy>(r: &mut rand_pcg::Pcg64Mcg, xs: &[T]) -> T {
    xs[r.random_range(0..xs.len())]
}

/// A random valid config: every §C9 field varies, face values now and then to the `i8` limits.
pub fn random_config(r: &mut rand_pcg::Pcg64Mcg, players: u8) -> classic::RuleConfig {
    let mut face_values = classic::config::DEFAULT_FACE_VALUES;
    match r.random_range(0..6) {
        0 => face_values.iter_mut().for_each(|v| *v = r.random_range(-20..=20)),
        1 => face_values.iter_mut().for_each(|v| *v = pick(r, &[i8::MIN, i8::MAX, 0, 23, -23])),
        _ => {}
    }
    let c = classic::RuleConfig {
        players,
        starting_credits: pick(r, &[10, 12, 30, 100]),
        face_values,
        bet_limit: r.random_range(1..=10),
        raises_per_phase: pick(r, &[0, 1, 3, 20]),
        max_rounds_per_hand: pick(r, &[1, 2, 3, 10]),
        max_hand_size: r.random_range(3..=14),
        hand_limit: pick(r, &[1, 4, 30]),
        hand_limit_end: pick(r, &[classic::config::HandLimitEnd::Truncate, classic::config::HandLimitEnd::MostCredits]),
        dealer_ante: pick(r, &[classic::config::DealerAnte::Antes, classic::config::DealerAnte::Exempt]),
        stakes: pick(r, &[classic::config::Stakes::SmallestStack, classic::config::Stakes::NoCap]),
        min_turns_before_call: pick(r, &[None, None, Some(1), Some(2), Some(4)]),
        totals: pick(r, &[classic::config::Totals::Highest, classic::config::Totals::ClosestAbsolute]),
        idiots_array: pick(
            r,
            &[classic::config::IdiotsArrayShape::ExactlyThree, classic::config::IdiotsArrayShape::AnyHand],
        ),
        idiots_array_pots: pick(
            r,
            &[classic::config::IdiotsArrayPots::Both, classic::config::IdiotsArrayPots::SabaccPotOnly],
        ),
        exchange: pick(r, &[classic::config::ExchangeDrop::HeldBeforeDraw, classic::config::ExchangeDrop::AnyCard]),
        caller_penalty: pick(r, &[classic::config::CallerPenalty::InAddition, classic::config::CallerPenalty::Once]),
        all_bombed: pick(r, &[classic::config::AllBombed::ToSabaccPot, classic::config::AllBombed::CarryOver]),
    };
    c.validate().expect("generated configs are valid");
    c
}
