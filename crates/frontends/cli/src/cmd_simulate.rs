//! `sabacc simulate`: random legal play over many games of either game through the one game
//! loop ([`env::Driver`]), checking the engine's invariants (cards and chips or credits
//! conserved, a legal action at every decision) after every action.

use anyhow::{Result, bail};
use env::{Controller, Driver, Finished, Game, GameConfig, GameStart, Pending, RandomAgent, StepEvent};
use game::{Seat, derive_seed};
use rand::SeedableRng;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use train::progress_display::{bar as progress_bar, style as progress_style};

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
    /// The game: Kessel Sabacc or classic Sabacc (`--rules` is then a classic rule config).
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: games::GameId,
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
    token_plays: [u64; 32],
    wins_by_seat: [u64; game::MAX_PLAYERS],
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
        for i in 0..self.token_plays.len() {
            self.token_plays[i] += o.token_plays[i];
        }
        for i in 0..game::MAX_PLAYERS {
            self.wins_by_seat[i] += o.wins_by_seat[i];
        }
        self.violations += o.violations;
        if self.first_violation.is_none() {
            self.first_violation = o.first_violation;
        }
        self
    }
}

/// The report `--json` prints. `rounds` count what the game counts (Kessel's rounds, classic's
/// hands); a game without Shift Tokens has no `token_plays`.
#[derive(Serialize)]
struct Report {
    game: &'static str,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    token_plays: Option<BTreeMap<String, u64>>,
    wins_by_seat: Vec<u64>,
    invariant_violations: u64,
    first_violation: Option<String>,
}

/// Random legal play over a range of games through the one game loop, checking the invariants
/// after every action. Row `r` plays its games with its own RNG, seeded per game, so the tally
/// does not depend on how games are split among rows and threads.
struct RandomGames<G: Game> {
    config: G::Rules,
    seed: u64,
    next: u64,
    end: u64,
    row_game: Vec<u64>,
    rngs: Vec<rand_pcg::Pcg64Mcg>,
    /// A violation was found in the row's current game (counted once per game).
    violated: Vec<bool>,
    tally: Tally,
}

impl<G: Game> Controller<G> for RandomGames<G> {
    type Error = std::convert::Infallible;

    fn next_game(&mut self, row: usize) -> Result<Option<GameStart<G>>, Self::Error> {
        if self.next >= self.end {
            return Ok(None);
        }
        let g = self.next;
        self.next += 1;
        let seed = derive_seed(self.seed, g);
        self.row_game[row] = g;
        self.rngs[row] = rand_pcg::Pcg64Mcg::seed_from_u64(derive_seed(seed, 1));
        self.violated[row] = false;
        Ok(Some(GameStart::deal(GameConfig { rules: self.config, ..GameConfig::default() }, seed)))
    }

    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), Self::Error> {
        for (p, a) in pending.iter().zip(actions.iter_mut()) {
            // The driver refuses anything outside the mask: an empty mask at a decision shows up
            // as an illegal choice there.
            *a = RandomAgent::pick(p.mask, &mut self.rngs[p.row]).unwrap_or(usize::MAX);
        }
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_, G>) -> Result<(), Self::Error> {
        let t = &mut self.tally;
        t.decisions += 1;
        if let Some(play) = G::tracked_play(e.state, e.action) {
            t.token_plays[usize::from(play.kind).min(31)] += 1;
        }
        if let Err(err) = G::check_invariants(e.state)
            && !self.violated[e.row]
        {
            self.violated[e.row] = true;
            t.violations += 1;
            let g = self.row_game[e.row];
            t.first_violation.get_or_insert_with(|| format!("game {g}: {err}"));
        }
        Ok(())
    }

    fn finished(&mut self, f: &Finished<'_, G>) -> Result<(), Self::Error> {
        let (t, state) = (&mut self.tally, f.state);
        t.games += 1;
        let rounds = G::progress(state) as u64;
        t.rounds += rounds;
        t.min_rounds = t.min_rounds.min(rounds);
        t.max_rounds = t.max_rounds.max(rounds);
        if G::is_truncated(state) {
            t.truncations += 1;
        } else {
            let w = G::winners(state);
            if w.len() > 1 {
                t.shared_wins += 1;
            }
            for s in w.iter() {
                t.wins_by_seat[s.index()] += 1;
            }
        }
        Ok(())
    }
}

