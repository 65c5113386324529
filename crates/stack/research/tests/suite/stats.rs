//! Properties of Holm's correction: what it must do for every family of p-values, and the
//! family-wise error rate it promises, checked by simulation.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use research::stats::{ALPHA, holm};

proptest! {
    #[test]
    fn holm_lies_between_the_raw_p_values_and_bonferroni_and_keeps_their_order(
        p in proptest::collection::vec(0.0f64..=1.0, 1..40)
    ) {
        let m = p.len() as f64;
        let adj = holm(&p);
        prop_assert_eq!(adj.len(), p.len());
        for (i, (&a, &raw)) in adj.iter().zip(&p).enumerate() {
            prop_assert!(a >= raw, "{i}: {a} < {raw}");
            prop_assert!(a <= (m * raw).min(1.0) + 1e-12, "{i}: {a} above Bonferroni");
            for (j, &b) in adj.iter().enumerate() {
                if p[i] < p[j] {
                    prop_assert!(a <= b, "order broken at {i}, {j}");
                }
            }
        }
        // The smallest p-value is adjusted by exactly m (Bonferroni's step).
        let (k, &min) = p.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).unwrap();
        prop_assert!((adj[k] - (m * min).min(1.0)).abs() < 1e-12);
    }
}

#[test]
fn holm_keeps_the_family_wise_error_rate_under_the_null_where_raw_tests_do_not() {
    // 16 true null hypotheses (uniform p-values), 4,000 families.
    let mut rng = Pcg64Mcg::seed_from_u64(17);
    let (families, m) = (4_000, 16);
    let (mut raw_any, mut holm_any) = (0, 0);
    for _ in 0..families {
        let p: Vec<f64> = (0..m).map(|_| rng.random::<f64>()).collect();
        raw_any += p.iter().any(|&x| x <= ALPHA) as u32;
        holm_any += holm(&p).iter().any(|&x| x <= ALPHA) as u32;
    }
    let raw_rate = raw_any as f64 / families as f64;
    let holm_rate = holm_any as f64 / families as f64;
    // Uncorrected: 1 − 0.95^16 = 56 %. Holm: at most 5 % (here ≈ 4.9 %; 3 standard errors: 1 %).
    assert!((raw_rate - 0.56).abs() < 0.03, "raw {raw_rate}");
    assert!(holm_rate <= ALPHA + 0.01, "holm {holm_rate}");
}

#[test]
fn holm_finds_strong_effects_among_nulls() {
    // Three real effects (p = 1e-6) among 13 nulls: all three survive.
    let mut p = vec![0.2, 0.5, 0.04, 0.9, 0.3, 0.03, 0.7, 0.6, 0.11, 0.8, 0.45, 0.05, 0.99];
    p.extend([1e-6, 2e-6, 3e-6]);
    let adj = holm(&p);
    assert!(adj[13..].iter().all(|&a| a <= ALPHA));
    assert!(adj[..13].iter().all(|&a| a > ALPHA), "{adj:?}");
}
