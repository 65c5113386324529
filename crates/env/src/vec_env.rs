//! `VecEnv`: many games stepped together, in parallel with rayon, into contiguous buffers.
//!
//! Layout (struct of arrays, row `i` = environment `i`):
//! * [`VecEnv::obs`]: `N × OBS_LEN` observations of the seat to act next;
//! * [`VecEnv::masks`]: `N × 48` bools (legal = `true`), and [`VecEnv::mask_bits`] as `u64`s;
//! * [`VecEnv::actors`]: the seat to act next;
//! * [`VecEnv::rewards`]: `N × MAX_PLAYERS` rewards every seat received on the last step;
//! * [`VecEnv::terminated`], [`VecEnv::truncated`], [`VecEnv::dones`]: end flags of the last step.
//!
//! **Auto-reset (Gymnasium `SAME_STEP`).** When a game ends on a step, its final rewards and
//! flags are written for that step, its summary goes to [`VecEnv::finished`], and the game is
//! reset at once with the next seed of its stream; `obs`, `masks` and `actors` then already
//! describe the new game's first decision. The terminal observation is not kept (no seat acts
//! in it; terminal rewards are credited to each seat's last decision).
//!
//! **Driving it fast.** Call `step` from inside the rayon pool (e.g. the whole rollout loop in
//! `rayon::scope(|_| ...)` or `pool.install(...)`): a call from outside the pool must wake a
//! worker and wait for it on every step, which costs more than a small batch of games. About
//! 256 games per thread keep each thread's games and buffers (~1 MB) in its L2 cache.
//!
//! **Seeds.** Episode `e` of environment `i` uses [`crate::seed::episode_seed`]`(base, i, e)`.
//! Each environment owns its state and all randomness lives in it, so results are bit-identical
//! for any thread count.

use crate::env::{EnvConfig, EnvError, SabaccEnv};
use crate::obs::OBS_LEN;
use crate::seed::episode_seed;
use engine::{MAX_PLAYERS, NUM_ACTIONS, Seat, SeatSet};
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
    /// Rounds played.
    pub rounds: u16,
}

#[derive(Clone, Debug)]
struct Slot {
    env: SabaccEnv,
    index: u64,
    episode: u64,
    finished: Option<EpisodeInfo>,
}

/// Bools of every 4-bit pattern, low bit first (mask expansion without per-bit branches).
const NIBBLE_BOOLS: [[bool; 4]; 16] = {
    let mut t = [[false; 4]; 16];
    let mut v = 0;
    while v < 16 {
        let mut b = 0;
        while b < 4 {
            t[v][b] = (v >> b) & 1 == 1;
            b += 1;
        }
        v += 1;
    }
    t
};

