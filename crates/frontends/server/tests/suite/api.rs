//! The API against a real server on a loopback port: full games, advice, replays, limits and
//! every kind of bad input (each a 4xx with a JSON error naming the problem, the game intact).

use crate::common;
use game::Game as _;

use common::{CHECKPOINT, act, as_seat, create, human_actor, pick, token, view};
use games::kessel::Kessel;
use serde_json::{Value, json};
use server::client::{Client, Reply};
use server::{Settings, TableDefaults};
use std::time::Duration;

/// Plays a created game to its end with the human seats cycling through their legal actions.
fn play_out(client: &mut Client, mut resp: Value) -> Value {
    let id = resp["game"].as_str().unwrap().to_string();
    let mut k = 0;
    while let Some(actor) = human_actor(&resp) {
        k += 1;
        let r = act(client, &id, actor, &pick(&resp, k));
        assert_eq!(r.status, 200, "{}", r.text);
        resp = r.json();
    }
    resp
}

/// Asserts a JSON error of `status` and `kind` whose message contains every one of `words`.
fn assert_error(r: &Reply, status: u16, kind: &str, words: &[&str]) {
    assert_eq!(r.status, status, "wrong status for {}", r.text);
    let j = r.json();
    assert_eq!(j["error"], kind, "{}", r.text);
    let message = j["message"].as_str().expect("message");
    for w in words {
        assert!(message.contains(w), "message `{message}` does not name `{w}`");
    }
}

#[test]
fn api_plays_full_games_against_bots_and_replays_them() {
    let running = common::start(common::settings());
    let mut client = Client::new(running.addr());
    for seed in 0..4u64 {
        let created = create(&mut client, json!({ "seats": ["human", "expert", "greedy", "random"], "seed": seed }));
        assert_eq!(created["seats"][1]["player"], "expert");
        let end = play_out(&mut client, created);
        assert!(end["status"] == "over" || end["status"] == "truncated", "{end}");
        let id = end["game"].as_str().unwrap();
        let replay = client.get(&format!("/api/games/{id}/replay")).unwrap();
        assert_eq!(replay.status, 200, "{}", replay.text);
        let replay = replay.json();
        let steps = replay["steps"].as_u64().unwrap();
        assert_eq!(replay["actions"].as_array().unwrap().len() as u64, steps);
        // The record replays: rules + seed + actions give the same final hands and log.
        let rules: games::kessel::RuleConfig = serde_json::from_value(replay["rules"].clone()).unwrap();
        let mut state = games::kessel::State::new(rules, replay["seed"].as_u64().unwrap()).unwrap();
        for a in replay["actions"].as_array().unwrap() {
            state.apply(games::kessel::Action::parse(a["action"].as_str().unwrap()).unwrap()).unwrap();
        }
        assert!(state.is_terminal());
        assert_eq!(json!(state.events()), replay["events"]);
        for (i, hand) in replay["final_hands"].as_array().unwrap().iter().enumerate() {
            assert_eq!(json!(state.player(game::Seat(i as u8)).hand), *hand);
        }
        // Any step loads: a mid-game step as a scenario that the engine accepts.
        let mut loaded = 0;
        for step in [0, steps / 3, steps / 2, steps] {
            let r = client.get(&format!("/api/games/{id}/replay/{step}")).unwrap();
            assert_eq!(r.status, 200, "{}", r.text);
            let r = r.json();
            assert_eq!(r["views"].as_array().unwrap().len(), 4);
            if !r["scenario"].is_null() {
                let state =
                    games::kessel::Scenario::from_json(&r["scenario"].to_string()).expect("replay scenario loads");
                assert_eq!(state.current_player().map(|s| s.0 as u64), r["next"]["seat"].as_u64());
                loaded += 1;
            }
        }
        assert!(loaded >= 1, "no replay step loaded as a scenario");
    }
}

