//! The arena: many games among agent specs, with seat rotation and duplicate deals.
//!
//! - **Lineup.** The agent list fills the seats in order; when the table has more seats than the
//!   list has agents, the list is repeated (cycled) — `--agents expert,random --players 4` seats
//!   expert, random, expert, random. A table smaller than the list is an error.
//! - **Seatings.** With up to 4 seats every permutation of the lineup over the seats is played
//!   (24 at 4 seats); with 5–8 seats (P! is large) the `2P` seatings made of the P rotations of
//!   the lineup and the P rotations of the reversed lineup: every entry sits twice in every seat
//!   (once per direction), and plays after each of its lineup neighbours as often as before it.
//!   [`SeatingPlan::Rotations`] plays only the P rotations of the lineup (every entry once in
//!   every seat). For one agent against copies of another that loses nothing: of the 24
//!   seatings of [A, B, B, B] only the 4 that move A differ, and for agents that draw no random
//!   numbers the other 20 replay the same games, so the same budget buys six times the deals
//!   (the ship gate uses it).
//! - **Duplicate deals.** A *deal* is a game seed. Each deal is replayed under every seating, so
//!   card luck cancels out. `games` is rounded **up** to a whole number of deals
//!   (`deals = ceil(games / seatings)`), and the report states the number actually played.
//! - **Determinism.** Game `g` is deal `g / S` with seating `g % S`; the deal's seed is
//!   `derive_seed(seed, deal)`, the agent at seat `s` draws from an RNG seeded with
//!   `derive_seed(derive_seed(seed ^ AGENT_STREAM, g), s)`. Games are played by the one game loop
//!   ([`env::Driver`]), up to 64 at a time per rayon task ([`crate::tasks`]), so a neural
//!   policy's decisions are batched.
//!   Agents are built per rayon worker
//!   (they must not carry state from one game to the next that changes their play; caches are
//!   fine) and results are collected in game order, so the figures do not depend on the number
//!   of threads.

use crate::tasks::{self, Seats, illegal_index};
use env::{
    Agent, AgentBuilder, AgentError, Controller, Driver, DriverError, Finished, Game, GameConfig, GameStart, Pending,
    StepEvent,
};
use game::{Seat, TrackedPlay, derive_seed};
use serde::{Deserialize, Serialize};
use thiserror::Error;

const AGENT_STREAM: u64 = 0xA6E7_5EED_0000_0001;

/// What to play, at a table of any game.
#[derive(Clone, Debug)]
pub struct ArenaConfig<G: Game> {
    /// Agent specs, one per lineup entry (cycled to fill the table).
    pub agents: Vec<String>,
    /// Seats at the table (2–8); the rules' number of players is set from it.
    pub players: u8,
    /// Games requested (rounded up to whole deals).
    pub games: u64,
    /// Base seed.
    pub seed: u64,
    /// The rules.
    pub rules: G::Rules,
    /// Which seatings each deal is played under.
    pub seating: SeatingPlan,
}

/// Which seatings of the lineup each deal is played under (module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeatingPlan {
    /// Every seating of [`seatings`]: all permutations up to 4 seats, `2P` beyond.
    #[default]
    Every,
    /// The P rotations of the lineup: each entry once in each seat.
    Rotations,
}

/// Why an arena cannot run.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// An agent spec that names nothing playable.
    #[error("--agents: {0}")]
    Spec(String),
    /// An agent could not choose an action.
    #[error("game {game}: {error}")]
    Agent {
        /// Game index.
        game: u64,
        /// What the agent reported.
        error: AgentError,
    },
    /// Bad settings.
    #[error("{0}")]
    Settings(String),
    /// An agent chose an illegal action (a bug in that agent).
    #[error("game {game}: agent `{agent}` chose the illegal action {action} ({name})")]
    Illegal {
        /// Game index.
        game: u64,
        /// The agent's spec.
        agent: String,
        /// The index of its action (in the action space or out of range).
        action: usize,
        /// The action's documented name (`invalid` out of range).
        name: &'static str,
    },
}

