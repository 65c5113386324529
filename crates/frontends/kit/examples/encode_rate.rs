//! Seat observations encoded per second natively, through the same calls as the WebAssembly
//! package: the native side of the figure `web-kit/tests/demo.spec.js` prints from the browser
//! (one game played to its end by its first legal actions, then seat 0's observation in a loop
//! for `SECONDS`). BENCHMARKS.md, "The front-end kit".
//!
//! `cargo run --release -p kit --example encode_rate -- [SECONDS]`

use sabacc_kit::Table;
use std::time::Instant;

fn main() -> Result<(), sabacc_kit::Error> {
    let seconds: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    for (game, seats) in [("kessel", 2.0), ("classic", 3.0)] {
        let mut table = Table::new(game, None, Some(seats), 1)?;
        while !table.is_over() {
            let first = table.legal_actions()[0];
            table.apply(f64::from(first))?;
        }
        let mut n = 0u64;
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < seconds {
            for _ in 0..100 {
                std::hint::black_box(table.observation(0.0)?);
            }
            n += 100;
        }
        println!("{game}: {:.0} observations/s", n as f64 / start.elapsed().as_secs_f64());
    }
    Ok(())
}
