//! The fast observation encoder equals a plain, segment-by-segment reference encoder written
//! from `docs/observation.md`, bit for bit, for every seat's view of many random states (every
//! table size, rule variants, determinised states, finished games).

use game::Seat;
use games::kessel::Kessel;
use games::kessel::config::{ImpostorRule, TokenAssignment};
use games::kessel::obs::OBS_LEN;
use games::kessel::obs::encode;
use games::kessel::obs::segment;
use games::kessel::state::TurnAction;
use games::kessel::{Card, LastAction, PlayerView, State, Token, ViewDecision};

fn off(name: &str) -> usize {
    segment(name).expect("documented segment").offset
}

fn card_slot(c: Card) -> usize {
    c.family().index() * 8 + c.kind().index()
}

fn tokens(out: &mut [f32], base: usize, bits: u16) {
    for t in 0..Token::COUNT {
        out[base + t] = f32::from((bits >> t) & 1);
    }
}

/// The observation exactly as `docs/observation.md` describes it, written as plainly as possible.
fn reference(view: &PlayerView) -> Vec<f32> {
    let mut out = vec![0.0f32; OBS_LEN];
    let cfg = &view.config;
    let n = cfg.players;
    let me = view.viewer;
    let rel = |s: Seat| me.distance_to(s, n) as usize;
    let start = f32::from(cfg.starting_chips.max(1));
    let tpp = f32::from(cfg.tokens_per_player.max(1));

    out[off("players") + n as usize - 2] = 1.0;
    if view.round > 0 {
        out[off("round")] = (f32::from(view.round) / f32::from(cfg.round_limit.max(1))).min(1.0);
        out[off("round") + 1] = 1.0 / f32::from(view.round);
        out[off("starter") + rel(view.starter)] = 1.0;
    }
    if (1..=3).contains(&view.turn) {
        out[off("turn") + view.turn as usize - 1] = 1.0;
    }
    if let Some(a) = view.actor {
        out[off("actor") + rel(a)] = 1.0;
    }
    let mut dice = |d: [u8; 2]| {
        for (k, &v) in d.iter().enumerate() {
            if (1..=6).contains(&v) {
                out[off("dice") + k * 6 + v as usize - 1] = 1.0;
            }
        }
    };
    let (kind, extra): (usize, Option<(usize, f32)>) = match view.decision {
        ViewDecision::ChooseToken => (0, None),
        ViewDecision::Act => (1, None),
        ViewDecision::Target { token } => (2, Some((off("target_token") + token.index(), 1.0))),
        ViewDecision::PrimeDie { dice: d } => {
            dice(d);
            (3, None)
        }
        ViewDecision::Keep { drawn, source } => {
            if let Some(c) = drawn {
                out[off("drawn_card") + card_slot(c)] = 1.0;
            }
            (4, Some((off("drawn_source") + source as usize, 1.0)))
        }
        ViewDecision::ImpostorDie { family, dice: d } => {
            dice(d);
            (5, Some((off("impostor_family") + family.index(), 1.0)))
        }
        ViewDecision::GameOver => (6, None),
        ViewDecision::Truncated => (7, None),
    };
    out[off("decision") + kind] = 1.0;
    if let Some((i, v)) = extra {
        out[i] = v;
    }
    out[off("flags")] = if view.token_played { 1.0 } else { 0.0 };
    out[off("flags") + 1] = if view.revealed { 1.0 } else { 0.0 };
    if view.round > 0 && !view.seats[me.index()].eliminated {
        for c in view.hand {
            out[off("hand") + card_slot(c)] = 1.0;
        }
    }
    for f in 0..2 {
        if let Some(c) = view.discard[f].top() {
            out[off("discard_top") + card_slot(c)] = 1.0;
        }
        out[off("pile_sizes") + f] = view.discard[f].len() as f32 * (1.0 / 22.0);
        out[off("pile_sizes") + 2 + f] = f32::from(view.draw_sizes[f]) * (1.0 / 22.0);
    }
    for c in view.seen_face_up.iter() {
        out[off("seen") + card_slot(c)] += 1.0 / f32::from(c.kind().copies());
    }
    tokens(&mut out, off("own_tokens"), view.own_tokens.0);
    let mut round_tokens = 0u16;
    for o in 0..n as usize {
        let s = Seat(((me.index() + o) % n as usize) as u8);
        let sv = &view.seats[s.index()];
        if o > 0 {
            for c in sv.known_hand.iter().flatten() {
                out[off("known_cards") + (o - 1) * 16 + card_slot(*c)] = 1.0;
            }
        }
        let b = off("seats") + o * 11;
        let flag = |x: bool| if x { 1.0 } else { 0.0 };
        let fields = [
            1.0,
            flag(sv.eliminated),
            f32::from(sv.stock.0) * (1.0 / start),
            f32::from(sv.pot.0) * (1.0 / start),
            f32::from(sv.lost.0) * (1.0 / start),
            flag(sv.last_action == LastAction::Stand),
            flag(sv.last_action == LastAction::Draw),
            flag(sv.immune),
            flag(view.effects.embargoed.contains(s)),
            f32::from(sv.unplayed) * (1.0 / tpp),
            sv.round_tokens.len() as f32 * (1.0 / tpp),
        ];
        out[b..b + 11].copy_from_slice(&fields);
        tokens(&mut out, off("spent") + o * 16, sv.spent.0);
        round_tokens |= sv.round_tokens.0;
        for (turn, ta) in sv.turn_actions.iter().enumerate() {
            let slot = match *ta {
                TurnAction::None => None,
                TurnAction::Stand { forced } => Some(forced as usize),
                TurnAction::Draw(src) => Some(2 + src as usize),
            };
            if let Some(k) = slot {
                out[off("history") + (o * 3 + turn) * 6 + k] = 1.0;
            }
        }
    }
    tokens(&mut out, off("round_tokens"), round_tokens);
    let fx = &view.effects;
    let e = off("effects");
    out[e] = if fx.mods.cook_the_books { 1.0 } else { 0.0 };
    out[e + 1] = if fx.mods.markdown { 1.0 } else { 0.0 };
    out[e + 2] = if fx.mods.major_fraud { 1.0 } else { 0.0 };
    out[e + 3] = if fx.free_draw { 1.0 } else { 0.0 };
    if let Some(p) = fx.mods.prime
        && (1..=6).contains(&p)
    {
        out[e + 4 + p as usize - 1] = 1.0;
    }
    out
}

