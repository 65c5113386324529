//! Every bad config value is refused at load with a message naming the field and the allowed
//! range; no input, however malformed, makes the loader panic.

use games::classic::Classic;
use games::kessel::Kessel;
use proptest::prelude::*;
use train::TrainConfig;

/// The error message for `text`, which must be refused.
fn refused(text: &str) -> String {
    match TrainConfig::<Kessel>::from_toml(text) {
        Ok(c) => panic!("accepted {text:?}: {c:?}"),
        Err(e) => e.to_string(),
    }
}

/// Asserts `field = value` is refused with a message that starts with the field and states
/// the allowed range.
fn assert_out_of_range(field: &str, value: &str, range: &str) {
    let e = refused(&format!("{field} = {value}"));
    assert!(e.starts_with(&format!("{field}:")), "{field} = {value}: {e}");
    assert!(e.contains(range), "{field} = {value}: the message should state {range}: {e}");
}

#[test]
fn config_non_finite_floats_are_refused() {
    for v in ["nan", "inf", "-inf"] {
        assert_out_of_range("learning_rate", v, "(0, 1)");
        assert_out_of_range("gamma", v, "[0, 1]");
        assert_out_of_range("gae_lambda", v, "[0, 1]");
        assert_out_of_range("clip_coef", v, "(0, 1]");
        assert_out_of_range("ent_coef", v, "[0, 1e3]");
        assert_out_of_range("vf_coef", v, "[0, 1e3]");
        assert_out_of_range("max_grad_norm", v, "(0, 1e6]");
        assert_out_of_range("target_kl", v, "(0, 1e3]");
        assert_out_of_range("shaping", v, "[0, 1e3]");
        assert_out_of_range("magnet_coef", v, "[0, 1e3]");
    }
}

#[test]
fn a_magnet_refreshed_off_the_checkpoints_is_refused() {
    assert_out_of_range("magnet_coef", "-0.1", "[0, 1e3]");
    assert_out_of_range("magnet_every", "0", "1..=");
    let e = refused("magnet_coef = 0.1\nmagnet_every = 3\ncheckpoint_every = 10");
    assert!(e.starts_with("magnet_every:") && e.contains("does not divide checkpoint_every (10)"), "{e}");
    // Without a magnet, its refresh interval does not matter.
    assert!(TrainConfig::<Kessel>::from_toml("magnet_every = 3\ncheckpoint_every = 10").is_ok());
}

#[test]
fn config_negative_and_zero_values_are_refused() {
    assert_out_of_range("learning_rate", "0.0", "(0, 1)");
    assert_out_of_range("learning_rate", "-3e-4", "(0, 1)");
    assert_out_of_range("learning_rate", "1.5", "(0, 1)");
    assert_out_of_range("gamma", "-0.1", "[0, 1]");
    assert_out_of_range("gamma", "1.01", "[0, 1]");
    assert_out_of_range("gae_lambda", "2.0", "[0, 1]");
    assert_out_of_range("clip_coef", "0.0", "(0, 1]");
    assert_out_of_range("clip_coef", "-0.2", "(0, 1]");
    assert_out_of_range("ent_coef", "-0.01", "[0, 1e3]");
    assert_out_of_range("vf_coef", "-0.5", "[0, 1e3]");
    assert_out_of_range("max_grad_norm", "0.0", "(0, 1e6]");
    assert_out_of_range("target_kl", "0.0", "(0, 1e3]");
    assert_out_of_range("shaping", "-1.0", "[0, 1e3]");
    assert_out_of_range("players", "1", "2..=4");
    assert_out_of_range("total_decisions", "0", "1..=");
    assert_out_of_range("num_envs", "0", "1..=");
    assert_out_of_range("num_steps", "0", "1..=");
    assert_out_of_range("num_minibatches", "0", "1..=");
    assert_out_of_range("update_epochs", "0", "1..=1000");
    assert_out_of_range("checkpoint_every", "0", "1..=");
    assert_out_of_range("snapshot_every", "0", "1..=");
    assert_out_of_range("eval_games", "0", "1..=10000000");
    assert_out_of_range("final_eval_games", "100000000000", "0..=10000000");
    assert_out_of_range("max_snapshots", "5000", "0..=1000");
}

#[test]
fn config_batch_sizes_are_bounded() {
    let e = refused("num_envs = 1000000\nnum_steps = 1000000");
    assert!(e.starts_with("num_steps:") && e.contains("1048576"), "{e}");
    let e = refused("num_envs = 2\nnum_steps = 2\nnum_minibatches = 5");
    assert!(e.starts_with("num_minibatches:") && e.contains("1..=4"), "{e}");
    let e = refused("hidden = [0]");
    assert!(e.starts_with("hidden:") && e.contains("1..=65536"), "{e}");
    let e = refused("hidden = []");
    assert!(e.starts_with("hidden:") && e.contains("1..=16"), "{e}");
}

