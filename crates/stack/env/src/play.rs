//! Seating [`Agent`]s at the driver's games: [`AgentTable`] answers the driver's decisions by
//! asking each seat's agent, one batched call per agent per step, and [`play_game`] plays one
//! game with it (tests, smoke runs, quick comparisons).

use crate::driver::{Controller, Driver, DriverError, Finished, GameStart, Pending, StepEvent};
use crate::env::{EnvError, GameConfig};
use crate::seed::derive;
use game::{Agent, AgentError, AgentRng};
use game::{Game, GameAction};
use game::{MAX_PLAYERS, Seat, SeatSet};
use rand::SeedableRng;
use serde::Serialize;

/// An agent that failed at a decision: which agent (index into the table's agents), where.
#[derive(Clone, Debug, PartialEq)]
pub struct TableError {
    /// Index of the agent in [`AgentTable::agents`].
    pub agent: usize,
    /// The driver row of the decision.
    pub row: usize,
    /// The seat it played.
    pub seat: Seat,
    /// What the agent reported.
    pub error: AgentError,
}

/// Agents seated at the rows of a [`Driver`]: row `r`'s seat `s` is played by agent
/// `seats[r][s]`, drawing its randomness from its own RNG for that row and seat.
pub struct AgentTable<G: Game> {
    agents: Vec<Box<dyn Agent<G>>>,
    seats: Vec<[usize; MAX_PLAYERS]>,
    rngs: Vec<[AgentRng; MAX_PLAYERS]>,
    // Reused per step: the decisions grouped by agent.
    views: Vec<G::View>,
    masks: Vec<G::Mask>,
    batch_rngs: Vec<AgentRng>,
    positions: Vec<usize>,
    chosen: Vec<G::Action>,
}

impl<G: Game> AgentTable<G> {
    /// A table of `agents` over `rows` rows; every seat starts with agent 0 until
    /// [`AgentTable::seat`] says otherwise.
    pub fn new(agents: Vec<Box<dyn Agent<G>>>, rows: usize) -> AgentTable<G> {
        AgentTable {
            agents,
            seats: vec![[0; MAX_PLAYERS]; rows],
            rngs: (0..rows).map(|_| std::array::from_fn(|_| AgentRng::seed_from_u64(0))).collect(),
            views: Vec::new(),
            masks: Vec::new(),
            batch_rngs: Vec::new(),
            positions: Vec::new(),
            chosen: Vec::new(),
        }
    }

    /// The agents, in the order the table indexes them.
    pub fn agents(&self) -> &[Box<dyn Agent<G>>] {
        &self.agents
    }

    /// Gives the agents back (e.g. to reuse them at the next table).
    pub fn into_agents(self) -> Vec<Box<dyn Agent<G>>> {
        self.agents
    }

    /// Seats agents for a new game of `row`: seat `s` is played by `agents[seating[s]]` with an
    /// RNG seeded with `rng_seeds[s]` (the caller's documented seed derivation).
    pub fn seat(&mut self, row: usize, seating: &[usize], rng_seeds: &[u64]) {
        for (s, (&a, &seed)) in seating.iter().zip(rng_seeds).enumerate().take(MAX_PLAYERS) {
            self.seats[row][s] = a;
            self.rngs[row][s] = AgentRng::seed_from_u64(seed);
        }
    }

    /// The agent index playing `seat` in `row`.
    pub fn agent_at(&self, row: usize, seat: Seat) -> usize {
        self.seats[row][seat.index()]
    }

    /// Asks each agent for its decisions among `pending`, as one batch per agent (so a neural
    /// policy runs one forward pass per step), writing action indices into `actions`.
    pub fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), TableError> {
        for agent in 0..self.agents.len() {
            self.positions.clear();
            self.views.clear();
            self.masks.clear();
            self.batch_rngs.clear();
            for (k, p) in pending.iter().enumerate() {
                if self.seats[p.row][p.actor.index()] == agent {
                    self.positions.push(k);
                    self.views.push(p.view());
                    self.masks.push(p.mask);
                    self.batch_rngs.push(self.rngs[p.row][p.actor.index()].clone());
                }
            }
            if self.positions.is_empty() {
                continue;
            }
            let result = if self.positions.len() == 1 {
                self.agents[agent].act(&self.views[0], self.masks[0], &mut self.batch_rngs[0]).map(|a| {
                    self.chosen.clear();
                    self.chosen.push(a);
                })
            } else {
                self.agents[agent].act_batch(&self.views, &self.masks, &mut self.batch_rngs, &mut self.chosen)
            };
            if let Err(error) = result {
                let p = &pending[self.positions[0]];
                return Err(TableError { agent, row: p.row, seat: p.actor, error });
            }
            if self.chosen.len() != self.positions.len() {
                let p = &pending[self.positions[0]];
                let error = AgentError::new(
                    self.agents[agent].name(),
                    format!("returned {} actions for {} decisions", self.chosen.len(), self.positions.len()),
                );
                return Err(TableError { agent, row: p.row, seat: p.actor, error });
            }
            for ((&k, a), rng) in self.positions.iter().zip(&self.chosen).zip(&self.batch_rngs) {
                let p = &pending[k];
                actions[k] = a.index();
                self.rngs[p.row][p.actor.index()] = rng.clone();
            }
        }
        Ok(())
    }
}

