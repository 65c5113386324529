//! One expert with changed thresholds against default experts, every seat in turn on each deal:
//! `cargo run --release -p classic --example expert_params -- PLAYERS DEALS [KNOB=VALUE…]`, knobs
//! `call_at strong good keep bluff raises risk steered shown` (`classic::bots::expert::Params`),
//! e.g. `-- 2 1000 call_at=0.5`. Prints the changed expert's win share with its 95 % interval;
//! a game stopped by the hand limit goes to the credit leader, as in the arena.

use classic::arena::wilson;
use classic::bots::BotRng;
use classic::bots::expert::{Expert, Params};
use classic::{RuleConfig, Seat, State};
use engine::derive_seed;
use rand::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: expert_params PLAYERS DEALS [KNOB=VALUE…]");
        std::process::exit(2)
    };
    let players: usize =
        args.first().and_then(|s| s.parse().ok()).filter(|p| (2..=8).contains(p)).unwrap_or_else(|| usage());
    let deals: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
    let mut p = Params::default();
    for kv in &args[2..] {
        let Some((k, x)) = kv.split_once('=').and_then(|(k, v)| Some((k, v.parse::<f64>().ok()?))) else { usage() };
        match k {
            "call_at" => p.call_at = x,
            "strong" => p.strong = x,
            "good" => p.good = x,
            "keep" => p.keep = x,
            "bluff" => p.bluff_rate = x,
            "raises" => p.max_raises = x as u8,
            "risk" => p.call_risk = x,
            "steered" => p.steered = x as usize,
            "shown" => p.shown = x as usize,
            _ => usage(),
        }
    }
    let changed = Expert { params: p, ..Expert::default() };
    let plain = Expert::default();
    let (mut wins, mut games) = (0.0, 0.0);
    for d in 0..deals {
        let seed = derive_seed(77, d);
        for focal in 0..players {
            let mut s = State::new(RuleConfig::with_players(players as u8), seed).expect("valid rules");
            s.set_event_logging(false);
            let mut rngs: Vec<BotRng> =
                (0..players).map(|i| BotRng::seed_from_u64(derive_seed(seed, i as u64))).collect();
            while let Some(seat) = s.current_player() {
                let bot = if seat.index() == focal { &changed } else { &plain };
                let a = bot.choose(&s.view(seat), s.legal_mask(), &mut rngs[seat.index()]);
                s.apply(a).expect("the expert plays legal actions");
            }
            let credits = |i: usize| s.player(Seat(i as u8)).credits;
            let winners: Vec<usize> = if s.is_truncated() {
                let most = (0..players).map(credits).max().unwrap_or(0);
                (0..players).filter(|&i| credits(i) == most).collect()
            } else {
                s.winners().iter().map(|x| x.index()).collect()
            };
            if winners.contains(&focal) {
                wins += 1.0 / winners.len() as f64;
            }
            games += 1.0;
        }
    }
    let (lo, hi) = wilson(wins, games);
    println!(
        "{:?}: {:.1} % [{:.1}, {:.1}] over {games} games",
        &args[2..],
        100.0 * wins / games,
        100.0 * lo,
        100.0 * hi
    );
}
