//! The throughput benchmark behind `sabacc bench env` reports consistent figures (the figures
//! themselves are measured by the command, not asserted here).

use games::kessel::Kessel;
#[test]
fn env_bench_report_is_consistent() {
    let r = env::bench::run_with(env::GameConfig::<Kessel>::with_players(3), 0.5);
    let rates = [
        r.steps_per_sec_single,
        r.steps_per_sec_vec,
        r.steps_per_sec_vec_step,
        r.steps_per_sec_independent,
        r.steps_per_sec_driver,
    ];
    assert!(rates.iter().all(|x| x.is_finite() && *x > 0.0), "{r:?}");
    assert_eq!(r.threads, rayon::current_num_threads());
    assert_eq!(r.vec_envs, 256 * r.threads);
    assert_eq!(r.players, 3);
    assert_eq!(r.obs_len, games::kessel::obs::OBS_LEN);
    assert!(r.games_single > 0, "half a second of single-thread play finishes games");
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs();
    assert!(close(r.vec_speedup, r.steps_per_sec_vec / r.steps_per_sec_single), "{r:?}");
    assert!(close(r.independent_speedup, r.steps_per_sec_independent / r.steps_per_sec_single), "{r:?}");
    assert!(close(r.driver_of_single, r.steps_per_sec_driver / r.steps_per_sec_single), "{r:?}");
    assert!(close(r.vec_of_independent, r.steps_per_sec_vec / r.steps_per_sec_independent), "{r:?}");
    assert!(r.vec_speedup_median_round.is_finite() && r.vec_speedup_median_round > 0.0);
}
