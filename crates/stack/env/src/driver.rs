//! The one game loop: many games of any mix of players, stepped in lockstep.
//!
//! Everything above the env that plays games — the arena, `sabacc simulate`, the trainer's
//! rollouts and its evaluation — goes through [`Driver`], so the order of events is written once:
//! ask the games that need one for a deal ([`Controller::next_game`]), hand every pending
//! decision to the controller in one call ([`Controller::decide`]), check and apply the actions,
//! report each step ([`Controller::stepped`]) and each finished game ([`Controller::finished`]).
//!
//! The controller decides *who* plays: it groups the pending decisions by player, so a neural
//! policy sees all its decisions of a step in one batch, while a heuristic bot answers one by one.
//! Agent code sees a [`Pending`] decision — the acting seat's view, observation and mask — never
//! the game with its hidden cards; the controller, which referees, sees the state in
//! [`StepEvent`] (for records such as token plays or chip counts).
//!
//! Games run one after the other inside a driver; callers that want several cores run one driver
//! per rayon task (the arena does), or use [`crate::VecEnv`], the env's raw vectorised stepping,
//! when one policy plays every seat.

use crate::env::{Env, EnvError, GameConfig};
use game::{Game, GameAction, LegalMask};
use game::{MAX_PLAYERS, Seat};

/// What the next game of a row is: its rules and its seed (the deal), or a position to play on
/// from (a branch of a counterfactual study, a scenario).
#[derive(Clone, Debug, PartialEq)]
pub struct GameStart<G: Game> {
    /// Rules and reward convention; may differ from game to game (e.g. mixed table sizes).
    pub config: GameConfig<G>,
    /// The game's seed: the same seed and config give the same deal.
    pub seed: u64,
    /// Play on from this position instead of dealing (its rules must be `config.rules`).
    pub position: Option<Box<G::State>>,
}

impl<G: Game> GameStart<G> {
    /// A new game dealt from `seed` under `config`.
    pub fn deal(config: GameConfig<G>, seed: u64) -> GameStart<G> {
        GameStart { config, seed, position: None }
    }

    /// Play on from `state` (under its own rules) with `reward`; the reported seed is the state's
    /// random seed.
    pub fn at(state: G::State, reward: game::RewardMode) -> GameStart<G> {
        let config = GameConfig { rules: *G::rules(&state), reward, event_log: false };
        GameStart { config, seed: G::seed(&state), position: Some(Box::new(state)) }
    }
}

/// A decision waiting for an action: which row, whose turn, what is legal, and what the acting
/// seat may see. The game itself is private (no hidden cards reach agent code).
#[derive(Clone, Copy, Debug)]
pub struct Pending<'a, G: Game> {
    /// The row (game slot) of the driver.
    pub row: usize,
    /// The seat to act.
    pub actor: Seat,
    /// Its legal actions (never empty).
    pub mask: G::Mask,
    env: &'a Env<G>,
}

impl<G: Game> Pending<'_, G> {
    /// What the acting seat may see.
    pub fn view(&self) -> G::View {
        self.env.view(self.actor)
    }

    /// Writes the acting seat's observation into `obs` (length [`game::EnvSpec::obs_len`]).
    pub fn observe_into(&self, obs: &mut [f32]) {
        self.env.observe_into(self.actor, obs);
    }

    /// Number of seats at this game's table.
    pub fn players(&self) -> u8 {
        self.env.num_players()
    }
}

/// One applied action, as the referee sees it.
#[derive(Clone, Copy, Debug)]
pub struct StepEvent<'a, G: Game> {
    /// The row.
    pub row: usize,
    /// The seat that acted.
    pub seat: Seat,
    /// Its action.
    pub action: G::Action,
    /// The state after the action (chips, eliminations: what records and invariant checks need).
    pub state: &'a G::State,
    /// Every seat's reward on this step (absolute seats; non-zero only at the end).
    pub rewards: [f32; MAX_PLAYERS],
    /// The game ended on this step (by the rules or by the round limit).
    pub done: bool,
}

