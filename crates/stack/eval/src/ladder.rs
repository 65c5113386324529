//! The ladder: one persistent rating scale for agents, anchored to fixed references, fitted from
//! heads-up and multi-seat games of the arena, stored in a file (`ladder/kessel.json`) that
//! later agents are rated against without moving anything already on it.
//!
//! - **Model.** The Luce choice model of the *winner* (Plackett–Luce truncated to first place):
//!   an agent of strength `γ = 10^(rating/400)` wins a game at a table with probability
//!   `c·γ / Σ c_j·γ_j`, `c` being the seats it fills. Heads-up it is exactly Bradley–Terry on
//!   the Elo scale (`P(a beats b) = 1 / (1 + 10^((r_b − r_a)/400))`), so a rating difference
//!   reads as a heads-up win rate; at a table of four it predicts each agent's win share. Only
//!   the winner is modelled, not the order of the losers: the game scores only the win (the
//!   order of eliminations is mostly who was targeted, and ties among the eliminated are
//!   common), and the figures the project reports are win rates. A win shared by k players
//!   counts 1/k; a game cut off by the round limit has no winner and carries no information.
//! - **Fit.** Maximum likelihood by the MM algorithm (Hunter 2004, "MM algorithms for
//!   generalized Bradley–Terry models"), over the agents not held fixed; anchors, and when a new
//!   agent is rated every agent already on the ladder, keep their ratings exactly. One virtual
//!   heads-up game drawn half–half between every two agents that met keeps a rating finite
//!   when an agent won (or lost) every game.
//! - **Intervals.** 95 % percentile intervals over bootstrap resamples (seeded) of whole deals,
//!   stratified by matchup: each matchup's deals are resampled among themselves, so the design
//!   (which tables were played how often) is kept; the deal is the unit because the arena
//!   replays each deal under every seating. A new agent's interval is conditional on the
//!   ladder's ratings (they are fixed, not resampled).

use crate::arena::{self, ArenaConfig, ArenaError, ArenaResult, SeatingPlan};
use crate::stats;
use env::{AgentBuilder, Game};
use game::derive_seed;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};
use std::path::Path;
use thiserror::Error;

/// The ladder file format this code reads and writes.
pub const FORMAT: u32 = 1;

/// The shipped ladder of game `game` (its short id), relative to the repository.
pub fn shipped(game: &str) -> String {
    format!("ladder/{game}.json")
}

/// Bootstrap resamples behind every interval.
pub const BOOTSTRAP: usize = 200;

/// Most MM iterations of one fit.
const MAX_ITERATIONS: usize = 20_000;

/// Why a ladder cannot be read, fitted or played.
#[derive(Debug, Error)]
pub enum LadderError {
    /// The file cannot be read.
    #[error("cannot read the ladder {path}: {message}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// The file is not a valid ladder.
    #[error("the ladder {path} is not valid: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong, and where.
        message: String,
    },
    /// The games cannot determine the ratings asked for.
    #[error("cannot fit the ratings: {0}")]
    Fit(String),
    /// Bad settings.
    #[error("{0}")]
    Settings(String),
    /// A tournament failed.
    #[error("{matchup}: {error}")]
    Arena {
        /// The matchup's line-up.
        matchup: String,
        /// What went wrong.
        error: ArenaError,
    },
}

/// The aggregated outcome of games at one kind of table: who sat there, in how many seats,
/// and the win shares they took.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// `(agent, seats)` for every agent at the table; agents index the fit's rating vector.
    pub seats: Vec<(usize, u32)>,
    /// Win shares taken by each agent, in the order of `seats`.
    pub wins: Vec<f64>,
}

impl Table {
    /// Games that had a winner (the sum of the win shares).
    pub fn decided(&self) -> f64 {
        self.wins.iter().sum()
    }
}

/// Strength on the Elo scale → the model's γ.
fn gamma(rating: f64) -> f64 {
    10f64.powf(rating / 400.0)
}

/// The model's win share of `who` at a table (`seats` as in [`Table::seats`]).
pub fn predicted_share(ratings: &[f64], seats: &[(usize, u32)], who: usize) -> f64 {
    let total: f64 = seats.iter().map(|&(a, c)| f64::from(c) * gamma(ratings[a])).sum();
    let mine: f64 = seats.iter().filter(|&&(a, _)| a == who).map(|&(a, c)| f64::from(c) * gamma(ratings[a])).sum();
    mine / total
}

/// The heads-up win probability of a player rated `a` against one rated `b`.
pub fn heads_up(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// Maximum-likelihood ratings of the free agents (`fixed[i] == None`) with the others held at
/// their given ratings (see the module documentation). Every free agent must be linked to a
/// fixed one through the tables.
pub fn fit(fixed: &[Option<f64>], tables: &[Table]) -> Result<Vec<f64>, LadderError> {
    let k = fixed.len();
    if !fixed.iter().any(Option::is_some) {
        return Err(LadderError::Fit("no agent has a fixed rating; name at least one anchor".into()));
    }
    for t in tables {
        if t.seats.len() != t.wins.len() || t.seats.iter().any(|&(a, c)| a >= k || c == 0) {
            return Err(LadderError::Fit("a table names an unknown agent or an empty seat count".into()));
        }
        if t.wins.iter().any(|w| !w.is_finite() || *w < 0.0) {
            return Err(LadderError::Fit("a table has a negative or non-finite win share".into()));
        }
    }
    // Agents linked to a fixed one (union over tables with a decided game).
    let mut linked: Vec<bool> = fixed.iter().map(Option::is_some).collect();
    loop {
        let mut grew = false;
        for t in tables.iter().filter(|t| t.decided() > 0.0) {
            if t.seats.iter().any(|&(a, _)| linked[a]) {
                for &(a, _) in &t.seats {
                    grew |= !linked[a];
                    linked[a] = true;
                }
            }
        }
        if !grew {
            break;
        }
    }
    if let Some(i) = (0..k).find(|&i| !linked[i]) {
        return Err(LadderError::Fit(format!(
            "agent #{i} never met, directly or through others, an agent of fixed rating in a game with a winner"
        )));
    }
    // One virtual heads-up game, drawn, between every two agents that met (at least one free).
    let mut virtual_pairs: Vec<(usize, usize)> = Vec::new();
    for t in tables {
        for (x, &(a, _)) in t.seats.iter().enumerate() {
            for &(b, _) in &t.seats[x + 1..] {
                let pair = (a.min(b), a.max(b));
                if a != b && (fixed[a].is_none() || fixed[b].is_none()) && !virtual_pairs.contains(&pair) {
                    virtual_pairs.push(pair);
                }
            }
        }
    }
    let mut wins = vec![0.0; k];
    for t in tables {
        for (&(a, _), &w) in t.seats.iter().zip(&t.wins) {
            wins[a] += w;
        }
    }
    for &(a, b) in &virtual_pairs {
        wins[a] += 0.5;
        wins[b] += 0.5;
    }
    let start = fixed.iter().flatten().sum::<f64>() / fixed.iter().flatten().count() as f64;
    let mut g: Vec<f64> = fixed.iter().map(|f| gamma(f.unwrap_or(start))).collect();
    for _ in 0..MAX_ITERATIONS {
        let mut den = vec![0.0; k];
        for t in tables {
            let d = t.decided();
            if d == 0.0 {
                continue;
            }
            let total: f64 = t.seats.iter().map(|&(a, c)| f64::from(c) * g[a]).sum();
            for &(a, c) in &t.seats {
                den[a] += d * f64::from(c) / total;
            }
        }
        for &(a, b) in &virtual_pairs {
            let total = g[a] + g[b];
            den[a] += 1.0 / total;
            den[b] += 1.0 / total;
        }
        let mut change: f64 = 0.0;
        for i in (0..k).filter(|&i| fixed[i].is_none()) {
            let next = wins[i] / den[i];
            change = change.max((next / g[i]).log10().abs() * 400.0);
            g[i] = next;
        }
        if change < 1e-9 {
            break;
        }
    }
    Ok(fixed.iter().zip(&g).map(|(f, &g)| f.unwrap_or(400.0 * g.log10())).collect())
}

/// A rating with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rated {
    /// The maximum-likelihood rating.
    pub rating: f64,
    /// Bootstrap 2.5 % quantile.
    pub low: f64,
    /// Bootstrap 97.5 % quantile.
    pub high: f64,
}

