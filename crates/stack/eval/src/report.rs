//! Reports: `report.json` (the [`Report`] struct), `report.md`, and PNG plots (see
//! [`crate::plot`]; [`crate::output`] writes both).

use crate::arena::{ArenaConfig, ArenaResult};
use crate::stats::{self, Stats};
use env::Game;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// Bootstrap resamples used for rating intervals.
pub const BOOTSTRAP: usize = 200;

/// The settings a report was made with (`R`: the game's rule config).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportSettings<R> {
    /// The game (`kessel`, `classic`). Kessel's reports, the default game's, leave it out and so
    /// read as they always have.
    #[serde(default = "kessel", skip_serializing_if = "is_kessel")]
    pub game: String,
    /// Agent specs as given.
    pub agents: Vec<String>,
    /// The lineup (specs per lineup entry, after cycling).
    pub lineup: Vec<String>,
    /// Seats.
    pub players: u8,
    /// Games requested.
    pub games_requested: u64,
    /// Games played (whole deals).
    pub games: u64,
    /// Deals.
    pub deals: u64,
    /// Seatings per deal.
    pub seatings: usize,
    /// Base seed.
    pub seed: u64,
    /// The rules.
    pub rules: R,
}

fn kessel() -> String {
    games::GameId::default().name().to_string()
}

fn is_kessel(game: &str) -> bool {
    game == games::GameId::default().name()
}

/// The whole report (`report.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report<R> {
    /// Settings.
    pub settings: ReportSettings<R>,
    /// Statistics (flattened: `agents`, `head_to_head`, `tokens`, `games`, …).
    #[serde(flatten)]
    pub stats: Stats,
    /// The conventions behind the figures.
    pub notes: Vec<String>,
}

/// Conventions stated in every report of game `G` (in its words: rounds or hands, chips or
/// credits).
pub fn notes_for<G: Game>() -> Vec<String> {
    let (round, holdings) = (G::PROGRESS.trim_end_matches('s'), G::HOLDINGS);
    vec![
        "games are seat-games: an agent in two seats of a game counts it twice".into(),
        format!("a win shared by k players counts 1/k; truncated games ({round} limit) count as non-wins"),
        "95% intervals: Wilson score for win rates; bootstrap over games (200 resamples) for ratings".into(),
        format!(
            "head-to-head: rate at which the row agent finished ahead of the column agent (ties 1/2); \
             winners first, then (truncated games) by {holdings}, then by elimination {round}"
        ),
        "ratings: Bradley-Terry on the pairwise finished-ahead results (MM, one virtual tie per pair), Elo scale, mean 0".into(),
        "each deal (seed) is replayed under every seating (duplicate deals)".into(),
    ]
}

/// Builds the report from an arena result.
pub fn build<G: Game>(cfg: &ArenaConfig<G>, res: &ArenaResult) -> Report<G::Rules> {
    let stats = stats::compute(&res.names, &res.games, G::TRACKED_PLAYS, BOOTSTRAP, cfg.seed);
    let mut rules = cfg.rules;
    G::set_players(&mut rules, cfg.players);
    Report {
        settings: ReportSettings {
            game: G::SPEC.game.to_string(),
            agents: cfg.agents.clone(),
            lineup: res.lineup.clone(),
            players: cfg.players,
            games_requested: cfg.games,
            games: res.games.len() as u64,
            deals: res.deals,
            seatings: res.seatings.len(),
            seed: cfg.seed,
            rules,
        },
        stats,
        notes: notes_for::<G>(),
    }
}

/// Longest agent name the text reports print; longer ones are shortened ([`short_names`]).
pub const NAME_WIDTH: usize = 40;

/// The agents' names as the text and Markdown reports print them, so that columns hold: every
/// folder in a spec (`/home/me/kessel-rl/checkpoints/champion@argmax`) is cut to its last
/// components (`…/champion@argmax`), as few as keep the names apart, and a name still longer than
/// [`NAME_WIDTH`] loses its middle. Names that would then clash are kept whole. `report.json`
/// keeps the full names.
pub fn short_names(names: &[String]) -> Vec<String> {
    let max_depth = names.iter().map(|n| n.split('/').count()).max().unwrap_or(1);
    let mut out: Vec<String> = names.to_vec();
    for depth in 1..=max_depth {
        let tried: Vec<String> = names.iter().map(|n| fit_width(&shorten_paths(n, depth))).collect();
        if distinct(&tried) {
            out = tried;
            break;
        }
    }
    // Whatever still clashes (or got no shorter) is printed whole.
    (0..names.len())
        .map(|i| {
            let clash = (0..names.len()).any(|j| j != i && out[j] == out[i]);
            if clash || out[i].chars().count() >= names[i].chars().count() { names[i].clone() } else { out[i].clone() }
        })
        .collect()
}

