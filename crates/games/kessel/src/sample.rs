//! Determinisation from a [`PlayerView`]: a full [`State`] consistent with everything one player
//! sees, with the hidden parts (opponents' unknown cards, the order of the draw piles, a card an
//! opponent drew face down, opponents' unplayed tokens, the future dice) sampled at random.
//!
//! Search bots use this instead of [`State::determinize`], which starts from the full state: an
//! agent only ever holds its view, so it cannot cheat even by accident.
//!
//! What is sampled, and how:
//! - **Cards**, family by family: the cards of a family that the view does not place (not in a
//!   discard pile, not in the viewer's hand, not in a known opponent card, not the visible drawn
//!   card) are shuffled and dealt to the draw pile, the opponents' unknown slots and a card an
//!   opponent drew face down. This is uniform over consistent deals; it does not infer anything
//!   from the opponents' past choices.
//! - **Tokens**: each opponent's `unplayed` count is filled with distinct kinds drawn from the
//!   kinds it could still hold (its fixed loadout minus what it spent under `fixed` assignment,
//!   otherwise the enabled kinds minus what it spent).
//! - **Randomness**: the state gets a fresh RNG from `seed`.
//! - **Checks**: the state is finished by [`StateBuilder::build`], which checks every invariant.
//! - **Knowledge tables**: the viewer's row reproduces its view exactly; the other seats are
//!   assumed to know what the viewer knows of each hand (their own hand always).
//! - **At the reveal**, Impostor values already chosen are not part of the view; seats resolved
//!   before the pending die get the best value for their hand (a guess), which only matters for
//!   the rest of that reveal.

// Seats and families index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::action::Source;
use crate::card::{Card, CardKind, CardSet, FAMILY_SIZE, Family};
use crate::config::TokenAssignment;
use crate::pile::Pile;
use crate::ranking::{self, Resolved};
use crate::rng::GameRng;
use crate::state::{Pending, RevealCursor, State, StateBuilder};
use crate::token::{Token, TokenSet};
use crate::view::{PlayerView, ViewDecision};
use game::seat::MAX_PLAYERS;
use thiserror::Error;

const UNKNOWN: u8 = u8::MAX;

/// Why no state could be built from a view.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SampleError {
    /// The view's config does not validate.
    #[error("the view's rule config is invalid: {0}")]
    Config(String),
    /// The view places a card twice, or the counts of hidden cards and hidden slots differ.
    #[error("the view is inconsistent: {0}")]
    Inconsistent(String),
}

fn inconsistent(m: impl Into<String>) -> SampleError {
    SampleError::Inconsistent(m.into())
}

/// A full state consistent with `view`: `sample_state(v, s)?.view(v.viewer) == *v` (see the
/// module documentation for what is sampled). Deterministic in `seed`.
pub fn sample_state(view: &PlayerView, seed: u64) -> Result<State, SampleError> {
    let mut builder = StateBuilder::new(view.config, seed).map_err(|e| SampleError::Config(e.to_string()))?;
    builder.event_logging(false);
    let s = builder.state_mut();
    // One stream for every draw below, in this order: tokens, then each family's cards.
    let mut rng = GameRng::from_seed(seed ^ 0xA076_1D64_78BD_642F);
    copy_public_table(s, view);
    copy_seat_records(s, view);
    sample_tokens(s, view, &mut rng)?;
    if view.round > 0 {
        sample_cards(s, view, &mut rng)?;
    } else {
        set_token_choice(s, view)?;
    }
    builder.build().map_err(|e| inconsistent(e.0))
}

/// The table as the view shows it: round, turn, seats to start and act, effects, chips out of
/// the game, face-up cards, the last settlement and the discard piles. Knowledge of hands starts
/// unknown and the reveal cursor at its start.
fn copy_public_table(s: &mut State, view: &PlayerView) {
    s.round = view.round;
    s.turn = view.turn;
    s.starter = view.starter;
    s.actor = view.actor.unwrap_or(view.starter);
    s.token_played = view.token_played;
    s.effects = view.effects;
    s.removed = view.chips_removed;
    s.seen = view.seen_face_up;
    s.revealed = view.revealed;
    s.settlement = view.last_settlement;
    s.winners = view.winners;
    s.discard = view.discard;
    s.known = [[[UNKNOWN; 2]; MAX_PLAYERS]; MAX_PLAYERS];
    s.reveal = RevealCursor::default();
}

