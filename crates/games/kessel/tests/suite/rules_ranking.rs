//! K4: the reveal and the ranking of hands, table by table from the Holodex seed document
//! (`seeds/000_5784f599072bc6bc.txt`), plus full reveals through scenarios.

use crate::common;

use common::*;
use game::Seat;
use kessel::config::{CookScope, MarkdownSylops, NulhrekTiebreak};
use kessel::event::DiceFor;
use kessel::ranking::{classify, sabacc_order};
use kessel::{Event, Family, HandClass, Pending, RankingMods, Resolved, RuleConfig};
use serde_json::json;

const NONE: RankingMods = RankingMods { cook_the_books: false, markdown: false, major_fraud: false, prime: None };

/// Checks that `rows` (best first, each a hand of two values where 0 is a Sylop) have strictly
/// increasing rank keys, and that every Nulhrek ranks below the last row (the tables' row 8).
fn assert_table(name: &str, mods: RankingMods, cfg: &RuleConfig, rows: &[(u8, u8)]) {
    let keys: Vec<u16> = rows.iter().map(|&(a, b)| key(a, b, mods, cfg)).collect();
    for w in 0..rows.len() - 1 {
        assert!(keys[w] < keys[w + 1], "{name}: row {} {:?} must beat row {} {:?}", w + 1, rows[w], w + 2, rows[w + 1]);
    }
    let last = *keys.last().unwrap();
    for a in 1..=6 {
        for b in 1..=6 {
            if a != b {
                assert!(key(a, b, mods, cfg) > last, "{name}: Nulhrek {a}/{b} must rank below every Sabacc");
            }
        }
    }
}

/// Row n/n of a table also holds for the Sylop Sabacc of that value, in either slot (K4.3).
fn assert_sylop_equivalent(mods: RankingMods, cfg: &RuleConfig) {
    for v in 1..=6 {
        assert_eq!(key(0, v, mods, cfg), key(v, v, mods, cfg), "Sylop + {v} equals {v}/{v}");
        assert_eq!(key(v, 0, mods, cfg), key(v, v, mods, cfg), "{v} + Sylop equals {v}/{v}");
    }
}

#[test]
fn k4_5_default_table_pure_then_1_to_6_then_nulhrek() {
    // H, "HAND HIERARCHY": 0/0 Pure, 1/1, 2/2, 3/3, 4/4, 5/5, 6/6, X/Y Nulhrek.
    let cfg = RuleConfig::default();
    assert_table("default", NONE, &cfg, &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]);
    assert_sylop_equivalent(NONE, &cfg);
    assert_eq!(classify(Resolved::Sylop, Resolved::Sylop, NONE, &cfg), HandClass::PureSabacc);
    let (order, n) = sabacc_order(NONE, &cfg);
    assert_eq!(&order[..n], &[0, 1, 2, 3, 4, 5, 6]);
}

#[test]
fn k4_7_cook_the_books_table_6_to_1_then_pure() {
    // H, "COOK THE BOOKS": 6/6, 5/5, 4/4, 3/3, 2/2, 1/1, 0/0 Pure, X/Y.
    let cfg = RuleConfig::default();
    let m = RankingMods { cook_the_books: true, ..NONE };
    assert_table("cook", m, &cfg, &[(6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0)]);
    assert_sylop_equivalent(m, &cfg);
    let (order, n) = sabacc_order(m, &cfg);
    assert_eq!(&order[..n], &[6, 5, 4, 3, 2, 1, 0]);
}

