//! Agent specs: checkpoints with play modes, round trips, arbitrary input, and what happens when
//! an agent misbehaves.

use agents::{AgentSpec, Agents};
use env::{Agent, AgentError, AgentRng};
use eval::arena::{self, ArenaConfig, ArenaError, SeatingPlan};
use games::kessel::Kessel;
use games::kessel::{Action, ActionMask, PlayerView, RuleConfig};
use proptest::prelude::*;
use rand::SeedableRng;

fn shipped(mode: &str) -> String {
    format!("{}/../../../checkpoints/quick-4p{mode}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn checkpoint_specs_take_a_play_mode() {
    let agents = Agents::new();
    let mut argmax = agents.build::<Kessel>(&shipped("@argmax")).expect("argmax mode loads");
    let mut env = env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(4)).unwrap();
    for seed in 0..20 {
        env.reset(seed);
        let seat = env.current_player().unwrap();
        let view = env.view(seat);
        let first = argmax.act(&view, env.legal_mask(), &mut AgentRng::seed_from_u64(1)).unwrap();
        for r in 2..6 {
            let again = argmax.act(&view, env.legal_mask(), &mut AgentRng::seed_from_u64(r)).unwrap();
            assert_eq!(first, again, "argmax play ignores the random stream");
        }
    }
    agents.build::<Kessel>(&shipped("@sample")).expect("sample mode loads");
    agents.build::<Kessel>(&shipped("")).expect("no mode: sampling");
    let e = agents.build::<Kessel>(&shipped("@wild")).err().expect("unknown mode").to_string();
    assert!(e.contains("play mode") && e.contains("@argmax"), "{e}");
}

#[test]
fn listing_shows_builtins_and_shipped_checkpoints() {
    let root = format!("{}/../../../checkpoints", env!("CARGO_MANIFEST_DIR"));
    let listed = Agents::list::<Kessel>(&[std::path::Path::new(&root)]);
    let specs: Vec<&str> = listed.iter().map(|l| l.spec.as_str()).collect();
    for b in [
        "random",
        "greedy",
        "expert",
        "search:N",
        "tight",
        "loose",
        "aggressive",
        "hoarder",
        "chipaware",
        "leader",
        "handdraft",
        "gambler",
        "mirror",
        "search:4",
        "search:16",
        "search:64",
    ] {
        assert!(specs.contains(&b), "{specs:?}");
    }
    for c in ["mixed-tables", "quick-4p"] {
        let hit = listed.iter().find(|l| l.spec.ends_with(c)).unwrap_or_else(|| panic!("{c} not listed: {specs:?}"));
        assert!(hit.description.starts_with("checkpoint"), "{}", hit.description);
        Agents::new().validate::<Kessel>(&hit.spec).expect("every listed checkpoint builds");
    }
}

#[test]
fn canonical_specs_parse_back_to_themselves() {
    for s in [
        "random",
        "greedy",
        "expert",
        "tight",
        "loose",
        "aggressive",
        "hoarder",
        "chipaware",
        "leader",
        "handdraft",
        "gambler",
        "mirror",
        "search:1",
        "search:32",
        &shipped("@argmax"),
        &shipped("@sample"),
        &format!("search:8+{}", shipped("")),
    ] {
        let spec = AgentSpec::parse::<Kessel>(s).unwrap();
        assert_eq!(AgentSpec::parse::<Kessel>(&spec.to_string()).unwrap(), spec, "{s}");
    }
    assert_eq!(AgentSpec::parse::<Kessel>(" expert ").unwrap().to_string(), "expert");
    assert_eq!(AgentSpec::parse::<Kessel>("search").unwrap().to_string(), "search:32");
}

#[test]
fn guided_search_takes_a_search_spec_and_a_checkpoint() {
    let ckpt = shipped("");
    match AgentSpec::parse::<Kessel>(&format!("search+{ckpt}")).unwrap() {
        AgentSpec::GuidedSearch { worlds, path } => {
            assert_eq!(worlds, 32);
            assert_eq!(path, std::path::PathBuf::from(&ckpt));
        }
        other => panic!("parsed as {other:?}"),
    }
    let mut bot = Agents::new().build::<Kessel>(&format!("search:2+{ckpt}")).unwrap();
    assert_eq!(bot.name(), format!("search:2+{ckpt}"));
    let st = games::kessel::State::new(games::kessel::RuleConfig::with_players(2), 3).unwrap();
    let seat = st.current_player().unwrap();
    let a =
        bot.act(&st.view(seat), st.legal_mask(), &mut <env::AgentRng as rand::SeedableRng>::seed_from_u64(1)).unwrap();
    assert!(st.legal_mask().contains(a));
    for (bad, want) in [
        (format!("search:0+{ckpt}"), "budget"),
        (format!("expert+{ckpt}"), "guided search is"),
        ("search+no/such/folder".to_string(), "the guide `no/such/folder` does not exist"),
        (format!("search+{ckpt}@argmax+x"), "guided search is"),
        (format!("search+{ckpt}@argmax"), "without @sample or @argmax"),
        (format!("search:4+{ckpt}@sample"), "without @sample or @argmax"),
    ] {
        let e = AgentSpec::parse::<Kessel>(&bad).unwrap_err().to_string();
        assert!(e.contains(want), "{bad}: {e}");
    }
}

