//! The bots the integration tests play with, built from their specs without the `agents` crate
//! (which sits above `eval`).

use games::kessel::Kessel;
use games::kessel::bots::{ExpertAgent, GamblerAgent, GreedyAgent, MirrorAgent, TightAgent};

/// Builds `random`, `greedy`, `expert`, `tight`, `gambler` and `mirror`.
pub struct Bots;

impl env::AgentBuilder<Kessel> for Bots {
    fn build(&self, spec: &str) -> Result<Box<dyn env::Agent<Kessel>>, String> {
        match spec {
            "random" => Ok(Box::new(env::RandomAgent)),
            "greedy" => Ok(Box::new(GreedyAgent::new())),
            "expert" => Ok(Box::new(ExpertAgent::new())),
            "tight" => Ok(Box::new(TightAgent::new())),
            "gambler" => Ok(Box::new(GamblerAgent::new())),
            "mirror" => Ok(Box::new(MirrorAgent::new())),
            _ => Err(format!("unknown agent `{spec}`")),
        }
    }
}
