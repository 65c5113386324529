//! Known answers of the token studies on small rigged tables: identical arms differ by exactly
//! 0, a focal agent that never plays tokens gives every token a value of exactly 0, the same
//! seed gives the same report whatever the thread count, and pairing narrows the intervals.

use env::{Agent, AgentBuilder, AgentError, AgentRng, RandomAgent};
use games::kessel::Kessel;
use games::kessel::{RuleConfig, Token, TokenSet};
use research::draft::{self, DraftConfig};
use research::loadouts::{self, LoadoutsConfig};
use research::study;
use research::value::{self, Baseline, ValueConfig};

/// A player that never plays a token: uniform over the legal actions that are not token plays.
struct NoTokens;

impl Agent<Kessel> for NoTokens {
    fn name(&self) -> &str {
        "no-tokens"
    }

    fn act(
        &mut self,
        _view: &games::kessel::PlayerView,
        legal: games::kessel::ActionMask,
        rng: &mut AgentRng,
    ) -> Result<games::kessel::Action, AgentError> {
        let mut m = legal;
        for t in Token::ALL {
            m.clear_index(games::kessel::Action::PlayToken(t).index());
        }
        RandomAgent::pick(m, rng)
            .and_then(games::kessel::Action::from_index)
            .ok_or_else(|| AgentError::new("no-tokens", "only token plays were offered"))
    }
}

/// The agents layer, plus `no-tokens`.
struct Builder(agents::Agents);

impl AgentBuilder<Kessel> for Builder {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<Kessel>>, String> {
        match spec {
            "no-tokens" => Ok(Box::new(NoTokens)),
            other => self.0.build::<Kessel>(other).map_err(|e| e.to_string()),
        }
    }
}