/// The result of one game, per seat where it matters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game index.
    pub index: u64,
    /// Deal index (games with the same deal share their seed).
    pub deal: u64,
    /// Agent id (index into the report's agent names) at each seat.
    pub seat_agent: Vec<usize>,
    /// Win share per seat: 1 for a sole winner, 1/k for k sharing the win, 0 otherwise.
    pub win: Vec<f64>,
    /// The round limit ended the game (nobody won).
    pub truncated: bool,
    /// Rounds played (hands, in classic Sabacc).
    pub rounds: u16,
    /// Rounds each seat took part in (its elimination round, or all rounds).
    pub survived: Vec<u16>,
    /// Chips in stock at the end, per seat (credits, in classic Sabacc).
    pub chips: Vec<u32>,
    /// Finishing standing per seat: higher is better, equal is a tie (see [`standing`]).
    pub standing: Vec<f64>,
    /// The game's counted plays in order (Kessel's Shift Tokens, [`Game::TRACKED_PLAYS`]).
    pub tracked_plays: Vec<TrackedPlay>,
    /// The counted kinds each seat still held, unplayed, at the end (bits by kind).
    pub unplayed: Vec<u32>,
}

/// A seat's share of the game's win: 1 for a sole winner, 1/k for each of k sharing the win, 0
/// otherwise (and for everyone while the game goes on or once the round limit cut it off).
pub fn win_share<G: Game>(state: &G::State, seat: Seat) -> f64 {
    let w = G::winners(state);
    if w.contains(seat) { 1.0 / w.len() as f64 } else { 0.0 }
}

/// The standing of a seat at the end of a game, for "finished ahead of": winners (sole or
/// shared) first; then, in a truncated game, seats still in by chips in stock; then eliminated
/// seats by how late they were eliminated. Equal standings are ties.
pub fn standing(win: f64, eliminated_in_round: Option<u16>, stock: u32) -> f64 {
    if win > 0.0 {
        1.0e6
    } else if let Some(r) = eliminated_in_round {
        r as f64
    } else {
        1.0e3 + stock as f64
    }
}

/// The seatings played: seat → lineup entry (see the module documentation).
pub fn seatings(players: usize) -> Vec<Vec<usize>> {
    if players <= 4 {
        let mut out = Vec::new();
        let mut cur: Vec<usize> = (0..players).collect();
        permute(&mut cur, 0, &mut out);
        out.sort();
        out
    } else {
        let mut out = rotations(players);
        for r in 0..players {
            out.push((0..players).map(|s| (players - 1 - s + r) % players).collect());
        }
        out
    }
}

/// The seatings of a plan at a table of `players` (seat → lineup entry, the identity first).
pub fn seatings_for(players: usize, plan: SeatingPlan) -> Vec<Vec<usize>> {
    match plan {
        SeatingPlan::Every => seatings(players),
        SeatingPlan::Rotations => rotations(players),
    }
}

/// The `players` rotations of the lineup, the identity first.
fn rotations(players: usize) -> Vec<Vec<usize>> {
    (0..players).map(|r| (0..players).map(|s| (s + r) % players).collect()).collect()
}

fn permute(v: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
    if k == v.len() {
        out.push(v.clone());
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permute(v, k + 1, out);
        v.swap(k, i);
    }
}

/// The lineup: the agent list cycled to fill `players` seats.
pub fn lineup(agents: &[String], players: u8) -> Result<Vec<String>, ArenaError> {
    if agents.is_empty() {
        return Err(ArenaError::Settings("list at least one agent".into()));
    }
    if !(2..=8).contains(&players) {
        return Err(ArenaError::Settings(format!("players: {players} is out of range; a table seats 2 to 8")));
    }
    if (players as usize) < agents.len() {
        return Err(ArenaError::Settings(format!(
            "{} agents listed but the table has only {players} seats",
            agents.len()
        )));
    }
    Ok((0..players as usize).map(|i| agents[i % agents.len()].clone()).collect())
}

