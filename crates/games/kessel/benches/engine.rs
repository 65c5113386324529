//! Criterion benchmarks of the rules engine: whole random games and single decisions.
//! Run with `cargo bench -p kessel`; `sabacc bench engine` reports the same figures as plain
//! throughput numbers.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use game::derive_seed;
use kessel::{RuleConfig, State};
use std::hint::black_box;

fn random_game(config: RuleConfig, seed: u64, pick: &mut u64) -> u64 {
    let mut s = State::new(config, seed).expect("valid config");
    s.set_event_logging(false);
    let mut n = 0;
    while !s.is_terminal() {
        let m = s.legal_mask();
        *pick ^= *pick << 13;
        *pick ^= *pick >> 7;
        *pick ^= *pick << 17;
        let k = ((*pick >> 32) * m.count() as u64) >> 32;
        s.apply_index(m.nth_index(k as usize).expect("k < count")).expect("legal");
        n += 1;
    }
    n
}

fn bench_games(c: &mut Criterion) {
    for players in [2u8, 4] {
        let config = RuleConfig::with_players(players);
        // Decisions per game are measured once so throughput is reported per decision.
        let mut pick = 7u64;
        let total: u64 = (0..2000).map(|g| random_game(config, derive_seed(3, g), &mut pick)).sum();
        let mut group = c.benchmark_group(format!("random_game_{players}p"));
        group.throughput(Throughput::Elements(total / 2000));
        let mut g = 0u64;
        group.bench_function("tokens_on", |b| {
            b.iter(|| {
                g += 1;
                black_box(random_game(config, derive_seed(3, g % 2000), &mut pick))
            })
        });
        group.finish();
    }
}

fn bench_clone_and_view(c: &mut Criterion) {
    let s = State::new(RuleConfig::with_players(4), 11).expect("valid config");
    c.bench_function("state_clone_4p", |b| b.iter(|| black_box(s.clone())));
    c.bench_function("player_view_4p", |b| b.iter(|| black_box(s.view(game::Seat(1)))));
    c.bench_function("json_round_trip_4p", |b| {
        b.iter_batched(
            || serde_json::to_string(&s).expect("serialisable"),
            |j| black_box(serde_json::from_str::<State>(&j).expect("round trip")),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench_games, bench_clone_and_view);
criterion_main!(benches);
