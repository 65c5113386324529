//! The statistics every table that claims significance relies on, beyond the single test of
//! [`eval::student_t`]: Welch's test between two reported figures, Holm's step-down correction
//! for a family of tests, and percentile-bootstrap intervals on ranks.
//!
//! - **Holm** (1979): with `m` p-values sorted ascending, `p₍ᵢ₎` is adjusted to
//!   `max_{j ≤ i} min(1, (m − j + 1) · p₍ⱼ₎)`. Rejecting every test whose adjusted value is at
//!   most `α` keeps the chance of *any* false rejection in the family at most `α`, whatever the
//!   dependence between the tests (family-wise error rate).
//! - **Rank intervals.** The ranks of `k` arms measured on the same units (deals, positions) are
//!   resampled by drawing units with replacement (the same units for every arm, which keeps their
//!   pairing), ranking the resampled means, and taking the 2.5% and 97.5% percentiles of each
//!   arm's rank.

use eval::student_t::{t_two_sided, t95};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The significance level of every test in the reports.
pub const ALPHA: f64 = 0.05;

/// The two-sided p-value for "two independent figures are equal", each reported as a mean with
/// a 95% Student-t interval of half width `half` on `n` observations of outcomes spanning at
/// most `range`: Welch's statistic `(mean_a − mean_b) / √(se_a² + se_b²)` against Student's t
/// with the smaller sample's `n − 1` degrees of freedom (conservative). A side whose
/// observations were all the same has no spread estimate; it gets the rule-of-three bound (a
/// different value has probability at most 3/n at 95%), `se = range · √3 / n`, so two equal
/// observations are not taken for certainty while thousands of exact zeros (an agent that
/// never plays a token) still are. Fewer than 2 observations on either side give 1.
pub fn p_difference(a: (f64, f64, u64), b: (f64, f64, u64), range: f64) -> f64 {
    let ((ma, ha, na), (mb, hb, nb)) = (a, b);
    if na < 2 || nb < 2 || !ha.is_finite() || !hb.is_finite() {
        return 1.0;
    }
    let se = |h: f64, n: u64| if h > 0.0 { h / t95(n - 1) } else { range * 3f64.sqrt() / n as f64 };
    let s = (se(ha, na).powi(2) + se(hb, nb).powi(2)).sqrt();
    if s <= 0.0 {
        return 1.0;
    }
    t_two_sided((ma - mb) / s, na.min(nb) - 1)
}