#[test]
fn k4_8_markdown_table_1_to_6_then_zero_pair() {
    // H, "MARKDOWN": 1/1 … 6/6, then Pure (N/A: a pair of zero, last Sabacc), then X/Y.
    let cfg = RuleConfig::default();
    let m = RankingMods { markdown: true, ..NONE };
    assert_table("markdown", m, &cfg, &[(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (0, 0)]);
    assert_eq!(classify(Resolved::Sylop, Resolved::Sylop, m, &cfg), HandClass::ZeroPair);
    assert!(HandClass::ZeroPair.is_sabacc());
    assert_eq!(HandClass::ZeroPair.tax(), 1);
}

#[test]
fn k4_8_markdown_sylop_with_a_number_is_a_nulhrek_of_that_difference() {
    let cfg = RuleConfig::default();
    let m = RankingMods { markdown: true, ..NONE };
    for n in 1..=6u8 {
        let c = classify(Resolved::Sylop, Resolved::Number(n), m, &cfg);
        assert!(matches!(c, HandClass::Nulhrek { diff, .. } if diff == n), "Sylop + {n} under Markdown: {c:?}");
        assert_eq!(c.tax(), n as u16);
        // Sylop + N has d = N, so it ranks with the Nulhreks of difference N.
        assert!(key(0, n, m, &cfg) > key(0, 0, m, &cfg));
        if n < 6 {
            assert!(key(0, n, m, &cfg) < key(0, n + 1, m, &cfg));
        }
    }
    // At equal difference the lower cards win: Sylop(0)+2 (sum 2) beats 1/3 (sum 4) and 4/6.
    assert!(key(0, 2, m, &cfg) < key(1, 3, m, &cfg));
    assert!(key(1, 3, m, &cfg) < key(4, 6, m, &cfg));
}

#[test]
fn k4_6_prime_3_table() {
    // H, "PRIME SABACC SET TO 3": Pure, 3/3, 1/1, 2/2, 4/4, 5/5, 6/6, X/Y.
    let cfg = RuleConfig::default();
    let m = RankingMods { prime: Some(3), ..NONE };
    assert_table("prime 3", m, &cfg, &[(0, 0), (3, 3), (1, 1), (2, 2), (4, 4), (5, 5), (6, 6)]);
    assert_sylop_equivalent(m, &cfg);
}

#[test]
fn k4_6_prime_moves_each_value_behind_pure() {
    let cfg = RuleConfig::default();
    for v in 1..=6u8 {
        let m = RankingMods { prime: Some(v), ..NONE };
        let mut rows = vec![(0, 0), (v, v)];
        rows.extend((1..=6).filter(|&x| x != v).map(|x| (x, x)));
        assert_table(&format!("prime {v}"), m, &cfg, &rows);
    }
}

#[test]
fn k4_7_cook_the_books_with_prime() {
    // H, "COOK THE BOOKS + PRIME SABACC: 3": 3/3, 6/6, 5/5, 4/4, 2/2, 1/1, Pure, X/Y.
    let cfg = RuleConfig::default();
    let m = RankingMods { cook_the_books: true, prime: Some(3), ..NONE };
    assert_table("cook + prime 3", m, &cfg, &[(3, 3), (6, 6), (5, 5), (4, 4), (2, 2), (1, 1), (0, 0)]);
    assert_sylop_equivalent(m, &cfg);
    for v in 1..=6u8 {
        let m = RankingMods { cook_the_books: true, prime: Some(v), ..NONE };
        let mut rows = vec![(v, v)];
        rows.extend((1..=6).rev().filter(|&x| x != v).map(|x| (x, x)));
        rows.push((0, 0));
        assert_table(&format!("cook + prime {v}"), m, &cfg, &rows);
    }
}

#[test]
fn k4_8_cook_the_books_with_markdown_table() {
    // H, "COOK THE BOOKS + MARKDOWN": 6/6 … 1/1, then the zero pair, then X/Y.
    let cfg = RuleConfig::default();
    let m = RankingMods { cook_the_books: true, markdown: true, ..NONE };
    assert_table("cook + markdown", m, &cfg, &[(6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0)]);
    assert_eq!(classify(Resolved::Sylop, Resolved::Sylop, m, &cfg), HandClass::ZeroPair);
}

#[test]
fn k4_8_markdown_with_prime_keeps_zero_pair_last() {
    let cfg = RuleConfig::default();
    let m = RankingMods { markdown: true, prime: Some(4), ..NONE };
    assert_table("markdown + prime 4", m, &cfg, &[(4, 4), (1, 1), (2, 2), (3, 3), (5, 5), (6, 6), (0, 0)]);
    let m = RankingMods { markdown: true, cook_the_books: true, prime: Some(2), ..NONE };
    assert_table("cook + markdown + prime 2", m, &cfg, &[(2, 2), (6, 6), (5, 5), (4, 4), (3, 3), (1, 1), (0, 0)]);
}

#[test]
fn k4_9_major_fraud_does_not_change_the_order() {
    let cfg = RuleConfig::default();
    let m = RankingMods { major_fraud: true, ..NONE };
    assert_table("major fraud", m, &cfg, &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]);
}