#[test]
fn api_ask_gives_policy_probabilities_search_values_and_bot_choices() {
    let running = common::start(Settings {
        tables: common::table(
            "kessel",
            TableDefaults { opponents: vec!["expert".into()], hint: Some(CHECKPOINT.into()) },
        ),
        ..common::settings()
    });
    let mut client = Client::new(running.addr());
    let mut resp = create(&mut client, json!({ "seats": ["human", "expert"], "seed": 3 }));
    let id = resp["game"].as_str().unwrap().to_string();
    let mut asked_act = false;
    let mut k = 0;
    while let Some(actor) = human_actor(&resp) {
        let legal: Vec<String> =
            resp["legal"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap().to_string()).collect();
        if legal.len() > 1 && resp["view"]["decision"]["decision"] == "act" {
            as_seat(&mut client, &id, actor);
            let hint = client.post(&format!("/api/games/{id}/ask"), &json!({ "seat": actor })).unwrap();
            assert_eq!(hint.status, 200, "{}", hint.text);
            let hint = hint.json();
            assert_eq!(hint["kind"], "policy");
            let names: Vec<&str> =
                hint["actions"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
            assert_eq!(
                names,
                legal.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
                "hint must list exactly the legal actions"
            );
            let total: f64 =
                hint["actions"].as_array().unwrap().iter().map(|a| a["probability"].as_f64().unwrap()).sum();
            assert!((total - 1.0).abs() < 1e-3, "probabilities sum to {total}");
            assert!(hint["value"].as_f64().unwrap().is_finite());
            let search = client.post(&format!("/api/games/{id}/ask"), &json!({ "agent": "search:4" })).unwrap();
            let search = search.json();
            assert_eq!(search["kind"], "search", "{search}");
            for a in search["actions"].as_array().unwrap() {
                let v = a["value"].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&v), "search value {v} outside [0, 1]");
            }
            let bot = client.post(&format!("/api/games/{id}/ask"), &json!({ "agent": "expert" })).unwrap().json();
            assert!(legal.contains(&bot["choice"]["name"].as_str().unwrap().to_string()), "{bot}");
            asked_act = true;
        }
        k += 1;
        resp = act(&mut client, &id, actor, &pick(&resp, k)).json();
    }
    assert!(asked_act, "the game never offered a choice to ask about");
    // A scenario (the example of docs/scenarios.md) can be asked about without a game.
    let scenario = json!({
        "config": {"players": 2, "token_assignment": "none"},
        "actor": 0,
        "players": [{"hand": ["S1", "B1"], "stock": 5, "tokens": ["embargo"]}, {"hand": ["S2", "B2"], "stock": 5}],
        "sand_discard": ["S6"],
        "blood_discard": ["B6"]
    });
    let r = client.post("/api/ask", &json!({ "scenario": scenario, "agent": CHECKPOINT })).unwrap();
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["kind"], "policy");
    let r = client.post("/api/ask", &json!({ "scenario": { "players": [] }, "agent": "expert" })).unwrap();
    assert_error(&r, 400, "bad-request", &["scenario"]);
}

