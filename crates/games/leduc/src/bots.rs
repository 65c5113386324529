//! Leduc hold'em's bots. Every one of them knows its exact distribution over the legal actions
//! ([`game::Agent::distribution`]), so the exact exploitability of each can be computed, and each
//! plays by sampling from it.
//!
//! | spec | bot |
//! | --- | --- |
//! | `random` | uniform over the legal actions |
//! | `call` | always checks or calls: a calling station |
//! | `raise` | raises whenever it may, else calls |
//! | `greedy` | by its card: raises a pair or a king, calls a queen, checks or folds a jack |
//! | `cfr` | the average policy of tabular CFR+ after [`CFR_ITERATIONS`] iterations: an equilibrium to within its NashConv (`docs/rules-leduc.md`) |

use crate::card::Rank;
use crate::{Action, ActionMask, Leduc, NUM_ACTIONS, PlayerView, RuleConfig, TabularPolicy};
use game::{Agent, AgentError, AgentRng, BotEntry, RandomAgent};
use rand::RngExt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Iterations of the solver behind `cfr` (NashConv about 0.0005 chips: `tests/suite/cfr.rs`).
pub const CFR_ITERATIONS: u64 = 1000;

/// The `cfr` bot's policy for a table under `rules`, solved once per rules per process
/// (deterministic: there is no randomness in CFR+); `None` for rules the solver refuses.
pub fn cfr_policy(rules: &RuleConfig) -> Option<Arc<TabularPolicy>> {
    static POLICIES: OnceLock<Mutex<HashMap<RuleConfig, Arc<TabularPolicy>>>> = OnceLock::new();
    let mut solved = POLICIES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = solved.get(rules) {
        return Some(Arc::clone(p));
    }
    let mut solver = crate::CfrSolver::new(*rules).ok()?;
    solver.iterate(CFR_ITERATIONS);
    let policy = Arc::new(solver.average_policy());
    solved.insert(*rules, Arc::clone(&policy));
    Some(policy)
}

/// How a bot weighs the legal actions at a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Call,
    Raise,
    Greedy,
    Cfr,
}

/// A bot of `Kind` playing by its exact distribution.
#[derive(Clone, Debug)]
pub struct Bot {
    kind: Kind,
    name: &'static str,
}

/// All weight on the first of `prefs` that is legal.
fn first_legal(legal: ActionMask, prefs: &[Action]) -> [f64; NUM_ACTIONS] {
    let mut p = [0.0; NUM_ACTIONS];
    if let Some(a) = prefs.iter().copied().find(|&a| legal.contains(a)) {
        p[a.index()] = 1.0;
    }
    p
}

impl Bot {
    fn probabilities(&self, view: &PlayerView, legal: ActionMask) -> Result<[f64; NUM_ACTIONS], AgentError> {
        use Action::{Call, Fold, Raise};
        Ok(match self.kind {
            Kind::Call => first_legal(legal, &[Call]),
            Kind::Raise => first_legal(legal, &[Raise, Call]),
            Kind::Greedy => {
                let paired = view.public_card.is_some_and(|c| c.rank == view.own_card.rank);
                match (paired, view.own_card.rank) {
                    (true, _) | (false, Rank::King) => first_legal(legal, &[Raise, Call]),
                    (false, Rank::Queen) => first_legal(legal, &[Call]),
                    (false, Rank::Jack) => first_legal(legal, &[Fold, Call]),
                }
            }
            Kind::Cfr => cfr_policy(&view.rules)
                .ok_or_else(|| AgentError::new(self.name, format!("the solver refuses the rules {:?}", view.rules)))?
                .action_probs(view, legal),
        })
    }
}

impl Agent<Leduc> for Bot {
    fn name(&self) -> &str {
        self.name
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, rng: &mut AgentRng) -> Result<Action, AgentError> {
        let p = self.probabilities(view, legal)?;
        let u: f64 = rng.random();
        let mut acc = 0.0;
        let mut last = None;
        for a in legal.actions() {
            acc += p[a.index()];
            last = Some(a);
            if u < acc {
                return Ok(a);
            }
        }
        // Rounding can leave `acc` a hair below 1: the last legal action takes the remainder.
        last.ok_or_else(|| AgentError::new(self.name, "no legal action was offered"))
    }

    fn distribution(&mut self, view: &PlayerView, legal: ActionMask) -> Option<Result<Vec<f64>, AgentError>> {
        Some(self.probabilities(view, legal).map(|p| p.to_vec()))
    }
}

const fn bot(name: &'static str, description: &'static str, kind: Kind) -> BotEntry<Leduc> {
    let build: fn(u32) -> Box<dyn Agent<Leduc>> = match kind {
        Kind::Call => |_| Box::new(Bot { kind: Kind::Call, name: "call" }),
        Kind::Raise => |_| Box::new(Bot { kind: Kind::Raise, name: "raise" }),
        Kind::Greedy => |_| Box::new(Bot { kind: Kind::Greedy, name: "greedy" }),
        Kind::Cfr => |_| Box::new(Bot { kind: Kind::Cfr, name: "cfr" }),
    };
    BotEntry { name, description, parameter: None, build }
}

/// The bots as agent specs name them ([`game::Game::bots`]).
pub static BOTS: [BotEntry<Leduc>; 5] = [
    BotEntry {
        name: "random",
        description: "uniform over the legal actions",
        parameter: None,
        build: |_| Box::new(RandomAgent),
    },
    bot("call", "always checks or calls (a calling station)", Kind::Call),
    bot("raise", "raises whenever it may, else calls", Kind::Raise),
    bot("greedy", "by its card: raises a pair or a king, calls a queen, checks or folds a jack", Kind::Greedy),
    bot("cfr", "tabular CFR+ average policy (1000 iterations): an approximate equilibrium", Kind::Cfr),
];
