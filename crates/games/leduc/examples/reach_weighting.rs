//! Why self-play PPO stalls short of Leduc hold'em's equilibrium: the same regularised update
//! applied to every information set at the same rate, and applied in proportion to how often play
//! reaches each set, as a sampled policy gradient applies it.
//!
//! Each step moves every information set by one step of magnetic mirror descent with a uniform
//! magnet (an entropy bonus of τ chips; chance enumerated, exact values), scaled per set by:
//!
//! * `uniform`: 1 (every set at full rate: the update `entropy_floor` finds the floor with);
//! * `reach`: the set's reach under self-play over the largest set's, which is how a policy
//!   gradient sampled from self-play weights it (its expected update);
//! * `others`: chance's and the opponent's reach only, the seat's own reach divided out, as if
//!   the learner played uniformly on its way to every set;
//! * `divided:W`: the reach with the seat's own reach divided out as far as a factor of W (a
//!   sampled learner that weights each row by its own inverse reach, clipped at W);
//! * `explore:E`: the reach of a behaviour that deviates at each decision to a uniform action
//!   with probability E, with the values still the policy's own.
//!
//! All rest at the same regularised equilibrium; what differs is how fast the sets that play
//! rarely reaches get there, and a best response is what finds those sets.
//!
//! `cargo run --release -p leduc --example reach_weighting -- [WEIGHTING,…] [TAU] [STEP] [ITERATIONS]`
//! (defaults: uniform,reach,others,explore:0.02; 0.1; 0.01; 300,000: about 2 minutes a weighting).

use leduc::tree::GameTree;
use leduc::values::{Probs, infoset_values, regularised_step};
use leduc::{RuleConfig, TabularPolicy, nash_conv};

#[derive(Clone, Copy, Debug)]
enum Weighting {
    Uniform,
    Reach,
    Others,
    Divided(f64),
    Explore(f64),
}

fn parse(s: &str) -> Result<Weighting, String> {
    match s {
        "uniform" => Ok(Weighting::Uniform),
        "reach" => Ok(Weighting::Reach),
        "others" => Ok(Weighting::Others),
        _ => {
            match (s.strip_prefix("explore:").map(str::parse::<f64>), s.strip_prefix("divided:").map(str::parse::<f64>))
            {
                (Some(Ok(e)), _) if (0.0..=1.0).contains(&e) => Ok(Weighting::Explore(e)),
                (_, Some(Ok(w))) if w >= 1.0 => Ok(Weighting::Divided(w)),
                _ => Err(format!(
                    "unknown weighting `{s}`: uniform, reach, others, divided:W with W ≥ 1 or explore:E with E in [0, 1]"
                )),
            }
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let weightings: Vec<Weighting> = args
        .next()
        .unwrap_or_else(|| "uniform,reach,others,explore:0.02".into())
        .split(',')
        .map(parse)
        .collect::<Result<_, _>>()?;
    let tau: f64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(0.1);
    let step: f64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(0.01);
    let iterations: u32 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(300_000);
    let tree = GameTree::build(RuleConfig::default())?;
    let marks: Vec<u32> =
        [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000].into_iter().filter(|&m| m <= iterations).collect();
    println!("NashConv after each number of steps (τ = {tau} chips, step {step}):\n");
    println!("| weighting | {} |", marks.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" | "));
    println!("| --- |{}", " ---: |".repeat(marks.len()));
    for w in weightings {
        let explore = if let Weighting::Explore(e) = w { e } else { 0.0 };
        let mut policy: Vec<Probs> = tree.infosets().iter().map(|i| leduc::policy::uniform(i.mask)).collect();
        let mut row = Vec::new();
        for it in 1..=iterations {
            let v = infoset_values(&tree, &policy, explore);
            let scale: Vec<f64> = match w {
                Weighting::Uniform => vec![1.0; policy.len()],
                Weighting::Reach | Weighting::Explore(_) => relative(&v.reach()),
                Weighting::Others => relative(&v.others_reach),
                Weighting::Divided(cap) => relative(
                    &v.reach().iter().zip(&v.own_reach).map(|(r, m)| r * (1.0 / m).min(cap)).collect::<Vec<_>>(),
                ),
            };
            for (i, info) in tree.infosets().iter().enumerate() {
                policy[i] = regularised_step(&policy[i], &v.q[i], info.mask, step * scale[i], tau);
            }
            if marks.contains(&it) {
                let mut tabular = TabularPolicy::new(*tree.rules());
                for (i, info) in tree.infosets().iter().enumerate() {
                    tabular.insert(info.key.clone(), policy[i])?;
                }
                row.push(format!("{:.3}", nash_conv(*tree.rules(), |v, m| tabular.action_probs(v, m))?.nash_conv));
            }
        }
        let name = match w {
            Weighting::Uniform => "uniform".to_string(),
            Weighting::Reach => "reach".to_string(),
            Weighting::Others => "others".to_string(),
            Weighting::Divided(cap) => format!("divided:{cap}"),
            Weighting::Explore(e) => format!("explore:{e}"),
        };
        println!("| {name} | {} |", row.join(" | "));
    }
    Ok(())
}

/// Each value over the largest.
fn relative(x: &[f64]) -> Vec<f64> {
    let top = x.iter().copied().fold(0.0, f64::max);
    x.iter().map(|v| v / top).collect()
}
