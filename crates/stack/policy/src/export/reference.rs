//! `reference.json`: observation/mask rows from real seeded games with the outputs the Rust
//! policy computed for them, and a few full game states with each seat's view and observation.
//!
//! Front-ends use the rows to check they feed the model correctly, and the states to check a
//! re-implemented observation encoder.

use env::{AgentRng, Controller, Driver, DriverError, Game, GameConfig, GameStart, LegalMask, Pending, StepEvent};
use game::derive_seed;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use super::error::ExportError;
use super::outputs::{PolicyOutputs, policy_outputs};
use crate::dist::sample_masked;
use crate::inference::Policy;

/// Seed from which every reference game and sampling RNG is derived.
pub const REFERENCE_SEED: u64 = 0x5ABA_CC0E_7907;
/// Observation/mask rows recorded.
pub const REFERENCE_ROWS: usize = 256;
/// Full game states recorded.
pub const REFERENCE_STATES: usize = 6;
/// Rows taken from one game at most (so the rows span several deals).
const ROWS_PER_GAME: usize = 64;
/// Every `STRIDE`-th decision of a game is recorded.
const STRIDE: usize = 2;

/// Tolerances the parity check applies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Max difference of logits and of probabilities, scaled by `max(1, |reference|)`: absolute
    /// below 1, relative above (legal logits reach the tens, where float32 sums taken in another
    /// order differ by a few units in the last place, more than 1e-5).
    pub logits: f32,
    /// Max difference of values, scaled the same way.
    pub value: f32,
}

/// The recorded rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rows {
    /// Number of rows.
    pub count: usize,
    /// Game seed each row came from.
    pub game_seed: Vec<u64>,
    /// Observation rows.
    pub obs: Vec<Vec<f32>>,
    /// Mask rows (1 = legal).
    pub mask: Vec<Vec<u8>>,
    /// Masked logits computed by the Rust policy.
    pub logits: Vec<Vec<f32>>,
    /// Probabilities computed by the Rust policy.
    pub probs: Vec<Vec<f32>>,
    /// Values computed by the Rust policy.
    pub value: Vec<f32>,
    /// Most probable legal action of each row (ties: lowest index).
    pub argmax: Vec<usize>,
}

/// One seat's view of a recorded state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatObservation {
    /// Absolute seat index.
    pub seat: u8,
    /// What the seat may see (the encoder's only input).
    pub view: serde_json::Value,
    /// The observation the encoder makes of it.
    pub obs: Vec<f32>,
}

/// One full game state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateSample {
    /// Seed of the game.
    pub game_seed: u64,
    /// Decisions played before this state.
    pub decision: usize,
    /// Seat to act (`null` at the end of the game).
    pub actor: Option<u8>,
    /// Legal action indices of the seat to act.
    pub legal: Vec<usize>,
    /// The engine's complete state (hidden information included) as serde JSON *text*: its
    /// RNG state is a 128-bit integer, beyond what most JSON readers hold exactly as a number.
    pub state_json: String,
    /// Every seat at the table.
    pub seats: Vec<SeatObservation>,
}

/// The whole `reference.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// Contract version the file belongs to.
    pub contract_version: u32,
    /// Tolerances for parity checks.
    pub tolerance: Tolerance,
    /// Observation/mask rows and outputs.
    pub rows: Rows,
    /// Full game states.
    pub states: Vec<StateSample>,
}

fn to_json<T: Serialize>(value: &T) -> Result<serde_json::Value, ExportError> {
    serde_json::to_value(value).map_err(|e| ExportError::Reference(e.to_string()))
}

fn state_sample<G: Game>(
    state: &G::State,
    obs_len: usize,
    game_seed: u64,
    decision: usize,
) -> Result<StateSample, ExportError> {
    let seats = (0..G::players(G::rules(state)))
        .map(|s| {
            let view = G::view(state, game::Seat(s));
            let mut obs = vec![0.0; obs_len];
            G::encode(&view, &mut obs);
            Ok(SeatObservation { seat: s, view: to_json(&view)?, obs })
        })
        .collect::<Result<Vec<_>, ExportError>>()?;
    Ok(StateSample {
        game_seed,
        decision,
        actor: G::current_player(state).map(|s| s.index() as u8),
        legal: G::legal_mask(state).index_list(),
        state_json: serde_json::to_string(state).map_err(|e| ExportError::Reference(e.to_string()))?,
        seats,
    })
}

/// The recording games, played by the one game loop with `policy` sampling at every seat.
struct Recorder<'a, G: Game> {
    policy: &'a Policy,
    config: GameConfig<G>,
    obs_len: usize,
    game: u64,
    game_seed: u64,
    rng: AgentRng,
    decision: usize,
    taken: usize,
    obs: Vec<f32>,
    mask: Vec<bool>,
    game_seeds: Vec<u64>,
    states: Vec<StateSample>,
}