/// Ratings with bootstrap intervals: `strata[m]` holds matchup `m`'s deals, each a [`Table`]
/// (a matchup's deals all seat the same agents); `resamples` stratified resamples, seeded.
pub fn fit_with_intervals(
    fixed: &[Option<f64>],
    strata: &[Vec<Table>],
    resamples: usize,
    seed: u64,
) -> Result<Vec<Rated>, LadderError> {
    let sum = |deals: &mut dyn Iterator<Item = &Table>| -> Option<Table> {
        let mut out: Option<Table> = None;
        for t in deals {
            match &mut out {
                None => out = Some(t.clone()),
                Some(o) => o.wins.iter_mut().zip(&t.wins).for_each(|(a, b)| *a += b),
            }
        }
        out
    };
    let tables: Vec<Table> = strata.iter().filter_map(|s| sum(&mut s.iter())).collect();
    let point = fit(fixed, &tables)?;
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); fixed.len()];
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    for _ in 0..resamples {
        let mut drawn: Vec<Table> = Vec::with_capacity(strata.len());
        for s in strata.iter().filter(|s| !s.is_empty()) {
            let picks: Vec<&Table> = (0..s.len()).map(|_| &s[rng.random_range(0..s.len())]).collect();
            drawn.extend(sum(&mut picks.into_iter()));
        }
        // A resample can lose the only decided game linking an agent; such a draw is skipped.
        if let Ok(r) = fit(fixed, &drawn) {
            for (s, x) in samples.iter_mut().zip(r) {
                s.push(x);
            }
        }
    }
    Ok(point
        .iter()
        .zip(samples)
        .map(|(&rating, mut s)| {
            if s.is_empty() {
                return Rated { rating, low: rating, high: rating };
            }
            s.sort_by(f64::total_cmp);
            let q = |f: f64| s[((f * (s.len() - 1) as f64).round() as usize).min(s.len() - 1)];
            Rated { rating, low: q(0.025), high: q(0.975) }
        })
        .collect())
}

/// One deal's [`Table`] per deal of a tournament, in deal order; `ids[i]` is the fit's index
/// of the tournament's agent `i` (`res.names[i]`).
pub fn deal_tables(res: &ArenaResult, ids: &[usize]) -> Vec<Table> {
    let mut out: Vec<(u64, Table)> = Vec::new();
    for g in &res.games {
        if out.last().is_none_or(|(d, _)| *d != g.deal) {
            let mut seats: Vec<(usize, u32)> = Vec::new();
            for &a in &g.seat_agent {
                match seats.iter_mut().find(|(x, _)| *x == ids[a]) {
                    Some(s) => s.1 += 1,
                    None => seats.push((ids[a], 1)),
                }
            }
            let n = seats.len();
            out.push((g.deal, Table { seats, wins: vec![0.0; n] }));
        }
        let t = &mut out.last_mut().expect("pushed").1;
        for (s, &a) in g.seat_agent.iter().enumerate() {
            let at = t.seats.iter().position(|(x, _)| *x == ids[a]).expect("seated");
            t.wins[at] += g.win[s];
        }
    }
    out.into_iter().map(|(_, t)| t).collect()
}

/// A fixed reference: its rating is never fitted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    /// The agent spec.
    pub spec: String,
    /// Its rating, by definition.
    pub rating: f64,
}

impl Anchor {
    /// Reads `SPEC=RATING` (spaces around either part allowed), as `sabacc ladder build --anchor`
    /// takes it; the error names the flag and says how to write one.
    pub fn parse(s: &str) -> Result<Anchor, String> {
        let (spec, rating) =
            s.rsplit_once('=').ok_or_else(|| format!("--anchor `{s}`: write SPEC=RATING, e.g. expert=1500"))?;
        let rating: f64 = rating
            .trim()
            .parse()
            .ok()
            .filter(|r: &f64| r.is_finite())
            .ok_or_else(|| format!("--anchor `{s}`: `{rating}` is not a finite number"))?;
        Ok(Anchor { spec: spec.trim().to_string(), rating })
    }
}

/// An agent's rating fitted on the games of one table size alone, the anchors at their rating.
/// One rating cannot carry both sizes when an agent is relatively stronger at one of them (the
/// champion of 2026-11-27 gained heads-up and lost at four seats), so the ladder keeps both.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizeRating {
    /// Seats at the table.
    pub players: u8,
    /// The rating from that size's games and its 95 % interval.
    #[serde(flatten)]
    pub rated: Rated,
    /// Seat-games at that size.
    pub games: u64,
}

/// One agent on the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The agent spec.
    pub spec: String,
    /// Its rating and 95 % interval (an anchor's interval is its rating).
    #[serde(flatten)]
    pub rated: Rated,
    /// Seat-games it played in the fit.
    pub games: u64,
    /// Its rating at each table size the ladder was built from, smallest first (empty for a
    /// ladder of one table size, and in files written before ratings by size existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_size: Vec<SizeRating>,
}

