//! The statistics and the JSON report against a small tournament counted by hand.

use eval::arena::{ArenaConfig, ArenaResult, GameRecord, SeatingPlan};
use eval::stats::{self, wilson};
use game::TrackedPlay;
use games::kessel::Kessel;
use games::kessel::{RuleConfig, Token, TokenSet};

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

fn set(ts: &[Token]) -> u32 {
    u32::from(ts.iter().copied().collect::<TokenSet>().0)
}

/// A Shift Token play as the arena records it.
fn play(seat: u8, token: Token, round: u16, turn: u8) -> TrackedPlay {
    TrackedPlay { seat, kind: token.index() as u8, round, turn }
}

/// Five heads-up games between agent 0 ("A") and agent 1 ("B"):
/// - g0: A (seat 0) wins; A played Refund in round 1, turn 2; B still held Refund.
/// - g1: B (seat 0) wins; A (seat 1) was eliminated in round 2 after playing Embargo (round 2, turn 1).
/// - g2: A (seat 0) wins.
/// - g3: B (seat 0) and A (seat 1) share the win (½ each).
/// - g4: truncated; A (seat 0) ends with 3 chips, B with 2; A still held Refund.
fn games() -> Vec<GameRecord> {
    let rec = |index: u64, seat_agent: Vec<usize>, win: Vec<f64>, truncated: bool, standing: Vec<f64>| GameRecord {
        index,
        deal: index / 2,
        seat_agent,
        win,
        truncated,
        rounds: 2,
        survived: vec![2, 2],
        chips: vec![0, 0],
        standing,
        tracked_plays: vec![],
        unplayed: vec![0; 2],
    };
    let mut g0 = rec(0, vec![0, 1], vec![1.0, 0.0], false, vec![1e6, 1.0]);
    g0.tracked_plays.push(play(0, Token::Refund, 1, 2));
    g0.unplayed[1] = set(&[Token::Refund, Token::Immunity]);
    g0.chips = vec![5, 0];
    g0.survived = vec![1, 1];
    let mut g1 = rec(1, vec![1, 0], vec![1.0, 0.0], false, vec![1e6, 2.0]);
    g1.tracked_plays.push(play(1, Token::Embargo, 2, 1));
    let g2 = rec(2, vec![0, 1], vec![1.0, 0.0], false, vec![1e6, 2.0]);
    let g3 = rec(3, vec![1, 0], vec![0.5, 0.5], false, vec![1e6, 1e6]);
    let mut g4 = rec(4, vec![0, 1], vec![0.0, 0.0], true, vec![1003.0, 1002.0]);
    g4.chips = vec![3, 2];
    g4.unplayed[0] = set(&[Token::Refund]);
    vec![g0, g1, g2, g3, g4]
}

#[test]
fn wilson_matches_the_closed_form() {
    let (lo, hi) = wilson(3.0, 4.0);
    close(lo, 0.30064184258240184);
    close(hi, 0.9544127391902995);
    let (lo, hi) = wilson(0.0, 4.0);
    close(lo, 0.0);
    close(hi, 0.4898908364545973);
}

#[test]
fn hand_counted_tournament() {
    let names = vec!["A".to_string(), "B".to_string()];
    let s = stats::compute(&names, &games(), &games::kessel::token::TOKEN_NAMES, 50, 7);
    assert_eq!(s.games, 5);
    assert_eq!(s.truncated_games, 1);
    let a = &s.agents[0];
    let b = &s.agents[1];
    assert_eq!((a.games, b.games), (5, 5));
    close(a.wins, 2.5);
    close(a.win_rate, 0.5);
    close(a.ci_low, 0.17042358064358776);
    close(a.ci_high, 0.8295764193564122);
    close(b.win_rate, 0.3);
    close(b.ci_low, 0.07258403998566332);
    close(b.ci_high, 0.7012089459276065);
    assert_eq!(a.truncated, 1);
    close(a.mean_final_chips, (5.0 + 3.0) / 5.0);
    close(a.mean_rounds_survived, (1.0 + 2.0 * 4.0) / 5.0);
    // Per seat: A at seat 0 in g0, g2, g4 (2 wins of 3); at seat 1 in g1, g3 (½ of 2).
    let s0 = a.per_seat.iter().find(|x| x.seat == 0).unwrap();
    assert_eq!(s0.rate.games, 3);
    close(s0.rate.win_rate, 2.0 / 3.0);
    close(s0.rate.ci_low, 0.20765960080204765);
    close(s0.rate.ci_high, 0.9385080552796037);
    let s1 = a.per_seat.iter().find(|x| x.seat == 1).unwrap();
    close(s1.rate.win_rate, 0.25);
    close(s1.rate.ci_low, 0.02667734200898464);
    close(s1.rate.ci_high, 0.8021325442376889);
    // Per opponent: heads-up, every game had B at the table.
    assert_eq!(a.per_opponent.len(), 1);
    assert_eq!(a.per_opponent[0].opponent, "B");
    close(a.per_opponent[0].rate.win_rate, 0.5);
    // Head to head: A ahead in g0, g2, g4, tie in g3 → 3.5 / 5.
    close(s.head_to_head.rate[0][1].unwrap(), 0.7);
    close(s.head_to_head.rate[1][0].unwrap(), 0.3);
    assert_eq!(s.head_to_head.rate[0][0], None);
    assert_eq!(s.head_to_head.pairs[0][1], 5);
    // Bradley–Terry with one virtual tie: 4 : 2 → strength ratio 2 → ±200·log10(2).
    close(a.rating, 60.20599913279624);
    close(b.rating, -60.20599913279624);
    assert!(a.rating_low <= a.rating && a.rating <= a.rating_high);
    // Tokens.
    let refund = s.tokens.iter().find(|t| t.token == "refund").unwrap();
    assert_eq!(refund.plays, 1);
    assert_eq!(refund.by_turn, [0, 1, 0]);
    assert_eq!(refund.by_round[0], 1);
    assert_eq!(refund.by_agent, vec![1, 0]);
    close(refund.mean_round, 1.0);
    close(refund.plays_per_game, 0.2);
    assert_eq!(refund.when_played.games, 1);
    close(refund.when_played.win_rate, 1.0);
    assert_eq!(refund.when_held.games, 2); // B in g0, A in g4
    close(refund.when_held.win_rate, 0.0);
    let embargo = s.tokens.iter().find(|t| t.token == "embargo").unwrap();
    assert_eq!((embargo.plays, embargo.by_turn, embargo.by_round[1]), (1, [1, 0, 0], 1));
    assert_eq!(embargo.when_played.games, 1);
    close(embargo.when_played.win_rate, 0.0);
    assert_eq!(embargo.when_held.games, 0);
    let immunity = s.tokens.iter().find(|t| t.token == "immunity").unwrap();
    assert_eq!((immunity.plays, immunity.when_held.games), (0, 1));
    assert_eq!(s.tokens.len(), 16);
}

