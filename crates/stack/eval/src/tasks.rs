//! What every tournament of agents shares above [`env::Driver`]: its games split into tasks of
//! consecutive games, the tasks played on the rayon pool with agents built once per worker, and
//! each task's games handed to the driver's rows in order with their agents seated. The arena
//! and the research studies all play this way, so each writes only its seatings, seeds and
//! records.

use env::{Agent, AgentBuilder, AgentTable, EnvError, Game, Pending, TableError};
use game::derive_seed;
use rayon::prelude::*;
use std::ops::Range;

/// `games` cut into consecutive tasks of at most `size` games (the last may be shorter).
pub fn spans(games: Range<u64>, size: u64) -> Vec<Range<u64>> {
    let size = size.max(1);
    (games.start..games.end).step_by(size as usize).map(|s| s..(s + size).min(games.end)).collect()
}

/// Plays `tasks` on the current rayon pool: `play` gets a task and the agents of `specs` (one per
/// spec, in order), built once per worker; a spec that fails to build is `spec_error`'s. The
/// results come back in task order, whatever the number of threads, as long as agents carry
/// nothing from one game to the next that changes their play.
pub fn on_workers<G, I, T, E>(
    tasks: Vec<I>,
    specs: &[String],
    factory: &dyn AgentBuilder<G>,
    spec_error: impl Fn(String) -> E + Sync,
    play: impl Fn(I, &mut Vec<Box<dyn Agent<G>>>) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E>
where
    G: Game,
    I: Send,
    T: Send,
    E: Send,
{
    tasks
        .into_par_iter()
        .map_init(
            || specs.iter().map(|a| factory.build(a)).collect::<Result<Vec<Box<dyn Agent<G>>>, String>>(),
            |agents, task| {
                let agents = agents.as_mut().map_err(|e| spec_error(e.clone()))?;
                play(task, agents)
            },
        )
        .collect()
}

/// One task's games and the agents that play them: [`Seats::take`] hands the next game to a
/// driver row, [`Seats::seat`] seats its agents — what a controller's `next_game` does before it
/// deals.
pub struct Seats<G: Game> {
    table: AgentTable<G>,
    games: Range<u64>,
    row_game: Vec<u64>,
}

impl<G: Game> Seats<G> {
    /// Games `games`, in order, over `rows` driver rows, played by `agents` (indexed by the
    /// seatings given to [`Seats::seat`]).
    pub fn new(agents: Vec<Box<dyn Agent<G>>>, rows: usize, games: Range<u64>) -> Seats<G> {
        Seats { table: AgentTable::new(agents, rows), games, row_game: vec![0; rows] }
    }

    /// The next game's index, now `row`'s game, or `None` once every game is handed out.
    pub fn take(&mut self, row: usize) -> Option<u64> {
        let g = self.games.next()?;
        self.row_game[row] = g;
        Some(g)
    }

    /// Seats the agents of `row`'s new game: seat `s` is played by agent `seating[s]`, with an
    /// RNG seeded `derive_seed(agent_seed, s)`.
    pub fn seat(&mut self, row: usize, seating: &[usize], agent_seed: u64) {
        let seeds: Vec<u64> = (0..seating.len()).map(|s| derive_seed(agent_seed, s as u64)).collect();
        self.table.seat(row, seating, &seeds);
    }

    /// The game `row` plays (or played last).
    pub fn game(&self, row: usize) -> u64 {
        self.row_game[row]
    }

    /// The agent index at `seat` of `row`'s game.
    pub fn agent_at(&self, row: usize, seat: game::Seat) -> usize {
        self.table.agent_at(row, seat)
    }

    /// Asks the seated agents for `pending`'s decisions (see [`AgentTable::decide`]).
    pub fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), TableError> {
        self.table.decide(pending, actions)
    }

    /// Gives the agents back, for the worker's next task.
    pub fn into_agents(self) -> Vec<Box<dyn Agent<G>>> {
        self.table.into_agents()
    }
}

/// The action index an illegal-action error names (`usize::MAX` for any other error), for a
/// tournament's own report of the agent that broke the rules.
pub fn illegal_index(error: &EnvError) -> usize {
    match error {
        EnvError::IllegalAction { index, .. } => *index,
        _ => usize::MAX,
    }
}
