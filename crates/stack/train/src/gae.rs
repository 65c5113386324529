//! Generalised advantage estimation over one seat's own decisions.
//!
//! In a turn-based multi-agent game a seat's trajectory is the sequence of *its* decisions; the
//! other seats' moves are part of the environment between them. So GAE runs per (game, seat)
//! chain, with the value of the seat's next decision as the bootstrap.

/// One decision of a chain, as GAE needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaeStep {
    /// Reward received after this decision and before the seat's next one.
    pub reward: f32,
    /// Critic value at this decision.
    pub value: f32,
    /// The game ended after this decision (no bootstrap).
    pub done: bool,
}

/// Advantages and returns (advantage + value) of a chain; `bootstrap` is the value of the
/// decision that follows the last step when that step is not `done` (the chain was cut).
pub fn gae(chain: &[GaeStep], bootstrap: f32, gamma: f32, lambda: f32) -> (Vec<f32>, Vec<f32>) {
    let n = chain.len();
    let mut adv = vec![0.0f32; n];
    let mut next_adv = 0.0f32;
    for i in (0..n).rev() {
        let s = chain[i];
        let next_value = if i + 1 < n { chain[i + 1].value } else { bootstrap };
        let nonterminal = if s.done { 0.0 } else { 1.0 };
        let delta = s.reward + gamma * next_value * nonterminal - s.value;
        next_adv = delta + gamma * lambda * nonterminal * next_adv;
        adv[i] = next_adv;
    }
    let ret = adv.iter().zip(chain).map(|(a, s)| a + s.value).collect();
    (adv, ret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_reward_is_discounted_back_with_lambda_one() {
        let chain = [
            GaeStep { reward: 0.0, value: 0.0, done: false },
            GaeStep { reward: 0.0, value: 0.0, done: false },
            GaeStep { reward: 1.0, value: 0.0, done: true },
        ];
        let (adv, ret) = gae(&chain, 123.0, 0.5, 1.0);
        assert_eq!(adv, vec![0.25, 0.5, 1.0]);
        assert_eq!(ret, adv);
    }

    #[test]
    fn cut_chain_bootstraps_and_lambda_zero_is_td() {
        let chain =
            [GaeStep { reward: 0.0, value: 0.2, done: false }, GaeStep { reward: 0.5, value: 0.1, done: false }];
        let (adv, ret) = gae(&chain, 1.0, 0.9, 0.0);
        // TD errors: 0 + 0.9*0.1 - 0.2 and 0.5 + 0.9*1.0 - 0.1.
        assert!((adv[0] - (0.09 - 0.2)).abs() < 1e-6);
        assert!((adv[1] - 1.3).abs() < 1e-6);
        assert!((ret[1] - 1.4).abs() < 1e-6);
    }

    #[test]
    fn done_blocks_bootstrap_and_later_steps() {
        let chain = [GaeStep { reward: -1.0, value: 0.3, done: true }];
        let (adv, _) = gae(&chain, 50.0, 0.99, 0.95);
        assert!((adv[0] - (-1.3)).abs() < 1e-6);
    }
}
