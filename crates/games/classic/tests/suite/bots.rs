//! The classic bots' stated rules in known positions. Their legal play in whole games and their
//! order of strength are tested through the one game loop and the one arena, in
//! `crates/stack/agents/tests/suite/classic_bots.rs`.

use crate::common;

use classic::bots::hand::{Summary, class, key};
use classic::bots::{Bot, BotRng, expert::Expert, greedy, search};
use classic::config::{IdiotsArrayShape, Totals};
use classic::{Action, Card, RuleConfig, State};
use common::{load, seat};
use game::Seat;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use serde_json::json;

fn rng(seed: u64) -> BotRng {
    BotRng::seed_from_u64(seed)
}

/// The action a bot plays at the pending decision of `s`, seen by the player to act.
fn act(bot: Bot, s: &State, seed: u64) -> Action {
    let seat = s.current_player().expect("a decision is pending");
    bot.choose(&s.view(seat), s.legal_mask(), &mut rng(seed))
}

#[test]
fn the_hand_summary_classifies_as_the_engine_does() {
    let mut r = rng(3);
    let mut cards: Vec<Card> = Card::all().collect();
    for i in 0..3000 {
        let cfg = RuleConfig {
            totals: if i % 2 == 0 { Totals::Highest } else { Totals::ClosestAbsolute },
            idiots_array: if i % 3 == 0 { IdiotsArrayShape::AnyHand } else { IdiotsArrayShape::ExactlyThree },
            ..RuleConfig::default()
        };
        let s = State::new(cfg, 1).unwrap();
        cards.shuffle(&mut r);
        // Arrays are rare at random: seed some hands with the Idiot, a 2 and a 3.
        let len = r.random_range(2..=6);
        let mut hand = cards[..len].to_vec();
        if i % 4 == 0 {
            hand = vec![Card::from_id(60).unwrap(), Card::from_id(1).unwrap(), Card::from_id(2).unwrap()];
            hand.extend_from_slice(&cards[..len - 2]);
            hand.truncate(len.max(3));
        }
        let h = classic::Hand::from_slice(&hand).unwrap();
        assert_eq!(class(&cfg, &hand), s.classify(&h), "{:?}", h.names());
        let mut sum = Summary::of(&cfg, &hand[1..]);
        sum.add(&cfg, hand[0]);
        assert_eq!(sum, Summary::of(&cfg, &hand));
        assert_eq!(sum.without(&cfg, hand[0]), Summary::of(&cfg, &hand[1..]));
        assert_eq!(key(&cfg, &hand), sum.key(&cfg));
    }
}

// ------------------------------------------------------------------------------------------
// The rules of each bot, in known positions (default rules: 2 players, calls open in round 3)

/// Seat 0 answers a bet of `bet` by seat 1 (the turn player), holding `hand`.
fn facing_bet(hand: &[&str], bet: u32) -> State {
    load(json!({
        "config": {"players": 2}, "dealer": 0, "round": 3, "turn": 1, "decision": "answer",
        "players": [seat(hand, 90), {"hand": ["star", "evil-one"], "credits": 90 - bet, "contributed": bet}],
        "hand_pot": 4 + bet, "betting": {"to_match": bet, "waiting": [0]}
    }))
}

/// Seat 0 may call (seat 1's turn, round 3), holding `hand`; seat 1 holds `theirs`.
fn at_call(hand: &[&str], theirs: &[&str]) -> State {
    load(json!({
        "config": {"players": 2}, "dealer": 0, "round": 3, "turn": 1, "decision": "call", "die": 5,
        "players": [seat(hand, 90), seat(theirs, 90)], "hand_pot": 6
    }))
}

/// Seat 0 draws in its turn, holding `hand`.
fn at_draw(hand: &[&str]) -> State {
    load(json!({
        "config": {"players": 2}, "dealer": 1, "round": 3, "turn": 0, "decision": "draw", "die": 5,
        "players": [seat(hand, 90), seat(&["star", "evil-one"], 90)], "hand_pot": 6
    }))
}

#[test]
fn greedy_calls_on_twenty_and_never_bets() {
    assert_eq!(act(Bot::Greedy, &at_call(&["sabres-10", "coins-10"], &["st2", "st3"]), 0), Action::Call);
    assert_eq!(act(Bot::Greedy, &at_call(&["sabres-10", "coins-9"], &["st2", "st3"]), 0), Action::DeclineCall);
    assert_eq!(act(Bot::Greedy, &at_call(&["sabres-15", "coins-15"], &["st2", "st3"]), 0), Action::DeclineCall);
    let open = load(json!({
        "config": {"players": 2}, "dealer": 1, "round": 3,
        "players": [seat(&["sabres-ace", "coins-8"], 90), seat(&["st2", "st3"], 90)], "hand_pot": 6
    }));
    assert_eq!(act(Bot::Greedy, &open, 0), Action::Check);
    // A decent hand matches a small bet; a weaker one folds; it never raises.
    assert_eq!(act(Bot::Greedy, &facing_bet(&["sabres-10", "coins-6"], 3), 0), Action::Match);
    assert_eq!(act(Bot::Greedy, &facing_bet(&["sabres-10", "coins-5"], 3), 0), Action::Fold);
    assert_eq!(act(Bot::Greedy, &facing_bet(&["sabres-ace", "coins-8"], 1), 0), Action::Match);
}

