//! Policy tables (`eval::table`): a table plays exactly as the agent it was made from, a saved
//! table reads back bit for bit, and a file that is not a table is refused with the reason.

use eval::exploitability::{exploitability, head_to_head};
use eval::table::{TableError, TablePolicy};
use game::{Agent, AgentRng, Game};
use games::leduc::{Leduc, RuleConfig};
use rand::SeedableRng;
use std::path::Path;

fn bot(name: &str) -> Box<dyn Agent<Leduc>> {
    let entry = Leduc::bots().iter().find(|b| b.name == name).unwrap_or_else(|| panic!("no bot {name}"));
    (entry.build)(0)
}

/// Every decision state of every deal.
fn decisions() -> Vec<<Leduc as Game>::State> {
    let mut stack: Vec<_> = Leduc::deals(&RuleConfig::default()).unwrap().into_iter().map(|(_, s)| s).collect();
    let mut out = Vec::new();
    while let Some(s) = stack.pop() {
        if Leduc::current_player(&s).is_none() {
            continue;
        }
        for i in Leduc::legal_mask(&s).index_list() {
            let mut next = s.clone();
            Leduc::apply(&mut next, <Leduc as Game>::Action::from_index(i).unwrap()).unwrap();
            stack.push(next);
        }
        out.push(s);
    }
    out
}

/// `a` and `b` give the same distribution, bit for bit, at every decision of the game.
fn assert_same_everywhere(a: &mut dyn Agent<Leduc>, b: &mut dyn Agent<Leduc>) {
    for s in decisions() {
        let seat = Leduc::current_player(&s).unwrap();
        let (view, legal) = (Leduc::view(&s, seat), Leduc::legal_mask(&s));
        let (x, y) = (a.distribution(&view, legal).unwrap().unwrap(), b.distribution(&view, legal).unwrap().unwrap());
        assert_eq!(x, y, "at {view:?}");
    }
}

#[test]
fn a_table_gives_the_agents_distributions_and_its_exact_exploitability() {
    let rules = RuleConfig::default();
    let mut cfr = bot("cfr");
    let mut table = TablePolicy::<Leduc>::of_agent("cfr table", &mut *cfr, &rules).unwrap();
    // Leduc hold'em's 936 information sets, both seats', each asked once.
    assert_eq!(table.len(), 936);
    assert_same_everywhere(&mut *cfr, &mut table);
    let (a, b) = (exploitability(&mut *cfr, &rules).unwrap(), exploitability(&mut table, &rules).unwrap());
    assert_eq!(a, b);
    let (a, b) = (
        head_to_head(&mut *cfr, &mut *bot("greedy"), &rules).unwrap(),
        head_to_head(&mut table, &mut *bot("greedy"), &rules).unwrap(),
    );
    assert_eq!(a, b);
}

#[test]
fn a_table_samples_as_the_bot_it_was_made_from() {
    // Both draw one number per decision and walk the legal actions in order: the same stream
    // gives the same actions.
    let rules = RuleConfig::default();
    let mut cfr = bot("cfr");
    let mut table = TablePolicy::<Leduc>::of_agent("cfr table", &mut *cfr, &rules).unwrap();
    let (mut r1, mut r2) = (AgentRng::seed_from_u64(5), AgentRng::seed_from_u64(5));
    for s in decisions().iter().step_by(7) {
        let seat = Leduc::current_player(s).unwrap();
        let (view, legal) = (Leduc::view(s, seat), Leduc::legal_mask(s));
        assert_eq!(cfr.act(&view, legal, &mut r1).unwrap(), table.act(&view, legal, &mut r2).unwrap());
    }
}

