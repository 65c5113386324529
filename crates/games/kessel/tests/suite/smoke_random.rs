use kessel::{RuleConfig, State};
use rand::{RngExt, SeedableRng};

#[test]
fn random_games_keep_invariants() {
    let mut r = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    for players in 2..=8u8 {
        for seed in 0..200u64 {
            let mut s = State::new(RuleConfig::with_players(players), seed).unwrap();
            let mut steps = 0;
            while !s.is_terminal() {
                let m = s.legal_mask();
                let k = r.random_range(0..m.count());
                s.apply_index(m.nth_index(k).unwrap()).unwrap();
                s.check_invariants().unwrap_or_else(|e| panic!("p{players} seed {seed} step {steps}: {e}"));
                steps += 1;
            }
        }
    }
}
