//! The average policy (`eval::average`): one member is itself; each member counts only where it
//! would itself have played; the average is the mixed strategy of drawing a member per game, so
//! its self-play values are the mean of the members' pairings.

use eval::average::{average, average_weighted};
use eval::exploitability::{ExploitabilityError, exploitability, head_to_head};
use game::{Agent, Game, Seat};
use games::leduc::{Leduc, RuleConfig};

fn bot(name: &str) -> Box<dyn Agent<Leduc>> {
    let entry = Leduc::bots().iter().find(|b| b.name == name).unwrap_or_else(|| panic!("no bot {name}"));
    (entry.build)(0)
}

/// The first deal's state after the actions `indices`.
fn after(indices: &[usize]) -> <Leduc as Game>::State {
    let deals = Leduc::deals(&RuleConfig::default()).unwrap();
    let mut state = deals[0].1.clone();
    for &i in indices {
        Leduc::apply(&mut state, <Leduc as Game>::Action::from_index(i).unwrap()).unwrap();
    }
    state
}

fn probabilities(agent: &mut dyn Agent<Leduc>, state: &<Leduc as Game>::State) -> Vec<f64> {
    let seat = Leduc::current_player(state).unwrap();
    agent.distribution(&Leduc::view(state, seat), Leduc::legal_mask(state)).unwrap().unwrap()
}

/// `a` and `b` agree to rounding (the average divides sums over many histories).
fn assert_close(a: &[f64], b: &[f64]) {
    assert!(a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12), "{a:?} vs {b:?}");
}

#[test]
fn the_average_of_one_agent_is_that_agent() {
    let rules = RuleConfig::default();
    for name in ["cfr", "greedy", "random"] {
        let mut avg = average::<Leduc>("avg", &mut [bot(name)], &rules).unwrap();
        let (a, b) =
            (exploitability::<Leduc>(&mut avg, &rules).unwrap(), exploitability(&mut *bot(name), &rules).unwrap());
        assert!((a.nash_conv - b.nash_conv).abs() < 1e-9, "{name}: {} vs {}", a.nash_conv, b.nash_conv);
        assert_eq!(avg.len(), 936, "every information set of both seats");
    }
}

#[test]
fn each_member_counts_only_where_it_would_have_played() {
    // `call` always checks or calls, `raise` always bets or raises (calling at the cap).
    let mut avg = average::<Leduc>("avg", &mut [bot("call"), bot("raise")], &RuleConfig::default()).unwrap();
    // The first decision: both members reach it, so half and half.
    assert_close(&probabilities(&mut avg, &after(&[])), &[0.0, 0.5, 0.5]);
    // Seat 0 checked (call), seat 1 bet: only `call` checks, so only `call` is asked here,
    // where a plain mean of the two would say half and half again.
    assert_close(&probabilities(&mut avg, &after(&[1, 2])), &[0.0, 1.0, 0.0]);
    // Seat 0 bet, seat 1 raised: only `raise` bets first; at the cap it can only call or fold.
    let raised = after(&[2, 2]);
    assert_close(&probabilities(&mut avg, &raised), &probabilities(&mut *bot("raise"), &raised));
    assert_eq!(Leduc::current_player(&raised), Some(Seat(0)));
}

#[test]
fn the_average_plays_as_drawing_one_member_per_game() {
    // Self-play of the average is the mean over the four pairings of the members (Kuhn): the
    // value of seat 0 is the mean of what each member gets against each.
    let rules = RuleConfig::default();
    let names = ["call", "raise"];
    let mut avg = average::<Leduc>("avg", &mut names.map(bot), &rules).unwrap();
    let mixed = exploitability::<Leduc>(&mut avg, &rules).unwrap().self_play[0];
    let mut sum = 0.0;
    for a in names {
        for b in names {
            sum += pairing_value(a, b, &rules);
        }
    }
    assert!((mixed - sum / 4.0).abs() < 1e-9, "{mixed} vs {}", sum / 4.0);
}

