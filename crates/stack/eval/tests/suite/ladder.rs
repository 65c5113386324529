//! The ladder end to end on the heuristic bots: built from arena games, deterministic from its
//! seed, and a new agent rated against it moves nothing that is stored.

use crate::common;

use common::Bots;
use eval::ladder::{self, Anchor, BuildPlan, Ladder, RatePlan};

fn plan(seed: u64) -> BuildPlan {
    BuildPlan {
        game: "kessel".into(),
        agents: vec!["random".into(), "greedy".into(), "expert".into()],
        anchors: vec![Anchor { spec: "expert".into(), rating: 1500.0 }],
        heads_up_games: 400,
        table_games: 96,
        table_players: 4,
        held_out: vec![("random".into(), "expert".into())],
        seed,
        rate: RatePlan { opponents: vec!["random".into(), "expert".into()], players: vec![2, 4], games: 200 },
        rules: serde_json::Value::Null,
        command: "test".into(),
    }
}

fn built(seed: u64) -> Ladder {
    let p = plan(seed);
    let (fit, check) = p.matchups().unwrap();
    let fit_res = ladder::play(&fit, &Default::default(), &Bots, &|| {}).unwrap();
    let check_res = ladder::play(&check, &Default::default(), &Bots, &|| {}).unwrap();
    ladder::build(&p, &fit, &fit_res, &check, &check_res).unwrap()
}

#[test]
fn a_ladder_from_arena_games_orders_the_bots_and_checks_its_held_out_pair() {
    let l = built(5);
    assert_eq!(l, built(5), "the same seed gives the same ladder");
    let order: Vec<&str> = l.agents.iter().map(|e| e.spec.as_str()).collect();
    assert_eq!(order, ["expert", "greedy", "random"]);
    assert_eq!(l.rating("expert"), Some(1500.0));
    assert_eq!(l.held_out.len(), 3, "the held-out pair at both table sizes, each way round");
    for c in &l.held_out {
        assert!(c.decided > 0.0 && (0.0..=1.0).contains(&c.predicted), "{c:?}");
        // random and expert never met in the fit: the prediction goes through greedy.
        assert!((c.predicted - c.observed).abs() < 0.15, "{c:?}");
    }
    assert_eq!(Ladder::parse(&l.to_json(), "built").unwrap(), l, "a ladder reads back as written");
}

#[test]
fn rating_a_new_agent_leaves_the_ladder_as_it_was() {
    let l = built(6);
    let before = l.clone();
    let matchups = ladder::rate_matchups(&l, "tight", Some(240), 9);
    assert_eq!(matchups.len(), 4);
    let results = ladder::play(&matchups, &Default::default(), &Bots, &|| {}).unwrap();
    let new = ladder::rate(&l, "tight", &matchups, &results, 9).unwrap();
    assert_eq!(l, before);
    assert!(new.rated.low < new.rated.rating && new.rated.rating < new.rated.high, "{:?}", new.rated);
    // tight loses to expert and beats random by far, heads-up and at four seats.
    assert!(l.rating("random").unwrap() < new.rated.rating && new.rated.rating < 1500.0, "{:?}", new.rated);
    assert_eq!(new.matchups.len(), 4);
    // An agent the ladder does not know cannot be played against it.
    let mut bad = l.clone();
    bad.rate.opponents = vec!["nobody".into()];
    assert!(bad.check().unwrap_err().contains("`nobody` is not among the agents"));
}

#[test]
fn anchors_are_spec_equals_rating() {
    assert_eq!(Anchor::parse("expert=1500").unwrap(), Anchor { spec: "expert".into(), rating: 1500.0 });
    assert_eq!(Anchor::parse(" random = -20.5").unwrap().rating, -20.5);
    assert_eq!(Anchor::parse("checkpoints/x@argmax=7").unwrap().spec, "checkpoints/x@argmax");
    for bad in ["expert", "expert=", "expert=nan", "expert=inf", "expert=x"] {
        let e = Anchor::parse(bad).unwrap_err();
        assert!(e.contains("--anchor") && e.contains(bad), "{bad}: {e}");
    }
}
