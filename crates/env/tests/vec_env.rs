//! `VecEnv` equals N single environments stepped in the same order, bit for bit, whatever the
//! number of threads.

use env::conformance::check_vec_env;
use env::{EnvConfig, RewardMode, VecEnv};

#[test]
fn vec_env_matches_singles_with_one_thread() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| check_vec_env(&EnvConfig::with_players(4), 24, 600, 11)).unwrap();
}

#[test]
fn vec_env_matches_singles_with_all_threads() {
    check_vec_env(&EnvConfig::with_players(4), 24, 600, 11).unwrap();
    let cfg = EnvConfig::with_players(7).with_reward(RewardMode::Placement);
    check_vec_env(&cfg, 40, 400, 12).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    pool.install(|| check_vec_env(&EnvConfig::with_players(2), 33, 500, 13)).unwrap();
}

fn run_buffers(threads: usize) -> (Vec<f32>, Vec<f32>, Vec<u64>, usize) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut v = VecEnv::new(EnvConfig::with_players(5), 64, 99).unwrap();
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
    let mut v = VecEnv::new(EnvConfig::with_players(3), 4, 5).unwrap();
    let before = v.obs().to_vec();
    let mut acts: Vec<usize> = v.mask_bits().iter().map(|m| m.trailing_zeros() as usize).collect();
    let bad = (0..48).find(|&i| v.mask_bits()[2] >> i & 1 == 0).unwrap();
    acts[2] = bad;
    assert!(matches!(v.step(&acts), Err(env::EnvError::IllegalAction { .. })));
    assert_eq!(v.obs(), &before[..]);
    assert!(matches!(v.step(&acts[..3]), Err(env::EnvError::BatchSize { .. })));
    acts[2] = v.mask_bits()[2].trailing_zeros() as usize;
    v.step(&acts).unwrap();
}
