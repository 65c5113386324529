//! A real server on a loopback port and a person playing through its API.

#![allow(dead_code)]

use serde_json::{Value, json};
use server::client::{Client, Reply};
use server::{AppState, Running, Settings};
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

/// Every seat secret handed out by `create` in this test process, by game id and seat.
static TOKENS: LazyLock<Mutex<HashMap<(String, u64), String>>> = LazyLock::new(Default::default);

/// The shipped checkpoint, seen from this crate's folder (tests run there).
pub const CHECKPOINT: &str = "../../../checkpoints/mixed-tables";

/// Default tables with `game`'s set to `table`.
pub fn table(game: &str, table: server::TableDefaults) -> HashMap<games::GameId, server::TableDefaults> {
    HashMap::from([(games::GameId::parse(game).expect("a registered game"), table)])
}

/// A server with `settings` on a free loopback port.
pub fn start(settings: Settings) -> Running {
    let app = AppState::new(settings).expect("settings are valid");
    Running::start("127.0.0.1:0", app).expect("server starts")
}

/// Settings for tests: the default ones with listing roots pointed at the shipped checkpoints,
/// a known seed, and no limits per client (every test client comes from the same address; the
/// limits have their own test).
pub fn settings() -> Settings {
    Settings {
        checkpoint_roots: vec!["../../../checkpoints".into()],
        seed: Some(0),
        requests_per_second: 0.0,
        max_games_per_client: usize::MAX,
        max_connections_per_client: usize::MAX,
        ..Settings::default()
    }
}

/// Creates a game, panicking with the server's message if it is refused; remembers every
/// person's seat secret and sends the first one from now on.
pub fn create(client: &mut Client, body: Value) -> Value {
    client.set_token(None);
    let r = client.post("/api/games", &body).unwrap();
    assert_eq!(r.status, 200, "create refused: {}", r.text);
    let resp = r.json();
    let id = resp["game"].as_str().unwrap().to_string();
    for t in resp["tokens"].as_array().expect("tokens") {
        let seat = t["seat"].as_u64().unwrap();
        TOKENS.lock().unwrap().insert((id.clone(), seat), t["token"].as_str().unwrap().to_string());
    }
    if let Some(seat) = resp["seat"].as_u64() {
        as_seat(client, &id, seat);
    }
    resp
}

/// The secret of `seat` in game `id`, if a person plays it.
pub fn token(id: &str, seat: u64) -> Option<String> {
    TOKENS.lock().unwrap().get(&(id.to_string(), seat)).cloned()
}

/// Sends `seat`'s secret with the client's later requests (none for an agent's seat).
pub fn as_seat(client: &mut Client, id: &str, seat: u64) {
    client.set_token(token(id, seat).as_deref());
}

/// Seat `seat`'s view of game `id` (events from `since`), with its secret.
pub fn view(client: &mut Client, id: &str, seat: u64, since: usize) -> Reply {
    as_seat(client, id, seat);
    client.get(&format!("/api/games/{id}?seat={seat}&since={since}")).unwrap()
}

/// Picks a legal action for a human seat: the `k`-th listed, cycling.
pub fn pick(resp: &Value, k: usize) -> String {
    let legal = resp["legal"].as_array().expect("legal list");
    assert!(!legal.is_empty(), "no legal action offered: {resp}");
    legal[k % legal.len()]["name"].as_str().unwrap().to_string()
}

/// Takes `action` for `seat` in game `id`, with that seat's secret.
pub fn act(client: &mut Client, id: &str, seat: u64, action: &str) -> Reply {
    as_seat(client, id, seat);
    client.post(&format!("/api/games/{id}/action"), &json!({ "seat": seat, "action": action })).unwrap()
}

/// Whose human decision it is, given a view response.
pub fn human_actor(resp: &Value) -> Option<u64> {
    if resp["status"] != "playing" || resp["human_turn"] != true {
        return None;
    }
    resp["actor"].as_u64()
}
