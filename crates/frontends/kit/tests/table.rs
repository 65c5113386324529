//! The kit's core, natively: every registered game plays to its end through it, and every bad
//! argument a front-end can pass is an error with a message, never a panic (in WebAssembly a
//! panic is a trap that leaves the module unusable).

use serde_json::{Value, json};
use std::panic::{AssertUnwindSafe, catch_unwind};

use sabacc_kit::{Table, game_ids, game_info, resolve_rules};

fn message<T>(r: Result<T, sabacc_kit::Error>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.0,
    }
}

#[test]
fn every_registered_game_plays_to_its_end_with_observations_masks_views_and_events() {
    assert_eq!(game_ids(), games::GAMES.iter().map(|g| g.id()).collect::<Vec<_>>());
    for id in game_ids() {
        let info = game_info(id).unwrap();
        let (obs_len, actions) = (info["obsLength"].as_u64().unwrap() as usize, info["numActions"].as_u64().unwrap());
        assert_eq!(info["actionNames"].as_array().unwrap().len() as u64, actions);
        assert_eq!(game_info(info["envId"].as_str().unwrap()).unwrap()["id"], id);
        let (min, max) = (info["seats"]["min"].as_f64().unwrap(), info["seats"]["max"].as_f64().unwrap());
        for seats in [min, max] {
            let mut t = Table::new(id, None, Some(seats), 7).unwrap();
            assert_eq!(f64::from(t.players()), seats);
            let state: Value = serde_json::from_str(&t.state_json()).unwrap();
            assert!(state.is_object(), "{id}: the whole state as JSON text");
            let mut pick = 0usize;
            while !t.is_over() {
                let actor = t.current_player().unwrap();
                let legal = t.legal_actions();
                let mask = t.mask(None).unwrap();
                assert_eq!(mask.len() as u64, actions);
                for (a, m) in mask.iter().enumerate() {
                    assert_eq!(*m == 1.0, legal.contains(&(a as u32)), "{id}: mask and legal actions agree");
                }
                assert_eq!(t.mask(Some(f64::from(actor))).unwrap(), mask);
                let mut into = vec![f32::NAN; obs_len];
                let mut mask_into = vec![f32::NAN; mask.len()];
                t.mask_into(None, &mut mask_into).unwrap();
                assert_eq!(mask_into, mask, "{id}: mask_into writes the mask");
                for s in 0..t.players() {
                    let obs = t.observation(f64::from(s)).unwrap();
                    assert_eq!(obs.len(), obs_len);
                    t.observe_into(f64::from(s), &mut into).unwrap();
                    assert_eq!(
                        into.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                        obs.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
                    );
                    assert!(t.view(f64::from(s)).unwrap().is_object());
                    if s != actor {
                        assert!(t.mask(Some(f64::from(s))).unwrap().iter().all(|m| *m == 0.0));
                    }
                }
                let named = t.legal();
                assert_eq!(named.as_array().unwrap().len(), legal.len());
                pick = pick.wrapping_mul(31).wrapping_add(7);
                let a = legal[pick % legal.len()];
                assert_eq!(t.action_index(t.action_name(f64::from(a)).unwrap()).unwrap(), a);
                t.apply(f64::from(a)).unwrap();
            }
            let outcome = t.outcome(None).unwrap();
            assert_eq!(outcome["over"], true);
            assert_eq!(outcome["rewards"].as_array().unwrap().len(), usize::from(t.players()));
            assert!(t.legal_actions().is_empty() && t.mask(None).unwrap().iter().all(|m| *m == 0.0));
            assert!(t.event_count() > 0, "{id}: a new table logs events");
            assert!(!t.events(Some(0.0), None).unwrap().as_array().unwrap().is_empty());
            assert!(t.events(None, Some(t.event_count() as f64)).unwrap().as_array().unwrap().is_empty());
            assert!(!t.render(None).unwrap().is_empty() && !t.render(Some(0.0)).unwrap().is_empty());
        }
    }
}

