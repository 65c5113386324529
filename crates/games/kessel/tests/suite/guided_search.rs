//! Guided search (`SearchAgent::guided`): the guide's prior prunes what is searched, and its
//! value is asked only about round-end positions seen by the searching seat.

use game::{Agent, AgentError, AgentRng};
use game::{Seat, derive_seed};
use kessel::Kessel;
use kessel::bots::{GuideSettings, SearchAgent};
use kessel::{Action, ActionMask, PlayerView, RuleConfig, State};
use rand::SeedableRng;
use std::sync::{Arc, Mutex};

/// Positions a guide was asked about, by viewer and round.
type Asked = Arc<Mutex<Vec<(Seat, u16)>>>;

/// A guide that forbids token plays (prior 0), records every position it is asked to score and
/// every rollout position it is asked to play (by viewer and round), and plays the first legal
/// action in rollouts.
struct NoTokens {
    scored: Asked,
    rolled: Asked,
}

impl NoTokens {
    fn new() -> (NoTokens, Asked, Asked) {
        let (scored, rolled) = (Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(Vec::new())));
        (NoTokens { scored: scored.clone(), rolled: rolled.clone() }, scored, rolled)
    }
}

impl game::Guide<Kessel> for NoTokens {
    fn prior(&mut self, _: &PlayerView, legal: ActionMask) -> Result<Vec<f32>, AgentError> {
        let mut p = vec![0.0; 48];
        for a in legal.actions() {
            p[a.index()] = if matches!(a, Action::PlayToken(_)) { 0.0 } else { 1.0 };
        }
        Ok(p)
    }

    fn values(&mut self, views: &[PlayerView]) -> Result<Vec<f32>, AgentError> {
        self.scored.lock().unwrap().extend(views.iter().map(|v| (v.viewer, v.round)));
        Ok(vec![0.0; views.len()])
    }

    fn rollout_actions(&mut self, views: &[PlayerView], legal: &[ActionMask]) -> Result<Vec<Action>, AgentError> {
        self.rolled.lock().unwrap().extend(views.iter().map(|v| (v.viewer, v.round)));
        Ok(legal.iter().map(|m| m.actions().next().unwrap()).collect())
    }
}

/// Plays `games` heads-up games of `agent` (seat 0) against `expert`; returns the token plays of
/// seat 0 and, per decision of seat 0 that was searched, its round.
fn play(agent: &mut dyn Agent<Kessel>, games: u64) -> (usize, Vec<u16>) {
    let mut expert = kessel::bots::ExpertAgent::new();
    let (mut tokens, mut rounds) = (0, Vec::new());
    for g in 0..games {
        let mut st = State::new(RuleConfig::with_players(2), derive_seed(5, g)).unwrap();
        st.set_event_logging(false);
        let mut rng = AgentRng::seed_from_u64(g);
        while let Some(seat) = st.current_player() {
            let (view, legal) = (st.view(seat), st.legal_mask());
            let a = if seat == Seat(0) {
                if legal.count() > 1 {
                    rounds.push(st.round());
                }
                agent.act(&view, legal, &mut rng).unwrap()
            } else {
                expert.act(&view, legal, &mut rng).unwrap()
            };
            if seat == Seat(0)
                && matches!(a, Action::PlayToken(_))
                && legal.actions().any(|b| !matches!(b, Action::PlayToken(_)))
            {
                tokens += 1;
            }
            st.apply(a).unwrap();
        }
    }
    (tokens, rounds)
}

#[test]
fn the_prior_prunes_actions_before_they_are_searched() {
    let settings = GuideSettings { prune: 0.5, prior_weight: 0.0, value_leaves: true, policy_rollouts: false };
    let (guide, _, _) = NoTokens::new();
    let mut guided = SearchAgent::guided(4, Box::new(guide), settings, "guided");
    let (guided_tokens, _) = play(&mut guided, 40);
    let (plain_tokens, _) = play(&mut SearchAgent::new(4), 40);
    assert!(plain_tokens > 0, "plain search plays tokens in these games, so the test can fail");
    assert_eq!(guided_tokens, 0, "a token play with prior 0 was searched and chosen");
}

