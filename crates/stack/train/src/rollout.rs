//! Rollout collection: many games stepped in lockstep by the one game loop ([`env::Driver`]), the
//! learning policy in some seats and the opponent pool in the others. Only learner decisions are
//! stored and trained on.
//!
//! Each learner seat of each game keeps a *chain* of its own decisions. A decision's advantage
//! needs the value of the seat's next decision, so at the end of a rollout the last decision of
//! an unfinished chain is carried over to the next rollout; everything before it is final.

use crate::config::{SnapshotSampling, TrainConfig};
use crate::gae::{GaeStep, gae};
use env::{
    AgentRng, AgentTable, Controller, Driver, DriverError, EnvSpec, Finished, Game, GameStart, LegalMask, Pending,
    StepEvent,
};
use game::{MAX_PLAYERS, Seat, derive_seed};
use policy::{ActionSelection, Policy};
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// Builds the pool's bots from their agent specs (the `agents` crate's `Agents` in real use); a
/// spec that builds nothing is an error naming it, never a silently missing opponent.
pub type BotFactory<G> = Arc<dyn env::AgentBuilder<G>>;

/// One stored learner decision.
#[derive(Clone, Debug)]
pub struct Transition<G: Game> {
    /// Observation at the decision.
    pub obs: Vec<f32>,
    /// Legal actions.
    pub mask: G::Mask,
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
    /// Not trained on (`explore` in the config): an exploratory deviation, or another seat's
    /// last decision before one. The seat's decisions before it bootstrap from its value.
    pub cut: bool,
    /// Shaping potential (the seat's share of the chips on the table) at the decision.
    pub phi: f32,
    /// Weight of the decision's policy terms (`reach_weight` in the config; 1 without it).
    pub weight: f32,
}

/// A training batch in flat, row-major buffers ready for tensors.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Rows.
    pub n: usize,
    /// Floats per observation row (from the env's spec).
    pub obs_len: usize,
    /// Flags per mask row (the env's action count).
    pub num_actions: usize,
    /// `n × obs_len` observations.
    pub obs: Vec<f32>,
    /// `n × num_actions` legal-action flags.
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
    /// Per-row weights of the policy terms (`reach_weight`); empty when every row weighs 1.
    pub weights: Vec<f32>,
}

impl Batch {
    /// An empty batch for observations and masks of `spec`'s sizes.
    pub fn new(spec: EnvSpec) -> Batch {
        Batch { obs_len: spec.obs_len, num_actions: spec.num_actions, ..Default::default() }
    }

    /// Pushes a seat's chain of decisions with their advantages, in pieces split at the
    /// decisions that are `cut`: each piece before a cut bootstraps from the cut decision's
    /// value, and the cut decision itself is left out.
    fn push_chain<G: Game>(&mut self, chain: &[Transition<G>], bootstrap: f32, how: Chains) {
        let mut start = 0;
        for (k, t) in chain.iter().enumerate() {
            if t.cut {
                self.push_piece(&chain[start..k], t.value, how);
                start = k + 1;
            }
        }
        self.push_piece(&chain[start..], bootstrap, how);
    }

    fn push_piece<G: Game>(&mut self, chain: &[Transition<G>], bootstrap: f32, how: Chains) {
        if chain.is_empty() {
            return;
        }
        let steps: Vec<GaeStep> =
            chain.iter().map(|t| GaeStep { reward: t.reward, value: t.value, done: t.done }).collect();
        let (adv, ret) = gae(&steps, bootstrap, how.gamma, how.lambda);
        for (k, t) in chain.iter().enumerate() {
            self.obs.extend_from_slice(&t.obs);
            let at = self.masks.len();
            self.masks.resize(at + self.num_actions, false);
            t.mask.write_bools(&mut self.masks[at..]);
            self.actions.push(t.action as i64);
            self.logp.push(t.logp);
            self.values.push(t.value);
            self.adv.push(adv[k]);
            self.ret.push(ret[k]);
            if how.weighted {
                self.weights.push(t.weight);
            }
            self.n += 1;
        }
    }
}