#[test]
fn json_report_carries_the_hand_counted_figures() {
    let cfg = ArenaConfig::<Kessel> {
        agents: vec!["A".into(), "B".into()],
        players: 2,
        games: 5,
        seed: 7,
        rules: RuleConfig::with_players(2),
        seating: SeatingPlan::Every,
    };
    let res = ArenaResult {
        names: vec!["A".into(), "B".into()],
        lineup: vec!["A".into(), "B".into()],
        seatings: eval::arena::seatings(2),
        deals: 3,
        games: games(),
    };
    let report = eval::report::build(&cfg, &res);
    let j: serde_json::Value = serde_json::to_value(&report).unwrap();
    let agents = j["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 2);
    assert_eq!(agents[0]["name"], "A");
    assert_eq!(agents[0]["games"], 5);
    close(agents[0]["win_rate"].as_f64().unwrap(), 0.5);
    close(agents[0]["ci_low"].as_f64().unwrap(), 0.17042358064358776);
    close(agents[0]["ci_high"].as_f64().unwrap(), 0.8295764193564122);
    close(agents[1]["win_rate"].as_f64().unwrap(), 0.3);
    close(agents[0]["rating"].as_f64().unwrap(), 60.20599913279624);
    assert_eq!(j["truncated_games"], 1);
    assert_eq!(j["settings"]["games"], 5);
    close(j["head_to_head"]["rate"][0][1].as_f64().unwrap(), 0.7);
    let md = eval::report::markdown(&report);
    assert!(md.contains("| A | 5 | 2.5 | 50.0% | 17.0% – 83.0% |"), "{md}");
    // Reports and plots can be written.
    let dir = std::env::temp_dir().join(format!("eval-report-test-{}", std::process::id()));
    eval::output::write_all(&report, &dir).unwrap();
    for f in ["report.json", "report.md", "ratings.png", "head_to_head.png", "tokens.png"] {
        assert!(dir.join(f).metadata().unwrap().len() > 0, "{f}");
    }
    // Everything was written atomically: no temporary file is left beside the results.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    let back: eval::Report<RuleConfig> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(back.stats.agents[0].games, 5);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bootstrap resamples deals, not games: when every game comes from one deal, each resample
/// is the whole tournament and the interval has no width; the same games as separate deals give
/// a real interval.
#[test]
fn rating_bootstrap_resamples_whole_deals() {
    let mut one_deal = games();
    for g in &mut one_deal {
        g.deal = 0;
    }
    for (point, lo, hi) in stats::ratings(2, &one_deal, 200, 7) {
        close(lo, point);
        close(hi, point);
    }
    let mut own_deals = games();
    for (i, g) in own_deals.iter_mut().enumerate() {
        g.deal = i as u64;
    }
    let widths: Vec<f64> = stats::ratings(2, &own_deals, 200, 7).iter().map(|&(_, lo, hi)| hi - lo).collect();
    assert!(widths.iter().all(|&w| w > 1.0), "{widths:?}");
}

#[test]
fn the_wilson_interval_always_holds_the_estimate() {
    for n in 1..2000u32 {
        let n = f64::from(n);
        for wins in [0.0, 1.0, (n / 2.0).floor(), n - 1.0, n] {
            let (lo, hi) = wilson(wins, n);
            let p = wins / n;
            assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "{wins}/{n}: [{lo}, {hi}]");
        }
    }
    // Rounding used to leave 2.8e-17 here.
    assert_eq!(wilson(0.0, 7.0).0, 0.0);
    assert_eq!(wilson(7.0, 7.0).1, 1.0);
}
