//! What a tabular policy's information sets are worth, and how often play reaches them: the
//! quantities the tabular studies of learning dynamics (`examples/entropy_floor.rs`,
//! `examples/reach_weighting.rs`) update a policy from, with chance enumerated.

use crate::action::{ActionMask, NUM_ACTIONS};
use crate::config::PLAYERS;
use crate::tree::{GameTree, NO_CHILD, Node};

/// Action probabilities at one information set, indexed like [`crate::Action`].
pub type Probs = [f64; NUM_ACTIONS];

/// Per information set (indexed like [`GameTree::infosets`]) under a policy.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoSetValues {
    /// Expected chips of each action for the seat acting there, over the set's histories weighted
    /// by chance's and the opponent's reach (0 for illegal actions and unreached sets).
    pub q: Vec<Probs>,
    /// Chance's and the opponent's reach, summed over the set's histories: how often the set is
    /// reached when the acting seat plays towards it.
    pub others_reach: Vec<f64>,
    /// The acting seat's own reach: the product of its probabilities of its earlier actions,
    /// the same for every history of the set (perfect recall).
    pub own_reach: Vec<f64>,
}

impl InfoSetValues {
    /// How often play reaches each set: own reach times the others' reach.
    pub fn reach(&self) -> Vec<f64> {
        self.others_reach.iter().zip(&self.own_reach).map(|(o, m)| o * m).collect()
    }
}

/// The values and reaches of every information set when both seats play `policy`.
///
/// With `explore` > 0 the reaches, and the weights of the histories within a set, are those of
/// a behaviour that deviates at each decision to a uniformly random action with that probability,
/// while the values stay those of `policy` (each set's own continuation played as the policy
/// plays): the data an exploring learner would gather about the sets it reaches.
pub fn infoset_values(tree: &GameTree, policy: &[Probs], explore: f64) -> InfoSetValues {
    let n = policy.len();
    let mut acc = Walk { policy, explore, sum: vec![[0.0; NUM_ACTIONS]; n], others: vec![0.0; n], own: vec![0.0; n] };
    for &root in tree.roots() {
        acc.walk(tree, root, [tree.deal_probability(); PLAYERS], [1.0; PLAYERS]);
    }
    let q = acc.sum.iter().zip(&acc.others).map(|(s, &w)| if w > 0.0 { s.map(|x| x / w) } else { *s }).collect();
    InfoSetValues { q, others_reach: acc.others, own_reach: acc.own }
}

/// One step of magnetic mirror descent with a uniform magnet at one information set (Sokota et
/// al., ICLR 2023): the policy moved towards its actions' values `q` by `step`, regularised by an
/// entropy bonus of `tau` chips. Its fixed point is softmax(q / tau), which a policy-gradient
/// learner with that entropy bonus also rests at.
pub fn regularised_step(p: &Probs, q: &Probs, mask: ActionMask, step: f64, tau: f64) -> Probs {
    let mut next = [0.0; NUM_ACTIONS];
    let top = mask.indices().map(|a| q[a]).fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for a in mask.indices() {
        next[a] = p[a].powf(1.0 / (1.0 + step * tau)) * ((step * (q[a] - top)) / (1.0 + step * tau)).exp();
        sum += next[a];
    }
    for a in mask.indices() {
        next[a] /= sum;
    }
    next
}

struct Walk<'a> {
    policy: &'a [Probs],
    explore: f64,
    sum: Vec<Probs>,
    others: Vec<f64>,
    own: Vec<f64>,
}

