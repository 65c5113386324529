//! Rollout collection: many games stepped in lockstep, the learning policy in some seats and the
//! opponent pool in the others. Only learner decisions are stored and trained on.
//!
//! Each learner seat of each game keeps a *chain* of its own decisions. A decision's advantage
//! needs the value of the seat's next decision, so at the end of a rollout the last decision of
//! an unfinished chain is carried over to the next rollout; everything before it is final.

use crate::config::{SnapshotSampling, TrainConfig};
use crate::gae::{GaeStep, gae};
use engine::{MAX_PLAYERS, NUM_ACTIONS, Seat, derive_seed};
use env::obs::OBS_LEN;
use env::{Agent, AgentRng, SabaccEnv};
use policy::{ActionSelection, Policy};
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// Builds the pool's bots from their agent specs (the `agents` crate's `Agents` in real use); a
/// spec that builds nothing is an error naming it, never a silently missing opponent.
pub type BotFactory = Arc<dyn env::AgentBuilder>;

/// One stored learner decision.
#[derive(Clone, Debug)]
pub struct Transition {
    /// Observation at the decision.
    pub obs: Vec<f32>,
    /// Legal actions (bit per index).
    pub mask: u64,
    /// The action taken.
    pub action: u8,
    /// Its log-probability under the behaviour policy.
    pub logp: f32,
    /// Critic value at the decision.
    pub value: f32,
    /// Reward received before the seat's next decision.
    pub reward: f32,
    /// The game ended after this decision.
    pub done: bool,
    /// Shaping potential (the seat's share of the chips on the table) at the decision.
    pub phi: f32,
}

/// The seat's share of all chips still on the table (stocks and hand pots): the shaping
/// potential. Public information only.
fn chip_share(state: &engine::State, seat: Seat) -> f32 {
    let mut total = 0u32;
    for s in 0..state.num_players() {
        let p = state.player(Seat(s));
        total += p.stock.0 as u32 + p.pot.0 as u32;
    }
    let me = state.player(seat);
    if total == 0 { 0.0 } else { (me.stock.0 as u32 + me.pot.0 as u32) as f32 / total as f32 }
}

/// A training batch in flat, row-major buffers ready for tensors.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Rows.
    pub n: usize,
    /// `n × OBS_LEN` observations.
    pub obs: Vec<f32>,
    /// `n × 48` legal-action flags.
    pub masks: Vec<bool>,
    /// Actions taken.
    pub actions: Vec<i64>,
    /// Behaviour log-probabilities.
    pub logp: Vec<f32>,
    /// Behaviour values.
    pub values: Vec<f32>,
    /// GAE advantages.
    pub adv: Vec<f32>,
    /// Returns (advantage + value).
    pub ret: Vec<f32>,
}

impl Batch {
    fn push_chain(&mut self, chain: &[Transition], bootstrap: f32, gamma: f32, lambda: f32) {
        if chain.is_empty() {
            return;
        }
        let steps: Vec<GaeStep> =
            chain.iter().map(|t| GaeStep { reward: t.reward, value: t.value, done: t.done }).collect();
        let (adv, ret) = gae(&steps, bootstrap, gamma, lambda);
        for (k, t) in chain.iter().enumerate() {
            self.obs.extend_from_slice(&t.obs);
            for i in 0..NUM_ACTIONS {
                self.masks.push(t.mask & (1u64 << i) != 0);
            }
            self.actions.push(t.action as i64);
            self.logp.push(t.logp);
            self.values.push(t.value);
            self.adv.push(adv[k]);
            self.ret.push(ret[k]);
            self.n += 1;
        }
    }
}

/// Who plays a seat.
enum Role {
    /// The learning policy; its decisions are trained on.
    Learner,
    /// A policy from the pool: 0 is the latest (current) policy, k ≥ 1 the k-th snapshot.
    Policy(usize),
    /// A heuristic bot.
    Bot(Box<dyn Agent>),
}

/// An opponent kind in the pool mix.
#[derive(Clone, Debug, PartialEq)]
enum OppKind {
    Latest,
    Snapshots,
    Bot(String),
}

