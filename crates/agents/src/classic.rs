//! Classic Sabacc's agents: its bots (`classic::bots`) behind [`env::Agent`], built from specs.
//!
//! A classic spec is a bot's name (`random`, `greedy`, `expert`, `search`, `search:N`), optionally
//! prefixed `classic:` so that a mixed command line says which game it means. The Kessel
//! builder refuses a `classic:` spec with an error naming the game, instead of building a Kessel
//! bot of the same name.

use crate::{Agents, SpecError};
use env::{Agent, AgentBuilder, AgentError, AgentRng, Classic};

/// The prefix that marks a spec as classic Sabacc's.
pub const PREFIX: &str = "classic:";

/// One of the classic bots as an [`Agent`]: a pure function of the seat's view, the legal mask
/// and the agent's RNG.
#[derive(Clone, Debug)]
pub struct ClassicBot {
    bot: classic::bots::Bot,
    name: String,
}

impl ClassicBot {
    /// The bot named by `spec` (with or without the `classic:` prefix).
    pub fn parse(spec: &str) -> Result<ClassicBot, SpecError> {
        let s = spec.trim();
        let name = s.strip_prefix(PREFIX).unwrap_or(s);
        if name.is_empty() {
            return Err(SpecError::Empty);
        }
        let bot = classic::bots::Bot::parse(name)
            .map_err(|e| SpecError::Load { spec: s.to_string(), message: format!("{e} (classic Sabacc bots)") })?;
        Ok(ClassicBot { bot, name: format!("{PREFIX}{}", bot.name()) })
    }
}

impl Agent<Classic> for ClassicBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(
        &mut self,
        view: &classic::PlayerView,
        legal: classic::ActionMask,
        rng: &mut AgentRng,
    ) -> Result<classic::Action, AgentError> {
        if legal.is_empty() {
            return Err(AgentError::new(&self.name, "no legal action was offered"));
        }
        Ok(self.bot.choose(view, legal, rng))
    }
}

impl Agents {
    /// A fresh classic Sabacc agent for `spec`.
    pub fn build_classic(&self, spec: &str) -> Result<Box<dyn Agent<Classic>>, SpecError> {
        Ok(Box::new(ClassicBot::parse(spec)?))
    }
}

impl AgentBuilder<Classic> for Agents {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<Classic>>, String> {
        self.build_classic(spec).map_err(|e| e.to_string())
    }
}