impl Entry {
    /// The rating at a table of `players` seats, when the ladder has ratings by size.
    pub fn at_size(&self, players: u8) -> Option<&SizeRating> {
        self.by_size.iter().find(|s| s.players == players)
    }
}

/// Ratings at each table size: the strata of each size (`sizes[m]` is stratum `m`'s) fitted
/// alone, with `fixed` as for the pooled fit; `seat_games[m][agent]` counts each agent's
/// seat-games in stratum `m`. Per agent, smallest size first; empty when every stratum has one
/// size (the pooled fit is then that size's).
fn fit_by_size(
    fixed: &[Option<f64>],
    strata: &[Vec<Table>],
    sizes: &[u8],
    seat_games: &[Vec<u64>],
    seed: u64,
    names: &[String],
) -> Result<Vec<Vec<SizeRating>>, LadderError> {
    let mut distinct: Vec<u8> = sizes.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut out = vec![Vec::new(); fixed.len()];
    if distinct.len() < 2 {
        return Ok(out);
    }
    for &size in &distinct {
        let mut games = vec![0u64; fixed.len()];
        for m in (0..strata.len()).filter(|&m| sizes[m] == size) {
            games.iter_mut().zip(&seat_games[m]).for_each(|(g, x)| *g += x);
        }
        let rated = fit_at_size(fixed, strata, sizes, size, seed, names)?;
        for (i, r) in rated.into_iter().enumerate() {
            out[i].push(SizeRating { players: size, rated: rounded(r), games: games[i] });
        }
    }
    Ok(out)
}

/// The ratings fitted on the strata of one table size alone (`sizes[m]` is stratum `m`'s), with
/// their own bootstrap seed; a fit error names the size.
fn fit_at_size(
    fixed: &[Option<f64>],
    strata: &[Vec<Table>],
    sizes: &[u8],
    size: u8,
    seed: u64,
    names: &[String],
) -> Result<Vec<Rated>, LadderError> {
    let of_size: Vec<Vec<Table>> = (0..strata.len()).filter(|&m| sizes[m] == size).map(|m| strata[m].clone()).collect();
    fit_with_intervals(fixed, &of_size, BOOTSTRAP, derive_seed(seed, u64::from(size))).map_err(|e| match e {
        LadderError::Fit(m) => LadderError::Fit(format!("at {size} seats: {}", name_agents(&m, names))),
        e => e,
    })
}

/// A rating stored to 0.1 point: short decimals read back exactly.
fn rounded(r: Rated) -> Rated {
    Rated { rating: round(r.rating, 1), low: round(r.low, 1), high: round(r.high, 1) }
}

/// A tournament: one line-up at one table size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Matchup {
    /// The line-up (specs; cycled to fill the table as in the arena).
    pub lineup: Vec<String>,
    /// Seats.
    pub players: u8,
    /// Games requested (rounded up to whole deals by the arena).
    pub games: u64,
    /// Base seed.
    pub seed: u64,
}

impl Matchup {
    /// `agent` against `opponent`: heads-up, or `agent` and `players − 1` copies of `opponent`.
    pub fn one_against(agent: &str, opponent: &str, players: u8, games: u64, seed: u64) -> Matchup {
        let mut lineup = vec![agent.to_string()];
        lineup.extend((1..players.max(2)).map(|_| opponent.to_string()));
        Matchup { lineup, players: players.max(2), games, seed }
    }

    /// The line-up as text, e.g. `level:2 vs 3× expert`.
    pub fn label(&self) -> String {
        let names = arena::agent_names(&self.lineup);
        let count = |n: &String| self.lineup.iter().filter(|x| *x == n).count();
        names
            .iter()
            .map(|n| if count(n) > 1 { format!("{}× {n}", count(n)) } else { n.clone() })
            .collect::<Vec<_>>()
            .join(" vs ")
    }
}

/// A prediction checked against games not used in the fit: `agent`'s win rate (over games with
/// a winner) against `opponent` at a table of `players` (`agent` and `players − 1` copies of
/// `opponent`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// The agent whose win rate is checked.
    pub agent: String,
    /// The opponent filling the other seats.
    pub opponent: String,
    /// Seats.
    pub players: u8,
    /// Games played.
    pub games: u64,
    /// Base seed.
    pub seed: u64,
    /// Games with a winner.
    pub decided: f64,
    /// `agent`'s win share of them, observed.
    pub observed: f64,
    /// Wilson 95 % lower bound of `observed`.
    pub low: f64,
    /// Wilson 95 % upper bound of `observed`.
    pub high: f64,
    /// The ladder's prediction.
    pub predicted: f64,
    /// The prediction from the ratings at this table size, where the ladder has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_at_size: Option<f64>,
}

impl Check {
    /// Whether the prediction lies in the observed rate's interval.
    pub fn within(&self) -> bool {
        (self.low..=self.high).contains(&self.predicted)
    }

    /// Whether the prediction from the ratings at this table size lies in the observed rate's
    /// interval (`None` without them).
    pub fn within_at_size(&self) -> Option<bool> {
        self.predicted_at_size.map(|p| (self.low..=self.high).contains(&p))
    }
}

/// What `ladder rate` plays by default: the new agent against each opponent at each table size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatePlan {
    /// Ladder agents to play against.
    pub opponents: Vec<String>,
    /// Table sizes (the new agent and `players − 1` copies of the opponent).
    pub players: Vec<u8>,
    /// Games per opponent and table size.
    pub games: u64,
}

/// A checkpoint that agents on the ladder play, with the SHA-256 of its weights when the ladder
/// was built. A rating belongs to weights, not to a folder name: the levels play
/// `checkpoints/champion`, so a new champion makes every level a new agent, and a ladder that
/// still rated the old one would hand out ratings that no longer hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    /// The folder as the agents name it (e.g. `checkpoints/champion`, found as shipped files are).
    pub folder: String,
    /// SHA-256 of its `model.bpk`, as its `metadata.json` records it.
    pub model_sha256: String,
}

/// The ladder file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ladder {
    /// File format ([`FORMAT`]).
    pub format: u32,
    /// The game (`kessel`).
    pub game: String,
    /// The model, in words.
    pub model: String,
    /// The command that produced the file.
    pub command: String,
    /// Fixed references.
    pub anchors: Vec<Anchor>,
    /// Every rated agent, strongest first.
    pub agents: Vec<Entry>,
    /// The checkpoints the rated agents play, pinned to their weights (empty for a ladder of
    /// bots, and in files written before pins existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub networks: Vec<Network>,
    /// The rules every game was played under, as the game's rules JSON (absent: the game's
    /// defaults). A rating holds under the rules it was measured with: `ladder rate` plays
    /// these too.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub rules: serde_json::Value,
    /// The tournaments the ratings were fitted on.
    pub matchups: Vec<Matchup>,
    /// Predictions checked against held-out games.
    pub held_out: Vec<Check>,
    /// What `ladder rate` plays.
    pub rate: RatePlan,
}