#[test]
fn k4_4_equal_values_are_a_sabacc_others_a_nulhrek() {
    let cfg = RuleConfig::default();
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            let c = classify(Resolved::Number(a), Resolved::Number(b), NONE, &cfg);
            if a == b {
                assert_eq!(c, HandClass::Sabacc(a));
                assert_eq!(c.tax(), 1);
            } else {
                assert_eq!(c, HandClass::Nulhrek { diff: a.abs_diff(b), sum: a + b });
                assert_eq!(c.tax(), a.abs_diff(b) as u16);
            }
        }
    }
}

#[test]
fn k4_5_nulhreks_smaller_difference_then_lower_cards() {
    let cfg = RuleConfig::default();
    let k = |a, b| key(a, b, NONE, &cfg);
    // Smaller d wins whatever the cards.
    assert!(k(5, 6) < k(1, 3));
    assert!(k(1, 3) < k(1, 4));
    assert!(k(2, 6) < k(1, 6));
    // Equal d: lower sum wins.
    assert!(k(1, 2) < k(2, 3) && k(2, 3) < k(5, 6));
    assert!(k(1, 4) < k(2, 5) && k(2, 5) < k(3, 6));
    // Equal d and sum: tied, whichever family holds the higher card.
    assert_eq!(k(2, 3), k(3, 2));
    assert_eq!(k(1, 6), k(6, 1));
}

// ------------------------------------------------------------------------------------------
// Full reveals through scenarios.

#[test]
fn k4_5_reveal_default_order_pure_beats_1_1_beats_6_6_beats_nulhrek() {
    let mut s = showdown(
        &[["SY", "BY"], ["S1", "B1"], ["S6", "B6"], ["S5", "B6"]],
        &[5, 5, 5, 5],
        &[1, 1, 1, 1],
        json!({}),
        json!({}),
    );
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0]);
    assert_eq!(settled_class(&s, 0), HandClass::PureSabacc);
    assert_eq!(settled_class(&s, 1), HandClass::Sabacc(1));
    assert_eq!(settled_class(&s, 3), HandClass::Nulhrek { diff: 1, sum: 11 });
    // Winner: pot back. Sabacc losers: pot lost and 1 tax. Nulhrek d=1: 1 tax.
    assert_eq!(stocks(&s), vec![6, 4, 4, 4]);
}

#[test]
fn k4_7_cook_the_books_reveal_6_6_beats_pure() {
    let mut s = showdown(
        &[["SY", "BY"], ["S1", "B1"], ["S6", "B6"]],
        &[5, 5, 5],
        &[0, 0, 0],
        json!({"cook_the_books": true}),
        json!({}),
    );
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![2]);
    assert_eq!(stocks(&s), vec![4, 4, 5]);
}

#[test]
fn k4_7_cook_the_books_with_prime_reveal() {
    // Cook + Prime 3: 3/3 (here a Sylop Sabacc) first, then 6/6; Pure would be the last Sabacc.
    let mut s = showdown(
        &[["S6", "B6"], ["S3", "BY"], ["S1", "B1"], ["S1", "B2"]],
        &[5, 5, 5, 5],
        &[2, 0, 0, 1],
        json!({"cook_the_books": true, "prime": 3}),
        json!({}),
    );
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![1]);
    assert_eq!(settled_class(&s, 1), HandClass::Sabacc(3));
    // 6/6 loses its pot of 2 and pays 1; 1/1 pays 1; Nulhrek 1/2 loses pot 1 and pays d = 1.
    assert_eq!(stocks(&s), vec![4, 5, 4, 4]);
    let st = s.last_settlement().unwrap();
    assert_eq!(st.seats[0].unwrap().pot_lost, 2);
    assert_eq!(st.seats[3].unwrap().pot_lost, 1);
    assert_eq!(st.mods.prime, Some(3));
}

