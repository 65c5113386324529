//! The ship gate (docs/gate.md): a network replaces the present one only if, against a fixed
//! panel of opponents at every table size the panel lists, it is nowhere worse beyond the
//! intervals and somewhere better.
//!
//! A head-to-head win says little about the opponents neither network met: the Kessel
//! champions each beat the one before and slipped against three copies of other opponents. The
//! panel ([`Panel`], a TOML file such as `ladder/panel.toml`) names the opponents and the
//! tables; each agent plays every opponent at every table size, seated as one copy of itself
//! against `players − 1` copies of the opponent, in the arena (seat rotation, duplicate deals).
//!
//! - **Same games.** Every agent meets an opponent at a table on the same seed, so the same
//!   deals and seatings: the comparison of two agents is paired deal by deal.
//! - **Seatings.** A panel may play only the rotations of the table (`seatings = "rotations"`,
//!   [`SeatingPlan::Rotations`]): of the 24 seatings of one agent against three copies, only the
//!   4 that move the agent differ, so the same games buy six times the deals and intervals about
//!   2.4 times narrower.
//! - **Intervals.** An agent's win rate carries the arena's Wilson interval. The difference of
//!   two agents is the mean over deals of the difference of their win shares in that deal, with
//!   a Student-t 95 % interval from the deals' spread ([`crate::paired`]): the deal, not the
//!   game, is the independent unit (its games share the cards by design).
//! - **Verdict.** A cell is *better* when the difference's interval lies above 0, *worse* when it
//!   lies below, else *level*. A candidate passes when no cell is worse and at least one is
//!   better. With many cells a few land outside their 95 % intervals by chance, which only ever
//!   refuses a network: the gate errs towards keeping the present one.

use crate::arena::{self, ArenaConfig, ArenaError, SeatingPlan};
use crate::paired::paired;
use crate::stats::wilson;
use env::{AgentBuilder, Game};
use game::derive_seed;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use thiserror::Error;

/// Why a panel or a gate cannot be used.
#[derive(Debug, Error)]
pub enum GateError {
    /// The panel file is not a panel.
    #[error("panel: {0}")]
    Panel(String),
    /// Two panel results that were not played on the same panel.
    #[error("gate: {0}")]
    Mismatch(String),
    /// A game could not be played.
    #[error(transparent)]
    Arena(#[from] ArenaError),
}

/// The fixed opponents and tables of the gate (module documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Panel {
    /// The game's id (`kessel`, `classic`, …).
    pub game: String,
    /// Base seed: every cell's seed is derived from it, the opponent's place and the table size.
    pub seed: u64,
    /// The opponents, each played at every table.
    pub opponents: Vec<Opponent>,
    /// Table sizes and games per cell.
    pub tables: Vec<PanelTable>,
    /// The seatings each deal is played under (every seating when the file does not say).
    #[serde(default)]
    pub seatings: SeatingPlan,
}

/// One opponent of the panel: a spec (`expert`), or a spec with its own games per table
/// (`{ spec = "search", games = [4000, 2016] }`, one count per table in the panel's order) for an
/// opponent too slow to play as many games as the others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Opponent {
    /// An agent spec, played the table's games.
    Spec(String),
    /// An agent spec with its own games per table.
    WithGames {
        /// The agent spec.
        spec: String,
        /// Games per table, in the order of `tables`.
        games: Vec<u64>,
    },
}

impl Opponent {
    /// The agent spec.
    pub fn spec(&self) -> &str {
        match self {
            Opponent::Spec(s) | Opponent::WithGames { spec: s, .. } => s,
        }
    }

    /// The same opponent under another spec (a folder found elsewhere), keeping its games.
    pub fn with_spec(&self, spec: String) -> Opponent {
        match self {
            Opponent::Spec(_) => Opponent::Spec(spec),
            Opponent::WithGames { games, .. } => Opponent::WithGames { spec, games: games.clone() },
        }
    }
}

/// One table size of the panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PanelTable {
    /// Seats (2–8): the agent and `players − 1` copies of the opponent.
    pub players: u8,
    /// Games per cell (rounded up to whole deals by the arena).
    pub games: u64,
}

