//! Random legal play over many games, checking every invariant after every action: the engine's
//! own soak test and a quick look at how games go.

use crate::config::{ConfigError, RuleConfig};
use crate::seat::MAX_PLAYERS;
use crate::state::State;
use engine::derive_seed;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// What [`simulate`] found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    /// Seats at the table.
    pub players: u8,
    /// Games played.
    pub games: u64,
    /// The base seed (game `g` uses `derive_seed(seed, g)`).
    pub seed: u64,
    /// Decisions applied.
    pub decisions: u64,
    /// Mean decisions per game.
    pub decisions_per_game: f64,
    /// Mean hands per game.
    pub hands_per_game: f64,
    /// Fewest hands in a game.
    pub min_hands: u32,
    /// Most hands in a game.
    pub max_hands: u32,
    /// Games ended by the hand limit.
    pub truncations: u64,
    /// Games won by more than one player (nobody left with credits).
    pub shared_wins: u64,
    /// Games won (alone or shared) by each seat.
    pub wins_by_seat: Vec<u64>,
    /// Games in which an invariant broke (or no legal action was found at a decision).
    pub invariant_violations: u64,
    /// The first violation, with its game and step.
    pub first_violation: Option<String>,
}

/// Plays `games` random games at a table of `players` (overriding `config.players`), choosing
/// uniformly among the legal actions, and checks the invariants after every action.
pub fn simulate(config: RuleConfig, players: u8, games: u64, seed: u64) -> Result<SimReport, ConfigError> {
    let config = RuleConfig { players, ..config };
    config.validate()?;
    Ok(simulate_range(config, seed, 0..games).report(players, seed))
}

/// Running totals of random play over a range of games. Ranges tally on their own and merge in
/// any order, so a caller can split a long simulation across threads in constant memory and
/// still get the report one sequential run would give.
#[derive(Clone, Debug)]
pub struct SimTally {
    games: u64,
    decisions: u64,
    hands: u64,
    min_hands: u32,
    max_hands: u32,
    truncations: u64,
    shared_wins: u64,
    wins_by_seat: [u64; MAX_PLAYERS],
    violations: u64,
    /// The first violation, keyed by its game so merges keep the earliest.
    first_violation: Option<(u64, String)>,
}

impl Default for SimTally {
    fn default() -> Self {
        SimTally {
            games: 0,
            decisions: 0,
            hands: 0,
            min_hands: u32::MAX,
            max_hands: 0,
            truncations: 0,
            shared_wins: 0,
            wins_by_seat: [0; MAX_PLAYERS],
            violations: 0,
            first_violation: None,
        }
    }
}

impl SimTally {
    /// The totals of both ranges.
    pub fn merge(mut self, o: SimTally) -> SimTally {
        self.games += o.games;
        self.decisions += o.decisions;
        self.hands += o.hands;
        self.min_hands = self.min_hands.min(o.min_hands);
        self.max_hands = self.max_hands.max(o.max_hands);
        self.truncations += o.truncations;
        self.shared_wins += o.shared_wins;
        for (a, b) in self.wins_by_seat.iter_mut().zip(o.wins_by_seat) {
            *a += b;
        }
        self.violations += o.violations;
        self.first_violation = match (self.first_violation, o.first_violation) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        self
    }

    /// The report of these games at a table of `players` from base seed `seed`.
    pub fn report(&self, players: u8, seed: u64) -> SimReport {
        let played = self.games.max(1) as f64;
        SimReport {
            players,
            games: self.games,
            seed,
            decisions: self.decisions,
            decisions_per_game: self.decisions as f64 / played,
            hands_per_game: self.hands as f64 / played,
            min_hands: if self.min_hands == u32::MAX { 0 } else { self.min_hands },
            max_hands: self.max_hands,
            truncations: self.truncations,
            shared_wins: self.shared_wins,
            wins_by_seat: self.wins_by_seat[..players as usize].to_vec(),
            invariant_violations: self.violations,
            first_violation: self.first_violation.as_ref().map(|(_, v)| v.clone()),
        }
    }
}

/// Plays games `games` (game `g` from `derive_seed(seed, g)`) of a validated `config` at random.
pub fn simulate_range(config: RuleConfig, seed: u64, games: Range<u64>) -> SimTally {
    let mut r = SimTally::default();
    for g in games {
        let game_seed = derive_seed(seed, g);
        let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(game_seed, 1));
        r.games += 1;
        let mut s = match State::new(config, game_seed) {
            Ok(s) => s,
            Err(e) => {
                r.violations += 1;
                r.first_violation.get_or_insert((g, format!("game {g}: {e}")));
                continue;
            }
        };
        s.set_event_logging(false);
        let mut step = 0u64;
        let mut violated = None;
        while !s.is_terminal() {
            let m = s.legal_mask();
            let Some(i) = m.nth_index(rng.random_range(0..m.count().max(1))) else {
                violated = Some(format!("game {g} step {step}: no legal action"));
                break;
            };
            if let Err(e) = s.apply_index(i) {
                violated = Some(format!("game {g} step {step}: {e}"));
                break;
            }
            step += 1;
            if let Err(e) = s.check_invariants() {
                violated = Some(format!("game {g} step {step}: {e}"));
                break;
            }
        }
        r.decisions += step;
        if let Some(v) = violated {
            r.violations += 1;
            if r.first_violation.is_none() {
                r.first_violation = Some((g, v));
            }
            continue;
        }
        let h = s.hand_number();
        r.hands += h as u64;
        r.min_hands = r.min_hands.min(h);
        r.max_hands = r.max_hands.max(h);
        if s.is_truncated() {
            r.truncations += 1;
        } else {
            let w = s.winners();
            if w.len() > 1 {
                r.shared_wins += 1;
            }
            for seat in w.iter() {
                r.wins_by_seat[seat.index()] += 1;
            }
        }
    }
    r
}
