//! `sabacc simulate`: random legal play over many games through the one game loop
//! ([`env::Driver`]), checking the engine's invariants (card and chip conservation, a legal
//! action at every decision) after every action.

use anyhow::{Result, bail};
use engine::{Action, RuleConfig, Seat, Token, derive_seed};
use env::{Controller, Driver, EnvConfig, Finished, GameStart, Pending, RandomAgent, StepEvent};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
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
    /// The game: Kessel Sabacc or classic Sabacc (`--rules` is then a classic rule config).
    #[arg(long, value_enum, default_value_t)]
    game: crate::args::Game,
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

/// Random legal play over a range of games through the one game loop, checking the invariants
/// after every action. Row `r` plays its games with its own RNG, seeded per game, so the tally
/// does not depend on how games are split among rows and threads.
struct RandomGames {
    config: RuleConfig,
    seed: u64,
    next: u64,
    end: u64,
    row_game: Vec<u64>,
    rngs: Vec<rand_pcg::Pcg64Mcg>,
    /// A violation was found in the row's current game (counted once per game).
    violated: Vec<bool>,
    tally: Tally,
}

impl Controller for RandomGames {
    type Error = std::convert::Infallible;

    fn next_game(&mut self, row: usize) -> Result<Option<GameStart>, Self::Error> {
        if self.next >= self.end {
            return Ok(None);
        }
        let g = self.next;
        self.next += 1;
        let seed = derive_seed(self.seed, g);
        self.row_game[row] = g;
        self.rngs[row] = rand_pcg::Pcg64Mcg::seed_from_u64(derive_seed(seed, 1));
        self.violated[row] = false;
        Ok(Some(GameStart::deal(EnvConfig { rules: self.config, ..EnvConfig::default() }, seed)))
    }

    fn decide(&mut self, pending: &[Pending<'_>], actions: &mut [usize]) -> Result<(), Self::Error> {
        for (p, a) in pending.iter().zip(actions.iter_mut()) {
            // The driver refuses anything outside the mask: an empty mask at a decision shows up
            // as an illegal choice there.
            *a = RandomAgent::pick(p.mask, &mut self.rngs[p.row]).unwrap_or(usize::MAX);
        }
        Ok(())
    }

    fn stepped(&mut self, e: &StepEvent<'_>) -> Result<(), Self::Error> {
        let t = &mut self.tally;
        t.decisions += 1;
        if let Action::PlayToken(tok) = e.action {
            t.token_plays[tok.index()] += 1;
        }
        if let Err(err) = e.state.check_invariants()
            && !self.violated[e.row]
        {
            self.violated[e.row] = true;
            t.violations += 1;
            let g = self.row_game[e.row];
            t.first_violation.get_or_insert_with(|| format!("game {g}: {err}"));
        }
        Ok(())
    }

    fn finished(&mut self, f: &Finished<'_>) -> Result<(), Self::Error> {
        let (t, state) = (&mut self.tally, f.state);
        t.games += 1;
        let rounds = state.round() as u64;
        t.rounds += rounds;
        t.min_rounds = t.min_rounds.min(rounds);
        t.max_rounds = t.max_rounds.max(rounds);
        if state.is_truncated() {
            t.truncations += 1;
        } else {
            let w = state.winners();
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
fn play_range(config: RuleConfig, seed: u64, lo: u64, hi: u64) -> Tally {
    const ROWS: usize = 32;
    let rows = ROWS.min((hi - lo) as usize).max(1);
    let mut games = RandomGames {
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
    if a.game == crate::args::Game::Classic {
        return run_classic(a);
    }
    let mut config = crate::args::read_rules(a.rules.as_deref())?;
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
            let acc = play_range(config, a.seed, lo, hi);
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

/// `sabacc simulate --game classic`: the classic engine's random play and invariant checks,
/// streamed in chunks over the cores like the Kessel simulation.
fn run_classic(a: Args) -> Result<()> {
    let mut config = crate::args::read_classic_rules(a.rules.as_deref())?;
    config.players = a.players;
    config.validate()?;
    let bar = ProgressBar::new(a.games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}").expect("valid template"),
    );
    const CHUNK: u64 = 1000;
    let t = (0..a.games.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let lo = c * CHUNK;
            let hi = lo.saturating_add(CHUNK).min(a.games);
            let t = classic::simulate_range(config, a.seed, lo..hi);
            bar.inc(hi - lo);
            t
        })
        .reduce(classic::SimTally::default, classic::SimTally::merge);
    bar.finish_and_clear();
    let r = t.report(a.players, a.seed);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print_classic(&r);
    }
    if r.invariant_violations > 0 {
        bail!("{} games broke an invariant", r.invariant_violations);
    }
    Ok(())
}

fn print_classic(r: &classic::SimReport) {
    println!("game:               classic Sabacc");
    println!("games:              {}", r.games);
    println!("players:            {}", r.players);
    println!("seed:               {}", r.seed);
    println!("decisions:          {} ({:.1} per game)", r.decisions, r.decisions_per_game);
    println!("hands per game:     {:.2} (min {}, max {})", r.hands_per_game, r.min_hands, r.max_hands);
    println!("truncations:        {}", r.truncations);
    println!("shared wins:        {}", r.shared_wins);
    println!(
        "wins by seat:       {}",
        r.wins_by_seat.iter().enumerate().map(|(s, w)| format!("{s}={w}")).collect::<Vec<_>>().join(" ")
    );
    match &r.first_violation {
        None => println!(
            "invariants:         held in every game (76 cards once each, credits conserved across stacks and both \
             pots, a legal action at every decision)"
        ),
        Some(v) => println!("invariants:         VIOLATED in {} games; first: {v}", r.invariant_violations),
    }
}
