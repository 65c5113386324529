//! Quick evaluation of the learning policy against heuristic bots during training
//! (`eval/win_rate_vs_<bot>`). The learner takes each seat in turn; the bots fill the others.
//! Games run in lockstep so the policy's inference is batched.

use crate::rollout::BotFactory;
use engine::{NUM_ACTIONS, Seat, derive_seed};
use env::obs::OBS_LEN;
use env::{Agent, AgentRng, EnvConfig, SabaccEnv};
use policy::{ActionSelection, Policy};
use rand::SeedableRng;

/// Seed streams of one evaluation, in separate namespaces of `seed`: game `g` deals from
/// `derive_seed(derive_seed(seed, DEAL_STREAM), g)` and the learner samples its actions from
/// `derive_seed(seed, POLICY_STREAM)`, so no game's deal can share its number with the policy's
/// stream (as game 99 once did with a bare `derive_seed(seed, 99)`).
const DEAL_STREAM: u64 = 0;
const POLICY_STREAM: u64 = 1;

/// Result of one evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalResult {
    /// Games played.
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
}

/// Plays `games` games of the policy (one seat, rotating) against `bot` in every other seat.
pub fn versus_bot(
    policy: &Policy,
    bots: &BotFactory,
    bot: &str,
    env_config: EnvConfig,
    games: u64,
    seed: u64,
) -> anyhow::Result<EvalResult> {
    let players = env_config.rules.players as u64;
    let mut result = EvalResult { games: 0, wins: 0.0, truncated: 0 };
    let mut rng = AgentRng::seed_from_u64(derive_seed(seed, POLICY_STREAM));
    let deals = derive_seed(seed, DEAL_STREAM);
    const LOCKSTEP: u64 = 64;
    let mut start = 0;
    while start < games {
        let count = LOCKSTEP.min(games - start);
        struct Live {
            env: SabaccEnv,
            learner: Seat,
            bots: Vec<Option<Box<dyn Agent>>>,
            rng: AgentRng,
        }
        let mut live: Vec<Live> = Vec::with_capacity(count as usize);
        for g in start..start + count {
            let mut env = SabaccEnv::new(env_config)?;
            let game_seed = derive_seed(deals, g);
            env.reset(game_seed);
            let learner = Seat((g % players) as u8);
            let mut seats: Vec<Option<Box<dyn Agent>>> = Vec::new();
            for s in 0..players as u8 {
                seats.push(if Seat(s) == learner {
                    None
                } else {
                    Some(bots.build(bot).map_err(|e| anyhow::anyhow!("evaluation: {e}"))?)
                });
            }
            live.push(Live { env, learner, bots: seats, rng: AgentRng::seed_from_u64(derive_seed(game_seed, 5)) });
        }
        let mut obs = Vec::new();
        let mut masks = Vec::new();
        loop {
            let mut rows = Vec::new();
            let mut any = false;
            for (i, l) in live.iter_mut().enumerate() {
                // Let the bots play until the learner must act or the game ends.
                while let Some(seat) = l.env.current_player() {
                    if seat == l.learner {
                        break;
                    }
                    let view = l.env.view(seat);
                    let mask = l.env.legal_mask();
                    let a = l.bots[seat.index()].as_mut().expect("bot seat").act(&view, mask, &mut l.rng)?;
                    l.env.step(a.index())?;
                }
                if l.env.current_player().is_some() {
                    rows.push(i);
                    any = true;
                }
            }
            if !any {
                break;
            }
            obs.resize(rows.len() * OBS_LEN, 0.0);
            masks.clear();
            for (r, &i) in rows.iter().enumerate() {
                live[i].env.observe_actor_into(&mut obs[r * OBS_LEN..(r + 1) * OBS_LEN]);
                let m = live[i].env.legal_mask();
                masks.extend((0..NUM_ACTIONS).map(|a| m.contains_index(a)));
            }
            let acts = policy.act_batch(&obs, &masks, rows.len(), ActionSelection::Sample, &mut rng)?;
            for (r, &i) in rows.iter().enumerate() {
                live[i].env.step(acts[r])?;
            }
        }
        for l in &live {
            result.games += 1;
            if l.env.state().is_truncated() {
                result.truncated += 1;
            }
            let w = l.env.winners();
            if w.contains(l.learner) {
                result.wins += 1.0 / w.len() as f64;
            }
        }
        start += count;
    }
    Ok(result)
}