impl Panel {
    /// Reads a panel from TOML text and checks it.
    pub fn parse(text: &str) -> Result<Panel, GateError> {
        let p: Panel = toml::from_str(text).map_err(|e| GateError::Panel(e.to_string()))?;
        p.check()?;
        Ok(p)
    }

    /// Refuses a panel that cannot be played: no opponents or tables, a repeated opponent or
    /// table size, a size outside 2–8, a cell of no games.
    pub fn check(&self) -> Result<(), GateError> {
        if self.opponents.is_empty() {
            return Err(GateError::Panel("`opponents` lists no opponent".into()));
        }
        if self.tables.is_empty() {
            return Err(GateError::Panel("`tables` lists no table".into()));
        }
        for (i, o) in self.opponents.iter().enumerate() {
            let spec = o.spec();
            if spec.trim().is_empty() {
                return Err(GateError::Panel(format!("opponent {} is an empty spec", i + 1)));
            }
            if self.opponents[..i].iter().any(|p| p.spec() == spec) {
                return Err(GateError::Panel(format!("opponent `{spec}` is listed twice")));
            }
            if let Opponent::WithGames { games, .. } = o {
                if games.len() != self.tables.len() {
                    return Err(GateError::Panel(format!(
                        "opponent `{spec}` gives {} game counts for {} tables: one per table, in their order",
                        games.len(),
                        self.tables.len()
                    )));
                }
                if games.contains(&0) {
                    return Err(GateError::Panel(format!("opponent `{spec}` plays no games at a table")));
                }
            }
        }
        for (i, t) in self.tables.iter().enumerate() {
            if !(2..=8).contains(&t.players) {
                return Err(GateError::Panel(format!("a table of {} seats: a table seats 2 to 8", t.players)));
            }
            if t.games == 0 {
                return Err(GateError::Panel(format!("the {}-seat table plays no games", t.players)));
            }
            if self.tables[..i].iter().any(|u| u.players == t.players) {
                return Err(GateError::Panel(format!("the {}-seat table is listed twice", t.players)));
            }
        }
        Ok(())
    }

    /// The same panel with `games` games in every cell (a smoke run, or a quick look).
    pub fn with_games(&self, games: u64) -> Panel {
        let mut p = self.clone();
        for t in &mut p.tables {
            t.games = games;
        }
        p.opponents = p.opponents.iter().map(|o| Opponent::Spec(o.spec().to_string())).collect();
        p
    }

    /// Games requested in a cell: the opponent's own count at that table, else the table's.
    pub fn games(&self, opponent: usize, table: usize) -> u64 {
        match &self.opponents[opponent] {
            Opponent::WithGames { games, .. } => games[table],
            Opponent::Spec(_) => self.tables[table].games,
        }
    }

    /// The cells in play order: (opponent index, table index).
    fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.opponents.len()).flat_map(move |o| (0..self.tables.len()).map(move |t| (o, t)))
    }

    /// Games the arena plays for one agent over the whole panel (cells rounded to whole deals).
    pub fn games_per_agent(&self) -> u64 {
        self.cells().map(|(o, t)| arena::games_played(self.games(o, t), self.tables[t].players, self.seatings)).sum()
    }

    /// The seed of an opponent's cell at a table size (the same for every agent).
    pub fn cell_seed(&self, opponent: usize, players: u8) -> u64 {
        derive_seed(derive_seed(self.seed, opponent as u64), players as u64)
    }
}

/// One agent against one opponent at one table size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// The opponent's spec.
    pub opponent: String,
    /// Seats.
    pub players: u8,
    /// Games played (whole deals).
    pub games: u64,
    /// The agent's win rate (its win share over the games).
    pub win_rate: f64,
    /// Wilson 95 % interval of the win rate.
    pub ci_low: f64,
    /// Upper bound.
    pub ci_high: f64,
    /// The agent's mean win share in each deal, in deal order (the unit of the paired
    /// comparison).
    pub deal_shares: Vec<f64>,
}

/// One agent's results against the whole panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentPanel {
    /// The agent's spec.
    pub agent: String,
    /// Every cell, in the panel's order (opponents, then tables).
    pub cells: Vec<Cell>,
}

