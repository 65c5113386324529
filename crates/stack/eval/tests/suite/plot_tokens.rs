//! The token plot's per-agent rates: plays divided by each agent's seat-games, not by games.

use eval::GameRecord;
use eval::report::{Report, ReportSettings, notes_for};
use eval::stats;
use games::kessel::{Kessel, RuleConfig};

/// Two agents at four seats, two seats each: both sit at every table.
fn two_by_two(win: [f64; 4], standing: [f64; 4], index: u64) -> GameRecord {
    GameRecord {
        index,
        deal: index,
        seat_agent: vec![0, 1, 0, 1],
        win: win.to_vec(),
        truncated: false,
        rounds: 2,
        survived: vec![2; 4],
        chips: vec![3; 4],
        standing: standing.to_vec(),
        tracked_plays: Vec::new(),
        unplayed: vec![0; 4],
    }
}

#[test]
fn token_plot_divides_by_each_agents_seat_games() {
    let games = vec![two_by_two([1.0, 0.0, 0.0, 0.0], [3.0, 1.0, 2.0, 0.0], 0)];
    let st = stats::compute(&["A".to_string(), "B".to_string()], &games, &games::kessel::token::TOKEN_NAMES, 20, 1);
    let r = Report {
        settings: ReportSettings {
            game: "kessel".into(),
            agents: vec!["A".into(), "B".into()],
            lineup: vec!["A".into(), "B".into()],
            players: 4,
            games_requested: 1,
            games: 1,
            deals: 1,
            seatings: 1,
            seed: 1,
            rules: RuleConfig::with_players(4),
        },
        stats: st,
        notes: notes_for::<Kessel>(),
    };
    // One game, two seats each: two seat-games per agent, not one game.
    assert_eq!(eval::plot::token_rates(&r), vec![2.0, 2.0]);
}
