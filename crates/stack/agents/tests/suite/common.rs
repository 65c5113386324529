//! What the bot tests share: a seeded Kessel arena run over agent specs.

use agents::Agents;
use eval::arena::{self, ArenaConfig, GameRecord, SeatingPlan};
use games::kessel::{Kessel, RuleConfig};

/// The records of `games` arena games of `agents` at `players` seats (the default rules).
pub fn arena(agents: &[&str], players: u8, games: u64, seed: u64) -> Vec<GameRecord> {
    let cfg = ArenaConfig::<Kessel> {
        agents: agents.iter().map(|s| s.to_string()).collect(),
        players,
        games,
        seed,
        rules: RuleConfig::with_players(players),
        seating: SeatingPlan::Every,
    };
    arena::run(&cfg, &Agents::new(), &|| {}).expect("the arena rejects illegal actions").games
}