#[test]
fn k4_7_cook_the_books_pure_is_last_sabacc_but_beats_nulhrek() {
    let mut s = showdown(&[["SY", "BY"], ["S1", "B2"]], &[5, 5], &[0, 0], json!({"cook_the_books": true}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0]);
    let mut s = showdown(&[["SY", "BY"], ["S1", "B1"]], &[5, 5], &[0, 0], json!({"cook_the_books": true}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![1]);
}

#[test]
fn k4_8_markdown_reveal_two_sylops_lose_to_6_6_but_beat_nulhrek() {
    let mut s = showdown(
        &[["SY", "BY"], ["S6", "B6"], ["S2", "B1"]],
        &[5, 5, 5],
        &[0, 0, 0],
        json!({"markdown": true}),
        json!({}),
    );
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![1]);
    assert_eq!(settled_class(&s, 0), HandClass::ZeroPair);
    assert_eq!(settled_tax(&s, 0), 1);
    assert_eq!(settled_tax(&s, 2), 1);
    let mut s = showdown(&[["SY", "BY"], ["S2", "B1"]], &[5, 5], &[0, 0], json!({"markdown": true}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0]);
}

#[test]
fn k4_8_markdown_reveal_sylop_with_number_pays_its_difference() {
    // Sylop + 5 under Markdown is a Nulhrek of d = 5: it loses to 1/2 and pays 5, capped at 4.
    let mut s = showdown(&[["SY", "B5"], ["S1", "B2"]], &[4, 5], &[0, 0], json!({"markdown": true}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![1]);
    assert_eq!(settled_class(&s, 0), HandClass::Nulhrek { diff: 5, sum: 5 });
    assert_eq!(settled_tax(&s, 0), 4);
    assert!(s.last_settlement().unwrap().seats[0].unwrap().eliminated);
}

#[test]
fn k4_6_prime_reveal_prime_pair_beats_1_1_but_not_pure() {
    let mut s =
        showdown(&[["S1", "B1"], ["S5", "B5"], ["S6", "B6"]], &[5, 5, 5], &[0, 0, 0], json!({"prime": 5}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![1]);
    let mut s = showdown(&[["SY", "BY"], ["S5", "B5"]], &[5, 5], &[0, 0], json!({"prime": 5}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0]);
}

#[test]
fn k4_3_sylop_takes_the_value_of_the_other_card() {
    // Sylop + 4 ties a natural 4/4; both win, 2/2 would beat both.
    let mut s = showdown(&[["SY", "B4"], ["S4", "B4"], ["S3", "B5"]], &[5, 5, 5], &[1, 1, 1], json!({}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0, 1]);
    assert_eq!(settled_class(&s, 0), HandClass::Sabacc(4));
    assert_eq!(stocks(&s), vec![6, 6, 3]);
    // Two Sylops are Pure Sabacc.
    let mut s = showdown(&[["SY", "BY"], ["S1", "B1"]], &[5, 5], &[0, 0], json!({}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(settled_class(&s, 0), HandClass::PureSabacc);
    assert_eq!(round_winners(&s), vec![0]);
}

#[test]
fn k4_3_sylop_takes_the_value_of_a_resolved_impostor() {
    // Sand Sylop + Blood Impostor: the Impostor is resolved first (die 2), the Sylop follows: 2/2.
    let mut s = load(json!({
        "config": {"players": 2, "token_assignment": "none"},
        "turn": 3, "actor": 1,
        "players": [{"hand": ["SY", "BI"], "stock": 5}, {"hand": ["S3", "B3"], "stock": 5}],
        "sand_discard": ["S1"], "blood_discard": ["B1"],
        "dice": [6, 2]
    }));
    play(&mut s, &["stand"]);
    assert_eq!(s.pending(), Pending::ImpostorDie { family: Family::Blood, dice: [6, 2] });
    assert_eq!(s.current_player(), Some(Seat(0)));
    play(&mut s, &["die:2"]);
    assert_eq!(settled_class(&s, 0), HandClass::Sabacc(2));
    assert_eq!(round_winners(&s), vec![0]);
}

#[test]
fn k4_2_impostor_owner_chooses_one_of_two_dice_sand_first() {
    let mut s = load(json!({
        "config": {"players": 2, "token_assignment": "none"},
        "turn": 3, "actor": 1,
        "players": [{"hand": ["SI", "BI"], "stock": 5}, {"hand": ["S2", "B4"], "stock": 5}],
        "sand_discard": ["S1"], "blood_discard": ["B1"],
        "dice": [4, 3, 5, 3]
    }));
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    assert_eq!(s.pending(), Pending::ImpostorDie { family: Family::Sand, dice: [4, 3] });
    assert_eq!(legal_names(&s), vec!["die:1", "die:2"]);
    play(&mut s, &["die:2"]);
    assert_eq!(s.pending(), Pending::ImpostorDie { family: Family::Blood, dice: [5, 3] });
    play(&mut s, &["die:2"]);
    // 3/3 beats the Nulhrek 2/4, which pays d = 2.
    assert_eq!(settled_class(&s, 0), HandClass::Sabacc(3));
    assert_eq!(round_winners(&s), vec![0]);
    assert_eq!(stocks(&s), vec![5, 3]);
    let values: Vec<(Family, u8)> = events_since(&s, ev0)
        .iter()
        .filter_map(|e| match *e {
            Event::ImpostorValue { seat: Seat(0), family, value } => Some((family, value)),
            _ => None,
        })
        .collect();
    assert_eq!(values, vec![(Family::Sand, 3), (Family::Blood, 3)]);
}

#[test]
fn k4_1_reveal_goes_clockwise_from_the_starter() {
    // Starter 2 at a table of 3: the reveal order is 2, 0, 1, and Impostor dice follow it.
    let mut s = load(json!({
        "config": {"players": 3, "token_assignment": "none"},
        "turn": 3, "starter": 2, "actor": 1,
        "players": [
            {"hand": ["SI", "B1"], "stock": 5},
            {"hand": ["S2", "B2"], "stock": 5},
            {"hand": ["S3", "BI"], "stock": 5}
        ],
        "sand_discard": ["S4"], "blood_discard": ["B4"],
        "dice": [3, 1, 1, 6]
    }));
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    let revealed: Vec<u8> = events_since(&s, ev0)
        .iter()
        .filter_map(|e| if let Event::Revealed { seat, .. } = e { Some(seat.0) } else { None })
        .collect();
    assert_eq!(revealed, vec![2, 0, 1]);
    // Seat 2's Blood Impostor is resolved first, with the first two dice.
    assert_eq!(s.current_player(), Some(Seat(2)));
    assert_eq!(s.pending(), Pending::ImpostorDie { family: Family::Blood, dice: [3, 1] });
    play(&mut s, &["die:1"]);
    assert_eq!(s.current_player(), Some(Seat(0)));
    assert_eq!(s.pending(), Pending::ImpostorDie { family: Family::Sand, dice: [1, 6] });
    play(&mut s, &["die:1"]);
    // Seat 2 has 3/3, seat 0 1/1, seat 1 2/2: 1/1 wins.
    assert_eq!(round_winners(&s), vec![0]);
}

#[test]
fn k4_9_major_fraud_impostors_are_six_and_no_dice_are_rolled() {
    let mut s = load(json!({
        "config": {"players": 2, "token_assignment": "none"},
        "turn": 3, "actor": 1,
        "players": [{"hand": ["SI", "B6"], "stock": 5}, {"hand": ["S5", "BI"], "stock": 5}],
        "sand_discard": ["S1"], "blood_discard": ["B1"],
        "effects": {"major_fraud": true}
    }));
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    assert!(!events_since(&s, ev0).iter().any(|e| matches!(e, Event::DiceRolled { .. })));
    assert_eq!(settled_class(&s, 0), HandClass::Sabacc(6));
    assert_eq!(settled_class(&s, 1), HandClass::Nulhrek { diff: 1, sum: 11 });
    assert_eq!(round_winners(&s), vec![0]);
    assert_eq!(stocks(&s), vec![5, 4]);
}

#[test]
fn k4_10_equal_best_hands_all_win() {
    // Three equal Nulhreks 2/3 (one as 3/2): all win, nobody pays.
    let mut s = showdown(&[["S2", "B3"], ["S3", "B2"], ["S2", "B3"]], &[3, 3, 3], &[2, 1, 0], json!({}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0, 1, 2]);
    assert_eq!(stocks(&s), vec![5, 4, 3]);
    let st = s.last_settlement().unwrap();
    for i in 0..3 {
        assert_eq!(st.seats[i].unwrap().tax, 0);
    }
}

#[test]
fn k4_5_equal_nulhreks_lower_cards_win() {
    let mut s = showdown(&[["S5", "B6"], ["S1", "B2"]], &[5, 5], &[0, 0], json!({}), json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![1]);
    assert_eq!(settled_tax(&s, 0), 1);
}

#[test]
fn k9_nulhrek_tiebreak_none_equal_differences_tie() {
    let mut s = showdown(
        &[["S5", "B6"], ["S1", "B2"], ["S1", "B3"]],
        &[5, 5, 5],
        &[0, 0, 0],
        json!({}),
        json!({"nulhrek_tiebreak": "none"}),
    );
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0, 1]);
    assert_eq!(settled_tax(&s, 2), 2);
    let cfg = RuleConfig { nulhrek_tiebreak: NulhrekTiebreak::None, ..Default::default() };
    assert_eq!(key(1, 2, NONE, &cfg), key(5, 6, NONE, &cfg));
    assert!(key(5, 6, NONE, &cfg) < key(1, 3, NONE, &cfg));
}

#[test]
fn k9_cook_the_books_pure_stays_first() {
    let cfg = RuleConfig { cook_the_books: CookScope::PureFirst, ..Default::default() };
    let m = RankingMods { cook_the_books: true, ..NONE };
    assert_table("cook, pure first", m, &cfg, &[(0, 0), (6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1)]);
    let m = RankingMods { cook_the_books: true, prime: Some(3), ..NONE };
    assert_table("cook + prime 3, pure first", m, &cfg, &[(0, 0), (3, 3), (6, 6), (5, 5), (4, 4), (2, 2), (1, 1)]);
    let mut s = showdown(
        &[["SY", "BY"], ["S6", "B6"]],
        &[5, 5],
        &[0, 0],
        json!({"cook_the_books": true}),
        json!({"cook_the_books": "pure-first"}),
    );
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0]);
}