/// The result of one game played by [`play_game`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(bound = "")]
pub struct GameRecord<G: Game> {
    /// The game seed.
    pub seed: u64,
    /// Every decision in order: who took which action.
    pub actions: Vec<(Seat, G::Action)>,
    /// Every seat's return (absolute seats; padding 0).
    pub returns: [f32; MAX_PLAYERS],
    /// Game winners (empty when truncated).
    pub winners: SeatSet,
    /// Cut off by the round limit.
    pub truncated: bool,
    /// Rounds played.
    pub rounds: u16,
}

/// One game, agent `i` at seat `i`.
struct OneGame<'a, G: Game> {
    config: GameConfig<G>,
    seed: u64,
    table: &'a mut AgentTable<G>,
    started: bool,
    record: Option<GameRecord<G>>,
    actions: Vec<(Seat, G::Action)>,
}

impl<G: Game> Controller<G> for OneGame<'_, G> {
    type Error = TableError;

    fn next_game(&mut self, row: usize) -> Result<Option<GameStart<G>>, TableError> {
        if self.started {
            return Ok(None);
        }
        self.started = true;
        let seating: Vec<usize> = (0..self.config.players() as usize).collect();
        let seeds: Vec<u64> = seating.iter().map(|&i| derive(self.seed, 100 + i as u64)).collect();
        self.table.seat(row, &seating, &seeds);
        Ok(Some(GameStart::deal(self.config, self.seed)))
    }

    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), TableError> {
        self.table.decide(pending, actions)
    }

    fn stepped(&mut self, e: &StepEvent<'_, G>) -> Result<(), TableError> {
        self.actions.push((e.seat, e.action));
        Ok(())
    }

    fn finished(&mut self, g: &Finished<'_, G>) -> Result<(), TableError> {
        self.record = Some(GameRecord {
            seed: g.seed,
            actions: std::mem::take(&mut self.actions),
            returns: g.returns,
            winners: G::winners(g.state),
            truncated: G::is_truncated(g.state),
            rounds: G::progress(g.state),
        });
        Ok(())
    }
}

/// Plays one game from `seed`; `agents[i]` plays seat `i` (exactly `players` agents). Seat `i`
/// draws its randomness from its own RNG seeded from `(seed, i)`, so one agent's consumption
/// never changes another's choices.
pub fn play_game<G: Game>(
    config: &GameConfig<G>,
    agents: &mut Vec<Box<dyn Agent<G>>>,
    seed: u64,
) -> Result<GameRecord<G>, EnvError> {
    let n = config.players() as usize;
    if agents.len() != n {
        return Err(EnvError::BatchSize { expected: n, got: agents.len() });
    }
    let mut table = AgentTable::new(std::mem::take(agents), 1);
    let mut game =
        OneGame { config: *config, seed, table: &mut table, started: false, record: None, actions: Vec::new() };
    let result = Driver::new(1).run(&mut game);
    let record = game.record.take();
    *agents = table.into_agents();
    match result {
        Ok(()) => Ok(record.expect("the one game finished")),
        Err(DriverError::Controller(e)) => Err(EnvError::Agent { seat: e.seat, error: e.error }),
        Err(DriverError::Illegal { seat, error, .. }) => {
            let index = match &error {
                EnvError::IllegalAction { index, .. } => *index,
                _ => usize::MAX,
            };
            Err(EnvError::OpponentIllegal { agent: agents[seat.index()].name().to_string(), seat, index })
        }
        Err(DriverError::Config { error, .. }) => Err(error),
    }
}