/// How a chain of decisions becomes rows: GAE's discount and λ, and whether rows keep their
/// `weight` (`reach_weight`).
#[derive(Clone, Copy, Debug)]
struct Chains {
    gamma: f32,
    lambda: f32,
    weighted: bool,
}

impl Chains {
    fn of<G: Game>(cfg: &TrainConfig<G>) -> Chains {
        Chains { gamma: cfg.gamma, lambda: cfg.gae_lambda, weighted: cfg.reach_weight > 0.0 }
    }
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    /// The learning policy; its decisions are trained on.
    Learner,
    /// A policy from the pool: 0 is the latest (current) policy, k ≥ 1 the k-th snapshot.
    Policy(usize),
    /// A heuristic bot: an index into the collector's bot table.
    Bot(usize),
}

/// An opponent kind in the pool mix.
#[derive(Clone, Debug, PartialEq)]
enum OppKind {
    Latest,
    Snapshots,
    /// A bot: its spec and its index in the bot table.
    Bot(String, usize),
}

/// One opponent mix: who may fill an opponent seat, with what weight.
#[derive(Clone, Debug)]
struct Mix {
    entries: Vec<(OppKind, f64)>,
    /// Per entry, the factor prioritised bot sampling puts on its weight (1 otherwise).
    scale: Vec<f64>,
}

impl Mix {
    /// The opponent kind at position `u` of the cumulative (effective) weights.
    fn pick(&self, mut u: f64) -> &OppKind {
        for ((k, w), f) in self.entries.iter().zip(&self.scale) {
            if u < w * f {
                return k;
            }
            u -= w * f;
        }
        &self.entries[self.entries.len() - 1].0
    }

    fn total(&self) -> f64 {
        self.entries.iter().zip(&self.scale).map(|(m, f)| m.1 * f).sum()
    }
}

/// What the collector keeps about the game in one row of the driver.
#[derive(Clone, Debug)]
struct RowGame<G: Game> {
    roles: Vec<Role>,
    chains: [Vec<Transition<G>>; MAX_PLAYERS],
    episode: u64,
    learner_return: f32,
    /// The opponent kinds at the table, each once (with the table size when sizes vary).
    opponent_labels: Vec<String>,
    /// Every seat's share of the chips on the table (the shaping potential), as of the last
    /// position where the learner was to act: see [`RowGame::update_shares`].
    shares: [f32; MAX_PLAYERS],
    /// The seat that made an exploratory deviation in this game, if any (`explore`).
    explorer: Option<Seat>,
    /// Per seat, the log of its own reach: the sum of its decisions' log-probabilities so far in
    /// this game (`reach_weight`).
    own_log_reach: [f32; MAX_PLAYERS],
}

impl<G: Game> Default for RowGame<G> {
    fn default() -> Self {
        RowGame {
            roles: Vec::new(),
            chains: Default::default(),
            episode: 0,
            learner_return: 0.0,
            opponent_labels: Vec::new(),
            shares: [0.0; MAX_PLAYERS],
            explorer: None,
            own_log_reach: [0.0; MAX_PLAYERS],
        }
    }
}

impl<G: Game> RowGame<G> {
    /// Works the shares out again at a position where the learner is to act, the only place
    /// they are read (a learner decision's potential); elsewhere, and without shaping, nothing
    /// reads them, so nothing is computed.
    fn update_shares(&mut self, shaping: f32, state: &G::State) {
        if shaping != 0.0 && G::current_player(state).is_some_and(|s| self.roles[s.index()] == Role::Learner) {
            self.shares = G::shares(state);
        }
    }
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
    /// Learner decisions taken (all of them, trained on or not).
    pub learner_decisions: u64,
    /// Of those, exploratory deviations (`explore`).
    pub explored: u64,
    /// Per opponent kind (`expert`, `latest`, `snapshots`, …, with `_Np` for the table size when
    /// sizes vary): (games it sat in, learner wins in those games). A table of several kinds
    /// counts for each, so the labels stay as few as the kinds: one per combination of a
    /// four-seat table's opponents made thousands of rarely played tags.
    pub by_opponent: std::collections::BTreeMap<String, (u64, f64)>,
    /// Per snapshot (index into the pool passed to `collect`): (games it played in, learner
    /// wins in those games). Feeds prioritised snapshot sampling.
    pub by_snapshot: std::collections::BTreeMap<usize, (u64, f64)>,
    /// Per bot spec: (games it sat in, learner wins in those games). Feeds prioritised bot
    /// sampling.
    pub by_bot: std::collections::BTreeMap<String, (u64, f64)>,
    /// Seconds spent in the opponent bots' decisions (where training time goes).
    pub bot_seconds: f64,
    /// Seconds spent encoding observations and in the policies' batched forward passes.
    pub policy_seconds: f64,
}

