//! An opening book: actions a checkpoint plays by rote, ahead of its network, read from
//! `book.json` beside its weights.
//!
//! Why: a network is trained on the game's default rules, and some decisions it rarely or never
//! met in training are better settled by evidence from elsewhere. Kessel's champion drafts its
//! Shift Tokens (rule K2.1 `choose`) from the token research's answer this way, as `expert`
//! drafts from its preference lists. The book is keyed by table size, since the answer differs
//! heads-up and at more seats.
//!
//! A line's actions are a preference order: at a decision where any of them is legal, the agent
//! plays the first legal one; elsewhere the network decides. The file names actions as the game
//! does ([`game::Game::action_name`]), so it stays readable and is checked against the game when
//! loaded.
//!
//! ```json
//! {
//!   "source": "docs/token-research.md, seed 3",
//!   "lines": [
//!     { "players": [2], "prefer": ["choose:target-audit", "choose:immunity", "choose:direct-transaction"] },
//!     { "players": [3, 4, 5, 6, 7, 8], "prefer": ["choose:embezzlement", "choose:general-tariff"] }
//!   ]
//! }
//! ```

use game::{Game, GameAction, LegalMask};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The book's file name in a checkpoint folder.
pub const BOOK_FILE: &str = "book.json";

/// The book as written in `book.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookFile {
    /// Where the lines come from (a document and its seed), for people.
    pub source: String,
    /// The lines, at most one per table size.
    pub lines: Vec<BookFileLine>,
}

/// One line of `book.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookFileLine {
    /// The table sizes it applies at.
    pub players: Vec<u8>,
    /// Action names, best first.
    pub prefer: Vec<String>,
}

/// A book checked against its game: action indices by table size.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Book {
    /// Where its lines come from.
    pub source: String,
    /// `(table sizes, action indices best first)`.
    lines: Vec<(Vec<u8>, Vec<usize>)>,
}

/// Why a `book.json` cannot be used.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file exists but cannot be read.
    #[error("cannot read the opening book {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Not the documented JSON.
    #[error(
        "the opening book {path} is not valid: {message} (expected {{\"source\": TEXT, \"lines\": [{{\"players\": [N, …], \"prefer\": [ACTION, …]}}]}})"
    )]
    Format {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// A name the game has no action for, a size outside the game's seats, or a size given twice.
    #[error("the opening book {path}: {message}")]
    Content {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl Book {
    /// Checks `file` against game `G` (`path` names it in messages).
    pub fn from_file<G: Game>(file: BookFile, path: &Path) -> Result<Book, BookError> {
        let bad = |message: String| BookError::Content { path: path.to_path_buf(), message };
        let (lo, hi) = G::SEATS;
        let mut seen: Vec<u8> = Vec::new();
        let mut lines = Vec::new();
        for line in file.lines {
            if line.players.is_empty() || line.prefer.is_empty() {
                return Err(bad("every line needs at least one table size and one action".into()));
            }
            for &p in &line.players {
                if !(lo..=hi).contains(&p) {
                    return Err(bad(format!("{} seats {p}, outside {lo} to {hi}", G::NAME)));
                }
                if seen.contains(&p) {
                    return Err(bad(format!("table size {p} is in two lines")));
                }
                seen.push(p);
            }
            let actions = line
                .prefer
                .iter()
                .map(|name| {
                    (0..G::Action::COUNT).find(|&i| G::action_name(i) == name).ok_or_else(|| {
                        bad(format!("`{name}` is not an action of {} (e.g. `{}`)", G::NAME, G::action_name(0)))
                    })
                })
                .collect::<Result<Vec<usize>, BookError>>()?;
            lines.push((line.players, actions));
        }
        Ok(Book { source: file.source, lines })
    }

    /// The book in checkpoint folder `dir`, checked against game `G`; `None` when the folder has
    /// no `book.json`.
    pub fn read<G: Game>(dir: &Path) -> Result<Option<Book>, BookError> {
        let path = dir.join(BOOK_FILE);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(BookError::Io { path, source }),
        };
        Book::parse::<G>(&bytes, &path).map(Some)
    }

    /// The book in the bytes of a `book.json` (`path` names it in messages), checked against game
    /// `G`.
    pub fn parse<G: Game>(bytes: &[u8], path: &Path) -> Result<Book, BookError> {
        let file: BookFile = serde_json::from_slice(bytes)
            .map_err(|e| BookError::Format { path: path.to_path_buf(), message: e.to_string() })?;
        Book::from_file::<G>(file, path)
    }

    /// The preferred actions at a table of `players` seats, best first (empty where the book has
    /// no line for it).
    pub fn line(&self, players: u8) -> &[usize] {
        self.lines.iter().find(|(p, _)| p.contains(&players)).map_or(&[], |(_, a)| a.as_slice())
    }

    /// The book's move at a decision of game `G`: its first preferred action that is legal, or
    /// `None` when the network decides.
    pub fn choice<G: Game>(&self, view: &G::View, legal: G::Mask) -> Option<G::Action> {
        let players = G::players(G::view_rules(view));
        self.line(players).iter().find(|&&i| legal.contains_index(i)).and_then(|&i| G::Action::from_index(i))
    }
}
