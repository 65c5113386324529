//! Measures the project's network on each compiled-in CPU backend.
//!
//! * PPO-shaped update: forward + backward + global grad clip + Adam step on a 4096 minibatch
//!   of the 192 → 256 → 256 → (48 logits, 1 value) MLP, shared and separate trunks.
//! * Inference: one forward on 64 rows plus host read-back of log-probs and values.
//!
//! Run (release!) with different feature sets to compare, e.g.
//! ```text
//! cargo run --release -p policy --example backend_bench
//! cargo run --release -p policy --example backend_bench --features mimalloc,ndarray
//! cargo run --release -p policy --example backend_bench --no-default-features --features simd,rayon
//! ```
//! Optional args: `[train_iters] [infer_iters]` (defaults 20 and 300).

use game::Game as _;
use games::kessel::Kessel;
use std::time::{Duration, Instant};

use policy::burn::optim::{AdamConfig, GradientsParams};
use policy::burn::tensor::{Bool, Int, Tensor, TensorData};
use policy::*;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: policy::MiMalloc = policy::MiMalloc;

/// The input width the figures in `src/backend.rs` were measured at, kept so they stay comparable
/// (narrower than the env's observation).
const OBS: usize = 192;
const ACT: usize = Kessel::SPEC.num_actions;
const TRAIN_BATCH: usize = 4096;
const INFER_BATCH: usize = 64;

/// Deterministic pseudo-random data (no RNG dependency needed).
fn data(n: usize, salt: u64) -> Vec<f32> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ salt;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn masks(n: usize) -> Vec<bool> {
    (0..n * ACT).map(|i| (i * 7919) % 5 != 0).collect()
}

fn summarize(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let median = times[times.len() / 2].as_secs_f64();
    let mean = times.iter().map(Duration::as_secs_f64).sum::<f64>() / times.len() as f64;
    (median, mean)
}

fn bench_train(kind: BackendKind, shared: bool, iters: usize) -> (f64, f64) {
    let device = kind.training_device();
    device.seed(0);
    let config = PolicyConfig::new(OBS, ACT).with_shared_trunk(shared);
    let mut model = ActorCritic::new(&config, &device).unwrap();
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let obs = Tensor::<2>::from_data(TensorData::new(data(TRAIN_BATCH * OBS, 1), [TRAIN_BATCH, OBS]), &device);
    let mask = Tensor::<2, Bool>::from_data(TensorData::new(masks(TRAIN_BATCH), [TRAIN_BATCH, ACT]), &device);
    let mask_v = masks(TRAIN_BATCH);
    let actions: Vec<i64> = (0..TRAIN_BATCH)
        .map(|r| (0..ACT).map(|a| (a + r) % ACT).find(|&a| mask_v[r * ACT + a]).unwrap() as i64)
        .collect();
    let actions = Tensor::<1, Int>::from_data(TensorData::new(actions, [TRAIN_BATCH]), &device);
    let old_logp = Tensor::<1>::from_data(TensorData::new(vec![-3.0f32; TRAIN_BATCH], [TRAIN_BATCH]), &device);
    let adv = Tensor::<1>::from_data(TensorData::new(data(TRAIN_BATCH, 2), [TRAIN_BATCH]), &device);
    let ret = Tensor::<1>::from_data(TensorData::new(data(TRAIN_BATCH, 3), [TRAIN_BATCH]), &device);

    let mut times = Vec::new();
    for i in 0..iters + 3 {
        let start = Instant::now();
        let (logits, value) = model.forward(obs.clone());
        let m = masked_logits(logits, mask.clone());
        let logp = log_prob(m.clone(), actions.clone());
        let ratio = (logp - old_logp.clone()).exp();
        let pg1 = ratio.clone() * adv.clone();
        let pg2 = ratio.clamp(0.8, 1.2) * adv.clone();
        let pg_loss = -pg1.min_pair(pg2).mean();
        let v_loss = (value - ret.clone()).powi_scalar(2).mean() * 0.5;
        let ent = entropy(m, mask.clone()).mean();
        let loss = pg_loss + v_loss * 0.5 - ent * 0.01;
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        let (grads, _norm) = clip_grad_norm(&model, grads, 0.5);
        model = optim.step(2.5e-4, model, grads);
        device.sync().unwrap();
        if i >= 3 {
            times.push(start.elapsed());
        }
    }
    summarize(times)
}

fn bench_infer(kind: BackendKind, shared: bool, iters: usize) -> (f64, f64) {
    let device = kind.device();
    device.seed(0);
    let config = PolicyConfig::new(OBS, ACT).with_shared_trunk(shared);
    let model = ActorCritic::new(&config, &device).unwrap();
    let policy = Policy::new(&model, &device);
    let obs = data(INFER_BATCH * OBS, 4);
    let mask = masks(INFER_BATCH);
    let mut times = Vec::new();
    for i in 0..iters + 10 {
        let start = Instant::now();
        let (lp, v) = policy.log_probs_and_values(&obs, &mask, INFER_BATCH).unwrap();
        std::hint::black_box((lp, v));
        if i >= 10 {
            times.push(start.elapsed());
        }
    }
    summarize(times)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let train_iters: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let infer_iters: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let features: Vec<&str> = [
        ("simd", cfg!(feature = "simd")),
        ("rayon", cfg!(feature = "rayon")),
        ("x86-v4", cfg!(feature = "x86-v4")),
        ("mimalloc", cfg!(feature = "mimalloc")),
        ("ndarray", cfg!(feature = "ndarray")),
    ]
    .into_iter()
    .filter_map(|(n, on)| on.then_some(n))
    .collect();
    #[cfg(target_arch = "x86_64")]
    let avx512 = std::arch::is_x86_feature_detected!("avx512f");
    #[cfg(not(target_arch = "x86_64"))]
    let avx512 = false;
    println!(
        "features: [{}]  cpu avx512f: {avx512}  threads: {}",
        features.join(", "),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "{:<8} {:<9} {:>16} {:>16} {:>17} {:>17}",
        "backend", "trunk", "train med (ms)", "train mean (ms)", "infer64 med (us)", "infer64 mean (us)"
    );
    for kind in BackendKind::available() {
        if matches!(kind.name(), "wgpu" | "cuda") {
            continue;
        }
        for shared in [true, false] {
            let (tm, ta) = bench_train(kind, shared, train_iters);
            let (im, ia) = bench_infer(kind, shared, infer_iters);
            println!(
                "{:<8} {:<9} {:>16.1} {:>16.1} {:>17.0} {:>17.0}",
                kind.name(),
                if shared { "shared" } else { "separate" },
                tm * 1e3,
                ta * 1e3,
                im * 1e6,
                ia * 1e6
            );
        }
    }
}
