//! Playing whole games between [`Agent`]s, for tests, smoke runs and quick comparisons.

use crate::agent::{Agent, AgentRng};
use crate::env::{EnvConfig, EnvError, SabaccEnv};
use crate::seed::derive;
use engine::{Action, MAX_PLAYERS, Seat, SeatSet};
use rand::SeedableRng;
use serde::Serialize;

/// The result of one game played by [`play_game`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRecord {
    /// The game seed.
    pub seed: u64,
    /// Every decision in order: who took which action.
    pub actions: Vec<(Seat, Action)>,
    /// Every seat's return (absolute seats; padding 0).
    pub returns: [f32; MAX_PLAYERS],
    /// Game winners (empty when truncated).
    pub winners: SeatSet,
    /// Cut off by the round limit.
    pub truncated: bool,
    /// Rounds played.
    pub rounds: u16,
}

/// Plays one game from `seed`; `agents[i]` plays seat `i` (exactly `players` agents). Seat `i`
/// draws its randomness from its own RNG seeded from `(seed, i)`, so one agent's consumption
/// never changes another's choices.
pub fn play_game(config: &EnvConfig, agents: &mut [Box<dyn Agent>], seed: u64) -> Result<GameRecord, EnvError> {
    let n = config.rules.players as usize;
    if agents.len() != n {
        return Err(EnvError::BatchSize { expected: n, got: agents.len() });
    }
    let mut env = SabaccEnv::new(*config)?;
    let mut rngs: Vec<AgentRng> = (0..n).map(|i| AgentRng::seed_from_u64(derive(seed, 100 + i as u64))).collect();
    let mut ts = env.reset(seed);
    let mut actions = Vec::new();
    while let Some(seat) = ts.actor {
        let view = env.view(seat);
        let agent = &mut agents[seat.index()];
        let a = agent.act(&view, ts.mask, &mut rngs[seat.index()]).map_err(|error| EnvError::Agent { seat, error })?;
        ts = env.step(a.index()).map_err(|_| EnvError::OpponentIllegal {
            agent: agent.name().to_string(),
            seat,
            index: a.index(),
        })?;
        actions.push((seat, a));
    }
    Ok(GameRecord {
        seed,
        actions,
        returns: env.returns(),
        winners: env.winners(),
        truncated: ts.truncated,
        rounds: env.state().round(),
    })
}
