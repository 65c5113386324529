//! What the bindings need of a game beyond [`env::Game`]: its rule validation, its text
//! rendering, its agents and the bounds of its observations. The game classes
//! ([`crate::game`]) and the single-agent classes ([`crate::single`]) are thin pyo3 wrappers
//! over code generic in [`PyGame`], so Kessel and classic Sabacc share one implementation.

use ::agents::{AgentSpec, Agents, Builtin, SpecError};
use kessel::MAX_PLAYERS;
use env::Game as _;
use env::obs::{SEAT_FIELD_NAMES, SEGMENTS};
use env::{Classic, Env, Kessel};
use policy::{ActionSelection, Policy};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A game the Python package plays.
pub trait PyGame: env::Game {
    /// The Python function that names the game's actions (for error messages).
    const ACTION_NAMES_FN: &'static str;

    /// Checks every rule's range; the message starts with the field's name.
    fn validate(rules: &Self::Rules) -> Result<(), String>;

    /// The whole position as text, for people (`render_mode="ansi"`).
    fn render(env: &Env<Self>) -> String;

    /// The agent an agent spec names (bots, checkpoint folders), built by `agents`; an
    /// unknown spec is an error listing what exists.
    fn build_agent(agents: &Agents, spec: &str) -> Result<Box<dyn env::Agent<Self>>, SpecError>;

    /// The `agents` crate's builder of this game's agents, as the arena takes it.
    fn builder(agents: &Agents) -> &dyn env::AgentBuilder<Self>;

    /// The network behind a checkpoint or bundle spec, for acting on observations without views
    /// (the `agents` crate's cached policy agent, so the network is loaded once); `None` for bots.
    fn policy(agents: &Agents, spec: &str) -> Result<Option<(Policy, ActionSelection)>, SpecError>;

    /// Whether `spec` names the uniform random bot (which acts from a mask alone).
    fn is_random(spec: &str) -> bool;

    /// Lower and upper bounds of every observation value at a table of `num_players`.
    fn observation_bounds(num_players: u8) -> (Vec<f32>, Vec<f32>);
}

impl PyGame for Kessel {
    const ACTION_NAMES_FN: &'static str = "action_names";

    fn validate(rules: &Self::Rules) -> Result<(), String> {
        rules.validate().map_err(|e| e.to_string())
    }

    /// The whole position, the last settlement and the legal actions or the result
    /// ([`kessel::render`]); the env keeps no event log, so there are no events to show.
    fn render(env: &Env<Self>) -> String {
        let state = env.state();
        kessel::render::report(state, None, state.last_settlement())
    }

    fn build_agent(agents: &Agents, spec: &str) -> Result<Box<dyn env::Agent<Self>>, SpecError> {
        agents.build(spec)
    }

    fn builder(agents: &Agents) -> &dyn env::AgentBuilder<Self> {
        agents
    }

    fn policy(agents: &Agents, spec: &str) -> Result<Option<(Policy, ActionSelection)>, SpecError> {
        Ok(agents.policy_agent(&AgentSpec::parse(spec)?)?.map(|a| (a.policy().clone(), a.selection())))
    }

    fn is_random(spec: &str) -> bool {
        AgentSpec::parse(spec).is_ok_and(|s| s == AgentSpec::Builtin(Builtin::Random))
    }

    /// 0 to 1 everywhere except chip ratios, which are at most the table's chips over a seat's
    /// start.
    fn observation_bounds(num_players: u8) -> (Vec<f32>, Vec<f32>) {
        let mut high = vec![1.0f32; Self::SPEC.obs_len];
        let stride = SEAT_FIELD_NAMES.len();
        let chips: Vec<usize> =
            ["stock", "pot", "lost"].iter().filter_map(|f| SEAT_FIELD_NAMES.iter().position(|n| n == f)).collect();
        if let Some(seats) = SEGMENTS.iter().find(|s| s.name == "seats") {
            for rel in 0..MAX_PLAYERS {
                for &field in &chips {
                    high[seats.offset + rel * stride + field] = f32::from(num_players.max(1));
                }
            }
        }
        (vec![0.0; Self::SPEC.obs_len], high)
    }
}

/// The classic observation fields holding credits over the starting credits: with `n` seats
/// the table holds `n` starting stacks (C1.3), so none exceeds `n`.
const CLASSIC_CREDIT_FIELDS: [&str; 4] = ["credits", "paid_this_hand", "hand_pot", "sabacc_pot"];

impl PyGame for Classic {
    const ACTION_NAMES_FN: &'static str = "classic_action_names";

    fn validate(rules: &Self::Rules) -> Result<(), String> {
        rules.validate().map_err(|e| e.to_string())
    }

    /// The whole position, the pending decision and the legal actions or the result
    /// ([`classic::render::position`]).
    fn render(env: &Env<Self>) -> String {
        classic::render::position(env.state())
    }

    fn build_agent(agents: &Agents, spec: &str) -> Result<Box<dyn env::Agent<Self>>, SpecError> {
        agents.build_classic(spec)
    }

    fn builder(agents: &Agents) -> &dyn env::AgentBuilder<Self> {
        agents
    }

    fn policy(agents: &Agents, spec: &str) -> Result<Option<(Policy, ActionSelection)>, SpecError> {
        Ok(agents.classic_policy_agent(spec)?.map(|a| (a.policy().clone(), a.selection())))
    }

    fn is_random(spec: &str) -> bool {
        matches!(spec.trim(), "random" | "classic:random")
    }

    /// The documented range of each field (`classic::obs::SEGMENTS`, checked by
    /// `classic::obs::check_ranges`), credit ratios capped at the table size.
    fn observation_bounds(num_players: u8) -> (Vec<f32>, Vec<f32>) {
        let mut low = vec![0.0f32; Self::SPEC.obs_len];
        let mut high = vec![0.0f32; Self::SPEC.obs_len];
        let table = f32::from(num_players.max(1));
        for seg in &classic::obs::SEGMENTS {
            for i in 0..seg.len {
                let f = seg.field(i);
                low[seg.offset + i] = f.lo;
                high[seg.offset + i] = if CLASSIC_CREDIT_FIELDS.contains(&f.name) { f.hi.min(table) } else { f.hi };
            }
        }
        (low, high)
    }
}

/// A Python class holding one game of `G` (the classes cannot be generic; each wraps one
/// generic core).
pub trait GameClass<G: PyGame> {
    /// The game's environment.
    fn env(&self) -> &Env<G>;
}

/// The game a `game=` argument names (`"kessel"`, `"classic"` or an environment id), or a
/// `ValueError` listing the games.
pub fn game_arg(name: &str) -> PyResult<env::GameId> {
    env::GameId::parse(name).map_err(|e| PyValueError::new_err(format!("game: {e}")))
}

/// `num_players` as a table size, or a `ValueError` naming the range.
pub fn table_size(num_players: i64) -> PyResult<u8> {
    let max = env::MAX_PLAYERS as i64;
    if !(2..=max).contains(&num_players) {
        return Err(PyValueError::new_err(format!("num_players must be in 2..={max}, got {num_players}")));
    }
    Ok(num_players as u8)
}
