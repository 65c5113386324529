//! The opponent pool of the training tests: only `random`, so an opponent named anything else
//! is an error these tests can see.

use env::{Agent, RandomAgent};
use game::Game;
use std::sync::Arc;
use train::BotFactory;

struct RandomOnly;

impl<G: Game> env::AgentBuilder<G> for RandomOnly {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<G>>, String> {
        match spec {
            "random" => Ok(Box::new(RandomAgent)),
            other => Err(format!("unknown agent `{other}`; valid agents: random")),
        }
    }
}

/// The pool's bots in these tests.
pub fn bots<G: Game>() -> BotFactory<G> {
    Arc::new(RandomOnly)
}

/// One test at a time in this binary. Training spreads its matrix products over the process's
/// thread pool, and a test running beside it changes how that work is split and so the order in
/// which floats are summed: the bit-for-bit checks (a resumed run ends as an uninterrupted one,
/// pinned digests, a replayed best response) hold only for a run that has the pool to itself.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
