//! Random play with invariant checks: `cargo run --release -p classic --example simulate -- [PLAYERS] [GAMES] [SEED]`.

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let players = args.first().copied().unwrap_or(4) as u8;
    let games = args.get(1).copied().unwrap_or(1000);
    let seed = args.get(2).copied().unwrap_or(0);
    match classic::simulate(classic::RuleConfig::default(), players, games, seed) {
        Ok(r) => println!("{}", serde_json::to_string_pretty(&r).expect("serialisable")),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
