//! Adding a game costs a crate and a line (ARCHITECTURE.md, "Adding a game"): every game the
//! registry lists, with no code of its own here, passes the env's conformance harness, plays in
//! the arena with its own bots, trains for a few updates, writes a checkpoint that loads, and
//! exports a bundle that plays as the checkpoint does. The test is written once, for the list.

use agents::Agents;
use env::{Game, GameConfig};
use eval::arena::{self, ArenaConfig, SeatingPlan};
use policy::{ActionSelection, PolicyAgent, cpu_device};
use std::sync::Arc;
use train::{TrainConfig, TrainOptions, train};

/// The stack, end to end, for game `G`.
fn through_the_stack<G: Game>() {
    let players = 2u8.max(G::SEATS.0).min(G::SEATS.1);
    let config = GameConfig::<G>::with_players(players);
    let name = G::NAME;

    // The env's promises: masks, determinism, no hidden information in any view or observation.
    env::conformance::check(&config, 40, 7).unwrap_or_else(|e| panic!("{name}: conformance: {e}"));
    env::conformance::check_vec_env(&config, 8, 60, 7).unwrap_or_else(|e| panic!("{name}: vec env: {e}"));

    // The arena with the game's own first two bots.
    let bots: Vec<String> = G::bots().iter().take(2).map(|b| b.name.to_string()).collect();
    assert!(!bots.is_empty(), "{name} lists no bots");
    let cfg = ArenaConfig::<G> {
        agents: bots.clone(),
        players,
        games: 8,
        seed: 3,
        rules: config.rules,
        seating: SeatingPlan::Every,
    };
    let res = arena::run(&cfg, &Agents::new(), &|| {}).unwrap_or_else(|e| panic!("{name}: arena: {e}"));
    assert!(res.games.len() >= 8, "{name}: the arena played {} games", res.games.len());

    // A few PPO updates against the game's bots; the checkpoint loads as an agent of the game.
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "game = \"{}\"\nname = \"registry\"\nplayers = {players}\ntotal_decisions = 64\nnum_envs = 4\nnum_steps = 8\n\
         hidden = [8]\neval_every = 0\nfinal_eval_games = 0\nsnapshot_every = 1\neval_bots = [\"{1}\"]\n[opponents]\n\"{1}\" = 1.0\n",
        G::SPEC.game,
        bots[0]
    );
    let train_cfg = TrainConfig::<G>::from_toml(&toml).unwrap_or_else(|e| panic!("{name}: config: {e}"));
    let summary = train(
        &train_cfg,
        TrainOptions {
            run_dir: dir.path().join("run"),
            resume: false,
            bots: Arc::new(Agents::new()),
            progress: false,
            stop_after: None,
            fresh_optimizer: false,
            stop: None,
            time_budget: None,
        },
    )
    .unwrap_or_else(|e| panic!("{name}: training: {e:#}"));
    let (mut trained, _) = PolicyAgent::<G>::load(&summary.checkpoint, &cpu_device())
        .unwrap_or_else(|e| panic!("{name}: the checkpoint does not load: {e}"));

    // Export: the bundle plays as the checkpoint does, probability for probability.
    let out = dir.path().join("bundle");
    policy::export::export_checkpoint::<G>(
        &summary.checkpoint,
        &out,
        policy::export::Formats::parse(&["all"]).unwrap(),
        false,
    )
    .unwrap_or_else(|e| panic!("{name}: export: {e}"));
    let mut bundle = policy::export::load_bundle_agent::<G>(&out, &cpu_device())
        .unwrap_or_else(|e| panic!("{name}: the bundle does not load: {e}"))
        .with_selection(ActionSelection::Sample);
    let mut state = G::new_state(&config.rules, 11).unwrap();
    let mut decisions = 0;
    while let Some(seat) = G::current_player(&state) {
        let (view, legal) = (G::view(&state, seat), G::legal_mask(&state));
        let (a, _) = trained.probabilities(&view, legal).unwrap();
        let (b, _) = bundle.probabilities(&view, legal).unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert!(
                (x - y).abs() < 1e-5,
                "{name}: the bundle's probabilities {b:?} differ from the checkpoint's {a:?}"
            );
        }
        let action = game::GameAction::from_index(env::LegalMask::nth_index(legal, 0).unwrap()).unwrap();
        G::apply(&mut state, action).unwrap();
        decisions += 1;
        if decisions > 60 {
            break;
        }
    }
    assert!(decisions > 0, "{name}: no decision was compared");
}

macro_rules! each_game {
    ($($g:ty),* $(,)?) => {
        $(through_the_stack::<$g>();)*
    };
}

#[test]
fn every_registered_game_runs_through_the_stack() {
    let _one_at_a_time = crate::common::serial();
    games::registered!(each_game);
}
