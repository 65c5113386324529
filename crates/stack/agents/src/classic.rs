//! Classic Sabacc's agents: its bots (`classic::bots`) behind [`env::Agent`], and checkpoints of
//! networks trained on it, built from specs.
//!
//! A classic spec is a bot's name (`random`, `greedy`, `expert`, `search`, `search:N`), a
//! checkpoint folder or an exported bundle (optionally `@sample` or `@argmax`), optionally prefixed `classic:` so that
//! a mixed command line says which game it means. A Kessel checkpoint is refused with an error
//! naming both games. The Kessel
//! builder refuses a `classic:` spec with an error naming the game, instead of building a Kessel
//! bot of the same name.

use crate::{AgentSpec, Agents, SpecError};
use env::{Agent, AgentBuilder, AgentError, AgentRng, Classic};
use policy::GamePolicyAgent;
use std::path::Path;

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
        match self.classic_policy_agent(spec)? {
            Some(policy) => Ok(Box::new(policy)),
            None => Ok(Box::new(ClassicBot::parse(spec)?)),
        }
    }

    /// The trained classic policy behind `spec` (a checkpoint folder or a bundle); `None` for
    /// the bots (and names that are neither, which the bot parser then refuses).
    pub fn classic_policy_agent(&self, spec: &str) -> Result<Option<GamePolicyAgent<Classic>>, SpecError> {
        let s = spec.trim();
        let name = s.strip_prefix(PREFIX).unwrap_or(s);
        if classic::bots::Bot::parse(name).is_ok() || !Path::new(name.split('@').next().unwrap_or(name)).exists() {
            return Ok(None);
        }
        Ok(match AgentSpec::parse(name)? {
            AgentSpec::Checkpoint { path, selection } => Some(self.classic_policy(&path)?.with_selection(selection)),
            AgentSpec::Bundle { path, selection } => {
                let load_error =
                    |e: policy::export::ExportError| SpecError::Load { spec: s.to_string(), message: e.to_string() };
                let bundle = policy::export::Bundle::load(&path, &policy::cpu_device()).map_err(load_error)?;
                Some(bundle.into_agent::<Classic>().map_err(load_error)?.with_selection(selection))
            }
            _ => {
                return Err(SpecError::Load {
                    spec: s.to_string(),
                    message: "classic Sabacc plays its bots, checkpoint folders and exported bundles (no guided \
                              search yet)"
                        .into(),
                });
            }
        })
    }

    /// The classic policy of a checkpoint folder, loaded once.
    fn classic_policy(&self, path: &Path) -> Result<GamePolicyAgent<Classic>, SpecError> {
        let key = crate::loaded_key(path, policy::METADATA_FILE);
        let mut loaded = self.loaded_classic.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(agent) = loaded.get(&key) {
            return Ok(agent.clone());
        }
        let (agent, _) = GamePolicyAgent::<Classic>::load(path, &policy::cpu_device())
            .map_err(|e| SpecError::Load { spec: path.display().to_string(), message: e.to_string() })?;
        loaded.insert(key, agent.clone());
        Ok(agent)
    }
}

impl AgentBuilder<Classic> for Agents {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<Classic>>, String> {
        self.build_classic(spec).map_err(|e| e.to_string())
    }
}
