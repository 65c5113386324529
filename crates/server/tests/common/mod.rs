//! A real server on a loopback port and a person playing through its API.

#![allow(dead_code)]

use serde_json::{Value, json};
use server::client::{Client, Reply};
use server::{AppState, Running, Settings};

/// The shipped checkpoint, seen from this crate's folder (tests run there).
pub const CHECKPOINT: &str = "../../checkpoints/mixed-tables";

/// A server with `settings` on a free loopback port.
pub fn start(settings: Settings) -> Running {
    let app = AppState::new(settings).expect("settings are valid");
    Running::start("127.0.0.1:0", app).expect("server starts")
}

/// Settings for tests: the default ones with listing roots pointed at the shipped checkpoints.
pub fn settings() -> Settings {
    Settings { checkpoint_roots: vec!["../../checkpoints".into()], ..Settings::default() }
}

/// Creates a game, panicking with the server's message if it is refused.
pub fn create(client: &mut Client, body: Value) -> Value {
    let r = client.post("/api/games", &body).unwrap();
    assert_eq!(r.status, 200, "create refused: {}", r.text);
    r.json()
}

/// Picks a legal action for a human seat: the `k`-th listed, cycling.
pub fn pick(resp: &Value, k: usize) -> String {
    let legal = resp["legal"].as_array().expect("legal list");
    assert!(!legal.is_empty(), "no legal action offered: {resp}");
    legal[k % legal.len()]["name"].as_str().unwrap().to_string()
}

/// Takes `action` for `seat` in game `id`.
pub fn act(client: &mut Client, id: &str, seat: u64, action: &str) -> Reply {
    client.post(&format!("/api/games/{id}/action"), &json!({ "seat": seat, "action": action })).unwrap()
}

/// Whose human decision it is, given a view response.
pub fn human_actor(resp: &Value) -> Option<u64> {
    if resp["status"] != "playing" || resp["human_turn"] != true {
        return None;
    }
    resp["view"]["actor"].as_u64()
}
