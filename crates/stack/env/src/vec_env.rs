//! `VecEnv`: many games stepped together, in parallel with rayon, into contiguous buffers.
//!
//! Layout (struct of arrays, row `i` = environment `i`):
//! * [`VecEnv::obs`]: `N × obs_len` observations of the seat to act next;
//! * [`VecEnv::masks`]: `N × num_actions` bools (legal = `true`), and [`VecEnv::mask_bits`] as
//!   [`EnvSpec::mask_words`](game::EnvSpec::mask_words) `u64`s per row;
//! * [`VecEnv::actors`]: the seat to act next;
//! * [`VecEnv::rewards`]: `N × MAX_PLAYERS` rewards every seat received on the last step;
//! * [`VecEnv::terminated`], [`VecEnv::truncated`], [`VecEnv::dones`]: end flags of the last step.
//!
//! (After [`VecEnv::step_many`], "the last step" means the whole call: rewards are summed over
//! its steps and a flag is set if any game of that environment ended so.)
//!
//! **Auto-reset (Gymnasium `SAME_STEP`).** When a game ends on a step, its final rewards and
//! flags are written for that step, its summary goes to [`VecEnv::finished`], and the game is
//! reset at once with the next seed of its stream; `obs`, `masks` and `actors` then already
//! describe the new game's first decision. The terminal observation is not kept (no seat acts
//! in it; terminal rewards are credited to each seat's last decision). Because of this, every
//! row always holds a pending decision and a non-empty mask, so a batched policy never has to
//! skip a row.
//!
//! **Parallelism.** Every call splits the games into one contiguous chunk per rayon worker and
//! each worker steps its chunk in order: one fork-join of a few large tasks per call, instead of
//! many small tasks whose scheduling would cost as much as the ~300 ns a game step takes. As the
//! chunks are contiguous, two workers can only share the one cache line of each buffer that
//! straddles a chunk boundary (no false sharing to speak of). [`VecEnv::step_many`] goes further
//! and lets each worker drive its games for several steps with a per-game policy, so one
//! fork-join covers `K × N` game steps and each game's observation row stays in the worker's L1
//! cache while it is stepped. Since a `step_many` call is long (~10 ms), its games are split
//! further, into tasks of about 150 µs each (dozens per worker): when the host slows one
//! core down, the other workers take over its remaining tasks instead of idling at the join.
//!
//! **Driving it fast.** Call `step` from inside the rayon pool (e.g. the whole rollout loop in
//! `rayon::scope(|_| ...)` or `pool.install(...)`): a call from outside the pool must wake a
//! worker and wait for it on every step, which costs more than a small batch of games. About
//! 256 games per thread keep each thread's games and buffers (~1 MB) in its L2 cache. When the
//! actions come from per-game agents rather than one batched policy call, `step_many` removes the
//! per-step synchronisation altogether; with ~100 steps per call the wake-up of idle workers at
//! each call becomes negligible too.
//!
//! **Seeds.** Episode `e` of environment `i` uses [`crate::seed::episode_seed`]`(base, i, e)`.
//! Each environment owns its state and all randomness lives in it, so results are bit-identical
//! for any thread count.

use crate::env::{Env, EnvError, GameConfig};
use crate::seed::episode_seed;
use game::{Game, LegalMask};
use game::{MAX_PLAYERS, Seat, SeatSet};
use rayon::prelude::*;
use serde::Serialize;

/// Summary of one finished game, for logging (returns, length, winners).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EpisodeInfo {
    /// Which environment.
    pub env: usize,
    /// Its episode counter (0 for the first game).
    pub episode: u64,
    /// The game's seed.
    pub seed: u64,
    /// Every seat's return (absolute seats; padding 0).
    pub returns: [f32; MAX_PLAYERS],
    /// Actions applied in the game.
    pub length: u32,
    /// Game winners (empty when truncated).
    pub winners: SeatSet,
    /// Cut off by the round limit.
    pub truncated: bool,
    /// Rounds played (hands, in classic Sabacc).
    pub rounds: u16,
}

