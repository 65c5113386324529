//! The opponent pool: mixed table sizes and prioritised snapshot sampling.

use crate::common;
use common::bots;
use env::AgentRng;
use game::Game as _;
use games::kessel::Kessel;
use policy::{ActorCritic, Policy, PolicyConfig, cpu_device};
use rand::SeedableRng;
use train::TrainConfig;
use train::rollout::{Collector, EpisodeStats};

fn config(sampling: &str) -> TrainConfig<Kessel> {
    TrainConfig::<Kessel>::from_toml(&format!(
        r#"
        seed = 3
        players = 3
        table_sizes = [2, 3]
        num_envs = 16
        num_steps = 200
        hidden = [8]
        snapshot_sampling = "{sampling}"
        [opponents]
        snapshots = 1.0
        "#
    ))
    .expect("valid config")
}

fn policy(seed: u64) -> Policy {
    let net = PolicyConfig::new(Kessel::SPEC.obs_len, Kessel::SPEC.num_actions).with_hidden(vec![8]);
    let device = cpu_device();
    Policy::new(&ActorCritic::new_seeded(&net, &device, seed).expect("valid network"), &device)
}

fn collect(cfg: &TrainConfig<Kessel>, weights: Vec<f64>) -> EpisodeStats {
    let current = policy(1);
    let pool = vec![policy(2), policy(3), policy(4)];
    let mut c = Collector::new(cfg, Kessel::SPEC, bots()).expect("collector");
    c.set_snapshot_weights(weights);
    c.reset_all(0);
    let mut stats = EpisodeStats::default();
    let mut rng = AgentRng::seed_from_u64(9);
    let batch = c.collect(&current, &pool, &mut rng, &mut stats).expect("rollout");
    assert!(batch.n > 0);
    stats
}

#[test]
fn prioritised_sampling_follows_the_weights_and_uniform_ignores_them() {
    let _one_at_a_time = crate::common::serial();
    let s = collect(&config("prioritised"), vec![0.0, 1.0, 0.0]);
    assert!(s.episodes > 20, "{}", s.episodes);
    assert_eq!(s.by_snapshot.keys().copied().collect::<Vec<_>>(), vec![1], "{:?}", s.by_snapshot);

    let s = collect(&config("uniform"), vec![0.0, 1.0, 0.0]);
    assert_eq!(s.by_snapshot.len(), 3, "uniform sampling uses every snapshot: {:?}", s.by_snapshot);
    let games: u64 = s.by_snapshot.values().map(|v| v.0).sum();
    assert!(games >= s.episodes, "every game has at least one snapshot opponent");
}

#[test]
fn games_are_drawn_from_every_table_size() {
    let _one_at_a_time = crate::common::serial();
    let s = collect(&config("uniform"), Vec::new());
    let two = s.by_opponent.keys().filter(|k| k.ends_with("_2p")).count();
    let three = s.by_opponent.keys().filter(|k| k.ends_with("_3p")).count();
    assert!(two > 0 && three > 0, "{:?}", s.by_opponent);
    let per_size =
        |suffix: &str| -> u64 { s.by_opponent.iter().filter(|(k, _)| k.ends_with(suffix)).map(|(_, v)| v.0).sum() };
    // Uniform over two sizes: neither dominates (16 games x several episodes each).
    let (a, b) = (per_size("_2p"), per_size("_3p"));
    assert!(a * 3 > b && b * 3 > a, "2p {a} vs 3p {b}");
}

/// Two bots that play alike (uniformly random) under different names, so only the sampling
/// tells them apart.
struct TwoNames;

impl env::AgentBuilder<Kessel> for TwoNames {
    fn build(&self, spec: &str) -> Result<Box<dyn env::Agent<Kessel>>, String> {
        match spec {
            "greedy" | "random" => Ok(Box::new(env::RandomAgent)),
            other => Err(format!("unknown agent `{other}`")),
        }
    }
}

/// One rollout of `cfg` against the `TwoNames` bots, with the learner's record against them
/// given; the collector is returned for its logged shares.
fn bot_rollout(cfg: &TrainConfig<Kessel>, record: &[(&str, u64, f64)]) -> (Collector<Kessel>, EpisodeStats) {
    let (c, stats, _) = rollout_with(cfg, std::sync::Arc::new(TwoNames), record);
    (c, stats)
}