#[test]
fn config_opponent_weights_summing_to_zero_are_refused() {
    let e = refused("[opponents]\nlatest = 0.0\nrandom = 0.0");
    assert!(e.starts_with("opponents:") && e.contains("sum to zero"), "{e}");
    let e = refused("[opponents]\nlatest = nan");
    assert!(e.starts_with("opponents:") && e.contains("latest") && e.contains("[0, 1e9]"), "{e}");
    let e = refused("[opponents]\nlatest = -1.0\nrandom = 2.0");
    assert!(e.starts_with("opponents:") && e.contains("latest"), "{e}");
    let e = refused("max_snapshots = 0\n[opponents]\nsnapshots = 1.0");
    assert!(e.starts_with("max_snapshots:") && e.contains("snapshots"), "{e}");
    let e = refused("init_from = \"\"");
    assert!(e.starts_with("init_from:"), "{e}");
}

#[test]
fn config_bad_table_opponent_mixes_are_refused_with_the_size_named() {
    let e = refused("table_sizes = [2, 4]\n[table_opponents.3]\nexpert = 1.0");
    assert!(e.starts_with("table_opponents:") && e.contains("[table_opponents.3]") && e.contains("[2, 4]"), "{e}");
    let e = refused("[table_opponents.four]\nexpert = 1.0");
    assert!(e.starts_with("table_opponents:") && e.contains("four"), "{e}");
    let e = refused("table_sizes = [2, 4]\n[table_opponents.4]\nwizard = 1.0");
    assert!(e.starts_with("table_opponents:") && e.contains("[table_opponents.4]") && e.contains("wizard"), "{e}");
    let e = refused("table_sizes = [2, 4]\n[table_opponents.4]\nexpert = 0.0");
    assert!(e.contains("[table_opponents.4]") && e.contains("sum to zero"), "{e}");
    let e = refused("table_sizes = [2, 4]\n[table_opponents.4]\nexpert = -1.0");
    assert!(e.contains("[table_opponents.4]") && e.contains("[0, 1e9]"), "{e}");
    let e = refused(
        "table_sizes = [2, 4]\nmax_snapshots = 0\n[opponents]\nexpert = 1.0\n[table_opponents.4]\nsnapshots = 1.0",
    );
    assert!(e.starts_with("max_snapshots:") && e.contains("table_opponents.4"), "{e}");
    // The default mix is still checked for the sizes that use it.
    let e = refused("table_sizes = [2, 4]\n[opponents]\n[table_opponents.4]\nexpert = 1.0");
    assert!(e.starts_with("opponents:") && e.contains("at least one entry"), "{e}");
}

#[test]
fn config_unknown_keys_are_refused_with_their_path() {
    let e = refused("learnin_rate = 0.1");
    assert!(e.contains("learnin_rate") && e.contains("unknown field"), "{e}");
    let e = refused("[rules]\nstarting_chip = 6");
    assert!(e.contains("rules: ") || e.contains("rules."), "the path names the table: {e}");
    assert!(e.contains("starting_chip"), "{e}");
    let e = refused("gamma = \"high\"");
    assert!(e.contains("gamma"), "{e}");
    let e = refused("players = 300");
    assert!(e.contains("players"), "{e}");
    let e = refused("num_envs = -1");
    assert!(e.contains("num_envs"), "{e}");
}

#[test]
fn config_file_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.toml");
    let e = TrainConfig::<Kessel>::load(&missing).unwrap_err().to_string();
    assert!(e.contains("nope.toml") && e.contains("cannot read"), "{e}");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "gamma = [").unwrap();
    let e = TrainConfig::<Kessel>::load(&bad).unwrap_err().to_string();
    assert!(e.contains("bad.toml"), "{e}");
    std::fs::write(&bad, [0xff, 0xfe, 0x00]).unwrap();
    let e = TrainConfig::<Kessel>::load(&bad).unwrap_err().to_string();
    assert!(e.contains("bad.toml"), "{e}");
}

/// Every key of the config (and a few that are not), for the fuzz test below.
const KEYS: &[&str] = &[
    "name",
    "seed",
    "players",
    "table_sizes",
    "reward",
    "total_decisions",
    "num_envs",
    "num_steps",
    "learning_rate",
    "anneal_lr",
    "gamma",
    "gae_lambda",
    "num_minibatches",
    "update_epochs",
    "norm_adv",
    "clip_coef",
    "clip_vloss",
    "ent_coef",
    "vf_coef",
    "max_grad_norm",
    "target_kl",
    "shaping",
    "hidden",
    "init_from",
    "learner_seats",
    "snapshot_sampling",
    "snapshot_every",
    "max_snapshots",
    "checkpoint_every",
    "eval_every",
    "eval_games",
    "eval_bots",
    "final_eval_games",
    "bogus",
    "rules.players",
    "rules.starting_chips",
    "rules.round_limit",
    "rules.bogus",
    "opponents.latest",
    "opponents.random",
    "opponents.wizard",
];

