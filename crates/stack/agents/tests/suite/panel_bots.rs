//! The ship gate's panel bots (`gambler`, `mirror`): legal at every table size, reproducible
//! from their seeds, and each plays as its documentation says.

use crate::common;

use common::arena;
use env::{Agent, AgentRng};
use game::Seat;
use games::kessel::bots::{GamblerAgent, MirrorAgent};
use games::kessel::scenario::Scenario;
use games::kessel::{Action, RuleConfig, State};
use rand::SeedableRng;

#[test]
fn panel_bots_play_legally_and_reproducibly_at_every_table_size() {
    for players in 2..=8u8 {
        let games = if players <= 3 { 12 } else { eval::arena::seatings(players as usize).len() as u64 };
        let lineup = ["gambler", "mirror", "expert"];
        let lineup = &lineup[..lineup.len().min(players as usize)];
        let one = arena(lineup, players, games, players as u64);
        assert_eq!(one, arena(lineup, players, games, players as u64), "{players} seats: same seed, same games");
        assert!(one.iter().all(|g| !g.truncated), "{players} seats: every game ends");
    }
    // The gambler's choices come from its RNG: other seeds, other games on the same deals.
    let a = arena(&["gambler", "gambler"], 2, 40, 1);
    let b = arena(&["gambler", "gambler"], 2, 40, 1);
    assert_eq!(a, b);
    let mut st = State::new(RuleConfig::with_players(2), 9).unwrap();
    st.set_event_logging(false);
    let mut differs = false;
    let mut bot = GamblerAgent::new();
    while let Some(seat) = st.current_player() {
        let (view, mask) = (st.view(seat), st.legal_mask());
        let picks: Vec<Action> =
            (0..32).map(|s| bot.act(&view, mask, &mut AgentRng::seed_from_u64(s)).unwrap()).collect();
        differs |= picks.iter().any(|&p| p != picks[0]);
        st.apply(picks[0]).unwrap();
    }
    assert!(differs, "the gambler chose the same action under 32 seeds at every decision of a game");
}

/// Seat 0 to act in turn 2 of a 3-seat round with `hand`, both opponents having stood or drawn,
/// holding `tokens`; `provoked` gives seat 1 a Target Tariff played this round.
fn position(hand: [&str; 2], opponents_stood: bool, tokens: &str, provoked: bool) -> State {
    let last = if opponents_stood { r#""last_action": "stand", "stood_turn": 1"# } else { r#""last_action": "draw""# };
    let played = if provoked { r#", "spent": ["target-tariff"], "round_tokens": ["target-tariff"]"# } else { "" };
    let json = format!(
        r#"{{"config": {{"players": 3, "starting_chips": 10}}, "round": 2, "turn": 2, "starter": 0, "actor": 0,
           "decision": {{"decision": "act"}},
           "players": [{{"hand": ["{}", "{}"], "stock": 6, "pot": 1, "last_action": "draw", "tokens": [{tokens}]}},
                       {{"hand": ["S2", "B6"], "stock": 6, {last}{played}}}, {{"hand": ["S5", "B1"], "stock": 9, {last}}}],
           "sand_discard": ["S4"], "blood_discard": ["B6"]}}"#,
        hand[0], hand[1]
    );
    Scenario::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn mirror_choice(st: &State) -> Action {
    MirrorAgent::new().act(&st.view(Seat(0)), st.legal_mask(), &mut AgentRng::seed_from_u64(0)).unwrap()
}

#[test]
fn mirror_follows_the_table_and_answers_tokens_in_kind() {
    // The same middling hand: it stands when the table stood and draws when the table drew.
    assert_eq!(mirror_choice(&position(["S2", "B5"], true, "", false)), Action::Stand);
    assert!(matches!(mirror_choice(&position(["S2", "B5"], false, "", false)), Action::Draw(_)));
    // A Sabacc stands whatever the table did.
    assert_eq!(mirror_choice(&position(["S4", "B4"], false, "", false)), Action::Stand);
    // Tokens: kept until an opponent has played one this round, then played at that opponent.
    let quiet = position(["S2", "B5"], true, r#""target-tariff""#, false);
    assert_eq!(mirror_choice(&quiet), Action::Stand);
    let mut provoked = position(["S2", "B5"], true, r#""target-tariff""#, true);
    let a = mirror_choice(&provoked);
    assert_eq!(a, Action::PlayToken(games::kessel::Token::TargetTariff));
    provoked.apply(a).unwrap();
    // Seat 1, one seat clockwise, played the Tariff; seat 2 is richer.
    assert_eq!(mirror_choice(&provoked), Action::Target(1));
}

#[test]
fn gambler_stands_more_often_the_better_its_hand() {
    let rate = |hand: [&str; 2]| {
        let st = position(hand, false, "", false);
        let mut bot = GamblerAgent::new();
        let stands = (0..400)
            .filter(|&s| {
                bot.act(&st.view(Seat(0)), st.legal_mask(), &mut AgentRng::seed_from_u64(s)).unwrap() == Action::Stand
            })
            .count();
        stands as f64 / 400.0
    };
    let (strong, weak) = (rate(["S1", "B1"]), rate(["S6", "B2"]));
    assert!(strong > 0.85, "stands on a pair of ones {strong:.2} of the time");
    assert!(weak < 0.35, "stands on six and two {weak:.2} of the time");
    // Never certain either way.
    assert!(strong < 1.0 && weak > 0.0, "{strong} {weak}");
}
