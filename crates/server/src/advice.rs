//! What an agent thinks of a decision: a trained policy's probabilities over the legal actions
//! and its value estimate, search's mean score per action, or a bot's choice. The agent sees
//! only the seat's [`PlayerView`], as when it plays.

use crate::error::ApiError;
use agents::{AgentSpec, Agents, Builtin};
use engine::{ActionMask, PlayerView, derive_seed};
use env::AgentRng;
use eval::bots::SearchAgent;
use rand::SeedableRng;
use serde_json::{Value, json};

/// Stream id for the advice's randomness (search's sampled worlds, a bot's choice).
const ADVICE_STREAM: u64 = 0xAD71CE;

/// Asks `spec` about `view` with legal actions `legal`; `seed` drives any randomness.
pub fn ask(agents: &Agents, spec: &str, view: &PlayerView, legal: ActionMask, seed: u64) -> Result<Value, ApiError> {
    let parsed = AgentSpec::parse(spec).map_err(|e| ApiError::BadRequest(format!("agent: {e}")))?;
    let mut rng = AgentRng::seed_from_u64(derive_seed(seed, ADVICE_STREAM));
    let seat = view.viewer.0;
    let agent_name = parsed.to_string();
    if let Some(mut policy) = agents.policy_agent(&parsed).map_err(|e| ApiError::BadRequest(format!("agent: {e}")))? {
        let (probs, value) = policy.probabilities(view, legal).map_err(|e| ApiError::Agent(e.to_string()))?;
        let actions: Vec<Value> = legal
            .actions()
            .map(|a| json!({ "index": a.index(), "name": a.name(), "probability": probs[a.index()] }))
            .collect();
        return Ok(json!({ "agent": agent_name, "seat": seat, "kind": "policy", "actions": actions, "value": value }));
    }
    if let AgentSpec::Builtin(Builtin::Search { worlds }) = parsed {
        let mut search = SearchAgent::new(worlds);
        let values = search.action_values(view, legal, &mut rng).map_err(|e| ApiError::Agent(e.to_string()))?;
        let actions: Vec<Value> = match values {
            Some(values) => {
                values.into_iter().map(|(a, v)| json!({ "index": a.index(), "name": a.name(), "value": v })).collect()
            }
            None => Vec::new(),
        };
        return Ok(json!({ "agent": agent_name, "seat": seat, "kind": "search", "actions": actions }));
    }
    let mut bot = agents.build_parsed(&parsed).map_err(|e| ApiError::BadRequest(format!("agent: {e}")))?;
    let choice = bot.act(view, legal, &mut rng).map_err(|e| ApiError::Agent(e.to_string()))?;
    Ok(
        json!({ "agent": agent_name, "seat": seat, "kind": "bot", "choice": { "index": choice.index(), "name": choice.name() } }),
    )
}