/// Plays games `lo..hi` (game `g` seeded with `derive_seed(seed, g)`).
fn play_range<G: Game>(config: G::Rules, seed: u64, lo: u64, hi: u64) -> Tally {
    const ROWS: usize = 32;
    let rows = ROWS.min((hi - lo) as usize).max(1);
    let mut games = RandomGames::<G> {
        config,
        seed,
        next: lo,
        end: hi,
        row_game: vec![0; rows],
        rngs: vec![rand_pcg::Pcg64Mcg::seed_from_u64(0); rows],
        violated: vec![false; rows],
        tally: Tally { min_rounds: u64::MAX, ..Default::default() },
    };
    if let Err(e) = Driver::new(rows).run(&mut games) {
        // Only the driver can fail here: a legal-looking action refused, or an empty mask.
        let t = &mut games.tally;
        t.violations += 1;
        t.first_violation.get_or_insert_with(|| format!("games {lo}..{hi}: {e}"));
    }
    games.tally
}

/// Runs `sabacc simulate`.
pub fn run(a: Args) -> Result<()> {
    crate::verbs(a.game).simulate(&a)
}

/// `sabacc simulate` for game `G`.
pub(crate) fn run_game<G: Game>(a: &Args) -> Result<()> {
    simulate::<G>(a, crate::args::read_rules::<G>(a.rules.as_deref())?)
}

/// Plays and tallies `--games` random games of `G` under `rules` (seated at `--players`).
fn simulate<G: Game>(a: &Args, mut config: G::Rules) -> Result<()> {
    G::set_players(&mut config, a.players);
    G::new_state(&config, 0).map_err(|e| anyhow::anyhow!("--rules: {e}"))?;
    let bar = progress_bar(a.games);
    bar.set_style(progress_style("{bar:40} {pos}/{len} games {per_sec} eta {eta}"));
    const CHUNK: u64 = 1000;
    let empty = || Tally { min_rounds: u64::MAX, ..Default::default() };
    // Chunks are reduced as they finish (nothing is kept per game or per chunk), so memory
    // does not grow with --games.
    let t = (0..a.games.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let lo = c * CHUNK;
            let hi = lo.saturating_add(CHUNK).min(a.games);
            let acc = play_range::<G>(config, a.seed, lo, hi);
            bar.inc(hi - lo);
            acc
        })
        .reduce(empty, Tally::merge);
    bar.finish_and_clear();
    let report = Report {
        game: G::SPEC.game,
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
        token_plays: (!G::TRACKED_PLAYS.is_empty()).then(|| {
            G::TRACKED_PLAYS.iter().enumerate().map(|(k, name)| (name.to_string(), t.token_plays[k])).collect()
        }),
        wins_by_seat: t.wins_by_seat[..a.players as usize].to_vec(),
        invariant_violations: t.violations,
        first_violation: t.first_violation.clone(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("game:               {}", report.game);
        println!("games:              {}", report.games);
        println!("players:            {}", report.players);
        println!("seed:               {}", report.seed);
        println!("decisions:          {} ({:.1} per game)", report.decisions, report.decisions_per_game);
        println!(
            "{:<20}{:.2} (min {}, max {})",
            format!("{} per game:", G::PROGRESS),
            report.rounds_per_game,
            report.min_rounds,
            report.max_rounds
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
        if let Some(plays) = &report.token_plays {
            println!("token plays:");
            for name in G::TRACKED_PLAYS {
                println!("  {:<20} {}", name, plays[*name]);
            }
        }
        if t.violations == 0 {
            println!(
                "invariants:         held in all {} games (every card once, {} conserved, a legal action at every decision)",
                report.games,
                G::HOLDINGS
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