fn distinct(names: &[String]) -> bool {
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort();
    sorted.windows(2).all(|w| w[0] != w[1])
}

/// `name` with each folder path in it cut to its last `depth` components.
fn shorten_paths(name: &str, depth: usize) -> String {
    // A spec's parts are joined by `+` (`search:8+DIR`, `mistakes:P+SPEC`); a folder may carry
    // a prefix (`classic:`) and a play mode (`@argmax`).
    name.split('+')
        .map(|part| {
            let (head, mode) = match part.rsplit_once('@') {
                Some((h, m)) if !m.contains('/') => (h, Some(m)),
                _ => (part, None),
            };
            let components: Vec<&str> = head.split('/').filter(|c| !c.is_empty()).collect();
            let short = if head.contains('/') && components.len() > depth {
                // A game prefix (`classic:/abs/path`) stays in front.
                let prefix = head.split_once(':').filter(|(p, _)| !p.contains('/')).map(|(p, _)| format!("{p}:"));
                format!("{}…/{}", prefix.unwrap_or_default(), components[components.len() - depth..].join("/"))
            } else {
                head.to_string()
            };
            match mode {
                Some(m) => format!("{short}@{m}"),
                None => short,
            }
        })
        .collect::<Vec<_>>()
        .join("+")
}