/// One game of the rollout.
struct Game {
    env: SabaccEnv,
    roles: Vec<Role>,
    chains: [Vec<Transition>; MAX_PLAYERS],
    episode: u64,
    bot_rng: AgentRng,
    learner_return: f32,
    opponent_label: String,
}

/// Statistics of the games finished during collection, for logging.
#[derive(Clone, Debug, Default)]
pub struct EpisodeStats {
    /// Finished games.
    pub episodes: u64,
    /// Sum of the learner seats' returns (per game, averaged over its learner seats).
    pub return_sum: f64,
    /// Sum of game lengths in environment steps.
    pub length_sum: u64,
    /// Per opponent label: (games, learner wins).
    pub by_opponent: std::collections::BTreeMap<String, (u64, f64)>,
    /// Per snapshot (index into the pool passed to `collect`): (games it played in, learner
    /// wins in those games). Feeds prioritised snapshot sampling.
    pub by_snapshot: std::collections::BTreeMap<usize, (u64, f64)>,
}

/// Steps many games with the learner and the opponent pool and assembles PPO batches.
pub struct Collector {
    cfg: TrainConfig,
    games: Vec<Game>,
    bots: BotFactory,
    mix: Vec<(OppKind, f64)>,
    /// Table sizes drawn per game (repeats weigh a size).
    sizes: Vec<u8>,
    snapshot_weights: Vec<f64>,
    segment: u64,
    obs_buf: Vec<f32>,
    mask_buf: Vec<bool>,
}

impl Collector {
    /// A collector for the config's `num_envs` games; call [`Collector::reset_all`] before use.
    pub fn new(cfg: &TrainConfig, bots: BotFactory) -> anyhow::Result<Collector> {
        let mut mix = Vec::new();
        for (k, &w) in &cfg.opponents {
            if w <= 0.0 {
                continue;
            }
            let kind = match k.as_str() {
                "latest" => OppKind::Latest,
                "snapshots" => OppKind::Snapshots,
                b => {
                    bots.build(b).map_err(|e| anyhow::anyhow!("opponents: {e}"))?;
                    OppKind::Bot(b.to_string())
                }
            };
            mix.push((kind, w));
        }
        let mut games = Vec::with_capacity(cfg.num_envs);
        for _ in 0..cfg.num_envs {
            games.push(Game {
                env: SabaccEnv::new(cfg.env_config_for(cfg.size_draws()[0]))?,
                roles: Vec::new(),
                chains: Default::default(),
                episode: 0,
                bot_rng: AgentRng::seed_from_u64(0),
                learner_return: 0.0,
                opponent_label: String::new(),
            });
        }
        Ok(Collector {
            cfg: cfg.clone(),
            games,
            bots,
            mix,
            sizes: cfg.size_draws(),
            snapshot_weights: Vec::new(),
            segment: 0,
            obs_buf: Vec::new(),
            mask_buf: Vec::new(),
        })
    }

    /// Sets the relative weights of the pool's snapshots for `prioritised` sampling (one per
    /// snapshot, in pool order). Ignored under `uniform` sampling or when the count does not
    /// match the pool.
    pub fn set_snapshot_weights(&mut self, weights: Vec<f64>) {
        self.snapshot_weights = weights;
    }

    fn pick_snapshot(&self, snapshots: usize, rng: &mut AgentRng) -> usize {
        let w = &self.snapshot_weights;
        let total: f64 = w.iter().sum();
        if self.cfg.snapshot_sampling == SnapshotSampling::Uniform
            || w.len() != snapshots
            || total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
        {
            return rng.random_range(0..snapshots);
        }
        let mut u = rng.random::<f64>() * total;
        for (k, &x) in w.iter().enumerate() {
            if u < x {
                return k;
            }
            u -= x;
        }
        snapshots - 1
    }

    /// Starts every game afresh for a segment of the run (segments start at checkpoints, so a
    /// resumed run sees exactly the games an uninterrupted one would). Open chains are dropped.
    pub fn reset_all(&mut self, segment: u64, snapshots: usize) -> anyhow::Result<()> {
        self.segment = segment;
        for i in 0..self.games.len() {
            self.games[i].episode = 0;
            self.reset_game(i, snapshots)?;
        }
        Ok(())
    }