/// Everything that outlives one call of [`Collector::collect`]: the games in progress, the pool.
struct Pool<G: Game> {
    cfg: TrainConfig<G>,
    spec: EnvSpec,
    games: Vec<RowGame<G>>,
    /// One agent per bot spec of the mix, shared by every game (bots keep no state between
    /// decisions that changes their play).
    bots: AgentTable<G>,
    /// The opponent mix of each table size (`opponents`, or its `table_opponents` entry).
    mixes: Vec<(u8, Mix)>,
    /// The bot table's specs, by index.
    bot_names: Vec<String>,
    /// Table sizes drawn per game (repeats weigh a size).
    sizes: Vec<u8>,
    snapshot_weights: Vec<f64>,
    segment: u64,
    obs_buf: Vec<f32>,
    mask_buf: Vec<bool>,
}

/// Steps many games with the learner and the opponent pool and assembles PPO batches.
pub struct Collector<G: Game> {
    pool: Pool<G>,
    driver: Driver<G>,
}

impl<G: Game> Collector<G> {
    /// A collector for the config's `num_envs` games, observations as `spec` describes them; call
    /// [`Collector::reset_all`] before use.
    pub fn new(cfg: &TrainConfig<G>, spec: EnvSpec, bots: BotFactory<G>) -> anyhow::Result<Collector<G>> {
        // One agent per distinct bot spec, shared by every mix that names it.
        let mut agents = Vec::new();
        let mut bot_names: Vec<String> = Vec::new();
        let mut mixes = Vec::new();
        for n in cfg.sizes() {
            let mut entries = Vec::new();
            for (k, &w) in cfg.opponents_for(n) {
                if w <= 0.0 {
                    continue;
                }
                let kind = match k.as_str() {
                    "latest" => OppKind::Latest,
                    "snapshots" => OppKind::Snapshots,
                    b => {
                        let index = match bot_names.iter().position(|x| x == b) {
                            Some(i) => i,
                            None => {
                                agents.push(bots.build(b).map_err(|e| anyhow::anyhow!("opponents: {e}"))?);
                                bot_names.push(b.to_string());
                                agents.len() - 1
                            }
                        };
                        OppKind::Bot(b.to_string(), index)
                    }
                };
                entries.push((kind, w));
            }
            let scale = vec![1.0; entries.len()];
            mixes.push((n, Mix { entries, scale }));
        }
        let pool = Pool {
            cfg: cfg.clone(),
            spec,
            games: vec![RowGame::default(); cfg.num_envs],
            bots: AgentTable::new(agents, cfg.num_envs),
            bot_names,
            mixes,
            sizes: cfg.size_draws(),
            snapshot_weights: Vec::new(),
            segment: 0,
            obs_buf: Vec::new(),
            mask_buf: Vec::new(),
        };
        Ok(Collector { pool, driver: Driver::new(cfg.num_envs) })
    }

    /// Sets the relative weights of the pool's snapshots for `prioritised` sampling (one per
    /// snapshot, in pool order). Ignored under `uniform` sampling or when the count does not
    /// match the pool.
    pub fn set_snapshot_weights(&mut self, weights: Vec<f64>) {
        self.pool.snapshot_weights = weights;
    }

