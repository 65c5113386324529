//! The agents layer for a game chosen at run time: [`for_game`] gives the [`GameAgents`] of any
//! registered game, whose agents act on a [`DynGame`] ([`DynAgent`]). The play server and the
//! Python package seat agents through it; generic code (the arena, the trainer) keeps
//! [`Agents::build`] and its monomorphised agents.

use crate::advice::{Advice, AdviceError};
use crate::{AgentSpec, Agents, Listed, SpecError};
use game::{Agent, AgentError, AgentRng, DynGame, Game, GameAction, LegalMask, Played, Seat};
use games::GameId;
use serde_json::Value;
use std::marker::PhantomData;
use std::path::Path;

/// An agent seated at a game of some registered game, deciding through the object-safe
/// interface: it sees only its seat's view, built from the game it is handed.
pub trait DynAgent: Send {
    /// Its name for reports.
    fn name(&self) -> &str;
    /// The action index it plays for `seat` (the seat to act) at `game`.
    fn act(&mut self, game: &dyn DynGame, seat: Seat, rng: &mut AgentRng) -> Result<usize, AgentError>;
}

/// A [`DynAgent`] built for a table, with the canonical spec to show and its warnings.
pub struct DynSeated {
    /// The agent.
    pub agent: Box<dyn DynAgent>,
    /// Its spec as the agents layer writes it.
    pub spec: String,
    /// Why it may play below its figures at this table.
    pub warnings: Vec<String>,
}

/// An agent's opinion of one decision ([`Advice`]), with actions as indices and names.
#[derive(Clone, Debug, PartialEq)]
pub enum DynAdvice {
    /// A policy's probabilities over the legal actions and its value estimate.
    Policy {
        /// `(index, name, probability)` of each legal action.
        probabilities: Vec<(usize, &'static str, f32)>,
        /// The critic's estimate.
        value: f32,
    },
    /// Search's mean score of each legal action.
    Search {
        /// `(index, name, score)`.
        values: Vec<(usize, &'static str, f64)>,
    },
    /// A bot's choice.
    Bot {
        /// `(index, name)`.
        choice: (usize, &'static str),
    },
}

/// The agents layer of one registered game, object-safe (see the module documentation).
pub trait GameAgents: Send + Sync {
    /// The game.
    fn game(&self) -> GameId;
    /// The agent `spec` names, seated at a table of this game under `rules` (as
    /// [`game::GameType::resolve_rules`] gives them).
    fn seat(&self, agents: &Agents, spec: &str, rules: &Value) -> Result<DynSeated, SpecError>;
    /// What agent `spec` thinks of the decision of `seat` at `game`.
    fn advise(
        &self,
        agents: &Agents,
        spec: &str,
        game: &dyn DynGame,
        seat: Seat,
        seed: u64,
    ) -> Result<DynAdvice, AdviceError>;
    /// Every agent of this game (bots, levels, then checkpoints and bundles under `roots`).
    fn list(&self, roots: &[&Path]) -> Vec<Listed>;
    /// `spec` as the agents layer writes it, or as given when it does not parse.
    fn spec_name(&self, spec: &str) -> String;
    /// `spec` parsed for this game (what a server checks against what it offers).
    fn parse(&self, spec: &str) -> Result<AgentSpec, SpecError>;
    /// `spec` with its folder found from any folder ([`crate::shipped::spec`]).
    fn shipped_spec(&self, spec: &str) -> String;
    /// Parses `spec` and builds it once, to refuse a bad one early; its canonical text.
    fn validate(&self, agents: &Agents, spec: &str) -> Result<String, SpecError>;
}

/// The agents layer of game `G`.
struct For<G>(PhantomData<fn() -> G>);

impl<G> For<G> {
    const NEW: For<G> = For(PhantomData);
}

/// `Box<dyn Agent<G>>` acting on `Played<G>`.
struct SeatedAt<G: Game>(Box<dyn Agent<G>>);

fn played<'a, G: Game>(game: &'a dyn DynGame, who: &str) -> Result<&'a Played<G>, AgentError> {
    game.as_any().downcast_ref::<Played<G>>().ok_or_else(|| {
        AgentError::new(who, format!("a {} agent was asked about a {} game", G::NAME, game.game_type().name()))
    })
}

impl<G: Game> DynAgent for SeatedAt<G> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn act(&mut self, game: &dyn DynGame, seat: Seat, rng: &mut AgentRng) -> Result<usize, AgentError> {
        let state = &played::<G>(game, self.0.name())?.state;
        let legal = G::legal_mask(state);
        let action = self.0.act(&G::view(state, seat), legal, rng)?;
        if !legal.contains_index(action.index()) {
            return Err(AgentError::new(
                self.0.name(),
                format!("chose `{}`, which is not legal here", G::action_name(action.index())),
            ));
        }
        Ok(action.index())
    }
}