#[test]
fn guided_search_refuses_a_checkpoint_without_its_value_shaping() {
    let dir = std::env::temp_dir().join(format!("guided-no-shaping-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::path::PathBuf::from(shipped(""));
    std::fs::copy(src.join("model.bpk"), dir.join("model.bpk")).unwrap();
    let mut meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(src.join("metadata.json")).unwrap()).unwrap();
    meta.as_object_mut().unwrap().remove("value_shaping");
    std::fs::write(dir.join("metadata.json"), meta.to_string()).unwrap();
    let spec = format!("search:2+{}", dir.display());
    let e = Agents::new().build::<Kessel>(&spec).err().expect("no value_shaping, no guide").to_string();
    assert!(e.contains("value_shaping") && e.contains("shaping"), "{e}");
    assert!(Agents::new().build::<Kessel>(&dir.display().to_string()).is_ok(), "the checkpoint itself still plays");
    std::fs::remove_dir_all(&dir).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// Any text is either a spec or a clear error; nothing panics.
    #[test]
    fn arbitrary_text_never_panics(s in ".{0,40}") {
        if let Err(e) = AgentSpec::parse::<Kessel>(&s) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn search_budgets_parse_only_in_range(n in 0u64..200_000) {
        let r = AgentSpec::parse::<Kessel>(&format!("search:{n}"));
        prop_assert_eq!(r.is_ok(), (1..=games::kessel::bots::SearchAgent::MAX_WORLDS as u64).contains(&n));
    }
}

/// Stands whatever the mask says: illegal at keep, target and die decisions.
struct AlwaysStand;

impl Agent<Kessel> for AlwaysStand {
    fn name(&self) -> &str {
        "always-stand"
    }
    fn act(&mut self, _: &PlayerView, _: ActionMask, _: &mut AgentRng) -> Result<Action, AgentError> {
        Ok(Action::Stand)
    }
}

/// Fails at its first decision, as a policy whose inference broke would.
struct Broken;

impl Agent<Kessel> for Broken {
    fn name(&self) -> &str {
        "broken"
    }
    fn act(&mut self, _: &PlayerView, _: ActionMask, _: &mut AgentRng) -> Result<Action, AgentError> {
        Err(AgentError::new("broken", "inference failed: weights are NaN"))
    }
}

/// Builds the misbehaving agents by name and everything else through the agents layer.
struct WithTestAgents(Agents);

impl env::AgentBuilder<Kessel> for WithTestAgents {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<Kessel>>, String> {
        match spec {
            "always-stand" => Ok(Box::new(AlwaysStand)),
            "broken" => Ok(Box::new(Broken)),
            _ => env::AgentBuilder::build(&self.0, spec),
        }
    }
}

fn tournament(bad: &str) -> ArenaError {
    let cfg = ArenaConfig::<Kessel> {
        agents: vec!["expert".into(), bad.into()],
        players: 2,
        games: 40,
        seed: 5,
        rules: RuleConfig::default(),
        seating: SeatingPlan::Every,
    };
    arena::run(&cfg, &WithTestAgents(Agents::new()), &|| {}).expect_err("a misbehaving agent stops the tournament")
}

#[test]
fn an_agent_that_plays_an_illegal_action_is_an_error_naming_it() {
    let e = tournament("always-stand");
    assert!(matches!(e, ArenaError::Illegal { .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("always-stand") && msg.contains("illegal") && msg.contains("stand"), "{msg}");
}

#[test]
fn an_agent_that_fails_is_an_error_naming_it() {
    let e = tournament("broken");
    let msg = e.to_string();
    assert!(matches!(e, ArenaError::Agent { .. }), "{msg}");
    assert!(msg.contains("broken") && msg.contains("NaN"), "{msg}");
}

#[test]
fn an_exported_bundle_is_an_agent_spec_that_plays_like_its_checkpoint() {
    let dir = std::env::temp_dir().join(format!("agents-bundle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let ckpt = shipped("");
    policy::export::export_checkpoint::<Kessel>(std::path::Path::new(&ckpt), &dir, Default::default(), false).unwrap();
    let bundle = dir.display().to_string();
    assert!(matches!(AgentSpec::parse::<Kessel>(&bundle).unwrap(), AgentSpec::Bundle { .. }));
    let play = |spec: String| {
        let cfg = ArenaConfig::<Kessel> {
            agents: vec![spec, "expert".into()],
            players: 2,
            games: 8,
            seed: 9,
            rules: RuleConfig::default(),
            seating: SeatingPlan::Every,
        };
        arena::run(&cfg, &Agents::new(), &|| {}).unwrap().games
    };
    // The same seed and argmax play: the bundle and the checkpoint make the same games.
    assert_eq!(play(format!("{bundle}@argmax")), play(format!("{ckpt}@argmax")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A difficulty level's bundle, played by its contract's rule (`DIR@level`: the bundle's argmax
/// with `mistake_rate` of the decisions uniformly random), makes exactly the games of the level
/// itself: the rule a front-end applies reproduces the level.
#[test]
fn a_level_bundle_played_by_its_rule_makes_the_levels_games() {
    let dir = std::env::temp_dir().join(format!("agents-level-bundle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let ckpt = agents::levels::level_checkpoint::<Kessel>().expect("the levels' checkpoint is in the repository");
    let rate = 0.4;
    let level = policy::export::Level {
        number: 3,
        spec: "level:3".into(),
        name: "intermediate".into(),
        description: "test".into(),
        selection: "argmax".into(),
        mistake_rate: rate,
        rule: policy::export::Level::rule_text(rate),
        rating: policy::export::LevelRating {
            rating: 1346.1,
            low: 1342.1,
            high: 1350.1,
            games: 1,
            anchors: vec!["expert=1500".into()],
            scale: "test".into(),
            ladder_file: "test".into(),
            ladder_sha256: "0".repeat(64),
            by_size: Vec::new(),
        },
    };
    policy::export::export_level::<Kessel>(&ckpt, level, &dir, Default::default(), false).unwrap();
    let bundle = dir.display().to_string();
    let spec = AgentSpec::parse::<Kessel>(&format!("{bundle}@level")).unwrap();
    assert_eq!(spec.to_string(), format!("mistakes:40+{bundle}@argmax"));
    let play = |spec: String| {
        let cfg = ArenaConfig::<Kessel> {
            agents: vec![spec, "expert".into()],
            players: 2,
            games: 40,
            seed: 11,
            rules: RuleConfig::default(),
            seating: SeatingPlan::Every,
        };
        arena::run(&cfg, &Agents::new(), &|| {}).unwrap().games
    };
    assert_eq!(play(format!("{bundle}@level")), play("level:3".into()));
    // A bundle without a level, or a folder that is no bundle, is refused saying what to do.
    let plain = dir.with_extension("plain");
    let _ = std::fs::remove_dir_all(&plain);
    policy::export::export_checkpoint::<Kessel>(&ckpt, &plain, Default::default(), false).unwrap();
    let e = AgentSpec::parse::<Kessel>(&format!("{}@level", plain.display())).unwrap_err().to_string();
    assert!(e.contains("without a `level` section") && e.contains("sabacc export level:N"), "{e}");
    let e = AgentSpec::parse::<Kessel>(&format!("{}@level", ckpt.display())).unwrap_err().to_string();
    assert!(e.contains("is not a bundle"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&plain).unwrap();
}

#[test]
fn a_bundle_exported_again_to_the_same_folder_is_loaded_afresh() {
    let dir = std::env::temp_dir().join(format!("agents-reexport-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let export = |checkpoint: &str, force: bool| {
        let ckpt = format!("{}/../../../checkpoints/{checkpoint}", env!("CARGO_MANIFEST_DIR"));
        policy::export::export_checkpoint::<Kessel>(std::path::Path::new(&ckpt), &dir, Default::default(), force)
            .unwrap();
    };
    let play = |factory: &Agents| {
        let cfg = ArenaConfig::<Kessel> {
            agents: vec![format!("{}@argmax", dir.display()), "expert".into()],
            players: 2,
            games: 8,
            seed: 3,
            rules: RuleConfig::default(),
            seating: SeatingPlan::Every,
        };
        arena::run(&cfg, factory, &|| {}).unwrap().games
    };
    let factory = Agents::new();
    export("quick-4p", false);
    let first = play(&factory);
    // The contract's write time is what the cache goes by; make sure the second differs.
    std::thread::sleep(std::time::Duration::from_millis(20));
    export("mixed-tables", true);
    let again = play(&factory);
    assert_eq!(again, play(&Agents::new()), "the same builder plays the bundle now in the folder");
    assert_ne!(again, first, "two different networks make different games");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn folder_names_are_folder_safe() {
    use agents::folder_name;
    assert_eq!(folder_name("expert"), "expert");
    assert_eq!(folder_name("checkpoints/mixed-tables@argmax"), "mixed-tables-argmax");
    assert_eq!(folder_name("search:8"), "search-8");
    assert_eq!(folder_name("runs/x/checkpoint/"), "checkpoint");
    assert_eq!(folder_name("mistakes:10+level:3"), "mistakes-10-level-3");
}