/// Holm's step-down adjusted p-values, in the order given (module documentation). A NaN is
/// treated as 1.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let clean: Vec<f64> = p.iter().map(|&x| if x.is_nan() { 1.0 } else { x.clamp(0.0, 1.0) }).collect();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| clean[a].total_cmp(&clean[b]).then(a.cmp(&b)));
    let mut out = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (j, &i) in order.iter().enumerate() {
        running = running.max(((m - j) as f64 * clean[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// A percentile-bootstrap 95% interval on an arm's rank (1 = the highest mean).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RankInterval {
    /// The rank on the data as measured.
    pub rank: usize,
    /// 2.5th percentile of the bootstrap ranks.
    pub low: usize,
    /// 97.5th percentile of the bootstrap ranks.
    pub high: usize,
}

/// Ranks of `values` (1 = highest; ties share the better rank).
fn ranks(values: &[f64]) -> Vec<usize> {
    values.iter().map(|&v| 1 + values.iter().filter(|&&w| w > v).count()).collect()
}

/// Bootstrap rank intervals of `k` arms observed on the same `n` units: `samples[a][u]` is arm
/// `a`'s outcome on unit `u` (every arm must have the same number of units, at least 1). Each of
/// `resamples` rounds draws `n` units with replacement from a generator seeded by `seed`.
pub fn bootstrap_ranks(samples: &[Vec<f64>], resamples: usize, seed: u64) -> Vec<RankInterval> {
    let k = samples.len();
    let n = samples.first().map_or(0, Vec::len);
    assert!(samples.iter().all(|s| s.len() == n), "every arm is observed on the same units");
    let means: Vec<f64> = samples.iter().map(|s| s.iter().sum::<f64>() / n.max(1) as f64).collect();
    let point = ranks(&means);
    if n == 0 || resamples == 0 {
        return point.iter().map(|&r| RankInterval { rank: r, low: 1, high: k }).collect();
    }
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut seen: Vec<Vec<usize>> = vec![Vec::with_capacity(resamples); k];
    let mut sums = vec![0.0; k];
    let mut draw = vec![0usize; n];
    for _ in 0..resamples {
        for d in draw.iter_mut() {
            *d = rng.random_range(0..n);
        }
        for (a, s) in samples.iter().enumerate() {
            sums[a] = draw.iter().map(|&u| s[u]).sum();
        }
        for (a, r) in ranks(&sums).into_iter().enumerate() {
            seen[a].push(r);
        }
    }
    seen.iter_mut()
        .zip(point)
        .map(|(v, rank)| {
            v.sort_unstable();
            let at = |q: f64| v[((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
            RankInterval { rank, low: at(0.025), high: at(0.975) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_difference_of_two_large_samples_is_a_z_test() {
        // se 1 on each side (half width 1.96 at large n): a difference of 1.96 · √2 has p 0.05.
        let n = 1_000_000;
        let p = p_difference((1.96 * 2f64.sqrt(), 1.96, n), (0.0, 1.96, n), 2.0);
        assert!((p - 0.05).abs() < 1e-3, "{p}");
        // Symmetric, 1 for equal means, and 1 without a sample.
        assert_eq!(p_difference((0.0, 1.96, n), (1.96 * 2f64.sqrt(), 1.96, n), 2.0), p);
        assert_eq!(p_difference((0.3, 0.1, 50), (0.3, 0.2, 80), 2.0), 1.0);
        assert_eq!(p_difference((0.5, 0.1, 1), (0.0, 0.1, 64), 2.0), 1.0);
        // Two identical observations are no evidence (rule of three: se = 2 · √3 / 2)...
        assert!(p_difference((0.5, 0.0, 2), (0.0, 0.05, 64), 2.0) > 0.5);
        // ...but 6,000 exact zeros against +5 [+2, +8] over 1,000 deals are.
        assert!(p_difference((0.0, 0.0, 6_000), (0.05, 0.03, 1_000), 2.0) < 0.01);
    }

    #[test]
    fn holm_matches_a_hand_computation() {
        // Sorted 0.01, 0.02, 0.03, 0.04, 0.20 (m = 5): 0.05, 0.08, 0.09, 0.09 (monotone), 0.20.
        let adj = holm(&[0.04, 0.01, 0.20, 0.03, 0.02]);
        let want = [0.09, 0.05, 0.20, 0.09, 0.08];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{adj:?}");
        }
        // Capped at 1; a single test is not adjusted; NaN counts as 1.
        assert_eq!(holm(&[0.5, 0.6]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.03]), vec![0.03]);
        assert_eq!(holm(&[f64::NAN, 0.01]), vec![1.0, 0.02]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn ranks_share_the_better_rank_on_ties() {
        assert_eq!(ranks(&[0.1, 0.5, 0.5, 0.2]), vec![4, 1, 1, 3]);
    }

    #[test]
    fn well_separated_arms_have_tight_rank_intervals_and_close_ones_overlap() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let n = 400;
        let arm = |m: f64, rng: &mut Pcg64Mcg| -> Vec<f64> {
            (0..n).map(|_| if rng.random::<f64>() < m { 1.0 } else { 0.0 }).collect()
        };
        let samples = vec![arm(0.9, &mut rng), arm(0.5, &mut rng), arm(0.1, &mut rng), arm(0.505, &mut rng)];
        let r = bootstrap_ranks(&samples, 500, 9);
        assert_eq!(r[0], RankInterval { rank: 1, low: 1, high: 1 });
        assert_eq!((r[2].low, r[2].high), (4, 4));
        // Arms 1 and 3 (0.5 and 0.505) cannot be told apart: both intervals span ranks 2 and 3.
        assert_eq!((r[1].low, r[1].high), (2, 3));
        assert_eq!((r[3].low, r[3].high), (2, 3));
        // Reproducible from the seed.
        assert_eq!(r, bootstrap_ranks(&samples, 500, 9));
    }
}