/// One decision handed to the per-game policy of [`VecEnv::step_many`].
#[derive(Clone, Copy, Debug)]
pub struct Decision<'a, G: Game> {
    /// Which environment (its row in the buffers).
    pub env_index: usize,
    /// The environment, private: agent code reaches the game only through [`Decision::view`]
    /// (what the acting seat may see), never the hidden cards.
    pub(crate) env: &'a Env<G>,
    /// The seat to act.
    pub actor: Seat,
    /// The acting seat's observation (`obs_len` floats).
    pub obs: &'a [f32],
    /// Its legal actions (never empty).
    pub mask: G::Mask,
}

impl<G: Game> Decision<'_, G> {
    /// What the acting seat may see (K7), for agents that act from a player view.
    pub fn view(&self) -> G::View {
        self.env.view(self.actor)
    }
}

#[derive(Clone, Debug)]
struct Slot<G: Game> {
    env: Env<G>,
    index: u64,
    episode: u64,
    /// Games of this environment that ended during the last call, oldest first. Cleared, not
    /// freed, on every call, so steady-state stepping does not allocate.
    finished: Vec<EpisodeInfo>,
}

impl<G: Game> Slot<G> {
    /// Applies a legal action; if the game ends, records its summary and starts the next game
    /// of the stream. Returns the step's rewards, terminated and truncated flags.
    #[inline]
    fn advance(&mut self, base_seed: u64, action: usize) -> ([f32; MAX_PLAYERS], bool, bool) {
        let ts = self.env.step(action).expect("checked legal");
        if ts.done() {
            let st = self.env.state();
            self.finished.push(EpisodeInfo {
                env: self.index as usize,
                episode: self.episode,
                seed: self.env.seed(),
                returns: self.env.returns(),
                length: self.env.episode_steps(),
                winners: G::winners(st),
                truncated: ts.truncated,
                rounds: G::progress(st),
            });
            self.episode += 1;
            self.env.reset(episode_seed(base_seed, self.index, self.episode));
        }
        (ts.rewards, ts.terminated, ts.truncated)
    }
}

/// One worker's contiguous share of the environments and of every output buffer.
struct Chunk<'a, G: Game> {
    /// Index of the chunk's first environment.
    start: usize,
    slots: &'a mut [Slot<G>],
    obs: &'a mut [f32],
    masks: &'a mut [bool],
    rewards: &'a mut [f32],
    mask_bits: &'a mut [u64],
    actors: &'a mut [u8],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    dones: &'a mut [bool],
}

impl<G: Game> Chunk<'_, G> {
    /// Writes row `j`'s end-of-call outputs: rewards and flags as given, mask and actor from the
    /// game. The observation row is written by the caller (it may be needed between steps).
    #[inline]
    fn finish_row(&mut self, j: usize, rewards: &[f32; MAX_PLAYERS], terminated: bool, truncated: bool) {
        let env = &self.slots[j].env;
        self.rewards[j * MAX_PLAYERS..(j + 1) * MAX_PLAYERS].copy_from_slice(rewards);
        let m = env.legal_mask();
        let (a, w) = (G::SPEC.num_actions, G::SPEC.mask_words());
        m.write_bools(&mut self.masks[j * a..(j + 1) * a]);
        m.write_words(&mut self.mask_bits[j * w..(j + 1) * w]);
        self.actors[j] = env.current_player().map_or(u8::MAX, |s| s.0);
        self.terminated[j] = terminated;
        self.truncated[j] = truncated;
        self.dones[j] = terminated || truncated;
    }
}

/// Games per chunk for `n` games on the current rayon pool: one chunk per worker.
fn chunk_len(n: usize) -> usize {
    n.div_ceil(rayon::current_num_threads().max(1)).max(1)
}

/// Game steps a [`VecEnv::step_many`] task should hold at least (~150 µs of work), so that
/// scheduling it costs a negligible share.
const MIN_TASK_STEPS: usize = 512;

