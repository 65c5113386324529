//! How one game of a study is set up and played: the deal (game seed, agent seeds, focal seat,
//! the other seats' loadouts), the seating, restricted play, and the one game loop.
//!
//! - **Deal `d`.** Game seed `derive_seed(seed, d)`; agent `s`'s RNG seed
//!   `derive_seed(derive_seed(seed ^ AGENT_STREAM, d), s)`; the focal seat `d % players`; the
//!   other seats' loadouts drawn (distinct kinds from the enabled set, like random assignment)
//!   from `derive_seed(seed ^ LOADOUT_STREAM, d)`. Both arms of a pair, and every token or
//!   loadout under study, share all of it: they differ only in the focal seat's tokens.
//! - **Seating.** The focal agent sits in the focal seat; the opponent list fills the other seats
//!   clockwise from it, cycled (`--agents expert,random` at 4 seats: expert, random, expert).
//! - **Restricted play.** A game may forbid the focal seat some kinds it holds: they are taken
//!   out of the legal actions its agent is offered, so it holds them (opponents see the same
//!   token count) but can never play them.
//! - **The loop.** Games are played through [`env::Driver`], 64 to a rayon task, agents built
//!   once per worker ([`eval::tasks`]); every seed depends only on the game's index in the plan,
//!   so the outcomes do not depend on the number of threads.

use crate::error::ResearchError;
use env::{Agent, AgentBuilder, Controller, Driver, DriverError, Finished, GameStart, Pending, StepEvent, TableError};
use eval::arena::win_share;
use eval::tasks::{self, Seats, illegal_index};
use game::{MAX_PLAYERS, Seat, derive_seed};
use kessel::Kessel;
use kessel::config::TokenAssignment;
use kessel::{Action, RuleConfig, State, Token, TokenSet};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Stream tag of the agents' RNG seeds.
pub const AGENT_STREAM: u64 = 0x7E5E_A4C4_A6E7_0001;
/// Stream tag of the other seats' loadouts.
pub const LOADOUT_STREAM: u64 = 0x7E5E_A4C4_10AD_0002;
/// Stream tag of the focal seat's companion and replacement tokens.
pub const COMPANION_STREAM: u64 = 0x7E5E_A4C4_C0A1_0003;

/// Games handed to the thread pool at once: outcomes are folded batch by batch, so memory does
/// not grow with the study.
pub const BATCH: u64 = 1 << 16;
/// Games one driver plays at once (one rayon task), as in the arena.
const ROWS_PER_TASK: u64 = 64;
// A batch holds whole tasks, so the tasks of a batch are the whole plan's ([`play_parts`]).
const _: () = assert!(BATCH.is_multiple_of(ROWS_PER_TASK));

/// What every game of deal `index` shares, whatever the arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    /// Deal index.
    pub index: u64,
    /// The game seed.
    pub seed: u64,
    /// Base of the agents' RNG seeds.
    pub agent_seed: u64,
    /// The seat whose tokens are under study.
    pub focal: Seat,
    /// Every seat's loadout; the focal seat's entry is filled per arm.
    pub loadouts: [TokenSet; MAX_PLAYERS],
    /// Seed for the focal seat's companion tokens (per token under study).
    pub companion_seed: u64,
}

/// Deal `index` of a study with base `seed` under `rules` (players and token settings).
pub fn deal(seed: u64, index: u64, rules: &RuleConfig) -> Deal {
    let players = rules.players.max(1) as u64;
    let focal = Seat((index % players) as u8);
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(seed ^ LOADOUT_STREAM, index));
    let mut loadouts = [TokenSet::EMPTY; MAX_PLAYERS];
    for (s, l) in loadouts.iter_mut().enumerate().take(rules.players as usize) {
        if s != focal.index() {
            *l = draw_kinds(rules.enabled_tokens, rules.tokens_per_player as usize, &mut rng);
        }
    }
    Deal {
        index,
        seed: derive_seed(seed, index),
        agent_seed: derive_seed(seed ^ AGENT_STREAM, index),
        focal,
        loadouts,
        companion_seed: derive_seed(seed ^ COMPANION_STREAM, index),
    }
}