/// Every seat's public record (chips, elimination, spent tokens, this round's Stand/Draw), and
/// whether every seat stood in the current turn so far.
fn copy_seat_records(s: &mut State, view: &PlayerView) {
    let mut all_stood = true;
    for i in 0..view.config.players as usize {
        let sv = &view.seats[i];
        let p = &mut s.players[i];
        p.stock = sv.stock;
        p.pot = sv.pot;
        p.lost = sv.lost;
        p.eliminated = sv.eliminated;
        p.eliminated_in_round = if sv.eliminated { view.round.saturating_sub(1).max(1) } else { 0 };
        p.spent = sv.spent;
        p.last_action = sv.last_action;
        p.stood_turn = sv.stood_turn;
        s.turn_actions[i] = sv.turn_actions;
        s.round_tokens[i] = sv.round_tokens;
        if !sv.eliminated
            && view.turn >= 1
            && let crate::state::TurnAction::Draw(_) = sv.turn_actions[(view.turn - 1).min(2) as usize]
        {
            all_stood = false;
        }
    }
    s.all_stood = all_stood;
}

/// The viewer's own tokens, and for each opponent its `unplayed` count of distinct kinds drawn
/// from those it could still hold.
fn sample_tokens(s: &mut State, view: &PlayerView, rng: &mut GameRng) -> Result<(), SampleError> {
    let cfg = view.config;
    let me = view.viewer.index();
    s.players[me].tokens = view.own_tokens;
    for i in 0..cfg.players as usize {
        if i == me {
            continue;
        }
        let k = view.seats[i].unplayed as usize;
        let spent = view.seats[i].spent;
        let pool_set = if cfg.token_assignment == TokenAssignment::Fixed {
            TokenSet(cfg.fixed_loadouts[i].0 & !spent.0)
        } else {
            TokenSet(cfg.enabled_tokens.0 & !spent.0)
        };
        let mut pool = [Token::FreeDraw; Token::COUNT];
        let mut len = 0;
        for t in pool_set.iter() {
            pool[len] = t;
            len += 1;
        }
        if k > len {
            return Err(inconsistent(format!("seat {i} holds {k} unplayed tokens but only {len} kinds are possible")));
        }
        let mut set = TokenSet::EMPTY;
        for j in 0..k {
            let r = j + rng.below((len - j) as u32) as usize;
            pool.swap(j, r);
            set.insert(pool[j]);
        }
        s.players[i].tokens = set;
    }
    Ok(())
}

/// Where the view leaves cards hidden, after [`place_known_cards`]: the hand slots it does not
/// show, and the source of a card an opponent drew face down.
struct HiddenPlaces {
    placed: CardSet,
    unknown_slots: [[bool; 2]; MAX_PLAYERS],
    hidden_drawn: Option<Source>,
}

/// Cards from round 1 on: the cards the view shows go where it shows them, the rest are dealt
/// at random to the hidden places, then the pending decision is set.
fn sample_cards(s: &mut State, view: &PlayerView, rng: &mut GameRng) -> Result<(), SampleError> {
    let hidden = place_known_cards(s, view)?;
    let drawn_card = deal_hidden_cards(s, view, &hidden, rng)?;
    s.pending = match view.decision {
        ViewDecision::ChooseToken => Pending::ChooseToken,
        ViewDecision::Act => Pending::Act,
        ViewDecision::Target { token } => Pending::Target { token },
        ViewDecision::PrimeDie { dice } => Pending::PrimeDie { dice },
        ViewDecision::Keep { drawn, source } => {
            Pending::Keep { drawn: drawn.or(drawn_card).expect("drawn card placed above"), source }
        }
        ViewDecision::ImpostorDie { family, dice } => Pending::ImpostorDie { family, dice },
        ViewDecision::GameOver => Pending::GameOver,
        ViewDecision::Truncated => Pending::Truncated,
    };
    if let ViewDecision::ImpostorDie { family, .. } = view.decision {
        fill_reveal(s, family);
    }
    Ok(())
}

/// Marks `c` as placed; a card placed twice makes the view inconsistent.
fn place(placed: &mut CardSet, c: Card, what: &str) -> Result<(), SampleError> {
    if placed.insert(c) { Ok(()) } else { Err(inconsistent(format!("card {c} appears twice ({what})"))) }
}

