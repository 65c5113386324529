//! `sabacc simulate`: random legal play over many games, checking the engine's invariants
//! (card and chip conservation, a legal action at every decision) after every action.

use anyhow::{Result, bail};
use engine::{Action, RuleConfig, Seat, State, Token, derive_seed};
use indicatif::{ProgressBar, ProgressStyle};
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// Arguments of `sabacc simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// Seats at the table (2–8).
    #[arg(long, default_value_t = 4, value_parser = crate::args::int_in::<u8>(2, 8), allow_negative_numbers = true)]
    players: u8,
    /// Number of games (1 to 10^12; games are played and tallied in streaming chunks, so any
    /// count runs in constant memory).
    #[arg(long, default_value_t = 1000, value_parser = crate::args::int_in::<u64>(1, crate::args::MAX_GAMES), allow_negative_numbers = true)]
    games: u64,
    /// Base seed (0 to 2^64 − 1); game i uses a seed derived from it.
    #[arg(long, default_value_t = 0, value_parser = crate::args::int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: u64,
    /// Rule config as a JSON file (fields not given take their defaults).
    #[arg(long)]
    rules: Option<std::path::PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Default, Clone)]
struct Tally {
    games: u64,
    decisions: u64,
    rounds: u64,
    min_rounds: u64,
    max_rounds: u64,
    truncations: u64,
    shared_wins: u64,
    token_plays: [u64; Token::COUNT],
    wins_by_seat: [u64; engine::MAX_PLAYERS],
    violations: u64,
    first_violation: Option<String>,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        self.decisions += o.decisions;
        self.rounds += o.rounds;
        self.min_rounds = self.min_rounds.min(o.min_rounds);
        self.max_rounds = self.max_rounds.max(o.max_rounds);
        self.truncations += o.truncations;
        self.shared_wins += o.shared_wins;
        for i in 0..Token::COUNT {
            self.token_plays[i] += o.token_plays[i];
        }
        for i in 0..engine::MAX_PLAYERS {
            self.wins_by_seat[i] += o.wins_by_seat[i];
        }
        self.violations += o.violations;
        if self.first_violation.is_none() {
            self.first_violation = o.first_violation;
        }
        self
    }
}

/// The report `--json` prints.
#[derive(Serialize)]
struct Report {
    players: u8,
    games: u64,
    seed: u64,
    decisions: u64,
    decisions_per_game: f64,
    rounds_per_game: f64,
    min_rounds: u64,
    max_rounds: u64,
    truncations: u64,
    shared_wins: u64,
    token_plays: BTreeMap<String, u64>,
    wins_by_seat: Vec<u64>,
    invariant_violations: u64,
    first_violation: Option<String>,
}

fn play_one(config: RuleConfig, seed: u64) -> Tally {
    let mut t = Tally { games: 1, min_rounds: u64::MAX, ..Default::default() };
    let mut state = match State::new(config, seed) {
        Ok(s) => s,
        Err(e) => {
            t.violations = 1;
            t.first_violation = Some(e.to_string());
            return t;
        }
    };
    state.set_event_logging(false);
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(derive_seed(seed, 1));
    while !state.is_terminal() {
        let mask = state.legal_mask();
        if mask.is_empty() {
            t.violations += 1;
            t.first_violation.get_or_insert_with(|| format!("seed {seed}: empty mask at a decision"));
            break;
        }
        let idx = mask.nth_index(rng.random_range(0..mask.count())).expect("k < count");
        if let Some(Action::PlayToken(tok)) = Action::from_index(idx) {
            t.token_plays[tok.index()] += 1;
        }
        if let Err(e) = state.apply_index(idx) {
            t.violations += 1;
            t.first_violation.get_or_insert_with(|| format!("seed {seed}: legal action refused: {e}"));
            break;
        }
        t.decisions += 1;
        if let Err(e) = state.check_invariants() {
            t.violations += 1;
            t.first_violation.get_or_insert_with(|| format!("seed {seed}, decision {}: {e}", t.decisions));
            break;
        }
    }
    t.rounds = state.round() as u64;
    t.min_rounds = t.rounds;
    t.max_rounds = t.rounds;
    if state.is_truncated() {
        t.truncations = 1;
    } else {
        let w = state.winners();
        if w.len() > 1 {
            t.shared_wins = 1;
        }
        for s in w.iter() {
            t.wins_by_seat[s.index()] += 1;
        }
    }
    t
}

/// Runs `sabacc simulate`.
pub fn run(a: Args) -> Result<()> {
    let mut config = match &a.rules {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?;
            serde_json::from_str::<RuleConfig>(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?
        }
        None => RuleConfig::default(),
    };
    config.players = a.players;
    config.validate()?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let bar = ProgressBar::new(a.games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}").expect("valid template"),
    );
    const CHUNK: u64 = 1000;
    let empty = || Tally { min_rounds: u64::MAX, ..Default::default() };
    // Chunks are reduced as they finish (nothing is kept per game or per chunk), so memory
    // does not grow with --games.
    let t = (0..a.games.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let lo = c * CHUNK;
            let hi = lo.saturating_add(CHUNK).min(a.games);
            let mut acc = empty();
            for g in lo..hi {
                acc = acc.merge(play_one(config, derive_seed(a.seed, g)));
            }
            bar.inc(hi - lo);
            acc
        })
        .reduce(empty, Tally::merge);
    bar.finish_and_clear();
    let report = Report {
        players: a.players,
        games: t.games,
        seed: a.seed,
        decisions: t.decisions,
        decisions_per_game: t.decisions as f64 / t.games as f64,
        rounds_per_game: t.rounds as f64 / t.games as f64,
        min_rounds: t.min_rounds,
        max_rounds: t.max_rounds,
        truncations: t.truncations,
        shared_wins: t.shared_wins,
        token_plays: Token::ALL.iter().map(|k| (k.name().to_string(), t.token_plays[k.index()])).collect(),
        wins_by_seat: t.wins_by_seat[..a.players as usize].to_vec(),
        invariant_violations: t.violations,
        first_violation: t.first_violation.clone(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("games:              {}", report.games);
        println!("players:            {}", report.players);
        println!("seed:               {}", report.seed);
        println!("decisions:          {} ({:.1} per game)", report.decisions, report.decisions_per_game);
        println!(
            "rounds per game:    {:.2} (min {}, max {})",
            report.rounds_per_game, report.min_rounds, report.max_rounds
        );
        println!("truncations:        {}", report.truncations);
        println!("shared wins:        {}", report.shared_wins);
        println!(
            "wins by seat:       {}",
            (0..a.players)
                .map(|s| format!("{}={}", Seat(s).0, report.wins_by_seat[s as usize]))
                .collect::<Vec<_>>()
                .join(" ")
        );
        println!("token plays:");
        for tok in Token::ALL {
            println!("  {:<20} {}", tok.name(), report.token_plays[tok.name()]);
        }
        if t.violations == 0 {
            println!(
                "invariants:         held in all {} games (44 cards once each, chips conserved, a legal action at every decision)",
                report.games
            );
        } else {
            println!(
                "invariants:         {} VIOLATIONS; first: {}",
                t.violations,
                t.first_violation.unwrap_or_default()
            );
        }
    }
    if t.violations > 0 {
        bail!("{} invariant violations", t.violations);
    }
    Ok(())
}
