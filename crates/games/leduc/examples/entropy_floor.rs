//! How far from Leduc hold'em's equilibrium is the equilibrium of the game regularised by an
//! entropy bonus? A policy-gradient learner with an entropy bonus τ (in chips) is at rest where
//! every information set plays softmax(Q/τ) of its actions' expected chips: the logit agent
//! quantal-response equilibrium. Its NashConv is the floor such a learner reaches even if it
//! solves the regularised game exactly. This finds that equilibrium for each τ by tabular
//! magnetic mirror descent (uniform magnet, chance enumerated), measures its NashConv, and the
//! spread of the per-decision advantages (return minus the information set's value) that PPO
//! would normalise by: with `norm_adv`, an `ent_coef` of c acts as τ = c × that spread.
//!
//! `cargo run --release -p leduc --example entropy_floor -- [TAU,TAU,…] [ITERATIONS] [STEP]`
//! (defaults: 0.05,0.1,0.2,0.3,0.5,1,2; 200,000; 0.01: about 80 s a τ).

use leduc::tree::{GameTree, NO_CHILD, Node};
use leduc::values::{Probs, infoset_values, regularised_step};
use leduc::{PLAYERS, RuleConfig, TabularPolicy, nash_conv};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let taus: Vec<f64> = match args.next() {
        Some(s) => s.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => vec![0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0],
    };
    let iterations: u32 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(200_000);
    // The step: small enough that simultaneous updates do not cycle (chips run to ±13); the
    // fixed point does not depend on it.
    let eta: f64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(0.01);
    let tree = GameTree::build(RuleConfig::default())?;
    println!("| τ (chips) | NashConv | change in the last 10 % of iterations | advantage spread σ | ent_coef τ/σ |");
    println!("| ---: | ---: | ---: | ---: | ---: |");
    for tau in taus {
        let mut policy: Vec<Probs> = tree.infosets().iter().map(|i| leduc::policy::uniform(i.mask)).collect();
        let mut moved = 0.0;
        for it in 0..iterations {
            let q = infoset_values(&tree, &policy, 0.0).q;
            let mut largest: f64 = 0.0;
            for (i, info) in tree.infosets().iter().enumerate() {
                let next = regularised_step(&policy[i], &q[i], info.mask, eta, tau);
                for a in info.mask.indices() {
                    largest = largest.max((next[a] - policy[i][a]).abs());
                }
                policy[i] = next;
            }
            if it >= iterations - iterations / 10 {
                moved = f64::max(moved, largest);
            }
        }
        let mut tabular = TabularPolicy::new(*tree.rules());
        for (i, info) in tree.infosets().iter().enumerate() {
            tabular.insert(info.key.clone(), policy[i])?;
        }
        let e = nash_conv(*tree.rules(), |v, m| tabular.action_probs(v, m))?;
        let sigma = advantage_spread(&tree, &policy);
        println!("| {tau} | {:.4} | {moved:.1e} | {sigma:.3} | {:.4} |", e.nash_conv, tau / sigma);
    }
    Ok(())
}

/// The standard deviation, over the decisions of self-play, of the actor's final chips minus its
/// information set's value: what PPO's advantages (γ = 1, λ near 1) spread by.
fn advantage_spread(tree: &GameTree, policy: &[Probs]) -> f64 {
    let q = infoset_values(tree, policy, 0.0).q;
    let value: Vec<f64> = q.iter().zip(policy).map(|(q, p)| q.iter().zip(p).map(|(q, p)| q * p).sum()).collect();
    // Per node: (E[G], E[G²]) for each seat under the policy; then visits weight (G − V)².
    let (mut mass, mut first, mut second) = (0.0, 0.0, 0.0);
    for &root in tree.roots() {
        moments(tree, policy, &value, root, tree.deal_probability(), &mut mass, &mut first, &mut second);
    }
    let mean = first / mass;
    (second / mass - mean * mean).sqrt()
}

#[allow(clippy::too_many_arguments)]
fn moments(
    tree: &GameTree,
    policy: &[Probs],
    value: &[f64],
    node: u32,
    reach: f64,
    mass: &mut f64,
    first: &mut f64,
    second: &mut f64,
) -> ([f64; PLAYERS], [f64; PLAYERS]) {
    let (infoset, seat, children) = match *tree.node(node) {
        Node::Terminal { returns } => return (returns, returns.map(|r| r * r)),
        Node::Decision { infoset, seat, children } => (infoset as usize, seat.0 as usize, children),
    };
    let (mut g, mut g2) = ([0.0; PLAYERS], [0.0; PLAYERS]);
    for (a, &child) in children.iter().enumerate() {
        if child == NO_CHILD {
            continue;
        }
        let p = policy[infoset][a];
        let (cg, cg2) = moments(tree, policy, value, child, reach * p, mass, first, second);
        for s in 0..PLAYERS {
            g[s] += p * cg[s];
            g2[s] += p * cg2[s];
        }
    }
    let v = value[infoset];
    *mass += reach;
    *first += reach * (g[seat] - v);
    *second += reach * (g2[seat] - 2.0 * v * g[seat] + v * v);
    (g, g2)
}