/// A finished game, as the referee sees it.
#[derive(Clone, Copy, Debug)]
pub struct Finished<'a, G: Game> {
    /// The row.
    pub row: usize,
    /// The game's seed.
    pub seed: u64,
    /// The final state (winners, chips, elimination rounds).
    pub state: &'a G::State,
    /// Every seat's return (absolute seats; padding 0).
    pub returns: [f32; MAX_PLAYERS],
    /// Actions applied in the game.
    pub steps: u32,
}

/// Why the driver stopped: an illegal action (naming the row and the offending index) or a
/// controller error.
#[derive(Debug, thiserror::Error)]
pub enum DriverError<E> {
    /// The controller chose an action outside the mask; nothing was applied in that row.
    #[error("row {row}: {error}")]
    Illegal {
        /// The row.
        row: usize,
        /// The seat whose decision it was.
        seat: Seat,
        /// The env's description of the illegal action.
        error: EnvError,
    },
    /// A game's rules were refused.
    #[error("row {row}: {error}")]
    Config {
        /// The row.
        row: usize,
        /// Why.
        error: EnvError,
    },
    /// The controller failed (an agent error, say).
    #[error(transparent)]
    Controller(E),
}

/// Who plays, and what is recorded: the part of a game loop that differs between the arena, the
/// trainer and the tools.
pub trait Controller<G: Game> {
    /// The controller's own error type (an agent that failed, say).
    type Error;

    /// The next game for `row`, or `None` when the row has no more games to play.
    fn next_game(&mut self, row: usize) -> Result<Option<GameStart<G>>, Self::Error>;

    /// Chooses an action index for every pending decision, into `actions` (same order and
    /// length as `pending`). Illegal choices are refused by the driver, never replaced.
    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), Self::Error>;

    /// Called when a game starts in `row`, with its first state (before any decision).
    fn started(&mut self, _row: usize, _state: &G::State) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Called after every applied action.
    fn stepped(&mut self, _event: &StepEvent<'_, G>) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Called once per finished game, before the row asks for its next game.
    fn finished(&mut self, _game: &Finished<'_, G>) -> Result<(), Self::Error> {
        Ok(())
    }
}

#[derive(Clone, Debug)]
struct Row<G: Game> {
    env: Option<Env<G>>,
    /// A game is in progress.
    live: bool,
    /// `next_game` said there are no more games for this row.
    exhausted: bool,
}

/// Lockstep games over a fixed number of rows (see the module documentation).
#[derive(Clone, Debug)]
pub struct Driver<G: Game> {
    rows: Vec<Row<G>>,
    order: Vec<usize>,
    actions: Vec<usize>,
    /// The step's actions once checked, as actions: each index is checked and converted once.
    chosen: Vec<G::Action>,
    /// The pending decisions' buffer, kept empty between steps so no step allocates.
    spare: Vec<Pending<'static, G>>,
}