/// Agent names in order of first appearance (duplicates in the lineup share one name).
pub fn agent_names(lineup: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for a in lineup {
        if !names.contains(a) {
            names.push(a.clone());
        }
    }
    names
}

/// Everything the arena produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaResult {
    /// Unique agent names (specs); `GameRecord::seat_agent` indexes this.
    pub names: Vec<String>,
    /// The lineup entries.
    pub lineup: Vec<String>,
    /// Seatings played per deal.
    pub seatings: Vec<Vec<usize>>,
    /// Deals played.
    pub deals: u64,
    /// One record per game, in game order.
    pub games: Vec<GameRecord>,
}

/// Number of games actually played for a request: whole deals of the plan's seatings.
pub fn games_played(requested: u64, players: u8, plan: SeatingPlan) -> u64 {
    let per_deal = seatings_for(players as usize, plan).len() as u64;
    requested.max(1).div_ceil(per_deal) * per_deal
}

/// Number of games a tournament plays.
pub fn games_of<G: Game>(cfg: &ArenaConfig<G>) -> u64 {
    games_played(cfg.games, cfg.players, cfg.seating)
}

/// Most games one driver plays at once: enough rows that a neural policy's forward pass covers
/// many decisions.
const MAX_ROWS_PER_TASK: u64 = 64;

/// Fewest tasks a tournament is split into (when it has games enough), so that a short tournament
/// of slow agents — a search teacher's chunk of 48 games — still spreads over every core, and its
/// progress moves more than once.
const MIN_TASKS: u64 = 8;

/// Rows per task for `total` games: it depends only on the number of games, never on the number
/// of threads, so records stay independent of `--threads`.
fn rows_per_task(total: u64) -> u64 {
    total.div_ceil(MIN_TASKS).clamp(1, MAX_ROWS_PER_TASK)
}