/// Plays `agent` against every opponent of `panel` at every table; `progress` is called after
/// every game.
pub fn play<G: Game>(
    agent: &str,
    panel: &Panel,
    rules: &G::Rules,
    factory: &dyn AgentBuilder<G>,
    progress: &(dyn Fn() + Sync),
) -> Result<AgentPanel, GateError> {
    panel.check()?;
    let mut cells = Vec::new();
    for (o, t) in panel.cells() {
        let opponent = panel.opponents[o].spec();
        let players = panel.tables[t].players;
        let mut agents = vec![agent.to_string()];
        agents.extend(std::iter::repeat_n(opponent.to_string(), players as usize - 1));
        let cfg = ArenaConfig::<G> {
            agents,
            players,
            games: panel.games(o, t),
            seed: panel.cell_seed(o, players),
            rules: *rules,
            seating: panel.seatings,
        };
        let res = arena::run(&cfg, factory, progress)?;
        cells.push(cell(opponent, players, &res));
    }
    Ok(AgentPanel { agent: agent.to_string(), cells })
}

/// The cell of a finished tournament whose lineup entry 0 is the agent.
fn cell(opponent: &str, players: u8, res: &arena::ArenaResult) -> Cell {
    let s = res.seatings.len();
    let focal: Vec<usize> =
        res.seatings.iter().map(|seating| seating.iter().position(|&e| e == 0).expect("entry 0 is seated")).collect();
    let mut deal_shares = vec![0.0; res.deals as usize];
    let mut wins = 0.0;
    for g in &res.games {
        let w = g.win[focal[g.index as usize % s]];
        wins += w;
        deal_shares[(g.index as usize) / s] += w / s as f64;
    }
    let n = res.games.len() as f64;
    let (ci_low, ci_high) = wilson(wins, n);
    Cell {
        opponent: opponent.to_string(),
        players,
        games: res.games.len() as u64,
        win_rate: if n > 0.0 { wins / n } else { 0.0 },
        ci_low,
        ci_high,
        deal_shares,
    }
}

/// How a candidate did against the present agent in one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The difference's interval lies above 0.
    Better,
    /// The interval holds 0.
    Level,
    /// The interval lies below 0.
    Worse,
}

/// One cell of a gate: the candidate's win rate minus the present agent's, on the same deals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// The opponent's spec.
    pub opponent: String,
    /// Seats.
    pub players: u8,
    /// Candidate's win rate minus the present agent's.
    pub difference: f64,
    /// 95 % interval of the difference (paired by deal).
    pub ci_low: f64,
    /// Upper bound.
    pub ci_high: f64,
    /// Where the interval lies.
    pub verdict: Verdict,
}

/// A candidate against the present agent over the whole panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gate {
    /// The present agent's spec.
    pub present: String,
    /// The candidate's spec.
    pub candidate: String,
    /// Every cell, in the panel's order.
    pub cells: Vec<Difference>,
    /// No cell worse and at least one better.
    pub passes: bool,
    /// Why, in a sentence.
    pub reason: String,
}

/// The paired difference `a − b` over deals with its 95 % interval ([`crate::paired`]), the
/// interval kept within `[-1, 1]`, the widest a difference of win shares can span (fewer than
/// two deals resolve nothing and give exactly that).
pub fn share_difference(a: &[f64], b: &[f64]) -> (f64, f64, f64) {
    let n = a.len().min(b.len());
    let p = paired(&a[..n], &b[..n]);
    (p.diff, p.low.max(-1.0), p.high.min(1.0))
}

