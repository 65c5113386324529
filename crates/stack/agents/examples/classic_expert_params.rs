//! One classic expert with changed thresholds against default experts, on the one arena (every
//! seating of each deal, games decided at the hand limit by credits):
//! `cargo run --release -p agents --example classic_expert_params -- PLAYERS DEALS [KNOB=VALUE…]`,
//! knobs `call_at strong good keep bluff raises risk steered shown`
//! (`games::classic::bots::expert::Params`), e.g. `-- 2 1000 call_at=0.5`. Prints the changed expert's
//! win share with its 95 % interval.

use env::{Agent, AgentBuilder, AgentError, AgentRng};
use eval::arena::{self, ArenaConfig, SeatingPlan};
use games::classic::Classic;
use games::classic::bots::expert::{Expert, Params};
use games::classic::config::HandLimitEnd;

/// An expert with the given parameters.
struct Tuned(Expert);

impl Agent<Classic> for Tuned {
    fn name(&self) -> &str {
        "tuned"
    }

    fn act(
        &mut self,
        view: &games::classic::PlayerView,
        legal: games::classic::ActionMask,
        rng: &mut AgentRng,
    ) -> Result<games::classic::Action, AgentError> {
        Ok(self.0.choose(view, legal, rng))
    }
}

/// `tuned` is the changed expert; every other spec is built as usual.
struct WithTuned(Params, agents::Agents);

impl AgentBuilder<Classic> for WithTuned {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<Classic>>, String> {
        if spec == "tuned" {
            return Ok(Box::new(Tuned(Expert { params: self.0, ..Expert::default() })));
        }
        AgentBuilder::<Classic>::build(&self.1, spec)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: classic_expert_params PLAYERS DEALS [KNOB=VALUE…]");
        std::process::exit(2)
    };
    let players: u8 =
        args.first().and_then(|s| s.parse().ok()).filter(|p| (2..=8).contains(p)).unwrap_or_else(|| usage());
    let deals: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
    let mut p = Params::default();
    for kv in &args[2..] {
        let Some((k, x)) = kv.split_once('=').and_then(|(k, v)| Some((k, v.parse::<f64>().ok()?))) else { usage() };
        match k {
            "call_at" => p.call_at = x,
            "strong" => p.strong = x,
            "good" => p.good = x,
            "keep" => p.keep = x,
            "bluff" => p.bluff_rate = x,
            "raises" => p.max_raises = x as u8,
            "risk" => p.call_risk = x,
            "steered" => p.steered = x as usize,
            "shown" => p.shown = x as usize,
            _ => usage(),
        }
    }
    let mut agents = vec!["tuned".to_string()];
    agents.extend(std::iter::repeat_n("expert".to_string(), players as usize - 1));
    let rules = games::classic::RuleConfig {
        hand_limit_end: HandLimitEnd::MostCredits,
        ..games::classic::RuleConfig::default()
    };
    let games = deals * arena::seatings(players as usize).len() as u64;
    let cfg = ArenaConfig::<Classic> { agents, players, games, seed: 77, rules, seating: SeatingPlan::Every };
    let res = arena::run(&cfg, &WithTuned(p, agents::Agents::new()), &|| {}).unwrap_or_else(|e| panic!("{e}"));
    let report = eval::report::build(&cfg, &res);
    let t = report.stats.agents.iter().find(|a| a.name == "tuned").expect("the tuned expert played");
    println!(
        "{:?}: {:.1} % [{:.1}, {:.1}] over {} seat-games",
        &args[2..],
        100.0 * t.win_rate,
        100.0 * t.ci_low,
        100.0 * t.ci_high,
        t.games
    );
}