impl<G: Game> Recorder<'_, G> {
    /// States: the deal, and one late decision, of the first games.
    fn sample_state(&mut self, state: &G::State) -> Result<(), ExportError> {
        let state_at = [0usize, 17 + 13 * (self.game - 1) as usize];
        if self.states.len() < REFERENCE_STATES && state_at.contains(&self.decision) {
            self.states.push(state_sample::<G>(state, self.obs_len, self.game_seed, self.decision)?);
        }
        Ok(())
    }
}

impl<G: Game> Controller<G> for Recorder<'_, G> {
    type Error = ExportError;

    fn next_game(&mut self, _row: usize) -> Result<Option<GameStart<G>>, ExportError> {
        if self.game_seeds.len() >= REFERENCE_ROWS {
            return Ok(None);
        }
        self.game_seed = derive_seed(REFERENCE_SEED, self.game);
        self.rng = AgentRng::seed_from_u64(derive_seed(REFERENCE_SEED ^ 0xA6E7, self.game));
        self.game += 1;
        self.decision = 0;
        self.taken = 0;
        Ok(Some(GameStart::deal(self.config, self.game_seed)))
    }

    fn started(&mut self, _row: usize, state: &G::State) -> Result<(), ExportError> {
        self.sample_state(state)
    }

    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), ExportError> {
        let p = &pending[0];
        let mut row_obs = vec![0.0; self.obs_len];
        p.observe_into(&mut row_obs);
        let mut row_mask = vec![false; G::SPEC.num_actions];
        p.mask.write_bools(&mut row_mask);
        if self.decision.is_multiple_of(STRIDE) && self.taken < ROWS_PER_GAME && self.game_seeds.len() < REFERENCE_ROWS
        {
            self.obs.extend_from_slice(&row_obs);
            self.mask.extend_from_slice(&row_mask);
            self.game_seeds.push(self.game_seed);
            self.taken += 1;
        }
        let out = policy_outputs(self.policy, &row_obs, &row_mask, 1)?;
        let u: f32 = self.rng.random();
        actions[0] = sample_masked(&out.probs, &row_mask, u)
            .ok_or_else(|| ExportError::Reference(format!("game {}: no action to sample", self.game_seed)))?;
        self.decision += 1;
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_, G>) -> Result<(), ExportError> {
        if e.done { Ok(()) } else { self.sample_state(e.state) }
    }
}

/// Plays seeded games of `config` with `policy` sampling at every seat and records the rows
/// and states, then computes the outputs for all rows in one batch.
pub fn build<G: Game>(
    policy: &Policy,
    config: &GameConfig<G>,
    contract_version: u32,
) -> Result<Reference, ExportError> {
    let (obs_len, num_actions) = (policy.obs_dim(), policy.num_actions());
    let mut rec = Recorder {
        policy,
        config: *config,
        obs_len,
        game: 0,
        game_seed: 0,
        rng: AgentRng::seed_from_u64(0),
        decision: 0,
        taken: 0,
        obs: Vec::with_capacity(REFERENCE_ROWS * obs_len),
        mask: Vec::with_capacity(REFERENCE_ROWS * num_actions),
        game_seeds: Vec::new(),
        states: Vec::new(),
    };
    Driver::new(1).run(&mut rec).map_err(|e| match e {
        DriverError::Controller(e) => e,
        other => ExportError::Reference(other.to_string()),
    })?;
    let Recorder { obs, mask, game_seeds, states, .. } = rec;
    let n = game_seeds.len();
    let PolicyOutputs { logits, probs, value } = policy_outputs(policy, &obs, &mask, n)?;
    let rows_of = |v: &[f32], w: usize| v.chunks(w).map(<[f32]>::to_vec).collect::<Vec<_>>();
    let argmax = logits
        .chunks(num_actions)
        .zip(mask.chunks(num_actions))
        .map(|(l, m)| crate::dist::argmax_masked(l, m).expect("rows checked to have a legal action"))
        .collect();
    Ok(Reference {
        contract_version,
        tolerance: Tolerance { logits: 1e-5, value: 1e-5 },
        rows: Rows {
            count: n,
            game_seed: game_seeds,
            obs: rows_of(&obs, obs_len),
            mask: mask.chunks(num_actions).map(|r| r.iter().map(|&b| b as u8).collect()).collect(),
            logits: rows_of(&logits, num_actions),
            probs: rows_of(&probs, num_actions),
            value,
            argmax,
        },
        states,
    })
}