/// `k` distinct kinds drawn uniformly from `from` (all of them if it holds fewer).
pub fn draw_kinds(from: TokenSet, k: usize, rng: &mut Pcg64Mcg) -> TokenSet {
    let mut pool: Vec<Token> = from.iter().collect();
    let mut out = TokenSet::EMPTY;
    for j in 0..k.min(pool.len()) {
        let r = rng.random_range(j..pool.len());
        pool.swap(j, r);
        out.insert(pool[j]);
    }
    out
}

/// The seating of a deal: `focal_agent` in the focal seat, `opponents` (agent indices, cycled)
/// clockwise from it.
pub fn seating(focal: Seat, players: u8, focal_agent: usize, opponents: &[usize]) -> [u8; MAX_PLAYERS] {
    let mut s = [0u8; MAX_PLAYERS];
    let n = players as usize;
    s[focal.index()] = focal_agent as u8;
    for i in 0..n.saturating_sub(1) {
        s[(focal.index() + 1 + i) % n] = opponents[i % opponents.len().max(1)] as u8;
    }
    s
}

/// One game of a study.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameSpec {
    /// The rules of this game (players, token assignment, loadouts).
    pub rules: RuleConfig,
    /// The game seed.
    pub seed: u64,
    /// Base of the agents' RNG seeds (seat `s` draws from `derive_seed(agent_seed, s)`).
    pub agent_seed: u64,
    /// Agent index (into the study's agent list) per seat.
    pub seating: [u8; MAX_PLAYERS],
    /// The focal seat.
    pub focal: Seat,
    /// Kinds the focal seat holds but may not play (restricted play).
    pub forbidden: TokenSet,
}

impl Deal {
    /// The game of this deal with `focal_loadout` in the focal seat under fixed assignment.
    pub fn game(
        &self,
        rules: &RuleConfig,
        focal_loadout: TokenSet,
        seating: [u8; MAX_PLAYERS],
        forbidden: TokenSet,
    ) -> GameSpec {
        let mut rules = *rules;
        rules.token_assignment = TokenAssignment::Fixed;
        rules.fixed_loadouts = self.loadouts;
        rules.fixed_loadouts[self.focal.index()] = focal_loadout;
        GameSpec { rules, seed: self.seed, agent_seed: self.agent_seed, seating, focal: self.focal, forbidden }
    }
}

/// What a study keeps of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Win share per seat: 1 for a sole winner, 1/k for k sharing the win, 0 otherwise (and 0 for
    /// everyone in a game cut off by the round limit).
    pub win: [f64; MAX_PLAYERS],
    /// Chips in stock at the end, per seat (0 once eliminated).
    pub chips: [u16; MAX_PLAYERS],
    /// Kinds each seat played.
    pub played: [TokenSet; MAX_PLAYERS],
    /// Token picks in order (`token_assignment = choose`): who picked which kind.
    pub picks: Vec<(Seat, Token)>,
    /// Cut off by the round limit.
    pub truncated: bool,
    /// Rounds played.
    pub rounds: u16,
}

/// The outcome of a game from its final state.
fn outcome(state: &State, played: [TokenSet; MAX_PLAYERS], picks: Vec<(Seat, Token)>) -> Outcome {
    let n = state.num_players() as usize;
    let mut o = Outcome {
        win: [0.0; MAX_PLAYERS],
        chips: [0; MAX_PLAYERS],
        played,
        picks,
        truncated: state.is_truncated(),
        rounds: state.round(),
    };
    for s in 0..n {
        let seat = Seat(s as u8);
        o.win[s] = win_share::<Kessel>(state, seat);
        o.chips[s] = state.player(seat).stock.0;
    }
    o
}