/// Tasks per worker [`VecEnv::step_many`] aims for: enough that when one worker is slowed down
/// (by another process or by the host preempting its core), the others take over its remaining
/// games instead of idling at the join.
const TASKS_PER_WORKER: usize = 64;

/// Games per task for [`VecEnv::step_many`] with `n` games and `steps` steps each: small enough
/// for [`TASKS_PER_WORKER`] tasks per worker, large enough for [`MIN_TASK_STEPS`] steps per task,
/// and never more than one worker's even share.
fn many_chunk_len(n: usize, steps: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    let balanced = n.div_ceil(threads * TASKS_PER_WORKER);
    let worthwhile = MIN_TASK_STEPS.div_ceil(steps.max(1));
    balanced.max(worthwhile).min(chunk_len(n)).max(1)
}

/// `N` games of one game stepping together (see the module docs for layout and auto-reset).
#[derive(Clone, Debug)]
pub struct VecEnv<G: Game> {
    base_seed: u64,
    slots: Vec<Slot<G>>,
    obs: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    mask_bits: Vec<u64>,
    actors: Vec<u8>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    dones: Vec<bool>,
    finished: Vec<EpisodeInfo>,
}

impl<G: Game> VecEnv<G> {
    /// `num_envs` environments under `config`, reset to episode 0 of their seed streams.
    pub fn new(config: GameConfig<G>, num_envs: usize, base_seed: u64) -> Result<VecEnv<G>, EnvError> {
        let proto = Env::new(config)?;
        let slots = (0..num_envs)
            .map(|i| Slot { env: proto.clone(), index: i as u64, episode: 0, finished: Vec::new() })
            .collect();
        let mut v = VecEnv {
            base_seed,
            slots,
            obs: vec![0.0; num_envs * G::SPEC.obs_len],
            masks: vec![false; num_envs * G::SPEC.num_actions],
            rewards: vec![0.0; num_envs * MAX_PLAYERS],
            mask_bits: vec![0; num_envs * G::SPEC.mask_words()],
            actors: vec![0; num_envs],
            terminated: vec![false; num_envs],
            truncated: vec![false; num_envs],
            dones: vec![false; num_envs],
            finished: Vec::new(),
        };
        v.reset(base_seed);
        Ok(v)
    }

    /// Restarts every environment at episode 0 of the seed streams of `base_seed`.
    pub fn reset(&mut self, base_seed: u64) {
        self.base_seed = base_seed;
        // Zero-sized per-game states: `vec![(); n]` does not allocate.
        let mut units = vec![(); self.slots.len()];
        self.for_chunks(chunk_len(self.slots.len()), &mut units, |mut c, _| {
            for j in 0..c.slots.len() {
                let slot = &mut c.slots[j];
                slot.finished.clear();
                slot.episode = 0;
                slot.env.reset(episode_seed(base_seed, slot.index, 0));
                c.slots[j].env.observe_actor_into(&mut c.obs[j * G::SPEC.obs_len..(j + 1) * G::SPEC.obs_len]);
                c.finish_row(j, &[0.0; MAX_PLAYERS], false, false);
            }
            None
        });
    }

    /// Applies `actions[i]` (an index in the action space) in every environment `i`, in parallel, auto-resetting
    /// finished games. Every action is checked first: on an illegal one nothing is stepped and
    /// the error ([`EnvError::InEnv`]) names the lowest environment that had one.
    pub fn step(&mut self, actions: &[usize]) -> Result<(), EnvError> {
        if actions.len() != self.slots.len() {
            return Err(EnvError::BatchSize { expected: self.slots.len(), got: actions.len() });
        }
        // Checked against the compact mask buffer (equal to each env's mask) to stay cache-friendly.
        let w = G::SPEC.mask_words();
        for (i, &a) in actions.iter().enumerate() {
            if a >= G::SPEC.num_actions || self.mask_bits[i * w + a / 64] >> (a % 64) & 1 == 0 {
                let env = &self.slots[i].env;
                return Err(EnvError::illegal::<G>(a, env.current_player(), env.legal_mask()).in_env(i));
            }
        }
        let base = self.base_seed;
        let mut units = vec![(); self.slots.len()];
        self.for_chunks(chunk_len(self.slots.len()), &mut units, |mut c, _| {
            for j in 0..c.slots.len() {
                let slot = &mut c.slots[j];
                slot.finished.clear();
                let (r, te, tr) = slot.advance(base, actions[c.start + j]);
                c.slots[j].env.observe_actor_into(&mut c.obs[j * G::SPEC.obs_len..(j + 1) * G::SPEC.obs_len]);
                c.finish_row(j, &r, te, tr);
            }
            None
        });
        Ok(())
    }

