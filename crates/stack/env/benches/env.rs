//! Criterion benches: observation encoding, one env step with encoding, a `VecEnv` step, and a
//! `VecEnv::step_many` call.

use criterion::{Criterion, criterion_group, criterion_main};
use env::VecEnv;
use games::kessel::Kessel;
use games::kessel::obs::OBS_LEN;
use games::kessel::obs::encode;
use std::hint::black_box;

fn pick(bits: u64, k: usize) -> usize {
    let mut m = bits;
    for _ in 0..k % bits.count_ones() as usize {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

fn benches(c: &mut Criterion) {
    let cfg = env::GameConfig::<Kessel>::with_players(4);
    let mut e = env::Env::<Kessel>::new(cfg).unwrap();
    let mut ts = e.reset(1);
    for k in 0..5 {
        ts = e.step(pick(ts.mask.bits(), k)).unwrap();
    }
    let seat = ts.actor.unwrap();
    let mut obs = vec![0.0f32; OBS_LEN];
    c.bench_function("view+encode (4 players)", |b| {
        b.iter(|| {
            encode(&e.state().view(black_box(seat)), &mut obs);
            black_box(&obs);
        })
    });

    let mut e = env::Env::<Kessel>::new(cfg).unwrap();
    let mut ts = e.reset(2);
    let (mut k, mut seed) = (0usize, 2u64);
    c.bench_function("step_into random (4 players)", |b| {
        b.iter(|| {
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ts = e.step_into(pick(ts.mask.bits(), k >> 33), &mut obs).unwrap();
            if ts.done() {
                seed += 1;
                ts = e.reset_into(seed, &mut obs);
            }
        })
    });

    let n = 256 * rayon::current_num_threads();
    let mut v = VecEnv::new(cfg, n, 3).unwrap();
    let mut acts = vec![0usize; n];
    let mut k = 0usize;
    c.bench_function(&format!("vec_env step ({n} envs)"), |b| {
        b.iter(|| {
            for (a, &m) in acts.iter_mut().zip(v.mask_bits()) {
                k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *a = pick(m, k >> 33);
            }
            v.step(&acts).unwrap();
        })
    });

    let mut v = VecEnv::new(cfg, n, 4).unwrap();
    let mut rngs: Vec<u64> = (0..n as u64).map(|i| env::seed::splitmix64(i) | 1).collect();
    let k = env::bench::VEC_STEPS_PER_CALL;
    c.bench_function(&format!("vec_env step_many ({n} envs x {k} steps)"), |b| {
        b.iter(|| v.step_many(k, &mut rngs, |rng, d| env::bench::pick(d.mask.bits(), rng)).unwrap())
    });
}

criterion_group!(env_benches, benches);
criterion_main!(env_benches);