/// `N` games of Kessel Sabacc stepping together (see the module docs for layout and auto-reset).
#[derive(Clone, Debug)]
pub struct VecEnv {
    base_seed: u64,
    slots: Vec<Slot>,
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

/// Smallest number of environments one rayon task steps (amortises scheduling).
const MIN_LEN: usize = 16;

impl VecEnv {
    /// `num_envs` environments under `config`, reset to episode 0 of their seed streams.
    pub fn new(config: EnvConfig, num_envs: usize, base_seed: u64) -> Result<VecEnv, EnvError> {
        let proto = SabaccEnv::new(config)?;
        let slots =
            (0..num_envs).map(|i| Slot { env: proto.clone(), index: i as u64, episode: 0, finished: None }).collect();
        let mut v = VecEnv {
            base_seed,
            slots,
            obs: vec![0.0; num_envs * OBS_LEN],
            masks: vec![false; num_envs * NUM_ACTIONS],
            rewards: vec![0.0; num_envs * MAX_PLAYERS],
            mask_bits: vec![0; num_envs],
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
        for s in &mut self.slots {
            s.episode = 0;
        }
        self.run(|slot| {
            slot.env.reset(episode_seed(base_seed, slot.index, 0));
            [0.0; MAX_PLAYERS]
        });
    }

    /// Applies `actions[i]` (an index 0..48) in every environment `i`, in parallel, auto-resetting
    /// finished games. Every action is checked first: on an illegal one nothing is stepped.
    pub fn step(&mut self, actions: &[usize]) -> Result<(), EnvError> {
        if actions.len() != self.slots.len() {
            return Err(EnvError::BatchSize { expected: self.slots.len(), got: actions.len() });
        }
        // Checked against the compact mask buffer (equal to each env's mask) to stay cache-friendly.
        for (i, (&bits, &a)) in self.mask_bits.iter().zip(actions).enumerate() {
            if a >= NUM_ACTIONS || bits >> a & 1 == 0 {
                let env = &self.slots[i].env;
                return Err(EnvError::illegal(a, env.current_player(), env.legal_mask()));
            }
        }
        let base = self.base_seed;
        self.run_with(actions, move |slot, a| {
            let ts = slot.env.step(a).expect("checked legal");
            if ts.done() {
                let st = slot.env.state();
                slot.finished = Some(EpisodeInfo {
                    env: slot.index as usize,
                    episode: slot.episode,
                    seed: slot.env.seed(),
                    returns: slot.env.returns(),
                    length: slot.env.episode_steps(),
                    winners: st.winners(),
                    truncated: ts.truncated,
                    rounds: st.round(),
                });
                slot.episode += 1;
                slot.env.reset(episode_seed(base, slot.index, slot.episode));
            }
            (ts.rewards, ts.terminated, ts.truncated)
        });
        Ok(())
    }

    fn run(&mut self, f: impl Fn(&mut Slot) -> [f32; MAX_PLAYERS] + Sync + Send) {
        let zeros = vec![0usize; self.slots.len()];
        self.run_with(&zeros, |slot, _| (f(slot), false, false));
    }

    fn run_with(
        &mut self,
        actions: &[usize],
        f: impl Fn(&mut Slot, usize) -> ([f32; MAX_PLAYERS], bool, bool) + Sync + Send,
    ) {
        (
            self.slots.par_iter_mut(),
            actions.par_iter(),
            self.obs.par_chunks_mut(OBS_LEN),
            self.masks.par_chunks_mut(NUM_ACTIONS),
            self.rewards.par_chunks_mut(MAX_PLAYERS),
            self.mask_bits.par_iter_mut(),
            self.actors.par_iter_mut(),
            self.terminated.par_iter_mut(),
            self.truncated.par_iter_mut(),
            self.dones.par_iter_mut(),
        )
            .into_par_iter()
            .with_min_len(MIN_LEN)
            .for_each(|(slot, &a, obs, mask, rew, bits, actor, term, trunc, done)| {
                slot.finished = None;
                let (r, te, tr) = f(slot, a);
                rew.copy_from_slice(&r);
                slot.env.observe_actor_into(obs);
                let m = slot.env.legal_mask().0;
                for (q, chunk) in mask.chunks_exact_mut(4).enumerate() {
                    chunk.copy_from_slice(&NIBBLE_BOOLS[((m >> (4 * q)) & 0xF) as usize]);
                }
                *bits = m;
                *actor = slot.env.current_player().map_or(u8::MAX, |s| s.0);
                *term = te;
                *trunc = tr;
                *done = te || tr;
            });
        self.finished.clear();
        // Scan the compact done flags; only finished games' slots are touched.
        for (i, &d) in self.dones.iter().enumerate() {
            if d {
                self.finished.extend(self.slots[i].finished);
            }
        }
    }

    /// Number of environments.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// `N × OBS_LEN` observations of the seats to act next.
    pub fn obs(&self) -> &[f32] {
        &self.obs
    }

    /// `N × 48` legal-action flags for the seats to act next.
    pub fn masks(&self) -> &[bool] {
        &self.masks
    }

    /// The same masks as one `u64` bitmask per environment (bit `a` = action `a`).
    pub fn mask_bits(&self) -> &[u64] {
        &self.mask_bits
    }

    /// The seat to act next in each environment (always a seat: finished games were reset).
    pub fn actors(&self) -> &[u8] {
        &self.actors
    }

    /// `N × MAX_PLAYERS` rewards every seat received on the last step (absolute seats).
    pub fn rewards(&self) -> &[f32] {
        &self.rewards
    }

    /// Whether each game ended by its rules on the last step.
    pub fn terminated(&self) -> &[bool] {
        &self.terminated
    }

    /// Whether each game was cut off by the round limit on the last step.
    pub fn truncated(&self) -> &[bool] {
        &self.truncated
    }

    /// `terminated || truncated` per environment.
    pub fn dones(&self) -> &[bool] {
        &self.dones
    }

    /// Games that finished on the last step, in environment order.
    pub fn finished(&self) -> &[EpisodeInfo] {
        &self.finished
    }

    /// One environment (read-only), e.g. to build scripted agents' views.
    pub fn env(&self, i: usize) -> &SabaccEnv {
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
