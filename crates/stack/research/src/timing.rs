//! The `timing` study: when is playing a Shift Token right?
//!
//! 1. **Positions.** Games between the chosen agents are played through the one game loop; in
//!    each game one decision at which the acting seat could play a token is picked at random
//!    (reservoir sampling from the game's own seed), with the acting agent's actual choice.
//! 2. **Branches.** At each position the acting seat either *holds* (its agent chooses among the
//!    legal actions that are not tokens) or *plays token T now* (for a targeted token, once per
//!    legal target), after which its agent plays on.
//! 3. **Counterfactual rollouts, without peeking.** Every branch is finished `continuations`
//!    times by the same agents. Before each rollout, everything the deciding seat cannot see (the
//!    opponents' unknown cards, the order of the draw piles, the opponents' unplayed tokens
//!    unless loadouts are public, the future dice and shuffles) is resampled from that seat's view
//!    ([`kessel::sample::sample_state`], the search bot's sampler): a branch is judged only on
//!    what the decider knows, so its values are a function of the decider's view alone. Continuation
//!    `k` of a position uses the same sampled world and the same future randomness in every branch
//!    (and the agents' RNGs are seeded alike): common random numbers, so the branches differ only
//!    by the decision under study wherever the rules let them.
//! 4. **Estimates.** Per position, a branch's value is the mean over its continuations of the
//!    seat's game win share (1, or 1/k for a k-way shared win) and of its chip change by the end
//!    of the round. A token's advantage is the value of playing it now (at its best target)
//!    minus the value of holding (paired by continuation). Intervals are over positions (Student's t, 95%).
//!
//! A targeted token's best target is chosen and measured on different continuations
//! (cross-fitted: [`crate::timing_report::token_advantages`]), so the maximum over noisy targets
//! does not flatter it. The agents' choices are read against two baselines on the same positions:
//! choosing uniformly among holding and the playable tokens, and always holding.

use crate::error::ResearchError;
use crate::estimate::Estimate;
use crate::study::{agent_error, check_agents, driver_error};
use env::{AgentBuilder, AgentRng, Controller, Driver, Finished, GameStart, Pending, RewardMode, StepEvent};
use eval::arena::{lineup, seatings};
use eval::tasks::{self, Seats};
use game::{Seat, derive_seed};
use kessel::sample::sample_state;
use kessel::{Action, CardKind, Kessel, RuleConfig, State, Token};
use rand::{RngExt, SeedableRng};
use serde::Serialize;

/// Stream tags of the study's seeds (each purpose its own stream).
const DEAL_STREAM: u64 = 0x71AE_0000_0000_0001;
const AGENT_STREAM: u64 = 0x71AE_0000_0000_0002;
const PICK_STREAM: u64 = 0x71AE_0000_0000_0003;
const FUTURE_STREAM: u64 = 0x71AE_0000_0000_0004;

/// Rows per driver: many games in flight so a neural policy sees large batches.
const ROWS: usize = 64;

/// What to study.
#[derive(Clone, Debug)]
pub struct TimingStudy {
    /// Table size.
    pub players: u8,
    /// Agent specs, cycled to fill the seats (as in the arena).
    pub agents: Vec<String>,
    /// Rules (the table size is set from `players`).
    pub rules: RuleConfig,
    /// Source games; one position is taken from each game that offers a token decision.
    pub games: u64,
    /// Rollouts per branch of each position.
    pub continuations: u32,
    /// The study's seed: every deal, pick and rollout derives from it.
    pub seed: u64,
}

/// One position of the study: the state at a decision where a token was playable.
#[derive(Clone, Debug)]
pub struct Position {
    /// Index of the source game.
    pub game: u64,
    /// The state at the decision (the acting seat is `seat`).
    pub state: State,
    /// The acting seat.
    pub seat: Seat,
    /// Seat → lineup entry of the source game.
    pub seating: Vec<usize>,
    /// The acting agent's actual choice there (`None` for a position given by hand).
    pub choice: Option<Action>,
}

/// One line of play from a position: hold (no token this action) or play a token (at a target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Branch {
    /// The seat's agent chooses among the legal actions that are not tokens.
    Hold,
    /// Play the token now, then (if it targets) at the seat `offset` places clockwise.
    Play {
        /// The token.
        token: Token,
        /// Clockwise offset of the target, for a targeted token.
        target: Option<u8>,
    },
}