/// Plays the tournament on the current rayon pool; `progress` is called after every game.
///
/// The games are split into tasks of up to 64 consecutive games (at least 8 tasks when there are
/// 8 games or more), each played by one
/// [`env::Driver`] with the worker's agents; every game's deal and agent RNGs depend only on its
/// index, so the records do not depend on the number of threads.
pub fn run<G: Game>(
    cfg: &ArenaConfig<G>,
    factory: &dyn AgentBuilder<G>,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaResult, ArenaError> {
    run_deals(cfg, factory, progress, 0..u64::MAX)
}

/// Number of deals a tournament of `cfg` plays (games rounded up to whole deals, divided by the
/// seatings per deal).
pub fn deals_of<G: Game>(cfg: &ArenaConfig<G>) -> u64 {
    games_of(cfg) / seatings_for(cfg.players as usize, cfg.seating).len() as u64
}

/// Plays the deals `deals` (clamped to the tournament's) of the tournament `cfg`: a shard of
/// [`run`], for spreading one tournament over machines. Each game is the one [`run`] plays under
/// the same index (same deal seed, seating, agent RNGs and the same task batches, cut at the
/// shard's ends), so the shards of a partition of `0..deals_of(cfg)` joined by [`merge`] equal
/// [`run`]'s result. `deals` counts the deals of this shard.
pub fn run_deals<G: Game>(
    cfg: &ArenaConfig<G>,
    factory: &dyn AgentBuilder<G>,
    progress: &(dyn Fn() + Sync),
    deals: std::ops::Range<u64>,
) -> Result<ArenaResult, ArenaError> {
    let lineup = lineup(&cfg.agents, cfg.players)?;
    // Build every entry once up front, so a bad spec fails before any game is played.
    for a in &lineup {
        factory.build(a).map_err(ArenaError::Spec)?;
    }
    let mut rules = cfg.rules;
    G::set_players(&mut rules, cfg.players);
    G::new_state(&rules, 0).map_err(|e| ArenaError::Settings(e.to_string()))?;
    let names = agent_names(&lineup);
    let entry_agent: Vec<usize> = lineup.iter().map(|a| names.iter().position(|n| n == a).expect("listed")).collect();
    let seats = seatings_for(cfg.players as usize, cfg.seating);
    let s = seats.len() as u64;
    let total = games_of(cfg);
    let (first, end) = (deals.start.min(total / s), deals.end.min(total / s));
    if first > end {
        return Err(ArenaError::Settings(format!(
            "deals: the range {}..{} is empty or reversed",
            deals.start, deals.end
        )));
    }
    let (from, to) = (first * s, end * s);
    // The whole tournament's task spans, cut to this shard, so each game is batched with the same
    // neighbours as in a single run (except at the shard's ends).
    let spans: Vec<_> = tasks::spans(0..total, rows_per_task(total))
        .into_iter()
        .map(|r| r.start.max(from)..r.end.min(to))
        .filter(|r| r.start < r.end)
        .collect();
    let plan = Plan { rules, seed: cfg.seed, seatings: &seats, entry_agent: &entry_agent, lineup: &lineup };
    let chunks = tasks::on_workers(spans, &lineup, factory, ArenaError::Spec, |games, agents| {
        plan.play(games, agents, progress)
    })?;
    let games = chunks.into_iter().flatten().collect();
    Ok(ArenaResult { names, lineup, seatings: seats, deals: end - first, games })
}

/// Joins the results of shards ([`run_deals`]) of one tournament, in any order, into the result
/// of the whole: the records sorted by game index, the deals summed. Shards of different
/// tournaments (other lineups or seatings) or overlapping shards are refused.
pub fn merge(mut parts: Vec<ArenaResult>) -> Result<ArenaResult, ArenaError> {
    let Some(mut out) = parts.pop() else {
        return Err(ArenaError::Settings("merge: no shard results to merge".into()));
    };
    for p in parts {
        if p.names != out.names || p.lineup != out.lineup || p.seatings != out.seatings {
            return Err(ArenaError::Settings("merge: the shards come from different tournaments".into()));
        }
        out.deals += p.deals;
        out.games.extend(p.games);
    }
    out.games.sort_by_key(|g| g.index);
    if let Some(w) = out.games.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(ArenaError::Settings(format!("merge: game {} is in more than one shard", w[0].index)));
    }
    Ok(out)
}

/// What every game of a tournament shares.
struct Plan<'a, G: Game> {
    rules: G::Rules,
    seed: u64,
    seatings: &'a [Vec<usize>],
    entry_agent: &'a [usize],
    lineup: &'a [String],
}

impl<G: Game> Plan<'_, G> {
    /// Plays `games` with `agents` (one per lineup entry), in game order.
    fn play(
        &self,
        games: std::ops::Range<u64>,
        agents: &mut Vec<Box<dyn Agent<G>>>,
        progress: &(dyn Fn() + Sync),
    ) -> Result<Vec<GameRecord>, ArenaError> {
        let rows = (games.end - games.start) as usize;
        let mut c = Games {
            plan: self,
            seats: Seats::new(std::mem::take(agents), rows, games),
            tracked_plays: vec![Vec::new(); rows],
            records: Vec::with_capacity(rows),
            progress,
        };
        let result = Driver::new(rows).run(&mut c).map_err(|e| match e {
            DriverError::Controller(e) => e,
            DriverError::Illegal { row, seat, error } => ArenaError::Illegal {
                game: c.seats.game(row),
                agent: self.lineup[c.seats.agent_at(row, seat)].clone(),
                action: illegal_index(&error),
                name: G::action_name(illegal_index(&error)),
            },
            DriverError::Config { error, .. } => ArenaError::Settings(error.to_string()),
        });
        let Games { seats, mut records, .. } = c;
        *agents = seats.into_agents();
        debug_assert_eq!(agents.len(), self.lineup.len());
        result?;
        records.sort_by_key(|r| r.index);
        Ok(records)
    }
}

