//! The style bots (`tight`, `loose`, `aggressive`, `hoarder`, `chipaware`, `leader`): legal and
//! deterministic at every table size, each plays its style, and each beats another heads-up.

use crate::common;

use agents::Agents;
use common::arena;
use env::{Agent, AgentRng};
use game::Seat;
use games::kessel::Kessel;
use games::kessel::bots::chipaware::Mood;
use games::kessel::bots::odds::{Odds, per_opponent};
use games::kessel::bots::{ChipAwareAgent, HoarderAgent};
use games::kessel::scenario::Scenario;
use games::kessel::{Action, RuleConfig, State, ViewDecision};
use rand::SeedableRng;

const STYLES: [&str; 6] = ["tight", "loose", "aggressive", "hoarder", "chipaware", "leader"];

/// Plays `games` games with one built agent per seat (specs cycled), calling `see` at every
/// decision with the acting spec, its view and the action it chose.
fn play(specs: &[&str], players: u8, games: u64, mut see: impl FnMut(&str, &games::kessel::PlayerView, Action)) {
    let f = Agents::new();
    let mut bots: Vec<(String, Box<dyn Agent<Kessel>>)> = (0..players as usize)
        .map(|i| specs[i % specs.len()])
        .map(|s| (s.to_string(), f.build::<Kessel>(s).unwrap()))
        .collect();
    for g in 0..games {
        let mut st = State::new(RuleConfig::with_players(players), game::derive_seed(77, g)).unwrap();
        st.set_event_logging(false);
        let mut rng = AgentRng::seed_from_u64(g);
        // Rotate the seats from game to game so every spec plays from every seat.
        let shift = g as usize % players as usize;
        while let Some(seat) = st.current_player() {
            let (spec, bot) = &mut bots[(seat.index() + shift) % players as usize];
            let view = st.view(seat);
            let mask = st.legal_mask();
            let a = bot.act(&view, mask, &mut rng).unwrap();
            assert!(mask.contains(a), "{spec} chose illegal {a} at {:?}", view.decision);
            see(spec, &view, a);
            st.apply(a).unwrap();
        }
    }
}

#[test]
fn style_bots_play_legally_and_deterministically_at_every_table_size() {
    for players in 2..=8u8 {
        // A small arena per size: 2–4 seats play every seating, 5–8 two rotations.
        let games = if players <= 3 { 12 } else { eval::arena::seatings(players as usize).len() as u64 };
        // Tables of up to six: consecutive styles, wrapping, until each has played.
        let p = players as usize;
        for start in (0..STYLES.len()).step_by(p.min(STYLES.len())) {
            let lineup: Vec<&str> = (0..p.min(STYLES.len())).map(|i| STYLES[(start + i) % STYLES.len()]).collect();
            let one = arena(&lineup, players, games, players as u64);
            let two = arena(&lineup, players, games, players as u64);
            assert_eq!(one, two, "{lineup:?} at {players} seats: the same seed gives the same games");
            assert!(one.iter().all(|g| !g.truncated), "{lineup:?} at {players} seats: every game ends");
        }
    }
}

#[test]
fn tight_stands_in_turn_one_more_often_than_loose() {
    let mut stood = [[0u32; 2]; 2];
    play(&["tight", "loose"], 2, 60, |spec, view, a| {
        let drawable = matches!(view.decision, ViewDecision::Act) && view.turn == 1 && !view.token_played;
        if drawable && matches!(a, Action::Stand | Action::Draw(_)) {
            let i = usize::from(spec == "loose");
            stood[i][0] += u32::from(a == Action::Stand);
            stood[i][1] += 1;
        }
    });
    let rate = |i: usize| stood[i][0] as f64 / stood[i][1].max(1) as f64;
    assert!(stood[0][1] > 100 && stood[1][1] > 100, "{stood:?}");
    assert!(rate(0) > rate(1) + 0.25, "tight stands in turn 1 at {:.2}, loose at {:.2}", rate(0), rate(1));
}