#[test]
fn bad_arguments_are_errors_naming_what_was_wrong() {
    assert!(message(Table::new("chess", None, None, 0)).contains("kessel"));
    assert!(message(Table::new("kessel", None, Some(1.0), 0)).contains("seats must be a whole number from 2 to 8"));
    for seats in [1.5, 99.0, f64::NAN, f64::INFINITY, -2.0] {
        assert!(Table::new("kessel", None, Some(seats), 0).is_err(), "seats {seats}");
    }
    assert!(message(Table::new("kessel", Some(&json!([1])), None, 0)).contains("rules must be a JSON object"));
    assert!(message(Table::new("kessel", Some(&json!({"nope": 1})), None, 0)).contains("rules.nope"));
    assert!(message(Table::new("kessel", Some(&json!({"players": 0})), None, 0)).contains("rules.players"));
    assert!(message(Table::new("leduc", Some(&json!({"players": 3})), None, 0)).contains("from 2 to 2"));
    assert!(message(resolve_rules("classic", Some(&json!({"players": "four"})), None)).contains("rules.players"));
    assert_eq!(resolve_rules("classic", Some(&json!({"players": 3})), None).unwrap()["players"], 3);
    assert_eq!(resolve_rules("classic", Some(&json!({"players": 3})), Some(5.0)).unwrap()["players"], 5);

    let mut t = Table::new("kessel", None, Some(2.0), 1).unwrap();
    for seat in [2.0, -1.0, 0.5, f64::NAN] {
        assert!(message(t.view(seat)).contains("seat must be"), "{seat}");
        assert!(t.observation(seat).is_err() && t.mask(Some(seat)).is_err() && t.render(Some(seat)).is_err());
        assert!(t.events(Some(seat), None).is_err());
    }
    for index in [-1.0, 0.5, 48.0, 1e12, f64::NAN] {
        assert!(t.apply(index).is_err(), "{index}");
        assert!(t.action_name(index).is_err(), "{index}");
    }
    let (mut short, mut long) = (vec![0.0; 653], vec![0.0; 49]);
    assert!(
        message(t.observe_into(0.0, &mut short))
            .contains("the observation buffer holds 653 floats; kessel's observation is 654")
    );
    assert!(message(t.mask_into(None, &mut long)).contains("the mask buffer holds 49 floats; kessel has 48 actions"));
    assert!(message(t.observe_into(2.0, &mut [0.0; 654])).contains("seat must be"));
    let illegal = (0..48).find(|a| !t.legal_actions().contains(a)).unwrap();
    assert!(message(t.apply(f64::from(illegal))).contains("not legal here"));
    assert!(message(t.apply_named("fly")).contains("no action is named `fly`"));
    assert!(message(t.events(None, Some(1e6))).contains("from must be"));
    assert!(message(t.outcome(Some("points"))).contains("win-loss, placement or payoff"));
    while !t.is_over() {
        t.apply(f64::from(t.legal_actions()[0])).unwrap();
    }
    assert!(message(t.apply(0.0)).contains("the game is over"));
}

/// Weird values in every rules field of every game: refused or accepted, never a panic.
#[test]
fn no_rules_value_panics() {
    let odd = [
        json!(null),
        json!(0),
        json!(-1),
        json!(1e9),
        json!(255),
        json!(65536),
        json!("x"),
        json!([]),
        json!({}),
        json!(true),
    ];
    for id in game_ids() {
        let defaults = game_info(id).unwrap()["defaultRules"].clone();
        let Value::Object(fields) = defaults else { panic!("{id}: default rules are an object") };
        for field in fields.keys() {
            for value in &odd {
                let rules = json!({ field.clone(): value.clone() });
                let r = catch_unwind(AssertUnwindSafe(|| Table::new(id, Some(&rules), None, 3).map(|t| t.players())));
                assert!(r.is_ok(), "{id}: rules {rules} panicked");
            }
        }
    }
}
