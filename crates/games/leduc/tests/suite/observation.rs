//! The observation encoder against every information set of standard Leduc hold'em.

use game::Seat;
use leduc::obs::{OBS_LEN, SEGMENTS, check_ranges, encode, encode_vec, history_slot, segment};
use leduc::{Action, Deal, InfoKey, RuleConfig, State};
use std::collections::HashMap;

/// Every non-terminal state of every deal.
fn all_states() -> Vec<State> {
    fn walk(s: State, out: &mut Vec<State>) {
        if s.is_terminal() {
            return;
        }
        for a in s.legal_actions() {
            let mut child = s.clone();
            child.apply(a).unwrap();
            walk(child, out);
        }
        out.push(s);
    }
    let mut out = Vec::new();
    for deal in Deal::all() {
        walk(State::from_deal(RuleConfig::default(), deal).unwrap(), &mut out);
    }
    out
}

fn bits(obs: &[f32]) -> Vec<u32> {
    obs.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn same_information_set_encodes_equally_and_different_ones_differently() {
    let mut by_key: HashMap<InfoKey, Vec<u32>> = HashMap::new();
    let mut by_obs: HashMap<Vec<u32>, InfoKey> = HashMap::new();
    let mut decisions = 0;
    for s in all_states() {
        // Both seats' views, not only the actor's: a waiting seat's view must be exact too.
        for seat in [Seat(0), Seat(1)] {
            let view = s.view(seat);
            let obs = encode_vec(&view);
            check_ranges(&obs).unwrap();
            let key = InfoKey::from_view(&view);
            decisions += usize::from(s.current_player() == Some(seat));
            if let Some(prev) = by_key.insert(key.clone(), bits(&obs)) {
                assert_eq!(prev, bits(&obs), "two histories of {key} encode differently");
            }
            if let Some(prev) = by_obs.insert(bits(&obs), key.clone()) {
                assert_eq!(prev, key, "{prev} and {key} encode the same");
            }
        }
    }
    assert_eq!(decisions, 120 * 36);
    // 936 decision sets plus the waiting seats' sets (the same keys with the other seat to act).
    let decision_keys = by_key.keys().filter(|k| k.decision_mask(&RuleConfig::default()).is_ok()).count();
    assert_eq!(decision_keys, 936);
    assert_eq!(by_obs.len(), by_key.len());
}

#[test]
fn segments_tile_the_vector_and_are_documented() {
    let mut end = 0;
    for s in SEGMENTS {
        assert_eq!(s.offset, end, "{} does not follow the previous segment", s.name);
        assert!(s.len > 0 && !s.doc.is_empty(), "{}", s.name);
        end += s.len;
    }
    assert_eq!(end, OBS_LEN);
    assert_eq!(OBS_LEN, 55);
}

#[test]
fn history_slots_hold_the_betting_in_order() {
    let mut s = State::new(RuleConfig::default(), 9).unwrap();
    for a in [Action::Call, Action::Raise, Action::Call, Action::Raise] {
        s.apply(a).unwrap();
    }
    let obs = encode_vec(&s.view(Seat(1)));
    let round1: Vec<_> = (0..4).map(|k| history_slot(&obs, 0, k)).collect();
    assert_eq!(round1, [Some(Action::Call), Some(Action::Raise), Some(Action::Call), None]);
    assert_eq!(history_slot(&obs, 1, 0), Some(Action::Raise));
    let to_act = segment("to-act").unwrap();
    assert_eq!(&obs[to_act.offset..to_act.offset + 2], &[1.0, 0.0], "seat 1 is to act, and it is the viewer");
    let contrib = segment("contributions").unwrap();
    assert_eq!(&obs[contrib.offset..contrib.offset + 2], &[3.0 / 13.0, 7.0 / 13.0], "viewer first");
}

#[test]
fn check_ranges_refuses_vectors_the_encoder_cannot_make() {
    let s = State::new(RuleConfig::default(), 4).unwrap();
    let good = encode_vec(&s.view(Seat(0)));
    check_ranges(&good).unwrap();
    assert!(check_ranges(&good[1..]).is_err());
    let mut bad = good.clone();
    bad[0] = 1.5;
    assert!(check_ranges(&bad).unwrap_err().contains("outside"));
    let mut bad = good.clone();
    bad[segment("public-rank").unwrap().offset] = 1.0;
    assert!(check_ranges(&bad).unwrap_err().contains("public"), "a public card in round 1");
    let mut bad = good.clone();
    bad[segment("history-round-1").unwrap().offset + 3] = 1.0;
    assert!(check_ranges(&bad).is_err(), "a slot after an empty one");
}

#[test]
fn encode_overwrites_the_whole_buffer() {
    let s = State::new(RuleConfig::default(), 5).unwrap();
    let mut out = vec![0.7; OBS_LEN];
    encode(&s.view(Seat(0)), &mut out);
    assert_eq!(out, encode_vec(&s.view(Seat(0))));
}