/// The model's description stored in every ladder.
pub const MODEL: &str = "Luce model of the winner (Plackett-Luce, first place): an agent wins with probability \
                         seats*10^(r/400) / sum over seats of 10^(r_j/400); heads-up this is Bradley-Terry on the \
                         Elo scale. Maximum likelihood by MM; 95% intervals: 200 bootstrap resamples of deals, \
                         stratified by matchup";

impl Ladder {
    /// Reads and checks a ladder file.
    pub fn read(path: &Path) -> Result<Ladder, LadderError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| LadderError::Read { path: path.display().to_string(), message: e.to_string() })?;
        Ladder::parse(&text, &path.display().to_string())
    }

    /// Parses and checks a ladder (`origin` names it in errors).
    pub fn parse(text: &str, origin: &str) -> Result<Ladder, LadderError> {
        let invalid = |message: String| LadderError::Invalid { path: origin.to_string(), message };
        let ladder: Ladder = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
        ladder.check().map_err(invalid)?;
        Ok(ladder)
    }

    /// The consistency rules of a ladder: known format, anchors on the ladder at their rating,
    /// one entry per spec, finite ratings inside their intervals, a playable rate plan.
    pub fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!(
                "format {} (this program reads format {FORMAT}); rebuild it with `sabacc ladder build`",
                self.format
            ));
        }
        if let Err(e) = games::GameId::parse(&self.game) {
            return Err(format!("game: {e}"));
        }
        if self.anchors.is_empty() {
            return Err("no anchors: a ladder needs at least one agent of fixed rating".into());
        }
        for (i, e) in self.agents.iter().enumerate() {
            let r = &e.rated;
            if !(r.rating.is_finite() && r.low.is_finite() && r.high.is_finite()) {
                return Err(format!("agents[{i}] (`{}`): a rating or bound is not a finite number", e.spec));
            }
            if !(r.low <= r.rating && r.rating <= r.high) {
                return Err(format!(
                    "agents[{i}] (`{}`): rating {} lies outside its interval [{}, {}]",
                    e.spec, r.rating, r.low, r.high
                ));
            }
            if self.agents[..i].iter().any(|x| x.spec == e.spec) {
                return Err(format!("agents[{i}]: `{}` is listed twice", e.spec));
            }
            let sizes: Vec<u8> = e.by_size.iter().map(|s| s.players).collect();
            let first: Vec<u8> = self.agents[0].by_size.iter().map(|s| s.players).collect();
            if sizes != first || sizes.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!(
                    "agents[{i}] (`{}`): rated at table sizes {sizes:?}, not the increasing sizes {first:?} of the first agent",
                    e.spec
                ));
            }
            for s in &e.by_size {
                let r = &s.rated;
                if !(r.low <= r.rating && r.rating <= r.high && r.low.is_finite() && r.high.is_finite()) {
                    return Err(format!(
                        "agents[{i}] (`{}`): the rating at {} seats is not within a finite interval",
                        e.spec, s.players
                    ));
                }
            }
        }
        for a in &self.anchors {
            match self.agents.iter().find(|e| e.spec == a.spec) {
                None => return Err(format!("anchor `{}` is not among the agents", a.spec)),
                Some(e) if e.rated.rating != a.rating => {
                    return Err(format!(
                        "anchor `{}` is fixed at {} but listed at {}",
                        a.spec, a.rating, e.rated.rating
                    ));
                }
                Some(e) if e.by_size.iter().any(|s| s.rated.rating != a.rating) => {
                    return Err(format!(
                        "anchor `{}` is fixed at {} but listed otherwise at a table size",
                        a.spec, a.rating
                    ));
                }
                Some(_) => {}
            }
        }
        if self.rate.opponents.is_empty() {
            return Err("rate.opponents is empty: `ladder rate` needs at least one opponent".into());
        }
        if let Some(o) = self.rate.opponents.iter().find(|o| self.rating(o).is_none()) {
            return Err(format!("rate.opponents: `{o}` is not among the agents"));
        }
        if self.rate.players.is_empty() || self.rate.players.iter().any(|p| !(2..=8).contains(p)) {
            return Err(format!("rate.players {:?}: give table sizes from 2 to 8", self.rate.players));
        }
        if self.rate.games == 0 {
            return Err("rate.games is 0".into());
        }
        for (i, n) in self.networks.iter().enumerate() {
            if n.model_sha256.len() != 64 || !n.model_sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!("networks[{i}] (`{}`): model_sha256 is not a SHA-256 in hex", n.folder));
            }
            if self.networks[..i].iter().any(|x| x.folder == n.folder) {
                return Err(format!("networks[{i}]: `{}` is listed twice", n.folder));
            }
        }
        Ok(())
    }

    /// The rating of `spec`, if it is on the ladder.
    pub fn rating(&self, spec: &str) -> Option<f64> {
        self.agents.iter().find(|e| e.spec == spec).map(|e| e.rated.rating)
    }

    /// The JSON text of the ladder.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a ladder serialises") + "\n"
    }
}