/// Compares a candidate's panel results with the present agent's (played on the same panel).
pub fn compare(present: &AgentPanel, candidate: &AgentPanel) -> Result<Gate, GateError> {
    if present.cells.len() != candidate.cells.len() {
        return Err(GateError::Mismatch(format!(
            "`{}` has {} cells and `{}` {}: not the same panel",
            present.agent,
            present.cells.len(),
            candidate.agent,
            candidate.cells.len()
        )));
    }
    let mut cells = Vec::new();
    for (p, c) in present.cells.iter().zip(&candidate.cells) {
        if p.opponent != c.opponent || p.players != c.players || p.deal_shares.len() != c.deal_shares.len() {
            return Err(GateError::Mismatch(format!(
                "`{}` against `{}` at {} seats was not played on the same deals as `{}` against `{}` at {}",
                p.opponent, present.agent, p.players, c.opponent, candidate.agent, c.players
            )));
        }
        let (difference, ci_low, ci_high) = share_difference(&c.deal_shares, &p.deal_shares);
        let verdict = if ci_low > 0.0 {
            Verdict::Better
        } else if ci_high < 0.0 {
            Verdict::Worse
        } else {
            Verdict::Level
        };
        cells.push(Difference {
            opponent: p.opponent.clone(),
            players: p.players,
            difference,
            ci_low,
            ci_high,
            verdict,
        });
    }
    let count = |v: Verdict| cells.iter().filter(|c| c.verdict == v).count();
    let (better, worse) = (count(Verdict::Better), count(Verdict::Worse));
    let passes = worse == 0 && better > 0;
    let reason = match (better, worse) {
        (_, 0) if better > 0 => format!("better in {better} of {} cells and worse in none", cells.len()),
        (0, 0) => format!("level in all {} cells: better nowhere", cells.len()),
        _ => {
            let names: Vec<String> = cells
                .iter()
                .filter(|c| c.verdict == Verdict::Worse)
                .map(|c| format!("`{}` at {} seats", c.opponent, c.players))
                .collect();
            format!("worse against {} (better in {better})", names.join(", "))
        }
    };
    Ok(Gate { present: present.agent.clone(), candidate: candidate.agent.clone(), cells, passes, reason })
}

/// Which agents of a run are gated against which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GatePlan {
    /// Each agent against the one before it: a lineage, link by link.
    #[default]
    Chain,
    /// The last agent against each one before it: a candidate that must hold against several
    /// references at once (the present champion and an earlier one), each agent played once.
    Last,
}

impl GatePlan {
    /// The plan named `chain` or `last`.
    pub fn parse(name: &str) -> Result<GatePlan, String> {
        match name {
            "chain" => Ok(GatePlan::Chain),
            "last" => Ok(GatePlan::Last),
            other => Err(format!(
                "unknown gate plan `{other}`: `chain` (each agent against the one before it) or `last` (the last \
                 agent against each one before it)"
            )),
        }
    }

    /// The `(present, candidate)` agent indices of the gates among `agents` agents.
    pub fn pairs(self, agents: usize) -> Vec<(usize, usize)> {
        match self {
            GatePlan::Chain => (1..agents).map(|i| (i - 1, i)).collect(),
            GatePlan::Last => (0..agents.saturating_sub(1)).map(|i| (i, agents - 1)).collect(),
        }
    }
}

/// Everything one `sabacc gate` run found: the panel, each agent's results, and the gates its
/// plan asks for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateReport {
    /// The panel played.
    pub panel: Panel,
    /// Each agent's results, in the order given.
    pub agents: Vec<AgentPanel>,
    /// Which agents were gated against which (reports written before plans existed are chains).
    #[serde(default)]
    pub plan: GatePlan,
    /// The gates, in the order of [`GatePlan::pairs`].
    pub gates: Vec<Gate>,
}

impl GateReport {
    /// Builds the report: the gate of every agent against the one before it.
    pub fn new(panel: Panel, agents: Vec<AgentPanel>) -> Result<GateReport, GateError> {
        GateReport::with_plan(panel, agents, GatePlan::Chain)
    }

    /// Builds the report with the gates of `plan`.
    pub fn with_plan(panel: Panel, agents: Vec<AgentPanel>, plan: GatePlan) -> Result<GateReport, GateError> {
        let gates = plan
            .pairs(agents.len())
            .into_iter()
            .map(|(i, j)| compare(&agents[i], &agents[j]))
            .collect::<Result<_, _>>()?;
        Ok(GateReport { panel, agents, plan, gates })
    }

    /// Whether every gate passed.
    pub fn passes(&self) -> bool {
        self.gates.iter().all(|g| g.passes)
    }