/// `name` cut in the middle to [`NAME_WIDTH`] characters when longer.
fn fit_width(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= NAME_WIDTH {
        return name.to_string();
    }
    let keep = NAME_WIDTH - 1;
    let front = keep / 2;
    let back = keep - front;
    let mut s: String = chars[..front].iter().collect();
    s.push('…');
    s.extend(&chars[chars.len() - back..]);
    s
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The printed name of each agent of a report ([`short_names`]).
struct Shortened(std::collections::HashMap<String, String>);

impl Shortened {
    fn of(st: &Stats) -> Shortened {
        let full: Vec<String> = st.agents.iter().map(|a| a.name.clone()).collect();
        Shortened(full.iter().cloned().zip(short_names(&full)).collect())
    }

    fn name<'a>(&'a self, full: &'a str) -> &'a str {
        self.0.get(full).map_or(full, String::as_str)
    }

    fn any(&self) -> bool {
        self.0.iter().any(|(f, s)| f != s)
    }
}

/// The Markdown report.
pub fn markdown<R>(r: &Report<R>) -> String {
    let s = &r.settings;
    let st = &r.stats;
    let short = Shortened::of(st);
    let mut m = String::new();
    let _ = writeln!(m, "# Evaluation report\n");
    let _ = writeln!(
        m,
        "{} games ({} deals × {} seatings) at {} seats, seed {}; agents: {}.\n",
        s.games,
        s.deals,
        s.seatings,
        s.players,
        s.seed,
        s.lineup.join(", ")
    );
    let _ = writeln!(
        m,
        "Mean game length {:.2} rounds; {} truncated games ({}).\n",
        st.mean_rounds,
        st.truncated_games,
        pct(st.truncated_games as f64 / st.games.max(1) as f64)
    );
    if short.any() {
        let _ = writeln!(m, "Names shortened in the tables (report.json keeps the full ones):\n");
        for (full, cut) in st.agents.iter().map(|a| (&a.name, short.name(&a.name))).filter(|(f, c)| f != c) {
            let _ = writeln!(m, "- `{cut}`: `{full}`");
        }
        let _ = writeln!(m);
    }
    let _ = writeln!(m, "## Agents\n");
    let _ = writeln!(
        m,
        "| agent | games | wins | win rate | 95% CI | rating | rating 95% CI | rounds survived | final chips | truncated |"
    );
    let _ = writeln!(m, "| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |");
    let mut order: Vec<usize> = (0..st.agents.len()).collect();
    order.sort_by(|&a, &b| st.agents[b].rating.total_cmp(&st.agents[a].rating));
    for &i in &order {
        let a = &st.agents[i];
        let _ = writeln!(
            m,
            "| {} | {} | {:.1} | {} | {} – {} | {:+.0} | {:+.0} – {:+.0} | {:.2} | {:.2} | {} |",
            short.name(&a.name),
            a.games,
            a.wins,
            pct(a.win_rate),
            pct(a.ci_low),
            pct(a.ci_high),
            a.rating,
            a.rating_low,
            a.rating_high,
            a.mean_rounds_survived,
            a.mean_final_chips,
            a.truncated
        );
    }
    let _ = writeln!(m, "\n## Win rate per seat\n");
    let _ = writeln!(m, "| agent | {} |", (0..s.players).map(|i| format!("seat {i}")).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(m, "| --- |{}", " ---: |".repeat(s.players as usize));
    for a in &st.agents {
        let cells: Vec<String> = (0..s.players)
            .map(|i| {
                a.per_seat.iter().find(|x| x.seat == i).map_or("–".into(), |x| {
                    format!("{} ({}–{})", pct(x.rate.win_rate), pct(x.rate.ci_low), pct(x.rate.ci_high))
                })
            })
            .collect();
        let _ = writeln!(m, "| {} | {} |", short.name(&a.name), cells.join(" | "));
    }
    per_opponent_table(&mut m, st, &short);
    let h = &st.head_to_head;
    let _ = writeln!(m, "\n## Head to head (row finished ahead of column)\n");
    let _ = writeln!(m, "| | {} |", h.names.iter().map(|n| short.name(n)).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(m, "| --- |{}", " ---: |".repeat(h.names.len()));
    for (i, n) in h.names.iter().enumerate() {
        let cells: Vec<String> = h.rate[i].iter().map(|x| x.map_or("–".into(), pct)).collect();
        let _ = writeln!(m, "| {} | {} |", short.name(n), cells.join(" | "));
    }
    if !st.tokens.is_empty() {
        token_tables(&mut m, r, &short);
    }
    let _ = writeln!(m, "\n## Conventions\n");
    for n in &r.notes {
        let _ = writeln!(m, "- {n}");
    }
    m
}

/// The Shift Token tables of a Kessel report.
fn token_tables<R>(m: &mut String, r: &Report<R>, short: &Shortened) {
    let (st, h) = (&r.stats, &r.stats.head_to_head);
    let _ = writeln!(m, "\n## Shift Tokens\n");
    let _ = writeln!(
        m,
        "| token | plays | per game | turn 1/2/3 | mean round | {} | win rate played | win rate held |",
        h.names.iter().map(|n| format!("by {}", short.name(n))).collect::<Vec<_>>().join(" | ")
    );
    let _ = writeln!(m, "| --- | ---: | ---: | --- | ---: |{} ---: | ---: |", " ---: |".repeat(h.names.len()));
    for t in &st.tokens {
        let _ = writeln!(
            m,
            "| {} | {} | {:.3} | {}/{}/{} | {:.2} | {} | {} (n={}) | {} (n={}) |",
            t.token,
            t.plays,
            t.plays_per_game,
            t.by_turn[0],
            t.by_turn[1],
            t.by_turn[2],
            t.mean_round,
            t.by_agent.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" | "),
            pct(t.when_played.win_rate),
            t.when_played.games,
            pct(t.when_held.win_rate),
            t.when_held.games
        );
    }
    let _ = writeln!(m, "\nPlays by round (rounds 1–10, then 11+):\n");
    for t in &st.tokens {
        let _ =
            writeln!(m, "- {}: {}", t.token, t.by_round.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" "));
    }
}

/// The per-opponent table. The win rate "with the opponent at the table" tells little once
/// every agent sits at every table (two agents at four seats, duplicate seatings): it is then
/// the overall win rate. So each row also gives how often the agent finished ahead of that
/// opponent, with a Wilson interval over the seat pairs compared, which separates the agents at
/// every table size.
fn per_opponent_table(m: &mut String, st: &Stats, short: &Shortened) {
    let h = &st.head_to_head;
    let _ = writeln!(m, "\n## Against each opponent\n");
    let _ = writeln!(
        m,
        "Finished ahead: share of seat pairs in which the agent finished ahead of the opponent (ties ½). \
         Win rate with it at the table: the agent's win rate in games the opponent also played; \
         \"every game\" marks an opponent present in all of the agent's games, where it equals the overall rate.\n"
    );
    let _ = writeln!(m, "| agent | opponent | seat pairs | finished ahead | 95% CI | win rate with it at the table |");
    let _ = writeln!(m, "| --- | --- | ---: | ---: | --- | --- |");
    for (i, a) in st.agents.iter().enumerate() {
        for (j, b) in h.names.iter().enumerate() {
            if i == j {
                continue;
            }
            let pairs = h.pairs.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0);
            let ahead = h.rate.get(i).and_then(|r| r.get(j)).copied().flatten();
            let (ahead_cell, ci_cell) = match ahead {
                Some(x) if pairs > 0 => {
                    let r = stats::Rate::new(x * pairs as f64, pairs);
                    (pct(x), format!("{} – {}", pct(r.ci_low), pct(r.ci_high)))
                }
                _ => ("–".to_string(), "–".to_string()),
            };
            let with = a.per_opponent.iter().find(|o| &o.opponent == b).map_or("–".to_string(), |o| {
                let every = if o.rate.games == a.games { ", every game" } else { "" };
                format!("{} ({} games{every})", pct(o.rate.win_rate), o.rate.games)
            });
            let (a_name, b_name) = (short.name(&a.name), short.name(b));
            let _ = writeln!(m, "| {a_name} | {b_name} | {pairs} | {ahead_cell} | {ci_cell} | {with} |");
        }
    }
}