impl Branch {
    /// `hold`, `token:NAME` or `token:NAME@+k`.
    pub fn label(&self) -> String {
        match self {
            Branch::Hold => "hold".into(),
            Branch::Play { token, target: None } => format!("token:{}", token.name()),
            Branch::Play { token, target: Some(o) } => format!("token:{}@+{o}", token.name()),
        }
    }

    /// The actions the branch forces on the seat (nothing for hold).
    fn forced(&self) -> Vec<Action> {
        match *self {
            Branch::Hold => Vec::new(),
            Branch::Play { token, target } => {
                let mut v = vec![Action::PlayToken(token)];
                v.extend(target.map(Action::Target));
                v
            }
        }
    }
}

/// The branches at a position: hold (if any non-token action is legal), then every playable
/// token, once per legal target for a targeted one.
pub fn branches(state: &State) -> Vec<Branch> {
    let mask = state.legal_mask();
    let mut out = Vec::new();
    if !kessel::without_tokens(mask).is_empty() {
        out.push(Branch::Hold);
    }
    for a in mask.actions() {
        let Action::PlayToken(token) = a else { continue };
        let mut s = state.clone();
        s.set_event_logging(false);
        if s.apply(a).is_err() {
            continue;
        }
        let next = s.legal_mask();
        let targets: Vec<u8> =
            next.actions().filter_map(|b| if let Action::Target(o) = b { Some(o) } else { None }).collect();
        if !targets.is_empty() && targets.len() == next.count() && s.current_player() == state.current_player() {
            out.extend(targets.into_iter().map(|o| Branch::Play { token, target: Some(o) }));
        } else {
            out.push(Branch::Play { token, target: None });
        }
    }
    out
}

/// The mean outcome of one branch at one position.
#[derive(Clone, Debug, Serialize)]
pub struct BranchValue {
    /// The branch.
    pub branch: String,
    /// Mean game win share over the continuations, with its 95% interval.
    pub win: Estimate,
    /// Mean chip change by the end of the round, with its 95% interval.
    pub chips: Estimate,
    /// The branch's advantage over holding, continuation by continuation (common random numbers).
    pub win_vs_hold: Option<Estimate>,
}

/// The outcomes of every continuation of every branch of one position.
#[derive(Clone, Debug)]
pub struct PositionOutcomes {
    /// The branches, in [`branches`] order.
    pub branches: Vec<Branch>,
    /// `win[b][k]`: the seat's win share in continuation `k` of branch `b`.
    pub win: Vec<Vec<f64>>,
    /// `chips[b][k]`: its chip change by the end of the round.
    pub chips: Vec<Vec<f64>>,
}

impl PositionOutcomes {
    /// Per-branch means with intervals (and each branch's paired difference from holding).
    pub fn values(&self) -> Vec<BranchValue> {
        let hold = self.branches.iter().position(|b| *b == Branch::Hold);
        self.branches
            .iter()
            .enumerate()
            .map(|(b, br)| BranchValue {
                branch: br.label(),
                win: Estimate::of(&self.win[b]),
                chips: Estimate::of(&self.chips[b]),
                win_vs_hold: hold.filter(|&h| h != b).map(|h| {
                    let d: Vec<f64> = self.win[b].iter().zip(&self.win[h]).map(|(x, y)| x - y).collect();
                    Estimate::of(&d)
                }),
            })
            .collect()
    }
}

/// One finished rollout: its job, the seat's win share and its chip change by the round's end.
type Outcome = (Job, f64, f64);

/// A job of the rollout phase: continuation `k` of branch `branch` of position `pos`.
#[derive(Clone, Copy, Debug)]
struct Job {
    pos: usize,
    branch: usize,
    k: u32,
}