    /// Sets the bots' share of each mix from the learner's record against each (`bot_sampling =
    /// "prioritised"`): a bot's configured weight is scaled by `(1 − p)²`, `p` its smoothed win
    /// rate against it, and the bots' scaled weights renormalised to their configured total in
    /// that mix. Under `uniform` (`fixed`) sampling the weights stay as configured.
    pub fn set_bot_record(&mut self, record: &std::collections::BTreeMap<String, (u64, f64)>) {
        let prioritised = self.pool.cfg.bot_sampling == SnapshotSampling::Prioritised;
        let priority = |name: &str| {
            let (games, wins) = record.get(name).copied().unwrap_or((0, 0.0));
            let p = (wins + 1.0) / (games as f64 + 2.0);
            (1.0 - p) * (1.0 - p)
        };
        for (_, mix) in &mut self.pool.mixes {
            mix.scale = vec![1.0; mix.entries.len()];
            if !prioritised {
                continue;
            }
            let (mut configured, mut scaled) = (0.0, 0.0);
            for (kind, w) in &mix.entries {
                if let OppKind::Bot(name, _) = kind {
                    configured += w;
                    scaled += w * priority(name);
                }
            }
            if scaled.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                continue;
            }
            for (i, (kind, _)) in mix.entries.iter().enumerate() {
                if let OppKind::Bot(name, _) = kind {
                    mix.scale[i] = priority(name) * configured / scaled;
                }
            }
        }
    }

    /// Each opponent kind's share of its mix (for logging), by label: the kind's name, followed
    /// by `_<n>p` for the mix of `n`-seat tables when some table size has a mix of its own.
    pub fn mix_shares(&self) -> Vec<(String, f64)> {
        let pool = &self.pool;
        let per_size = !pool.cfg.table_opponents.is_empty();
        let mut out = Vec::new();
        for (n, mix) in &pool.mixes {
            // Sizes without a mix of their own share `opponents`: list it once.
            if !per_size && !out.is_empty() {
                break;
            }
            let total = mix.total();
            for ((kind, w), f) in mix.entries.iter().zip(&mix.scale) {
                let name = match kind {
                    OppKind::Latest => "latest",
                    OppKind::Snapshots => "snapshots",
                    OppKind::Bot(name, _) => name,
                };
                let label = if per_size { format!("{name}_{n}p") } else { name.to_string() };
                out.push((label, w * f / total));
            }
        }
        out
    }

    /// Starts every game afresh for a segment of the run (segments start at checkpoints, so a
    /// resumed run sees exactly the games an uninterrupted one would). Open chains are dropped;
    /// the new games start at the next call of [`Collector::collect`].
    pub fn reset_all(&mut self, segment: u64) {
        self.pool.segment = segment;
        for g in &mut self.pool.games {
            *g = RowGame::default();
        }
        self.driver.abandon_all();
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
        let batch = Batch::new(self.pool.spec);
        let mut step = Step { pool: &mut self.pool, current, snapshots, rng, stats, batch };
        for _ in 0..step.pool.cfg.num_steps {
            self.driver.step(&mut step).map_err(|e| match e {
                DriverError::Controller(e) => e,
                other => anyhow::anyhow!("rollout: {other}"),
            })?;
        }
        let Step { pool, mut batch, .. } = step;
        let cfg = &pool.cfg;
        // Everything but the last decision of each open chain is final.
        for g in pool.games.iter_mut() {
            for chain in g.chains.iter_mut() {
                if chain.len() >= 2 {
                    let last = chain.pop().expect("len ≥ 2");
                    batch.push_chain(chain, last.value, Chains::of(cfg));
                    chain.clear();
                    chain.push(last);
                }
            }
        }
        Ok(batch)
    }
}

impl<G: Game> Pool<G> {
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

