//! K7, C6 and L6 through the API: every response about a live game carries exactly the
//! engine's player view of the asking seat and the event log as that seat may see it, and
//! nothing else that could hold a card, in every game.

use crate::common;

use common::{act, create, human_actor, pick, token, view};
use game::Game;
use game::Seat;
use games::classic::Classic;
use games::kessel::PlayerView;
use games::leduc::Leduc;
use serde_json::{Value, json};
use server::client::Client;
use std::collections::BTreeSet;

/// The fields a game response may have; a new field must be added here on purpose, after
/// checking it carries nothing hidden.
const FIELDS: [&str; 17] = [
    "game",
    // Whose turn it is: public.
    "actor",
    // The seat's view as text, rendered from that view alone (`Game::render`).
    "text",
    "kind",
    "failure",
    "tokens",
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

/// A response without a seat's secret: who sits where, whose turn, the public log; no view, no
/// legal actions, no card of anyone's hand.
fn check_spectator(resp: &Value) {
    assert_eq!(resp["spectator"], true, "{resp}");
    for hidden in ["view", "legal", "tokens", "views", "final_hands"] {
        assert!(resp.get(hidden).is_none(), "a spectator was sent `{hidden}`");
    }
    if resp["kind"] == "classic" {
        let events: Vec<games::classic::Event> = serde_json::from_value(resp["events"].clone()).unwrap();
        assert!(events.iter().all(|e| *e == e.seen_by(None)), "a spectator was sent a private card");
    }
}

fn check_fields(resp: &Value) {
    let keys: BTreeSet<&str> = resp.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    for k in &keys {
        assert!(FIELDS.contains(k), "unexpected field `{k}` in a game response: check it leaks nothing, then list it");
    }
}

/// Checks `resp` (a response for `seat`) against the state held by the server: Kessel's.
fn check(app: &server::AppState, resp: &Value, seat: u8) {
    if resp["kind"] == "classic" {
        return check_classic(app, resp, seat);
    }
    if resp["kind"] == "leduc" {
        return check_leduc(app, resp, seat);
    }
    assert_eq!(resp["kind"], "kessel");
    let id = resp["game"].as_str().unwrap();
    let state = app.game_state(id).expect("game is held");
    check_fields(resp);
    let view: PlayerView = serde_json::from_value(resp["view"].clone()).expect("view parses as a PlayerView");
    assert_eq!(view, state.view(Seat(seat)), "response view differs from the engine's view of seat {seat}");
    let from = resp["events_from"].as_u64().unwrap() as usize;
    let events: Vec<games::kessel::Event> = serde_json::from_value(resp["events"].clone()).unwrap();
    assert_eq!(&events[..], &state.events()[from..], "events are not the engine's public log");
    let legal: Vec<usize> =
        resp["legal"].as_array().unwrap().iter().map(|a| a["index"].as_u64().unwrap() as usize).collect();
    if state.current_player() == Some(Seat(seat)) {
        assert_eq!(legal, state.legal_mask().indices().collect::<Vec<_>>());
    } else {
        assert!(legal.is_empty(), "legal actions offered to seat {seat} out of turn");
    }
}

/// The same for classic Sabacc: the view is the engine's view of the seat, the events its
/// `events_for(seat)` (other players' drawn, dropped and shifted cards removed).
fn check_classic(app: &server::AppState, resp: &Value, seat: u8) {
    let id = resp["game"].as_str().unwrap();
    let state = app.game_state_of::<Classic>(id).expect("game is held");
    check_fields(resp);
    let view: games::classic::PlayerView = serde_json::from_value(resp["view"].clone()).expect("view parses");
    assert_eq!(view, state.view(Seat(seat)), "response view differs from the engine's view of seat {seat}");
    let from = resp["events_from"].as_u64().unwrap() as usize;
    let events: Vec<games::classic::Event> = serde_json::from_value(resp["events"].clone()).unwrap();
    let seen: Vec<games::classic::Event> = state.events_for(Seat(seat)).skip(from).collect();
    assert_eq!(events, seen, "events are not the log as seat {seat} sees it");
    for e in &events {
        if let games::classic::Event::Drew { seat: s, card: Some(_), .. }
        | games::classic::Event::Dropped { seat: s, card: Some(_) } = e
        {
            assert_eq!(s.0, seat, "seat {seat} was shown another seat's card: {e:?}");
        }
    }
    let legal: Vec<usize> =
        resp["legal"].as_array().unwrap().iter().map(|a| a["index"].as_u64().unwrap() as usize).collect();
    if state.current_player() == Some(Seat(seat)) {
        assert_eq!(legal, state.legal_mask().indices().collect::<Vec<_>>());
    } else {
        assert!(legal.is_empty(), "legal actions offered to seat {seat} out of turn");
    }
}

/// The same for Leduc hold'em, a game the page shows through its text: the view, the text and
/// the events are the seat's own (the other private card only once shown down).
fn check_leduc(app: &server::AppState, resp: &Value, seat: u8) {
    let id = resp["game"].as_str().unwrap();
    let state = app.game_state_of::<Leduc>(id).expect("game is held");
    check_fields(resp);
    let view: games::leduc::PlayerView = serde_json::from_value(resp["view"].clone()).expect("view parses");
    assert_eq!(view, state.view(Seat(seat)), "response view differs from the engine's view of seat {seat}");
    assert_eq!(resp["text"], Leduc::render(&state, Some(Seat(seat))), "text is not the seat's rendering");
    let from = resp["events_from"].as_u64().unwrap() as usize;
    let events: Vec<games::leduc::Event> = serde_json::from_value(resp["events"].clone()).unwrap();
    let seen: Vec<games::leduc::Event> = state.events()[from..].iter().map(|e| e.seen_by(Some(Seat(seat)))).collect();
    assert_eq!(events, seen, "events are not the log as seat {seat} sees it");
    if !state.is_terminal() {
        let other = state.deal().private[1 - usize::from(seat)].to_string();
        let text = resp["text"].as_str().unwrap();
        assert!(!text.contains(&other), "seat {seat} was shown the other card: {text}");
    }
}

#[test]
fn leduc_api_responses_never_carry_a_card_the_seat_may_not_see() {
    let leduc = [json!(["human", "cfr"]), json!(["human", "human"]), json!(["random", "human"])];
    let responses = play_every_seat_polling(json!({ "game": "leduc" }), &leduc);
    assert!(responses > 20, "only {responses} responses checked");
}

#[test]
fn api_responses_never_carry_a_card_the_seat_may_not_see() {
    let kessel = [
        json!(["human", "expert", "human"]),
        json!(["human", "random", "greedy", "human", "expert"]),
        json!(["human", "human"]),
        json!(["greedy", "human", "random", "random", "random", "random", "random", "human"]),
    ];
    let responses = play_every_seat_polling(json!({}), &kessel);
    assert!(responses > 500, "only {responses} responses checked");
}

#[test]
fn classic_api_responses_never_carry_a_card_the_seat_may_not_see() {
    let classic = [
        json!(["human", "expert", "human"]),
        json!(["human", "human"]),
        json!(["greedy", "human", "random", "human", "expert"]),
    ];
    let responses = play_every_seat_polling(json!({ "game": "classic", "rules": { "hand_limit": 4 } }), &classic);
    assert!(responses > 300, "only {responses} responses checked");
}

/// Plays two games at each table of `tables` (extra request fields in `base`), every seat
/// polling its view between actions, and checks every response; returns how many.
fn play_every_seat_polling(base: Value, tables: &[Value]) -> usize {
    let running = common::start(common::settings());
    let app = running.app().clone();
    let mut client = Client::new(running.addr());
    let mut responses = 0;
    for (g, seats) in tables.iter().cycle().take(2 * tables.len()).enumerate() {
        let mut body = base.clone();
        body["seats"] = seats.clone();
        body["seed"] = json!(100 + g);
        let mut resp = create(&mut client, body);
        let n = seats.as_array().unwrap().len() as u8;
        let human_seats: Vec<u64> = (0..u64::from(n)).filter(|&i| seats[i as usize] == "human").collect();
        check(&app, &resp, resp["seat"].as_u64().unwrap() as u8);
        let mut k = g;
        while let Some(actor) = human_actor(&resp) {
            k += 1;
            // Every seat, human or agent, polls its view between actions.
            let mut actor_view = Value::Null;
            for s in 0..n {
                let id = resp["game"].as_str().unwrap();
                let v = if human_seats.contains(&u64::from(s)) {
                    view(&mut client, id, u64::from(s), k % 7)
                } else {
                    // An agent's seat: nobody may read its view, not even a person at the table; a
                    // caller without a token watches.
                    client.set_token(token(id, human_seats[0]).as_deref());
                    let refused = client.get(&format!("/api/games/{id}?seat={s}")).unwrap();
                    assert_eq!(refused.status, 403, "{}", refused.text);
                    client.set_token(None);
                    let watched = client.get(&format!("/api/games/{id}?seat={s}")).unwrap();
                    assert_eq!(watched.status, 200, "{}", watched.text);
                    check_spectator(&watched.json());
                    responses += 1;
                    continue;
                };
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
    responses
}
