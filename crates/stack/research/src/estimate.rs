//! A mean with its 95% interval (Student's t, as the paired estimator uses), for samples that are
//! not pairs: the timing study's per-position advantages and per-branch outcomes.

use eval::student_t::{p_from_interval, t95};
use serde::{Deserialize, Serialize};

/// A sample mean with a 95% Student-t interval (sample standard deviation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The sample mean (0 for an empty sample).
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Sample size.
    pub n: u64,
}

impl Estimate {
    /// The mean of `xs` with its interval; a sample of one has a zero-width interval only if
    /// there is nothing to estimate the spread from, so it is reported as unbounded instead.
    pub fn of(xs: &[f64]) -> Estimate {
        let n = xs.len();
        if n == 0 {
            return Estimate { mean: 0.0, low: f64::NEG_INFINITY, high: f64::INFINITY, n: 0 };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return Estimate { mean, low: f64::NEG_INFINITY, high: f64::INFINITY, n: 1 };
        }
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        let half = t95(n as u64 - 1) * (var / n as f64).sqrt();
        Estimate { mean, low: mean - half, high: mean + half, n: n as u64 }
    }

    /// Half the interval's width.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Two-sided p-value of "the mean is 0" (uncorrected; see [`crate::stats`]).
    pub fn p_value(&self) -> f64 {
        p_from_interval(self.mean, self.half_width(), self.n)
    }

    /// `+1.2 [−0.3, +2.7]` with values scaled by `scale` (100 for percentage points).
    pub fn display(&self, scale: f64, decimals: usize) -> String {
        if self.n < 2 {
            return format!("{:+.*} (n={})", decimals, self.mean * scale, self.n);
        }
        format!(
            "{:+.*} [{:+.*}, {:+.*}]",
            decimals,
            self.mean * scale,
            decimals,
            self.low * scale,
            decimals,
            self.high * scale
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_matches_a_hand_computation() {
        // mean 2, sample variance 2.5, n 5: half width t(4) = 2.776 times sqrt(0.5).
        let e = Estimate::of(&[0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(e.mean, 2.0);
        assert!((e.half_width() - 2.776 * 0.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(e.n, 5);
    }

    #[test]
    fn a_constant_sample_has_a_zero_width_interval_and_tiny_samples_are_unbounded() {
        let e = Estimate::of(&[0.5; 10]);
        assert_eq!((e.low, e.high), (0.5, 0.5));
        assert!(Estimate::of(&[1.0]).high.is_infinite());
        assert_eq!(Estimate::of(&[]).n, 0);
    }
}
