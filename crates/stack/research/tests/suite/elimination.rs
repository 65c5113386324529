//! Successive elimination on synthetic arms with known means: it keeps its error guarantee, it
//! stops by its rule when the gaps allow, and otherwise it spends its budget.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use research::loadouts::{Elimination, radius, successive_elimination};

/// Bernoulli arms: arm `a` wins deal `d` with probability `means[a]`, from a generator seeded
/// by (run, arm, deal), so a deal's outcome does not depend on the schedule.
fn bernoulli(
    means: &[f64],
    run: u64,
) -> impl FnMut(&[usize], u64, u64) -> Result<Vec<Vec<f64>>, research::ResearchError> {
    let means = means.to_vec();
    move |arms: &[usize], first: u64, deals: u64| {
        Ok(arms
            .iter()
            .map(|&a| {
                (first..first + deals)
                    .map(|d| {
                        let mut rng = Pcg64Mcg::seed_from_u64(game::derive_seed(run * 1_000 + a as u64, d));
                        if rng.random::<f64>() < means[a] { 1.0 } else { 0.0 }
                    })
                    .collect()
            })
            .collect())
    }
}

#[test]
fn the_radius_matches_its_formula_and_shrinks_with_deals() {
    // K = 11, n = 100, δ = 0.1: sqrt(2 ln(10 · 100 · 101 / 0.1) / 100).
    let want = (2.0 * (10.0f64 * 100.0 * 101.0 / 0.1).ln() / 100.0).sqrt();
    assert!((radius(100, 11, 0.1) - want).abs() < 1e-12);
    assert!(radius(400, 11, 0.1) < radius(100, 11, 0.1));
    assert!(radius(100, 11, 0.01) > radius(100, 11, 0.1));
    assert!(radius(0, 11, 0.1).is_infinite());
}

#[test]
fn with_clear_gaps_it_stops_by_its_rule_on_the_best_arm() {
    let means = [0.30, 0.55, 0.40, 0.20, 0.45, 0.10];
    for run in 0..10 {
        let e = Elimination { arms: means.len(), budget: 1_000_000, delta: 0.05, block: 4 };
        let race = successive_elimination(&e, &mut bernoulli(&means, run)).unwrap();
        assert_eq!(race.survivors(), vec![1], "run {run}");
        assert!(race.spent < e.budget, "run {run}: stopped by its rule, not the budget");
        // Every round is whole blocks and the bookkeeping adds up.
        assert!(race.rounds.iter().all(|r| r.deals % 4 == 0));
        assert_eq!(race.rounds.iter().map(|r| r.games).sum::<u64>(), race.spent);
        assert_eq!(race.outcomes.iter().map(|o| o.len() as u64).sum::<u64>(), race.spent);
        // Worse arms go first: the worst arm is eliminated no later than the second best.
        assert!(race.eliminated[5].unwrap() <= race.eliminated[4].unwrap(), "run {run}: {:?}", race.eliminated);
    }
}

#[test]
fn the_best_arm_survives_with_the_stated_probability() {
    // A hard instance: the best arm leads the next by 3 pp, and the budget is tight, so the race
    // must act on noisy means. δ = 0.2: at most 20 % of 200 runs may lose the best arm (with
    // 3 standard errors of slack, 28 %). The bound is conservative, so in practice none does.
    let means = [0.50, 0.47, 0.47, 0.45, 0.40, 0.30, 0.30, 0.20];
    let delta = 0.2;
    let runs = 200;
    let mut lost = 0;
    let mut eliminated_some = 0;
    for run in 0..runs {
        let e = Elimination { arms: means.len(), budget: 40_000, delta, block: 2 };
        let race = successive_elimination(&e, &mut bernoulli(&means, 10_000 + run)).unwrap();
        lost += race.eliminated[0].is_some() as u32;
        eliminated_some += race.eliminated.iter().any(Option::is_some) as u32;
        // It spends its budget to within one block per survivor, or stops with one arm.
        let left = e.budget - race.spent;
        assert!(race.survivors().len() == 1 || left < 2 * race.survivors().len() as u64, "run {run}: {left} left");
    }
    assert!((lost as f64) <= runs as f64 * (delta + 0.08), "lost the best arm in {lost} of {runs} runs");
    assert_eq!(lost, 0, "the union bound is conservative: the best arm was eliminated in {lost} runs");
    assert_eq!(eliminated_some, runs as u32, "every run eliminated the clearly worse arms");
}

#[test]
fn equal_arms_are_never_eliminated_and_the_budget_is_spent() {
    let means = [0.4; 5];
    let e = Elimination { arms: 5, budget: 5_003, delta: 0.05, block: 4 };
    let race = successive_elimination(&e, &mut bernoulli(&means, 7)).unwrap();
    assert_eq!(race.survivors().len(), 5);
    assert!(e.budget - race.spent < 5 * 4, "{} of {} spent", race.spent, e.budget);
}

#[test]
fn a_bad_error_probability_is_refused_with_the_setting_named() {
    for delta in [0.0, 1.0, 2.0, f64::NAN] {
        let e = Elimination { arms: 3, budget: 100, delta, block: 1 };
        let err = successive_elimination(&e, &mut bernoulli(&[0.1, 0.2, 0.3], 0)).unwrap_err().to_string();
        assert!(err.starts_with("--delta:"), "{err}");
    }
}