#[test]
fn api_bad_input_gets_a_4xx_json_error_naming_the_problem() {
    let running = common::start(Settings { max_games: 3, max_body: 4096, ..common::settings() });
    let mut c = Client::new(running.addr());
    assert_error(
        &c.post_raw("/api/games", b"{\"seats\": [\"human\",").unwrap(),
        400,
        "bad-request",
        &["malformed JSON"],
    );
    assert_error(&c.post_raw("/api/games", b"{\"seats\": [\"human\", 7]}").unwrap(), 400, "bad-request", &["seats[1]"]);
    assert_error(&c.post_raw("/api/games", b"{\"seets\": []}").unwrap(), 400, "bad-request", &["seets"]);
    assert_error(&c.post("/api/games", &json!({ "seats": ["human"] })).unwrap(), 400, "bad-request", &["2 to 8"]);
    assert_error(
        &c.post("/api/games", &json!({ "seats": ["human", "wizard"] })).unwrap(),
        400,
        "bad-request",
        &["seats[1]", "wizard", "expert"],
    );
    assert_error(
        &c.post("/api/games", &json!({ "seats": ["human", "expert"], "rules": { "starting_chips": "many" } })).unwrap(),
        400,
        "bad-request",
        &["rules.starting_chips"],
    );
    let big = format!("{{\"seats\": [\"human\", \"expert\"], \"pad\": \"{}\"}}", "x".repeat(10_000));
    assert_error(&c.post_raw("/api/games", big.as_bytes()).unwrap(), 413, "body-too-large", &["4096"]);
    assert_error(&c.get("/api/games/g999?seat=0").unwrap(), 404, "unknown-game", &["g999"]);
    assert_error(&c.get("/api/nothing").unwrap(), 404, "unknown-endpoint", &["/api/nothing"]);
    assert_error(&c.get("/api/games").unwrap(), 404, "unknown-endpoint", &["GET"]);

    let game = create(&mut c, json!({ "seats": ["human", "expert", "human"], "seed": 9 }));
    let id = game["game"].as_str().unwrap().to_string();
    let before = running.app().game_state(&id).unwrap();
    let actor = human_actor(&game).expect("a human decides");
    let other = if actor == 0 { 2 } else { 0 };
    let legal = pick(&view(&mut c, &id, actor, 0).json(), 0);
    assert_error(&c.get(&format!("/api/games/{id}?seat=x")).unwrap(), 400, "bad-request", &["seat", "x"]);
    assert_error(&c.get(&format!("/api/games/{id}?sit=0")).unwrap(), 400, "bad-request", &["sit"]);
    assert_error(&c.get(&format!("/api/games/{id}?seat=3")).unwrap(), 403, "wrong-seat", &["seat 3", "0 to 2"]);
    assert_error(&act(&mut c, &id, 1, &legal), 403, "wrong-seat", &["seat 1", "expert"]);
    assert_error(&act(&mut c, &id, 7, &legal), 403, "wrong-seat", &["seat 7"]);
    assert_error(&act(&mut c, &id, other, &legal), 409, "conflict", &[&format!("seat {actor}'s decision")]);
    // A seat's view, advice and actions need that seat's secret: none, another seat's, or a
    // made-up one are refused; without a token the caller only watches.
    c.set_token(None);
    assert_error(&act_raw(&mut c, &id, actor, &legal), 403, "forbidden", &[&format!("seat {actor}"), "Bearer"]);
    c.set_token(token(&id, other).as_deref());
    assert_error(&act_raw(&mut c, &id, actor, &legal), 403, "forbidden", &["not seat", "secret"]);
    assert_error(&c.get(&format!("/api/games/{id}?seat={actor}")).unwrap(), 403, "forbidden", &["not seat"]);
    assert_error(&c.post(&format!("/api/games/{id}/ask"), &json!({ "seat": actor })).unwrap(), 403, "forbidden", &[]);
    c.set_token(Some("0123456789abcdef0123456789abcdef"));
    assert_error(&c.get(&format!("/api/games/{id}")).unwrap(), 403, "forbidden", &["no seat's secret"]);
    assert_error(&c.get(&format!("/api/games/{id}?seat=1")).unwrap(), 403, "wrong-seat", &["agent", "expert"]);
    c.set_token(None);
    let watched = c.get(&format!("/api/games/{id}?seat={actor}")).unwrap().json();
    assert_eq!(watched["spectator"], true);
    assert!(watched.get("view").is_none() && watched.get("legal").is_none(), "{watched}");
    assert_error(&c.post(&format!("/api/games/{id}/ask"), &json!({})).unwrap(), 403, "forbidden", &["Bearer"]);
    as_seat(&mut c, &id, actor);
    assert_error(&act(&mut c, &id, actor, "dance"), 400, "bad-request", &["dance", &legal]);
    let illegal = (0..Kessel::SPEC.num_actions)
        .map(|i| games::kessel::Action::from_index(i).unwrap())
        .find(|a| !before.legal_mask().contains(*a))
        .unwrap();
    assert_error(&act(&mut c, &id, actor, &illegal.name()), 409, "conflict", &[&illegal.name(), "not legal"]);
    assert_error(
        &c.post_raw(&format!("/api/games/{id}/action"), b"{\"seat\": 0}").unwrap(),
        400,
        "bad-request",
        &["action"],
    );
    assert_error(&c.post_raw(&format!("/api/games/{id}/action"), b"").unwrap(), 400, "bad-request", &["empty"]);
    assert_error(&c.get(&format!("/api/games/{id}/replay")).unwrap(), 409, "conflict", &["still being played"]);
    assert_error(&c.get(&format!("/api/games/{id}/replay/zz")).unwrap(), 400, "bad-request", &["zz"]);
    assert_error(
        &c.post(&format!("/api/games/{id}/ask"), &json!({ "seat": actor })).unwrap(),
        400,
        "bad-request",
        &["--hint"],
    );
    as_seat(&mut c, &id, other);
    assert_error(
        &c.post(&format!("/api/games/{id}/ask"), &json!({ "seat": other, "agent": "expert" })).unwrap(),
        409,
        "conflict",
        &["no decision"],
    );
    // None of it changed the game.
    assert_eq!(running.app().game_state(&id).unwrap(), before);
    // The game cap: three held, the fourth refused with the cap named.
    create(&mut c, json!({ "seats": ["human", "random"] }));
    create(&mut c, json!({ "seats": ["human", "random"] }));
    assert_error(
        &c.post("/api/games", &json!({ "seats": ["human", "random"] })).unwrap(),
        429,
        "too-many-games",
        &["3"],
    );
    assert_eq!(running.app().games_held(), 3);
}

