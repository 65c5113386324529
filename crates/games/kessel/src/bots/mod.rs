//! The heuristic and search bots.
//!
//! Every bot implements [`game::Agent`] and sees only its player's [`crate::PlayerView`], the
//! legal-action mask and its RNG. Agent specs (`expert`, `search:64`, checkpoint paths, …) are
//! parsed and built by the `agents` crate, the one place every front-end goes through.
//!
//! Besides `greedy`, `expert` and `search`, six style bots give training and evaluation a
//! population of clearly different opponents: `tight` and `loose` (how much risk they take with
//! their cards, [`risk`]), `aggressive` and `hoarder` (when they spend their tokens), `leader`
//! (whom they aim at) and `chipaware` (playing for the game rather than the round). [`draft`]
//! holds the expert's draft (K2.1 `choose`), taken from the token research.
//!
//! Two more, `gambler` (a mixed strategy: it draws from its RNG at every decision) and `mirror`
//! (it follows what the table did rather than its cards), are the ship gate's panel opponents
//! that differ in kind from `expert` and its styles; no training config uses them
//! (docs/gate.md).
//!
//! Every deterministic rule-based bot is a [`style::Style`] — only the decisions it makes its own
//! way — played by the one template [`style::StyleBot`]; `gambler`, which draws from its RNG, and
//! `search` are agents of their own.

// Seats, families and hands index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

pub mod aggressive;
pub mod chipaware;
pub mod draft;
pub mod expert;
pub mod flawed;
pub mod gambler;
pub mod greedy;
pub mod hand;
pub mod hoarder;
pub mod leader;
pub mod loose;
pub mod mirror;
pub mod odds;
pub mod risk;
pub mod search;
pub mod style;
pub mod targets;
pub mod tight;

pub use aggressive::AggressiveAgent;
pub use chipaware::ChipAwareAgent;
pub use expert::ExpertAgent;
pub use flawed::{Flaw, FlawedAgent};
pub use gambler::GamblerAgent;
pub use greedy::GreedyAgent;
pub use hoarder::HoarderAgent;
pub use leader::LeaderAgent;
pub use loose::LooseAgent;
pub use mirror::MirrorAgent;
pub use search::{GuideSettings, NoWorld, SearchAgent, SearchDecision, SearchGuide};
pub use style::{Style, StyleBot};
pub use tight::TightAgent;

use crate::Kessel;
use game::{Agent, BotEntry, BotParameter, RandomAgent};

/// Kessel's bots as agent specs name them ([`game::Game::bots`]), in listing order.
pub static BOTS: [BotEntry<Kessel>; 15] = [
    bot("random", "uniform over the legal actions", |_| Box::new(RandomAgent)),
    bot("greedy", "rule-based: keeps the better card, stands on a good hand, simple token use", |_| {
        Box::new(GreedyAgent::new())
    }),
    bot("expert", "rule-based with hand odds, chip-aware token play and targeting", |_| Box::new(ExpertAgent::new())),
    bot("tight", "style: stands early on any reasonable hand, rarely draws, only defensive tokens", |_| {
        Box::new(TightAgent::new())
    }),
    bot("loose", "style: draws to chase a strong hand (a Sabacc), stands late", |_| Box::new(LooseAgent::new())),
    bot("aggressive", "style: expert cards, plays its tokens as early as it can at the most dangerous seat", |_| {
        Box::new(AggressiveAgent::new())
    }),
    bot("hoarder", "style: expert play, but keeps its tokens until late rounds or until short of chips", |_| {
        Box::new(HoarderAgent::new())
    }),
    bot(
        "chipaware",
        "style: plays for the game, not the round: cautious when ahead on chips, gambling when behind",
        |_| Box::new(ChipAwareAgent::new()),
    ),
    bot("leader", "style: expert play, every targeted token aimed at the opponent with the most chips", |_| {
        Box::new(LeaderAgent::new())
    }),
    bot("gambler", "panel: a mixed strategy, random stands, draws, tokens and targets weighted by its hand", |_| {
        Box::new(GamblerAgent::new())
    }),
    bot("mirror", "panel: follows the table (stands or draws as most opponents did), tokens tit for tat", |_| {
        Box::new(MirrorAgent::new())
    }),
    BotEntry {
        name: "search",
        description: "determinised search: N sampled worlds per decision (bare `search`: 32), expert rollouts",
        parameter: Some(BotParameter {
            meaning: "sampled worlds per decision",
            default: SearchAgent::DEFAULT_WORLDS as u32,
            max: SearchAgent::MAX_WORLDS as u32,
        }),
        build: |worlds| Box::new(SearchAgent::new(worlds as usize)),
    },
    bot("stander", "deliberately flawed: stands at once at every action (checks `sabacc exploit`)", |_| {
        Box::new(FlawedAgent::new(Flaw::AlwaysStands))
    }),
    bot("notokens", "deliberately flawed: `expert` that never plays a token (checks `sabacc exploit`)", |_| {
        Box::new(FlawedAgent::new(Flaw::NoTokens))
    }),
    bot(
        "handdraft",
        "baseline: `expert` drafting by its list from before the token research (differs only under choose)",
        |_| Box::new(FlawedAgent::new(Flaw::HandDraft)),
    ),
];

/// A bot without a parameter.
const fn bot(
    name: &'static str,
    description: &'static str,
    build: fn(u32) -> Box<dyn Agent<Kessel>>,
) -> BotEntry<Kessel> {
    BotEntry { name, description, parameter: None, build }
}