#[test]
fn aggressive_plays_its_tokens_earlier_than_hoarder() {
    let games = arena(&["aggressive", "hoarder"], 2, 200, 3);
    let mut rounds = [(0u64, 0u64); 2];
    for g in &games {
        for p in &g.tracked_plays {
            let agent = g.seat_agent[p.seat as usize];
            rounds[agent].0 += u64::from(p.round);
            rounds[agent].1 += 1;
        }
    }
    let mean = |i: usize| rounds[i].0 as f64 / rounds[i].1.max(1) as f64;
    assert!(rounds[0].1 > 200 && rounds[1].1 > 50, "token plays: {rounds:?}");
    assert!(mean(0) + 1.0 < mean(1), "mean round of a token play: aggressive {:.2}, hoarder {:.2}", mean(0), mean(1));
    // And the hoarder spends nothing before the game turns late.
    play(&["hoarder", "aggressive", "expert"], 3, 20, |spec, view, a| {
        if spec == "hoarder" && matches!(a, Action::PlayToken(_)) {
            assert!(HoarderAgent::is_late(view), "hoarder played {a} in round {} before the late game", view.round);
        }
    });
}

#[test]
fn leader_aims_every_targeted_token_at_the_chip_leader() {
    let mut targeted = 0;
    play(&["leader", "expert", "aggressive", "leader"], 4, 60, |spec, view, a| {
        if spec != "leader" || !matches!(view.decision, ViewDecision::Target { .. }) {
            return;
        }
        let Action::Target(off) = a else { panic!("{a} at a target decision") };
        let n = view.config.players;
        let most = (1..n)
            .map(|o| view.viewer.offset(o, n))
            .filter(|s| !view.seats[s.index()].eliminated)
            .map(|s| view.seats[s.index()].stock.0)
            .max()
            .unwrap();
        let hit = view.viewer.offset(off, n);
        assert_eq!(view.seats[hit.index()].stock.0, most, "leader aimed at {hit}, not a seat with {most} chips");
        targeted += 1;
    });
    assert!(targeted > 50, "only {targeted} targeted plays");
}

/// A 3-seat position at the start of seat 0's action in turn 2 (everyone drew in turn 1, or
/// the opponents stood), with the given stocks and tokens.
fn position(hand: [&str; 2], stocks: [u16; 3], tokens: &str, in_stand: bool) -> State {
    let last = if in_stand { r#""last_action": "stand", "stood_turn": 1"# } else { r#""last_action": "draw""# };
    let json = format!(
        r#"{{"config": {{"players": 3, "starting_chips": 10}}, "round": 2, "turn": 2, "starter": 0, "actor": 0,
           "decision": {{"decision": "act"}},
           "players": [{{"hand": ["{}", "{}"], "stock": {}, "pot": 1, "last_action": "draw", "tokens": [{tokens}]}},
                       {{"hand": ["S2", "B6"], "stock": {}, {last}}}, {{"hand": ["S5", "B1"], "stock": {}, {last}}}],
           "sand_discard": ["S4"], "blood_discard": ["B6"]}}"#,
        hand[0], hand[1], stocks[0], stocks[1], stocks[2]
    );
    Scenario::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

#[test]
fn leader_hits_the_richest_seat_in_a_known_position() {
    let f = Agents::new();
    // Seat 2 (two seats clockwise) has the most chips; both opponents stand.
    for tokens in [r#""target-tariff""#, r#""target-audit""#] {
        let mut st = position(["S3", "B5"], [4, 5, 9], tokens, true);
        let mut bot = f.build::<Kessel>("leader").unwrap();
        let mut rng = AgentRng::seed_from_u64(0);
        let a = bot.act(&st.view(Seat(0)), st.legal_mask(), &mut rng).unwrap();
        assert!(matches!(a, Action::PlayToken(_)), "{tokens}: opens with the token, got {a}");
        st.apply(a).unwrap();
        let t = bot.act(&st.view(Seat(0)), st.legal_mask(), &mut rng).unwrap();
        assert_eq!(t, Action::Target(2), "{tokens}");
    }
}