impl<G: Game> GameAgents for For<G> {
    fn game(&self) -> GameId {
        GameId::of::<G>().unwrap_or_default()
    }

    fn seat(&self, agents: &Agents, spec: &str, rules: &Value) -> Result<DynSeated, SpecError> {
        let rules: G::Rules = serde_json::from_value(rules.clone())
            .map_err(|e| SpecError::Load { spec: spec.to_string(), message: format!("the table's rules: {e}") })?;
        let seated = agents.seat::<G>(spec, &rules)?;
        Ok(DynSeated { agent: Box::new(SeatedAt(seated.agent)), spec: seated.spec, warnings: seated.warnings })
    }

    fn advise(
        &self,
        agents: &Agents,
        spec: &str,
        game: &dyn DynGame,
        seat: Seat,
        seed: u64,
    ) -> Result<DynAdvice, AdviceError> {
        let parsed = AgentSpec::parse::<G>(spec)?;
        let state = &played::<G>(game, spec)?.state;
        let named = |a: G::Action| (a.index(), G::action_name(a.index()));
        Ok(match crate::ask::<G>(agents, &parsed, &G::view(state, seat), G::legal_mask(state), seed)? {
            Advice::Policy { probabilities, value } => DynAdvice::Policy {
                probabilities: probabilities.into_iter().map(|(a, p)| (named(a).0, named(a).1, p)).collect(),
                value,
            },
            Advice::Search { values } => {
                DynAdvice::Search { values: values.into_iter().map(|(a, v)| (named(a).0, named(a).1, v)).collect() }
            }
            Advice::Bot { choice } => DynAdvice::Bot { choice: named(choice) },
        })
    }

    fn list(&self, roots: &[&Path]) -> Vec<Listed> {
        Agents::list::<G>(roots)
    }

    fn spec_name(&self, spec: &str) -> String {
        AgentSpec::parse::<G>(spec).map_or_else(|_| spec.trim().to_string(), |s| s.to_string())
    }

    fn parse(&self, spec: &str) -> Result<AgentSpec, SpecError> {
        AgentSpec::parse::<G>(spec)
    }

    fn validate(&self, agents: &Agents, spec: &str) -> Result<String, SpecError> {
        agents.validate::<G>(spec).map(|s| s.to_string())
    }

    fn shipped_spec(&self, spec: &str) -> String {
        crate::shipped::spec::<G>(spec)
    }
}

macro_rules! tables {
    ($($g:ty),* $(,)?) => {
        [$(&For::<$g>::NEW as &'static dyn GameAgents),*]
    };
}

/// Every registered game's agents layer, in the registry's order.
static TABLES: &[&'static dyn GameAgents] = &games::registered!(tables);

/// The agents layer of `game`.
pub fn for_game(game: GameId) -> &'static dyn GameAgents {
    // The tables are made from the same list as the ids, in the same order, and a `GameId` can
    // only be made from that list: every id has its table.
    TABLES[GameId::all().position(|g| g == game).expect("every GameId is registered")]
}
