//! The average policy of several agents, as fictitious play defines it, for games small enough
//! to walk ([`Game::deals`]).
//!
//! Self-play can cycle in imperfect-information games: the current policy chases its last best
//! response while the *average* of the policies it went through approaches an equilibrium
//! (fictitious play; NFSP keeps a network of it). Averaging is not taken action by action: at an
//! information set each member's distribution counts in proportion to how often that member
//! itself would have reached the set (its own reach: the product of its probabilities of the
//! seat's earlier actions there, the same for every history of the set by perfect recall).
//! Playing the result is then the same, in every outcome, as drawing one member at the start of
//! a game and playing it throughout (Kuhn's theorem). A set none of the members reaches takes the
//! members' plain mean.

use crate::exploitability::{ExploitabilityError, MAX_HISTORIES, after, distribution, infoset_key};
use crate::table::TablePolicy;
use game::{Agent, Game, LegalMask};
use std::collections::HashMap;

/// Per information set: the reach-weighted sum of the members' distributions, the sum of the
/// weights, and the members' mean by their weights alone (for a set none of them reaches).
struct Sums {
    weighted: Vec<f64>,
    weight: f64,
    mean: Vec<f64>,
}

/// The walk: every history of every deal, with each member's own reach at each seat.
struct Averaging<'a, G: Game> {
    members: &'a mut [Box<dyn Agent<G>>],
    /// Each member's share of the mixture, summing to 1.
    weights: Vec<f64>,
    /// Each member's distribution per information set, asked once.
    cache: HashMap<String, Vec<Vec<f64>>>,
    sums: HashMap<String, Sums>,
    histories: usize,
}

impl<G: Game> Averaging<'_, G> {
    /// `reach[k][seat]`: member `k`'s probability of the seat's own actions so far.
    fn walk(&mut self, state: &G::State, chance: f64, reach: &[Vec<f64>]) -> Result<(), ExploitabilityError> {
        self.histories += 1;
        if self.histories > MAX_HISTORIES {
            return Err(ExploitabilityError::TooLarge(MAX_HISTORIES));
        }
        let Some(actor) = G::current_player(state) else { return Ok(()) };
        let view = G::view(state, actor);
        let key = infoset_key::<G>(&view);
        let legal = G::legal_mask(state);
        if !self.cache.contains_key(&key) {
            let mut dists = Vec::with_capacity(self.members.len());
            for member in self.members.iter_mut() {
                dists.push(distribution::<G>(&mut **member, &view, legal)?);
            }
            self.cache.insert(key.clone(), dists);
        }
        let dists = &self.cache[&key];
        let shares = &self.weights;
        let sums = self.sums.entry(key.clone()).or_insert_with(|| Sums {
            weighted: vec![0.0; G::SPEC.num_actions],
            weight: 0.0,
            mean: (0..G::SPEC.num_actions)
                .map(|i| dists.iter().zip(shares).map(|(d, w)| w * d[i]).sum::<f64>())
                .collect(),
        });
        for (d, r) in dists.iter().zip(reach) {
            let w = chance * r[actor.index()];
            sums.weight += w;
            for (s, p) in sums.weighted.iter_mut().zip(d) {
                *s += w * p;
            }
        }
        let dists = dists.clone();
        for i in legal.index_list() {
            let next: Vec<Vec<f64>> = reach
                .iter()
                .zip(&dists)
                .map(|(r, d)| {
                    let mut r = r.clone();
                    r[actor.index()] *= d[i];
                    r
                })
                .collect();
            self.walk(&after::<G>(state, i), chance, &next)?;
        }
        Ok(())
    }
}

/// The average policy of `members` (each weighted equally) at a table of game `G` under
/// `rules`, named `name`.
pub fn average<G: Game>(
    name: &str,
    members: &mut [Box<dyn Agent<G>>],
    rules: &G::Rules,
) -> Result<TablePolicy<G>, ExploitabilityError> {
    let equal = vec![1.0; members.len()];
    average_weighted(name, members, &equal, rules)
}

/// The mixture of `members` in proportion to `weights` (one per member, non-negative, not all
/// zero), as one policy: the same as drawing member `k` with probability `weights[k] / sum` at
/// the start of a game and playing it throughout. A meta-game's equilibrium over a population of
/// policies (PSRO) is such a mixture.
pub fn average_weighted<G: Game>(
    name: &str,
    members: &mut [Box<dyn Agent<G>>],
    weights: &[f64],
    rules: &G::Rules,
) -> Result<TablePolicy<G>, ExploitabilityError> {
    let deals = G::deals(rules).ok_or(ExploitabilityError::NotEnumerable { game: G::NAME })?;
    let total: f64 = weights.iter().sum();
    if weights.len() != members.len() || weights.iter().any(|w| !w.is_finite() || *w < 0.0) || total <= 0.0 {
        return Err(ExploitabilityError::Weights(format!(
            "{} weights for {} agents ({weights:?}): a mixture needs one per agent, each finite and at least 0, not all 0",
            weights.len(),
            members.len()
        )));
    }
    let weights: Vec<f64> = weights.iter().map(|w| w / total).collect();
    let seats = usize::from(G::players(rules));
    // Each member's own reach starts at its share: its contributions then count in proportion.
    let reach: Vec<Vec<f64>> = weights.iter().map(|w| vec![*w; seats]).collect();
    let mut walk = Averaging::<G> { members, weights, cache: HashMap::new(), sums: HashMap::new(), histories: 0 };
    for (p, s) in &deals {
        walk.walk(s, *p, &reach)?;
    }
    let table = walk
        .sums
        .into_iter()
        .map(|(key, s)| {
            let d = if s.weight > 0.0 { s.weighted.iter().map(|x| x / s.weight).collect() } else { s.mean };
            (key, d)
        })
        .collect();
    Ok(TablePolicy::from_table(name, table))
}
