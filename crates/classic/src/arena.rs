//! A small arena for the classic bots: whole games with seat rotation and duplicate deals, and
//! each bot's win share with a 95 % Wilson interval.
//!
//! - **Seatings.** With up to four seats every distinct ordering of the line-up is played (a
//!   line-up with a bot twice has fewer); with more, its rotations. Seat order matters in
//!   classic (who deals, who calls first), so every bot sits everywhere equally often.
//! - **Duplicate deals.** Deal `d` seeds game `derive_seed(seed, d)`, played once under every
//!   seating: the same cards go to the same seats in each hand's deal whoever sits there, so
//!   luck of the deal cancels out between bots.
//! - **Scoring.** A game won alone counts 1 for the winner's bot, a shared win 1/k to each
//!   sharer. A game stopped by the hand limit goes to the seat with the most credits (shared on
//!   a tie): at the default 100 credits and 100 hands most games between careful bots reach the
//!   limit, and counting them as nobody's win would measure little. A bot's share is its wins
//!   over the seat-games it played (a bot in two seats plays two per game), so the shares of a
//!   line-up of distinct bots add up to 1. Truncated games and mean final credits are reported
//!   beside the shares.
//! - **Intervals.** Wilson at 95 % over the seat-games, treated as independent (seat-games of one
//!   bot within a game are not, so the interval is a little narrow when a bot fills two seats).

use crate::action::Action;
use crate::bots::{Bot, BotRng};
use crate::config::RuleConfig;
use crate::seat::{Seat, SeatSet};
use crate::state::State;
use engine::derive_seed;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The 95 % Wilson score interval of `wins` successes in `n` trials.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = wins / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// A bot played an action its mask did not hold: a bug of that bot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{bot} at {seat} played illegal `{action}` in game seed {seed}")]
pub struct IllegalAction {
    /// The bot's spec.
    pub bot: String,
    /// Its seat.
    pub seat: Seat,
    /// The action.
    pub action: Action,
    /// The game's seed.
    pub seed: u64,
}

/// How one game went.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Each seat's share of the win: 1, 1/k for a shared win (or a shared lead at the hand
    /// limit), 0.
    pub shares: Vec<f64>,
    /// Each seat's credits at the end.
    pub credits: Vec<u32>,
    /// The hand limit ended the game.
    pub truncated: bool,
    /// Hands played.
    pub hands: u32,
    /// Decisions taken (forced ones included).
    pub decisions: u64,
}

/// Plays one game: `seating[i]` sits in seat `i` (the table's size is the seating's length),
/// the game seeded `seed`, each seat's bot drawing from its own RNG derived from the seed.
/// Every decision goes to the bot with the legal mask; an action outside it stops the game.
pub fn play_game(rules: RuleConfig, seating: &[Bot], seed: u64) -> Result<GameRecord, IllegalAction> {
    let rules = RuleConfig { players: seating.len() as u8, ..rules };
    let mut s = State::new(rules, seed).expect("the arena's rules validate");
    s.set_event_logging(false);
    let mut rngs: Vec<BotRng> =
        (0..seating.len()).map(|i| BotRng::seed_from_u64(derive_seed(seed, 0xB075_0000 + i as u64))).collect();
    let mut decisions = 0u64;
    while let Some(seat) = s.current_player() {
        let legal = s.legal_mask();
        let bot = seating[seat.index()];
        let action = bot.choose(&s.view(seat), legal, &mut rngs[seat.index()]);
        if !legal.contains(action) {
            return Err(IllegalAction { bot: bot.name(), seat, action, seed });
        }
        s.apply(action).expect("a legal action applies");
        decisions += 1;
    }
    let credits: Vec<u32> = (0..seating.len() as u8).map(|i| s.player(Seat(i)).credits).collect();
    let winners: SeatSet = if s.is_truncated() {
        let most = credits.iter().copied().max().unwrap_or(0);
        (0..seating.len() as u8).map(Seat).filter(|x| credits[x.index()] == most).collect()
    } else {
        s.winners()
    };
    let shares = (0..seating.len() as u8)
        .map(|i| if winners.contains(Seat(i)) { 1.0 / winners.len() as f64 } else { 0.0 })
        .collect();
    Ok(GameRecord { shares, credits, truncated: s.is_truncated(), hands: s.hand_number(), decisions })
}

/// The seatings a line-up is played under: every distinct ordering for up to four seats, the
/// rotations beyond.
pub fn seatings(lineup: &[Bot]) -> Vec<Vec<Bot>> {
    let mut out: Vec<Vec<Bot>> = Vec::new();
    if lineup.len() <= 4 {
        let mut idx: Vec<usize> = (0..lineup.len()).collect();
        permute(&mut idx, 0, &mut |p| {
            let seating: Vec<Bot> = p.iter().map(|&i| lineup[i]).collect();
            if !out.contains(&seating) {
                out.push(seating);
            }
        });
    } else {
        for r in 0..lineup.len() {
            out.push((0..lineup.len()).map(|i| lineup[(i + r) % lineup.len()]).collect());
        }
    }
    out
}

fn permute(xs: &mut [usize], k: usize, f: &mut impl FnMut(&[usize])) {
    if k == xs.len() {
        f(xs);
        return;
    }
    for i in k..xs.len() {
        xs.swap(k, i);
        permute(xs, k + 1, f);
        xs.swap(k, i);
    }
}

/// One bot's result in an arena run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The bot's spec.
    pub bot: String,
    /// Seats it filled in the line-up.
    pub seats: usize,
    /// Seat-games played.
    pub seat_games: u64,
    /// Wins (fractional for shared wins).
    pub wins: f64,
    /// The part of `wins` from games the rules decided (not stopped by the hand limit).
    pub outright: f64,
    /// Wins per seat-game.
    pub share: f64,
    /// 95 % Wilson interval of the share.
    pub ci_low: f64,
    /// Upper end of the interval.
    pub ci_high: f64,
    /// Mean credits at the end of a game, per seat-game.
    pub final_credits: f64,
}

