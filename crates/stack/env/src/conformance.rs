//! A reusable conformance harness, in the spirit of OpenSpiel's random-simulation test and
//! PettingZoo's `api_test` / `seed_test`: plays seeded random games and checks every promise the
//! environment makes. Call it from tests for any game and rules config.
//!
//! Its loops step [`Env`] by hand rather than through [`crate::Driver`], the one game loop:
//! they check the env contract the driver is built on (every `TimeStep`, refused indices, twin
//! and single reference envs), which the driver does not expose.

use crate::env::{Env, EnvError, GameConfig, TimeStep};
use crate::seed::{derive, episode_seed};
use crate::vec_env::{Decision, EpisodeInfo, VecEnv};
use game::{Game, GameAction, LegalMask};
use game::{MAX_PLAYERS, Seat};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Longest game the harness accepts before declaring a runaway.
const MAX_GAME_STEPS: u32 = 200_000;

fn bits_eq(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn pick<M: LegalMask>(mask: M, rng: &mut Pcg64Mcg) -> usize {
    let k = rng.random_range(0..mask.count());
    mask.nth_index(k).expect("k < count")
}

/// Checks one decision point of `env` against the engine and the env's promises.
fn check_decision<G: Game>(env: &mut Env<G>, ts: &TimeStep<G>, obs: &[f32]) -> Result<(), String> {
    let st = env.state().clone();
    let num_actions = G::SPEC.num_actions;
    if ts.actor != G::current_player(&st) {
        return Err(format!("timestep actor {:?} != engine {:?}", ts.actor, G::current_player(&st)));
    }
    if ts.mask != G::legal_mask(&st) || env.legal_mask() != ts.mask {
        return Err("timestep mask differs from the engine's legal mask".into());
    }
    let mut words = vec![0u64; G::SPEC.mask_words()];
    ts.mask.write_words(&mut words);
    if (num_actions..words.len() * 64).any(|i| words[i / 64] >> (i % 64) & 1 == 1) {
        return Err(format!("mask has bits beyond the {num_actions} actions"));
    }
    if ts.actor.is_some() == ts.mask.is_empty() {
        return Err(format!("mask emptiness wrong at a decision={:?}", ts.actor.is_some()));
    }
    G::check_observation(obs, env.num_players()).map_err(|e| e.to_string())?;
    // Every masked action applies; every unmasked one is rejected and leaves the state intact.
    for i in 0..num_actions + 2 {
        let mut c = st.clone();
        let r = G::Action::from_index(i)
            .ok_or_else(|| format!("no action {i}"))
            .and_then(|a| G::apply(&mut c, a).map_err(|e| e.to_string()));
        if ts.mask.contains_index(i) {
            if let Err(e) = r {
                return Err(format!("masked action {i} rejected by the engine: {e}"));
            }
            // The unchecked path the env takes after its own check reaches the same state.
            let mut unchecked = st.clone();
            G::apply_legal(&mut unchecked, G::Action::from_index(i).expect("applied above"));
            if unchecked != c {
                return Err(format!("apply_legal of masked action {i} reached another state than apply"));
            }
        } else {
            if r.is_ok() {
                return Err(format!("unmasked action {i} accepted by the engine"));
            }
            if c != st {
                return Err(format!("rejected action {i} changed the state"));
            }
        }
    }
    // The env rejects an illegal index with IllegalAction and stays unchanged.
    let bad = (0..num_actions + 1).find(|&i| !ts.mask.contains_index(i));
    if let (Some(bad), Some(_)) = (bad, ts.actor) {
        match env.step(bad) {
            Err(EnvError::IllegalAction { index, .. }) if index == bad => {}
            other => return Err(format!("illegal action {bad} gave {other:?}")),
        }
        if *env.state() != st || env.legal_mask() != ts.mask {
            return Err("a rejected env step changed the env".into());
        }
    }
    Ok(())
}

/// No leak: re-deal everything hidden from each seat and check its observation is
/// bit-identical. Also checks that `Game::observe` writes what encoding the view writes.
fn check_no_leak<G: Game>(env: &Env<G>, seed: u64, buf: &mut [f32], buf2: &mut [f32]) -> Result<(), String> {
    let st = env.state();
    for v in 0..env.num_players() {
        let viewer = Seat(v);
        G::encode(&G::view(st, viewer), buf);
        G::observe(st, viewer, buf2);
        if !bits_eq(buf, buf2) {
            let i = buf.iter().zip(buf2.iter()).position(|(a, b)| a.to_bits() != b.to_bits()).unwrap_or(0);
            return Err(format!("seat {v}'s observation from the state differs from its view's at index {i}"));
        }
        for k in 0..2u64 {
            let Some(d) = G::determinize(st, viewer, derive(seed, u64::from(v) * 2 + k)) else {
                // Only a finished game may have nothing to resample.
                if G::current_player(st).is_some() {
                    return Err(format!("seat {v} could not determinize a position awaiting a decision"));
                }
                continue;
            };
            G::encode(&G::view(&d, viewer), buf2);
            if !bits_eq(buf, buf2) {
                let i = buf.iter().zip(buf2.iter()).position(|(a, b)| a.to_bits() != b.to_bits()).unwrap_or(0);
                return Err(format!(
                    "LEAK: seat {v}'s observation changed at index {i} when hidden information was resampled"
                ));
            }
        }
    }
    Ok(())
}

/// Plays `games` random games under `config` from `seed` and checks, at every decision: mask
/// agrees with engine legality both ways, the unchecked `apply_legal` agrees with `apply`,
/// illegal actions are errors that change nothing, observations match their documented layout,
/// a twin env with the same seed produces the same stream (while another RNG is drawn from in
/// between), `reset(seed)` is reproducible, rewards are 0 before the end and zero-sum at the end
/// (all 0 when truncated), returns equal summed rewards, engine invariants hold, and (every few
/// steps) the no-leak property.
pub fn check<G: Game>(config: &GameConfig<G>, games: usize, seed: u64) -> Result<(), String> {
    let mut a = Env::new(*config).map_err(|e| e.to_string())?;
    let mut b = Env::new(*config).map_err(|e| e.to_string())?;
    let len = G::SPEC.obs_len;
    let (mut oa, mut ob) = (vec![0.0f32; len], vec![0.0f32; len]);
    let (mut t1, mut t2) = (vec![0.0f32; len], vec![0.0f32; len]);
    let n = config.players() as usize;
    for g in 0..games {
        let gs = derive(seed, g as u64);
        let ctx = |e: String| format!("game {g} (seed {gs}, {n} players): {e}");
        let mut rng = Pcg64Mcg::seed_from_u64(derive(gs, 7));
        let mut noise = Pcg64Mcg::seed_from_u64(derive(gs, 8));
        // reset(seed) twice gives the same first observation, whatever came before.
        a.reset(gs.wrapping_add(1));
        let mut ts = a.reset_into(gs, &mut oa);
        let mut tb = b.reset_into(gs, &mut ob);
        if ts != tb || !bits_eq(&oa, &ob) {
            return Err(ctx("reset(seed) is not reproducible".into()));
        }
        let mut returns = [0.0f32; MAX_PLAYERS];
        let mut steps = 0u32;
        loop {
            check_decision(&mut a, &ts, &oa).map_err(ctx)?;
            G::check_invariants(a.state()).map_err(|e| ctx(format!("invariant: {e}")))?;
            if steps.is_multiple_of(7) || ts.actor.is_none() {
                check_no_leak(&a, derive(gs, u64::from(steps) + 100), &mut t1, &mut t2).map_err(ctx)?;
            }
            let Some(_) = ts.actor else { break };
            let act = pick(ts.mask, &mut rng);
            let _: u64 = noise.random(); // unrelated randomness must change nothing
            ts = a.step_into(act, &mut oa).map_err(|e| ctx(e.to_string()))?;
            tb = b.step_into(act, &mut ob).map_err(|e| ctx(e.to_string()))?;
            if ts != tb || !bits_eq(&oa, &ob) {
                return Err(ctx(format!("twin envs diverged at step {steps}")));
            }
            steps += 1;
            if steps > MAX_GAME_STEPS {
                return Err(ctx("game did not end".into()));
            }
            for (r, x) in returns.iter_mut().zip(ts.rewards) {
                *r += x;
            }
            if !ts.done() && ts.rewards.iter().any(|&r| r != 0.0) {
                return Err(ctx("non-zero reward before the end".into()));
            }
            if ts.rewards[n..].iter().any(|&r| r != 0.0) {
                return Err(ctx("reward paid to a padding seat".into()));
            }
            if ts.truncated && ts.rewards.iter().any(|&r| r != 0.0) {
                return Err(ctx("truncated game paid a reward".into()));
            }
            if ts.terminated {
                let sum: f32 = ts.rewards.iter().sum();
                if sum.abs() > 1e-5 {
                    return Err(ctx(format!("rewards do not sum to zero: {:?}", ts.rewards)));
                }
                let won = a.winners();
                if won.len() < n && ts.rewards.iter().take(n).all(|&r| r == 0.0) {
                    return Err(ctx("a decided game paid nobody".into()));
                }
                for s in won.iter() {
                    if ts.rewards[..n].iter().any(|&r| r > ts.rewards[s.index()]) {
                        return Err(ctx("a winner got less than a non-winner".into()));
                    }
                }
            }
            if ts.done() && ts.terminated == ts.truncated {
                return Err(ctx("done must be exactly one of terminated / truncated".into()));
            }
        }
        if returns != a.returns() {
            return Err(ctx("returns differ from the sum of rewards".into()));
        }
        if !matches!(a.step(0), Err(EnvError::GameOver)) {
            return Err(ctx("step after the end must be GameOver".into()));
        }
        for s in 0..n as u8 {
            a.observe_into(Seat(s), &mut t1);
            G::check_observation(&t1, n as u8).map_err(|e| ctx(format!("terminal observation of seat {s}: {e}")))?;
        }
    }
    Ok(())
}

/// Checks that a [`VecEnv`] of `num_envs` environments equals that many single environments
/// stepped in the same order, bit for bit, for `steps` steps (auto-resets included). Runs on
/// the current rayon pool; call it inside pools of different sizes.
pub fn check_vec_env<G: Game>(config: &GameConfig<G>, num_envs: usize, steps: usize, seed: u64) -> Result<(), String> {
    let (len, num_actions, w) = (G::SPEC.obs_len, G::SPEC.num_actions, G::SPEC.mask_words());
    let mut v = VecEnv::new(*config, num_envs, seed).map_err(|e| e.to_string())?;
    let mut singles: Vec<Env<G>> = Vec::with_capacity(num_envs);
    let mut episodes = vec![0u64; num_envs];
    let mut obs = vec![0.0f32; len];
    let mut words = vec![0u64; w];
    for i in 0..num_envs {
        let mut e = Env::new(*config).map_err(|e| e.to_string())?;
        e.reset(episode_seed(seed, i as u64, 0));
        singles.push(e);
    }
    let mut rng = Pcg64Mcg::seed_from_u64(derive(seed, 3));
    let mut actions = vec![0usize; num_envs];
    let mut finished_total = 0usize;
    for step in 0..=steps {
        for (i, e) in singles.iter().enumerate() {
            e.observe_actor_into(&mut obs);
            if !bits_eq(&obs, &v.obs()[i * len..(i + 1) * len]) {
                return Err(format!("step {step}: env {i} observation differs"));
            }
            let m = e.legal_mask();
            m.write_words(&mut words);
            if v.mask_bits()[i * w..(i + 1) * w] != words[..] {
                return Err(format!("step {step}: env {i} mask bits differ"));
            }
            for k in 0..num_actions {
                if v.masks()[i * num_actions + k] != m.contains_index(k) {
                    return Err(format!("step {step}: env {i} bool mask differs"));
                }
            }
            if Some(v.actor(i)) != e.current_player() {
                return Err(format!("step {step}: env {i} actor differs"));
            }
        }
        if step == steps {
            break;
        }
        for (a, e) in actions.iter_mut().zip(&singles) {
            *a = pick(e.legal_mask(), &mut rng);
        }
        v.step(&actions).map_err(|e| e.to_string())?;
        let mut finished = 0;
        for (i, e) in singles.iter_mut().enumerate() {
            let ts = e.step(actions[i]).map_err(|e| e.to_string())?;
            let r = &v.rewards()[i * MAX_PLAYERS..(i + 1) * MAX_PLAYERS];
            if !bits_eq(&ts.rewards, r) || v.terminated()[i] != ts.terminated || v.truncated()[i] != ts.truncated {
                return Err(format!("step {step}: env {i} rewards or flags differ"));
            }
            if v.dones()[i] != ts.done() {
                return Err(format!("step {step}: env {i} done flag differs"));
            }
            if ts.done() {
                let info = v
                    .finished()
                    .get(finished)
                    .ok_or_else(|| format!("step {step}: env {i} finished but no EpisodeInfo"))?;
                if info.env != i || info.returns != e.returns() || info.length != e.episode_steps() {
                    return Err(format!("step {step}: env {i} EpisodeInfo differs"));
                }
                finished += 1;
                episodes[i] += 1;
                e.reset(episode_seed(seed, i as u64, episodes[i]));
            }
        }
        if finished != v.finished().len() {
            return Err(format!("step {step}: {} EpisodeInfos for {finished} finished games", v.finished().len()));
        }
        finished_total += finished;
    }
    if steps >= 400 && finished_total == 0 {
        return Err("no game finished; auto-reset untested".into());
    }
    Ok(())
}

/// Checks that [`VecEnv::step_many`] equals [`VecEnv::step`] called `steps_per_call` times with
/// the actions the same per-game policy picks, bit for bit: observations, masks, actors,
/// rewards summed over the call, end flags (any episode ended in the call) and finished
/// games (environment order, then order of ending). Also checks that every [`Decision`] shows
/// the environment's actual actor, mask and observation. Runs on the current rayon pool; since
/// `step` is checked against single environments by [`check_vec_env`], this ties `step_many` to
/// them too.
pub fn check_step_many<G: Game>(
    config: &GameConfig<G>,
    num_envs: usize,
    calls: usize,
    steps_per_call: usize,
    seed: u64,
) -> Result<(), String> {
    // The per-game policy: a uniformly random legal action from the game's own generator, after
    // checking what it was shown.
    let len = G::SPEC.obs_len;
    let policy = |rng: &mut Pcg64Mcg, d: Decision<'_, G>| -> usize {
        assert_eq!(Some(d.actor), d.env.current_player(), "env {}: decision actor", d.env_index);
        assert_eq!(d.mask, d.env.legal_mask(), "env {}: decision mask", d.env_index);
        let mut o = vec![0.0f32; len];
        d.env.observe_into(d.actor, &mut o);
        assert!(bits_eq(&o, d.obs), "env {}: decision observation", d.env_index);
        assert_eq!(d.view(), d.env.view(d.actor), "env {}: decision view is the actor's", d.env_index);
        pick(d.mask, rng)
    };
    let rngs = |salt: u64| -> Vec<Pcg64Mcg> {
        (0..num_envs).map(|i| Pcg64Mcg::seed_from_u64(derive(seed ^ salt, i as u64))).collect()
    };
    let mut many = VecEnv::new(*config, num_envs, seed).map_err(|e| e.to_string())?;
    let mut stepped = VecEnv::new(*config, num_envs, seed).map_err(|e| e.to_string())?;
    let (mut rng_many, mut rng_step) = (rngs(7), rngs(7));
    let mut actions = vec![0usize; num_envs];
    let mut finished_total = 0;
    for call in 0..calls {
        many.step_many(steps_per_call, &mut rng_many, policy).map_err(|e| e.to_string())?;
        let mut rewards = vec![0.0f32; num_envs * MAX_PLAYERS];
        let (mut terminated, mut truncated) = (vec![false; num_envs], vec![false; num_envs]);
        let mut finished: Vec<Vec<EpisodeInfo>> = vec![Vec::new(); num_envs];
        for _ in 0..steps_per_call {
            for (i, (a, rng)) in actions.iter_mut().zip(&mut rng_step).enumerate() {
                let d = Decision {
                    env_index: i,
                    env: stepped.env(i),
                    actor: stepped.actor(i),
                    obs: &stepped.obs()[i * len..(i + 1) * len],
                    mask: stepped.env(i).legal_mask(),
                };
                *a = policy(rng, d);
            }
            stepped.step(&actions).map_err(|e| e.to_string())?;
            for (acc, &r) in rewards.iter_mut().zip(stepped.rewards()) {
                *acc += r;
            }
            for i in 0..num_envs {
                terminated[i] |= stepped.terminated()[i];
                truncated[i] |= stepped.truncated()[i];
            }
            for info in stepped.finished() {
                finished[info.env].push(*info);
            }
        }
        let finished: Vec<EpisodeInfo> = finished.into_iter().flatten().collect();
        let ctx = |what: &str| format!("call {call}: {what} differ after step_many({steps_per_call})");
        if !bits_eq(many.obs(), stepped.obs()) {
            return Err(ctx("observations"));
        }
        if many.masks() != stepped.masks() || many.mask_bits() != stepped.mask_bits() {
            return Err(ctx("masks"));
        }
        if many.actors() != stepped.actors() {
            return Err(ctx("actors"));
        }
        if !bits_eq(many.rewards(), &rewards) {
            return Err(ctx("summed rewards"));
        }
        if many.terminated() != &terminated[..] || many.truncated() != &truncated[..] {
            return Err(ctx("end flags"));
        }
        let dones: Vec<bool> = terminated.iter().zip(&truncated).map(|(a, b)| a | b).collect();
        if many.dones() != &dones[..] {
            return Err(ctx("done flags"));
        }
        if many.finished() != &finished[..] {
            return Err(ctx("finished games"));
        }
        if (0..num_envs).any(|i| many.episode(i) != stepped.episode(i)) {
            return Err(ctx("episode counters"));
        }
        finished_total += finished.len();
    }
    if calls * steps_per_call >= 400 && finished_total == 0 {
        return Err("no game finished; auto-reset untested".into());
    }
    Ok(())
}
