//! Sweeps the settings of guided search (`search:N+CHECKPOINT`) against fixed opponents, to
//! choose its defaults: the prune threshold, the prior's weight and the leaf scoring.
//!
//! ```sh
//! cargo run --release -p agents --example guided_sweep -- CHECKPOINT WORLDS GAMES OPPONENT [PLAYERS [VARIANT...]]
//! ```
//! A variant is `guided:PRUNE:PRIOR_WEIGHT:value|chips[:policy|expert]` (the last part: who plays
//! the rollouts, `policy` when left out); any other agent spec plays as itself.
//! Prints, per variant, its win rate with a 95 % Wilson interval (duplicate deals, every seating).

use agents::Agents;
use env::{Agent, AgentBuilder};
use eval::arena::{ArenaConfig, SeatingPlan, run};
use games::kessel::Kessel;
use games::kessel::bots::{GuideSettings, SearchAgent};
use std::path::PathBuf;

/// Builds `guided:PRUNE:WEIGHT:LEAVES` variants and delegates every other spec to [`Agents`].
struct Variants {
    agents: Agents,
    checkpoint: PathBuf,
    worlds: usize,
}

impl AgentBuilder<Kessel> for Variants {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<Kessel>>, String> {
        let Some(rest) = spec.strip_prefix("guided:") else {
            return self.agents.build(spec).map_err(|e| e.to_string());
        };
        let parts: Vec<&str> = rest.split(':').collect();
        let (prune, weight, leaves, rollouts) = match parts[..] {
            [p, w, l] => (p, w, l, "policy"),
            [p, w, l, r] => (p, w, l, r),
            _ => return Err(format!("bad variant {spec}")),
        };
        let settings = GuideSettings {
            prune: prune.parse().map_err(|_| format!("bad prune in {spec}"))?,
            prior_weight: weight.parse().map_err(|_| format!("bad weight in {spec}"))?,
            value_leaves: leaves == "value",
            policy_rollouts: rollouts == "policy",
        };
        let policy = self
            .agents
            .policy_agent(
                &agents::AgentSpec::parse::<games::kessel::Kessel>(&self.checkpoint.display().to_string())
                    .map_err(|e| e.to_string())?,
            )
            .map_err(|e| e.to_string())?
            .ok_or("not a checkpoint")?;
        let meta = policy::read_metadata(&self.checkpoint).map_err(|e| e.to_string())?;
        let guide = agents::guided::PolicyGuide::new(policy, meta.value_shaping.ok_or("no value_shaping")?);
        Ok(Box::new(SearchAgent::guided(self.worlds, Box::new(guide), settings, spec)))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: guided_sweep CHECKPOINT WORLDS GAMES OPPONENT [PLAYERS [VARIANT...]]");
        std::process::exit(2);
    }
    let worlds: usize = args[1].parse().expect("WORLDS");
    let games: u64 = args[2].parse().expect("GAMES");
    let players: u8 = args.get(4).map(|p| p.parse().expect("PLAYERS")).unwrap_or(2);
    let variants = Variants { agents: Agents::new(), checkpoint: PathBuf::from(&args[0]), worlds };
    let default =
        ["guided:0:0:chips", "guided:0.02:0:chips", "guided:0:0:value", "guided:0.02:0:value", "guided:0.02:0.1:value"];
    let sweep: Vec<String> =
        if args.len() > 5 { args[5..].to_vec() } else { default.iter().map(|s| s.to_string()).collect() };
    for v in &sweep {
        let mut agents = vec![v.to_string()];
        agents.extend(std::iter::repeat_n(args[3].clone(), players as usize - 1));
        let cfg = ArenaConfig::<Kessel> {
            agents,
            players,
            games,
            seed: 11,
            rules: games::kessel::RuleConfig::default(),
            seating: SeatingPlan::Every,
        };
        let t = std::time::Instant::now();
        let res = run(&cfg, &variants, &|| {}).expect("arena");
        let (mut n, mut w) = (0.0, 0.0);
        for g in &res.games {
            for (seat, &a) in g.seat_agent.iter().enumerate() {
                if res.names[a] == *v {
                    n += 1.0;
                    w += g.win[seat];
                }
            }
        }
        let (lo, hi) = eval::stats::wilson(w, n);
        println!(
            "{v:24} vs {} ×{}: {:.1}% [{:.1}, {:.1}] of {n} seats, {:.0} s",
            args[3],
            players - 1,
            100.0 * w / n,
            100.0 * lo,
            100.0 * hi,
            t.elapsed().as_secs_f64()
        );
    }
}
