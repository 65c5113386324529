//! Unguided `search` decides a batch in parallel: the actions, and the state each decision
//! leaves its RNG in, must be those of deciding one position after another.

use game::derive_seed;
use game::{Agent, AgentRng};
use kessel::bots::{ExpertAgent, SearchAgent};
use kessel::{Action, ActionMask, PlayerView, RuleConfig, State};
use rand::{RngExt, SeedableRng};

/// Positions with more than one legal action, from `expert` games at `players` seats.
fn positions(players: u8, games: u64) -> Vec<(PlayerView, ActionMask)> {
    let mut expert = ExpertAgent::new();
    let mut out = Vec::new();
    for g in 0..games {
        let mut st = State::new(RuleConfig::with_players(players), derive_seed(41, g)).unwrap();
        st.set_event_logging(false);
        let mut rng = AgentRng::seed_from_u64(g);
        while let Some(seat) = st.current_player() {
            let (view, legal) = (st.view(seat), st.legal_mask());
            let a = expert.act(&view, legal, &mut rng).unwrap();
            if legal.count() > 1 {
                out.push((view, legal));
            }
            st.apply(a).unwrap();
        }
    }
    out
}

#[test]
fn a_batch_of_search_decisions_equals_deciding_one_by_one() {
    for players in [2u8, 4] {
        let found = positions(players, 3);
        let (views, masks): (Vec<PlayerView>, Vec<ActionMask>) = found.into_iter().take(40).unzip();
        assert!(views.len() >= 20, "only {} positions at {players} seats", views.len());
        let seeds = |k: usize| AgentRng::seed_from_u64(derive_seed(7, k as u64));

        let mut one = SearchAgent::new(4);
        let mut one_rngs: Vec<AgentRng> = (0..views.len()).map(seeds).collect();
        let one_by_one: Vec<Action> =
            views.iter().zip(&masks).zip(one_rngs.iter_mut()).map(|((v, &m), r)| one.act(v, m, r).unwrap()).collect();

        let mut batched = SearchAgent::new(4);
        let mut batch_rngs: Vec<AgentRng> = (0..views.len()).map(seeds).collect();
        let mut out = vec![Action::Stand];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        pool.install(|| batched.act_batch(&views, &masks, &mut batch_rngs, &mut out)).unwrap();

        assert_eq!(out, one_by_one, "{players} seats");
        let next = |rngs: &mut Vec<AgentRng>| rngs.iter_mut().map(|r| r.random::<u64>()).collect::<Vec<_>>();
        assert_eq!(next(&mut batch_rngs), next(&mut one_rngs), "RNG states after the batch, {players} seats");
        assert_eq!(batched.name(), "search:4");
    }
}
