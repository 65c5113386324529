//! The size of the game tree of standard Leduc hold'em, counted by walking every state.
//!
//! Hand count of what is asserted (P0 opens each round; at most two bets-or-raises):
//! - One betting round has 6 decision points: P0 at ``, `cr`, `rr`; P1 at `c`, `r`, `crr`
//!   (c = check/call, r = bet/raise, f = fold). It ends in 5 ways that go on (`cc`, `rc`,
//!   `crc`, `rrc`, `crrc`) and 4 folds (`rf`, `crf`, `rrf`, `crrf`).
//! - Betting sequences that end a hand: 4 folds in round 1 + 5 × (4 folds + 5 showdowns) in
//!   round 2 = 49. Decision points per deal: 6 + 5 × 6 = 36. Over the 120 deals: 5,880
//!   terminal histories and 4,320 decision histories.
//! - Information sets of one player: round 1, own card (6) × its 3 decision points = 18;
//!   round 2, own card (6) × public card (5 left) × 5 round-1 sequences × 3 = 450; total 468,
//!   936 for both players — OpenSpiel's count for `leduc_poker`, whose information state also
//!   tells the two suits apart. Merging suits (only ranks matter at showdown): 3 × 3 = 9 in
//!   round 1 and 3 × 3 (a pair is possible) × 5 × 3 = 135 in round 2, 144 per player, 288 in
//!   all — the figure usually quoted for Leduc.

use game::Seat;
use leduc::tree::{GameTree, Node};
use leduc::{Deal, InfoKey, RuleConfig, State};
use std::collections::HashSet;

struct Counts {
    infosets: [HashSet<InfoKey>; 2],
    rank_infosets: [HashSet<String>; 2],
    terminal_sequences: HashSet<Vec<leduc::Action>>,
    terminal_histories: usize,
    decision_histories: usize,
}

fn walk(s: &State, c: &mut Counts) {
    let Some(seat) = s.current_player() else {
        c.terminal_histories += 1;
        c.terminal_sequences.insert(s.actions().collect());
        return;
    };
    c.decision_histories += 1;
    let key = InfoKey::from_view(&s.view(seat));
    // The same key with suits removed: `0:Ks:Qh:rc/` becomes `0:K:Q:rc/`.
    let ranks = key.to_string().replace(['s', 'h'], "");
    c.infosets[seat.index()].insert(key);
    c.rank_infosets[seat.index()].insert(ranks);
    for a in s.legal_actions() {
        let mut child = s.clone();
        child.apply(a).unwrap();
        walk(&child, c);
    }
}

fn count() -> Counts {
    let mut c = Counts {
        infosets: Default::default(),
        rank_infosets: Default::default(),
        terminal_sequences: HashSet::new(),
        terminal_histories: 0,
        decision_histories: 0,
    };
    for deal in Deal::all() {
        walk(&State::from_deal(RuleConfig::default(), deal).unwrap(), &mut c);
    }
    c
}

#[test]
fn each_player_has_468_information_sets_936_in_all() {
    let c = count();
    assert_eq!(c.infosets.each_ref().map(HashSet::len), [468, 468]);
    let round1 = |s: &HashSet<InfoKey>| s.iter().filter(|k| k.public_card.is_none()).count();
    assert_eq!(c.infosets.each_ref().map(round1), [18, 18]);
}

#[test]
fn merging_suits_leaves_144_information_sets_per_player_288_in_all() {
    let c = count();
    assert_eq!(c.rank_infosets.each_ref().map(HashSet::len), [144, 144]);
}

#[test]
fn there_are_49_terminal_betting_sequences_and_5880_terminal_histories() {
    let c = count();
    assert_eq!(c.terminal_sequences.len(), 49);
    assert_eq!(c.terminal_histories, 120 * 49);
    assert_eq!(c.decision_histories, 120 * 36);
}

#[test]
fn solver_tree_has_the_same_shape_as_the_state_walk() {
    let tree = GameTree::build(RuleConfig::default()).unwrap();
    let terminals = tree.nodes().iter().filter(|n| matches!(n, Node::Terminal { .. })).count();
    assert_eq!((terminals, tree.nodes().len() - terminals), (5880, 4320));
    assert_eq!(tree.roots().len(), 120);
    let per_seat = |s: u8| tree.infosets().iter().filter(|i| i.seat == Seat(s)).count();
    assert_eq!((per_seat(0), per_seat(1)), (468, 468));
}
