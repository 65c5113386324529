//! The trainer's periodic evaluation (`eval/win_rate_vs_<bot>`) is an arena tournament: the
//! learning policy in one seat against the bot in every other, with duplicate deals, every
//! seating, and Wilson intervals — the same numbers `sabacc eval --agents RUN,BOT[,BOT…]` prints
//! for that snapshot, because it is the same code.

use crate::rollout::BotFactory;
use env::{Agent, AgentBuilder, Game, GameConfig};
use eval::arena::{self, ArenaConfig, SeatingPlan};
use eval::stats::wilson;
use policy::{ActionSelection, Policy, PolicyAgent};

/// The lineup name of the policy under evaluation.
pub const LEARNER: &str = "learner";

/// Result of one evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalResult {
    /// Games played (whole deals: at least the number asked for).
    pub games: u64,
    /// Learner wins (a shared win of k players counts 1/k).
    pub wins: f64,
    /// Games cut off by the round limit.
    pub truncated: u64,
}

impl EvalResult {
    /// Wins per game.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.wins / self.games as f64 }
    }

    /// The 95% Wilson interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games as f64)
    }
}

/// Builds the policy under evaluation for [`LEARNER`] and everything else through the bots'
/// builder (the agents layer in real use).
struct WithLearner<'a, G: Game> {
    policy: &'a Policy,
    bots: &'a BotFactory<G>,
}

impl<G: Game> AgentBuilder<G> for WithLearner<'_, G> {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<G>>, String> {
        if spec == LEARNER {
            Ok(Box::new(PolicyAgent::<G>::new(LEARNER, self.policy.clone(), ActionSelection::Sample)))
        } else {
            self.bots.build(spec)
        }
    }
}

/// Plays at least `games` games of the policy in one seat against `bot` in every other seat, as
/// an arena tournament seeded with `seed` (deals from it, agents from its own stream).
pub fn versus_bot<G: Game>(
    policy: &Policy,
    bots: &BotFactory<G>,
    bot: &str,
    env_config: GameConfig<G>,
    games: u64,
    seed: u64,
) -> anyhow::Result<EvalResult> {
    let players = env_config.players();
    let mut agents = vec![LEARNER.to_string()];
    agents.extend(std::iter::repeat_n(bot.to_string(), players as usize - 1));
    let cfg = ArenaConfig::<G> { agents, players, games, seed, rules: env_config.rules, seating: SeatingPlan::Every };
    let result = arena::run(&cfg, &WithLearner { policy, bots }, &|| {})
        .map_err(|e| anyhow::anyhow!("evaluation against {bot}: {e}"))?;
    let learner = result.names.iter().position(|n| n == LEARNER).expect("the learner is in the lineup");
    let mut out = EvalResult { games: 0, wins: 0.0, truncated: 0 };
    for g in &result.games {
        out.games += 1;
        out.truncated += g.truncated as u64;
        out.wins += g.seat_agent.iter().zip(&g.win).filter(|(a, _)| **a == learner).map(|(_, w)| w).sum::<f64>();
    }
    Ok(out)
}