#[test]
fn api_concurrent_actions_on_one_game_never_interleave() {
    let running = common::start(common::settings());
    let addr = running.addr();
    let mut c = Client::new(addr);
    let created = create(&mut c, json!({ "seats": ["human", "random", "random"], "seed": 42 }));
    let id = created["game"].as_str().unwrap().to_string();
    // Eight clients race to play the same seat; each submits whatever its latest view offers.
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let id = id.clone();
            std::thread::spawn(move || {
                let mut c = Client::new(addr);
                let (mut ok, mut refused) = (0, 0);
                for k in 0..400 {
                    let v = view(&mut c, &id, 0, 0).json();
                    if v["status"] != "playing" {
                        break;
                    }
                    if v["legal"].as_array().is_none_or(|l| l.is_empty()) {
                        continue;
                    }
                    let r = act(&mut c, &id, 0, &pick(&v, k + t));
                    match r.status {
                        200 => ok += 1,
                        409 => refused += 1,
                        s => panic!("unexpected status {s}: {}", r.text),
                    }
                }
                (ok, refused)
            })
        })
        .collect();
    let mut ok = 0;
    for h in handles {
        ok += h.join().unwrap().0;
    }
    let state = running.app().game_state(&id).unwrap();
    state.check_invariants().expect("the game is consistent");
    assert!(ok > 0);
    // Every accepted action is in the record, and the record replays to the same state.
    if state.is_terminal() {
        let replay = c.get(&format!("/api/games/{id}/replay")).unwrap().json();
        let human = replay["actions"].as_array().unwrap().iter().filter(|a| a["seat"] == 0).count();
        assert_eq!(human, ok, "accepted actions and recorded actions differ");
    }
}

#[test]
fn api_idle_games_are_dropped_and_finished_games_saved() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::start(Settings {
        idle_timeout: Duration::from_millis(300),
        save_dir: Some(dir.path().to_path_buf()),
        ..common::settings()
    });
    let mut c = Client::new(running.addr());
    let finished = create(&mut c, json!({ "seats": ["random", "random", "expert"], "seed": 5 }));
    assert_ne!(finished["status"], "playing", "an all-agent game plays itself out");
    let id = finished["game"].as_str().unwrap();
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(format!("{id}.json"))).unwrap()).unwrap();
    assert_eq!(saved, c.get(&format!("/api/games/{id}/replay")).unwrap().json());
    let idle = create(&mut c, json!({ "seats": ["human", "random"] }));
    let idle_id = idle["game"].as_str().unwrap();
    std::thread::sleep(Duration::from_millis(900));
    assert_error(&view(&mut c, idle_id, 0, 0), 404, "unknown-game", &[idle_id]);
    assert_eq!(running.app().games_held(), 0);
}

#[test]
fn api_serves_the_play_page_and_agent_list() {
    let running = common::start(common::settings());
    let mut c = Client::new(running.addr());
    let page = c.get("/").unwrap();
    assert_eq!(page.status, 200);
    assert!(page.text.contains("<script src=\"/app.js\">"));
    assert!(c.get("/app.js").unwrap().text.contains("/api/games"));
    let agents = c.get("/api/agents").unwrap().json();
    let specs: Vec<&str> = agents["agents"].as_array().unwrap().iter().map(|a| a["spec"].as_str().unwrap()).collect();
    assert!(specs.contains(&"expert") && specs.iter().any(|s| s.ends_with("mixed-tables")), "{specs:?}");
}