#[test]
fn k9_markdown_two_sylops_stay_pure() {
    let cfg = RuleConfig { markdown_sylops: MarkdownSylops::StaysPure, ..Default::default() };
    let m = RankingMods { markdown: true, ..NONE };
    assert_eq!(classify(Resolved::Sylop, Resolved::Sylop, m, &cfg), HandClass::PureSabacc);
    assert_table("markdown, stays pure", m, &cfg, &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]);
    // A single Sylop is still worth 0.
    assert!(matches!(classify(Resolved::Sylop, Resolved::Number(3), m, &cfg), HandClass::Nulhrek { diff: 3, .. }));
    // With Cook the Books the Pure hand takes Cook's place for Pure: last Sabacc.
    let mc = RankingMods { markdown: true, cook_the_books: true, ..NONE };
    assert_table("cook + markdown, stays pure", mc, &cfg, &[(6, 6), (5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0)]);
    let mut s = showdown(
        &[["SY", "BY"], ["S1", "B1"]],
        &[5, 5],
        &[0, 0],
        json!({"markdown": true}),
        json!({"markdown_sylops": "stays-pure"}),
    );
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![0]);
    assert_eq!(settled_class(&s, 0), HandClass::PureSabacc);
}

#[test]
fn k9_impostor_auto_best_takes_the_best_die_without_a_decision() {
    // Dice 5 and 2 for the Sand Impostor with a Blood 2: 2/2 is chosen automatically.
    let mut s = load(json!({
        "config": {"players": 2, "token_assignment": "none", "impostor": "auto-best"},
        "turn": 3, "actor": 1,
        "players": [{"hand": ["SI", "B2"], "stock": 5}, {"hand": ["S3", "B3"], "stock": 5}],
        "sand_discard": ["S1"], "blood_discard": ["B1"],
        "dice": [5, 2]
    }));
    play(&mut s, &["stand"]);
    assert_eq!(settled_class(&s, 0), HandClass::Sabacc(2));
    assert_eq!(round_winners(&s), vec![0]);
    // Under Cook the Books the best of 5/2 and 2/2 with a Blood 5 is 5/5.
    let mut s = load(json!({
        "config": {"players": 2, "token_assignment": "none", "impostor": "auto-best"},
        "turn": 3, "actor": 1,
        "players": [{"hand": ["SI", "B5"], "stock": 5}, {"hand": ["S6", "B6"], "stock": 5}],
        "sand_discard": ["S1"], "blood_discard": ["B1"],
        "effects": {"cook_the_books": true},
        "dice": [2, 5]
    }));
    play(&mut s, &["stand"]);
    assert_eq!(settled_class(&s, 0), HandClass::Sabacc(5));
    assert_eq!(round_winners(&s), vec![1]);
}

