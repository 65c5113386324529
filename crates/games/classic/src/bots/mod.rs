//! Bots for classic Sabacc.
//!
//! Each bot is a pure decision function of its player's [`PlayerView`], the legal-action mask
//! and an explicit RNG: it never sees the full state, so it cannot read a hidden card. Specs:
//!
//! | spec | bot |
//! | --- | --- |
//! | `random` | [`random`]: uniform over the legal actions |
//! | `greedy` | [`greedy`]: draws towards 23, calls on 20+, never bets |
//! | `expert` | [`expert`]: sampled hand strength, pot odds, bluffs, shift and bomb risk |
//! | `search`, `search:N` | [`search`]: determinised rollouts of the hand with `expert` |
//!
//! `docs/bots-classic.md` states every rule and threshold and the arena figures.

pub mod expert;
pub mod greedy;
pub mod hand;
pub mod random;
pub mod search;

use crate::Classic;
use crate::action::{Action, ActionMask};
use crate::view::PlayerView;
use game::{Agent, AgentError, AgentRng, BotEntry, BotParameter};
use std::fmt;
use std::str::FromStr;

/// The RNG every bot draws from; the caller owns and seeds it.
pub type BotRng = rand_pcg::Pcg64Mcg;

/// A bot, as named by its spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bot {
    /// Uniform over the legal actions.
    Random,
    /// Towards 23, no bets.
    Greedy,
    /// Hand strength, pot odds, bluffs.
    Expert,
    /// Determinised rollouts with this many worlds per decision.
    Search(usize),
}

impl Bot {
    /// Every spec [`Bot::parse`] accepts, for messages.
    pub const SPECS: &'static str = "random, greedy, expert, search, search:N";

    /// Parses a spec: `random`, `greedy`, `expert`, `search` or `search:N` (N ≥ 1 worlds).
    pub fn parse(spec: &str) -> Result<Bot, String> {
        match spec.trim() {
            "random" => Ok(Bot::Random),
            "greedy" => Ok(Bot::Greedy),
            "expert" => Ok(Bot::Expert),
            "search" => Ok(Bot::Search(search::DEFAULT_WORLDS)),
            s => match s.strip_prefix("search:").map(str::parse::<usize>) {
                Some(Ok(n)) if n >= 1 => Ok(Bot::Search(n)),
                Some(_) => Err(format!("`{s}`: search takes a number of worlds of at least 1 (search:16)")),
                None => Err(format!("`{s}` is not a bot; known: {}", Bot::SPECS)),
            },
        }
    }

    /// The bot's spec.
    pub fn name(self) -> String {
        match self {
            Bot::Random => "random".into(),
            Bot::Greedy => "greedy".into(),
            Bot::Expert => "expert".into(),
            Bot::Search(n) => format!("search:{n}"),
        }
    }

    /// The bot's action at `view`, where `legal` holds the legal actions; always one of them.
    ///
    /// # Panics
    /// If no action is legal (the game is over).
    pub fn choose(self, view: &PlayerView, legal: ActionMask, rng: &mut BotRng) -> Action {
        match self {
            Bot::Random => random::choose(legal, rng),
            Bot::Greedy => greedy::choose(view, legal),
            Bot::Expert => expert::Expert::default().choose(view, legal, rng),
            Bot::Search(n) => search::choose(view, legal, rng, n),
        }
    }
}

impl FromStr for Bot {
    type Err = String;
    fn from_str(s: &str) -> Result<Bot, String> {
        Bot::parse(s)
    }
}

impl fmt::Display for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The prefix that marks a spec or a bot's name as classic Sabacc's (`classic:expert`), so a
/// report that mixes games says which game each agent plays.
pub const PREFIX: &str = "classic:";

/// The largest search budget a spec may ask for.
pub const MAX_SEARCH_WORLDS: usize = 100_000;

/// One of the bots as an [`Agent`]: a pure function of the seat's view, the legal mask and the
/// agent's RNG.
#[derive(Clone, Debug)]
pub struct BotAgent {
    bot: Bot,
    name: String,
}

impl BotAgent {
    /// `bot` as an agent, named `classic:NAME`.
    pub fn new(bot: Bot) -> BotAgent {
        BotAgent { bot, name: format!("{PREFIX}{}", bot.name()) }
    }
}

impl Agent<Classic> for BotAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, rng: &mut AgentRng) -> Result<Action, AgentError> {
        if legal.is_empty() {
            return Err(AgentError::new(&self.name, "no legal action was offered"));
        }
        Ok(self.bot.choose(view, legal, rng))
    }
}

/// The bots as agent specs name them ([`game::Game::bots`]).
pub static BOTS: [BotEntry<Classic>; 4] = [
    BotEntry {
        name: "random",
        description: "uniform over the legal actions",
        parameter: None,
        build: |_| Box::new(BotAgent::new(Bot::Random)),
    },
    BotEntry {
        name: "greedy",
        description: "draws towards 23, calls when ahead, never bets",
        parameter: None,
        build: |_| Box::new(BotAgent::new(Bot::Greedy)),
    },
    BotEntry {
        name: "expert",
        description: "bets and calls by hand strength and pot odds, bluffs at a stated rate",
        parameter: None,
        build: |_| Box::new(BotAgent::new(Bot::Expert)),
    },
    BotEntry {
        name: "search",
        description: "determinised rollouts of the hand with `expert` (search:N for N worlds)",
        parameter: Some(BotParameter {
            meaning: "sampled worlds per decision",
            default: search::DEFAULT_WORLDS as u32,
            max: MAX_SEARCH_WORLDS as u32,
        }),
        build: |worlds| Box::new(BotAgent::new(Bot::Search(worlds as usize))),
    },
];
