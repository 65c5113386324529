//! Single-thread random-play throughput of the classic engine:
//! `cargo run --release -p classic --example engine_bench -- [SECONDS]`.

fn main() {
    let seconds: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    for players in [2u8, 4, 8] {
        let f = game::bench::run::<classic::Classic>(classic::RuleConfig::with_players(players), seconds)
            .expect("default rules deal");
        println!(
            "{players} players: {:.2} M decisions/s ({:.2} M per CPU-second, cpu share {:.2}), {:.0} games/s, {:.1} hands/game, {:.1} decisions/game",
            f.decisions_per_sec / 1e6,
            f.decisions_per_cpu_sec / 1e6,
            f.cpu_share,
            f.games_per_sec,
            f.progress as f64 / f.games as f64,
            f.decisions as f64 / f.games as f64,
        );
    }
}