fn same(state: &State, what: &str) {
    let mut fast = vec![f32::NAN; OBS_LEN];
    for s in 0..state.config().players {
        let view = state.view(Seat(s));
        // A dirty buffer: the encoder must overwrite every float.
        fast.fill(f32::NAN);
        encode(&view, &mut fast);
        let want = reference(&view);
        for (i, (a, b)) in fast.iter().zip(&want).enumerate() {
            assert_eq!(a.to_bits(), b.to_bits(), "{what}, seat {s}: float {i} is {a}, reference {b}");
        }
    }
}

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

fn play(config: env::GameConfig<Kessel>, games: u64, seed: u64) {
    let mut env = env::Env::<Kessel>::new(config).unwrap();
    let mut rng = seed | 1;
    for g in 0..games {
        let mut ts = env.reset(seed.wrapping_mul(1000) + g);
        let mut k = 0u64;
        loop {
            same(env.state(), &format!("{} players, game {g}, step {k}", config.rules.players));
            if k % 7 == 3 {
                let d = env.state().determinize(Seat((k % u64::from(config.rules.players)) as u8), k);
                same(&d, "determinised");
            }
            if ts.done() {
                break;
            }
            let m = ts.mask;
            let a = m.nth_index((xorshift(&mut rng) % m.count() as u64) as usize).unwrap();
            ts = env.step(a).unwrap();
            k += 1;
        }
    }
}

#[test]
fn fast_encoder_matches_reference_every_table_size() {
    for players in 2..=8u8 {
        play(env::GameConfig::<Kessel>::with_players(players), 40, u64::from(players));
    }
}

#[test]
fn fast_encoder_matches_reference_rule_variants() {
    let mut choose = env::GameConfig::<Kessel>::with_players(3);
    choose.rules.token_assignment = TokenAssignment::Choose;
    play(choose, 15, 21);
    let mut none = env::GameConfig::<Kessel>::with_players(4);
    none.rules.token_assignment = TokenAssignment::None;
    play(none, 15, 22);
    for (i, imp) in [ImpostorRule::OneDie, ImpostorRule::AutoBest].into_iter().enumerate() {
        let mut c = env::GameConfig::<Kessel>::with_players(5);
        c.rules.impostor = imp;
        play(c, 15, 23 + i as u64);
    }
    let mut short = env::GameConfig::<Kessel>::with_players(6);
    short.rules.round_limit = 2;
    short.rules.starting_chips = 8;
    short.rules.tokens_per_player = 6;
    play(short, 15, 26);
}
