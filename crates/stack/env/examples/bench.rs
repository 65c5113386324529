//! Release-mode throughput check:
//! `cargo run --release -p env --example bench -- [seconds] [players] [all|single|vec [envs]|fixed]`.

use games::kessel::Kessel;
/// CPU time of the whole process (all threads) in seconds, from Linux schedstat; lets a loaded
/// machine still give a per-core figure (steps per CPU-second).
fn cpu_seconds() -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else { return f64::NAN };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_to_string(e.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next().and_then(|x| x.parse::<f64>().ok()))
        .sum::<f64>()
        / 1e9
}

fn main() {
    let c0 = cpu_seconds();
    let t0 = std::time::Instant::now();
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4.0);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let mode = args.next().unwrap_or_else(|| "all".into());
    let config = env::GameConfig::<Kessel>::with_players(players);
    match mode.as_str() {
        "single" => {
            let (sps, games) = env::bench::single(config, seconds);
            println!("single: {sps:.0} steps/s ({games} games)");
        }
        "vec" => {
            let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(256 * rayon::current_num_threads());
            let sps = env::bench::vectorised(config, n, seconds);
            println!("vec: {sps:.0} steps/s ({n} envs, {} threads)", rayon::current_num_threads());
        }
        "fixed" => {
            // A fixed number of steps (seconds = millions of steps), for instruction counting.
            let steps = (seconds * 1e6) as u64;
            let mut e = env::Env::<Kessel>::new(config).unwrap();
            let mut obs = vec![0.0f32; games::kessel::obs::OBS_LEN];
            let mut ts = e.reset_into(0, &mut obs);
            let (mut k, mut seed) = (0x2545_F491_4F6C_DD1Du64, 0);
            for _ in 0..steps {
                k ^= k << 13;
                k ^= k >> 7;
                k ^= k << 17;
                let a = ts.mask.nth_index((k % ts.mask.count() as u64) as usize).unwrap();
                ts = e.step_into(a, &mut obs).unwrap();
                if ts.done() {
                    seed += 1;
                    ts = e.reset_into(seed, &mut obs);
                }
            }
            println!("fixed: {steps} steps, {seed} games");
        }
        _ => println!("{:#?}", env::bench::run_with(config, seconds)),
    }
    let (cpu, wall) = (cpu_seconds() - c0, t0.elapsed().as_secs_f64());
    println!("cpu {cpu:.2} s over wall {wall:.2} s ({:.2} cores busy)", cpu / wall);
}