#[test]
fn k9_impostor_one_die_takes_its_value() {
    let mut s = load(json!({
        "config": {"players": 2, "token_assignment": "none", "impostor": "one-die"},
        "turn": 3, "actor": 1,
        "players": [{"hand": ["SI", "BI"], "stock": 5}, {"hand": ["S3", "B4"], "stock": 5}],
        "sand_discard": ["S1"], "blood_discard": ["B1"],
        "dice": [6, 2]
    }));
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    // One die per Impostor, no decision: Sand 6, Blood 2 → Nulhrek d=4, loses to 3/4 (d=1).
    assert_eq!(settled_class(&s, 0), HandClass::Nulhrek { diff: 4, sum: 8 });
    assert_eq!(round_winners(&s), vec![1]);
    assert_eq!(settled_tax(&s, 0), 4);
    let rolled = events_since(&s, ev0)
        .iter()
        .filter(|e| matches!(e, Event::DiceRolled { purpose: DiceFor::Impostor(_), .. }))
        .count();
    assert_eq!(rolled, 2);
}

/// An independent reading of K4.3–K4.8 used as an oracle: the position of a hand (two values, 0 =
/// Sylop) as a tuple, smaller is better.
fn oracle(a: u8, b: u8, m: RankingMods, cfg: &RuleConfig) -> (u8, u8, u8) {
    let markdown_zero = m.markdown && cfg.markdown_sylops == MarkdownSylops::ZeroPair;
    // The Sabacc order, best first, as the rules describe it: 0 = Pure.
    let pure_last = m.cook_the_books && cfg.cook_the_books == CookScope::PureLast;
    let mut numbered: Vec<u8> = if m.cook_the_books { vec![6, 5, 4, 3, 2, 1] } else { vec![1, 2, 3, 4, 5, 6] };
    if let Some(v) = m.prime {
        numbered.retain(|&x| x != v);
        numbered.insert(0, v);
    }
    let mut order = numbered;
    if pure_last {
        order.push(0);
    } else {
        order.insert(0, 0);
    }
    let sabacc = |code: u8| (0u8, order.iter().position(|&c| c == code).unwrap() as u8, 0u8);
    let nulhrek = |d: u8, sum: u8| {
        let tie = if cfg.nulhrek_tiebreak == NulhrekTiebreak::LowerCards { sum } else { 0 };
        (2u8, d, tie)
    };
    match (a, b) {
        (0, 0) if markdown_zero => (1, 0, 0),
        (0, 0) => sabacc(0),
        (0, n) | (n, 0) if m.markdown => nulhrek(n, n),
        (0, n) | (n, 0) => sabacc(n),
        (x, y) if x == y => sabacc(x),
        (x, y) => nulhrek(x.abs_diff(y), x + y),
    }
}

