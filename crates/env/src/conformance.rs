//! A reusable conformance harness, in the spirit of OpenSpiel's random-simulation test and
//! PettingZoo's `api_test` / `seed_test`: plays seeded random games and checks every promise the
//! environment makes. Call it from tests for any rules config.
//!
//! Its loops step [`SabaccEnv`] by hand rather than through [`crate::Driver`], the one game loop:
//! they check the env contract the driver is built on (every `TimeStep`, refused indices, twin
//! and single reference envs), which the driver does not expose.

use crate::env::{EnvConfig, EnvError, SabaccEnv, TimeStep};
use crate::obs::{OBS_LEN, SEAT_FIELD_NAMES, SEGMENTS, encode, segment};
use crate::seed::{derive, episode_seed};
use crate::vec_env::{Decision, EpisodeInfo, VecEnv};
use engine::{ActionMask, MAX_PLAYERS, NUM_ACTIONS, Seat};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Longest game the harness accepts before declaring a runaway.
const MAX_GAME_STEPS: u32 = 200_000;

fn bits_eq(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn pick(mask: u64, rng: &mut Pcg64Mcg) -> usize {
    let k = rng.random_range(0..mask.count_ones());
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// Checks one decision point of `env` against the engine and the env's promises.
fn check_decision(env: &mut SabaccEnv, ts: &TimeStep, obs: &[f32]) -> Result<(), String> {
    let st = env.state().clone();
    if ts.actor != st.current_player() {
        return Err(format!("timestep actor {:?} != engine {:?}", ts.actor, st.current_player()));
    }
    if ts.mask != st.legal_mask() || env.legal_mask() != ts.mask {
        return Err("timestep mask differs from the engine's legal mask".into());
    }
    if ts.mask.0 >> NUM_ACTIONS != 0 {
        return Err("mask has bits beyond the 48 actions".into());
    }
    if ts.actor.is_some() == ts.mask.is_empty() {
        return Err(format!("mask emptiness wrong at a decision={:?}", ts.actor.is_some()));
    }
    check_obs_ranges(obs, env.num_players())?;
    // Every masked action applies; every unmasked one is rejected and leaves the state intact.
    for i in 0..NUM_ACTIONS + 2 {
        let mut c = st.clone();
        let r = c.apply_index(i);
        if ts.mask.contains_index(i) {
            if let Err(e) = r {
                return Err(format!("masked action {i} rejected by the engine: {e}"));
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
    let bad = (0..NUM_ACTIONS + 1).find(|&i| !ts.mask.contains_index(i));
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

/// Size, finiteness and documented ranges: every value in [0, 1] except the chip ratios of the
/// `seats` block (at most `players` times the start); `players` and `decision` are one-hot.
fn check_obs_ranges(obs: &[f32], players: u8) -> Result<(), String> {
    if obs.len() != OBS_LEN || obs.iter().any(|x| !x.is_finite()) {
        return Err("observation has the wrong size or a non-finite value".into());
    }
    let seats = segment("seats").expect("seats segment");
    for (i, &x) in obs.iter().enumerate() {
        let chip = i >= seats.offset
            && i < seats.offset + seats.len
            && matches!((i - seats.offset) % SEAT_FIELD_NAMES.len(), 2..=4);
        let max = if chip { f32::from(players) } else { 1.0 + 1e-6 };
        if !(0.0..=max).contains(&x) {
            let seg = SEGMENTS.iter().find(|s| (s.offset..s.offset + s.len).contains(&i)).map(|s| s.name);
            return Err(format!("observation[{i}] = {x} out of range (segment {seg:?})"));
        }
    }
    for name in ["players", "decision"] {
        let s = segment(name).expect("segment");
        let ones = obs[s.offset..s.offset + s.len].iter().filter(|&&x| x == 1.0).count();
        let sum: f32 = obs[s.offset..s.offset + s.len].iter().sum();
        if ones != 1 || sum != 1.0 {
            return Err(format!("segment {name} is not one-hot"));
        }
    }
    Ok(())
}

/// No leak: re-deal everything hidden from each seat and check its observation is
/// bit-identical.
fn check_no_leak(env: &SabaccEnv, seed: u64, buf: &mut [f32], buf2: &mut [f32]) -> Result<(), String> {
    let st = env.state();
    for v in 0..st.num_players() {
        let viewer = Seat(v);
        encode(&st.view(viewer), buf);
        for k in 0..2u64 {
            let d = st.determinize(viewer, derive(seed, u64::from(v) * 2 + k));
            encode(&d.view(viewer), buf2);
            if !bits_eq(buf, buf2) {
                let i = buf.iter().zip(buf2.iter()).position(|(a, b)| a.to_bits() != b.to_bits()).unwrap_or(0);
                let seg = crate::obs::SEGMENTS.iter().find(|s| (s.offset..s.offset + s.len).contains(&i));
                return Err(format!(
                    "LEAK: seat {v}'s observation changed when hidden information was resampled \
                     (index {i}, segment {:?})",
                    seg.map(|s| s.name)
                ));
            }
        }
    }
    Ok(())
}

/// Plays `games` random games under `config` from `seed` and checks, at every decision: mask
/// agrees with engine legality both ways, illegal actions are errors that change nothing,
/// observations have `OBS_LEN` finite values, a twin env with the same seed produces the same
/// stream (while another RNG is drawn from in between), `reset(seed)` is reproducible, rewards
/// are 0 before the end and zero-sum at the end (all 0 when truncated), returns equal summed
/// rewards, engine invariants hold, and (every few steps) the no-leak property.
pub fn check(config: &EnvConfig, games: usize, seed: u64) -> Result<(), String> {
    let mut a = SabaccEnv::new(*config).map_err(|e| e.to_string())?;
    let mut b = SabaccEnv::new(*config).map_err(|e| e.to_string())?;
    let (mut oa, mut ob) = (vec![0.0f32; OBS_LEN], vec![0.0f32; OBS_LEN]);
    let (mut t1, mut t2) = (vec![0.0f32; OBS_LEN], vec![0.0f32; OBS_LEN]);
    let n = config.rules.players as usize;
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
            a.state().check_invariants().map_err(|e| ctx(format!("invariant: {e}")))?;
            if steps.is_multiple_of(7) || ts.actor.is_none() {
                check_no_leak(&a, derive(gs, u64::from(steps) + 100), &mut t1, &mut t2).map_err(ctx)?;
            }
            let Some(_) = ts.actor else { break };
            let act = pick(ts.mask.0, &mut rng);
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
            check_obs_ranges(&t1, n as u8).map_err(|e| ctx(format!("terminal observation of seat {s}: {e}")))?;
        }
    }
    Ok(())
}

/// Checks that a [`VecEnv`] of `num_envs` environments equals that many single environments
/// stepped in the same order, bit for bit, for `steps` steps (auto-resets included). Runs on
/// the current rayon pool; call it inside pools of different sizes.
pub fn check_vec_env(config: &EnvConfig, num_envs: usize, steps: usize, seed: u64) -> Result<(), String> {
    let mut v = VecEnv::new(*config, num_envs, seed).map_err(|e| e.to_string())?;
    let mut singles: Vec<SabaccEnv> = Vec::with_capacity(num_envs);
    let mut episodes = vec![0u64; num_envs];
    let mut obs = vec![0.0f32; OBS_LEN];
    for i in 0..num_envs {
        let mut e = SabaccEnv::new(*config).map_err(|e| e.to_string())?;
        e.reset(episode_seed(seed, i as u64, 0));
        singles.push(e);
    }
    let mut rng = Pcg64Mcg::seed_from_u64(derive(seed, 3));
    let mut actions = vec![0usize; num_envs];
    let mut finished_total = 0usize;
    for step in 0..=steps {
        for (i, e) in singles.iter().enumerate() {
            e.observe_actor_into(&mut obs);
            if !bits_eq(&obs, &v.obs()[i * OBS_LEN..(i + 1) * OBS_LEN]) {
                return Err(format!("step {step}: env {i} observation differs"));
            }
            let m = e.legal_mask();
            if v.mask_bits()[i] != m.0 {
                return Err(format!("step {step}: env {i} mask bits differ"));
            }
            for k in 0..NUM_ACTIONS {
                if v.masks()[i * NUM_ACTIONS + k] != m.contains_index(k) {
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
            *a = pick(e.legal_mask().0, &mut rng);
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
pub fn check_step_many(
    config: &EnvConfig,
    num_envs: usize,
    calls: usize,
    steps_per_call: usize,
    seed: u64,
) -> Result<(), String> {
    // The per-game policy: a uniformly random legal action from the game's own generator, after
    // checking what it was shown.
    let policy = |rng: &mut Pcg64Mcg, d: Decision<'_>| -> usize {
        assert_eq!(Some(d.actor), d.env.current_player(), "env {}: decision actor", d.env_index);
        assert_eq!(d.mask, d.env.legal_mask(), "env {}: decision mask", d.env_index);
        let mut o = vec![0.0f32; OBS_LEN];
        d.env.observe_into(d.actor, &mut o);
        assert!(bits_eq(&o, d.obs), "env {}: decision observation", d.env_index);
        assert_eq!(d.view(), d.env.view(d.actor), "env {}: decision view is the actor's", d.env_index);
        pick(d.mask.0, rng)
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
                    obs: &stepped.obs()[i * OBS_LEN..(i + 1) * OBS_LEN],
                    mask: ActionMask(stepped.mask_bits()[i]),
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
