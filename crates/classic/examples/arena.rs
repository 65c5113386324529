//! Plays a line-up of classic bots and prints each bot's win share with its 95 % interval:
//! `cargo run --release -p classic --example arena -- LINEUP [GAMES] [SEED] [THREADS]`,
//! e.g. `-- expert,greedy,random,random 2400 1 2`.

use classic::RuleConfig;
use classic::arena;
use classic::bots::Bot;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(lineup) = args.first() else {
        eprintln!("usage: arena LINEUP [GAMES] [SEED] [THREADS]   (bots: {})", Bot::SPECS);
        std::process::exit(2);
    };
    let bots: Vec<Bot> = match lineup.split(',').map(Bot::parse).collect() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if !(2..=8).contains(&bots.len()) {
        eprintln!("a line-up seats 2 to 8 bots, not {}", bots.len());
        std::process::exit(2);
    }
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (games, seed, threads) = (num(1, 1200), num(2, 1), num(3, 1) as usize);
    match arena::run(RuleConfig::default(), &bots, games, seed, threads) {
        Ok(r) => print!("{}", r.table()),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