fn builder() -> Builder {
    Builder(agents::Agents::new())
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn value_cfg(players: u8, focal: &str, tokens: Vec<Token>, baseline: Baseline, deals: u64) -> ValueConfig {
    ValueConfig {
        players,
        agents: strings(&["expert"]),
        focal: strings(&[focal]),
        tokens,
        baseline,
        deals,
        seed: 7,
        rules: RuleConfig::default(),
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

#[test]
fn identical_loadouts_on_both_arms_differ_by_exactly_zero_on_every_deal() {
    let rules = RuleConfig::with_players(4);
    let names = strings(&["expert", "random"]);
    let deals = 48u64;
    // Game 2d and 2d + 1 are the two arms of deal d, with the very same focal loadout.
    let spec = |g: u64| {
        let deal = study::deal(3, g / 2, &rules);
        let (a, _, _) = value::arms(&rules, &deal, Token::Embargo, Baseline::Replaced);
        deal.game(&rules, a, study::seating(deal.focal, 4, 0, &[1, 0]), TokenSet::EMPTY)
    };
    let out = study::play(&names, 0..2 * deals, &spec, &builder(), &|| {}).unwrap();
    let mut wins = 0.0;
    for pair in out.chunks_exact(2) {
        assert_eq!(pair[0], pair[1], "the two arms of a deal played out differently");
        wins += pair[0].win.iter().sum::<f64>();
    }
    assert!(wins > 0.0, "the games were played to a result");
    let a: Vec<f64> = out.iter().step_by(2).map(|o| o.win[0]).collect();
    let p = eval::paired::paired(&a, &a);
    assert_eq!((p.diff, p.low, p.high), (0.0, 0.0, 0.0));
}

#[test]
fn a_token_disabled_by_the_rules_is_refused_naming_the_enabled_kinds() {
    let mut cfg = value_cfg(2, "expert", vec![Token::Embargo], Baseline::Removed, 10);
    cfg.rules.enabled_tokens.remove(Token::Embargo);
    let e = value::check(&cfg).unwrap_err().to_string();
    assert!(e.contains("`embargo` is not enabled") && e.contains("free-draw"), "{e}");
    let all = value::parse_tokens("all", &cfg.rules).unwrap();
    assert_eq!(all.len(), 15);
    assert!(!all.contains(&Token::Embargo));
}

#[test]
fn a_focal_agent_that_never_plays_tokens_values_every_token_at_exactly_zero() {
    for baseline in [Baseline::Removed, Baseline::Replaced] {
        let cfg = value_cfg(3, "no-tokens", Token::ALL.to_vec(), baseline, 12);
        let r = value::run(&cfg, &builder(), &|| {}).unwrap();
        assert_eq!(r.games, 16 * 12 * 2);
        for row in &r.tables[0].rows {
            assert_eq!(row.played_share, 0.0);
            for p in [&row.win, &row.chips] {
                assert_eq!((p.diff, p.low, p.high), (0.0, 0.0, 0.0), "{baseline:?} {}: {p:?}", row.token);
            }
        }
        // The focal seat was the token-less random player: it loses most games to expert.
        assert!(r.tables[0].rows.iter().all(|row| row.win.mean_a < 0.5));
    }
}

#[test]
fn a_study_repeated_with_the_same_seed_gives_the_same_report_whatever_the_threads() {
    let cfg = value_cfg(2, "expert", vec![Token::Refund, Token::Embargo], Baseline::Replaced, 40);
    let one = pool(1).install(|| value::run(&cfg, &builder(), &|| {})).unwrap();
    let two = pool(2).install(|| value::run(&cfg, &builder(), &|| {})).unwrap();
    assert_eq!(serde_json::to_string(&one).unwrap(), serde_json::to_string(&two).unwrap());
    let other = value::run(&ValueConfig { seed: 8, ..cfg }, &builder(), &|| {}).unwrap();
    assert_ne!(serde_json::to_string(&one).unwrap(), serde_json::to_string(&other).unwrap());

    let lcfg = LoadoutsConfig {
        players: 2,
        agents: strings(&["expert"]),
        focal: "expert".into(),
        loadouts: loadouts::parse_loadouts(
            "refund+embargo+immunity,markdown+free-draw+exhaustion,target-audit+extra-refund+refund",
            &RuleConfig::default(),
        )
        .unwrap(),
        budget: 60,
        delta: 0.05,
        seed: 1,
        rules: RuleConfig::default(),
    };
    let one = pool(1).install(|| loadouts::run(&lcfg, &builder(), &|| {})).unwrap();
    let two = pool(2).install(|| loadouts::run(&lcfg, &builder(), &|| {})).unwrap();
    assert_eq!(serde_json::to_string(&one).unwrap(), serde_json::to_string(&two).unwrap());

    let dcfg = DraftConfig {
        players: 3,
        agents: strings(&["expert", "random"]),
        deals: 30,
        seed: 2,
        rules: RuleConfig::default(),
    };
    let one = pool(1).install(|| draft::run(&dcfg, None, "none", &builder(), &|| {})).unwrap();
    let two = pool(2).install(|| draft::run(&dcfg, None, "none", &builder(), &|| {})).unwrap();
    assert_eq!(serde_json::to_string(&one).unwrap(), serde_json::to_string(&two).unwrap());
}

#[test]
fn pairing_gives_a_narrower_interval_than_unpaired_sampling_at_the_same_games() {
    let cfg = value_cfg(2, "expert", vec![Token::ExtraRefund, Token::TargetAudit], Baseline::Removed, 300);
    let r = value::run(&cfg, &builder(), &|| {}).unwrap();
    for row in &r.tables[0].rows {
        assert!(row.played_share > 0.0, "{}: expert played it", row.token);
        let (p, u) = (row.win.half_width(), row.win.unpaired_half_width());
        assert!(u > 0.0 && p < u, "{}: paired ±{p} vs unpaired ±{u}", row.token);
        let (p, u) = (row.chips.half_width(), row.chips.unpaired_half_width());
        assert!(u > 0.0 && p < u, "{} chips: paired ±{p} vs unpaired ±{u}", row.token);
    }
    assert!(r.tables[0].win_width_ratio < 1.0);
}

#[test]
fn a_loadout_race_spends_at_most_its_budget_and_ranks_every_loadout() {
    let rules = RuleConfig::default();
    assert_eq!(loadouts::all_loadouts(&rules).len(), 560);
    let list = loadouts::parse_loadouts(
        "refund+embargo+immunity,markdown+free-draw+exhaustion,target-audit+extra-refund+refund,cook-the-books+major-fraud+prime-sabacc",
        &rules,
    )
    .unwrap();
    // With a focal player that never plays tokens every loadout is worth the same: nobody is
    // eliminated (the differences are exactly 0), and the race spends its budget to within one
    // deal per seat for each loadout.
    let cfg = LoadoutsConfig {
        players: 2,
        agents: strings(&["expert"]),
        focal: "no-tokens".into(),
        loadouts: list,
        budget: 100,
        delta: 0.05,
        seed: 4,
        rules,
    };
    let r = loadouts::run(&cfg, &builder(), &|| {}).unwrap();
    assert!(r.games <= 100 && r.games > 100 - 2 * 4, "{}", r.games);
    assert_eq!((r.stopped.as_str(), r.survivors), ("budget spent", 4));
    assert_eq!(r.ranking.len(), 4);
    assert_eq!(r.rounds.iter().map(|x| x.games).sum::<u64>(), r.games);
    assert!(r.rounds.iter().all(|x| x.eliminated == 0 && x.deals % 2 == 0));
    assert_eq!(r.ranking.iter().map(|l| l.games).sum::<u64>(), r.games);
    for l in &r.ranking {
        assert_eq!((l.vs_top.diff, l.vs_top.low, l.vs_top.high), (0.0, 0.0, 0.0), "{}", l.loadout);
        assert!(l.eliminated_in_round.is_none());
    }
    assert_eq!(r.ranking[0].loadout, "refund+embargo+immunity");
}

#[test]
fn draft_counts_every_pick_by_order_and_expert_always_picks_the_same() {
    let cfg = DraftConfig {
        players: 2,
        agents: strings(&["expert", "random"]),
        deals: 24,
        seed: 9,
        rules: RuleConfig::default(),
    };
    let r = draft::run(&cfg, None, "none", &builder(), &|| {}).unwrap();
    assert_eq!(r.agents.len(), 2);
    for a in &r.agents {
        assert_eq!(a.seat_games, 24);
        for j in 0..3 {
            assert_eq!(a.kinds.iter().map(|k| k.by_order[j]).sum::<u64>(), 24, "{} pick {}", a.agent, j + 1);
        }
        assert!(a.spearman.is_none() && a.should_pick.is_empty());
    }
    let expert = &r.agents[0];
    let always: Vec<Token> = expert.kinds.iter().filter(|k| k.pick_rate == 1.0).map(|k| k.token).collect();
    assert_eq!(always.len(), 3, "{:?}", expert.kinds);
    assert_eq!(expert.kinds.iter().filter(|k| k.pick_rate == 0.0).count(), 13);
    let random = &r.agents[1];
    assert!(random.kinds.iter().filter(|k| k.pick_rate > 0.0).count() > 3);
}

#[test]
fn draft_sets_picks_beside_a_value_table() {
    let v = value::run(&value_cfg(2, "expert", Token::ALL.to_vec(), Baseline::Removed, 6), &builder(), &|| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    research::output::write_value(&v, dir.path()).unwrap();
    let read = draft::read_value(&dir.path().join("value.json")).unwrap();
    assert_eq!(read.settings, v.settings);
    for (a, b) in read.tables[0].rows.iter().zip(&v.tables[0].rows) {
        assert_eq!(a.token, b.token);
        assert!((a.win.diff - b.win.diff).abs() < 1e-12 && (a.win.high - b.win.high).abs() < 1e-12);
    }
    let cfg = DraftConfig { players: 2, agents: strings(&["expert"]), deals: 4, seed: 9, rules: RuleConfig::default() };
    let r = draft::run(&cfg, Some(&read), "file", &builder(), &|| {}).unwrap();
    let e = &r.agents[0];
    assert_eq!(e.should_pick.len(), 3);
    assert!(e.kinds.iter().all(|k| k.value.is_some() && k.value_rank.is_some()));
    let best = e.kinds.iter().find(|k| k.value_rank == Some(1)).unwrap();
    assert!(e.kinds.iter().all(|k| k.value.unwrap() <= best.value.unwrap()));
}

#[test]
fn bad_input_gets_an_error_naming_the_argument() {
    let rules = RuleConfig::default();
    let e = value::parse_tokens("embargo,embargoo", &rules).unwrap_err().to_string();
    assert!(e.contains("--tokens: unknown token `embargoo`") && e.contains("direct-transaction"), "{e}");
    let e = loadouts::parse_loadouts("embargo+embargo+refund", &rules).unwrap_err().to_string();
    assert!(e.contains("names `embargo` twice"), "{e}");
    let e = loadouts::parse_loadouts("embargo+refund", &rules).unwrap_err().to_string();
    assert!(e.contains("holds 2 kinds") && e.contains("tokens_per_player = 3"), "{e}");
    let e =
        loadouts::parse_loadouts("embargo+refund+immunity,refund+immunity+embargo", &rules).unwrap_err().to_string();
    assert!(e.contains("listed twice"), "{e}");
    let e = loadouts::parse_loadouts("embargo+refund+nope", &rules).unwrap_err().to_string();
    assert!(e.contains("unknown token `nope`") && e.contains("free-draw"), "{e}");

    let mut cfg = value_cfg(2, "expert", vec![Token::Embargo], Baseline::Removed, 0);
    let e = value::check(&cfg).unwrap_err().to_string();
    assert!(e.starts_with("--deals:"), "{e}");
    cfg.deals = 10;
    cfg.players = 9;
    assert!(value::check(&cfg).unwrap_err().to_string().starts_with("--players:"));
    cfg.players = 2;
    cfg.rules.tokens_per_player = 0;
    assert!(value::check(&cfg).unwrap_err().to_string().contains("tokens_per_player is 0"));

    let lcfg = LoadoutsConfig {
        players: 2,
        agents: strings(&["expert"]),
        focal: "expert".into(),
        loadouts: loadouts::all_loadouts(&rules),
        budget: 0,
        delta: 0.05,
        seed: 0,
        rules,
    };
    let e = loadouts::check(&lcfg).unwrap_err().to_string();
    assert!(e.starts_with("--budget: 0 games") && e.contains("at least 1120"), "{e}");
    for delta in [0.0, 1.0, -0.1, f64::NAN] {
        let e = loadouts::check(&LoadoutsConfig { budget: 2000, delta, ..lcfg.clone() }).unwrap_err().to_string();
        assert!(e.starts_with("--delta:"), "{e}");
    }
    let e = loadouts::run(&LoadoutsConfig { budget: 2000, focal: "experts".into(), ..lcfg }, &builder(), &|| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown agent `experts`"), "{e}");

    let dcfg = DraftConfig { players: 2, agents: strings(&["expert"]), deals: 0, seed: 0, rules };
    assert!(draft::check(&dcfg).unwrap_err().to_string().starts_with("--deals:"));
    let dir = tempfile::tempdir().unwrap();
    let bogus = dir.path().join("x.json");
    std::fs::write(&bogus, "{\"study\": \"loadouts\"}").unwrap();
    let e = draft::read_value(&bogus).unwrap_err().to_string();
    assert!(e.starts_with("--value") && e.contains("not a value study report"), "{e}");
}

#[test]
fn a_checkpoint_at_a_table_size_it_was_not_trained_for_gets_a_warning() {
    let ckpt = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../checkpoints/quick-4p").to_string();
    let at = |players: u8| study::fit_warnings(std::slice::from_ref(&ckpt), &RuleConfig::with_players(players));
    let w = at(2);
    assert!(w.iter().any(|w| w.starts_with("warning") && w.contains("now playing at 2 seats")), "{w:?}");
    assert!(at(4).iter().all(|w| !w.contains("seats")), "{:?}", at(4));
    assert!(study::fit_warnings(&strings(&["expert"]), &RuleConfig::with_players(2)).is_empty());
}

#[test]
fn the_four_seat_drafting_game_plays_every_profile_and_repeats_whatever_the_threads() {
    use research::field::{self, FieldConfig};
    let rules = RuleConfig::default();
    let kinds: Vec<Token> = rules.enabled_tokens.iter().collect();
    let candidates: Vec<TokenSet> = kinds.chunks(3).take(3).map(|c| c.iter().copied().collect()).collect();
    let cfg = FieldConfig { agent: "expert".into(), candidates, players: 4, deals: 6, resamples: 8, seed: 11, rules };
    assert_eq!(field::games(&cfg), 15 * 6, "C(3 + 4 - 1, 4) profiles of 6 deals");
    let b = builder();
    let one = pool(1).install(|| field::run(&cfg, &b, &|| {})).unwrap();
    let two = pool(2).install(|| field::run(&cfg, &b, &|| {})).unwrap();
    assert_eq!(one, two, "the same seed gives the same study on 1 and 2 threads");
    assert_eq!((one.games, one.profiles), (90, 15));
    let total: f64 = one.candidates.iter().map(|c| c.weight).sum();
    assert!((total - 1.0).abs() < 1e-9, "the equilibrium is a distribution: {total}");
    assert!(one.regret >= -1e-12);
    for c in &one.candidates {
        assert!((0.0..=1.0).contains(&c.vs_field), "{c:?}");
        assert!(c.gain_low <= c.gain_high && (0.0..=1.0).contains(&c.support_rate), "{c:?}");
    }
    // The table's mean against itself is a quarter at most (win shares of a game sum to 1, less
    // when it is cut off): the weighted gains sum to 0 by construction.
    let mean: f64 = one.candidates.iter().map(|c| c.weight * c.vs_field).sum();
    assert!(mean <= 0.25 + 1e-9, "{mean}");
    let weighted: f64 = one.candidates.iter().map(|c| c.weight * c.gain).sum();
    assert!(weighted.abs() < 1e-9, "{weighted}");
}

#[test]
fn the_duel_pairs_two_loadouts_in_one_seat_and_repeats_whatever_the_threads() {
    use research::duel::{self, DuelConfig};
    let rules = RuleConfig::default();
    let kinds: Vec<Token> = rules.enabled_tokens.iter().collect();
    let l: Vec<TokenSet> = kinds.chunks(3).take(3).map(|c| c.iter().copied().collect()).collect();
    let cfg = DuelConfig {
        agent: "expert".into(),
        players: 4,
        advised: l[0],
        rival: l[1],
        field: vec![(l[0], 0.7), (l[2], 0.3)],
        deals: 12,
        seed: 5,
        rules,
    };
    assert_eq!(duel::games(&cfg), 24, "each deal once per arm");
    let b = builder();
    let one = pool(1).install(|| duel::run(&cfg, &b, &|| {})).unwrap();
    let two = pool(2).install(|| duel::run(&cfg, &b, &|| {})).unwrap();
    assert_eq!(one, two, "the same seed gives the same duel on 1 and 2 threads");
    assert_eq!((one.deals, one.games, one.gain.n), (12, 24, 12));
    // The gain is the rival's win share minus the advised loadout's, deal by deal.
    assert!((one.gain.mean - (one.rival_win - one.advised_win)).abs() < 1e-12);
    assert!(one.gain.low <= one.gain.mean && one.gain.mean <= one.gain.high);
    assert_eq!(one.field, vec![(research::study::loadout_name(l[0]), 0.7), (research::study::loadout_name(l[2]), 0.3)]);

    // Swapping the arms negates every deal's difference.
    let swapped = DuelConfig { advised: l[1], rival: l[0], ..cfg.clone() };
    let s = pool(2).install(|| duel::run(&swapped, &b, &|| {})).unwrap();
    assert_eq!((s.advised_win, s.rival_win), (one.rival_win, one.advised_win));

    // Bad settings are refused with what to give.
    for (bad, want) in [
        (DuelConfig { rival: l[0], ..cfg.clone() }, "twice"),
        (DuelConfig { players: 2, ..cfg.clone() }, "give 3 to 6"),
        (DuelConfig { field: vec![], ..cfg.clone() }, "at least one loadout"),
        (DuelConfig { field: vec![(l[0], -1.0), (l[1], 2.0)], ..cfg.clone() }, "non-negative"),
        (DuelConfig { deals: 1, ..cfg.clone() }, "at least 2 deals"),
    ] {
        let err = duel::check(&bad).unwrap_err().to_string();
        assert!(err.contains(want), "{err}");
    }
}
