//! `sabacc export level:N`: a difficulty level exported as the champion's bundle whose contract
//! carries the level, its ladder rating and its random-move rate; bad levels and ladders that do
//! not rate the level (or rated other weights) are refused before anything is written.

use crate::common::{fails_with, repo, sabacc, stderr};
use std::path::Path;

fn export(args: &[&str]) {
    let mut all = vec!["export"];
    all.extend_from_slice(args);
    let o = sabacc(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_level_exports_as_a_bundle_whose_contract_carries_the_level_and_its_rating() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("level-3");
    export(&["level:3", "--out", s(&out)]);
    let c = policy::export::read_contract(&out).unwrap();
    assert_eq!(c.contract_version, policy::export::CONTRACT_VERSION);
    assert_eq!(c.source.checkpoint, "champion", "every level plays the champion's network");
    let l = c.level.expect("a level bundle carries its level");
    assert_eq!((l.number, l.spec.as_str(), l.name.as_str()), (3, "level:3", "intermediate"));
    assert_eq!(l.selection, "argmax");
    assert!((l.mistake_rate - 0.4).abs() < 1e-12, "{}", l.mistake_rate);
    assert!(l.rule.contains("0.4") && l.rule.contains("uniformly among the legal"), "{}", l.rule);
    assert!(!l.rule.contains("  "), "one line of words: {}", l.rule);
    let ladder_path = repo().join(eval::ladder::shipped("kessel"));
    let ladder = eval::ladder::Ladder::read(&ladder_path).unwrap();
    let entry = ladder.agents.iter().find(|e| e.spec == "level:3").unwrap();
    assert_eq!((l.rating.rating, l.rating.low, l.rating.high), (entry.rated.rating, entry.rated.low, entry.rated.high));
    assert_eq!(l.rating.games, entry.games);
    // The level's rating at each table size the ladder rates: heads-up and four seats.
    let by_size: Vec<(u8, f64, f64, f64, u64)> =
        l.rating.by_size.iter().map(|s| (s.players, s.rating, s.low, s.high, s.games)).collect();
    let want: Vec<(u8, f64, f64, f64, u64)> =
        entry.by_size.iter().map(|s| (s.players, s.rated.rating, s.rated.low, s.rated.high, s.games)).collect();
    assert_eq!(by_size, want);
    assert_eq!(by_size.iter().map(|s| s.0).collect::<Vec<_>>(), [2, 4]);
    assert_eq!(l.rating.anchors, vec!["expert=1500".to_string()]);
    assert_eq!(l.rating.ladder_file, eval::ladder::shipped("kessel"));
    assert_eq!(l.rating.ladder_sha256, policy::export::sha256_hex(&std::fs::read(&ladder_path).unwrap()));
    let readme = std::fs::read_to_string(out.join(policy::export::README_FILE)).unwrap();
    assert!(readme.contains("mistake_rate") && readme.contains("level:3"), "{readme}");
    // The bundle is the champion's network: it loads and plays like any bundle.
    let bundle = policy::export::Bundle::load(&out, &policy::cpu_device()).unwrap();
    assert_eq!(bundle.contract().level.as_ref().map(|l| l.number), Some(3));
}

#[test]
fn the_champion_level_has_no_mistakes_and_an_ordinary_export_has_no_level() {
    let d = tempfile::tempdir().unwrap();
    export(&["level:5", "--out", s(&d.path().join("l5"))]);
    let l = policy::export::read_contract(&d.path().join("l5")).unwrap().level.unwrap();
    assert_eq!((l.number, l.mistake_rate), (5, 0.0));
    export(&["quick-4p", "--out", s(&d.path().join("plain"))]);
    let text = std::fs::read_to_string(d.path().join("plain").join(policy::export::CONTRACT_FILE)).unwrap();
    assert!(!text.contains("\"level\""), "an ordinary bundle has no level section");
}

#[test]
fn a_bad_level_or_a_ladder_without_it_is_an_error_saying_what_to_do() {
    let d = tempfile::tempdir().unwrap();
    for bad in ["level:0", "level:6", "level:x", "level:", "level:-1"] {
        fails_with(
            &["export", bad, "--out", s(&d.path().join("x"))],
            &["is not a difficulty level", "level:1 (beginner)", "level:5 (champion)"],
        );
    }
    let shipped = repo().join(eval::ladder::shipped("kessel"));
    let other = d.path().join("other.json");
    let text = std::fs::read_to_string(&shipped).unwrap().replace("\"level:3\"", "\"level:33\"");
    std::fs::write(&other, text).unwrap();
    fails_with(
        &["export", "level:3", "--out", s(&d.path().join("y")), "--ladder", s(&other)],
        &["rates no `level:3`", "--ladder"],
    );
    fails_with(
        &["export", "quick-4p", "--out", s(&d.path().join("z")), "--ladder", s(&shipped)],
        &["only to `sabacc export level:N`"],
    );
    assert!(!d.path().join("x").exists() && !d.path().join("y").exists() && !d.path().join("z").exists());
}

/// A ladder that rated other weights than the champion's today is refused: the bundle would
/// carry a rating its network never earned.
#[test]
fn a_ladder_that_rated_other_weights_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let mut ladder = eval::ladder::Ladder::read(&repo().join(eval::ladder::shipped("kessel"))).unwrap();
    let pin = ladder.networks.iter_mut().find(|n| n.folder == "checkpoints/champion").unwrap();
    pin.model_sha256 = "0".repeat(64);
    let stale = d.path().join("stale.json");
    std::fs::write(&stale, ladder.to_json()).unwrap();
    let out = d.path().join("out");
    fails_with(
        &["export", "level:2", "--out", s(&out), "--ladder", s(&stale)],
        &["stale.json", "checkpoints/champion", "`level:2`", "do not hold", "Rebuild the ladder"],
    );
    assert!(!out.exists(), "nothing is written");
}