/// Empties `v` and hands its allocation to a vector of another lifetime (the standard library
/// collects a vector's own iterator in place), so the per-step buffer of [`Pending`]s, which
/// borrows the rows, can be reused.
fn recycle<'a, 'b, G: Game>(mut v: Vec<Pending<'a, G>>) -> Vec<Pending<'b, G>> {
    v.clear();
    v.into_iter().map(|_| unreachable!("the vector is empty")).collect()
}

impl<G: Game> Driver<G> {
    /// A driver with `rows` game slots, all idle.
    pub fn new(rows: usize) -> Driver<G> {
        Driver {
            rows: vec![Row { env: None, live: false, exhausted: false }; rows],
            order: Vec::with_capacity(rows),
            actions: Vec::with_capacity(rows),
            chosen: Vec::with_capacity(rows),
            spare: Vec::with_capacity(rows),
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// Number of games in progress.
    pub fn live(&self) -> usize {
        self.rows.iter().filter(|r| r.live).count()
    }

    /// Drops every game in progress and forgets exhausted rows, so the next step starts afresh.
    pub fn abandon_all(&mut self) {
        for r in &mut self.rows {
            r.live = false;
            r.exhausted = false;
        }
    }

    /// The game of `row` (for the referee: scoring, logging). Not for agent code.
    pub fn state(&self, row: usize) -> Option<&G::State> {
        self.env(row).map(|e| e.state())
    }

    /// The env of `row`, for wrappers inside this crate that report the env's own counters.
    pub(crate) fn env(&self, row: usize) -> Option<&Env<G>> {
        self.rows.get(row).and_then(|r| r.env.as_ref())
    }

    /// Starts games in idle rows without playing a decision: a front-end that waits for a person
    /// (the play server) starts its game, then steps only when the decision can be answered.
    pub fn start<C: Controller<G>>(&mut self, c: &mut C) -> Result<(), DriverError<C::Error>> {
        self.start_idle(c)
    }

    fn start_idle<C: Controller<G>>(&mut self, c: &mut C) -> Result<(), DriverError<C::Error>> {
        for (i, row) in self.rows.iter_mut().enumerate() {
            if row.live || row.exhausted {
                continue;
            }
            match c.next_game(i).map_err(DriverError::Controller)? {
                None => row.exhausted = true,
                Some(start) => {
                    let env = match row.env.as_mut() {
                        Some(env) if *env.config() == start.config => env,
                        _ => row
                            .env
                            .insert(Env::new(start.config).map_err(|error| DriverError::Config { row: i, error })?),
                    };
                    match start.position {
                        None => {
                            env.reset(start.seed);
                        }
                        Some(state) => {
                            if G::rules(&state) != &start.config.rules {
                                return Err(DriverError::Config { row: i, error: EnvError::PositionRules });
                            }
                            env.reset_to(*state);
                        }
                    }
                    row.live = !env.is_done();
                    c.started(i, env.state()).map_err(DriverError::Controller)?;
                }
            }
        }
        Ok(())
    }

    /// Starts games in idle rows, then plays one decision in every live game. Returns the number
    /// of games still live afterwards, or waiting to start (0: every row is exhausted).
    pub fn step<C: Controller<G>>(&mut self, c: &mut C) -> Result<usize, DriverError<C::Error>> {
        self.start_idle(c)?;
        self.order.clear();
        self.order.extend(self.rows.iter().enumerate().filter(|(_, r)| r.live).map(|(i, _)| i));
        if self.order.is_empty() {
            return Ok(0);
        }
        let mut pending: Vec<Pending<'_, G>> = recycle(std::mem::take(&mut self.spare));
        pending.extend(self.order.iter().map(|&i| {
            let env = self.rows[i].env.as_ref().expect("live rows hold a game");
            Pending {
                row: i,
                actor: env.current_player().expect("live games await a decision"),
                mask: env.legal_mask(),
                env,
            }
        }));
        self.actions.clear();
        self.actions.resize(pending.len(), usize::MAX);
        c.decide(&pending, &mut self.actions).map_err(DriverError::Controller)?;
        // Check every choice before applying any, so an illegal one leaves all games as they were.
        // This is each decision's one legality check: the env and the engine take it as given.
        self.chosen.clear();
        for (p, &a) in pending.iter().zip(&self.actions) {
            match G::Action::from_index(a) {
                Some(action) if p.mask.contains_index(a) => self.chosen.push(action),
                _ => {
                    return Err(DriverError::Illegal {
                        row: p.row,
                        seat: p.actor,
                        error: EnvError::illegal::<G>(a, Some(p.actor), p.mask),
                    });
                }
            }
        }
        self.spare = recycle(pending);
        for k in 0..self.order.len() {
            let (i, action) = (self.order[k], self.chosen[k]);
            let row = &mut self.rows[i];
            let env = row.env.as_mut().expect("live rows hold a game");
            let seat = env.current_player().expect("live games await a decision");
            let ts = env.step_legal(action);
            let event = StepEvent { row: i, seat, action, state: env.state(), rewards: ts.rewards, done: ts.done() };
            c.stepped(&event).map_err(DriverError::Controller)?;
            if ts.done() {
                row.live = false;
                let game = Finished {
                    row: i,
                    seed: env.seed(),
                    state: env.state(),
                    returns: env.returns(),
                    steps: env.episode_steps(),
                };
                c.finished(&game).map_err(DriverError::Controller)?;
            }
        }
        Ok(self.rows.iter().filter(|r| r.live || !r.exhausted).count())
    }

    /// Steps until every row is exhausted (the controller's `next_game` returned `None` for each).
    pub fn run<C: Controller<G>>(&mut self, c: &mut C) -> Result<(), DriverError<C::Error>> {
        while self.step(c)? > 0 {}
        Ok(())
    }
}