    /// Draws the next game of row `i`: its seed, table size and who sits where.
    fn next_game(&mut self, i: usize, snapshots: usize) -> GameStart<G> {
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
        let mix = &self.mixes.iter().find(|(size, _)| *size == players).expect("a mix for every table size").1;
        let total = mix.total();
        let mut draws = Vec::new();
        for _ in cfg.learner_seats as usize..n {
            let u = rng.random::<f64>() * total;
            let kind = mix.pick(u).clone();
            let snapshot = match kind {
                OppKind::Snapshots if snapshots > 0 => Some(self.pick_snapshot(snapshots, &mut rng)),
                _ => None,
            };
            draws.push((kind, snapshot));
        }
        let mut roles = vec![Role::Learner; n];
        let mut bot_seating = vec![0; n];
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
                (OppKind::Bot(name, b), _) => {
                    labels.push(name);
                    bot_seating[s] = b;
                    Role::Bot(b)
                }
            };
        }
        // Bot seats draw from their own streams of the game seed.
        let bot_seeds: Vec<u64> = (0..n).map(|s| derive_seed(derive_seed(seed, 1), s as u64)).collect();
        self.bots.seat(i, &bot_seating, &bot_seeds);
        labels.sort();
        labels.dedup();
        let multi = cfg.sizes().len() > 1;
        let g = &mut self.games[i];
        g.episode += 1;
        g.chains = Default::default();
        g.learner_return = 0.0;
        g.explorer = None;
        g.own_log_reach = [0.0; MAX_PLAYERS];
        g.opponent_labels = if multi { labels.iter().map(|l| format!("{l}_{players}p")).collect() } else { labels };
        g.roles = roles;
        GameStart::deal(cfg.env_config_for(players), seed)
    }
}

/// One call of [`Collector::collect`]: the driver's controller.
struct Step<'a, G: Game> {
    pool: &'a mut Pool<G>,
    current: &'a Policy,
    snapshots: &'a [Policy],
    rng: &'a mut AgentRng,
    stats: &'a mut EpisodeStats,
    batch: Batch,
}

