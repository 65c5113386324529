//! K7 through the API: every response about a live game carries exactly the engine's player
//! view of the asking seat and the public event log, and nothing else that could hold a card.

mod common;

use common::{act, create, human_actor, pick};
use engine::{PlayerView, Seat};
use serde_json::{Value, json};
use server::client::Client;
use std::collections::BTreeSet;

/// The fields a game response may have; a new field must be added here on purpose, after
/// checking it carries nothing hidden.
const FIELDS: [&str; 12] = [
    "game",
    "seat",
    "seats",
    "status",
    "step",
    "human_turn",
    "view",
    "legal",
    "events_from",
    "events",
    "outcome",
    "warnings",
];

/// Checks `resp` (a response for `seat`) against the engine state held by the server.
fn check(app: &server::AppState, resp: &Value, seat: u8) {
    let id = resp["game"].as_str().unwrap();
    let state = app.game_state(id).expect("game is held");
    let keys: BTreeSet<&str> = resp.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    for k in &keys {
        assert!(FIELDS.contains(k), "unexpected field `{k}` in a game response: check it leaks nothing, then list it");
    }
    let view: PlayerView = serde_json::from_value(resp["view"].clone()).expect("view parses as a PlayerView");
    assert_eq!(view, state.view(Seat(seat)), "response view differs from the engine's view of seat {seat}");
    let from = resp["events_from"].as_u64().unwrap() as usize;
    let events: Vec<engine::Event> = serde_json::from_value(resp["events"].clone()).unwrap();
    assert_eq!(&events[..], &state.events()[from..], "events are not the engine's public log");
    let legal: Vec<usize> =
        resp["legal"].as_array().unwrap().iter().map(|a| a["index"].as_u64().unwrap() as usize).collect();
    if state.current_player() == Some(Seat(seat)) {
        assert_eq!(legal, state.legal_mask().indices().collect::<Vec<_>>());
    } else {
        assert!(legal.is_empty(), "legal actions offered to seat {seat} out of turn");
    }
}

#[test]
fn api_responses_never_carry_a_card_the_seat_may_not_see() {
    let running = common::start(common::settings());
    let app = running.app().clone();
    let mut client = Client::new(running.addr());
    let mut responses = 0;
    for (g, seats) in [
        json!(["human", "expert", "human"]),
        json!(["human", "random", "greedy", "human", "expert"]),
        json!(["human", "human"]),
        json!(["greedy", "human", "random", "random", "random", "random", "random", "human"]),
    ]
    .into_iter()
    .cycle()
    .take(8)
    .enumerate()
    {
        let mut resp = create(&mut client, json!({ "seats": seats, "seed": 100 + g }));
        let n = seats.as_array().unwrap().len() as u8;
        check(&app, &resp, resp["seat"].as_u64().unwrap() as u8);
        let mut k = g;
        while let Some(actor) = human_actor(&resp) {
            k += 1;
            // Every seat, human or agent, polls its view between actions.
            let mut actor_view = Value::Null;
            for s in 0..n {
                let v = client
                    .get(&format!("/api/games/{}?seat={s}&since={}", resp["game"].as_str().unwrap(), k % 7))
                    .unwrap();
                assert_eq!(v.status, 200, "{}", v.text);
                check(&app, &v.json(), s);
                if u64::from(s) == actor {
                    actor_view = v.json();
                }
                responses += 1;
            }
            let r = act(&mut client, resp["game"].as_str().unwrap(), actor, &pick(&actor_view, k));
            assert_eq!(r.status, 200, "{}", r.text);
            resp = r.json();
            check(&app, &resp, actor as u8);
            responses += 1;
        }
        assert_ne!(resp["status"], "playing");
    }
    assert!(responses > 500, "only {responses} responses checked");
}
