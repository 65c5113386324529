//! The agents layer's registration of the games: what a front-end that seats agents at either
//! game needs (an agent built from a spec with the name to show for it, warnings about a table
//! it was not trained for, its advice on a decision), and [`for_game`], the one place above the
//! env that turns a game chosen at run time into its type.
//!
//! Everything above this crate (the CLI's verbs, the play server, the Python bindings) is
//! generic over [`GameAgents`] and reaches a game through [`for_game`]; a new game adds its
//! [`env::Game`] in `env::games`, implements [`GameAgents`] here and gets one arm in
//! [`for_game`].

use crate::advice::{ADVICE_STREAM, Advice, AdviceError};
use crate::classic::PREFIX;
use crate::{AgentSpec, Agents, Listed, SpecError};
use kessel::derive_seed;
use env::{Agent, AgentBuilder, AgentError, AgentRng, Classic, Game, GameId, Kessel, LegalMask};
use rand::SeedableRng;
use std::path::Path;

/// An agent built for a table, with the canonical spec to show for it.
pub struct Seated<G: Game> {
    /// The agent.
    pub agent: Box<dyn Agent<G>>,
    /// Its spec as the agents layer writes it (`search:64`, `classic:expert`).
    pub spec: String,
    /// Why it may play below its figures at this table (a checkpoint trained for other rules).
    pub warnings: Vec<String>,
}

/// The agents layer for one game (see the module documentation).
pub trait GameAgents<G: Game>: AgentBuilder<G> {
    /// The agent `spec` names, built to play at a table with `rules`.
    fn seat(&self, spec: &str, rules: &G::Rules) -> Result<Seated<G>, SpecError>;
    /// What the agent `spec` thinks of the decision in `view` with legal actions `legal`;
    /// `seed` drives any randomness.
    fn advise(&self, spec: &str, view: &G::View, legal: G::Mask, seed: u64) -> Result<Advice<G::Action>, AdviceError>;
    /// Every agent of this game: its bots, then the checkpoints and bundles of this game found
    /// directly under each of `roots`.
    fn listed(roots: &[&Path]) -> Vec<Listed>;
    /// `spec` as the agents layer writes it (`search:64` for ` search:64 `), or as given when it
    /// does not parse.
    fn spec_name(&self, spec: &str) -> String {
        spec.trim().to_string()
    }
}

impl GameAgents<Kessel> for Agents {
    fn seat(&self, spec: &str, rules: &kessel::RuleConfig) -> Result<Seated<Kessel>, SpecError> {
        let parsed = AgentSpec::parse(spec)?;
        let agent = self.build_parsed(&parsed)?;
        Ok(Seated { agent, spec: parsed.to_string(), warnings: crate::fit_warnings(&parsed, rules) })
    }

    fn advise(
        &self,
        spec: &str,
        view: &kessel::PlayerView,
        legal: kessel::ActionMask,
        seed: u64,
    ) -> Result<Advice, AdviceError> {
        crate::ask(self, &AgentSpec::parse(spec)?, view, legal, seed)
    }

    fn listed(roots: &[&Path]) -> Vec<Listed> {
        Agents::list(roots).into_iter().filter(|l| game_of(&l.spec).is_none_or(|g| g == GameId::Kessel)).collect()
    }

    fn spec_name(&self, spec: &str) -> String {
        AgentSpec::parse(spec).map_or_else(|_| spec.trim().to_string(), |s| s.to_string())
    }
}

impl GameAgents<Classic> for Agents {
    fn seat(&self, spec: &str, _rules: &classic::RuleConfig) -> Result<Seated<Classic>, SpecError> {
        let agent = self.build_classic(spec)?;
        let s = spec.trim();
        let shown = if agent.name().starts_with(PREFIX) { agent.name().to_string() } else { s.to_string() };
        Ok(Seated { agent, spec: shown, warnings: Vec::new() })
    }

    fn listed(roots: &[&Path]) -> Vec<Listed> {
        let bots = [
            ("random", "uniform over the legal actions"),
            ("greedy", "draws towards 23, calls when ahead, never bets"),
            ("expert", "bets and calls by hand strength and pot odds, bluffs at a stated rate"),
            ("search", "determinised rollouts (search:N for N worlds)"),
        ];
        let mut out: Vec<Listed> =
            bots.iter().map(|(s, d)| Listed { spec: (*s).into(), description: (*d).into() }).collect();
        out.extend(Agents::list(roots).into_iter().filter(|l| game_of(&l.spec) == Some(GameId::Classic)).map(
            |mut l| {
                l.description = l.description.replace("checkpoint:", "classic checkpoint:");
                l
            },
        ));
        out
    }

    /// A trained policy's probabilities and value; a bot's choice. (Classic search shows its
    /// choice too: its per-action scores are not exposed yet.)
    fn advise(
        &self,
        spec: &str,
        view: &classic::PlayerView,
        legal: classic::ActionMask,
        seed: u64,
    ) -> Result<Advice<classic::Action>, AdviceError> {
        let mut rng = AgentRng::seed_from_u64(derive_seed(seed, ADVICE_STREAM));
        if let Some(mut policy) = self.classic_policy_agent(spec)? {
            let (probs, value) = policy.probabilities(view, legal)?;
            let probabilities = legal
                .index_list()
                .into_iter()
                .filter_map(|i| classic::Action::from_index(i).map(|a| (a, probs[i])))
                .collect();
            return Ok(Advice::Policy { probabilities, value });
        }
        let mut bot = self.build_classic(spec)?;
        let choice = bot.act(view, legal, &mut rng)?;
        if !legal.contains(choice) {
            return Err(AgentError::new(bot.name(), format!("chose {} which is not legal here", choice.name())).into());
        }
        Ok(Advice::Bot { choice })
    }
}

/// Work generic over the game, for a game chosen at run time (a `--game` flag, a request, a
/// checkpoint's metadata): [`for_game`] runs it with that game's type.
pub trait ForGame {
    /// What the work gives.
    type Out;
    /// Does the work for game `G`.
    fn run<G: Game>(self) -> Self::Out
    where
        Agents: GameAgents<G>;
}

/// Runs `work` for `game`.
pub fn for_game<W: ForGame>(game: GameId, work: W) -> W::Out {
    match game {
        GameId::Kessel => work.run::<Kessel>(),
        GameId::Classic => work.run::<Classic>(),
    }
}

/// The game a checkpoint folder or bundle was made for (`None` for anything else).
fn game_of(spec: &str) -> Option<GameId> {
    let dir = Path::new(spec);
    let env_id = match policy::read_metadata(dir) {
        Ok(meta) => meta.env_id,
        Err(_) => policy::export::read_contract(dir).ok()?.env_id,
    };
    GameId::from_env_id(&env_id)
}