impl<G: Game> Controller<G> for Step<'_, G> {
    type Error = anyhow::Error;

    fn next_game(&mut self, row: usize) -> anyhow::Result<Option<GameStart<G>>> {
        Ok(Some(self.pool.next_game(row, self.snapshots.len())))
    }

    fn started(&mut self, row: usize, state: &G::State) -> anyhow::Result<()> {
        let shaping = self.pool.cfg.shaping;
        self.pool.games[row].update_shares(shaping, state);
        Ok(())
    }

    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> anyhow::Result<()> {
        let pool = &mut *self.pool;
        let cfg = &pool.cfg;
        let (d, na) = (pool.spec.obs_len, pool.spec.num_actions);
        // Bots first, all in one call to the bot table.
        let bot_rows: Vec<usize> = (0..pending.len())
            .filter(|&k| matches!(pool.games[pending[k].row].roles[pending[k].actor.index()], Role::Bot(_)))
            .collect();
        let t_bots = std::time::Instant::now();
        if !bot_rows.is_empty() {
            let sub: Vec<Pending<'_, G>> = bot_rows.iter().map(|&k| pending[k]).collect();
            let mut out = vec![0; sub.len()];
            pool.bots.decide(&sub, &mut out).map_err(|e| anyhow::anyhow!("opponents: {}", e.error))?;
            for (&k, a) in bot_rows.iter().zip(out) {
                actions[k] = a;
            }
        }
        self.stats.bot_seconds += t_bots.elapsed().as_secs_f64();
        // Then one batched forward pass per policy of the pool (0: the current one).
        let t_policy = std::time::Instant::now();
        for p in 0..=self.snapshots.len() {
            let rows: Vec<usize> = (0..pending.len())
                .filter(|&k| match pool.games[pending[k].row].roles[pending[k].actor.index()] {
                    Role::Learner => p == 0,
                    Role::Policy(q) => q == p,
                    Role::Bot(_) => false,
                })
                .collect();
            if rows.is_empty() {
                continue;
            }
            let policy = if p == 0 { self.current } else { &self.snapshots[p - 1] };
            pool.obs_buf.resize(rows.len() * d, 0.0);
            pool.mask_buf.resize(rows.len() * na, false);
            for (r, &k) in rows.iter().enumerate() {
                pending[k].observe_into(&mut pool.obs_buf[r * d..(r + 1) * d]);
                pending[k].mask.write_bools(&mut pool.mask_buf[r * na..(r + 1) * na]);
            }
            let out =
                policy.evaluate_batch(&pool.obs_buf, &pool.mask_buf, rows.len(), ActionSelection::Sample, self.rng)?;
            for (r, &k) in rows.iter().enumerate() {
                actions[k] = out.actions[r];
                let (row, seat) = (pending[k].row, pending[k].actor);
                let g = &mut pool.games[row];
                if g.roles[seat.index()] == Role::Learner {
                    self.stats.learner_decisions += 1;
                    // Draws from the stream only when exploring, so runs without it replay.
                    let deviate = cfg.explore > 0.0
                        && g.explorer.is_none_or(|e| e == seat)
                        && self.rng.random::<f32>() < cfg.explore;
                    if deviate {
                        let a =
                            game::RandomAgent::pick(pending[k].mask, self.rng).expect("a decision has a legal action");
                        actions[k] = a;
                        self.stats.explored += 1;
                        if g.explorer.is_none() {
                            g.explorer = Some(seat);
                            // What the other seats learn from here on would take the deviation
                            // for a choice: their last decision before it is cut, and the rest
                            // of their game is not stored.
                            for (o, chain) in g.chains.iter_mut().enumerate() {
                                if o != seat.index()
                                    && let Some(last) = chain.last_mut()
                                {
                                    last.cut = true;
                                }
                            }
                        }
                    }
                    if g.explorer.is_some_and(|e| e != seat) {
                        continue;
                    }
                    let weight = if cfg.reach_weight > 0.0 {
                        (-g.own_log_reach[seat.index()]).exp().min(cfg.reach_weight)
                    } else {
                        1.0
                    };
                    g.own_log_reach[seat.index()] += out.log_probs[r];
                    let phi = g.shares[seat.index()];
                    if let Some(prev) = g.chains[seat.index()].last_mut() {
                        prev.reward += cfg.shaping * (cfg.gamma * phi - prev.phi);
                    }
                    g.chains[seat.index()].push(Transition {
                        obs: pool.obs_buf[r * d..(r + 1) * d].to_vec(),
                        mask: pending[k].mask,
                        action: actions[k] as u8,
                        logp: out.log_probs[r],
                        value: out.values[r],
                        reward: 0.0,
                        done: false,
                        cut: deviate,
                        phi,
                        weight,
                    });
                }
            }
        }
        self.stats.policy_seconds += t_policy.elapsed().as_secs_f64();
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_, G>) -> anyhow::Result<()> {
        let cfg = &self.pool.cfg;
        let g = &mut self.pool.games[e.row];
        g.update_shares(cfg.shaping, e.state);
        for (s, role) in g.roles.iter().enumerate() {
            if *role != Role::Learner {
                continue;
            }
            g.learner_return += e.rewards[s];
            if let Some(last) = g.chains[s].last_mut() {
                last.reward += e.rewards[s];
                if e.done {
                    last.done = true;
                    last.reward -= cfg.shaping * last.phi;
                }
            }
        }
        Ok(())
    }

    fn finished(&mut self, f: &Finished<'_, G>) -> anyhow::Result<()> {
        let cfg = &self.pool.cfg;
        let g = &mut self.pool.games[f.row];
        for chain in g.chains.iter_mut() {
            let chain = std::mem::take(chain);
            self.batch.push_chain(&chain, 0.0, Chains::of(cfg));
        }
        let winners = G::winners(f.state);
        let won = cfg.learner_seats > 0
            && g.roles.iter().enumerate().any(|(s, r)| *r == Role::Learner && winners.contains(Seat(s as u8)));
        let stats = &mut *self.stats;
        stats.episodes += 1;
        stats.return_sum += (g.learner_return / cfg.learner_seats as f32) as f64;
        stats.length_sum += f.steps as u64;
        for label in &g.opponent_labels {
            let e = stats.by_opponent.entry(label.clone()).or_insert((0, 0.0));
            e.0 += 1;
            e.1 += if won { 1.0 } else { 0.0 };
        }
        let mut bots_seen = Vec::new();
        for r in &g.roles {
            if let Role::Bot(b) = *r
                && !bots_seen.contains(&b)
            {
                bots_seen.push(b);
                let e = stats.by_bot.entry(self.pool.bot_names[b].clone()).or_insert((0, 0.0));
                e.0 += 1;
                e.1 += if won { 1.0 } else { 0.0 };
            }
        }
        let mut seen = Vec::new();
        for r in &g.roles {
            if let Role::Policy(k) = *r
                && k >= 1
                && !seen.contains(&k)
            {
                seen.push(k);
                let e = stats.by_snapshot.entry(k - 1).or_insert((0, 0.0));
                e.0 += 1;
                e.1 += if won { 1.0 } else { 0.0 };
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::leduc::{Action, Leduc};

    fn step(value: f32, reward: f32, done: bool, cut: bool) -> Transition<Leduc> {
        let spec = Leduc::SPEC;
        Transition {
            obs: vec![value; spec.obs_len],
            mask: Leduc::legal_mask(&Leduc::new_state(&Leduc::rules_with_players(2), 1).expect("a deal")),
            action: Action::Call.index() as u8,
            logp: -0.5,
            value,
            reward,
            done,
            cut,
            phi: 0.0,
            weight: 2.0,
        }
    }

    #[test]
    fn a_cut_decision_is_left_out_and_the_decisions_before_it_bootstrap_from_its_value() {
        let chain = [step(0.1, 0.0, false, false), step(0.5, 2.0, false, true), step(0.2, 1.0, true, false)];
        let mut batch = Batch::new(Leduc::SPEC);
        batch.push_chain(&chain, 9.0, Chains { gamma: 1.0, lambda: 1.0, weighted: false });
        assert_eq!(batch.n, 2, "the cut decision is not a row");
        assert_eq!(batch.values, vec![0.1, 0.2]);
        // Before the cut: 0 + V(cut) − V = 0.4 (not the 2 + 1 that followed the deviation).
        assert!((batch.adv[0] - 0.4).abs() < 1e-6, "{:?}", batch.adv);
        // After it: its own return only, 1 − 0.2.
        assert!((batch.adv[1] - 0.8).abs() < 1e-6, "{:?}", batch.adv);
        let mut whole = Batch::new(Leduc::SPEC);
        let uncut: Vec<_> = chain.iter().cloned().map(|t| Transition { cut: false, ..t }).collect();
        whole.push_chain(&uncut, 9.0, Chains { gamma: 1.0, lambda: 1.0, weighted: false });
        assert_eq!(whole.n, 3);
        assert!((whole.adv[0] - 2.9).abs() < 1e-6, "without the cut the return runs through: {:?}", whole.adv);
    }

    #[test]
    fn a_chain_ending_in_a_cut_bootstraps_from_it_and_one_starting_with_one_drops_it() {
        let mut batch = Batch::new(Leduc::SPEC);
        batch.push_chain(
            &[step(0.3, 0.0, false, false), step(0.7, 0.0, false, true)],
            5.0,
            Chains { gamma: 1.0, lambda: 0.95, weighted: false },
        );
        assert_eq!(batch.n, 1);
        assert!((batch.adv[0] - 0.4).abs() < 1e-6, "{:?}", batch.adv);
        let mut batch = Batch::new(Leduc::SPEC);
        batch.push_chain(
            &[step(0.7, 0.0, false, true), step(0.3, 0.0, false, false)],
            5.0,
            Chains { gamma: 1.0, lambda: 1.0, weighted: false },
        );
        assert_eq!(batch.values, vec![0.3]);
        assert!((batch.adv[0] - 4.7).abs() < 1e-6, "{:?}", batch.adv);
    }

    #[test]
    fn rows_keep_their_weights_only_when_weighted() {
        let chain = [step(0.1, 0.0, false, false), step(0.5, 2.0, false, true), step(0.2, 1.0, true, false)];
        let mut plain = Batch::new(Leduc::SPEC);
        plain.push_chain(&chain, 0.0, Chains { gamma: 1.0, lambda: 1.0, weighted: false });
        assert!(plain.weights.is_empty(), "unweighted batches carry no weights: {:?}", plain.weights);
        let mut weighted = Batch::new(Leduc::SPEC);
        weighted.push_chain(&chain, 0.0, Chains { gamma: 1.0, lambda: 1.0, weighted: true });
        assert_eq!(weighted.weights, vec![2.0, 2.0], "one weight per row, the cut decision's left out");
        assert_eq!((weighted.n, &weighted.adv), (plain.n, &plain.adv), "weights change nothing else");
    }
}
