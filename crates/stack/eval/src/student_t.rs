//! Student's t: its 95 % quantile and two-sided p-values, for figures reported as a mean with a
//! 95 % interval on `n` observations. The paired estimator ([`crate::paired`]), the ship gate
//! and the token research's significance tables all read their intervals through it, so a
//! figure means the same in each.
//!
//! A figure `mean [low, high]` with a 95 % Student-t interval on `n` observations has standard
//! error `(high − low) / (2 · t95(n − 1))`; its two-sided p-value for "the mean is 0" is
//! `P(|T| ≥ |mean| / se)` with `n − 1` degrees of freedom (the sign test when every
//! observation is the same).

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
            let z = crate::stats::Z95;
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
    fn t_quantiles_join_the_table_smoothly() {
        assert_eq!(t95(30), 2.042);
        assert!((t95(31) - 2.040).abs() < 0.002, "{}", t95(31));
        assert!((t95(60) - 2.000).abs() < 0.002, "{}", t95(60));
        assert!((t95(1_000_000) - 1.96).abs() < 0.001);
    }
}