/// Places every card the view shows: the discard piles, the viewer's hand, opponents' known
/// cards (revealed at a settlement of this round when the game just ended), a drawn card shown
/// face up. Returns what stays hidden.
fn place_known_cards(s: &mut State, view: &PlayerView) -> Result<HiddenPlaces, SampleError> {
    let n = view.config.players as usize;
    let me = view.viewer.index();
    let terminal = matches!(view.decision, ViewDecision::GameOver | ViewDecision::Truncated);
    // Seats whose cards count as placed (as in `check_invariants`).
    let settled_now = view.last_settlement.filter(|st| st.round == view.round && terminal);
    let holds = |i: usize| -> bool {
        match settled_now {
            Some(st) => st.seats[i].is_some(),
            None => !view.seats[i].eliminated,
        }
    };
    let mut placed = CardSet::default();
    for f in 0..2 {
        for &c in view.discard[f].as_slice() {
            place(&mut placed, c, "discard pile")?;
        }
    }
    let mut unknown_slots: [[bool; 2]; MAX_PLAYERS] = [[false; 2]; MAX_PLAYERS];
    s.players[me].hand = view.hand;
    for i in 0..n {
        if !holds(i) {
            continue;
        }
        for f in 0..2 {
            let known = if i == me {
                Some(view.hand[f])
            } else if let Some(c) = view.seats[i].known_hand[f] {
                Some(c)
            } else if let Some(st) = settled_now {
                st.seats[i].map(|r| r.hand[f])
            } else {
                None
            };
            match known {
                Some(c) => {
                    if c.family().index() != f {
                        return Err(inconsistent(format!("seat {i} holds {c} in the wrong slot")));
                    }
                    place(&mut placed, c, "hand")?;
                    s.players[i].hand[f] = c;
                    if i != me {
                        for v in 0..MAX_PLAYERS {
                            if v != i {
                                s.known[v][i][f] = c.id();
                            }
                        }
                    }
                }
                None => unknown_slots[i][f] = true,
            }
        }
    }
    let mut hidden_drawn: Option<Source> = None;
    if let ViewDecision::Keep { drawn, source } = view.decision {
        match drawn {
            Some(c) => place(&mut placed, c, "drawn card")?,
            None => hidden_drawn = Some(source),
        }
    }
    Ok(HiddenPlaces { placed, unknown_slots, hidden_drawn })
}

/// Family by family, shuffles the cards not placed and deals them to the unknown hand slots, a
/// card drawn face down, and the draw pile (the rest, which must match the pile's size).
/// Returns the card drawn face down, if any.
fn deal_hidden_cards(
    s: &mut State,
    view: &PlayerView,
    hidden: &HiddenPlaces,
    rng: &mut GameRng,
) -> Result<Option<Card>, SampleError> {
    let n = view.config.players as usize;
    let mut drawn_card: Option<Card> = None;
    for f in 0..2 {
        let fam = Family::from_index(f);
        let mut cards = [Card::from_id(0).expect("card 0"); FAMILY_SIZE];
        let mut len = 0;
        for c in Card::family_cards(fam) {
            if !hidden.placed.contains(c) {
                cards[len] = c;
                len += 1;
            }
        }
        let slots: usize = (0..n).filter(|&i| hidden.unknown_slots[i][f]).count();
        let extra = usize::from(hidden.hidden_drawn.is_some_and(|src| src.family().index() == f));
        let want = view.draw_sizes[f] as usize + slots + extra;
        if want != len {
            return Err(inconsistent(format!(
                "{} hidden {} cards but {} hidden places",
                len,
                if f == 0 { "Sand" } else { "Blood" },
                want
            )));
        }
        rng.shuffle(&mut cards[..len]);
        let mut k = 0;
        for i in 0..n {
            if hidden.unknown_slots[i][f] {
                s.players[i].hand[f] = cards[k];
                k += 1;
            }
        }
        if extra == 1 {
            drawn_card = Some(cards[k]);
            k += 1;
        }
        s.draw[f] = Pile::from_bottom_first(&cards[k..len]).expect("a family fits a pile");
    }
    Ok(drawn_card)
}

/// Round 0 (tokens being chosen): no card is dealt yet, so every hand is the view's placeholder
/// and the piles are empty.
fn set_token_choice(s: &mut State, view: &PlayerView) -> Result<(), SampleError> {
    for p in s.players.iter_mut() {
        p.hand = view.hand;
    }
    s.draw = [Pile::default(); 2];
    s.discard = [Pile::default(); 2];
    s.pending = match view.decision {
        ViewDecision::ChooseToken => Pending::ChooseToken,
        ViewDecision::GameOver => Pending::GameOver,
        ViewDecision::Truncated => Pending::Truncated,
        _ => return Err(inconsistent("round 0 only has token choices")),
    };
    Ok(())
}

