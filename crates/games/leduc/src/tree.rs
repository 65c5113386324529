//! The whole game tree with chance enumerated: one subtree per deal, decision nodes labelled
//! with a dense information-state index.
//!
//! Built once from [`State`] (so it follows the rules exactly), it lets the CFR+ solver walk
//! arrays instead of replaying states and hashing keys on every iteration.

use crate::action::{ActionMask, NUM_ACTIONS};
use crate::config::PLAYERS;
use crate::config::{ConfigError, RuleConfig};
use crate::deal::Deal;
use crate::infoset::InfoKey;
use crate::state::State;
use game::Seat;
use std::collections::HashMap;

/// Marks an illegal action's missing child.
pub const NO_CHILD: u32 = u32::MAX;

/// A node of the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Node {
    /// A seat chooses an action.
    Decision {
        /// Index into [`GameTree::infosets`].
        infoset: u32,
        /// The seat to act.
        seat: Seat,
        /// The child node per action index, [`NO_CHILD`] where illegal.
        children: [u32; NUM_ACTIONS],
    },
    /// The hand is over.
    Terminal {
        /// Chips won or lost by seat.
        returns: [f64; PLAYERS],
    },
}

/// One information state of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoSet {
    /// What the seat knows.
    pub key: InfoKey,
    /// The seat that acts there.
    pub seat: Seat,
    /// Its legal actions.
    pub mask: ActionMask,
}

/// The game tree of one rule configuration.
#[derive(Clone, Debug)]
pub struct GameTree {
    rules: RuleConfig,
    nodes: Vec<Node>,
    roots: Vec<u32>,
    infosets: Vec<InfoSet>,
}

impl GameTree {
    /// Builds the tree: every deal, every legal line of betting.
    pub fn build(rules: RuleConfig) -> Result<GameTree, ConfigError> {
        rules.validate()?;
        let mut b = Builder { nodes: Vec::new(), infosets: Vec::new(), index: HashMap::new() };
        let mut roots = Vec::new();
        for deal in Deal::all() {
            roots.push(b.add(State::from_deal(rules, deal)?));
        }
        Ok(GameTree { rules, nodes: b.nodes, roots, infosets: b.infosets })
    }

    /// The rules.
    pub fn rules(&self) -> &RuleConfig {
        &self.rules
    }

    /// The root of each deal's subtree, in [`Deal::all`] order; each has probability
    /// [`GameTree::deal_probability`].
    pub fn roots(&self) -> &[u32] {
        &self.roots
    }

    /// The chance probability of each deal.
    pub fn deal_probability(&self) -> f64 {
        1.0 / self.roots.len() as f64
    }

    /// The node at `index`.
    pub fn node(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }

    /// All nodes.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The information states, in the order first met.
    pub fn infosets(&self) -> &[InfoSet] {
        &self.infosets
    }
}

struct Builder {
    nodes: Vec<Node>,
    infosets: Vec<InfoSet>,
    index: HashMap<InfoKey, u32>,
}

impl Builder {
    fn add(&mut self, state: State) -> u32 {
        let at = self.nodes.len() as u32;
        let Some(seat) = state.current_player() else {
            self.nodes.push(Node::Terminal { returns: state.returns() });
            return at;
        };
        let key = InfoKey::from_view(&state.view(seat));
        let mask = state.legal_mask();
        let next = self.infosets.len() as u32;
        let infoset = *self.index.entry(key.clone()).or_insert(next);
        if infoset == next {
            self.infosets.push(InfoSet { key, seat, mask });
        }
        self.nodes.push(Node::Decision { infoset, seat, children: [NO_CHILD; NUM_ACTIONS] });
        let mut children = [NO_CHILD; NUM_ACTIONS];
        for a in mask.actions() {
            let mut child = state.clone();
            // `a` comes from the state's own legal mask.
            child.apply(a).expect("legal action applies");
            children[a.index()] = self.add(child);
        }
        self.nodes[at as usize] = Node::Decision { infoset, seat, children };
        at
    }
}
