//! Inference throughput of a checkpoint (burn, as agents run it) and of its exported bundle
//! loaded back in Rust, at batch 1, 64 and 1024, on real observation rows from the bundle's
//! `reference.json`. Prints one JSON object; `export-checks/export_bench.py` runs it next to
//! onnxruntime so all figures come from one run.
//!
//! ```text
//! cargo build --release -p policy --example export_bench
//! target/release/examples/export_bench CHECKPOINT BUNDLE [SECONDS_PER_CASE]
//! ```

use std::path::Path;
use std::time::Instant;

use policy::export::{Bundle, Reference};
use policy::{Policy, cpu_device};

const BATCHES: [usize; 3] = [1, 64, 1024];

/// Rows `0..n` of the reference, cycling, as flat obs and mask.
fn batch(r: &Reference, n: usize) -> (Vec<f32>, Vec<bool>) {
    let mut obs = Vec::new();
    let mut mask = Vec::new();
    for i in 0..n {
        let k = i % r.rows.count;
        obs.extend_from_slice(&r.rows.obs[k]);
        mask.extend(r.rows.mask[k].iter().map(|&m| m != 0));
    }
    (obs, mask)
}

/// Calls `f` repeatedly for about `seconds`; returns (mean seconds per call, calls).
fn time(seconds: f64, mut f: impl FnMut()) -> (f64, u64) {
    for _ in 0..3 {
        f();
    }
    let start = Instant::now();
    let mut calls = 0u64;
    while calls < 5 || start.elapsed().as_secs_f64() < seconds {
        f();
        calls += 1;
    }
    (start.elapsed().as_secs_f64() / calls as f64, calls)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: export_bench CHECKPOINT BUNDLE [SECONDS_PER_CASE]");
        std::process::exit(2);
    }
    let seconds: f64 = args.get(3).map(|s| s.parse().expect("SECONDS_PER_CASE is a number")).unwrap_or(1.0);
    let device = cpu_device();
    let (policy, _) = Policy::from_checkpoint(
        &args[1],
        &policy::ExpectedSpec::from(<games::kessel::Kessel as game::Game>::SPEC),
        &device,
    )
    .expect("checkpoint loads");
    let bundle = Bundle::load(&args[2], &device).expect("bundle loads");
    let text = std::fs::read(Path::new(&args[2]).join("reference.json")).expect("reference.json readable");
    let reference: Reference = serde_json::from_slice(&text).expect("reference.json parses");
    let mut cases = Vec::new();
    for &n in &BATCHES {
        let (obs, mask) = batch(&reference, n);
        // Interleave the two paths so a change in machine load affects both alike.
        let mut burn = (0.0, 0u64);
        let mut back = (0.0, 0u64);
        for _ in 0..3 {
            let b = time(seconds / 3.0, || {
                std::hint::black_box(policy.log_probs_and_values(&obs, &mask, n).expect("valid batch"));
            });
            let l = time(seconds / 3.0, || {
                std::hint::black_box(bundle.forward(&obs, &mask, n).expect("valid batch"));
            });
            burn = (burn.0 + b.0 / 3.0, burn.1 + b.1);
            back = (back.0 + l.0 / 3.0, back.1 + l.1);
        }
        cases.push(serde_json::json!({
            "batch": n,
            "burn_checkpoint_us_per_call": burn.0 * 1e6,
            "burn_checkpoint_rows_per_sec": n as f64 / burn.0,
            "rust_bundle_us_per_call": back.0 * 1e6,
            "rust_bundle_rows_per_sec": n as f64 / back.0,
        }));
    }
    println!("{}", serde_json::json!({ "cases": cases }));
}
