//! Seat observations encoded per second natively, through the same calls as the WebAssembly
//! package: the native side of the figure `web-kit/tests/demo.spec.js` prints from the browser
//! (one game played to its end by its first legal actions, then seat 0's observation in a loop
//! for `SECONDS`, each in a new vector and then into one buffer). BENCHMARKS.md, "The front-end
//! kit".
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
        let rate = |encode: &mut dyn FnMut() -> Result<(), sabacc_kit::Error>| -> Result<f64, sabacc_kit::Error> {
            let mut n = 0u64;
            let start = Instant::now();
            while start.elapsed().as_secs_f64() < seconds {
                for _ in 0..100 {
                    encode()?;
                }
                n += 100;
            }
            Ok(n as f64 / start.elapsed().as_secs_f64())
        };
        let new_vectors = rate(&mut || table.observation(0.0).map(|o| drop(std::hint::black_box(o))))?;
        let mut buffer = table.observation(0.0)?;
        let one_buffer = rate(&mut || table.observe_into(0.0, std::hint::black_box(&mut buffer)))?;
        println!("{game}: {new_vectors:.0} observations/s (new vectors), {one_buffer:.0} (one buffer)");
    }
    Ok(())
}
