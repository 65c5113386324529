//! The paired estimator: the mean of per-deal differences between two arms with a 95% interval,
//! set beside the unpaired interval from the very same games, so a report shows what pairing
//! buys.
//!
//! With `n` deals and differences `d_i = a_i − b_i`, the paired interval is
//! `d̄ ± t(n−1) · s_d / √n` (Student's t; the normal value for large `n`). The unpaired interval
//! treats the arms as two independent samples of `n` games: `ā − b̄ ± t(2n−2) · √(s_a²/n + s_b²/n)`.
//! When the arms are positively correlated (the same deal helps or hurts both), `s_d² =
//! s_a² + s_b² − 2 cov(a, b)` is smaller, and so is the paired interval.

use crate::student_t::{p_from_interval, t95};
use serde::{Deserialize, Serialize};

/// A difference between two arms with its paired and unpaired 95% intervals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    /// Deals (pairs of games).
    pub n: u64,
    /// Mean of arm A.
    pub mean_a: f64,
    /// Mean of arm B.
    pub mean_b: f64,
    /// Mean difference A − B.
    pub diff: f64,
    /// Paired 95% interval, lower bound.
    pub low: f64,
    /// Paired 95% interval, upper bound.
    pub high: f64,
    /// Unpaired 95% interval (the same games as independent samples), lower bound.
    pub unpaired_low: f64,
    /// Unpaired 95% interval, upper bound.
    pub unpaired_high: f64,
}

impl Paired {
    /// Half the width of the paired interval.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Half the width of the unpaired interval.
    pub fn unpaired_half_width(&self) -> f64 {
        (self.unpaired_high - self.unpaired_low) / 2.0
    }

    /// Two-sided p-value of the paired test "the difference is 0" (uncorrected).
    pub fn p_value(&self) -> f64 {
        p_from_interval(self.diff, self.half_width(), self.n)
    }
}

/// Running sums for a paired comparison; push one deal at a time (`a`, `b`: the two arms'
/// outcomes on that deal), in any order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairedSums {
    n: u64,
    sa: f64,
    sb: f64,
    saa: f64,
    sbb: f64,
    sab: f64,
}

impl PairedSums {
    /// Adds one deal.
    pub fn push(&mut self, a: f64, b: f64) {
        self.n += 1;
        self.sa += a;
        self.sb += b;
        self.saa += a * a;
        self.sbb += b * b;
        self.sab += a * b;
    }

    /// Deals added.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The estimate (intervals are infinite with fewer than 2 deals).
    pub fn estimate(&self) -> Paired {
        let n = self.n as f64;
        if self.n == 0 {
            return Paired {
                n: 0,
                mean_a: 0.0,
                mean_b: 0.0,
                diff: 0.0,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
                unpaired_low: f64::NEG_INFINITY,
                unpaired_high: f64::INFINITY,
            };
        }
        let (ma, mb) = (self.sa / n, self.sb / n);
        let diff = ma - mb;
        // Sample variances (n − 1 denominators), clamped at 0 against rounding.
        let var = |s2: f64, m: f64| if self.n > 1 { ((s2 - n * m * m) / (n - 1.0)).max(0.0) } else { f64::INFINITY };
        let (va, vb) = (var(self.saa, ma), var(self.sbb, mb));
        let cov = if self.n > 1 { (self.sab - n * ma * mb) / (n - 1.0) } else { 0.0 };
        let vd = if self.n > 1 { (va + vb - 2.0 * cov).max(0.0) } else { f64::INFINITY };
        let half = t95(self.n - 1) * (vd / n).sqrt();
        let half_u = t95(2 * self.n - 2) * ((va + vb) / n).sqrt();
        // Exact zeros stay exact zeros: identical arms give [0, 0], not [-1e-17, 1e-17].
        let (low, high) = if vd == 0.0 { (diff, diff) } else { (diff - half, diff + half) };
        Paired {
            n: self.n,
            mean_a: ma,
            mean_b: mb,
            diff,
            low,
            high,
            unpaired_low: diff - half_u,
            unpaired_high: diff + half_u,
        }
    }
}

/// The paired estimate of `a − b` over deals (`a[i]`, `b[i]` from deal `i`).
pub fn paired(a: &[f64], b: &[f64]) -> Paired {
    assert_eq!(a.len(), b.len(), "paired samples come in pairs");
    let mut s = PairedSums::default();
    for (&x, &y) in a.iter().zip(b) {
        s.push(x, y);
    }
    s.estimate()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_arms_give_an_exact_zero() {
        let a = [1.0, 0.0, 0.5, 1.0, 0.0];
        let p = paired(&a, &a);
        assert_eq!((p.diff, p.low, p.high), (0.0, 0.0, 0.0));
        assert!(p.unpaired_low < 0.0 && p.unpaired_high > 0.0);
    }

    #[test]
    fn hand_computed_difference() {
        // d = [1, 0, 1, 0]: mean 0.5, s_d = 0.57735, t(3) = 3.182.
        let p = paired(&[1.0, 1.0, 1.0, 0.0], &[0.0, 1.0, 0.0, 0.0]);
        assert!((p.diff - 0.5).abs() < 1e-12);
        let half = 3.182 * (1.0f64 / 3.0).sqrt() / 2.0;
        assert!((p.high - (0.5 + half)).abs() < 1e-9, "{p:?}");
        assert!((p.low - (0.5 - half)).abs() < 1e-9);
    }

    #[test]
    fn the_p_value_is_005_where_the_interval_touches_zero() {
        // d = [1, 0, 1, 0] (above): half width 0.9186 > 0.5, so p > 0.05; 8 such deals narrow it.
        let p = paired(&[1.0, 1.0, 1.0, 0.0], &[0.0, 1.0, 0.0, 0.0]);
        assert!(p.low < 0.0 && p.p_value() > 0.05, "{}", p.p_value());
        let a = [1.0, 1.0, 1.0, 0.0].repeat(8);
        let b = [0.0, 1.0, 0.0, 0.0].repeat(8);
        let q = paired(&a, &b);
        assert!(q.low > 0.0 && q.p_value() < 0.05, "{}", q.p_value());
        assert_eq!(paired(&a, &a).p_value(), 1.0);
    }
}
