//! Opening books (`book.json`): a checkpoint plays its book's move, by table size, wherever the
//! book has a legal one, and the network elsewhere; a bad book is refused with a message naming
//! what is wrong.

use game::{AgentRng, Game as _, Seat};
use games::kessel::config::TokenAssignment;
use games::kessel::{Action, Kessel, RuleConfig, State, Token, TokenSet, ViewDecision};
use policy::book::{BookFile, BookFileLine};
use policy::*;
use rand::SeedableRng;
use std::fs;
use std::path::{Path, PathBuf};

fn make_checkpoint(dir: &Path) {
    let config = PolicyConfig::new(Kessel::SPEC.obs_len, Kessel::SPEC.num_actions).with_hidden(vec![16]);
    let model = ActorCritic::new_seeded(&config, &cpu_device(), 7).unwrap();
    let rules = serde_json::to_value(RuleConfig::with_players(3)).unwrap();
    let meta = CheckpointMetadata::new(Kessel::SPEC.id, Kessel::SPEC.obs_version, config, 1, 7, rules);
    save_checkpoint(dir, &model, &meta, None).unwrap();
}

const BOOK: &str = r#"{
  "source": "a test",
  "lines": [
    { "players": [2], "prefer": ["choose:target-audit", "choose:immunity", "choose:direct-transaction"] },
    { "players": [3, 4], "prefer": ["choose:embezzlement", "choose:general-tariff", "choose:direct-transaction"] }
  ]
}"#;

fn checkpoint_with_book(book: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ckpt");
    make_checkpoint(&dir);
    if let Some(text) = book {
        fs::write(dir.join(BOOK_FILE), text).unwrap();
    }
    (root, dir)
}

fn choose(players: u8) -> RuleConfig {
    RuleConfig { token_assignment: TokenAssignment::Choose, ..RuleConfig::with_players(players) }
}

/// Plays the `choose` setup with `agent` in every seat; each seat's loadout and the probabilities
/// the agent gave its first decision.
fn draft(agent: &mut PolicyAgent<Kessel>, players: u8) -> (Vec<TokenSet>, Vec<f32>) {
    let mut s = State::new(choose(players), 11).unwrap();
    let mut rng = AgentRng::seed_from_u64(3);
    let mut first = None;
    while let Some(seat) = s.current_player() {
        let view = s.view(seat);
        if !matches!(view.decision, ViewDecision::ChooseToken) {
            break;
        }
        let legal = s.legal_mask();
        first.get_or_insert_with(|| agent.probabilities(&view, legal).unwrap().0);
        let a = game::Agent::act(agent, &view, legal, &mut rng).unwrap();
        s.apply(a).unwrap();
    }
    ((0..players).map(|p| s.player(Seat(p)).tokens).collect(), first.unwrap())
}

fn set(kinds: [Token; 3]) -> TokenSet {
    kinds.into_iter().collect()
}

#[test]
fn a_checkpoint_drafts_its_books_line_for_the_table_size() {
    let (_root, dir) = checkpoint_with_book(Some(BOOK));
    let (agent, _) = PolicyAgent::<Kessel>::load(&dir, &cpu_device()).unwrap();
    assert_eq!(agent.book().unwrap().source, "a test");
    for selection in [ActionSelection::Sample, ActionSelection::Greedy] {
        let mut agent = agent.clone().with_selection(selection);
        let (heads_up, probs) = draft(&mut agent, 2);
        assert!(heads_up.iter().all(|&l| l == set([Token::TargetAudit, Token::Immunity, Token::DirectTransaction])));
        // All the probability is on the book's move.
        let booked = Action::ChooseToken(Token::TargetAudit).index();
        assert_eq!(probs[booked], 1.0);
        assert_eq!(probs.iter().sum::<f32>(), 1.0);
        let (four, _) = draft(&mut agent, 4);
        assert!(four.iter().all(|&l| l == set([Token::Embezzlement, Token::GeneralTariff, Token::DirectTransaction])));
    }
}

