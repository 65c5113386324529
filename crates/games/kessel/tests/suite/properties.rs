//! Property tests over many seeded random games, 2–8 players, every K9 alternative and every
//! token assignment: conservation of cards and chips, legality, determinism, serde round trips,
//! termination and the absence of leaks in player views.
//!
//! Each game's config is drawn from a seeded generator, so a failure names a reproducible
//! (game number, step).

use game::Seat;
use kessel::config::{
    CookScope, EmbezzlementSource, FirstStarter, ImpostorRule, InStand, MarkdownSylops, NulhrekTiebreak, RefundSource,
    RoundStarter, TaxTokenChips, TokenAssignment,
};
use kessel::{
    Action, Card, Event, NUM_ACTIONS, Outcome, Pending, RuleConfig, Source, State, Token, TokenSet, ViewDecision,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

type Rng = Pcg64Mcg;

fn pick<T: Copy>(r: &mut Rng, xs: &[T]) -> T {
    xs[r.random_range(0..xs.len())]
}

/// A random valid config: every K9 field varies, as do the table size and the token settings.
fn random_config(r: &mut Rng, players: u8) -> RuleConfig {
    let enabled = if r.random_range(0..3) == 0 { TokenSet(r.random_range(0..=u16::MAX)) } else { TokenSet::ALL };
    let assignment = pick(
        r,
        &[
            TokenAssignment::Random,
            TokenAssignment::Random,
            TokenAssignment::Fixed,
            TokenAssignment::Choose,
            TokenAssignment::None,
        ],
    );
    let tokens_per_player = r.random_range(0..=enabled.len().min(4)) as u8;
    let mut c = RuleConfig {
        players,
        starting_chips: pick(r, &[1, 2, 4, 6, 6, 8, 12, 25]),
        credits_per_chip: 15,
        round_limit: pick(r, &[1, 3, 8, 100]),
        nulhrek_tiebreak: pick(r, &[NulhrekTiebreak::LowerCards, NulhrekTiebreak::None]),
        impostor: pick(r, &[ImpostorRule::OwnerChooses, ImpostorRule::AutoBest, ImpostorRule::OneDie]),
        cook_the_books: pick(r, &[CookScope::PureLast, CookScope::PureFirst]),
        markdown_sylops: pick(r, &[MarkdownSylops::ZeroPair, MarkdownSylops::StaysPure]),
        refund_source: pick(r, &[RefundSource::HandPot, RefundSource::LostChips]),
        embezzlement: pick(r, &[EmbezzlementSource::HandPot, EmbezzlementSource::Stock]),
        tax_token_chips: pick(r, &[TaxTokenChips::LeaveGame, TaxTokenChips::VictimHandPot]),
        in_stand: pick(r, &[InStand::LastAction, InStand::StoodThisTurn]),
        early_reveal: r.random_range(0..4) != 0,
        round_starter: pick(r, &[RoundStarter::Rotates, RoundStarter::AlwaysSeat0]),
        first_starter: pick(r, &[FirstStarter::Seat0, FirstStarter::Random]),
        token_assignment: assignment,
        tokens_per_player: if assignment == TokenAssignment::Random && enabled.len() >= 3 && r.random_range(0..2) == 0 {
            3
        } else {
            tokens_per_player
        },
        enabled_tokens: enabled,
        fixed_loadouts: [TokenSet::EMPTY; 8],
    };
    if assignment == TokenAssignment::Fixed {
        let kinds: Vec<Token> = enabled.iter().collect();
        for i in 0..players as usize {
            let mut pool = kinds.clone();
            let mut set = TokenSet::EMPTY;
            for _ in 0..c.tokens_per_player {
                let k = r.random_range(0..pool.len());
                set.insert(pool.swap_remove(k));
            }
            c.fixed_loadouts[i] = set;
        }
    }
    c.validate().expect("generated configs are valid");
    c
}

/// A random legal action, preferring tokens a little so that every kind gets played.
fn random_action(r: &mut Rng, s: &State) -> usize {
    random_action_biased(r, s, false)
}

/// A random legal action; `draw_heavy` prefers drawing from the draw piles, which empties them
/// and exercises the rebuild of K3.5.
fn random_action_biased(r: &mut Rng, s: &State, draw_heavy: bool) -> usize {
    let m = s.legal_mask();
    if draw_heavy && r.random_range(0..4) != 0 {
        for a in [Action::Draw(Source::SandDeck), Action::Draw(Source::BloodDeck)] {
            if m.contains(a) && r.random_range(0..2) == 0 {
                return a.index();
            }
        }
        if m.contains(Action::KeepDrawn) {
            return Action::KeepDrawn.index();
        }
    }
    let tokens: Vec<usize> =
        m.indices().filter(|&i| matches!(Action::from_index(i), Some(Action::PlayToken(_)))).collect();
    if !tokens.is_empty() && r.random_range(0..3) == 0 {
        return pick(r, &tokens);
    }
    m.nth_index(r.random_range(0..m.count())).unwrap()
}

/// Independent check of K1.1 and chip conservation (not relying on `check_invariants`).
fn check_conservation(s: &State, ctx: &str) {
    let n = s.num_players() as usize;
    let mut chips: u32 = s.chips_removed();
    for i in 0..n {
        let p = s.player(Seat(i as u8));
        chips += p.stock.0 as u32 + p.pot.0 as u32;
        if p.eliminated {
            assert_eq!((p.stock.0, p.pot.0), (0, 0), "{ctx}: eliminated seat {i} holds chips");
        }
    }
    assert_eq!(chips, s.config().total_chips(), "{ctx}: stock + hand pots + removed != chips dealt");
    if s.round() == 0 {
        return;
    }
    let mut ids: Vec<u8> = Vec::with_capacity(44);
    for f in kessel::Family::ALL {
        for c in s.draw_pile(f).as_slice().iter().chain(s.discard_pile(f).as_slice()) {
            assert_eq!(c.family(), f, "{ctx}: {c} in the wrong family's pile");
            ids.push(c.id());
        }
    }
    for i in 0..n {
        let holds = if s.is_terminal() {
            s.last_settlement().unwrap().seats[i].is_some()
        } else {
            !s.player(Seat(i as u8)).eliminated
        };
        if holds {
            let h = s.player(Seat(i as u8)).hand;
            assert_eq!(
                (h[0].family(), h[1].family()),
                (kessel::Family::Sand, kessel::Family::Blood),
                "{ctx}: seat {i} hand"
            );
            ids.extend([h[0].id(), h[1].id()]);
        }
    }
    if let Pending::Keep { drawn, .. } = s.pending() {
        ids.push(drawn.id());
    }
    ids.sort_unstable();
    assert_eq!(ids, (0..44).collect::<Vec<u8>>(), "{ctx}: the 44 cards are not all present exactly once");
}

/// Every legal action applies (on a copy) and every other index, in range or not, is refused
/// with the state unchanged.
fn check_legality(s: &mut State, ctx: &str) {
    let m = s.legal_mask();
    let legal = s.legal_actions();
    assert_eq!(legal.iter().map(|a| a.index()).collect::<Vec<_>>(), m.indices().collect::<Vec<_>>());
    assert!(legal.windows(2).all(|w| w[0].index() < w[1].index()), "{ctx}: legal actions sorted and unique");
    assert_eq!(legal.is_empty(), s.is_terminal(), "{ctx}: no legal action exactly at terminal states");
    assert_eq!(s.current_player().is_none(), s.is_terminal());
    let before = s.clone();
    for i in (0..NUM_ACTIONS).chain([NUM_ACTIONS, 63, 64, 1000, usize::MAX]) {
        if m.contains_index(i) {
            let mut t = before.clone();
            t.apply_index(i).unwrap_or_else(|e| panic!("{ctx}: legal action {i} refused: {e}"));
            t.check_invariants().unwrap_or_else(|e| panic!("{ctx}: after legal action {i}: {e}"));
        } else {
            assert!(s.apply_index(i).is_err(), "{ctx}: illegal action {i} accepted");
            assert!(*s == before, "{ctx}: refused action {i} changed the state");
        }
    }
}

#[derive(Default)]
struct Coverage {
    tokens: TokenSet,
    rebuilds: usize,
    truncated: usize,
    won: usize,
    shared: usize,
    impostor_decisions: usize,
    swaps: usize,
    steps: usize,
}

/// Plays one random game, calling `each` before every action with the state and the chosen index.
fn run_game(
    c: RuleConfig,
    seed: u64,
    r: &mut Rng,
    cov: &mut Coverage,
    draw_heavy: bool,
    mut each: impl FnMut(&mut State, usize, usize),
) -> State {
    let mut s = State::new(c, seed).unwrap();
    let cap = c.round_limit as usize * 400 + 100;
    let mut step = 0;
    while !s.is_terminal() {
        assert!(step < cap, "game did not end within {cap} steps");
        let a = random_action_biased(r, &s, draw_heavy);
        if let Some(Action::PlayToken(t)) = Action::from_index(a) {
            cov.tokens.insert(t);
        }
        if matches!(s.pending(), Pending::ImpostorDie { .. }) {
            cov.impostor_decisions += 1;
        }
        each(&mut s, step, a);
        s.apply_index(a).unwrap();
        step += 1;
    }
    cov.steps += step;
    cov.rebuilds += s.events().iter().filter(|e| matches!(e, Event::DrawPileRebuilt { .. })).count();
    cov.swaps += s.events().iter().filter(|e| matches!(e, Event::HandsSwapped { .. })).count();
    match s.outcome(Seat(0)) {
        _ if s.is_truncated() => cov.truncated += 1,
        _ if s.winners().len() > 1 => cov.shared += 1,
        _ => cov.won += 1,
    }
    s
}

fn check_terminal(s: &State, ctx: &str) {
    assert!(s.is_terminal(), "{ctx}");
    let n = s.num_players();
    if s.is_truncated() {
        assert_eq!(s.round(), s.config().round_limit, "{ctx}: truncated before the round limit");
        assert!(s.winners().is_empty());
        assert!(s.active_seats().len() >= 2, "{ctx}: a decided game was reported truncated");
        for i in 0..n {
            assert_eq!(s.outcome(Seat(i)), Outcome::Truncated);
        }
    } else {
        let active = s.active_seats();
        assert!(active.len() <= 1, "{ctx}: game over with {} players holding chips", active.len());
        assert!(!s.winners().is_empty(), "{ctx}: a finished game has a winner");
        if active.len() == 1 {
            assert_eq!(s.winners(), active);
        } else {
            assert_eq!(
                s.winners(),
                s.last_settlement().unwrap().winners,
                "{ctx}: shared win goes to the last round's winners"
            );
        }
        for i in 0..n {
            let o = s.outcome(Seat(i));
            match (s.winners().contains(Seat(i)), s.winners().len()) {
                (true, 1) => assert_eq!(o, Outcome::Won),
                (true, k) => assert_eq!(o, Outcome::SharedWin { of: k as u8 }),
                (false, _) => assert_eq!(o, Outcome::Lost),
            }
        }
    }
}

#[test]
fn conservation_legality_and_termination_over_random_games() {
    let mut r = Rng::seed_from_u64(0xC0FFEE);
    let mut cov = Coverage::default();
    for game in 0..2500u64 {
        let players = 2 + (game % 7) as u8;
        let c = random_config(&mut r, players);
        let mut s = State::new(c, game).unwrap();
        s.set_event_logging(game % 4 == 0);
        let cap = c.round_limit as usize * 400 + 100;
        let mut step = 0;
        while !s.is_terminal() {
            let ctx = format!("game {game} ({players} players) step {step}");
            assert!(step < cap, "{ctx}: no end in sight");
            check_conservation(&s, &ctx);
            s.check_invariants().unwrap_or_else(|e| panic!("{ctx}: {e}"));
            if game % 3 == 0 {
                check_legality(&mut s, &ctx);
            }
            let a = random_action(&mut r, &s);
            if let Some(Action::PlayToken(t)) = Action::from_index(a) {
                cov.tokens.insert(t);
            }
            s.apply_index(a).unwrap();
            step += 1;
        }
        let ctx = format!("game {game} end");
        check_conservation(&s, &ctx);
        check_legality(&mut s, &ctx);
        check_terminal(&s, &ctx);
        if s.is_truncated() {
            cov.truncated += 1;
        }
    }
    assert_eq!(cov.tokens, TokenSet::ALL, "every token kind was played in some game");
    assert!(cov.truncated > 0, "some game was truncated");
}

#[test]
fn determinism_and_serde_round_trip_at_every_step() {
    let mut r = Rng::seed_from_u64(7);
    let mut cov = Coverage::default();
    for game in 0..120u64 {
        let players = 2 + (game % 7) as u8;
        let mut c = random_config(&mut r, players);
        let draw_heavy = game % 2 == 1;
        if draw_heavy {
            c.starting_chips = 20;
        }
        let seed = game * 31 + 5;
        // Game A: plain. Record its actions and every state.
        let mut states = Vec::new();
        let mut actions = Vec::new();
        let a_end = run_game(c, seed, &mut r, &mut cov, draw_heavy, |s, _, a| {
            states.push(s.clone());
            actions.push(a);
        });
        // Game B: same seed and actions, but the state goes through JSON before every action and
        // play continues from the copy. It must match A at every step, events included.
        let mut b = State::new(c, seed).unwrap();
        for (step, &a) in actions.iter().enumerate() {
            let text = serde_json::to_string(&b).unwrap();
            let copy: State = serde_json::from_str(&text).unwrap();
            assert_eq!(copy, b, "game {game} step {step}: serde round trip changed the state");
            b = copy;
            assert_eq!(b, states[step], "game {game} step {step}: replay diverged");
            b.apply_index(a).unwrap();
        }
        assert_eq!(b, a_end, "game {game}: final states differ");
        assert_eq!(b.events(), a_end.events());
        // A fresh game with the same seed and actions is identical too (determinism).
        let mut c2 = State::new(c, seed).unwrap();
        for &a in &actions {
            c2.apply_index(a).unwrap();
        }
        assert_eq!(c2, a_end);
    }
    assert!(cov.rebuilds > 0, "some game rebuilt a draw pile");
}

/// What each viewer legitimately knows of each seat's cards, rebuilt from the public events and
/// the viewer's own actions only.
struct Knowledge {
    know: [[[Option<Card>; 2]; 8]; 8],
    revealed: bool,
    drawing: Option<(Seat, Option<Card>)>,
}

impl Knowledge {
    fn new() -> Self {
        Knowledge { know: [[[None; 2]; 8]; 8], revealed: false, drawing: None }
    }

    fn observe(&mut self, e: &Event, before: &State) {
        match *e {
            Event::RoundStarted { .. } => {
                self.know = [[[None; 2]; 8]; 8];
                self.revealed = false;
            }
            Event::Drew { seat, card, .. } => self.drawing = Some((seat, card)),
            Event::Discarded { seat, card } => {
                if let Some((drawer, shown)) = self.drawing.take() {
                    assert_eq!(drawer, seat);
                    let f = card.family().index();
                    for v in 0..8 {
                        match shown {
                            // From a discard pile: if the drawn card was kept, everyone knows it.
                            Some(d) if d != card => self.know[v][seat.index()][f] = Some(d),
                            Some(_) => {}
                            // From a draw pile: a known held card that was discarded is gone.
                            None => {
                                if self.know[v][seat.index()][f] == Some(card) {
                                    self.know[v][seat.index()][f] = None;
                                }
                            }
                        }
                    }
                }
            }
            Event::Exhausted { target, .. } => {
                for v in 0..8 {
                    self.know[v][target.index()] = [None; 2];
                }
            }
            Event::HandsSwapped { seat, target } => {
                let (a, b) = (seat.index(), target.index());
                for v in 0..8 {
                    self.know[v].swap(a, b);
                }
                let ha = before.player(seat).hand;
                let hb = before.player(target).hand;
                self.know[a][b] = [Some(ha[0]), Some(ha[1])];
                self.know[b][a] = [Some(hb[0]), Some(hb[1])];
            }
            Event::Revealed { .. } => self.revealed = true,
            _ => {}
        }
    }
}

fn check_views(s: &State, k: &Knowledge, ctx: &str, r: &mut Rng, determinize: bool) {
    let n = s.num_players();
    for v in 0..n {
        let view = s.view(Seat(v));
        let me = s.player(Seat(v));
        assert_eq!(view.own_tokens, me.tokens, "{ctx}");
        if !me.eliminated && s.round() > 0 {
            assert_eq!(view.hand, me.hand, "{ctx}");
        }
        for o in 0..n {
            let p = s.player(Seat(o));
            let sv = &view.seats[o as usize];
            assert_eq!(sv.unplayed as usize, p.tokens.len());
            assert_eq!(sv.spent, p.spent);
            if o == v {
                continue;
            }
            for f in 0..2 {
                let expected = if p.eliminated || s.round() == 0 {
                    None
                } else if k.revealed {
                    Some(p.hand[f])
                } else {
                    k.know[v as usize][o as usize][f]
                };
                if let Some(c) = expected {
                    assert_eq!(
                        c, p.hand[f],
                        "{ctx}: tracker says seat {v} knows {c} in seat {o}'s hand, which holds {}",
                        p.hand[f]
                    );
                }
                assert_eq!(
                    sv.known_hand[f], expected,
                    "{ctx}: seat {v}'s view of seat {o}'s card {f} is {:?}, the rules allow {:?}",
                    sv.known_hand[f], expected
                );
            }
        }
        if let Pending::Keep { drawn, source } = s.pending() {
            let shown = s.current_player() == Some(Seat(v)) || !source.is_deck();
            assert_eq!(view.decision, ViewDecision::Keep { drawn: shown.then_some(drawn), source }, "{ctx}");
        }
        if determinize && r.random_range(0..2) == 0 {
            let d = s.determinize(Seat(v), r.random_range(0..u64::MAX));
            d.check_invariants().unwrap_or_else(|e| panic!("{ctx}: determinized state: {e}"));
            assert_eq!(
                serde_json::to_string(&d.view(Seat(v))).unwrap(),
                serde_json::to_string(&view).unwrap(),
                "{ctx}: determinize changed seat {v}'s view"
            );
        }
    }
}

#[test]
fn views_never_contain_an_opponents_hidden_card() {
    let mut r = Rng::seed_from_u64(99);
    let mut r2 = Rng::seed_from_u64(100);
    let mut cov = Coverage::default();
    for game in 0..600u64 {
        let players = 2 + (game % 7) as u8;
        let mut c = random_config(&mut r, players);
        if game % 2 == 0 {
            // Make Direct Transaction, Exhaustion and discard draws frequent.
            c.token_assignment = TokenAssignment::Random;
            c.enabled_tokens =
                [Token::DirectTransaction, Token::Exhaustion, Token::FreeDraw, Token::Embargo].into_iter().collect();
            c.tokens_per_player = 3;
        }
        let mut k = Knowledge::new();
        let mut seen = 0usize;
        let mut prev: Option<State> = None;
        let end = run_game(c, game, &mut r, &mut cov, game % 4 == 1, |s, step, _| {
            // Observe the events produced by the previous action, with the state before it.
            if let Some(before) = prev.take() {
                for e in &s.events()[seen..] {
                    k.observe(e, &before);
                }
            } else {
                for e in &s.events()[seen..] {
                    k.observe(e, s);
                }
            }
            seen = s.events().len();
            for e in s.events() {
                if let Event::Drew { source, card, .. } = e {
                    assert_eq!(card.is_some(), !source.is_deck(), "the log shows exactly the face-up draws");
                }
            }
            check_views(s, &k, &format!("game {game} step {step}"), &mut r2, game % 3 == 0);
            prev = Some(s.clone());
        });
        if let Some(before) = prev.take() {
            for e in &end.events()[seen..] {
                k.observe(e, &before);
            }
        }
        check_views(&end, &k, &format!("game {game} end"), &mut r2, false);
    }
    assert!(cov.swaps > 0, "some game had a Direct Transaction");
    let _ = Source::ALL;
}

#[test]
fn determinize_resamples_hidden_information() {
    // Over many positions, determinisation changes some opponent's hidden card and keeps the
    // viewer's own hand and the public piles.
    let mut r = Rng::seed_from_u64(5);
    let mut changed = 0;
    for game in 0..40u64 {
        let c = RuleConfig::with_players(2 + (game % 7) as u8);
        let mut s = State::new(c, game).unwrap();
        while !s.is_terminal() {
            let v = Seat(r.random_range(0..c.players));
            let d = s.determinize(v, game);
            assert_eq!(d.player(v).hand, s.player(v).hand);
            assert_eq!(d.discard_pile(kessel::Family::Sand), s.discard_pile(kessel::Family::Sand));
            for o in 0..c.players {
                if o != v.0 && d.player(Seat(o)).hand != s.player(Seat(o)).hand {
                    changed += 1;
                }
            }
            let a = random_action(&mut r, &s);
            s.apply_index(a).unwrap();
        }
    }
    assert!(changed > 0);
}