#[test]
fn greedy_draws_low_passes_near_23_and_exchanges_its_worst_card() {
    assert_eq!(act(Bot::Greedy, &at_draw(&["sabres-10", "coins-4"]), 0), Action::Draw);
    assert_eq!(act(Bot::Greedy, &at_draw(&["sabres-10", "coins-9"]), 0), Action::Pass);
    assert_eq!(act(Bot::Greedy, &at_draw(&["sabres-10", "coins-7"]), 0), Action::Pass);
    assert_eq!(act(Bot::Greedy, &at_draw(&["sabres-10", "coins-9", "queen"]), 0), Action::Exchange);
    assert_eq!(act(Bot::Greedy, &at_draw(&["sabres-ace", "coins-9", "flasks-2"]), 0), Action::Exchange);
    // After the exchange it drops the card that leaves the best hand: the 15 from 15 + 9 + 2 + 7.
    let drop = load(json!({
        "config": {"players": 2}, "dealer": 1, "round": 3, "turn": 0, "decision": "drop", "die": 5,
        "players": [seat(&["sabres-ace", "coins-9", "flasks-2", "staves-7"], 90), seat(&["coins-5", "coins-6"], 90)],
        "hand_pot": 6
    }));
    assert_eq!(act(Bot::Greedy, &drop, 0), Action::Drop(0));
    assert_eq!(greedy::choose(&drop.view(Seat(0)), drop.legal_mask()), Action::Drop(0));
}

#[test]
fn expert_calls_a_pure_sabacc_and_bets_it_and_never_calls_a_bombed_hand() {
    for seed in 0..20 {
        assert_eq!(act(Bot::Expert, &at_call(&["sabres-ace", "coins-8"], &["st2", "st3"]), seed), Action::Call);
        assert_eq!(act(Bot::Expert, &at_call(&["sabres-ace", "coins-9"], &["st2", "st3"]), seed), Action::DeclineCall);
        assert_eq!(act(Bot::Expert, &at_call(&["sabres-5", "coins-4"], &["st2", "st3"]), seed), Action::DeclineCall);
    }
    let open = load(json!({
        "config": {"players": 2}, "dealer": 1, "round": 3,
        "players": [seat(&["sabres-ace", "coins-8"], 90), seat(&["st2", "st3"], 90)], "hand_pot": 6
    }));
    assert_eq!(act(Bot::Expert, &open, 0), Action::Bet(3));
}

#[test]
fn expert_folds_a_bombed_hand_facing_a_bet_and_raises_a_pure_sabacc() {
    assert_eq!(act(Bot::Expert, &facing_bet(&["sabres-ace", "coins-ace"], 3), 1), Action::Fold);
    assert_eq!(act(Bot::Expert, &facing_bet(&["sabres-ace", "coins-8"], 1), 1), Action::Raise(3));
}

#[test]
fn expert_draws_low_keeps_23_and_drops_to_the_best_hand() {
    assert_eq!(act(Bot::Expert, &at_draw(&["sabres-ace", "coins-8"]), 0), Action::Pass);
    assert_eq!(act(Bot::Expert, &at_draw(&["sabres-2", "coins-3"]), 0), Action::Draw);
    let drop = load(json!({
        "config": {"players": 2}, "dealer": 1, "round": 3, "turn": 0, "decision": "drop", "die": 5,
        "players": [seat(&["sabres-ace", "coins-9", "flasks-2", "staves-8"], 90), seat(&["coins-5", "coins-6"], 90)],
        "hand_pot": 6
    }));
    // The drawn 8 stays: dropping the 15 leaves 19, the 9 leaves 25 and the 2 leaves 32 (bombed).
    assert_eq!(act(Bot::Expert, &drop, 0), Action::Drop(0));
}

#[test]
fn expert_bluffs_at_its_stated_rate() {
    // A weak opening hand (a 5 against a table that has had turns): bets only to bluff.
    let open = load(json!({
        "config": {"players": 2}, "dealer": 1, "round": 3,
        "players": [seat(&["sabres-2", "coins-3"], 90), seat(&["st9", "st10"], 90)], "hand_pot": 6
    }));
    let n = 2000;
    let bets = (0..n).filter(|&s| matches!(act(Bot::Expert, &open, s), Action::Bet(_))).count();
    let rate = bets as f64 / n as f64;
    // Within four standard errors of the stated rate.
    let p = classic::bots::expert::BLUFF_RATE;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    assert!((rate - p).abs() <= 4.0 * se, "bluffed {rate}, stated {p}");
}

#[test]
fn search_scores_credits_and_a_share_of_the_sabacc_pot_and_folds_a_hopeless_hand() {
    // Calling a Pure Sabacc takes the hand pot (6) and the sabacc pot (14), half of which was
    // already counted as the caller's: 6 + 14 − 14/2 = 13 unless an opponent ties it.
    let s = at_call(&["sabres-ace", "coins-8"], &["st2", "st3"]);
    assert_eq!((s.hand_pot(), s.sabacc_pot()), (6, 14));
    let r = search::search(&s.view(Seat(0)), s.legal_mask(), &mut rng(1), 32);
    assert_eq!(r.worlds, 32);
    assert_eq!(r.expert, Action::Call);
    let call = r.values.iter().find(|(a, _)| *a == Action::Call).unwrap().1;
    assert!((11.0..=13.0).contains(&call), "a called Pure Sabacc scored {call}");
    assert!(s.legal_mask().contains(r.chosen));
    let s = facing_bet(&["sabres-ace", "coins-ace"], 3);
    assert_eq!(search::choose(&s.view(Seat(0)), s.legal_mask(), &mut rng(2), 8), Action::Fold);
}

#[test]
fn bot_specs_parse_and_print() {
    for spec in ["random", "greedy", "expert", "search:3"] {
        assert_eq!(Bot::parse(spec).unwrap().name(), spec);
    }
    assert_eq!(Bot::parse("search").unwrap(), Bot::Search(search::DEFAULT_WORLDS));
    assert!(Bot::parse("search:0").is_err());
    assert!(Bot::parse("oracle").unwrap_err().contains("random, greedy"));
    let _ = Expert::default();
}
