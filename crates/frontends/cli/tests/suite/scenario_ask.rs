//! `sabacc scenario FILE --ask AGENTS`: each agent's opinion of the pending decision, from what
//! that seat may see: a policy's probabilities over exactly the legal actions and its value, search's
//! score per legal action, a bot's legal choice; a bad spec is an error naming it.

use std::process::Command;

use crate::common::repo;

fn scenario(name: &str) -> String {
    repo().join("crates/games/kessel/scenarios").join(name).to_string_lossy().into_owned()
}

#[test]
fn ask_gives_each_agent_kind_its_view_of_the_legal_actions() {
    let ckpt = repo().join("checkpoints/mixed-tables").to_string_lossy().into_owned();
    let agents = format!("expert,search:4,{ckpt}@argmax");
    let o = Command::new(env!("CARGO_BIN_EXE_sabacc"))
        .args(["scenario", &scenario("cook_and_prime.json"), "--ask", &agents, "--json"])
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    let legal: Vec<&str> = j["legal_actions"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    let ask = j["ask"].as_array().expect("an ask array");
    assert_eq!(ask.len(), 3);
    let names = |a: &serde_json::Value| -> Vec<String> {
        a["actions"].as_array().unwrap().iter().map(|p| p[0].as_str().unwrap().to_string()).collect()
    };
    // The bot names one legal action.
    assert_eq!(ask[0]["kind"], "bot");
    assert!(legal.contains(&ask[0]["choice"].as_str().unwrap()));
    // Search scores every legal action and nothing else.
    assert_eq!(ask[1]["kind"], "search");
    assert_eq!(names(&ask[1]), legal);
    // The policy spreads probability 1 over exactly the legal actions, with a finite value.
    assert_eq!(ask[2]["kind"], "policy");
    assert_eq!(names(&ask[2]), legal);
    let total: f64 = ask[2]["actions"].as_array().unwrap().iter().map(|p| p[1].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-4, "probabilities sum to {total}");
    assert!(ask[2]["value"].as_f64().unwrap().is_finite());
}

#[test]
fn ask_with_an_unknown_agent_names_it() {
    let o = Command::new(env!("CARGO_BIN_EXE_sabacc"))
        .args(["scenario", &scenario("cook_and_prime.json"), "--ask", "expert,grandmaster"])
        .output()
        .expect("the binary runs");
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("--ask[1]") && e.contains("unknown agent `grandmaster`"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn branch_compares_holding_with_each_playable_token() {
    let o = Command::new(env!("CARGO_BIN_EXE_sabacc"))
        .args(["scenario", &scenario("cook_and_prime.json"), "--branch", "expert", "--continuations", "32", "--json"])
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    let b = j["branch"].as_array().expect("a branch array");
    let names: Vec<&str> = b.iter().map(|x| x["branch"].as_str().unwrap()).collect();
    assert_eq!(names, ["hold", "token:cook-the-books"]);
    assert_eq!(b[0]["win"]["n"], 32);
    assert!(b[0]["win_vs_hold"].is_null() && b[1]["win_vs_hold"]["mean"].is_f64());
}

#[test]
fn branch_without_a_playable_token_says_so() {
    let o = Command::new(env!("CARGO_BIN_EXE_sabacc"))
        .args(["scenario", &scenario("rebuild_draw_pile.json"), "--branch", "expert"])
        .output()
        .expect("the binary runs");
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("--branch") && e.contains("no playable token"), "{e}");
}