/// One rollout of `cfg` with the bots `bots` builds and the learner's record against them.
fn rollout_with(
    cfg: &TrainConfig<Kessel>,
    bots: train::BotFactory<Kessel>,
    record: &[(&str, u64, f64)],
) -> (Collector<Kessel>, EpisodeStats, train::rollout::Batch) {
    let mut c = Collector::new(cfg, Kessel::SPEC, bots).expect("collector");
    let record = record.iter().map(|&(b, g, w)| (b.to_string(), (g, w))).collect();
    c.set_bot_record(&record);
    c.reset_all(0);
    let mut stats = EpisodeStats::default();
    let mut rng = AgentRng::seed_from_u64(9);
    let batch = c.collect(&policy(1), &[], &mut rng, &mut stats).expect("rollout");
    (c, stats, batch)
}

/// Games per bot, and games with a self-play opponent, over one rollout of a mix of
/// `latest` 1 : `greedy` 1 : `random` 1 with the learner's record against the bots given.
fn bot_games(sampling: &str, record: &[(&str, u64, f64)]) -> (u64, u64, u64) {
    let cfg = TrainConfig::<Kessel>::from_toml(&format!(
        r#"
        seed = 5
        players = 2
        num_envs = 16
        num_steps = 300
        hidden = [8]
        bot_sampling = "{sampling}"
        [opponents]
        latest = 1.0
        greedy = 1.0
        random = 1.0
        "#
    ))
    .expect("valid config");
    let (_, stats) = bot_rollout(&cfg, record);
    let games = |b: &str| stats.by_bot.get(b).map_or(0, |v| v.0);
    (games("greedy"), games("random"), stats.episodes - games("greedy") - games("random"))
}

#[test]
fn prioritised_bot_sampling_favours_the_bots_the_learner_loses_to_and_keeps_self_play_share() {
    let _one_at_a_time = crate::common::serial();
    // The learner beat `random` 99 times in 100 and `greedy` once in 100.
    let record = [("random", 100, 99.0), ("greedy", 100, 1.0)];
    let (greedy, random, selfplay) = bot_games("prioritised", &record);
    assert!(greedy > 10 * random.max(1), "greedy {greedy}, random {random}");
    let (g_fixed, r_fixed, s_fixed) = bot_games("fixed", &record);
    assert!(r_fixed * 2 > g_fixed && g_fixed * 2 > r_fixed, "fixed weights ignore the record: {g_fixed} vs {r_fixed}");
    // Self-play keeps about a third of the games either way (the bots' total weight is kept).
    for (s, total) in [(selfplay, greedy + random + selfplay), (s_fixed, g_fixed + r_fixed + s_fixed)] {
        let share = s as f64 / total as f64;
        assert!((0.2..0.47).contains(&share), "self-play share {share:.2} of {total}");
    }
}

#[test]
fn prioritised_bot_sampling_without_a_record_keeps_the_configured_weights() {
    let _one_at_a_time = crate::common::serial();
    let (greedy, random, _) = bot_games("prioritised", &[]);
    assert!(random * 2 > greedy && greedy * 2 > random, "{greedy} vs {random}");
}