    fn reset_game(&mut self, i: usize, snapshots: usize) -> anyhow::Result<()> {
        let cfg = &self.cfg;
        let seed = derive_seed(derive_seed(derive_seed(cfg.seed, self.segment), i as u64), self.games[i].episode);
        let players = if self.sizes.len() == 1 {
            self.sizes[0]
        } else {
            self.sizes[AgentRng::seed_from_u64(derive_seed(seed, 3)).random_range(0..self.sizes.len())]
        };
        let mut rng = AgentRng::seed_from_u64(derive_seed(seed, 2));
        let n = players as usize;
        let mut seats: Vec<usize> = (0..n).collect();
        for j in 0..n {
            let r = j + rng.random_range(0..(n - j));
            seats.swap(j, r);
        }
        let total: f64 = self.mix.iter().map(|m| m.1).sum();
        let mut draws = Vec::new();
        for _ in cfg.learner_seats as usize..n {
            let u = rng.random::<f64>() * total;
            let kind = self.pick_kind(u);
            let snapshot = match kind {
                OppKind::Snapshots if snapshots > 0 => Some(self.pick_snapshot(snapshots, &mut rng)),
                _ => None,
            };
            draws.push((kind.clone(), snapshot));
        }
        let g = &mut self.games[i];
        g.episode += 1;
        if g.env.num_players() != players {
            g.env = SabaccEnv::new(cfg.env_config_for(players)).expect("table sizes are validated with the config");
        }
        g.env.reset(seed);
        g.chains = Default::default();
        g.learner_return = 0.0;
        g.bot_rng = AgentRng::seed_from_u64(derive_seed(seed, 1));
        let mut roles: Vec<Role> = Vec::with_capacity(n);
        for _ in 0..n {
            roles.push(Role::Learner);
        }
        let mut labels = Vec::new();
        for (&s, (kind, snapshot)) in seats[cfg.learner_seats as usize..].iter().zip(draws) {
            roles[s] = match (kind, snapshot) {
                (OppKind::Snapshots, Some(k)) => {
                    labels.push("snapshots".to_string());
                    Role::Policy(1 + k)
                }
                (OppKind::Latest | OppKind::Snapshots, _) => {
                    labels.push("latest".to_string());
                    Role::Policy(0)
                }
                (OppKind::Bot(name), _) => {
                    labels.push(name.clone());
                    Role::Bot(self.bots.build(&name).map_err(|e| anyhow::anyhow!("opponents: {e}"))?)
                }
            };
        }
        labels.sort();
        labels.dedup();
        g.opponent_label = labels.join("+");
        if cfg.sizes().len() > 1 {
            g.opponent_label = format!("{}_{players}p", g.opponent_label);
        }
        g.roles = roles;
        Ok(())
    }

    /// The opponent kind at position `u` of the cumulative mix weights.
    fn pick_kind(&self, mut u: f64) -> &OppKind {
        for (k, w) in &self.mix {
            if u < *w {
                return k;
            }
            u -= w;
        }
        &self.mix[self.mix.len() - 1].0
    }