/// Plays `matchups` one after another under `rules` on the current rayon pool; `progress` is
/// called after every game.
pub fn play<G: Game>(
    matchups: &[Matchup],
    rules: &G::Rules,
    factory: &dyn AgentBuilder<G>,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<ArenaResult>, LadderError> {
    matchups
        .iter()
        .map(|m| {
            let cfg = ArenaConfig::<G> {
                agents: m.lineup.clone(),
                players: m.players,
                games: m.games,
                seed: m.seed,
                rules: *rules,
                seating: SeatingPlan::Every,
            };
            arena::run(&cfg, factory, progress).map_err(|error| LadderError::Arena { matchup: m.label(), error })
        })
        .collect()
}

/// Games the matchups will play (whole deals).
pub fn games_planned(matchups: &[Matchup]) -> u64 {
    matchups.iter().map(|m| arena::games_played(m.games, m.players, SeatingPlan::Every)).sum()
}

/// What `ladder build` is asked for.
#[derive(Clone, Debug)]
pub struct BuildPlan {
    /// The game the agents play (`kessel`, `classic`).
    pub game: String,
    /// Every agent to rate, anchors included.
    pub agents: Vec<String>,
    /// Fixed references (each among `agents`).
    pub anchors: Vec<Anchor>,
    /// Heads-up games per pair of agents.
    pub heads_up_games: u64,
    /// Games per ordered pair at the larger table (one agent, the rest copies of the other).
    pub table_games: u64,
    /// The larger table's seats (0: heads-up only).
    pub table_players: u8,
    /// Pairs left out of the fit and played only to check its predictions (both table sizes).
    pub held_out: Vec<(String, String)>,
    /// Base seed.
    pub seed: u64,
    /// What `ladder rate` will play.
    pub rate: RatePlan,
    /// The rules played, as stored in the file (null: the game's defaults).
    pub rules: serde_json::Value,
    /// The command line, recorded in the file.
    pub command: String,
}

impl BuildPlan {
    fn index(&self, spec: &str) -> Result<usize, LadderError> {
        self.agents
            .iter()
            .position(|a| a == spec)
            .ok_or_else(|| LadderError::Settings(format!("`{spec}` is not among the agents to rate")))
    }

    /// The calibration matchups, then the held-out ones, each with its own derived seed.
    pub fn matchups(&self) -> Result<(Vec<Matchup>, Vec<Matchup>), LadderError> {
        let n = self.agents.len();
        if n < 2 {
            return Err(LadderError::Settings("a ladder needs at least two agents".into()));
        }
        for (i, a) in self.agents.iter().enumerate() {
            if self.agents[..i].contains(a) {
                return Err(LadderError::Settings(format!("`{a}` is listed twice")));
            }
        }
        for a in &self.anchors {
            self.index(&a.spec)?;
            if !a.rating.is_finite() {
                return Err(LadderError::Settings(format!("anchor `{}`: the rating must be a finite number", a.spec)));
            }
        }
        if self.anchors.is_empty() {
            return Err(LadderError::Settings("name at least one anchor (SPEC=RATING)".into()));
        }
        let mut held: Vec<(usize, usize)> = Vec::new();
        for (a, b) in &self.held_out {
            let (x, y) = (self.index(a)?, self.index(b)?);
            if x == y {
                return Err(LadderError::Settings(format!("held-out pair `{a}/{b}` names one agent twice")));
            }
            held.push((x.min(y), x.max(y)));
        }
        let (mut fit, mut check) = (Vec::new(), Vec::new());
        let mut k = 0u64;
        let mut seed = || {
            k += 1;
            derive_seed(self.seed, k)
        };
        for i in 0..n {
            for j in i + 1..n {
                let out = if held.contains(&(i, j)) { &mut check } else { &mut fit };
                let (a, b) = (&self.agents[i], &self.agents[j]);
                out.push(Matchup::one_against(a, b, 2, self.heads_up_games, seed()));
                if self.table_players > 2 {
                    out.push(Matchup::one_against(a, b, self.table_players, self.table_games, seed()));
                    out.push(Matchup::one_against(b, a, self.table_players, self.table_games, seed()));
                }
            }
        }
        Ok((fit, check))
    }
}

/// Fits the ladder of `plan` from the calibration results and checks its predictions on the
/// held-out ones (both as returned by [`play`] for [`BuildPlan::matchups`]).
pub fn build(
    plan: &BuildPlan,
    fit_matchups: &[Matchup],
    fit_results: &[ArenaResult],
    check_matchups: &[Matchup],
    check_results: &[ArenaResult],
) -> Result<Ladder, LadderError> {
    let fixed: Vec<Option<f64>> =
        plan.agents.iter().map(|a| plan.anchors.iter().find(|x| &x.spec == a).map(|x| x.rating)).collect();
    let mut strata = Vec::new();
    let mut seat_games = Vec::new();
    for res in fit_results {
        let ids: Vec<usize> = res.names.iter().map(|n| plan.index(n)).collect::<Result<_, _>>()?;
        let mut games = vec![0u64; plan.agents.len()];
        for g in &res.games {
            for &a in &g.seat_agent {
                games[ids[a]] += 1;
            }
        }
        seat_games.push(games);
        strata.push(deal_tables(res, &ids));
    }
    let games: Vec<u64> = (0..plan.agents.len()).map(|i| seat_games.iter().map(|g| g[i]).sum()).collect();
    let rated = fit_with_intervals(&fixed, &strata, BOOTSTRAP, plan.seed).map_err(|e| match e {
        LadderError::Fit(m) => LadderError::Fit(name_agents(&m, &plan.agents)),
        e => e,
    })?;
    let sizes: Vec<u8> = fit_matchups.iter().map(|m| m.players).collect();
    let mut by_size = fit_by_size(&fixed, &strata, &sizes, &seat_games, plan.seed, &plan.agents)?;
    let ratings: Vec<f64> = rated.iter().map(|r| r.rating).collect();
    let mut held_out = Vec::new();
    for (m, res) in check_matchups.iter().zip(check_results) {
        let ids: Vec<usize> = res.names.iter().map(|n| plan.index(n)).collect::<Result<_, _>>()?;
        let mut c = check(m, res, &ids, &ratings);
        let at_size: Option<Vec<f64>> =
            by_size.iter().map(|sizes| sizes.iter().find(|s| s.players == m.players).map(|s| s.rated.rating)).collect();
        if let Some(at_size) = at_size.filter(|r| !r.is_empty()) {
            c.predicted_at_size = Some(check(m, res, &ids, &at_size).predicted);
        }
        held_out.push(c);
    }
    // Stored to 0.1 rating point and six decimals of a rate: short decimals read back exactly.
    let rated: Vec<Rated> = rated.into_iter().map(rounded).collect();
    for c in &mut held_out {
        for x in [&mut c.observed, &mut c.low, &mut c.high, &mut c.predicted] {
            *x = round(*x, 6);
        }
        c.predicted_at_size = c.predicted_at_size.map(|x| round(x, 6));
    }
    let mut agents: Vec<Entry> = (0..plan.agents.len())
        .map(|i| Entry {
            spec: plan.agents[i].clone(),
            rated: rated[i],
            games: games[i],
            by_size: std::mem::take(&mut by_size[i]),
        })
        .collect();
    agents.sort_by(|a, b| b.rated.rating.total_cmp(&a.rated.rating));
    let ladder = Ladder {
        format: FORMAT,
        game: plan.game.clone(),
        model: MODEL.to_string(),
        command: plan.command.clone(),
        anchors: plan.anchors.clone(),
        agents,
        networks: Vec::new(),
        rules: plan.rules.clone(),
        matchups: fit_matchups.to_vec(),
        held_out,
        rate: plan.rate.clone(),
    };
    ladder.check().map_err(LadderError::Settings)?;
    Ok(ladder)
}

/// `x` to `digits` decimals.
fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// "agent #3" in a fit message → the agent's spec.
fn name_agents(message: &str, agents: &[String]) -> String {
    let mut m = message.to_string();
    for (i, a) in agents.iter().enumerate().rev() {
        m = m.replace(&format!("agent #{i}"), &format!("`{a}`"));
    }
    m
}

/// The check of matchup `m` (its first lineup entry against the second), played as `res`.
fn check(m: &Matchup, res: &ArenaResult, ids: &[usize], ratings: &[f64]) -> Check {
    let tables = deal_tables(res, ids);
    let me = ids[0];
    let opponent = m.lineup.get(1).cloned().unwrap_or_default();
    let (mut won, mut decided) = (0.0, 0.0);
    for t in &tables {
        decided += t.decided();
        won += t.seats.iter().zip(&t.wins).filter(|((a, _), _)| *a == me).map(|(_, w)| w).sum::<f64>();
    }
    let seats = tables.first().map(|t| t.seats.clone()).unwrap_or_default();
    let (low, high) = stats::wilson(won, decided);
    Check {
        agent: m.lineup[0].clone(),
        opponent,
        players: m.players,
        games: res.games.len() as u64,
        seed: m.seed,
        decided,
        observed: if decided > 0.0 { won / decided } else { 0.0 },
        low,
        high,
        predicted: if seats.is_empty() { 0.0 } else { predicted_share(ratings, &seats, me) },
        predicted_at_size: None,
    }
}

/// The rating of a new agent against a ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NewRating {
    /// The agent spec.
    pub spec: String,
    /// Its rating and 95 % interval (conditional on the ladder's ratings).
    #[serde(flatten)]
    pub rated: Rated,
    /// Seat-games it played.
    pub games: u64,
    /// Its rating at each table size it played, against the ladder's ratings at that size
    /// (empty when the ladder has none by size, or the agent played one size only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_size: Vec<SizeRating>,
    /// Per matchup: its win rate predicted from the fitted rating against the one observed.
    pub matchups: Vec<Check>,
}