impl Walk<'_> {
    /// The value of `node` for each seat; `others` is, per seat, the reach of chance and the
    /// other seat, `mine` the seat's own reach.
    fn walk(&mut self, tree: &GameTree, node: u32, others: [f64; PLAYERS], mine: [f64; PLAYERS]) -> [f64; PLAYERS] {
        let (infoset, seat, children) = match *tree.node(node) {
            Node::Terminal { returns } => return returns,
            Node::Decision { infoset, seat, children } => (infoset as usize, seat.index(), children),
        };
        let legal = children.iter().filter(|&&c| c != NO_CHILD).count() as f64;
        let mut value = [0.0; PLAYERS];
        for (a, &child) in children.iter().enumerate() {
            if child == NO_CHILD {
                continue;
            }
            let p = self.policy[infoset][a];
            let behaviour = (1.0 - self.explore) * p + self.explore / legal;
            let mut reach = others;
            for (s, r) in reach.iter_mut().enumerate() {
                if s != seat {
                    *r *= behaviour;
                }
            }
            let mut own = mine;
            own[seat] *= behaviour;
            let v = self.walk(tree, child, reach, own);
            self.sum[infoset][a] += others[seat] * v[seat];
            for s in 0..PLAYERS {
                value[s] += p * v[s];
            }
        }
        self.others[infoset] += others[seat];
        self.own[infoset] = mine[seat];
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleConfig;
    use crate::policy::uniform;

    fn uniform_policy(tree: &GameTree) -> Vec<Probs> {
        tree.infosets().iter().map(|i| uniform(i.mask)).collect()
    }

    /// Each seat's first decisions (own reach 1 before it has acted, under uniform play): every
    /// hand reaches exactly one of them, so chance's and the opponent's reach there sums to 1,
    /// and what they are worth on average is the hand's value to the seat.
    fn first_decisions(tree: &GameTree, policy: &[Probs], v: &InfoSetValues, seat: u8) -> (f64, f64) {
        let (mut mass, mut value) = (0.0, 0.0);
        for (i, info) in tree.infosets().iter().enumerate() {
            if info.seat.0 == seat && v.own_reach[i] == 1.0 {
                mass += v.others_reach[i];
                value += v.others_reach[i] * info.mask.indices().map(|a| policy[i][a] * v.q[i][a]).sum::<f64>();
            }
        }
        (mass, value)
    }

    #[test]
    fn every_hand_reaches_one_first_decision_of_each_seat_and_their_values_sum_to_zero() {
        let tree = GameTree::build(RuleConfig::default()).expect("tree");
        let policy = uniform_policy(&tree);
        let v = infoset_values(&tree, &policy, 0.0);
        let (mass0, value0) = first_decisions(&tree, &policy, &v, 0);
        let (mass1, value1) = first_decisions(&tree, &policy, &v, 1);
        assert!((mass0 - 1.0).abs() < 1e-12 && (mass1 - 1.0).abs() < 1e-12, "{mass0} {mass1}");
        assert!((value0 + value1).abs() < 1e-12, "zero-sum: {value0} + {value1}");
        assert!(value0.abs() > 1e-6, "seating matters under uniform play: {value0}");
        // The same figure from the exploitability module's own walk of the game, state by state.
        let walked = crate::exploitability::policy_values(*tree.rules(), &|_: &crate::PlayerView, m| uniform(m))
            .expect("uniform play is a policy");
        assert!((value0 - walked[0]).abs() < 1e-12, "{value0} against {}", walked[0]);
    }

    #[test]
    fn exploring_always_is_uniform_play_whatever_the_policy() {
        let tree = GameTree::build(RuleConfig::default()).expect("tree");
        let uniform = infoset_values(&tree, &uniform_policy(&tree), 0.0);
        let first_action: Vec<Probs> = tree
            .infosets()
            .iter()
            .map(|i| {
                let mut p = [0.0; NUM_ACTIONS];
                p[i.mask.indices().next().expect("a legal action")] = 1.0;
                p
            })
            .collect();
        let explored = infoset_values(&tree, &first_action, 1.0);
        for (a, b) in explored.reach().iter().zip(uniform.reach()) {
            assert!((a - b).abs() < 1e-12, "{a} against {b}");
        }
        // Without exploring, that policy never reaches a raise: some sets go unreached.
        let plain = infoset_values(&tree, &first_action, 0.0);
        assert!(plain.reach().contains(&0.0));
    }
}