    /// Plays `num_steps` steps in every game and returns the finished learner decisions with
    /// their advantages. `current` is the learning policy; `snapshots` the pool's past policies.
    pub fn collect(
        &mut self,
        current: &Policy,
        snapshots: &[Policy],
        rng: &mut AgentRng,
        stats: &mut EpisodeStats,
    ) -> anyhow::Result<Batch> {
        let cfg = self.cfg.clone();
        let n_games = self.games.len();
        let mut batch = Batch::default();
        let mut actions = vec![0usize; n_games];
        let mut groups: Vec<Vec<usize>> = vec![Vec::new(); 1 + snapshots.len()];
        for _ in 0..cfg.num_steps {
            for g in groups.iter_mut() {
                g.clear();
            }
            for (i, g) in self.games.iter_mut().enumerate() {
                let seat = g.env.current_player().expect("games are reset when they end");
                match &mut g.roles[seat.index()] {
                    Role::Learner => groups[0].push(i),
                    Role::Policy(k) => groups[*k].push(i),
                    Role::Bot(agent) => {
                        let view = g.env.view(seat);
                        let a = agent.act(&view, g.env.legal_mask(), &mut g.bot_rng)?;
                        actions[i] = a.index();
                    }
                }
            }
            for (p, rows) in groups.iter().enumerate() {
                if rows.is_empty() {
                    continue;
                }
                let policy = if p == 0 { current } else { &snapshots[p - 1] };
                self.obs_buf.resize(rows.len() * OBS_LEN, 0.0);
                self.mask_buf.clear();
                for (r, &i) in rows.iter().enumerate() {
                    let g = &self.games[i];
                    g.env.observe_actor_into(&mut self.obs_buf[r * OBS_LEN..(r + 1) * OBS_LEN]);
                    let m = g.env.legal_mask();
                    for a in 0..NUM_ACTIONS {
                        self.mask_buf.push(m.contains_index(a));
                    }
                }
                let out =
                    policy.evaluate_batch(&self.obs_buf, &self.mask_buf, rows.len(), ActionSelection::Sample, rng)?;
                for (r, &i) in rows.iter().enumerate() {
                    actions[i] = out.actions[r];
                    let g = &mut self.games[i];
                    let seat = g.env.current_player().expect("acting seat");
                    if matches!(g.roles[seat.index()], Role::Learner) {
                        let phi = chip_share(g.env.state(), seat);
                        if let Some(prev) = g.chains[seat.index()].last_mut() {
                            prev.reward += cfg.shaping * (cfg.gamma * phi - prev.phi);
                        }
                        g.chains[seat.index()].push(Transition {
                            obs: self.obs_buf[r * OBS_LEN..(r + 1) * OBS_LEN].to_vec(),
                            mask: g.env.legal_mask().0,
                            action: out.actions[r] as u8,
                            logp: out.log_probs[r],
                            value: out.values[r],
                            reward: 0.0,
                            done: false,
                            phi,
                        });
                    }
                }
            }
            for (i, &action) in actions.iter().enumerate() {
                let ts = self.games[i].env.step(action)?;
                let g = &mut self.games[i];
                let mut finished = false;
                let players = g.env.num_players() as usize;
                for s in 0..players {
                    if !matches!(g.roles[s], Role::Learner) {
                        continue;
                    }
                    g.learner_return += ts.rewards[s];
                    if let Some(last) = g.chains[s].last_mut() {
                        last.reward += ts.rewards[s];
                        if ts.done() {
                            last.done = true;
                            last.reward -= cfg.shaping * last.phi;
                        }
                    }
                }
                if ts.done() {
                    finished = true;
                    for s in 0..players {
                        let chain = std::mem::take(&mut g.chains[s]);
                        batch.push_chain(&chain, 0.0, cfg.gamma, cfg.gae_lambda);
                    }
                    let won = cfg.learner_seats as usize > 0
                        && (0..players)
                            .any(|s| matches!(g.roles[s], Role::Learner) && g.env.winners().contains(Seat(s as u8)));
                    stats.episodes += 1;
                    stats.return_sum += (g.learner_return / cfg.learner_seats as f32) as f64;
                    stats.length_sum += g.env.episode_steps() as u64;
                    let e = stats.by_opponent.entry(g.opponent_label.clone()).or_insert((0, 0.0));
                    e.0 += 1;
                    e.1 += if won { 1.0 } else { 0.0 };
                    let mut seen = Vec::new();
                    for r in &g.roles {
                        if let Role::Policy(k) = r
                            && *k >= 1
                            && !seen.contains(k)
                        {
                            seen.push(*k);
                            let e = stats.by_snapshot.entry(k - 1).or_insert((0, 0.0));
                            e.0 += 1;
                            e.1 += if won { 1.0 } else { 0.0 };
                        }
                    }
                }
                if finished {
                    self.reset_game(i, snapshots.len())?;
                }
            }
        }
        // Everything but the last decision of each open chain is final.
        for g in self.games.iter_mut() {
            for chain in g.chains.iter_mut() {
                if chain.len() >= 2 {
                    let last = chain.pop().expect("len ≥ 2");
                    batch.push_chain(chain, last.value, cfg.gamma, cfg.gae_lambda);
                    chain.clear();
                    chain.push(last);
                }
            }
        }
        Ok(batch)
    }
}
