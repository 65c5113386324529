//! `reference.json`: observation/mask rows from real seeded games with the outputs the Rust
//! policy computed for them, and a few full game states with each seat's view and observation.
//!
//! Front-ends use the rows to check they feed the model correctly, and the states to check a
//! re-implemented observation encoder.

use engine::{NUM_ACTIONS, derive_seed};
use env::obs::OBS_LEN;
use env::{AgentRng, EnvConfig, SabaccEnv};
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
    /// Max absolute difference of logits and of probabilities.
    pub logits: f32,
    /// Max absolute difference of values.
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

fn state_sample(env: &SabaccEnv, game_seed: u64, decision: usize) -> Result<StateSample, ExportError> {
    let seats = (0..env.num_players())
        .map(|s| {
            let seat = engine::Seat(s);
            Ok(SeatObservation { seat: s, view: to_json(&env.view(seat))?, obs: env.observe(seat) })
        })
        .collect::<Result<Vec<_>, ExportError>>()?;
    Ok(StateSample {
        game_seed,
        decision,
        actor: env.current_player().map(|s| s.index() as u8),
        legal: env.legal_mask().indices().collect(),
        state_json: serde_json::to_string(env.state()).map_err(|e| ExportError::Reference(e.to_string()))?,
        seats,
    })
}

/// Plays seeded games of `config` with `policy` sampling at every seat and records the rows
/// and states, then computes the outputs for all rows in one batch.
pub fn build(policy: &Policy, config: &EnvConfig, contract_version: u32) -> Result<Reference, ExportError> {
    let mut env = SabaccEnv::new(*config).map_err(|e| ExportError::Reference(e.to_string()))?;
    let mut obs: Vec<f32> = Vec::with_capacity(REFERENCE_ROWS * OBS_LEN);
    let mut mask: Vec<bool> = Vec::with_capacity(REFERENCE_ROWS * NUM_ACTIONS);
    let mut game_seeds = Vec::new();
    let mut states = Vec::new();
    let mut game = 0u64;
    while game_seeds.len() < REFERENCE_ROWS {
        let game_seed = derive_seed(REFERENCE_SEED, game);
        let mut rng = AgentRng::seed_from_u64(derive_seed(REFERENCE_SEED ^ 0xA6E7, game));
        let mut ts = env.reset(game_seed);
        let mut decision = 0usize;
        let mut taken = 0usize;
        // States: the deal, and one late decision, of the first games.
        let state_at = [0usize, 17 + 13 * game as usize];
        while let Some(seat) = ts.actor {
            if states.len() < REFERENCE_STATES && state_at.contains(&decision) {
                states.push(state_sample(&env, game_seed, decision)?);
            }
            let row_obs = env.observe(seat);
            let row_mask: Vec<bool> = (0..NUM_ACTIONS).map(|a| ts.mask.contains_index(a)).collect();
            if decision.is_multiple_of(STRIDE) && taken < ROWS_PER_GAME && game_seeds.len() < REFERENCE_ROWS {
                obs.extend_from_slice(&row_obs);
                mask.extend_from_slice(&row_mask);
                game_seeds.push(game_seed);
                taken += 1;
            }
            let out = policy_outputs(policy, &row_obs, &row_mask, 1)?;
            let u: f32 = rng.random();
            let action = sample_masked(&out.probs, &row_mask, u)
                .ok_or_else(|| ExportError::Reference(format!("game {game_seed}: no action to sample")))?;
            ts = env.step(action).map_err(|e| ExportError::Reference(e.to_string()))?;
            decision += 1;
        }
        game += 1;
    }
    let n = game_seeds.len();
    let PolicyOutputs { logits, probs, value } = policy_outputs(policy, &obs, &mask, n)?;
    let rows_of = |v: &[f32], w: usize| v.chunks(w).map(<[f32]>::to_vec).collect::<Vec<_>>();
    let argmax = logits
        .chunks(NUM_ACTIONS)
        .zip(mask.chunks(NUM_ACTIONS))
        .map(|(l, m)| crate::dist::argmax_masked(l, m).expect("rows checked to have a legal action"))
        .collect();
    Ok(Reference {
        contract_version,
        tolerance: Tolerance { logits: 1e-5, value: 1e-5 },
        rows: Rows {
            count: n,
            game_seed: game_seeds,
            obs: rows_of(&obs, OBS_LEN),
            mask: mask.chunks(NUM_ACTIONS).map(|r| r.iter().map(|&b| b as u8).collect()).collect(),
            logits: rows_of(&logits, NUM_ACTIONS),
            probs: rows_of(&probs, NUM_ACTIONS),
            value,
            argmax,
        },
        states,
    })
}
