//! The value study spread over shards of deals: shards played apart (in any order, uneven, empty,
//! reaching past the end) and merged give the single run's report field for field, bootstrap
//! ranks included, at several table sizes; bad ranges and shards of another study are refused
//! with errors naming what is wrong.

use games::kessel::{RuleConfig, Token};
use research::value::{self, Baseline, ValueConfig, ValueShard};

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn configs() -> Vec<ValueConfig> {
    vec![
        ValueConfig {
            players: 2,
            agents: strings(&["expert"]),
            focal: strings(&["greedy", "expert"]),
            tokens: vec![Token::Embargo, Token::Refund, Token::Markdown],
            baseline: Baseline::Removed,
            deals: 23,
            seed: 5,
            rules: RuleConfig::default(),
        },
        ValueConfig {
            players: 4,
            agents: strings(&["expert", "random"]),
            focal: strings(&["expert"]),
            tokens: vec![Token::Embargo, Token::Immunity],
            baseline: Baseline::Replaced,
            deals: 17,
            seed: 11,
            rules: RuleConfig::default(),
        },
        ValueConfig {
            players: 6,
            agents: strings(&["greedy"]),
            focal: strings(&["expert"]),
            tokens: vec![Token::FreeDraw, Token::GeneralAudit],
            baseline: Baseline::Removed,
            deals: 13,
            seed: 2,
            rules: RuleConfig::default(),
        },
    ]
}

fn shard(cfg: &ValueConfig, deals: std::ops::Range<u64>) -> ValueShard {
    let f = agents::Agents::new();
    let s = value::run_deals(cfg, &f, &|| {}, deals).unwrap();
    // Through JSON, as shards travel between machines.
    serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap()
}

#[test]
fn merged_shards_give_the_single_run_report_at_every_table_size() {
    let f = agents::Agents::new();
    for cfg in configs() {
        let whole = value::run(&cfg, &f, &|| {}).unwrap();
        let d = cfg.deals;
        // Uneven shards, one empty, one reaching past the end, merged out of order.
        let ranges = [5..9, 0..5, 9..9, 9..u64::MAX];
        let parts: Vec<ValueShard> = ranges.iter().map(|r| shard(&cfg, r.clone())).collect();
        let sizes: Vec<usize> = parts.iter().map(|p| p.deals.len()).collect();
        assert_eq!(sizes, [4, 5, 0, (d - 9) as usize], "{} seats", cfg.players);
        assert_eq!(parts[0].deals.first().map(|x| x.deal), Some(5));
        let merged = value::finish(&value::merge(parts.clone()).unwrap()).unwrap();
        assert_eq!(merged, whole, "{} seats", cfg.players);
        assert_eq!(serde_json::to_string(&merged).unwrap(), serde_json::to_string(&whole).unwrap());
        assert!(whole.tables.iter().flat_map(|t| &t.rows).all(|r| r.rank.is_some() && r.deals == d));
        // Another partition, in another order, gives the same report again.
        let other: Vec<ValueShard> = [(d / 2)..d, 0..1, 1..(d / 2)].iter().map(|r| shard(&cfg, r.clone())).collect();
        assert_eq!(value::finish(&value::merge(other).unwrap()).unwrap(), whole);
    }
}

#[test]
fn the_pairs_of_a_shard_are_the_single_runs_games() {
    // At 2 seats a win share is 0, 1/2 or 1, so the recorded winners are 0, 1 or 2, and the
    // focal seat's stock is within the table's chips.
    let cfg = &configs()[0];
    let s = shard(cfg, 0..cfg.deals);
    assert_eq!(s.deals.iter().map(|x| x.deal).collect::<Vec<_>>(), (0..cfg.deals).collect::<Vec<_>>());
    let total = 2 * RuleConfig::default().starting_chips;
    for x in &s.deals {
        assert_eq!(x.cells.len(), cfg.focal.len() * cfg.tokens.len());
        for p in &x.cells {
            assert!(p.winners.iter().all(|&w| w <= 2), "{p:?}");
            assert!(p.chips.iter().all(|&c| c <= total), "{p:?}");
        }
    }
    // Some pair has a winner in arm A, so the shares are carried, not left at their default.
    assert!(s.deals.iter().flat_map(|x| &x.cells).any(|p| p.winners[0] > 0));
}

#[test]
fn bad_ranges_and_shards_of_other_studies_are_refused() {
    let f = agents::Agents::new();
    let cfg = configs()[1].clone();
    let reversed = std::ops::Range { start: 7, end: 3 };
    let e = value::run_deals(&cfg, &f, &|| {}, reversed).unwrap_err().to_string();
    assert!(e.contains("7..3 is reversed"), "{e}");
    assert!(value::merge(Vec::new()).unwrap_err().to_string().contains("no shards"));
    let (a, b) = (shard(&cfg, 0..6), shard(&cfg, 6..17));
    let twice = value::merge(vec![a.clone(), b.clone(), a.clone()]).unwrap_err().to_string();
    assert!(twice.contains("deal 0 is in more than one shard"), "{twice}");
    // Missing deals: the report is refused, naming the first deal missing.
    let e = value::finish(&value::merge(vec![b.clone()]).unwrap()).unwrap_err().to_string();
    assert!(e.contains("hold 11 of the study's 17 deals") && e.contains("deal 0"), "{e}");
    let e = value::finish(&a).unwrap_err().to_string();
    assert!(e.contains("deal 6"), "{e}");
    // Another seed, another round limit: the error names both.
    let mut other = cfg.clone();
    other.seed += 1;
    other.rules.round_limit = 50;
    let c = shard(&other, 6..17);
    let e = value::merge(vec![a.clone(), c]).unwrap_err().to_string();
    assert!(e.contains("seed") && e.contains("rules.round_limit") && !e.contains("tokens"), "{e}");
    // A shard whose pairs do not fit its settings (edited by hand) is refused, not indexed.
    let mut bad = value::merge(vec![a, b]).unwrap();
    bad.deals[3].cells.pop();
    let e = value::finish(&bad).unwrap_err().to_string();
    assert!(e.contains("deal 3") && e.contains("1 pairs"), "{e}");
}

#[test]
fn differences_name_each_setting() {
    let a = configs()[0].clone();
    assert!(value::differences(&a, &a).is_empty());
    let mut b = a.clone();
    b.tokens.reverse();
    b.baseline = Baseline::Replaced;
    b.deals = 24;
    assert_eq!(value::differences(&a, &b), ["tokens", "baseline", "deals"]);
}

#[test]
fn shards_crossing_the_plans_batches_merge_into_the_single_run() {
    // 68,000 games: past one batch of the plan (study::BATCH), and the second shard's games of
    // the second token straddle the batch boundary.
    let cfg = ValueConfig {
        players: 2,
        agents: strings(&["random"]),
        focal: strings(&["random"]),
        tokens: vec![Token::Embargo, Token::Refund],
        baseline: Baseline::Removed,
        deals: 17_000,
        seed: 5,
        rules: RuleConfig::default(),
    };
    assert!(value::games(&cfg) > research::study::BATCH);
    let f = agents::Agents::new();
    let whole = value::run(&cfg, &f, &|| {}).unwrap();
    let parts: Vec<ValueShard> =
        [8_000..17_000, 0..8_000].iter().map(|r| value::run_deals(&cfg, &f, &|| {}, r.clone()).unwrap()).collect();
    assert_eq!(value::finish(&value::merge(parts).unwrap()).unwrap(), whole);
}