    /// Steps every environment `steps` times, each worker driving its own games with
    /// `policy(&mut states[i], decision)` for environment `i`: one fork-join for `steps × N` game
    /// steps instead of one per step, for rollouts whose actions come from per-game agents
    /// (random or scripted players, self-play bots) rather than from one batched call.
    ///
    /// Each step encodes the acting seat's observation into row `i` of [`VecEnv::obs`] before
    /// the policy is asked, exactly as [`VecEnv::step`] would; auto-reset applies after every
    /// step. After the call the buffers describe the whole call:
    /// * `obs`, `masks`, `mask_bits`, `actors`: the pending decision after the last step;
    /// * `rewards`: each seat's rewards summed over the `steps` steps;
    /// * `terminated`, `truncated`, `dones`: whether any game of that environment ended so;
    /// * `finished`: every game that ended, in environment order, then in order of ending.
    ///
    /// Each game is stepped in order and touches only its own state and `states[i]`, so the
    /// result equals `steps` calls of [`VecEnv::step`] with the actions the policy chooses, bit
    /// for bit, whatever the number of threads (as long as `policy` is a pure function of its
    /// arguments). `states.len()` must equal [`VecEnv::num_envs`].
    ///
    /// An illegal action stops its game at that step (nothing applied; the buffers show its
    /// state before that action) while the other games complete their steps; the error names
    /// the lowest such environment ([`EnvError::InEnv`]).
    pub fn step_many<S, P>(&mut self, steps: usize, states: &mut [S], policy: P) -> Result<(), EnvError>
    where
        S: Send,
        P: Fn(&mut S, Decision<'_, G>) -> usize + Sync,
    {
        if states.len() != self.slots.len() {
            return Err(EnvError::BatchSize { expected: self.slots.len(), got: states.len() });
        }
        let base = self.base_seed;
        let err = self.for_chunks(many_chunk_len(self.slots.len(), steps), states, |mut c, states| {
            let mut first_err = None;
            for (j, state) in states.iter_mut().enumerate() {
                c.slots[j].finished.clear();
                let mut rewards = [0.0f32; MAX_PLAYERS];
                let (mut terminated, mut truncated) = (false, false);
                for _ in 0..steps {
                    let (obs, slot) = (&c.obs[j * G::SPEC.obs_len..(j + 1) * G::SPEC.obs_len], &c.slots[j]);
                    let mask = slot.env.legal_mask();
                    let actor = slot.env.current_player().expect("auto-reset keeps a decision pending");
                    let d = Decision { env_index: c.start + j, env: &slot.env, actor, obs, mask };
                    let a = policy(state, d);
                    if !mask.contains_index(a) {
                        first_err.get_or_insert((c.start + j, EnvError::illegal::<G>(a, Some(actor), mask)));
                        break;
                    }
                    let (r, te, tr) = c.slots[j].advance(base, a);
                    for (acc, x) in rewards.iter_mut().zip(r) {
                        *acc += x;
                    }
                    terminated |= te;
                    truncated |= tr;
                    c.slots[j].env.observe_actor_into(&mut c.obs[j * G::SPEC.obs_len..(j + 1) * G::SPEC.obs_len]);
                }
                c.finish_row(j, &rewards, terminated, truncated);
            }
            first_err
        });
        err.map_or(Ok(()), |(i, e)| Err(e.in_env(i)))
    }

    /// Runs `f` on contiguous chunks of `c` environments (and the matching `states`), each chunk
    /// a separate rayon task, then gathers the games that finished. Returns the error with the
    /// lowest environment index, if any chunk reported one.
    fn for_chunks<S, F>(&mut self, c: usize, states: &mut [S], f: F) -> Option<(usize, EnvError)>
    where
        S: Send,
        F: Fn(Chunk<'_, G>, &mut [S]) -> Option<(usize, EnvError)> + Sync,
    {
        let c = c.max(1);
        let err = (
            self.slots.par_chunks_mut(c),
            self.obs.par_chunks_mut(c * G::SPEC.obs_len),
            self.masks.par_chunks_mut(c * G::SPEC.num_actions),
            self.rewards.par_chunks_mut(c * MAX_PLAYERS),
            self.mask_bits.par_chunks_mut(c * G::SPEC.mask_words()),
            self.actors.par_chunks_mut(c),
            self.terminated.par_chunks_mut(c),
            self.truncated.par_chunks_mut(c),
            self.dones.par_chunks_mut(c),
            states.par_chunks_mut(c),
        )
            .into_par_iter()
            .with_max_len(1)
            .enumerate()
            .filter_map(|(k, (slots, obs, masks, rewards, mask_bits, actors, terminated, truncated, dones, st))| {
                let chunk =
                    Chunk { start: k * c, slots, obs, masks, rewards, mask_bits, actors, terminated, truncated, dones };
                f(chunk, st)
            })
            .min_by_key(|(i, _)| *i);
        self.finished.clear();
        // Scan the compact done flags; only finished games' slots are touched.
        for (i, &d) in self.dones.iter().enumerate() {
            if d {
                self.finished.extend_from_slice(&self.slots[i].finished);
            }
        }
        err
    }

    /// Number of environments.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// `N × obs_len` observations of the seats to act next.
    pub fn obs(&self) -> &[f32] {
        &self.obs
    }

    /// `N × num_actions` legal-action flags for the seats to act next.
    pub fn masks(&self) -> &[bool] {
        &self.masks
    }

    /// The same masks as [`EnvSpec::mask_words`](game::EnvSpec::mask_words) `u64`s per
    /// environment (action `a` is bit `a % 64` of word `a / 64`).
    pub fn mask_bits(&self) -> &[u64] {
        &self.mask_bits
    }

    /// The seat to act next in each environment (always a seat: finished games were reset).
    pub fn actors(&self) -> &[u8] {
        &self.actors
    }

    /// `N × MAX_PLAYERS` rewards every seat received on the last step (absolute seats; summed
    /// over the steps of the last [`VecEnv::step_many`]).
    pub fn rewards(&self) -> &[f32] {
        &self.rewards
    }

    /// Whether each game ended by its rules on the last step (any game of the environment, for
    /// [`VecEnv::step_many`]).
    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }

    /// Whether each game was cut off by the round limit on the last step (any game of the
    /// environment, for [`VecEnv::step_many`]).
    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }

    /// `terminated || truncated` per environment.
    pub fn dones(&self) -> &[bool] {
        &self.dones
    }

    /// Games that finished on the last step, in environment order (for
    /// [`VecEnv::step_many`]: every game that finished during the call, in environment order,
    /// then in the order they ended).
    pub fn finished(&self) -> &[EpisodeInfo] {
        &self.finished
    }

    /// One environment (read-only), e.g. to build scripted agents' views.
    pub fn env(&self, i: usize) -> &Env<G> {
        &self.slots[i].env
    }

    /// The seat to act in environment `i` as a [`Seat`].
    pub fn actor(&self, i: usize) -> Seat {
        Seat(self.actors[i])
    }

    /// The current episode counter of environment `i`.
    pub fn episode(&self, i: usize) -> u64 {
        self.slots[i].episode
    }

    /// The base seed of the seed streams.
    pub fn base_seed(&self) -> u64 {
        self.base_seed
    }
}