#[test]
fn chipaware_stands_when_ahead_and_draws_when_behind() {
    // The same middling hand: ahead on chips it stands, behind it draws for a better one.
    let ahead = position(["S2", "B3"], [12, 4, 4], "", false);
    let behind = position(["S2", "B3"], [2, 8, 8], "", false);
    let mut bot = ChipAwareAgent::new();
    assert_eq!(bot.mood(&ahead.view(Seat(0))), Mood::Ahead);
    assert_eq!(bot.mood(&behind.view(Seat(0))), Mood::Behind);
    let mut rng = AgentRng::seed_from_u64(0);
    assert_eq!(bot.act(&ahead.view(Seat(0)), ahead.legal_mask(), &mut rng).unwrap(), Action::Stand);
    assert!(matches!(bot.act(&behind.view(Seat(0)), behind.legal_mask(), &mut rng).unwrap(), Action::Draw(_)));
    // Over many games the same holds on average: turn-1 stands are more common when ahead.
    let mut by_mood = [[0u32; 2]; 3];
    let mut probe = ChipAwareAgent::new();
    play(&["chipaware", "greedy"], 2, 80, |spec, view, a| {
        if spec == "chipaware" && view.turn == 1 && matches!(a, Action::Stand | Action::Draw(_)) {
            let i = probe.mood(view) as usize;
            by_mood[i][0] += u32::from(a == Action::Stand);
            by_mood[i][1] += 1;
        }
    });
    let rate = |m: Mood| by_mood[m as usize][0] as f64 / by_mood[m as usize][1].max(1) as f64;
    assert!(by_mood[Mood::Ahead as usize][1] > 30 && by_mood[Mood::Behind as usize][1] > 30, "{by_mood:?}");
    assert!(rate(Mood::Ahead) > rate(Mood::Behind) + 0.2, "{by_mood:?}");
}

#[test]
fn each_style_beats_another_heads_up() {
    // One opponent each style beats heads-up (the full table is in docs/bots.md). `tight` beats
    // no other bot heads-up; its entry is `random`, the floor of the population.
    // (style, opponent, games): the closest pair needs the most games.
    let pairs = [
        ("tight", "random", 1000),
        ("loose", "tight", 4000),
        ("aggressive", "greedy", 1000),
        ("hoarder", "loose", 1000),
        ("chipaware", "loose", 1000),
        ("leader", "greedy", 1000),
    ];
    for (style, other, n) in pairs {
        let games = arena(&[style, other], 2, n, 1);
        let wins: f64 =
            games.iter().map(|g| (0..2).filter(|&s| g.seat_agent[s] == 0).map(|s| g.win[s]).sum::<f64>()).sum();
        let (lo, hi) = eval::stats::wilson(wins, games.len() as f64);
        assert!(
            lo > 0.5,
            "{style} vs {other}: {:.1} % [{:.1}, {:.1}]",
            100.0 * wins / games.len() as f64,
            100.0 * lo,
            100.0 * hi
        );
    }
}

/// A 2–4 seat position at the start of seat 0's first action.
fn odds_view(hand: [&str; 2], players: usize) -> games::kessel::PlayerView {
    let hands = [["S2", "B5"], ["S5", "B2"], ["S6", "B4"]];
    let others: Vec<String> =
        hands[..players - 1].iter().map(|h| format!(r#"{{"hand": ["{}", "{}"], "stock": 6}}"#, h[0], h[1])).collect();
    let json = format!(
        r#"{{"config": {{"players": {players}, "token_assignment": "none"}}, "round": 1, "turn": 1, "starter": 0, "actor": 0,
               "decision": {{"decision": "act"}},
               "players": [{{"hand": ["{}", "{}"], "stock": 6}}, {}],
               "sand_discard": ["S4"], "blood_discard": ["B3"]}}"#,
        hand[0],
        hand[1],
        others.join(", ")
    );
    Scenario::from_json(&json).unwrap().view(Seat(0))
}

#[test]
fn better_hands_win_more_and_more_opponents_win_less() {
    let mut o = Odds::new();
    let pure = odds_view(["SY", "BY"], 2);
    let t = o.table(&pure, None);
    assert_eq!(o.win(&pure, &t, Odds::hand(&pure)), 1.0, "Pure Sabacc cannot lose");
    let weak = odds_view(["S1", "B6"], 2);
    let t = o.table(&weak, None);
    let p2 = o.win(&weak, &t, Odds::hand(&weak));
    let weak4 = odds_view(["S1", "B6"], 4);
    let t4 = o.table(&weak4, None);
    let p4 = o.win(&weak4, &t4, Odds::hand(&weak4));
    assert!(p2 < 0.2 && p4 < p2, "{p2} {p4}");
    assert!((per_opponent(p4, 3) - p2).abs() < 0.05, "{} vs {p2}", per_opponent(p4, 3));
    // S3/B5 with a B3 face up: taking it makes a pair, so that draw is the best one.
    let v = odds_view(["S3", "B5"], 2);
    let t = o.table(&v, None);
    let (src, p) = o.best_draw(&v, &t, games::kessel::ActionMask::from_bits(u64::MAX)).unwrap();
    assert_eq!(src, games::kessel::Source::BloodDiscard);
    assert!(p > o.win(&v, &t, Odds::hand(&v)) + 0.3);
}
