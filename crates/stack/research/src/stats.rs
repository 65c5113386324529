//! The statistics every table that claims significance relies on: two-sided p-values from the
//! Student-t intervals the studies report, Holm's step-down correction for a family of tests,
//! and percentile-bootstrap intervals on ranks.
//!
//! - **p-values.** A figure reported as `mean [low, high]` with a 95% Student-t interval on `n`
//!   observations has standard error `(high − low) / (2 · t95(n − 1))`; its two-sided p-value
//!   for "the mean is 0" is `P(|T| ≥ |mean| / se)` with `n − 1` degrees of freedom (the sign
//!   test when every observation is the same).
//! - **Holm** (1979): with `m` p-values sorted ascending, `p₍ᵢ₎` is adjusted to
//!   `max_{j ≤ i} min(1, (m − j + 1) · p₍ⱼ₎)`. Rejecting every test whose adjusted value is at
//!   most `α` keeps the chance of *any* false rejection in the family at most `α`, whatever the
//!   dependence between the tests (family-wise error rate).
//! - **Rank intervals.** The ranks of `k` arms measured on the same units (deals, positions) are
//!   resampled by drawing units with replacement (the same units for every arm, which keeps their
//!   pairing), ranking the resampled means, and taking the 2.5% and 97.5% percentiles of each
//!   arm's rank.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The significance level of every test in the reports.
pub const ALPHA: f64 = 0.05;

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms; relative error below 1e-13).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The continued fraction `1 / (1 + d₁ / (1 + d₂ / (1 + …)))` of the regularised incomplete
/// beta function, whose terms are `d₂ₘ₊₁ = −(a+m)(a+b+m)x / ((a+2m)(a+2m+1))` and
/// `d₂ₘ = m(b−m)x / ((a+2m−1)(a+2m))`, evaluated front to back by the modified Lentz method
/// (a zero denominator is nudged to a tiny value instead of dividing by it).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let nudged = |v: f64| if v.abs() < TINY { TINY } else { v };
    let term = |k: u32| {
        let m = f64::from(k / 2);
        if k % 2 == 1 {
            -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0))
        } else {
            m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m))
        }
    };
    // Partial numerators 1, d₁, d₂, …; every partial denominator is 1.
    let (mut value, mut ratio_c, mut ratio_d) = (TINY, TINY, 0.0);
    for j in 1..=600u32 {
        let numerator = if j == 1 { 1.0 } else { term(j - 1) };
        ratio_d = 1.0 / nudged(1.0 + numerator * ratio_d);
        ratio_c = nudged(1.0 + numerator / ratio_c);
        let step = ratio_c * ratio_d;
        value *= step;
        if (step - 1.0).abs() < 1e-15 {
            break;
        }
    }
    value
}

/// The regularised incomplete beta function `I_x(a, b)`.
fn inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) { front * beta_cf(a, b, x) / a } else { 1.0 - front * beta_cf(b, a, 1.0 - x) / b }
}

/// Two-sided p-value of a Student-t statistic `t` with `df` degrees of freedom:
/// `P(|T| ≥ |t|)`. Infinite `t` gives 0; `df = 0` (nothing to estimate a spread from) gives 1.
pub fn t_two_sided(t: f64, df: u64) -> f64 {
    if df == 0 || t.is_nan() {
        return 1.0;
    }
    if t.is_infinite() {
        return 0.0;
    }
    let v = df as f64;
    inc_beta(v / 2.0, 0.5, v / (v + t * t)).clamp(0.0, 1.0)
}

/// The two-sided p-value for "the mean is 0" of a figure reported as `mean` with a 95%
/// Student-t interval of half width `half` on `n` observations (see the module documentation).
/// A zero-width interval (every observation the same) has no spread for a t test: it gives 1 at
/// a mean of 0, and otherwise the exact two-sided sign test of `n` observations of one sign,
/// `2^(1−n)`, so a tiny sample of identical values is not taken for certainty.
pub fn p_from_interval(mean: f64, half: f64, n: u64) -> f64 {
    if n < 2 || !half.is_finite() {
        return 1.0;
    }
    if half <= 0.0 {
        return if mean == 0.0 { 1.0 } else { 2f64.powi(1 - n.min(1100) as i32).min(1.0) };
    }
    let se = half / t95(n - 1);
    t_two_sided(mean / se, n - 1)
}

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

/// Two-sided 95% quantile of Student's t with `df` degrees of freedom (exact table to 30, then
/// the Cornish–Fisher expansion, within 0.001 of the true value).
pub fn t95(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            let z = eval::stats::Z95;
            let v = df as f64;
            z + (z.powi(3) + z) / (4.0 * v) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_p_values_match_tables() {
        // The 95% quantiles of the table give p = 0.05.
        for (df, t) in [(1u64, 12.706), (4, 2.776), (10, 2.228), (30, 2.042)] {
            assert!((t_two_sided(t, df) - 0.05).abs() < 2e-4, "df {df}: {}", t_two_sided(t, df));
        }
        // t(1) is Cauchy: P(|T| ≥ 1) = 1/2.
        assert!((t_two_sided(1.0, 1) - 0.5).abs() < 1e-12);
        // Large df: the normal, P(|Z| ≥ 1.96) = 0.04999579.
        assert!((t_two_sided(1.959_964, 1_000_000) - 0.05).abs() < 1e-5);
        assert_eq!(t_two_sided(0.0, 7), 1.0);
        assert_eq!(t_two_sided(f64::INFINITY, 7), 0.0);
        assert_eq!(t_two_sided(3.0, 0), 1.0);
    }

    #[test]
    fn a_95_interval_touching_zero_has_p_005() {
        let (mean, n) = (0.3, 12u64);
        let half = 0.3;
        assert!((p_from_interval(mean, half, n) - 0.05).abs() < 1e-3, "{}", p_from_interval(mean, half, n));
        assert!(p_from_interval(0.3, 0.1, n) < 0.05);
        assert!(p_from_interval(0.3, 0.5, n) > 0.05);
        assert_eq!(p_from_interval(0.0, 0.0, n), 1.0);
        // Identical observations: the sign test, 2 · 2^-12 for 12 of one sign; 1/2 for 2.
        assert_eq!(p_from_interval(0.2, 0.0, n), 1.0 / 2048.0);
        assert_eq!(p_from_interval(-0.5, 0.0, 2), 0.5);
        assert_eq!(p_from_interval(0.2, 0.1, 1), 1.0);
    }

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
