//! Solves standard Leduc hold'em with CFR+, printing NashConv at checkpoints, and writes the
//! average policy as JSON.
//!
//! `cargo run --example solve -- [ITERATIONS] [OUT.json]` (defaults: 1000, no file).

use leduc::{CfrSolver, RuleConfig, nash_conv};
use std::path::Path;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let iterations: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1000);
    let out = args.next();
    let start = Instant::now();
    let mut solver = CfrSolver::new(RuleConfig::default())?;
    let mut next = 1;
    while solver.iterations() < iterations {
        solver.iterate(next.min(iterations) - solver.iterations());
        let policy = solver.average_policy();
        let solve_time = start.elapsed();
        let e = nash_conv(*policy.rules(), |v, m| policy.action_probs(v, m))?;
        println!(
            "iterations {:>6}  nash_conv {:.6}  elapsed {:.2?} (solver + evaluations)",
            solver.iterations(),
            e.nash_conv,
            solve_time
        );
        next *= 2;
    }
    if let Some(path) = out {
        solver.average_policy().save(Path::new(&path))?;
        println!("wrote {path}");
    }
    Ok(())
}
