//! CFR+ convergence, determinism and policy files.
//!
//! Measured in the debug profile (2-core machine): the average policy's NashConv first drops
//! below 0.01 at iteration 196 (0.0100 at 200, below from 201 on; 0.0063 at 256) and the 196
//! iterations take about 0.4 s; 2048 iterations reach 0.00015.

use leduc::{CfrSolver, RuleConfig, TabularPolicy, nash_conv, solve};

fn nash_conv_of(p: &TabularPolicy) -> f64 {
    nash_conv(*p.rules(), |v, m| p.action_probs(v, m)).unwrap().nash_conv
}

#[test]
fn average_policy_nash_conv_falls_at_each_checkpoint_and_below_0_01_by_256_iterations() {
    let mut solver = CfrSolver::new(RuleConfig::default()).unwrap();
    let mut last = f64::INFINITY;
    for checkpoint in [1, 8, 32, 128, 256] {
        solver.iterate(checkpoint - solver.iterations());
        let nc = nash_conv_of(&solver.average_policy());
        assert!(nc < last, "NashConv {nc} at iteration {checkpoint} is not below {last}");
        last = nc;
    }
    assert!(last < 0.01, "NashConv {last} after 256 iterations");
}

#[test]
fn first_iteration_average_is_the_uniform_policy() {
    // Iteration 1 plays uniform strategies, so its average is uniform: OpenSpiel's figure.
    let nc = nash_conv_of(&solve(1));
    assert!((nc - 4.747222222222222).abs() < 1e-12, "{nc}");
}

#[test]
fn solving_is_deterministic_and_covers_every_information_set() {
    let a = solve(20);
    let b = solve(20);
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(a.len(), 936);
    for (key, probs) in a.iter() {
        let mask = key.decision_mask(a.rules()).unwrap();
        for (i, p) in probs.iter().enumerate() {
            assert!(mask.contains_index(i) || *p == 0.0, "{key}: illegal action {i} has {p}");
        }
    }
}

#[test]
fn policy_file_round_trips_and_evaluates_the_same() {
    let p = solve(30);
    let path = std::env::temp_dir().join(format!("leduc-policy-{}.json", std::process::id()));
    p.save(&path).unwrap();
    let back = TabularPolicy::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    // serde_json's default float parser is exact to within one unit in the last place.
    assert_eq!(back.len(), p.len());
    for ((k, a), (k2, b)) in p.iter().zip(back.iter()) {
        assert_eq!(k, k2);
        assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-15), "{k}: {a:?} read back as {b:?}");
    }
    assert!((nash_conv_of(&back) - nash_conv_of(&p)).abs() < 1e-12);
}

#[test]
#[ignore = "long: about 6 s in the debug profile"]
fn average_policy_nash_conv_is_below_0_0005_after_2048_iterations() {
    let nc = nash_conv_of(&solve(2048));
    assert!(nc < 0.0005, "{nc}");
}