#[test]
fn the_value_scores_only_round_end_positions_of_the_searching_seat() {
    let settings = GuideSettings { prune: 0.0, prior_weight: 0.0, value_leaves: true, policy_rollouts: false };
    let (guide, scored, _) = NoTokens::new();
    let mut guided = SearchAgent::guided(2, Box::new(guide), settings, "guided");
    let (_, rounds) = play(&mut guided, 10);
    let scored = scored.lock().unwrap();
    assert!(!scored.is_empty(), "the value was never asked");
    assert!(scored.iter().all(|&(viewer, _)| viewer == Seat(0)), "a position was scored from another seat's view");
    let last_searched = *rounds.iter().max().unwrap();
    assert!(scored.iter().all(|&(_, r)| r >= 2 && r <= last_searched + 1), "a leaf was not at a round's end");
}

#[test]
fn chip_leaves_never_ask_the_value() {
    let settings = GuideSettings { prune: 0.0, prior_weight: 0.0, value_leaves: false, policy_rollouts: false };
    let (guide, scored, rolled) = NoTokens::new();
    let mut guided = SearchAgent::guided(2, Box::new(guide), settings, "guided");
    play(&mut guided, 5);
    assert!(scored.lock().unwrap().is_empty());
    assert!(rolled.lock().unwrap().is_empty(), "expert rollouts asked the guide to play");
}

#[test]
fn policy_rollouts_play_every_seat_within_the_searched_round() {
    let settings = GuideSettings { prune: 0.0, prior_weight: 0.0, value_leaves: true, policy_rollouts: true };
    let (guide, _, rolled) = NoTokens::new();
    let mut guided = SearchAgent::guided(2, Box::new(guide), settings, "guided");
    let (_, rounds) = play(&mut guided, 10);
    let rolled = rolled.lock().unwrap();
    for seat in [Seat(0), Seat(1)] {
        assert!(rolled.iter().any(|&(v, _)| v == seat), "no rollout position of {seat:?} was played by the guide");
    }
    // Rollouts stop at the end of the round searched: every position played is in a searched round.
    assert!(rolled.iter().all(|(_, r)| rounds.contains(r)), "a rollout went past the end of its round");
}

#[test]
fn an_illegal_rollout_action_is_an_error_not_a_move() {
    struct Illegal;
    impl game::Guide<Kessel> for Illegal {
        fn prior(&mut self, _: &PlayerView, legal: ActionMask) -> Result<Vec<f32>, AgentError> {
            Ok((0..48).map(|i| if legal.contains_index(i) { 1.0 } else { 0.0 }).collect())
        }
        fn values(&mut self, views: &[PlayerView]) -> Result<Vec<f32>, AgentError> {
            Ok(vec![0.0; views.len()])
        }
        fn rollout_actions(&mut self, _: &[PlayerView], legal: &[ActionMask]) -> Result<Vec<Action>, AgentError> {
            // The lowest action index that is not legal.
            Ok(legal
                .iter()
                .map(|m| (0..48).find(|&i| !m.contains_index(i)).and_then(Action::from_index).unwrap())
                .collect())
        }
    }
    let mut guided = SearchAgent::guided(2, Box::new(Illegal), GuideSettings::default(), "guided");
    let mut st = State::new(RuleConfig::with_players(2), 9).unwrap();
    let mut rng = AgentRng::seed_from_u64(1);
    let err = loop {
        let seat = st.current_player().expect("the game ends only after searched decisions");
        let (view, legal) = (st.view(seat), st.legal_mask());
        match guided.act(&view, legal, &mut rng) {
            Ok(a) => st.apply(a).unwrap(),
            Err(e) => break e,
        }
    };
    assert!(err.to_string().contains("illegal"), "{err}");
}
