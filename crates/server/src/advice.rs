//! The `ask` endpoint's answer: what an agent thinks of a decision (see [`agents::advice`]), as
//! JSON.

use crate::error::ApiError;
use agents::{Advice, AdviceError, AgentSpec, Agents};
use engine::{ActionMask, PlayerView};
use serde_json::{Value, json};

/// Asks `spec` about `view` with legal actions `legal`; `seed` drives any randomness.
pub fn ask(agents: &Agents, spec: &str, view: &PlayerView, legal: ActionMask, seed: u64) -> Result<Value, ApiError> {
    let parsed = AgentSpec::parse(spec).map_err(|e| ApiError::BadRequest(format!("agent: {e}")))?;
    let seat = view.viewer.0;
    let agent_name = parsed.to_string();
    let advice = agents::ask(agents, &parsed, view, legal, seed).map_err(|e| match e {
        AdviceError::Spec(e) => ApiError::BadRequest(format!("agent: {e}")),
        AdviceError::Agent(e) => ApiError::Agent(e.to_string()),
    })?;
    Ok(match advice {
        Advice::Policy { probabilities, value } => {
            let actions: Vec<Value> = probabilities
                .into_iter()
                .map(|(a, p)| json!({ "index": a.index(), "name": a.name(), "probability": p }))
                .collect();
            json!({ "agent": agent_name, "seat": seat, "kind": "policy", "actions": actions, "value": value })
        }
        Advice::Search { values } => {
            let actions: Vec<Value> =
                values.into_iter().map(|(a, v)| json!({ "index": a.index(), "name": a.name(), "value": v })).collect();
            json!({ "agent": agent_name, "seat": seat, "kind": "search", "actions": actions })
        }
        Advice::Bot { choice } => {
            json!({ "agent": agent_name, "seat": seat, "kind": "bot", "choice": { "index": choice.index(), "name": choice.name() } })
        }
    })
}
