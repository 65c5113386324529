//! Restricted play (the token studies' arm B: a seat holds a token it may never play): `search`
//! offered fewer actions than the rules allow still searches them, in every world it samples,
//! instead of finding no world that matches and playing as `expert`.

use game::derive_seed;
use game::{Agent, AgentRng};
use kessel::bots::{ExpertAgent, SearchAgent};
use kessel::{Action, ActionMask, NUM_ACTIONS, PlayerView, RuleConfig, State, without_tokens};
use rand::SeedableRng;

/// Positions from `expert` games where the seat to act may play a token and has at least two
/// other actions.
fn token_positions(players: u8, games: u64) -> Vec<(PlayerView, ActionMask)> {
    let mut expert = ExpertAgent::new();
    let mut out = Vec::new();
    for g in 0..games {
        let mut st = State::new(RuleConfig::with_players(players), derive_seed(53, g)).unwrap();
        st.set_event_logging(false);
        let mut rng = AgentRng::seed_from_u64(g);
        while let Some(seat) = st.current_player() {
            let (view, legal) = (st.view(seat), st.legal_mask());
            if legal.count() > without_tokens(legal).count() && without_tokens(legal).count() >= 2 {
                out.push((view.clone(), legal));
            }
            st.apply(expert.act(&view, legal, &mut rng).unwrap()).unwrap();
        }
    }
    out
}

#[test]
fn restricted_search_finds_its_worlds_and_never_plays_a_withheld_action() {
    for players in [2u8, 4] {
        let found = token_positions(players, 4);
        assert!(found.len() >= 10, "only {} token positions at {players} seats", found.len());
        let mut search = SearchAgent::new(8);
        for (k, (view, legal)) in found.iter().take(30).enumerate() {
            // Withhold every token play (as a study forbidding all of the seat's kinds would).
            let offered = without_tokens(*legal);
            let mut rng = AgentRng::seed_from_u64(derive_seed(9, k as u64));
            let values = search
                .action_values(view, offered, &mut rng)
                .unwrap()
                .unwrap_or_else(|no| panic!("{players} seats, position {k}: {no}"));
            let searched: Vec<Action> = values.iter().map(|(a, _)| *a).collect();
            assert_eq!(searched, offered.actions().collect::<Vec<_>>(), "the offered actions, all searched");
            let action = search.act(view, offered, &mut rng).unwrap();
            assert!(offered.contains(action), "{players} seats, position {k}: played {action:?}, not offered");

            // The unrestricted decision is unchanged: it still searches the token plays too.
            let all = search.action_values(view, *legal, &mut rng).unwrap().unwrap();
            assert_eq!(all.len(), legal.count());
        }
    }
}

#[test]
fn an_action_no_world_allows_is_still_refused() {
    let (view, legal) = token_positions(2, 2).into_iter().next().expect("a token position");
    // Offer an action the rules do not allow here: no sampled world matches the view.
    let foreign = (0..NUM_ACTIONS).filter_map(Action::from_index).find(|a| !legal.contains(*a)).unwrap();
    let offered = ActionMask::from_bits(legal.bits() | 1 << foreign.index());
    let mut rng = AgentRng::seed_from_u64(3);
    let no_world = SearchAgent::new(4).action_values(&view, offered, &mut rng).unwrap().unwrap_err();
    assert_eq!(no_world.given, Some(offered));
    assert!(no_world.to_string().contains("not the legal actions given"), "{no_world}");
}