/// Plays games `range` of a plan on the current rayon pool: `spec(g)` says how game `g` is
/// set up, `agents` are the study's agent specs (indexed by [`GameSpec::seating`]). Outcomes
/// come back in game order; `progress` is called after every game.
pub fn play(
    agents: &[String],
    range: std::ops::Range<u64>,
    spec: &(dyn Fn(u64) -> GameSpec + Sync),
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Outcome>, ResearchError> {
    play_spans(agents, tasks::spans(range, ROWS_PER_TASK), spec, factory, progress)
}

/// Plays `spans` (one task each) on the current rayon pool; outcomes come back in task order.
fn play_spans(
    agents: &[String],
    spans: Vec<std::ops::Range<u64>>,
    spec: &(dyn Fn(u64) -> GameSpec + Sync),
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Outcome>, ResearchError> {
    let chunks = tasks::on_workers(spans, agents, factory, ResearchError::Spec, |games, built| {
        play_task(agents, games, spec, built, progress)
    })?;
    Ok(chunks.into_iter().flatten().collect())
}

/// Builds every agent once, so a bad spec fails before any game is played.
pub fn check_agents(agents: &[String], factory: &dyn AgentBuilder<Kessel>) -> Result<(), ResearchError> {
    for a in agents {
        factory.build(a).map_err(ResearchError::Spec)?;
    }
    Ok(())
}

/// Warnings for agents seated at a table they were not trained for (see
/// [`agents::fit_warnings`]); specs that do not parse give none here (they fail when built).
pub fn fit_warnings(agents: &[String], rules: &RuleConfig) -> Vec<String> {
    agents
        .iter()
        .filter_map(|a| agents::AgentSpec::parse::<Kessel>(a).ok())
        .flat_map(|spec| agents::fit_warnings::<Kessel>(&spec, rules))
        .collect()
}

fn play_task(
    names: &[String],
    games: std::ops::Range<u64>,
    spec: &(dyn Fn(u64) -> GameSpec + Sync),
    agents: &mut Vec<Box<dyn Agent<Kessel>>>,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Outcome>, ResearchError> {
    let rows = (games.end - games.start) as usize;
    let mut c = Games {
        spec,
        start: games.start,
        seats: Seats::new(std::mem::take(agents), rows, games),
        row_spec: vec![None; rows],
        played: vec![[TokenSet::EMPTY; MAX_PLAYERS]; rows],
        picks: vec![Vec::new(); rows],
        outcomes: vec![None; rows],
        progress,
    };
    let result = Driver::new(rows).run(&mut c).map_err(|e| driver_error(e, &c.seats, names, |row| c.seats.game(row)));
    let Games { seats, outcomes, .. } = c;
    *agents = seats.into_agents();
    result?;
    Ok(outcomes.into_iter().map(|o| o.expect("every game of the task finished")).collect())
}

/// A driver's error as a study's: an illegal action names the game (`game(row)`, its index in
/// the plan) and the agent (from `names`, the specs the seats index).
pub(crate) fn driver_error(
    e: DriverError<ResearchError>,
    seats: &Seats<Kessel>,
    names: &[String],
    game: impl Fn(usize) -> u64,
) -> ResearchError {
    match e {
        DriverError::Controller(e) => e,
        DriverError::Illegal { row, seat, error } => ResearchError::Illegal {
            game: game(row) as usize,
            agent: names[seats.agent_at(row, seat)].clone(),
            action: illegal_index(&error),
        },
        DriverError::Config { error, .. } => ResearchError::Settings(error.to_string()),
    }
}

/// An agent's failure at a decision of game `game` (its index in the plan) as a study's error.
pub(crate) fn agent_error(e: TableError, game: u64) -> ResearchError {
    ResearchError::Agent { game: game as usize, error: e.error }
}

/// The driver's controller for one task.
struct Games<'a> {
    spec: &'a (dyn Fn(u64) -> GameSpec + Sync),
    start: u64,
    seats: Seats<Kessel>,
    row_spec: Vec<Option<GameSpec>>,
    played: Vec<[TokenSet; MAX_PLAYERS]>,
    picks: Vec<Vec<(Seat, Token)>>,
    outcomes: Vec<Option<Outcome>>,
    progress: &'a (dyn Fn() + Sync),
}

impl Games<'_> {
    /// The kinds `p`'s actor may not play in its game.
    fn forbidden(&self, p: &Pending<'_, Kessel>) -> TokenSet {
        match &self.row_spec[p.row] {
            Some(s) if s.focal == p.actor => s.forbidden,
            _ => TokenSet::EMPTY,
        }
    }
}

impl Controller<Kessel> for Games<'_> {
    type Error = ResearchError;

    fn next_game(&mut self, row: usize) -> Result<Option<GameStart<Kessel>>, ResearchError> {
        let Some(g) = self.seats.take(row) else { return Ok(None) };
        let spec = (self.spec)(g);
        let n = spec.rules.players as usize;
        let seating: Vec<usize> = spec.seating[..n].iter().map(|&a| a as usize).collect();
        self.seats.seat(row, &seating, spec.agent_seed);
        self.row_spec[row] = Some(spec);
        self.played[row] = [TokenSet::EMPTY; MAX_PLAYERS];
        self.picks[row].clear();
        Ok(Some(GameStart::deal(
            env::GameConfig::<Kessel> { rules: spec.rules, ..env::GameConfig::<Kessel>::default() },
            spec.seed,
        )))
    }

    fn decide(&mut self, pending: &[Pending<'_, Kessel>], actions: &mut [usize]) -> Result<(), ResearchError> {
        let restricted = pending.iter().any(|p| !self.forbidden(p).is_empty());
        let result = if restricted {
            let offered: Vec<Pending<'_, Kessel>> = pending
                .iter()
                .map(|p| {
                    let mut q = *p;
                    for t in self.forbidden(p).iter() {
                        q.mask.clear_index(Action::PlayToken(t).index());
                    }
                    q
                })
                .collect();
            self.seats.decide(&offered, actions)
        } else {
            self.seats.decide(pending, actions)
        };
        result.map_err(|e| {
            let game = self.seats.game(e.row);
            agent_error(e, game)
        })
    }

    fn stepped(&mut self, e: &StepEvent<'_, Kessel>) -> Result<(), ResearchError> {
        match e.action {
            Action::PlayToken(t) => {
                self.played[e.row][e.seat.index()].insert(t);
            }
            Action::ChooseToken(t) => self.picks[e.row].push((e.seat, t)),
            _ => {}
        }
        Ok(())
    }

    fn finished(&mut self, f: &Finished<'_, Kessel>) -> Result<(), ResearchError> {
        let g = self.seats.game(f.row);
        let picks = std::mem::take(&mut self.picks[f.row]);
        self.outcomes[(g - self.start) as usize] = Some(outcome(f.state, self.played[f.row], picks));
        (self.progress)();
        Ok(())
    }
}

/// Plays `0..total` in batches of [`BATCH`] games, handing each task's outcomes (with the index
/// of its first game) to `fold` in game order: [`play_parts`] with one part, the whole plan.
pub fn play_folded(
    agents: &[String],
    total: u64,
    spec: &(dyn Fn(u64) -> GameSpec + Sync),
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
    fold: &mut dyn FnMut(u64, &[Outcome]),
) -> Result<(), ResearchError> {
    play_parts(agents, total, std::slice::from_ref(&(0..total)), spec, factory, progress, fold)
}

/// Plays the games of `parts` (ranges within `0..total`, in order, not overlapping) of a plan of
/// `total` games: the whole plan, or a shard of it. Games are handed to the thread pool a batch
/// of [`BATCH`] at a time (so memory does not grow with the plan) and each is played in the task
/// it has in the whole plan, cut at the parts' ends, so a shard's games are the whole plan's;
/// `fold` gets each task's outcomes with the index of its first game, in game order.
pub fn play_parts(
    agents: &[String],
    total: u64,
    parts: &[std::ops::Range<u64>],
    spec: &(dyn Fn(u64) -> GameSpec + Sync),
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
    fold: &mut dyn FnMut(u64, &[Outcome]),
) -> Result<(), ResearchError> {
    let mut start = 0;
    while start < total {
        let end = (start + BATCH).min(total);
        // The whole plan's tasks start at multiples of ROWS_PER_TASK, so a part's games in this
        // batch are cut at those multiples.
        let mut spans = Vec::new();
        for p in parts {
            let (mut from, to) = (p.start.max(start), p.end.min(end));
            while from < to {
                let next = ((from / ROWS_PER_TASK + 1) * ROWS_PER_TASK).min(to);
                spans.push(from..next);
                from = next;
            }
        }
        if !spans.is_empty() {
            let out = play_spans(agents, spans.clone(), spec, factory, progress)?;
            let mut at = 0;
            for s in spans {
                let n = (s.end - s.start) as usize;
                fold(s.start, &out[at..at + n]);
                at += n;
            }
        }
        start = end;
    }
    Ok(())
}

/// Checks a drafting game's candidates (`study` names the study in the message): at least two,
/// each `tokens_per_player` distinct enabled kinds, none listed twice.
pub fn check_candidates(study: &str, candidates: &[TokenSet], rules: &RuleConfig) -> Result<(), ResearchError> {
    if candidates.len() < 2 {
        return Err(ResearchError::Settings(format!("{study}: give at least 2 candidate loadouts")));
    }
    for (i, l) in candidates.iter().enumerate() {
        if l.len() != rules.tokens_per_player as usize || l.0 & !rules.enabled_tokens.0 != 0 {
            return Err(ResearchError::Settings(format!(
                "{study}: `{}` is not {} distinct enabled kinds",
                loadout_name(*l),
                rules.tokens_per_player
            )));
        }
        if candidates[..i].contains(l) {
            return Err(ResearchError::Settings(format!("{study}: `{}` is listed twice", loadout_name(*l))));
        }
    }
    Ok(())
}

/// Unique specs in order of first appearance, and each listed spec's index among them.
pub fn agent_list(groups: &[&[String]]) -> (Vec<String>, Vec<Vec<usize>>) {
    let all: Vec<String> = groups.iter().flat_map(|g| g.iter().cloned()).collect();
    let names = eval::arena::agent_names(&all);
    let index = |a: &String| names.iter().position(|n| n == a).expect("every spec is listed");
    let idx = groups.iter().map(|g| g.iter().map(index).collect()).collect();
    (names, idx)
}

/// Checks the table settings every study shares: seats, rules, a non-empty opponent list, and
/// tokens in play. Returns the rules with `players` set.
pub fn table_rules(players: u8, rules: &RuleConfig, opponents: &[String]) -> Result<RuleConfig, ResearchError> {
    if !(2..=MAX_PLAYERS as u8).contains(&players) {
        return Err(ResearchError::Settings(format!("--players: {players} is out of range; a table seats 2 to 8")));
    }
    if opponents.is_empty() {
        return Err(ResearchError::Settings("--agents: list at least one agent".into()));
    }
    let rules = RuleConfig { players, ..*rules };
    if rules.tokens_per_player == 0 {
        return Err(ResearchError::Settings(
            "rules: tokens_per_player is 0, so nobody holds a token; a token study needs 1 to 16".into(),
        ));
    }
    // The studies assign tokens themselves; check the rest of the rules as a fixed-loadout table.
    let probe = RuleConfig { token_assignment: TokenAssignment::Random, ..rules };
    probe.validate().map_err(|e| ResearchError::Settings(format!("rules: {e}")))?;
    Ok(rules)
}

/// Every kind's name, for messages listing the valid ones.
pub fn token_names() -> String {
    Token::ALL.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
}

/// Parses one token name; an unknown name gets an error listing the valid ones.
pub fn parse_token(arg: &str, name: &str) -> Result<Token, ResearchError> {
    Token::parse(name).ok_or_else(|| {
        ResearchError::Settings(format!("{arg}: unknown token `{}`; valid tokens: {}", name.trim(), token_names()))
    })
}

/// Names of a set's kinds joined with `+` (`embargo+immunity+refund`), the loadout syntax.
pub fn loadout_name(l: TokenSet) -> String {
    l.iter().map(|t| t.name()).collect::<Vec<_>>().join("+")
}