/// A mixture in given proportions plays as drawing each member with its share: its self-play
/// is the pairings' values weighted by the product of the shares; a member of weight 0 does
/// not count; weights that are not one non-negative number per member are refused.
#[test]
fn a_weighted_mixture_plays_as_drawing_members_in_proportion() {
    let rules = RuleConfig::default();
    let names = ["call", "raise"];
    let shares = [0.75, 0.25];
    let mut mix = average_weighted::<Leduc>("mix", &mut names.map(bot), &[3.0, 1.0], &rules).unwrap();
    let mixed = exploitability::<Leduc>(&mut mix, &rules).unwrap().self_play[0];
    let mut want = 0.0;
    for (a, wa) in names.iter().zip(shares) {
        for (b, wb) in names.iter().zip(shares) {
            want += wa * wb * pairing_value(a, b, &rules);
        }
    }
    assert!((mixed - want).abs() < 1e-9, "{mixed} vs {want}");
    // Equal weights are the plain average.
    let mut equal = average_weighted::<Leduc>("eq", &mut names.map(bot), &[2.0, 2.0], &rules).unwrap();
    let mut plain = average::<Leduc>("avg", &mut names.map(bot), &rules).unwrap();
    let (e, p) = (exploitability::<Leduc>(&mut equal, &rules).unwrap(), exploitability(&mut plain, &rules).unwrap());
    assert!((e.nash_conv - p.nash_conv).abs() < 1e-12, "{} vs {}", e.nash_conv, p.nash_conv);
    // Weight 0: the other member alone.
    let mut only = average_weighted::<Leduc>("only", &mut [bot("greedy"), bot("cfr")], &[1.0, 0.0], &rules).unwrap();
    let (o, g) =
        (exploitability::<Leduc>(&mut only, &rules).unwrap(), exploitability(&mut *bot("greedy"), &rules).unwrap());
    assert!((o.nash_conv - g.nash_conv).abs() < 1e-9, "{} vs {}", o.nash_conv, g.nash_conv);
    for bad in [vec![1.0], vec![1.0, -1.0], vec![0.0, 0.0], vec![1.0, f64::NAN]] {
        match average_weighted::<Leduc>("bad", &mut names.map(bot), &bad, &rules) {
            Err(ExploitabilityError::Weights(m)) => assert!(m.contains("one per agent"), "{m}"),
            Err(e) => panic!("{bad:?}: the wrong error {e}"),
            Ok(_) => panic!("{bad:?} accepted"),
        }
    }
}

/// The exact head-to-head value agrees with this file's own walk of each pairing, seat by seat.
#[test]
fn head_to_head_agrees_with_an_independent_walk_of_each_pairing() {
    let rules = RuleConfig::default();
    for a in ["call", "raise", "greedy", "cfr"] {
        for b in ["random", "greedy", "cfr"] {
            let h = head_to_head::<Leduc>(&mut *bot(a), &mut *bot(b), &rules).unwrap();
            let (seat0, seat1) = (pairing_value(a, b, &rules), -pairing_value(b, a, &rules));
            assert!((h.by_seat[0] - seat0).abs() < 1e-9 && (h.by_seat[1] - seat1).abs() < 1e-9, "{a} vs {b}: {h:?}");
        }
    }
}

/// Seat 0's expected payoff with bot `a` at seat 0 and `b` at seat 1, by walking every deal.
fn pairing_value(a: &str, b: &str, rules: &RuleConfig) -> f64 {
    fn walk(s: &<Leduc as Game>::State, w: f64, agents: &mut [Box<dyn Agent<Leduc>>; 2]) -> f64 {
        let Some(seat) = Leduc::current_player(s) else {
            return w * f64::from(Leduc::terminal_rewards(s, game::RewardMode::Payoff)[0]);
        };
        let d = probabilities(&mut *agents[seat.index()], s);
        let mut v = 0.0;
        for (i, p) in d.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            let mut next = s.clone();
            Leduc::apply(&mut next, <Leduc as Game>::Action::from_index(i).unwrap()).unwrap();
            v += walk(&next, w * p, agents);
        }
        v
    }
    let mut agents = [bot(a), bot(b)];
    Leduc::deals(rules).unwrap().iter().map(|(p, s)| walk(s, *p, &mut agents)).sum()
}