/// Writes `bytes` to `path` atomically: into a temporary sibling, flushed to disk, then renamed
/// over `path`, so a reader (or a crash) sees the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Creates `dir` if needed and checks a file can be written into it, so a long evaluation
/// learns of a bad `--out` before its games, not after.
pub fn check_writable(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(&probe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::GameRecord;

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
    fn long_names_are_shortened_to_their_last_folders_and_kept_apart() {
        let names: Vec<String> = [
            "/home/someone/kessel-rl/checkpoints/champion@argmax",
            "search:64+/home/someone/kessel-rl/checkpoints/champion",
            "mistakes:20+/home/someone/kessel-rl/checkpoints/classic-champion@argmax",
            "expert",
        ]
        .map(String::from)
        .to_vec();
        let short = short_names(&names);
        assert_eq!(short[0], "…/champion@argmax");
        assert_eq!(short[1], "search:64+…/champion");
        assert_eq!(short[2], "mistakes:20+…/classic-champion@argmax");
        assert_eq!(short[3], "expert");
        assert!(short.iter().all(|n| n.chars().count() <= NAME_WIDTH), "{short:?}");
        // Two folders of one name are told apart by the folder above.
        let runs: Vec<String> = ["runs/a/checkpoint", "runs/b/checkpoint"].map(String::from).to_vec();
        assert_eq!(short_names(&runs), ["…/a/checkpoint", "…/b/checkpoint"]);
        // A name still too long loses its middle.
        let long = vec!["mistakes:5+search:256+/x/a-very-long-folder-name-for-one-run@argmax".to_string()];
        let cut = &short_names(&long)[0];
        assert_eq!(cut.chars().count(), NAME_WIDTH, "{cut}");
        assert!(cut.starts_with("mistakes:5+search:") && cut.ends_with("-one-run@argmax"), "{cut}");
        // Short names stay as they are.
        let plain: Vec<String> = ["checkpoints/x", "greedy"].map(String::from).to_vec();
        assert_eq!(short_names(&plain), ["…/x", "greedy"]);
    }

    #[test]
    fn per_opponent_table_separates_agents_that_share_every_table() {
        let games = vec![
            two_by_two([1.0, 0.0, 0.0, 0.0], [3.0, 1.0, 2.0, 0.0], 0),
            two_by_two([1.0, 0.0, 0.0, 0.0], [3.0, 1.0, 2.0, 0.0], 1),
            two_by_two([0.0, 1.0, 0.0, 0.0], [0.0, 3.0, 1.0, 2.0], 2),
        ];
        let st = stats::compute(&["A".to_string(), "B".to_string()], &games, &[], 20, 1);
        let mut m = String::new();
        per_opponent_table(&mut m, &st, &Shortened::of(&st));
        // A finished ahead of B in 8 of the 12 seat pairs; B was at every one of A's tables.
        assert!(m.contains("| A | B | 12 | 66.7% | "), "{m}");
        assert!(m.contains("(6 games, every game) |"), "{m}");
        assert!(m.contains("| B | A | 12 | 33.3% | "), "{m}");
    }
}