/// Plays every continuation of every branch of `positions`, spread over the rayon pool, with
/// `lineup[seating[s]]` at seat `s`. Returns one [`PositionOutcomes`] per position.
pub fn rollouts(
    positions: &[Position],
    lineup: &[String],
    continuations: u32,
    seed: u64,
    builder: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<PositionOutcomes>, ResearchError> {
    if continuations == 0 {
        return Err(ResearchError::Settings("continuations: must be at least 1".into()));
    }
    let branch_lists: Vec<Vec<Branch>> = positions.iter().map(|p| branches(&p.state)).collect();
    let mut jobs = Vec::new();
    for (pos, bs) in branch_lists.iter().enumerate() {
        for branch in 0..bs.len() {
            for k in 0..continuations {
                jobs.push(Job { pos, branch, k });
            }
        }
    }
    let chunk = ROWS as u64 * 4;
    let results = tasks::on_workers(
        tasks::spans(0..jobs.len() as u64, chunk),
        lineup,
        builder,
        ResearchError::Spec,
        |span, agents| {
            let n = (span.end - span.start) as usize;
            let rows = ROWS.min(n);
            let mut c = Rollouts {
                positions,
                branches: &branch_lists,
                jobs: &jobs,
                seed,
                seats: Seats::new(std::mem::take(agents), rows, span),
                rows: vec![RowJob::idle(); rows],
                out: Vec::with_capacity(n),
                scratch_at: Vec::new(),
                scratch_actions: Vec::new(),
            };
            let r = Driver::new(rows).run(&mut c).map_err(|e| driver_error(e, &c.seats, lineup, |row| c.game(row)));
            let Rollouts { seats, out, .. } = c;
            *agents = seats.into_agents();
            r?;
            progress(n as u64);
            Ok(out)
        },
    );
    let mut out: Vec<PositionOutcomes> = branch_lists
        .iter()
        .map(|bs| PositionOutcomes {
            branches: bs.clone(),
            win: vec![vec![0.0; continuations as usize]; bs.len()],
            chips: vec![vec![0.0; continuations as usize]; bs.len()],
        })
        .collect();
    for (job, win, chips) in results?.into_iter().flatten() {
        out[job.pos].win[job.branch][job.k as usize] = win;
        out[job.pos].chips[job.branch][job.k as usize] = chips;
    }
    Ok(out)
}

/// What a rollout row is doing.
#[derive(Clone, Debug)]
struct RowJob {
    job: Option<Job>,
    /// Forced actions still to play, front first.
    forced: Vec<Action>,
    /// The seat's first decision is still to come (a hold restricts it).
    first: bool,
    seat: Seat,
    round: u16,
    chips_at_start: f64,
    chips_change: Option<f64>,
}

impl RowJob {
    fn idle() -> RowJob {
        RowJob {
            job: None,
            forced: Vec::new(),
            first: false,
            seat: Seat(0),
            round: 0,
            chips_at_start: 0.0,
            chips_change: None,
        }
    }
}

/// The driver's controller for the rollout phase.
struct Rollouts<'a> {
    positions: &'a [Position],
    branches: &'a [Vec<Branch>],
    jobs: &'a [Job],
    seed: u64,
    seats: Seats<Kessel>,
    rows: Vec<RowJob>,
    out: Vec<Outcome>,
    scratch_at: Vec<usize>,
    scratch_actions: Vec<usize>,
}

fn holdings(s: &State, seat: Seat) -> f64 {
    let p = s.player(seat);
    (p.stock.0 + p.pot.0) as f64
}