#[test]
fn a_saved_table_reads_back_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let rules = RuleConfig::default();
    // A mixture's probabilities are arbitrary doubles, not a network's singles: the harder case.
    let mut members = [bot("cfr"), bot("greedy"), bot("random")];
    let mut mixture =
        eval::average::average_weighted::<Leduc>("mixture", &mut members, &[0.5, 0.3, 0.2], &rules).unwrap();
    let path = dir.path().join("mixture.json");
    mixture.save(&path).unwrap();
    let mut back = TablePolicy::<Leduc>::load(&path).unwrap();
    assert_eq!(back.len(), mixture.len());
    assert_same_everywhere(&mut mixture, &mut back);
    // The same table writes the same bytes (its sets sorted), and no temporary file is left.
    let (again, twice) = (dir.path().join("again.json"), dir.path().join("twice.json"));
    back.save(&again).unwrap();
    back.save(&twice).unwrap();
    let text = std::fs::read_to_string(&again).unwrap();
    assert_eq!(text, std::fs::read_to_string(&twice).unwrap());
    assert!(
        text.starts_with("{\"format\":\"sabacc-policy-table\",\"version\":1,\"game\":\"leduc\""),
        "{}",
        &text[..80]
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

/// Loads `text` as a table and returns the error's message.
fn refused(dir: &Path, text: &str) -> String {
    let path = dir.join("t.json");
    std::fs::write(&path, text).unwrap();
    match TablePolicy::<Leduc>::load(&path) {
        Ok(_) => panic!("{text:.200} loaded"),
        Err(e @ TableError::Invalid { .. }) => e.to_string(),
        Err(e) => panic!("{text:.200}: not an invalid-table error: {e}"),
    }
}

#[test]
fn files_that_are_not_tables_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let missing = TablePolicy::<Leduc>::load(&d.join("none.json")).err().unwrap();
    assert!(matches!(missing, TableError::Io { .. }), "{missing}");
    assert!(refused(d, "{").contains("--save-table"));
    let file = |format: &str, version: u32, game: &str, sets: &str| {
        format!(
            "{{\"format\":\"{format}\",\"version\":{version},\"game\":\"{game}\",\"name\":\"t\",\"infosets\":{{{sets}}}}}"
        )
    };
    assert!(refused(d, &file("leduc-tabular-policy", 1, "leduc", "")).contains("not `sabacc-policy-table`"));
    assert!(refused(d, &file("sabacc-policy-table", 9, "leduc", "")).contains("version 9"));
    assert!(refused(d, &file("sabacc-policy-table", 1, "kessel", "")).contains("a policy of kessel"));
    for bad in ["[0.5,0.5]", "[0.5,0.25,0.0]", "[1.5,-0.5,0.0]", "[0.5,0.5,0.0,0.0]"] {
        let e = refused(d, &file("sabacc-policy-table", 1, "leduc", &format!("\"k\":{bad}")));
        assert!(e.contains("not a distribution over the game's 3 actions"), "{bad}: {e}");
    }
    // A valid file cut anywhere is refused, never a panic.
    let mut members = [bot("greedy")];
    let table = eval::average::average::<Leduc>("greedy", &mut members, &RuleConfig::default()).unwrap();
    let path = d.join("whole.json");
    table.save(&path).unwrap();
    let whole = std::fs::read_to_string(&path).unwrap();
    for cut in (0..whole.len()).step_by(997).filter(|&c| whole.is_char_boundary(c)) {
        refused(d, &whole[..cut]);
    }
}

#[test]
fn a_decision_the_table_does_not_hold_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.json");
    std::fs::write(
        &path,
        "{\"format\":\"sabacc-policy-table\",\"version\":1,\"game\":\"leduc\",\"name\":\"t\",\"infosets\":{}}",
    )
    .unwrap();
    let mut empty = TablePolicy::<Leduc>::load(&path).unwrap();
    assert!(empty.is_empty());
    let s = &decisions()[0];
    let seat = Leduc::current_player(s).unwrap();
    let (view, legal) = (Leduc::view(s, seat), Leduc::legal_mask(s));
    let e = empty.act(&view, legal, &mut AgentRng::seed_from_u64(1)).unwrap_err();
    assert!(e.message.contains("not in the table"), "{e:?}");
    assert!(empty.distribution(&view, legal).unwrap().is_err());
}