#[test]
fn serve_settings_refuse_unknown_agents_and_an_unwritable_save_folder() {
    let bad = |s: Settings| server::AppState::new(s).err().expect("refused").to_string();
    let msg = bad(Settings {
        tables: common::table("kessel", TableDefaults { opponents: vec!["wizard".into()], hint: None }),
        ..common::settings()
    });
    assert!(msg.starts_with("--agents: unknown agent `wizard`") && msg.contains("expert"), "{msg}");
    let msg = bad(Settings {
        tables: common::table(
            "kessel",
            TableDefaults { opponents: vec!["expert".into()], hint: Some("wizard".into()) },
        ),
        ..common::settings()
    });
    assert!(msg.starts_with("--hint: unknown agent `wizard`"), "{msg}");
    let msg = bad(Settings {
        tables: common::table("kessel", TableDefaults { opponents: vec![], hint: None }),
        ..common::settings()
    });
    assert!(msg.contains("--agents"), "{msg}");
    let file = tempfile::NamedTempFile::new().unwrap();
    let msg = bad(Settings { save_dir: Some(file.path().join("games")), ..common::settings() });
    assert!(msg.starts_with("--save") && msg.contains("cannot write there"), "{msg}");
}

#[test]
fn a_bounded_load_on_loopback_loses_no_game() {
    // 16 clients at once, 4 full games each, on a real server: every game finishes and replays.
    let r = server::load::run(16, 4);
    assert_eq!(r.lost, 0, "{} of 64 games were lost", r.lost);
    // A game is at least a create, one action and a replay.
    assert!(r.requests >= 64 * 3, "only {} requests", r.requests);
}

/// The shipped classic checkpoint, seen from this crate's folder.
const CLASSIC_CHECKPOINT: &str = "../../../checkpoints/classic-champion";