/// Rebuilds the resolved values and the reveal cursor for a pending Impostor die.
fn fill_reveal(s: &mut State, family: Family) {
    let cfg = s.config;
    let mods = s.effects.mods;
    let actor = s.actor;
    let mut seat = s.starter;
    let mut pos = 0u8;
    let mut before = true;
    loop {
        let hand = s.players[seat.index()].hand;
        let here = seat == actor;
        if here {
            before = false;
            s.reveal = RevealCursor { seat_pos: pos, family: family.index() as u8 };
        }
        let mut vals = [Resolved::Number(0); 2];
        for f in 0..2 {
            vals[f] = match hand[f].kind() {
                CardKind::Number(v) => Resolved::Number(v),
                CardKind::Sylop => Resolved::Sylop,
                CardKind::Impostor if mods.major_fraud => Resolved::Number(6),
                CardKind::Impostor => Resolved::Number(0),
            };
        }
        // Impostors resolved before the pending die: the best value for the hand (a guess).
        let guess = |f: usize| before || (here && f < family.index());
        let all: [Resolved; 6] = std::array::from_fn(|v| Resolved::Number(v as u8 + 1));
        let opts: [&[Resolved]; 2] = std::array::from_fn(|f| {
            if vals[f] == Resolved::Number(0) && guess(f) { &all[..] } else { std::slice::from_ref(&vals[f]) }
        });
        let (a, b, _) = ranking::best_choice(opts, mods, &cfg);
        s.resolved[seat.index()] = [a, b];
        seat = s.next_active(seat);
        pos += 1;
        if seat == s.starter {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RuleConfig;
    use game::seat::Seat;
    use rand::{RngExt, SeedableRng};

    fn configs() -> Vec<RuleConfig> {
        let mut v = Vec::new();
        for players in 2..=8u8 {
            v.push(RuleConfig::with_players(players));
        }
        v.push(RuleConfig { token_assignment: TokenAssignment::None, ..RuleConfig::with_players(3) });
        v.push(RuleConfig { token_assignment: TokenAssignment::Choose, ..RuleConfig::with_players(4) });
        v.push(RuleConfig { tokens_per_player: 16, ..RuleConfig::with_players(5) });
        v.push(RuleConfig { starting_chips: 2, round_limit: 3, ..RuleConfig::with_players(6) });
        v
    }

    #[test]
    fn sampled_states_reproduce_every_view_and_hold_the_invariants() {
        let mut checked = 0;
        for (ci, cfg) in configs().into_iter().enumerate() {
            for g in 0..16u64 {
                let mut st = State::new(cfg, game::derive_seed(ci as u64, g)).unwrap();
                st.set_event_logging(false);
                let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(g);
                loop {
                    for v in 0..cfg.players {
                        let view = st.view(Seat(v));
                        let s2 = sample_state(&view, g * 31 + v as u64).unwrap_or_else(|e| panic!("{e}"));
                        let a = serde_json::to_string(&s2.view(Seat(v))).unwrap();
                        let b = serde_json::to_string(&view).unwrap();
                        assert_eq!(a, b, "config {ci} game {g} viewer {v}");
                        s2.check_invariants().unwrap_or_else(|e| panic!("config {ci} game {g}: {e}"));
                        checked += 1;
                    }
                    if st.is_terminal() {
                        break;
                    }
                    let m = st.legal_mask();
                    let i = m.nth_index(rng.random_range(0..m.count())).unwrap();
                    st.apply_index(i).unwrap();
                }
            }
        }
        assert!(checked > 2_000, "{checked}");
    }

    #[test]
    fn sampled_states_play_on_to_the_end() {
        let cfg = RuleConfig::with_players(4);
        let mut st = State::new(cfg, 5).unwrap();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(9);
        while !st.is_terminal() {
            let mut s2 = sample_state(&st.view(Seat(1)), 3).unwrap();
            while !s2.is_terminal() {
                let m = s2.legal_mask();
                s2.apply_index(m.nth_index(rng.random_range(0..m.count())).unwrap()).unwrap();
                s2.check_invariants().unwrap();
            }
            let m = st.legal_mask();
            st.apply_index(m.nth_index(rng.random_range(0..m.count())).unwrap()).unwrap();
        }
    }
}