/// Values of every TOML type, including the extremes.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "4",
    "5",
    "255",
    "256",
    "18446744073709551615",
    "-9223372036854775808",
    "0.0",
    "-0.0",
    "0.5",
    "1.0",
    "1e300",
    "-1e300",
    "nan",
    "inf",
    "-inf",
    "true",
    "\"\"",
    "\"random\"",
    "\"/\"",
    "[]",
    "[0]",
    "[2, 4]",
    "[\"x\"]",
    "{}",
    "{ a = 1 }",
    "1979-05-27T07:32:00Z",
];

fn line(key: &str, value: &str) -> String {
    match key.split_once('.') {
        Some((table, k)) => format!("[{table}]\n{k} = {value}\n"),
        None => format!("{key} = {value}\n"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Arbitrary bytes never panic the loader.
    #[test]
    fn config_arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = TrainConfig::<Kessel>::from_toml(&String::from_utf8_lossy(&bytes));
    }

    /// Well-formed TOML with wrong values never panics, and a refusal of a single wrong field
    /// names that field (or, for a value checked against another field, the field it is
    /// checked with).
    #[test]
    fn config_wrong_values_are_refused_by_name(k in 0..KEYS.len(), v in 0..VALUES.len()) {
        let (key, value) = (KEYS[k], VALUES[v]);
        let text = line(key, value);
        if let Err(e) = TrainConfig::<Kessel>::from_toml(&text) {
            let e = e.to_string();
            let leaf = key.rsplit('.').next().unwrap();
            let table = key.split('.').next().unwrap();
            let named = e.contains(leaf) || e.contains(table)
                || (key == "players" && e.contains("learner_seats"))
                || (key == "num_envs" && e.contains("num_steps"))
                || (key == "num_steps" && e.contains("num_minibatches"))
                || (key == "num_envs" && e.contains("num_minibatches"));
            prop_assert!(named, "{text:?} refused without naming {key}: {e}");
        }
    }

    /// Several wrong lines at once never panic.
    #[test]
    fn config_many_wrong_values_never_panic(pairs in proptest::collection::vec((0..KEYS.len(), 0..VALUES.len()), 0..8)) {
        let text: String = pairs.iter().map(|&(k, v)| line(KEYS[k], VALUES[v])).collect();
        let _ = TrainConfig::<Kessel>::from_toml(&text);
    }
}

/// Loads and validates the shipped config `text` (at `path`) as game `G`'s, and checks that a
/// shipped checkpoint it starts from exists.
fn check_shipped_config<G: game::Game>(root: &std::path::Path, path: &std::path::Path, text: &str) {
    let cfg = TrainConfig::<G>::from_toml(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    cfg.validate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if let Some(init) = cfg.init_from.as_ref().filter(|p| p.starts_with("checkpoints")) {
        assert!(root.join(init).join("metadata.json").exists(), "{}: init_from {}", path.display(), init.display());
    }
}

/// Every config shipped in `experiments/` (subfolders included) loads and validates, and a
/// shipped checkpoint it starts from (`init_from` under `checkpoints/`, relative to the workspace
/// root) exists: a typo in a shipped experiment must fail here, not an hour into someone's run.
/// (`init_from` under `runs/` names an earlier stage's output, made by the user.)
#[test]
fn every_shipped_experiment_config_loads() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    // Configs are run from the workspace root, and checkpoint opponents in their pools are
    // resolved from the working directory (no other test in this file reads relative paths).
    std::env::set_current_dir(&root).unwrap();
    let mut dirs = vec![root.join("experiments")];
    let mut seen = 0;
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap();
                let game = train::config::game_of_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                // Each config is read and validated as the game it names.
                macro_rules! check_as {
                    ($($g:ty),*) => {
                        $(if Some(game) == games::GameId::of::<$g>() {
                            check_shipped_config::<$g>(&root, &path, &text);
                        })*
                    };
                }
                games::registered!(check_as);
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "found only {seen} experiment configs");
}

#[test]
fn a_config_names_its_game_and_is_read_with_that_game_rules() {
    let classic = "game = \"classic\"\nname = \"c\"\n[rules]\nhand_limit_end = \"most-credits\"\n";
    assert_eq!(train::config::game_of_toml(classic).unwrap(), games::GameId::parse("classic").unwrap());
    assert_eq!(train::config::game_of_toml("name = \"k\"").unwrap(), games::GameId::parse("kessel").unwrap());
    let e = train::config::game_of_toml("game = \"chess\"").unwrap_err().to_string();
    assert!(e.starts_with("game:") && e.contains("kessel, classic"), "{e}");
    // A classic rule is refused by Kessel's config reader, naming it; read as classic it loads.
    let e = TrainConfig::<Kessel>::from_toml(classic).unwrap_err().to_string();
    assert!(e.contains("hand_limit_end") || e.contains("game"), "{e}");
    let c = train::TrainConfig::<Classic>::from_toml(classic).unwrap();
    assert_eq!(c.rules.hand_limit_end, games::classic::config::HandLimitEnd::MostCredits);
    // The `game` field must be the game the config is read for.
    let e = train::TrainConfig::<Classic>::from_toml("name = \"k\"").unwrap_err().to_string();
    assert!(e.starts_with("game:"), "{e}");
}