#[test]
fn api_plays_classic_games_to_their_end_with_advice_and_replays() {
    let running = common::start(Settings {
        tables: common::table(
            "classic",
            TableDefaults { opponents: vec!["expert".into()], hint: Some(CLASSIC_CHECKPOINT.into()) },
        ),
        ..common::settings()
    });
    let mut client = Client::new(running.addr());
    // The agent list names both games, each with its own agents.
    let listed = client.get("/api/agents").unwrap().json();
    let games: Vec<&str> = listed["games"].as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(games, games::GameId::names(), "every registered game, in the registry's order");
    let classic_agents: Vec<&str> =
        listed["games"][1]["agents"].as_array().unwrap().iter().map(|a| a["spec"].as_str().unwrap()).collect();
    assert!(classic_agents.contains(&"expert"), "{classic_agents:?}");
    assert!(classic_agents.iter().any(|s| s.ends_with("classic-champion")), "{classic_agents:?}");
    assert!(!classic_agents.iter().any(|s| s.ends_with("mixed-tables")), "a Kessel checkpoint listed for classic");

    let mut bets = 0;
    let mut asked = 0;
    for seed in 0..3u64 {
        let mut resp = create(
            &mut client,
            json!({ "game": "classic", "seats": ["human", "expert", "greedy"], "seed": seed, "rules": { "hand_limit": 6 } }),
        );
        assert_eq!(resp["kind"], "classic");
        assert_eq!(resp["seats"][1]["player"], "expert");
        let id = resp["game"].as_str().unwrap().to_string();
        let mut k = 0;
        while let Some(actor) = human_actor(&resp) {
            k += 1;
            let legal: Vec<&str> =
                resp["legal"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
            if legal.len() > 1 && asked < 4 {
                let hint = client.post(&format!("/api/games/{id}/ask"), &json!({})).unwrap();
                assert_eq!(hint.status, 200, "{}", hint.text);
                let hint = hint.json();
                assert_eq!(hint["kind"], "policy", "{hint}");
                let names: Vec<&str> =
                    hint["actions"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
                assert_eq!(names, legal, "hint must list exactly the legal actions");
                let bot = client.post(&format!("/api/games/{id}/ask"), &json!({ "agent": "expert" })).unwrap().json();
                assert!(legal.contains(&bot["choice"]["name"].as_str().unwrap()), "{bot}");
                asked += 1;
            }
            // Bet when a bet is offered, so that the game is not all checks and folds.
            let action = legal.iter().find(|a| a.starts_with("bet:")).map_or_else(|| pick(&resp, k), |a| a.to_string());
            bets += usize::from(action.starts_with("bet:"));
            let r = act(&mut client, &id, actor, &action);
            assert_eq!(r.status, 200, "{}", r.text);
            resp = r.json();
        }
        assert!(resp["status"] == "over" || resp["status"] == "truncated", "{resp}");
        // The record replays through the classic engine to the same end.
        let replay = client.get(&format!("/api/games/{id}/replay")).unwrap().json();
        assert_eq!(replay["kind"], "classic");
        let rules: games::classic::RuleConfig = serde_json::from_value(replay["rules"].clone()).unwrap();
        let mut state = games::classic::State::new(rules, replay["seed"].as_u64().unwrap()).unwrap();
        for a in replay["actions"].as_array().unwrap() {
            state.apply(games::classic::Action::parse(a["action"].as_str().unwrap()).unwrap()).unwrap();
        }
        assert!(state.is_terminal());
        assert_eq!(json!(state.winners()), replay["winners"]);
        let steps = replay["steps"].as_u64().unwrap();
        let mid = client.get(&format!("/api/games/{id}/replay/{}", steps / 2)).unwrap().json();
        assert_eq!(mid["views"].as_array().unwrap().len(), 3);
        if !mid["scenario"].is_null() {
            let loaded =
                games::classic::Scenario::from_json(&mid["scenario"].to_string()).expect("replay scenario loads");
            assert_eq!(loaded.current_player().map(|s| u64::from(s.0)), mid["next"]["seat"].as_u64());
        }
    }
    assert!(bets > 0 && asked > 0, "bets {bets}, hints {asked}");
    // Kessel action names are refused in a classic game, naming the legal ones.
    let resp = create(&mut client, json!({ "game": "classic", "seats": ["human", "random"], "seed": 9 }));
    let r = act(&mut client, resp["game"].as_str().unwrap(), 0, "draw:sand-deck");
    assert_error(&r, 400, "bad-request", &["draw:sand-deck", "legal now"]);
    let r = client.post("/api/games", &json!({ "game": "poker", "seats": ["human", "random"] })).unwrap();
    assert_error(&r, 400, "bad-request", &["game", "poker", "kessel", "classic"]);
    let r = client
        .post("/api/games", &json!({ "game": "classic", "seats": ["human", "random"], "rules": { "bet_limit": 99 } }))
        .unwrap();
    assert_error(&r, 400, "bad-request", &["rules", "bet_limit"]);
    let r = client.post("/api/games", &json!({ "game": "classic", "seats": ["human", "tight"] })).unwrap();
    assert_error(&r, 400, "bad-request", &["seats[1]", "tight"]);
}

#[test]
fn api_plays_a_game_without_a_drawing_through_its_text_and_named_actions() {
    // Leduc hold'em has no drawing on the page: the server gives its text rendering, its named
    // actions and its seat range, and a default table fits the game (heads-up) whatever the
    // server's table size.
    let running = common::start(Settings { players: 4, ..common::settings() });
    let mut client = Client::new(running.addr());
    let listed = client.get("/api/agents").unwrap().json();
    let leduc = listed["games"].as_array().unwrap().iter().find(|g| g["name"] == "leduc").expect("leduc listed");
    assert_eq!(leduc["seats"], json!([2, 2]), "{leduc}");
    let agents: Vec<&str> = leduc["agents"].as_array().unwrap().iter().map(|a| a["spec"].as_str().unwrap()).collect();
    assert!(agents.contains(&"cfr"), "{agents:?}");

    let mut resp = create(&mut client, json!({ "game": "leduc", "seed": 4 }));
    assert_eq!(resp["kind"], "leduc");
    assert_eq!(resp["seats"].as_array().unwrap().len(), 2, "default table clamped to heads-up: {resp}");
    let id = resp["game"].as_str().unwrap().to_string();
    let mut steps = 0;
    while let Some(actor) = human_actor(&resp) {
        let text = resp["text"].as_str().unwrap();
        assert!(text.contains("pot") || text.contains("Pot"), "{text}");
        assert_eq!(resp["actor"], json!(actor));
        steps += 1;
        let r = act(&mut client, &id, actor, &pick(&resp, steps));
        assert_eq!(r.status, 200, "{}", r.text);
        resp = r.json();
    }
    assert_eq!(resp["status"], "over", "{resp}");
    let replay = client.get(&format!("/api/games/{id}/replay/1")).unwrap().json();
    let texts = replay["texts"].as_array().expect("texts for each seat");
    assert_eq!(texts.len(), 2);
    assert_ne!(texts[0], texts[1], "each seat sees its own private card");
    let r = client.post("/api/games", &json!({ "game": "leduc", "seats": ["human", "cfr", "cfr"] })).unwrap();
    assert_error(&r, 400, "bad-request", &["2"]);
}

/// Posts an action with whatever token the client carries.
fn act_raw(c: &mut Client, id: &str, seat: u64, action: &str) -> Reply {
    c.post(&format!("/api/games/{id}/action"), &json!({ "seat": seat, "action": action })).unwrap()
}

#[test]
fn api_limits_each_client_rate_and_games_with_429() {
    // Three games per client, ten requests at once then five a second.
    let running =
        common::start(Settings { max_games_per_client: 3, requests_per_second: 5.0, burst: 10, ..common::settings() });
    let mut c = Client::new(running.addr());
    // A game played by agents alone is over at once, and counts until it is dropped: finished
    // games cannot fill the server's cap past the client's share.
    let done = create(&mut c, json!({ "seats": ["random", "random"], "seed": 3 }));
    assert_ne!(done["status"], "playing");
    let first = create(&mut c, json!({ "seats": ["human", "random"], "seed": 1 }));
    create(&mut c, json!({ "seats": ["human", "random"], "seed": 2 }));
    let r = c.post("/api/games", &json!({ "seats": ["human", "random"] })).unwrap();
    assert_error(&r, 429, "too-many-client-games", &["3 games", "per client"]);
    // Past the burst, requests are refused with Retry-After until the bucket refills.
    let id = first["game"].as_str().unwrap();
    let mut limited = None;
    for _ in 0..20 {
        let r = c.get(&format!("/api/games/{id}")).unwrap();
        if r.status == 429 {
            limited = Some(r);
            break;
        }
    }
    let r = limited.expect("the rate limit never answered");
    assert_error(&r, 429, "rate-limited", &["per second", "try again"]);
    std::thread::sleep(Duration::from_millis(1200));
    let again = view(&mut c, id, 0, 0);
    assert_eq!(again.status, 200, "the bucket did not refill: {}", again.text);
}

#[test]
fn api_bad_checkpoints_are_refused_with_a_message_never_a_panic() {
    // Folders outside the listed ones are refused before any load unless paths are allowed.
    let running = common::start(Settings { allow_paths: true, ..common::settings() });
    let mut c = Client::new(running.addr());
    let dir = tempfile::tempdir().unwrap();
    // Garbage metadata, then good metadata with truncated weights.
    let garbage = dir.path().join("garbage");
    std::fs::create_dir_all(&garbage).unwrap();
    std::fs::write(garbage.join("metadata.json"), "{ not json").unwrap();
    std::fs::write(garbage.join("model.bpk"), b"\x00\x01").unwrap();
    let truncated = dir.path().join("truncated");
    std::fs::create_dir_all(&truncated).unwrap();
    let shipped = std::path::Path::new(CHECKPOINT);
    std::fs::copy(shipped.join("metadata.json"), truncated.join("metadata.json")).unwrap();
    let weights = std::fs::read(shipped.join("model.bpk")).unwrap();
    std::fs::write(truncated.join("model.bpk"), &weights[..weights.len() / 3]).unwrap();
    for (bad, game) in [(&garbage, "kessel"), (&truncated, "kessel"), (&garbage, "classic"), (&truncated, "classic")] {
        let spec = bad.display().to_string();
        let r = c.post("/api/games", &json!({ "game": game, "seats": ["human", spec] })).unwrap();
        assert_error(&r, 400, "bad-request", &["seats[1]"]);
        assert!(r.text.contains(bad.file_name().unwrap().to_str().unwrap()), "{}", r.text);
    }
    // The server is still up and serves games.
    create(&mut c, json!({ "seats": ["human", "random"] }));
}

#[test]
fn a_short_soak_keeps_every_game_every_secret_and_answers_no_5xx() {
    // Eight clients for three seconds: full games of both kinds, two-person tables, abandoned
    // games, spectators, wrong secrets and malformed requests, beside four attackers (the long
    // run is `benches/soak.rs`).
    let r = server::soak::run(8, 4, 3.0, Duration::from_millis(500));
    assert!(r.games > 10 && r.finished > 5 && r.abandoned > 0 && r.bad_requests > 5, "{r:?}");
    assert_eq!((r.server_errors, r.lost, r.leaks, r.unrefused), (0, 0, 0, 0), "{r:?}");
    assert_eq!(r.games_held_after, 0, "idle games were not dropped: {r:?}");
    let a = &r.attacks;
    assert!(a.refused > 0 && a.slow_opened > 0 && a.hangups > 0, "the attackers did not attack: {a:?}");
    assert_eq!((a.predicted, a.specs_taken, a.slow_held, a.server_errors), (0, 0, 0, 0), "{a:?}");
}
