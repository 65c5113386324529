//! Attacks on the play server, played against a real one: each shows what an attacker learns.

use crate::common;

use common::create;
use game::derive_seed;
use serde_json::json;
use server::Settings;
use server::client::Client;

/// The seeds of `n` agents-only games (they finish when created), read from their replays.
fn harvested_seeds(client: &mut Client, n: usize) -> Vec<u64> {
    (0..n)
        .map(|_| {
            let created = create(client, json!({ "seats": ["expert", "random"] }));
            let id = created["game"].as_str().unwrap();
            let replay = client.get(&format!("/api/games/{id}/replay")).unwrap();
            assert_eq!(replay.status, 200, "{}", replay.text);
            replay.json()["seed"].as_u64().expect("a replay shows its seed")
        })
        .collect()
}

/// The attack: from two consecutive games' seeds, the base seed and the first one's number.
fn recover(seeds: &[u64]) -> Option<(u64, u64)> {
    server::soak::attack::recover(seeds[0], seeds[1])
}

#[test]
fn the_inversion_is_right() {
    for (base, n) in [(0, 0), (42, 7), (u64::MAX, 1000), (0x1234_5678_9abc_def0, 3)] {
        assert_eq!(server::soak::attack::base_of(derive_seed(base, n), n), base);
    }
}

#[test]
fn replays_do_not_give_the_next_deal_away() {
    // With --seed the deals are recomputable, as documented: two replays give the base seed,
    // and with it the next game's deal before anyone has seen it.
    let running = common::start(Settings { seed: Some(0x5eed_0f5e_12e7), ..common::settings() });
    let mut client = Client::new(running.addr());
    let seeds = harvested_seeds(&mut client, 3);
    let (base, n) = recover(&seeds).expect("with --seed, two replays give the base seed away");
    assert_eq!(derive_seed(base, n + 2), seeds[2], "and the next game's seed with it");

    // Without --seed every game's seed is the operating system's: the same attack finds nothing
    // to predict from, over many pairs.
    let running = common::start(Settings { seed: None, ..common::settings() });
    let mut client = Client::new(running.addr());
    let seeds = harvested_seeds(&mut client, 8);
    for pair in seeds.windows(2) {
        assert_eq!(recover(pair), None, "two replays gave a base seed away: {pair:?}");
    }
}

/// The server's answer to a table with `spec` at seat 1, and its message with the spec's own
/// text taken out (what is left is what the answer tells about the spec).
fn table_with(client: &mut Client, spec: &str) -> (u16, String) {
    let r = client.post("/api/games", &json!({ "seats": ["human", spec] })).unwrap();
    let message = r.json()["message"].as_str().unwrap_or_default().replace(spec, "SPEC");
    (r.status, message)
}

#[test]
fn clients_name_only_the_agents_the_server_offers() {
    let running = common::start(common::settings());
    let mut client = Client::new(running.addr());
    // Folders, files and missing paths outside the listed folders get one answer, which says
    // nothing about what is on disk; so do files inside them (a file would be a policy table,
    // which the server never offers, and is never read).
    let outside = [
        "/etc",
        "/proc/self",
        "/etc/passwd",
        "/no/such/folder",
        "../../../crates",
        "../../../checkpoints/../../etc",
        "../../../checkpoints/champion/metadata.json",
    ];
    let answers: Vec<(u16, String)> = outside.iter().map(|s| table_with(&mut client, s)).collect();
    for ((status, message), spec) in answers.iter().zip(outside) {
        assert_eq!(*status, 400, "{spec}: {message}");
        assert_eq!(message, &answers[0].1, "{spec} is told apart from {}", outside[0]);
        assert!(message.contains("not offered") && message.contains("expert"), "{message}");
    }
    // A listed checkpoint however its path is spelled, with or without a way of choosing.
    for spec in [
        common::CHECKPOINT.to_string(),
        "../../../checkpoints/../checkpoints/mixed-tables".to_string(),
        "../../../checkpoints/./mixed-tables@argmax".to_string(),
    ] {
        let (status, message) = table_with(&mut client, &spec);
        assert_eq!(status, 200, "{spec}: {message}");
    }
    // Search within the budget plays; past it the answer names the budget.
    assert_eq!(table_with(&mut client, "search:4").0, 200);
    let (status, message) = table_with(&mut client, "search:100000");
    assert_eq!(status, 400);
    assert!(message.contains("search budget of 64"), "{message}");
    let (status, message) = table_with(&mut client, "mistakes:10+search:100000");
    assert_eq!(status, 400, "{message}");
    // Questions are held to the same offer.
    let created = create(&mut client, json!({ "seats": ["human", "expert"] }));
    let id = created["game"].as_str().unwrap();
    for agent in ["/etc", "search:100000"] {
        let r = client.post(&format!("/api/games/{id}/ask"), &json!({ "agent": agent })).unwrap();
        assert_eq!(r.status, 400, "{agent}: {}", r.text);
    }
    let r = client.post(&format!("/api/games/{id}/ask"), &json!({ "agent": common::CHECKPOINT })).unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
}

#[test]
fn a_server_for_trusted_people_may_take_any_folder() {
    let running = common::start(Settings { allow_paths: true, checkpoint_roots: vec![], ..common::settings() });
    let mut client = Client::new(running.addr());
    let (status, message) = table_with(&mut client, common::CHECKPOINT);
    assert_eq!(status, 200, "{message}");
}

#[test]
fn finished_games_count_for_their_client_until_they_age_out() {
    // Games of agents alone are over at once; if they did not count, one address could fill the
    // server's cap in seconds and lock every other client out until the idle timeout.
    let running = common::start(Settings {
        max_games: 100,
        max_games_per_client: 3,
        finished_timeout: std::time::Duration::from_millis(300),
        ..common::settings()
    });
    let mut client = Client::new(running.addr());
    for _ in 0..3 {
        create(&mut client, json!({ "seats": ["random", "random"] }));
    }
    let r = client.post("/api/games", &json!({ "seats": ["random", "random"] })).unwrap();
    assert_eq!(r.status, 429, "{}", r.text);
    assert_eq!(r.json()["error"], "too-many-client-games", "{}", r.text);
    assert_eq!(running.app().games_held(), 3, "the server's cap is far away: the client's share stopped it");
    // Finished games nobody reads age out fast, and the client may play again.
    std::thread::sleep(std::time::Duration::from_millis(400));
    running.app().sweep_idle();
    assert_eq!(running.app().games_held(), 0);
    create(&mut client, json!({ "seats": ["random", "random"] }));
}
