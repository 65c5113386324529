//! `VecEnv` equals N single environments stepped in the same order, bit for bit, whatever the
//! number of threads.

use env::conformance::{check_step_many, check_vec_env};
use env::{RewardMode, VecEnv};
use games::kessel::Kessel;

#[test]
fn vec_env_matches_singles_with_one_thread() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| check_vec_env(&env::GameConfig::<Kessel>::with_players(4), 24, 600, 11)).unwrap();
}

#[test]
fn vec_env_matches_singles_with_all_threads() {
    check_vec_env(&env::GameConfig::<Kessel>::with_players(4), 24, 600, 11).unwrap();
    let cfg = env::GameConfig::<Kessel>::with_players(7).with_reward(RewardMode::Placement);
    check_vec_env(&cfg, 40, 400, 12).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    pool.install(|| check_vec_env(&env::GameConfig::<Kessel>::with_players(2), 33, 500, 13)).unwrap();
}

fn run_buffers(threads: usize) -> (Vec<f32>, Vec<f32>, Vec<u64>, usize) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut v = VecEnv::new(env::GameConfig::<Kessel>::with_players(5), 64, 99).unwrap();
        let mut acts = vec![0usize; 64];
        let mut rew = Vec::new();
        let mut finished = 0;
        for step in 0..300usize {
            for (i, (a, &m)) in acts.iter_mut().zip(v.mask_bits()).enumerate() {
                let k = (i * 31 + step * 7) % m.count_ones() as usize;
                let mut b = m;
                for _ in 0..k {
                    b &= b - 1;
                }
                *a = b.trailing_zeros() as usize;
            }
            v.step(&acts).unwrap();
            rew.extend_from_slice(v.rewards());
            finished += v.finished().len();
        }
        (v.obs().to_vec(), rew, v.mask_bits().to_vec(), finished)
    })
}

#[test]
fn vec_env_buffers_identical_for_1_and_2_threads() {
    let a = run_buffers(1);
    let b = run_buffers(2);
    assert!(a.3 > 0, "some games finished");
    assert_eq!(a.2, b.2);
    assert!(a.0.iter().zip(&b.0).all(|(x, y)| x.to_bits() == y.to_bits()));
    assert!(a.1.iter().zip(&b.1).all(|(x, y)| x.to_bits() == y.to_bits()));
}

#[test]
fn vec_env_rejects_illegal_actions_without_stepping() {
    let mut v = VecEnv::new(env::GameConfig::<Kessel>::with_players(3), 4, 5).unwrap();
    let before = v.obs().to_vec();
    let mut acts: Vec<usize> = v.mask_bits().iter().map(|m| m.trailing_zeros() as usize).collect();
    let bad = (0..48).find(|&i| v.mask_bits()[2] >> i & 1 == 0).unwrap();
    acts[2] = bad;
    match v.step(&acts) {
        Err(env::EnvError::InEnv { env: 2, error }) => {
            assert!(matches!(*error, env::EnvError::IllegalAction { index, .. } if index == bad), "{error}")
        }
        other => panic!("expected an illegal action in environment 2, got {other:?}"),
    }
    assert_eq!(v.obs(), &before[..]);
    assert!(matches!(v.step(&acts[..3]), Err(env::EnvError::BatchSize { .. })));
    acts[2] = v.mask_bits()[2].trailing_zeros() as usize;
    v.step(&acts).unwrap();
}

#[test]
fn step_many_matches_repeated_step_with_one_thread() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| check_step_many(&env::GameConfig::<Kessel>::with_players(4), 24, 30, 17, 21)).unwrap();
}

#[test]
fn step_many_matches_repeated_step_with_all_threads() {
    check_step_many(&env::GameConfig::<Kessel>::with_players(4), 24, 30, 17, 22).unwrap();
    // Large chunks with a ragged last one.
    check_step_many(&env::GameConfig::<Kessel>::with_players(3), 203, 8, 64, 23).unwrap();
    let cfg = env::GameConfig::<Kessel>::with_players(6).with_reward(RewardMode::Placement);
    check_step_many(&cfg, 40, 12, 40, 24).unwrap();
    for threads in [2, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| check_step_many(&env::GameConfig::<Kessel>::with_players(2), 33, 25, 20, 25)).unwrap();
        pool.install(|| check_step_many(&env::GameConfig::<Kessel>::with_players(5), 150, 4, 120, 26)).unwrap();
    }
}

#[test]
fn step_many_with_zero_steps_only_clears_the_last_step() {
    let mut v = VecEnv::new(env::GameConfig::<Kessel>::with_players(3), 8, 4).unwrap();
    let before = (v.obs().to_vec(), v.mask_bits().to_vec(), v.actors().to_vec());
    let mut states = vec![(); 8];
    v.step_many(0, &mut states, |_, d| d.mask.bits().trailing_zeros() as usize).unwrap();
    assert_eq!((v.obs().to_vec(), v.mask_bits().to_vec(), v.actors().to_vec()), before);
    assert!(v.rewards().iter().all(|&r| r == 0.0) && v.dones().iter().all(|&d| !d) && v.finished().is_empty());
}

#[test]
fn step_many_stops_a_game_at_an_illegal_action_and_reports_the_lowest() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let mut v = VecEnv::new(env::GameConfig::<Kessel>::with_players(4), 64, 8).unwrap();
            let mut steps = vec![0u32; 64];
            // Games 9 and 40 pick an illegal action on their 5th step; the others play on. At
            // 128 steps a call the games are split into tasks of 4, so the two errors come from
            // different tasks whatever the number of threads.
            let r = v.step_many(128, &mut steps, |k, d| {
                *k += 1;
                let legal = d.mask.bits();
                if *k == 5 && (d.env_index == 9 || d.env_index == 40) {
                    (0..48).find(|&a| legal >> a & 1 == 0).unwrap()
                } else {
                    legal.trailing_zeros() as usize
                }
            });
            let err = r.unwrap_err();
            match &err {
                env::EnvError::InEnv { env: 9, error } => {
                    assert!(matches!(**error, env::EnvError::IllegalAction { .. }), "{err}")
                }
                _ => panic!("expected the illegal action of environment 9, got {err}"),
            }
            (steps, v.obs().to_vec(), v.mask_bits().to_vec(), err)
        })
    };
    let (steps, obs, bits, err) = run(1);
    assert_eq!(steps[9], 5);
    assert_eq!(steps[40], 5);
    assert!(steps.iter().enumerate().all(|(i, &s)| i == 9 || i == 40 || s == 128));
    // The stopped game shows its state before the illegal action: 4 legal steps from the start.
    let mut w = VecEnv::new(env::GameConfig::<Kessel>::with_players(4), 64, 8).unwrap();
    let mut n = vec![(); 64];
    w.step_many(4, &mut n, |_, d| d.mask.bits().trailing_zeros() as usize).unwrap();
    assert_eq!(
        &obs[9 * games::kessel::obs::OBS_LEN..10 * games::kessel::obs::OBS_LEN],
        &w.obs()[9 * games::kessel::obs::OBS_LEN..10 * games::kessel::obs::OBS_LEN]
    );
    let (steps2, obs2, bits2, err2) = run(2);
    assert_eq!((steps, bits), (steps2, bits2));
    assert!(obs.iter().zip(&obs2).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert_eq!(err, err2);
    let mut v = VecEnv::new(env::GameConfig::<Kessel>::with_players(4), 4, 8).unwrap();
    let mut short = vec![(); 3];
    assert!(matches!(v.step_many(1, &mut short, |_, _| 0), Err(env::EnvError::BatchSize { .. })));
}