#[test]
fn without_a_line_for_the_table_or_a_book_the_network_drafts() {
    let (_root, dir) = checkpoint_with_book(None);
    let (plain, _) = PolicyAgent::<Kessel>::load(&dir, &cpu_device()).unwrap();
    assert!(plain.book().is_none());
    let plain = plain.clone().with_selection(ActionSelection::Greedy);
    // The same folder with a book added: the same weights.
    fs::write(dir.join(BOOK_FILE), BOOK).unwrap();
    let (booked, _) = PolicyAgent::<Kessel>::load(&dir, &cpu_device()).unwrap();
    assert!(booked.book().is_some());
    // At five seats, where the book has no line, both draft alike.
    let (a, pa) = draft(&mut plain.clone(), 5);
    let (b, pb) = draft(&mut booked.with_selection(ActionSelection::Greedy), 5);
    assert_eq!(a, b);
    assert_eq!(pa, pb);
    // And the network's own draft differs from the book's (else the first test proves nothing).
    let (own, _) = draft(&mut plain.clone(), 2);
    assert_ne!(own[0], set([Token::TargetAudit, Token::Immunity, Token::DirectTransaction]));
}

#[test]
fn a_bad_book_is_refused_with_what_is_wrong() {
    for (text, want) in [
        (
            r#"{"source": "x", "lines": [{"players": [2], "prefer": ["choose:nothing"]}]}"#,
            "`choose:nothing` is not an action",
        ),
        (r#"{"source": "x", "lines": [{"players": [9], "prefer": ["choose:refund"]}]}"#, "seats 9, outside 2 to 8"),
        (
            r#"{"source": "x", "lines": [{"players": [2], "prefer": ["choose:refund"]}, {"players": [2], "prefer": ["choose:markdown"]}]}"#,
            "table size 2 is in two lines",
        ),
        (r#"{"source": "x", "lines": [{"players": [], "prefer": ["choose:refund"]}]}"#, "at least one table size"),
        (r#"{"source": "x", "lines": [{"players": [2], "prefer": []}]}"#, "at least one table size and one action"),
        (r#"{"source": "x", "lines": [{"players": [2], "prefer": ["choose:refund"], "extra": 1}]}"#, "unknown field"),
        ("{not json", "is not valid"),
    ] {
        let (_root, dir) = checkpoint_with_book(Some(text));
        let err = PolicyAgent::<Kessel>::load(&dir, &cpu_device()).err().unwrap().to_string();
        assert!(err.contains(want) && err.contains(BOOK_FILE), "{text}: {err}");
    }
}

#[test]
fn the_shipped_champion_drafts_from_its_book_at_every_table_size() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../checkpoints/champion");
    let (agent, _) = PolicyAgent::<Kessel>::load(&dir, &cpu_device()).unwrap();
    let book = agent.book().expect("checkpoints/champion/book.json");
    assert!(book.source.contains("token-research"));
    for players in 2..=8 {
        assert_eq!(book.line(players).len(), 3, "{players} seats");
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn name(i: usize) -> String {
        if i < Kessel::SPEC.num_actions { Kessel::action_name(i).to_string() } else { format!("no-such-action-{i}") }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any bytes: a book or a typed error, never a panic.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = Book::parse::<Kessel>(&bytes, Path::new("book.json"));
        }

        /// Well-formed JSON with any sizes and names: accepted exactly when every size is a
        /// table size of the game, none is repeated, every line is non-empty and every name is an
        /// action; the accepted book's line for a size is that line's actions in order.
        #[test]
        fn well_formed_books_are_accepted_exactly_when_valid(
            lines in proptest::collection::vec(
                (proptest::collection::vec(0u8..12, 0..4), proptest::collection::vec(0usize..60, 0..4)),
                0..4,
            )
        ) {
            let file = BookFile {
                source: "fuzz".into(),
                lines: lines
                    .iter()
                    .map(|(p, a)| BookFileLine { players: p.clone(), prefer: a.iter().map(|&i| name(i)).collect() })
                    .collect(),
            };
            let sizes: Vec<u8> = lines.iter().flat_map(|(p, _)| p.clone()).collect();
            let valid = lines.iter().all(|(p, a)| !p.is_empty() && !a.is_empty())
                && sizes.iter().all(|s| (2..=8).contains(s))
                && sizes.iter().enumerate().all(|(i, s)| !sizes[..i].contains(s))
                && lines.iter().flat_map(|(_, a)| a).all(|&i| i < Kessel::SPEC.num_actions);
            let bytes = serde_json::to_vec(&file).unwrap();
            match Book::parse::<Kessel>(&bytes, Path::new("book.json")) {
                Ok(book) => {
                    prop_assert!(valid);
                    for (p, a) in &lines {
                        for &size in p {
                            prop_assert_eq!(book.line(size), a.as_slice());
                        }
                    }
                }
                Err(e) => {
                    prop_assert!(!valid, "refused a valid book: {}", e);
                    prop_assert!(e.to_string().contains("book.json"));
                }
            }
        }
    }
}
