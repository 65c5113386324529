//! Advice: search either scores every legal action or says why it could not.

use agents::{Advice, AdviceError, AgentSpec, Agents, ask};
use games::kessel::Kessel;
use games::kessel::{Action, ActionMask, PlayerView, RuleConfig, State, ViewDecision};

/// The first decision of a game with a choice between standing and drawing.
fn act_position() -> (PlayerView, ActionMask) {
    for seed in 0..50 {
        let mut s = State::new(RuleConfig::with_players(3), seed).expect("default rules");
        while let Some(seat) = s.current_player() {
            let legal = s.legal_mask();
            let view = s.view(seat);
            if matches!(view.decision, ViewDecision::Act) && legal.contains(Action::Stand) && legal.count() > 1 {
                return (view, legal);
            }
            s.apply(legal.actions().next().expect("a legal action")).expect("legal");
        }
    }
    panic!("no stand-or-draw decision in 50 games");
}

fn search(view: &PlayerView, legal: ActionMask) -> Result<Advice<Action>, AdviceError> {
    ask::<Kessel>(&Agents::new(), &AgentSpec::parse::<Kessel>("search:4").expect("a spec"), view, legal, 7)
}

#[test]
fn search_advice_scores_every_legal_action() {
    let (view, legal) = act_position();
    let Advice::Search { values } = search(&view, legal).expect("advice") else { panic!("search advice") };
    let actions: Vec<Action> = values.iter().map(|v| v.0).collect();
    assert_eq!(actions, legal.actions().collect::<Vec<_>>());
}

#[test]
fn search_advice_that_matches_no_world_is_an_error_saying_why() {
    // Legal actions that are not the position's: no sampled world offers them.
    let (view, legal) = act_position();
    let mut wrong = ActionMask::default();
    wrong.set(Action::Stand);
    wrong.set(Action::KeepHeld);
    let e = search(&view, wrong).expect_err("no world matches");
    assert!(matches!(e, AdviceError::Agent(_)), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("search:4") && text.contains("none of the 4 sampled worlds matched the view"), "{text}");
    assert!(text.contains("not the legal actions given [stand, keep:held]"), "{text}");

    // A view that places one card twice cannot be completed into a game.
    let mut broken = view.clone();
    broken.hand[1] = broken.hand[0];
    let text = search(&broken, legal).expect_err("no world completes").to_string();
    assert!(text.contains("4 could not be completed from it"), "{text}");
}
