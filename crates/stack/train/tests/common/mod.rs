//! The opponent pool of the training tests: only `random`, so an opponent named anything else
//! is an error these tests can see.

use env::{Agent, RandomAgent};
use games::kessel::Kessel;
use std::sync::Arc;
use train::BotFactory;

struct RandomOnly;

impl env::AgentBuilder<Kessel> for RandomOnly {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<Kessel>>, String> {
        match spec {
            "random" => Ok(Box::new(RandomAgent)),
            other => Err(format!("unknown agent `{other}`; valid agents: random")),
        }
    }
}

/// The pool's bots in these tests.
pub fn bots() -> BotFactory<Kessel> {
    Arc::new(RandomOnly)
}