    /// The report as Markdown: one table of win rates (a column per agent) with each gate's
    /// difference and verdict, then each gate's sentence.
    pub fn markdown(&self) -> String {
        let short = crate::report::short_names(&self.agents.iter().map(|a| a.agent.clone()).collect::<Vec<_>>());
        let mut s = String::new();
        let p = &self.panel;
        let _ = writeln!(s, "# Ship gate: {} (seed {})\n", p.game, p.seed);
        let _ = writeln!(
            s,
            "Win rate of each agent as one seat against the others filled by the opponent (95 % Wilson \
             intervals), and each gate's candidate minus the agent it is gated against on the same deals (95 % \
             interval, paired by deal): **+** better, **−** worse, blank level.\n"
        );
        let mut head = String::from("| opponent | seats | games |");
        let mut rule = String::from("| --- | ---: | ---: |");
        for n in &short {
            let _ = write!(head, " `{n}` |");
            rule.push_str(" --- |");
        }
        let pairs = self.plan.pairs(self.agents.len());
        for &(i, j) in &pairs {
            let _ = write!(head, " `{}` − `{}` |", short[j], short[i]);
            rule.push_str(" --- |");
        }
        let _ = writeln!(s, "{head}\n{rule}");
        for (i, c0) in self.agents.first().map(|a| a.cells.as_slice()).unwrap_or_default().iter().enumerate() {
            let mut row = format!("| `{}` | {} | {} |", c0.opponent, c0.players, c0.games);
            for a in &self.agents {
                let c = &a.cells[i];
                let _ =
                    write!(row, " {:.1} % [{:.1}, {:.1}] |", 100.0 * c.win_rate, 100.0 * c.ci_low, 100.0 * c.ci_high);
            }
            for g in &self.gates {
                let d = &g.cells[i];
                let mark = match d.verdict {
                    Verdict::Better => " **+**",
                    Verdict::Worse => " **−**",
                    Verdict::Level => "",
                };
                let _ = write!(
                    row,
                    " {:+.1} [{:+.1}, {:+.1}]{mark} |",
                    100.0 * d.difference,
                    100.0 * d.ci_low,
                    100.0 * d.ci_high
                );
            }
            let _ = writeln!(s, "{row}");
        }
        for (g, &(i, j)) in self.gates.iter().zip(&pairs) {
            let verdict = if g.passes { "passes" } else { "does not pass" };
            let _ = writeln!(s, "\n`{}` against `{}`: **{verdict}**, {}.", short[j], short[i], g.reason);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel_cell(opponent: &str, shares: &[f64]) -> Cell {
        Cell {
            opponent: opponent.into(),
            players: 2,
            games: 2 * shares.len() as u64,
            win_rate: shares.iter().sum::<f64>() / shares.len() as f64,
            ci_low: 0.0,
            ci_high: 1.0,
            deal_shares: shares.to_vec(),
        }
    }

    fn agent(name: &str, cells: Vec<Cell>) -> AgentPanel {
        AgentPanel { agent: name.into(), cells }
    }

    #[test]
    fn the_share_difference_is_the_paired_mean_with_its_student_t_interval() {
        // Differences 0.1, 0.3, 0.2, 0.4: mean 0.25, sample variance 1/60, se = sqrt(1/240),
        // t(3) = 3.182.
        let (m, lo, hi) = share_difference(&[0.6, 0.8, 0.7, 0.9], &[0.5, 0.5, 0.5, 0.5]);
        let half = 3.182 * (1.0f64 / 240.0).sqrt();
        assert!((m - 0.25).abs() < 1e-12);
        assert!((lo - (0.25 - half)).abs() < 1e-12 && (hi - (0.25 + half)).abs() < 1e-12);
        // One deal, or none, resolves nothing: the widest interval a share difference has.
        assert_eq!(share_difference(&[1.0], &[0.0]), (1.0, -1.0, 1.0));
        assert_eq!(share_difference(&[], &[]), (0.0, -1.0, 1.0));
        // A wide interval is clipped to what shares allow.
        let (_, lo, hi) = share_difference(&[1.0, 0.0], &[0.0, 1.0]);
        assert_eq!((lo, hi), (-1.0, 1.0));
    }

    #[test]
    fn a_candidate_passes_only_when_better_somewhere_and_worse_nowhere() {
        let present = agent("old", vec![panel_cell("a", &[0.5; 8]), panel_cell("b", &[0.5; 8])]);
        let up = [0.6, 0.7, 0.6, 0.7, 0.6, 0.7, 0.6, 0.7];
        let down = [0.4, 0.3, 0.4, 0.3, 0.4, 0.3, 0.4, 0.3];
        let better = agent("new", vec![panel_cell("a", &up), panel_cell("b", &[0.5; 8])]);
        let g = compare(&present, &better).unwrap();
        assert!(g.passes, "{}", g.reason);
        assert_eq!(g.cells[0].verdict, Verdict::Better);
        assert_eq!(g.cells[1].verdict, Verdict::Level);

        let mixed = agent("new", vec![panel_cell("a", &up), panel_cell("b", &down)]);
        let g = compare(&present, &mixed).unwrap();
        assert!(!g.passes);
        assert!(g.reason.contains("worse against `b` at 2 seats"), "{}", g.reason);

        // The present agent against itself: level everywhere, so it does not pass.
        let g = compare(&present, &present.clone()).unwrap();
        assert!(!g.passes && g.cells.iter().all(|c| c.verdict == Verdict::Level), "{}", g.reason);
    }

    #[test]
    fn results_of_different_panels_are_refused() {
        let a = agent("x", vec![panel_cell("a", &[0.5; 4])]);
        let b = agent("y", vec![panel_cell("b", &[0.5; 4])]);
        assert!(matches!(compare(&a, &b), Err(GateError::Mismatch(_))));
        let c = agent("y", vec![panel_cell("a", &[0.5; 5])]);
        assert!(matches!(compare(&a, &c), Err(GateError::Mismatch(_))));
        let d = agent("y", vec![]);
        assert!(matches!(compare(&a, &d), Err(GateError::Mismatch(_))));
    }

    #[test]
    fn bad_panels_are_refused_with_a_reason() {
        let ok = "game = \"kessel\"\nseed = 1\nopponents = [\"expert\"]\ntables = [{ players = 2, games = 10 }]\n";
        assert!(Panel::parse(ok).is_ok());
        // A slow opponent plays its own games; a quick look overrides every count.
        let own = "game = \"k\"\nseed = 1\nopponents = [\"a\", { spec = \"b\", games = [6, 7] }]\n\
                   tables = [{ players = 2, games = 10 }, { players = 4, games = 48 }]\n";
        let p = Panel::parse(own).unwrap();
        assert_eq!((p.games(0, 0), p.games(0, 1), p.games(1, 0), p.games(1, 1)), (10, 48, 6, 7));
        assert_eq!(p.games_per_agent(), 10 + 48 + 6 + 24);
        let q = p.with_games(2);
        assert_eq!((q.games(1, 0), q.games(1, 1)), (2, 2));
        for (text, says) in [
            ("game = \"kessel\"\nseed = 1\nopponents = []\ntables = [{ players = 2, games = 10 }]", "no opponent"),
            ("game = \"kessel\"\nseed = 1\nopponents = [\"expert\"]\ntables = []", "no table"),
            ("game = \"k\"\nseed = 1\nopponents = [\"a\", \"a\"]\ntables = [{ players = 2, games = 1 }]", "twice"),
            ("game = \"k\"\nseed = 1\nopponents = [\"a\"]\ntables = [{ players = 9, games = 1 }]", "2 to 8"),
            ("game = \"k\"\nseed = 1\nopponents = [\"a\"]\ntables = [{ players = 2, games = 0 }]", "no games"),
            (
                "game = \"k\"\nseed = 1\nopponents = [\"a\"]\ntables = [{ players = 2, games = 1 }]\nextra = 3",
                "unknown field",
            ),
            ("game = \"k\"\nopponents = [\"a\"]\ntables = [{ players = 2, games = 1 }]", "seed"),
            (
                "game = \"k\"\nseed = 1\nopponents = [{ spec = \"a\", games = [1, 2] }]\ntables = [{ players = 2, games = 1 }]",
                "one per table",
            ),
            (
                "game = \"k\"\nseed = 1\nopponents = [{ spec = \"a\", games = [0] }]\ntables = [{ players = 2, games = 1 }]",
                "no games",
            ),
        ] {
            let e = Panel::parse(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