#[test]
fn k4_ranking_matches_an_independent_reading_of_the_rules_for_every_pair_of_hands() {
    let hands: Vec<(u8, u8)> = (0..=6).flat_map(|a| (0..=6).map(move |b| (a, b))).collect();
    let mut checked = 0u64;
    for cook in [false, true] {
        for markdown in [false, true] {
            for prime in [None, Some(1), Some(2), Some(3), Some(4), Some(5), Some(6)] {
                let m = RankingMods { cook_the_books: cook, markdown, major_fraud: false, prime };
                for scope in [CookScope::PureLast, CookScope::PureFirst] {
                    for sylops in [MarkdownSylops::ZeroPair, MarkdownSylops::StaysPure] {
                        for tie in [NulhrekTiebreak::LowerCards, NulhrekTiebreak::None] {
                            let cfg = RuleConfig {
                                cook_the_books: scope,
                                markdown_sylops: sylops,
                                nulhrek_tiebreak: tie,
                                ..RuleConfig::default()
                            };
                            for &(a, b) in &hands {
                                for &(c, d) in &hands {
                                    let want = oracle(a, b, m, &cfg).cmp(&oracle(c, d, m, &cfg));
                                    let got = key(a, b, m, &cfg).cmp(&key(c, d, m, &cfg));
                                    assert_eq!(got, want, "{a}/{b} vs {c}/{d} under {m:?}, {cfg:?}");
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 49 * 49 * 2 * 2 * 7 * 8);
}