/// What an arena run found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaReport {
    /// The line-up's specs.
    pub lineup: Vec<String>,
    /// Seatings each deal was played under.
    pub seatings: usize,
    /// Deals (distinct seeds).
    pub deals: u64,
    /// Games played: deals × seatings.
    pub games: u64,
    /// The base seed.
    pub seed: u64,
    /// Games ended by the hand limit.
    pub truncated: u64,
    /// Mean hands per game.
    pub hands_per_game: f64,
    /// Mean decisions per game.
    pub decisions_per_game: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Each distinct bot of the line-up, in line-up order.
    pub standings: Vec<Standing>,
}

impl ArenaReport {
    /// The standings as a Markdown table, with a line on the run.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{} games ({} deals × {} seatings), seed {}, line-up {}: {} truncated, {:.1} hands and {:.0} decisions per game, {:.1} s\n\n",
            self.games,
            self.deals,
            self.seatings,
            self.seed,
            self.lineup.join(","),
            self.truncated,
            self.hands_per_game,
            self.decisions_per_game,
            self.seconds
        );
        s.push_str(
            "| bot | seats | seat-games | wins | of which outright | win share | 95 % CI | final credits |\n| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n",
        );
        for b in &self.standings {
            s.push_str(&format!(
                "| `{}` | {} | {} | {:.1} | {:.1} | {:.1} % | [{:.1}, {:.1}] | {:.1} |\n",
                b.bot,
                b.seats,
                b.seat_games,
                b.wins,
                b.outright,
                100.0 * b.share,
                100.0 * b.ci_low,
                100.0 * b.ci_high,
                b.final_credits
            ));
        }
        s
    }

    /// The standing of the bot with this spec.
    pub fn standing(&self, bot: &str) -> Option<&Standing> {
        self.standings.iter().find(|s| s.bot == bot)
    }
}

/// Plays at least `games` games of `lineup` (one bot per seat; the table's size is the
/// line-up's length): `ceil(games / seatings)` deals, each under every seating (see the module
/// documentation), on `threads` threads. The result does not depend on the thread count.
pub fn run(
    rules: RuleConfig,
    lineup: &[Bot],
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<ArenaReport, IllegalAction> {
    let start = Instant::now();
    let seats = seatings(lineup);
    let deals = games.div_ceil(seats.len() as u64).max(1);
    let threads = threads.clamp(1, deals as usize);
    let play_deals = |d0: u64, step: u64| -> Result<Vec<(usize, GameRecord)>, IllegalAction> {
        let mut out = Vec::new();
        let mut d = d0;
        while d < deals {
            let game_seed = derive_seed(seed, d);
            for (k, seating) in seats.iter().enumerate() {
                out.push((k, play_game(rules, seating, game_seed)?));
            }
            d += step;
        }
        Ok(out)
    };
    let records: Vec<(usize, GameRecord)> = if threads == 1 {
        play_deals(0, 1)?
    } else {
        let parts: Vec<Result<Vec<(usize, GameRecord)>, IllegalAction>> = std::thread::scope(|sc| {
            let handles: Vec<_> =
                (0..threads).map(|t| sc.spawn(move || play_deals(t as u64, threads as u64))).collect();
            handles.into_iter().map(|h| h.join().expect("an arena thread panicked")).collect()
        });
        let mut all = Vec::new();
        for p in parts {
            all.extend(p?);
        }
        all
    };

    let mut distinct: Vec<Bot> = Vec::new();
    for &b in lineup {
        if !distinct.contains(&b) {
            distinct.push(b);
        }
    }
    let mut wins = vec![0.0f64; distinct.len()];
    let mut seat_games = vec![0u64; distinct.len()];
    let mut credits = vec![0u64; distinct.len()];
    let mut outright = vec![0.0f64; distinct.len()];
    let (mut truncated, mut hands, mut decisions) = (0u64, 0u64, 0u64);
    for (k, r) in &records {
        for (i, &bot) in seats[*k].iter().enumerate() {
            let j = distinct.iter().position(|&b| b == bot).expect("in the line-up");
            wins[j] += r.shares[i];
            if !r.truncated {
                outright[j] += r.shares[i];
            }
            credits[j] += r.credits[i] as u64;
            seat_games[j] += 1;
        }
        truncated += r.truncated as u64;
        hands += r.hands as u64;
        decisions += r.decisions;
    }
    let played = records.len().max(1) as f64;
    let standings = distinct
        .iter()
        .enumerate()
        .map(|(j, b)| {
            let n = seat_games[j] as f64;
            let (lo, hi) = wilson(wins[j], n);
            Standing {
                bot: b.name(),
                seats: lineup.iter().filter(|&&x| x == *b).count(),
                seat_games: seat_games[j],
                wins: wins[j],
                outright: outright[j],
                share: if n > 0.0 { wins[j] / n } else { 0.0 },
                ci_low: lo,
                ci_high: hi,
                final_credits: if n > 0.0 { credits[j] as f64 / n } else { 0.0 },
            }
        })
        .collect();
    Ok(ArenaReport {
        lineup: lineup.iter().map(|b| b.name()).collect(),
        seatings: seats.len(),
        deals,
        games: records.len() as u64,
        seed,
        truncated,
        hands_per_game: hands as f64 / played,
        decisions_per_game: decisions as f64 / played,
        seconds: start.elapsed().as_secs_f64(),
        standings,
    })
}