#[test]
fn a_table_size_with_its_own_mix_seats_only_its_opponents() {
    let _one_at_a_time = crate::common::serial();
    let cfg = TrainConfig::<Kessel>::from_toml(
        r#"
        seed = 7
        players = 3
        table_sizes = [2, 3]
        num_envs = 16
        num_steps = 200
        hidden = [8]
        bot_sampling = "prioritised"
        [opponents]
        greedy = 1.0
        [table_opponents.3]
        random = 3.0
        latest = 1.0
        "#,
    )
    .expect("valid config");
    let (c, stats) = bot_rollout(&cfg, &[]);
    let labels: Vec<&String> = stats.by_opponent.keys().collect();
    // Heads-up games meet only `opponents`; three-seat games only their own mix.
    assert!(labels.iter().any(|l| l.as_str() == "greedy_2p"), "{labels:?}");
    assert!(labels.iter().any(|l| l.as_str() == "random_3p"), "{labels:?}");
    // One label per opponent kind, never one per combination of a table's opponents; a game
    // counts once for each kind that sat in it.
    assert!(labels.iter().all(|l| !l.contains('+')), "{labels:?}");
    let counted: u64 = stats.by_opponent.values().map(|v| v.0).sum();
    assert!(counted > stats.episodes, "three-seat games of `random` and `latest` count for both: {counted}");
    for l in &labels {
        match l.strip_suffix("_2p") {
            Some(who) => assert_eq!(who, "greedy", "{labels:?}"),
            None => assert!(l.ends_with("_3p") && !l.contains("greedy"), "{labels:?}"),
        }
    }
    // The logged shares are per mix, each summing to one.
    let shares = c.mix_shares();
    let names: Vec<&str> = shares.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(names, ["greedy_2p", "random_3p", "latest_3p"], "in the order written");
    let three: f64 = shares.iter().filter(|(l, _)| l.ends_with("_3p")).map(|(_, s)| s).sum();
    assert!((three - 1.0).abs() < 1e-9 && (shares[0].1 - 1.0).abs() < 1e-9, "{shares:?}");
    assert!((shares[1].1 - 0.75).abs() < 1e-9, "{shares:?}");
}

/// Plays the first legal action: unlike `random`, so which opponent sits where shows in the
/// learner's games.
struct FirstLegal;

impl env::Agent<Kessel> for FirstLegal {
    fn name(&self) -> &str {
        "first-legal"
    }

    fn act(
        &mut self,
        _view: &<Kessel as env::Game>::View,
        legal: <Kessel as env::Game>::Mask,
        _rng: &mut AgentRng,
    ) -> Result<<Kessel as env::Game>::Action, env::AgentError> {
        legal
            .nth_index(0)
            .and_then(<Kessel as env::Game>::Action::from_index)
            .ok_or_else(|| env::AgentError::new("first-legal", "no legal action"))
    }
}

/// `aggressive` and `tight` are two names for one player here (the first legal action);
/// `greedy` plays at random. The two names sort on either side of `greedy` and `latest`.
struct Aliases;

impl env::AgentBuilder<Kessel> for Aliases {
    fn build(&self, spec: &str) -> Result<Box<dyn env::Agent<Kessel>>, String> {
        match spec {
            "aggressive" | "tight" => Ok(Box::new(FirstLegal)),
            "greedy" => Ok(Box::new(env::RandomAgent)),
            other => Err(format!("unknown agent `{other}`")),
        }
    }
}

#[test]
fn renaming_an_opponent_keeps_the_run_because_mixes_are_drawn_in_the_order_written() {
    let _one_at_a_time = crate::common::serial();
    let run = |name: &str| {
        let cfg = TrainConfig::<Kessel>::from_toml(&format!(
            r#"
            seed = 11
            players = 2
            num_envs = 16
            num_steps = 200
            hidden = [8]
            [opponents]
            {name} = 1.0
            greedy = 1.0
            latest = 1.0
            "#
        ))
        .expect("valid config");
        assert_eq!(cfg.opponents.keys().map(String::as_str).collect::<Vec<_>>(), [name, "greedy", "latest"]);
        let (_, stats, batch) = rollout_with(&cfg, std::sync::Arc::new(Aliases), &[]);
        let renamed = stats.by_bot.get(name).copied();
        (batch.actions, batch.ret, renamed, stats.by_bot.get("greedy").copied(), stats.episodes)
    };
    let (aggressive, tight) = (run("aggressive"), run("tight"));
    assert!(
        aggressive.2.is_some_and(|(games, _)| games > 0) && aggressive.3.is_some_and(|(games, _)| games > 0),
        "{aggressive:?}"
    );
    // The same seed seats the same players in the same games whatever the first one is called.
    assert_eq!(aggressive.0, tight.0, "actions");
    assert_eq!(aggressive.1, tight.1, "returns");
    assert_eq!((aggressive.2, aggressive.3, aggressive.4), (tight.2, tight.3, tight.4), "games per opponent");
}