impl Controller<Kessel> for Rollouts<'_> {
    type Error = ResearchError;

    fn next_game(&mut self, row: usize) -> Result<Option<GameStart<Kessel>>, ResearchError> {
        let Some(i) = self.seats.take(row) else { return Ok(None) };
        let job = self.jobs[i as usize];
        let p = &self.positions[job.pos];
        let branch = self.branches[job.pos][job.branch];
        // The same future for every branch of continuation k: the state's streams and the agents'.
        let future = derive_seed(derive_seed(self.seed ^ FUTURE_STREAM, p.game), job.k as u64);
        // A world consistent with the decider's view: what it cannot see is resampled, never read.
        let mut state = sample_state(&p.state.view(p.seat), future).map_err(|e| ResearchError::Resample {
            game: p.game,
            seat: p.seat.0,
            message: e.to_string(),
        })?;
        state.reseed(future);
        self.seats.seat(row, &p.seating, future ^ AGENT_STREAM);
        self.rows[row] = RowJob {
            job: Some(job),
            forced: branch.forced(),
            first: true,
            seat: p.seat,
            round: state.round(),
            chips_at_start: holdings(&state, p.seat),
            chips_change: None,
        };
        Ok(Some(GameStart::at(state, RewardMode::default())))
    }

    fn decide(&mut self, pending: &[Pending<'_, Kessel>], actions: &mut [usize]) -> Result<(), ResearchError> {
        let mut asked: Vec<Pending<'_, Kessel>> = Vec::with_capacity(pending.len());
        self.scratch_at.clear();
        for (k, p) in pending.iter().enumerate() {
            let r = &mut self.rows[p.row];
            if p.actor == r.seat && !r.forced.is_empty() {
                actions[k] = r.forced.remove(0).index();
                r.first = false;
                continue;
            }
            let mut q = *p;
            if p.actor == r.seat && r.first {
                r.first = false;
                if r.forced.is_empty() && matches!(self.branches_of(p.row), Some(Branch::Hold)) {
                    q.mask = kessel::without_tokens(p.mask);
                }
            }
            asked.push(q);
            self.scratch_at.push(k);
        }
        self.scratch_actions.clear();
        self.scratch_actions.resize(asked.len(), usize::MAX);
        if let Err(e) = self.seats.decide(&asked, &mut self.scratch_actions) {
            let game = self.game(e.row);
            return Err(agent_error(e, game));
        }
        for (i, &k) in self.scratch_at.iter().enumerate() {
            actions[k] = self.scratch_actions[i];
        }
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_, Kessel>) -> Result<(), ResearchError> {
        let r = &mut self.rows[e.row];
        if r.chips_change.is_none() && (e.state.round() != r.round || e.done) {
            r.chips_change = Some(holdings(e.state, r.seat) - r.chips_at_start);
        }
        Ok(())
    }

    fn finished(&mut self, f: &Finished<'_, Kessel>) -> Result<(), ResearchError> {
        let r = &self.rows[f.row];
        let job = r.job.expect("a finished row had a job");
        self.out.push((job, eval::arena::win_share::<Kessel>(f.state, r.seat), r.chips_change.unwrap_or(0.0)));
        Ok(())
    }
}

impl Rollouts<'_> {
    fn branches_of(&self, row: usize) -> Option<Branch> {
        self.rows[row].job.map(|j| self.branches[j.pos][j.branch])
    }

    /// The source game of the position `row` plays on.
    fn game(&self, row: usize) -> u64 {
        self.rows[row].job.map_or(0, |j| self.positions[j.pos].game)
    }
}

/// Plays `games` source games and picks one token decision from each (module docs, step 1).
pub fn collect_positions(
    study: &TimingStudy,
    builder: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<String>, Vec<Position>), ResearchError> {
    let lineup = lineup(&study.agents, study.players).map_err(|e| ResearchError::Settings(e.to_string()))?;
    check_agents(&lineup, builder)?;
    let rules = RuleConfig { players: study.players, ..study.rules };
    rules.validate().map_err(|e| ResearchError::Settings(e.to_string()))?;
    if study.games == 0 {
        return Err(ResearchError::Settings("games: must be at least 1".into()));
    }
    let seats = seatings(study.players as usize);
    let found = tasks::on_workers(
        tasks::spans(0..study.games, ROWS as u64),
        &lineup,
        builder,
        ResearchError::Spec,
        |games, agents| {
            let n = games.end - games.start;
            let rows = n as usize;
            let mut c = Sampler {
                rules,
                seed: study.seed,
                seatings: &seats,
                seats: Seats::new(std::mem::take(agents), rows, games),
                rows: vec![SampleRow::default(); rows],
                out: Vec::new(),
            };
            let r =
                Driver::new(rows).run(&mut c).map_err(|e| driver_error(e, &c.seats, &lineup, |row| c.seats.game(row)));
            let Sampler { seats, out, .. } = c;
            *agents = seats.into_agents();
            r?;
            progress(n);
            Ok(out)
        },
    )?;
    let mut positions: Vec<Position> = found.into_iter().flatten().collect();
    positions.sort_by_key(|p| p.game);
    Ok((lineup, positions))
}