/// The driver's controller for one task of the arena.
struct Games<'a, G: Game> {
    plan: &'a Plan<'a, G>,
    seats: Seats<G>,
    tracked_plays: Vec<Vec<TrackedPlay>>,
    records: Vec<GameRecord>,
    progress: &'a (dyn Fn() + Sync),
}

impl<G: Game> Controller<G> for Games<'_, G> {
    type Error = ArenaError;

    fn next_game(&mut self, row: usize) -> Result<Option<GameStart<G>>, ArenaError> {
        let Some(g) = self.seats.take(row) else { return Ok(None) };
        let p = self.plan;
        let seating = &p.seatings[(g % p.seatings.len() as u64) as usize];
        self.seats.seat(row, seating, derive_seed(p.seed ^ AGENT_STREAM, g));
        self.tracked_plays[row].clear();
        let deal = g / p.seatings.len() as u64;
        let config = GameConfig { rules: p.rules, ..GameConfig::default() };
        Ok(Some(GameStart::deal(config, derive_seed(p.seed, deal))))
    }

    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), ArenaError> {
        self.seats
            .decide(pending, actions)
            .map_err(|e| ArenaError::Agent { game: self.seats.game(e.row), error: e.error })
    }

    fn stepped(&mut self, e: &StepEvent<'_, G>) -> Result<(), ArenaError> {
        if let Some(play) = G::tracked_play(e.state, e.action) {
            self.tracked_plays[e.row].push(play);
        }
        Ok(())
    }

    fn finished(&mut self, f: &Finished<'_, G>) -> Result<(), ArenaError> {
        let p = self.plan;
        let g = self.seats.game(f.row);
        let seating = &p.seatings[(g % p.seatings.len() as u64) as usize];
        let plays = std::mem::take(&mut self.tracked_plays[f.row]);
        self.records.push(record::<G>(f.state, g, g / p.seatings.len() as u64, seating, p.entry_agent, plays));
        (self.progress)();
        Ok(())
    }
}

/// The record of game `g` (deal `deal`, `seating[seat]` = lineup entry) from its final state.
fn record<G: Game>(
    state: &G::State,
    g: u64,
    deal: u64,
    seating: &[usize],
    entry_agent: &[usize],
    tracked_plays: Vec<TrackedPlay>,
) -> GameRecord {
    let n = G::players(G::rules(state)) as usize;
    let truncated = G::is_truncated(state);
    let progress = G::progress(state);
    let mut rec = GameRecord {
        index: g,
        deal,
        seat_agent: (0..n).map(|s| entry_agent[seating[s]]).collect(),
        win: vec![0.0; n],
        truncated,
        rounds: progress,
        survived: vec![0; n],
        chips: vec![0; n],
        standing: vec![0.0; n],
        tracked_plays,
        unplayed: vec![0; n],
    };
    for s in 0..n {
        let seat = Seat(s as u8);
        let end = G::seat_end(state, seat);
        rec.win[s] = win_share::<G>(state, seat);
        rec.survived[s] = end.knocked_out_in.unwrap_or(progress);
        rec.chips[s] = end.holdings;
        rec.standing[s] = standing(rec.win[s], end.knocked_out_in, end.holdings);
        rec.unplayed[s] = G::unplayed(state, seat);
    }
    rec
}

#[cfg(test)]
mod tests {
    use super::rows_per_task;

    #[test]
    fn short_tournaments_split_into_several_tasks_and_long_ones_into_full_batches() {
        // A 48-game chunk of a search teacher: 8 tasks of 6 games, not one task on one core.
        assert_eq!(rows_per_task(48), 6);
        assert_eq!(rows_per_task(5), 1);
        assert_eq!(rows_per_task(0), 1);
        assert_eq!(rows_per_task(512), 64);
        assert_eq!(rows_per_task(4008), 64);
    }
}
