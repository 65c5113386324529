//! Tabular CFR+ over information states, with chance enumerated (no sampling, no randomness).
//!
//! - Regret matching+: cumulative regrets are clipped at zero after every update, and the
//!   current strategy is proportional to them (uniform over legal actions when all are zero).
//! - Alternating updates: each iteration updates seat 0, then seat 1, the second pass already
//!   facing seat 0's new strategy.
//! - Linear averaging: iteration `t`'s strategy enters the average with weight `t`, weighted by
//!   the seat's own reach probability (the average of behaviour strategies that corresponds to
//!   averaging the mixed strategies).
//!
//! These are Tammelin's (2014) CFR+ choices with no averaging delay. The average policy is the
//! one that converges to equilibrium; the current one need not.

use crate::action::{ActionMask, NUM_ACTIONS};
use crate::config::PLAYERS;
use crate::config::{ConfigError, RuleConfig};
use crate::policy::{TabularPolicy, uniform};
use crate::tree::{GameTree, NO_CHILD, Node};

/// A CFR+ run in progress.
#[derive(Clone, Debug)]
pub struct CfrSolver {
    tree: GameTree,
    /// Cumulative clipped regrets per information state.
    regrets: Vec<[f64; NUM_ACTIONS]>,
    /// Weighted sum of strategies per information state.
    strategy_sum: Vec<[f64; NUM_ACTIONS]>,
    /// The current strategy (regret matching+ on `regrets`).
    current: Vec<[f64; NUM_ACTIONS]>,
    /// This pass's regrets, applied once the pass is over so the strategy stays fixed during it.
    pass_regrets: Vec<[f64; NUM_ACTIONS]>,
    iterations: u64,
}

impl CfrSolver {
    /// A solver for these rules, at iteration 0 (uniform strategies).
    pub fn new(rules: RuleConfig) -> Result<CfrSolver, ConfigError> {
        let tree = GameTree::build(rules)?;
        let n = tree.infosets().len();
        let current = tree.infosets().iter().map(|i| uniform(i.mask)).collect();
        Ok(CfrSolver {
            tree,
            regrets: vec![[0.0; NUM_ACTIONS]; n],
            strategy_sum: vec![[0.0; NUM_ACTIONS]; n],
            current,
            pass_regrets: vec![[0.0; NUM_ACTIONS]; n],
            iterations: 0,
        })
    }

    /// The game tree being solved.
    pub fn tree(&self) -> &GameTree {
        &self.tree
    }

    /// Iterations done so far.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Runs `n` more iterations.
    pub fn iterate(&mut self, n: u64) {
        for _ in 0..n {
            self.iterations += 1;
            for seat in 0..PLAYERS as u8 {
                self.pass(seat);
            }
        }
    }

    /// One alternating half-iteration: walk every deal, then update `seat`'s regrets.
    fn pass(&mut self, seat: u8) {
        for r in &mut self.pass_regrets {
            *r = [0.0; NUM_ACTIONS];
        }
        let weight = self.iterations as f64;
        let chance = self.tree.deal_probability();
        for i in 0..self.tree.roots().len() {
            let root = self.tree.roots()[i];
            self.walk(root, seat, 1.0, chance, weight);
        }
        for (i, info) in self.tree.infosets().iter().enumerate() {
            if info.seat.0 != seat {
                continue;
            }
            for a in info.mask.indices() {
                self.regrets[i][a] = (self.regrets[i][a] + self.pass_regrets[i][a]).max(0.0);
            }
            self.current[i] = regret_matching(&self.regrets[i], info.mask);
        }
    }

    /// The value of `node` for `seat`, given `seat`'s own reach and everyone else's (chance
    /// included); accumulates `seat`'s regrets and average strategy on the way.
    fn walk(&mut self, node: u32, seat: u8, own_reach: f64, other_reach: f64, weight: f64) -> f64 {
        let (infoset, actor, children) = match *self.tree.node(node) {
            Node::Terminal { returns } => return returns[seat as usize],
            Node::Decision { infoset, seat, children } => (infoset as usize, seat, children),
        };
        let sigma = self.current[infoset];
        let mut values = [0.0; NUM_ACTIONS];
        let mut value = 0.0;
        for (a, &child) in children.iter().enumerate() {
            if child == NO_CHILD {
                continue;
            }
            values[a] = if actor.0 == seat {
                self.walk(child, seat, own_reach * sigma[a], other_reach, weight)
            } else {
                self.walk(child, seat, own_reach, other_reach * sigma[a], weight)
            };
            value += sigma[a] * values[a];
        }
        if actor.0 == seat {
            for (a, &child) in children.iter().enumerate() {
                if child != NO_CHILD {
                    self.pass_regrets[infoset][a] += other_reach * (values[a] - value);
                    self.strategy_sum[infoset][a] += weight * own_reach * sigma[a];
                }
            }
        }
        value
    }

    /// The average strategy: the solver's answer.
    pub fn average_policy(&self) -> TabularPolicy {
        self.policy(|i| normalized(&self.strategy_sum[i], self.tree.infosets()[i].mask))
    }

    /// The current strategy (the last iteration's).
    pub fn current_policy(&self) -> TabularPolicy {
        self.policy(|i| self.current[i])
    }

    fn policy(&self, probs: impl Fn(usize) -> [f64; NUM_ACTIONS]) -> TabularPolicy {
        let mut p = TabularPolicy::new(*self.tree.rules());
        for (i, info) in self.tree.infosets().iter().enumerate() {
            // Keys come from real decisions and the vectors are normalized over their legal
            // actions, so every entry passes the policy's checks.
            p.insert(info.key.clone(), probs(i)).expect("solver strategies are valid distributions");
        }
        p
    }
}

/// Regret matching+: proportional to the positive regrets, uniform when there are none.
fn regret_matching(regrets: &[f64; NUM_ACTIONS], mask: ActionMask) -> [f64; NUM_ACTIONS] {
    let positive = std::array::from_fn(|a| if mask.contains_index(a) { regrets[a].max(0.0) } else { 0.0 });
    normalized(&positive, mask)
}

/// `v` scaled to sum to 1 over the legal actions, or uniform over them if it sums to 0.
fn normalized(v: &[f64; NUM_ACTIONS], mask: ActionMask) -> [f64; NUM_ACTIONS] {
    let sum: f64 = mask.indices().map(|a| v[a]).sum();
    if sum <= 0.0 {
        return uniform(mask);
    }
    std::array::from_fn(|a| if mask.contains_index(a) { v[a] / sum } else { 0.0 })
}

/// Runs CFR+ on standard Leduc hold'em for `iterations` and returns the average policy.
pub fn solve(iterations: u64) -> TabularPolicy {
    // The default rules always validate.
    let mut solver = CfrSolver::new(RuleConfig::default()).expect("default rules are valid");
    solver.iterate(iterations);
    solver.average_policy()
}