/// The matchups `ladder rate` plays for `spec`: the ladder's rate plan, less `spec` itself.
pub fn rate_matchups(ladder: &Ladder, spec: &str, games: Option<u64>, seed: u64) -> Vec<Matchup> {
    let mut out = Vec::new();
    let mut k = 0u64;
    for o in ladder.rate.opponents.iter().filter(|o| *o != spec) {
        for &p in &ladder.rate.players {
            k += 1;
            out.push(Matchup::one_against(spec, o, p, games.unwrap_or(ladder.rate.games), derive_seed(seed, k)));
        }
    }
    out
}

/// Fits `spec`'s rating from `results` (of [`rate_matchups`]) with every ladder rating fixed.
pub fn rate(
    ladder: &Ladder,
    spec: &str,
    matchups: &[Matchup],
    results: &[ArenaResult],
    seed: u64,
) -> Result<NewRating, LadderError> {
    let mut names: Vec<String> = ladder.agents.iter().map(|e| e.spec.clone()).collect();
    let mut fixed: Vec<Option<f64>> = ladder.agents.iter().map(|e| Some(e.rated.rating)).collect();
    let me = names.len();
    names.push(spec.to_string());
    fixed.push(None);
    let index = |n: &String| {
        if n == spec {
            Ok(me)
        } else {
            names.iter().position(|x| x == n).ok_or_else(|| {
                LadderError::Settings(format!("`{n}` played in a rating matchup but is not on the ladder"))
            })
        }
    };
    let mut strata = Vec::new();
    let mut idss = Vec::new();
    let mut seat_games = Vec::new();
    for res in results {
        let ids: Vec<usize> = res.names.iter().map(index).collect::<Result<_, _>>()?;
        let mut mine = vec![0u64; names.len()];
        mine[me] = res.games.iter().flat_map(|g| &g.seat_agent).filter(|&&a| ids[a] == me).count() as u64;
        seat_games.push(mine);
        strata.push(deal_tables(res, &ids));
        idss.push(ids);
    }
    let games = seat_games.iter().map(|g| g[me]).sum();
    let rated = fit_with_intervals(&fixed, &strata, BOOTSTRAP, seed).map_err(|e| match e {
        LadderError::Fit(m) => LadderError::Fit(name_agents(&m, &names)),
        e => e,
    })?;
    let ratings: Vec<f64> = rated.iter().map(|r| r.rating).collect();
    let checks = matchups.iter().zip(results).zip(&idss).map(|((m, res), ids)| check(m, res, ids, &ratings)).collect();
    // By size: each size's games against the ladder's ratings at that size.
    let mut by_size = Vec::new();
    let matchup_sizes: Vec<u8> = matchups.iter().map(|m| m.players).collect();
    let mut sizes = matchup_sizes.clone();
    sizes.sort_unstable();
    sizes.dedup();
    let has_sizes = ladder.agents.iter().all(|e| sizes.iter().all(|&p| e.at_size(p).is_some()));
    if sizes.len() > 1 && has_sizes {
        for &p in &sizes {
            let mut fixed_p: Vec<Option<f64>> =
                ladder.agents.iter().map(|e| e.at_size(p).map(|s| s.rated.rating)).collect();
            fixed_p.push(None);
            let r = fit_at_size(&fixed_p, &strata, &matchup_sizes, p, seed, &names)?;
            let games = (0..matchups.len()).filter(|&m| matchup_sizes[m] == p).map(|m| seat_games[m][me]).sum();
            by_size.push(SizeRating { players: p, rated: r[me], games });
        }
    }
    Ok(NewRating { spec: spec.to_string(), rated: rated[me], games, by_size, matchups: checks })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// Deals drawn from the model itself: `deals` deals of `games` games at each table.
    fn simulate(truth: &[f64], tables: &[Vec<(usize, u32)>], deals: usize, games: usize, seed: u64) -> Vec<Vec<Table>> {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        tables
            .iter()
            .map(|seats| {
                (0..deals)
                    .map(|_| {
                        let mut wins = vec![0.0; seats.len()];
                        for _ in 0..games {
                            let u: f64 = rng.random();
                            let mut acc = 0.0;
                            for (x, &(a, _)) in seats.iter().enumerate() {
                                acc += predicted_share(truth, seats, a);
                                if u < acc {
                                    wins[x] += 1.0;
                                    break;
                                }
                            }
                        }
                        Table { seats: seats.clone(), wins }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_known_ratings_from_heads_up_and_four_seat_games() {
        let truth = [1500.0, 1000.0, 1350.0, 1620.0, 1200.0];
        let mut tables = Vec::new();
        for a in 0..5 {
            for b in a + 1..5 {
                tables.push(vec![(a, 1), (b, 1)]);
                tables.push(vec![(a, 1), (b, 3)]);
                tables.push(vec![(b, 1), (a, 3)]);
            }
        }
        let strata = simulate(&truth, &tables, 100, 24, 7);
        let fixed = [Some(1500.0), None, None, None, None];
        let rated = fit_with_intervals(&fixed, &strata, 100, 1).unwrap();
        assert_eq!(rated[0], Rated { rating: 1500.0, low: 1500.0, high: 1500.0 }, "the anchor does not move");
        for (i, (r, t)) in rated.iter().zip(truth).enumerate() {
            assert!((r.rating - t).abs() < 20.0, "agent {i}: fitted {} against the true {t}", r.rating);
            assert!(r.low <= t && t <= r.high, "agent {i}: true {t} outside [{}, {}]", r.low, r.high);
            if i > 0 {
                assert!(r.high - r.low > 5.0 && r.high - r.low < 80.0, "agent {i}: interval {r:?}");
            }
        }
    }

    #[test]
    fn heads_up_ratings_are_the_elo_formula() {
        // 76 % against a fixed 1500 over many games is +200 on the Elo scale.
        let t = Table { seats: vec![(0, 1), (1, 1)], wins: vec![7600.0, 2400.0] };
        let r = fit(&[Some(1500.0), None], &[t]).unwrap();
        let expected = 1500.0 + 400.0 * (7600.5f64 / 2400.5).log10();
        assert!((r[1] - (3000.0 - expected)).abs() < 0.01, "{r:?}");
        assert!((heads_up(1700.0, 1500.0) - 0.7597).abs() < 1e-4);
        // Three seats of one agent win three times as often as one seat of an equal agent.
        assert!((predicted_share(&[1500.0, 1500.0], &[(0, 1), (1, 3)], 0) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn an_agent_that_wins_every_game_keeps_a_finite_rating() {
        let t = Table { seats: vec![(0, 1), (1, 1)], wins: vec![0.0, 200.0] };
        let r = fit(&[Some(0.0), None], &[t]).unwrap();
        assert!(r[1].is_finite() && r[1] > 600.0, "{r:?}");
    }

    #[test]
    fn the_fit_refuses_ratings_the_games_cannot_determine() {
        let t = Table { seats: vec![(1, 1), (2, 1)], wins: vec![3.0, 2.0] };
        let e = fit(&[Some(0.0), None, None], std::slice::from_ref(&t)).unwrap_err().to_string();
        assert!(e.contains("agent #1") && e.contains("fixed rating"), "{e}");
        let e = fit(&[None, None], &[t]).unwrap_err().to_string();
        assert!(e.contains("anchor"), "{e}");
        let bad = Table { seats: vec![(0, 1), (5, 1)], wins: vec![1.0, 1.0] };
        assert!(fit(&[Some(0.0), None], &[bad]).is_err());
    }

    #[test]
    fn ratings_by_table_size_recover_an_agent_stronger_at_one_size() {
        // Agent 2 is the strongest heads-up and below the anchor at four seats.
        let heads_up = [1500.0, 1300.0, 1650.0];
        let four = [1500.0, 1300.0, 1420.0];
        let (mut strata, mut sizes) = (Vec::new(), Vec::new());
        let mut seed = 20;
        for a in 0..3 {
            for b in a + 1..3 {
                for (truth, table, players) in [
                    (&heads_up, vec![(a, 1), (b, 1)], 2u8),
                    (&four, vec![(a, 1), (b, 3)], 4),
                    (&four, vec![(b, 1), (a, 3)], 4),
                ] {
                    seed += 1;
                    strata.extend(simulate(truth, &[table], 150, 24, seed));
                    sizes.push(players);
                }
            }
        }
        // One seat-game per seat of each stratum's line-up.
        let seat_games: Vec<Vec<u64>> = strata
            .iter()
            .map(|deals| {
                (0..3).map(|a| deals[0].seats.iter().filter(|s| s.0 == a).map(|s| u64::from(s.1)).sum()).collect()
            })
            .collect();
        let names: Vec<String> = ["anchor", "weak", "narrow"].map(String::from).to_vec();
        let fixed = [Some(1500.0), None, None];
        let by = fit_by_size(&fixed, &strata, &sizes, &seat_games, 3, &names).unwrap();
        for i in 0..3 {
            assert_eq!(by[i].iter().map(|s| s.players).collect::<Vec<_>>(), [2, 4]);
            assert!((by[i][0].rated.rating - heads_up[i]).abs() < 30.0, "agent {i} heads-up: {:?}", by[i][0]);
            assert!((by[i][1].rated.rating - four[i]).abs() < 30.0, "agent {i} at four seats: {:?}", by[i][1]);
        }
        assert_eq!(by[0][1].rated, Rated { rating: 1500.0, low: 1500.0, high: 1500.0 }, "the anchor at every size");
        assert_eq!((by[2][0].games, by[2][1].games), (2, 2 * (1 + 3)), "seat-games of each size's strata only");
        // The pooled rating lies between the two and describes neither.
        let pooled = fit_with_intervals(&fixed, &strata, 50, 1).unwrap();
        assert!(pooled[2].rating > four[2] + 40.0 && pooled[2].rating < heads_up[2] - 40.0, "{:?}", pooled[2]);
        // One table size: nothing by size.
        let one = fit_by_size(&fixed, &strata[..1], &sizes[..1], &seat_games[..1], 3, &names).unwrap();
        assert!(one.iter().all(Vec::is_empty));
    }

    #[test]
    fn a_ladder_by_size_must_rate_every_agent_at_the_same_sizes_and_keep_its_anchors() {
        let at = |players: u8, rating: f64| SizeRating {
            players,
            rated: Rated { rating, low: rating, high: rating },
            games: 1,
        };
        let mut l = small_ladder();
        for e in &mut l.agents {
            e.by_size = vec![at(2, e.rated.rating), at(4, e.rated.rating)];
        }
        assert_eq!(Ladder::parse(&l.to_json(), "x.json").unwrap(), l, "by size reads back");
        let mut anchor_moved = l.clone();
        anchor_moved.agents.iter_mut().find(|e| e.spec == "expert").unwrap().by_size[1] = at(4, 1490.0);
        assert!(anchor_moved.check().unwrap_err().contains("anchor `expert`"));
        let mut missing = l.clone();
        missing.agents.last_mut().unwrap().by_size.pop();
        assert!(missing.check().unwrap_err().contains("table sizes [2]"));
    }

    fn small_ladder() -> Ladder {
        let e = |spec: &str, rating: f64| Entry {
            spec: spec.into(),
            rated: Rated { rating, low: rating - 10.0, high: rating + 10.0 },
            games: 100,
            by_size: Vec::new(),
        };
        let mut expert = e("expert", 1500.0);
        expert.rated = Rated { rating: 1500.0, low: 1500.0, high: 1500.0 };
        Ladder {
            format: FORMAT,
            game: "kessel".into(),
            model: MODEL.into(),
            command: "test".into(),
            anchors: vec![Anchor { spec: "expert".into(), rating: 1500.0 }],
            agents: vec![e("greedy", 1420.0), expert, e("random", 990.0)],
            networks: Vec::new(),
            rules: serde_json::Value::Null,
            matchups: Vec::new(),
            held_out: Vec::new(),
            rate: RatePlan { opponents: vec!["expert".into(), "random".into()], players: vec![2, 4], games: 100 },
        }
    }

    /// A new agent is rated with every ladder rating fixed: the anchor and the stored ratings
    /// come back unchanged, and only the new agent's rating is fitted.
    #[test]
    fn rating_a_new_agent_moves_neither_the_anchor_nor_the_ladder() {
        let ladder = small_ladder();
        let before = ladder.clone();
        let names = ["greedy", "expert", "random", "new"];
        let truth = [1420.0, 1500.0, 990.0, 1300.0];
        let mut fixed: Vec<Option<f64>> = truth[..3].iter().map(|&r| Some(r)).collect();
        fixed.push(None);
        let tables: Vec<Vec<(usize, u32)>> =
            vec![vec![(3, 1), (1, 1)], vec![(3, 1), (1, 3)], vec![(3, 1), (2, 1)], vec![(3, 1), (2, 3)]];
        let strata = simulate(&truth, &tables, 50, 24, 3);
        let rated = fit_with_intervals(&fixed, &strata, 50, 2).unwrap();
        for i in 0..3 {
            assert_eq!(rated[i].rating, truth[i], "{} moved", names[i]);
            assert_eq!((rated[i].low, rated[i].high), (truth[i], truth[i]));
        }
        assert!((rated[3].rating - 1300.0).abs() < 30.0, "{:?}", rated[3]);
        assert_eq!(ladder, before);
    }

    #[test]
    fn bad_ladder_files_are_errors_that_say_what_is_wrong() {
        let good = small_ladder().to_json();
        assert_eq!(Ladder::parse(&good, "x.json").unwrap(), small_ladder());
        let cases: Vec<(String, &str)> = vec![
            ("not json".into(), "expected"),
            ("{}".into(), "missing field"),
            (good.replace("\"format\": 1", "\"format\": 9"), "format 9"),
            (
                good.replace("\"rating\": 1500.0\n    }\n  ]", "\"rating\": 1400.0\n    }\n  ]"),
                "anchor `expert` is fixed at 1400",
            ),
            (good.replace("\"spec\": \"random\"", "\"spec\": \"greedy\""), "listed twice"),
            (good.replace("\"low\": 980.0", "\"low\": 995.0"), "outside its interval"),
            (good.replace("\"game\": \"kessel\"", "\"game\": \"chess\""), "unknown game `chess`"),
            (good.replace("\"games\": 100\n  }\n}", "\"games\": 0\n  }\n}"), "rate.games"),
            (
                good.replace("\"players\": [\n      2,\n      4\n    ]", "\"players\": [\n      1\n    ]"),
                "rate.players",
            ),
            (good.replace("\"format\": 1,", "\"format\": 1, \"extra\": 2,"), "unknown field"),
            (pinned(&[("checkpoints/c", "abc")]), "not a SHA-256"),
            (pinned(&[("checkpoints/c", &"a".repeat(64)), ("checkpoints/c", &"b".repeat(64))]), "listed twice"),
        ];
        for (text, want) in cases {
            assert_ne!(text, good, "the case for `{want}` changed nothing");
            let e = Ladder::parse(&text, "ladder/x.json").unwrap_err().to_string();
            assert!(e.contains("ladder/x.json") && e.contains(want), "wanted `{want}` in: {e}");
        }
        let e = Ladder::read(Path::new("/nonexistent/ladder.json")).unwrap_err().to_string();
        assert!(e.contains("cannot read the ladder /nonexistent/ladder.json"), "{e}");
    }

    /// `small_ladder` with `networks` pinned, as JSON (checked only when parsed).
    fn pinned(networks: &[(&str, &str)]) -> String {
        let mut l = small_ladder();
        l.networks = networks
            .iter()
            .map(|(folder, sha)| Network { folder: folder.to_string(), model_sha256: sha.to_string() })
            .collect();
        l.to_json()
    }

    /// Pins are written only when there are any, and read back as written; a file without them
    /// (written before they existed) still reads.
    #[test]
    fn pinned_networks_round_trip_and_are_optional() {
        let bare = small_ladder().to_json();
        assert!(!bare.contains("networks"), "an empty pin list is left out of the file");
        let text = pinned(&[("checkpoints/champion", &"0f".repeat(32))]);
        let back = Ladder::parse(&text, "x.json").unwrap();
        assert_eq!(
            back.networks,
            vec![Network { folder: "checkpoints/champion".into(), model_sha256: "0f".repeat(32) }]
        );
        assert_eq!(back.to_json(), text);
    }

    #[test]
    fn build_plans_hold_pairs_out_and_refuse_bad_settings() {
        let plan = BuildPlan {
            game: "kessel".into(),
            agents: vec!["a".into(), "b".into(), "c".into()],
            anchors: vec![Anchor { spec: "a".into(), rating: 0.0 }],
            heads_up_games: 10,
            table_games: 24,
            table_players: 4,
            held_out: vec![("c".into(), "a".into())],
            seed: 1,
            rate: RatePlan { opponents: vec!["a".into()], players: vec![2], games: 10 },
            rules: serde_json::Value::Null,
            command: String::new(),
        };
        let (fit, check) = plan.matchups().unwrap();
        assert_eq!((fit.len(), check.len()), (6, 3));
        assert!(check.iter().all(|m| m.lineup.contains(&"a".into()) && m.lineup.contains(&"c".into())));
        assert!(fit.iter().all(|m| !(m.lineup.contains(&"a".into()) && m.lineup.contains(&"c".into()))));
        assert_eq!(check[1].label(), "a vs 3× c");
        let mut seeds: Vec<u64> = fit.iter().chain(&check).map(|m| m.seed).collect();
        seeds.dedup();
        assert_eq!(seeds.len(), 9, "every matchup has its own seed");
        let mut bad = plan.clone();
        bad.anchors[0].spec = "z".into();
        assert!(bad.matchups().unwrap_err().to_string().contains("`z` is not among"));
        let mut bad = plan.clone();
        bad.anchors.clear();
        assert!(bad.matchups().unwrap_err().to_string().contains("anchor"));
        let mut bad = plan;
        bad.agents.push("a".into());
        assert!(bad.matchups().unwrap_err().to_string().contains("twice"));
    }
}