#[derive(Clone, Debug, Default)]
struct SampleRow {
    game: u64,
    seating: Vec<usize>,
    last: Option<State>,
    seen: u32,
    picked: Option<(State, Seat)>,
    choice: Option<Action>,
    rng: Option<AgentRng>,
}

/// The driver's controller for the position-collecting phase.
struct Sampler<'a> {
    rules: RuleConfig,
    seed: u64,
    seatings: &'a [Vec<usize>],
    seats: Seats<Kessel>,
    rows: Vec<SampleRow>,
    out: Vec<Position>,
}

impl Controller<Kessel> for Sampler<'_> {
    type Error = ResearchError;

    fn next_game(&mut self, row: usize) -> Result<Option<GameStart<Kessel>>, ResearchError> {
        let Some(g) = self.seats.take(row) else { return Ok(None) };
        let seating = self.seatings[(g % self.seatings.len() as u64) as usize].clone();
        let deal = g / self.seatings.len() as u64;
        self.seats.seat(row, &seating, derive_seed(self.seed ^ AGENT_STREAM, g));
        self.rows[row] = SampleRow {
            game: g,
            seating,
            rng: Some(AgentRng::seed_from_u64(derive_seed(self.seed ^ PICK_STREAM, g))),
            ..SampleRow::default()
        };
        let config = env::GameConfig::<Kessel> { rules: self.rules, ..env::GameConfig::<Kessel>::default() };
        Ok(Some(GameStart::deal(config, derive_seed(self.seed ^ DEAL_STREAM, deal))))
    }

    fn started(&mut self, row: usize, state: &State) -> Result<(), ResearchError> {
        self.rows[row].last = Some(state.clone());
        Ok(())
    }

    fn decide(&mut self, pending: &[Pending<'_, Kessel>], actions: &mut [usize]) -> Result<(), ResearchError> {
        if let Err(e) = self.seats.decide(pending, actions) {
            let game = self.seats.game(e.row);
            return Err(agent_error(e, game));
        }
        for (k, p) in pending.iter().enumerate() {
            if kessel::without_tokens(p.mask) == p.mask {
                continue;
            }
            let r = &mut self.rows[p.row];
            r.seen += 1;
            let rng = r.rng.as_mut().expect("seeded at the game's start");
            if rng.random_range(0..r.seen) == 0 {
                let state = r.last.clone().expect("the state before every decision is kept");
                r.picked = Some((state, p.actor));
                r.choice = Action::from_index(actions[k]);
            }
        }
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_, Kessel>) -> Result<(), ResearchError> {
        if !e.done {
            self.rows[e.row].last = Some(e.state.clone());
        }
        Ok(())
    }

    fn finished(&mut self, f: &Finished<'_, Kessel>) -> Result<(), ResearchError> {
        let r = std::mem::take(&mut self.rows[f.row]);
        if let Some((state, seat)) = r.picked {
            self.out.push(Position { game: r.game, state, seat, seating: r.seating, choice: r.choice });
        }
        Ok(())
    }
}

/// A coarse class of the seat's current hand, for breakdowns: `sabacc` (a pair, Sylops
/// included), `diff-1`, `diff-2-3`, `diff-4+`, or `impostor` (value still open).
pub fn hand_class(s: &State, seat: Seat) -> &'static str {
    let h = s.player(seat).hand;
    match (h[0].kind(), h[1].kind()) {
        (CardKind::Impostor, _) | (_, CardKind::Impostor) => "impostor",
        (CardKind::Sylop, _) | (_, CardKind::Sylop) => "sabacc",
        (CardKind::Number(a), CardKind::Number(b)) => match a.abs_diff(b) {
            0 => "sabacc",
            1 => "diff-1",
            2 | 3 => "diff-2-3",
            _ => "diff-4+",
        },
    }
}

/// The bucket of a round number.
pub fn round_bucket(round: u16) -> &'static str {
    match round {
        1 => "1",
        2 => "2",
        3 => "3",
        _ => "4+",
    }
}

/// The bucket of a chip stock (chips held in stock and in the pot).
pub fn stock_bucket(chips: u16) -> &'static str {
    match chips {
        0..=2 => "1-2",
        3..=4 => "3-4",
        5..=6 => "5-6",
        _ => "7+",
    }
}
